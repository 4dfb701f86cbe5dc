//! Any bytes: decode, scan, parse every game, convert. Must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let c = sgfaudit::sgf::read(data.to_vec());
    let _ = c.file_findings();
    for i in 0..c.game_count() {
        let _ = c.parse_game(i);
    }
});
