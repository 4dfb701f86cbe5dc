//! Which games are scored, with which dead stones and komi; the two checks of
//! the recorded result (against the record's own TB/TW count, and against the
//! rules' count of the final position); the decomposition of the differences
//! between countings.

pub mod counting;
pub mod final_position;
mod japanese;
pub mod recorded;

use self::counting::{format_margin, owes_last_pass, Counting, Score, Scores, Tally};
use self::final_position::FinalPosition;
use self::recorded::{parse_result, parse_rules, DeclaredRules, Recorded, WinBy};
use crate::core::board::{Board, Color, Point};
use crate::core::findings::{Code, Finding};
use crate::core::game::{GameInfo, GameRecord, Markup};
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
    /// Japanese rule 7 makes dead ([`dead_by_rule7`]). Listed, not counted: the
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

/// The check of the recorded result.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultCheck {
    /// RE as recorded.
    pub recorded: String,
    /// The counting RU asks for (`None`: no RU, or one that names no counting).
    pub declared: Option<Counting>,
    /// The declared counting's count of the final position, with the dead
    /// stones used.
    pub computed: Option<String>,
    /// That count gives RE; without a declared counting, some counting does.
    pub matches: bool,
    /// The record's own count: its TB/TW markup counted as marked (with the
    /// declared counting, Japanese when none is declared).
    pub markup_computed: Option<String>,
    /// The record's own count gives RE (without a declared counting: under
    /// some counting).
    pub markup_matches: Option<bool>,
    /// The countings whose count of the final position gives RE.
    pub matching: Vec<Counting>,
}

/// The parts a counting's margin is made of beyond the plain topological
/// territory count (territory + captures + dead stones, no komi): the rules
/// brief's arithmetic made exact. Two countings' margins differ by the
/// difference of their components.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Components {
    /// The stone balance not placed during play: handicap and setup stones.
    pub handicap_stones: f64,
    /// Stones placed by Black minus by White.
    pub stones_placed: f64,
    pub pass_stones: f64,
    /// AGA rule 11: White's owed last pass.
    pub white_last_pass: f64,
    /// Japanese rule 8: eye points of stones in seki.
    pub seki_eyes: f64,
    /// Japanese rule 8: points a player must fill once the dame are filled.
    pub points_to_fill: f64,
    pub komi: f64,
    /// Area counting's handicap compensation.
    pub compensation: f64,
}

impl Components {
    /// The component names, in output order.
    pub const NAMES: [&'static str; 8] = [
        "handicap_stones",
        "stones_placed",
        "pass_stones",
        "white_last_pass",
        "seki_eyes",
        "points_to_fill",
        "komi",
        "compensation",
    ];

    /// `(name, value)` in [`Components::NAMES`] order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> {
        let values = [
            self.handicap_stones,
            self.stones_placed,
            self.pass_stones,
            self.white_last_pass,
            self.seki_eyes,
            self.points_to_fill,
            self.komi,
            self.compensation,
        ];
        Components::NAMES.into_iter().zip(values)
    }

    /// The components of one counting's score of a game.
    fn of(c: Counting, s: &Score, pos: &FinalPosition, end: &EndState) -> Components {
        let (b, w) = (Color::Black.index(), Color::White.index());
        let mut k = Components {
            komi: -s.komi,
            ..Components::default()
        };
        match c {
            Counting::AgaTerritory | Counting::Swedish => {
                let passes = f64::from(s.black.pass_stones) - f64::from(s.white.pass_stones);
                let owed = if c == Counting::AgaTerritory && owes_last_pass(end) {
                    1.0
                } else {
                    0.0
                };
                k.pass_stones = passes - owed;
                k.white_last_pass = owed;
            }
            Counting::Japanese => {
                k.seki_eyes = -(f64::from(pos.seki_eyes[b]) - f64::from(pos.seki_eyes[w]));
                k.points_to_fill = -(f64::from(pos.to_fill[b]) - f64::from(pos.to_fill[w]));
            }
            Counting::AgaArea | Counting::Chinese => {
                // Area - plain territory = (stones placed B - W) + the rest of the
                // stone balance (setup and handicap stones), exactly.
                let placed = f64::from(end.placed[b]) - f64::from(end.placed[w]);
                let area_minus_territory = (f64::from(pos.stones[b]) - f64::from(pos.stones[w]))
                    - (f64::from(end.captures[b] + pos.dead[w])
                        - f64::from(end.captures[w] + pos.dead[b]));
                k.handicap_stones = area_minus_territory - placed;
                k.stones_placed = placed;
                k.compensation = -s.compensation;
            }
        }
        k
    }
}

/// Why two countings give different margins: `margin_difference` is
/// `margin(between[0]) - margin(between[1])` and equals the sum of `causes`.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    pub between: [Counting; 2],
    pub margin_difference: f64,
    /// Non-zero causes only, in [`Components::NAMES`] order.
    pub causes: Vec<(&'static str, f64)>,
    /// The two countings name different winners.
    pub winner_changes: bool,
}

/// -1, 0 or 1: who a margin says won.
fn winner_sign(m: f64) -> i8 {
    if m > 1e-9 {
        1
    } else if m < -1e-9 {
        -1
    } else {
        0
    }
}

fn divergences(scores: &Scores, pos: &FinalPosition, end: &EndState) -> Vec<Divergence> {
    let comps: Vec<(Counting, &Score, Components)> = scores
        .iter()
        .map(|(c, s)| (c, s, Components::of(c, s, pos, end)))
        .collect();
    let mut out = Vec::new();
    for (i, (ci, si, ki)) in comps.iter().enumerate() {
        for (cj, sj, kj) in &comps[i + 1..] {
            let d = si.margin - sj.margin;
            if d.abs() < 1e-9 {
                continue;
            }
            let causes = ki
                .iter()
                .zip(kj.iter())
                .map(|((name, a), (_, b))| (name, a - b))
                .filter(|(_, v)| v.abs() > 1e-9)
                .collect();
            out.push(Divergence {
                between: [*ci, *cj],
                margin_difference: d,
                causes,
                winner_changes: winner_sign(si.margin) != winner_sign(sj.margin),
            });
        }
    }
    out
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

/// A game's scoring, or why it has none.
#[derive(Clone, Debug, PartialEq)]
pub enum Scoring {
    NotScored(NotScored),
    Scored(Box<Scored>),
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
/// could play back into the space its capture leaves.) The stones are listed
/// (C607), not counted: the count holds the players' agreement.
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

/// Whether a score gives the recorded result: its margin when RE has one, else
/// (`B+`, `W+0.0`) its winner.
fn gives(s: &Score, rec: Recorded) -> Option<bool> {
    match (rec, rec.black_margin()) {
        (_, Some(m)) => Some((s.margin - m).abs() < 1e-6),
        (
            Recorded::Win {
                winner,
                by: WinBy::UnknownMargin,
            },
            None,
        ) => {
            let sign = match winner {
                Color::Black => 1,
                Color::White => -1,
            };
            Some(winner_sign(s.margin) == sign)
        }
        _ => None,
    }
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
    end: &EndState,
    mode: DeadStonesMode,
) -> DeadStones {
    match (mode, record.markup.as_ref()) {
        (DeadStonesMode::Auto | DeadStonesMode::Markup, Some(m)) => {
            let (black, white) = dead_from_markup(board, m);
            let (add_b, add_w) = dead_by_rule7(board, m, &black, &white);
            DeadStones {
                source: DeadSource::Markup,
                black,
                white,
                uncertain: Vec::new(),
                added_by_rule7: add_b.into_iter().chain(add_w).collect(),
            }
        }
        (DeadStonesMode::Auto | DeadStonesMode::Estimate, _) => {
            let e = dead_stones::estimate(board, end.to_move());
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

/// The record's own count: its TB/TW points as marked (and the points of the
/// stones the markup makes dead, which editors leave unmarked), its living
/// stones, and the markup's dead stones.
fn markup_tally(board: &Board, m: &Markup) -> Tally {
    let n = usize::from(board.size());
    let (dead_b, dead_w) = dead_from_markup(board, m);
    let mut t = Tally::default();
    let mut marked = vec![None; n * n];
    for (points, c) in [
        (&m.black_territory, Color::Black),
        (&m.white_territory, Color::White),
    ] {
        for p in points {
            if board.contains(*p) {
                marked[usize::from(p.y) * n + usize::from(p.x)] = Some(c);
            }
        }
    }
    for (dead, c) in [(&dead_b, Color::Black), (&dead_w, Color::White)] {
        t.dead[c.index()] = dead.len() as u32;
        for p in dead.iter() {
            marked[usize::from(p.y) * n + usize::from(p.x)] = Some(c.opponent());
        }
    }
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x as u8, y as u8);
            let dead = |c: Color| match c {
                Color::Black => dead_b.contains(&p),
                Color::White => dead_w.contains(&p),
            };
            match (board.get(p), marked[y * n + x]) {
                (Some(s), _) if !dead(s) => t.stones[s.index()] += 1,
                (_, Some(c)) => t.territory[c.index()] += 1,
                _ => {}
            }
        }
    }
    t
}

/// Komi values in common use, for the hint of a result mismatch.
const USUAL_KOMI: [f64; 7] = [0.0, 0.5, 4.5, 5.5, 6.5, 7.5, 8.0];

/// What a result check needs besides the recorded result.
struct CheckInput<'a> {
    re: &'a str,
    declared: Option<Counting>,
    scores: &'a Scores,
    markup_scores: Option<&'a Scores>,
    dead: DeadSource,
    ended_by_passes: bool,
}

/// Checks RE against the record's own count (its markup as marked: a
/// disagreement is C608, the record contradicts itself) and against the rules'
/// count of the final position (without markup a disagreement is C601; with it
/// the rules' reading of the markup's position is research material, C609).
/// Without a declared counting RE is checked against every counting. A margin
/// the komi's half points cannot give is C602.
fn check_result(rec: Recorded, i: &CheckInput, findings: &mut Vec<Finding>) -> Option<ResultCheck> {
    // A result that names neither a margin nor a winner says nothing to check.
    gives(&i.scores.japanese, rec)?;
    let matching: Vec<Counting> = i
        .scores
        .iter()
        .filter(|(_, s)| gives(s, rec) == Some(true))
        .map(|(c, _)| c)
        .collect();
    let declared_score = i.declared.map(|c| i.scores.get(c));
    let matches = match i.declared {
        Some(c) => matching.contains(&c),
        None => !matching.is_empty(),
    };
    let markup_matches = i.markup_scores.map(|m| match i.declared {
        Some(c) => gives(m.get(c), rec) == Some(true),
        None => m.iter().any(|(_, s)| gives(s, rec) == Some(true)),
    });
    let markup_score = i
        .markup_scores
        .map(|m| m.get(i.declared.unwrap_or(Counting::Japanese)));
    let rules_name = |c: Option<Counting>| c.map_or("japanese", Counting::key);
    if markup_matches == Some(false) {
        if let Some(m) = markup_score {
            findings.push(Finding::new(
                Code::MarkupCountMismatch,
                format!(
                    "RE[{}] but the record's own count (its TB/TW markup as marked, with the \
                     captures, the {} counting and komi {}) gives {}: the record contradicts itself",
                    i.re,
                    rules_name(i.declared),
                    m.komi,
                    m.result()
                ),
            ));
        }
    }
    if !matches && i.markup_scores.is_none() && i.dead != DeadSource::None {
        let unfinished = if i.ended_by_passes {
            ""
        } else {
            "; the record does not end with two passes, so this counts its last position, \
             which may not be the one the players counted"
        };
        let message = match (i.declared, declared_score) {
            (Some(c), Some(s)) => format!(
                "RE[{}] but the {} count gives {} with komi {} (dead stones: {}){}{unfinished}",
                i.re,
                c.key(),
                s.result(),
                s.komi,
                i.dead.key(),
                komi_hint(s, rec, i.ended_by_passes),
            ),
            _ => {
                let all: Vec<String> = i
                    .scores
                    .iter()
                    .map(|(c, s)| format!("{} {}", c.key(), s.result()))
                    .collect();
                format!(
                    "RE[{}] but no counting gives it (no RU: {}; dead stones: {}){unfinished}",
                    i.re,
                    all.join(", "),
                    i.dead.key(),
                )
            }
        };
        findings.push(Finding::new(Code::ResultMismatch, message));
    }
    if let (Some(s), Some(m)) = (declared_score, rec.black_margin()) {
        // A count is a whole number minus komi (minus compensation).
        let frac = (m + s.komi + s.compensation).rem_euclid(1.0);
        if frac > 1e-6 && (1.0 - frac) > 1e-6 {
            findings.push(Finding::new(
                Code::ResultImpossible,
                format!(
                    "RE[{}] cannot arise with komi {}: the half points do not match",
                    i.re, s.komi
                ),
            ));
        }
    }
    Some(ResultCheck {
        recorded: i.re.to_string(),
        declared: i.declared,
        computed: declared_score.map(Score::result),
        matches,
        markup_computed: markup_score.map(Score::result),
        markup_matches,
        matching,
    })
}

/// "; with komi 7.5 it would equal RE (is KM right?)", when a usual komi that
/// differs from the one used by more than a point would explain the mismatch.
/// Not in a record without final passes: its count is of a position that may
/// not be the counted one, so it says nothing about the komi. A komi a point
/// away is no hint: a count a point off is far more often a counting question.
fn komi_hint(s: &Score, rec: Recorded, ended_by_passes: bool) -> String {
    let Some(m) = rec.black_margin() else {
        return String::new();
    };
    let implied = s.komi + s.margin - m;
    let usual = USUAL_KOMI.iter().any(|k| (k - implied).abs() < 1e-6);
    if usual && ended_by_passes && (implied - s.komi).abs() > 1.0 + 1e-6 {
        format!("; with komi {implied} it would equal RE (is KM right?)")
    } else {
        String::new()
    }
}

/// Scores a replayed game, if it is finished (or `--score all` asks).
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
    let dead = choose_dead_stones(board, record, end, opts.dead_stones);
    let pos = final_position::analyse(board, &dead.all());
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
    let count = |pos: &FinalPosition, c: Counting| {
        counting::score(c, &Tally::of(pos, c), end, handicap, komi_for(c))
    };
    let scores = Scores::each(|c| count(&pos, c));
    let markup_scores = record.markup.as_ref().map(|m| {
        let t = markup_tally(board, m);
        Scores::each(|c| counting::score(c, &t, end, handicap, komi_for(c)))
    });
    let declared = info
        .rules
        .as_deref()
        .and_then(parse_rules)
        .map(counting_for);

    aga_counts_differ(&scores, &pos, end, handicap, findings);
    let result_check = match (recorded, info.result.as_deref()) {
        (Some(rec), Some(re)) => {
            let input = CheckInput {
                re,
                declared,
                scores: &scores,
                markup_scores: markup_scores.as_ref(),
                dead: dead.source,
                ended_by_passes: end.trailing_passes >= 2 || record.markup.is_some(),
            };
            check_result(rec, &input, findings)
        }
        _ => None,
    };
    if let (Some(m), Some(c)) = (record.markup.as_ref(), declared) {
        rules_differ_from_markup(c, &scores, markup_scores.as_ref(), &pos, board, m, findings);
    }
    // C606 and C607 give the count with other dead stones, under the declared
    // rules (Japanese when none is declared): "the japanese count gives W+9.5".
    let count_with = |other_dead: &[Point]| {
        let c = declared.unwrap_or(Counting::Japanese);
        let s = count(&final_position::analyse(board, other_dead), c);
        format!("the {} count gives {}", c.key(), s.result())
    };
    // In `auto` mode a markup is checked against an estimate that has no stone in
    // doubt: a markup that leaves a dead stone out changes the count.
    if opts.dead_stones == DeadStonesMode::Auto && dead.source == DeadSource::Markup {
        let e = dead_stones::estimate(board, end.to_move());
        // Stones rule 7 makes dead are C607's to report, not a dispute.
        let mut with_rule7 = (dead.black.clone(), dead.white.clone());
        for p in &dead.added_by_rule7 {
            match board.get(*p) {
                Some(Color::Black) => with_rule7.0.push(*p),
                Some(Color::White) => with_rule7.1.push(*p),
                None => {}
            }
        }
        with_rule7.0.sort_by_key(|p| (p.y, p.x));
        with_rule7.1.sort_by_key(|p| (p.y, p.x));
        let disputes = |own: &[Point], theirs: &[Point]| own != theirs;
        if e.uncertain.is_empty()
            && (disputes(&e.black, &dead.black) || disputes(&e.white, &dead.white))
            && (disputes(&e.black, &with_rule7.0) || disputes(&e.white, &with_rule7.1))
        {
            let alt: Vec<Point> = e.black.iter().chain(&e.white).copied().collect();
            markup_disputed(&dead, &e, info, count_with(&alt), findings);
        }
    }
    if !dead.added_by_rule7.is_empty() {
        let mut with_rule7 = dead.all();
        with_rule7.extend(&dead.added_by_rule7);
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
                 last liberty (it would be suicide), dead by Japanese rule 7; the count keeps the \
                 players' agreement (with them dead {})",
                list.join(" and "),
                count_with(&with_rule7)
            ),
        ));
    }

    let divergence = divergences(&scores, &pos, end);
    Scoring::Scored(Box::new(Scored {
        dead,
        position: pos,
        scores,
        markup_scores,
        result_check,
        divergence,
    }))
}

/// C603: AGA's two counts promise the same margin (rule 12 with rules 4, 7 and
/// 11) for a game played from an empty board or handicap stones; when they
/// differ, say which causes the difference is made of. A position set up by
/// hand (problems, regression positions, stones removed by AE) makes no such
/// promise: its setup stones are in the area count and not in the territory
/// count.
fn aga_counts_differ(
    scores: &Scores,
    pos: &FinalPosition,
    end: &EndState,
    handicap: u32,
    findings: &mut Vec<Finding>,
) {
    let (t, a) = (scores.aga.margin, scores.aga_area.margin);
    if (t - a).abs() <= 1e-9 || end.setup {
        return;
    }
    let ct = Components::of(Counting::AgaTerritory, &scores.aga, pos, end);
    let ca = Components::of(Counting::AgaArea, &scores.aga_area, pos, end);
    let causes: Vec<String> = ca
        .iter()
        .zip(ct.iter())
        .filter(|((_, a), (_, t))| (a - t).abs() > 1e-9)
        .map(|((name, a), (_, t))| format!("{name} {:+}", a - t))
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

/// C609: the rules' count of the markup's position differs from the record's
/// own count; names the points the two count differently, and why.
fn rules_differ_from_markup(
    c: Counting,
    scores: &Scores,
    markup_scores: Option<&Scores>,
    pos: &FinalPosition,
    board: &Board,
    m: &Markup,
    findings: &mut Vec<Finding>,
) {
    let Some(marked) = markup_scores else { return };
    let (rules, own) = (scores.get(c), marked.get(c));
    if (rules.margin - own.margin).abs() < 1e-9 {
        return;
    }
    let n = usize::from(board.size());
    let mut marks = vec![None; n * n];
    for (points, colour) in [
        (&m.black_territory, Color::Black),
        (&m.white_territory, Color::White),
    ] {
        for p in points.iter().filter(|p| board.contains(**p)) {
            marks[usize::from(p.y) * n + usize::from(p.x)] = Some(colour);
        }
    }
    let japanese = c == Counting::Japanese;
    let mut points = Vec::new();
    for (i, owner) in pos.owner.iter().enumerate() {
        let p = Point::new((i % n) as u8, (i / n) as u8);
        // Only empty points and the points of dead stones can be territory.
        if board.get(p).is_some() && owner.is_none() {
            continue;
        }
        let why = if japanese && pos.fill_points.contains(&p) {
            Some("to fill")
        } else if japanese && pos.seki_eye_points.contains(&p) {
            Some("seki eye")
        } else {
            None
        };
        let counted = if why.is_some() { None } else { *owner };
        let mark = marks[i];
        if counted == mark {
            continue;
        }
        let text = match (counted, mark) {
            (None, Some(mc)) => format!(
                "{} ({}) marked {}'s, no territory by the rules ({})",
                p.human(board.size()),
                p.sgf(),
                mc.letter(),
                why.unwrap_or("neutral")
            ),
            (Some(rc), None) => format!(
                "{} ({}) {}'s by the rules, unmarked",
                p.human(board.size()),
                p.sgf(),
                rc.letter()
            ),
            (Some(rc), Some(mc)) => format!(
                "{} ({}) {}'s by the rules, marked {}'s",
                p.human(board.size()),
                p.sgf(),
                rc.letter(),
                mc.letter()
            ),
            (None, None) => continue,
        };
        points.push(text);
    }
    const SHOWN: usize = 8;
    let more = points.len().saturating_sub(SHOWN);
    points.truncate(SHOWN);
    let mut detail = if points.is_empty() {
        "the territory is the same; the difference is in the stones or prisoners".to_string()
    } else {
        points.join("; ")
    };
    if more > 0 {
        detail.push_str(&format!("; {more} more"));
    }
    findings.push(Finding::new(
        Code::RulesCountDiffers,
        format!(
            "the {} count of the final position gives {}, the record's own count {}: {detail}",
            c.key(),
            rules.result(),
            own.result()
        ),
    ));
}

/// C606: the markup's dead stones differ from an estimate with no stone in doubt.
fn markup_disputed(
    dead: &DeadStones,
    e: &dead_stones::Estimate,
    info: &GameInfo,
    count: String,
    findings: &mut Vec<Finding>,
) {
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
             dead stones {count}{re}",
            diffs.join(" and "),
        ),
    ));
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
