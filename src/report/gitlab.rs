//! `--format gitlab`: a GitLab Code Quality report, the JSON array of issues
//! a merge request's Code Quality widget reads (the subset of the Code
//! Climate issue GitLab documents: `description`, `check_name`,
//! `fingerprint`, `severity`, `location.path`, `location.lines.begin`).
//!
//! One issue per finding, in input order. GitLab counts issues with the same
//! fingerprint as one, and compares fingerprints between the base and the
//! head of a merge request to tell new findings from fixed ones; so a
//! fingerprint names the finding, not its wording ([`super::fingerprint`]),
//! and `--baseline` takes such a report as the findings already known.
//! Issues are written as they come, so memory does not grow with the run.

use std::io::{self, Write};

use serde::Serialize;

use super::{Reporter, RepositoryRoot, Summary};
use crate::audit::{FileInfo, GameReport};
use crate::core::findings::{Finding, Severity};

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
}

/// GitLab's scale is info, minor, major, critical, blocker: an error (an
/// illegal move, a file that cannot be read) is major, so it ranks above the
/// warnings in the widget; none is critical or blocker, which GitLab
/// reserves for faults in code.
fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// What the widget shows of a finding: its code and name, its message, and
/// where in the input, since the location holds only a path and a line.
fn description(file: &FileInfo, game: &GameReport, f: &Finding) -> String {
    let mut where_ = vec![format!("game {}", game.index)];
    if let Some(m) = f.move_number.filter(|&m| m > 0) {
        where_.push(format!("move {m}"));
    }
    let disk = super::file_on_disk(&file.path);
    if let Some(entry) = file
        .path
        .strip_prefix(disk)
        .and_then(|e| e.strip_prefix('!'))
    {
        where_.insert(0, format!("entry {entry}"));
    }
    format!(
        "{} {}: {} ({})",
        f.code.id(),
        f.code.name(),
        f.message,
        where_.join(", ")
    )
}

pub struct GitlabReporter<W: Write> {
    out: W,
    /// An issue has been written (the next one needs a comma).
    any: bool,
    /// A job's checkout, below which paths are named in the repository.
    root: RepositoryRoot,
}

impl<W: Write> GitlabReporter<W> {
    /// A report into `out`, paths below `root` named in the repository.
    pub fn new(out: W, root: RepositoryRoot) -> Self {
        GitlabReporter {
            out,
            any: false,
            root,
        }
    }
}

impl<W: Write> Reporter for GitlabReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        let name = super::fingerprint::input_name(&file.path);
        let path = self.root.relative(super::file_on_disk(name));
        let prints = super::fingerprint::of_game(&file.path, game);
        for (f, print) in game.findings.iter().zip(prints) {
            let issue = Issue {
                description: description(file, game, f),
                check_name: f.code.id(),
                fingerprint: print.to_string(),
                severity: severity(f.severity),
                location: Location {
                    path,
                    lines: Lines {
                        begin: super::place_on_disk(&file.path, f).map_or(1, |l| l.line.max(1)),
                    },
                },
            };
            self.out.write_all(if self.any { b",\n" } else { b"[\n" })?;
            self.any = true;
            serde_json::to_writer(&mut self.out, &issue).map_err(io::Error::from)?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.out
            .write_all(if self.any { b"\n]\n" } else { b"[]\n" })?;
        self.out.flush()
    }
}
