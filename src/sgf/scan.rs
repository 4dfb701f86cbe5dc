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

/// One top-level game tree `( ... )` of a collection, with its problems.
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

/// A game tree as the scan keeps it: 24 bytes, as a text can hold a tree every
/// three bytes (`(;)`), and most trees have no problem. The problems of the
/// others are kept apart ([`Scan::faults`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    start: usize,
    end: usize,
    /// Nodes, up to `u32::MAX` (far above any bound a game is held to).
    nodes: u32,
    /// Whether [`Scan::faults`] holds an entry for it.
    faulty: bool,
}
const _: () = assert!(std::mem::size_of::<Slot>() <= 24);
/// Trees per block of [`Scan`]'s list (1.5 MiB).
const BLOCK: usize = 1 << 16;
const _: () = assert!(BLOCK.is_power_of_two());

/// What a tree with problems has besides its [`Slot`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Faults {
    unclosed: u32,
    problems: Vec<Problem>,
    more_problems: u64,
}

/// What the scan found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// The trees in blocks of [`BLOCK`]: a vector that doubles would copy
    /// and hold up to three times what the trees need as it grows.
    trees: Vec<Vec<Slot>>,
    count: usize,
    /// The problems of the trees that have any, by tree number, in order.
    faults: Vec<(usize, Faults)>,
    /// Problems outside any game tree (leading, trailing and stray text).
    pub outside: Vec<Problem>,
}

impl Scan {
    /// Number of game trees found.
    pub fn tree_count(&self) -> usize {
        self.count
    }

    /// Game tree `index` with its problems (`None` past the last one).
    pub fn tree(&self, index: usize) -> Option<TreeSpan> {
        let slot = self.trees.get(index / BLOCK)?.get(index % BLOCK)?;
        let faults = slot
            .faulty
            .then(|| self.faults.binary_search_by_key(&index, |(k, _)| *k).ok())
            .flatten()
            .map(|at| self.faults[at].1.clone())
            .unwrap_or_default();
        Some(TreeSpan {
            start: slot.start,
            end: slot.end,
            unclosed: faults.unclosed,
            nodes: u64::from(slot.nodes),
            problems: faults.problems,
            more_problems: faults.more_problems,
        })
    }

    /// Offset of game tree `index`'s `(` (`None` past the last tree).
    pub fn tree_start(&self, index: usize) -> Option<usize> {
        Some(self.trees.get(index / BLOCK)?.get(index % BLOCK)?.start)
    }

    /// The first game tree that starts at or after `offset`.
    pub fn tree_after(&self, offset: usize) -> Option<usize> {
        let blocks = self
            .trees
            .partition_point(|b| b.last().is_some_and(|t| t.start < offset));
        let block = self.trees.get(blocks)?;
        let at = block.partition_point(|t| t.start < offset);
        Some(blocks * BLOCK + at).filter(|&k| k < self.count)
    }

    /// The offsets of every problem inside a game tree.
    pub fn tree_problem_offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.faults
            .iter()
            .flat_map(|(_, f)| f.problems.iter().map(|p| p.offset))
    }

    fn push(&mut self, t: TreeSpan) {
        let faulty = t.unclosed > 0 || !t.problems.is_empty() || t.more_problems > 0;
        if faulty {
            self.faults.push((
                self.count,
                Faults {
                    unclosed: t.unclosed,
                    problems: t.problems,
                    more_problems: t.more_problems,
                },
            ));
        }
        if self.count.is_multiple_of(BLOCK) {
            // Grown as usual (a file of one game needs one slot): a block
            // of a power of two stops growing exactly full.
            self.trees.push(Vec::new());
        }
        self.count += 1;
        let Some(block) = self.trees.last_mut() else {
            unreachable!("a block was just added if none had room")
        };
        block.push(Slot {
            start: t.start,
            end: t.end,
            nodes: u32::try_from(t.nodes).unwrap_or(u32::MAX),
            faulty,
        });
    }
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
    let mut s = Scanner::new(text);
    while s.i < s.b.len() {
        let c = s.b[s.i];
        if c.is_ascii_whitespace() {
            s.i += 1;
            continue;
        }
        if s.depth == 0 && c != b'(' {
            s.outside();
            continue;
        }
        match c {
            b'(' => s.open(),
            b')' => s.close(),
            b';' => s.node(),
            b'[' => s.value(),
            c if c.is_ascii_alphabetic() => s.identifier(),
            _ => s.junk(),
        }
    }
    s.finish()
}

/// The scan's state as it walks the text once.
struct Scanner<'t> {
    text: &'t str,
    b: &'t [u8],
    /// The next byte to look at.
    i: usize,
    /// Open `(` not yet closed.
    depth: u32,
    /// The game tree being scanned.
    current: Option<TreeSpan>,
    prev: Prev,
    /// A `(` was just opened: a `;` must come first.
    expect_node: bool,
    /// Where the text outside any game tree began.
    outside_start: Option<usize>,
    out: Scan,
}

impl<'t> Scanner<'t> {
    fn new(text: &'t str) -> Scanner<'t> {
        Scanner {
            text,
            b: text.as_bytes(),
            i: 0,
            depth: 0,
            current: None,
            prev: Prev::Other,
            expect_node: false,
            outside_start: None,
            out: Scan::default(),
        }
    }

    /// Records a problem in the current tree (or outside any tree).
    fn problem(&mut self, code: Code, offset: usize, junk_len: usize, detail: String) {
        let p = Problem {
            code,
            offset,
            junk_len,
            detail,
        };
        match &mut self.current {
            Some(t) if t.problems.len() < MAX_PROBLEMS => t.problems.push(p),
            Some(t) => t.more_problems += 1,
            None => {
                if self.out.outside.len() < MAX_PROBLEMS {
                    self.out.outside.push(p)
                }
            }
        }
    }

    /// Text outside any game tree: skipped to the next `(` that opens a tree.
    fn outside(&mut self) {
        self.outside_start.get_or_insert(self.i);
        if self.b[self.i] == b')' {
            self.problem(
                Code::StrayClose,
                self.i,
                0,
                "`)` outside any game tree".into(),
            );
        }
        self.i = skip_outside(self.b, self.i);
    }

    /// `(`: a game tree at depth 0, a variation inside one.
    fn open(&mut self) {
        let i = self.i;
        if self.depth == 0 {
            if let Some(s) = self.outside_start.take() {
                let code = if self.out.tree_count() == 0 {
                    Code::LeadingText
                } else {
                    Code::JunkText
                };
                self.out.outside.push(Problem {
                    code,
                    offset: s,
                    junk_len: 0,
                    detail: format!("{} byte(s) of text before a game tree", i - s),
                });
            }
            self.current = Some(TreeSpan {
                start: i,
                end: self.b.len(),
                unclosed: 0,
                nodes: 0,
                problems: Vec::new(),
                more_problems: 0,
            });
        } else if self.expect_node {
            self.problem(
                Code::EmptyVariation,
                i,
                0,
                "`(` opens a variation inside a variation with no node".into(),
            );
        }
        self.depth += 1;
        self.expect_node = true;
        self.prev = Prev::Other;
        self.i += 1;
    }

    /// `)`: closes a variation, or the game tree at depth 1.
    fn close(&mut self) {
        if self.expect_node {
            self.problem(Code::EmptyVariation, self.i, 0, "`()` holds no node".into());
        }
        self.depth -= 1;
        self.expect_node = false;
        self.prev = Prev::Other;
        self.i += 1;
        if self.depth == 0 {
            if let Some(mut t) = self.current.take() {
                t.end = self.i;
                self.out.push(t);
            }
        }
    }

    /// `;`: a node.
    fn node(&mut self) {
        if let Some(t) = self.current.as_mut() {
            t.nodes += 1;
        }
        self.expect_node = false;
        self.prev = Prev::Other;
        self.i += 1;
    }

    /// `[`: a value, to its unescaped `]`.
    fn value(&mut self) {
        let i = self.i;
        if self.expect_node || self.prev == Prev::Other {
            self.problem(
                Code::MissingIdentifier,
                i,
                0,
                "a value `[...]` without a property identifier".into(),
            );
        }
        match value_end(self.b, i + 1) {
            Some(end) => {
                self.i = end + 1;
                self.prev = Prev::Value;
            }
            None => {
                self.problem(
                    Code::UnterminatedValue,
                    i,
                    0,
                    "`[` is never closed by `]`".into(),
                );
                self.i = self.b.len();
            }
        }
    }

    /// A property identifier (letters), which a value must follow.
    fn identifier(&mut self) {
        let (b, n, start) = (self.b, self.b.len(), self.i);
        let mut i = start;
        while i < n && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        self.i = i;
        let mut j = i;
        while j < n && b[j].is_ascii_whitespace() {
            j += 1;
        }
        let id = clip(&self.text[start..i]);
        if self.expect_node {
            self.problem(
                Code::JunkText,
                start,
                0,
                format!("`{id}` stands between `(` and the first `;`"),
            );
        }
        if j < n && b[j] == b'[' {
            self.prev = Prev::Ident;
        } else {
            self.problem(
                Code::MissingValue,
                start,
                i - start,
                format!("`{id}` has no value `[...]`"),
            );
            self.prev = Prev::Other;
        }
    }

    /// Anything else: text that is not SGF, up to the next structural byte.
    fn junk(&mut self) {
        let (b, n, start) = (self.b, self.b.len(), self.i);
        let len = self.text[start..].chars().next().map_or(1, char::len_utf8);
        let mut i = start + len;
        while i < n && !is_structural(b[i]) {
            i += 1;
        }
        self.i = i;
        let what = clip(self.text[start..i].trim_end());
        self.problem(
            Code::JunkText,
            start,
            i - start,
            format!("`{what}` is not SGF"),
        );
        self.prev = Prev::Other;
    }

    /// The end of the text: a tree still open is closed there.
    fn finish(mut self) -> Scan {
        let n = self.b.len();
        if let Some(mut t) = self.current.take() {
            t.end = n;
            t.unclosed = self.depth;
            self.out.push(t);
        } else if let Some(s) = self.outside_start {
            if self.out.tree_count() > 0 {
                self.out.outside.push(Problem {
                    code: Code::TrailingText,
                    offset: s,
                    junk_len: 0,
                    detail: format!("{} byte(s) of text after the last game tree", n - s),
                });
            }
        }
        self.out
    }
}

/// The byte ranges of the nodes of a game tree's main line (first variation at
/// every branch), each from its `;` to just before the next `;`, `(` or `)`.
/// Escape-aware and iterative; used to parse very long games in chunks.
pub fn main_line_nodes(src: &str) -> Vec<(usize, usize)> {
    let mut nodes = Vec::new();
    walk_main_line(src, |s, e| nodes.push((s, e)));
    nodes
}

/// How many nodes [`main_line_nodes`] would give, without holding them.
pub fn main_line_len(src: &str) -> u64 {
    let mut n = 0;
    walk_main_line(src, |_, _| n += 1);
    n
}

/// Calls `at` with the offset of each move property's `B` or `W` on a game
/// tree's main line, in order: the moves the record's main line holds,
/// numbered from 1 as findings number them (`B [aa]` is a move, `AB[aa]`,
/// `b[aa]` and a `B[..]` inside a value are not).
pub fn main_line_moves(src: &str, mut at: impl FnMut(usize)) {
    main_line_properties(src, |p| {
        if p.is_move() {
            at(p.offset);
        }
    });
}

/// A property of a main-line node, as [`main_line_properties`] gives it.
#[derive(Clone, Copy, Debug)]
pub struct PropertyAt<'a> {
    /// Moves (`B`, `W`) in the nodes before its node: the count the record
    /// has reached when it reads the node.
    pub moves_before: u32,
    /// Its node's number on the main line (the root is 0).
    pub node: usize,
    /// Its identifier appeared before in the same node.
    pub repeated: bool,
    /// Where the first capital of its identifier stands.
    pub offset: usize,
    /// Its identifier as the parser reads it (its capitals).
    pub ident: &'a [u8],
}

impl PropertyAt<'_> {
    pub fn is_move(&self) -> bool {
        matches!(self.ident, b"B" | b"W")
    }
}

/// Calls `property` with each property of a game tree's main line, in
/// order: a property is an identifier read by its capitals, as the parser
/// reads old files' mixed-case ones, then a value (white space may stand
/// between them).
pub fn main_line_properties(src: &str, mut property: impl FnMut(PropertyAt<'_>)) {
    let b = src.as_bytes();
    let (mut moves, mut node) = (0u32, 0usize);
    // The identifiers of the node so far (at most 8 capitals each).
    let mut seen: Vec<([u8; 8], usize)> = Vec::new();
    walk_main_line(src, |start, end| {
        let moves_before = moves;
        seen.clear();
        node_properties(b, start, end, |offset, ident| {
            let mut key = [0u8; 8];
            key[..ident.len()].copy_from_slice(ident);
            let repeated = seen.contains(&(key, ident.len()));
            if !repeated {
                seen.push((key, ident.len()));
            }
            let p = PropertyAt {
                moves_before,
                node,
                repeated,
                offset,
                ident,
            };
            moves = moves.saturating_add(u32::from(p.is_move()));
            property(p);
        });
        node += 1;
    });
}

/// The offset of property `ident` in a game tree's root node (of its last
/// occurrence: the value the game information keeps), if it has one.
pub fn root_property(src: &str, ident: &str) -> Option<usize> {
    let b = src.as_bytes();
    // The root node: from the tree's first `;` to the next `;`, `(` or `)`.
    let open = b.iter().position(|&c| c == b'(')?;
    let start = open + 1 + b[open + 1..].iter().position(|&c| c == b';')?;
    let mut end = start + 1;
    while end < b.len() && !matches!(b[end], b';' | b'(' | b')') {
        end = match b[end] {
            b'[' => value_end(b, end + 1).map_or(b.len(), |e| e + 1),
            _ => end + 1,
        };
    }
    let mut found = None;
    node_properties(b, start, end, |offset, id| {
        if id == ident.as_bytes() {
            found = Some(offset);
        }
    });
    found
}

/// Calls `property` with each property of the node `b[start..end]` (from
/// its `;`): where the first capital of its identifier stands, and its
/// identifier as the parser reads it, its capitals (old files' mixed-case
/// identifiers: `nolowercaseW` is `W`; longer than 8 capitals, none).
/// Values are skipped escape-aware; white space may stand before a value.
fn node_properties(b: &[u8], start: usize, end: usize, mut property: impl FnMut(usize, &[u8])) {
    // The identifier before the next value, if only white space follows it.
    let mut ident: Option<(usize, [u8; 8], usize)> = None;
    let mut i = start + 1;
    while i < end {
        match b[i] {
            b'[' => {
                if let Some((at, caps, n)) = ident.take() {
                    if n <= caps.len() {
                        property(at, &caps[..n]);
                    }
                }
                i = value_end(b, i + 1).map_or(end, |e| e + 1);
            }
            c if c.is_ascii_alphabetic() => {
                let (mut at, mut caps, mut n) = (None, [0u8; 8], 0usize);
                while i < end && b[i].is_ascii_alphabetic() {
                    if b[i].is_ascii_uppercase() {
                        at.get_or_insert(i);
                        if let Some(slot) = caps.get_mut(n) {
                            *slot = b[i];
                        }
                        n += 1;
                    }
                    i += 1;
                }
                ident = at.map(|at| (at, caps, n));
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                ident = None;
                i += 1;
            }
        }
    }
}

/// Calls `node` with the byte range of each node of the main line, in order.
fn walk_main_line(src: &str, mut node: impl FnMut(usize, usize)) {
    let b = src.as_bytes();
    let mut open: Option<usize> = None;
    let mut i = match b.iter().position(|&c| c == b'(') {
        Some(p) => p + 1,
        None => return,
    };
    let mut close = |open: &mut Option<usize>, end: usize| {
        if let Some(s) = open.take() {
            node(s, end);
        }
    };
    while i < b.len() {
        match b[i] {
            b'[' => match value_end(b, i + 1) {
                Some(e) => i = e + 1,
                None => break,
            },
            b';' => {
                close(&mut open, i);
                open = Some(i);
                i += 1;
            }
            // The main line goes on inside the first variation; `()`, which
            // holds no node, is passed over, as the parser passes it over.
            b'(' => {
                close(&mut open, i);
                i += 1;
                let after = i + b[i..]
                    .iter()
                    .take_while(|c| c.is_ascii_whitespace())
                    .count();
                if b.get(after) == Some(&b')') {
                    i = after + 1;
                }
            }
            // The end of the main line's deepest sequence: the main line ends.
            b')' => {
                close(&mut open, i);
                return;
            }
            _ => i += 1,
        }
    }
    close(&mut open, b.len());
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
    let start = Location {
        offset: base,
        line: 1,
        column: 1,
    };
    locate_from(text, (0, start), offsets, encoded_len)
}

/// [`locate_all`] from a place already located: `from` is a text offset and
/// its location; every offset must lie at or after it.
pub fn locate_from(
    text: &str,
    from: (usize, Location),
    offsets: &[usize],
    encoded_len: impl Fn(&str) -> u64,
) -> Vec<(usize, Location)> {
    let mut sorted: Vec<usize> = offsets
        .iter()
        .map(|&o| floor_boundary(text, o.max(from.0)))
        .collect();
    sorted.sort_unstable();
    sorted.dedup();
    let (mut pos, at) = from;
    let (mut line, mut column, mut file) = (at.line, at.column, at.offset);
    let mut out = Vec::with_capacity(sorted.len());
    for off in sorted {
        let seg = &text[pos..off];
        file += encoded_len(seg);
        // Columns are counted in characters: the bytes that do not continue
        // a UTF-8 sequence. A line ends at '\n', at '\r\n' and at a lone
        // '\r' (the line end of classic Mac OS files), as editors count
        // them; text without '\r' takes loops that vectorise.
        let bytes = seg.as_bytes();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let chars = |b: &[u8]| count(b.iter().filter(|&&x| (x as i8) >= -0x40).count());
        let after_cr = text.as_bytes()[..pos].last() == Some(&b'\r');
        let (ends, last) = if bytes.contains(&b'\r') || (after_cr && bytes.first() == Some(&b'\n'))
        {
            line_ends(bytes, after_cr)
        } else {
            let ends = bytes.iter().filter(|&&b| b == b'\n').count();
            (ends, bytes.iter().rposition(|&b| b == b'\n'))
        };
        match last {
            Some(last) => {
                line = line.saturating_add(count(ends));
                column = chars(&bytes[last + 1..]).saturating_add(1);
            }
            None => column = column.saturating_add(chars(bytes)),
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

/// The lines `bytes` end (each '\r', and each '\n' not right after one;
/// `after_cr`: the byte before them was '\r'), and where the last line
/// end byte is.
fn line_ends(bytes: &[u8], mut after_cr: bool) -> (usize, Option<usize>) {
    let (mut ends, mut last) = (0, None);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' || b == b'\n' {
            ends += usize::from(!(b == b'\n' && after_cr));
            last = Some(i);
        }
        after_cr = b == b'\r';
    }
    (ends, last)
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
        assert_eq!(s.tree_count(), 2);
        assert_eq!(s.tree(0).map(|t| t.start), Some(5));
        assert_eq!(s.tree(1).map(|t| t.nodes), Some(3));
        assert_eq!(s.outside[0].code, Code::LeadingText);
        assert_eq!(s.outside.last().map(|p| p.code), Some(Code::TrailingText));
    }

    #[test]
    fn trees_past_a_block_keep_their_places() {
        // Three bytes a tree, a space before every thousandth: tree k starts
        // at 3k plus the spaces before it.
        let n = BLOCK + 5_000;
        let mut text = String::new();
        for k in 0..n {
            if k % 1_000 == 0 {
                text.push(' ');
            }
            text.push_str("(;)");
        }
        let s = scan(&text);
        assert_eq!(s.tree_count(), n);
        let start = |k: usize| 3 * k + k / 1_000 + 1;
        for k in [0, 999, 1_000, BLOCK - 1, BLOCK, BLOCK + 1, n - 1] {
            let t = s.tree(k).unwrap();
            assert_eq!(
                (t.start, t.end, t.nodes),
                (start(k), start(k) + 3, 1),
                "{k}"
            );
            assert_eq!(s.tree_after(start(k)), Some(k));
            assert_eq!(s.tree_after(start(k) - 1), Some(k));
        }
        assert_eq!(s.tree(n), None);
        assert_eq!(s.tree_after(start(n - 1) + 1), None);
    }

    #[test]
    fn unterminated_value_and_unclosed_tree() {
        let s = scan("(;C[abc");
        assert_eq!(s.tree_count(), 1);
        let t = s.tree(0).unwrap();
        assert_eq!(t.unclosed, 1);
        assert_eq!(t.problems[0].code, Code::UnterminatedValue);
        assert_eq!(t.problems[0].offset, 3);
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

    /// An empty variation is passed over, as sgf-parse passes it over (the
    /// audit of such a record counts the moves after it).
    #[test]
    fn main_line_passes_over_an_empty_variation() {
        let src = "(;B[aa]( );W[bb]()(;B[cc])(;B[dd]))";
        let nodes: Vec<&str> = main_line_nodes(src)
            .iter()
            .map(|&(s, e)| &src[s..e])
            .collect();
        assert_eq!(nodes, [";B[aa]", ";W[bb]", ";B[cc]"]);
    }

    /// The moves of the main line, by the offset of their `B` or `W`: not a
    /// move inside a value, not `AB` or `b`, a move with white space before its
    /// value, a mixed-case identifier by its one capital, two in one node.
    #[test]
    fn main_line_moves_are_its_b_and_w_properties() {
        let src = "(;AB[aa]C[B[bb\\]W[cc]];b[dd]B [ee];nolowerW[ff]BL[3](;W[gg]B[hh])(;B[ii]))";
        let mut at = Vec::new();
        main_line_moves(src, |o| at.push(o));
        let expected: Vec<usize> = ["B [ee]", "W[ff]", "W[gg]", "B[hh]"]
            .iter()
            .map(|m| src.find(m).unwrap())
            .collect();
        assert_eq!(at, expected);
    }

    #[test]
    fn escaped_bracket_stays_in_value() {
        let s = scan(r"(;C[a\]b];B[aa])");
        let t = s.tree(0).unwrap();
        assert!(t.problems.is_empty(), "{:?}", t.problems);
    }

    #[test]
    fn stray_text_between_properties_is_located() {
        let s = scan("(;B[cc] gfhf;W[kk])");
        let t = s.tree(0).unwrap();
        let p = &t.problems[0];
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
