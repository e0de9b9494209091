//! Scenarios (FORMAT.md): a level, scripted dice, commands and expectations.
//! They test the rules from outside the code; `skirmish verify` runs them.

use crate::battle::{
    ArmorReduction, Condition, Dead, Dying, Facing, GridPos, GroundObject, Health, Prone, Stable,
};
use crate::dice::Dice;
use crate::format::{Caption, Guard, Level};
use crate::load::{self, Problems, ValidLevel};
use crate::rules::variants::active_defence::GuardOrders;
use crate::rules::{BattleEvents, CombatLog, Command, Outcome, TurnState, submit};
use crate::setup::headless_app_with;
use bevy::prelude::*;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The level a scenario plays: a path relative to the project root, or a
/// level written inline as `Inline(Level(...))`.
#[derive(Clone, Debug, PartialEq)]
pub enum LevelRef {
    /// `"levels/tests/flank.ron"`.
    Path(String),
    /// `Inline(Level(...))`.
    Inline(Box<Level>),
}

impl<'de> Deserialize<'de> for LevelRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LevelRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a level path string or Inline(Level(...))")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<LevelRef, E> {
                Ok(LevelRef::Path(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<LevelRef, E> {
                Ok(LevelRef::Path(s))
            }
            // RON hands `Inline(Level(...))` to `deserialize_any` as a
            // one-element tuple.
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<LevelRef, A::Error> {
                let level: Level = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("Inline needs a Level(...)"))?;
                Ok(LevelRef::Inline(Box::new(level)))
            }
        }
        d.deserialize_any(V)
    }
}

pub use crate::rules::reactions::policy::ReactionPolicy;

mod expect;
pub use expect::Expect;

/// A scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What it shows.
    pub name: String,
    /// The level.
    pub level: LevelRef,
    /// Every die, `(sides, value)`, in the order the rules roll them.
    #[serde(default)]
    pub dice: Vec<(u32, u32)>,
    /// Fixed initiative order by unit name (no initiative dice then).
    #[serde(default)]
    pub initiative: Option<Vec<String>>,
    /// Reactions on or off.
    #[serde(default)]
    pub reactions: ReactionPolicy,
    /// Active defence (V2): each named defender's answer to every attack;
    /// a defender not named blocks if it carries a shield, else parries a
    /// melee attack if it holds a melee weapon, else dodges.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defences: BTreeMap<String, Guard>,
    /// Maneuvers (V7, project extension): named units meet every
    /// provocation with this maneuver instead of a weapon blow, where they
    /// can (`reaction_maneuvers: { "Orm": Trip }`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reaction_maneuvers: BTreeMap<String, crate::rules::command::ManeuverKind>,
    /// Spells (V11, project extension): the level at which named units
    /// cast their Defense spell against a hit (`wards: { "Ysolde": 2 }`; 0:
    /// never); a unit not named wards at the spell's base level.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub wards: BTreeMap<String, i32>,
    /// The commands, in order.
    pub commands: Vec<Command>,
    /// The checks.
    #[serde(default)]
    pub expect: Vec<Expect>,
    /// A guided tour's captions (project extension, `levels/demo/`): the
    /// window's `skirmish tour` shows each before its command; the rules
    /// ignore them.
    #[serde(default)]
    pub tour: Vec<Caption>,
}

/// The result of running one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The scenario's name.
    pub name: String,
    /// Why it failed; empty when it passed.
    pub failures: Vec<String>,
    /// The combat log.
    pub log: String,
}

impl Verdict {
    /// True when every expectation held.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The project root for `file`: the nearest ancestor folder holding
/// `assets/catalog`, else the working directory.
pub fn project_root(file: &Path) -> PathBuf {
    let start = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    start
        .ancestors()
        .find(|d| d.join(load::CATALOG_DIR).is_dir())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Reads and runs the scenario at `path`.
pub fn run_file(path: &Path) -> Result<Verdict, Problems> {
    let (scenario, level) = load_file(path)?;
    Ok(run(&scenario, &level))
}

/// Reads the scenario at `path` and the level it plays, checked.
pub fn load_file(path: &Path) -> Result<(Scenario, ValidLevel), Problems> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        Problems(vec![load::Diagnostic {
            file: file.clone(),
            at: None,
            message: format!("cannot read: {e}"),
        }])
    })?;
    let scenario = parse(&bytes, &file)?;
    let root = project_root(path);
    let dir = root.join(load::CATALOG_DIR);
    let catalog = if dir.is_dir() {
        load::load_catalog_dir(&dir)?
    } else {
        load::standard_catalog()?
    };
    let level = match &scenario.level {
        LevelRef::Path(p) => {
            let candidates = [root.join(p), PathBuf::from(p)];
            let found = candidates
                .iter()
                .find(|c| c.is_file())
                .unwrap_or(&candidates[0]);
            load::load_level_file(found, &catalog)?
        }
        LevelRef::Inline(level) => load::validate_level((**level).clone(), &catalog, &file)?,
    };
    Ok((scenario, level))
}

/// Parses a scenario file.
pub fn parse(bytes: &[u8], file: &str) -> Result<Scenario, Problems> {
    load::parse_file(bytes, file, "Scenario")
}

impl Scenario {
    /// Sets up what the scenario decides for the units of the battle in
    /// `world`: its reaction policy and its defenders' answers (V2).
    /// Returns the names in `defences` that are no unit of the level.
    pub fn rig(&self, world: &mut World) -> Vec<String> {
        let sides = world
            .resource::<crate::battle::Battlefield>()
            .0
            .sides()
            .len();
        world.insert_resource(crate::rules::reactions::policy::ReactionPolicies(vec![
            self.reactions;
            sides
        ]));
        let mut orders = GuardOrders::default();
        let mut problems = vec![];
        for (name, guard) in &self.defences {
            match crate::battle::unit_named(world, name) {
                Some(e) => {
                    orders.0.insert(e, *guard);
                }
                None => problems.push(format!("defences: the level has no unit \"{name}\"")),
            }
        }
        world.insert_resource(orders);
        let mut reactive = crate::rules::variants::maneuvers::ReactiveManeuvers::default();
        for (name, kind) in &self.reaction_maneuvers {
            match crate::battle::unit_named(world, name) {
                Some(e) => {
                    reactive.0.insert(e, *kind);
                }
                None => problems.push(format!(
                    "reaction_maneuvers: the level has no unit \"{name}\""
                )),
            }
        }
        world.insert_resource(reactive);
        let mut wards = crate::rules::variants::spells::ward::WardLevels::default();
        for (name, level) in &self.wards {
            match crate::battle::unit_named(world, name) {
                Some(e) => {
                    wards.0.insert(e, *level);
                }
                None => problems.push(format!("wards: the level has no unit \"{name}\"")),
            }
        }
        world.insert_resource(wards);
        problems
    }
}

/// Runs `scenario` on `level` and checks its expectations.
pub fn run(scenario: &Scenario, level: &ValidLevel) -> Verdict {
    let mut app = headless_app_with(
        level,
        Dice::scripted(scenario.dice.iter().copied()),
        scenario.initiative.as_deref(),
    );
    let world = app.world_mut();
    let mut failures = scenario.rig(world);
    let mut refused: Vec<(usize, String)> = vec![];
    for (i, command) in scenario.commands.iter().enumerate() {
        // A refusal is in the events (and the log) as CommandRefused.
        if let Err(r) = submit(world, command.clone()) {
            refused.push((i, r.to_string()));
        }
    }
    let dice = world.resource::<Dice>();
    if let Some(e) = dice.script_error() {
        failures.push(format!("dice: {e}"));
    } else if dice.script_left() > 0 {
        failures.push(format!(
            "dice: {} scripted dice left unused: the rules rolled fewer than the script gives",
            dice.script_left()
        ));
    }
    for (i, reason) in &refused {
        let expected = scenario
            .expect
            .iter()
            .any(|e| matches!(e, Expect::Rejected { command, .. } if command == i));
        if !expected {
            failures.push(format!(
                "command {i} ({}) was refused: {reason}",
                scenario.commands[*i]
            ));
        }
    }
    for e in &scenario.expect {
        if let Err(f) = check(world, e, &refused) {
            failures.push(f);
        }
    }
    Verdict {
        name: scenario.name.clone(),
        failures,
        log: CombatLog::of(world).text(),
    }
}

/// A unit's condition (FORMAT.md `State`).
pub fn condition(world: &World, unit: Entity) -> Condition {
    let e = world.entity(unit);
    if e.contains::<Dead>() {
        Condition::Dead
    } else if e.contains::<Dying>() {
        Condition::Dying
    } else if e.contains::<Stable>() {
        Condition::Stable
    } else if e.contains::<Prone>() {
        Condition::Prone
    } else {
        Condition::Active
    }
}

fn check(world: &mut World, e: &Expect, refused: &[(usize, String)]) -> Result<(), String> {
    let unit = |world: &mut World, name: &str| {
        crate::battle::unit_named(world, name).ok_or_else(|| format!("no unit named \"{name}\""))
    };
    let compare = |what: String, got: String, want: String| {
        if got == want {
            Ok(())
        } else {
            Err(format!("{what}: expected {want}, got {got}"))
        }
    };
    match e {
        Expect::Hp { unit: u, is } => {
            let x = unit(world, u)?;
            let hp = world.get::<Health>(x).map_or(0, |h| h.hp);
            compare(format!("Hp of {u}"), hp.to_string(), is.to_string())
        }
        Expect::At { unit: u, is } => {
            let x = unit(world, u)?;
            let at = world.get::<GridPos>(x).map(|p| p.0).unwrap_or_default();
            compare(format!("At of {u}"), at.to_string(), is.to_string())
        }
        Expect::Hidden { unit: u, from, is } => {
            let x = unit(world, u)?;
            let side = side_index(world, from)?;
            let hidden = crate::rules::variants::stealth::hidden::hidden_from(world, x, side);
            compare(
                format!("Hidden of {u} from {from}"),
                hidden.to_string(),
                is.to_string(),
            )
        }
        Expect::Sees { side, tile, is } => {
            let s = side_index(world, side)?;
            let sees = crate::rules::variants::stealth::sight::side_sees_tile(world, s, *tile);
            compare(
                format!("Sees of {side} at {tile}"),
                sees.to_string(),
                is.to_string(),
            )
        }
        Expect::Height { tile, is } => {
            let h = world
                .resource::<crate::battle::Battlefield>()
                .0
                .map
                .elevation(*tile);
            compare(format!("Height of {tile}"), h.to_string(), is.to_string())
        }
        Expect::Facing { unit: u, is } => {
            let x = unit(world, u)?;
            let f = world.get::<Facing>(x).map(|f| f.0).unwrap_or_default();
            compare(format!("Facing of {u}"), f.to_string(), is.to_string())
        }
        Expect::State { unit: u, is } => {
            let x = unit(world, u)?;
            let c = condition(world, x);
            compare(format!("State of {u}"), format!("{c:?}"), format!("{is:?}"))
        }
        Expect::Ar { unit: u, is } => {
            let x = unit(world, u)?;
            let ar = world.get::<ArmorReduction>(x).map_or(0, |a| a.0);
            compare(format!("Ar of {u}"), ar.to_string(), is.to_string())
        }
        Expect::Timer { unit: u, is } => {
            let x = unit(world, u)?;
            let t = world
                .get::<Dying>(x)
                .map_or("not dying".to_string(), |d| d.timer.to_string());
            compare(format!("Timer of {u}"), t, is.to_string())
        }
        Expect::Turn { unit: u } => {
            let current = world.resource::<TurnState>().current;
            let name = current
                .and_then(|c| world.get::<Name>(c))
                .map_or("nobody".to_string(), |n| n.to_string());
            compare("Turn".into(), name, u.clone())
        }
        Expect::ItemAt { item, is } => {
            let found = world
                .query::<(&GroundObject, &GridPos)>()
                .iter(world)
                .any(|(o, p)| &o.name == item && p.0 == *is);
            if found {
                Ok(())
            } else {
                let all: Vec<String> = world
                    .query::<(&GroundObject, &GridPos)>()
                    .iter(world)
                    .map(|(o, p)| format!("{} at {}", o.name, p.0))
                    .collect();
                Err(format!(
                    "ItemAt: no \"{item}\" at {is} (on the ground: {})",
                    if all.is_empty() {
                        "nothing".into()
                    } else {
                        all.join(", ")
                    }
                ))
            }
        }
        Expect::Log { contains } => {
            if CombatLog::of(world).contains(contains) {
                Ok(())
            } else {
                Err(format!("Log: no line contains {contains:?}"))
            }
        }
        Expect::NotLog { contains } => {
            if CombatLog::of(world).contains(contains) {
                Err(format!("NotLog: a line contains {contains:?}"))
            } else {
                Ok(())
            }
        }
        Expect::LogOrder { contains } => {
            let lines = CombatLog::of(world).lines().to_vec();
            let mut at = 0;
            for c in contains {
                let c = c.to_lowercase();
                match lines[at..]
                    .iter()
                    .position(|l| l.to_lowercase().contains(&c))
                {
                    Some(i) => at += i + 1,
                    None => return Err(format!("LogOrder: no {c:?} after line {at}")),
                }
            }
            Ok(())
        }
        Expect::Injury {
            unit: u,
            part,
            severity,
        } => {
            let x = unit(world, u)?;
            let taken = world
                .get::<crate::rules::variants::injuries::Injuries>(x)
                .map(|i| i.0.clone())
                .unwrap_or_default();
            if taken.contains(&(*part, *severity)) {
                Ok(())
            } else {
                Err(format!(
                    "Injury: {u} has no {} injury to the {}; it has {:?}",
                    severity.name(),
                    part.name(),
                    taken
                ))
            }
        }
        Expect::Grappled { unit: u, by, hold } => {
            let (x, g) = (unit(world, u)?, unit(world, by)?);
            let mut found = crate::rules::variants::maneuvers::hold_on(world, x, g);
            // A spell's grip is a grab (V11.4, V7.6).
            let spell = world.get::<crate::rules::variants::spells::grip::Gripped>(x);
            if spell.is_some_and(|s| s.by == g) {
                found = crate::rules::command::Hold::Grabbed;
            }
            compare(
                format!("Grappled: {u} by {by}"),
                format!("{found:?}"),
                format!("{hold:?}"),
            )
        }
        Expect::Mounted { unit: u, on } => {
            let x = unit(world, u)?;
            let rides = crate::battle::mount_of(world, x).map(|m| crate::battle::name_of(world, m));
            compare(
                format!("Mounted: {u}"),
                format!("{rides:?}"),
                format!("{on:?}"),
            )
        }
        Expect::Wielding { unit: u, weapon } => {
            let x = unit(world, u)?;
            let held = world
                .get::<crate::battle::Inventory>(x)
                .and_then(|i| i.weapons.first().cloned())
                .unwrap_or_else(|| "unarmed".to_string());
            compare(format!("Wielding of {u}"), held, weapon.clone())
        }
        Expect::Stamina { unit: u, is } => {
            let x = unit(world, u)?;
            let s = world.get::<crate::battle::Stamina>(x).map_or(0, |s| s.0);
            compare(format!("Stamina of {u}"), s.to_string(), is.to_string())
        }
        Expect::Energy { unit: u, is } => {
            let x = unit(world, u)?;
            let e = world
                .get::<crate::battle::ActionPoints>(x)
                .map_or(0, |a| a.ap);
            compare(format!("Energy of {u}"), e.to_string(), is.to_string())
        }
        Expect::Agility { unit: u, is } => {
            let x = unit(world, u)?;
            let a = world
                .get::<crate::battle::Budget>(x)
                .map_or(0, |b| b.agility);
            compare(format!("Agility of {u}"), a.to_string(), is.to_string())
        }
        Expect::Condition { unit: u, is } => {
            let x = unit(world, u)?;
            let now = if crate::battle::unguarded(world, x) {
                expect::ConditionIs::Unguarded
            } else if crate::battle::exposed5(world, x) {
                expect::ConditionIs::Exposed
            } else {
                expect::ConditionIs::Guarded
            };
            // Unguarded implies Exposed (V5.8).
            let holds = now == *is
                || (*is == expect::ConditionIs::Exposed && now == expect::ConditionIs::Unguarded);
            let shown = if holds {
                format!("{is:?}")
            } else {
                format!("{now:?}")
            };
            compare(format!("Condition of {u}"), shown, format!("{is:?}"))
        }
        Expect::Mp { unit: u, is } => {
            let x = unit(world, u)?;
            let mp = world.get::<crate::battle::Mp>(x).map_or(0, |m| m.0);
            compare(format!("MP of {u}"), mp.to_string(), is.to_string())
        }
        Expect::Concentrating { unit: u, on } => {
            let x = unit(world, u)?;
            let now = world
                .get::<crate::rules::variants::spells::concentration::Concentrating>(x)
                .map(|c| c.0.clone());
            compare(
                format!("Concentrating: {u}"),
                format!("{now:?}"),
                format!("{on:?}"),
            )
        }
        Expect::Owed { unit: u, is } => {
            let x = unit(world, u)?;
            let owed = crate::rules::variants::die_ranks::owed(world, x);
            compare(format!("AP {u} owes"), owed.to_string(), is.to_string())
        }
        Expect::Rejected { command, contains } => {
            match refused.iter().find(|(i, _)| i == command) {
                Some((_, reason)) if reason.to_lowercase().contains(&contains.to_lowercase()) => {
                    Ok(())
                }
                Some((_, reason)) => Err(format!(
                    "Rejected: command {command} was refused with {reason:?}, which does not contain {contains:?}"
                )),
                None => Err(format!("Rejected: command {command} was accepted")),
            }
        }
        Expect::Round { is } => {
            let r = world.resource::<TurnState>().round;
            compare("Round".into(), r.to_string(), is.to_string())
        }
        Expect::Winner { side } => {
            let outcome = world.resource::<TurnState>().outcome.clone();
            let sides = world
                .resource::<crate::battle::Battlefield>()
                .0
                .sides()
                .to_vec();
            let got = match outcome {
                Some(Outcome::Victory { side: s, .. }) => sides[s].name.clone(),
                Some(Outcome::Draw) => "a draw".into(),
                None => "no result yet".into(),
            };
            compare("Winner".into(), got, side.clone())
        }
        Expect::Event {
            kind,
            unit: u,
            rule: rule_id,
        } => {
            let unit_id = match u.as_str() {
                "" => None,
                name => {
                    let e = unit(world, name)?;
                    world.get::<crate::battle::UnitId>(e).copied()
                }
            };
            let found = world.resource::<BattleEvents>().all().iter().any(|e| {
                e.kind() == *kind
                    && unit_id.is_none_or(|id| e.units().contains(&id))
                    && rule_id.is_none_or(|r| e.rules().contains(&r))
            });
            if found {
                Ok(())
            } else {
                Err(format!(
                    "Event: no {kind} event{}{}",
                    if u.is_empty() {
                        String::new()
                    } else {
                        format!(" about {u}")
                    },
                    rule_id.map(|r| format!(" citing {r}")).unwrap_or_default(),
                ))
            }
        }
        Expect::Draw => {
            let outcome = world.resource::<TurnState>().outcome.clone();
            compare(
                "Draw".into(),
                format!("{outcome:?}"),
                format!("{:?}", Some(Outcome::Draw)),
            )
        }
    }
}

/// The index of the side called `name`.
fn side_index(world: &World, name: &str) -> Result<usize, String> {
    world
        .resource::<crate::battle::Battlefield>()
        .0
        .sides()
        .iter()
        .position(|s| s.name == name)
        .ok_or_else(|| format!("no side \"{name}\""))
}
