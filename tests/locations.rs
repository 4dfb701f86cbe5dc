//! Where a finding about a move is: the byte offset in the file, the line
//! and the column (in characters) of the move's `B` or `W` on the main line.

mod common;

use common::{audit_named, audit_text, root};
use sgfaudit::audit::GameReport;
use sgfaudit::core::findings::Finding;

/// The game's first finding with `code`; `why` says why it must have one.
fn finding<'a>(g: &'a GameReport, code: &str, why: &str) -> &'a Finding {
    g.findings
        .iter()
        .find(|f| f.code.id() == code)
        .unwrap_or_else(|| panic!("no {code}: {why}"))
}

/// A finding's place: (byte offset, line, column), if it has one.
fn place(f: &Finding) -> Option<(u64, u32, u32)> {
    f.location.map(|l| (l.offset, l.line, l.column))
}

/// The main line goes into the first variation; a `B[..]` inside a comment
/// (an escaped `]` in it too), `AB`, and moves of later variations are not
/// moves of it; white space may stand between `B` and its value.
#[test]
fn a_move_finding_points_at_its_move_on_the_main_line() {
    let text =
        "(;GM[1]FF[4]SZ[9]C[not B[aa]\\] a move]AB[ab]\n;B[ee]\n(;W[ee]TR[aa];B [dd]) (;W[cc])\n)";
    let r = audit_text(text);
    let g = &r.games[0];
    assert_eq!(g.moves, 3);
    let occupied = finding(g, "R401", "W E5 on Black's stone");
    assert_eq!(occupied.move_number, Some(2));
    let at = text.find("(;W[ee]").unwrap() + 2;
    assert_eq!(place(occupied), Some((at as u64, 3, 3)));
}

/// Lines end as editors end them: at CR LF (Windows), LF (Unix) and a lone
/// CR (classic Mac OS, whose SGF editors wrote it), so that a finding's line
/// is the one an editor shows.
#[test]
fn a_lone_carriage_return_ends_a_line() {
    for (end, line) in [("\r", 3), ("\r\n", 3), ("\n", 3), ("\n\r", 5)] {
        let text = format!("(;GM[1]FF[4]SZ[9]{end};B[ee]{end};W[ee])");
        let r = audit_text(&text);
        let occupied = finding(&r.games[0], "R401", "W E5 on Black's stone");
        let at = text.find("W[ee]").unwrap();
        assert_eq!(place(occupied), Some((at as u64, line, 2)), "{end:?}");
    }
}

/// In a file in a legacy charset the offset counts the file's bytes and the
/// column characters: two GBK characters before the move are four bytes
/// (six in UTF-8) and two columns.
#[test]
fn a_move_in_a_legacy_charset_is_placed_in_the_file_bytes() {
    let text = "(;GM[1]FF[4]CA[GB2312]SZ[9]PB[棋手]\n;B[ee];W[ee])";
    let (bytes, _, unmappable) = encoding_rs::GBK.encode(text);
    assert!(!unmappable);
    let at = bytes.windows(5).position(|w| w == b"W[ee]").unwrap();
    assert_ne!(at, text.find("W[ee]").unwrap(), "the encodings differ");
    let r = audit_named("gbk.sgf", &bytes);
    let occupied = finding(&r.games[0], "R401", "W E5 on Black's stone");
    assert_eq!(place(occupied), Some((at as u64, 2, 8)));
}

/// Over the bundled real records, every finding about a move carries a
/// place, and at that byte of the file stands the move itself: its colour's
/// letter, then its point (read from the file, not from the audit), on the
/// line the file's newlines before it give (a property repeated in a node,
/// or setup, read after the move: that property).
#[test]
fn every_move_finding_of_the_real_records_points_at_its_move() {
    let (_, rows) = common::jsonl(&[root().join("corpus/real").to_str().unwrap()]);
    let (mut about_moves, mut checked) = (0, 0);
    for r in &rows {
        let file = r["file"].as_str().unwrap();
        for f in r["findings"].as_array().unwrap() {
            if f["move"].as_u64().unwrap_or(0) == 0 {
                continue;
            }
            about_moves += 1;
            let Some(offset) = f["offset"].as_u64() else {
                continue;
            };
            let bytes = std::fs::read(file).unwrap();
            let at = &bytes[offset as usize..];
            let open = at.iter().position(|&b| b == b'[').unwrap();
            let ident: String = at[..open]
                .iter()
                .filter(|b| b.is_ascii_uppercase())
                .map(|&b| b as char)
                .collect();
            // A repeated property and setup after a move stand at themselves.
            let message = f["message"].as_str().unwrap();
            match f["code"].as_str().unwrap() {
                "P307" => assert!(message.starts_with(&format!("{ident} ")), "{file}: {f}"),
                "A504" => assert!(["AB", "AW", "AE"].contains(&ident.as_str()), "{file}: {f}"),
                _ => {
                    let colour = f["color"].as_str().unwrap_or("");
                    assert!(
                        colour.is_empty() || at.starts_with(colour.as_bytes()),
                        "{file}: {f}"
                    );
                    assert!(
                        at[1..open].iter().all(u8::is_ascii_whitespace),
                        "{file}: {f}"
                    );
                }
            }
            let close = open + at[open..].iter().position(|&b| b == b']').unwrap();
            if let Some(point) = f["point"].as_str() {
                let value = String::from_utf8_lossy(&at[open + 1..close]).to_lowercase();
                assert_eq!(value, point, "{file}: {f}");
            }
            // Lines end at CR LF, a lone CR or LF, as editors count them.
            let before = &bytes[..offset as usize];
            let lone_crs = before
                .windows(2)
                .filter(|w| w[0] == b'\r' && w[1] != b'\n')
                .count()
                + usize::from(before.last() == Some(&b'\r'));
            let line = before.iter().filter(|&&b| b == b'\n').count() + lone_crs + 1;
            assert_eq!(f["line"].as_u64(), Some(line as u64), "{file}: {f}");
            checked += 1;
        }
    }
    assert!(about_moves > 1000, "{about_moves}");
    assert_eq!(checked, about_moves, "every move finding is placed");
}

/// A finding about the game information stands where the property it is
/// about is written: RE for a result no counting gives.
#[test]
fn a_finding_about_the_result_points_at_re() {
    let text = "(;GM[1]FF[4]SZ[9]KM[7.5]\nPB[x]RE[W+1];B[ee])";
    let r = audit_text(text);
    let f = finding(
        &r.games[0],
        "C601",
        "one black stone on an empty board does not lose by 1",
    );
    let at = text.find("RE[").unwrap();
    assert_eq!(place(f), Some((at as u64, 2, 6)));
}

/// A malformed game-information value stands at the property it names,
/// in each game of a collection.
#[test]
fn a_malformed_value_points_at_its_property() {
    let text =
        "(;GM[1]SZ[9]\n  KM[six];B[ee])(;GM[1]SZ[9]HA[lots]\nRE[B+-3];B[ee])\n(;SZ[9]KM[99];B[ee])";
    let r = audit_text(text);
    let places = |game: usize| -> Vec<(String, u64, u32, u32)> {
        r.games[game]
            .findings
            .iter()
            .filter(|f| f.code.id() == "P306")
            .map(|f| {
                let loc = f.location.expect("placed");
                (f.message[..2].to_string(), loc.offset, loc.line, loc.column)
            })
            .collect()
    };
    let at = |what: &str| text.find(what).unwrap() as u64;
    assert_eq!(places(0), [("KM".to_string(), at("KM[six]"), 2, 3)]);
    let mut second = places(1);
    second.sort();
    assert_eq!(
        second,
        [
            ("HA".to_string(), at("HA[lots]"), 2, 29),
            ("RE".to_string(), at("RE[B+-3]"), 3, 1)
        ]
    );
    // 99 points of komi on 81 points: not this game's komi.
    assert_eq!(places(2), [("KM".to_string(), at("KM[99]"), 4, 8)]);
}

/// Bytes replaced by U+FFFD count as the bytes they were, not as the three
/// of U+FFFD: a broken two-byte UTF-8 sequence before the move leaves its
/// offset the file's (a legacy charset's case: `sgf::decode`'s unit tests).
#[test]
fn a_move_after_replaced_bytes_keeps_its_file_offset() {
    let bytes =
        b"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[\xe6\xa3\x8b\xe6\x89\x8b\xe5\x9b\xe6\xa3\x8b\xe6\x89\x8b]\n;B[ee];W[ee])";
    let r = audit_named("broken.sgf", bytes);
    let g = &r.games[0];
    assert!(
        g.findings.iter().any(|f| f.code.id() == "E104"),
        "bytes replaced"
    );
    let at = bytes.windows(5).position(|w| w == b"W[ee]").unwrap();
    let occupied = finding(g, "R401", "W E5 on Black's stone");
    assert_eq!(place(occupied), Some((at as u64, 2, 8)));
    // The replacement itself stands at the first broken byte.
    let broken = bytes.windows(2).position(|w| w == b"\xe5\x9b").unwrap();
    let e104 = finding(g, "E104", "bytes replaced");
    assert_eq!(place(e104).map(|p| p.0), Some(broken as u64));
}

/// A label that lies stands at its `CA`; a board size that cannot be, at
/// its `SZ` (the game is not audited, the finding is placed).
#[test]
fn charset_and_size_findings_point_at_their_property() {
    let text = "(;GM[1]FF[4]\nCA[ISO-8859-1]SZ[9]PB[棋手];B[aa])\n(;GM[1]\n  SZ[0];B[aa])";
    let r = audit_text(text);
    let label = finding(&r.games[0], "E103", "the text is UTF-8");
    let at = text.find("CA[").unwrap() as u64;
    assert_eq!(place(label), Some((at, 2, 1)));
    let size = finding(&r.games[1], "P301", "SZ[0]");
    let at = text.find("SZ[0]").unwrap() as u64;
    assert_eq!(place(size), Some((at, 4, 3)));
}

/// A property repeated in a node stands at its repetition, setup in the
/// middle of a game at the node's first setup property: each in the node
/// read after the move the finding names, not at that move.
#[test]
fn repeated_and_setup_properties_point_at_themselves() {
    let text = "(;GM[1]SZ[9]AB[aa]AB[bb]\n;B[ee]\n;AW[cc]C[x]C[y]\n;W[dd])";
    let r = audit_text(text);
    let at = |code: &str, n: usize| {
        r.games[0]
            .findings
            .iter()
            .filter(|f| f.code.id() == code)
            .nth(n)
            .map(place)
            .unwrap_or_else(|| panic!("{code} {n}"))
    };
    let place = |s: &str, line, column| Some((text.find(s).unwrap() as u64, line, column));
    assert_eq!(at("P307", 0), place("AB[bb]", 1, 19));
    assert_eq!(at("P307", 1), place("C[y]", 3, 12));
    assert_eq!(at("A504", 0), place("AW[cc]", 3, 2));
}

/// Every game says where its tree is written, and a finding about a whole
/// game points there: the second copy of a game in a collection, after a
/// CRLF, a blank line and a tab, is a duplicate (A508) at its `(`.
#[test]
fn a_game_and_a_finding_about_all_of_it_point_at_its_tree() {
    let game = "(;GM[1]SZ[9]PB[a]PW[b]DT[2020-01-01]RE[B+R];B[ee];W[cc])";
    let text = format!("{game}\r\n\n\t{game}\n");
    let path = common::scratch("game-start").join("twice.sgf");
    std::fs::write(&path, &text).unwrap();
    let (_, rows) = common::jsonl(&[path.to_str().unwrap()]);
    assert_eq!(rows.len(), 2);
    let start = |r: &serde_json::Value| {
        let s = &r["start"];
        (
            s["offset"].as_u64(),
            s["line"].as_u64(),
            s["column"].as_u64(),
        )
    };
    assert_eq!(start(&rows[0]), (Some(0), Some(1), Some(1)));
    let second = (Some(game.len() as u64 + 4), Some(3), Some(2));
    assert_eq!(start(&rows[1]), second);
    let duplicate = rows[1]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "A508")
        .expect("the same players, date, result and moves");
    let at = (
        duplicate["offset"].as_u64(),
        duplicate["line"].as_u64(),
        duplicate["column"].as_u64(),
    );
    assert_eq!(at, second);
}

/// A text whose encoding was detected, not declared (E101), points at its
/// first character that is not ASCII: the text whose reading rests on the
/// guess (`é` in Latin-1, the 7th character of the second line).
#[test]
fn a_detected_encoding_points_at_the_first_character_it_decides() {
    let bytes = b"(;GM[1]FF[4]SZ[9]\nPB[Jos\xe9 Mar\xeda]PW[x];B[ee])".to_vec();
    let at = bytes.iter().position(|&b| b == 0xe9).unwrap() as u64;
    let r = audit_named("latin1.sgf", &bytes);
    let assumed = finding(&r.games[0], "E101", "no CA, not UTF-8");
    assert_eq!(place(assumed), Some((at, 2, 7)));
}

/// A finding about the territory markup (C607: it leaves standing stones
/// that Japanese rule 7 makes dead) stands at the markup the count reads:
/// the first `TB` or `TW` after the last move's `B` or `W` (here in the
/// same node as the last pass).
#[test]
fn a_finding_about_the_markup_points_at_it() {
    let path = root().join("corpus/real/gnugo-regression/nando/kisei27_g1.sgf");
    let text = std::fs::read_to_string(&path).unwrap();
    let r = audit_text(&text);
    let f = finding(
        &r.games[0],
        "C607",
        "W's markup leaves Black's stones in atari standing",
    );
    let last_move = text.rfind(";B[").max(text.rfind(";W[")).unwrap();
    let markup = last_move + text[last_move..].find("TW[").unwrap();
    let line = text[..markup].matches('\n').count() as u32 + 1;
    let column = (markup - text[..markup].rfind('\n').map_or(0, |k| k + 1)) as u32 + 1;
    assert_eq!(place(f), Some((markup as u64, line, column)));
    assert!(!text[last_move..markup].contains("TB["));
}

/// A setup value that is not a point, or a point off the board, stands at
/// the `AB`, `AW` or `AE` that holds it, in the root or after a move, each
/// of a node's repeated setup properties at its own.
#[test]
fn a_bad_setup_value_points_at_its_property() {
    let text = "(;GM[1]SZ[9]\nAB[cc][zz]AW[];B[ee];AW[zz99];AE[zz]AE[yy][xx];W[dd])";
    let r = audit_text(text);
    let bad: Vec<_> = r.games[0]
        .findings
        .iter()
        .filter(|f| f.code.id() == "P303")
        .map(place)
        .collect();
    // Everything after the root's first line is on line 2.
    let line_start = text.find('\n').unwrap() + 1;
    let at = |needle: &str| {
        let o = text.find(needle).unwrap();
        Some((o as u64, 2, (o - line_start + 1) as u32))
    };
    // `zz`, `yy` and `xx` are off the 9x9 board, `zz99` and an empty value
    // are no points at all; `yy` and `xx` share the node's second AE, read
    // in the order of their rows.
    assert_eq!(
        bad,
        [
            at("AB[cc]"),
            at("AW[]"),
            at("AW[zz99]"),
            at("AE[zz]"),
            at("AE[yy]"),
            at("AE[yy]"),
        ]
    );
}
