//! V9 jumping and falling (004:182–197; `rules: (jumping: true)` and a
//! level's `heights`). Heights and step costs (V9.1) live with the paths
//! ([`crate::rules::motion::paths`]); here:
//!
//! - **V9.2** Jump (1 AP, provokes like a Move): to a free, passable tile
//!   at distance D (R0.3, 1 ≤ D ≤ Speed), rising H = max(0, landing −
//!   takeoff) metres, H at most the size chart's jump reach (Medium 3). The
//!   line may pass over chasms, lower ground and allies, not walls, ground
//!   higher than both ends, or enemies.
//! - **V9.3** the check: d20 + STR + DEX against DC 4H + 2D. Above the DC
//!   it lands, prone when below twice the DC (off-balance). At or below:
//!   up a rise it stays put; over a drop of 2 m or a chasm it falls there;
//!   else it comes down halfway along the line, prone.
//! - **V9.4** falls: a fall check (d20 + DEX + Athletics against the
//!   highest of the cause's DC and 10) takes max(DEX, 0) metres off; then
//!   (metres)d4 that no armor stops; a drop of 2 m or more leaves it prone
//!   unless the check succeeded.
//! - **V9.5** the chasm (`_`): falling in kills.
//!
//! Dice order: the jump's d20, then the fall check's d20, then the d4s.

use crate::battle::name_of;
use crate::battle::{Battlefield, Dead, Dying, Facing, GridPos, Prone, Stable, Stats};
use crate::dice::Dice;
use crate::format::{Size, Skill};
use crate::grid::{Dir, Pos};
use crate::rules::attacks::damage::take_damage_on;
use crate::rules::command::{Command, CommandKind, Refusal};
use crate::rules::events::{
    BattleEvent, DamageHow, FallCheck, FallRoll, JumpOutcome, JumpRoll, Trigger, emit, id_of,
};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems};
use crate::rules::motion::movement::{speed_of, view_for};
use crate::rules::motion::paths::Occupant;
use crate::rules::pipeline::{Pending, handle};
use crate::rules::reactions::reactive_attack::provoke;
use crate::rules::rule::Rule;
use crate::rules::sight::line_of_effect::{Cell, supercover};
use bevy::prelude::*;

/// True when the level plays with heights and jumps (V9).
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().jumping)
}

pub use crate::rules::positioning::heights::{height_gap, heights_in_play};

/// V9.6 in the attack schedule: a melee attack from the draft's tile
/// needs |Δh| ≤ its reach (Lunge's +1 counting), in metres; so the
/// preview, the AI's plans from other tiles and the resolution all refuse
/// it alike.
fn refuse_reach_across_heights(world: &mut World) {
    let Some(level) = heights_in_play(world) else {
        return;
    };
    let draft = world.resource::<AttackDraft>();
    if draft.mode != AttackMode::Melee || draft.aims_at_tile() {
        return;
    }
    let (a, b) = (draft.attacker_body(), draft.target_body());
    let reach = crate::battle::reach_with(world, draft.attacker, draft.weapon.reach)
        + i32::from(draft.lunge);
    let gap = height_gap(&level.map, a, b);
    if gap <= reach {
        return;
    }
    let way = if level.map.elevation(b.at) > level.map.elevation(a.at) {
        "above"
    } else {
        "below"
    };
    let why = format!(
        "{} stands {gap} m {way} {}: a melee reach of {reach} spans {reach} m",
        name_of(world, draft.target),
        name_of(world, draft.attacker)
    );
    world
        .resource_mut::<AttackDraft>()
        .refuse(Refusal::new(Rule::V9_6, why));
}

pub(super) fn plugin(app: &mut App) {
    handle(app, CommandKind::Jump, validate_jump, execute_jump);
    app.add_systems(
        AttackSchedule,
        refuse_reach_across_heights.in_set(AttackSystems::Situational),
    );
}

/// The least DC of a fall check (V9.4).
const FALL_DC: i32 = 10;

/// How high a body of `size` jumps, in metres (002:439–448, V9.2).
pub fn jump_reach(size: Size) -> i32 {
    match size {
        Size::Tiny => 1,
        Size::Small => 2,
        Size::Medium => 3,
        Size::Large => 4,
        Size::Huge | Size::Gargantuan => 5,
    }
}

/// A jump the rules accept: where from and to, and its DC's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JumpPlan {
    /// The takeoff.
    pub from: Pos,
    /// The landing tile.
    pub to: Pos,
    /// Horizontal distance D (R0.3).
    pub distance: i32,
    /// Rise H in metres.
    pub rise: i32,
    /// STR + DEX.
    pub bonus: i32,
}

impl JumpPlan {
    /// The check's DC: 4H + 2D (V9.3).
    pub fn dc(&self) -> i32 {
        4 * self.rise + 2 * self.distance
    }
}

/// Why `unit` may not jump to `to` now, or the jump it would make (V9.2).
pub fn check_jump(world: &mut World, unit: Entity, to: Pos) -> Result<JumpPlan, Refusal> {
    let no = |why: String| Err(Refusal::new(Rule::V9_2, why));
    if !on(world) {
        return Err(Refusal::new(
            Rule::V9,
            "this level has no jumping (rules: (jumping: true))",
        ));
    }
    if world.entity(unit).contains::<Prone>() {
        return Err(Refusal::new(
            Rule::R4_8,
            "a prone unit stands up before it jumps",
        ));
    }
    if crate::battle::partner(world, unit).is_some() {
        return no("a mounted pair does not jump (decision)".into());
    }
    if crate::battle::side_of_body(world, unit) > 1 {
        return no("a body larger than one tile does not jump (decision)".into());
    }
    let (level, occ, from) = view_for(world, unit);
    let map = &level.map;
    let distance = from.distance(to);
    let speed = speed_of(world, unit) as i32;
    if distance < 1 || distance > speed {
        return no(format!(
            "{to} is {distance} tiles away; a jump goes 1 to its Speed, {speed}"
        ));
    }
    if !map.is_passable(to) || occ.at(to) != Occupant::Empty {
        return no(format!("{to} is not a free tile to land on"));
    }
    let (up, down) = (map.elevation(to), map.elevation(from));
    let rise = (up - down).max(0);
    let (size, bonus) = world.get::<Stats>(unit).map_or((Size::Medium, 0), |s| {
        (s.template.size, s.template.str + s.template.dex)
    });
    if rise > jump_reach(size) {
        return no(format!(
            "{to} is {rise} m up; a {size:?} body jumps at most {} m",
            jump_reach(size)
        ));
    }
    let top = up.max(down);
    for cell in supercover(from, to) {
        let tiles = match cell {
            Cell::Tile(p) => vec![p],
            Cell::Corner(a, b) => vec![a, b],
        };
        let walled = tiles
            .iter()
            .all(|p| map.flags(*p) & crate::terrain::TerrainMap::BLOCKS_LINE != 0);
        if walled {
            return no(format!("a wall stands between {from} and {to}"));
        }
        if let Cell::Tile(p) = cell {
            if map.elevation(p) > top {
                return no(format!("{p} stands higher than both ends of the jump"));
            }
            if occ.at(p) == Occupant::Enemy {
                return no(format!("an enemy stands at {p}, in the way"));
            }
        }
    }
    Ok(JumpPlan {
        from,
        to,
        distance,
        rise,
        bonus,
    })
}

fn jump_args(world: &World) -> Option<(Entity, Pos)> {
    let pending = world.resource::<Pending>();
    match (&pending.command, pending.actor) {
        (Some(Command::Jump { to, .. }), Some(a)) => Some((a, *to)),
        _ => None,
    }
}

fn validate_jump(world: &mut World) {
    let Some((actor, to)) = jump_args(world) else {
        return;
    };
    if let Err(r) = check_jump(world, actor, to) {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_jump(world: &mut World) {
    let Some((actor, to)) = jump_args(world) else {
        return;
    };
    let Ok(plan) = check_jump(world, actor, to) else {
        return;
    };
    // R8.2 (decision: as a Move): leaving a threatened tile provokes, and a
    // blow that fells or trips it ends the jump before it starts (R8.4).
    if !provoke(world, actor, Trigger::Leave(plan.from)) {
        return;
    }
    // A unit its side did not see stands where it would land (V8.6): it
    // runs into it before it leaps, the AP spent.
    if crate::rules::motion::movement::bumps(world, actor, crate::grid::Body::tile(plan.to)) {
        return;
    }
    let roll = world.resource_mut::<Dice>().roll(20);
    let score = roll as i32 + plan.bonus;
    let dc = plan.dc();
    // The level is shared (an Arc): the map is read, not copied.
    let level = world.resource::<Battlefield>().0.clone();
    let map = &level.map;
    let from_h = map.elevation(plan.from);
    let (outcome, end) = match outcome_of(score, &plan) {
        landed @ (JumpOutcome::Landed | JumpOutcome::OffBalance) => (landed, plan.to),
        _ => failure(world, actor, &plan),
    };
    if let Some(mut p) = world.get_mut::<GridPos>(actor) {
        p.0 = end;
    }
    if let (Some(dir), Some(mut f)) = (
        Dir::towards(plan.from, plan.to),
        world.get_mut::<Facing>(actor),
    ) {
        f.0 = dir;
    }
    let event = JumpRoll {
        unit: id_of(world, actor),
        from: plan.from,
        aimed: plan.to,
        to: end,
        distance: plan.distance,
        rise: plan.rise,
        roll,
        bonus: plan.bonus,
        score,
        dc,
        outcome,
    };
    emit(world, BattleEvent::Jumped(event));
    if matches!(outcome, JumpOutcome::OffBalance | JumpOutcome::Short) {
        world.entity_mut(actor).insert(Prone);
    }
    // Down onto ground 2 m lower, or into the drop it failed over: a fall
    // with the jump's DC (V9.3, V9.4).
    let drop = from_h - map.elevation(end);
    let plunged = outcome == JumpOutcome::Plunged;
    if plunged || (end == plan.to && drop >= 2) {
        fall(world, actor, end, drop, dc.max(FALL_DC), actor);
    }
}

/// How a jump scoring `score` ends by its check alone (V9.3): landed,
/// off-balance, or failed (reported as `Stayed`; [`failure`] says where a
/// failure ends).
fn outcome_of(score: i32, plan: &JumpPlan) -> JumpOutcome {
    let dc = plan.dc();
    if score <= dc {
        JumpOutcome::Stayed
    } else if score < 2 * dc {
        JumpOutcome::OffBalance
    } else {
        JumpOutcome::Landed
    }
}

/// Where a failed jump ends (V9.3): up a rise it stays; over a drop of 2 m
/// or a chasm it plunges into the first free one on its line; else it
/// comes down short, halfway (at least a tile) or on the nearest free tile
/// back toward the takeoff.
fn failure(world: &mut World, actor: Entity, plan: &JumpPlan) -> (JumpOutcome, Pos) {
    if plan.rise > 0 {
        return (JumpOutcome::Stayed, plan.from);
    }
    // The level is shared (an Arc): the map is read, not copied.
    let level = world.resource::<Battlefield>().0.clone();
    let map = &level.map;
    let from_h = map.elevation(plan.from);
    // Where it comes down is the referee's: every unit takes its tile,
    // hidden or not (V8.2), so no two bodies ever share one.
    let free = |p: Pos| {
        p == plan.from
            || crate::battle::units_in(world, crate::grid::Body::new(p, 1))
                .iter()
                .all(|&e| e == actor)
    };
    let line: Vec<Pos> = supercover(plan.from, plan.to)
        .into_iter()
        .filter_map(|c| match c {
            Cell::Tile(p) => Some(p),
            Cell::Corner(..) => None,
        })
        .collect();
    let drop = line
        .iter()
        .copied()
        .find(|p| free(*p) && (is_chasm(map, *p) || from_h - map.elevation(*p) >= 2));
    if let Some(p) = drop {
        return (JumpOutcome::Plunged, p);
    }
    let half = (plan.distance / 2).max(1);
    let short = line
        .iter()
        .copied()
        .rfind(|p| plan.from.distance(*p) <= half && free(*p) && map.is_passable(*p))
        .unwrap_or(plan.from);
    (JumpOutcome::Short, short)
}

/// The exact chances of a jump before it is made (V9.3), the d20's twenty
/// faces counted: what the preview shows is what the dice do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JumpOdds {
    /// The jump.
    pub plan: JumpPlan,
    /// Lands standing.
    pub landed: f64,
    /// Lands prone.
    pub off_balance: f64,
    /// Fails: [`JumpOdds::failed_as`] says how, at [`JumpOdds::failed_at`].
    pub failed: f64,
    /// How a failure ends: stays, short or plunged.
    pub failed_as: JumpOutcome,
    /// Where a failure ends.
    pub failed_at: Pos,
    /// The fall a landing makes, onto ground 2 m or more below (V9.3).
    pub landing_fall: Option<FallOdds>,
    /// The fall a failure makes, when it plunges (V9.3).
    pub failing_fall: Option<FallOdds>,
}

/// A fall foreseen (V9.4): its metres, the fall check's DC and chance, and
/// what a success saves; or a chasm (V9.5), which no check helps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FallOdds {
    /// Metres fallen.
    pub metres: i32,
    /// Into a chasm: dead (V9.5).
    pub chasm: bool,
    /// The fall check's DC.
    pub dc: i32,
    /// The chance the fall check succeeds (d20 + DEX + Athletics ≥ DC).
    pub check: f64,
    /// Metres a success takes off: max(DEX, 0).
    pub saved: i32,
}

impl FallOdds {
    /// The expected damage: 2.5 per d4 rolled.
    pub fn expected_damage(&self) -> f64 {
        let on_success = (self.metres - self.saved).max(0) as f64;
        2.5 * (self.check * on_success + (1.0 - self.check) * self.metres as f64)
    }
}

/// `unit`'s fall check terms (V9.4): DEX + Athletics, and the metres a
/// success saves, max(DEX, 0).
fn fall_terms(world: &World, unit: Entity) -> (i32, i32) {
    world.get::<Stats>(unit).map_or((0, 0), |s| {
        let t = &s.template;
        let athletics = t.skills.get(&Skill::Athletics).copied().unwrap_or(0);
        (t.dex + athletics, t.dex.max(0))
    })
}

/// The fall `unit` would take of `metres` onto `at` (V9.4, V9.5), its
/// check's odds counted over the d20's faces.
pub fn fall_odds(world: &World, unit: Entity, at: Pos, metres: i32, cause_dc: i32) -> FallOdds {
    let chasm = is_chasm(&world.resource::<Battlefield>().0.map, at);
    let (bonus, saved) = fall_terms(world, unit);
    let dc = cause_dc.max(FALL_DC);
    let check = (1..=20).filter(|f| f + bonus >= dc).count() as f64 / 20.0;
    FallOdds {
        metres: metres.max(0),
        chasm,
        dc,
        check,
        saved,
    }
}

/// The odds of `unit` jumping to `to` now, or why it may not (V9.2, V9.3).
pub fn jump_odds(world: &mut World, unit: Entity, to: Pos) -> Result<JumpOdds, Refusal> {
    let plan = check_jump(world, unit, to)?;
    let (failed_as, failed_at) = failure(world, unit, &plan);
    let map = &world.resource::<Battlefield>().0.map;
    let from_h = map.elevation(plan.from);
    let (land_drop, fail_drop) = (
        from_h - map.elevation(plan.to),
        from_h - map.elevation(failed_at),
    );
    let dc = plan.dc().max(FALL_DC);
    let landing_fall = (land_drop >= 2).then(|| fall_odds(world, unit, plan.to, land_drop, dc));
    let failing_fall = (failed_as == JumpOutcome::Plunged)
        .then(|| fall_odds(world, unit, failed_at, fail_drop, dc));
    let mut odds = JumpOdds {
        plan,
        landed: 0.0,
        off_balance: 0.0,
        failed: 0.0,
        failed_as,
        failed_at,
        landing_fall,
        failing_fall,
    };
    for face in 1..=20 {
        let share = 1.0 / 20.0;
        match outcome_of(face + plan.bonus, &plan) {
            JumpOutcome::Landed => odds.landed += share,
            JumpOutcome::OffBalance => odds.off_balance += share,
            _ => odds.failed += share,
        }
    }
    Ok(odds)
}

/// Whether `p` is a chasm (V9.5): the default legend's `_`.
pub fn is_chasm(map: &crate::terrain::TerrainMap, p: Pos) -> bool {
    map.get(p).is_some_and(|t| t.name == "chasm")
}

/// `unit` falls `metres` onto `at` (V9.4), or into a chasm there (V9.5):
/// the fall check against max(`cause_dc`, 10), then the d4s that no armor
/// stops, prone after 2 m or more unless the check succeeded. `source` is
/// whoever caused it, for the damage's tally.
pub fn fall(world: &mut World, unit: Entity, at: Pos, metres: i32, cause_dc: i32, source: Entity) {
    // The level is shared (an Arc): the map is read, not copied.
    let level = world.resource::<Battlefield>().0.clone();
    let map = &level.map;
    let id = id_of(world, unit);
    if is_chasm(map, at) {
        world
            .entity_mut(unit)
            .remove::<(Dying, Stable)>()
            .insert(Dead);
        let event = FallRoll {
            unit: id,
            at,
            metres: metres.max(0),
            check: None,
            dice: vec![],
            chasm: true,
            prone: false,
        };
        emit(world, BattleEvent::Fell(event));
        return;
    }
    if metres <= 0 {
        return;
    }
    let (bonus, saved) = fall_terms(world, unit);
    let roll = world.resource_mut::<Dice>().roll(20);
    let check = FallCheck {
        roll,
        bonus,
        total: roll as i32 + bonus,
        dc: cause_dc.max(FALL_DC),
        saved,
    };
    let fallen = if check.success() {
        (metres - check.saved).max(0)
    } else {
        metres
    };
    let dice = world.resource_mut::<Dice>().roll_many(fallen as u32, 4);
    let prone = metres >= 2 && !check.success();
    let damage: i32 = dice.iter().map(|d| *d as i32).sum();
    let event = FallRoll {
        unit: id,
        at,
        metres,
        check: Some(check),
        dice,
        chasm: false,
        prone,
    };
    emit(world, BattleEvent::Fell(event));
    if prone {
        world.entity_mut(unit).insert(Prone);
    }
    if damage > 0 {
        // Absolute damage: no AR meets it (V9.4 decision).
        take_damage_on(world, unit, damage, DamageHow::Fall, source, Some(0));
    }
}
