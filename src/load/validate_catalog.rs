//! Checking catalog entries (FORMAT.md's catalog): every reference
//! resolves, names are unique, numbers are ones the rules can play (the
//! unusual but playable ones are warnings).

use super::locate::{Locator, Needle};
use super::problems::Diagnostic;
use super::report::{Report, check_name, quoted};
use crate::format::{
    Catalog, Dice, Item, Range, Spell, SpellDamage, SpellEffect, UnitTemplate, Weapon,
};
use Needle::{Ident, Named, Str};
use std::collections::BTreeSet;

/// Checks every entry of a catalog file on its own: references resolve in
/// the file or in `others`, and names are unique within the file.
pub(super) fn check_catalog(
    catalog: &Catalog,
    others: &Catalog,
    loc: &Locator,
    file: &str,
) -> Vec<Diagnostic> {
    let mut all = catalog.clone();
    all.extend(others.clone());
    let mut out = check_catalog_refs(catalog, &all, loc, file);
    out.extend(check_catalog_duplicates(&[(file, loc, catalog)]));
    out
}

/// Checks the entries of one catalog file, resolving names in `all`: its
/// errors.
pub(super) fn check_catalog_refs(
    own: &Catalog,
    all: &Catalog,
    loc: &Locator,
    file: &str,
) -> Vec<Diagnostic> {
    check_catalog_entries(own, all, loc, file).0
}

/// The warnings of a catalog file's entries: unusual but playable values.
pub(super) fn catalog_warnings(
    own: &Catalog,
    all: &Catalog,
    loc: &Locator,
    file: &str,
) -> Vec<Diagnostic> {
    check_catalog_entries(own, all, loc, file).1
}

/// The errors and the warnings of a catalog file's entries.
pub(super) fn check_catalog_entries(
    own: &Catalog,
    all: &Catalog,
    loc: &Locator,
    file: &str,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut r = Report {
        file,
        loc,
        out: vec![],
        warnings: vec![],
    };
    check_entries(&mut r, own, all);
    (r.out, r.warnings)
}

/// Names defined twice in one catalog (one file, or several merged in
/// order): each second definition, located in the file that makes it.
pub(super) fn check_catalog_duplicates(sources: &[(&str, &Locator, &Catalog)]) -> Vec<Diagnostic> {
    let mut out = vec![];
    let lists: [(&str, &str, fn(&Catalog) -> Vec<&str>); 6] = [
        ("template", "templates", |c| {
            c.templates.iter().map(|t| t.name.as_str()).collect()
        }),
        ("weapon", "weapons", |c| {
            c.weapons.iter().map(|t| t.name.as_str()).collect()
        }),
        ("armor", "armor", |c| {
            c.armor.iter().map(|t| t.name.as_str()).collect()
        }),
        ("shield", "shields", |c| {
            c.shields.iter().map(|t| t.name.as_str()).collect()
        }),
        ("item", "items", |c| {
            c.items.iter().map(|t| t.name.as_str()).collect()
        }),
        ("spell", "spells", |c| {
            c.spells.iter().map(|t| t.name.as_str()).collect()
        }),
    ];
    for (kind, list, names) in lists {
        let mut seen = BTreeSet::new();
        for (file, loc, catalog) in sources {
            // How often each name was met in this file so far: the n-th
            // definition is the n-th string after the list's name.
            let mut here: Vec<&str> = vec![];
            for n in names(catalog) {
                here.push(n);
                if seen.insert(n) {
                    continue;
                }
                let nth = here.iter().filter(|h| **h == n).count();
                let mut path = vec![Ident(list)];
                path.extend(std::iter::repeat_n(Str(n), nth));
                out.push(Diagnostic {
                    file: file.to_string(),
                    at: Some(loc.locate_near(&path)),
                    message: format!("{kind} {} is defined twice", quoted(n)),
                });
            }
        }
    }
    out
}

/// Checks the entries of `own` (templates, weapons, …), resolving the names
/// their templates use in `all`.
pub(super) fn check_entries(r: &mut Report, own: &Catalog, all: &Catalog) {
    let lists: [(&str, &str, Vec<&str>); 5] = [
        (
            "template",
            "templates",
            own.templates.iter().map(|e| e.name.as_str()).collect(),
        ),
        (
            "weapon",
            "weapons",
            own.weapons.iter().map(|e| e.name.as_str()).collect(),
        ),
        (
            "armor",
            "armor",
            own.armor.iter().map(|e| e.name.as_str()).collect(),
        ),
        (
            "shield",
            "shields",
            own.shields.iter().map(|e| e.name.as_str()).collect(),
        ),
        (
            "item",
            "items",
            own.items.iter().map(|e| e.name.as_str()).collect(),
        ),
    ];
    for (what, list, names) in lists {
        for name in names {
            check_name(r, &[Ident(list), Str(name)], what, name);
        }
    }
    for t in &own.templates {
        check_template(r, t, all, &[Ident("templates"), Str(&t.name)], "");
    }
    for w in &own.weapons {
        check_weapon(r, w);
    }
    for a in &own.armor {
        check_protection(r, "armor", &a.name, a.dv, a.ar);
        // Energy: taken off the wearer's evasion (V5.10).
        let path = [Ident("armor"), Str(&a.name), Ident("penalty")];
        let what = format!("armor \"{}\": penalty", a.name);
        if check_min(r, &path, what.clone(), a.penalty, 0)
            && check_bound(r, &path, &what, a.penalty.into(), MAX_ATTRIBUTE.into())
        {
            check_range(r, &path, what, a.penalty, 0, 6);
        }
    }
    for s in &own.shields {
        check_protection(r, "shield", &s.name, s.dv, s.ar);
        let owner = format!("shield \"{}\"", s.name);
        for (field, value, limit) in [
            ("block", s.block, MAX_ATTRIBUTE),
            ("block_strength", s.block_strength, MAX_MEASURE),
        ] {
            if let Some(v) = value {
                let path = [Ident("shields"), Str(&s.name), Ident(field)];
                check_bound(
                    r,
                    &path,
                    &format!("{owner}: {field}"),
                    v.into(),
                    limit.into(),
                );
            }
        }
    }
    for i in &own.items {
        check_item(r, i);
    }
    for s in &own.spells {
        check_spell(r, s);
    }
}

/// The largest magnitude of an attribute-like number (STR, DEX, CON, WIS,
/// MB, level, a skill, a weapon's attack bonus, parry and crit, a shield's
/// block): past it, the bonuses of one roll sum to more degrees than a
/// preview can walk.
pub const MAX_ATTRIBUTE: i32 = 100;
/// The largest measure (speed, reach, a range or thrown increment, a range
/// trio, a splash radius, a DV, stamina, a block's strength): past it, the
/// rules' products (ten increments of range) and sums could overflow.
pub const MAX_MEASURE: i32 = 1000;
/// The largest pool (HP, AR): past it, HP and AR summed could overflow.
pub const MAX_POOL: i32 = 1_000_000;
/// The largest count (objects carried, a round limit, the rounds of a
/// victory condition).
pub const MAX_COUNT: u32 = 100_000;

/// A number beyond what the rules can play without their arithmetic
/// overflowing (or a preview never ending) is an error, the limit named
/// (FORMAT.md: `check` refuses what the rules cannot play). Returns
/// whether the value is within it.
pub(super) fn check_bound(
    r: &mut Report,
    path: &[Needle],
    what: &str,
    value: i64,
    limit: i64,
) -> bool {
    if value.abs() > limit {
        r.error(
            path,
            format!(
                "{what} is {value}; the rules play numbers up to {limit} here (beyond, their \
                 sums could overflow)"
            ),
        );
        return false;
    }
    true
}

/// A value outside its usual range is a warning: unusual, but the rules
/// play it (FORMAT.md). Only [`check_min`] and [`check_bound`] refuse.
pub(super) fn check_range(
    r: &mut Report,
    path: &[Needle],
    what: String,
    value: i32,
    lo: i32,
    hi: i32,
) {
    if !(lo..=hi).contains(&value) {
        r.warn(
            path,
            format!("{what} is {value}; usually {lo} to {hi} (playable, check it is meant)"),
        );
    }
}

/// A value the rules cannot play below `min` (HP below 1, reach or range
/// increment below 1, negative speed, AR or DV): an error.
pub(super) fn check_min(
    r: &mut Report,
    path: &[Needle],
    what: String,
    value: i32,
    min: i32,
) -> bool {
    if value < min {
        r.error(
            path,
            format!("{what} is {value}; the rules need at least {min}"),
        );
    }
    value >= min
}

/// Checks a unit's numbers and gear. `whose` names the unit for overrides
/// (empty for a template).
pub(super) fn check_template(
    r: &mut Report,
    t: &UnitTemplate,
    all: &Catalog,
    at: &[Needle],
    whose: &str,
) {
    let owner = if whose.is_empty() {
        format!("template \"{}\"", t.name)
    } else {
        format!("unit \"{whose}\"")
    };
    let stat = |f: &'static str| -> Vec<Needle<'static>> { vec![Ident(f)] };
    let path = |field: &'static str| -> Vec<Needle> {
        let mut p = at.to_vec();
        p.extend(stat(field));
        p
    };
    // Each number: within what the rules can play (an error), then
    // within its usual range (a warning).
    let number = |r: &mut Report, field: &'static str, value: i32, limit, usual: (i32, i32)| {
        let what = format!("{owner}: {field}");
        if check_bound(r, &path(field), &what, value.into(), limit) {
            check_range(r, &path(field), what, value, usual.0, usual.1);
        }
    };
    let attribute = i64::from(MAX_ATTRIBUTE);
    for (field, value) in [
        ("str", t.str),
        ("dex", t.dex),
        ("con", t.con),
        ("wis", t.wis),
    ] {
        number(r, field, value, attribute, (-5, 5));
    }
    number(r, "level", t.level, attribute, (1, 20));
    number(r, "mb", t.mb, attribute, (0, 20));
    if check_min(r, &path("speed"), format!("{owner}: speed"), t.speed, 0) {
        number(r, "speed", t.speed, MAX_MEASURE.into(), (0, 30));
    }
    if check_min(r, &path("hp"), format!("{owner}: hp"), t.hp, 1) {
        number(r, "hp", t.hp, MAX_POOL.into(), (1, 999));
    }
    number(r, "stamina", t.stamina, MAX_MEASURE.into(), (0, 99));
    // Agility each round under Energy (V5.4).
    if check_min(
        r,
        &path("agility"),
        format!("{owner}: agility"),
        t.agility,
        0,
    ) {
        number(r, "agility", t.agility, MAX_ATTRIBUTE.into(), (0, 6));
    }
    for (skill, v) in &t.skills {
        let what = format!("{owner}: skill {skill:?}");
        if check_bound(r, &path("skills"), &what, (*v).into(), attribute) {
            check_range(r, &path("skills"), what, *v, -5, 20);
        }
    }
    // A unit's dice are checked where they are written: the template's
    // here, a unit's own `stats: (dice: …)` by the level.
    if whose.is_empty() {
        check_unit_dice(r, &t.dice, &path("dice"), &owner);
    }
    check_known_spells(r, t, all, at, &owner);
    for w in &t.weapons {
        if all.weapon(w).is_none() {
            let mut p = at.to_vec();
            p.push(Str(w));
            r.error(&p, format!("{owner}: unknown weapon \"{w}\""));
        }
    }
    if let Some(a) = &t.armor
        && all.armor(a).is_none()
    {
        let mut p = at.to_vec();
        p.push(Str(a));
        r.error(&p, format!("{owner}: unknown armor \"{a}\""));
    }
    if let Some(s) = &t.shield
        && all.shield(s).is_none()
    {
        let mut p = at.to_vec();
        p.push(Str(s));
        r.error(&p, format!("{owner}: unknown shield \"{s}\""));
    }
    for (item, count) in &t.items {
        let mut p = at.to_vec();
        p.push(Str(item));
        if all.item(item).is_none() && all.weapon(item).is_none() {
            r.error(&p, format!("{owner}: unknown item \"{item}\""));
        } else if *count == 0 {
            r.error(
                &p,
                format!("{owner}: carries 0 of \"{item}\" (leave it out)"),
            );
        } else {
            let what = format!("{owner}: the count of \"{item}\"");
            check_bound(r, &p, &what, (*count).into(), MAX_COUNT.into());
        }
    }
}

/// V6.2: a unit's dice are sizes of the ladder (V6.1), each refused at its
/// field under `at` (the `dice` of a template or a unit's `stats`).
pub(super) fn check_unit_dice(
    r: &mut Report,
    dice: &crate::format::UnitDice,
    at: &[Needle],
    owner: &str,
) {
    for (field, sides) in dice.given() {
        if !crate::format::DIE_LADDER.contains(&sides) {
            let mut p = at.to_vec();
            p.push(Ident(field));
            r.error(
                &p,
                format!(
                    "{owner}: dice {field} is d{sides}; die ranks (V6.1) roll d2, d4, d6, d8, \
                     d10 or d12"
                ),
            );
        }
    }
}

pub(super) fn check_dice(r: &mut Report, path: &[Needle], owner: &str, field: &str, dice: &Dice) {
    if let Some(e) = dice.error() {
        let mut p = path.to_vec();
        p.push(Str(dice.text()));
        r.error(
            &p,
            format!("{owner}: malformed dice {field} \"{}\": {e}", dice.text()),
        );
    }
}

pub(super) fn check_weapon(r: &mut Report, w: &Weapon) {
    let owner = format!("weapon \"{}\"", w.name);
    let at = [Ident("weapons"), Str(&w.name)];
    let path = |f| [Ident("weapons"), Str(&w.name), Ident(f)];
    check_dice(r, &at, &owner, "damage", &w.damage);
    let measure = i64::from(MAX_MEASURE);
    let attribute = i64::from(MAX_ATTRIBUTE);
    let bounded = |r: &mut Report, field: &'static str, what: &str, value: i32, limit| {
        check_bound(r, &path(field), what, value.into(), limit)
    };
    let what = format!("{owner}: reach");
    if check_min(r, &path("reach"), what.clone(), w.reach, 1)
        && bounded(r, "reach", &what, w.reach, measure)
    {
        check_range(r, &path("reach"), what, w.reach, 1, 5);
    }
    let what = format!("{owner}: crit");
    if check_bound(r, &path("crit"), &what, w.crit.into(), attribute) {
        check_range(r, &path("crit"), what, w.crit, 2, 20);
    }
    let what = format!("{owner}: attack_bonus");
    if bounded(r, "attack_bonus", &what, w.attack_bonus, attribute) {
        check_range(r, &path("attack_bonus"), what, w.attack_bonus, -10, 10);
    }
    bounded(r, "parry", &format!("{owner}: parry"), w.parry, attribute);
    // Energy's Accuracy and Load (V5.10, V5.5).
    if let Some(a) = w.accuracy {
        bounded(r, "accuracy", &format!("{owner}: accuracy"), a, attribute);
    }
    if let Some(l) = w.load {
        let what = format!("{owner}: load");
        if check_min(r, &path("load"), what.clone(), l, 0)
            && bounded(r, "load", &what, l, attribute)
        {
            check_range(r, &path("load"), what, l, 0, 4);
        }
    }
    if let Some(inc) = w.thrown {
        let what = format!("{owner}: thrown increment");
        if check_min(r, &path("thrown"), what.clone(), inc, 1)
            && bounded(r, "thrown", &what, inc, measure)
        {
            check_range(r, &path("thrown"), what, inc, 1, 20);
        }
    }
    match w.range {
        Some(Range::Increment(inc)) => {
            let what = format!("{owner}: range increment");
            if check_min(r, &path("range"), what.clone(), inc, 1)
                && bounded(r, "range", &what, inc, measure)
            {
                check_range(r, &path("range"), what, inc, 1, 50);
            }
        }
        Some(Range::Trio(near, far, max)) => {
            let what = format!("{owner}: range Trio({near}, {far}, {max}) maximum");
            let within = [near, far, max]
                .into_iter()
                .all(|v| bounded(r, "range", &format!("{owner}: range Trio"), v, measure));
            if within
                && check_min(r, &path("range"), what, max, 1)
                && !(0 <= near && near <= far && far <= max && max <= 500)
            {
                r.warn(
                    &path("range"),
                    format!(
                        "{owner}: range Trio({near}, {far}, {max}) is usually \
                         0 <= near <= far <= max <= 500 (playable, check it is meant)"
                    ),
                );
            }
        }
        None => {}
    }
}

pub(super) fn check_protection(r: &mut Report, kind: &str, name: &str, dv: i32, ar: i32) {
    let list = if kind == "armor" { "armor" } else { "shields" };
    let owner = format!("{kind} \"{name}\"");
    for (field, value, usual, limit) in [("dv", dv, 10, MAX_MEASURE), ("ar", ar, 50, MAX_POOL)] {
        let path = [Ident(list), Str(name), Ident(field)];
        let what = format!("{owner}: {field}");
        if check_min(r, &path, what.clone(), value, 0)
            && check_bound(r, &path, &what, value.into(), limit.into())
        {
            check_range(r, &path, what, value, 0, usual);
        }
    }
}

pub(super) fn check_item(r: &mut Report, i: &Item) {
    let owner = format!("item \"{}\"", i.name);
    let at = [Ident("items"), Str(&i.name)];
    if let Some(d) = &i.damage {
        check_dice(r, &at, &owner, "damage", d);
    }
    if let Some(h) = &i.heal {
        check_dice(r, &at, &owner, "heal", h);
    }
    let splash = [Ident("items"), Str(&i.name), Ident("splash")];
    let what = format!("{owner}: splash");
    if check_bound(r, &splash, &what, i.splash.into(), MAX_MEASURE.into()) {
        check_range(r, &splash, what, i.splash, 0, 5);
    }
    if let Some(inc) = i.thrown {
        let path = [Ident("items"), Str(&i.name), Ident("thrown")];
        let what = format!("{owner}: thrown increment");
        if check_min(r, &path, what.clone(), inc, 1)
            && check_bound(r, &path, &what, inc.into(), MAX_MEASURE.into())
        {
            check_range(r, &path, what, inc, 1, 20);
        }
    }
}

/// The highest cast level a spell may reach: its MP cost, Fib(level + 1),
/// stays far below overflow (V11.2).
const MOST_LEVEL: i32 = 20;

/// A spell's numbers (V11.2–V11.6): its level, upcast, radius, dice and
/// range, each where it is written.
pub(super) fn check_spell(r: &mut Report, s: &Spell) {
    let owner = format!("spell \"{}\"", s.name);
    let path = |f| [Ident("spells"), Named(&s.name), Ident(f)];
    let at = [Ident("spells"), Named(&s.name)];
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
                "{owner}: kind {:?} is resolved by saves: give the attribute its targets save with, save: Some(Con) (V11.3)",
                s.kind
            ),
        );
    }
    check_spell_shape(r, s, &owner);
}

/// What a spell's kind, keywords and effect must agree on: a field or
/// zone acts on whoever sets it off, so it is no attack on one unit nor a
/// reaction (V11.6); a Defense spell absorbs (V11.3 SD); a duration is a
/// field's or a zone's (V11.6).
fn check_spell_shape(r: &mut Report, s: &Spell, owner: &str) {
    use crate::format::{Keyword, SpellKind};
    let path = |f| [Ident("spells"), Named(&s.name), Ident(f)];
    let ground = s.has(Keyword::Field) || s.has(Keyword::Zone);
    if ground && matches!(s.kind, SpellKind::Projectile | SpellKind::Defense) {
        r.error(
            &path("keywords"),
            format!(
                "{owner}: a field or zone acts on whoever enters it, so it cannot be a {:?} spell: \
                 make it Attack, Determined, DeterminedPlus or Surecast (V11.6)",
                s.kind
            ),
        );
    }
    if s.kind == SpellKind::Defense && !matches!(s.effect, SpellEffect::Absorb(_)) {
        r.error(
            &path("effect"),
            format!(
                "{owner}: a Defense spell absorbs part of a hit: effect: Absorb(\"1d6\") (V11.3)"
            ),
        );
    }
    if s.duration.is_some() && !ground {
        r.error(
            &path("duration"),
            format!(
                "{owner}: only a field or a zone lasts rounds: keywords: [Field] or [Zone] (V11.6)"
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
