//! Output: every format behind one [`Reporter`] trait, plus the archive-wide
//! [`Summary`] they all can use. Only this layer knows JSON, CSV, SARIF,
//! GitHub's workflow commands, GitLab's Code Quality JSON, JUnit XML, HTML, Arrow and
//! Parquet.

#[cfg(feature = "parquet")]
pub mod arrow;
pub mod background;
pub mod baseline;
pub mod chart;
pub mod concise;
pub mod csv;
pub mod destination;
pub mod diagram;
pub mod fingerprint;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod jsonl;
pub mod junit;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod sarif;
pub mod table;
pub mod text;

use std::collections::BTreeMap;
use std::io;

use crate::audit::{FileInfo, FileReport, GameReport, Status};
use crate::core::findings::{Code, Severity};
use crate::core::game::KomiReading;
use crate::core::rules::Ruleset;
use crate::scoring::counting::Counting;
use crate::scoring::{DeadSource, NotScored, Scoring};

/// A line of the summary's result-check table: which count was held against RE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CheckLine {
    /// The declared rules' count of the final position, with dead stones from
    /// this source.
    Rules(DeadSource),
    /// ... with estimated dead stones of which none was in doubt.
    RulesSure,
    /// The record's own count: its TB/TW markup as marked.
    Markup,
    /// Records without RU: some counting gives RE.
    AnyCounting,
}

impl CheckLine {
    /// The check's name in machine-readable summaries (the Python package's
    /// `summary["results"]`), with the dead-stone source where it has one.
    pub fn key(self) -> (&'static str, Option<&'static str>) {
        match self {
            CheckLine::Rules(source) => ("declared_rules", Some(source.key())),
            CheckLine::RulesSure => ("declared_rules_none_uncertain", Some("estimated")),
            CheckLine::Markup => ("own_count", None),
            CheckLine::AnyCounting => ("some_counting_without_ru", None),
        }
    }

    /// How the summary names the line.
    pub fn label(self) -> String {
        match self {
            CheckLine::Rules(source) => {
                format!(
                    "by the declared rules' count (dead stones: {})",
                    source.key()
                )
            }
            CheckLine::RulesSure => {
                "by the declared rules' count (dead stones: estimated, none uncertain)".to_string()
            }
            CheckLine::Markup => "by the record's own count (TB/TW as marked)".to_string(),
            CheckLine::AnyCounting => "by some counting, in records without RU".to_string(),
        }
    }
}

/// The file on disk an input name stands for: an archive entry
/// (`ARCHIVE!ENTRY`) is its archive; any other name, `!` or not, is itself.
pub fn file_on_disk(name: &str) -> &str {
    name.match_indices('!')
        .map(|(i, _)| &name[..i])
        .find(|prefix| crate::input::archive::kind_of(std::path::Path::new(prefix)).is_some())
        .unwrap_or(name)
}

/// The checkout of the GitLab job the run is in (the command line passes
/// `CI_PROJECT_DIR`), for the reports GitLab links to files in the
/// repository (Code Quality's `location.path`, JUnit's `file`): there an
/// input named by its absolute path below the checkout is named by its path
/// in the repository.
#[derive(Clone, Debug, Default)]
pub struct RepositoryRoot(Option<String>);

impl RepositoryRoot {
    /// The checkout at the absolute path `dir`; none for no path or a
    /// relative one.
    pub fn new(dir: Option<&str>) -> RepositoryRoot {
        RepositoryRoot(
            dir.filter(|d| d.starts_with('/'))
                .map(|d| format!("{}/", d.trim_end_matches('/'))),
        )
    }

    /// `path` below the checkout without it (`$CI_PROJECT_DIR/games/x.sgf`
    /// is `games/x.sgf`); any other path as it is.
    pub fn relative<'p>(&self, path: &'p str) -> &'p str {
        self.0
            .as_deref()
            .and_then(|dir| path.strip_prefix(dir))
            .filter(|rest| !rest.is_empty())
            .unwrap_or(path)
    }
}

/// A path's bytes percent-encoded as RFC 3986 asks of a URI reference
/// (unreserved characters and `/` kept, so a path stays a path): bytes that
/// are not UTF-8 are encoded as they are.
pub fn percent_encode_path(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Where a finding stands in the file on disk, for the formats that point
/// into a file (line and column): none for an archive entry or a compressed
/// game file, whose places are in a text the file on disk does not show.
pub fn place_on_disk<'f>(
    name: &str,
    f: &'f crate::core::findings::Finding,
) -> Option<&'f crate::core::findings::Location> {
    f.location.as_ref().filter(|_| shown_on_disk(name))
}

/// Whether places in the text of input `name` are places in the file on
/// disk: not for an archive entry or a compressed game file.
pub fn shown_on_disk(name: &str) -> bool {
    let disk = file_on_disk(name);
    disk == name && !crate::input::is_compressed_game_file(std::path::Path::new(disk))
}

/// `text` as a terminal or a CI log may show it: every character that would
/// act on the text around it instead of showing (a control character, or a
/// bidirectional embedding, override or isolate) is written as its UTF-8 bytes in `\xHH` escapes (ESC as `\x1B`), as the names
/// of inputs write bytes that are not UTF-8, so that a file name or a text
/// taken from an input cannot move the cursor, colour, hide or reorder what
/// is printed after it, and a name printed so is one `explain` opens.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(steers_terminal) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_printable(&mut out, c);
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `c`, printed, acts on the text around it instead of showing: a
/// control character, or a bidirectional embedding, override or isolate
/// (U+202A-U+202E, U+2066-U+2069), which reorders the text after it.
fn steers_terminal(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Appends `c` to `out` as [`printable`] writes it.
pub(crate) fn push_printable(out: &mut String, c: char) {
    if steers_terminal(c) {
        use std::fmt::Write;
        for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
            let _ = write!(out, "\\x{b:02X}");
        }
    } else {
        out.push(c);
    }
}

/// A sink for audit results, called in input order.
pub trait Reporter {
    /// Whether it writes anything per game: one that writes only from the
    /// summary at the end is not handed the games.
    fn takes_games(&self) -> bool {
        true
    }
    /// One game's results (games come file by file, in input order).
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()>;
    /// The run is over.
    fn finish(&mut self, summary: &Summary) -> io::Result<()>;
}

/// A reporter whose errors name what it writes: "the report x.sarif: No
/// space left on device" (the error's kind is kept, so a reader that went
/// away is still told apart).
pub struct Labelled {
    what: String,
    inner: Box<dyn Reporter + Send>,
}

impl Labelled {
    /// `inner`, its errors preceded by `what` ("the HTML report FILE").
    pub fn new(what: String, inner: Box<dyn Reporter + Send>) -> Labelled {
        Labelled { what, inner }
    }

    fn label(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{}: {e}", self.what))
    }
}

impl Reporter for Labelled {
    fn takes_games(&self) -> bool {
        self.inner.takes_games()
    }

    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        self.inner.game(file, game).map_err(|e| self.label(e))
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        self.inner.finish(summary).map_err(|e| self.label(e))
    }
}

/// How many files the "most problems" list keeps.
pub const TOP_FILES: usize = 10;

/// Archive-wide counts, built as results stream by (small and bounded).
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub files: u64,
    /// Files that could not be read at all.
    pub files_unreadable: u64,
    /// Game files and archives the walk left out (hidden, ignored, not
    /// matching `--glob`), and the game entries of archives left out (hidden,
    /// macOS metadata).
    pub files_left_out: u64,
    pub games: u64,
    pub games_ok: u64,
    pub games_error: u64,
    /// Games that could not be audited, per kind of error.
    pub errors_by_kind: BTreeMap<&'static str, u64>,
    pub moves: u64,
    /// Games whose KM is read otherwise than written ([`KomiReading`]):
    /// written x100 (Fox), 0 for Fox's standard komi, and in stones.
    pub komi_scaled: u64,
    pub komi_unwritten: u64,
    pub komi_in_stones: u64,
    pub by_severity: BTreeMap<Severity, u64>,
    /// Findings per code and the severity they were given.
    pub by_code: BTreeMap<(Code, Severity), u64>,
    /// Games with at least one finding of the code at that severity: how
    /// widely a code fires, where `by_code` can be one game's thousand moves.
    pub games_by_code: BTreeMap<(Code, Severity), u64>,
    /// Illegal moves per ruleset and kind.
    pub illegal: BTreeMap<(Ruleset, &'static str), u64>,
    /// Games with at least one illegal move, per ruleset.
    pub games_illegal: BTreeMap<Ruleset, u64>,
    /// Games with a Japanese rule 12 repetition.
    pub japanese_no_result: u64,
    /// (errors, warnings, path), the files with most problems.
    pub top_files: Vec<(u64, u64, String)>,
    /// Errors and warnings of the file whose games are being added.
    current: (u64, u64),
    /// The run was interrupted (Ctrl-C, SIGTERM): the counts cover what was
    /// audited until then.
    pub interrupted: bool,
    /// With `--baseline`: the findings left out as known, and the known
    /// ones not found.
    pub baseline: Option<baseline::BaselineCounts>,
    /// Games scored, and games not scored per reason.
    pub scored: u64,
    pub not_scored: BTreeMap<NotScored, u64>,
    /// Result checks made and matched, per line.
    pub result_checks: BTreeMap<CheckLine, (u64, u64)>,
    /// Records without markup whose RE a common reading gives where the
    /// rules' count does not (C609), per reading.
    pub readings: BTreeMap<&'static str, u64>,
    /// Per pair of countings: games whose winner changes, and how often each
    /// cause takes part in such a change.
    pub winner_changes: BTreeMap<[Counting; 2], (u64, BTreeMap<&'static str, u64>)>,
}

impl Summary {
    /// Adds one file's results.
    pub fn add(&mut self, r: &FileReport) {
        for g in &r.games {
            self.add_game(g);
        }
        self.file_done(&r.file);
    }

    /// Adds one game's results; [`Summary::file_done`] closes its file.
    pub fn add_game(&mut self, g: &GameReport) {
        self.games += 1;
        match &g.status {
            Status::Ok => self.games_ok += 1,
            Status::Error(e) => {
                self.games_error += 1;
                *self.errors_by_kind.entry(e.kind()).or_default() += 1;
            }
        }
        self.moves += u64::from(g.moves);
        if let Some(written) = g.komi_as_written {
            match KomiReading::of(written, g.komi) {
                KomiReading::Scaled | KomiReading::ScaledStones => self.komi_scaled += 1,
                KomiReading::Stones => self.komi_in_stones += 1,
                KomiReading::Unwritten => self.komi_unwritten += 1,
            }
        }
        // The (code, severity) pairs of this game: few, however many findings.
        let mut kinds: Vec<(Code, Severity)> = Vec::new();
        for f in &g.findings {
            *self.by_severity.entry(f.severity).or_default() += 1;
            *self.by_code.entry((f.code, f.severity)).or_default() += 1;
            if !kinds.contains(&(f.code, f.severity)) {
                kinds.push((f.code, f.severity));
                *self.games_by_code.entry((f.code, f.severity)).or_default() += 1;
            }
            match f.severity {
                Severity::Error => self.current.0 += 1,
                Severity::Warning => self.current.1 += 1,
                Severity::Info => {}
            }
        }
        match &g.scoring {
            Scoring::NotScored(why) => {
                if g.status == Status::Ok {
                    *self.not_scored.entry(*why).or_default() += 1;
                }
            }
            Scoring::Scored(s) => {
                self.scored += 1;
                if let Some(c) = &s.result_check {
                    let mut count = |line: CheckLine, matched: bool| {
                        let e = self.result_checks.entry(line).or_default();
                        e.0 += 1;
                        e.1 += u64::from(matched);
                    };
                    if c.declared.is_some() {
                        count(CheckLine::Rules(s.dead.source), c.matches);
                        if s.dead.source == DeadSource::Estimated && s.dead.uncertain.is_empty() {
                            count(CheckLine::RulesSure, c.matches);
                        }
                    } else {
                        count(CheckLine::AnyCounting, c.matches);
                    }
                    if let Some(m) = c.markup_matches {
                        count(CheckLine::Markup, m);
                    }
                    if let Some(r) = c.reading {
                        *self.readings.entry(r.key()).or_default() += 1;
                    }
                }
                for d in s.divergence.iter().filter(|d| d.winner_changes) {
                    let e = self.winner_changes.entry(d.between).or_default();
                    e.0 += 1;
                    for (cause, _) in &d.causes {
                        *e.1.entry(cause).or_default() += 1;
                    }
                }
            }
        }
        for r in Ruleset::ALL {
            let v = &g.verdicts.get(r);
            for i in &v.illegal {
                *self.illegal.entry((r, i.kind.key())).or_default() += 1;
            }
            if !v.illegal.is_empty() {
                *self.games_illegal.entry(r).or_default() += 1;
            }
            if v.no_result.is_some() {
                self.japanese_no_result += 1;
            }
        }
    }

    /// The game files and archive entries left out, as the summaries say
    /// it; `None` when there are none.
    pub fn left_out_sentence(&self) -> Option<String> {
        (self.files_left_out > 0).then(|| {
            format!(
                "left out: {} (hidden or macOS metadata, in .gitignore/.ignore, or not matching \
                 --glob; --hidden, --no-ignore)",
                self.files_left_out
            )
        })
    }

    /// The games whose KM is read otherwise than written, as the summaries
    /// say it; `None` when there are none.
    pub fn komi_sentence(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.komi_scaled + self.komi_unwritten > 0 {
            parts.push(format!(
                "as Fox writes it: {} written x100, {} KM[0] in an even game read as no komi",
                self.komi_scaled, self.komi_unwritten
            ));
        }
        if self.komi_in_stones > 0 {
            parts.push(format!(
                "in stones of two points: {} with a quarter left over (KM[3.75] is 7.5 points)",
                self.komi_in_stones
            ));
        }
        (!parts.is_empty()).then(|| {
            format!(
                "KM read {} (KM as written: komi_as_written)",
                parts.join("; ")
            )
        })
    }

    /// How many games have a finding of `code` at `severity`.
    pub fn games_with(&self, code: Code, severity: Severity) -> u64 {
        self.games_by_code
            .get(&(code, severity))
            .copied()
            .unwrap_or(0)
    }

    /// Closes the file whose games were just added.
    pub fn file_done(&mut self, file: &FileInfo) {
        self.files += 1;
        if file.encoding.is_none() {
            self.files_unreadable += 1;
        }
        let (errors, warnings) = std::mem::take(&mut self.current);
        if errors + warnings > 0 {
            self.top_files.push((errors, warnings, file.path.clone()));
            // Most errors first, then most warnings, then path: deterministic.
            self.top_files
                .sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
            self.top_files.truncate(TOP_FILES);
        }
    }

    /// Findings at or above a severity.
    pub fn at_least(&self, s: Severity) -> u64 {
        self.by_severity
            .iter()
            .filter(|(k, _)| **k >= s)
            .map(|(_, v)| *v)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{audit_bytes, AuditOptions};
    use crate::core::replay::Replayer;

    /// Two games: the first plays on an occupied point twice (W A19 on Black's
    /// A19, W B18 on Black's B18), the second once. Three R401 findings, in
    /// two games.
    #[test]
    fn a_code_is_counted_in_findings_and_in_games() {
        let text = "(;GM[1]FF[4]SZ[9];B[aa];W[aa];B[bb];W[bb])(;GM[1]FF[4]SZ[9];B[cc];W[cc])";
        let report = audit_bytes(
            "two.sgf",
            text.as_bytes(),
            &AuditOptions::default(),
            &mut Replayer::new(),
        );
        let mut s = Summary::default();
        s.add(&report);
        let r401 = Code::ALL.iter().find(|c| c.id() == "R401").copied();
        let key = (r401.expect("R401 exists"), Severity::Error);
        assert_eq!(s.games, 2);
        assert_eq!(s.by_code.get(&key), Some(&3), "{:?}", s.by_code);
        assert_eq!(s.games_by_code.get(&key), Some(&2), "{:?}", s.games_by_code);
    }

    /// Text that cannot move a terminal's cursor or colour stays as it is; a
    /// colour sequence, a line feed and a right-to-left override become
    /// their bytes in visible escapes, and nothing else of the text changes.
    #[test]
    fn a_text_is_printed_with_its_controls_escaped() {
        assert!(matches!(
            printable("games/2017 名人戦 ◆.sgf"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(
            printable("a\u{1b}[31mred\nline\u{202e}fgs.txt\t\u{7f}"),
            "a\\x1B[31mred\\x0Aline\\xE2\\x80\\xAEfgs.txt\\x09\\x7F"
        );
    }
}
