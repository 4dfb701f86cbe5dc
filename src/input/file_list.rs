//! Path lists (`--file-list`), read as the walk reaches them: a list of
//! millions of paths costs no more memory than one.

use std::ffi::OsString;
use std::fs;
use std::io::{self, BufRead};

use super::error::{Action, InputError};

/// The paths of a list, one per line (`-` reads the list from standard
/// input). Blank lines are skipped; a trailing `\r` is removed. A line is a
/// path's bytes, UTF-8 or not, as `find` prints them.
pub struct FileList {
    /// The list as the command line names it.
    name: String,
    lines: io::Split<Box<dyn BufRead + Send>>,
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
            lines: reader.split(b'\n'),
        })
    }
}

impl Iterator for FileList {
    /// A path, or why the rest of the list cannot be read (and the list's
    /// name), the last item.
    type Item = Result<OsString, (String, InputError)>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let mut line = match self.lines.next()? {
                Ok(line) => line,
                Err(e) => {
                    // Ends the list: a read error may repeat forever.
                    self.lines = (Box::new(io::empty()) as Box<dyn BufRead + Send>).split(b'\n');
                    return Some(Err((
                        self.name.clone(),
                        InputError::io(&e, Action::ReadFileList),
                    )));
                }
            };
            while line.last() == Some(&b'\r') {
                line.pop();
            }
            let blank = std::str::from_utf8(&line).is_ok_and(|text| text.trim().is_empty());
            if !blank {
                return Some(Ok(path_of(line)));
            }
        }
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
