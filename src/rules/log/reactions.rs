//! The log's lines for reactions (R8): a command waiting on a reactor's
//! answer, the answer, a reactive attack taken (with the rule that drew
//! it), and an enemy that could not react, with why.

use super::words::Names;
use crate::rules::events::{BattleEvent, Trigger};
use crate::rules::rule::Rule;

/// The line of a reaction event, `None` for any other (and for an active
/// defence's answer, told when the hit is rolled, V2).
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    let n = |id| names.unit(id);
    let line = match event {
        BattleEvent::ReactionOffered {
            command,
            reactor,
            trigger: Trigger::Attacked,
            ..
        } => format!(
            "{command} waits: {} is asked how to meet it (an active defence), answer with React",
            n(*reactor)
        ),
        BattleEvent::ReactionOffered {
            command, reactor, ..
        } => format!(
            "{command} waits: {} may react (R8), answer with React",
            n(*reactor)
        ),
        // V2: the answer itself is told when the hit is rolled.
        BattleEvent::ReactionAnswered {
            trigger: Trigger::Attacked,
            ..
        } => return None,
        BattleEvent::ReactionAnswered {
            reactor,
            trigger,
            take,
        } => format!(
            "{} {} ({})",
            n(*reactor),
            if *take { "will react" } else { "lets it pass" },
            trigger.describe()
        ),
        BattleEvent::ReactionTaken {
            reactor,
            provoker,
            trigger,
            strikes,
        } => {
            // A maneuver provokes by V7.2, everything else by R8.2.
            let why = match trigger {
                Trigger::Maneuver => "V7.2",
                Trigger::BareHands => "V6.9",
                _ => "R8.2",
            };
            // Of a mounted pair, the reactor strikes the other (V12.5).
            let on = strikes.map_or(String::new(), |s| format!(" on {} (V12.5)", n(s)));
            format!(
                "{} reacts to {} {} ({why}): reactive attack{on} (R8.1)",
                n(*reactor),
                n(*provoker),
                trigger.describe()
            )
        }
        BattleEvent::ReactionBarred {
            reactor,
            provoker,
            trigger,
            rule,
        } => {
            let why = if *rule == Rule::R2_3 {
                "off-guard"
            } else if *rule == Rule::V5_9 {
                "its Swift Attack is spent, or no Energy for it"
            } else {
                "no reaction left this round"
            };
            format!(
                "  {} cannot react to {} {}: {why} ({rule})",
                n(*reactor),
                n(*provoker),
                trigger.describe()
            )
        }
        _ => return None,
    };
    Some(line)
}
