//! Bytes to text, never failing: UTF-32 (by BOM or NUL pattern; decoded here,
//! as encoding_rs has none), BOM, then the `CA[]` label (with the aliases real
//! files use that the WHATWG label list lacks), then "is it valid UTF-8", then
//! statistical detection (chardetng), then a lossy decode that replaces what no
//! encoding explains. Every assumption is reported as a finding.
//!
//! Decoding happens before any tokenising: multi-byte charsets (GBK, Shift_JIS,
//! Big5) can carry the bytes of `]` and `\` as trail bytes.

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

use crate::core::findings::{Code, Finding};

/// Decoded text and what was assumed to get it.
pub struct Decoded {
    pub text: String,
    /// The text is the file's bytes as they are (UTF-8 without a BOM): its
    /// offsets are the file's.
    pub identity: bool,
    /// The encoding used (WHATWG name, e.g. `GBK`, `UTF-8`).
    pub encoding: &'static Encoding,
    /// Bytes of byte-order mark skipped at the start.
    pub bom_len: usize,
    /// The `CA` label as written, if any.
    pub label: Option<String>,
    pub findings: Vec<Finding>,
    /// The text was UTF-32 (which `encoding` cannot name): decoded here,
    /// four bytes a character.
    pub utf32: Option<Utf32>,
    /// Where a U+FFFD stands in the text for bytes invalid in the encoding,
    /// and how many file bytes it replaced, in text order: a place after it
    /// is counted in the file's bytes, not in those of a re-encoded U+FFFD.
    pub replaced: Vec<(usize, u32)>,
    /// Where the first character that is not ASCII stands in the text when
    /// the encoding was detected, not declared (E101): the text whose
    /// reading rests on the guess.
    pub guessed_from: Option<usize>,
}

/// The byte order of UTF-32 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf32 {
    Le,
    Be,
}

impl Utf32 {
    pub fn name(self) -> &'static str {
        match self {
            Utf32::Le => "UTF-32LE",
            Utf32::Be => "UTF-32BE",
        }
    }

    fn unit(self, b: &[u8]) -> u32 {
        let b = [b[0], b[1], b[2], b[3]];
        match self {
            Utf32::Le => u32::from_le_bytes(b),
            Utf32::Be => u32::from_be_bytes(b),
        }
    }
}

/// [`Decoded`] while it may still borrow the file's bytes.
struct Borrowed<'a> {
    text: Cow<'a, str>,
    encoding: &'static Encoding,
    bom_len: usize,
    label: Option<String>,
    findings: Vec<Finding>,
}

impl Decoded {
    /// The name of the encoding the text was read in (WHATWG names, and
    /// `UTF-32LE`/`UTF-32BE`).
    pub fn encoding_name(&self) -> &'static str {
        self.utf32.map_or(self.encoding.name(), Utf32::name)
    }

    /// Bytes that `segment` of the decoded text took in the file.
    pub fn encoded_len(&self, segment: &str) -> u64 {
        let n = if self.utf32.is_some() {
            segment.chars().count() as u64 * 4
        } else if self.identity {
            segment.len() as u64
        } else {
            clean_len(self.encoding, segment)
        };
        // The replacement characters of a piece of the text count the bytes
        // they replaced.
        let start = (segment.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        if self.replaced.is_empty() || start > self.text.len() {
            return n;
        }
        let fffd = clean_len(self.encoding, "\u{FFFD}");
        let from = self.replaced.partition_point(|&(at, _)| at < start);
        let to = self
            .replaced
            .partition_point(|&(at, _)| at < start + segment.len());
        self.replaced[from..to]
            .iter()
            .fold(n, |n, &(_, took)| n.saturating_sub(fffd) + u64::from(took))
    }
}

/// Bytes `s` takes in `enc` (text with no replacement character in it).
fn clean_len(enc: &'static Encoding, s: &str) -> u64 {
    let n = if enc == UTF_8 {
        s.len()
    } else if enc == UTF_16LE || enc == UTF_16BE {
        s.encode_utf16().count() * 2
    } else {
        enc.encode(s).0.len()
    };
    n as u64
}

/// Where decoding `bytes` in `enc` put a U+FFFD, with the file bytes each
/// stands for: the bytes decoded again piece by piece, without replacement,
/// between two malformed sequences. Empty if that decoding does not give
/// `text` (the replacing decoder's own output, which it always gives).
fn replacements(enc: &'static Encoding, bytes: &[u8], text: &str) -> Vec<(usize, u32)> {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(text.len() + 4);
    let (mut read, mut read_before, mut out_before) = (0usize, 0usize, 0usize);
    let mut table = Vec::new();
    loop {
        let room = decoder
            .max_utf8_buffer_length_without_replacement(bytes.len() - read)
            .unwrap_or(out.capacity());
        out.reserve(room);
        let (result, n) =
            decoder.decode_to_string_without_replacement(&bytes[read..], &mut out, true);
        read += n;
        match result {
            encoding_rs::DecoderResult::InputEmpty => break,
            encoding_rs::DecoderResult::OutputFull => out.reserve(out.capacity().max(64)),
            encoding_rs::DecoderResult::Malformed(..) => {
                let clean = clean_len(enc, &out[out_before..]);
                let took = ((read - read_before) as u64).saturating_sub(clean);
                table.push((out.len(), u32::try_from(took).unwrap_or(u32::MAX)));
                out.push('\u{FFFD}');
                (read_before, out_before) = (read, out.len());
            }
        }
    }
    if out == text {
        table
    } else {
        Vec::new()
    }
}

/// Maps a `CA` label to an encoding, with aliases encoding_rs lacks.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    let l = label.trim().to_ascii_lowercase().replace('_', "-");
    if let Some(e) = Encoding::for_label(l.as_bytes()) {
        return Some(e);
    }
    let alias = match l.as_str() {
        "iso8859-1" | "iso-8859-1" | "latin-1" => "windows-1252",
        "cp936" | "ms936" | "windows-936" | "gb2312-80" | "euc-cn" => "gbk",
        "cp932" | "ms932" | "ms-kanji" | "mskanji" | "sjis" | "shiftjis" => "shift_jis",
        "cp949" | "ms949" | "uhc" => "euc-kr",
        "8859-1" => "windows-1252",
        "utf8" => "utf-8",
        "cp950" | "ms950" | "big-5" => "big5",
        "cp1251" | "win-1251" => "windows-1251",
        _ => l.as_str(),
    };
    Encoding::for_label(alias.as_bytes())
}

/// Finds the first `CA[...]` value in the raw bytes (ASCII-compatible encodings).
fn find_label(bytes: &[u8]) -> Option<String> {
    let window = &bytes[..bytes.len().min(1 << 16)];
    let mut i = 0;
    while let Some(off) = find(&window[i..], b"CA[") {
        let at = i + off;
        let prev_upper = at > 0 && window[at - 1].is_ascii_uppercase();
        if !prev_upper {
            let start = at + 3;
            let end = window[start..].iter().position(|&b| b == b']')?;
            let raw = &window[start..start + end];
            if raw.len() <= 64 && raw.is_ascii() {
                return Some(String::from_utf8_lossy(raw).trim().to_string());
            }
            return None;
        }
        i = at + 3;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// UTF-16 without a BOM: an ASCII `(` or `;` next to a NUL in the first bytes.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(256) & !1];
    if head.len() < 4 {
        return None;
    }
    let (mut even_nul, mut odd_nul) = (0, 0);
    for (i, &b) in head.iter().enumerate() {
        if b == 0 {
            if i % 2 == 0 {
                even_nul += 1
            } else {
                odd_nul += 1
            }
        }
    }
    let pairs = head.len() / 2;
    if odd_nul * 10 >= pairs * 8 && even_nul * 10 < pairs {
        Some(UTF_16LE)
    } else if even_nul * 10 >= pairs * 8 && odd_nul * 10 < pairs {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Invalid UTF-8 that is mostly valid UTF-8: real multi-byte characters with a
/// few broken sequences (servers truncate names mid-character). Decoding such text
/// as UTF-8 with replacements beats any statistical guess.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        bad += chunk.invalid().len();
    }
    good > 0 && good >= 2 * bad
}

fn detect(bytes: &[u8]) -> &'static Encoding {
    let mut det = EncodingDetector::new(Iso2022JpDetection::Allow);
    det.feed(bytes, true);
    det.guess(None, Utf8Detection::Allow)
}

/// "detected ENCODING (from N bytes that are not ASCII)": the evidence
/// behind a guess, which a few bytes leave thin (two bytes of GBK, `白`,
/// read as ISO-8859-5).
fn detected(guess: &'static Encoding, bytes: &[u8]) -> String {
    let n = bytes.iter().filter(|b| !b.is_ascii()).count();
    let unit = if n == 1 {
        "byte that is"
    } else {
        "bytes that are"
    };
    format!("detected {} (from {n} {unit} not ASCII)", guess.name())
}

/// Decodes a part after the first of a file read in parts: valid UTF-8 is
/// taken as it is (the file was judged UTF-8 by its start; a `CA` label in a
/// later game does not change that, as it does not when the file is read
/// whole), anything else as a file of its own.
/// Whether the CA label that decides a text starting with `head` (the first
/// one in its first 64 KiB) is absent or names UTF-8: then a text that is
/// valid UTF-8 is decoded as UTF-8 without a finding, whole or in parts.
pub fn label_allows_utf8(head: &[u8]) -> bool {
    match find_label(head) {
        None => true,
        Some(l) => l.is_empty() || encoding_for_label(&l) == Some(UTF_8),
    }
}

pub fn decode_continuation(bytes: Vec<u8>, charset: Option<&'static Encoding>) -> Decoded {
    match String::from_utf8(bytes) {
        Ok(text) => Decoded {
            text,
            identity: true,
            encoding: encoding_rs::UTF_8,
            bom_len: 0,
            label: None,
            findings: Vec::new(),
            utf32: None,
            replaced: Vec::new(),
            guessed_from: None,
        },
        Err(e) => decode(e.into_bytes(), charset),
    }
}

/// Decodes a file's bytes. Never fails. `charset` is the encoding of a text
/// that no byte-order mark, NUL pattern or usable `CA` label decides and that
/// is not UTF-8, when the user knows it: it takes the place of detection for
/// the bytes that are valid in it.
pub fn decode(bytes: Vec<u8>, charset: Option<&'static Encoding>) -> Decoded {
    if let Some(d) = decode_utf32(&bytes) {
        return d;
    }
    let Borrowed {
        text,
        encoding,
        bom_len,
        label,
        findings,
    } = decode_borrowed(&bytes, charset);
    // Before its first byte that is not ASCII, a text in an encoding that
    // keeps ASCII as it is has the file's bytes, one character each.
    let guessed_from = (bom_len == 0
        && encoding.is_ascii_compatible()
        && findings.iter().any(|f| f.code == Code::CharsetAssumed))
    .then(|| bytes.iter().position(|b| !b.is_ascii()))
    .flatten();
    let (text, identity, replaced) = match text {
        Cow::Owned(text) => {
            let replaced = if findings.iter().any(|f| f.code == Code::CharsetReplaced) {
                replacements(encoding, &bytes[bom_len.min(bytes.len())..], &text)
            } else {
                Vec::new()
            };
            (text, false, replaced)
        }
        // The file (after its byte-order mark) is valid UTF-8: its buffer
        // becomes the text, no copy.
        Cow::Borrowed(_) => match String::from_utf8({
            let mut bytes = bytes;
            bytes.drain(..bom_len);
            bytes
        }) {
            Ok(text) => (text, true, Vec::new()),
            Err(e) => {
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let replaced = replacements(UTF_8, e.as_bytes(), &text);
                (text, false, replaced)
            }
        },
    };
    Decoded {
        text,
        identity,
        encoding,
        bom_len,
        label,
        findings,
        utf32: None,
        replaced,
        guessed_from,
    }
}

/// UTF-32, by its byte-order mark or, without one, by a pattern of three NUL
/// bytes beside each ASCII byte in nine units of ten at the start. encoding_rs
/// (the WHATWG encodings) has no UTF-32: it is decoded here.
fn sniff_utf32(bytes: &[u8]) -> Option<(Utf32, usize)> {
    if bytes.starts_with(&[0xff, 0xfe, 0, 0]) {
        return Some((Utf32::Le, 4));
    }
    if bytes.starts_with(&[0, 0, 0xfe, 0xff]) {
        return Some((Utf32::Be, 4));
    }
    let head = &bytes[..bytes.len().min(1024) & !3];
    let units = head.len() / 4;
    if units < 4 || !bytes.len().is_multiple_of(4) {
        return None;
    }
    let share = |ascii: fn(&[u8]) -> bool| {
        let n = head.chunks_exact(4).filter(|u| ascii(u)).count();
        n * 10 >= units * 9
    };
    if share(|u| u[0] != 0 && u[0] < 0x80 && u[1..] == [0, 0, 0]) {
        Some((Utf32::Le, 0))
    } else if share(|u| u[3] != 0 && u[3] < 0x80 && u[..3] == [0, 0, 0]) {
        Some((Utf32::Be, 0))
    } else {
        None
    }
}

fn decode_utf32(bytes: &[u8]) -> Option<Decoded> {
    let (order, bom_len) = sniff_utf32(bytes)?;
    let body = &bytes[bom_len..];
    let mut replaced = !body.len().is_multiple_of(4);
    let mut text = String::with_capacity(body.len() / 4);
    for u in body.chunks_exact(4) {
        match char::from_u32(order.unit(u)) {
            Some(c) => text.push(c),
            None => {
                replaced = true;
                text.push('\u{FFFD}');
            }
        }
    }
    let mut findings = Vec::new();
    if bom_len == 0 {
        findings.push(Finding::new(
            Code::CharsetAssumed,
            format!("no byte-order mark; the NUL pattern says {}", order.name()),
        ));
    }
    if replaced {
        findings.push(Finding::new(
            Code::CharsetReplaced,
            format!(
                "units invalid in {} (or a last incomplete one) were replaced by U+FFFD",
                order.name()
            ),
        ));
    }
    let label = find_label_text(&text);
    if let Some(l) = label.as_deref() {
        if !l.trim().to_ascii_lowercase().starts_with("utf-32") {
            findings.push(Finding::new(
                Code::CharsetWrongLabel,
                format!(
                    "CA[{l}] but the bytes are {}; decoded as {}",
                    order.name(),
                    order.name()
                ),
            ));
        }
    }
    Some(Decoded {
        text,
        identity: false,
        encoding: UTF_8,
        bom_len,
        label,
        findings,
        utf32: Some(order),
        replaced: Vec::new(),
        guessed_from: None,
    })
}

fn decode_borrowed<'b>(bytes: &'b [u8], charset: Option<&'static Encoding>) -> Borrowed<'b> {
    if let Some(d) = decode_by_bom(bytes) {
        return d;
    }
    if let Some(d) = decode_utf16_without_bom(bytes) {
        return d;
    }
    decode_by_label(bytes, charset)
}

/// A byte-order mark decides.
fn decode_by_bom(bytes: &[u8]) -> Option<Borrowed<'_>> {
    let (enc, bom_len) = Encoding::for_bom(bytes)?;
    let mut findings = Vec::new();
    let (text, errors) = enc.decode_without_bom_handling(&bytes[bom_len..]);
    if errors {
        findings.push(Finding::new(
            Code::CharsetReplaced,
            format!(
                "bytes invalid in {} (from its byte-order mark) were replaced",
                enc.name()
            ),
        ));
    }
    let label = find_label_text(&text);
    // A label that names another encoding than the byte-order mark: the mark
    // wins (it describes the bytes), and the conflict is reported.
    if let Some(l) = label.as_deref() {
        let named = encoding_for_label(l);
        if named.is_some_and(|n| n != enc) {
            findings.push(Finding::new(
                Code::CharsetWrongLabel,
                format!(
                    "CA[{l}] but the byte-order mark says {}; decoded as {}",
                    enc.name(),
                    enc.name()
                ),
            ));
        }
    }
    Some(Borrowed {
        text,
        encoding: enc,
        bom_len,
        label,
        findings,
    })
}

/// UTF-16 without a byte-order mark, told by its pattern of NUL bytes.
fn decode_utf16_without_bom(bytes: &[u8]) -> Option<Borrowed<'_>> {
    let enc = sniff_utf16(bytes)?;
    let mut findings = Vec::new();
    let (text, errors) = enc.decode_without_bom_handling(bytes);
    findings.push(Finding::new(
        Code::CharsetAssumed,
        format!("no byte-order mark; the NUL pattern says {}", enc.name()),
    ));
    if errors {
        findings.push(Finding::new(
            Code::CharsetReplaced,
            format!("bytes invalid in {} were replaced", enc.name()),
        ));
    }
    let label = find_label_text(&text);
    Some(Borrowed {
        text,
        encoding: enc,
        bom_len: 0,
        label,
        findings,
    })
}

/// The CA label, then "is it valid UTF-8", then `charset` or detection.
fn decode_by_label<'b>(bytes: &'b [u8], charset: Option<&'static Encoding>) -> Borrowed<'b> {
    let mut findings = Vec::new();
    let label = find_label(bytes);
    let labelled = labelled_encoding(label.as_deref(), &mut findings);
    let said = label.as_deref().unwrap_or("");
    let utf8 = std::str::from_utf8(bytes).ok();
    let (encoding, text) = match (labelled, utf8) {
        // Valid UTF-8 under a UTF-8 label, or under no (usable) label: take it.
        (None, Some(s)) => (UTF_8, Cow::Borrowed(s)),
        (Some(enc), Some(s)) if enc == UTF_8 || s.is_ascii() => (enc, Cow::Borrowed(s)),
        // A single-byte label on bytes that are valid UTF-8 with multi-byte
        // sequences: the label lies (a common editor bug).
        (Some(enc), Some(s)) if enc.is_single_byte() => {
            findings.push(Finding::new(
                Code::CharsetWrongLabel,
                format!(
                    "CA[{said}] declares {} but the text is valid UTF-8; decoded as UTF-8",
                    enc.name()
                ),
            ));
            (UTF_8, Cow::Borrowed(s))
        }
        (Some(enc), _) if enc != UTF_8 => {
            decode_as_labelled(bytes, enc, said, charset, &mut findings)
        }
        // Mostly UTF-8 with a few broken sequences: keep UTF-8, replace the rest.
        (labelled, _) if mostly_utf8(bytes) => {
            let (text, _) = UTF_8.decode_without_bom_handling(bytes);
            let what = match labelled {
                Some(_) => format!("CA[{said}]"),
                None => "no CA label".to_string(),
            };
            findings.push(Finding::new(
                Code::CharsetReplaced,
                format!(
                    "{what}; the text is UTF-8 with some broken byte sequences, replaced by U+FFFD"
                ),
            ));
            (UTF_8, text)
        }
        // Not valid UTF-8, labelled UTF-8 or unlabelled: the charset given, or detect.
        (labelled, _) => decode_detected(bytes, labelled, said, charset, &mut findings),
    };
    Borrowed {
        text,
        encoding,
        bom_len: 0,
        label,
        findings,
    }
}

/// The encoding a CA label names; an unknown label is reported.
fn labelled_encoding(
    label: Option<&str>,
    findings: &mut Vec<Finding>,
) -> Option<&'static Encoding> {
    let l = label.filter(|l| !l.is_empty())?;
    let enc = encoding_for_label(l);
    if enc.is_none() {
        findings.push(Finding::new(
            Code::CharsetUnknownLabel,
            format!(
                "CA[{l}] names no known encoding; read as UTF-8 when the bytes are valid UTF-8, \
                 else as the encoding detected (named in a further finding)"
            ),
        ));
    }
    enc
}

/// Bytes under a label other than UTF-8: decoded by it, or, when they are not
/// valid in it, in the encoding [`assume`] finds them valid in.
fn decode_as_labelled<'b>(
    bytes: &'b [u8],
    enc: &'static Encoding,
    said: &str,
    charset: Option<&'static Encoding>,
    findings: &mut Vec<Finding>,
) -> (&'static Encoding, Cow<'b, str>) {
    let (text, errors) = enc.decode_without_bom_handling(bytes);
    if !errors {
        return (enc, text);
    }
    let assumed = assume(bytes, charset);
    if !assumed.errors && assumed.encoding != enc {
        findings.push(Finding::new(
            Code::CharsetWrongLabel,
            format!(
                "CA[{said}] declares {} but the bytes are not valid {}; {}",
                enc.name(),
                enc.name(),
                assumed.why
            ),
        ));
        (assumed.encoding, assumed.text)
    } else {
        findings.push(Finding::new(
            Code::CharsetReplaced,
            format!("bytes invalid in {} were replaced by U+FFFD", enc.name()),
        ));
        (enc, text)
    }
}

/// Bytes that are not valid UTF-8, labelled UTF-8 or unlabelled: read in the
/// encoding [`assume`] gives.
fn decode_detected<'b>(
    bytes: &'b [u8],
    labelled: Option<&'static Encoding>,
    said: &str,
    charset: Option<&'static Encoding>,
    findings: &mut Vec<Finding>,
) -> (&'static Encoding, Cow<'b, str>) {
    let assumed = assume(bytes, charset);
    let (why, what) = match labelled {
        Some(enc) if enc == UTF_8 => (
            Code::CharsetWrongLabel,
            format!("CA[{said}] but the bytes are not valid UTF-8"),
        ),
        Some(_) => (
            Code::CharsetAssumed,
            format!("CA[{said}] but the bytes are not valid UTF-8"),
        ),
        None => (
            Code::CharsetAssumed,
            "no usable CA label and the bytes are not UTF-8".to_string(),
        ),
    };
    findings.push(Finding::new(why, format!("{what}; {}", assumed.why)));
    if assumed.errors {
        findings.push(Finding::new(
            Code::CharsetReplaced,
            format!(
                "bytes invalid in {} were replaced by U+FFFD",
                assumed.encoding.name()
            ),
        ));
    }
    (assumed.encoding, assumed.text)
}

/// Text read in an encoding no label gave, and the words that say which.
struct Assumed<'b> {
    encoding: &'static Encoding,
    text: Cow<'b, str>,
    /// Some bytes are invalid in `encoding` and were replaced.
    errors: bool,
    why: String,
}

/// The encoding of bytes that no label decides: `charset` (the one the user
/// gave for such texts) when the bytes are valid in it; else the detector's
/// guess when they are valid in that; else `charset`, replacing what is
/// invalid. Without `charset`, or on valid UTF-8 (under a label that lies),
/// the guess, which is UTF-8 for valid UTF-8.
fn assume<'b>(bytes: &'b [u8], charset: Option<&'static Encoding>) -> Assumed<'b> {
    let guessed = |bytes| {
        let guess = detect(bytes);
        let (text, errors) = guess.decode_without_bom_handling(bytes);
        Assumed {
            encoding: guess,
            text,
            errors,
            why: detected(guess, bytes),
        }
    };
    let Some(given) = charset.filter(|_| std::str::from_utf8(bytes).is_err()) else {
        return guessed(bytes);
    };
    let (text, errors) = given.decode_without_bom_handling(bytes);
    let as_given = format!(
        "read as {}, the charset given for such records",
        given.name()
    );
    if errors {
        let guess = guessed(bytes);
        if !guess.errors {
            return Assumed {
                why: format!(
                    "not valid {} (the charset given); {}",
                    given.name(),
                    guess.why
                ),
                ..guess
            };
        }
    }
    Assumed {
        encoding: given,
        text,
        errors,
        why: as_given,
    }
}

fn find_label_text(text: &str) -> Option<String> {
    find_label(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte invalid in GBK becomes one U+FFFD standing for that one byte:
    /// the text before a later place takes the file's 3 bytes, not the 10
    /// of `棋` and a re-encoded U+FFFD (`&#65533;`).
    #[test]
    fn replaced_bytes_count_as_the_bytes_they_were() {
        let gbk = encoding_rs::GBK;
        let mut bytes = gbk.encode("棋").0.into_owned();
        bytes.extend_from_slice(b"\xff;B[aa]");
        let (text, errors) = gbk.decode_without_bom_handling(&bytes);
        assert!(errors);
        let replaced = replacements(gbk, &bytes, &text);
        assert_eq!(replaced, [("棋".len(), 1)]);
        let d = Decoded {
            text: text.into_owned(),
            identity: false,
            encoding: gbk,
            bom_len: 0,
            label: None,
            findings: Vec::new(),
            utf32: None,
            replaced,
            guessed_from: None,
        };
        let at = d.text.find(";B").unwrap();
        assert_eq!(d.encoded_len(&d.text[..at]), 3);
        assert_eq!(d.encoded_len(&d.text[at..]), 6);
    }

    #[test]
    fn aliases_resolve() {
        assert_eq!(encoding_for_label("cp936").map(|e| e.name()), Some("GBK"));
        assert_eq!(
            encoding_for_label("MS_KANJI").map(|e| e.name()),
            Some("Shift_JIS")
        );
        assert_eq!(
            encoding_for_label("cp949").map(|e| e.name()),
            Some("EUC-KR")
        );
        assert_eq!(
            encoding_for_label("latin-1").map(|e| e.name()),
            Some("windows-1252")
        );
        assert_eq!(encoding_for_label("GB2312").map(|e| e.name()), Some("GBK"));
    }

    #[test]
    fn utf8_bom_is_stripped() {
        let d = decode(b"\xEF\xBB\xBF(;GM[1])".to_vec(), None);
        assert_eq!(d.text, "(;GM[1])");
        assert_eq!(d.bom_len, 3);
        assert_eq!(d.encoded_len("(;"), 2);
    }

    #[test]
    fn gbk_under_utf8_label_is_detected() {
        // "中国围棋" in GBK.
        let mut bytes = b"(;CA[UTF-8]PB[".to_vec();
        for _ in 0..20 {
            bytes.extend_from_slice(&[0xD6, 0xD0, 0xB9, 0xFA, 0xCE, 0xA7, 0xC6, 0xE5]);
        }
        bytes.extend_from_slice(b"])");
        let d = decode(bytes.clone(), None);
        assert!(d.findings.iter().any(|f| f.code == Code::CharsetWrongLabel));
        assert!(d.text.contains("中国围棋"), "{}", d.text);
        // 20 times 8 bytes, none ASCII.
        let f = d
            .findings
            .iter()
            .find(|f| f.code == Code::CharsetWrongLabel);
        assert!(f.is_some_and(|f| f.message.ends_with("(from 160 bytes that are not ASCII)")));
    }

    /// A guess says how many bytes it rests on: `白` in GBK is two.
    #[test]
    fn a_guess_names_its_evidence() {
        let d = decode(b"(;GM[1]PW[\xB0\xD7]PB[GNU Go])".to_vec(), None);
        let f = d.findings.iter().find(|f| f.code == Code::CharsetAssumed);
        assert!(
            f.is_some_and(|f| f.message.ends_with("(from 2 bytes that are not ASCII)")),
            "{:?}",
            d.findings
        );
        let d = decode(b"(;GM[1]C[h\xF6rru])".to_vec(), None);
        let f = d.findings.iter().find(|f| f.code == Code::CharsetAssumed);
        assert!(f.is_some_and(|f| f.message.ends_with("(from 1 byte that is not ASCII)")));
    }

    /// `--charset` reads what no label decides: B0 D7 is `白` in GB2312's
    /// table, which two bytes are too few for the detector to find.
    #[test]
    fn a_given_charset_reads_what_no_label_decides() {
        let bytes = b"(;GM[1]PW[\xB0\xD7]PB[GNU Go])".to_vec();
        let d = decode(bytes.clone(), Some(encoding_rs::GBK));
        assert_eq!(d.text, "(;GM[1]PW[白]PB[GNU Go])");
        assert_eq!(d.encoding, encoding_rs::GBK);
        let f = d.findings.iter().find(|f| f.code == Code::CharsetAssumed);
        assert!(
            f.is_some_and(|f| f
                .message
                .ends_with("read as GBK, the charset given for such records")),
            "{:?}",
            d.findings
        );
        // The same bytes under a label they are not valid in (`\xB0` starts
        // no UTF-8 character): the label lies, as labels often do.
        let mut labelled = b"(;CA[UTF-8]".to_vec();
        labelled.extend_from_slice(&bytes[2..]);
        let d = decode(labelled, Some(encoding_rs::GBK));
        assert!(d.text.contains("PW[白]"), "{}", d.text);
        assert!(d.findings.iter().any(|f| f.code == Code::CharsetWrongLabel));
    }

    /// Valid UTF-8 stays UTF-8 whatever charset is given; a text not valid
    /// in the given charset is detected: `h\xF6rru` (Latin-1 `ö`) is not
    /// EUC-JP, whose trail bytes are A1-FE.
    #[test]
    fn a_given_charset_gives_way_to_utf8_and_to_invalid_bytes() {
        let d = decode("(;GM[1]PW[白])".as_bytes().to_vec(), Some(encoding_rs::GBK));
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.text, "(;GM[1]PW[白])");
        assert!(d.findings.is_empty(), "{:?}", d.findings);
        // Under a label it is not valid in (ISO-2022-JP has no byte above
        // 7F) as well; read as GBK, its bytes would be valid, and wrong.
        let utf8 = "(;CA[ISO-2022-JP]PW[白])";
        let d = decode(utf8.as_bytes().to_vec(), Some(encoding_rs::GBK));
        assert_eq!((d.encoding, d.text.as_str()), (UTF_8, utf8));
        let d = decode(b"(;GM[1]C[h\xF6rru])".to_vec(), Some(encoding_rs::EUC_JP));
        assert_eq!(d.text, "(;GM[1]C[hörru])");
        let f = d.findings.iter().find(|f| f.code == Code::CharsetAssumed);
        assert!(
            f.is_some_and(|f| f.message.ends_with(
                "not valid EUC-JP (the charset given); detected windows-1252 \
                 (from 1 byte that is not ASCII)"
            )),
            "{:?}",
            d.findings
        );
        assert!(d.findings.iter().all(|f| f.code != Code::CharsetReplaced));
    }
}
