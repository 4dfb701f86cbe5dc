//! Where a report named by a path is written (`--html FILE`, `--report
//! FORMAT=FILE`): a file is written beside itself and renamed over it when
//! the run ends, so no reader sees half a report and a run that fails
//! leaves the file as it was; what is not a file (a named pipe) is written
//! into as it is; the process's own standard streams are told apart, since
//! opening them again by name would write over what the run wrote there.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};

/// Where a report goes.
pub enum Destination {
    /// A file: written beside it as `.NAME.partial` and renamed over it, so
    /// no reader sees half a report (through a symbolic link, the file it
    /// names: the link stays).
    File(Partial, fs::File),
    /// What is not a file (a named pipe, a terminal): written into as it
    /// is, never replaced.
    Stream(PathBuf),
    /// The process's own standard output or error, named `/dev/stdout`,
    /// `/dev/fd/1` or `/proc/self/fd/1` (2 for the error). Opened again by
    /// name, a file behind it would be written from its start (over the
    /// summary) or replaced (under a shell that still writes to it).
    Standard(StandardStream),
}

/// The process's standard streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandardStream {
    Output,
    Error,
}

impl StandardStream {
    /// The standard stream `path` names, if it names one.
    fn named(path: &Path) -> Option<StandardStream> {
        let path = std::path::absolute(path).ok()?;
        let is = |names: [&str; 3]| names.iter().any(|n| path == Path::new(n));
        if is(["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]) {
            Some(StandardStream::Output)
        } else if is(["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"]) {
            Some(StandardStream::Error)
        } else {
            None
        }
    }
}

impl Destination {
    /// Where a report named `path` goes. For a file, its partial file is
    /// created (empty) at once, so a place that cannot be written fails
    /// before the run, not after it.
    pub fn named(path: &Path) -> io::Result<Destination> {
        Ok(match (StandardStream::named(path), fs::metadata(path)) {
            (Some(stream), _) => Destination::Standard(stream),
            (_, Ok(m)) if m.is_dir() => return Err(io::Error::other("it is a directory")),
            (_, Ok(m)) if !m.is_file() => Destination::Stream(path.to_path_buf()),
            // A new file, or one to replace (the file a link names).
            _ => {
                let (partial, file) = Partial::create(&through_links(path))?;
                Destination::File(partial, file)
            }
        })
    }

    /// Writes a report made whole at the end of the run (the HTML page):
    /// into a standard stream after what the run wrote there.
    pub fn write_whole(&mut self, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        match self {
            Destination::File(partial, file) => {
                file.write_all(bytes)?;
                partial.keep()
            }
            Destination::Standard(StandardStream::Output) => {
                let mut out = io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()
            }
            Destination::Standard(StandardStream::Error) => io::stderr().lock().write_all(bytes),
            Destination::Stream(path) => fs::OpenOptions::new()
                .write(true)
                .open(path)?
                .write_all(bytes),
        }
    }
}

/// A report written as the run goes into a file or a named pipe (`--report
/// FORMAT=FILE`): the format's reporter writes into the destination, and a
/// file is renamed into place once that reporter has finished.
pub struct ReportFile {
    /// The format's reporter; dropped (closing the file) when it finishes.
    inner: Option<Box<dyn Reporter + Send>>,
    /// The file to rename into place at the end (`None`: a stream); after
    /// `inner`, so a report that did not finish is closed before its
    /// partial file is removed.
    partial: Option<Partial>,
}

impl ReportFile {
    /// A report into `path`, written by the reporter `make` builds on the
    /// writer it is given. Standard output and error are refused: the run's
    /// own report (`--format`) goes there.
    pub fn create<F>(path: &Path, make: F) -> io::Result<ReportFile>
    where
        F: FnOnce(io::BufWriter<fs::File>) -> Box<dyn Reporter + Send>,
    {
        let (file, partial) = match Destination::named(path)? {
            Destination::Standard(_) => {
                return Err(io::Error::other(
                    "it names a standard stream (--format chooses what standard output shows)",
                ))
            }
            Destination::Stream(path) => (fs::OpenOptions::new().write(true).open(path)?, None),
            Destination::File(partial, file) => (file, Some(partial)),
        };
        Ok(ReportFile {
            inner: Some(make(io::BufWriter::new(file))),
            partial,
        })
    }
}

impl Reporter for ReportFile {
    fn takes_games(&self) -> bool {
        self.inner.as_ref().is_some_and(|r| r.takes_games())
    }

    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        match &mut self.inner {
            Some(r) => r.game(file, game),
            None => Ok(()),
        }
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        if let Some(mut r) = self.inner.take() {
            r.finish(summary)?;
        }
        match &mut self.partial {
            Some(partial) => partial.keep(),
            None => Ok(()),
        }
    }
}

/// A file written beside the one it will replace, as `.NAME.partial`, and
/// renamed over it by [`Partial::keep`]. Dropped before that (a run that
/// failed or could not start), it is removed: the file it was to replace
/// stays as it was, and nothing is left beside it.
pub struct Partial {
    partial: PathBuf,
    path: PathBuf,
    kept: bool,
}

impl Partial {
    /// Creates the partial file of `path` (empty), open for writing.
    pub fn create(path: &Path) -> io::Result<(Partial, fs::File)> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| io::Error::other("a report needs a file name"))?;
        let partial = path.with_file_name(format!(".{name}.partial"));
        let file = fs::File::create(&partial)?;
        let partial = Partial {
            partial,
            path: path.to_path_buf(),
            kept: false,
        };
        Ok((partial, file))
    }

    /// Renames the partial file over the file it replaces (once).
    pub fn keep(&mut self) -> io::Result<()> {
        if !self.kept {
            fs::rename(&self.partial, &self.path)?;
            self.kept = true;
        }
        Ok(())
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.kept {
            let _ = fs::remove_file(&self.partial);
        }
    }
}

/// The file `path` names: itself, or the file its symbolic links lead to,
/// which need not exist yet.
fn through_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // As many links as Linux follows.
    for _ in 0..40 {
        match fs::read_link(&path) {
            // A relative link is read from the link's directory.
            Ok(next) => path = path.parent().unwrap_or(Path::new("")).join(next),
            Err(_) => break,
        }
    }
    path
}
