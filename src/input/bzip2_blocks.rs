//! bzip2 decoded block by block on threads of its own (one or several:
//! the same bytes and errors whatever the count).
//!
//! A bzip2 stream is a header (`BZh1` to `BZh9`) and blocks that each
//! begin with the 48-bit magic `0x314159265359`, at any bit position, and
//! decode on their own; an end marker (`0x177245385090`) and the CRC of the
//! whole stream close it, and another stream may follow. [`BlockDecoder`]
//! finds the blocks by their magic, turns each into a stream of its own (the
//! header, the block's bits, an end marker carrying the block's own CRC) and
//! has up to two blocks per thread decoded ahead of the reader, handing the
//! bytes on in their order. It checks each stream's CRC at its end marker,
//! as a sequential decoder does.
//!
//! The magic can occur inside a block's data by chance (once in 2^48 bit
//! positions): a piece that fails to decode is joined to the next and
//! decoded again before the stream is called damaged. A block that decodes
//! to more than [`PIECE_CAP`] (long runs of one byte, as a bomb has) is
//! decoded as a stream by the reader, so memory stays bounded: at most
//! [`PIECE_CAP`] per piece in flight. Errors carry the sequential
//! decoder's words.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

const BLOCK_MAGIC: u64 = 0x3141_5926_5359;
const END_MAGIC: u64 = 0x1772_4538_5090;
const MAGIC_BITS: u64 = 48;
const MAGIC_MASK: u64 = (1 << MAGIC_BITS) - 1;
/// The most one piece may decode to in memory; a larger one is decoded as
/// a stream by the reader.
pub const PIECE_CAP: usize = 8 << 20;
/// No block of a bzip2 stream (at most 900,000 bytes before compression)
/// takes this many compressed bytes: a stretch this long without a marker
/// is not bzip2.
const MAX_PIECE_BYTES: usize = 4 << 20;
/// Compressed bytes read at a time.
const CHUNK: usize = 256 << 10;
/// Pieces joined again, at most, when one fails to decode.
const JOINS: usize = 3;

/// The sequential decoder's words for its errors.
fn data_error() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "bzip2: invalid data")
}

fn header_error() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "bzip2: bz2 header missing")
}

fn eof_error() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "decompression not finished but EOF reached",
    )
}

/// Bits `start..end` of `bytes` (bit 0 is the first byte's highest bit).
#[derive(Clone, Debug)]
struct Bits {
    bytes: Arc<Vec<u8>>,
    start: u64,
    end: u64,
}

/// One block, or a block and the pieces joined to it.
#[derive(Clone, Debug)]
struct Piece {
    /// The block size digit of the stream's header (1 to 9).
    level: u8,
    bits: Vec<Bits>,
    /// The CRC the block declares (the 32 bits after its magic).
    crc: u32,
    /// The input ended before the block did.
    cut: bool,
}

impl Piece {
    /// The piece as a stream of its own: header, bits, end marker.
    fn stream(&self) -> Vec<u8> {
        let bits: u64 = self.bits.iter().map(|b| b.end - b.start).sum();
        let mut w = BitWriter::with_capacity(usize::try_from(bits / 8 + 16).unwrap_or(0));
        for &b in b"BZh" {
            w.push(u64::from(b), 8);
        }
        w.push(u64::from(b'0' + self.level), 8);
        for b in &self.bits {
            w.copy(&b.bytes, b.start, b.end);
        }
        w.push(END_MAGIC, 48);
        w.push(u64::from(self.crc), 32);
        w.finish()
    }

    /// This piece with `next` joined after it.
    fn join(&self, next: &Piece) -> Piece {
        let mut bits = self.bits.clone();
        bits.extend(next.bits.iter().cloned());
        Piece {
            level: self.level,
            bits,
            crc: self.crc,
            cut: next.cut,
        }
    }
}

/// Writes bits, highest first.
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    pending: u32,
}

impl BitWriter {
    fn with_capacity(n: usize) -> BitWriter {
        BitWriter {
            out: Vec::with_capacity(n),
            acc: 0,
            pending: 0,
        }
    }

    /// The low `n` bits of `v` (n at most 48).
    fn push(&mut self, v: u64, n: u32) {
        self.acc = (self.acc << n) | (v & ((1u64 << n) - 1));
        self.pending += n;
        while self.pending >= 8 {
            self.pending -= 8;
            self.out.push((self.acc >> self.pending) as u8);
        }
        self.acc &= (1u64 << self.pending) - 1;
    }

    /// Bits `start..end` of `bytes`.
    fn copy(&mut self, bytes: &[u8], start: u64, end: u64) {
        let mut at = start;
        while at < end && !at.is_multiple_of(8) {
            self.push(bit(bytes, at), 1);
            at += 1;
        }
        while at + 8 <= end {
            let byte = bytes.get((at / 8) as usize).copied().unwrap_or(0);
            self.push(u64::from(byte), 8);
            at += 8;
        }
        while at < end {
            self.push(bit(bytes, at), 1);
            at += 1;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.pending > 0 {
            let n = 8 - self.pending;
            self.push(0, n);
        }
        self.out
    }
}

fn bit(bytes: &[u8], at: u64) -> u64 {
    let byte = bytes.get((at / 8) as usize).copied().unwrap_or(0);
    u64::from(byte >> (7 - at % 8)) & 1
}

/// What the scanner finds next in the compressed stream.
enum Found {
    Block(Piece),
    /// A stream's end marker, with the CRC it declares for the stream.
    End(u32),
}

/// Finds the blocks of the compressed input, reading it a chunk at a time.
struct Scanner<R> {
    src: R,
    /// Compressed bytes from absolute byte `base` on.
    buf: Vec<u8>,
    base: u64,
    eof: bool,
    /// Absolute bit where the next marker (or stream header) lies.
    pos: u64,
    /// The block size digit of the stream being read; `None` between
    /// streams.
    level: Option<u8>,
    /// Stream headers read.
    streams: u32,
}

impl<R: Read> Scanner<R> {
    fn new(src: R) -> Scanner<R> {
        Scanner {
            src,
            buf: Vec::new(),
            base: 0,
            eof: false,
            pos: 0,
            level: None,
            streams: 0,
        }
    }

    /// Absolute bits held, up to the end of the buffer.
    fn end_bit(&self) -> u64 {
        (self.base + self.buf.len() as u64) * 8
    }

    /// Reads another chunk; false at the end of the input.
    fn more(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Bytes before the next marker's byte are done with.
        let keep_from = (self.pos / 8).saturating_sub(self.base) as usize;
        if keep_from > 0 {
            self.buf.drain(..keep_from.min(self.buf.len()));
            self.base += keep_from as u64;
        }
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let n = loop {
            match self.src.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// Makes sure bits up to `bit` are held, when the input has them.
    fn fill_to(&mut self, bit: u64) -> io::Result<bool> {
        while self.end_bit() < bit {
            if !self.more()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The `n` bits (at most 56) at absolute bit `at`, which are held.
    fn read_bits(&self, at: u64, n: u32) -> u64 {
        let mut v = 0u64;
        let rel = at - self.base * 8;
        for i in 0..u64::from(n) {
            v = (v << 1) | bit(&self.buf, rel + i);
        }
        v
    }

    /// The next marker at or after absolute bit `from`, or the end of the
    /// input (`None`).
    fn next_marker(&mut self, from: u64) -> io::Result<Option<u64>> {
        let mut searched = from;
        loop {
            let start_byte = (searched / 8).saturating_sub(self.base) as usize;
            let mut acc = 0u64;
            let mut held = 0u64;
            for (i, &byte) in self.buf.iter().enumerate().skip(start_byte) {
                acc = (acc << 8) | u64::from(byte);
                held += 8;
                // Windows ending r bits before this byte's end, from the
                // earliest start to the latest.
                for r in (0..8u64).rev() {
                    if MAGIC_BITS + r > held {
                        continue;
                    }
                    let window = (acc >> r) & MAGIC_MASK;
                    if window == BLOCK_MAGIC || window == END_MAGIC {
                        let at = (self.base + i as u64) * 8 + 8 - r - MAGIC_BITS;
                        if at >= from {
                            return Ok(Some(at));
                        }
                    }
                }
            }
            // Search the held bits' last window again once more arrive.
            searched = self.end_bit().saturating_sub(MAGIC_BITS + 8).max(from);
            if self.end_bit() - from > (MAX_PIECE_BYTES as u64) * 8 {
                return Err(data_error());
            }
            if !self.more()? {
                return Ok(None);
            }
        }
    }

    /// The next block or end marker; `None` at the end of the input.
    fn next(&mut self) -> io::Result<Option<Found>> {
        let level = match self.level {
            Some(level) => level,
            None => {
                // A stream header, on a byte boundary.
                if !self.fill_to(self.pos + 32)? {
                    let held = (self.end_bit() - self.pos) / 8;
                    if held == 0 && self.streams > 0 {
                        return Ok(None);
                    }
                    // Cut inside a header (or no stream at all), as the
                    // sequential decoder tells them apart.
                    let head = self.read_bits(self.pos, (held * 8) as u32);
                    let valid = [0x42, 0x5a, 0x68, 0x31];
                    let prefix = (0..held).all(|i| {
                        let byte = (head >> (8 * (held - 1 - i))) as u8;
                        byte == valid[i as usize] || (i == 3 && (b'1'..=b'9').contains(&byte))
                    });
                    return Err(if prefix { eof_error() } else { header_error() });
                }
                let head = self.read_bits(self.pos, 32);
                let digit = (head & 0xff) as u8;
                if head >> 8 != 0x42_5a_68 || !(b'1'..=b'9').contains(&digit) {
                    return Err(header_error());
                }
                self.pos += 32;
                self.streams += 1;
                self.level = Some(digit - b'0');
                digit - b'0'
            }
        };
        if !self.fill_to(self.pos + MAGIC_BITS + 32)? {
            return Err(eof_error());
        }
        let marker = self.read_bits(self.pos, 48);
        let crc = self.read_bits(self.pos + MAGIC_BITS, 32) as u32;
        if marker == END_MAGIC {
            self.pos = (self.pos + MAGIC_BITS + 32).div_ceil(8) * 8;
            self.level = None;
            return Ok(Some(Found::End(crc)));
        }
        if marker != BLOCK_MAGIC {
            return Err(data_error());
        }
        let start = self.pos;
        let (end, cut) = match self.next_marker(start + MAGIC_BITS + 32)? {
            Some(end) => (end, false),
            None => (self.end_bit(), true),
        };
        let first = start / 8;
        let last = end.div_ceil(8);
        let bytes = self.buf[(first - self.base) as usize..(last - self.base) as usize].to_vec();
        self.pos = end;
        Ok(Some(Found::Block(Piece {
            level,
            bits: vec![Bits {
                bytes: Arc::new(bytes),
                start: start - first * 8,
                end: end - first * 8,
            }],
            crc,
            cut,
        })))
    }
}

/// A piece decoded.
enum Decoded {
    Bytes(Vec<u8>),
    /// More than the cap: to be decoded as a stream.
    Large,
}

/// Decodes a piece into memory, up to `cap` bytes.
fn decode(piece: &Piece, cap: usize) -> io::Result<Decoded> {
    if piece.cut {
        return Err(eof_error());
    }
    let stream = piece.stream();
    let mut d = bzip2::Decompress::new(false);
    let mut out = Vec::with_capacity((usize::from(piece.level) * 100_000 + 4096).min(cap));
    loop {
        let consumed = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
        let input = stream.get(consumed..).unwrap_or(&[]);
        let before = (d.total_in(), out.len());
        let status = d
            .decompress_vec(input, &mut out)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        if status == bzip2::Status::StreamEnd {
            return Ok(Decoded::Bytes(out));
        }
        if out.len() >= cap {
            return Ok(Decoded::Large);
        }
        if out.len() == out.capacity() {
            out.reserve((out.len()).min(cap - out.len()).max(4096));
        } else if (d.total_in(), out.len()) == before {
            return Err(eof_error());
        }
    }
}

type Job = (Piece, SyncSender<io::Result<Decoded>>);

/// What the reader takes next, in input order.
enum Pending {
    Block(Piece, Receiver<io::Result<Decoded>>),
    End(u32),
    Failed(io::Error),
}

/// What is being handed out.
enum Serving {
    Nothing,
    Bytes(Vec<u8>, usize),
    Stream(Box<bzip2::read::BzDecoder<io::Cursor<Vec<u8>>>>),
}

/// A bzip2 reader (concatenated streams read to the end, as `bzcat`
/// does) that decodes blocks on threads of its own.
pub struct BlockDecoder<R> {
    scanner: Scanner<R>,
    jobs: Option<Sender<Job>>,
    threads: Vec<JoinHandle<()>>,
    queue: VecDeque<Pending>,
    ahead: usize,
    scanned_all: bool,
    serving: Serving,
    /// The CRC of the stream so far, from its blocks' CRCs.
    combined: u32,
}

impl<R: Read> BlockDecoder<R> {
    /// Decodes `src` on `threads` threads (at least one).
    pub fn new(src: R, threads: usize) -> BlockDecoder<R> {
        let threads = threads.max(1);
        let (tx, rx) = channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let handles = (0..threads)
            .filter_map(|_| {
                let rx = Arc::clone(&rx);
                thread::Builder::new()
                    .name("sgfaudit-bzip2".into())
                    .spawn(move || loop {
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok((piece, done)) = job else { return };
                        let _ = done.send(decode(&piece, PIECE_CAP));
                    })
                    .ok()
            })
            .collect::<Vec<_>>();
        BlockDecoder {
            scanner: Scanner::new(src),
            // Without a thread, pieces are decoded by the reader.
            jobs: (!handles.is_empty()).then_some(tx),
            threads: handles,
            queue: VecDeque::new(),
            ahead: 2 * threads,
            scanned_all: false,
            serving: Serving::Nothing,
            combined: 0,
        }
    }

    /// Hands a piece to a decoding thread (or decodes it here when no
    /// thread could be started).
    fn submit(&self, piece: Piece) -> Pending {
        let (done, result) = sync_channel(1);
        // The reader keeps the piece's description (its bytes are shared)
        // to join it to the next if it fails.
        let kept = piece.clone();
        let sent = match &self.jobs {
            Some(jobs) => jobs.send((piece, done)).map_err(|e| e.0),
            None => Err((piece, done)),
        };
        if let Err((piece, done)) = sent {
            let _ = done.send(decode(&piece, PIECE_CAP));
        }
        Pending::Block(kept, result)
    }

    /// Scans ahead until `ahead` pieces are in flight or the input ends.
    fn fill(&mut self) {
        while self.queue.len() < self.ahead && !self.scanned_all {
            let next = match self.scanner.next() {
                Ok(Some(Found::Block(piece))) => self.submit(piece),
                Ok(Some(Found::End(crc))) => Pending::End(crc),
                Ok(None) => {
                    self.scanned_all = true;
                    continue;
                }
                Err(e) => {
                    self.scanned_all = true;
                    Pending::Failed(e)
                }
            };
            self.queue.push_back(next);
        }
    }

    /// Starts handing out `piece`, decoded as `decoded`.
    fn serve(&mut self, piece: &Piece, decoded: Decoded) {
        self.combined = self.combined.rotate_left(1) ^ piece.crc;
        self.serving = match decoded {
            Decoded::Bytes(bytes) => Serving::Bytes(bytes, 0),
            Decoded::Large => Serving::Stream(Box::new(bzip2::read::BzDecoder::new(
                io::Cursor::new(piece.stream()),
            ))),
        };
    }

    /// A piece that failed: joined to the pieces after it, at most
    /// [`JOINS`] times, in case its end was magic found by chance inside
    /// its block; the first error when none decodes.
    fn rescue(&mut self, piece: Piece, error: io::Error) -> io::Result<()> {
        let mut joined = piece;
        for _ in 0..JOINS {
            self.fill();
            let next = match self.queue.front() {
                Some(Pending::Block(next, _)) => next.clone(),
                _ => break,
            };
            self.queue.pop_front();
            joined = joined.join(&next);
            if let Ok(decoded) = decode(&joined, PIECE_CAP) {
                self.serve(&joined, decoded);
                return Ok(());
            }
        }
        Err(error)
    }

    /// Stops after an error: nothing more is read.
    fn fail(&mut self, e: io::Error) -> io::Error {
        self.queue.clear();
        self.scanned_all = true;
        e
    }
}

impl<R: Read> Read for BlockDecoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match &mut self.serving {
                Serving::Bytes(bytes, at) if *at < bytes.len() => {
                    let n = buf.len().min(bytes.len() - *at);
                    buf[..n].copy_from_slice(&bytes[*at..*at + n]);
                    *at += n;
                    return Ok(n);
                }
                Serving::Stream(stream) => match stream.read(buf) {
                    Ok(0) => self.serving = Serving::Nothing,
                    Ok(n) => return Ok(n),
                    Err(e) => return Err(self.fail(e)),
                },
                _ => self.serving = Serving::Nothing,
            }
            self.fill();
            match self.queue.pop_front() {
                None => return Ok(0),
                Some(Pending::Failed(e)) => return Err(self.fail(e)),
                Some(Pending::End(crc)) => {
                    if crc != self.combined {
                        return Err(self.fail(data_error()));
                    }
                    self.combined = 0;
                }
                Some(Pending::Block(piece, result)) => {
                    let decoded = result.recv().unwrap_or_else(|_| {
                        Err(io::Error::other(
                            "internal error: a bzip2 decoding thread ended",
                        ))
                    });
                    match decoded {
                        Ok(decoded) => self.serve(&piece, decoded),
                        Err(e) => {
                            if let Err(e) = self.rescue(piece, e) {
                                return Err(self.fail(e));
                            }
                        }
                    }
                }
            }
        }
    }
}

impl<R> Drop for BlockDecoder<R> {
    fn drop(&mut self) {
        // With the job channel closed, each thread ends after its job.
        self.jobs = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn compress(data: &[u8], level: u32) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(level));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn sequential(data: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        bzip2::read::MultiBzDecoder::new(data).read_to_end(&mut out)?;
        Ok(out)
    }

    fn parallel(data: &[u8], threads: usize) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        BlockDecoder::new(data, threads).read_to_end(&mut out)?;
        Ok(out)
    }

    /// Bytes that compress into many blocks at level 1 (100 kB each).
    fn text(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b"(;B[dd];W[pp])
"[(x % 15) as usize]
            })
            .collect()
    }

    #[test]
    fn many_blocks_decode_to_what_the_sequential_decoder_gives() {
        let data = text(1_500_000, 7);
        for level in [1, 9] {
            let z = compress(&data, level);
            for threads in [1, 2, 3] {
                assert_eq!(parallel(&z, threads).unwrap(), data, "level {level}");
            }
        }
    }

    #[test]
    fn concatenated_streams_and_empty_input_are_read_to_the_end() {
        let (a, b) = (text(350_000, 1), text(10, 2));
        let mut z = compress(&a, 1);
        z.extend(compress(&b, 9));
        z.extend(compress(b"", 5));
        let mut both = a.clone();
        both.extend(&b);
        assert_eq!(parallel(&z, 2).unwrap(), both);
        // No stream at all, or one cut in its header.
        for cut in [&b""[..], b"BZ", b"BZh9", b"BZx"] {
            let e = parallel(cut, 2).unwrap_err();
            let s = sequential(cut).unwrap_err();
            assert_eq!(
                (e.kind(), e.to_string()),
                (s.kind(), s.to_string()),
                "{cut:?}"
            );
        }
    }

    #[test]
    fn long_runs_beyond_the_cap_are_decoded_as_a_stream() {
        // 8 MiB and more of one byte: a handful of compressed bytes.
        let data = vec![b'x'; PIECE_CAP + 3_000_000];
        let z = compress(&data, 9);
        assert!(z.len() < 1000);
        assert_eq!(parallel(&z, 2).unwrap(), data);
    }

    #[test]
    fn damage_is_an_error_where_the_sequential_decoder_finds_one() {
        let data = text(600_000, 3);
        let z = compress(&data, 1);
        // Cut short, in a block and in the end marker.
        for cut in [z.len() / 2, z.len() - 3] {
            let e = parallel(&z[..cut], 2).unwrap_err();
            let s = sequential(&z[..cut]).unwrap_err();
            assert_eq!(e.kind(), s.kind(), "cut at {cut}");
            assert_eq!(e.to_string(), s.to_string());
        }
        // A byte flipped inside a block: its CRC fails.
        let mut bad = z.clone();
        bad[z.len() / 3] ^= 0x10;
        assert!(sequential(&bad).is_err());
        assert_eq!(
            parallel(&bad, 2).unwrap_err().to_string(),
            "bzip2: invalid data"
        );
        // The stream's own CRC changed: every block is sound, the end is not.
        let mut bad = z.clone();
        let n = bad.len();
        bad[n - 2] ^= 0x01;
        assert!(sequential(&bad).is_err());
        assert!(parallel(&bad, 2).is_err());
        // Garbage after a stream.
        let mut bad = z.clone();
        bad.extend(b"not bzip2");
        assert_eq!(
            parallel(&bad, 2).unwrap_err().to_string(),
            sequential(&bad).unwrap_err().to_string()
        );
    }

    /// The block magic can occur by chance inside a block's compressed
    /// bits: the two pieces a false boundary makes fail alone and decode
    /// joined, which is what the reader does with a piece that fails.
    #[test]
    fn a_block_split_by_a_false_boundary_decodes_once_joined() {
        let data = text(250_000, 5);
        let z = compress(&data, 1);
        let mut scanner = Scanner::new(z.as_slice());
        let Some(Found::Block(whole)) = scanner.next().unwrap() else {
            panic!("a block");
        };
        // Split the block's bits in two pieces, as a false magic would.
        let b = &whole.bits[0];
        let mid = (b.start + b.end) / 2;
        let first = Piece {
            bits: vec![Bits {
                end: mid,
                ..b.clone()
            }],
            ..whole.clone()
        };
        let second = Piece {
            bits: vec![Bits {
                start: mid,
                ..b.clone()
            }],
            ..whole.clone()
        };
        assert!(decode(&first, PIECE_CAP).is_err());
        let Decoded::Bytes(bytes) = decode(&first.join(&second), PIECE_CAP).unwrap() else {
            panic!("decoded in memory");
        };
        assert_eq!(bytes, data[..bytes.len()]);
    }
}
