//! Any bytes as a game on a small board: replay it and check the board's
//! invariants (incremental hash = hash from scratch).
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::replay::Replayer;

thread_local! {
    // One replayer reused across runs, as the pipeline does (and much faster).
    static REPLAYER: std::cell::RefCell<Replayer> = std::cell::RefCell::new(Replayer::new());
}

fuzz_target!(|data: &[u8]| {
    let record = sgfaudit_fuzz_support::record(data);
    REPLAYER.with(|cell| {
        let mut r = cell.borrow_mut();
        let out = r.replay(&record, &Default::default());
        assert_eq!(r.board().hash(), r.board().hash_from_scratch());
        assert_eq!(out.moves, record.move_count());
    });
});

#[path = "support.rs"]
mod sgfaudit_fuzz_support;
