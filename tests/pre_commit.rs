//! The pre-commit hook (`.pre-commit-hooks.yaml`) hands sgfaudit the files
//! of a commit that its `files` pattern matches: exactly the files a walk of
//! a directory reads, so a commit of a KataGo `.sgfs` collection, a
//! compressed game or an archive is audited as `sgfaudit check DIR` would.

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use common::{root, scratch};

/// The hook's `files` pattern.
fn hook_pattern() -> regex::Regex {
    let hooks = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let pattern = hooks
        .lines()
        .find_map(|l| l.trim().strip_prefix("files:"))
        .expect("a files pattern")
        .trim();
    regex::Regex::new(pattern).unwrap()
}

#[test]
fn the_hook_passes_the_files_a_walk_reads() {
    let dir = scratch("pre-commit-names");
    let names = [
        "a.sgf",
        "b.SGF",
        "c.sgfs",
        "d.sgf.gz",
        "e.sgfs.zst",
        "f.sgf.bz2",
        "g.sgf.xz",
        "h.zip",
        "i.7z",
        "j.tar",
        "k.tar.gz",
        "l.tgz",
        "m.TAR.BZ2",
        "n.tbz2",
        "o.tbz",
        "p.tar.xz",
        "q.txz",
        "r.tar.zst",
        "s.tzst",
        "t.txt",
        "u.sgf.txt",
        "v.gz",
        "w.sgfx",
        "x.json",
        "y.zip.txt",
        "zsgf",
    ];
    for name in names {
        std::fs::write(dir.join(name), "(;GM[1]SZ[9];B[ee])").unwrap();
    }
    // The files the walk reads: each is a row, its name before any `!ENTRY`.
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", ".", "-q", "--format", "csv"])
        .current_dir(&dir)
        .output()
        .expect("run sgfaudit");
    let csv = String::from_utf8(out.stdout).unwrap();
    let read: BTreeSet<&str> = csv
        .lines()
        .skip(1)
        .filter_map(|row| row.split(',').next())
        .map(|file| file.trim_start_matches("./"))
        .map(|file| file.split('!').next().unwrap_or(file))
        .collect();
    assert!(read.contains("a.sgf") && read.contains("h.zip"), "{read:?}");
    let pattern = hook_pattern();
    let passed: BTreeSet<&str> = names.into_iter().filter(|n| pattern.is_match(n)).collect();
    assert_eq!(passed, read);
}
