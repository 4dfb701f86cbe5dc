//! Time of the dead-stone estimate per game: every game under the given
//! directories that ends with two passes or has a counted RE is replayed, and
//! `estimate::estimate` alone is timed on its final position. Prints the mean,
//! median, 99th percentile, the share of the time the slowest tenth and fifth
//! of the games take, and the five slowest games.
//!
//! `cargo run --release --example estimate_times -- DIR...`

use std::time::Instant;

mod finished_games;

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    let mut times = Vec::new();
    finished_games::for_each(dirs, |g| {
        let t = Instant::now();
        let e = sgfaudit::dead_stones::estimate(g.board, g.first);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        std::hint::black_box(e);
        times.push((ms, format!("{} game {}", g.file, g.index)));
    });
    if times.is_empty() {
        println!("no finished game");
        return;
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    println!(
        "{} games: mean {:.2} ms, median {:.2} ms, 99th percentile {:.2} ms",
        times.len(),
        total / times.len() as f64,
        times[times.len() / 2].0,
        times[times.len() / 100].0
    );
    // Where the time goes: the share of the slowest games.
    for tenths in [1, 2] {
        let slowest: f64 = times
            .iter()
            .take(times.len() * tenths / 10)
            .map(|t| t.0)
            .sum();
        println!(
            "the slowest {}0% of games: {:.0}% of the time",
            tenths,
            100.0 * slowest / total
        );
    }
    for (ms, game) in times.iter().take(5) {
        println!("{ms:.2} ms  {game}");
    }
}
