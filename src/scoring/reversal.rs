//! The dead-stone estimate's calls reversed one group at a time. When RE
//! misses the count of a final position whose dead stones were estimated, a
//! group whose call (dead, or alive), reversed, makes the count give RE shows
//! that the mismatch may be the estimate's error rather than the record's: the
//! estimate agrees with the players' dead stones in about 97% of games, and
//! when it does not, it is most often one group it misjudged (C601 is then a
//! note, as when stones are left in doubt).

use std::collections::BTreeMap;

use super::counting::{Counting, Score, Tally};
use super::{final_position, Counter, DeadStones};
use crate::core::board::{Board, Color};
use crate::core::grid::{Grid, Units, NONE};

/// The count of the final position under `counting` with one group's call
/// reversed.
pub struct Reversal {
    pub counting: Counting,
    pub score: Score,
    /// The group and its reversed call, for a message: "the 2 W stones of
    /// the group at D9 (dk) alive", "the B stone at R2 (nr) dead".
    pub what: String,
}

/// Every group's call reversed in turn, counted under each of `countings`.
/// A group is the chains of one colour and one call joined through shared
/// liberties (a one-point jump, a diagonal, a bamboo joint): the unit a
/// dead-stone call usually covers. A chain called alive beside one called
/// dead (a living group and a stone of its colour lost in the opponent's
/// area, one liberty apart) is a group of its own, and so is the dead one:
/// the estimate may have erred on either alone. Groups holding a pass-alive
/// chain (Benson), which the estimate never calls dead, are left as they are.
pub(super) fn reversals(
    board: &Board,
    dead: &DeadStones,
    counter: &Counter,
    countings: &[Counting],
) -> Vec<Reversal> {
    let p = Grid::from_board(board);
    let (chain, colors) = p.chains();
    let all_dead = dead.all();
    let mut is_dead = vec![false; p.cells.len()];
    let mut chain_dead = vec![false; colors.len()];
    for &pt in &all_dead {
        let i = p.index(pt);
        is_dead[i] = true;
        if chain[i] != NONE {
            chain_dead[chain[i] as usize] = true;
        }
    }
    let mut groups = Units::new(colors.len());
    for i in 0..p.cells.len() {
        if p.cells[i].is_some() {
            continue;
        }
        // The first chain of each colour and call next to this liberty joins
        // the others of that colour and call.
        let mut first: [Option<usize>; 4] = [None; 4];
        for j in p.neighbours(i) {
            if chain[j] == NONE {
                continue;
            }
            let ch = chain[j] as usize;
            let side = 2 * usize::from(colors[ch] == Color::White) + usize::from(chain_dead[ch]);
            match first[side] {
                Some(a) => groups.join(a, ch),
                None => first[side] = Some(ch),
            }
        }
    }
    let pass_alive = crate::dead_stones::pass_alive_chains(&p, &chain, &colors);
    // Each group's points in row-major order, groups in the order of their
    // first point.
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut settled = vec![false; colors.len()];
    for (i, &ch) in chain.iter().enumerate() {
        if ch != NONE {
            let g = groups.root(ch as usize);
            members.entry(g).or_default().push(i);
            settled[g] |= pass_alive[ch as usize];
        }
    }
    let mut ordered: Vec<(usize, Vec<usize>)> = members.into_iter().collect();
    ordered.sort_by_key(|(_, pts)| pts[0]);
    let mut out = Vec::new();
    for (g, pts) in ordered {
        if settled[g] {
            continue;
        }
        let dead_here = pts.iter().filter(|&&i| is_dead[i]).count();
        let now_alive = if dead_here == pts.len() {
            true
        } else if dead_here == 0 {
            false
        } else {
            continue;
        };
        let rest: Vec<_> = if now_alive {
            all_dead
                .iter()
                .filter(|&&pt| !pts.contains(&p.index(pt)))
                .copied()
                .collect()
        } else {
            all_dead
                .iter()
                .copied()
                .chain(pts.iter().map(|&i| p.point(i)))
                .collect()
        };
        let alt = final_position::analyse(board, &rest);
        let at = p.point(pts[0]);
        let colour = colors[chain[pts[0]] as usize];
        let stones = match pts.len() {
            1 => format!("the {} stone at", colour.letter()),
            n => format!("the {n} {} stones of the group at", colour.letter()),
        };
        let what = format!(
            "{stones} {} ({}) {}",
            at.human(board.size()),
            at.sgf(),
            if now_alive { "alive" } else { "dead" },
        );
        for &c in countings {
            out.push(Reversal {
                counting: c,
                score: counter.score(c, &Tally::of(&alt, c)),
                what: what.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Point;
    use crate::core::replay::EndState;
    use crate::scoring::{DeadSource, KomiMode};

    #[test]
    fn chains_of_one_colour_called_apart_are_reversed_apart() {
        // Two pass-alive walls: Black's on column E with eyes D9 and D1,
        // White's on column F with eyes G9 and G1. In Black's area White's
        // B5-C5, called dead, and White's B3, called alive, share the
        // liberty B4. Hand count, Japanese, komi 0.5, with all three White
        // stones dead: Black's territory is columns A-D (36 points) less its
        // six stones, 30, with 3 prisoners, 33; White's is columns G-J (27)
        // less its six stones, 21: B+11.5. With B5-C5 alive as well as B3,
        // Black's area borders White and only its eyes D9 and D1 count:
        // Black 2, White 21, W+19.5.
        let board = Board::from_rows(&[
            "..X.XO.O.",
            "..XXXOOO.",
            "....XO...",
            "....XO...",
            ".OO.XO...",
            "....XO...",
            ".O..XO...",
            "..XXXOOO.",
            "..X.XO.O.",
        ]);
        let dead = DeadStones {
            source: DeadSource::Estimated,
            black: Vec::new(),
            white: vec![Point::new(1, 4), Point::new(2, 4)],
            uncertain: Vec::new(),
            added_by_rule7: Vec::new(),
        };
        let end = EndState::default();
        let counter = Counter {
            board: &board,
            end: &end,
            handicap: 0,
            komi: KomiMode::Value(0.5),
            recorded_komi: None,
        };
        let found: Vec<(String, String)> =
            reversals(&board, &dead, &counter, &[Counting::Japanese])
                .into_iter()
                .map(|r| (r.what, r.score.result()))
                .collect();
        assert_eq!(
            found,
            [
                (
                    "the 2 W stones of the group at B5 (be) alive".to_string(),
                    "W+19.5".to_string()
                ),
                (
                    "the W stone at B3 (bg) dead".to_string(),
                    "B+11.5".to_string()
                ),
            ]
        );
    }
}
