//! `report.html` (`--out DIR`, `--html FILE`): one self-contained page, no
//! script and no network, that shows the run: the summary, charts of
//! findings, illegal moves and how the countings differ, and a section for
//! each game with an error, a result that does not match or a winner that
//! changes between countings, with board diagrams of the finding and the
//! final position. Every text taken from a record or a file name is escaped.
//!
//! Sections are rendered as games stream by and capped at [`MAX_SECTIONS`],
//! so memory stays bounded whatever the archive's size; the page says how
//! many games it leaves out. Written under a temporary name and renamed at
//! the end, like the CSV tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::chart::{self, Bar, Scale};
use super::destination::Destination;
use super::diagram::{self, escape, Mark};
use super::{file_on_disk, percent_encode_path, printable, Reporter, Summary};
use crate::audit::{FileInfo, GameReport, Status};
use crate::core::board::Snapshot;
use crate::core::findings::Severity;
use crate::core::rules::Ruleset;
use crate::pictures::MovePicture;
use crate::scoring::counting::Counting;
use crate::scoring::{Scored, Scoring};

/// How many games get a section of their own.
pub const MAX_SECTIONS: usize = 100;
/// How many findings a game's section lists.
const MAX_FINDINGS_SHOWN: usize = 40;
/// How many game links each code's row of the summary carries.
const LINKS_PER_CODE: usize = 5;
/// Margin differences beyond this many points share the end columns.
const MARGIN_RANGE: i64 = 10;

const STYLE: &str = "\
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 12px 40px;color:#222;line-height:1.4}\
header{border-bottom:2px solid #444;margin-bottom:12px}\
nav a{margin-right:12px}\
h2{border-bottom:1px solid #ccc;margin-top:32px}\
table{border-collapse:collapse;margin:8px 0;display:block;overflow-x:auto;max-width:100%}\
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}\
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\
.cards{display:flex;flex-wrap:wrap;gap:10px}\
.card{border:1px solid #ccc;border-radius:6px;padding:8px 14px;min-width:110px}\
.card b{display:block;font-size:1.5em}\
.error{color:#b00}.warning{color:#a60}.info{color:#357}\
.boards{display:flex;flex-wrap:wrap;gap:16px}\
.boards figure{margin:0;max-width:560px}\
svg{max-width:100%;height:auto}\
section.game{border-top:1px solid #ccc;margin-top:24px}\
code{background:#f3f3f3;padding:1px 4px;word-break:break-all}\
a,h3,p{overflow-wrap:anywhere}\
.charts{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}\
";

/// The HTML report, written at the end of the run.
pub struct HtmlReporter {
    target: Destination,
    /// The report's directory, absolute: links to files are relative to it.
    base: PathBuf,
    /// Games seen so far: each game's ordinal names its section.
    games_seen: u64,
    /// The game sections kept: the [`MAX_SECTIONS`] most serious, in input
    /// order.
    sections: Vec<Section>,
    /// Games worth a section that did not get one.
    left_out: u64,
    /// Per pair of countings, how many games differ by each (rounded,
    /// clamped) margin difference.
    margins: BTreeMap<[Counting; 2], BTreeMap<i64, u64>>,
    /// Per cause, the games in which it changes some pair's margin.
    causes: BTreeMap<&'static str, u64>,
}

impl HtmlReporter {
    /// A reporter that will write `path` (its directory must exist).
    pub fn create(path: &Path) -> io::Result<HtmlReporter> {
        let target = Destination::named(path)?;
        let base = link_base(path)?;
        Ok(HtmlReporter {
            target,
            base,
            games_seen: 0,
            sections: Vec::new(),
            left_out: 0,
            margins: BTreeMap::new(),
            causes: BTreeMap::new(),
        })
    }

    fn count_divergence(&mut self, s: &Scored) {
        let mut causes: Vec<&'static str> = Vec::new();
        for d in &s.divergence {
            let bucket = (d.margin_difference.round() as i64).clamp(-MARGIN_RANGE, MARGIN_RANGE);
            *self
                .margins
                .entry(d.between)
                .or_default()
                .entry(bucket)
                .or_default() += 1;
            for (cause, _) in &d.causes {
                if !causes.contains(cause) {
                    causes.push(cause);
                }
            }
        }
        for c in causes {
            *self.causes.entry(c).or_default() += 1;
        }
    }
}

/// One game's section, rendered, with what the summary links by.
struct Section {
    /// The game's ordinal in the run: its anchor is `g{ordinal}`.
    ordinal: u64,
    rank: Rank,
    file: String,
    codes: Vec<&'static str>,
    html: String,
}

/// How serious a game's problems are, for choosing the sections kept:
/// errors first (the more the worse), then a result that does not match,
/// then a winner that changes between countings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    errors: usize,
    mismatch: bool,
    winner_changes: bool,
}

/// A file name or a text from an input as the page shows it: its control
/// characters and bidirectional overrides as `\xHH` escapes, as the summary
/// prints them (a browser would reorder the text after an override), then
/// escaped for HTML.
fn shown(text: &str) -> String {
    escape(&printable(text))
}

/// How serious the game's problems are, or `None` when it has none that
/// calls for a section.
fn rank(g: &GameReport) -> Option<Rank> {
    let errors = g
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let (mismatch, winner_changes) = match &g.scoring {
        Scoring::Scored(s) => (s.result_mismatch(), s.winner_changes()),
        Scoring::NotScored(_) => (false, false),
    };
    let r = Rank {
        errors,
        mismatch,
        winner_changes,
    };
    (errors > 0 || mismatch || winner_changes).then_some(r)
}

impl Reporter for HtmlReporter {
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        if let Scoring::Scored(s) = &g.scoring {
            self.count_divergence(s);
        }
        let ordinal = self.games_seen;
        self.games_seen += 1;
        let Some(rank) = rank(g) else {
            return Ok(());
        };
        if self.sections.len() >= MAX_SECTIONS {
            // Keep the most serious: the least serious, latest game goes.
            let least = self
                .sections
                .iter()
                .enumerate()
                .min_by_key(|(_, s)| (s.rank, std::cmp::Reverse(s.ordinal)))
                .map(|(i, s)| (i, s.rank));
            self.left_out += 1;
            match least {
                Some((i, r)) if r < rank => {
                    self.sections.remove(i);
                }
                _ => return Ok(()),
            }
        }
        let mut codes: Vec<&'static str> = g.findings.iter().map(|f| f.code.id()).collect();
        codes.sort_unstable();
        codes.dedup();
        self.sections.push(Section {
            ordinal,
            rank,
            file: file.path.clone(),
            codes,
            html: game_section(ordinal, file, g, &self.base),
        });
        Ok(())
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        self.target.write_whole(self.page(summary).as_bytes())
    }
}

/// The directory, absolute, that the page's links are relative to: the one
/// it is named in, as it will be opened by that name (through a link to it,
/// the link's), except for a name in `/dev` or `/proc` (`/dev/stdout`,
/// `/dev/fd/N`), where no page is opened from: then the directory of the
/// file it leads to (standard output sent to a file), or the current
/// directory for a pipe or a terminal, where a page passed on is most
/// likely kept.
fn link_base(named: &Path) -> io::Result<PathBuf> {
    let absolute = std::path::absolute(named)?;
    let dir = if absolute.starts_with("/dev") || absolute.starts_with("/proc") {
        fs::canonicalize(named)
            .ok()
            .filter(|file| file.is_file())
            .and_then(|file| file.parent().map(Path::to_path_buf))
    } else {
        named.parent().map(Path::to_path_buf)
    };
    std::path::absolute(match &dir {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    })
}

fn severity_colour(s: Severity) -> &'static str {
    match s {
        Severity::Error => "#c33",
        Severity::Warning => "#e0a030",
        Severity::Info => "#6a8fb5",
    }
}

fn ruleset_colour(r: Ruleset) -> &'static str {
    match r {
        Ruleset::Aga => "#4a7ab5",
        Ruleset::Japanese => "#c0504d",
        Ruleset::Swedish => "#9bbb59",
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

/// "1 game", "2 games": a count with its noun, singular for one.
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn games(n: u64) -> String {
    counted(n, "game")
}

fn game_link(ordinal: u64) -> String {
    format!("<a href=\"#g{ordinal}\">game {}</a>", ordinal + 1)
}

impl HtmlReporter {
    fn page(&self, sm: &Summary) -> String {
        let mut s = String::with_capacity(
            64 * 1024 + self.sections.iter().map(|x| x.html.len()).sum::<usize>(),
        );
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>sgfaudit report: {}, {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
             <header><h1>sgfaudit report</h1>\n<p>sgfaudit {}: {}, {}, {}.{}</p>\n\
             <nav><a href=\"#summary\">Summary</a><a href=\"#findings\">Findings</a>\
             <a href=\"#illegal\">Illegal moves</a><a href=\"#results\">Results</a>\
             <a href=\"#countings\">Countings</a><a href=\"#games\">Games</a></nav></header>\n",
            counted(sm.files, "file"),
            games(sm.games),
            env!("CARGO_PKG_VERSION"),
            counted(sm.files, "file"),
            games(sm.games),
            counted(sm.moves, "move"),
            if sm.interrupted {
                " <b class=\"error\">The run was interrupted: these counts cover what was audited until then.</b>"
            } else {
                ""
            }
        );
        self.summary_cards(&mut s, sm);
        self.findings_part(&mut s, sm);
        illegal_part(&mut s, sm);
        results_part(&mut s, sm);
        self.countings_part(&mut s, sm);
        self.games_part(&mut s);
        s.push_str("</body>\n</html>\n");
        s
    }

    fn summary_cards(&self, s: &mut String, sm: &Summary) {
        let sev = |v: Severity| sm.by_severity.get(&v).copied().unwrap_or(0);
        let _ = writeln!(s, "<h2 id=\"summary\">Summary</h2>\n<div class=\"cards\">");
        let cards: [(&str, u64, &str); 9] = [
            ("files", sm.files, ""),
            ("unreadable files", sm.files_unreadable, ""),
            ("games", sm.games, ""),
            ("games audited", sm.games_ok, ""),
            ("games not audited", sm.games_error, ""),
            ("errors", sev(Severity::Error), "error"),
            ("warnings", sev(Severity::Warning), "warning"),
            ("notices", sev(Severity::Info), "info"),
            ("games scored", sm.scored, ""),
        ];
        for (label, n, class) in cards {
            let _ = writeln!(s, "<div class=\"card {class}\"><b>{n}</b>{label}</div>");
        }
        s.push_str("</div>\n");
        if let Some(left_out) = sm.left_out_sentence() {
            let _ = writeln!(s, "<p>Files {}.</p>", escape(&left_out));
        }
        if let Some(b) = sm.baseline {
            let _ = writeln!(s, "<p>{}.</p>", escape(&b.sentence()));
        }
        if !sm.errors_by_kind.is_empty() {
            s.push_str("<p>Games not audited, by cause: ");
            let parts: Vec<String> = sm
                .errors_by_kind
                .iter()
                .map(|(k, n)| format!("{} {n}", escape(k)))
                .collect();
            s.push_str(&parts.join(", "));
            s.push_str(".</p>\n");
        }
        if let Some(komi) = sm.komi_sentence() {
            let _ = writeln!(s, "<p>{}.</p>", escape(&komi));
        }
        if !sm.top_files.is_empty() {
            s.push_str(
                "<h3>Files with the most problems</h3>\n<table><tr><th>file</th>\
                 <th class=\"n\">errors</th><th class=\"n\">warnings</th><th>section</th></tr>\n",
            );
            for (errors, warnings, path) in &sm.top_files {
                let link = self
                    .sections
                    .iter()
                    .find(|x| &x.file == path)
                    .map(|x| game_link(x.ordinal))
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "<tr><td>{}</td><td class=\"n\">{errors}</td><td class=\"n\">{warnings}</td><td>{link}</td></tr>",
                    shown(path)
                );
            }
            s.push_str("</table>\n");
        }
    }

    fn findings_part(&self, s: &mut String, sm: &Summary) {
        s.push_str("<h2 id=\"findings\">Findings per code</h2>\n");
        if sm.by_code.is_empty() {
            s.push_str("<p>No findings.</p>\n");
            return;
        }
        let bars: Vec<Bar> = sm
            .by_code
            .iter()
            .map(|((code, sev), n)| Bar {
                label: format!("{} {}", code.id(), code.name()),
                value: *n,
                colour: severity_colour(*sev),
            })
            .collect();
        s.push_str(&chart::horizontal(
            "Findings per code, coloured by severity (logarithmic scale)",
            &bars,
            Scale::Log,
        ));
        s.push_str("<p>Bar lengths follow the logarithm of the count: red errors, orange warnings, blue notices.</p>\n");
        s.push_str(
            "<table><tr><th>code</th><th>name</th><th>severity</th><th class=\"n\">findings</th>\
             <th class=\"n\">games</th><th>games shown below</th><th>meaning</th></tr>\n",
        );
        for ((code, sev), n) in &sm.by_code {
            let games = sm.games_with(*code, *sev);
            let links: Vec<String> = self
                .sections
                .iter()
                .filter(|x| x.codes.contains(&code.id()))
                .take(LINKS_PER_CODE)
                .map(|x| game_link(x.ordinal))
                .collect();
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"n\">{n}</td><td class=\"n\">{games}</td><td>{}</td><td>{}</td></tr>",
                code.id(),
                code.name(),
                sev.as_str(),
                sev.as_str(),
                links.join(" "),
                escape(code.description())
            );
        }
        s.push_str("</table>\n");
    }

    fn countings_part(&self, s: &mut String, sm: &Summary) {
        s.push_str("<h2 id=\"countings\">Where the countings differ</h2>\n");
        if self.margins.is_empty() {
            s.push_str("<p>No scored game's countings give different margins.</p>\n");
        } else {
            let _ = writeln!(
                s,
                "<p>For each pair of countings, the scored games whose margins differ, by the \
                 difference (first minus second, Black's margin, rounded; the end columns take \
                 everything beyond {MARGIN_RANGE} points). {}.</p>\n<div class=\"charts\">",
                match sm.scored {
                    1 => "1 game was scored".to_string(),
                    n => format!("{n} games were scored"),
                }
            );
            for (pair, buckets) in &self.margins {
                let columns: Vec<(String, u64)> = (-MARGIN_RANGE..=MARGIN_RANGE)
                    .map(|b| {
                        let label = match b {
                            b if b == -MARGIN_RANGE => format!("≤{b}"),
                            b if b == MARGIN_RANGE => format!("≥{b}"),
                            b => b.to_string(),
                        };
                        (label, buckets.get(&b).copied().unwrap_or(0))
                    })
                    .collect();
                let title = format!("{} minus {}", pair[0].key(), pair[1].key());
                let games_in: u64 = buckets.values().sum();
                let _ = writeln!(
                    s,
                    "<figure><figcaption>{title}: {}</figcaption>{}</figure>",
                    games(games_in),
                    chart::columns(&title, &columns)
                );
            }
            s.push_str("</div>\n");
        }
        if !self.causes.is_empty() {
            s.push_str("<h3>Causes of the differences</h3>\n<p>Games in which each cause changes the margin of some pair of countings.</p>\n");
            let bars: Vec<Bar> = self
                .causes
                .iter()
                .map(|(c, n)| Bar {
                    label: (*c).to_string(),
                    value: *n,
                    colour: "#8064a2",
                })
                .collect();
            s.push_str(&chart::horizontal(
                "Causes of margin differences",
                &bars,
                Scale::Linear,
            ));
        }
        s.push_str("<h3>Games whose winner changes</h3>\n");
        if sm.winner_changes.is_empty() {
            s.push_str("<p>In no scored game do two countings name different winners.</p>\n");
            return;
        }
        s.push_str(
            "<table><tr><th>countings</th><th class=\"n\">games</th><th>causes (games)</th></tr>\n",
        );
        for (pair, (n, causes)) in &sm.winner_changes {
            let causes: Vec<String> = causes.iter().map(|(c, k)| format!("{c} {k}")).collect();
            let _ = writeln!(
                s,
                "<tr><td>{} / {}</td><td class=\"n\">{n}</td><td>{}</td></tr>",
                pair[0].key(),
                pair[1].key(),
                causes.join(", ")
            );
        }
        s.push_str("</table>\n");
    }

    fn games_part(&self, s: &mut String) {
        s.push_str("<h2 id=\"games\">Games</h2>\n");
        if self.sections.is_empty() {
            s.push_str(
                "<p>No game has an error, a result that does not match or a winner that changes between countings.</p>\n",
            );
            return;
        }
        let _ = writeln!(
            s,
            "<p>Each game with an error, a result that does not match or a winner that changes \
             between countings, in input order{}. Games are numbered in the order they were read.</p>",
            if self.left_out > 0 {
                format!(
                    ": the {MAX_SECTIONS} most serious (most errors first, then a result that does \
                     not match, then a winner that changes); {} more are left out (games.csv and \
                     findings.csv list every game)",
                    self.left_out
                )
            } else {
                String::new()
            }
        );
        for section in &self.sections {
            s.push_str(&section.html);
        }
    }
}

fn illegal_part(s: &mut String, sm: &Summary) {
    s.push_str("<h2 id=\"illegal\">Illegal moves per kind and ruleset</h2>\n");
    if sm.illegal.is_empty() {
        s.push_str("<p>No illegal move under any ruleset.</p>\n");
        return;
    }
    let mut kinds: Vec<&'static str> = sm.illegal.keys().map(|(_, k)| *k).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut bars = Vec::new();
    s.push_str("<table><tr><th>kind</th>");
    for r in Ruleset::ALL {
        let _ = write!(s, "<th class=\"n\">{}</th>", r.key());
    }
    s.push_str("</tr>\n");
    for kind in &kinds {
        let _ = write!(s, "<tr><td>{kind}</td>");
        for r in Ruleset::ALL {
            let n = sm.illegal.get(&(r, kind)).copied().unwrap_or(0);
            let _ = write!(s, "<td class=\"n\">{n}</td>");
            bars.push(Bar {
                label: format!("{kind} ({})", r.key()),
                value: n,
                colour: ruleset_colour(r),
            });
        }
        s.push_str("</tr>\n");
    }
    s.push_str("<tr><td>games with an illegal move</td>");
    for r in Ruleset::ALL {
        let n = sm.games_illegal.get(&r).copied().unwrap_or(0);
        let _ = write!(s, "<td class=\"n\">{n}</td>");
    }
    s.push_str("</tr>\n</table>\n");
    s.push_str(&chart::horizontal(
        "Illegal moves per kind and ruleset (logarithmic scale)",
        &bars,
        Scale::Log,
    ));
    s.push_str("<p>Bars: blue AGA, red Japanese, green Swedish; lengths follow the logarithm of the count.</p>\n");
    if sm.japanese_no_result > 0 {
        let _ = writeln!(
            s,
            "<p>{} in a repetition that Japanese rule 12 makes a game without result.</p>",
            match sm.japanese_no_result {
                1 => "1 game ends".to_string(),
                n => format!("{} end", games(n)),
            }
        );
    }
}

fn results_part(s: &mut String, sm: &Summary) {
    s.push_str("<h2 id=\"results\">Recorded results</h2>\n");
    if sm.result_checks.is_empty() {
        s.push_str("<p>No scored game records a result to check.</p>\n");
    } else {
        s.push_str(
            "<table><tr><th>RE reproduced</th><th class=\"n\">checked</th>\
             <th class=\"n\">matched</th><th class=\"n\">share</th></tr>\n",
        );
        for (line, (checked, matched)) in &sm.result_checks {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"n\">{checked}</td><td class=\"n\">{matched}</td><td class=\"n\">{}</td></tr>",
                escape(&line.label()),
                percent(*matched, *checked)
            );
        }
        s.push_str("</table>\n");
    }
    if !sm.readings.is_empty() {
        let parts: Vec<String> = sm
            .readings
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        let _ = writeln!(
            s,
            "<p>Recorded results given instead by a common reading (C609): {}.</p>",
            escape(&parts.join(", "))
        );
    }
    if !sm.not_scored.is_empty() {
        s.push_str("<p>Games not scored: ");
        let parts: Vec<String> = sm
            .not_scored
            .iter()
            .map(|(why, n)| format!("{} {n}", escape(why.reason())))
            .collect();
        s.push_str(&parts.join("; "));
        s.push_str(".</p>\n");
    }
}

/// A link to the file on disk a report name stands for, relative to the
/// report's directory; `None` for standard input.
fn href(base: &Path, name: &str) -> Option<String> {
    let file = file_on_disk(name);
    if file == "-" {
        return None;
    }
    let target = std::path::absolute(crate::input::on_disk(file)).ok()?;
    let from: Vec<Component> = base.components().collect();
    let to: Vec<Component> = target.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&Path> = vec![Path::new(".."); from.len() - common];
    parts.extend(to[common..].iter().map(|c| Path::new(c.as_os_str())));
    let bytes: Vec<u8> = parts
        .iter()
        .map(|p| crate::input::path_bytes(p))
        .collect::<Vec<_>>()
        .join(&b'/');
    Some(percent_encode_path(&bytes))
}

/// A file name as one word of a POSIX shell.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn game_section(k: u64, file: &FileInfo, g: &GameReport, base: &Path) -> String {
    let mut s = String::new();
    let worst = g.worst();
    let badge = worst
        .map(|w| format!("<span class=\"{}\">{}</span> ", w.as_str(), w.as_str()))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "<section class=\"game\" id=\"g{k}\">\n<h3>{badge}game {}: {} (game {} of the file{})</h3>",
        k + 1,
        shown(&file.path),
        g.index,
        g.start
            .map(|l| format!(", line {}", l.line))
            .unwrap_or_default()
    );
    let info = &g.info;
    let mut meta: Vec<String> = Vec::new();
    let mut add = |label: &str, v: &Option<String>| {
        if let Some(v) = v {
            meta.push(format!("{label} {}", shown(v)));
        }
    };
    add("Black", &info.black);
    add("White", &info.white);
    add("date", &info.date);
    add("RU", &info.rules);
    add("RE", &info.result);
    if let Some(n) = g.board_size {
        meta.push(format!("{n}x{n}"));
    }
    meta.push(format!("{} moves", g.moves));
    if let Status::Error(e) = &g.status {
        meta.push(format!("not audited: {}", shown(&e.to_string())));
    }
    let _ = writeln!(s, "<p>{}</p>", meta.join(" · "));
    let pictured = g
        .pictures
        .as_ref()
        .and_then(|p| p.at_move.as_ref())
        .map(|m| m.move_number);
    let file_on_disk = file_on_disk(&file.path);
    let mut links = Vec::new();
    if let Some(h) = href(base, &file.path) {
        links.push(format!("<a href=\"{h}\">{}</a>", shown(file_on_disk)));
    }
    // explain reads files and archive entries on disk again, not standard
    // input (nor the entries of an archive read from it), and only games
    // that could be audited.
    let from_stdin = file.path == "-" || file.path.starts_with("-!");
    if !from_stdin && g.status == Status::Ok {
        let m = pictured.map(|m| format!(" --move {m}")).unwrap_or_default();
        links.push(format!(
            "<code>sgfaudit explain {} --game {}{m}</code>",
            escape(&shell_quote(&printable(&file.path))),
            g.index
        ));
    }
    if !links.is_empty() {
        let _ = writeln!(s, "<p>{}</p>", links.join(" · "));
    }
    findings_table(&mut s, k, g, pictured);
    if let Some(p) = g.pictures.as_ref().and_then(|p| p.at_move.as_ref()) {
        move_figure(&mut s, k, p, g.board_size);
    }
    if let Scoring::Scored(sc) = &g.scoring {
        let board = g.pictures.as_ref().and_then(|p| p.final_position.as_ref());
        final_part(&mut s, k, sc, board);
    }
    s.push_str("</section>\n");
    s
}

fn findings_table(s: &mut String, k: u64, g: &GameReport, pictured: Option<u32>) {
    if g.findings.is_empty() {
        return;
    }
    s.push_str("<table><tr><th>code</th><th>severity</th><th>move</th><th>message</th></tr>\n");
    for f in g.findings.iter().take(MAX_FINDINGS_SHOWN) {
        let at = match f.move_number {
            Some(m) if Some(m) == pictured => format!("<a href=\"#g{k}-m{m}\">{m}</a>"),
            Some(m) => m.to_string(),
            None => f
                .location
                .as_ref()
                .map(|l| format!("line {}", l.line))
                .unwrap_or_default(),
        };
        let _ = writeln!(
            s,
            "<tr><td>{} {}</td><td class=\"{}\">{}</td><td class=\"n\">{at}</td><td>{}</td></tr>",
            f.code.id(),
            f.code.name(),
            f.severity.as_str(),
            f.severity.as_str(),
            shown(&f.message)
        );
    }
    s.push_str("</table>\n");
    if g.findings.len() > MAX_FINDINGS_SHOWN {
        let _ = writeln!(
            s,
            "<p>{} more findings in findings.csv.</p>",
            g.findings.len() - MAX_FINDINGS_SHOWN
        );
    }
}

fn move_figure(s: &mut String, k: u64, p: &MovePicture, size: Option<u8>) {
    let m = p.move_number;
    let at = match (p.point, size) {
        (Some(pt), Some(n)) => pt.human(n),
        _ => "a pass".into(),
    };
    let before = diagram::svg(&p.before, &format!("Before move {m}"), |q| {
        (Some(q) == p.point && p.before.get(q).is_none()).then_some(Mark::Next)
    });
    let after = diagram::svg(&p.after, &format!("After move {m} at {at}"), |q| {
        if p.captured.contains(&q) {
            return Some(Mark::Captured);
        }
        p.numbered
            .iter()
            .find(|(pt, _)| *pt == q)
            .map(|(_, n)| Mark::Numbered(*n))
    });
    let captured = if p.captured.is_empty() {
        String::new()
    } else {
        format!(
            " Red squares: the {} stone(s) it removed.",
            p.captured.len()
        )
    };
    let _ = writeln!(
        s,
        "<div class=\"boards\" id=\"g{k}-m{m}\">\n<figure>{before}<figcaption>Before move {m} \
         (red circle: where it is played)</figcaption></figure>\n<figure>{after}<figcaption>After \
         move {m} at {at}; numbers: the last moves that still stand.{captured}</figcaption></figure>\n</div>"
    );
}

fn final_part(s: &mut String, k: u64, sc: &Scored, board: Option<&Snapshot>) {
    if let Some(b) = board {
        let japanese = diagram::svg(b, "Final position, Japanese count", |p| {
            diagram::japanese_mark(sc, b, p)
        });
        let differ = !sc.position.seki_eye_points.is_empty() || !sc.position.fill_points.is_empty();
        let _ = writeln!(
            s,
            "<div class=\"boards\" id=\"g{k}-final\">\n<figure>{japanese}<figcaption>Final \
             position ({}): dead stones crossed, territory as squares{}.</figcaption></figure>",
            escape(sc.dead.source.key()),
            if differ {
                "; s: seki eyes and f: points to fill, no territory under Japanese rule 8"
            } else {
                ""
            }
        );
        if differ {
            let area = diagram::svg(b, "Final position, area count", |p| {
                diagram::area_mark(sc, b, p)
            });
            let _ = writeln!(
                s,
                "<figure>{area}<figcaption>The same position under area counting: seki eyes \
                 and points to fill count.</figcaption></figure>"
            );
        }
        s.push_str("</div>\n");
    }
    s.push_str(
        "<table><tr><th>counting</th><th>method</th><th class=\"n\">Black</th>\
         <th class=\"n\">White</th><th class=\"n\">komi</th><th class=\"n\">pass stones B/W</th><th>result</th></tr>\n",
    );
    for (c, score) in sc.scores.iter() {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}/{}</td><td>{}</td></tr>",
            c.key(),
            score.method.key(),
            score.black.points,
            score.white.points,
            score.komi,
            score.black.pass_stones,
            score.white.pass_stones,
            score.result()
        );
    }
    s.push_str("</table>\n");
    if let Some(c) = &sc.result_check {
        let mut line = format!("RE[{}]", shown(&c.recorded));
        if let (Some(r), Some(computed)) = (c.declared_name, &c.computed) {
            let _ = write!(
                line,
                ": the {} count gives {}, <b class=\"{}\">{}</b>",
                r,
                escape(computed),
                if c.matches { "info" } else { "error" },
                if c.matches { "a match" } else { "a mismatch" }
            );
        }
        if let (Some(m), Some(ok)) = (&c.markup_computed, c.markup_matches) {
            let _ = write!(
                line,
                "; the record's own count gives {}, {}",
                escape(m),
                if ok { "a match" } else { "a mismatch" }
            );
        }
        let _ = writeln!(s, "<p>{line}.</p>");
    }
    if !sc.divergence.is_empty() {
        s.push_str(
            "<table><tr><th>countings</th><th class=\"n\">margin difference</th><th>causes</th><th>winner</th></tr>\n",
        );
        for d in &sc.divergence {
            let causes: Vec<String> = d.causes.iter().map(|(c, v)| format!("{c} {v:+}")).collect();
            let _ = writeln!(
                s,
                "<tr><td>{} / {}</td><td class=\"n\">{:+}</td><td>{}</td><td>{}</td></tr>",
                d.between[0].key(),
                d.between[1].key(),
                d.margin_difference,
                causes.join(", "),
                if d.winner_changes { "changes" } else { "same" }
            );
        }
        s.push_str("</table>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_to_the_report_and_encoded() {
        let cwd = std::path::absolute(".").unwrap();
        let base = cwd.join("out");
        assert_eq!(
            href(&base, "corpus/a b.sgf").unwrap(),
            "../corpus/a%20b.sgf"
        );
        assert_eq!(
            href(&base, "games.zip!inner/x.sgf").unwrap(),
            "../games.zip"
        );
        assert_eq!(href(&base, "-"), None);
        assert_eq!(
            href(&base, "\"><script>.sgf").unwrap(),
            "../%22%3E%3Cscript%3E.sgf"
        );
    }

    #[test]
    fn shell_words_are_quoted() {
        assert_eq!(shell_quote("corpus/a.sgf"), "corpus/a.sgf");
        assert_eq!(shell_quote("it's.sgf"), "'it'\\''s.sgf'");
    }
}
