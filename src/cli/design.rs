//! `skirmish render` and `skirmish new`: a level's picture and a starter
//! level.

use crate::load;
use crate::load::catalog_at;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

/// `WxH` as two sizes.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
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

/// `skirmish render`: the level's picture as a PNG.
pub fn render(
    level: &Path,
    output: &Path,
    catalog_dir: Option<&Path>,
    options: crate::design::render::RenderOptions,
) -> ExitCode {
    let made = catalog_at(catalog_dir)
        .and_then(|c| load::load_level_file(level, &c))
        .map_err(|p| p.to_string())
        .and_then(|l| crate::design::render::render(&l, &options))
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
pub fn new_level(name: &str, (w, h): (usize, usize), output: Option<PathBuf>) -> ExitCode {
    let path = output.unwrap_or_else(|| {
        let slug: String = name
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        PathBuf::from(format!("{slug}.ron"))
    });
    let text = match crate::design::starter::starter_level(name, w, h) {
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
