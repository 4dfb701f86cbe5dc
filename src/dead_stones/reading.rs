//! Local reading for the chains the playouts leave in doubt: can the chain be
//! captured? An exhaustive search, not a sample, over the few points of its fight.
//!
//! The question is GNU Go's "attack and defend", asked to the end of the fight:
//! the attacker plays to take the chain off the board, its owner plays (or
//! passes) to keep it. Moves are restricted to the points that matter to that
//! fight, recomputed at every position, in this order:
//! - the last liberty of an attacking chain next to it (the owner captures it,
//!   the attacker saves it);
//! - the chain's liberties;
//! - for the owner, the liberties of the attacking chains next to it that have
//!   [`WEAK_LIBERTIES`] or fewer (capturing races);
//! - the points of the small empty areas its liberties lay in at the start (at
//!   most [`EYE_SPACE`] points each): an eye's vital point need not touch it.
//!
//! Neither side fills an eye of its own. The attacker never passes (that only
//! lets the owner pass too, and the chain stays); the owner may pass, which is
//! how a seki is kept. The chain lives when it has two single-point eyes that
//! only it surrounds, and counts as escaped with more than [`ESCAPED`]
//! liberties and the attacker to move. A simple ko cannot be retaken at once,
//! and no line may repeat a position (positional superko); a transposition
//! table keyed by the Zobrist hash, the side to move and the ko point judges
//! each position once.
//!
//! The verdict is [`Outcome::Dead`] when the chain is captured even with its
//! owner to move first, [`Outcome::Alive`] when it is not captured even with
//! the attacker to move first, [`Outcome::Unsettled`] when it is captured with
//! the attacker to move first and not with its owner (the side to move decides
//! it), and [`Outcome::Open`] when the search passed [`NODE_LIMIT`] positions or
//! [`MAX_CANDIDATES`] points in play. Dead and Alive do not weigh the same: the
//! owner's moves cover a capturing race, the attacker's do not (it cannot
//! approach from outside), so a capture against every defence is a proof, and a
//! failed attack is not. The estimator uses [`Outcome::Dead`], and gives an
//! unsettled fight to the player whose turn it is; it leaves Alive to the
//! playouts (docs/RULES.md has the figures).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::core::board::{Color, MAX_CELLS, ZOBRIST};
use crate::core::grid::Grid;

/// An attacking chain with this many liberties or fewer next to the chain read
/// is part of the fight: its liberties are in play.
const WEAK_LIBERTIES: usize = 3;
/// An empty area of at most this many points around a liberty is eye space: all
/// its points are in play.
const EYE_SPACE: usize = 7;
/// More points in play than this at any position and the chain is not read.
const MAX_CANDIDATES: usize = 16;
/// Positions searched per chain (both sides to move) before giving up.
const NODE_LIMIT: u32 = 500;
/// Positions searched per game, over all the chains read: bounds the time of
/// a board with many fights in doubt.
pub(crate) const GAME_BUDGET: u32 = 1_000;
/// A chain with more liberties than this, with the attacker to move, has
/// escaped: the reading counts it as not captured (a ladder that fails, a chain
/// that reached open space). Only a proven capture is used, so this errs on the
/// safe side.
const ESCAPED: usize = 4;
/// Plies searched at most along one line.
const MAX_DEPTH: u32 = 48;

use crate::core::board::{BORDER, EMPTY};

/// What reading says about a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Captured whoever moves first.
    Dead,
    /// Not captured whoever moves first (alive, or alive in seki).
    Alive,
    /// Captured if the attacker moves first, not if the owner does: the side
    /// to move decides.
    Unsettled,
    /// Beyond the reading limits.
    Open,
}

/// What a move took off the board, to take it back.
struct Undo {
    cell: u16,
    /// Colour of the captured stones.
    victim: u8,
    /// The captured stones are [`Reader::removed`] from this index on.
    removed_from: usize,
}

/// A padded copy of the final position with flood-fill chain queries and undo.
struct Reader {
    stride: usize,
    cells: Vec<u8>,
    stamp: Vec<u32>,
    generation: u32,
    hash: u64,
    /// Stones captured during the search, restored on undo.
    removed: Vec<u16>,
    scratch: Vec<u16>,
    /// Small empty areas around the chain's liberties at the start.
    eye_space: Vec<u16>,
    anchor: u16,
    owner: u8,
    nodes: u32,
    /// Positions this reading may search: [`NODE_LIMIT`], or less when the
    /// game's budget is nearly spent.
    limit: u32,
    table: HashMap<u64, bool, BuildHasherDefault<ZobristKey>>,
    /// Board hashes along the line being read: repeating one is illegal.
    path: Vec<u64>,
    /// Chains already walked while listing the candidates (a generation stamp).
    done: Vec<u32>,
    /// Lists reused from position to position while listing the candidates.
    urgent: Vec<u16>,
    weak: Vec<u16>,
    tmp_stones: Vec<u16>,
    tmp_libs: Vec<u16>,
    /// The lists of each search node (the chain's stones and liberties, the
    /// moves to try), kept for the next node so the search allocates once.
    spare: Vec<NodeLists>,
}

/// The lists one search node works with.
#[derive(Default)]
struct NodeLists {
    stones: Vec<u16>,
    libs: Vec<u16>,
    moves: Vec<u16>,
}

/// The table's keys are Zobrist hashes already: they are their own hash.
#[derive(Default)]
struct ZobristKey(u64);

impl Hasher for ZobristKey {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

impl Reader {
    fn new(p: &Grid, anchor: usize) -> Option<Reader> {
        let n = p.n;
        let stride = n + 2;
        if stride * stride > MAX_CELLS {
            return None;
        }
        let mut cells = vec![BORDER; stride * stride];
        let mut hash = 0;
        for (i, c) in p.cells.iter().enumerate() {
            let cell = (i / n + 1) * stride + i % n + 1;
            cells[cell] = c.map_or(EMPTY, Color::cell);
            if let Some(c) = c {
                hash ^= ZOBRIST[cell][c.index()];
            }
        }
        let anchor = ((anchor / n + 1) * stride + anchor % n + 1) as u16;
        let owner = cells[usize::from(anchor)];
        if owner == EMPTY {
            return None;
        }
        let len = cells.len();
        let mut r = Reader {
            stride,
            cells,
            stamp: vec![0; len],
            generation: 0,
            hash,
            removed: Vec::new(),
            scratch: Vec::new(),
            eye_space: Vec::new(),
            anchor,
            owner,
            nodes: 0,
            limit: NODE_LIMIT,
            table: HashMap::default(),
            path: Vec::new(),
            done: vec![0; len],
            urgent: Vec::new(),
            weak: Vec::new(),
            tmp_stones: Vec::new(),
            tmp_libs: Vec::new(),
            spare: Vec::new(),
        };
        r.find_eye_space();
        Some(r)
    }

    fn nbrs(&self, c: u16) -> [u16; 4] {
        let s = self.stride as u16;
        [c - 1, c + 1, c - s, c + s]
    }

    fn next_generation(&mut self) -> u32 {
        self.generation += 1;
        self.generation
    }

    /// The stones and liberties of the chain at `s`, appended to the two lists.
    fn chain(&mut self, s: u16, stones: &mut Vec<u16>, libs: &mut Vec<u16>) {
        let g = self.next_generation();
        let v = self.cells[usize::from(s)];
        let start = stones.len();
        stones.push(s);
        self.stamp[usize::from(s)] = g;
        let mut q = start;
        while q < stones.len() {
            let c = stones[q];
            q += 1;
            for n in self.nbrs(c) {
                let ni = usize::from(n);
                if self.stamp[ni] == g {
                    continue;
                }
                if self.cells[ni] == v {
                    self.stamp[ni] = g;
                    stones.push(n);
                } else if self.cells[ni] == EMPTY {
                    self.stamp[ni] = g;
                    libs.push(n);
                }
            }
        }
    }

    /// Whether the chain at `s` has a liberty (stops at the first one).
    fn has_liberty(&mut self, s: u16) -> bool {
        let g = self.next_generation();
        let v = self.cells[usize::from(s)];
        let mut stack = std::mem::take(&mut self.scratch);
        stack.clear();
        stack.push(s);
        self.stamp[usize::from(s)] = g;
        let mut found = false;
        'walk: while let Some(c) = stack.pop() {
            for n in self.nbrs(c) {
                let ni = usize::from(n);
                if self.cells[ni] == EMPTY {
                    found = true;
                    break 'walk;
                }
                if self.cells[ni] == v && self.stamp[ni] != g {
                    self.stamp[ni] = g;
                    stack.push(n);
                }
            }
        }
        self.scratch = stack;
        found
    }

    fn set(&mut self, c: u16, v: u8) {
        let ci = usize::from(c);
        let old = self.cells[ci];
        if old == 1 || old == 2 {
            self.hash ^= ZOBRIST[ci][usize::from(old - 1)];
        }
        if v == 1 || v == 2 {
            self.hash ^= ZOBRIST[ci][usize::from(v - 1)];
        }
        self.cells[ci] = v;
    }

    /// Plays `v` at the empty cell `c`: captures, and refuses suicide (`None`).
    fn play(&mut self, c: u16, v: u8) -> Option<Undo> {
        self.set(c, v);
        let victim = 3 - v;
        let removed_from = self.removed.len();
        for n in self.nbrs(c) {
            if self.cells[usize::from(n)] == victim && !self.has_liberty(n) {
                let mut stones = Vec::new();
                self.chain(n, &mut stones, &mut Vec::new());
                for &s in &stones {
                    self.set(s, EMPTY);
                }
                self.removed.extend_from_slice(&stones);
            }
        }
        if self.removed.len() == removed_from && !self.has_liberty(c) {
            self.set(c, EMPTY);
            return None;
        }
        Some(Undo {
            cell: c,
            victim,
            removed_from,
        })
    }

    fn take_back(&mut self, u: Undo) {
        while self.removed.len() > u.removed_from {
            if let Some(s) = self.removed.pop() {
                self.set(s, u.victim);
            }
        }
        self.set(u.cell, EMPTY);
    }

    /// The ko point a move left: one stone captured by a single stone that now
    /// has that one liberty.
    fn ko_after(&mut self, u: &Undo) -> u16 {
        if self.removed.len() != u.removed_from + 1 {
            return 0;
        }
        let mut stones = Vec::new();
        let mut libs = Vec::new();
        self.chain(u.cell, &mut stones, &mut libs);
        if stones.len() == 1 && libs.len() == 1 {
            libs[0]
        } else {
            0
        }
    }

    /// Empty areas of at most [`EYE_SPACE`] points that hold a liberty of the
    /// chain, found once at the start.
    fn find_eye_space(&mut self) {
        let (mut stones, mut libs) = (Vec::new(), Vec::new());
        self.chain(self.anchor, &mut stones, &mut libs);
        let g = self.next_generation();
        for &l in &libs {
            if self.stamp[usize::from(l)] == g {
                continue;
            }
            let mut area = vec![l];
            self.stamp[usize::from(l)] = g;
            let mut q = 0;
            while q < area.len() && area.len() <= EYE_SPACE {
                let c = area[q];
                q += 1;
                for n in self.nbrs(c) {
                    let ni = usize::from(n);
                    if self.cells[ni] == EMPTY && self.stamp[ni] != g {
                        self.stamp[ni] = g;
                        area.push(n);
                    }
                }
            }
            if area.len() <= EYE_SPACE {
                self.eye_space.extend_from_slice(&area);
            }
        }
    }

    /// Whether the chain read, whose stones `chain` just stamped with the current
    /// generation, has two liberties in `libs` that only it surrounds (a
    /// single-point eye each): the attacker can play in neither, so it lives.
    fn two_eyes(&self, libs: &[u16]) -> bool {
        let g = self.generation;
        let eyes = libs
            .iter()
            .filter(|&&l| {
                self.nbrs(l).iter().all(|&n| {
                    let ni = usize::from(n);
                    self.cells[ni] == BORDER
                        || (self.cells[ni] == self.owner && self.stamp[ni] == g)
                })
            })
            .count();
        eyes >= 2
    }

    /// Whether `c` is an eye of `mover`'s: every neighbour is the mover's and none
    /// of those chains has `c` as its last liberty. Filling it never helps.
    fn is_own_eye(&mut self, c: u16, mover: u8) -> bool {
        let nbrs = self.nbrs(c);
        if !nbrs.iter().all(|&n| {
            let v = self.cells[usize::from(n)];
            v == mover || v == BORDER
        }) {
            return false;
        }
        let (mut stones, mut libs) = (
            std::mem::take(&mut self.tmp_stones),
            std::mem::take(&mut self.tmp_libs),
        );
        let mut eye = true;
        for n in nbrs {
            if self.cells[usize::from(n)] == mover {
                stones.clear();
                libs.clear();
                self.chain(n, &mut stones, &mut libs);
                if libs.len() < 2 {
                    eye = false;
                    break;
                }
            }
        }
        self.tmp_stones = stones;
        self.tmp_libs = libs;
        eye
    }

    /// The points in play, given the chain read's `stones` and `libs`: first
    /// the last liberty of any attacking chain next to it (the owner captures,
    /// the attacker saves), then the chain's liberties, then (for the owner) the
    /// liberties of the weak attacking chains next to it, then the eye space.
    /// `false` when there are more than [`MAX_CANDIDATES`].
    fn candidates(&mut self, mover: u8, stones: &[u16], libs: &[u16], out: &mut Vec<u16>) -> bool {
        out.clear();
        let attacker = 3 - self.owner;
        let mut urgent = std::mem::take(&mut self.urgent);
        let mut weak = std::mem::take(&mut self.weak);
        let mut st = std::mem::take(&mut self.tmp_stones);
        let mut li = std::mem::take(&mut self.tmp_libs);
        urgent.clear();
        weak.clear();
        // Attacking chains next to the chain read: each is walked once, from
        // the first of its stones met (stamped in `done`).
        let done = self.next_generation();
        for &s in stones {
            for n in self.nbrs(s) {
                let ni = usize::from(n);
                if self.cells[ni] != attacker || self.done[ni] == done {
                    continue;
                }
                st.clear();
                li.clear();
                self.chain(n, &mut st, &mut li);
                for &x in &st {
                    self.done[usize::from(x)] = done;
                }
                if li.len() == 1 {
                    urgent.push(li[0]);
                }
                // The owner shortens a weak attacker's liberties; the attacker
                // lengthens them only once in atari (`urgent`).
                if mover == self.owner && li.len() <= WEAK_LIBERTIES {
                    weak.extend_from_slice(&li);
                }
            }
        }
        let eye_space = std::mem::take(&mut self.eye_space);
        for list in [&urgent[..], libs, &weak[..], &eye_space[..]] {
            for &c in list {
                if self.cells[usize::from(c)] == EMPTY
                    && !out.contains(&c)
                    && !self.is_own_eye(c, mover)
                {
                    out.push(c);
                }
            }
        }
        self.eye_space = eye_space;
        self.urgent = urgent;
        self.weak = weak;
        self.tmp_stones = st;
        self.tmp_libs = li;
        out.len() <= MAX_CANDIDATES
    }

    /// Whether the chain is captured with `mover` to move: `None` past the limits.
    fn captured(&mut self, mover: u8, ko: u16, depth: u32) -> Option<bool> {
        if self.cells[usize::from(self.anchor)] != self.owner {
            return Some(true);
        }
        let mut lists = self.spare.pop().unwrap_or_default();
        lists.stones.clear();
        lists.libs.clear();
        lists.moves.clear();
        let r = self.captured_with(mover, ko, depth, &mut lists);
        self.spare.push(lists);
        r
    }

    /// [`Reader::captured`] with the node's lists.
    fn captured_with(
        &mut self,
        mover: u8,
        ko: u16,
        depth: u32,
        lists: &mut NodeLists,
    ) -> Option<bool> {
        let NodeLists {
            stones,
            libs,
            moves,
        } = lists;
        self.chain(self.anchor, stones, libs);
        if self.two_eyes(libs) || (mover != self.owner && libs.len() > ESCAPED) {
            return Some(false);
        }
        let key = self.hash
            ^ (u64::from(mover) << 62)
            ^ u64::from(ko).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if let Some(&r) = self.table.get(&key) {
            return Some(r);
        }
        self.nodes += 1;
        if depth >= MAX_DEPTH || self.nodes > self.limit {
            return None;
        }
        if !self.candidates(mover, stones, libs, moves) {
            return None;
        }
        let attacking = mover != self.owner;
        let mut unknown = false;
        let mut result = None;
        for &m in moves.iter() {
            if m == ko {
                continue;
            }
            let Some(u) = self.play(m, mover) else {
                continue;
            };
            if self.path.contains(&self.hash) {
                // Positional superko: the line would repeat a position.
                self.take_back(u);
                continue;
            }
            let next_ko = self.ko_after(&u);
            self.path.push(self.hash);
            let r = self.captured(3 - mover, next_ko, depth + 1);
            self.path.pop();
            self.take_back(u);
            match r {
                Some(c) if c == attacking => {
                    result = Some(c);
                    break;
                }
                None => unknown = true,
                _ => {}
            }
        }
        if result.is_none() && !attacking {
            // The owner passes; the attacker moves again, without a ko ban.
            match self.captured(3 - mover, 0, depth + 1) {
                Some(false) => result = Some(false),
                None => unknown = true,
                _ => {}
            }
        }
        let result = match result {
            Some(r) => Some(r),
            None if unknown => None,
            // Every line fails for the mover.
            None => Some(!attacking),
        };
        if let Some(r) = result {
            self.table.insert(key, r);
        }
        result
    }
}

/// Reads whether the chain at point `anchor` of `p` can be captured, searching
/// at most [`NODE_LIMIT`] positions and no more than `budget` holds; what it
/// searched is taken from `budget` (a game's chains share one).
pub(crate) fn read(p: &Grid, anchor: usize, budget: &mut u32) -> Outcome {
    let Some(mut r) = Reader::new(p, anchor) else {
        return Outcome::Open;
    };
    r.limit = NODE_LIMIT.min(*budget);
    r.path.push(r.hash);
    let owner = r.owner;
    let attacked = r.captured(3 - owner, 0, 0);
    let defended = match attacked {
        Some(true) => r.captured(owner, 0, 0),
        _ => None,
    };
    *budget = budget.saturating_sub(r.nodes);
    match (attacked, defended) {
        (Some(false), _) => Outcome::Alive,
        (Some(true), Some(true)) => Outcome::Dead,
        (Some(true), Some(false)) => Outcome::Unsettled,
        _ => Outcome::Open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Board;

    fn verdict(rows: &[&str], x: usize, y: usize) -> Outcome {
        let p = Grid::from_board(&Board::from_rows(rows));
        read(&p, y * p.n + x, &mut GAME_BUDGET.clone())
    }

    #[test]
    fn a_squared_four_dies_whoever_moves_first() {
        // Black's only liberties are a 2x2 eye space: however Black plays in
        // it, one eye at most; White's wall has liberties to spare.
        let rows = [
            "..XO...", //
            "..XO...", //
            "XXXO...", //
            "OOOO...", //
            ".......", //
            ".......", //
            ".......", //
        ];
        assert_eq!(verdict(&rows, 2, 0), Outcome::Dead);
    }

    #[test]
    fn a_straight_three_is_unsettled() {
        // Black to move plays the middle and has two eyes; White to move plays
        // it and Black dies: the side to move decides.
        let rows = [
            "...XO..", //
            "XXXXO..", //
            "OOOOO..", //
            ".......", //
            ".......", //
            ".......", //
            ".......", //
        ];
        assert_eq!(verdict(&rows, 3, 0), Outcome::Unsettled);
    }

    #[test]
    fn two_eyes_live_and_a_chain_in_a_lost_race_dies() {
        let rows = [
            ".X.XO..", // Black: two single-point eyes.
            "XXXXO..", //
            "OOOOO..", //
            ".......", //
            "XXXX...", //
            "OOOX...", // White's four stones: one eye of two points, in Black's wall.
            "..OX...", //
        ];
        assert_eq!(verdict(&rows, 1, 0), Outcome::Alive);
        assert_eq!(verdict(&rows, 0, 5), Outcome::Dead);
    }
}
