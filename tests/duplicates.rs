//! Duplicate games across a run (A508) and truncated copies (A509), on a set
//! of records built here so that which game repeats which is known by
//! construction.

mod common;

use common::{jsonl, row_ending, scratch};

/// 70 distinct points, Black and White alternating.
fn moves(n: usize) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    let mut i = 0usize;
    while seen.len() < n {
        let (x, y) = ((i * 7) % 19, (i * 11 + i / 19) % 19);
        i += 1;
        if seen.insert((x, y)) {
            let colour = if seen.len() % 2 == 1 { 'B' } else { 'W' };
            let letter = |v: usize| (b'a' + v as u8) as char;
            out.push_str(&format!(";{colour}[{}{}]", letter(x), letter(y)));
        }
    }
    out
}

fn game(info: &str, n: usize) -> String {
    format!("(;GM[1]FF[4]SZ[19]KM[6.5]{info}{})", moves(n))
}

fn codes(row: &serde_json::Value) -> Vec<String> {
    row["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .filter(|c| c == "A508" || c == "A509")
        .collect()
}

#[test]
fn copies_and_truncated_copies_are_named() {
    let dir = scratch("duplicates");
    let files = [
        ("1-short60.sgf", game("PB[a]PW[b]", 60)),
        ("2-resigned55.sgf", game("PB[c]PW[d]RE[B+R]", 55)),
        ("3-full70.sgf", game("PB[a]PW[b]RE[W+R]", 70)),
        ("4-copy.sgf", game("PB[someone else]", 70)),
        ("5-opening20.sgf", game("PB[e]PW[f]DT[2020-01-01]", 20)),
        (
            "6-opening20-again.sgf",
            game("PB[g]PW[h]DT[2021-01-01]", 20),
        ),
        ("7-same-info20.sgf", game("PB[e]PW[f]DT[2020-01-01]", 20)),
        ("8-opening30.sgf", game("PB[i]PW[j]", 30)),
        (
            "9-opening30-other.sgf",
            game("PB[k]PW[l]DT[2022-01-01]", 30),
        ),
        (
            "9b-opening30-other.sgf",
            game("PB[k]PW[l]DT[2022-01-01]", 30),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let (_, rows) = jsonl(&[dir.to_str().unwrap()]);
    assert_eq!(rows.len(), files.len());
    let by_name = |n: &str| row_ending(&rows, n);
    let dup = |n: &str| {
        let d = &by_name(n)["duplicate_of"];
        (!d.is_null()).then(|| {
            let file = d["file"].as_str().unwrap();
            let name = file.rsplit('/').next().unwrap().to_string();
            (name, d["kind"].as_str().unwrap().to_string())
        })
    };
    // The first of a line is no copy.
    assert!(codes(by_name("1-short60.sgf")).is_empty());
    // A shorter line with another result is another game, not a copy.
    assert!(codes(by_name("2-resigned55.sgf")).is_empty());
    // 1 is 3 cut at 60 moves with no result: a truncated copy; 2 (55 moves,
    // B+R against W+R) is not.
    assert_eq!(codes(by_name("3-full70.sgf")), ["A509"]);
    assert_eq!(
        dup("3-full70.sgf"),
        Some(("1-short60.sgf".into(), "truncated-copy".into()))
    );
    // The same 70 moves under other names: a copy of the first with them.
    assert_eq!(codes(by_name("4-copy.sgf")), ["A508"]);
    assert_eq!(
        dup("4-copy.sgf"),
        Some(("3-full70.sgf".into(), "same-line".into()))
    );
    // 20 shared opening moves by other players: a coincidence, not a copy.
    assert!(codes(by_name("6-opening20-again.sgf")).is_empty());
    // ... but with the same players and date, the same game.
    assert_eq!(codes(by_name("7-same-info20.sgf")), ["A508"]);
    assert_eq!(
        dup("7-same-info20.sgf"),
        Some(("5-opening20.sgf".into(), "same-line".into()))
    );
    // A short line's first game does not hide a copy of a later game with
    // that line: 9b is 9 again (8, by other players, came first).
    assert!(codes(by_name("9-opening30-other.sgf")).is_empty());
    assert_eq!(codes(by_name("9b-opening30-other.sgf")), ["A508"]);
    assert_eq!(
        dup("9b-opening30-other.sgf"),
        Some(("9-opening30-other.sgf".into(), "same-line".into()))
    );
}
