//! `skirmish sim`: battles between AI profiles, with a progress bar and
//! a report.

use crate::load;
use crate::load::catalog_at;
use crate::sim::Keeper;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

/// The arguments of `skirmish sim`.
#[derive(clap::Args)]
pub struct SimArgs {
    /// The level file.
    pub level: PathBuf,
    /// Number of battles.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Profile A (side 0, or every other battle side 1 with --swap).
    #[arg(long, default_value = crate::ai::DEFAULT_PROFILE)]
    pub ai: String,
    /// Profile B.
    #[arg(long, default_value = "greedy")]
    pub vs: String,
    /// Seed of the run: the same seed gives the same report, whatever
    /// --jobs is.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Swap sides every other battle to cancel the map's bias.
    #[arg(long)]
    pub swap: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print the combat log of battle N (0-based) instead of running
    /// the battles: watch how the AIs play.
    #[arg(long, value_name = "N")]
    pub log: Option<usize>,
    /// With --log (battle 0 without): before each look-ahead decision, the
    /// best plans it considered with their values, N of them.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "3")]
    pub explain: Option<usize>,
    /// The catalog the level is resolved against (default: the standard
    /// one).
    #[arg(long)]
    pub catalog: Option<PathBuf>,
    /// Extra profiles (`*.ron`) over the shipped ones.
    #[arg(long, default_value = crate::ai::PROFILE_DIR)]
    pub profiles: PathBuf,
    /// Keep each battle in FILE as it ends, and play only the battles FILE
    /// does not hold yet: a run stopped part way, started again with the
    /// same command (and build), goes on where it stopped and reports what
    /// one unbroken run would; a larger --games adds battles to it.
    #[arg(long, value_name = "FILE")]
    pub keep: Option<PathBuf>,
    /// Set this run beside an earlier one on the same battles: FILE is
    /// its JSON report (`--json`) of the same level, --vs, --seed and
    /// --swap. Prints the battles this run's A came out of better and
    /// worse, and the sign test's p: a paired test, far sharper than two
    /// win rates.
    #[arg(long, value_name = "FILE")]
    pub paired: Option<PathBuf>,
}

/// `skirmish sim`: plays the battles with a progress bar, prints the report.
pub fn sim(args: &SimArgs) -> ExitCode {
    let (catalog_dir, profile_dir) = (&args.catalog, &args.profiles);
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let setup = || -> Result<crate::sim::SimConfig, String> {
        let catalog = catalog_at(catalog_dir.as_deref()).map_err(|p| p.to_string())?;
        let level = load::load_level_file(&args.level, &catalog).map_err(|p| p.to_string())?;
        let profiles = crate::ai::Profiles::load(profile_dir).map_err(|p| p.to_string())?;
        let pick = |name: &str| {
            profiles.get(name).cloned().ok_or_else(|| {
                format!(
                    "unknown AI profile \"{name}\" (known: {})",
                    profiles.names().join(", ")
                )
            })
        };
        Ok(crate::sim::SimConfig {
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
    if args.log.is_some() || args.explain.is_some() {
        let index = args.log.unwrap_or(0);
        let top = args.explain.unwrap_or(0);
        let (result, log) = crate::sim::play_explained(&config, index, top);
        print!("{log}");
        println!(
            "battle {index} (seed {}): winner side {:?} after {} rounds",
            result.seed, result.winner_side, result.rounds
        );
        return ExitCode::SUCCESS;
    }
    // Read before the battles are played: a broken file fails at once, not
    // after an hour's run.
    let earlier = match args.paired.as_deref().map(crate::sim::Earlier::read) {
        None => None,
        Some(Ok(earlier)) => Some(earlier),
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if let (Some(earlier), Some(file)) = (&earlier, &args.paired)
        && let Err(e) = earlier.check(&crate::sim::Battles::of(&config))
    {
        eprintln!("{}: {e}", file.display());
        return ExitCode::FAILURE;
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
    let (keeper, kept) = match args.keep.as_deref().map(|p| Keeper::open(p, &config)) {
        None => (None, Vec::new()),
        Some(Ok((keeper, kept))) => (Some(keeper), kept),
        Some(Err(e)) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    bar.set_position(kept.iter().filter(|r| r.index < config.games).count() as u64);
    bar.reset_eta();
    // A battle that cannot be kept is still counted; the run says so at
    // its end and fails, since a restart would play it again.
    let unkept: Mutex<Option<load::Diagnostic>> = Mutex::new(None);
    let results = crate::sim::run_on(&config, kept, |r| {
        if let Some(Err(e)) = keeper.as_ref().map(|k| k.keep(r))
            && let Ok(mut first) = unkept.lock()
        {
            first.get_or_insert(e);
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let mut report = crate::sim::Report::new(&config, &results);
    report.paired = earlier.map(|earlier| crate::sim::Paired::of(&report, &earlier));
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
    if let Some(e) = unkept.into_inner().ok().flatten() {
        eprintln!("battles not kept: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
