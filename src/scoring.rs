//! Which games are scored, with which dead stones and komi, and how the count
//! compares with the recorded result. Builds on `score` (the arithmetic) and
//! `result` (reading RE/RU).

use crate::board::{Board, Color, Point};
use crate::findings::{Code, Finding};
use crate::game::{GameInfo, GameRecord};
use crate::replay::EndState;
use crate::result::{parse_result, parse_rules, DeclaredRules, Recorded, WinBy};
use crate::score::{self, format_margin, Counting, Score, COUNTINGS};

/// Where dead stones come from (`--dead-stones`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadStonesMode {
    /// Markup when present, else none (no estimator yet).
    #[default]
    Auto,
    Markup,
    None,
}

/// Which komi to count with (`--komi`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum KomiMode {
    /// KM when present, else the ruleset's own.
    #[default]
    Record,
    /// Always the ruleset's own.
    Rules,
    Value(f64),
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoringOptions {
    pub dead_stones: DeadStonesMode,
    pub komi: KomiMode,
}

/// The dead stones a count rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadStones {
    /// `markup` or `none`.
    pub source: &'static str,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
}

/// The check of the recorded result against the count under the declared rules.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultCheck {
    pub recorded: String,
    pub computed: String,
    pub ruleset: &'static str,
    pub matches: bool,
}

/// A game's scoring, or why it has none.
#[derive(Clone, Debug, PartialEq)]
pub enum Scoring {
    NotScored(String),
    Scored {
        dead: DeadStones,
        /// In the order of [`COUNTINGS`] (boxed: the enum stays small).
        scores: Box<[Score; 5]>,
        result_check: Option<ResultCheck>,
    },
}

fn counting_for(d: DeclaredRules) -> Counting {
    match d {
        DeclaredRules::Aga => Counting::AgaTerritory,
        DeclaredRules::Japanese => Counting::Japanese,
        DeclaredRules::Chinese => Counting::Chinese,
        DeclaredRules::Swedish => Counting::Swedish,
    }
}

/// Scores a replayed game, if it ended by passes or its result is a count.
pub fn score_game(
    board: &Board,
    record: &GameRecord,
    info: &GameInfo,
    end: &EndState,
    opts: &ScoringOptions,
    findings: &mut Vec<Finding>,
) -> Scoring {
    let recorded = info.result.as_deref().map(parse_result);
    let ended_by_passes = end.trailing_passes >= 2;
    let counted = recorded.is_some_and(Recorded::is_count);
    if !ended_by_passes && !counted {
        let why = match recorded {
            Some(Recorded::Win {
                by: WinBy::Resignation,
                ..
            }) => "resigned",
            Some(Recorded::Win {
                by: WinBy::Time, ..
            }) => "lost on time",
            Some(Recorded::Win {
                by: WinBy::Forfeit, ..
            }) => "forfeited",
            Some(Recorded::Void) => "void",
            _ => "unfinished: no two final passes and no counted result",
        };
        return Scoring::NotScored(why.to_string());
    }
    let use_markup = match opts.dead_stones {
        DeadStonesMode::None => false,
        DeadStonesMode::Auto | DeadStonesMode::Markup => record.markup.is_some(),
    };
    let mut dead = DeadStones {
        source: if use_markup { "markup" } else { "none" },
        black: Vec::new(),
        white: Vec::new(),
    };
    if use_markup {
        if let Some(m) = &record.markup {
            // A stone standing on a point marked as the opponent's territory is dead.
            for &p in &m.white_territory {
                if board.get(p) == Some(Color::Black) {
                    dead.black.push(p);
                }
            }
            for &p in &m.black_territory {
                if board.get(p) == Some(Color::White) {
                    dead.white.push(p);
                }
            }
        }
    }
    let all_dead: Vec<Point> = dead.black.iter().chain(&dead.white).copied().collect();
    let pos = score::final_position(board, &all_dead);
    let handicap = end.handicap_stones.max(if record.handicap >= 2 {
        record.handicap
    } else {
        0
    });
    let komi_for = |c: Counting| match opts.komi {
        KomiMode::Record => record.komi.unwrap_or_else(|| c.default_komi(handicap)),
        KomiMode::Rules => c.default_komi(handicap),
        KomiMode::Value(v) => v,
    };
    let scores = COUNTINGS.map(|c| score::score(c, &pos, end, handicap, komi_for(c)));

    // AGA's two counts promise the same margin (rules brief §2.12, §6).
    let (t, a) = (scores[0].margin, scores[1].margin);
    if (t - a).abs() > 1e-9 {
        let placed_diff = i64::from(end.placed[0]) - i64::from(end.placed[1]);
        findings.push(Finding::new(
            Code::AgaCountsDiffer,
            format!(
                "AGA territory count {} but area count {}: stones placed B-W = {placed_diff}, \
                 handicap {handicap}, passes B {} W {}, captures B {} W {}",
                format_margin(t),
                format_margin(a),
                end.passes[0],
                end.passes[1],
                end.captures[0],
                end.captures[1]
            ),
        ));
    }
    // Winner differences between countings.
    let sign = |m: f64| {
        if m > 1e-9 {
            1
        } else if m < -1e-9 {
            -1
        } else {
            0
        }
    };
    let first = sign(scores[0].margin);
    if scores.iter().any(|s| sign(s.margin) != first) {
        let list: Vec<String> = COUNTINGS
            .iter()
            .zip(&scores)
            .map(|(c, s)| format!("{c:?} {}", s.result()))
            .collect();
        findings.push(Finding::new(
            Code::WinnerDiffers,
            format!("the countings disagree on the winner: {}", list.join(", ")),
        ));
    }

    let mut result_check = None;
    if let (Some(rec), Some(re)) = (recorded, info.result.as_deref()) {
        if let Some(m) = rec.black_margin() {
            if let Some(declared) = info.rules.as_deref().and_then(parse_rules) {
                let c = counting_for(declared);
                let i = COUNTINGS.iter().position(|x| *x == c).unwrap_or(0);
                let s = &scores[i];
                let matches = (s.margin - m).abs() < 1e-6;
                // Without dead-stone information a mismatch says little: the JSON
                // still shows it, but only a count on known dead stones is a finding.
                if !matches && dead.source != "none" {
                    findings.push(Finding::new(
                        Code::ResultMismatch,
                        format!(
                            "RE[{re}] but the {} count gives {} (dead stones: {})",
                            declared.key(),
                            s.result(),
                            dead.source
                        ),
                    ));
                }
                result_check = Some(ResultCheck {
                    recorded: re.to_string(),
                    computed: s.result(),
                    ruleset: declared.key(),
                    matches,
                });
                // A count is a whole number minus komi (minus compensation).
                let frac = (m + s.komi + s.compensation).rem_euclid(1.0);
                if frac > 1e-6 && (1.0 - frac) > 1e-6 {
                    findings.push(Finding::new(
                        Code::ResultImpossible,
                        format!(
                            "RE[{re}] cannot arise with komi {}: the half points do not match",
                            s.komi
                        ),
                    ));
                }
            }
        }
    }
    Scoring::Scored {
        dead,
        scores: Box::new(scores),
        result_check,
    }
}
