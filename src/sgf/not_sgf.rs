//! What a file read as SGF is when it holds no game: compressed data or an
//! archive, told by the magic number its bytes begin with, or a web page
//! (what a server sends instead of a record), so that its row says what it
//! is rather than only that no game tree was found.

/// Whether `text` begins as an HTML document does (`<!DOCTYPE html` or
/// `<html`, in any letter case).
pub(super) fn is_html(text: &str) -> bool {
    ["<!doctype html", "<html"].iter().any(|start| {
        text.as_bytes()
            .get(..start.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(start.as_bytes()))
    })
}

/// Compressed data or an archive, told by its first bytes (the magic number
/// each format begins with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packed {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    Zip,
    SevenZip,
}

impl Packed {
    /// The format `bytes` begin with, if they begin with one of these. Each
    /// magic number holds a control character or a byte invalid in UTF-8,
    /// except bzip2's, taken whole: `BZh`, the level digit and the magic of
    /// a first block (`1AY&SY`) or of an empty stream's end. No SGF text
    /// begins with these ten bytes.
    pub fn sniff(bytes: &[u8]) -> Option<Packed> {
        if let [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..] = bytes {
            const BLOCK: [u8; 6] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
            const END: [u8; 6] = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
            return (rest.starts_with(&BLOCK) || rest.starts_with(&END)).then_some(Packed::Bzip2);
        }
        // A Zstandard skippable frame (RFC 8878, 3.1.2; `pzstd` writes one
        // first): its magic is 0x184D2A50 to 0x184D2A5F, little-endian.
        if let [first, 0x2a, 0x4d, 0x18, ..] = bytes {
            if first & 0xf0 == 0x50 {
                return Some(Packed::Zstd);
            }
        }
        const MAGIC: [(&[u8], Packed); 6] = [
            (&[0x1f, 0x8b], Packed::Gzip),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0], Packed::Xz),
            (&[0x28, 0xb5, 0x2f, 0xfd], Packed::Zstd),
            (b"PK\x03\x04", Packed::Zip),
            (b"PK\x05\x06", Packed::Zip),
            (&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c], Packed::SevenZip),
        ];
        MAGIC
            .iter()
            .find(|(magic, _)| bytes.starts_with(magic))
            .map(|&(_, packed)| packed)
    }

    /// What it is, as its row says.
    pub(super) fn what(self) -> &'static str {
        match self {
            Packed::Gzip => "gzip-compressed data",
            Packed::Bzip2 => "bzip2-compressed data",
            Packed::Xz => "xz-compressed data",
            Packed::Zstd => "Zstandard-compressed data",
            Packed::Zip => "a zip archive",
            Packed::SevenZip => "a 7z archive",
        }
    }

    /// Under which name sgfaudit reads it.
    pub(super) fn read_as(self) -> &'static str {
        match self {
            Packed::Gzip => "named .sgf.gz it is decompressed and read",
            Packed::Bzip2 => "named .sgf.bz2 it is decompressed and read",
            Packed::Xz => "named .sgf.xz it is decompressed and read",
            Packed::Zstd => "named .sgf.zst it is decompressed and read",
            Packed::Zip => "named .zip its game entries are read",
            Packed::SevenZip => "named .7z its game entries are read",
        }
    }
}
