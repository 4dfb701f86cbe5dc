//! Bytes read as the packed data and header of a 7z archive: the harness
//! writes the signature header around them with correct CRCs (which random
//! bytes would never have), so the fuzzer reaches the header parser and the
//! decoders. Reading never panics or hangs, every item has a name, and no
//! entry yields more than the size cap.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::input::archive::{entries_of_bytes, Kind};
use sgfaudit::input::Source;

const CAP: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else {
        return;
    };
    // The first two bytes say how much of the rest is packed data.
    let packed = usize::from(u16::from_le_bytes([*a, *b])).min(rest.len());
    let header = &rest[packed..];
    let mut start = Vec::new();
    start.extend((packed as u64).to_le_bytes());
    start.extend((header.len() as u64).to_le_bytes());
    start.extend(crc32fast::hash(header).to_le_bytes());
    let mut archive = vec![b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4];
    archive.extend(crc32fast::hash(&start).to_le_bytes());
    archive.extend(start);
    archive.extend(rest);
    for item in entries_of_bytes(archive, "fuzz", Kind::SevenZip, CAP) {
        assert!(!item.name.is_empty());
        if let Source::Bytes(b) = &item.source {
            assert!(b.len() as u64 <= CAP);
        }
    }
});
