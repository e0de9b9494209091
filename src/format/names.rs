//! Names in files: a variant of a closed list (an overlay, an aimed
//! action, an event kind) written as a string (`"reach"`) or a bare name
//! (`reach`, `Reach`), read as the type it names; an unknown name is an
//! error at its place that lists the names there are.

use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::str::FromStr;
use strum::VariantArray;

/// A name as files write it: a string (`"reach"`) or a bare name
/// (`reach`, `Reach`). Read through serde's untagged content, where RON
/// keeps a bare name's text.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum Written {
    Name(String),
}

/// The variant of `T` named `name` (any case); an unknown name is an error
/// that lists the names.
pub(crate) fn named<T, E>(name: &str) -> Result<T, E>
where
    T: FromStr + VariantArray + Copy + Into<&'static str>,
    E: de::Error,
{
    T::from_str(name).map_err(|_| {
        let names: Vec<&str> = T::VARIANTS.iter().map(|v| (*v).into()).collect();
        E::custom(format!(
            "unknown name {name:?}; the names are {}",
            names.join(", ")
        ))
    })
}

/// Reads one of `T`'s variants by name, written either way.
pub fn by_name<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr + VariantArray + Copy + Into<&'static str>,
{
    let Written::Name(name) = Written::deserialize(d)?;
    named(&name)
}
