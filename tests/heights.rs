//! Heights, jumps and falls (V9): the previews are exact, the d20's faces
//! counted against the rules' own resolution.

use crate::common::{catalog, root};
use skirmish::battle::unit_named;
use skirmish::dice::Dice;
use skirmish::load::load_level_file;
use skirmish::rules::{BattleEvent, BattleEvents, Command, submit};
use skirmish::setup::headless_app_with;

/// The jump's odds (V9.3) are exact: for each face of the d20 the
/// resolution's ending, counted, gives the odds shown — over a chasm (a
/// failure plunges), up a 2 m ledge (a failure stays) and over level ground
/// (a failure comes down short).
#[test]
fn jump_odds_are_exact() {
    use skirmish::rules::events::JumpOutcome;
    use skirmish::rules::variants::jumping::jump_odds;
    let level = load_level_file(&root().join("tests/levels/cliffs.ron"), catalog()).unwrap();
    let initiative = vec!["Kay".to_string(), "Orm".to_string()];
    let cases: [(Option<(i32, i32)>, (i32, i32), JumpOutcome); 3] = [
        (None, (7, 1), JumpOutcome::Plunged),
        (Some((2, 3)), (3, 3), JumpOutcome::Stayed),
        (Some((1, 4)), (5, 4), JumpOutcome::Short),
    ];
    for (start, to, fails_as) in cases {
        let to = skirmish::grid::Pos::new(to.0, to.1);
        let setup: Vec<Command> = start
            .map(|(x, y)| Command::Move {
                unit: "Kay".into(),
                to: skirmish::grid::Pos::new(x, y),
                path: None,
                sprint: false,
            })
            .into_iter()
            .collect();
        let play = |d20: Option<u32>| {
            let mut dice: Vec<(u32, u32)> = d20.map(|d| (20, d)).into_iter().collect();
            // A fall's check and d4s, when there is one.
            dice.extend([(20, 10), (4, 1), (4, 1), (4, 1)]);
            let mut app = headless_app_with(&level, Dice::scripted(dice), Some(&initiative));
            for c in &setup {
                submit(app.world_mut(), c.clone()).unwrap();
            }
            app
        };
        let mut app = play(None);
        let world = app.world_mut();
        let kay = unit_named(world, "Kay").unwrap();
        let odds = jump_odds(world, kay, to).unwrap();
        assert_eq!(odds.failed_as, fails_as);
        let total = odds.landed + odds.off_balance + odds.failed;
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let mut counted = [0u32; 3];
        for face in 1..=20 {
            let mut app = play(Some(face));
            let jump = Command::Jump {
                unit: "Kay".into(),
                to,
            };
            submit(app.world_mut(), jump).unwrap();
            let ending = app
                .world()
                .resource::<BattleEvents>()
                .all()
                .iter()
                .find_map(|e| match e {
                    BattleEvent::Jumped(j) => Some((j.outcome, j.to)),
                    _ => None,
                })
                .expect("the jump was rolled");
            match ending.0 {
                JumpOutcome::Landed => counted[0] += 1,
                JumpOutcome::OffBalance => counted[1] += 1,
                other => {
                    assert_eq!((other, ending.1), (odds.failed_as, odds.failed_at));
                    counted[2] += 1;
                }
            }
        }
        let shown = [odds.landed, odds.off_balance, odds.failed];
        for (c, p) in counted.iter().zip(shown) {
            assert!(
                (*c as f64 / 20.0 - p).abs() < 1e-12,
                "to {to}: counted {counted:?}, shown {shown:?}"
            );
        }
        // Each case meets more than one ending: the test can tell them.
        assert!(
            counted.iter().filter(|c| **c > 0).count() >= 2,
            "{counted:?}"
        );
    }
}

/// A jump down a 3 m ledge lands on a fall (V9.3, V9.4): the preview's
/// fall check chance is the share of the d20's faces whose fall event
/// succeeds, and a success saves what the preview says.
#[test]
fn fall_odds_are_exact() {
    use skirmish::rules::variants::jumping::jump_odds;
    let level = load_level_file(&root().join("tests/levels/ledge.ron"), catalog()).unwrap();
    let initiative = vec!["Kay".to_string(), "Orm".to_string()];
    let to = skirmish::grid::Pos::new(2, 1);
    let play = |face: u32| {
        // The jump lands (d20 20); then the fall check, then the d4s.
        let dice = vec![(20, 20), (20, face), (4, 1), (4, 1), (4, 1)];
        let mut app = headless_app_with(&level, Dice::scripted(dice), Some(&initiative));
        let jump = Command::Jump {
            unit: "Kay".into(),
            to,
        };
        submit(app.world_mut(), jump).unwrap();
        app
    };
    let mut app = headless_app_with(&level, Dice::scripted(vec![]), Some(&initiative));
    let world = app.world_mut();
    let kay = unit_named(world, "Kay").unwrap();
    let odds = jump_odds(world, kay, to).unwrap();
    let fall = odds.landing_fall.expect("3 m down is a fall");
    assert_eq!((fall.metres, fall.chasm), (3, false));
    assert!(odds.failing_fall.is_none(), "a short jump does not plunge");
    let mut saved = 0;
    for face in 1..=20 {
        let app = play(face);
        let fell = app
            .world()
            .resource::<BattleEvents>()
            .all()
            .iter()
            .find_map(|e| match e {
                BattleEvent::Fell(f) => Some(f.clone()),
                _ => None,
            })
            .expect("the landing is a fall");
        let check = fell.check.expect("a fall off a ledge is checked");
        assert_eq!(check.dc, fall.dc);
        if check.success() {
            saved += 1;
            assert_eq!(fell.dice.len() as i32, fall.metres - fall.saved);
        } else {
            assert_eq!(fell.dice.len() as i32, fall.metres);
        }
    }
    assert!(
        (saved as f64 / 20.0 - fall.check).abs() < 1e-12,
        "{saved}/20 vs {}",
        fall.check
    );
    assert!(
        saved > 0 && saved < 20,
        "the case meets both endings: {saved}"
    );
}

/// The path preview names exactly the steps the rules charge as climbs
/// (V9.1): up the ramp of `heights.ron`, each 1 m rise named, and the
/// Move's cost is one per step plus one per climb — down the far side of
/// the crest costs nothing more.
#[test]
fn the_path_preview_names_the_climbs_the_rules_charge() {
    use skirmish::grid::Pos;
    use skirmish::rules::motion::movement::plan_move;
    use skirmish::rules::motion::paths::climbs_along;
    let level = load_level_file(&root().join("tests/levels/heights.ron"), catalog()).unwrap();
    let mut app = headless_app_with(&level, Dice::scripted(vec![]), None);
    let world = app.world_mut();
    let cole = unit_named(world, "Cole").unwrap();
    let path: Vec<Pos> = [(2, 5), (3, 5), (4, 5), (5, 5)]
        .map(|(x, y)| Pos::new(x, y))
        .to_vec();
    let climbs = climbs_along(&level.map, Pos::new(1, 5), 1, &path);
    assert_eq!(climbs, vec![Pos::new(2, 5), Pos::new(4, 5)]);
    let (planned, cost) = plan_move(world, cole, Pos::new(5, 5), Some(&path), false).unwrap();
    assert_eq!(planned, path);
    assert_eq!(cost as usize, path.len() + climbs.len());
    // Flat ground: nothing named, nothing charged.
    let flat: Vec<Pos> = [(1, 4), (1, 3)].map(|(x, y)| Pos::new(x, y)).to_vec();
    assert!(climbs_along(&level.map, Pos::new(1, 5), 1, &flat).is_empty());
    let (_, cost) = plan_move(world, cole, Pos::new(1, 3), Some(&flat), false).unwrap();
    assert_eq!(cost, 2);
}
