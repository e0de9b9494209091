//! The log's lines for a Move (R5.1): its whole walk in one line, or, when
//! reactions met it on the way (R8.2), each stretch before them and then
//! the rest ("moves on … 2 more tiles (5 in all)"); a fall-back out of an
//! ally's tile; a Step.

use super::words::{Names, plural};
use crate::grid::{Dir, Pos};
use crate::rules::events::BattleEvent;

/// The lines of a move event (none for another event, or for a Move whose
/// every tile its stretches told).
pub(super) fn lines(event: &BattleEvent, names: &Names) -> Vec<String> {
    let n = |id| names.unit(id);
    match event {
        BattleEvent::FellBack(f) => vec![format!(
            "  {} falls back to {}, out of its ally's tile",
            n(f.unit),
            f.to
        )],
        BattleEvent::Walked(s) => {
            vec![line(n(s.unit), s.from, s.to, (s.tiles, s.in_all), s.facing)]
        }
        BattleEvent::Moved {
            unit,
            from,
            to,
            tiles,
            facing,
            cost,
            told,
        } => {
            // After reactions on the way, the stretches walked before them
            // were told (`Walked`): only the rest is, if it went on.
            let (from, before) = told.unwrap_or((*from, 0));
            if *tiles <= before && told.is_some() {
                return vec![];
            }
            let mut out = vec![line(
                n(*unit),
                from,
                *to,
                (*tiles - before, *tiles),
                *facing,
            )];
            if let Some(c) = cost {
                let crawl = if c.crawl { ", crawling (R4.8)" } else { "" };
                out.push(format!(
                    "  movement cost {} of speed {}{crawl} (R5.1)",
                    c.cost, c.speed
                ));
            }
            out
        }
        BattleEvent::Shifted { unit, from, to } => {
            vec![format!("{} steps {from} → {to} (R3.1 Step)", n(*unit))]
        }
        _ => vec![],
    }
}

/// A Move's line, or a stretch of it: "moves" from its start, "moves on"
/// from where a reaction on the way was taken (`tiles` of `in_all`).
fn line(unit: &str, from: Pos, to: Pos, (tiles, in_all): (usize, usize), facing: Dir) -> String {
    if tiles == in_all {
        format!(
            "{unit} moves {from} → {to}, {tiles} tile{}, facing {facing} (R5.1)",
            plural(tiles as i64)
        )
    } else {
        format!(
            "{unit} moves on {from} → {to}, {tiles} more tile{} ({in_all} in all), facing {facing} (R5.1)",
            plural(tiles as i64)
        )
    }
}
