//! A run's reporters, each on a thread of its own. The thread that hands
//! games on in input order then only counts them; formatting JSON lines, the
//! tables, the Parquet columns and the HTML diagrams no longer bounds the run
//! on many cores.
//!
//! Every reporter still sees every game in input order, from one sender, so
//! what it writes is the same as on one thread. A game is shared by the
//! reporters (one `Arc`), sent in batches, and the games on their way are
//! held to [`HELD_BYTES`] in all: the sender waits while the reporters are
//! that far behind, so memory does not grow with the run. A reporter that
//! writes only from the summary (the text summary) is not sent the games; one
//! whose reader went away (standard output into `| head`) is left out while
//! the others go on.

use std::io;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};
use crate::budget::Budget;
use crate::faults::panic_message;

/// Bytes of game reports sent to the reporters and not yet written by all,
/// at most (a batch larger than that goes alone).
pub const HELD_BYTES: u64 = 16 << 20;
/// Games sent to the reporters together: one wake-up of their threads for
/// each (a wake-up per game cost more than the writing it moved).
const GAMES_PER_SEND: usize = 64;
/// Sends queued for one reporter, at most.
const QUEUED_SENDS: usize = 64;

/// A game on its way: its bytes are given back when the last reporter has
/// written it.
struct Held {
    game: GameReport,
    bytes: u64,
    budget: Arc<Budget>,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.budget.give_back(self.bytes);
    }
}

/// Games in input order, each with its file.
type Games = Arc<Vec<(Arc<FileInfo>, Held)>>;

enum Message {
    Games(Games),
    Finish(Arc<Summary>),
}

/// One reporter's thread and the queue to it (`None` once it has stopped).
struct Lane {
    queue: Option<SyncSender<Message>>,
    thread: Option<JoinHandle<io::Result<()>>>,
    /// The reporter writes per game ([`Reporter::takes_games`]).
    takes_games: bool,
}

impl Lane {
    /// The reporter's result once its thread has ended.
    fn join(&mut self) -> io::Result<()> {
        self.queue = None;
        match self.thread.take().map(JoinHandle::join) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(panic)) => Err(io::Error::other(format!(
                "a report writer failed: {}",
                panic_message(&panic)
            ))),
        }
    }
}

/// Reporters run on threads of their own, fed in input order.
pub struct Background {
    lanes: Vec<Lane>,
    budget: Arc<Budget>,
    /// The file of the last game, shared by its games.
    file: Option<Arc<FileInfo>>,
    /// Games not sent yet, with their bytes, and those bytes in all: held
    /// to a quarter of [`HELD_BYTES`] (and one game), and counted against
    /// it only once sent, so the sender never waits on games it holds.
    pending: Vec<(Arc<FileInfo>, GameReport, u64)>,
    pending_bytes: u64,
}

impl Background {
    /// Starts a thread for each reporter.
    pub fn start(reporters: Vec<Box<dyn Reporter + Send>>) -> io::Result<Background> {
        let mut lanes = Vec::with_capacity(reporters.len());
        for mut reporter in reporters {
            let takes_games = reporter.takes_games();
            let (queue, messages) = sync_channel::<Message>(QUEUED_SENDS);
            let thread = std::thread::Builder::new()
                .name("sgfaudit-report".into())
                .spawn(move || -> io::Result<()> {
                    for message in messages {
                        match message {
                            Message::Games(games) => {
                                for (file, held) in games.iter() {
                                    reporter.game(file, &held.game)?;
                                }
                            }
                            Message::Finish(summary) => return reporter.finish(&summary),
                        }
                    }
                    Ok(())
                })?;
            lanes.push(Lane {
                queue: Some(queue),
                thread: Some(thread),
                takes_games,
            });
        }
        Ok(Background {
            lanes,
            budget: Arc::new(Budget::new(HELD_BYTES)),
            file: None,
            pending: Vec::with_capacity(GAMES_PER_SEND),
            pending_bytes: 0,
        })
    }

    /// Hands `game` of `file` to every reporter. A reporter that failed
    /// stops the run: its error is returned here. One whose reader went
    /// away (a closed pipe) is left out, and only when every one is left
    /// out is that an error (`BrokenPipe`: nobody reads the run).
    pub fn game(&mut self, file: &FileInfo, game: GameReport) -> io::Result<()> {
        if !self
            .lanes
            .iter()
            .any(|l| l.takes_games && l.queue.is_some())
        {
            return Ok(());
        }
        let file = match &self.file {
            Some(f) if **f == *file => Arc::clone(f),
            _ => {
                let f = Arc::new(file.clone());
                self.file = Some(Arc::clone(&f));
                f
            }
        };
        let bytes = game.approx_bytes() as u64;
        self.pending.push((file, game, bytes));
        self.pending_bytes += bytes;
        if self.pending.len() >= GAMES_PER_SEND || self.pending_bytes >= HELD_BYTES / 4 {
            self.send()?;
        }
        Ok(())
    }

    /// Sends the pending games to every reporter still running.
    fn send(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.budget.take(std::mem::take(&mut self.pending_bytes));
        let games: Games = Arc::new(
            self.pending
                .drain(..)
                .map(|(file, game, bytes)| {
                    let budget = Arc::clone(&self.budget);
                    (
                        file,
                        Held {
                            game,
                            bytes,
                            budget,
                        },
                    )
                })
                .collect(),
        );
        for lane in self.lanes.iter_mut().filter(|l| l.takes_games) {
            let Some(queue) = &lane.queue else { continue };
            if queue.send(Message::Games(Arc::clone(&games))).is_err() {
                // The reporter's thread ended early: only an error ends it.
                match lane.join() {
                    // Its reader went away (`| head`): the others go on.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
                    Ok(()) => return Err(io::Error::other("a report writer stopped")),
                    Err(e) => return Err(e),
                }
            }
        }
        if self.lanes.iter().all(|lane| lane.queue.is_none()) {
            // Nobody reads any more: the run may stop.
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }

    /// Ends the run: every reporter finishes with `summary`, the first one
    /// (the run's report on standard output) alone and before the others,
    /// so that a page sent there too (`--html /dev/stdout`) always follows
    /// the summary; the others, each writing a file of its own, finish
    /// together. The first error, if any (a reader that went away is none).
    pub fn finish(mut self, summary: &Summary) -> io::Result<()> {
        match self.send() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        }
        let summary = Arc::new(summary.clone());
        let mut first = Ok(());
        let split = self.lanes.len().min(1);
        let (alone, together) = self.lanes.split_at_mut(split);
        for lanes in [alone, together] {
            for lane in lanes.iter() {
                if let Some(queue) = &lane.queue {
                    let _ = queue.send(Message::Finish(Arc::clone(&summary)));
                }
            }
            for lane in lanes {
                match lane.join() {
                    Err(e) if first.is_ok() && e.kind() != io::ErrorKind::BrokenPipe => {
                        first = Err(e)
                    }
                    _ => {}
                }
            }
        }
        first
    }
}

impl Drop for Background {
    /// A run that ends without [`Background::finish`] (an error elsewhere)
    /// still lets the threads end.
    fn drop(&mut self) {
        for lane in &mut self.lanes {
            let _ = lane.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::audit::{audit_bytes, AuditOptions};
    use crate::core::replay::Replayer;

    /// Writes down what it is handed; fails at game `fail_at`, if given.
    struct Recording {
        seen: Arc<Mutex<Vec<String>>>,
        fail_at: Option<usize>,
    }

    impl Reporter for Recording {
        fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
            if self.fail_at == Some(game.index) {
                return Err(io::Error::other("no space left"));
            }
            let line = format!("{} {}", file.path, game.index);
            self.seen.lock().unwrap().push(line);
            Ok(())
        }

        fn finish(&mut self, summary: &Summary) -> io::Result<()> {
            let line = format!("finish {}", summary.games);
            self.seen.lock().unwrap().push(line);
            Ok(())
        }
    }

    /// The games of two files, of 300 and 5 games, in input order.
    fn games() -> Vec<(FileInfo, GameReport)> {
        let mut out = Vec::new();
        for (name, n) in [("a.sgf", 300), ("b.sgf", 5)] {
            let text = "(;SZ[9];B[ee];W[cc])".repeat(n);
            let report = audit_bytes(
                name,
                text.as_bytes(),
                &AuditOptions::default(),
                &mut Replayer::new(),
            );
            assert_eq!(report.games.len(), n);
            out.extend(report.games.into_iter().map(|g| (report.file.clone(), g)));
        }
        out
    }

    #[test]
    fn every_reporter_sees_every_game_in_input_order() {
        let logs: Vec<Arc<Mutex<Vec<String>>>> = (0..3).map(|_| Arc::default()).collect();
        let reporters = logs
            .iter()
            .map(|seen| {
                Box::new(Recording {
                    seen: Arc::clone(seen),
                    fail_at: None,
                }) as Box<dyn Reporter + Send>
            })
            .collect();
        let mut background = Background::start(reporters).unwrap();
        let mut summary = Summary::default();
        let mut expected = Vec::new();
        for (file, game) in games() {
            expected.push(format!("{} {}", file.path, game.index));
            summary.add_game(&game);
            background.game(&file, game).unwrap();
        }
        background.finish(&summary).unwrap();
        expected.push("finish 305".to_string());
        for seen in &logs {
            assert_eq!(*seen.lock().unwrap(), expected);
        }
    }

    /// Games of 10,000 findings (about 2.5 MB of report each) among small
    /// ones, to reporters that take their time: the budget makes the sender
    /// wait, and every game gets through (a guard turns a wait that never
    /// ends into a failure).
    #[test]
    fn large_reports_wait_for_room_and_get_through() {
        let large = format!("(;SZ[19];B[aa]{})", ";W[aa];B[aa]".repeat(6_000));
        let text = format!("{large}(;SZ[9];B[ee])").repeat(20);
        let report = audit_bytes(
            "large.sgf",
            text.as_bytes(),
            &AuditOptions::default(),
            &mut Replayer::new(),
        );
        assert!(report.games[0].approx_bytes() as u64 > HELD_BYTES / 8);
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let seen = Arc::new(Mutex::new(Vec::new()));
            struct Slow(Arc<Mutex<Vec<String>>>);
            impl Reporter for Slow {
                fn game(&mut self, _: &FileInfo, game: &GameReport) -> io::Result<()> {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    self.0.lock().unwrap().push(game.index.to_string());
                    Ok(())
                }
                fn finish(&mut self, _: &Summary) -> io::Result<()> {
                    Ok(())
                }
            }
            let reporters: Vec<Box<dyn Reporter + Send>> = vec![
                Box::new(Slow(Arc::clone(&seen))),
                Box::new(Slow(Arc::default())),
            ];
            let mut background = Background::start(reporters).unwrap();
            for game in report.games {
                background.game(&report.file, game).unwrap();
            }
            background.finish(&Summary::default()).unwrap();
            let n = seen.lock().unwrap().len();
            let _ = done.send(n);
        });
        let written = ended.recv_timeout(std::time::Duration::from_secs(120));
        assert_eq!(written, Ok(40), "every game written, in time");
    }

    #[test]
    fn a_reporter_that_fails_stops_the_run_with_its_error() {
        let (good, bad) = (Arc::default(), Arc::default());
        let reporters: Vec<Box<dyn Reporter + Send>> = vec![
            Box::new(Recording {
                seen: Arc::clone(&good),
                fail_at: None,
            }),
            Box::new(Recording {
                seen: Arc::clone(&bad),
                fail_at: Some(100),
            }),
        ];
        let mut background = Background::start(reporters).unwrap();
        let mut failed = None;
        for (file, game) in games() {
            if let Err(e) = background.game(&file, game) {
                failed = Some(e);
                break;
            }
        }
        let error = match failed {
            Some(e) => e,
            None => background.finish(&Summary::default()).unwrap_err(),
        };
        assert_eq!(error.to_string(), "no space left");
        // The failing reporter wrote the games before its failure, no more.
        assert_eq!(bad.lock().unwrap().len(), 100);
    }

    /// Two reporters writing into one place (the summary and `--html
    /// /dev/stdout`): the first reporter finishes before any other does,
    /// even when it is the slower.
    #[test]
    fn the_first_reporter_finishes_before_the_others() {
        struct Finisher {
            name: &'static str,
            log: Arc<Mutex<Vec<&'static str>>>,
            takes: std::time::Duration,
        }
        impl Reporter for Finisher {
            fn game(&mut self, _: &FileInfo, _: &GameReport) -> io::Result<()> {
                Ok(())
            }
            fn finish(&mut self, _: &Summary) -> io::Result<()> {
                std::thread::sleep(self.takes);
                self.log.lock().unwrap().push(self.name);
                Ok(())
            }
        }
        let log = Arc::new(Mutex::new(Vec::new()));
        let reporters = [("summary", 100), ("page", 0), ("tables", 0)]
            .map(|(name, ms)| {
                Box::new(Finisher {
                    name,
                    log: Arc::clone(&log),
                    takes: std::time::Duration::from_millis(ms),
                }) as Box<dyn Reporter + Send>
            })
            .into_iter()
            .collect();
        let background = Background::start(reporters).unwrap();
        background.finish(&Summary::default()).unwrap();
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 3);
        assert_eq!(log[0], "summary", "{log:?}");
    }
}
