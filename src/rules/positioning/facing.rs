//! R4.1–R4.3 facing: the front and rear arcs, turning (Face), attacks only
//! into the front arc, and the rear attack.

use crate::battle::{Facing, body_of};
use crate::grid::{Body, Dir, Pos};
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
    in_front_of(Body::tile(pos), facing, tile)
}

/// R4.1 for a body of any size (V10.6): the arc turns about the footprint's
/// centre, `dot(facing, 2·tile − c₂) ≥ 0` in doubled coordinates, exact.
pub fn in_front_of(body: Body, facing: Dir, tile: Pos) -> bool {
    let (fx, fy) = facing.delta();
    let c = body.centre2();
    (2 * tile.x - c.x) * fx + (2 * tile.y - c.y) * fy >= 0
}

/// Turns `unit` towards `target` (R4.2: free on its own turn), centre to
/// centre (V10.6).
pub fn face_towards(world: &mut World, unit: Entity, target: Entity) {
    let (Some(a), Some(b)) = (body_of(world, unit), body_of(world, target)) else {
        return;
    };
    if let Some(dir) = Dir::towards(a.centre2(), b.centre2())
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

/// True when an attack from the tile `from` comes from the rear arc of
/// `target`.
pub fn is_rear_attack(world: &World, from: Pos, target: Entity) -> bool {
    match (body_of(world, target), world.get::<Facing>(target)) {
        (Some(b), Some(f)) => !in_front_of(b, f.0, from),
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
/// The attack comes from the attacker's tile nearest the target's centre
/// (V10.6).
fn add_rear_attack(mut draft: ResMut<AttackDraft>, units: Query<&Facing>) {
    if let Ok(f) = units.get(draft.target)
        && !in_front_of(draft.target_body(), f.0, draft.from_tile())
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

    #[test]
    fn a_big_body_turns_about_its_centre() {
        // V10.6: a 2×2 body at (4, 4) facing N turns about (4.5, 4.5): the
        // tiles beside its upper row are in front, beside its lower row
        // behind (an even body has no tile on the arc's edge).
        let ogre = Body::new(Pos::new(4, 4), 2);
        for t in [(3, 4), (6, 4), (4, 3), (6, 3)] {
            assert!(in_front_of(ogre, Dir::N, Pos::new(t.0, t.1)), "{t:?}");
        }
        for t in [(3, 5), (6, 5), (3, 6), (5, 6), (6, 6)] {
            assert!(!in_front_of(ogre, Dir::N, Pos::new(t.0, t.1)), "{t:?}");
        }
        // A 3×3 facing E: its middle column is the edge of the arc.
        let giant = Body::new(Pos::new(0, 0), 3);
        assert!(in_front_of(giant, Dir::E, Pos::new(1, 3)));
        assert!(!in_front_of(giant, Dir::E, Pos::new(0, 3)));
    }
}
