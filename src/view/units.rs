//! Units as sprites in their side's colour, with a facing marker, HP and AR
//! bars and their conditions, where the playback has them; objects on the
//! ground as small markers.

use super::coords::{Grid, TILE};
use super::playback::{BUMP, Bump, Shown, UnitSprite};
use crate::art::palette::side_color;
use crate::art::tiles::{ICON, Icon, Icons};
use crate::battle::{ArmorReduction, GridPos, GroundObject, Health, Side, UnitId};
use crate::grid::Dir;
use crate::rules::turns::turn::TurnState;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, crate::art::tiles::load_icons)
        .add_systems(PostStartup, spawn_units)
        .add_systems(
            Update,
            (move_units, show_conditions, show_ground).in_set(super::frame::ViewSystems::Draw),
        );
}

/// Parts of a unit's picture, updated from the shown board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Body,
    Facing,
    Hp,
    Ar,
    /// The dying unit's turns left, beside its icon (R10.1).
    Status,
    Marker,
    /// The `n`th condition icon above the unit.
    Icon(usize),
}

/// Icon slots above a unit: at most one of dead, dying, stable or prone,
/// plus defending, shield ready, off-guard and open.
const ICON_SLOTS: usize = 5;

/// A marker for an object on the ground (R9.5).
#[derive(Component)]
struct GroundMarker;

const UNIT_Z: f32 = 5.0;
const BAR: f32 = TILE - 6.0;

pub(super) fn spawn_units(
    mut commands: Commands,
    grid: Option<Res<Grid>>,
    icons: Res<Icons>,
    units: Query<(&UnitId, &Name, &Side, &GridPos)>,
) {
    let Some(grid) = grid else { return };
    for (id, name, side, pos) in &units {
        let color = side_color(side.0);
        let initials: String = name.chars().take(2).collect();
        commands
            .spawn((
                UnitSprite(*id),
                Transform::from_translation(grid.world(pos.0).extend(UNIT_Z)),
                Visibility::default(),
            ))
            .with_children(|u| {
                // The acting unit's marker, under the body.
                u.spawn((
                    Part::Marker,
                    Sprite::from_color(Color::srgb(1.0, 0.9, 0.3), Vec2::splat(TILE - 2.0)),
                    Transform::from_xyz(0.0, 0.0, -0.2),
                    Visibility::Hidden,
                ));
                u.spawn((
                    Sprite::from_color(Color::srgb(0.08, 0.08, 0.1), Vec2::splat(TILE - 6.0)),
                    Transform::from_xyz(0.0, 0.0, -0.1),
                ));
                u.spawn((
                    Part::Body,
                    Sprite::from_color(color, Vec2::splat(TILE - 10.0)),
                    Transform::default(),
                ));
                u.spawn((
                    Text2d::new(initials),
                    TextFont {
                        font_size: FontSize::Px(12.0),
                        ..default()
                    },
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, 1.0, 0.1),
                ));
                u.spawn((
                    Part::Facing,
                    Sprite::from_color(Color::WHITE, Vec2::new(8.0, 4.0)),
                    Transform::from_xyz(0.0, 0.0, 0.2),
                ));
                u.spawn((
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(BAR, 4.0)),
                    Transform::from_xyz(0.0, -TILE / 2.0 + 1.0, 0.3),
                ));
                u.spawn((
                    Part::Hp,
                    Sprite::from_color(Color::srgb(0.3, 0.9, 0.3), Vec2::new(BAR, 3.0)),
                    Transform::from_xyz(0.0, -TILE / 2.0 + 1.0, 0.4),
                ));
                u.spawn((
                    Part::Ar,
                    Sprite::from_color(Color::srgb(0.65, 0.75, 0.9), Vec2::new(BAR, 2.0)),
                    Transform::from_xyz(0.0, -TILE / 2.0 + 4.0, 0.4),
                ));
                for slot in 0..ICON_SLOTS {
                    u.spawn((
                        Part::Icon(slot),
                        icons.sprite(Icon::Prone, ICON as f32),
                        Transform::from_xyz(0.0, TILE / 2.0, 0.6),
                        Visibility::Hidden,
                    ));
                }
                u.spawn((
                    Part::Status,
                    Text2d::new(""),
                    TextFont {
                        font_size: FontSize::Px(12.0),
                        ..default()
                    },
                    TextColor(Color::srgb(1.0, 0.75, 0.7)),
                    Transform::from_xyz(0.0, TILE / 2.0, 0.7),
                    Visibility::Hidden,
                ));
            });
    }
}

/// The offset of the facing marker for `dir`, and its rotation.
fn facing_marker(dir: Dir) -> (Vec2, Quat) {
    let (dx, dy) = dir.delta();
    // Grid y grows south; world y grows north.
    let v = Vec2::new(dx as f32, -dy as f32).normalize_or_zero();
    (v * (TILE / 2.0 - 5.0), Quat::from_rotation_z(v.to_angle()))
}

/// Moves each unit's sprite toward its shown tile and turns its marker.
fn move_units(
    time: Res<Time>,
    shown: Option<Res<Shown>>,
    grid: Option<Res<Grid>>,
    mut sprites: Query<(
        Entity,
        &UnitSprite,
        &mut Transform,
        &Children,
        Option<&mut Bump>,
    )>,
    mut parts: Query<(&Part, &mut Transform), Without<UnitSprite>>,
    mut commands: Commands,
) {
    let (Some(shown), Some(grid)) = (shown, grid) else {
        return;
    };
    let step = (time.delta_secs() * 14.0).min(1.0);
    for (entity, sprite, mut t, children, bump) in &mut sprites {
        let Some(u) = shown.board.unit(sprite.0) else {
            continue;
        };
        let mut target = grid.world(u.at).extend(UNIT_Z);
        if let Some(mut b) = bump {
            b.age += time.delta_secs();
            let reach = (b.age / BUMP * std::f32::consts::PI).sin().max(0.0) * TILE * 0.3;
            target += (b.toward * reach).extend(0.0);
            if b.age >= BUMP {
                commands.entity(entity).remove::<Bump>();
            }
        }
        t.translation = t.translation.lerp(target, step);
        let (offset, rotation) = facing_marker(u.facing);
        for child in children.iter() {
            if let Ok((Part::Facing, mut pt)) = parts.get_mut(child) {
                pt.translation = offset.extend(0.2);
                pt.rotation = rotation;
            }
        }
    }
}

/// HP and AR bars, the condition text, the acting unit's marker; the dead
/// fade.
fn show_conditions(
    shown: Option<Res<Shown>>,
    playback: Option<Res<super::playback::Playback>>,
    turn: Res<TurnState>,
    units: Query<(&UnitId, &Health, &ArmorReduction)>,
    sprites: Query<(&UnitSprite, &Children)>,
    mut parts: Query<(
        &Part,
        &mut Transform,
        &mut Visibility,
        Option<&mut Sprite>,
        Option<&mut Text2d>,
    )>,
    ids: Query<&UnitId>,
) {
    let Some(shown) = shown else { return };
    if !shown.is_changed() && !turn.is_changed() {
        return;
    }
    let current = turn.current.and_then(|c| ids.get(c).ok().copied());
    for (sprite, children) in &sprites {
        let Some(u) = shown.board.unit(sprite.0) else {
            continue;
        };
        let (max_hp, max_ar) = units
            .iter()
            .find(|(id, ..)| **id == sprite.0)
            .map_or((1, 1), |(_, h, a)| (h.max.max(1), a.0.max(u.ar).max(1)));
        let icons = conditions(u);
        // The icons sit in a row centred over the unit's top edge.
        let icon_x = |slot: usize| (slot as f32 - (icons.len() as f32 - 1.0) / 2.0) * (ICON as f32);
        for child in children.iter() {
            let Ok((part, mut t, mut vis, sprite_part, text)) = parts.get_mut(child) else {
                continue;
            };
            match part {
                Part::Hp => {
                    let share = (u.hp as f32 / max_hp as f32).clamp(0.0, 1.0);
                    t.scale.x = share.max(0.001);
                    t.translation.x = -BAR * (1.0 - share) / 2.0;
                    if let Some(mut s) = sprite_part {
                        s.color = if share > 0.5 {
                            Color::srgb(0.3, 0.9, 0.3)
                        } else if share > 0.25 {
                            Color::srgb(0.95, 0.8, 0.2)
                        } else {
                            Color::srgb(0.95, 0.3, 0.2)
                        };
                    }
                }
                Part::Ar => {
                    let share = (u.ar as f32 / max_ar as f32).clamp(0.0, 1.0);
                    t.scale.x = share.max(0.001);
                    t.translation.x = -BAR * (1.0 - share) / 2.0;
                    *vis = if u.ar > 0 {
                        Visibility::Inherited
                    } else {
                        Visibility::Hidden
                    };
                }
                Part::Body => {
                    if let Some(mut s) = sprite_part {
                        let alpha = if u.dead {
                            0.25
                        } else if u.dying.is_some() || u.stable {
                            0.55
                        } else {
                            1.0
                        };
                        s.color.set_alpha(alpha);
                    }
                }
                Part::Status => {
                    // The turns left sit just left of the dying icon, the
                    // first of the row.
                    let dying = icons.iter().position(|i| *i == Icon::Dying);
                    // Hidden from the other side (R10.1).
                    let secret = playback
                        .as_ref()
                        .is_some_and(|p| p.hidden.contains(&sprite.0));
                    if let (Some(mut text), Some(slot), false) = (text, dying, secret) {
                        text.0 = u.dying.map(|n| n.to_string()).unwrap_or_default();
                        t.translation.x = icon_x(slot) - ICON as f32;
                        *vis = Visibility::Inherited;
                    } else {
                        *vis = Visibility::Hidden;
                    }
                }
                Part::Icon(slot) => match icons.get(*slot) {
                    Some(icon) => {
                        if let Some(mut s) = sprite_part
                            && let Some(atlas) = s.texture_atlas.as_mut()
                        {
                            atlas.index = *icon as usize;
                        }
                        t.translation.x = icon_x(*slot);
                        *vis = Visibility::Inherited;
                    }
                    None => *vis = Visibility::Hidden,
                },
                Part::Marker => {
                    *vis = if current == Some(sprite.0) {
                        Visibility::Inherited
                    } else {
                        Visibility::Hidden
                    };
                }
                Part::Facing => {
                    *vis = if u.dead {
                        Visibility::Hidden
                    } else {
                        Visibility::Inherited
                    };
                }
            }
        }
    }
}

/// The icons of a unit's conditions, in the order drawn.
pub fn conditions(u: &crate::rules::board::UnitView) -> Vec<Icon> {
    let mut icons = vec![];
    if u.dead {
        icons.push(Icon::Dead);
        return icons;
    }
    if u.dying.is_some() {
        icons.push(Icon::Dying);
    } else if u.stable {
        icons.push(Icon::Stable);
    } else if u.prone {
        icons.push(Icon::Prone);
    }
    if u.defending {
        icons.push(Icon::Defending);
    }
    if u.shield_ready {
        icons.push(Icon::ShieldReady);
    }
    if u.off_guard {
        icons.push(Icon::OffGuard);
    }
    if u.charged || u.exposed {
        icons.push(Icon::Exposed);
    }
    icons.truncate(ICON_SLOTS);
    icons
}

/// Objects on the ground (R9.5): a small marker per object, redrawn when
/// they change.
fn show_ground(
    mut commands: Commands,
    grid: Option<Res<Grid>>,
    icons: Res<Icons>,
    objects: Query<(&GroundObject, &GridPos)>,
    changed: Query<
        (),
        (
            With<GroundObject>,
            Or<(Added<GroundObject>, Changed<GridPos>)>,
        ),
    >,
    mut removed: RemovedComponents<GroundObject>,
    markers: Query<Entity, With<GroundMarker>>,
) {
    let Some(grid) = grid else { return };
    let any_removed = removed.read().count() > 0;
    if changed.is_empty() && !any_removed && !markers.is_empty() {
        return;
    }
    for m in &markers {
        commands.entity(m).despawn();
    }
    for (object, pos) in &objects {
        // On the tile's left edge and above the units, so that an object
        // under a unit (a thrown one lands in its target's tile, R9.2)
        // stays in sight, clear of the bars and the icon row.
        let at = grid.world(pos.0) + Vec2::new(-(TILE - ICON as f32) / 2.0, 0.0);
        commands.spawn((
            GroundMarker,
            icons.sprite(Icon::Object, ICON as f32),
            Transform::from_translation(at.extend(UNIT_Z + 1.0)),
            Name::new(object.name.clone()),
        ));
    }
}
