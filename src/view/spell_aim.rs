//! What hovering a tile with a spell armed shows (V11), from the rules' own
//! numbers ([`cast_odds`], the same odds the AI weighs and the dice roll):
//! the area (its radius, or a field's or zone's tiles), every unit inside
//! it marked, allies too, and for each the chance the spell takes hold (a
//! hit, a failed save), the damage through its armor and the chance it
//! drops; the cast's AP and MP; why the rules would refuse it.

use super::aims::Shown;
use super::overlays::OverlayMarks;
use super::spell_armed::aim_at;
use crate::battle::{Mp, Side, name_of};
use crate::format::{SpellEffect, SpellKind, mp_cost};
use crate::grid::Pos;
use crate::rules::command::{Command, ThrowTarget};
use crate::rules::variants::spells::cast::casting;
use crate::rules::variants::spells::fields::{lies_on_the_ground, tiles_of};
use crate::rules::variants::spells::odds::{SpellOdds, cast_odds};
use bevy::prelude::*;
use std::collections::HashMap;

/// The tint of a spell's area.
pub const AREA: Color = Color::srgba(0.65, 0.4, 1.0, 0.45);
/// The tint of an enemy the spell reaches.
const FOE: Color = Color::srgba(1.0, 0.3, 0.45, 0.6);
/// The tint of an ally the spell reaches.
const FRIEND: Color = Color::srgba(0.3, 0.7, 1.0, 0.6);

/// Aiming `spell` at `level` at `tile` for `me`.
pub(super) fn aim_spell(
    world: &mut World,
    me: Entity,
    tile: Pos,
    (spell, level): (&str, i32),
    marks: &mut HashMap<Pos, Color>,
    words: &mut OverlayMarks,
) -> Shown {
    let mut shown = Shown::default();
    let at = aim_at(world, tile);
    let c = match casting(world, me, spell, Some(level), &at) {
        Ok(c) => c,
        Err(r) => {
            shown.refused(format!("Cannot cast {spell} at {tile}"), r);
            marks.insert(tile, Color::srgba(0.6, 0.6, 0.6, 0.35));
            return shown;
        }
    };
    let command = Command::Cast {
        unit: name_of(world, me),
        spell: spell.to_string(),
        level: Some(level),
        at: at.clone(),
    };
    // The AP, a cast already made this turn: the rules' own check.
    if let Err(r) = crate::rules::pipeline::check(world, command) {
        shown.refused(format!("Cannot cast {spell} now"), r);
    }
    let target = match &at {
        ThrowTarget::Unit(name) => name.clone(),
        ThrowTarget::Tile(t) => format!("{t}"),
    };
    let mp = world.get::<Mp>(me).map_or(0, |m| m.0);
    shown.lines.insert(
        0,
        format!(
            "Cast {spell} at level {level} on {target}: 1 AP, {} MP of {mp} (V11.1, V11.2)",
            mp_cost(level)
        ),
    );
    let ground = lies_on_the_ground(&c.spell);
    let area = if c.spell.radius > 0 || ground {
        tiles_of(world, &c.spell, c.at)
    } else {
        vec![c.at]
    };
    for t in &area {
        marks.insert(*t, AREA);
    }
    if ground {
        let how = if c.spell.has(crate::format::Keyword::Zone) {
            "once on coming in"
        } else {
            "on each of its tiles entered"
        };
        let lasts = match c.spell.duration {
            _ if c.spell.has(crate::format::Keyword::Concentration) => "while held".to_string(),
            Some(n) => format!("{n} rounds"),
            None => "the whole battle".to_string(),
        };
        shown.lines.push(format!(
            "  lies on {} tiles, {lasts}: it acts {how} and on each turn begun there; the odds \
             below are each time (V11.6)",
            area.len()
        ));
    }
    if let Some(held) =
        world.get::<crate::rules::variants::spells::concentration::Concentrating>(me)
        && c.spell.has(crate::format::Keyword::Concentration)
    {
        shown.lines.push(format!(
            "  ends {}: one spell held at a time (V11.5)",
            held.0
        ));
    }
    let odds = cast_odds(world, &c);
    if odds.is_empty() {
        shown.lines.push("  reaches nobody now".into());
    }
    let side = world.get::<Side>(me).copied();
    for o in &odds {
        let friend = world.get::<Side>(o.unit).copied() == side;
        super::footprints::mark_body(world, o.unit, marks, if friend { FRIEND } else { FOE });
        let (line, label) = tell(&c.spell, o);
        let who = name_of(world, o.unit);
        let whose = if friend { " (ally)" } else { "" };
        shown.lines.push(format!("  {who}{whose}: {line}"));
        if let Some(at) = crate::battle::body_of(world, o.unit).map(|b| b.at) {
            words.labels.push((at, label));
        }
    }
    shown
}

/// One unit's odds in words: the line for the side panel and the label
/// over its tile.
fn tell(spell: &crate::format::Spell, o: &SpellOdds) -> (String, String) {
    // (A sum of chances a hair under 0 prints as "-0%".)
    let pct = |p: f64| format!("{:.0}%", (p * 100.0).max(0.0));
    if let SpellEffect::Heal(d) = &spell.effect {
        return (
            format!("heals {d} a level (R10.5)"),
            format!("heal {}", pct(o.affects)),
        );
    }
    let verb = match spell.kind {
        SpellKind::Projectile => "hit",
        SpellKind::Surecast => "takes hold",
        _ => "fails its save",
    };
    let mut line = format!("{verb} {}", pct(o.affects));
    let mut label = if spell.kind.saved() {
        format!("fails {}", pct(o.affects))
    } else {
        format!("{verb} {}", pct(o.affects))
    };
    if !o.damage.is_empty() {
        line += &format!(
            ", {:.1} damage through AR {}, drop {}",
            o.harm(),
            o.ar,
            pct(o.drop())
        );
        label += &format!("\n{:.1} dmg", o.harm());
        if o.drop() > 0.0 {
            label += &format!(" drop {}", pct(o.drop()));
        }
    }
    match spell.effect {
        SpellEffect::Prone => line += ", knocked prone",
        SpellEffect::Grabbed => line += ", held fast (V7.6)",
        _ => {}
    }
    (line, label)
}
