//! Why an input could not be read: typed, with what was being done and where.

use std::fmt;
use std::io;

/// What was being done when an input failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Open,
    Read,
    ReadStdin,
    ReadFileList,
    ListDirectory,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Open => "open",
            Action::Read => "read",
            Action::ReadStdin => "read standard input",
            Action::ReadFileList => "read the file list",
            Action::ListDirectory => "list the directory",
        })
    }
}

/// Why an input (a file, standard input, an archive or one of its entries)
/// could not be read. The text is what reports show beside the input's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("cannot {0}: no such file (it may have disappeared)")]
    NotFound(Action),
    #[error("cannot {0}: permission denied")]
    PermissionDenied(Action),
    #[error("cannot {0}: it is a directory")]
    IsADirectory(Action),
    /// Another I/O error, with the system's words.
    #[error("cannot {0}: {1}")]
    Io(Action, String),
    #[error("symlink loop: this directory contains itself")]
    SymlinkLoop,
    /// A symbolic link that cannot be followed to a file: its target (as the
    /// link gives it) does not exist, links lead round in a loop, or the
    /// system refuses the way.
    #[error("cannot follow the symbolic link to {target}: {why}")]
    BrokenLink { target: String, why: String },
    #[error("cannot open the archive: {0}")]
    ArchiveOpen(String),
    #[error("cannot read the archive: {0}")]
    ArchiveRead(String),
    #[error("not a readable zip archive: {0}")]
    NotZip(String),
    #[error("not a readable tar archive: {0}")]
    NotTar(String),
    #[error("not a readable 7z archive: {0}")]
    NotSevenZip(String),
    /// A 7z entry whose block cannot be decoded (a method not read,
    /// encryption, a dictionary too large).
    #[error("cannot read this entry of the 7z archive: {0}")]
    SevenZipEntry(String),
    /// A zip entry that cannot even be opened (encrypted, an unsupported
    /// compression method, a damaged header).
    #[error("cannot read this entry of the zip archive: {0}")]
    ZipEntry(String),
    #[error("cannot unpack the entry: {0}")]
    Unpack(String),
    #[error("the entry unpacks to more than {} MiB; not read", .limit >> 20)]
    EntryTooLarge { limit: u64 },
    /// A tar stream damaged or cut short: nothing after this point is found.
    #[error("the archive is damaged or cut short from here on: {0}")]
    Damaged(String),
    #[error("the archive holds no *.sgf or *.sgfs entry, plain or compressed")]
    NoGames,
    /// An archive whose game entries were all left out for their names.
    #[error(
        "all the archive's game entries ({0}) are left out: hidden names or macOS metadata \
         (--hidden reads the hidden ones)"
    )]
    EntriesLeftOut(u64),
    /// A name `ARCHIVE!ENTRY` whose archive has no such entry.
    #[error(
        "the archive holds no game entry of that name (*.sgf or *.sgfs, plain or \
         compressed; macOS metadata, ._* and __MACOSX/, is never one)"
    )]
    NoSuchEntry,
    /// `explain -!ENTRY` when standard input holds no archive.
    #[error("standard input holds no archive, so no entry of that name")]
    NotAnArchive,
    /// `explain -` when standard input holds an archive (tar, zip or 7z).
    #[error("standard input holds an archive: name one of its entries, as reports do (-!ENTRY)")]
    NameAnEntry,
    /// A FIFO, socket or device: opening it could block forever or read
    /// without end.
    #[error("not a regular file ({0}): not read")]
    NotRegular(&'static str),
    #[error("larger than {limit} bytes (--max-file-size): not read")]
    TooLarge { limit: u64 },
    /// A compressed game file (`.sgf.gz`, `.sgf.bz2`) that cannot be
    /// decompressed.
    #[error("cannot decompress: {0}")]
    Decompress(String),
    /// Passed over on purpose, with why (a format not read, a link in an
    /// archive, an archive inside an archive).
    #[error("skipped: {0}")]
    Skipped(String),
    #[error("the directory holds no *.sgf or *.sgfs file and no archive")]
    EmptyDirectory,
    /// A directory whose game files and archives were all left out.
    #[error(
        "all the directory's game files and archives ({0}) are left out: hidden, in \
         .gitignore/.ignore, or not matching --glob (--hidden, --no-ignore)"
    )]
    FilesLeftOut(u64),
    /// An archive built to exhaust memory: overlapping entries, or an entry
    /// that inflates far beyond any game record.
    #[error("refused: {0}")]
    Bomb(String),
}

impl InputError {
    /// An I/O error met while doing `action` (the error it carries, when
    /// made by [`InputError::into_io`]).
    pub fn io(e: &io::Error, action: Action) -> InputError {
        if let Some(carried) = e.get_ref().and_then(|x| x.downcast_ref::<InputError>()) {
            return carried.clone();
        }
        match e.kind() {
            io::ErrorKind::NotFound => InputError::NotFound(action),
            io::ErrorKind::PermissionDenied => InputError::PermissionDenied(action),
            io::ErrorKind::IsADirectory => InputError::IsADirectory(action),
            _ => InputError::Io(action, e.to_string()),
        }
    }

    /// The error of `link`, a symbolic link that could not be followed (`e`).
    pub fn broken_link(link: &std::path::Path, e: &io::Error) -> InputError {
        let target = std::fs::read_link(link)
            .map_or_else(|_| "?".to_string(), |t| super::names::display_path(&t));
        let why = match e.kind() {
            io::ErrorKind::NotFound => "it does not exist".to_string(),
            // A loop of links: the system's words ("too many levels of
            // symbolic links"), its error number differing between systems.
            _ => e.to_string(),
        };
        InputError::BrokenLink { target, why }
    }

    /// This error as an I/O error, for a reader to return; [`InputError::io`]
    /// gives it back.
    pub fn into_io(self) -> io::Error {
        io::Error::other(self)
    }

    /// This error as an I/O error of the same kind as `e`, the error it
    /// explains (so `keeps_bytes_before` still tells a stream cut short).
    pub fn into_io_like(self, e: &io::Error) -> io::Error {
        io::Error::new(e.kind(), self)
    }

    /// A short stable name for the kind of error, for counts.
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::NotFound(_) => "not-found",
            InputError::PermissionDenied(_) => "permission-denied",
            InputError::IsADirectory(_) => "is-a-directory",
            InputError::Io(..) => "io",
            InputError::SymlinkLoop => "symlink-loop",
            InputError::BrokenLink { .. } => "broken-link",
            InputError::ArchiveOpen(_)
            | InputError::ArchiveRead(_)
            | InputError::NotZip(_)
            | InputError::NotTar(_)
            | InputError::NotSevenZip(_)
            | InputError::Damaged(_) => "damaged-archive",
            InputError::ZipEntry(_) | InputError::SevenZipEntry(_) | InputError::Unpack(_) => {
                "damaged-entry"
            }
            InputError::Decompress(_) => "damaged-compression",
            InputError::EntryTooLarge { .. } | InputError::TooLarge { .. } => "too-large",
            InputError::NoGames
            | InputError::EmptyDirectory
            | InputError::EntriesLeftOut(_)
            | InputError::FilesLeftOut(_) => "no-games",
            InputError::NoSuchEntry | InputError::NotAnArchive | InputError::NameAnEntry => {
                "not-found"
            }
            InputError::NotRegular(_) => "not-regular",
            InputError::Skipped(_) => "skipped",
            InputError::Bomb(_) => "bomb",
        }
    }
}

/// Whether the bytes a stream gave before it failed with `e` are its own:
/// it was cut short (it ended early: a download or a copy stopped) or the
/// system could not read on. Not when its data were found wrong (a
/// checksum, a corrupt block): a decoder may give bytes that are not the
/// stream's for a while before it finds out, and games read from them
/// would be reported for faults that are the damage's.
pub fn keeps_bytes_before(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::UnexpectedEof || e.raw_os_error().is_some()
}
