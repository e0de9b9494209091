//! AI profiles: RON files under `assets/ai/`, one per profile, named by
//! the file (`assets/ai/cautious.ron` is `Ai("cautious")` in a level).
//!
//! ```ron
//! Profile(
//!     description: "Holds back, guards its rear, strikes when it is safe.",
//!     weights: (exposure: 1.4, approach: 0.4),
//! )
//! ```
//!
//! A profile names its `kind` (`Utility`, the default, or one of the
//! baselines `Random` and `Greedy`) and overrides any of the [`Weights`];
//! the others keep their defaults. Unknown fields are errors, so a typo in
//! a weight's name cannot pass unnoticed.

use crate::format::{Control, Level};
use crate::load::{Diagnostic, Locator, Needle, Problems, parse_file};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Where the profiles live.
pub const PROFILE_DIR: &str = "assets/ai";

/// The profile of a plain `Ai` side.
pub const DEFAULT_PROFILE: &str = "normal";

/// How a profile chooses its commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// Scores every plan with the rules' preview and the weights.
    #[default]
    Utility,
    /// Baseline: a uniformly random legal command.
    Random,
    /// Baseline: the closest enemy, the best immediate expected damage, no
    /// look at risk.
    Greedy,
    /// Looks ahead: the utility AI's best first commands, each tried on
    /// copies of the battle through the enemy's replies
    /// ([`crate::ai::search`]), as the profile's `search` sets.
    Search,
}

/// The weights of the utility AI. Values are in one currency: a unit's
/// worth (its damage per round) times the share of its HP and AR at stake.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Damage dealt: per share of the target's HP taken.
    pub damage: f64,
    /// AR stripped, relative to HP taken (R1.2).
    pub armor: f64,
    /// Dropping the target (R10.1), per chance.
    pub drop: f64,
    /// Hitting a dying enemy (its timer drops, R10.3), per chance.
    pub finish: f64,
    /// Damage the enemies can deal to us next round where we end.
    pub exposure: f64,
    /// Reactive attacks our moves and shots provoke (R8.2).
    pub provoked: f64,
    /// Closing in on the enemy (or an objective zone), per move's worth.
    pub approach: f64,
    /// How much more `approach` weighs as the round limit nears.
    pub urgency: f64,
    /// Standing in an objective zone (R11).
    pub objective: f64,
    /// Standing where an ally can take the opposite tile (R4.5).
    pub flank_setup: f64,
    /// Each point of stamina spent (R7.8).
    pub stamina: f64,
    /// Value left to each attack after another this turn (R7.6).
    pub follow: f64,
    /// Throwing away a carried object.
    pub spend_item: f64,
    /// Saving a dying ally (Stabilize R10.4, a potion R10.5).
    pub rescue: f64,
    /// Healing a hurt ally or oneself (R10.5).
    pub heal: f64,
    /// Least value of a reactive attack worth taking (R8.1).
    pub react: f64,
    /// How fast the cost of damage grows with the share of a unit's HP and
    /// AR it takes: `share · (1 + fall_aversion · share)`, so that risking
    /// the fall (R10.1) costs more than its share.
    pub fall_aversion: f64,
    /// The extra danger of ending open to melee (+1 advantage against,
    /// R4.7, R7.8), as a share of the danger on the tile.
    pub open_danger: f64,
    /// Attacks a round a unit's worth counts (R3.1: 3 AP, most turns spend
    /// one moving).
    pub worth_attacks: f64,
    /// The DV a unit's worth is measured against: a typical target (R1.1:
    /// 10 + DEX + armor).
    pub worth_dv: i32,
    /// Range increments within which a shooter counts as a threat (R7.4:
    /// each past the first adds a disadvantage).
    pub shot_increments: i32,
    /// A splash's harm to allies, relative to the same harm to enemies
    /// (R9.4).
    pub ally_splash: f64,
    /// Reaching a dying ally, relative to `rescue` (R10.4).
    pub rescue_approach: f64,
    /// Waking a dying ally with a potion, relative to `rescue` (R10.5).
    pub rescue_wake: f64,
    /// Stabilising a dying ally, relative to `rescue`: it stops dying but
    /// stays out of the fight until healed (R10.4).
    pub rescue_stable: f64,
    /// An ally above this share of its HP is not given a potion (R10.5).
    pub heal_below: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            damage: 1.0,
            armor: 0.3,
            drop: 1.0,
            finish: 0.1,
            exposure: 0.2,
            provoked: 1.0,
            approach: 0.5,
            urgency: 2.0,
            objective: 0.5,
            flank_setup: 0.3,
            stamina: 0.3,
            follow: 0.7,
            spend_item: 0.2,
            rescue: 1.0,
            heal: 0.6,
            react: 0.01,
            fall_aversion: 1.0,
            open_danger: 1.0 / 3.0,
            worth_attacks: 2.0,
            worth_dv: 13,
            shot_increments: 3,
            ally_splash: 2.0,
            rescue_approach: 1.5,
            rescue_wake: 1.2,
            rescue_stable: 0.2,
            heal_below: 0.5,
        }
    }
}

/// Commands a try may play before it is cut short, unless its profile
/// sets another `length` (a battle that stalls; the deciding unit's turn,
/// an ally's and the enemy's reply, with reactions, are about 15).
pub const TRY_LIMIT: usize = 40;

/// How the look-ahead searches: what an Easy, a Normal and a Hard profile
/// change (`assets/ai/easy.ron`…).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Lookahead {
    /// How many of the utility AI's best first commands are tried.
    pub width: usize,
    /// The work of all the tries of one decision: its thinking time, in
    /// commands' worth of work ([`crate::ai::search::COMMAND_WORK`]
    /// attacks gathered by the rules each, a command's walk over the map
    /// counted besides), counted, not timed, so that a seed gives the same
    /// battle on any machine. A try of cheap commands (few targets in
    /// reach) costs less than one of dear ones, so the budget bounds the
    /// time closely. The utility AI's own choice is always tried first; a
    /// candidate never tried is never chosen.
    pub budget: usize,
    /// Enemy turns played after the deciding unit's own before the end of
    /// a try is judged: the enemy's replies. Allies whose turns come
    /// before them (initiative is by unit, R2.1) play theirs too: their
    /// follow-up.
    pub replies: usize,
    /// Commands a try may play at most before it is cut short and judged
    /// where it stands ([`TRY_LIMIT`] unless set; its first command is
    /// always played, so 0 plays as 1):
    /// a bound on a stalled battle for one or two replies; a try meant to
    /// run to the battle's end (`replies: 99`) needs far more (archers'
    /// tries to the end: a median of 33 to 52 commands; `STRENGTH.md`,
    /// "Tries played to the battle's end").
    pub length: usize,
    /// Weight of the utility AI's own value of a candidate beside what its
    /// tries came to: its sense of position (approach, objectives, flank
    /// set-ups), which a short try does not see pay off.
    pub prior: f64,
    /// Noise added to each candidate's value, in shares of the mean unit
    /// worth: an easier opponent that now and then picks a worse plan.
    pub noise: f64,
    /// How sure the tries must be before another plan replaces the utility
    /// AI's own choice: its gain must exceed this many standard errors (0:
    /// any gain will do).
    pub confidence: f64,
    /// The weights the tries play the enemy's side with: how it models the
    /// enemy (the utility AI's defaults, `utility1`'s, unless set), apart
    /// from the profile's own `weights`, which play its side.
    pub enemy: Weights,
}

impl Default for Lookahead {
    fn default() -> Self {
        Lookahead {
            width: 4,
            budget: 360,
            replies: 1,
            length: TRY_LIMIT,
            prior: 0.5,
            noise: 0.0,
            confidence: 1.5,
            enemy: Weights::default(),
        }
    }
}

/// One AI profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Its name (the file's, set when loaded).
    #[serde(skip)]
    pub name: String,
    /// What it plays like, for designers.
    #[serde(default)]
    pub description: String,
    /// How it chooses.
    #[serde(default)]
    pub kind: Kind,
    /// The utility weights (unused by the baselines; a `Search` profile's
    /// candidates and tries are scored with them).
    #[serde(default)]
    pub weights: Weights,
    /// How a `Search` profile looks ahead (budget, width, replies, noise).
    #[serde(default)]
    pub search: Lookahead,
}

/// The profiles shipped in `assets/ai/`, compiled in so that tests and
/// simulations run from any directory.
const SHIPPED: [(&str, &str); 9] = [
    ("easy", include_str!("../../assets/ai/easy.ron")),
    ("normal", include_str!("../../assets/ai/normal.ron")),
    ("hard", include_str!("../../assets/ai/hard.ron")),
    ("utility1", include_str!("../../assets/ai/utility1.ron")),
    ("utility", include_str!("../../assets/ai/utility.ron")),
    ("cautious", include_str!("../../assets/ai/cautious.ron")),
    ("reckless", include_str!("../../assets/ai/reckless.ron")),
    ("random", include_str!("../../assets/ai/random.ron")),
    ("greedy", include_str!("../../assets/ai/greedy.ron")),
];

/// Profiles by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profiles(pub BTreeMap<String, Profile>);

impl Profiles {
    /// The shipped profiles (`easy`, `normal`, `hard`, `utility1`,
    /// `utility`, `cautious`, `reckless`, `random`, `greedy`).
    pub fn shipped() -> Profiles {
        let mut out = Profiles::default();
        for (name, text) in SHIPPED {
            let mut p: Profile = parse_file(text.as_bytes(), name, "Profile")
                .unwrap_or_else(|e| panic!("shipped profile {name} is broken: {e}"));
            p.name = name.to_string();
            out.0.insert(name.to_string(), p);
        }
        out
    }

    /// The shipped profiles, then every `*.ron` of `dir` over them (a file
    /// of the same name replaces a shipped one). A missing directory is not
    /// an error; a broken file is, with its line and column.
    pub fn load(dir: &Path) -> Result<Profiles, Problems> {
        let mut out = Profiles::shipped();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(out);
        };
        let mut files: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        let mut problems = vec![];
        for path in files {
            let file = path.display().to_string();
            let Some(name) = path.file_stem().map(|s| s.to_string_lossy().to_string()) else {
                continue;
            };
            let parsed = std::fs::read(&path)
                .map_err(|e| {
                    Problems(vec![Diagnostic {
                        file: file.clone(),
                        at: None,
                        message: format!("cannot read: {e}"),
                    }])
                })
                .and_then(|bytes| parse_file::<Profile>(&bytes, &file, "Profile"));
            match parsed {
                Ok(mut p) => {
                    p.name = name.clone();
                    out.0.insert(name, p);
                }
                Err(p) => problems.extend(p.0),
            }
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(Problems(problems))
        }
    }

    /// These profiles with `difficulty` (a profile's name: `easy`, `normal`,
    /// `hard`) standing in for the default one, so that every plain `Ai`
    /// side plays it; an unknown name is an error naming the known ones.
    pub fn with_default(mut self, difficulty: Option<&str>) -> Result<Profiles, String> {
        let Some(name) = difficulty else {
            return Ok(self);
        };
        let profile = self.get(name).cloned().ok_or_else(|| {
            format!(
                "unknown AI profile \"{name}\" (known: {})",
                self.names().join(", ")
            )
        })?;
        self.0.insert(DEFAULT_PROFILE.to_string(), profile);
        Ok(self)
    }

    /// The profile called `name`.
    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.0.get(name)
    }

    /// The profile a side's control names: `Ai` is [`DEFAULT_PROFILE`];
    /// `None` for a human side or an unknown name.
    pub fn for_control(&self, control: &Control) -> Option<&Profile> {
        match control {
            Control::Human => None,
            Control::Ai(name) => self.get(name.as_deref().unwrap_or(DEFAULT_PROFILE)),
        }
    }

    /// The names, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }

    /// Problems of a level's `control: Ai("…")` names that are no profile,
    /// located in `src`.
    pub fn check_level(&self, level: &Level, src: &str, file: &str) -> Vec<Diagnostic> {
        let locator = Locator::new(src);
        level
            .sides
            .iter()
            .filter_map(|side| match &side.control {
                Control::Ai(Some(name)) if self.get(name).is_none() => Some(Diagnostic {
                    file: file.to_string(),
                    at: Some(locator.locate_near(&[
                        Needle::Ident("sides"),
                        Needle::Str(&side.name),
                        Needle::Str(name),
                    ])),
                    message: format!(
                        "side \"{}\": unknown AI profile \"{name}\" (known: {}; profiles are the files of {PROFILE_DIR}/)",
                        side.name,
                        self.names().join(", ")
                    ),
                }),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_profiles_load_and_differ() {
        let p = Profiles::shipped();
        assert_eq!(
            p.names(),
            [
                "cautious", "easy", "greedy", "hard", "normal", "random", "reckless", "utility",
                "utility1"
            ]
        );
        let (u, c, r) = (
            &p.get("utility").unwrap().weights,
            &p.get("cautious").unwrap().weights,
            &p.get("reckless").unwrap().weights,
        );
        assert!(c.exposure > u.exposure && u.exposure > r.exposure);
        assert_eq!(p.get("greedy").unwrap().kind, Kind::Greedy);
        assert_eq!(p.get("random").unwrap().kind, Kind::Random);
        // The difficulty levels search, each with more thinking than the
        // one below; utility1 is the utility AI as it was.
        let budget = |n: &str| p.get(n).map(|p| p.search.budget).unwrap_or(0);
        for n in ["easy", "normal", "hard"] {
            assert_eq!(p.get(n).map(|p| p.kind), Some(Kind::Search), "{n}");
        }
        assert!(0 < budget("easy") && budget("easy") < budget("normal"));
        assert!(budget("normal") < budget("hard"));
        // Hard plays its tries on to the battle's end (STRENGTH.md, "Tries
        // to the end at 2880 on a second level"): a length for it.
        let hard = &p.get("hard").unwrap().search;
        assert!(hard.replies > p.get("normal").unwrap().search.replies);
        assert!(hard.length > TRY_LIMIT);
        // Hard thinks longer with the same hand as Normal: its side played
        // by Normal's tuned weights, never utility1's weaker ones.
        let weights = |n: &str| p.get(n).map(|p| p.weights.clone());
        assert_eq!(weights("hard"), weights("normal"));
        assert_ne!(weights("normal"), Some(Weights::default()));
        assert_eq!(p.get(DEFAULT_PROFILE).unwrap().kind, Kind::Search);
        assert_eq!(p.get("utility1").unwrap().weights, Weights::default());
        assert_eq!(p.get("utility1").unwrap().kind, Kind::Utility);
    }

    /// A look-ahead models the enemy with the utility AI's defaults
    /// (utility1's) unless its profile says otherwise, whatever weights
    /// it plays its own side with.
    #[test]
    fn the_enemy_is_modelled_by_the_defaults_unless_set() {
        let p = Profiles::shipped();
        let normal = p.get(DEFAULT_PROFILE).unwrap();
        assert_eq!(normal.search.enemy, Weights::default());
        let text = "Profile(kind: Search, search: (enemy: (exposure: 0.7)), weights: (armor: 0.6))";
        let set: Profile = ron::from_str(text).unwrap();
        assert_eq!(set.search.enemy.exposure, 0.7);
        assert_eq!(set.search.enemy.armor, Weights::default().armor);
        assert_eq!(set.weights.armor, 0.6);
        assert_eq!(set.search.budget, Lookahead::default().budget);
    }

    #[test]
    fn a_misspelt_weight_is_an_error_with_its_place() {
        let text = "Profile(\n  weights: (exposure: 1.0, exposur: 2.0),\n)";
        let err = parse_file::<Profile>(text.as_bytes(), "x.ron", "Profile").unwrap_err();
        let d = &err.0[0];
        assert_eq!(d.at.map(|a| a.0), Some(2), "{err}");
        assert!(d.message.contains("exposur"), "{err}");
    }
}
