//! What a record's TB/TW territory markup says: its dead stones, the lone
//! stones it leaves standing that Japanese rule 7 makes dead (and the same
//! stones, or every string in atari with no way out, among estimated dead
//! stones, which a record without markup may have counted standing), and the
//! record's own count (the markup counted as marked).

use super::counting::Tally;
use crate::core::board::{Board, Color, Point};
use crate::core::game::Markup;
use crate::core::grid::{Flood, Grid, NONE};

/// Dead stones from territory markup. A string is dead when one of its stones
/// stands on a point marked as the opponent's territory (CGoban, KGS), or when it
/// has liberties and every one of them is marked as the opponent's territory
/// (editors and GNU Go mark only the empty points).
pub fn dead_from_markup(board: &Board, m: &Markup) -> (Vec<Point>, Vec<Point>) {
    let g = Grid::from_board(board);
    let marks = marks(&g, m);
    let (chain, colors) = g.chains();
    // Per chain: a stone on the opponent's mark; liberties, and how many of
    // them the opponent's marks cover (each liberty counted once per chain).
    let mut on_marked = vec![false; colors.len()];
    let mut libs = vec![0u32; colors.len()];
    let mut libs_marked = vec![0u32; colors.len()];
    let mut last_seen = vec![usize::MAX; colors.len()];
    for (i, &k) in chain.iter().enumerate() {
        if k != NONE {
            on_marked[k as usize] |= marks[i] == Some(colors[k as usize].opponent());
        }
    }
    for i in (0..g.cells.len()).filter(|&i| g.cells[i].is_none()) {
        for j in g.neighbours(i) {
            let k = chain[j];
            if k == NONE || last_seen[k as usize] == i {
                continue;
            }
            last_seen[k as usize] = i;
            libs[k as usize] += 1;
            libs_marked[k as usize] += u32::from(marks[i] == Some(colors[k as usize].opponent()));
        }
    }
    let (mut dead_b, mut dead_w) = (Vec::new(), Vec::new());
    for (i, &k) in chain.iter().enumerate() {
        if k == NONE {
            continue;
        }
        let k = k as usize;
        if on_marked[k] || (libs[k] > 0 && libs[k] == libs_marked[k]) {
            match colors[k] {
                Color::Black => dead_b.push(g.point(i)),
                Color::White => dead_w.push(g.point(i)),
            }
        }
    }
    (dead_b, dead_w)
}

/// The territory colour marked on each point of the grid.
fn marks(g: &Grid, m: &Markup) -> Vec<Option<Color>> {
    let mut marks = vec![None; g.cells.len()];
    for (points, c) in [
        (&m.black_territory, Color::Black),
        (&m.white_territory, Color::White),
    ] {
        for p in points {
            if usize::from(p.x) < g.n && usize::from(p.y) < g.n {
                marks[g.index(*p)] = Some(c);
            }
        }
    }
    marks
}

/// Lone stones a markup leaves standing that Japanese rule 7 makes dead
/// whatever the markup says: a single stone in atari whose owner cannot fill
/// its last liberty (the fill would be suicide: it captures nothing and leaves
/// the joined string no liberty), with no dead stone beside it, on a liberty
/// not marked as its owner's territory.
///
/// Why it is dead (rule 7-1: alive only if it cannot be captured, or if its
/// capture would let its owner play a new stone that cannot be captured): the
/// opponent captures it by playing the liberty, a legal capture at any time.
/// The capturing string keeps two liberties or more (every opponent string
/// beside the liberty had another one, else the owner's fill would capture
/// it, and the captured point is one more), so the capture is no ko and cannot
/// be taken back. And the owner can never play a new stone on the captured
/// point: every string beside it has another liberty, so a stone there is
/// suicide. (A string of two stones or more is left to the markup: its owner
/// could play back into the space its capture leaves.) The stones are listed
/// (C607), not counted: the count holds the players' agreement.
/// Returns the added stones of each colour, sorted as [`dead_from_markup`] sorts.
pub fn dead_by_rule7(
    board: &Board,
    m: &Markup,
    dead_b: &[Point],
    dead_w: &[Point],
) -> (Vec<Point>, Vec<Point>) {
    let owners_mark = |c: Color, p: Point| match c {
        Color::Black => m.black_territory.contains(&p),
        Color::White => m.white_territory.contains(&p),
    };
    lone_stones_dead_by_rule7(board, dead_b.iter().chain(dead_w), owners_mark)
}

/// The lone stones among estimated dead stones that only Japanese rule 7 makes
/// dead (as [`dead_by_rule7`] finds them beside the other dead stones): the
/// stones players often leave standing in the count they agree on.
pub fn estimated_dead_by_rule7(board: &Board, dead: &[Point]) -> Vec<Point> {
    let g = Grid::from_board(board);
    let alone = |p: &&Point| {
        let i = g.index(**p);
        let c = g.cells[i];
        c.is_some() && g.neighbours(i).all(|j| g.cells[j] != c)
    };
    let (lone, rest): (Vec<&Point>, Vec<&Point>) = dead.iter().partition(alone);
    if lone.is_empty() {
        return Vec::new();
    }
    let (b, w) = lone_stones_dead_by_rule7(board, rest.into_iter(), |_, _| false);
    let mut out: Vec<Point> = b
        .into_iter()
        .chain(w)
        .filter(|p| lone.contains(&p))
        .collect();
    out.sort_by_key(|p| (p.y, p.x));
    out
}

/// The estimated dead stones that stand in atari with no way out (Japanese
/// rule 7-1: they cannot avoid capture): strings of any size with one
/// liberty, beside no opponent string in atari and no dead opponent stone,
/// whose owner's play on the liberty captures nothing and leaves the string
/// in atari or without liberties. A superset of [`estimated_dead_by_rule7`]'s
/// stones: it also holds strings of two stones or more and stones whose
/// extension stays in atari, which players leave standing too.
pub fn estimated_dead_in_atari(board: &Board, dead: &[Point]) -> Vec<Point> {
    let g = Grid::from_board(board);
    let is_dead = dead_cells(&g, dead);
    let mut flood = Flood::new(g.cells.len());
    let mut seen = vec![false; g.cells.len()];
    let mut out = Vec::new();
    for start in 0..g.cells.len() {
        let Some(c) = g.cells[start] else { continue };
        if !is_dead[start] || seen[start] {
            continue;
        }
        let libs = flood.liberties(&g, start);
        let string = flood.string.clone();
        for &i in &string {
            seen[i] = true;
        }
        if libs.count != 1 || string.iter().any(|&i| !is_dead[i]) {
            continue;
        }
        let attackers: Vec<usize> = string
            .iter()
            .flat_map(|&i| g.neighbours(i))
            .filter(|&j| g.cells[j] == Some(c.opponent()))
            .collect();
        let trapped = attackers
            .iter()
            .all(|&j| !is_dead[j] && flood.liberties(&g, j).count >= 2);
        if !trapped {
            continue;
        }
        let lib = g.point(libs.first);
        let mut fill = board.clone();
        let placed = fill.place(lib, c);
        if placed.captured > 0 || (placed.self_captured == 0 && fill.liberties(lib) >= 2) {
            continue;
        }
        out.extend(string.iter().map(|&i| g.point(i)));
    }
    out.sort_by_key(|p| (p.y, p.x));
    out
}

/// Per cell of `g`, whether it holds one of the stones `dead`.
fn dead_cells<'p>(g: &Grid, dead: impl IntoIterator<Item = &'p Point>) -> Vec<bool> {
    let mut is_dead = vec![false; g.cells.len()];
    for p in dead {
        if usize::from(p.x) < g.n && usize::from(p.y) < g.n {
            is_dead[g.index(*p)] = true;
        }
    }
    is_dead
}

/// [`dead_by_rule7`] with the other dead stones `dead`, and `owners_mark`
/// saying whether a point is marked as its owner's territory.
fn lone_stones_dead_by_rule7<'p>(
    board: &Board,
    dead: impl Iterator<Item = &'p Point>,
    owners_mark: impl Fn(Color, Point) -> bool,
) -> (Vec<Point>, Vec<Point>) {
    let g = Grid::from_board(board);
    let is_dead = dead_cells(&g, dead);
    let (mut add_b, mut add_w) = (Vec::new(), Vec::new());
    for i in 0..g.cells.len() {
        let Some(c) = g.cells[i] else { continue };
        if is_dead[i] {
            continue;
        }
        // A lone stone: no neighbour of its colour, one empty neighbour,
        // and the opponent's stones around it standing.
        let (mut libs, mut lib, mut lone, mut around_dead) = (0, 0, true, false);
        for q in g.neighbours(i) {
            match g.cells[q] {
                None => {
                    libs += 1;
                    lib = q;
                }
                Some(qc) if qc == c => lone = false,
                Some(_) => around_dead |= is_dead[q],
            }
        }
        if libs != 1 || !lone || around_dead || owners_mark(c, g.point(lib)) {
            continue;
        }
        let mut fill = board.clone();
        if fill.place(g.point(lib), c).self_captured == 0 {
            continue;
        }
        let stone = g.point(i);
        match c {
            Color::Black => add_b.push(stone),
            Color::White => add_w.push(stone),
        }
    }
    (add_b, add_w)
}

/// The record's own count: its TB/TW points as marked (and the points of the
/// stones the markup makes dead, which editors leave unmarked), its living
/// stones, and the markup's dead stones.
pub fn tally(board: &Board, m: &Markup) -> Tally {
    let g = Grid::from_board(board);
    let (dead_b, dead_w) = dead_from_markup(board, m);
    let mut marked = marks(&g, m);
    let mut t = Tally::default();
    let mut dead = vec![false; g.cells.len()];
    for (stones, c) in [(&dead_b, Color::Black), (&dead_w, Color::White)] {
        t.dead[c.index()] = stones.len() as u32;
        for p in stones.iter() {
            let i = g.index(*p);
            dead[i] = true;
            marked[i] = Some(c.opponent());
        }
    }
    for i in 0..g.cells.len() {
        match (g.cells[i], marked[i]) {
            (Some(s), _) if !dead[i] => t.stones[s.index()] += 1,
            (_, Some(c)) => t.territory[c.index()] += 1,
            _ => {}
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(rows: &[&str], black_territory: &[Point]) -> Vec<String> {
        let board = Board::from_rows(rows);
        let m = Markup {
            black_territory: black_territory.to_vec(),
            white_territory: Vec::new(),
        };
        let (b, w) = dead_from_markup(&board, &m);
        let (ab, aw) = dead_by_rule7(&board, &m, &b, &w);
        ab.iter().chain(&aw).map(|p| p.sgf()).collect()
    }

    // A lone Black stone at cb in atari; its liberty bb is surrounded by White.
    const LONE: [&str; 5] = ["OOOOO", "O.XOO", "OOOOO", ".....", "XXXXX"];

    #[test]
    fn a_stone_whose_last_liberty_its_owner_cannot_fill_is_dead() {
        assert_eq!(added(&LONE, &[]), ["cb"]);
    }

    #[test]
    fn a_stone_that_can_extend_or_capture_and_a_larger_string_are_left_to_the_markup() {
        // The liberty bb touches an empty point: Black's fill is no suicide.
        assert!(added(&["OOOOO", "..XOO", "OOOOO", ".....", "XXXXX"], &[]).is_empty());
        // The stone dc's liberty cc: Black's fill captures the White stone bc.
        let capture = ["......", ".XOO..", "XO.XO.", ".XOO..", "......", "......"];
        assert!(added(&capture, &[]).is_empty());
        // Two liberties: not in atari.
        assert!(added(&["OOOOO", "O.X.O", "OOOOO", ".....", "XXXXX"], &[]).is_empty());
        // Two stones in atari: Black could play back into the space their
        // capture leaves, so rule 7's second clause may apply; left alone.
        assert!(added(&["OOOOO", "O.XXO", "OOOOO", ".....", "XXXXX"], &[]).is_empty());
    }

    #[test]
    fn the_markup_keeps_its_word_where_it_speaks() {
        // The liberty marked as Black's territory: the markup says Black owns it.
        let bb = Point::new(1, 1);
        assert!(added(&LONE, &[bb]).is_empty());
        // The White stones around marked dead (on Black's territory): the
        // markup says they die, not the Black stone.
        let around: Vec<Point> = (0..5)
            .flat_map(|x| (0..3).map(move |y| Point::new(x, y)))
            .filter(|p| LONE[usize::from(p.y)].as_bytes()[usize::from(p.x)] == b'O')
            .collect();
        assert!(added(&LONE, &around).is_empty());
    }

    /// The stones of `rows` in atari with no way out, given every stone of
    /// the colour `dead` as dead.
    fn in_atari(rows: &[&str], dead: u8) -> Vec<String> {
        let board = Board::from_rows(rows);
        let all: Vec<Point> = (0..rows.len())
            .flat_map(|y| (0..rows[y].len()).map(move |x| (x, y)))
            .filter(|&(x, y)| rows[y].as_bytes()[x] == dead)
            .filter_map(|(x, y)| Some(Point::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?)))
            .collect();
        estimated_dead_in_atari(&board, &all)
            .iter()
            .map(|p| p.sgf())
            .collect()
    }

    #[test]
    fn stones_in_atari_with_no_way_out_are_found_whatever_their_size() {
        assert_eq!(in_atari(&LONE, b'X'), ["cb"]);
        assert_eq!(
            in_atari(&["OOOOO", "O.XXO", "OOOOO", ".....", "XXXXX"], b'X'),
            ["cb", "db"]
        );
        // The extension to bb stays in atari (its one liberty ab).
        assert_eq!(
            in_atari(&["OOOOO", "..XOO", "OOOOO", ".....", "XXXXX"], b'X'),
            ["cb"]
        );
        // The extension gives two liberties: the stone can run.
        assert!(in_atari(&["O...O", "OOXOO", "OOOOO", ".....", "XXXXX"], b'X').is_empty());
        // A White stone beside it in atari: Black captures and escapes.
        let capture = ["......", ".XOO..", "XO.XO.", ".XOO..", "......", "......"];
        assert!(in_atari(&capture, b'X').is_empty());
    }
}
