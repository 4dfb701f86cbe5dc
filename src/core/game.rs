//! The game record as the core sees it: board size, game info and the main line as
//! a flat list of events. Built from SGF by `sgf::convert`; the core never sees SGF.

use crate::core::board::{BoardSize, Color, Point};
use crate::core::rules::Binding;

/// What a move event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Pass,
    /// A point on the board.
    Place(Point),
    /// Coordinates outside the board (raw SGF letters, 0-based).
    OffBoard {
        x: u8,
        y: u8,
    },
    /// A value that is not a point at all (e.g. `B[1]`); played as nothing.
    Unreadable,
}

/// One step of the main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Setup stones (`AB`/`AW`/`AE`) of one node: the range into
    /// [`GameRecord::setup`].
    Setup { start: u32, len: u32 },
    /// A `B` or `W` move.
    Move { color: Color, kind: MoveKind },
}

/// Territory markup (`TB`/`TW`) found in the last node(s) of the main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Markup {
    pub black_territory: Vec<Point>,
    pub white_territory: Vec<Point>,
}

/// Game information as recorded (free text, unparsed), for reports and checks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// `RU`
    pub rules: Option<String>,
    /// `RE`
    pub result: Option<String>,
    /// `PB`, `PW`
    pub black: Option<String>,
    pub white: Option<String>,
    /// `DT`
    pub date: Option<String>,
    /// `AP` (application name)
    pub application: Option<String>,
}

/// A game: the facts the replay and scoring need, nothing about text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    pub size: BoardSize,
    /// `HA` as recorded (0 when absent).
    pub handicap: u32,
    /// `KM` as read: in points, `None` when absent, ignored, or Fox's unwritten
    /// standard komi.
    pub komi: Option<f64>,
    /// `KM` as written, when [`GameRecord::komi`] reads it otherwise
    /// ([`KomiReading`]).
    pub komi_as_written: Option<f64>,
    /// `PL` in the root: who moves first after setup.
    pub first_player: Option<Color>,
    /// The record was written by software (an `AP`, or a server named in the game
    /// info): a same-colour double move there is an omitted pass, not a wrong turn.
    pub machine_written: bool,
    /// Events of the main line in order; root setup comes first.
    pub events: Vec<Event>,
    /// Setup points referenced by [`Event::Setup`]; `None` is `AE` (empty).
    pub setup: Vec<(Point, Option<Color>)>,
    /// Territory markup, if any.
    pub markup: Option<Markup>,
    /// The verdicts the record's declared rules (`RU`) make binding: a move
    /// illegal under them is an error, a move illegal only under other rulesets
    /// is reported for information. `None`: no rules declared (or none
    /// recognised), so all three bind.
    pub binding: Option<Binding>,
}

/// How a KM read otherwise than written was read (docs/RULES.md, "Komi").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KomiReading {
    /// Written x100, as Fox writes it: `KM[750]` is 7.5 points.
    Scaled,
    /// Written x100 in stones of two points (Chinese 子), a quarter left
    /// over: `KM[375]` is 3.75 stones, 7.5 points.
    ScaledStones,
    /// In stones, a quarter left over: `KM[3.75]` is 7.5 points.
    Stones,
    /// Fox's `KM[0]` in an even game: the server's standard komi, unwritten,
    /// read as no komi.
    Unwritten,
}

/// Whether `v` has a quarter left over (`.25`, `.75`): no komi or margin in
/// points has one (whole points, and a komi in half points), so such a
/// value is in stones of two points (Chinese 子).
pub fn in_stones(v: f64) -> bool {
    (v * 2.0).fract() != 0.0 && (v * 4.0).fract() == 0.0
}

impl KomiReading {
    /// KM as `written` read otherwise than written, with its reading, in
    /// points; `None` when it is read as written. One no board could give
    /// (100 points or more) is written by a server that scales it: Fox writes
    /// `KM[750]` for 7.5 points, and `KM[375]` for 3.75 stones (Chinese 子,
    /// two points each) = 7.5 points. A quarter point cannot be a komi in
    /// points, so a value with a quarter left over, scaled (`KM[375]`) or not
    /// (`KM[3.75]`), is read as stones.
    pub fn rescale(written: f64) -> Option<(KomiReading, f64)> {
        let scaled = written.abs() >= 100.0;
        let v = if scaled { written / 100.0 } else { written };
        match (in_stones(v), scaled) {
            (true, true) => Some((KomiReading::ScaledStones, v * 2.0)),
            (true, false) => Some((KomiReading::Stones, v * 2.0)),
            (false, true) => Some((KomiReading::Scaled, v)),
            (false, false) => None,
        }
    }

    /// The reading that took KM as `written` to `read` (in points; `None`:
    /// no komi), for a KM read otherwise than written.
    pub fn of(written: f64, read: Option<f64>) -> KomiReading {
        match (read, KomiReading::rescale(written)) {
            (Some(_), Some((reading, _))) => reading,
            // Read as no komi; a KM read as written has no reading to name.
            _ => KomiReading::Unwritten,
        }
    }
}

impl GameRecord {
    /// The record cut around its `n`-th move (from 1): the events before it,
    /// and the events up to and including it; `None` when it has fewer moves.
    /// The cuts carry no markup: it belongs to the end of the game.
    pub fn around_move(&self, n: u32) -> Option<(GameRecord, GameRecord)> {
        let at = self
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Event::Move { .. }))
            .nth(usize::try_from(n.checked_sub(1)?).ok()?)?
            .0;
        let cut = |end: usize| {
            let mut r = self.clone();
            r.events.truncate(end);
            r.markup = None;
            r
        };
        Some((cut(at), cut(at + 1)))
    }

    /// The verdicts that bind this record (all three rulesets' when none is declared).
    pub fn binding(&self) -> Binding {
        self.binding.unwrap_or(Binding::ALL)
    }

    /// The setup points of an [`Event::Setup`].
    pub fn setup_points(&self, start: u32, len: u32) -> &[(Point, Option<Color>)] {
        let s = start as usize;
        self.setup.get(s..s + len as usize).unwrap_or(&[])
    }

    /// Number of move events (B/W, passes included).
    pub fn move_count(&self) -> u32 {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Move { .. }))
            .count() as u32
    }
}
