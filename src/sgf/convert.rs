//! sgf-parse trees to [`GameRecord`]s: range checks sgf-parse does not make (SZ,
//! off-board points, `tt` passes), game info, the main line as flat events, and an
//! iterative teardown of the tree (sgf-parse's own Drop recurses and would overflow
//! the stack on long games).

use std::collections::HashSet;

use sgf_parse::go::{Move, Prop};
use sgf_parse::{SgfNode, SgfProp};

use crate::core::board::{BoardSize, Color, Point};
use crate::core::findings::{CappedFindings, Code, Finding};
use crate::core::game::{Event, GameInfo, GameRecord, KomiReading, Markup, MoveKind};
use crate::scoring::recorded::komi_in_words;

/// Names in the game info that mark a record written by a server or program.
const MACHINE_MARKS: &[&str] = &[
    "kgs",
    "igs",
    "pandanet",
    "nngs",
    "fox",
    "tygem",
    "online-go",
    "ogs",
    "cgos",
    "wbaduk",
    "cyberoro",
    "dragon go server",
    "yike",
    "golaxy",
    "yuanyu",
    "gokgs",
    "katrain",
];

/// Why a game tree yields no record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoRecord {
    #[error("SZ[{0}:{1}]: rectangular boards are not supported")]
    Rectangular(u8, u8),
    #[error("SZ[{0}] is outside 1..=52")]
    SizeOutOfRange(u8),
    #[error("SZ[{0}] is not a board size in 1..=52")]
    SizeNotANumber(String),
    #[error("GM[{0}] is not Go (GM[1])")]
    NotGo(String),
    #[error("GM says this is not Go, or the game could not be parsed")]
    NotGoOrUnparsable,
    #[error("the game tree could not be parsed")]
    Unparsable,
    #[error("the game tree holds no node `;`")]
    NoNode,
    /// A node with more property values, or a game with more variations,
    /// than any real one: not parsed, so its memory stays bounded
    /// (`sgf::MAX_VALUES`).
    #[error("a node holds {0} property values, more than the {max} sgfaudit parses", max = super::MAX_VALUES)]
    TooManyValues(usize),
    #[error("the game tree holds {0} variations, more than the {max} sgfaudit parses", max = super::MAX_VALUES)]
    TooManyVariations(usize),
    /// Point lists whose rectangles (`AB[aa:ss]`) expand to more points than
    /// any real game holds: not parsed, as each would cost memory
    /// (`sgf::MAX_EXPANDED_POINTS`).
    #[error("the game's point lists expand to {0} points (rectangles such as AB[aa:ss]), more than the {max} sgfaudit parses", max = super::MAX_EXPANDED_POINTS)]
    TooManyPoints(u64),
    /// A main line of more nodes than [`super::MAX_NODES`]: replaying it
    /// would hold about 180 bytes a move.
    #[error("the game's main line holds {0} nodes, more than the {max} sgfaudit replays", max = super::MAX_NODES)]
    TooManyNodes(u64),
}

impl NoRecord {
    /// The finding that reports it.
    pub fn code(&self) -> Code {
        match self {
            NoRecord::Rectangular(..) => Code::RectangularBoard,
            NoRecord::SizeOutOfRange(_) | NoRecord::SizeNotANumber(_) => Code::BadSize,
            NoRecord::NotGo(_) | NoRecord::NotGoOrUnparsable => Code::NotGo,
            NoRecord::Unparsable
            | NoRecord::NoNode
            | NoRecord::TooManyValues(_)
            | NoRecord::TooManyVariations(_)
            | NoRecord::TooManyPoints(_)
            | NoRecord::TooManyNodes(_) => Code::ParseFailed,
        }
    }
}

/// A converted game, or why it could not be.
pub struct Converted {
    pub record: Option<GameRecord>,
    pub info: GameInfo,
    /// Why the game could not be audited, when `record` is `None`.
    pub error: Option<NoRecord>,
    pub findings: Vec<Finding>,
}

/// What the root node says about the game.
struct RootInfo {
    info: GameInfo,
    /// The board size, or why there is no usable board.
    size: Result<BoardSize, NoRecord>,
    handicap: u32,
    /// KM as written.
    komi: Option<f64>,
    /// `HA[1]`: Fox's game without komi.
    no_komi_game: bool,
    first_player: Option<Color>,
    machine_written: bool,
    findings: Vec<Finding>,
}

/// Reads the game information of the root node.
fn read_root(root: &SgfNode<Prop>) -> RootInfo {
    let mut r = RootInfo {
        info: GameInfo::default(),
        size: Ok(BoardSize::STANDARD),
        handicap: 0,
        komi: None,
        no_komi_game: false,
        first_player: None,
        machine_written: false,
        findings: Vec::new(),
    };
    for prop in root.properties() {
        match prop {
            Prop::SZ((w, h)) => {
                r.size = if w != h {
                    Err(NoRecord::Rectangular(*w, *h))
                } else {
                    BoardSize::new(*w).ok_or(NoRecord::SizeOutOfRange(*w))
                };
            }
            Prop::Invalid(id, v) if id == "SZ" => {
                r.size = Err(NoRecord::SizeNotANumber(v.join("][")));
            }
            Prop::GM(g) if *g != 1 => r.size = Err(NoRecord::NotGo(g.to_string())),
            Prop::HA(h) => r.handicap = u32::try_from(*h).unwrap_or(0),
            Prop::Invalid(id, v) if id == "HA" => {
                let raw = v.first().map(|s| s.trim()).unwrap_or("");
                // Fox writes HA[1] for a game without komi (Black simply moves first).
                r.no_komi_game |= raw == "1";
                if raw != "0" && raw != "1" && !raw.is_empty() {
                    r.findings.push(
                        Finding::new(
                            Code::BadPropertyValue,
                            format!("HA[{raw}] is not a handicap; ignored"),
                        )
                        .about("HA"),
                    );
                }
            }
            Prop::KM(k) if k.is_finite() => r.komi = Some(*k),
            Prop::KM(k) => r.findings.push(
                Finding::new(
                    Code::BadPropertyValue,
                    format!("KM[{k}] is not a finite number; ignored"),
                )
                .about("KM"),
            ),
            Prop::Invalid(id, v) if id == "KM" => {
                let raw = v.first().map(String::as_str).unwrap_or("");
                let number = raw.trim().replace(',', ".").parse::<f64>().ok();
                match number
                    .filter(|k| k.is_finite())
                    .or_else(|| komi_in_words(raw))
                {
                    Some(k) => r.komi = Some(k),
                    None => r.findings.push(
                        Finding::new(
                            Code::BadPropertyValue,
                            format!("KM[{raw}] is not a number; ignored"),
                        )
                        .about("KM"),
                    ),
                }
            }
            Prop::PL(c) => {
                r.first_player = Some(match c {
                    sgf_parse::Color::Black => Color::Black,
                    sgf_parse::Color::White => Color::White,
                })
            }
            Prop::AP((name, _)) => {
                r.machine_written = true;
                r.info.application = Some(name.text.clone());
            }
            Prop::Invalid(id, v) if id == "AP" => {
                r.machine_written = true;
                r.info.application = v.first().cloned();
            }
            Prop::Invalid(id, v) if id == "FF" => r.findings.push(Finding::new(
                Code::UnusualFileFormat,
                format!("FF[{}] is not an SGF version 1-4", v.join("][")),
            )),
            Prop::RU(t) => r.info.rules = Some(t.text.clone()),
            Prop::RE(t) => r.info.result = Some(t.text.clone()),
            Prop::PB(t) => r.info.black = Some(t.text.clone()),
            Prop::PW(t) => r.info.white = Some(t.text.clone()),
            Prop::DT(t) => r.info.date = Some(t.text.clone()),
            _ => {}
        }
        r.machine_written |= names_a_server(prop);
    }
    r
}

/// A game-info text (not CA, RE or RU) that names a server or program.
fn names_a_server(prop: &Prop) -> bool {
    if matches!(prop, Prop::CA(_) | Prop::RE(_) | Prop::RU(_)) {
        return false;
    }
    text_of(prop).is_some_and(|t| {
        let lower = t.to_ascii_lowercase();
        MACHINE_MARKS.iter().any(|m| lower.contains(m))
    })
}

/// How KM is read.
struct KomiRead {
    /// In points; `None` for Fox's unwritten standard komi, and (with P306)
    /// for a komi more than the board's points (it would decide every count).
    points: Option<f64>,
    /// KM as written, when `points` reads it otherwise.
    as_written: Option<f64>,
}

/// The komi as it is read: a scaled KM in points, and Fox's unwritten
/// standard komi as none; none, with P306, when it is more than the board's
/// `board_points`.
fn komi_as_read(
    k: f64,
    board_points: u32,
    handicap: u32,
    no_komi_game: bool,
    info: &GameInfo,
    findings: &mut Vec<Finding>,
) -> KomiRead {
    let rescaled = KomiReading::rescale(k).map(|(_, points)| points);
    let read = rescaled.unwrap_or(k);
    if read.abs() > f64::from(board_points) {
        // Short either way: 36200 as written, 1e308 not as 309 digits.
        let written = if k.abs() < 1e15 {
            k.to_string()
        } else {
            format!("{k:e}")
        };
        findings.push(
            Finding::new(
                Code::BadPropertyValue,
                format!("KM[{written}] is more than the board's {board_points} points; ignored"),
            )
            .about("KM"),
        );
        return KomiRead {
            points: None,
            as_written: None,
        };
    }
    if read == 0.0 && handicap == 0 && !no_komi_game && written_by_fox(info) {
        return KomiRead {
            points: None,
            as_written: Some(k),
        };
    }
    KomiRead {
        points: Some(read),
        as_written: rescaled.map(|_| k),
    }
}

/// The moves and territory markup one node holds.
#[derive(Default)]
struct NodeContent {
    moves: Vec<(Color, MoveKind)>,
    markup: Option<Markup>,
    /// The setup properties (`AB`, `AW`, `AE`) read on the main line before
    /// the one being read: the number a finding about it names
    /// (`Finding::in_setup_property`).
    setup_properties: u32,
}

/// P307 for every property identifier a node repeats. `seen` is reused from
/// node to node; a set, so a node of a million properties costs linear time.
fn duplicate_properties(
    node: &SgfNode<Prop>,
    moves: u32,
    seen: &mut HashSet<String>,
    findings: &mut CappedFindings,
) {
    let mut repeated = |id: &str| {
        findings.push(
            Finding::new(
                Code::DuplicateProperty,
                format!("{id} appears twice in one node (after move {moves})"),
            )
            .at_move(moves),
        );
    };
    // A node of a few properties (a move, a comment, a time left) is
    // compared pair by pair, with no identifier built.
    let props = &node.properties;
    if props.len() <= FEW_PROPERTIES {
        for (i, prop) in props.iter().enumerate() {
            if props[..i].iter().any(|p| same_identifier(p, prop)) {
                repeated(&identifier(prop));
            }
        }
        return;
    }
    seen.clear();
    for prop in props {
        let id = identifier(prop);
        if seen.contains(&id) {
            repeated(&id);
        } else {
            seen.insert(id);
        }
    }
}

/// Reads one property of a main-line node into the record (setup) or the
/// node's content (moves, markup). `moves` is the count before this node.
fn read_property(
    prop: &Prop,
    record: &mut GameRecord,
    moves: u32,
    content: &mut NodeContent,
    findings: &mut CappedFindings,
) {
    let size = record.size.get();
    let on_board = |p: &Point2| p.x < size && p.y < size;
    match prop {
        Prop::B(m) | Prop::W(m) => {
            let color = if matches!(prop, Prop::B(_)) {
                Color::Black
            } else {
                Color::White
            };
            let kind = match m {
                Move::Pass => MoveKind::Pass,
                Move::Move(p) if on_board(p) => MoveKind::Place(Point::new(p.x, p.y)),
                // FF[3] and many tools write a pass as `tt` on boards up to 19x19.
                Move::Move(p) if size <= 19 && p.x == 19 && p.y == 19 => MoveKind::Pass,
                Move::Move(p) => MoveKind::OffBoard { x: p.x, y: p.y },
            };
            content.moves.push((color, kind));
        }
        Prop::Invalid(id, v) if id == "B" || id == "W" => {
            let color = if id == "B" {
                Color::Black
            } else {
                Color::White
            };
            findings.push(
                Finding::new(
                    Code::BadMoveValue,
                    format!("{id}[{}] is not a point", v.join("][")),
                )
                .at_move(moves + content.moves.len() as u32 + 1)
                .with_color(color),
            );
            content.moves.push((color, MoveKind::Unreadable));
        }
        Prop::AB(set) | Prop::AW(set) | Prop::AE(set) => {
            let c = match prop {
                Prop::AB(_) => Some(Color::Black),
                Prop::AW(_) => Some(Color::White),
                _ => None,
            };
            let k = content.setup_properties;
            content.setup_properties = k.saturating_add(1);
            for p in sorted(set) {
                if on_board(&p) {
                    record.setup.push((Point::new(p.x, p.y), c));
                } else {
                    findings.push(
                        Finding::new(
                            Code::BadMoveValue,
                            format!(
                                "setup point ({}, {}) is off the {size}x{size} board; ignored",
                                p.x, p.y
                            ),
                        )
                        .in_setup_property(k),
                    );
                }
            }
        }
        Prop::Invalid(id, v) if id == "AB" || id == "AW" || id == "AE" => {
            let k = content.setup_properties;
            content.setup_properties = k.saturating_add(1);
            findings.push(
                Finding::new(
                    Code::BadMoveValue,
                    format!(
                        "{id}[{}] holds a value that is not a point; ignored",
                        v.join("][")
                    ),
                )
                .in_setup_property(k),
            );
        }
        Prop::TB(set) | Prop::TW(set) => {
            let m = content.markup.get_or_insert_with(Markup::default);
            let pts = sorted(set)
                .into_iter()
                .filter(on_board)
                .map(|p| Point::new(p.x, p.y));
            if matches!(prop, Prop::TB(_)) {
                m.black_territory.extend(pts);
            } else {
                m.white_territory.extend(pts);
            }
        }
        _ => {}
    }
}

/// Drops a tree without recursion.
pub fn dismantle<P: SgfProp>(root: SgfNode<P>) {
    let mut stack = vec![root];
    while let Some(mut node) = stack.pop() {
        stack.append(&mut node.children);
    }
}

fn text_of(p: &Prop) -> Option<String> {
    match p {
        Prop::RU(t)
        | Prop::RE(t)
        | Prop::PB(t)
        | Prop::PW(t)
        | Prop::DT(t)
        | Prop::PC(t)
        | Prop::SO(t)
        | Prop::EV(t)
        | Prop::US(t)
        | Prop::ON(t)
        | Prop::CA(t) => Some(t.text.clone()),
        Prop::GC(t) => Some(t.text.clone()),
        _ => None,
    }
}

fn sorted(points: &std::collections::HashSet<Point2>) -> Vec<Point2> {
    let mut v: Vec<Point2> = points.iter().copied().collect();
    v.sort_by_key(|p| (p.y, p.x));
    v
}

type Point2 = sgf_parse::go::Point;

/// Nodes of at most this many properties are checked for repeats pair by
/// pair ([`duplicate_properties`]).
const FEW_PROPERTIES: usize = 8;

/// Whether two properties have one identifier. Each property sgf-parse
/// knows is a variant of its own, so only an unknown or invalid one (which
/// carries its identifier) needs the identifiers built.
fn same_identifier(a: &Prop, b: &Prop) -> bool {
    let named = |p: &Prop| matches!(p, Prop::Unknown(..) | Prop::Invalid(..));
    if named(a) || named(b) {
        identifier(a) == identifier(b)
    } else {
        std::mem::discriminant(a) == std::mem::discriminant(b)
    }
}

fn identifier(p: &Prop) -> String {
    match p {
        Prop::Unknown(id, _) | Prop::Invalid(id, _) => id.clone(),
        other => other.identifier(),
    }
}

/// Converts one parsed Go game tree (its main line) into a record.
pub fn convert(root: &SgfNode<Prop>) -> Converted {
    let mut c = Converter::start(root);
    for node in root.main_variation() {
        c.node(node);
    }
    c.finish()
}

/// Builds a record node by node, so that a long main line can be parsed and
/// converted in chunks (see `sgf::parse_game`).
pub struct Converter {
    record: Option<GameRecord>,
    info: GameInfo,
    error: Option<NoRecord>,
    /// The findings of the whole game, at most `MAX_FINDINGS` listed (a node
    /// may repeat a property 200,000 times).
    findings: CappedFindings,
    markup: Option<Markup>,
    moves: u32,
    /// The setup properties (`AB`, `AW`, `AE`) read on the main line.
    setup_properties: u32,
    /// Property identifiers seen in the node being read (reused).
    ids: HashSet<String>,
    /// The moves of the node being read (reused: most nodes hold one).
    node_moves: Vec<(Color, MoveKind)>,
}

/// Whether the record was written by the Fox server's client (`AP[foxwq]`, or
/// `AP[YuanYu]` in older downloads).
fn written_by_fox(info: &GameInfo) -> bool {
    info.application.as_deref().is_some_and(|a| {
        let a = a.to_ascii_lowercase();
        a.contains("foxwq") || a.contains("yuanyu")
    })
}

impl Converter {
    /// Reads the game information of the root node (the root's moves and setup
    /// come with [`Converter::node`], like any other node).
    pub fn start(root: &SgfNode<Prop>) -> Converter {
        let RootInfo {
            info,
            size,
            handicap,
            komi,
            no_komi_game,
            first_player,
            machine_written,
            mut findings,
        } = read_root(root);
        let size = match size {
            Ok(size) => size,
            Err(why) => {
                findings.push(Finding::new(why.code(), why.to_string()));
                return Converter::before_nodes(Err(why), info, findings);
            }
        };
        // A komi or handicap beyond the board's points decides nothing a game
        // could: not a value of this game.
        let points = u32::from(size.get()) * u32::from(size.get());
        let handicap = if handicap > points {
            findings.push(
                Finding::new(
                    Code::BadPropertyValue,
                    format!("HA[{handicap}] is more than the board's {points} points; ignored"),
                )
                .about("HA"),
            );
            0
        } else {
            handicap
        };
        let komi =
            komi.map(|k| komi_as_read(k, points, handicap, no_komi_game, &info, &mut findings));
        let record = GameRecord {
            size,
            handicap,
            komi: komi.as_ref().and_then(|k| k.points),
            komi_as_written: komi.and_then(|k| k.as_written),
            first_player,
            machine_written,
            ..Default::default()
        };
        Converter::before_nodes(Ok(record), info, findings)
    }

    /// A converter whose root gave `record` (or why there is none), before
    /// any node's moves.
    fn before_nodes(
        record: Result<GameRecord, NoRecord>,
        info: GameInfo,
        findings: Vec<Finding>,
    ) -> Converter {
        let (record, error) = match record {
            Ok(r) => (Some(r), None),
            Err(why) => (None, Some(why)),
        };
        // The root's findings, to which the nodes' are added.
        let mut capped = CappedFindings::default();
        capped.extend(findings);
        Converter {
            record,
            info,
            error,
            findings: capped,
            markup: None,
            moves: 0,
            setup_properties: 0,
            ids: HashSet::new(),
            node_moves: Vec::new(),
        }
    }

    /// Adds one node of the main line: its moves, setup and territory markup.
    pub fn node(&mut self, node: &SgfNode<Prop>) {
        let Some(record) = self.record.as_mut() else {
            return;
        };
        let moves = self.moves;
        if node.properties.len() > 1 {
            duplicate_properties(node, moves, &mut self.ids, &mut self.findings);
        }
        let setup_start = record.setup.len() as u32;
        let mut content = NodeContent {
            moves: std::mem::take(&mut self.node_moves),
            setup_properties: self.setup_properties,
            ..NodeContent::default()
        };
        for prop in node.properties() {
            read_property(prop, record, moves, &mut content, &mut self.findings);
        }
        self.setup_properties = content.setup_properties;
        let setup_len = record.setup.len() as u32 - setup_start;
        if setup_len > 0 {
            record.events.push(Event::Setup {
                start: setup_start,
                len: setup_len,
            });
        }
        if content.moves.len() > 1 {
            self.findings.push(
                Finding::new(
                    Code::TwoMovesInNode,
                    format!(
                        "one node holds {} moves (after move {moves}); played in order",
                        content.moves.len()
                    ),
                )
                .at_move(moves + 1),
            );
        }
        if !content.moves.is_empty() {
            // Markup counts only when no move follows it (the same node is fine).
            self.markup = None;
            for &(color, kind) in &content.moves {
                self.moves += 1;
                record.events.push(Event::Move { color, kind });
            }
        }
        content.moves.clear();
        self.node_moves = content.moves;
        if let Some(nm) = content.markup {
            let m = self.markup.get_or_insert_with(Markup::default);
            m.black_territory.extend(nm.black_territory);
            m.white_territory.extend(nm.white_territory);
        }
    }

    /// The record, or why there is none.
    pub fn finish(mut self) -> Converted {
        if let (Some(record), Some(mut m)) = (self.record.as_mut(), self.markup.take()) {
            for v in [&mut m.black_territory, &mut m.white_territory] {
                v.sort_by_key(|p| (p.y, p.x));
                v.dedup();
            }
            record.markup = Some(m);
        }
        Converted {
            record: self.record,
            info: self.info,
            error: self.error,
            findings: self.findings.into_vec(),
        }
    }
}
