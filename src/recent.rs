//! [`Recent`]: values kept for the last few keys a thread met, the oldest
//! dropped first. The per-thread caches of what a world or a level alone
//! decides keep one value for each of the few worlds or levels in play (a
//! battle and its look-ahead copy): the body query per world
//! ([`crate::bodies`]) and the terrain's memos per level
//! ([`crate::load::LevelMemo`]).

/// A value for each of the last `limit` keys, in the order they came.
pub struct Recent<K, V> {
    kept: Vec<(K, V)>,
    limit: usize,
}

impl<K, V> Recent<K, V> {
    /// None kept yet; at most `limit` (at least one).
    pub const fn new(limit: usize) -> Self {
        Recent {
            kept: Vec::new(),
            limit,
        }
    }

    /// The value of the key that `is` picks; else the key and value `make`
    /// gives, kept in place of the oldest when `limit` are kept already.
    pub fn get_or_insert_with(
        &mut self,
        is: impl Fn(&K) -> bool,
        make: impl FnOnce() -> (K, V),
    ) -> &mut V {
        match self.kept.iter().position(|(k, _)| is(k)) {
            Some(at) => &mut self.kept[at].1,
            None => self.keep(make()),
        }
    }

    /// [`Recent::get_or_insert_with`] for a `make` that may give none:
    /// then `None`, and nothing kept or dropped.
    pub fn get_or_try_insert_with(
        &mut self,
        is: impl Fn(&K) -> bool,
        make: impl FnOnce() -> Option<(K, V)>,
    ) -> Option<&mut V> {
        match self.kept.iter().position(|(k, _)| is(k)) {
            Some(at) => Some(&mut self.kept[at].1),
            None => Some(self.keep(make()?)),
        }
    }

    /// Keeps `made`, the oldest dropped when `limit` are kept already.
    fn keep(&mut self, made: (K, V)) -> &mut V {
        if self.kept.len() >= self.limit.max(1) {
            self.kept.remove(0);
        }
        self.kept.push(made);
        let last = self.kept.len() - 1;
        &mut self.kept[last].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key's value is made once and found again; past the limit the
    /// oldest key goes first (not the last used); a key `make` cannot
    /// serve keeps nothing and drops nothing.
    #[test]
    fn the_last_keys_are_kept_and_the_oldest_dropped() {
        let mut recent: Recent<u32, String> = Recent::new(2);
        let made = std::cell::Cell::new(0);
        let get = |recent: &mut Recent<u32, String>, k: u32| {
            recent
                .get_or_try_insert_with(
                    |x| *x == k,
                    || {
                        made.set(made.get() + 1);
                        (k != 0).then(|| (k, format!("v{k}")))
                    },
                )
                .cloned()
        };
        assert_eq!(get(&mut recent, 1).as_deref(), Some("v1"));
        assert_eq!(get(&mut recent, 1).as_deref(), Some("v1"));
        assert_eq!(get(&mut recent, 2).as_deref(), Some("v2"));
        assert_eq!(get(&mut recent, 0), None, "make gave none");
        assert_eq!(get(&mut recent, 1).as_deref(), Some("v1"), "none dropped");
        assert_eq!(get(&mut recent, 3).as_deref(), Some("v3"));
        assert_eq!(get(&mut recent, 2).as_deref(), Some("v2"), "2 kept");
        assert_eq!(get(&mut recent, 1).as_deref(), Some("v1"), "1 made anew");
        assert_eq!(made.get(), 5, "1, 2, the refused 0, 3, and 1 again");
        // A value always made is kept the same way: the oldest (3) goes.
        let four = recent.get_or_insert_with(|x| *x == 4, || (4, "v4".into()));
        assert_eq!(four, "v4");
        assert_eq!(get(&mut recent, 1).as_deref(), Some("v1"), "1 kept");
        assert_eq!(get(&mut recent, 3).as_deref(), Some("v3"), "3 made anew");
        assert_eq!(made.get(), 6);
        // The value is the one kept: a change to it stays.
        *recent.get_or_insert_with(|x| *x == 3, || unreachable!()) += "!";
        assert_eq!(get(&mut recent, 3).as_deref(), Some("v3!"));
    }
}
