//! Dice expressions such as `"1d8"`, `"2d6+1"` or `"d4-1"` (FORMAT.md).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Most dice one expression may roll, and most sides a die may have: enough
/// for any tabletop weapon, small enough that a typo cannot stall a preview.
pub const MAX_DICE: u32 = 100;
/// See [`MAX_DICE`].
pub const MAX_SIDES: u32 = 1000;

/// A dice expression `NdS+B`: roll `count` dice of `sides` sides and add `bonus`.
///
/// Deserialising never fails: a malformed text is kept with its reason in
/// [`Dice::error`], so that validation can report every bad expression of a
/// file at once instead of stopping at the first. A validated level or
/// catalog holds only well-formed dice.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    /// Number of dice (`N`, 1 when written `d6`).
    pub count: u32,
    /// Sides of each die (`S`).
    pub sides: u32,
    /// Flat modifier (`B`), may be negative.
    pub bonus: i32,
    text: String,
    error: Option<String>,
}

impl Dice {
    /// Parses `NdS`, `NdS+B`, `NdS-B` or `dS` (spaces allowed around signs).
    pub fn parse(text: &str) -> Result<Dice, String> {
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let lower = s.to_ascii_lowercase();
        let Some(d) = lower.find('d') else {
            return Err("expected dice like \"1d8\" or \"2d6+1\" (no 'd' found)".into());
        };
        let count_text = &lower[..d];
        let rest = &lower[d + 1..];
        let count = if count_text.is_empty() {
            1
        } else {
            count_text
                .parse::<u32>()
                .map_err(|_| format!("dice count {count_text:?} is not a whole number"))?
        };
        let (sides_text, bonus) = match rest.find(['+', '-']) {
            Some(i) => {
                let b = &rest[i..];
                let bonus = b
                    .parse::<i32>()
                    .map_err(|_| format!("modifier {b:?} is not a whole number"))?;
                (&rest[..i], bonus)
            }
            None => (rest, 0),
        };
        if sides_text.is_empty() {
            return Err("the number of sides is missing after 'd' (write e.g. \"1d6\")".into());
        }
        let sides = sides_text
            .parse::<u32>()
            .map_err(|_| format!("die sides {sides_text:?} is not a whole number"))?;
        if count == 0 || count > MAX_DICE {
            return Err(format!("dice count must be 1 to {MAX_DICE}, not {count}"));
        }
        if !(1..=MAX_SIDES).contains(&sides) {
            return Err(format!("a die has 1 to {MAX_SIDES} sides, not {sides}"));
        }
        if bonus.unsigned_abs() > 1000 {
            return Err(format!("modifier {bonus} is out of range (-1000 to 1000)"));
        }
        Ok(Dice {
            count,
            sides,
            bonus,
            text: text.to_string(),
            error: None,
        })
    }

    /// Why the text is not a dice expression, if it is not.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The text as written in the file.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Smallest possible total.
    pub fn min(&self) -> i32 {
        self.count as i32 + self.bonus
    }

    /// Largest possible total.
    pub fn max(&self) -> i32 {
        (self.count * self.sides) as i32 + self.bonus
    }

    /// Mean total.
    pub fn mean(&self) -> f64 {
        self.count as f64 * (self.sides as f64 + 1.0) / 2.0 + self.bonus as f64
    }
}

impl std::str::FromStr for Dice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dice::parse(s)
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

impl Serialize for Dice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Ok(Dice::parse(&text).unwrap_or_else(|error| Dice {
            count: 1,
            sides: 1,
            bonus: 0,
            text,
            error: Some(error),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_common_forms() {
        let d = Dice::parse("2d6+1").unwrap();
        assert_eq!((d.count, d.sides, d.bonus), (2, 6, 1));
        let d = Dice::parse("d4 - 1").unwrap();
        assert_eq!((d.count, d.sides, d.bonus), (1, 4, -1));
        assert_eq!(Dice::parse("1D8").unwrap().to_string(), "1d8");
    }

    #[test]
    fn refuses_malformed() {
        for bad in [
            "1d", "d", "", "6", "1d6+", "xd6", "0d6", "1d0", "1d6+1+1", "-1d6",
        ] {
            assert!(Dice::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
