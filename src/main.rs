//! The `sgfaudit` command line: a thin layer over the library.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sgfaudit::audit::AuditOptions;
use sgfaudit::core::findings::{Code, Severity};
use sgfaudit::core::rules::{AgaSuperko, RuleOptions, SameColour, SwedishSuicide};
use sgfaudit::input::{self, Walk};
use sgfaudit::pipeline;
use sgfaudit::report::csv::CsvReporter;
use sgfaudit::report::jsonl::JsonlReporter;
use sgfaudit::report::text::TextReporter;
use sgfaudit::report::{Reporter, Summary};
use sgfaudit::scoring::{DeadStonesMode, KomiMode, ScoreMode, ScoringOptions};

#[derive(Parser)]
#[command(
    name = "sgfaudit",
    version,
    about = "Audit archives of Go game records (SGF)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game under AGA, Japanese 1989 and Swedish rules and report
    /// illegal moves, repetitions and record anomalies.
    Check(CheckArgs),
    /// List every finding code with its severity and meaning.
    Codes,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// A readable summary of the whole run.
    Summary,
    /// One JSON object per game (docs/OUTPUT.md).
    Jsonl,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
enum AgaSuperkoArg {
    Natural,
    Situational,
}

#[derive(Clone, Copy, ValueEnum)]
enum SwedishSuicideArg {
    Allow,
    Forbid,
}

#[derive(Clone, Copy, ValueEnum)]
enum SameColourArg {
    Auto,
    OmittedPass,
    WrongTurn,
}

#[derive(Clone, Copy, ValueEnum)]
enum ScoreArg {
    /// Games that ended by two passes, whose RE is a count, or whose last node
    /// carries TB/TW markup.
    Finished,
    /// Every game: its last position as it stands.
    All,
}

#[derive(Clone, Copy, ValueEnum)]
enum DeadStonesArg {
    /// TB/TW markup when present, else estimated.
    Auto,
    /// Markup only.
    Markup,
    /// Always estimated (markup ignored).
    Estimate,
    None,
}

fn parse_komi(s: &str) -> Result<KomiMode, String> {
    match s {
        "record" => Ok(KomiMode::Record),
        "rules" => Ok(KomiMode::Rules),
        v => v
            .parse::<f64>()
            .ok()
            .filter(|k| k.is_finite())
            .map(KomiMode::Value)
            .ok_or_else(|| format!("`{v}` is not record, rules or a number")),
    }
}

#[derive(clap::Args)]
struct CheckArgs {
    /// SGF files, directories (searched recursively for *.sgf in any letter
    /// case) and archives (.zip, .tar, .tar.gz, .tgz, .tar.bz2: their *.sgf entries,
    /// reported as ARCHIVE!ENTRY); `-` reads one SGF from standard input.
    paths: Vec<String>,
    /// Read more paths from FILE, one per line (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    file_list: Option<String>,
    /// What to print on standard output.
    #[arg(long, value_enum, default_value = "summary")]
    format: Format,
    /// Also write games.csv and findings.csv into DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads (0 = all cores).
    #[arg(short = 'j', long, default_value_t = 0)]
    jobs: usize,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Exit with status 1 when a finding at or above this severity exists.
    #[arg(long, value_enum, default_value = "error")]
    fail_on: FailOn,
    /// AGA repetition rule: the commentary's natural situational superko, or the
    /// plain situational superko other engines use.
    #[arg(long, value_enum, default_value = "natural")]
    aga_superko: AgaSuperkoArg,
    /// Swedish rules do not mention suicide: allow it (literal reading) or forbid it.
    #[arg(long, value_enum, default_value = "allow")]
    swedish_suicide: SwedishSuicideArg,
    /// How to read the same colour moving twice: auto (omitted pass in records
    /// written by software, wrong turn otherwise), always omitted-pass, or always
    /// wrong-turn.
    #[arg(long, value_enum, default_value = "auto")]
    same_colour: SameColourArg,
    /// Dead stones for scoring finished games: TB/TW markup when present, else
    /// estimated, and markup that a sure estimate disputes reported as C606
    /// (auto); markup only; always estimated; or none.
    #[arg(long, value_enum, default_value = "auto")]
    dead_stones: DeadStonesArg,
    /// Which games to score: finished ones, or every game's last position.
    #[arg(long, value_enum, default_value = "finished")]
    score: ScoreArg,
    /// Komi for scoring: `record` (KM, else the ruleset's own), `rules`, or a number.
    #[arg(long, value_parser = parse_komi, default_value = "record")]
    komi: KomiMode,
    /// Test hook: panic inside the audit of files whose path contains TEXT.
    #[arg(long, hide = true, value_name = "TEXT")]
    inject_fault: Option<String>,
}

/// sgf-parse allocates a String per property identifier and value; the system
/// allocator spent about a third of the single-thread profile on those small
/// allocations (perf, real corpus). mimalloc handles them much faster.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("sgfaudit: internal error: {info}");
    }));
    let cli = Cli::parse();
    match cli.command {
        Command::Codes => {
            let mut out = io::stdout().lock();
            for c in Code::ALL {
                if writeln!(
                    out,
                    "{}  {:<22} {:<8} {}",
                    c.id(),
                    c.name(),
                    c.severity().as_str(),
                    c.description()
                )
                .is_err()
                {
                    break;
                }
            }
            ExitCode::SUCCESS
        }
        // Games are isolated one by one (audit.rs); this catches a bug anywhere
        // else, so the process never dies with Rust's panic status 101.
        Command::Check(args) => {
            std::panic::catch_unwind(move || check(args)).unwrap_or_else(|_| {
                eprintln!("sgfaudit: stopped by an internal error (reported above)");
                ExitCode::from(2)
            })
        }
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("sgfaudit: {msg}");
    ExitCode::from(2)
}

fn check(args: CheckArgs) -> ExitCode {
    let mut paths = args.paths.clone();
    if let Some(list) = &args.file_list {
        match input::read_file_list(list) {
            Ok(more) => paths.extend(more),
            Err(e) => return usage_error(&format!("cannot read the file list {list}: {e}")),
        }
    }
    if paths.is_empty() {
        return usage_error("nothing to audit: give files, directories, `-` or --file-list");
    }
    let opts = AuditOptions {
        rules: RuleOptions {
            aga_superko: match args.aga_superko {
                AgaSuperkoArg::Natural => AgaSuperko::Natural,
                AgaSuperkoArg::Situational => AgaSuperko::Situational,
            },
            swedish_suicide: match args.swedish_suicide {
                SwedishSuicideArg::Allow => SwedishSuicide::Allowed,
                SwedishSuicideArg::Forbid => SwedishSuicide::Forbidden,
            },
            same_colour: match args.same_colour {
                SameColourArg::Auto => SameColour::Auto,
                SameColourArg::OmittedPass => SameColour::OmittedPass,
                SameColourArg::WrongTurn => SameColour::WrongTurn,
            },
        },
        scoring: ScoringOptions {
            dead_stones: match args.dead_stones {
                DeadStonesArg::Auto => DeadStonesMode::Auto,
                DeadStonesArg::Markup => DeadStonesMode::Markup,
                DeadStonesArg::Estimate => DeadStonesMode::Estimate,
                DeadStonesArg::None => DeadStonesMode::None,
            },
            komi: args.komi,
            score: match args.score {
                ScoreArg::Finished => ScoreMode::Finished,
                ScoreArg::All => ScoreMode::All,
            },
        },
        inject_fault: args.inject_fault.clone(),
    };

    let stdout = io::stdout();
    let mut reporters: Vec<Box<dyn Reporter>> = Vec::new();
    match args.format {
        Format::Summary => reporters.push(Box::new(TextReporter::new(io::BufWriter::new(
            stdout.lock(),
        )))),
        Format::Jsonl => reporters.push(Box::new(JsonlReporter::new(io::BufWriter::new(
            stdout.lock(),
        )))),
    }
    if let Some(dir) = &args.out {
        match CsvReporter::create(dir) {
            Ok(r) => reporters.push(Box::new(r)),
            Err(e) => {
                return usage_error(&format!("cannot write reports into {}: {e}", dir.display()))
            }
        }
    }

    let progress = if !args.quiet && io::stderr().is_terminal() {
        let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template("{spinner} {pos} files, {msg} [{elapsed}]")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        Some(pb)
    } else {
        None
    };

    let mut summary = Summary::default();
    let mut files_in = 0u64;
    let walk = Walk::new(paths).inspect(|_| files_in += 1);
    let result = pipeline::run(walk, &opts, args.jobs, |report| -> io::Result<()> {
        summary.add(&report);
        for r in reporters.iter_mut() {
            r.file(&report)?;
        }
        if let Some(pb) = &progress {
            pb.inc(1);
            pb.set_message(format!("{} games", summary.games));
        }
        Ok(())
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let finished = result.and_then(|()| {
        for r in reporters.iter_mut() {
            r.finish(&summary)?;
        }
        Ok(())
    });
    if let Err(e) = finished {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS; // the reader went away: not an error
        }
        eprintln!("sgfaudit: cannot write the report: {e}");
        return ExitCode::from(2);
    }
    if files_in != summary.files {
        eprintln!(
            "sgfaudit: internal error: {} inputs but {} reports",
            files_in, summary.files
        );
        return ExitCode::from(2);
    }
    if summary.files == 0 || summary.files_unreadable == summary.files {
        eprintln!("sgfaudit: nothing readable among the inputs");
        return ExitCode::from(2);
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    match threshold {
        Some(s) if summary.at_least(s) > 0 => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}
