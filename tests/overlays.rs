//! The tactical overlays (issue 11), headless: each layer the window would
//! paint is compared with the rules' own answer on the same battle (the
//! attack preview, the Move's provocations, the charge actually taken).

use crate::common::{catalog, level};
use bevy::prelude::*;
use skirmish::ai::{Players, Profiles};
use skirmish::battle::unit_named;
use skirmish::battle::{GridPos, OffGuard};
use skirmish::dice::Dice;
use skirmish::format::Overlay;
use skirmish::grid::Pos;
use skirmish::load::{ValidLevel, parse_level};
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::attacks::resolution::draft_for;
use skirmish::rules::modifiers::Effect;
use skirmish::rules::positioning::threat::threat_of;
use skirmish::rules::rule::Rule;
use skirmish::rules::sight::line_of_effect::{Cell, sight, supercover};
use skirmish::rules::{BattleEvent, BattleEvents, Command, submit};
use skirmish::setup::headless_app_with;
use skirmish::view::controls::CursorTile;
use skirmish::view::input::input_plugin;
use skirmish::view::map::Highlights;
use skirmish::view::overlays::{self, Overlays, tint};
use std::collections::BTreeSet;

/// A headless battle of `level` with `first` acting first, its sides as
/// the level says (a human side gets the window's previews).
fn battle(level: &ValidLevel, first: &str) -> App {
    let order = [first.to_string()];
    let mut app = headless_app_with(level, Dice::seeded(3), Some(&order));
    app.init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>();
    input_plugin(&mut app);
    Players::for_level(level, &Profiles::shipped()).install(app.world_mut());
    app
}

fn unit(app: &App, name: &str) -> Entity {
    unit_named(app.world(), name).unwrap_or_else(|| panic!("{name}"))
}

fn at(app: &App, name: &str) -> Pos {
    app.world().get::<GridPos>(unit(app, name)).unwrap().0
}

/// Only `on` switched on, the cursor on `tile`: what the overlay tilemap
/// is told to paint.
fn painted(app: &mut App, on: &[Overlay], tile: Option<Pos>) -> Highlights {
    app.world_mut()
        .insert_resource(Overlays(on.iter().copied().collect::<BTreeSet<_>>()));
    app.world_mut().resource_mut::<CursorTile>().0 = tile;
    app.update();
    app.world().resource::<Highlights>().clone()
}

#[test]
fn arcs_are_the_half_plane_in_front_r4_1() {
    let mut app = battle(&level("ford.ron"), "Ila");
    let (ila, from) = (unit(&app, "Ila"), at(&app, "Ila"));
    let shown = painted(&mut app, &[Overlay::Arcs], None);
    let facing = app.world().get::<skirmish::battle::Facing>(ila).unwrap().0;
    let (fx, fy) = facing.delta();
    let layer = overlays::arcs(app.world(), ila);
    assert!(!layer.tiles.is_empty());
    for (p, color) in &layer.tiles {
        // R4.1: in front when dot(facing, t - pos) >= 0.
        let dot = fx * (p.x - from.x) + fy * (p.y - from.y);
        let expected = if dot >= 0 { tint::FRONT } else { tint::REAR };
        assert_eq!(*color, expected, "{p}");
        assert_eq!(shown.0.get(p), Some(color), "painted as drawn: {p}");
    }
    assert_eq!(shown.0.len(), layer.tiles.len(), "nothing else painted");
}

#[test]
fn threat_marks_where_enemies_threaten_and_deeper_where_a_step_provokes() {
    let mut app = battle(&level("ford.ron"), "Ila");
    let ila = unit(&app, "Ila");
    let threatened = |app: &App, who: &[&str]| -> BTreeSet<Pos> {
        let world = app.world();
        let mut out = BTreeSet::new();
        for name in who {
            let t = threat_of(world, unit(app, name)).unwrap();
            for y in 0..12 {
                for x in 0..16 {
                    let p = Pos::new(x, y);
                    if t.covers(p) {
                        out.insert(p);
                    }
                }
            }
        }
        out
    };
    // At the start every raider is off-guard: it threatens, but leaving
    // its tiles provokes no one yet (R2.3).
    let raiders = ["Brakka", "Orm", "Skarn", "Vek"];
    let with_melee: Vec<&str> = raiders
        .into_iter()
        .filter(|n| threat_of(app.world(), unit(&app, n)).is_some())
        .collect();
    let shown = painted(&mut app, &[Overlay::Threat], None);
    let all = threatened(&app, &with_melee);
    assert!(!all.is_empty());
    let of = |color: Color| -> BTreeSet<Pos> {
        shown
            .0
            .iter()
            .filter(|(_, c)| **c == color)
            .map(|(p, _)| *p)
            .collect()
    };
    assert_eq!(of(tint::THREAT), all);
    assert!(of(tint::PROVOKES).is_empty());
    // Skarn has had its turn (no longer off-guard, its reactions refreshed:
    // R2.3, R3.2): its tiles now provoke.
    let skarn = unit(&app, "Skarn");
    app.world_mut()
        .entity_mut(skarn)
        .remove::<OffGuard>()
        .insert(skirmish::battle::Reactions(2));
    let shown = painted(&mut app, &[Overlay::Threat], Some(Pos::new(0, 0)));
    let provoking: BTreeSet<Pos> = shown
        .0
        .iter()
        .filter(|(_, c)| **c == tint::PROVOKES)
        .map(|(p, _)| *p)
        .collect();
    assert_eq!(provoking, threatened(&app, &["Skarn"]));
    let layer = overlays::threats(app.world(), ila);
    assert_eq!(layer.tiles_of(tint::PROVOKES).len(), provoking.len());
}

/// The rules' attack preview of `attacker` on `target`, if it may attack.
fn preview(
    app: &mut App,
    attacker: &str,
    target: &str,
) -> Option<skirmish::rules::attacks::preview::AttackPreview> {
    let (a, t) = (unit(app, attacker), unit(app, target));
    let world = app.world_mut();
    let draft = draft_for(world, a, t, None).ok()?;
    preview_attack(world, draft).ok()
}

fn advantage_by(p: &skirmish::rules::attacks::preview::AttackPreview, rule: Rule) -> i32 {
    p.modifiers
        .iter()
        .filter(|m| m.rule == rule)
        .map(|m| match m.effect {
            Effect::Advantage(n) => n,
            _ => 0,
        })
        .sum()
}

#[test]
fn range_bands_are_the_range_modifier_of_an_attack_there_r7_4() {
    let mut app = battle(&level("ford.ron"), "Bran");
    let bran = unit(&app, "Bran");
    let layer = overlays::range_bands(app.world(), bran);
    assert!(!layer.tiles.is_empty() && !layer.labels.is_empty());
    let mut checked = 0;
    for enemy in ["Brakka", "Orm", "Skarn", "Vek"] {
        let Some(p) = preview(&mut app, "Bran", enemy) else {
            continue;
        };
        let tile = at(&app, enemy);
        let band = layer
            .tiles
            .iter()
            .find(|(q, _)| *q == tile)
            .map(|(_, c)| *c);
        assert_eq!(
            band,
            Some(tint::band(advantage_by(&p, Rule::R7_4))),
            "{enemy}"
        );
        checked += 1;
    }
    assert!(checked >= 2, "{checked} enemies in reach");
    // A unit without a ranged weapon has no bands.
    assert!(
        overlays::range_bands(app.world(), unit(&app, "Ila"))
            .tiles
            .is_empty()
    );
}

#[test]
fn the_line_shows_its_tiles_the_cover_and_the_soft_cover_the_preview_counts_r6() {
    let mut app = battle(&level("ford.ron"), "Bran");
    let bran = unit(&app, "Bran");
    let from = at(&app, "Bran");
    let mut covered = 0;
    for enemy in ["Brakka", "Orm", "Skarn", "Vek"] {
        let target = unit(&app, enemy);
        let to = at(&app, enemy);
        let layer = overlays::line_of_effect(app.world_mut(), bran, target);
        let mut line = BTreeSet::new();
        for cell in supercover(from, to) {
            match cell {
                Cell::Tile(p) => {
                    line.insert(p);
                }
                Cell::Corner(a, b) => {
                    line.extend([a, b]);
                }
            }
        }
        let marked: BTreeSet<Pos> = layer
            .tiles
            .iter()
            .filter(|(_, c)| *c == tint::LINE || *c == tint::BLOCKED)
            .map(|(p, _)| *p)
            .collect();
        assert_eq!(marked, line, "{enemy}");
        let s = sight(
            &app.world()
                .resource::<skirmish::battle::Battlefield>()
                .0
                .map,
            from,
            to,
        );
        let cover = layer.tiles_of(tint::COVER);
        assert_eq!(cover.first().copied(), s.cover_at, "{enemy}");
        if let Some(p) = preview(&mut app, "Bran", enemy) {
            // The cover tile is there exactly when the preview counts
            // cover (R6.2); the soft cover's DV labels sum to its R6.3 DV.
            assert_eq!(
                cover.is_empty(),
                advantage_by(&p, Rule::R6_2) == 0,
                "{enemy}"
            );
            covered += usize::from(!cover.is_empty());
            let soft: i32 = p
                .modifiers
                .iter()
                .filter(|m| m.rule == Rule::R6_3)
                .map(|m| match m.effect {
                    Effect::Dv(n) => n,
                    _ => 0,
                })
                .sum();
            let labelled: i32 = layer
                .labels
                .iter()
                .map(|(_, w)| {
                    w.trim_start_matches('+')
                        .trim_end_matches(" DV")
                        .parse::<i32>()
                        .unwrap()
                })
                .sum();
            assert_eq!(labelled, soft, "{enemy}");
        }
    }
    assert!(covered > 0, "some line of the ford crosses cover");
}

fn corridor(ally_at: (i32, i32), ally_facing: &str) -> ValidLevel {
    let text = format!(
        r#"Level(
        name: "Overlays",
        map: ["..........", "..........", "..........", ".........."],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "raider", at: (1, 1), facing: E),
            (name: "Ally", side: "Heroes", template: "raider", at: {ally_at:?}, facing: {ally_facing}),
            (name: "Orc", side: "Orcs", template: "raider", at: (6, 1), facing: W),
        ],
    )"#
    );
    parse_level(text.as_bytes(), "overlays.ron", catalog()).unwrap()
}

/// The corridor with the Ally at `ally_at`, the Hero moved next to the
/// Orc.
fn hero_beside_the_orc(ally_at: (i32, i32), ally_facing: &str) -> App {
    let mut app = battle(&corridor(ally_at, ally_facing), "Hero");
    submit(
        app.world_mut(),
        Command::Move {
            unit: "Hero".into(),
            to: Pos::new(5, 1),
            path: None,
            sprint: false,
        },
    )
    .unwrap();
    app
}

#[test]
fn the_flanking_ally_is_the_one_the_preview_names_r4_5() {
    // The Ally stands across the Orc from where the Hero will strike.
    let mut app = hero_beside_the_orc((7, 1), "W");
    let (hero, orc) = (unit(&app, "Hero"), unit(&app, "Orc"));
    let layer = overlays::flank(app.world(), hero, orc);
    let p = preview(&mut app, "Hero", "Orc").unwrap();
    assert!(
        p.modifiers
            .iter()
            .any(|m| m.rule == Rule::R4_5 && m.source.contains("Ally"))
    );
    assert_eq!(layer.tiles_of(tint::FLANK), vec![at(&app, "Ally")]);
    assert_eq!(
        layer.links,
        vec![(at(&app, "Ally"), at(&app, "Orc"), tint::FLANK)]
    );
    // Painted when the Orc is hovered.
    let orc_at = at(&app, "Orc");
    let shown = painted(&mut app, &[Overlay::Flank], Some(orc_at));
    assert_eq!(shown.0.get(&at(&app, "Ally")), Some(&tint::FLANK));
    // Beside the Orc instead of across: no flank, nothing drawn.
    let mut app = hero_beside_the_orc((6, 2), "N");
    let (hero, orc) = (unit(&app, "Hero"), unit(&app, "Orc"));
    assert!(overlays::flank(app.world(), hero, orc).tiles.is_empty());
    let p = preview(&mut app, "Hero", "Orc").unwrap();
    assert!(p.modifiers.iter().all(|m| m.rule != Rule::R4_5));
}

#[test]
fn the_charge_line_is_the_path_the_charge_takes_r4_7() {
    let mut app = battle(&corridor((1, 3), "E"), "Hero");
    let orc_at = at(&app, "Orc");
    let shown = painted(&mut app, &[Overlay::Charge], Some(orc_at));
    let (hero, orc) = (unit(&app, "Hero"), unit(&app, "Orc"));
    let layer = overlays::charge(app.world_mut(), hero, orc);
    let drawn = layer.tiles_of(tint::CHARGE);
    assert!(drawn.len() >= 2, "{drawn:?}");
    for p in &drawn {
        assert_eq!(shown.0.get(p), Some(&tint::CHARGE), "{p}");
    }
    // The charge itself walks exactly those tiles.
    submit(
        app.world_mut(),
        Command::Charge {
            unit: "Hero".into(),
            target: "Orc".into(),
            shove: false,
        },
    )
    .unwrap();
    let stepped: Vec<Pos> = app
        .world()
        .resource::<BattleEvents>()
        .all()
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Stepped { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(stepped, drawn);
}

#[test]
fn aiming_a_throw_marks_where_it_may_land_with_the_rules_chances_r9_3() {
    use skirmish::rules::command::ThrowTarget;
    use skirmish::view::controls::{Action, Aiming};
    use skirmish::view::overlays::OverlayMarks;
    let mut app = crate::view::app();
    let orc_at = at(&app, "Orc");
    app.world_mut().resource_mut::<Aiming>().0 = Some(Action::Throw);
    let shown = painted(&mut app, &[], Some(orc_at));
    let hero = unit(&app, "Hero");
    let Some(Command::Throw {
        item, at: target, ..
    }) = skirmish::view::controls::action_command(app.world(), hero, Action::Throw, Some(orc_at))
    else {
        panic!("the Hero has something to throw");
    };
    assert_eq!(target, ThrowTarget::Unit("Orc".into()));
    let p = skirmish::rules::throws::throw::preview_throw(app.world_mut(), hero, &item, &target)
        .unwrap();
    // The aimed tile and every scatter tile are painted.
    assert_eq!(shown.0.get(&orc_at), Some(&tint::AIMED));
    for (t, _) in &p.scatter {
        if *t != orc_at {
            assert_eq!(shown.0.get(t), Some(&tint::SCATTER), "{t}");
        }
    }
    // The words on the tiles are the rules' chances, and they sum to 1.
    let marks = app.world().resource::<OverlayMarks>().clone();
    let percent = |w: &str| -> f64 {
        w.trim_start_matches("hit ")
            .trim_start_matches('+')
            .trim_end_matches('%')
            .parse::<f64>()
            .unwrap()
            / 100.0
    };
    let total: f64 = marks
        .labels
        .iter()
        .flat_map(|(_, w)| w.lines())
        .map(percent)
        .sum();
    assert!((total - 1.0).abs() < 0.01, "{total}: {:?}", marks.labels);
    let hit = marks
        .labels
        .iter()
        .find(|(t, w)| *t == orc_at && w.starts_with("hit"))
        .unwrap();
    assert_eq!(
        hit.1.lines().next().unwrap(),
        format!("hit {:.0}%", p.hit * 100.0)
    );
    for (t, chance) in &p.scatter {
        if *t != orc_at {
            assert!(
                marks
                    .labels
                    .contains(&(*t, format!("{:.1}%", chance * 100.0))),
                "{t}: {:?}",
                marks.labels
            );
        }
    }
    let text = crate::view::hover_text(&app);
    assert!(
        text.contains("Throw the") && text.contains("R9.3"),
        "{text}"
    );
    // The splash rim is explained exactly when the item splashes (R9.4).
    let splash = app
        .world()
        .resource::<skirmish::battle::Battlefield>()
        .0
        .catalog
        .item(&item)
        .map_or(0, |i| i.splash);
    assert_eq!(text.contains("R9.4"), splash > 0, "{item}: {text}");
}

#[test]
fn a_clicked_log_line_spotlights_its_events_tiles_and_units() {
    use skirmish::view::overlays::Spotlight;
    let mut app = crate::view::app();
    crate::view::press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    crate::view::press(&mut app, Pos::new(5, 1), Some(MouseButton::Left), None);
    let events = app.world().resource::<BattleEvents>().all().to_vec();
    let moved = events
        .iter()
        .position(|e| matches!(e, BattleEvent::Moved { .. }))
        .expect("the Hero moved");
    let attack = events
        .iter()
        .position(|e| matches!(e, BattleEvent::AttackRolled(_)))
        .expect("the Hero attacked");
    app.world_mut().insert_resource(Spotlight(Some(moved)));
    let shown = painted(&mut app, &[], None);
    let spot: BTreeSet<Pos> = shown
        .0
        .iter()
        .filter(|(_, c)| **c == tint::SPOTLIGHT)
        .map(|(p, _)| *p)
        .collect();
    assert_eq!(spot, [Pos::new(1, 1), Pos::new(4, 1)].into());
    // An attack: the attacker's and the target's tiles.
    app.world_mut().insert_resource(Spotlight(Some(attack)));
    let shown = painted(&mut app, &[], None);
    let spot: BTreeSet<Pos> = shown
        .0
        .iter()
        .filter(|(_, c)| **c == tint::SPOTLIGHT)
        .map(|(p, _)| *p)
        .collect();
    assert_eq!(spot, [Pos::new(4, 1), Pos::new(5, 1)].into());
}
