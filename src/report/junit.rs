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
//! in its `<system-out>`. Test cases are written as they come, so memory does not
//! grow with the run; for that the suites carry no `tests` or `failures`
//! counts (the tools that read the format count the test cases).

use std::io::{self, Write};

use super::diagram::{escape, escape_attribute};
use super::{Reporter, Summary};
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

pub struct JunitReporter<W: Write> {
    out: W,
    /// Findings at or above this severity fail their game (`None`: none do,
    /// as with `--fail-on never` or `--exit-zero`).
    failing: Option<Severity>,
    /// The input whose suite is open.
    suite: Option<String>,
    started: bool,
}

impl<W: Write> JunitReporter<W> {
    pub fn new(out: W, failing: Option<Severity>) -> Self {
        JunitReporter {
            out,
            failing,
            suite: None,
            started: false,
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

    /// Opens the suite of `path` unless it is open (the games of an input
    /// come together, its parts too).
    fn suite_of(&mut self, path: &str) -> io::Result<()> {
        if self.suite.as_deref() == Some(path) {
            return Ok(());
        }
        if self.suite.is_some() {
            self.out.write_all(b"  </testsuite>\n")?;
        }
        writeln!(
            self.out,
            "  <testsuite name=\"{}\">",
            escape_attribute(path)
        )?;
        self.suite = Some(path.to_string());
        Ok(())
    }
}

impl<W: Write> Reporter for JunitReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        self.start()?;
        self.suite_of(&file.path)?;
        let disk = super::file_on_disk(&file.path);
        let disk = disk.strip_prefix("./").unwrap_or(disk);
        write!(
            self.out,
            "    <testcase classname=\"{}\" name=\"game {}\" file=\"{}\"",
            escape_attribute(&file.path),
            game.index,
            escape_attribute(disk)
        )?;
        match game.start.filter(|_| super::shown_on_disk(&file.path)) {
            Some(start) => write!(self.out, " line=\"{}\">", start.line)?,
            None => self.out.write_all(b">")?,
        }
        let lines: Vec<String> = game.findings.iter().map(line_of).collect();
        let body = escape(&lines.join("\n"));
        let failing: Vec<&Finding> = match self.failing {
            Some(s) => game.findings.iter().filter(|f| f.severity >= s).collect(),
            None => Vec::new(),
        };
        match &game.status {
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
                    self.out,
                    "\n      <skipped message=\"{}\"/>\n    ",
                    escape_attribute(&why.to_string())
                )?;
            }
            Status::Error(why) => {
                let kind = game.findings.first().map_or("error", |f| f.code.id());
                write!(
                    self.out,
                    "\n      <error message=\"{}\" type=\"{kind}\">{body}</error>\n    ",
                    escape_attribute(&why.to_string()),
                )?;
            }
            Status::Ok if !failing.is_empty() => {
                let first = failing[0];
                let message = format!(
                    "{} finding(s) at or above {}; the first: {} {}: {}",
                    failing.len(),
                    self.failing.map_or("", Severity::as_str),
                    first.code.id(),
                    first.code.name(),
                    first.message
                );
                write!(
                    self.out,
                    "\n      <failure message=\"{}\" type=\"{}\">{body}</failure>\n    ",
                    escape_attribute(&message),
                    first.code.id()
                )?;
            }
            Status::Ok if !lines.is_empty() => {
                write!(self.out, "\n      <system-out>{body}</system-out>\n    ")?;
            }
            Status::Ok => {}
        }
        self.out.write_all(b"</testcase>\n")
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.start()?;
        if self.suite.is_some() {
            self.out.write_all(b"  </testsuite>\n")?;
        }
        self.out.write_all(b"</testsuites>\n")?;
        self.out.flush()
    }
}
