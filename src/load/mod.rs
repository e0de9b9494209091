//! Loading and validating levels and catalogs: the one parsing path used by
//! the game's asset loader, the command line and the tests.
//!
//! [`parse_level`] and [`parse_catalog`] take bytes and return either the
//! checked value or *every* problem found, each a [`Diagnostic`] with the file
//! and, where it can be found, the line and column. They never panic,
//! whatever the bytes.

mod asset;
mod heights;
mod locate;
mod memo;
mod parse;
mod problems;
mod report;
mod validate;
mod validate_catalog;

pub use asset::{LevelAsset, LevelLoader, LevelLoadingPlugin};
pub use locate::{Locator, Needle};
pub use memo::LevelMemo;
pub use parse::{
    CATALOG_DIR, FileKind, catalog_at, file_kind, lint_catalog, lint_catalog_dir, load_catalog_dir,
    load_level_file, parse_catalog, parse_file, parse_level, read_file, ron_files, ron_options,
    standard_catalog, validate_level,
};
pub use problems::{Diagnostic, Problems, one_line};
pub use validate::{MAX_MAP_SIDE, UnitSpec, ValidLevel};
