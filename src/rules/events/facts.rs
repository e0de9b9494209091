//! What an event shows at work: the rules it cites (what the log prints and
//! a scenario's `Event(rule: ...)` matches), the tiles it names (what the
//! window spotlights) and the units it is about.

use super::battle_event::BattleEvent;
use super::payload::{DamageHow, Opening, Trigger};
use crate::battle::UnitId;
use crate::grid::Pos;
use crate::rules::rule::Rule;

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
            Walked(_) => vec![Rule::R5_1, Rule::R8_2],
            FellBack(_) => vec![Rule::R5_2],
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
                if let Some(m) = a.maneuver {
                    r = vec![Rule::V7_1, m.rule()];
                }
                if let Some(c) = &a.contest {
                    r = vec![Rule::V6_2, Rule::V6_3];
                    if c.successes > 0 {
                        r.push(Rule::V6_4);
                    }
                    if c.attack.dice.len() > 1 || c.defence.dice.len() > 1 {
                        r.push(Rule::R0_4);
                    }
                }
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
            Owes(_) => vec![Rule::V6_5, Rule::V6_6],
            DebtPaid(_) => vec![Rule::V6_6],
            Energy(e) => e.rules(),
            Spell(e) => e.rules(),
            Guarded {
                by: None,
                worse: None,
                ..
            } => vec![Rule::V2],
            Guarded {
                guard: crate::format::Guard::Parry,
                by: None,
                ..
            } => vec![Rule::V2, Rule::V10_5],
            Guarded { .. } => vec![Rule::V2, Rule::V12_4],
            Injured { .. }
            | Lamed { .. }
            | KnockedOut { .. }
            | InjurySave(_)
            | ShockCheck(_)
            | TurnLost { .. } => {
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
                    DamageHow::Hit { warded, .. } if *warded > 0 => r.push(Rule::V11_3),
                    DamageHow::Splash => r.push(Rule::R9_4),
                    DamageHow::Fall => r.push(Rule::V9_4),
                    DamageHow::Successes { .. } => r.push(Rule::V6_4),
                    _ => {}
                }
                r
            }
            WeaponDropped { injured: false, .. } => vec![Rule::R7_3],
            WeaponDropped { injured: true, .. } => vec![Rule::V3],
            FellDying { .. } => vec![Rule::R10_1],
            FellStable(_) => vec![Rule::V6_9],
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
            Opened {
                by: Opening::Maneuver,
                ..
            } => vec![Rule::V7_3],
            Opened {
                by: Opening::Shove, ..
            } => vec![Rule::V7_7],
            KnockedDown { rule, .. } => vec![*rule, Rule::R4_8],
            Disarmed { .. } => vec![Rule::V7_5, Rule::R9_5],
            Shoved { .. } => vec![Rule::V7_7],
            Jumped(j) => match j.outcome {
                crate::rules::events::JumpOutcome::Landed => vec![Rule::V9_2, Rule::V9_3],
                _ => vec![Rule::V9_2, Rule::V9_3, Rule::R4_8],
            },
            Fell(f) if f.chasm => vec![Rule::V9_5],
            Fell(_) => vec![Rule::V9_4],
            Revealed(_) => vec![Rule::V8_6],
            Searching(_) => vec![Rule::V8_5],
            Sneaked(_) => vec![Rule::V8_3],
            Hid(h) if h.at_start => vec![Rule::V8_2],
            Hid(_) => vec![Rule::V8_4],
            Bumped(_) => vec![Rule::V8_6],
            Searched(_) => vec![Rule::V8_5],
            FreeMoveTaken { .. } => vec![Rule::V12_2],
            Mounted { .. } | Dismounted { .. } | ThrownOff { .. } => vec![Rule::V12_7],
            Grappled { .. }
            | GrappleSustained { .. }
            | GrappleEnded { .. }
            | Dragged { .. }
            | Crushing { .. } => vec![Rule::V7_6],
            Opened { .. } => vec![Rule::R7_8],
            PickedUp { .. } | ObjectLanded { .. } => vec![Rule::R9_5],
            ThrowFlight { scatter: None, .. } => vec![Rule::R9_1],
            ThrowFlight { .. } => vec![Rule::R9_1, Rule::R9_3],
            ObjectBroke { .. } => vec![Rule::R9_4],
            ObjectStuck { .. } | StuckDropped { .. } => vec![Rule::R9_2],
            SplashBurst { .. } => vec![Rule::R9_4],
            ReactionOffered {
                trigger: Trigger::Attacked,
                ..
            }
            | ReactionAnswered {
                trigger: Trigger::Attacked,
                ..
            } => vec![Rule::V2],
            ReactionOffered { .. } | ReactionAnswered { .. } => vec![Rule::R8, Rule::R8_3],
            ReactionTaken {
                trigger: Trigger::Maneuver,
                ..
            } => vec![Rule::R8_1, Rule::V7_2, Rule::R8_5],
            ReactionTaken {
                trigger: Trigger::BareHands,
                ..
            } => vec![Rule::R8_1, Rule::V6_9],
            ReactionTaken {
                strikes: Some(_), ..
            } => vec![Rule::R8_1, Rule::R8_2, Rule::V12_5],
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
            Walked(s) => vec![s.from, s.to],
            FellBack(f) => vec![f.to],
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
            Shoved { from, to, .. } => vec![*from, *to],
            Jumped(j) => vec![j.from, j.aimed, j.to],
            Fell(f) => vec![f.at],
            Disarmed { at, .. } => vec![*at],
            Dragged {
                from,
                to,
                target_from,
                target_to,
                ..
            } => vec![*from, *to, *target_from, *target_to],
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
            | FellBack(super::FallBack { unit, .. })
            | Walked(super::Stretch { unit, .. })
            | Moved { unit, .. }
            | Shifted { unit, .. }
            | Faced { unit, .. }
            | Parried { unit, .. }
            | Injured { unit, .. }
            | Lamed { unit }
            | KnockedOut { unit, .. }
            | InjurySave(super::InjurySave { unit, .. })
            | ShockCheck(super::ShockCheck { unit, .. })
            | TurnLost { unit }
            | Owes(super::Debt { unit, .. })
            | DebtPaid(super::Debt { unit, .. })
            | ZoneRolled { unit, .. }
            | WeaponDropped { unit, .. }
            | FellDying { unit, .. }
            | FellStable(unit)
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
            | ActionInterrupted { unit }
            | FreeMoveTaken { unit } => vec![*unit],
            Jumped(j) => vec![j.unit],
            Energy(e) => e.unit().into_iter().collect(),
            Spell(e) => vec![e.unit()],
            Fell(f) => vec![f.unit],
            Sneaked(r) | Searched(r) => vec![r.unit, r.watcher],
            Hid(h) => vec![h.unit],
            Revealed(r) => vec![r.unit],
            Searching(unit) => vec![*unit],
            Bumped(b) => vec![b.unit, b.by],
            Mounted { unit, mount, .. }
            | Dismounted { unit, mount, .. }
            | ThrownOff { unit, mount, .. } => vec![*unit, *mount],
            KnockedDown { unit, by, .. }
            | Disarmed { unit, by, .. }
            | Shoved { unit, by, .. }
            | Grappled { unit, by, .. }
            | GrappleEnded { unit, by, .. } => vec![*unit, *by],
            GrappleSustained { unit, target }
            | Dragged { unit, target, .. }
            | Crushing { unit, target } => vec![*unit, *target],
            Damaged { unit, source, .. } => vec![*source, *unit],
            Stabilized { unit, target, .. } => vec![*unit, *target],
            PotionUsed { unit, drinker, .. } => vec![*unit, *drinker],
            AttackRolled(a) => std::iter::once(a.attacker).chain(a.target).collect(),
            ReactionTaken {
                reactor,
                provoker,
                strikes,
                ..
            } => [*reactor, *provoker].into_iter().chain(*strikes).collect(),
            Guarded { unit, by, .. } => std::iter::once(*unit).chain(*by).collect(),
            ReactionOffered {
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

    /// The kind of event, without its fields.
    pub fn kind(&self) -> super::EventKind {
        self.into()
    }
}
