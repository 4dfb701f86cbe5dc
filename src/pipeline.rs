//! The parallel pipeline. Inputs are taken in batches, gathered on a thread of
//! their own; the files of a batch are read, decoded and split into games in
//! parallel, and their games are audited in parallel, a round of games at a
//! time, and handed to the sink in input order. The pool is never left waiting
//! on one step: the next batch is read while this one is audited, and the next
//! round is under way while a round ends on its slowest game and while the
//! main thread hands the finished one on. A collection file of many games is
//! thus audited on every thread, and its results leave as they are made:
//! memory holds at most three batches of files (one being read) and two rounds
//! of game reports (cut to about 8 MiB a thread when reports are large), never
//! the whole archive or a whole file's reports. Output is byte-identical for
//! any thread count because order comes from the input, not from the threads.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::audit::{self, AuditOptions, FileInfo, GameReport, PreparedFile};
use crate::core::replay::Replayer;
use crate::duplicates::Duplicates;
use crate::input::{Item, PartOf};

/// Input bytes in flight per thread, with [`FILES_PER_THREAD`] files: bounds
/// the memory of a batch whatever the size of files.
const BATCH_BYTES_PER_THREAD: u64 = 1 << 20;
/// Files per thread in a batch.
const FILES_PER_THREAD: usize = 64;
/// Games per thread audited in one round before their reports are handed on.
const GAMES_PER_THREAD: usize = 64;
/// Report bytes per thread a round is cut to, judged by the round before:
/// games of thousands of findings (each game keeps up to 10,000) are audited
/// a few at a time, so the reports held do not grow with the thread count
/// times the largest report. A finished game's report is a few KiB, so
/// ordinary rounds keep [`GAMES_PER_THREAD`].
const ROUND_BYTES_PER_THREAD: usize = 8 << 20;

/// Each worker's stack: nothing recurses on input-sized structures, so a
/// fixed, modest stack serves every input.
const STACK_BYTES: usize = 4 << 20;

thread_local! {
    static REPLAYER: RefCell<Replayer> = RefCell::new(Replayer::new());
}

/// What the pipeline hands its sink, in input order.
// Built once per game and matched at once by the sink: a box would only add
// an allocation per game.
#[allow(clippy::large_enum_variant)]
pub enum Output<'a> {
    /// One game of a file (a file that cannot be read yields one failed
    /// game), handed over: the pipeline keeps nothing of it.
    Game(&'a FileInfo, GameReport),
    /// The file's last game has been handed on.
    FileDone(&'a FileInfo),
}

/// A file of the batch: ready to audit, or already reported as unreadable.
enum Body {
    File(Box<PreparedFile>),
    Unreadable(FileInfo, Box<GameReport>),
}

/// A file (or a part of a large one) of the batch.
struct Prepared {
    body: Body,
    part: Option<PartOf>,
}

impl Prepared {
    fn new(item: Item, opts: &AuditOptions) -> Prepared {
        let part = item.part().copied();
        let body = match item.read(opts.max_file_size) {
            Ok(bytes) if part.is_some_and(|p| p.offset > 0) => {
                Body::File(Box::new(PreparedFile::continuation(item.name, bytes, opts)))
            }
            Ok(bytes) => Body::File(Box::new(PreparedFile::new(item.name, bytes, opts))),
            Err(why) => Body::Unreadable(
                FileInfo {
                    path: item.name,
                    encoding: None,
                },
                Box::new(audit::unreadable(why)),
            ),
        };
        Prepared { body, part }
    }

    fn info(&self) -> &FileInfo {
        match &self.body {
            Body::File(f) => &f.file,
            Body::Unreadable(info, _) => info,
        }
    }

    fn reports(&self) -> usize {
        match &self.body {
            Body::File(f) => f.reports(),
            Body::Unreadable(..) => 1,
        }
    }

    /// Game `index`'s report, audited with this thread's replayer.
    fn audit(&self, index: usize, opts: &AuditOptions) -> GameReport {
        match &self.body {
            Body::File(f) => REPLAYER.with(|r| f.audit(index, opts, &mut r.borrow_mut())),
            Body::Unreadable(_, report) => (**report).clone(),
        }
    }
}

/// The large file whose parts are being handed on: its name, the games of
/// its parts so far, by which the next part's games are numbered, and the
/// encoding its parts were read in (none while no part could be read).
#[derive(Default)]
struct PartCursor {
    file: Option<String>,
    games: usize,
    encoding: Option<&'static str>,
}

/// A part's report placed in its file: the game numbered after the games
/// of the parts before it, its findings' and its own byte offsets, lines
/// and columns counted from the start of the file.
fn place(report: &mut GameReport, part: &PartOf, games_before: usize) {
    report.index += games_before;
    let locations = report.findings.iter_mut().map(|f| &mut f.location);
    for loc in locations.chain([&mut report.start]).flatten() {
        loc.offset += part.offset;
        if loc.line == 1 {
            loc.column += part.column.saturating_sub(1);
        }
        loc.line += part.line.saturating_sub(1);
    }
}

/// Runs the audit over `inputs` on `jobs` threads (0 = all cores), calling `sink`
/// with each game's report and the end of each file, in input order. Stops
/// early, returning the sink's error, if the sink fails (e.g. a closed pipe).
pub fn run<I, S, E>(inputs: I, opts: &AuditOptions, jobs: usize, mut sink: S) -> Result<(), E>
where
    I: Iterator<Item = Item> + Send,
    S: FnMut(Output<'_>) -> Result<(), E>,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("sgfaudit-{i}"))
        .build()
        .ok();
    let threads = pool.as_ref().map_or(1, |p| p.current_num_threads().max(1));
    std::thread::scope(|scope| {
        // The next batch is gathered while this one is audited, so walking a
        // directory or unpacking an archive overlaps the work; at most one
        // batch waits, which keeps memory to a few batches.
        let (tx, batches) = std::sync::mpsc::sync_channel(1);
        scope.spawn(move || {
            for batch in Batches::new(inputs, threads) {
                if tx.send(batch).is_err() {
                    break; // the sink stopped the run
                }
            }
        });
        let mut duplicates = Duplicates::default();
        let mut cursor = PartCursor::default();
        match pool.as_ref() {
            Some(pool) => {
                let mut hand =
                    |round: Round| hand_on(round, (&mut duplicates, &mut cursor), &mut sink);
                pool.in_place_scope(|scope| pipelined(scope, batches, opts, threads, &mut hand))
            }
            None => {
                for batch in batches {
                    let batch = Arc::new(ReadBatch::read(batch, opts));
                    for start in (0..batch.games).step_by(GAMES_PER_THREAD) {
                        let range = start..(start + GAMES_PER_THREAD).min(batch.games);
                        let round = Round::audit(Arc::clone(&batch), range, opts);
                        hand_on(round, (&mut duplicates, &mut cursor), &mut sink)?;
                    }
                }
                Ok(())
            }
        }
    })
}

/// A batch read, decoded and split, shared by the rounds that audit its games.
struct ReadBatch {
    files: Vec<Prepared>,
    /// The games of the files before each file: the batch's games are
    /// numbered in input order across its files (a number per game would
    /// cost more than the game itself for a file of millions of tiny ones).
    first_game: Vec<usize>,
    games: usize,
}

impl ReadBatch {
    /// Reads the batch's files (in parallel when called on the pool).
    fn read(batch: Vec<Item>, opts: &AuditOptions) -> ReadBatch {
        let files: Vec<Prepared> = batch
            .into_par_iter()
            .map(|item| Prepared::new(item, opts))
            .collect();
        let mut first_game = Vec::with_capacity(files.len());
        let mut games = 0;
        for p in &files {
            first_game.push(games);
            games += p.reports();
        }
        ReadBatch {
            files,
            first_game,
            games,
        }
    }

    /// The file of game `k` of the batch, and the game's number in it.
    /// `k` is below `games`; the first file starts at 0, and a file whose
    /// games end before `k` cannot be the last one to start at or before it.
    fn locate(&self, k: usize) -> (usize, usize) {
        let f = self.first_game.partition_point(|&s| s <= k) - 1;
        (f, k - self.first_game[f])
    }
}

/// A round audited: the reports of games `range` of `batch`.
struct Round {
    batch: Arc<ReadBatch>,
    range: Range<usize>,
    reports: Vec<GameReport>,
}

impl Round {
    /// The size of the next rounds, from this one's reports: about
    /// [`ROUND_BYTES_PER_THREAD`] per thread, between one and
    /// [`GAMES_PER_THREAD`] games per thread.
    fn next_size(&self, threads: usize) -> usize {
        let bytes: usize = self.reports.iter().map(GameReport::approx_bytes).sum();
        let per_game = (bytes / self.reports.len().max(1)).max(1);
        (ROUND_BYTES_PER_THREAD * threads / per_game).clamp(threads, GAMES_PER_THREAD * threads)
    }

    /// Audits games `range` of `batch` (in parallel when called on the pool).
    fn audit(batch: Arc<ReadBatch>, range: Range<usize>, opts: &AuditOptions) -> Round {
        let reports = range
            .clone()
            .into_par_iter()
            .map(|k| {
                let (f, g) = batch.locate(k);
                batch.files[f].audit(g, opts)
            })
            .collect();
        Round {
            batch,
            range,
            reports,
        }
    }
}

/// Work handed back by the pool, numbered in input order.
enum Done {
    /// The batch asked for (one at a time, so they come in order).
    Read(Arc<ReadBatch>),
    Round(u64, Round),
    /// A job panicked (a bug, not an input: a game's own panic is caught in
    /// `audit`): raised again on the main thread, as a step waited on would.
    Panicked(Box<dyn std::any::Any + Send>),
}

/// Runs `job` on the pool and sends what it makes, or its panic, to `tx`: a
/// job that dies without a word would leave the main thread waiting.
fn spawn_job<'s>(
    scope: &rayon::Scope<'s>,
    tx: &std::sync::mpsc::Sender<Done>,
    job: impl FnOnce() -> Done + Send + 's,
) {
    let tx = tx.clone();
    scope.spawn(move |_| {
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
            .unwrap_or_else(Done::Panicked);
        let _ = tx.send(done);
    });
}

/// Rounds kept in flight: while one ends on a long game, the next keeps the
/// other threads busy.
const ROUNDS_IN_FLIGHT: usize = 2;

/// Drives the pool without waiting between steps: the next batch is read
/// while this one is audited, the next round is under way while one ends
/// and while the main thread hands the finished one on. Rounds are handed
/// on in input order; at most [`ROUNDS_IN_FLIGHT`] rounds and three batches
/// (one being read) are held, so memory stays bounded.
fn pipelined<'s, E>(
    scope: &rayon::Scope<'s>,
    batches: std::sync::mpsc::Receiver<Vec<Item>>,
    opts: &'s AuditOptions,
    threads: usize,
    hand: &mut dyn FnMut(Round) -> Result<(), E>,
) -> Result<(), E> {
    let (tx, done) = std::sync::mpsc::channel::<Done>();
    // Cut again after each round (the order of the reports does not depend
    // on it, as rounds are numbered and handed on in input order), starting
    // from a game per thread until a round has shown what a report costs.
    let mut round_size = threads;
    let mut batches_over = false;
    let mut reading = false;
    // The batches whose rounds are being cut, in order, with the next task.
    let mut open: VecDeque<(Arc<ReadBatch>, usize)> = VecDeque::new();
    let (mut rounds_asked, mut next_round) = (0u64, 0u64);
    let mut finished: BTreeMap<u64, Round> = BTreeMap::new();
    loop {
        // Read ahead one batch beyond the one being cut into rounds.
        if !batches_over && !reading && open.len() <= 1 {
            match batches.recv() {
                Ok(batch) => {
                    spawn_job(scope, &tx, move || {
                        Done::Read(Arc::new(ReadBatch::read(batch, opts)))
                    });
                    reading = true;
                }
                Err(_) => batches_over = true,
            }
        }
        // Keep rounds in flight.
        while rounds_asked - next_round < ROUNDS_IN_FLIGHT as u64 {
            let Some((batch, at)) = open.front_mut() else {
                break;
            };
            if *at == batch.games {
                open.pop_front();
                continue;
            }
            let range = *at..(*at + round_size).min(batch.games);
            *at = range.end;
            let (batch, n) = (Arc::clone(batch), rounds_asked);
            spawn_job(scope, &tx, move || {
                Done::Round(n, Round::audit(batch, range, opts))
            });
            rounds_asked += 1;
        }
        if rounds_asked == next_round && !reading && open.is_empty() {
            if batches_over {
                return Ok(());
            }
            continue;
        }
        match done.recv() {
            Ok(Done::Read(batch)) => {
                reading = false;
                open.push_back((batch, 0));
            }
            Ok(Done::Round(n, round)) => {
                round_size = round.next_size(threads);
                finished.insert(n, round);
            }
            Ok(Done::Panicked(panic)) => std::panic::resume_unwind(panic),
            Err(_) => unreachable!("the sender lives in this function"),
        }
        // Hand on, in order, every round that is complete.
        while let Some(round) = finished.remove(&next_round) {
            next_round += 1;
            hand(round)?;
        }
    }
}

/// Hands the reports of one round to `sink` in input order: numbered within
/// their file, checked for duplicates, each file's end signalled after its
/// last game.
fn hand_on<S, E>(
    mut round: Round,
    (duplicates, cursor): (&mut Duplicates, &mut PartCursor),
    sink: &mut S,
) -> Result<(), E>
where
    S: FnMut(Output<'_>) -> Result<(), E>,
{
    let batch = Arc::clone(&round.batch);
    let reports = std::mem::take(&mut round.reports);
    for (k, mut report) in round.range.clone().zip(reports) {
        let (f, g) = batch.locate(k);
        let p = &batch.files[f];
        let info = p.info();
        // A part of a large file, or the row that ends such a file
        // early (a game tree too long), is numbered within the file.
        let in_parts = cursor.file.as_deref() == Some(info.path.as_str());
        match &p.part {
            Some(part) => place(&mut report, part, if in_parts { cursor.games } else { 0 }),
            None if in_parts => report.index += cursor.games,
            None => {}
        }
        report.check_duplicates(&info.path, duplicates);
        sink(Output::Game(info, report))?;
        if g + 1 == p.reports() {
            match &p.part {
                Some(part) if !part.last => {
                    if !in_parts {
                        *cursor = PartCursor {
                            file: Some(info.path.clone()),
                            ..PartCursor::default()
                        };
                    }
                    cursor.games += p.reports();
                    cursor.encoding = cursor.encoding.or(info.encoding);
                }
                // A file read in parts was read if any part was, even when
                // its last is a row that ends it early (a game tree too long,
                // a compressed stream refused as a bomb).
                _ if in_parts && info.encoding.is_none() && cursor.encoding.is_some() => {
                    let done = FileInfo {
                        path: info.path.clone(),
                        encoding: cursor.encoding,
                    };
                    *cursor = PartCursor::default();
                    sink(Output::FileDone(&done))?;
                }
                _ => {
                    *cursor = PartCursor::default();
                    sink(Output::FileDone(info))?;
                }
            }
        }
    }
    Ok(())
}

/// The inputs cut into batches of at most [`FILES_PER_THREAD`] files and
/// about [`BATCH_BYTES_PER_THREAD`] bytes per thread.
struct Batches<I> {
    inputs: I,
    threads: usize,
}

impl<I> Batches<I> {
    fn new(inputs: I, threads: usize) -> Self {
        Batches { inputs, threads }
    }
}

impl<I: Iterator<Item = Item>> Iterator for Batches<I> {
    type Item = Vec<Item>;

    fn next(&mut self) -> Option<Vec<Item>> {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while batch.len() < FILES_PER_THREAD * self.threads
            && bytes < BATCH_BYTES_PER_THREAD * self.threads as u64
        {
            let Some(item) = self.inputs.next() else {
                break;
            };
            bytes += item.size_hint();
            batch.push(item);
        }
        (!batch.is_empty()).then_some(batch)
    }
}

/// [`run`], with each file's reports gathered into a [`audit::FileReport`]
/// before `sink` sees them: simpler for callers, at the cost of holding one
/// file's reports at a time.
pub fn run_files<I, S, E>(inputs: I, opts: &AuditOptions, jobs: usize, mut sink: S) -> Result<(), E>
where
    I: Iterator<Item = Item> + Send,
    S: FnMut(audit::FileReport) -> Result<(), E>,
{
    let mut games = Vec::new();
    run(inputs, opts, jobs, |out| match out {
        Output::Game(_, game) => {
            games.push(game);
            Ok(())
        }
        Output::FileDone(file) => sink(audit::FileReport {
            file: file.clone(),
            games: std::mem::take(&mut games),
        }),
    })
}

/// Audits one input on this thread: every game of it, as a
/// [`audit::FileReport`].
pub fn audit_item(item: &Item, opts: &AuditOptions) -> audit::FileReport {
    let prepared = Prepared::new(item.clone(), opts);
    let games = (0..prepared.reports())
        .map(|g| prepared.audit(g, opts))
        .collect();
    audit::FileReport {
        file: prepared.info().clone(),
        games,
    }
}
