//! Which games are scored, with which dead stones and komi, and how the count
//! compares with the recorded result. Builds on `score` (the arithmetic) and
//! `result` (reading RE/RU).

use crate::board::{Board, Color, Point};
use crate::estimate;
use crate::findings::{Code, Finding};
use crate::game::{GameInfo, GameRecord, Markup};
use crate::replay::EndState;
use crate::result::{parse_result, parse_rules, DeclaredRules, Recorded, WinBy};
use crate::score::{self, format_margin, owes_last_pass, Counting, Score, COUNTINGS};
use crate::territory::{self, FinalPosition, SekiReading};

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

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoringOptions {
    pub dead_stones: DeadStonesMode,
    pub komi: KomiMode,
    /// The reading of Japanese rule 8 for the Japanese count.
    pub seki: SekiReading,
}

/// The dead stones a count rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadStones {
    /// `markup`, `estimated` or `none`.
    pub source: &'static str,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    /// Estimated only: stones whose status the playouts left in doubt
    /// ([`estimate::Estimate::uncertain`]).
    pub uncertain: Vec<Point>,
    /// Markup only: lone stones of either colour the markup leaves standing that
    /// Japanese rule 7 makes dead ([`dead_by_rule7`]); they are in `black` and
    /// `white` too.
    pub added_by_rule7: Vec<Point>,
}

/// The check of the recorded result against the count under the declared rules.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultCheck {
    pub recorded: String,
    pub computed: String,
    pub ruleset: &'static str,
    pub matches: bool,
}

/// The names of the countings in [`COUNTINGS`] order, as outputs write them.
pub const COUNTING_KEYS: [&str; 5] = ["aga", "aga_area", "japanese", "swedish", "chinese"];

/// The causes a margin difference splits into, in output order.
pub const CAUSES: [&str; 7] = [
    "handicap_stones",
    "stones_placed",
    "pass_stones",
    "white_last_pass",
    "seki_eyes",
    "komi",
    "compensation",
];

/// Why two countings give different margins: `margin_difference` is
/// `margin(between[0]) - margin(between[1])` and equals the sum of `causes`.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    pub between: [&'static str; 2],
    pub margin_difference: f64,
    /// Non-zero causes only, in [`CAUSES`] order.
    pub causes: Vec<(&'static str, f64)>,
    /// The two countings name different winners.
    pub winner_changes: bool,
}

/// Each counting's margin is `base + Σ components`, where `base` is the plain
/// topological territory count (territory + captures + dead stones, no komi): the
/// rules brief §6 arithmetic, made exact. Returned in [`CAUSES`] order.
fn components(c: Counting, s: &Score, pos: &FinalPosition, end: &EndState) -> [f64; 7] {
    let (b, w) = (0usize, 1usize);
    let mut k = [0.0; 7];
    match c {
        Counting::AgaTerritory | Counting::Swedish => {
            let passes = f64::from(s.black.pass_stones) - f64::from(s.white.pass_stones);
            let owed = if c == Counting::AgaTerritory && owes_last_pass(end) {
                1.0
            } else {
                0.0
            };
            k[2] = passes - owed;
            k[3] = owed;
        }
        Counting::Japanese => {
            k[4] = -(f64::from(pos.territory[b] - s.black.territory)
                - f64::from(pos.territory[w] - s.white.territory));
        }
        Counting::AgaArea | Counting::Chinese => {
            // Area - plain territory = (stones placed B - W) + the rest of the stone
            // balance (setup and handicap stones), exactly.
            let placed = f64::from(end.placed[b]) - f64::from(end.placed[w]);
            let area_minus_territory = (f64::from(pos.stones[b]) - f64::from(pos.stones[w]))
                - (f64::from(end.captures[b] + pos.dead[w])
                    - f64::from(end.captures[w] + pos.dead[b]));
            k[0] = area_minus_territory - placed;
            k[1] = placed;
            k[6] = -s.compensation;
        }
    }
    k[5] = -s.komi;
    k
}

fn divergences(scores: &[Score; 5], pos: &FinalPosition, end: &EndState) -> Vec<Divergence> {
    let comps: Vec<[f64; 7]> = COUNTINGS
        .iter()
        .zip(scores)
        .map(|(c, s)| components(*c, s, pos, end))
        .collect();
    let sign = |m: f64| {
        if m > 1e-9 {
            1
        } else if m < -1e-9 {
            -1
        } else {
            0
        }
    };
    let mut out = Vec::new();
    for i in 0..5 {
        for j in i + 1..5 {
            let d = scores[i].margin - scores[j].margin;
            if d.abs() < 1e-9 {
                continue;
            }
            let causes = CAUSES
                .iter()
                .enumerate()
                .map(|(k, name)| (*name, comps[i][k] - comps[j][k]))
                .filter(|(_, v)| v.abs() > 1e-9)
                .collect();
            out.push(Divergence {
                between: [COUNTING_KEYS[i], COUNTING_KEYS[j]],
                margin_difference: d,
                causes,
                winner_changes: sign(scores[i].margin) != sign(scores[j].margin),
            });
        }
    }
    out
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
        divergence: Vec<Divergence>,
    },
}

/// Dead stones from territory markup. A string is dead when one of its stones
/// stands on a point marked as the opponent's territory (CGoban, KGS), or when it
/// has liberties and every one of them is marked as the opponent's territory
/// (editors and GNU Go mark only the empty points).
pub fn dead_from_markup(board: &Board, m: &Markup) -> (Vec<Point>, Vec<Point>) {
    let n = usize::from(board.size());
    let idx = |p: Point| usize::from(p.y) * n + usize::from(p.x);
    // 1: Black territory, 2: White territory.
    let mut mark = vec![0u8; n * n];
    for &p in &m.black_territory {
        mark[idx(p)] = 1;
    }
    for &p in &m.white_territory {
        mark[idx(p)] = 2;
    }
    let owner_mark = |c: Color| match c {
        Color::Black => 2u8, // Black stones die in White's territory
        Color::White => 1u8,
    };
    let mut seen = vec![false; n * n];
    let (mut dead_b, mut dead_w) = (Vec::new(), Vec::new());
    let mut string = Vec::new();
    let mut stack = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let start = Point::new(x as u8, y as u8);
            let Some(c) = board.get(start) else { continue };
            if seen[idx(start)] {
                continue;
            }
            let theirs = owner_mark(c);
            string.clear();
            seen[idx(start)] = true;
            stack.push(start);
            let (mut on_marked, mut libs, mut libs_marked) = (false, 0u32, 0u32);
            while let Some(p) = stack.pop() {
                string.push(p);
                on_marked |= mark[idx(p)] == theirs;
                for q in neighbours(p, n) {
                    match board.get(q) {
                        Some(qc) if qc == c && !seen[idx(q)] => {
                            seen[idx(q)] = true;
                            stack.push(q);
                        }
                        None => {
                            libs += 1;
                            libs_marked += u32::from(mark[idx(q)] == theirs);
                        }
                        _ => {}
                    }
                }
            }
            if on_marked || (libs > 0 && libs == libs_marked) {
                let out = if c == Color::Black {
                    &mut dead_b
                } else {
                    &mut dead_w
                };
                out.extend_from_slice(&string);
            }
        }
    }
    dead_b.sort_by_key(|p| (p.y, p.x));
    dead_w.sort_by_key(|p| (p.y, p.x));
    (dead_b, dead_w)
}

/// Lone stones a markup leaves standing that Japanese rule 7 makes dead
/// whatever the markup says: a single stone in atari whose owner cannot fill
/// its last liberty (the fill would be suicide: it captures nothing and leaves
/// the joined string no liberty), with no dead stone beside it, on a liberty
/// not marked as its owner's territory.
///
/// Why it is dead (rule 7-1: alive only if it cannot be captured, or if its
/// capture would let its owner play a new stone that cannot be captured): the
/// opponent captures it by playing the liberty, a legal capture at any time.
/// The capturing string keeps two liberties or more (every opponent string
/// beside the liberty had another one, else the owner's fill would capture
/// it, and the captured point is one more), so the capture is no ko and cannot
/// be taken back. And the owner can never play a new stone on the captured
/// point: every string beside it has another liberty, so a stone there is
/// suicide. (A string of two stones or more is left to the markup: its owner
/// could play back into the space its capture leaves.) No agreement keeps such
/// a stone alive, so a markup that leaves it standing is incomplete.
/// Returns the added stones of each colour, sorted as [`dead_from_markup`] sorts.
pub fn dead_by_rule7(
    board: &Board,
    m: &Markup,
    dead_b: &[Point],
    dead_w: &[Point],
) -> (Vec<Point>, Vec<Point>) {
    let n = usize::from(board.size());
    let is_dead = |p: Point| dead_b.contains(&p) || dead_w.contains(&p);
    let owners_mark = |c: Color, p: Point| match c {
        Color::Black => m.black_territory.contains(&p),
        Color::White => m.white_territory.contains(&p),
    };
    let (mut add_b, mut add_w) = (Vec::new(), Vec::new());
    for y in 0..n {
        for x in 0..n {
            let stone = Point::new(x as u8, y as u8);
            let Some(c) = board.get(stone) else { continue };
            if is_dead(stone) {
                continue;
            }
            // A lone stone: no neighbour of its colour, one empty neighbour,
            // and the opponent's stones around it standing.
            let (mut libs, mut lone, mut around_dead) = (Vec::new(), true, false);
            for q in neighbours(stone, n) {
                match board.get(q) {
                    None => libs.push(q),
                    Some(qc) if qc == c => lone = false,
                    Some(_) => around_dead |= is_dead(q),
                }
            }
            let [lib] = libs[..] else { continue };
            if !lone || around_dead || owners_mark(c, lib) {
                continue;
            }
            let mut fill = board.clone();
            if fill.place(lib, c).self_captured == 0 {
                continue;
            }
            if c == Color::Black {
                add_b.push(stone);
            } else {
                add_w.push(stone);
            }
        }
    }
    (add_b, add_w)
}

/// The dead stones of a markup as `check` counts them: [`dead_from_markup`]
/// completed by [`dead_by_rule7`].
pub fn markup_dead_stones(board: &Board, m: &Markup) -> DeadStones {
    let (mut black, mut white) = dead_from_markup(board, m);
    let (add_b, add_w) = dead_by_rule7(board, m, &black, &white);
    let added_by_rule7 = add_b.iter().chain(&add_w).copied().collect();
    for (dead, add) in [(&mut black, add_b), (&mut white, add_w)] {
        dead.extend(add);
        dead.sort_by_key(|p| (p.y, p.x));
    }
    DeadStones {
        source: "markup",
        black,
        white,
        uncertain: Vec::new(),
        added_by_rule7,
    }
}

fn neighbours(p: Point, n: usize) -> impl Iterator<Item = Point> {
    let (x, y) = (i32::from(p.x), i32::from(p.y));
    [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
        .into_iter()
        .filter(move |&(a, b)| a >= 0 && b >= 0 && (a as usize) < n && (b as usize) < n)
        .map(|(a, b)| Point::new(a as u8, b as u8))
}

fn counting_for(d: DeclaredRules) -> Counting {
    match d {
        DeclaredRules::Aga => Counting::AgaTerritory,
        DeclaredRules::Japanese => Counting::Japanese,
        DeclaredRules::Chinese => Counting::Chinese,
        DeclaredRules::Swedish => Counting::Swedish,
    }
}

/// Checks the recorded result against the count under the declared rules: the
/// margin when RE has one, else (`B+`, `W+0.0`) the winner only. Adds C601 for a
/// difference (only when dead stones are known: without them a mismatch says
/// little) and C602 for a margin the komi's half points cannot give. A game
/// scored only because RE is a count (no two final passes) says so in C601:
/// its last position may not be the one the players counted.
fn check_result(
    rec: Recorded,
    re: &str,
    declared: DeclaredRules,
    scores: &[Score; 5],
    dead_source: &str,
    ended_by_passes: bool,
    findings: &mut Vec<Finding>,
) -> Option<ResultCheck> {
    let c = counting_for(declared);
    let s = &scores[COUNTINGS.iter().position(|x| *x == c).unwrap_or(0)];
    let mut impossible = false;
    let (matches, detail) = match (rec, rec.black_margin()) {
        (_, Some(m)) => {
            // The komi that would make the count equal RE, when it is a usual one:
            // the record's KM is then the likelier culprit. Not in a record
            // without final passes: its count is of a position that may not be
            // the counted one, so it says nothing about the komi.
            let implied = s.komi + s.margin - m;
            let usual = USUAL_KOMI.iter().any(|k| (k - implied).abs() < 1e-6);
            let hint = if usual && ended_by_passes {
                format!("; with komi {implied} it would equal RE (is KM right?)")
            } else {
                String::new()
            };
            // A count is a whole number minus komi (minus compensation).
            let frac = (m + s.komi + s.compensation).rem_euclid(1.0);
            impossible = frac > 1e-6 && (1.0 - frac) > 1e-6;
            ((s.margin - m).abs() < 1e-6, hint)
        }
        (
            Recorded::Win {
                winner,
                by: WinBy::UnknownMargin,
            },
            None,
        ) => {
            let computed = if s.margin > 0.0 {
                Some(Color::Black)
            } else if s.margin < 0.0 {
                Some(Color::White)
            } else {
                None
            };
            (computed == Some(winner), " (winner only)".to_string())
        }
        _ => return None,
    };
    if !matches && dead_source != "none" {
        let unfinished = if ended_by_passes {
            ""
        } else {
            "; the record does not end with two passes, so this counts its last position, \
             which may not be the one the players counted"
        };
        findings.push(Finding::new(
            Code::ResultMismatch,
            format!(
                "RE[{re}] but the {} count gives {} with komi {} (dead stones: {dead_source}){detail}{unfinished}",
                declared.key(),
                s.result(),
                s.komi,
            ),
        ));
    }
    if impossible {
        findings.push(Finding::new(
            Code::ResultImpossible,
            format!(
                "RE[{re}] cannot arise with komi {}: the half points do not match",
                s.komi
            ),
        ));
    }
    Some(ResultCheck {
        recorded: re.to_string(),
        computed: s.result(),
        ruleset: declared.key(),
        matches,
    })
}

/// Komi values in common use, for the hint of a result mismatch.
const USUAL_KOMI: [f64; 7] = [0.0, 0.5, 4.5, 5.5, 6.5, 7.5, 8.0];

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
            Some(Recorded::Win {
                by: WinBy::Judgment,
                ..
            }) => "decided by the referee's judgment",
            Some(Recorded::Void) => "void",
            _ => "unfinished: no two final passes and no counted result",
        };
        return Scoring::NotScored(why.to_string());
    }
    let markup = record.markup.as_ref();
    // The markup's own dead stones, kept when rule 7 adds to them (C607).
    let mut as_written: Option<Vec<Point>> = None;
    let dead = match (opts.dead_stones, markup) {
        (DeadStonesMode::Auto | DeadStonesMode::Markup, Some(m)) => {
            let d = markup_dead_stones(board, m);
            if !d.added_by_rule7.is_empty() {
                let written = d.black.iter().chain(&d.white);
                let written = written.filter(|p| !d.added_by_rule7.contains(p));
                as_written = Some(written.copied().collect());
            }
            d
        }
        (DeadStonesMode::Auto | DeadStonesMode::Estimate, _) => {
            let e = estimate::estimate(board, end.to_move());
            DeadStones {
                source: "estimated",
                black: e.black,
                white: e.white,
                uncertain: e.uncertain,
                added_by_rule7: Vec::new(),
            }
        }
        _ => DeadStones {
            source: "none",
            black: Vec::new(),
            white: Vec::new(),
            uncertain: Vec::new(),
            added_by_rule7: Vec::new(),
        },
    };
    let all_dead: Vec<Point> = dead.black.iter().chain(&dead.white).copied().collect();
    let pos = territory::analyse(board, &all_dead);
    // In `auto` mode a markup is checked against an estimate that has no stone in
    // doubt: a markup that leaves a dead stone out changes the count.
    let disputed = (opts.dead_stones == DeadStonesMode::Auto && dead.source == "markup")
        .then(|| estimate::estimate(board, end.to_move()))
        .filter(|e| e.uncertain.is_empty() && (e.black != dead.black || e.white != dead.white));
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
    let scores = COUNTINGS.map(|c| score::score(c, &pos, end, handicap, komi_for(c), opts.seki));
    if pos.seki_eyes(SekiReading::Strict) != pos.seki_eyes(SekiReading::Customary) {
        let other = match opts.seki {
            SekiReading::Customary => SekiReading::Strict,
            SekiReading::Strict => SekiReading::Customary,
        };
        let alt = score::score(
            Counting::Japanese,
            &pos,
            end,
            handicap,
            komi_for(Counting::Japanese),
            other,
        );
        findings.push(Finding::new(
            Code::SekiReadingsDiffer,
            format!(
                "Japanese rule 8: the strict reading finds {:?} seki eye and atari points (B, W), the customary {:?}; \
                 {:?} reading gives {}, the other {}",
                pos.seki_eyes(SekiReading::Strict),
                pos.seki_eyes(SekiReading::Customary),
                opts.seki,
                scores[2].result(),
                alt.result()
            ),
        ));
    }

    // AGA's two counts promise the same margin (rules brief §2.12, §6); when they
    // differ, say which causes the difference is made of.
    let (t, a) = (scores[0].margin, scores[1].margin);
    if (t - a).abs() > 1e-9 {
        let ct = components(Counting::AgaTerritory, &scores[0], &pos, end);
        let ca = components(Counting::AgaArea, &scores[1], &pos, end);
        let causes: Vec<String> = CAUSES
            .iter()
            .enumerate()
            .filter(|(k, _)| (ca[*k] - ct[*k]).abs() > 1e-9)
            .map(|(k, name)| format!("{name} {:+}", ca[k] - ct[k]))
            .collect();
        let turns = |c: usize| end.placed[c] + end.passes[c];
        findings.push(Finding::new(
            Code::AgaCountsDiffer,
            format!(
                "AGA area count {} but territory count {}: area - territory = {:+} ({}); \
                 turns played B {} W {} (handicap {handicap}): rule 11 wants equal turns",
                format_margin(a),
                format_margin(t),
                a - t,
                causes.join(", "),
                turns(0),
                turns(1)
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

    let result_check = match (recorded, info.result.as_deref()) {
        (Some(rec), Some(re)) => info
            .rules
            .as_deref()
            .and_then(parse_rules)
            .and_then(|declared| {
                check_result(
                    rec,
                    re,
                    declared,
                    &scores,
                    dead.source,
                    ended_by_passes,
                    findings,
                )
            }),
        _ => None,
    };
    // C606 and C607 give the count with other dead stones, under the declared
    // rules (Japanese when none is declared): "the japanese count gives W+9.5".
    let count_with = |other_dead: &[Point]| {
        let declared = info.rules.as_deref().and_then(parse_rules);
        let c = declared.map_or(Counting::Japanese, counting_for);
        let other_pos = territory::analyse(board, other_dead);
        let s = score::score(c, &other_pos, end, handicap, komi_for(c), opts.seki);
        format!(
            "the {} count gives {}",
            declared.map_or("japanese", DeclaredRules::key),
            s.result()
        )
    };
    if let Some(e) = disputed {
        let alt_dead: Vec<Point> = e.black.iter().chain(&e.white).copied().collect();
        let mut diffs = Vec::new();
        for (color, marked, est) in [("B", &dead.black, &e.black), ("W", &dead.white, &e.white)] {
            let names = |a: &[Point], b: &[Point]| -> Vec<String> {
                a.iter()
                    .filter(|p| !b.contains(p))
                    .map(|p| p.sgf())
                    .collect()
            };
            let left_alive = names(est, marked);
            let marked_dead = names(marked, est);
            if !left_alive.is_empty() {
                diffs.push(format!("leaves alive {color} {}", left_alive.join(" ")));
            }
            if !marked_dead.is_empty() {
                diffs.push(format!("marks dead {color} {}", marked_dead.join(" ")));
            }
        }
        let re = info
            .result
            .as_deref()
            .map_or(String::new(), |re| format!(" (RE[{re}])"));
        findings.push(Finding::new(
            Code::MarkupDisputed,
            format!(
                "the markup {}, against an estimate with no stone in doubt; with the estimate's \
                 dead stones {}{re}",
                diffs.join(" and "),
                count_with(&alt_dead)
            ),
        ));
    }

    if let Some(written) = as_written {
        let names = |color: Color| -> Vec<String> {
            dead.added_by_rule7
                .iter()
                .filter(|p| board.get(**p) == Some(color))
                .map(|p| p.sgf())
                .collect()
        };
        let list: Vec<String> = [(Color::Black, "B"), (Color::White, "W")]
            .into_iter()
            .map(|(color, letter)| (letter, names(color)))
            .filter(|(_, v)| !v.is_empty())
            .map(|(letter, v)| format!("{letter} {}", v.join(" ")))
            .collect();
        findings.push(Finding::new(
            Code::MarkupCompleted,
            format!(
                "the markup leaves standing {}: lone stones in atari whose owner cannot fill the \
                 last liberty (it would be suicide), so dead by Japanese rule 7; counted dead \
                 (with the markup as written {})",
                list.join(" and "),
                count_with(&written)
            ),
        ));
    }

    let divergence = divergences(&scores, &pos, end);
    Scoring::Scored {
        dead,
        scores: Box::new(scores),
        result_check,
        divergence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(rows: &[&str], black_territory: &[Point]) -> Vec<String> {
        let board = Board::from_rows(rows);
        let m = Markup {
            black_territory: black_territory.to_vec(),
            white_territory: Vec::new(),
        };
        let (b, w) = dead_from_markup(&board, &m);
        let (ab, aw) = dead_by_rule7(&board, &m, &b, &w);
        ab.iter().chain(&aw).map(|p| p.sgf()).collect()
    }

    // A lone Black stone at cb in atari; its liberty bb is surrounded by White.
    const LONE: [&str; 5] = ["OOOOO", "O.XOO", "OOOOO", ".....", "XXXXX"];

    #[test]
    fn a_stone_whose_last_liberty_its_owner_cannot_fill_is_dead() {
        assert_eq!(added(&LONE, &[]), ["cb"]);
    }

    #[test]
    fn a_stone_that_can_extend_or_capture_and_a_larger_string_are_left_to_the_markup() {
        // The liberty bb touches an empty point: Black's fill is no suicide.
        assert!(added(&["OOOOO", "..XOO", "OOOOO", ".....", "XXXXX"], &[]).is_empty());
        // The stone dc's liberty cc: Black's fill captures the White stone bc.
        let capture = ["......", ".XOO..", "XO.XO.", ".XOO..", "......", "......"];
        assert!(added(&capture, &[]).is_empty());
        // Two liberties: not in atari.
        assert!(added(&["OOOOO", "O.X.O", "OOOOO", ".....", "XXXXX"], &[]).is_empty());
        // Two stones in atari: Black could play back into the space their
        // capture leaves, so rule 7's second clause may apply; left alone.
        assert!(added(&["OOOOO", "O.XXO", "OOOOO", ".....", "XXXXX"], &[]).is_empty());
    }

    #[test]
    fn the_markup_keeps_its_word_where_it_speaks() {
        // The liberty marked as Black's territory: the markup says Black owns it.
        let bb = Point::new(1, 1);
        assert!(added(&LONE, &[bb]).is_empty());
        // The White stones around marked dead (on Black's territory): the
        // markup says they die, not the Black stone.
        let around: Vec<Point> = (0..5)
            .flat_map(|x| (0..3).map(move |y| Point::new(x, y)))
            .filter(|p| LONE[usize::from(p.y)].as_bytes()[usize::from(p.x)] == b'O')
            .collect();
        assert!(added(&LONE, &around).is_empty());
    }
}
