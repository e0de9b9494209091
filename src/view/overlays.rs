//! Tactical overlays: the rules of position drawn on the map, each from the
//! rules' own functions (never recomputed here), each on a key (`1`–`7`)
//! and a button of the toggle bar:
//!
//! 1. reach by movement cost (R5.1);
//! 2. front and rear arcs of the selected unit (R4.1);
//! 3. every enemy's threatened tiles (R4.4), deeper where a step would
//!    provoke now (R8.2, R8.3);
//! 4. range bands of the selected unit's ranged weapon, each labelled with
//!    its modifier (R7.4);
//! 5. the line of effect to the hovered enemy as its supercover tiles, the
//!    tile that gives cover and the creatures that give soft cover (R6);
//! 6. the ally that completes a flank on the hovered enemy, linked to it
//!    (R4.5);
//! 7. the charge line to the hovered enemy (R4.7).
//!
//! Every layer is a plain value ([`Layer`]) computed from the battle, so
//! tests compare it with the rules' answer without a window.

use crate::format::Overlay;

use crate::battle::units;
use crate::battle::{Battlefield, Facing, GridPos, Side, Stats, body_of};
use crate::grid::Pos;
use crate::rules::attacks::resolution::weapon_of;
use crate::rules::modifiers::AttackMode;
use crate::rules::positioning::facing::in_front_arc;
use crate::rules::positioning::threat::threat_of;
use crate::rules::reactions::reactive_attack::watchers;
use crate::rules::rule::Rule;
use crate::rules::sight::cover::best_line;
use crate::rules::sight::line_of_effect::{Cell, supercover};
use crate::rules::sight::range::{max_range, range_modifier};
use bevy::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// The view's side of an overlay: its key and the rule it shows.
impl Overlay {
    /// Its key.
    pub fn key(self) -> KeyCode {
        super::controls::DIGIT_KEYS[self as usize]
    }

    /// The rule it shows.
    pub fn rule(self) -> Rule {
        match self {
            Overlay::Reach => Rule::R5_1,
            Overlay::Arcs => Rule::R4_1,
            Overlay::Threat => Rule::R4_4,
            Overlay::Range => Rule::R7_4,
            Overlay::Line => Rule::R6_1,
            Overlay::Flank => Rule::R4_5,
            Overlay::Charge => Rule::R4_7,
        }
    }
}

/// The overlays switched on.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Overlays(pub BTreeSet<Overlay>);

impl Default for Overlays {
    /// Reach and the overlays of a hovered enemy: they show only what the
    /// next click concerns. The map-wide ones wait for their key.
    fn default() -> Self {
        Overlays(
            [
                Overlay::Reach,
                Overlay::Line,
                Overlay::Flank,
                Overlay::Charge,
            ]
            .into(),
        )
    }
}

/// One overlay's marks: tinted tiles, words on tiles, and links between
/// tiles.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    /// Tiles and their tint.
    pub tiles: Vec<(Pos, Color)>,
    /// Words drawn on a tile (a band's modifier, a soft cover's DV).
    pub labels: Vec<(Pos, String)>,
    /// Lines from tile to tile.
    pub links: Vec<(Pos, Pos, Color)>,
}

impl Layer {
    /// The tiles marked with `color`.
    pub fn tiles_of(&self, color: Color) -> Vec<Pos> {
        self.tiles
            .iter()
            .filter(|(_, c)| *c == color)
            .map(|(p, _)| *p)
            .collect()
    }
}

use crate::art::palette::Palette;
pub use crate::art::palette::tint;

/// How far from the unit the arcs are drawn, in tiles.
pub const ARC_RADIUS: i32 = 3;

fn on_map(world: &World, p: Pos) -> bool {
    world.resource::<Battlefield>().0.map.contains(p)
}

fn pos_of(world: &World, unit: Entity) -> Option<Pos> {
    world.get::<GridPos>(unit).map(|p| p.0)
}

/// R4.1: the tiles within [`ARC_RADIUS`] of `unit` in its front and rear
/// arcs.
pub fn arcs(world: &World, unit: Entity) -> Layer {
    let pal = Palette::in_world(world);
    let mut layer = Layer::default();
    let (Some(at), Some(facing)) = (pos_of(world, unit), world.get::<Facing>(unit)) else {
        return layer;
    };
    for dy in -ARC_RADIUS..=ARC_RADIUS {
        for dx in -ARC_RADIUS..=ARC_RADIUS {
            let p = Pos::new(at.x + dx, at.y + dy);
            if p == at || at.distance(p) > ARC_RADIUS || !on_map(world, p) {
                continue;
            }
            let front = in_front_arc(at, facing.0, p);
            layer
                .tiles
                .push((p, if front { pal.front } else { pal.rear }));
        }
    }
    layer
}

/// R4.4, R8.2: the tiles `unit`'s enemies threaten; deeper where leaving
/// the tile would provoke now (the enemy may react: R8.3).
pub fn threats(world: &World, unit: Entity) -> Layer {
    let pal = Palette::in_world(world);
    let mut layer = Layer::default();
    let Some(side) = world.get::<Side>(unit).copied() else {
        return layer;
    };
    let ready = watchers(world, unit);
    let (w, h) = {
        let map = &world.resource::<Battlefield>().0.map;
        (map.width(), map.height())
    };
    let enemies: Vec<_> = units(world)
        .into_iter()
        .filter(|e| world.get::<Side>(*e).is_some_and(|s| *s != side))
        .filter_map(|e| threat_of(world, e))
        .collect();
    for y in 0..h {
        for x in 0..w {
            let p = Pos::new(x, y);
            if ready.iter().any(|t| t.covers(p)) {
                layer.tiles.push((p, pal.provokes));
            } else if enemies.iter().any(|t| t.covers(p)) {
                layer.tiles.push((p, pal.threat));
            }
        }
    }
    layer
}

/// R7.4: every tile in range of `unit`'s ranged weapon, tinted by what
/// range does to the attack; each band labelled once, where the unit's
/// facing ray first enters it. Empty for a unit with no ranged weapon.
pub fn range_bands(world: &World, unit: Entity) -> Layer {
    let mut layer = Layer::default();
    let (Some(at), Some(facing)) = (pos_of(world, unit), world.get::<Facing>(unit)) else {
        return layer;
    };
    let Ok(weapon) = weapon_of(world, unit, None) else {
        return layer;
    };
    if !weapon.is_ranged() {
        return layer;
    }
    let str = world.get::<Stats>(unit).map_or(0, |s| s.template.str);
    let band = |p: Pos| match range_modifier(&weapon, AttackMode::Ranged, str, at.distance(p)) {
        Some(Ok((advantage, _))) => Some(advantage),
        _ => None,
    };
    let reach = max_range(&weapon);
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let p = Pos::new(at.x + dx, at.y + dy);
            if p == at || !on_map(world, p) {
                continue;
            }
            if let Some(a) = band(p) {
                layer.tiles.push((p, tint::band(a)));
            }
        }
    }
    // Each band is labelled once, along the direction that stays on the
    // map longest (the facing first among equals), where it first enters
    // the band.
    let run = |dir: crate::grid::Dir| {
        let (dx, dy) = dir.delta();
        (1..=reach)
            .take_while(|k| {
                let p = Pos::new(at.x + dx * k, at.y + dy * k);
                on_map(world, p) && band(p).is_some()
            })
            .count()
    };
    let best = std::iter::once(facing.0)
        .chain(crate::grid::Dir::ALL)
        .max_by_key(|d| (run(*d), *d == facing.0))
        .unwrap_or(facing.0);
    let (dx, dy) = best.delta();
    let mut last = None;
    for k in 1..=run(best) as i32 {
        let p = Pos::new(at.x + dx * k, at.y + dy * k);
        let Some(a) = band(p) else { break };
        if last != Some(a) {
            let words = match a {
                0 => "+0".to_string(),
                a if a > 0 => format!("+{a} adv"),
                a => format!("{} dis", -a),
            };
            layer.labels.push((p, words));
            last = Some(a);
        }
    }
    layer
}

/// R6.1–R6.3: the line from `unit` to `target` as its supercover tiles
/// (end tiles excluded), the tile that gives cover and, for a ranged
/// weapon, the creatures on it that give soft cover with their DV.
pub fn line_of_effect(world: &mut World, unit: Entity, target: Entity) -> Layer {
    let mut layer = Layer::default();
    let (Some(a), Some(b)) = (body_of(world, unit), body_of(world, target)) else {
        return layer;
    };
    let ranged = weapon_of(world, unit, None).is_ok_and(|w| w.is_ranged());
    // The line the rules take: between big bodies, the best of their tiles'
    // (V10.6).
    let line = best_line(world, unit, a, target, b, ranged);
    let (from, to, s) = (line.from, line.to, line.sight);
    let pal = Palette::in_world(world);
    let color = if s.clear { pal.line } else { pal.blocked };
    for cell in supercover(from, to) {
        match cell {
            Cell::Tile(p) => layer.tiles.push((p, color)),
            Cell::Corner(a, b) => layer.tiles.extend([(a, color), (b, color)]),
        }
    }
    if let Some(c) = s.cover_at {
        layer.tiles.push((c, tint::COVER));
    }
    for (p, dv) in line.soft {
        layer.tiles.push((p, tint::SOFT_COVER));
        layer.labels.push((p, format!("+{dv} DV")));
    }
    layer.links.push((from, to, color));
    layer
}

/// R4.5: the ally that completes a flank on `target` for `unit` attacking
/// from where it stands, linked to the target.
pub fn flank(world: &World, unit: Entity, target: Entity) -> Layer {
    let mut layer = Layer::default();
    let (Some(from), Some(to)) = (pos_of(world, unit), pos_of(world, target)) else {
        return layer;
    };
    let melee = weapon_of(world, unit, None).is_ok_and(|w| !w.is_ranged());
    if !melee {
        return layer;
    }
    if let Some(ally) =
        crate::rules::positioning::flanking::flank_partner(world, unit, target, from)
        && let Some(at) = pos_of(world, ally)
    {
        layer.tiles.push((at, tint::FLANK));
        layer.links.push((at, to, tint::FLANK));
    }
    layer
}

/// R4.7: the path of a charge at `target`, when the rules allow one.
pub fn charge(world: &mut World, unit: Entity, target: Entity) -> Layer {
    let mut layer = Layer::default();
    let Some(from) = pos_of(world, unit) else {
        return layer;
    };
    if let Ok((path, _)) = crate::rules::motion::charge::charge_plan(world, unit, target) {
        for p in &path {
            layer.tiles.push((*p, tint::CHARGE));
        }
        if let Some(end) = path.last() {
            layer.links.push((from, *end, tint::CHARGE));
        }
    }
    layer
}

/// `top` over `under` (alpha compositing).
pub fn over(top: Color, under: Color) -> Color {
    let (t, u) = (top.to_srgba(), under.to_srgba());
    let a = t.alpha + u.alpha * (1.0 - t.alpha);
    if a <= 0.0 {
        return Color::NONE;
    }
    let mix = |x: f32, y: f32| (x * t.alpha + y * u.alpha * (1.0 - t.alpha)) / a;
    Color::srgba(
        mix(t.red, u.red),
        mix(t.green, u.green),
        mix(t.blue, u.blue),
        a,
    )
}

/// Paints `layer` over `marks`.
pub fn paint(marks: &mut HashMap<Pos, Color>, layer: &Layer) {
    for (p, c) in &layer.tiles {
        let painted = match marks.get(p) {
            Some(under) => over(*c, *under),
            None => *c,
        };
        marks.insert(*p, painted);
    }
}

/// R9.1–R9.4: where a throw of `item` by `unit` at `target` may land: the
/// aimed tile with the chance of a hit, each scatter tile with its exact
/// chance (the map's edge and blocked tiles already accounted for by the
/// rules' scatter), and the splash reach of a splash item around the aimed
/// tile. The chances of the labels sum to 1.
pub fn throw_landing(
    world: &mut World,
    unit: Entity,
    item: &str,
    target: &crate::rules::command::ThrowTarget,
) -> Result<(Layer, crate::rules::throws::throw::ThrowPreview), crate::rules::command::Refusal> {
    let p = crate::rules::throws::throw::preview_throw(world, unit, item, target)?;
    let mut layer = Layer::default();
    let field = world.resource::<Battlefield>().0.clone();
    let radius = field.catalog.item(item).map_or(0, |i| i.splash);
    if radius > 0 {
        for t in crate::rules::throws::throw::splash_tiles(&field.map, p.hit_tile, radius) {
            layer.tiles.push((t, tint::SPLASH));
        }
    }
    layer.tiles.push((p.hit_tile, tint::AIMED));
    let mut aimed = format!("hit {:.0}%", p.hit * 100.0);
    for (t, chance) in &p.scatter {
        if *t == p.hit_tile {
            // A miss that scatters back onto the aimed tile (blocked
            // around it): a second line of the tile's words.
            aimed += &format!("\n+{:.1}%", chance * 100.0);
            continue;
        }
        layer.tiles.push((*t, tint::SCATTER));
        layer.labels.push((*t, format!("{:.1}%", chance * 100.0)));
    }
    layer.labels.push((p.hit_tile, aimed));
    Ok((layer, p))
}

/// The event of the combat log line the player clicked, spotlit on the map.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spotlight(pub Option<usize>);

/// An event's tiles and its units' tiles, spotlit.
pub fn spotlight(world: &World, event: &crate::rules::events::BattleEvent) -> Layer {
    let mut layer = Layer::default();
    let mut tiles = event.tiles();
    tiles.dedup();
    for p in tiles {
        if !layer.tiles.iter().any(|(q, _)| *q == p) {
            layer.tiles.push((p, tint::SPOTLIGHT));
        }
    }
    for id in event.units() {
        let unit = units(world)
            .into_iter()
            .find(|e| world.get::<crate::battle::UnitId>(*e) == Some(&id));
        if let Some(at) = unit.and_then(|u| pos_of(world, u))
            && !layer.tiles.iter().any(|(p, _)| *p == at)
        {
            layer.tiles.push((at, tint::SPOTLIGHT));
        }
    }
    layer
}

/// The words and links of the overlays shown now, for the window to draw.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct OverlayMarks {
    /// Words on tiles.
    pub labels: Vec<(Pos, String)>,
    /// Lines between tiles.
    pub links: Vec<(Pos, Pos, Color)>,
}

/// The window's part: keys and the toggle bar switch overlays (their words
/// and links are drawn by [`super::map_words`]).
pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_toggle_bar).add_systems(
        Update,
        (
            (toggle_by_key, press_toggles).in_set(super::frame::ViewSystems::Input),
            show_toggles.in_set(super::frame::ViewSystems::Draw),
        ),
    );
}

fn toggle(on: &mut Overlays, o: Overlay) {
    if !on.0.remove(&o) {
        on.0.insert(o);
    }
}

fn toggle_by_key(keys: Res<ButtonInput<KeyCode>>, mut on: ResMut<Overlays>) {
    // Shift and a digit arm a spell (the spell bar), not an overlay.
    if keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight) {
        return;
    }
    for o in Overlay::ALL {
        if keys.just_pressed(o.key()) {
            toggle(&mut on, o);
        }
    }
}

/// A button of the toggle bar.
#[derive(Component, Clone, Copy)]
struct Toggle(Overlay);

fn spawn_toggle_bar(mut commands: Commands) {
    commands
        .spawn(Node {
            position_type: PositionType::Absolute,
            bottom: px(4),
            left: px(4),
            column_gap: px(3),
            ..default()
        })
        .with_children(|bar| {
            for o in Overlay::ALL {
                bar.spawn((
                    Button,
                    Toggle(o),
                    super::theme::Cites(o.rule()),
                    Node {
                        padding: UiRect::axes(px(6), px(3)),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.12, 0.14, 0.18)),
                ))
                .with_children(|b| {
                    b.spawn((
                        Text::new(format!("{} {}", o as usize + 1, o.name())),
                        TextFont {
                            font_size: FontSize::Px(12.0),
                            ..default()
                        },
                        TextColor(Color::WHITE),
                    ));
                });
            }
        });
}

fn press_toggles(
    buttons: Query<(&Interaction, &Toggle), Changed<Interaction>>,
    mut on: ResMut<Overlays>,
) {
    for (i, t) in &buttons {
        if *i == Interaction::Pressed {
            toggle(&mut on, t.0);
        }
    }
}

/// Lit buttons for the overlays switched on.
fn show_toggles(on: Res<Overlays>, mut buttons: Query<(&Toggle, &mut BackgroundColor)>) {
    if !on.is_changed() {
        return;
    }
    for (t, mut bg) in &mut buttons {
        bg.0 = if on.0.contains(&t.0) {
            Color::srgb(0.25, 0.42, 0.62)
        } else {
            Color::srgb(0.12, 0.14, 0.18)
        };
    }
}

/// Words on the map with a dark shadow a pixel off, readable over a figure
/// or a bright tile; both spawned with `marker` so they go with the marks
/// they belong to.
pub fn shadowed_words(
    commands: &mut Commands,
    marker: impl Component + Clone,
    at: Vec3,
    words: &str,
    size: f32,
    color: Color,
) {
    for (offset, color) in [
        (Vec3::new(1.0, -1.0, -0.1), Color::srgba(0.0, 0.0, 0.0, 0.9)),
        (Vec3::ZERO, color),
    ] {
        commands.spawn((
            marker.clone(),
            Text2d::new(words),
            TextFont {
                font_size: FontSize::Px(size),
                ..default()
            },
            TextColor(color),
            Transform::from_translation(at + offset),
        ));
    }
}

/// Everything the overlays switched on mark: the map-wide ones (arcs,
/// threat, range) for the `selected` unit, the hovered `enemy`'s (line,
/// flank, charge) for `me`, the unit whose turn it is. Tiles are painted
/// over `marks`; words and links are returned.
pub fn overlay_marks(
    world: &mut World,
    me: Entity,
    selected: Entity,
    enemy: Option<Entity>,
    marks: &mut HashMap<Pos, Color>,
) -> OverlayMarks {
    let on = world
        .get_resource::<Overlays>()
        .cloned()
        .unwrap_or_default();
    let mut out = OverlayMarks::default();
    for o in &on.0 {
        let layer = match (o, enemy) {
            (Overlay::Arcs, _) => arcs(world, selected),
            (Overlay::Threat, _) => threats(world, selected),
            (Overlay::Range, _) => range_bands(world, selected),
            (Overlay::Line, Some(t)) => line_of_effect(world, me, t),
            (Overlay::Flank, Some(t)) => flank(world, me, t),
            (Overlay::Charge, Some(t)) => charge(world, me, t),
            _ => continue,
        };
        paint(marks, &layer);
        out.labels.extend(layer.labels);
        out.links.extend(layer.links);
    }
    out
}
