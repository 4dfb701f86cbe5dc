//! A light, escape-aware pre-scan of decoded SGF text. sgf-parse reports errors
//! without a position; this scan finds the game trees of a collection (so each game
//! is parsed on its own and one bad game cannot lose the others) and locates every
//! syntax problem by byte offset, line and column.
//!
//! It never fails and never recurses: nesting depth is a counter.

use crate::core::findings::{Code, Location};

/// Problems recorded per game tree before the rest are only counted.
const MAX_PROBLEMS: usize = 16;

/// A syntax problem at a byte offset of the decoded text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub code: Code,
    pub offset: usize,
    /// Bytes from `offset` that are not SGF and are blanked before parsing, so
    /// that sgf-parse does not glue them to the next property (0: none).
    pub junk_len: usize,
    pub detail: String,
}

/// One top-level game tree `( ... )` of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeSpan {
    /// Offset of its `(`.
    pub start: usize,
    /// Offset just past its `)`, or the end of the text when unclosed.
    pub end: usize,
    /// Number of `)` missing at the end of the text.
    pub unclosed: u32,
    /// Nodes (`;`) seen inside it.
    pub nodes: u64,
    /// Problems inside it (at most `MAX_PROBLEMS`).
    pub problems: Vec<Problem>,
    /// Problems beyond those recorded.
    pub more_problems: u64,
}

/// What the scan found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    pub trees: Vec<TreeSpan>,
    /// Problems outside any game tree (leading, trailing and stray text).
    pub outside: Vec<Problem>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of a node or tree, or after a value-less identifier.
    Other,
    /// An identifier was just read.
    Ident,
    /// A value was just read.
    Value,
}

/// Scans decoded SGF text.
pub fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut out = Scan::default();
    let mut depth: u32 = 0;
    let mut current: Option<TreeSpan> = None;
    let mut prev = Prev::Other;
    let mut expect_node = false;
    let mut outside_start: Option<usize> = None;
    let mut i = 0;
    let n = b.len();

    fn push(tree: &mut Option<TreeSpan>, outside: &mut Vec<Problem>, p: Problem) {
        match tree {
            Some(t) if t.problems.len() < MAX_PROBLEMS => t.problems.push(p),
            Some(t) => t.more_problems += 1,
            None => {
                if outside.len() < MAX_PROBLEMS {
                    outside.push(p)
                }
            }
        }
    }

    while i < n {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if depth == 0 && c != b'(' {
            // Text outside any game tree: skip to the next `(` that opens a tree.
            outside_start.get_or_insert(i);
            if c == b')' {
                push(
                    &mut current,
                    &mut out.outside,
                    Problem {
                        code: Code::StrayClose,
                        offset: i,
                        junk_len: 0,
                        detail: "`)` outside any game tree".into(),
                    },
                );
            }
            i = skip_outside(b, i);
            continue;
        }
        match c {
            b'(' => {
                if depth == 0 {
                    if let Some(s) = outside_start.take() {
                        let code = if out.trees.is_empty() {
                            Code::LeadingText
                        } else {
                            Code::JunkText
                        };
                        out.outside.push(Problem {
                            code,
                            offset: s,
                            junk_len: 0,
                            detail: format!("{} byte(s) of text before a game tree", i - s),
                        });
                    }
                    current = Some(TreeSpan {
                        start: i,
                        end: n,
                        unclosed: 0,
                        nodes: 0,
                        problems: Vec::new(),
                        more_problems: 0,
                    });
                } else if expect_node {
                    push(
                        &mut current,
                        &mut out.outside,
                        Problem {
                            code: Code::EmptyVariation,
                            offset: i,
                            junk_len: 0,
                            detail: "`(` opens a variation inside a variation with no node".into(),
                        },
                    );
                }
                depth += 1;
                expect_node = true;
                prev = Prev::Other;
                i += 1;
            }
            b')' => {
                if expect_node {
                    push(
                        &mut current,
                        &mut out.outside,
                        Problem {
                            code: Code::EmptyVariation,
                            offset: i,
                            junk_len: 0,
                            detail: "`()` holds no node".into(),
                        },
                    );
                }
                if prev == Prev::Ident {
                    // identifier without value just before `)`: reported already
                }
                depth -= 1;
                expect_node = false;
                prev = Prev::Other;
                i += 1;
                if depth == 0 {
                    if let Some(mut t) = current.take() {
                        t.end = i;
                        out.trees.push(t);
                    }
                }
            }
            b';' => {
                if let Some(t) = current.as_mut() {
                    t.nodes += 1;
                }
                expect_node = false;
                prev = Prev::Other;
                i += 1;
            }
            b'[' => {
                if expect_node || prev == Prev::Other {
                    push(
                        &mut current,
                        &mut out.outside,
                        Problem {
                            code: Code::MissingIdentifier,
                            offset: i,
                            junk_len: 0,
                            detail: "a value `[...]` without a property identifier".into(),
                        },
                    );
                }
                match value_end(b, i + 1) {
                    Some(end) => {
                        i = end + 1;
                        prev = Prev::Value;
                    }
                    None => {
                        push(
                            &mut current,
                            &mut out.outside,
                            Problem {
                                code: Code::UnterminatedValue,
                                offset: i,
                                junk_len: 0,
                                detail: "`[` is never closed by `]`".into(),
                            },
                        );
                        i = n;
                    }
                }
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < n && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let mut j = i;
                while j < n && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if expect_node {
                    push(
                        &mut current,
                        &mut out.outside,
                        Problem {
                            code: Code::JunkText,
                            offset: start,
                            junk_len: 0,
                            detail: format!(
                                "`{}` stands between `(` and the first `;`",
                                clip(&text[start..i])
                            ),
                        },
                    );
                }
                if j < n && b[j] == b'[' {
                    prev = Prev::Ident;
                } else {
                    push(
                        &mut current,
                        &mut out.outside,
                        Problem {
                            code: Code::MissingValue,
                            offset: start,
                            junk_len: i - start,
                            detail: format!("`{}` has no value `[...]`", clip(&text[start..i])),
                        },
                    );
                    prev = Prev::Other;
                }
            }
            _ => {
                let start = i;
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                i += len;
                while i < n && !is_structural(b[i]) {
                    i += 1;
                }
                push(
                    &mut current,
                    &mut out.outside,
                    Problem {
                        code: Code::JunkText,
                        offset: start,
                        junk_len: i - start,
                        detail: format!("`{}` is not SGF", clip(text[start..i].trim_end())),
                    },
                );
                prev = Prev::Other;
            }
        }
    }
    if let Some(mut t) = current.take() {
        t.end = n;
        t.unclosed = depth;
        out.trees.push(t);
    } else if let Some(s) = outside_start {
        if !out.trees.is_empty() {
            out.outside.push(Problem {
                code: Code::TrailingText,
                offset: s,
                junk_len: 0,
                detail: format!("{} byte(s) of text after the last game tree", n - s),
            });
        }
    }
    out
}

/// The byte ranges of the nodes of a game tree's main line (first variation at
/// every branch), each from its `;` to just before the next `;`, `(` or `)`.
/// Escape-aware and iterative; used to parse very long games in chunks.
pub fn main_line_nodes(src: &str) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let mut nodes = Vec::new();
    let mut open: Option<usize> = None;
    let mut i = match b.iter().position(|&c| c == b'(') {
        Some(p) => p + 1,
        None => return nodes,
    };
    let close = |open: &mut Option<usize>, end: usize, nodes: &mut Vec<(usize, usize)>| {
        if let Some(s) = open.take() {
            nodes.push((s, end));
        }
    };
    while i < b.len() {
        match b[i] {
            b'[' => match value_end(b, i + 1) {
                Some(e) => i = e + 1,
                None => break,
            },
            b';' => {
                close(&mut open, i, &mut nodes);
                open = Some(i);
                i += 1;
            }
            // The main line goes on inside the first variation.
            b'(' => {
                close(&mut open, i, &mut nodes);
                i += 1;
            }
            // The end of the main line's deepest sequence: the main line ends.
            b')' => {
                close(&mut open, i, &mut nodes);
                return nodes;
            }
            _ => i += 1,
        }
    }
    close(&mut open, b.len(), &mut nodes);
    nodes
}

fn is_structural(c: u8) -> bool {
    matches!(c, b'(' | b')' | b';' | b'[') || c.is_ascii_alphabetic() || c.is_ascii_whitespace()
}

/// Skips text outside a game tree up to the next `(` followed (after white space)
/// by `;`, or to the end.
fn skip_outside(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if b[i] == b'(' {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b';' {
                return i;
            }
        }
        i += 1;
    }
    i
}

/// The offset of the `]` closing a value that starts at `i`, honouring `\` escapes.
pub(crate) fn value_end(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b']' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    None
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// Locates many byte offsets of `text` in one forward sweep: linear in the text
/// plus the number of offsets, whatever the number of problems or line lengths.
/// `encoded_len` gives the file bytes a piece of text took (for the file offset);
/// `base` is the file offset of the text's first byte (a byte-order mark).
pub fn locate_all(
    text: &str,
    offsets: &[usize],
    base: u64,
    encoded_len: impl Fn(&str) -> u64,
) -> Vec<(usize, Location)> {
    let mut sorted: Vec<usize> = offsets.iter().map(|&o| floor_boundary(text, o)).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let (mut pos, mut line, mut column, mut file) = (0usize, 1u32, 1u32, base);
    let mut out = Vec::with_capacity(sorted.len());
    for off in sorted {
        let seg = &text[pos..off];
        file += encoded_len(seg);
        for ch in seg.chars() {
            if ch == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        pos = off;
        out.push((
            off,
            Location {
                offset: file,
                line,
                column,
            },
        ));
    }
    out
}

fn floor_boundary(text: &str, mut off: usize) -> usize {
    off = off.min(text.len());
    while off > 0 && !text.is_char_boundary(off) {
        off -= 1;
    }
    off
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_collection_and_skips_junk() {
        let s = scan("junk (;B[aa])\n(;W[bb](;B[cc])(;B[dd])) trailing");
        assert_eq!(s.trees.len(), 2);
        assert_eq!(s.trees[0].start, 5);
        assert_eq!(s.trees[1].nodes, 3);
        assert_eq!(s.outside[0].code, Code::LeadingText);
        assert_eq!(s.outside.last().map(|p| p.code), Some(Code::TrailingText));
    }

    #[test]
    fn unterminated_value_and_unclosed_tree() {
        let s = scan("(;C[abc");
        assert_eq!(s.trees.len(), 1);
        assert_eq!(s.trees[0].unclosed, 1);
        assert_eq!(s.trees[0].problems[0].code, Code::UnterminatedValue);
        assert_eq!(s.trees[0].problems[0].offset, 3);
    }

    #[test]
    fn main_line_follows_first_variations() {
        let src = "(;GM[1]C[a;(b)];B[aa](;W[bb];B[cc])(;W[dd]))";
        let nodes: Vec<&str> = main_line_nodes(src)
            .iter()
            .map(|&(s, e)| &src[s..e])
            .collect();
        assert_eq!(nodes, [";GM[1]C[a;(b)]", ";B[aa]", ";W[bb]", ";B[cc]"]);
    }

    #[test]
    fn escaped_bracket_stays_in_value() {
        let s = scan(r"(;C[a\]b];B[aa])");
        assert!(s.trees[0].problems.is_empty(), "{:?}", s.trees[0].problems);
    }

    #[test]
    fn stray_text_between_properties_is_located() {
        let s = scan("(;B[cc] gfhf;W[kk])");
        let p = &s.trees[0].problems[0];
        assert_eq!(p.code, Code::MissingValue);
        assert_eq!(p.offset, 8);
        let l = locate_all("(;B[cc]\n gfhf;W[kk])", &[10, 2], 0, |s| s.len() as u64);
        assert_eq!(
            l[0].1,
            Location {
                offset: 2,
                line: 1,
                column: 3
            }
        );
        assert_eq!(
            l[1].1,
            Location {
                offset: 10,
                line: 2,
                column: 3
            }
        );
    }
}
