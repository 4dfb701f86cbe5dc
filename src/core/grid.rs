//! One position as a plain row-major grid, for the analyses that run once per
//! game (territory, seki, markup, dead-stone estimation) rather than once per
//! move, with the one flood fill they all use.
//!
//! Why the crate has four boards: [`crate::core::board::Board`] is the replay's
//! (incremental strings, a Zobrist hash and a change log, no allocation per
//! move); `Grid` is the analyses' (simple and mutable, read once per game);
//! the dead-stone estimator's playout board keeps liberties incrementally for
//! O(1) atari tests over millions of random moves, and its reading board keeps
//! an undo log and a hash for an exhaustive search with a transposition table.

use crate::core::board::{Board, Color, Point};

/// Sentinel for "no chain / no region".
pub(crate) const NONE: u32 = u32::MAX;

/// The stones of a position, row by row (`y * n + x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub n: usize,
    pub cells: Vec<Option<Color>>,
}

/// Connected components of a grid: a label per point (`NONE` outside them).
pub(crate) struct Components {
    pub label: Vec<u32>,
    /// The number of components.
    pub count: usize,
}

impl Grid {
    pub fn from_board(board: &Board) -> Grid {
        let n = usize::from(board.size());
        let mut cells = Vec::with_capacity(n * n);
        for y in 0..n {
            for x in 0..n {
                cells.push(board.get(Point::new(x as u8, y as u8)));
            }
        }
        Grid { n, cells }
    }

    /// The on-board neighbours of point `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let n = self.n;
        let (x, y) = (i % n, i / n);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < n).then(|| i + 1),
            (y > 0).then(|| i - n),
            (y + 1 < n).then(|| i + n),
        ]
        .into_iter()
        .flatten()
    }

    pub fn point(&self, i: usize) -> Point {
        Point::new((i % self.n) as u8, (i / self.n) as u8)
    }

    /// The index of a point (which must be on the board).
    pub fn index(&self, p: Point) -> usize {
        usize::from(p.y) * self.n + usize::from(p.x)
    }

    /// Labels the connected components of the points whose cells are alike:
    /// two neighbours join when `alike` says so of their cells. Points for
    /// which `member` is false are left out.
    pub fn components(
        &self,
        member: impl Fn(Option<Color>) -> bool,
        alike: impl Fn(Option<Color>, Option<Color>) -> bool,
    ) -> Components {
        let mut label = vec![NONE; self.cells.len()];
        let mut count = 0;
        let mut stack = Vec::new();
        for start in 0..self.cells.len() {
            if label[start] != NONE || !member(self.cells[start]) {
                continue;
            }
            let id = count as u32;
            count += 1;
            label[start] = id;
            stack.push(start);
            while let Some(i) = stack.pop() {
                for j in self.neighbours(i) {
                    if label[j] == NONE && alike(self.cells[i], self.cells[j]) {
                        label[j] = id;
                        stack.push(j);
                    }
                }
            }
        }
        Components { label, count }
    }

    /// The chains (strings of stones of one colour), and the colour of each.
    pub fn chains(&self) -> (Vec<u32>, Vec<Color>) {
        let c = self.components(|x| x.is_some(), |a, b| a == b);
        let mut colors = vec![Color::Black; c.count];
        for (i, &l) in c.label.iter().enumerate() {
            if let (Some(color), true) = (self.cells[i], l != NONE) {
                colors[l as usize] = color;
            }
        }
        (c.label, colors)
    }

    /// The regions (maximal connected sets of empty points), and which colours
    /// each touches (`[black, white]`).
    pub fn regions(&self) -> (Vec<u32>, Vec<[bool; 2]>) {
        let c = self.components(|x| x.is_none(), |a, b| a.is_none() && b.is_none());
        let mut touch = vec![[false; 2]; c.count];
        for (i, &l) in c.label.iter().enumerate() {
            if l == NONE {
                continue;
            }
            for j in self.neighbours(i) {
                if let Some(color) = self.cells[j] {
                    touch[l as usize][color.index()] = true;
                }
            }
        }
        (c.label, touch)
    }
}

/// A reusable flood fill over a grid that changes between fills (the Japanese
/// settlement places stones as it goes): each fill is stamped with an epoch,
/// so nothing is cleared between fills.
pub(crate) struct Flood {
    seen: Vec<u32>,
    lib_seen: Vec<u32>,
    epoch: u32,
    stack: Vec<usize>,
    /// The stones of the last string filled.
    pub string: Vec<usize>,
}

/// A string's liberties, counted up to three.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Liberties {
    /// 0, 1, 2 or 3 (three or more).
    pub count: u8,
    /// The first liberty found (the only one when `count == 1`).
    pub first: usize,
    /// The second liberty found (the other one when `count == 2`).
    pub second: usize,
    /// The smallest point of the string: an identity for deduplication.
    pub id: usize,
}

impl Flood {
    pub fn new(points: usize) -> Flood {
        Flood {
            seen: vec![0; points],
            lib_seen: vec![0; points],
            epoch: 0,
            stack: Vec::new(),
            string: Vec::new(),
        }
    }

    fn next_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.fill(0);
            self.lib_seen.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }

    /// Fills the string of stones at `start` (into [`Flood::string`]) and
    /// counts its liberties, up to three.
    pub fn liberties(&mut self, grid: &Grid, start: usize) -> Liberties {
        let e = self.next_epoch();
        let color = grid.cells[start];
        let mut out = Liberties {
            count: 0,
            first: usize::MAX,
            second: usize::MAX,
            id: start,
        };
        self.seen[start] = e;
        self.stack.clear();
        self.stack.push(start);
        self.string.clear();
        while let Some(i) = self.stack.pop() {
            self.string.push(i);
            out.id = out.id.min(i);
            for j in grid.neighbours(i) {
                match grid.cells[j] {
                    None if self.lib_seen[j] != e => {
                        self.lib_seen[j] = e;
                        match out.count {
                            0 => out.first = j,
                            1 => out.second = j,
                            _ => {}
                        }
                        out.count = out.count.saturating_add(1).min(3);
                    }
                    Some(_) if grid.cells[j] == color && self.seen[j] != e => {
                        self.seen[j] = e;
                        self.stack.push(j);
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// Chains joined into units, each named by its smallest chain (union-find).
pub(crate) struct Units(Vec<usize>);

impl Units {
    pub fn new(chains: usize) -> Units {
        Units((0..chains).collect())
    }

    pub fn root(&mut self, mut k: usize) -> usize {
        while self.0[k] != k {
            self.0[k] = self.0[self.0[k]];
            k = self.0[k];
        }
        k
    }

    pub fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        self.0[a.max(b)] = a.min(b);
    }

    /// Each chain's unit.
    pub fn roots(mut self) -> Vec<usize> {
        (0..self.0.len()).map(|k| self.root(k)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_and_regions_are_labelled_once_each() {
        let g = Grid::from_board(&Board::from_rows(&["XX.O", "X..O", "OOOO", "...."]));
        let (chain, colors) = g.chains();
        assert_eq!(colors, [Color::Black, Color::White]);
        assert_eq!(chain[0], chain[4]);
        let (region, touch) = g.regions();
        assert_eq!(touch, [[true, true], [false, true]]);
        assert_eq!(region[2], region[6]);
        let mut f = Flood::new(g.cells.len());
        let l = f.liberties(&g, 0);
        assert_eq!((l.count, f.string.len()), (2, 3));
        let mut found = [l.first, l.second];
        found.sort_unstable();
        assert_eq!(found, [2, 5]);
        // The bottom row's empty points and C3 are White's four liberties,
        // counted as "three or more".
        assert_eq!(f.liberties(&g, 3).count, 3);
    }
}
