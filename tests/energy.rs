//! Energy (V5) in the exact preview: a shot against the Miss Chance, its
//! evasion an exploding d4 (V5.10), and a kept 20 that passes armor
//! (V5.10, V5.11). Every fall of the d20s, the evasion chain (followed to
//! [`DEPTH`] explosions: what lies beyond is bounded, not counted), any
//! parry and the damage dice, resolved, gives the preview's chance of each
//! number of degrees, the harm through armor and the drop.

use crate::common::catalog;
use crate::preview::{die_needed, duel_text};
use skirmish::battle::unit_named;
use skirmish::dice::Dice;
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::attacks::resolution::draft_for;
use skirmish::rules::reactions::policy::{ReactionPolicies, ReactionPolicy};
use skirmish::rules::{BattleEvent, BattleEvents, Command, submit};
use skirmish::setup::headless_app_with;

/// Explosions of the evasion d4 the enumeration follows: past them, the
/// chance of the rest (4⁻⁸ for a plain d4) bounds the difference.
const DEPTH: usize = 8;

/// Every way the dice can fall (as `preview::every_fall`), but a chain of
/// evasion d4s is cut after [`DEPTH`] explosions: returns the falls and the
/// chance of the cut branches.
fn every_fall_to_depth<T>(
    play: &mut impl FnMut(&[(u32, u32)]) -> (T, Option<u32>),
) -> (Vec<(f64, T)>, f64) {
    fn walk<T>(
        prefix: &mut Vec<(u32, u32)>,
        p: f64,
        play: &mut impl FnMut(&[(u32, u32)]) -> (T, Option<u32>),
        out: &mut (Vec<(f64, T)>, f64),
    ) {
        let exploded = prefix.iter().filter(|d| **d == (4, 4)).count();
        match play(prefix) {
            (outcome, None) => out.0.push((p, outcome)),
            (_, Some(4)) if exploded >= DEPTH => out.1 += p,
            (_, Some(sides)) => {
                for face in 1..=sides {
                    prefix.push((sides, face));
                    walk(prefix, p / f64::from(sides), play, out);
                    prefix.pop();
                }
            }
        }
    }
    let mut out = (vec![], 0.0);
    walk(&mut vec![], 1.0, play, &mut out);
    out
}

/// The duel under Energy: Orm a guard of 3 HP and 4 AR whose mail hinders
/// his evasion (penalty 1), bows and swords of 1d2 so the damage dice stay
/// few.
fn energy_duel() -> String {
    duel_text()
        .replace(
            "name: \"Duel\",",
            "name: \"Duel\", rules: (actions: Energy),",
        )
        .replace(
            "template: \"guard\", at: (6, 2), facing: W)",
            "template: \"guard\", at: (6, 2), facing: W, stats: (hp: 3))",
        )
        .replace(
            "(name: \"mail\", dv: 1, ar: 3)",
            "(name: \"mail\", dv: 1, ar: 3, penalty: 1)",
        )
        .replace(
            "damage: \"1d6\", damage_type: Piercing, range",
            "damage: \"1d2\", damage_type: Piercing, range",
        )
        .replace(
            "(name: \"sword\", damage: \"1d8\"",
            "(name: \"sword\", damage: \"1d2\"",
        )
}

#[test]
fn energy_odds_are_exact() {
    type Edit = fn(String) -> String;
    // Ila shoots from (2, 2), Brakka on the line (soft cover).
    let bowman: Edit = |s| {
        s.replace(
            "template: \"fighter\", at: (2, 2)",
            "template: \"bowman\", at: (2, 2)",
        )
    };
    // Orm faces away: the evasion at disadvantage, no shield.
    let rear: Edit = |s| {
        s.replace(
            "template: \"fighter\", at: (2, 2)",
            "template: \"bowman\", at: (2, 2)",
        )
        .replace("at: (6, 2), facing: W", "at: (6, 2), facing: E")
    };
    let sword: Edit = |s| {
        s.replace(
            "template: \"fighter\", at: (2, 2)",
            "template: \"fighter\", at: (5, 2)",
        )
    };
    // (case, level, everyone has had a turn, Orm defends on his)
    let cases: [(&str, Edit, bool, bool); 5] = [
        ("a shot at a guard facing it", bowman, true, false),
        ("a shot at the defending", bowman, true, true),
        ("a shot at his back", rear, true, false),
        ("a shot at the off-guard", bowman, false, false),
        ("a sword's kept 20 past his armor", sword, true, false),
    ];
    for (case, edit, turns, defends) in cases {
        let text = edit(energy_duel());
        let level = skirmish::load::parse_level(text.as_bytes(), "duel.ron", catalog()).unwrap();
        let order: Vec<String> = ["Ila", "Brakka", "Orm", "Cole"].map(String::from).to_vec();
        let start = |dice: &[(u32, u32)]| {
            let mut app = headless_app_with(&level, Dice::scripted(dice.to_vec()), Some(&order));
            // No parry (R8.6) nor reactive blow: the odds of the attack alone.
            app.world_mut()
                .insert_resource(ReactionPolicies(vec![ReactionPolicy::Never; 2]));
            if turns {
                let world = app.world_mut();
                for unit in ["Ila", "Brakka", "Orm", "Cole"] {
                    if unit == "Orm" && defends {
                        submit(world, Command::Defend { unit: "Orm".into() }).unwrap();
                    }
                    submit(world, Command::EndTurn).unwrap();
                }
            }
            app
        };
        let mut app = start(&[]);
        let world = app.world_mut();
        let (a, t) = (
            unit_named(world, "Ila").unwrap(),
            unit_named(world, "Orm").unwrap(),
        );
        let preview = preview_attack(world, draft_for(world, a, t, None).unwrap()).unwrap();
        let shot = case.starts_with("a shot");
        assert_eq!(preview.miss_chance.is_some(), shot, "{case}");
        if let Some(mc) = &preview.miss_chance {
            let evades = mc.evasion.as_ref();
            assert_eq!(evades.is_some(), turns, "{case}: evasion");
            assert_eq!(mc.target_wins_ties, defends, "{case}: ties");
            if let Some(e) = evades {
                let rear = case.ends_with("back");
                assert_eq!(e.die.advantage, -i32::from(rear), "{case}");
                assert_eq!(
                    e.terms.iter().any(|t| t.source == "shield"),
                    !rear,
                    "{case}"
                );
            }
            assert!(mc.terms.iter().any(|t| t.source == "soft cover"), "{case}");
        }
        let mut play = |dice: &[(u32, u32)]| {
            let mut app = start(dice);
            submit(
                app.world_mut(),
                Command::Attack {
                    unit: "Ila".into(),
                    target: "Orm".into(),
                    weapon: None,
                    power: 0,
                    lunge: false,
                    part: None,
                },
            )
            .unwrap();
            let world = app.world();
            let need = die_needed(world, case);
            let events = world.resource::<BattleEvents>().all();
            let degrees = events
                .iter()
                .rev()
                .find_map(|e| match e {
                    BattleEvent::AttackRolled(a) => Some(a.degrees as usize),
                    _ => None,
                })
                .unwrap_or(0);
            let through = events
                .iter()
                .find_map(|e| match e {
                    BattleEvent::Damaged {
                        amount, absorbed, ..
                    } => Some(amount - absorbed),
                    _ => None,
                })
                .unwrap_or(0);
            let dropped = events
                .iter()
                .any(|e| matches!(e, BattleEvent::FellDying { .. }));
            ((degrees, through, dropped), need)
        };
        let (falls, cut) = every_fall_to_depth(&mut play);
        let total: f64 = falls.iter().map(|f| f.0).sum();
        assert!((total + cut - 1.0).abs() < 1e-9, "{case}: {total} + {cut}");
        // What the cut branches could hold bounds each difference.
        assert!(
            cut < 1e-4,
            "{case}: the chains past {DEPTH} explosions: {cut}"
        );
        let near =
            |counted: f64, shown: f64, scale: f64| (counted - shown).abs() <= cut * scale + 1e-9;
        let sum = |f: &dyn Fn(&(usize, i32, bool)) -> f64| -> f64 {
            falls.iter().map(|(p, o)| p * f(o)).sum()
        };
        let landed = preview.landed_degrees();
        for (d, shown) in landed.iter().enumerate() {
            let counted = sum(&|o| f64::from(u8::from(o.0 == d)));
            assert!(
                near(counted, *shown, 1.0),
                "{case}: {d} degrees counted {counted} vs preview {shown}"
            );
        }
        let harm = sum(&|o| f64::from(o.1));
        let drop = sum(&|o| f64::from(u8::from(o.2)));
        assert!(drop > 0.0, "{case}: the attack can drop Orm");
        for (what, counted, shown, scale) in [
            (
                "hit",
                1.0 - sum(&|o| f64::from(u8::from(o.0 == 0))),
                preview.hit,
                1.0,
            ),
            ("harm", harm, preview.harm(), 12.0),
            ("drop", drop, preview.drop(3), 1.0),
        ] {
            assert!(
                near(counted, shown, scale),
                "{case}: {what} counted {counted} vs preview {shown}"
            );
        }
    }
}

/// The window under Energy (V5.7): a click on the enemy beside Hero strikes
/// (3 Energy); a click on a free tile beside him then makes an Agile Move,
/// 1 Agility and no Energy, where a Move would have cost Energy; the unit
/// panel and the hover tell the budgets.
#[test]
fn after_a_blow_a_click_beside_the_unit_makes_an_agile_move() {
    use crate::view::{app_with, last_command, press};
    use bevy::prelude::MouseButton;
    use skirmish::grid::Pos;
    let text = r#"Level(
        name: "Input",
        rules: (actions: Energy),
        map: ["........", "........", "........"],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "skirmisher", at: (1, 1), facing: E),
            (name: "Orc", side: "Orcs", template: "raider", at: (2, 1), facing: W),
        ],
    )"#;
    // Hero's javelin misses: d20 [5] +4 against DV 12.
    let mut app = app_with(text, Dice::scripted(vec![(20, 5)]));
    let hero = unit_named(app.world(), "Hero").unwrap();
    let energy = |app: &bevy::prelude::App| {
        app.world()
            .get::<skirmish::battle::ActionPoints>(hero)
            .unwrap()
            .ap
    };
    press(&mut app, Pos::new(2, 1), Some(MouseButton::Left), None);
    assert!(
        matches!(last_command(&app), Some(Command::Attack { .. })),
        "{:?}",
        last_command(&app)
    );
    assert_eq!(energy(&app), 2, "a blow costs 3 Energy of 5 (V5.5)");
    let panel = skirmish::view::unit_panel::energy_text(app.world(), hero).unwrap();
    assert!(
        panel.contains("Energy 2 of 5") && panel.contains("3 Agile Moves open"),
        "{panel}"
    );
    press(&mut app, Pos::new(0, 2), Some(MouseButton::Left), None);
    assert_eq!(
        last_command(&app),
        Some(Command::AgileMove {
            unit: "Hero".into(),
            to: Pos::new(0, 2),
        })
    );
    assert_eq!(energy(&app), 2, "an Agile Move spends no Energy");
    let budget = *app.world().get::<skirmish::battle::Budget>(hero).unwrap();
    assert_eq!(
        (budget.agility, budget.agile),
        (2, 2),
        "1 Agility, one move fewer open"
    );
}

/// A save keeps Energy's budgets, where each turn began and the conditions
/// (V5): the loaded battle, mid-round, goes on exactly as the unsaved one.
#[test]
fn a_save_keeps_the_rounds_energy() {
    use crate::determinism::play_random;
    use skirmish::save::{SaveGame, to_ron};
    for (seed, commands) in [(3, 25), (8, 60)] {
        let mut app = skirmish::setup::headless_app(&crate::common::level("second_wind.ron"), seed);
        play_random(app.world_mut(), commands, seed);
        let text = to_ron(&SaveGame::capture(app.world_mut())).unwrap();
        assert!(text.contains("energy:"), "the save holds Energy's budgets");
        let save: SaveGame = ron::from_str(&text).expect("a save file reads back");
        let mut loaded = save.restore(catalog()).expect("the save loads");
        assert_eq!(
            SaveGame::capture(loaded.world_mut()),
            SaveGame::capture(app.world_mut())
        );
        for c in play_random(app.world_mut(), 120, seed + 1) {
            submit(loaded.world_mut(), c).expect("the loaded battle accepts the same commands");
        }
        assert_eq!(
            skirmish::rules::CombatLog::of(loaded.world()).text(),
            skirmish::rules::CombatLog::of(app.world()).text()
        );
    }
}
