//! Semantic checks of levels and catalogs: everything RON syntax cannot say.
//! Every check runs, so a designer sees all problems of a file at once.

use super::locate::{Locator, Needle};
use super::problems::{Diagnostic, Problems};
use super::report::{MAX_SYMBOL_ERRORS, Report, check_name, quoted_list};
use super::validate_catalog::{
    MAX_COUNT, check_bound, check_catalog_duplicates, check_entries, check_template,
    check_unit_dice,
};
use crate::format::{
    Armor, Catalog, GroundObject, Level, RuleOptions, Shield, SideDef, UnitTemplate, Victory, Zone,
};
use crate::grid::{Body, Dir, Pos};
use crate::terrain::{Terrain, TerrainMap, default_legend};
use std::collections::BTreeMap;

/// Largest map side accepted, in tiles.
pub const MAX_MAP_SIDE: usize = 256;

/// A level that passed every check, with its terrain and units resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidLevel {
    /// The file as written (kept for saves and replays).
    pub source: Level,
    /// The level's catalog: its own entries, then the shared catalog's.
    pub catalog: Catalog,
    /// The terrain.
    pub map: TerrainMap,
    /// Units with their template and overrides applied, in level order.
    pub units: Vec<UnitSpec>,
    /// Values that are unusual but playable (FORMAT.md: at most a lint
    /// warning), for `skirmish check` to show.
    pub warnings: Vec<Diagnostic>,
}

impl ValidLevel {
    /// The level's title.
    pub fn name(&self) -> &str {
        &self.source.name
    }

    /// The sides, in listed order.
    pub fn sides(&self) -> &[SideDef] {
        &self.source.sides
    }

    /// The side a command line names, by its name or 0-based index.
    pub fn side_index(&self, name: &str) -> Option<usize> {
        name.parse::<usize>()
            .ok()
            .or_else(|| self.sides().iter().position(|x| x.name == name))
            .filter(|i| *i < self.sides().len())
    }

    /// Rule options.
    pub fn rules(&self) -> &RuleOptions {
        &self.source.rules
    }

    /// Objects on the ground at the start.
    pub fn ground(&self) -> &[GroundObject] {
        &self.source.ground
    }

    /// Victory conditions.
    pub fn victory(&self) -> &[Victory] {
        &self.source.victory
    }
}

/// One unit of a level, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSpec {
    /// Unique name.
    pub name: String,
    /// Index of its side in [`ValidLevel::sides`].
    pub side: usize,
    /// The unit kind's name.
    pub kind: String,
    /// Its numbers: the template with the level's overrides.
    pub stats: UnitTemplate,
    /// Starting tile.
    pub at: Pos,
    /// Starting facing.
    pub facing: Dir,
    /// The mount it starts on (V12.1), checked: a unit of the level whose
    /// template is a mount, on the same tile.
    pub riding: Option<String>,
}

use Needle::{Ident, Str};

/// The level's own entries first, then the catalog's that they do not shadow.
fn merge_catalog(level: &Level, shared: &Catalog) -> Catalog {
    fn merge<T: Clone>(own: &[T], shared: &[T], name: impl Fn(&T) -> &str) -> Vec<T> {
        let mut out = own.to_vec();
        out.extend(
            shared
                .iter()
                .filter(|s| !own.iter().any(|o| name(o) == name(s)))
                .cloned(),
        );
        out
    }
    Catalog {
        templates: merge(&level.templates, &shared.templates, |t| &t.name),
        weapons: merge(&level.weapons, &shared.weapons, |t| &t.name),
        armor: merge(&level.armor, &shared.armor, |t: &Armor| &t.name),
        shields: merge(&level.shields, &shared.shields, |t: &Shield| &t.name),
        items: merge(&level.items, &shared.items, |t| &t.name),
        spells: merge(&level.spells, &shared.spells, |t| &t.name),
    }
}

/// Checks a level against the shared catalog and resolves it.
pub(super) fn check_level(
    level: Level,
    shared: &Catalog,
    loc: &Locator,
    file: &str,
) -> Result<ValidLevel, Problems> {
    let mut r = Report {
        file,
        loc,
        out: vec![],
        warnings: vec![],
    };
    let catalog = merge_catalog(&level, shared);
    let own = Catalog {
        templates: level.templates.clone(),
        weapons: level.weapons.clone(),
        armor: level.armor.clone(),
        shields: level.shields.clone(),
        items: level.items.clone(),
        spells: level.spells.clone(),
    };
    check_entries(&mut r, &own, &catalog);
    for d in check_catalog_duplicates(&[(file, loc, &own)]) {
        r.out.push(Diagnostic {
            message: format!("level-local {}", d.message),
            ..d
        });
    }

    let legend = check_legend(&mut r, &level);
    let map = check_map(&mut r, &level, &legend);
    let map = map.map(|m| match super::heights::check_heights(&mut r, &level) {
        Some(elevations) => m.with_elevations(elevations),
        None => m,
    });
    check_name(&mut r, &[Ident("name")], "level", &level.name);
    let sides = check_sides(&mut r, &level);
    let units = check_units(&mut r, &level, &catalog, map.as_ref(), &sides);
    check_ground(&mut r, &level, &catalog, map.as_ref());
    check_victory(&mut r, &level, map.as_ref(), &sides);
    if level.round_limit == 0 {
        r.error(
            &[Ident("round_limit")],
            "round_limit is 0; a battle needs at least 1 round (R11)".into(),
        );
    }
    check_bound(
        &mut r,
        &[Ident("round_limit")],
        "round_limit",
        level.round_limit.into(),
        MAX_COUNT.into(),
    );

    // Read like a compiler's output: top to bottom, unplaced ones last.
    r.out.sort_by_key(|d| d.at.map_or((usize::MAX, 0), |p| p));
    match map {
        Some(map) if r.out.is_empty() => Ok(ValidLevel {
            source: level,
            catalog,
            map,
            units,
            warnings: r.warnings,
        }),
        _ => Err(Problems(r.out)),
    }
}

fn check_legend(r: &mut Report, level: &Level) -> Vec<(char, Terrain)> {
    let mut legend = default_legend();
    for (symbol, terrain) in &level.legend {
        let at = [Ident("legend"), Needle::Char(*symbol), Str(&terrain.name)];
        check_name(r, &at, "terrain", &terrain.name);
        if legend.iter().any(|(s, _)| s == symbol) {
            r.error(
                &[Ident("legend"), Needle::Char(*symbol)],
                format!(
                    "legend symbol '{symbol}' is already in the default legend (R6); \
                     pick another character for \"{}\"",
                    terrain.name
                ),
            );
        } else if symbol.is_whitespace() || *symbol == '"' {
            r.error(
                &[Ident("legend")],
                format!("legend symbol {symbol:?} cannot be used in a map row"),
            );
        } else {
            legend.push((*symbol, terrain.clone()));
        }
    }
    legend
}

/// Checks the map rows. Returns the map when it is a rectangle, so that
/// units and zones can still be checked against it; symbols that are not in
/// the legend (already reported) read as open floor named "unknown".
fn check_map(r: &mut Report, level: &Level, legend: &[(char, Terrain)]) -> Option<TerrainMap> {
    let rows = &level.map;
    let Some(first) = rows.first() else {
        r.error(&[Ident("map")], "the map has no rows".into());
        return None;
    };
    let width = first.chars().count();
    if width == 0 {
        r.error(&[Ident("map")], "the map's first row is empty".into());
        return None;
    }
    if width > MAX_MAP_SIDE || rows.len() > MAX_MAP_SIDE {
        r.error(
            &[Ident("map")],
            format!(
                "the map is {width}×{} tiles; at most {MAX_MAP_SIDE}×{MAX_MAP_SIDE} are allowed",
                rows.len()
            ),
        );
        return None;
    }
    let mut rectangular = true;
    let mut unknown: Vec<char> = vec![];
    let mut unknown_count = 0;
    let known: String = legend.iter().map(|(s, _)| *s).collect();
    for (y, row) in rows.iter().enumerate() {
        let row_path = [Ident("map"), Needle::NthStr(y)];
        let w = row.chars().count();
        if w != width {
            r.error(
                &row_path,
                format!(
                    "map row {y} is {w} tiles wide but row 0 is {width}: \
                     rows must be equally wide"
                ),
            );
            rectangular = false;
        }
        for (x, c) in row.chars().enumerate() {
            if legend.iter().any(|(s, _)| *s == c) {
                continue;
            }
            unknown_count += 1;
            if !unknown.contains(&c) {
                unknown.push(c);
            }
            if unknown_count <= MAX_SYMBOL_ERRORS {
                r.error_at_char(
                    &row_path,
                    x,
                    format!(
                        "unknown map symbol {c:?} at ({x}, {y}); known symbols: \"{known}\" \
                         (add it to `legend` to define it)"
                    ),
                );
            }
        }
    }
    if unknown_count > MAX_SYMBOL_ERRORS {
        r.error(
            &[Ident("map")],
            format!(
                "... and {} more unknown map symbols",
                unknown_count - MAX_SYMBOL_ERRORS
            ),
        );
    }
    if !rectangular {
        return None;
    }
    let mut legend = legend.to_vec();
    for c in unknown {
        legend.push((
            c,
            Terrain {
                name: "unknown".into(),
                movement: crate::terrain::Movement::Open,
                line: crate::terrain::Line::Clear,
                cover: crate::terrain::Cover::None,
                conceal: false,
                light: None,
            },
        ));
    }
    if legend.len() > u8::MAX as usize {
        r.error(
            &[Ident("legend")],
            format!(
                "{} different map symbols; at most 255 are allowed",
                legend.len()
            ),
        );
        return None;
    }
    Some(TerrainMap::new(rows, legend))
}

/// Side names with their index; reports duplicates and too few sides.
fn check_sides(r: &mut Report, level: &Level) -> BTreeMap<String, usize> {
    let mut sides = BTreeMap::new();
    for (i, side) in level.sides.iter().enumerate() {
        check_name(r, &[Ident("sides"), Str(&side.name)], "side", &side.name);
        if sides.insert(side.name.clone(), i).is_some() {
            r.error(
                &[Ident("sides"), Str(&side.name), Str(&side.name)],
                format!("side \"{}\" is listed twice", side.name),
            );
        }
    }
    if level.sides.len() < 2 {
        r.error(
            &[Ident("sides")],
            format!(
                "a battle needs at least two sides; this level has {}",
                level.sides.len()
            ),
        );
    }
    for side in &level.sides {
        if !level.units.iter().any(|u| u.side == side.name) {
            r.error(
                &[Ident("sides"), Str(&side.name)],
                format!("side \"{}\" has no units", side.name),
            );
        }
    }
    sides
}

fn check_units(
    r: &mut Report,
    level: &Level,
    catalog: &Catalog,
    map: Option<&TerrainMap>,
    sides: &BTreeMap<String, usize>,
) -> Vec<UnitSpec> {
    let mut specs = vec![];
    let mut names: BTreeMap<&str, usize> = BTreeMap::new();
    let mut occupied: BTreeMap<Pos, &str> = BTreeMap::new();
    for u in &level.units {
        let seen = names.entry(&u.name).or_insert(0);
        *seen += 1;
        // A path to this unit's entry: its name, as often as it has appeared.
        let mut at = vec![Ident("units")];
        at.extend(std::iter::repeat_n(Str(&u.name), *seen));
        let with = |n: Needle<'static>| -> Vec<Needle> {
            let mut p = at.clone();
            p.push(n);
            p
        };
        if *seen == 1 {
            check_name(r, &at, "unit", &u.name);
        }
        if *seen == 2 {
            r.error(
                &at,
                format!("two units are named \"{}\"; names must be unique", u.name),
            );
        }
        let side = sides.get(&u.side).copied();
        if side.is_none() {
            let mut p = at.clone();
            p.push(Str(&u.side));
            r.error(
                &p,
                format!(
                    "unit \"{}\": unknown side \"{}\" (sides: {})",
                    u.name,
                    u.side,
                    quoted_list(level.sides.iter().map(|s| s.name.as_str()))
                ),
            );
        }
        let template = catalog.template(&u.template);
        if template.is_none() {
            let mut p = at.clone();
            p.push(Str(&u.template));
            r.error(
                &p,
                format!(
                    "unit \"{}\": unknown template \"{}\" (known: {})",
                    u.name,
                    u.template,
                    quoted_list(catalog.templates.iter().map(|t| t.name.as_str()))
                ),
            );
        }
        // With size (V10.6) a Large unit fills 2×2 tiles from its `at`, a
        // Huge 3×3: every one of them must be on the map, passable and free.
        let n = match template {
            Some(t) if level.rules.size => u.stats.apply(t).size.side(),
            _ => 1,
        };
        let body = Body::new(u.at, n);
        let footprint = |n: i32| match n {
            1 => String::new(),
            n => format!(" (its {n}×{n} footprint, V10.6)"),
        };
        if let Some(map) = map {
            if let Some(off) = body.tiles().find(|t| !map.contains(*t)) {
                let tile = if off == u.at {
                    String::new()
                } else {
                    format!(": {off}")
                };
                r.error(
                    &with(Ident("at")),
                    format!(
                        "unit \"{}\" at {}{} is off the map{tile} ({}×{} tiles, x 0 to {}, y 0 to {})",
                        u.name,
                        u.at,
                        footprint(n),
                        map.width(),
                        map.height(),
                        map.width() - 1,
                        map.height() - 1
                    ),
                );
            } else if let Some(wall) = body.tiles().find(|t| !map.is_passable(*t)) {
                let tile = if wall == u.at {
                    String::new()
                } else {
                    format!(" at {wall}")
                };
                r.error(
                    &with(Ident("at")),
                    format!(
                        "unit \"{}\" at {}{} stands on impassable terrain{tile} ({})",
                        u.name,
                        u.at,
                        footprint(n),
                        map.get(wall).map_or("?", |t| t.name.as_str())
                    ),
                );
            } else if u.riding.is_some() {
                // A rider stands on its mount's tiles (V12.1): checked below.
            } else if let Some((tile, other)) =
                body.tiles().find_map(|t| occupied.get(&t).map(|o| (t, *o)))
            {
                let tile = if tile == u.at {
                    String::new()
                } else {
                    format!(" at {tile}")
                };
                r.error(
                    &with(Ident("at")),
                    format!(
                        "unit \"{}\" at {}{} stands on unit \"{other}\"{tile}",
                        u.name,
                        u.at,
                        footprint(n)
                    ),
                );
            } else {
                for t in body.tiles() {
                    occupied.insert(t, &u.name);
                }
            }
        }
        if let Some(t) = template {
            let stats = u.stats.apply(t);
            if u.stats != Default::default() {
                check_template(r, &stats, catalog, &with(Ident("stats")), &u.name);
            }
            if let Some(dice) = &u.stats.dice {
                let mut at = with(Ident("stats"));
                at.push(Ident("dice"));
                check_unit_dice(r, dice, &at, &format!("unit \"{}\"", u.name));
            }
            if let Some(side) = side {
                specs.push(UnitSpec {
                    name: u.name.clone(),
                    side,
                    kind: t.name.clone(),
                    stats,
                    at: u.at,
                    facing: u.facing,
                    riding: u.riding.clone(),
                });
            }
        }
    }
    check_riders(r, level, catalog);
    check_hp_damage(r, level);
    check_die_ranks(r, level, &specs);
    specs
}

/// Die ranks (V6) bring their own active defence (V6.5): V2's cannot
/// stand beside it. Their hits deal 1–3 damage, so a unit above 8 HP takes
/// many of them: a warning (VARIANTS.md V6, level format).
fn check_die_ranks(r: &mut Report, level: &Level, specs: &[UnitSpec]) {
    if level.rules.resolution != crate::format::Resolution::DieRanks {
        return;
    }
    if level.rules.defence == crate::format::Defence::Active {
        r.error(
            &[Ident("rules"), Ident("resolution")],
            "`resolution: DieRanks` (V6) cannot be played with `defence: Active` (V2): die \
             ranks have their own active defences (V6.5)"
                .to_string(),
        );
    }
    for u in specs.iter().filter(|u| u.stats.hp > 8) {
        r.warn(
            &[Ident("units"), Str(&u.name)],
            format!(
                "unit \"{}\" has {} HP; die-rank hits deal 1–3 (V6.4), so it takes {} or more \
                 hits to drop: V6 levels give their units 8 HP or less (playable, check it is \
                 meant)",
                u.name,
                u.stats.hp,
                (u.stats.hp + 2) / 3
            ),
        );
    }
}

/// Every `riding` names a mount of the level (V12.1): mounts switched on,
/// a unit whose template can be ridden, on the rider's tile, of the
/// rider's side, ridden by no one else and riding nothing itself.
/// `hp_damage: false` is V3 as 001 has it: without injuries nothing would
/// ever harm a unit's body, and no battle would end.
fn check_hp_damage(r: &mut Report, level: &Level) {
    if !level.rules.hp_damage.0 && !level.rules.injuries {
        r.error(
            &[Ident("rules"), Ident("hp_damage")],
            "`hp_damage: false` needs `injuries: true` (V3): hits would harm nobody".to_string(),
        );
    }
}

fn check_riders(r: &mut Report, level: &Level, catalog: &Catalog) {
    let mut ridden: BTreeMap<&str, &str> = BTreeMap::new();
    for u in &level.units {
        let Some(mount) = &u.riding else { continue };
        let at = [Ident("units"), Str(&u.name), Ident("riding")];
        let fail = |r: &mut Report, why: String| {
            r.error(&at, format!("unit \"{}\" rides \"{mount}\": {why}", u.name));
        };
        if !level.rules.mounts {
            fail(
                r,
                "riding needs the level's `rules: (mounts: true)` (V12)".into(),
            );
            continue;
        }
        let Some(m) = level.units.iter().find(|m| &m.name == mount) else {
            let names = quoted_list(level.units.iter().map(|m| m.name.as_str()));
            fail(
                r,
                format!("no such unit in the level (units: {names}) (V12.1)"),
            );
            continue;
        };
        let can = catalog
            .template(&m.template)
            .is_some_and(|t| m.stats.apply(t).mount);
        if !can {
            fail(
                r,
                format!(
                    "template \"{}\" cannot be ridden (`mount: true`, V12.1)",
                    m.template
                ),
            );
        } else if m.at != u.at {
            fail(
                r,
                format!(
                    "the rider's `at` {} must be the mount's {} (V12.1)",
                    u.at, m.at
                ),
            );
        } else if m.side != u.side {
            fail(
                r,
                format!(
                    "the mount is on side \"{}\", the rider on \"{}\" (V12.1)",
                    m.side, u.side
                ),
            );
        } else if m.riding.is_some() || m == u {
            fail(r, "a mount cannot ride (V12.1)".into());
        } else if let Some(other) = ridden.insert(mount, &u.name) {
            fail(r, format!("\"{other}\" rides it already (V12.1)"));
        }
    }
}

fn check_ground(r: &mut Report, level: &Level, catalog: &Catalog, map: Option<&TerrainMap>) {
    for g in &level.ground {
        let at = [Ident("ground"), Str(&g.item)];
        if !catalog.is_object(&g.item) {
            r.error(
                &at,
                format!("ground: unknown weapon or item \"{}\"", g.item),
            );
        }
        if let Some(map) = map {
            if !map.contains(g.at) {
                r.error(
                    &at,
                    format!("ground: \"{}\" at {} is off the map", g.item, g.at),
                );
            } else if !map.is_passable(g.at) {
                r.error(
                    &at,
                    format!(
                        "ground: \"{}\" at {} lies on impassable terrain",
                        g.item, g.at
                    ),
                );
            }
        }
    }
}

fn check_victory(
    r: &mut Report,
    level: &Level,
    map: Option<&TerrainMap>,
    sides: &BTreeMap<String, usize>,
) {
    let side_ok = |r: &mut Report, side: &str| {
        if !sides.contains_key(side) {
            r.error(
                &[Ident("victory"), Str(side)],
                format!("victory: unknown side \"{side}\""),
            );
        }
    };
    let zone_ok = |r: &mut Report, zone: &Zone, what: &str| {
        if let Some(map) = map {
            for corner in [zone.from, zone.to] {
                if !map.contains(corner) {
                    r.error(
                        &[Ident("victory"), Ident(what), Ident("zone")],
                        format!(
                            "victory: {what} zone corner {corner} is off the map ({}×{} tiles)",
                            map.width(),
                            map.height()
                        ),
                    );
                }
            }
        }
    };
    let rounds_ok = |r: &mut Report, rounds: u32, what: &str| {
        let path = [Ident("victory"), Ident(what), Ident("rounds")];
        if rounds == 0 {
            r.error(&path, format!("victory: {what} needs at least 1 round"));
        }
        let what = format!("victory: {what} rounds");
        check_bound(r, &path, &what, rounds.into(), MAX_COUNT.into());
    };
    for v in &level.victory {
        match v {
            Victory::Eliminate => {}
            Victory::HoldZone { side, zone, rounds } => {
                side_ok(r, side);
                zone_ok(r, zone, "HoldZone");
                rounds_ok(r, *rounds, "HoldZone");
            }
            Victory::SurviveRounds { side, rounds } => {
                side_ok(r, side);
                rounds_ok(r, *rounds, "SurviveRounds");
            }
            Victory::ReachExit { side, unit, zone } => {
                side_ok(r, side);
                zone_ok(r, zone, "ReachExit");
                if let Some(unit) = unit
                    && !level
                        .units
                        .iter()
                        .any(|u| &u.name == unit && &u.side == side)
                {
                    r.error(
                        &[Ident("victory"), Str(unit)],
                        format!("victory: ReachExit names unit \"{unit}\", which is not of side \"{side}\""),
                    );
                }
            }
        }
    }
}
