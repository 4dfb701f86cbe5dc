//! KataGo's count of a record whose `RU` is a KataGo rules string
//! (`koPOSITIONALscoreAREAtaxSEKIsui1button1whbN`): the knobs of the string
//! that change the count, beside the area (Chinese) or territory (Japanese)
//! counting it is read by (docs/RULES.md, "KataGo rules strings").
//!
//! - `whb0`, `whbN`, `whbN-1` (none written: `whb0`): the points White
//!   receives for N >= 2 handicap stones, under either scoring.
//! - `button1`: the first player to pass takes the button, half a point.
//! - `taxSEKI` and `taxALL` under area scoring: no points for territory in a
//!   part of the board that touches dame or holds a stone in atari (a seki);
//!   `taxALL` also takes two points per other connected part of a player's
//!   area (stones and their territory), an ancient group tax.
//!
//! Read from KataGo's rules (lightvector.github.io/KataGo/rules.html). The
//! territory-scoring knobs (`taxNONE`, `taxALL`, play in KataGo's encore) are
//! not counted: the Japanese count stands for them.

use super::counting::{Method, Score};
use super::final_position::FinalPosition;
use crate::core::board::{Board, Color, Point};
use crate::core::grid::{Flood, Grid, NONE};

/// How a KataGo string scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    Area,
    Territory,
}

/// KataGo's group tax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tax {
    None,
    /// No territory in seki.
    Seki,
    /// No territory in seki, and two points per living group.
    All,
}

/// The points White receives for handicap stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapBonus {
    Zero,
    N,
    NMinusOne,
}

/// The knobs of a KataGo rules string that change the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KataGoRules {
    pub scoring: Scoring,
    pub tax: Tax,
    pub button: bool,
    pub handicap_bonus: HandicapBonus,
}

impl KataGoRules {
    /// Reads a KataGo rules string, in any case; `None` when `ru` is none
    /// (it names no `score` rule). A string without a tax takes KataGo's
    /// default for its scoring (`SEKI` under territory, `NONE` under area).
    pub fn read(ru: &str) -> Option<KataGoRules> {
        let l = ru.trim().to_ascii_lowercase();
        let scoring = if l.contains("scoreterritory") {
            Scoring::Territory
        } else if l.contains("scorearea") {
            Scoring::Area
        } else {
            return None;
        };
        let tax = if l.contains("taxall") {
            Tax::All
        } else if l.contains("taxseki") {
            Tax::Seki
        } else if l.contains("taxnone") || scoring == Scoring::Area {
            Tax::None
        } else {
            Tax::Seki
        };
        let handicap_bonus = if l.contains("whbn-1") {
            HandicapBonus::NMinusOne
        } else if l.contains("whbn") {
            HandicapBonus::N
        } else {
            HandicapBonus::Zero
        };
        Some(KataGoRules {
            scoring,
            tax,
            button: l.contains("button1"),
            handicap_bonus,
        })
    }

    /// White's handicap bonus for `handicap` stones (none below two).
    pub fn bonus(self, handicap: u32) -> f64 {
        match self.handicap_bonus {
            _ if handicap < 2 => 0.0,
            HandicapBonus::Zero => 0.0,
            HandicapBonus::N => f64::from(handicap),
            HandicapBonus::NMinusOne => f64::from(handicap - 1),
        }
    }

    /// Whether the count depends on the position beyond the counting it is
    /// read by: a tax under area scoring.
    pub fn taxes_area(self) -> bool {
        self.scoring == Scoring::Area && self.tax != Tax::None
    }
}

/// What a tax takes, per colour (`[black, white]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Taxed {
    /// Territory points in a part of the board in seki.
    pub seki_territory: [u32; 2],
    /// The parts of each player's area not in seki (independent life).
    pub living_parts: [u32; 2],
}

/// Splits the area of the final position (`dead` removed; living stones and
/// their territory) into its connected parts per colour. A part touching a
/// dame point, or holding a stone of its owner in atari, is in seki; the
/// others live independently.
pub fn taxed(board: &Board, dead: &[Point], pos: &FinalPosition) -> Taxed {
    let mut g = Grid::from_board(board);
    for p in dead {
        if board.contains(*p) {
            let i = g.index(*p);
            g.cells[i] = None;
        }
    }
    let area = Grid {
        n: g.n,
        cells: g
            .cells
            .iter()
            .zip(&pos.owner)
            .map(|(stone, owner)| stone.or(*owner))
            .collect(),
    };
    let parts = area.components(|c| c.is_some(), |a, b| a == b);
    let mut in_seki = vec![false; parts.count];
    let mut flood = Flood::new(g.cells.len());
    let mut atari_checked = vec![false; g.cells.len()];
    for (i, &part) in parts.label.iter().enumerate() {
        if part == NONE || in_seki[part as usize] {
            continue;
        }
        let touches_dame = area.neighbours(i).any(|j| area.cells[j].is_none());
        let in_atari = g.cells[i].is_some() && !atari_checked[i] && {
            let libs = flood.liberties(&g, i);
            for &s in &flood.string {
                atari_checked[s] = true;
            }
            libs.count == 1
        };
        if touches_dame || in_atari {
            in_seki[part as usize] = true;
        }
    }
    let mut out = Taxed::default();
    let mut counted = vec![false; parts.count];
    for (i, &part) in parts.label.iter().enumerate() {
        let Some(colour) = area.cells[i] else {
            continue;
        };
        let k = colour.index();
        if in_seki[part as usize] {
            if g.cells[i].is_none() {
                out.seki_territory[k] += 1;
            }
        } else if !counted[part as usize] {
            counted[part as usize] = true;
            out.living_parts[k] += 1;
        }
    }
    out
}

/// KataGo's count, from the count of the counting the string is read by
/// (Chinese for area, Japanese for territory): White's handicap bonus in
/// place of that counting's compensation, the button's half point to
/// `button` (the first player to pass), and under area scoring the tax
/// (`taxed`, when the count is of a position it was measured on).
pub fn count(
    base: &Score,
    rules: KataGoRules,
    handicap: u32,
    button: Option<Color>,
    taxed: Option<&Taxed>,
) -> Score {
    let mut s = *base;
    let button_to_white = match (rules.button, button) {
        (true, Some(Color::White)) => 0.5,
        (true, Some(Color::Black)) => -0.5,
        _ => 0.0,
    };
    s.compensation = rules.bonus(handicap) + button_to_white;
    if let (Method::Area, true, Some(t)) = (s.method, rules.taxes_area(), taxed) {
        for (side, k) in [(&mut s.black, 0), (&mut s.white, 1)] {
            side.territory -= t.seki_territory[k].min(side.territory);
            let group_tax = if rules.tax == Tax::All {
                2.0 * f64::from(t.living_parts[k])
            } else {
                0.0
            };
            side.points = f64::from(side.territory + side.stones) - group_tax;
        }
    }
    s.margin = s.black.points - s.white.points - s.komi - s.compensation;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::final_position::analyse;

    #[test]
    fn reads_the_knobs_katago_writes() {
        let r = KataGoRules::read("koPOSITIONALscoreAREAtaxNONEsui1button1").unwrap();
        assert_eq!(
            r,
            KataGoRules {
                scoring: Scoring::Area,
                tax: Tax::None,
                button: true,
                handicap_bonus: HandicapBonus::Zero
            }
        );
        let r = KataGoRules::read("koSITUATIONALscoreAREAtaxALLsui0whbN-1").unwrap();
        assert_eq!(
            (r.tax, r.handicap_bonus),
            (Tax::All, HandicapBonus::NMinusOne)
        );
        assert_eq!(r.bonus(4), 3.0);
        assert_eq!(r.bonus(1), 0.0);
        let r = KataGoRules::read("koSIMPLEscoreTERRITORYsui0whbN").unwrap();
        assert_eq!((r.scoring, r.tax), (Scoring::Territory, Tax::Seki));
        assert_eq!(r.bonus(3), 3.0);
        assert_eq!(KataGoRules::read("Chinese"), None);
    }

    #[test]
    fn a_part_touching_dame_is_in_seki() {
        // Black owns columns a-b (8 stones and the two corner points), White
        // the rest (9 stones and 5 empty points); the middle point of column
        // c is dame, beside Black's b-stone and three White stones. Each
        // player's area is one connected part, and both touch the dame: by
        // KataGo's rule both are in seki, and neither territory counts under
        // a tax.
        let b = Board::from_rows(&[
            ".XOO.", //
            "XXO.O", //
            "XX.OO", //
            "XXOO.", //
            ".XO..", //
        ]);
        let pos = analyse(&b, &[]);
        let t = taxed(&b, &[], &pos);
        assert_eq!(t.seki_territory, [2, 5]);
        assert_eq!(t.living_parts, [0, 0]);
    }
}
