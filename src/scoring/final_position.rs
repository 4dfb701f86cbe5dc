//! The final position, analysed once for every counting: living stones, dead
//! stones, topological territory, dame, and what Japanese rule 8 leaves out of
//! territory (seki eyes, points to fill; computed in `scoring::japanese`).
//!
//! Vocabulary: a *chain* is a string of stones; a *region* is a maximal connected
//! set of empty points (dead stones removed); a region bordered by one colour only
//! is that colour's (topological) territory, one bordered by both is dame.
//! Topological territory is what AGA, Swedish and area counting count; the
//! Japanese count leaves out the points the Japanese settlement (`scoring::japanese`) finds.

use crate::core::board::{Board, Color, Point};
use crate::core::grid::{Grid, NONE};
use crate::scoring::japanese;

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
    /// Territory points beside stones in seki, per colour: no territory under
    /// Japanese rule 8.
    pub seki_eyes: [u32; 2],
    /// Territory points their owner must fill once the dame are filled, per
    /// colour: no territory under Japanese rule 8.
    pub to_fill: [u32; 2],
    /// The seki eye points, sorted.
    pub seki_eye_points: Vec<Point>,
    /// The points to fill, sorted.
    pub fill_points: Vec<Point>,
    /// The topological owner of each point, row-major (`y * size + x`): the
    /// colour whose territory it is, `None` for living stones and dame.
    pub owner: Vec<Option<Color>>,
}

impl FinalPosition {
    /// Territory points that do not count under Japanese rule 8, per colour.
    pub fn japanese_exclusions(&self) -> [u32; 2] {
        [
            self.seki_eyes[0] + self.to_fill[0],
            self.seki_eyes[1] + self.to_fill[1],
        ]
    }
}

/// Removes `dead` stones from the final position and analyses what is left.
pub fn analyse(board: &Board, dead: &[Point]) -> FinalPosition {
    let mut g = Grid::from_board(board);
    let n = g.n;
    let mut out = FinalPosition::default();
    for p in dead {
        let i = usize::from(p.y) * n + usize::from(p.x);
        if let Some(Some(c)) = g.cells.get(i).copied() {
            out.dead[c.index()] += 1;
            g.cells[i] = None;
        }
    }
    for c in g.cells.iter().flatten() {
        out.stones[c.index()] += 1;
    }

    // Regions (empty points) and the colours each touches.
    let (region, region_touch) = g.regions();
    let mut owner = vec![None; n * n];
    let mut dame = vec![false; n * n];
    for (i, &r) in region.iter().enumerate() {
        if r == NONE {
            continue;
        }
        match region_touch[r as usize] {
            [true, false] => owner[i] = Some(Color::Black),
            [false, true] => owner[i] = Some(Color::White),
            touch => {
                out.dame += 1;
                dame[i] = touch == [true, true];
            }
        }
        if let Some(c) = owner[i] {
            out.territory[c.index()] += 1;
        }
    }

    let settled = japanese::settle(&g, &owner, &dame);
    out.owner = owner;
    for &i in &settled.to_fill {
        if let Some(c) = out.owner[i] {
            out.to_fill[c.index()] += 1;
            out.fill_points.push(g.point(i));
        }
    }
    for &i in &settled.seki_eyes {
        if let Some(c) = out.owner[i] {
            out.seki_eyes[c.index()] += 1;
            out.seki_eye_points.push(g.point(i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Box<Board> {
        Board::from_rows(rows)
    }

    fn names(points: &[Point]) -> Vec<String> {
        points.iter().map(|p| p.sgf()).collect()
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
    fn the_dame_is_filled_first_commentary_q() {
        // Japanese 1989, commentary on article 8, example 4 (diagram Q): both
        // groups live with two one-point eyes each, and the dame A (ea) lies
        // between them. Read on the position as it stands the groups "possess
        // dame" and would be in seki; a move on A turns their eyes into
        // territory. A Japanese count fills the dame first: either side fills
        // A keeping many liberties, so the eyes are territory.
        let mut rows = [".X.X.O.O.", "XXXXXOOOO", "", "", "", "", "", "", ""];
        for r in rows.iter_mut().skip(2) {
            *r = "XXXXXOOOO";
        }
        let p = analyse(&board(&rows), &[]);
        assert_eq!((p.territory, p.dame), ([2, 2], 1));
        assert_eq!(p.japanese_exclusions(), [0, 0], "{p:?}");
    }

    #[test]
    fn a_one_eye_each_seki_beside_a_living_group_commentary_o() {
        // Commentary O in small. Top: Black's chain ba-ab-bb has the eye aa,
        // White's chain da-cb-db-eb the eye ea; they share the liberty ca,
        // which either side fills only by leaving itself one liberty: a seki,
        // whose eyes are no territory. Black's lower group (cc-dc-ec-bd-cd-be)
        // touches no seki liberty: its five points dd ed ce de ee count.
        let b = board(&[
            ".X.O.", //
            "XXOOO", //
            "OOXXX", //
            "OXX..", //
            ".X...", //
        ]);
        let p = analyse(&b, &[]);
        assert_eq!(p.territory, [1 + 5, 1]);
        assert_eq!(names(&p.seki_eye_points), ["aa", "ea"]);
        assert_eq!(p.seki_eyes, [1, 1]);
        assert!(p.fill_points.is_empty());
    }

    #[test]
    fn a_point_to_fill_once_the_dame_are_filled() {
        // White's chain ab-bb-ac-ad has three liberties: aa and bc, neutral
        // points beside Black stones, and ae, an eye it shares with the living
        // White group below (eyes ag and ai). Black fills aa and bc keeping
        // many liberties; the chain is then in atari and White must connect at
        // ae: no territory under rule 8, White's under the other countings.
        let b = board(&[
            ".XXXXXXXX", //
            "OOX......", //
            "O.X......", //
            "OXX......", //
            ".OX......", //
            "OOX......", //
            ".OX......", //
            "OOX......", //
            ".OX......", //
        ]);
        let p = analyse(&b, &[]);
        assert_eq!((p.territory, p.dame), ([6 * 8, 3], 2));
        assert_eq!(names(&p.fill_points), ["ae"], "{p:?}");
        assert_eq!(p.to_fill, [0, 1]);
        assert_eq!(p.seki_eyes, [0, 0]);
    }

    #[test]
    fn an_eye_against_eye_seki_with_two_shared_liberties() {
        // Black's chain ba-ab-bb-bc-cc (eye aa) and White's da-db-dc-eb-fb-fa
        // (eye ea) share the liberties ca and cb. Either side fills one of them
        // keeping two liberties; neither can fill the last without leaving
        // itself one. So they live in seki and their eyes are no territory
        // (rule 8), while the White group on the left (eyes be, ag, ai) and
        // Black's wall on the right, living independently beside the seki,
        // keep their territory: seki is the two chains', not their neighbours'.
        let b = board(&[
            ".X.O.OX..", //
            "XX.OOOX..", //
            "OXXOXXX..", //
            "OOOXX....", //
            "O.OX.....", //
            "OOOX.....", //
            ".OXX.....", //
            "OOX......", //
            ".OX......", //
        ]);
        let p = analyse(&b, &[]);
        assert_eq!(p.dame, 2);
        assert_eq!(names(&p.seki_eye_points), ["aa", "ea"], "{p:?}");
        assert_eq!(p.japanese_exclusions(), [1, 1]);
        assert_eq!(p.territory[1], 1 + 3, "White: the seki eye and three eyes");
    }

    #[test]
    fn a_false_eye_in_atari_is_no_territory() {
        // aa is Black's by topology only: the stone ba and the chain ab-ae are
        // both in atari there, and filling it would leave them no liberty.
        // They live only as long as White does not capture (the players
        // agreed they live): aa is the liberty of stones in seki, no eye.
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
        assert_eq!(p.japanese_exclusions(), [1, 0]);
    }

    #[test]
    fn double_ko_seki_commentary_p() {
        // Japanese 1989, commentary on article 8, example 3 (diagram P): in a
        // double-ko seki the ko points are dame, the groups live in seki, and
        // their eyes are not territory. Built to that description: Black's six
        // stones ba-ab-bb-cb-bc-cc have the eye aa, White's twelve the eye fa;
        // ko A at da (Black takes White's ca there), ko B at ac (White takes
        // Black's ad there). Each group has two liberties, its eye and one ko;
        // connecting a ko leaves the connector in atari. Black's outer wall
        // lives with the eye ia and rows 7-9.
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
        // Rule 8: the ko points ac and da and the eyes aa and fa are no
        // territory; the outer wall's 28 points count.
        assert_eq!(names(&p.seki_eye_points), ["aa", "da", "fa", "ac"]);
        assert_eq!(p.japanese_exclusions(), [2, 2]);
    }
}
