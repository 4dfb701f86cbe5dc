//! How much the dead-stone estimate depends on the board's orientation: the
//! final position of every game under the given directories that ends with two
//! passes or has a counted RE is estimated under each of the board's eight
//! symmetries (the axes exchanged or not, then the columns and the rows
//! mirrored or not), each estimate mapped back to the position as recorded.
//! Prints how many games get other dead stones under at least one symmetry,
//! and, for the games with TB/TW markup that end with two passes, the
//! agreement with the markup under each symmetry (as `estimate_accuracy`
//! counts it: the same dead stones as the markup as written).
//!
//! `cargo run --release --example estimate_symmetry -- DIR...`

use sgfaudit::core::board::{Board, BoardSize, Point};
use sgfaudit::dead_stones::estimate;
use sgfaudit::scoring::markup::dead_from_markup;

mod finished_games;

/// Symmetry `s` (bit 2: the axes exchanged; then bit 0: the columns
/// mirrored, bit 1: the rows) applied to a point of an `n`x`n` board.
fn turn(s: u8, p: Point, n: u8) -> Point {
    let (x, y) = if s & 4 != 0 { (p.y, p.x) } else { (p.x, p.y) };
    let x = if s & 1 != 0 { n - 1 - x } else { x };
    let y = if s & 2 != 0 { n - 1 - y } else { y };
    Point::new(x, y)
}

/// The inverse of [`turn`]: the mirrors are undone first, then the exchange.
fn unturn(s: u8, p: Point, n: u8) -> Point {
    let x = if s & 1 != 0 { n - 1 - p.x } else { p.x };
    let y = if s & 2 != 0 { n - 1 - p.y } else { p.y };
    if s & 4 != 0 {
        Point::new(y, x)
    } else {
        Point::new(x, y)
    }
}

/// The dead stones of `board` estimated on its image under `s`, mapped back
/// and listed row by row.
fn estimate_turned(
    board: &Board,
    s: u8,
    first: sgfaudit::dead_stones::FirstMove,
) -> (Vec<Point>, Vec<Point>) {
    let n = board.size();
    let size = BoardSize::new(n).expect("the board's own size");
    let mut turned = Board::new(size);
    let stones = (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter_map(|p| board.get(p).map(|c| (turn(s, p, n), Some(c))));
    turned.set_points(stones);
    let e = estimate(&turned, first);
    let back = |v: Vec<Point>| {
        let mut v: Vec<Point> = v.into_iter().map(|p| unturn(s, p, n)).collect();
        v.sort_by_key(|p| (p.y, p.x));
        v
    };
    (back(e.black), back(e.white))
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    let (mut games, mut changed) = (0u32, 0u32);
    let mut marked = 0u32;
    let mut agree = [0u32; 8];
    finished_games::for_each(dirs, |g| {
        let each: Vec<_> = (0..8)
            .map(|s| estimate_turned(g.board, s, g.first))
            .collect();
        games += 1;
        changed += u32::from(each.iter().any(|e| *e != each[0]));
        if let (Some(m), true) = (&g.record.markup, g.passed) {
            let truth = dead_from_markup(g.board, m);
            marked += 1;
            for (s, e) in each.iter().enumerate() {
                agree[s] += u32::from(*e == truth);
            }
        }
    });
    println!(
        "estimated games: {games}; other dead stones under at least one symmetry: {changed} ({:.1}%)",
        100.0 * f64::from(changed) / f64::from(games.max(1))
    );
    let mean = f64::from(agree.iter().sum::<u32>()) / 8.0;
    println!(
        "games with markup ending with two passes: {marked}; agreement with the markup under each \
         symmetry (the first as recorded): {agree:?}, mean {mean:.2} ({:.1}%)",
        100.0 * mean / f64::from(marked.max(1))
    );
}
