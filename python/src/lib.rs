//! `sgfaudit._sgfaudit`: the native half of the Python package. It runs the
//! Rust pipeline with the GIL released and hands the games and findings
//! tables back as Arrow IPC streams, which `sgfaudit/__init__.py` opens as
//! `pyarrow.Table`s (no Arrow library is linked twice, and no Arrow version
//! has to match pyarrow's). Options arrive as `(name, text)` pairs and are
//! set by `sgfaudit::options::RunOptions::set`, the CLI's names and messages.

use std::io;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use arrow_ipc::writer::StreamWriter;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use sgfaudit::audit::{FileInfo, GameReport};
use sgfaudit::input::{self, Item, Walk};
use sgfaudit::options::{RunOptions, WalkOptions};
use sgfaudit::pipeline::{self, Output};
use sgfaudit::report::arrow::{divergences_schema, findings_schema, games_schema, Tables};
use sgfaudit::report::background::Background;
use sgfaudit::report::{Reporter, Summary};

/// The module's own allocations (the audit's, not Python's objects) go to
/// mimalloc, as in the CLI: the workers allocate per node and per game.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Rows per record batch of the streams.
const BATCH_ROWS: usize = 8192;

fn run_options(pairs: Vec<(String, String)>) -> PyResult<RunOptions> {
    let mut o = RunOptions::default();
    for (name, value) in pairs {
        o.set(&name, &value).map_err(PyValueError::new_err)?;
    }
    Ok(o)
}

/// The tables of a run as Arrow IPC streams, and its summary.
struct Streams {
    games: Vec<u8>,
    findings: Vec<u8>,
    divergences: Vec<u8>,
    summary: Summary,
}

/// The games, findings and divergences tables as Arrow IPC streams in
/// memory: a reporter, so that they are built on a thread of their own
/// while the pipeline hands games on (`sgfaudit::report::background`);
/// their bytes are left in `done` when the run finishes.
struct TableStreams {
    tables: Tables,
    writers: [StreamWriter<Vec<u8>>; 3],
    done: Arc<Mutex<Option<[Vec<u8>; 3]>>>,
}

impl TableStreams {
    fn new(done: Arc<Mutex<Option<[Vec<u8>; 3]>>>) -> io::Result<TableStreams> {
        let other = io::Error::other;
        Ok(TableStreams {
            tables: Tables::default(),
            writers: [
                StreamWriter::try_new(Vec::new(), &games_schema()).map_err(other)?,
                StreamWriter::try_new(Vec::new(), &findings_schema()).map_err(other)?,
                StreamWriter::try_new(Vec::new(), &divergences_schema()).map_err(other)?,
            ],
            done,
        })
    }

    /// Writes each table's rows as a record batch once it holds `at`.
    fn write(&mut self, at: usize) -> io::Result<()> {
        let t = &mut self.tables;
        let tables = [&mut t.games, &mut t.findings, &mut t.divergences];
        for (rows, writer) in tables.into_iter().zip(&mut self.writers) {
            if rows.rows() >= at.max(1) {
                let batch: RecordBatch = rows.finish().map_err(io::Error::other)?;
                writer.write(&batch).map_err(io::Error::other)?;
            }
        }
        Ok(())
    }
}

impl Reporter for TableStreams {
    fn game(&mut self, file: &FileInfo, game: &GameReport) -> io::Result<()> {
        self.tables.add(file, game);
        self.write(BATCH_ROWS)
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.write(1)?;
        let mut streams: [Vec<u8>; 3] = Default::default();
        for (writer, bytes) in self.writers.iter_mut().zip(&mut streams) {
            writer.finish().map_err(io::Error::other)?;
            *bytes = std::mem::take(writer.get_mut());
        }
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = Some(streams);
        Ok(())
    }
}

/// How often a run asks Python whether Ctrl-C was pressed.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Ctrl-C during a run that holds no GIL: every [`SIGNAL_CHECK`], as games
/// are handed on, the run takes the GIL for a moment and lets Python run its
/// signal handlers, so that a long audit in a notebook or a script stops on
/// KeyboardInterrupt instead of running to its end. (Python checks signals
/// only on its main thread; elsewhere the check finds nothing.)
struct Interrupt {
    last: Instant,
    raised: Option<PyErr>,
}

impl Interrupt {
    fn new() -> Interrupt {
        Interrupt {
            last: Instant::now(),
            raised: None,
        }
    }

    /// An error that stops the run when a signal handler raised.
    fn check(&mut self) -> io::Result<()> {
        if self.last.elapsed() < SIGNAL_CHECK {
            return Ok(());
        }
        self.last = Instant::now();
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.raised = Some(e);
                Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"))
            }
        }
    }

    /// The run's result, or the exception a signal handler raised.
    fn outcome(self, r: io::Result<Streams>) -> Result<io::Result<Streams>, PyErr> {
        match self.raised {
            Some(e) => Err(e),
            None => Ok(r),
        }
    }
}

fn run(
    items: impl Iterator<Item = Item> + Send,
    o: &RunOptions,
    interrupt: &mut Interrupt,
) -> io::Result<Streams> {
    let done = Arc::new(Mutex::new(None));
    let streams = TableStreams::new(Arc::clone(&done))?;
    let mut background = Background::start(vec![Box::new(streams)])?;
    let mut summary = Summary::default();
    pipeline::run(items, &o.audit, o.jobs, |out| -> io::Result<()> {
        interrupt.check()?;
        match out {
            Output::Game(file, game) => {
                let game = o.selection.apply_to(game);
                summary.add_game(&game);
                background.game(file, game)?;
            }
            Output::FileDone(file) => summary.file_done(file),
        }
        Ok(())
    })?;
    background.finish(&summary)?;
    let taken = done.lock().unwrap_or_else(|e| e.into_inner()).take();
    let [games, findings, divergences] =
        taken.ok_or_else(|| io::Error::other("the tables were not finished"))?;
    Ok(Streams {
        games,
        findings,
        divergences,
        summary,
    })
}

/// The summary as JSON text: the counts the CLI's summary prints.
fn summary_json(s: &Summary) -> String {
    let mut by_code = std::collections::BTreeMap::<&str, u64>::new();
    for ((code, _), n) in &s.by_code {
        *by_code.entry(code.id()).or_default() += n;
    }
    // One entry per (code, severity), as the CLI's "findings by code" table:
    // a code's findings and the games it fires in.
    let codes: Vec<serde_json::Value> = s
        .by_code
        .iter()
        .map(|(&(code, severity), &findings)| {
            serde_json::json!({
                "code": code.id(),
                "name": code.name(),
                "severity": severity.as_str(),
                "findings": findings,
                "games": s.games_with(code, severity),
            })
        })
        .collect();
    // The CLI's "recorded result reproduced" lines: per check, the records
    // checked and those whose RE it reproduces.
    let results: Vec<serde_json::Value> = s
        .result_checks
        .iter()
        .map(|(line, &(checked, reproduced))| {
            let (check, dead_stones) = line.key();
            serde_json::json!({
                "check": check,
                "dead_stones": dead_stones,
                "checked": checked,
                "reproduced": reproduced,
            })
        })
        .collect();
    let by_severity: std::collections::BTreeMap<&str, u64> = s
        .by_severity
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    serde_json::json!({
        "files": s.files,
        "files_unreadable": s.files_unreadable,
        "files_left_out": s.files_left_out,
        "games": s.games,
        "games_ok": s.games_ok,
        "games_error": s.games_error,
        "moves": s.moves,
        "komi_scaled": s.komi_scaled,
        "komi_unwritten": s.komi_unwritten,
        "komi_in_stones": s.komi_in_stones,
        "scored": s.scored,
        "findings_by_severity": by_severity,
        "findings_by_code": by_code,
        "codes": codes,
        "results": results,
        "readings": s.readings,
    })
    .to_string()
}

type Tables3<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    String,
);

fn into_python(py: Python<'_>, r: io::Result<Streams>) -> PyResult<Tables3<'_>> {
    let s = r.map_err(|e| PyOSError::new_err(e.to_string()))?;
    Ok((
        PyBytes::new(py, &s.games),
        PyBytes::new(py, &s.findings),
        PyBytes::new(py, &s.divergences),
        summary_json(&s.summary),
    ))
}

/// Audits files, directories and archives, as `sgfaudit check PATHS` does.
/// Returns the games, findings and divergences tables as Arrow IPC streams
/// and the summary as JSON.
#[pyfunction]
fn audit(
    py: Python<'_>,
    paths: Vec<std::path::PathBuf>,
    options: Vec<(String, String)>,
) -> PyResult<Tables3<'_>> {
    let o = options_checked(options, &paths)?;
    let walk = Walk::new(paths)
        .max_file_size(o.audit.max_file_size)
        .decoding_threads(o.jobs)
        .hidden(o.walk.hidden)
        .ignore_files(!o.walk.no_ignore)
        .globs(&o.walk.globs)
        .map_err(PyValueError::new_err)?;
    let left_out = walk.skipped();
    let mut interrupt = Interrupt::new();
    let r = py.detach(|| {
        let mut streams = run(walk, &o, &mut interrupt)?;
        streams.summary.files_left_out = left_out.load(Ordering::Relaxed);
        Ok(streams)
    });
    into_python(py, interrupt.outcome(r)?)
}

/// Audits contents already in memory: `names[i]` names `contents[i]`, an SGF
/// file, a compressed one or an archive (told by the name). Returns what
/// `audit` returns.
#[pyfunction]
fn audit_contents(
    py: Python<'_>,
    names: Vec<String>,
    contents: Vec<Vec<u8>>,
    options: Vec<(String, String)>,
) -> PyResult<Tables3<'_>> {
    if names.len() != contents.len() {
        return Err(PyValueError::new_err(format!(
            "{} names but {} contents",
            names.len(),
            contents.len()
        )));
    }
    let o = run_options(options)?;
    if o.walk != WalkOptions::default() {
        return Err(PyValueError::new_err(
            "hidden, no_ignore and glob choose files in directories: \
             audit() takes them, not contents already read",
        ));
    }
    let max = o.audit.max_file_size;
    let mut interrupt = Interrupt::new();
    let r = py.detach(|| {
        let items = names
            .into_iter()
            .zip(contents)
            .flat_map(move |(n, c)| input::items_of_bytes(&n, c, max));
        run(items, &o, &mut interrupt)
    });
    into_python(py, interrupt.outcome(r)?)
}

fn options_checked<P>(pairs: Vec<(String, String)>, paths: &[P]) -> PyResult<RunOptions> {
    if paths.is_empty() {
        return Err(PyValueError::new_err(
            "nothing to audit: give files, directories or archives",
        ));
    }
    run_options(pairs)
}

/// The option names `audit` and `audit_contents` accept.
#[pyfunction]
fn option_names() -> Vec<&'static str> {
    RunOptions::NAMES.to_vec()
}

#[pymodule]
fn _sgfaudit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_function(wrap_pyfunction!(audit_contents, m)?)?;
    m.add_function(wrap_pyfunction!(option_names, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
