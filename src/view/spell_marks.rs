//! Spells on the map (V11): the fields and zones lying there, for as long
//! as the events played so far say they last (V11.6), glowing; and the
//! motion of a cast: an orb from the caster to the tile aimed at and a
//! flare over the area it reaches, a ward's flare over its caster (V11.3
//! SD), a grip's frost over its target (V11.4). Concentration and grips
//! are the units' condition icons ([`super::units`]).

use super::coords::{Grid, TILE};
use super::playback::{Passing, Played, Shown};
use crate::battle::{Battlefield, UnitId};
use crate::grid::Pos;
use crate::rules::board::FieldView;
use crate::rules::events::{BattleEvent, SpellEvent};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            draw_fields,
            glow_fields,
            start_spell_motion.after(super::playback::play_events),
            fly_orbs,
            fade_flares,
        )
            .in_set(super::frame::ViewSystems::Animate),
    );
}

/// A tile of a field or zone drawn.
#[derive(Component)]
struct FieldTile {
    /// Its tint at full glow.
    color: Color,
}

/// A field's or zone's name over it.
#[derive(Component)]
struct FieldName;

/// Fields over the map, under the units.
const FIELD_Z: f32 = 0.5;
/// Orbs and flares over the units.
const SPELL_Z: f32 = 15.5;

/// The tint of a field (it acts on each tile entered): embers.
const FIELD_TINT: Color = Color::srgba(1.0, 0.45, 0.0, 0.72);
/// The tint of a zone (it acts once on coming in): violet.
const ZONE_TINT: Color = Color::srgba(0.6, 0.35, 1.0, 0.38);

/// Draws the fields the shown board has, anew when they change.
fn draw_fields(
    shown: Res<Shown>,
    grid: Option<Res<Grid>>,
    old: Query<Entity, Or<(With<FieldTile>, With<FieldName>)>>,
    mut drawn: Local<Vec<FieldView>>,
    mut commands: Commands,
) {
    let Some(grid) = grid else { return };
    if *drawn == shown.board.fields {
        return;
    }
    *drawn = shown.board.fields.clone();
    for e in &old {
        commands.entity(e).despawn();
    }
    for f in &shown.board.fields {
        let color = if f.zone { ZONE_TINT } else { FIELD_TINT };
        for t in &f.tiles {
            commands.spawn((
                FieldTile { color },
                Sprite::from_color(color, Vec2::splat(TILE * 0.96)),
                Transform::from_translation(grid.world(*t).extend(FIELD_Z)),
            ));
        }
        // Its name on its middle tile, low, so the unit there stays seen.
        if let Some(mid) = middle(&f.tiles) {
            commands.spawn((
                FieldName,
                Text2d::new(f.spell.clone()),
                TextFont {
                    font_size: FontSize::Px(11.0),
                    ..default()
                },
                TextColor(Color::srgb(1.0, 0.92, 0.75)),
                Transform::from_translation(
                    (grid.world(mid) - Vec2::Y * TILE * 0.36).extend(FIELD_Z + 0.1),
                ),
            ));
        }
    }
}

/// The tile in the middle of `tiles` (the one aimed at, for a round area).
fn middle(tiles: &[Pos]) -> Option<Pos> {
    let n = tiles.len() as i32;
    if n == 0 {
        return None;
    }
    let (x, y) = tiles.iter().fold((0, 0), |(x, y), p| (x + p.x, y + p.y));
    let centre = Pos::new(x / n, y / n);
    tiles.iter().copied().min_by_key(|p| p.distance(centre))
}

/// Fields breathe: their tint rises and falls, slowly, but never below
/// four fifths of it, so that at its faintest a field under the blue reach
/// overlay still reads as fire, not as the violet of a zone. (The window
/// test's screenshot lands at whatever moment of the breath it lands.)
fn glow_fields(time: Res<Time>, mut tiles: Query<(&FieldTile, &mut Sprite)>) {
    let k = 0.9 + 0.1 * (time.elapsed_secs() * 2.4).sin();
    for (f, mut s) in &mut tiles {
        s.color = f.color.with_alpha(f.color.alpha() * k);
    }
}

/// An orb flying from a caster to the tile aimed at, then flaring over
/// the tiles the spell reaches.
#[derive(Component)]
struct Orb {
    from: Vec2,
    to: Vec2,
    area: Vec<Vec2>,
    clock: Timer,
}

/// A flare over a tile: fades.
#[derive(Component)]
struct Flare {
    clock: Timer,
    alpha: f32,
}

/// The violet of spells.
const ARCANE: Color = Color::srgb(0.75, 0.5, 1.0);

/// The motion of each spell event played.
fn start_spell_motion(
    mut played: MessageReader<Played>,
    grid: Option<Res<Grid>>,
    field: Option<Res<Battlefield>>,
    shown: Res<Shown>,
    mut commands: Commands,
) {
    let Some(grid) = grid else {
        played.clear();
        return;
    };
    let at_unit = |id: UnitId| shown.board.unit(id).map(|u| grid.world(u.at));
    for p in played.read() {
        let BattleEvent::Spell(e) = &p.event else {
            continue;
        };
        let speed = p.speed.max(0.01);
        match e {
            SpellEvent::Cast {
                unit, spell, at, ..
            } => {
                let Some(from) = at_unit(*unit) else {
                    continue;
                };
                let radius = field
                    .as_ref()
                    .and_then(|f| f.0.catalog.spell(spell))
                    .map_or(0, |s| s.radius);
                let area = field.as_ref().map_or(vec![*at], |f| {
                    crate::rules::throws::throw::splash_tiles(&f.0.map, *at, radius)
                });
                commands.spawn((
                    Passing,
                    Orb {
                        from,
                        to: grid.world(*at),
                        area: area.iter().map(|t| grid.world(*t)).collect(),
                        clock: Timer::from_seconds(0.35 / speed, TimerMode::Once),
                    },
                    Sprite::from_color(ARCANE, Vec2::splat(TILE * 0.28)),
                    Transform::from_translation(from.extend(SPELL_Z)),
                ));
            }
            SpellEvent::Warded { unit, absorb, .. } => {
                if let Some(p) = at_unit(*unit) {
                    // A held ward shines bright, a failed one barely.
                    let alpha = if absorb.is_some() { 0.8 } else { 0.3 };
                    let color = Color::srgb(0.55, 0.85, 1.0);
                    flare(&mut commands, p, TILE * 0.9, color, alpha, 0.45 / speed);
                }
            }
            SpellEvent::Gripped { unit, .. } => {
                if let Some(p) = at_unit(*unit) {
                    let color = Color::srgb(0.8, 0.95, 1.0);
                    flare(&mut commands, p, TILE, color, 0.7, 0.6 / speed);
                }
            }
            _ => {}
        }
    }
}

/// A square flare of `size` over `at`, fading over `seconds`.
fn flare(commands: &mut Commands, at: Vec2, size: f32, color: Color, alpha: f32, seconds: f32) {
    commands.spawn((
        Passing,
        Flare {
            clock: Timer::from_seconds(seconds.max(0.001), TimerMode::Once),
            alpha,
        },
        Sprite::from_color(color.with_alpha(alpha), Vec2::splat(size)),
        Transform::from_translation(at.extend(SPELL_Z)),
    ));
}

/// Orbs fly, spinning, and flare over their area as they arrive.
fn fly_orbs(
    time: Res<Time>,
    mut orbs: Query<(Entity, &mut Orb, &mut Transform)>,
    mut commands: Commands,
) {
    for (e, mut orb, mut t) in &mut orbs {
        orb.clock.tick(time.delta());
        let k = orb.clock.fraction().clamp(0.0, 1.0);
        let lift = (k * std::f32::consts::PI).sin() * TILE * 0.3;
        t.translation = (orb.from.lerp(orb.to, k) + Vec2::Y * lift).extend(SPELL_Z);
        t.rotation = Quat::from_rotation_z(orb.clock.elapsed_secs() * 14.0);
        t.scale = Vec3::splat(1.0 + 0.4 * k);
        if orb.clock.is_finished() {
            for p in &orb.area {
                flare(&mut commands, *p, TILE * 0.96, ARCANE, 0.65, 0.5);
            }
            commands.entity(e).despawn();
        }
    }
}

/// Flares fade.
fn fade_flares(
    time: Res<Time>,
    mut flares: Query<(Entity, &mut Flare, &mut Sprite)>,
    mut commands: Commands,
) {
    for (e, mut f, mut s) in &mut flares {
        f.clock.tick(time.delta());
        let k = f.clock.fraction().clamp(0.0, 1.0);
        s.color.set_alpha(f.alpha * (1.0 - k));
        if f.clock.is_finished() {
            commands.entity(e).despawn();
        }
    }
}
