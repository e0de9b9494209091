//! The rule ids of `../shared/RULES.md` as a type: every modifier, refusal
//! and battle event cites one, so the log, the view and the tests can say
//! which rule is at work without reading text.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! rules {
    ($($variant:ident = $id:literal),* $(,)?) => {
        /// A rule id of RULES.md (`R4.5`), a variant (`V1`) or one of its
        /// sub-rules in VARIANTS.md (`V7.4`), or
        /// [`Rule::Format`] for what the file contract says.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $(
                #[doc = concat!("`", $id, "`")]
                $variant,
            )*
        }

        impl Rule {
            /// Every rule id, in RULES.md order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The id as RULES.md writes it (`"R4.5"`).
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }
        }
    };
}

rules! {
    R0 = "R0", R0_1 = "R0.1", R0_2 = "R0.2", R0_3 = "R0.3", R0_4 = "R0.4", R0_5 = "R0.5",
    R0_6 = "R0.6",
    R1 = "R1", R1_1 = "R1.1", R1_2 = "R1.2",
    R2 = "R2", R2_1 = "R2.1", R2_2 = "R2.2", R2_3 = "R2.3", R2_4 = "R2.4", R2_5 = "R2.5",
    R3 = "R3", R3_1 = "R3.1", R3_2 = "R3.2",
    R4 = "R4", R4_1 = "R4.1", R4_2 = "R4.2", R4_3 = "R4.3", R4_4 = "R4.4", R4_5 = "R4.5",
    R4_6 = "R4.6", R4_7 = "R4.7", R4_8 = "R4.8",
    R5 = "R5", R5_1 = "R5.1", R5_2 = "R5.2", R5_3 = "R5.3",
    R6 = "R6", R6_1 = "R6.1", R6_2 = "R6.2", R6_3 = "R6.3", R6_4 = "R6.4",
    R7 = "R7", R7_1 = "R7.1", R7_2 = "R7.2", R7_3 = "R7.3", R7_4 = "R7.4", R7_5 = "R7.5",
    R7_6 = "R7.6", R7_7 = "R7.7", R7_8 = "R7.8", R7_9 = "R7.9",
    R8 = "R8", R8_1 = "R8.1", R8_2 = "R8.2", R8_3 = "R8.3", R8_4 = "R8.4", R8_5 = "R8.5",
    R8_6 = "R8.6",
    R9 = "R9", R9_1 = "R9.1", R9_2 = "R9.2", R9_3 = "R9.3", R9_4 = "R9.4", R9_5 = "R9.5",
    R10 = "R10", R10_1 = "R10.1", R10_2 = "R10.2", R10_3 = "R10.3", R10_4 = "R10.4",
    R10_5 = "R10.5",
    R11 = "R11",
    V1 = "V1",
    V2 = "V2",
    V3 = "V3",
    V4 = "V4",
    V5 = "V5", V5_1 = "V5.1", V5_2 = "V5.2", V5_3 = "V5.3", V5_4 = "V5.4", V5_5 = "V5.5",
    V5_6 = "V5.6", V5_7 = "V5.7", V5_8 = "V5.8", V5_9 = "V5.9", V5_10 = "V5.10",
    V5_11 = "V5.11", V5_12 = "V5.12",
    V6 = "V6", V6_1 = "V6.1", V6_2 = "V6.2", V6_3 = "V6.3", V6_4 = "V6.4", V6_5 = "V6.5",
    V6_6 = "V6.6", V6_7 = "V6.7", V6_8 = "V6.8", V6_9 = "V6.9",
    V7 = "V7", V7_1 = "V7.1", V7_2 = "V7.2", V7_3 = "V7.3", V7_4 = "V7.4", V7_5 = "V7.5",
    V7_6 = "V7.6", V7_7 = "V7.7",
    V8 = "V8", V8_1 = "V8.1", V8_2 = "V8.2", V8_3 = "V8.3", V8_4 = "V8.4", V8_5 = "V8.5",
    V8_6 = "V8.6", V8_7 = "V8.7", V8_8 = "V8.8", V8_9 = "V8.9", V8_10 = "V8.10",
    V9 = "V9", V9_1 = "V9.1", V9_2 = "V9.2", V9_3 = "V9.3", V9_4 = "V9.4", V9_5 = "V9.5",
    V9_6 = "V9.6",
    V10 = "V10", V10_1 = "V10.1", V10_2 = "V10.2", V10_3 = "V10.3", V10_4 = "V10.4",
    V10_5 = "V10.5", V10_6 = "V10.6",
    V11 = "V11", V11_1 = "V11.1", V11_2 = "V11.2", V11_3 = "V11.3", V11_4 = "V11.4",
    V11_5 = "V11.5", V11_6 = "V11.6", V11_7 = "V11.7", V11_8 = "V11.8", V11_9 = "V11.9",
    V12 = "V12", V12_1 = "V12.1", V12_2 = "V12.2", V12_3 = "V12.3", V12_4 = "V12.4",
    V12_5 = "V12.5", V12_6 = "V12.6", V12_7 = "V12.7",
    V13 = "V13",
    Format = "FORMAT",
}

impl Rule {
    /// The rule with this id, if there is one.
    pub fn parse(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }

    /// True for a numbered rule of a section (`R4.5`), not a whole
    /// section (`R4`), a variant or the file contract.
    pub fn is_numbered(self) -> bool {
        self.id().starts_with('R') && self.id().contains('.')
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Written as its id string (`"R4.5"`) in saves and event files.
impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        Rule::parse(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown rule id {id:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_ron() {
        for r in Rule::ALL {
            assert_eq!(Rule::parse(r.id()), Some(*r));
            let text = ron::to_string(r).unwrap();
            assert_eq!(text, format!("\"{}\"", r.id()));
            assert_eq!(ron::from_str::<Rule>(&text).unwrap(), *r);
        }
        assert!(ron::from_str::<Rule>("\"R99.9\"").is_err());
    }
}
