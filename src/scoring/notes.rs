//! The findings about a count: AGA's two counts differ (C603), the markup's
//! dead stones against an estimate (C606), the stones rule 7 names (C607), and
//! the rules' count against the record's own (C609).

use super::counting::{format_margin, Counting, Scores};
use super::divergence::Components;
use super::final_position::FinalPosition;
use super::DeadStones;
use crate::core::board::{Board, Color, Point};
use crate::core::findings::{Code, Finding};
use crate::core::game::{GameInfo, Markup};
use crate::core::replay::EndState;
use crate::dead_stones;

/// C603: AGA's two counts promise the same margin (rule 12 with rules 4, 7 and
/// 11) for a game played from an empty board or handicap stones; when they
/// differ, say which causes the difference is made of. A position set up by
/// hand (problems, regression positions, stones removed by AE) makes no such
/// promise: its setup stones are in the area count and not in the territory
/// count.
pub fn aga_counts_differ(
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
/// own count; names the points the two count differently, and why. Without a
/// declared counting (no RU) the caller asks only when no counting gives RE,
/// and the Japanese count is compared, the one the record's own count uses then.
pub fn rules_differ_from_markup(
    declared: Option<Counting>,
    scores: &Scores,
    marked: &Scores,
    pos: &FinalPosition,
    board: &Board,
    m: &Markup,
    findings: &mut Vec<Finding>,
) {
    let c = declared.unwrap_or(Counting::Japanese);
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
    let detail = if points.is_empty() {
        "the territory is the same; the difference is in the stones or prisoners".to_string()
    } else {
        with_more(points)
    };
    findings.push(Finding::new(
        Code::RulesCountDiffers,
        format!(
            "{}the {} count of the final position gives {}, the record's own count {}: {detail}",
            if declared.is_none() {
                "no RU, and no counting of the final position gives RE: "
            } else {
                ""
            },
            c.key(),
            rules.result(),
            own.result()
        ),
    ));
}

/// The points Japanese rule 8 leaves out of territory, named with their
/// owner and why: "R14 (qf) W's, to fill; A19 (aa) B's, seki eye". Empty when
/// there are none.
pub fn rule8_points(pos: &FinalPosition, board: &Board) -> String {
    let size = board.size();
    let mut points: Vec<(Point, &str)> = pos
        .fill_points
        .iter()
        .map(|&p| (p, "to fill"))
        .chain(pos.seki_eye_points.iter().map(|&p| (p, "seki eye")))
        .collect();
    points.sort_by_key(|(p, _)| (p.y, p.x));
    let n = usize::from(size);
    let named: Vec<String> = points
        .iter()
        .filter_map(|&(p, why)| {
            let owner = pos.owner[usize::from(p.y) * n + usize::from(p.x)]?;
            Some(format!(
                "{} ({}) {}'s, {why}",
                p.human(size),
                p.sgf(),
                owner.letter()
            ))
        })
        .collect();
    with_more(named)
}

/// The first [`SHOWN`] items joined, and how many more there are.
fn with_more(mut items: Vec<String>) -> String {
    let more = items.len().saturating_sub(SHOWN);
    items.truncate(SHOWN);
    let mut out = items.join("; ");
    if more > 0 {
        out.push_str(&format!("; {more} more"));
    }
    out
}

/// Points named at most in one finding.
const SHOWN: usize = 8;

/// C606: the markup's dead stones differ from an estimate with no stone in
/// doubt (beyond the stones rule 7 names, which are C607's to report); gives
/// the count with the estimate's dead stones (`count_with`).
pub fn markup_disputed(
    board: &Board,
    dead: &DeadStones,
    e: &dead_stones::Estimate,
    info: &GameInfo,
    findings: &mut Vec<Finding>,
    count_with: impl Fn(&[Point]) -> String,
) {
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
    let agrees = |black: &[Point], white: &[Point]| e.black == black && e.white == white;
    if !e.uncertain.is_empty()
        || agrees(&dead.black, &dead.white)
        || agrees(&with_rule7.0, &with_rule7.1)
    {
        return;
    }
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
    let alt: Vec<Point> = e.black.iter().chain(&e.white).copied().collect();
    findings.push(Finding::new(
        Code::MarkupDisputed,
        format!(
            "the markup {}, against an estimate with no stone in doubt; with the estimate's \
             dead stones {}{re}",
            diffs.join(" and "),
            count_with(&alt)
        ),
    ));
}

/// C607: the stones the markup leaves standing that Japanese rule 7 makes dead
/// ([`super::markup::dead_by_rule7`]); gives the count with them dead
/// (`count_with`).
pub fn rule7_stones(
    board: &Board,
    dead: &DeadStones,
    findings: &mut Vec<Finding>,
    count_with: impl Fn(&[Point]) -> String,
) {
    if dead.added_by_rule7.is_empty() {
        return;
    }
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
            "the markup leaves standing {}: stones in atari whose owner cannot fill the last \
             liberty (it would be suicide) and whose capture leaves no room to live, dead by \
             Japanese rule 7; the count keeps the players' agreement (with them dead {})",
            list.join(" and "),
            count_with(&with_rule7)
        ),
    ));
}
