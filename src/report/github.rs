//! `--format github`: GitHub Actions workflow commands, one annotation per
//! finding (`::error file=...,line=...,title=...::message`), and a Markdown
//! summary for the job page.
//!
//! GitHub shows at most [`SHOWN_PER_LEVEL`] annotations of each level per
//! step, so the reporter keeps that many of each (the first in input order),
//! prints errors first, then warnings, then notices, and ends with one line
//! that counts what was left out. Memory stays bounded whatever the run.
//!
//! Text from records and file names never forges a command: messages and
//! properties are escaped as GitHub's workflow-command documentation says
//! (`%`, `\r`, `\n` in both; `:` and `,` in properties too).

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};
use crate::core::findings::{Finding, Severity};

/// Annotations GitHub displays per level and step.
pub const SHOWN_PER_LEVEL: usize = 10;

/// One workflow command, already rendered.
struct Annotation {
    line: String,
}

/// The annotations kept for one level, and how many were left out.
#[derive(Default)]
struct Level {
    kept: Vec<Annotation>,
    left_out: u64,
}

pub struct GithubReporter<W: Write> {
    out: W,
    /// Errors, warnings, notices.
    levels: [Level; 3],
    /// Where to append the Markdown summary (`GITHUB_STEP_SUMMARY`).
    step_summary: Option<Box<dyn Write + Send>>,
}

impl<W: Write> GithubReporter<W> {
    /// Annotations go to `out`; the Markdown summary, when `step_summary` is
    /// given, is appended to it at the end of the run.
    pub fn new(out: W, step_summary: Option<Box<dyn Write + Send>>) -> Self {
        GithubReporter {
            out,
            levels: Default::default(),
            step_summary,
        }
    }
}

fn level_of(s: Severity) -> (usize, &'static str) {
    match s {
        Severity::Error => (0, "error"),
        Severity::Warning => (1, "warning"),
        Severity::Info => (2, "notice"),
    }
}

/// Escapes a workflow command's message: line breaks and `%` are
/// percent-encoded, as the runner decodes them; any other character that
/// would act on the log around it (a colour sequence, a right-to-left
/// override) is written as its bytes in `\xHH` escapes.
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => super::push_printable(&mut out, c),
        }
    }
    out
}

/// Escapes a workflow command's property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn render(file: &FileInfo, game: &GameReport, f: &Finding) -> String {
    let (_, level) = level_of(f.severity);
    let mut props = format!("file={}", escape_property(super::file_on_disk(&file.path)));
    if let Some(loc) = super::place_on_disk(&file.path, f) {
        let _ = write!(props, ",line={},col={}", loc.line, loc.column);
    }
    let mut title = format!("{} {}", f.code.id(), f.code.name());
    if let Some(m) = f.move_number.filter(|&m| m > 0) {
        let _ = write!(title, " at move {m}");
    }
    let _ = write!(props, ",title={}", escape_property(&title));
    let mut message = String::new();
    if super::file_on_disk(&file.path) != file.path {
        let _ = write!(message, "{}: ", file.path);
    }
    if game.index > 0 {
        let _ = write!(message, "game {}: ", game.index);
    }
    message.push_str(&f.message);
    format!("::{level} {props}::{}\n", escape_data(&message))
}

impl<W: Write> Reporter for GithubReporter<W> {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        for f in &game.findings {
            let level = &mut self.levels[level_of(f.severity).0];
            if level.kept.len() < SHOWN_PER_LEVEL {
                level.kept.push(Annotation {
                    line: render(file, game, f),
                });
            } else {
                level.left_out += 1;
            }
        }
        Ok(())
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        for level in &self.levels {
            for a in &level.kept {
                self.out.write_all(a.line.as_bytes())?;
            }
        }
        let [e, w, n] = &self.levels;
        if e.left_out + w.left_out + n.left_out > 0 {
            writeln!(
                self.out,
                "sgfaudit: {} more error(s), {} warning(s) and {} notice(s) are not annotated \
                 (GitHub shows {SHOWN_PER_LEVEL} of each per step); --report concise=FILE or --out lists them all",
                e.left_out, w.left_out, n.left_out
            )?;
        }
        self.out.flush()?;
        if let Some(md) = &mut self.step_summary {
            md.write_all(markdown(summary).as_bytes())?;
            md.flush()?;
        }
        Ok(())
    }
}

/// The run as Markdown, for the job's summary page.
pub fn markdown(s: &Summary) -> String {
    let mut md = String::from("## sgfaudit\n\n");
    if s.interrupted {
        md.push_str("**Interrupted**: the counts cover what was audited.\n\n");
    }
    let count = |sev| s.by_severity.get(&sev).copied().unwrap_or(0);
    let _ = writeln!(
        md,
        "| files | unreadable | games | audited | not audited | moves | errors | warnings | info |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n\
         | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        s.files,
        s.files_unreadable,
        s.games,
        s.games_ok,
        s.games_error,
        s.moves,
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    if let Some(left_out) = s.left_out_sentence() {
        let _ = writeln!(md, "Files {left_out}.\n");
    }
    if let Some(b) = s.baseline {
        let _ = writeln!(md, "{}\n", b.sentence());
    }
    if !s.by_code.is_empty() {
        md.push_str("| code | name | severity | findings | games | what it means |\n| --- | --- | --- | ---: | ---: | --- |\n");
        let mut codes: Vec<_> = s.by_code.iter().collect();
        codes.sort_by(|a, b| b.0 .1.cmp(&a.0 .1).then(b.1.cmp(a.1)).then(a.0.cmp(b.0)));
        for ((code, sev), n) in codes {
            let games = s.games_with(*code, *sev);
            let _ = writeln!(
                md,
                "| {} | {} | {} | {n} | {games} | {} |",
                code.id(),
                code.name(),
                sev.as_str(),
                markdown_cell(code.description())
            );
        }
        md.push('\n');
    }
    if !s.top_files.is_empty() {
        md.push_str("| files with most problems | errors | warnings |\n| --- | ---: | ---: |\n");
        for (errors, warnings, path) in &s.top_files {
            let _ = writeln!(md, "| {} | {errors} | {warnings} |", markdown_cell(path));
        }
        md.push('\n');
    }
    md
}

/// Text safe inside a Markdown table cell: no pipe, no line break, no HTML.
fn markdown_cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\r', '\n'], " ")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('`', "\\`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_workflow_command_rules() {
        assert_eq!(escape_data("50%\r\n::error::x"), "50%25%0D%0A::error::x");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
        assert_eq!(escape_data("x\u{1b}[2Ky"), "x\\x1B[2Ky");
    }
}
