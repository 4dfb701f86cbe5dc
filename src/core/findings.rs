//! Findings: what the audit reports, each with a stable code (`docs/OUTPUT.md` lists them).

use crate::core::board::{Color, Point};
use crate::core::rules::{IllegalKind, RulesetSet};

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! codes {
    ($( $variant:ident = $id:literal, $name:literal, $sev:ident, $doc:literal; )*) => {
        /// Every kind of finding. The `id` (e.g. `R401`) and `name` are a stable contract.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $( #[doc = $doc] $variant, )* }

        impl Code {
            /// Every code, in id order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
            /// The stable identifier, e.g. `R401`.
            pub fn id(self) -> &'static str { match self { $(Code::$variant => $id,)* } }
            /// The stable short name, e.g. `occupied`.
            pub fn name(self) -> &'static str { match self { $(Code::$variant => $name,)* } }
            /// The default severity.
            pub fn severity(self) -> Severity { match self { $(Code::$variant => Severity::$sev,)* } }
            /// One line saying what the code means.
            pub fn description(self) -> &'static str { match self { $(Code::$variant => $doc,)* } }
        }
    };
}

codes! {
    // F: files
    UnreadableFile = "F001", "unreadable-file", Error, "The file could not be read (I/O error, permission, vanished, a symlink loop or a link to nothing, not a regular file, larger than --max-file-size, a damaged archive or entry, an archive bomb); the reason is given.";
    EmptyFile = "F002", "empty-file", Error, "The file is empty or holds only white space.";
    NotSgf = "F003", "not-sgf", Error, "No SGF game tree `(;` was found in the file (an HTML page, compressed data, an archive or macOS metadata under a game file's name is named as such: not SGF text).";
    SkippedInput = "F004", "skipped-input", Warning, "A file or archive entry that looks like a game database was not read: a format not supported (.rar), a link inside an archive, or an archive nested two deep. The reason is given.";
    // E: encodings
    CharsetAssumed = "E101", "charset-assumed", Info, "The text encoding was not declared (no CA) and not plain UTF-8/ASCII; the encoding used is named.";
    CharsetUnknownLabel = "E102", "charset-unknown-label", Warning, "The CA label names no known encoding; the encoding used instead is named.";
    CharsetWrongLabel = "E103", "charset-wrong-label", Warning, "The bytes are not valid in the encoding CA declares; the encoding used instead is named.";
    CharsetReplaced = "E104", "charset-replaced", Warning, "Some bytes are invalid in every encoding tried and were replaced by U+FFFD.";
    // S: syntax
    LeadingText = "S201", "leading-text", Warning, "Text before the first game tree was skipped.";
    TrailingText = "S202", "trailing-text", Warning, "Text after the last game tree was skipped.";
    UnclosedTree = "S203", "unclosed-tree", Warning, "A game tree or variation is not closed by `)` (truncated file?); it was closed at the end of the file.";
    UnterminatedValue = "S204", "unterminated-value", Error, "A property value `[` has no closing `]` before the end of the file; the rest of the game is lost.";
    StrayClose = "S205", "stray-close", Warning, "A `)` closes nothing; it was skipped.";
    JunkText = "S206", "junk-text", Warning, "Text that is not a property stands between properties or nodes.";
    MissingIdentifier = "S207", "missing-identifier", Warning, "A property value `[...]` has no property identifier before it.";
    MissingValue = "S208", "missing-value", Warning, "A property identifier has no value `[...]` after it.";
    EmptyVariation = "S209", "empty-variation", Warning, "A variation `(` holds no node `;`.";
    LenientRecovery = "S210", "lenient-recovery", Warning, "The strict parse failed; a lenient parse kept only the part of the game before the first error.";
    ParseFailed = "S211", "parse-failed", Error, "The game tree could not be parsed at all.";
    LongValueCut = "S212", "long-value-cut", Warning, "A value of a property sgfaudit reads (a move, setup, a player's name, RE, ...) is longer than 64 KiB; only its first KiB was read.";
    LongIdentifierCut = "S213", "long-identifier-cut", Warning, "A property identifier is longer than 64 KiB (no property has such a name); only its first KiB was kept, so that the game can be read.";
    // P: properties
    BadSize = "P301", "bad-size", Error, "SZ is not a whole number in 1..=52.";
    NotGo = "P302", "not-go", Error, "GM says this is not a game of Go.";
    BadMoveValue = "P303", "bad-move-value", Error, "A move or setup value is not a point (e.g. `B[1]`).";
    TwoMovesInNode = "P304", "two-moves-in-node", Warning, "One node holds both a B and a W move; both were played, B first.";
    HandicapMismatch = "P305", "handicap-mismatch", Warning, "HA differs from the number of handicap stones given.";
    BadPropertyValue = "P306", "bad-property-value", Warning, "A game-info value (KM, HA, PL, ...) is malformed and was ignored.";
    DuplicateProperty = "P307", "duplicate-property", Warning, "A property appears twice in one node (moves are all played, in order; for game info the last value counts).";
    UnusualFileFormat = "P308", "unusual-file-format", Info, "FF names a version other than 1-4.";
    RectangularBoard = "P309", "rectangular-board", Warning, "The board is rectangular (`SZ[columns:rows]`, valid SGF, as KataGo's self-play writes some games); sgfaudit replays square boards only, so the game is not audited.";
    // R: rule violations (per ruleset)
    Occupied = "R401", "occupied", Error, "A stone was played on an occupied point.";
    OffBoard = "R402", "off-board", Error, "A stone was played outside the board.";
    Suicide = "R403", "suicide", Error, "The move left its own string without liberties (self-capture). An error when the rules the record declares forbid it; info when only other rulesets do.";
    Ko = "R404", "ko", Error, "The move retakes a ko at once, recreating the position before the opponent's last move. An error when the rules the record declares forbid it; info when only other rulesets do.";
    Superko = "R405", "superko", Error, "The move recreates an earlier whole-board position forbidden by the ruleset's repetition rule. An error when the rules the record declares forbid it; info when only other rulesets do.";
    WrongTurn = "R406", "wrong-turn", Error, "The same colour moved twice in a row (not a handicap or omitted pass pattern).";
    NoResultRepetition = "R407", "no-result-repetition", Warning, "Japanese rule 12: a whole-board position recurred; the game may end with no result.";
    // A: record anomalies
    HandicapAsMoves = "A501", "handicap-as-moves", Info, "Handicap stones were given as the first HA Black moves instead of AB setup.";
    OmittedPass = "A502", "omitted-pass", Warning, "The same colour moved twice in a machine-written record: read as the opponent's omitted pass.";
    PlayAfterEnd = "A503", "play-after-end", Warning, "Stones were played after two consecutive passes (play resumed).";
    SetupInGame = "A504", "setup-in-game", Warning, "Setup stones (AB/AW/AE) change the board after moves were played.";
    FirstPlayer = "A505", "first-player", Warning, "The first move was not by the expected player (Black on an empty board, White after handicap stones, or PL).";
    DuplicateGame = "A508", "duplicate-game", Info, "The game's main line (board size, setup stones, every move) is the same as an earlier game's in the run, which is named; for games under 50 moves only when players, date and result are the same too.";
    TruncatedCopy = "A509", "truncated-copy", Info, "An earlier game in the run is this game cut short: its main line is this game's first moves (at least 50) and its result is unrecorded or the same; it is named.";
    PassForKo = "A510", "pass-for-ko", Info, "In the encore of KataGo's territory rules, a stone that would take back a ko the other player took there is a pass for that ko: it lifts the block and places nothing, and the replay leaves the board unchanged.";
    // C: counting and results
    ResultMismatch = "C601", "result-mismatch", Warning, "The recorded result (RE) differs from the count of the final position under the declared rules (RU), or without RU under every counting; for records without TB/TW markup (with markup see C608 and C609). Info when the record does not end with two passes (its last position may not be the one the players counted), when the estimate leaves stones in doubt (the count rests on them), or when RE is the count with the estimate's call on one group reversed (the group is named). The other countings that give RE, if any, are named (a record counted by other rules than its RU names). A count that is RE with the winner exchanged is said.";
    ResultImpossible = "C602", "result-impossible", Warning, "The recorded margin cannot arise with the komi (half-point parity).";
    AgaCountsDiffer = "C603", "aga-counts-differ", Warning, "AGA territory and area counting give different margins although the game was played from an empty board or handicap stones (the rules promise equality); the reason is given.";
    MarkupDisputed = "C606", "markup-disputed", Info, "The TB/TW markup's dead stones differ from an estimate that has no stone in doubt; the count with the estimate's is given (--check-markup only).";
    MarkupCompleted = "C607", "markup-rule7", Info, "The TB/TW markup leaves standing stones that Japanese rule 7 makes dead: a lone stone or a string of two or three stones in atari whose owner cannot fill the last liberty (the fill would be suicide) and whose capture leaves no room to live (docs/RULES.md); the count keeps the markup, and the count with the stones dead is given.";
    MarkupCountMismatch = "C608", "markup-count-mismatch", Warning, "The recorded result (RE) differs from the record's own count: its TB/TW markup counted as marked, with the captures and komi. The record contradicts itself. A count that is RE with the winner exchanged is said.";
    RulesCountDiffers = "C609", "rules-count-differs", Info, "The declared rules' count of the final position, with the markup's dead stones, differs from the record's own TB/TW count; the points counted differently are named, with why (seki eye, point to fill, neutral). Without RU: when no counting gives RE, the Japanese count against the record's own. Without markup: when RE is the count of the final position as players and servers commonly make it and the rules do not (the points Japanese rule 8 leaves out counted as territory; lone stones in atari that only rule 7 makes dead, or those and the strings of two or three stones it makes dead, or every dead string in atari with no way out, left standing), the points or stones are named, instead of C601.";
    // X: internal
    InternalError = "X900", "internal-error", Error, "A bug in sgfaudit while handling this game; the run went on.";
    FindingsOmitted = "X901", "findings-omitted", Info, "A game's reading or its replay had more than 10,000 findings; the rest are counted per code, not listed (its verdicts stay complete).";
}

impl Code {
    /// Codes no longer reported, with their names (docs/OUTPUT.md, "Retired
    /// codes"). A code is never reused, so a selection naming one selects nothing.
    pub const RETIRED: [(&'static str, &'static str); 4] = [
        ("A506", "komi-scaled"),
        ("A507", "komi-unwritten"),
        ("C604", "winner-differs"),
        ("C605", "seki-readings-differ"),
    ];

    /// The codes of illegal moves, which the per-ruleset verdicts also list.
    pub const ILLEGAL_MOVES: [Code; 6] = [
        Code::Occupied,
        Code::OffBoard,
        Code::Suicide,
        Code::Ko,
        Code::Superko,
        Code::WrongTurn,
    ];

    /// Whether a finding of this code is about a whole game, with no move,
    /// property or text of its own to point at: it is placed where the game
    /// tree is written (its `(`).
    pub fn about_the_whole_game(self) -> bool {
        matches!(
            self,
            Code::ParseFailed
                | Code::AgaCountsDiffer
                | Code::DuplicateGame
                | Code::TruncatedCopy
                | Code::InternalError
                | Code::FindingsOmitted
        )
    }

    /// The root property a finding of this code is about, when the finding
    /// is about no move: it is placed where that property is written.
    pub fn root_property(self) -> Option<&'static str> {
        match self {
            Code::ResultMismatch
            | Code::ResultImpossible
            | Code::MarkupCountMismatch
            | Code::RulesCountDiffers => Some("RE"),
            Code::HandicapMismatch => Some("HA"),
            Code::UnusualFileFormat => Some("FF"),
            Code::BadSize | Code::RectangularBoard => Some("SZ"),
            Code::NotGo => Some("GM"),
            Code::CharsetUnknownLabel | Code::CharsetWrongLabel => Some("CA"),
            _ => None,
        }
    }
}

impl From<IllegalKind> for Code {
    /// The finding code of an illegal move of that kind.
    fn from(kind: IllegalKind) -> Code {
        match kind {
            IllegalKind::Occupied => Code::Occupied,
            IllegalKind::OffBoard => Code::OffBoard,
            IllegalKind::Suicide => Code::Suicide,
            IllegalKind::Ko => Code::Ko,
            IllegalKind::Superko => Code::Superko,
            IllegalKind::WrongTurn => Code::WrongTurn,
        }
    }
}

/// A place in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// Byte offset in the file as read.
    pub offset: u64,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// One reported fact about a file or a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub code: Code,
    pub severity: Severity,
    /// Move number (1-based over B/W properties of the main line; passes count).
    pub move_number: Option<u32>,
    pub point: Option<Point>,
    pub color: Option<Color>,
    /// The rulesets under which the finding applies (empty: not rules-specific).
    pub rulesets: RulesetSet,
    pub message: String,
    /// Where in the text, for syntax findings.
    pub location: Option<Location>,
    /// The game-information property of the root the finding is about, if
    /// any (`RE`, `KM`, ...): it is placed there when it has no other place.
    pub property: Option<&'static str>,
    /// The setup property (`AB`, `AW`, `AE`) the finding is about, counted
    /// from 0 along the main line: it is placed there.
    pub setup_property: Option<u32>,
}

impl Finding {
    /// A finding with the code's default severity and nothing else set.
    pub fn new(code: Code, message: impl Into<String>) -> Finding {
        Finding {
            code,
            severity: code.severity(),
            move_number: None,
            point: None,
            color: None,
            rulesets: RulesetSet::EMPTY,
            message: message.into(),
            location: None,
            property: code.root_property(),
            setup_property: None,
        }
    }

    /// The finding about the root's property `ident` (its place in the text).
    pub fn about(mut self, ident: &'static str) -> Finding {
        self.property = Some(ident);
        self
    }

    /// The finding about the main line's setup property number `k` (from 0).
    pub fn in_setup_property(mut self, k: u32) -> Finding {
        self.setup_property = Some(k);
        self
    }

    pub fn at_move(mut self, n: u32) -> Finding {
        self.move_number = Some(n);
        self
    }

    pub fn with_point(mut self, p: Option<Point>) -> Finding {
        self.point = p;
        self
    }

    pub fn with_color(mut self, c: Color) -> Finding {
        self.color = Some(c);
        self
    }

    pub fn under(mut self, r: RulesetSet) -> Finding {
        self.rulesets = r;
        self
    }

    pub fn with_severity(mut self, s: Severity) -> Finding {
        self.severity = s;
        self
    }

    pub fn located(mut self, loc: Location) -> Finding {
        self.location = Some(loc);
        self
    }

    /// The finding placed at `loc`, when there is one.
    pub fn with_location(mut self, loc: Option<Location>) -> Finding {
        self.location = loc.or(self.location);
        self
    }
}

/// Findings listed per game, from its reading and from its replay each: a
/// pathological record can have millions (a node of 200,000 repeated
/// properties, moves played again and again on one point).
pub const MAX_FINDINGS: usize = 10_000;

/// A game's findings as they are found, at most [`MAX_FINDINGS`] listed;
/// the rest are counted per code and summarised by one X901 each, so
/// memory stays bounded whatever the record.
#[derive(Debug, Default)]
pub struct CappedFindings {
    listed: Vec<Finding>,
    omitted: std::collections::BTreeMap<Code, u64>,
}

impl CappedFindings {
    /// Lists `f`, or counts it once [`MAX_FINDINGS`] are listed.
    pub fn push(&mut self, f: Finding) {
        if self.listed.len() < MAX_FINDINGS {
            self.listed.push(f);
        } else {
            *self.omitted.entry(f.code).or_default() += 1;
        }
    }

    /// The listed findings, then an X901 for each code some were counted of.
    pub fn into_vec(self) -> Vec<Finding> {
        let mut out = self.listed;
        for (code, n) in self.omitted {
            let verdicts = if Code::ILLEGAL_MOVES.contains(&code) {
                "; the per-ruleset verdicts list every illegal move"
            } else {
                ""
            };
            out.push(Finding::new(
                Code::FindingsOmitted,
                format!(
                    "{n} more {} ({}) finding(s) in this game are not listed{verdicts}",
                    code.id(),
                    code.name()
                ),
            ));
        }
        out
    }
}

impl Extend<Finding> for CappedFindings {
    fn extend<I: IntoIterator<Item = Finding>>(&mut self, findings: I) {
        for f in findings {
            self.push(f);
        }
    }
}
