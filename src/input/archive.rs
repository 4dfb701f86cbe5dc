//! Game files inside archives: `.zip` (`zip.rs`), tar files plain, gzipped (`.tar.gz`,
//! `.tgz`), bzip2- (`.tar.bz2`, `.tbz2`, `.tbz`), xz- (`.tar.xz`, `.txz`;
//! the decoder may take at most 128 MiB) or Zstandard-compressed
//! (`.tar.zst`, `.tzst`; windows of at most 128 MiB), and `.7z` (`sevenz.rs`), as
//! game databases are shipped (KGS's yearly archives come as zip, tar.gz and
//! tar.bz2, Fox's dataset as 7z). Entries
//! are read in the archive's own order, straight from the archive (nothing is
//! unpacked to disk), by a reader thread that hands them over through a bounded
//! channel: at most 16 entries (`IN_FLIGHT`) and 64 MiB (`IN_FLIGHT_BYTES`, or
//! one larger entry) wait in memory, whatever the size of the archive. A
//! zip's deflated game entries are handed over as they lie in the archive
//! ([`Source::Deflated`]) and inflated by the worker that audits them, so
//! that inflating runs on every thread, not on the reader's alone. A game
//! entry larger than a collection read whole, of any kind of archive, is
//! piped to the walk as it is unpacked ([`Handed::Piped`], `pipe.rs`), to be
//! cut into parts. Only entries named `*.sgf` or `*.sgfs` (any letter case)
//! are games, and the same compressed alone (`*.sgf.gz`, `*.sgf.bz2`,
//! `*.sgf.xz`, `*.sgf.zst`, ...), decompressed on the reader thread as they are read,
//! under the caps of such a file on disk (one that inflates past a
//! collection read whole is piped too); the rest are skipped, as in a
//! directory walk. Game entries with a hidden name (a part of the path
//! beginning with `.`) are left out unless hidden names are read, and the
//! metadata macOS adds (`._*`, `__MACOSX/`) always, each counted with what
//! the walk leaves out ([`LeftOut`]).
//! A damaged archive or entry becomes an input that reports what is wrong
//! and where, never a silent gap.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;
use std::thread;

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};

mod pipe;
mod sevenz;
mod zip;

pub use self::pipe::Pipe;
use self::zip::read_zip;

use super::error::{keeps_bytes_before, Action, InputError};
use super::item::{
    decompressed, inflate_cap, read_capped, read_capped_keeping, Compression, Inflating, Item,
    ReadFailed, Source, MAX_RATIO, RATIO_FLOOR,
};
use crate::budget::Budget;
use crate::faults::{fault_injected, panic_message};

/// Entries read ahead of the audit.
const IN_FLIGHT: usize = 16;
/// Bytes of entries read ahead of the audit: the reader waits while more
/// than this is unpacked and not yet taken (one entry is always let
/// through, however large, up to the size limit).
const IN_FLIGHT_BYTES: u64 = 64 << 20;

fn bytes_of(handed: &Handed) -> u64 {
    match handed {
        Handed::Item(Item {
            source: Source::Bytes(b) | Source::CutShort(b, _),
            ..
        }) => b.len() as u64,
        Handed::Item(Item {
            source: Source::Deflated(d),
            ..
        }) => d.raw.len() as u64,
        _ => 0,
    }
}

/// An entry as the archive's reader hands it over.
#[derive(Debug)]
pub enum Handed {
    /// Read (or known to be unreadable) whole.
    Item(Item),
    /// A game entry larger than a collection read whole
    /// ([`super::parts::SPLIT_ABOVE`]), unpacked as the walk takes its
    /// bytes: the reader thread waits on it, so it is read to its end (or
    /// dropped) before the next entry is asked for.
    Piped {
        name: String,
        pipe: Pipe,
        /// The size its header declares (none for a compressed game entry,
        /// piped as it is decompressed).
        size: Option<u64>,
    },
}

impl Handed {
    /// The name the entry is reported under.
    pub fn name(&self) -> &str {
        match self {
            Handed::Item(item) => &item.name,
            Handed::Piped { name, .. } => name,
        }
    }

    /// The entry as an item read whole, up to `limit` bytes.
    pub fn into_item(self, limit: u64) -> Item {
        match self {
            Handed::Item(item) => item,
            Handed::Piped { name, pipe, .. } => {
                let source = match read_capped(pipe, 0, limit, Action::Read) {
                    Ok(bytes) => Source::Bytes(bytes),
                    Err(why) => Source::Broken(why),
                };
                Item { name, source }
            }
        }
    }
}

/// The entries of an archive as the reader thread unpacks them.
pub struct Entries {
    rx: Receiver<Handed>,
    budget: Arc<Budget>,
}

impl Entries {
    /// The entry named `name` (as reports name it), read up to it, else the
    /// entry whose name is the text its `\xHH` escapes stand for (a name with
    /// a control character, as the summary prints it); an item that says so
    /// when the archive holds neither.
    pub fn item_named(self, name: String, max_size: u64) -> Item {
        let unescaped = super::names::unescape_text(&name);
        let mut fallback = None;
        for handed in self {
            if handed.name() == name {
                return handed.into_item(max_size);
            }
            if fallback.is_none() && unescaped.as_deref() == Some(handed.name()) {
                fallback = Some(handed);
            }
        }
        match fallback {
            Some(handed) => handed.into_item(max_size),
            None => Item {
                name,
                source: Source::Broken(InputError::NoSuchEntry),
            },
        }
    }
}

impl Iterator for Entries {
    type Item = Handed;

    fn next(&mut self) -> Option<Handed> {
        let item = self.rx.recv().ok()?;
        self.budget.give_back(bytes_of(&item));
        Some(item)
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        // A reader waiting for room must not wait for ever: with the
        // receiver gone its next send fails and it stops.
        self.budget.give_back(u64::MAX);
    }
}

/// The kinds of archive read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Zip,
    /// A tar file, plain, gzip- or bzip2-compressed (told apart by its first
    /// bytes, not its name).
    Tar,
    /// A 7z archive (`sevenz.rs`).
    SevenZip,
}

/// The names of a tar file, plain or compressed.
const TAR_SUFFIXES: [&str; 10] = [
    ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz", ".tar.zst", ".tzst",
];

/// The archive kind a file name announces, if any (letter case ignored).
pub fn kind_of(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".zip") {
        Some(Kind::Zip)
    } else if name.ends_with(".7z") {
        Some(Kind::SevenZip)
    } else if TAR_SUFFIXES.iter().any(|ext| name.ends_with(ext)) {
        Some(Kind::Tar)
    } else {
        None
    }
}

/// How an entry of an archive is named in reports: `archive!entry`.
pub fn entry_name(archive: &str, entry: &str) -> String {
    format!("{archive}!{entry}")
}

/// The metadata macOS writes beside each file of an archive it makes (an
/// AppleDouble file, `._game.sgf`, and under `__MACOSX/` in a zip): never
/// a game, whatever its name ends with. Such a name is hidden to the walk
/// too, which leaves it out of a directory.
fn is_macos_metadata(entry: &str) -> bool {
    entry
        .split(['/', '\\'])
        .any(|part| part == "__MACOSX" || part.starts_with("._"))
}

/// A name with a part beginning with `.` (not `.` or `..` themselves, as in
/// `./game.sgf`): hidden, as the walk judges a name in a directory.
fn is_hidden_name(entry: &str) -> bool {
    entry
        .split(['/', '\\'])
        .any(|part| part.starts_with('.') && part != "." && part != "..")
}

/// Which game and archive entries of an archive are left out for their
/// names, as the walk leaves files out of a directory: macOS's metadata
/// always, hidden names unless `hidden` (`--hidden`); each one left out is
/// counted in `count` (the walk's count, the summary's "left out").
#[derive(Clone, Debug, Default)]
pub struct LeftOut {
    pub hidden: bool,
    pub count: Arc<AtomicU64>,
}

impl LeftOut {
    /// Hidden names read, only macOS's metadata left out (uncounted): for an
    /// entry asked for by its name, and archives given as bytes.
    pub fn hidden_read() -> LeftOut {
        LeftOut {
            hidden: true,
            count: Arc::default(),
        }
    }
}

/// How the entries of an archive are read.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The largest entry read (`--max-file-size`).
    pub max_entry: u64,
    /// Threads that decode a bzip2 stream's blocks.
    pub threads: usize,
    /// The entries left out for their names.
    pub left_out: LeftOut,
}

impl Reading {
    /// To find one entry asked for by its name: one decoding thread, hidden
    /// names read.
    pub fn by_name(max_entry: u64) -> Reading {
        Reading {
            max_entry,
            threads: 1,
            left_out: LeftOut::hidden_read(),
        }
    }
}

/// A game file by the extensions the walk reads (`*.sgf`, KataGo's `*.sgfs`).
fn is_sgf_name(entry: &str) -> bool {
    let lower = entry.to_ascii_lowercase();
    super::GAME_EXTENSIONS.iter().any(|ext| {
        lower
            .strip_suffix(ext)
            .is_some_and(|stem| stem.ends_with('.'))
    })
}

/// The largest LZMA dictionary allocated (7z blocks, zip entries), as for
/// `.xz` files.
const MAX_DICTIONARY: u64 = 128 << 20;

/// LZMA options for a dictionary of `dict` bytes (at least liblzma's
/// smallest) and, for LZMA1, its properties byte `lc + 9 * (lp + 5 * pb)`,
/// as 7z blocks and zip entries write it; `None` when that byte is out of
/// range.
fn lzma_options(dict: u64, lclppb: Option<u8>) -> Option<liblzma::stream::LzmaOptions> {
    let mut options = liblzma::stream::LzmaOptions::new();
    options.dict_size(u32::try_from(dict.max(4096)).unwrap_or(u32::MAX));
    if let Some(p) = lclppb.map(u32::from) {
        if p >= 9 * 5 * 5 {
            return None;
        }
        options
            .literal_context_bits(p % 9)
            .literal_position_bits(p / 9 % 5)
            .position_bits(p / 45);
    }
    Some(options)
}

/// A game file compressed on its own (`.sgf.gz`, `.sgfs.bz2`, ...).
fn is_compressed_game_name(entry: &str) -> bool {
    super::is_compressed_game_file(Path::new(entry))
}

/// An entry that holds games: a game file, plain or compressed.
fn is_game_name(entry: &str) -> bool {
    is_sgf_name(entry) || is_compressed_game_name(entry)
}

/// An entry read whole before its contents are: an archive or a compressed
/// game file ([`nested`]).
fn is_container_name(entry: &str) -> bool {
    is_archive_name(entry) || is_compressed_game_name(entry)
}

/// The game entries of the archive at `path` (named `name` in reports), read
/// lazily on a thread of their own (a bzip2 stream decoded on the
/// [`Reading`]'s threads more). The reader stops when the receiver is
/// dropped.
pub fn entries(path: PathBuf, name: String, kind: Kind, reading: Reading) -> Entries {
    read_on_a_thread(name, reading, move |name, out| {
        if let Some(file) = open(&path, name, out) {
            read_archive(file, kind, name, out)
        }
    })
}

/// The game entries of a tar archive read as a stream (standard input),
/// plain or compressed, as [`entries`] reads a tar file.
pub fn tar_entries_of_stream(
    stream: Box<dyn Read + Send>,
    name: String,
    reading: Reading,
) -> Entries {
    read_on_a_thread(name, reading, move |name, out| read_tar(stream, name, out))
}

/// The game entries of a zip or 7z archive held in memory (read whole from
/// standard input: both are read by seeking), as [`entries`] reads one on
/// disk.
pub fn entries_in_memory(bytes: Vec<u8>, name: String, kind: Kind, reading: Reading) -> Entries {
    read_on_a_thread(name, reading, move |name, out| {
        read_archive(io::Cursor::new(bytes), kind, name, out)
    })
}

/// Reads the entries of `file`, an archive of `kind` named `name`.
fn read_archive<R: Read + Seek>(file: R, kind: Kind, name: &str, out: &mut Sender) {
    match kind {
        Kind::Zip => read_zip(file, name, out),
        Kind::Tar => read_tar(file, name, out),
        Kind::SevenZip => sevenz::read_7z(file, name, out),
    }
}

/// Runs `read` on a thread of its own, its entries sent through a bounded
/// channel.
fn read_on_a_thread(
    name: String,
    reading: Reading,
    read: impl FnOnce(&str, &mut Sender) + Send + 'static,
) -> Entries {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let budget = Arc::new(Budget::new(IN_FLIGHT_BYTES));
    let spawned = thread::Builder::new()
        .name("sgfaudit-archive".into())
        .spawn({
            let (name, tx, budget) = (name.clone(), tx.clone(), Arc::clone(&budget));
            let report = tx.clone();
            move || {
                let send = move |handed: Handed| {
                    budget.take(bytes_of(&handed));
                    tx.send(handed).is_ok()
                };
                let mut out = Sender::new(send, reading.max_entry);
                out.threads = reading.threads;
                out.can_pipe = true;
                out.left_out = reading.left_out;
                // A panic in a reader or decoder must not end the archive in
                // silence: the entries not reached get a row that says so.
                let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    read(&name, &mut out)
                }));
                if let Err(payload) = read {
                    let why = panic_message(&payload);
                    let _ = report.send(Handed::Item(Item {
                        name: entry_name(&name, "(the rest of the archive)"),
                        source: Source::Broken(InputError::ArchiveRead(format!(
                            "internal error while reading the archive ({why}); the entries \
                             after the last one reported were not read"
                        ))),
                    }));
                }
            }
        });
    if let Err(e) = spawned {
        let _ = tx.send(Handed::Item(Item {
            name,
            source: Source::Broken(InputError::ArchiveRead(e.to_string())),
        }));
    }
    Entries { rx, budget }
}

/// The names of the entries sent, kept as 128-bit hashes (16 bytes a name,
/// whatever its length; two SipHash keys drawn per run, so no name can be
/// made to collide with another, and two different names share a hash with
/// a chance near 2^-128 per pair).
#[derive(Default)]
struct SentNames {
    keys: [RandomState; 2],
    sent: HashSet<u128>,
    /// For a name sent more than once, the last number given to it.
    repeats: HashMap<u128, u32>,
}

impl SentNames {
    fn hash(keys: &[RandomState; 2], name: &str) -> u128 {
        (u128::from(keys[0].hash_one(name)) << 64) | u128::from(keys[1].hash_one(name))
    }

    /// The name an entry is reported under: its own the first time, then
    /// the first `NAME#2`, `NAME#3`, ... not sent yet (an entry may itself
    /// be named `NAME#2`).
    fn unique(&mut self, name: String) -> String {
        let h = Self::hash(&self.keys, &name);
        if self.sent.insert(h) {
            return name;
        }
        let n = self.repeats.entry(h).or_insert(1);
        loop {
            *n += 1;
            let numbered = format!("{name}#{n}");
            if self.sent.insert(Self::hash(&self.keys, &numbered)) {
                return numbered;
            }
        }
    }
}

/// Hands entries to the walk: numbers repeated names (`name#2`), and bounds
/// the bytes waiting in the channel.
struct Sender {
    /// Hands an entry on; false when nobody takes it any more.
    tx: Box<dyn FnMut(Handed) -> bool>,
    max_entry: u64,
    /// Large game entries may be piped: another thread takes them as they
    /// are read.
    can_pipe: bool,
    /// Threads that decode a bzip2 stream's blocks (one: the reader's own).
    threads: usize,
    /// The names sent so far.
    names: SentNames,
    sent: usize,
    /// How deep inside archives the entries being read lie (0: the archive
    /// named; 1: an archive inside it, the deepest read).
    depth: u8,
    /// The entries left out for their names.
    left_out: LeftOut,
    /// How many this sender has left out so far (the shared count also
    /// holds the walk's).
    left_here: u64,
}

impl Sender {
    fn new(tx: impl FnMut(Handed) -> bool + 'static, max_entry: u64) -> Sender {
        Sender {
            tx: Box::new(tx),
            max_entry,
            can_pipe: false,
            threads: 1,
            names: SentNames::default(),
            sent: 0,
            depth: 0,
            left_out: LeftOut::hidden_read(),
            left_here: 0,
        }
    }

    /// Whether the game or archive entry `entry` is left out for its name
    /// ([`LeftOut`]), counted if it is.
    fn leaves_out(&mut self, entry: &str) -> bool {
        let out = is_macos_metadata(entry) || (!self.left_out.hidden && is_hidden_name(entry));
        if out {
            self.left_out.count.fetch_add(1, Ordering::Relaxed);
            self.left_here += 1;
        }
        out
    }

    /// Where the reading of an archive begins: the entries sent and left
    /// out so far, for [`Sender::none_sent`].
    fn mark(&self) -> (usize, u64) {
        (self.sent, self.left_here)
    }

    /// Ends the reading of the archive `name` begun at `mark`: one that sent
    /// no entry gets a row that says why.
    fn none_sent(&mut self, name: &str, (sent, left_out): (usize, u64)) {
        if self.sent == sent {
            let why = match self.left_here - left_out {
                0 => InputError::NoGames,
                n => InputError::EntriesLeftOut(n),
            };
            self.send(name.into(), Source::Broken(why));
        }
    }

    /// Sends an entry under a name of its own; false when the receiver is
    /// gone (the run stopped).
    fn send(&mut self, name: String, source: Source) -> bool {
        let name = self.unique(name);
        (self.tx)(Handed::Item(Item { name, source }))
    }

    /// The name an entry is sent under, counted as sent.
    fn unique(&mut self, name: String) -> String {
        if fault_injected(&name) {
            panic!("fault injected by SGFAUDIT_INJECT_FAULT");
        }
        self.sent += 1;
        self.names.unique(name)
    }

    /// Whether a game entry of `size` bytes is piped: pipes are on, and it
    /// is larger than a collection read whole (it may be one, to be cut
    /// into parts) but not than the entry limit.
    fn pipes(&self, size: u64) -> bool {
        let split_above = super::parts::sizes().0.min(self.max_entry);
        self.can_pipe && size > split_above && size <= self.max_entry
    }

    /// Sends a game entry of `size` bytes read from `r`: piped to the walk
    /// as it is read when [`Sender::pipes`] says so, else read whole.
    fn game(&mut self, name: String, r: impl Read, size: u64) -> bool {
        if self.pipes(size) {
            let name = self.unique(name);
            let (pump, pipe) = pipe::pipe();
            if !(self.tx)(Handed::Piped {
                name,
                pipe,
                size: Some(size),
            }) {
                return false;
            }
            pump.pump(r);
            return true;
        }
        let source = self.read(r, size);
        self.send(name, source)
    }

    /// A compressed game entry (`*.sgf.gz`, `*.sgf.bz2`, `*.sgf.xz`, `*.sgf.zst`) of
    /// `size` bytes, decompressed as it is read from `r` under the caps of
    /// such a file on disk: handed over whole when it inflates to no more
    /// than a collection read whole, else piped to the walk, which cuts it
    /// into parts as it cuts a compressed file on disk (decompressed whole,
    /// a 72 MB collection in a 47 MB `.sgf.gz` entry cost 234 MB).
    /// Returns the entry's source, or `None` once it is piped.
    fn compressed_game(&mut self, name: String, r: impl Read, size: u64) -> Option<Source> {
        if size > self.max_entry {
            return Some(Source::Broken(InputError::EntryTooLarge {
                limit: self.max_entry,
            }));
        }
        let mut inflating = match Inflating::new(BufReader::new(r), size) {
            Ok(inflating) => inflating,
            Err(why) => return Some(Source::Broken(why)),
        };
        let split_above = super::parts::sizes().0.min(self.max_entry);
        // A head that may reach a MiB is sized once ([`head_capacity`]):
        // grown by doubling, a head of 4 MiB left copies of itself behind
        // (10 MB more at the peak).
        let mut head = Vec::with_capacity(head_capacity(size, split_above));
        match (&mut inflating)
            .take(split_above.saturating_add(1))
            .read_to_end(&mut head)
        {
            Ok(_) if head.len() as u64 <= split_above => Some(Source::Bytes(head)),
            Ok(_) => {
                let name = self.unique(name);
                let (pump, pipe) = pipe::pipe();
                // Were the walk gone, the next send says so.
                if (self.tx)(Handed::Piped {
                    name,
                    pipe,
                    size: None,
                }) {
                    pump.pump_after(head, inflating);
                }
                None
            }
            Err(e) => {
                let why = InputError::io(&e, Action::Read);
                Some(if keeps_bytes_before(&e) && !head.is_empty() {
                    Source::CutShort(head, why)
                } else {
                    Source::Broken(why)
                })
            }
        }
    }

    /// Reads an entry of at most `max_entry` bytes. An entry whose header
    /// announces more is refused before a byte of it is inflated.
    fn read(&self, r: impl Read, size: u64) -> Source {
        if size > self.max_entry {
            return Source::Broken(InputError::EntryTooLarge {
                limit: self.max_entry,
            });
        }
        // A header's size sizes the first allocation up to the bomb floor
        // (it may lie): a bomb stopped there never makes the buffer grow.
        // What was read before the entry was cut short is kept: the games
        // of a collection before the cut are audited.
        match read_capped_keeping(r, size.min(RATIO_FLOOR), self.max_entry, Action::Read) {
            Ok(bytes) => Source::Bytes(bytes),
            Err(ReadFailed {
                why: InputError::TooLarge { limit },
                ..
            }) => Source::Broken(InputError::EntryTooLarge { limit }),
            Err(ReadFailed {
                why: InputError::Io(_, e),
                bytes,
            }) if !bytes.is_empty() => Source::CutShort(bytes, InputError::Unpack(e)),
            Err(ReadFailed {
                why: InputError::Io(_, e),
                ..
            }) => Source::Broken(InputError::Unpack(e)),
            Err(ReadFailed { why, .. }) => Source::Broken(why),
        }
    }
}

/// The room to read the head of a compressed game entry of `size` bytes
/// into, when it may inflate to a MiB or more: four times its size (game
/// records inflate about that much), at most one byte more than
/// `split_above`, the most it holds. A smaller entry grows its buffer as
/// it reads, to about the size it inflates to: it waits in a batch, whose
/// room is counted by its bytes (sized from the compressed size, real's
/// files gzipped in one tar peaked 1-2 MiB higher).
fn head_capacity(size: u64, split_above: u64) -> usize {
    let room = size.saturating_mul(4);
    if room < 1 << 20 {
        return 0;
    }
    usize::try_from(room.min(split_above.saturating_add(1))).unwrap_or(usize::MAX)
}

/// Reports the whole archive as unreadable, with why.
fn unreadable(out: &mut Sender, name: &str, why: InputError) {
    out.send(name.into(), Source::Broken(why));
}

/// The items of an archive held in memory, read on this thread: the same
/// reading as [`entries`], for tests and fuzzing.
pub fn entries_of_bytes(bytes: Vec<u8>, name: &str, kind: Kind, max_entry: u64) -> Vec<Item> {
    let items = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = std::rc::Rc::clone(&items);
    // Pipes are off: every entry is read whole, on this thread.
    let mut out = Sender::new(
        move |handed: Handed| {
            sink.borrow_mut().push(handed.into_item(max_entry));
            true
        },
        max_entry,
    );
    read_archive(io::Cursor::new(bytes), kind, name, &mut out);
    drop(out);
    std::rc::Rc::try_unwrap(items).map_or_else(|rc| rc.borrow().clone(), |cell| cell.into_inner())
}

/// Opens the archive file, or reports why it cannot be.
fn open(path: &Path, name: &str, out: &mut Sender) -> Option<BufReader<File>> {
    match File::open(path) {
        Ok(f) => Some(BufReader::new(f)),
        Err(e) => {
            unreadable(out, name, InputError::ArchiveOpen(e.to_string()));
            None
        }
    }
}

/// An archive entry that is itself an archive: read one level deep, its
/// entries named `OUTER!INNER!ENTRY`; a tar as it is unpacked, whatever its
/// size, a zip or 7z (read by seeking) from its bytes, bounded by the entry
/// limit like any entry (one stored in a zip is read where it lies instead,
/// [`nested_in_place`]); deeper archives, and kinds not read, get a row.
/// A compressed game file, at any depth, is decompressed as it is read
/// ([`Sender::compressed_game`]; [`decompressed`] from its bytes read whole
/// where pipes are off): the games it holds are the entry's.
/// Returns the source to report for the entry itself, or `None` when its
/// entries were sent.
fn nested(out: &mut Sender, name: &str, inner: &str, r: impl Read, size: u64) -> Option<Source> {
    if is_compressed_game_name(inner) {
        if out.can_pipe {
            return out.compressed_game(entry_name(name, inner), r, size);
        }
        return Some(match out.read(r, size) {
            Source::Bytes(compressed) => decompressed(compressed, out.max_entry),
            // Its compressed bytes cut short are no stream to decompress.
            Source::CutShort(_, why) => Source::Broken(why),
            other => other,
        });
    }
    let Some(kind) = kind_of(Path::new(inner)) else {
        return Some(Source::Broken(InputError::Skipped(
            "a .rar archive inside an archive is not read".into(),
        )));
    };
    if let Some(row) = too_deep(out) {
        return Some(row);
    }
    let here = entry_name(name, inner);
    if matches!(kind, Kind::Tar) {
        // A tar (plain or compressed) is read as it is unpacked, entry by
        // entry, as one on disk is: nothing of it is held whole.
        // Read through `dyn Read`: one reader type however deep the
        // archives go (a tar's entry is read through its archive's reader).
        let mut r = r;
        one_level_deeper(out, |out| read_tar(&mut r as &mut dyn Read, &here, out));
        return None;
    }
    let bytes = match out.read(r, size) {
        Source::Bytes(b) => b,
        // An archive cut short is not read as game records.
        Source::CutShort(_, why) => return Some(Source::Broken(why)),
        other => return Some(other),
    };
    nested_archive(out, &here, kind, &mut io::Cursor::new(bytes));
    None
}

/// A zip or 7z archive stored whole inside an archive (`inner`, a zip's
/// stored entry), read where it lies through `r`, which seeks within the
/// outer archive: nothing of it is held in memory, whatever its size. The
/// entry's own CRC-32 is not checked (that would read it whole first);
/// damage inside it is found by the inner archive's checks instead (its
/// directory, its entries' CRCs).
fn nested_in_place(
    out: &mut Sender,
    name: &str,
    inner: &str,
    kind: Kind,
    r: &mut dyn Seekable,
) -> Option<Source> {
    if let Some(row) = too_deep(out) {
        return Some(row);
    }
    nested_archive(out, &entry_name(name, inner), kind, r);
    None
}

/// The row of an archive found inside an archive that is itself inside
/// one: archives are read one level deep.
fn too_deep(out: &Sender) -> Option<Source> {
    (out.depth > 0).then(|| {
        Source::Broken(InputError::Skipped(
            "an archive nested two deep is not read".into(),
        ))
    })
}

/// Runs `read` on an archive inside an archive, its entries one level deeper.
fn one_level_deeper(out: &mut Sender, read: impl FnOnce(&mut Sender)) {
    out.depth += 1;
    read(out);
    out.depth -= 1;
}

/// What an archive read by seeking reads from.
trait Seekable: Read + io::Seek {}

impl<R: Read + io::Seek> Seekable for R {}

/// Reads the archive `here`, one level deeper. Through `dyn Seekable`: one
/// reader type however deep the archives go (an entry read in place is read
/// through its archive's reader).
fn nested_archive(out: &mut Sender, here: &str, kind: Kind, r: &mut dyn Seekable) {
    one_level_deeper(out, |out| read_archive(r, kind, here, out));
}

/// A name that announces an archive inside the archive.
fn is_archive_name(entry: &str) -> bool {
    let lower = entry.to_ascii_lowercase();
    [".zip", ".7z", ".rar"]
        .iter()
        .chain(&TAR_SUFFIXES)
        .any(|ext| lower.ends_with(ext))
}

/// Counts the bytes read through it (the compressed stream under a tar).
struct Counting<R> {
    inner: R,
    read: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// What the tar reader may read between two entries once the first one's
/// data are passed: headers, and the GNU long names, pax extensions and
/// sparse maps it holds in memory until it gives the next entry, which
/// could otherwise claim any size (zero blocks are not counted: `Gated`).
const BETWEEN_ENTRIES: u64 = 4 << 20;

/// The unpacked tar stream, which the tar reader may read up to the
/// position `limit` holds (`u64::MAX` while an entry's data are read): past
/// it, a [`InputError::Bomb`]. A read of a header's size or less that gives
/// only zeros is not counted: the reader reads an archive's padding (all
/// of it, to find an archive concatenated after it) a block at a time, and
/// holds none of it, where it reads what it holds in larger reads.
struct Gated<R> {
    inner: R,
    pos: std::rc::Rc<std::cell::Cell<u64>>,
    limit: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Gated<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let limit = self.limit.get();
        let allowed = limit.saturating_sub(self.pos.get());
        let block = buf.len() <= 512 && limit != u64::MAX;
        let n = if block {
            buf.len()
        } else {
            usize::try_from(allowed)
                .unwrap_or(usize::MAX)
                .min(buf.len())
        };
        if n == 0 && !buf.is_empty() {
            return Err(refused_between_entries());
        }
        let n = self.inner.read(&mut buf[..n])?;
        if block {
            if buf[..n].iter().all(|&b| b == 0) {
                self.limit.set(limit.saturating_add(n as u64));
            } else if n as u64 > allowed {
                return Err(refused_between_entries());
            }
        }
        self.pos.set(self.pos.get() + n as u64);
        Ok(n)
    }
}

fn refused_between_entries() -> io::Error {
    InputError::Bomb(format!(
        "more than {} MiB of tar headers, long names, pax extensions or sparse maps \
         between two entries",
        BETWEEN_ENTRIES >> 20
    ))
    .into_io()
}

/// A tar entry's data, which end early when the archive does: an error
/// (cut short) instead of the end the tar reader gives, so the entry is not
/// taken for whole.
struct Declared<R> {
    inner: R,
    size: u64,
    read: u64,
}

impl<R: Read> Read for Declared<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if n == 0 && !buf.is_empty() && self.read < self.size {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the archive ends {} bytes into the entry's {}",
                    self.read, self.size
                ),
            ));
        }
        Ok(n)
    }
}

/// A tar entry read from a compressed stream, stopped as a bomb when it
/// has inflated beyond [`inflate_cap`] of the compressed bytes read since
/// it began.
struct RatioGuard<'a, R> {
    inner: R,
    compressed: &'a std::cell::Cell<u64>,
    start: u64,
    produced: u64,
}

impl<R: Read> Read for RatioGuard<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.produced += n as u64;
        let compressed = self.compressed.get().saturating_sub(self.start);
        if self.produced > inflate_cap(compressed) {
            return Err(io::Error::other(format!(
                "the entry inflates {compressed} compressed bytes into more than {} \
                 ({MAX_RATIO} times and {} MiB at most): a bomb",
                self.produced,
                RATIO_FLOOR >> 20
            )));
        }
        Ok(n)
    }
}

fn read_tar<R: Read>(file: R, name: &str, out: &mut Sender) {
    let mark = out.mark();
    let mut file = BufReader::new(file);
    // gzip announces itself with 1f 8b, bzip2 with "BZh".
    let head = match io::BufRead::fill_buf(&mut file) {
        Ok(head) => head,
        Err(e) => {
            unreadable(out, name, InputError::ArchiveRead(e.to_string()));
            return;
        }
    };
    let compression = Compression::of(head);
    let compressed = std::rc::Rc::new(std::cell::Cell::new(0u64));
    let counted = Counting {
        inner: file,
        read: std::rc::Rc::clone(&compressed),
    };
    let reader = match compression.reader(counted, out.threads) {
        Ok(r) => r,
        Err(e) => {
            unreadable(out, name, InputError::ArchiveRead(e));
            return;
        }
    };
    let (pos, limit) = (
        std::rc::Rc::default(),
        std::rc::Rc::new(std::cell::Cell::new(0)),
    );
    let reader = Gated {
        inner: reader,
        pos: std::rc::Rc::clone(&pos),
        limit: std::rc::Rc::clone(&limit),
    };
    let mut tar = tar::Archive::new(reader);
    // Archives concatenated (`cat a.tar.gz b.tar.gz`) are read to the end, as
    // `tar --ignore-zeros` does: the first one's end marker does not stop it.
    tar.set_ignore_zeros(true);
    let mut entries = match tar.entries() {
        Ok(e) => e,
        Err(e) => {
            unreadable(out, name, InputError::NotTar(e.to_string()));
            return;
        }
    };
    let mut seen = 0usize;
    // A game entry read whole waits for the next header to read well before
    // it is sent: a compressed stream damaged in its data (not cut short)
    // gives bytes that are not the archive's until a header fails its
    // checks (or the stream's checksum, at its end), so the entry before
    // that failure may hold them. Plain tars give their own bytes.
    let mut held: Option<(String, Source)> = None;
    // Where the last entry's data end: the reader reads on from there to
    // the next entry, within `BETWEEN_ENTRIES`.
    let mut data_end = 0u64;
    loop {
        limit.set(data_end.saturating_add(BETWEEN_ENTRIES));
        let Some(entry) = entries.next() else { break };
        limit.set(u64::MAX);
        seen += 1;
        let entry = match entry {
            Ok(e) => {
                // The data start here; a pax size or a sparse file's size may
                // differ from the header's: the reader skips the larger at most.
                let stored = e.header().entry_size().unwrap_or(0).max(e.size());
                data_end = pos.get().saturating_add(stored.saturating_add(511) & !511);
                e
            }
            Err(e) => {
                // Refused (`Gated`): nothing is wrong with what came before.
                let why = match InputError::io(&e, Action::Read) {
                    refused @ InputError::Bomb(_) => refused,
                    _ => InputError::Damaged(super::item::explained(e.to_string())),
                };
                if let Some((at, source)) = held.take() {
                    let read = matches!(source, Source::Bytes(_) | Source::CutShort(..));
                    let damaged = matches!(why, InputError::Damaged(_));
                    let source = if read && damaged && !keeps_bytes_before(&e) {
                        Source::Broken(InputError::Unpack(format!(
                            "the archive is found damaged right after this entry ({e}): its \
                             bytes may be the damage's, not the archive's"
                        )))
                    } else {
                        source
                    };
                    if !out.send(at, source) {
                        return;
                    }
                }
                // The stream is damaged (or cut short) here, or refused: nothing
                // after it can be found, so the rest of the archive is reported once.
                let at = entry_name(name, &format!("entry {seen}"));
                out.send(at, Source::Broken(why));
                return;
            }
        };
        if let Some((at, source)) = held.take() {
            if !out.send(at, source) {
                return;
            }
        }
        // Its long name or pax path if it has one; named as the walk names
        // files, with the bytes that are not UTF-8 escaped.
        let entry_path = super::names::escape_name(&entry.path_bytes());
        let kind = entry.header().entry_type();
        let size = entry.size();
        let mut entry = Declared {
            inner: entry,
            size,
            read: 0,
        };
        let named_in = is_container_name(&entry_path) || is_game_name(&entry_path);
        if named_in && !kind.is_dir() && out.leaves_out(&entry_path) {
            continue;
        }
        let source = if is_container_name(&entry_path) && kind.is_file() {
            match nested(out, name, &entry_path, &mut entry, size) {
                Some(source) => source,
                None => continue,
            }
        } else if !is_game_name(&entry_path) || kind.is_dir() {
            continue;
        } else if !kind.is_file() {
            let what = if kind.is_symlink() {
                "a symbolic link in the archive is not followed"
            } else if kind.is_hard_link() {
                "a hard link in the archive is not followed"
            } else if kind.is_gnu_sparse() {
                "a sparse file (GNU tar -S) in the archive is not read"
            } else {
                "a special entry (device, FIFO) of the archive is not read"
            };
            Source::Broken(InputError::Skipped(what.into()))
        } else {
            let at = entry_name(name, &entry_path);
            if compression == Compression::None {
                if !out.game(at, &mut entry, size) {
                    return;
                }
                continue;
            }
            let guard = RatioGuard {
                inner: &mut entry,
                compressed: &compressed,
                start: compressed.get(),
                produced: 0,
            };
            // A large entry is piped as it is read; the rest wait.
            if out.pipes(size) {
                if !out.game(at, guard, size) {
                    return;
                }
            } else {
                held = Some((at, out.read(guard, size)));
            }
            continue;
        };
        if !out.send(entry_name(name, &entry_path), source) {
            return;
        }
    }
    if let Some((at, source)) = held {
        if !out.send(at, source) {
            return;
        }
    }
    out.none_sent(name, mark);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_head_that_may_reach_a_mib_is_sized_ahead() {
        let four_mib = 4 << 20;
        assert_eq!(head_capacity(3_000, four_mib), 0);
        assert_eq!(head_capacity((256 << 10) - 1, four_mib), 0);
        assert_eq!(head_capacity(256 << 10, four_mib), 1 << 20);
        assert_eq!(head_capacity(47_000_000, four_mib), (4 << 20) + 1);
        assert_eq!(head_capacity(u64::MAX, four_mib), (4 << 20) + 1);
        // A size cap below a MiB caps the room too.
        assert_eq!(head_capacity(1 << 20, 1000), 1001);
    }

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
            ("fox-2021.7z", Some(Kind::SevenZip)),
            ("FOX.7Z", Some(Kind::SevenZip)),
            ("game.sgf", None),
            ("games.gz", None),
            ("zip", None),
        ] {
            assert_eq!(kind_of(Path::new(name)), kind, "{name}");
        }
    }
}
