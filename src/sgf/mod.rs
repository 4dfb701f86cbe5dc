//! The SGF layer: bytes to [`GameRecord`]s. Decoding (`decode`), a pre-scan that
//! splits collections and locates syntax problems (`scan`), parsing with sgf-parse
//! (strict, then lenient), and conversion to the core's record (`convert`).
//!
//! Invariant: reading never fails. Every game tree yields a [`ParsedGame`] with
//! either a record or the reason there is none, plus its findings.

pub mod convert;
pub mod decode;
mod not_sgf;
pub mod scan;

use std::collections::{HashMap, VecDeque};

use encoding_rs::Encoding;
use sgf_parse::{parse_with_options, GameTree, ParseOptions};

use crate::core::findings::{Code, Finding, Location};
use crate::core::game::{GameInfo, GameRecord};

pub use convert::NoRecord;
pub use decode::Decoded;
pub use not_sgf::Binary;
pub use scan::Scan;

/// Why a file holds no game tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoGame {
    #[error("the file is empty")]
    Empty,
    #[error("no SGF game tree `(;` found")]
    NotSgf,
    /// A web page: what a server sends instead of a record it will not
    /// give (a login page, an error page).
    #[error("no SGF game tree `(;` found: the file is an HTML page, not SGF text")]
    Html,
    /// A binary format (compressed data, an archive, macOS metadata), told
    /// by its first bytes, under a name that is read as SGF text.
    #[error("no SGF game tree `(;` found: the file is {}, not SGF text ({})", .0.what(), .0.read_as())]
    Binary(Binary),
}

impl NoGame {
    /// The finding that reports it.
    pub fn code(self) -> Code {
        match self {
            NoGame::Empty => Code::EmptyFile,
            NoGame::NotSgf | NoGame::Html | NoGame::Binary(_) => Code::NotSgf,
        }
    }
}

/// A decoded and scanned file, ready to parse game by game. It owns its text,
/// so its games can be parsed on any thread.
pub struct Collection {
    pub decoded: Decoded,
    /// The bytes were of a binary format (by their first bytes).
    binary: Option<Binary>,
    pub scan: Scan,
    /// Every problem offset located, and a checkpoint every [`CHECKPOINT`]
    /// bytes, sorted by offset (one sweep over the text): any other place
    /// (a game's start, a move, a property, a long value's cut) is located
    /// from the entry before it, not from the start of a long collection.
    locations: Vec<(usize, Location)>,
}

/// What a finding stands on in a game's main line (see [`Collection::places`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Move n (from 1).
    Move(u32),
    /// Setup (`AB`, `AW`, `AE`) in a node read after move n.
    Setup(u32),
    /// A property repeated in a node read after move n.
    Repeated(u32),
    /// The main line's setup property (`AB`, `AW`, `AE`) number k (from 0).
    SetupProperty(u32),
    /// The territory markup the count reads: the first `TB` or `TW` that no
    /// move in a later node follows (every finding about it stands there).
    Markup,
}

/// Bytes of text between two checkpoints of [`Collection`].
const CHECKPOINT: usize = 1 << 10;

/// One game of a collection after parsing.
pub struct ParsedGame {
    pub record: Option<GameRecord>,
    pub info: GameInfo,
    /// Why there is no record.
    pub error: Option<NoRecord>,
    pub findings: Vec<Finding>,
}

impl ParsedGame {
    fn no_record(why: NoRecord, findings: Vec<Finding>) -> ParsedGame {
        ParsedGame {
            record: None,
            info: GameInfo::default(),
            error: Some(why),
            findings,
        }
    }
}

/// Decodes and scans a file's bytes.
pub fn read(bytes: Vec<u8>) -> Collection {
    read_in(bytes, None)
}

/// [`read`], with the encoding of a text that declares none usable and is
/// not UTF-8, when the user knows it (`--charset`; else it is detected).
pub fn read_in(bytes: Vec<u8>, charset: Option<&'static Encoding>) -> Collection {
    match Binary::sniff(&bytes) {
        // Not text: nothing of it is decoded or scanned.
        Some(binary) => Collection {
            binary: Some(binary),
            ..collection(decode::decode(Vec::new(), None))
        },
        None => collection(decode::decode(bytes, charset)),
    }
}

/// [`read_in`] for a part after the first of a file read in parts
/// (`input::parts`): valid UTF-8 is taken as UTF-8 whatever its labels.
pub fn read_continuation(bytes: Vec<u8>, charset: Option<&'static Encoding>) -> Collection {
    collection(decode::decode_continuation(bytes, charset))
}

fn collection(decoded: decode::Decoded) -> Collection {
    let scan = scan::scan(&decoded.text);
    let mut offsets: Vec<usize> = scan.outside.iter().map(|p| p.offset).collect();
    offsets.extend(scan.tree_problem_offsets());
    offsets.push(decoded.text.len());
    offsets.extend((0..decoded.text.len()).step_by(CHECKPOINT));
    let locations = scan::locate_all(&decoded.text, &offsets, decoded.bom_len as u64, |seg| {
        decoded.encoded_len(seg)
    });
    Collection {
        decoded,
        binary: None,
        scan,
        locations,
    }
}

impl Collection {
    fn locate(&self, offset: usize) -> Location {
        let i = self.locations.partition_point(|(o, _)| *o < offset);
        match self.locations.get(i) {
            Some((o, l)) if *o == offset => *l,
            // Not located in the sweep: from the place located before it.
            _ => self.locate_near(&[offset]).first().map_or(
                Location {
                    offset: 0,
                    line: 1,
                    column: 1,
                },
                |x| x.1,
            ),
        }
    }

    /// Where the findings of game `index` that stand on its main line are
    /// written (`places[k]` for `wanted[k]`): a move's `B` or `W`, the
    /// setup of a node read after a move, a property repeated in such a
    /// node (the k-th finding of a kind after the same move takes the k-th
    /// place of that kind). None unless the text's main line holds exactly
    /// `moves` moves, the record's count (a tree the parser read only in
    /// part, say), so a place is never a guess.
    pub fn places(&self, index: usize, moves: u32, wanted: &[Place]) -> Vec<Option<Location>> {
        let mut places = vec![None; wanted.len()];
        let Some((start, src)) = self.tree_text(index) else {
            return places;
        };
        // The findings waiting for each place, in order.
        let mut waiting: HashMap<Place, VecDeque<usize>> = HashMap::new();
        for (k, &w) in wanted.iter().enumerate() {
            waiting.entry(w).or_default().push_back(k);
        }
        let (mut n, mut setup_node, mut setup_properties) = (0u32, None, 0u32);
        let mut found: Vec<(usize, usize)> = Vec::new();
        // The markup's first property, and the first of the node being read
        // (a move there keeps it: markup counts in the last move's node).
        let (mut markup, mut node_markup) = (None, None);
        scan::main_line_properties(&src, |p| {
            if p.is_move() {
                n = n.saturating_add(1);
                // Every finding about the move stands there.
                for k in waiting.remove(&Place::Move(n)).unwrap_or_default() {
                    found.push((k, start + p.offset));
                }
                markup = node_markup
                    .filter(|&(node, _)| node == p.node)
                    .map(|(_, at)| at);
            }
            if matches!(p.ident, b"TB" | b"TW") {
                if node_markup.is_none_or(|(node, _)| node != p.node) {
                    node_markup = Some((p.node, p.offset));
                }
                markup = markup.or(Some(p.offset));
            }
            if matches!(p.ident, b"AB" | b"AW" | b"AE") {
                // Every finding about the property stands there.
                for k in waiting
                    .remove(&Place::SetupProperty(setup_properties))
                    .unwrap_or_default()
                {
                    found.push((k, start + p.offset));
                }
                setup_properties = setup_properties.saturating_add(1);
            }
            let place = if p.repeated {
                Place::Repeated(p.moves_before)
            } else if matches!(p.ident, b"AB" | b"AW" | b"AE") && setup_node != Some(p.node) {
                setup_node = Some(p.node);
                Place::Setup(p.moves_before)
            } else {
                return;
            };
            if let Some(k) = waiting.get_mut(&place).and_then(VecDeque::pop_front) {
                found.push((k, start + p.offset));
            }
        });
        if let Some(at) = markup {
            for k in waiting.remove(&Place::Markup).unwrap_or_default() {
                found.push((k, start + at));
            }
        }
        if n != moves || found.is_empty() {
            return places;
        }
        let offsets: Vec<usize> = found.iter().map(|&(_, o)| o).collect();
        let located = self.locate_near(&offsets);
        for (k, o) in found {
            let i = located.partition_point(|(x, _)| *x < o);
            places[k] = located.get(i).filter(|(x, _)| *x == o).map(|&(_, l)| l);
        }
        places
    }

    /// Where game tree `index` is written: its opening `(`.
    pub fn tree_location(&self, index: usize) -> Option<Location> {
        Some(self.locate(self.scan.tree_start(index)?))
    }

    /// Where property `ident` of game `index`'s root node is written (its
    /// last occurrence, the one the game information keeps).
    pub fn root_property_location(&self, index: usize, ident: &str) -> Option<Location> {
        let (start, src) = self.tree_text(index)?;
        Some(self.locate(start + scan::root_property(&src, ident)?))
    }

    /// Game tree `index`'s text and where it starts, its junk blanked as
    /// for the parser (same length, so offsets hold).
    fn tree_text(&self, index: usize) -> Option<(usize, std::borrow::Cow<'_, str>)> {
        let span = self.scan.tree(index)?;
        Some((span.start, self.span_text(&span)))
    }

    /// A game tree's text with its junk blanked (same length, so offsets
    /// hold): what the parser reads.
    fn span_text(&self, span: &scan::TreeSpan) -> std::borrow::Cow<'_, str> {
        let raw = &self.decoded.text[span.start..span.end];
        if span.problems.iter().any(|p| p.junk_len > 0) {
            std::borrow::Cow::Owned(blank_junk(raw, span.start, &span.problems))
        } else {
            std::borrow::Cow::Borrowed(raw)
        }
    }

    /// Locates offsets that lie close together (in one game tree), from the
    /// located place before the first (at most [`CHECKPOINT`] bytes back).
    fn locate_near(&self, offsets: &[usize]) -> Vec<(usize, Location)> {
        let first = offsets.iter().copied().min().unwrap_or(0);
        let located = &self.locations;
        let from = located[..located.partition_point(|(o, _)| *o <= first)]
            .last()
            .copied()
            .unwrap_or((
                0,
                Location {
                    offset: self.decoded.bom_len as u64,
                    line: 1,
                    column: 1,
                },
            ));
        scan::locate_from(&self.decoded.text, from, offsets, |s| {
            self.decoded.encoded_len(s)
        })
    }

    /// Findings about the file rather than one game, each with the game it is
    /// reported with: the encoding's with game 0, text outside game trees with
    /// the game that follows it (the last game for text after the last tree).
    /// A file read in parts is cut only where nothing but white space lies
    /// between two trees, so each part gives the games and findings the whole
    /// file does.
    pub fn file_findings(&self) -> Vec<(usize, Finding)> {
        let mut out: Vec<(usize, Finding)> = self
            .decoded
            .findings
            .iter()
            .map(|f| (0, f.clone().with_location(self.charset_location(f.code))))
            .collect();
        let last = self.game_count().saturating_sub(1);
        for p in &self.scan.outside {
            let game = self.scan.tree_after(p.offset).unwrap_or(last);
            let finding = Finding::new(p.code, p.detail.clone()).located(self.locate(p.offset));
            out.push((game, finding));
        }
        out
    }

    /// Where a charset finding stands: a label's at its `CA` (in the first
    /// game), replaced bytes at the first of them, a detected encoding at
    /// the first character it decides.
    fn charset_location(&self, code: Code) -> Option<Location> {
        match code {
            Code::CharsetReplaced => {
                let &(at, _) = self.decoded.replaced.first()?;
                Some(self.locate(at))
            }
            Code::CharsetAssumed => Some(self.locate(self.decoded.guessed_from?)),
            _ => self.root_property_location(0, code.root_property()?),
        }
    }

    /// The binary format the bytes were of, not text (by their first bytes).
    pub fn binary(&self) -> Option<Binary> {
        self.binary
    }

    /// Number of game trees found.
    pub fn game_count(&self) -> usize {
        self.scan.tree_count()
    }

    /// Why the file holds no game, when it holds none.
    pub fn no_game_reason(&self) -> Option<NoGame> {
        if let Some(binary) = self.binary {
            return Some(NoGame::Binary(binary));
        }
        if self.scan.tree_count() > 0 {
            return None;
        }
        let text = self.decoded.text.trim_start();
        if text.is_empty() {
            Some(NoGame::Empty)
        } else if not_sgf::is_html(text) {
            Some(NoGame::Html)
        } else {
            Some(NoGame::NotSgf)
        }
    }

    /// Parses and converts game tree `index` (`None` past the last one).
    pub fn parse_game(&self, index: usize) -> Option<ParsedGame> {
        let span = self.scan.tree(index)?;
        Some(self.parse_span(&span))
    }

    fn parse_span(&self, span: &scan::TreeSpan) -> ParsedGame {
        let cleaned = self.span_text(span);
        let src: &str = &cleaned;
        // Comments and the like are never read, and sgf-parse's lexer holds
        // several times a token's size while it reads it: long ones are
        // emptied (long identifiers and read values cut).
        let without_long_values;
        let mut cuts = Vec::new();
        let src = if src.len() > LONG_VALUE {
            match shorten_long_values(src) {
                Some((text, cut)) => {
                    without_long_values = text;
                    cuts = cut;
                    without_long_values.as_str()
                }
                None => src,
            }
        } else {
            src
        };
        let mut findings = Vec::new();
        for c in &cuts {
            let finding = match &c.of {
                CutOf::Value(ident) => Finding::new(
                    Code::LongValueCut,
                    format!(
                        "{ident}'s value is {} bytes long; only its first {} were read",
                        c.len, c.kept
                    ),
                ),
                CutOf::Identifier => Finding::new(
                    Code::LongIdentifierCut,
                    format!(
                        "a property identifier of {} letters; only its first {} were kept",
                        c.len, c.kept
                    ),
                ),
            };
            findings.push(finding.located(self.locate(span.start + c.at)));
        }
        for p in &span.problems {
            findings.push(Finding::new(p.code, p.detail.clone()).located(self.locate(p.offset)));
        }
        if span.more_problems > 0 {
            findings.push(Finding::new(
                Code::JunkText,
                format!(
                    "{} more syntax problem(s) in this game were not listed",
                    span.more_problems
                ),
            ));
        }
        if span.unclosed > 0 {
            findings.push(
                Finding::new(
                    Code::UnclosedTree,
                    format!(
                        "{} `)` missing at the end of the file; the tree was closed there",
                        span.unclosed
                    ),
                )
                .located(self.locate(self.decoded.text.len())),
            );
        }
        // `(((` with no node: nothing to parse (and sgf-parse would hold every
        // token of it in memory).
        if span.nodes == 0 {
            let why = NoRecord::NoNode;
            findings.push(Finding::new(why.code(), why.to_string()));
            return ParsedGame::no_record(why, findings);
        }
        // A node of a million properties, or a game of a million variations,
        // would cost sgf-parse tens of bytes of memory per byte of text:
        // beyond any real game, it is refused.
        if src.len() > MAX_VALUES {
            let (values, variations) = count_values(src);
            let too_many = if values > MAX_VALUES {
                Some(NoRecord::TooManyValues(values))
            } else if variations > MAX_VALUES {
                Some(NoRecord::TooManyVariations(variations))
            } else {
                None
            };
            if let Some(why) = too_many {
                findings.push(Finding::new(why.code(), why.to_string()));
                return ParsedGame::no_record(why, findings);
            }
        }
        // `AB[aa:ZZ]` is 2,704 points in 9 bytes: sgf-parse holds each point
        // of a rectangle in a set, and the record keeps every setup point.
        // Counted only when the text holds enough rectangles to matter.
        if src.matches(':').count() as u64 * MAX_RECTANGLE > MAX_EXPANDED_POINTS {
            let points = expanded_points(src);
            if points > MAX_EXPANDED_POINTS {
                let why = NoRecord::TooManyPoints(points);
                findings.push(Finding::new(why.code(), why.to_string()));
                return ParsedGame::no_record(why, findings);
            }
        }
        // Only the main line is replayed (a long game's variations are not
        // parsed): a tree of many variations with a short main line is read.
        if span.nodes > MAX_NODES {
            let main_line = scan::main_line_len(src);
            if main_line > MAX_NODES {
                let why = NoRecord::TooManyNodes(main_line);
                findings.push(Finding::new(why.code(), why.to_string()));
                return ParsedGame::no_record(why, findings);
            }
        }
        if span.nodes > CHUNKED_ABOVE_NODES {
            return self.parse_long_game(src, span.nodes, findings);
        }
        let tree = match parse_tolerant(src) {
            (tree, None) => tree,
            (tree, Some(e)) => {
                let kept = tree.as_ref().map_or(0, count_nodes);
                if kept < span.nodes {
                    // Located at the first problem (below), which the message
                    // does not repeat: a file read in parts places locations
                    // in the whole file, not words.
                    let mut f = Finding::new(
                        if kept == 0 {
                            Code::ParseFailed
                        } else {
                            Code::LenientRecovery
                        },
                        format!(
                            "sgf-parse: {e}; kept {kept} of {} node(s), the rest of the game was skipped",
                            span.nodes
                        ),
                    );
                    if let Some(p) = span.problems.first() {
                        f = f.located(self.locate(p.offset));
                    }
                    findings.push(f);
                }
                tree
            }
        };
        let Some(tree) = tree else {
            return ParsedGame::no_record(NoRecord::Unparsable, findings);
        };
        match tree {
            GameTree::GoGame(root) => {
                let c = convert::convert(&root);
                convert::dismantle(root);
                findings.extend(c.findings);
                let mut record = c.record;
                let mut error = c.error;
                if record.as_ref().is_some_and(|r| r.events.is_empty())
                    && findings.iter().any(|f| f.code == Code::ParseFailed)
                {
                    record = None;
                    error = Some(NoRecord::Unparsable);
                }
                ParsedGame {
                    record,
                    info: c.info,
                    error,
                    findings,
                }
            }
            GameTree::Unknown(root) => {
                let gm = match root.get_property("GM") {
                    Some(sgf_parse::unknown_game::Prop::GM(g)) => g.to_string(),
                    _ => "?".to_string(),
                };
                convert::dismantle(root);
                let why = NoRecord::NotGo(gm);
                findings.push(Finding::new(why.code(), why.to_string()));
                ParsedGame::no_record(why, findings)
            }
        }
    }
}

/// Games with more nodes than this are parsed in chunks of [`CHUNK_NODES`] main-line
/// nodes: sgf-parse holds every token and node of what it parses, about 300 bytes
/// a node, so a million-move game would need hundreds of megabytes at once.
const CHUNKED_ABOVE_NODES: u64 = 50_000;

/// The most nodes a game's main line may hold to be replayed: real games
/// hold a few hundred moves, and a replay keeps about 180 bytes a move (the
/// position maps of the superko checks, the history, the verdicts), so a
/// game of two million moves peaks near 360 MB; a 256 MB file of one game
/// would need about 7 GB.
pub const MAX_NODES: u64 = 2_000_000;
const CHUNK_NODES: usize = 4_096;

impl Collection {
    /// Parses the main line of a very long game chunk by chunk, each chunk with
    /// sgf-parse as a small game tree of its own, and converts node by node.
    fn parse_long_game(&self, src: &str, total: u64, mut findings: Vec<Finding>) -> ParsedGame {
        let nodes = scan::main_line_nodes(src);
        let mut converter: Option<convert::Converter> = None;
        let mut text = String::new();
        let mut kept = 0u64;
        for chunk in nodes.chunks(CHUNK_NODES) {
            text.clear();
            text.push('(');
            for &(s, e) in chunk {
                text.push_str(&src[s..e]);
            }
            text.push(')');
            let (tree, error) = parse_tolerant(&text);
            let Some(GameTree::GoGame(root)) = tree else {
                if let Some(GameTree::Unknown(root)) = tree {
                    convert::dismantle(root);
                }
                if converter.is_none() {
                    let why = NoRecord::NotGoOrUnparsable;
                    findings.push(Finding::new(why.code(), why.to_string()));
                    return ParsedGame::no_record(why, findings);
                }
                break;
            };
            let c = converter.get_or_insert_with(|| convert::Converter::start(&root));
            let mut n = 0u64;
            for node in root.main_variation() {
                c.node(node);
                n += 1;
            }
            convert::dismantle(root);
            kept += n;
            if let Some(e) = error {
                findings.push(Finding::new(
                    Code::LenientRecovery,
                    format!(
                        "sgf-parse: {e}; kept {kept} main-line node(s) of about {total}, \
                         the rest of the game was skipped"
                    ),
                ));
                break;
            }
        }
        let Some(c) = converter else {
            findings.push(Finding::new(Code::ParseFailed, "no node could be parsed"));
            return ParsedGame::no_record(NoRecord::Unparsable, findings);
        };
        let c = c.finish();
        findings.extend(c.findings);
        ParsedGame {
            record: c.record,
            info: c.info,
            error: c.error,
            findings,
        }
    }
}

/// Values longer than this, of properties sgfaudit never reads (comments,
/// names of events and games, annotations), are emptied before parsing.
const LONG_VALUE: usize = 64 << 10;

/// The properties whose values sgfaudit reads (moves, setup, board, rules,
/// result, players, date, the software and server that wrote the record,
/// territory): their values are always kept whole.
const READ: [&str; 25] = [
    "B", "W", "AB", "AW", "AE", "PL", "SZ", "KM", "HA", "GM", "FF", "CA", "RU", "RE", "PB", "PW",
    "DT", "AP", "PC", "SO", "GC", "US", "TB", "TW", "MN",
];

/// The most property values one node, or variations one game, may hold to
/// be parsed: real nodes hold a few values (a setup node a few hundred),
/// real games a few thousand variations. A long game of many nodes is fine:
/// it is parsed in chunks.
pub const MAX_VALUES: usize = 200_000;

/// The most points a game's point lists may expand to: a thousand times
/// what the largest real record does (988, `../shared/corpus/real`), and
/// about 15 MB while sgf-parse holds them.
pub const MAX_EXPANDED_POINTS: u64 = 1_000_000;

/// The points of the largest rectangle, `aa:ZZ` on a 52x52 board.
const MAX_RECTANGLE: u64 = 52 * 52;

/// The properties whose values sgf-parse reads as point lists, expanding a
/// rectangle `aa:cc` into its points.
const POINT_LISTS: [&str; 12] = [
    "AB", "AE", "AW", "CR", "DD", "MA", "SL", "SQ", "TR", "VW", "TB", "TW",
];

/// How many points the rectangles of point lists in `text` expand to (each
/// counted whole, as sgf-parse expands it before looking at the board).
fn expanded_points(text: &str) -> u64 {
    let coordinate = |c: u8| match c {
        b'a'..=b'z' => Some(i64::from(c - b'a')),
        b'A'..=b'Z' => Some(i64::from(c - b'A') + 26),
        _ => None,
    };
    let area = |v: &[u8]| -> Option<u64> {
        let [x1, y1, b':', x2, y2] = *v else {
            return None;
        };
        let (x1, y1, x2, y2) = (
            coordinate(x1)?,
            coordinate(y1)?,
            coordinate(x2)?,
            coordinate(y2)?,
        );
        Some(((x1 - x2).unsigned_abs() + 1) * ((y1 - y2).unsigned_abs() + 1))
    };
    let mut total = 0u64;
    scan_values(text, |piece| {
        if let Piece::Value { ident, start, end } = piece {
            if POINT_LISTS.contains(&ident) {
                total += area(&text.as_bytes()[start..end]).unwrap_or(0);
            }
        }
    });
    total
}

/// What [`scan_values`] meets in an SGF text, in order.
enum Piece<'a> {
    /// `(` outside a value.
    Open,
    /// `)` or `;` outside a value.
    CloseOrNode,
    /// A value: the byte range between its brackets (escapes as written)
    /// and its property's identifier.
    Value {
        ident: &'a str,
        start: usize,
        end: usize,
    },
    /// A run of letters outside values longer than [`LONG_VALUE`]: no
    /// property has such a name.
    LongName { start: usize, end: usize },
}

/// Capitals of an identifier kept by [`scan_values`] to name a value's
/// property: more than any property's name.
const IDENT_KEPT: usize = 16;

/// Calls `f` on the marks and values of `text` in order. Escapes (`\]`) are
/// honoured; identifiers are their upper-case letters, as SGF 4 reads old
/// lower-case forms; a value left open runs to the end of the text.
fn scan_values(text: &str, mut f: impl FnMut(Piece<'_>)) {
    let bytes = text.as_bytes();
    let mut ident = String::new();
    let mut after_value = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b']' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let end = j.min(bytes.len());
                f(Piece::Value {
                    ident: &ident,
                    start,
                    end,
                });
                after_value = true;
                i = end + 1;
                continue;
            }
            b if b.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    if bytes[i].is_ascii_uppercase() {
                        if after_value {
                            ident.clear();
                            after_value = false;
                        }
                        if ident.len() < IDENT_KEPT {
                            ident.push(char::from(bytes[i]));
                        }
                    }
                    i += 1;
                }
                if i - start > LONG_VALUE {
                    f(Piece::LongName { start, end: i });
                }
                continue;
            }
            b';' | b'(' | b')' => {
                ident.clear();
                after_value = false;
                f(if bytes[i] == b'(' {
                    Piece::Open
                } else {
                    Piece::CloseOrNode
                });
            }
            _ => {}
        }
        i += 1;
    }
}

/// The most values of any one node of a game's text, and its variations
/// (`(`), escapes honoured.
fn count_values(text: &str) -> (usize, usize) {
    let (mut most, mut here, mut variations) = (0, 0, 0);
    scan_values(text, |piece| match piece {
        Piece::Value { .. } => {
            here += 1;
            most = usize::max(most, here);
        }
        Piece::CloseOrNode => here = 0,
        Piece::Open => {
            here = 0;
            variations += 1;
        }
        Piece::LongName { .. } => {}
    });
    (most, variations)
}

/// A value of a property sgfaudit reads, or a property identifier, that was
/// longer than [`LONG_VALUE`] and was cut to its first [`CUT_VALUE`] bytes or
/// so (a whole character and escape last).
#[derive(Debug, PartialEq, Eq)]
struct Cut {
    of: CutOf,
    /// The length in bytes, and what was kept of it.
    len: usize,
    kept: usize,
    /// Offset of the value's `[`, or of the identifier, in the text.
    at: usize,
}

#[derive(Debug, PartialEq, Eq)]
enum CutOf {
    /// A value of the property so named (its capitals).
    Value(String),
    Identifier,
}

/// What is kept of a long value of a property sgfaudit reads: enough to
/// show it in a finding, and to keep it what it was (a move that is not a
/// point stays one).
const CUT_VALUE: usize = 1 << 10;

/// `text` with every value longer than [`LONG_VALUE`] emptied when its
/// property is not in [`READ`], and cut to about [`CUT_VALUE`] bytes when it
/// is (sgf-parse holds about ten times a value's size while it reads it), and
/// every identifier that long cut to [`CUT_VALUE`] letters; or `None` when it
/// has neither; with what was cut. Escapes (`\]`) are honoured; identifiers
/// are their upper-case letters, as SGF 4 reads old lower-case forms.
fn shorten_long_values(text: &str) -> Option<(String, Vec<Cut>)> {
    let mut out: Option<String> = None;
    let mut cuts = Vec::new();
    let mut copied = 0; // bytes of `text` already in `out`
    scan_values(text, |piece| {
        // What is cut: where, up to where, and what of it is kept (a value
        // of an unread property: nothing, and no finding).
        let (start, end, cut) = match piece {
            Piece::Value { ident, start, end } if end - start > LONG_VALUE => {
                let cut = READ.contains(&ident).then(|| {
                    let kept = cut_point(&text[start..end], CUT_VALUE);
                    (CutOf::Value(ident.to_string()), kept, start - 1)
                });
                (start, end, cut)
            }
            // Letters are single bytes: any length is a whole character.
            Piece::LongName { start, end } => {
                (start, end, Some((CutOf::Identifier, CUT_VALUE, start)))
            }
            _ => return,
        };
        let kept = cut.as_ref().map_or(0, |c| c.1);
        out.get_or_insert_with(|| String::with_capacity(text.len() / 2))
            .push_str(&text[copied..start + kept]);
        if let Some((of, kept, at)) = cut {
            cuts.push(Cut {
                of,
                len: end - start,
                kept,
                at,
            });
        }
        copied = end;
    });
    out.map(|mut o| {
        o.push_str(&text[copied.min(text.len())..]);
        (o, cuts)
    })
}

/// The length of the longest start of `value` no longer than `most` bytes
/// that ends after a whole character and a whole escape (`\x`).
fn cut_point(value: &str, most: usize) -> usize {
    let mut kept = 0;
    let mut escaped = false;
    for (at, c) in value.char_indices() {
        let end = at + c.len_utf8();
        if end > most {
            break;
        }
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
            continue;
        }
        kept = end;
    }
    kept
}

/// Replaces the junk the scan found by spaces (same length, so offsets hold).
fn blank_junk(raw: &str, base: usize, problems: &[scan::Problem]) -> String {
    let mut bytes = raw.as_bytes().to_vec();
    for p in problems.iter().filter(|p| p.junk_len > 0) {
        let from = p.offset.saturating_sub(base).min(bytes.len());
        let to = (from + p.junk_len).min(bytes.len());
        bytes[from..to].fill(b' ');
    }
    // Junk spans start and end on character boundaries, so this stays UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The first game tree of `text`, parsed strictly, or leniently (keeping what
/// comes before the first error) when the strict parse fails, with its error.
fn parse_tolerant(text: &str) -> (Option<GameTree>, Option<sgf_parse::SgfParseError>) {
    match parse_with_options(text, &ParseOptions::default()) {
        Ok(trees) => (first_tree(trees), None),
        Err(e) => {
            let lenient = ParseOptions {
                lenient: true,
                ..ParseOptions::default()
            };
            let trees = parse_with_options(text, &lenient).unwrap_or_default();
            (first_tree(trees), Some(e))
        }
    }
}

fn first_tree(trees: Vec<GameTree>) -> Option<GameTree> {
    let mut it = trees.into_iter();
    let first = it.next();
    for rest in it {
        match rest {
            GameTree::GoGame(n) => convert::dismantle(n),
            GameTree::Unknown(n) => convert::dismantle(n),
        }
    }
    first
}

fn count_nodes(tree: &GameTree) -> u64 {
    fn count<P: sgf_parse::SgfProp>(root: &sgf_parse::SgfNode<P>) -> u64 {
        if root.properties.is_empty() && root.children.is_empty() {
            return 0; // lenient parsing's placeholder for "nothing parsed"
        }
        let mut n = 0;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            n += 1;
            stack.extend(node.children.iter());
        }
        n
    }
    match tree {
        GameTree::GoGame(n) => count(n),
        GameTree::Unknown(n) => count(n),
    }
}

#[cfg(test)]
mod tests {
    use super::{
        count_values, cut_point, expanded_points, read, shorten_long_values, Binary, Cut, CutOf,
        NoGame, CUT_VALUE, LONG_VALUE,
    };

    /// A web page saved under a game's name is named as one; a page that
    /// holds a game tree is read.
    #[test]
    fn an_html_page_is_named_unless_it_holds_a_game() {
        for text in [
            "\u{feff}\n  <!DOCTYPE html>\n<p>Log in",
            "<HTML><body>404</body></HTML>",
        ] {
            assert_eq!(
                read(text.as_bytes().to_vec()).no_game_reason(),
                Some(NoGame::Html)
            );
        }
        let page = read(b"<html>(;GM[1]SZ[9];B[ee])</html>".to_vec());
        assert_eq!(page.no_game_reason(), None);
        assert_eq!(page.game_count(), 1);
        for text in ["<htm", "x<html>", "<p>html</p>"] {
            assert_eq!(
                read(text.as_bytes().to_vec()).no_game_reason(),
                Some(NoGame::NotSgf)
            );
        }
    }

    /// Text that begins like bzip2's magic but holds no block magic after it
    /// is text: its game is read.
    #[test]
    fn text_that_begins_with_bzh_is_still_text() {
        for text in ["BZh9 (;GM[1]SZ[9];B[ee])", "BZh91AY&S (;GM[1]SZ[9];B[ee])"] {
            assert_eq!(Binary::sniff(text.as_bytes()), None, "{text}");
            let c = read(text.as_bytes().to_vec());
            assert_eq!(c.no_game_reason(), None, "{text}");
            assert_eq!(c.game_count(), 1);
        }
        // With the first block's magic after the level digit, it is bzip2.
        let bytes = b"BZh91AY&SY\x00\x01".to_vec();
        assert_eq!(Binary::sniff(&bytes), Some(Binary::Bzip2));
        assert_eq!(
            read(bytes).no_game_reason(),
            Some(NoGame::Binary(Binary::Bzip2))
        );
    }

    /// A tar header is told by its `ustar` magic and its checksum together:
    /// SGF text with `ustar` at byte 257 is still text.
    #[test]
    fn a_tar_header_needs_its_magic_and_its_checksum() {
        let mut header = vec![0u8; 512];
        header[..6].copy_from_slice(b"g.sgf\0");
        header[124..136].copy_from_slice(b"00000000017\0");
        header[156] = b'0';
        header[257..265].copy_from_slice(b"ustar\x0000");
        // The checksum, counted with its own field as eight spaces.
        let sum: u32 = header.iter().map(|&b| u32::from(b)).sum::<u32>() + 8 * u32::from(b' ');
        header[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        assert_eq!(Binary::sniff(&header), Some(Binary::Tar));
        let mut wrong = header.clone();
        wrong[0] = b'h';
        assert_eq!(Binary::sniff(&wrong), None, "a checksum that does not hold");
        let mut text = "(;GM[1]SZ[9]C[".to_string();
        text.push_str(&" ".repeat(257 - text.len()));
        text.push_str("ustar]");
        text.push_str(&" ".repeat(300));
        text.push_str(";B[ee])");
        assert_eq!(Binary::sniff(text.as_bytes()), None);
        assert_eq!(read(text.into_bytes()).game_count(), 1);
    }

    /// The markup the count reads: markup a move in a later node follows
    /// does not count; markup in the last move's node does, before or after
    /// the move.
    #[test]
    fn the_markup_place_is_the_first_that_no_later_move_follows() {
        for (text, moves, markup) in [
            (
                "(;SZ[9];B[aa]TB[bb];W[cc];B[dd];TW[ee]TB[ff])",
                3,
                Some("TW[ee]"),
            ),
            ("(;SZ[9];B[aa];TB[bb]W[cc]TW[dd])", 2, Some("TB[bb]")),
            ("(;SZ[9];B[aa]TB[bb];W[cc])", 2, None),
        ] {
            let c = super::read(text.as_bytes().to_vec());
            let got = c.places(0, moves, &[super::Place::Markup])[0].map(|l| l.offset);
            let want = markup.map(|m| text.find(m).unwrap() as u64);
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn rectangles_of_point_lists_are_counted_whole() {
        // A 19x19 rectangle is 361 points, `ab:cd` 3 x 3, a reversed one the
        // same; old lower-case identifiers read as their capitals (AddBlack
        // is AB); single points, composed values (AR, LN, LB) and text that
        // only looks like a rectangle (a comment, an escaped bracket) are not.
        let text = "(;GM[1]AB[aa:ss][dd]AE[ab:cd]\n [cd:ab];AddBlack[aa:ss]\
                    AR[aa:ss]LN[aa:ss]LB[aa:ss]C[aa:ss]C[AB\\[aa:ss\\]]TR[aa])";
        assert_eq!(expanded_points(text), 361 + 9 + 9 + 361);
    }

    #[test]
    fn long_values_are_emptied_unless_read_and_then_cut() {
        let long = format!("{}\\]{}", "x".repeat(LONG_VALUE), "y".repeat(10));
        let text = format!(
            "(;GM[1]C[{long}]PB[C[x]];B[aa]C[short]GC[{long}]GN[{long}];W[bb]C[a][{long}])"
        );
        let (got, cuts) = shorten_long_values(&text).expect("long values");
        let kept = "x".repeat(CUT_VALUE);
        assert_eq!(
            got,
            format!("(;GM[1]C[]PB[C[x]];B[aa]C[short]GC[{kept}]GN[];W[bb]C[a][])")
        );
        let at = text.find("GC[").expect("GC") + 2;
        let len = LONG_VALUE + 12;
        assert_eq!(
            cuts,
            [Cut {
                of: CutOf::Value("GC".into()),
                len,
                kept: CUT_VALUE,
                at
            }]
        );
        assert_eq!(shorten_long_values("(;GM[1]C[short];B[aa])"), None);
    }

    #[test]
    fn a_long_identifier_is_cut_and_its_values_stay_its_own() {
        // Lower-case letters are part of an identifier (old FF[3] names).
        let name = format!("Q{}", "q".repeat(LONG_VALUE + 5));
        let text = format!("(;GM[1]SZ[9]{name}[x][y]B[aa];W[bb])");
        let (got, cuts) = shorten_long_values(&text).expect("a long identifier");
        let kept = &name[..CUT_VALUE];
        assert_eq!(got, format!("(;GM[1]SZ[9]{kept}[x][y]B[aa];W[bb])"));
        let at = text.find('Q').expect("Q");
        let len = LONG_VALUE + 6;
        assert_eq!(
            cuts,
            [Cut {
                of: CutOf::Identifier,
                len,
                kept: CUT_VALUE,
                at
            }]
        );
        // The node's values are counted as before.
        assert_eq!(count_values(&text), count_values(&got));
    }

    #[test]
    fn a_cut_ends_after_a_whole_character_and_escape() {
        assert_eq!(cut_point("abcdef", 4), 4);
        // Never between `\` and what it escapes: `ab\` would escape the `]`.
        assert_eq!(cut_point("ab\\]cd", 3), 2);
        assert_eq!(cut_point("ab\\]cd", 4), 4);
        // `é` is two bytes.
        assert_eq!(cut_point("aé", 2), 1);
        assert_eq!(cut_point("a\\é", 3), 1);
    }
}
