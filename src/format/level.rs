//! The level file of FORMAT.md (`levels/*.ron`).

use super::catalog::{Armor, Item, Shield, Size, Skill, UnitTemplate, Weapon};
use crate::grid::{Dir, Pos};
use crate::terrain::Terrain;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A level as written in its RON file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Title shown to players.
    pub name: String,
    /// One or two sentences for the level picker.
    #[serde(default)]
    pub description: String,
    /// Rule options; omitted fields take the standard rules.
    #[serde(default)]
    pub rules: RuleOptions,
    /// Extra map symbols beside the default legend of R6.
    #[serde(default)]
    pub legend: BTreeMap<char, Terrain>,
    /// Map rows, north first; every row as wide as the first.
    pub map: Vec<String>,
    /// Each tile's height in metres, a digit 0–9, rows the same shape as
    /// `map` (V9.1); all 0 when omitted. Read with `rules: (jumping: true)`.
    #[serde(default)]
    pub heights: Vec<String>,
    /// The sides, in their listed order (V1 uses it).
    pub sides: Vec<SideDef>,
    /// Units placed on the map.
    pub units: Vec<UnitPlacement>,
    /// Level-local unit kinds (shadow catalog ones of the same name).
    #[serde(default)]
    pub templates: Vec<UnitTemplate>,
    /// Level-local weapons.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Level-local armor.
    #[serde(default)]
    pub armor: Vec<Armor>,
    /// Level-local shields.
    #[serde(default)]
    pub shields: Vec<Shield>,
    /// Level-local items.
    #[serde(default)]
    pub items: Vec<Item>,
    /// Level-local spells (V11).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<super::spell::Spell>,
    /// Objects lying on the ground at the start (R9.5).
    #[serde(default)]
    pub ground: Vec<GroundObject>,
    /// Victory conditions (R11); `[Eliminate]` when omitted.
    #[serde(default = "default_victory")]
    pub victory: Vec<Victory>,
    /// Round after which the battle is a draw (R11).
    #[serde(default = "default_round_limit")]
    pub round_limit: u32,
    /// Default dice seed.
    #[serde(default)]
    pub seed: Option<u64>,
}

fn default_victory() -> Vec<Victory> {
    vec![Victory::Eliminate]
}

/// Round limit when a level gives none.
pub const DEFAULT_ROUND_LIMIT: u32 = 30;

fn default_round_limit() -> u32 {
    DEFAULT_ROUND_LIMIT
}

/// Rule options of a level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleOptions {
    /// Who acts first each round.
    pub initiative: Initiative,
    /// V13 shooting in melee (000): a ranged or thrown attack made with an
    /// enemy in action adjacent has +1 disadvantage.
    pub shooting_in_melee: bool,
    /// V4 hit zones (004): every hit rolls a d10 for the zone it lands on;
    /// a zone the armor does not cover meets only the shield's AR.
    pub hit_zones: bool,
    /// V2 active defence (004): `Active` has defenders answer attacks with
    /// Block, Parry or Dodge instead of the DEX part of their DV.
    pub defence: Defence,
    /// V3 injuries (001): every hit also inflicts injuries on the body
    /// part it lands on, one severity step per degree.
    pub injuries: bool,
    /// With V3: whether weapon hits also deal HP damage (the default, the
    /// project's V3) or, `false`, only injuries, as 001 has it: no damage
    /// dice are rolled, and a unit falls by its injuries.
    #[serde(skip_serializing_if = "HpDamage::is_default")]
    pub hp_damage: HpDamage,
    /// V7 maneuvers (001, 002, 003, 004): trip, disarm, shove and grapple,
    /// each one roll against DV with degrees (VARIANTS.md V7.1–V7.7).
    pub maneuvers: bool,
    /// V10 size (001, 002, 003): size modifiers on attacks and degrees,
    /// reach for Huge, and footprints (Large 2×2, Huge 3×3; V10.1–V10.6).
    pub size: bool,
    /// V12 mounted combat (003, 004): riders on mounts, the pair acting on
    /// the rider's turn with the mount's move (V12.1–V12.7).
    pub mounts: bool,
    /// V9 jumping and falling (004, 002): the level's `heights` count,
    /// stepping up costs double and a ledge of 2 m or more needs a Jump
    /// (V9.1–V9.6).
    pub jumping: bool,
    /// V8 stealth and vision (004, 001, 002): sight by line and front arc,
    /// hidden units, sneaking, Hide and Search, unseen attacks, surprise
    /// (V8.1–V8.10).
    pub stealth: bool,
    /// The level's light (V8.3): `Bright` by default, `Dim` or `Dark`; a
    /// legend symbol's own `light` overrides it on its tiles.
    pub light: crate::terrain::Light,
    /// How attacks are rolled: R7's d20 against DV, or V6's die ranks
    /// (003): the attacker's ATT die against the defender's DEF die,
    /// successes as damage (V6.1–V6.9).
    #[serde(skip_serializing_if = "Resolution::is_default")]
    pub resolution: Resolution,
    /// What a turn is paid with: R3's action points, or V5's Energy (002):
    /// a budget per round set by Stamina, with Agility, Swift Attacks and
    /// the Miss Chance of ranged attacks (V5.1–V5.12).
    #[serde(skip_serializing_if = "Actions::is_default")]
    pub actions: Actions,
    /// V11 spells (000, 004): units cast the catalog's spells with MP,
    /// spell attacks and saves, areas and concentration (V11.1–V11.9).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub spells: bool,
}

/// What a turn is paid with (R3, or variant V5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Actions {
    /// R3: 3 AP and a free action each turn.
    #[default]
    Points,
    /// V5 Energy (002): Energy each round by Stamina (V5.2).
    Energy,
}

impl Actions {
    /// The default (`Points`): left out when a level is written.
    pub fn is_default(&self) -> bool {
        *self == Actions::Points
    }
}

/// How attacks are rolled (R7, or variant V6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resolution {
    /// R7: d20 + bonus against DV, degrees, damage dice.
    #[default]
    D20,
    /// V6 die ranks (003): ATT die against DEF die, successes as damage.
    DieRanks,
}

impl Resolution {
    /// The default (`D20`): left out when a level is written.
    pub fn is_default(&self) -> bool {
        *self == Resolution::D20
    }
}

impl Level {
    /// Every map symbol the level may use: the default legend's (R6), then
    /// the level's own, which replace a default symbol they redefine.
    pub fn full_legend(&self) -> Vec<(char, Terrain)> {
        let mut legend = crate::terrain::default_legend();
        for (c, t) in &self.legend {
            legend.retain(|(s, _)| s != c);
            legend.push((*c, t.clone()));
        }
        legend
    }
}

impl RuleOptions {
    /// Weapon hits injure only, dealing no HP damage (V3 as 001 has it:
    /// `injuries: true, hp_damage: false`).
    pub fn injure_only(&self) -> bool {
        self.injuries && !self.hp_damage.0
    }
}

/// Whether weapon hits deal HP damage (V3): `true` unless a level says
/// `hp_damage: false`; written as a plain bool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HpDamage(pub bool);

impl Default for HpDamage {
    fn default() -> Self {
        HpDamage(true)
    }
}

impl HpDamage {
    /// The default (`true`): left out when a level is written.
    pub fn is_default(&self) -> bool {
        self.0
    }
}

/// How defenders meet attacks (R1.1, or variant V2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Defence {
    /// The static DV of R1.1 (and the parry of R8.6).
    #[default]
    Static,
    /// V2: Block, Parry or Dodge against each attack (004).
    Active,
}

/// A defender's answer to an attack under active defence (V2, 004).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Guard {
    /// Shield: MB + STR + Block Value + 1d12 ≥ attack: damage less Block
    /// Strength.
    Block,
    /// Melee weapon against a melee attack: Parry Value + 1d12 ≥ attack;
    /// a d12 of 10+ is perfect (no damage), else the defender picks the
    /// zone and a second d12 at least the first avoids the damage.
    Parry,
    /// DEX + PER (WIS) + 1d12 ≥ attack: no damage.
    Dodge,
    /// No answer: the hit lands as rolled; under die ranks the passive
    /// defence (V6.3), which scenarios may write `Passive`.
    #[serde(alias = "Passive")]
    None,
}

impl Guard {
    /// Lower-case name for the log.
    pub fn label(self) -> &'static str {
        match self {
            Guard::Block => "block",
            Guard::Parry => "parry",
            Guard::Dodge => "dodge",
            Guard::None => "no defence",
        }
    }
}

/// Initiative scheme (R2.1 or variant V1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Initiative {
    /// Each unit rolls (R2.1).
    #[default]
    Individual,
    /// Each round a d2 picks the side that acts first (V1).
    Sides,
}

/// Who controls a side: `Human`, `Ai` (the default AI profile) or
/// `Ai("cautious")` (a named profile).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Control {
    /// A player at the keyboard.
    #[default]
    Human,
    /// The computer, with an AI profile by name (`None`: the default one).
    Ai(Option<String>),
}

impl Serialize for Control {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Control::Human => s.serialize_unit_variant("Control", 0, "Human"),
            Control::Ai(None) => s.serialize_unit_variant("Control", 1, "Ai"),
            Control::Ai(Some(p)) => s.serialize_newtype_variant("Control", 1, "Ai", p),
        }
    }
}

/// How `Control` is read: RON hands a bare `Ai` to an untagged enum as the
/// string "Ai", and `Ai("cautious")` as a one-entry map `{"Ai": "cautious"}`.
#[derive(Deserialize)]
#[serde(untagged)]
enum ControlRepr {
    Bare(String),
    Profile {
        #[serde(rename = "Ai")]
        ai: String,
    },
}

impl<'de> Deserialize<'de> for Control {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match ControlRepr::deserialize(d)
            .map_err(|_| serde::de::Error::custom("expected `Human`, `Ai` or `Ai(\"profile\")`"))?
        {
            ControlRepr::Bare(name) if name == "Human" => Ok(Control::Human),
            ControlRepr::Bare(name) if name == "Ai" => Ok(Control::Ai(None)),
            ControlRepr::Bare(other) => Err(serde::de::Error::custom(format!(
                "unknown control `{other}`: expected `Human`, `Ai` or `Ai(\"profile\")`"
            ))),
            ControlRepr::Profile { ai } => Ok(Control::Ai(Some(ai))),
        }
    }
}

/// A side of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// Unique name; units name it as `side: "…"`.
    pub name: String,
    /// Who plays it.
    #[serde(default)]
    pub control: Control,
    /// Ambushes the others (R2.2).
    #[serde(default)]
    pub hidden: bool,
}

/// A unit placed by a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitPlacement {
    /// Unique name in the level; commands and logs use it.
    pub name: String,
    /// The side's name.
    pub side: String,
    /// A unit kind from the catalog or the level's `templates`.
    pub template: String,
    /// Starting tile.
    pub at: Pos,
    /// Starting facing (R4.1); north when omitted.
    #[serde(default)]
    pub facing: Dir,
    /// Per-unit overrides of the template.
    #[serde(default)]
    pub stats: StatOverrides,
    /// The mount this unit starts on (V12.1): its `at` must be the
    /// mount's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub riding: Option<String>,
}

/// Any stat of a [`UnitTemplate`], overridden for one unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[allow(missing_docs)]
pub struct StatOverrides {
    pub level: Option<i32>,
    pub mb: Option<i32>,
    pub str: Option<i32>,
    pub dex: Option<i32>,
    pub con: Option<i32>,
    pub wis: Option<i32>,
    pub speed: Option<i32>,
    pub hp: Option<i32>,
    pub stamina: Option<i32>,
    pub size: Option<Size>,
    pub skills: Option<BTreeMap<Skill, i32>>,
    pub weapons: Option<Vec<String>>,
    pub armor: Option<Option<String>>,
    pub shield: Option<Option<String>>,
    pub items: Option<Vec<(String, u32)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<super::catalog::UnitDice>,
}

impl StatOverrides {
    /// `template` with these overrides applied.
    pub fn apply(&self, template: &UnitTemplate) -> UnitTemplate {
        let mut t = template.clone();
        macro_rules! take {
            ($($f:ident),*) => {$( if let Some(v) = &self.$f { t.$f = v.clone(); } )*};
        }
        take!(
            level, mb, str, dex, con, wis, speed, hp, stamina, size, skills, weapons, armor,
            shield, items
        );
        if let Some(d) = self.dice {
            t.dice = d;
        }
        t
    }
}

/// An object lying on the ground (R9.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroundObject {
    /// A weapon or item name.
    pub item: String,
    /// Where it lies.
    pub at: Pos,
}

/// An inclusive rectangle of tiles, written `(from: (x, y), to: (x, y))`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// One corner.
    pub from: Pos,
    /// The opposite corner.
    pub to: Pos,
}

impl Zone {
    /// True when `p` lies in the rectangle.
    pub fn contains(&self, p: Pos) -> bool {
        let (x0, x1) = (self.from.x.min(self.to.x), self.from.x.max(self.to.x));
        let (y0, y1) = (self.from.y.min(self.to.y), self.from.y.max(self.to.y));
        (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y)
    }
}

/// A victory condition (R11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Victory {
    /// Any side wins when every enemy is out of action (R2.5).
    Eliminate,
    /// `side` wins after holding `zone` alone for `rounds` round ends in a row.
    HoldZone {
        /// The side that must hold.
        side: String,
        /// The zone.
        zone: Zone,
        /// Rounds in a row.
        rounds: u32,
    },
    /// `side` wins when it still has a unit in action after `rounds` rounds.
    SurviveRounds {
        /// The side that must survive.
        side: String,
        /// Rounds to survive.
        rounds: u32,
    },
    /// `side` wins when `unit` (any of its units when omitted) stands in `zone`.
    ReachExit {
        /// The side that must get out.
        side: String,
        /// The unit that must get out; any unit of the side when omitted.
        #[serde(default)]
        unit: Option<String>,
        /// The exit.
        zone: Zone,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct S {
        control: Control,
    }

    fn read(text: &str) -> Result<Control, String> {
        ron::from_str::<S>(text)
            .map(|s| s.control)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn control_reads_bare_and_named_profiles() {
        assert_eq!(read("(control: Human)"), Ok(Control::Human));
        assert_eq!(read("(control: Ai)"), Ok(Control::Ai(None)));
        assert_eq!(
            read("(control: Ai(\"cautious\"))"),
            Ok(Control::Ai(Some("cautious".into())))
        );
        assert!(
            read("(control: Robot)")
                .unwrap_err()
                .contains("unknown control `Robot`")
        );
    }

    #[test]
    fn control_round_trips() {
        for c in [
            Control::Human,
            Control::Ai(None),
            Control::Ai(Some("reckless".into())),
        ] {
            let text = ron::to_string(&c).unwrap();
            let back: Control = ron::from_str(&text).unwrap();
            assert_eq!(back, c, "{text}");
        }
    }
}
