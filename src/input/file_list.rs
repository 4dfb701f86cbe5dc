//! Path lists (`--file-list`).

use std::fs;
use std::io::{self, BufRead};

/// Reads a list of paths, one per line (`-` reads the list from standard input).
/// Blank lines are skipped; a trailing `\r` is removed.
pub fn read_file_list(list: &str) -> io::Result<Vec<String>> {
    let reader: Box<dyn BufRead> = if list == "-" {
        Box::new(io::BufReader::new(io::stdin()))
    } else {
        Box::new(io::BufReader::new(fs::File::open(list)?))
    };
    let mut out = Vec::new();
    for line in reader.lines() {
        let line = line?;
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            out.push(line.to_string());
        }
    }
    Ok(out)
}
