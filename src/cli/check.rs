//! `sgfaudit check`: walk the inputs, audit them, write the reports, and say
//! by the exit status whether findings at the chosen severity were found.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sgfaudit::input::{FileList, Walk};
use sgfaudit::pipeline::{self, Output};
use sgfaudit::report::background::Background;
use sgfaudit::report::baseline::Baseline;
use sgfaudit::report::concise::ConciseReporter;
use sgfaudit::report::csv::{CsvGamesReporter, CsvReporter};
use sgfaudit::report::destination::ReportFile;
use sgfaudit::report::github::GithubReporter;
use sgfaudit::report::gitlab::GitlabReporter;
use sgfaudit::report::html::HtmlReporter;
use sgfaudit::report::jsonl::JsonlReporter;
use sgfaudit::report::junit::JunitReporter;
use sgfaudit::report::sarif::SarifReporter;
use sgfaudit::report::text::TextReporter;
use sgfaudit::report::{Labelled, Reporter, RepositoryRoot, Summary};

use super::args::{CheckArgs, Format};
use super::usage_error;

/// Set by Ctrl-C or SIGTERM: no new input is taken, the run ends with what
/// it audited.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The HTML report's name in `--out DIR`.
const OUT_PAGE: &str = "report.html";

/// More worker threads than this many per core only cost memory.
const THREADS_PER_CORE: usize = 4;

pub fn run(args: CheckArgs) -> ExitCode {
    let (paths, list) = match paths(&args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    // Read before anything is written: a baseline that cannot be used stops the run.
    let mut baseline = match args.baseline.as_deref().map(Baseline::read).transpose() {
        Ok(b) => b,
        Err(e) => return usage_error(&e.to_string()),
    };
    let opts = args
        .audit
        .audit_options(args.out.is_some() || args.html.is_some());
    // A run that fails removes the --out directories it made (left empty):
    // DIR and those of its parents that did not exist.
    let made_out_dirs: Vec<PathBuf> = args.out.as_deref().map_or_else(Vec::new, |dir| {
        dir.ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(PathBuf::from)
            .collect()
    });
    let unmake_out_dir = || {
        for dir in &made_out_dirs {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
    };
    // Every reporter runs on a thread of its own, fed in input order.
    let mut reporters = match reporters(&args).map(Background::start) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            unmake_out_dir();
            return usage_error(&format!("cannot start the report writers: {e}"));
        }
        Err(code) => {
            unmake_out_dir();
            return code;
        }
    };
    let progress = progress_bar(args.quiet);
    let jobs = capped_jobs(args.jobs);
    // Without a handler (none could be set), Ctrl-C still stops the process.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));

    let selection = args.audit.selection();
    let mut file_selection: Option<(String, sgfaudit::options::Selection)> = None;
    let mut summary = Summary::default();
    let mut files_in = 0u64;
    let mut walk = match Walk::new(paths)
        .max_file_size(args.audit.max_file_size)
        .decoding_threads(jobs)
        .hidden(args.hidden)
        .ignore_files(!args.no_ignore)
        .globs(&args.globs)
    {
        Ok(w) => w,
        Err(e) => return usage_error(&e),
    };
    if let Some(dir) = &args.out {
        walk = walk.exclude_dir(dir);
    }
    if let Some(list) = list {
        walk = walk.then_list(list);
    }
    let left_out = walk.skipped();
    let walk = walk
        .take_while(|_| !INTERRUPTED.load(Ordering::SeqCst))
        // A large file read in parts is one input: only its last part (or
        // the row that ends it early) counts.
        .inspect(|item| {
            if item.part().is_none_or(|part| part.last) {
                files_in += 1;
            }
        });
    // A closed standard output (`| head`) ends the summary or JSONL there, but
    // the files of --out, --html and --report are still written to the end
    // (`Background`).
    let result = pipeline::run(walk, &opts, jobs, |out| -> io::Result<()> {
        match out {
            Output::Game(file, game) => {
                // --select and --ignore leave findings out of every output and
                // of the exit status, --severity changes their level; the
                // verdicts per ruleset stay complete.
                // The configuration's per-path overrides: one selection per
                // file, worked out at its first game.
                if !args.overrides.is_empty()
                    && file_selection.as_ref().is_none_or(|(p, _)| *p != file.path)
                {
                    let here = args.selection_for(&selection, &file.path);
                    file_selection = Some((file.path.clone(), here));
                }
                let here = match &file_selection {
                    Some((_, s)) => s,
                    None => &selection,
                };
                let mut game = here.apply_to(game);
                if let Some(b) = baseline.as_mut().filter(|_| !game.findings.is_empty()) {
                    let project_name = args.overrides.relative_to_config(&file.path);
                    game = b.apply(&file.path, project_name.as_deref(), game);
                }
                summary.add_game(&game);
                reporters.game(file, game)?;
            }
            Output::FileDone(file) => {
                summary.file_done(file);
                if let Some(pb) = &progress {
                    pb.inc(1);
                    pb.set_message(format!("{} games", summary.games));
                }
            }
        }
        Ok(())
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    summary.interrupted = INTERRUPTED.load(Ordering::SeqCst);
    summary.files_left_out = left_out.load(Ordering::Relaxed);
    summary.baseline = baseline.as_ref().map(Baseline::counts);
    let found = summary.by_severity.values().sum();
    if let Some(why) = baseline.as_ref().and_then(|b| b.none_met(found)) {
        say!("sgfaudit: {why}");
    }
    let finished = match result {
        Ok(()) => reporters.finish(&summary),
        Err(e) => {
            drop(reporters); // their partial files removed
            Err(e)
        }
    };
    if let Err(e) = finished {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS; // the reader went away: not an error
        }
        say!("sgfaudit: cannot write {e}");
        unmake_out_dir();
        return ExitCode::from(2);
    }
    if summary.interrupted {
        say!("sgfaudit: interrupted; the reports hold what was audited");
        return ExitCode::from(130);
    }
    exit_status(&args, &summary, files_in)
}

/// `--jobs`, capped at a few threads per core (a warning says so).
fn capped_jobs(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = THREADS_PER_CORE * cores;
    if jobs > cap {
        say!("sgfaudit: --jobs {jobs} is more than {THREADS_PER_CORE} per core; using {cap}");
        return cap;
    }
    jobs
}

/// The paths to audit: the arguments, then the file list, opened.
fn paths(args: &CheckArgs) -> Result<(Vec<OsString>, Option<FileList>), ExitCode> {
    if args.file_list.as_deref() == Some("-") && args.paths.iter().any(|p| p == "-") {
        return Err(usage_error(
            "`-` and `--file-list -` cannot both read standard input",
        ));
    }
    let list = match &args.file_list {
        Some(list) => match FileList::open(list) {
            Ok(l) => Some(l),
            Err(e) => {
                return Err(usage_error(&format!(
                    "cannot read the file list {list}: {e}"
                )))
            }
        },
        None => None,
    };
    if args.paths.is_empty() && list.is_none() {
        return Err(usage_error(
            "nothing to audit: give files, directories, `-` or --file-list",
        ));
    }
    Ok((args.paths.clone(), list))
}

/// The reporters the options ask for: one on standard output (first, so it
/// finishes before the others: see `Background::finish`), CSV (and Parquet)
/// and HTML into `--out`, HTML to `--html`, and each `--report` into its file.
fn reporters(args: &CheckArgs) -> Result<Vec<Box<dyn Reporter + Send>>, ExitCode> {
    named_once(args)?;
    let stdout = io::BufWriter::new(io::stdout());
    let on_stdout = format_reporter(args.format, stdout, args);
    let mut reporters = Vec::new();
    add(&mut reporters, "standard output".into(), Ok(on_stdout))?;
    if let Some(dir) = &args.out {
        let what = format!("the tables in {}", dir.display());
        add(&mut reporters, what, CsvReporter::create(dir).map(boxed))?;
    }
    if let (Some(dir), true) = (&args.out, args.parquet) {
        let what = format!("the Parquet tables in {}", dir.display());
        add(&mut reporters, what, parquet_reporter(dir))?;
    }
    let html_paths = args
        .out
        .iter()
        .map(|dir| dir.join(OUT_PAGE))
        .chain(args.html.clone());
    for path in html_paths {
        let what = format!("the HTML report {}", path.display());
        add(&mut reporters, what, HtmlReporter::create(&path).map(boxed))?;
    }
    for to in &args.reports {
        let what = format!("the report {}", to.path.display());
        let report = ReportFile::create(&to.path, |file| format_reporter(to.format, file, args));
        add(&mut reporters, what, report.map(boxed))?;
    }
    Ok(reporters)
}

/// `reporter` as the run holds every reporter.
fn boxed<R: Reporter + Send + 'static>(reporter: R) -> Box<dyn Reporter + Send> {
    Box::new(reporter)
}

/// Adds `created`, the reporter of `what` ("the HTML report FILE"), its
/// errors naming it; one that could not be created stops the run, named
/// the same way.
fn add(
    reporters: &mut Vec<Box<dyn Reporter + Send>>,
    what: String,
    created: io::Result<Box<dyn Reporter + Send>>,
) -> Result<(), ExitCode> {
    match created {
        Ok(r) => {
            reporters.push(Box::new(Labelled::new(what, r)));
            Ok(())
        }
        Err(e) => Err(usage_error(&format!("cannot write {what}: {e}"))),
    }
}

/// The reporter of `format`, writing into `out`.
fn format_reporter<W: Write + Send + 'static>(
    format: Format,
    out: W,
    args: &CheckArgs,
) -> Box<dyn Reporter + Send> {
    match format {
        Format::Summary => Box::new(TextReporter::new(out)),
        Format::Concise => Box::new(ConciseReporter::new(out)),
        Format::Jsonl => Box::new(JsonlReporter::new(out)),
        Format::Csv => Box::new(CsvGamesReporter::new(out)),
        Format::Github => Box::new(GithubReporter::new(out, step_summary())),
        Format::Sarif => Box::new(SarifReporter::new(out)),
        Format::Gitlab => Box::new(GitlabReporter::new(out, gitlab_checkout())),
        Format::Junit => Box::new(JunitReporter::new(
            out,
            args.failing_severity(),
            gitlab_checkout(),
        )),
    }
}

/// The checkout of the GitLab job the run is in (`CI_PROJECT_DIR`), below
/// which the GitLab and JUnit reports name files by their path in the
/// repository, the path GitLab links.
fn gitlab_checkout() -> RepositoryRoot {
    RepositoryRoot::new(std::env::var("CI_PROJECT_DIR").ok().as_deref())
}

/// Refuses a run that would write two reports into one file: each would be
/// written beside it and renamed over the other.
fn named_once(args: &CheckArgs) -> Result<(), ExitCode> {
    let mut out_files = sgfaudit::report::csv::FILES.to_vec();
    out_files.push(OUT_PAGE);
    #[cfg(feature = "parquet")]
    if args.parquet {
        out_files.extend(sgfaudit::report::parquet::FILES);
    }
    let named: Vec<PathBuf> = args
        .out
        .iter()
        .flat_map(|dir| out_files.iter().map(|f| dir.join(f)))
        .chain(args.html.clone())
        .chain(args.reports.iter().map(|to| to.path.clone()))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for path in &named {
        let same = std::path::absolute(path).unwrap_or_else(|_| path.clone());
        if !seen.insert(same) {
            let why = format!("{} is named for two reports", path.display());
            return Err(usage_error(&why));
        }
    }
    Ok(())
}

#[cfg(feature = "parquet")]
fn parquet_reporter(dir: &std::path::Path) -> io::Result<Box<dyn Reporter + Send>> {
    sgfaudit::report::parquet::ParquetReporter::create(dir).map(boxed)
}

#[cfg(not(feature = "parquet"))]
fn parquet_reporter(_dir: &std::path::Path) -> io::Result<Box<dyn Reporter + Send>> {
    Err(io::Error::other(
        "--parquet: this sgfaudit was built without the `parquet` feature",
    ))
}

/// GitHub's job summary file (`GITHUB_STEP_SUMMARY`), opened to append.
fn step_summary() -> Option<Box<dyn Write + Send>> {
    let path = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty())?;
    match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    {
        Ok(f) => Some(Box::new(io::BufWriter::new(f))),
        Err(e) => {
            let shown = std::path::Path::new(&path).display().to_string();
            say!("sgfaudit: warning: cannot append the job summary to {shown}: {e}");
            None
        }
    }
}

/// A progress bar on standard error, only when it is a terminal.
fn progress_bar(quiet: bool) -> Option<ProgressBar> {
    if quiet || !io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{spinner} {pos} files, {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    Some(pb)
}

/// 0, or 1 for findings at `--fail-on`, or 2 when nothing could be read.
fn exit_status(args: &CheckArgs, summary: &Summary, files_in: u64) -> ExitCode {
    if files_in != summary.files {
        say!(
            "sgfaudit: internal error: {} inputs but {} reports",
            files_in,
            summary.files
        );
        return ExitCode::from(2);
    }
    if summary.files == 0 || summary.files_unreadable == summary.files {
        say!("sgfaudit: nothing readable among the inputs");
        return ExitCode::from(2);
    }
    match args.failing_severity() {
        Some(s) if summary.at_least(s) > 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}
