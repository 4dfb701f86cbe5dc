//! Path lists (`--file-list`), read as the walk reaches it: a list of
//! millions of paths costs no more memory than one. Paths are separated by
//! line feeds, or by NUL bytes when the list's first 4,096 bytes hold one
//! (`find -print0`, `git ls-files -z`): no path holds a NUL byte, and a path
//! the system takes is shorter (Linux's `PATH_MAX`).

use std::ffi::OsString;
use std::fs;
use std::io::{self, BufRead, Read};

use super::error::{Action, InputError};

/// How much of a list is read to tell its separator.
const SEPARATOR_WITHIN: usize = 4096;

/// The longest line kept: far beyond any path a system takes (4,096
/// bytes on Linux). A longer one is a row, not a path, and costs no memory.
const MAX_LINE: usize = 64 << 10;

/// The paths of a list (`-` reads the list from standard input). Blank
/// lines are skipped; a line's trailing `\r` is removed. A path is its bytes,
/// UTF-8 or not, as `find` prints them.
pub struct FileList {
    /// The list as the command line names it.
    name: String,
    reader: Box<dyn BufRead + Send>,
    /// The separator, once the list's beginning has shown it.
    separator: Option<u8>,
    done: bool,
}

impl FileList {
    /// Opens the list; reading it fails later, as a row.
    pub fn open(list: &str) -> io::Result<FileList> {
        let reader: Box<dyn BufRead + Send> = if list == "-" {
            Box::new(io::BufReader::new(io::stdin()))
        } else {
            Box::new(io::BufReader::new(fs::File::open(list)?))
        };
        Ok(FileList {
            name: list.to_string(),
            reader,
            separator: None,
            done: false,
        })
    }

    /// The separator: NUL when the list's first `SEPARATOR_WITHIN` bytes
    /// hold one, else a line feed. The bytes read to tell are read again.
    fn separator(&mut self) -> io::Result<u8> {
        if let Some(sep) = self.separator {
            return Ok(sep);
        }
        let mut head = Vec::with_capacity(SEPARATOR_WITHIN);
        (&mut self.reader)
            .take(SEPARATOR_WITHIN as u64)
            .read_to_end(&mut head)?;
        let sep = if head.contains(&0) { 0 } else { b'\n' };
        let rest = std::mem::replace(&mut self.reader, Box::new(io::empty()));
        self.reader = Box::new(io::Cursor::new(head).chain(rest));
        self.separator = Some(sep);
        Ok(sep)
    }

    /// The next record into `line` (at most `MAX_LINE` bytes of it kept):
    /// whether there was one, and whether it was longer.
    fn record(&mut self, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
        let sep = self.separator()?;
        let (mut any, mut long) = (false, false);
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                return Ok(any.then_some(long));
            }
            any = true;
            let end = buf.iter().position(|&b| b == sep);
            let take = end.unwrap_or(buf.len());
            let room = MAX_LINE.saturating_sub(line.len());
            line.extend_from_slice(&buf[..take.min(room)]);
            long |= take > room;
            match end {
                Some(i) => {
                    self.reader.consume(i + 1);
                    return Ok(Some(long));
                }
                None => self.reader.consume(take),
            }
        }
    }
}

impl Iterator for FileList {
    /// A path, or why a line is not one or the rest of the list cannot be
    /// read (with the list's name).
    type Item = Result<OsString, (String, InputError)>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let mut line = Vec::new();
            let long = match self.record(&mut line) {
                Ok(Some(long)) => long,
                Ok(None) => break,
                Err(e) => {
                    // Ends the list: a read error may repeat forever.
                    self.done = true;
                    return Some(Err((
                        self.name.clone(),
                        InputError::io(&e, Action::ReadFileList),
                    )));
                }
            };
            if long {
                let why = format!("a line of more than {} KiB is not a path", MAX_LINE >> 10);
                return Some(Err((self.name.clone(), InputError::Skipped(why))));
            }
            // A list of lines may end them with `\r\n`; a NUL-separated one
            // keeps every byte of its paths.
            while self.separator != Some(0) && line.last() == Some(&b'\r') {
                line.pop();
            }
            let blank = std::str::from_utf8(&line).is_ok_and(|text| text.trim().is_empty());
            if !blank {
                return Some(Ok(path_of(line)));
            }
        }
        self.done = true;
        None
    }
}

#[cfg(unix)]
fn path_of(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes)
}

/// Elsewhere a path is text: bytes that are not UTF-8 are replaced.
#[cfg(not(unix))]
fn path_of(bytes: Vec<u8>) -> OsString {
    String::from_utf8_lossy(&bytes).into_owned().into()
}
