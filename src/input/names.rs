//! Names of inputs as reports print them: bytes that are not UTF-8 written
//! as `\xHH` escapes, and back.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Bytes of a name as text: as they are when they are UTF-8, else with every
/// invalid byte written `\xHH` and every backslash `\\`, so that two different
/// names that are not UTF-8 never print alike. A UTF-8 name is left as it is,
/// so one that itself holds the text `\xHH` prints like the name with that
/// byte.
pub fn escape_name(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let mut out = String::new();
            for chunk in bytes.utf8_chunks() {
                for c in chunk.valid().chars() {
                    if c == '\\' {
                        out.push_str("\\\\");
                    } else {
                        out.push(c);
                    }
                }
                for b in chunk.invalid() {
                    out.push_str(&format!("\\x{b:02X}"));
                }
            }
            out
        }
    }
}

/// A path as reports name it: as it is when it is UTF-8, else with its
/// invalid bytes escaped (`\xFF`, [`escape_name`]).
pub fn display_path(p: &Path) -> String {
    escape_name(&path_bytes(p))
}

/// A path's bytes: its own on Unix, elsewhere its text (lossily).
pub fn path_bytes(p: &Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match p.to_string_lossy() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }
    }
}

/// The path a name as reports print it stands for: the name itself when it
/// exists, else, on Unix, the name its `\xHH` and `\\` escapes
/// ([`escape_name`]) stand for, when they are its only backslashes and that
/// path exists.
pub fn on_disk(name: &str) -> PathBuf {
    let path = PathBuf::from(name);
    #[cfg(unix)]
    if name.contains("\\x") && !path.exists() {
        use std::os::unix::ffi::OsStringExt;
        if let Some(bytes) = unescape_name(name) {
            let unescaped = PathBuf::from(std::ffi::OsString::from_vec(bytes));
            if unescaped.exists() {
                return unescaped;
            }
        }
    }
    path
}

/// The text `\xHH` escapes in `text` stand for, when it holds some, they
/// are its only backslashes besides `\\`, and they make UTF-8: an archive
/// entry's name that the summary printed with its control characters escaped.
pub(crate) fn unescape_text(text: &str) -> Option<String> {
    if !text.contains("\\x") {
        return None;
    }
    unescape_name(text).and_then(|bytes| String::from_utf8(bytes).ok())
}

/// The bytes [`escape_name`] wrote as `text`, when `text` is one of its
/// escaped names.
fn unescape_name(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match rest {
            [b'\\', tail @ ..] => {
                out.push(b'\\');
                rest = tail;
            }
            [b'x', hi, lo, tail @ ..] if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() => {
                let digit = |c: u8| char::from(c).to_digit(16).unwrap_or(0) as u8;
                out.push(digit(*hi) * 16 + digit(*lo));
                rest = tail;
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(all(test, unix))]
mod tests {
    use super::{escape_name, unescape_name};

    #[test]
    fn an_escaped_name_gives_its_bytes_back() {
        for name in [&b"\xff.sgf"[..], b"a\\b\xfe\\x41", b"caf\xe9\\"] {
            assert_eq!(unescape_name(&escape_name(name)).as_deref(), Some(name));
        }
        // Backslashes other than `\\` and `\xHH` are not escapes.
        for text in ["a\\b", "a\\x4", "a\\xG1", "end\\"] {
            assert_eq!(unescape_name(text), None, "{text}");
        }
    }
}
