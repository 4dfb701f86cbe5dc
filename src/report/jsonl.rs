//! `--format jsonl`: one JSON object per game, the contract in `docs/OUTPUT.md`.

use std::io::{self, Write};

use serde::Serialize;

use super::{Reporter, Summary};
use crate::audit::{FileReport, GameReport, Status};
use crate::findings::Finding;
use crate::replay::Verdict;
use crate::rules::Ruleset;

#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    game: usize,
    status: &'static str,
    error: Option<&'a str>,
    encoding: Option<&'static str>,
    board_size: Option<u8>,
    handicap: u32,
    komi: Option<f64>,
    rules: Option<&'a str>,
    result: Option<&'a str>,
    moves: u32,
    findings: Vec<FindingJson<'a>>,
    rulesets: RulesetsJson,
}

#[derive(Serialize)]
pub(crate) struct FindingJson<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    #[serde(rename = "move")]
    move_number: Option<u32>,
    point: Option<String>,
    human: Option<String>,
    color: Option<&'static str>,
    rulesets: Vec<&'static str>,
    message: &'a str,
    offset: Option<u64>,
    line: Option<u32>,
    column: Option<u32>,
}

impl<'a> FindingJson<'a> {
    pub(crate) fn new(f: &'a Finding, size: Option<u8>) -> FindingJson<'a> {
        FindingJson {
            code: f.code.id(),
            name: f.code.name(),
            severity: f.severity.as_str(),
            move_number: f.move_number,
            point: f.point.map(|p| p.sgf()),
            human: f.point.and_then(|p| size.map(|s| p.human(s))),
            color: f.color.map(|c| c.letter()),
            rulesets: f.rulesets.iter().map(Ruleset::key).collect(),
            message: &f.message,
            offset: f.location.map(|l| l.offset),
            line: f.location.map(|l| l.line),
            column: f.location.map(|l| l.column),
        }
    }
}

#[derive(Serialize)]
struct RulesetsJson {
    aga: VerdictJson,
    japanese: VerdictJson,
    swedish: VerdictJson,
}

#[derive(Serialize)]
struct VerdictJson {
    illegal: Vec<IllegalJson>,
    no_result: Option<NoResultJson>,
}

#[derive(Serialize)]
struct IllegalJson {
    #[serde(rename = "move")]
    move_number: u32,
    kind: &'static str,
    point: Option<String>,
    color: &'static str,
}

#[derive(Serialize)]
struct NoResultJson {
    #[serde(rename = "move")]
    move_number: u32,
}

fn verdict(v: &Verdict) -> VerdictJson {
    VerdictJson {
        illegal: v
            .illegal
            .iter()
            .map(|i| IllegalJson {
                move_number: i.move_number,
                kind: i.kind.key(),
                point: i.point.map(|p| p.sgf()),
                color: i.color.letter(),
            })
            .collect(),
        no_result: v.no_result.map(|m| NoResultJson { move_number: m }),
    }
}

fn game_json<'a>(file: &'a FileReport, g: &'a GameReport) -> GameJson<'a> {
    let (status, error) = match &g.status {
        Status::Ok => ("ok", None),
        Status::Error(e) => ("error", Some(e.as_str())),
    };
    GameJson {
        file: &file.path,
        game: g.index,
        status,
        error,
        encoding: file.encoding,
        board_size: g.board_size,
        handicap: g.handicap,
        komi: g.komi,
        rules: g.info.rules.as_deref(),
        result: g.info.result.as_deref(),
        moves: g.moves,
        findings: g
            .findings
            .iter()
            .map(|f| FindingJson::new(f, g.board_size))
            .collect(),
        rulesets: RulesetsJson {
            aga: verdict(&g.verdicts[Ruleset::Aga.index()]),
            japanese: verdict(&g.verdicts[Ruleset::Japanese.index()]),
            swedish: verdict(&g.verdicts[Ruleset::Swedish.index()]),
        },
    }
}

/// Writes one JSON object per game, one per line.
pub struct JsonlReporter<W: Write> {
    out: W,
}

impl<W: Write> JsonlReporter<W> {
    pub fn new(out: W) -> Self {
        JsonlReporter { out }
    }
}

impl<W: Write> Reporter for JsonlReporter<W> {
    fn file(&mut self, report: &FileReport) -> io::Result<()> {
        for g in &report.games {
            serde_json::to_writer(&mut self.out, &game_json(report, g))?;
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.out.flush()
    }
}
