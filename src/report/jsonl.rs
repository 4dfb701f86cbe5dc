//! `--format jsonl`: one JSON object per game, the contract in `docs/OUTPUT.md`.

use std::io::{self, Write};

use serde::Serialize;

use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport, Status};
use crate::core::board::Point;
use crate::core::findings::Finding;
use crate::core::replay::{Illegal, RulesetVerdict};
use crate::core::rules::Ruleset;
use crate::scoring::counting::{Counting, Score, Side};
use crate::scoring::Scoring;

#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    game: usize,
    /// Where the game tree is written (its `(`); null when the file holds none.
    start: Option<StartJson>,
    status: &'static str,
    error: Option<String>,
    encoding: Option<&'static str>,
    board_size: Option<u8>,
    handicap: u32,
    komi: Option<f64>,
    /// KM as written, when `komi` reads it otherwise (Fox's conventions).
    komi_as_written: Option<f64>,
    rules: Option<&'a str>,
    result: Option<&'a str>,
    moves: u32,
    findings: Vec<FindingJson<'a>>,
    rulesets: RulesetsJson<'a>,
    /// Why the game has no score (null when scored).
    not_scored: Option<&'a str>,
    dead_stones: Option<DeadJson>,
    result_check: Option<CheckJson<'a>>,
    divergence: Vec<DivergenceJson>,
    /// The earlier game of the run this one repeats (A508) or extends (A509).
    duplicate_of: Option<DuplicateJson<'a>>,
}

#[derive(Serialize)]
struct StartJson {
    offset: u64,
    line: u32,
    column: u32,
}

#[derive(Serialize)]
struct DuplicateJson<'a> {
    file: &'a str,
    game: usize,
    /// `same-line` (A508) or `truncated-copy` (A509: the earlier game is this
    /// one cut short).
    kind: &'static str,
    moves: u32,
}

#[derive(Serialize)]
struct DivergenceJson {
    between: [&'static str; 2],
    margin_difference: f64,
    winner_changes: bool,
    causes: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct DeadJson {
    source: &'static str,
    black: Vec<String>,
    white: Vec<String>,
    uncertain: Vec<String>,
    added_by_rule7: Vec<String>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    recorded: &'a str,
    computed: Option<&'a str>,
    ruleset: Option<&'static str>,
    #[serde(rename = "match")]
    matches: bool,
    markup_computed: Option<&'a str>,
    markup_match: Option<bool>,
    matching_countings: Vec<&'static str>,
    reading: Option<&'static str>,
}

#[derive(Serialize)]
struct NotTerritoryJson {
    seki_eyes: Vec<String>,
    to_fill: Vec<String>,
}

#[derive(Serialize)]
struct SideJson {
    territory: u32,
    prisoners: u32,
    stones: u32,
    pass_stones: u32,
    points: f64,
}

#[derive(Serialize)]
struct ScoreJson {
    method: &'static str,
    black: SideJson,
    white: SideJson,
    komi: f64,
    compensation: f64,
    margin: f64,
    result: String,
}

fn side(s: &Side) -> SideJson {
    SideJson {
        territory: s.territory,
        prisoners: s.prisoners,
        stones: s.stones,
        pass_stones: s.pass_stones,
        points: s.points,
    }
}

fn score_json(s: &Score) -> ScoreJson {
    ScoreJson {
        method: s.method.key(),
        black: side(&s.black),
        white: side(&s.white),
        komi: s.komi,
        compensation: s.compensation,
        margin: s.margin,
        result: s.result(),
    }
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
struct RulesetsJson<'a> {
    aga: VerdictJson<'a>,
    japanese: VerdictJson<'a>,
    swedish: VerdictJson<'a>,
    chinese: ChineseJson,
}

#[derive(Serialize)]
struct ChineseJson {
    score: Option<ScoreJson>,
}

#[derive(Serialize)]
struct VerdictJson<'a> {
    illegal: IllegalList<'a>,
    no_result: Option<NoResultJson>,
    score: Option<ScoreJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    area_score: Option<ScoreJson>,
    /// Japanese only: the territory points rule 8 leaves out.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_territory: Option<NotTerritoryJson>,
}

#[derive(Serialize)]
struct IllegalJson {
    #[serde(rename = "move")]
    move_number: u32,
    kind: &'static str,
    point: Option<SgfPoint>,
    color: &'static str,
}

/// A ruleset's illegal moves, each written as it is read: the list is never
/// copied into the row (a game of a million illegal moves would double its
/// memory).
struct IllegalList<'a>(&'a [Illegal]);

impl Serialize for IllegalList<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|i| IllegalJson {
            move_number: i.move_number,
            kind: i.kind.key(),
            point: i.point.map(SgfPoint),
            color: i.color.letter(),
        }))
    }
}

/// A point in SGF letters, written without allocating.
struct SgfPoint(Point);

impl Serialize for SgfPoint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let letters = self.0.sgf_letters();
        s.serialize_str(std::str::from_utf8(&letters).unwrap_or_default())
    }
}

#[derive(Serialize)]
struct NoResultJson {
    #[serde(rename = "move")]
    move_number: u32,
}

fn verdict(v: &RulesetVerdict) -> VerdictJson<'_> {
    VerdictJson {
        illegal: IllegalList(&v.illegal),
        no_result: v.no_result.map(|m| NoResultJson { move_number: m }),
        score: None,
        area_score: None,
        not_territory: None,
    }
}

fn game_json<'a>(file: &'a FileInfo, g: &'a GameReport) -> GameJson<'a> {
    let (status, error) = match &g.status {
        Status::Ok => ("ok", None),
        Status::Error(e) => ("error", Some(e.to_string())),
    };
    let mut rulesets = RulesetsJson {
        aga: verdict(&g.verdicts.aga),
        japanese: verdict(&g.verdicts.japanese),
        swedish: verdict(&g.verdicts.swedish),
        chinese: ChineseJson { score: None },
    };
    let (mut not_scored, mut dead_stones, mut result_check) = (None, None, None);
    let mut divergence = Vec::new();
    match &g.scoring {
        Scoring::NotScored(why) => not_scored = Some(why.reason()),
        Scoring::Scored(sc) => {
            divergence = sc
                .divergence
                .iter()
                .map(|d| DivergenceJson {
                    between: [d.between[0].key(), d.between[1].key()],
                    margin_difference: d.margin_difference,
                    winner_changes: d.winner_changes,
                    causes: d
                        .causes
                        .iter()
                        .map(|(k, v)| ((*k).to_string(), serde_json::json!(v)))
                        .collect(),
                })
                .collect();
            let s = &sc.scores;
            rulesets.aga.score = Some(score_json(&s.aga));
            rulesets.aga.area_score = Some(score_json(&s.aga_area));
            rulesets.japanese.score = Some(score_json(&s.japanese));
            rulesets.japanese.not_territory = Some(NotTerritoryJson {
                seki_eyes: sc
                    .position
                    .seki_eye_points
                    .iter()
                    .map(|p| p.sgf())
                    .collect(),
                to_fill: sc.position.fill_points.iter().map(|p| p.sgf()).collect(),
            });
            rulesets.swedish.score = Some(score_json(&s.swedish));
            rulesets.chinese.score = Some(score_json(&s.chinese));
            let dead = &sc.dead;
            dead_stones = Some(DeadJson {
                source: dead.source.key(),
                black: dead.black.iter().map(|p| p.sgf()).collect(),
                white: dead.white.iter().map(|p| p.sgf()).collect(),
                uncertain: dead.uncertain.iter().map(|p| p.sgf()).collect(),
                added_by_rule7: dead.added_by_rule7.iter().map(|p| p.sgf()).collect(),
            });
            result_check = sc.result_check.as_ref().map(|c| CheckJson {
                recorded: &c.recorded,
                computed: c.computed.as_deref(),
                ruleset: c.declared.map(Counting::key),
                matches: c.matches,
                markup_computed: c.markup_computed.as_deref(),
                markup_match: c.markup_matches,
                matching_countings: c.matching.iter().map(|c| c.key()).collect(),
                reading: c.reading.map(|r| r.key()),
            });
        }
    }
    GameJson {
        file: &file.path,
        game: g.index,
        start: g.start.map(|l| StartJson {
            offset: l.offset,
            line: l.line,
            column: l.column,
        }),
        status,
        error,
        encoding: file.encoding,
        board_size: g.board_size,
        handicap: g.handicap,
        komi: g.komi,
        komi_as_written: g.komi_as_written,
        rules: g.info.rules.as_deref(),
        result: g.info.result.as_deref(),
        moves: g.moves,
        findings: g
            .findings
            .iter()
            .map(|f| FindingJson::new(f, g.board_size))
            .collect(),
        rulesets,
        not_scored,
        dead_stones,
        result_check,
        divergence,
        duplicate_of: g.duplicate_of.as_ref().map(|d| DuplicateJson {
            file: &d.file,
            game: d.game,
            kind: d.kind.key(),
            moves: d.moves,
        }),
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
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, &game_json(file, g))?;
        self.out.write_all(b"\n")
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.out.flush()
    }
}
