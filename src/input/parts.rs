//! One large collection file read in parts, so memory stays flat however
//! many games it holds (databases are shipped as one `.sgf` of hundreds of
//! thousands of games). A file larger than [`SPLIT_ABOVE`] (or than the file
//! size cap) whose first MiB is UTF-8 is cut, at game-tree boundaries found at
//! the byte level, into parts of about [`PART_BYTES`] (at most the cap); each
//! part is read, decoded and audited on its own, and the pipeline renumbers
//! its games and places its findings as in the whole file. UTF-8 is required because its bytes `(`, `)`, `[`,
//! `]` and `\` are always those characters; in two-byte legacy encodings
//! (GBK, Shift_JIS) they can be halves of other characters, so such files
//! are read whole, as are files whose CA label names another encoding (the
//! label decides how a whole file is decoded).
//!
//! A stream read once (standard input, an archive entry, a compressed file
//! as it is decompressed) is cut the same
//! way as it is read: each part takes the bytes it spans, and at most one
//! part's bytes are held (a game tree longer than the limit is counted, not
//! kept), so standard input has no size limit when it is cut.
//!
//! A part is cut only after a `)` that closes a top-level game tree,
//! outside any property value, and only when a `(` follows (so the last
//! part keeps the file's tail). A game tree longer than the file size limit
//! becomes a part of its own, which is refused as too large when read (a
//! row says so); the games before and after it are read.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use super::error::{keeps_bytes_before, Action, InputError};
use super::item::{reserve_toward, Item, PartOf, Source};

/// Files larger than this are read in parts (when UTF-8). A game tree can be
/// three bytes (`(;)`) and costs 24 while its file or part is held, so a file
/// read whole may cost about ten times its size: held to 4 MiB, that is tens
/// of megabytes at most.
pub const SPLIT_ABOVE: u64 = 4 << 20;
/// Bytes scanned without a game tree ending before the rest of a file is
/// given up (at least four times the file size limit).
const STOP_AFTER: u64 = 1 << 30;
/// A part's size before it is cut at the next game boundary.
pub const PART_BYTES: u64 = 1 << 20;
/// The buffer a file or stream is scanned through.
pub const READ_BUFFER: usize = 1 << 16;

/// Test hook, not an option: `SGFAUDIT_PART_BYTES=N` sets both the size
/// above which files are split and the part size, so tests can split small
/// files (tests/parts.rs).
pub fn sizes() -> (u64, u64) {
    match std::env::var("SGFAUDIT_PART_BYTES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(n) if n > 0 => (n, n),
        _ => (SPLIT_ABOVE, PART_BYTES),
    }
}

/// Whether a file of `len` bytes whose first bytes are `head` is read in
/// parts: UTF-8 by its start, and not labelled with another encoding (a
/// label decides how the whole file is decoded; a part after the first is
/// taken as UTF-8 when it is valid UTF-8). Compressed data or an archive
/// (`sgf::Binary`) is read whole, to be reported as such.
pub fn splits(len: u64, head: &[u8], split_above: u64) -> bool {
    if len <= split_above
        || !head.contains(&b'(')
        || !crate::sgf::decode::label_allows_utf8(head)
        || crate::sgf::Binary::sniff(head).is_some()
    {
        return false;
    }
    // A UTF-8 prefix: valid up to a character cut at the end of the sample.
    match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && e.valid_up_to() + 4 > head.len(),
    }
}

/// A reader that fails with the error a stream met after the bytes read
/// before it.
pub(crate) struct FailsWith(pub(crate) Option<std::io::Error>);

impl std::io::Read for FailsWith {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

/// An input cut short (an archive entry whose archive ends in it), `bytes`
/// read before the end: a UTF-8 collection gives the parts of its game trees
/// closed before the cut, then a row for `why`, as any stream cut short
/// (`Ok`); anything else is that row alone (`Err`).
pub fn cut_short(
    name: String,
    bytes: Vec<u8>,
    why: InputError,
    part_bytes: u64,
    max_part: u64,
) -> Result<Parts, Item> {
    if !splits(u64::MAX, &bytes[..bytes.len().min(1 << 20)], 0) {
        return Err(Item {
            name,
            source: Source::Broken(why),
        });
    }
    // Cut short, not found wrong: the bytes before the end are its own.
    let end = FailsWith(Some(std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        why,
    )));
    let read = std::io::Read::chain(std::io::Cursor::new(bytes), end);
    let reader = BufReader::with_capacity(READ_BUFFER, read);
    Ok(Parts::stream(name, Box::new(reader), part_bytes, max_part))
}

/// The byte-level state of an SGF text being cut. It follows the scan of
/// `sgf::scan` exactly where game trees begin and end, so that a cut falls
/// where the scan of the whole text is between two trees with nothing but
/// white space between them, and each part gives the games and findings of
/// the whole file.
#[derive(Default)]
struct Cutter {
    /// Open `(` of the current game tree (0: outside any tree).
    depth: u32,
    in_value: bool,
    escaped: bool,
    /// Outside any tree: where the scan stands.
    outside: Outside,
    /// Bytes of a leading byte-order mark seen (it is no text to the scan).
    bom: u8,
    line: u32,
    column: u32,
    /// Where the last carriage return stands (`u64::MAX`: none yet): a
    /// line feed right after it ends no other line
    /// (`sgf::scan::locate_from` counts lines alike).
    cr_at: u64,
}

/// The scan outside game trees: after white space only, any `(` opens a tree;
/// in other text, only a `(` followed by white space and `;`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Outside {
    #[default]
    Clear,
    /// In text that is not SGF.
    Junk,
    /// A `(` in such text, then white space only so far.
    Opening,
}

impl Cutter {
    /// Follows one byte outside a property value; true when it closes a
    /// game tree.
    fn structure(&mut self, b: u8) -> bool {
        if self.depth > 0 {
            match b {
                b'[' => self.in_value = true,
                b'(' => self.depth += 1,
                b')' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        self.outside = Outside::Clear;
                        return true;
                    }
                }
                _ => {}
            }
            return false;
        }
        self.outside = match (self.outside, b) {
            (Outside::Clear, b'(') => {
                self.depth = 1;
                Outside::Clear
            }
            (Outside::Opening, b';') => {
                self.depth = 1;
                Outside::Clear
            }
            (state, b) if b.is_ascii_whitespace() => state,
            (_, b'(') => Outside::Opening,
            _ => Outside::Junk,
        };
        false
    }
}

/// The parts of a file or a stream, lazily: it is read once, sequentially,
/// with a small buffer.
pub struct Parts {
    name: String,
    origin: Origin,
    reader: Option<Box<dyn BufRead + Send>>,
    /// Bytes of the file read by the cutter.
    pos: u64,
    part_bytes: u64,
    max_part: u64,
    state: Cutter,
    /// Where the next part starts, and its line and column there.
    start: (u64, u32, u32),
    /// A boundary just found (after a top-level `)`), waiting for a `(`
    /// after it to stand.
    pending_cut: Option<(u64, u32, u32)>,
    /// The last boundary that stood, before the part size was reached.
    last_cut: Option<(u64, u32, u32)>,
    /// A boundary to cut at on the next call: the end of a game tree
    /// longer than a part may be, which becomes a part of its own (and a
    /// row saying it is too large).
    queued_cut: Option<(u64, u32, u32)>,
    /// A read error met after the last whole game tree, reported once the
    /// games before it have been handed out.
    queued_error: Option<InputError>,
    done: bool,
}

/// What is being cut.
enum Origin {
    /// A file: a part is read again, by its offset, when it is audited.
    File(PathBuf),
    /// A stream: the bytes read since `at` (the start of the part being
    /// cut, or of the text after it), unless the part is longer than the
    /// limit (`overflow`): then only the bytes after its last top-level
    /// `)` are kept, which may begin the next part.
    Stream {
        carry: Vec<u8>,
        at: u64,
        overflow: bool,
        /// The most `carry` holds: a part at the limit and the buffer that
        /// passes it.
        most: usize,
    },
}

impl Parts {
    /// The parts of the file at `path`.
    pub fn new(name: String, path: PathBuf, part_bytes: u64, max_part: u64) -> Parts {
        let reader = File::open(&path)
            .ok()
            .map(|f| Box::new(BufReader::with_capacity(READ_BUFFER, f)) as Box<dyn BufRead + Send>);
        Parts::with(name, Origin::File(path), reader, part_bytes, max_part)
    }

    /// The parts of a stream, each with its bytes.
    pub fn stream(
        name: String,
        reader: Box<dyn BufRead + Send>,
        part_bytes: u64,
        max_part: u64,
    ) -> Parts {
        let origin = Origin::Stream {
            carry: Vec::new(),
            at: 0,
            overflow: false,
            most: usize::try_from(max_part)
                .unwrap_or(usize::MAX)
                .saturating_add(READ_BUFFER),
        };
        Parts::with(name, origin, Some(reader), part_bytes, max_part)
    }

    fn with(
        name: String,
        origin: Origin,
        reader: Option<Box<dyn BufRead + Send>>,
        part_bytes: u64,
        max_part: u64,
    ) -> Parts {
        Parts {
            name,
            origin,
            reader,
            pos: 0,
            part_bytes,
            max_part,
            state: Cutter {
                line: 1,
                column: 1,
                cr_at: u64::MAX,
                ..Cutter::default()
            },
            start: (0, 1, 1),
            pending_cut: None,
            last_cut: None,
            queued_cut: None,
            queued_error: None,
            done: false,
        }
    }

    /// The part from the start to `end`; a stream's part takes its bytes
    /// (none when it was too long to keep: it is refused for its length).
    fn item(&mut self, end: u64, last: bool) -> Item {
        let (offset, line, column) = self.start;
        let part = PartOf {
            offset,
            len: end - offset,
            line,
            column,
            last,
        };
        let source = match &mut self.origin {
            Origin::File(path) => Source::Part(path.clone(), part),
            Origin::Stream {
                carry,
                at,
                overflow,
                ..
            } => {
                let taken = usize::try_from(end.saturating_sub(*at)).unwrap_or(usize::MAX);
                let mut bytes: Vec<u8> = carry.drain(..taken.min(carry.len())).collect();
                *at = end.max(*at);
                if std::mem::take(overflow) {
                    bytes = Vec::new();
                }
                Source::StreamPart(bytes, part)
            }
        };
        Item {
            name: self.name.clone(),
            source,
        }
    }

    /// Keeps the bytes of a stream just scanned; of a part too long to keep,
    /// only those from `keep_from` (the end of its last game tree so far,
    /// where the next part may begin).
    fn carry(origin: &mut Origin, bytes: &[u8], keep_from: Option<u64>) {
        if let Origin::Stream {
            carry,
            at,
            overflow,
            most,
        } = origin
        {
            reserve_toward(carry, bytes.len(), *most);
            carry.extend_from_slice(bytes);
            if *overflow {
                let end = *at + carry.len() as u64;
                let from = keep_from.unwrap_or(end).clamp(*at, end);
                carry.drain(..usize::try_from(from - *at).unwrap_or(usize::MAX));
                *at = from;
                // The room taken for the long part is given back, not held
                // through the rest of the stream.
                if carry.capacity() > 4 * PART_BYTES as usize {
                    carry.shrink_to(PART_BYTES as usize);
                }
            }
        }
    }

    /// The part being cut is longer than the limit: a stream keeps no more
    /// of its bytes (it is refused for its length when read).
    fn overflow(origin: &mut Origin, keep_from: Option<u64>) {
        if let Origin::Stream { overflow, .. } = origin {
            *overflow = true;
        }
        Parts::carry(origin, &[], keep_from);
    }

    fn broken(&mut self, why: InputError) -> Option<Item> {
        self.done = true;
        Some(Item {
            name: self.name.clone(),
            source: Source::Broken(why),
        })
    }
}

impl Iterator for Parts {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if self.done {
            return None;
        }
        if let Some(c) = self.queued_cut.take() {
            let item = self.item(c.0, false);
            self.start = c;
            return Some(item);
        }
        if let Some(why) = self.queued_error.take() {
            return self.broken(why);
        }
        let Some(reader) = self.reader.as_mut() else {
            let why = match &self.origin {
                Origin::File(path) => File::open(path).err(),
                Origin::Stream { .. } => None,
            }
            .map(|e| InputError::io(&e, Action::Read))
            .unwrap_or(InputError::Skipped("the file could not be reopened".into()));
            return self.broken(why);
        };
        loop {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) => {
                    // The games read before the stream was cut short are
                    // audited first; after data found wrong (a checksum, a
                    // corrupt block), those since the last part are not:
                    // they may be the damage's, not the stream's.
                    let why = InputError::io(&e, Action::Read);
                    if !keeps_bytes_before(&e) {
                        return self.broken(why);
                    }
                    let read_to = self.pending_cut.or(self.last_cut);
                    if let Some(c) = read_to.filter(|c| c.0 > self.start.0) {
                        self.queued_error = Some(why);
                        let item = self.item(c.0, false);
                        self.start = c;
                        return Some(item);
                    }
                    return self.broken(why);
                }
            };
            if buf.is_empty() {
                // The end of the file: the rest is the last part.
                self.done = true;
                return (self.pos > self.start.0 || self.start.0 == 0)
                    .then(|| self.item(self.pos, true));
            }
            let n = buf.len();
            let s = &mut self.state;
            let mut cut = None;
            for (i, &b) in buf.iter().enumerate() {
                let at = self.pos + i as u64;
                if let Some(c) = self.pending_cut {
                    // The boundary stands if a game tree starts after it.
                    if b == b'(' && !s.in_value {
                        self.pending_cut = None;
                        if c.0 - self.start.0 >= self.part_bytes {
                            // Too long for one part: the games before the
                            // last boundary first, then the long one alone.
                            if c.0 - self.start.0 > self.max_part {
                                if let Some(l) = self.last_cut.take() {
                                    self.queued_cut = Some(c);
                                    cut = Some((l, i));
                                    break;
                                }
                            }
                            cut = Some((c, i));
                            break;
                        }
                        self.last_cut = Some(c);
                    } else if !b.is_ascii_whitespace() {
                        self.pending_cut = None;
                    }
                }
                if at < 3 && s.bom == at as u8 && b == [0xEF, 0xBB, 0xBF][at as usize] {
                    s.bom += 1;
                } else if s.in_value {
                    if s.escaped {
                        s.escaped = false;
                    } else if b == b'\\' {
                        s.escaped = true;
                    } else if b == b']' {
                        s.in_value = false;
                    }
                } else if s.structure(b) {
                    self.pending_cut = Some((at + 1, s.line, s.column + 1));
                }
                if b & 0xC0 != 0x80 {
                    s.column = s.column.saturating_add(1);
                }
                if b < 0x0e && (b == b'\n' || b == b'\r') {
                    // A line feed right after a carriage return ends no
                    // other line.
                    if b == b'\r' || s.cr_at.checked_add(1) != Some(at) {
                        s.line = s.line.saturating_add(1);
                    }
                    if b == b'\r' {
                        s.cr_at = at;
                    }
                    s.column = 1;
                }
            }
            if let Some(((end, line, column), used)) = cut {
                // `used` bytes of the buffer were scanned up to the `(`.
                Parts::carry(&mut self.origin, &buf[..used], Some(end));
                reader.consume(used);
                self.pos += used as u64;
                self.last_cut = None;
                let item = self.item(end, false);
                self.start = (end, line, column);
                // The cutter's line and column run on from the `(` (not
                // scanned yet: it is read again with the next buffer).
                return Some(item);
            }
            Parts::carry(&mut self.origin, buf, self.pending_cut.map(|c| c.0));
            reader.consume(n);
            self.pos += n as u64;
            // A run of text this long without a game tree ending in it is
            // no collection (a sparse file, a stream of garbage): the rest
            // of the file gets a row instead of a scan without end.
            if self.pos - self.start.0 > STOP_AFTER.max(self.max_part.saturating_mul(4)) {
                let at = self.start.0;
                return self.broken(InputError::Skipped(format!(
                    "no game tree ends in the {} bytes after byte {at}; the rest of the file is \
                     not read",
                    self.pos - at
                )));
            }
            if self.pos - self.start.0 > self.max_part {
                // Too long for one part: the games up to the last boundary
                // make a part now, so they do not share the fate of the long
                // game tree that follows (its part will be too large to read,
                // and say so; the file goes on after it).
                if let Some((end, line, column)) = self.last_cut.take() {
                    let item = self.item(end, false);
                    self.start = (end, line, column);
                    return Some(item);
                }
                Parts::overflow(&mut self.origin, self.pending_cut.map(|c| c.0));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, part_bytes: u64) -> Vec<(String, PartOf)> {
        let path = std::env::temp_dir().join(format!(
            "sgfaudit-parts-{}-{part_bytes}-{}.sgf",
            std::process::id(),
            text.len()
        ));
        std::fs::write(&path, text).unwrap();
        let parts = Parts::new("f".into(), path.clone(), part_bytes, 1 << 20)
            .map(|item| match item.source {
                Source::Part(_, p) => {
                    let s = &text[p.offset as usize..(p.offset + p.len) as usize];
                    (s.to_string(), p)
                }
                other => panic!("{other:?}"),
            })
            .collect();
        let _ = std::fs::remove_file(&path);
        parts
    }

    #[test]
    fn parts_end_after_top_level_trees_outside_values() {
        // The `)` and `(` inside C[...] (one escaped `]` among them) and the
        // variation's `)` must not cut.
        let text = "(;B[aa];C[ ) ( \\] ])\n(;W[bb](;B[cc])(;B[dd]))\n(;B[ee])";
        let parts = cut(text, 1);
        let texts: Vec<&str> = parts.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(
            texts,
            [
                "(;B[aa];C[ ) ( \\] ])",
                "\n(;W[bb](;B[cc])(;B[dd]))",
                "\n(;B[ee])"
            ]
        );
        let places: Vec<(u64, u32, u32, bool)> = parts
            .iter()
            .map(|(_, p)| (p.offset, p.line, p.column, p.last))
            .collect();
        // The first part ends at byte 20, line 1 column 21; the second
        // starts there and ends on line 2 after 24 more bytes.
        assert_eq!(
            places,
            [(0, 1, 1, false), (20, 1, 21, false), (45, 2, 25, true)]
        );
    }

    /// The parts of `text` read as a stream: each with its bytes (`None`
    /// when too long to keep).
    fn cut_stream(text: &str, part_bytes: u64, max_part: u64) -> Vec<(Option<String>, PartOf)> {
        let reader = BufReader::with_capacity(7, std::io::Cursor::new(text.as_bytes().to_vec()));
        Parts::stream("-".into(), Box::new(reader), part_bytes, max_part)
            .map(|item| match item.source {
                Source::StreamPart(bytes, p) => {
                    let kept = !bytes.is_empty() || p.len == 0;
                    (kept.then(|| String::from_utf8(bytes).unwrap()), p)
                }
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_stream_is_cut_where_a_file_is_and_each_part_keeps_its_bytes() {
        let text = "\u{feff}(;B[aa];C[ ) ( \\] ])\n(;W[bb](;B[cc])(;B[dd]))\n junk ( ;B[ee])  \n";
        for part_bytes in [1, 12, 30, 1000] {
            let file = cut(text, part_bytes);
            let stream = cut_stream(text, part_bytes, 1 << 20);
            assert_eq!(stream.len(), file.len(), "part size {part_bytes}");
            for ((bytes, p), (s, q)) in stream.iter().zip(&file) {
                assert_eq!(p, q);
                assert_eq!(bytes.as_deref(), Some(s.as_str()));
            }
        }
    }

    #[test]
    fn a_stream_keeps_no_bytes_of_a_tree_longer_than_the_limit() {
        let long = format!("(;C[{}])", "x".repeat(500));
        let text = format!("(;B[aa])\n{long}  \n(;B[bb])");
        let parts = cut_stream(&text, 10, 100);
        let got: Vec<(Option<&str>, u64)> =
            parts.iter().map(|(b, p)| (b.as_deref(), p.len)).collect();
        assert_eq!(
            got,
            [
                (Some("(;B[aa])"), 8),
                (None, 1 + long.len() as u64),
                (Some("  \n(;B[bb])"), 11),
            ]
        );
    }

    #[test]
    fn a_part_grows_to_its_size_and_keeps_the_tail() {
        let text = "(;B[aa])(;B[bb])(;B[cc])  \n";
        let parts = cut(text, 12);
        let texts: Vec<&str> = parts.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(texts, ["(;B[aa])(;B[bb])", "(;B[cc])  \n"]);
    }

    #[test]
    fn only_utf8_files_over_the_size_are_split() {
        assert!(splits(100, b"(;CA[UTF-8]C[\xc3\xa9])", 10));
        assert!(!splits(10, b"(;B[aa])", 10));
        // GBK: a two-byte character whose second byte is `]`.
        assert!(!splits(100, b"(;C[\x81\x5d])", 10));
        // Another encoding named: the label decides for the whole file.
        assert!(!splits(100, b"(;CA[Shift_JIS]C[abc])", 10));
        assert!(!splits(100, b"(;CA[foo]C[abc])", 10));
        assert!(splits(100, b"(;CA[utf8]C[abc])", 10));
        // No game tree starts in the sample (zeros): not a collection.
        assert!(!splits(100, &[0u8; 64], 10));
        // A character cut by the end of the sample is still UTF-8.
        assert!(splits(100, b"(;C[\xc3", 10));
    }
}
