//! Games recorded twice in one run: the same main line as an earlier game
//! (A508), or an earlier game that is a truncated copy of this one (A509).
//!
//! Each game's main line is reduced to 64-bit hashes, one after each move,
//! covering the board size, the setup stones and every move before it
//! ([`line_hashes`], computed by the workers). The check itself runs in input
//! order ([`Duplicates::check`]) and keeps one entry per distinct game: its
//! hash (with its game information's for a game shorter than
//! [`MIN_MOVES`]; such a game without players or date is not kept), its
//! name and a hash of its game information, so memory grows by
//! 56 bytes a distinct game (about 64 to 128 with the table's spare room) and
//! a name per file, whatever the game's length.
//!
//! Identical opening sequences are common, so a line counts as copied only
//! when it is long enough that a coincidence is implausible
//! ([`MIN_MOVES`]), or, for shorter games, when the game information (players,
//! date, result) is the same too. A shorter earlier game is a truncated copy
//! only if its result is unrecorded or the same as this game's: a game that
//! ended by resignation where the other went on is another game. A truncated
//! copy that comes after the full game is not found: that would need every
//! prefix of every earlier game in memory.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::num::NonZeroU64;
use std::sync::Arc;

use crate::core::board::Color;
use crate::core::findings::{Code, Finding, Location};
use crate::core::game::{Event, GameInfo, GameRecord, MoveKind};

/// Moves from which an identical line is taken as a copy without looking at
/// the game information: two distinct games rarely share their first 50
/// moves, even in the most studied openings.
pub const MIN_MOVES: u32 = 50;

/// The earlier game a report's line repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateOf {
    pub file: String,
    pub game: usize,
    pub kind: DuplicateKind,
    /// The earlier game's moves.
    pub moves: u32,
}

/// How the earlier game repeats this one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuplicateKind {
    /// The same main line (A508).
    SameLine,
    /// This game's main line cut short (A509).
    TruncatedCopy,
}

impl DuplicateKind {
    /// The name the outputs use.
    pub fn key(self) -> &'static str {
        match self {
            DuplicateKind::SameLine => "same-line",
            DuplicateKind::TruncatedCopy => "truncated-copy",
        }
    }
}

fn mix(mut h: u64) -> u64 {
    // SplitMix64's finaliser: every input bit reaches every output bit.
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

fn step(h: u64, word: u64) -> u64 {
    mix(h ^ word).wrapping_add(0x9e37_79b9_7f4a_7c15)
}

fn color_word(c: Option<Color>) -> u64 {
    match c {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

/// The hash of the main line after each of its moves (setup stones placed
/// before a move count in it).
pub fn line_hashes(record: &GameRecord) -> Vec<u64> {
    let mut h = step(0, u64::from(record.size.get()));
    let mut out = Vec::new();
    for e in &record.events {
        match *e {
            Event::Setup { start, len } => {
                let from = start as usize;
                let to = from.saturating_add(len as usize);
                for &(p, c) in record.setup.get(from..to).unwrap_or(&[]) {
                    let word = 1 << 40 | color_word(c) << 16 | u64::from(p.x) << 8 | u64::from(p.y);
                    h = step(h, word);
                }
            }
            Event::Move { color, kind } => {
                let at = match kind {
                    MoveKind::Pass => 0xffff,
                    MoveKind::Place(p) => u64::from(p.x) << 8 | u64::from(p.y),
                    MoveKind::OffBoard { x, y } => 1 << 20 | u64::from(x) << 8 | u64::from(y),
                    MoveKind::Unreadable => 1 << 21,
                };
                h = step(h, 2 << 40 | color_word(Some(color)) << 24 | at);
                out.push(h);
            }
        }
    }
    out
}

/// A hash kept in 8 bytes with room for "none" (0 becomes `u64::MAX`: a
/// collision no likelier than any other).
fn nonzero(h: u64) -> NonZeroU64 {
    NonZeroU64::new(h).unwrap_or(NonZeroU64::MAX)
}

fn info_hash(info: &GameInfo) -> Option<NonZeroU64> {
    let fields = [&info.black, &info.white, &info.date];
    if fields
        .iter()
        .all(|f| f.as_deref().is_none_or(str::is_empty))
    {
        return None;
    }
    let mut h = 0;
    for f in fields.iter().chain([&&info.result]) {
        for b in f.as_deref().unwrap_or("\u{0}").bytes() {
            h = step(h, u64::from(b));
        }
        h = step(h, 0x1_0000);
    }
    Some(nonzero(h))
}

fn result_hash(info: &GameInfo) -> Option<NonZeroU64> {
    let re = info
        .result
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())?;
    Some(nonzero(re.bytes().fold(7, |h, b| step(h, u64::from(b)))))
}

/// What is kept of a game once checked: 48 bytes, its file's name shared
/// with the other games of the file.
struct Earlier {
    file: Arc<str>,
    game: usize,
    moves: u32,
    info: Option<NonZeroU64>,
    result: Option<NonZeroU64>,
}
const _: () = assert!(std::mem::size_of::<Earlier>() <= 48);

/// The games seen so far in a run, checked in input order.
#[derive(Default)]
pub struct Duplicates {
    seen: HashMap<u64, Earlier, LineKey>,
    /// The name of the file being checked, shared by its games' entries.
    file: Option<Arc<str>>,
}

/// The table's hasher. The keys are already uniform 64-bit line hashes, so
/// SipHash's work is wasted on them: a game is looked up once per move of
/// its line (every prefix may be a truncated copy), and with SipHash those
/// lookups were most of the run's one sequential step. The key is still
/// mixed with a random word drawn per run, so that lines crafted to share
/// their low bits cannot pile into one bucket.
#[derive(Clone)]
struct LineKey(u64);

impl Default for LineKey {
    fn default() -> LineKey {
        LineKey(std::collections::hash_map::RandomState::new().hash_one(0u64))
    }
}

impl BuildHasher for LineKey {
    type Hasher = LineHasher;

    fn build_hasher(&self) -> LineHasher {
        LineHasher(self.0)
    }
}

struct LineHasher(u64);

impl Hasher for LineHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = step(self.0, u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = mix(self.0 ^ n);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A game as the check sees it: its place in its file, its main line's
/// hashes ([`line_hashes`]), its game information and where it is written.
pub struct Game<'a> {
    pub index: usize,
    pub line: &'a [u64],
    pub info: &'a GameInfo,
    pub start: Option<Location>,
}

/// A game that repeats an earlier one: the finding that says so (A508 or
/// A509) and the earlier game.
pub struct Repeat {
    pub finding: Finding,
    pub of: DuplicateOf,
}

impl Duplicates {
    /// Checks `game` of `file` against the earlier games and remembers it;
    /// the earlier game it repeats, if any.
    pub fn check(&mut self, file: &str, game: Game<'_>) -> Option<Repeat> {
        let line = game.line;
        let &full = line.last()?;
        let info = info_hash(game.info);
        let result = result_hash(game.info);
        // A line shorter than MIN_MOVES is a copy only with the same game
        // information, so it is kept under both: the first game of a common
        // short line does not stand for the other players' games with it.
        let key = if line.len() >= MIN_MOVES as usize {
            full
        } else {
            match info {
                Some(i) => step(full, i.get()),
                // Nothing tells it from a coincidence: never a copy, and too
                // short to be the prefix a truncated copy is looked up by.
                None => return None,
            }
        };
        if let Some(e) = self.seen.get(&key) {
            let copy = e.moves >= MIN_MOVES || (info.is_some() && info == e.info);
            return copy.then(|| Repeat {
                finding: Finding::new(
                    Code::DuplicateGame,
                    format!(
                        "the same game as {} game {}: the same board, setup and {} moves",
                        e.file, e.game, e.moves
                    ),
                )
                .with_location(game.start),
                of: DuplicateOf {
                    file: e.file.to_string(),
                    game: e.game,
                    kind: DuplicateKind::SameLine,
                    moves: e.moves,
                },
            });
        }
        let longest_prefix = (MIN_MOVES as usize..line.len())
            .rev()
            .filter_map(|k| self.seen.get(&line[k - 1]))
            .find(|e| e.result.is_none() || e.result == result);
        let repeat = longest_prefix.map(|e| Repeat {
            finding: Finding::new(
                Code::TruncatedCopy,
                format!(
                    "{} game {} is a truncated copy of this game: its {} moves are this game's first {} (its result {})",
                    e.file,
                    e.game,
                    e.moves,
                    e.moves,
                    if e.result.is_some() { "the same" } else { "unrecorded" }
                ),
            ).with_location(game.start),
            of: DuplicateOf {
                file: e.file.to_string(),
                game: e.game,
                kind: DuplicateKind::TruncatedCopy,
                moves: e.moves,
            },
        });
        let name = match &self.file {
            Some(name) if **name == *file => Arc::clone(name),
            _ => {
                let name: Arc<str> = file.into();
                self.file = Some(Arc::clone(&name));
                name
            }
        };
        self.seen.insert(
            key,
            Earlier {
                file: name,
                game: game.index,
                moves: line.len() as u32,
                info,
                result,
            },
        );
        repeat
    }
}
