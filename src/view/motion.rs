//! Motion: what each [`Played`] event does on the map, at the playback's
//! speed. A unit walks its path tile by tile with a step's bob and turns as
//! it goes (R5.1); a melee attacker lunges, a shot flies as an arrow, a
//! bolt or a stone, a throw as what was thrown (R7, R9); a hit flashes and
//! nudges its target away from the blow with a burst, a miss whiffs past
//! as the target sways aside, a parry clangs (R8.6, V2); a unit that falls
//! topples (R4.8, R10.1), one that gets up rises; the dead fade to their
//! corpse marker.
//!
//! Nothing here decides anything: it reads what was played and the
//! figures' own state ([`Figure`]), and moves sprites.

use super::coords::{Grid, TILE};
use super::playback::{Passing, Played, Shown, UnitSprite, duration};
use super::units::{Detail, Fade, Figure, Layer, Part, SideTint, pose, seat_translation};
use crate::art::figures::{self, Figures, Missile};
use crate::battle::{Battlefield, UnitId};
use crate::rules::events::BattleEvent;
use crate::rules::modifiers::AttackMode;
use bevy::prelude::*;
use std::f32::consts::PI;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        start_motion
            .in_set(super::frame::ViewSystems::Animate)
            .after(super::playback::play_events),
    )
    .add_systems(
        Update,
        (
            place_units,
            pose_figures,
            color_units,
            fly_missiles,
            fade_bursts,
        )
            .in_set(super::frame::ViewSystems::Draw),
    );
}

/// A unit walking from one tile to the next (R5.1).
#[derive(Component, Clone, Debug)]
pub struct Walk {
    from: Vec2,
    to: Vec2,
    clock: Timer,
}

/// A melee attacker's lunge toward what it strikes (R7).
#[derive(Component, Clone, Debug)]
pub struct Lunge {
    toward: Vec2,
    clock: Timer,
}

/// A unit pushed by a blow (away from it) or swaying aside from a miss.
#[derive(Component, Clone, Debug)]
pub struct Nudge {
    toward: Vec2,
    reach: f32,
    clock: Timer,
}

/// A hit's flash over a unit's figure.
#[derive(Component, Clone, Debug)]
pub struct Flash {
    clock: Timer,
}

/// A figure moving to a new pose: toppling, rising, turning round.
#[derive(Component, Clone, Debug)]
struct PoseTween {
    from: Transform,
    clock: Timer,
}

/// A missile in flight: to its target and, if it missed, on past it.
#[derive(Component, Clone, Debug)]
struct Flight {
    waypoints: Vec<Vec2>,
    clock: Timer,
    points: bool,
    /// Fades over its last leg (a miss flying on).
    fades: bool,
}

/// A burst, a swoosh or a clang: grows a little and fades.
#[derive(Component, Clone, Debug)]
struct Burst {
    clock: Timer,
}

/// Missiles and bursts over the units and their labels, under the words.
const EFFECT_Z: f32 = 15.0;

/// A figure (its sprite entity and where it stands) walks to `to` over
/// `event`'s moment at `speed`.
fn walk_to(
    commands: &mut Commands,
    sprite: Option<(Entity, &UnitSprite, &Transform)>,
    to: Vec2,
    event: &BattleEvent,
    speed: f32,
) {
    if let Some((e, _, t)) = sprite {
        commands.entity(e).insert(Walk {
            from: t.translation.truncate(),
            to,
            clock: once(duration(event) / speed.max(0.01)),
        });
    }
}

/// Starts the motion of each event played.
fn start_motion(
    mut played: MessageReader<Played>,
    grid: Option<Res<Grid>>,
    shown: Res<Shown>,
    field: Option<Res<Battlefield>>,
    figures: Option<Res<Figures>>,
    sprites: Query<(Entity, &UnitSprite, &Transform)>,
    mut commands: Commands,
) {
    let (Some(grid), Some(figures)) = (grid, figures) else {
        played.clear();
        return;
    };
    let sprite_of = |unit: UnitId| sprites.iter().find(|(_, s, _)| s.0 == unit);
    let at = |unit: UnitId| shown.board.unit(unit).map(|u| grid.body(u.at, u.n));
    let n_of = |unit: UnitId| shown.board.unit(unit).map_or(1, |u| u.n);
    let at_of = at;
    for Played { event, speed } in played.read() {
        let seconds = |base: f32| base / speed.max(0.01);
        match event {
            // A step walks; a push or a drag moves a unit (two, for a
            // drag) without steps of its own (V7), walked the same way.
            // A mounted pair walks as one (V12.1).
            BattleEvent::Stepped { unit, to, .. } | BattleEvent::Shoved { unit, to, .. } => {
                let pair = shown.board.unit(*unit).and_then(|u| u.pair);
                for who in std::iter::once(*unit).chain(pair) {
                    let seat = seat_translation(&grid, &shown.board, who, *to).truncate();
                    walk_to(&mut commands, sprite_of(who), seat, event, *speed);
                }
            }
            BattleEvent::Dragged {
                unit,
                to,
                target,
                target_to,
                ..
            } => {
                for (who, tile) in [(unit, to), (target, target_to)] {
                    walk_to(
                        &mut commands,
                        sprite_of(*who),
                        grid.body(*tile, n_of(*who)),
                        event,
                        *speed,
                    );
                }
            }
            // A disarmed weapon flies from the target's hands (V7.5).
            BattleEvent::Disarmed {
                unit, weapon, at, ..
            } => {
                let catalog = field.as_ref().map(|f| &f.0.catalog);
                let missile =
                    Missile::thrown(weapon, catalog.and_then(|c| c.weapon(weapon)), false);
                if let Some(from) = at_of(*unit) {
                    fly(
                        &mut commands,
                        &figures,
                        missile,
                        vec![from, grid.world(*at)],
                        seconds(duration(event)),
                        false,
                    );
                }
            }
            BattleEvent::AttackRolled(a) => {
                let from = grid.world(a.from);
                let target = grid.world(a.at);
                let toward = (target - from).normalize_or_zero();
                let weapon = field.as_ref().and_then(|f| f.0.catalog.weapon(&a.weapon));
                // A miss: the target sways aside (a throw's miss scatters
                // with its flight instead).
                if a.degrees == 0 && a.mode != AttackMode::Thrown {
                    whiff(
                        &mut commands,
                        &figures,
                        a.target,
                        &sprite_of,
                        toward,
                        seconds(0.3),
                    );
                }
                match a.mode {
                    AttackMode::Melee => {
                        if let Some((e, ..)) = sprite_of(a.attacker) {
                            commands.entity(e).insert(Lunge {
                                toward,
                                clock: once(seconds(0.25)),
                            });
                        }
                    }
                    AttackMode::Ranged => {
                        let missile = Missile::shot(weapon);
                        let mut waypoints = vec![from, target];
                        if a.degrees == 0 {
                            // A miss flies on past the target.
                            waypoints.push(target + toward * TILE * 1.5);
                        }
                        let fades = a.degrees == 0;
                        let legs = (waypoints.len() - 1) as f32;
                        fly(
                            &mut commands,
                            &figures,
                            missile,
                            waypoints,
                            seconds(0.3 * legs),
                            fades,
                        );
                    }
                    // A throw flies with its ThrowFlight.
                    AttackMode::Thrown => {}
                }
            }
            BattleEvent::ThrowFlight {
                object,
                from,
                aimed,
                landing,
                ..
            } => {
                let catalog = field.as_ref().map(|f| &f.0.catalog);
                let weapon = catalog.and_then(|c| c.weapon(object));
                let splash = catalog
                    .and_then(|c| c.item(object))
                    .is_some_and(|i| i.splash > 0);
                let missile = Missile::thrown(object, weapon, splash);
                let mut waypoints = vec![grid.world(*from), grid.world(*aimed)];
                if landing != aimed {
                    waypoints.push(grid.world(*landing));
                }
                let legs = (waypoints.len() - 1) as f32;
                fly(
                    &mut commands,
                    &figures,
                    missile,
                    waypoints,
                    seconds(0.35 * legs),
                    false,
                );
            }
            BattleEvent::Damaged { unit, source, .. } => {
                let Some((e, _, t)) = sprite_of(*unit) else {
                    continue;
                };
                let away = at(*source)
                    .map(|s| (t.translation.truncate() - s).normalize_or_zero())
                    .unwrap_or(Vec2::Y);
                commands.entity(e).insert((
                    Flash {
                        clock: once(seconds(0.3)),
                    },
                    Nudge {
                        toward: away,
                        reach: TILE * 0.18,
                        clock: once(seconds(0.3)),
                    },
                ));
                burst(
                    &mut commands,
                    &figures,
                    figures::SPARK,
                    t.translation.truncate() + Vec2::Y * TILE * 0.1,
                    seconds(0.25),
                );
            }
            BattleEvent::Parried { unit, .. }
            | BattleEvent::Guarded {
                unit,
                success: true,
                ..
            } => {
                if let Some(p) = at(*unit) {
                    burst(
                        &mut commands,
                        &figures,
                        figures::CLANG,
                        p + Vec2::Y * TILE * 0.15,
                        seconds(0.3),
                    );
                }
            }
            BattleEvent::Died { unit } => {
                if let Some((e, ..)) = sprite_of(*unit) {
                    commands.entity(e).insert(Fade {
                        clock: once(seconds(0.6)),
                    });
                }
            }
            _ => {}
        }
    }
}

/// A missile from `waypoints[0]` along the rest, in `seconds`.
fn fly(
    commands: &mut Commands,
    figures: &Figures,
    missile: Missile,
    waypoints: Vec<Vec2>,
    seconds: f32,
    fades: bool,
) {
    let start = waypoints[0];
    commands.spawn((
        Passing,
        Flight {
            waypoints,
            clock: once(seconds),
            points: missile.points(),
            fades,
        },
        figures.sprite(missile.cell(), TILE * 0.8),
        Transform::from_translation(start.extend(EFFECT_Z)),
    ));
}

/// A burst (cell `index` of the figure sheet) at `at`, for `seconds`.
fn burst(commands: &mut Commands, figures: &Figures, index: usize, at: Vec2, seconds: f32) {
    commands.spawn((
        Passing,
        Burst {
            clock: once(seconds),
        },
        figures.sprite(index, TILE * 0.6),
        Transform::from_translation(at.extend(EFFECT_Z)),
    ));
}

/// A miss: the target sways aside and a swoosh passes it.
fn whiff<'a>(
    commands: &mut Commands,
    figures: &Figures,
    target: Option<UnitId>,
    sprite_of: &impl Fn(UnitId) -> Option<(Entity, &'a UnitSprite, &'a Transform)>,
    toward: Vec2,
    seconds: f32,
) {
    let Some((e, _, t)) = target.and_then(sprite_of) else {
        return;
    };
    let aside = Vec2::new(-toward.y, toward.x);
    commands.entity(e).insert(Nudge {
        toward: aside,
        reach: TILE * 0.15,
        clock: once(seconds),
    });
    let at = t.translation.truncate() + aside * TILE * 0.3;
    commands.spawn((
        Passing,
        Burst {
            clock: once(seconds),
        },
        figures.sprite(figures::WHIFF, TILE * 0.7),
        Transform::from_translation(at.extend(EFFECT_Z))
            .with_rotation(Quat::from_rotation_z(toward.to_angle())),
    ));
}

/// A clock that runs once for `seconds` (Bevy's timer: its fraction
/// gone and whether it is over are what every motion asks).
fn once(seconds: f32) -> Timer {
    Timer::from_seconds(seconds.max(0.001), TimerMode::Once)
}

/// Eases in and out.
fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Each unit where the shown board has it: walking between tiles,
/// lunging, nudged; else gliding to its tile (a fall back, a shift).
fn place_units(
    time: Res<Time>,
    shown: Option<Res<Shown>>,
    grid: Option<Res<Grid>>,
    mut units: Query<(
        Entity,
        &UnitSprite,
        &mut Transform,
        Option<&mut Walk>,
        Option<&mut Lunge>,
        Option<&mut Nudge>,
    )>,
    mut commands: Commands,
) {
    let (Some(shown), Some(grid)) = (shown, grid) else {
        return;
    };
    let dt = time.delta_secs();
    for (entity, sprite, mut t, walk, lunge, nudge) in &mut units {
        let Some(u) = shown.board.unit(sprite.0) else {
            continue;
        };
        let home = seat_translation(&grid, &shown.board, sprite.0, u.at);
        let mut at = match walk {
            Some(mut w) => {
                w.clock.tick(time.delta());
                let p = w.from.lerp(w.to, ease(w.clock.fraction()));
                if w.clock.is_finished() {
                    commands.entity(entity).remove::<Walk>();
                }
                p
            }
            None => t
                .translation
                .truncate()
                .lerp(home.truncate(), (dt * 14.0).min(1.0)),
        };
        // The lunge and the nudge are offsets: the unit comes back.
        let mut offset = Vec2::ZERO;
        if let Some(mut l) = lunge {
            l.clock.tick(time.delta());
            offset += l.toward * (l.clock.fraction() * PI).sin().max(0.0) * TILE * 0.3;
            if l.clock.is_finished() {
                commands.entity(entity).remove::<Lunge>();
            }
        }
        if let Some(mut n) = nudge {
            n.clock.tick(time.delta());
            offset += n.toward * (n.clock.fraction() * PI).sin().max(0.0) * n.reach;
            if n.clock.is_finished() {
                commands.entity(entity).remove::<Nudge>();
            }
        }
        at += offset;
        // The row's z at once: a unit walking south is drawn over the row
        // it enters.
        t.translation = at.extend(home.z);
    }
}

/// Each figure in its pose (see [`pose`]): moving to a new one when it
/// changes (toppling, rising, turning round), bobbing as it walks.
fn pose_figures(
    time: Res<Time>,
    units: Query<(Option<&Walk>, &Children), With<UnitSprite>>,
    mut figures_q: Query<(Entity, Ref<Figure>, &mut Transform, Option<&mut PoseTween>)>,
    mut commands: Commands,
) {
    for (walk, children) in &units {
        for child in children.iter() {
            let Ok((entity, figure, mut t, tween)) = figures_q.get_mut(child) else {
                continue;
            };
            let mut target = Transform::from_translation(t.translation);
            pose(&figure, &mut target);
            let mut now = target;
            if figure.is_changed() && !figure.is_added() {
                commands.entity(entity).insert(PoseTween {
                    from: *t,
                    clock: once(if figure.lying { 0.35 } else { 0.2 }),
                });
                now = *t;
            } else if let Some(mut tw) = tween {
                tw.clock.tick(time.delta());
                let k = ease(tw.clock.fraction());
                now.translation = tw.from.translation.lerp(target.translation, k);
                now.rotation = tw.from.rotation.slerp(target.rotation, k);
                now.scale = tw.from.scale.lerp(target.scale, k);
                if tw.clock.is_finished() {
                    commands.entity(entity).remove::<PoseTween>();
                }
            }
            if let Some(w) = walk {
                now.translation.y += (w.clock.fraction() * PI).sin().abs() * 2.5;
            }
            *t = now;
        }
    }
}

/// A hit's flash and a death's fade on the figure's layers; the corpse
/// marker showing as the figure goes.
fn color_units(
    time: Res<Time>,
    detail: Res<Detail>,
    mut units: Query<
        (
            Entity,
            &SideTint,
            &Children,
            Option<&mut Flash>,
            Option<&mut Fade>,
        ),
        Or<(With<Flash>, With<Fade>)>,
    >,
    figures_q: Query<&Children, With<Figure>>,
    mut layers: Query<(&Layer, &mut Sprite)>,
    mut parts: Query<(&Part, &mut Sprite), Without<Layer>>,
    mut commands: Commands,
) {
    for (entity, tint, children, flash, fade) in &mut units {
        // Red at the blow, back to itself.
        let mut red = 0.0;
        if let Some(mut f) = flash {
            f.clock.tick(time.delta());
            red = (1.0 - f.clock.fraction()).clamp(0.0, 1.0);
            if f.clock.is_finished() {
                commands.entity(entity).remove::<Flash>();
            }
        }
        let mut alpha = 1.0;
        if let Some(mut f) = fade {
            f.clock.tick(time.delta());
            alpha = (1.0 - f.clock.fraction()).clamp(0.0, 1.0);
        }
        for child in children.iter() {
            if let Ok((Part::Corpse, mut s)) = parts.get_mut(child) {
                s.color.set_alpha(1.0 - alpha);
            }
            let Ok(layers_of) = figures_q.get(child) else {
                continue;
            };
            for layer in layers_of.iter() {
                let Ok((kind, mut s)) = layers.get_mut(layer) else {
                    continue;
                };
                let base = match kind {
                    Layer::Tint | Layer::ShieldFace => tint.0,
                    _ => Color::WHITE,
                };
                let flashed = base.mix(&Color::srgb(1.0, 0.25, 0.2), red * 0.7);
                s.color = flashed.with_alpha(if detail.far { 1.0 } else { alpha });
            }
        }
    }
}

/// Missiles along their waypoints, pointing where they fly (or tumbling),
/// arcing a little on each leg; gone at the end.
fn fly_missiles(
    time: Res<Time>,
    mut flying: Query<(Entity, &mut Flight, &mut Transform, &mut Sprite)>,
    mut commands: Commands,
) {
    for (e, mut f, mut t, mut s) in &mut flying {
        f.clock.tick(time.delta());
        let legs = (f.waypoints.len() - 1).max(1);
        let progress = (f.clock.fraction()).clamp(0.0, 1.0) * legs as f32;
        let leg = (progress.floor() as usize).min(legs - 1);
        let along = progress - leg as f32;
        let (a, b) = (f.waypoints[leg], f.waypoints[leg + 1]);
        let lift = (along * PI).sin() * TILE * 0.25;
        t.translation = (a.lerp(b, along) + Vec2::Y * lift).extend(EFFECT_Z);
        t.rotation = if f.points {
            // Along the arc: up at the start of a leg, down at its end.
            let slope = (PI * along).cos() * TILE * 0.25 * PI / (b - a).length().max(1.0);
            let dir = (b - a).normalize_or_zero();
            Quat::from_rotation_z(dir.to_angle() + slope.atan() * dir.x.signum())
        } else {
            Quat::from_rotation_z(-f.clock.elapsed_secs() * 12.0)
        };
        if f.fades && leg == legs - 1 {
            s.color.set_alpha(1.0 - along);
        }
        if f.clock.is_finished() {
            commands.entity(e).despawn();
        }
    }
}

/// Bursts grow a little and fade.
fn fade_bursts(
    time: Res<Time>,
    mut bursts: Query<(Entity, &mut Burst, &mut Transform, &mut Sprite)>,
    mut commands: Commands,
) {
    for (e, mut b, mut t, mut s) in &mut bursts {
        b.clock.tick(time.delta());
        let k = (b.clock.fraction()).clamp(0.0, 1.0);
        t.scale = Vec3::splat(0.8 + 0.5 * k);
        s.color.set_alpha(1.0 - k * k);
        if b.clock.is_finished() {
            commands.entity(e).despawn();
        }
    }
}
