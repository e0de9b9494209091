//! Every shipped level and catalog file loads and validates.

use crate::common::{catalog, level, ron_files, root};
use skirmish::load::{load_level_file, parse_catalog};
use skirmish::terrain::default_legend;
use std::collections::BTreeSet;

#[test]
fn every_catalog_file_validates() {
    let files = ron_files(&root().join("assets/catalog"));
    assert!(!files.is_empty());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        if let Err(p) = parse_catalog(&bytes, &path.display().to_string(), catalog()) {
            panic!("{p}");
        }
    }
}

#[test]
fn catalog_has_what_the_issue_asks() {
    let c = catalog();
    assert!(c.templates.len() >= 8, "8 unit kinds");
    assert!(c.weapons.len() >= 12, "12 weapons");
    assert!(c.armor.len() >= 4, "4 armors");
    assert!(c.shields.len() >= 2, "2 shields");
    use skirmish::format::{Range, WeaponTrait};
    assert!(
        c.weapons.iter().any(|w| w.reach >= 2 && !w.is_ranged()),
        "a reach weapon"
    );
    assert!(c.weapons.iter().any(|w| w.is_throwing()), "a thrown weapon");
    assert!(c.weapons.iter().any(|w| w.has(WeaponTrait::Bow)), "a bow");
    assert!(
        c.weapons.iter().any(|w| w.has(WeaponTrait::Crossbow)),
        "a crossbow"
    );
    assert!(
        c.weapons
            .iter()
            .any(|w| matches!(w.range, Some(Range::Trio(..)))),
        "a range-trio weapon"
    );
    assert!(
        c.items.iter().any(|i| i.splash > 0 && i.damage.is_some()),
        "a splash bomb"
    );
    assert!(c.items.iter().any(|i| i.heal.is_some()), "a healing potion");
}

#[test]
fn every_level_validates() {
    let files = ron_files(&root().join("levels"));
    assert!(files.len() >= 4, "at least 4 levels");
    for path in files {
        if let Err(p) = load_level_file(&path, catalog()) {
            panic!("{p}");
        }
    }
}

#[test]
fn levels_cover_sizes_terrain_and_mixed_sides() {
    let levels: Vec<_> = ron_files(&root().join("levels"))
        .iter()
        .map(|p| level(p.file_name().unwrap().to_str().unwrap()))
        .collect();
    let sizes: BTreeSet<_> = levels
        .iter()
        .map(|l| (l.map.width(), l.map.height()))
        .collect();
    assert!(sizes.len() >= 4, "different sizes: {sizes:?}");
    assert!(sizes.iter().all(|&(w, h)| w <= 48 && h <= 48));
    assert!(sizes.contains(&(48, 48)), "one level at the 48×48 maximum");
    let used: BTreeSet<char> = levels
        .iter()
        .flat_map(|l| {
            l.map
                .positions()
                .map(|p| l.map.symbol(p).unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    for (symbol, terrain) in default_legend() {
        assert!(
            used.contains(&symbol),
            "no level uses {} '{symbol}'",
            terrain.name
        );
    }
    for l in &levels {
        for side in 0..l.sides().len() {
            let kinds: BTreeSet<_> = l
                .units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| &u.kind)
                .collect();
            assert!(kinds.len() >= 2, "{}: side {side} is not mixed", l.name());
        }
    }
}
