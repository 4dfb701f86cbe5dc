//! A finding's name across runs: the `fingerprint` of a GitLab Code Quality
//! issue, and what `--baseline` matches.
//!
//! It names the finding, not its wording: the input (without a leading
//! `./`), the game, the code, the move (for a finding with none, the byte
//! offset: text added above a move does not rename it), and how many
//! findings of the game share these before it; not the message, whose
//! wording may improve, nor the other inputs of the run. FNV-1a, 64 bits,
//! with two offset bases: a fixed function, so a fingerprint is the same in
//! every release and on every machine.

use std::collections::HashMap;
use std::fmt;

use crate::audit::GameReport;

/// One finding's fingerprint; shown as 32 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fingerprint(u128);

impl Fingerprint {
    /// FNV-1a of `key` from each of the two offset bases.
    fn of(key: &[u8]) -> Fingerprint {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let [high, low] = [0xcbf2_9ce4_8422_2325_u64, 0x6c62_272e_07bb_0142].map(|basis| {
            key.iter()
                .fold(basis, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
        });
        Fingerprint(u128::from(high) << 64 | u128::from(low))
    }

    /// The fingerprint 32 hex digits (either case) write, as a report shows it.
    pub fn parse(hex: &str) -> Option<Fingerprint> {
        if hex.len() != 32 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u128::from_str_radix(hex, 16).ok().map(Fingerprint)
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// The input's name as fingerprints take it: `./corpus` and `corpus` name
/// the same findings.
pub fn input_name(path: &str) -> &str {
    path.strip_prefix("./").unwrap_or(path)
}

/// The fingerprints of a game's findings, in their order.
pub fn of_game(path: &str, game: &GameReport) -> Vec<Fingerprint> {
    let name = input_name(path);
    // Findings of one game that share code, move and offset, counted so
    // each gets a fingerprint of its own.
    let mut seen: HashMap<(&'static str, Option<u32>, Option<u64>), u32> = HashMap::new();
    game.findings
        .iter()
        .map(|f| {
            let offset = match f.move_number {
                Some(m) if m > 0 => None,
                _ => f.location.as_ref().map(|l| l.offset),
            };
            let nth = seen
                .entry((f.code.id(), f.move_number, offset))
                .or_insert(0);
            let key = format!(
                "{}\0{}\0{}\0{:?}\0{:?}\0{}",
                name,
                game.index,
                f.code.id(),
                f.move_number,
                offset,
                nth
            );
            *nth += 1;
            Fingerprint::of(key.as_bytes())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    /// FNV-1a's published test vectors: the empty string and "a" for the
    /// standard offset basis.
    #[test]
    fn fingerprints_are_fnv_1a() {
        let hex = |key: &[u8]| Fingerprint::of(key).to_string();
        assert_eq!(&hex(b"")[..16], "cbf29ce484222325");
        assert_eq!(&hex(b"a")[..16], "af63dc4c8601ec8c");
        assert_eq!(hex(b"x").len(), 32);
        assert_ne!(hex(b"ab"), hex(b"ba"));
    }

    #[test]
    fn a_fingerprint_reads_back_from_its_hex() {
        let f = Fingerprint::of(b"corpus/a.sgf\x000\x00R401");
        assert_eq!(Fingerprint::parse(&f.to_string()), Some(f));
        assert_eq!(Fingerprint::parse(&f.to_string().to_uppercase()), Some(f));
        assert_eq!(Fingerprint::parse("+f"), None);
        assert_eq!(Fingerprint::parse(&"g".repeat(32)), None);
        assert_eq!(
            Fingerprint::parse(&format!("+{}", &f.to_string()[1..])),
            None
        );
    }
}
