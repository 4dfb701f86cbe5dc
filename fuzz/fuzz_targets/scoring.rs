//! Any bytes as a finished game with territory markup: replay and score it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::core::game::GameInfo;
use sgfaudit::scoring::{score_game, Scoring, ScoringOptions};

fuzz_target!(|data: &[u8]| {
    let record = sgfaudit_fuzz_support::record(data);
    sgfaudit_fuzz_support::with_replay(&record, |r, out| {
        let info = GameInfo {
            result: Some("B+0.5".into()),
            rules: Some("Japanese".into()),
            ..Default::default()
        };
        let mut findings = Vec::new();
        if let Scoring::Scored(scored) = score_game(
            r.board(),
            &record,
            &info,
            &out.end,
            &ScoringOptions::default(),
            &mut findings,
        ) {
            for d in &scored.divergence {
                let sum: f64 = d.causes.iter().map(|c| c.1).sum();
                assert!((sum - d.margin_difference).abs() < 1e-6);
            }
        }
    });
});

#[path = "support.rs"]
mod sgfaudit_fuzz_support;
