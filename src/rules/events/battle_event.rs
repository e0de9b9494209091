//! The battle event and what it carries: every type an event names is
//! defined here or below the rules (grid, format), so the events depend on
//! no rule.

use super::die_ranks::Debt;
use super::energy::EnergyEvent;
use super::injuries::{InjurySave, ShockCheck};
use super::jumps::{FallRoll, JumpRoll};
use super::moves::{FallBack, Stretch};
use super::payload::{
    AttackRoll, DamageHow, DamageRoll, FallCause, GrappleEnd, MoveCost, Opening, Outcome, Trigger,
};
use super::spells::SpellEvent;
use super::stealth::{Bump, Hiding, Revelation, StealthRoll};
use crate::battle::UnitId;
use crate::format::{BodyPart, Guard, Severity};
use crate::grid::{Dir, Pos};
use crate::rules::command::{Command, CommandKind, Hold, Refusal};
use crate::rules::rule::Rule;
use serde::{Deserialize, Serialize};
use strum::{EnumDiscriminants, EnumString, IntoStaticStr, VariantArray};

/// One thing that happened, with what a viewer needs to show it.
///
/// Its kind without its fields is an [`EventKind`] (`AttackRolled`), as a
/// scenario's `Event(kind: ...)` expectation names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, EnumDiscriminants)]
#[strum_discriminants(
    name(EventKind),
    doc = "The kind of a [`BattleEvent`], without its fields: what a scenario's `Event(kind: ...)` names (a misspelt kind is a load error).",
    derive(
        Hash,
        PartialOrd,
        Ord,
        Serialize,
        Deserialize,
        EnumString,
        IntoStaticStr,
        VariantArray
    )
)]
pub enum BattleEvent {
    /// A unit rolled initiative: d20 + its bonus (R2.1; R2.2 in an ambush).
    InitiativeRolled {
        /// Who.
        unit: UnitId,
        /// The d20.
        roll: u32,
        /// DEX (ambush: + Stealth, or WIS + Perception).
        bonus: i32,
        /// Roll + bonus.
        total: i32,
        /// Rolled under R2.2 (a side is hidden).
        ambush: bool,
    },
    /// Side initiative's coin for a round (V1).
    SideInitiative {
        /// The round.
        round: u32,
        /// The d2: 1 puts the first listed side's units first.
        coin: u32,
    },
    /// A round starts (R2.4), with its turn order.
    RoundStarted {
        /// The round, from 1.
        round: u32,
        /// Who acts, in order.
        order: Vec<UnitId>,
    },
    /// A unit's turn starts: 3 AP and the free action (R3.1), reactions
    /// refreshed (R3.2), off-guard and "until your next turn" effects over
    /// (R2.3, R4.6, R4.7, R7.8).
    TurnStarted {
        /// The round.
        round: u32,
        /// Whose turn.
        unit: UnitId,
        /// AP at the start (3).
        ap: i32,
        /// Reactions for the round.
        reactions: i32,
    },
    /// A command's cost was paid (R3.1).
    ApSpent {
        /// Who paid.
        unit: UnitId,
        /// For what.
        command: CommandKind,
        /// AP spent.
        ap: i32,
        /// The turn's free action was used.
        free_action: bool,
        /// AP left.
        ap_left: i32,
    },
    /// One step of a Move or a Charge (R5.1): the unit now stands on `to`,
    /// facing its step (R4.2).
    Stepped {
        /// Who.
        unit: UnitId,
        /// The tile left.
        from: Pos,
        /// The tile entered.
        to: Pos,
        /// The facing after the step.
        facing: Dir,
        /// AP left (the Move is paid before it starts).
        ap_left: i32,
    },
    /// Fell back out of an ally's tile, dropped passing through *(decision)*.
    FellBack(FallBack),
    /// A stretch of a Move, told before a reaction on the way (R8.2).
    Walked(Stretch),
    /// A Move or Charge ended (R5.1): where it went, and for a Move that
    /// was walked to its end, its cost.
    Moved {
        /// Who.
        unit: UnitId,
        /// Where it started.
        from: Pos,
        /// Where it ended.
        to: Pos,
        /// Tiles walked.
        tiles: usize,
        /// Facing at the end.
        facing: Dir,
        /// Movement cost and Speed of a completed Move; crawling (R4.8).
        cost: Option<MoveCost>,
        /// Where its last [`BattleEvent::Walked`] ended, and tiles to there.
        #[serde(default)]
        told: Option<(Pos, usize)>,
    },
    /// The Step command: one tile, no turn (R3.1).
    Shifted {
        /// Who.
        unit: UnitId,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
    },
    /// A unit turned (R4.2): by a Face command, or to its target when it
    /// attacked.
    Faced {
        /// Who.
        unit: UnitId,
        /// The new facing.
        dir: Dir,
        /// Turned by a Face command (an attack's turn is not a line of the
        /// log).
        by_command: bool,
    },
    /// An attack's roll (R7.1, R7.2, R0.4), or an automatic hit (R7.9).
    AttackRolled(Box<AttackRoll>),
    /// A parry (R8.6) against the melee hit just rolled.
    Parried {
        /// The parrying unit (the target).
        unit: UnitId,
        /// Its weapon.
        weapon: String,
        /// The d20 kept.
        roll: u32,
        /// Every d20 rolled, when a disadvantage rolled more than one
        /// (V10.5: parrying a giant); empty for one.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dice: Vec<u32>,
        /// MB + attribute + weapon bonus.
        bonus: i32,
        /// Roll + bonus.
        total: i32,
        /// The attack's total it must beat.
        against: i32,
        /// Degrees of the hit left (0: deflected).
        degrees_left: i32,
    },
    /// A defender's answer to the hit just rolled (V2 active defence).
    Guarded {
        /// The defender (the target).
        unit: UnitId,
        /// Block, parry or dodge.
        guard: Guard,
        /// The d12.
        roll: u32,
        /// Block, Parry or Dodge Value added to it.
        value: i32,
        /// The attack's total it must meet.
        against: i32,
        /// Whether it met it.
        success: bool,
        /// A parry's second d12 (against its first).
        second: Option<u32>,
        /// A mounted dodge's other d12, the higher one, which does not count
        /// (V12.4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        worse: Option<u32>,
        /// Who answered for the target: its mount or its rider (V12.4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<UnitId>,
        /// The zone a parry chose (V4).
        zone: Option<BodyPart>,
        /// Damage a block takes off.
        reduce: i32,
        /// No damage at all.
        avoided: bool,
    },
    /// An injury (V3 injuries, 001).
    Injured {
        /// Who.
        unit: UnitId,
        /// Where.
        part: BodyPart,
        /// How bad.
        severity: Severity,
        /// Its number among the part's injuries (1: the first).
        nth: u32,
    },
    /// Both legs badly injured: prone, and it cannot stand (V3).
    Lamed {
        /// Who.
        unit: UnitId,
    },
    /// Dropped to 0 HP by bare hands under die ranks: prone, unconscious
    /// and stable, not dying (V6.9).
    FellStable(UnitId),
    /// A third deadly head injury knocks the unit out, or (hits injuring
    /// only) a failed knock-out save: 0 HP, it falls dying next (V3,
    /// R10.1).
    KnockedOut {
        /// Who.
        unit: UnitId,
        /// By the knock-out save, not the head.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        shock: bool,
    },
    /// 001's Constitution check (DC 25) against a head or heart injury's
    /// shock (V3).
    ShockCheck(ShockCheck),
    /// An active defence under die ranks is an interrupt: 1 AP more owed
    /// (V6.5, V6.6); `owed` is the debt now.
    Owes(Debt),
    /// The AP a unit owed for its interrupts, paid as its turn starts
    /// (V6.6): right after its `TurnStarted`, whose AP are what is left.
    DebtPaid(Debt),
    /// Energy's budgets, conditions and prices (V5).
    Energy(EnergyEvent),
    /// Spells: casts, saves, concentration (V11).
    Spell(SpellEvent),
    /// A stunned unit's turn passes without it (V3).
    TurnLost {
        /// Who.
        unit: UnitId,
    },
    /// 001's Constitution save of a unit injured while down, or still up
    /// when hits injure only (V3).
    InjurySave(InjurySave),
    /// Damage taken: from AR first, then HP (R1.2, R7.7).
    Damaged {
        /// Who took it.
        unit: UnitId,
        /// Who dealt it.
        source: UnitId,
        /// How it was rolled.
        how: DamageHow,
        /// The damage, before armor.
        amount: i32,
        /// What AR absorbed.
        absorbed: i32,
        /// AR left.
        ar_left: i32,
        /// HP before.
        hp_before: i32,
        /// HP after.
        hp_after: i32,
    },
    /// Where a hit lands (V4 hit zones): the zone's d10, and whether the
    /// target's armor covers it (if not, only the shield's AR stands).
    ZoneRolled {
        /// The unit hit.
        unit: UnitId,
        /// The d10.
        roll: u32,
        /// The zone.
        part: BodyPart,
        /// The target's body armor covers the zone (or it wears none).
        covered: bool,
    },
    /// A melee attacker's natural 1 that missed: it drops its weapon (R7.3).
    WeaponDropped {
        /// Who.
        unit: UnitId,
        /// The weapon, now on the ground.
        weapon: String,
        /// Where.
        at: Pos,
        /// Dropped from an injured hand or arm (V3), not a fumble (R7.3).
        #[serde(default)]
        injured: bool,
    },
    /// At 0 HP a unit falls prone, unconscious and dying (R10.1).
    FellDying {
        /// Who.
        unit: UnitId,
        /// The d4 of the death timer.
        roll: u32,
        /// The timer (d4 + CON, at least 1).
        timer: i32,
    },
    /// A hit on a dying unit lowers its timer (R10.3).
    TimerLowered {
        /// Who.
        unit: UnitId,
        /// The timer left (0: it dies).
        timer: i32,
    },
    /// A hit on a stabilised unit: dying again with a new timer (R10.4).
    DyingAgain {
        /// Who.
        unit: UnitId,
        /// The d4.
        roll: u32,
        /// The new timer.
        timer: i32,
    },
    /// A dying unit's turn: its d20 (R10.2).
    DyingRolled {
        /// Who.
        unit: UnitId,
        /// The d20.
        roll: u32,
        /// The timer after the roll (0: it dies).
        timer: i32,
        /// A 20: it wakes with 1 HP, still prone.
        woke: bool,
    },
    /// A unit died (R10.2, R10.3).
    Died {
        /// Who.
        unit: UnitId,
    },
    /// A Stabilize check (R10.4).
    Stabilized {
        /// The helper.
        unit: UnitId,
        /// The dying ally.
        target: UnitId,
        /// The d20.
        roll: u32,
        /// WIS.
        wis: i32,
        /// Medicine.
        medicine: i32,
        /// The total.
        total: i32,
        /// The DC.
        dc: i32,
        /// Stable now.
        success: bool,
    },
    /// A potion drunk or given (R10.5).
    PotionUsed {
        /// Who drinks or gives.
        unit: UnitId,
        /// Who drinks.
        drinker: UnitId,
        /// The item.
        potion: String,
        /// Its heal dice as written ("2d4").
        dice: String,
        /// The dice rolled.
        rolls: Vec<u32>,
        /// HP it heals.
        amount: i32,
    },
    /// Healing (R10.5): HP before and after; a dying or stable unit wakes.
    Healed {
        /// Who.
        unit: UnitId,
        /// HP before.
        before: i32,
        /// HP after.
        after: i32,
        /// It was unconscious and wakes up, prone.
        woke: bool,
    },
    /// A prone unit stood up (R4.8).
    StoodUp {
        /// Who.
        unit: UnitId,
    },
    /// Defend (R4.6): +MB to DV until its next turn, or as V5.12 says.
    Defended {
        /// Who.
        unit: UnitId,
        /// The DV bonus (MB).
        bonus: i32,
        /// Under Energy: until it attacks or runs past its Speed (V5.12).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        energy: bool,
    },
    /// Ready shield (R4.6).
    ShieldReadied {
        /// Who.
        unit: UnitId,
    },
    /// A unit opened its defences: melee attacks against it have +1
    /// advantage until its next turn (R4.7 Charge, R7.8 Lunge and Cleave).
    Opened {
        /// Who.
        unit: UnitId,
        /// By what.
        by: Opening,
    },
    /// A unit picked up an object (R9.5).
    PickedUp {
        /// Who.
        unit: UnitId,
        /// The object.
        object: String,
        /// Where it lay.
        at: Pos,
    },
    /// A thrown object's flight (R9.1, R9.3): where it was aimed, the
    /// scatter die of a miss, and where it comes down.
    ThrowFlight {
        /// The thrower.
        unit: UnitId,
        /// The object.
        object: String,
        /// The thrower's tile.
        from: Pos,
        /// The tile aimed at.
        aimed: Pos,
        /// The d8 of a miss (R9.3).
        scatter: Option<u32>,
        /// Where it comes down.
        landing: Pos,
    },
    /// A thrown object lies on the ground (R9.5).
    ObjectLanded {
        /// The object.
        object: String,
        /// Where.
        at: Pos,
    },
    /// A fragile thrown object broke where it came down.
    ObjectBroke {
        /// The object.
        object: String,
        /// Where.
        at: Pos,
    },
    /// A thrown piercing or slashing object stuck in a unit (R9.2).
    ObjectStuck {
        /// The object.
        object: String,
        /// In whom.
        unit: UnitId,
    },
    /// What stuck in a unit drops where it fell (R9.2).
    StuckDropped {
        /// The object.
        object: String,
        /// From whom.
        unit: UnitId,
        /// Where it lies now.
        at: Pos,
    },
    /// A splash item burst (R9.4): damage rolled once for all within the
    /// radius with a line of effect.
    SplashBurst {
        /// The item.
        object: String,
        /// Where it burst.
        at: Pos,
        /// The damage roll.
        roll: DamageRoll,
        /// The damage.
        amount: i32,
        /// The radius.
        radius: i32,
        /// The tiles it reaches.
        tiles: Vec<Pos>,
    },
    /// A command would provoke a unit whose side is asked (policy `Ask`,
    /// R8): it waits for a `React` answer.
    ReactionOffered {
        /// The held command.
        command: CommandKind,
        /// Who is asked.
        reactor: UnitId,
        /// Who provokes.
        provoker: UnitId,
        /// What provokes.
        trigger: Trigger,
    },
    /// The answer to a [`BattleEvent::ReactionOffered`].
    ReactionAnswered {
        /// Who answered.
        reactor: UnitId,
        /// About what.
        trigger: Trigger,
        /// Takes it.
        take: bool,
    },
    /// A reactive attack is made (R8.1, R8.2; in initiative order, R8.5).
    ReactionTaken {
        /// Who reacts.
        reactor: UnitId,
        /// Who provoked.
        provoker: UnitId,
        /// What provoked.
        trigger: Trigger,
        /// The provoker's mount or rider, struck instead of it (V12.5).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        strikes: Option<UnitId>,
    },
    /// An enemy threatens the provoker's tile but may not react: off-guard
    /// (R2.3) or out of reactions this round (R3.2).
    ReactionBarred {
        /// Who would have reacted.
        reactor: UnitId,
        /// Who provoked.
        provoker: UnitId,
        /// What provoked.
        trigger: Trigger,
        /// Why not: R2.3 or R3.2.
        rule: Rule,
    },
    /// A unit that may react lets the trigger pass (its side's answer).
    ReactionDeclined {
        /// Who.
        reactor: UnitId,
        /// Who provoked.
        provoker: UnitId,
        /// What provoked.
        trigger: Trigger,
    },
    /// A reactive attack dropped or felled the provoker: its action ends
    /// (R8.4).
    ActionInterrupted {
        /// Who.
        unit: UnitId,
    },
    /// A maneuver knocked a unit prone: a trip (V7.4), or a grappler
    /// forcing it down (V7.6).
    KnockedDown {
        /// Who falls.
        unit: UnitId,
        /// Who knocked it down.
        by: UnitId,
        /// V7.4 or V7.6.
        rule: Rule,
    },
    /// A disarm (V7.5): the weapon in the target's hands lands at `at`.
    Disarmed {
        /// Who lost it.
        unit: UnitId,
        /// Who disarmed it.
        by: UnitId,
        /// The weapon, now on the ground.
        weapon: String,
        /// Where it lies.
        at: Pos,
        /// Flung away from the target's tile.
        flung: bool,
    },
    /// A shove (V7.7): pushed from `from` to `to` (the same tile when no
    /// tile would take it).
    Shoved {
        /// Who was pushed.
        unit: UnitId,
        /// Who pushed.
        by: UnitId,
        /// Where it stood.
        from: Pos,
        /// Where it stands now.
        to: Pos,
        /// The end of a charge (V7.7's charge-shove).
        charge: bool,
    },
    /// A grapple takes hold, or tightens (V7.6).
    Grappled {
        /// Who is grappled.
        unit: UnitId,
        /// The grappler.
        by: UnitId,
        /// Grabbed (1 degree) or held (2+).
        hold: Hold,
    },
    /// The grappler spent 1 AP to keep its grapple this turn (V7.6).
    GrappleSustained {
        /// The grappler.
        unit: UnitId,
        /// Whom it keeps.
        target: UnitId,
    },
    /// A grapple ended (V7.6).
    GrappleEnded {
        /// Who was grappled.
        unit: UnitId,
        /// The grappler.
        by: UnitId,
        /// Why.
        why: GrappleEnd,
    },
    /// A holder drags its target along (V7.6): it steps `from` → `to`, the
    /// target `target_from` → `target_to`.
    Dragged {
        /// The holder.
        unit: UnitId,
        /// The held unit.
        target: UnitId,
        /// The holder's tile before.
        from: Pos,
        /// After.
        to: Pos,
        /// The target's tile before.
        target_from: Pos,
        /// After.
        target_to: Pos,
    },
    /// A holder crushes its held target: an unarmed strike it cannot
    /// answer follows (V7.6).
    Crushing {
        /// The holder.
        unit: UnitId,
        /// The held unit.
        target: UnitId,
    },
    /// A hidden unit's sneak check against one enemy (V8.3, V8.4).
    Sneaked(StealthRoll),
    /// A unit hidden from sides: at the start (V8.2), or by hiding (V8.4).
    Hid(Hiding),
    /// A Move ran into a unit its side did not see, and stopped (V8.6).
    Bumped(Bump),
    /// A unit searches (V8.5): every side that sees it is told, found or
    /// not; each roll follows as [`BattleEvent::Searched`].
    Searching(UnitId),
    /// A search roll against one hidden enemy (V8.5).
    Searched(StealthRoll),
    /// A hidden unit is seen by every side again, where it stands (V8.6).
    Revealed(Revelation),
    /// A jump's check and where it ended (V9.2, V9.3).
    Jumped(JumpRoll),
    /// A fall, with its check and damage (V9.4), or into a chasm (V9.5).
    Fell(FallRoll),
    /// A rider takes its pair's free Move this turn: no AP (V12.2).
    FreeMoveTaken {
        /// The rider.
        unit: UnitId,
    },
    /// A unit mounts a mount beside it and stands on its tiles (V12.7).
    Mounted {
        /// The rider.
        unit: UnitId,
        /// The mount.
        mount: UnitId,
        /// The AP it cost (1, or 3 unskilled).
        ap: i32,
        /// The rider's AP left.
        ap_left: i32,
    },
    /// A rider gets down to a free tile beside its mount (V12.7).
    Dismounted {
        /// The rider.
        unit: UnitId,
        /// The mount.
        mount: UnitId,
        /// Where it stands now.
        to: Pos,
        /// The AP it cost.
        ap: i32,
        /// The rider's AP left.
        ap_left: i32,
    },
    /// A rider falls off (V12.7) onto the nearest free tile; prone unless it
    /// was already out of action.
    ThrownOff {
        /// The rider.
        unit: UnitId,
        /// The mount.
        mount: UnitId,
        /// Where it lands.
        to: Pos,
        /// Why it fell.
        why: FallCause,
    },
    /// A command was refused: nothing changed.
    CommandRefused {
        /// The command.
        command: Command,
        /// Why.
        refusal: Refusal,
    },
    /// The battle is over (R11).
    BattleEnded {
        /// How.
        outcome: Outcome,
    },
}
