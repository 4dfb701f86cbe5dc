//! sgf-parse trees to [`GameRecord`]s: range checks sgf-parse does not make (SZ,
//! off-board points, `tt` passes), game info, the main line as flat events, and an
//! iterative teardown of the tree (sgf-parse's own Drop recurses and would overflow
//! the stack on long games).

use sgf_parse::go::{Move, Prop};
use sgf_parse::{SgfNode, SgfProp};

use crate::core::board::{Color, Point, MAX_SIZE};
use crate::core::findings::{Code, Finding};
use crate::core::game::{Event, GameInfo, GameRecord, Markup, MoveKind};

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
}

impl NoRecord {
    /// The finding that reports it.
    pub fn code(&self) -> Code {
        match self {
            NoRecord::Rectangular(..)
            | NoRecord::SizeOutOfRange(_)
            | NoRecord::SizeNotANumber(_) => Code::BadSize,
            NoRecord::NotGo(_) | NoRecord::NotGoOrUnparsable => Code::NotGo,
            NoRecord::Unparsable => Code::ParseFailed,
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
    findings: Vec<Finding>,
    markup: Option<Markup>,
    moves: u32,
    ids: Vec<String>,
}

/// A komi no board could give (100 points or more) written by a server that
/// scales it: Fox writes KM[750] for 7.5 points, and KM[375] for 3.75 stones
/// (Chinese 子, two points each) = 7.5 points. A quarter point cannot be a komi in
/// points, so a scaled value with a quarter fraction is read as stones.
fn rescaled_komi(k: f64) -> Option<(f64, &'static str)> {
    if k.abs() < 100.0 {
        return None;
    }
    let scaled = k / 100.0;
    if (scaled * 2.0).fract() != 0.0 {
        Some((
            scaled * 2.0,
            "written x100 and in stones (as Fox does for Chinese rules)",
        ))
    } else {
        Some((scaled, "written x100 (as Fox does)"))
    }
}

/// Whether the record was written by the Fox server's client (AP[foxwq], or
/// AP[YuanYu] in older downloads).
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
        let mut findings = Vec::new();
        let mut info = GameInfo::default();
        let mut size: Option<u8> = Some(19);
        let mut size_error = None;
        let mut handicap = 0u32;
        let mut komi = None;
        let mut no_komi_game = false;
        let mut first_player = None;
        let mut machine = false;

        for prop in root.properties() {
            match prop {
                Prop::SZ((w, h)) => {
                    if w != h {
                        size = None;
                        size_error = Some(NoRecord::Rectangular(*w, *h));
                    } else if *w == 0 || usize::from(*w) > MAX_SIZE {
                        size = None;
                        size_error = Some(NoRecord::SizeOutOfRange(*w));
                    } else {
                        size = Some(*w);
                    }
                }
                Prop::Invalid(id, v) if id == "SZ" => {
                    size = None;
                    size_error = Some(NoRecord::SizeNotANumber(v.join("][")));
                }
                Prop::GM(g) if *g != 1 => {
                    size = None;
                    size_error = Some(NoRecord::NotGo(g.to_string()));
                }
                Prop::HA(h) => handicap = u32::try_from(*h).unwrap_or(0),
                Prop::Invalid(id, v) if id == "HA" => {
                    let raw = v.first().map(|s| s.trim()).unwrap_or("");
                    // Fox writes HA[1] for a game without komi (Black simply moves first).
                    no_komi_game |= raw == "1";
                    if raw != "0" && raw != "1" && !raw.is_empty() {
                        findings.push(Finding::new(
                            Code::BadPropertyValue,
                            format!("HA[{raw}] is not a handicap; ignored"),
                        ));
                    }
                }
                Prop::KM(k) if k.is_finite() => komi = Some(*k),
                Prop::KM(_) => {}
                Prop::Invalid(id, v) if id == "KM" => {
                    let raw = v.first().map(String::as_str).unwrap_or("");
                    match raw.trim().replace(',', ".").parse::<f64>() {
                        Ok(k) if k.is_finite() => komi = Some(k),
                        _ => findings.push(Finding::new(
                            Code::BadPropertyValue,
                            format!("KM[{raw}] is not a number; ignored"),
                        )),
                    }
                }
                Prop::PL(c) => {
                    first_player = Some(match c {
                        sgf_parse::Color::Black => Color::Black,
                        sgf_parse::Color::White => Color::White,
                    })
                }
                Prop::AP((name, _)) => {
                    machine = true;
                    info.application = Some(name.text.clone());
                }
                Prop::Invalid(id, v) if id == "AP" => {
                    machine = true;
                    info.application = v.first().cloned();
                }
                Prop::Invalid(id, v) if id == "FF" => findings.push(Finding::new(
                    Code::UnusualFileFormat,
                    format!("FF[{}] is not an SGF version 1-4", v.join("][")),
                )),
                Prop::RU(t) => info.rules = Some(t.text.clone()),
                Prop::RE(t) => info.result = Some(t.text.clone()),
                Prop::PB(t) => info.black = Some(t.text.clone()),
                Prop::PW(t) => info.white = Some(t.text.clone()),
                Prop::DT(t) => info.date = Some(t.text.clone()),
                _ => {}
            }
            if !machine {
                if let Some(t) = text_of(prop) {
                    let lower = t.to_ascii_lowercase();
                    if !matches!(prop, Prop::CA(_) | Prop::RE(_) | Prop::RU(_))
                        && MACHINE_MARKS.iter().any(|m| lower.contains(m))
                    {
                        machine = true;
                    }
                }
            }
        }

        let Some(size) = size else {
            let why = size_error.unwrap_or(NoRecord::SizeNotANumber(String::new()));
            findings.push(Finding::new(why.code(), why.to_string()));
            return Converter {
                record: None,
                info,
                error: Some(why),
                findings,
                markup: None,
                moves: 0,
                ids: Vec::new(),
            };
        };

        let komi = komi.map(|k| match rescaled_komi(k) {
            Some((points, how)) => {
                findings.push(Finding::new(
                    Code::KomiScaled,
                    format!("KM[{k}] read as {points} points: {how}"),
                ));
                points
            }
            None => k,
        });
        let komi = match komi {
            Some(k) if k == 0.0 && handicap == 0 && !no_komi_game && written_by_fox(&info) => {
                findings.push(Finding::new(
                    Code::KomiUnwritten,
                    "KM[0] in an even game written by Fox's client, which writes 0 for the \
                     server's standard komi: read as no KM (each ruleset's own komi)",
                ));
                None
            }
            k => k,
        };
        Converter {
            record: Some(GameRecord {
                size,
                handicap,
                komi,
                first_player,
                machine_written: machine,
                binding: info
                    .rules
                    .as_deref()
                    .and_then(crate::scoring::recorded::parse_rules)
                    .map(crate::scoring::recorded::DeclaredRules::binding),
                ..Default::default()
            }),
            info,
            error: None,
            findings,
            markup: None,
            moves: 0,
            ids: Vec::new(),
        }
    }

    /// Adds one node of the main line.
    pub fn node(&mut self, node: &SgfNode<Prop>) {
        let Some(record) = self.record.as_mut() else {
            return;
        };
        let size = record.size;
        let findings = &mut self.findings;
        let ids = &mut self.ids;
        let mut markup = self.markup.take();
        let mut moves = self.moves;
        let setup_start = record.setup.len() as u32;
        let mut node_moves: Vec<(Color, MoveKind)> = Vec::new();
        let mut node_markup: Option<Markup> = None;
        ids.clear();
        if node.properties.len() > 1 {
            for prop in node.properties() {
                let id = identifier(prop);
                if ids.contains(&id) {
                    findings.push(
                        Finding::new(
                            Code::DuplicateProperty,
                            format!("{id} appears twice in one node (after move {moves})"),
                        )
                        .at_move(moves),
                    );
                } else {
                    ids.push(id);
                }
            }
        }
        for prop in node.properties() {
            match prop {
                Prop::B(m) | Prop::W(m) => {
                    let color = if matches!(prop, Prop::B(_)) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let kind = match m {
                        Move::Pass => MoveKind::Pass,
                        Move::Move(p) if p.x < size && p.y < size => {
                            MoveKind::Place(Point::new(p.x, p.y))
                        }
                        // FF[3] and many tools write a pass as `tt` on boards up to 19x19.
                        Move::Move(p) if size <= 19 && p.x == 19 && p.y == 19 => MoveKind::Pass,
                        Move::Move(p) => MoveKind::OffBoard { x: p.x, y: p.y },
                    };
                    node_moves.push((color, kind));
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
                        .at_move(moves + node_moves.len() as u32 + 1)
                        .with_color(color),
                    );
                    node_moves.push((color, MoveKind::Unreadable));
                }
                Prop::AB(set) | Prop::AW(set) | Prop::AE(set) => {
                    let c = match prop {
                        Prop::AB(_) => Some(Color::Black),
                        Prop::AW(_) => Some(Color::White),
                        _ => None,
                    };
                    for p in sorted(set) {
                        if p.x < size && p.y < size {
                            record.setup.push((Point::new(p.x, p.y), c));
                        } else {
                            findings.push(Finding::new(
                                Code::BadMoveValue,
                                format!(
                                    "setup point ({}, {}) is off the {size}x{size} board; ignored",
                                    p.x, p.y
                                ),
                            ));
                        }
                    }
                }
                Prop::Invalid(id, v) if id == "AB" || id == "AW" || id == "AE" => {
                    findings.push(Finding::new(
                        Code::BadMoveValue,
                        format!(
                            "{id}[{}] holds a value that is not a point; ignored",
                            v.join("][")
                        ),
                    ));
                }
                Prop::TB(set) | Prop::TW(set) => {
                    let m = node_markup.get_or_insert_with(Markup::default);
                    let pts = sorted(set)
                        .into_iter()
                        .filter(|p| p.x < size && p.y < size)
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
        let setup_len = record.setup.len() as u32 - setup_start;
        if setup_len > 0 {
            record.events.push(Event::Setup {
                start: setup_start,
                len: setup_len,
            });
        }
        if node_moves.len() > 1 {
            findings.push(
                Finding::new(
                    Code::TwoMovesInNode,
                    format!(
                        "one node holds {} moves (after move {moves}); played in order",
                        node_moves.len()
                    ),
                )
                .at_move(moves + 1),
            );
        }
        if !node_moves.is_empty() {
            // Markup counts only when no move follows it (the same node is fine).
            markup = None;
            for (color, kind) in node_moves {
                moves += 1;
                record.events.push(Event::Move { color, kind });
            }
        }
        if let Some(nm) = node_markup {
            let m = markup.get_or_insert_with(Markup::default);
            m.black_territory.extend(nm.black_territory);
            m.white_territory.extend(nm.white_territory);
        }
        self.markup = markup;
        self.moves = moves;
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
            findings: self.findings,
        }
    }
}
