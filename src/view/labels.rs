//! Room for words on the map: where a label goes so that it covers no
//! unit's bars or condition icons, no other label and, where a spot is
//! near, no figure; shared by the AI's intent ([`super::intent`]) and the
//! overlays' words ([`super::overlays`]), so the two place labels alike.
//!
//! Drawing only: which words say what is decided by their callers.

use super::coords::{Grid, TILE};
use super::playback::UnitSprite;
use super::units::Part;
use crate::grid::Pos;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// Pixels kept between a label and the next label, bar or icon.
pub const LABEL_GAP: f32 = 2.0;

/// The dark plate under a label that may lie over a figure or a bright
/// tile: readable over grass, water, a red strike mark or a figure alike.
pub const LABEL_PLATE: Color = Color::srgba(0.05, 0.04, 0.03, 0.72);

/// What stands on the map that a label should keep clear of, read from
/// the units' drawn parts.
#[derive(SystemParam)]
pub struct Crowd<'w, 's> {
    parts: Query<
        'w,
        's,
        (
            &'static Part,
            &'static Sprite,
            &'static GlobalTransform,
            &'static InheritedVisibility,
        ),
    >,
    bodies:
        Query<'w, 's, (&'static GlobalTransform, &'static InheritedVisibility), With<UnitSprite>>,
}

impl Crowd<'_, '_> {
    /// Each shown figure's body (a tile's middle, n tiles for a big one,
    /// V10.6): a label over a figure hides who stands there.
    pub fn figures(&self) -> Vec<Rect> {
        self.bodies
            .iter()
            .filter(|(_, shown)| shown.get())
            .map(|(at, _)| {
                let (scale, _, at) = at.to_scale_rotation_translation();
                let size = Vec2::new(0.6, 0.8) * TILE * scale.truncate();
                Rect::from_center_size(at.truncate(), size)
            })
            .collect()
    }

    /// Every shown unit's bars and condition icons: what no label may cover.
    pub fn bars_and_icons(&self) -> Vec<Rect> {
        self.parts
            .iter()
            .filter(|(part, _, _, shown)| {
                matches!(part, Part::BarBack | Part::Icon(_)) && shown.get()
            })
            .map(|(_, sprite, at, _)| {
                let (scale, _, at) = at.to_scale_rotation_translation();
                let size = sprite.custom_size.unwrap_or(Vec2::ZERO) * scale.truncate();
                Rect::from_center_size(at.truncate(), size)
            })
            .collect()
    }
}

/// The room `words` take at `font` pixels, a plate's margin included: the
/// longest line's width by the lines' height (Bevy's text runs 1.2 of
/// its size a line; a character of the UI font about 0.6 of it wide).
pub fn label_size(words: &str, font: f32) -> Vec2 {
    let lines = words.lines().count().max(1) as f32;
    let widest = words.lines().map(|l| l.chars().count()).max().unwrap_or(0) as f32;
    Vec2::new(widest * font * 0.6 + 6.0, lines * font * 1.2 + 2.0)
}

/// Where a label of `size` wanted at `want` goes: the nearest spot that
/// keeps [`LABEL_GAP`] from each of `clear` (two labels touching read as
/// one line) and is off every one of `figures` (the units' bodies: a
/// label over a figure hides who stands there), looked for a few pixels
/// at a time within two tiles up or down and a tile and a half to either
/// side, nearest first, down before up and right before left at the same
/// distance; kept inside `map`, where a label at its edge would run into
/// the panel. Where no spot off the figures is near, the nearest one
/// clear of `clear` alone does (in a crowd every spot is over someone);
/// where none is, it stays where it was wanted.
pub fn place_label(want: Vec2, size: Vec2, clear: &[Rect], figures: &[Rect], map: Rect) -> Vec2 {
    let inside = |mut at: Vec2| {
        let half = size / 2.0;
        at.x = at.x.clamp(
            map.min.x + half.x,
            (map.max.x - half.x).max(map.min.x + half.x),
        );
        at.y = at.y.clamp(
            map.min.y + half.y,
            (map.max.y - half.y).max(map.min.y + half.y),
        );
        at
    };
    let off = |at: Vec2, rects: &[Rect], gap: f32| {
        let r = Rect::from_center_size(at, size + Vec2::splat(2.0 * gap));
        rects.iter().all(|c| r.intersect(*c).is_empty())
    };
    const STEP: f32 = 2.0;
    let up = (2.0 * TILE / STEP) as i32;
    let side = (1.5 * TILE / STEP) as i32;
    let mut spots: Vec<(i32, i32)> = (-up..=up)
        .flat_map(|dy| (-side..=side).map(move |dx| (dx, dy)))
        .collect();
    // Nearest first; at the same distance down, then right.
    spots.sort_by_key(|&(dx, dy)| (dx * dx + dy * dy, dy > 0, dx < 0, dy.abs(), dx.abs()));
    let at = |&(dx, dy): &(i32, i32)| inside(want + Vec2::new(dx as f32, dy as f32) * STEP);
    let clear_of = |at: Vec2| off(at, clear, LABEL_GAP);
    spots
        .iter()
        .map(at)
        .find(|p| clear_of(*p) && off(*p, figures, 0.0))
        .or_else(|| spots.iter().map(at).find(|p| clear_of(*p)))
        .unwrap_or_else(|| inside(want))
}

/// Where each of `labels` (words at `font` pixels) is drawn, and whether
/// on a plate. A tile's words sit in its upper half, where its tint still
/// shows below them. On a tile a unit stands on (the odds of a spell on
/// it, V11.3) they would cross its figure, its initials and its bars and
/// read as neither, so those go beside it, on a dark plate, clear of
/// every unit's bars and icons (`clear`), of the figures where a spot is
/// near, and of the words placed before.
pub fn place_words<'a>(
    labels: &'a [(Pos, String)],
    grid: &Grid,
    font: f32,
    mut clear: Vec<Rect>,
    figures: &[Rect],
) -> Vec<(Vec2, &'a str, bool)> {
    let map = Rect::from_center_size(Vec2::ZERO, grid.extent());
    let want = |p: Pos| grid.world(p) + Vec2::Y * (TILE / 4.0);
    let on_figure = |p: Pos| figures.iter().any(|f| f.contains(grid.world(p)));
    let (crowded, free): (Vec<_>, Vec<_>) = labels.iter().partition(|(p, _)| on_figure(*p));
    // The tiles' own words first: they stay on their tiles, and the words
    // moved beside a figure keep clear of them.
    let mut placed: Vec<(Vec2, &str, bool)> = free
        .iter()
        .map(|(p, words)| (want(*p), words.as_str(), false))
        .collect();
    clear.extend(
        placed
            .iter()
            .map(|(at, words, _)| Rect::from_center_size(*at, label_size(words, font))),
    );
    for (p, words) in crowded {
        let size = label_size(words, font);
        let at = place_label(want(*p), size, &clear, figures, map);
        clear.push(Rect::from_center_size(at, size));
        placed.push((at, words.as_str(), true));
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: Rect = Rect {
        min: Vec2::splat(-160.0),
        max: Vec2::splat(160.0),
    };

    #[test]
    fn a_label_stays_where_it_is_wanted_when_nothing_is_in_the_way() {
        let at = place_label(Vec2::new(0.0, -10.0), Vec2::new(80.0, 14.0), &[], &[], MAP);
        assert_eq!(at, Vec2::new(0.0, -10.0));
    }

    #[test]
    fn a_label_moves_off_a_units_bars_and_off_the_label_before_it() {
        let size = Vec2::new(80.0, 14.0);
        // The bars of the unit a row below, as `units` draws them.
        let bars = Rect::from_center_size(Vec2::new(0.0, -32.0 + 13.0), Vec2::new(25.0, 6.0));
        let first = Rect::from_center_size(Vec2::new(0.0, -10.0), size);
        let at = place_label(Vec2::new(0.0, -10.0), size, &[bars, first], &[], MAP);
        let label = Rect::from_center_size(at, size);
        assert!(label.intersect(bars).is_empty(), "{at} covers the bars");
        assert!(
            label.intersect(first).is_empty(),
            "{at} covers the first label"
        );
        // Not touching it either: two labels touching read as one line.
        assert!(label.min.y - first.max.y >= LABEL_GAP, "{at} touches it");
        // The nearest clear spot: over the first label (16 px up), nearer
        // than under the bars (22 px down), not a tile away.
        assert_eq!(at, Vec2::new(0.0, 6.0));
    }

    #[test]
    fn a_label_at_the_maps_edge_is_kept_over_the_map() {
        let size = Vec2::new(120.0, 14.0);
        let at = place_label(Vec2::new(150.0, 150.0), size, &[], &[], MAP);
        assert!(Rect::from_center_size(at, size).min.cmpge(MAP.min).all());
        assert!(Rect::from_center_size(at, size).max.cmple(MAP.max).all());
    }

    #[test]
    fn a_label_moves_off_a_figure_where_a_spot_is_near_and_not_off_its_bars() {
        let size = Vec2::new(80.0, 14.0);
        let want = Vec2::new(0.0, -10.0);
        // A figure standing at the label's left end, as on hill, where
        // "Brakka hits Bede" crossed an archer.
        let body = Rect::from_center_size(Vec2::new(-30.0, -6.0), Vec2::new(19.0, 26.0));
        let at = place_label(want, size, &[], &[body], MAP);
        assert!(
            Rect::from_center_size(at, size).intersect(body).is_empty(),
            "{at} crosses the figure"
        );
        assert!(at.distance(want) <= 2.0 * TILE, "{at} went far");
        // In a crowd (figures all round), the label stays as near as the
        // bars allow rather than wandering off: it is the bars it must
        // never cover.
        let crowd: Vec<Rect> = (-4..=4)
            .flat_map(|x| (-4..=4).map(move |y| (x, y)))
            .map(|(x, y)| {
                Rect::from_center_size(
                    Vec2::new(x as f32 * TILE, y as f32 * TILE),
                    Vec2::new(19.0, 26.0),
                )
            })
            .collect();
        let bars = Rect::from_center_size(Vec2::new(0.0, -32.0 + 13.0), Vec2::new(25.0, 6.0));
        let at = place_label(want, size, &[bars], &crowd, MAP);
        let label = Rect::from_center_size(at, size);
        assert!(label.intersect(bars).is_empty(), "{at} covers the bars");
        assert_eq!(at, place_label(want, size, &[bars], &[], MAP));
    }

    #[test]
    fn a_two_line_label_is_as_wide_as_its_longest_line_and_two_lines_high() {
        let one = label_size("hit 65%", 11.0);
        let two = label_size("hit 65%\n0.7 dmg drop 0%", 11.0);
        assert!(two.x > one.x, "sized by its longest line");
        assert!((two.y - one.y - 11.0 * 1.2).abs() < 1e-3, "a line higher");
    }

    #[test]
    fn a_spells_odds_on_a_units_tile_go_beside_its_figure_and_a_tiles_words_stay() {
        // Tour 24 at step 16: firebolt aimed at Vek at (7, 2), his figure
        // and bars on his tile; a scatter chance on the empty tile (3, 3).
        let grid = Grid {
            width: 11,
            height: 5,
        };
        let vek = grid.world(Pos::new(7, 2));
        let figure = Rect::from_center_size(vek, Vec2::new(0.6, 0.8) * TILE);
        let bars = Rect::from_center_size(vek + Vec2::Y * (TILE / 2.0 - 3.0), Vec2::new(25.0, 6.0));
        let labels = vec![
            (Pos::new(7, 2), "hit 65%\n0.7 dmg".to_string()),
            (Pos::new(3, 3), "12%".to_string()),
        ];
        let placed = place_words(&labels, &grid, 11.0, vec![bars], &[figure]);
        let tile = placed.iter().find(|(_, w, _)| *w == "12%").unwrap();
        assert_eq!(tile.0, grid.world(Pos::new(3, 3)) + Vec2::Y * (TILE / 4.0));
        assert!(!tile.2, "a tile's own words need no plate");
        let (at, words, plated) = *placed
            .iter()
            .find(|(_, w, _)| w.starts_with("hit"))
            .unwrap();
        let label = Rect::from_center_size(at, label_size(words, 11.0));
        assert!(plated, "over a figure's neighbourhood, on a plate");
        assert!(label.intersect(figure).is_empty(), "{at} crosses Vek");
        assert!(label.intersect(bars).is_empty(), "{at} covers his bars");
        assert!(at.distance(vek) <= 1.5 * TILE, "{at} is far from Vek");
    }
}
