//! Every rule on screen (issue 11), headless: what the window would draw
//! for an attack (outcomes, damage through armor, drop chance, modifier
//! lines, the rule behind each line) equals the rules' own preview of the
//! same battle.

use crate::view::{app, press};
use bevy::prelude::*;
use skirmish::battle::unit_named;
use skirmish::battle::{ArmorReduction, Health};
use skirmish::grid::Pos;
use skirmish::rules::attacks::preview::preview_attack;
use skirmish::rules::attacks::resolution::draft_for;
use skirmish::rules::rulebook::rule_text;
use skirmish::view::odds::OddsPanel;
use skirmish::view::preview::{Ending, Hover};
use skirmish::view::theme::{Cites, RuleTip};

/// The Hero next to the Orc, hovering it; the odds panel and the rule tip
/// spawned as the window spawns them.
fn hovering_the_orc() -> App {
    let mut app = app();
    skirmish::view::odds::plugin(&mut app);
    skirmish::view::theme::plugin(&mut app);
    app.world_mut()
        .spawn((OddsPanel::default(), Node::default()));
    app.world_mut()
        .spawn((RuleTip, Text::new(""), Node::default()));
    press(&mut app, Pos::new(4, 1), Some(MouseButton::Left), None);
    press(&mut app, Pos::new(5, 1), None, None);
    app
}

#[test]
fn the_odds_shown_are_the_rules_preview() {
    let mut app = hovering_the_orc();
    let odds = app
        .world()
        .resource::<Hover>()
        .attack
        .clone()
        .expect("hovering an enemy in reach shows its odds");
    let world = app.world_mut();
    let (hero, orc) = (
        unit_named(world, "Hero").unwrap(),
        unit_named(world, "Orc").unwrap(),
    );
    let p = preview_attack(world, draft_for(world, hero, orc, None).unwrap()).unwrap();
    let ar = world.get::<ArmorReduction>(orc).unwrap().0;
    let hp = world.get::<Health>(orc).unwrap().hp;
    // Outcomes: they sum to 1, miss + fumble is the preview's miss, each
    // degree its own.
    let total: f64 = odds.outcomes.iter().map(|o| o.chance).sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let chance = |ending: Ending| {
        odds.outcomes
            .iter()
            .find(|o| o.ending == ending)
            .map_or(0.0, |o| o.chance)
    };
    assert!(p.melee && p.fumble > 0.0);
    assert!((chance(Ending::Miss) + chance(Ending::Fumble) - p.degrees[0]).abs() < 1e-12);
    assert_eq!(chance(Ending::Fumble), p.fumble);
    assert_eq!(chance(Ending::Degrees(1)), p.degrees[1]);
    assert!((odds.hit() - p.hit).abs() < 1e-12);
    assert_eq!(odds.harm, p.expected_harm(ar));
    assert_eq!(odds.drop, p.drop_chance(hp, ar));
    assert_eq!(
        p.armor,
        vec![(1.0, ar)],
        "no hit zones: the AR pool stands whole"
    );
    // The modifier lines are the attack schedule's, each with its rule.
    let lines: Vec<(String, skirmish::rules::rule::Rule)> = p
        .modifiers
        .iter()
        .map(|m| (m.to_string(), m.rule))
        .collect();
    assert!(!lines.is_empty());
    assert_eq!(odds.modifiers, lines);
}

#[test]
fn the_panel_draws_a_line_per_modifier_and_hovering_one_shows_its_rule() {
    let mut app = hovering_the_orc();
    app.update();
    let odds = app.world().resource::<Hover>().attack.clone().unwrap();
    let world = app.world_mut();
    let mut cited: Vec<skirmish::rules::rule::Rule> =
        world.query::<&Cites>().iter(world).map(|c| c.0).collect();
    // One line per modifier, plus the fumble note (R7.3).
    let mut expected: Vec<_> = std::iter::once(skirmish::rules::rule::Rule::R7_3)
        .chain(odds.modifiers.iter().map(|(_, r)| *r))
        .collect();
    // The query's order is not the spawn order: compare as multisets.
    cited.sort();
    expected.sort();
    assert_eq!(cited, expected);
    // Nothing hovered: the tip is empty. Hovering the last line shows its
    // rule's text.
    let tip = |world: &mut World| {
        world
            .query_filtered::<&Text, With<RuleTip>>()
            .single(world)
            .unwrap()
            .0
            .clone()
    };
    assert_eq!(tip(world), "");
    let (line, rule) = {
        let mut q = world.query::<(Entity, &Cites)>();
        let (e, c) = q.iter(world).last().unwrap();
        (e, c.0)
    };
    world.entity_mut(line).insert(Interaction::Hovered);
    app.update();
    let shown = tip(app.world_mut());
    assert!(!shown.is_empty());
    assert_eq!(
        shown,
        skirmish::view::theme::screen_text(&rule_text(rule).unwrap())
    );
}

#[test]
fn alt_over_a_free_tile_compares_the_attack_from_there() {
    let mut app = hovering_the_orc();
    let here = app.world().resource::<Hover>().attack.clone().unwrap();
    assert_eq!(here.from, None);
    // Alt held over the tile behind the Orc (its rear arc: R4.3).
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::AltLeft);
    press(&mut app, Pos::new(6, 1), None, None);
    let there = app.world().resource::<Hover>().attack.clone().unwrap();
    assert_eq!(there.from, Some(Pos::new(6, 1)));
    let world = app.world_mut();
    let (hero, orc) = (
        unit_named(world, "Hero").unwrap(),
        unit_named(world, "Orc").unwrap(),
    );
    let mut draft = draft_for(world, hero, orc, None).unwrap();
    draft.from = Pos::new(6, 1);
    let p = preview_attack(world, draft).unwrap();
    assert!((there.hit() - p.hit).abs() < 1e-12);
    assert!(
        there
            .modifiers
            .iter()
            .any(|(_, r)| *r == skirmish::rules::rule::Rule::R4_3),
        "{:?}",
        there.modifiers
    );
    assert!(there.hit() > here.hit());
}
