//! The final position, analysed once for every counting: living stones, dead
//! stones, topological territory, dame, and the eye points of groups in seki under
//! the two readings of Japanese rule 8.
//!
//! Vocabulary: a *chain* is a string of stones; a *region* is a maximal connected
//! set of empty points (dead stones removed); a region bordered by one colour only
//! is that colour's (topological) territory, one bordered by both is dame. A
//! *group* is a set of chains of one colour linked through the regions only they
//! border (their eye space).
//!
//! Japanese rule 8: "living stones that possess dame are in seki"; eye points of
//! groups in seki are not territory.
//! - `strict` reads it on the final position as it stands: every group touching a
//!   dame point is in seki.
//! - `customary` assumes the dame filled, as Japanese games do before counting: only
//!   a dame point that neither side can fill without putting its own chain in atari
//!   (a true seki liberty) puts the groups touching it in seki.
//!
//! In both readings a one-point region next to its owner's chain in atari (an
//! *atari point*: the opponent captures that chain by playing there, as in a ko or
//! a false eye) is not surrounded by living stones, so it is dame for rule 8, never
//! territory, and links no group (commentary P: the ko points of a double-ko seki
//! are dame and the groups around them live in seki). It stays the owner's
//! territory for the topological countings (AGA, Swedish, area).

use crate::board::{Board, Color, Point};
use crate::position::{Position, NONE};

/// Which reading of Japanese rule 8 decides seki.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SekiReading {
    /// Dame assumed filled; only true seki (default).
    #[default]
    Customary,
    /// The final position as it stands: a living group touching dame is in seki.
    Strict,
}

/// The analysed final position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FinalPosition {
    /// Living stones per colour.
    pub stones: [u32; 2],
    /// Dead stones per colour (removed, the opponent's prisoners).
    pub dead: [u32; 2],
    /// Topological territory per colour.
    pub territory: [u32; 2],
    /// Empty points bordered by both colours or none.
    pub dame: u32,
    /// Territory points that are eyes of groups in seki, per colour: strict reading.
    pub seki_eyes_strict: [u32; 2],
    /// ... customary reading.
    pub seki_eyes_customary: [u32; 2],
    /// Atari points per colour: one-point territories next to an own chain in
    /// atari (a ko, or a false eye the owner must fill), dame for rule 8 in both
    /// readings.
    pub atari_points: [u32; 2],
}

impl FinalPosition {
    /// Territory points that do not count under a reading of Japanese rule 8, per
    /// colour: seki eyes and atari points.
    pub fn seki_eyes(&self, r: SekiReading) -> [u32; 2] {
        let eyes = match r {
            SekiReading::Strict => self.seki_eyes_strict,
            SekiReading::Customary => self.seki_eyes_customary,
        };
        [
            eyes[0] + self.atari_points[0],
            eyes[1] + self.atari_points[1],
        ]
    }
}

fn find(parent: &mut [u32], mut a: u32) -> u32 {
    while parent[a as usize] != a {
        let p = parent[a as usize];
        parent[a as usize] = parent[p as usize];
        a = p;
    }
    a
}

/// Removes `dead` stones from the final position and analyses what is left.
pub fn analyse(board: &Board, dead: &[Point]) -> FinalPosition {
    let mut g = Position::from_board(board);
    let n = g.n;
    let mut out = FinalPosition::default();
    for p in dead {
        let i = usize::from(p.y) * n + usize::from(p.x);
        if let Some(Some(c)) = g.cells.get(i).copied() {
            out.dead[c.index()] += 1;
            g.cells[i] = None;
        }
    }

    // Chains (stones) and regions (empty points), labelled by flood fill.
    let mut chain = vec![NONE; n * n];
    let mut chain_color: Vec<Color> = Vec::new();
    let mut region = vec![NONE; n * n];
    let mut region_size: Vec<u32> = Vec::new();
    let mut region_touch: Vec<[bool; 2]> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..n * n {
        match g.cells[start] {
            Some(c) if chain[start] == NONE => {
                let id = chain_color.len() as u32;
                chain_color.push(c);
                chain[start] = id;
                stack.push(start);
                while let Some(i) = stack.pop() {
                    out.stones[c.index()] += 1;
                    for j in g.neighbours(i) {
                        if g.cells[j] == Some(c) && chain[j] == NONE {
                            chain[j] = id;
                            stack.push(j);
                        }
                    }
                }
            }
            None if region[start] == NONE => {
                let id = region_size.len() as u32;
                let (mut size, mut touch) = (0u32, [false; 2]);
                region[start] = id;
                stack.push(start);
                while let Some(i) = stack.pop() {
                    size += 1;
                    for j in g.neighbours(i) {
                        match g.cells[j] {
                            Some(c) => touch[c.index()] = true,
                            None if region[j] == NONE => {
                                region[j] = id;
                                stack.push(j);
                            }
                            None => {}
                        }
                    }
                }
                region_size.push(size);
                region_touch.push(touch);
            }
            _ => {}
        }
    }
    let owner = |r: u32| match region_touch[r as usize] {
        [true, false] => Some(Color::Black),
        [false, true] => Some(Color::White),
        _ => None,
    };
    for (r, &size) in region_size.iter().enumerate() {
        match owner(r as u32) {
            Some(c) => out.territory[c.index()] += size,
            None => out.dame += size,
        }
    }

    // Liberties per chain (counted once per point).
    let chains = chain_color.len();
    // The first three liberties of each chain are remembered: enough to decide
    // whether filling a point leaves a chain at least two liberties.
    let mut libs = vec![0u32; chains];
    let mut first_libs = vec![[NONE; 3]; chains];
    let mut last_seen = vec![NONE; chains];
    for i in 0..n * n {
        if g.cells[i].is_some() {
            continue;
        }
        for j in g.neighbours(i) {
            let c = chain[j];
            if c != NONE && last_seen[c as usize] != i as u32 {
                last_seen[c as usize] = i as u32;
                let k = libs[c as usize] as usize;
                if k < 3 {
                    first_libs[c as usize][k] = i as u32;
                }
                libs[c as usize] += 1;
            }
        }
    }

    // Atari points: one-point regions of one colour next to a chain of that colour
    // whose only liberty they are. Dame for rule 8 (see the module doc).
    let mut atari_point = vec![false; region_size.len()];
    for (i, &r) in region.iter().enumerate() {
        if r != NONE
            && region_size[r as usize] == 1
            && owner(r).is_some()
            && g.neighbours(i)
                .any(|j| chain[j] != NONE && libs[chain[j] as usize] == 1)
        {
            atari_point[r as usize] = true;
        }
    }
    let eye_region = |r: u32| owner(r).is_some() && !atari_point[r as usize];

    // Groups: chains joined through the single-colour regions they border.
    let mut parent: Vec<u32> = (0..chains as u32).collect();
    let mut region_chain = vec![NONE; region_size.len()];
    for (i, &r) in region.iter().enumerate() {
        if r == NONE || !eye_region(r) {
            continue;
        }
        for j in g.neighbours(i) {
            let c = chain[j];
            if c == NONE {
                continue;
            }
            let rc = region_chain[r as usize];
            if rc == NONE {
                region_chain[r as usize] = c;
            } else {
                let (a, b) = (find(&mut parent, rc), find(&mut parent, c));
                if a != b {
                    parent[b as usize] = a;
                }
            }
        }
    }

    // Seki: groups with a chain next to a dame or atari point (strict), or next to
    // one that neither side can fill without self-atari (customary).
    let mut seki_strict = vec![false; chains];
    let mut seki_customary = vec![false; chains];
    for (i, &r) in region.iter().enumerate() {
        if r == NONE || eye_region(r) {
            continue;
        }
        let adjacent: Vec<u32> = g
            .neighbours(i)
            .map(|j| chain[j])
            .filter(|&c| c != NONE)
            .collect();
        if adjacent.is_empty() {
            continue;
        }
        let true_seki = is_seki_point(&g, i, &chain, &chain_color, &libs, &first_libs);
        for c in adjacent {
            let root = find(&mut parent, c) as usize;
            seki_strict[root] = true;
            if true_seki {
                seki_customary[root] = true;
            }
        }
    }
    let mut counted = vec![false; region_size.len()];
    for &r in &region {
        if r == NONE || counted[r as usize] {
            continue;
        }
        let Some(col) = owner(r) else { continue };
        counted[r as usize] = true;
        if atari_point[r as usize] {
            out.atari_points[col.index()] += 1;
            continue;
        }
        let rc = region_chain[r as usize];
        if rc == NONE {
            continue;
        }
        let root = find(&mut parent, rc) as usize;
        let size = region_size[r as usize];
        if seki_strict[root] {
            out.seki_eyes_strict[col.index()] += size;
        }
        if seki_customary[root] {
            out.seki_eyes_customary[col.index()] += size;
        }
    }
    out
}

/// Whether every colour that borders dame point `i` would put its own chain in
/// atari (one liberty or none) by filling it: a true seki liberty.
fn is_seki_point(
    g: &Position,
    i: usize,
    chain: &[u32],
    color: &[Color],
    libs: &[u32],
    first_libs: &[[u32; 3]],
) -> bool {
    let mut any = false;
    for c in [Color::Black, Color::White] {
        let mut mine = [NONE; 4];
        let mut k = 0;
        for j in g.neighbours(i) {
            let ch = chain[j];
            if ch != NONE && color[ch as usize] == c && !mine.contains(&ch) {
                mine[k] = ch;
                k += 1;
            }
        }
        if k == 0 {
            continue;
        }
        any = true;
        // Liberties after filling i: i's empty neighbours and the chains' liberties,
        // minus i itself. A chain with four or more liberties keeps two anyway; the
        // others' liberties are all in `first_libs`.
        if mine[..k].iter().any(|&ch| libs[ch as usize] >= 4) {
            return false;
        }
        let mut points = [NONE; 16];
        let mut m = 0;
        let mut add = |p: u32| {
            if p != NONE && p != i as u32 && !points[..m].contains(&p) {
                points[m] = p;
                m += 1;
            }
        };
        for j in g.neighbours(i) {
            if g.cells[j].is_none() {
                add(j as u32);
            }
        }
        for &ch in &mine[..k] {
            for &p in &first_libs[ch as usize] {
                add(p);
            }
        }
        if m >= 2 {
            return false; // this colour can fill safely: ordinary dame
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Box<Board> {
        Board::from_rows(rows)
    }

    #[test]
    fn dead_stones_become_territory() {
        let b = board(&[".X.O.", ".X.O.", "XX.OO", "O.XO.", "XXXO."]);
        let p = analyse(&b, &[]);
        assert_eq!(p.territory, [2, 4], "{p:?}");
        let p = analyse(&b, &[Point::new(0, 3)]);
        assert_eq!(p.dead, [0, 1]);
        assert_eq!(p.territory, [4, 4]);
    }

    #[test]
    fn a_move_on_the_dame_makes_the_eyes_territory_commentary_q() {
        // Japanese 1989, commentary on article 8, example 4 (diagram Q, seed 004):
        // both groups live, but the dame A between them puts them in seki as the
        // position stands; a move on A turns their eyes into territory. Built to
        // that description: A is (4,0); each side has two one-point eyes.
        let mut rows = [".X.X.O.O.", "XXXXXOOOO", "", "", "", "", "", "", ""];
        for r in rows.iter_mut().skip(2) {
            *r = "XXXXXOOOO";
        }
        let p = analyse(&board(&rows), &[]);
        assert_eq!((p.territory, p.dame), ([2, 2], 1));
        // Strict: A is unfilled, so both groups are in seki and their eyes do not
        // count. Customary: A is a dame either side fills safely; it is assumed
        // filled and the eyes are territory.
        assert_eq!(p.seki_eyes(SekiReading::Strict), [2, 2]);
        assert_eq!(p.seki_eyes(SekiReading::Customary), [0, 0]);
        // After the move on A both readings agree: the eyes are territory.
        rows[0] = ".X.XXO.O.";
        let p = analyse(&board(&rows), &[]);
        assert_eq!((p.territory, p.dame), ([2, 2], 0));
        assert_eq!(p.seki_eyes(SekiReading::Strict), [0, 0]);
        assert_eq!(p.seki_eyes(SekiReading::Customary), [0, 0]);
    }

    #[test]
    fn one_eye_each_seki_and_ordinary_dame() {
        // Commentary O (seed 004) in small: a seki with one dame point whose eyes
        // are not territory, beside a group that touches an ordinary dame.
        // Top: Black's chain (1,0)(0,1)(1,1) has the eye (0,0); White's chain
        // (3,0)(2,1)(3,1)(4,1) has the eye (4,0); both share the liberty (2,0), which
        // either side fills only by putting itself in atari: a true seki.
        // Bottom-left: (0,4) is dame that Black can fill safely.
        let b = board(&[
            ".X.O.", //
            "XXOOO", //
            "OOXXX", //
            "OXX..", //
            ".X...", //
        ]);
        let p = analyse(&b, &[]);
        assert_eq!(p.territory, [1 + 5, 1]);
        assert_eq!(p.dame, 2); // (2,0) and (0,4)
                               // Customary: only the true seki keeps its eyes out of territory.
        assert_eq!(p.seki_eyes_customary, [1, 1]);
        // Strict: Black's lower group touches the dame (0,4) too, so its five eye
        // points are not territory either.
        assert_eq!(p.seki_eyes_strict, [1 + 5, 1]);
        assert_eq!(p.atari_points, [0, 0]);
    }

    #[test]
    fn false_eye_next_to_a_chain_in_atari() {
        // (0,0) is Black's only by topology: the black stone (1,0) is in atari there
        // (its other neighbours are White), so Black must fill it.
        let b = board(&[
            ".XO..", //
            "XOO..", //
            "XO...", //
            "XO...", //
            "XO...", //
        ]);
        let p = analyse(&b, &[]);
        assert_eq!(
            p.territory[0], 1,
            "still Black's for the topological countings"
        );
        assert_eq!(p.atari_points, [1, 0]);
        // For rule 8 it is no eye in either reading: the stone next to it is not
        // alive (White captures it there).
        assert_eq!(p.seki_eyes(SekiReading::Customary), [1, 0]);
        assert_eq!(p.seki_eyes(SekiReading::Strict), [1, 0]);
    }

    #[test]
    fn double_ko_seki_commentary_p() {
        // Japanese 1989, commentary on article 8, example 3 (diagram P, seed 004):
        // in a double-ko seki the ko points are dame, the groups live in seki, and
        // their eyes are not territory. Built to that description: Black's six
        // stones (1,0)(0,1)(1,1)(2,1)(1,2)(2,2) have the eye (0,0); White's twelve
        // have the eye (5,0); ko A at (3,0) (Black takes White's (2,0) there), ko B
        // at (0,2) (White takes Black's (0,3) there). Each group has two liberties,
        // its eye and one ko; connecting a ko leaves the connector in atari, and
        // taking one ko is answered by taking the other. Black's outer wall lives
        // with the eye (8,0) and rows 6-8.
        let b = board(&[
            ".XO.O.OX.", //
            "XXXOOOOXX", //
            ".XXOXXXXX", //
            "XOOOXXXXX", //
            "OOXXXXXXX", //
            "XXXXXXXXX", //
            ".........", //
            ".........", //
            ".........", //
        ]);
        let p = analyse(&b, &[]);
        // Topologically (AGA, Swedish, area) every point has one colour around it.
        assert_eq!(p.territory, [1 + 1 + 1 + 27, 1 + 1], "{p:?}");
        assert_eq!(p.dame, 0);
        // Rule 8: the ko points (0,2) and (3,0) are dame, the eyes (0,0) and (5,0)
        // are seki eyes, in both readings; the outer wall's 28 points count.
        assert_eq!(p.atari_points, [1, 1]);
        for r in [SekiReading::Strict, SekiReading::Customary] {
            assert_eq!(p.seki_eyes(r), [2, 2], "{r:?}");
        }
    }
}
