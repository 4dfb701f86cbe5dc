//! The lazy walk over the inputs named on the command line.
//!
//! Inside the directories it walks, as ripgrep does: names beginning with
//! `.` are left out unless asked for (`hidden`); `.gitignore` and `.ignore`
//! files of the walked directories apply to their subtrees (a deeper file
//! wins, `!` re-includes); `--glob` patterns, gitignore globs matched
//! against the path below the directory named on the command line (a glob
//! without a slash matches a name at any depth; the last glob that matches
//! wins), keep files (`*.sgf`) or leave out files and directories
//! (`!drafts`); the run's own output directory is never read. A path named
//! on the command line is always read. Inside the archives it reads, hidden
//! entries are left out likewise ([`archive::LeftOut`]). What is left out is
//! counted ([`Walk::skipped`]).

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::Match;

use super::archive;
use super::error::{keeps_bytes_before, Action, InputError};
use super::file_list::FileList;
use super::item::{
    read_capped, special_kind, Inflating, Item, Source, DEFAULT_MAX_FILE_SIZE, RATIO_FLOOR,
};
use super::names::display_path as display;
use super::parts::{self, FailsWith, Parts};
use super::stdin::{self, Stdin};
use super::GAME_EXTENSIONS;

/// File names that announce a format sgfaudit does not read: reported as
/// skipped rather than passed over in silence.
fn unread_format(p: &Path) -> Option<&'static str> {
    let name = p.file_name()?.to_string_lossy().to_ascii_lowercase();
    [(".rar", "a rar archive is not read")]
        .into_iter()
        .find(|(ext, _)| name.ends_with(ext))
        .map(|(_, why)| why)
}

/// A game file compressed on its own: read through its decompressor.
pub(crate) fn is_compressed_sgf(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    super::COMPRESSED_SUFFIXES.iter().any(|c| {
        name.strip_suffix(c)
            .and_then(|stem| stem.rsplit_once('.'))
            .is_some_and(|(_, ext)| GAME_EXTENSIONS.contains(&ext))
    })
}

fn is_sgf(p: &Path) -> bool {
    p.extension().is_some_and(|e| {
        GAME_EXTENSIONS
            .iter()
            .any(|x| e.to_string_lossy().eq_ignore_ascii_case(x))
    })
}

/// Whether a symbolic link met in a directory, which leads to no file (its
/// target is missing, or links loop), could have led to games: its name or
/// its target's is one the walk reads (a game file, a compressed one, an
/// archive) or reports (`.rar`), or the target's has no extension (a
/// directory, perhaps). Such a link is reported; any other (a dangling
/// `LICENSE.txt`) is passed over, as a file of that name would be.
fn link_may_lead_to_games(link: &Path) -> bool {
    let named = |p: &Path| read_by_name(p) || unread_format(p).is_some();
    named(link) || fs::read_link(link).map_or(true, |t| named(&t) || t.extension().is_none())
}

/// Whether the walk reads a file of this name inside a directory: a game
/// file, a compressed one or an archive.
fn read_by_name(p: &Path) -> bool {
    is_sgf(p) || is_compressed_sgf(p) || archive::kind_of(p).is_some()
}

/// Identity of a directory, to detect symlink loops.
fn dir_id(p: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        use std::hash::{Hash, Hasher};
        let c = fs::canonicalize(p).ok()?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        c.hash(&mut h);
        Some((0, h.finish()))
    }
}

/// A directory being walked: its remaining entries (reversed, so `pop` yields
/// them in order), its identity, and its own ignore files' rules.
struct Frame {
    entries: Vec<PathBuf>,
    id: Option<(u64, u64)>,
    ignore: Option<Gitignore>,
}

/// What the walk leaves out inside directories.
#[derive(Clone, Debug)]
struct Filter {
    hidden: bool,
    ignore_files: bool,
    /// `--glob` patterns, as ripgrep's `-g` reads them.
    globs: Override,
    /// Identities of directories never read (the run's output directory).
    excluded: Vec<(u64, u64)>,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            hidden: false,
            ignore_files: true,
            globs: Override::empty(),
            excluded: Vec::new(),
        }
    }
}

/// Bytes of a stream read ahead to judge it are reserved at once up to this
/// (what a stream is read whole under, and one byte more to know it longer).
const SAMPLE_AHEAD: u64 = parts::SPLIT_ABOVE + 1;

/// The first bytes of a stream, read to judge it, given back before the
/// rest of it; freed once read, so a stream cut into parts does not hold
/// them to its end.
struct Head {
    bytes: Vec<u8>,
    at: usize,
}

impl io::Read for Head {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.bytes.len() - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        if self.at == self.bytes.len() {
            (self.bytes, self.at) = (Vec::new(), 0);
        }
        Ok(n)
    }
}

/// The lazy walk over all inputs.
pub struct Walk {
    /// The paths named, then those of the file list: a list that cannot be
    /// read on gives its name and why.
    roots: Box<dyn Iterator<Item = Result<OsString, (String, InputError)>> + Send>,
    stack: Vec<Frame>,
    pending: Vec<Item>,
    /// The entries of the archive being read, before the walk goes on.
    archive: Option<archive::Entries>,
    /// The parts of the large file being read, before the walk goes on.
    parts: Option<Parts>,
    active: HashSet<(u64, u64)>,
    /// Largest archive entry read (`--max-file-size`).
    max_entry: u64,
    /// Threads that decode a compressed archive's blocks.
    threads: usize,
    /// Items handed out so far.
    yielded: u64,
    /// The directory named on the command line being walked, and the counts
    /// of items handed out and of files left out when it began: one that
    /// yields none gets a row.
    root_dir: Option<(String, u64, u64)>,
    /// That directory's path, which `--glob` patterns are relative to.
    root_path: PathBuf,
    filter: Filter,
    skipped: Arc<AtomicU64>,
}

impl Walk {
    /// Walks the given path arguments (`-` is standard input) in order; a
    /// path need not be UTF-8.
    pub fn new<P: Into<OsString>>(args: impl IntoIterator<Item = P>) -> Walk {
        let roots: Vec<OsString> = args.into_iter().map(Into::into).collect();
        Walk {
            roots: Box::new(roots.into_iter().map(Ok)),
            stack: Vec::new(),
            pending: Vec::new(),
            archive: None,
            parts: None,
            active: HashSet::new(),
            max_entry: DEFAULT_MAX_FILE_SIZE,
            threads: 1,
            yielded: 0,
            root_dir: None,
            root_path: PathBuf::new(),
            filter: Filter::default(),
            skipped: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Then walk the paths of `list` (`--file-list`), as it is read.
    pub fn then_list(mut self, list: FileList) -> Walk {
        let named = std::mem::replace(&mut self.roots, Box::new(std::iter::empty()));
        self.roots = Box::new(named.chain(list));
        self
    }

    /// Also walk into, and read, names beginning with `.` (`--hidden`).
    pub fn hidden(mut self, yes: bool) -> Walk {
        self.filter.hidden = yes;
        self
    }

    /// Honour `.gitignore` and `.ignore` files (the default; `--no-ignore`
    /// turns it off).
    pub fn ignore_files(mut self, yes: bool) -> Walk {
        self.filter.ignore_files = yes;
        self
    }

    /// `--glob` patterns, ripgrep's way: gitignore globs relative to the
    /// directory named, `*.sgf` keeps (when any pattern keeps, a file must
    /// match one), `!drafts` leaves out, and the last that matches wins.
    pub fn globs(mut self, patterns: &[String]) -> Result<Walk, String> {
        // Paths are matched relative to the directory named (`leaves_out`),
        // so the patterns' root is `.`, which strips nothing.
        let mut b = OverrideBuilder::new(".");
        for p in patterns {
            b.add(p).map_err(|e| format!("--glob {p}: {e}"))?;
        }
        self.filter.globs = b.build().map_err(|e| format!("--glob: {e}"))?;
        Ok(self)
    }

    /// Never read this directory (the run's `--out`), wherever it lies.
    pub fn exclude_dir(mut self, dir: &Path) -> Walk {
        if let Some(id) = dir_id(dir) {
            self.filter.excluded.push(id);
        }
        self
    }

    /// The count of game files and archives left out so far (hidden,
    /// ignored, not matching `--glob`; what lies in a directory left out is
    /// not counted), shared: read it when the walk is over.
    pub fn skipped(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.skipped)
    }

    /// Whether the walk leaves out `path`, an entry of the directory on top
    /// of the stack.
    fn leaves_out(&self, path: &Path, is_dir: bool) -> bool {
        let f = &self.filter;
        if !f.hidden
            && path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            return true;
        }
        if is_dir
            && !f.excluded.is_empty()
            && dir_id(path).is_some_and(|id| f.excluded.contains(&id))
        {
            return true;
        }
        if f.ignore_files {
            for frame in self.stack.iter().rev() {
                match frame.ignore.as_ref().map(|g| g.matched(path, is_dir)) {
                    Some(Match::Ignore(_)) => return true,
                    Some(Match::Whitelist(_)) => break,
                    _ => {}
                }
            }
        }
        let below = path.strip_prefix(&self.root_path).unwrap_or(path);
        f.globs.matched(below, is_dir).is_ignore()
    }

    /// The rules of `dir`'s own `.gitignore` and `.ignore`, if it has any.
    fn ignore_rules(&self, dir: &Path) -> Option<Gitignore> {
        if !self.filter.ignore_files {
            return None;
        }
        let files: Vec<PathBuf> = [".gitignore", ".ignore"]
            .iter()
            .map(|n| dir.join(n))
            .filter(|p| p.is_file())
            .collect();
        if files.is_empty() {
            return None;
        }
        let mut b = GitignoreBuilder::new(dir);
        for f in &files {
            // A line that is no pattern is left out, as git does.
            let _ = b.add(f);
        }
        b.build().ok()
    }

    /// A `.tar.bz2` is decoded on `threads` threads (0: one per core)
    /// besides the archive's reader, block by block when more than one: the
    /// audit's own thread count, so that decoding keeps up with the workers.
    pub fn decoding_threads(mut self, threads: usize) -> Walk {
        self.threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        self
    }

    /// Archive entries larger than `bytes` are not read (`--max-file-size`).
    pub fn max_file_size(mut self, bytes: u64) -> Walk {
        self.max_entry = bytes;
        self
    }

    fn enter_dir(&mut self, dir: &Path) {
        let id = dir_id(dir);
        if let Some(id) = id {
            if self.active.contains(&id) {
                self.pending.push(Item {
                    name: display(dir),
                    source: Source::Broken(InputError::SymlinkLoop),
                });
                return;
            }
        }
        match fs::read_dir(dir) {
            Ok(rd) => {
                let mut entries: Vec<PathBuf> = Vec::new();
                for e in rd {
                    match e {
                        Ok(e) => entries.push(e.path()),
                        Err(e) => self.pending.push(Item {
                            name: display(dir),
                            source: Source::Broken(InputError::io(&e, Action::ListDirectory)),
                        }),
                    }
                }
                entries.sort_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
                entries.reverse();
                if let Some(id) = id {
                    self.active.insert(id);
                }
                let ignore = self.ignore_rules(dir);
                self.stack.push(Frame {
                    entries,
                    id,
                    ignore,
                });
            }
            Err(e) => self.pending.push(Item {
                name: display(dir),
                source: Source::Broken(InputError::io(&e, Action::ListDirectory)),
            }),
        }
    }

    /// The item of a game file, or, for a large UTF-8 collection, the
    /// start of its parts (`src/input/parts.rs`).
    fn game_file(&mut self, path: PathBuf, name: String, len: u64) -> Option<Item> {
        let (split_above, part_bytes) = self.part_sizes();
        if len > split_above {
            let mut head = Vec::with_capacity(1 << 20);
            let read = fs::File::open(&path).and_then(|f| {
                std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 20), &mut head)
            });
            if read.is_ok() && parts::splits(len, &head, split_above) {
                self.parts = Some(Parts::new(name, path, part_bytes, self.max_entry));
                return None;
            }
        }
        Some(Item {
            name,
            source: Source::File(path, len),
        })
    }

    /// A compressed game file, decompressed here: its text whole, or for a
    /// large UTF-8 collection the start of its parts, cut as they are
    /// decompressed. The walk decompresses even a small file itself, so every
    /// item it hands on has the size it will hold: files of a few KiB that
    /// each inflate to megabytes (up to the floor of
    /// [`super::item::inflate_cap`]) cannot fill a batch (64 files a thread)
    /// as if they held the few KiB they look.
    fn compressed_file(&mut self, path: PathBuf, name: String) -> Option<Item> {
        match Inflating::open(&path) {
            Ok(inflating) => self.stream(name, inflating, Action::Read, None),
            Err(why) => Some(Item {
                name,
                source: Source::Broken(why),
            }),
        }
    }

    /// A stream read once (standard input, a file as it is decompressed,
    /// an archive entry as it is unpacked): a UTF-8 collection larger than
    /// a file read whole, by its first MiB (the sample a file is judged by),
    /// is cut into parts as it is read, and anything else is read whole
    /// under the file size cap. Its length, when declared (`len`), spares
    /// reading ahead past the sample to learn it. A UTF-8 collection cut
    /// short is cut too, whatever its length: its games up to the end, then
    /// a row for it; one whose data are found wrong (a checksum, a corrupt
    /// block) within the sample is one row ([`keeps_bytes_before`]).
    fn stream(
        &mut self,
        name: String,
        mut r: impl io::Read + Send + 'static,
        action: Action,
        len: Option<u64>,
    ) -> Option<Item> {
        let (split_above, part_bytes) = self.part_sizes();
        let long = len.filter(|&l| l > split_above);
        let want = match long {
            Some(_) => 1 << 20,
            None => split_above.saturating_add(1).max(1 << 20),
        };
        let mut head = Vec::with_capacity(usize::try_from(want.min(SAMPLE_AHEAD)).unwrap_or(0));
        let read = io::Read::read_to_end(&mut io::Read::take(&mut r, want), &mut head);
        // A stream cut short is cut into parts whatever its length, as a
        // long one is; one whose data are found wrong is one error row.
        let len = match &read {
            Ok(_) => long.unwrap_or(head.len() as u64),
            Err(e) if keeps_bytes_before(e) => u64::MAX,
            Err(_) => 0,
        };
        let split = parts::splits(len, &head[..head.len().min(1 << 20)], split_above);
        let cut = |rest: Box<dyn io::Read + Send>| {
            let reader = io::BufReader::with_capacity(parts::READ_BUFFER, rest);
            Parts::stream(name.clone(), Box::new(reader), part_bytes, self.max_entry)
        };
        let source = match read {
            Ok(_) if split => {
                let head = Head { bytes: head, at: 0 };
                self.parts = Some(cut(Box::new(io::Read::chain(head, r))));
                return None;
            }
            Err(e) if split => {
                let head = Head { bytes: head, at: 0 };
                self.parts = Some(cut(Box::new(io::Read::chain(head, FailsWith(Some(e))))));
                return None;
            }
            Err(e) => Source::Broken(InputError::io(&e, action)),
            Ok(read) => {
                // A declared length sizes the buffer at once, up to the
                // floor a bomb is stopped at (it may lie), so the buffer
                // never doubles past what is read.
                let first = long.map_or(read as u64, |l| l.min(RATIO_FLOOR));
                let rest = io::Read::chain(io::Cursor::new(head), r);
                match read_capped(rest, first, self.max_entry, action) {
                    Ok(bytes) => Source::Bytes(bytes),
                    Err(why) => Source::Broken(why),
                }
            }
        };
        Some(Item { name, source })
    }

    /// The size above which a collection is read in parts, and a part's
    /// size. A collection larger than the file size cap is read in parts
    /// too, each under the cap: whatever the cap, it refuses a game tree
    /// that long, never a UTF-8 collection for its size alone.
    fn part_sizes(&self) -> (u64, u64) {
        let (split_above, part_bytes) = parts::sizes();
        (
            split_above.min(self.max_entry),
            part_bytes.min(self.max_entry),
        )
    }

    fn open_archive(&mut self, path: PathBuf, name: String) {
        if let Some(kind) = archive::kind_of(&path) {
            self.archive = Some(archive::entries(path, name, kind, self.reading()));
        }
    }

    /// How the entries of an archive are read: under the entry size cap, on
    /// the decoding threads, those with hidden names left out as the walk
    /// leaves out files, counted with them.
    fn reading(&self) -> archive::Reading {
        archive::Reading {
            max_entry: self.max_entry,
            threads: self.threads,
            left_out: archive::LeftOut {
                hidden: self.filter.hidden,
                count: Arc::clone(&self.skipped),
            },
        }
    }

    /// Standard input: a game or collection, compressed or not, or an
    /// archive ([`stdin`]).
    fn standard_input(&mut self) {
        let name = "-".to_string();
        match stdin::open(io::stdin(), self.max_entry) {
            Ok(Stdin::Held(kind, bytes)) => {
                self.archive = Some(archive::entries_in_memory(
                    bytes,
                    name,
                    kind,
                    self.reading(),
                ))
            }
            Ok(Stdin::Tar(stream)) => {
                self.archive = Some(archive::tar_entries_of_stream(stream, name, self.reading()))
            }
            Ok(Stdin::Stream(stream)) => {
                if let Some(item) = self.stream(name, stream, Action::ReadStdin, None) {
                    self.pending.push(item);
                }
            }
            Err(why) => self.pending.push(Item {
                name,
                source: Source::Broken(why),
            }),
        }
    }

    fn root(&mut self, arg: OsString) {
        if arg == "-" {
            self.standard_input();
            return;
        }
        let path = PathBuf::from(arg);
        let name = display(&path);
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                let skipped = self.skipped.load(Ordering::Relaxed);
                self.root_dir = Some((name, self.yielded, skipped));
                self.root_path = path.clone();
                self.enter_dir(&path)
            }
            Ok(m) if special_kind(&m.file_type()).is_some() => self.pending.push(Item {
                name,
                source: Source::Broken(InputError::NotRegular(
                    special_kind(&m.file_type()).unwrap_or("a special file"),
                )),
            }),
            Ok(_) if archive::kind_of(&path).is_some() => self.open_archive(path, name),
            Ok(_) if is_compressed_sgf(&path) => {
                if let Some(item) = self.compressed_file(path, name) {
                    self.pending.push(item);
                }
            }
            // A file named explicitly is audited whatever its extension.
            Ok(m) => {
                if let Some(item) = self.game_file(path, name, m.len()) {
                    self.pending.push(item);
                }
            }
            Err(e) => {
                let why = if fs::symlink_metadata(&path).is_ok() {
                    InputError::broken_link(&path, &e)
                } else {
                    InputError::io(&e, Action::Open)
                };
                self.pending.push(Item {
                    name,
                    source: Source::Broken(why),
                })
            }
        }
    }
}

impl Iterator for Walk {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let item = self.next_item();
        self.yielded += u64::from(item.is_some());
        item
    }
}

impl Walk {
    fn next_item(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.pending.pop() {
                return Some(item);
            }
            // The parts of a large archive entry come before the next entry.
            if let Some(parts) = self.parts.as_mut() {
                match parts.next() {
                    Some(item) => return Some(item),
                    None => self.parts = None,
                }
            }
            if let Some(entries) = self.archive.as_mut() {
                // A large entry comes piped: the start of its parts, as
                // it is unpacked (or the entry read whole, when it is no
                // UTF-8 collection).
                match entries.next() {
                    // An entry cut short: its games before the cut.
                    Some(archive::Handed::Item(Item {
                        name,
                        source: Source::CutShort(bytes, why),
                    })) => {
                        let (_, part_bytes) = self.part_sizes();
                        match parts::cut_short(name, bytes, why, part_bytes, self.max_entry) {
                            Ok(parts) => {
                                self.parts = Some(parts);
                                continue;
                            }
                            Err(item) => return Some(item),
                        }
                    }
                    Some(archive::Handed::Item(item)) => return Some(item),
                    Some(archive::Handed::Piped { name, pipe, size }) => {
                        match self.stream(name, pipe, Action::Read, size) {
                            Some(item) => return Some(item),
                            // Its parts come first.
                            None => continue,
                        }
                    }
                    None => self.archive = None,
                }
            }
            if self.stack.is_empty() {
                if let Some((name, before, skipped)) = self.root_dir.take() {
                    if self.yielded == before {
                        let why = match self.skipped.load(Ordering::Relaxed) - skipped {
                            0 => InputError::EmptyDirectory,
                            n => InputError::FilesLeftOut(n),
                        };
                        return Some(Item {
                            name,
                            source: Source::Broken(why),
                        });
                    }
                }
            }
            if let Some(frame) = self.stack.last_mut() {
                let Some(path) = frame.entries.pop() else {
                    if let Some(id) = frame.id {
                        self.active.remove(&id);
                    }
                    self.stack.pop();
                    continue;
                };
                let meta = fs::metadata(&path);
                let is_dir = meta.as_ref().is_ok_and(|m| m.is_dir());
                if self.leaves_out(&path, is_dir) {
                    if !is_dir && read_by_name(&path) {
                        self.skipped.fetch_add(1, Ordering::Relaxed);
                    }
                    continue;
                }
                match meta {
                    Ok(m) if m.is_dir() => self.enter_dir(&path),
                    Ok(m) if is_sgf(&path) => {
                        if let Some(kind) = special_kind(&m.file_type()) {
                            return Some(Item {
                                name: display(&path),
                                source: Source::Broken(InputError::NotRegular(kind)),
                            });
                        }
                        let name = display(&path);
                        match self.game_file(path, name, m.len()) {
                            Some(item) => return Some(item),
                            None => continue,
                        }
                    }
                    Ok(m) if is_compressed_sgf(&path) => {
                        let name = display(&path);
                        if let Some(kind) = special_kind(&m.file_type()) {
                            return Some(Item {
                                name,
                                source: Source::Broken(InputError::NotRegular(kind)),
                            });
                        }
                        match self.compressed_file(path, name) {
                            Some(item) => return Some(item),
                            None => continue,
                        }
                    }
                    Ok(m) if archive::kind_of(&path).is_some() => {
                        let name = display(&path);
                        match special_kind(&m.file_type()) {
                            Some(kind) => {
                                return Some(Item {
                                    name,
                                    source: Source::Broken(InputError::NotRegular(kind)),
                                })
                            }
                            None => self.open_archive(path, name),
                        }
                    }
                    Ok(_) => {
                        if let Some(why) = unread_format(&path) {
                            return Some(Item {
                                name: display(&path),
                                source: Source::Broken(InputError::Skipped(why.into())),
                            });
                        }
                    }
                    Err(e) if fs::symlink_metadata(&path).is_ok_and(|m| m.is_symlink()) => {
                        if link_may_lead_to_games(&path) {
                            return Some(Item {
                                name: display(&path),
                                source: Source::Broken(InputError::broken_link(&path, &e)),
                            });
                        }
                    }
                    Err(e) if is_sgf(&path) => {
                        return Some(Item {
                            name: display(&path),
                            source: Source::Broken(InputError::io(&e, Action::Open)),
                        })
                    }
                    Err(e) => {
                        // Gone since the listing: nothing to read. Otherwise (a
                        // path longer than the system takes, a directory that
                        // may be listed but not searched) what it holds, if it
                        // is a directory, cannot be known: said, not dropped.
                        if e.kind() != io::ErrorKind::NotFound {
                            return Some(Item {
                                name: display(&path),
                                source: Source::Broken(InputError::io(&e, Action::Open)),
                            });
                        }
                    }
                }
                continue;
            }
            match self.roots.next()? {
                Ok(arg) => self.root(arg),
                Err((list, why)) => self.pending.push(Item {
                    name: list,
                    source: Source::Broken(why),
                }),
            }
        }
    }
}
