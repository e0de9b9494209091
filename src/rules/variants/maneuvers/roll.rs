//! V7.1–V7.3, what every maneuver shares: the one roll against DV with
//! degrees (its skill, the size modifier on maneuvers, the target that is
//! not exposed), what provokes, and opening a unit.

use super::grappled::Grappled;
use crate::battle::{ActionPoints, Battlefield, Charged, Exposed, GridPos, OffGuard, Prone, Stats};
use crate::format::{Size, Skill, UnitTemplate};
use crate::rules::attacks::hit::AttackResult;
use crate::rules::attacks::resolution::{drop_weapon, roll, unarmed, weapon_of};
use crate::rules::command::{ManeuverKind, Refusal};
use crate::rules::events::{BattleEvent, Opening, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, AttackSchedule, AttackSystems, Effect};
use crate::rules::positioning::threat::melee_weapon_for;
use crate::rules::rule::Rule;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        AttackSchedule,
        (
            add_maneuver_bonus.in_set(AttackSystems::Base),
            add_unexposed_penalty.in_set(AttackSystems::Situational),
        ),
    );
}

/// Whether the level plays with maneuvers.
pub fn on(world: &World) -> bool {
    world
        .get_resource::<Battlefield>()
        .is_some_and(|f| f.0.rules().maneuvers)
}

/// Run condition: the level plays with maneuvers.
pub fn switched_on(field: Option<Res<Battlefield>>) -> bool {
    field.is_some_and(|f| f.0.rules().maneuvers)
}

/// The refusal for a maneuver command in a level without them.
pub fn switched_off() -> Refusal {
    Refusal::new(
        Rule::V7,
        "this level plays without maneuvers (rules: (maneuvers: true) switches them on)",
    )
}

/// A unit's size (R1).
pub fn size_of(world: &World, unit: Entity) -> Size {
    world
        .get::<Stats>(unit)
        .map_or(Size::Medium, |s| s.template.size)
}

/// How many size categories `other` is larger than `unit` (negative:
/// smaller).
pub fn larger_by(world: &World, unit: Entity, other: Entity) -> i32 {
    size_of(world, other) as i32 - size_of(world, unit) as i32
}

/// The skill a maneuver rolls (V7.1): trip and disarm Acrobatics (DEX),
/// grapple and shove Athletics (STR); an escape the better of the two.
/// Returns the attribute's name and value, the skill and its bonus.
pub fn skill_roll(t: &UnitTemplate, kind: ManeuverKind) -> (&'static str, i32, Skill, i32) {
    let skill = |s: Skill| t.skills.get(&s).copied().unwrap_or(0);
    let athletics = ("STR", t.str, Skill::Athletics, skill(Skill::Athletics));
    let acrobatics = ("DEX", t.dex, Skill::Acrobatics, skill(Skill::Acrobatics));
    match kind {
        ManeuverKind::Grapple | ManeuverKind::Shove => athletics,
        ManeuverKind::Trip | ManeuverKind::Disarm => acrobatics,
        ManeuverKind::Escape if athletics.1 + athletics.3 >= acrobatics.1 + acrobatics.3 => {
            athletics
        }
        ManeuverKind::Escape => acrobatics,
    }
}

/// V7.1 and the size modifier on maneuvers (001:134): MB + the skill's
/// attribute + the skill bonus; against a target k categories smaller
/// +2^(k−1), larger −2^(k−1).
fn add_maneuver_bonus(mut draft: ResMut<AttackDraft>, stats: Query<&Stats>) {
    let Some(kind) = draft.maneuver else {
        return;
    };
    let Ok(s) = stats.get(draft.attacker) else {
        return;
    };
    let t = &s.template;
    draft.push(Effect::Bonus(t.mb), "MB", Rule::V7_1);
    let (attribute, value, skill, bonus) = skill_roll(t, kind);
    if value != 0 {
        draft.push(Effect::Bonus(value), attribute, Rule::V7_1);
    }
    if bonus != 0 {
        draft.push(Effect::Bonus(bonus), format!("{skill:?}"), Rule::V7_1);
    }
    let Ok(target) = stats.get(draft.target) else {
        return;
    };
    let k = target.template.size as i32 - t.size as i32;
    if k != 0 {
        let m = 1 << (k.abs() - 1);
        let (value, how) = if k > 0 {
            (-m, "larger")
        } else {
            (m, "smaller")
        };
        let n = k.abs();
        let cats = if n == 1 { "category" } else { "categories" };
        draft.push(
            Effect::Bonus(value),
            format!("target {n} size {cats} {how}"),
            Rule::V7,
        );
    }
}

/// Whether `unit` is exposed to maneuvers (V7.3): prone, grappled,
/// off-guard (R2.3) or opened (R4.7, R7.8, V7.3, V7.7).
pub fn is_exposed(world: &World, unit: Entity) -> bool {
    let e = world.entity(unit);
    e.contains::<Prone>()
        || e.contains::<Grappled>()
        || e.contains::<OffGuard>()
        || e.contains::<Exposed>()
        || e.contains::<Charged>()
        // Energy's Exposed and Unguarded (V5.8, 002:553).
        || crate::battle::exposed5(world, unit)
}

/// V7.3 (002:553): a maneuver against a target that is not exposed has +1
/// disadvantage (an escape is no maneuver against a target).
fn add_unexposed_penalty(world: &mut World) {
    let draft = world.resource::<AttackDraft>();
    let (Some(kind), target) = (draft.maneuver, draft.target) else {
        return;
    };
    if kind == ManeuverKind::Escape || is_exposed(world, target) {
        return;
    }
    world.resource_mut::<AttackDraft>().push(
        Effect::Advantage(-1),
        "target not exposed",
        Rule::V7_3,
    );
}

/// The draft of `unit`'s maneuver `kind` against `target` from where it
/// stands: trip and disarm with the first melee weapon in hand that
/// reaches (its reach), grapple, shove and escape unarmed (reach 1).
pub fn maneuver_draft(
    world: &World,
    unit: Entity,
    target: Entity,
    kind: ManeuverKind,
) -> Result<AttackDraft, Refusal> {
    let from = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
    let at = world
        .get::<GridPos>(target)
        .map(|p| p.0)
        .unwrap_or_default();
    let weapon = if kind.with_weapon() {
        let distance = crate::battle::body_of(world, unit)
            .zip(crate::battle::body_of(world, target))
            .map_or(1, |(a, b)| a.gap(b));
        match melee_weapon_for(world, unit, distance) {
            Some(w) => w,
            None => {
                let held = weapon_of(world, unit, None)?;
                if held.is_ranged() { unarmed() } else { held }
            }
        }
    } else {
        unarmed()
    };
    let mut draft = AttackDraft::new(unit, target, weapon, AttackMode::Melee, from, at);
    draft.maneuver = Some(kind);
    if kind == ManeuverKind::Escape {
        // A check, not an attack: no R7.6 count, and nobody answers it.
        draft.unanswerable = true;
    } else {
        draft.earlier_attacks = world.get::<ActionPoints>(unit).map_or(0, |a| a.attacks);
    }
    Ok(draft)
}

/// V7.2: whether the maneuver provokes a reactive attack from its target:
/// the maneuverer has no bonus in the skill (001:128), or it grapples or
/// shoves unarmed a target holding a melee weapon (003:35, 37).
pub fn provokes(world: &World, unit: Entity, target: Entity, kind: ManeuverKind) -> bool {
    let untrained = world.get::<Stats>(unit).is_some_and(|s| {
        let (.., bonus) = skill_roll(&s.template, kind);
        bonus <= 0
    });
    let unarmed_against_a_blade = matches!(kind, ManeuverKind::Grapple | ManeuverKind::Shove)
        && melee_weapon_for(world, target, 1).is_some();
    untrained || unarmed_against_a_blade
}

/// Rolls a maneuver's `draft` (V7.1): the d20s against the DV, any answer
/// of the target (R8.6, V2); a natural 1 that fails drops a weapon used to
/// maneuver (R7.3). What success does is the caller's.
pub fn attempt(world: &mut World, draft: AttackDraft) -> AttackResult {
    let kind = draft.maneuver;
    let unit = draft.attacker;
    let weapon = draft.weapon.name.clone();
    let (_, result) = roll(world, draft);
    if result.degrees == 0
        && result.kept == Some(1)
        && !result.answered
        && kind.is_some_and(ManeuverKind::with_weapon)
    {
        drop_weapon(world, unit, Some(&weapon), false);
    }
    result
}

/// Opens `unit` (melee attacks against it +1 advantage until its next
/// turn, R7.8's state): V7.3, V7.7. Told once.
pub fn open(world: &mut World, unit: Entity, by: Opening) {
    if world.entity(unit).contains::<Exposed>() {
        return;
    }
    world.entity_mut(unit).insert(Exposed);
    let unit = id_of(world, unit);
    emit(world, BattleEvent::Opened { unit, by });
}
