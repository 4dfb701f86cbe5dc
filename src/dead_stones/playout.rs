//! Light random playouts from a final position, for dead-stone estimation.
//!
//! A small board of its own, built for playing many games to the end fast: padded
//! 1-D cells, strings as circular lists, and per string the pseudo-liberty count
//! with the sum and the sum of squares of the liberty cells, so "is this string in
//! atari, and where is its liberty" costs O(1) (the trick of libEGO and Pachi).
//! Every playout starts from a copy of the same position; nothing is allocated
//! while playing. It is not [`crate::core::board::Board`] on purpose: the replay's board
//! keeps a change log and a Zobrist hash that playouts do not need (the log would
//! grow with every playout move), and lacks the liberty sums they do; adding them
//! there would slow the per-move replay for every game. Only the string merge is
//! the same idea in both.
//!
//! The policy is the usual light one: capture a string the last move left in
//! atari; save an own string it put in atari (a capture that would leave the
//! capturing string in atari itself comes last: it can be retaken, with more);
//! after a three-stone capture, take the vital point of the eyespace it left
//! (nakade); else a uniformly random move that neither fills an own eye nor puts
//! an own string of two or more stones in atari (so sekis survive: neither side
//! fills a shared liberty), except two or three stones inside a single opponent
//! string that has no eye elsewhere (else capturing them only gives it a second
//! eye), a sacrifice that leaves it a killable three-point eye; and no filling of
//! a false eye that leaves the joined string two liberties or fewer (it turns a
//! seki's shared liberties into a killable shape). Randomness comes from a
//! fixed-seed generator, so the result depends on the position only.

use crate::core::board::Color;
use crate::core::grid::Grid;

/// The largest string a random move may leave in atari anywhere: a single stone
/// thrown in to spoil an eye (larger ones would break sekis).
const MAX_SACRIFICE: u8 = 1;
const _: () = assert!(MAX_SACRIFICE >= 1, "a lone stone may be left in atari");
/// A string of up to this many stones may be left in atari inside a single
/// opponent string's eyespace: captured, it leaves a three-point eye that one
/// move inside kills (a nakade).
const NAKADE: u8 = 3;

use crate::core::board::{BORDER, EMPTY};

fn other(v: u8) -> u8 {
    3 - v
}

/// A deterministic xorshift64* generator.
pub(crate) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        ((r >> 32) as usize * n) >> 32
    }
}

/// What a string's head holds: the string's size, and its pseudo-liberties
/// with their sum and sum of squares (one liberty, counted `libs` times, when
/// `libs * sq == sum * sum`).
#[derive(Clone, Copy, Default)]
struct StringStats {
    stones: u16,
    libs: u16,
    sum: u32,
    sq: u64,
}

/// Room for every padded board: a 52x52 board takes 54 * 54 = 2,916 cells.
const CAP: usize = 4096;

/// A per-cell table. Its capacity is fixed and an index is masked to it, so
/// the compiler proves every access in bounds and the playouts' hot loops
/// carry no bounds check (about a tenth of a playout's instructions). A cell
/// of a board is always below [`CAP`], so the mask never changes an index.
#[derive(Clone)]
struct Table<T>(Box<[T; CAP]>);

impl<T: Copy> Table<T> {
    fn new(x: T) -> Table<T> {
        let cells: Box<[T]> = vec![x; CAP].into_boxed_slice();
        match cells.try_into() {
            Ok(cells) => Table(cells),
            Err(_) => unreachable!("a vector of CAP cells fits an array of CAP"),
        }
    }

    /// Copies the first `len` cells of `o`.
    fn copy_prefix(&mut self, o: &Table<T>, len: usize) {
        self.0[..len].copy_from_slice(&o.0[..len]);
    }
}

impl<T> std::ops::Index<u16> for Table<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: u16) -> &T {
        &self.0[usize::from(i) & (CAP - 1)]
    }
}

impl<T> std::ops::IndexMut<u16> for Table<T> {
    #[inline]
    fn index_mut(&mut self, i: u16) -> &mut T {
        &mut self.0[usize::from(i) & (CAP - 1)]
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (CAP - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (CAP - 1)]
    }
}

#[derive(Clone)]
pub(crate) struct PlayoutBoard {
    n: usize,
    stride: usize,
    cells: Table<u8>,
    head: Table<u16>,
    next: Table<u16>,
    /// Per string head: its size and pseudo-liberties.
    strings: Table<StringStats>,
    /// Empty on-board cells, and each cell's index in that list.
    empties: Vec<u16>,
    empty_at: Table<u16>,
    /// Cell forbidden by the simple ko rule for the next move (0: none).
    ko: u16,
    /// The middle point of a three-stone string the last move captured (0: none):
    /// the vital point of the eyespace it leaves.
    vital: u16,
}

impl PlayoutBoard {
    /// The board of `p`; the empty points marked in `frozen` are left out of play
    /// (safe territory, where no move can change any chain's fate).
    pub fn from_position(p: &Grid, frozen: &[bool]) -> PlayoutBoard {
        let n = p.n;
        let stride = n + 2;
        debug_assert!(stride * stride <= CAP, "board sizes stop at 52");
        let mut b = PlayoutBoard {
            n,
            stride,
            cells: Table::new(BORDER),
            head: Table::new(0),
            next: Table::new(0),
            strings: Table::new(StringStats::default()),
            empties: Vec::with_capacity(n * n),
            empty_at: Table::new(0),
            ko: 0,
            vital: 0,
        };
        for y in 0..n {
            for x in 0..n {
                let c = b.cell(y * n + x);
                b.cells[c] = EMPTY;
                if !frozen[y * n + x] {
                    b.empty_at[c] = b.empties.len() as u16;
                    b.empties.push(c as u16);
                }
            }
        }
        // Stones are added one by one without captures: a final position has no
        // string without liberties except after illegal setup, which playouts
        // tolerate (such a string is captured by the first move next to it).
        for (i, v) in p.cells.iter().enumerate() {
            if let Some(c) = v {
                b.put(b.cell(i) as u16, c.cell());
            }
        }
        b
    }

    /// Padded cell of row-major point `i`.
    #[inline]
    pub fn cell(&self, i: usize) -> usize {
        (i / self.n + 1) * self.stride + i % self.n + 1
    }

    #[inline]
    fn nbrs(&self, c: u16) -> [u16; 4] {
        let s = self.stride as u16;
        [c - 1, c + 1, c - s, c + s]
    }

    /// The cells at four points.
    #[inline]
    fn cells_at(&self, at: [u16; 4]) -> [u8; 4] {
        let cell = |x: u16| self.cells[x];
        [cell(at[0]), cell(at[1]), cell(at[2]), cell(at[3])]
    }

    /// The stones of the string headed by `h`, following its circular list.
    fn stones_of(&self, h: u16) -> impl Iterator<Item = u16> + '_ {
        let mut at = Some(h);
        std::iter::from_fn(move || {
            let s = at?;
            let next = self.next[s];
            at = (next != h).then_some(next);
            Some(s)
        })
    }

    /// Copies another board of the same size into this one, keeping memory.
    pub fn copy_from(&mut self, o: &PlayoutBoard) {
        let len = self.stride * self.stride;
        self.cells.copy_prefix(&o.cells, len);
        self.head.copy_prefix(&o.head, len);
        self.next.copy_prefix(&o.next, len);
        self.strings.copy_prefix(&o.strings, len);
        self.empties.clear();
        self.empties.extend_from_slice(&o.empties);
        self.empty_at.copy_prefix(&o.empty_at, len);
        self.ko = o.ko;
        self.vital = o.vital;
    }

    #[inline]
    fn add_lib(&mut self, h: u16, lib: u16) {
        let s = &mut self.strings[h];
        s.libs += 1;
        s.sum += u32::from(lib);
        s.sq += u64::from(lib) * u64::from(lib);
    }

    #[inline]
    fn remove_lib(&mut self, h: u16, lib: u16) {
        let s = &mut self.strings[h];
        s.libs -= 1;
        s.sum -= u32::from(lib);
        s.sq -= u64::from(lib) * u64::from(lib);
    }

    /// The single liberty of the string headed by `h`, if it has exactly one.
    #[inline]
    fn atari_lib(&self, h: u16) -> Option<u16> {
        let st = &self.strings[h];
        let l = u64::from(st.libs);
        let s = u64::from(st.sum);
        (l > 0 && l * st.sq == s * s).then(|| (s / l) as u16)
    }

    /// Places a stone (no captures, no legality): the building block of `play`.
    fn put(&mut self, c: u16, v: u8) {
        self.cells[c] = v;
        // Swap-remove `c` from the list of empty cells (frozen cells are not in it).
        let at = usize::from(self.empty_at[c]);
        if self.empties.get(at) == Some(&c) {
            self.empties.swap_remove(at);
            if let Some(&moved) = self.empties.get(at) {
                self.empty_at[moved] = at as u16;
            }
        }
        self.head[c] = c;
        self.next[c] = c;
        self.strings[c] = StringStats {
            stones: 1,
            ..StringStats::default()
        };
        for nb in self.nbrs(c) {
            let w = self.cells[nb];
            if w == EMPTY {
                self.add_lib(c, nb);
            } else if w != BORDER {
                self.remove_lib(self.head[nb], c);
            }
        }
        for nb in self.nbrs(c) {
            if self.cells[nb] == v {
                let (a, b) = (self.head[c], self.head[nb]);
                if a != b {
                    self.merge(a, b);
                }
            }
        }
    }

    fn merge(&mut self, a: u16, b: u16) {
        let (big, small) = if self.strings[a].stones >= self.strings[b].stones {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big;
            s = self.next[s];
            if s == small {
                break;
            }
        }
        let (after_big, after_small) = (self.next[big], self.next[small]);
        self.next[big] = after_small;
        self.next[small] = after_big;
        let absorbed = self.strings[small];
        let b = &mut self.strings[big];
        b.stones += absorbed.stones;
        b.libs += absorbed.libs;
        b.sum += absorbed.sum;
        b.sq += absorbed.sq;
    }

    /// Removes the string headed by `h`; returns how many stones it had.
    fn remove(&mut self, h: u16) -> u16 {
        let count = self.strings[h].stones;
        let mut s = h;
        loop {
            self.cells[s] = EMPTY;
            self.empty_at[s] = self.empties.len() as u16;
            self.empties.push(s);
            s = self.next[s];
            if s == h {
                break;
            }
        }
        // Second pass: every neighbouring string gains the freed points.
        let mut s = h;
        loop {
            for nb in self.nbrs(s) {
                let w = self.cells[nb];
                if w != EMPTY && w != BORDER {
                    self.add_lib(self.head[nb], s);
                }
            }
            s = self.next[s];
            if s == h {
                break;
            }
        }
        count
    }

    /// Plays a legal move of colour `v` at empty cell `c`.
    fn play(&mut self, c: u16, v: u8) {
        self.put(c, v);
        let mut captured = 0u16;
        let mut single = 0u16;
        self.vital = 0;
        for nb in self.nbrs(c) {
            if self.cells[nb] == other(v) {
                let h = self.head[nb];
                if self.strings[h].libs == 0 {
                    if self.strings[h].stones == 3 {
                        self.vital = self.middle_of_three(h);
                    }
                    let k = self.remove(h);
                    captured += k;
                    single = nb;
                }
            }
        }
        let h = self.head[c];
        self.ko = if captured == 1 && self.strings[h].stones == 1 && self.strings[h].libs == 1 {
            single
        } else {
            0
        };
    }

    /// The stone of a three-stone string that touches the other two.
    fn middle_of_three(&self, h: u16) -> u16 {
        let a = h;
        let b = self.next[a];
        let c = self.next[b];
        let touches = |x: u16, y: u16| self.nbrs(x).contains(&y);
        if touches(a, b) && touches(a, c) {
            a
        } else if touches(b, a) && touches(b, c) {
            b
        } else {
            c
        }
    }

    /// An own eye of `v`: every neighbour is `v` or the edge, and the opponent
    /// holds fewer than two diagonal points (fewer than one at the edge).
    fn is_eye(&self, c: u16, v: u8) -> bool {
        self.nbrs(c).iter().all(|&nb| {
            let w = self.cells[nb];
            w == v || w == BORDER
        }) && self.diagonals_allow_eye(c, v)
    }

    /// The diagonal half of [`PlayoutBoard::is_eye`], for a point whose
    /// neighbours are all `v` or the edge.
    #[inline]
    fn diagonals_allow_eye(&self, c: u16, v: u8) -> bool {
        let s = self.stride as u16;
        let (mut enemy, mut edge) = (0, 0);
        for d in [c - s - 1, c - s + 1, c + s - 1, c + s + 1] {
            let w = self.cells[d];
            if w == BORDER {
                edge = 1;
            } else if w == other(v) {
                enemy += 1;
            }
        }
        enemy + edge < 2
    }

    /// Liberties the string of `v` would have after a move at `c`, counted up to
    /// two (0: suicide, 1: self-atari), and its stone count (capped at 255).
    /// O(1): an own string next to `c` adds its liberties other than `c`, read off
    /// its liberty sums with `c`'s share taken out (none, exactly one, or more).
    fn after_move(&self, c: u16, v: u8) -> (u8, u8) {
        let nbrs = self.nbrs(c);
        let cells = self.cells_at(nbrs);
        self.after_move_around(c, v, nbrs, cells)
    }

    /// [`PlayoutBoard::after_move`] with `c`'s neighbours and their cells
    /// already read.
    #[inline]
    fn after_move_around(&self, c: u16, v: u8, nbrs: [u16; 4], cells: [u8; 4]) -> (u8, u8) {
        let mut found = [0u16; 2];
        let mut k = 0usize;
        let add = |l: u16, found: &mut [u16; 2], k: &mut usize| {
            if l != c && *k < 2 && !found[..*k].contains(&l) {
                found[*k] = l;
                *k += 1;
            }
        };
        let head = |x: usize| {
            if cells[x] == v {
                self.head[nbrs[x]]
            } else {
                0
            }
        };
        let heads = [head(0), head(1), head(2), head(3)];
        let mut stones = 1u8;
        for x in 0..4 {
            let (nb, w) = (nbrs[x], cells[x]);
            if w == EMPTY {
                add(nb, &mut found, &mut k);
            } else if w == other(v) {
                // A capture frees the captured stone next to `c`.
                if self.atari_lib(self.head[nb]).is_some() {
                    add(nb, &mut found, &mut k);
                }
            } else if w == v {
                let h = heads[x];
                if heads[..x].contains(&h) {
                    continue;
                }
                stones = stones.saturating_add(self.strings[h].stones.min(255) as u8);
                // `c` counts once per stone of the string next to it.
                let share = heads.iter().filter(|&&y| y == h).count() as u64;
                let cc = u64::from(c);
                let st = &self.strings[h];
                let libs = u64::from(st.libs) - share;
                let sum = u64::from(st.sum) - share * cc;
                let sq = st.sq - share * cc * cc;
                if libs == 0 {
                    continue;
                }
                if libs * sq == sum * sum {
                    add((sum / libs) as u16, &mut found, &mut k);
                } else {
                    return (2, stones);
                }
            }
            if k >= 2 {
                return (2, stones);
            }
        }
        (k as u8, stones)
    }

    /// Whether `v` may and should play at `c` in a playout.
    fn good_random_move(&self, c: u16, v: u8) -> bool {
        if c == self.ko {
            return false;
        }
        let nbrs = self.nbrs(c);
        let cells = self.cells_at(nbrs);
        // Fast path: two empty neighbours mean two liberties and no eye.
        let empty = cells.iter().filter(|&&w| w == EMPTY).count();
        if empty >= 2 {
            return true;
        }
        // Every neighbour own or the edge: an eye, or a false eye that may not
        // be filled into two liberties or fewer.
        if empty == 0
            && cells.iter().all(|&w| w == v || w == BORDER)
            && (self.diagonals_allow_eye(c, v) || self.false_eye_fill_short_of_libs(c, v))
        {
            return false;
        }
        if !cells.contains(&v) {
            // A lone stone: with an empty neighbour it has a liberty, and one
            // liberty is allowed to a single stone (a sacrifice); with none it
            // lives only by capturing.
            return empty == 1
                || (0..4)
                    .any(|x| cells[x] == other(v) && self.atari_lib(self.head[nbrs[x]]).is_some());
        }
        let (libs, stones) = self.after_move_around(c, v, nbrs, cells);
        libs >= 2
            || (libs == 1
                && (stones <= MAX_SACRIFICE || (stones <= NAKADE && self.inside_one_string(c, v))))
    }

    /// Whether `c` is a false eye of `v` (every neighbour `v` or the edge) whose
    /// filling would leave the joined string with two liberties or fewer: in a
    /// seki that turns shared liberties into a killable shape.
    fn false_eye_fill_short_of_libs(&self, c: u16, v: u8) -> bool {
        let mut heads = [0u16; 4];
        let mut nh = 0;
        for nb in self.nbrs(c) {
            match self.cells[nb] {
                BORDER => {}
                w if w == v => {
                    let h = self.head[nb];
                    if !heads[..nh].contains(&h) {
                        heads[nh] = h;
                        nh += 1;
                    }
                }
                _ => return false,
            }
        }
        let mut libs = [0u16; 3];
        let mut k = 0;
        for &h in &heads[..nh] {
            for l in self.stones_of(h).flat_map(|s| self.nbrs(s)) {
                if l != c && self.cells[l] == EMPTY && !libs[..k].contains(&l) {
                    libs[k] = l;
                    k += 1;
                    if k == 3 {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether the string `v` would make at `c` is surrounded (apart from its
    /// liberties) by a single opponent string with no eye elsewhere: a sacrifice
    /// inside that string's eyespace, which leaves it a killable three-point eye
    /// once captured.
    fn inside_one_string(&self, c: u16, v: u8) -> bool {
        let h = self.enclosing_string(c, v);
        h != 0 && !self.has_eye_besides(h, c)
    }

    /// Whether the string headed by `h` has an eye of its own at a liberty other than `c`.
    fn has_eye_besides(&self, h: u16, c: u16) -> bool {
        let w = self.cells[h];
        self.stones_of(h)
            .flat_map(|s| self.nbrs(s))
            .any(|l| l != c && self.cells[l] == EMPTY && self.is_eye(l, w))
    }

    /// The head of the single opponent string that surrounds the string `v` would
    /// make at `c` (apart from its liberties), or 0.
    fn enclosing_string(&self, c: u16, v: u8) -> u16 {
        let mut enemy = 0u16;
        let one = |x: u16, enemy: &mut u16| {
            if self.cells[x] == other(v) {
                let h = self.head[x];
                if *enemy != 0 && *enemy != h {
                    return false;
                }
                *enemy = h;
            }
            true
        };
        for nb in self.nbrs(c) {
            if !one(nb, &mut enemy) {
                return 0;
            }
            if self.cells[nb] == v {
                let h = self.head[nb];
                for x in self.stones_of(h).flat_map(|s| self.nbrs(s)) {
                    if !one(x, &mut enemy) {
                        return 0;
                    }
                }
            }
        }
        enemy
    }

    /// A forcing move answering the last move `last`: capture an opponent string
    /// in atari next to it (or the string it made), else save an own string it put
    /// in atari, by capturing an attacker in atari around it or by extending when
    /// the liberty gives room. A capture that would leave the capturing string in
    /// atari (to be retaken, with more) is played only when nothing better is found.
    fn tactical_move(&self, last: u16, v: u8) -> Option<u16> {
        if last == 0 || self.cells[last] != other(v) {
            return None;
        }
        let mut fallback = None;
        let capture = |h: u16, fallback: &mut Option<u16>| {
            let l = self.atari_lib(h).filter(|&l| l != self.ko)?;
            if self.after_move(l, v).0 >= 2 {
                return Some(l);
            }
            fallback.get_or_insert(l);
            None
        };
        if let Some(l) = capture(self.head[last], &mut fallback) {
            return Some(l);
        }
        for nb in self.nbrs(last) {
            if self.cells[nb] != v {
                continue;
            }
            let h = self.head[nb];
            let Some(l) = self.atari_lib(h) else { continue };
            for a in self.stones_of(h).flat_map(|s| self.nbrs(s)) {
                if self.cells[a] == other(v) {
                    if let Some(l) = capture(self.head[a], &mut fallback) {
                        return Some(l);
                    }
                }
            }
            if l != self.ko && self.after_move(l, v).0 >= 2 {
                return Some(l);
            }
        }
        fallback
    }

    /// The policy's move for `v` after the last move `last` (0: a pass), or `None`
    /// to pass.
    fn choose(&self, last: u16, v: u8, rng: &mut Rng) -> Option<u16> {
        if let Some(m) = self.tactical_move(last, v) {
            return Some(m);
        }
        // Three stones were just captured: take the vital point of the eyespace.
        let vital = self.vital;
        if vital != 0 && self.cells[vital] == EMPTY && self.after_move(vital, v).0 >= 1 {
            return Some(vital);
        }
        if self.empties.is_empty() {
            return None;
        }
        let start = rng.below(self.empties.len());
        let (tail, head) = self.empties.split_at(start);
        head.iter()
            .chain(tail)
            .copied()
            .find(|&c| self.good_random_move(c, v))
    }

    /// Plays the position out with `first` to move until both pass; returns the
    /// number of moves played.
    pub fn playout(&mut self, first: Color, rng: &mut Rng) -> u32 {
        let mut v = first.cell();
        let mut last = 0u16;
        let mut passes = 0;
        let mut moves = 0;
        let limit = 3 * self.n * self.n + 20;
        for _ in 0..limit {
            match self.choose(last, v, rng) {
                Some(c) => {
                    self.play(c, v);
                    moves += 1;
                    passes = 0;
                    last = c;
                }
                None => {
                    passes += 1;
                    self.ko = 0;
                    last = 0;
                    if passes == 2 {
                        break;
                    }
                }
            }
            v = other(v);
        }
        moves
    }

    /// Who owns row-major point `i` now: its stone, or the colour that alone
    /// borders it when empty.
    pub fn owner(&self, i: usize) -> Option<Color> {
        let c = self.cell(i);
        let w = match self.cells[c] {
            EMPTY => {
                let mut seen = 0u8;
                for nb in self.nbrs(c as u16) {
                    let x = self.cells[nb];
                    if x == 1 || x == 2 {
                        seen |= x;
                    }
                }
                seen
            }
            x => x,
        };
        match w {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recomputes every string's liberty statistics and the empty list from the
    /// cells, and compares them with the incremental ones.
    fn check(b: &PlayoutBoard) {
        let size = b.stride * b.stride;
        let mut libs = vec![0u16; size];
        let mut sum = vec![0u32; size];
        let mut sq = vec![0u64; size];
        let mut stones = vec![0u16; size];
        for c in 0..size {
            let v = b.cells[c];
            if v == EMPTY {
                let at = usize::from(b.empty_at[c]);
                assert_eq!(b.empties.get(at), Some(&(c as u16)), "cell {c} not listed");
                continue;
            }
            if v == BORDER {
                continue;
            }
            let h = usize::from(b.head[c]);
            assert_eq!(b.cells[h], v, "head of {c} has another colour");
            stones[h] += 1;
            for nb in b.nbrs(c as u16) {
                if b.cells[nb] == EMPTY {
                    libs[h] += 1;
                    sum[h] += u32::from(nb);
                    sq[h] += u64::from(nb) * u64::from(nb);
                }
                if b.cells[nb] == v {
                    assert_eq!(b.head[nb], b.head[c], "split string at {c}");
                }
            }
        }
        for c in 0..size {
            if b.cells[c] != EMPTY && b.cells[c] != BORDER && usize::from(b.head[c]) == c {
                assert_eq!(b.strings[c].stones, stones[c], "stones of {c}");
                assert_eq!(b.strings[c].libs, libs[c], "pseudo-liberties of {c}");
                assert_eq!(b.strings[c].sum, sum[c]);
                assert_eq!(b.strings[c].sq, sq[c]);
                assert!(libs[c] > 0, "string at {c} left without liberties");
                // The atari test agrees with a real liberty count.
                let mut real: Vec<u16> = Vec::new();
                let mut s = c as u16;
                loop {
                    for nb in b.nbrs(s) {
                        if b.cells[nb] == EMPTY && !real.contains(&nb) {
                            real.push(nb);
                        }
                    }
                    s = b.next[s];
                    if s == c as u16 {
                        break;
                    }
                }
                assert_eq!(b.atari_lib(c as u16), (real.len() == 1).then(|| real[0]));
            }
        }
    }

    #[test]
    fn incremental_strings_match_a_recount_through_whole_playouts() {
        let mut rng = Rng::new(7);
        for n in [2usize, 3, 5, 9, 13, 19] {
            for game in 0..20 {
                // A random start: about a third of the points hold stones.
                let mut p = Grid {
                    n,
                    cells: vec![None; n * n],
                };
                for i in 0..n * n {
                    p.cells[i] = match rng.below(6) {
                        0 => Some(Color::Black),
                        1 => Some(Color::White),
                        _ => None,
                    };
                }
                // Keep only stones whose string has a liberty, as in a real position.
                let b0 = PlayoutBoard::from_position(&p, &vec![false; n * n]);
                for i in 0..n * n {
                    let c = b0.cell(i);
                    if b0.cells[c] != EMPTY && b0.strings[b0.head[c]].libs == 0 {
                        p.cells[i] = None;
                    }
                }
                let mut b = PlayoutBoard::from_position(&p, &vec![false; n * n]);
                check(&b);
                let mut v = if game % 2 == 0 { 1 } else { 2 };
                let (mut last, mut passes) = (0u16, 0);
                for _ in 0..3 * n * n + 20 {
                    match b.choose(last, v, &mut rng) {
                        Some(c) => {
                            b.play(c, v);
                            check(&b);
                            last = c;
                            passes = 0;
                        }
                        None => {
                            passes += 1;
                            last = 0;
                            b.ko = 0;
                            if passes == 2 {
                                break;
                            }
                        }
                    }
                    v = other(v);
                }
                // (Tiny boards may cycle through captures until the move limit.)
                assert!(passes == 2 || n <= 3, "{n}x{n} playout {game} did not end");
            }
        }
    }

    #[test]
    fn the_policy_captures_an_attacker_in_atari_else_extends() {
        // Row-major 5x5. White has just played (2,0); Black's stone (1,0) is in
        // atari with its liberty at (1,1), and White's corner stone (0,0) is in
        // atari too: Black captures it at (0,1).
        let mut p = Grid {
            n: 5,
            cells: vec![None; 25],
        };
        p.cells[1] = Some(Color::Black);
        p.cells[0] = Some(Color::White);
        p.cells[2] = Some(Color::White);
        let b = PlayoutBoard::from_position(&p, &[false; 25]);
        let mut rng = Rng::new(1);
        let last = b.cell(2) as u16;
        assert_eq!(b.choose(last, 1, &mut rng), Some(b.cell(5) as u16));
        // With (0,1) White's, the corner string has room: Black extends at (1,1).
        p.cells[5] = Some(Color::White);
        let b = PlayoutBoard::from_position(&p, &[false; 25]);
        assert_eq!(b.choose(last, 1, &mut rng), Some(b.cell(6) as u16));
        // White to move after a Black move next to the black stone in atari
        // captures it.
        let black = b.cell(1) as u16;
        assert_eq!(b.choose(black, 2, &mut rng), Some(b.cell(6) as u16));
    }

    #[test]
    fn after_a_three_stone_capture_the_vital_point_is_taken() {
        // White's straight three (0,0)-(2,0) under Black's wall, liberty (3,0).
        let mut p = Grid {
            n: 5,
            cells: vec![None; 25],
        };
        for i in [0, 1, 2] {
            p.cells[i] = Some(Color::White);
        }
        for i in [4, 5, 6, 7, 8, 9] {
            p.cells[i] = Some(Color::Black);
        }
        let mut b = PlayoutBoard::from_position(&p, &[false; 25]);
        let capture = b.cell(3) as u16;
        b.play(capture, 1);
        check(&b);
        assert_eq!(b.cells[b.cell(1)], EMPTY, "captured");
        // White, to move, plays the middle of the three points.
        let mut rng = Rng::new(3);
        assert_eq!(b.choose(capture, 2, &mut rng), Some(b.cell(1) as u16));
    }

    fn board_of(rows: &[&str]) -> PlayoutBoard {
        let p = Grid::from_board(&crate::core::board::Board::from_rows(rows));
        PlayoutBoard::from_position(&p, &vec![false; p.n * p.n])
    }

    #[test]
    fn a_capture_into_atari_waits_for_a_safe_one() {
        // White's last move (4,3) put Black's corner string in atari at (4,4).
        // Taking the stone there leaves the string one liberty, to be retaken;
        // capturing White's inner string at (1,4) saves it for good.
        let b = board_of(&[".....", "..XOO", ".XOXX", ".XOXO", "..OX."]);
        let mut rng = Rng::new(5);
        let last = b.cell(3 * 5 + 4) as u16;
        assert_eq!(b.choose(last, 1, &mut rng), Some(b.cell(4 * 5 + 1) as u16));
    }

    #[test]
    fn no_sacrifice_inside_a_string_that_has_an_eye_elsewhere() {
        // A seki: White's string has an eye at (3,1) and shares (1,1) with Black's
        // two corner stones. Black filling (1,1) would only give White a second eye.
        let b = board_of(&[".XOOO", "X.O.O", "OOOOO", "XXXXX", "....."]);
        assert!(!b.good_random_move(b.cell(5 + 1) as u16, 1));
        // Without another eye the three-stone throw-in is a nakade and allowed.
        let b = board_of(&[".XX.O", "OOOOO", "XXXXX", ".....", "....."]);
        assert!(b.good_random_move(b.cell(0) as u16, 1));
    }

    #[test]
    fn a_false_eye_is_not_filled_into_two_liberties() {
        // Filling (2,0) joins Black's strings with two liberties left, (0,0) and
        // (4,0), shared with nothing that helps: in a seki that loses the group.
        let b = board_of(&[".X.X.", "OXXOO", "OOOO.", ".....", "....."]);
        assert!(!b.good_random_move(b.cell(2) as u16, 1));
        // With a third liberty at (0,1) the connection is fine.
        let b = board_of(&[".X.X.", ".XXOO", "OOOO.", ".....", "....."]);
        assert!(b.good_random_move(b.cell(2) as u16, 1));
    }
}
