//! V11.6 fields and zones (004:143–145, 158–159): a spell with the `Field`
//! or `Zone` keyword lies on the tiles within its radius of the tile aimed
//! at. A field acts on a unit for each of its tiles the unit enters, a zone
//! once as the unit comes into it, and both on a unit that starts its turn
//! there. Each trigger is the spell's effect: a save against the DC the
//! cast set (*decision*: the caster rolls once, at the cast), then the
//! damage, rolled for that trigger. It lasts while its caster concentrates,
//! or for its `duration` in rounds, else the whole battle (*decision*:
//! 004's one-Phase ethereal lifetime outlasts any battle).

use super::casting::{Casting, has_focus};
use super::held::fade;
use crate::battle::{Battlefield, UnitId, body_of, side_of_body};
use crate::format::{Keyword, Spell};
use crate::grid::{Body, Pos};
use crate::rules::events::{BattleEvent, Faded, SpellEvent, emit, id_of};
use crate::rules::motion::movement::{Entering, TileEntered};
use crate::rules::turns::turn::{RoundBegins, TurnOpened, TurnState};
use bevy::prelude::*;

pub use super::held::{Field, Fields};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Fields>()
        .add_systems(TileEntered, set_off_on_entering.run_if(any_fields))
        .add_systems(TurnOpened, set_off_at_turn_start.run_if(any_fields))
        .add_systems(RoundBegins, fade_with_the_rounds.run_if(any_fields));
}

fn any_fields(fields: Option<Res<Fields>>) -> bool {
    fields.is_some_and(|f| !f.0.is_empty())
}

/// Whether `spell` lies on the ground (a field or a zone) rather than
/// acting at once.
pub fn lies_on_the_ground(spell: &Spell) -> bool {
    spell.has(Keyword::Field) || spell.has(Keyword::Zone)
}

/// The tiles a field of `spell` aimed at `at` covers (R0.3 distance).
pub fn tiles_of(world: &World, spell: &Spell, at: Pos) -> Vec<Pos> {
    let map = &world.resource::<Battlefield>().0.map;
    crate::rules::throws::throw::splash_tiles(map, at, spell.radius.max(0))
}

/// Lays the field or zone of the Cast `c`: a save spell's caster rolls its
/// DC now (V11.3), once for every trigger to come.
pub fn lay(world: &mut World, c: &Casting) {
    let (dc, focused) = if c.spell.kind.saved() {
        let (dc, focused) = super::effects::caster_roll(world, c);
        (Some(dc), focused)
    } else {
        (None, has_focus(world, c.caster))
    };
    let field = Field {
        caster: id_of(world, c.caster),
        spell: c.spell.name.clone(),
        level: c.level,
        tiles: tiles_of(world, &c.spell, c.at),
        zone: c.spell.has(Keyword::Zone) && !c.spell.has(Keyword::Field),
        dc,
        focused,
        held: c.spell.has(Keyword::Concentration),
        rounds_left: c.spell.duration,
    };
    let event = SpellEvent::Conjured {
        unit: field.caster,
        spell: field.spell.clone(),
        level: field.level,
        tiles: field.tiles.clone(),
        zone: field.zone,
        dc,
        rounds: field.rounds_left,
    };
    world.resource_mut::<Fields>().0.push(field);
    emit(world, BattleEvent::Spell(event));
}

/// As each round begins, fields with a duration count one down and those
/// at 0 end.
fn fade_with_the_rounds(world: &mut World) {
    let mut fields = world.resource_mut::<Fields>();
    for f in &mut fields.0 {
        if let Some(n) = &mut f.rounds_left {
            *n = n.saturating_sub(1);
        }
    }
    fade(world, Faded::Expired, |f| f.rounds_left == Some(0));
}

/// A unit's step sets off each field whose tiles it enters, and each zone
/// it comes into (V11.6).
fn set_off_on_entering(world: &mut World) {
    let Some(step) = world.get_resource::<Entering>().copied() else {
        return;
    };
    let n = side_of_body(world, step.unit);
    let (old, new) = (Body::new(step.from, n), Body::new(step.to, n));
    let fields = world.resource::<Fields>().0.clone();
    for field in fields {
        let inside = |b: Body| b.tiles().any(|t| field.tiles.contains(&t));
        let sets_off = if field.zone {
            inside(new) && !inside(old)
        } else {
            new.tiles()
                .any(|t| !old.contains(t) && field.tiles.contains(&t))
        };
        if sets_off {
            set_off(world, &field, step.unit, step.to, false);
            if crate::battle::out_of_action(world, step.unit) {
                return;
            }
        }
    }
}

/// A unit that starts its turn in a field or zone sets it off (V11.6).
fn set_off_at_turn_start(world: &mut World) {
    let Some(unit) = world.resource::<TurnState>().current else {
        return;
    };
    let Some(body) = body_of(world, unit) else {
        return;
    };
    let fields = world.resource::<Fields>().0.clone();
    for field in fields {
        if body.tiles().any(|t| field.tiles.contains(&t)) {
            set_off(world, &field, unit, body.at, true);
            if crate::battle::out_of_action(world, unit) {
                return;
            }
        }
    }
}

/// `field` acts on `unit` (V11.6): told, then its save and its effect.
fn set_off(world: &mut World, field: &Field, unit: Entity, at: Pos, turn_start: bool) {
    let catalog = &world.resource::<Battlefield>().0.catalog;
    let Some(spell) = catalog.spell(&field.spell).cloned() else {
        return;
    };
    let Some(caster) = crate::battle::units(world)
        .into_iter()
        .find(|e| world.get::<UnitId>(*e) == Some(&field.caster))
    else {
        return;
    };
    let id = id_of(world, unit);
    let event = SpellEvent::Triggered {
        unit: id,
        spell: spell.name.clone(),
        at,
        turn_start,
    };
    emit(world, BattleEvent::Spell(event));
    if let Some(dc) = field.dc {
        let save = spell.save.unwrap_or_default();
        if super::effects::save_against(world, unit, save, dc, field.focused) {
            return;
        }
    }
    let c = Casting {
        caster,
        spell,
        level: field.level,
        at,
        target: Some(unit),
    };
    let harm = super::effects::harm(world, &c);
    super::effects::befall(world, &c, unit, &harm);
}
