//! ONE replay of a record's main line, judged under all three rulesets at once.
//!
//! The board sequence is the record's: every move is played as recorded (AGA rule 8:
//! once the opponent has replied, "the game continues as it stands"), so findings
//! after an illegal move stay meaningful. Only the verdicts differ per ruleset.
//!
//! Repetitions are found through three hash maps of earlier positions (all
//! positions; positions right after each player's placements; positions right after
//! each player's moves, passes included), keyed by the incremental Zobrist hash,
//! XOR-ed with a player key for the situational variants. A hash match alone never
//! convicts: the earlier board is rebuilt from the change log and compared.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::core::board::{Board, BoardSize, Color, Point, Snapshot, MAX_CELLS, PLAYER_KEY};
use crate::core::findings::{CappedFindings, Code, Finding, Severity};
use crate::core::game::{Event, GameRecord, MoveKind};
use crate::core::rules::{
    self, AgaSuperko, Binding, IllegalKind, PlacementFacts, Repetition, RuleOptions, Ruleset,
    RulesetSet, SameColour,
};

/// An illegal move under one ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Illegal {
    pub move_number: u32,
    pub kind: IllegalKind,
    pub point: Option<Point>,
    pub color: Color,
}

/// The verdict of one ruleset on the whole record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesetVerdict {
    pub illegal: Vec<Illegal>,
    /// Japanese rule 12: the move whose placement first recreated an earlier
    /// whole-board position (a possible "no result"). Always `None` elsewhere.
    pub no_result: Option<u32>,
}

/// The verdict of each ruleset, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdicts {
    pub aga: RulesetVerdict,
    pub japanese: RulesetVerdict,
    pub swedish: RulesetVerdict,
}

impl Verdicts {
    pub fn get(&self, r: Ruleset) -> &RulesetVerdict {
        match r {
            Ruleset::Aga => &self.aga,
            Ruleset::Japanese => &self.japanese,
            Ruleset::Swedish => &self.swedish,
        }
    }

    fn get_mut(&mut self, r: Ruleset) -> &mut RulesetVerdict {
        match r {
            Ruleset::Aga => &mut self.aga,
            Ruleset::Japanese => &mut self.japanese,
            Ruleset::Swedish => &mut self.swedish,
        }
    }

    /// Each ruleset with its verdict, in [`Ruleset::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Ruleset, &RulesetVerdict)> {
        Ruleset::ALL.into_iter().map(move |r| (r, self.get(r)))
    }
}

/// The state of play at the end of a run of two passes (see
/// [`EndState::pass_pairs`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassPair {
    /// Stones placed by Black and White by then.
    pub placed: [u32; 2],
    /// The board then, kept at the second pair only (KataGo counts the
    /// stones that stand from then on as they stand).
    pub board: Option<Snapshot>,
}

/// A run of passes reached an even length: keep the state of play then
/// ([`EndState::pass_pairs`]).
#[cold]
fn note_pass_pair(end: &mut EndState, board: &Board) {
    let board = (end.pass_pairs.len() == 1).then(|| board.snapshot());
    end.pass_pairs.push(PassPair {
        placed: end.placed,
        board,
    });
}

/// How the record ended, for scoring.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndState {
    /// Consecutive passes at the very end of the record.
    pub trailing_passes: u32,
    /// The colour that made the last move (pass or placement).
    pub last_mover: Option<Color>,
    /// Passes by Black and White, omitted passes included.
    pub passes: [u32; 2],
    /// The colour that passed first (an omitted pass included).
    pub first_passer: Option<Color>,
    /// The first two times a run of passes reached an even length (two, four,
    /// ... passes in a row): where KataGo's territory rules end the main phase
    /// and then the first phase of the encore.
    pub pass_pairs: Vec<PassPair>,
    /// Stones captured by Black and by White during play (prisoners held).
    pub captures: [u32; 2],
    /// Stones placed by Black and White (handicap stones given as moves included).
    pub placed: [u32; 2],
    /// Handicap stones on the board before White's first move (setup or moves).
    pub handicap_stones: u32,
    /// Play resumed after two consecutive passes at least once.
    pub resumed: bool,
    /// Setup stones other than handicap stones changed the board (a position
    /// set up before the first move, or setup during play): the game did not
    /// start from an empty board or handicap stones.
    pub setup: bool,
}

impl EndState {
    /// The colour whose turn it is after the record's last move: the one who
    /// moves first if play resumes (AGA rule 10: the opponent of the last passer).
    /// With no move at all, White after handicap stones, else Black.
    pub fn to_move(&self) -> Color {
        match self.last_mover {
            Some(c) => c.opponent(),
            None if self.handicap_stones > 0 => Color::White,
            None => Color::Black,
        }
    }
}

/// What the replay of one record found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayOutcome {
    /// Move events replayed (passes count, setup does not).
    pub moves: u32,
    pub findings: Vec<Finding>,
    pub verdicts: Verdicts,
    pub end: EndState,
}

/// A hasher for keys that are already Zobrist hashes: it passes them through.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type PositionMap = HashMap<u64, u32, BuildHasherDefault<PassThrough>>;

/// Positions each map makes room for before a replay, at most: more than
/// any game played to its end records.
const MAP_ROOM: usize = 4096;

/// One position of the game's history.
#[derive(Clone, Copy)]
struct Entry {
    /// Length of the board's change log right after this position arose.
    log_end: u32,
    /// The move that produced it (0: before the first move).
    move_number: u32,
}

/// The replay machine. Reuse one per thread: it keeps its board and maps between
/// games, so a replay allocates only when a game is longer than any before it.
pub struct Replayer {
    board: Box<Board>,
    scratch: Box<[u8; MAX_CELLS]>,
    history: Vec<Entry>,
    positional: PositionMap,
    /// Positions keyed by the player who made them (`hash ^ PLAYER_KEY`): after
    /// placements, plus after passes for plain situational superko (AGA rule 6).
    own: PositionMap,
}

impl Default for Replayer {
    fn default() -> Self {
        Replayer::new()
    }
}

/// A repetition lookup: the most recent earlier history index with that key.
#[derive(Clone, Copy)]
enum Map {
    Positional,
    Own,
}

impl Replayer {
    pub fn new() -> Replayer {
        Replayer {
            board: Board::new(BoardSize::STANDARD),
            scratch: Box::new([0; MAX_CELLS]),
            history: Vec::new(),
            positional: PositionMap::default(),
            own: PositionMap::default(),
        }
    }

    /// The board as the last replay left it (the final position of the record).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Replays the main line of `record` once and judges every move under AGA,
    /// Japanese and Swedish rules.
    pub fn replay(&mut self, record: &GameRecord, opts: &RuleOptions) -> ReplayOutcome {
        let events = record.events.len();
        self.board.reset(record.size);
        self.board.reserve_moves(events);
        self.history.clear();
        self.history.reserve(events + 1);
        // A position is recorded per legal placement: room for an ordinary
        // game's at once, grown past that only as positions arise (a record
        // of 500,000 moves on one occupied point has a handful).
        for m in [&mut self.positional, &mut self.own] {
            m.clear();
            m.reserve(events.min(MAP_ROOM) + 1);
        }
        let mut run = Run::new(record, opts);
        for (i, event) in record.events.iter().enumerate() {
            match *event {
                Event::Setup { start, len } => {
                    self.setup(&mut run, record.setup_points(start, len), i)
                }
                Event::Move { color, kind } => self.play(&mut run, color, kind),
            }
        }
        run.finish()
    }

    fn push_entry(&mut self, move_number: u32) -> u32 {
        let idx = self.history.len() as u32;
        self.history.push(Entry {
            log_end: self.board.log_len() as u32,
            move_number,
        });
        self.positional.insert(self.board.hash(), idx);
        idx
    }

    /// Records the position before the first move, counted (AGA commentary to
    /// rule 6) as created by the player who does not move first.
    fn ensure_initial(&mut self, first_mover: Color) {
        if self.history.is_empty() {
            let idx = self.push_entry(0);
            let key = self.board.hash() ^ PLAYER_KEY[first_mover.opponent().index()];
            self.own.insert(key, idx);
        }
    }

    fn setup(&mut self, run: &mut Run, points: &[(Point, Option<Color>)], event_index: usize) {
        self.board.set_points(points.iter().copied());
        run.ko_ban = None;
        if run.moves > 0 {
            run.end.setup = true;
            run.note(
                Finding::new(
                    Code::SetupInGame,
                    format!(
                        "setup stones change the board after move {} (node event {event_index})",
                        run.moves
                    ),
                )
                .at_move(run.moves),
            );
            // The board changed outside play: it is a position of the game for the
            // positional rule, but nobody "created" it by a move.
            self.push_entry(run.moves);
        }
    }

    /// Looks a key up in one map and confirms the match by comparing boards.
    fn repetition(&mut self, map: Map, key: u64) -> Option<(Repetition, u32)> {
        let m = match map {
            Map::Positional => &self.positional,
            Map::Own => &self.own,
        };
        let idx = *m.get(&key)?;
        let entry = self.history[idx as usize];
        if !self
            .board
            .equals_at(entry.log_end as usize, &mut self.scratch)
        {
            return None; // a hash collision: never convict on the hash alone
        }
        let current = self.history.len() as u32;
        let rep = if idx + 2 == current {
            Repetition::Immediate
        } else {
            Repetition::Earlier
        };
        Some((rep, entry.move_number))
    }

    fn play(&mut self, run: &mut Run, color: Color, kind: MoveKind) {
        run.moves += 1;
        let n = run.moves;
        self.ensure_initial(color);
        run.check_turn(color);
        run.end.last_mover = Some(color);
        let ko_ban = run.ko_ban.take();
        let player = PLAYER_KEY[color.index()];
        match kind {
            MoveKind::Pass => {
                run.consecutive_passes += 1;
                run.end.passes[color.index()] += 1;
                run.end.first_passer.get_or_insert(color);
                if run.consecutive_passes.is_multiple_of(2) && run.end.pass_pairs.len() < 2 {
                    note_pass_pair(&mut run.end, &self.board);
                }
                let idx = self.push_entry(n);
                if run.opts.aga_superko == AgaSuperko::Situational {
                    self.own.insert(self.board.hash() ^ player, idx);
                }
            }
            MoveKind::OffBoard { .. } | MoveKind::Unreadable => {
                self.unplayable(run, n, color, kind)
            }
            MoveKind::Place(p) if !self.board.contains(p) => self.unplayable(run, n, color, kind),
            MoveKind::Place(p) if self.board.get(p).is_some() => {
                run.note_placement();
                let size = self.board.size();
                let set = rules::judge_unplayable(IllegalKind::Occupied);
                run.illegal(
                    n,
                    IllegalKind::Occupied,
                    Some(p),
                    color,
                    set,
                    set,
                    0,
                    || {
                        format!(
                            "{} {} ({}) on an occupied point; the board is left unchanged",
                            color.letter(),
                            p.human(size),
                            p.sgf()
                        )
                    },
                );
                self.push_entry(n);
            }
            MoveKind::Place(p) => {
                run.note_placement();
                if !run.encore_ko_blocks.is_empty() {
                    if let Some(blocked) = self.blocked_ko_retaken(run, p, color) {
                        self.pass_for_ko(run, n, p, color, blocked);
                        return;
                    }
                }
                let cell = self.board.cell(p);
                let placed = self.board.place(p, color);
                run.end.placed[color.index()] += 1;
                run.end.captures[color.index()] += placed.captured;
                // A self-captured string is lifted as the opponent's prisoners.
                run.end.captures[color.opponent().index()] += placed.self_captured;
                let hash = self.board.hash();
                let positional = self.repetition(Map::Positional, hash);
                let own = self.repetition(Map::Own, hash ^ player);
                let facts = PlacementFacts {
                    self_captured: placed.self_captured,
                    retakes_banned_ko: ko_ban == Some((cell, color)),
                    positional: positional.map(|r| r.0),
                    own_position: own.map(|r| r.0),
                };
                let earlier = positional.or(own).map(|r| r.1);
                self.judge(run, n, p, color, &facts, earlier, placed.self_captured);
                let idx = self.push_entry(n);
                self.own.insert(hash ^ player, idx);
                let takes_ko = placed.captured == 1
                    && placed.single_stone_one_liberty
                    && placed.self_captured == 0;
                if takes_ko {
                    if let Some(k) = placed.captured_single {
                        run.ko_ban = Some((k, color.opponent()));
                    }
                }
                if run.binding.encore {
                    self.track_encore_kos(run, cell, takes_ko);
                }
            }
        }
    }

    /// KataGo's encore: after a placement, lift the blocks whose stone is
    /// gone, and block the stone that took a ko.
    #[cold]
    fn track_encore_kos(&self, run: &mut Run, cell: u16, takes_ko: bool) {
        if !run.in_encore() {
            return;
        }
        let board = &self.board;
        run.encore_ko_blocks
            .retain(|&c| board.get(board.point(c)).is_some());
        if takes_ko {
            run.encore_ko_blocks.push(cell);
        }
    }

    /// KataGo's encore: the blocked stone (see `Run::encore_ko_blocks`) a
    /// stone on `p` would take back as a ko, if any.
    fn blocked_ko_retaken(&self, run: &Run, p: Point, color: Color) -> Option<u16> {
        if !run.in_encore() || run.encore_ko_blocks.is_empty() {
            return None;
        }
        let taken = self.board.cell(self.board.ko_capture_at(p, color)?);
        run.encore_ko_blocks.contains(&taken).then_some(taken)
    }

    /// A stone that would take back a blocked ko in KataGo's encore is a
    /// pass for that ko: it lifts the block and places nothing (A510).
    fn pass_for_ko(&mut self, run: &mut Run, n: u32, p: Point, color: Color, blocked: u16) {
        run.encore_ko_blocks.retain(|&c| c != blocked);
        let size = self.board.size();
        run.note(
            Finding::new(
                Code::PassForKo,
                format!(
                    "{} {} ({}) takes back a ko blocked in the encore of the declared rules \
                     ({}): a pass for that ko, the board is left unchanged",
                    color.letter(),
                    p.human(size),
                    p.sgf(),
                    run.binding.name
                ),
            )
            .at_move(n)
            .with_point(Some(p))
            .with_color(color),
        );
        self.push_entry(n);
    }

    /// A move no ruleset can play (off the board, or an unreadable point): reported
    /// as off-board under all three; the board is left unchanged.
    fn unplayable(&mut self, run: &mut Run, n: u32, color: Color, kind: MoveKind) {
        run.note_placement();
        let size = run.size;
        let what = match kind {
            MoveKind::OffBoard { x, y } => format!("off the board at ({x}, {y})"),
            MoveKind::Place(p) => format!("off the board at {}", p.sgf()),
            _ => "at an unreadable point (see P303)".to_string(),
        };
        let set = rules::judge_unplayable(IllegalKind::OffBoard);
        run.illegal(n, IllegalKind::OffBoard, None, color, set, set, 0, || {
            format!("{} played {what} on {size}x{size}", color.letter())
        });
        self.push_entry(n);
    }

    #[allow(clippy::too_many_arguments)]
    fn judge(
        &self,
        run: &mut Run,
        n: u32,
        p: Point,
        color: Color,
        facts: &PlacementFacts,
        earlier: Option<u32>,
        self_captured: u32,
    ) {
        let mut by_kind: [(IllegalKind, RulesetSet); 3] = [
            (IllegalKind::Suicide, RulesetSet::EMPTY),
            (IllegalKind::Ko, RulesetSet::EMPTY),
            (IllegalKind::Superko, RulesetSet::EMPTY),
        ];
        let mut japanese_illegal = false;
        for r in Ruleset::ALL {
            if let Some(k) = rules::judge_placement(r, facts, &run.opts) {
                if r == Ruleset::Japanese {
                    japanese_illegal = true;
                }
                for slot in by_kind.iter_mut() {
                    if slot.0 == k {
                        slot.1 = slot.1.with(r);
                    }
                }
            }
        }
        let size = self.board.size();
        // Built only when there is something to say: no allocation per legal move.
        let at = || format!("{} {} ({})", color.letter(), p.human(size), p.sgf());
        for (kind, set) in by_kind {
            if set.is_empty() {
                continue;
            }
            // A suicide's repetition is named by the rulesets that allow
            // suicide; those that forbid it name the suicide. Declared rules
            // that allow the suicide judge it by their repetition rule alone.
            let broken = if kind == IllegalKind::Superko {
                set.union(rules::repetition_rules_broken(facts))
            } else {
                set
            };
            run.illegal(
                n,
                kind,
                Some(p),
                color,
                set,
                broken,
                self_captured,
                || match kind {
                    IllegalKind::Suicide => format!(
                        "{} is suicide: {self_captured} own stone(s) left without liberties",
                        at()
                    ),
                    IllegalKind::Ko => format!("{} retakes the ko at once", at()),
                    _ if self_captured > 0 => format!(
                        "{} is suicide that recreates the position after move {}",
                        at(),
                        earlier.unwrap_or(0)
                    ),
                    _ => format!(
                        "{} recreates the whole-board position after move {}",
                        at(),
                        earlier.unwrap_or(0)
                    ),
                },
            );
        }
        let j = &mut run.verdicts.japanese;
        if j.no_result.is_none() && rules::japanese_no_result(facts, japanese_illegal) {
            j.no_result = Some(n);
            // Rule 12 matters to records played under Japanese rules, not
            // to those under KataGo's territory rules (which bind the
            // Japanese verdicts but end a game with no result only at a
            // position's third occurrence).
            let severity =
                if run.binding.rulesets.contains(Ruleset::Japanese) && !run.binding.encore {
                    Severity::Warning
                } else {
                    Severity::Info
                };
            run.note(
                Finding::new(
                    Code::NoResultRepetition,
                    format!(
                        "{} recreates the whole-board position after move {}: \
                         a possible no result under Japanese rule 12",
                        at(),
                        earlier.unwrap_or(0)
                    ),
                )
                .at_move(n)
                .with_point(Some(p))
                .with_color(color)
                .under(RulesetSet::of(Ruleset::Japanese))
                .with_severity(severity),
            );
        }
    }
}

/// The per-game state of a replay that is not the board.
struct Run {
    opts: RuleOptions,
    /// The verdicts the record's declared rules make binding.
    binding: Binding,
    size: u8,
    machine_written: bool,
    moves: u32,
    to_move: Option<Color>,
    /// Handicap stones given as the first moves: moves 1..=this are Black's stones.
    handicap_moves: u32,
    consecutive_passes: u32,
    ko_ban: Option<(u16, Color)>,
    /// In the encore of declared rules that have one (KataGo's): the stones
    /// that took a ko there and may not be taken back until the other
    /// player passes for that ko.
    encore_ko_blocks: Vec<u16>,
    findings: CappedFindings,
    verdicts: Verdicts,
    end: EndState,
}

/// Findings the replay lists per game (the cap its reading has too), kept
/// here where it was first defined.
pub use crate::core::findings::MAX_FINDINGS;

impl Run {
    fn new(record: &GameRecord, opts: &RuleOptions) -> Run {
        let mut root_black = 0u32;
        let mut root_white = 0u32;
        let mut first_move: Option<usize> = None;
        for (i, e) in record.events.iter().enumerate() {
            match *e {
                Event::Setup { start, len } => {
                    for &(_, c) in record.setup_points(start, len) {
                        match c {
                            Some(Color::Black) => root_black += 1,
                            Some(Color::White) => root_white += 1,
                            None => {}
                        }
                    }
                }
                Event::Move { .. } => {
                    first_move = Some(i);
                    break;
                }
            }
        }
        let ha = record.handicap;
        let mut findings = CappedFindings::default();
        let mut handicap_moves = 0;
        let mut handicap_stones = 0;
        if ha >= 2 {
            if root_white > 0 {
                // A position set up mid-game (problems, regression tests): the
                // handicap is among the setup stones; take HA as recorded.
                handicap_stones = ha;
            } else if root_black > 0 {
                handicap_stones = root_black;
                if root_black != ha {
                    findings.push(Finding::new(
                        Code::HandicapMismatch,
                        format!(
                            "HA[{ha}] but the root sets up {root_black} black and {root_white} white stone(s)"
                        ),
                    ));
                }
            } else if let Some(start) = first_move {
                let black_run = record.events[start..]
                    .iter()
                    .take(ha as usize)
                    .filter(|e| {
                        matches!(
                            e,
                            Event::Move {
                                color: Color::Black,
                                kind: MoveKind::Place(_)
                            }
                        )
                    })
                    .count() as u32;
                if black_run == ha {
                    handicap_moves = ha;
                    handicap_stones = ha;
                    findings.push(
                        Finding::new(
                            Code::HandicapAsMoves,
                            format!("HA[{ha}]: the {ha} handicap stones are given as moves 1-{ha}"),
                        )
                        .at_move(1),
                    );
                } else {
                    findings.push(Finding::new(
                        Code::HandicapMismatch,
                        format!("HA[{ha}] but no handicap stones are set up or played first"),
                    ));
                }
            }
        }
        let setup_present = root_black + root_white > 0;
        let to_move = record.first_player.or(if handicap_stones > 0 {
            Some(Color::White)
        } else if setup_present {
            None // positions and problems: whoever moves first is fine
        } else {
            Some(Color::Black)
        });
        Run {
            opts: *opts,
            binding: record.binding(),
            size: record.size.get(),
            machine_written: record.machine_written,
            moves: 0,
            to_move,
            handicap_moves,
            consecutive_passes: 0,
            ko_ban: None,
            encore_ko_blocks: Vec::new(),
            findings,
            verdicts: Default::default(),
            end: EndState {
                handicap_stones,
                // Black setup stones that are the handicap are no position.
                setup: root_white > 0 || (root_black > 0 && handicap_stones != root_black),
                ..Default::default()
            },
        }
    }

    /// Checks the colour of move `self.moves` against the turn and updates it.
    fn check_turn(&mut self, color: Color) {
        let n = self.moves;
        if n <= self.handicap_moves {
            self.to_move = Some(if n == self.handicap_moves {
                Color::White
            } else {
                Color::Black
            });
            return;
        }
        if let Some(expected) = self.to_move {
            if expected != color {
                if n == 1 {
                    self.note(
                        Finding::new(
                            Code::FirstPlayer,
                            format!(
                                "{} made the first move; {} was expected",
                                color.letter(),
                                expected.letter()
                            ),
                        )
                        .at_move(1)
                        .with_color(color),
                    );
                } else if self.reads_as_omitted_pass() {
                    let opp = color.opponent();
                    self.end.passes[opp.index()] += 1;
                    self.end.first_passer.get_or_insert(opp);
                    self.note(
                        Finding::new(
                            Code::OmittedPass,
                            format!(
                                "{} moves twice in a row; read as an omitted pass by {}",
                                color.letter(),
                                opp.letter()
                            ),
                        )
                        .at_move(n)
                        .with_color(color),
                    );
                } else {
                    let set = rules::judge_wrong_turn();
                    self.illegal(n, IllegalKind::WrongTurn, None, color, set, set, 0, || {
                        format!("{} moves twice in a row", color.letter())
                    });
                }
            }
        }
        self.to_move = Some(color.opponent());
    }

    /// Records a finding, keeping at most [`MAX_FINDINGS`] per game (a pathological
    /// record can have millions); the rest are counted per code and summarised.
    fn note(&mut self, f: Finding) {
        self.findings.push(f);
    }

    fn reads_as_omitted_pass(&self) -> bool {
        match self.opts.same_colour {
            SameColour::Auto => self.machine_written,
            SameColour::OmittedPass => true,
            SameColour::WrongTurn => false,
        }
    }

    /// Play is in the encore of declared rules that have one (KataGo's
    /// territory rules: after the first run of two passes).
    fn in_encore(&self) -> bool {
        self.binding.encore && !self.end.pass_pairs.is_empty()
    }

    /// A placement attempt (legal or not): ends a run of passes.
    fn note_placement(&mut self) {
        if self.consecutive_passes >= 2 {
            self.end.resumed = true;
            let passes = self.consecutive_passes;
            let finding = if self.binding.encore {
                // The declared rules play on after two passes: no dispute.
                Finding::new(
                    Code::PlayAfterEnd,
                    format!(
                        "play goes on after {passes} consecutive passes, in the encore of the \
                         declared rules ({})",
                        self.binding.name
                    ),
                )
                .with_severity(Severity::Info)
            } else {
                Finding::new(
                    Code::PlayAfterEnd,
                    format!("play resumes after {passes} consecutive passes"),
                )
            };
            self.note(finding.at_move(self.moves));
        }
        self.consecutive_passes = 0;
    }

    #[allow(clippy::too_many_arguments)]
    fn illegal(
        &mut self,
        n: u32,
        kind: IllegalKind,
        point: Option<Point>,
        color: Color,
        set: RulesetSet,
        broken: RulesetSet,
        self_captured: u32,
        message: impl FnOnce() -> String,
    ) {
        for r in set.iter() {
            self.verdicts.get_mut(r).illegal.push(Illegal {
                move_number: n,
                kind,
                point,
                color,
            });
        }
        // An error under the rules the record declares; otherwise a fact
        // about the other rulesets, for information.
        // `broken`: the rulesets whose rule the move breaks, for the binding
        // (a superset of `set` for a suicide that also repeats a position).
        // In an encore (KataGo's) no superko applies: a plain repetition
        // there is legal under the declared rules.
        let bound = if kind == IllegalKind::Superko && self_captured == 0 && self.in_encore() {
            RulesetSet::EMPTY
        } else {
            self.binding.for_move(kind, self_captured)
        };
        let (severity, message) = if broken.iter().any(|r| bound.contains(r)) {
            (Code::from(kind).severity(), message())
        } else {
            let rules: Vec<&str> = set.iter().map(|r| rules::source_rule(r, kind)).collect();
            (
                Severity::Info,
                format!(
                    "{}: legal under the declared rules ({}); would be illegal under {}",
                    message(),
                    self.binding.name,
                    rules.join(" and ")
                ),
            )
        };
        self.note(
            Finding::new(Code::from(kind), message)
                .at_move(n)
                .with_point(point)
                .with_color(color)
                .under(set)
                .with_severity(severity),
        );
    }

    fn finish(mut self) -> ReplayOutcome {
        self.end.trailing_passes = self.consecutive_passes;
        ReplayOutcome {
            moves: self.moves,
            findings: self.findings.into_vec(),
            verdicts: self.verdicts,
            end: self.end,
        }
    }
}
