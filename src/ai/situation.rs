//! What one AI decision knows, read from the battle once: every unit that
//! matters, how hard each enemy hits, where each can get to, and from that
//! the danger a tile holds next round (exposure). Pure reading: nothing here
//! changes the battle.

use super::profile::Weights;
use crate::battle::units;
use crate::battle::{
    ActionPoints, ArmorReduction, Battlefield, Charged, Dead, Dying, Exposed, Facing, GridPos,
    Health, Inventory, MeleeReach, Prone, Side, Stable, Stats,
};
use crate::format::{Range, Victory};
use crate::grid::{Body, Dir, Pos};
use crate::load::ValidLevel;
use crate::rules::TurnState;
use crate::rules::attacks::preview::{DamageDice, degree_chances, expected_damage};
use crate::rules::attacks::resolution::unarmed;
use crate::rules::contest::{Contest, Pool};
use crate::rules::modifiers::{AttackDraft, AttackMode, Effect, damage_degrees, gather};
use crate::rules::motion::movement::CostMap;
use crate::rules::positioning::facing::in_front_arc;
use crate::rules::positioning::threat::melee_weapon_for;
use crate::rules::rule::Rule;
use crate::rules::turns::victory::round_limit;
use crate::rules::variants::die_ranks::ladder;
use crate::rules::variants::die_ranks::ranks::CAP;
use crate::terrain::Cover;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use std::sync::Arc;

/// The numbers of one way a unit attacks, from the rules' own base modifiers
/// (R7.1 bonus, R7.7 damage), for estimating what it does to a tile it is
/// not attacking yet.
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    /// Added to its d20 (R7.1).
    pub bonus: i32,
    /// Damage of a 1-degree hit (R7.7).
    pub damage: DamageDice,
    /// Critical threshold (R7.3).
    pub crit: u32,
    /// Longest distance it reaches: melee reach, or the weapon's maximum
    /// range (R7.4).
    pub reach: i32,
    /// Range increment (R7.4); 0 for melee.
    pub increment: i32,
    /// Degrees its hits gain or lose on the deciding unit by size (V10.2).
    pub shift: i32,
    /// Under die ranks (V6): the sides of its attack die, rolled against
    /// the DEF die the target's DV stands for.
    pub ranks: Option<u32>,
}

impl Strike {
    /// Expected damage of one attack with net `advantage` against `dv`.
    pub fn expected(&self, advantage: i32, dv: i32) -> f64 {
        let chances = match self.ranks {
            // V6.2: the DV less R1.1's base 10 is DEX + armor, the stats
            // the DEF die follows (a Defend or shield's DV counts as its
            // stat total would: an estimate, not the preview).
            Some(att) => Contest {
                attack: Pool {
                    sides: att,
                    advantage,
                    label: "ATT".into(),
                    cut: 0,
                },
                defence: Pool {
                    sides: ladder::sides(ladder::rank(dv - 10)),
                    advantage: 0,
                    label: "DEF".into(),
                    cut: 0,
                },
                guard: crate::format::Guard::None,
                cap: CAP,
            }
            .success_chances(),
            None => degree_chances(advantage, self.bonus, dv, self.crit, false),
        };
        let damage = if self.ranks.is_some() {
            // One damage per success (V6.4).
            DamageDice {
                count: 1,
                sides: 1,
                bonus: 0,
            }
        } else {
            self.damage
        };
        if self.shift == 0 {
            return expected_damage(&chances, damage, false);
        }
        // Size moves a hit's degrees, never below the first (V10.2).
        let mut shifted = vec![0.0; chances.len() + self.shift.max(0) as usize];
        for (d, p) in chances.iter().enumerate() {
            shifted[damage_degrees(d as i32, self.shift) as usize] += p;
        }
        expected_damage(&shifted, damage, false)
    }
}

/// One unit as a decision sees it.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Its entity.
    pub entity: Entity,
    /// Its side.
    pub side: usize,
    /// Its tile (its footprint's anchor, V10.6).
    pub pos: Pos,
    /// The side of its footprint (V10.6).
    pub n: i32,
    /// Its facing.
    pub facing: Dir,
    /// Hit points left.
    pub hp: i32,
    /// Armor reduction left (R1.2).
    pub ar: i32,
    /// Dying or stabilised (R10): out of action, but not dead.
    pub down: bool,
    /// Down, and one of its allies still in action can get beside it next
    /// turn to stabilise it or give it a potion (R10.4, R10.5).
    pub rescuable: bool,
    /// Prone (R4.8).
    pub prone: bool,
    /// Melee attacks against it have +1 advantage (Charge R4.7, Lunge R7.8).
    pub open: bool,
    /// Speed in tiles (R5.1).
    pub speed: i32,
    /// Martial bonus (Defend adds it to DV, R4.6).
    pub mb: i32,
    /// DV without Defend and shield (R1.1).
    pub dv: i32,
    /// DV bonus of its shield when readied (R4.6), 0 without one.
    pub shield: i32,
    /// Its melee attack, if it has a melee weapon.
    pub melee: Option<Strike>,
    /// Its ranged attack (a bow, a sling…), if any.
    pub ranged: Option<Strike>,
    /// How much it matters: the damage it deals in a round, roughly (what
    /// dropping it removes from the battle).
    pub worth: f64,
    /// It holds a spell of concentration (V11.5): a hit may break it.
    pub concentrating: bool,
}

impl Unit {
    /// Its body where it stands (V10.6).
    pub fn body(&self) -> Body {
        Body::new(self.pos, self.n)
    }

    /// Its body anchored at `at`.
    pub fn body_at(&self, at: Pos) -> Body {
        Body::new(at, self.n)
    }

    /// The distance from its body anchored at `at` to `other`'s (R0.3,
    /// V10.6).
    pub fn gap_from(&self, at: Pos, other: &Unit) -> i32 {
        self.body_at(at).gap(other.body())
    }

    /// Hit points and armor together: what stands between it and a fall.
    pub fn pool(&self) -> f64 {
        (self.hp + self.ar).max(1) as f64
    }
}

/// One melee enemy that can get at a tile next round.
#[derive(Clone, Copy, Debug)]
pub struct MeleeThreat {
    /// Its share of attacks on the tile (2 or 1, shared with our other
    /// units it can get at).
    pub attacks: f64,
    /// The way it comes from, seen from the tile.
    pub from: Option<Dir>,
    /// Its index in [`Situation::fields`].
    pub slot: usize,
    /// Advantage it has besides the rear and flanks (we are prone or open;
    /// it is prone).
    pub adv: i32,
}

/// What can strike a tile next round ([`Situation::reach`]).
#[derive(Clone, Debug)]
pub struct Reach {
    /// Expected damage from shooters.
    pub ranged: f64,
    /// The melee enemies that can come.
    pub melee: Vec<MeleeThreat>,
    /// Two or more can come: a flank is likely (R4.5).
    pub flanked: bool,
    /// Our DV there.
    pub dv: i32,
}

impl Reach {
    /// Expected damage taken there facing `facing`: melee attacks from the
    /// rear arc have +1 advantage (R4.3), flanked ones +1 (R4.5).
    pub fn danger(&self, sit: &Situation, at: Pos, facing: Dir) -> f64 {
        let mut total = self.ranged;
        for m in &self.melee {
            let rear = m
                .from
                .is_some_and(|d| !in_front_arc(at, facing, at.step(d)));
            let adv = m.adv + i32::from(rear) + i32::from(self.flanked);
            total += m.attacks * sit.expected(m.slot, false, adv, self.dv);
        }
        total
    }
}

/// Everything one decision of `me` needs.
pub struct Situation {
    /// The level.
    pub level: Arc<ValidLevel>,
    /// The deciding unit, index into `units`.
    pub me: usize,
    /// Every unit not dead, in roster order.
    pub units: Vec<Unit>,
    /// Terrain cost from each enemy's tile (index into `units`): how soon it
    /// can reach a tile (units ignored: they move).
    pub fields: Vec<(usize, Arc<CostMap>)>,
    /// For each entry of `fields`: how many of our units besides `me` that
    /// enemy can get at next round, plus one. Its blows are shared among
    /// them: a unit that advances with its allies risks less than one alone.
    pub shared: Vec<f64>,
    /// Action points left to `me`.
    pub ap: i32,
    /// Attacks `me` made this turn (R7.6).
    pub attacks: u32,
    /// Tiles that are goals for `me` beside enemies (zones to hold or reach).
    pub goals: Vec<Pos>,
    /// Where `me`'s side last saw each enemy that has hidden from it since
    /// (V8.4, [`crate::battle::LastSeen`]): the side's only lead on it, to
    /// close on and search there.
    pub leads: Vec<Pos>,
    /// How late the battle is, 0 at the start to 1 at the round limit.
    pub lateness: f64,
    /// Expected damage by (enemy slot, ranged, advantage, DV).
    memo: std::cell::RefCell<HashMap<(usize, bool, i32, i32), f64>>,
    /// The safest facing and its danger by (tile, DV bonus): a decision
    /// asks it of the same tile for its position, its guard and its Defend.
    facings: std::cell::RefCell<HashMap<(Pos, i32), (Dir, f64)>>,
}

impl Situation {
    /// Reads the battle for a decision of `me`; `with_fields`: also each
    /// enemy's reach over the map (for exposure and approach).
    pub fn read(
        world: &mut World,
        me: Entity,
        with_fields: bool,
        w: &Weights,
    ) -> Option<Situation> {
        let level = world.resource::<Battlefield>().0.clone();
        // The AI decides from its side's view (V8.10): a unit hidden from
        // its side is not there for it.
        let mine = world.get::<crate::battle::Side>(me)?.0;
        let entities: Vec<Entity> = units(world)
            .into_iter()
            .filter(|e| !world.entity(*e).contains::<Dead>())
            .filter(|e| !crate::battle::hidden_from(world, *e, mine))
            .collect();
        let mut list = Vec::with_capacity(entities.len());
        for &e in &entities {
            list.push(read_unit(world, &level, e, me, w)?);
        }
        mark_rescuable(&mut list);
        let me_index = list.iter().position(|u| u.entity == me)?;
        let side = list[me_index].side;
        let fields = list
            .iter()
            .enumerate()
            .filter(|(_, u)| with_fields && u.side != side && !u.down)
            .map(|(i, u)| {
                let limit = (3 * u.speed.max(1)) as u32 + 4;
                (i, super::fields::field_of(&level, u.body(), u.side, limit))
            })
            .collect();
        let fields: Vec<(usize, Arc<CostMap>)> = fields;
        let shared = fields
            .iter()
            .map(|(i, field)| {
                let e = &list[*i];
                let span = e
                    .melee
                    .map_or(0, |s| s.reach)
                    .max(e.ranged.map_or(0, |s| s.reach));
                let others = list
                    .iter()
                    .enumerate()
                    .filter(|(j, u)| *j != me_index && u.side == side && !u.down)
                    .filter(|(_, u)| {
                        field
                            .cost(u.pos)
                            .is_some_and(|c| c as i32 <= 2 * e.speed + span)
                    })
                    .count();
                1.0 + others as f64
            })
            .collect();
        let ap = world.get::<ActionPoints>(me).map_or(0, |a| a.ap);
        let attacks = world.get::<ActionPoints>(me).map_or(0, |a| a.attacks);
        let round = world.resource::<TurnState>().round;
        let limit = round_limit(world).max(1);
        let goals = goals_of(&level);
        let leads = world
            .get_resource::<crate::battle::LastSeen>()
            .map(|l| l.of(mine).map(|(_, p)| p).collect())
            .unwrap_or_default();
        Some(Situation {
            level,
            me: me_index,
            units: list,
            fields,
            shared,
            ap,
            attacks,
            goals,
            leads,
            lateness: (round as f64 / limit as f64).min(1.0),
            memo: Default::default(),
            facings: Default::default(),
        })
    }

    /// The deciding unit.
    pub fn me(&self) -> &Unit {
        &self.units[self.me]
    }

    /// The enemies of `me` still in action.
    pub fn enemies(&self) -> impl Iterator<Item = (usize, &Unit)> + '_ {
        let side = self.me().side;
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side != side && !u.down)
    }

    /// Who can get at `me` on `at` next round: shooters' expected damage
    /// summed (they do not care where it faces), and each melee enemy's
    /// share of attacks and the side it comes from. Facing-independent, so
    /// it is read once per tile and [`Reach::danger`] tries every facing.
    pub fn reach(&self, at: Pos, dv_bonus: i32) -> Reach {
        let me = self.me();
        let dv = me.dv + dv_bonus;
        let mut out = Reach {
            ranged: 0.0,
            melee: vec![],
            flanked: false,
            dv,
        };
        for (slot, ((i, field), shared)) in self.fields.iter().zip(&self.shared).enumerate() {
            let e = &self.units[*i];
            let cost_here = self.overlap_cost(field, e, at).unwrap_or(u32::MAX);
            if let Some(s) = e.melee {
                // Cost for the enemy to stand within reach of `at`: its cost
                // to `at` less the reach (a rough but cheap bound).
                let cost = cost_here.min(i32::MAX as u32) as i32;
                let needed = (cost - s.reach).max(0);
                let attacks = if needed <= e.speed {
                    2.0
                } else if needed <= 2 * e.speed {
                    1.0
                } else {
                    0.0
                };
                if attacks > 0.0 {
                    let from = Dir::towards(me.body_at(at).centre2(), e.body().centre2());
                    let adv = i32::from(me.prone) + i32::from(me.open) - i32::from(e.prone);
                    out.melee.push(MeleeThreat {
                        attacks: attacks / shared,
                        from,
                        slot,
                        adv,
                    });
                }
            }
            if let Some(s) = e.ranged {
                let d = e.body().gap(me.body_at(at));
                let steps = (d - s.reach).max(0);
                let attacks = if steps == 0 {
                    2.0
                } else if steps <= e.speed {
                    1.0
                } else {
                    0.0
                };
                if attacks > 0.0 {
                    let sight =
                        crate::rules::sight::line_of_effect::sight_on(&self.level, e.pos, at);
                    let cover = match sight.cover {
                        Cover::None => 0,
                        Cover::Partial => 1,
                        Cover::Total => 2,
                    };
                    let far = d.min(s.reach) / s.increment.max(1);
                    let adv = -far - cover - i32::from(me.prone);
                    let attacks = if sight.clear { attacks } else { attacks * 0.3 } / shared;
                    out.ranged += attacks * self.expected(slot, true, adv, dv);
                }
            }
        }
        out.flanked = out.melee.len() >= 2;
        out
    }

    /// Expected damage of one attack of the enemy in `fields[slot]` (its
    /// ranged or melee strike), memoised: a decision asks the same few
    /// numbers thousands of times.
    fn expected(&self, slot: usize, ranged: bool, advantage: i32, dv: i32) -> f64 {
        let advantage = advantage.clamp(-3, 3);
        let key = (slot, ranged, advantage, dv);
        if let Some(v) = self.memo.borrow().get(&key) {
            return *v;
        }
        let e = &self.units[self.fields[slot].0];
        let strike = if ranged { e.ranged } else { e.melee };
        let v = strike.map_or(0.0, |s| s.expected(advantage, dv));
        self.memo.borrow_mut().insert(key, v);
        v
    }

    /// Expected damage `me` takes next round standing on `at`, facing
    /// `facing`, with `dv_bonus` added to its DV (Defend, a readied shield),
    /// from every enemy that can get at it: melee enemies from the side they
    /// come from (rear +1, R4.3; flanked +1 when two or more can come,
    /// R4.5), shooters by range and cover (R7.4, R6.2).
    pub fn danger(&self, at: Pos, facing: Dir, dv_bonus: i32) -> f64 {
        self.reach(at, dv_bonus).danger(self, at, facing)
    }

    /// The least cost, in `enemy`'s `field`, of a place where its body
    /// would overlap `me`'s body standing on `at`: for two 1-tile bodies the
    /// cost to `at` itself; for big bodies (V10.6) the cheapest of the
    /// anchors whose footprint meets mine, so that "reach minus cost" stays
    /// the steps to striking distance whatever the sizes.
    fn overlap_cost(&self, field: &CostMap, enemy: &Unit, at: Pos) -> Option<u32> {
        let (n, m) = (enemy.n, self.me().n);
        if n == 1 && m == 1 {
            return field.cost(at);
        }
        (at.y - (n - 1)..at.y + m)
            .flat_map(|y| (at.x - (n - 1)..at.x + m).map(move |x| Pos::new(x, y)))
            .filter_map(|q| field.cost(q))
            .min()
    }

    /// The facing that keeps `at` safest next round, and its danger.
    pub fn best_facing(&self, at: Pos, dv_bonus: i32) -> (Dir, f64) {
        if let Some(known) = self.facings.borrow().get(&(at, dv_bonus)) {
            return *known;
        }
        let reach = self.reach(at, dv_bonus);
        let mut best = (self.me().facing, f64::INFINITY);
        // The current facing first: ties keep it.
        let order = std::iter::once(self.me().facing).chain(Dir::ALL);
        for f in order {
            let d = reach.danger(self, at, f);
            if d < best.1 - 1e-9 {
                best = (f, d);
            }
        }
        self.facings.borrow_mut().insert((at, dv_bonus), best);
        best
    }

    /// Movement cost from `at` to the nearest enemy, goal or lead (units
    /// ignored), read from the enemies' fields; `None` when none can be
    /// reached.
    pub fn distance_to_fight(&self, at: Pos) -> Option<i32> {
        let enemies = self
            .fields
            .iter()
            .filter_map(|(i, f)| self.overlap_cost(f, &self.units[*i], at).map(|c| c as i32));
        let goals = self.goals.iter().chain(&self.leads).map(|g| g.distance(at));
        enemies.chain(goals).min()
    }
}

/// The tiles of every zone a side must hold or reach (R11): ours to take,
/// the enemy's to contest.
fn goals_of(level: &ValidLevel) -> Vec<Pos> {
    let mut out = vec![];
    for v in level.victory() {
        let zone = match v {
            Victory::HoldZone { zone, .. } => zone,
            Victory::ReachExit { zone, .. } => zone,
            _ => continue,
        };
        for y in zone.from.y..=zone.to.y {
            for x in zone.from.x..=zone.to.x {
                out.push(Pos::new(x, y));
            }
        }
    }
    out
}

fn read_unit(
    world: &mut World,
    level: &ValidLevel,
    e: Entity,
    me: Entity,
    w: &Weights,
) -> Option<Unit> {
    // Only the shield and the MB are read: the template is not cloned.
    let (shield_name, mb) = {
        let t = &world.get::<Stats>(e)?.template;
        (t.shield.clone(), t.mb)
    };
    let pos = world.get::<GridPos>(e)?.0;
    let n = crate::battle::side_of_body(world, e);
    let entity = world.entity(e);
    let down = entity.contains::<Dying>() || entity.contains::<Stable>();
    let prone = entity.contains::<Prone>();
    let open = entity.contains::<Charged>() || entity.contains::<Exposed>();
    let facing = entity.get::<Facing>()?.0;
    let side = entity.get::<Side>()?.0;
    let hp = entity.get::<Health>().map_or(0, |h| h.hp);
    // Under die ranks no AR stands against a hit (V6.4): the armor is in
    // the DEF die, and only HP stand between a unit and its fall.
    let ar = if crate::rules::variants::die_ranks::on(world) {
        0
    } else {
        entity.get::<ArmorReduction>().map_or(0, |a| a.0)
    };
    let reach = entity.get::<MeleeReach>().and_then(|r| r.0);
    let catalog = &level.catalog;
    // The first melee weapon in hand order, as the rules pick it (none
    // without a MeleeReach: the weapon is gone).
    let melee_weapon = reach.and_then(|_| melee_weapon_for(world, e, 1));
    let ranged_weapon = world
        .get::<Inventory>(e)
        .into_iter()
        .flat_map(|i| i.weapons.iter())
        .filter_map(|w| catalog.weapon(w))
        .find(|w| w.is_ranged())
        .cloned();
    // R1.1 DV as the rules gather it (without Defend, shield or cover).
    let dv = sum_of(
        &gather(
            world,
            AttackDraft::new(e, e, unarmed(), AttackMode::Melee, pos, pos),
        ),
        &[Rule::R1_1],
        |effect| match effect {
            Effect::Dv(n) => Some(n),
            _ => None,
        },
    );
    let shield = shield_name
        .as_ref()
        .and_then(|s| catalog.shield(s))
        .map_or(0, |s| s.dv);
    // The rules' own base numbers (R7.1, R7.7), gathered against `me` (or
    // any other unit) from where the unit stands.
    let strike = |world: &mut World, weapon: &crate::format::Weapon| -> Strike {
        let mode = if weapon.is_ranged() {
            AttackMode::Ranged
        } else {
            AttackMode::Melee
        };
        let target = if e == me { Entity::PLACEHOLDER } else { me };
        let draft = gather(
            world,
            AttackDraft::new(e, target, weapon.clone(), mode, pos, pos),
        );
        // What size adds to the roll and the degrees against the deciding
        // unit counts too (V10.1–V10.3): a giant's blow is a giant's.
        let bonus = sum_of(
            &draft,
            &[Rule::R7_1, Rule::V10_1, Rule::V10_3],
            |effect| match effect {
                Effect::Bonus(n) => Some(n),
                _ => None,
            },
        );
        let shift = draft.degree_shift();
        let ranks = draft.contest.as_ref().map(|c| c.attack.sides);
        let extra = sum_of(&draft, &[Rule::R7_7], |effect| match effect {
            Effect::Damage(n) => Some(n),
            _ => None,
        });
        let (reach, increment) = match weapon.range {
            Some(Range::Increment(i)) => (i * w.shot_increments, i),
            Some(Range::Trio(_, far, _)) => (far, far.max(1)),
            None => (weapon.reach, 0),
        };
        Strike {
            bonus,
            damage: DamageDice {
                count: weapon.damage.count,
                sides: weapon.damage.sides,
                bonus: weapon.damage.bonus + extra,
            },
            crit: weapon.crit_threshold(),
            reach,
            increment,
            shift,
            ranks,
        }
    };
    let melee = melee_weapon.as_ref().map(|w| strike(world, w));
    let ranged = ranged_weapon.as_ref().map(|w| strike(world, w));
    let per_round =
        |s: &Option<Strike>| s.map_or(0.0, |s| w.worth_attacks * s.expected(0, w.worth_dv));
    let worth = per_round(&melee).max(per_round(&ranged)) + 1.0;
    Some(Unit {
        entity: e,
        side,
        pos,
        n,
        facing,
        hp,
        ar,
        down,
        rescuable: false,
        prone,
        open,
        speed: crate::rules::motion::movement::speed_of(world, e) as i32,
        mb,
        dv,
        shield,
        melee,
        ranged,
        worth,
        concentrating: world
            .entity(e)
            .contains::<crate::rules::variants::spells::concentration::Concentrating>(),
    })
}

/// Marks the down units an ally in action could reach next turn: one move
/// (its Speed, walls ignored: a cheap, generous bound) to stand beside it.
fn mark_rescuable(units: &mut [Unit]) {
    for i in 0..units.len() {
        if !units[i].down {
            continue;
        }
        let down = &units[i];
        let rescuable = units.iter().any(|a| {
            a.side == down.side && !a.down && a.gap_from(a.pos, down) <= a.speed.max(0) + 1
        });
        units[i].rescuable = rescuable;
    }
}

/// The sum of a gathered draft's modifiers cited under `rules`, of the kind
/// `pick` selects.
fn sum_of(draft: &AttackDraft, rules: &[Rule], pick: impl Fn(Effect) -> Option<i32>) -> i32 {
    draft
        .modifiers
        .iter()
        .filter(|m| rules.contains(&m.rule))
        .filter_map(|m| pick(m.effect))
        .sum()
}
