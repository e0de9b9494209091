//! Replays and saves, both RON.
//!
//! A [`Replay`] is a level, a seed and the accepted commands: played again,
//! it reaches the same end state, byte for byte (R0.6). The seed records
//! every randomness: the rules' rolls and the AI's chances (the seed's
//! second stream, [`Dice::pick`]), so the battle that recorded it can be
//! played again by the same profiles too. A [`SaveGame`] is a
//! snapshot of a battle mid-way, the dice's whole state included: loaded, it
//! continues exactly as the unsaved battle would.

use crate::battle::{
    ActionPoints, ArmorReduction, Battlefield, Charged, Dead, Defending, Dying, Exposed, Facing,
    GridPos, GroundObject, Health, Inventory, OffGuard, Prone, Reactions, ShieldReady, Side,
    Stable, Stamina, Stuck, UnitId,
};
use crate::dice::Dice;
use crate::format::{Catalog, Level};
use crate::grid::{Dir, Pos};
use crate::load::{Problems, validate_level};
use crate::rules::attacks::techniques::LastHit;
use crate::rules::reactions::policy::{ReactionPolicies, ReactionPolicy};
use crate::rules::turns::victory::HoldStreaks;
use crate::rules::variants::maneuvers::Grappled;
use crate::rules::{BattleEvent, BattleEvents, Command, History, Outcome, TurnState, submit};
use crate::rules::{Decisions, Trigger};
use crate::setup::{headless_app_with, spawn_battle};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A battle's record: replaying it reaches the same end state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The level as played.
    pub level: Level,
    /// The dice seed.
    pub seed: u64,
    /// The accepted commands.
    pub commands: Vec<Command>,
    /// Each side's reaction policy (R8): `Ask` sides answer with `React`
    /// commands, as the AI and the window do. Empty: every side `Always`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<ReactionPolicy>,
}

impl Replay {
    /// The record of the battle in `world`, begun with dice seeded `seed`.
    pub fn of(world: &World, seed: u64) -> Self {
        Self {
            level: world.resource::<Battlefield>().0.source.clone(),
            seed,
            commands: world
                .get_resource::<History>()
                .map(|h| h.0.clone())
                .unwrap_or_default(),
            reactions: world
                .get_resource::<ReactionPolicies>()
                .map(|p| p.0.clone())
                .unwrap_or_default(),
        }
    }

    /// Plays the replay in a new headless app. A command the rules refuse
    /// means the replay does not belong to these rules: it is an error.
    pub fn run(&self, catalog: &Catalog) -> Result<App, String> {
        let level =
            validate_level(self.level.clone(), catalog, "replay").map_err(|p| p.to_string())?;
        let mut app = headless_app_with(&level, Dice::seeded(self.seed), None);
        app.world_mut()
            .insert_resource(ReactionPolicies(self.reactions.clone()));
        for (i, c) in self.commands.iter().enumerate() {
            submit(app.world_mut(), c.clone())
                .map_err(|r| format!("command {i} ({c}) refused: {r}"))?;
        }
        Ok(app)
    }
}

/// One unit, as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct UnitSnapshot {
    pub id: u32,
    pub side: usize,
    pub at: Pos,
    pub facing: Dir,
    pub hp: i32,
    pub ar: i32,
    pub stamina: i32,
    pub ap: i32,
    pub free_used: bool,
    pub attacks: u32,
    pub defended: bool,
    pub reactions: i32,
    pub weapons: Vec<String>,
    pub items: Vec<(String, u32)>,
    pub prone: bool,
    pub defending: bool,
    pub shield_ready: bool,
    pub charged: bool,
    pub dying: Option<i32>,
    pub stable: bool,
    pub dead: bool,
    pub off_guard: bool,
    #[serde(default)]
    pub exposed: bool,
    /// Injuries taken (V3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub injuries: Vec<(crate::format::BodyPart, crate::format::Severity)>,
    #[serde(default)]
    pub stuck: Vec<String>,
    /// Grappled (V7.6): the grappler's id, the hold, and the round it was
    /// last kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grappled: Option<(u32, crate::rules::command::Hold, u32)>,
    /// The mount it rides, by id (V12.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub riding: Option<u32>,
    /// Its pair's free Move this turn is still to take (V12.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free_move: bool,
    /// Its pair has moved this turn (V12.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rode: bool,
    /// The sides it is hidden from, one bit per side (V8.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hidden: u32,
    /// Ambushed: off-guard through round 1 (V8.9).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub surprised: bool,
    /// Stunned (V3): whether its next turn is lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stunned: Option<bool>,
    /// Dazed (V3): whether the turn that ends it has begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dazed: Option<bool>,
    /// Energy's round budgets, where its last turn began, and its
    /// conditions (V5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<(
        crate::battle::Budget,
        Option<crate::battle::Stride>,
        crate::battle::Guardless,
    )>,
    /// MP left (V11.2).
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub mp: i32,
    /// The spell it concentrates on (V11.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentrating: Option<String>,
    /// It cast a spell this turn (V11.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cast: bool,
    /// The caster (by id) and spell whose grip holds it (V11.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gripped: Option<(u32, String)>,
}

fn is_zero_i32(n: &i32) -> bool {
    *n == 0
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A battle mid-way: everything needed to continue it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveGame {
    /// The level as played.
    pub level: Level,
    /// Every unit, by id.
    pub units: Vec<UnitSnapshot>,
    /// Objects on the ground.
    pub ground: Vec<(String, Pos)>,
    /// The round.
    pub round: u32,
    /// Initiative order with totals, by unit id.
    pub initiative: Vec<(u32, i32)>,
    /// This round's order, by unit id.
    pub order: Vec<u32>,
    /// Index of the current turn in `order`.
    pub index: usize,
    /// Whose turn it is.
    pub current: Option<u32>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
    /// HoldZone streaks.
    pub hold_streaks: Vec<u32>,
    /// Spells' fields and zones on the map (V11.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<crate::rules::variants::spells::fields::Field>,
    /// The dice, whole state included.
    pub dice: Dice,
    /// Everything that happened so far (the combat log is formatted from
    /// it).
    #[serde(default)]
    pub events: Vec<BattleEvent>,
    /// Beside each event, the sides told of it (V8.1); a save without them
    /// told every side all.
    #[serde(default)]
    pub told: Vec<u32>,
    /// Where each side last saw each unit it has lost (V8.4): `(side,
    /// unit id, tile)`.
    #[serde(default)]
    pub last_seen: Vec<(usize, u32, Pos)>,
    /// The accepted commands so far.
    pub history: Vec<Command>,
    /// The melee hit a Cleave may follow (R7.8), by unit ids.
    #[serde(default)]
    pub last_hit: Option<(u32, u32)>,
    /// Each side's reaction policy (R8).
    #[serde(default)]
    pub reaction_policies: Vec<ReactionPolicy>,
    /// Open reaction questions of `Ask` sides and the command they hold.
    #[serde(default)]
    pub decisions: DecisionsSnapshot,
}

/// [`Decisions`] by unit ids.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisionsSnapshot {
    /// The command waiting for answers.
    pub held: Option<Command>,
    /// Who is asked about which trigger, in order.
    pub questions: Vec<(u32, Trigger)>,
    /// Answers given.
    pub answers: Vec<(u32, Trigger, bool)>,
    /// Defenders' declared answers (V2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guards: Vec<(u32, crate::format::Guard)>,
}

fn id_of(world: &World, e: Entity) -> u32 {
    world.get::<UnitId>(e).map_or(u32::MAX, |id| id.0)
}

impl SaveGame {
    /// Captures the battle in `world`.
    pub fn capture(world: &mut World) -> Self {
        let ids: Vec<(Entity, u32)> = world
            .query::<(Entity, &UnitId)>()
            .iter(world)
            .map(|(e, id)| (e, id.0))
            .collect();
        let mut units: Vec<UnitSnapshot> = world
            .query::<(EntityRef, &UnitId)>()
            .iter(world)
            .map(|(e, id)| {
                let ap = e.get::<ActionPoints>().copied().unwrap_or_default();
                let inv = e.get::<Inventory>().cloned().unwrap_or_default();
                UnitSnapshot {
                    id: id.0,
                    side: e.get::<Side>().map_or(0, |s| s.0),
                    at: e.get::<GridPos>().map_or(Pos::default(), |p| p.0),
                    facing: e.get::<Facing>().map_or(Dir::N, |f| f.0),
                    hp: e.get::<Health>().map_or(0, |h| h.hp),
                    ar: e.get::<ArmorReduction>().map_or(0, |a| a.0),
                    stamina: e.get::<Stamina>().map_or(0, |s| s.0),
                    ap: ap.ap,
                    free_used: ap.free_used,
                    attacks: ap.attacks,
                    defended: ap.defended,
                    reactions: e.get::<Reactions>().map_or(0, |r| r.0),
                    weapons: inv.weapons,
                    items: inv.items,
                    prone: e.contains::<Prone>(),
                    defending: e.contains::<Defending>(),
                    shield_ready: e.contains::<ShieldReady>(),
                    charged: e.contains::<Charged>(),
                    dying: e.get::<Dying>().map(|d| d.timer),
                    stable: e.contains::<Stable>(),
                    dead: e.contains::<Dead>(),
                    off_guard: e.contains::<OffGuard>(),
                    exposed: e.contains::<Exposed>(),
                    stuck: e.get::<Stuck>().map(|s| s.0.clone()).unwrap_or_default(),
                    injuries: e
                        .get::<crate::rules::variants::injuries::Injuries>()
                        .map(|i| i.0.clone())
                        .unwrap_or_default(),
                    grappled: e.get::<Grappled>().map(|g| {
                        let by = ids
                            .iter()
                            .find(|(x, _)| *x == g.by)
                            .map_or(u32::MAX, |i| i.1);
                        (by, g.hold, g.kept)
                    }),
                    riding: e
                        .get::<crate::battle::Riding>()
                        .and_then(|r| ids.iter().find(|(x, _)| *x == r.mount).map(|i| i.1)),
                    free_move: e.contains::<crate::battle::FreeMove>(),
                    rode: e.contains::<crate::battle::Rode>(),
                    hidden: e.get::<crate::battle::Hidden>().map_or(0, |h| h.0),
                    surprised: e.contains::<crate::battle::Surprised>(),
                    stunned: e.get::<crate::battle::Stunned>().map(|s| s.lose_turn),
                    dazed: e.get::<crate::battle::Dazed>().map(|d| d.0),
                    mp: e.get::<crate::battle::Mp>().map_or(0, |m| m.0),
                    concentrating: e
                        .get::<crate::rules::variants::spells::concentration::Concentrating>()
                        .map(|c| c.0.clone()),
                    cast: e.contains::<crate::rules::variants::spells::cast::CastThisTurn>(),
                    gripped: e
                        .get::<crate::rules::variants::spells::grip::Gripped>()
                        .map(|g| (id_of(world, g.by), g.spell.clone())),
                    energy: e.get::<crate::battle::Budget>().map(|b| {
                        (
                            *b,
                            e.get::<crate::battle::Stride>().copied(),
                            e.get::<crate::battle::Guardless>()
                                .copied()
                                .unwrap_or_default(),
                        )
                    }),
                }
            })
            .collect();
        units.sort_by_key(|u| u.id);
        let mut ground: Vec<(String, Pos)> = world
            .query::<(&GroundObject, &GridPos)>()
            .iter(world)
            .map(|(o, p)| (o.name.clone(), p.0))
            .collect();
        ground.sort();
        let turn = world.resource::<TurnState>().clone();
        Self {
            level: world.resource::<Battlefield>().0.source.clone(),
            units,
            ground,
            round: turn.round,
            initiative: turn
                .initiative
                .iter()
                .map(|(e, t)| (id_of(world, *e), *t))
                .collect(),
            order: turn.order.iter().map(|e| id_of(world, *e)).collect(),
            index: turn.index,
            current: turn.current.map(|e| id_of(world, e)),
            outcome: turn.outcome.clone(),
            hold_streaks: world.resource::<HoldStreaks>().0.clone(),
            fields: world
                .get_resource::<crate::rules::variants::spells::fields::Fields>()
                .map(|f| f.0.clone())
                .unwrap_or_default(),
            last_hit: world
                .resource::<LastHit>()
                .0
                .map(|(a, t)| (id_of(world, a), id_of(world, t))),
            dice: world.resource::<Dice>().clone(),
            events: world.resource::<BattleEvents>().all().to_vec(),
            told: world.resource::<BattleEvents>().told().to_vec(),
            last_seen: world
                .get_resource::<crate::battle::LastSeen>()
                .map(|l| l.0.iter().map(|((s, u), p)| (*s, u.0, *p)).collect())
                .unwrap_or_default(),
            reaction_policies: world
                .get_resource::<ReactionPolicies>()
                .map(|p| p.0.clone())
                .unwrap_or_default(),
            decisions: world
                .get_resource::<Decisions>()
                .map(|d| DecisionsSnapshot {
                    held: d.held.clone(),
                    questions: d
                        .questions
                        .iter()
                        .map(|(e, t)| (id_of(world, *e), *t))
                        .collect(),
                    answers: d
                        .answers
                        .iter()
                        .map(|(e, t, take)| (id_of(world, *e), *t, *take))
                        .collect(),
                    guards: d
                        .guards
                        .iter()
                        .map(|(e, g)| (id_of(world, *e), *g))
                        .collect(),
                })
                .unwrap_or_default(),
            history: world
                .get_resource::<History>()
                .map(|h| h.0.clone())
                .unwrap_or_default(),
        }
    }

    /// A headless app continuing this saved battle.
    pub fn restore(&self, catalog: &Catalog) -> Result<App, Problems> {
        let level = validate_level(self.level.clone(), catalog, "save")?;
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, crate::setup::BattlePlugin));
        let world = app.world_mut();
        spawn_battle(world, &level, self.dice.clone());
        self.apply(world);
        Ok(app)
    }

    /// Everything of [`SaveGame::apply`] but the events and the history.
    fn apply_state(&self, world: &mut World) {
        world.insert_resource(self.dice.clone());
        let by_id: Vec<(u32, Entity)> = world
            .query::<(Entity, &UnitId)>()
            .iter(world)
            .map(|(e, id)| (id.0, e))
            .collect();
        let entity = |id: u32| by_id.iter().find(|(i, _)| *i == id).map(|(_, e)| *e);
        for u in &self.units {
            let Some(e) = entity(u.id) else { continue };
            let mut e = world.entity_mut(e);
            e.insert((
                GridPos(u.at),
                Facing(u.facing),
                ArmorReduction(u.ar),
                Stamina(u.stamina),
                ActionPoints {
                    ap: u.ap,
                    free_used: u.free_used,
                    attacks: u.attacks,
                    defended: u.defended,
                },
                Reactions(u.reactions),
                Inventory {
                    weapons: u.weapons.clone(),
                    items: u.items.clone(),
                },
            ));
            if let Some(mut h) = e.get_mut::<Health>() {
                h.hp = u.hp;
            }
            let id = e.id();
            set(&mut e, Prone, u.prone);
            set(&mut e, Defending, u.defending);
            set(&mut e, ShieldReady, u.shield_ready);
            set(&mut e, Charged, u.charged);
            set(&mut e, Stable, u.stable);
            set(&mut e, Dead, u.dead);
            set(&mut e, OffGuard, u.off_guard);
            set(&mut e, Exposed, u.exposed);
            e.insert(crate::battle::Mp(u.mp));
            match &u.concentrating {
                Some(spell) => e.insert(
                    crate::rules::variants::spells::concentration::Concentrating(spell.clone()),
                ),
                None => e.remove::<crate::rules::variants::spells::concentration::Concentrating>(),
            };
            set(
                &mut e,
                crate::rules::variants::spells::cast::CastThisTurn,
                u.cast,
            );
            if let Some((budget, stride, guardless)) = u.energy {
                e.insert((budget, guardless));
                if let Some(stride) = stride {
                    e.insert(stride);
                }
            }
            set(&mut e, Stuck(u.stuck.clone()), !u.stuck.is_empty());
            set(
                &mut e,
                crate::rules::variants::injuries::Injuries(u.injuries.clone()),
                !u.injuries.is_empty(),
            );
            if u.injuries.is_empty() {
                // What wounds set goes with them (V3: slowed legs, a slower
                // stand): inserting injuries sets it, and a battle put back
                // to before them (the AI's copy after each try) must not
                // keep it.
                e.remove::<(crate::battle::Slowed, crate::battle::StandUpExtra)>();
            }
            match u.dying {
                Some(timer) => e.insert(Dying { timer }),
                None => e.remove::<Dying>(),
            };
            match u.stunned {
                Some(lose_turn) => e.insert(crate::battle::Stunned { lose_turn }),
                None => e.remove::<crate::battle::Stunned>(),
            };
            match u.dazed {
                Some(begun) => e.insert(crate::battle::Dazed(begun)),
                None => e.remove::<crate::battle::Dazed>(),
            };
            match u
                .grappled
                .and_then(|(by, hold, kept)| Some((entity(by)?, hold, kept)))
            {
                Some((by, hold, kept)) => e.insert(Grappled { by, hold, kept }),
                None => e.remove::<Grappled>(),
            };
            use crate::rules::variants::spells::grip::Gripped as SpellGrip;
            match u
                .gripped
                .clone()
                .and_then(|(by, spell)| Some((entity(by)?, spell)))
            {
                Some((by, spell)) => e.insert(SpellGrip { by, spell }),
                None => e.remove::<SpellGrip>(),
            };
            set(&mut e, crate::battle::FreeMove, u.free_move);
            set(&mut e, crate::battle::Rode, u.rode);
            set(&mut e, crate::battle::Hidden(u.hidden), u.hidden != 0);
            set(&mut e, crate::battle::Surprised, u.surprised);
            e.remove::<(crate::battle::Riding, crate::battle::Ridden)>();
            crate::battle::refresh_reach(world, id);
        }
        // The pairs as saved (V12.1), once every unit stands where it did.
        for u in &self.units {
            let (Some(rider), Some(mount)) = (entity(u.id), u.riding.and_then(entity)) else {
                continue;
            };
            let (at, facing) = (u.at, u.facing);
            world
                .entity_mut(rider)
                .insert(crate::battle::Riding { mount, at, facing });
            world.entity_mut(mount).insert(crate::battle::Ridden(rider));
        }
        let objects: Vec<Entity> = world
            .query_filtered::<Entity, With<GroundObject>>()
            .iter(world)
            .collect();
        for o in objects {
            world.despawn(o);
        }
        for (name, at) in &self.ground {
            world.spawn((GroundObject { name: name.clone() }, GridPos(*at)));
        }
        let units = |ids: &[u32]| ids.iter().filter_map(|i| entity(*i)).collect::<Vec<_>>();
        *world.resource_mut::<TurnState>() = TurnState {
            round: self.round,
            initiative: self
                .initiative
                .iter()
                .filter_map(|(i, t)| entity(*i).map(|e| (e, *t)))
                .collect(),
            order: units(&self.order),
            index: self.index,
            current: self.current.and_then(entity),
            outcome: self.outcome.clone(),
            end_requested: false,
            round_over: None,
        };
        world.resource_mut::<HoldStreaks>().0 = self.hold_streaks.clone();
        world.insert_resource(crate::rules::variants::spells::fields::Fields(
            self.fields.clone(),
        ));
        world.resource_mut::<LastHit>().0 = self
            .last_hit
            .and_then(|(a, t)| Some((entity(a)?, entity(t)?)));
        world.insert_resource(crate::battle::LastSeen(
            self.last_seen
                .iter()
                .map(|(s, u, p)| ((*s, UnitId(*u)), *p))
                .collect(),
        ));
        world.insert_resource(ReactionPolicies(self.reaction_policies.clone()));
        let d = &self.decisions;
        world.insert_resource(Decisions {
            held: d.held.clone(),
            questions: d
                .questions
                .iter()
                .filter_map(|(i, t)| Some((entity(*i)?, *t)))
                .collect(),
            answers: d
                .answers
                .iter()
                .filter_map(|(i, t, take)| Some((entity(*i)?, *t, *take)))
                .collect(),
            guards: d
                .guards
                .iter()
                .filter_map(|(i, g)| Some((entity(*i)?, *g)))
                .collect(),
        });
    }

    /// Puts this save's state into `world`, a battle of the same level
    /// (the window's F9): every unit, object, turn, the dice, the events
    /// and the history.
    pub fn apply(&self, world: &mut World) {
        self.apply_state(world);
        world.insert_resource(BattleEvents::from_events(
            self.events.clone(),
            self.told.clone(),
        ));
        world.insert_resource(History(self.history.clone()));
    }

    /// As [`SaveGame::apply`], for a world this save was applied to that
    /// has only played on since (the AI's copy after a try): the events
    /// and the history, which only grow, are cut back to the save's length
    /// rather than copied whole. The same state either way; on a long
    /// battle the copies were a tenth of the AI's time.
    pub fn rewind(&self, world: &mut World) {
        let events = world.get_resource::<BattleEvents>().map(|e| e.all().len());
        let history = world.get_resource::<History>().map(|h| h.0.len());
        let (Some(events), Some(history)) = (events, history) else {
            return self.apply(world);
        };
        if events < self.events.len() || history < self.history.len() {
            return self.apply(world);
        }
        self.apply_state(world);
        let mut log = world.resource_mut::<BattleEvents>();
        log.truncate(self.events.len());
        debug_assert!(log.all() == self.events.as_slice(), "rewound past a change");
        let mut history = world.resource_mut::<History>();
        history.0.truncate(self.history.len());
        debug_assert!(history.0 == self.history, "rewound past a change");
    }
}

/// Gives `e` the component `c` when `on`, removes it otherwise.
fn set<C: Component>(e: &mut EntityWorldMut, c: C, on: bool) {
    if on {
        e.insert(c);
    } else {
        e.remove::<C>();
    }
}

/// Writes `value` as pretty RON.
pub fn to_ron<T: Serialize>(value: &T) -> Result<String, ron::Error> {
    ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
}
