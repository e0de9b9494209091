//! `skirmish lint`: warnings about a level that loads but may not play as
//! its designer meant, each with the `file:line:col` of what it is about.
//! Nothing here refuses a level: `check` does that.
//!
//! Objects on impassable tiles are not here: `check` refuses them.
//!
//! Every answer comes from the rules' own code: movement costs and corners
//! from [`movement`], what a unit threatens from [`threat`], lines and
//! cover from [`line_of_effect`].

use crate::format::Victory;
use crate::grid::{Dir, Pos};
use crate::load::{Diagnostic, ValidLevel};
use crate::load::{Locator, Needle};
use crate::rules::motion::movement::{Occupancy, step_block};
use crate::rules::positioning::threat;
use crate::rules::sight::line_of_effect::sight;
use crate::terrain::{Cover, TerrainMap};
use bevy::prelude::*;
use std::collections::BTreeSet;

use Needle::{Char, Ident, Str};

/// The warnings of `level`, read from `src` (for positions) as `file`, in
/// the order of the file's sections: units, sides, victory, legend,
/// templates.
pub fn lint_level(level: &ValidLevel, src: &str, file: &str) -> Vec<Diagnostic> {
    let loc = Locator::new(src);
    let warn = |path: &[Needle], message: String| Diagnostic {
        file: file.to_string(),
        at: loc.locate(path),
        message,
    };
    let map = &level.map;
    let regions = Regions::of(map);
    let mut out = vec![];
    // Units: stuck, threatened at the start, or hidden from every enemy.
    let mut world = super::starting_battle(level);
    let threats = threat::all_threats(&world);
    for u in &level.units {
        let at = [Ident("units"), Str(&u.name)];
        let speed = u.stats.speed.max(0) as u32;
        let body = crate::battle::unit_named(&world, &u.name)
            .and_then(|e| crate::battle::body_of(&world, e))
            .unwrap_or_default();
        let stuck = super::first_reach(&mut world, u).is_empty();
        if stuck && let Some(message) = heights_trap(&mut world, level, &u.name, u.at) {
            out.push(warn(&at, message));
        } else if stuck {
            let rules = if body.n > 1 {
                format!("its {0}×{0} footprint fits nowhere else; V10.6", body.n)
            } else {
                "R5.1, R5.2".to_string()
            };
            out.push(warn(
                &at,
                format!(
                    "unit \"{}\" cannot move at all from {} (speed {speed}; {rules})",
                    u.name, u.at
                ),
            ));
        } else if body.n > 1 && !super::body_meets_enemy(&mut world, &u.name) {
            out.push(warn(
                &at,
                format!(
                    "unit \"{name}\" can never leave its start area: its {n}×{n} footprint \
                     finds no gap wide enough to reach any enemy (V10.6)",
                    name = u.name,
                    n = body.n
                ),
            ));
        }
        for t in threats
            .iter()
            .filter(|t| t.side != u.side && t.covers_body(body))
        {
            let name = crate::battle::name_of(&world, t.unit);
            out.push(warn(
                &at,
                format!(
                    "unit \"{}\" starts at {} inside the reach of enemy \"{name}\" (R4.4): \
                     it provokes a reactive attack by leaving (R8.2)",
                    u.name, u.at
                ),
            ));
        }
        let enemies: Vec<Pos> = level
            .units
            .iter()
            .filter(|e| e.side != u.side)
            .map(|e| e.at)
            .collect();
        let hidden = |e: &Pos| {
            let s = sight(map, u.at, *e);
            !s.clear || s.cover == Cover::Total
        };
        if !enemies.is_empty() && enemies.iter().all(hidden) {
            out.push(warn(
                &at,
                format!(
                    "unit \"{}\" starts in total cover from every enemy: no line of effect \
                     reaches it (R6.1, R6.2)",
                    u.name
                ),
            ));
        }
    }
    // A hidden side in plain view of every enemy side (V8.2).
    if level.rules().stealth {
        let sides = level.sides();
        for (s, side) in sides.iter().enumerate().filter(|(_, d)| d.hidden) {
            let tiles = unit_tiles(level, s, None);
            let seen = |t: &Pos| {
                (0..sides.len())
                    .filter(|o| *o != s)
                    .all(|o| crate::rules::variants::stealth::sight::side_sees_tile(&world, o, *t))
            };
            if !tiles.is_empty() && tiles.iter().all(seen) {
                out.push(warn(
                    &[Ident("sides"), Str(&side.name)],
                    format!(
                        "side \"{}\" is hidden (R2.2, V8.2), yet every one of its units starts \
                         in sight of every enemy side: its first moves meet a sneak check from \
                         each (V8.3)",
                        side.name
                    ),
                ));
            }
        }
    }
    // Sides walled off from every enemy.
    for (s, side) in level.sides().iter().enumerate() {
        let mine: Vec<Pos> = unit_tiles(level, s, None);
        let theirs: Vec<Pos> = level
            .units
            .iter()
            .filter(|u| u.side != s)
            .map(|u| u.at)
            .collect();
        if mine.is_empty() || theirs.is_empty() {
            continue;
        }
        if !mine
            .iter()
            .any(|m| theirs.iter().any(|t| regions.joined(*m, *t)))
        {
            out.push(warn(
                &[Ident("sides"), Str(&side.name)],
                format!(
                    "side \"{}\" cannot reach any enemy: no path joins its units to theirs \
                     (R5.2)",
                    side.name
                ),
            ));
        }
    }
    // Victory zones out of reach of the side that must get there.
    for (i, v) in level.victory().iter().enumerate() {
        let kind = victory_kind(v);
        let (side, unit, zone) = match v {
            Victory::HoldZone { side, zone, .. } => (side, None, zone),
            Victory::ReachExit { side, unit, zone } => (side, unit.as_deref(), zone),
            _ => continue,
        };
        let Some(s) = level.sides().iter().position(|d| &d.name == side) else {
            continue;
        };
        let zone_tiles: Vec<Pos> = map.positions().filter(|p| zone.contains(*p)).collect();
        let reached = unit_tiles(level, s, unit)
            .iter()
            .any(|m| zone_tiles.iter().any(|z| regions.joined(*m, *z)));
        if !reached {
            let who = unit.map_or(format!("no unit of side \"{side}\" can"), |u| {
                format!("unit \"{u}\" cannot")
            });
            out.push(warn(
                &nth_victory(level, i, kind),
                format!(
                    "{who} reach the zone {} to {} of {kind}: no path leads into it \
                     (R11, R5.2)",
                    zone.from, zone.to
                ),
            ));
        }
    }
    // Unused legend symbols and templates.
    let used: BTreeSet<char> = level.source.map.iter().flat_map(|r| r.chars()).collect();
    for symbol in level.source.legend.keys() {
        if !used.contains(symbol) {
            out.push(warn(
                &[Ident("legend"), Char(*symbol)],
                format!("legend symbol '{symbol}' is not used in the map"),
            ));
        }
    }
    for t in &level.source.templates {
        if !level.source.units.iter().any(|u| u.template == t.name) {
            out.push(warn(
                &[Ident("templates"), Str(&t.name)],
                format!("template \"{}\" is used by no unit", t.name),
            ));
        }
    }
    out
}

/// Why `unit`, which cannot Move at all, is held by heights (V9.1), if it
/// is: every way out a ledge of 2 m or more. Then it says whether a Jump
/// still leaves (V9.2), and where to.
fn heights_trap(world: &mut World, level: &ValidLevel, unit: &str, at: Pos) -> Option<String> {
    let map = &level.map;
    if !level.rules().jumping || !map.has_heights() {
        return None;
    }
    let ledge = |p: Pos| map.contains(p) && (map.elevation(p) - map.elevation(at)).abs() >= 2;
    let open = |p: Pos| map.contains(p) && map.is_passable(p);
    let exits: Vec<Pos> = Dir::ALL
        .iter()
        .map(|d| at.step(*d))
        .filter(|p| open(*p))
        .collect();
    if exits.is_empty() || !exits.iter().all(|p| ledge(*p)) {
        return None;
    }
    let e = crate::battle::unit_named(world, unit)?;
    let far = crate::rules::motion::movement::speed_of(world, e) as i32;
    let mut jumps = vec![];
    for p in map.positions().filter(|p| at.distance(*p) <= far) {
        if crate::rules::variants::jumping::check_jump(world, e, p).is_ok() {
            jumps.push(p);
        }
    }
    Some(if jumps.is_empty() {
        format!(
            "unit \"{unit}\" can never leave {at}: every way out is a ledge of 2 m or more \
             (V9.1), and no Jump clears it (V9.2)"
        )
    } else {
        let down = jumps
            .iter()
            .all(|p| map.elevation(*p) <= map.elevation(at) - 2);
        format!(
            "unit \"{unit}\" cannot walk off {at}: every way out is a ledge of 2 m or more \
             (V9.1); only a Jump leaves it{} (V9.2)",
            if down {
                ", and every landing is a fall (V9.4)"
            } else {
                ""
            }
        )
    })
}

/// The tiles of side `side`'s units (only `unit`'s when named).
fn unit_tiles(level: &ValidLevel, side: usize, unit: Option<&str>) -> Vec<Pos> {
    level
        .units
        .iter()
        .filter(|u| u.side == side && unit.is_none_or(|n| n == u.name))
        .map(|u| u.at)
        .collect()
}

/// Where the `i`th victory condition (of kind `kind`) is written: past
/// the earlier conditions of the same kind.
fn nth_victory<'a>(level: &ValidLevel, i: usize, kind: &'a str) -> Vec<Needle<'a>> {
    let before = level.victory()[..i]
        .iter()
        .filter(|v| victory_kind(v) == kind)
        .count();
    let mut path = vec![Ident("victory")];
    path.extend(std::iter::repeat_n(Ident(kind), before + 1));
    path
}

fn victory_kind(v: &Victory) -> &'static str {
    match v {
        Victory::Eliminate => "Eliminate",
        Victory::HoldZone { .. } => "HoldZone",
        Victory::SurviveRounds { .. } => "SurviveRounds",
        Victory::ReachExit { .. } => "ReachExit",
    }
}

/// The map cut into regions a unit can walk between, units ignored
/// (R5.1 corners, R5.2 passability): one flood fill for the whole map,
/// so a level of any size is linted in one pass.
struct Regions {
    width: i32,
    label: Vec<u32>,
}

impl Regions {
    const NONE: u32 = u32::MAX;

    fn of(map: &TerrainMap) -> Self {
        let (w, h) = (map.width(), map.height());
        let mut label = vec![Self::NONE; (w * h).max(0) as usize];
        let nobody = Occupancy::new(map, std::iter::empty(), 0, Pos::new(-1, -1));
        let mut next = 0;
        for start in map.positions() {
            let i = (start.y * w + start.x) as usize;
            if label[i] != Self::NONE || !map.is_passable(start) {
                continue;
            }
            label[i] = next;
            let mut stack = vec![start];
            while let Some(p) = stack.pop() {
                for d in Dir::ALL {
                    if step_block(map, &nobody, p, d).is_some() {
                        continue;
                    }
                    let q = p.step(d);
                    let j = (q.y * w + q.x) as usize;
                    if label[j] == Self::NONE {
                        label[j] = next;
                        stack.push(q);
                    }
                }
            }
            next += 1;
        }
        Regions { width: w, label }
    }

    /// True when a unit at `a` could walk to `b`.
    fn joined(&self, a: Pos, b: Pos) -> bool {
        let at = |p: Pos| {
            (p.x >= 0 && p.y >= 0 && p.x < self.width)
                .then(|| self.label.get((p.y * self.width + p.x) as usize).copied())
                .flatten()
                .filter(|l| *l != Self::NONE)
        };
        at(a).is_some() && at(a) == at(b)
    }
}

/// Over this share of the decided battles, one side is favoured.
pub const FAVOURED: f64 = 0.6;
/// Over this share of all battles, draws are too common.
pub const DRAWS: f64 = 0.2;

/// `lint --balance`: plays `each_way` battles with sides as listed and as
/// many swapped, the default AI on every side (`sim`), and warns when one
/// side wins more than [`FAVOURED`] of the decided battles or more than
/// [`DRAWS`] are draws, with the 95% interval. `done` ticks per battle.
/// Also returns the verdict in one line, warning or not.
pub fn balance(
    level: &ValidLevel,
    src: &str,
    file: &str,
    profiles: &crate::ai::Profiles,
    each_way: usize,
    seed: u64,
    done: impl Fn() + Sync,
) -> Result<(Vec<Diagnostic>, String), String> {
    use crate::sim::{Share, SimConfig, run};
    let profile = profiles
        .get(crate::ai::DEFAULT_PROFILE)
        .cloned()
        .ok_or("the default AI profile is missing")?;
    let config = SimConfig {
        level: level.clone(),
        games: 2 * each_way,
        a: profile.clone(),
        b: profile,
        seed,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        swap: true,
    };
    let results = run(&config, done);
    let loc = Locator::new(src);
    let warn = |path: &[Needle], message: String| Diagnostic {
        file: file.to_string(),
        at: loc.locate(path),
        message,
    };
    let decided = results.iter().filter(|r| r.winner_side.is_some()).count();
    let mut out = vec![];
    let mut verdict = format!(
        "balance: {} battles (sides swapped in half):",
        results.len()
    );
    for (s, side) in level.sides().iter().enumerate() {
        let won = results.iter().filter(|r| r.winner_side == Some(s)).count();
        let share = Share::new(won, decided);
        verdict += &format!(" \"{}\" wins {share} of the decided;", side.name);
        if decided > 0 && share.rate > FAVOURED {
            out.push(warn(
                &[Ident("sides"), Str(&side.name)],
                format!(
                    "balance: side \"{}\" wins {share} of the decided battles (over {:.0}%; \
                     {} battles, sides swapped in half)",
                    side.name,
                    FAVOURED * 100.0,
                    results.len()
                ),
            ));
        }
    }
    let draws = Share::new(results.len() - decided, results.len());
    verdict += &format!(" draws {draws}");
    if draws.rate > DRAWS {
        out.push(warn(
            &[Ident("round_limit")],
            format!(
                "balance: {draws} of the battles are draws (over {:.0}%)",
                DRAWS * 100.0
            ),
        ));
    }
    Ok((out, verdict))
}
