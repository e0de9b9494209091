//! The battle as its events tell it: the state a viewer rebuilds by folding
//! [`BattleEvent`]s over the starting state, without reading a component.
//!
//! The view animates from it (where a unit stands *in the animation*, not
//! in the rules), and the property test that the events are complete
//! compares it with the real state after random battles.

use crate::battle::{
    ActionPoints, ArmorReduction, Battlefield, Charged, Dead, Defending, Dying, Exposed, Facing,
    Footprint, GridPos, Health, Inventory, OffGuard, Prone, ShieldReady, Stable, UnitId,
};
use crate::grid::{Dir, Pos};
use crate::rules::events::{BattleEvent, Opening};
use bevy::prelude::*;

/// One unit as the events tell it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitView {
    /// Its tile (R0.1): the anchor of its footprint (V10.6).
    pub at: Pos,
    /// The side of its footprint (V10.6); it never changes.
    pub n: i32,
    /// Its facing (R4.1).
    pub facing: Dir,
    /// Hit points.
    pub hp: i32,
    /// Armor reduction left (R1.2).
    pub ar: i32,
    /// AP left this turn (R3.1).
    pub ap: i32,
    /// Lying down (R4.8).
    pub prone: bool,
    /// The death timer while dying (R10.1).
    pub dying: Option<i32>,
    /// Stabilised (R10.4).
    pub stable: bool,
    /// Dead.
    pub dead: bool,
    /// Defending (R4.6).
    pub defending: bool,
    /// Shield readied (R4.6).
    pub shield_ready: bool,
    /// Has not had its first turn (R2.3).
    pub off_guard: bool,
    /// Ambushed: off-guard through round 1 (V8.9).
    pub surprised: bool,
    /// Charged since its last turn (R4.7).
    pub charged: bool,
    /// Lunged or cleaved since its last turn (R7.8).
    pub exposed: bool,
    /// What it carries: the weapon in hand is the first (the view draws
    /// it; a fumble drops it, R7.3; a throw or a potion uses up an item).
    pub gear: Inventory,
    /// The other of its mounted pair, if it is in one (V12.1): the mount of
    /// a rider, the rider of a mount.
    pub pair: Option<UnitId>,
    /// It rides its pair (V12.1): the view seats it on its mount.
    pub rides: bool,
    /// The sides it is hidden from, one bit per side (V8.2, V8.4): its
    /// own side's view and the referee's mark it.
    pub hidden: u32,
    /// Exposed and Unguarded under Energy, each with the round it lasts
    /// through (V5.8).
    pub guardless: crate::battle::Guardless,
    /// The spell it concentrates on (V11.5).
    pub concentrating: Option<String>,
    /// A spell holds it fast (V11.4).
    pub gripped: bool,
}

/// Every unit as the events tell it, by [`UnitId`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// The units, by id.
    pub units: Vec<UnitView>,
    /// The catalog's weapons: one picked up goes to the hands, anything
    /// else to the pack (R9.5).
    pub weapons: std::collections::BTreeSet<String>,
    /// The side whose view this is (V8.1); `None` for the referee's, which
    /// sees every unit.
    pub side: Option<usize>,
    /// The units this side does not see now, each with the tile it last
    /// saw it on (`None`: never seen, V8.2): drawn as ghosts, or not at all.
    pub lost: std::collections::BTreeMap<UnitId, Option<Pos>>,
    /// The battle pays in Energy (V5): AP are Energy, set each round, and
    /// Defend outlasts the turn.
    pub energy: bool,
    /// Spells' fields and zones on the map, in the order they were laid
    /// (V11.6).
    pub fields: Vec<FieldView>,
}

/// A field or zone as the events tell it (V11.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldView {
    /// Its caster.
    pub caster: UnitId,
    /// The spell.
    pub spell: String,
    /// The tiles it covers.
    pub tiles: Vec<Pos>,
    /// A zone (else a field).
    pub zone: bool,
}

impl Board {
    /// The units of the battle in `world` as they are now.
    pub fn capture(world: &mut World) -> Self {
        let mut units: Vec<(UnitId, UnitView)> = world
            .query::<(EntityRef, &UnitId)>()
            .iter(world)
            .map(|(e, id)| {
                let view = UnitView {
                    at: e.get::<GridPos>().map_or(Pos::default(), |p| p.0),
                    n: e.get::<Footprint>().map_or(1, |f| f.0),
                    facing: e.get::<Facing>().map_or(Dir::N, |f| f.0),
                    hp: e.get::<Health>().map_or(0, |h| h.hp),
                    ar: e.get::<ArmorReduction>().map_or(0, |a| a.0),
                    ap: e.get::<ActionPoints>().map_or(0, |a| a.ap),
                    prone: e.contains::<Prone>(),
                    dying: e.get::<Dying>().map(|d| d.timer),
                    stable: e.contains::<Stable>(),
                    dead: e.contains::<Dead>(),
                    defending: e.contains::<Defending>(),
                    shield_ready: e.contains::<ShieldReady>(),
                    off_guard: e.contains::<OffGuard>(),
                    surprised: e.contains::<crate::battle::Surprised>(),
                    charged: e.contains::<Charged>(),
                    exposed: e.contains::<Exposed>(),
                    gear: e.get::<Inventory>().cloned().unwrap_or_default(),
                    pair: None,
                    rides: e.contains::<crate::battle::Riding>(),
                    hidden: e.get::<crate::battle::Hidden>().map_or(0, |h| h.0),
                    guardless: e
                        .get::<crate::battle::Guardless>()
                        .copied()
                        .unwrap_or_default(),
                    concentrating: e
                        .get::<crate::rules::variants::spells::concentration::Concentrating>()
                        .map(|c| c.0.clone()),
                    gripped: e.contains::<crate::rules::variants::spells::grip::Gripped>(),
                };
                (*id, view)
            })
            .collect();
        units.sort_by_key(|(id, _)| *id);
        for (id, view) in &mut units {
            let e = world.resource::<crate::battle::Roster>().units()[id.0 as usize];
            view.pair =
                crate::battle::partner(world, e).and_then(|p| world.get::<UnitId>(p).copied());
        }
        let weapons = world
            .get_resource::<Battlefield>()
            .map(|b| b.0.catalog.weapons.iter().map(|w| w.name.clone()).collect())
            .unwrap_or_default();
        Self {
            units: units.into_iter().map(|(_, v)| v).collect(),
            weapons,
            side: None,
            lost: Default::default(),
            energy: crate::battle::energy(world),
            fields: world
                .get_resource::<crate::rules::variants::spells::held::Fields>()
                .map(|f| {
                    f.0.iter()
                        .map(|f| FieldView {
                            caster: f.caster,
                            spell: f.spell.clone(),
                            tiles: f.tiles.clone(),
                            zone: f.zone,
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// The battle as `side` knows it now (V8.1): every unit hidden from it
    /// is lost, at the tile it last saw it on ([`crate::battle::LastSeen`])
    /// or never seen; its true tile is not kept. `None` is the referee.
    pub fn capture_for(world: &mut World, side: Option<usize>) -> Self {
        let mut board = Self::capture(world);
        let Some(side) = side else {
            return board;
        };
        board.side = Some(side);
        let seen: std::collections::BTreeMap<UnitId, Pos> = world
            .get_resource::<crate::battle::LastSeen>()
            .map(|l| l.of(side).collect())
            .unwrap_or_default();
        for unit in crate::battle::units(world) {
            if !crate::battle::hidden_from(world, unit, side) {
                continue;
            }
            let Some(id) = world.get::<UnitId>(unit).copied() else {
                continue;
            };
            let last = seen.get(&id).copied();
            if let Some(u) = board.units.get_mut(id.0 as usize) {
                u.at = last.unwrap_or_default();
            }
            board.lost.insert(id, last);
        }
        board
    }

    /// Whether this board's side sees `id` now (always, for the referee).
    pub fn sees(&self, id: UnitId) -> bool {
        !self.lost.contains_key(&id)
    }

    /// The unit with id `id`.
    pub fn unit(&self, id: UnitId) -> Option<&UnitView> {
        self.units.get(id.0 as usize)
    }

    /// The mount `id` rides, if it rides (V12.1).
    pub fn mount_of(&self, id: UnitId) -> Option<&UnitView> {
        let u = self.unit(id)?;
        u.rides
            .then_some(u.pair)
            .flatten()
            .and_then(|m| self.unit(m))
    }

    /// Applies what `event` says happened; a pair moves and turns as one
    /// (V12.1).
    pub fn apply(&mut self, event: &BattleEvent) {
        self.apply_one(event);
        for id in event.units() {
            let Some(u) = self.units.get(id.0 as usize) else {
                continue;
            };
            let (at, facing) = (u.at, u.facing);
            if let Some(p) = u.pair.and_then(|p| self.units.get_mut(p.0 as usize)) {
                p.at = at;
                p.facing = facing;
            }
        }
    }

    fn apply_one(&mut self, event: &BattleEvent) {
        use BattleEvent::*;
        // Round 2 ends every surprise (V8.9).
        if let RoundStarted { round: 2.., .. } = event {
            for u in self.units.iter_mut().filter(|u| u.surprised) {
                u.surprised = false;
                u.off_guard = false;
            }
        }
        if let Spell(e) = event {
            spell_changes(&mut self.units, e);
            lay_or_lift(&mut self.fields, e);
        }
        // Each round sets every unit's Energy (V5.2) and lifts the
        // conditions of the rounds before (V5.8).
        if let Energy(crate::rules::events::EnergyEvent::Round { units, round }) = event {
            for u in &mut self.units {
                let g = &mut u.guardless;
                g.exposed = g.exposed.filter(|until| until >= round);
                g.unguarded = g.unguarded.filter(|until| until >= round);
            }
            for (id, energy, ..) in units {
                if let Some(u) = self.units.get_mut(id.0 as usize) {
                    u.ap = *energy;
                }
            }
        }
        let Some(unit) = event.units().first().copied() else {
            return;
        };
        // A side's view loses a unit that hides from it, where it stood,
        // and finds a revealed one where it stands (V8.4, V8.6).
        if let (Some(side), Hid(h)) = (self.side, event)
            && h.from & (1 << side.min(31)) != 0
        {
            let last = (!h.at_start).then(|| self.unit(h.unit).map(|u| u.at));
            self.lost.insert(h.unit, last.flatten());
        }
        let energy = self.energy;
        let units = &mut self.units;
        match event {
            Hid(h) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.hidden = h.from;
                }
            }
            Revealed(r) => {
                self.lost.remove(&r.unit);
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.hidden = 0;
                    u.at = r.at;
                    u.facing = r.facing;
                    u.hp = r.hp;
                }
            }
            // A stun: off-guard, its AP gone if on its own turn (V3).
            ShockCheck(s) if s.stunned => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.off_guard = true;
                    if s.on_its_turn {
                        u.ap = 0;
                    }
                }
            }
            // The turn a stun takes: begun and over at once, with 0 AP.
            TurnLost { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.ap = 0;
                    u.off_guard = u.surprised;
                    u.defending = false;
                    u.shield_ready = false;
                    u.charged = false;
                    u.exposed = false;
                }
            }
            TurnStarted { unit, ap, .. } => {
                // A rider's turn is its mount's too (V12.1).
                let mount = units
                    .get(unit.0 as usize)
                    .and_then(|u| u.rides.then_some(u.pair).flatten());
                for (id, ap) in std::iter::once((*unit, *ap)).chain(mount.map(|m| (m, 0))) {
                    if let Some(u) = units.get_mut(id.0 as usize) {
                        u.ap = ap;
                        // The ambushed stay off-guard through round 1 (V8.9).
                        u.off_guard = u.surprised;
                        // Under Energy Defend outlasts the turn (V5.12).
                        u.defending &= energy;
                        u.shield_ready = false;
                        u.charged = false;
                        u.exposed = false;
                    }
                }
            }
            ApSpent { ap_left, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.ap = *ap_left;
                }
            }
            Energy(crate::rules::events::EnergyEvent::Swift { energy_left, .. }) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.ap = *energy_left;
                }
            }
            Energy(crate::rules::events::EnergyEvent::Became {
                condition, until, ..
            }) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    let slot = match condition {
                        crate::rules::events::Condition::Exposed => &mut u.guardless.exposed,
                        crate::rules::events::Condition::Unguarded => &mut u.guardless.unguarded,
                    };
                    *slot = Some(*until);
                }
            }
            Energy(crate::rules::events::EnergyEvent::Cleared { .. }) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.guardless = Default::default();
                }
            }
            Energy(crate::rules::events::EnergyEvent::DefendEnded { .. }) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.defending = false;
                }
            }
            Stepped { to, facing, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.at = *to;
                    u.facing = *facing;
                }
            }
            Jumped(j) => {
                use crate::rules::events::JumpOutcome::{OffBalance, Short};
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.at = j.to;
                    if let Some(dir) = crate::grid::Dir::towards(j.from, j.aimed) {
                        u.facing = dir;
                    }
                    u.prone |= matches!(j.outcome, OffBalance | Short);
                }
            }
            Fell(f) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.prone |= f.prone;
                    if f.chasm {
                        u.dying = None;
                        u.stable = false;
                        u.dead = true;
                    }
                }
            }
            FellBack(crate::rules::events::FallBack { to, .. }) | Shifted { to, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.at = *to;
                }
            }
            Faced { dir, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.facing = *dir;
                }
            }
            Damaged {
                unit,
                ar_left,
                hp_after,
                ..
            } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.ar = *ar_left;
                    u.hp = *hp_after;
                }
            }
            FellDying { timer, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.prone = true;
                    u.dying = Some(*timer);
                    u.stable = false;
                    u.defending = false;
                    u.shield_ready = false;
                    u.charged = false;
                }
            }
            FellStable(_) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.prone = true;
                    u.dying = None;
                    u.stable = true;
                    u.defending = false;
                    u.shield_ready = false;
                    u.charged = false;
                }
            }
            TimerLowered { timer, .. } | DyingAgain { timer, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.stable = false;
                    u.dying = (*timer > 0).then_some(*timer);
                }
            }
            DyingRolled { timer, woke, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    if *woke {
                        u.dying = None;
                        u.hp = 1;
                    } else {
                        u.dying = (*timer > 0).then_some(*timer);
                    }
                }
            }
            Died { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.dying = None;
                    u.stable = false;
                    u.dead = true;
                }
            }
            Lamed { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.prone = true;
                }
            }
            KnockedOut { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.hp = 0;
                }
            }
            InjurySave(crate::rules::events::InjurySave {
                stabilized: true, ..
            }) => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.dying = None;
                    u.stable = true;
                }
            }
            Stabilized {
                target,
                success: true,
                ..
            } => {
                if let Some(u) = units.get_mut(target.0 as usize) {
                    u.dying = None;
                    u.stable = true;
                }
            }
            Healed { after, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.hp = *after;
                    u.dying = None;
                    u.stable = false;
                }
            }
            StoodUp { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.prone = false;
                }
            }
            Defended { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.defending = true;
                }
            }
            ShieldReadied { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.shield_ready = true;
                }
            }
            // The gear changes as the rules change it (see `drop_weapon`,
            // `pick_up`, `throw`, `drink`).
            WeaponDropped { weapon, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize)
                    && let Some(i) = u.gear.weapons.iter().position(|w| w == weapon)
                {
                    u.gear.weapons.remove(i);
                }
            }
            ThrowFlight { object, .. } | PotionUsed { potion: object, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.gear.take(object);
                }
            }
            PickedUp { object, .. } => {
                let weapon = self.weapons.contains(object);
                if let Some(u) = self.units.get_mut(unit.0 as usize) {
                    if weapon && !u.gear.weapons.contains(object) {
                        u.gear.weapons.push(object.clone());
                    } else {
                        u.gear.add(object);
                    }
                }
            }
            KnockedDown { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.prone = true;
                }
            }
            Disarmed { .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize)
                    && !u.gear.weapons.is_empty()
                {
                    u.gear.weapons.remove(0);
                }
            }
            Shoved { to, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.at = *to;
                }
            }
            Dragged {
                to,
                target,
                target_to,
                ..
            } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.at = *to;
                }
                if let Some(u) = units.get_mut(target.0 as usize) {
                    u.at = *target_to;
                }
            }
            Mounted { mount, ap_left, .. } => {
                let Some(m) = units.get(mount.0 as usize).cloned() else {
                    return;
                };
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.at = m.at;
                    u.facing = m.facing;
                    u.ap = *ap_left;
                    u.pair = Some(*mount);
                    u.rides = true;
                }
                if let Some(m) = units.get_mut(mount.0 as usize) {
                    m.pair = Some(unit);
                }
            }
            // The pair parts: the rider stands on `to`; getting down costs
            // AP, a fall leaves it prone unless it fell out of action.
            Dismounted { mount, to, .. } | ThrownOff { mount, to, .. } => {
                if let Some(m) = units.get_mut(mount.0 as usize) {
                    m.pair = None;
                }
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    u.pair = None;
                    u.rides = false;
                    u.at = *to;
                    match event {
                        Dismounted { ap_left, .. } => u.ap = *ap_left,
                        ThrownOff { why, .. } => {
                            u.prone |= *why != crate::rules::events::FallCause::RiderDown;
                        }
                        _ => {}
                    }
                }
            }
            Opened { by, .. } => {
                if let Some(u) = units.get_mut(unit.0 as usize) {
                    match by {
                        Opening::Charge => u.charged = true,
                        Opening::Lunge | Opening::Cleave | Opening::Maneuver | Opening::Shove => {
                            u.exposed = true
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Folds `events` over this board.
    pub fn fold<'a>(mut self, events: impl IntoIterator<Item = &'a BattleEvent>) -> Self {
        for e in events {
            self.apply(e);
        }
        self
    }
}

/// What spells' events change of a unit: its concentration (V11.5), a
/// spell's grip on it (V11.4).
fn spell_changes(units: &mut [UnitView], e: &crate::rules::events::SpellEvent) {
    use crate::rules::events::SpellEvent;
    let Some(u) = units.get_mut(e.unit().0 as usize) else {
        return;
    };
    match e {
        SpellEvent::Concentrates { spell, .. } => u.concentrating = Some(spell.clone()),
        SpellEvent::ConcentrationEnded { .. } => u.concentrating = None,
        SpellEvent::Gripped { .. } => u.gripped = true,
        SpellEvent::Released { .. } => u.gripped = false,
        _ => {}
    }
}

/// A field or zone laid, or faded (V11.6).
fn lay_or_lift(fields: &mut Vec<FieldView>, e: &crate::rules::events::SpellEvent) {
    use crate::rules::events::SpellEvent;
    match e {
        SpellEvent::Conjured {
            unit,
            spell,
            tiles,
            zone,
            ..
        } => fields.push(FieldView {
            caster: *unit,
            spell: spell.clone(),
            tiles: tiles.clone(),
            zone: *zone,
        }),
        // One event for each field gone, the oldest of its spell first.
        SpellEvent::Faded { unit, spell, .. } => {
            if let Some(i) = fields
                .iter()
                .position(|f| f.caster == *unit && f.spell == *spell)
            {
                fields.remove(i);
            }
        }
        _ => {}
    }
}
