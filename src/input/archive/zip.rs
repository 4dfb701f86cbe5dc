//! Zip archives, read straight from their central directory (PKWARE's
//! APPNOTE.TXT, sections 4.3 and 4.4): the end-of-central-directory record
//! (and its ZIP64 form) says where the directory lies and how many records
//! it holds; each record names an entry and gives its method, sizes, CRC-32
//! and the place of its local header, after which its bytes lie.
//!
//! The directory is walked record by record, twice: once whole, before any
//! entry is read, to check that every record is well formed and that the
//! entries' compressed bytes fit in the archive without sharing any (a bomb
//! points many entries at one stream), and once to read the entries, a few
//! records at a time, in the directory's order. Nothing is kept per entry,
//! so memory stays flat however many entries the archive holds. Entries that
//! repeat a name are all read (the later ones named `NAME#2`, ...).
//!
//! Stored, deflated, bzip2, LZMA, xz and Zstandard entries are read; a deflated game
//! entry is handed over as it lies in the archive ([`Source::Deflated`]) and
//! inflated by the worker that audits it, and one larger than a collection
//! read whole is piped to the walk as it is unpacked (`pipe.rs`). No entry
//! yields more than its declared size, and every entry's CRC-32 is checked.
//! An encrypted entry or another method gets a row that says so.

use std::io::{self, Read, Seek, SeekFrom};

use super::{
    entry_name, is_container_name, is_sgf_name, kind_of, lzma_options, nested, nested_in_place,
    unreadable, Kind, Sender, MAX_DICTIONARY,
};
use crate::input::error::{Action, InputError};
use crate::input::item::{
    inflate_cap, read_capped, zstd_decoder, Checked, Deflated, Inflated, Source, MAX_RATIO,
    RATIO_FLOOR, XZ_MEMLIMIT,
};
use crate::input::names::escape_name;

const END: [u8; 4] = *b"PK\x05\x06";
const END64_LOCATOR: [u8; 4] = *b"PK\x06\x07";
const END64: [u8; 4] = *b"PK\x06\x06";
const CENTRAL: [u8; 4] = *b"PK\x01\x02";
const LOCAL: [u8; 4] = *b"PK\x03\x04";

/// The fixed part of an end-of-central-directory record, which a comment of
/// at most 65,535 bytes follows.
const END_LEN: u64 = 22;
/// The fixed part of a central directory record and of a local header.
const CENTRAL_LEN: usize = 46;
const LOCAL_LEN: u64 = 30;

/// The methods read (APPNOTE 4.4.5): stored, deflated, bzip2, LZMA, xz and
/// Zstandard (93, as WinZip and the `zip` crate write it, and 20, an
/// earlier number for it that some writers use).
const STORED: u16 = 0;
const DEFLATED: u16 = 8;
const BZIP2: u16 = 12;
const LZMA: u16 = 14;
const XZ: u16 = 95;
const ZSTD: u16 = 93;
const ZSTD_BEFORE: u16 = 20;

/// Records read from the directory at a time (with their names) before their
/// entries are read.
const RECORDS_AT_ONCE: usize = 64;

/// A gap this short between where the reader is and where it must go is read
/// through rather than sought over (data descriptors lie between entries),
/// so a buffered reader keeps its buffer.
const SKIP_BY_READING: u64 = 64 << 10;

/// Where the central directory lies.
struct Directory {
    /// Its first byte in the file.
    start: u64,
    /// Its size in bytes, as its end record gives it.
    size: u64,
    /// The records its end record says it holds.
    records: u64,
    /// The file's bytes before the archive's first (a self-extracting stub):
    /// added to every offset a record gives.
    shift: u64,
}

/// A central directory record: what reading its entry takes.
struct Record {
    name: String,
    flags: u16,
    method: u16,
    crc32: u32,
    compressed: u64,
    size: u64,
    /// The local header's place in the file.
    local: u64,
}

impl Record {
    fn is_dir(&self) -> bool {
        self.name.ends_with('/') || self.name.ends_with('\\')
    }

    fn encrypted(&self) -> bool {
        self.flags & 1 != 0
    }
}

/// A reader that knows where it is, so that a seek to where it already is
/// (the next entry, as entries lie one after another) costs nothing.
struct Tracked<R> {
    inner: R,
    pos: u64,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Tracked<R> {
    fn go_to(&mut self, to: u64) -> io::Result<()> {
        if to >= self.pos && to - self.pos <= SKIP_BY_READING {
            let gap = to - self.pos;
            if io::copy(&mut (&mut *self).take(gap), &mut io::sink())? == gap {
                return Ok(());
            }
        }
        self.pos = self.inner.seek(SeekFrom::Start(to))?;
        Ok(())
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// A stored entry's bytes, read and sought where they lie in the archive.
struct Window<'a, R> {
    file: &'a mut Tracked<R>,
    /// Where the entry's bytes start in the archive, and how many there are.
    start: u64,
    len: u64,
    /// Where in the entry the next read starts.
    at: u64,
}

impl<R: Read + Seek> Read for Window<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.len.saturating_sub(self.at);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        self.file.go_to(self.start + self.at)?;
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.file.read(&mut buf[..want])?;
        self.at += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for Window<'_, R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let (base, by) = match to {
            SeekFrom::Start(n) => (n, 0),
            SeekFrom::End(by) => (self.len, by),
            SeekFrom::Current(by) => (self.at, by),
        };
        self.at = base.checked_add_signed(by).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "a seek before the entry's start",
            )
        })?;
        Ok(self.at)
    }
}

/// Reads the game entries of a zip archive.
pub(super) fn read_zip<R: Read + Seek>(file: R, name: &str, out: &mut Sender) {
    let mark = out.mark();
    let mut file = Tracked {
        inner: file,
        pos: u64::MAX,
    };
    let dir = match directory(&mut file) {
        Ok(d) => d,
        Err(why) => {
            unreadable(out, name, InputError::NotZip(why));
            return;
        }
    };
    let records = match check_records(&mut file, &dir) {
        Ok(n) => n,
        Err(Refused::Damaged(why)) => {
            unreadable(out, name, InputError::NotZip(why));
            return;
        }
        Err(Refused::Bomb(why)) => {
            unreadable(out, name, InputError::Bomb(why));
            return;
        }
    };
    let mut at = dir.start;
    let mut left = records;
    let mut batch = Vec::with_capacity(RECORDS_AT_ONCE);
    let mut buf = Vec::new();
    while left > 0 {
        batch.clear();
        if let Err(e) = file.go_to(at) {
            unreadable(out, name, InputError::ArchiveRead(e.to_string()));
            return;
        }
        while left > 0 && batch.len() < RECORDS_AT_ONCE {
            match record(&mut file, &dir, &mut buf) {
                Ok(r) => batch.push(r),
                // The records were read once already: only a file changed
                // in between fails here.
                Err(why) => {
                    unreadable(out, name, InputError::NotZip(why));
                    return;
                }
            }
            left -= 1;
        }
        at = file.pos;
        for r in batch.drain(..) {
            if let Some(source) = entry(&mut file, &dir, &r, name, out) {
                if !out.send(entry_name(name, &r.name), source) {
                    return;
                }
            }
        }
    }
    out.none_sent(name, mark);
}

/// What an entry is reported as, or `None` when it is no game (a directory,
/// another kind of file) or an archive whose entries were sent.
fn entry<R: Read + Seek>(
    file: &mut Tracked<R>,
    dir: &Directory,
    r: &Record,
    name: &str,
    out: &mut Sender,
) -> Option<Source> {
    let container = is_container_name(&r.name);
    if r.is_dir() || !(container || is_sgf_name(&r.name)) || out.leaves_out(&r.name) {
        return None;
    }
    let broken = |why: String| Some(Source::Broken(InputError::ZipEntry(why)));
    if r.encrypted() {
        return broken("the entry is encrypted".into());
    }
    if ![STORED, DEFLATED, BZIP2, LZMA, XZ, ZSTD, ZSTD_BEFORE].contains(&r.method) {
        return broken(format!(
            "compression method {} is not read (stored, deflated, bzip2, LZMA, xz and Zstandard entries are)",
            r.method
        ));
    }
    if let Err(why) = go_to_data(file, dir, r) {
        return broken(why);
    }
    if r.method == STORED && r.size != r.compressed {
        return broken(format!(
            "a stored entry of {} bytes declares {} once unpacked",
            r.compressed, r.size
        ));
    }
    if r.size > inflate_cap(r.compressed) {
        // No game record compresses so well; a bomb does.
        return Some(Source::Broken(InputError::Bomb(format!(
            "the entry claims to inflate {} bytes into {} ({MAX_RATIO} times and {} MiB at most)",
            r.compressed,
            r.size,
            RATIO_FLOOR >> 20
        ))));
    }
    if container && r.method == STORED {
        // A zip or 7z stored in this one is read where it lies (a tar is
        // read as it is unpacked, below, whatever its method).
        let kind = kind_of(std::path::Path::new(&r.name)).filter(|k| !matches!(k, Kind::Tar));
        if let Some(kind) = kind {
            let start = file.pos;
            let mut window = Window {
                file,
                start,
                len: r.size,
                at: 0,
            };
            return nested_in_place(out, name, &r.name, kind, &mut window);
        }
    }
    let mut data = (&mut *file).take(r.compressed);
    let handed_over =
        r.method == DEFLATED && r.size <= out.max_entry && r.compressed <= out.max_entry;
    if handed_over && !container && !out.pipes(r.size) {
        return Some(
            match read_capped(data, r.compressed, r.compressed, Action::Read) {
                Ok(raw) => Source::Deflated(Deflated {
                    raw,
                    size: r.size,
                    crc32: r.crc32,
                }),
                Err(InputError::Io(_, e)) => Source::Broken(InputError::Unpack(e)),
                Err(e) => Source::Broken(e),
            },
        );
    }
    let unpacked = match unpacked(&mut data, r) {
        Ok(unpacked) => unpacked,
        Err(why) => return broken(why),
    };
    if container {
        return nested(out, name, &r.name, unpacked, r.size);
    }
    if out.pipes(r.size) {
        // Sent as it is read; were the walk gone, the next send says so.
        out.game(entry_name(name, &r.name), unpacked, r.size);
        return None;
    }
    Some(out.read(unpacked, r.size))
}

/// An entry's bytes as they are unpacked by its method, checked against its
/// declared size and CRC-32 ([`Checked`]). An LZMA entry's data begin with
/// the LZMA SDK's version (2 bytes), the properties' length (2 bytes: 5)
/// and the properties (APPNOTE 5.8.8): `lc`, `lp` and `pb` in one byte, then
/// the dictionary size, taken no larger than the entry (no match reaches
/// further back) and refused beyond [`MAX_DICTIONARY`], as in a 7z block, so
/// a header cannot make the decoder allocate more.
fn unpacked<'a>(mut data: impl Read + 'a, r: &Record) -> Result<Box<dyn Read + 'a>, String> {
    let checked = |inner: Box<dyn Read + 'a>| -> Box<dyn Read + 'a> {
        Box::new(Checked::new(inner, r.size, r.crc32))
    };
    Ok(match r.method {
        STORED => checked(Box::new(data)),
        DEFLATED => Box::new(Inflated::inflating(data, r.size, r.crc32)),
        BZIP2 => checked(Box::new(bzip2::read::BzDecoder::new(data))),
        XZ => {
            let stream = liblzma::stream::Stream::new_stream_decoder(XZ_MEMLIMIT, 0)
                .map_err(|e| format!("the xz decoder refused: {e}"))?;
            checked(Box::new(liblzma::read::XzDecoder::new_stream(data, stream)))
        }
        LZMA => {
            let mut head = [0u8; 9];
            data.read_exact(&mut head)
                .map_err(|e| format!("its LZMA header cannot be read: {e}"))?;
            // No more dictionary than the bytes it will produce is needed.
            let dict = u64::from(u32::from_le_bytes([head[5], head[6], head[7], head[8]]));
            let need = dict.min(r.size);
            if need > MAX_DICTIONARY {
                return Err(format!(
                    "it needs a {} MiB LZMA dictionary, more than the {} MiB allowed",
                    need >> 20,
                    MAX_DICTIONARY >> 20
                ));
            }
            let options = (u16::from_le_bytes([head[2], head[3]]) == 5)
                .then(|| lzma_options(need, Some(head[4])))
                .flatten()
                .ok_or("its LZMA header is not one of LZMA 1")?;
            let mut filters = liblzma::stream::Filters::new();
            filters.lzma1(&options);
            let stream = liblzma::stream::Stream::new_raw_decoder(&filters)
                .map_err(|e| format!("the LZMA decoder refused: {e}"))?;
            // Without an end marker the stream ends with the entry's bytes.
            let decoded = liblzma::read::XzDecoder::new_stream(data, stream).take(r.size);
            checked(Box::new(decoded))
        }
        ZSTD | ZSTD_BEFORE => {
            let decoder =
                zstd_decoder(data).map_err(|e| format!("the zstd decoder refused: {e}"))?;
            checked(Box::new(decoder))
        }
        method => return Err(format!("compression method {method} is not read")),
    })
}

/// Moves to the first byte of the entry's data, past its local header.
fn go_to_data<R: Read + Seek>(
    file: &mut Tracked<R>,
    dir: &Directory,
    r: &Record,
) -> Result<(), String> {
    let mut head = [0u8; LOCAL_LEN as usize];
    file.go_to(r.local)
        .and_then(|()| file.read_exact(&mut head))
        .map_err(|e| format!("its local header cannot be read: {e}"))?;
    if head[..4] != LOCAL {
        return Err(format!(
            "no local header where the directory puts it (byte {})",
            r.local
        ));
    }
    let lengths = u64::from(u16_at(&head, 26)) + u64::from(u16_at(&head, 28));
    let data = r.local.saturating_add(LOCAL_LEN + lengths);
    if data.saturating_add(r.compressed) > dir.start {
        return Err(format!(
            "its {} bytes would run past the entries' end (byte {})",
            r.compressed, dir.start
        ));
    }
    file.go_to(data)
        .map_err(|e| format!("its data cannot be reached: {e}"))
}

/// Why the directory is refused before any entry is read.
enum Refused {
    Damaged(String),
    Bomb(String),
}

/// Reads every record once, and returns how many there are: each must be
/// well formed, and the entries that lie before the directory must not claim
/// more bytes in all than lie there. Entries that do not share bytes cannot
/// (each takes at least a local header and its compressed bytes); entries
/// that share a stream, inflating it many times over, do. An entry that
/// claims bytes beyond the entries' end is left out of the sum: it is
/// reported alone when it is read.
///
/// The records are read while the directory holds more, not only as many as
/// its end record gives: writers without ZIP64 keep that count modulo 65,536.
fn check_records<R: Read + Seek>(file: &mut Tracked<R>, dir: &Directory) -> Result<u64, Refused> {
    file.go_to(dir.start)
        .map_err(|e| Refused::Damaged(format!("the central directory cannot be read: {e}")))?;
    let mut buf = Vec::new();
    let room = dir.start - dir.shift;
    let mut claimed: u64 = 0;
    let mut found: u64 = 0;
    loop {
        let more = found < dir.records || more_records(file, dir).map_err(Refused::Damaged)?;
        if !more {
            break;
        }
        let r = record(file, dir, &mut buf).map_err(Refused::Damaged)?;
        found += 1;
        let takes = LOCAL_LEN.saturating_add(r.compressed);
        if r.local.saturating_add(takes) <= dir.start {
            claimed = claimed.saturating_add(takes);
        }
    }
    if claimed > room {
        return Err(Refused::Bomb(format!(
            "its entries claim {claimed} bytes where the archive holds {room} before its \
             central directory: they share bytes (a zip bomb)"
        )));
    }
    Ok(found)
}

/// Whether another record follows in the directory (its signature next).
fn more_records<R: Read + Seek>(file: &mut Tracked<R>, dir: &Directory) -> Result<bool, String> {
    let at = file.pos;
    if at.saturating_add(CENTRAL_LEN as u64) > dir.start.saturating_add(dir.size) {
        return Ok(false);
    }
    let mut sig = [0u8; 4];
    file.read_exact(&mut sig)
        .and_then(|()| file.go_to(at))
        .map_err(|e| format!("the central directory cannot be read at byte {at}: {e}"))?;
    Ok(sig == CENTRAL)
}

/// Reads the central directory record at the reader's place. `buf` is
/// scratch room for its variable part.
fn record<R: Read>(
    file: &mut Tracked<R>,
    dir: &Directory,
    buf: &mut Vec<u8>,
) -> Result<Record, String> {
    let at = file.pos;
    let damaged = |what: &str| format!("the central directory is damaged at byte {at}: {what}");
    let mut head = [0u8; CENTRAL_LEN];
    file.read_exact(&mut head)
        .map_err(|e| damaged(&format!("a record cannot be read ({e})")))?;
    if head[..4] != CENTRAL {
        return Err(damaged("no record signature"));
    }
    let name_len = usize::from(u16_at(&head, 28));
    let extra_len = usize::from(u16_at(&head, 30));
    let comment_len = usize::from(u16_at(&head, 32));
    let end = dir.start.saturating_add(dir.size);
    let record_end = at
        .saturating_add(CENTRAL_LEN as u64)
        .saturating_add((name_len + extra_len + comment_len) as u64);
    if record_end > end {
        return Err(damaged("a record runs past the directory's end"));
    }
    buf.clear();
    buf.resize(name_len + extra_len + comment_len, 0);
    file.read_exact(buf)
        .map_err(|e| damaged(&format!("a record cannot be read ({e})")))?;
    let flags = u16_at(&head, 8);
    let mut size = u64::from(u32_at(&head, 24));
    let mut compressed = u64::from(u32_at(&head, 20));
    let mut local = u64::from(u32_at(&head, 42));
    let (raw_name, extra) = (&buf[..name_len], &buf[name_len..name_len + extra_len]);
    let mut unicode_name = None;
    for (id, data) in extra_fields(extra) {
        match id {
            // ZIP64: the 64-bit values, in this order, of the fields set to
            // all ones in the record.
            0x0001 => {
                let mut values = data.chunks_exact(8).map(|c| u64_at(c, 0));
                for field in [&mut size, &mut compressed, &mut local] {
                    if *field == u64::from(u32::MAX) {
                        *field = values
                            .next()
                            .ok_or_else(|| damaged("a ZIP64 field is missing"))?;
                    }
                }
            }
            // Info-ZIP's Unicode path: the name in UTF-8, valid while the
            // CRC-32 of the record's own name matches.
            0x7075
                if data.len() > 5
                    && data[0] == 1
                    && u32_at(data, 1) == crc32fast::hash(raw_name) =>
            {
                unicode_name = Some(escape_name(&data[5..]));
            }
            _ => {}
        }
    }
    let name = unicode_name.unwrap_or_else(|| entry_text(raw_name, flags));
    Ok(Record {
        name,
        flags,
        method: u16_at(&head, 10),
        crc32: u32_at(&head, 16),
        compressed,
        size,
        local: local.saturating_add(dir.shift),
    })
}

/// The (id, data) fields of an extra block; a field cut short ends it.
fn extra_fields(mut extra: &[u8]) -> impl Iterator<Item = (u16, &[u8])> {
    std::iter::from_fn(move || {
        if extra.len() < 4 {
            return None;
        }
        let (id, len) = (u16_at(extra, 0), usize::from(u16_at(extra, 2)));
        let data = extra.get(4..4 + len)?;
        extra = &extra[4 + len..];
        Some((id, data))
    })
}

/// An entry's name as text: UTF-8 when its flag (bit 11) says so or its bytes
/// are UTF-8 (plain ASCII among them; many writers leave the flag unset),
/// else IBM code page 437, the zip format's own.
fn entry_text(raw: &[u8], flags: u16) -> String {
    if flags & (1 << 11) != 0 || std::str::from_utf8(raw).is_ok() {
        return escape_name(raw);
    }
    raw.iter()
        .map(|&b| match b {
            0x00..=0x7f => char::from(b),
            _ => CP437_HIGH[usize::from(b - 0x80)],
        })
        .collect()
}

/// Code page 437's characters for the bytes 0x80 to 0xFF.
const CP437_HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{a0}', //
];

/// Finds the end of the central directory: the last end record whose comment
/// reaches the file's end exactly (else the last one found), and its ZIP64
/// form when the record points to one.
fn directory<R: Read + Seek>(file: &mut Tracked<R>) -> Result<Directory, String> {
    let len = file
        .inner
        .seek(SeekFrom::End(0))
        .map_err(|e| e.to_string())?;
    file.pos = len;
    let tail_len = len.min(END_LEN + u64::from(u16::MAX));
    let tail_start = len - tail_len;
    file.go_to(tail_start).map_err(|e| e.to_string())?;
    let mut tail = Vec::with_capacity(tail_len as usize);
    (&mut *file)
        .take(tail_len)
        .read_to_end(&mut tail)
        .map_err(|e| e.to_string())?;
    let fits = |at: usize| at + END_LEN as usize <= tail.len();
    let candidates = || {
        tail.windows(4)
            .enumerate()
            .rev()
            .filter(|(at, w)| *w == END && fits(*at))
            .map(|(at, _)| at)
    };
    let exact = candidates()
        .find(|&at| at + END_LEN as usize + usize::from(u16_at(&tail, at + 20)) == tail.len());
    let Some(at) = exact.or_else(|| candidates().next()) else {
        return Err("no end-of-central-directory record".into());
    };
    let end = &tail[at..at + END_LEN as usize];
    let end_pos = tail_start + at as u64;
    // The numbers of this disk and of the directory's: 0 but in a split
    // archive (all ones: given in the ZIP64 record).
    if [u16_at(end, 4), u16_at(end, 6)]
        .iter()
        .any(|&disk| disk != 0 && disk != u16::MAX)
    {
        return Err("an archive split over several files is not read".into());
    }
    let plain = End {
        records: u64::from(u16_at(end, 10)),
        size: u64::from(u32_at(end, 12)),
        offset: u64::from(u32_at(end, 16)),
        at: end_pos,
    };
    let End {
        records,
        size,
        offset,
        at: end_start,
    } = zip64_end(file, end_pos)?.unwrap_or(plain);
    // The directory ends where its end record begins, and what lies before
    // the offset it gives is a program prepended to the archive; failing
    // that (bytes between the directory and its end record), the directory
    // is where the offset says.
    let ends_at_end = end_start
        .checked_sub(size)
        .and_then(|start| Some((start, start.checked_sub(offset)?)));
    for (start, shift) in ends_at_end.into_iter().chain([(offset, 0)]) {
        let mut sig = [0u8; 4];
        let holds_records = records == 0
            || (file.go_to(start).is_ok() && file.read_exact(&mut sig).is_ok() && sig == CENTRAL);
        if holds_records && start.saturating_add(size) <= end_start {
            return Ok(Directory {
                start,
                size,
                records,
                shift,
            });
        }
    }
    Err(format!(
        "no central directory where its end record puts it ({size} bytes at byte {offset})"
    ))
}

/// What an end record (plain or ZIP64) says of the central directory.
struct End {
    records: u64,
    size: u64,
    /// The directory's offset from the archive's first byte.
    offset: u64,
    /// Where the end record itself begins in the file.
    at: u64,
}

/// The ZIP64 end record, when the locator before the end record at
/// `end_pos` points to one.
fn zip64_end<R: Read + Seek>(file: &mut Tracked<R>, end_pos: u64) -> Result<Option<End>, String> {
    let Some(locator_pos) = end_pos.checked_sub(20) else {
        return Ok(None);
    };
    let mut locator = [0u8; 20];
    if file
        .go_to(locator_pos)
        .and_then(|()| file.read_exact(&mut locator))
        .is_err()
        || locator[..4] != END64_LOCATOR
    {
        return Ok(None);
    }
    let declared = u64_at(&locator, 8);
    // The ZIP64 end record lies just before its locator (56 bytes with no
    // extensible data); a stub shifts it and the offset given.
    let mut record = [0u8; 56];
    let at = locator_pos
        .checked_sub(56)
        .ok_or("a ZIP64 locator without its end record")?;
    let found = [at, declared].into_iter().find(|&pos| {
        file.go_to(pos)
            .and_then(|()| file.read_exact(&mut record))
            .is_ok()
            && record[..4] == END64
    });
    let Some(pos) = found else {
        return Err("a ZIP64 locator without its end record".into());
    };
    Ok(Some(End {
        records: u64_at(&record, 32),
        size: u64_at(&record, 40),
        offset: u64_at(&record, 48),
        at: pos,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_page_437_maps_as_the_standard_does() {
        // Spot checks from the code page's published table.
        assert_eq!(entry_text(&[0x80, 0x81, 0x9b, 0xe1, 0xff], 0), "Çü¢ß\u{a0}");
        // With the UTF-8 flag, bytes that are not UTF-8 are escaped.
        assert_eq!(entry_text(&[b'a', 0x80], 1 << 11), "a\\x80");
        // Without it, a UTF-8 name is kept.
        assert_eq!(entry_text("对局.sgf".as_bytes(), 0), "对局.sgf");
    }
}
