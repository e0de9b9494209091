//! Catalog entries of FORMAT.md: unit kinds (templates), weapons, armor,
//! shields and items. They live in `assets/catalog/*.ron` and may also be
//! defined level-locally, where they shadow catalog entries of the same name.

use super::dice::Dice;
pub use super::measures::{DamageType, Range};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A catalog file: any of the five lists, each optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Catalog {
    /// Unit kinds.
    pub templates: Vec<UnitTemplate>,
    /// Weapons (melee, reach, thrown, ranged).
    pub weapons: Vec<Weapon>,
    /// Body armor.
    pub armor: Vec<Armor>,
    /// Shields.
    pub shields: Vec<Shield>,
    /// Carried and thrown items: bombs, flasks, potions.
    pub items: Vec<Item>,
    /// Spells (V11).
    pub spells: Vec<super::spell::Spell>,
}

impl Catalog {
    /// Adds every entry of `other` after this catalog's own.
    pub fn extend(&mut self, other: Catalog) {
        self.templates.extend(other.templates);
        self.weapons.extend(other.weapons);
        self.armor.extend(other.armor);
        self.shields.extend(other.shields);
        self.items.extend(other.items);
        self.spells.extend(other.spells);
    }

    /// The spell called `name` (V11).
    pub fn spell(&self, name: &str) -> Option<&super::spell::Spell> {
        self.spells.iter().find(|s| s.name == name)
    }

    /// The template called `name`.
    pub fn template(&self, name: &str) -> Option<&UnitTemplate> {
        self.templates.iter().find(|t| t.name == name)
    }

    /// The weapon called `name`.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.name == name)
    }

    /// The armor called `name`.
    pub fn armor(&self, name: &str) -> Option<&Armor> {
        self.armor.iter().find(|a| a.name == name)
    }

    /// The shield called `name`.
    pub fn shield(&self, name: &str) -> Option<&Shield> {
        self.shields.iter().find(|s| s.name == name)
    }

    /// The item called `name`.
    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }

    /// True when `name` is a weapon or an item: anything that can lie on the
    /// ground or be thrown (R9.5).
    pub fn is_object(&self, name: &str) -> bool {
        self.weapon(name).is_some() || self.item(name).is_some()
    }
}

/// Size categories (R1, R6.3).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Size {
    /// A cat, a sprite.
    Tiny,
    /// A goblin, a halfling.
    Small,
    /// A human (the default).
    #[default]
    Medium,
    /// An ogre, a horse.
    Large,
    /// A giant.
    Huge,
    /// A dragon.
    Gargantuan,
}

impl Size {
    /// The side of its footprint in tiles with size on (V10.6): Tiny, Small
    /// and Medium 1, Large 2, Huge 3, Gargantuan 4.
    pub const fn side(self) -> i32 {
        match self {
            Size::Tiny | Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Huge => 3,
            Size::Gargantuan => 4,
        }
    }

    /// Reach it adds to a melee weapon's (V10.4, 002:452): Huge and
    /// Gargantuan +1, Tiny −1.
    pub const fn reach_bonus(self) -> i32 {
        match self {
            Size::Tiny => -1,
            Size::Huge | Size::Gargantuan => 1,
            _ => 0,
        }
    }

    /// Its name as the log writes it ("Large").
    pub fn label(self) -> &'static str {
        match self {
            Size::Tiny => "Tiny",
            Size::Small => "Small",
            Size::Medium => "Medium",
            Size::Large => "Large",
            Size::Huge => "Huge",
            Size::Gargantuan => "Gargantuan",
        }
    }
}

/// Skills of R1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Skill {
    /// Climbing, swimming, shoving.
    Athletics,
    /// Tumbling, balance.
    Acrobatics,
    /// Spotting ambushes (R2.2).
    Perception,
    /// Ambushing (R2.2).
    Stealth,
    /// Stabilising the dying (R10.4).
    Medicine,
    /// Riding a mount (V12.6): without it a rider is unskilled.
    Riding,
}

/// A unit kind: the numbers of R1. A level places templates and may override
/// any of these per unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTemplate {
    /// Unique name, used by levels as `template: "…"`.
    pub name: String,
    /// Character level.
    #[serde(default = "one")]
    pub level: i32,
    /// Martial bonus MB (R1, R7.1).
    #[serde(default)]
    pub mb: i32,
    /// Strength modifier, -5..+5.
    #[serde(default)]
    pub str: i32,
    /// Dexterity modifier, -5..+5.
    #[serde(default)]
    pub dex: i32,
    /// Constitution modifier, -5..+5.
    #[serde(default)]
    pub con: i32,
    /// Wisdom modifier, -5..+5.
    #[serde(default)]
    pub wis: i32,
    /// Speed in tiles per Move (R5.1).
    #[serde(default = "six")]
    pub speed: i32,
    /// Hit points.
    #[serde(default = "ten")]
    pub hp: i32,
    /// Stamina for techniques (R7.8) and parries (R8.6).
    #[serde(default)]
    pub stamina: i32,
    /// Size category.
    #[serde(default)]
    pub size: Size,
    /// It can be ridden (V12.1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub mount: bool,
    /// Skill bonuses.
    #[serde(default)]
    pub skills: BTreeMap<Skill, i32>,
    /// Weapon names; the first is the main weapon.
    #[serde(default)]
    pub weapons: Vec<String>,
    /// Armor name.
    #[serde(default)]
    pub armor: Option<String>,
    /// Shield name.
    #[serde(default)]
    pub shield: Option<String>,
    /// Carried items and how many of each.
    #[serde(default)]
    pub items: Vec<(String, u32)>,
    /// The unit's dice under die ranks (V6.2): each omitted die follows
    /// from the stats above.
    #[serde(default, skip_serializing_if = "UnitDice::is_empty")]
    pub dice: UnitDice,
    /// Agility each round under Energy (V5.4): Agile Moves and Steps.
    #[serde(default = "three", skip_serializing_if = "is_three")]
    pub agility: i32,
    /// Magic points for spells (V11.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mp: i32,
    /// The spells it knows (V11), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
}

fn three() -> i32 {
    3
}

impl UnitTemplate {
    /// Its value of `a` (V11.3: a spell's roll and a target's save).
    pub fn attribute(&self, a: super::spell::Attribute) -> i32 {
        a.of_stats(self.str, self.dex, self.con, self.wis)
    }
}

fn is_three(n: &i32) -> bool {
    *n == 3
}

/// The name of the weapon a unit fights with when it holds none (R7.1's
/// "unarmed"; bare hands under die ranks, V6.9).
pub const UNARMED: &str = "unarmed";

/// The die sizes of die ranks, lowest first (V6.1: d2 < d4 < … < d12).
pub const DIE_LADDER: [u32; 6] = [2, 4, 6, 8, 10, 12];

/// A unit's dice under die ranks (V6.2, 003): `dice: (att: 8, def: 6)`,
/// each a die size of the ladder (2, 4, 6, 8, 10, 12); an omitted one
/// follows from the unit's stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDice {
    /// Attack: melee, ranged and thrown attacks (003:5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub att: Option<u32>,
    /// Passive defence and block (003:5, 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub def: Option<u32>,
    /// Reflexes: dodge (003:13).
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reflexes: Option<u32>,
    /// Strength: unarmed attacks, less two ranks (003:35).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub str: Option<u32>,
    /// Presence: spells (003:5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pre: Option<u32>,
    /// Fortitude.
    #[serde(default, rename = "for", skip_serializing_if = "Option::is_none")]
    pub fortitude: Option<u32>,
}

impl UnitDice {
    /// No die given: every die follows from the stats.
    pub fn is_empty(&self) -> bool {
        *self == UnitDice::default()
    }

    /// Each die given, with its field name as the file writes it.
    pub fn given(&self) -> Vec<(&'static str, u32)> {
        [
            ("att", self.att),
            ("def", self.def),
            ("ref", self.reflexes),
            ("str", self.str),
            ("pre", self.pre),
            ("for", self.fortitude),
        ]
        .into_iter()
        .filter_map(|(f, v)| v.map(|v| (f, v)))
        .collect()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn one() -> i32 {
    1
}
fn six() -> i32 {
    6
}
fn ten() -> i32 {
    10
}
fn reach_one() -> i32 {
    1
}
fn crit_twenty() -> i32 {
    20
}

/// Weapon traits (FORMAT.md). Unknown trait names are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WeaponTrait {
    /// Made to be thrown: full damage when thrown (R9.1).
    Thrown,
    /// A bow: unusable while prone (R4.8).
    Bow,
    /// A crossbow: +1 advantage while prone (R4.8).
    Crossbow,
    /// A firearm: +1 advantage while prone (R4.8).
    Firearm,
    /// Needs both hands: no shield while wielded.
    TwoHanded,
    /// Light and precise.
    Finesse,
    /// Light: cannot disarm a `Heavy` weapon (V7.5, 002:567).
    Light,
    /// Heavy: a `Light` weapon cannot disarm it, and it is never flung
    /// when disarmed (V7.5).
    Heavy,
    /// Part of the body (a mount's hooves, V12): never dropped on a
    /// fumble (R7.3), disarmed (V7.5) or thrown (R9.1) *(decision)*.
    Natural,
    /// Not designed to parry: a parry with it has +1 disadvantage under
    /// die ranks (V6.5, 003:11).
    NoParry,
    /// A spellcaster's focus (V11.7): without one, spells roll at +1
    /// disadvantage and their targets save at +1 advantage.
    Focus,
}

/// A weapon. Melee unless it has a `range`; throwable when it has `thrown`
/// or the `Thrown` trait.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Unique name.
    pub name: String,
    /// Damage dice (R7.7).
    pub damage: Dice,
    /// Damage type (R9.2).
    pub damage_type: DamageType,
    /// Melee reach in tiles (R7.5); 1 means adjacent tiles.
    #[serde(default = "reach_one")]
    pub reach: i32,
    /// Thrown range increment in tiles (R9.1), before the STR bonus.
    #[serde(default)]
    pub thrown: Option<i32>,
    /// Projectile range (R7.4): the weapon shoots rather than strikes.
    #[serde(default)]
    pub range: Option<Range>,
    /// Bonus to the attack roll (R7.1).
    #[serde(default)]
    pub attack_bonus: i32,
    /// Lowest kept d20 that counts as a natural 20 (R7.3); 20 unless a
    /// weapon is keener.
    #[serde(default = "crit_twenty")]
    pub crit: i32,
    /// Traits.
    #[serde(default)]
    pub traits: Vec<WeaponTrait>,
    /// Parry Value bonus under active defence (V2, 004): a parry rolls
    /// MB + best of STR and DEX + the attack bonus + this + 1d12.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub parry: i32,
    /// Under Energy (V5.10): the weapon's Accuracy, lowering the Miss
    /// Chance of its shots and throws; `attack_bonus` when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<i32>,
    /// Under Energy (V5.5, 002:19): the Energy a shot costs beyond the 1 of
    /// any ranged attack; 1 for a `range` weapon when omitted, else 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<i32>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

impl Weapon {
    /// The lowest kept d20 that counts as a natural 20 (R7.3): the weapon's
    /// `crit`, kept within 2 to 20 so that a 1 is never one and a 20 always
    /// is *(decision)*. The one place the clamp is written.
    pub fn crit_threshold(&self) -> u32 {
        self.crit.clamp(2, 20) as u32
    }

    /// True for a weapon that shoots (has a projectile range).
    pub fn is_ranged(&self) -> bool {
        self.range.is_some()
    }

    /// True for a weapon made to be thrown (R9.1).
    pub fn is_throwing(&self) -> bool {
        self.thrown.is_some() || self.traits.contains(&WeaponTrait::Thrown)
    }

    /// True when the weapon has `t`.
    pub fn has(&self, t: WeaponTrait) -> bool {
        self.traits.contains(&t)
    }

    /// Its Accuracy under Energy (V5.10): `accuracy`, else `attack_bonus`
    /// (a thrown weapon's AV bonus is the same field, 002:272).
    pub fn accuracy(&self) -> i32 {
        self.accuracy.unwrap_or(self.attack_bonus)
    }

    /// Its Load under Energy (V5.5): `load`, else 1 for a weapon that
    /// shoots and 0 for any other.
    pub fn load(&self) -> i32 {
        self.load.unwrap_or(i32::from(self.is_ranged()))
    }
}

/// Body armor (R1.1, R1.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armor {
    /// Unique name.
    pub name: String,
    /// DV bonus.
    #[serde(default)]
    pub dv: i32,
    /// Armor reduction.
    #[serde(default)]
    pub ar: i32,
    /// The body zones it covers (V4 hit zones): a hit elsewhere meets only
    /// the shield's AR. Every zone when omitted.
    #[serde(default = "BodyPart::all", skip_serializing_if = "BodyPart::is_all")]
    pub covers: Vec<BodyPart>,
    /// Under Energy (V5.10): taken off the wearer's Ranged Evasion roll.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub penalty: i32,
}

/// How bad an injury is (V3, 001): each degree of a hit one step worse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    /// 1 degree.
    Minor,
    /// 2.
    Major,
    /// 3.
    Severe,
    /// 4.
    Deadly,
    /// 5.
    Fatal,
}

impl Severity {
    /// The severity of `degrees` degrees (1: minor … 5 and more: fatal).
    pub fn of_degrees(degrees: i32) -> Severity {
        match degrees {
            ..=1 => Severity::Minor,
            2 => Severity::Major,
            3 => Severity::Severe,
            4 => Severity::Deadly,
            _ => Severity::Fatal,
        }
    }

    /// Its value in a Constitution save's DC (001): minor 1 … fatal 5.
    pub fn value(self) -> i32 {
        self as i32 + 1
    }

    /// Lower-case name for the log.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Major => "major",
            Severity::Severe => "severe",
            Severity::Deadly => "deadly",
            Severity::Fatal => "fatal",
        }
    }
}

/// A zone of the body (V4, 004): where a hit lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BodyPart {
    /// 1-5 on the zone's d10.
    Torso,
    /// 6-7.
    Arms,
    /// 8-9.
    Legs,
    /// 10.
    Head,
}

impl BodyPart {
    /// Every zone, in the order of the d10.
    pub fn all() -> Vec<BodyPart> {
        vec![
            BodyPart::Torso,
            BodyPart::Arms,
            BodyPart::Legs,
            BodyPart::Head,
        ]
    }

    /// Whether `parts` is every zone (the default, left out when written).
    // serde's `skip_serializing_if` passes the field itself: a `&Vec`.
    #[allow(clippy::ptr_arg)]
    pub fn is_all(parts: &Vec<BodyPart>) -> bool {
        BodyPart::all().iter().all(|p| parts.contains(p))
    }

    /// The zone a d10 of V4 gives: 1-5 torso, 6-7 arms, 8-9 legs, 10 head.
    pub fn of_d10(roll: u32) -> BodyPart {
        match roll {
            0..=5 => BodyPart::Torso,
            6 | 7 => BodyPart::Arms,
            8 | 9 => BodyPart::Legs,
            _ => BodyPart::Head,
        }
    }

    /// The chance of each zone on the d10.
    pub fn chances() -> [(BodyPart, f64); 4] {
        [
            (BodyPart::Torso, 0.5),
            (BodyPart::Arms, 0.2),
            (BodyPart::Legs, 0.2),
            (BodyPart::Head, 0.1),
        ]
    }

    /// The zone's name in the log.
    pub fn name(self) -> &'static str {
        match self {
            BodyPart::Torso => "torso",
            BodyPart::Arms => "arms",
            BodyPart::Legs => "legs",
            BodyPart::Head => "head",
        }
    }
}

/// A shield: DV only while readied (R1.1, R4.6); AR always (R1.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shield {
    /// Unique name.
    pub name: String,
    /// DV bonus while readied.
    #[serde(default)]
    pub dv: i32,
    /// Armor reduction.
    #[serde(default)]
    pub ar: i32,
    /// Block Value bonus under active defence (V2, 004): a block rolls
    /// MB + STR + this + 1d12. Default: the shield's DV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<i32>,
    /// Block Strength (V2, 004): what a successful block takes off the
    /// damage. Default: twice the shield's AR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_strength: Option<i32>,
}

impl Shield {
    /// The Block Value bonus (V2): `block`, else the shield's DV.
    pub fn block_bonus(&self) -> i32 {
        self.block.unwrap_or(self.dv)
    }

    /// The Block Strength (V2): `block_strength`, else twice the AR.
    pub fn strength(&self) -> i32 {
        self.block_strength.unwrap_or(2 * self.ar)
    }
}

/// A carried object that is not a weapon: thrown bombs and flasks (R9.4),
/// healing potions (R10.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// Unique name.
    pub name: String,
    /// Damage where it lands (splash items) or on the creature hit.
    #[serde(default)]
    pub damage: Option<Dice>,
    /// Damage type; bludgeoning when omitted.
    #[serde(default)]
    pub damage_type: Option<DamageType>,
    /// Splash radius in tiles (R9.4); 0 hurts only the tile it lands in.
    #[serde(default)]
    pub splash: i32,
    /// Thrown range increment (R9.1); 2 tiles when omitted.
    #[serde(default)]
    pub thrown: Option<i32>,
    /// Hit points restored when drunk (R10.5).
    #[serde(default)]
    pub heal: Option<Dice>,
    /// Traits: `Focus` (V11.7) makes it a caster's focus.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<WeaponTrait>,
}
