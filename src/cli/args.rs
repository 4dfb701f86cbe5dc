//! The command line's arguments (clap) and what they mean to the library.

use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use globset::GlobSet;

use sgfaudit::audit::AuditOptions;
use sgfaudit::core::findings::Severity;
use sgfaudit::core::rules::{AgaSuperko, RuleOptions, SameColour, SwedishSuicide};
use sgfaudit::options::{self, Selection, SeverityOverride};
use sgfaudit::scoring::{DeadStonesMode, KomiMode, ScoreMode, ScoringOptions};

#[derive(Parser)]
#[command(
    name = "sgfaudit",
    version,
    about = "Audit archives of Go game records (SGF)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Replay every game under AGA, Japanese 1989 and Swedish rules, report
    /// illegal moves, repetitions and record anomalies, and score finished
    /// games and check their recorded results.
    Check(Box<CheckArgs>),
    /// List every finding code with its severity and meaning.
    Codes(ListArgs),
    /// The three rulesets as implemented, side by side, each line with its
    /// source rule and the option that changes it.
    Rules(ListArgs),
    /// One game in the terminal: a move with the position before and after it
    /// and each ruleset's verdict, or the final position with its counts.
    Explain(Box<ExplainArgs>),
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// The SGF file, or an archive entry as check names it (ARCHIVE!ENTRY);
    /// - for standard input, and -- -!ENTRY for an entry of an archive on it.
    pub file: OsString,
    /// The game of a collection, from 0.
    #[arg(long, default_value_t = 0)]
    pub game: usize,
    /// The move to explain (from 1); without it, the end of the game.
    #[arg(long = "move", value_name = "M")]
    pub r#move: Option<u32>,
    /// Also write the diagram (the position after the move, or the final
    /// position with its marks) as SVG to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub audit: AuditArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// The configuration's per-path overrides (set after parsing).
    #[arg(skip)]
    pub overrides: PathOverrides,
}

impl ExplainArgs {
    /// The selection for this game's file: the run's, changed by the
    /// configuration's overrides whose paths match it.
    pub fn selection(&self) -> Selection {
        let file = sgfaudit::input::display_path(std::path::Path::new(&self.file));
        self.overrides.selection_for(self.audit.selection(), &file)
    }
}

/// Findings selection for the files whose path matches (the
/// configuration's `[[overrides]]`).
#[derive(Clone, Debug)]
pub struct PathOverride {
    pub patterns: Vec<String>,
    pub globs: GlobSet,
    /// Replaces the run's `select` when not empty.
    pub select: Vec<String>,
    /// Added to the run's `ignore`.
    pub ignore: Vec<String>,
    /// Added after the run's `severity` (so it wins).
    pub severity: Vec<SeverityOverride>,
    pub line: usize,
}

impl PathOverride {
    /// The run's selection changed by this override.
    pub fn apply(&self, base: &Selection) -> Selection {
        let mut s = base.clone();
        if !self.select.is_empty() {
            s.select = self.select.clone();
        }
        s.ignore.extend(self.ignore.iter().cloned());
        s.severity.extend(self.severity.iter().cloned());
        s
    }
}

/// The configuration's `[[overrides]]`, with the two names a file's path is
/// matched by: as reports name it (`./` left off, as `--baseline` leaves it),
/// and relative to the configuration file's directory, so that a glob written
/// for the project (`games/positions/**`) holds whether the run names
/// `games`, `./games`, the absolute path or `.` from inside `games/`.
#[derive(Clone, Debug, Default)]
pub struct PathOverrides {
    list: Vec<PathOverride>,
    /// The working directory and the configuration file's directory, both
    /// absolute and without `.` or `..` (none when the working directory is
    /// unknown).
    dirs: Option<(PathBuf, PathBuf)>,
}

impl PathOverrides {
    /// The overrides of the configuration file `config`, for a run in the
    /// current directory.
    pub fn new(list: Vec<PathOverride>, config: &Path) -> PathOverrides {
        let dirs = std::env::current_dir().ok().map(|cwd| {
            let config_dir = config.parent().unwrap_or(Path::new(""));
            let config_dir = lexically_normal(&cwd.join(config_dir));
            (lexically_normal(&cwd), config_dir)
        });
        PathOverrides { list, dirs }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `base` changed by the overrides whose paths match `path`, a name as
    /// reports print it (in order).
    pub fn selection_for(&self, base: Selection, path: &str) -> Selection {
        let named = sgfaudit::report::fingerprint::input_name(path);
        let from_config = self.relative_to_config(path);
        self.list
            .iter()
            .filter(|o| {
                o.globs.is_match(named)
                    || from_config.as_deref().is_some_and(|p| o.globs.is_match(p))
            })
            .fold(base, |s, o| o.apply(&s))
    }

    /// `path` relative to the configuration file's directory, with `/`
    /// between its parts; none for standard input (`-`, `-!ENTRY`), for a
    /// path outside that directory and for a run without a configuration.
    /// The overrides' globs and the baseline's names read it.
    pub fn relative_to_config(&self, path: &str) -> Option<String> {
        let (cwd, config_dir) = self.dirs.as_ref()?;
        if path == "-" || path.starts_with("-!") {
            return None;
        }
        let absolute = lexically_normal(&cwd.join(path));
        let relative = absolute.strip_prefix(config_dir).ok()?;
        let parts: Vec<&str> = relative
            .components()
            .map(|c| c.as_os_str().to_str())
            .collect::<Option<_>>()?;
        Some(parts.join("/"))
    }
}

/// `p` with its `.` parts left out and each `..` taking off the part before
/// it, without asking the file system (a link is not followed).
fn lexically_normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The options of the listing commands (`codes`, `rules`).
#[derive(clap::Args)]
pub struct ListArgs {
    /// Text for people, or JSON for tools.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ListFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A readable summary of the whole run.
    Summary,
    /// One line per finding, as compilers print them (PATH:LINE:COLUMN:
    /// SEVERITY CODE NAME: MESSAGE), then the counts.
    Concise,
    /// One JSON object per game (docs/OUTPUT.md).
    Jsonl,
    /// The games table, in the columns of games.csv.
    Csv,
    /// GitHub Actions annotations (and a job summary when GITHUB_STEP_SUMMARY is set).
    Github,
    /// SARIF 2.1.0, one result per finding, for code-scanning dashboards.
    Sarif,
    /// A GitLab Code Quality report, one issue per finding, for merge requests.
    Gitlab,
    /// JUnit XML, one test case per game (failed at --fail-on), for CI test reports.
    Junit,
}

/// `--report FORMAT=FILE`: one more format, written into a file.
#[derive(Clone, Debug)]
pub struct ReportTo {
    pub format: Format,
    pub path: PathBuf,
}

/// Reads `FORMAT=FILE` (FILE as any path, UTF-8 or not). GitHub's
/// annotations are refused: the runner reads them from standard output only.
fn report_to(value: OsString) -> Result<ReportTo, String> {
    let (name, path) =
        split_at_equals(&value).ok_or("expected FORMAT=FILE, as in sarif=sgfaudit.sarif")?;
    if name == "html" {
        return Err("the HTML report has an option of its own: give --html FILE".into());
    }
    let format = Format::from_str(&name, false).map_err(|_| {
        let formats: Vec<String> = Format::value_variants()
            .iter()
            .filter(|f| **f != Format::Github)
            .filter_map(|f| f.to_possible_value().map(|v| v.get_name().to_string()))
            .collect();
        format!("unknown format '{name}' (one of {})", formats.join(", "))
    })?;
    if format == Format::Github {
        return Err(
            "GitHub reads annotations from standard output only: give --format github".into(),
        );
    }
    if path.as_os_str().is_empty() {
        return Err(format!("no FILE after '{name}='"));
    }
    Ok(ReportTo { format, path })
}

/// `value` split at its first `=`: the text before it, the path after it.
#[cfg(unix)]
fn split_at_equals(value: &OsStr) -> Option<(String, PathBuf)> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = value.as_bytes();
    let at = bytes.iter().position(|&b| b == b'=')?;
    let name = String::from_utf8_lossy(&bytes[..at]).into_owned();
    let path = OsStr::from_bytes(&bytes[at + 1..]);
    Some((name, PathBuf::from(path)))
}

/// `value` split at its first `=` (elsewhere than on Unix, UTF-8 only).
#[cfg(not(unix))]
fn split_at_equals(value: &OsStr) -> Option<(String, PathBuf)> {
    let (name, path) = value.to_str()?.split_once('=')?;
    Some((name.to_string(), PathBuf::from(path)))
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum AgaSuperkoArg {
    Natural,
    Situational,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SwedishSuicideArg {
    Allow,
    Forbid,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SameColourArg {
    Auto,
    OmittedPass,
    WrongTurn,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ScoreArg {
    /// Games that ended by two passes, whose RE is a count, or whose last node
    /// carries TB/TW markup.
    Finished,
    /// Every game: its last position as it stands.
    All,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DeadStonesArg {
    /// TB/TW markup when present, else estimated.
    Auto,
    /// Markup only: a game without it is counted with every stone alive.
    Markup,
    /// Always estimated (markup ignored).
    Estimate,
    /// No dead stones: every game counted with every stone alive.
    None,
}

/// Which configuration file to read, if any.
#[derive(clap::Args)]
pub struct ConfigArgs {
    /// Read the settings from FILE instead of the sgfaudit.toml (or
    /// .sgfaudit.toml, or pyproject.toml's [tool.sgfaudit]) found in the
    /// current directory or its parents.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Use no configuration file.
    #[arg(long)]
    pub no_config: bool,
}

/// The settings that decide what an audit finds, how it is reported and how
/// games are scored: `check` and `explain` share them (and the configuration
/// file's values for them), so `explain` shows a game as `check` judged it.
#[derive(clap::Args)]
pub struct AuditArgs {
    /// Report only the findings whose code starts with one of these
    /// (comma-separated: `R4,C601`; any letter case).
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = options::parse_code_prefix)]
    pub select: Vec<String>,
    /// Leave out the findings whose code starts with one of these.
    #[arg(long, value_name = "CODES", value_delimiter = ',', value_parser = options::parse_ignored_code_prefix)]
    pub ignore: Vec<String>,
    /// Give the findings whose code starts with CODE this severity
    /// (comma-separated, repeatable: `R405=warning,A5=info`; the last that
    /// matches wins). Every output and the exit status follow.
    #[arg(long, value_name = "CODE=LEVEL", value_delimiter = ',', value_parser = options::parse_severity_override)]
    pub severity: Vec<SeverityOverride>,
    /// AGA repetition rule: the commentary's natural situational superko, or the
    /// plain situational superko other engines use.
    #[arg(long, value_enum, default_value = "natural")]
    pub aga_superko: AgaSuperkoArg,
    /// Swedish rules do not mention suicide: allow it (literal reading) or forbid it.
    #[arg(long, value_enum, default_value = "allow")]
    pub swedish_suicide: SwedishSuicideArg,
    /// How to read the same colour moving twice: auto (omitted pass in records
    /// written by software, wrong turn otherwise), always omitted-pass, or always
    /// wrong-turn.
    #[arg(long, value_enum, default_value = "auto")]
    pub same_colour: SameColourArg,
    /// Dead stones for scoring finished games: TB/TW markup when present, else
    /// estimated (auto); markup only; always estimated; or none.
    #[arg(long, value_enum, default_value = "auto")]
    pub dead_stones: DeadStonesArg,
    /// Check every TB/TW markup's dead stones against an estimate, and report
    /// the markups it disputes (C606, with the count it would give). Costs an
    /// estimate per marked-up game.
    #[arg(long)]
    pub check_markup: bool,
    /// Which games to score: finished ones, or every game's last position.
    #[arg(long, value_enum, default_value = "finished")]
    pub score: ScoreArg,
    /// Komi for scoring: `record` (KM, else the ruleset's own), `rules`, or a number.
    #[arg(
        long,
        value_parser = options::parse_komi,
        default_value = "record",
        allow_negative_numbers = true
    )]
    pub komi: KomiMode,
    /// Files, standard input and archive entries larger than this are not read
    /// (an error row says so); a UTF-8 collection in a file (compressed or
    /// not) or on standard input larger than this is read in parts under it,
    /// refusing only a game tree that long: bytes, or with a unit (K, M, G
    /// or KiB, MiB, GiB: powers of 1024; KB, MB, GB: powers of 1000).
    #[arg(long, value_name = "SIZE", value_parser = options::parse_size, default_value = "256M")]
    pub max_file_size: u64,
    /// The encoding of records that declare none usable (no CA, an unknown
    /// one, or one their bytes are not valid in) and are not UTF-8, read in
    /// place of a statistical guess, which a few bytes leave unsure: a CA
    /// label (GBK, Big5, Shift_JIS, EUC-KR, windows-1251, latin-1, ...), or
    /// `detect`. A record not valid in it is still detected.
    #[arg(long, value_name = "ENCODING", value_parser = options::parse_charset, default_value = "detect")]
    pub charset: options::Charset,
}

impl AuditArgs {
    /// The audit the options ask for.
    pub fn audit_options(&self, pictures: bool) -> AuditOptions {
        AuditOptions {
            rules: RuleOptions {
                aga_superko: match self.aga_superko {
                    AgaSuperkoArg::Natural => AgaSuperko::Natural,
                    AgaSuperkoArg::Situational => AgaSuperko::Situational,
                },
                swedish_suicide: match self.swedish_suicide {
                    SwedishSuicideArg::Allow => SwedishSuicide::Allowed,
                    SwedishSuicideArg::Forbid => SwedishSuicide::Forbidden,
                },
                same_colour: match self.same_colour {
                    SameColourArg::Auto => SameColour::Auto,
                    SameColourArg::OmittedPass => SameColour::OmittedPass,
                    SameColourArg::WrongTurn => SameColour::WrongTurn,
                },
            },
            scoring: ScoringOptions {
                dead_stones: match self.dead_stones {
                    DeadStonesArg::Auto => DeadStonesMode::Auto,
                    DeadStonesArg::Markup => DeadStonesMode::Markup,
                    DeadStonesArg::Estimate => DeadStonesMode::Estimate,
                    DeadStonesArg::None => DeadStonesMode::None,
                },
                komi: self.komi,
                score: match self.score {
                    ScoreArg::Finished => ScoreMode::Finished,
                    ScoreArg::All => ScoreMode::All,
                },
                check_markup: self.check_markup,
            },
            max_file_size: self.max_file_size,
            pictures,
            charset: self.charset.0,
        }
    }

    /// Which findings every output keeps (`--select`, `--ignore`), and at
    /// what severity (`--severity`).
    pub fn selection(&self) -> Selection {
        Selection {
            select: self.select.clone(),
            ignore: self.ignore.clone(),
            severity: self.severity.clone(),
        }
    }
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// SGF files (.sgf, and KataGo's .sgfs collections), also compressed
    /// alone (.sgf.gz, .sgf.bz2, .sgf.xz, .sgf.zst), directories (searched
    /// recursively for these and for archives, names in any letter case) and
    /// archives (.zip, .tar, .tar.gz, .tgz, .tar.bz2, .tbz2, .tbz, .tar.xz,
    /// .txz, .tar.zst, .tzst, .7z:
    /// their game entries, also compressed alone, reported as ARCHIVE!ENTRY);
    /// `-` reads standard input, told by its first bytes: a game or a
    /// collection, compressed or not, or an archive (entries named -!ENTRY).
    pub paths: Vec<OsString>,
    /// Read more paths from FILE, one per line or each ended by a NUL byte
    /// (find -print0); `-` for standard input.
    #[arg(long, value_name = "FILE")]
    pub file_list: Option<String>,
    /// What to print on standard output.
    #[arg(long, value_enum, default_value = "summary")]
    pub format: Format,
    /// Also write games.csv, findings.csv, divergences.csv and report.html
    /// into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --out, also write games.parquet, findings.parquet and
    /// divergences.parquet (the CSVs' tables, with typed columns).
    #[arg(long, requires = "out")]
    pub parquet: bool,
    /// Also write the HTML report (summary, charts, a board diagram for each
    /// game with a problem) to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write the report of another format into FILE, as --format would
    /// print it (repeatable: sarif=sgfaudit.sarif, junit=junit.xml, ...).
    #[arg(
        long = "report",
        value_name = "FORMAT=FILE",
        value_parser = OsStringValueParser::new().try_map(report_to)
    )]
    pub reports: Vec<ReportTo>,
    /// Only read the files below a directory whose path matches one of these
    /// globs; `!GLOB` leaves paths out (repeatable, as ripgrep's -g).
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// Also read hidden files, directories and archive entries (names beginning
    /// with `.`).
    #[arg(long)]
    pub hidden: bool,
    /// Do not honour .gitignore and .ignore files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Worker threads (0 = all cores).
    #[arg(short = 'j', long, default_value_t = 0)]
    pub jobs: usize,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Exit with status 1 when a finding at or above this severity exists.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Exit with status 0 whatever was found (usage errors still give 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Leave out the findings an earlier run found: FILE is the GitLab Code
    /// Quality report (--format gitlab) of that run.
    #[arg(long, value_name = "FILE", overrides_with = "no_baseline")]
    pub baseline: Option<PathBuf>,
    /// Use no baseline, whatever the configuration says (to write a new one).
    #[arg(long, overrides_with = "baseline")]
    pub no_baseline: bool,
    // What an audit finds and how it scores: shared with `explain`.
    #[command(flatten)]
    pub audit: AuditArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Print the settings in force and where each comes from, then exit.
    #[arg(long)]
    pub show_config: bool,
    /// The configuration's per-path overrides (set after parsing).
    #[arg(skip)]
    pub overrides: PathOverrides,
}

impl CheckArgs {
    /// The selection for one file: the run's, changed by the configuration's
    /// overrides whose paths match it (in order).
    pub fn selection_for(&self, base: &Selection, path: &str) -> Selection {
        self.overrides.selection_for(base.clone(), path)
    }

    /// The severity at which findings make the exit status 1 (`None`: never).
    pub fn failing_severity(&self) -> Option<Severity> {
        if self.exit_zero {
            return None;
        }
        match self.fail_on {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}
