//! The window's input, headless: synthetic pointer and keyboard input on an
//! app without a renderer gives the expected commands (select by turn,
//! move, attack, throw at a target, end turn, answer a reaction).

use crate::common::catalog;
use bevy::prelude::*;
use skirmish::ai::{Players, Profiles};
use skirmish::battle::GridPos;
use skirmish::battle::unit_named;
use skirmish::dice::Dice;
use skirmish::format::Guard;
use skirmish::grid::Pos;
use skirmish::load::parse_level;
use skirmish::rules::pipeline::History;
use skirmish::rules::{Command, TurnState};
use skirmish::setup::headless_app_with;
use skirmish::view::controls::CursorTile;
use skirmish::view::input::input_plugin;

/// A corridor: the skirmisher Hero (played by a human) and the raider Orc
/// (the AI), three tiles apart.
pub(crate) fn app() -> App {
    let text = r#"Level(
        name: "Input",
        map: ["........", "........", "........"],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "skirmisher", at: (1, 1), facing: E),
            (name: "Orc", side: "Orcs", template: "raider", at: (5, 1), facing: W),
        ],
    )"#;
    app_with(text, Dice::seeded(4))
}

/// The level `text` played by its sides' controls, Hero first, with
/// `dice`, and the window's input on an app without a renderer.
pub(crate) fn app_with(text: &str, dice: Dice) -> App {
    let level = parse_level(text.as_bytes(), "input.ron", catalog()).unwrap();
    let order = ["Hero", "Orc"].map(String::from);
    let mut app = headless_app_with(&level, dice, Some(&order));
    app.init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>();
    input_plugin(&mut app);
    Players::for_level(&level, &Profiles::shipped()).install(app.world_mut());
    app
}

/// Points at `tile`, presses `button` or `key` for one frame.
pub(crate) fn press(app: &mut App, tile: Pos, mouse: Option<MouseButton>, key: Option<KeyCode>) {
    app.world_mut().resource_mut::<CursorTile>().0 = Some(tile);
    if let Some(b) = mouse {
        app.world_mut()
            .resource_mut::<ButtonInput<MouseButton>>()
            .press(b);
    }
    if let Some(k) = key {
        app.world_mut()
            .resource_mut::<ButtonInput<KeyCode>>()
            .press(k);
    }
    frame(app);
}

/// One frame with what is pressed, then every button let go.
fn frame(app: &mut App) {
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .reset_all();
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .reset_all();
}

pub(crate) fn last_command(app: &App) -> Option<Command> {
    app.world()
        .get_resource::<History>()
        .and_then(|h| h.0.last().cloned())
}

fn at(app: &mut App, name: &str) -> Pos {
    let e = unit_named(app.world(), name).unwrap();
    app.world().get::<GridPos>(e).unwrap().0
}

#[test]
fn a_click_on_a_free_tile_moves_the_unit_whose_turn_it_is() {
    let mut app = app();
    press(&mut app, Pos::new(3, 1), Some(MouseButton::Left), None);
    assert_eq!(
        last_command(&app),
        Some(Command::Move {
            unit: "Hero".into(),
            to: Pos::new(3, 1),
            path: None,
            sprint: false,
        })
    );
    assert_eq!(at(&mut app, "Hero"), Pos::new(3, 1));
}

#[test]
fn a_click_on_an_enemy_attacks_it_and_t_throws_at_it() {
    let mut app = app();
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    press(&mut app, Pos::new(5, 1), Some(MouseButton::Left), None);
    assert_eq!(
        last_command(&app),
        Some(Command::Attack {
            unit: "Hero".into(),
            target: "Orc".into(),
            weapon: None,
            power: 0,
            lunge: false,
            part: None,
        })
    );
    press(&mut app, Pos::new(5, 1), None, Some(KeyCode::KeyT));
    assert!(
        matches!(
            last_command(&app),
            Some(Command::Throw { ref unit, at: skirmish::rules::command::ThrowTarget::Unit(ref t), .. })
                if unit == "Hero" && t == "Orc"
        ),
        "{:?}",
        last_command(&app)
    );
}

#[test]
fn e_ends_the_turn_and_the_ai_side_takes_no_clicks() {
    let mut app = app();
    press(&mut app, Pos::new(1, 1), None, Some(KeyCode::KeyE));
    assert_eq!(last_command(&app), Some(Command::EndTurn));
    let current = app.world().resource::<TurnState>().current;
    assert_eq!(current, unit_named(app.world(), "Orc"));
    // The Orc is the AI's: a click sends nothing.
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    assert_eq!(last_command(&app), Some(Command::EndTurn));
}

#[test]
fn y_answers_a_reaction_question_of_a_human_unit() {
    let mut app = app();
    // Hero walks up to the Orc and ends its turn; the Orc (the AI) then
    // leaves the Hero's reach: the Hero's player is asked (R8, Ask).
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    press(&mut app, Pos::new(4, 1), None, Some(KeyCode::KeyE));
    let world = app.world_mut();
    skirmish::rules::submit(
        world,
        Command::Move {
            unit: "Orc".into(),
            to: Pos::new(7, 1),
            path: None,
            sprint: false,
        },
    )
    .unwrap();
    assert!(
        skirmish::view::seat::human_asked(app.world()).is_some(),
        "the Hero's player is asked"
    );
    press(&mut app, Pos::new(7, 1), None, Some(KeyCode::KeyY));
    assert_eq!(
        last_command(&app),
        Some(Command::React {
            unit: "Hero".into(),
            take: true,
            guard: None,
        })
    );
    assert!(
        skirmish::rules::log::CombatLog::of(app.world()).contains("Hero reacts to Orc leaving")
    );
}

#[test]
fn tab_selects_your_unit_and_shift_y_answers_for_the_battle() {
    use skirmish::view::controls::{AutoAnswers, Selected};
    let mut app = app();
    press(&mut app, Pos::new(1, 1), None, Some(KeyCode::Tab));
    assert_eq!(
        app.world().resource::<Selected>().0,
        unit_named(app.world(), "Hero")
    );
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    press(&mut app, Pos::new(4, 1), None, Some(KeyCode::KeyE));
    skirmish::rules::submit(
        app.world_mut(),
        Command::Move {
            unit: "Orc".into(),
            to: Pos::new(7, 1),
            path: None,
            sprint: false,
        },
    )
    .unwrap();
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ShiftLeft);
    press(&mut app, Pos::new(7, 1), None, Some(KeyCode::KeyY));
    assert_eq!(app.world().resource::<AutoAnswers>().0, vec![(0, true)]);
    assert_eq!(
        last_command(&app),
        Some(Command::React {
            unit: "Hero".into(),
            take: true,
            guard: None,
        })
    );
}

/// A whole battle on the ford, the Wardens played with clicks and keys
/// only (a simple player: strike an enemy in reach, else walk toward the
/// nearest, else end the turn; take every reaction), the Raiders by the
/// AI: it reaches its end.
#[test]
fn a_whole_battle_is_played_with_the_mouse() {
    use skirmish::ai::next_command;
    use skirmish::battle::units;
    use skirmish::battle::{Dead, Side};
    use skirmish::rules::check;
    use skirmish::rules::motion::movement::{reachable, view_for};
    use skirmish::view::seat::{human_asked, human_to_act};
    let level = crate::common::level("ford.ron");
    let mut app = headless_app_with(&level, Dice::seeded(11), None);
    app.init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>();
    input_plugin(&mut app);
    // The mouse is under test, not the AI: the opponent is utility1.
    let profiles = Profiles::shipped().with_default(Some("utility1")).unwrap();
    let players = Players::for_level(&level, &profiles);
    players.clone().install(app.world_mut());
    let mut clicks = 0;
    for _ in 0..4000 {
        if app.world().resource::<TurnState>().outcome.is_some() {
            break;
        }
        if human_asked(app.world()).is_some() {
            press(&mut app, Pos::new(0, 0), None, Some(KeyCode::KeyY));
            continue;
        }
        let Some(me) = human_to_act(app.world()) else {
            let world = app.world_mut();
            let command = next_command(world, &players).expect("the AI acts");
            if skirmish::rules::submit(world, command).is_err() {
                skirmish::rules::submit(world, Command::EndTurn).unwrap();
            }
            continue;
        };
        let world = app.world_mut();
        let my_side = world.get::<Side>(me).unwrap().0;
        let here = world.get::<GridPos>(me).unwrap().0;
        let enemies: Vec<(Entity, Pos)> = units(world)
            .into_iter()
            .filter(|e| {
                world.get::<Side>(*e).unwrap().0 != my_side && !world.entity(*e).contains::<Dead>()
            })
            .map(|e| (e, world.get::<GridPos>(e).unwrap().0))
            .collect();
        let name = skirmish::battle::name_of(world, me);
        // Strike if some enemy can be attacked from here.
        let target = enemies.iter().find(|(e, _)| {
            let target = skirmish::battle::name_of(world, *e);
            check(
                world,
                Command::Attack {
                    unit: name.clone(),
                    target,
                    weapon: None,
                    power: 0,
                    lunge: false,
                    part: None,
                },
            )
            .is_ok()
        });
        let before = app
            .world()
            .get_resource::<History>()
            .map_or(0, |h| h.0.len());
        if let Some((_, at)) = target {
            press(&mut app, *at, Some(MouseButton::Left), None);
        } else {
            // Walk to the reachable tile nearest an enemy, if that is closer.
            let world = app.world_mut();
            let (map, occ, _) = view_for(world, me);
            let speed = skirmish::rules::motion::movement::speed_of(world, me);
            let near = |p: Pos| {
                enemies
                    .iter()
                    .map(|(_, e)| p.distance(*e))
                    .min()
                    .unwrap_or(0)
            };
            let best = reachable(&map.map, &occ, here, speed)
                .into_keys()
                .min_by_key(|p| (near(*p), p.y, p.x))
                .filter(|p| near(*p) < near(here));
            match best {
                Some(tile) => press(&mut app, tile, Some(MouseButton::Left), None),
                None => press(&mut app, here, None, Some(KeyCode::KeyE)),
            }
        }
        let after = app
            .world()
            .get_resource::<History>()
            .map_or(0, |h| h.0.len());
        if after == before {
            // The click was refused (no AP left, say): end the turn.
            press(&mut app, here, None, Some(KeyCode::KeyE));
        }
        clicks += 1;
    }
    assert!(
        app.world().resource::<TurnState>().outcome.is_some(),
        "the battle ended"
    );
    let rounds = app.world().resource::<TurnState>().round;
    eprintln!("whole battle: {clicks} inputs, {rounds} rounds");
    assert!(clicks > 20, "the human side played ({clicks} inputs)");
}

#[test]
fn the_throw_button_aims_and_the_next_click_picks_the_target() {
    use skirmish::view::controls::{Action, Aiming, Clicked};
    let mut app = app();
    app.world_mut().resource_mut::<Clicked>().0 = Some(Action::Throw);
    press(&mut app, Pos::new(2, 1), None, None);
    assert_eq!(app.world().resource::<Aiming>().0, Some(Action::Throw));
    assert_eq!(
        last_command(&app),
        None,
        "a button that aims sends nothing yet"
    );
    press(&mut app, Pos::new(5, 1), Some(MouseButton::Left), None);
    assert!(
        matches!(
            last_command(&app),
            Some(Command::Throw { at: skirmish::rules::command::ThrowTarget::Unit(ref t), .. }) if t == "Orc"
        ),
        "{:?}",
        last_command(&app)
    );
    assert_eq!(app.world().resource::<Aiming>().0, None);
}

pub(crate) fn hover_text(app: &App) -> String {
    app.world()
        .resource::<skirmish::view::preview::Hover>()
        .lines
        .join("\n")
}

#[test]
fn hovering_an_enemy_with_no_ap_left_says_the_rule_instead_of_odds() {
    let mut app = app();
    // Next to the Orc, the odds; then two more moves spend the Hero's
    // 3 AP (R3.1).
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    press(&mut app, Pos::new(5, 1), None, None);
    assert!(hover_text(&app).contains("to hit"), "{}", hover_text(&app));
    for x in [3, 4] {
        press(&mut app, Pos::new(x, 1), Some(MouseButton::Left), None);
    }
    press(&mut app, Pos::new(5, 1), None, None);
    let text = hover_text(&app);
    assert!(
        text.contains("Cannot attack Orc") && text.contains("R3.1"),
        "{text}"
    );
    assert!(!text.contains("to hit"), "{text}");
    // Its R-id opens its rule: hovering the text shows R3.1's.
    let hover = app.world().resource::<skirmish::view::preview::Hover>();
    assert_eq!(hover.cited(), Some(skirmish::rules::rule::Rule::R3_1));
    // A click on the Orc now is refused: the refusal is kept, typed, with
    // the same rule, and nothing else is cited.
    press(&mut app, Pos::new(5, 1), Some(MouseButton::Left), None);
    let hover = app.world().resource::<skirmish::view::preview::Hover>();
    let refusal = hover.refusal.clone().expect("the click is refused");
    assert_eq!(refusal.rule, skirmish::rules::rule::Rule::R3_1);
    assert_eq!(hover.cited(), Some(refusal.rule));
    // Hovering a free tile out of reach cites nothing foreseen.
    press(&mut app, Pos::new(7, 0), None, None);
    let hover = app.world().resource::<skirmish::view::preview::Hover>();
    assert_eq!(hover.cites, None);
    assert!(hover.refusal.is_some());
    // The refusal belongs to the Hero's turn: once the Orc acts, it is no
    // longer told.
    skirmish::rules::submit(app.world_mut(), Command::EndTurn).unwrap();
    app.update();
    let hover = app.world().resource::<skirmish::view::preview::Hover>();
    assert_eq!(hover.refusal, None, "{}", hover_text(&app));
}

#[test]
fn hovering_a_dying_enemy_says_a_hit_lowers_its_timer_not_its_hp() {
    use skirmish::battle::{Dying, Health, Prone};
    let mut app = app();
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    let orc = unit_named(app.world(), "Orc").unwrap();
    app.world_mut()
        .entity_mut(orc)
        .insert((Dying { timer: 2 }, Prone));
    app.world_mut().get_mut::<Health>(orc).unwrap().hp = 0;
    press(&mut app, Pos::new(5, 1), None, None);
    let text = hover_text(&app);
    assert!(
        text.contains("Attack Orc, down: 100% to hit") && text.contains("death timer by 1"),
        "{text}"
    );
    assert!(text.contains("R10.3"), "{text}");
    // The automatic hit is a modifier of the odds panel (R7.9).
    let odds = app
        .world()
        .resource::<skirmish::view::preview::Hover>()
        .attack
        .clone()
        .unwrap();
    assert!(odds.down && odds.hit() == 1.0);
    assert!(
        odds.modifiers
            .iter()
            .any(|(_, r)| *r == skirmish::rules::rule::Rule::R7_9),
        "{:?}",
        odds.modifiers
    );
}

/// The death timer is hidden from the other side (R10.1): the window's
/// log leaves out the timer of the AI's units, never the player's own.
#[test]
fn the_log_hides_the_ai_sides_death_timers_from_the_player() {
    use skirmish::rules::events::BattleEvent;
    use skirmish::rules::log::{Names, event_lines, event_lines_seen};
    let mut app = app();
    let world = app.world_mut();
    let hidden = skirmish::view::seat::hidden_units(world);
    let id = |world: &World, name: &str| {
        *world
            .get::<skirmish::battle::UnitId>(unit_named(world, name).unwrap())
            .unwrap()
    };
    let (hero, orc) = (id(world, "Hero"), id(world, "Orc"));
    assert!(hidden.contains(&orc) && !hidden.contains(&hero));
    let names = Names::of(world);
    for unit in [hero, orc] {
        let fell = BattleEvent::FellDying {
            unit,
            roll: 3,
            timer: 4,
        };
        let seen = event_lines_seen(&fell, &names, |u| hidden.contains(&u)).join("\n");
        if unit == orc {
            assert!(!seen.contains('4') && seen.contains("hidden"), "{seen}");
            assert!(seen.contains("R10.1"), "{seen}");
        } else {
            assert_eq!(seen, event_lines(&fell, &names).join("\n"));
            assert!(seen.contains("= 4"), "{seen}");
        }
    }
    // Watching (no human side), nothing is hidden.
    let ai = Profiles::shipped()
        .for_control(&skirmish::format::Control::Ai(None))
        .cloned();
    Players(vec![ai.clone(), ai]).install(world);
    assert!(skirmish::view::seat::hidden_units(world).is_empty());
}

/// Every action's button shows a rule's text on hover: the rule it names
/// in its tooltip.
#[test]
fn every_action_cites_the_rule_its_tooltip_names() {
    use skirmish::view::controls::Action;
    for a in Action::ALL {
        let rule = a.rule();
        assert!(
            a.tooltip().contains(&format!("({rule}")) || a.tooltip().contains(&format!(" {rule}")),
            "{a:?}: {} does not cite {rule}",
            a.tooltip()
        );
        assert!(skirmish::rules::rulebook::rule_text(rule).is_some());
    }
}

/// V2 active defence: an AI's attack on a human's unit waits for its
/// player's answer; B, P and D answer with what the unit has, and the
/// attack goes on with it; with Shift the side answers so from then on.
/// The Hero ends its turn (E) and the Orc attacks it: the Hero, a human's
/// unit, is asked how to answer. Returns the Hero and the attack.
fn orc_attacks_the_hero(app: &mut App) -> (Entity, Command) {
    press(app, Pos::new(4, 1), None, Some(KeyCode::KeyE));
    let attack = Command::Attack {
        unit: "Orc".into(),
        target: "Hero".into(),
        weapon: None,
        power: 0,
        lunge: false,
        part: None,
    };
    skirmish::rules::submit(app.world_mut(), attack.clone()).unwrap();
    let hero = unit_named(app.world(), "Hero").unwrap();
    assert_eq!(skirmish::view::seat::human_asked(app.world()), Some(hero));
    (hero, attack)
}

#[test]
fn d_answers_an_attack_with_a_dodge_and_shift_d_every_attack_after() {
    let text = r#"Level(
        name: "Guard",
        rules: (defence: Active),
        map: ["........", "........", "........"],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "archer", at: (4, 1), facing: E),
            (name: "Orc", side: "Orcs", template: "raider", at: (5, 1), facing: W),
        ],
    )"#;
    // The Orc's d20 8 +4 = 12 vs the Hero's DV 11 (10 + leather, no DEX
    // under V2): a hit; the Hero's dodge d12 12 + DEX 3 + WIS 1 = 16 ≥ 12.
    // The Orc's second attack (+1 dis, R7.6): [10, 10] +4 = 14, a hit; the
    // standing dodge: d12 11 +4 = 15 ≥ 14.
    let dice = [(20, 8), (12, 12), (20, 10), (20, 10), (12, 11)];
    let mut app = app_with(text, Dice::scripted(dice));
    let (hero, last_attack) = orc_attacks_the_hero(&mut app);
    let odds = skirmish::rules::variants::active_defence::held_attack_odds(app.world_mut(), hero);
    let answers: Vec<Guard> = odds.iter().map(|(g, _)| *g).collect();
    assert_eq!(
        answers,
        [Guard::Parry, Guard::Dodge, Guard::None],
        "no shield; a shortsword and room to dodge"
    );
    // An answer the unit cannot give is refused and changes nothing.
    let block = Command::React {
        unit: "Hero".into(),
        take: true,
        guard: Some(Guard::Block),
    };
    let refused = skirmish::rules::submit(app.world_mut(), block).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("Hero cannot block this attack"),
        "{refused}"
    );
    assert_eq!(skirmish::view::seat::human_asked(app.world()), Some(hero));
    let unanswered = odds.last().unwrap().1.harm();
    assert!(odds.iter().all(|(_, p)| p.harm() <= unanswered));
    assert!(odds.iter().any(|(_, p)| p.avoided > 0.0));
    // Shift+D: dodge, and dodge every attack this battle.
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ShiftLeft);
    press(&mut app, Pos::new(5, 1), None, Some(KeyCode::KeyD));
    let dodge = Command::React {
        unit: "Hero".into(),
        take: true,
        guard: Some(Guard::Dodge),
    };
    assert_eq!(last_command(&app), Some(dodge.clone()));
    let log = skirmish::rules::log::CombatLog::of(app.world());
    assert!(
        log.contains("Hero answers with a dodge: d12 [12] +4 = 16 vs 12: dodges: no damage (V2)"),
        "{log:?}"
    );
    assert!(skirmish::view::seat::human_asked(app.world()).is_none());
    assert_eq!(
        app.world()
            .resource::<skirmish::view::controls::AutoGuards>()
            .0,
        vec![(0, Guard::Dodge)]
    );
    // The next attack is answered without a key.
    let attack = last_attack;
    skirmish::rules::submit(app.world_mut(), attack).unwrap();
    assert_eq!(skirmish::view::seat::human_asked(app.world()), Some(hero));
    press(&mut app, Pos::new(5, 1), None, None);
    assert_eq!(last_command(&app), Some(dodge));
    let log = skirmish::rules::log::CombatLog::of(app.world());
    assert!(
        log.contains("Hero answers with a dodge: d12 [11] +4 = 15 vs 14: dodges: no damage (V2)"),
        "{log:?}"
    );
}

/// V6 die ranks: a human defender is asked how to meet the attack, with
/// its passive DEF and each active defence it has, the odds of each from
/// the rules' preview; `B` blocks: the DEF die with advantage, and an AP
/// owed from its next turn (V6.5, V6.6).
#[test]
fn b_meets_an_attack_with_a_block_under_die_ranks() {
    let text = r#"Level(
        name: "Ranks",
        rules: (resolution: DieRanks),
        map: ["........", "........", "........"],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai)],
        units: [
            (name: "Hero", side: "Heroes", template: "warden", at: (4, 1), facing: E),
            (name: "Orc", side: "Orcs", template: "raider", at: (5, 1), facing: W),
        ],
    )"#;
    // The Orc's ATT d10 [7] against the Hero's block: DEF d6 (DEX 0 +
    // chainmail 1) with advantage, [3, 5] keep 5: 1 success.
    let dice = [(10, 7), (6, 3), (6, 5)];
    let mut app = app_with(text, Dice::scripted(dice));
    let (hero, _) = orc_attacks_the_hero(&mut app);
    let odds = skirmish::rules::variants::held_attack_odds(app.world_mut(), hero);
    let answers: Vec<Guard> = odds.iter().map(|(g, _)| *g).collect();
    assert_eq!(
        answers,
        [Guard::Block, Guard::Parry, Guard::Dodge, Guard::None]
    );
    // Each answer's odds are its own contest: the block rolls two DEF
    // dice and lets less through than the passive DEF.
    let (_, block) = &odds[0];
    let (_, passive) = odds.last().unwrap();
    let dice_of = |p: &skirmish::rules::attacks::preview::AttackPreview| {
        let c = p.contest.as_ref().unwrap();
        (c.defence.sides, c.defence.count())
    };
    assert_eq!(dice_of(block), (6, 2));
    assert_eq!(dice_of(passive), (6, 1));
    assert!(block.harm() < passive.harm());
    press(&mut app, Pos::new(5, 1), None, Some(KeyCode::KeyB));
    let react = Command::React {
        unit: "Hero".into(),
        take: true,
        guard: Some(Guard::Block),
    };
    assert_eq!(last_command(&app), Some(react));
    let log = skirmish::rules::log::CombatLog::of(app.world());
    assert!(
        log.contains("vs DEF, blocking (V6.5) d6 [3, 5] keep the best 5 (V6.2, V6.3) → 7 > 5: 1 success (V6.4)"),
        "{log:?}"
    );
    assert_eq!(
        skirmish::rules::variants::die_ranks::owed(app.world(), hero),
        1
    );
}

/// V3 injuries without hit zones: `F` (or the Aim button) picks the part
/// the player's attacks aim at; the odds shown are the rules' own for that
/// part, and the click's Attack names it. Without injuries `F` does nothing.
#[test]
fn f_aims_the_attack_and_its_odds_at_the_next_body_part_under_injuries() {
    use skirmish::format::BodyPart;
    use skirmish::view::controls::{Action, AimedPart};
    use skirmish::view::preview::AttackOdds;
    use skirmish::view::preview::Hover;
    let text = std::fs::read_to_string(crate::common::root().join("tests/levels/aim.ron")).unwrap();
    let mut aiming = app_with(&text, Dice::seeded(4));
    let app = &mut aiming;
    let odds = |app: &App| app.world().resource::<Hover>().attack.clone().unwrap();
    press(app, Pos::new(3, 0), None, None);
    let torso = odds(app);
    assert!(
        app.world()
            .resource::<Hover>()
            .actions
            .contains(&Action::Aim),
        "the action bar offers Aim"
    );
    press(app, Pos::new(3, 0), None, Some(KeyCode::KeyF));
    assert_eq!(app.world().resource::<AimedPart>().0, BodyPart::Arms);
    press(app, Pos::new(3, 0), None, Some(KeyCode::KeyF));
    assert_eq!(app.world().resource::<AimedPart>().0, BodyPart::Legs);
    let legs = odds(app);
    // The rules' preview of the same attack aimed at the legs, unchanged.
    let world = app.world_mut();
    let (hero, orc) = (
        unit_named(world, "Hero").unwrap(),
        unit_named(world, "Orc").unwrap(),
    );
    let mut draft =
        skirmish::rules::attacks::resolution::draft_for(world, hero, orc, None).unwrap();
    draft.aim = Some(BodyPart::Legs);
    let rules = skirmish::rules::attacks::preview::preview_attack(world, draft).unwrap();
    assert_eq!(legs, AttackOdds::of("Orc".into(), None, &rules, 200));
    // 6 degrees on the torso are two fatal injuries: the heart destroyed
    // (V3; the first only stuns); legs never kill, and the Orc's 200 HP do
    // not fall to one club.
    let six_degrees: f64 = rules.degrees.iter().skip(6).sum();
    assert!(
        six_degrees > 0.0 && (torso.drop - six_degrees).abs() < 1e-9 && legs.drop == 0.0,
        "{} {six_degrees} {}",
        torso.drop,
        legs.drop
    );
    // No chance prints as "-0%" (an empty f64 sum is -0.0).
    assert!(
        legs.modifiers
            .iter()
            .any(|(l, _)| l.contains("injures the legs (aimed") && l.contains(" 0% its injuries")),
        "{:?}",
        legs.modifiers
    );
    press(app, Pos::new(3, 0), Some(MouseButton::Left), None);
    assert!(
        matches!(
            last_command(app),
            Some(Command::Attack {
                part: Some(BodyPart::Legs),
                ..
            })
        ),
        "{:?}",
        last_command(app)
    );
    // Without injuries there is nothing to aim: F changes nothing.
    let mut plain = self::app();
    press(&mut plain, Pos::new(4, 1), Some(MouseButton::Left), None);
    press(&mut plain, Pos::new(5, 1), None, Some(KeyCode::KeyF));
    assert_eq!(plain.world().resource::<AimedPart>().0, BodyPart::Torso);
    assert!(
        !plain
            .world()
            .resource::<Hover>()
            .actions
            .contains(&Action::Aim)
    );
    press(&mut plain, Pos::new(5, 1), Some(MouseButton::Left), None);
    assert!(matches!(
        last_command(&plain),
        Some(Command::Attack { part: None, .. })
    ));
}

/// Presses `key` (with `Shift` held if `shift`) for one frame, the cursor
/// left where the keyboard has it.
fn key(app: &mut App, key: KeyCode, shift: bool) {
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    if shift {
        keys.press(KeyCode::ShiftLeft);
    }
    keys.press(key);
    frame(app);
}

#[test]
fn the_arrows_and_enter_move_face_and_attack_without_a_mouse() {
    use skirmish::battle::Facing;
    use skirmish::grid::Dir;
    let mut app = app();
    // The first arrow shows the cursor on the Hero; three more take it
    // three tiles east, next to the Orc; Enter moves there (R5.1).
    key(&mut app, KeyCode::ArrowRight, false);
    assert_eq!(app.world().resource::<CursorTile>().0, Some(Pos::new(1, 1)));
    for _ in 0..3 {
        key(&mut app, KeyCode::ArrowRight, false);
    }
    key(&mut app, KeyCode::Enter, false);
    assert_eq!(
        last_command(&app),
        Some(Command::Move {
            unit: "Hero".into(),
            to: Pos::new(4, 1),
            path: None,
            sprint: false,
        })
    );
    assert_eq!(at(&mut app, "Hero"), Pos::new(4, 1));
    // Shift+Enter on the tile below faces it (R4.2), as a right click.
    key(&mut app, KeyCode::ArrowDown, false);
    key(&mut app, KeyCode::Enter, true);
    assert_eq!(
        last_command(&app),
        Some(Command::Face {
            unit: "Hero".into(),
            dir: Dir::S
        })
    );
    let hero = unit_named(app.world(), "Hero").unwrap();
    assert_eq!(app.world().get::<Facing>(hero).unwrap().0, Dir::S);
    // Up and east: the Orc's tile; Enter attacks it (R7).
    key(&mut app, KeyCode::ArrowUp, false);
    key(&mut app, KeyCode::ArrowRight, false);
    key(&mut app, KeyCode::Enter, false);
    assert!(
        matches!(last_command(&app), Some(Command::Attack { ref target, .. }) if target == "Orc"),
        "{:?}",
        last_command(&app)
    );
    // E ends the turn; Enter alone no longer does.
    key(&mut app, KeyCode::KeyE, false);
    assert_eq!(last_command(&app), Some(Command::EndTurn));
}

/// The app of a scenario file with its dice and initiative, its first
/// `upto` commands sent.
fn scenario_after(file: &str, upto: usize) -> App {
    let path = crate::common::root().join("tests/scenarios").join(file);
    let (scenario, level) = skirmish::scenario::load_file(&path).expect("loads");
    let mut app = headless_app_with(
        &level,
        Dice::scripted(scenario.dice.iter().copied()),
        scenario.initiative.as_deref(),
    );
    for c in scenario.commands.iter().take(upto) {
        let _ = skirmish::rules::submit(app.world_mut(), c.clone());
    }
    app
}

/// The injuries line of a unit's panel (V3).
fn injuries_of(app: &App, name: &str) -> String {
    let unit = unit_named(app.world(), name).unwrap();
    skirmish::view::unit_panel::injuries_text(app.world(), unit).unwrap_or_default()
}

#[test]
fn the_unit_panel_tells_stun_daze_the_stand_up_cost_and_the_save() {
    // Ila's three blows: Orm stunned between his turns, Kel's heart held.
    let app = scenario_after("v3_stun.ron", 3);
    let orm = injuries_of(&app, "Orm");
    assert!(orm.contains("stunned: loses its next turn"), "{orm}");
    assert!(!orm.contains("knock-out save"), "with HP, no save: {orm}");
    // Orm dazed; Kel's injured leg makes standing up 2 AP dearer.
    let app = scenario_after("v3_daze_and_stand_up.ron", 3);
    let orm = injuries_of(&app, "Orm");
    assert!(orm.contains("dazed: attacks +1 dis"), "{orm}");
    let kel = injuries_of(&app, "Kel");
    assert!(kel.contains("standing up +2 AP"), "{kel}");
    // The daze is over once Orm's next turn has ended.
    let app = scenario_after("v3_daze_and_stand_up.ron", 6);
    assert!(!injuries_of(&app, "Orm").contains("dazed"));
    // The view's board, folded from the events, knows every stun (its
    // off-guard, the AP it takes, the lost turn) as the rules do.
    for (file, upto) in [
        ("v3_stun.ron", 4),
        ("v3_daze_and_stand_up.ron", 17),
        ("v3_effects.ron", 9),
    ] {
        let mut app = scenario_after(file, 0);
        let start = skirmish::rules::board::Board::capture(app.world_mut());
        let mut app2 = scenario_after(file, upto);
        let world = app2.world_mut();
        let end = skirmish::rules::board::Board::capture(world);
        let events = world.resource::<skirmish::rules::BattleEvents>().all();
        let first = app
            .world()
            .resource::<skirmish::rules::BattleEvents>()
            .all()
            .len();
        assert_eq!(start.fold(&events[first..]), end, "{file}");
    }
    // Without HP: the next wound's save, at least 1 over the injuries' 1.
    let app = scenario_after("v3_criticals.ron", 1);
    let orm = injuries_of(&app, "Orm");
    assert!(orm.contains("knock-out save DC 2+"), "{orm}");
}

/// The level menu's line for a level says which AI plays each side at the
/// difficulty chosen (a side the level leaves to the default AI), a level a
/// line so that all fit the window; a side the level names a profile for
/// keeps it.
#[test]
fn the_menu_line_says_the_difficulty_chosen() {
    use skirmish::view::menu::{DIFFICULTIES, Entry, describe};
    let path = crate::common::root().join("levels/ford.ron");
    let level = crate::common::level("ford.ron");
    let entry = Entry { path, level };
    for d in DIFFICULTIES {
        let line = describe(&entry, d);
        assert!(line.contains(&format!("AI {d})")), "{d}: {line}");
        assert!(!line.contains('\n'), "{line}");
    }
    let named = r#"Level(
        name: "Named",
        map: ["....", "...."],
        sides: [(name: "Heroes", control: Human), (name: "Orcs", control: Ai("greedy"))],
        units: [
            (name: "Hero", side: "Heroes", template: "skirmisher", at: (0, 0), facing: E),
            (name: "Orc", side: "Orcs", template: "raider", at: (3, 1), facing: W),
        ],
    )"#;
    let level = parse_level(named.as_bytes(), "named.ron", catalog()).expect("the level");
    let entry = Entry {
        path: "named.ron".into(),
        level,
    };
    assert!(describe(&entry, "hard").contains("AI greedy"));
}
