//! The log's lines for V8's stealth: who starts hidden, sneak checks,
//! hiding, searches, and why a hidden unit is revealed, each with its
//! sub-rule and every die: "Vek sneaks past Ann, who sees its path (V8.1):
//! d20 [10] keep 10 [+0 adv: concealment and light] +6 = 16 vs DC 11 →
//! unseen (V8.3)".

use super::words::Names;
use crate::rules::events::{BattleEvent, Reveal, Revelation};

/// The line of a stealth event (V8), `None` for any other.
pub(super) fn line(event: &BattleEvent, names: &Names) -> Option<String> {
    use BattleEvent::*;
    let n = |id: crate::battle::UnitId| names.unit(id);
    let line = match event {
        Searching(unit) => format!("{} searches (V8.5)", n(*unit)),
        Revealed(Revelation { unit, cause, .. }) => match cause {
            Reveal::Struck => {
                format!("  {} is revealed: it struck from hiding (V8.6)", n(*unit))
            }
            Reveal::Spotted(by) => {
                format!(
                    "  {} is revealed: {} spotted it (V8.3, V8.6)",
                    n(*unit),
                    n(*by)
                )
            }
            Reveal::Faced(by) => {
                format!(
                    "  {} is revealed: {} came beside it, facing it (V8.6)",
                    n(*unit),
                    n(*by)
                )
            }
            Reveal::Bumped(by) => {
                format!("  {} is revealed: {} ran into it (V8.6)", n(*unit), n(*by))
            }
            Reveal::Found(by) => {
                format!(
                    "  {} is revealed: {} found it (V8.5, V8.6)",
                    n(*unit),
                    n(*by)
                )
            }
        },
        Hid(h) if h.at_start => {
            let sides: Vec<&str> = (0..32)
                .filter(|s| h.from & (1 << s) != 0)
                .map(|s| names.side(s))
                .collect();
            format!(
                "{} starts hidden from {} (V8.2)",
                n(h.unit),
                sides.join(", ")
            )
        }
        Hid(h) => format!("  {} hides from every enemy (V8.4)", n(h.unit)),
        Bumped(b) => format!(
            "  {} runs into {}, unseen at {}, and stops (V8.6)",
            n(b.by),
            n(b.unit),
            b.at
        ),
        Searched(r) => format!(
            "{} searches for {}: d20 [{}] {:+} = {} vs DC {} → {} (V8.5)",
            n(r.watcher),
            n(r.unit),
            r.kept,
            r.bonus,
            r.total,
            r.dc,
            if r.success() { "found" } else { "not found" }
        ),
        Sneaked(r) => format!(
            "{} sneaks past {}, who sees its path (V8.1): d20 {:?} keep {} [{:+} adv: concealment \
             and light] {:+} = {} vs DC {} → {} (V8.3)",
            n(r.unit),
            n(r.watcher),
            r.dice,
            r.kept,
            r.advantage,
            r.bonus,
            r.total,
            r.dc,
            if r.success() { "unseen" } else { "spotted" }
        ),
        _ => return None,
    };
    Some(line)
}
