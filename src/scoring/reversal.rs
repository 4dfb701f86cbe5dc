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
/// A group is the chains of one colour joined through shared liberties (a
/// one-point jump, a diagonal, a bamboo joint): the unit a dead-stone call
/// usually covers. Groups whose chains the estimate calls partly dead and
/// partly alive are left as they are, and so are groups holding a
/// pass-alive chain (Benson), which the estimate never calls dead.
pub(super) fn reversals(
    board: &Board,
    dead: &DeadStones,
    counter: &Counter,
    countings: &[Counting],
) -> Vec<Reversal> {
    let p = Grid::from_board(board);
    let (chain, colors) = p.chains();
    let mut groups = Units::new(colors.len());
    for i in 0..p.cells.len() {
        if p.cells[i].is_some() {
            continue;
        }
        // The first chain of each colour next to this liberty joins the others.
        let mut first: [Option<usize>; 2] = [None, None];
        for j in p.neighbours(i) {
            if chain[j] == NONE {
                continue;
            }
            let ch = chain[j] as usize;
            let side = usize::from(colors[ch] == Color::White);
            match first[side] {
                Some(a) => groups.join(a, ch),
                None => first[side] = Some(ch),
            }
        }
    }
    let pass_alive = crate::dead_stones::pass_alive_chains(&p, &chain, &colors);
    let all_dead = dead.all();
    let mut is_dead = vec![false; p.cells.len()];
    for &pt in &all_dead {
        is_dead[p.index(pt)] = true;
    }
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
