//! Where each unit's body lies: its tile, its footprint, the mount it
//! rides, and [`body_of`], the question every rule about tiles asks of
//! them, read through a query kept per world.

use crate::grid::{Body, Dir, Pos};
use crate::recent::Recent;
use bevy::ecs::world::WorldId;
use bevy::prelude::*;

/// The tile a unit or an object is on (R0.1).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridPos(pub Pos);

/// The side of the square a unit fills (V10.6): 1, or with size (V10) 2
/// for Large and 3 for Huge. Its [`GridPos`] is the square's north-west
/// tile.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint(pub i32);

/// On a rider: the mount it rides (V12.1), and the tile and facing the
/// pair last shared, so that whichever of the two a rule moves, the other
/// follows ([`carry`](crate::battle::carry)).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Riding {
    /// The mount.
    pub mount: Entity,
    /// The pair's anchor when last together.
    pub at: Pos,
    /// The pair's facing when last together.
    pub facing: Dir,
}

/// What a body is read from: a unit's mount, tile and footprint.
type BodyParts = (
    Option<&'static Riding>,
    Option<&'static GridPos>,
    Option<&'static Footprint>,
);

/// Worlds whose body queries a thread keeps (a battle and its look-ahead
/// copy, with room).
const KEPT_WORLDS: usize = 4;

thread_local! {
    /// A query of [`BodyParts`] for each of the last worlds this thread
    /// read bodies in. Every gathered attack asks the body of every unit
    /// (soft cover, grapples, flanks: 170 a gathering in a 16-a-side
    /// melee), and a query reads the parts where `World::get` first looks
    /// up each type's id (a fifth of a look-ahead decision's instructions
    /// on 64×64, by callgrind).
    static BODY_QUERIES: std::cell::RefCell<Recent<WorldId, QueryState<BodyParts>>> =
        const { std::cell::RefCell::new(Recent::new(KEPT_WORLDS)) };
}

/// The tiles `unit` fills: its [`GridPos`] and [`Footprint`] (one tile
/// without one); a rider's are its mount's.
pub fn body_of(world: &World, unit: Entity) -> Option<Body> {
    with_query(world, |query| walk(world, query, unit))
}

/// The bodies of those of `units` that have one, in their order: what
/// [`body_of`] says of each, with the world's query made ready once for
/// all of them. The rules that scan the whole roster at every gathered
/// attack (soft cover R6.3, flanks R4.5, firing into melee R6.4 and V13's
/// shooting in melee) read it so.
pub fn bodies_of(world: &World, units: impl IntoIterator<Item = Entity>) -> Vec<(Entity, Body)> {
    let units = units.into_iter();
    // Room for every unit asked at once: a filtered roster tells no exact
    // length, and growing the list four times over for a 16-a-side battle
    // was a twentieth of a look-ahead decision on 64×64 (callgrind).
    let mut out = Vec::with_capacity(units.size_hint().1.unwrap_or(0));
    with_query(world, |query| {
        out.extend(units.filter_map(|e| Some((e, walk(world, query, e)?))));
    });
    out
}

/// Runs `read` with `world`'s body query, brought up to date with the
/// world's archetypes (none in a world without one).
fn with_query<T>(world: &World, read: impl FnOnce(Option<&QueryState<BodyParts>>) -> T) -> T {
    BODY_QUERIES.with(|queries| {
        let mut queries = queries.borrow_mut();
        // None in a world where one of the parts was never registered.
        let query = queries
            .get_or_try_insert_with(
                |id| *id == world.id(),
                || Some((world.id(), world.try_query::<BodyParts>()?)),
            )
            .map(|q| {
                q.update_archetypes(world);
                &*q
            });
        read(query)
    })
}

/// The body of `unit`, walking from a rider to its mount (V12.1); its
/// parts read through `query`, or part by part in a world without one.
fn walk(world: &World, query: Option<&QueryState<BodyParts>>, unit: Entity) -> Option<Body> {
    let parts = |e: Entity| match query {
        Some(q) => q
            .get_manual(world, e)
            .ok()
            .map(|(r, at, n)| (r.map(|r| r.mount), at.map(|p| p.0), n.map(|f| f.0))),
        None => world.get_entity(e).ok().map(|e| {
            (
                e.get::<Riding>().map(|r| r.mount),
                e.get::<GridPos>().map(|p| p.0),
                e.get::<Footprint>().map(|f| f.0),
            )
        }),
    };
    let (mut mount, mut tile, mut side) = parts(unit)?;
    // A rider fills its mount's tiles (V12.1).
    while let Some(m) = mount {
        (mount, tile, side) = parts(m)?;
    }
    Some(Body::new(tile?, side.unwrap_or(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Pos;

    fn unit(world: &mut World, at: Pos, n: i32) -> Entity {
        world.spawn((GridPos(at), Footprint(n))).id()
    }

    /// Each world's bodies from its own query, however the calls between
    /// worlds interleave and whatever ids their entities share; a rider's
    /// body is its mount's (V12.1); a world where `Riding` was never
    /// registered is read part by part.
    #[test]
    fn each_world_reads_its_own_bodies() {
        let mut worlds: Vec<World> = (0..KEPT_WORLDS + 2).map(|_| World::new()).collect();
        let mut units = vec![];
        for (i, w) in worlds.iter_mut().enumerate() {
            if i % 2 == 0 {
                w.register_component::<Riding>();
            }
            let i = i as i32;
            let a = unit(w, Pos::new(i, 2 * i), 1);
            let mount = unit(w, Pos::new(10 + i, 3), 2);
            let rider = w.spawn(GridPos(Pos::new(0, 0))).id();
            if i % 2 == 0 {
                w.entity_mut(rider).insert(Riding {
                    mount,
                    at: Pos::new(10 + i, 3),
                    facing: crate::grid::Dir::ALL[0],
                });
            }
            units.push((a, mount, rider));
        }
        for _ in 0..2 {
            for (i, (w, &(a, mount, rider))) in worlds.iter().zip(&units).enumerate().rev() {
                let i = i as i32;
                assert_eq!(body_of(w, a), Some(Body::new(Pos::new(i, 2 * i), 1)));
                assert_eq!(body_of(w, mount), Some(Body::new(Pos::new(10 + i, 3), 2)));
                let ridden = if i % 2 == 0 {
                    Body::new(Pos::new(10 + i, 3), 2)
                } else {
                    Body::new(Pos::new(0, 0), 1)
                };
                assert_eq!(body_of(w, rider), Some(ridden));
            }
        }
        // A unit that moved is read where it stands now.
        let (a, ..) = units[0];
        worlds[0].entity_mut(a).insert(GridPos(Pos::new(7, 7)));
        assert_eq!(body_of(&worlds[0], a), Some(Body::new(Pos::new(7, 7), 1)));
        // An entity without a tile, or gone, has no body.
        let bare = worlds[0].spawn_empty().id();
        assert_eq!(body_of(&worlds[0], bare), None);
        worlds[0].despawn(bare);
        assert_eq!(body_of(&worlds[0], bare), None);
    }

    /// Many bodies at once are each unit's [`body_of`], in the order
    /// asked, a unit without a tile left out; a rider's is its mount's
    /// (V12.1), with the query and part by part alike.
    #[test]
    fn bodies_at_once_are_each_units_body_in_order() {
        for with_riders in [true, false] {
            let mut w = World::new();
            if with_riders {
                w.register_component::<Riding>();
            }
            let mount = unit(&mut w, Pos::new(4, 4), 2);
            let a = unit(&mut w, Pos::new(1, 2), 1);
            let bare = w.spawn_empty().id();
            let rider = w.spawn(GridPos(Pos::new(0, 0))).id();
            if with_riders {
                w.entity_mut(rider).insert(Riding {
                    mount,
                    at: Pos::new(4, 4),
                    facing: crate::grid::Dir::ALL[0],
                });
            }
            let asked = [rider, bare, a, mount];
            let expected: Vec<(Entity, Body)> = asked
                .iter()
                .filter_map(|&e| Some((e, body_of(&w, e)?)))
                .collect();
            assert_eq!(bodies_of(&w, asked), expected);
            assert_eq!(expected.len(), 3, "the bare entity has no body");
            let ridden = if with_riders {
                Body::new(Pos::new(4, 4), 2)
            } else {
                Body::tile(Pos::new(0, 0))
            };
            assert_eq!(expected[0], (rider, ridden));
        }
    }
}
