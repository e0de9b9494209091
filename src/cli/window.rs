//! The subcommands that open a window: the level menu (`skirmish` alone),
//! `play`, `edit` and `tour`.

use crate::load;
use crate::load::catalog_at;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

/// The shipped levels' folder: `levels/` here, else beside the project the
/// executable was built in.
pub fn levels_dir() -> Option<PathBuf> {
    let here = PathBuf::from("levels");
    if here.is_dir() {
        return Some(here);
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|d| d.join("levels"))
        .find(|d| d.is_dir() && d.parent().is_some_and(|p| p.join("Cargo.toml").is_file()))
}

/// `skirmish` alone: the level menu.
pub fn menu() -> ExitCode {
    let Some(dir) = levels_dir() else {
        eprintln!("skirmish: no levels/ folder here; run `skirmish play LEVEL.ron`");
        return ExitCode::FAILURE;
    };
    let catalog = match catalog_at(None) {
        Ok(c) => c,
        Err(p) => {
            eprintln!("{p}");
            return ExitCode::FAILURE;
        }
    };
    let files = load::ron_files(&dir);
    let mut levels = vec![];
    for path in files {
        match load::load_level_file(&path, &catalog) {
            Ok(level) => levels.push(crate::view::menu::Entry { path, level }),
            Err(p) => eprintln!("skipping a broken level:\n{p}"),
        }
    }
    crate::view::menu::run_menu(levels)
}

/// `skirmish edit`: the editor's window.
pub fn edit(level: &Path, catalog: Option<&Path>, screenshot: Option<PathBuf>) -> ExitCode {
    let opened = catalog_at(catalog).and_then(|c| crate::design::editor::Editor::open(level, &c));
    match opened {
        Ok(editor) => crate::view::editor::run_editor(editor, screenshot),
        Err(p) => {
            eprintln!("{p}");
            ExitCode::FAILURE
        }
    }
}

/// The arguments of `skirmish play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The level file.
    pub level: PathBuf,
    /// Dice seed (default: the level's `seed`, else 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Every side played by its AI: a demo.
    #[arg(long)]
    pub watch: bool,
    /// Play this side yourself (name or 0-based index); repeat for
    /// hot-seat.
    #[arg(long, value_name = "SIDE")]
    pub human: Vec<String>,
    /// Let the AI play this side (name or 0-based index).
    #[arg(long = "ai", value_name = "SIDE")]
    pub ai_side: Vec<String>,
    /// The AI profile every plain `Ai` side plays: easy, normal (the
    /// default) or hard, or any profile's name (the level menu's
    /// difficulty).
    #[arg(long, value_name = "PROFILE")]
    pub difficulty: Option<String>,
    /// Save the window to this PNG once the level is drawn (with --watch:
    /// at the end of the battle) and exit.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Measure N frames after a warm-up, print `frames N median X ms p99 Y
    /// ms` and exit.
    #[arg(long, value_name = "N")]
    pub frames: Option<usize>,
    /// With --frames: an empty window of the same size.
    #[arg(long)]
    pub bare: bool,
    /// With --frames: present frames as fast as they are drawn (no vsync),
    /// so the figures measure what a frame costs.
    #[arg(long)]
    pub no_vsync: bool,
    /// With --screenshot: shoot once N battle events have been played
    /// (mid-animation; with --watch, an AI turn as it happens).
    #[arg(long, value_name = "N")]
    pub shot_after: Option<usize>,
    /// Animation speed (1 normal; 8 fast; default: the settings').
    #[arg(long)]
    pub speed: Option<f32>,
    /// Write the battle as a replay file as it is played.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Keep the cursor on tile X,Y (screenshots for tests and bug reports).
    #[arg(long, value_name = "X,Y", value_parser = parse_tile)]
    pub hover: Option<crate::grid::Pos>,
    /// Show each enemy's intent (the `/` key) once it is your turn
    /// (screenshots).
    #[arg(long)]
    pub intent: bool,
    /// A spell armed for your caster, `NAME` or `NAME:LEVEL` (V11; keys
    /// Shift+1-8 in the window): with --hover, its area and odds.
    #[arg(long, value_name = "NAME[:LEVEL]", value_parser = parse_spell)]
    pub spell: Option<(String, i32)>,
    /// Overlays to switch on, by name (keys 1-7 in the window): reach,
    /// arcs, threat, range, line, flank, charge; `none` for none.
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_overlay)]
    pub overlay: Option<Vec<Option<crate::format::Overlay>>>,
    /// The catalog the level is resolved against (default: the standard
    /// one).
    #[arg(long)]
    pub catalog: Option<PathBuf>,
}

/// Reads `NAME` or `NAME:LEVEL` as a spell and its level (0: its own).
pub fn parse_spell(s: &str) -> Result<(String, i32), String> {
    match s.rsplit_once(':') {
        Some((name, level)) => Ok((
            name.trim().to_string(),
            level.trim().parse::<i32>().map_err(|e| e.to_string())?,
        )),
        None => Ok((s.trim().to_string(), 0)),
    }
}

/// Reads `X,Y` as a tile.
pub fn parse_tile(s: &str) -> Result<crate::grid::Pos, String> {
    let (x, y) = s.split_once(',').ok_or("expected X,Y")?;
    let n = |v: &str| v.trim().parse::<i32>().map_err(|e| e.to_string());
    Ok(crate::grid::Pos::new(n(x)?, n(y)?))
}

/// `skirmish play`: the window.
pub fn play(args: &PlayArgs) -> ExitCode {
    let loaded =
        catalog_at(args.catalog.as_deref()).and_then(|c| load::load_level_file(&args.level, &c));
    let level = match loaded {
        Ok(l) => l,
        Err(p) => {
            eprintln!("{p}");
            return ExitCode::FAILURE;
        }
    };
    let side = |s: &str| {
        level
            .side_index(s)
            .ok_or_else(|| format!("{}: no side \"{s}\"", args.level.display()))
    };
    let mut overrides = vec![];
    for (names, ai) in [(&args.human, false), (&args.ai_side, true)] {
        for n in names {
            match side(n) {
                Ok(i) => overrides.push((i, ai)),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    let difficulty = args.difficulty.as_deref();
    let players = match crate::view::players_for(&level, args.watch, &overrides, difficulty) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let seed = args.seed.or(level.source.seed).unwrap_or(1);
    crate::view::run(
        crate::view::PlayOptions {
            level,
            seed,
            players,
            screenshot: args.screenshot.clone(),
            frames: args.frames,
            bare: args.bare,
            no_vsync: args.no_vsync,
            shot_after: args.shot_after,
            speed: args.speed,
            record: args.record.clone(),
            hover: args.hover,
            intent: args.intent,
            spell: args.spell.clone(),
            overlays: args
                .overlay
                .as_ref()
                .map(|names| names.iter().flatten().copied().collect()),
            replay: None,
            view_as: None,
            live: Some(crate::design::reload::LiveLevel {
                catalog: args.catalog.clone(),
                seed: args.seed,
                watch: args.watch,
                overrides,
                difficulty: args.difficulty.clone(),
                ..crate::design::reload::LiveLevel::new(&args.level)
            }),
        },
        None,
    )
}

/// An overlay's name (`none`: no overlay).
pub fn parse_overlay(name: &str) -> Result<Option<crate::format::Overlay>, String> {
    use crate::format::Overlay;
    if name == "none" {
        return Ok(None);
    }
    Overlay::parse(name).map(Some).ok_or_else(|| {
        let names: Vec<&str> = Overlay::ALL.iter().map(|o| o.name()).collect();
        format!("no overlay `{name}`: one of {}, or none", names.join(", "))
    })
}

/// `skirmish tour`: the guided rules tour in the window.
pub fn tour(
    demo: usize,
    step: usize,
    dir: Option<PathBuf>,
    screenshot: Option<PathBuf>,
) -> ExitCode {
    let Some(dir) = dir.or_else(|| levels_dir().map(|d| d.join("demo"))) else {
        eprintln!("skirmish: no levels/demo folder here; give one with --dir");
        return ExitCode::FAILURE;
    };
    let demos = load::ron_files(&dir);
    let index = demo.max(1) - 1;
    let Some(path) = demos.get(index) else {
        eprintln!(
            "skirmish: no demo {demo} in {} ({} demos)",
            dir.display(),
            demos.len()
        );
        return ExitCode::FAILURE;
    };
    let (scenario, level) = match crate::scenario::load_file(path) {
        Ok(x) => x,
        Err(p) => {
            eprintln!("{p}");
            return ExitCode::FAILURE;
        }
    };
    let Ok(players) = crate::view::players_for(&level, false, &[], None) else {
        return ExitCode::FAILURE;
    };
    let seed = level.source.seed.unwrap_or(1);
    let tour = crate::view::tour::Tour::new(demos.clone(), index, scenario, players.clone());
    crate::view::run(
        crate::view::PlayOptions {
            screenshot,
            ..crate::view::PlayOptions::new(level, seed, players)
        },
        Some((tour, step)),
    )
}
