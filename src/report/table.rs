//! The tables every tabular output shares, defined once: `games` (one row
//! per game), `findings` (one row per finding) and `divergences` (one row
//! per scored game and pair of countings whose margins differ). Each column is a
//! name, a type and the function that gives its value; CSV writes the
//! values as text, Parquet and the Python package as typed Arrow columns.
//! docs/OUTPUT.md documents each column.

use crate::audit::{FileInfo, GameReport, Status};
use crate::core::findings::{Finding, Severity};
use crate::core::replay::Illegal;
use crate::core::rules::Ruleset;
use crate::scoring::counting::{Counting, Scores};
use crate::scoring::divergence::Divergence;
use crate::scoring::{ResultCheck, Scored, Scoring};

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Float,
    Bool,
    Text,
}

/// One cell: absent (`Null`) or a value of its column's [`Kind`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
}

impl Value {
    /// The cell as CSV writes it: empty when absent, `true`/`false`,
    /// numbers as Rust prints them (`6.5`, `-3`).
    pub fn to_text(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Int(n) => n.to_string(),
            Value::Float(x) => x.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(s) => s.clone(),
        }
    }
}

/// What a column function may give: a number, a flag, a text, or any of
/// them optional.
pub trait IntoValue {
    fn into_value(self) -> Value;
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn into_value(self) -> Value {
                Value::Int(i64::try_from(self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_value!(u8, u32, u64, usize);

impl IntoValue for f64 {
    fn into_value(self) -> Value {
        Value::Float(self)
    }
}
impl IntoValue for bool {
    fn into_value(self) -> Value {
        Value::Bool(self)
    }
}
impl IntoValue for String {
    fn into_value(self) -> Value {
        Value::Text(self)
    }
}
impl IntoValue for &str {
    fn into_value(self) -> Value {
        Value::Text(self.to_string())
    }
}
impl IntoValue for char {
    fn into_value(self) -> Value {
        Value::Text(self.to_string())
    }
}
impl<T: IntoValue> IntoValue for Option<T> {
    fn into_value(self) -> Value {
        self.map_or(Value::Null, IntoValue::into_value)
    }
}

fn v(x: impl IntoValue) -> Value {
    x.into_value()
}

fn scored(g: &GameReport) -> Option<&Scored> {
    match &g.scoring {
        Scoring::Scored(s) => Some(s),
        Scoring::NotScored(_) => None,
    }
}
fn scores(g: &GameReport) -> Option<&Scores> {
    scored(g).map(|s| &s.scores)
}
fn check(g: &GameReport) -> Option<&ResultCheck> {
    scored(g).and_then(|s| s.result_check.as_ref())
}
fn count(g: &GameReport, s: Severity) -> usize {
    g.findings.iter().filter(|f| f.severity == s).count()
}
fn first_illegal(g: &GameReport, r: Ruleset) -> Option<&Illegal> {
    g.verdicts.get(r).illegal.first()
}
fn illegal(g: &GameReport, r: Ruleset) -> usize {
    g.verdicts.get(r).illegal.len()
}
fn result(g: &GameReport, c: Counting) -> Option<String> {
    scores(g).map(|s| s.get(c).result())
}
fn margin(g: &GameReport, c: Counting) -> Option<f64> {
    scores(g).map(|s| s.get(c).margin)
}

/// A column: its name, its type and the function that gives its value.
pub struct Column<F> {
    pub name: &'static str,
    pub kind: Kind,
    pub value: F,
}

/// The value of a `games` column for one game of a file.
pub type GameValue = fn(&FileInfo, &GameReport) -> Value;
/// The value of a `findings` column for one finding of a game.
pub type FindingValue = fn(&FileInfo, &GameReport, &Finding) -> Value;

/// The columns of the games table, in order.
pub const GAME_COLUMNS: &[Column<GameValue>] = &[
    Column {
        name: "file",
        kind: Kind::Text,
        value: |f, _| v(f.path.clone()),
    },
    Column {
        name: "game",
        kind: Kind::Int,
        value: |_, g| v(g.index),
    },
    Column {
        name: "status",
        kind: Kind::Text,
        value: |_, g| {
            v(match g.status {
                Status::Ok => "ok",
                Status::Error(_) => "error",
            })
        },
    },
    Column {
        name: "error",
        kind: Kind::Text,
        value: |_, g| match &g.status {
            Status::Ok => Value::Null,
            Status::Error(e) => v(e.to_string()),
        },
    },
    Column {
        name: "encoding",
        kind: Kind::Text,
        value: |f, _| v(f.encoding),
    },
    Column {
        name: "board_size",
        kind: Kind::Int,
        value: |_, g| v(g.board_size),
    },
    Column {
        name: "handicap",
        kind: Kind::Int,
        value: |_, g| v(g.handicap),
    },
    Column {
        name: "komi",
        kind: Kind::Float,
        value: |_, g| v(g.komi),
    },
    Column {
        name: "rules",
        kind: Kind::Text,
        value: |_, g| v(g.info.rules.clone()),
    },
    Column {
        name: "result",
        kind: Kind::Text,
        value: |_, g| v(g.info.result.clone()),
    },
    Column {
        name: "moves",
        kind: Kind::Int,
        value: |_, g| v(g.moves),
    },
    Column {
        name: "errors",
        kind: Kind::Int,
        value: |_, g| v(count(g, Severity::Error)),
    },
    Column {
        name: "warnings",
        kind: Kind::Int,
        value: |_, g| v(count(g, Severity::Warning)),
    },
    Column {
        name: "infos",
        kind: Kind::Int,
        value: |_, g| v(count(g, Severity::Info)),
    },
    Column {
        name: "aga_illegal",
        kind: Kind::Int,
        value: |_, g| v(illegal(g, Ruleset::Aga)),
    },
    Column {
        name: "japanese_illegal",
        kind: Kind::Int,
        value: |_, g| v(illegal(g, Ruleset::Japanese)),
    },
    Column {
        name: "swedish_illegal",
        kind: Kind::Int,
        value: |_, g| v(illegal(g, Ruleset::Swedish)),
    },
    Column {
        name: "japanese_no_result_move",
        kind: Kind::Int,
        value: |_, g| v(g.verdicts.japanese.no_result),
    },
    Column {
        name: "not_scored",
        kind: Kind::Text,
        value: |_, g| match &g.scoring {
            Scoring::NotScored(w) => v(w.reason()),
            Scoring::Scored(_) => Value::Null,
        },
    },
    Column {
        name: "dead_stones",
        kind: Kind::Text,
        value: |_, g| v(scored(g).map(|s| s.dead.source.key())),
    },
    Column {
        name: "dead_black",
        kind: Kind::Int,
        value: |_, g| v(scored(g).map(|s| s.dead.black.len())),
    },
    Column {
        name: "dead_white",
        kind: Kind::Int,
        value: |_, g| v(scored(g).map(|s| s.dead.white.len())),
    },
    Column {
        name: "aga_result",
        kind: Kind::Text,
        value: |_, g| v(result(g, Counting::AgaTerritory)),
    },
    Column {
        name: "aga_area_result",
        kind: Kind::Text,
        value: |_, g| v(result(g, Counting::AgaArea)),
    },
    Column {
        name: "japanese_result",
        kind: Kind::Text,
        value: |_, g| v(result(g, Counting::Japanese)),
    },
    Column {
        name: "swedish_result",
        kind: Kind::Text,
        value: |_, g| v(result(g, Counting::Swedish)),
    },
    Column {
        name: "chinese_result",
        kind: Kind::Text,
        value: |_, g| v(result(g, Counting::Chinese)),
    },
    Column {
        name: "aga_margin",
        kind: Kind::Float,
        value: |_, g| v(margin(g, Counting::AgaTerritory)),
    },
    Column {
        name: "aga_area_margin",
        kind: Kind::Float,
        value: |_, g| v(margin(g, Counting::AgaArea)),
    },
    Column {
        name: "japanese_margin",
        kind: Kind::Float,
        value: |_, g| v(margin(g, Counting::Japanese)),
    },
    Column {
        name: "swedish_margin",
        kind: Kind::Float,
        value: |_, g| v(margin(g, Counting::Swedish)),
    },
    Column {
        name: "chinese_margin",
        kind: Kind::Float,
        value: |_, g| v(margin(g, Counting::Chinese)),
    },
    Column {
        name: "check_ruleset",
        kind: Kind::Text,
        value: |_, g| v(check(g).and_then(|c| c.declared.map(Counting::key))),
    },
    Column {
        name: "check_computed",
        kind: Kind::Text,
        value: |_, g| v(check(g).and_then(|c| c.computed.clone())),
    },
    Column {
        name: "check_match",
        kind: Kind::Bool,
        value: |_, g| v(check(g).map(|c| c.matches)),
    },
    Column {
        name: "dead_uncertain",
        kind: Kind::Int,
        value: |_, g| v(scored(g).map(|s| s.dead.uncertain.len())),
    },
    Column {
        name: "dead_added_by_rule7",
        kind: Kind::Int,
        value: |_, g| v(scored(g).map(|s| s.dead.added_by_rule7.len())),
    },
    Column {
        name: "check_markup_computed",
        kind: Kind::Text,
        value: |_, g| v(check(g).and_then(|c| c.markup_computed.clone())),
    },
    Column {
        name: "check_markup_match",
        kind: Kind::Bool,
        value: |_, g| v(check(g).and_then(|c| c.markup_matches)),
    },
    Column {
        name: "check_matching_countings",
        kind: Kind::Text,
        value: |_, g| {
            v(check(g).map(|c| {
                c.matching
                    .iter()
                    .map(|c| c.key())
                    .collect::<Vec<_>>()
                    .join(" ")
            }))
        },
    },
    Column {
        name: "japanese_seki_eyes",
        kind: Kind::Int,
        value: |_, g| v(scored(g).map(|s| s.position.seki_eye_points.len())),
    },
    Column {
        name: "japanese_to_fill",
        kind: Kind::Int,
        value: |_, g| v(scored(g).map(|s| s.position.fill_points.len())),
    },
    Column {
        name: "duplicate_of_file",
        kind: Kind::Text,
        value: |_, g| v(g.duplicate_of.as_ref().map(|d| d.file.clone())),
    },
    Column {
        name: "duplicate_of_game",
        kind: Kind::Int,
        value: |_, g| v(g.duplicate_of.as_ref().map(|d| d.game)),
    },
    Column {
        name: "aga_first_illegal_move",
        kind: Kind::Int,
        value: |_, g| v(first_illegal(g, Ruleset::Aga).map(|i| i.move_number)),
    },
    Column {
        name: "aga_first_illegal_kind",
        kind: Kind::Text,
        value: |_, g| v(first_illegal(g, Ruleset::Aga).map(|i| i.kind.key())),
    },
    Column {
        name: "japanese_first_illegal_move",
        kind: Kind::Int,
        value: |_, g| v(first_illegal(g, Ruleset::Japanese).map(|i| i.move_number)),
    },
    Column {
        name: "japanese_first_illegal_kind",
        kind: Kind::Text,
        value: |_, g| v(first_illegal(g, Ruleset::Japanese).map(|i| i.kind.key())),
    },
    Column {
        name: "swedish_first_illegal_move",
        kind: Kind::Int,
        value: |_, g| v(first_illegal(g, Ruleset::Swedish).map(|i| i.move_number)),
    },
    Column {
        name: "swedish_first_illegal_kind",
        kind: Kind::Text,
        value: |_, g| v(first_illegal(g, Ruleset::Swedish).map(|i| i.kind.key())),
    },
    Column {
        name: "check_reading",
        kind: Kind::Text,
        value: |_, g| v(check(g).and_then(|c| c.reading.map(|r| r.key()))),
    },
    Column {
        name: "start_offset",
        kind: Kind::Int,
        value: |_, g| v(g.start.map(|l| l.offset)),
    },
    Column {
        name: "start_line",
        kind: Kind::Int,
        value: |_, g| v(g.start.map(|l| l.line)),
    },
    Column {
        name: "start_column",
        kind: Kind::Int,
        value: |_, g| v(g.start.map(|l| l.column)),
    },
    Column {
        name: "komi_as_written",
        kind: Kind::Float,
        value: |_, g| v(g.komi_as_written),
    },
];

/// The columns of the findings table, in order.
pub const FINDING_COLUMNS: &[Column<FindingValue>] = &[
    Column {
        name: "file",
        kind: Kind::Text,
        value: |f, _, _| v(f.path.clone()),
    },
    Column {
        name: "game",
        kind: Kind::Int,
        value: |_, g, _| v(g.index),
    },
    Column {
        name: "code",
        kind: Kind::Text,
        value: |_, _, x| v(x.code.id()),
    },
    Column {
        name: "name",
        kind: Kind::Text,
        value: |_, _, x| v(x.code.name()),
    },
    Column {
        name: "severity",
        kind: Kind::Text,
        value: |_, _, x| v(x.severity.as_str()),
    },
    Column {
        name: "move",
        kind: Kind::Int,
        value: |_, _, x| v(x.move_number),
    },
    Column {
        name: "point",
        kind: Kind::Text,
        value: |_, _, x| v(x.point.map(|p| p.sgf())),
    },
    Column {
        name: "human",
        kind: Kind::Text,
        value: |_, g, x| v(x.point.and_then(|p| g.board_size.map(|s| p.human(s)))),
    },
    Column {
        name: "color",
        kind: Kind::Text,
        value: |_, _, x| v(x.color.map(|c| c.letter())),
    },
    Column {
        name: "rulesets",
        kind: Kind::Text,
        value: |_, _, x| {
            v(x.rulesets
                .iter()
                .map(Ruleset::key)
                .collect::<Vec<_>>()
                .join(" "))
        },
    },
    Column {
        name: "offset",
        kind: Kind::Int,
        value: |_, _, x| v(x.location.map(|l| l.offset)),
    },
    Column {
        name: "line",
        kind: Kind::Int,
        value: |_, _, x| v(x.location.map(|l| l.line)),
    },
    Column {
        name: "column",
        kind: Kind::Int,
        value: |_, _, x| v(x.location.map(|l| l.column)),
    },
    Column {
        name: "message",
        kind: Kind::Text,
        value: |_, _, x| v(x.message.clone()),
    },
];

/// The value of a `divergences` column for one pair of countings of a game.
pub type DivergenceValue = fn(&FileInfo, &GameReport, &Divergence) -> Value;

/// A cause's share of a margin difference (0 when it plays no part).
fn cause(d: &Divergence, name: &str) -> f64 {
    d.causes
        .iter()
        .find(|(c, _)| *c == name)
        .map_or(0.0, |(_, x)| *x)
}

/// The columns of the divergences table, in order: one row per scored game
/// and pair of countings whose margins differ, the difference split into
/// its causes (`Components::NAMES`; they add up to `margin_difference`).
pub const DIVERGENCE_COLUMNS: &[Column<DivergenceValue>] = &[
    Column {
        name: "file",
        kind: Kind::Text,
        value: |f, _, _| v(f.path.clone()),
    },
    Column {
        name: "game",
        kind: Kind::Int,
        value: |_, g, _| v(g.index),
    },
    Column {
        name: "first",
        kind: Kind::Text,
        value: |_, _, d| v(d.between[0].key()),
    },
    Column {
        name: "second",
        kind: Kind::Text,
        value: |_, _, d| v(d.between[1].key()),
    },
    Column {
        name: "margin_difference",
        kind: Kind::Float,
        value: |_, _, d| v(d.margin_difference),
    },
    Column {
        name: "winner_changes",
        kind: Kind::Bool,
        value: |_, _, d| v(d.winner_changes),
    },
    Column {
        name: "handicap_stones",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "handicap_stones")),
    },
    Column {
        name: "stones_placed",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "stones_placed")),
    },
    Column {
        name: "pass_stones",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "pass_stones")),
    },
    Column {
        name: "white_last_pass",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "white_last_pass")),
    },
    Column {
        name: "seki_eyes",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "seki_eyes")),
    },
    Column {
        name: "points_to_fill",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "points_to_fill")),
    },
    Column {
        name: "komi",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "komi")),
    },
    Column {
        name: "compensation",
        kind: Kind::Float,
        value: |_, _, d| v(cause(d, "compensation")),
    },
];

/// A game's divergences: empty when it was not scored.
pub fn divergences(g: &GameReport) -> &[Divergence] {
    scored(g).map_or(&[], |s| s.divergence.as_slice())
}

#[cfg(test)]
mod tests {
    use super::DIVERGENCE_COLUMNS;
    use crate::scoring::divergence::Components;

    /// The table ends with one column per cause, the causes the divergence
    /// splits a difference into: a cause added there has its column here.
    #[test]
    fn the_divergence_table_has_a_column_per_cause() {
        let names: Vec<&str> = DIVERGENCE_COLUMNS.iter().map(|c| c.name).collect();
        let tail = &names[names.len() - Components::NAMES.len()..];
        assert_eq!(tail, Components::NAMES);
        assert_eq!(
            names[names.len() - Components::NAMES.len() - 1],
            "winner_changes"
        );
    }
}
