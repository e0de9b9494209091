//! The shape of `src/`: no module imports, directly or through others, a
//! module that imports it back, and no file grows past what a reader takes
//! in at once.
//!
//! The graph is read from the code itself: every `use crate::…` (and
//! `super::…`, `self::…`, `skirmish::…` in the binary) and every path written
//! inline (`crate::battle::GridPos`, `reactions::Trigger` after `use
//! super::reactions`), resolved through re-exports (`pub use`) to the file
//! that defines the item; a `pub use` is a facade, no arrow of its own. Test
//! code (`#[cfg(test)]`) is left out: it may reach up for a headless app.
//! Two levels are checked:
//!
//! - **files**: no cycle between any two files of `src/`;
//! - **rooms**: within each folder, its files and sub-folders taken as
//!   wholes (`rules/` ↔ `battle/` is a cycle even when no two files form one).
//!
//! A cycle is printed with the names each arrow carries, so the next change
//! that tangles the code is told where.

use crate::common::root;
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module path from the crate root (`["rules", "turn"]`).
type ModPath = Vec<String>;

/// What one source file declares and imports.
#[derive(Default)]
struct FileInfo {
    /// Its module path.
    module: ModPath,
    /// Names of the items it defines (fn, struct, enum, mod…).
    defines: BTreeSet<String>,
    /// `use` names: the alias and the absolute path it stands for.
    aliases: BTreeMap<String, ModPath>,
    /// `use …::*`: the absolute paths globbed.
    globs: Vec<ModPath>,
    /// Every absolute path the file names (from `use` and inline), with its
    /// line.
    paths: Vec<(ModPath, usize)>,
}

/// The source files of the library (`src/lib.rs` and its modules) and of
/// the binary (`src/main.rs`), by path from `src/`.
fn source_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("src"), &mut files);
    files.sort();
    files
}

/// `src/rules/turn.rs` → `["rules", "turn"]`; `mod.rs`, `lib.rs` and
/// `main.rs` name their folder (the binary is its own root, `["main"]`).
fn module_of(file: &Path) -> ModPath {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    match parts.last().map(String::as_str) {
        Some("lib") if parts.len() == 1 => parts.clear(),
        Some("main") if parts.len() == 1 => {}
        Some("mod") => {
            parts.pop();
        }
        _ => {}
    }
    parts
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// Reads a file: definitions, `use` items and inline paths.
struct Reader<'a> {
    info: &'a mut FileInfo,
    /// Raw relative paths (first segment not yet resolved), with their line.
    raw: Vec<(Vec<String>, usize)>,
}

impl Reader<'_> {
    fn use_tree(&mut self, prefix: &[String], tree: &syn::UseTree, line: usize) {
        let with = |s: &syn::Ident| {
            let mut p = prefix.to_vec();
            p.push(s.to_string());
            p
        };
        match tree {
            syn::UseTree::Path(p) => self.use_tree(&with(&p.ident), &p.tree, line),
            syn::UseTree::Name(n) => {
                let full = if n.ident == "self" {
                    prefix.to_vec()
                } else {
                    with(&n.ident)
                };
                let alias = full.last().cloned().unwrap_or_default();
                self.raw.push((full.clone(), line));
                self.info.aliases.insert(alias, full);
            }
            syn::UseTree::Rename(r) => {
                let full = if r.ident == "self" {
                    prefix.to_vec()
                } else {
                    with(&r.ident)
                };
                self.raw.push((full.clone(), line));
                self.info.aliases.insert(r.rename.to_string(), full);
            }
            syn::UseTree::Glob(_) => {
                self.raw.push((prefix.to_vec(), line));
                self.info.globs.push(prefix.to_vec());
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t, line);
                }
            }
        }
    }

    /// Paths inside a macro's tokens (`vec![crate::x::y()]`), which syn
    /// does not parse: runs of `ident :: ident …`.
    fn macro_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut colons = 0;
        let mut line = 0;
        let flush = |run: &mut Vec<String>, raw: &mut Vec<(Vec<String>, usize)>, line| {
            if run.len() > 1 {
                raw.push((std::mem::take(run), line));
            }
            run.clear();
        };
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(i) => {
                    if colons != 2 {
                        flush(&mut run, &mut self.raw, line);
                        line = i.span().start().line;
                    }
                    run.push(i.to_string());
                    colons = 0;
                }
                proc_macro2::TokenTree::Punct(p) if p.as_char() == ':' => colons += 1,
                proc_macro2::TokenTree::Group(g) => {
                    flush(&mut run, &mut self.raw, line);
                    colons = 0;
                    self.macro_tokens(g.stream());
                }
                _ => {
                    flush(&mut run, &mut self.raw, line);
                    colons = 0;
                }
            }
        }
        flush(&mut run, &mut self.raw, line);
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            _ => &Vec::new(),
        };
        if is_test_only(attrs) {
            return;
        }
        let name = match item {
            syn::Item::Const(i) => Some(&i.ident),
            syn::Item::Enum(i) => Some(&i.ident),
            syn::Item::Fn(i) => Some(&i.sig.ident),
            syn::Item::Macro(i) => i.ident.as_ref(),
            syn::Item::Mod(i) => Some(&i.ident),
            syn::Item::Static(i) => Some(&i.ident),
            syn::Item::Struct(i) => Some(&i.ident),
            syn::Item::Trait(i) => Some(&i.ident),
            syn::Item::Type(i) => Some(&i.ident),
            syn::Item::Union(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(name) = name {
            self.info.defines.insert(name.to_string());
        }
        if let syn::Item::Use(u) = item {
            let line = u.use_token.span.start().line;
            // A `pub use` re-exports (a facade): it names the item for
            // others, whose uses are resolved through it to the file that
            // defines it; it is no arrow of its own.
            let reexport = !matches!(u.vis, syn::Visibility::Inherited);
            let before = self.raw.len();
            self.use_tree(&[], &u.tree, line);
            if reexport {
                self.raw.truncate(before);
            }
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() > 1 {
            let segs = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let line = path.segments[0].ident.span().start().line;
            self.raw.push((segs, line));
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.macro_tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

/// The crate's module files, read.
struct Crate {
    files: BTreeMap<ModPath, (PathBuf, FileInfo)>,
}

impl Crate {
    fn read() -> Self {
        let mut files = BTreeMap::new();
        let mut raws = Vec::new();
        for path in source_files() {
            let text = std::fs::read_to_string(&path).unwrap();
            let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut info = FileInfo {
                module: module_of(&path),
                ..Default::default()
            };
            let mut reader = Reader {
                info: &mut info,
                raw: Vec::new(),
            };
            for item in &ast.items {
                reader.visit_item(item);
            }
            let raw = reader.raw;
            raws.push((info.module.clone(), raw));
            files.insert(info.module.clone(), (path, info));
        }
        let mut krate = Crate { files };
        // Make every alias and path absolute, now that every module is known.
        for (module, raw) in raws {
            let aliases: Vec<(String, ModPath)> = krate.files[&module]
                .1
                .aliases
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let absolute_aliases: BTreeMap<String, ModPath> = aliases
                .into_iter()
                .filter_map(|(k, v)| Some((k, krate.absolute(&module, &v, None)?)))
                .collect();
            let globs: Vec<ModPath> = krate.files[&module]
                .1
                .globs
                .iter()
                .filter_map(|g| krate.absolute(&module, g, None))
                .collect();
            let paths: Vec<(ModPath, usize)> = raw
                .iter()
                .filter_map(|(p, line)| {
                    Some((krate.absolute(&module, p, Some(&absolute_aliases))?, *line))
                })
                .collect();
            let info = &mut krate.files.get_mut(&module).unwrap().1;
            info.aliases = absolute_aliases;
            info.globs = globs;
            info.paths = paths;
        }
        krate
    }

    /// The absolute path a path written in `module` stands for; `None` for
    /// another crate's (`bevy::…`) or a local name.
    fn absolute(
        &self,
        module: &ModPath,
        path: &[String],
        aliases: Option<&BTreeMap<String, ModPath>>,
    ) -> Option<ModPath> {
        let binary = module.first().is_some_and(|m| m == "main") && module.len() == 1;
        let (first, rest) = path.split_first()?;
        let mut base: ModPath = match first.as_str() {
            "crate" if binary => return None,
            "crate" => vec![],
            "skirmish" => vec![],
            "self" => module.clone(),
            "super" => {
                let mut m = module.clone();
                m.pop();
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    m.pop();
                    rest = &rest[1..];
                }
                return Some(m.into_iter().chain(rest.iter().cloned()).collect());
            }
            name => {
                let mut child = module.clone();
                child.push(name.to_string());
                if let Some(target) = aliases.and_then(|a| a.get(name)) {
                    target.clone()
                } else if self.files.contains_key(&child) {
                    child
                } else if module.is_empty() && self.files.contains_key(&vec![name.to_string()]) {
                    vec![name.to_string()]
                } else {
                    return None;
                }
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that defines what `path` names (through `use` and `pub
    /// use`); `None` for a module itself or outside the crate.
    fn defining_file(&self, path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 16 {
            return None;
        }
        let k = (0..=path.len())
            .rev()
            .find(|&k| self.files.contains_key(&path[..k]))?;
        if k == path.len() {
            return None; // the module itself
        }
        let module = path[..k].to_vec();
        let info = &self.files[&module].1;
        let name = &path[k];
        if info.defines.contains(name) {
            return Some(module);
        }
        if let Some(target) = info.aliases.get(name) {
            let mut p = target.clone();
            p.extend(path[k + 1..].iter().cloned());
            return self.defining_file(&p, depth + 1);
        }
        for glob in &info.globs {
            let mut p = glob.clone();
            p.extend(path[k..].iter().cloned());
            if let Some(f) = self.defining_file(&p, depth + 1) {
                return Some(f);
            }
        }
        Some(module)
    }

    fn display(&self, module: &ModPath) -> String {
        let path = &self.files[module].0;
        path.strip_prefix(root()).unwrap().display().to_string()
    }

    /// Every arrow `file → file`, with the names it carries and a line.
    fn edges(&self) -> BTreeMap<(ModPath, ModPath), (BTreeSet<String>, usize)> {
        let mut edges: BTreeMap<(ModPath, ModPath), (BTreeSet<String>, usize)> = BTreeMap::new();
        for (module, (_, info)) in &self.files {
            for (path, line) in &info.paths {
                let Some(to) = self.defining_file(path, 0) else {
                    continue;
                };
                // The crate root only declares modules.
                if &to == module || to.is_empty() {
                    continue;
                }
                let k = (0..=path.len())
                    .rev()
                    .find(|&k| self.files.contains_key(&path[..k]))
                    .unwrap_or(0);
                let name = path.get(k).cloned().unwrap_or_default();
                let e = edges
                    .entry((module.clone(), to))
                    .or_insert((BTreeSet::new(), *line));
                e.0.insert(name);
            }
        }
        edges
    }
}

/// The cycles of a graph given by its arrows: each strongly connected
/// part of more than one node, as a list of its nodes.
fn cycles<N: Clone + Ord + std::hash::Hash>(arrows: &BTreeSet<(N, N)>) -> Vec<Vec<N>> {
    let mut graph = DiGraph::<N, ()>::new();
    let mut index: HashMap<N, NodeIndex> = HashMap::new();
    for (a, b) in arrows {
        for n in [a, b] {
            if !index.contains_key(n) {
                index.insert(n.clone(), graph.add_node(n.clone()));
            }
        }
        graph.add_edge(index[a], index[b], ());
    }
    let mut found: Vec<Vec<N>> = tarjan_scc(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut c: Vec<N> = c.into_iter().map(|i| graph[i].clone()).collect();
            c.sort();
            c
        })
        .collect();
    found.sort();
    found
}

/// Where a file sits as seen from `folder`: the child file or sub-folder of
/// `folder` holding it, or `None` when it is not inside `folder`.
fn room_in(
    folder: &ModPath,
    file: &ModPath,
    is_folder: impl Fn(&ModPath) -> bool,
) -> Option<String> {
    if file.len() <= folder.len() || file[..folder.len()] != folder[..] {
        return None;
    }
    let child = file[..=folder.len()].to_vec();
    let name = child.last().unwrap().clone();
    Some(if is_folder(&child) {
        format!("{name}/")
    } else {
        name
    })
}

/// The report of every cycle: between files, and between the rooms of each
/// folder. Empty when the code is untangled.
fn tangles(krate: &Crate) -> Vec<String> {
    let edges = krate.edges();
    let mut report = Vec::new();
    let arrows: BTreeSet<(ModPath, ModPath)> = edges.keys().cloned().collect();
    for cycle in cycles(&arrows) {
        let mut text = format!(
            "a cycle of {} files: {}",
            cycle.len(),
            cycle
                .iter()
                .map(|m| krate.display(m))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for ((a, b), (names, line)) in &edges {
            if cycle.contains(a) && cycle.contains(b) {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                text += &format!(
                    "\n    {}:{line} -> {}: {}",
                    krate.display(a),
                    krate.display(b),
                    names.join(", ")
                );
            }
        }
        report.push(text);
    }
    // Folders: a module with children.
    let is_folder = |m: &ModPath| {
        krate
            .files
            .get(m)
            .is_some_and(|(p, _)| p.ends_with("mod.rs") || p.ends_with("lib.rs"))
    };
    for folder in krate.files.keys().filter(|m| is_folder(m)) {
        let mut rooms: BTreeSet<(String, String)> = BTreeSet::new();
        let mut why: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for ((a, b), (names, line)) in &edges {
            let (Some(ra), Some(rb)) =
                (room_in(folder, a, is_folder), room_in(folder, b, is_folder))
            else {
                continue;
            };
            if ra != rb {
                rooms.insert((ra.clone(), rb.clone()));
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                why.entry((ra, rb)).or_default().push(format!(
                    "{}:{line} -> {}: {}",
                    krate.display(a),
                    krate.display(b),
                    names.join(", ")
                ));
            }
        }
        let folder_name = if folder.is_empty() {
            "src/".to_string()
        } else {
            format!("src/{}/", folder.join("/"))
        };
        for cycle in cycles(&rooms) {
            let mut text = format!(
                "a cycle between the rooms of {folder_name}: {}",
                cycle.join(", ")
            );
            for ((a, b), lines) in &why {
                if cycle.contains(a) && cycle.contains(b) {
                    for l in lines.iter().take(4) {
                        text += &format!("\n    {a} -> {b}: {l}");
                    }
                    if lines.len() > 4 {
                        text += &format!("\n    {a} -> {b}: … and {} more", lines.len() - 4);
                    }
                }
            }
            report.push(text);
        }
    }
    report
}

#[test]
fn src_has_no_import_cycles() {
    let krate = Crate::read();
    let report = tangles(&krate);
    assert!(
        report.is_empty(),
        "modules of src/ import each other (directly or through others):\n\n{}\n",
        report.join("\n\n")
    );
}

/// The checker sees what it must: a cycle that a reader would find.
#[test]
fn the_cycle_check_finds_a_planted_cycle() {
    let mut krate = Crate::read();
    let (a, b) = (vec!["grid".to_string()], vec!["terrain".to_string()]);
    let line = 1;
    let grid = &mut krate.files.get_mut(&a).unwrap().1;
    grid.paths
        .push((vec!["terrain".into(), "TerrainMap".into()], line));
    let report = tangles(&krate);
    assert!(
        report
            .iter()
            .any(|r| r.contains("src/grid.rs") && r.contains("TerrainMap")),
        "a planted grid -> terrain arrow (terrain uses grid) must show as a cycle: {report:?}"
    );
    let _ = b;
}

/// No file of `src/` passes 700 lines: past that, split it by job.
#[test]
fn no_source_file_passes_700_lines() {
    let long: Vec<String> = source_files()
        .iter()
        .filter_map(|p| {
            let n = std::fs::read_to_string(p).unwrap().lines().count();
            (n > 700).then(|| format!("{} ({n} lines)", p.strip_prefix(root()).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "split these by job: {}", long.join(", "));
}

/// The whole graph, for a reader planning a change:
/// `cargo test architecture::print -- --ignored --nocapture`.
#[test]
#[ignore = "prints the graph; run on purpose"]
fn print_the_import_graph() {
    let krate = Crate::read();
    for ((a, b), (names, line)) in krate.edges() {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        println!(
            "{}:{line} -> {}: {}",
            krate.display(&a),
            krate.display(&b),
            names.join(", ")
        );
    }
}
