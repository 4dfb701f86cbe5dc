//! The default output: a readable summary of the whole run.

use std::io::{self, Write};

use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};
use crate::core::findings::Severity;
use crate::core::rules::Ruleset;

/// Prints the summary when the run is over.
pub struct TextReporter<W: Write> {
    out: W,
}

impl<W: Write> TextReporter<W> {
    pub fn new(out: W) -> Self {
        TextReporter { out }
    }
}

impl<W: Write> Reporter for TextReporter<W> {
    fn takes_games(&self) -> bool {
        false
    }

    fn game(&mut self, _file: &FileInfo, _game: &GameReport) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, s: &Summary) -> io::Result<()> {
        let o = &mut self.out;
        if s.interrupted {
            writeln!(
                o,
                "interrupted: the counts below cover the files audited until then"
            )?;
        }
        writeln!(o, "files: {} ({} unreadable)", s.files, s.files_unreadable)?;
        if let Some(left_out) = s.left_out_sentence() {
            writeln!(o, "  {left_out}")?;
        }
        writeln!(
            o,
            "games: {} ({} audited, {} could not be audited), {} moves",
            s.games, s.games_ok, s.games_error, s.moves
        )?;
        for (kind, n) in &s.errors_by_kind {
            writeln!(o, "  could not be audited, {kind}: {n}")?;
        }
        if let Some(komi) = s.komi_sentence() {
            writeln!(o, "  {komi}")?;
        }
        let sev = |x: Severity| s.by_severity.get(&x).copied().unwrap_or(0);
        writeln!(
            o,
            "findings: {} error(s), {} warning(s), {} info",
            sev(Severity::Error),
            sev(Severity::Warning),
            sev(Severity::Info)
        )?;
        if let Some(b) = s.baseline {
            writeln!(o, "  {}", b.sentence())?;
        }
        writeln!(o)?;
        writeln!(o, "illegal moves per ruleset:")?;
        let kinds = [
            "occupied",
            "off-board",
            "suicide",
            "ko",
            "superko",
            "wrong-turn",
        ];
        write!(o, "  {:<10}", "ruleset")?;
        for k in kinds {
            write!(o, " {k:>10}")?;
        }
        writeln!(o, " {:>10}", "games")?;
        for r in Ruleset::ALL {
            write!(o, "  {:<10}", r.key())?;
            for k in kinds {
                write!(o, " {:>10}", s.illegal.get(&(r, k)).copied().unwrap_or(0))?;
            }
            writeln!(o, " {:>10}", s.games_illegal.get(&r).copied().unwrap_or(0))?;
        }
        writeln!(
            o,
            "  japanese rule 12 (repetition, possible no result): {} game(s)",
            s.japanese_no_result
        )?;
        writeln!(o)?;
        let not: u64 = s.not_scored.values().sum();
        writeln!(
            o,
            "scoring: {} game(s) scored, {} not scored",
            s.scored, not
        )?;
        for (why, n) in &s.not_scored {
            writeln!(o, "  not scored, {}: {n}", why.reason())?;
        }
        for (line, (checked, matched)) in &s.result_checks {
            writeln!(
                o,
                "  recorded result reproduced {}: {matched} of {checked}",
                line.label()
            )?;
        }
        if !s.readings.is_empty() {
            let list: Vec<String> = s.readings.iter().map(|(r, n)| format!("{r} {n}")).collect();
            writeln!(
                o,
                "  recorded result given instead by a common reading (C609): {}",
                list.join(", ")
            )?;
        }
        if !s.winner_changes.is_empty() {
            writeln!(
                o,
                "  winner changes between countings (games; causes involved):"
            )?;
            for (pair, (games, causes)) in &s.winner_changes {
                let list: Vec<String> = causes.iter().map(|(c, n)| format!("{c} {n}")).collect();
                writeln!(
                    o,
                    "    {} vs {}: {games} ({})",
                    pair[0].key(),
                    pair[1].key(),
                    list.join(", ")
                )?;
            }
        }
        if !s.by_code.is_empty() {
            writeln!(o)?;
            writeln!(o, "findings by code:{:>30}{:>9}", "findings", "games")?;
            for ((code, severity), n) in &s.by_code {
                let games = s.games_with(*code, *severity);
                writeln!(
                    o,
                    "  {} {:<22} {:<8} {:>8} {:>8}",
                    code.id(),
                    code.name(),
                    severity.as_str(),
                    n,
                    games
                )?;
            }
        }
        if !s.top_files.is_empty() {
            writeln!(o)?;
            writeln!(o, "files with most problems (errors, warnings):")?;
            for (e, w, p) in &s.top_files {
                writeln!(o, "  {e:>4} {w:>4}  {}", super::printable(p))?;
            }
        }
        if !s.by_code.is_empty() {
            writeln!(o)?;
            writeln!(
                o,
                "each finding where it is written: --format concise; one game in full: \
                 sgfaudit explain FILE [--game N] [--move M]"
            )?;
        }
        o.flush()
    }
}
