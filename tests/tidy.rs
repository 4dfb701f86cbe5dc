//! Architecture invariants, kept by reading the source (as rust-analyzer's
//! tidy tests keep its own): the pure stages import no I/O, no serialization
//! and no outer stage; the library never reaches for the command line; no
//! two source files import each other in a loop; ARCHITECTURE.md's code map
//! and docs/FUZZING.md name every source file and every fuzz target.

mod common;

use std::path::Path;

/// Every `.rs` file under a directory of `src/`.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![common::root().join("src").join(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(common::root())
                    .unwrap()
                    .display()
                    .to_string();
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The lines of a file outside its `#[cfg(test)]` module.
fn code(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or("")
}

fn forbid(dirs: &[&str], banned: &[&str]) {
    for dir in dirs {
        for (file, text) in sources(dir) {
            for b in banned {
                assert!(
                    !code(&text).contains(b),
                    "{file} uses `{b}`: the {dir} stage must stay pure (ARCHITECTURE.md)"
                );
            }
        }
    }
}

#[test]
fn the_core_knows_nothing_of_files_text_formats_or_outer_stages() {
    forbid(
        &["core", "scoring", "dead_stones"],
        &[
            "std::fs",
            "std::io",
            "std::net",
            "std::env",
            "std::process",
            "serde",
            "csv::",
            "crate::sgf",
            "crate::input",
            "crate::audit",
            "crate::pipeline",
            "crate::report",
        ],
    );
}

#[test]
fn the_core_does_not_reach_for_scoring_or_dead_stones() {
    forbid(&["core"], &["crate::scoring", "crate::dead_stones"]);
}

#[test]
fn the_library_knows_nothing_of_the_command_line() {
    for dir in ["core", "scoring", "dead_stones", "sgf", "input", "report"] {
        for (file, text) in sources(dir) {
            for b in ["clap", "indicatif", "mimalloc", "process::exit"] {
                assert!(!code(&text).contains(b), "{file} uses `{b}`");
            }
        }
    }
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    assert!(
        !lib.contains("mod cli"),
        "the command line belongs to the binary"
    );
}

/// ARCHITECTURE.md's code map names every source file: by its path, or by
/// its name (`args`, `playout.rs`) in the row of its folder.
#[test]
fn the_code_map_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows: Vec<&str> = map.lines().filter(|l| l.starts_with("| `")).collect();
    let mut stack = vec![root.join("src"), root.join("python/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let (folder, file) = rel.rsplit_once('/').unwrap();
            let stem = file.trim_end_matches(".rs");
            let named = rows.iter().any(|r| r.starts_with(&format!("| `{rel}`")))
                || rows.iter().any(|r| {
                    r.starts_with(&format!("| `{folder}/`"))
                        && (stem == "mod"
                            || r.contains(&format!("`{stem}`"))
                            || r.contains(&format!("`{file}`")))
                });
            assert!(named, "ARCHITECTURE.md's code map does not name {rel}");
        }
    }
}

/// docs/FUZZING.md's table of targets has a row for every target
/// `fuzz/Cargo.toml` declares, so a target added to the fuzz crate is
/// described where its commands are.
#[test]
fn the_fuzzing_page_describes_every_fuzz_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).unwrap();
    let page = std::fs::read_to_string(root.join("docs/FUZZING.md")).unwrap();
    let mut targets = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(name) = line.strip_prefix("name = ").filter(|_| in_bin) {
            targets.push(name.trim_matches('"').to_string());
        }
    }
    assert!(
        targets.len() >= 6,
        "fuzz/Cargo.toml's targets were not read: {targets:?}"
    );
    for t in &targets {
        assert!(
            page.lines().any(|l| l.starts_with(&format!("| `{t}` |"))),
            "docs/FUZZING.md's table has no row for the fuzz target {t}"
        );
    }
}

/// A module's place: the crate (`lib`, or `bin` for `main.rs` and `cli/`)
/// and its path in that crate.
type Module = (&'static str, Vec<String>);

/// Every module file of `src/`, by its place.
fn modules() -> std::collections::BTreeMap<Module, String> {
    let mut out = std::collections::BTreeMap::new();
    for (file, _) in sources("") {
        let rel = file.replace('\\', "/");
        let rel = rel.trim_start_matches("src/").trim_end_matches(".rs");
        let mut path: Vec<String> = rel.split('/').map(str::to_string).collect();
        if matches!(
            path.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            path.pop();
        }
        let krate = if rel == "main" || rel.starts_with("cli/") {
            "bin"
        } else {
            "lib"
        };
        out.insert((krate, path), file);
    }
    out
}

/// The text of a file without its tests and its `//` comments.
fn code_only(text: &str) -> String {
    code(text)
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a `use` tree names (`a::{b, c::{d, self}}` gives `a::b`,
/// `a::c::d`, `a::c`), renames and globs dropped.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        return vec![path.trim_end_matches("::*").to_string()];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| match p.as_str() {
            "self" => prefix.to_string(),
            _ => format!("{prefix}::{p}"),
        })
        .collect()
}

/// Every path of the crate a file names: in `use` items and written out in
/// its code (`crate::core::replay::Illegal`).
fn paths_named(text: &str) -> Vec<String> {
    let code = code_only(text);
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = rest.find(';') {
            out.extend(expand(&rest[..end]));
        }
    }
    let bytes = code.as_bytes();
    for root in ["crate::", "super::", "sgfaudit::"] {
        for (at, _) in code.match_indices(root) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || b"_:".contains(&bytes[at - 1])) {
                continue;
            }
            let len = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - at);
            out.push(code[at..at + len].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The file of the module a path leads to from `from`, following the
/// `pub use` re-exports of the modules it passes.
fn resolve(
    files: &std::collections::BTreeMap<Module, String>,
    exports: &std::collections::BTreeMap<(Module, String), String>,
    from: &Module,
    path: &str,
    hops: u32,
) -> Option<String> {
    let mut segments = path.split("::").filter(|s| !s.is_empty());
    let mut at: Module = match segments.next()? {
        "crate" => (from.0, Vec::new()),
        "sgfaudit" => ("lib", Vec::new()),
        "self" => from.clone(),
        "super" => (from.0, from.1[..from.1.len().saturating_sub(1)].to_vec()),
        _ => return None,
    };
    for s in segments {
        if s == "super" {
            at.1.pop();
            continue;
        }
        let mut next = at.clone();
        next.1.push(s.to_string());
        if files.contains_key(&next) {
            at = next;
        } else if let (Some(target), true) = (exports.get(&(at.clone(), s.to_string())), hops < 8) {
            return resolve(files, exports, &at, target, hops + 1)
                .or_else(|| files.get(&at).cloned());
        } else {
            break;
        }
    }
    files.get(&at).cloned()
}

/// The source files import one another in no loop: each can be read
/// knowing only the files below it. A module that holds others (`mod.rs`,
/// `archive.rs` beside `archive/`) is their face: its re-exports are followed
/// to the file that defines the name, and its own imports of the modules
/// inside it are not counted.
#[test]
fn no_two_source_files_import_each_other_in_a_loop() {
    let files = modules();
    let texts: std::collections::BTreeMap<String, String> = sources("").into_iter().collect();
    let mut exports = std::collections::BTreeMap::new();
    for (module, file) in &files {
        let code = code_only(&texts[file]);
        for (at, _) in code.match_indices("pub use ") {
            let Some(end) = code[at..].find(';') else {
                continue;
            };
            for path in expand(&code[at + 8..at + end]) {
                let name = path.rsplit("::").next().unwrap_or("").to_string();
                let path = match path.split("::").next() {
                    Some("crate" | "self" | "super") => path.clone(),
                    _ => format!("self::{path}"),
                };
                exports.insert((module.clone(), name), path);
            }
        }
    }
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for (module, file) in &files {
        for path in paths_named(&texts[file]) {
            let Some(target) = resolve(&files, &exports, module, &path, 0) else {
                continue;
            };
            let inside = files
                .iter()
                .find(|(_, f)| **f == target)
                .is_some_and(|(m, _)| m.0 == module.0 && m.1.starts_with(&module.1));
            if !inside {
                edges.entry(file.clone()).or_default().insert(target);
            }
        }
    }
    // Depth-first search; a file met again while still on the path closes a loop.
    fn visit(
        file: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) {
        if let Some(i) = path.iter().position(|f| f == file) {
            panic!(
                "these files import each other in a loop: {} -> {file}",
                path[i..].join(" -> ")
            );
        }
        if done.contains(file) {
            return;
        }
        path.push(file.to_string());
        for next in edges.get(file).into_iter().flatten() {
            visit(next, edges, path, done);
        }
        path.pop();
        done.insert(file.to_string());
    }
    let mut done = std::collections::BTreeSet::new();
    for file in files.values() {
        visit(file, &edges, &mut Vec::new(), &mut done);
    }
    // The search sees the imports at all: the pipeline uses the audit.
    assert!(
        edges["src/pipeline.rs"].contains("src/audit.rs"),
        "{edges:?}"
    );
}
