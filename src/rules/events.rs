//! What happened in a battle, as typed values: the one outcome stream that
//! the combat log formats, the view animates, and tests and the AI read.
//!
//! Every place the rules change the battle pushes a [`BattleEvent`] to the
//! [`BattleEvents`] queue, in the order things happen: a Move's steps come
//! one by one with the reactive attacks between them, an attack's roll
//! before its parry and its damage. Events name units by [`UnitId`] (never
//! an `Entity`), so they can be saved, compared and replayed.
//!
//! The queue is append-only for the battle: readers keep an
//! [`EventCursor`] and read what is new at their own pace
//! ([`BattleEvents::read`]). Commands run outside the frame ([`submit`]),
//! so Bevy `Message`s, which expire after two updates, would lose events
//! a slow reader had not seen.
//!
//! [`submit`]: super::submit

use super::Rule;
use super::command::{Command, CommandKind, Refusal};
use super::modifiers::{AttackMode, Modifier};
use super::reactions::Trigger;
use super::victory::Outcome;
use crate::battle::UnitId;
use crate::grid::{Dir, Pos};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// One thing that happened, with what a viewer needs to show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Dropped while passing through an ally's tile, the mover falls back
    /// to the last tile it could have stopped on *(decision)*.
    FellBack {
        /// Who.
        unit: UnitId,
        /// Where it ends.
        to: Pos,
    },
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
        /// The d20.
        roll: u32,
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
        guard: crate::format::Guard,
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
        /// The zone a parry chose (V4).
        zone: Option<crate::format::BodyPart>,
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
        part: crate::format::BodyPart,
        /// How bad.
        severity: crate::format::Severity,
        /// Its number among the part's injuries (1: the first).
        nth: u32,
    },
    /// Both legs badly injured: prone, and it cannot stand (V3).
    Lamed {
        /// Who.
        unit: UnitId,
    },
    /// A third deadly head injury knocks the unit out: 0 HP, it falls
    /// dying next (V3, R10.1).
    KnockedOut {
        /// Who.
        unit: UnitId,
    },
    /// 001's Constitution save of a unit injured while down (V3).
    InjurySave {
        /// Who.
        unit: UnitId,
        /// The d20.
        roll: u32,
        /// CON.
        bonus: i32,
        /// The sum of its injuries' values.
        dc: i32,
        /// Met (or a natural 20): it lives.
        passed: bool,
        /// A natural 20: it is stable.
        stabilized: bool,
    },
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
        part: crate::format::BodyPart,
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
    /// Defend (R4.6): +MB to DV until its next turn.
    Defended {
        /// Who.
        unit: UnitId,
        /// The DV bonus (MB).
        bonus: i32,
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

/// What opened a unit's defences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opening {
    /// R4.7.
    Charge,
    /// R7.8.
    Lunge,
    /// R7.8.
    Cleave,
}

/// A completed Move's cost (R5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveCost {
    /// Movement spent.
    pub cost: u32,
    /// The unit's Speed.
    pub speed: i32,
    /// Crawled while prone (R4.8).
    pub crawl: bool,
}

/// An attack's roll, every term of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackRoll {
    /// The attacker.
    pub attacker: UnitId,
    /// The target unit; `None` for a throw at a tile (R9.1).
    pub target: Option<UnitId>,
    /// The attacker's tile.
    pub from: Pos,
    /// The tile aimed at.
    pub at: Pos,
    /// The weapon or thrown object.
    pub weapon: String,
    /// Melee, ranged or thrown.
    pub mode: AttackMode,
    /// A reactive attack (R8.1).
    pub reaction: bool,
    /// Every modifier gathered, with its source and rule.
    pub modifiers: Vec<Modifier>,
    /// The d20s rolled (`1 + |net advantage|`, R0.4); empty for an
    /// automatic hit.
    pub dice: Vec<u32>,
    /// The kept die; `None` for an automatic hit (R7.9).
    pub kept: Option<u32>,
    /// The lowest kept die that is a critical (R7.3).
    pub crit: u32,
    /// Net advantage (R0.4).
    pub advantage: i32,
    /// The attack bonus added to the kept die (R7.1).
    pub bonus: i32,
    /// Kept die + bonus.
    pub total: i32,
    /// The target's DV (R1.1).
    pub dv: i32,
    /// Degrees of success before any parry; 0 is a miss (R7.2).
    pub degrees: i32,
}

impl AttackRoll {
    /// The kept die was a natural 20 (or the weapon's crit range, R7.3).
    pub fn natural_20(&self) -> bool {
        self.kept.is_some_and(|k| k >= self.crit)
    }

    /// The kept die was a natural 1 (R7.3).
    pub fn natural_1(&self) -> bool {
        self.kept == Some(1) && !self.natural_20()
    }
}

/// The dice of a damage roll (R7.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRoll {
    /// Sides of each die.
    pub sides: u32,
    /// Each die rolled.
    pub rolls: Vec<u32>,
    /// Dice added for degrees beyond the first (R7.7).
    pub extra: u32,
    /// Flat bonus: the dice's own and the modifiers'.
    pub bonus: i32,
    /// Dice + bonus came below 1 and count as 1 (R7.7).
    pub at_least_one: bool,
}

/// How a unit came to take damage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DamageHow {
    /// A hit's damage roll, with the damage modifiers it added (R7.7), and
    /// halved for an object not made to be thrown (R9.1).
    Hit {
        /// The roll.
        roll: DamageRoll,
        /// The damage modifiers (STR, R7.7).
        modifiers: Vec<Modifier>,
        /// Halved (R9.1).
        halved: bool,
        /// Taken off by a block (V2).
        #[serde(default)]
        blocked: i32,
    },
    /// Caught by a splash (R9.4), rolled once in its
    /// [`BattleEvent::SplashBurst`].
    Splash,
}

impl BattleEvent {
    /// The rules this event shows at work: what the log cites and a
    /// scenario's `Event(rule: ...)` expectation matches.
    pub fn rules(&self) -> Vec<Rule> {
        use BattleEvent::*;
        match self {
            InitiativeRolled { ambush: false, .. } => vec![Rule::R2_1],
            InitiativeRolled { ambush: true, .. } => vec![Rule::R2_2],
            SideInitiative { .. } => vec![Rule::V1],
            RoundStarted { .. } => vec![Rule::R2_4],
            TurnStarted { .. } => vec![Rule::R2_4, Rule::R2_3, Rule::R3_1, Rule::R3_2],
            ApSpent { .. } => vec![Rule::R3_1],
            Stepped { .. } => vec![Rule::R5_1, Rule::R4_2],
            FellBack { .. } => vec![Rule::R5_2],
            Moved { cost, .. } => {
                let mut r = vec![Rule::R5_1];
                if cost.is_some_and(|c| c.crawl) {
                    r.push(Rule::R4_8);
                }
                r
            }
            Shifted { .. } => vec![Rule::R3_1],
            Faced { .. } => vec![Rule::R4_1, Rule::R4_2],
            AttackRolled(a) => {
                let mut r = vec![Rule::R7_1, Rule::R7_2, Rule::R0_5];
                if a.dice.len() > 1 {
                    r.push(Rule::R0_4);
                }
                if a.natural_20() || a.natural_1() {
                    r.push(Rule::R7_3);
                }
                if a.reaction {
                    r.push(Rule::R8_1);
                }
                for m in &a.modifiers {
                    if !r.contains(&m.rule) {
                        r.push(m.rule);
                    }
                }
                r
            }
            Parried { .. } => vec![Rule::R8_6],
            Guarded { .. } => vec![Rule::V2],
            Injured { .. } | Lamed { .. } | KnockedOut { .. } | InjurySave { .. } => {
                vec![Rule::V3]
            }
            ZoneRolled { .. } => vec![Rule::V4],
            Damaged { how, absorbed, .. } => {
                let mut r = vec![Rule::R7_7];
                if *absorbed > 0 {
                    r.push(Rule::R1_2);
                }
                match how {
                    DamageHow::Hit { halved: true, .. } => r.push(Rule::R9_1),
                    DamageHow::Hit { blocked, .. } if *blocked > 0 => r.push(Rule::V2),
                    DamageHow::Splash => r.push(Rule::R9_4),
                    _ => {}
                }
                r
            }
            WeaponDropped { injured: false, .. } => vec![Rule::R7_3],
            WeaponDropped { injured: true, .. } => vec![Rule::V3],
            FellDying { .. } => vec![Rule::R10_1],
            TimerLowered { .. } => vec![Rule::R10_3],
            DyingAgain { .. } => vec![Rule::R10_4],
            DyingRolled { .. } => vec![Rule::R10_2],
            Died { .. } => vec![Rule::R10_2],
            Stabilized { .. } => vec![Rule::R10_4, Rule::R0_5],
            PotionUsed { .. } => vec![Rule::R10_5],
            Healed { .. } => vec![Rule::R10_5],
            StoodUp { .. } => vec![Rule::R4_8],
            Defended { .. } | ShieldReadied { .. } => vec![Rule::R4_6],
            Opened {
                by: Opening::Charge,
                ..
            } => vec![Rule::R4_7],
            Opened { .. } => vec![Rule::R7_8],
            PickedUp { .. } | ObjectLanded { .. } => vec![Rule::R9_5],
            ThrowFlight { scatter: None, .. } => vec![Rule::R9_1],
            ThrowFlight { .. } => vec![Rule::R9_1, Rule::R9_3],
            ObjectBroke { .. } => vec![Rule::R9_4],
            ObjectStuck { .. } | StuckDropped { .. } => vec![Rule::R9_2],
            SplashBurst { .. } => vec![Rule::R9_4],
            ReactionOffered {
                trigger: super::reactions::Trigger::Attacked,
                ..
            }
            | ReactionAnswered {
                trigger: super::reactions::Trigger::Attacked,
                ..
            } => vec![Rule::V2],
            ReactionOffered { .. } | ReactionAnswered { .. } => vec![Rule::R8, Rule::R8_3],
            ReactionTaken { .. } => {
                vec![Rule::R8_1, Rule::R8_2, Rule::R8_3, Rule::R8_5, Rule::R4_4]
            }
            ReactionBarred { rule, .. } => vec![*rule, Rule::R8_3],
            ReactionDeclined { .. } => vec![Rule::R8_3],
            ActionInterrupted { .. } => vec![Rule::R8_4],
            CommandRefused { refusal, .. } => vec![refusal.rule],
            BattleEnded { .. } => vec![Rule::R11],
        }
    }

    /// The tiles the event names (a step's from and to, an attack's
    /// tiles, where a throw was aimed and came down, a splash's reach), for
    /// the window to spotlight.
    pub fn tiles(&self) -> Vec<Pos> {
        use BattleEvent::*;
        match self {
            Stepped { from, to, .. } | Moved { from, to, .. } | Shifted { from, to, .. } => {
                vec![*from, *to]
            }
            FellBack { to, .. } => vec![*to],
            AttackRolled(a) => vec![a.from, a.at],
            ThrowFlight {
                from,
                aimed,
                landing,
                ..
            } => vec![*from, *aimed, *landing],
            WeaponDropped { at, .. }
            | PickedUp { at, .. }
            | ObjectLanded { at, .. }
            | ObjectBroke { at, .. }
            | StuckDropped { at, .. } => vec![*at],
            SplashBurst { tiles, .. } => tiles.clone(),
            _ => vec![],
        }
    }

    /// The units this event is about (actor first).
    pub fn units(&self) -> Vec<UnitId> {
        use BattleEvent::*;
        match self {
            InitiativeRolled { unit, .. }
            | TurnStarted { unit, .. }
            | ApSpent { unit, .. }
            | Stepped { unit, .. }
            | FellBack { unit, .. }
            | Moved { unit, .. }
            | Shifted { unit, .. }
            | Faced { unit, .. }
            | Parried { unit, .. }
            | Guarded { unit, .. }
            | Injured { unit, .. }
            | Lamed { unit }
            | KnockedOut { unit }
            | InjurySave { unit, .. }
            | ZoneRolled { unit, .. }
            | WeaponDropped { unit, .. }
            | FellDying { unit, .. }
            | TimerLowered { unit, .. }
            | DyingAgain { unit, .. }
            | DyingRolled { unit, .. }
            | Died { unit }
            | Healed { unit, .. }
            | StoodUp { unit }
            | Defended { unit, .. }
            | ShieldReadied { unit }
            | Opened { unit, .. }
            | PickedUp { unit, .. }
            | ThrowFlight { unit, .. }
            | ObjectStuck { unit, .. }
            | StuckDropped { unit, .. }
            | ActionInterrupted { unit } => vec![*unit],
            Damaged { unit, source, .. } => vec![*source, *unit],
            Stabilized { unit, target, .. } => vec![*unit, *target],
            PotionUsed { unit, drinker, .. } => vec![*unit, *drinker],
            AttackRolled(a) => std::iter::once(a.attacker).chain(a.target).collect(),
            ReactionOffered {
                reactor, provoker, ..
            }
            | ReactionTaken {
                reactor, provoker, ..
            }
            | ReactionDeclined {
                reactor, provoker, ..
            }
            | ReactionBarred {
                reactor, provoker, ..
            } => vec![*reactor, *provoker],
            ReactionAnswered { reactor, .. } => vec![*reactor],
            RoundStarted { .. }
            | SideInitiative { .. }
            | ObjectLanded { .. }
            | ObjectBroke { .. }
            | SplashBurst { .. }
            | CommandRefused { .. }
            | BattleEnded { .. } => vec![],
        }
    }

    /// The variant's name ("AttackRolled"), as scenario expectations name
    /// it.
    pub fn kind(&self) -> &'static str {
        use BattleEvent::*;
        match self {
            InitiativeRolled { .. } => "InitiativeRolled",
            SideInitiative { .. } => "SideInitiative",
            RoundStarted { .. } => "RoundStarted",
            TurnStarted { .. } => "TurnStarted",
            ApSpent { .. } => "ApSpent",
            Stepped { .. } => "Stepped",
            FellBack { .. } => "FellBack",
            Moved { .. } => "Moved",
            Shifted { .. } => "Shifted",
            Faced { .. } => "Faced",
            AttackRolled(_) => "AttackRolled",
            Parried { .. } => "Parried",
            Guarded { .. } => "Guarded",
            Injured { .. } => "Injured",
            Lamed { .. } => "Lamed",
            KnockedOut { .. } => "KnockedOut",
            InjurySave { .. } => "InjurySave",
            Damaged { .. } => "Damaged",
            ZoneRolled { .. } => "ZoneRolled",
            WeaponDropped { .. } => "WeaponDropped",
            FellDying { .. } => "FellDying",
            TimerLowered { .. } => "TimerLowered",
            DyingAgain { .. } => "DyingAgain",
            DyingRolled { .. } => "DyingRolled",
            Died { .. } => "Died",
            Stabilized { .. } => "Stabilized",
            PotionUsed { .. } => "PotionUsed",
            Healed { .. } => "Healed",
            StoodUp { .. } => "StoodUp",
            Defended { .. } => "Defended",
            ShieldReadied { .. } => "ShieldReadied",
            Opened { .. } => "Opened",
            PickedUp { .. } => "PickedUp",
            ThrowFlight { .. } => "ThrowFlight",
            ObjectLanded { .. } => "ObjectLanded",
            ObjectBroke { .. } => "ObjectBroke",
            ObjectStuck { .. } => "ObjectStuck",
            StuckDropped { .. } => "StuckDropped",
            SplashBurst { .. } => "SplashBurst",
            ReactionOffered { .. } => "ReactionOffered",
            ReactionAnswered { .. } => "ReactionAnswered",
            ReactionTaken { .. } => "ReactionTaken",
            ReactionDeclined { .. } => "ReactionDeclined",
            ReactionBarred { .. } => "ReactionBarred",
            ActionInterrupted { .. } => "ActionInterrupted",
            CommandRefused { .. } => "CommandRefused",
            BattleEnded { .. } => "BattleEnded",
        }
    }
}

/// The battle's events, oldest first. Append-only: readers keep their own
/// [`EventCursor`].
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BattleEvents {
    events: Vec<BattleEvent>,
}

/// How far a reader has read [`BattleEvents`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventCursor(pub usize);

impl BattleEvents {
    /// Appends an event.
    pub fn push(&mut self, event: BattleEvent) {
        self.events.push(event);
    }

    /// Every event so far.
    pub fn all(&self) -> &[BattleEvent] {
        &self.events
    }

    /// The events `cursor` has not read yet; moves the cursor past them.
    pub fn read(&self, cursor: &mut EventCursor) -> &[BattleEvent] {
        let from = cursor.0.min(self.events.len());
        cursor.0 = self.events.len();
        &self.events[from..]
    }

    /// A cursor at the end: it will read only what happens from now on.
    pub fn cursor_at_end(&self) -> EventCursor {
        EventCursor(self.events.len())
    }

    /// A queue holding `events` (a restored save).
    pub fn from_events(events: Vec<BattleEvent>) -> Self {
        Self { events }
    }
}

/// Pushes `event` to the world's [`BattleEvents`].
pub fn emit(world: &mut World, event: BattleEvent) {
    world.resource_mut::<BattleEvents>().push(event);
}

/// The stable id of `unit` ([`UnitId`]); `u32::MAX` for an entity that is
/// not a unit.
pub fn id_of(world: &World, unit: Entity) -> UnitId {
    world
        .get::<UnitId>(unit)
        .copied()
        .unwrap_or(UnitId(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_each_event_once() {
        let mut q = BattleEvents::default();
        let mut c = EventCursor::default();
        q.push(BattleEvent::Died { unit: UnitId(1) });
        assert_eq!(q.read(&mut c).len(), 1);
        assert!(q.read(&mut c).is_empty());
        q.push(BattleEvent::Died { unit: UnitId(2) });
        q.push(BattleEvent::Died { unit: UnitId(3) });
        assert_eq!(
            q.read(&mut c),
            &[
                BattleEvent::Died { unit: UnitId(2) },
                BattleEvent::Died { unit: UnitId(3) }
            ]
        );
    }
}
