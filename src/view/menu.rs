//! The level menu: every level in `levels/` with its name, description,
//! size and sides. Choosing one starts `skirmish play LEVEL` and closes the
//! menu.

use crate::load::ValidLevel;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::path::PathBuf;
use std::process::ExitCode;

/// A level the menu offers.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its file.
    pub path: PathBuf,
    /// The level, checked.
    pub level: ValidLevel,
}

/// One line of the menu: the level's name, size and sides (its
/// description is shown under the list while it is hovered). A side the
/// level leaves to the default AI is played at `difficulty` (a profile).
pub fn describe(e: &Entry, difficulty: &str) -> String {
    let l = &e.level;
    let sides: Vec<String> = l
        .sides()
        .iter()
        .map(|s| {
            let who = match &s.control {
                crate::format::Control::Human => "you".to_string(),
                crate::format::Control::Ai(p) => {
                    format!("AI {}", p.as_deref().unwrap_or(difficulty))
                }
            };
            let n = l
                .units
                .iter()
                .filter(|u| l.sides()[u.side].name == s.name)
                .count();
            format!("{} ({n} units, {who})", s.name)
        })
        .collect();
    format!(
        "{} - {}x{} - {}",
        l.name(),
        l.map.width(),
        l.map.height(),
        sides.join(" vs "),
    )
}

#[derive(Resource)]
struct Levels(Vec<Entry>);

/// The menu's line that opens the settings.
const SETTINGS: usize = usize::MAX - 1;

#[derive(Component)]
struct Choice(usize);

/// The menu's last line: the guided rules tour rather than a level.
const TOUR: usize = usize::MAX;

/// The menu's line that changes the difficulty.
const DIFFICULTY: usize = usize::MAX - 2;

/// The difficulties the menu offers: the AI profile every plain `Ai` side
/// of the chosen level plays (`play --difficulty`).
pub const DIFFICULTIES: [&str; 3] = ["easy", "normal", "hard"];

/// The difficulty chosen, an index into [`DIFFICULTIES`] (Normal first).
#[derive(Resource)]
struct Difficulty(usize);

/// The words of the difficulty line.
#[derive(Component)]
struct DifficultyWords;

/// The words of level `0`'s line: rewritten when the difficulty changes.
#[derive(Component)]
struct LevelWords(usize);

fn difficulty_words(d: usize) -> String {
    let names: Vec<String> = DIFFICULTIES
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut n = n.to_string();
            n[..1].make_ascii_uppercase();
            if i == d { format!("[{n}]") } else { n }
        })
        .collect();
    format!(
        "D. Difficulty: {}  (click or D to change: how far and how long the AI looks ahead)",
        names.join("  ")
    )
}

/// The digits of a level's number typed so far, while a longer number
/// may follow (`1` of `12`): past nine levels one key cannot choose.
#[derive(Resource, Default)]
struct Typed(String);

/// The menu's title: it says what the digits typed so far choose.
#[derive(Component)]
struct Title;

/// What the title says while nothing is typed.
const TITLE: &str = "Skirmish: choose a battle (click, or type its number)";

/// What the digits `typed` choose among `count` levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypedLevel {
    /// Level `n` (1-based) and no longer number: open it now.
    Open(usize),
    /// Level `n`, or a longer number that begins so: Enter opens `n`,
    /// another digit goes on.
    Pending(usize),
    /// No level has that number: start again.
    Nothing,
}

/// What the digits `typed` choose among `count` levels (numbered from 1).
fn typed_level(typed: &str, count: usize) -> TypedLevel {
    let Ok(n) = typed.parse::<usize>() else {
        return TypedLevel::Nothing;
    };
    if typed.starts_with('0') || n == 0 || n > count {
        return TypedLevel::Nothing;
    }
    // A longer number beginning with these digits is at least n * 10.
    if n.saturating_mul(10) <= count {
        TypedLevel::Pending(n)
    } else {
        TypedLevel::Open(n)
    }
}

/// The panel under the list with the hovered level's description.
#[derive(Component)]
struct LevelDescription;

/// What the description panel says before a level is hovered.
const HOVER_HINT: &str = "Hover over a level to read what it is about.";

/// Level `i`'s line at difficulty `d` (an index into [`DIFFICULTIES`]).
fn level_words(i: usize, e: &Entry, d: usize) -> String {
    format!("{}. {}", i + 1, describe(e, DIFFICULTIES[d]))
}

/// Opens the menu window.
pub fn run_menu(levels: Vec<Entry>) -> ExitCode {
    if let Some(problem) = super::display_problem() {
        eprintln!("skirmish: {problem}");
        return ExitCode::from(2);
    }
    let first = super::settings::first_start();
    let settings = super::settings::load_settings();
    let shooting = std::env::var_os("SKIRMISH_SCREENSHOT").is_some();
    let size = if shooting {
        super::frame::WINDOW
    } else {
        settings.window
    };
    let plugins = DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Skirmish".into(),
            resolution: WindowResolution::from(size),
            ..default()
        }),
        ..default()
    });
    let mut app = App::new();
    if first && !shooting {
        app.insert_resource(super::settings::FirstStart);
    }
    app.add_plugins(super::sound::default_plugins(plugins))
        .insert_resource(settings)
        .insert_resource(super::settings::MenuWindow)
        .add_plugins(super::settings::menu_plugin)
        .insert_resource(Levels(levels))
        .insert_resource(Difficulty(1))
        .init_resource::<Typed>()
        .add_systems(Startup, spawn_menu)
        .add_systems(Update, (choose_level, show_description))
        .add_systems(Last, shoot_menu)
        .run();
    ExitCode::SUCCESS
}

fn spawn_menu(mut commands: Commands, levels: Res<Levels>) {
    commands.spawn(Camera2d);
    commands
        .spawn((
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(12)),
                row_gap: px(3),
                ..default()
            },
            BackgroundColor(Color::srgb(0.07, 0.08, 0.1)),
        ))
        .with_children(|root| {
            root.spawn((
                Title,
                Text::new(TITLE),
                TextFont {
                    font_size: FontSize::Px(24.0),
                    ..default()
                },
                TextColor(Color::srgb(1.0, 0.9, 0.5)),
            ));
            // First, where it is seen before a level is chosen.
            spawn_choice(
                root,
                DIFFICULTY,
                difficulty_words(1),
                Color::srgb(0.75, 1.0, 0.75),
            );
            for (i, e) in levels.0.iter().enumerate() {
                spawn_choice(root, i, level_words(i, e, 1), Color::WHITE);
            }
            // A level a line, so that every one fits a 1280x720 window;
            // the hovered one's description here.
            root.spawn((
                Node {
                    width: px(1220),
                    min_height: px(62),
                    padding: UiRect::axes(px(10), px(6)),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.1, 0.11, 0.14)),
            ))
            .with_children(|panel| {
                panel.spawn((
                    LevelDescription,
                    Text::new(HOVER_HINT),
                    TextFont {
                        font_size: FontSize::Px(15.0),
                        ..default()
                    },
                    TextColor(Color::srgb(0.85, 0.85, 0.8)),
                ));
            });
            spawn_choice(
                root,
                TOUR,
                "T. Rules tour: a short demo of each rule area, step by step with captions, \
                 then yours to try (skirmish tour)"
                    .into(),
                Color::srgb(1.0, 0.9, 0.5),
            );
            spawn_choice(
                root,
                SETTINGS,
                "S. Settings: UI scale, window, animation speed, volume, colour-blind palette, keys \
                 (Esc in battle)"
                    .into(),
                Color::srgb(0.7, 0.85, 1.0),
            );
        });
}

/// A line of the menu: a button choosing `choice`.
fn spawn_choice(root: &mut ChildSpawnerCommands, choice: usize, words: String, color: Color) {
    root.spawn((
        Button,
        Choice(choice),
        // Wide enough for a level's name, size and sides on one line.
        Node {
            width: px(1220),
            padding: UiRect::axes(px(10), px(4)),
            ..default()
        },
        BackgroundColor(Color::srgb(0.15, 0.17, 0.22)),
    ))
    .with_children(|b| {
        let mut text = b.spawn((
            Text::new(words),
            TextFont {
                font_size: FontSize::Px(15.0),
                ..default()
            },
            TextColor(color),
        ));
        match choice {
            DIFFICULTY => {
                text.insert(DifficultyWords);
            }
            TOUR | SETTINGS => {}
            level => {
                text.insert(LevelWords(level));
            }
        }
    });
}

/// The title's words, apart from the lines' (which the difficulty
/// rewrites).
type TitleText<'w, 's> =
    Query<'w, 's, &'static mut Text, (With<Title>, Without<DifficultyWords>, Without<LevelWords>)>;

/// The level the digits typed choose, if one is chosen now: a digit goes
/// on the number, Enter opens a number that could go on, Backspace starts
/// again (Esc opens the settings, as ever); the title says where the typing stands.
fn type_level(
    keys: &ButtonInput<KeyCode>,
    typed: &mut Typed,
    count: usize,
    title: &mut TitleText,
) -> Option<usize> {
    let before = typed.0.clone();
    if keys.just_pressed(KeyCode::Backspace) {
        typed.0.clear();
    }
    // `0`, then the keys `1` to `9` the overlays and the editor use.
    let digits = std::iter::once(KeyCode::Digit0).chain(super::controls::DIGIT_KEYS);
    for (n, key) in digits.enumerate() {
        if keys.just_pressed(key) {
            typed.0.push_str(&n.to_string());
        }
    }
    let enter = keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter]);
    let chosen = match typed_level(&typed.0, count) {
        TypedLevel::Open(n) => Some(n - 1),
        TypedLevel::Pending(n) if enter => Some(n - 1),
        TypedLevel::Pending(_) => None,
        TypedLevel::Nothing => {
            typed.0.clear();
            None
        }
    };
    if chosen.is_some() {
        typed.0.clear();
    }
    if typed.0 != before {
        for mut text in title.iter_mut() {
            text.0 = match typed_level(&typed.0, count) {
                TypedLevel::Pending(n) => format!(
                    "Level {n}_ : Enter opens {n}, or type the next digit (Backspace: start again)"
                ),
                _ => TITLE.to_string(),
            };
        }
    }
    chosen
}

fn choose_level(
    levels: Res<Levels>,
    mut typed: ResMut<Typed>,
    mut title: TitleText,
    mut difficulty: ResMut<Difficulty>,
    mut words: Query<
        (&mut Text, Option<&LevelWords>),
        (
            Or<(With<DifficultyWords>, With<LevelWords>)>,
            Without<Title>,
        ),
    >,
    keys: Res<ButtonInput<KeyCode>>,
    mut buttons: Query<(&Interaction, &Choice, &mut BackgroundColor), Changed<Interaction>>,
    mut settings: ResMut<super::settings::SettingsMenu>,
    mut exit: MessageWriter<AppExit>,
) {
    if settings.open {
        return;
    }
    let mut chosen = type_level(&keys, &mut typed, levels.0.len(), &mut title);
    if keys.just_pressed(KeyCode::KeyT) {
        chosen = Some(TOUR);
    }
    if keys.just_pressed(KeyCode::KeyD) {
        chosen = Some(DIFFICULTY);
    }
    for (interaction, choice, mut color) in &mut buttons {
        match interaction {
            Interaction::Pressed => chosen = Some(choice.0),
            Interaction::Hovered => color.0 = Color::srgb(0.22, 0.26, 0.34),
            Interaction::None => color.0 = Color::srgb(0.15, 0.17, 0.22),
        }
    }
    let args: Vec<std::ffi::OsString> = match chosen {
        Some(TOUR) => vec!["tour".into()],
        Some(SETTINGS) => {
            settings.open = true;
            return;
        }
        Some(DIFFICULTY) => {
            difficulty.0 = (difficulty.0 + 1) % DIFFICULTIES.len();
            // The level lines say who the AI sides are: at the new level.
            for (mut text, level) in &mut words {
                text.0 = match level {
                    Some(LevelWords(i)) => level_words(*i, &levels.0[*i], difficulty.0),
                    None => difficulty_words(difficulty.0),
                };
            }
            return;
        }
        Some(i) => match levels.0.get(i) {
            Some(entry) => vec![
                "play".into(),
                entry.path.clone().into(),
                "--difficulty".into(),
                DIFFICULTIES[difficulty.0].into(),
            ],
            None => return,
        },
        None => return,
    };
    if super::frame::relaunch(&args) {
        exit.write(AppExit::Success);
    }
}

/// Shows the hovered level's description under the list.
fn show_description(
    levels: Res<Levels>,
    buttons: Query<(&Interaction, &Choice), Changed<Interaction>>,
    mut panel: Query<&mut Text, With<LevelDescription>>,
) {
    for (interaction, choice) in &buttons {
        let Some(entry) = levels.0.get(choice.0) else {
            continue;
        };
        if *interaction == Interaction::Hovered {
            for mut text in &mut panel {
                text.0 = entry.level.source.description.clone();
            }
        }
    }
}

/// `SKIRMISH_SCREENSHOT=FILE.png skirmish`: saves the menu once drawn and
/// exits (for the docs and bug reports, like `play --screenshot`).
fn shoot_menu(mut frames: Local<u32>, mut commands: Commands, mut exit: MessageWriter<AppExit>) {
    let Some(path) = std::env::var_os("SKIRMISH_SCREENSHOT").map(PathBuf::from) else {
        return;
    };
    *frames += 1;
    if *frames == 30 {
        let _ = std::fs::remove_file(&path);
        commands
            .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
            .observe(bevy::render::view::screenshot::save_to_disk(path));
    } else if *frames > 33 && std::fs::metadata(&path).is_ok_and(|m| m.len() > 0) {
        exit.write(AppExit::Success);
    } else if *frames > 600 {
        exit.write(AppExit::error());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::system::RunSystemOnce;

    #[test]
    fn a_typed_number_opens_its_level_once_no_longer_number_can_follow() {
        // 21 levels: 1 and 2 may go on (10-19, 20-21), 3 to 9 cannot.
        assert_eq!(typed_level("1", 21), TypedLevel::Pending(1));
        assert_eq!(typed_level("2", 21), TypedLevel::Pending(2));
        assert_eq!(typed_level("3", 21), TypedLevel::Open(3));
        assert_eq!(typed_level("12", 21), TypedLevel::Open(12));
        assert_eq!(typed_level("21", 21), TypedLevel::Open(21));
        // No such level: start again.
        assert_eq!(typed_level("22", 21), TypedLevel::Nothing);
        assert_eq!(typed_level("0", 21), TypedLevel::Nothing);
        assert_eq!(typed_level("", 21), TypedLevel::Nothing);
        // With nine levels or fewer every digit opens at once, as before.
        assert_eq!(typed_level("1", 9), TypedLevel::Open(1));
        assert_eq!(typed_level("9", 9), TypedLevel::Open(9));
    }

    /// Presses `keys` in one frame and runs the menu's typing over 18
    /// levels: the level chosen, if any, and the title after.
    fn press(world: &mut World, keys: &[KeyCode]) -> (Option<usize>, String) {
        let mut input = world.resource_mut::<ButtonInput<KeyCode>>();
        input.reset_all();
        keys.iter().for_each(|k| input.press(*k));
        let chosen = world
            .run_system_once(
                |keys: Res<ButtonInput<KeyCode>>,
                 mut typed: ResMut<Typed>,
                 mut title: TitleText| {
                    type_level(&keys, &mut typed, 18, &mut title)
                },
            )
            .expect("the typing runs");
        let mut title = world.query_filtered::<&Text, With<Title>>();
        (chosen, title.single(world).expect("one title").0.clone())
    }

    #[test]
    fn the_keys_type_a_level_s_number_and_the_title_follows() {
        let mut world = World::new();
        world.init_resource::<ButtonInput<KeyCode>>();
        world.init_resource::<Typed>();
        world.spawn((Title, Text::new(TITLE)));
        // 1 waits (10-18 may follow), and the title says so.
        let (chosen, title) = press(&mut world, &[KeyCode::Digit1]);
        assert_eq!(chosen, None);
        assert!(title.starts_with("Level 1_ : Enter opens 1"), "{title}");
        // 5 after it opens level 15 (index 14); the title is as before.
        assert_eq!(
            press(&mut world, &[KeyCode::Digit5]),
            (Some(14), TITLE.into())
        );
        // 1 then Enter opens level 1.
        press(&mut world, &[KeyCode::Digit1]);
        assert_eq!(press(&mut world, &[KeyCode::Enter]).0, Some(0));
        // Backspace starts again: 1, Backspace, then 3 opens level 3.
        press(&mut world, &[KeyCode::Digit1]);
        assert_eq!(
            press(&mut world, &[KeyCode::Backspace]),
            (None, TITLE.into())
        );
        assert_eq!(press(&mut world, &[KeyCode::Digit3]).0, Some(2));
        // 9 opens at once; 0 alone is no level and is dropped.
        assert_eq!(press(&mut world, &[KeyCode::Digit9]).0, Some(8));
        assert_eq!(press(&mut world, &[KeyCode::Digit0]), (None, TITLE.into()));
        assert_eq!(press(&mut world, &[KeyCode::Digit4]).0, Some(3));
    }
}
