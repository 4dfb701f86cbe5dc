//! Which games are scored, with which dead stones and komi; the two checks of
//! the recorded result (against the record's own TB/TW count, and against the
//! rules' count of the final position); the decomposition of the differences
//! between countings.

pub mod counting;
pub mod divergence;
pub mod final_position;
mod japanese;
pub mod katago;
pub mod markup;
mod notes;
pub mod recorded;
pub mod result_check;
pub mod reversal;

pub use self::divergence::{Components, Divergence};
pub use self::result_check::{ReadingKind, ResultCheck};

use self::counting::{Counting, Score, Scores, Tally};
use self::final_position::FinalPosition;
use self::katago::KataGoRules;
use self::recorded::{parse_result, parse_rules, DeclaredRules, Recorded, WinBy};
use self::result_check::{CheckInput, Declared, Reading};
use crate::core::board::{Board, Point};
use crate::core::findings::Finding;
use crate::core::game::{GameInfo, GameRecord};
use crate::core::replay::EndState;
use crate::dead_stones;

/// Where dead stones come from (`--dead-stones`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadStonesMode {
    /// Markup when present, else estimated.
    #[default]
    Auto,
    /// Markup only (none when there is no markup).
    Markup,
    /// Always estimated, markup ignored.
    Estimate,
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

/// Which games are scored (`--score`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScoreMode {
    /// Games that ended by two passes, whose RE is a count, or whose last node
    /// carries TB/TW markup (the position was counted).
    #[default]
    Finished,
    /// Every game: the last position as it stands.
    All,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoringOptions {
    pub dead_stones: DeadStonesMode,
    pub komi: KomiMode,
    pub score: ScoreMode,
    /// Check each TB/TW markup's dead stones against an estimate (C606;
    /// `--check-markup`): one estimate per marked-up game.
    pub check_markup: bool,
}

/// Where the dead stones of a count come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DeadSource {
    /// The record's TB/TW markup: the players' agreement.
    Markup,
    /// The estimator (`--dead-stones estimate`, or `auto` without markup).
    Estimated,
    /// No dead stones (`--dead-stones none`, or `markup` without markup).
    None,
}

impl DeadSource {
    pub fn key(self) -> &'static str {
        match self {
            DeadSource::Markup => "markup",
            DeadSource::Estimated => "estimated",
            DeadSource::None => "none",
        }
    }
}

/// The dead stones a count rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadStones {
    pub source: DeadSource,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    /// Estimated only: stones whose status the playouts left in doubt
    /// ([`dead_stones::Estimate::uncertain`]).
    pub uncertain: Vec<Point>,
    /// Markup only: lone stones of either colour the markup leaves standing that
    /// Japanese rule 7 makes dead ([`markup::dead_by_rule7`]). Listed, not counted: the
    /// count keeps the players' agreement.
    pub added_by_rule7: Vec<Point>,
}

impl DeadStones {
    fn none(source: DeadSource) -> DeadStones {
        DeadStones {
            source,
            black: Vec::new(),
            white: Vec::new(),
            uncertain: Vec::new(),
            added_by_rule7: Vec::new(),
        }
    }

    /// Every dead stone, Black's first.
    pub fn all(&self) -> Vec<Point> {
        self.black.iter().chain(&self.white).copied().collect()
    }
}

/// Why a game has no score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NotScored {
    Resigned,
    LostOnTime,
    Forfeited,
    Judged,
    Void,
    /// No two final passes, no counted RE and no territory markup.
    Unfinished,
    /// The game could not be audited at all.
    NotAudited,
}

impl NotScored {
    /// The reason as outputs write it.
    pub fn reason(self) -> &'static str {
        match self {
            NotScored::Resigned => "resigned",
            NotScored::LostOnTime => "lost on time",
            NotScored::Forfeited => "forfeited",
            NotScored::Judged => "decided by the referee's judgment",
            NotScored::Void => "void",
            NotScored::Unfinished => {
                "unfinished: no two final passes, no counted result and no territory markup"
            }
            NotScored::NotAudited => "not audited",
        }
    }
}

/// A scored game.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub dead: DeadStones,
    /// The analysed final position (dead stones removed).
    pub position: FinalPosition,
    /// Every counting's count of the final position.
    pub scores: Scores,
    /// Every counting's count of the record's TB/TW markup as marked.
    pub markup_scores: Option<Scores>,
    pub result_check: Option<ResultCheck>,
    pub divergence: Vec<Divergence>,
}

impl Scored {
    /// RE was checked and the count does not give it.
    pub fn result_mismatch(&self) -> bool {
        self.result_check.as_ref().is_some_and(|c| !c.matches)
    }

    /// Two countings name different winners.
    pub fn winner_changes(&self) -> bool {
        self.divergence.iter().any(|d| d.winner_changes)
    }
}

/// A game's scoring, or why it has none.
#[derive(Clone, Debug, PartialEq)]
pub enum Scoring {
    NotScored(NotScored),
    Scored(Box<Scored>),
}

/// Why a game is not scored, if it is not.
fn why_not_scored(
    recorded: Option<Recorded>,
    end: &EndState,
    record: &GameRecord,
    mode: ScoreMode,
) -> Option<NotScored> {
    let finished = end.trailing_passes >= 2
        || recorded.is_some_and(Recorded::is_count)
        || record.markup.is_some();
    if finished || mode == ScoreMode::All {
        return None;
    }
    Some(match recorded {
        Some(Recorded::Win {
            by: WinBy::Resignation,
            ..
        }) => NotScored::Resigned,
        Some(Recorded::Win {
            by: WinBy::Time, ..
        }) => NotScored::LostOnTime,
        Some(Recorded::Win {
            by: WinBy::Forfeit, ..
        }) => NotScored::Forfeited,
        Some(Recorded::Win {
            by: WinBy::Judgment,
            ..
        }) => NotScored::Judged,
        Some(Recorded::Void) => NotScored::Void,
        _ => NotScored::Unfinished,
    })
}

/// The dead stones the count rests on, per `--dead-stones`.
fn choose_dead_stones(
    board: &Board,
    record: &GameRecord,
    first: dead_stones::FirstMove,
    mode: DeadStonesMode,
) -> DeadStones {
    match (mode, record.markup.as_ref()) {
        (DeadStonesMode::Auto | DeadStonesMode::Markup, Some(m)) => {
            let (black, white) = markup::dead_from_markup(board, m);
            let (add_b, add_w) = markup::dead_by_rule7(board, m, &black, &white);
            DeadStones {
                source: DeadSource::Markup,
                black,
                white,
                uncertain: Vec::new(),
                added_by_rule7: add_b.into_iter().chain(add_w).collect(),
            }
        }
        (DeadStonesMode::Auto | DeadStonesMode::Estimate, _) => {
            let e = dead_stones::estimate(board, first);
            DeadStones {
                source: DeadSource::Estimated,
                black: e.black,
                white: e.white,
                uncertain: e.uncertain,
                added_by_rule7: Vec::new(),
            }
        }
        (DeadStonesMode::Markup, None) | (DeadStonesMode::None, _) => {
            DeadStones::none(DeadSource::None)
        }
    }
}

/// Who moves first in a fight the estimator finds unsettled: the attacker under
/// declared Japanese (or Korean) rules, else the player whose turn it is (AGA
/// rule 10), also when no rules are declared.
pub fn first_move(info: &GameInfo, end: &EndState) -> dead_stones::FirstMove {
    if info.rules.as_deref().and_then(parse_rules) == Some(DeclaredRules::Japanese) {
        dead_stones::FirstMove::Attacker
    } else {
        dead_stones::FirstMove::Resume(end.to_move())
    }
}

/// Counts positions for one game: its end, handicap and komi policy.
struct Counter<'a> {
    board: &'a Board,
    end: &'a EndState,
    handicap: u32,
    komi: KomiMode,
    recorded_komi: Option<f64>,
}

impl Counter<'_> {
    fn komi(&self, c: Counting) -> f64 {
        match self.komi {
            KomiMode::Record => self
                .recorded_komi
                .unwrap_or_else(|| c.default_komi(self.handicap)),
            KomiMode::Rules => c.default_komi(self.handicap),
            KomiMode::Value(v) => v,
        }
    }

    /// Every counting's score of a tally per counting.
    fn scores(&self, tally: impl Fn(Counting) -> Tally) -> Scores {
        Scores::each(|c| self.score(c, &tally(c)))
    }

    fn score(&self, c: Counting, tally: &Tally) -> Score {
        counting::score(c, tally, self.end, self.handicap, self.komi(c))
    }

    /// "the japanese count gives W+9.5": the count under `c` with other dead
    /// stones (for C606 and C607).
    fn with_dead(&self, c: Counting, dead: &[Point]) -> String {
        let pos = final_position::analyse(self.board, dead);
        let s = self.score(c, &Tally::of(&pos, c));
        format!("the {} count gives {}", c.key(), s.result())
    }
}

/// The readings of the final position a record without markup may have been
/// counted by, besides the rules' ([`Reading`]): the Japanese count of the
/// territory as it stands, when rule 8 leaves points out; and, with estimated
/// dead stones, the count under the declared rules (Japanese without) with the
/// lone stones only rule 7 makes dead left standing, with the strings of up to
/// three stones it makes dead too when those are more (the stones C607 names in
/// a markup), and with every dead string in atari with no way out left standing
/// when those are more still. Each reading stands its stones all together: one
/// way of counting, not a choice per stone.
fn common_readings(
    board: &Board,
    dead: &DeadStones,
    pos: &FinalPosition,
    counter: &Counter,
    declared: Option<Counting>,
) -> Vec<Reading> {
    let mut out = Vec::new();
    let left_out = notes::rule8_points(pos, board);
    if !left_out.is_empty() {
        out.push(Reading {
            kind: ReadingKind::TerritoryAsItStands,
            counting: Counting::Japanese,
            score: counter.score(Counting::Japanese, &Tally::topological(pos)),
            what: format!("counts as territory what rule 8 leaves out: {left_out}"),
        });
    }
    if dead.source == DeadSource::Estimated {
        let all = dead.all();
        let lone = markup::estimated_dead_by_rule7(board, &all, 1);
        let rule7 = markup::estimated_dead_by_rule7(board, &all, markup::RULE7_MAX_STONES);
        let in_atari = markup::estimated_dead_in_atari(board, &all);
        let standing_reading = |kind, standing: &[Point], why: &str| {
            let c = declared.unwrap_or(Counting::Japanese);
            let rest: Vec<Point> = all
                .iter()
                .filter(|p| !standing.contains(p))
                .copied()
                .collect();
            let alt = final_position::analyse(board, &rest);
            let names: Vec<String> = standing
                .iter()
                .filter_map(|p| {
                    let colour = board.get(*p)?;
                    Some(format!(
                        "{} {} ({})",
                        colour.letter(),
                        p.human(board.size()),
                        p.sgf()
                    ))
                })
                .collect();
            Reading {
                kind,
                counting: c,
                score: counter.score(c, &Tally::of(&alt, c)),
                what: format!("counts standing {}: {why}", names.join(", ")),
            }
        };
        if !lone.is_empty() {
            out.push(standing_reading(
                ReadingKind::LoneStonesStanding,
                &lone,
                "lone stones in atari whose owner cannot fill the last liberty, dead by \
                 Japanese rule 7",
            ));
        }
        if rule7 != lone {
            out.push(standing_reading(
                ReadingKind::Rule7StonesStanding,
                &rule7,
                "lone stones and strings of up to three stones in atari whose owner cannot fill \
                 the last liberty and whose capture leaves no room to live, dead by Japanese \
                 rule 7",
            ));
        }
        if in_atari != lone && in_atari != rule7 {
            out.push(standing_reading(
                ReadingKind::StonesInAtariStanding,
                &in_atari,
                "stones in atari that cannot escape (their owner's play on the last liberty \
                 captures nothing and leaves them in atari or captured), dead by Japanese rule 7",
            ));
        }
    }
    out
}

/// Scores a replayed game, if it is finished (or `--score all` asks): the
/// dead stones, the final position, every counting, the two result checks, the
/// findings about the count, and the divergences between countings.
pub fn score_game(
    board: &Board,
    record: &GameRecord,
    info: &GameInfo,
    end: &EndState,
    opts: &ScoringOptions,
    findings: &mut Vec<Finding>,
) -> Scoring {
    let recorded = info.result.as_deref().map(parse_result);
    if let Some(why) = why_not_scored(recorded, end, record, opts.score) {
        return Scoring::NotScored(why);
    }
    let first = first_move(info, end);
    let dead = choose_dead_stones(board, record, first, opts.dead_stones);
    let counter = Counter {
        board,
        end,
        handicap: end.handicap_stones.max(if record.handicap >= 2 {
            record.handicap
        } else {
            0
        }),
        komi: opts.komi,
        recorded_komi: record.komi,
    };
    let pos = final_position::analyse(board, &dead.all());
    let scores = counter.scores(|c| Tally::of(&pos, c));
    let markup_scores = record.markup.as_ref().map(|m| {
        let tally = markup::tally(board, m);
        counter.scores(|_| tally)
    });
    let declared = info
        .rules
        .as_deref()
        .and_then(parse_rules)
        .map(result_check::counting_for);
    let katago = info.rules.as_deref().and_then(KataGoRules::read);
    let play = katago.map(|_| katago::Play {
        handicap: counter.handicap,
        first_passer: end.first_passer,
        chilled: katago::chilled(record, end),
        second_encore: end.pass_pairs.get(1).and_then(|p| p.board.as_ref()),
        komi: counter.komi(declared.unwrap_or(Counting::Chinese)),
    });
    // A KataGo string's knobs that do not depend on the position (handicap
    // bonus, button), for the counts of other positions than the final board.
    let katago_count = |c: Counting, s: Score| match (katago, &play) {
        (Some(k), Some(p)) if Some(c) == declared => katago::adjusted(&s, k, p),
        _ => s,
    };
    let declared_count = declared.map(|c| Declared {
        counting: c,
        katago: katago.is_some(),
        score: match (katago, &play) {
            (Some(k), Some(p)) => katago::count(board, k, p),
            _ => *scores.get(c),
        },
        markup_score: markup_scores.as_ref().map(|m| katago_count(c, *m.get(c))),
    });
    // C606 and C607 are given under the declared rules, Japanese without.
    let notes_counting = declared.unwrap_or(Counting::Japanese);

    notes::aga_counts_differ(&scores, &pos, end, counter.handicap, findings);
    let result_check = match (recorded, info.result.as_deref()) {
        (Some(rec), Some(re)) => {
            let readings = || {
                let mut out = common_readings(board, &dead, &pos, &counter, declared);
                for r in &mut out {
                    r.score = katago_count(r.counting, r.score);
                }
                out
            };
            let reversals = || match (dead.source, katago) {
                (DeadSource::Estimated, None) => {
                    let countings = match declared {
                        Some(c) => vec![c],
                        None => Counting::ALL.to_vec(),
                    };
                    reversal::reversals(board, &dead, &counter, &countings)
                }
                _ => Vec::new(),
            };
            let input = CheckInput {
                re,
                declared: declared_count,
                scores: &scores,
                markup_scores: markup_scores.as_ref(),
                dead: dead.source,
                ended_by_passes: end.trailing_passes >= 2 || record.markup.is_some(),
                readings: &readings,
                // KataGo's count does not rest on the estimate.
                in_doubt: if katago.is_some() {
                    0
                } else {
                    dead.uncertain.len()
                },
                reversals: &reversals,
            };
            result_check::check(rec, &input, findings)
        }
        _ => None,
    };
    // Without RU the rules' reading is worth a note only when no counting
    // reproduces RE: a record some counting explains is consistent as it stands.
    let unexplained =
        declared.is_some() || result_check.as_ref().is_some_and(|c| c.matching.is_empty());
    if let (Some(m), Some(own), true) = (record.markup.as_ref(), &markup_scores, unexplained) {
        notes::rules_differ_from_markup(declared, &scores, own, &pos, board, m, findings);
    }
    // Asked for, a markup is checked against an estimate that has no stone in
    // doubt: a markup that leaves a dead stone out changes the count.
    if opts.check_markup && dead.source == DeadSource::Markup {
        let estimate = dead_stones::estimate(board, first);
        notes::markup_disputed(board, &dead, &estimate, info, findings, |alt| {
            counter.with_dead(notes_counting, alt)
        });
    }
    notes::rule7_stones(board, &dead, findings, |with| {
        counter.with_dead(notes_counting, with)
    });

    let divergence = divergence::divergences(&scores, &pos, end);
    Scoring::Scored(Box::new(Scored {
        dead,
        position: pos,
        scores,
        markup_scores,
        result_check,
        divergence,
    }))
}
