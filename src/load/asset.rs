//! The Bevy side of loading: levels as assets, read by the same
//! [`parse_level`](super::parse_level) as the command line and the tests.

use super::CATALOG_DIR;
use super::ValidLevel;
use super::load_catalog_dir;
use super::parse_level;
use super::{Diagnostic, Problems};
use crate::format::Catalog;
use bevy::asset::io::{AssetSourceBuilder, Reader};
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// The asset source that serves the top-level `levels/` folder:
/// `asset_server.load("levels://crossroads.ron")`.
pub const LEVEL_SOURCE: &str = "levels";

/// A level file loaded as an asset: checked and resolved.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct LevelAsset(pub ValidLevel);

/// Loads `*.ron` level files through [`parse_level`], against the catalog
/// read when the plugin was built. A file that fails validation fails to
/// load with every problem in the error, and a hot reload that fails keeps
/// the last good level.
#[derive(TypePath)]
pub struct LevelLoader {
    catalog: Arc<Catalog>,
}

impl LevelLoader {
    /// A loader that resolves level files against `catalog`.
    pub fn new(catalog: Catalog) -> Self {
        Self {
            catalog: Arc::new(catalog),
        }
    }
}

impl AssetLoader for LevelLoader {
    type Asset = LevelAsset;
    type Settings = ();
    type Error = Problems;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<LevelAsset, Problems> {
        let file = format!("{LEVEL_SOURCE}/{}", load_context.path().path().display());
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await.map_err(|e| {
            Problems(vec![Diagnostic {
                file: file.clone(),
                at: None,
                message: format!("cannot read: {e}"),
            }])
        })?;
        parse_level(&bytes, &file, &self.catalog).map(LevelAsset)
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Registers the `levels://` asset source, the [`LevelAsset`] type and its
/// loader. Add it *before* `AssetPlugin` (that is, before `DefaultPlugins`),
/// since Bevy builds asset sources when the asset plugin is added.
pub struct LevelLoadingPlugin {
    /// Folder of level files, relative to the working directory.
    pub levels_dir: String,
    /// Folder of catalog files, relative to the working directory.
    pub catalog_dir: String,
}

impl Default for LevelLoadingPlugin {
    fn default() -> Self {
        Self {
            levels_dir: LEVEL_SOURCE.to_string(),
            catalog_dir: CATALOG_DIR.to_string(),
        }
    }
}

impl Plugin for LevelLoadingPlugin {
    fn build(&self, app: &mut App) {
        app.register_asset_source(
            LEVEL_SOURCE,
            AssetSourceBuilder::platform_default(&self.levels_dir, None),
        );
    }

    fn finish(&self, app: &mut App) {
        // The catalog is read once, here, with the same function as the CLI.
        // A broken catalog is reported and replaced by an empty one, so every
        // level then fails with "unknown template" rather than the game
        // panicking.
        let catalog = load_catalog_dir(Path::new(&self.catalog_dir)).unwrap_or_else(|problems| {
            error!("the catalog has problems:\n{problems}");
            Catalog::default()
        });
        app.init_asset::<LevelAsset>()
            .register_asset_loader(LevelLoader::new(catalog));
    }
}
