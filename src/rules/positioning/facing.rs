//! R4.1–R4.3 facing: the front and rear arcs, turning (Face), attacks only
//! into the front arc, and the rear attack.

use crate::battle::{Facing, GridPos};
use crate::grid::{Dir, Pos};
use crate::rules::command::Command;
use crate::rules::command::CommandKind;
use crate::rules::events::{BattleEvent, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::CommandSystems;
use crate::rules::pipeline::Handles;
use crate::rules::pipeline::Pending;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        crate::rules::pipeline::CommandSchedule,
        execute_face
            .in_set(Handles(CommandKind::Face))
            .in_set(CommandSystems::Execute),
    )
    .add_systems(
        AttackSchedule,
        add_rear_attack.in_set(AttackSystems::Situational),
    );
}

/// R4.1: `tile` is in the front arc of a unit at `pos` facing `facing` when
/// `dot(facing, tile − pos) ≥ 0` (the tiles beside included).
pub fn in_front_arc(pos: Pos, facing: Dir, tile: Pos) -> bool {
    let (fx, fy) = facing.delta();
    (tile.x - pos.x) * fx + (tile.y - pos.y) * fy >= 0
}

/// Turns `unit` towards `target` (R4.2: free on its own turn).
pub fn face_towards(world: &mut World, unit: Entity, target: Entity) {
    let (Some(a), Some(b)) = (world.get::<GridPos>(unit), world.get::<GridPos>(target)) else {
        return;
    };
    if let Some(dir) = Dir::towards(a.0, b.0)
        && let Some(mut f) = world.get_mut::<Facing>(unit)
        && f.0 != dir
    {
        f.0 = dir;
        let unit = id_of(world, unit);
        emit(
            world,
            BattleEvent::Faced {
                unit,
                dir,
                by_command: false,
            },
        );
    }
}

/// True when an attack from `from` comes from the rear arc of `target`.
pub fn is_rear_attack(world: &World, from: Pos, target: Entity) -> bool {
    match (world.get::<GridPos>(target), world.get::<Facing>(target)) {
        (Some(p), Some(f)) => !in_front_arc(p.0, f.0, from),
        _ => false,
    }
}

fn execute_face(world: &mut World) {
    let pending = world.resource::<Pending>();
    let (Some(Command::Face { dir, .. }), Some(actor)) = (pending.command.clone(), pending.actor)
    else {
        return;
    };
    if let Some(mut f) = world.get_mut::<Facing>(actor) {
        f.0 = dir;
    }
    let unit = id_of(world, actor);
    emit(
        world,
        BattleEvent::Faced {
            unit,
            dir,
            by_command: true,
        },
    );
}

/// R4.3: an attack from the target's rear arc has +1 advantage (and no
/// shield DV or parry, see `defend.rs`).
fn add_rear_attack(mut draft: ResMut<AttackDraft>, units: Query<(&GridPos, &Facing)>) {
    if let Ok((p, f)) = units.get(draft.target)
        && !in_front_arc(p.0, f.0, draft.from)
    {
        draft.push(Effect::Advantage(1), "rear attack", Rule::R4_3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_north_front_and_rear() {
        let o = Pos::new(5, 5);
        for d in [Dir::NW, Dir::N, Dir::NE, Dir::W, Dir::E] {
            assert!(in_front_arc(o, Dir::N, o.step(d)), "{d:?} is front");
        }
        for d in [Dir::SW, Dir::S, Dir::SE] {
            assert!(!in_front_arc(o, Dir::N, o.step(d)), "{d:?} is rear");
        }
    }
}
