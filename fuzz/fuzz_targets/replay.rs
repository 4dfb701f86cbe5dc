//! Any bytes as a game on a small board: replay it and check the board's
//! invariants (incremental hash = hash from scratch).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let record = sgfaudit_fuzz_support::record(data);
    sgfaudit_fuzz_support::with_replay(&record, |r, out| {
        assert_eq!(r.board().hash(), r.board().hash_from_scratch());
        assert_eq!(out.moves, record.move_count());
    });
});

#[path = "support.rs"]
mod sgfaudit_fuzz_support;
