//! Auditing one file's bytes: decode, scan, parse each game, replay it once under
//! the three rulesets. Knows SGF (through `sgf`) but not the file system or any
//! output format. A panic while handling a game becomes an `internal-error` finding
//! on that game; the run goes on.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::core::findings::{Code, Finding, Location, Severity};
use crate::core::game::GameInfo;
use crate::core::replay::{EndState, Replayer, Verdicts};
use crate::core::rules::RuleOptions;
use crate::duplicates::{self, line_hashes, DuplicateOf, Duplicates};
use crate::faults::{fault_injected, panic_message};
use crate::input::InputError;
use crate::pictures::{self, Pictures};
use crate::scoring::{recorded, score_game, NotScored, Scoring, ScoringOptions};
use crate::sgf::{self, NoGame, NoRecord};

/// What the audit is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AuditOptions {
    pub rules: RuleOptions,
    pub scoring: ScoringOptions,
    /// Files, standard input and archive entries larger than this many bytes
    /// are not read (`--max-file-size`).
    pub max_file_size: u64,
    /// Keep the positions a report draws ([`crate::pictures`]) for the games
    /// worth a picture (`--out`, `--html`).
    pub pictures: bool,
    /// The encoding of a record that declares none usable (no `CA`, an
    /// unknown one, or one its bytes are not valid in) and is not UTF-8, in
    /// place of the one detected (`--charset`); `None`: detected.
    pub charset: Option<&'static encoding_rs::Encoding>,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            rules: RuleOptions::default(),
            scoring: ScoringOptions::default(),
            max_file_size: crate::input::DEFAULT_MAX_FILE_SIZE,
            pictures: false,
            charset: None,
        }
    }
}

/// Why a game could not be audited.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The file could not be read.
    #[error("{0}")]
    Unreadable(InputError),
    /// The file holds no game tree.
    #[error("{0}")]
    NoGame(NoGame),
    /// The game tree yields no record.
    #[error("{0}")]
    NoRecord(NoRecord),
    /// A bug in sgfaudit; the message is the panic's.
    #[error("internal error while auditing this game: {0}")]
    Internal(String),
}

impl GameError {
    /// A short stable name for the kind of error, for counts.
    pub fn kind(&self) -> &'static str {
        match self {
            GameError::Unreadable(e) => e.kind(),
            GameError::NoGame(NoGame::Empty) => "empty-file",
            GameError::NoGame(NoGame::NotSgf | NoGame::Html | NoGame::Binary(_)) => "not-sgf",
            GameError::NoRecord(NoRecord::Rectangular(..)) => "rectangular-board",
            GameError::NoRecord(NoRecord::SizeOutOfRange(_) | NoRecord::SizeNotANumber(_)) => {
                "bad-size"
            }
            GameError::NoRecord(NoRecord::NotGo(_) | NoRecord::NotGoOrUnparsable) => "not-go",
            GameError::NoRecord(NoRecord::Unparsable) => "unparsable",
            GameError::NoRecord(
                NoRecord::TooManyValues(_)
                | NoRecord::TooManyVariations(_)
                | NoRecord::TooManyPoints(_)
                | NoRecord::TooManyNodes(_),
            ) => "too-large",
            GameError::NoRecord(NoRecord::NoNode) => "no-node",
            GameError::Internal(_) => "internal-error",
        }
    }
}

/// Whether a game could be audited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    Error(GameError),
}

/// The audit of one game.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub index: usize,
    pub status: Status,
    pub info: GameInfo,
    pub board_size: Option<u8>,
    pub handicap: u32,
    pub komi: Option<f64>,
    /// KM as written, when `komi` reads it otherwise (Fox's conventions).
    pub komi_as_written: Option<f64>,
    pub moves: u32,
    pub findings: Vec<Finding>,
    pub verdicts: Verdicts,
    pub end: EndState,
    pub scoring: Scoring,
    /// The main line's hash after each move, for the duplicate check (which
    /// empties it).
    pub line: Vec<u64>,
    /// The earlier game of the run this one repeats, if any.
    pub duplicate_of: Option<DuplicateOf>,
    /// Where the game tree is written (its `(`), when the file holds one.
    pub start: Option<Location>,
    /// The positions a report draws, when asked for and worth drawing.
    pub pictures: Option<Box<Pictures>>,
}

impl GameReport {
    /// About how many bytes the report holds in the parts that grow with the
    /// game (findings, illegal moves, the line's hashes): what the pipeline
    /// holds its rounds of reports to.
    pub fn approx_bytes(&self) -> usize {
        use std::mem::size_of;
        let findings: usize = self
            .findings
            .iter()
            .map(|f| size_of::<Finding>() + f.message.capacity())
            .sum();
        let illegal: usize = [
            &self.verdicts.aga,
            &self.verdicts.japanese,
            &self.verdicts.swedish,
        ]
        .iter()
        .map(|v| v.illegal.capacity() * size_of::<crate::core::replay::Illegal>())
        .sum();
        size_of::<GameReport>() + findings + illegal + self.line.capacity() * size_of::<u64>()
    }

    /// Checks the game against the earlier games of the run (A508, A509)
    /// and adds it to them, in input order: the finding and `duplicate_of`
    /// when it repeats one. Empties the line's hashes.
    pub fn check_duplicates(&mut self, file: &str, earlier: &mut Duplicates) {
        let line = std::mem::take(&mut self.line);
        if self.status != Status::Ok {
            return;
        }
        let game = duplicates::Game {
            index: self.index,
            line: &line,
            info: &self.info,
            start: self.start,
        };
        if let Some(repeat) = earlier.check(file, game) {
            self.findings.push(repeat.finding);
            self.duplicate_of = Some(repeat.of);
        }
    }

    fn failed(index: usize, why: GameError, info: GameInfo, findings: Vec<Finding>) -> GameReport {
        GameReport {
            index,
            status: Status::Error(why),
            info,
            board_size: None,
            handicap: 0,
            komi: None,
            komi_as_written: None,
            moves: 0,
            findings,
            verdicts: Default::default(),
            end: EndState::default(),
            scoring: Scoring::NotScored(NotScored::NotAudited),
            line: Vec::new(),
            duplicate_of: None,
            start: None,
            pictures: None,
        }
    }

    /// Places the findings about the whole game that have no place yet
    /// (`Code::about_the_whole_game`) where the game tree is written.
    fn place_whole_game_findings(&mut self) {
        let Some(start) = self.start else { return };
        for f in &mut self.findings {
            if f.location.is_none() && f.code.about_the_whole_game() {
                f.location = Some(start);
            }
        }
    }

    /// The most severe finding, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// A file as reports name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    pub path: String,
    /// The text encoding used, when the file could be read.
    pub encoding: Option<&'static str>,
}

/// The audit of one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    pub file: FileInfo,
    /// At least one entry: a file without games yields one failed game 0.
    pub games: Vec<GameReport>,
}

/// The report of a file that could not be read at all: one failed game 0.
pub fn unreadable(why: InputError) -> GameReport {
    let code = match why {
        InputError::Skipped(_) => Code::SkippedInput,
        _ => Code::UnreadableFile,
    };
    let f = Finding::new(code, why.to_string());
    GameReport::failed(0, GameError::Unreadable(why), GameInfo::default(), vec![f])
}

impl FileReport {
    /// A file that could not be read at all.
    pub fn unreadable(path: String, why: InputError) -> FileReport {
        FileReport {
            file: FileInfo {
                path,
                encoding: None,
            },
            games: vec![unreadable(why)],
        }
    }
}

/// A file read, decoded and split into game trees, ready to audit game by
/// game (on any thread: it owns its text).
pub struct PreparedFile {
    pub file: FileInfo,
    collection: sgf::Collection,
    /// Findings about the file rather than a game, with the game each is
    /// reported with (`sgf::Collection::file_findings`).
    file_findings: Vec<(usize, Finding)>,
    /// Why the file holds no game, if it holds none.
    no_game: Option<NoGame>,
    inject_fault: bool,
}

impl PreparedFile {
    /// Decodes and scans a file's bytes. Never fails.
    pub fn new(path: String, bytes: Vec<u8>, opts: &AuditOptions) -> PreparedFile {
        Self::of(path, sgf::read_in(bytes, opts.charset))
    }

    /// A part after the first of a file read in parts (`input::parts`).
    pub fn continuation(path: String, bytes: Vec<u8>, opts: &AuditOptions) -> PreparedFile {
        Self::of(path, sgf::read_continuation(bytes, opts.charset))
    }

    fn of(path: String, collection: sgf::Collection) -> PreparedFile {
        let file_findings = collection.file_findings();
        let no_game = collection.no_game_reason();
        PreparedFile {
            inject_fault: fault_injected(&path),
            file: FileInfo {
                path,
                // The bytes of a binary format were never decoded as text.
                encoding: collection
                    .binary()
                    .is_none()
                    .then(|| collection.decoded.encoding_name()),
            },
            collection,
            file_findings,
            no_game,
        }
    }

    /// The number of game reports the file yields (a file without games yields
    /// one, which says why).
    pub fn reports(&self) -> usize {
        self.collection.game_count().max(1)
    }

    /// The size of the decoded text, in bytes.
    pub fn text_len(&self) -> usize {
        self.collection.decoded.text.len()
    }

    /// Audits game `index`. Never fails and never panics out: a panic becomes
    /// an internal-error finding on that game.
    pub fn audit(&self, index: usize, opts: &AuditOptions, replayer: &mut Replayer) -> GameReport {
        let mut report = if let Some(why) = self.no_game {
            let mut findings: Vec<Finding> =
                self.file_findings.iter().map(|(_, f)| f.clone()).collect();
            findings.push(Finding::new(why.code(), why.to_string()));
            return GameReport::failed(0, GameError::NoGame(why), GameInfo::default(), findings);
        } else {
            let result = catch_unwind(AssertUnwindSafe(|| {
                if self.inject_fault {
                    panic!("fault injected by SGFAUDIT_INJECT_FAULT");
                }
                audit_game(&self.collection, index, opts, replayer)
            }));
            match result {
                Ok(r) => r,
                Err(payload) => {
                    // The replayer may be half-way through a game: start afresh.
                    *replayer = Replayer::new();
                    let why = GameError::Internal(panic_message(&payload));
                    let finding = Finding::new(Code::InternalError, why.to_string());
                    GameReport::failed(index, why, GameInfo::default(), vec![finding])
                }
            }
        };
        let mut all: Vec<Finding> = self
            .file_findings
            .iter()
            .filter(|(game, _)| *game == index)
            .map(|(_, f)| f.clone())
            .collect();
        if !all.is_empty() {
            all.append(&mut report.findings);
            report.findings = all;
        }
        if self.no_game.is_none() {
            report.start = self.collection.tree_location(index);
            report.place_whole_game_findings();
        }
        report
    }
}

/// Audits the bytes of one file, every game. Never fails and never panics out.
pub fn audit_bytes(
    path: &str,
    bytes: &[u8],
    opts: &AuditOptions,
    replayer: &mut Replayer,
) -> FileReport {
    let prepared = PreparedFile::new(path.to_string(), bytes.to_vec(), opts);
    let games = (0..prepared.reports())
        .map(|i| prepared.audit(i, opts, replayer))
        .collect();
    FileReport {
        file: prepared.file,
        games,
    }
}

/// Places findings where what they are about is written (offset, line and
/// column in the file): a move's `B` or `W`, a repeated property, setup
/// after a move, the setup property holding a rejected point, or the root
/// property a finding about the game information
/// concerns (`Code::root_property`). `moves` is the record's move count.
fn locate(collection: &sgf::Collection, index: usize, moves: u32, findings: &mut [Finding]) {
    locate_on_main_line(collection, index, moves, findings);
    for f in findings.iter_mut() {
        if f.location.is_some() || place_of(f).is_some() {
            continue;
        }
        if let Some(ident) = f.property {
            f.location = collection.root_property_location(index, ident);
        }
    }
}

/// The place on the main line a finding stands on: the move it is about,
/// the setup or repeated property of a node read after a move, the setup
/// property holding a value it rejects, or the territory markup it disputes.
fn place_of(f: &Finding) -> Option<sgf::Place> {
    if matches!(f.code, Code::MarkupCompleted | Code::MarkupDisputed) {
        return Some(sgf::Place::Markup);
    }
    if let Some(k) = f.setup_property {
        return Some(sgf::Place::SetupProperty(k));
    }
    let m = f.move_number?;
    match f.code {
        Code::SetupInGame => Some(sgf::Place::Setup(m)),
        Code::DuplicateProperty => Some(sgf::Place::Repeated(m)),
        _ => (m > 0).then_some(sgf::Place::Move(m)),
    }
}

/// Places the findings that stand on the main line ([`place_of`]).
fn locate_on_main_line(
    collection: &sgf::Collection,
    index: usize,
    moves: u32,
    findings: &mut [Finding],
) {
    let unplaced: Vec<(usize, sgf::Place)> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.location.is_none())
        .filter_map(|(k, f)| Some((k, place_of(f)?)))
        .collect();
    if unplaced.is_empty() {
        return;
    }
    let wanted: Vec<sgf::Place> = unplaced.iter().map(|&(_, p)| p).collect();
    let places = collection.places(index, moves, &wanted);
    for ((k, _), place) in unplaced.into_iter().zip(places) {
        findings[k].location = place;
    }
}

fn audit_game(
    collection: &sgf::Collection,
    index: usize,
    opts: &AuditOptions,
    replayer: &mut Replayer,
) -> GameReport {
    let Some(parsed) = collection.parse_game(index) else {
        let why = GameError::NoRecord(NoRecord::Unparsable);
        return GameReport::failed(index, why, GameInfo::default(), Vec::new());
    };
    let Some(mut record) = parsed.record else {
        let why = GameError::NoRecord(parsed.error.unwrap_or(NoRecord::Unparsable));
        let mut findings = parsed.findings;
        locate(collection, index, 0, &mut findings);
        return GameReport::failed(index, why, parsed.info, findings);
    };
    let mut findings_before = Vec::new();
    if let Some(re) = parsed.info.result.as_deref() {
        if let recorded::Recorded::Win {
            by: recorded::WinBy::Malformed,
            ..
        } = recorded::parse_result(re)
        {
            findings_before.push(Finding::new(
                Code::BadPropertyValue,
                format!("RE[{re}] gives a margin that is no number of points; the result is not checked"),
            ).about("RE"));
        }
    }
    // The rules the record declares decide which verdicts are errors.
    record.binding = parsed.info.rules.as_deref().and_then(recorded::binding_of);
    let outcome = replayer.replay(&record, &opts.rules);
    let mut findings = parsed.findings;
    findings.append(&mut findings_before);
    findings.extend(outcome.findings);
    let scoring = score_game(
        replayer.board(),
        &record,
        &parsed.info,
        &outcome.end,
        &opts.scoring,
        &mut findings,
    );
    locate(collection, index, outcome.moves, &mut findings);
    let pictures = (opts.pictures && pictures::wanted(&findings, &scoring)).then(|| {
        let final_board = replayer.board().snapshot();
        Box::new(pictures::take(
            &record,
            &findings,
            &scoring,
            final_board,
            replayer,
        ))
    });
    GameReport {
        index,
        status: Status::Ok,
        info: parsed.info,
        board_size: Some(record.size.get()),
        handicap: record.handicap,
        komi: record.komi,
        komi_as_written: record.komi_as_written,
        moves: outcome.moves,
        findings,
        verdicts: outcome.verdicts,
        end: outcome.end,
        scoring,
        line: line_hashes(&record),
        duplicate_of: None,
        start: None,
        pictures,
    }
}
