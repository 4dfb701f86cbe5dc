//! `--format concise`: one line per finding, the way compilers and linters
//! print them, so a reader sees every finding and exactly where it is, and
//! Vim's quickfix list, Emacs' compilation mode, VS Code's problem matchers
//! and `grep` read the lines as they are:
//!
//! ```text
//! PATH:LINE:COLUMN: SEVERITY CODE NAME[ in game G][ at move M]: MESSAGE
//! PATH: SEVERITY CODE NAME[ in game G][ at move M]: MESSAGE
//! ```
//!
//! The second form is for a finding without a place in the text (a file that
//! cannot be read, a check of the whole game). PATH is the input as the other
//! reports name it (`ARCHIVE!ENTRY` for an archive entry), LINE:COLUMN the
//! place in that input's text; the game is named only in a collection's later
//! games (from 0, as `--game` counts). Lines come in input order, written as
//! games come, and the last line counts the run (a line more says what
//! `--baseline` left out). Names and record text are written as
//! [`super::printable`] makes them, so nothing in a record acts on the
//! terminal or starts a line of its own.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{printable, Reporter, Summary};
use crate::audit::{FileInfo, GameReport};
use crate::core::findings::{Finding, Severity};

pub struct ConciseReporter<W: Write> {
    out: W,
}

impl<W: Write> ConciseReporter<W> {
    pub fn new(out: W) -> Self {
        ConciseReporter { out }
    }
}

/// One finding's line, without its line break.
fn line(path: &str, game: usize, f: &Finding) -> String {
    let mut s = String::from(printable(path));
    if let Some(l) = &f.location {
        let _ = write!(s, ":{}:{}", l.line, l.column);
    }
    let _ = write!(
        s,
        ": {} {} {}",
        f.severity.as_str(),
        f.code.id(),
        f.code.name()
    );
    if game > 0 {
        let _ = write!(s, " in game {game}");
    }
    if let Some(m) = f.move_number.filter(|&m| m > 0) {
        let _ = write!(s, " at move {m}");
    }
    let _ = write!(s, ": {}", printable(&f.message));
    s
}

impl<W: Write> Reporter for ConciseReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        for f in &game.findings {
            writeln!(self.out, "{}", line(&file.path, game.index, f))?;
        }
        Ok(())
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let count = |sev| summary.by_severity.get(&sev).copied().unwrap_or(0);
        let interrupted = if summary.interrupted {
            " (interrupted: the counts cover what was audited)"
        } else {
            ""
        };
        writeln!(
            self.out,
            "sgfaudit: {} error(s), {} warning(s), {} info in {} file(s), {} game(s){interrupted}",
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
            summary.files,
            summary.games,
        )?;
        if let Some(b) = summary.baseline {
            writeln!(self.out, "sgfaudit: {}", b.sentence())?;
        }
        self.out.flush()
    }
}
