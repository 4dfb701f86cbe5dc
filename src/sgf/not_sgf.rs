//! What a file read as SGF is when it holds no game: compressed data, an
//! archive or macOS metadata, told by the magic number its bytes begin
//! with, or a web page (what a server sends instead of a record), so that
//! its row says what it is rather than only that no game tree was found.

/// Whether `text` begins as an HTML document does (`<!DOCTYPE html` or
/// `<html`, in any letter case).
pub(super) fn is_html(text: &str) -> bool {
    ["<!doctype html", "<html"].iter().any(|start| {
        text.as_bytes()
            .get(..start.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(start.as_bytes()))
    })
}

/// A binary format, not text, told by its first bytes (the magic number
/// each format begins with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    Zip,
    SevenZip,
    /// A tar archive: a 512-byte header whose checksum holds, with the
    /// POSIX (`ustar`) or GNU magic at byte 257.
    Tar,
    /// The AppleDouble file (`._game.sgf`) in which macOS keeps another
    /// file's metadata on a disk or in an archive that cannot hold it
    /// (RFC 1740; AppleSingle's magic too): it holds no game.
    AppleDouble,
}

impl Binary {
    /// The format `bytes` begin with, if they begin with one of these. Each
    /// magic number holds a control character or a byte invalid in UTF-8,
    /// except bzip2's, taken whole: `BZh`, the level digit and the magic of
    /// a first block (`1AY&SY`) or of an empty stream's end. No SGF text
    /// begins with these ten bytes.
    pub fn sniff(bytes: &[u8]) -> Option<Binary> {
        if let [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..] = bytes {
            const BLOCK: [u8; 6] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
            const END: [u8; 6] = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
            return (rest.starts_with(&BLOCK) || rest.starts_with(&END)).then_some(Binary::Bzip2);
        }
        // A Zstandard skippable frame (RFC 8878, 3.1.2; `pzstd` writes one
        // first): its magic is 0x184D2A50 to 0x184D2A5F, little-endian.
        if let [first, 0x2a, 0x4d, 0x18, ..] = bytes {
            if first & 0xf0 == 0x50 {
                return Some(Binary::Zstd);
            }
        }
        const MAGIC: [(&[u8], Binary); 8] = [
            (&[0x1f, 0x8b], Binary::Gzip),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0], Binary::Xz),
            (&[0x28, 0xb5, 0x2f, 0xfd], Binary::Zstd),
            (b"PK\x03\x04", Binary::Zip),
            (b"PK\x05\x06", Binary::Zip),
            (&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c], Binary::SevenZip),
            (&[0x00, 0x05, 0x16, 0x07], Binary::AppleDouble),
            (&[0x00, 0x05, 0x16, 0x00], Binary::AppleDouble),
        ];
        let magic = MAGIC
            .iter()
            .find(|(magic, _)| bytes.starts_with(magic))
            .map(|&(_, binary)| binary);
        magic.or_else(|| is_tar_header(bytes).then_some(Binary::Tar))
    }

    /// What it is, as its row says.
    pub(super) fn what(self) -> &'static str {
        match self {
            Binary::Gzip => "gzip-compressed data",
            Binary::Bzip2 => "bzip2-compressed data",
            Binary::Xz => "xz-compressed data",
            Binary::Zstd => "Zstandard-compressed data",
            Binary::Zip => "a zip archive",
            Binary::SevenZip => "a 7z archive",
            Binary::Tar => "a tar archive",
            Binary::AppleDouble => "macOS metadata of another file (AppleDouble)",
        }
    }

    /// Under which name sgfaudit reads it, or where its game is.
    pub(super) fn read_as(self) -> &'static str {
        match self {
            Binary::Gzip => "named .sgf.gz it is decompressed and read",
            Binary::Bzip2 => "named .sgf.bz2 it is decompressed and read",
            Binary::Xz => "named .sgf.xz it is decompressed and read",
            Binary::Zstd => "named .sgf.zst it is decompressed and read",
            Binary::Zip => "named .zip its game entries are read",
            Binary::SevenZip => "named .7z its game entries are read",
            Binary::Tar => "named .tar its game entries are read",
            Binary::AppleDouble => "the file it describes has its name without the `._`",
        }
    }
}

/// Whether `bytes` begin with a tar header: the `ustar` magic at byte 257
/// (POSIX `ustar\0`, GNU `ustar  \0`) and the checksum at byte 148 (octal
/// digits, ended by NUL or space) equal to the sum of the header's 512
/// bytes, the checksum's own eight counted as spaces (POSIX.1-1988). A
/// header's name and sizes are text, but the two together never come by
/// chance in SGF text.
fn is_tar_header(bytes: &[u8]) -> bool {
    let Some(header) = bytes.get(..512) else {
        return false;
    };
    if &header[257..262] != b"ustar" {
        return false;
    }
    let field = &header[148..156];
    let digits = field
        .iter()
        .skip_while(|&&b| b == b' ')
        .take_while(|b| b.is_ascii_digit());
    let mut stored = 0u32;
    let mut count = 0;
    for &d in digits {
        if d > b'7' {
            return false;
        }
        stored = stored * 8 + u32::from(d - b'0');
        count += 1;
    }
    let sum: u32 = header
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                u32::from(b' ')
            } else {
                u32::from(b)
            }
        })
        .sum();
    count > 0 && stored == sum
}
