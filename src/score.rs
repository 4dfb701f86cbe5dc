//! Scoring a finished game from ONE final position and ONE set of dead stones,
//! under each ruleset's counting (rules brief §2-§6; `docs/RULES.md`, "Scoring").
//!
//! Territory is topological: an empty region (dead stones removed) whose
//! neighbouring living stones are all of one colour belongs to that colour.
//! Not yet modelled: Japanese seki eye points (rule 8) — the Japanese count is
//! topological for now, and says so in `docs/RULES.md`.

use crate::board::{Board, Color, Point};
use crate::replay::EndState;

/// Territory (territory + prisoners) or area (stones + territory) counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Territory,
    Area,
}

impl Method {
    pub fn key(self) -> &'static str {
        match self {
            Method::Territory => "territory",
            Method::Area => "area",
        }
    }
}

/// The counts that make one side's points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Side {
    pub territory: u32,
    /// Captures + dead stones + pass stones received (territory counting only).
    pub prisoners: u32,
    /// Living stones on the board.
    pub stones: u32,
    /// Pass stones received (included in `prisoners`).
    pub pass_stones: u32,
    pub points: f64,
}

/// One ruleset's count of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub method: Method,
    pub black: Side,
    pub white: Side,
    pub komi: f64,
    /// Handicap compensation added to White (area counting).
    pub compensation: f64,
    /// Black points - White points - komi - compensation.
    pub margin: f64,
}

impl Score {
    /// `B+3.5`, `W+0.5` or `0`.
    pub fn result(&self) -> String {
        format_margin(self.margin)
    }
}

/// Formats a Black-side margin as an SGF result.
pub fn format_margin(m: f64) -> String {
    if m.abs() < 1e-9 {
        "0".to_string()
    } else if m > 0.0 {
        format!("B+{}", trim(m))
    } else {
        format!("W+{}", trim(-m))
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The final position with dead stones removed, and its territory.
#[derive(Clone, Debug, PartialEq)]
pub struct FinalPosition {
    /// Living stones per colour.
    pub stones: [u32; 2],
    /// Dead stones per colour (removed, counted as the opponent's prisoners).
    pub dead: [u32; 2],
    /// Topological territory per colour.
    pub territory: [u32; 2],
    /// Empty points that belong to nobody.
    pub dame: u32,
}

/// Removes `dead` stones from the board's final position and counts territory.
pub fn final_position(board: &Board, dead: &[Point]) -> FinalPosition {
    let n = usize::from(board.size());
    let mut grid: Vec<Option<Color>> = Vec::with_capacity(n * n);
    for y in 0..n {
        for x in 0..n {
            grid.push(board.get(Point::new(x as u8, y as u8)));
        }
    }
    let mut dead_count = [0u32; 2];
    for p in dead {
        let i = usize::from(p.y) * n + usize::from(p.x);
        if let Some(Some(c)) = grid.get(i).copied() {
            dead_count[c.index()] += 1;
            grid[i] = None;
        }
    }
    let mut stones = [0u32; 2];
    for c in grid.iter().flatten() {
        stones[c.index()] += 1;
    }
    let mut territory = [0u32; 2];
    let mut dame = 0;
    let mut seen = vec![false; n * n];
    let mut stack = Vec::new();
    for start in 0..n * n {
        if grid[start].is_some() || seen[start] {
            continue;
        }
        let (mut size, mut touches) = (0u32, [false; 2]);
        seen[start] = true;
        stack.push(start);
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = (i % n, i / n);
            let mut visit = |j: usize| match grid[j] {
                Some(c) => touches[c.index()] = true,
                None if !seen[j] => {
                    seen[j] = true;
                    stack.push(j);
                }
                None => {}
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < n {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - n);
            }
            if y + 1 < n {
                visit(i + n);
            }
        }
        match touches {
            [true, false] => territory[0] += size,
            [false, true] => territory[1] += size,
            _ => dame += size,
        }
    }
    FinalPosition {
        stones,
        dead: dead_count,
        territory,
        dame,
    }
}

/// What distinguishes the countings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// AGA territory: prisoners include pass stones, and White's owed last pass (rule 11).
    AgaTerritory,
    /// AGA area: White gets N-1 for N >= 2 handicap stones (rule 4).
    AgaArea,
    /// Japanese 1989: territory + prisoners, no pass stones.
    Japanese,
    /// Swedish: territory + prisoners including pass stones.
    Swedish,
    /// Chinese reference: area, White gets N for N >= 2 handicap stones.
    Chinese,
}

impl Counting {
    /// The ruleset's own komi (used when the record has no KM, or with `--komi rules`).
    pub fn default_komi(self, handicap: u32) -> f64 {
        match self {
            // AGA rule 3: 7.5 in even games, 0.5 with handicap.
            Counting::AgaTerritory | Counting::AgaArea => {
                if handicap >= 2 {
                    0.5
                } else {
                    7.5
                }
            }
            Counting::Japanese | Counting::Swedish => {
                if handicap >= 2 {
                    0.5
                } else {
                    6.5
                }
            }
            Counting::Chinese => {
                if handicap >= 2 {
                    0.5
                } else {
                    7.5
                }
            }
        }
    }
}

/// Scores a final position under one counting.
pub fn score(c: Counting, pos: &FinalPosition, end: &EndState, handicap: u32, komi: f64) -> Score {
    let (b, w) = (Color::Black.index(), Color::White.index());
    let mut black = Side::default();
    let mut white = Side::default();
    let mut compensation = 0.0;
    let method = match c {
        Counting::AgaArea | Counting::Chinese => Method::Area,
        _ => Method::Territory,
    };
    match method {
        Method::Territory => {
            black.territory = pos.territory[b];
            white.territory = pos.territory[w];
            black.prisoners = end.captures[b] + pos.dead[w];
            white.prisoners = end.captures[w] + pos.dead[b];
            if matches!(c, Counting::AgaTerritory | Counting::Swedish) {
                black.pass_stones = end.passes[w];
                white.pass_stones = end.passes[b];
                // AGA rule 11: if Black passed last, White adds a final pass.
                if c == Counting::AgaTerritory
                    && end.trailing_passes > 0
                    && end.last_mover == Some(Color::Black)
                {
                    black.pass_stones += 1;
                }
                black.prisoners += black.pass_stones;
                white.prisoners += white.pass_stones;
            }
            black.points = f64::from(black.territory + black.prisoners);
            white.points = f64::from(white.territory + white.prisoners);
        }
        Method::Area => {
            black.territory = pos.territory[b];
            white.territory = pos.territory[w];
            black.stones = pos.stones[b];
            white.stones = pos.stones[w];
            black.points = f64::from(black.territory + black.stones);
            white.points = f64::from(white.territory + white.stones);
            if handicap >= 2 {
                compensation = match c {
                    Counting::AgaArea => f64::from(handicap - 1),
                    _ => f64::from(handicap),
                };
            }
        }
    }
    let margin = black.points - white.points - komi - compensation;
    Score {
        method,
        black,
        white,
        komi,
        compensation,
        margin,
    }
}

/// The countings reported for every scored game, in output order.
pub const COUNTINGS: [Counting; 5] = [
    Counting::AgaTerritory,
    Counting::AgaArea,
    Counting::Japanese,
    Counting::Swedish,
    Counting::Chinese,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Box<Board> {
        let mut b = Board::new(rows.len() as u8);
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                let c = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
                if c.is_some() {
                    b.set_point(Point::new(x as u8, y as u8), c);
                }
            }
        }
        b
    }

    #[test]
    fn topological_territory_and_dead_stones() {
        let b = board(&[".X.O.", ".X.O.", "XX.OO", "O.XO.", "XXXO."]);
        let p = final_position(&b, &[]);
        // Black: (0,0),(0,1). White: (4,0),(4,1),(4,3),(4,4). (1,3) touches the white
        // stone at (0,3) and black stones: dame, like the column x=2 above it.
        assert_eq!(p.territory, [2, 4], "{p:?}");
        let p = final_position(&b, &[Point::new(0, 3)]);
        assert_eq!(p.dead, [0, 1]);
        assert_eq!(
            p.territory,
            [2 + 2, 4],
            "the dead stone's point and (1,3) become Black's"
        );
    }

    #[test]
    fn aga_pass_stones_and_last_pass() {
        let b = board(&["XX.OO", "XX.OO", "XX.OO", "XX.OO", "XX.OO"]);
        let pos = final_position(&b, &[]);
        let end = EndState {
            trailing_passes: 2,
            last_mover: Some(Color::Black),
            passes: [1, 1],
            ..Default::default()
        };
        let t = score(Counting::AgaTerritory, &pos, &end, 0, 0.0);
        // Black: 1 pass stone from White's pass + 1 for White's owed last pass.
        assert_eq!(t.black.pass_stones, 2);
        assert_eq!(t.white.pass_stones, 1);
        let a = score(Counting::AgaArea, &pos, &end, 0, 0.0);
        assert_eq!(a.margin, 0.0);
        assert_eq!(
            t.margin, 1.0,
            "an odd extra pass on Black's side shows as 1 point"
        );
    }
}
