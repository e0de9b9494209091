//! The battle as ECS: the components and resources a level turns into, and
//! the questions every rule asks of them (who is a unit, who is in action).
//! The rules change them; `setup.rs` spawns them.
//!
//! Nothing here renders: the view only reads what the rules keep here.

use crate::format::UnitTemplate;
use crate::grid::{Body, Dir, Pos};
use crate::load::ValidLevel;
use bevy::prelude::*;

/// Stable id of a unit: its index in the level's unit list. Saves, replays
/// and logs use it (or the unit's name), never an [`Entity`].
#[derive(
    Component,
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct UnitId(pub u32);

pub use crate::bodies::{Footprint, GridPos, Riding, bodies_of, body_of};

/// The side of `unit`'s footprint (1 without one).
pub fn side_of_body(world: &World, unit: Entity) -> i32 {
    let unit = mount_of(world, unit).unwrap_or(unit);
    world.get::<Footprint>(unit).map_or(1, |f| f.0)
}

/// True when the bodies of `a` and `b` stand side by side: adjacent
/// (R0.3), one tile of each a step apart (V10.6).
pub fn beside(world: &World, a: Entity, b: Entity) -> bool {
    matches!((body_of(world, a), body_of(world, b)), (Some(a), Some(b)) if a.gap(b) == 1)
}

/// The unit in action or not (not dead) whose body covers `tile`: of a
/// mounted pair (V12.1), the rider.
pub fn unit_on(world: &World, tile: Pos) -> Option<Entity> {
    let on = |e: &Entity| {
        !world.entity(*e).contains::<Dead>() && body_of(world, *e).is_some_and(|b| b.contains(tile))
    };
    let all = units(world);
    all.iter()
        .copied()
        .find(|e| on(e) && world.entity(*e).contains::<Riding>())
        .or_else(|| all.into_iter().find(on))
}

/// On a ridden mount: its rider (V12.1). The mount takes no turn of its
/// own while ridden; its attacks spend the rider's AP (V12.2).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ridden(pub Entity);

/// A rider's free Move this turn is still to take (V12.2).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeMove;

/// The pair has moved this turn (V12.3: the rider's attacks have +1
/// disadvantage).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rode;

/// The mount `rider` rides, if any (V12.1).
pub fn mount_of(world: &World, rider: Entity) -> Option<Entity> {
    world.get::<Riding>(rider).map(|r| r.mount)
}

/// The rider of `mount`, if any (V12.1).
pub fn rider_of(world: &World, mount: Entity) -> Option<Entity> {
    world.get::<Ridden>(mount).map(|r| r.0)
}

/// The other unit of `unit`'s mounted pair, if it is in one (V12.1).
pub fn partner(world: &World, unit: Entity) -> Option<Entity> {
    mount_of(world, unit).or_else(|| rider_of(world, unit))
}

/// Brings the other of `unit`'s pair to `unit`'s tile and facing (V12.1:
/// the rider stands on its mount's tiles): called where a rule moves or
/// turns one of them.
pub fn carry(world: &mut World, unit: Entity) {
    let Some(other) = partner(world, unit) else {
        return;
    };
    let (Some(at), Some(facing)) = (world.get::<GridPos>(unit), world.get::<Facing>(unit)) else {
        return;
    };
    let (at, facing) = (at.0, facing.0);
    world
        .entity_mut(other)
        .insert((GridPos(at), Facing(facing)));
    let rider = if world.entity(unit).contains::<Riding>() {
        unit
    } else {
        other
    };
    if let Some(mut r) = world.get_mut::<Riding>(rider) {
        r.at = at;
        r.facing = facing;
    }
}

/// Brings every pair together after a rule moved or turned one of them:
/// the one that changed since the pair last shared a tile leads.
pub fn carry_pairs(world: &mut World) {
    let riders: Vec<(Entity, Riding)> = units(world)
        .into_iter()
        .filter_map(|e| Some((e, *world.get::<Riding>(e)?)))
        .collect();
    for (rider, r) in riders {
        let at = |e: Entity| world.get::<GridPos>(e).map(|p| p.0);
        let facing = |e: Entity| world.get::<Facing>(e).map(|f| f.0);
        let rider_moved = at(rider) != Some(r.at) || facing(rider) != Some(r.facing);
        let mount_moved = at(r.mount) != Some(r.at) || facing(r.mount) != Some(r.facing);
        if rider_moved {
            carry(world, rider);
        } else if mount_moved {
            carry(world, r.mount);
        }
    }
}

/// The direction a unit faces (R4.1).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facing(pub Dir);

/// Index of a unit's side in the level's side list.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Side(pub usize);

/// A unit's numbers (R1): its kind's template with the level's overrides.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Stats {
    /// The unit kind's name.
    pub kind: String,
    /// The resolved numbers and gear.
    pub template: UnitTemplate,
}

/// Hit points (R1, R10).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Health {
    /// Current hit points, never below 0.
    pub hp: i32,
    /// Hit points at full health.
    pub max: i32,
}

/// An object lying on the ground (R9.5): a weapon or an item, by name.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct GroundObject {
    /// Its catalog name.
    pub name: String,
}

/// Every unit's entity, by id (its index) and by name. Units are never
/// despawned (the dead stay, marked [`Dead`]), so the roster never goes
/// stale; it spares the rules a query per lookup.
#[derive(Resource, Clone, Debug, Default)]
pub struct Roster {
    units: Vec<Entity>,
    by_name: std::collections::HashMap<String, Entity>,
}

impl Roster {
    /// Adds a unit; ids are given in order.
    pub fn add(&mut self, name: &str, entity: Entity) {
        self.units.push(entity);
        self.by_name.insert(name.to_string(), entity);
    }

    /// The unit called `name`.
    pub fn named(&self, name: &str) -> Option<Entity> {
        self.by_name.get(name).copied()
    }

    /// Every unit, in id order.
    pub fn units(&self) -> &[Entity] {
        &self.units
    }
}

/// The level being fought: terrain, sides, catalog and rules options.
/// Shared, never changed during a battle: cloning it is cheap.
#[derive(Resource, Clone, Debug)]
pub struct Battlefield(pub std::sync::Arc<ValidLevel>);

/// Armor reduction left (R1.2): armor AR + shield AR at the start; damage
/// takes from it first, and what is lost stays lost for the battle.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmorReduction(pub i32);

/// Stamina left for techniques (R7.8) and parries (R8.6).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamina(pub i32);

/// This turn's action economy (R3.1).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionPoints {
    /// AP left this turn (3 at its start, never below 0).
    pub ap: i32,
    /// The turn's free action (R3.1) is spent.
    pub free_used: bool,
    /// Attacks and throws made this turn, for the iterative penalty (R7.6).
    pub attacks: u32,
    /// Defend was taken this turn: no more Attack or Throw (R3 table).
    pub defended: bool,
}

/// The most AP a unit may owe for its interrupts under die ranks (V6.6
/// *decision*): there [`Reactions`] count what it may still owe, this
/// budget less its debt.
pub const MOST_OWED: i32 = 3;

/// Whether the level rolls die ranks (V6), whose interrupt budget stands
/// in for R3.2's reactions.
pub fn die_ranks(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().resolution == crate::format::Resolution::DieRanks)
}

/// Whether the level pays turns in Energy (V5, `actions: Energy`): then
/// [`ActionPoints::ap`] counts the unit's Energy left this round (V5.2),
/// and [`Budget`] its other per-round budgets.
pub fn energy(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().actions == crate::format::Actions::Energy)
}

/// The budgets of a round under Energy besides the Energy itself (V5.3,
/// V5.4, V5.7, V5.9), set anew as each round starts.
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub struct Budget {
    /// Agility left this round (V5.4).
    pub agility: i32,
    /// The round's Swift Attack is spent (V5.9).
    pub swift_used: bool,
    /// The round's 1 Stamina in place of 1 Energy is spent (V5.3).
    pub stand_in_used: bool,
    /// Agile Moves left before the next command (V5.7): the Energy the
    /// last command spent, less the Agile Moves made since.
    pub agile: i32,
    /// Movement spent this round, for the end of Defend (V5.12).
    pub moved: u32,
}

/// Where a unit stood as its last turn began, and whether it sprinted
/// then: a target's movement term of the Miss Chance (V5.10).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stride {
    /// Its tile as its last turn began (its first tile before any turn).
    pub from: Pos,
    /// It sprinted on its last turn (or this one).
    pub sprinted: bool,
}

/// V5.8's conditions under Energy, each with the round at whose end it
/// lifts (002:460, 468): Exposed makes a unit a safe target for
/// maneuvers (V7.3); Unguarded implies it, and draws Swift Attacks (V5.9).
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub struct Guardless {
    /// Exposed until the end of this round.
    pub exposed: Option<u32>,
    /// Unguarded until the end of this round.
    pub unguarded: Option<u32>,
}

/// The Stamina pool under Energy (V5.3 *decision*): 10 + 2 × CON, plus the
/// template's `stamina` as training.
pub fn stamina_pool(t: &crate::format::UnitTemplate) -> i32 {
    10 + 2 * t.con + t.stamina
}

/// The Energy a round gives a unit with `stamina` (V5.2, 002:53–62): as
/// much as its Stamina, at most 5.
pub fn energy_of_stamina(stamina: i32) -> i32 {
    stamina.clamp(0, 5)
}

/// The Energy a Run of `cost` movement costs a unit of `speed` (V5.5,
/// 002:23, 142): a third of its Speed per Energy, rounded up.
pub fn run_energy(cost: u32, speed: u32) -> i32 {
    if speed == 0 {
        return i32::MAX;
    }
    (3 * cost).div_ceil(speed) as i32
}

/// The most movement a Run of `unit` may spend now under Energy (V5.5):
/// what its Energy pays for (with 1 Stamina in its place, V5.3), at most
/// its `speed`. `None` when the level is not paid in Energy.
pub fn run_allowance(world: &World, unit: Entity, speed: u32) -> Option<u32> {
    if !energy(world) {
        return None;
    }
    let e = world.entity(unit);
    let mut energy = e.get::<ActionPoints>().map_or(0, |a| a.ap);
    let stand_in = e.get::<Budget>().is_some_and(|b| !b.stand_in_used);
    if stand_in && e.get::<Stamina>().is_some_and(|s| s.0 > 1) {
        energy += 1;
    }
    Some(((energy.max(0) as u32) * speed / 3).min(speed))
}

/// Whether `unit` is Unguarded now (V5.8).
pub fn unguarded(world: &World, unit: Entity) -> bool {
    world
        .get::<Guardless>(unit)
        .is_some_and(|g| g.unguarded.is_some())
}

/// Whether `unit` is Exposed now (V5.8): by a cause of its own, by being
/// Unguarded, or, as a parent condition, prone (002:676).
pub fn exposed5(world: &World, unit: Entity) -> bool {
    let e = world.entity(unit);
    e.contains::<Prone>()
        || e.get::<Guardless>()
            .is_some_and(|g| g.exposed.is_some() || g.unguarded.is_some())
}

/// The reactive attacks `unit` may still make this round: R3.2's
/// reactions, or under Energy its one Swift Attack while it has the
/// Energy for it (V5.9).
pub fn reactive_attacks_left(world: &World, unit: Entity) -> i32 {
    if !energy(world) {
        return world.get::<Reactions>(unit).map_or(0, |r| r.0);
    }
    let e = world.entity(unit);
    let energy = e.get::<ActionPoints>().map_or(0, |a| a.ap);
    let unused = e.get::<Budget>().is_some_and(|b| !b.swift_used);
    i32::from(unused && energy >= 1)
}

/// Spends one reactive attack of `unit`: a reaction (R3.2), or under Energy
/// its Swift Attack and 1 Energy (V5.9).
pub fn spend_reactive_attack(world: &mut World, unit: Entity) {
    if !energy(world) {
        if let Some(mut n) = world.get_mut::<Reactions>(unit) {
            n.0 -= 1;
        }
        return;
    }
    if let Some(mut b) = world.get_mut::<Budget>(unit) {
        b.swift_used = true;
    }
    if let Some(mut a) = world.get_mut::<ActionPoints>(unit) {
        a.ap = (a.ap - 1).max(0);
    }
}

/// Magic points left for spells (V11.2): they do not come back during a
/// battle.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mp(pub i32);

/// Reactions left this round (R3.2).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reactions(pub i32);

/// What a unit carries: weapons (the first is the one in hand) and items
/// with their counts.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Inventory {
    /// Weapons, the wielded one first.
    pub weapons: Vec<String>,
    /// Items (and spare weapons) with how many of each.
    pub items: Vec<(String, u32)>,
}

impl Inventory {
    /// How many `name` the unit carries, in hand or in its pack.
    pub fn count(&self, name: &str) -> u32 {
        let held = self.weapons.iter().filter(|w| *w == name).count() as u32;
        held + self
            .items
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, c)| c)
            .sum::<u32>()
    }

    /// Adds one `name` to the pack.
    pub fn add(&mut self, name: &str) {
        match self.items.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c += 1,
            None => self.items.push((name.to_string(), 1)),
        }
    }

    /// Takes one `name` from the pack, else from the hands; false if none.
    pub fn take(&mut self, name: &str) -> bool {
        if let Some(i) = self.items.iter().position(|(n, c)| n == name && *c > 0) {
            self.items[i].1 -= 1;
            if self.items[i].1 == 0 {
                self.items.remove(i);
            }
            return true;
        }
        if let Some(i) = self.weapons.iter().position(|w| w == name) {
            self.weapons.remove(i);
            return true;
        }
        false
    }
}

/// The longest reach among the melee weapons a unit carries (R4.4), kept
/// up to date whenever its [`Inventory`] changes; `None` without one.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeleeReach(pub Option<i32>);

/// Changes what `unit` carries through `change`, and keeps its
/// [`MeleeReach`] in step (R4.4): the one way the rules change an
/// [`Inventory`], so a weapon dropped, thrown or picked up threatens (or
/// stops threatening) at once. `None` for a unit without one.
pub fn change_inventory<T>(
    world: &mut World,
    unit: Entity,
    change: impl FnOnce(&mut Inventory) -> T,
) -> Option<T> {
    let out = change(&mut *world.get_mut::<Inventory>(unit)?);
    refresh_reach(world, unit);
    Some(out)
}

/// A melee weapon's reach of `reach` in `unit`'s hands: with size on
/// (V10.4), Huge +1 and Tiny −1, never below 1.
pub fn reach_with(world: &World, unit: Entity, reach: i32) -> i32 {
    let on = world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().size);
    match world.get::<Stats>(unit) {
        Some(s) if on => (reach + s.template.size.reach_bonus()).max(1),
        _ => reach,
    }
}

/// Recomputes `unit`'s [`MeleeReach`] from its inventory (and its size,
/// V10.4).
pub fn refresh_reach(world: &mut World, unit: Entity) {
    let reach = {
        let catalog = &world.resource::<Battlefield>().0.catalog;
        world.get::<Inventory>(unit).and_then(|inv| {
            inv.weapons
                .iter()
                .filter_map(|w| catalog.weapon(w))
                .filter(|w| !w.is_ranged())
                .map(|w| reach_with(world, unit, w.reach))
                .max()
        })
    };
    world.entity_mut(unit).insert(MeleeReach(reach));
}

/// Thrown piercing or slashing objects stuck in a unit (R9.2): they drop to
/// its tile when it falls out of action.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stuck(pub Vec<String>);

/// Lying on the ground (R4.8): melee against it +1 advantage, ranged −1.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prone;

/// Took the Defend action: +MB to DV until its next turn (R4.6); under
/// Energy until it attacks or runs past its Speed (V5.12).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Defending;

/// Readied its shield: shield DV until its next turn (R4.6).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShieldReady;

/// Charged: melee attacks against it +1 advantage until its next turn (R4.7).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charged;

/// Lunged or cleaved: melee attacks against it +1 advantage until its next
/// turn (R7.8).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exposed;

/// At 0 HP, unconscious and dying (R10.1); dies when the timer reaches 0.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dying {
    /// Turns (and hits) left before death; hidden from the other side.
    pub timer: i32,
}

/// Stabilised: no longer dying but unconscious until healed (R10.4).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stable;

/// Dead.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dead;

/// The sides a unit is hidden from, one bit per side (V8.2): what each
/// side may know of it. The referee's state keeps every unit; a side's
/// paths, targets and views leave out the units hidden from it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hidden(pub u32);

impl Hidden {
    /// True when hidden from `side`.
    pub fn from(self, side: usize) -> bool {
        side < 32 && self.0 & (1 << side) != 0
    }
}

/// True when `unit` is hidden from `side` (V8.2).
pub fn hidden_from(world: &World, unit: Entity, side: usize) -> bool {
    world.get::<Hidden>(unit).is_some_and(|h| h.from(side))
}

/// Where each side last saw each unit that has hidden from it since
/// (V8.4), by `(side, unit)`: the side's knowledge, its ghosts on screen
/// and the AI's leads. A unit revealed (V8.6) leaves it; a unit hidden
/// from the start (V8.2) was never seen and is never in it.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct LastSeen(pub std::collections::BTreeMap<(usize, UnitId), Pos>);

impl LastSeen {
    /// Where `side` last saw each unit it has lost.
    pub fn of(&self, side: usize) -> impl Iterator<Item = (UnitId, Pos)> + '_ {
        self.0
            .iter()
            .filter(move |((s, _), _)| *s == side)
            .map(|((_, u), p)| (*u, *p))
    }
}

/// Ambushed (V8.9): off-guard (R2.3) until the end of round 1, its own
/// first turn notwithstanding.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Surprised;

/// Has not had its first turn yet: takes no reactions (R2.3).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OffGuard;

/// What a unit dealt and suffered this battle: for reports (`skirmish sim`)
/// and the view, read by no rule.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Damage dealt to others (before armor: what AR absorbed counts).
    pub dealt: i32,
    /// Damage taken (before armor).
    pub taken: i32,
    /// Enemies this unit's damage dropped to 0 HP (R10.1).
    pub downed: u32,
}

/// A unit's condition as a scenario names it (FORMAT.md `State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Condition {
    /// In action and standing.
    Active,
    /// In action, lying down.
    Prone,
    /// Unconscious and dying (R10.1).
    Dying,
    /// Unconscious, stabilised (R10.4).
    Stable,
    /// Dead.
    Dead,
}

/// Stunned by a head or heart injury (V3, 001's Constitution check): it
/// takes no actions and no reactions (off-guard) for a round. Stunned on
/// its own turn (`lose_turn: false`), it loses the rest of that turn;
/// otherwise its next turn is lost.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stunned {
    /// Its next turn is lost (it was stunned between its turns).
    pub lose_turn: bool,
}

/// Dazed by a head injury (V3): +1 disadvantage on its attack rolls until
/// the end of its next turn; `true` once that turn has begun (or it was
/// dazed on its own turn, which then ends it).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dazed(pub bool);

/// AP a Stand up costs on top of R4.8's 1, from foot and leg injuries (V3:
/// 001's foot +1, leg +2), never past a whole turn.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StandUpExtra(pub i32);

/// Tiles off a unit's Speed (R5.1), set by a rule that slows it (leg
/// injuries, V3).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slowed(pub u32);

/// The entity of the unit called `name`.
pub fn unit_named(world: &World, name: &str) -> Option<Entity> {
    world.get_resource::<Roster>()?.named(name)
}

/// Every unit's entity, in id order: a copy, for whoever changes the world
/// on the way ([`roster_of`] borrows it).
pub fn units(world: &World) -> Vec<Entity> {
    roster_of(world).to_vec()
}

/// Every unit's entity, in id order, borrowed: for scans that only read.
pub fn roster_of(world: &World) -> &[Entity] {
    world.get_resource::<Roster>().map_or(&[], Roster::units)
}

/// The living units whose bodies overlap `body`, hidden or not (V8.2):
/// the referee's occupancy, for rules that put a body down on a tile the
/// mover's side chose from its own view.
pub fn units_in(world: &World, body: Body) -> Vec<Entity> {
    units(world)
        .into_iter()
        .filter(|&e| !world.entity(e).contains::<Dead>())
        .filter(|&e| body_of(world, e).is_some_and(|b| b.overlaps(body)))
        .collect()
}

/// The living units in `body` that `viewer`'s side sees (V8.1): those not
/// hidden from it. A command chosen from that side's view is refused only
/// by these; anyone else there is run into when it is carried out (V8.6).
pub fn seen_in(world: &World, body: Body, viewer: Entity) -> Vec<Entity> {
    let side = world.get::<Side>(viewer).map(|s| s.0);
    units_in(world, body)
        .into_iter()
        .filter(|&e| !side.is_some_and(|s| hidden_from(world, e, s)))
        .collect()
}

/// The units in action (R2.5) beside the body `at` (a tile of theirs one
/// step from one of its tiles, V10.6).
pub fn in_action_beside(world: &World, at: Body) -> Vec<Entity> {
    bodies_of(world, roster_of(world).iter().copied())
        .into_iter()
        .filter(|&(e, b)| b.gap(at) == 1 && !out_of_action(world, e))
        .map(|(e, _)| e)
        .collect()
}

/// A unit's name, for the log and messages ("" for an unknown entity).
pub fn name_of(world: &World, unit: Entity) -> String {
    world
        .get::<Name>(unit)
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// True when the unit is out of action (R2.5): dying, stable or dead.
pub fn out_of_action(world: &World, unit: Entity) -> bool {
    let e = world.entity(unit);
    e.contains::<Dying>() || e.contains::<Stable>() || e.contains::<Dead>()
}
