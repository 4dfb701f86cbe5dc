//! Any bytes as a zip and as a tar archive (plain, or gzip, bzip2, xz or
//! zstd by their first bytes): reading the entries never panics and never hangs, every item
//! has a name, and an entry never holds more than the cap.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::input::archive::{entries_of_bytes, Kind};
use sgfaudit::input::Source;

const CAP: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    for kind in [Kind::Zip, Kind::Tar] {
        for item in entries_of_bytes(data.to_vec(), "fuzz", kind, CAP) {
            assert!(!item.name.is_empty());
            // A zip entry's deflate stream is inflated where it is read.
            if let Source::Bytes(_) | Source::Deflated(_) = &item.source {
                if let Ok(b) = item.read(CAP) {
                    assert!(b.len() as u64 <= CAP);
                }
            }
        }
    }
});
