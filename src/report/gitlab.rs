//! `--format gitlab`: a GitLab Code Quality report, the JSON array of issues
//! a merge request's Code Quality widget reads (the subset of the Code
//! Climate issue GitLab documents: `description`, `check_name`,
//! `fingerprint`, `severity`, `location.path`, `location.lines.begin`).
//!
//! One issue per finding, in input order. GitLab counts issues with the same
//! fingerprint as one, and compares fingerprints between the base and the
//! head of a merge request to tell new findings from fixed ones; so a
//! fingerprint names the finding, not its wording: the input, the game, the
//! code, the move (for a finding with none, the byte offset: text added
//! above a move does not rename it), and how many findings of the game share
//! these before it (not the message, whose wording may improve, nor the
//! other inputs of the run). Issues are written as they come, so memory
//! does not grow with the run.

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;

use super::{Reporter, Summary};
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

/// 128 bits of FNV-1a (two 64-bit passes from different offset bases) in
/// hex: a fixed function, so a fingerprint is the same in every release and
/// on every machine.
fn fingerprint(key: &[u8]) -> String {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut out = String::with_capacity(32);
    for basis in [0xcbf2_9ce4_8422_2325_u64, 0x6c62_272e_07bb_0142] {
        let h = key
            .iter()
            .fold(basis, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME));
        out.push_str(&format!("{h:016x}"));
    }
    out
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
}

impl<W: Write> GitlabReporter<W> {
    pub fn new(out: W) -> Self {
        GitlabReporter { out, any: false }
    }
}

impl<W: Write> Reporter for GitlabReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        // `./corpus` and `corpus` name the same findings.
        let name = file.path.strip_prefix("./").unwrap_or(&file.path);
        let path = super::file_on_disk(name);
        // Findings of one game that share code, move and offset, counted so
        // each gets a fingerprint of its own.
        let mut seen: HashMap<(&'static str, Option<u32>, Option<u64>), u32> = HashMap::new();
        for f in &game.findings {
            let offset = match f.move_number {
                Some(m) if m > 0 => None,
                _ => f.location.as_ref().map(|l| l.offset),
            };
            let nth = seen
                .entry((f.code.id(), f.move_number, offset))
                .or_insert(0);
            let key = format!(
                "{}\0{}\0{}\0{:?}\0{:?}\0{}",
                name,
                game.index,
                f.code.id(),
                f.move_number,
                offset,
                nth
            );
            *nth += 1;
            let issue = Issue {
                description: description(file, game, f),
                check_name: f.code.id(),
                fingerprint: fingerprint(key.as_bytes()),
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
            serde_json::to_writer(&mut self.out, &issue).map_err(io::Error::other)?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.out
            .write_all(if self.any { b"\n]\n" } else { b"[]\n" })?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::fingerprint;

    /// FNV-1a's published test vectors: the empty string and "a" for the
    /// standard offset basis.
    #[test]
    fn fingerprints_are_fnv_1a() {
        assert_eq!(&fingerprint(b"")[..16], "cbf29ce484222325");
        assert_eq!(&fingerprint(b"a")[..16], "af63dc4c8601ec8c");
        assert_eq!(fingerprint(b"x").len(), 32);
        assert_ne!(fingerprint(b"ab"), fingerprint(b"ba"));
    }
}
