//! The settings screen (`Esc` in battle, `S` in the level menu): UI scale,
//! window size and full screen, animation speed, volume and mute, the
//! colour-blind palette, and the key bindings. Every change applies at
//! once and is saved to the settings file ([`crate::settings`]).
//!
//! Mouse: a click on a line changes it (a right click the other way).
//! Keys: `Up`/`Down` choose a line, `Left`/`Right` change it, `Esc` closes.
//! While it is open the battle takes no input.

use super::theme::{PANEL, RULE, text};
use crate::art::palette::Palette;
use crate::settings::{PaletteChoice, SPEEDS, Settings, UI_SCALES, WINDOW_SIZES};
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryMonitor, PrimaryWindow, WindowMode};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .init_resource::<SettingsMenu>()
        .add_systems(Startup, spawn_screen)
        .add_systems(
            Update,
            (
                (open_settings, steer_settings)
                    .chain()
                    .in_set(super::frame::ViewSystems::Input)
                    .before(super::key_cursor::steer_key_cursor),
                (scale_ui_to_monitor, apply_settings, show_settings)
                    .chain()
                    .in_set(super::frame::ViewSystems::Draw),
            ),
        );
}

/// The settings screen for the level menu's window (no battle under it).
pub fn menu_plugin(app: &mut App) {
    plugin(app);
}

/// Whether there is no settings file yet (a first start).
pub fn first_start() -> bool {
    Settings::path().is_some_and(|p| !p.exists())
}

/// The saved settings, or the defaults (a broken file said in one line).
pub fn load_settings() -> Settings {
    let Some(path) = Settings::path() else {
        return Settings::default();
    };
    let (settings, problem) = Settings::load(&path);
    if let Some(line) = problem {
        eprintln!("skirmish: {line}");
    }
    settings
}

/// The main window as the settings have it. Pictures and measures
/// (`--screenshot`, `--frames`) keep the standard size, so that they
/// compare across machines.
pub fn window_for(
    settings: &Settings,
    title: String,
    options: &super::frame::PlayOptions,
) -> Window {
    let measured = options.screenshot.is_some() || options.frames.is_some();
    let size = if measured {
        super::frame::WINDOW
    } else {
        settings.window
    };
    Window {
        title,
        resolution: bevy::window::WindowResolution::from(size),
        mode: if settings.fullscreen && !measured {
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        } else {
            WindowMode::Windowed
        },
        present_mode: if options.no_vsync {
            bevy::window::PresentMode::AutoNoVsync
        } else {
            bevy::window::PresentMode::AutoVsync
        },
        ..default()
    }
}

/// Marks the level menu's window (`S` opens the settings there).
#[derive(Resource)]
pub struct MenuWindow;

/// Whether the screen is open, and its chosen line.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct SettingsMenu {
    /// Shown.
    pub open: bool,
    /// The line `Left`/`Right` change.
    pub row: usize,
}

/// A line of the screen.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    UiScale,
    Window,
    FullScreen,
    Speed,
    Volume,
    Sound,
    Palette,
}

impl Row {
    const ALL: [Row; 7] = [
        Row::UiScale,
        Row::Window,
        Row::FullScreen,
        Row::Speed,
        Row::Volume,
        Row::Sound,
        Row::Palette,
    ];

    /// Its label and value as shown.
    fn line(self, s: &Settings, auto: f32) -> String {
        let value = match self {
            Row::UiScale => match s.ui_scale {
                None => format!("auto ({auto}x, from the monitor)"),
                Some(x) => format!("{x}x"),
            },
            Row::Window => format!("{} x {}", s.window.0, s.window.1),
            Row::FullScreen => on_off(s.fullscreen),
            Row::Speed => format!("x{}", s.speed),
            Row::Volume => format!("{:.0}%", s.volume * 100.0),
            Row::Sound => if s.muted { "muted (M)" } else { "on (M mutes)" }.into(),
            Row::Palette => match s.palette {
                PaletteChoice::Standard => "standard".into(),
                PaletteChoice::ColourBlind => {
                    "colour-blind (protanopia, deuteranopia, tritanopia)".into()
                }
            },
        };
        let label = match self {
            Row::UiScale => "UI scale",
            Row::Window => "Window size",
            Row::FullScreen => "Full screen",
            Row::Speed => "Animation speed",
            Row::Volume => "Volume",
            Row::Sound => "Sound",
            Row::Palette => "Colours",
        };
        format!("{label:<17}< {value} >")
    }

    /// Changes `s` one step (`by` 1 or -1).
    fn change(self, s: &mut Settings, by: i32) {
        fn step<T: PartialEq + Copy>(list: &[T], now: T, by: i32) -> T {
            let i = list.iter().position(|x| *x == now).unwrap_or(0) as i32;
            list[(i + by).rem_euclid(list.len() as i32) as usize]
        }
        match self {
            Row::UiScale => {
                // Auto, then each scale.
                let mut options: Vec<Option<f32>> = vec![None];
                options.extend(UI_SCALES.iter().map(|x| Some(*x)));
                s.ui_scale = step(&options, s.ui_scale, by);
            }
            Row::Window => s.window = step(&WINDOW_SIZES, s.window, by),
            Row::FullScreen => s.fullscreen = !s.fullscreen,
            Row::Speed => s.speed = step(&SPEEDS, s.speed, by),
            Row::Volume => {
                let v = (s.volume * 10.0).round() as i32 + by;
                s.volume = v.clamp(0, 10) as f32 / 10.0;
            }
            Row::Sound => s.muted = !s.muted,
            Row::Palette => {
                s.palette = match s.palette {
                    PaletteChoice::Standard => PaletteChoice::ColourBlind,
                    PaletteChoice::ColourBlind => PaletteChoice::Standard,
                }
            }
        }
    }
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.into()
}

/// The keys, as the settings screen lists them (the README's input table
/// says the same at length).
pub const KEYS: &[(&str, &str)] = &[
    (
        "left click / Enter",
        "move, attack, aim (Enter: at the tile cursor)",
    ),
    ("right click / Shift+Enter", "face the tile (R4.2)"),
    ("arrows", "move the tile cursor"),
    ("WASD, , .", "pan, zoom out, zoom in"),
    ("Tab", "next of your units"),
    ("E", "end the turn"),
    ("X C Q Z V T", "step, charge, power, lunge, cleave, throw"),
    (
        "G R U P H K F",
        "defend, shield, stand, pick up, potion, stabilize, aim",
    ),
    ("Y N / B P D N", "answer a reaction / an attack (V2)"),
    ("1-7", "overlays"),
    ("/", "what each enemy would do now (its intent)"),
    ("Space + -", "skip animations, faster, slower"),
    ("L PgUp PgDn", "log; scroll it"),
    ("F5 F9 F4", "save, load, edit the level"),
    ("M", "mute"),
    ("Esc", "these settings"),
];

/// The screen's root: hidden until opened.
#[derive(Component)]
struct Screen;

/// The auto UI scale the monitor asks for (1 until it is known).
#[derive(Component)]
struct AutoScale(f32);

fn spawn_screen(mut commands: Commands) {
    commands
        .spawn((
            Screen,
            AutoScale(1.0),
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                display: Display::None,
                ..default()
            },
            GlobalZIndex(100),
        ))
        .with_children(|root| {
            root.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(px(18)),
                    row_gap: px(4),
                    border: UiRect::all(px(1)),
                    ..default()
                },
                BackgroundColor(PANEL),
                BorderColor::all(RULE),
            ))
            .with_children(|panel| {
                panel.spawn((
                    Text::new("Settings"),
                    text(24.0, Color::srgb(1.0, 0.9, 0.5)),
                ));
                for row in Row::ALL {
                    panel
                        .spawn((
                            Button,
                            row,
                            Node {
                                padding: UiRect::axes(px(8), px(4)),
                                ..default()
                            },
                            BackgroundColor(Color::NONE),
                        ))
                        .with_children(|b| {
                            b.spawn((Text::new(""), text(17.0, Color::WHITE)));
                        });
                }
                panel.spawn((
                    Text::new("Keys"),
                    text(18.0, Color::srgb(1.0, 0.9, 0.5)),
                    Node {
                        margin: UiRect::top(px(10)),
                        ..default()
                    },
                ));
                let keys: Vec<String> = KEYS.iter().map(|(k, d)| format!("{k:<26}{d}")).collect();
                panel.spawn((Text::new(keys.join("\n")), text(13.0, Color::srgb(0.8, 0.82, 0.86))));
                let path = Settings::path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "nowhere (no config directory)".into());
                panel.spawn((
                    Text::new(format!(
                        "Up/Down: choose | Left/Right or click: change | Esc: close\nSaved to {path}"
                    )),
                    text(13.0, Color::srgb(0.6, 0.62, 0.66)),
                    Node {
                        margin: UiRect::top(px(10)),
                        ..default()
                    },
                ));
            });
        });
}

/// `Esc` opens and closes the screen (in battle, once nothing else is
/// there to cancel: an aimed action, a spotlit log line); `S` opens it
/// from the level menu.
fn open_settings(
    keys: Res<ButtonInput<KeyCode>>,
    aiming: Option<Res<super::controls::Aiming>>,
    spotlight: Option<Res<super::overlays::Spotlight>>,
    menu_window: Option<Res<MenuWindow>>,
    mut menu: ResMut<SettingsMenu>,
) {
    let busy = aiming.is_some_and(|a| a.0.is_some()) || spotlight.is_some_and(|s| s.0.is_some());
    let from_menu = menu_window.is_some() && keys.just_pressed(KeyCode::KeyS);
    if (keys.just_pressed(KeyCode::Escape) && (menu.open || !busy)) || (from_menu && !menu.open) {
        menu.open = !menu.open;
    }
}

/// While open: the keys choose and change lines, clicks change them, and
/// nothing reaches the battle (its keys and clicks are spent here).
fn steer_settings(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    mut mouse: ResMut<ButtonInput<MouseButton>>,
    rows: Query<(&Interaction, &Row), Changed<Interaction>>,
    mut menu: ResMut<SettingsMenu>,
    mut settings: ResMut<Settings>,
) {
    if !menu.open {
        return;
    }
    let n = Row::ALL.len();
    if keys.just_pressed(KeyCode::ArrowDown) {
        menu.row = (menu.row + 1) % n;
    }
    if keys.just_pressed(KeyCode::ArrowUp) {
        menu.row = (menu.row + n - 1) % n;
    }
    let by = keys.just_pressed(KeyCode::ArrowRight) as i32
        - keys.just_pressed(KeyCode::ArrowLeft) as i32
        + keys.just_pressed(KeyCode::Enter) as i32;
    if by != 0 {
        Row::ALL[menu.row].change(&mut settings, by.signum());
    }
    for (interaction, row) in &rows {
        if *interaction == Interaction::Pressed {
            menu.row = Row::ALL.iter().position(|r| r == row).unwrap_or(0);
            let back = mouse.pressed(MouseButton::Right);
            row.change(&mut settings, if back { -1 } else { 1 });
        }
    }
    // The battle under the screen hears nothing.
    keys.reset_all();
    mouse.reset_all();
}

/// Until the player sets a scale: the monitor's (a 4K screen gets larger
/// panels and text).
fn scale_ui_to_monitor(
    monitors: Query<&bevy::window::Monitor, With<PrimaryMonitor>>,
    mut window: Query<&mut Window, With<PrimaryWindow>>,
    mut auto: Query<&mut AutoScale>,
    first: Option<Res<FirstStart>>,
    options: Option<Res<super::frame::PlayOptions>>,
    mut settings: ResMut<Settings>,
    mut ui: ResMut<UiScale>,
    mut commands: Commands,
) {
    let (Ok(monitor), Ok(mut window), Ok(mut auto)) =
        (monitors.single(), window.single_mut(), auto.single_mut())
    else {
        return;
    };
    let (factor, rows) = (monitor.scale_factor as f32, monitor.physical_height);
    // A first start on a high-resolution monitor opens a window as much
    // larger as the UI (not for pictures and measures: they keep 1280×720).
    let measured = options.is_some_and(|o| o.screenshot.is_some() || o.frames.is_some());
    if first.is_some() {
        commands.remove_resource::<FirstStart>();
        let size = Settings::first_window(factor, rows);
        if size != settings.window && !measured {
            settings.window = size;
            window.resolution.set(size.0 as f32, size.1 as f32);
            if let Some(path) = Settings::path() {
                let _ = settings.save(&path);
            }
        }
    }
    let size = (window.width(), window.height());
    let scale = Settings::default().ui_scale_for(factor, rows, size);
    if auto.0 != scale {
        auto.0 = scale;
    }
    let want = settings.ui_scale_for(factor, rows, size);
    if ui.0 != want {
        ui.0 = want;
    }
}

/// No settings file was there at start: the window may grow to the
/// monitor once it is known.
#[derive(Resource)]
pub struct FirstStart;

/// Each change at once: the UI scale, the window, the palette (the units'
/// colours and the overlays), the playback speed; and saved.
fn apply_settings(
    settings: Res<Settings>,
    mut last: Local<Option<Settings>>,
    mut ui: ResMut<UiScale>,
    mut window: Query<&mut Window, With<PrimaryWindow>>,
    mut palette: Option<ResMut<Palette>>,
    playback: Option<ResMut<super::playback::Playback>>,
    hover: Option<ResMut<super::preview::Hover>>,
    options: Option<Res<super::frame::PlayOptions>>,
) {
    let Some(before) = last.replace(settings.clone()) else {
        return;
    };
    if before == *settings {
        return;
    }
    if let Some(scale) = settings.ui_scale
        && before.ui_scale != settings.ui_scale
    {
        ui.0 = scale;
    }
    let measured = options.is_some_and(|o| o.screenshot.is_some() || o.frames.is_some());
    if let Ok(mut w) = window.single_mut()
        && !measured
    {
        if before.window != settings.window {
            w.resolution
                .set(settings.window.0 as f32, settings.window.1 as f32);
        }
        if before.fullscreen != settings.fullscreen {
            w.mode = if settings.fullscreen {
                WindowMode::BorderlessFullscreen(MonitorSelection::Current)
            } else {
                WindowMode::Windowed
            };
        }
    }
    if before.palette != settings.palette {
        if let Some(p) = palette.as_mut() {
            **p = Palette::of(settings.palette);
        }
        if let Some(mut h) = hover {
            h.refresh();
        }
    }
    if before.speed != settings.speed
        && let Some(mut p) = playback
    {
        p.speed = settings.speed;
    }
    if let Some(path) = Settings::path()
        && let Err(e) = settings.save(&path)
    {
        warn!("cannot save the settings to {}: {e}", path.display());
    }
}

/// The screen shown or hidden, each line's value, the chosen line lit.
fn show_settings(
    menu: Res<SettingsMenu>,
    settings: Res<Settings>,
    mut screen: Query<(&mut Node, &AutoScale), With<Screen>>,
    mut rows: Query<(&Row, &Interaction, &Children, &mut BackgroundColor)>,
    mut texts: Query<&mut Text>,
) {
    let Ok((mut node, auto)) = screen.single_mut() else {
        return;
    };
    let display = if menu.open {
        Display::Flex
    } else {
        Display::None
    };
    if node.display != display {
        node.display = display;
    }
    if !menu.open {
        return;
    }
    for (row, interaction, children, mut bg) in &mut rows {
        let chosen = Row::ALL[menu.row] == *row;
        bg.0 = match (chosen, interaction) {
            (true, _) => Color::srgb(0.22, 0.3, 0.45),
            (_, Interaction::Hovered) => Color::srgb(0.16, 0.19, 0.25),
            _ => Color::NONE,
        };
        let line = row.line(&settings, auto.0);
        for child in children.iter() {
            if let Ok(mut t) = texts.get_mut(child)
                && t.0 != line
            {
                t.0 = line.clone();
            }
        }
    }
}
