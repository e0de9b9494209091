//! Memos of what a level's terrain alone decides (how soon a body reaches
//! each tile, the line of effect between two tiles), kept per thread and
//! per level: the AI's previews and tries ask the same ones again and
//! again, and the terrain never changes within a battle.

use super::ValidLevel;
use crate::recent::Recent;
use bevy::platform::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

/// Values by key, for the last few levels (each told by its `Arc`: the
/// battle's and its look-ahead copy's). Each level is held while its
/// values are, so no other level can take its place in memory.
pub struct LevelMemo<K, V> {
    kept: Recent<Arc<ValidLevel>, HashMap<K, V>>,
    /// Values kept per level before they are dropped and worked out anew.
    entries: usize,
}

impl<K: Eq + Hash, V: Clone> LevelMemo<K, V> {
    /// An empty memo of at most `levels` levels of `entries` values each.
    pub const fn new(levels: usize, entries: usize) -> Self {
        LevelMemo {
            kept: Recent::new(levels),
            entries,
        }
    }

    /// The value of `key` on `level`, worked out by `make` the first time.
    pub fn get_or_insert_with(
        &mut self,
        level: &Arc<ValidLevel>,
        key: K,
        make: impl FnOnce() -> V,
    ) -> V {
        let values = self.kept.get_or_insert_with(
            |l| Arc::ptr_eq(l, level),
            || (level.clone(), HashMap::default()),
        );
        if values.len() >= self.entries {
            values.clear();
        }
        values.entry(key).or_insert_with(make).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{load_catalog_dir, load_level_file};
    use std::path::Path;

    fn level(name: &str) -> Arc<ValidLevel> {
        let catalog = load_catalog_dir(Path::new("assets/catalog")).unwrap();
        Arc::new(load_level_file(Path::new(&format!("levels/{name}.ron")), &catalog).unwrap())
    }

    /// A value is worked out once per level and key; the oldest level is
    /// dropped past `levels`, a level's values past `entries`; the same
    /// key on another level is its own value.
    #[test]
    fn values_are_kept_per_level_within_bounds() {
        let (a, b, c) = (level("pass"), level("pass"), level("ford"));
        let mut memo = LevelMemo::new(2, 3);
        let made = std::cell::Cell::new(0);
        let get = |memo: &mut LevelMemo<u32, String>, l: &Arc<ValidLevel>, k: u32| {
            memo.get_or_insert_with(l, k, || {
                made.set(made.get() + 1);
                format!("{}:{k}", l.map.width())
            })
        };
        assert_eq!(get(&mut memo, &a, 1), format!("{}:1", a.map.width()));
        get(&mut memo, &a, 1);
        get(&mut memo, &b, 1);
        get(&mut memo, &b, 1);
        assert_eq!(
            made.get(),
            2,
            "one a level: two levels of one file are two levels"
        );
        get(&mut memo, &c, 1);
        get(&mut memo, &b, 1);
        assert_eq!(made.get(), 3, "b is still kept");
        get(&mut memo, &a, 1);
        assert_eq!(made.get(), 4, "a was dropped for c");
        for k in 2..=4 {
            get(&mut memo, &a, k);
        }
        assert_eq!(made.get(), 7);
        get(&mut memo, &a, 1);
        assert_eq!(made.get(), 8, "past 3 values the level's were dropped");
    }
}
