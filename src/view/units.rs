//! Units as figures of their kind on a base in their side's colour (see
//! [`crate::art::figures`]): the base's wedge points where the unit faces
//! (R4.1), the figure is mirrored when it faces west, the arms hold the
//! weapon in hand (none once dropped, R7.3, or thrown, R9.1), a prone,
//! dying or stabilised unit lies down (R4.8, R10), and a dead one leaves a
//! corpse marker (R10.1). HP and AR bars and the condition icons sit over
//! the figure, where the playback has the unit.

use super::coords::{Grid, TILE};
use super::playback::{Shown, UnitSprite};
use crate::art::figures::{self, Arms, Figures, Kind, ShieldArt};
use crate::art::palette::Palette;
use crate::art::tiles::{ICON, Icon, Icons};
use crate::battle::{ArmorReduction, Battlefield, Footprint, GridPos, Health, Side, Stats, UnitId};
use crate::rules::board::{Board, UnitView};
use crate::rules::turns::turn::TurnState;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Detail>()
        .add_systems(
            PreStartup,
            (crate::art::tiles::load_icons, figures::load_figures),
        )
        .add_systems(PostStartup, spawn_units)
        .add_systems(
            Update,
            (dress_units, show_conditions, choose_detail, recolor_sides)
                .in_set(super::frame::ViewSystems::Draw),
        );
}

/// Parts of a unit's picture, updated from the shown board.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The base, in the side's colour.
    Base,
    /// The wedge on the base, pointing where the unit faces (R4.1).
    Wedge,
    /// The ring round the acting unit's base.
    Ring,
    /// What stays where the unit died.
    Corpse,
    /// The initials of a kind without its own figure.
    Initials,
    /// Zoomed far out: the disc of the unit's token, in its side's colour.
    Disc,
    /// Zoomed far out: the sign of its kind on the token.
    Sign,
    /// The bars' dark back.
    BarBack,
    /// The HP bar.
    Hp,
    /// The AR bar.
    Ar,
    /// The dying unit's turns left, beside its icon (R10.1).
    Status,
    /// The `n`th condition icon above the unit.
    Icon(usize),
}

/// The figure: its layers are its children. Mirrored when the unit faces
/// west, turned on its back when it lies down; its origin is at the feet.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// How much bigger than a man it is drawn (by size).
    pub scale: f32,
    /// Facing west: mirrored. A unit facing due north or south keeps the
    /// side it last looked to.
    pub mirrored: bool,
    /// Lying down (prone, dying, stabilised: R4.8, R10).
    pub lying: bool,
}

/// A layer of a figure.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The body of its kind.
    Body,
    /// The kind's side-coloured parts.
    Tint,
    /// The shield.
    Shield,
    /// The shield's side-coloured face.
    ShieldFace,
    /// The arms with the weapon in hand.
    Arms,
}

/// A dead unit's figure fading, its corpse marker showing (R10.1).
#[derive(Component, Clone, Debug)]
pub struct Fade {
    /// Runs once for the fade's length.
    pub clock: Timer,
}

impl Fade {
    /// Still fading: the figure is still drawn.
    pub fn fading(&self) -> bool {
        !self.clock.is_finished()
    }
}

/// The side colour of a unit's tinted layers, to come back to after a
/// flash.
#[derive(Component, Clone, Copy, Debug)]
pub struct SideTint(pub Color);

/// Icon slots above a unit: at most one of dead, dying, stable or prone,
/// plus defending, shield ready, off-guard and open.
const ICON_SLOTS: usize = 5;

/// The units' z: each row a little nearer than the one north of it, so a
/// figure standing south overlaps the one behind it, never the reverse.
const UNIT_Z: f32 = 5.0;
const ROW_Z: f32 = 0.02;
/// The bars and icons' z over the unit: above every figure, under the
/// overlays' links (6.5) and labels (8).
const LABEL_Z: f32 = 1.5;
const BAR: f32 = TILE - 8.0;
/// The HP bar's height over the tile's centre: at the tile's top edge.
const BARS_Y: f32 = TILE / 2.0 - 2.0;
/// The icons' row, just over the bars.
const ICONS_Y: f32 = TILE / 2.0 + 4.0;
/// A ridden mount's bars: under its feet, clear of its rider's (V12.1).
const BARS_LOW: f32 = -TILE / 2.0 + 3.0;
/// World units per figure pixel: a 64-pixel cell fills a tile.
const PIXEL: f32 = TILE / figures::CELL as f32;
/// How far below the tile's centre the feet stand (the figure's origin:
/// it turns, lies down and grows from there).
const FEET: f32 = (figures::FEET - figures::CELL as f32 / 2.0) * PIXEL;

/// Where a unit's picture stands with its footprint of side `n` anchored
/// on tile `p` (V10.6: in the middle of its tiles, drawn in the row of its
/// lowest).
pub fn unit_translation(grid: &Grid, p: crate::grid::Pos, n: i32) -> Vec3 {
    let row = p.y + n.max(1) - 1;
    grid.body(p, n)
        .extend(UNIT_Z + ROW_Z * row.clamp(0, 999) as f32)
}

/// How high a rider sits above its mount's feet, per tile of the mount's
/// side (V12.1: on its back).
const RIDER_LIFT: f32 = (figures::FEET - 40.0) * PIXEL;

/// Where unit `id`'s picture stands on the shown `board` with its body
/// anchored on `at`: a rider on its mount's back, a little in front of it
/// (V12.1); any other unit as [`unit_translation`].
pub fn seat_translation(grid: &Grid, board: &Board, id: UnitId, at: crate::grid::Pos) -> Vec3 {
    match board.mount_of(id) {
        Some(m) => {
            unit_translation(grid, at, m.n) + Vec3::new(0.0, RIDER_LIFT * m.n as f32, ROW_Z * 0.5)
        }
        None => unit_translation(grid, at, board.unit(id).map_or(1, |u| u.n)),
    }
}

pub(super) fn spawn_units(
    mut commands: Commands,
    grid: Option<Res<Grid>>,
    icons: Res<Icons>,
    figures: Res<Figures>,
    field: Option<Res<Battlefield>>,
    palette: Option<Res<Palette>>,
    units: Query<(
        &UnitId,
        &Name,
        &Side,
        &GridPos,
        Option<&Stats>,
        Option<&Footprint>,
    )>,
) {
    let Some(grid) = grid else { return };
    let palette = palette.map(|p| *p).unwrap_or_default();
    for (id, name, side, pos, stats, footprint) in &units {
        let color = palette.side(side.0);
        let kind = Kind::of(stats.map_or("", |s| s.kind.as_str()));
        // A body of n×n tiles (V10.6) is the whole picture n times over;
        // its size's own scale is for a big creature on one tile.
        let n = footprint.map_or(1, |f| f.0);
        let size = match n {
            1 => stats.map_or(1.0, |s| figures::scale(s.template.size)),
            _ => 1.0,
        };
        // The bars, icons and words keep their size over a big body: the
        // whole is scaled n times, they 1/n (set once; `show_conditions`
        // reads it back from their y scale).
        let label = Vec3::new(1.0 / n as f32, 1.0 / n as f32, 1.0);
        let shield = stats
            .and_then(|s| s.template.shield.as_deref())
            .and_then(|name| field.as_ref()?.0.catalog.shield(name))
            .map(ShieldArt::of);
        let layer = |index: usize, z: f32| {
            (
                figures.sprite(index, TILE),
                // The cell's centre above the feet.
                Transform::from_xyz(0.0, FEET, z),
            )
        };
        commands
            .spawn((
                UnitSprite(*id),
                SideTint(color),
                Transform::from_translation(unit_translation(&grid, pos.0, n))
                    .with_scale(Vec3::new(n as f32, n as f32, 1.0)),
                Visibility::default(),
            ))
            .with_children(|u| {
                u.spawn((
                    Part::Ring,
                    figures.sprite(figures::RING, TILE),
                    Transform::from_xyz(0.0, 0.0, 0.001),
                    Visibility::Hidden,
                ));
                let mut base = figures.sprite(figures::BASE, TILE);
                base.color = color;
                u.spawn((Part::Base, base, Transform::from_xyz(0.0, 0.0, 0.002)));
                // Over the figure: a unit facing north has its wedge behind
                // its feet, where the figure would hide it.
                u.spawn((
                    Part::Wedge,
                    figures.sprite(
                        figures::wedge(crate::grid::Dir::N),
                        TILE * figures::WEDGE_SCALE,
                    ),
                    Transform::from_xyz(
                        0.0,
                        (figures::CELL as f32 / 2.0 - figures::BASE_Y) * PIXEL,
                        0.015,
                    ),
                ));
                u.spawn((
                    Part::Corpse,
                    figures.sprite(figures::CORPSE, TILE),
                    Transform::from_xyz(0.0, 0.0, 0.004),
                    Visibility::Hidden,
                ));
                u.spawn((
                    Figure {
                        scale: size,
                        mirrored: false,
                        lying: false,
                    },
                    Transform::from_xyz(0.0, -FEET, 0.005).with_scale(Vec3::new(size, size, 1.0)),
                    Visibility::default(),
                ))
                .with_children(|f| {
                    f.spawn((Layer::Body, layer(kind.figure(), 0.001)));
                    let (sprite, t) = layer(kind.tint(), 0.002);
                    f.spawn((Layer::Tint, Sprite { color, ..sprite }, t));
                    if let Some(shield) = shield {
                        f.spawn((Layer::Shield, layer(shield.cell(), 0.003)));
                        let (sprite, t) = layer(shield.face(), 0.004);
                        f.spawn((Layer::ShieldFace, Sprite { color, ..sprite }, t));
                    }
                    // A horse has no arms to hold a weapon in (V12).
                    if kind != Kind::Horse {
                        f.spawn((Layer::Arms, layer(Arms::Unarmed.cell(), 0.005)));
                    }
                });
                let mut disc = figures.sprite(figures::DISC, TILE);
                disc.color = color;
                u.spawn((
                    Part::Disc,
                    disc,
                    Transform::from_xyz(0.0, 0.0, 0.02),
                    Visibility::Hidden,
                ));
                u.spawn((
                    Part::Sign,
                    figures.sprite(kind.sign(), TILE),
                    Transform::from_xyz(0.0, 0.0, 0.021),
                    Visibility::Hidden,
                ));
                if kind == Kind::Generic {
                    let initials: String = name.chars().take(2).collect();
                    let chest = (figures::FEET - figures::CHEST) * PIXEL * size;
                    u.spawn((
                        Part::Initials,
                        Text2d::new(initials),
                        TextFont {
                            font_size: FontSize::Px(8.0),
                            ..default()
                        },
                        TextColor(Color::WHITE),
                        Transform::from_xyz(0.0, -FEET + chest, 0.012).with_scale(label),
                    ));
                }
                // The bars over the head, the base under the feet.
                u.spawn((
                    Part::BarBack,
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(BAR + 1.0, 6.0)),
                    Transform::from_xyz(0.0, BARS_Y - 1.0, LABEL_Z).with_scale(label),
                ));
                u.spawn((
                    Part::Hp,
                    Sprite::from_color(Color::srgb(0.3, 0.9, 0.3), Vec2::new(BAR, 3.0)),
                    Transform::from_xyz(0.0, BARS_Y, LABEL_Z + 0.1).with_scale(label),
                ));
                u.spawn((
                    Part::Ar,
                    Sprite::from_color(Color::srgb(0.65, 0.75, 0.9), Vec2::new(BAR, 2.0)),
                    Transform::from_xyz(0.0, BARS_Y - 2.5, LABEL_Z + 0.1).with_scale(label),
                ));
                for slot in 0..ICON_SLOTS {
                    u.spawn((
                        Part::Icon(slot),
                        icons.sprite(Icon::Prone, ICON as f32),
                        Transform::from_xyz(0.0, ICONS_Y, LABEL_Z + 0.2).with_scale(label),
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
                    Transform::from_xyz(0.0, ICONS_Y, LABEL_Z + 0.3).with_scale(label),
                    Visibility::Hidden,
                ));
            });
    }
}

/// The figure as the shown board has the unit: which way it looks, whether
/// it lies down, the weapon in its hands, its wedge.
fn dress_units(
    shown: Option<Res<Shown>>,
    field: Option<Res<Battlefield>>,
    units: Query<(&UnitSprite, &Children)>,
    mut figures_q: Query<(&mut Figure, &Children)>,
    mut layers: Query<(&Layer, &mut Sprite)>,
    mut parts: Query<(&Part, &mut Sprite), Without<Layer>>,
) {
    let (Some(shown), Some(field)) = (shown, field) else {
        return;
    };
    if !shown.is_changed() {
        return;
    }
    for (sprite, children) in &units {
        let Some(u) = shown.board.unit(sprite.0) else {
            continue;
        };
        for child in children.iter() {
            if let Ok((Part::Wedge, mut s)) = parts.get_mut(child)
                && let Some(atlas) = s.texture_atlas.as_mut()
            {
                atlas.index = figures::wedge(u.facing);
            }
            let Ok((mut figure, layers_of)) = figures_q.get_mut(child) else {
                continue;
            };
            // The motion moves the figure to its new pose (see
            // `motion::pose_figures`).
            let next = Figure {
                mirrored: figures::mirrored(u.facing, figure.mirrored),
                lying: lies_down(u),
                ..*figure
            };
            if next != *figure {
                *figure = next;
            }
            let arms = Arms::of(
                u.gear
                    .weapons
                    .first()
                    .and_then(|w| field.0.catalog.weapon(w)),
            );
            for layer in layers_of.iter() {
                if let Ok((Layer::Arms, mut s)) = layers.get_mut(layer)
                    && let Some(atlas) = s.texture_atlas.as_mut()
                    && atlas.index != arms.cell()
                {
                    atlas.index = arms.cell();
                }
            }
        }
    }
}

/// Lies down: prone, dying or stabilised (R4.8, R10); the dead are a
/// corpse marker.
fn lies_down(u: &UnitView) -> bool {
    u.prone || u.dying.is_some() || u.stable || u.dead
}

/// The figure's transform for how it stands: mirrored, scaled, and on its
/// back (falling backwards) when it lies down, shifted so that it lies
/// across its own tile.
pub fn pose(figure: &Figure, t: &mut Transform) {
    let flip = if figure.mirrored { -1.0 } else { 1.0 };
    t.scale = Vec3::new(flip * figure.scale, figure.scale, 1.0);
    if figure.lying {
        t.rotation = Quat::from_rotation_z(flip * std::f32::consts::FRAC_PI_2);
        // Lying, the figure reaches half its height behind its feet.
        t.translation.x = flip * TILE * 0.4 * figure.scale;
        t.translation.y = -FEET + 3.0;
    } else {
        t.rotation = Quat::IDENTITY;
        t.translation.x = 0.0;
        t.translation.y = -FEET;
    }
}

/// HP and AR bars, the condition icons, the acting unit's ring; the dead
/// leave a corpse marker.
fn show_conditions(
    shown: Option<Res<Shown>>,
    playback: Option<Res<super::playback::Playback>>,
    turn: Res<TurnState>,
    units: Query<(&UnitId, &Health, &ArmorReduction)>,
    sprites: Query<(Entity, &UnitSprite, &Children)>,
    mut parts: Query<(
        &Part,
        &mut Transform,
        &mut Visibility,
        Option<&mut Sprite>,
        Option<&mut Text2d>,
    )>,
    mut figures_q: Query<&mut Visibility, (With<Figure>, Without<Part>)>,
    ids: Query<&UnitId>,
    detail: Res<Detail>,
    fades: Query<&Fade>,
    field: Option<Res<Battlefield>>,
) {
    let Some(shown) = shown else { return };
    // Under die ranks no AR stands against a hit (V6.4): no AR bar.
    let armor_counts =
        !field.is_some_and(|f| f.0.rules().resolution == crate::format::Resolution::DieRanks);
    if !shown.is_changed() && !turn.is_changed() && !detail.is_changed() && fades.is_empty() {
        return;
    }
    let (near, far) = (!detail.far, detail.far);
    let current = turn.current.and_then(|c| ids.get(c).ok().copied());
    let shown_if = |on: bool| {
        if on {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        }
    };
    for (entity, sprite, children) in &sprites {
        let Some(u) = shown.board.unit(sprite.0) else {
            continue;
        };
        // The dead fade out before their corpse marker is all that stays.
        let fading = fades.get(entity).is_ok_and(Fade::fading);
        let (max_hp, max_ar) = units
            .iter()
            .find(|(id, ..)| **id == sprite.0)
            .map_or((1, 1), |(_, h, a)| (h.max.max(1), a.0.max(u.ar).max(1)));
        let ridden = u.pair.is_some() && !u.rides;
        let icons = if ridden { vec![] } else { conditions(u) };
        // The icons sit in a row centred over the unit's top edge.
        let icon_x = |slot: usize| (slot as f32 - (icons.len() as f32 - 1.0) / 2.0) * (ICON as f32);
        for child in children.iter() {
            if let Ok(mut vis) = figures_q.get_mut(child) {
                *vis = shown_if((!u.dead || fading) && near);
                continue;
            }
            let Ok((part, mut t, mut vis, sprite_part, text)) = parts.get_mut(child) else {
                continue;
            };
            // A label's own scale: 1/n over a big body (V10.6), else 1.
            let k = t.scale.y;
            // A ridden mount's bars sit under its feet, its rider's over its
            // head (V12.1); its icons are its rider's to show.
            let lift = if ridden { BARS_LOW - BARS_Y } else { 0.0 };
            match part {
                Part::BarBack => t.translation.y = BARS_Y - 1.0 + lift,
                Part::Hp => t.translation.y = BARS_Y + lift,
                Part::Ar => t.translation.y = BARS_Y - 2.5 + lift,
                _ => {}
            }
            match part {
                Part::Hp => {
                    let share = (u.hp as f32 / max_hp as f32).clamp(0.0, 1.0);
                    t.scale.x = share.max(0.001) * k;
                    t.translation.x = -BAR * (1.0 - share) / 2.0 * k;
                    *vis = shown_if(!u.dead);
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
                    t.scale.x = share.max(0.001) * k;
                    t.translation.x = -BAR * (1.0 - share) / 2.0 * k;
                    *vis = shown_if(u.ar > 0 && !u.dead && armor_counts);
                }
                Part::Disc => *vis = shown_if(far && !u.dead),
                Part::Sign => {
                    *vis = shown_if(far && !u.dead);
                    // A token lying on its side: prone, dying, stabilised.
                    t.rotation = if lies_down(u) {
                        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)
                    } else {
                        Quat::IDENTITY
                    };
                }
                Part::Base => {
                    *vis = shown_if(near || u.dead);
                    if let Some(mut s) = sprite_part {
                        // The fallen's base dims: still their side's, out
                        // of the fight.
                        s.color.set_alpha(if u.dead { 0.35 } else { 1.0 });
                    }
                }
                Part::BarBack => *vis = shown_if(!u.dead),
                Part::Wedge | Part::Initials => *vis = shown_if(near && !u.dead && !lies_down(u)),
                Part::Corpse => *vis = shown_if(u.dead),
                Part::Status => {
                    // The turns left sit just left of the dying icon, the
                    // first of the row.
                    let dying = icons.iter().position(|i| *i == Icon::Dying);
                    // Hidden from the other side (R10.1).
                    let secret = playback
                        .as_ref()
                        .is_some_and(|p| p.hidden.contains(&sprite.0));
                    if let (Some(mut text), Some(slot), false, true) = (text, dying, secret, near) {
                        text.0 = u.dying.map(|n| n.to_string()).unwrap_or_default();
                        t.translation.x = (icon_x(slot) - ICON as f32) * k;
                        *vis = Visibility::Inherited;
                    } else {
                        *vis = Visibility::Hidden;
                    }
                }
                // Zoomed far out an icon would be a smudge of 3 pixels: the
                // token lies on its side instead.
                Part::Icon(slot) => match icons.get(*slot).filter(|_| near) {
                    Some(icon) => {
                        if let Some(mut s) = sprite_part
                            && let Some(atlas) = s.texture_atlas.as_mut()
                        {
                            atlas.index = *icon as usize;
                        }
                        t.translation.x = icon_x(*slot) * k;
                        *vis = Visibility::Inherited;
                    }
                    None => *vis = Visibility::Hidden,
                },
                Part::Ring => *vis = shown_if(current == Some(sprite.0) && !u.dead),
            }
        }
    }
}

/// The icons of a unit's conditions, in the order drawn.
pub fn conditions(u: &UnitView) -> Vec<Icon> {
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
    if u.hidden != 0 {
        icons.push(Icon::Hidden);
    }
    // Energy's conditions (V5.8): Unguarded says Exposed too.
    if u.guardless.unguarded.is_some() {
        icons.push(Icon::Unguarded);
    } else if u.guardless.exposed.is_some() {
        icons.push(Icon::ExposedV5);
    }
    // Spells (V11): a spell held, a spell's grip.
    if u.concentrating.is_some() {
        icons.push(Icon::Concentrating);
    }
    if u.gripped {
        icons.push(Icon::Gripped);
    }
    icons.truncate(ICON_SLOTS);
    icons
}

/// How much of a unit the map shows at its zoom.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// Zoomed far out (a tile under [`FAR_TILE`] pixels on screen): units
    /// are tokens, a disc in the side's colour with a bold sign of the
    /// kind, a little bigger than their tile, drawn from the 16-pixel
    /// sheet (the 64-pixel one shrunk that far would skip most of its
    /// pixels). A figure a few pixels tall reads as a smudge; a bow, a
    /// shield or a cross on a coloured disc still reads.
    pub far: bool,
}

/// Switches [`Detail`] as the battle camera zooms past [`FAR_TILE`].
fn choose_detail(
    figures: Option<Res<Figures>>,
    cameras: Query<
        &Transform,
        (
            With<super::camera::BattleCamera>,
            Changed<Transform>,
            Without<UnitSprite>,
        ),
    >,
    mut units: Query<&mut Transform, With<UnitSprite>>,
    mut sprites: Query<&mut Sprite, Or<(With<Layer>, With<Part>)>>,
    mut detail: ResMut<Detail>,
) {
    let (Some(figures), Ok(camera)) = (figures, cameras.single()) else {
        return;
    };
    // The battle camera zooms by its scale (see `camera::move_camera`).
    let far = TILE / camera.scale.x < FAR_TILE;
    if far == detail.far {
        return;
    }
    detail.far = far;
    let (from, image, layout) = if far {
        (&figures.near, &figures.far, &figures.far_layout)
    } else {
        (&figures.far, &figures.near, &figures.near_layout)
    };
    for mut t in &mut units {
        t.scale = Vec3::splat(if far { FAR_SCALE } else { 1.0 });
    }
    for mut s in &mut sprites {
        if s.image == *from
            && let Some(atlas) = s.texture_atlas.as_mut()
        {
            atlas.layout = layout.clone();
            s.image = image.clone();
        }
    }
}

/// Below this many pixels a tile, units are drawn as tokens.
const FAR_TILE: f32 = 20.0;
/// How much bigger than a tile a token is.
const FAR_SCALE: f32 = 1.4;

/// The sides in the palette's colours when the player changes it (the
/// settings screen): each base, token disc, tabard and shield face.
fn recolor_sides(
    palette: Option<Res<Palette>>,
    sides: Query<(&UnitId, &Side)>,
    mut sprites: Query<(&UnitSprite, &mut SideTint, &Children)>,
    figures_q: Query<&Children, With<Figure>>,
    mut parts: Query<(&Part, &mut Sprite), Without<Layer>>,
    mut layers: Query<(&Layer, &mut Sprite), Without<Part>>,
) {
    let Some(palette) = palette.filter(|p| p.is_changed() && !p.is_added()) else {
        return;
    };
    for (sprite, mut tint, children) in &mut sprites {
        let Some((_, side)) = sides.iter().find(|(id, _)| **id == sprite.0) else {
            continue;
        };
        let color = palette.side(side.0);
        tint.0 = color;
        for child in children.iter() {
            if let Ok((Part::Base | Part::Disc, mut s)) = parts.get_mut(child) {
                s.color = color.with_alpha(s.color.alpha());
            }
            for layer in figures_q.get(child).into_iter().flatten() {
                if let Ok((Layer::Tint | Layer::ShieldFace, mut s)) = layers.get_mut(*layer) {
                    s.color = color.with_alpha(s.color.alpha());
                }
            }
        }
    }
}
