//! KataGo's count of a record whose `RU` is a KataGo rules string
//! (`koPOSITIONALscoreAREAtaxSEKIsui1button1whbN`), as KataGo scores the end
//! of its own games (docs/RULES.md, "KataGo rules strings"; read from KataGo's
//! rules page, lightvector.github.io/KataGo/rules.html, and its scoring code).
//!
//! KataGo counts the board as it stands, without dead stones: a player's area
//! is their pass-alive strings (Benson) with the regions those alone surround
//! (a region with at most one point away from them, or one holding no
//! opponent stone), then every empty region bordered by that player only, then
//! every other stone for its owner. The knobs of the string:
//!
//! - `scoreAREA` counts that area; `scoreTERRITORY` counts it minus one point
//!   per stone placed in the main phase and the first phase of the encore,
//!   and only the connected parts of the area not in seki (below), with the
//!   other stones counted as they stood at the start of the second encore
//!   phase (play goes on after two passes: two encore phases, each ended by
//!   two passes).
//! - `taxSEKI` and `taxALL`: no points for territory in a part of the area
//!   (a player's stones and territory, connected) that touches dame or holds
//!   a stone of its owner in atari: a seki; `taxALL` also takes two points per
//!   other part (an ancient group tax). `taxNONE` counts all territory.
//! - `whb0`, `whbN`, `whbN-1` (none written: `whb0`): the points White
//!   receives for N >= 2 handicap stones.
//! - `button1`: the first player to pass takes the button, half a point.
//! - `sui1`: a region holding an opponent string is no eye of a pass-alive
//!   string (the string can be captured by a suicide of several stones).
//!
//! The encore's passes for ko place no stone (the replay reads them so,
//! A510) and are not charged. Not followed: the phases `koSPIGHT` and
//! repeated passes end without two passes in a row.

use super::counting::{Method, Score, Side};
use crate::core::board::{Board, Color, Snapshot};
use crate::core::game::{Event, GameRecord};
use crate::core::grid::{Flood, Grid, NONE};
use crate::core::replay::EndState;
use crate::dead_stones::benson;

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

/// KataGo's ko rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a ko is forbidden.
    Simple,
    /// Simple ko, with passes lifting bans (Spight's rules).
    Spight,
    /// No whole-board position may recur.
    Positional,
    /// No whole-board position may recur with the same player to move.
    Situational,
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
    /// `sui1`: a suicide of several stones is legal.
    pub multi_stone_suicide: bool,
    /// The ko rule, when the string names one.
    pub ko: Option<KoRule>,
}

impl KataGoRules {
    /// Reads a KataGo rules string, in any case; `None` when `ru` is none
    /// (it names no `score` rule). A string without a tax takes KataGo's
    /// default for its scoring (`SEKI` under territory, `NONE` under area).
    pub fn read(ru: &str) -> Option<KataGoRules> {
        // Most RU values name a ruleset; only KataGo's strings say "score".
        let says_score = ru
            .as_bytes()
            .windows(5)
            .any(|w| w.eq_ignore_ascii_case(b"score"));
        if !says_score {
            return None;
        }
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
        let ko = if l.contains("kosimple") {
            Some(KoRule::Simple)
        } else if l.contains("kospight") {
            Some(KoRule::Spight)
        } else if l.contains("kopositional") {
            Some(KoRule::Positional)
        } else if l.contains("kosituational") {
            Some(KoRule::Situational)
        } else {
            None
        };
        Some(KataGoRules {
            scoring,
            tax,
            button: l.contains("button1"),
            handicap_bonus,
            multi_stone_suicide: l.contains("sui1"),
            ko,
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

    /// What White receives besides komi: the handicap bonus, and the
    /// button's half point (to the first player to pass; negative when
    /// Black took it).
    fn compensation(self, play: &Play) -> f64 {
        let button = match (self.button, play.first_passer) {
            (true, Some(Color::White)) => 0.5,
            (true, Some(Color::Black)) => -0.5,
            _ => 0.0,
        };
        self.bonus(play.handicap) + button
    }
}

/// What KataGo's count takes from the game besides its final board.
#[derive(Clone, Copy, Debug)]
pub struct Play<'a> {
    pub handicap: u32,
    /// The first player to pass (the button's).
    pub first_passer: Option<Color>,
    /// Stones each colour placed (setup stones included) in the main phase
    /// and the first encore phase: a point each under territory scoring.
    pub chilled: [u32; 2],
    /// The board at the start of the second encore phase, when play reached
    /// it: a stone outside the parts that live independently counts then
    /// only if it stood there already.
    pub second_encore: Option<&'a Snapshot>,
    pub komi: f64,
}

/// The stones each colour placed in the main phase and the first encore
/// phase of KataGo's territory rules, setup stones included: every stone
/// placed until the second run of two passes (all of them when the record has
/// none).
pub fn chilled(record: &GameRecord, end: &EndState) -> [u32; 2] {
    let mut out = end.pass_pairs.get(1).map_or(end.placed, |p| p.placed);
    for event in &record.events {
        let Event::Setup { start, len } = *event else {
            break;
        };
        let (start, len) = (start as usize, len as usize);
        for (_, colour) in record.setup.iter().skip(start).take(len) {
            if let Some(c) = colour {
                out[c.index()] = out[c.index()].saturating_add(1);
            }
        }
    }
    out
}

/// A count from another counting's (Chinese or Japanese, of the position
/// with the dead stones removed) with the knobs that do not depend on the
/// position: White's handicap bonus in place of that counting's
/// compensation, and the button. For the record's own markup and the
/// readings of a position other than the final board.
pub fn adjusted(base: &Score, rules: KataGoRules, play: &Play) -> Score {
    let mut s = *base;
    s.compensation = rules.compensation(play);
    s.margin = s.black.points - s.white.points - s.komi - s.compensation;
    s
}

/// KataGo's count of the final board (see the module's text).
pub fn count(board: &Board, rules: KataGoRules, play: &Play) -> Score {
    let g = Grid::from_board(board);
    let basic = basic_area(&g, rules.multi_stone_suicide);
    let (living, parts) = independent_parts(&g, &basic);
    let territory_scoring = rules.scoring == Scoring::Territory;
    let mut sides = [Side::default(), Side::default()];
    for (i, &owner) in basic.iter().enumerate() {
        let stone = g.cells[i];
        let counted = if living[i] {
            owner
        } else if territory_scoring {
            // Territory scoring keeps the other territory under taxNONE
            // only; a stone outside the living parts counts for its owner
            // if it stood at the start of the second encore phase.
            match (owner, stone) {
                (Some(o), s) if rules.tax == Tax::None && s != Some(o) => Some(o),
                (_, Some(c)) => {
                    let stood = play
                        .second_encore
                        .is_none_or(|b| b.get(g.point(i)) == Some(c));
                    stood.then_some(c)
                }
                _ => None,
            }
        } else if rules.tax == Tax::None {
            owner
        } else {
            // A tax keeps the stones of a part in seki, not its territory.
            owner.filter(|&o| stone == Some(o))
        };
        if let Some(c) = counted {
            let side = &mut sides[c.index()];
            if stone == Some(c) {
                side.stones += 1;
            } else {
                side.territory += 1;
            }
        }
    }
    for (k, side) in sides.iter_mut().enumerate() {
        let mut points = f64::from(side.territory + side.stones);
        if rules.tax == Tax::All {
            points -= 2.0 * f64::from(parts[k]);
        }
        if territory_scoring {
            points -= f64::from(play.chilled[k]);
        }
        side.points = points;
    }
    let [black, white] = sides;
    let compensation = rules.compensation(play);
    Score {
        method: if territory_scoring {
            Method::Territory
        } else {
            Method::Area
        },
        black,
        white,
        komi: play.komi,
        compensation,
        margin: black.points - white.points - play.komi - compensation,
    }
}

/// KataGo's area of the board as it stands, per point: for each player in
/// turn (Black, then White), their pass-alive strings and the regions those
/// alone surround (every point of a region the player's, even an opponent
/// stone inside), then the empty regions bordered by that player only (where
/// not already the other's); the points left get the colour of their stone.
fn basic_area(g: &Grid, every_point: bool) -> Vec<Option<Color>> {
    let (chain, colors) = g.chains();
    let mut area: Vec<Option<Color>> = vec![None; g.cells.len()];
    for pla in [Color::Black, Color::White] {
        if !g.cells.contains(&Some(pla)) {
            continue;
        }
        let alive = benson(g, &chain, &colors, pla, every_point);
        let regions = g.components(|x| x != Some(pla), |a, b| a != Some(pla) && b != Some(pla));
        #[derive(Clone, Copy, Default)]
        struct Region {
            has_empty: bool,
            holds_opponent: bool,
            /// Points not next to the player's stones, counted up to two.
            inner: u8,
            /// Next to a string of the player that is not pass-alive.
            borders_unsafe: bool,
        }
        let mut info = vec![Region::default(); regions.count];
        for (i, &r) in regions.label.iter().enumerate() {
            if r == NONE {
                continue;
            }
            let region = &mut info[r as usize];
            region.has_empty |= g.cells[i].is_none();
            region.holds_opponent |= g.cells[i].is_some();
            let mut next_to_player = false;
            for j in g.neighbours(i) {
                if g.cells[j] == Some(pla) {
                    next_to_player = true;
                    region.borders_unsafe |= !alive[chain[j] as usize];
                }
            }
            if !next_to_player {
                region.inner = (region.inner + 1).min(2);
            }
        }
        for (i, &r) in regions.label.iter().enumerate() {
            if r == NONE {
                if alive[chain[i] as usize] {
                    area[i] = Some(pla);
                }
                continue;
            }
            let region = info[r as usize];
            if !region.has_empty {
                continue;
            }
            let safe = !region.borders_unsafe && (region.inner <= 1 || !region.holds_opponent);
            if safe || (!region.holds_opponent && area[i].is_none()) {
                area[i] = Some(pla);
            }
        }
    }
    for (a, &stone) in area.iter_mut().zip(&g.cells) {
        if a.is_none() {
            *a = stone;
        }
    }
    area
}

/// The connected parts of each player's area (points of one owner in
/// `basic`), and which points lie in a part that lives independently: one
/// that touches no dame (an empty point nobody owns) and holds no stone of its
/// owner in atari. Also the number of such parts per colour.
fn independent_parts(g: &Grid, basic: &[Option<Color>]) -> (Vec<bool>, [u32; 2]) {
    let owners = Grid {
        n: g.n,
        cells: basic.to_vec(),
    };
    let parts = owners.components(|c| c.is_some(), |a, b| a == b);
    let mut in_seki = vec![false; parts.count];
    let mut flood = Flood::new(g.cells.len());
    let mut in_atari = vec![None; g.cells.len()];
    for (i, &part) in parts.label.iter().enumerate() {
        if part == NONE || in_seki[part as usize] {
            continue;
        }
        let touches_dame = g
            .neighbours(i)
            .any(|j| g.cells[j].is_none() && basic[j].is_none());
        let owners_stone_in_atari = g.cells[i].is_some()
            && g.cells[i] == basic[i]
            && match in_atari[i] {
                Some(known) => known,
                None => {
                    let one = flood.liberties(g, i).count == 1;
                    for &s in &flood.string {
                        in_atari[s] = Some(one);
                    }
                    one
                }
            };
        if touches_dame || owners_stone_in_atari {
            in_seki[part as usize] = true;
        }
    }
    let mut living = vec![false; g.cells.len()];
    let mut counted = vec![false; parts.count];
    let mut count = [0u32; 2];
    for (i, &part) in parts.label.iter().enumerate() {
        let Some(owner) = basic[i] else {
            continue;
        };
        if in_seki[part as usize] {
            continue;
        }
        living[i] = true;
        if !counted[part as usize] {
            counted[part as usize] = true;
            count[owner.index()] += 1;
        }
    }
    (living, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_knobs_katago_writes() {
        let r = KataGoRules::read("koPOSITIONALscoreAREAtaxNONEsui1button1").unwrap();
        assert_eq!(
            r,
            KataGoRules {
                scoring: Scoring::Area,
                tax: Tax::None,
                button: true,
                handicap_bonus: HandicapBonus::Zero,
                multi_stone_suicide: true,
                ko: Some(KoRule::Positional),
            }
        );
        let r = KataGoRules::read("koSITUATIONALscoreAREAtaxALLsui0whbN-1").unwrap();
        assert_eq!(
            (r.tax, r.handicap_bonus, r.multi_stone_suicide),
            (Tax::All, HandicapBonus::NMinusOne, false)
        );
        assert_eq!(r.bonus(4), 3.0);
        assert_eq!(r.bonus(1), 0.0);
        let r = KataGoRules::read("koSIMPLEscoreTERRITORYsui0whbN").unwrap();
        assert_eq!((r.scoring, r.tax), (Scoring::Territory, Tax::Seki));
        assert_eq!(r.bonus(3), 3.0);
        assert_eq!(KataGoRules::read("Chinese"), None);
    }

    fn play(komi: f64) -> Play<'static> {
        Play {
            handicap: 0,
            first_passer: None,
            chilled: [0, 0],
            second_encore: None,
            komi,
        }
    }

    /// A position, with KataGo's area of it and its parts (points in a
    /// living part, and the living parts per colour).
    fn parts_of(rows: &[&str], every_point: bool) -> (Box<Board>, Vec<bool>, [u32; 2]) {
        let b = Board::from_rows(rows);
        let g = Grid::from_board(&b);
        let (living, parts) = independent_parts(&g, &basic_area(&g, every_point));
        (b, living, parts)
    }

    fn area(tax: Tax) -> KataGoRules {
        KataGoRules {
            scoring: Scoring::Area,
            tax,
            button: false,
            handicap_bonus: HandicapBonus::Zero,
            multi_stone_suicide: false,
            ko: Some(KoRule::Simple),
        }
    }

    #[test]
    fn a_part_touching_dame_is_in_seki() {
        // Black: 8 stones on columns a-b and the two corner points beside
        // them; White: 9 stones and 5 empty points on the rest; the middle
        // point of column c is dame, beside Black's b-stone and three White
        // stones. Each player's area is one connected part, and both touch
        // the dame: by KataGo's rule both are in seki.
        let (b, living, parts) = parts_of(
            &[
                ".XOO.", //
                "XXO.O", //
                "XX.OO", //
                "XXOO.", //
                ".XO..", //
            ],
            false,
        );
        assert!(!living.contains(&true));
        assert_eq!(parts, [0, 0]);
        // No tax: 10 points to 14. A tax keeps the stones only: 8 to 9.
        assert_eq!(count(&b, area(Tax::None), &play(0.0)).margin, -4.0);
        let taxed = count(&b, area(Tax::Seki), &play(0.0));
        assert_eq!((taxed.black.points, taxed.white.points), (8.0, 9.0));
    }

    #[test]
    fn a_pass_alive_area_holds_the_opponent_stone_inside_it() {
        // Black's string (10 stones) is pass-alive with three eyes: the
        // region of the two top-left points and the White stone beside them,
        // and the two single points at the lower left. That region is
        // Black's with the stone in it; White's wall on d-e (6 stones, 4 points) is
        // pass-alive too. Area 15 to 10, and one living part each.
        let rows = [
            ".XXO.", //
            ".OXO.", //
            "XXXOO", //
            "X.XO.", //
            ".XXO.", //
        ];
        let (b, _, parts) = parts_of(&rows, false);
        assert_eq!(parts, [1, 1]);
        let s = count(&b, area(Tax::None), &play(0.0));
        assert_eq!((s.black.points, s.white.points), (15.0, 10.0));
        // Under sui1 the White stone makes that region no eye of Black's;
        // Black's two single-point eyes still make it pass-alive.
        let g = Grid::from_board(&b);
        assert_eq!(basic_area(&g, true), basic_area(&g, false));
        // The group tax: two points a part, one part each.
        let s = count(&b, area(Tax::All), &play(0.0));
        assert_eq!((s.black.points, s.white.points), (13.0, 8.0));
    }
}
