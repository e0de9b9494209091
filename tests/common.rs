//! Helpers shared by the test modules.

use skirmish::format::Catalog;
use skirmish::load::{ValidLevel, load_catalog_dir, load_level_file};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The project root (tests run with it as working directory, but say so).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped catalog, read once.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        load_catalog_dir(&root().join("assets/catalog"))
            .unwrap_or_else(|p| panic!("the shipped catalog must load:\n{p}"))
    })
}

/// A shipped level by file name, checked.
pub fn level(name: &str) -> ValidLevel {
    let path = root().join("levels").join(name);
    load_level_file(&path, catalog()).unwrap_or_else(|p| panic!("{name} must load:\n{p}"))
}

/// `*.ron` files of a folder, sorted.
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// A level by its path from the project root, checked.
pub fn level_at(path: &str) -> ValidLevel {
    load_level_file(&root().join(path), catalog())
        .unwrap_or_else(|p| panic!("{path} must load:\n{p}"))
}
