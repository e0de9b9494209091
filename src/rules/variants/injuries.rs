//! V3 injuries (001; a level's `rules: (injuries: true)`): every hit also
//! inflicts injuries on the body part it lands on, as far as 001's effects
//! bear on a skirmish.
//!
//! - **Where**: the zone of V4 (rolled, or picked by a V2 parry), else the
//!   part the attacker aims at (`Attack(..., part: Legs)`, the torso by
//!   default).
//! - **How bad**: 1 degree a minor injury, each further degree one step
//!   worse (major, severe, deadly, fatal) up to the worst the part can take
//!   in 001 (arms and legs severe, the head deadly, the torso, where the
//!   heart is, fatal); each degree left over adds another injury of that
//!   severity to the part (001: "add another injury to the targeted body
//!   part").
//! - **What it does** (DECISIONS.md): arms (001's hand and arm) +1
//!   disadvantage on attacks at major, +2 at severe; the second major or
//!   worse drops the weapon in hand. The head (001's eye, then the head):
//!   +1 disadvantage on attacks from major; a third deadly injury knocks
//!   the unit out (it falls dying, R10.1), a fourth kills. Legs (001's foot
//!   and leg): each major or worse after the first takes 1 (major) or 2
//!   (severe) tiles off its speed; two severe ones and it falls prone and
//!   cannot stand. Fatal (the heart): death.
//! - **Down**: an injury inflicted on a unit already dying or stable calls
//!   001's Constitution save: d20 + CON against the sum of its injuries'
//!   values (minor 1 … fatal 5); below, it dies; a natural 20 stabilises it.
//!
//! HP damage stands beside the injuries *(decision)*: 001's Stamina, what
//! keeps a creature conscious, is Skirmish's HP, so the dying rules (R10),
//! the AI and victory keep working.
//!
//! Where it steps in: the attacker's disadvantage and the degrees that fell
//! a target are gathered with every attack ([`AttackSchedule`]); a hit's
//! injuries are inflicted in [`HitSchedule::Wound`]; a lamed unit's
//! StandUp is refused in Validate; leg injuries slow the unit through
//! [`Slowed`], which R5 reads.

use crate::battle::{
    ActionPoints, Battlefield, Dazed, Dead, Dying, Health, OffGuard, Prone, Slowed, Stable,
    StandUpExtra, Stats, Stunned,
};
use crate::dice::Dice;
use crate::format::{BodyPart, Severity};
use crate::rules::attacks::hit::{Hit, HitSchedule};
use crate::rules::attacks::resolution::drop_weapon;
use crate::rules::command::{CommandKind, Refusal};
use crate::rules::dying::fall_dying;
use crate::rules::events::{BattleEvent, InjurySave, ShockCheck, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackSchedule, AttackSystems, Effect};
use crate::rules::pipeline::{CommandSchedule, CommandSystems, Handles, Pending};
use crate::rules::rule::Rule;
use crate::rules::turns::turn::TurnState;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

/// A unit's injuries, in the order they were taken (V3). Inserting them
/// sets the unit's [`Slowed`].
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
#[component(on_insert = slow_by_the_legs)]
pub struct Injuries(pub Vec<(BodyPart, Severity)>);

/// Keeps [`Slowed`] with the injuries, however they come (a hit, a save
/// restored).
fn slow_by_the_legs(mut world: DeferredWorld, context: HookContext) {
    let (slowed, extra) = world
        .get::<Injuries>(context.entity)
        .map_or((0, 0), |i| (i.slowed(), i.stand_up_extra()));
    world
        .commands()
        .entity(context.entity)
        .insert((Slowed(slowed), StandUpExtra(extra)));
}

impl Injuries {
    /// How many injuries of at least `severity` `part` has.
    pub fn count(&self, part: BodyPart, severity: Severity) -> usize {
        self.0
            .iter()
            .filter(|(p, s)| *p == part && *s >= severity)
            .count()
    }

    /// The worst injury on `part`.
    pub fn worst(&self, part: BodyPart) -> Option<Severity> {
        self.0.iter().filter(|(p, _)| *p == part).map(|i| i.1).max()
    }

    /// The disadvantage its injuries give its attack rolls: arms +1 at
    /// major, +2 at severe; the head +1 from major.
    pub fn attack_disadvantage(&self) -> i32 {
        let arms = match self.worst(BodyPart::Arms) {
            Some(Severity::Major) => 1,
            Some(s) if s >= Severity::Severe => 2,
            _ => 0,
        };
        let head = i32::from(self.worst(BodyPart::Head) >= Some(Severity::Major));
        arms + head
    }

    /// Tiles off its speed: each major (1) or severe (2) leg injury after
    /// the first.
    pub fn slowed(&self) -> u32 {
        self.0
            .iter()
            .filter(|(p, s)| *p == BodyPart::Legs && *s >= Severity::Major)
            .skip(1)
            .map(|(_, s)| if *s >= Severity::Severe { 2 } else { 1 })
            .sum()
    }

    /// The AP standing up costs on top of R4.8's 1 (001): an injured foot
    /// (a major leg injury) +1, an injured leg (severe) +2, never more than
    /// a whole turn's 3 in all *(decision)*.
    pub fn stand_up_extra(&self) -> i32 {
        let foot = self.0.contains(&(BodyPart::Legs, Severity::Major));
        let leg = self.count(BodyPart::Legs, Severity::Severe) > 0;
        (i32::from(foot) + 2 * i32::from(leg)).min(2)
    }

    /// The sum of its injuries' values: the DC of 001's Constitution save.
    pub fn value(&self) -> i32 {
        self.0.iter().map(|(_, s)| s.value()).sum()
    }

    /// Both legs badly hurt: prone, and it cannot stand.
    pub fn lamed(&self) -> bool {
        self.count(BodyPart::Legs, Severity::Severe) >= 2
    }
}

/// Whether the level plays with injuries.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().injuries)
}

/// Whether an attacker picks the part its attacks injure: injuries on and
/// hit zones (V4) off, where the d10 would pick it.
pub fn parts_aimed(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().injuries && !f.0.rules().hit_zones)
}

/// The worst injury `part` can take (001: arm and leg severe, head deadly,
/// heart fatal).
pub fn worst_on(part: BodyPart) -> Severity {
    match part {
        BodyPart::Arms | BodyPart::Legs => Severity::Severe,
        BodyPart::Head => Severity::Deadly,
        BodyPart::Torso => Severity::Fatal,
    }
}

/// The injuries a hit of `degrees` degrees inflicts on `part`.
pub fn of_hit(part: BodyPart, degrees: i32) -> Vec<Severity> {
    if degrees <= 0 {
        return vec![];
    }
    let cap = worst_on(part);
    let first = Severity::of_degrees(degrees).min(cap);
    let extra = (degrees - (cap as i32 + 1)).max(0) as usize;
    std::iter::once(first)
        .chain(std::iter::repeat_n(cap, extra))
        .collect()
}

/// Whether a hit of `degrees` on `part` surely puts a unit with `injuries`
/// out of the fight: its heart destroyed (a second fatal injury), or its
/// head knocked out (a third deadly one) or destroyed.
pub fn fells(injuries: &Injuries, part: BodyPart, degrees: i32) -> bool {
    let new = of_hit(part, degrees);
    let had = |s| injuries.count(part, s);
    let more = |s| new.iter().filter(|n| **n == s).count();
    match part {
        BodyPart::Torso => had(Severity::Fatal) + more(Severity::Fatal) >= 2,
        BodyPart::Head => had(Severity::Deadly) + more(Severity::Deadly) >= 3,
        _ => false,
    }
}

/// The chance that a hit of `degrees` on `part` puts a unit with `injuries`
/// and `con` out of the fight: surely ([`fells`]), or, when hits injure
/// only, by failing the Constitution save its injuries then ask (the
/// knock-out save, decision).
pub fn fell_chance(
    injuries: &Injuries,
    part: BodyPart,
    degrees: i32,
    con: i32,
    injure_only: bool,
) -> f64 {
    if degrees <= 0 {
        return 0.0;
    }
    if fells(injuries, part, degrees) {
        return 1.0;
    }
    if !injure_only {
        return 0.0;
    }
    let dc = injuries.value() + of_hit(part, degrees).iter().map(|s| s.value()).sum::<i32>();
    save_fails(con, dc)
}

/// The chance that d20 + `con` falls below `dc`, a natural 20 passing.
pub fn save_fails(con: i32, dc: i32) -> f64 {
    f64::from((1..20).filter(|r| r + con < dc).count() as u32) / 20.0
}

/// 001's Constitution check against stun: DC 25.
pub const STUN_DC: i32 = 25;

/// Run condition: the level plays with injuries.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().injuries)
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (
            add_injury_disadvantage.in_set(AttackSystems::Situational),
            add_what_fells.in_set(AttackSystems::Body),
        )
            .run_if(switched_on),
    )
    .add_systems(HitSchedule::Wound, wound.run_if(switched_on))
    .add_systems(
        CommandSchedule,
        refuse_lamed_stand_up
            .in_set(Handles(CommandKind::StandUp))
            .in_set(CommandSystems::Validate),
    );
}

/// The hit's injuries, on the part it landed on; a unit hit while down
/// makes 001's Constitution save.
fn wound(world: &mut World) {
    let hit = world.resource::<Hit>().clone();
    // V10.2: the size shifts the injury's degrees; at 0 or below, none.
    let shift = hit.draft.degree_shift();
    let degrees = if hit.degrees > 0 {
        hit.degrees + shift
    } else {
        hit.degrees
    };
    inflict(world, hit.draft.target, hit.part(), degrees, hit.down);
}

/// For each part and each number of degrees, the chance that a hit's
/// injuries fell the target (for the preview's chance to drop it).
fn add_what_fells(world: &mut World) {
    let target = world.resource::<AttackDraft>().target;
    if world.get_entity(target).is_err() {
        return;
    }
    let had = world.get::<Injuries>(target).cloned().unwrap_or_default();
    let con = world.get::<Stats>(target).map_or(0, |s| s.template.con);
    let only = injure_only(world);
    let fell = BodyPart::all()
        .into_iter()
        .map(|part| {
            (0..=MAX_DEGREES)
                .map(|d| fell_chance(&had, part, d, con, only))
                .collect()
        })
        .collect();
    let wound_value = BodyPart::all()
        .into_iter()
        .map(|part| {
            (0..=MAX_DEGREES)
                .map(|d| of_hit(part, d).iter().map(|s| s.value()).sum())
                .collect()
        })
        .collect();
    let mut draft = world.resource_mut::<AttackDraft>();
    draft.fell = fell;
    draft.wound_value = wound_value;
}

/// The most degrees the preview's table of falls counts; more fell as the
/// most do (every part's worst is reached by 5, and the save's DC by then
/// is past any d20).
pub const MAX_DEGREES: i32 = 12;

/// Whether hits injure only (V3 as 001 has it, `hp_damage: false`), for
/// this variant, the AI and the view; `attacks/`, which the variants build
/// on and may not import, reads the level's rules itself.
pub fn injure_only(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().injure_only())
}

/// V3: with both legs badly hurt a prone unit cannot stand (001). R4.8
/// refuses a unit that is not prone; this one a prone unit that is lamed.
fn refuse_lamed_stand_up(
    mut pending: ResMut<Pending>,
    units: Query<(&Name, &Injuries), With<Prone>>,
) {
    let Some(actor) = pending.actor else {
        return;
    };
    if let Ok((name, injuries)) = units.get(actor)
        && injuries.lamed()
    {
        pending.refuse(Refusal::new(
            Rule::V3,
            format!("{name}'s legs are too badly injured to stand"),
        ));
    }
}

/// V3: the attacker's arm and head injuries hamper its attack rolls, and
/// so does being dazed.
fn add_injury_disadvantage(
    mut draft: ResMut<AttackDraft>,
    injuries: Query<&Injuries>,
    dazed: Query<(), With<Dazed>>,
) {
    let n = injuries
        .get(draft.attacker)
        .map_or(0, Injuries::attack_disadvantage);
    if n > 0 {
        draft.push(Effect::Advantage(-n), "injuries", Rule::V3);
    }
    if dazed.contains(draft.attacker) {
        draft.push(Effect::Advantage(-1), "dazed", Rule::V3);
    }
}

/// Inflicts the injuries of a hit of `degrees` on `part` of `unit` (V3),
/// with their effects; `was_down`: the unit was dying or stable before the
/// hit (the Constitution save).
pub fn inflict(world: &mut World, unit: Entity, part: BodyPart, degrees: i32, was_down: bool) {
    if !on(world) || world.entity(unit).contains::<Dead>() {
        return;
    }
    for severity in of_hit(part, degrees) {
        let mut injuries = world.get::<Injuries>(unit).cloned().unwrap_or_default();
        injuries.0.push((part, severity));
        world.entity_mut(unit).insert(injuries.clone());
        let id = id_of(world, unit);
        let nth = injuries.0.iter().filter(|i| i.0 == part).count() as u32;
        emit(
            world,
            BattleEvent::Injured {
                unit: id,
                part,
                severity,
                nth,
            },
        );
        take_effect(world, unit, &injuries, part, severity);
        if world.entity(unit).contains::<Dead>() {
            return;
        }
    }
    let down_now =
        world.entity(unit).contains::<Dying>() || world.entity(unit).contains::<Stable>();
    if was_down {
        constitution_save(world, unit, true);
    } else if !down_now && injure_only(world) && !of_hit(part, degrees).is_empty() {
        // Without HP, the injuries themselves may knock it out (decision).
        constitution_save(world, unit, false);
    }
}

/// What the newest injury (`part`, `severity`) does.
fn take_effect(
    world: &mut World,
    unit: Entity,
    injuries: &Injuries,
    part: BodyPart,
    severity: Severity,
) {
    let down = world.entity(unit).contains::<Dying>() || world.entity(unit).contains::<Stable>();
    match part {
        // The heart: the first injury stuns unless the unit makes 001's
        // Constitution check; the second destroys it.
        _ if severity == Severity::Fatal && injuries.count(part, Severity::Fatal) >= 2 => {
            die(world, unit)
        }
        _ if severity == Severity::Fatal => shock_check(world, unit, part, down),
        BodyPart::Head if injuries.count(BodyPart::Head, Severity::Deadly) >= 4 => die(world, unit),
        // The second deadly head injury: stunned, or dazed on a made check.
        BodyPart::Head
            if severity == Severity::Deadly
                && injuries.count(BodyPart::Head, Severity::Deadly) == 2 =>
        {
            shock_check(world, unit, part, down)
        }
        BodyPart::Head
            if severity == Severity::Deadly
                && injuries.count(BodyPart::Head, Severity::Deadly) == 3
                && !down =>
        {
            if let Some(mut h) = world.get_mut::<Health>(unit) {
                h.hp = 0;
            }
            let id = id_of(world, unit);
            emit(
                world,
                BattleEvent::KnockedOut {
                    unit: id,
                    shock: false,
                },
            );
            fall_dying(world, unit);
        }
        BodyPart::Arms
            if severity >= Severity::Major
                && injuries.count(BodyPart::Arms, Severity::Major) == 2 =>
        {
            drop_weapon(world, unit, None, true);
        }
        BodyPart::Legs if injuries.lamed() && !world.entity(unit).contains::<Prone>() => {
            world.entity_mut(unit).insert(Prone);
            let id = id_of(world, unit);
            emit(world, BattleEvent::Lamed { unit: id });
        }
        _ => {}
    }
}

/// 001's Constitution check against a head or heart injury's shock (DC
/// 25): failed, the unit is stunned for a round; made, a head injury still
/// dazes it (a heart's leaves it sickened, which does nothing in a
/// skirmish). A unit already down rolls none.
fn shock_check(world: &mut World, unit: Entity, part: BodyPart, down: bool) {
    if down {
        return;
    }
    let con = world.get::<Stats>(unit).map_or(0, |s| s.template.con);
    let roll = world.resource_mut::<Dice>().roll(20);
    let stunned = (roll as i32 + con) < STUN_DC;
    let own_turn = world.resource::<TurnState>().current == Some(unit);
    let id = id_of(world, unit);
    emit(
        world,
        BattleEvent::ShockCheck(ShockCheck {
            unit: id,
            part,
            roll,
            bonus: con,
            dc: STUN_DC,
            stunned,
            on_its_turn: stunned && own_turn,
        }),
    );
    if stunned {
        world.entity_mut(unit).insert((
            Stunned {
                lose_turn: !own_turn,
            },
            OffGuard,
        ));
        if own_turn && let Some(mut ap) = world.get_mut::<ActionPoints>(unit) {
            ap.ap = 0;
        }
    } else if part == BodyPart::Head {
        world.entity_mut(unit).insert(Dazed(own_turn));
    }
}

/// 001: injured while down, d20 + CON against the sum of the injuries'
/// values: below, death; a natural 20, stable. `down: false`: a unit
/// still up whose hits injure only (decision): below, knocked out.
fn constitution_save(world: &mut World, unit: Entity, down: bool) {
    let dc: i32 = world
        .get::<Injuries>(unit)
        .map_or(0, |i| i.0.iter().map(|(_, s)| s.value()).sum());
    let con = world.get::<Stats>(unit).map_or(0, |s| s.template.con);
    let roll = world.resource_mut::<Dice>().roll(20);
    let total = roll as i32 + con;
    let passed = roll == 20 || total >= dc;
    let stabilized = roll == 20 && world.entity(unit).contains::<Dying>();
    let id = id_of(world, unit);
    emit(
        world,
        BattleEvent::InjurySave(InjurySave {
            unit: id,
            roll,
            bonus: con,
            dc,
            passed,
            stabilized,
            awake: !down,
        }),
    );
    if !down {
        if !passed {
            if let Some(mut h) = world.get_mut::<Health>(unit) {
                h.hp = 0;
            }
            emit(
                world,
                BattleEvent::KnockedOut {
                    unit: id,
                    shock: true,
                },
            );
            fall_dying(world, unit);
        }
        return;
    }
    if stabilized {
        world.entity_mut(unit).remove::<Dying>().insert(Stable);
    } else if !passed {
        die(world, unit);
    }
}

fn die(world: &mut World, unit: Entity) {
    world
        .entity_mut(unit)
        .remove::<(Dying, Stable)>()
        .insert(Dead);
    let unit = id_of(world, unit);
    emit(world, BattleEvent::Died { unit });
}
