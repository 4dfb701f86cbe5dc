//! Game files inside archives: `.zip`, and tar files plain, gzipped (`.tar.gz`,
//! `.tgz`) or bzip2-compressed (`.tar.bz2`, `.tbz2`, `.tbz`), as game databases
//! are shipped (KGS's yearly archives come as zip, tar.gz and tar.bz2). Entries
//! are read in the archive's own order, straight from the archive (nothing is
//! unpacked to disk), by a reader thread that hands them over through a bounded
//! channel: at most 64 entries (`IN_FLIGHT`) wait in memory, whatever the size of
//! the archive. Only entries named `*.sgf` (any letter case) are games; the
//! rest are skipped, as in a directory walk. A damaged archive or entry becomes
//! an input that reports what is wrong and where, never a silent gap.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;

use super::error::InputError;
use super::item::{Item, Source};

/// Entries read ahead of the audit.
const IN_FLIGHT: usize = 64;
/// An entry that unpacks to more than this is not read (a file of games this
/// large is not a game record; a zip bomb is not loaded into memory).
pub const MAX_ENTRY_BYTES: u64 = 256 << 20;

/// The kinds of archive read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Zip,
    /// A tar file, plain, gzip- or bzip2-compressed (told apart by its first
    /// bytes, not its name).
    Tar,
}

/// The archive kind a file name announces, if any (letter case ignored).
pub fn kind_of(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".zip") {
        Some(Kind::Zip)
    } else if [".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz"]
        .iter()
        .any(|ext| name.ends_with(ext))
    {
        Some(Kind::Tar)
    } else {
        None
    }
}

/// How an entry of an archive is named in reports: `archive!entry`.
pub fn entry_name(archive: &str, entry: &str) -> String {
    format!("{archive}!{entry}")
}

fn is_sgf_name(entry: &str) -> bool {
    entry.to_ascii_lowercase().ends_with(".sgf")
}

/// The game entries of the archive at `path` (named `name` in reports), read
/// lazily on a thread of their own. The reader stops when the receiver is
/// dropped.
pub fn entries(path: PathBuf, name: String, kind: Kind) -> Receiver<Item> {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let spawned = thread::Builder::new()
        .name("sgfaudit-archive".into())
        .spawn({
            let (name, tx) = (name.clone(), tx.clone());
            move || match kind {
                Kind::Zip => read_zip(&path, &name, &tx),
                Kind::Tar => read_tar(&path, &name, &tx),
            }
        });
    if let Err(e) = spawned {
        let _ = tx.send(broken(name, InputError::ArchiveRead(e.to_string())));
    }
    rx
}

fn broken(name: String, why: InputError) -> Item {
    Item {
        name,
        source: Source::Broken(why),
    }
}

/// Reads at most [`MAX_ENTRY_BYTES`] of an entry. The size its header claims
/// only sizes the first allocation, up to 1 MiB: a header may lie.
fn read_entry(r: impl Read, size_hint: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::with_capacity(size_hint.min(1 << 20) as usize);
    r.take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| InputError::Unpack(e.to_string()))?;
    if bytes.len() as u64 > MAX_ENTRY_BYTES {
        return Err(InputError::EntryTooLarge {
            limit: MAX_ENTRY_BYTES,
        });
    }
    Ok(bytes)
}

/// Reports the whole archive as unreadable, with why.
fn unreadable(tx: &SyncSender<Item>, name: &str, why: InputError) {
    send(tx, broken(name.into(), why));
}

/// Sends an item; false when the receiver is gone (the run stopped).
fn send(tx: &SyncSender<Item>, item: Item) -> bool {
    tx.send(item).is_ok()
}

/// Opens the archive file, or reports why it cannot be.
fn open(path: &Path, name: &str, tx: &SyncSender<Item>) -> Option<BufReader<File>> {
    match File::open(path) {
        Ok(f) => Some(BufReader::new(f)),
        Err(e) => {
            unreadable(tx, name, InputError::ArchiveOpen(e.to_string()));
            None
        }
    }
}

fn read_zip(path: &Path, name: &str, tx: &SyncSender<Item>) {
    let Some(file) = open(path, name, tx) else {
        return;
    };
    let mut zip = match zip::ZipArchive::new(file) {
        Ok(z) => z,
        Err(e) => {
            unreadable(tx, name, InputError::NotZip(e.to_string()));
            return;
        }
    };
    let mut sent = 0usize;
    for i in 0..zip.len() {
        let item = match zip.by_index(i) {
            Ok(entry) => {
                let inner = entry.name().to_string();
                if entry.is_dir() || !is_sgf_name(&inner) {
                    continue;
                }
                let size = entry.size();
                Item {
                    name: entry_name(name, &inner),
                    source: match read_entry(entry, size) {
                        Ok(bytes) => Source::Bytes(bytes),
                        Err(why) => Source::Broken(why),
                    },
                }
            }
            // An entry that cannot even be opened (encrypted, an unsupported
            // compression method, a damaged header): its name may be
            // unreadable too, so it is named by its place in the archive.
            Err(e) => broken(
                entry_name(name, &format!("entry {}", i + 1)),
                InputError::ZipEntry(e.to_string()),
            ),
        };
        if !send(tx, item) {
            return;
        }
        sent += 1;
    }
    if sent == 0 {
        send(tx, no_games(name));
    }
}

fn read_tar(path: &Path, name: &str, tx: &SyncSender<Item>) {
    let Some(mut file) = open(path, name, tx) else {
        return;
    };
    // gzip announces itself with 1f 8b, bzip2 with "BZh".
    let head = match io::BufRead::fill_buf(&mut file) {
        Ok(head) => head,
        Err(e) => {
            unreadable(tx, name, InputError::ArchiveRead(e.to_string()));
            return;
        }
    };
    let reader: Box<dyn Read> = if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else if head.starts_with(b"BZh") {
        Box::new(bzip2::read::MultiBzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut tar = tar::Archive::new(reader);
    let entries = match tar.entries() {
        Ok(e) => e,
        Err(e) => {
            unreadable(tx, name, InputError::NotTar(e.to_string()));
            return;
        }
    };
    let (mut seen, mut sent) = (0usize, 0usize);
    for entry in entries {
        seen += 1;
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                // The stream is damaged (or cut short) here: nothing after it
                // can be found, so the rest of the archive is reported once.
                send(
                    tx,
                    broken(
                        entry_name(name, &format!("entry {seen}")),
                        InputError::Damaged(e.to_string()),
                    ),
                );
                return;
            }
        };
        let entry_path = entry.path().map(|p| p.to_string_lossy().into_owned());
        let entry_path = match entry_path {
            Ok(p) => p,
            Err(e) => {
                let item = broken(
                    entry_name(name, &format!("entry {seen}")),
                    InputError::EntryName(e.to_string()),
                );
                if !send(tx, item) {
                    return;
                }
                sent += 1;
                continue;
            }
        };
        if !entry.header().entry_type().is_file() || !is_sgf_name(&entry_path) {
            continue;
        }
        let size = entry.size();
        let item = Item {
            name: entry_name(name, &entry_path),
            source: match read_entry(&mut entry, size) {
                Ok(bytes) => Source::Bytes(bytes),
                Err(why) => Source::Broken(why),
            },
        };
        if !send(tx, item) {
            return;
        }
        sent += 1;
    }
    if sent == 0 {
        send(tx, no_games(name));
    }
}

/// An archive without a single game entry still appears in the report.
fn no_games(name: &str) -> Item {
    broken(name.into(), InputError::NoGames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archives_are_known_by_their_names_in_any_letter_case() {
        for (name, kind) in [
            ("kgs-2019.zip", Some(Kind::Zip)),
            ("KGS-2019.ZIP", Some(Kind::Zip)),
            ("games.tar", Some(Kind::Tar)),
            ("games.tar.gz", Some(Kind::Tar)),
            ("games.TGZ", Some(Kind::Tar)),
            ("KGS-2019.tar.bz2", Some(Kind::Tar)),
            ("games.tbz2", Some(Kind::Tar)),
            ("game.sgf", None),
            ("games.gz", None),
            ("zip", None),
        ] {
            assert_eq!(kind_of(Path::new(name)), kind, "{name}");
        }
    }
}
