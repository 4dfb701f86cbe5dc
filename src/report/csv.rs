//! `--out DIR`: `games.csv` and `findings.csv` (columns in `docs/OUTPUT.md`).
//! Both are written under temporary names and renamed when the run completes, so an
//! interrupted run never leaves a half-written report that looks complete.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use super::{Reporter, Summary};
use crate::audit::{FileReport, Status};
use crate::findings::Severity;
use crate::rules::Ruleset;
use crate::scoring::Scoring;

const GAMES: &str = "games.csv";
const FINDINGS: &str = "findings.csv";

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
        games
            .write_record([
                "file",
                "game",
                "status",
                "error",
                "encoding",
                "board_size",
                "handicap",
                "komi",
                "rules",
                "result",
                "moves",
                "errors",
                "warnings",
                "infos",
                "aga_illegal",
                "japanese_illegal",
                "swedish_illegal",
                "japanese_no_result_move",
                "not_scored",
                "dead_stones",
                "dead_black",
                "dead_white",
                "aga_result",
                "aga_area_result",
                "japanese_result",
                "swedish_result",
                "chinese_result",
                "aga_margin",
                "aga_area_margin",
                "japanese_margin",
                "swedish_margin",
                "chinese_margin",
                "check_ruleset",
                "check_computed",
                "check_match",
                "dead_uncertain",
                "dead_added_by_rule7",
            ])
            .map_err(csv_err)?;
        findings
            .write_record([
                "file", "game", "code", "name", "severity", "move", "point", "human", "color",
                "rulesets", "offset", "line", "column", "message",
            ])
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
    fn file(&mut self, r: &FileReport) -> io::Result<()> {
        for g in &r.games {
            let count = |s: Severity| g.findings.iter().filter(|f| f.severity == s).count();
            let (status, error) = match &g.status {
                Status::Ok => ("ok", String::new()),
                Status::Error(e) => ("error", e.clone()),
            };
            let illegal = |rs: Ruleset| g.verdicts[rs.index()].illegal.len().to_string();
            let mut scoring = vec![String::new(); 19];
            match &g.scoring {
                Scoring::NotScored(why) => scoring[0] = why.clone(),
                Scoring::Scored {
                    dead,
                    scores,
                    result_check,
                    ..
                } => {
                    scoring[1] = dead.source.to_string();
                    scoring[2] = dead.black.len().to_string();
                    scoring[3] = dead.white.len().to_string();
                    scoring[17] = dead.uncertain.len().to_string();
                    scoring[18] = dead.added_by_rule7.len().to_string();
                    for (k, sc) in scores.iter().enumerate() {
                        scoring[4 + k] = sc.result();
                        scoring[9 + k] = sc.margin.to_string();
                    }
                    if let Some(c) = result_check {
                        scoring[14] = c.ruleset.to_string();
                        scoring[15] = c.computed.clone();
                        scoring[16] = c.matches.to_string();
                    }
                }
            }
            let mut row = vec![
                r.path.clone(),
                g.index.to_string(),
                status.to_string(),
                error,
                opt(r.encoding),
                opt(g.board_size),
                g.handicap.to_string(),
                opt(g.komi),
                g.info.rules.clone().unwrap_or_default(),
                g.info.result.clone().unwrap_or_default(),
                g.moves.to_string(),
                count(Severity::Error).to_string(),
                count(Severity::Warning).to_string(),
                count(Severity::Info).to_string(),
                illegal(Ruleset::Aga),
                illegal(Ruleset::Japanese),
                illegal(Ruleset::Swedish),
                opt(g.verdicts[Ruleset::Japanese.index()].no_result),
            ];
            row.extend(scoring);
            self.games.write_record(&row).map_err(csv_err)?;
            for f in &g.findings {
                let rulesets: Vec<&str> = f.rulesets.iter().map(Ruleset::key).collect();
                self.findings
                    .write_record([
                        r.path.clone(),
                        g.index.to_string(),
                        f.code.id().to_string(),
                        f.code.name().to_string(),
                        f.severity.as_str().to_string(),
                        opt(f.move_number),
                        opt(f.point.map(|p| p.sgf())),
                        opt(f.point.and_then(|p| g.board_size.map(|s| p.human(s)))),
                        opt(f.color.map(|c| c.letter())),
                        rulesets.join(" "),
                        opt(f.location.map(|l| l.offset)),
                        opt(f.location.map(|l| l.line)),
                        opt(f.location.map(|l| l.column)),
                        f.message.clone(),
                    ])
                    .map_err(csv_err)?;
            }
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
