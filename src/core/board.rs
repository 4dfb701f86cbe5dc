//! The board: a tight, allocation-free Go board with incremental Zobrist hashing.
//!
//! Layout: a one-dimensional array of `(size + 2)²` cells with a border ring, so
//! neighbours are `p ± 1` and `p ± stride` without bounds checks. Strings (groups)
//! are circular linked lists through `next`, with a representative in `head` and a
//! pseudo-liberty count (the number of stone/empty adjacencies) at the head: a string
//! has no liberty exactly when that count is zero. Nothing here allocates after
//! [`Board::new`]; a board is reset and reused game after game.
//!
//! The board knows nothing of rules: [`Board::place`] always puts the stone down,
//! removes opponent strings left without liberties, and then removes the mover's own
//! string if it has none (self-capture). Rulesets judge the outcome (see `rules`).

/// Largest board side SGF can express (`SZ[52]`).
pub const MAX_SIZE: usize = 52;
const MAX_STRIDE: usize = MAX_SIZE + 2;
/// Cells in the largest padded board.
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;

/// A board side, 1..=52 ([`MAX_SIZE`]): the only sizes a [`Board`] can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize(u8);

impl BoardSize {
    /// The usual 19x19.
    pub const STANDARD: BoardSize = BoardSize(19);

    /// A side of `n`, when `n` is in 1..=52.
    pub fn new(n: u8) -> Option<BoardSize> {
        (1..=MAX_SIZE as u8).contains(&n).then_some(BoardSize(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::STANDARD
    }
}

/// A stone colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `"B"` or `"W"`, as SGF writes it.
    pub fn letter(self) -> &'static str {
        match self {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    #[inline]
    pub(crate) fn cell(self) -> u8 {
        match self {
            Color::Black => BLACK,
            Color::White => WHITE,
        }
    }

    /// 0 for Black, 1 for White: the index into per-colour arrays such as
    /// `EndState::captures`.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

/// A point on the board, 0-based from the top-left corner (SGF `aa` is `(0, 0)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// SGF notation (`dc`): letters `a`-`z` then `A`-`Z`.
    pub fn sgf(self) -> String {
        self.sgf_letters().iter().map(|&b| char::from(b)).collect()
    }

    /// [`Point::sgf`]'s two letters, without allocating.
    pub fn sgf_letters(self) -> [u8; 2] {
        fn letter(v: u8) -> u8 {
            if v < 26 {
                b'a' + v
            } else {
                b'A' + (v - 26)
            }
        }
        [letter(self.x), letter(self.y)]
    }

    /// Human notation (`D17` on 19x19): column letter without `I`, row counted
    /// from the bottom. Columns past `Z` continue as `AA`, `AB`, ...
    pub fn human(self, size: u8) -> String {
        const COLS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
        let x = self.x as usize;
        let col = if x < COLS.len() {
            (COLS[x] as char).to_string()
        } else {
            let i = x - COLS.len();
            format!(
                "{}{}",
                COLS[(i / COLS.len()) % COLS.len()] as char,
                COLS[i % COLS.len()] as char
            )
        };
        let row = i32::from(size) - i32::from(self.y);
        format!("{col}{row}")
    }
}

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const BORDER: u8 = 3;

/// What a placement did to the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// Opponent stones removed.
    pub captured: u32,
    /// The single captured stone's cell, when exactly one stone was captured.
    pub captured_single: Option<u16>,
    /// Own stones removed because the mover's string had no liberty left (suicide).
    pub self_captured: u32,
    /// After the placement (and before any self-capture), the placed stone's string
    /// was a single stone with exactly one liberty: with `captured == 1` this is the
    /// shape of a ko capture.
    pub single_stone_one_liberty: bool,
}

/// One entry of the change log: a cell and the colour it held before the change.
#[derive(Clone, Copy, Debug)]
struct Change {
    cell: u16,
    before: u8,
}

/// Zobrist keys for every cell and colour; generated at compile time (splitmix64),
/// so hashes are identical across runs and platforms.
pub(crate) static ZOBRIST: [[u64; 2]; MAX_CELLS] = zobrist_table();

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u64; 2]; MAX_CELLS] {
    let mut table = [[0u64; 2]; MAX_CELLS];
    let mut state = 0x5347_4641_5544_4954u64; // "SGFAUDIT"
    let mut i = 0;
    while i < MAX_CELLS {
        let (s1, a) = splitmix64(state);
        let (s2, b) = splitmix64(s1);
        state = s2;
        table[i] = [a, b];
        i += 1;
    }
    table
}

/// Keys XOR-ed into a position hash to tell which player made it (situational
/// superko is positional superko on `hash ^ PLAYER_KEY[colour]`).
pub const PLAYER_KEY: [u64; 2] = [0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B];

/// A Go board of side 1..=52.
#[derive(Clone)]
pub struct Board {
    size: u8,
    stride: usize,
    cells: [u8; MAX_CELLS],
    next: [u16; MAX_CELLS],
    head: [u16; MAX_CELLS],
    libs: [u16; MAX_CELLS],
    stones: [u16; MAX_CELLS],
    hash: u64,
    /// Every colour change, in order; lets a caller rebuild an earlier position
    /// exactly to confirm a hash match.
    log: Vec<Change>,
    count: [u32; 2],
}

/// The stones of a position and nothing else: what a diagram needs, small
/// enough to keep (a [`Board`] carries its strings and history).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    size: u8,
    /// Row-major, `y * size + x`.
    points: Vec<Option<Color>>,
}

impl Snapshot {
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The colour at a point, `None` when empty or off the board.
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.x >= self.size || p.y >= self.size {
            return None;
        }
        self.points[usize::from(p.y) * usize::from(self.size) + usize::from(p.x)]
    }
}

impl Board {
    /// An empty board of the given side.
    pub fn new(size: BoardSize) -> Box<Board> {
        let mut b = Box::new(Board {
            size: 1,
            stride: 3,
            cells: [BORDER; MAX_CELLS],
            next: [0; MAX_CELLS],
            head: [0; MAX_CELLS],
            libs: [0; MAX_CELLS],
            stones: [0; MAX_CELLS],
            hash: 0,
            log: Vec::new(),
            count: [0; 2],
        });
        b.reset(size);
        b
    }

    /// Empties the board and sets its side, keeping its memory.
    pub fn reset(&mut self, size: BoardSize) {
        let size = size.get();
        let old = self.stride * self.stride;
        self.size = size;
        self.stride = usize::from(size) + 2;
        let n = self.stride * self.stride;
        self.cells[..n.max(old)].fill(BORDER);
        for y in 0..usize::from(size) {
            let row = (y + 1) * self.stride + 1;
            self.cells[row..row + usize::from(size)].fill(EMPTY);
        }
        self.hash = 0;
        self.log.clear();
        self.count = [0; 2];
    }

    /// Reserves room in the change log for about `moves` more moves, so the replay of
    /// a game allocates once, not per move.
    pub fn reserve_moves(&mut self, moves: usize) {
        self.log.reserve(moves.saturating_mul(2));
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// The stones as they stand, without the strings and the history.
    pub fn snapshot(&self) -> Snapshot {
        let n = self.size;
        let points = (0..n)
            .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
            .map(|p| self.get(p))
            .collect();
        Snapshot { size: n, points }
    }

    /// The incremental Zobrist hash of the stones on the board.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Number of stones of a colour on the board.
    pub fn stone_count(&self, c: Color) -> u32 {
        self.count[c.index()]
    }

    /// The padded cell index of a point. The point must be on the board.
    #[inline]
    pub fn cell(&self, p: Point) -> u16 {
        ((usize::from(p.y) + 1) * self.stride + usize::from(p.x) + 1) as u16
    }

    /// The point of a padded cell index.
    #[inline]
    pub fn point(&self, cell: u16) -> Point {
        let c = usize::from(cell);
        Point::new((c % self.stride - 1) as u8, (c / self.stride - 1) as u8)
    }

    /// Whether a point lies on this board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.size && p.y < self.size
    }

    /// The colour at a point, `None` when empty.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        color_of(self.cells[usize::from(self.cell(p))])
    }

    /// Iterates over every on-board cell index.
    pub fn cells(&self) -> impl Iterator<Item = u16> + '_ {
        let s = usize::from(self.size);
        let stride = self.stride;
        (0..s).flat_map(move |y| (0..s).map(move |x| ((y + 1) * stride + x + 1) as u16))
    }

    #[inline]
    pub(crate) fn neighbours(&self, cell: u16) -> [u16; 4] {
        let s = self.stride as u16;
        [cell - 1, cell + 1, cell - s, cell + s]
    }

    /// Length of the change log: a bookmark for [`Board::equals_at`].
    #[inline]
    pub fn log_len(&self) -> usize {
        self.log.len()
    }

    /// Puts a stone on an empty point (the caller has checked it is empty and on the
    /// board), captures opponent strings without liberties, then removes the mover's
    /// own string if it has no liberty (self-capture).
    pub fn place(&mut self, p: Point, color: Color) -> Placement {
        let cell = self.cell(p);
        debug_assert_eq!(self.cells[usize::from(cell)], EMPTY);
        let mine = color.cell();
        let theirs = color.opponent().cell();
        self.set(cell, mine);
        let ci = usize::from(cell);
        self.head[ci] = cell;
        self.next[ci] = cell;
        self.stones[ci] = 1;
        let nbrs = self.neighbours(cell);
        let mut libs = 0u16;
        for &n in &nbrs {
            let v = self.cells[usize::from(n)];
            if v == EMPTY {
                libs += 1;
            } else if v != BORDER {
                let h = usize::from(self.head[usize::from(n)]);
                self.libs[h] -= 1;
            }
        }
        self.libs[ci] = libs;
        for &n in &nbrs {
            if self.cells[usize::from(n)] == mine {
                let a = self.head[ci];
                let b = self.head[usize::from(n)];
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let mut result = Placement::default();
        for &n in &nbrs {
            if self.cells[usize::from(n)] == theirs {
                let h = self.head[usize::from(n)];
                if self.libs[usize::from(h)] == 0 {
                    let removed = self.remove_string(h);
                    if result.captured == 0 && removed == 1 {
                        result.captured_single = Some(n);
                    } else {
                        result.captured_single = None;
                    }
                    result.captured += removed;
                }
            }
        }
        let h = usize::from(self.head[ci]);
        result.single_stone_one_liberty = self.stones[h] == 1 && self.libs[h] == 1;
        if self.libs[h] == 0 {
            result.self_captured = self.remove_string(h as u16);
        }
        result
    }

    /// Replaces whatever is at a point by a setup stone (`AB`/`AW`) or empties it
    /// (`AE`), keeping strings and liberties consistent. Strings left without
    /// liberties by setup stay on the board, as SGF setup demands.
    pub fn set_point(&mut self, p: Point, color: Option<Color>) {
        self.set_points(std::iter::once((p, color)));
    }

    /// Applies a node's setup stones at once (points off the board are skipped),
    /// then rebuilds the strings once: setup is rare, and exactness matters more
    /// than incremental cleverness here.
    pub fn set_points(&mut self, points: impl IntoIterator<Item = (Point, Option<Color>)>) {
        let mut changed = false;
        for (p, color) in points {
            if !self.contains(p) {
                continue;
            }
            let cell = self.cell(p);
            let want = color.map_or(EMPTY, Color::cell);
            if self.cells[usize::from(cell)] != want {
                self.set(cell, want);
                changed = true;
            }
        }
        if changed {
            self.rebuild_strings();
        }
    }

    /// Whether the board now equals the board as it was when the change log had
    /// length `bookmark`. Walks the log back on a scratch copy of the cells, so it
    /// costs O(changes since then); used only to confirm a hash match.
    pub fn equals_at(&self, bookmark: usize, scratch: &mut [u8; MAX_CELLS]) -> bool {
        let n = self.stride * self.stride;
        scratch[..n].copy_from_slice(&self.cells[..n]);
        for ch in self.log[bookmark..].iter().rev() {
            scratch[usize::from(ch.cell)] = ch.before;
        }
        scratch[..n] == self.cells[..n]
    }

    /// Liberties (true count) of the string containing `p`; 0 for an empty point.
    pub fn liberties(&self, p: Point) -> usize {
        let cell = self.cell(p);
        let v = self.cells[usize::from(cell)];
        if v != BLACK && v != WHITE {
            return 0;
        }
        let mut seen = [false; MAX_CELLS];
        let mut count = 0;
        for s in self.string_cells(cell) {
            for n in self.neighbours(s) {
                if self.cells[usize::from(n)] == EMPTY && !seen[usize::from(n)] {
                    seen[usize::from(n)] = true;
                    count += 1;
                }
            }
        }
        count
    }

    /// The stone a `color` stone on the empty point `p` would take as a ko
    /// capture: exactly one opponent stone, a string of one in atari, with the
    /// placed stone left alone, that stone's point its only liberty.
    pub fn ko_capture_at(&self, p: Point, color: Color) -> Option<Point> {
        let mut taken = None;
        for n in self.neighbours(self.cell(p)) {
            let v = self.cells[usize::from(n)];
            match color_of(v) {
                None if v == EMPTY => return None,
                None => {}
                Some(c) if c == color => return None,
                Some(_) if self.liberties(self.point(n)) == 1 => {
                    if taken.is_some() || self.string_cells(n).nth(1).is_some() {
                        return None;
                    }
                    taken = Some(n);
                }
                Some(_) => {}
            }
        }
        let taken = taken?;
        Some(self.point(taken))
    }

    /// The cells of the string through `cell`.
    pub(crate) fn string_cells(&self, cell: u16) -> StringIter<'_> {
        StringIter {
            board: self,
            start: cell,
            cur: Some(cell),
        }
    }

    #[inline]
    fn set(&mut self, cell: u16, value: u8) {
        let ci = usize::from(cell);
        let before = self.cells[ci];
        if let Some(c) = color_of(before) {
            self.hash ^= ZOBRIST[ci][c.index()];
            self.count[c.index()] -= 1;
        }
        if let Some(c) = color_of(value) {
            self.hash ^= ZOBRIST[ci][c.index()];
            self.count[c.index()] += 1;
        }
        self.cells[ci] = value;
        self.log.push(Change { cell, before });
    }

    fn merge(&mut self, a: u16, b: u16) {
        // Relabel the smaller string into the larger one.
        let (big, small) = if self.stones[usize::from(a)] >= self.stones[usize::from(b)] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[usize::from(s)] = big;
            s = self.next[usize::from(s)];
            if s == small {
                break;
            }
        }
        let (bi, si) = (usize::from(big), usize::from(small));
        self.next.swap(bi, si);
        self.stones[bi] += self.stones[si];
        self.libs[bi] += self.libs[si];
    }

    fn remove_string(&mut self, head: u16) -> u32 {
        let mut removed = 0;
        let mut s = head;
        loop {
            self.set(s, EMPTY);
            removed += 1;
            s = self.next[usize::from(s)];
            if s == head {
                break;
            }
        }
        loop {
            for n in self.neighbours(s) {
                let v = self.cells[usize::from(n)];
                if v == BLACK || v == WHITE {
                    let h = usize::from(self.head[usize::from(n)]);
                    self.libs[h] += 1;
                }
            }
            s = self.next[usize::from(s)];
            if s == head {
                break;
            }
        }
        removed
    }

    fn rebuild_strings(&mut self) {
        let n = usize::from(self.size);
        let stride = self.stride;
        let cells =
            (0..n).flat_map(move |y| (0..n).map(move |x| ((y + 1) * stride + x + 1) as u16));
        for c in cells.clone() {
            let ci = usize::from(c);
            self.head[ci] = c;
            self.next[ci] = c;
            self.stones[ci] = 1;
            self.libs[ci] = 0;
        }
        for c in cells {
            let v = self.cells[usize::from(c)];
            if v != BLACK && v != WHITE {
                continue;
            }
            for n in self.neighbours(c) {
                let nv = self.cells[usize::from(n)];
                if nv == EMPTY {
                    let h = usize::from(self.head[usize::from(c)]);
                    self.libs[h] += 1;
                } else if nv == v {
                    let a = self.head[usize::from(c)];
                    let b = self.head[usize::from(n)];
                    if a != b {
                        self.merge(a, b);
                    }
                }
            }
        }
    }

    /// A board built from rows of `X` (black), `O` (white) and anything else
    /// (empty), for tests.
    #[cfg(test)]
    pub(crate) fn from_rows(rows: &[&str]) -> Box<Board> {
        let side = BoardSize::new(rows.len() as u8).expect("test rows fit a board");
        let mut b = Board::new(side);
        let stones = rows.iter().enumerate().flat_map(|(y, r)| {
            r.chars().enumerate().filter_map(move |(x, ch)| {
                let c = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => return None,
                };
                Some((Point::new(x as u8, y as u8), Some(c)))
            })
        });
        b.set_points(stones);
        b
    }

    /// A textual diagram (`X` black, `O` white, `.` empty), for tests and debugging.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.size {
            for x in 0..self.size {
                s.push(match self.get(Point::new(x, y)) {
                    None => '.',
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                });
            }
            s.push('\n');
        }
        s
    }

    /// The hash a board with exactly these cells would have: recomputed from
    /// scratch, for tests of the incremental hash.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for c in self.cells() {
            if let Some(col) = color_of(self.cells[usize::from(c)]) {
                h ^= ZOBRIST[usize::from(c)][col.index()];
            }
        }
        h
    }
}

#[inline]
pub(crate) fn color_of(v: u8) -> Option<Color> {
    match v {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// Iterator over the cells of one string.
pub(crate) struct StringIter<'a> {
    board: &'a Board,
    start: u16,
    cur: Option<u16>,
}

impl Iterator for StringIter<'_> {
    type Item = u16;
    fn next(&mut self) -> Option<u16> {
        let c = self.cur?;
        let n = self.board.next[usize::from(c)];
        self.cur = if n == self.start { None } else { Some(n) };
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        let b = s.as_bytes();
        Point::new(b[0] - b'a', b[1] - b'a')
    }

    #[test]
    fn captures_single_stone_and_updates_hash() {
        let mut b = Board::new(BoardSize::new(9).unwrap());
        b.place(pt("ba"), Color::Black);
        b.place(pt("ab"), Color::Black);
        let r = b.place(pt("aa"), Color::White);
        assert_eq!(r.self_captured, 1, "white in the corner has no liberty");
        assert_eq!(b.get(pt("aa")), None);
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    #[test]
    fn merge_and_capture_big_string() {
        let mut b = Board::new(BoardSize::new(5).unwrap());
        for p in ["aa", "ba", "ca"] {
            b.place(pt(p), Color::White);
        }
        for p in ["ab", "bb", "cb", "da"] {
            b.place(pt(p), Color::Black);
        }
        assert_eq!(b.stone_count(Color::White), 0);
        assert_eq!(b.stone_count(Color::Black), 4);
        assert_eq!(b.liberties(pt("ab")), 7); // aa ba ca (freed), ac bc cc db
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    #[test]
    fn human_notation_skips_i() {
        assert_eq!(Point::new(3, 2).human(19), "D17");
        assert_eq!(Point::new(8, 0).human(19), "J19");
        assert_eq!(pt("dc").sgf(), "dc");
    }

    #[test]
    fn equals_at_rebuilds_earlier_position() {
        let mut b = Board::new(BoardSize::new(9).unwrap());
        let mut scratch = [0u8; MAX_CELLS];
        let mark = b.log_len();
        b.place(pt("ee"), Color::Black);
        assert!(!b.equals_at(mark, &mut scratch));
        let mark2 = b.log_len();
        assert!(b.equals_at(mark2, &mut scratch));
    }
}
