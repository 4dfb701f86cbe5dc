//! The options of a run, by the names the command line gives them, for
//! every front end: the CLI parses its flags with these functions, and the
//! Python package sets options by name ([`RunOptions::set`]) with the same
//! values and the same error messages. Also the selection of findings
//! (`--select`, `--ignore`, `--severity`), applied to each game's report.

use std::borrow::Cow;

use crate::audit::{AuditOptions, GameReport};
use crate::core::findings::{Code, Severity};
use crate::core::rules::{AgaSuperko, SameColour, SwedishSuicide};
use crate::scoring::{DeadStonesMode, KomiMode, ScoreMode};

/// A size in bytes, or with a unit as GNU tools read one (`256M`, `256MiB`,
/// `300MB`, `1 G`): `K`, `M`, `G`, or the same with `iB`, are powers of 1024;
/// `KB`, `MB`, `GB` powers of 1000; `B` or none, bytes. Any letter case.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = (&t[..split], t[split..].trim_start());
    let multiple: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KIB" => 1 << 10,
        "M" | "MIB" => 1 << 20,
        "G" | "GIB" => 1 << 30,
        "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        // `1.5M`, `-1M`, `M`: not a whole number of units.
        _ if digits.is_empty() || !unit.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            return Err(format!(
                "`{s}` is not a size (a whole number, then its unit)"
            ))
        }
        _ => {
            return Err(format!(
                "`{s}`: the unit must be K, M or G (powers of 1024; also KiB, MiB, GiB), \
                 KB, MB or GB (powers of 1000), or B"
            ))
        }
    };
    let n: u64 = digits.parse().map_err(|_| format!("`{s}` is not a size"))?;
    n.checked_mul(multiple)
        .filter(|&v| v > 0)
        .ok_or_else(|| format!("`{s}` is not a usable size"))
}

/// The encoding `--charset` names for records that declare none usable and
/// are not UTF-8; `None`: detected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charset(pub Option<&'static encoding_rs::Encoding>);

/// `detect`, or a `CA` label (with the aliases records use: `latin-1`,
/// `cp936`, `Shift_JIS`, `cp949`, ...) of an encoding that keeps ASCII as it
/// is, as SGF's brackets and property names need.
pub fn parse_charset(s: &str) -> Result<Charset, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("detect") {
        return Ok(Charset(None));
    }
    match crate::sgf::decode::encoding_for_label(t) {
        None => Err(format!(
            "`{s}` names no known encoding (a CA label such as GBK, Big5, Shift_JIS, \
             EUC-KR, windows-1251 or latin-1, or detect)"
        )),
        Some(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => Err(format!(
            "`{s}`: UTF-16 is told by its byte-order mark or its NUL bytes; \
             the charset given must keep ASCII as it is"
        )),
        Some(e) if e == encoding_rs::REPLACEMENT => {
            Err(format!("`{s}` names no encoding a record can be read in"))
        }
        Some(e) => Ok(Charset(Some(e))),
    }
}

/// `record`, `rules` or a number no larger than the largest board's points
/// (a record's KM beyond its own board's is ignored likewise).
pub fn parse_komi(s: &str) -> Result<KomiMode, String> {
    const MOST: f64 = (crate::core::board::MAX_SIZE * crate::core::board::MAX_SIZE) as f64;
    match s {
        "record" => Ok(KomiMode::Record),
        "rules" => Ok(KomiMode::Rules),
        v => match v.parse::<f64>().ok().filter(|k| k.is_finite()) {
            None => Err(format!("`{v}` is not record, rules or a number")),
            Some(k) if k.abs() > MOST => Err(format!(
                "`{v}` is more than the largest board's {MOST} points"
            )),
            Some(k) => Ok(KomiMode::Value(k)),
        },
    }
}

/// One `--severity CODE=LEVEL`: findings whose code starts with `prefix`
/// get `severity`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeverityOverride {
    pub prefix: String,
    pub severity: Severity,
}

/// A finding code or the start of one (`R4`, `c601`), as `--select`,
/// `--ignore` and `--severity` take it: trimmed and upper-cased, and refused
/// unless some finding code starts with it, so that a mistyped code cannot
/// select nothing or leave nothing out without a word.
pub fn parse_code_prefix(s: &str) -> Result<String, String> {
    let given = s.trim();
    let prefix = given.to_ascii_uppercase();
    if prefix.is_empty() {
        return Err("expected a finding code or the start of one, e.g. R4 or C601".into());
    }
    if Code::ALL.iter().any(|c| c.id().starts_with(&prefix)) {
        return Ok(prefix);
    }
    if let Some((id, name)) = Code::RETIRED.iter().find(|(id, _)| id.starts_with(&prefix)) {
        return Err(format!(
            "`{given}`: {id} ({name}) is a retired code, no longer reported \
             (docs/OUTPUT.md, \"Retired codes\")"
        ));
    }
    Err(format!(
        "`{given}`: no finding code starts with it (see `sgfaudit codes`)"
    ))
}

/// A code prefix as `--ignore` takes it: as [`parse_code_prefix`], except
/// that a retired code is accepted. Leaving out a finding that is no longer
/// reported is what was asked, so a configuration written before a code was
/// retired keeps working; selecting one (`--select`, `--severity`) would
/// select nothing, and is refused.
pub fn parse_ignored_code_prefix(s: &str) -> Result<String, String> {
    parse_code_prefix(s).or_else(|why| {
        let prefix = s.trim().to_ascii_uppercase();
        if !prefix.is_empty() && Code::RETIRED.iter().any(|(id, _)| id.starts_with(&prefix)) {
            Ok(prefix)
        } else {
            Err(why)
        }
    })
}

/// A comma-separated list of code prefixes (an empty item refused).
fn code_prefixes(
    value: &str,
    parse: fn(&str) -> Result<String, String>,
) -> Result<Vec<String>, String> {
    list(value).iter().map(|s| parse(s)).collect()
}

/// `CODE=LEVEL`, the code a prefix of some finding code.
pub fn parse_severity_override(s: &str) -> Result<SeverityOverride, String> {
    let (code, level) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected CODE=LEVEL, e.g. R405=warning"))?;
    let prefix = parse_code_prefix(code)?;
    let severity = match level.trim().to_ascii_lowercase().as_str() {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        "info" => Severity::Info,
        other => return Err(format!("`{other}`: the level is error, warning or info")),
    };
    Ok(SeverityOverride { prefix, severity })
}

/// Which findings every output keeps, and at what severity.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Keep only findings whose code starts with one of these (all when empty).
    pub select: Vec<String>,
    /// Leave out findings whose code starts with one of these.
    pub ignore: Vec<String>,
    /// The last override that matches a code gives its severity.
    pub severity: Vec<SeverityOverride>,
}

impl Selection {
    pub fn is_empty(&self) -> bool {
        self.select.is_empty() && self.ignore.is_empty() && self.severity.is_empty()
    }

    /// Whether findings of `code` are kept.
    pub fn keeps(&self, code: &str) -> bool {
        let starts = |list: &[String]| list.iter().any(|p| code.starts_with(p.trim()));
        (self.select.is_empty() || starts(&self.select)) && !starts(&self.ignore)
    }

    /// The severity findings of `code` are given, if an override names it.
    pub fn severity_of(&self, code: &str) -> Option<Severity> {
        self.severity
            .iter()
            .rev()
            .find(|o| code.starts_with(&o.prefix))
            .map(|o| o.severity)
    }

    /// The game's report with the selection applied to its findings (the
    /// verdicts per ruleset stay complete); borrowed when nothing changes.
    pub fn apply<'a>(&self, game: &'a GameReport) -> Cow<'a, GameReport> {
        if self.is_empty() {
            return Cow::Borrowed(game);
        }
        Cow::Owned(self.apply_to(game.clone()))
    }

    /// [`Selection::apply`] to a report handed over: changed in place.
    pub fn apply_to(&self, mut game: GameReport) -> GameReport {
        if self.is_empty() {
            return game;
        }
        game.findings.retain(|f| self.keeps(f.code.id()));
        for f in &mut game.findings {
            if let Some(s) = self.severity_of(f.code.id()) {
                f.severity = s;
            }
        }
        game
    }
}

/// Everything a run is asked to do, set by option name.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub audit: AuditOptions,
    pub selection: Selection,
    /// Worker threads (0: all cores).
    pub jobs: usize,
    pub walk: WalkOptions,
}

/// What a walk through directories leaves out (`--hidden`, `--no-ignore`,
/// `--glob`): it applies only where directories are walked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WalkOptions {
    pub hidden: bool,
    pub no_ignore: bool,
    /// One glob per item: a glob may hold a comma (`{a,b}`).
    pub globs: Vec<String>,
}

/// `value` as one of `choices` (the option's values as the CLI spells them).
fn choose<T: Copy>(option: &str, value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            format!(
                "invalid value `{value}` for {option}: expected {}",
                names.join(", ")
            )
        })
}

/// A switch's values.
const BOOLEAN: &[(&str, bool)] = &[("true", true), ("false", false)];

/// The items of a comma-separated list, trimmed. An empty item (`R4,`) is
/// kept, for its parser to refuse as the command line does; only a list
/// with nothing in it (`[]` from Python) has no item.
fn list(value: &str) -> Vec<String> {
    if value.trim().is_empty() {
        return Vec::new();
    }
    value.split(',').map(|s| s.trim().to_string()).collect()
}

impl RunOptions {
    /// The option names [`RunOptions::set`] knows: the CLI's flags with `_`
    /// for `-`.
    pub const NAMES: &'static [&'static str] = &[
        "jobs",
        "max_file_size",
        "charset",
        "select",
        "ignore",
        "severity",
        "aga_superko",
        "swedish_suicide",
        "same_colour",
        "dead_stones",
        "check_markup",
        "score",
        "komi",
        "hidden",
        "no_ignore",
        "glob",
    ];

    /// Sets one option from its text, as the CLI reads the flag of the same
    /// name (`dead_stones` is `--dead-stones`); lists are comma-separated,
    /// but `glob`'s items are one a line (a glob may hold a comma).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let a = &mut self.audit;
        match name {
            "jobs" => {
                self.jobs = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("invalid value `{value}` for jobs: not a count"))?
            }
            "max_file_size" => a.max_file_size = parse_size(value)?,
            "charset" => a.charset = parse_charset(value)?.0,
            "select" => self.selection.select = code_prefixes(value, parse_code_prefix)?,
            "ignore" => self.selection.ignore = code_prefixes(value, parse_ignored_code_prefix)?,
            "severity" => {
                self.selection.severity = list(value)
                    .iter()
                    .map(|s| parse_severity_override(s))
                    .collect::<Result<_, _>>()?
            }
            "aga_superko" => {
                a.rules.aga_superko = choose(
                    name,
                    value,
                    &[
                        ("natural", AgaSuperko::Natural),
                        ("situational", AgaSuperko::Situational),
                    ],
                )?
            }
            "swedish_suicide" => {
                a.rules.swedish_suicide = choose(
                    name,
                    value,
                    &[
                        ("allow", SwedishSuicide::Allowed),
                        ("forbid", SwedishSuicide::Forbidden),
                    ],
                )?
            }
            "same_colour" => {
                a.rules.same_colour = choose(
                    name,
                    value,
                    &[
                        ("auto", SameColour::Auto),
                        ("omitted-pass", SameColour::OmittedPass),
                        ("wrong-turn", SameColour::WrongTurn),
                    ],
                )?
            }
            "dead_stones" => {
                a.scoring.dead_stones = choose(
                    name,
                    value,
                    &[
                        ("auto", DeadStonesMode::Auto),
                        ("markup", DeadStonesMode::Markup),
                        ("estimate", DeadStonesMode::Estimate),
                        ("none", DeadStonesMode::None),
                    ],
                )?
            }
            "check_markup" => a.scoring.check_markup = choose(name, value, BOOLEAN)?,
            "score" => {
                a.scoring.score = choose(
                    name,
                    value,
                    &[("finished", ScoreMode::Finished), ("all", ScoreMode::All)],
                )?
            }
            "komi" => a.scoring.komi = parse_komi(value)?,
            "hidden" => self.walk.hidden = choose(name, value, BOOLEAN)?,
            "no_ignore" => self.walk.no_ignore = choose(name, value, BOOLEAN)?,
            "glob" => {
                self.walk.globs = value
                    .lines()
                    .filter(|g| !g.is_empty())
                    .map(String::from)
                    .collect()
            }
            other => {
                return Err(format!(
                    "unknown option `{other}`: the options are {}",
                    Self::NAMES.join(", ")
                ))
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_the_units_gnu_tools_read() {
        // Binary multiples by letter or IEC name, decimal ones by SI name.
        for (text, bytes) in [
            ("4096", 4096),
            ("4096b", 4096),
            ("256M", 256 << 20),
            ("256m", 256 << 20),
            ("256MiB", 256 << 20),
            ("256 MiB", 256 << 20),
            ("256MB", 256_000_000),
            ("20K", 20 << 10),
            ("20kB", 20_000),
            ("1G", 1 << 30),
            ("1GB", 1_000_000_000),
            (" 3K ", 3 << 10),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for text in ["", "M", "MB", "-1M", "1.5M", "256T", "256MBs", "0", "0K"] {
            assert!(parse_size(text).is_err(), "{text}");
        }
        assert_eq!(
            parse_size("1T"),
            Err(
                "`1T`: the unit must be K, M or G (powers of 1024; also KiB, MiB, GiB), \
                 KB, MB or GB (powers of 1000), or B"
                    .to_string()
            )
        );
        assert_eq!(
            parse_size("99999999999G"),
            Err("`99999999999G` is not a usable size".to_string())
        );
    }

    #[test]
    fn options_are_set_by_their_cli_names() {
        let mut o = RunOptions::default();
        o.set("dead_stones", "markup").unwrap();
        o.set("komi", "6.5").unwrap();
        o.set("max_file_size", "1K").unwrap();
        o.set("severity", "R405=warning, A5=info").unwrap();
        assert_eq!(o.audit.scoring.dead_stones, DeadStonesMode::Markup);
        assert_eq!(o.audit.scoring.komi, KomiMode::Value(6.5));
        assert_eq!(o.audit.max_file_size, 1024);
        assert_eq!(o.selection.severity_of("R405"), Some(Severity::Warning));
        assert_eq!(o.selection.severity_of("A503"), Some(Severity::Info));
        let e = o.set("dead_stones", "maybe").unwrap_err();
        assert_eq!(
            e,
            "invalid value `maybe` for dead_stones: expected auto, markup, estimate, none"
        );
        assert!(o
            .set("colour", "x")
            .unwrap_err()
            .starts_with("unknown option"));
        assert!(o.set("severity", "Z9=info").is_err());
        // An empty item is refused, as `--select R4,` is; an empty list is none.
        assert!(o.set("select", "R4,").is_err());
        assert!(o.set("severity", "R4=info,,").is_err());
        o.set("select", "").unwrap();
        assert!(o.selection.select.is_empty());
        o.set("glob", "{a,b}.sgf\n!drafts").unwrap();
        o.set("hidden", "true").unwrap();
        assert_eq!(
            o.walk,
            WalkOptions {
                hidden: true,
                no_ignore: false,
                globs: vec!["{a,b}.sgf".into(), "!drafts".into()],
            }
        );
    }

    /// A charset is a CA label, with the aliases records use, or `detect`;
    /// UTF-16 and labels of no encoding are refused.
    #[test]
    fn a_charset_is_a_label_or_detect() {
        let mut o = RunOptions::default();
        assert_eq!(o.audit.charset, None);
        o.set("charset", "cp936").unwrap();
        assert_eq!(o.audit.charset, Some(encoding_rs::GBK));
        o.set("charset", "MS_KANJI").unwrap();
        assert_eq!(o.audit.charset, Some(encoding_rs::SHIFT_JIS));
        o.set("charset", "latin-1").unwrap();
        assert_eq!(o.audit.charset, Some(encoding_rs::WINDOWS_1252));
        o.set("charset", "Detect").unwrap();
        assert_eq!(o.audit.charset, None);
        for refused in ["utf-16le", "UTF-16", "iso-2022-kr", "klingon", ""] {
            assert!(parse_charset(refused).is_err(), "{refused}");
        }
    }

    /// The largest board, 52x52, has 2,704 points: a komi beyond them could
    /// never be a game's, as a record's KM beyond its board's is ignored.
    #[test]
    fn a_komi_is_a_number_within_the_largest_board() {
        assert_eq!(parse_komi("2704"), Ok(KomiMode::Value(2704.0)));
        assert_eq!(parse_komi("-2704"), Ok(KomiMode::Value(-2704.0)));
        assert_eq!(parse_komi("record"), Ok(KomiMode::Record));
        for refused in ["2704.5", "-3000", "1e308", "inf", "NaN", "6.5 "] {
            assert!(parse_komi(refused).is_err(), "{refused}");
        }
    }

    #[test]
    fn selection_keeps_prefixes() {
        let s = Selection {
            select: vec!["R4".into()],
            ignore: vec!["R405".into()],
            severity: Vec::new(),
        };
        assert!(s.keeps("R404"));
        assert!(!s.keeps("R405"));
        assert!(!s.keeps("A503"));
    }
}
