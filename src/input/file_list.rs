//! Path lists (`--file-list`).

use std::ffi::OsString;
use std::fs;
use std::io::{self, BufRead};

/// Reads a list of paths, one per line (`-` reads the list from standard input).
/// Blank lines are skipped; a trailing `\r` is removed. A line is a path's
/// bytes, UTF-8 or not, as `find` prints them.
pub fn read_file_list(list: &str) -> io::Result<Vec<OsString>> {
    let reader: Box<dyn BufRead> = if list == "-" {
        Box::new(io::BufReader::new(io::stdin()))
    } else {
        Box::new(io::BufReader::new(fs::File::open(list)?))
    };
    let mut out = Vec::new();
    for line in reader.split(b'\n') {
        let mut line = line?;
        while line.last() == Some(&b'\r') {
            line.pop();
        }
        let blank = match std::str::from_utf8(&line) {
            Ok(text) => text.trim().is_empty(),
            Err(_) => false,
        };
        if !blank {
            out.push(path_of(line));
        }
    }
    Ok(out)
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
