//! Input discovery: files, directories (recursive, `.sgf` and KataGo's
//! `.sgfs` in any letter case, sorted by name at every level so the order is
//! deterministic), archives (`.zip`, `.tar`, `.tar.gz`, `.tgz`, `.tar.bz2`,
//! `.tar.xz`, `.tar.zst`, `.7z`: their `*.sgf` and `*.sgfs` entries, plain or compressed
//! alone, in the archive's order, see [`archive`]), `-` for standard input,
//! and path lists. Lazy: directories are read as the walk reaches them, and archives
//! entry by entry, so memory does not grow with the size of the archive. Problems (a missing path, a
//! symlink loop, an unreadable directory) become items that report them.

pub mod archive;
pub mod bzip2_blocks;
mod error;
mod file_list;
mod item;
mod names;
pub mod parts;
mod stdin;
mod walk;

pub use error::{Action, InputError};
pub use file_list::FileList;
pub use item::{Deflated, Item, PartOf, Source, DEFAULT_MAX_FILE_SIZE};
pub use names::{display_path, escape_name, on_disk, path_bytes};
pub use walk::Walk;

use std::path::{Path, PathBuf};

/// The extensions of game files: SGF, and the collections KataGo's `selfplay`
/// and `match` write (`*.sgfs`, a game a line).
const GAME_EXTENSIONS: [&str; 2] = ["sgf", "sgfs"];
/// What a game file compressed on its own ends with after its extension:
/// gzip, bzip2, xz or Zstandard (the data are told apart by their first
/// bytes, [`item::Compression::of`]).
const COMPRESSED_SUFFIXES: [&str; 4] = [".gz", ".bz2", ".xz", ".zst"];

/// Whether `path` names a game file compressed on its own (`.sgf.gz`,
/// `.sgf.bz2`, `.sgf.xz`, `.sgf.zst`): its text is not its bytes.
pub fn is_compressed_game_file(path: &Path) -> bool {
    walk::is_compressed_sgf(path)
}

/// The input a report names, for a second look at one game (`sgfaudit
/// explain`): a file on disk (a compressed game file through its
/// decompressor), or `ARCHIVE!ENTRY` (`OUTER!INNER!ENTRY` inside a nested
/// archive), read out of the archive on disk whose path is the longest
/// prefix of the name before a `!`. The archive is read up to that entry.
/// `-` is standard input, and `-!ENTRY` an entry of an archive on it.
/// A path that is not UTF-8 may be given as it is or as reports print it.
pub fn named(given: &std::ffi::OsStr, max_size: u64) -> Item {
    let name = display_path(Path::new(given));
    if name == "-" || name.starts_with("-!") {
        return stdin::named(name, max_size);
    }
    let path = match given.to_str() {
        Some(text) => names::on_disk(text),
        None => PathBuf::from(given),
    };
    if !path.exists() {
        let archive = name
            .match_indices('!')
            .rev()
            .map(|(i, _)| &name[..i])
            .find_map(|prefix| {
                let p = names::on_disk(prefix);
                archive::kind_of(&p)
                    .filter(|_| p.is_file())
                    .map(|k| (prefix, p, k))
            });
        if let Some((prefix, p, kind)) = archive {
            let entries = archive::entries(
                p,
                prefix.to_string(),
                kind,
                archive::Reading::by_name(max_size),
            );
            return entries.item_named(name, max_size);
        }
        if let (Err(e), Ok(_)) = (path.metadata(), path.symlink_metadata()) {
            return Item {
                source: Source::Broken(InputError::broken_link(&path, &e)),
                name,
            };
        }
    }
    let source = if walk::is_compressed_sgf(&path) {
        Source::Compressed(path)
    } else {
        Source::File(path, 0)
    };
    Item { name, source }
}

/// The items of one input already in memory (a row of a Ray or Spark batch):
/// an archive's `*.sgf` entries when its name says it is one (`.zip`, `.tar`,
/// `.tar.gz`, ...), the text of a compressed game file (`.sgf.gz`, ...), else
/// the bytes as one SGF file. Larger than `max_size`: one item that says so.
/// An entry cut short gives the parts of its games before the cut and a row,
/// as the walk does.
pub fn items_of_bytes(name: &str, bytes: Vec<u8>, max_size: u64) -> Vec<Item> {
    let one = |source| {
        vec![Item {
            name: name.to_string(),
            source,
        }]
    };
    if bytes.len() as u64 > max_size {
        return one(Source::Broken(InputError::TooLarge { limit: max_size }));
    }
    let items = match archive::kind_of(Path::new(name)) {
        Some(kind) => archive::entries_of_bytes(bytes, name, kind, max_size),
        None if is_compressed_game_file(Path::new(name)) => {
            one(item::decompressed(bytes, max_size))
        }
        None => return one(Source::Bytes(bytes)),
    };
    // An entry cut short gives its games before the cut, as in a walk.
    items
        .into_iter()
        .flat_map(|item| match item.source {
            Source::CutShort(bytes, why) => {
                let part_bytes = parts::sizes().1.min(max_size);
                match parts::cut_short(item.name, bytes, why, part_bytes, max_size) {
                    Ok(parts) => parts.collect(),
                    Err(item) => vec![item],
                }
            }
            _ => vec![item],
        })
        .collect()
}
