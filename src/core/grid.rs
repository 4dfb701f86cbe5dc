//! A final position as a plain row-major grid, for the analyses that run once
//! per game (territory, seki, dead-stone estimation) rather than once per move.

use crate::core::board::{Board, Color, Point};

/// Sentinel for "no chain / no region".
pub(crate) const NONE: u32 = u32::MAX;

/// The stones of a position, row by row (`y * n + x`).
pub(crate) struct Grid {
    pub n: usize,
    pub cells: Vec<Option<Color>>,
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
}
