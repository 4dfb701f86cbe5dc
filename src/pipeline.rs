//! The parallel pipeline. Inputs are taken in batches, gathered on a thread of
//! their own while the previous batch is audited; the files of a batch are
//! read, decoded and split into games in parallel, then their games are audited
//! in parallel, a round of games at a time, and handed to the sink in input
//! order. A collection file of many games is thus audited on every thread, and
//! its results leave as they are made: memory holds one batch of files and one
//! round of game reports, never the whole archive or a whole file's reports.
//! Output is byte-identical for any thread count because order comes from the
//! input, not from the threads.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::audit::{self, AuditOptions, FileInfo, GameReport, PreparedFile};
use crate::core::replay::Replayer;
use crate::duplicates::Duplicates;
use crate::input::parts::PartOf;
use crate::input::{Item, Source};

/// Input bytes in flight per thread, with [`FILES_PER_THREAD`] files: bounds
/// the memory of a batch whatever the size of files.
const BATCH_BYTES_PER_THREAD: u64 = 1 << 20;
/// Files per thread in a batch.
const FILES_PER_THREAD: usize = 64;
/// Games per thread audited in one round before their reports are handed on.
const GAMES_PER_THREAD: usize = 64;

/// Each worker's stack: nothing recurses on input-sized structures, so a
/// fixed, modest stack serves every input.
const STACK_BYTES: usize = 4 << 20;

thread_local! {
    static REPLAYER: RefCell<Replayer> = RefCell::new(Replayer::new());
}

/// What the pipeline hands its sink, in input order.
pub enum Output<'a> {
    /// One game of a file (a file that cannot be read yields one failed game).
    Game(&'a FileInfo, &'a GameReport),
    /// The file's last game has been handed on.
    FileDone(&'a FileInfo),
}

/// A file of the batch: ready to audit, or already reported as unreadable.
enum Body {
    File(PreparedFile),
    Unreadable(FileInfo, Box<GameReport>),
}

/// A file (or a part of a large one) of the batch.
struct Prepared {
    body: Body,
    part: Option<PartOf>,
}

impl Prepared {
    fn new(item: Item, limit: u64) -> Prepared {
        let part = match &item.source {
            Source::Part(_, part) => Some(*part),
            _ => None,
        };
        let body = match item.read(limit) {
            Ok(bytes) if part.is_some_and(|p| p.offset > 0) => {
                Body::File(PreparedFile::continuation(item.name, bytes))
            }
            Ok(bytes) => Body::File(PreparedFile::new(item.name, bytes)),
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

/// The large file whose parts are being handed on: its name and the games
/// of its parts so far, by which the next part's games are numbered.
#[derive(Default)]
struct PartCursor {
    file: Option<String>,
    games: usize,
}

/// A part's report placed in its file: the game numbered after the games
/// of the parts before it, its findings' byte offsets, lines and columns
/// counted from the start of the file.
fn place(report: &mut GameReport, part: &PartOf, games_before: usize) {
    report.index += games_before;
    for f in &mut report.findings {
        if let Some(loc) = f.location.as_mut() {
            loc.offset += part.offset;
            if loc.line == 1 {
                loc.column += part.column.saturating_sub(1);
            }
            loc.line += part.line.saturating_sub(1);
        }
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
        for batch in batches {
            let pool = pool.as_ref();
            let state = (&mut duplicates, &mut cursor);
            audit_batch(batch, opts, pool, threads, state, &mut sink)?;
        }
        Ok(())
    })
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

/// Reads and audits one batch on the pool, handing its reports to `sink`
/// in input order.
fn audit_batch<S, E>(
    batch: Vec<Item>,
    opts: &AuditOptions,
    pool: Option<&rayon::ThreadPool>,
    threads: usize,
    (duplicates, cursor): (&mut Duplicates, &mut PartCursor),
    sink: &mut S,
) -> Result<(), E>
where
    S: FnMut(Output<'_>) -> Result<(), E>,
{
    let prepare = move || {
        batch
            .into_par_iter()
            .map(|item| Prepared::new(item, opts.max_file_size))
            .collect::<Vec<_>>()
    };
    let prepared: Vec<Prepared> = match pool {
        Some(p) => p.install(prepare),
        None => prepare(),
    };
    let tasks: Vec<(usize, usize)> = prepared
        .iter()
        .enumerate()
        .flat_map(|(f, p)| (0..p.reports()).map(move |g| (f, g)))
        .collect();
    for round in tasks.chunks(GAMES_PER_THREAD * threads) {
        let audit_round = || {
            round
                .par_iter()
                .map(|&(f, g)| prepared[f].audit(g, opts))
                .collect::<Vec<_>>()
        };
        let mut reports = match pool {
            Some(p) => p.install(audit_round),
            None => audit_round(),
        };
        for (&(f, g), report) in round.iter().zip(&mut reports) {
            let p = &prepared[f];
            let info = p.info();
            // A part of a large file, or the row that ends such a file
            // early (a game tree too long), is numbered within the file.
            let in_parts = cursor.file.as_deref() == Some(info.path.as_str());
            match &p.part {
                Some(part) => place(report, part, if in_parts { cursor.games } else { 0 }),
                None if in_parts => report.index += cursor.games,
                None => {}
            }
            duplicates.check(&info.path, report);
            sink(Output::Game(info, report))?;
            if g + 1 == p.reports() {
                match &p.part {
                    Some(part) if !part.last => {
                        if !in_parts {
                            *cursor = PartCursor {
                                file: Some(info.path.clone()),
                                games: 0,
                            };
                        }
                        cursor.games += p.reports();
                    }
                    _ => {
                        *cursor = PartCursor::default();
                        sink(Output::FileDone(info))?;
                    }
                }
            }
        }
    }
    Ok(())
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
            games.push(game.clone());
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
    let prepared = Prepared::new(item.clone(), opts.max_file_size);
    let games = (0..prepared.reports())
        .map(|g| prepared.audit(g, opts))
        .collect();
    audit::FileReport {
        file: prepared.info().clone(),
        games,
    }
}
