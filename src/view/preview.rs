//! What hovering shows, from the rules' own previews (one code path with
//! resolution, never recomputed here): the reach of the acting unit shaded
//! by cost, the path to the hovered tile and the steps that provoke, and an
//! enemy's odds ([`AttackOdds`]): each outcome's chance, the damage that
//! gets through armor, the chance to drop it, and every modifier with its
//! rule.
//!
//! Holding `Alt` over a free tile compares: the odds against the last
//! enemy hovered, as if the unit stood on that tile.

use super::aims::Shown;
pub use super::attack_odds::{AttackOdds, Ending};
use super::controls::{Action, CursorTile};
use super::map::Highlights;
use super::overlays::{OverlayMarks, Overlays};
use super::seat::{human_to_act, shown_unit, unit_at};
use crate::battle::{Health, Side};
use crate::battle::{name_of, out_of_action};
use crate::format::Overlay;
use crate::grid::{Body, Pos};
use crate::rules::attacks::preview::preview_attack;
use crate::rules::attacks::resolution::{check_attack, draft_for};
use crate::rules::motion::movement::{Reach, move_reach, speed_of};
use crate::rules::reactions::reactive_attack::provocations;
use crate::rules::rule::Rule;
use crate::rules::{Command, Refusal};
use bevy::prelude::*;
use std::collections::HashMap;

/// What hovering shows: the preview's text, an attack's odds, and the last
/// refusal.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Hover {
    /// Lines describing what a click would do, from the rules' preview.
    pub lines: Vec<String>,
    /// The odds of the attack on the hovered enemy (or, with `Alt`, from
    /// the hovered tile on the last enemy hovered).
    pub attack: Option<AttackOdds>,
    /// The last refused command, with its rule and reason.
    pub refusal: Option<Refusal>,
    /// The rule of a refusal the preview foresees (an attack out of reach,
    /// a throw out of range): hovering the text shows its rule.
    pub cites: Option<Rule>,
    /// A note for the player (saved, loaded).
    pub note: Option<String>,
    /// What the acting unit may do now (from the rules' legal commands).
    pub actions: Vec<Action>,
    /// The last enemy hovered: what `Alt` compares tiles against.
    pub compared: Option<Entity>,
    /// What the preview was computed for: tile, unit, events seen, Alt,
    /// overlays, selection, aimed action, spotlight and aimed part.
    key: Option<HoverKey>,
}

impl Hover {
    /// Computes the preview and overlays again next frame (the palette
    /// changed).
    pub fn refresh(&mut self) {
        self.key = None;
    }

    /// The rule whose text hovering the hover panel opens: the last
    /// refused command's, else the refusal the preview foresees.
    pub fn cited(&self) -> Option<Rule> {
        self.refusal.as_ref().map(|r| r.rule).or(self.cites)
    }
}

type HoverKey = (
    Option<Pos>,
    Option<Entity>,
    usize,
    bool,
    Option<super::overlays::Overlays>,
    Option<Entity>,
    Option<Action>,
    Option<usize>,
    (Option<crate::format::BodyPart>, bool),
    Option<(String, i32)>,
);

/// The odds of `me` attacking `target`, from `from` when given (a tile to
/// compare), else from where it stands: what a click would send, checked
/// as the rules would (AP, arc, reach…), then previewed from the same draft
/// resolution uses.
pub fn attack_odds(
    world: &mut World,
    me: Entity,
    target: Entity,
    from: Option<Pos>,
) -> Result<AttackOdds, Refusal> {
    let name = name_of(world, target);
    if from.is_none() {
        let click = Command::Attack {
            unit: name_of(world, me),
            target: name.clone(),
            weapon: None,
            power: 0,
            lunge: false,
            part: super::controls::aimed_part(world),
        };
        crate::rules::pipeline::check(world, click)?;
    }
    let mut draft = draft_for(world, me, target, None)?;
    if let Some(tile) = from {
        draft.from = tile;
    }
    // The part a click would aim at (V3), as resolution reads it.
    draft.aim = super::controls::aimed_part(world);
    check_attack(world, &draft)?;
    let p = preview_attack(world, draft)?;
    let hp = world.get::<Health>(target).map_or(0, |h| h.hp);
    Ok(AttackOdds::of(name, from, &p, hp))
}

/// Reach shading and the hovered preview, recomputed only when the hovered
/// tile, the acting unit, `Alt` or the battle changed.
pub(super) fn preview_hover(world: &mut World) {
    let tile = world.resource::<CursorTile>().0;
    let human = human_to_act(world);
    // A tour's script shows the previews of the unit it plays.
    let me = shown_unit(world);
    let seen = world
        .resource::<crate::rules::events::BattleEvents>()
        .all()
        .len();
    let keys = world.resource::<ButtonInput<KeyCode>>();
    let alt = keys.pressed(KeyCode::AltLeft) || keys.pressed(KeyCode::AltRight);
    let overlays = world.get_resource::<Overlays>().cloned();
    let selected = world
        .get_resource::<super::controls::Selected>()
        .and_then(|s| s.0);
    let aiming = world
        .get_resource::<super::controls::Aiming>()
        .and_then(|a| a.0);
    let spot = world
        .get_resource::<super::overlays::Spotlight>()
        .and_then(|s| s.0);
    let part = super::controls::aimed_part(world);
    let at_mount = super::seat::aiming_at_mount(world);
    let armed = world
        .get_resource::<super::spell_armed::ArmedSpell>()
        .and_then(|a| a.0.clone());
    let key = Some((
        tile,
        me,
        seen,
        alt,
        overlays.clone(),
        selected,
        aiming,
        spot,
        (part, at_mount),
        armed.clone(),
    ));
    if world.resource::<Hover>().key == key {
        return;
    }
    let overlays = overlays.unwrap_or_default();
    let mut marks = HashMap::new();
    let mut shown = Shown::default();
    let mut overlay_marks = OverlayMarks::default();
    if let Some(me) = me {
        // What a Move may reach now, as the rules say (AP, crawling); none
        // when a rule holds the unit in place (a grapple, V7.6): one Move
        // checked tells.
        let mut reach = move_reach(world, me);
        let held = reach.keys().min().is_some_and(|to| {
            let unit = name_of(world, me);
            let probe = Command::Move {
                unit,
                to: *to,
                path: None,
                sprint: false,
            };
            crate::rules::pipeline::check(world, probe).is_err_and(|r| r.rule == Rule::V7_6)
        });
        if held {
            reach.clear();
        }
        let speed = speed_of(world, me);
        if overlays.0.contains(&Overlay::Reach) {
            let palette = crate::art::palette::Palette::in_world(world);
            for (p, cost) in
                super::footprints::covered_costs(&reach, super::footprints::size_of(world, me))
            {
                marks.insert(p, palette.reach(cost, speed));
            }
        }
        let enemy = tile
            .and_then(|t| unit_at(world, t))
            .filter(|&t| world.get::<Side>(t) != world.get::<Side>(me));
        let selected = selected
            .filter(|s| world.get_entity(*s).is_ok())
            .unwrap_or(me);
        overlay_marks = super::overlays::overlay_marks(world, me, selected, enemy, &mut marks);
        if let Some(t) = tile {
            shown = if let Some((spell, level)) = &armed {
                let spell = (spell.as_str(), *level);
                super::spell_aim::aim_spell(world, me, t, spell, &mut marks, &mut overlay_marks)
            } else if aiming == Some(Action::Throw) {
                super::aims::aim_throw(world, me, t, &mut marks, &mut overlay_marks)
            } else if aiming == Some(Action::Jump) {
                super::aims::aim_jump(world, me, t, &mut marks, &mut overlay_marks)
            } else if let Some(kind) = aiming.and_then(Action::maneuver) {
                super::aims::aim_maneuver(world, me, t, kind, &mut marks, &mut overlay_marks)
            } else {
                hover_tile(world, me, t, &reach, alt, &mut marks, &mut overlay_marks)
            };
        }
    }
    // Every grapple on the field, tethered (V7.6).
    overlay_marks
        .links
        .extend(super::aims::grapple_tethers(world));
    let actions = human
        .map(|_| super::controls::action_bar(world))
        .unwrap_or_default();
    let spot = spot.and_then(|i| {
        world
            .resource::<crate::rules::events::BattleEvents>()
            .all()
            .get(i)
            .cloned()
    });
    if let Some(e) = spot {
        super::overlays::paint(&mut marks, &super::overlays::spotlight(world, &e));
    }
    world.resource_mut::<Highlights>().0 = marks;
    if world.get_resource::<OverlayMarks>() != Some(&overlay_marks) {
        world.insert_resource(overlay_marks);
    }
    let mut hover = world.resource_mut::<Hover>();
    hover.lines = shown.lines;
    hover.attack = shown.attack;
    hover.cites = shown.cites;
    if shown.compared.is_some() {
        hover.compared = shown.compared;
    }
    hover.actions = actions;
    hover.key = key;
}

/// What hovering `tile` shows for `me`: an enemy's odds, the odds from
/// this tile (`alt`), or the path there.
fn hover_tile(
    world: &mut World,
    me: Entity,
    tile: Pos,
    reach: &HashMap<Pos, Reach>,
    alt: bool,
    marks: &mut HashMap<Pos, Color>,
    labels: &mut OverlayMarks,
) -> Shown {
    let mut shown = Shown::default();
    let heights = crate::rules::variants::jumping::heights_in_play(world);
    if let Some(level) = &heights {
        shown.lines.push(format!(
            "{tile}: ground {} m high (V9.1)",
            level.map.elevation(tile)
        ));
    }
    let enemy = unit_at(world, tile).filter(|&t| world.get::<Side>(t) != world.get::<Side>(me));
    if let Some(t) = enemy {
        shown.compared = Some(t);
        let name = name_of(world, t);
        match attack_odds(world, me, t, None) {
            Ok(odds) => {
                shown.lines.push(odds.headline());
                shown.lines.push(odds.roll.clone());
                shown.attack = Some(odds);
            }
            Err(r) => shown.refused(format!("Cannot attack {name}"), r),
        }
        super::footprints::mark_body(world, t, marks, Color::srgba(1.0, 0.3, 0.2, 0.6));
        return shown;
    }
    let compared = world
        .get_resource::<Hover>()
        .and_then(|h| h.compared)
        .filter(|t| world.get_entity(*t).is_ok() && !out_of_action(world, *t));
    // A big body moves to the body the tile centres (V10.6).
    let n = super::footprints::size_of(world, me);
    let to = super::footprints::move_anchor(reach, tile, n);
    if let (true, Some(t)) = (alt, compared) {
        let name = name_of(world, t);
        match attack_odds(world, me, t, Some(to.unwrap_or(tile))) {
            Ok(odds) => {
                shown.lines.push(odds.headline());
                shown.lines.push(odds.roll.clone());
                shown.attack = Some(odds);
            }
            Err(r) => shown.refused(format!("From {tile}, cannot attack {name}"), r),
        }
        super::footprints::mark_body(world, t, marks, Color::srgba(1.0, 0.3, 0.2, 0.6));
    }
    // Under Energy, a click beside the unit with an Agile Move open makes
    // it (V5.7): 1 Agility, no provocation.
    if super::energy_pips::agile_open(world, me, tile) {
        let unit = name_of(world, me);
        match crate::rules::pipeline::check(world, Command::AgileMove { unit, to: tile }) {
            Ok(()) => {
                shown.lines.push(format!(
                    "Agile Move to {tile}: 1 Agility, never provokes (V5.7)"
                ));
                marks.insert(tile, Color::srgba(1.0, 1.0, 0.6, 0.55));
            }
            Err(r) => shown.refused(format!("No Agile Move to {tile}"), r),
        }
        return shown;
    }
    if let Some((to, r)) = to.and_then(|a| Some((a, reach.get(&a)?))) {
        let speed = crate::rules::motion::movement::speed_of(world, me);
        // Under Energy a Run costs a third of Speed per Energy (V5.5).
        let price = if crate::battle::energy(world) {
            format!("{} Energy (V5.5)", crate::battle::run_energy(r.cost, speed))
        } else {
            "1 AP".to_string()
        };
        shown.lines.push(format!(
            "Move to {to}: {price}, movement {} of speed {speed} (R5.1)",
            r.cost
        ));
        for p in r.path.iter().flat_map(|p| Body { at: *p, n }.tiles()) {
            marks.insert(p, Color::srgba(1.0, 1.0, 0.6, 0.55));
        }
        if let Some(level) = &heights {
            let start = world.get::<crate::battle::GridPos>(me).map(|g| g.0);
            let climbs: Vec<String> = start
                .map(|s| crate::rules::motion::paths::climbs_along(&level.map, s, n, &r.path))
                .unwrap_or_default()
                .iter()
                .map(Pos::to_string)
                .collect();
            if !climbs.is_empty() {
                shown.lines.push(format!(
                    "  climbs 1 m at {}: each costs as difficult terrain (V9.1)",
                    climbs.join(", ")
                ));
            }
        }
        sneak_odds(world, me, &r.path, &mut shown, labels);
        for p in provocations(world, me, &r.path) {
            for t in (Body { at: p.leaving, n }).tiles() {
                marks.insert(t, Color::srgba(1.0, 0.25, 0.2, 0.65));
            }
            shown.lines.push(format!(
                "  leaving {} provokes {} (R8.2)",
                p.leaving,
                p.reactors.join(", ")
            ));
        }
    } else if !out_of_action(world, me) {
        marks.insert(tile, Color::srgba(0.6, 0.6, 0.6, 0.35));
    }
    if !alt && compared.is_some() && shown.attack.is_none() {
        shown
            .lines
            .push("Hold Alt to compare the attack from this tile".into());
    }
    shown
}

/// A hidden unit's path (V8.3): on each step, the chance it is still
/// unseen if the Move ended there, from the rules' own count.
fn sneak_odds(
    world: &World,
    me: Entity,
    path: &[Pos],
    shown: &mut Shown,
    labels: &mut OverlayMarks,
) {
    let odds = crate::rules::variants::stealth::sneak::unseen_along(world, me, path);
    for (p, chance) in path.iter().zip(&odds) {
        labels.labels.push((*p, format!("{:.0}%", chance * 100.0)));
    }
    if let Some(last) = odds.last() {
        shown.lines.push(format!(
            "  sneaking: {:.1}% to stay unseen to the end (V8.3); each step shows its chance",
            last * 100.0
        ));
    }
}
