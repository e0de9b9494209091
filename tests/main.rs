//! The integration tests: one crate, one module per concern.

mod ai;
mod architecture;
mod asset;
mod broken;
mod cli;
mod common;
mod design;
mod determinism;
mod editor;
mod golden;
mod heights;
mod invariants;
mod levels;
mod maneuvers;
mod odds;
mod offered;
mod overlays;
mod playback;
mod preview;
mod reload;
mod robustness;
mod scenarios;
mod settings;
mod setup;
mod view;
mod window;
