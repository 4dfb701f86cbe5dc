//! Seki among the chains the playouts call dead.
//!
//! Light playouts misjudge a seki whose chains have no eye: a random move
//! fills a shared liberty or captures into a shape the opponent then kills, so
//! a chain that neither side can approach is lost in most playouts. This test
//! decides such a chain by the definition of seki instead (Japanese rule 8 and
//! its commentary: living stones that share liberties neither side can fill;
//! AGA rule 12's seki). A chain is one string, or strings of one colour that
//! share an eye point (the caller joins them); it is judged on the position
//! with the estimate's other dead stones removed:
//!
//! 0. The neutral points beside the opponent's strings around the chain that
//!    join two strings of the chain's owner, and no two of the opponent's, are
//!    filled by the owner where that is safe: a player fills the dame that
//!    joins its own strings, as a Japanese count does first
//!    (`scoring::japanese`). Then a joined chain must keep every string with
//!    two liberties, and no eye point joining its strings may be false: a
//!    diagonal point holding an opponent stone whose string has a liberty
//!    outside the chain's (two such points away from the edge, one on it).
//! 1. The opponent fills, one at a time, every liberty of the chain that
//!    touches one of its stones and that it can fill safely: its string there
//!    keeps two liberties (an approach from outside), or the fill captures the
//!    chain (then the chain is dead: no seki).
//! 2. What the opponent cannot fill is a **shared liberty** when the fill
//!    would leave its string in atari, captures nothing, and every string of
//!    the opponent's that it joins has all its liberties among the chain's: a
//!    string short of liberties that cannot gain any but by capturing the
//!    chain. The chain can then never be captured: filling that liberty gives
//!    the chain a capture first. The exception is a sacrifice: when the
//!    stones the chain would capture there, with its eye points beside them,
//!    leave it only an eye space the opponent kills by playing inside (three
//!    points or fewer, the square, pyramid or corner bent four, the bulky or
//!    crossed five), the opponent approaches there and the chain is dead.
//! 3. The chain lives in seki when it keeps at least two liberties and at
//!    least one of them is shared; its other liberties are its own eye points,
//!    which the opponent cannot fill without filling the shared one too.
//!
//! The test is conservative where the chain could simply capture: when a
//! string of the opponent's beside it is in atari, or when a fill would
//! capture another chain, it answers no and the playouts' verdict stands.

use crate::core::board::Color;
use crate::core::grid::{Flood, Grid};

/// Whether the chain of stones at `starts` in `g` (a position without the
/// estimate's other dead stones) lives in seki: one string, or strings of one
/// colour that share an eye point, judged as one chain. `g` is used as scratch
/// and restored before returning.
///
/// `eyes` are the eye points that join the strings (none for one string). A
/// joined chain is judged as one only when none of them is a false eye once
/// the dame that join the owner's strings are filled ([`false_eye`]): where
/// one is, the caller judges the strings one by one.
pub(super) fn in_seki(g: &mut Grid, starts: &[usize], eyes: &[usize], flood: &mut Flood) -> bool {
    let Some(&first) = starts.first() else {
        return false;
    };
    let Some(c) = g.cells[first] else {
        return false;
    };
    if starts.iter().any(|&s| g.cells[s] != Some(c)) {
        return false;
    }
    let e = c.opponent();
    let mut placed = Vec::new();
    let verdict = settle(g, starts, eyes, c, e, flood, &mut placed);
    for p in placed {
        g.cells[p] = None;
    }
    verdict
}

/// Steps 0 to 3 of the module's test; the fills are left in `placed` for the
/// caller to take back.
fn settle(
    g: &mut Grid,
    starts: &[usize],
    eyes: &[usize],
    c: Color,
    e: Color,
    flood: &mut Flood,
    placed: &mut Vec<usize>,
) -> bool {
    join_own_strings(g, starts, c, e, flood, placed);
    let (stones, mut libs) = chain_and_liberties(g, starts);
    if !each_keeps_two(g, starts, flood) || eyes.iter().any(|&t| false_eye(g, t, &libs, e)) {
        return false;
    }
    // A string of the opponent's in atari beside the chain: the chain's owner
    // captures it, which is no seki to judge here.
    let mut seen = vec![false; g.cells.len()];
    for &s in &stones {
        for j in g.neighbours(s) {
            if g.cells[j] != Some(e) || seen[j] {
                continue;
            }
            if flood.liberties(g, j).count < 2 {
                return false;
            }
            for &t in &flood.string {
                seen[t] = true;
            }
        }
    }
    // Step 1: the safe fills, pass after pass until none is left (a fill can
    // make another safe by joining strings).
    loop {
        let mut filled = false;
        for &l in &libs {
            if !g.neighbours(l).any(|j| g.cells[j] == Some(e)) {
                continue; // an eye point of the chain
            }
            g.cells[l] = Some(e);
            // A fill that captures ends the test: it captures the chain (no
            // seki) or another string (a fight that is not a plain seki).
            if g.neighbours(l)
                .any(|j| g.cells[j] == Some(c) && flood.liberties(g, j).count == 0)
            {
                g.cells[l] = None;
                return false;
            }
            filled |= keep_with_two_liberties(g, l, flood, placed);
        }
        if !filled {
            break;
        }
        libs = chain_and_liberties(g, starts).1;
        if !each_keeps_two(g, starts, flood) {
            return false;
        }
    }
    // Steps 2 and 3: what is left beside the opponent's stones.
    let mut is_lib = vec![false; g.cells.len()];
    for &l in &libs {
        is_lib[l] = true;
    }
    let mut shared = false;
    for &l in &libs {
        if !g.neighbours(l).any(|j| g.cells[j] == Some(e)) {
            continue;
        }
        g.cells[l] = Some(e);
        let theirs = flood.liberties(g, l);
        let sacrificed = std::mem::take(&mut flood.string);
        // The chain's owner cannot fill it either: the chain would be left in
        // atari (else it could attack the short string).
        g.cells[l] = Some(c);
        let own_fill = flood.liberties(g, l).count;
        g.cells[l] = None;
        if theirs.count == 1 && sacrifice_kills(g, &is_lib, &sacrificed, theirs.first, e) {
            return false; // the opponent approaches there and kills
        }
        // The opponent's strings this fill would join each have every
        // liberty among the chain's: they cannot gain one but by capturing.
        let enclosed = g.neighbours(l).all(|j| {
            g.cells[j] != Some(e) || chain_and_liberties(g, &[j]).1.iter().all(|&t| is_lib[t])
        });
        shared |= enclosed && own_fill < 2;
    }
    shared
}

/// Whether the opponent can approach by a sacrifice: the stones `sacrificed`
/// (its string joined by the fill), captured by the chain at `capture` (their
/// last liberty), leave the chain one eye space that a move inside kills
/// ([`killable`]) and no eye point elsewhere.
fn sacrifice_kills(
    g: &Grid,
    is_lib: &[bool],
    sacrificed: &[usize],
    capture: usize,
    e: Color,
) -> bool {
    if sacrificed.len() > MAX_KILLABLE {
        return false; // the eye space only grows from there
    }
    // The eye space after the capture: the captured points and the chain's
    // eye points (liberties beside no opponent stone) joined to them.
    let eye_point = |p: usize| {
        p != capture
            && is_lib[p]
            && !g
                .neighbours(p)
                .any(|j| g.cells[j] == Some(e) && !sacrificed.contains(&j))
    };
    let mut space: Vec<usize> = sacrificed.to_vec();
    let mut k = 0;
    while k < space.len() {
        let i = space[k];
        k += 1;
        for j in g.neighbours(i) {
            if !space.contains(&j) && eye_point(j) {
                space.push(j);
            }
        }
    }
    let elsewhere = (0..is_lib.len()).any(|p| !space.contains(&p) && eye_point(p));
    !elsewhere && killable(g, &space)
}

/// The largest eye space [`killable`] names.
const MAX_KILLABLE: usize = 5;

/// The eye spaces the opponent kills by playing inside: up to three points,
/// the square four, the pyramid four, the bent four whose bend is a corner
/// point (dead under Japanese rules, a ko under the others: no seki either
/// way), the bulky five and the crossed five.
fn killable(g: &Grid, space: &[usize]) -> bool {
    let degree = |i: usize| g.neighbours(i).filter(|j| space.contains(j)).count();
    let square = || {
        space.iter().any(|&i| {
            let n = g.n;
            let (x, y) = (i % n, i / n);
            x + 1 < n && y + 1 < n && [i + 1, i + n, i + n + 1].iter().all(|j| space.contains(j))
        })
    };
    let corner = |i: usize| {
        let (x, y, last) = (i % g.n, i / g.n, g.n - 1);
        (x == 0 || x == last) && (y == 0 || y == last)
    };
    match space.len() {
        0..=3 => true,
        4 => {
            square()
                || space.iter().any(|&i| degree(i) == 3)
                || space.iter().any(|&i| corner(i) && degree(i) == 2)
        }
        MAX_KILLABLE => square() || space.iter().any(|&i| degree(i) == 4),
        _ => false,
    }
}

/// Step 0: the neutral points beside the opponent's strings around the chain
/// that join strings of the chain's owner and no two strings of the opponent's
/// are filled by the owner, when its string there keeps two liberties and the
/// fill captures nothing: a player fills the dame that joins its own strings
/// (the Japanese settlement's first step, `scoring::japanese`). A point beside
/// the chain itself is left to steps 1 and 2.
fn join_own_strings(
    g: &mut Grid,
    starts: &[usize],
    c: Color,
    e: Color,
    flood: &mut Flood,
    placed: &mut Vec<usize>,
) {
    loop {
        let (stones, libs) = chain_and_liberties(g, starts);
        let mut outside = Vec::new();
        let mut seen = vec![false; g.cells.len()];
        for &s in &stones {
            for j in g.neighbours(s) {
                if g.cells[j] == Some(e) && !seen[j] {
                    let (theirs, their_libs) = chain_and_liberties(g, &[j]);
                    for t in theirs {
                        seen[t] = true;
                    }
                    outside.extend(their_libs.into_iter().filter(|q| !libs.contains(q)));
                }
            }
        }
        let mut filled = false;
        for q in outside {
            if g.cells[q].is_some() || strings_beside(g, q, c, flood) < 2 {
                continue;
            }
            if strings_beside(g, q, e, flood) >= 2
                || g.neighbours(q)
                    .any(|j| g.cells[j] == Some(e) && flood.liberties(g, j).count < 2)
            {
                continue;
            }
            g.cells[q] = Some(c);
            filled |= keep_with_two_liberties(g, q, flood, placed);
        }
        if !filled {
            break;
        }
    }
}

/// Whether the eye point `t` is false: a diagonal point holds a stone of the
/// opponent `e` whose string has a liberty outside the chain's `libs` (two
/// such points away from the edge, one on it). From there the opponent
/// ataris one of the strings around the eye without filling a liberty it
/// shares with the chain. A string whose liberties are all the chain's
/// cannot: every move it makes there fills one of its own last liberties.
fn false_eye(g: &Grid, t: usize, libs: &[usize], e: Color) -> bool {
    let n = g.n;
    let (x, y) = (t % n, t / n);
    let on_edge = x == 0 || y == 0 || x + 1 == n || y + 1 == n;
    let mut against = 0;
    for (dx, dy) in [(-1i64, -1i64), (-1, 1), (1, -1), (1, 1)] {
        let (u, v) = (x as i64 + dx, y as i64 + dy);
        if u < 0 || v < 0 || u >= n as i64 || v >= n as i64 {
            continue;
        }
        let d = v as usize * n + u as usize;
        if g.cells[d] == Some(e)
            && chain_and_liberties(g, &[d])
                .1
                .iter()
                .any(|l| !libs.contains(l))
        {
            against += 1;
        }
    }
    against >= if on_edge { 1 } else { 2 }
}

/// Keeps the stone just placed at `p` (recorded in `placed`) when its string
/// has two liberties or more; else takes it back. Returns whether it was kept.
fn keep_with_two_liberties(
    g: &mut Grid,
    p: usize,
    flood: &mut Flood,
    placed: &mut Vec<usize>,
) -> bool {
    if flood.liberties(g, p).count >= 2 {
        placed.push(p);
        true
    } else {
        g.cells[p] = None;
        false
    }
}

/// How many distinct strings of `color` touch the empty point `q`.
fn strings_beside(g: &Grid, q: usize, color: Color, flood: &mut Flood) -> usize {
    let mut ids = [usize::MAX; 4];
    let mut n = 0;
    for j in g.neighbours(q) {
        if g.cells[j] == Some(color) {
            let id = flood.liberties(g, j).id;
            if !ids[..n].contains(&id) {
                ids[n] = id;
                n += 1;
            }
        }
    }
    n
}

/// Whether every string of the chain keeps two liberties.
fn each_keeps_two(g: &Grid, starts: &[usize], flood: &mut Flood) -> bool {
    starts
        .iter()
        .all(|&s| g.cells[s].is_some() && flood.liberties(g, s).count >= 2)
}

/// The stones of the chain at `starts` and its liberties, in the order found.
fn chain_and_liberties(g: &Grid, starts: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let Some(&start) = starts.first() else {
        return (Vec::new(), Vec::new());
    };
    let color = g.cells[start];
    let mut seen = vec![false; g.cells.len()];
    let mut stones = Vec::new();
    for &s in starts {
        if !seen[s] && g.cells[s] == color {
            seen[s] = true;
            stones.push(s);
        }
    }
    let mut libs = Vec::new();
    let mut k = 0;
    while k < stones.len() {
        let i = stones[k];
        k += 1;
        for j in g.neighbours(i) {
            if seen[j] {
                continue;
            }
            if g.cells[j].is_none() {
                seen[j] = true;
                libs.push(j);
            } else if g.cells[j] == color {
                seen[j] = true;
                stones.push(j);
            }
        }
    }
    (stones, libs)
}

/// Black's corner stones: the two on the top edge and the one below the
/// corner share the eye in the corner; White's group around them has the two
/// liberties beside them and the neutral point at (5, 3), between Black's wall
/// and Black's stones at (6, 3). A test position, here and in `mod.rs`.
#[cfg(test)]
pub(super) const CORNER: [&str; 9] = [
    "....XOXX.", //
    "....XO.OX", //
    "....XOOO.", //
    "....X.XOO", //
    "....X.XXX", //
    ".........", //
    ".........", //
    ".........", //
    ".........", //
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Board;

    /// Whether the chain at (x, y) of `rows` is in seki.
    fn seki_at(rows: &[&str], x: usize, y: usize) -> bool {
        let mut g = Grid::from_board(&Board::from_rows(rows));
        let before = g.clone();
        let mut flood = Flood::new(g.cells.len());
        let at = y * g.n + x;
        let answer = in_seki(&mut g, &[at], &[], &mut flood);
        assert_eq!(g, before, "the position is restored");
        answer
    }

    #[test]
    fn an_eyeless_seki_lives() {
        // White's ring has no eye; its two liberties are Black's three
        // stones' only ones. White filling either is self-atari; Black
        // filling one makes a straight four that White captures and lives
        // in. Neither side can approach: seki.
        let rows = [
            ".XXXXXXX.", //
            "XXXXXXXXX", //
            "XOOOOOOOX", //
            "XO.XXX.OX", //
            "XOOOOOOOX", //
            "XXXXXXXXX", //
            "XX.XXX.XX", //
            "XXXXXXXXX", //
            ".XXXXXXX.", //
        ];
        assert!(seki_at(&rows, 1, 2));
    }

    #[test]
    fn a_sacrifice_that_leaves_a_nakade_kills() {
        // The same ring around two stones: Black throws in at one liberty,
        // White captures three stones and is left a straight three, which
        // Black kills by playing its middle point.
        let rows = [
            ".XXXXXXX.", //
            "XXXXXXXXX", //
            "XOOOOOOOX", //
            "XO.XX.OOX", //
            "XOOOOOOOX", //
            "XXXXXXXXX", //
            "XX.XXX.XX", //
            "XXXXXXXXX", //
            ".XXXXXXX.", //
        ];
        assert!(!seki_at(&rows, 1, 2));
    }

    #[test]
    fn a_bent_four_in_the_corner_is_no_seki() {
        // Black's three stones on the edge share White's two liberties.
        // Black's throw-in at the edge point ti makes the bent four whose
        // bend is the corner: White's capture leaves the shape Japanese
        // rules call dead (and the other rules a ko).
        let rows = [
            "XXXXXOXXX", //
            "XXXXXO.O.", //
            "XXXXXOOOO", //
            "XXXXXXXXX", //
            "X.XXXXX.X", //
            "XXXXXXXXX", //
            "XXX.XXXXX", //
            "XXXXXXXXX", //
            "X.XXXX.XX", //
        ];
        assert!(!seki_at(&rows, 5, 0));
    }

    /// Whether the chain of the strings at `starts` ((x, y) pairs), joined by
    /// the eye points `eyes`, is in seki.
    fn joined_seki_at(rows: &[&str], starts: &[(usize, usize)], eyes: &[(usize, usize)]) -> bool {
        let mut g = Grid::from_board(&Board::from_rows(rows));
        let before = g.clone();
        let mut flood = Flood::new(g.cells.len());
        let at = |&(x, y): &(usize, usize)| y * g.n + x;
        let starts: Vec<usize> = starts.iter().map(at).collect();
        let eyes: Vec<usize> = eyes.iter().map(at).collect();
        let answer = in_seki(&mut g, &starts, &eyes, &mut flood);
        assert_eq!(g, before, "the position is restored");
        answer
    }

    #[test]
    fn strings_sharing_an_eye_live_in_seki_once_the_dame_is_filled() {
        // Black fills the neutral point (5, 3), which joins its two strings
        // there. White is left the liberties (6, 1) and (8, 2): White at
        // either is self-atari (Black captures at the other), Black at
        // either puts a string of its own in atari beside White's capture at
        // the corner. Neither side can approach: seki. Each string alone
        // has a liberty (the corner) that White's group does not touch, so
        // only the two together show it.
        assert!(joined_seki_at(&CORNER, &[(6, 0), (8, 1)], &[(8, 0)]));
        assert!(!joined_seki_at(&CORNER, &[(6, 0)], &[]));
        assert!(!joined_seki_at(&CORNER, &[(8, 1)], &[]));
    }

    #[test]
    fn a_false_eye_does_not_join_strings() {
        // The corner eye's one diagonal point holds White's stone: it is
        // false when that stone's string has a liberty outside the chain's,
        // and not when all its liberties are the chain's (after Black's
        // fill at (5, 3), White's group has only (6, 1) and (8, 2)).
        let g = Grid::from_board(&Board::from_rows(&CORNER));
        let at = |x: usize, y: usize| y * g.n + x;
        let libs = chain_and_liberties(&g, &[at(6, 0), at(8, 1)]).1;
        assert!(false_eye(&g, at(8, 0), &libs, Color::White));
        let mut filled = g.clone();
        filled.cells[at(5, 3)] = Some(Color::Black);
        assert!(!false_eye(&filled, at(8, 0), &libs, Color::White));
        // Away from the edge, one free diagonal stone leaves the eye real,
        // two make it false.
        let rows = [
            ".........", //
            ".........", //
            "...OX....", //
            "...X.X...", //
            "....X....", //
            ".........", //
            ".........", //
            ".........", //
            ".........", //
        ];
        let g = Grid::from_board(&Board::from_rows(&rows));
        let eye = at(4, 3);
        assert!(!false_eye(&g, eye, &[eye], Color::White));
        let mut two = g.clone();
        two.cells[at(5, 4)] = Some(Color::White);
        assert!(false_eye(&two, eye, &[eye], Color::White));
    }

    #[test]
    fn a_chain_the_opponent_can_fill_around_is_dead() {
        // A White stone inside Black's area: Black fills its liberties
        // safely and captures it.
        let rows = [
            ".XXXXXXX.", //
            "XX.....XX", //
            "X...O...X", //
            "X.......X", //
            "XXXXXXXXX", //
            "XX.XXX.XX", //
            "XXXXXXXXX", //
            "XXXXXXXXX", //
            ".XXXXXXX.", //
        ];
        assert!(!seki_at(&rows, 4, 2));
    }

    #[test]
    fn a_chain_that_can_fill_a_shared_liberty_races_instead() {
        // White has an eye on the edge besides the two liberties it shares
        // with Black's three stones: filling one leaves White two liberties,
        // so White attacks them (one eye against none). That race, not a
        // seki, decides, and the playouts' verdict stands.
        let rows = [
            "O.OOOOOOX", //
            "OOOOOOOOX", //
            "O.XXX.OOX", //
            "OOOOOOOOX", //
            "XXXXXXXXX", //
            "XX.XXX.XX", //
            "XXXXXXXXX", //
            "X.XXXXX.X", //
            "XXXXXXXXX", //
        ];
        assert!(!seki_at(&rows, 0, 0));
    }
}
