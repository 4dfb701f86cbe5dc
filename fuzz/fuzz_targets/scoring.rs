//! Any bytes as a finished game with territory markup: replay and score it,
//! under rules the first byte picks (Japanese, or a KataGo string: its own
//! count of the board, encore and taxes included).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::core::game::GameInfo;
use sgfaudit::scoring::{score_game, Scoring, ScoringOptions};

fuzz_target!(|data: &[u8]| {
    let record = sgfaudit_fuzz_support::record(data);
    sgfaudit_fuzz_support::with_replay(&record, |r, out| {
        const RULES: [&str; 4] = [
            "Japanese",
            "koSIMPLEscoreTERRITORYtaxSEKIsui0",
            "koPOSITIONALscoreAREAtaxALLsui1button1whbN",
            "koSITUATIONALscoreTERRITORYtaxNONEsui1whbN-1",
        ];
        let rules = RULES[usize::from(data.first().copied().unwrap_or(0)) % RULES.len()];
        let info = GameInfo {
            result: Some("B+0.5".into()),
            rules: Some(rules.into()),
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
            if let Some(check) = &scored.result_check {
                assert!(check.computed.is_some(), "{rules}: no count");
            }
            for d in &scored.divergence {
                let sum: f64 = d.causes.iter().map(|c| c.1).sum();
                assert!((sum - d.margin_difference).abs() < 1e-6);
            }
        }
    });
});

#[path = "support.rs"]
mod sgfaudit_fuzz_support;
