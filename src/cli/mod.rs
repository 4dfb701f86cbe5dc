//! The command line: arguments, subcommands, exit statuses. A thin layer over
//! the library; the only code that knows clap, the terminal and `process::exit`.

/// `eprintln!` that never panics. A message is lost when standard error is a
/// closed pipe too (`sgfaudit check ... 2>&1 | head`): the run then ends with
/// its own status instead of aborting while it tells why.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod args;
mod check;
mod config;
mod explain;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use args::{Cli, Command};
use sgfaudit::core::findings::Code;

/// Runs the command line.
pub fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        say!("sgfaudit: internal error: {info}");
    }));
    let cli = match with_config() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match cli.command {
        Command::Codes(args) => codes(args.format == args::ListFormat::Json),
        Command::Explain(args) => explain::run(*args),
        Command::Rules(args) => rules(args.format == args::ListFormat::Json),
        // Games are isolated one by one (audit.rs); this catches a bug anywhere
        // else, so the process never dies with Rust's panic status 101.
        Command::Check(args) => {
            std::panic::catch_unwind(move || check::run(*args)).unwrap_or_else(|_| {
                say!("sgfaudit: stopped by an internal error (reported above)");
                ExitCode::from(2)
            })
        }
    }
}

/// `sgfaudit codes`: every finding code with its default severity and meaning.
fn codes(json: bool) -> ExitCode {
    let mut out = io::stdout().lock();
    let written = if json {
        let codes: Vec<serde_json::Value> = Code::ALL
            .iter()
            .map(|c| {
                serde_json::json!({
                    "code": c.id(), "name": c.name(),
                    "severity": c.severity().as_str(), "description": c.description(),
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::Value::Array(codes))
    } else {
        Code::ALL.iter().try_for_each(|c| {
            writeln!(
                out,
                "{}  {:<22} {:<8} {}",
                c.id(),
                c.name(),
                c.severity().as_str(),
                c.description()
            )
        })
    };
    let _ = written; // a closed pipe is not an error
    ExitCode::SUCCESS
}

/// `sgfaudit rules`: the three rulesets as implemented, side by side.
fn rules(json: bool) -> ExitCode {
    use sgfaudit::core::rules::RULE_LINES;
    let mut out = io::stdout().lock();
    let written = if json {
        let lines: Vec<serde_json::Value> = RULE_LINES
            .iter()
            .map(|l| {
                serde_json::json!({
                    "topic": l.topic, "aga": l.aga, "japanese": l.japanese,
                    "swedish": l.swedish, "option": l.option,
                })
            })
            .collect();
        writeln!(out, "{}", serde_json::Value::Array(lines))
    } else {
        RULE_LINES.iter().try_for_each(|l| {
            writeln!(out, "{}", l.topic)?;
            writeln!(out, "  AGA 1991/2004:  {}", l.aga)?;
            writeln!(out, "  Japanese 1989:  {}", l.japanese)?;
            writeln!(out, "  Swedish:        {}", l.swedish)?;
            if let Some(o) = l.option {
                writeln!(out, "  option:         {o}")?;
            }
            writeln!(out)
        })
    };
    let _ = written; // a closed pipe is not an error
    ExitCode::SUCCESS
}

fn usage_error(msg: &str) -> ExitCode {
    say!("sgfaudit: {}", sgfaudit::report::printable(msg));
    ExitCode::from(2)
}

/// The command line, with the configuration file's settings for the flags
/// it does not give itself: all of them for `check`, those that decide what
/// an audit finds for `explain` (so it shows a game as `check` judged it);
/// `check --show-config` prints them.
fn with_config() -> Result<Cli, ExitCode> {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parse = |args: &[std::ffi::OsString]| {
        Cli::command()
            .try_get_matches_from(args)
            .and_then(|m| Cli::from_arg_matches(&m).map(|c| (c, m)))
            .unwrap_or_else(|e| e.exit())
    };
    let (cli, matches) = parse(&argv);
    let (name, flag, no_config) = match &cli.command {
        Command::Check(a) => ("check", &a.config.config, a.config.no_config),
        Command::Explain(a) => ("explain", &a.config.config, a.config.no_config),
        Command::Codes(_) | Command::Rules(_) => return Ok(cli),
    };
    let Some(given) = matches.subcommand_matches(name) else {
        return Ok(cli);
    };
    let path = match (flag, no_config) {
        (_, true) => None,
        (Some(p), _) => Some(p.clone()),
        (None, false) => std::env::current_dir().ok().and_then(|d| config::find(&d)),
    };
    let loaded = match path.as_deref().map(config::load).transpose() {
        Ok(c) => c,
        Err(e) => return Err(usage_error(&format!("bad configuration: {e}"))),
    };
    let (mut cli, all) = match &loaded {
        Some(c) => parse(&config::merged_args(&argv, name, c, given)),
        None => (cli, matches.clone()),
    };
    let overrides = loaded
        .as_ref()
        .map(|c| args::PathOverrides::new(c.overrides.clone(), &c.file))
        .unwrap_or_default();
    match &mut cli.command {
        Command::Explain(args) => args.overrides = overrides,
        Command::Check(args) => {
            args.overrides = overrides;
            if args.show_config {
                let merged = all.subcommand_matches("check").unwrap_or(given);
                let shown = config::show(loaded.as_ref(), given, merged);
                let _ = io::stdout().write_all(shown.as_bytes()); // a closed pipe is no error
                return Err(ExitCode::SUCCESS);
            }
        }
        Command::Codes(_) | Command::Rules(_) => {}
    }
    Ok(cli)
}
