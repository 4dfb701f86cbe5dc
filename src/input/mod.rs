//! Input discovery: files, directories (recursive, `.sgf` in any letter case,
//! sorted by name at every level so the order is deterministic), archives
//! (`.zip`, `.tar`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tar.xz`, `.7z`: their `*.sgf`
//! entries, in the archive's order, see [`archive`]), `-` for standard input, and path
//! lists. Lazy: directories are read as the walk reaches them, and archives
//! entry by entry, so memory does not grow with the size of the archive. Problems (a missing path, a
//! symlink loop, an unreadable directory) become items that report them.

pub mod archive;
pub mod bzip2_blocks;
mod error;
mod file_list;
mod item;
pub mod parts;
mod walk;

pub use error::{Action, InputError};
pub use file_list::FileList;
pub use item::{Deflated, Item, PartOf, Source};
pub use walk::Walk;

use std::path::{Path, PathBuf};

/// Whether `path` names a game file compressed on its own (`.sgf.gz`,
/// `.sgf.bz2`, `.sgf.xz`): its text is not its bytes.
pub fn is_compressed_game_file(path: &Path) -> bool {
    walk::is_compressed_sgf(path)
}

/// The largest file or archive entry read by default (`--max-file-size`).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 << 20;

/// Bytes of a name as text: as they are when they are UTF-8, else with every
/// invalid byte written `\xHH` and every backslash `\\`, so that two different
/// names that are not UTF-8 never print alike. A UTF-8 name is left as it is,
/// so one that itself holds the text `\xHH` prints like the name with that
/// byte.
pub fn escape_name(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let mut out = String::new();
            for chunk in bytes.utf8_chunks() {
                for c in chunk.valid().chars() {
                    if c == '\\' {
                        out.push_str("\\\\");
                    } else {
                        out.push(c);
                    }
                }
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02X}"));
                }
            }
            out
        }
    }
}

/// A path as reports name it: as it is when it is UTF-8, else with its
/// invalid bytes escaped (`\xFF`, [`escape_name`]).
pub fn display_path(p: &Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        escape_name(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        p.to_string_lossy().into_owned()
    }
}

/// The path a name as reports print it stands for: the name itself when it
/// exists, else, on Unix, the name its `\xHH` and `\\` escapes
/// ([`escape_name`]) stand for, when they are its only backslashes and that
/// path exists.
fn on_disk(name: &str) -> PathBuf {
    let path = PathBuf::from(name);
    #[cfg(unix)]
    if !path.exists() && name.contains("\\x") {
        use std::os::unix::ffi::OsStringExt;
        if let Some(bytes) = unescape_name(name) {
            let unescaped = PathBuf::from(std::ffi::OsString::from_vec(bytes));
            if unescaped.exists() {
                return unescaped;
            }
        }
    }
    path
}

/// The bytes [`escape_name`] wrote as `text`, when `text` is one of its
/// escaped names.
#[cfg(unix)]
fn unescape_name(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match rest {
            [b'\\', tail @ ..] => {
                out.push(b'\\');
                rest = tail;
            }
            [b'x', hi, lo, tail @ ..] if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() => {
                let digit = |c: u8| char::from(c).to_digit(16).unwrap_or(0) as u8;
                out.push(digit(*hi) * 16 + digit(*lo));
                rest = tail;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The input a report names, for a second look at one game (`sgfaudit
/// explain`): a file on disk (a compressed game file through its
/// decompressor), or `ARCHIVE!ENTRY` (`OUTER!INNER!ENTRY` inside a nested
/// archive), read out of the archive on disk whose path is the longest
/// prefix of the name before a `!`. The archive is read up to that entry.
/// A path that is not UTF-8 may be given as it is or as reports print it.
pub fn named(given: &std::ffi::OsStr, max_size: u64) -> Item {
    let name = display_path(Path::new(given));
    let path = match given.to_str() {
        Some(text) => on_disk(text),
        None => PathBuf::from(given),
    };
    if !path.exists() {
        let archive = name
            .match_indices('!')
            .rev()
            .map(|(i, _)| &name[..i])
            .find_map(|prefix| {
                let p = on_disk(prefix);
                archive::kind_of(&p)
                    .filter(|_| p.is_file())
                    .map(|k| (prefix, p, k))
            });
        if let Some((prefix, p, kind)) = archive {
            let entries = archive::entries(p, prefix.to_string(), kind, max_size, 1);
            return entries
                .into_iter()
                .find(|handed| handed.name() == name)
                .map(|handed| handed.into_item(max_size))
                .unwrap_or_else(|| Item {
                    name,
                    source: Source::Broken(InputError::NoSuchEntry),
                });
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
/// `.tar.gz`, ...), else the bytes as one SGF file. Larger than `max_size`:
/// one item that says so. An entry cut short gives the parts of its games
/// before the cut and a row, as the walk does.
pub fn items_of_bytes(name: &str, bytes: Vec<u8>, max_size: u64) -> Vec<Item> {
    if bytes.len() as u64 > max_size {
        let why = InputError::TooLarge { limit: max_size };
        return vec![Item {
            name: name.to_string(),
            source: Source::Broken(why),
        }];
    }
    match archive::kind_of(Path::new(name)) {
        // An entry cut short gives its games before the cut, as in a walk.
        Some(kind) => archive::entries_of_bytes(bytes, name, kind, max_size)
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
            .collect(),
        None => vec![Item {
            name: name.to_string(),
            source: Source::Bytes(bytes),
        }],
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::{escape_name, unescape_name};

    #[test]
    fn an_escaped_name_gives_its_bytes_back() {
        for name in [&b"\xff.sgf"[..], b"a\\b\xfe\\x41", b"caf\xe9\\"] {
            assert_eq!(unescape_name(&escape_name(name)).as_deref(), Some(name));
        }
        // Backslashes other than `\\` and `\xHH` are not escapes.
        for text in ["a\\b", "a\\x4", "a\\xG1", "end\\"] {
            assert_eq!(unescape_name(text), None, "{text}");
        }
    }
}
