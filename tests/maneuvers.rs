//! V7 maneuvers beyond the scenarios: the odds shown are the odds rolled
//! (every fall of the dice counted against the exact preview).

use crate::common::catalog;
use crate::preview::{die_needed, duel_text, every_fall};
use skirmish::battle::{Exposed, unit_named};
use skirmish::dice::Dice;
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::command::{Hold, ManeuverKind};
use skirmish::rules::variants::maneuvers::check_maneuver;
use skirmish::rules::{BattleEvent, BattleEvents, Command, submit};
use skirmish::setup::headless_app_with;

/// What one maneuver did, read from the events.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Outcome {
    success: bool,
    held: bool,
    fumbled: bool,
}

fn outcome(events: &[BattleEvent]) -> Outcome {
    let mut o = Outcome::default();
    for e in events {
        match e {
            BattleEvent::KnockedDown { .. } | BattleEvent::Disarmed { .. } => o.success = true,
            BattleEvent::Shoved { from, to, .. } => o.success |= from != to,
            BattleEvent::Grappled { hold, .. } => {
                o.success = true;
                o.held = *hold == Hold::Held;
            }
            BattleEvent::WeaponDropped { .. } => o.fumbled = true,
            _ => {}
        }
    }
    o
}

/// For a trip (unexposed target: +1 disadvantage, a Small tripper: −1 on
/// the roll), a shove, a disarm, and a grapple the target dodges (V2):
/// every fall of the d20s and the answer's d12 gives the preview's chance
/// of success, of a hold (2+ degrees), and of a fumble.
#[test]
fn maneuver_previews_are_exact() {
    let src = duel_text();
    let base = src
        .replace("name: \"Duel\",", "name: \"Duel\", rules: (maneuvers: true),")
        // Orm beside Ila, facing her; reactions never provoked: both skilled.
        .replace("template: \"guard\", at: (6, 2), facing: W)", "template: \"guard\", at: (3, 3), facing: N)")
        .replace(
            "(name: \"fighter\", mb: 2, str: 2, hp: 12, stamina: 2,",
            "(name: \"fighter\", size: Small, mb: 2, str: 2, hp: 12, skills: { Athletics: 1, Acrobatics: 1 },",
        );
    // An unarmed shove or grapple of a target holding a blade provokes it
    // first (V7.2): these targets hold none, so the roll is all there is.
    let unarmed = |s: String| {
        s.replace(
            "dex: 1, hp: 10, weapons: [\"sword\"],",
            "dex: 2, wis: 1, hp: 10, weapons: [],",
        )
    };
    let active = |s: String| {
        s.replace(
            "rules: (maneuvers: true)",
            "rules: (maneuvers: true, defence: Active)",
        )
    };
    let medium = |s: String| s.replace("size: Small, ", "");
    // (case, kind, level, Orm opened: exposed, one d20 (V7.3))
    let cases = [
        ("trip", ManeuverKind::Trip, base.clone(), false),
        (
            "shove",
            ManeuverKind::Shove,
            unarmed(medium(base.clone())),
            false,
        ),
        ("disarm", ManeuverKind::Disarm, base.clone(), false),
        (
            "grapple against a dodge (V2)",
            ManeuverKind::Grapple,
            unarmed(medium(active(base.clone()))),
            true,
        ),
    ];
    let order: Vec<String> = ["Ila", "Brakka", "Orm", "Cole"].map(String::from).to_vec();
    for (case, kind, text, opened) in cases {
        let level = skirmish::load::parse_level(text.as_bytes(), "duel.ron", catalog()).unwrap();
        // Everyone has had a turn (R2.3: nobody is off-guard), then Ila's.
        let start = |dice: &[(u32, u32)]| {
            let mut app = headless_app_with(&level, Dice::scripted(dice.to_vec()), Some(&order));
            for _ in 0..4 {
                submit(app.world_mut(), Command::EndTurn).unwrap();
            }
            if opened {
                let orm = unit_named(app.world(), "Orm").unwrap();
                app.world_mut().entity_mut(orm).insert(Exposed);
            }
            app
        };
        let mut app = start(&[]);
        let world = app.world_mut();
        let (a, t) = (
            unit_named(world, "Ila").unwrap(),
            unit_named(world, "Orm").unwrap(),
        );
        let draft = check_maneuver(world, a, t, kind, None, None).unwrap();
        let preview = preview_attack(world, draft).unwrap();
        assert_eq!(
            preview.advantage < 0,
            !opened,
            "{case}: exposed or not (V7.3)"
        );
        let command = Command::Maneuver {
            unit: "Ila".into(),
            target: "Orm".into(),
            kind,
            to: None,
            fling: None,
        };
        let mut play = |dice: &[(u32, u32)]| {
            let mut app = start(dice);
            submit(app.world_mut(), command.clone()).unwrap();
            let world = app.world();
            let need = die_needed(world, case);
            (outcome(world.resource::<BattleEvents>().all()), need)
        };
        let falls = every_fall(&mut play);
        let sum = |f: &dyn Fn(&Outcome) -> bool| -> f64 {
            falls.iter().filter(|(_, o)| f(o)).map(|(p, _)| p).sum()
        };
        let landed = preview.landed_degrees();
        let held: f64 = landed.iter().skip(2).sum();
        for (what, counted, shown) in [
            ("success", sum(&|o| o.success), preview.hit),
            ("fumble", sum(&|o| o.fumbled), preview.fumble),
        ] {
            assert!(
                (counted - shown).abs() < 1e-9,
                "{case}: {what} counted {counted} vs preview {shown}"
            );
        }
        assert!(
            preview.hit > 0.05 && preview.hit < 0.95,
            "{case}: {}",
            preview.hit
        );
        if kind == ManeuverKind::Grapple {
            let counted = sum(&|o| o.held);
            assert!(
                (counted - held).abs() < 1e-9,
                "{case}: held {counted} vs {held}"
            );
            assert!(preview.avoided > 0.0, "{case}: the dodge can stop it");
        }
        assert_eq!(preview.expected_damage, 0.0, "{case}: no damage (V7.1)");
    }
}

/// The window (headless): the Trip button aims a trip and hovering the
/// enemy shows the rules' own odds of it (success, not a hit, citing
/// V7.4); a click sends the Maneuver. Y over the enemy grapples it at
/// once, as every action key does; Shift-Y is the grip's own key, not the
/// grapple's.
#[test]
fn the_trip_button_aims_with_its_odds_and_y_grapples() {
    use crate::view::{app_with, last_command, press};
    use bevy::prelude::{KeyCode, MouseButton};
    use skirmish::grid::Pos;
    use skirmish::view::controls::{Action, Clicked};
    use skirmish::view::preview::Hover;
    let text = r#"Level(
        name: "Grips",
        rules: (maneuvers: true),
        map: ["........", "........", "........"],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "wrestler", at: (4, 1), facing: E),
            (name: "Orc", side: "Orcs", template: "archer", at: (5, 1), facing: W),
        ],
    )"#;
    // The trip: d20 20 (natural 20); the grapple: d20 19.
    let mut app = app_with(text, Dice::scripted([(20, 20), (20, 19)]));
    let orc_at = Pos::new(5, 1);
    app.world_mut().resource_mut::<Clicked>().0 = Some(Action::Trip);
    press(&mut app, orc_at, None, None);
    press(&mut app, orc_at, None, None);
    let odds = app
        .world()
        .resource::<Hover>()
        .attack
        .clone()
        .expect("J aims a trip: hovering the Orc shows its odds");
    assert_eq!(odds.maneuver, Some(ManeuverKind::Trip));
    assert!(
        odds.headline().contains("% to succeed, no damage (V7.4)"),
        "{}",
        odds.headline()
    );
    let world = app.world_mut();
    let (hero, orc) = (
        unit_named(world, "Hero").unwrap(),
        unit_named(world, "Orc").unwrap(),
    );
    let p = skirmish::rules::variants::maneuvers::preview_maneuver(
        world,
        hero,
        orc,
        ManeuverKind::Trip,
    )
    .unwrap();
    assert!(
        (odds.hit() - p.hit).abs() < 1e-12,
        "{} vs {}",
        odds.hit(),
        p.hit
    );
    press(&mut app, orc_at, Some(MouseButton::Left), None);
    assert_eq!(
        last_command(&app),
        Some(Command::Maneuver {
            unit: "Hero".into(),
            target: "Orc".into(),
            kind: ManeuverKind::Trip,
            to: None,
            fling: None,
        })
    );
    press(&mut app, orc_at, None, Some(KeyCode::KeyY));
    assert!(matches!(
        last_command(&app),
        Some(Command::Maneuver {
            kind: ManeuverKind::Grapple,
            ..
        })
    ));
    let orc = unit_named(app.world(), "Orc").unwrap();
    let hero = unit_named(app.world(), "Hero").unwrap();
    assert_ne!(
        skirmish::rules::variants::maneuvers::hold_on(app.world(), orc, hero),
        Hold::Free
    );
    // Shift-Y is Sustain's key, Y the grapple's.
    let keys = |shift: bool| {
        let mut k = bevy::prelude::ButtonInput::<KeyCode>::default();
        if shift {
            k.press(KeyCode::ShiftLeft);
        }
        k.press(KeyCode::KeyY);
        k
    };
    assert!(Action::Sustain.pressed(&keys(true)) && !Action::Grapple.pressed(&keys(true)));
    assert!(Action::Grapple.pressed(&keys(false)) && !Action::Sustain.pressed(&keys(false)));
    // Shift-C is the charge-shove, C alone still the charge.
    let c = |shift: bool| {
        let mut k = bevy::prelude::ButtonInput::<KeyCode>::default();
        if shift {
            k.press(KeyCode::ShiftRight);
        }
        k.press(KeyCode::KeyC);
        k
    };
    assert!(Action::ChargeShove.pressed(&c(true)) && Action::Charge.pressed(&c(false)));
    assert!(!Action::Charge.pressed(&c(true)));
}
