//! The `heights` layer of a level (V9.1): one digit of metres per map
//! tile, checked against the map's shape with each fault at its line and
//! column.

use super::locate::Needle::{self, Ident};
use super::report::{MAX_SYMBOL_ERRORS, Report};
use crate::format::Level;

/// The tallest a tile may be, in metres (V9.1: one digit).
const MAX_ELEVATION: u32 = 9;

/// Checks the `heights` rows against the map's shape (V9.1): as many rows,
/// each as wide, every character a digit. Returns the heights row by row
/// when they are good and the level jumps; heights in a level without
/// `jumping` are checked, and a warning says they change nothing.
pub(super) fn check_heights(r: &mut Report, level: &Level) -> Option<Vec<u8>> {
    let rows = &level.heights;
    if rows.is_empty() {
        return None;
    }
    let (height, width) = (
        level.map.len(),
        level.map.first().map_or(0, |r| r.chars().count()),
    );
    let mut good = true;
    if rows.len() != height {
        r.error(
            &[Ident("heights")],
            format!(
                "`heights` has {} rows but the map has {height}: one row of digits per map row (V9.1)",
                rows.len()
            ),
        );
        good = false;
    }
    let mut bad_digits = 0;
    for (y, row) in rows.iter().enumerate() {
        let row_path = [Ident("heights"), Needle::NthStr(y)];
        let w = row.chars().count();
        if w != width {
            r.error(
                &row_path,
                format!(
                    "heights row {y} is {w} tiles wide but the map is {width}: \
                     rows must be as wide as the map's (V9.1)"
                ),
            );
            good = false;
        }
        for (x, c) in row.chars().enumerate() {
            if c.to_digit(10).is_some_and(|d| d <= MAX_ELEVATION) {
                continue;
            }
            good = false;
            bad_digits += 1;
            if bad_digits > MAX_SYMBOL_ERRORS {
                continue;
            }
            r.error_at_char(
                &row_path,
                x,
                format!(
                    "height {c:?} at ({x}, {y}) is not a digit: heights are metres, 0 to {MAX_ELEVATION} (V9.1)"
                ),
            );
        }
    }
    if !good {
        return None;
    }
    if !level.rules.jumping {
        r.warn(
            &[Ident("heights")],
            "`heights` changes nothing without `rules: (jumping: true)` (V9)".into(),
        );
        return None;
    }
    Some(
        rows.iter()
            .flat_map(|row| row.chars())
            .map(|c| c.to_digit(10).unwrap_or(0) as u8)
            .collect(),
    )
}
