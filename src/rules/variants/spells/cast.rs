//! V11.1 Cast: 1 AP (R3.1's table), at most one a turn (000:46), provoking
//! at range like a shot (R8.2, *decision*); V11.2 its MP, Fib(level + 1),
//! between the spell's level and its upcast; V11.8 arms too hurt to cast
//! (with V3). What the rules refuse, they refuse here, citing the rule.

use super::casting::{Casting, reach_of};
use super::switch::on;
use crate::battle::{GridPos, Mp, Stats, name_of, unit_named};
use crate::format::{BodyPart, Severity, SpellKind, mp_cost};
use crate::grid::Pos;
use crate::rules::command::{Command, CommandKind, Refusal, ThrowTarget};
use crate::rules::events::{BattleEvent, SpellEvent, Trigger, emit, id_of};
use crate::rules::pipeline::{Pending, handle};
use crate::rules::rule::Rule;
use crate::rules::turns::turn::{TurnBegins, TurnState};
use bevy::prelude::*;

/// The unit cast a spell this turn (V11.1).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CastThisTurn;

pub(super) fn plugin(app: &mut App) {
    handle(app, CommandKind::Cast, validate_cast, make_cast);
    app.add_systems(
        TurnBegins,
        forget_the_last_cast.run_if(super::switch::switched_on),
    );
}

/// Reads a Cast of `caster`, or says why the rules refuse it (V11.1,
/// V11.2, V11.3, V11.8; R6.1 for a line of effect).
pub fn casting(
    world: &World,
    caster: Entity,
    spell: &str,
    level: Option<i32>,
    at: &ThrowTarget,
) -> Result<Casting, Refusal> {
    let who = name_of(world, caster);
    if !on(world) {
        return Err(Refusal::new(
            Rule::V11,
            "a Cast needs spells (V11): the level's rules: (spells: true)",
        ));
    }
    let template = &world
        .get::<Stats>(caster)
        .expect("units have stats")
        .template;
    let catalog = &world.resource::<crate::battle::Battlefield>().0.catalog;
    let known = template.spells.iter().any(|s| s == spell);
    let Some(spell) = catalog.spell(spell).filter(|_| known).cloned() else {
        return Err(Refusal::new(
            Rule::V11_1,
            format!("{who} knows no spell \"{spell}\""),
        ));
    };
    if spell.kind == SpellKind::Defense {
        return Err(Refusal::new(
            Rule::V11_3,
            format!(
                "{} is a Defense spell: it is cast against an attack, as a reaction",
                spell.name
            ),
        ));
    }
    let level = level.unwrap_or(spell.level);
    if level < spell.level || level > spell.top() {
        return Err(Refusal::new(
            Rule::V11_2,
            format!(
                "{} is cast at level {} to {}, not {level}",
                spell.name,
                spell.level,
                spell.top()
            ),
        ));
    }
    let (mp, cost) = (world.get::<Mp>(caster).map_or(0, |m| m.0), mp_cost(level));
    if cost > mp {
        return Err(Refusal::new(
            Rule::V11_2,
            format!(
                "{} at level {level} costs {cost} MP, {who} has {mp}",
                spell.name
            ),
        ));
    }
    if world.entity(caster).contains::<CastThisTurn>() {
        return Err(Refusal::new(
            Rule::V11_1,
            format!("{who} has cast a spell this turn already: one a turn"),
        ));
    }
    if arms_too_hurt(world, caster) {
        return Err(Refusal::new(
            Rule::V11_8,
            format!("{who}'s arms are too hurt to cast (V3)"),
        ));
    }
    let (tile, target) = match at {
        ThrowTarget::Tile(p) => (*p, None),
        ThrowTarget::Unit(name) => {
            let t = unit_named(world, name)
                .ok_or_else(|| Refusal::unknown(format!("unit \"{name}\"")))?;
            (
                world.get::<GridPos>(t).map_or(Pos::default(), |p| p.0),
                Some(t),
            )
        }
    };
    if spell.kind == SpellKind::Projectile && target.is_none() {
        return Err(Refusal::new(
            Rule::V11_3,
            format!("{} is a spell attack: it is aimed at a unit", spell.name),
        ));
    }
    let from = world.get::<GridPos>(caster).map_or(Pos::default(), |p| p.0);
    let map = &world.resource::<crate::battle::Battlefield>().0.map;
    if !map.contains(tile) {
        return Err(Refusal::new(Rule::R0_1, format!("{tile} is off the map")));
    }
    let (distance, reach) = (from.distance(tile), reach_of(&spell));
    if distance > reach {
        return Err(Refusal::new(
            Rule::V11_1,
            format!(
                "{tile} is {distance} tiles away; {} reaches {reach}",
                spell.name
            ),
        ));
    }
    if distance > 1 && !crate::rules::sight::line_of_effect::sight(map, from, tile).clear {
        return Err(Refusal::new(
            Rule::R6_1,
            format!("no line of effect to {tile}"),
        ));
    }
    Ok(Casting {
        caster,
        spell,
        level,
        at: tile,
        target,
    })
}

fn cast_args(world: &World) -> Option<(Entity, String, Option<i32>, ThrowTarget)> {
    let pending = world.resource::<Pending>();
    match (&pending.command, pending.actor) {
        (
            Some(Command::Cast {
                spell, level, at, ..
            }),
            Some(a),
        ) => Some((a, spell.clone(), *level, at.clone())),
        _ => None,
    }
}

fn validate_cast(world: &mut World) {
    let Some((caster, spell, level, at)) = cast_args(world) else {
        return;
    };
    if let Err(r) = casting(world, caster, &spell, level, &at) {
        world.resource_mut::<Pending>().refuse(r);
    }
}

/// Whether `unit`'s arms carry the weapon-dropping injury (two major arm
/// injuries, V3): it cannot cast (V11.8).
pub fn arms_too_hurt(world: &World, unit: Entity) -> bool {
    world
        .get::<crate::rules::variants::injuries::Injuries>(unit)
        .is_some_and(|i| i.count(BodyPart::Arms, Severity::Major) >= 2)
}

/// The cast: MP paid and told, a ranged spell provokes first (R8.2), a
/// spell of concentration is taken up, then the spell does what its kind
/// says ([`super::effects::resolve`]).
fn make_cast(world: &mut World) {
    let Some((caster, spell, level, at)) = cast_args(world) else {
        return;
    };
    let Ok(c) = casting(world, caster, &spell, level, &at) else {
        return;
    };
    let cost = mp_cost(c.level);
    let mp_left = world.get::<Mp>(caster).map_or(0, |m| m.0) - cost;
    world.entity_mut(caster).insert((Mp(mp_left), CastThisTurn));
    let unit = id_of(world, caster);
    let cast = SpellEvent::Cast {
        unit,
        spell: c.spell.name.clone(),
        level: c.level,
        mp: cost,
        mp_left,
        at: c.at,
    };
    emit(world, BattleEvent::Spell(cast));
    let ranged = c.spell.range.is_some() && !c.spell.touch;
    if ranged && !crate::rules::reactions::reactive_attack::provoke(world, caster, Trigger::Cast) {
        world.resource_mut::<Pending>().interrupted = true;
        return;
    }
    if c.spell.has(crate::format::Keyword::Concentration) {
        super::concentration::begin(world, caster, &c.spell.name);
    }
    resolve(world, &c);
}

/// What the Cast `c` does, by its spell's kind (V11.3); a field or zone
/// lies on the ground instead, to act on whoever sets it off (V11.6).
fn resolve(world: &mut World, c: &Casting) {
    if super::fields::lies_on_the_ground(&c.spell) {
        super::fields::lay(world, c);
        return;
    }
    match c.spell.kind {
        SpellKind::Projectile => super::effects::spell_attack(world, c),
        SpellKind::Attack | SpellKind::Determined | SpellKind::DeterminedPlus => {
            super::effects::saved_spell(world, c)
        }
        SpellKind::Surecast => {
            let targets = super::effects::targets(world, c);
            let harm = super::effects::harm(world, c);
            for t in targets {
                super::effects::befall(world, c, t, &harm);
            }
        }
        SpellKind::Defense => {}
    }
}

/// As a unit's turn begins it may cast again (V11.1).
fn forget_the_last_cast(world: &mut World) {
    if let Some(unit) = world.resource::<TurnState>().current {
        world.entity_mut(unit).remove::<CastThisTurn>();
    }
}
