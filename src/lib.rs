//! Skirmish: a rules-faithful turn-based tactical grid game.
//!
//! The rules (`../shared/RULES.md`, cited by R-id) run headless as Bevy ECS;
//! the view is a separate plugin that is never needed by tests, the AI or
//! simulations. Levels, catalogs and scenarios are RON files
//! (`../shared/FORMAT.md`, documented in `levels/README.md`).

pub mod ai;
pub mod art;
pub mod battle;
pub mod bodies;
pub mod cli;
pub mod design;
pub mod dice;
pub mod format;
pub mod grid;
pub mod load;
pub mod recent;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod settings;
pub mod setup;
pub mod sim;
pub mod terrain;
pub mod view;
