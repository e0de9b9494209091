//! The integration tests: one crate, one module per concern.

mod asset;
mod broken;
mod common;
mod levels;
mod robustness;
mod setup;
