//! What hovering shows, from the rules' own previews (one code path with
//! resolution, never recomputed here): the reach of the acting unit shaded
//! by cost, the path to the hovered tile and the steps that provoke, and an
//! enemy's odds ([`AttackOdds`]): each outcome's chance, the damage that
//! gets through armor, the chance to drop it, and every modifier with its
//! rule.
//!
//! Holding `Alt` over a free tile compares: the odds against the last
//! enemy hovered, as if the unit stood on that tile.

use super::controls::{Action, CursorTile};
use super::map::Highlights;
use super::overlays::{OverlayMarks, Overlays};
use super::seat::{human_to_act, shown_unit, unit_at};
use crate::battle::{Health, Side};
use crate::battle::{name_of, out_of_action};
use crate::format::Guard;
use crate::format::Overlay;
use crate::grid::{Body, Pos};
use crate::rules::attacks::preview::{AttackPreview, preview_attack, total};
use crate::rules::attacks::resolution::{check_attack, draft_for};
use crate::rules::command::ManeuverKind;
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
);

/// What an attack roll can come to, as the odds panel shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A miss (a fumble apart).
    Miss,
    /// A natural 1 that misses: the melee attacker drops its weapon (R7.3).
    Fumble,
    /// A hit the defender's answer takes away (V2): dodged, parried away,
    /// or otherwise answered.
    Answered(Option<Guard>),
    /// A hit of this many degrees (R7.2), after any answer; 3 stands for 3
    /// or more.
    Degrees(u8),
}

impl Ending {
    /// Its words on the panel.
    pub fn label(self) -> &'static str {
        match self {
            Ending::Miss => "miss",
            Ending::Fumble => "fumble",
            Ending::Answered(Some(Guard::Dodge)) => "dodged",
            Ending::Answered(Some(Guard::Parry)) => "parried away",
            Ending::Answered(_) => "answered away",
            Ending::Degrees(1) => "1 degree",
            Ending::Degrees(2) => "2 degrees",
            Ending::Degrees(_) => "3+ degrees",
        }
    }
}

/// One way an attack roll can end and its chance.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// What happens.
    pub ending: Ending,
    /// Its probability.
    pub chance: f64,
}

/// An attack's odds, as the preview panel shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackOdds {
    /// The target's name.
    pub target: String,
    /// The tile the attack is previewed from, when not where the attacker
    /// stands (`Alt`).
    pub from: Option<Pos>,
    /// Miss, fumble (R7.3, melee only), 1, 2 and 3 or more degrees
    /// (R7.2): they sum to 1.
    pub outcomes: Vec<Outcome>,
    /// Expected damage that gets through the target's AR to its HP (R1.2).
    pub harm: f64,
    /// Chance to drop the target to 0 HP (R10.1).
    pub drop: f64,
    /// The target is down: a hit lowers its death timer instead (R10.3).
    pub down: bool,
    /// The roll: dice, bonus and DV.
    pub roll: String,
    /// Every modifier, as the log writes it, with its rule.
    pub modifiers: Vec<(String, Rule)>,
    /// A maneuver's odds (V7): success, not a hit.
    pub maneuver: Option<ManeuverKind>,
}

impl AttackOdds {
    /// The odds of `preview` against a target with `ar` AR and `hp` HP.
    pub fn of(target: String, from: Option<Pos>, p: &AttackPreview, hp: i32) -> Self {
        let target_name = target.clone();
        // The degrees a hit keeps after the defender's answer (V2).
        let landed = p.landed_degrees();
        let degree = |d: usize| landed.get(d).copied().unwrap_or(0.0);
        let answered = Ending::Answered(p.answer.as_ref().map(|g| g.guard));
        // Only a melee attack fumbles (R7.3): a ranged one has no such
        // outcome to show. A block never takes a whole hit away.
        let blocks = p.answer.as_ref().is_some_and(|g| g.guard == Guard::Block);
        let outcomes = [
            (Ending::Miss, p.degrees[0] - p.fumble),
            (Ending::Fumble, p.fumble),
            (answered, p.avoided),
            (Ending::Degrees(1), degree(1)),
            (Ending::Degrees(2), degree(2)),
            (Ending::Degrees(3), total(landed.iter().skip(3).copied())),
        ]
        .into_iter()
        // An unarmed maneuver drops no weapon (V7.1).
        .filter(|(ending, _)| {
            *ending != Ending::Fumble || (p.melee && p.maneuver.is_none_or(|m| m.with_weapon()))
        })
        .filter(|(ending, _)| *ending != answered || !blocks)
        .map(|(ending, chance)| Outcome { ending, chance })
        .collect();
        let keep = match p.advantage {
            0 => "",
            n if n > 0 => " keep the highest (R0.4)",
            _ => " keep the lowest (R0.4)",
        };
        AttackOdds {
            target,
            from,
            outcomes,
            harm: p.harm(),
            drop: p.drop(hp),
            down: p.down,
            roll: format!(
                "d20 x{}{keep} {:+} vs DV {}: {}",
                1 + p.advantage.unsigned_abs(),
                p.bonus,
                p.dv,
                match p.maneuver {
                    Some(_) => "succeeds on meeting it (V7.1)",
                    None => "hit when higher (R0.5)",
                }
            ),
            maneuver: p.maneuver,
            modifiers: p
                .modifiers
                .iter()
                .map(|m| (m.to_string(), m.rule))
                .chain(zone_line(p))
                .chain(guard_line(&target_name, p))
                .chain(injury_line(p))
                .collect(),
        }
    }

    /// The chance of a hit: every outcome with degrees.
    pub fn hit(&self) -> f64 {
        total(
            self.outcomes
                .iter()
                .filter(|o| matches!(o.ending, Ending::Degrees(_)))
                .map(|o| o.chance),
        )
    }

    /// The headline: the chance to hit and what a hit does.
    pub fn headline(&self) -> String {
        let hit = self.hit();
        let from = self.from.map(|t| format!(" from {t}")).unwrap_or_default();
        if let Some(kind) = self.maneuver {
            let label = kind.label();
            let capital = label[..1].to_uppercase() + &label[1..];
            return format!(
                "{capital} {}{from}: {:.0}% to succeed, no damage ({})",
                self.target,
                hit * 100.0,
                kind.rule()
            );
        }
        if self.down {
            format!(
                "Attack {}{from}, down: {:.0}% to hit; a hit deals no damage but lowers its \
                 death timer by 1, and at 0 it dies (R10.3); a stabilized unit starts dying \
                 again (R10.4)",
                self.target,
                hit * 100.0
            )
        } else {
            format!(
                "Attack {}{from}: {:.0}% to hit, {:.1} HP expected through armor, {:.0}% to drop",
                self.target,
                hit * 100.0,
                self.harm,
                self.drop * 100.0
            )
        }
    }
}

/// With hit zones (V4), the AR a hit meets on each zone, as a line of the
/// modifier list (its rule opens on hover).
fn zone_line(p: &AttackPreview) -> Option<(String, Rule)> {
    if !p.by_zone() || p.down {
        return None;
    }
    let zones: Vec<String> = crate::format::BodyPart::chances()
        .iter()
        .zip(&p.armor)
        .map(|((part, chance), (_, ar))| {
            format!("{} {:.0}% (AR {ar})", part.name(), chance * 100.0)
        })
        .collect();
    Some((format!("a hit lands on: {}", zones.join(", ")), Rule::V4))
}

/// Under injuries (V3), where a hit injures and how likely its injuries
/// fell the target, as a line of the modifier list.
fn injury_line(p: &AttackPreview) -> Option<(String, Rule)> {
    if p.fell_at.is_empty() || p.down {
        return None;
    }
    let at = if p.by_zone() {
        "the zone it lands on".to_string()
    } else {
        format!("the {} (aimed: F aims elsewhere)", p.aim.name())
    };
    Some((
        format!(
            "a hit injures {at}: 1 degree minor, each more one step worse; {:.0}% its \
             injuries knock out or kill",
            p.felled() * 100.0
        ),
        Rule::V3,
    ))
}

/// Under active defence (V2), the answer the target will give, as a line
/// of the modifier list.
fn guard_line(target: &str, p: &AttackPreview) -> Option<(String, Rule)> {
    let g = p.answer.as_ref()?;
    let away = format!("{:.0}% of all attacks", p.avoided * 100.0);
    let what = match g.guard {
        Guard::Block => format!(
            "blocks: d12 {:+} at least the attack's total takes {} off the damage ({:.0}% of \
             all attacks)",
            g.value,
            g.strength,
            p.blocked() * 100.0
        ),
        Guard::Parry => {
            let zone = g
                .zone
                .map(|(z, ar)| format!(", turns the hit to the {} (AR {ar})", z.name()))
                .unwrap_or_default();
            format!(
                "parries: d12 {:+} at least the total; a d12 of 10+ takes it all, else{zone} a \
                 second d12 at least the first does ({away} parried away)",
                g.value
            )
        }
        Guard::Dodge => format!(
            "dodges: d12 {:+} at least the total takes it all ({away} dodged)",
            g.value
        ),
        Guard::None => return None,
    };
    Some((format!("{target} {what}"), Rule::V2))
}

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
            shown = if aiming == Some(Action::Throw) {
                super::aims::aim_throw(world, me, t, &mut marks, &mut overlay_marks)
            } else if aiming == Some(Action::Jump) {
                super::aims::aim_jump(world, me, t, &mut marks, &mut overlay_marks)
            } else if let Some(kind) = aiming.and_then(Action::maneuver) {
                super::aims::aim_maneuver(world, me, t, kind, &mut marks, &mut overlay_marks)
            } else {
                hover_tile(world, me, t, &reach, alt, &mut marks)
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

/// What hovering one tile shows.
#[derive(Default)]
pub(super) struct Shown {
    /// The lines of text.
    pub lines: Vec<String>,
    /// The odds of the attack or maneuver aimed, for the odds panel.
    pub attack: Option<AttackOdds>,
    /// The enemy `Alt` compares tiles against from now on.
    pub compared: Option<Entity>,
    /// The rule of the refusal the lines tell, if any.
    pub cites: Option<Rule>,
}

impl Shown {
    /// Tells why a command would be refused, citing its rule.
    pub fn refused(&mut self, what: String, r: Refusal) {
        self.lines.push(format!("{what}: {r}"));
        self.cites = Some(r.rule);
    }
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
    if let Some((to, r)) = to.and_then(|a| Some((a, reach.get(&a)?))) {
        shown.lines.push(format!(
            "Move to {to}: 1 AP, movement {} of speed {} (R5.1)",
            r.cost,
            crate::rules::motion::movement::speed_of(world, me)
        ));
        for p in r.path.iter().flat_map(|p| Body { at: *p, n }.tiles()) {
            marks.insert(p, Color::srgba(1.0, 1.0, 0.6, 0.55));
        }
        if let Some(level) = &heights {
            let start = world.get::<crate::battle::GridPos>(me).map(|g| g.0);
            let walked: Vec<Pos> = start.into_iter().chain(r.path.iter().copied()).collect();
            let climbs: Vec<String> = walked
                .windows(2)
                .filter(|w| level.map.elevation(w[1]) > level.map.elevation(w[0]))
                .map(|w| w[1].to_string())
                .collect();
            if !climbs.is_empty() {
                shown.lines.push(format!(
                    "  climbs 1 m at {}: each costs as difficult terrain (V9.1)",
                    climbs.join(", ")
                ));
            }
        }
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
