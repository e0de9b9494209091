//! The `skirmish` command line.

use clap::{Parser, Subcommand};
use skirmish::format::Catalog;
use skirmish::load::{
    self, Diagnostic, FileKind, Problems, catalog_at, parse_catalog, parse_level,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Skirmish: a rules-faithful turn-based tactical grid game.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Without a command: the level menu in a window.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check level and catalog files: prints `ok` or every problem per file,
    /// exits non-zero if any file has a problem.
    Check {
        /// Files to check (levels `Level(...)` or catalogs `Catalog(...)`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The catalog levels are checked against (default: the standard
        /// one, `assets/catalog`, found wherever this runs).
        #[arg(long)]
        catalog: Option<PathBuf>,
        /// Also print `lint`'s warnings for levels.
        #[arg(long)]
        lint: bool,
    },
    /// Warnings about levels that load but may not play as meant, each as
    /// `file:line:col: warning: ...`: stuck units, sides walled off,
    /// unreachable victory zones, units starting in an enemy's reach or
    /// hidden from every enemy, objects on impassable tiles, unused legend
    /// symbols and templates. Exits non-zero only if a file does not load.
    Lint {
        /// Level files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also play N battles each way between the default AI on every
        /// side (`sim`), and warn when a side wins more than 60% of the
        /// decided ones or more than 20% are draws.
        #[arg(long, value_name = "N")]
        balance: Option<usize>,
        /// Seed of the balance battles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The catalog (default: the standard one).
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
    /// A picture of a level (PNG) with the game's tileset: terrain, victory
    /// zones, objects and units; no window or GPU needed.
    Render {
        /// The level file.
        level: PathBuf,
        /// The PNG to write.
        #[arg(short, long, value_name = "FILE.png")]
        output: PathBuf,
        /// Shade the tiles this unit can move to on its first turn (R5.1).
        #[arg(long, value_name = "UNIT")]
        reach: Option<String>,
        /// Shade the tiles this side's units threaten (R4.4).
        #[arg(long, value_name = "SIDE")]
        threat: Option<String>,
        /// Pixels per tile (default: 32, or 16 for levels over 40 wide).
        #[arg(long)]
        tile: Option<u32>,
        /// The catalog (default: the standard one).
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
    /// Write a starter level (walled map, two sides, one unit each) that
    /// passes `check` and `lint`.
    New {
        /// The level's name; the file is NAME.ron in lower case with `_`
        /// for spaces, unless -o names it.
        name: String,
        /// Size in tiles, walls included, as WxH.
        #[arg(long, default_value = "16x12", value_parser = parse_size)]
        size: (usize, usize),
        /// The file to write (never overwritten).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Edit a level in a window: paint terrain, place, move, turn and
    /// delete units and objects, set the victory and round limit; undo,
    /// redo, save (only what `check` accepts).
    Edit {
        /// The level file.
        level: PathBuf,
        /// The catalog the level is resolved against (default: the
        /// standard catalog).
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
        /// Save the window to this PNG once drawn and exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
    },
    /// Run scenario files (scripted dice, commands, expectations): one line
    /// per scenario, then `N passed, M failed`; exits non-zero if any failed.
    Verify {
        /// Scenario files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the combat log of failing scenarios.
        #[arg(long)]
        log: bool,
    },
    /// Play a replay file (a level, a seed and the accepted commands) and
    /// print its combat log and result.
    Replay {
        /// The replay file (`Replay(...)` RON).
        file: PathBuf,
        /// Play it back in the window, animated, instead of printing its
        /// log.
        #[arg(long)]
        watch: bool,
        /// With --watch: animation speed.
        #[arg(long, default_value_t = 1.0)]
        speed: f32,
        /// With --watch: save the window at the end to this PNG and exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
        /// The catalog the level is resolved against (default: the
        /// standard one).
        #[arg(long)]
        catalog: Option<PathBuf>,
    },
    /// Play many battles of a level between two AI profiles, headless and
    /// in parallel, and report wins (95% confidence), draws, rounds and
    /// what each unit kind did.
    Sim(SimArgs),
    /// Open a level in the window and play it against the AI (needs an X11
    /// display and a Vulkan driver).
    Play(PlayArgs),
    /// The guided rules tour in the window: one demo per rule area
    /// (`levels/demo/`), stepped through with captions, then yours to play.
    Tour {
        /// Which demo to open, from 1.
        #[arg(long, default_value_t = 1)]
        demo: usize,
        /// Play this many of its steps first.
        #[arg(long, default_value_t = 0)]
        step: usize,
        /// The demos' folder (default: `levels/demo`).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Save the window to this PNG once drawn and exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
    },
}

/// The arguments of `skirmish play`.
#[derive(clap::Args)]
struct PlayArgs {
    /// The level file.
    level: PathBuf,
    /// Dice seed (default: the level's `seed`, else 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Every side played by its AI: a demo.
    #[arg(long)]
    watch: bool,
    /// Play this side yourself (name or 0-based index); repeat for
    /// hot-seat.
    #[arg(long, value_name = "SIDE")]
    human: Vec<String>,
    /// Let the AI play this side (name or 0-based index).
    #[arg(long = "ai", value_name = "SIDE")]
    ai_side: Vec<String>,
    /// Save the window to this PNG once the level is drawn (with --watch:
    /// at the end of the battle) and exit.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Measure N frames after a warm-up, print `frames N median X ms p99 Y
    /// ms` and exit.
    #[arg(long, value_name = "N")]
    frames: Option<usize>,
    /// With --frames: an empty window of the same size.
    #[arg(long)]
    bare: bool,
    /// Animation speed (1 normal; 8 fast).
    #[arg(long, default_value_t = 1.0)]
    speed: f32,
    /// Write the battle as a replay file as it is played.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Keep the cursor on tile X,Y (screenshots for tests and bug reports).
    #[arg(long, value_name = "X,Y", value_parser = parse_tile)]
    hover: Option<skirmish::grid::Pos>,
    /// Overlays to switch on, by name (keys 1-7 in the window): reach,
    /// arcs, threat, range, line, flank, charge; `none` for none.
    #[arg(long, value_name = "NAMES", value_delimiter = ',', value_parser = parse_overlay)]
    overlay: Option<Vec<Option<skirmish::view::overlays::Overlay>>>,
    /// The catalog the level is resolved against (default: the standard
    /// one).
    #[arg(long)]
    catalog: Option<PathBuf>,
}

/// Reads `X,Y` as a tile.
fn parse_tile(s: &str) -> Result<skirmish::grid::Pos, String> {
    let (x, y) = s.split_once(',').ok_or("expected X,Y")?;
    let n = |v: &str| v.trim().parse::<i32>().map_err(|e| e.to_string());
    Ok(skirmish::grid::Pos::new(n(x)?, n(y)?))
}

/// The shipped levels' folder: `levels/` here, else beside the project the
/// executable was built in.
fn levels_dir() -> Option<PathBuf> {
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
fn menu() -> ExitCode {
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
            Ok(level) => levels.push(skirmish::view::menu::Entry { path, level }),
            Err(p) => eprintln!("skipping a broken level:\n{p}"),
        }
    }
    skirmish::view::menu::run_menu(levels)
}

/// `skirmish edit`: the editor's window.
fn edit(level: &Path, catalog: Option<&Path>, screenshot: Option<PathBuf>) -> ExitCode {
    let opened =
        catalog_at(catalog).and_then(|c| skirmish::design::editor::Editor::open(level, &c));
    match opened {
        Ok(editor) => skirmish::view::editor::run_editor(editor, screenshot),
        Err(p) => {
            eprintln!("{p}");
            ExitCode::FAILURE
        }
    }
}

/// `skirmish play`: the window.
fn play(args: &PlayArgs) -> ExitCode {
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
        s.parse::<usize>()
            .ok()
            .or_else(|| level.sides().iter().position(|x| x.name == s))
            .filter(|i| *i < level.sides().len())
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
    let players = skirmish::view::players_for(&level, args.watch, &overrides);
    let seed = args.seed.or(level.source.seed).unwrap_or(1);
    skirmish::view::run(skirmish::view::PlayOptions {
        level,
        seed,
        players,
        screenshot: args.screenshot.clone(),
        frames: args.frames,
        bare: args.bare,
        speed: args.speed,
        record: args.record.clone(),
        hover: args.hover,
        overlays: args.overlay.as_ref().map(|names| {
            skirmish::view::overlays::Overlays(names.iter().flatten().copied().collect())
        }),
        replay: None,
        tour: None,
        live: Some(skirmish::design::reload::LiveLevel {
            catalog: args.catalog.clone(),
            seed: args.seed,
            watch: args.watch,
            overrides,
            ..skirmish::design::reload::LiveLevel::new(&args.level)
        }),
    })
}

/// An overlay's name (`none`: no overlay).
fn parse_overlay(name: &str) -> Result<Option<skirmish::view::overlays::Overlay>, String> {
    use skirmish::view::overlays::Overlay;
    if name == "none" {
        return Ok(None);
    }
    Overlay::parse(name).map(Some).ok_or_else(|| {
        let names: Vec<&str> = Overlay::ALL.iter().map(|o| o.name()).collect();
        format!("no overlay `{name}`: one of {}, or none", names.join(", "))
    })
}

fn main() -> ExitCode {
    let Some(command) = Cli::parse().command else {
        return menu();
    };
    match command {
        Command::Check {
            files,
            catalog,
            lint,
        } => check(&files, catalog.as_deref(), lint),
        Command::Lint {
            files,
            balance,
            seed,
            catalog,
        } => lint(&files, catalog.as_deref(), balance, seed),
        Command::Render {
            level,
            output,
            reach,
            threat,
            tile,
            catalog,
        } => render(
            &level,
            &output,
            catalog.as_deref(),
            skirmish::design::render::RenderOptions {
                reach,
                threat,
                tile_px: tile,
            },
        ),
        Command::New { name, size, output } => new_level(&name, size, output),
        Command::Edit {
            level,
            catalog,
            screenshot,
        } => edit(&level, catalog.as_deref(), screenshot),
        Command::Verify { files, log } => verify(&files, log),
        Command::Replay {
            file,
            catalog,
            watch: false,
            ..
        } => replay(&file, catalog.as_deref()),
        Command::Replay {
            file,
            catalog,
            speed,
            screenshot,
            ..
        } => watch_replay(&file, catalog.as_deref(), speed, screenshot),
        Command::Sim(args) => sim(&args),
        Command::Play(args) => play(&args),
        Command::Tour {
            demo,
            step,
            dir,
            screenshot,
        } => tour(demo, step, dir, screenshot),
    }
}

/// `skirmish tour`: the guided rules tour in the window.
fn tour(demo: usize, step: usize, dir: Option<PathBuf>, screenshot: Option<PathBuf>) -> ExitCode {
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
    let (scenario, level) = match skirmish::scenario::load_file(path) {
        Ok(x) => x,
        Err(p) => {
            eprintln!("{p}");
            return ExitCode::FAILURE;
        }
    };
    let players = skirmish::view::players_for(&level, false, &[]);
    let seed = level.source.seed.unwrap_or(1);
    let tour = skirmish::view::tour::Tour::new(demos.clone(), index, scenario, players.clone());
    skirmish::view::run(skirmish::view::PlayOptions {
        level,
        seed,
        players,
        screenshot,
        frames: None,
        bare: false,
        speed: 1.0,
        record: None,
        hover: None,
        overlays: None,
        replay: None,
        tour: Some((tour, step)),
        live: None,
    })
}

/// The arguments of `skirmish sim`.
#[derive(clap::Args)]
struct SimArgs {
    /// The level file.
    level: PathBuf,
    /// Number of battles.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Profile A (side 0, or every other battle side 1 with --swap).
    #[arg(long, default_value = skirmish::ai::DEFAULT_PROFILE)]
    ai: String,
    /// Profile B.
    #[arg(long, default_value = "greedy")]
    vs: String,
    /// Seed of the run: the same seed gives the same report, whatever
    /// --jobs is.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Swap sides every other battle to cancel the map's bias.
    #[arg(long)]
    swap: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Print the combat log of battle N (0-based) instead of running
    /// the battles: watch how the AIs play.
    #[arg(long, value_name = "N")]
    log: Option<usize>,
    /// The catalog the level is resolved against (default: the standard
    /// one).
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Extra profiles (`*.ron`) over the shipped ones.
    #[arg(long, default_value = skirmish::ai::PROFILE_DIR)]
    profiles: PathBuf,
}

/// `skirmish sim`: plays the battles with a progress bar, prints the report.
fn sim(args: &SimArgs) -> ExitCode {
    let (catalog_dir, profile_dir) = (&args.catalog, &args.profiles);
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let setup = || -> Result<skirmish::sim::SimConfig, String> {
        let catalog = catalog_at(catalog_dir.as_deref()).map_err(|p| p.to_string())?;
        let level = load::load_level_file(&args.level, &catalog).map_err(|p| p.to_string())?;
        let profiles = skirmish::ai::Profiles::load(profile_dir).map_err(|p| p.to_string())?;
        let pick = |name: &str| {
            profiles.get(name).cloned().ok_or_else(|| {
                format!(
                    "unknown AI profile \"{name}\" (known: {})",
                    profiles.names().join(", ")
                )
            })
        };
        Ok(skirmish::sim::SimConfig {
            level,
            games: args.games,
            a: pick(&args.ai)?,
            b: pick(&args.vs)?,
            seed: args.seed,
            jobs,
            swap: args.swap,
        })
    };
    let config = match setup() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(index) = args.log {
        let (result, log) = skirmish::sim::play_logged(&config, index);
        print!("{log}");
        println!(
            "battle {index} (seed {}): winner side {:?} after {} rounds",
            result.seed, result.winner_side, result.rounds
        );
        return ExitCode::SUCCESS;
    }
    let bar = indicatif::ProgressBar::new(config.games as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} battles, {elapsed} elapsed, ~{eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_prefix(format!("{} vs {}", config.a.name, config.b.name));
    let results = skirmish::sim::run(&config, || bar.inc(1));
    bar.finish_and_clear();
    let report = skirmish::sim::Report::new(&config, &results);
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("cannot write the report as JSON: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        print!("{report}");
    }
    ExitCode::SUCCESS
}

/// Reads a replay file, or says what is wrong with it (with line and
/// column).
fn read_replay(file: &Path) -> Result<skirmish::save::Replay, String> {
    let name = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| format!("{name}: cannot read: {e}"))?;
    load::parse_file::<skirmish::save::Replay>(&bytes, &name, "Replay").map_err(|p| p.to_string())
}

/// `skirmish replay FILE --watch`: the recorded battle, animated in the
/// window.
fn watch_replay(
    file: &Path,
    catalog_dir: Option<&Path>,
    speed: f32,
    screenshot: Option<PathBuf>,
) -> ExitCode {
    let name = file.display().to_string();
    let loaded = read_replay(file).and_then(|r| {
        let catalog = catalog_at(catalog_dir).map_err(|p| p.to_string())?;
        let level =
            load::validate_level(r.level.clone(), &catalog, &name).map_err(|p| p.to_string())?;
        Ok((r, level))
    });
    let (replay, level) = match loaded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let players = skirmish::ai::Players(vec![None; level.sides().len()]);
    skirmish::view::run(skirmish::view::PlayOptions {
        seed: replay.seed,
        level,
        players,
        screenshot,
        frames: None,
        bare: false,
        speed,
        record: None,
        hover: None,
        overlays: None,
        replay: Some(replay),
        tour: None,
        live: None,
    })
}

/// `skirmish replay`: plays a recorded battle again.
fn replay(file: &Path, catalog_dir: Option<&Path>) -> ExitCode {
    let result = read_replay(file).and_then(|r| {
        let catalog = catalog_at(catalog_dir).map_err(|p| p.to_string())?;
        r.run(&catalog)
            .map_err(|e| format!("{}: {e}", file.display()))
    });
    match result {
        Ok(app) => {
            let world = app.world();
            print!("{}", skirmish::rules::log::CombatLog::of(world).text());
            let turn = world.resource::<skirmish::rules::turns::turn::TurnState>();
            match &turn.outcome {
                Some(o) => println!("result after round {}: {o:?}", turn.round),
                None => println!("unfinished, round {}", turn.round),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// `skirmish verify`: runs each scenario and reports.
fn verify(files: &[PathBuf], show_log: bool) -> ExitCode {
    let (mut passed, mut failed) = (0, 0);
    for path in files {
        match skirmish::scenario::run_file(path) {
            Ok(v) if v.passed() => {
                passed += 1;
                println!("ok    {}: {}", path.display(), v.name);
            }
            Ok(v) => {
                failed += 1;
                println!("FAIL  {}: {}", path.display(), v.name);
                for f in &v.failures {
                    println!("      {f}");
                }
                if show_log {
                    for line in v.log.lines() {
                        println!("      | {line}");
                    }
                }
            }
            Err(problems) => {
                failed += 1;
                println!("FAIL  {}", path.display());
                for d in &problems.0 {
                    println!("      {d}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `skirmish check`: one verdict per file.
fn check(files: &[PathBuf], catalog_dir: Option<&Path>, lint: bool) -> ExitCode {
    let catalog = catalog_at(catalog_dir);
    per_file(files, "have problems", |path| {
        let ok = checked(path, catalog.as_ref(), lint).is_some();
        if ok {
            println!("{}: ok", path.display());
        }
        ok
    })
}

/// Runs `each` on every file (`false`: that file failed), then says how
/// many failed and exits accordingly.
fn per_file(files: &[PathBuf], failure: &str, mut each: impl FnMut(&Path) -> bool) -> ExitCode {
    let failed = files.iter().filter(|p| !each(p)).count();
    if failed > 0 {
        eprintln!("{failed} of {} files {failure}", files.len());
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks one file and prints its warnings (then returns them) or its
/// problems (then `None`).
fn checked(
    path: &Path,
    catalog: Result<&Catalog, &Problems>,
    lint: bool,
) -> Option<Vec<Diagnostic>> {
    match check_file(path, catalog, lint) {
        Ok(warnings) => {
            for w in &warnings {
                println!("{}", warning_line(w));
            }
            Some(warnings)
        }
        Err(problems) => {
            for d in &problems.0 {
                println!("{d}");
            }
            None
        }
    }
}

/// A warning as `check` prints it: `file:line:col: warning: message`.
fn warning_line(d: &Diagnostic) -> String {
    match d.at {
        Some((line, col)) => format!("{}:{line}:{col}: warning: {}", d.file, d.message),
        None => format!("{}: warning: {}", d.file, d.message),
    }
}

/// Checks one file: its warnings, or every problem it has.
fn check_file(
    path: &Path,
    catalog: Result<&Catalog, &Problems>,
    lint: bool,
) -> Result<Vec<Diagnostic>, Problems> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| {
        Problems(vec![Diagnostic {
            file: file.clone(),
            at: None,
            message: format!("cannot read: {e}"),
        }])
    })?;
    match load::file_kind(&bytes) {
        FileKind::Catalog => {
            // A catalog file is checked against the rest of the catalog,
            // whose own problems are reported when it is checked itself.
            let empty = Catalog::default();
            let others = catalog.unwrap_or(&empty);
            parse_catalog(&bytes, &file, others)?;
            Ok(load::lint_catalog(&bytes, &file, others))
        }
        FileKind::Level => {
            let catalog = catalog.map_err(|p| {
                let mut all = vec![Diagnostic {
                    file: file.clone(),
                    at: None,
                    message: "cannot check a level: the catalog has problems".into(),
                }];
                all.extend(p.0.iter().cloned());
                Problems(all)
            })?;
            let valid = parse_level(&bytes, &file, catalog)?;
            // The AI profiles its sides name must exist (assets/ai/).
            let profiles = skirmish::ai::Profiles::load(Path::new(skirmish::ai::PROFILE_DIR))?;
            let src = String::from_utf8_lossy(&bytes);
            let problems = profiles.check_level(&valid.source, &src, &file);
            if problems.is_empty() {
                let mut warnings = valid.warnings.clone();
                if lint {
                    warnings.extend(skirmish::design::lint::lint_level(&valid, &src, &file));
                }
                Ok(warnings)
            } else {
                Err(Problems(problems))
            }
        }
        FileKind::Scenario => skirmish::scenario::parse(&bytes, &file).map(|_| vec![]),
    }
}

/// `WxH` as two sizes.
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("\"{s}\": write the size as WxH, e.g. 16x12"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<usize>()
            .map_err(|_| format!("\"{s}\": {v} is not a number"))
    };
    Ok((n(w)?, n(h)?))
}

/// `skirmish lint`: `check`'s warnings and the lint's, per file; with
/// `--balance`, the battles' verdict too.
fn lint(
    files: &[PathBuf],
    catalog_dir: Option<&Path>,
    balance: Option<usize>,
    seed: u64,
) -> ExitCode {
    let catalog = catalog_at(catalog_dir);
    per_file(files, "could not be linted", |path| {
        let Some(warnings) = checked(path, catalog.as_ref(), true) else {
            return false;
        };
        let mut count = warnings.len();
        if let (Some(n), Ok(c)) = (balance, catalog.as_ref()) {
            match balance_of(path, c, n, seed) {
                Ok((found, verdict)) => {
                    println!("{}: {verdict}", path.display());
                    count += found.len();
                    for w in &found {
                        println!("{}", warning_line(w));
                    }
                }
                Err(e) => {
                    eprintln!("{e}");
                    return false;
                }
            }
        }
        let plural = if count == 1 { "" } else { "s" };
        println!("{}: {count} warning{plural}", path.display());
        true
    })
}

/// `lint --balance N`: N battles each way, with a progress bar.
fn balance_of(
    path: &Path,
    catalog: &Catalog,
    n: usize,
    seed: u64,
) -> Result<(Vec<Diagnostic>, String), String> {
    let level = load::load_level_file(path, catalog).map_err(|p| p.to_string())?;
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let profiles = skirmish::ai::Profiles::load(Path::new(skirmish::ai::PROFILE_DIR))
        .map_err(|p| p.to_string())?;
    let bar = indicatif::ProgressBar::new(2 * n as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "balance [{bar:30}] {pos}/{len} battles, ~{eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let found = skirmish::design::lint::balance(
        &level,
        &src,
        &path.display().to_string(),
        &profiles,
        n,
        seed,
        || bar.inc(1),
    );
    bar.finish_and_clear();
    found
}

/// `skirmish render`: the level's picture as a PNG.
fn render(
    level: &Path,
    output: &Path,
    catalog_dir: Option<&Path>,
    options: skirmish::design::render::RenderOptions,
) -> ExitCode {
    let made = catalog_at(catalog_dir)
        .and_then(|c| load::load_level_file(level, &c))
        .map_err(|p| p.to_string())
        .and_then(|l| skirmish::design::render::render(&l, &options))
        .and_then(|picture| {
            let file = std::fs::File::create(output)
                .map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
            picture.write_png(std::io::BufWriter::new(file))
        });
    match made {
        Ok(()) => {
            println!("{}", output.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// `skirmish new`: a starter level, never over an existing file.
fn new_level(name: &str, (w, h): (usize, usize), output: Option<PathBuf>) -> ExitCode {
    let path = output.unwrap_or_else(|| {
        let slug: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        PathBuf::from(format!("{slug}.ron"))
    });
    let text = match skirmish::design::starter::starter_level(name, w, h) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skirmish new: {e}");
            return ExitCode::FAILURE;
        }
    };
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()));
    match written {
        Ok(()) => {
            println!("{}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("skirmish new: {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
