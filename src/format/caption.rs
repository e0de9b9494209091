//! The rules tour's captions (`tour:` in a demo scenario of
//! `levels/demo/`, a project extension of FORMAT.md's scenario): what the
//! window shows before each step. Overlays and aimed actions are named by
//! these types, so a misspelt name is a load error at its line and column.

use super::names::{Written, by_name, named};
use crate::grid::Pos;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use strum::{EnumString, IntoStaticStr, VariantArray};

/// What a guided tour shows before command `before` (0-based; the number
/// of commands for the last words, when control passes to the player).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caption {
    /// The command it precedes.
    pub before: usize,
    /// What to read.
    pub text: String,
    /// Overlays to show: their names (`skirmish play --overlay` names);
    /// `["none"]` switches every one off; none listed keeps those shown
    /// (`None` here).
    #[serde(default, with = "caption_overlays")]
    pub overlays: Option<Vec<Overlay>>,
    /// A tile to point at (an attack's odds, a path).
    #[serde(default)]
    pub hover: Option<Pos>,
    /// An aimed action waiting for its target, as if its button were
    /// pressed (`throw` shows the throw preview at `hover`).
    #[serde(default)]
    pub aim: Option<Aim>,
    /// A spell armed at a level (V11), as if its button were pressed: its
    /// area and each unit's odds shown at `hover` (`spell: Some(("flame
    /// field", 2))`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<(String, i32)>,
}

/// A tactical overlay of the window, by the name files and the command
/// line give it (`reach`, `arcs`…).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    EnumString,
    IntoStaticStr,
    VariantArray,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Overlay {
    /// Reachable tiles by movement cost (R5.1).
    Reach,
    /// Front and rear arcs (R4.1).
    Arcs,
    /// Threatened tiles (R4.4) and where a step provokes (R8.2).
    Threat,
    /// Range bands (R7.4).
    Range,
    /// Line of effect and cover (R6).
    Line,
    /// The flanking ally (R4.5).
    Flank,
    /// The charge line (R4.7).
    Charge,
}

impl Overlay {
    /// Every overlay, in the toggle bar's order.
    pub const ALL: [Overlay; 7] = [
        Overlay::Reach,
        Overlay::Arcs,
        Overlay::Threat,
        Overlay::Range,
        Overlay::Line,
        Overlay::Flank,
        Overlay::Charge,
    ];

    /// Its name on the toggle bar, in files and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The overlay named `name` (any case).
    pub fn parse(name: &str) -> Option<Overlay> {
        Overlay::from_str(name).ok()
    }
}

/// An action of the action bar that waits for a target, as a caption
/// names it (`step`, `throw`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, EnumString, IntoStaticStr, VariantArray)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Aim {
    /// Step one tile (R3.1).
    Step,
    /// Charge an enemy (R4.7).
    Charge,
    /// Power Attack or Deadly Aim (R7.8).
    Power,
    /// Lunge (R7.8).
    Lunge,
    /// Cleave (R7.8).
    Cleave,
    /// Throw (R9).
    Throw,
    /// Stabilize a dying ally (R10.4).
    Stabilize,
    /// Trip (V7.4).
    Trip,
    /// Disarm (V7.5).
    Disarm,
    /// Shove (V7.7).
    Shove,
    /// Grapple (V7.6).
    Grapple,
    /// Jump (V9.2).
    Jump,
}

impl Aim {
    /// Its name as files write it.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl<'de> Deserialize<'de> for Overlay {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        by_name(d)
    }
}

impl Serialize for Overlay {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Aim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        by_name(d)
    }
}

impl Serialize for Aim {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A caption's overlays: a list of names, where `"none"` alone switches
/// every overlay off and an empty list keeps those shown.
mod caption_overlays {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<Vec<Overlay>>, s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<&str> = match v {
            None => vec![],
            Some(v) if v.is_empty() => vec!["none"],
            Some(v) => v.iter().map(|o| o.name()).collect(),
        };
        names.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Overlay>>, D::Error> {
        struct Names;
        impl<'de> Visitor<'de> for Names {
            type Value = Option<Vec<Overlay>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of overlay names, or [\"none\"]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = vec![];
                let mut none = false;
                while let Some(name) = seq.next_element::<OverlayOrNone>()? {
                    match name.0 {
                        Some(o) => out.push(o),
                        None => none = true,
                    }
                }
                if none && !out.is_empty() {
                    return Err(de::Error::custom(
                        "\"none\" goes alone in a caption's overlays",
                    ));
                }
                Ok((none || !out.is_empty()).then_some(out))
            }
        }
        d.deserialize_seq(Names)
    }

    /// An overlay's name, or `none`.
    struct OverlayOrNone(Option<Overlay>);

    impl<'de> Deserialize<'de> for OverlayOrNone {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let Written::Name(name) = Written::deserialize(d)?;
            if name.eq_ignore_ascii_case("none") {
                return Ok(OverlayOrNone(None));
            }
            named(&name).map(|o| OverlayOrNone(Some(o)))
        }
    }
}
