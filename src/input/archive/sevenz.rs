//! 7z archives (as Fox's game dataset is published), read without unpacking
//! to disk. The container (7-Zip's `7zFormat.txt`: a signature header, then a
//! header at the end of the file, often itself compressed) is parsed here,
//! with every count and size checked against the bytes that hold it; the
//! streams are decoded by liblzma (LZMA, LZMA2), flate2 (Deflate), bzip2
//! (BZip2) or copied. A block of any other method (PPMd, encrypted, filter
//! chains such as BCJ2) gets a row per game entry that says so.
//!
//! Protections, all decided from the headers before anything is decoded: the
//! header is at most [`MAX_HEADER`] bytes (a compressed header too); a block
//! may unpack to at most [`inflate_cap`] of its packed size (a bomb is refused
//! whole); the LZMA dictionary allocated is the block's unpacked size when the
//! header declares a larger one, and never more than [`MAX_DICTIONARY`]. The
//! decoders then never produce more than the sizes declared, and every entry
//! whose CRC is given is checked.

use std::borrow::Cow;
use std::io::{self, Read, Seek, SeekFrom};

use super::{
    entry_name, is_compressed_game_name, is_container_name, is_game_name, lzma_options, nested,
    unreadable, Sender, MAX_DICTIONARY,
};
use crate::input::error::{Action, InputError};
use crate::input::item::{inflate_cap, read_capped, Source, MAX_RATIO, RATIO_FLOOR};

/// The largest header read (packed or unpacked), as for a game file: 256 MiB
/// hold the names, sizes and times of about three million entries. The
/// header is in memory while the archive is read (packed and unpacked while
/// it is unpacked), with 6 bytes per entry and its name.
const MAX_HEADER: u64 = 256 << 20;
/// The most coders a block may chain (7-Zip writes at most four).
const MAX_CODERS: usize = 32;

/// The method of 7-Zip's encryption.
const AES: &[u8] = &[0x06, 0xF1, 0x07, 0x01];

const SIGNATURE: [u8; 6] = [b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C];

// Property identifiers of the header (7zFormat.txt).
const END: u8 = 0x00;
const HEADER: u8 = 0x01;
const ARCHIVE_PROPERTIES: u8 = 0x02;
const ADDITIONAL_STREAMS: u8 = 0x03;
const MAIN_STREAMS: u8 = 0x04;
const FILES_INFO: u8 = 0x05;
const PACK_INFO: u8 = 0x06;
const UNPACK_INFO: u8 = 0x07;
const SUBSTREAMS_INFO: u8 = 0x08;
const SIZE: u8 = 0x09;
const CRC: u8 = 0x0A;
const FOLDER: u8 = 0x0B;
const CODERS_UNPACK_SIZE: u8 = 0x0C;
const NUM_UNPACK_STREAM: u8 = 0x0D;
const EMPTY_STREAM: u8 = 0x0E;
const EMPTY_FILE: u8 = 0x0F;
const NAME: u8 = 0x11;
const ENCODED_HEADER: u8 = 0x17;

/// A damaged or unreadable header, in words for the report.
type Parse<T> = Result<T, String>;

/// The header's bytes, read with every length checked.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, at: 0 }
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Parse<u8> {
        let b = *self.bytes.get(self.at).ok_or("the header ends early")?;
        self.at += 1;
        Ok(b)
    }

    fn take(&mut self, n: u64) -> Parse<&'a [u8]> {
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.left())
            .ok_or("the header ends early")?;
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn u32(&mut self) -> Parse<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A 7z NUMBER: the first byte's leading one bits count the bytes that
    /// follow (little-endian), its other bits are the highest ones.
    fn number(&mut self) -> Parse<u64> {
        let first = self.byte()?;
        let mut value = 0u64;
        for i in 0..8 {
            let mask = 0x80u8 >> i;
            if first & mask == 0 {
                let high = u64::from(first & mask.wrapping_sub(1));
                return Ok(value | (high << (8 * i)));
            }
            value |= u64::from(self.byte()?) << (8 * i);
        }
        Ok(value)
    }

    /// A count of items that each take at least one byte of what is left
    /// (a size, a coder, a name): a larger one is a damaged (or hostile)
    /// header, refused before anything is allocated for it.
    fn count(&mut self) -> Parse<usize> {
        let n = self.number()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.left())
            .ok_or_else(|| format!("the header counts {n} items in {} bytes", self.left()))
    }

    fn expect(&mut self, id: u8, what: &str) -> Parse<()> {
        match self.byte()? {
            b if b == id => Ok(()),
            b => Err(format!("expected {what}, found property {b:#04x}")),
        }
    }

    /// `n` bits, the first in the highest bit of the first byte.
    fn bits(&mut self, n: usize) -> Parse<Vec<bool>> {
        let bytes = self.take(n.div_ceil(8) as u64)?;
        Ok((0..n)
            .map(|i| bytes[i / 8] & (0x80 >> (i % 8)) != 0)
            .collect())
    }

    /// `n` CRCs, some of which may be missing.
    fn digests(&mut self, n: usize) -> Parse<Vec<Option<u32>>> {
        let all = self.byte()? != 0;
        if all && n > self.left() / 4 {
            return Err(format!("{n} CRCs in {} bytes", self.left()));
        }
        let defined = if all { vec![true; n] } else { self.bits(n)? };
        defined
            .into_iter()
            .map(|d| if d { self.u32().map(Some) } else { Ok(None) })
            .collect()
    }
}

/// One coder of a block: its method and properties.
#[derive(Debug)]
struct Coder {
    method: Vec<u8>,
    properties: Vec<u8>,
    ins: u64,
    outs: u64,
}

/// A block ("folder"): coders turning packed streams into one unpacked
/// stream, which holds the data of one or more files in a row.
#[derive(Debug, Default)]
struct Block {
    coders: Vec<Coder>,
    /// How many packed streams it reads.
    packed: usize,
    /// The size of each coder output.
    unpack_sizes: Vec<u64>,
    /// The coder output no other coder reads: the block's own.
    main_output: usize,
    crc: Option<u32>,
    /// The files in it: size and CRC of each.
    files: Vec<(u64, Option<u32>)>,
}

impl Block {
    /// The size of the block's unpacked stream: the coder output no other
    /// coder reads (for a single coder, its only output).
    fn unpacked(&self) -> u64 {
        self.unpack_sizes
            .get(self.main_output)
            .copied()
            .unwrap_or(0)
    }
}

/// Where the packed streams lie and the blocks that read them.
#[derive(Debug, Default)]
struct Streams {
    /// Offset of the first packed stream after the signature header.
    pack_pos: u64,
    pack_sizes: Vec<u64>,
    blocks: Vec<Block>,
}

fn block(c: &mut Cursor) -> Parse<Block> {
    let n = c.count()?;
    if n == 0 || n > MAX_CODERS {
        return Err(format!("a block with {n} coders"));
    }
    let mut b = Block::default();
    for _ in 0..n {
        let flags = c.byte()?;
        if flags & 0x80 != 0 {
            return Err("a coder with alternative methods".into());
        }
        let method = c.take(u64::from(flags & 0x0F))?.to_vec();
        let (ins, outs) = if flags & 0x10 != 0 {
            (c.number()?, c.number()?)
        } else {
            (1, 1)
        };
        if ins > 32 || outs > 32 {
            return Err(format!("a coder with {ins} inputs and {outs} outputs"));
        }
        let properties = if flags & 0x20 != 0 {
            let len = c.number()?;
            c.take(len)?.to_vec()
        } else {
            Vec::new()
        };
        b.coders.push(Coder {
            method,
            properties,
            ins,
            outs,
        });
    }
    let outs: u64 = b.coders.iter().map(|k| k.outs).sum();
    let ins: u64 = b.coders.iter().map(|k| k.ins).sum();
    let pairs = outs.checked_sub(1).ok_or("a block without output")?;
    let mut bound = Vec::new();
    for _ in 0..pairs {
        c.number()?;
        bound.push(c.number()?);
    }
    b.main_output = (0..outs)
        .find(|o| !bound.contains(o))
        .ok_or("a block whose every output is read by another coder")? as usize;
    let packed = ins
        .checked_sub(pairs)
        .filter(|&p| p >= 1)
        .ok_or("a block without packed input")?;
    if packed > 1 {
        for _ in 0..packed {
            c.number()?;
        }
    }
    b.packed = packed as usize;
    b.unpack_sizes = vec![0; outs as usize];
    Ok(b)
}

fn streams(c: &mut Cursor) -> Parse<Streams> {
    let mut s = Streams::default();
    let mut id = c.byte()?;
    if id == PACK_INFO {
        s.pack_pos = c.number()?;
        let n = c.count()?;
        loop {
            match c.byte()? {
                END => break,
                SIZE => s.pack_sizes = (0..n).map(|_| c.number()).collect::<Parse<_>>()?,
                CRC => drop(c.digests(n)?),
                other => return Err(format!("unknown property {other:#04x} in the pack info")),
            }
        }
        if s.pack_sizes.len() != n {
            return Err("packed streams without sizes".into());
        }
        id = c.byte()?;
    }
    if id == UNPACK_INFO {
        c.expect(FOLDER, "the blocks")?;
        let n = c.count()?;
        if c.byte()? != 0 {
            return Err("blocks described elsewhere (external)".into());
        }
        s.blocks = (0..n).map(|_| block(c)).collect::<Parse<_>>()?;
        c.expect(CODERS_UNPACK_SIZE, "the unpacked sizes")?;
        for b in &mut s.blocks {
            for size in &mut b.unpack_sizes {
                *size = c.number()?;
            }
        }
        id = c.byte()?;
        if id == CRC {
            for (b, crc) in s.blocks.iter_mut().zip(c.digests(n)?) {
                b.crc = crc;
            }
            id = c.byte()?;
        }
        if id != END {
            return Err(format!("unknown property {id:#04x} in the blocks"));
        }
        id = c.byte()?;
    }
    // Without substream info, each block holds one file.
    for b in &mut s.blocks {
        b.files = vec![(b.unpacked(), b.crc)];
    }
    if id == SUBSTREAMS_INFO {
        substreams(c, &mut s.blocks)?;
        id = c.byte()?;
    }
    if id != END {
        return Err(format!("unknown property {id:#04x} in the streams"));
    }
    let needed: usize = s.blocks.iter().map(|b| b.packed).sum();
    if needed != s.pack_sizes.len() {
        return Err(format!(
            "{} packed streams for blocks that read {needed}",
            s.pack_sizes.len()
        ));
    }
    Ok(s)
}

/// How the blocks' unpacked streams divide into files.
fn substreams(c: &mut Cursor, blocks: &mut [Block]) -> Parse<()> {
    let mut counts = vec![1usize; blocks.len()];
    let mut id = c.byte()?;
    if id == NUM_UNPACK_STREAM {
        let mut total = 0usize;
        for n in &mut counts {
            *n = c.count()?;
            total = total.saturating_add(*n);
        }
        // Every file after a block's first takes a size, at least a byte.
        if total > c.left().saturating_add(blocks.len()) {
            return Err(format!("the header counts {total} files in its blocks"));
        }
        id = c.byte()?;
    }
    for (b, &n) in blocks.iter_mut().zip(&counts) {
        let whole = b.unpacked();
        let mut sizes = Vec::with_capacity(n);
        if n > 1 {
            if id != SIZE {
                return Err("a block of several files without their sizes".into());
            }
            for _ in 1..n {
                sizes.push(c.number()?);
            }
        }
        if n > 0 {
            let sum = sizes
                .iter()
                .try_fold(0u64, |a, &s| a.checked_add(s))
                .ok_or("file sizes overflow")?;
            sizes.push(
                whole
                    .checked_sub(sum)
                    .ok_or("the files of a block are larger than the block")?,
            );
        }
        let known = n == 1 && b.crc.is_some();
        b.files = sizes
            .into_iter()
            .map(|s| (s, if known { b.crc } else { None }))
            .collect();
    }
    if id == SIZE {
        id = c.byte()?;
    }
    loop {
        match id {
            END => return Ok(()),
            CRC => {
                let unknown = blocks
                    .iter()
                    .filter(|b| !(b.files.len() == 1 && b.crc.is_some()))
                    .map(|b| b.files.len())
                    .sum();
                let mut crcs = c.digests(unknown)?.into_iter();
                for b in blocks
                    .iter_mut()
                    .filter(|b| !(b.files.len() == 1 && b.crc.is_some()))
                {
                    for f in &mut b.files {
                        f.1 = crcs.next().flatten();
                    }
                }
            }
            other => return Err(format!("unknown property {other:#04x} in the files' sizes")),
        }
        id = c.byte()?;
    }
}

/// What an entry is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A file whose data lies in a block.
    Data,
    EmptyFile,
    Directory,
}

/// The entries of the archive, compact (a long list is held while the
/// archive is read): their names one after the other, where each ends, and
/// the kind of each.
#[derive(Default)]
struct Listing {
    text: String,
    ends: Vec<u32>,
    kinds: Vec<Kind>,
}

/// One entry of a [`Listing`].
struct Entry<'a> {
    name: Cow<'a, str>,
    kind: Kind,
}

impl Listing {
    fn entry(&self, i: usize) -> Entry<'_> {
        let start = match i.checked_sub(1) {
            None => Some(0),
            Some(before) => self.ends.get(before).copied(),
        };
        let name = match (start, self.ends.get(i)) {
            (Some(a), Some(&b)) => Cow::Borrowed(&self.text[a as usize..b as usize]),
            _ => Cow::Owned(format!("entry {}", i + 1)),
        };
        Entry {
            name,
            kind: self.kinds[i],
        }
    }

    fn iter(&self) -> impl Iterator<Item = Entry<'_>> {
        (0..self.kinds.len()).map(|i| self.entry(i))
    }
}

fn files_info(c: &mut Cursor) -> Parse<Listing> {
    let n = c.count()?;
    let mut listing = Listing {
        kinds: vec![Kind::Data; n],
        ..Listing::default()
    };
    loop {
        let kind = c.byte()?;
        if kind == END {
            break;
        }
        let size = c.number()?;
        let mut data = Cursor::new(c.take(size)?);
        match kind {
            // Entries without data are directories, unless marked empty files.
            EMPTY_STREAM => {
                for (k, empty) in listing.kinds.iter_mut().zip(data.bits(n)?) {
                    *k = if empty { Kind::Directory } else { Kind::Data };
                }
            }
            EMPTY_FILE => {
                let empties = listing.kinds.iter().filter(|&&k| k != Kind::Data).count();
                let mut files = data.bits(empties)?.into_iter();
                for k in listing.kinds.iter_mut().filter(|k| **k != Kind::Data) {
                    if files.next() == Some(true) {
                        *k = Kind::EmptyFile;
                    }
                }
            }
            NAME => {
                if data.byte()? != 0 {
                    return Err("names stored elsewhere (external)".into());
                }
                // UTF-16LE names, each ended by a zero unit.
                let mut units = data.bytes[data.at..]
                    .chunks_exact(2)
                    .map(|u| u16::from_le_bytes([u[0], u[1]]));
                listing.text.clear();
                listing.ends.clear();
                while listing.ends.len() < n {
                    let name = units.by_ref().take_while(|&u| u != 0);
                    let before = listing.text.len();
                    listing.text.extend(
                        char::decode_utf16(name).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)),
                    );
                    let end = u32::try_from(listing.text.len())
                        .map_err(|_| "names longer than 4 GiB".to_string())?;
                    if end == before as u32 && units.len() == 0 {
                        break;
                    }
                    listing.ends.push(end);
                }
            }
            // Times, attributes, padding: nothing a game is judged by.
            _ => {}
        }
    }
    Ok(listing)
}

/// What the header says: the blocks and the entries.
struct Contents {
    streams: Streams,
    entries: Listing,
}

fn header(c: &mut Cursor) -> Parse<Contents> {
    let mut id = c.byte()?;
    if id == ARCHIVE_PROPERTIES {
        loop {
            if c.byte()? == END {
                break;
            }
            let len = c.number()?;
            c.take(len)?;
        }
        id = c.byte()?;
    }
    if id == ADDITIONAL_STREAMS {
        return Err("additional header streams are not read".into());
    }
    let mut s = Streams::default();
    if id == MAIN_STREAMS {
        s = streams(c)?;
        id = c.byte()?;
    }
    let mut entries = Listing::default();
    if id == FILES_INFO {
        entries = files_info(c)?;
        id = c.byte()?;
    }
    if id != END {
        return Err(format!("unknown property {id:#04x} in the header"));
    }
    let with_data = entries.kinds.iter().filter(|&&k| k == Kind::Data).count();
    let files: usize = s.blocks.iter().map(|b| b.files.len()).sum();
    if with_data != files {
        return Err(format!(
            "{with_data} entries hold data but the blocks hold {files} files"
        ));
    }
    Ok(Contents {
        streams: s,
        entries,
    })
}

/// A method's name, for reports.
fn method_name(id: &[u8]) -> String {
    match id {
        [0x00] => "Copy".into(),
        [0x21] => "LZMA2".into(),
        [0x03, 0x01, 0x01] => "LZMA".into(),
        [0x03, 0x04, 0x01] => "PPMd".into(),
        [0x04, 0x01, 0x08] => "Deflate".into(),
        [0x04, 0x01, 0x09] => "Deflate64".into(),
        [0x04, 0x02, 0x02] => "BZip2".into(),
        [0x03, 0x03, 0x01, 0x03] => "BCJ".into(),
        [0x03, 0x03, 0x01, 0x1B] => "BCJ2".into(),
        AES => "AES-256 (encrypted)".into(),
        other => other.iter().map(|b| format!("{b:02X}")).collect(),
    }
}

/// The dictionary an LZMA or LZMA2 coder declares.
fn dictionary(coder: &Coder) -> Option<u64> {
    match (&coder.method[..], &coder.properties[..]) {
        ([0x03, 0x01, 0x01], [_, a, b, c, d]) => {
            Some(u64::from(u32::from_le_bytes([*a, *b, *c, *d])))
        }
        ([0x21], [p]) if *p <= 40 => Some(if *p == 40 {
            u64::from(u32::MAX)
        } else {
            (2 | u64::from(p & 1)) << (p / 2 + 11)
        }),
        _ => None,
    }
}

/// Why a block cannot be decoded, found from the header alone.
fn refused(b: &Block, packed: u64) -> Option<InputError> {
    if b.coders.iter().any(|k| k.method == AES) {
        return Some(InputError::SevenZipEntry(
            "it is encrypted (AES-256): not read".into(),
        ));
    }
    let [coder] = &b.coders[..] else {
        let names: Vec<String> = b.coders.iter().map(|k| method_name(&k.method)).collect();
        return Some(InputError::SevenZipEntry(format!(
            "its block chains {} coders ({}); only blocks of one coder (Copy, LZMA, LZMA2, \
             Deflate, BZip2) are read",
            names.len(),
            names.join(", ")
        )));
    };
    if coder.ins != 1 || coder.outs != 1 {
        return Some(InputError::SevenZipEntry(format!(
            "its block's {} coder has several streams",
            method_name(&coder.method)
        )));
    }
    if b.unpacked() > inflate_cap(packed) {
        return Some(InputError::Bomb(format!(
            "its 7z block claims to unpack {packed} bytes into {} ({MAX_RATIO} times and {} MiB \
             at most)",
            b.unpacked(),
            RATIO_FLOOR >> 20
        )));
    }
    if let Some(dict) = dictionary(coder) {
        // The decoder needs no more dictionary than the bytes it will produce.
        let need = dict.min(b.unpacked());
        if need > MAX_DICTIONARY {
            return Some(InputError::SevenZipEntry(format!(
                "its block needs a {} MiB LZMA dictionary, more than the {} MiB allowed",
                need >> 20,
                MAX_DICTIONARY >> 20
            )));
        }
    }
    None
}

/// A decoder of a block's one coder over its packed bytes.
fn decoder<'a>(b: &Block, packed: impl Read + 'a) -> Result<Box<dyn Read + 'a>, InputError> {
    let coder = &b.coders[0];
    let unsupported = || {
        InputError::SevenZipEntry(format!(
            "the compression method {} is not read",
            method_name(&coder.method)
        ))
    };
    let lzma = |two: bool| -> Result<liblzma::stream::Stream, InputError> {
        let dict = dictionary(coder).ok_or_else(unsupported)?;
        // The bound is checked in `refused`.
        let dict = dict.min(b.unpacked());
        let lclppb = (!two).then(|| coder.properties[0]);
        let options = lzma_options(dict, lclppb).ok_or_else(unsupported)?;
        let mut filters = liblzma::stream::Filters::new();
        if two {
            filters.lzma2(&options);
        } else {
            filters.lzma1(&options);
        }
        liblzma::stream::Stream::new_raw_decoder(&filters)
            .map_err(|e| InputError::SevenZipEntry(format!("the LZMA decoder refused: {e}")))
    };
    match &coder.method[..] {
        [0x00] => Ok(Box::new(packed)),
        [0x21] => Ok(Box::new(liblzma::read::XzDecoder::new_stream(
            packed,
            lzma(true)?,
        ))),
        [0x03, 0x01, 0x01] => Ok(Box::new(liblzma::read::XzDecoder::new_stream(
            packed,
            lzma(false)?,
        ))),
        [0x04, 0x01, 0x08] => Ok(Box::new(flate2::read::DeflateDecoder::new(packed))),
        [0x04, 0x02, 0x02] => Ok(Box::new(bzip2::read::MultiBzDecoder::new(packed))),
        _ => Err(unsupported()),
    }
}

/// Reads the header at the end of the file (decoding it when packed).
fn contents<R: Read + Seek>(file: &mut R) -> Result<Contents, InputError> {
    let bad = InputError::NotSevenZip;
    let mut start = [0u8; 32];
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_exact(&mut start))
        .map_err(|e| bad(format!("no signature header ({e})")))?;
    if start[..6] != SIGNATURE {
        return Err(bad("no 7z signature".into()));
    }
    if crc32fast::hash(&start[12..32])
        != u32::from_le_bytes([start[8], start[9], start[10], start[11]])
    {
        return Err(bad("the signature header's CRC does not match".into()));
    }
    let word = |i: usize| u64::from_le_bytes(start[i..i + 8].try_into().unwrap_or([0; 8]));
    let (offset, size) = (word(12), word(20));
    let crc = u32::from_le_bytes([start[28], start[29], start[30], start[31]]);
    if size == 0 {
        return Ok(Contents {
            streams: Streams::default(),
            entries: Listing::default(),
        });
    }
    if size > MAX_HEADER {
        return Err(InputError::Bomb(format!(
            "the 7z header claims {size} bytes (at most {} MiB are read)",
            MAX_HEADER >> 20
        )));
    }
    let len = file
        .seek(SeekFrom::End(0))
        .map_err(|e| InputError::io(&e, Action::Read))?;
    let at = offset
        .checked_add(32)
        .filter(|at| at.checked_add(size).is_some_and(|end| end <= len));
    let at =
        at.ok_or_else(|| bad("the header lies beyond the end of the file (cut short?)".into()))?;
    file.seek(SeekFrom::Start(at))
        .map_err(|e| InputError::io(&e, Action::Read))?;
    let mut bytes = read_capped(file.by_ref().take(size), size, size, Action::Read)?;
    if crc32fast::hash(&bytes) != crc {
        return Err(bad("the header's CRC does not match".into()));
    }
    // A packed header is described by streams of its own; what it unpacks
    // to is the real header (7-Zip packs it once).
    for _ in 0..4 {
        let mut c = Cursor::new(&bytes);
        match c.byte().map_err(bad)? {
            HEADER => return header(&mut c).map_err(bad),
            ENCODED_HEADER => {}
            other => return Err(bad(format!("unknown header kind {other:#04x}"))),
        }
        let s = streams(&mut c).map_err(bad)?;
        let ([b], [packed]) = (&s.blocks[..], &s.pack_sizes[..]) else {
            return Err(bad("a packed header in several blocks".into()));
        };
        match refused(b, *packed) {
            Some(InputError::SevenZipEntry(why) | InputError::Bomb(why)) => {
                return Err(bad(format!("its header cannot be unpacked: {why}")))
            }
            Some(other) => return Err(other),
            None => {}
        }
        if b.unpacked() > MAX_HEADER {
            return Err(InputError::Bomb(format!(
                "the 7z header unpacks to {} bytes (at most {} MiB are read)",
                b.unpacked(),
                MAX_HEADER >> 20
            )));
        }
        let start = s
            .pack_pos
            .checked_add(32)
            .ok_or_else(|| bad("the packed header lies beyond the file".into()))?;
        file.seek(SeekFrom::Start(start))
            .map_err(|e| InputError::io(&e, Action::Read))?;
        let r = decoder(b, file.by_ref().take(*packed))?;
        let want = b.unpacked();
        let unpacked = read_capped(r.take(want), want, want, Action::Read)
            .map_err(|e| bad(format!("its header cannot be unpacked: {e}")))?;
        if unpacked.len() as u64 != want
            || b.crc.is_some_and(|crc| crc32fast::hash(&unpacked) != crc)
        {
            return Err(bad("its packed header is damaged".into()));
        }
        bytes = unpacked;
    }
    Err(bad("a header packed too many times".into()))
}

/// Counts what is read through it and the CRC of it.
struct Checked<R> {
    inner: R,
    crc: crc32fast::Hasher,
    read: u64,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        self.read += n as u64;
        Ok(n)
    }
}

/// A [`Checked`] entry piped to the walk: at its end, a block that ends
/// before the entry's `size` bytes or a CRC-32 that differs is the error
/// that ends it, as it is the row of an entry read whole.
struct Ending<'a, R> {
    body: &'a mut Checked<R>,
    size: u64,
    crc: Option<u32>,
}

impl<R: Read> Read for Ending<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.body.read(buf)?;
        if n == 0 && !buf.is_empty() {
            let why = if self.body.read != self.size {
                format!("the block ends {} bytes early", self.size - self.body.read)
            } else if self
                .crc
                .is_some_and(|c| c != self.body.crc.clone().finalize())
            {
                "its CRC does not match".into()
            } else {
                return Ok(0);
            };
            return Err(InputError::Unpack(why).into_io());
        }
        Ok(n)
    }
}

/// Reads the entries of a 7z archive and hands each game (and each archive
/// inside it) to `out`, in the archive's order.
pub(super) fn read_7z<R: Read + Seek>(mut file: R, name: &str, out: &mut Sender) {
    let mark = out.mark();
    let Contents { streams, entries } = match contents(&mut file) {
        Ok(c) => c,
        Err(why) => return unreadable(out, name, why),
    };
    let mut entries = entries.iter();
    let mut pack_at = streams.pack_pos.saturating_add(32);
    let mut pack_sizes = streams.pack_sizes.iter();
    // Entries without data (empty files, directories) come in the archive's
    // order between the ones with data.
    let send_empty = |entry: &Entry, out: &mut Sender| -> bool {
        if entry.kind == Kind::Directory
            || !is_game_name(&entry.name)
            || out.leaves_out(&entry.name)
        {
            return true;
        }
        // An empty compressed game file is no compressed data.
        let source = if is_container_name(&entry.name) {
            nested(out, name, &entry.name, io::empty(), 0)
        } else {
            None
        }
        .unwrap_or(Source::Bytes(Vec::new()));
        out.send(entry_name(name, &entry.name), source)
    };
    for b in &streams.blocks {
        let packed: u64 = pack_sizes
            .by_ref()
            .take(b.packed)
            .fold(0u64, |a, &s| a.saturating_add(s));
        let here = pack_at;
        pack_at = pack_at.saturating_add(packed);
        // Why the rest of the block cannot be read, once that is known.
        let mut broken = refused(b, packed);
        let mut reader = None;
        if broken.is_none() {
            match file.seek(SeekFrom::Start(here)) {
                Ok(_) => match decoder(b, file.by_ref().take(packed)) {
                    Ok(r) => reader = Some(r),
                    Err(e) => broken = Some(e),
                },
                Err(e) => broken = Some(InputError::io(&e, Action::Read)),
            }
        }
        for &(size, crc) in &b.files {
            let Some(entry) = entries
                .by_ref()
                .find(|e| e.kind == Kind::Data || !send_empty(e, out))
            else {
                return;
            };
            if entry.kind != Kind::Data {
                // `send_empty` failed: the run stopped.
                return;
            }
            let wanted = (is_game_name(&entry.name) || is_container_name(&entry.name))
                && !out.leaves_out(&entry.name);
            let source = match (&broken, reader.as_mut()) {
                (None, Some(r)) => {
                    let mut body = Checked {
                        inner: r.take(size),
                        crc: crc32fast::Hasher::new(),
                        read: 0,
                    };
                    // A piped entry is sent before it is read: what goes wrong
                    // with it ends it in the pipe, and no row follows.
                    let mut piped = wanted && !is_container_name(&entry.name) && out.pipes(size);
                    let source = if !wanted {
                        None
                    } else if is_compressed_game_name(&entry.name) {
                        // Piped when it inflates past a collection read
                        // whole, and then ended by the block's damage too.
                        let ending = Ending {
                            body: &mut body,
                            size,
                            crc,
                        };
                        let source = nested(out, name, &entry.name, ending, size);
                        piped = source.is_none();
                        source
                    } else if is_container_name(&entry.name) {
                        nested(out, name, &entry.name, &mut body, size)
                    } else if piped {
                        let at = entry_name(name, &entry.name);
                        let ending = Ending {
                            body: &mut body,
                            size,
                            crc,
                        };
                        if !out.game(at, ending, size) {
                            return;
                        }
                        None
                    } else {
                        Some(out.read(&mut body, size))
                    };
                    let wanted = wanted && !piped;
                    // Whatever was not read (a file not wanted, one too
                    // large) is decoded and dropped to reach the next.
                    let rest = io::copy(&mut body, &mut io::sink());
                    // A decoder error or an early end loses the rest of the
                    // block; a wrong CRC only this entry.
                    let lost = match rest {
                        Err(e) => Some(e.to_string()),
                        Ok(_) if body.read != size => {
                            Some(format!("the block ends {} bytes early", size - body.read))
                        }
                        Ok(_) => None,
                    };
                    let wrong_crc = crc.is_some_and(|c| c != body.crc.clone().finalize());
                    if let Some(why) = lost {
                        broken = Some(InputError::Unpack(format!(
                            "an earlier entry of the same 7z block is damaged ({why})"
                        )));
                        wanted.then_some(Source::Broken(InputError::Unpack(why)))
                    } else if wrong_crc {
                        wanted.then(|| {
                            Source::Broken(InputError::Unpack("its CRC does not match".into()))
                        })
                    } else {
                        source
                    }
                }
                (Some(why), _) => wanted.then(|| Source::Broken(why.clone())),
                (None, None) => None,
            };
            if let Some(source) = source {
                if !out.send(entry_name(name, &entry.name), source) {
                    return;
                }
            }
        }
    }
    for entry in entries {
        if !send_empty(&entry, out) {
            return;
        }
    }
    out.none_sent(name, mark);
}
