//! Property tests: random command streams, legal or not, never panic and
//! never break an invariant; a refused command changes nothing but the
//! event that says so; and the events tell everything that changed: folded
//! over the starting state they give the final state.
//!
//! `PROPTEST_CASES=N` raises the number of streams (about 60 commands
//! each); the running total of commands is printed every 100 000.

use crate::common::level;
use bevy::prelude::*;
use proptest::prelude::*;
use skirmish::battle::{ActionPoints, Dead, GridPos, Health, UnitId};
use skirmish::grid::{Dir, Pos};
use skirmish::rules::board::Board;
use skirmish::rules::legal::legal_commands;
use skirmish::rules::{BattleEvent, BattleEvents, Command, ThrowTarget, TurnState, submit};
use skirmish::save::SaveGame;
use skirmish::setup::headless_app;
use std::sync::atomic::{AtomicU64, Ordering};

/// Commands sent by the stream test in this run, for the report.
static SENT: AtomicU64 = AtomicU64::new(0);

use crate::common::cases;

const NAMES: &[&str] = &[
    "Ila", "Bran", "Cole", "Dara", "Brakka", "Orm", "Skarn", "Vek", "Hald", "Iri", "Gorm", "Sef",
    "Hrok", "Ugg", "Grum", "Borv", "Tamsin", "Odo", "Kay", "Bayard", "Mordred", "Llamrei",
    "Nobody",
];

/// A command built from arbitrary parts: known and unknown units, tiles on
/// and off the map, any direction; or "pick the k-th legal command".
#[derive(Clone, Debug)]
enum Step {
    Raw(u8, usize, usize, (i32, i32), u8),
    Legal(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (
            0..25u8,
            0..NAMES.len(),
            0..NAMES.len(),
            (-3..26i32, -3..16i32),
            0..8u8
        )
            .prop_map(|(k, u, t, p, d)| Step::Raw(k, u, t, p, d)),
        any::<usize>().prop_map(Step::Legal),
    ]
}

fn raw(k: u8, u: usize, t: usize, (x, y): (i32, i32), d: u8) -> Command {
    let unit = NAMES[u].to_string();
    let target = NAMES[t].to_string();
    let to = Pos::new(x, y);
    let dir = Dir::ALL[d as usize];
    match k {
        0 => Command::Move {
            unit,
            to,
            path: None,
            sprint: false,
        },
        1 => Command::Step { unit, to },
        2 => Command::Face { unit, dir },
        3 => Command::Attack {
            unit,
            target,
            weapon: None,
            power: 0,
            lunge: false,
            part: None,
        },
        4 => Command::Attack {
            unit,
            target,
            weapon: Some("bogus".into()),
            power: 0,
            lunge: false,
            part: None,
        },
        5 => Command::Charge {
            unit,
            target,
            shove: false,
        },
        6 => Command::Defend { unit },
        7 => Command::ReadyShield { unit },
        8 => Command::StandUp { unit },
        9 => Command::Stabilize { unit, target },
        10 => Command::PickUp {
            unit,
            item: "sword".into(),
        },
        11 => Command::DrinkPotion {
            unit,
            target: Some(target),
        },
        12 => Command::Move {
            unit,
            to,
            path: Some(vec![to, Pos::new(x + 1, y)]),
            sprint: false,
        },
        13 => Command::Throw {
            unit,
            item: "potion".into(),
            at: ThrowTarget::Tile(to),
        },
        14 => Command::Throw {
            unit,
            item: "shortsword".into(),
            at: ThrowTarget::Unit(target),
        },
        15 => Command::Attack {
            unit,
            target,
            weapon: None,
            power: d as i32 - 2,
            lunge: d.is_multiple_of(2),
            part: None,
        },
        16 => Command::Cleave { unit, target },
        17 => Command::Maneuver {
            unit,
            target,
            kind: skirmish::rules::command::ManeuverKind::MADE[d as usize % 4],
            to: (d > 4).then_some(to),
            fling: (d == 1).then_some(to),
        },
        18 => Command::Charge {
            unit,
            target,
            shove: true,
        },
        19 => Command::Sustain { unit },
        20 => Command::Escape { unit },
        21 => match d % 3 {
            0 => Command::ForceDown { unit },
            1 => Command::Crush { unit },
            _ => Command::Release { unit },
        },
        22 => Command::Drag { unit, to },
        23 => match d % 2 {
            0 => Command::Mount {
                unit,
                mount: target,
            },
            _ => Command::Dismount { unit, to },
        },
        _ => Command::EndTurn,
    }
}

fn check_invariants(world: &mut World) -> Result<(), TestCaseError> {
    let units: Vec<(Pos, i32, i32, i32, bool)> = world
        .query::<(&UnitId, &GridPos, &Health, &ActionPoints, Has<Dead>)>()
        .iter(world)
        .map(|(_, p, h, a, dead)| (p.0, h.hp, h.max, a.ap, dead))
        .collect();
    // Under die ranks a unit owes 0 to 3 AP (V6.6), and its AP are never
    // below 0 whatever it paid.
    if skirmish::rules::variants::die_ranks::on(world) {
        let owed: Vec<i32> = skirmish::battle::units(world)
            .into_iter()
            .map(|e| skirmish::rules::variants::die_ranks::owed(world, e))
            .collect();
        let reactions: Vec<i32> = world
            .query::<&skirmish::battle::Reactions>()
            .iter(world)
            .map(|r| r.0)
            .collect();
        prop_assert!(owed.iter().all(|o| (0..=3).contains(o)), "owed {owed:?}");
        prop_assert!(
            reactions.iter().all(|r| (0..=3).contains(r)),
            "the interrupt budget {reactions:?}"
        );
        prop_assert!(units.iter().all(|u| u.3 >= 0), "negative AP");
    }
    // A grapple's two stay within reach of each other (V7.6).
    let grapples: Vec<(Entity, Entity)> = world
        .query::<(Entity, &skirmish::rules::variants::maneuvers::Grappled)>()
        .iter(world)
        .map(|(e, g)| (e, g.by))
        .collect();
    for (a, b) in grapples {
        let (pa, pb) = (
            skirmish::battle::body_of(world, a).unwrap(),
            skirmish::battle::body_of(world, b).unwrap(),
        );
        prop_assert!(pa.gap(pb) <= 1, "a grapple across {} tiles", pa.gap(pb));
        prop_assert!(!world.entity(a).contains::<Dead>() && !world.entity(b).contains::<Dead>());
    }
    // No two living bodies share a tile, and every body stands whole on
    // open ground (R5.2, V10.6).
    let bodies: Vec<skirmish::grid::Body> = skirmish::battle::units(world)
        .into_iter()
        .filter(|e| !world.entity(*e).contains::<Dead>())
        .filter(|e| skirmish::battle::mount_of(world, *e).is_none())
        .filter_map(|e| skirmish::battle::body_of(world, e))
        .collect();
    let map = world
        .resource::<skirmish::battle::Battlefield>()
        .0
        .map
        .clone();
    // A rider stands on its mount's tiles (V12.1): the pair counts once.
    let riders: Vec<Entity> = skirmish::battle::units(world)
        .into_iter()
        .filter(|e| !world.entity(*e).contains::<Dead>())
        .filter(|e| skirmish::battle::mount_of(world, *e).is_some())
        .collect();
    for r in &riders {
        let m = skirmish::battle::mount_of(world, *r).unwrap();
        prop_assert_eq!(
            world.get::<GridPos>(*r).map(|p| p.0),
            world.get::<GridPos>(m).map(|p| p.0),
            "a rider off its mount's tile"
        );
        prop_assert!(
            !skirmish::battle::out_of_action(world, m),
            "a rider on a fallen mount"
        );
    }
    let mut tiles: Vec<Pos> = bodies.iter().flat_map(|b| b.tiles()).collect();
    for t in &tiles {
        prop_assert!(
            map.is_passable(*t),
            "a body on {} (off the map or in a wall)",
            t
        );
    }
    tiles.sort();
    let n = tiles.len();
    tiles.dedup();
    // On failure, who stands where and the log's last lines say how.
    if tiles.len() != n {
        let who: Vec<String> = skirmish::battle::units(world)
            .into_iter()
            .map(|e| {
                format!(
                    "{} {:?} dead={} mount={:?} ridden={:?}",
                    skirmish::battle::name_of(world, e),
                    skirmish::battle::body_of(world, e),
                    world.entity(e).contains::<Dead>(),
                    skirmish::battle::mount_of(world, e),
                    skirmish::battle::rider_of(world, e)
                )
            })
            .collect();
        let log = skirmish::rules::CombatLog::of(world).lines().to_vec();
        eprintln!(
            "OVERLAP\n{}\n{}",
            who.join("\n"),
            log[log.len().saturating_sub(25)..].join("\n")
        );
    }
    prop_assert_eq!(tiles.len(), n, "two bodies share a tile");
    // Energy (V5): at most 5 a round, budgets never below 0, and no unit
    // in action spends its last Stamina (V5.2–V5.4).
    if skirmish::battle::energy(world) {
        for e in skirmish::battle::units(world) {
            if skirmish::battle::out_of_action(world, e) {
                continue;
            }
            let energy = world
                .get::<skirmish::battle::ActionPoints>(e)
                .map_or(0, |a| a.ap);
            let budget = world
                .get::<skirmish::battle::Budget>(e)
                .copied()
                .unwrap_or_default();
            let stamina = world.get::<skirmish::battle::Stamina>(e).map_or(0, |s| s.0);
            prop_assert!((0..=5).contains(&energy), "Energy {}", energy);
            prop_assert!(budget.agility >= 0 && budget.agile >= 0, "{:?}", budget);
            prop_assert!(stamina >= 1, "Stamina {}", stamina);
        }
    }
    // Spells (V11): MP within 0 and the template's (V11.2); a field held
    // by concentration and a grip have their caster holding the spell
    // (V11.5, V11.6, V11.4).
    if skirmish::rules::variants::spells::on(world) {
        use skirmish::rules::variants::spells::{concentration::Concentrating, held};
        let holds = |world: &World, caster: Entity, spell: &str| {
            world
                .get::<Concentrating>(caster)
                .is_some_and(|c| c.0 == spell)
        };
        for e in skirmish::battle::units(world) {
            let mp = world.get::<skirmish::battle::Mp>(e).map_or(0, |m| m.0);
            let most = world
                .get::<skirmish::battle::Stats>(e)
                .map_or(0, |s| s.template.mp);
            prop_assert!((0..=most).contains(&mp), "MP {} of {}", mp, most);
            if let Some(g) = world.get::<held::Gripped>(e) {
                prop_assert!(holds(world, g.by, &g.spell), "a grip nobody holds");
            }
        }
        let fields = world.resource::<held::Fields>().0.clone();
        for f in fields.iter().filter(|f| f.held) {
            let caster = skirmish::battle::units(world)
                .into_iter()
                .find(|e| world.get::<skirmish::battle::UnitId>(*e) == Some(&f.caster));
            prop_assert!(
                caster.is_some_and(|c| holds(world, c, &f.spell)),
                "a field nobody holds: {:?}",
                f
            );
        }
    }
    for (_, hp, max, ap, _) in &units {
        prop_assert!(*hp >= 0 && hp <= max, "HP {} of {}", hp, max);
        prop_assert!(*ap >= 0, "AP {}", ap);
    }
    if let Some(current) = world.resource::<TurnState>().current {
        prop_assert!(
            !world.entity(current).contains::<Dead>(),
            "a dead unit has the turn"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), ..ProptestConfig::default() })]

    #[test]
    fn random_command_streams_keep_the_invariants_and_the_events_tell_all(
        seed in any::<u64>(),
        variant in 0..14usize,
        steps in proptest::collection::vec(step(), 1..120),
    ) {
        // Thirteen cases in fourteen on a level with a variant on (V13
        // archers.ron, V4 fort.ron, V2 shieldwall.ron, V3 barrow.ron, V7
        // brawl.ron, V10 hill.ron: 2×2 and 3×3 bodies, V12 lancers.ron:
        // riders, V9 the cliffs test level: heights, jumps, a chasm; V8 the
        // night test level: hidden units, sneaking, Hide and Search; V3 as
        // 001 wounds.ron: injuries without HP; V6 ranks.ron: die ranks; V5
        // second_wind.ron: Energy; V11 hedge_mages.ron: spells).
        let file = ["ford.ron", "archers.ron", "fort.ron", "shieldwall.ron", "barrow.ron", "brawl.ron", "hill.ron", "lancers.ron", "../tests/levels/cliffs.ron", "../tests/levels/night.ron", "wounds.ron", "ranks.ron", "second_wind.ron", "hedge_mages.ron"][variant];
        let mut app = headless_app(&level(file), seed);
        let world = app.world_mut();
        let start = Board::capture(world);
        let first = world.resource::<BattleEvents>().all().len();
        for s in steps {
            let command = match s {
                Step::Raw(k, u, t, p, d) => raw(k, u, t, p, d),
                Step::Legal(i) => {
                    let legal = legal_commands(world);
                    if legal.is_empty() { break; }
                    legal[i % legal.len()].clone()
                }
            };
            let actor_dead = command
                .actor()
                .and_then(|n| skirmish::battle::unit_named(world, n))
                .is_some_and(|e| world.entity(e).contains::<Dead>());
            let before = SaveGame::capture(world);
            let sent = SENT.fetch_add(1, Ordering::Relaxed) + 1;
            if sent.is_multiple_of(100_000) {
                eprintln!("invariants: {sent} random commands so far");
            }
            match submit(world, command.clone()) {
                Ok(()) => prop_assert!(!actor_dead, "a dead unit acted: {}", command),
                Err(reason) => {
                    prop_assert!(!reason.why.is_empty());
                    // Nothing changed but the one event telling the refusal.
                    let mut after = SaveGame::capture(world);
                    let told = after.events.pop();
                    after.told.pop();
                    prop_assert_eq!(
                        told,
                        Some(BattleEvent::CommandRefused { command: command.clone(), refusal: reason }),
                        "the refusal is told"
                    );
                    prop_assert_eq!(&after, &before, "refused {} changed the battle", command);
                }
            }
            check_invariants(world)?;
        }
        // The events are complete: folded over the start, they give the end.
        let end = Board::capture(world);
        let folded = start.fold(&world.resource::<BattleEvents>().all()[first..]);
        prop_assert_eq!(folded, end, "the events miss a change");
    }
}

mod search {
    use proptest::prelude::*;
    use skirmish::grid::{Dir, Pos};
    use skirmish::rules::motion::movement::{Occupancy, search, step_block, step_cost};
    use skirmish::terrain::{TerrainMap, default_legend};
    use std::collections::{BTreeMap, BinaryHeap};

    /// Dijkstra written the plain way, from the rule functions themselves.
    fn reference(map: &TerrainMap, occ: &Occupancy, start: Pos, limit: u32) -> BTreeMap<Pos, u32> {
        let mut best: BTreeMap<(Pos, bool), u32> = BTreeMap::new();
        let mut heap = BinaryHeap::new();
        best.insert((start, false), 0);
        heap.push(std::cmp::Reverse((0u32, start, false)));
        while let Some(std::cmp::Reverse((c, p, odd))) = heap.pop() {
            if best.get(&(p, odd)).is_some_and(|b| *b < c) {
                continue;
            }
            for dir in Dir::ALL {
                if step_block(map, occ, p, dir).is_some() {
                    continue;
                }
                let ((q, o), step) = step_cost(map, occ, (p, odd), dir);
                let total = c + step;
                if total <= limit && best.get(&(q, o)).is_none_or(|b| total < *b) {
                    best.insert((q, o), total);
                    heap.push(std::cmp::Reverse((total, q, o)));
                }
            }
        }
        let mut out = BTreeMap::new();
        for ((p, _), c) in best {
            let e = out.entry(p).or_insert(c);
            *e = (*e).min(c);
        }
        out
    }

    /// One step of an `n`×`n` body, written from V10.6's words alone (no
    /// rule function): the tiles the moved square covers and the old one
    /// did not are entered, and each must be on the map, passable and no
    /// enemy's; a diagonal also needs passable the tiles that the square
    /// moved along one axis alone covers and neither the old nor the new
    /// square does (R5.1 on the leading edge); the base cost (1, diagonals
    /// alternating 1 and 2) doubles when any entered tile is difficult.
    fn body_step(
        map: &TerrainMap,
        enemies: &[Pos],
        n: i32,
        (p, odd): (Pos, bool),
        dir: Dir,
    ) -> Option<((Pos, bool), u32)> {
        let square = |a: Pos| -> Vec<Pos> {
            (0..n)
                .flat_map(|dy| (0..n).map(move |dx| Pos::new(a.x + dx, a.y + dy)))
                .collect()
        };
        let (dx, dy) = dir.delta();
        let q = Pos::new(p.x + dx, p.y + dy);
        let (old, new) = (square(p), square(q));
        let entered: Vec<Pos> = new.iter().copied().filter(|t| !old.contains(t)).collect();
        for t in &entered {
            if !map.contains(*t) || !map.is_passable(*t) || enemies.contains(t) {
                return None;
            }
        }
        if dx != 0 && dy != 0 {
            for alone in [Pos::new(p.x + dx, p.y), Pos::new(p.x, p.y + dy)] {
                for t in square(alone) {
                    if !old.contains(&t) && !new.contains(&t) && !map.is_passable(t) {
                        return None;
                    }
                }
            }
        }
        let (base, odd) = if dx != 0 && dy != 0 {
            (if odd { 2 } else { 1 }, !odd)
        } else {
            (1, odd)
        };
        let difficult = entered.iter().any(|t| {
            map.get(*t)
                .is_some_and(|t| t.movement == skirmish::terrain::Movement::Difficult)
        });
        Some(((q, odd), if difficult { base * 2 } else { base }))
    }

    /// Dijkstra over a body's anchors with [`body_step`].
    fn body_reference(
        map: &TerrainMap,
        enemies: &[Pos],
        n: i32,
        start: Pos,
        limit: u32,
    ) -> BTreeMap<Pos, u32> {
        let mut best: BTreeMap<(Pos, bool), u32> = BTreeMap::new();
        let mut heap = BinaryHeap::new();
        best.insert((start, false), 0);
        heap.push(std::cmp::Reverse((0u32, start, false)));
        while let Some(std::cmp::Reverse((c, p, odd))) = heap.pop() {
            if best.get(&(p, odd)).is_some_and(|b| *b < c) {
                continue;
            }
            for dir in Dir::ALL {
                let Some(((q, o), step)) = body_step(map, enemies, n, (p, odd), dir) else {
                    continue;
                };
                let total = c + step;
                if total <= limit && best.get(&(q, o)).is_none_or(|b| total < *b) {
                    best.insert((q, o), total);
                    heap.push(std::cmp::Reverse((total, q, o)));
                }
            }
        }
        let mut out = BTreeMap::new();
        for ((p, _), c) in best {
            let e = out.entry(p).or_insert(c);
            *e = (*e).min(c);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// V10.6: the paths of a Large (2×2) or Huge (3×3) body cost what a
        /// plain search over its footprint, written from the rule's words,
        /// finds: every anchor and every cost.
        #[test]
        fn body_paths_match_a_plain_search(
            cells in proptest::collection::vec(0..10usize, 14 * 12),
            enemies in proptest::collection::vec((0..14i32, 0..12i32), 0..5),
            start in (0..12i32, 0..10i32),
            n in 2..4i32,
            limit in prop_oneof![Just(u32::MAX - 8), 0..9u32],
        ) {
            let symbols = ['.', '.', '.', '.', '.', '#', '=', '%', '~', '_'];
            let rows: Vec<String> = cells
                .chunks(14)
                .map(|r| r.iter().map(|&i| symbols[i]).collect())
                .collect();
            let map = TerrainMap::new(&rows, default_legend());
            let start = Pos::new(start.0, start.1);
            let body = skirmish::grid::Body::new(start, n);
            let enemies: Vec<Pos> = enemies
                .iter()
                .map(|&(x, y)| Pos::new(x, y))
                .filter(|p| !body.contains(*p))
                .collect();
            let units = enemies.iter().map(|&p| (skirmish::grid::Body::tile(p), 1usize));
            let occ = Occupancy::of_bodies(&map, units, 0, body);
            let fast = search(&map, &occ, start, limit);
            let slow = body_reference(&map, &enemies, n, start, limit);
            let got: BTreeMap<Pos, u32> = fast.tiles().collect();
            prop_assert_eq!(got, slow);
        }

        /// The flattened search finds exactly the costs of the rules' own
        /// step functions (R5.1, R5.2), bounded or not.
        #[test]
        fn search_matches_the_rules(
            cells in proptest::collection::vec(0..10usize, 12 * 10),
            enemies in proptest::collection::vec((0..12i32, 0..10i32), 0..6),
            start in (0..12i32, 0..10i32),
            limit in prop_oneof![Just(u32::MAX - 8), 0..9u32],
        ) {
            let symbols = ['.', '.', '.', '.', '#', '=', '%', 'T', '~', '_'];
            let rows: Vec<String> = cells
                .chunks(12)
                .map(|r| r.iter().map(|&i| symbols[i]).collect())
                .collect();
            let map = TerrainMap::new(&rows, default_legend());
            let start = Pos::new(start.0, start.1);
            let units = enemies.iter().map(|&(x, y)| (Pos::new(x, y), 1usize));
            let occ = Occupancy::new(&map, units, 0, start);
            let fast = search(&map, &occ, start, limit);
            let slow = reference(&map, &occ, start, limit);
            let got: BTreeMap<Pos, u32> = fast.tiles().collect();
            prop_assert_eq!(got, slow);
        }
    }
}

mod scatter {
    use proptest::prelude::*;
    use skirmish::grid::Pos;
    use skirmish::rules::throws::throw::scatter;
    use skirmish::terrain::{TerrainMap, default_legend};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// R9.3: a scattered object always lands on the map, on a tile that
        /// neither blocks lines nor is impassable, whatever the roll.
        #[test]
        fn scatter_lands_on_an_open_tile(
            cells in proptest::collection::vec(0..10usize, 10 * 8),
            thrower in (-2..12i32, -2..10i32),
            target in (0..10i32, 0..8i32),
            increment in 1..8i32,
            roll in 1..=8u32,
        ) {
            let symbols = ['.', '.', '.', '.', '#', '=', '%', 'T', '~', '_'];
            let rows: Vec<String> = cells.chunks(10).map(|r| r.iter().map(|&i| symbols[i]).collect()).collect();
            let map = TerrainMap::new(&rows, default_legend());
            let target = Pos::new(target.0, target.1);
            let open = |p: Pos| map.flags(p) & TerrainMap::PASSABLE != 0 && map.flags(p) & TerrainMap::BLOCKS_LINE == 0;
            prop_assume!(open(target));
            let land = scatter(&map, Pos::new(thrower.0, thrower.1), target, increment, roll);
            let thrower = (thrower.0, thrower.1);
            prop_assert!(map.contains(land));
            prop_assert!(open(land), "landed on {:?}", map.get(land));
            // It lies on the rolled direction's ray, no farther than
            // floor(d / increment) + 1 tiles.
            let thrower = Pos::new(thrower.0, thrower.1);
            let first = skirmish::grid::Dir::towards(target, thrower).unwrap_or(skirmish::grid::Dir::N);
            let dir = first.rotate(roll as i32 - 1);
            let most = thrower.distance(target) / increment + 1;
            let (dx, dy) = dir.delta();
            let on_ray = (0..=most).any(|k| Pos::new(target.x + k * dx, target.y + k * dy) == land);
            prop_assert!(on_ray, "{:?} is not on the {:?} ray from {:?}", land, dir, target);
        }
    }
}
