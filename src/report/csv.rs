//! `--out DIR`: `games.csv` and `findings.csv` (columns in `docs/OUTPUT.md`).
//! Both are written under temporary names and renamed when the run completes, so an
//! interrupted run never leaves a half-written report that looks complete.
//!
//! Each table is defined once, as a list of columns: a name and the function
//! that gives its value, so a header can never drift from its rows.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport, Status};
use crate::core::findings::{Finding, Severity};
use crate::core::rules::Ruleset;
use crate::scoring::counting::{Counting, Scores};
use crate::scoring::{ResultCheck, Scored, Scoring};

const GAMES: &str = "games.csv";
const FINDINGS: &str = "findings.csv";

fn scored(g: &GameReport) -> Option<&Scored> {
    match &g.scoring {
        Scoring::Scored(s) => Some(s),
        Scoring::NotScored(_) => None,
    }
}
fn scores(g: &GameReport) -> Option<&Scores> {
    scored(g).map(|s| &s.scores)
}
fn check(g: &GameReport) -> Option<&ResultCheck> {
    scored(g).and_then(|s| s.result_check.as_ref())
}
fn count(g: &GameReport, s: Severity) -> String {
    g.findings
        .iter()
        .filter(|f| f.severity == s)
        .count()
        .to_string()
}
fn illegal(g: &GameReport, r: Ruleset) -> String {
    g.verdicts.get(r).illegal.len().to_string()
}
fn result(g: &GameReport, c: Counting) -> String {
    opt(scores(g).map(|s| s.get(c).result()))
}
fn margin(g: &GameReport, c: Counting) -> String {
    opt(scores(g).map(|s| s.get(c).margin))
}

/// A column: its header and the function that gives its value.
pub struct Column<F> {
    pub name: &'static str,
    pub value: F,
}

/// The value of a `games.csv` column for one game of a file.
pub type GameValue = fn(&FileInfo, &GameReport) -> String;
/// The value of a `findings.csv` column for one finding of a game.
pub type FindingValue = fn(&FileInfo, &GameReport, &Finding) -> String;

/// The columns of `games.csv`, in order.
pub const GAME_COLUMNS: &[Column<GameValue>] = &[
    Column {
        name: "file",
        value: |f, _| f.path.clone(),
    },
    Column {
        name: "game",
        value: |_, g| g.index.to_string(),
    },
    Column {
        name: "status",
        value: |_, g| {
            match g.status {
                Status::Ok => "ok",
                Status::Error(_) => "error",
            }
            .to_string()
        },
    },
    Column {
        name: "error",
        value: |_, g| match &g.status {
            Status::Ok => String::new(),
            Status::Error(e) => e.to_string(),
        },
    },
    Column {
        name: "encoding",
        value: |f, _| opt(f.encoding),
    },
    Column {
        name: "board_size",
        value: |_, g| opt(g.board_size),
    },
    Column {
        name: "handicap",
        value: |_, g| g.handicap.to_string(),
    },
    Column {
        name: "komi",
        value: |_, g| opt(g.komi),
    },
    Column {
        name: "rules",
        value: |_, g| g.info.rules.clone().unwrap_or_default(),
    },
    Column {
        name: "result",
        value: |_, g| g.info.result.clone().unwrap_or_default(),
    },
    Column {
        name: "moves",
        value: |_, g| g.moves.to_string(),
    },
    Column {
        name: "errors",
        value: |_, g| count(g, Severity::Error),
    },
    Column {
        name: "warnings",
        value: |_, g| count(g, Severity::Warning),
    },
    Column {
        name: "infos",
        value: |_, g| count(g, Severity::Info),
    },
    Column {
        name: "aga_illegal",
        value: |_, g| illegal(g, Ruleset::Aga),
    },
    Column {
        name: "japanese_illegal",
        value: |_, g| illegal(g, Ruleset::Japanese),
    },
    Column {
        name: "swedish_illegal",
        value: |_, g| illegal(g, Ruleset::Swedish),
    },
    Column {
        name: "japanese_no_result_move",
        value: |_, g| opt(g.verdicts.japanese.no_result),
    },
    Column {
        name: "not_scored",
        value: |_, g| match &g.scoring {
            Scoring::NotScored(w) => w.reason().to_string(),
            Scoring::Scored(_) => String::new(),
        },
    },
    Column {
        name: "dead_stones",
        value: |_, g| opt(scored(g).map(|s| s.dead.source.key())),
    },
    Column {
        name: "dead_black",
        value: |_, g| opt(scored(g).map(|s| s.dead.black.len())),
    },
    Column {
        name: "dead_white",
        value: |_, g| opt(scored(g).map(|s| s.dead.white.len())),
    },
    Column {
        name: "aga_result",
        value: |_, g| result(g, Counting::AgaTerritory),
    },
    Column {
        name: "aga_area_result",
        value: |_, g| result(g, Counting::AgaArea),
    },
    Column {
        name: "japanese_result",
        value: |_, g| result(g, Counting::Japanese),
    },
    Column {
        name: "swedish_result",
        value: |_, g| result(g, Counting::Swedish),
    },
    Column {
        name: "chinese_result",
        value: |_, g| result(g, Counting::Chinese),
    },
    Column {
        name: "aga_margin",
        value: |_, g| margin(g, Counting::AgaTerritory),
    },
    Column {
        name: "aga_area_margin",
        value: |_, g| margin(g, Counting::AgaArea),
    },
    Column {
        name: "japanese_margin",
        value: |_, g| margin(g, Counting::Japanese),
    },
    Column {
        name: "swedish_margin",
        value: |_, g| margin(g, Counting::Swedish),
    },
    Column {
        name: "chinese_margin",
        value: |_, g| margin(g, Counting::Chinese),
    },
    Column {
        name: "check_ruleset",
        value: |_, g| opt(check(g).and_then(|c| c.declared.map(Counting::key))),
    },
    Column {
        name: "check_computed",
        value: |_, g| opt(check(g).and_then(|c| c.computed.clone())),
    },
    Column {
        name: "check_match",
        value: |_, g| opt(check(g).map(|c| c.matches)),
    },
    Column {
        name: "dead_uncertain",
        value: |_, g| opt(scored(g).map(|s| s.dead.uncertain.len())),
    },
    Column {
        name: "dead_added_by_rule7",
        value: |_, g| opt(scored(g).map(|s| s.dead.added_by_rule7.len())),
    },
    Column {
        name: "check_markup_computed",
        value: |_, g| opt(check(g).and_then(|c| c.markup_computed.clone())),
    },
    Column {
        name: "check_markup_match",
        value: |_, g| opt(check(g).and_then(|c| c.markup_matches)),
    },
    Column {
        name: "check_matching_countings",
        value: |_, g| {
            check(g)
                .map(|c| {
                    c.matching
                        .iter()
                        .map(|c| c.key())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default()
        },
    },
    Column {
        name: "japanese_seki_eyes",
        value: |_, g| opt(scored(g).map(|s| s.position.seki_eye_points.len())),
    },
    Column {
        name: "japanese_to_fill",
        value: |_, g| opt(scored(g).map(|s| s.position.fill_points.len())),
    },
    Column {
        name: "duplicate_of_file",
        value: |_, g| opt(g.duplicate_of.as_ref().map(|d| d.file.clone())),
    },
    Column {
        name: "duplicate_of_game",
        value: |_, g| opt(g.duplicate_of.as_ref().map(|d| d.game)),
    },
];

/// The columns of `findings.csv`, in order.
pub const FINDING_COLUMNS: &[Column<FindingValue>] = &[
    Column {
        name: "file",
        value: |f, _, _| f.path.clone(),
    },
    Column {
        name: "game",
        value: |_, g, _| g.index.to_string(),
    },
    Column {
        name: "code",
        value: |_, _, x| x.code.id().to_string(),
    },
    Column {
        name: "name",
        value: |_, _, x| x.code.name().to_string(),
    },
    Column {
        name: "severity",
        value: |_, _, x| x.severity.as_str().to_string(),
    },
    Column {
        name: "move",
        value: |_, _, x| opt(x.move_number),
    },
    Column {
        name: "point",
        value: |_, _, x| opt(x.point.map(|p| p.sgf())),
    },
    Column {
        name: "human",
        value: |_, g, x| opt(x.point.and_then(|p| g.board_size.map(|s| p.human(s)))),
    },
    Column {
        name: "color",
        value: |_, _, x| opt(x.color.map(|c| c.letter())),
    },
    Column {
        name: "rulesets",
        value: |_, _, x| {
            x.rulesets
                .iter()
                .map(Ruleset::key)
                .collect::<Vec<_>>()
                .join(" ")
        },
    },
    Column {
        name: "offset",
        value: |_, _, x| opt(x.location.map(|l| l.offset)),
    },
    Column {
        name: "line",
        value: |_, _, x| opt(x.location.map(|l| l.line)),
    },
    Column {
        name: "column",
        value: |_, _, x| opt(x.location.map(|l| l.column)),
    },
    Column {
        name: "message",
        value: |_, _, x| x.message.clone(),
    },
];

pub struct CsvReporter {
    dir: PathBuf,
    games: csv::Writer<BufWriter<File>>,
    findings: csv::Writer<BufWriter<File>>,
}

fn partial(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.partial"))
}

fn csv_err(e: csv::Error) -> io::Error {
    io::Error::other(e)
}

fn header<F>(columns: &[Column<F>]) -> impl Iterator<Item = &'static str> + '_ {
    columns.iter().map(|c| c.name)
}

impl CsvReporter {
    pub fn create(dir: &Path) -> io::Result<CsvReporter> {
        fs::create_dir_all(dir)?;
        let open = |name: &str| -> io::Result<csv::Writer<BufWriter<File>>> {
            Ok(csv::Writer::from_writer(BufWriter::new(File::create(
                partial(dir, name),
            )?)))
        };
        let mut games = open(GAMES)?;
        let mut findings = open(FINDINGS)?;
        games.write_record(header(GAME_COLUMNS)).map_err(csv_err)?;
        findings
            .write_record(header(FINDING_COLUMNS))
            .map_err(csv_err)?;
        Ok(CsvReporter {
            dir: dir.to_path_buf(),
            games,
            findings,
        })
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

impl Reporter for CsvReporter {
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        let row = GAME_COLUMNS.iter().map(|c| (c.value)(file, g));
        self.games.write_record(row).map_err(csv_err)?;
        for f in &g.findings {
            let row = FINDING_COLUMNS.iter().map(|c| (c.value)(file, g, f));
            self.findings.write_record(row).map_err(csv_err)?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.games.flush()?;
        self.findings.flush()?;
        for name in [GAMES, FINDINGS] {
            fs::rename(partial(&self.dir, name), self.dir.join(name))?;
        }
        Ok(())
    }
}

/// `--format csv`: the games table of `games.csv` on any writer (standard
/// output), header first.
pub struct CsvGamesReporter<W: std::io::Write> {
    games: csv::Writer<W>,
    header_written: bool,
}

impl<W: std::io::Write> CsvGamesReporter<W> {
    pub fn new(out: W) -> Self {
        CsvGamesReporter {
            games: csv::Writer::from_writer(out),
            header_written: false,
        }
    }

    fn header(&mut self) -> io::Result<()> {
        if !self.header_written {
            self.header_written = true;
            self.games
                .write_record(header(GAME_COLUMNS))
                .map_err(csv_err)?;
        }
        Ok(())
    }
}

impl<W: std::io::Write> Reporter for CsvGamesReporter<W> {
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        self.header()?;
        let row = GAME_COLUMNS.iter().map(|c| (c.value)(file, g));
        self.games.write_record(row).map_err(csv_err)
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.header()?;
        self.games.flush()
    }
}
