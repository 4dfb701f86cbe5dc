//! One input to audit: its name in reports and where its bytes come from.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::bzip2_blocks::BlockDecoder;
use super::error::{keeps_bytes_before, Action, InputError};
use crate::sgf::Binary;

/// The largest file or archive entry read by default (`--max-file-size`).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 << 20;

/// Where a part lies in its file, for placing its games and findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartOf {
    /// Byte offset of the part in the file.
    pub offset: u64,
    pub len: u64,
    /// The 1-based line and column (in characters) where the part starts.
    pub line: u32,
    pub column: u32,
    /// The file's last part.
    pub last: bool,
}

/// Where an input's bytes come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file, with its size when the walk saw it (0 when unknown): a hint
    /// for batching, so the file is not looked at again before it is read.
    File(PathBuf, u64),
    /// An entry already read out of an archive (`src/input/archive.rs`).
    Bytes(Vec<u8>),
    /// A zip entry's deflate stream, read out of the archive but not yet
    /// inflated: the worker that audits it inflates it, so the archive's
    /// reader thread only copies bytes.
    Deflated(Deflated),
    /// A game file compressed on its own (`.sgf.gz`, `.sgf.bz2`, `.sgf.xz`, `.sgf.zst`),
    /// told by its first bytes, named alone ([`super::named`], for
    /// `explain`). The walk decompresses such files itself, so that a batch
    /// counts them at the size they inflate to.
    Compressed(PathBuf),
    /// A part of a large collection file (`src/input/parts.rs`).
    Part(PathBuf, PartOf),
    /// A part of a large collection read from a stream (standard input, an
    /// archive entry, a compressed file as it is decompressed), with its
    /// bytes: empty when the part is longer than the limit, as it is then
    /// refused for its length.
    StreamPart(Vec<u8>, PartOf),
    /// An archive entry cut short (the archive ends in it): the bytes
    /// before the end and why it stopped. The walk reads it as a stream
    /// that fails there: a UTF-8 collection's games before the cut are
    /// audited, then the error has its row. (An entry whose data are found
    /// wrong is [`Source::Broken`]: its bytes may not be its own.)
    CutShort(Vec<u8>, InputError),
    /// The input cannot be read.
    Broken(InputError),
}

/// A zip entry's raw deflate stream with what its headers declare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deflated {
    pub raw: Vec<u8>,
    /// The size the entry declares once inflated.
    pub size: u64,
    /// The CRC-32 of the inflated bytes the entry declares.
    pub crc32: u32,
}

impl Deflated {
    /// Inflates the entry: at most `limit` bytes, checked against the
    /// declared size and CRC-32, as the zip reader checks an entry read in
    /// place.
    fn inflate(&self, limit: u64) -> Result<Vec<u8>, InputError> {
        if self.size > limit {
            return Err(InputError::EntryTooLarge { limit });
        }
        let inflating = Inflated::inflating(self.raw.as_slice(), self.size, self.crc32);
        match read_capped(inflating, self.size.min(RATIO_FLOOR), limit, Action::Read) {
            Err(InputError::TooLarge { limit }) => Err(InputError::EntryTooLarge { limit }),
            other => other,
        }
    }
}

/// A zip entry's deflate stream as it is inflated, checked.
pub(crate) type Inflated<R> = Checked<flate2::read::DeflateDecoder<R>>;

impl<R: io::Read> Inflated<R> {
    pub(crate) fn inflating(raw: R, size: u64, crc32: u32) -> Inflated<R> {
        Checked::new(flate2::read::DeflateDecoder::new(raw), size, crc32)
    }
}

/// A zip entry's bytes (inflated, or stored as they are) checked against
/// what its headers declare: more bytes than the entry declares, a damaged
/// stream, or a CRC-32 other than the declared one at its end is an error
/// carrying [`InputError::Unpack`] (bytes cut short fail the CRC).
pub(crate) struct Checked<R: io::Read> {
    inner: R,
    crc: crc32fast::Hasher,
    out: u64,
    size: u64,
    crc32: u32,
}

impl<R: io::Read> Checked<R> {
    pub(crate) fn new(inner: R, size: u64, crc32: u32) -> Checked<R> {
        Checked {
            inner,
            crc: crc32fast::Hasher::new(),
            out: 0,
            size,
            crc32,
        }
    }
}

impl<R: io::Read> io::Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let unpack = |why: String| InputError::Unpack(why).into_io();
        let n = self.inner.read(buf).map_err(|e| unpack(e.to_string()))?;
        self.out += n as u64;
        let size = self.size;
        if self.out > size {
            return Err(unpack(format!(
                "the entry inflates to more than the {size} bytes it declares"
            )));
        }
        self.crc.update(&buf[..n]);
        if n == 0 && !buf.is_empty() && self.crc.clone().finalize() != self.crc32 {
            return Err(unpack("Invalid checksum".into()));
        }
        Ok(n)
    }
}

/// One input to audit, with the name reports use for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    pub source: Source,
}

impl Item {
    /// The input's size in bytes, when cheaply known (0 otherwise).
    pub fn size_hint(&self) -> u64 {
        match &self.source {
            Source::File(_, size) => *size,
            Source::Compressed(p) => fs::metadata(p).map_or(0, |m| m.len()),
            Source::Bytes(b) | Source::CutShort(b, _) => b.len() as u64,
            Source::Deflated(d) => d.size,
            Source::Part(_, part) | Source::StreamPart(_, part) => part.len,
            _ => 0,
        }
    }

    /// Where the input lies in its file, when it is a part of one.
    pub fn part(&self) -> Option<&PartOf> {
        match &self.source {
            Source::Part(_, part) | Source::StreamPart(_, part) => Some(part),
            _ => None,
        }
    }

    /// Reads the input's bytes, at most `limit` of them: a larger input is
    /// an error, found while reading (a file that grows, standard input).
    /// Only regular files are opened, without blocking (a FIFO put in the
    /// place of a file after the walk is refused, not waited on).
    pub fn read(&self, limit: u64) -> Result<Vec<u8>, InputError> {
        match &self.source {
            Source::File(p, _) => {
                let (file, len) = open_regular(p)?;
                if len > limit {
                    return Err(InputError::TooLarge { limit });
                }
                // The file system's size is trusted for the first allocation
                // (the read still stops at the limit if the file grows).
                read_capped(file, len, limit, Action::Read)
            }
            Source::Compressed(p) => read_compressed(p, limit),
            Source::Part(p, part) => {
                if part.len > limit {
                    return Err(InputError::TooLarge { limit });
                }
                let (mut file, _) = open_regular(p)?;
                io::Seek::seek(&mut file, io::SeekFrom::Start(part.offset))
                    .map_err(|e| InputError::io(&e, Action::Read))?;
                read_capped(
                    io::Read::take(file, part.len),
                    part.len,
                    limit,
                    Action::Read,
                )
            }
            Source::StreamPart(_, part) if part.len > limit => Err(InputError::TooLarge { limit }),
            Source::StreamPart(bytes, _) => Ok(bytes.clone()),
            Source::Bytes(b) if b.len() as u64 > limit => Err(InputError::TooLarge { limit }),
            Source::Bytes(b) => Ok(b.clone()),
            Source::Deflated(d) => d.inflate(limit),
            Source::Broken(why) | Source::CutShort(_, why) => Err(why.clone()),
        }
    }
}

/// What kind of thing a file system entry is, when it is not a regular file
/// or a directory.
pub(crate) fn special_kind(t: &fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
    }
    if t.is_file() || t.is_dir() || t.is_symlink() {
        None
    } else {
        Some("a special file")
    }
}

/// Opens a file for reading only if it is a regular file. On Unix the open
/// itself does not block (`O_NONBLOCK`), so a FIFO cannot hang the run even
/// if it replaced the file after the walk looked at it.
fn open_regular(p: &std::path::Path) -> Result<(fs::File, u64), InputError> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0o4000); // O_NONBLOCK on Linux
    }
    let file = options
        .open(p)
        .map_err(|e| InputError::io(&e, Action::Read))?;
    let meta = file
        .metadata()
        .map_err(|e| InputError::io(&e, Action::Read))?;
    if meta.is_dir() {
        return Err(InputError::IsADirectory(Action::Read));
    }
    if let Some(kind) = special_kind(&meta.file_type()) {
        return Err(InputError::NotRegular(kind));
    }
    Ok((file, meta.len()))
}

/// The compression a stream announces by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    None,
}

/// The most memory the xz decoder may take: enough for every preset of
/// `xz` (`-9` needs 65 MiB), refused beyond, so a stream that declares a
/// 4 GiB dictionary costs nothing.
pub(crate) const XZ_MEMLIMIT: u64 = 128 << 20;

/// The largest Zstandard window decoded, as a power of two: 128 MiB, the
/// same bound as [`XZ_MEMLIMIT`] and the one `zstd -d` keeps unless given
/// `--memory` (`zstd -19` writes windows of 8 MiB, `--ultra -22` and
/// `--long` of 128 MiB), refused beyond, so a frame that declares a 2 GiB
/// window costs nothing.
const ZSTD_WINDOW_LOG_MAX: u32 = 27;

impl Compression {
    /// The compression `head` begins with ([`Binary::sniff`]'s
    /// magic numbers).
    pub(crate) fn of(head: &[u8]) -> Compression {
        match Binary::sniff(head) {
            Some(Binary::Gzip) => Compression::Gzip,
            Some(Binary::Bzip2) => Compression::Bzip2,
            Some(Binary::Xz) => Compression::Xz,
            Some(Binary::Zstd) => Compression::Zstd,
            // A damaged bzip2 stream still begins "BZh": its decoder says
            // what is wrong with it.
            _ if head.starts_with(b"BZh") => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// `r` read through its decompressor; concatenated streams are read to
    /// the end, as `zcat`, `bzcat` and `xzcat` do. bzip2 is decoded block
    /// by block on `threads` threads of its own when there is one or more:
    /// each block whole and checked before any of its bytes is given, so
    /// damage gives the same bytes and the same error whatever the count
    /// (the one-stream decoder gives a damaged block's bytes before its
    /// checksum fails, and a tar read from them fails elsewhere); with 0,
    /// on the caller's thread as one stream.
    pub(crate) fn reader<R: io::Read>(self, r: R, threads: usize) -> Result<Decoder<R>, String> {
        Ok(match self {
            Compression::Gzip => Decoder::Gzip(flate2::read::MultiGzDecoder::new(r)),
            Compression::Bzip2 if threads > 0 => {
                Decoder::Bzip2Blocks(BlockDecoder::new(r, threads))
            }
            Compression::Bzip2 => Decoder::Bzip2(bzip2::read::MultiBzDecoder::new(r)),
            Compression::Xz => {
                let stream = liblzma::stream::Stream::new_stream_decoder(
                    XZ_MEMLIMIT,
                    liblzma::stream::CONCATENATED,
                )
                .map_err(|e| e.to_string())?;
                Decoder::Xz(liblzma::read::XzDecoder::new_stream(r, stream))
            }
            Compression::Zstd => Decoder::Zstd(zstd_decoder(r).map_err(|e| e.to_string())?),
            Compression::None => Decoder::Plain(r),
        })
    }
}

/// A Zstandard decoder of `r`, its window capped at [`ZSTD_WINDOW_LOG_MAX`].
pub(crate) fn zstd_decoder<R: io::Read>(
    r: R,
) -> io::Result<zstd::stream::read::Decoder<'static, io::BufReader<R>>> {
    let mut decoder = zstd::stream::read::Decoder::new(r)?;
    decoder.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
    Ok(decoder)
}

/// A stream read through its decompressor ([`Compression::reader`]): `Send`
/// when the stream is.
pub(crate) enum Decoder<R: io::Read> {
    Gzip(flate2::read::MultiGzDecoder<R>),
    Bzip2Blocks(BlockDecoder<R>),
    Bzip2(bzip2::read::MultiBzDecoder<R>),
    Xz(liblzma::read::XzDecoder<R>),
    Zstd(zstd::stream::read::Decoder<'static, io::BufReader<R>>),
    Plain(R),
}

impl<R: io::Read> io::Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoder::Gzip(d) => d.read(buf),
            Decoder::Bzip2Blocks(d) => d.read(buf),
            Decoder::Bzip2(d) => d.read(buf),
            Decoder::Xz(d) => d.read(buf),
            Decoder::Zstd(d) => d.read(buf),
            Decoder::Plain(r) => r.read(buf),
        }
    }
}

/// A compressed game file or archive entry may inflate to this many times
/// its compressed size (game records compress four- to tenfold)...
pub(crate) const MAX_RATIO: u64 = 20;
/// ...or to this many bytes, whichever is more: beyond both it is a bomb.
pub(crate) const RATIO_FLOOR: u64 = 32 << 20;

/// The most bytes `compressed` bytes may inflate to.
pub(crate) fn inflate_cap(compressed: u64) -> u64 {
    compressed.saturating_mul(MAX_RATIO).max(RATIO_FLOOR)
}

/// A compressed game file, decompressed into memory: at most `limit` bytes
/// come out, so a small file that inflates without end (a bomb) costs the
/// limit and is refused.
fn read_compressed(p: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    inflate_whole(Inflating::open(p)?, limit).map_err(|failed| failed.why)
}

/// Reads a compressed stream to its end: at most `limit` bytes, and no more
/// than [`inflate_cap`] of its compressed size (beyond, a bomb). What came
/// before an I/O error is kept, as [`read_capped_keeping`] keeps it.
fn inflate_whole<R: io::Read>(inflating: Inflating<R>, limit: u64) -> Result<Vec<u8>, ReadFailed> {
    let len = inflating.compressed.so_far();
    // Game records compress about fourfold: a first guess for the buffer,
    // which never grows past what the stream may inflate to.
    let guess = len.saturating_mul(4);
    let cap = limit.min(inflate_cap(len));
    read_capped_keeping(inflating, guess, cap, Action::Read).map_err(|failed| match failed.why {
        InputError::TooLarge { .. } if cap < limit => ReadFailed {
            why: bomb(len),
            bytes: Vec::new(),
        },
        _ => failed,
    })
}

/// A compressed game file held in memory (an archive entry named `.sgf.gz`,
/// `.sgf.bz2`, `.sgf.xz` or `.sgf.zst`, a row of a Ray or Spark batch), decompressed
/// under the caps of one on disk: at most `limit` bytes, and no more than
/// [`inflate_cap`] of its size. A stream cut short keeps the text before the
/// cut ([`Source::CutShort`]: a collection's games before it are audited);
/// one whose data are found wrong is refused whole.
pub(crate) fn decompressed(compressed: Vec<u8>, limit: u64) -> Source {
    let len = compressed.len() as u64;
    let inflating = match Inflating::new(io::Cursor::new(compressed), len) {
        Ok(inflating) => inflating,
        Err(why) => return Source::Broken(why),
    };
    match inflate_whole(inflating, limit) {
        Ok(bytes) => Source::Bytes(bytes),
        Err(ReadFailed { why, bytes }) if !bytes.is_empty() => Source::CutShort(bytes, why),
        Err(ReadFailed { why, .. }) => Source::Broken(why),
    }
}

/// `len` compressed bytes that inflate beyond [`inflate_cap`].
fn bomb(len: u64) -> InputError {
    let cap = inflate_cap(len);
    InputError::Bomb(format!(
        "{len} bytes inflate to more than {cap} ({MAX_RATIO} times their size or more)"
    ))
}

/// A compressed game file's bytes as they are decompressed. No game file
/// inflates a hundredfold beyond a few megabytes; a bomb does, and is
/// stopped there ([`inflate_cap`]). Its errors carry an [`InputError`]
/// (a bomb, damaged data), which [`InputError::io`] gives back.
pub(crate) struct Inflating<R: io::Read = io::BufReader<fs::File>> {
    decoder: Decoder<R>,
    compressed: CompressedSize,
    /// The bytes decompressed so far.
    out: u64,
}

/// The compressed size the bomb cap is taken of.
enum CompressedSize {
    /// A file's or an archive entry's.
    Known(u64),
    /// A stream of unknown length (standard input): the bytes read so far
    /// stand for its size.
    ReadSoFar(Arc<AtomicU64>),
}

impl CompressedSize {
    fn so_far(&self) -> u64 {
        match self {
            CompressedSize::Known(len) => *len,
            CompressedSize::ReadSoFar(read) => read.load(Ordering::Relaxed),
        }
    }
}

impl Inflating {
    pub(crate) fn open(p: &Path) -> Result<Inflating, InputError> {
        let (file, len) = open_regular(p)?;
        Inflating::new(io::BufReader::new(file), len)
    }
}

impl<R: io::BufRead> Inflating<R> {
    /// The `len` compressed bytes of `r`, told gzip, bzip2, xz or zstd by their
    /// first bytes.
    pub(crate) fn new(r: R, len: u64) -> Result<Inflating<R>, InputError> {
        Inflating::sized(r, CompressedSize::Known(len))
    }

    fn sized(mut r: R, compressed: CompressedSize) -> Result<Inflating<R>, InputError> {
        let head = r.fill_buf().map_err(|e| InputError::io(&e, Action::Read))?;
        let compression = Compression::of(head);
        if compression == Compression::None {
            return Err(InputError::Decompress(
                "not gzip, bzip2, xz or zstd data (by its first bytes)".into(),
            ));
        }
        let decoder = compression.reader(r, 0).map_err(InputError::Decompress)?;
        Ok(Inflating {
            decoder,
            compressed,
            out: 0,
        })
    }
}

impl<R: io::BufRead> Inflating<Tally<R>> {
    /// A compressed stream of unknown length (standard input): no more than
    /// [`inflate_cap`] of the compressed bytes read so far comes out.
    pub(crate) fn of_stream(r: R) -> Result<Self, InputError> {
        let read = Arc::new(AtomicU64::new(0));
        let tally = Tally {
            inner: r,
            read: Arc::clone(&read),
        };
        Inflating::sized(tally, CompressedSize::ReadSoFar(read))
    }
}

/// A reader that counts the bytes read through it.
pub(crate) struct Tally<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: io::Read> io::Read for Tally<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: io::BufRead> io::BufRead for Tally<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        self.inner.consume(n);
    }
}

impl<R: io::Read> io::Read for Inflating<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.decoder.read(buf).map_err(|e| {
            // Damage below the decompressor (an archive entry's) says
            // what it is itself.
            if e.get_ref().is_some_and(|x| x.is::<InputError>()) {
                return e;
            }
            InputError::Decompress(explained(e.to_string())).into_io_like(&e)
        })?;
        self.out += n as u64;
        let len = self.compressed.so_far();
        if self.out > inflate_cap(len) {
            return Err(bomb(len).into_io());
        }
        Ok(n)
    }
}

/// A decoder's error, with the bound it hit named when it is one of ours.
pub(crate) fn explained(why: String) -> String {
    if why.contains("memory limit") {
        format!(
            "{why}: the xz stream asks for more than {} MiB to decode",
            XZ_MEMLIMIT >> 20
        )
    } else if why.contains("too much memory") {
        format!(
            "{why}: the zstd frame asks for a window of more than {} MiB",
            1u64 << (ZSTD_WINDOW_LOG_MAX - 20)
        )
    } else {
        why
    }
}

/// Reads at most `limit` bytes; one more means the input is too large. Room
/// for `capacity` bytes and one more (for the read that finds the end) is
/// reserved at once, never more than the limit allows.
pub(crate) fn read_capped(
    r: impl io::Read,
    capacity: u64,
    limit: u64,
    action: Action,
) -> Result<Vec<u8>, InputError> {
    read_capped_keeping(r, capacity, limit, action).map_err(|failed| failed.why)
}

/// Makes room in `bytes` for `more` bytes on their way to `most` at most.
/// Up to 4 MiB the buffer doubles; past that it takes at once the room up
/// to `most`, address space that becomes memory only as it is filled.
/// Doubling all the way held each smaller buffer as well while the larger
/// was filled (the allocator keeps freed blocks a while): twice `most`, or
/// more, where `most` alone was promised. Where that much address space is
/// refused, it doubles.
pub(crate) fn reserve_toward(bytes: &mut Vec<u8>, more: usize, most: usize) {
    const DOUBLE_UP_TO: usize = 4 << 20;
    let len = bytes.len();
    if bytes.capacity() - len >= more {
        return;
    }
    let all = most.saturating_sub(len).max(more);
    if len >= DOUBLE_UP_TO && bytes.try_reserve_exact(all).is_ok() {
        return;
    }
    let doubled = len.saturating_mul(2).max(len + (64 << 10));
    bytes.reserve_exact(doubled.min(len + all) - len);
}

/// A read that failed, with the bytes that came before the error: none
/// when the input was too large, or when its data were found wrong (they
/// may not be its own: [`keeps_bytes_before`]).
#[derive(Debug)]
pub(crate) struct ReadFailed {
    pub why: InputError,
    pub bytes: Vec<u8>,
}

/// [`read_capped`], keeping what was read before an I/O error.
pub(crate) fn read_capped_keeping(
    mut r: impl io::Read,
    capacity: u64,
    limit: u64,
    action: Action,
) -> Result<Vec<u8>, ReadFailed> {
    // Bytes are read straight into the buffer, zeroed at most 1 MiB ahead
    // of what has arrived (a size hint may lie), so room reserved and not
    // yet filled is address space, not memory; it grows by
    // [`reserve_toward`] the limit (plus the one byte that tells a larger
    // input).
    const AHEAD: usize = 1 << 20;
    let most = usize::try_from(limit.saturating_add(1)).unwrap_or(usize::MAX);
    let first = usize::try_from(capacity.saturating_add(1))
        .unwrap_or(usize::MAX)
        .min(most);
    let mut bytes: Vec<u8> = Vec::with_capacity(first);
    let mut filled = 0;
    loop {
        if filled == bytes.len() {
            if filled == most {
                return Err(ReadFailed {
                    why: InputError::TooLarge { limit },
                    bytes: Vec::new(),
                });
            }
            reserve_toward(&mut bytes, 1, most);
            let target = bytes.capacity().min(filled.saturating_add(AHEAD)).min(most);
            bytes.resize(target, 0);
        }
        match r.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                bytes.truncate(if keeps_bytes_before(&e) { filled } else { 0 });
                return Err(ReadFailed {
                    why: InputError::io(&e, action),
                    bytes,
                });
            }
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}
