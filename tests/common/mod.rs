//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use sgfaudit::audit::{audit_bytes, AuditOptions, FileReport};
use sgfaudit::core::replay::Replayer;
use sgfaudit::core::rules::Ruleset;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The development corpus beside the project, if this machine has it.
/// Tests over it skip (with a note) on a user's clone, which has no `../shared`.
pub fn shared_corpus() -> Option<PathBuf> {
    shared("SGFAUDIT_SHARED_CORPUS", "../shared/corpus/real")
}

/// The KGS games with the server's own count beside the project, if present.
pub fn kgs_scored() -> Option<PathBuf> {
    shared("SGFAUDIT_KGS_SCORED", "../shared/corpus/kgs-scored")
}

fn shared(var: &str, default: &str) -> Option<PathBuf> {
    let p = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(default));
    if p.is_dir() {
        Some(p)
    } else {
        // Written to the process's stderr, not through eprintln!, so the test
        // harness does not swallow it: a skipped test says so in every run.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipping: {} is absent (set {var} to run this test)",
            p.display()
        );
        None
    }
}

pub fn audit_file(path: &Path, opts: &AuditOptions) -> FileReport {
    let bytes = std::fs::read(path).expect("read test file");
    audit_bytes(&path.to_string_lossy(), &bytes, opts, &mut Replayer::new())
}

pub fn audit_text(text: &str) -> FileReport {
    audit_named("<test>", text.as_bytes())
}

/// The bytes of a file named `name`, audited with the default options.
pub fn audit_named(name: &str, bytes: &[u8]) -> FileReport {
    audit_bytes(name, bytes, &AuditOptions::default(), &mut Replayer::new())
}

/// (move, kind) of the illegal moves of game 0 under a ruleset.
pub fn illegal(r: &FileReport, rs: Ruleset) -> Vec<(u32, &'static str)> {
    r.games[0]
        .verdicts
        .get(rs)
        .illegal
        .iter()
        .map(|i| (i.move_number, i.kind.key()))
        .collect()
}

pub fn codes(r: &FileReport) -> Vec<&'static str> {
    r.games
        .iter()
        .flat_map(|g| g.findings.iter().map(|f| f.code.id()))
        .collect()
}

/// Every `.sgf` file under a directory (any letter case), recursively.
pub fn sgf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("list dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case("sgf"))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A fresh scratch directory for one test (each test its own name), under
/// the build's directory for test files: a run replaces the last run's, and
/// `cargo clean` removes them, so runs do not pile up in the system's.
pub fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("sgfaudit-test-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `sgfaudit check --format jsonl -q ARGS`: its exit code and its rows.
pub fn jsonl(args: &[&str]) -> (i32, Vec<serde_json::Value>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "--format", "jsonl", "-q"])
        .args(args)
        .output()
        .unwrap();
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code().unwrap_or(-1), rows)
}

/// The first row whose file name ends with `suffix`.
pub fn row_ending<'a>(rows: &'a [serde_json::Value], suffix: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["file"].as_str().is_some_and(|f| f.ends_with(suffix)))
        .unwrap_or_else(|| panic!("no row for a file ending with {suffix}: {rows:?}"))
}

/// Where a zip's end-of-central-directory record begins (the archives the
/// tests write have no comment: the last 22 bytes).
pub fn zip_end_record(zip: &[u8]) -> usize {
    let at = zip.len() - 22;
    assert_eq!(&zip[at..at + 4], b"PK\x05\x06");
    at
}

/// A record with markup in PB, PW, RE and C, for the HTML report's tests
/// (tests/html_report.rs, tests/browser.rs); W[ee] on Black's stone makes
/// it an error, so the report gives it a section.
pub const HOSTILE: &str = "(;GM[1]FF[4]CA[UTF-8]SZ[9]\
PB[<script>window.pwned=1</script>]\
PW[<img src=x onerror=\"document.body.setAttribute('data-pwned',1)\">]\
RE[B+R\"><svg onload=alert(1)>]C[</title><script>alert(2)</script>]\
;B[ee];W[ee])";

/// A tar of `entries` (name, bytes), in that order, written to `out`.
pub fn tar_of<W: std::io::Write>(entries: &[(&str, &[u8])], out: W) -> W {
    let mut t = tar::Builder::new(out);
    for (name, bytes) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        t.append_data(&mut h, name, *bytes).unwrap();
    }
    t.into_inner().unwrap()
}
