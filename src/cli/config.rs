//! `sgfaudit.toml` (or `.sgfaudit.toml`, or `[tool.sgfaudit]` in
//! `pyproject.toml`), found in the current directory or the nearest parent
//! that has one. Its keys are `check`'s long flags (`dead-stones = "markup"`,
//! `select = ["R4"]`, `check-markup = true`); a flag given on the command
//! line wins over the file. `explain` takes the settings it shares with
//! `check` (the audit's rules, scoring and selection) from the same file.
//! `[[overrides]]` tables change the selection of findings for the files
//! whose path matches their `paths` globs, as reports name it or relative
//! to the file's directory (`args::PathOverrides`).
//!
//! The file's settings become arguments placed before the command line's,
//! so clap checks every value exactly as it checks a flag; each is first
//! checked alone, so a bad value is reported with its file, line and key.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, CommandFactory};
use globset::{Glob, GlobSet, GlobSetBuilder};

use sgfaudit::options::{parse_code_prefix, parse_ignored_code_prefix, parse_severity_override};

use super::args::{Cli, PathOverride};

/// The file names looked for, in this order, in each directory.
const NAMES: [&str; 3] = ["sgfaudit.toml", ".sgfaudit.toml", "pyproject.toml"];

/// Keys that are not settings of a run.
const NOT_SETTINGS: [&str; 5] = ["paths", "config", "no_config", "show_config", "help"];

/// A configuration that cannot be used: where, and why.
#[derive(Debug)]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(k) = &self.key {
            write!(f, ": {k}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// One setting of the file, as the arguments it stands for.
#[derive(Clone, Debug)]
pub struct Setting {
    /// clap's id of the flag (`dead_stones`).
    pub id: String,
    pub args: Vec<String>,
    pub line: usize,
}

/// A configuration file read and checked.
#[derive(Clone, Debug)]
pub struct Config {
    pub file: PathBuf,
    pub settings: Vec<Setting>,
    pub overrides: Vec<PathOverride>,
}

/// The nearest configuration file from `dir` upwards. A `pyproject.toml`
/// counts only when it has a `[tool.sgfaudit]` table.
pub fn find(dir: &Path) -> Option<PathBuf> {
    for d in dir.ancestors() {
        for name in NAMES {
            let p = d.join(name);
            if !p.is_file() {
                continue;
            }
            if name == "pyproject.toml" {
                let has = std::fs::read_to_string(&p)
                    .is_ok_and(|t| t.lines().any(|l| l.trim() == "[tool.sgfaudit]"));
                if !has {
                    continue;
                }
            }
            return Some(p);
        }
    }
    None
}

/// The 1-based line of `key` (as written) in `text`, searched from the
/// line where its table starts.
fn line_of(text: &str, key: &str, from: usize) -> usize {
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find(|(_, l)| {
            let t = l.trim_start();
            t.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
                || t.strip_prefix(&format!("\"{key}\""))
                    .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map_or(from.max(1), |(i, _)| i + 1)
}

/// The line where a table header starts (`[tool.sgfaudit]`), or 1.
fn table_line(text: &str, header: &str) -> usize {
    text.lines()
        .position(|l| l.trim() == header)
        .map_or(1, |i| i + 1)
}

/// A setting's values: one for a string or a number, one per item for a
/// list of them.
fn value_texts(v: &toml::Value) -> Option<Vec<String>> {
    let scalar = |v: &toml::Value| match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(n) => Some(n.to_string()),
        toml::Value::Float(x) => Some(x.to_string()),
        _ => None,
    };
    match v {
        toml::Value::Array(items) => items.iter().map(scalar).collect(),
        v => scalar(v).map(|t| vec![t]),
    }
}

fn strings(v: &toml::Value) -> Option<Vec<String>> {
    match v {
        toml::Value::String(s) => Some(vec![s.clone()]),
        toml::Value::Array(items) => items.iter().map(|i| i.as_str().map(String::from)).collect(),
        _ => None,
    }
}

/// The settings whose value names a file (for `report`, after `FORMAT=`).
const FILE_SETTINGS: [&str; 5] = ["baseline", "out", "html", "file-list", "report"];

/// A file named by the setting `long` of the configuration at `config`,
/// relative to the configuration's directory as a relative name in it means
/// (as ruff and Cargo read theirs): `baseline = "known.json"` names the file
/// beside the configuration also in a run from a subdirectory. Other values,
/// absolute names and `-` are kept as they are, and so is every name when the
/// configuration lies in the working directory.
fn from_config_dir(config: &Path, long: &str, value: String) -> String {
    if !FILE_SETTINGS.contains(&long) {
        return value;
    }
    let dir = config.parent().unwrap_or(Path::new(""));
    let here = std::env::current_dir().ok();
    if dir.as_os_str().is_empty() || here.as_deref() == Some(dir) {
        return value;
    }
    let (format, file) = match value.split_once('=') {
        Some((format, file)) if long == "report" => (Some(format), file),
        _ => (None, value.as_str()),
    };
    if file == "-" || file.is_empty() || Path::new(file).is_absolute() {
        return value;
    }
    let file = dir.join(file).to_string_lossy().into_owned();
    match format {
        Some(format) => format!("{format}={file}"),
        None => file,
    }
}

/// Reads and checks the configuration at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let err = |line: Option<usize>, key: Option<&str>, message: String| ConfigError {
        file: path.to_path_buf(),
        line,
        key: key.map(String::from),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(None, None, e.to_string()))?;
    let root: toml::Table = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        err(line, None, e.message().to_string())
    })?;
    let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    let (table, start) = if is_pyproject {
        let t = root
            .get("tool")
            .and_then(|t| t.get("sgfaudit"))
            .and_then(toml::Value::as_table)
            .cloned()
            .unwrap_or_default();
        (t, table_line(&text, "[tool.sgfaudit]"))
    } else {
        (root, 1)
    };
    let command = Cli::command();
    let check = command
        .find_subcommand("check")
        .expect("the check subcommand")
        .clone();
    let mut settings = Vec::new();
    let mut overrides = Vec::new();
    for (key, value) in &table {
        let line = line_of(&text, key, start);
        if key == "overrides" {
            overrides =
                load_overrides(&text, value, start).map_err(|(l, m)| err(Some(l), Some(key), m))?;
            continue;
        }
        let id = key.replace('-', "_");
        let arg = check
            .get_arguments()
            .find(|a| a.get_id().as_str() == id || a.get_long() == Some(key.as_str()))
            .filter(|a| !NOT_SETTINGS.contains(&a.get_id().as_str()));
        let Some(arg) = arg else {
            let known: Vec<String> = check
                .get_arguments()
                .filter(|a| !NOT_SETTINGS.contains(&a.get_id().as_str()))
                .filter_map(|a| a.get_long().map(String::from))
                .collect();
            return Err(err(
                Some(line),
                Some(key),
                format!("no such setting; the settings are {}", known.join(", ")),
            ));
        };
        let long = format!("--{}", arg.get_long().unwrap_or(key));
        let args = match (value, arg.get_action().takes_values()) {
            (toml::Value::Boolean(true), false) => vec![long],
            (toml::Value::Boolean(false), false) => Vec::new(),
            (_, false) => {
                return Err(err(Some(line), Some(key), "expects true or false".into()));
            }
            // A list is the flag given once per item, as on the command line
            // (an item may hold a comma: a glob's `{a,b}`, a file's name);
            // `--flag=value`, so a value may begin with a hyphen (`-3.5`).
            (v, true) => match value_texts(v) {
                Some(items) => items
                    .into_iter()
                    .map(|t| {
                        format!(
                            "{long}={}",
                            from_config_dir(path, arg.get_long().unwrap_or_default(), t)
                        )
                    })
                    .collect(),
                None => {
                    return Err(err(
                        Some(line),
                        Some(key),
                        "expects a string, a number or a list of them".into(),
                    ))
                }
            },
        };
        // clap checks the value as it would the flag's.
        let mut probe: Vec<String> = vec!["sgfaudit".into(), "check".into()];
        probe.extend(args.iter().cloned());
        if arg.get_id().as_str() == "parquet" {
            probe.extend(["--out".into(), "x".into()]);
        }
        probe.push("x".into());
        if let Err(e) = Cli::command().try_get_matches_from(&probe) {
            let message = e.to_string();
            let first = message
                .lines()
                .next()
                .unwrap_or("invalid value")
                .trim_start_matches("error: ")
                .to_string();
            return Err(err(Some(line), Some(key), first));
        }
        settings.push(Setting {
            id: arg.get_id().as_str().to_string(),
            args,
            line,
        });
    }
    Ok(Config {
        file: path.to_path_buf(),
        settings,
        overrides,
    })
}

fn load_overrides(
    text: &str,
    value: &toml::Value,
    start: usize,
) -> Result<Vec<PathOverride>, (usize, String)> {
    let tables = value
        .as_array()
        .ok_or((start, "expects [[overrides]] tables".to_string()))?;
    let mut out = Vec::new();
    // Each [[overrides]] header, in order, gives its table's first line.
    let mut headers = text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let before_comment = l.split('#').next().unwrap_or_default();
            before_comment.trim().ends_with("overrides]]")
        })
        .map(|(i, _)| i + 1);
    for t in tables {
        let line = headers.next().unwrap_or(start);
        let t = t
            .as_table()
            .ok_or((line, "expects [[overrides]] tables".to_string()))?;
        let mut o = PathOverride {
            patterns: Vec::new(),
            globs: GlobSet::empty(),
            select: Vec::new(),
            ignore: Vec::new(),
            severity: Vec::new(),
            line,
        };
        for (k, v) in t {
            let kline = line_of(text, k, line);
            let list = strings(v).ok_or((kline, format!("{k}: expects a list of strings")))?;
            match k.as_str() {
                "paths" => o.patterns = list,
                "select" | "ignore" => {
                    let parse = if k == "select" {
                        parse_code_prefix
                    } else {
                        parse_ignored_code_prefix
                    };
                    let codes = list
                        .iter()
                        .map(|s| parse(s))
                        .collect::<Result<_, _>>()
                        .map_err(|m| (kline, format!("{k}: {m}")))?;
                    if k == "select" {
                        o.select = codes;
                    } else {
                        o.ignore = codes;
                    }
                }
                "severity" => {
                    o.severity = list
                        .iter()
                        .map(|s| parse_severity_override(s))
                        .collect::<Result<_, _>>()
                        .map_err(|m| (kline, format!("severity: {m}")))?
                }
                other => {
                    return Err((
                        kline,
                        format!("{other}: an override has paths, select, ignore and severity"),
                    ))
                }
            }
        }
        if o.patterns.is_empty() {
            return Err((line, "an override needs paths".into()));
        }
        let mut b = GlobSetBuilder::new();
        for p in &o.patterns {
            let g = Glob::new(p).map_err(|e| (line, format!("paths: {e}")))?;
            b.add(g);
        }
        o.globs = b.build().map_err(|e| (line, format!("paths: {e}")))?;
        out.push(o);
    }
    Ok(out)
}

/// The command line with the file's settings placed before the command
/// line's own flags, leaving out those the command line gives itself and
/// those `subcommand` does not take (`explain` takes the audit's settings,
/// not `check`'s output and walking flags).
pub fn merged_args(
    argv: &[OsString],
    subcommand: &str,
    config: &Config,
    given: &ArgMatches,
) -> Vec<OsString> {
    let command = Cli::command();
    let takes = |id: &str| {
        command
            .find_subcommand(subcommand)
            .is_some_and(|c| c.get_arguments().any(|a| a.get_id().as_str() == id))
    };
    let at = argv
        .iter()
        .position(|a| a == subcommand)
        .map_or(argv.len(), |i| i + 1);
    let mut out: Vec<OsString> = argv[..at].to_vec();
    for s in &config.settings {
        if takes(&s.id) && given.value_source(&s.id) != Some(ValueSource::CommandLine) {
            out.extend(s.args.iter().map(OsString::from));
        }
    }
    out.extend(argv[at..].iter().cloned());
    out
}

/// `--show-config`: every setting in force and where it comes from, as
/// TOML that `sgfaudit.toml` takes back: a value written as a decimal number
/// is a TOML number, any other a string (a repeatable flag's a list, one
/// item per value), switches are `true` or `false`, and the source is a
/// comment.
pub fn show(config: Option<&Config>, given: &ArgMatches, matches: &ArgMatches) -> String {
    let mut out = String::new();
    match config {
        Some(c) => out.push_str(&format!("# configuration: {}\n", c.file.display())),
        None => out.push_str("# configuration: none found\n"),
    }
    let command = Cli::command();
    let check = command.find_subcommand("check").expect("check").clone();
    for arg in check.get_arguments() {
        let id = arg.get_id().as_str();
        if NOT_SETTINGS.contains(&id) {
            continue;
        }
        let Some(long) = arg.get_long() else { continue };
        let values: Vec<String> = matches
            .get_raw(id)
            .map(|v| v.map(|x| toml_value(&x.to_string_lossy())).collect())
            .unwrap_or_default();
        if arg.get_action().takes_values() && values.is_empty() {
            continue; // not in force (a file's setting a later flag overrode)
        }
        let from_file = config.and_then(|c| c.settings.iter().find(|s| s.id == id));
        let source = match (given.value_source(id), from_file) {
            (Some(ValueSource::CommandLine), _) => "command line".to_string(),
            (_, Some(s)) => format!(
                "{}:{}",
                config.map_or(String::new(), |c| c.file.display().to_string()),
                s.line
            ),
            (Some(ValueSource::DefaultValue), _) => "default".to_string(),
            _ => continue,
        };
        let shown = if !arg.get_action().takes_values() {
            matches
                .get_one::<bool>(id)
                .copied()
                .unwrap_or(false)
                .to_string()
        } else if matches!(arg.get_action(), ArgAction::Append) {
            format!("[{}]", values.join(", "))
        } else {
            values.into_iter().next_back().unwrap_or_default()
        };
        let setting = format!("{long} = {shown}");
        out.push_str(&format!("{setting:<36} # {source}\n"));
    }
    if let Some(c) = config {
        for o in &c.overrides {
            let list = |items: &[String]| {
                let quoted: Vec<String> = items.iter().map(|i| toml_string(i)).collect();
                format!("[{}]", quoted.join(", "))
            };
            out.push_str(&format!(
                "\n[[overrides]]                        # {}:{}\npaths = {}\n",
                c.file.display(),
                o.line,
                list(&o.patterns)
            ));
            if !o.select.is_empty() {
                out.push_str(&format!("select = {}\n", list(&o.select)));
            }
            if !o.ignore.is_empty() {
                out.push_str(&format!("ignore = {}\n", list(&o.ignore)));
            }
            if !o.severity.is_empty() {
                let severity: Vec<String> = o
                    .severity
                    .iter()
                    .map(|s| format!("{}={}", s.prefix, s.severity.as_str()))
                    .collect();
                out.push_str(&format!("severity = {}\n", list(&severity)));
            }
        }
    }
    out
}

/// `text` as a TOML value: a number where it is a decimal integer or
/// float as TOML writes one (`4`, `-0.5`; not `007`, `+1`, `1e3` or `.5`,
/// which TOML reads otherwise or refuses, nor an integer beyond 64 bits),
/// else a string. The file reads either back as the same setting.
fn toml_value(text: &str) -> String {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // TOML refuses a leading zero before the point, not after it.
    let whole = |s: &str| digits(s) && (s == "0" || !s.starts_with('0'));
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let number = match unsigned.split_once('.') {
        Some((integer, fraction)) => {
            whole(integer) && digits(fraction) && text.parse::<f64>().is_ok_and(f64::is_finite)
        }
        None => whole(unsigned) && text.parse::<i64>().is_ok(),
    };
    if number {
        text.to_string()
    } else {
        toml_string(text)
    }
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::{toml_value, value_texts};

    /// Each text shown as a value reads back, through the file's own
    /// reading, as the same setting: the same text, or for a float the same
    /// number; and only decimal numbers are shown unquoted.
    #[test]
    fn a_shown_value_reads_back_as_the_same_setting() {
        let cases = [
            ("0", true),
            ("4", true),
            ("-12", true),
            ("6.5", true),
            ("-0.5", true),
            ("7.0", true),
            ("007", false),
            ("+1", false),
            ("1e3", false),
            (".5", false),
            ("5.", false),
            ("1_000", false),
            ("99999999999999999999", false),
            ("256M", false),
            ("auto", false),
            ("a \"b\"\\c\n", false),
            ("", false),
        ];
        for (text, number) in cases {
            let shown = toml_value(text);
            assert_eq!(!shown.starts_with('"'), number, "{text:?} shown as {shown}");
            let table: toml::Table = toml::from_str(&format!("v = {shown}"))
                .unwrap_or_else(|e| panic!("{text:?} shown as {shown}: {e}"));
            let read = value_texts(&table["v"]).expect("a value");
            match text.parse::<f64>() {
                Ok(x) if number => assert_eq!(read[0].parse::<f64>().ok(), Some(x), "{text:?}"),
                _ => assert_eq!(read, [text], "{text:?}"),
            }
        }
    }
}
