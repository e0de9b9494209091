//! Every legal command for the unit whose turn it is: what the UI offers,
//! what the random baseline picks from, what the AI starts from. Candidates
//! are checked with [`check`](crate::rules::pipeline::check), so the list holds exactly what
//! the rules accept.

use crate::battle::{ActionPoints, Dead, GridPos, Inventory, name_of, units};
use crate::format::Guard;
use crate::grid::{Body, Dir};
use crate::rules::attacks::techniques::full_power;
use crate::rules::command::{Command, ManeuverKind, ThrowTarget};
use crate::rules::events::Trigger;
use crate::rules::motion::movement::move_reach;
use crate::rules::pipeline::{Decisions, check};
use crate::rules::throws::pick_up::reachable_objects;
use crate::rules::turns::turn::TurnState;
use bevy::prelude::*;

/// The current unit's candidate commands, unchecked: every Move to a
/// reachable tile, every Step, with jumping (V9) every Jump up to 3 tiles,
/// Face, Attack with each weapon, Charge, Defend, ReadyShield, StandUp, Stabilize, PickUp, DrinkPotion, EndTurn;
/// with maneuvers (V7) every Maneuver, the charge-shove and the grapple's
/// commands.
pub fn candidates(world: &mut World) -> Vec<Command> {
    // A held command waits for a reaction decision (R8): only answers.
    let question = world.resource::<Decisions>().questions.first().copied();
    if let Some((asked, trigger)) = question {
        let unit = name_of(world, asked);
        let react = |take, guard| Command::React {
            unit: unit.clone(),
            take,
            guard,
        };
        // Asked how to answer an attack (V2): each answer, or none.
        if trigger == Trigger::Attacked {
            return [Guard::Block, Guard::Parry, Guard::Dodge]
                .into_iter()
                .map(|g| react(true, Some(g)))
                .chain([react(false, None)])
                .collect();
        }
        return vec![react(true, None), react(false, None)];
    }
    let Some(unit) = world.resource::<TurnState>().current else {
        return vec![];
    };
    let name = name_of(world, unit);
    let ap = world.get::<ActionPoints>(unit).map_or(0, |a| a.ap);
    let mut out = vec![Command::EndTurn];
    let free_move = world.entity(unit).contains::<crate::battle::FreeMove>();
    if ap >= 1 || free_move {
        let mut tiles: Vec<_> = move_reach(world, unit).into_keys().collect();
        tiles.sort();
        let at = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
        out.extend(tiles.into_iter().map(|to| Command::Move {
            unit: name.clone(),
            to,
            path: None,
            sprint: false,
        }));
        out.extend(Dir::ALL.into_iter().map(|d| Command::Step {
            unit: name.clone(),
            to: at.step(d),
        }));
        // Jumps (V9.2) to every tile up to 3 away: gaps, ledges and drops.
        if crate::rules::variants::jumping::on(world) {
            for dy in -3..=3 {
                for dx in -3..=3 {
                    let to = crate::grid::Pos::new(at.x + dx, at.y + dy);
                    if to != at {
                        out.push(Command::Jump {
                            unit: name.clone(),
                            to,
                        });
                    }
                }
            }
        }
        for cmd in [
            Command::Defend { unit: name.clone() },
            Command::ReadyShield { unit: name.clone() },
            Command::StandUp { unit: name.clone() },
            Command::Hide { unit: name.clone() },
            Command::Search { unit: name.clone() },
        ] {
            out.push(cmd);
        }
    }
    // Energy's own (V5.5, V5.7): Sprints a third of Speed farther than
    // a Run, Agile Moves, Catch Your Breath.
    if crate::battle::energy(world) {
        let (level, occ, at) = crate::rules::motion::movement::view_for(world, unit);
        let speed = crate::rules::motion::movement::speed_of(world, unit);
        let mut far: Vec<_> =
            crate::rules::motion::movement::reachable(&level.map, &occ, at, speed + speed / 3)
                .into_keys()
                .collect();
        far.sort();
        out.extend(far.into_iter().map(|to| Command::Move {
            unit: name.clone(),
            to,
            path: None,
            sprint: true,
        }));
        out.extend(Dir::ALL.into_iter().map(|d| Command::AgileMove {
            unit: name.clone(),
            to: at.step(d),
        }));
        out.push(Command::CatchBreath { unit: name.clone() });
    }
    // Spells (V11): every one it knows, at each level, at every unit.
    if crate::rules::variants::spells::on(world) {
        let catalog = world
            .resource::<crate::battle::Battlefield>()
            .0
            .catalog
            .clone();
        let known = world
            .get::<crate::battle::Stats>(unit)
            .map(|s| s.template.spells.clone())
            .unwrap_or_default();
        let names: Vec<String> = units(world)
            .into_iter()
            .filter(|e| !world.entity(*e).contains::<Dead>())
            .map(|e| name_of(world, e))
            .collect();
        for spell in known.iter().filter_map(|s| catalog.spell(s)) {
            for level in spell.level..=spell.top() {
                out.extend(names.iter().map(|n| Command::Cast {
                    unit: name.clone(),
                    spell: spell.name.clone(),
                    level: Some(level),
                    at: ThrowTarget::Unit(n.clone()),
                }));
            }
        }
    }
    out.extend(Dir::ALL.into_iter().map(|dir| Command::Face {
        unit: name.clone(),
        dir,
    }));
    let others: Vec<String> = units(world)
        .into_iter()
        .filter(|e| *e != unit && !world.entity(*e).contains::<Dead>())
        .filter_map(|e| world.get::<Name>(e).map(|n| n.to_string()))
        .collect();
    let weapons = world
        .get::<Inventory>(unit)
        .map(|i| i.weapons.clone())
        .unwrap_or_default();
    let power = full_power(world, unit, false);
    let maneuvers = crate::rules::variants::maneuvers::on(world);
    if maneuvers {
        // The grapple's own commands (V7.6).
        for cmd in [
            Command::Sustain { unit: name.clone() },
            Command::Release { unit: name.clone() },
            Command::Escape { unit: name.clone() },
            Command::ForceDown { unit: name.clone() },
            Command::Crush { unit: name.clone() },
        ] {
            out.push(cmd);
        }
        let at = world.get::<GridPos>(unit).map(|p| p.0).unwrap_or_default();
        out.extend(Dir::ALL.into_iter().map(|d| Command::Drag {
            unit: name.clone(),
            to: at.step(d),
        }));
    }
    if crate::rules::variants::mounts::on(world) {
        out.extend(mounted_candidates(world, unit, &name, &others));
    }
    for other in &others {
        out.push(Command::Attack {
            unit: name.clone(),
            target: other.clone(),
            weapon: None,
            power: 0,
            lunge: false,
            part: None,
        });
        for w in weapons.iter().skip(1) {
            out.push(Command::Attack {
                unit: name.clone(),
                target: other.clone(),
                weapon: Some(w.clone()),
                power: 0,
                lunge: false,
                part: None,
            });
        }
        // R7.8: the main weapon with a full Power Attack / Deadly Aim, or
        // a Lunge; a Cleave after a melee hit.
        for (power, lunge) in [(power, false), (0, true)]
            .into_iter()
            .filter(|t| *t != (0, false))
        {
            out.push(Command::Attack {
                unit: name.clone(),
                target: other.clone(),
                weapon: None,
                power,
                lunge,
                part: None,
            });
        }
        out.push(Command::Cleave {
            unit: name.clone(),
            target: other.clone(),
        });
        out.push(Command::Charge {
            unit: name.clone(),
            target: other.clone(),
            shove: false,
        });
        if maneuvers {
            out.push(Command::Charge {
                unit: name.clone(),
                target: other.clone(),
                shove: true,
            });
            out.extend(
                ManeuverKind::MADE
                    .into_iter()
                    .map(|kind| Command::Maneuver {
                        unit: name.clone(),
                        target: other.clone(),
                        kind,
                        to: None,
                        fling: None,
                    }),
            );
        }
        out.push(Command::Stabilize {
            unit: name.clone(),
            target: other.clone(),
        });
        out.push(Command::DrinkPotion {
            unit: name.clone(),
            target: Some(other.clone()),
        });
    }
    out.push(Command::DrinkPotion {
        unit: name.clone(),
        target: None,
    });
    // Throws: each thing carried, at each other unit (R9).
    let mut carried: Vec<String> = world
        .get::<Inventory>(unit)
        .map(|i| {
            i.weapons
                .iter()
                .cloned()
                .chain(i.items.iter().map(|(n, _)| n.clone()))
                .collect()
        })
        .unwrap_or_default();
    carried.sort();
    carried.dedup();
    for item in &carried {
        for other in &others {
            out.push(Command::Throw {
                unit: name.clone(),
                item: item.clone(),
                at: ThrowTarget::Unit(other.clone()),
            });
        }
    }
    let mut objects: Vec<String> = reachable_objects(world, unit)
        .into_iter()
        .map(|(name, ..)| name)
        .collect();
    objects.sort();
    objects.dedup();
    out.extend(objects.into_iter().map(|item| Command::PickUp {
        unit: name.clone(),
        item,
    }));
    out
}

/// A rider's and a would-be rider's commands (V12): Mount each other unit,
/// Dismount to each tile around the pair, the mount's attacks on each
/// other unit.
fn mounted_candidates(world: &World, unit: Entity, name: &str, others: &[String]) -> Vec<Command> {
    let mut out: Vec<Command> = others
        .iter()
        .map(|o| Command::Mount {
            unit: name.to_string(),
            mount: o.clone(),
        })
        .collect();
    let Some(mount) = crate::battle::mount_of(world, unit) else {
        return out;
    };
    if let Some(body) = crate::battle::body_of(world, mount) {
        let ring = Body::new(body.at.step(Dir::NW), body.n + 2);
        out.extend(
            ring.tiles()
                .filter(|t| !body.contains(*t))
                .map(|to| Command::Dismount {
                    unit: name.to_string(),
                    to,
                }),
        );
    }
    let mount = name_of(world, mount);
    out.extend(others.iter().map(|o| Command::Attack {
        unit: mount.clone(),
        target: o.clone(),
        weapon: None,
        power: 0,
        lunge: false,
        part: None,
    }));
    out
}

/// The current unit's legal commands, in a stable order.
pub fn legal_commands(world: &mut World) -> Vec<Command> {
    candidates(world)
        .into_iter()
        .filter(|c| check(world, c.clone()).is_ok())
        .collect()
}
