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

/// Stones a markup leaves standing that Japanese rule 7 makes dead whatever
/// the markup says: a string of at most [`RULE7_MAX_STONES`] stones in atari
/// whose owner cannot fill its last liberty (the fill would be suicide: it
/// captures nothing and leaves the joined string no liberty), beside opponent
/// strings that all stand and have a second liberty (else its owner captures
/// one first), on a liberty not marked as its owner's territory, and whose
/// capture takes no more than [`RULE7_MAX_STONES`] stones.
///
/// Why they are dead (rule 7-1: alive only if they cannot be captured, or if
/// their capture would let their owner play a new stone that cannot be
/// captured): the opponent captures them by playing the liberty, a legal
/// capture at any time. The capturing string keeps a liberty outside the
/// captured points (every opponent string beside the liberty had another one,
/// else the owner's fill would capture it) and gains the captured points, so
/// the capture is no ko and cannot be taken back. Every opponent string around
/// the captured points keeps a liberty outside them too, so a stone its owner
/// plays back there captures nothing, and in three points or fewer, bordered
/// by the opponent alone, no stones make two eyes: whatever the owner plays
/// there is captured in turn. The stones are listed (C607), not counted: the
/// count holds the players' agreement.
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
    strings_dead_by_rule7(
        board,
        dead_b.iter().chain(dead_w),
        owners_mark,
        RULE7_MAX_STONES,
    )
}

/// The most stones of a string rule 7 makes dead here ([`dead_by_rule7`]):
/// captured, they leave no room where a stone of their owner can live.
pub const RULE7_MAX_STONES: usize = 3;

/// The estimated dead stones, in strings of at most `max_stones` stones (1:
/// lone stones), that only Japanese rule 7 makes dead (as [`dead_by_rule7`]
/// finds them beside the other dead stones): the stones players often leave
/// standing in the count they agree on.
pub fn estimated_dead_by_rule7(board: &Board, dead: &[Point], max_stones: usize) -> Vec<Point> {
    let g = Grid::from_board(board);
    let mut flood = Flood::new(g.cells.len());
    let mut small = |p: &&Point| {
        let i = g.index(**p);
        g.cells[i].is_some() && {
            flood.liberties(&g, i);
            flood.string.len() <= max_stones
        }
    };
    let (small, rest): (Vec<&Point>, Vec<&Point>) = dead.iter().partition(|p| small(p));
    if small.is_empty() {
        return Vec::new();
    }
    let (b, w) = strings_dead_by_rule7(board, rest.into_iter(), |_, _| false, max_stones);
    let mut out: Vec<Point> = b
        .into_iter()
        .chain(w)
        .filter(|p| small.contains(&p))
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
        if !trapped(&g, &string, c, &is_dead, &mut flood) {
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

/// Whether every opponent string beside the `string` of colour `c` stands (is
/// not among `is_dead`) and has a second liberty: the string's owner can
/// neither count on it being dead nor capture it first to escape.
fn trapped(g: &Grid, string: &[usize], c: Color, is_dead: &[bool], flood: &mut Flood) -> bool {
    let attackers: Vec<usize> = string
        .iter()
        .flat_map(|&s| g.neighbours(s))
        .filter(|&q| g.cells[q] == Some(c.opponent()))
        .collect();
    attackers
        .iter()
        .all(|&q| !is_dead[q] && flood.liberties(g, q).count >= 2)
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
/// saying whether a point is marked as its owner's territory; strings of at
/// most `max_stones` stones.
fn strings_dead_by_rule7<'p>(
    board: &Board,
    dead: impl Iterator<Item = &'p Point>,
    owners_mark: impl Fn(Color, Point) -> bool,
    max_stones: usize,
) -> (Vec<Point>, Vec<Point>) {
    let g = Grid::from_board(board);
    let is_dead = dead_cells(&g, dead);
    let mut flood = Flood::new(g.cells.len());
    let mut seen = vec![false; g.cells.len()];
    let (mut add_b, mut add_w) = (Vec::new(), Vec::new());
    for i in 0..g.cells.len() {
        let Some(c) = g.cells[i] else { continue };
        if is_dead[i] || seen[i] {
            continue;
        }
        // A small string in atari, the opponent's stones around it standing,
        // on a liberty not marked as its owner's.
        let libs = flood.liberties(&g, i);
        let string = flood.string.clone();
        for &s in &string {
            seen[s] = true;
        }
        let lib = g.point(libs.first);
        if libs.count != 1 || string.len() > max_stones || owners_mark(c, lib) {
            continue;
        }
        if !trapped(&g, &string, c, &is_dead, &mut flood) {
            continue;
        }
        // Its owner cannot fill the liberty (suicide) ...
        let mut fill = board.clone();
        let placed = fill.place(lib, c);
        if placed.captured > 0 || placed.self_captured == 0 {
            continue;
        }
        // ... and the opponent's capture there leaves no room to live.
        let mut capture = board.clone();
        if capture.place(lib, c.opponent()).captured as usize > RULE7_MAX_STONES {
            continue;
        }
        let stones = string.iter().map(|&s| g.point(s));
        match c {
            Color::Black => add_b.extend(stones),
            Color::White => add_w.extend(stones),
        }
    }
    add_b.sort_by_key(|p| (p.y, p.x));
    add_w.sort_by_key(|p| (p.y, p.x));
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
    fn a_string_of_up_to_three_stones_whose_capture_leaves_no_room_is_dead() {
        // Black's cb-db in atari at bb, which only White surrounds: Black's
        // fill is suicide; White's capture there leaves two points where a
        // Black stone has one liberty, inside White's strings that each keep a
        // liberty outside: anything Black plays back is captured again.
        assert_eq!(
            added(&["OOOOO", "O.XXO", "OOOOO", ".....", "XXXXX"], &[]),
            ["cb", "db"]
        );
        // Three stones: three points, still no two eyes.
        let three = ["OOOOOO", "O.XXXO", "OOOOOO", "......", "XXXXXX", "......"];
        assert_eq!(added(&three, &[]), ["cb", "db", "eb"]);
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
        // The stone cb's fill at bb is suicide, but White's db beside it is in
        // atari at eb: Black captures it there and cb escapes.
        let escape = [
            ".OOXX..", "O.XO.X.", "OOOXX..", ".......", ".......", ".......", ".......",
        ];
        assert!(added(&escape, &[]).is_empty());
        // Four stones in atari: their capture leaves four points, room whose
        // life is a question of reading; left to the markup.
        let four = [
            "OOOOOOO", "O.XXXXO", "OOOOOOO", ".......", "XXXXXXX", ".......", ".......",
        ];
        assert!(added(&four, &[]).is_empty());
        // A lone stone whose capture takes three more stones with it (both
        // strings have cb as their last liberty): the test is kept to captures
        // of three stones or fewer, and leaves this one to the markup.
        let with_more = [
            "OOOOOOO", "OX.XXXO", "OOOOOOO", ".......", "XXXXXXX", ".......", ".......",
        ];
        assert!(added(&with_more, &[]).is_empty());
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
