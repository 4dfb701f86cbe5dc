//! The HTML report in a real browser: tests/browser/check_report.mjs loads
//! it in headless Chromium (through playwright-core) and fails on a console
//! error, a script or event handler, a dialog, a network request, a link
//! with no target. Screenshots go to target/browser/.
//!
//! Needs node, Chromium (/usr/bin/chromium, or CHROMIUM) and
//! `npm ci --prefix tests/browser`; `.ci/run` installs all three. Without
//! them each test says it skipped.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{root, scratch};

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

/// Whether the browser check can run here; says why not when it cannot.
fn browser_ready() -> bool {
    let node = Command::new("node").arg("--version").output().is_ok();
    let module = root().join("tests/browser/node_modules/playwright-core");
    let missing = [
        (!node).then_some("node"),
        (!chromium().exists()).then_some("chromium (apt-get install chromium)"),
        (!module.exists()).then_some("playwright-core (npm ci --prefix tests/browser)"),
    ];
    let missing: Vec<&str> = missing.into_iter().flatten().collect();
    if missing.is_empty() {
        return true;
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipping the browser check: {} missing",
        missing.join(", ")
    );
    false
}

fn sgfaudit(args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(root())
        .arg("check")
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("run sgfaudit");
    assert!(matches!(status.code(), Some(0 | 1)), "{args:?}: {status}");
}

/// Loads `report` in Chromium; returns whether the check passed and what
/// it printed.
fn load(report: &Path, shots: &str, expect_text: Option<&str>) -> (bool, String) {
    let shots_dir = root().join("target/browser");
    std::fs::create_dir_all(&shots_dir).unwrap();
    let mut cmd = Command::new("node");
    cmd.arg(root().join("tests/browser/check_report.mjs"))
        .arg(report)
        .arg(shots_dir.join(shots))
        .env("CHROMIUM", chromium());
    if let Some(t) = expect_text {
        cmd.env("EXPECT_TEXT", t);
    }
    let out = cmd.output().expect("run node");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{text}");
    (out.status.success(), text)
}

#[test]
fn the_corpus_report_loads_cleanly() {
    if !browser_ready() {
        return;
    }
    let dir = scratch("browser-corpus");
    sgfaudit(&["corpus/", "-q", "--out", dir.to_str().unwrap()]);
    let (ok, text) = load(&dir.join("report.html"), "corpus", None);
    assert!(ok, "{text}");
    assert!(text.contains("\"problems\":[]"));
}

#[test]
fn a_hostile_record_shows_as_text_and_runs_nothing() {
    if !browser_ready() {
        return;
    }
    let dir = scratch("browser-hostile");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(
        games.join("<img src=x onerror=alert(3)>.sgf"),
        common::HOSTILE,
    )
    .unwrap();
    let report = dir.join("report.html");
    sgfaudit(&[
        games.to_str().unwrap(),
        "-q",
        "--html",
        report.to_str().unwrap(),
    ]);
    let (ok, text) = load(&report, "hostile", Some("<script>window.pwned=1</script>"));
    assert!(ok, "{text}");
}

/// The check itself can fail: a page with a script, a console error and a
/// link to nowhere is refused, with each problem named.
#[test]
fn the_check_refuses_a_bad_page() {
    if !browser_ready() {
        return;
    }
    let dir = scratch("browser-bad");
    let page = dir.join("bad.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><body><a href=\"#nowhere\">x</a>\
         <script>console.error('boom')</script></body></html>",
    )
    .unwrap();
    let (ok, text) = load(&page, "bad", None);
    assert!(!ok);
    assert!(text.contains("console error: boom"), "{text}");
    assert!(text.contains("#nowhere"), "{text}");
    assert!(text.contains("1 script elements"), "{text}");
}

#[test]
fn the_real_corpus_report_loads_cleanly() {
    let Some(real) = common::shared_corpus() else {
        return;
    };
    if !browser_ready() {
        return;
    }
    let dir = scratch("browser-real");
    sgfaudit(&[real.to_str().unwrap(), "-q", "--out", dir.to_str().unwrap()]);
    let (ok, text) = load(&dir.join("report.html"), "real", None);
    assert!(ok, "{text}");
}
