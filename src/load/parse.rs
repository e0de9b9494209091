//! Parsing: bytes to levels and catalogs, every problem located; the
//! standard catalog (built into the binary, or read from `assets/catalog`).

use super::locate::{Locator, Needle};
use super::problems::{Diagnostic, Problems};
use super::validate::{ValidLevel, check_level};
use super::validate_catalog::{
    catalog_warnings, check_catalog, check_catalog_duplicates, check_catalog_refs,
};
use crate::format::{Catalog, Level};
use ron::extensions::Extensions;
use std::path::{Path, PathBuf};

/// The RON options every file is read with. `IMPLICIT_SOME` lets designers
/// write `armor: "leather"` as well as `armor: Some("leather")`.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// Decodes `bytes` as UTF-8 text, or says where the first bad byte is.
fn decode<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str, Problems> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        Problems(vec![Diagnostic {
            file: file.to_string(),
            at: Some((line, col)),
            message: "not a text file: invalid UTF-8 byte (levels are RON text)".into(),
        }])
    })
}

/// Parses RON text into `T`, turning a syntax or shape error into a
/// diagnostic with its line and column.
fn parse_ron<T: serde::de::DeserializeOwned>(
    src: &str,
    file: &str,
    what: &str,
) -> Result<T, Problems> {
    if src.trim().is_empty() {
        return Err(Problems(vec![Diagnostic {
            file: file.to_string(),
            at: Some((1, 1)),
            message: format!("the file is empty: expected {what}(...)"),
        }]));
    }
    ron_options().from_str::<T>(src).map_err(|e| {
        let hint = match e.code {
            ron::Error::ExpectedComma => " (is one missing at the end of the previous value?)",
            ron::Error::Eof => " (is a closing bracket missing?)",
            _ => "",
        };
        Problems(vec![Diagnostic {
            file: file.to_string(),
            at: Some((e.span.start.line.max(1), e.span.start.col.max(1))),
            message: format!("RON syntax: {}{hint}", e.code),
        }])
    })
}

/// Reads any RON file of the project (a level, a catalog, a scenario, a
/// replay) into `T`: not UTF-8, empty, and syntax or shape errors become
/// diagnostics with line and column. `what` names the expected struct.
pub fn parse_file<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    file: &str,
    what: &str,
) -> Result<T, Problems> {
    parse_ron(decode(bytes, file)?, file, what)
}

/// Parses and checks a catalog file. Names its templates use (weapons,
/// armor…) may be defined in the file itself or in `others`, the rest of the
/// catalog.
pub fn parse_catalog(bytes: &[u8], file: &str, others: &Catalog) -> Result<Catalog, Problems> {
    let src = decode(bytes, file)?;
    let catalog: Catalog = parse_ron(src, file, "Catalog")?;
    let problems = check_catalog(&catalog, others, &Locator::new(src), file);
    if problems.is_empty() {
        Ok(catalog)
    } else {
        Err(Problems(problems))
    }
}

/// The warnings of a catalog file that parses: values that are unusual but
/// playable (FORMAT.md), each with its line and column. Errors are
/// [`parse_catalog`]'s.
pub fn lint_catalog(bytes: &[u8], file: &str, others: &Catalog) -> Vec<Diagnostic> {
    let Ok(src) = decode(bytes, file) else {
        return vec![];
    };
    let Ok(catalog) = parse_ron::<Catalog>(src, file, "Catalog") else {
        return vec![];
    };
    let mut all = catalog.clone();
    all.extend(others.clone());
    catalog_warnings(&catalog, &all, &Locator::new(src), file)
}

/// The warnings of every catalog file of `dir` (unusual but playable
/// numbers), each located in its file: what a level checked against that
/// catalog is told too.
pub fn lint_catalog_dir(dir: &Path) -> Vec<Diagnostic> {
    let Ok(catalog) = load_catalog_dir(dir) else {
        return vec![];
    };
    ron_files(dir)
        .iter()
        .filter_map(|path| Some((path.display().to_string(), std::fs::read(path).ok()?)))
        .flat_map(|(file, bytes)| lint_catalog(&bytes, &file, &catalog))
        .collect()
}

/// Parses and checks a level file against `catalog`, resolving it into a
/// [`ValidLevel`] ready for battle.
pub fn parse_level(bytes: &[u8], file: &str, catalog: &Catalog) -> Result<ValidLevel, Problems> {
    let src = decode(bytes, file)?;
    let level: Level = parse_ron(src, file, "Level")?;
    check_level(level, catalog, &Locator::new(src), file)
}

/// Checks a level that is already in memory (an inline scenario level, a
/// generated one). Positions are not known, so diagnostics carry none.
pub fn validate_level(level: Level, catalog: &Catalog, file: &str) -> Result<ValidLevel, Problems> {
    check_level(level, catalog, &Locator::new(""), file)
}

/// The `*.ron` files of `dir`, sorted by name (none when it cannot be
/// read): levels, demos, catalog and profile files.
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "ron"));
    files.sort();
    files
}

/// Where the shipped catalog lives, relative to the project root.
pub const CATALOG_DIR: &str = "assets/catalog";

/// Reads every `*.ron` file of `dir` (sorted by name) as one catalog; names
/// must be unique across the files.
pub fn load_catalog_dir(dir: &Path) -> Result<Catalog, Problems> {
    let shown = dir.display().to_string();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io_problem(&shown, &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    for path in &files {
        let file = path.display().to_string();
        match std::fs::read(path).map_err(|e| io_problem(&file, &e)) {
            Ok(bytes) => texts.push((file, bytes)),
            Err(p) => problems.extend(p.0),
        }
    }
    let catalog = catalog_from_files(&texts);
    match catalog {
        Ok(c) if problems.is_empty() => Ok(c),
        Ok(_) => Err(Problems(problems)),
        Err(p) => {
            problems.extend(p.0);
            Err(Problems(problems))
        }
    }
}

/// One catalog from the bytes of its files, `(file name, bytes)`: each is
/// parsed, then checked against all the others, since a unit kind in one
/// file names weapons of another.
fn catalog_from_files(files: &[(String, Vec<u8>)]) -> Result<Catalog, Problems> {
    let mut problems = Vec::new();
    let mut sources = Vec::new();
    for (file, bytes) in files {
        let parsed = decode(bytes, file).and_then(|src| {
            let catalog: Catalog = parse_ron(src, file, "Catalog")?;
            Ok((file, src, catalog))
        });
        match parsed {
            Ok(entry) => sources.push(entry),
            Err(p) => problems.extend(p.0),
        }
    }
    let mut catalog = Catalog::default();
    for (_, _, c) in &sources {
        catalog.extend(c.clone());
    }
    for (file, src, own) in &sources {
        problems.extend(check_catalog_refs(own, &catalog, &Locator::new(src), file));
    }
    let located: Vec<(&str, Locator, &Catalog)> = sources
        .iter()
        .map(|(file, src, own)| (file.as_str(), Locator::new(src), own))
        .collect();
    let sources: Vec<(&str, &Locator, &Catalog)> =
        located.iter().map(|(f, l, c)| (*f, l, *c)).collect();
    problems.extend(check_catalog_duplicates(&sources));
    if problems.is_empty() {
        Ok(catalog)
    } else {
        Err(Problems(problems))
    }
}

/// The standard catalog's files, compiled into the binary so that every
/// command finds it wherever it is run (FORMAT.md).
const SHIPPED_CATALOG: [(&str, &str); 4] = [
    (
        "assets/catalog/gear.ron",
        include_str!("../../assets/catalog/gear.ron"),
    ),
    (
        "assets/catalog/spells.ron",
        include_str!("../../assets/catalog/spells.ron"),
    ),
    (
        "assets/catalog/units.ron",
        include_str!("../../assets/catalog/units.ron"),
    ),
    (
        "assets/catalog/weapons.ron",
        include_str!("../../assets/catalog/weapons.ron"),
    ),
];

/// The standard catalog: `assets/catalog` under the working directory when
/// there is one (a designer's edits count at once), else the copy built
/// into the binary. FORMAT.md: found wherever the command is run.
pub fn standard_catalog() -> Result<Catalog, Problems> {
    let here = Path::new(CATALOG_DIR);
    if here.is_dir() {
        return load_catalog_dir(here);
    }
    let files: Vec<(String, Vec<u8>)> = SHIPPED_CATALOG
        .iter()
        .map(|(name, text)| (name.to_string(), text.as_bytes().to_vec()))
        .collect();
    catalog_from_files(&files)
}

/// The catalog `dir` names, or the [`standard_catalog`] without one.
pub fn catalog_at(dir: Option<&Path>) -> Result<Catalog, Problems> {
    match dir {
        Some(d) => load_catalog_dir(d),
        None => standard_catalog(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_catalog_has_every_shipped_file() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(CATALOG_DIR);
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".ron"))
            .map(|n| format!("{CATALOG_DIR}/{n}"))
            .collect();
        on_disk.sort();
        let built_in: Vec<String> = SHIPPED_CATALOG.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(
            built_in, on_disk,
            "list every catalog file in SHIPPED_CATALOG"
        );
        for (name, text) in SHIPPED_CATALOG {
            let file = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name));
            assert_eq!(file.unwrap(), text, "{name} is built in as it is on disk");
        }
    }
}

/// Reads and checks the level at `path`.
pub fn load_level_file(path: &Path, catalog: &Catalog) -> Result<ValidLevel, Problems> {
    parse_level(&read_file(path)?, &path.display().to_string(), catalog)
}

/// The bytes of the file at `path`, or the problem `cannot read: …`.
pub fn read_file(path: &Path) -> Result<Vec<u8>, Problems> {
    std::fs::read(path).map_err(|e| io_problem(&path.display().to_string(), &e))
}

fn io_problem(file: &str, e: &std::io::Error) -> Problems {
    Problems(vec![Diagnostic {
        file: file.to_string(),
        at: None,
        message: format!("cannot read: {e}"),
    }])
}

/// What kind of file a RON source is, from its leading struct name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `Level(...)`.
    Level,
    /// `Catalog(...)`.
    Catalog,
    /// `Scenario(...)`.
    Scenario,
}

/// Guesses the kind of a RON file from the identifier before its first `(`;
/// a file without one is taken for a level.
pub fn file_kind(bytes: &[u8]) -> FileKind {
    let text = String::from_utf8_lossy(bytes);
    let masked = Locator::new(&text);
    let first = ["Level", "Catalog", "Scenario"]
        .into_iter()
        .filter_map(|k| masked.find(&[Needle::Ident(k)]).map(|o| (o, k)))
        .min();
    match first {
        Some((_, "Catalog")) => FileKind::Catalog,
        Some((_, "Scenario")) => FileKind::Scenario,
        _ => FileKind::Level,
    }
}
