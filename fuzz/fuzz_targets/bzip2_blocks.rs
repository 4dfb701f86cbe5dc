//! bzip2 decoded block by block on threads gives what the sequential
//! decoder gives: the same bytes when it succeeds, an error when it fails,
//! and never a panic or a hang. The input is taken as a bzip2 stream, or
//! (first byte odd) as data compressed at level 1 with one byte flipped.
#![no_main]
use std::io::{Read, Write};

use libfuzzer_sys::fuzz_target;
use sgfaudit::input::bzip2_blocks::BlockDecoder;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let stream = if first & 1 == 0 {
        rest.to_vec()
    } else {
        // Repeated to span several 100 kB blocks.
        let plain: Vec<u8> = rest.iter().cycle().take(rest.len() * 997).copied().collect();
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
        e.write_all(&plain).unwrap();
        let mut z = e.finish().unwrap();
        if first > 1 && !z.is_empty() {
            let at = usize::from(first) * 131 % z.len();
            z[at] ^= first;
        }
        z
    };
    let mut sequential = Vec::new();
    let expected = bzip2::read::MultiBzDecoder::new(stream.as_slice()).read_to_end(&mut sequential);
    let mut parallel = Vec::new();
    let got = BlockDecoder::new(stream.as_slice(), 2).read_to_end(&mut parallel);
    match expected {
        Ok(_) => {
            assert!(got.is_ok(), "{got:?}");
            assert!(parallel == sequential);
        }
        Err(_) => assert!(got.is_err(), "sequential failed, parallel did not"),
    }
});
