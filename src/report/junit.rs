//! `--format junit`: a JUnit XML report, the test-report format Jenkins,
//! GitLab (`artifacts:reports:junit`), Azure Pipelines, CircleCI and most
//! other CI servers read.
//!
//! One `<testsuite>` per input (an archive entry is an input of its own),
//! one `<testcase>` per game. A game with a finding at or above the run's
//! `--fail-on` severity fails (`<failure>`), so the report fails exactly
//! the games that make the exit status 1; a game that could not be audited
//! is an `<error>` (an input skipped on purpose, or a game on a rectangular
//! board, `<skipped>`, unless its warning is at `--fail-on`); every finding
//! of a game is listed in its failure or error, or, for a game that passes,
//! in its `<system-out>`. Each suite carries its `tests`, `failures`,
//! `errors` and `skipped` counts (Jenkins' xUnit plugin requires the first
//! three), so its cases are held until the input's games end; an input whose
//! cases pass about 1 MiB (`SUITE_BYTES`) is written as several suites of
//! the same name, each with its own counts, so memory does not grow with a
//! large collection.

use std::io::{self, Write};

use super::diagram::{escape, escape_attribute};
use super::{Reporter, RepositoryRoot, Summary};
use crate::audit::{FileInfo, GameReport, Status};
use crate::core::findings::{Code, Finding, Severity};

/// One finding as a line of a test case's text: its code, name and
/// severity, where (move, and line:column in the input's text), and its
/// message.
fn line_of(f: &Finding) -> String {
    let mut at = String::new();
    if let Some(m) = f.move_number.filter(|&m| m > 0) {
        at.push_str(&format!(" at move {m}"));
    }
    if let Some(l) = &f.location {
        at.push_str(&format!(" ({}:{})", l.line, l.column));
    }
    format!(
        "{} {} [{}]{at}: {}",
        f.code.id(),
        f.code.name(),
        f.severity.as_str(),
        f.message
    )
}

/// The cases a suite holds before it is written: past this many bytes of
/// XML, the input's next games open another suite of the same name.
const SUITE_BYTES: usize = 1 << 20;

pub struct JunitReporter<W: Write> {
    out: W,
    /// Findings at or above this severity fail their game (`None`: none do,
    /// as with `--fail-on never` or `--exit-zero`).
    failing: Option<Severity>,
    /// The suite being filled, not yet written.
    suite: Suite,
    started: bool,
    /// A GitLab job's checkout, below which `file` is the path in the
    /// repository (GitLab links it).
    root: RepositoryRoot,
}

/// A suite's cases, held until they are all known, and their counts.
#[derive(Default)]
struct Suite {
    /// The input the suite is named after; `None` while no suite is open.
    name: Option<String>,
    /// The `<testcase>` elements, as written (the buffer is kept from one
    /// suite to the next).
    cases: Vec<u8>,
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
}

/// What a test case comes to.
#[derive(Clone, Copy)]
enum Outcome {
    Passed,
    Failed,
    Error,
    Skipped,
}

impl<W: Write> JunitReporter<W> {
    /// A report into `out`: games fail at `failing`, files below `root` are
    /// named in the repository.
    pub fn new(out: W, failing: Option<Severity>, root: RepositoryRoot) -> Self {
        JunitReporter {
            out,
            failing,
            suite: Suite::default(),
            started: false,
            root,
        }
    }

    fn start(&mut self) -> io::Result<()> {
        if !self.started {
            self.started = true;
            self.out.write_all(
                b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"sgfaudit\">\n",
            )?;
        }
        Ok(())
    }

    /// The suite of `path`, the open one if it is that input's (the games of
    /// an input come together, its parts too), after writing any other.
    fn suite_of(&mut self, path: &str) -> io::Result<&mut Suite> {
        if self.suite.name.as_deref().is_some_and(|name| name != path) {
            self.write_suite()?;
        }
        if self.suite.name.is_none() {
            self.suite.name = Some(path.to_string());
        }
        Ok(&mut self.suite)
    }

    /// Writes the open suite, with its counts, and closes it.
    fn write_suite(&mut self) -> io::Result<()> {
        let s = &mut self.suite;
        let Some(name) = s.name.take() else {
            return Ok(());
        };
        writeln!(
            self.out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
            escape_attribute(&name),
            s.tests,
            s.failures,
            s.errors,
            s.skipped
        )?;
        self.out.write_all(&s.cases)?;
        self.out.write_all(b"  </testsuite>\n")?;
        s.cases.clear();
        (s.tests, s.failures, s.errors, s.skipped) = (0, 0, 0, 0);
        Ok(())
    }
}

impl<W: Write> Reporter for JunitReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        self.start()?;
        let failing_at = self.failing;
        let disk = self.root.relative(super::file_on_disk(&file.path));
        let suite = self.suite_of(&file.path)?;
        let outcome = write_case(&mut suite.cases, disk, failing_at, file, game)?;
        suite.tests += 1;
        match outcome {
            Outcome::Passed => {}
            Outcome::Failed => suite.failures += 1,
            Outcome::Error => suite.errors += 1,
            Outcome::Skipped => suite.skipped += 1,
        }
        if suite.cases.len() >= SUITE_BYTES {
            self.write_suite()?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.start()?;
        self.write_suite()?;
        self.out.write_all(b"</testsuites>\n")?;
        self.out.flush()
    }
}

/// Writes the `<testcase>` of `game` into `out`, its `file` attribute
/// `disk` (the file on disk, as GitLab links it); says what it came to.
fn write_case(
    out: &mut Vec<u8>,
    disk: &str,
    failing_at: Option<Severity>,
    file: &FileInfo,
    game: &GameReport,
) -> io::Result<Outcome> {
    let disk = disk.strip_prefix("./").unwrap_or(disk);
    write!(
        out,
        "    <testcase classname=\"{}\" name=\"game {}\" file=\"{}\"",
        escape_attribute(&file.path),
        game.index,
        escape_attribute(disk)
    )?;
    match game.start.filter(|_| super::shown_on_disk(&file.path)) {
        Some(start) => write!(out, " line=\"{}\">", start.line)?,
        None => out.write_all(b">")?,
    }
    let lines: Vec<String> = game.findings.iter().map(line_of).collect();
    let body = escape(&lines.join("\n"));
    let failing: Vec<&Finding> = match failing_at {
        Some(s) => game.findings.iter().filter(|f| f.severity >= s).collect(),
        None => Vec::new(),
    };
    let outcome = match &game.status {
        // Skipped on purpose (an input of a kind not read, a board not
        // replayed), unless `--fail-on` makes that a failure.
        Status::Error(why)
            if game
                .findings
                .iter()
                .any(|f| matches!(f.code, Code::SkippedInput | Code::RectangularBoard))
                && failing.is_empty() =>
        {
            write!(
                out,
                "\n      <skipped message=\"{}\"/>\n    ",
                escape_attribute(&why.to_string())
            )?;
            Outcome::Skipped
        }
        Status::Error(why) => {
            let why = why.to_string();
            write!(
                out,
                "\n      <error message=\"{}\" type=\"{}\">{body}</error>\n    ",
                escape_attribute(&why),
                error_code(&game.findings, &why)
            )?;
            Outcome::Error
        }
        Status::Ok if !failing.is_empty() => {
            let first = failing[0];
            let message = format!(
                "{} finding(s) at or above {}; the first: {} {}: {}",
                failing.len(),
                failing_at.map_or("", Severity::as_str),
                first.code.id(),
                first.code.name(),
                first.message
            );
            write!(
                out,
                "\n      <failure message=\"{}\" type=\"{}\">{body}</failure>\n    ",
                escape_attribute(&message),
                first.code.id()
            )?;
            Outcome::Failed
        }
        Status::Ok => {
            if !lines.is_empty() {
                write!(out, "\n      <system-out>{body}</system-out>\n    ")?;
            }
            Outcome::Passed
        }
    };
    out.write_all(b"</testcase>\n")?;
    Ok(outcome)
}

/// The code of the finding that says why a game could not be audited: the one
/// whose message is the reason `why`, or else the first of the highest
/// severity (a charset note may come before it).
fn error_code(findings: &[Finding], why: &str) -> &'static str {
    let top = findings.iter().map(|f| f.severity).max();
    findings
        .iter()
        .find(|f| f.message == why)
        .or_else(|| findings.iter().find(|f| Some(f.severity) == top))
        .map_or("error", |f| f.code.id())
}
