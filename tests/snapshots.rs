//! Whole invocations of the binary pinned by snapshots: the exit status,
//! standard output and standard error of each command below are compared with
//! `tests/snapshots/NAME.txt`. After a deliberate change, regenerate them with
//! `UPDATE_SNAPSHOTS=1 cargo test --release --test snapshots` and review the diff.
//!
//! `reports/` is pinned the same way: it must be what `bash reports/regenerate`
//! writes, so it cannot drift from the product.

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

/// (snapshot name, arguments).
const CASES: &[(&str, &[&str])] = &[
    ("help", &["--help"]),
    ("check-help", &["check", "--help"]),
    ("codes", &["codes"]),
    ("rules", &["rules"]),
    ("rules-json", &["rules", "--format", "json"]),
    ("summary-rules", &["check", "corpus/rules", "-q"]),
    (
        "explain-ko-move",
        &["explain", "corpus/rules/ko-immediate.sgf", "--move", "10"],
    ),
    (
        "explain-seki-end",
        &["explain", "corpus/rules/count-seki-two-shared.sgf"],
    ),
    (
        "explain-lone-stone-standing",
        &["explain", "corpus/rules/count-lone-stone-standing.sgf"],
    ),
    (
        "jsonl-ko-immediate",
        &[
            "check",
            "corpus/rules/ko-immediate.sgf",
            "--format",
            "jsonl",
            "-q",
        ],
    ),
    (
        "jsonl-seki-two-shared",
        &[
            "check",
            "corpus/rules/count-seki-two-shared.sgf",
            "--format",
            "jsonl",
            "-q",
        ],
    ),
    (
        "jsonl-not-sgf",
        &[
            "check",
            "corpus/malformed/binary.bin.sgf",
            "--format",
            "jsonl",
            "-q",
        ],
    ),
    (
        "fail-on-never",
        &[
            "check",
            "corpus/rules/occupied.sgf",
            "-q",
            "--fail-on",
            "never",
        ],
    ),
    (
        "concise-malformed",
        &["check", "corpus/malformed", "--format", "concise", "-q"],
    ),
    ("missing-path", &["check", "no/such/file.sgf", "-q"]),
    ("no-paths", &["check"]),
    (
        "bad-option",
        &["check", "corpus/rules", "--dead-stones", "guess"],
    ),
];

fn render(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(args)
        .current_dir(root())
        .env_remove("SGFAUDIT_INJECT_FAULT")
        .output()
        .expect("run sgfaudit");
    format!(
        "$ sgfaudit {}\nexit status: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn compare(name: &str, got: &str, path: &Path) {
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, got).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(path).unwrap_or_else(|_| {
        panic!(
            "{name}: no snapshot {}; run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    if want != got {
        let first = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        panic!(
            "{name}: output differs from {} at line {}:\n  want: {:?}\n  got:  {:?}\n\
             (UPDATE_SNAPSHOTS=1 rewrites it after a deliberate change)",
            path.display(),
            first + 1,
            want.lines().nth(first),
            got.lines().nth(first)
        );
    }
}

#[test]
fn every_invocation_matches_its_snapshot() {
    for (name, args) in CASES {
        let path = root().join("tests/snapshots").join(format!("{name}.txt"));
        compare(name, &render(args), &path);
    }
}

#[test]
fn reports_are_what_the_product_writes() {
    let tmp = common::scratch("reports");
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "corpus/", "-q", "--out"])
        .arg(&tmp)
        .current_dir(root())
        .output()
        .expect("run sgfaudit");
    std::fs::write(tmp.join("summary.txt"), &out.stdout).unwrap();
    for name in [
        "summary.txt",
        "games.csv",
        "findings.csv",
        "divergences.csv",
    ] {
        let got = std::fs::read_to_string(tmp.join(name)).unwrap();
        compare(name, &got, &root().join("reports").join(name));
    }
    // The report links the audited files relative to itself: from the
    // scratch directory they lie elsewhere than from reports/.
    let got = std::fs::read_to_string(tmp.join("report.html")).unwrap();
    let from_scratch = format!("href=\"{}", relative(&tmp, &root()));
    let got = got.replace(&from_scratch, "href=\"../");
    compare("report.html", &got, &root().join("reports/report.html"));
}

/// The path from directory `from` to directory `to`, ending in `/`.
fn relative(from: &std::path::Path, to: &std::path::Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut s = "../".repeat(from.len() - common);
    for c in &to[common..] {
        s.push_str(&c.as_os_str().to_string_lossy());
        s.push('/');
    }
    s
}
