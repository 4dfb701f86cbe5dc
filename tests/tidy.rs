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
