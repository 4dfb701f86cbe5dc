//! Throughput of each stage on the real corpus: decode+parse, replay, and the whole
//! audit of a file, one thread and all threads.
//!
//! `cargo bench --bench throughput` (uses `../shared/corpus/real` when present, else
//! `corpus/real`). Criterion reports time per iteration and games/s (throughput in
//! "elements" = games) for each stage.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;
use sgfaudit::audit::{audit_bytes, AuditOptions};
use sgfaudit::core::game::{GameInfo, GameRecord};
use sgfaudit::core::replay::Replayer;
use sgfaudit::scoring::{score_game, DeadStonesMode, Scoring, ScoringOptions};
use sgfaudit::sgf;

/// The same allocator as the `sgfaudit` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn corpus_dir() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/corpus/real");
    if shared.is_dir() {
        shared
    } else {
        root.join("corpus/real")
    }
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let walk = sgfaudit::input::Walk::new(vec![dir.to_string_lossy().into_owned()]);
    walk.filter_map(|item| {
        item.read(sgfaudit::input::DEFAULT_MAX_FILE_SIZE)
            .ok()
            .map(|b| (item.name.clone(), b))
    })
    .collect()
}

fn records(files: &[(String, Vec<u8>)]) -> Vec<GameRecord> {
    let mut out = Vec::new();
    for (_, bytes) in files {
        let c = sgf::read(bytes.clone());
        for i in 0..c.game_count() {
            if let Some(r) = c.parse_game(i).and_then(|g| g.record) {
                out.push(r);
            }
        }
    }
    out
}

fn replay_all(rp: &mut Replayer, records: &[GameRecord], opts: &AuditOptions) -> u32 {
    records
        .iter()
        .map(|r| rp.replay(r, &opts.rules).moves)
        .sum()
}

fn bench(c: &mut Criterion) {
    let dir = corpus_dir();
    let files = files(&dir);
    let records = records(&files);
    let games = records.len() as u64;
    let moves: u64 = records.iter().map(|r| u64::from(r.move_count())).sum();
    eprintln!(
        "corpus {}: {} files, {} games, {} moves",
        dir.display(),
        files.len(),
        games,
        moves
    );
    let opts = AuditOptions::default();

    let mut g = c.benchmark_group("stages");
    g.sample_size(10);
    g.throughput(Throughput::Elements(games));
    g.bench_function("decode+parse", |b| {
        b.iter(|| {
            let mut n = 0;
            for (_, bytes) in &files {
                let c = sgf::read(bytes.clone());
                for i in 0..c.game_count() {
                    n += c
                        .parse_game(i)
                        .and_then(|g| g.record)
                        .map_or(0, |r| r.events.len());
                }
            }
            n
        })
    });
    g.bench_function("replay", |b| {
        let mut rp = Replayer::new();
        b.iter(|| replay_all(&mut rp, &records, &opts))
    });
    g.bench_function("audit 1 thread", |b| {
        let mut rp = Replayer::new();
        b.iter(|| {
            files
                .iter()
                .map(|(name, bytes)| audit_bytes(name, bytes, &opts, &mut rp).games.len())
                .sum::<usize>()
        })
    });
    g.bench_function("audit all threads", |b| {
        b.iter(|| {
            files
                .par_iter()
                .map_init(Replayer::new, |rp, (name, bytes)| {
                    audit_bytes(name, bytes, &opts, rp).games.len()
                })
                .sum::<usize>()
        })
    });
    g.finish();

    // Scoring per scored game: replay (to reach the final position) + score, minus
    // nothing: compare with "replay" above to see the scoring's own share.
    let finished: Vec<&GameRecord> = records
        .iter()
        .filter(|r| {
            let mut rp = Replayer::new();
            rp.replay(r, &opts.rules).end.trailing_passes >= 2
        })
        .collect();
    let mut g = c.benchmark_group("scoring");
    g.sample_size(10);
    g.throughput(Throughput::Elements(finished.len() as u64));
    for (name, mode) in [
        ("markup or estimate", DeadStonesMode::Auto),
        ("estimate", DeadStonesMode::Estimate),
    ] {
        let sopts = ScoringOptions {
            dead_stones: mode,
            ..Default::default()
        };
        g.bench_function(name, |b| {
            let mut rp = Replayer::new();
            let info = GameInfo::default();
            b.iter(|| {
                let mut findings = Vec::new();
                let mut n = 0;
                for r in &finished {
                    let out = rp.replay(r, &opts.rules);
                    let s = score_game(rp.board(), r, &info, &out.end, &sopts, &mut findings);
                    n += usize::from(matches!(s, Scoring::Scored { .. }));
                }
                n
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("replay per move");
    g.sample_size(10);
    g.throughput(Throughput::Elements(moves));
    g.bench_function("replay", |b| {
        let mut rp = Replayer::new();
        b.iter(|| replay_all(&mut rp, &records, &opts))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
