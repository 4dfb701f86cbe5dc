//! The positions a report draws (`AuditOptions::pictures`): the board around
//! a game's most severe finding with a move, and the final position of a
//! scored game. Taken in the worker that audited the game, only for games
//! worth a picture (a finding at a move of warning level or above, a result
//! that does not match, a winner that changes between countings), so a run
//! of clean games pays nothing.

use crate::core::board::{Point, Snapshot};
use crate::core::findings::{Finding, Severity};
use crate::core::game::{Event, GameRecord, MoveKind};
use crate::core::replay::Replayer;
use crate::scoring::Scoring;

/// How many of the last moves up to the pictured one carry their number.
pub const NUMBERED_MOVES: usize = 10;

/// The positions drawn for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Pictures {
    /// Around the game's most severe finding with a move (the earliest of
    /// them on a tie).
    pub at_move: Option<MovePicture>,
    /// The final position of a scored game, dead stones still on the board.
    pub final_position: Option<Snapshot>,
}

/// The board before and after one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePicture {
    /// From 1, as findings count moves.
    pub move_number: u32,
    /// Where the move was played; `None` for a pass.
    pub point: Option<Point>,
    pub before: Snapshot,
    pub after: Snapshot,
    /// Stones the move removed (for a ko retake: the stone that had just
    /// taken the ko).
    pub captured: Vec<Point>,
    /// The last [`NUMBERED_MOVES`] moves up to this one that still stand
    /// after it, with their numbers.
    pub numbered: Vec<(Point, u32)>,
}

/// Whether a game's results call for pictures.
pub fn wanted(findings: &[Finding], scoring: &Scoring) -> bool {
    let at_move = findings
        .iter()
        .any(|f| f.move_number.is_some() && f.severity >= Severity::Warning);
    let scored_badly = match scoring {
        Scoring::Scored(s) => s.result_mismatch() || s.winner_changes(),
        Scoring::NotScored(_) => false,
    };
    at_move || scored_badly
}

/// The pictures of a game: `final_board` is its last position; the replayer
/// is reused to rebuild the position around the finding.
pub fn take(
    record: &GameRecord,
    findings: &[Finding],
    scoring: &Scoring,
    final_board: Snapshot,
    replayer: &mut Replayer,
) -> Pictures {
    let worst = findings
        .iter()
        .filter(|f| f.move_number.is_some())
        .max_by_key(|f| (f.severity, std::cmp::Reverse(f.move_number)));
    let at_move = worst
        .and_then(|f| f.move_number)
        .and_then(|m| around(record, m, replayer));
    let final_position = matches!(scoring, Scoring::Scored(_)).then_some(final_board);
    Pictures {
        at_move,
        final_position,
    }
}

fn around(record: &GameRecord, m: u32, replayer: &mut Replayer) -> Option<MovePicture> {
    let (before, after) = record.around_move(m)?;
    let point = match after.events.last() {
        Some(Event::Move {
            kind: MoveKind::Place(p),
            ..
        }) => Some(*p),
        _ => None,
    };
    replayer.replay(&before, &Default::default());
    let before_board = replayer.board().snapshot();
    replayer.replay(&after, &Default::default());
    let after_board = replayer.board().snapshot();
    let n = before_board.size();
    let captured = (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&p| before_board.get(p).is_some() && after_board.get(p).is_none())
        .collect();
    let mut numbered: Vec<(Point, u32)> = Vec::new();
    let mut number = 0u32;
    for e in &after.events {
        if let Event::Move { color, kind } = e {
            number += 1;
            if let MoveKind::Place(p) = kind {
                if after_board.get(*p) == Some(*color) {
                    numbered.retain(|(q, _)| q != p);
                    numbered.push((*p, number));
                }
            }
        }
    }
    let first = numbered
        .iter()
        .position(|(_, k)| *k + NUMBERED_MOVES as u32 > m)
        .unwrap_or(numbered.len());
    numbered.drain(..first);
    Some(MovePicture {
        move_number: m,
        point,
        before: before_board,
        after: after_board,
        captured,
        numbered,
    })
}
