//! Spells (V11) in the exact odds: for a spell attack, a save spell with
//! and without a focus, a DC+ spell and a flat-DC area over two units, and
//! under die ranks (V11.9) a spell attack and a save spell,
//! every fall of the caster's and the targets' d20s and the damage dice,
//! resolved, gives each unit's chance to be taken hold of, its harm
//! through armor and its chance to drop, as `cast_odds` says.

use crate::common::catalog;
use crate::preview::{die_needed, every_fall};
use skirmish::battle::unit_named;
use skirmish::dice::Dice;
use skirmish::rules::command::ThrowTarget;
use skirmish::rules::reactions::policy::{ReactionPolicies, ReactionPolicy};
use skirmish::rules::variants::spells::cast::casting;
use skirmish::rules::variants::spells::odds::cast_odds;
use skirmish::rules::{BattleEvent, BattleEvents, Command, submit};
use skirmish::setup::headless_app_with;

/// A tower yard: Ila casts; Orm (2 HP, mail 1) and Kel (3 HP) stand side by
/// side; the spells are the level's own.
fn tower(staff: bool, ranks: bool) -> String {
    let rules = if ranks {
        "(spells: true, resolution: DieRanks)"
    } else {
        "(spells: true)"
    };
    let weapons = if staff {
        "weapons: [\"staff\"]"
    } else {
        "weapons: []"
    };
    format!(
        r#"Level(
        name: "tower",
        rules: {rules},
        map: ["........", "........", "........"],
        sides: [ (name: "A"), (name: "B") ],
        units: [
            (name: "Ila", side: "A", template: "mage", at: (1, 1), facing: E),
            (name: "Orm", side: "B", template: "guard", at: (5, 1), facing: W, stats: (hp: 2)),
            (name: "Kel", side: "B", template: "guard", at: (5, 2), facing: W, stats: (hp: 3, armor: None)),
        ],
        templates: [
            (name: "mage", wis: 3, hp: 10, mp: 20, {weapons},
             spells: ["bolt", "hex", "unmake", "quake"]),
            (name: "guard", con: 1, dex: 2, hp: 12, armor: "mail"),
        ],
        weapons: [ (name: "staff", damage: "1d6", damage_type: Bludgeoning, traits: [Focus]) ],
        armor: [ (name: "mail", dv: 1, ar: 1) ],
        spells: [
            (name: "bolt", kind: Projectile, level: 3, damage: Level, range: Increment(6)),
            (name: "hex", kind: Attack, save: Con, damage: Dice("1d4"), range: Increment(6)),
            (name: "unmake", kind: DeterminedPlus, save: Wis, level: 3, damage: Level,
             range: Increment(6), absolute: true),
            (name: "quake", kind: Determined, save: Dex, damage: Dice("1d4"), range: Increment(6),
             radius: 1),
        ],
    )"#
    )
}

#[test]
fn spell_odds_are_exact() {
    let unit = |n: &str| ThrowTarget::Unit(n.into());
    // (case, a staff, die ranks, the spell, where)
    let cases: [(&str, bool, bool, &str, ThrowTarget); 7] = [
        ("a spell attack", true, false, "bolt", unit("Orm")),
        (
            "a spell attack without a focus",
            false,
            false,
            "bolt",
            unit("Orm"),
        ),
        ("a save spell", true, false, "hex", unit("Orm")),
        ("a DC+ spell, absolute", true, false, "unmake", unit("Orm")),
        (
            "a flat DC over an area",
            true,
            false,
            "quake",
            ThrowTarget::Tile(skirmish::grid::Pos::new(5, 1)),
        ),
        // V11.9: PRE against DEF, and the targets' own dice.
        (
            "a spell attack under die ranks",
            true,
            true,
            "bolt",
            unit("Orm"),
        ),
        (
            "a save spell under die ranks, no focus",
            false,
            true,
            "hex",
            unit("Orm"),
        ),
    ];
    for (case, staff, ranks, spell, at) in cases {
        let text = tower(staff, ranks);
        let level = skirmish::load::parse_level(text.as_bytes(), "tower.ron", catalog())
            .unwrap_or_else(|p| panic!("{case}: {p}"));
        let order: Vec<String> = ["Ila", "Orm", "Kel"].map(String::from).to_vec();
        let start = |dice: &[(u32, u32)]| {
            let mut app = headless_app_with(&level, Dice::scripted(dice.to_vec()), Some(&order));
            app.world_mut()
                .insert_resource(ReactionPolicies(vec![ReactionPolicy::Never; 2]));
            app
        };
        let mut app = start(&[]);
        let world = app.world_mut();
        let ila = unit_named(world, "Ila").unwrap();
        let c = casting(world, ila, spell, None, &at).unwrap();
        let odds = cast_odds(world, &c);
        assert!(!odds.is_empty(), "{case}: someone is reached");
        let names: Vec<String> = odds
            .iter()
            .map(|o| skirmish::battle::name_of(world, o.unit))
            .collect();
        let command = Command::Cast {
            unit: "Ila".into(),
            spell: spell.into(),
            level: None,
            at: at.clone(),
        };
        // Each fall: for each unit reached, taken hold of, harm, dropped.
        let mut play = |dice: &[(u32, u32)]| {
            let mut app = start(dice);
            submit(app.world_mut(), command.clone()).unwrap();
            let world = app.world();
            let need = die_needed(world, case);
            let events = world.resource::<BattleEvents>().all();
            let id = |n: &str| {
                *world
                    .get::<skirmish::battle::UnitId>(unit_named(world, n).unwrap())
                    .unwrap()
            };
            let outcome: Vec<(bool, i32, bool)> = names
                .iter()
                .map(|n| {
                    let me = id(n);
                    let through = events
                        .iter()
                        .find_map(|e| match e {
                            BattleEvent::Damaged {
                                unit,
                                amount,
                                absorbed,
                                ..
                            } if *unit == me => Some(amount - absorbed),
                            _ => None,
                        })
                        .unwrap_or(0);
                    let held = events.iter().any(|e| match e {
                        BattleEvent::AttackRolled(a) => a.target == Some(me) && a.degrees > 0,
                        BattleEvent::Spell(skirmish::rules::events::SpellEvent::Saved {
                            unit,
                            saved,
                            ..
                        }) => *unit == me && !saved,
                        _ => false,
                    });
                    let dropped = events
                        .iter()
                        .any(|e| matches!(e, BattleEvent::FellDying { unit, .. } if *unit == me));
                    (held, through, dropped)
                })
                .collect();
            (outcome, need)
        };
        let falls = every_fall(&mut play);
        let total: f64 = falls.iter().map(|f| f.0).sum();
        assert!((total - 1.0).abs() < 1e-9, "{case}: {total}");
        for (i, o) in odds.iter().enumerate() {
            let sum = |f: &dyn Fn(&(bool, i32, bool)) -> f64| -> f64 {
                falls.iter().map(|(p, out)| p * f(&out[i])).sum()
            };
            let who = &names[i];
            for (what, counted, shown) in [
                (
                    "taken hold of",
                    sum(&|x| f64::from(u8::from(x.0))),
                    o.affects,
                ),
                ("harm", sum(&|x| f64::from(x.1)), o.harm()),
                ("drop", sum(&|x| f64::from(u8::from(x.2))), o.drop()),
            ] {
                assert!(
                    (counted - shown).abs() < 1e-9,
                    "{case}, {who}: {what} counted {counted} vs odds {shown}"
                );
            }
        }
        assert!(
            odds.iter().any(|o| o.drop() > 0.0),
            "{case}: the cast can drop someone"
        );
    }
}

/// The window's spell bar (V11, #26), without a renderer: `Shift+1` arms
/// the caster's first spell, `]` raises its level as far as the spell and
/// the MP allow, the hover tells the cast's MP and each unit's odds as the
/// rules give them, and a click on the enemy casts it (one Cast, no
/// attack), spending its MP; `Esc` puts an armed spell down.
#[test]
fn the_spell_bar_arms_upcasts_and_casts_on_a_click() {
    use crate::view::{app_with, last_command, press};
    use bevy::prelude::{ButtonInput, KeyCode, MouseButton};
    use skirmish::grid::Pos;
    use skirmish::view::spell_bar::ArmedSpell;
    let text = r#"Level(
        name: "Input",
        rules: (spells: true),
        map: ["........", "........", "........"],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "mage", at: (1, 1), facing: E),
            (name: "Orc", side: "Orcs", template: "raider", at: (4, 1), facing: W),
        ],
        templates: [
            (name: "mage", wis: 3, hp: 10, mp: 5, spells: ["shockwave"], weapons: ["staff"]),
        ],
    )"#;
    let mut app = app_with(text, Dice::seeded(2));
    let armed = |app: &bevy::prelude::App| app.world().resource::<ArmedSpell>().0.clone();
    let shifted = |app: &mut bevy::prelude::App, key: KeyCode| {
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(KeyCode::ShiftLeft);
        press(app, Pos::new(4, 1), None, Some(key));
    };
    shifted(&mut app, KeyCode::Digit1);
    assert_eq!(armed(&app), Some(("shockwave".into(), 1)));
    // Up to level 3 (3 MP of 5): the spell's upcast, no further.
    for level in [2, 3, 3] {
        press(&mut app, Pos::new(4, 1), None, Some(KeyCode::BracketRight));
        assert_eq!(armed(&app), Some(("shockwave".into(), level)));
    }
    press(&mut app, Pos::new(4, 1), None, None);
    let lines = app
        .world()
        .resource::<skirmish::view::preview::Hover>()
        .lines
        .clone();
    assert!(
        lines[0].starts_with("Cast shockwave at level 3 on Orc: 1 AP, 3 MP of 5"),
        "{lines:?}"
    );
    let world = app.world_mut();
    let hero = unit_named(world, "Hero").unwrap();
    let at = ThrowTarget::Unit("Orc".into());
    let c = casting(world, hero, "shockwave", Some(3), &at).unwrap();
    let o = &cast_odds(world, &c)[0];
    let told = format!("fails its save {:.0}%", o.affects * 100.0);
    assert!(lines.iter().any(|l| l.contains(&told)), "{told}: {lines:?}");
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    assert_eq!(
        last_command(&app),
        Some(Command::Cast {
            unit: "Hero".into(),
            spell: "shockwave".into(),
            level: Some(3),
            at: ThrowTarget::Unit("Orc".into()),
        })
    );
    let history = app.world().resource::<skirmish::rules::History>().0.len();
    assert_eq!(history, 1, "the click cast, and attacked nothing");
    assert_eq!(armed(&app), None, "cast, the spell is put down");
    let mp = app.world().get::<skirmish::battle::Mp>(hero).unwrap().0;
    assert_eq!(mp, 2);
    shifted(&mut app, KeyCode::Digit1);
    assert_eq!(armed(&app), Some(("shockwave".into(), 1)));
    press(&mut app, Pos::new(4, 1), None, Some(KeyCode::Escape));
    assert_eq!(armed(&app), None);
}

/// A save keeps what spells hold (V11.5, V11.6, V11.4): taken in the tour's
/// spells battle with the flame field laid and Ila holding it, the loaded
/// battle has the field, the concentration and the MP, and the rest of
/// the battle (Vek walking through the field, a bolt) goes on exactly as
/// in the unsaved one.
#[test]
fn a_save_keeps_the_fields_and_the_concentration() {
    use skirmish::save::{SaveGame, to_ron};
    let path = crate::common::root().join("levels/demo/24_spells.ron");
    let (scenario, level) = skirmish::scenario::load_file(&path).unwrap();
    let mut app = headless_app_with(
        &level,
        Dice::scripted(scenario.dice.clone()),
        scenario.initiative.as_deref(),
    );
    let _ = scenario.rig(app.world_mut());
    let (before, after) = scenario.commands.split_at(14);
    for c in before {
        submit(app.world_mut(), c.clone()).unwrap();
    }
    let text = to_ron(&SaveGame::capture(app.world_mut())).unwrap();
    assert!(
        text.contains("fields:") && text.contains("concentrating: Some(\"flame field\")"),
        "the save holds the field and its concentration"
    );
    let save: SaveGame = ron::from_str(&text).expect("a save file reads back");
    let mut loaded = save.restore(catalog()).expect("the save loads");
    let _ = scenario.rig(loaded.world_mut());
    assert_eq!(
        SaveGame::capture(loaded.world_mut()),
        SaveGame::capture(app.world_mut())
    );
    for c in after {
        submit(app.world_mut(), c.clone()).unwrap();
        submit(loaded.world_mut(), c.clone()).expect("the loaded battle accepts it");
    }
    let log = |app: &bevy::prelude::App| skirmish::rules::CombatLog::of(app.world()).text();
    assert!(log(&loaded).contains("Vek enters the flame field at (8, 2) (V11.6)"));
    assert_eq!(log(&loaded), log(&app));
}
