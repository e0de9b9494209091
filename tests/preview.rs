//! The preview is exact: for every possible d20 outcome the resolution's
//! degrees, counted, give the preview's probabilities.

use crate::common::{catalog, root};
use bevy::prelude::*;
use skirmish::battle::unit_named;
use skirmish::dice::Dice;
use skirmish::format::{BodyPart, Guard, Severity};
use skirmish::load::load_level_file;
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::attacks::resolution::draft_for;
use skirmish::rules::reactions::policy::{ReactionPolicies, ReactionPolicy};
use skirmish::rules::variants::injuries::Injuries;
use skirmish::rules::{BattleEvent, BattleEvents, Command, submit};
use skirmish::setup::headless_app_with;

/// The duel level's text, for tests that switch a variant on or change a
/// template in it.
pub fn duel_text() -> String {
    std::fs::read_to_string(root().join("tests/levels/duel.ron")).unwrap()
}

fn duel() -> skirmish::load::ValidLevel {
    load_level_file(&root().join("tests/levels/duel.ron"), catalog()).unwrap()
}

/// Commands that set up the situation, with their scripted dice.
#[derive(Default)]
struct Situation {
    /// The duel level's text changed (a variant switched on, a template).
    level: Option<fn(&str) -> String>,
    /// Nobody reacts (R8): a shot in reach would provoke first.
    never_react: bool,
    initiative: &'static [&'static str],
    setup: Vec<Command>,
    setup_dice: Vec<(u32, u32)>,
    attacker: &'static str,
    target: &'static str,
    d20s: u32,
}

fn attack(unit: &str, target: &str) -> Command {
    Command::Attack {
        unit: unit.into(),
        target: target.into(),
        weapon: None,
        power: 0,
        lunge: false,
        part: None,
    }
}

/// The degrees of the last attack roll (R7.2), read from the events.
fn degrees_in(events: &[BattleEvent]) -> usize {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            BattleEvent::AttackRolled(a) => Some(a.degrees as usize),
            _ => None,
        })
        .expect("the attack was rolled")
}

fn check_exact(s: Situation) {
    let level = match s.level {
        Some(change) => {
            let src = duel_text();
            let text = change(&src);
            assert_ne!(text, src, "the level changed");
            skirmish::load::parse_level(text.as_bytes(), "duel.ron", catalog()).unwrap()
        }
        None => duel(),
    };
    let initiative: Vec<String> = s.initiative.iter().map(|n| n.to_string()).collect();
    let start = |dice: Vec<(u32, u32)>| {
        let mut app = headless_app_with(&level, Dice::scripted(dice), Some(&initiative));
        if s.never_react {
            app.world_mut()
                .insert_resource(ReactionPolicies(vec![ReactionPolicy::Never; 2]));
        }
        app
    };
    // The preview, in the situation.
    let mut app = start(s.setup_dice.clone());
    for c in &s.setup {
        submit(app.world_mut(), c.clone()).unwrap();
    }
    let world = app.world_mut();
    let (a, t) = (
        unit_named(world, s.attacker).unwrap(),
        unit_named(world, s.target).unwrap(),
    );
    let draft = draft_for(world, a, t, None).unwrap();
    let preview = preview_attack(world, draft).unwrap();
    assert_eq!(1 + preview.advantage.unsigned_abs(), s.d20s);
    // Every outcome of the d20s, resolved.
    let outcomes = 20u32.pow(s.d20s);
    let mut counts = vec![0u32; preview.degrees.len().max(8)];
    let mut fumbles = 0u32;
    for n in 0..outcomes {
        let mut dice = s.setup_dice.clone();
        let mut rest = n;
        for _ in 0..s.d20s {
            dice.push((20, rest % 20 + 1));
            rest /= 20;
        }
        dice.extend(std::iter::repeat_n((8, 1), 12));
        let mut app = start(dice);
        for c in &s.setup {
            submit(app.world_mut(), c.clone()).unwrap();
        }
        submit(app.world_mut(), attack(s.attacker, s.target)).unwrap();
        let events = app.world().resource::<BattleEvents>().all();
        counts[degrees_in(events)] += 1;
        if events
            .iter()
            .any(|e| matches!(e, BattleEvent::WeaponDropped { .. }))
        {
            fumbles += 1;
        }
    }
    // A melee roll's natural 1 drops the weapon (R7.3).
    assert!(!preview.melee || preview.fumble > 0.0);
    // The fumble chance (R7.3) is the share of outcomes that drop the
    // weapon.
    let counted = fumbles as f64 / outcomes as f64;
    assert!(
        (counted - preview.fumble).abs() < 1e-12,
        "fumble: preview {}, counted {counted}",
        preview.fumble
    );
    for (d, p) in preview.degrees.iter().enumerate() {
        let counted = counts[d] as f64 / outcomes as f64;
        assert!(
            (counted - p).abs() < 1e-12,
            "degree {d}: preview {p}, counted {counted}"
        );
    }
    assert!(counts[preview.degrees.len()..].iter().all(|c| *c == 0));
}

#[test]
fn plain_attack_preview_is_exact() {
    check_exact(Situation {
        initiative: &["Ila", "Brakka", "Orm", "Cole"],
        setup: vec![],
        setup_dice: vec![],
        attacker: "Ila",
        target: "Brakka",
        d20s: 1,
        ..Situation::default()
    });
}

#[test]
fn advantage_preview_is_exact() {
    // Round 1: Ila walks behind Orm; round 2 she attacks from its rear (+1).
    check_exact(Situation {
        initiative: &["Ila", "Brakka", "Orm", "Cole"],
        setup: vec![
            Command::Move {
                unit: "Ila".into(),
                to: (7, 3).into(),
                path: None,
                sprint: false,
            },
            Command::EndTurn,
            Command::EndTurn,
            Command::ReadyShield { unit: "Orm".into() },
            Command::EndTurn,
            Command::EndTurn,
        ],
        setup_dice: vec![],
        attacker: "Ila",
        target: "Orm",
        d20s: 2,
        ..Situation::default()
    });
}

#[test]
fn disadvantage_preview_is_exact() {
    // A first attack that misses (d20 2): the second has +1 disadvantage.
    check_exact(Situation {
        initiative: &["Ila", "Brakka", "Orm", "Cole"],
        setup: vec![attack("Ila", "Brakka")],
        setup_dice: vec![(20, 2)],
        attacker: "Ila",
        target: "Brakka",
        d20s: 2,
        ..Situation::default()
    });
}

/// V13 (a level's `shooting_in_melee`): Ila, a bowman beside Brakka,
/// shoots Orm with two d20s, and the preview counts them as the dice fall.
#[test]
fn shooting_in_melee_preview_is_exact() {
    check_exact(Situation {
        level: Some(|src| {
            src.replace(
                "name: \"Duel\",",
                "name: \"Duel\", rules: (shooting_in_melee: true),",
            )
            .replace(
                "(name: \"Ila\", side: \"A\", template: \"fighter\"",
                "(name: \"Ila\", side: \"A\", template: \"bowman\"",
            )
        }),
        never_react: true,
        initiative: &["Ila", "Brakka", "Orm", "Cole"],
        attacker: "Ila",
        target: "Orm",
        d20s: 2,
        ..Situation::default()
    });
}

#[test]
fn preview_from_a_hypothetical_tile() {
    // Ila at (2, 2) imagines attacking Orm (6, 2, facing W) from behind it,
    // (7, 2), without moving: the rear attack's +1 advantage shows (R4.3).
    let level = duel();
    let mut app = skirmish::setup::headless_app(&level, 1);
    let world = app.world_mut();
    let (a, t) = (
        unit_named(world, "Ila").unwrap(),
        unit_named(world, "Orm").unwrap(),
    );
    let mut draft = draft_for(world, a, t, None).unwrap();
    let front = preview_attack(world, draft.clone()).unwrap();
    draft.from = (7, 2).into();
    let rear = preview_attack(world, draft).unwrap();
    assert_eq!(front.advantage, 0);
    assert_eq!(rear.advantage, 1);
    assert!(
        rear.modifiers
            .iter()
            .any(|m| m.rule == skirmish::rules::rule::Rule::R4_3)
    );
    assert!(rear.hit > front.hit);
    // Nothing moved.
    assert_eq!(
        world.get::<skirmish::battle::GridPos>(a).unwrap().0,
        (2, 2).into()
    );
}

#[test]
fn move_preview_lists_provoking_steps_and_reactors() {
    // As in the R3.2 scenario: Orm (2 reactions) sees Ila leave (5, 1) and
    // (5, 2), and has none left for (5, 3).
    let level = duel();
    let initiative: Vec<String> = ["Ila", "Brakka", "Orm", "Cole"].map(String::from).to_vec();
    let mut app = headless_app_with(&level, Dice::scripted([]), Some(&initiative));
    let world = app.world_mut();
    submit(
        world,
        Command::Move {
            unit: "Ila".into(),
            to: (4, 1).into(),
            path: None,
            sprint: false,
        },
    )
    .unwrap();
    for _ in 0..4 {
        submit(world, Command::EndTurn).unwrap();
    }
    let ila = unit_named(world, "Ila").unwrap();
    let path: Vec<skirmish::grid::Pos> = [(5, 1), (5, 2), (5, 3), (5, 4)].map(Into::into).to_vec();
    let steps = skirmish::rules::reactions::reactive_attack::provocations(world, ila, &path);
    let seen: Vec<(usize, (i32, i32), Vec<String>)> = steps
        .into_iter()
        .map(|p| (p.step, (p.leaving.x, p.leaving.y), p.reactors))
        .collect();
    assert_eq!(
        seen,
        vec![
            (1, (5, 1), vec!["Orm".to_string()]),
            (2, (5, 2), vec!["Orm".to_string()])
        ]
    );
}

#[test]
fn throw_preview_gives_hit_and_scatter_tiles() {
    // The R9.3 orthogonal scatter scenario's level: a rock thrown from
    // (2, 5) at the tile (6, 5): DV 5, +2, one range increment (+1 dis):
    // a hit needs a kept d20 of 4 or more on two dice: (17/20)^2.
    let text = std::fs::read_to_string(root().join("tests/scenarios/r9_3_scatter_orthogonal.ron"))
        .unwrap();
    let scenario = skirmish::scenario::parse(text.as_bytes(), "scatter").unwrap();
    let skirmish::scenario::LevelRef::Inline(level) = scenario.level else {
        panic!("the scenario has its level inline")
    };
    let level = skirmish::load::validate_level(*level, catalog(), "scatter").unwrap();
    let mut app = skirmish::setup::headless_app(&level, 1);
    let world = app.world_mut();
    let t = unit_named(world, "T").unwrap();
    let target = skirmish::rules::command::ThrowTarget::Tile((6, 5).into());
    let p = skirmish::rules::throws::throw::preview_throw(world, t, "rock", &target).unwrap();
    assert!((p.hit - 0.7225).abs() < 1e-12, "{}", p.hit);
    assert_eq!(p.hit_tile, (6, 5).into());
    let mut tiles: Vec<(i32, i32)> = p.scatter.iter().map(|(q, _)| (q.x, q.y)).collect();
    tiles.sort();
    assert_eq!(
        tiles,
        vec![
            (4, 3),
            (4, 5),
            (4, 7),
            (6, 3),
            (6, 7),
            (8, 3),
            (8, 5),
            (8, 7)
        ]
    );
    for (_, chance) in &p.scatter {
        assert!((chance - (1.0 - 0.7225) / 8.0).abs() < 1e-12);
    }
}

/// V4 (a level's `hit_zones`): the expected damage through armor and the
/// chance to drop the target, shown before the attack, are what the dice
/// give. Every d20, every zone d10 and every damage die (a 1d2 sword keeps
/// it small) is played out; Orm's mail covers only the torso, so a hit
/// elsewhere meets only the shield's AR.
#[test]
fn hit_zones_harm_and_drop_are_exact() {
    let src = duel_text();
    let text = src
        .replace("name: \"Duel\",", "name: \"Duel\", rules: (hit_zones: true),")
        .replace("at: (2, 2), facing: E)", "at: (5, 2), facing: E)")
        .replace(
            "(name: \"Orm\", side: \"B\", template: \"guard\", at: (6, 2), facing: W)",
            "(name: \"Orm\", side: \"B\", template: \"guard\", at: (6, 2), facing: W, stats: (hp: 5))",
        )
        .replace("(name: \"sword\", damage: \"1d8\"", "(name: \"sword\", damage: \"1d2\"")
        .replace("(name: \"mail\", dv: 1, ar: 3)", "(name: \"mail\", dv: 1, ar: 3, covers: [Torso])");
    let level = skirmish::load::parse_level(text.as_bytes(), "duel.ron", catalog()).unwrap();
    let initiative: Vec<String> = ["Ila", "Brakka", "Orm", "Cole"].map(String::from).to_vec();
    let start = |dice: Vec<(u32, u32)>| {
        let mut app = headless_app_with(&level, Dice::scripted(dice), Some(&initiative));
        app.world_mut()
            .insert_resource(ReactionPolicies(vec![ReactionPolicy::Never; 2]));
        app
    };
    let mut app = start(vec![]);
    let world = app.world_mut();
    let (a, t) = (
        unit_named(world, "Ila").unwrap(),
        unit_named(world, "Orm").unwrap(),
    );
    let preview = preview_attack(world, draft_for(world, a, t, None).unwrap()).unwrap();
    assert_eq!(preview.advantage, 0);
    assert_eq!(preview.armor.len(), 4, "one AR per zone");
    // The outcome of one attack with exactly these dice (None when the
    // rules want more or fewer): damage through armor, and whether Orm
    // dropped.
    let play_exactly = |dice: Vec<(u32, u32)>| {
        let mut app = start(dice);
        submit(app.world_mut(), attack("Ila", "Orm")).ok()?;
        let left = app.world().resource::<Dice>();
        if left.script_error().is_some() || left.script_left() > 0 {
            return None;
        }
        let through = app
            .world()
            .resource::<BattleEvents>()
            .all()
            .iter()
            .find_map(|e| match e {
                BattleEvent::Damaged {
                    amount,
                    absorbed,
                    hp_after,
                    ..
                } => Some((amount - absorbed, *hp_after == 0)),
                _ => None,
            });
        Some(through.unwrap_or((0, false)))
    };
    // A drop to 0 HP takes the death timer's d4 (R10.1) after the damage.
    let play = |dice: Vec<(u32, u32)>| {
        play_exactly(dice.clone()).or_else(|| play_exactly([dice, vec![(4, 2)]].concat()))
    };
    let (mut harm, mut drop) = (0.0, 0.0);
    for d20 in 1..=20 {
        if play(vec![(20, d20)]).is_some() {
            continue; // a miss: nothing through
        }
        for d10 in 1..=10 {
            // As many 1d2 damage dice as the degrees call for.
            let with = |k: u32, combo: u32| {
                let mut dice = vec![(20, d20), (10, d10)];
                dice.extend((0..k).map(|i| (2, 1 + (combo >> i & 1))));
                dice
            };
            let k = (1..=6).find(|k| play(with(*k, 0)).is_some()).unwrap();
            for combo in 0..(1u32 << k) {
                let (through, dropped) = play(with(k, combo)).unwrap();
                let p = 1.0 / 20.0 / 10.0 / f64::from(1u32 << k);
                harm += p * f64::from(through);
                drop += p * f64::from(u8::from(dropped));
            }
        }
    }
    assert!(drop > 0.0 && harm > 0.0, "the attack can drop Orm");
    assert!(
        (harm - preview.harm()).abs() < 1e-12,
        "harm {harm} vs {}",
        preview.harm()
    );
    assert!(
        (drop - preview.drop(5)).abs() < 1e-12,
        "drop {drop} vs {}",
        preview.drop(5)
    );
}

/// The die the rules asked for past the end of the script (the dice's
/// "has run out" error), by its sides; any other script error fails `case`.
pub fn die_needed(world: &World, case: &str) -> Option<u32> {
    world.resource::<Dice>().script_error().map(|e| {
        assert!(e.contains("has run out"), "{case}: {e}");
        let sides = e.split("rolled a d").nth(1).unwrap();
        sides.split(' ').next().unwrap().parse::<u32>().unwrap()
    })
}

/// Every way the dice can fall, with its chance: `play` runs with a script
/// and returns its outcome; where the rules ask for a die past the end of
/// the script (the dice's "has run out" error), each face is tried.
pub fn every_fall<T>(play: &mut impl FnMut(&[(u32, u32)]) -> (T, Option<u32>)) -> Vec<(f64, T)> {
    fn walk<T>(
        prefix: &mut Vec<(u32, u32)>,
        p: f64,
        play: &mut impl FnMut(&[(u32, u32)]) -> (T, Option<u32>),
        out: &mut Vec<(f64, T)>,
    ) {
        match play(prefix) {
            (outcome, None) => out.push((p, outcome)),
            (_, Some(sides)) => {
                for face in 1..=sides {
                    prefix.push((sides, face));
                    walk(prefix, p / f64::from(sides), play, out);
                    prefix.pop();
                }
            }
        }
    }
    let mut out = vec![];
    walk(&mut vec![], 1.0, play, &mut out);
    out
}

/// V2 active defence: for a blocker, a parrier (with hit zones, turning the
/// hit to its mailed torso) and a dodger of a shot; V3 injuries with zones,
/// where a head or torso wound can fell: every fall of the d20, the
/// answer's d12s, the zone and damage dice, counted, gives the preview's
/// chance to hit, chance answered away, HP harm and drop.
/// The duel with Orm, a guard without his shield, dodging (V2) a bowman's
/// shots: DEX 4 and WIS 3 make the dodge worth enumerating.
fn dodging_guard(s: String) -> String {
    s.replace(
        "name: \"Duel\",",
        "name: \"Duel\", rules: (defence: Active),",
    )
    .replace(
        "template: \"fighter\", at: (5, 2)",
        "template: \"bowman\", at: (1, 1)",
    )
    .replace(
        "dex: 1, hp: 10, weapons: [\"sword\"],",
        "dex: 4, wis: 3, hp: 10, weapons: [\"sword\"],",
    )
    .replace(
        "armor: Some(\"mail\"), shield: Some(\"shield\")",
        "armor: Some(\"mail\")",
    )
}

/// The duel with injuries and hit zones (V3, V4), Ila a champion.
fn wounded_duel(s: String) -> String {
    s.replace(
        "name: \"Duel\",",
        "name: \"Duel\", rules: (injuries: true, hit_zones: true),",
    )
    .replace(
        "template: \"fighter\", at: (5, 2)",
        "template: \"champion\", at: (5, 2)",
    )
    .replace(
        "(name: \"champion\", level: 5, mb: 10, str: 5, hp: 20",
        "(name: \"champion\", level: 5, mb: 4, str: 5, hp: 20",
    )
}

/// Orm with two deadly head injuries: a third knocks him out (V3).
fn two_deadly_head_injuries(world: &mut World) {
    let orm = unit_named(world, "Orm").unwrap();
    world.entity_mut(orm).insert(Injuries(vec![
        (BodyPart::Head, Severity::Deadly),
        (BodyPart::Head, Severity::Deadly),
    ]));
}

#[test]
fn active_defence_and_injury_odds_are_exact() {
    let src = duel_text();
    let base = src
        .replace("at: (2, 2), facing: E)", "at: (5, 2), facing: E)")
        // One-sided damage dice: the degrees alone set the damage, and the
        // falls to count stay few.
        .replace(
            "(name: \"sword\", damage: \"1d8\"",
            "(name: \"sword\", damage: \"1d1\"",
        )
        .replace(
            "(name: \"bow\", damage: \"1d6\"",
            "(name: \"bow\", damage: \"1d1\"",
        )
        .replace(
            "(name: \"shield\", dv: 2, ar: 1)",
            "(name: \"shield\", dv: 2, ar: 1, block: 4, block_strength: 2)",
        );
    let cases: [(&str, Option<Guard>, fn(String) -> String, fn(&mut World)); 7] = [
        (
            "blocker",
            Some(Guard::Block),
            |s| {
                s.replace(
                    "name: \"Duel\",",
                    "name: \"Duel\", rules: (defence: Active),",
                )
                .replace(
                    "(name: \"mail\", dv: 1, ar: 3)",
                    "(name: \"mail\", dv: 1, ar: 0)",
                )
                .replace("dv: 2, ar: 1, block", "dv: 2, ar: 0, block")
            },
            |_| {},
        ),
        (
            "parrier",
            Some(Guard::Parry),
            |s| {
                s.replace(
                    "name: \"Duel\",",
                    "name: \"Duel\", rules: (defence: Active, hit_zones: true),",
                )
                .replace(
                    "dex: 1, hp: 10, weapons: [\"sword\"],",
                    "dex: 3, wis: -4, hp: 10, weapons: [\"sword\"],",
                )
                .replace(
                    "armor: Some(\"mail\"), shield: Some(\"shield\")",
                    "armor: Some(\"mail\")",
                )
                .replace(
                    "(name: \"mail\", dv: 1, ar: 3)",
                    "(name: \"mail\", dv: 1, ar: 2, covers: [Torso])",
                )
            },
            |_| {},
        ),
        ("dodger", Some(Guard::Dodge), dodging_guard, |_| {}),
        // V12.4: Orm rides Dob; the horse dodges for him, its DEX and his
        // WIS, two d12s keeping the lower.
        (
            "mounted dodger",
            Some(Guard::Dodge),
            |s| {
                dodging_guard(s)
                    .replace("rules: (defence: Active)", "rules: (defence: Active, mounts: true)")
                    .replace(
                    "template: \"guard\", at: (6, 2), facing: W)",
                    "template: \"guard\", at: (6, 2), facing: W, riding: Some(\"Dob\")),\n        \
                     (name: \"Dob\", side: \"B\", template: \"horse\", at: (6, 2), facing: W)",
                )
            },
            |_| {},
        ),
        // V11.3 SD (#26): Orm knows a Defense spell; he wards as the blow
        // lands: d12 + WIS 3 against Ila's total, absorbing 1d2. Not an
        // answer: the preview counts it as the ward it is.
        (
            "warder",
            None,
            |s| {
                s.replace("name: \"Duel\",", "name: \"Duel\", rules: (spells: true),")
                    .replace(
                        "dex: 1, hp: 10, weapons: [\"sword\"],",
                        "dex: 1, wis: 3, mp: 10, spells: [\"barrier\"], hp: 10, weapons: [\"sword\"],",
                    )
                    .replace("(name: \"mail\", dv: 1, ar: 3)", "(name: \"mail\", dv: 1, ar: 0)")
                    .replace("(name: \"shield\", dv: 2, ar: 1", "(name: \"shield\", dv: 2, ar: 0")
                    .replace(
                        "    round_limit: 10,",
                        "    spells: [(name: \"barrier\", kind: Defense, effect: Absorb(\"1d2\"))],\n    round_limit: 10,",
                    )
            },
            |_| {},
        ),
        // V3 with V4: Orm already has two deadly head injuries, so a third
        // knocks him out; a fatal torso injury kills. Both count as drops.
        ("wounded", None, wounded_duel, two_deadly_head_injuries),
        // V3 as 001 has it (#25): the same, but hits deal no HP damage and
        // roll no damage dice; Orm drops only by his injuries.
        (
            "injured only",
            None,
            |s| wounded_duel(s).replace("hit_zones: true)", "hit_zones: true, hp_damage: false)"),
            two_deadly_head_injuries,
        ),
    ];
    let order: Vec<String> = ["Ila", "Brakka", "Orm", "Cole"].map(String::from).to_vec();
    for (case, guard, edit, prepare) in cases {
        let text = edit(base.clone()).replace(
            "template: \"guard\", at: (6, 2), facing: W)",
            "template: \"guard\", at: (6, 2), facing: W, stats: (hp: 3))",
        );
        let level = skirmish::load::parse_level(text.as_bytes(), "duel.ron", catalog()).unwrap();
        // Everyone has had a turn (R2.3), then it is Ila's again.
        let start = |dice: &[(u32, u32)]| {
            let mut app = headless_app_with(&level, Dice::scripted(dice.to_vec()), Some(&order));
            for _ in 0..4 {
                submit(app.world_mut(), Command::EndTurn).unwrap();
            }
            prepare(app.world_mut());
            app
        };
        let mut app = start(&[]);
        let world = app.world_mut();
        let (a, t) = (
            unit_named(world, "Ila").unwrap(),
            unit_named(world, "Orm").unwrap(),
        );
        let preview = preview_attack(world, draft_for(world, a, t, None).unwrap()).unwrap();
        assert_eq!(preview.answer.as_ref().map(|g| g.guard), guard, "{case}");
        // The horse's dodge: two d12s, the lower counts (V12.4).
        let keep_lower = preview.answer.as_ref().is_some_and(|a| a.keep_lower);
        assert_eq!(keep_lower, case == "mounted dodger", "{case}");
        assert_eq!(preview.ward.is_some(), case == "warder", "{case}");
        let mut play = |dice: &[(u32, u32)]| {
            let mut app = start(dice);
            submit(app.world_mut(), attack("Ila", "Orm")).unwrap();
            let world = app.world();
            let need = die_needed(world, case);
            let events = world.resource::<BattleEvents>().all();
            // A hit deals damage, or (injuries only, #25) injures.
            let hit = events
                .iter()
                .any(|e| matches!(e, BattleEvent::Damaged { .. } | BattleEvent::Injured { .. }));
            let answered_away = events
                .iter()
                .any(|e| matches!(e, BattleEvent::Guarded { avoided: true, .. }));
            let through = events
                .iter()
                .find_map(|e| match e {
                    BattleEvent::Damaged {
                        amount, absorbed, ..
                    } => Some(amount - absorbed),
                    _ => None,
                })
                .unwrap_or(0);
            // Out of the fight: to 0 HP, knocked out or killed (V3).
            let dropped = events
                .iter()
                .any(|e| matches!(e, BattleEvent::FellDying { .. } | BattleEvent::Died { .. }));
            ((hit, answered_away, through, dropped), need)
        };
        let falls = every_fall(&mut play);
        let total: f64 = falls.iter().map(|f| f.0).sum();
        assert!((total - 1.0).abs() < 1e-9, "{case}: {total}");
        let sum = |f: &dyn Fn(&(bool, bool, i32, bool)) -> f64| -> f64 {
            falls.iter().map(|(p, o)| p * f(o)).sum()
        };
        let hit = sum(&|o| f64::from(u8::from(o.0)));
        let avoided = sum(&|o| f64::from(u8::from(o.1)));
        let harm = sum(&|o| f64::from(o.2));
        let drop = sum(&|o| f64::from(u8::from(o.3)));
        assert!(
            avoided > 0.0 || !matches!(guard, Some(Guard::Dodge | Guard::Parry)),
            "{case}: the answer can work"
        );
        assert!(
            drop > 0.0 || guard.is_some(),
            "{case}: the attack can drop Orm"
        );
        assert!(
            (case == "injured only") == (harm == 0.0 && hit > 0.0),
            "{case}: hits deal HP damage unless they injure only ({harm})"
        );
        for (what, counted, shown) in [
            ("hit", hit, preview.hit),
            ("avoided", avoided, preview.avoided),
            ("harm", harm, preview.harm()),
            ("drop", drop, preview.drop(3)),
        ] {
            assert!(
                (counted - shown).abs() < 1e-9,
                "{case}: {what} counted {counted} vs preview {shown}"
            );
        }
    }
}

/// V6 die ranks (#25): for the passive DEF, each active defence (a parry
/// with a weapon not made for it, at +1 disadvantage), a flanked and
/// off-guard target, a shot at an unaware one (the range's least die) and
/// successes that only injure (V3 as 001 has it): every fall of the ATT and
/// defence dice, resolved, gives the preview's chance of each number of
/// successes, the harm and the drop.
#[test]
fn die_rank_odds_are_exact() {
    use skirmish::rules::variants::active_defence::GuardOrders;
    let base = duel_text()
        .replace(
            "name: \"Duel\",",
            "name: \"Duel\", rules: (resolution: DieRanks),",
        )
        .replace("at: (2, 2), facing: E)", "at: (5, 2), facing: E)")
        .replace(
            "template: \"guard\", at: (6, 2), facing: W)",
            "template: \"guard\", at: (6, 2), facing: W, stats: (hp: 2))",
        );
    type Edit = fn(String) -> String;
    let plain: Edit = |s| s;
    let cases: [(&str, Guard, Edit, bool, &str); 7] = [
        ("passive", Guard::None, plain, true, "Ila"),
        ("block", Guard::Block, plain, true, "Ila"),
        (
            "parry with a weapon not made for it",
            Guard::Parry,
            |s| {
                s.replace(
                    "damage_type: Slashing)",
                    "damage_type: Slashing, traits: [NoParry])",
                )
            },
            true,
            "Ila",
        ),
        ("dodge", Guard::Dodge, plain, true, "Ila"),
        // Orm off-guard (no turn yet, R2.3), told to dodge, and flanked by
        // Ila and Cole: unaware, no dodge, his DEF at +1 dis (V6.7).
        (
            "unaware and flanked",
            Guard::Dodge,
            |s| s.replace("at: (1, 5), facing: N)", "at: (7, 2), facing: W)"),
            false,
            "Ila",
        ),
        // A shot at an unaware Orm: the range's least die (V6.7).
        (
            "shot at the unaware",
            Guard::None,
            |s| {
                s.replace(
                    "template: \"fighter\", at: (5, 2)",
                    "template: \"bowman\", at: (1, 1)",
                )
                .replace("dex: 1, hp: 10", "dex: -4, hp: 10")
            },
            false,
            "Ila",
        ),
        // Hits injure only (V3 as 001 has it): Orm drops by his injuries.
        (
            "injuring only",
            Guard::None,
            |s| {
                s.replace(
                    "rules: (resolution: DieRanks)",
                    "rules: (resolution: DieRanks, injuries: true, hp_damage: false)",
                )
            },
            true,
            "Ila",
        ),
    ];
    for (case, guard, edit, turns, attacker) in cases {
        let text = edit(base.clone());
        let level = skirmish::load::parse_level(text.as_bytes(), "duel.ron", catalog()).unwrap();
        let order: Vec<String> = ["Ila", "Brakka", "Orm", "Cole"].map(String::from).to_vec();
        let start = |dice: &[(u32, u32)]| {
            let mut app = headless_app_with(&level, Dice::scripted(dice.to_vec()), Some(&order));
            if turns {
                // Everyone has had a turn (R2.3), then it is Ila's again.
                for _ in 0..4 {
                    submit(app.world_mut(), Command::EndTurn).unwrap();
                }
            }
            let world = app.world_mut();
            let orm = unit_named(world, "Orm").unwrap();
            let mut orders = GuardOrders::default();
            orders.0.insert(orm, guard);
            world.insert_resource(orders);
            if case == "injuring only" {
                two_deadly_head_injuries(world);
            }
            app
        };
        let mut app = start(&[]);
        let world = app.world_mut();
        let (a, t) = (
            unit_named(world, attacker).unwrap(),
            unit_named(world, "Orm").unwrap(),
        );
        let mut draft = draft_for(world, a, t, None).unwrap();
        draft.aim = Some(BodyPart::Head);
        let preview = preview_attack(world, draft).unwrap();
        let contest = preview.contest.clone().expect("a contest");
        // Off-guard, Orm gives no active defence, whatever he is told.
        let expected = if turns { guard } else { Guard::None };
        assert_eq!(contest.guard, expected, "{case}");
        match case {
            "parry with a weapon not made for it" => assert_eq!(contest.defence.advantage, -1),
            "unaware and flanked" => {
                assert_eq!(contest.defence.advantage, -1, "{case}: unaware");
                assert!(contest.attack.advantage >= 1, "{case}: flanked");
            }
            "shot at the unaware" => {
                assert_eq!((contest.defence.sides, contest.defence.advantage), (4, 0))
            }
            _ => {}
        }
        let mut play = |dice: &[(u32, u32)]| {
            let mut app = start(dice);
            let mut command = attack(attacker, "Orm");
            if let Command::Attack { part, .. } = &mut command {
                *part = Some(BodyPart::Head);
            }
            submit(app.world_mut(), command).unwrap();
            let world = app.world();
            let need = die_needed(world, case);
            let events = world.resource::<BattleEvents>().all();
            let successes = degrees_in(events);
            let through = events
                .iter()
                .find_map(|e| match e {
                    BattleEvent::Damaged {
                        amount, absorbed, ..
                    } => Some(amount - absorbed),
                    _ => None,
                })
                .unwrap_or(0);
            let dropped = events.iter().any(|e| {
                matches!(
                    e,
                    BattleEvent::FellDying { .. }
                        | BattleEvent::FellStable(_)
                        | BattleEvent::Died { .. }
                )
            });
            ((successes, through, dropped), need)
        };
        let falls = every_fall(&mut play);
        let total: f64 = falls.iter().map(|f| f.0).sum();
        assert!((total - 1.0).abs() < 1e-9, "{case}: {total}");
        let sum = |f: &dyn Fn(&(usize, i32, bool)) -> f64| -> f64 {
            falls.iter().map(|(p, o)| p * f(o)).sum()
        };
        for (s, shown) in preview.degrees.iter().enumerate() {
            let counted = sum(&|o| f64::from(u8::from(o.0 == s)));
            assert!(
                (counted - shown).abs() < 1e-9,
                "{case}: {s} successes counted {counted} vs preview {shown}"
            );
        }
        let harm = sum(&|o| f64::from(o.1));
        let drop = sum(&|o| f64::from(u8::from(o.2)));
        assert!(drop > 0.0, "{case}: the attack can drop Orm");
        assert_eq!(harm == 0.0, case == "injuring only", "{case}: {harm}");
        for (what, counted, shown) in [
            (
                "hit",
                1.0 - sum(&|o| f64::from(u8::from(o.0 == 0))),
                preview.hit,
            ),
            ("harm", harm, preview.harm()),
            ("drop", drop, preview.drop(2)),
        ] {
            assert!(
                (counted - shown).abs() < 1e-9,
                "{case}: {what} counted {counted} vs preview {shown}"
            );
        }
    }
}
