//! R9 throws: weapons and items thrown at a unit or a tile (a ranged attack,
//! R9.1); on a hit the object lands in the target's tile, falling or
//! sticking (R9.2); on a miss it scatters by 1d8 (R9.3); splash items hurt
//! everything around where they land (R9.4); what lands lies on the ground
//! as an object (R9.5).

use crate::battle::out_of_action;
use crate::battle::unit_named;
use crate::battle::{
    ActionPoints, Battlefield, Dead, Dying, GridPos, GroundObject, Inventory, Stable, Stats, Stuck,
    change_inventory,
};
use crate::dice::Dice;
use crate::format::{DamageType, Dice as DiceExpr, Weapon, WeaponTrait};
use crate::grid::{Dir, Pos};
use crate::rules::attacks::damage::{
    damage_modifiers, is_down, roll_damage, take_damage, take_damage_on,
};
use crate::rules::attacks::hit::{Hit, HitSchedule, run};
use crate::rules::attacks::preview::preview_attack;
use crate::rules::attacks::resolution::roll;
use crate::rules::command::CommandKind;
use crate::rules::command::{Command, Refusal, ThrowTarget};
use crate::rules::dying::hit_while_down;
use crate::rules::events::{BattleEvent, DamageHow, emit, id_of};
use crate::rules::modifiers::{AttackDraft, AttackMode, gather};
use crate::rules::pipeline::Pending;
use crate::rules::rule::Rule;
use crate::rules::sight::line_of_effect::sight;
use crate::rules::sight::range::{increments, thrown_increment};
use crate::terrain::TerrainMap;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    crate::rules::pipeline::handle(app, CommandKind::Throw, validate_throw, execute_throw);
}

/// A thrown object, as the rules see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Missile {
    /// Its catalog name.
    pub name: String,
    /// Its numbers as a weapon (items: their damage, or 1d1).
    pub weapon: Weapon,
    /// Splash damage and radius (R9.4), for items with damage.
    pub splash: Option<(DiceExpr, i32)>,
    /// Breaks where it lands (bombs, flasks, potions) rather than lying.
    pub fragile: bool,
    /// Made for throwing (the Thrown trait): full damage (R9.1).
    pub made_to_throw: bool,
    /// Hurts what it hits: weapons do; items without `damage` do not
    /// *(decision)*.
    pub harmful: bool,
}

/// An item's 1d1 as a weapon (R9), parsed once: the AI reads each missile
/// its unit carries at every tile it weighs.
static ONE: std::sync::LazyLock<DiceExpr> =
    std::sync::LazyLock::new(|| DiceExpr::parse("1d1").expect("a valid literal"));

/// The object called `name` that `unit` carries, ready to throw.
pub fn missile(world: &World, unit: Entity, name: &str) -> Result<Missile, Refusal> {
    if world
        .get::<Inventory>(unit)
        .is_none_or(|i| i.count(name) == 0)
    {
        // Named only here: the AI reads missiles far more often than a
        // throw is refused.
        let who = crate::battle::name_of(world, unit);
        return Err(Refusal::new(
            Rule::R9_1,
            format!("{who} carries no \"{name}\""),
        ));
    }
    let catalog = &world.resource::<Battlefield>().0.catalog;
    if let Some(w) = catalog.weapon(name) {
        return Ok(Missile {
            name: name.into(),
            weapon: w.clone(),
            splash: None,
            fragile: false,
            made_to_throw: w.is_throwing(),
            harmful: true,
        });
    }
    let item = catalog
        .item(name)
        .ok_or_else(|| Refusal::unknown(format!("object \"{name}\"")))?;
    let damage_type = item.damage_type.unwrap_or(DamageType::Bludgeoning);
    Ok(Missile {
        name: name.into(),
        weapon: Weapon {
            parry: 0,
            name: name.into(),
            damage: ONE.clone(),
            damage_type,
            reach: 1,
            thrown: item.thrown,
            range: None,
            attack_bonus: 0,
            crit: 20,
            traits: vec![WeaponTrait::Thrown],
            accuracy: None,
            load: None,
        },
        splash: item.damage.clone().map(|d| (d, item.splash)),
        fragile: item.damage.is_some() || item.heal.is_some(),
        made_to_throw: true,
        harmful: false,
    })
}

/// The draft of `unit` throwing `missile` at `target` (R9.1: a ranged attack
/// with the thrown increment; a tile has DV 5).
pub fn throw_draft(
    world: &World,
    unit: Entity,
    missile: &Missile,
    target: &ThrowTarget,
) -> Result<AttackDraft, Refusal> {
    let from = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
    let (entity, at) = match target {
        ThrowTarget::Unit(name) => {
            let e = unit_named(world, name)
                .ok_or_else(|| Refusal::unknown(format!("unit \"{name}\"")))?;
            (e, world.get::<GridPos>(e).map(|p| p.0).unwrap_or_default())
        }
        ThrowTarget::Tile(p) => (Entity::PLACEHOLDER, *p),
    };
    let mut draft = AttackDraft::new(
        unit,
        entity,
        missile.weapon.clone(),
        AttackMode::Thrown,
        from,
        at,
    );
    draft.earlier_attacks = world.get::<ActionPoints>(unit).map_or(0, |a| a.attacks);
    Ok(draft)
}

/// R9.3: where a missed throw lands for a d8 roll of `roll`: the eight tiles
/// around the target numbered clockwise from the one nearest the thrower
/// (1), the object travels `floor(d / increment) + 1` tiles that way, and
/// stops in the last open tile before a blocking or impassable tile or the
/// map edge.
pub fn scatter(map: &TerrainMap, thrower: Pos, target: Pos, increment: i32, roll: u32) -> Pos {
    let first = Dir::towards(target, thrower).unwrap_or(Dir::N);
    let dir = first.rotate(roll as i32 - 1);
    let tiles = increments(thrower.distance(target), increment) + 1;
    let mut at = target;
    for _ in 0..tiles {
        let next = at.step(dir);
        let open = map.flags(next) & TerrainMap::PASSABLE != 0
            && map.flags(next) & TerrainMap::BLOCKS_LINE == 0;
        if !open {
            break;
        }
        at = next;
    }
    at
}

/// Where a miss scatters from and towards (V10.6): from the target's tile
/// nearest the thrower's tile that faces it (the one nearest tile: each
/// coordinate clamped, so there is no tie to break); for one-tile units and
/// a tile, the two tiles themselves.
pub fn scatter_ends(draft: &AttackDraft) -> (Pos, Pos) {
    let from = draft.from_tile();
    (from, draft.target_body().nearest(from))
}

/// Exactly where a throw may land: the target's tile with the chance of a
/// hit, and each d8 scatter tile with its chance (R9.3), merged by tile.
#[derive(Clone, Debug, PartialEq)]
pub struct ThrowPreview {
    /// Probability of a hit.
    pub hit: f64,
    /// Where a hit lands.
    pub hit_tile: Pos,
    /// Each tile a miss can land on, with its probability.
    pub scatter: Vec<(Pos, f64)>,
}

/// Previews a throw with the rules' own modifiers and scatter.
pub fn preview_throw(
    world: &mut World,
    unit: Entity,
    item: &str,
    target: &ThrowTarget,
) -> Result<ThrowPreview, Refusal> {
    let m = missile(world, unit, item)?;
    let mut draft = throw_draft(world, unit, &m, target)?;
    draft.sides = (
        crate::battle::side_of_body(world, draft.attacker),
        crate::battle::side_of_body(world, draft.target),
    );
    let (from, origin) = scatter_ends(&draft);
    let at = draft.at;
    let hit = preview_attack(world, draft)?.hit;
    let str = world.get::<Stats>(unit).map_or(0, |s| s.template.str);
    let increment = thrown_increment(m.weapon.thrown, str);
    let map = world.resource::<Battlefield>().0.clone();
    let mut scatter: Vec<(Pos, f64)> = vec![];
    for r in 1..=8 {
        let p = crate::rules::throws::throw::scatter(&map.map, from, origin, increment, r);
        match scatter.iter_mut().find(|(q, _)| *q == p) {
            Some((_, chance)) => *chance += (1.0 - hit) / 8.0,
            None => scatter.push((p, (1.0 - hit) / 8.0)),
        }
    }
    Ok(ThrowPreview {
        hit,
        hit_tile: at,
        scatter,
    })
}

fn throw_args(world: &World) -> Option<(Entity, String, ThrowTarget)> {
    let pending = world.resource::<Pending>();
    match (&pending.command, pending.actor) {
        (Some(Command::Throw { item, at, .. }), Some(a)) => Some((a, item.clone(), at.clone())),
        _ => None,
    }
}

fn check_throw(
    world: &mut World,
    unit: Entity,
    item: &str,
    target: &ThrowTarget,
) -> Result<(), Refusal> {
    if world.get::<ActionPoints>(unit).is_some_and(|a| a.defended) {
        return Err(Refusal::new(
            Rule::R4_6,
            "after Defend a unit makes no more attacks or throws this turn",
        ));
    }
    let natural = world
        .resource::<crate::battle::Battlefield>()
        .0
        .catalog
        .weapon(item)
        .is_some_and(|w| w.has(crate::format::WeaponTrait::Natural));
    if natural {
        return Err(Refusal::new(
            Rule::R9_1,
            format!("the {item} are part of the body: they cannot be thrown"),
        ));
    }
    let m = missile(world, unit, item)?;
    let draft = throw_draft(world, unit, &m, target)?;
    match target {
        ThrowTarget::Unit(name) => {
            if draft.target == unit {
                return Err(Refusal::new(Rule::R9_1, "a unit cannot throw at itself"));
            }
            if world.entity(draft.target).contains::<Dead>() {
                return Err(Refusal::new(Rule::R9_1, format!("{name} is dead")));
            }
        }
        ThrowTarget::Tile(p) => {
            let map = &world.resource::<Battlefield>().0.map;
            if !map.contains(*p) {
                return Err(Refusal::new(Rule::R0_1, format!("{p} is off the map")));
            }
            if map.flags(*p) & TerrainMap::PASSABLE == 0
                || map.flags(*p) & TerrainMap::BLOCKS_LINE != 0
            {
                return Err(Refusal::new(Rule::R9_1, format!("nothing can land on {p}")));
            }
        }
    }
    match gather(world, draft).refusal {
        Some(r) => Err(r),
        None => Ok(()),
    }
}

fn validate_throw(world: &mut World) {
    let Some((unit, item, target)) = throw_args(world) else {
        return;
    };
    if let Err(r) = check_throw(world, unit, &item, &target) {
        world.resource_mut::<Pending>().refuse(r);
    }
}

fn execute_throw(world: &mut World) {
    let Some((unit, item, target)) = throw_args(world) else {
        return;
    };
    let Ok(m) = missile(world, unit, &item) else {
        return;
    };
    let Ok(draft) = throw_draft(world, unit, &m, &target) else {
        return;
    };
    if let Some(mut ap) = world.get_mut::<ActionPoints>(unit) {
        ap.attacks += 1;
    }
    // R8.2: throwing from a threatened tile provokes, before the throw.
    if !crate::rules::reactions::reactive_attack::provoke(
        world,
        unit,
        crate::rules::events::Trigger::Throw,
    ) {
        return;
    }
    change_inventory(world, unit, |inv| inv.take(&item));
    let (draft, result) = roll(world, draft);
    let thrower = id_of(world, unit);
    let flight = |scatter: Option<u32>, landing: Pos| BattleEvent::ThrowFlight {
        unit: thrower,
        object: m.name.clone(),
        from: draft.from,
        aimed: draft.at,
        scatter,
        landing,
    };
    let landing = if result.degrees > 0 {
        emit(world, flight(None, draft.at));
        if !draft.aims_at_tile() && m.splash.is_none() {
            if m.harmful {
                hit_with(world, &draft, &m, result.degrees, result.kept == Some(20));
            }
            if stuck_in(world, &draft, &m) {
                return;
            }
        }
        draft.at
    } else {
        let d = world.resource_mut::<Dice>().roll(8);
        let str = world.get::<Stats>(unit).map_or(0, |s| s.template.str);
        let increment = thrown_increment(m.weapon.thrown, str);
        let map = world.resource::<Battlefield>().0.clone();
        let (from, origin) = scatter_ends(&draft);
        let p = scatter(&map.map, from, origin, increment, d);
        emit(world, flight(Some(d), p));
        p
    };
    let object = m.name.clone();
    if let Some((dice, radius)) = &m.splash {
        splash(world, unit, landing, dice, *radius, &m.name);
    } else if m.fragile {
        emit(
            world,
            BattleEvent::ObjectBroke {
                object,
                at: landing,
            },
        );
    } else {
        world.spawn((
            GroundObject {
                name: object.clone(),
            },
            GridPos(landing),
        ));
        emit(
            world,
            BattleEvent::ObjectLanded {
                object,
                at: landing,
            },
        );
    }
}

/// The damage of a thrown object that hits a unit: its dice + STR (R7.7),
/// an extra die per degree beyond the first, half for objects not made to
/// be thrown unless the roll is a natural 20 (R9.1); on the dying, R10.3.
fn hit_with(world: &mut World, draft: &AttackDraft, m: &Missile, degrees: i32, natural_20: bool) {
    let target = draft.target;
    if is_down(world, target) {
        hit_while_down(world, target);
        return;
    }
    // Where it lands (a zone, V4), before the damage dice.
    let hit = run(
        world,
        HitSchedule::Land,
        Hit::new(draft.clone(), None, 0, degrees),
    );
    // Die ranks (V6.4): the successes are the damage.
    if draft.contest.is_some() {
        crate::rules::attacks::damage::deal_successes(world, draft, degrees);
        return;
    }
    let degrees = crate::rules::modifiers::damage_degrees(degrees, draft.degree_shift());
    let (mut damage, roll) = roll_damage(world, &m.weapon.damage, degrees, draft.damage_bonus());
    let halved = !m.made_to_throw && !natural_20;
    if halved {
        damage = (damage / 2).max(1);
    }
    let how = DamageHow::Hit {
        roll,
        modifiers: damage_modifiers(draft),
        halved,
        blocked: 0,
        warded: 0,
    };
    take_damage_on(world, target, damage, how, draft.attacker, hit.armor);
}

/// R9.2: a piercing or slashing object that hits a unit in action sticks in
/// it; one that hits a fallen unit drops in its tile. Returns true when it
/// stuck.
fn stuck_in(world: &mut World, draft: &AttackDraft, m: &Missile) -> bool {
    let sharp = matches!(
        m.weapon.damage_type,
        DamageType::Piercing | DamageType::Slashing
    );
    if !sharp || out_of_action(world, draft.target) {
        return false;
    }
    world
        .entity_mut(draft.target)
        .entry::<Stuck>()
        .or_default()
        .get_mut()
        .0
        .push(m.name.clone());
    let unit = id_of(world, draft.target);
    emit(
        world,
        BattleEvent::ObjectStuck {
            object: m.name.clone(),
            unit,
        },
    );
    true
}

/// The tiles a splash of `radius` at `at` reaches (R9.4): within the
/// radius, with a line of effect from `at`.
pub fn splash_tiles(map: &TerrainMap, at: Pos, radius: i32) -> Vec<Pos> {
    let mut tiles = vec![];
    // Only the map's tiles: a radius larger than the map covers it.
    let (w, h) = (map.width(), map.height());
    let ys = at.y.saturating_sub(radius).max(0)..=at.y.saturating_add(radius).min(h - 1);
    for y in ys {
        let xs = at.x.saturating_sub(radius).max(0)..=at.x.saturating_add(radius).min(w - 1);
        for x in xs {
            let p = Pos::new(x, y);
            if map.contains(p) && p.distance(at) <= radius && (p == at || sight(map, at, p).clear) {
                tiles.push(p);
            }
        }
    }
    tiles
}

/// R9.4: every creature within `radius` of `at` with a line of effect from
/// it takes the damage of `thrower`'s item, rolled once for all (AR
/// applies; the dying count it as a hit, R10.3).
pub fn splash(
    world: &mut World,
    thrower: Entity,
    at: Pos,
    dice: &DiceExpr,
    radius: i32,
    name: &str,
) {
    let (damage, roll) = roll_damage(world, dice, 1, 0);
    let map = world.resource::<Battlefield>().0.clone();
    let tiles = splash_tiles(&map.map, at, radius);
    emit(
        world,
        BattleEvent::SplashBurst {
            object: name.to_string(),
            at,
            roll,
            amount: damage,
            radius,
            tiles: tiles.clone(),
        },
    );
    let caught: Vec<Entity> = crate::battle::units(world)
        .into_iter()
        .filter(|e| !world.entity(*e).contains::<Dead>())
        // A body is caught when any of its tiles is (V10.6).
        .filter(|e| {
            crate::battle::body_of(world, *e).is_some_and(|b| b.tiles().any(|p| tiles.contains(&p)))
        })
        .collect();
    for unit in caught {
        if world.entity(unit).contains::<Dying>() || world.entity(unit).contains::<Stable>() {
            hit_while_down(world, unit);
        } else {
            take_damage(world, unit, damage, DamageHow::Splash, thrower);
        }
    }
}
