//! Terrain of R6: the default legend, level-local symbols and the map grid.

use crate::grid::Pos;
use serde::{Deserialize, Serialize};

/// How a tile affects movement (R5, R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Movement {
    /// Normal cost.
    Open,
    /// Doubles the cost of a step into it (R5.1).
    Difficult,
    /// Cannot be entered (R5.2).
    Impassable,
}

/// Whether a tile blocks lines of effect (R6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Line {
    /// Lines pass.
    Clear,
    /// Lines stop: no attack or throw through it.
    Blocked,
}

/// Cover a tile gives to a target behind it (R6.2), ordered weakest first.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Cover {
    /// No cover.
    #[default]
    None,
    /// +1 disadvantage.
    Partial,
    /// +2 disadvantage.
    Total,
}

/// How lit a tile is (V8.3): the darker, the easier to sneak through it.
/// Light never limits sight (V8.1 decision).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Light {
    /// Full light: no help to a sneak.
    #[default]
    Bright,
    /// Dim light: +1 advantage to sneak (004:180).
    Dim,
    /// Darkness: +2 advantage to sneak (004:180).
    Dark,
}

impl Light {
    /// Its advantage to a sneak check (V8.3).
    pub fn advantage(self) -> i32 {
        self as i32
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One kind of terrain: a legend entry (R6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Name shown to players ("low wall").
    pub name: String,
    /// Movement (R5).
    #[serde(rename = "move")]
    pub movement: Movement,
    /// Line of effect (R6.1).
    pub line: Line,
    /// Cover (R6.2). Omitted means none.
    #[serde(default)]
    pub cover: Cover,
    /// Conceals who stands in it, as brush does (V8.3: +1 to a sneak).
    #[serde(default, skip_serializing_if = "is_false")]
    pub conceal: bool,
    /// Its own light, over the level's (V8.3); none: the level's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<Light>,
}

impl Terrain {
    fn new(name: &str, movement: Movement, line: Line, cover: Cover) -> Self {
        Self {
            name: name.to_string(),
            movement,
            line,
            cover,
            conceal: false,
            light: None,
        }
    }

    /// True when a unit may stand on it.
    pub fn is_passable(&self) -> bool {
        self.movement != Movement::Impassable
    }
}

/// The default legend of R6, which every level has. Level-local symbols are
/// added to it and may not redefine these.
pub fn default_legend() -> Vec<(char, Terrain)> {
    use Cover as C;
    use Line as L;
    use Movement as M;
    vec![
        ('.', Terrain::new("floor", M::Open, L::Clear, C::None)),
        (
            '#',
            Terrain::new("wall", M::Impassable, L::Blocked, C::None),
        ),
        (
            '=',
            Terrain::new("low wall", M::Difficult, L::Clear, C::Partial),
        ),
        (
            '%',
            Terrain {
                conceal: true,
                ..Terrain::new("brush", M::Difficult, L::Clear, C::Partial)
            },
        ),
        ('T', Terrain::new("tree", M::Impassable, L::Clear, C::Total)),
        (
            '~',
            Terrain::new("shallow water", M::Difficult, L::Clear, C::None),
        ),
        ('_', Terrain::new("chasm", M::Impassable, L::Clear, C::None)),
    ]
}

/// The battle map: a rectangle of tiles, each an index into a legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainMap {
    width: i32,
    height: i32,
    tiles: Vec<u8>,
    legend: Vec<(char, Terrain)>,
    /// Per tile, [`TerrainMap::PASSABLE`] and the other bits, for the path
    /// and line searches' inner loops.
    flags: Vec<u8>,
    /// Per tile, its height in metres (V9.1); empty when the level has
    /// none or leaves jumping off: all ground at 0.
    elevations: Vec<u8>,
}

impl TerrainMap {
    /// Builds a map from validated rows and legend (every symbol in the legend,
    /// every row as wide as the first, at most 256 symbols).
    pub fn new(rows: &[String], legend: Vec<(char, Terrain)>) -> Self {
        let height = rows.len() as i32;
        let width = rows.first().map_or(0, |r| r.chars().count()) as i32;
        let tiles: Vec<u8> = rows
            .iter()
            .flat_map(|row| row.chars())
            .map(|c| legend.iter().position(|(s, _)| *s == c).unwrap_or(0) as u8)
            .collect();
        let flags = tiles
            .iter()
            .map(|&t| {
                let terrain = &legend[t as usize].1;
                let mut f = 0;
                if terrain.is_passable() {
                    f |= Self::PASSABLE;
                }
                if terrain.movement == Movement::Difficult {
                    f |= Self::DIFFICULT;
                }
                if terrain.line == Line::Blocked {
                    f |= Self::BLOCKS_LINE;
                }
                f | match terrain.cover {
                    Cover::None => 0,
                    Cover::Partial => Self::PARTIAL_COVER,
                    Cover::Total => Self::TOTAL_COVER,
                }
            })
            .collect();
        Self {
            width,
            height,
            tiles,
            legend,
            flags,
            elevations: vec![],
        }
    }

    /// The same map with each tile's height in metres (V9.1), row by row:
    /// `elevations` holds one value per tile.
    pub fn with_elevations(mut self, elevations: Vec<u8>) -> Self {
        debug_assert_eq!(elevations.len(), self.tiles.len());
        self.elevations = elevations;
        self
    }

    /// The height of `p` in metres (V9.1): 0 on a flat map and off it.
    pub fn elevation(&self, p: Pos) -> i32 {
        if self.elevations.is_empty() || !self.contains(p) {
            return 0;
        }
        i32::from(self.elevations[(p.y * self.width + p.x) as usize])
    }

    /// Whether any tile stands above another (V9.1): the path search's
    /// fast loop then reads heights too.
    pub fn has_heights(&self) -> bool {
        self.elevations.iter().any(|&h| h != self.elevations[0])
    }

    /// Flag: a unit may stand here.
    pub const PASSABLE: u8 = 1;
    /// Flag: difficult terrain (R5.1).
    pub const DIFFICULT: u8 = 2;
    /// Flag: blocks lines of effect (R6.1).
    pub const BLOCKS_LINE: u8 = 8;
    /// Flag: partial cover (R6.2).
    pub const PARTIAL_COVER: u8 = 16;
    /// Flag: total cover (R6.2).
    pub const TOTAL_COVER: u8 = 32;

    /// The cover `p` gives (R6.2); none off the map.
    pub fn cover(&self, p: Pos) -> Cover {
        let f = self.flags(p);
        if f & Self::TOTAL_COVER != 0 {
            Cover::Total
        } else if f & Self::PARTIAL_COVER != 0 {
            Cover::Partial
        } else {
            Cover::None
        }
    }

    /// The flags of `p` (0 off the map: impassable).
    pub fn flags(&self, p: Pos) -> u8 {
        if self.contains(p) {
            self.flags[(p.y * self.width + p.x) as usize]
        } else {
            0
        }
    }

    /// Width in tiles.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in tiles.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// True when `p` is on the map.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The terrain at `p`, `None` off the map.
    pub fn get(&self, p: Pos) -> Option<&Terrain> {
        self.contains(p)
            .then(|| &self.legend[self.tiles[(p.y * self.width + p.x) as usize] as usize].1)
    }

    /// The map symbol at `p`, `None` off the map.
    pub fn symbol(&self, p: Pos) -> Option<char> {
        self.contains(p)
            .then(|| self.legend[self.tiles[(p.y * self.width + p.x) as usize] as usize].0)
    }

    /// True when a unit may stand on `p` (on the map and not impassable).
    pub fn is_passable(&self, p: Pos) -> bool {
        self.get(p).is_some_and(Terrain::is_passable)
    }

    /// Every tile position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// The legend in use: the default one followed by the level's symbols.
    pub fn legend(&self) -> &[(char, Terrain)] {
        &self.legend
    }
}
