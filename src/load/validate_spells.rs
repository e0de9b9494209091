//! Checking the spells of V11 (the catalog's and a level's `spells` list)
//! and the spells a unit knows: each at its own field, with the file's
//! line and column.

use super::locate::Needle;
use super::report::Report;
use super::validate_catalog::{
    MAX_ATTRIBUTE, MAX_MEASURE, check_bound, check_dice, check_min, check_range,
};
use crate::format::{Catalog, Range, Spell, SpellDamage, SpellEffect, UnitTemplate};
use Needle::{Ident, Str};

/// The highest cast level a spell may reach: its MP cost, Fib(level + 1),
/// stays far below overflow (V11.2).
const MOST_LEVEL: i32 = 20;

/// A spell's numbers (V11.2–V11.6): its level, upcast, radius, dice and
/// range, each where it is written.
pub(super) fn check_spell(r: &mut Report, s: &Spell) {
    let owner = format!("spell \"{}\"", s.name);
    let path = |f| [Ident("spells"), Str(&s.name), Ident(f)];
    let at = [Ident("spells"), Str(&s.name)];
    let what = format!("{owner}: level");
    if check_min(r, &path("level"), what.clone(), s.level, 1) {
        check_bound(r, &path("level"), &what, s.level.into(), MOST_LEVEL.into());
    }
    if let Some(top) = s.upcast {
        let what = format!("{owner}: upcast");
        if top < s.level {
            r.error(
                &path("upcast"),
                format!(
                    "{what} is {top}, below its level {}: it could not be cast (V11.2)",
                    s.level
                ),
            );
        } else {
            check_bound(r, &path("upcast"), &what, top.into(), MOST_LEVEL.into());
        }
    }
    let what = format!("{owner}: radius");
    if check_min(r, &path("radius"), what.clone(), s.radius, 0)
        && check_bound(
            r,
            &path("radius"),
            &what,
            s.radius.into(),
            MAX_MEASURE.into(),
        )
    {
        check_range(r, &path("radius"), what, s.radius, 0, 5);
    }
    if let Some(SpellDamage::Dice(d)) = &s.damage {
        check_dice(r, &at, &owner, "damage", d);
    }
    if let SpellEffect::Heal(d) | SpellEffect::Absorb(d) = &s.effect {
        check_dice(r, &at, &owner, "effect", d);
    }
    match s.range {
        Some(Range::Increment(inc)) => {
            check_min(
                r,
                &path("range"),
                format!("{owner}: range increment"),
                inc,
                1,
            );
        }
        Some(Range::Trio(near, far, max)) if !(0 <= near && near <= far && far <= max) => {
            r.error(
                &path("range"),
                format!("{owner}: range ({near}, {far}, {max}) must grow: near ≤ far ≤ max"),
            );
        }
        _ => {}
    }
    if s.kind.saved() && s.save.is_none() {
        r.error(
            &path("kind"),
            format!(
                "{owner}: a {:?} spell needs the attribute its targets save with: save: Some(Con) (V11.3)",
                s.kind
            ),
        );
    }
}

/// A unit's MP and the spells it knows (V11.2): each spell resolves in the
/// catalog.
pub(super) fn check_known_spells(
    r: &mut Report,
    t: &UnitTemplate,
    all: &Catalog,
    at: &[Needle],
    owner: &str,
) {
    let mut path = at.to_vec();
    path.push(Ident("mp"));
    if check_min(r, &path, format!("{owner}: mp"), t.mp, 0) {
        check_bound(
            r,
            &path,
            &format!("{owner}: mp"),
            t.mp.into(),
            MAX_ATTRIBUTE.into(),
        );
    }
    for name in &t.spells {
        if all.spell(name).is_none() {
            let mut p = at.to_vec();
            p.push(Str(name));
            let known: Vec<String> = all
                .spells
                .iter()
                .map(|s| format!("\"{}\"", s.name))
                .collect();
            r.error(
                &p,
                format!(
                    "{owner}: unknown spell \"{name}\" (known: {})",
                    known.join(", ")
                ),
            );
        }
    }
}
