//! `--baseline FILE`: the findings of an earlier run, taken as known.
//!
//! FILE is a GitLab Code Quality report as `--format gitlab` writes it: a
//! JSON array of objects, of which only `fingerprint` is read
//! ([`super::fingerprint`]). A finding whose fingerprint it holds is left out
//! of every output and of the exit status, as `--ignore` leaves out a code,
//! so an archive with known problems fails a run only by new ones. The
//! array is read one object at a time: memory holds the fingerprints alone,
//! sorted (16 bytes each, 32 while the list grows) and a flag each.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use super::fingerprint::{self, Fingerprint};
use crate::audit::GameReport;

/// What a run made of its baseline, for the summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BaselineCounts {
    /// The distinct findings the baseline holds.
    pub known: u64,
    /// Findings of the run left out as known (a finding found twice, as by
    /// an input named twice, counts twice).
    pub left_out: u64,
    /// The baseline's findings the run did not find.
    pub not_found: u64,
}

impl BaselineCounts {
    /// The summaries' line: what was left out, and what is gone.
    pub fn sentence(&self) -> String {
        format!(
            "--baseline: {} known finding(s) left out; {} of its {} no longer found",
            self.left_out, self.not_found, self.known
        )
    }
}

/// A baseline that cannot be used: which file, and why.
#[derive(Debug)]
pub struct BaselineError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot use the baseline {}: {}",
            self.path.display(),
            self.message
        )
    }
}

impl std::error::Error for BaselineError {}

/// The known findings (sorted, each once), and which of them the run has met.
#[derive(Debug, Default)]
pub struct Baseline {
    known: Vec<Fingerprint>,
    met: Vec<bool>,
    left_out: u64,
    /// The first issue's `location.path`: how the run that wrote the
    /// baseline named its inputs.
    named_as: Option<String>,
}

impl Baseline {
    /// Reads the report at `path`.
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let error = |message: String| BaselineError {
            path: path.to_path_buf(),
            message,
        };
        let file = File::open(path).map_err(|e| error(e.to_string()))?;
        Baseline::from_reader(BufReader::new(file)).map_err(error)
    }

    /// Reads a report from `r`; the error says what is wrong and where.
    pub fn from_reader<R: Read>(r: R) -> Result<Baseline, String> {
        let mut de = serde_json::Deserializer::from_reader(r);
        let (mut known, named_as) = de.deserialize_seq(Known).map_err(|e| describe(&e))?;
        de.end().map_err(|e| describe(&e))?;
        known.sort_unstable();
        known.dedup();
        known.shrink_to_fit();
        Ok(Baseline {
            met: vec![false; known.len()],
            known,
            named_as,
            ..Baseline::default()
        })
    }

    /// When the run met none of the baseline's findings though it found
    /// some: most likely its inputs were named otherwise (another directory,
    /// an absolute path), which renames every finding. What to say.
    pub fn none_met(&self, found: u64) -> Option<String> {
        if self.known.is_empty() || self.met.contains(&true) || found == 0 {
            return None;
        }
        let example = self
            .named_as
            .as_ref()
            .map(|p| format!(" (such as {p})"))
            .unwrap_or_default();
        Some(format!(
            "none of the baseline's {} findings was found: a finding is known by its \
             input's name as the run that wrote the baseline was given it{example}; \
             give the same paths from the same directory",
            self.known.len()
        ))
    }

    /// `game` without the findings the baseline holds. `path` is its
    /// input's name as reports give it; `project_name`, for a run with a
    /// configuration file, the same input relative to that file's
    /// directory: a baseline written from there names it so, and a finding
    /// it holds under either name is known, whatever directory this run
    /// started in.
    pub fn apply(
        &mut self,
        path: &str,
        project_name: Option<&str>,
        mut game: GameReport,
    ) -> GameReport {
        if self.known.is_empty() || game.findings.is_empty() {
            return game;
        }
        let prints = fingerprint::of_game(path, &game);
        let also = project_name
            .filter(|p| *p != fingerprint::input_name(path))
            .map(|p| fingerprint::of_game(p, &game));
        let findings = std::mem::take(&mut game.findings);
        for (k, (f, print)) in findings.into_iter().zip(prints).enumerate() {
            let given = self.known.binary_search(&print).ok();
            let project = also
                .as_ref()
                .and_then(|a| self.known.binary_search(&a[k]).ok());
            if given.is_none() && project.is_none() {
                game.findings.push(f);
                continue;
            }
            for i in given.into_iter().chain(project) {
                self.met[i] = true;
            }
            self.left_out += 1;
        }
        game
    }

    /// What the run has made of the baseline so far.
    pub fn counts(&self) -> BaselineCounts {
        BaselineCounts {
            known: self.known.len() as u64,
            left_out: self.left_out,
            not_found: self.met.iter().filter(|&&m| !m).count() as u64,
        }
    }
}

/// serde_json's message, with "line L column C" where it has them.
fn describe(e: &serde_json::Error) -> String {
    if e.is_io() {
        return e.to_string();
    }
    format!(
        "not a report written by --format gitlab ({e}); write one with \
         `sgfaudit check PATHS --format gitlab > FILE`"
    )
}

/// One issue of the report: its fingerprint (the other fields are skipped).
#[derive(Deserialize)]
struct Issue {
    fingerprint: String,
    location: Option<IssueLocation>,
}

#[derive(Deserialize)]
struct IssueLocation {
    path: String,
}

/// The array of issues, read into a list of fingerprints as it goes.
struct Known;

impl<'de> Visitor<'de> for Known {
    /// The fingerprints, and the first issue's path.
    type Value = (Vec<Fingerprint>, Option<String>);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of issues, each with a fingerprint")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut known = Vec::new();
        let mut named_as = None;
        while let Some(issue) = seq.next_element::<Issue>()? {
            let print = Fingerprint::parse(&issue.fingerprint).ok_or_else(|| {
                de::Error::custom(format!(
                    "issue {}: fingerprint {:?} is not 32 hex digits",
                    known.len(),
                    issue.fingerprint
                ))
            })?;
            known.push(print);
            if named_as.is_none() {
                named_as = issue.location.map(|l| l.path);
            }
        }
        Ok((known, named_as))
    }
}

#[cfg(test)]
mod tests {
    use super::Baseline;

    #[test]
    fn a_fingerprint_listed_twice_is_known_once() {
        let a = "0123456789abcdef0123456789abcdef";
        let b = "fedcba9876543210fedcba9876543210";
        let report = format!(
            "[{{\"fingerprint\":\"{a}\",\"location\":{{\"path\":\"x.sgf\"}}}},\n\
             {{\"fingerprint\":\"{b}\"}},{{\"fingerprint\":\"{}\"}}]",
            a.to_uppercase()
        );
        let base = Baseline::from_reader(report.as_bytes()).unwrap();
        let counts = base.counts();
        assert_eq!((counts.known, counts.left_out, counts.not_found), (2, 0, 2));
        let why = base.none_met(1).unwrap();
        assert!(
            why.contains("2 findings") && why.contains("(such as x.sgf)"),
            "{why}"
        );
        assert_eq!(base.none_met(0), None, "a run without findings is no sign");
    }

    #[test]
    fn a_report_cut_short_is_refused_with_its_place() {
        let err = Baseline::from_reader(&b"[{\"fingerprint\":\"0"[..]).unwrap_err();
        assert!(err.contains("line 1 column"), "{err}");
        let err = Baseline::from_reader(&b"[]\n[]"[..]).unwrap_err();
        assert!(err.contains("trailing characters at line 2"), "{err}");
    }
}
