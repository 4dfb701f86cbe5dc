//! Broken inputs: every file of `corpus/malformed/` gets its expected finding, and
//! generated giants (long games, deep nesting, huge collections) do not crash.

mod common;

use common::{audit_named, audit_text, codes, root, sgf_files};
use sgfaudit::audit::{AuditOptions, Status};

/// (file, status ok?, codes that must be present)
const EXPECT: &[(&str, bool, &[&str])] = &[
    ("binary.bin.sgf", false, &["F003"]),
    ("duplicate-property.sgf", true, &["P307"]),
    ("empty-variation.sgf", true, &["S209"]),
    ("empty.sgf", false, &["F002"]),
    ("extra-close.sgf", true, &["S205"]),
    ("ff5.sgf", true, &["P308"]),
    ("nul-bytes.sgf", true, &["S206"]),
    ("off-board-moves.sgf", true, &["R402"]),
    ("truncated-identifier.sgf", true, &["S208", "S203"]),
    ("truncated-node.sgf", true, &["S203"]),
    ("truncated-variation.sgf", true, &["S203"]),
    ("utf16-bom.sgf", true, &[]),
    ("wrong-ca.sgf", true, &["E103"]),
    ("gm2.sgf", false, &["P302"]),
    ("gzip-named-sgf.sgf", false, &["F003"]),
    ("identifier-without-value.sgf", true, &["S208"]),
    ("invalid-utf8.sgf", true, &["E103"]),
    ("leading-text.sgf", true, &["S201"]),
    ("lone-close.sgf", false, &["S205", "F003"]),
    ("root-only.sgf", true, &[]),
    ("size-0.sgf", false, &["P301"]),
    ("size-1.sgf", true, &["R403"]),
    ("size-19x13.sgf", false, &["P309"]),
    ("size-2.sgf", true, &[]),
    ("size-25.sgf", true, &[]),
    ("size-52.sgf", true, &[]),
    ("size-53.sgf", false, &["P301"]),
    ("size-abc.sgf", false, &["P301"]),
    ("truncated-tree.sgf", true, &["S203"]),
    ("truncated-value.sgf", true, &["S204", "S203"]),
    ("tt-19.sgf", true, &[]),
    ("tt-21.sgf", true, &["R401"]),
    ("two-moves-one-node.sgf", true, &["P304"]),
    ("unescaped-bracket.sgf", true, &["S206"]),
    ("unknown-ca.sgf", true, &["E102"]),
    ("utf8-bom.sgf", true, &[]),
    ("value-without-identifier.sgf", true, &["S207"]),
];

#[test]
fn every_malformed_file_gets_its_expected_finding() {
    let dir = root().join("corpus/malformed");
    let files = sgf_files(&dir);
    assert_eq!(
        files.len(),
        EXPECT.len(),
        "every file in corpus/malformed is in the table"
    );
    for (name, ok, want) in EXPECT {
        if *name == "utf16-bom.sgf" {
            let r = common::audit_file(&dir.join(name), &AuditOptions::default());
            assert_eq!(r.file.encoding, Some("UTF-16LE"));
            assert_eq!(r.games[0].info.black.as_deref(), Some("名人"));
        }
        let path = dir.join(name);
        let r = common::audit_file(&path, &AuditOptions::default());
        assert_eq!(r.games.len(), 1, "{name}");
        assert_eq!(
            r.games[0].status == Status::Ok,
            *ok,
            "{name}: {:?}",
            r.games[0].status
        );
        let got = codes(&r);
        for w in *want {
            assert!(got.contains(w), "{name}: expected {w}, got {got:?}");
        }
        if want.is_empty() {
            assert!(got.is_empty(), "{name}: expected no finding, got {got:?}");
        }
    }
}

#[test]
fn syntax_findings_carry_offset_line_and_column() {
    let r = audit_text("(;GM[1]SZ[9]\n;B[ee] junk;W[cc]\n;W[dd]C[never closed");
    let g = &r.games[0];
    let junk = g
        .findings
        .iter()
        .find(|f| f.code.id() == "S208")
        .expect("junk found");
    let loc = junk.location.expect("located");
    assert_eq!((loc.offset, loc.line, loc.column), (20, 2, 8));
    let open = g
        .findings
        .iter()
        .find(|f| f.code.id() == "S204")
        .expect("unterminated value");
    let loc = open.location.expect("located");
    assert_eq!((loc.line, loc.column), (3, 8));
    // The junk did not swallow the next node: W[cc] is move 2, W[dd] move 3.
    assert_eq!(g.moves, 3);
}

#[test]
fn a_million_move_game_is_audited() {
    let mut s = String::with_capacity(6_000_100);
    s.push_str("(;GM[1]SZ[19]");
    for i in 0..1_000_000u32 {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        // Passes keep the board small; every 3rd move is a placement somewhere.
        if i % 3 == 0 {
            let p = (i / 3) % 361;
            let (x, y) = (
                (b'a' + (p % 19) as u8) as char,
                (b'a' + (p / 19) as u8) as char,
            );
            s.push_str(&format!(";{c}[{x}{y}]"));
        } else {
            s.push_str(&format!(";{c}[]"));
        }
    }
    s.push(')');
    let r = audit_named("million.sgf", s.as_bytes());
    assert_eq!(r.games[0].status, Status::Ok);
    assert_eq!(r.games[0].moves, 1_000_000);
}

#[test]
fn deep_variations_do_not_overflow_a_small_stack() {
    // 100,000 nested variations, audited on a thread with rayon's default 2 MiB stack.
    let depth = 100_000;
    let mut s = String::from("(;GM[1]SZ[19]");
    for i in 0..depth {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!("(;{c}[]"));
    }
    for _ in 0..depth {
        s.push(')');
    }
    s.push(')');
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let r = audit_named("deep.sgf", s.as_bytes());
            (r.games.len(), r.games[0].moves)
        })
        .unwrap();
    let (games, moves) = handle.join().expect("no stack overflow");
    assert_eq!(games, 1);
    assert_eq!(moves, depth);
}

#[test]
fn ten_thousand_games_in_one_file_are_all_reported() {
    let mut s = String::new();
    for i in 0..10_000 {
        if i == 5_000 {
            s.push_str("(;GM[1]SZ[0];B[aa])\n"); // one bad game does not lose the others
        } else {
            s.push_str("(;GM[1]SZ[9];B[ee];W[cc])\n");
        }
    }
    let r = audit_text(&s);
    assert_eq!(r.games.len(), 10_000);
    assert_eq!(
        r.games.iter().filter(|g| g.status == Status::Ok).count(),
        9_999
    );
    assert!(matches!(r.games[5_000].status, Status::Error(_)));
    assert_eq!(r.games[9_999].index, 9_999);
}

#[test]
fn a_fifty_megabyte_comment_is_read() {
    let mut s = String::with_capacity(50 << 20);
    s.push_str("(;GM[1]SZ[9]C[");
    s.push_str(&"x".repeat(50 << 20));
    s.push_str("];B[ee])");
    let r = audit_text(&s);
    assert_eq!(r.games[0].status, Status::Ok);
    assert_eq!(r.games[0].moves, 1);
}

/// A property may appear once in a node (SGF FF[4], "Properties"): each
/// repeat is a P307 naming it, whether the property is one sgf-parse knows
/// (`W`, `C`), one it does not (`XX`), or a move it cannot read beside one
/// it can (`B[z]` after `B[ff]`), in a node of a few properties or of many
/// (nine here); properties that differ are no repeat.
#[test]
fn every_repeated_property_is_named_once_per_repeat() {
    let r = audit_text(
        "(;GM[1]SZ[9];B[aa]XX[1]XX[2]C[a];W[bb]B[cc]W[dd];B[ff]B[z]\
         ;W[ee]C[1]N[a]BL[1]WL[2]OB[1]OW[1]TM[1]C[2];B[gg]C[x]N[y]BL[3])",
    );
    let repeats: Vec<String> = r.games[0]
        .findings
        .iter()
        .filter(|f| f.code.id() == "P307")
        .map(|f| f.message.split(' ').next().unwrap_or("").to_string())
        .collect();
    assert_eq!(repeats, ["XX", "W", "B", "C"]);
}
