//! The board's symmetries change nothing: a record whose every point is moved
//! by one of the board's symmetries (transposed, turned, mirrored: all seven
//! besides the identity) is the same game. Each ruleset's verdicts and every
//! finding's code and severity must be the same; for a counted game (one with
//! TB/TW markup: a position the players settled and counted) so must every
//! counting's count with the markup's dead stones, both result checks, and the
//! Japanese count's seki eyes and points to fill (mapped by the same
//! symmetry). A count or a fill that depended on the order in which points are
//! visited would differ here. (In a position left with open areas, which side
//! fills which neutral point does depend on that order: docs/RULES.md.) And
//! with Black and White exchanged, a counted game's Japanese count must be the
//! same side for side: no rule in it favours a colour but komi; the exchanged
//! records must also be alike under every symmetry. Over the project's own
//! corpus (the hand-made rule and counting cases and the real games), and over
//! `../shared/corpus/kgs-scored` and `../shared/corpus/real` when present.

mod common;

use std::path::Path;

use common::{root, sgf_files};
use sgfaudit::audit::{audit_bytes, AuditOptions, GameReport};
use sgfaudit::core::board::{Color, Point};
use sgfaudit::core::replay::Replayer;
use sgfaudit::core::rules::Ruleset;
use sgfaudit::scoring::counting::Side;
use sgfaudit::scoring::{DeadSource, DeadStonesMode, Scoring};

/// The properties whose values are points (or `aa:cc` rectangles of points).
const POINT_PROPERTIES: [&str; 7] = ["B", "W", "AB", "AW", "AE", "TB", "TW"];

/// One of the board's seven symmetries besides the identity: the axes
/// exchanged or not, then the columns and the rows mirrored or not (the
/// quarter turns are a transposition and one mirror, the half turn both
/// mirrors).
#[derive(Clone, Copy, Debug)]
struct Symmetry {
    transpose: bool,
    mirror_columns: bool,
    mirror_rows: bool,
}

impl Symmetry {
    fn all() -> impl Iterator<Item = Symmetry> {
        (1..8u8).map(|b| Symmetry {
            transpose: b & 4 != 0,
            mirror_columns: b & 1 != 0,
            mirror_rows: b & 2 != 0,
        })
    }

    fn map(self, x: usize, y: usize, n: usize) -> (usize, usize) {
        let (x, y) = if self.transpose { (y, x) } else { (x, y) };
        let x = if self.mirror_columns { n - 1 - x } else { x };
        let y = if self.mirror_rows { n - 1 - y } else { y };
        (x, y)
    }

    fn point(self, p: Point, n: usize) -> Point {
        let (x, y) = self.map(usize::from(p.x), usize::from(p.y), n);
        Point::new(x as u8, y as u8)
    }
}

/// One SGF point value (`dp`) mapped by `s` on an `n`x`n` board; anything
/// else (a pass, `tt` on 19x19, a point off the board, junk) is left as it is.
fn map_point(v: &str, n: usize, s: Symmetry) -> Option<String> {
    let b = v.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return None;
    }
    let (x, y) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'a'));
    if x >= n || y >= n {
        return None;
    }
    let (x, y) = s.map(x, y, n);
    Some(format!(
        "{}{}",
        (b'a' + x as u8) as char,
        (b'a' + y as u8) as char
    ))
}

/// A rectangle `aa:cc` maps to the rectangle of the mapped corners, written
/// with its smaller corner first, as SGF wants it.
fn map_value(v: &str, n: usize, s: Symmetry) -> String {
    if let Some((a, b)) = v.split_once(':') {
        if let (Some(a), Some(b)) = (map_point(a, n, s), map_point(b, n, s)) {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            let lo = |i: usize| a[i].min(b[i]) as char;
            let hi = |i: usize| a[i].max(b[i]) as char;
            return format!("{}{}:{}{}", lo(0), lo(1), hi(0), hi(1));
        }
        return v.to_string();
    }
    map_point(v, n, s).unwrap_or_else(|| v.to_string())
}

/// The record rewritten property by property: `rename` may give an
/// identifier another name and `value` a value another text. A walk over the
/// text that knows identifiers and bracketed values (with their escapes), so a
/// comment that quotes `B[dd]` is left alone. Old SGF writes identifiers with
/// lowercase letters, which do not count (`AddBlack` is `AB`); such an
/// identifier is renamed by its capitals.
fn rewritten(
    text: &str,
    rename: impl Fn(&str) -> Option<&'static str>,
    value: impl Fn(&str, &str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    // The identifier being read (its capitals), and its text as written.
    let (mut ident, mut written) = (String::new(), String::new());
    // The last thing read was a value: a letter now starts a new identifier.
    let mut after_value = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '[' {
            if !written.is_empty() {
                out.push_str(rename(&ident).unwrap_or(&written));
                written.clear();
            }
            let mut v = String::new();
            let mut closed = false;
            while let Some(d) = chars.next() {
                if d == '\\' {
                    v.push(d);
                    v.extend(chars.next());
                } else if d == ']' {
                    closed = true;
                    break;
                } else {
                    v.push(d);
                }
            }
            out.push('[');
            match value(&ident, &v).filter(|_| closed) {
                Some(w) => out.push_str(&w),
                None => out.push_str(&v),
            }
            if closed {
                out.push(']');
            }
            after_value = true;
            continue;
        }
        if c.is_ascii_alphabetic() {
            if after_value {
                ident.clear();
                after_value = false;
            }
            if c.is_ascii_uppercase() {
                ident.push(c);
            }
            written.push(c);
            continue;
        }
        // Whitespace may stand between an identifier and its value.
        if !c.is_whitespace() {
            ident.clear();
            after_value = false;
        }
        out.push_str(&written);
        written.clear();
        out.push(c);
    }
    out.push_str(&written);
    out
}

/// The record with every point value of [`POINT_PROPERTIES`] mapped by `s`.
fn transformed(text: &str, n: usize, s: Symmetry) -> String {
    rewritten(
        text,
        |_| None,
        |ident, v| {
            POINT_PROPERTIES
                .contains(&ident)
                .then(|| map_value(v, n, s))
        },
    )
}

/// The record with Black and White exchanged: moves, setup, territory
/// markup, players, whose turn it is and RE's winner.
fn colours_exchanged(text: &str) -> String {
    let pairs = [
        ("B", "W"),
        ("AB", "AW"),
        ("TB", "TW"),
        ("PB", "PW"),
        ("BR", "WR"),
    ];
    fn other(c: &str) -> &str {
        match c {
            "B" => "W",
            "W" => "B",
            c => c,
        }
    }
    rewritten(
        text,
        |ident| {
            pairs
                .iter()
                .find_map(|&(b, w)| (ident == b).then_some(w).or((ident == w).then_some(b)))
        },
        |ident, v| match ident {
            "RE" | "PL" => {
                let (winner, rest) = v.split_at(v.chars().next().map_or(0, char::len_utf8));
                Some(format!("{}{rest}", other(winner)))
            }
            _ => None,
        },
    )
}

/// Board size of the first game (SZ, 19 without it).
fn board_size(text: &str) -> usize {
    text.find("SZ[")
        .and_then(|i| {
            let rest = &text[i + 3..];
            rest[..rest.find(']')?].trim().parse().ok()
        })
        .unwrap_or(19)
}

/// What a game's report says, with its points mapped by `s` (or as they are).
#[derive(Debug, PartialEq)]
struct Summary {
    illegal: Vec<Vec<(u32, &'static str)>>,
    /// The codes and severities of the findings (of a game that is not
    /// counted, those of the recorded result's check left out).
    codes: Vec<(&'static str, String)>,
    /// A counted game's count; `None` for the others.
    count: Option<Count>,
}

#[derive(Debug, PartialEq)]
struct Count {
    scores: sgfaudit::scoring::counting::Scores,
    checks: Option<(bool, Option<bool>)>,
    seki_eyes: Vec<Point>,
    to_fill: Vec<Point>,
}

fn summary(g: &GameReport, n: usize, s: Option<Symmetry>) -> Summary {
    let illegal = Ruleset::ALL
        .iter()
        .map(|&rs| {
            g.verdicts
                .get(rs)
                .illegal
                .iter()
                .map(|i| (i.move_number, i.kind.key()))
                .collect()
        })
        .collect();
    let count = match &g.scoring {
        Scoring::Scored(sc) if sc.dead.source == DeadSource::Markup => Some(Count {
            scores: sc.scores,
            checks: sc
                .result_check
                .as_ref()
                .map(|c| (c.matches, c.markup_matches)),
            seki_eyes: sorted_points(&sc.position.seki_eye_points, n, s),
            to_fill: sorted_points(&sc.position.fill_points, n, s),
        }),
        _ => None,
    };
    let mut codes: Vec<(&'static str, String)> = g
        .findings
        .iter()
        .map(|f| (f.code.id(), format!("{:?}", f.severity)))
        .filter(|(code, _)| count.is_some() || !code.starts_with("C6"))
        .collect();
    codes.sort();
    Summary {
        illegal,
        codes,
        count,
    }
}

/// The records under `dir`, each with its name and its text read as Latin-1
/// (byte for byte, whatever its charset), and what audits them with the
/// markup's dead stones.
fn records(dir: &Path) -> (Vec<(String, String)>, AuditOptions, Replayer) {
    let records = sgf_files(dir)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(&f).expect("read test file");
            let text = bytes.iter().map(|&b| char::from(b)).collect();
            (f.to_string_lossy().to_string(), text)
        })
        .collect();
    let mut opts = AuditOptions::default();
    opts.scoring.dead_stones = DeadStonesMode::Markup;
    (records, opts, Replayer::new())
}

/// A Latin-1 text back to its bytes.
fn latin1(text: &str) -> Vec<u8> {
    text.chars().map(|c| c as u32 as u8).collect()
}

/// Points mapped by `s` (or as they are) and sorted.
fn sorted_points(v: &[Point], n: usize, s: Option<Symmetry>) -> Vec<Point> {
    let mut v: Vec<Point> = v.iter().map(|&p| s.map_or(p, |s| s.point(p, n))).collect();
    v.sort_by_key(|p| (p.y, p.x));
    v
}

/// Audits every file under `dir` as it is and under each symmetry; returns
/// how many counted games there were, and the differences found.
fn compare(dir: &Path) -> (usize, Vec<String>) {
    compare_as(dir, false)
}

/// [`compare`] on the records as they are, or with Black and White
/// exchanged.
fn compare_as(dir: &Path, exchanged: bool) -> (usize, Vec<String>) {
    let (mut records, opts, mut rp) = records(dir);
    if exchanged {
        for (_, text) in &mut records {
            *text = colours_exchanged(text);
        }
    }
    let (mut counted, mut differences) = (0, Vec::new());
    for (name, text) in &records {
        let n = board_size(text);
        if !(1..=26).contains(&n) {
            continue; // points beyond `z` are written in capitals: not mapped here
        }
        let original = audit_bytes(name, &latin1(text), &opts, &mut rp);
        for s in Symmetry::all() {
            let moved = latin1(&transformed(text, n, s));
            let other = audit_bytes(name, &moved, &opts, &mut rp);
            assert_eq!(original.games.len(), other.games.len(), "{name} {s:?}");
            for (a, b) in original.games.iter().zip(&other.games) {
                // The size of a collection's other games is the first's here;
                // such games are compared only when it is the same.
                if a.board_size.map(usize::from) != Some(n) {
                    continue;
                }
                let (want, got) = (summary(a, n, Some(s)), summary(b, n, None));
                if want != got {
                    differences.push(format!("{name} {s:?}: {want:?} != {got:?}"));
                }
            }
        }
        counted += original
            .games
            .iter()
            .filter(|g| g.board_size.map(usize::from) == Some(n))
            .filter(|g| summary(g, n, None).count.is_some())
            .count();
    }
    (counted, differences)
}

/// A counted game's Japanese count as (the side of `first`, the other side,
/// seki eyes, points to fill), the points sorted.
fn japanese_count(g: &GameReport, first: Color) -> Option<(Side, Side, Vec<Point>, Vec<Point>)> {
    let Scoring::Scored(sc) = &g.scoring else {
        return None;
    };
    if sc.dead.source != DeadSource::Markup {
        return None;
    }
    let j = sc.scores.japanese;
    let (a, b) = match first {
        Color::Black => (j.black, j.white),
        Color::White => (j.white, j.black),
    };
    Some((
        a,
        b,
        sorted_points(&sc.position.seki_eye_points, 0, None),
        sorted_points(&sc.position.fill_points, 0, None),
    ))
}

/// Audits every file under `dir` as it is and with Black and White
/// exchanged; returns how many counted games there were, and the games whose
/// Japanese count (no rule in it favours a colour but komi, left out here)
/// is not the same with the sides exchanged.
fn compare_colours(dir: &Path) -> (usize, Vec<String>) {
    let (records, opts, mut rp) = records(dir);
    let (mut counted, mut differences) = (0, Vec::new());
    for (name, text) in &records {
        let original = audit_bytes(name, &latin1(text), &opts, &mut rp);
        let other = audit_bytes(name, &latin1(&colours_exchanged(text)), &opts, &mut rp);
        assert_eq!(original.games.len(), other.games.len(), "{name}");
        for (a, b) in original.games.iter().zip(&other.games) {
            let Some(want) = japanese_count(a, Color::Black) else {
                continue;
            };
            counted += 1;
            let got = japanese_count(b, Color::White);
            if got.as_ref() != Some(&want) {
                differences.push(format!("{name}: {want:?} != {got:?}"));
            }
        }
    }
    (counted, differences)
}

#[test]
fn the_bundled_corpus_is_judged_and_counted_alike_under_every_symmetry() {
    let (counted, differences) = compare(&root().join("corpus"));
    assert!(counted >= 100, "only {counted} counted games");
    assert!(differences.is_empty(), "{differences:#?}");
}

#[test]
fn exchanging_the_colours_exchanges_the_japanese_count() {
    let (counted, differences) = compare_colours(&root().join("corpus"));
    assert!(counted >= 100, "only {counted} counted games");
    assert!(differences.is_empty(), "{differences:#?}");
    let Some(dir) = common::kgs_scored() else {
        return;
    };
    let (counted, differences) = compare_colours(&dir);
    assert_eq!(counted, 400);
    assert!(differences.is_empty(), "{differences:#?}");
}

#[test]
fn the_kgs_counts_are_the_same_under_every_symmetry() {
    let Some(dir) = common::kgs_scored() else {
        return;
    };
    let (counted, differences) = compare(&dir);
    assert_eq!(counted, 400);
    assert!(differences.is_empty(), "{differences:#?}");
}

#[test]
fn a_record_with_its_colours_exchanged_is_judged_alike_under_every_symmetry() {
    // Each tie the settlement breaks by a rule (Black fills first where both
    // may; points in board order) is met in every orientation and with either
    // colour as Black: the exchanged records must be judged and counted alike
    // under every symmetry too.
    let (counted, differences) = compare_as(&root().join("corpus"), true);
    assert!(counted >= 100, "only {counted} counted games");
    assert!(differences.is_empty(), "{differences:#?}");
}

#[test]
fn the_kgs_records_with_their_colours_exchanged_are_counted_alike_under_every_symmetry() {
    // All but 2017-01-31-2, a board the players counted with a quarter of it
    // still open (docs/RULES.md): there, which side fills which neutral point
    // of the open area decides a seki eye.
    let Some(dir) = common::kgs_scored() else {
        return;
    };
    let (counted, differences) = compare_as(&dir, true);
    assert_eq!(counted, 400);
    let games: std::collections::BTreeSet<&str> = differences
        .iter()
        .filter_map(|d| d.split(".sgf").next())
        .filter_map(|d| d.rsplit('_').next())
        .collect();
    assert_eq!(games.into_iter().collect::<Vec<_>>(), ["2017-01-31-2"]);
}

#[test]
fn the_development_corpus_is_judged_and_counted_alike_under_every_symmetry() {
    // `../shared/corpus/real` (3,307 records, 149 counted): every symmetry,
    // the colours exchanged, and both.
    let Some(dir) = common::shared_corpus() else {
        return;
    };
    let (counted, differences) = compare(&dir);
    assert!(counted >= 140, "only {counted} counted games");
    assert!(differences.is_empty(), "{differences:#?}");
    let (counted, differences) = compare_colours(&dir);
    assert!(counted >= 140, "only {counted} counted games");
    assert!(differences.is_empty(), "{differences:#?}");
    let (_, differences) = compare_as(&dir, true);
    assert!(differences.is_empty(), "{differences:#?}");
}
