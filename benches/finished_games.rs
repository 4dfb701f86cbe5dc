//! The games the estimator's examples read: every game under the given
//! directories that ends with two passes or whose RE is a count, replayed to
//! its final position. Each example reads the fields it needs.

#![allow(dead_code)]

use sgfaudit::core::board::Board;
use sgfaudit::core::game::{GameInfo, GameRecord};
use sgfaudit::core::replay::Replayer;
use sgfaudit::dead_stones::FirstMove;

/// One finished game, as [`for_each`] hands it over.
pub struct Finished<'a> {
    /// Its file, as the input walk names it.
    pub file: &'a str,
    /// Its number in the file (from 0).
    pub index: usize,
    pub info: &'a GameInfo,
    pub record: &'a GameRecord,
    /// The final position.
    pub board: &'a Board,
    /// Who moves first in a fight the side to move decides, as `check` has it.
    pub first: FirstMove,
    /// Its RE is a count.
    pub counted: bool,
    /// It ends with two passes.
    pub passed: bool,
}

/// Calls `f` with every finished game under `dirs`, in the walk's order.
pub fn for_each(dirs: Vec<String>, mut f: impl FnMut(Finished<'_>)) {
    let mut rp = Replayer::new();
    for item in sgfaudit::input::Walk::new(dirs) {
        let Ok(bytes) = item.read(sgfaudit::input::DEFAULT_MAX_FILE_SIZE) else {
            continue;
        };
        let c = sgfaudit::sgf::read(bytes);
        for index in 0..c.game_count() {
            let Some(parsed) = c.parse_game(index) else {
                continue;
            };
            let Some(record) = parsed.record else {
                continue;
            };
            let counted = parsed
                .info
                .result
                .as_deref()
                .is_some_and(|re| sgfaudit::scoring::recorded::parse_result(re).is_count());
            let out = rp.replay(&record, &Default::default());
            let passed = out.end.trailing_passes >= 2;
            if !passed && !counted {
                continue;
            }
            f(Finished {
                file: &item.name,
                index,
                info: &parsed.info,
                record: &record,
                board: rp.board(),
                first: sgfaudit::scoring::first_move(&parsed.info, &out.end),
                counted,
                passed,
            });
        }
    }
}
