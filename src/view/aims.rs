//! What aiming an action at a tile shows, from the rules' own previews:
//! a throw's landing and scatter (R9), a maneuver's odds and effect (V7),
//! a jump's chances and where each outcome leaves the jumper (V9.3).

use super::attack_odds::AttackOdds;
use super::controls::Action;
use super::overlays::OverlayMarks;
use super::seat::unit_at;
use crate::battle::{GridPos, Health, Side, name_of};
use crate::grid::Pos;
use crate::rules::Command;
use crate::rules::Refusal;
use crate::rules::attacks::preview::total;
use crate::rules::command::ManeuverKind;
use crate::rules::events::JumpOutcome;
use crate::rules::rule::Rule;
use crate::rules::variants::jumping;
use crate::rules::variants::maneuvers::{self, Grappled};
use bevy::prelude::*;
use std::collections::HashMap;

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

/// Aiming a throw at `tile` (R9): where it may land and how likely, the
/// splash it spreads, the chance it hits.
pub(super) fn aim_throw(
    world: &mut World,
    me: Entity,
    tile: Pos,
    marks: &mut HashMap<Pos, Color>,
    words: &mut OverlayMarks,
) -> Shown {
    let mut shown = Shown::default();
    let Some(Command::Throw { item, at, .. }) =
        super::controls::action_command(world, me, Action::Throw, Some(tile))
    else {
        shown.lines.push("Nothing to throw (R9.1)".into());
        return shown;
    };
    match super::overlays::throw_landing(world, me, &item, &at) {
        Ok((layer, p)) => {
            let target = match &at {
                crate::rules::command::ThrowTarget::Unit(name) => name.clone(),
                crate::rules::command::ThrowTarget::Tile(t) => format!("{t}"),
            };
            shown.lines.push(format!(
                "Throw the {item} at {target}: {:.0}% to hit; a miss scatters by d8 to the \
                 marked tiles, each with its chance (R9.3)",
                p.hit * 100.0
            ));
            let tint = super::overlays::tint::SPLASH;
            if layer.tiles.iter().any(|(_, c)| *c == tint) {
                shown.lines.push(
                    "The darker rim around the aimed tile: the splash where it lands on a hit \
                     (R9.4)"
                        .into(),
                );
            }
            super::overlays::paint(marks, &layer);
            words.labels.extend(layer.labels);
            words.links.push((
                world.get::<GridPos>(me).map_or(tile, |g| g.0),
                p.hit_tile,
                super::overlays::tint::AIMED,
            ));
        }
        Err(r) => shown.refused(format!("Cannot throw the {item} there"), r),
    }
    shown
}

/// A line from each grappler to the unit it grapples (V7.6).
pub(super) fn grapple_tethers(world: &World) -> Vec<(Pos, Pos, Color)> {
    crate::battle::units(world)
        .into_iter()
        .filter_map(|e| {
            let g = world.get::<Grappled>(e)?;
            let (from, to) = (world.get::<GridPos>(g.by)?.0, world.get::<GridPos>(e)?.0);
            Some((from, to, super::overlays::tint::GRAPPLE))
        })
        .collect()
}

/// Aiming a maneuver (V7) at the unit on `tile`: its exact odds, what a
/// success does (where a shove lands, how firm a grapple holds), and
/// whether the target strikes first (V7.2).
pub(super) fn aim_maneuver(
    world: &mut World,
    me: Entity,
    tile: Pos,
    kind: ManeuverKind,
    marks: &mut HashMap<Pos, Color>,
    words: &mut OverlayMarks,
) -> Shown {
    let mut shown = Shown::default();
    let Some(t) = unit_at(world, tile).filter(|&t| world.get::<Side>(t) != world.get::<Side>(me))
    else {
        shown.lines.push(format!(
            "{}: aim at an enemy in reach ({})",
            kind.label(),
            kind.rule()
        ));
        return shown;
    };
    let name = name_of(world, t);
    let click = Command::Maneuver {
        unit: name_of(world, me),
        target: name.clone(),
        kind,
        to: None,
        fling: None,
    };
    let odds = crate::rules::pipeline::check(world, click)
        .and_then(|_| maneuvers::preview_maneuver(world, me, t, kind));
    marks.insert(tile, Color::srgba(1.0, 0.3, 0.2, 0.6));
    let p = match odds {
        Ok(p) => p,
        Err(r) => {
            shown.refused(format!("Cannot {} {name}", kind.label()), r);
            return shown;
        }
    };
    let hp = world.get::<Health>(t).map_or(0, |h| h.hp);
    let odds = AttackOdds::of(name.clone(), None, &p, hp);
    shown.lines.push(odds.headline());
    shown.lines.push(odds.roll.clone());
    match kind {
        ManeuverKind::Shove => match maneuvers::shove::destination(world, me, t, None) {
            Ok(Some(to)) => {
                marks.insert(to, super::overlays::tint::SHOVED);
                words.links.push((tile, to, super::overlays::tint::SHOVED));
                shown
                    .lines
                    .push(format!("On a success {name} is pushed to {to} (V7.7)"));
                let map = &world.resource::<crate::battle::Battlefield>().0.map;
                let drop = map.elevation(tile) - map.elevation(to);
                if jumping::on(world) && (jumping::is_chasm(map, to) || drop >= 2) {
                    let fall = jumping::fall_odds(world, t, to, drop, 0);
                    shown.lines.push(format!("  and {}", fall_words(&fall, to)));
                }
            }
            _ => shown.lines.push(format!(
                "No tile behind {name} is free: it would stay, opened (V7.7)"
            )),
        },
        ManeuverKind::Grapple => {
            let landed = p.landed_degrees();
            let held = total(landed.iter().skip(2).copied());
            shown.lines.push(format!(
                "Grabbed {:.0}%, held {:.0}% (V7.6)",
                (p.hit - held).max(0.0) * 100.0,
                held * 100.0
            ));
        }
        _ => {}
    }
    if maneuvers::provokes(world, me, t, kind) {
        shown.lines.push(format!(
            "{name} strikes first: untrained, or unarmed against its blade (V7.2)"
        ));
    }
    shown.attack = Some(odds);
    shown
}

/// A fall foreseen at `at`, in words (V9.4, V9.5).
fn fall_words(f: &jumping::FallOdds, at: Pos) -> String {
    if f.chasm {
        return format!("falls into the chasm at {at}: dead (V9.5)");
    }
    format!(
        "falls {} m at {at}: fall check {:.0}% (DC {}) saves {} m; ~{:.1} damage, no armor \
         (V9.4)",
        f.metres,
        f.check * 100.0,
        f.dc,
        f.saved.min(f.metres),
        f.expected_damage()
    )
}

/// Aiming a jump at `tile` (V9.2, V9.3): the exact chances to land, to
/// land prone and to fail, where a failure ends, and any fall either way.
pub(super) fn aim_jump(
    world: &mut World,
    me: Entity,
    tile: Pos,
    marks: &mut HashMap<Pos, Color>,
    words: &mut OverlayMarks,
) -> Shown {
    let mut shown = Shown::default();
    let odds = match jumping::jump_odds(world, me, tile) {
        Ok(odds) => odds,
        Err(r) => {
            shown.refused(format!("Cannot jump to {tile}"), r);
            return shown;
        }
    };
    let plan = odds.plan;
    shown.lines.push(format!(
        "Jump to {tile}: 1 AP, {} tiles, rise {} m: d20 {:+} vs DC {} (V9.3)",
        plan.distance,
        plan.rise,
        plan.bonus,
        plan.dc()
    ));
    let pct = |p: f64| format!("{:.0}%", p * 100.0);
    shown.lines.push(format!(
        "  lands {}, off-balance (prone) {}, fails {}",
        pct(odds.landed),
        pct(odds.off_balance),
        pct(odds.failed)
    ));
    if let Some(f) = &odds.landing_fall {
        shown
            .lines
            .push(format!("  landing, it {}", fall_words(f, tile)));
    }
    if odds.failed > 0.0 {
        let end = match odds.failed_as {
            JumpOutcome::Stayed => "stays at the takeoff, the AP spent".to_string(),
            JumpOutcome::Short => format!("comes down short at {}, prone", odds.failed_at),
            _ => match &odds.failing_fall {
                Some(f) => fall_words(f, odds.failed_at),
                None => format!("falls at {}", odds.failed_at),
            },
        };
        shown.lines.push(format!("  failing, it {end}"));
        if odds.failed_at != plan.from {
            marks.insert(odds.failed_at, super::overlays::tint::FALL);
            words.labels.push((odds.failed_at, pct(odds.failed)));
        }
    }
    marks.insert(tile, super::overlays::tint::JUMP);
    words
        .labels
        .push((tile, pct(odds.landed + odds.off_balance)));
    words
        .links
        .push((plan.from, tile, super::overlays::tint::JUMP));
    shown
}
