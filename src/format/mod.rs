//! The file formats of `../shared/FORMAT.md` as serde types: levels,
//! catalogs and dice. These are what the files say; [`crate::load`] checks
//! them and resolves them into a [`crate::load::ValidLevel`].

pub mod caption;
pub mod catalog;
pub mod dice;
pub mod level;
pub mod measures;
pub mod names;
pub mod spell;

pub use caption::{Aim, Caption, Overlay};
pub use catalog::*;
pub use dice::Dice;
pub use level::*;
pub use spell::{Attribute, Keyword, Spell, SpellDamage, SpellEffect, SpellKind, mp_cost};
