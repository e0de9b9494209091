//! The rules of `../shared/RULES.md` as ECS.
//!
//! A battle changes only through [`submit`] (the [`pipeline`]): a
//! [`Command`] runs through the [`CommandSchedule`]'s phases,
//!
//! ```text
//! Identify → Validate → Decide (Ask → Hold) → Pay → Execute → Advance
//! ```
//!
//! and every outcome is told as a [`BattleEvent`]. Attacks gather their
//! labelled modifiers in the [`AttackSchedule`] (`Base → Situational →
//! Final → Body → Answer`), which the preview and the AI run too; a rolled hit
//! goes through the hook schedules of [`attacks::hit`] (answer, land,
//! wound). All these orders are configured in [`RulesPlugin`], here and
//! nowhere else.
//!
//! The rooms, from the words every rule speaks to the rules that use the
//! others (nothing imports a room above it; `tests/architecture.rs` checks):
//!
//! | room | what |
//! |---|---|
//! | [`rule`], [`rulebook`], [`command`], [`modifiers`], [`contest`], [`miss_chance`], [`events`], [`pipeline`] | the vocabulary: rule ids and their text, commands and refusals, modifiers and the attack draft, an attack rolled as a contest of dice (V6.3) or against a Miss Chance (V5.10), battle events, the command pipeline |
//! | [`sight`] | R6 line of effect, cover, firing into melee; R7.4 range |
//! | [`positioning`] | R4.1–R4.6 facing, threatening, flanking, Defend and Ready shield |
//! | [`dying`] | R10 dying, stabilising, healing and potions |
//! | [`attacks`] | R7 attacks: bonus and DV, the roll, damage, techniques, the exact preview |
//! | [`turns`] | R2 initiative and turns, R3 action points, R11 victory |
//! | [`reactions`] | R8 reactive attacks, what provokes, asking a side, the parry |
//! | [`motion`] | R5 movement, R4.7 charge, R4.8 prone |
//! | [`throws`] | R9 throws and scatter, picking up |
//! | [`variants`] | V1–V13: each a plugin switched on by the level |
//! | [`legal`], [`log`], [`board`] | readers: the legal commands, the combat log, the state folded from events |
//!
//! Decisions the reference leaves open are in `src/rules/DECISIONS.md`,
//! included below.
//!
#![doc = include_str!("DECISIONS.md")]

pub mod attacks;
pub mod board;
pub mod command;
pub mod contest;
pub mod dying;
pub mod events;
pub mod legal;
pub mod log;
pub mod miss_chance;
pub mod modifiers;
pub mod motion;
pub mod pipeline;
pub mod positioning;
pub mod reactions;
pub mod rule;
pub mod rulebook;
pub mod sight;
pub mod throws;
pub mod turns;
pub mod variants;

pub use attacks::hit::{AnswerSystems, HitSchedule};
pub use command::{Command, CommandKind, Refusal, ThrowTarget};
pub use events::{
    BattleEvent, BattleEvents, EventCursor, EventKind, Outcome, Trigger, VictoryKind,
};
pub use log::CombatLog;
pub use modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Modifier};
pub use pipeline::{
    CommandSchedule, CommandSystems, DecideSystems, Decisions, Handles, History, Pending, check,
    submit,
};
pub use rule::Rule;
pub use turns::turn::TurnState;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

/// The rules: schedules, sets and every rule's systems. Headless.
pub struct RulesPlugin;

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        let mut commands = Schedule::new(CommandSchedule);
        commands.set_executor(SingleThreadedExecutor::new());
        commands.configure_sets(
            (
                CommandSystems::Identify,
                CommandSystems::Validate,
                CommandSystems::Decide,
                CommandSystems::Pay,
                CommandSystems::Execute,
                CommandSystems::Advance,
            )
                .chain(),
        );
        commands.configure_sets(
            (DecideSystems::Ask, DecideSystems::Hold)
                .chain()
                .in_set(CommandSystems::Decide),
        );
        for &kind in CommandKind::ALL {
            commands.configure_sets(Handles(kind).run_if(pipeline::pending(kind)));
        }
        commands.configure_sets(
            CommandSystems::Decide
                .run_if(|p: Res<Pending>| !p.dry_run)
                .run_if(pipeline::accepted),
        );
        // A refused command, or a dry run (`check`), stops after validation.
        // (A set's conditions are evaluated when its first system is about
        // to run: for these, after Validate.)
        commands.configure_sets(
            (
                CommandSystems::Pay,
                CommandSystems::Execute,
                CommandSystems::Advance,
            )
                .run_if(pipeline::carried_out)
                .run_if(pipeline::accepted),
        );
        app.add_schedule(commands);

        let mut attacks = Schedule::new(AttackSchedule);
        attacks.set_executor(SingleThreadedExecutor::new());
        attacks.configure_sets(
            (
                AttackSystems::Base,
                AttackSystems::Situational,
                AttackSystems::Final,
                AttackSystems::Body,
                AttackSystems::Answer,
            )
                .chain(),
        );
        app.add_schedule(attacks);

        // The moments of a rolled hit (attacks::hit): each a schedule of
        // its own, run by the resolution at that moment.
        for label in [HitSchedule::Answer, HitSchedule::Land, HitSchedule::Wound] {
            let mut schedule = Schedule::new(label);
            schedule.set_executor(SingleThreadedExecutor::new());
            if label == HitSchedule::Answer {
                schedule.configure_sets((AnswerSystems::Declared, AnswerSystems::Reactive).chain());
            }
            app.add_schedule(schedule);
        }

        app.init_resource::<Pending>()
            .init_resource::<BattleEvents>()
            .init_resource::<Decisions>()
            .init_resource::<History>()
            .init_resource::<reactions::policy::ReactionPolicies>()
            // The core rules, room by room…
            .add_plugins((
                turns::plugin,
                positioning::plugin,
                sight::plugin,
                attacks::plugin,
                dying::plugin,
                reactions::plugin,
                motion::plugin,
                throws::plugin,
            ))
            // …and the variants, each switched on by the level.
            .add_plugins(variants::plugin);
    }
}

/// Puts the rules' own state (turn, events, reactions asked, the history,
/// the last hit, hold streaks) back as [`RulesPlugin`] first made it, for a
/// battle about to be spawned again in the same app (a level reloaded in
/// place).
pub fn reset(world: &mut World) {
    world.insert_resource(TurnState::default());
    world.insert_resource(BattleEvents::default());
    world.insert_resource(Pending::default());
    world.insert_resource(Decisions::default());
    world.insert_resource(History::default());
    world.insert_resource(attacks::techniques::LastHit::default());
    world.insert_resource(turns::victory::HoldStreaks::default());
}
