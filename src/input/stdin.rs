//! Standard input, told by its first bytes, as a pipe has no name: SGF
//! text is read as it is; gzip, bzip2, xz or Zstandard data are
//! decompressed as they are read (`curl -s URL | sgfaudit check -`), under
//! the caps of a compressed game file; a tar archive, plain or compressed,
//! is read entry by entry as it comes, as a tar file is; a zip or 7z
//! archive, read by seeking, is held in memory up to `--max-file-size`.

use std::io::{self, Read};

use super::archive::{self, Kind, Reading};
use super::error::Action;
use super::item::{read_capped, Compression, Inflating, Item, Source};
use super::parts::FailsWith;
use super::InputError;
use crate::sgf::Binary;

/// What standard input holds.
pub(crate) enum Stdin {
    /// A tar archive, plain or compressed, from its first byte.
    Tar(Box<dyn Read + Send>),
    /// A zip or 7z archive, read whole: both are read by seeking.
    Held(Kind, Vec<u8>),
    /// Anything else, decompressed when it was compressed: read as a file
    /// is (a game or collection, or a row that says what it holds instead).
    Stream(Box<dyn Read + Send>),
}

/// Bytes read ahead to tell a tar header (512 bytes) or a compressed
/// stream's magic number.
const HEADER: u64 = 512;
/// Compressed bytes read ahead to see the first decompressed ones: a
/// bzip2 stream gives none before its first block (900 kB at most before
/// compression) is read whole.
const FIRST_BLOCK: u64 = 1 << 20;

/// Tells what `r` holds by its first bytes. A read error on the way is
/// kept for the reader of the stream, after the bytes read before it. A zip
/// or 7z archive is read whole, up to `max_size` bytes.
pub(crate) fn open(mut r: impl Read + Send + 'static, max_size: u64) -> Result<Stdin, InputError> {
    let mut head = Vec::new();
    if let Err(e) = read_ahead(&mut r, &mut head, HEADER) {
        return Ok(Stdin::Stream(Box::new(
            io::Cursor::new(head).chain(FailsWith(Some(e))),
        )));
    }
    let compression = match Binary::sniff(&head) {
        Some(Binary::Tar) => return Ok(Stdin::Tar(Box::new(io::Cursor::new(head).chain(r)))),
        Some(Binary::Gzip | Binary::Bzip2 | Binary::Xz | Binary::Zstd) => Compression::of(&head),
        Some(Binary::Zip) => return held(Kind::Zip, head, r, max_size),
        Some(Binary::SevenZip) => return held(Kind::SevenZip, head, r, max_size),
        _ => return Ok(Stdin::Stream(Box::new(io::Cursor::new(head).chain(r)))),
    };
    let ahead = read_ahead(&mut r, &mut head, FIRST_BLOCK);
    let tar = begins_a_tar(&head, compression);
    let rest: Box<dyn Read + Send> = match ahead {
        Ok(()) => Box::new(r),
        Err(e) => Box::new(FailsWith(Some(e))),
    };
    let stream = io::Cursor::new(head).chain(rest);
    if tar {
        // The tar reader decompresses it itself, as it does a `.tar.gz`.
        return Ok(Stdin::Tar(Box::new(stream)));
    }
    let inflating = Inflating::of_stream(io::BufReader::new(stream))?;
    Ok(Stdin::Stream(Box::new(inflating)))
}

/// A zip or 7z archive of `kind`, its first bytes `head` and the rest in
/// `r`, read whole up to `max_size` bytes: both are read by seeking.
fn held(kind: Kind, head: Vec<u8>, r: impl Read, max_size: u64) -> Result<Stdin, InputError> {
    read_capped(
        io::Cursor::new(head).chain(r),
        1 << 20,
        max_size,
        Action::ReadStdin,
    )
    .map(|bytes| Stdin::Held(kind, bytes))
}

/// Reads from `r` into `head` until it holds `upto` bytes or `r` ends.
fn read_ahead(r: &mut impl Read, head: &mut Vec<u8>, upto: u64) -> io::Result<()> {
    let want = upto.saturating_sub(head.len() as u64);
    r.by_ref().take(want).read_to_end(head).map(drop)
}

/// Whether the compressed bytes `head` decompress to a tar header.
fn begins_a_tar(head: &[u8], compression: Compression) -> bool {
    let Ok(decoder) = compression.reader(head, 0) else {
        return false;
    };
    let mut first = Vec::with_capacity(HEADER as usize);
    // A stream cut short at `head`'s end still gives its first bytes.
    let _ = decoder.take(HEADER).read_to_end(&mut first);
    Binary::sniff(&first) == Some(Binary::Tar)
}

/// Standard input as `explain` names it: `-` for what it holds, `-!ENTRY`
/// for an entry of an archive on it (read up to that entry); at most
/// `max_size` bytes.
pub(crate) fn named(name: String, max_size: u64) -> Item {
    let stdin = match open(io::stdin(), max_size) {
        Ok(stdin) => stdin,
        Err(why) => return broken(name, why),
    };
    let entries = match stdin {
        Stdin::Stream(r) if name == "-" => {
            return match read_capped(r, 1 << 20, max_size, Action::ReadStdin) {
                Ok(bytes) => Item {
                    name,
                    source: Source::Bytes(bytes),
                },
                Err(why) => broken(name, why),
            };
        }
        Stdin::Stream(_) => return broken(name, InputError::NotAnArchive),
        Stdin::Held(..) | Stdin::Tar(_) if name == "-" => {
            return broken(name, InputError::NameAnEntry)
        }
        Stdin::Held(kind, bytes) => {
            archive::entries_in_memory(bytes, "-".to_string(), kind, Reading::by_name(max_size))
        }
        Stdin::Tar(r) => {
            archive::tar_entries_of_stream(r, "-".to_string(), Reading::by_name(max_size))
        }
    };
    entries.item_named(name, max_size)
}

fn broken(name: String, why: InputError) -> Item {
    Item {
        name,
        source: Source::Broken(why),
    }
}
