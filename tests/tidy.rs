//! Architecture invariants, kept by reading the source (as rust-analyzer's
//! tidy tests keep its own): the pure stages import no I/O, no serialization
//! and no outer stage; the library never reaches for the command line.

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
