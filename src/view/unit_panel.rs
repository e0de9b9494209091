//! The selected unit's panel: its numbers, gear and injuries.

use super::controls::Selected;
use crate::battle::ArmorReduction;
use crate::battle::Health;
use crate::battle::Inventory;
use crate::battle::name_of;
use crate::rules::TurnState;
use bevy::prelude::*;

/// What the selected unit (else the acting one) is: its numbers and gear.
pub fn selected_line(world: &World) -> Option<String> {
    if world.resource::<TurnState>().outcome.is_some() {
        return None;
    }
    let unit = world
        .resource::<Selected>()
        .0
        .or(world.resource::<TurnState>().current)?;
    let stats = world.get::<crate::battle::Stats>(unit)?;
    let hp = world.get::<Health>(unit)?;
    // Under die ranks the armor is in the DEF die and no AR stands (V6.4).
    let ar = if crate::rules::variants::die_ranks::on(world) {
        String::new()
    } else {
        format!(
            " AR {}",
            world.get::<ArmorReduction>(unit).map_or(0, |a| a.0)
        )
    };
    let stamina = world.get::<crate::battle::Stamina>(unit).map_or(0, |s| s.0);
    let inv = world.get::<Inventory>(unit)?;
    let t = &stats.template;
    let mut line = format!(
        "{} ({}): HP {}/{}{ar} stamina {stamina} | MB {} STR {} DEX {} speed {} | {}",
        name_of(world, unit),
        stats.kind,
        hp.hp,
        hp.max,
        t.mb,
        t.str,
        t.dex,
        crate::rules::motion::movement::speed_of(world, unit),
        if inv.weapons.is_empty() {
            "unarmed".to_string()
        } else {
            inv.weapons.join(", ")
        }
    );
    if let Some(text) = ranks_text(world, unit) {
        line.push('\n');
        line.push_str(&text);
    }
    if let Some(text) = energy_text(world, unit) {
        line.push('\n');
        line.push_str(&text);
    }
    if let Some(text) = injuries_text(world, unit) {
        line.push('\n');
        line.push_str(&text);
    }
    if let Some(text) = grapple_text(world, unit) {
        line.push('\n');
        line.push_str(&text);
    }
    if let Some(text) = spells_text(world, unit) {
        line.push('\n');
        line.push_str(&text);
    }
    Some(line)
}

/// Under spells (V11): a caster's MP and the spell it holds, a unit a
/// spell grips: "MP 8 of 12 (V11.2) | holds flame field: a hit may break
/// it (V11.5)".
pub fn spells_text(world: &World, unit: Entity) -> Option<String> {
    use crate::rules::variants::spells::{concentration::Concentrating, grip::Gripped};
    if !crate::rules::variants::spells::on(world) {
        return None;
    }
    let mut parts = vec![];
    let most = world
        .get::<crate::battle::Stats>(unit)
        .map_or(0, |s| s.template.mp);
    if most > 0 {
        let mp = world.get::<crate::battle::Mp>(unit).map_or(0, |m| m.0);
        parts.push(format!("MP {mp} of {most} (V11.2)"));
    }
    if let Some(c) = world.get::<Concentrating>(unit) {
        parts.push(format!("holds {}: a hit may break it (V11.5)", c.0));
    }
    if let Some(g) = world.get::<Gripped>(unit) {
        parts.push(format!(
            "held fast by {}'s {}: cannot move (V11.4)",
            name_of(world, g.by),
            g.spell
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" | "))
}

/// Under die ranks (V6): a unit's dice and the AP it owes its next turn
/// for its interrupts: "dice ATT d10 DEF d8 REF d6 STR d8 | owes 1 AP of
/// its next turn (V6.6)".
pub fn ranks_text(world: &World, unit: Entity) -> Option<String> {
    use crate::rules::variants::die_ranks::{self, ladder::ranks_of, ladder::sides};
    if !die_ranks::on(world) {
        return None;
    }
    let (r, _) = ranks_of(world, unit)?;
    let owed = die_ranks::owed(world, unit);
    let debt = match owed {
        0 => "owes no AP: may block, parry or dodge (1 AP of its next turn each, V6.6)".into(),
        n if n >= die_ranks::MOST_OWED => {
            format!("owes {n} AP: no more interrupts before its turn (V6.6)")
        }
        n => format!("owes {n} AP of its next turn for its interrupts (V6.6)"),
    };
    Some(format!(
        "dice ATT d{} DEF d{} REF d{} STR d{} (V6.2) | {debt}",
        sides(r.att),
        sides(r.def),
        sides(r.reflexes),
        sides(r.str)
    ))
}

/// Under Energy (V5): a unit's budgets this round and its conditions:
/// "Energy 3 of 5, Agility 2, Stamina 14 of 16 | Swift Attack ready (1
/// Energy, V5.9) | 2 Agile Moves open (V5.7) | unguarded to round 2's end:
/// Swift Attacks on it (V5.8)".
pub fn energy_text(world: &World, unit: Entity) -> Option<String> {
    use crate::battle::{ActionPoints, Budget, Guardless, Stamina, Stats, stamina_pool};
    if !crate::battle::energy(world) {
        return None;
    }
    let left = world.get::<ActionPoints>(unit).map_or(0, |a| a.ap);
    let b = world.get::<Budget>(unit).copied().unwrap_or_default();
    let stamina = world.get::<Stamina>(unit).map_or(0, |s| s.0);
    let most = world
        .get::<Stats>(unit)
        .map_or(stamina, |s| stamina_pool(&s.template));
    let mut parts = vec![format!(
        "Energy {left} of 5, Agility {}, Stamina {stamina} of {most} (V5.2-V5.4)",
        b.agility
    )];
    parts.push(if !b.swift_used && left >= 1 {
        "Swift Attack ready (1 Energy, V5.9)".to_string()
    } else {
        "no Swift Attack left this round (V5.9)".to_string()
    });
    if b.agile > 0 {
        parts.push(format!(
            "{} Agile Moves open (V5.7)",
            b.agile.min(b.agility)
        ));
    }
    let g = world.get::<Guardless>(unit).copied().unwrap_or_default();
    if let Some(until) = g.unguarded {
        parts.push(format!(
            "unguarded to round {until}'s end: a Swift Attack on it costs 1 Energy (V5.8)"
        ));
    } else if let Some(until) = g.exposed {
        parts.push(format!(
            "exposed to round {until}'s end: safe to maneuver against (V5.8)"
        ));
    }
    Some(parts.join(" | "))
}

/// A unit's grapple and what it does (V7.6), for its panel, on both
/// units: "held by Bron: cannot move; attacks +1 dis, +2 against Bron".
pub fn grapple_text(world: &World, unit: Entity) -> Option<String> {
    use crate::rules::command::Hold;
    use crate::rules::variants::maneuvers::{Grappled, grappling};
    if let Some(g) = world.get::<Grappled>(unit) {
        let by = name_of(world, g.by);
        return Some(match g.hold {
            Hold::Held => format!(
                "held by {by}: cannot move; attacks +2 dis; melee against it +1 adv; \
                 Escape to break free (V7.6)"
            ),
            _ => format!(
                "grabbed by {by}: cannot move; attacks on others +1 dis; Escape to break free \
                 (V7.6)"
            ),
        });
    }
    let (target, g) = grappling(world, unit)?;
    let whom = name_of(world, target);
    let how = if g.hold == Hold::Held {
        "holding"
    } else {
        "grabbing"
    };
    Some(format!(
        "{how} {whom}: cannot move; attacks on others +1 dis; keep the grip each turn \
         (Sustain, 1 AP) (V7.6)"
    ))
}

/// A unit's injuries and what they do (V3), for its panel: "injuries:
/// arms severe x2 | legs minor; attacks +2 dis (V3)".
pub fn injuries_text(world: &World, unit: Entity) -> Option<String> {
    let injuries = world.get::<crate::rules::variants::injuries::Injuries>(unit)?;
    if injuries.0.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = vec![];
    for part in crate::format::BodyPart::all() {
        // Worst first, repeats counted: "arms severe x2, major".
        let mut counts = std::collections::BTreeMap::new();
        for (_, s) in injuries.0.iter().filter(|(p, _)| *p == part) {
            *counts.entry(*s).or_insert(0) += 1;
        }
        if counts.is_empty() {
            continue;
        }
        let listed: Vec<String> = counts
            .iter()
            .rev()
            .map(|(s, n)| match n {
                1 => s.name().to_string(),
                n => format!("{} x{n}", s.name()),
            })
            .collect();
        parts.push(format!("{} {}", part.name(), listed.join(", ")));
    }
    let mut effects = vec![];
    if injuries.attack_disadvantage() > 0 {
        effects.push(format!("attacks +{} dis", injuries.attack_disadvantage()));
    }
    if injuries.slowed() > 0 {
        effects.push(format!("speed -{}", injuries.slowed()));
    }
    if injuries.lamed() {
        effects.push("cannot stand".to_string());
    } else if injuries.stand_up_extra() > 0 {
        effects.push(format!("standing up +{} AP", injuries.stand_up_extra()));
    }
    if let Some(s) = world.get::<crate::battle::Stunned>(unit) {
        effects.push(if s.lose_turn {
            "stunned: loses its next turn".to_string()
        } else {
            "stunned this turn".to_string()
        });
    }
    if world.get::<crate::battle::Dazed>(unit).is_some() {
        effects.push("dazed: attacks +1 dis".to_string());
    }
    let injure_only = crate::rules::variants::injuries::injure_only(world);
    if injure_only {
        // What the next wound's Constitution save must beat, at the least.
        effects.push(format!("knock-out save DC {}+", injuries.value() + 1));
    }
    let effects = if effects.is_empty() {
        String::new()
    } else {
        format!("; {}", effects.join(", "))
    };
    Some(format!("injuries: {}{effects} (V3)", parts.join(" | ")))
}
