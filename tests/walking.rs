//! Directory walking as ripgrep does it: .gitignore and .ignore files,
//! hidden names, --glob, and the run's own output directory.

mod common;

use std::path::Path;
use std::process::Command;

use common::{root, scratch};

/// The files a run reports, in order.
fn files(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(dir)
        .args(["check", "-q", "--format", "jsonl"])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["file"].as_str().unwrap().to_string()
        })
        .collect()
}

fn tree(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let game = std::fs::read(root().join("corpus/rules/ko-pass.sgf")).unwrap();
    for f in [
        "a/pro.sgf",
        "a/drafts/d1.sgf",
        "a/old.bak.sgf",
        "a/keep.bak.sgf",
        "a/.hidden.sgf",
        "a/.cache/c.sgf",
        "a/sub/s.sgf",
        "a/sub/t.sgf",
    ] {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, &game).unwrap();
    }
    std::fs::write(
        dir.join("a/.gitignore"),
        "drafts/\n*.bak.sgf\n!keep.bak.sgf\n",
    )
    .unwrap();
    std::fs::write(dir.join("a/sub/.ignore"), "t.sgf\n").unwrap();
    dir
}

#[test]
fn ignore_files_and_hidden_names_are_honoured() {
    let dir = tree("walk-ignore");
    assert_eq!(
        files(&dir, &["a"]),
        ["a/keep.bak.sgf", "a/pro.sgf", "a/sub/s.sgf"]
    );
    assert_eq!(
        files(&dir, &["a", "--hidden"]),
        [
            "a/.cache/c.sgf",
            "a/.hidden.sgf",
            "a/keep.bak.sgf",
            "a/pro.sgf",
            "a/sub/s.sgf"
        ]
    );
    assert_eq!(
        files(&dir, &["a", "--no-ignore"]),
        [
            "a/drafts/d1.sgf",
            "a/keep.bak.sgf",
            "a/old.bak.sgf",
            "a/pro.sgf",
            "a/sub/s.sgf",
            "a/sub/t.sgf"
        ]
    );
    // Walking from inside: the same rules, and `.` itself is not hidden.
    assert_eq!(
        files(&dir.join("a"), &["."]),
        ["./keep.bak.sgf", "./pro.sgf", "./sub/s.sgf"]
    );
    // A path named on the command line is read whatever the rules say.
    assert_eq!(files(&dir, &["a/old.bak.sgf"]), ["a/old.bak.sgf"]);
}

/// A directory named whose files are all left out gets a row that says so,
/// with the count: `-g '!*.sgf'` leaves out pro.sgf, keep.bak.sgf and
/// sub/s.sgf; .gitignore old.bak.sgf, .ignore sub/t.sgf, and .hidden.sgf is
/// hidden (drafts/ and .cache/ go as directories, uncounted): 6.
#[test]
fn a_directory_whose_files_are_all_left_out_says_so() {
    let dir = tree("walk-all-left-out");
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(&dir)
        .args(["check", "-q", "--format", "jsonl", "a", "-g", "!*.sgf"])
        .output()
        .unwrap();
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["file"], "a");
    assert!(
        rows[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("all the directory's game files and archives (6) are left out"),
        "{rows:?}"
    );
}

#[test]
fn the_summary_counts_what_was_left_out() {
    let dir = tree("walk-summary");
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(&dir)
        .args(["check", "-q", "a"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // old.bak.sgf, .hidden.sgf and t.sgf; drafts/ and .cache/ are left out
    // as directories, their files not counted.
    assert!(text.contains("  left out: 3 ("), "{text}");

    // The HTML report and the GitHub job summary count them too.
    let (html, job) = (dir.join("report.html"), dir.join("job.md"));
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(&dir)
        .env("GITHUB_STEP_SUMMARY", &job)
        .args(["check", "-q", "a", "--format", "github", "--html"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{out:?}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<p>Files left out: 3 ("), "{page}");
    let job = std::fs::read_to_string(&job).unwrap();
    assert!(job.contains("Files left out: 3 ("), "{job}");
}

#[test]
fn globs_keep_and_leave_out_below_the_directory() {
    let dir = tree("walk-glob");
    assert_eq!(files(&dir, &["a", "-g", "sub/**"]), ["a/sub/s.sgf"]);
    assert_eq!(
        files(&dir, &["a", "--glob", "!sub/**"]),
        ["a/keep.bak.sgf", "a/pro.sgf"]
    );
    assert_eq!(
        files(&dir, &["a", "-g", "*.sgf", "-g", "!pro.sgf"]),
        ["a/keep.bak.sgf", "a/sub/s.sgf"]
    );
    // ripgrep's -g reads gitignore globs: one without a slash matches a
    // name at any depth, a directory left out is left out whole, and the
    // last glob that matches a path decides.
    assert_eq!(files(&dir, &["a", "-g", "s*.sgf"]), ["a/sub/s.sgf"]);
    assert_eq!(
        files(&dir, &["a", "-g", "!sub"]),
        ["a/keep.bak.sgf", "a/pro.sgf"]
    );
    assert_eq!(
        files(&dir, &["a", "-g", "!*.sgf", "-g", "pro.sgf"]),
        ["a/pro.sgf"]
    );
    assert_eq!(files(&dir, &["a", "-g", "sub/*.sgf"]), ["a/sub/s.sgf"]);
    assert_eq!(files(&dir, &["a", "-g", "*/s.sgf"]), ["a/sub/s.sgf"]);
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(&dir)
        .args(["check", "a", "-g", "a/{b"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_output_directory_is_never_read() {
    let dir = tree("walk-out");
    let out_dir = dir.join("a/report");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::write(out_dir.join("leftover.sgf"), "(;SZ[9];B[ee])").unwrap();
    let got = files(&dir, &["a", "--out", "a/report"]);
    assert!(!got.iter().any(|f| f.contains("report")), "{got:?}");
    assert!(out_dir.join("games.csv").exists());
}
