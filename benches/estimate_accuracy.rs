//! How often the dead-stone estimator agrees with TB/TW markup, and how long it
//! takes: every scored game with markup under the given directories is scored
//! twice (markup, then estimate with the markup ignored) and the dead-stone sets
//! compared. Prints agreement and time per estimated game. The markup is taken as
//! written (TB/TW only); the games with a counted RE are also compared with the
//! markup completed by Japanese rule 7, as `check` counts it.
//!
//! It also counts the games whose markup marks dead stones that only
//! Japanese rule 7 makes dead (`dead_by_rule7`: lone stones and strings of up
//! to three stones in atari whose owner cannot fill the last liberty, which
//! the estimate kills) and the games whose markup leaves some standing.
//!
//! `cargo run --release --example estimate_accuracy -- DIR...`
//!
//! `SALT=N` (N > 0) draws the playouts with another seed, to see how much the
//! figures rest on the draw. `SEEDS=N` also scores the games with a counted RE
//! again with the seeds `SALT+1` to `SALT+N-1`, and prints the figure per seed and
//! their mean. With `GNUGO_LIST=FILE` it also writes the games it compared, with the markup's
//! dead stones, as the JSON list `benches/peers/gnugo_dead.py` reads, so GNU Go
//! is measured on exactly the same games.

use std::time::Instant;

use sgfaudit::scoring::markup::{
    dead_by_rule7, dead_from_markup, estimated_dead_by_rule7, RULE7_MAX_STONES,
};

mod finished_games;

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    let verbose = std::env::var_os("VERBOSE").is_some();
    let salt: u64 = std::env::var("SALT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let (mut games, mut agree) = (0u32, 0u32);
    let (mut sure_games, mut sure_agree) = (0u32, 0u32);
    let (mut re_games, mut re_agree) = (0u32, 0u32);
    let mut re_agree_rule7 = 0u32;
    // Games whose markup leaves standing stones that only rule 7 makes dead,
    // and games whose markup marks such stones dead: what players do with
    // the stones the estimate kills by rule 7.
    let (mut rule7_standing, mut rule7_marked) = (0u32, 0u32);
    let mut spent = 0f64;
    let mut list = Vec::new();
    let seeds: u64 = std::env::var("SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut kept = Vec::new();
    finished_games::for_each(dirs, |g| {
        let (Some(markup), true) = (&g.record.markup, g.passed) else {
            return;
        };
        let (board, counted, i) = (g.board, g.counted, g.index);
        let truth = dead_from_markup(board, markup);
        let completed = {
            let (mut b, mut w) = truth.clone();
            let (ab, aw) = dead_by_rule7(board, markup, &b, &w);
            b.extend(ab);
            w.extend(aw);
            b.sort_by_key(|p| (p.y, p.x));
            w.sort_by_key(|p| (p.y, p.x));
            (b, w)
        };
        rule7_standing += u32::from(completed != truth);
        let marked: Vec<_> = truth.0.iter().chain(&truth.1).copied().collect();
        rule7_marked +=
            u32::from(!estimated_dead_by_rule7(board, &marked, RULE7_MAX_STONES).is_empty());
        let sgf =
            |v: &[sgfaudit::core::board::Point]| v.iter().map(|p| p.sgf()).collect::<Vec<_>>();
        list.push(serde_json::json!({
            "file": g.file, "game": i, "size": g.record.size.get(),
            "black": sgf(&truth.0), "white": sgf(&truth.1), "counted_re": counted,
            "black_rule7": sgf(&completed.0), "white_rule7": sgf(&completed.1),
        }));
        if counted && seeds > 1 {
            kept.push((g.board.clone(), g.first, truth.clone(), completed.clone()));
        }
        let t = Instant::now();
        let e = sgfaudit::dead_stones::estimate_seeded(board, g.first, salt);
        let sure = e.uncertain.is_empty();
        let est = (e.black, e.white);
        spent += t.elapsed().as_secs_f64();
        games += 1;
        re_games += u32::from(counted);
        re_agree += u32::from(counted && est == truth);
        re_agree_rule7 += u32::from(counted && est == completed);
        sure_games += u32::from(sure);
        sure_agree += u32::from(sure && est == truth);
        if est == truth {
            agree += 1;
        } else if verbose {
            let only = |a: &[sgfaudit::core::board::Point], b: &[sgfaudit::core::board::Point]| {
                let v: Vec<String> = a
                    .iter()
                    .filter(|p| !b.contains(p))
                    .map(|p| p.sgf())
                    .collect();
                v.join(" ")
            };
            println!(
                "{} game {i}: markup dead B {} W {}, estimated B {} W {}{}{}; \
                     only the estimate kills B [{}] W [{}]; only the markup kills B [{}] W [{}]",
                g.file,
                truth.0.len(),
                truth.1.len(),
                est.0.len(),
                est.1.len(),
                if sure { "" } else { " (some stones uncertain)" },
                if counted { "" } else { " (RE not a count)" },
                only(&est.0, &truth.0),
                only(&est.1, &truth.1),
                only(&truth.0, &est.0),
                only(&truth.1, &est.1),
            );
        }
    });
    if let Some(path) = std::env::var_os("GNUGO_LIST") {
        let text = serde_json::to_string(&list).expect("JSON");
        std::fs::write(path, text).expect("write the GNU Go list");
    }
    println!(
        "games with no uncertain stone: {sure_agree} of {sure_games} agree ({:.1}%)",
        100.0 * f64::from(sure_agree) / f64::from(sure_games.max(1))
    );
    println!(
        "games with a counted RE: {re_agree} of {re_games} agree ({:.1}%)",
        100.0 * f64::from(re_agree) / f64::from(re_games.max(1))
    );
    println!(
        "games with a counted RE, markup completed by rule 7: {re_agree_rule7} of {re_games} agree ({:.1}%)",
        100.0 * f64::from(re_agree_rule7) / f64::from(re_games.max(1))
    );
    if seeds > 1 {
        let (mut per_seed, mut per_seed_rule7) = (vec![re_agree], vec![re_agree_rule7]);
        for s in 1..seeds {
            let (mut n, mut n7) = (0u32, 0u32);
            for (board, first, truth, completed) in &kept {
                let e = sgfaudit::dead_stones::estimate_seeded(board, *first, salt + s);
                let est = (e.black, e.white);
                n += u32::from(est == *truth);
                n7 += u32::from(est == *completed);
            }
            per_seed.push(n);
            per_seed_rule7.push(n7);
        }
        for (what, v) in [
            ("", &per_seed),
            (", markup completed by rule 7", &per_seed_rule7),
        ] {
            let mean = f64::from(v.iter().sum::<u32>()) / v.len() as f64;
            println!(
                "games with a counted RE{what}, seeds {salt} to {}: {v:?}, mean {mean:.2} of {re_games} ({:.1}%)",
                salt + seeds - 1,
                100.0 * mean / f64::from(re_games.max(1))
            );
        }
    }
    println!(
        "stones only Japanese rule 7 makes dead: the markup marks some dead in {rule7_marked} of {games} games, \
         leaves some standing in {rule7_standing}"
    );
    println!(
        "estimate vs markup: {agree} of {games} games agree ({:.1}%), {:.3} ms per game",
        100.0 * f64::from(agree) / f64::from(games.max(1)),
        1000.0 * spent / f64::from(games.max(1))
    );
}
