//! `skirmish render LEVEL -o FILE.png`: a picture of a level made in
//! memory with the game's own tileset and icons, without a window or a GPU
//! — for READMEs, bug reports and reviews of a level.
//!
//! It draws the terrain (the window's tiles, variants and edges), the
//! victory zones, the trees, the objects on the ground and the units (the
//! window's figures: base in the side's colour, facing wedge, kind, shield
//! and weapon in hand), and optionally a unit's reach (R5.1) or a side's
//! threatened tiles (R4.4), asked of the rules.

use crate::art::figures::{self, Arms, Kind, ShieldArt};
use crate::art::palette::tint;
use crate::art::tiles::{
    ICON, ICONS_PNG, Icon, OBJECTS_PNG, TILESET_PNG, built_in_png, tile_at, tree_at,
};
use crate::format::Victory;
use crate::grid::{Dir, Pos};
use crate::load::ValidLevel;
use crate::rules::positioning::threat;
use bevy::prelude::*;

/// Optional layers over the level.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Shade the tiles this unit may move to on its first turn (R5.1).
    pub reach: Option<String>,
    /// Shade the tiles this side's units threaten (R4.4).
    pub threat: Option<String>,
    /// Pixels per tile; `None`: 32 up to 40 tiles wide, else 16.
    pub tile_px: Option<u32>,
}

/// An RGBA picture, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA bytes.
    pub rgba: Vec<u8>,
}

impl Picture {
    fn new(width: u32, height: u32) -> Self {
        Picture {
            width,
            height,
            rgba: vec![0; (width * height * 4) as usize],
        }
    }

    /// The colour at `(x, y)`.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// Blends `c` (straight alpha) over the pixel at `(x, y)`.
    fn blend(&mut self, x: u32, y: u32, c: [u8; 4]) {
        if x >= self.width || y >= self.height {
            return;
        }
        let i = ((y * self.width + x) * 4) as usize;
        let a = c[3] as u32;
        for (under, top) in self.rgba[i..i + 3].iter_mut().zip(c) {
            *under = ((top as u32 * a + *under as u32 * (255 - a)) / 255) as u8;
        }
        self.rgba[i + 3] = 255;
    }

    /// Multiplies each pixel of the rectangle by `k`, channel by channel.
    fn tint(&mut self, x0: u32, y0: u32, w: u32, h: u32, k: [f32; 3]) {
        for y in y0..(y0 + h).min(self.height) {
            for x in x0..(x0 + w).min(self.width) {
                let i = ((y * self.width + x) * 4) as usize;
                for (c, k) in self.rgba[i..i + 3].iter_mut().zip(k) {
                    *c = (*c as f32 * k).round().clamp(0.0, 255.0) as u8;
                }
            }
        }
    }

    fn fill(&mut self, x0: u32, y0: u32, w: u32, h: u32, c: [u8; 4]) {
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                self.blend(x, y, c);
            }
        }
    }

    /// Writes the picture as a PNG.
    pub fn write_png(&self, out: impl std::io::Write) -> Result<(), String> {
        let mut encoder = png::Encoder::new(out, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // Pictures end up in READMEs: the balanced default keeps them
        // a third of Fast's size, well within `render`'s time budget.
        encoder.set_compression(png::Compression::Balanced);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&self.rgba)
            .map_err(|e| e.to_string())
    }
}

/// A sheet of square sprites, decoded once.
struct Sheet {
    width: u32,
    rgba: Vec<u8>,
    side: u32,
}

impl Sheet {
    fn decode(png: &[u8], side: u32) -> Sheet {
        let image = built_in_png(png);
        Sheet {
            width: image.width(),
            rgba: image.data.unwrap_or_default(),
            side,
        }
    }

    /// Draws sprite `index` scaled to `px` with its top left at `(x, y)`.
    fn draw(&self, index: u32, into: &mut Picture, x: u32, y: u32, px: u32) {
        let per_row = (self.width / self.side).max(1);
        let (sx, sy) = ((index % per_row) * self.side, (index / per_row) * self.side);
        for dy in 0..px {
            for dx in 0..px {
                let (u, v) = (sx + dx * self.side / px, sy + dy * self.side / px);
                let i = ((v * self.width + u) * 4) as usize;
                if let Some(c) = self.rgba.get(i..i + 4) {
                    into.blend(x + dx, y + dy, [c[0], c[1], c[2], c[3]]);
                }
            }
        }
    }
}

impl Sheet {
    /// Draws cell `index` as a `size`-pixel square with its top left at
    /// `(x, y)` (which may be off the picture), each pixel the mean of the
    /// cell's pixels under it (the figures are drawn, not pixel art), its
    /// colour multiplied by `tint`, mirrored left to right if asked.
    fn draw_smooth(
        &self,
        index: u32,
        into: &mut Picture,
        (x, y): (i64, i64),
        size: u32,
        tint: [u8; 4],
        mirror: bool,
    ) {
        let per_row = (self.width / self.side).max(1);
        let (sx, sy) = ((index % per_row) * self.side, (index / per_row) * self.side);
        let span = |d: u32| {
            (
                d * self.side / size,
                ((d + 1) * self.side / size).max(d * self.side / size + 1),
            )
        };
        for dy in 0..size {
            for dx in 0..size {
                let (px, py) = (x + dx as i64, y + dy as i64);
                if px < 0 || py < 0 {
                    continue;
                }
                let source_x = if mirror { size - 1 - dx } else { dx };
                let (u0, u1) = span(source_x);
                let (v0, v1) = span(dy);
                // Premultiplied means, so that clear pixels lend no colour.
                let mut sum = [0u32; 4];
                for v in v0..v1 {
                    for u in u0..u1 {
                        let i = (((sy + v) * self.width + sx + u) * 4) as usize;
                        let Some(c) = self.rgba.get(i..i + 4) else {
                            continue;
                        };
                        let a = c[3] as u32;
                        for k in 0..3 {
                            sum[k] += c[k] as u32 * a;
                        }
                        sum[3] += a;
                    }
                }
                let n = (u1 - u0) * (v1 - v0);
                if sum[3] == 0 {
                    continue;
                }
                let mut c = [0u8; 4];
                for k in 0..3 {
                    c[k] = (sum[k] / sum[3] * tint[k] as u32 / 255) as u8;
                }
                c[3] = (sum[3] / n * tint[3] as u32 / 255) as u8;
                into.blend(px as u32, py as u32, c);
            }
        }
    }
}

/// `c` as straight-alpha sRGB bytes.
fn rgba(c: Color) -> [u8; 4] {
    let s = c.to_srgba();
    [s.red, s.green, s.blue, s.alpha].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// The picture of `level` with `options`' layers, or why a layer cannot
/// be drawn (an unknown unit or side).
pub fn render(level: &ValidLevel, options: &RenderOptions) -> Result<Picture, String> {
    let map = &level.map;
    let (w, h) = (map.width().max(0) as u32, map.height().max(0) as u32);
    let px = options
        .tile_px
        .unwrap_or(if w > 40 { 16 } else { 32 })
        .max(4);
    let mut picture = Picture::new(w * px, h * px);
    let corner = |p: Pos| (p.x as u32 * px, p.y as u32 * px);
    let tiles = Sheet::decode(TILESET_PNG, crate::art::tiles::TILE as u32);
    for p in map.positions() {
        let (x, y) = corner(p);
        tiles.draw(tile_at(map, p), &mut picture, x, y, px);
    }
    let relief = level.rules().jumping && map.has_heights();
    if relief {
        draw_relief(&mut picture, map, px);
    }
    // Light (V8.3), as the window shades it: a dim tile darker and bluer.
    if level.rules().stealth {
        for p in map.positions() {
            let (x, y) = corner(p);
            let dark = crate::rules::variants::stealth::sneak::light_at(level, p);
            picture.tint(x, y, px, px, crate::art::palette::night_tint(dark));
        }
    }
    // Layers asked for, each from the rules.
    if let Some(name) = &options.reach {
        let u = level
            .units
            .iter()
            .find(|u| &u.name == name)
            .ok_or_else(|| format!("--reach: no unit \"{name}\" in the level"))?;
        let speed = u.stats.speed.max(0) as u32;
        let mut world = super::starting_battle(level);
        for (p, r) in super::first_reach(&mut world, u) {
            let (x, y) = corner(p);
            picture.fill(x, y, px, px, rgba(tint::reach(r.cost, speed)));
        }
    }
    if let Some(side) = &options.threat {
        let s = level
            .sides()
            .iter()
            .position(|d| &d.name == side)
            .ok_or_else(|| format!("--threat: no side \"{side}\" in the level"))?;
        let world = super::starting_battle(level);
        let threats: Vec<_> = threat::all_threats(&world)
            .into_iter()
            .filter(|t| t.side == s)
            .collect();
        for p in map.positions() {
            if threats.iter().any(|t| t.covers(p)) {
                let (x, y) = corner(p);
                picture.fill(x, y, px, px, rgba(tint::THREAT));
            }
        }
    }
    // Victory zones: a tint and a frame.
    for v in level.victory() {
        let (zone, colour) = match v {
            Victory::HoldZone { zone, .. } => (zone, HOLD),
            Victory::ReachExit { zone, .. } => (zone, EXIT),
            _ => continue,
        };
        for p in map.positions().filter(|p| zone.contains(*p)) {
            let (x, y) = corner(p);
            picture.fill(x, y, px, px, colour.map_alpha(0.3));
            let edge = (px / 10).max(1);
            for (d, (ex, ey, ew, eh)) in [
                (Dir::N, (x, y, px, edge)),
                (Dir::S, (x, y + px - edge, px, edge)),
                (Dir::W, (x, y, edge, px)),
                (Dir::E, (x + px - edge, y, edge, px)),
            ] {
                if !zone.contains(p.step(d)) {
                    picture.fill(ex, ey, ew, eh, colour.map_alpha(0.9));
                }
            }
        }
    }
    if relief {
        draw_heights(&mut picture, map, px);
    }
    // Trees over the layers, as the window draws them.
    let objects = Sheet::decode(OBJECTS_PNG, crate::art::tiles::TILE as u32);
    for p in map.positions() {
        if let Some(tree) = tree_at(map, p) {
            let (x, y) = corner(p);
            objects.draw(tree, &mut picture, x, y, px);
        }
    }
    // Objects: the window's icon, in the tile's top left.
    let icons = Sheet::decode(ICONS_PNG, ICON);
    for o in level.ground() {
        let (x, y) = corner(o.at);
        icons.draw(Icon::Object as u32, &mut picture, x + 1, y + 1, px / 2);
    }
    // Below 24 pixels a tile a figure is a smudge: tokens, as the window
    // draws units zoomed far out.
    let tokens = px < 24;
    let sheet = if tokens {
        Sheet::decode(figures::UNITS_FAR_PNG, figures::FAR_CELL)
    } else {
        Sheet::decode(figures::UNITS_PNG, figures::CELL)
    };
    for u in &level.units {
        let (x, y) = corner(u.at);
        let at = (x as i64, y as i64);
        // A big body's picture covers its n×n tiles (V10.6).
        let n = if level.rules().size {
            u.stats.size.side().max(1) as u32
        } else {
            1
        };
        let px = px * n;
        if tokens {
            let side = rgba(crate::art::palette::side_color(u.side));
            let kind = Kind::of(&u.kind);
            sheet.draw_smooth(figures::DISC as u32, &mut picture, at, px, side, false);
            sheet.draw_smooth(kind.sign() as u32, &mut picture, at, px, [255; 4], false);
        } else {
            draw_unit(&sheet, &mut picture, level, u, at, px);
        }
    }
    Ok(picture)
}

/// A unit as the window draws it standing: its base in its side's colour
/// with the wedge where it faces, its kind's figure (mirrored facing west)
/// with its side-coloured parts, its shield, its arms with its first
/// weapon; a kind without its own figure has its initials on its tunic.
fn draw_unit(
    sheet: &Sheet,
    picture: &mut Picture,
    level: &ValidLevel,
    u: &crate::load::UnitSpec,
    (x, y): (i64, i64),
    px: u32,
) {
    const WHITE: [u8; 4] = [255; 4];
    let side = rgba(crate::art::palette::side_color(u.side));
    let kind = Kind::of(&u.kind);
    // Not yet turned either way, a unit facing due north or south looks east.
    let mirror = figures::mirrored(u.facing, false);
    sheet.draw_smooth(figures::BASE as u32, picture, (x, y), px, side, false);
    // The figure, scaled by size about its feet (a footprint's picture is
    // already its size, V10.6).
    let scale = if level.rules().size && u.stats.size.side() > 1 {
        1.0
    } else {
        figures::scale(u.stats.size)
    };
    let size = (px as f32 * scale).round() as u32;
    let feet = figures::FEET / figures::CELL as f32;
    let fx = x + (px as i64 - size as i64) / 2;
    let fy = y + (px as f32 * feet - size as f32 * feet).round() as i64;
    let mut layer = |index: usize, tint: [u8; 4]| {
        sheet.draw_smooth(index as u32, picture, (fx, fy), size, tint, mirror);
    };
    layer(kind.figure(), WHITE);
    layer(kind.tint(), side);
    if let Some(shield) = u
        .stats
        .shield
        .as_deref()
        .and_then(|s| level.catalog.shield(s))
    {
        let art = ShieldArt::of(shield);
        layer(art.cell(), WHITE);
        layer(art.face(), side);
    }
    let weapon = u
        .stats
        .weapons
        .first()
        .and_then(|w| level.catalog.weapon(w));
    layer(Arms::of(weapon).cell(), WHITE);
    // The wedge: its cells are drawn at half scale about the base's centre.
    let wide = (px as f32 * figures::WEDGE_SCALE) as i64;
    let base_y = y + (px as f32 * figures::BASE_Y / figures::CELL as f32) as i64;
    sheet.draw_smooth(
        figures::wedge(u.facing) as u32,
        picture,
        (x + px as i64 / 2 - wide / 2, base_y - wide / 2),
        wide as u32,
        WHITE,
        false,
    );
    if kind == Kind::Generic {
        let scale = (px / 16).max(1);
        let letters: Vec<char> = u.name.chars().take(2).collect();
        let wide = letters.len() as u32 * 4 * scale - scale;
        let chest = (px as f32 * figures::CHEST / figures::CELL as f32) as u32;
        let (lx, ly) = (x as u32 + (px - wide) / 2, y as u32 + chest - 5 * scale / 2);
        for (i, c) in letters.into_iter().enumerate() {
            draw_letter(picture, c, lx + i as u32 * 4 * scale, ly, scale);
        }
    }
}

/// The ground's heights (V9.1) as the window shades them: lighter the
/// higher, a shadow at the foot of each rise, a light rim along a 1 m step
/// down and a dark lip along a ledge of 2 m or more; and each raised or
/// The window shows a tile's metres on hover; a picture cannot hover:
/// [`draw_heights`] writes them.
fn draw_relief(picture: &mut Picture, map: &crate::terrain::TerrainMap, px: u32) {
    for p in map.positions() {
        let (x, y) = (p.x as u32 * px, p.y as u32 * px);
        let h = map.elevation(p);
        if h > 0 {
            let a = (0.06 * h as f32).min(0.4);
            picture.fill(x, y, px, px, [255, 255, 255, (a * 255.0) as u8]);
        }
        let line = (px / 12).max(1);
        for d in [Dir::N, Dir::S, Dir::W, Dir::E] {
            let q = p.step(d);
            if !map.contains(q) {
                continue;
            }
            let diff = map.elevation(q) - h;
            // The band along side `d`, `w` pixels deep.
            let band = |w: u32| match d {
                Dir::N => (x, y, px, w),
                Dir::S => (x, y + px - w, px, w),
                Dir::W => (x, y, w, px),
                _ => (x + px - w, y, w, px),
            };
            if diff > 0 {
                let rise = diff.min(4) as u32;
                let depth = (px * (3 + 2 * rise) / 25).max(1);
                let (bx, by, bw, bh) = band(depth);
                picture.fill(bx, by, bw, bh, [0, 0, 0, (40 + 20 * rise) as u8]);
            } else if diff <= -2 {
                let (bx, by, bw, bh) = band(line * 2);
                picture.fill(bx, by, bw, bh, [20, 15, 12, 220]);
            } else if diff == -1 {
                let (bx, by, bw, bh) = band(line);
                picture.fill(bx, by, bw, bh, [255, 250, 230, 115]);
            }
        }
    }
}

/// Each raised tile's metres (V9.1) in its bottom right corner, over the
/// layers.
fn draw_heights(picture: &mut Picture, map: &crate::terrain::TerrainMap, px: u32) {
    if px < 16 {
        return;
    }
    let scale = (px / 16).max(1);
    for p in map.positions() {
        let h = map.elevation(p);
        if h != 0 {
            let (x, y) = (p.x as u32 * px, p.y as u32 * px);
            let digit = char::from_digit(h.unsigned_abs().min(9), 10).unwrap_or('9');
            draw_letter(
                picture,
                digit,
                x + px - 5 * scale,
                y + px - 7 * scale,
                scale,
            );
        }
    }
}

/// A 3×5 capital letter or digit, one row of three bits per line (the
/// high bit left); other characters draw nothing.
fn glyph(c: char) -> [u8; 5] {
    const LETTERS: [[u8; 5]; 26] = [
        [2, 5, 7, 5, 5], // A
        [6, 5, 6, 5, 6], // B
        [3, 4, 4, 4, 3], // C
        [6, 5, 5, 5, 6], // D
        [7, 4, 6, 4, 7], // E
        [7, 4, 6, 4, 4], // F
        [3, 4, 5, 5, 3], // G
        [5, 5, 7, 5, 5], // H
        [7, 2, 2, 2, 7], // I
        [1, 1, 1, 5, 2], // J
        [5, 5, 6, 5, 5], // K
        [4, 4, 4, 4, 7], // L
        [5, 7, 7, 5, 5], // M
        [6, 5, 5, 5, 5], // N
        [2, 5, 5, 5, 2], // O
        [6, 5, 6, 4, 4], // P
        [2, 5, 5, 6, 3], // Q
        [6, 5, 6, 5, 5], // R
        [3, 4, 2, 1, 6], // S
        [7, 2, 2, 2, 2], // T
        [5, 5, 5, 5, 7], // U
        [5, 5, 5, 5, 2], // V
        [5, 5, 7, 7, 5], // W
        [5, 5, 2, 5, 5], // X
        [5, 5, 2, 2, 2], // Y
        [7, 1, 2, 4, 7], // Z
    ];
    const DIGITS: [[u8; 5]; 10] = [
        [7, 5, 5, 5, 7],
        [2, 6, 2, 2, 7],
        [6, 1, 2, 4, 7],
        [6, 1, 2, 1, 6],
        [5, 5, 7, 1, 1],
        [7, 4, 6, 1, 6],
        [3, 4, 7, 5, 7],
        [7, 1, 2, 2, 2],
        [7, 5, 7, 5, 7],
        [7, 5, 7, 1, 6],
    ];
    let c = c.to_ascii_uppercase();
    match c {
        'A'..='Z' => LETTERS[(c as u8 - b'A') as usize],
        '0'..='9' => DIGITS[(c as u8 - b'0') as usize],
        _ => [0; 5],
    }
}

/// Draws `c` in white with a dark outline, each font pixel `scale` wide.
fn draw_letter(picture: &mut Picture, c: char, x: u32, y: u32, scale: u32) {
    let rows = glyph(c);
    let on = |col: i32, row: i32| {
        (0..3).contains(&col) && (0..5).contains(&row) && rows[row as usize] & (4 >> col) != 0
    };
    for row in -1..6 {
        for col in -1..4 {
            let lit = on(col, row);
            let edge = !lit
                && [(-1, 0), (1, 0), (0, -1), (0, 1)]
                    .iter()
                    .any(|(dx, dy)| on(col + dx, row + dy));
            let colour = match (lit, edge) {
                (true, _) => [255, 255, 255, 255],
                (false, true) => [20, 20, 28, 200],
                _ => continue,
            };
            let (fx, fy) = (x as i32 + col * scale as i32, y as i32 + row * scale as i32);
            if fx >= 0 && fy >= 0 {
                picture.fill(fx as u32, fy as u32, scale, scale, colour);
            }
        }
    }
}

const HOLD: [u8; 4] = [255, 215, 60, 255];
const EXIT: [u8; 4] = [80, 230, 120, 255];

trait WithAlpha {
    fn map_alpha(self, a: f32) -> Self;
}

impl WithAlpha for [u8; 4] {
    fn map_alpha(self, a: f32) -> Self {
        [self[0], self[1], self[2], (a.clamp(0.0, 1.0) * 255.0) as u8]
    }
}
