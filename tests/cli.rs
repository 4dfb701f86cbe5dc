//! Whole invocations of the binary: outputs, exit codes, determinism.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use common::root;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sgfaudit"));
    c.current_dir(root());
    c
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = bin().args(args).output().expect("run sgfaudit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn jsonl_and_csv_are_byte_identical_for_any_thread_count() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfaudit-det");
    let d1 = tmp.join("j1");
    let d2 = tmp.join("j2");
    let (c1, o1, _) = run(&[
        "check",
        "corpus",
        "--format",
        "jsonl",
        "-j",
        "1",
        "--out",
        d1.to_str().unwrap(),
    ]);
    let (c2, o2, _) = run(&[
        "check",
        "corpus",
        "--format",
        "jsonl",
        "-j",
        "2",
        "--out",
        d2.to_str().unwrap(),
    ]);
    assert_eq!(c1, 1);
    assert_eq!(c1, c2);
    assert!(o1.lines().count() > 300);
    assert_eq!(o1, o2, "jsonl differs between -j1 and -j2");
    for f in ["games.csv", "findings.csv"] {
        let a = std::fs::read(d1.join(f)).unwrap();
        let b = std::fs::read(d2.join(f)).unwrap();
        assert!(!a.is_empty());
        assert_eq!(a, b, "{f} differs between -j1 and -j2");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn jsonl_carries_the_documented_fields() {
    let (code, out, _) = run(&[
        "check",
        "corpus/rules/ko-immediate.sgf",
        "--format",
        "jsonl",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["file"], "corpus/rules/ko-immediate.sgf");
    assert_eq!(v["game"], 0);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["board_size"], 9);
    assert_eq!(v["komi"], 6.5);
    assert_eq!(v["moves"], 10);
    let f = &v["findings"][0];
    assert_eq!(f["code"], "R404");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["move"], 10);
    assert_eq!(f["point"], "de");
    assert_eq!(f["human"], "D5");
    assert_eq!(f["color"], "W");
    assert_eq!(
        f["rulesets"],
        serde_json::json!(["aga", "japanese", "swedish"])
    );
    for rs in ["aga", "japanese", "swedish"] {
        assert_eq!(v["rulesets"][rs]["illegal"][0]["kind"], "ko");
        assert_eq!(v["rulesets"][rs]["illegal"][0]["move"], 10);
    }
    assert!(v["rulesets"]["japanese"]["no_result"].is_null());
}

/// Fox's komi conventions are read, not reported: KM written x100 and KM[0]
/// in an even game keep their value as written beside the komi read, and the
/// summary counts them; no finding is raised for either.
#[test]
fn fox_komi_as_written_is_kept_and_counted() {
    let dir = common::scratch("fox-komi");
    let games = [
        (
            "scaled.sgf",
            "(;GM[1]FF[4]SZ[19]AP[foxwq]KM[375];B[pd];W[dp])",
        ),
        (
            "unwritten.sgf",
            "(;GM[1]FF[4]SZ[19]AP[foxwq]KM[0];B[pd];W[dp])",
        ),
        (
            "plain.sgf",
            "(;GM[1]FF[4]SZ[19]AP[foxwq]KM[6.5];B[pd];W[dp])",
        ),
        ("stones.sgf", "(;GM[1]FF[4]SZ[19]KM[3.75];B[pd];W[dp])"),
    ];
    for (name, text) in games {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let path = dir.to_str().unwrap();
    let (code, out, _) = run(&["check", path, "--format", "jsonl"]);
    assert_eq!(code, 0, "{out}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Sorted by name: plain, scaled, stones, unwritten. 375 is 3.75 stones,
    // 7.5 points, and so is 3.75.
    let read: Vec<_> = rows
        .iter()
        .map(|v| (v["komi"].clone(), v["komi_as_written"].clone()))
        .collect();
    use serde_json::json;
    assert_eq!(
        read,
        [
            (json!(6.5), json!(null)),
            (json!(7.5), json!(375.0)),
            (json!(7.5), json!(3.75)),
            (json!(null), json!(0.0)),
        ]
    );
    assert!(rows.iter().all(|v| v["findings"] == json!([])), "{out}");
    let (_, summary, _) = run(&["check", path]);
    assert!(
        summary.contains(
            "KM read as Fox writes it: 1 written x100, 1 KM[0] in an even game read as no \
             komi; in stones of two points: 1 with a quarter left over"
        ),
        "{summary}"
    );
    // `explain` of a finished game says how its KM was read: 375 is 3.75
    // stones of two points.
    let scored = dir.join("scored.sgf");
    std::fs::write(&scored, "(;GM[1]FF[4]SZ[9]AP[foxwq]KM[375];B[ee];W[];B[])").unwrap();
    let (code, shown, err) = run(&["explain", scored.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        shown.contains(
            "komi: KM[375] as written, read as 7.5 points (Fox writes KM x100, here in stones of two points)"
        ),
        "{shown}"
    );
    std::fs::write(&scored, "(;GM[1]FF[4]SZ[9]KM[3.75];B[ee];W[];B[])").unwrap();
    let (_, shown, _) = run(&["explain", scored.to_str().unwrap()]);
    assert!(
        shown.contains("komi: KM[3.75] as written, read as 7.5 points (in stones of two points"),
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_codes() {
    // Clean game: 0. Findings: 1. Nothing readable or usage errors: 2.
    assert_eq!(run(&["check", "corpus/rules/ko-after-threat.sgf"]).0, 0);
    assert_eq!(run(&["check", "corpus/rules/occupied.sgf"]).0, 1);
    assert_eq!(
        run(&["check", "corpus/rules/occupied.sgf", "--fail-on", "never"]).0,
        0
    );
    assert_eq!(run(&["check", "corpus/rules/omitted-pass.sgf"]).0, 0);
    assert_eq!(
        run(&[
            "check",
            "corpus/rules/omitted-pass.sgf",
            "--fail-on",
            "warning"
        ])
        .0,
        1
    );
    assert_eq!(run(&["check", "no/such/path.sgf"]).0, 2);
    assert_eq!(run(&["check"]).0, 2);
    // Standard input cannot be both a game and the list of paths.
    let both = run(&["check", "-", "--file-list", "-"]);
    assert_eq!(both.0, 2);
    assert!(
        both.2.contains("cannot both read standard input"),
        "{}",
        both.2
    );
    assert_eq!(run(&["check", "--format", "nonsense", "corpus"]).0, 2);
}

#[test]
fn stdin_and_file_list() {
    let mut child = bin()
        .args(["check", "-", "--format", "jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"(;SZ[9];B[ee];W[ee])")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["file"], "-");
    assert_eq!(v["rulesets"]["aga"]["illegal"][0]["kind"], "occupied");

    let list = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfaudit-list");
    std::fs::write(
        &list,
        "corpus/rules/occupied.sgf\n\ncorpus/rules/off-board.sgf\r\n",
    )
    .unwrap();
    let (code, out, _) = run(&[
        "check",
        "--file-list",
        list.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    assert_eq!(code, 1);
    let files: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        files,
        ["corpus/rules/occupied.sgf", "corpus/rules/off-board.sgf"]
    );
    let _ = std::fs::remove_file(list);
}

/// Runs sgfaudit with `args`, its standard output a pipe whose reader reads
/// `read` bytes (none: it is closed before the child writes) and goes away;
/// standard error is that pipe too when `stderr_too`. Its exit status and
/// what it said on standard error (nothing when that was the pipe).
fn with_reader_gone(args: &[&str], read: usize, stderr_too: bool) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    let stderr = if stderr_too {
        Stdio::from(writer.try_clone().unwrap())
    } else {
        Stdio::piped()
    };
    let mut command = bin();
    command.args(args).stdout(writer).stderr(stderr);
    // Reading nothing, the reader is closed before the child starts.
    let reader = (read > 0).then_some(reader);
    let child = command.spawn().unwrap();
    drop(command); // the parent's copies of the pipe's writing end
    if let Some(mut reader) = reader {
        let mut first = vec![0u8; read];
        reader.read_exact(&mut first).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A reader that goes away (`| head`) ends the run quietly, whatever the
/// format, and also when standard error is that same closed pipe (`2>&1 |
/// head`), where a message about it could not be written either. Each of
/// these formats writes more of `corpus` than a pipe holds (64 KiB), so the
/// run meets the closed pipe.
#[test]
fn a_closed_stdout_is_not_an_error() {
    for format in ["jsonl", "csv", "sarif", "gitlab", "junit", "concise"] {
        for stderr_too in [false, true] {
            let args = ["check", "corpus", "--format", format, "-j", "1"];
            let (status, stderr) = with_reader_gone(&args, 16, stderr_too);
            assert_eq!(
                status,
                Some(0),
                "--format {format}, standard error on the pipe too: {stderr_too}; {stderr}"
            );
        }
    }
}

/// The commands that print and end: with the reader gone before they write
/// (the pipe's reading end closed first), none panics or fails.
#[test]
fn printing_commands_take_a_closed_stdout_quietly() {
    let commands: [&[&str]; 6] = [
        &["check", "corpus/rules", "--show-config"],
        &["codes"],
        &["codes", "--format", "json"],
        &["rules"],
        &["rules", "--format", "json"],
        &["explain", "corpus/rules/ko-immediate.sgf", "--move", "3"],
    ];
    for args in commands {
        let (status, stderr) = with_reader_gone(args, 0, false);
        assert_eq!(status, Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// The hand-made cases: one game per file.
fn rules_files() -> usize {
    std::fs::read_dir(root().join("corpus/rules"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "sgf")
        })
        .count()
}

#[test]
fn an_injected_panic_becomes_an_internal_error_finding() {
    let out = bin()
        .args(["check", "corpus/rules", "--format", "jsonl"])
        .env("SGFAUDIT_INJECT_FAULT", "triple-ko")
        .output()
        .expect("run sgfaudit");
    let code = out.status.code().unwrap_or(-1);
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(code, 1, "not 101: the run goes on");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), rules_files(), "every file still reported");
    let hit = rows
        .iter()
        .find(|r| r["file"].as_str().unwrap().contains("triple-ko"))
        .unwrap();
    assert_eq!(hit["status"], "error");
    assert_eq!(hit["findings"][0]["code"], "X900");
    // The files after it were audited normally.
    let after = rows
        .iter()
        .find(|r| r["file"].as_str().unwrap().contains("tt-pass-19"))
        .unwrap();
    assert_eq!(after["status"], "ok");
}

#[test]
fn summary_names_counts_and_worst_files() {
    let (code, out, _) = run(&["check", "corpus/rules"]);
    assert_eq!(code, 1);
    let files = format!("files: {} (0 unreadable)", rules_files());
    assert!(out.contains(&files), "{out}");
    assert!(out.contains("R405 superko"), "{out}");
    assert!(out.contains("files with most problems"), "{out}");
}

#[test]
fn codes_lists_every_code() {
    let (code, out, _) = run(&["codes"]);
    assert_eq!(code, 0);
    assert!(out.lines().count() >= 30);
    assert!(out.contains("R404  ko"));
}

/// `codes --format json`: every code of the library once, in its order,
/// with the name, default severity and meaning the text listing prints.
#[test]
fn codes_as_json_are_the_codes_listed() {
    let (code, out, _) = run(&["codes", "--format", "json"]);
    assert_eq!(code, 0);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&out).expect("a JSON array");
    let all = sgfaudit::core::findings::Code::ALL;
    assert_eq!(listed.len(), all.len());
    let (_, text, _) = run(&["codes"]);
    for ((c, entry), line) in all.iter().zip(&listed).zip(text.lines()) {
        assert_eq!(entry["code"], c.id());
        assert_eq!(entry["name"], c.name());
        assert_eq!(entry["severity"], c.severity().as_str());
        assert_eq!(entry["description"], c.description());
        let text_line = format!(
            "{}  {:<22} {:<8} {}",
            c.id(),
            c.name(),
            c.severity().as_str(),
            c.description()
        );
        assert_eq!(line, text_line);
    }
}

#[test]
fn output_doc_lists_every_finding_code() {
    let doc = std::fs::read_to_string(root().join("docs/OUTPUT.md")).unwrap();
    for c in sgfaudit::core::findings::Code::ALL {
        assert!(
            doc.contains(&format!("| {} | {} |", c.id(), c.name())),
            "{} missing",
            c.id()
        );
    }
}

#[test]
fn selection_and_exit_zero_choose_what_counts() {
    // corpus/rules holds error-level findings: exit 1 by default.
    let (code, out, _) = run(&["check", "corpus/rules", "-q", "--select", "A5,P"]);
    assert_eq!(code, 0, "only anomalies selected: no error left");
    assert!(!out.contains("R405"), "{out}");
    assert!(out.contains("A503"), "{out}");
    let (code, out, _) = run(&["check", "corpus/rules", "-q", "--ignore", "R"]);
    assert_eq!(code, 0);
    assert!(!out.contains(" R40"), "{out}");
    let (code, _, _) = run(&["check", "corpus/rules", "-q", "--exit-zero"]);
    assert_eq!(code, 0);
}

#[test]
fn the_games_table_goes_to_standard_output_in_the_csv_columns() {
    let tmp = common::scratch("csvout");
    let (_, stdout, _) = run(&[
        "check",
        "corpus/rules",
        "-q",
        "--format",
        "csv",
        "--out",
        tmp.to_str().unwrap(),
    ]);
    let file = std::fs::read_to_string(tmp.join("games.csv")).unwrap();
    assert_eq!(stdout, file);
    assert_eq!(
        stdout.lines().count(),
        1 + rules_files(),
        "header and a game per file"
    );
}

/// `ko-immediate.sgf`: Black captures at E5 (move 9) and White retakes at
/// D5 at once (move 10), capturing E5 again. Worked out by hand from the
/// record: after move 10 row 5 holds B C5, W D5 (the move), nothing at E5,
/// W F5; every ruleset forbids the retake.
#[test]
fn explain_shows_the_ko_retake() {
    let (code, out, _) = run(&["explain", "corpus/rules/ko-immediate.sgf", "--move", "10"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("move 10: W D5"), "{out}");
    let after = out.split("after").nth(1).expect("an after board");
    assert!(after.contains("\n  5 · · ● ◇ · ○ · · · 5\n"), "{after}");
    for ruleset in ["aga", "japanese", "swedish"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(ruleset))
            .unwrap_or_else(|| panic!("no {ruleset} verdict in {out}"));
        assert!(line.contains(" ko "), "{line}");
    }
    assert!(out.contains("R404"), "{out}");
    assert!(!out.contains('\x1b'), "no colour in a pipe: {out}");

    let (code, _, err) = run(&["explain", "corpus/rules/ko-immediate.sgf", "--move", "11"]);
    assert_eq!(code, 2);
    // The record's ten moves, B[dd] to W[de].
    assert!(err.contains("no move 11 (it has 10;"), "{err}");

    // The game's findings name the move and where it is written: the
    // file's one line, the column of the last `W[de]`.
    let text = std::fs::read_to_string(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let column = text.rfind("W[de]").unwrap() + 1;
    let (_, out, _) = run(&["explain", "corpus/rules/ko-immediate.sgf"]);
    let r404 = line_starting(&out, "R404");
    assert!(r404.contains(&format!("move 10   1:{column} ")), "{r404}");
}

/// The first line of `out` that starts with `prefix` (leading spaces aside).
fn line_starting<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.trim_start().starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in {out}"))
}

/// The verdict line of `ruleset` in an `explain --move` output.
fn verdict_line<'a>(out: &'a str, ruleset: &str) -> &'a str {
    line_starting(out, ruleset)
}

/// `explain` takes `check`'s rule options. In `ko-natural-vs-situational.sgf`
/// White retakes a ko at once (move 12) after passing at move 10, so the
/// position it recreates was made by its pass: the AGA commentary's natural
/// situational superko allows it, plain situational superko and basic ko
/// (Japanese rule 6, the Swedish ko rule) forbid it.
#[test]
fn explain_judges_a_move_with_the_rule_options_given() {
    let file = "corpus/rules/ko-natural-vs-situational.sgf";
    let (code, out, err) = run(&["explain", file, "--move", "12"]);
    assert_eq!(code, 0, "{err}");
    assert!(verdict_line(&out, "aga").ends_with("legal"), "{out}");
    assert!(verdict_line(&out, "japanese").contains("ko (Japanese rule 6; error)"));
    let (code, out, err) = run(&[
        "explain",
        file,
        "--move",
        "12",
        "--aga-superko",
        "situational",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        verdict_line(&out, "aga").contains("ko (AGA rule 6; error)"),
        "{out}"
    );
    // A lowered severity shows in the verdict; a finding left out of the report
    // leaves the verdict, and says it is not reported.
    let (_, out, _) = run(&[
        "explain",
        file,
        "--move",
        "12",
        "--severity",
        "R404=warning",
    ]);
    assert!(
        verdict_line(&out, "swedish").contains("; warning)"),
        "{out}"
    );
    let (_, out, _) = run(&["explain", file, "--move", "12", "--ignore", "R404"]);
    assert!(
        verdict_line(&out, "swedish").contains("ko (the Swedish ko rule; not reported"),
        "{out}"
    );
    assert!(!out.contains("R404"), "{out}");
}

/// `explain` takes `check`'s scoring options. The same record ends without two
/// passes, so it is not scored unless asked. Counted by hand with no stone dead:
/// Black has A9, C5, D6, D4, B1 and one White stone captured; White has D5,
/// E6, F5, E4, one Black stone captured, and the empty E5 inside its stones,
/// which topological territory (AGA, Swedish) counts for White. Every other
/// empty point touches both colours. White's D5 is in atari on E5 (a ko), so
/// under Japanese rule 8 E5 is a point White must fill, no territory.
/// AGA: White passed once, a pass stone for Black: B 0 + 1 + 1 = 2, W 1 + 1 = 2.
/// Area: B 5 stones, W 4 stones + 1 point = 5. Japanese: B 1, W 1. Komi 6.5:
/// W+6.5 under each.
#[test]
fn explain_scores_a_position_with_the_scoring_options_given() {
    let file = "corpus/rules/ko-natural-vs-situational.sgf";
    let (code, out, err) = run(&["explain", file]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("not scored: unfinished"), "{out}");
    let (code, out, err) = run(&["explain", file, "--score", "all", "--dead-stones", "none"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("dead stones (none)"), "{out}");
    assert!(out.contains("\n  5 · · ● ○ f ○ · · · 5\n"), "{out}");
    let count = |name: &str| {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no {name} count in {out}"));
        line.split_whitespace().collect::<Vec<_>>()
    };
    for (name, black, white) in [
        ("aga", "2", "2"),
        ("aga_area", "5", "5"),
        ("japanese", "1", "1"),
        ("swedish", "2", "2"),
        ("chinese", "5", "5"),
    ] {
        let f = count(name);
        assert_eq!((f[3], f[5], f[8]), (black, white, "W+6.5"), "{name}: {f:?}");
    }
}

/// The stones a count's dead stones leave open to question are named under
/// the board. kisei27_g1's markup leaves standing Black's J16, in atari on
/// K16, where a Black stone would join the dead L16 and leave the three with
/// no liberty (suicide): dead by Japanese rule 7, not counted dead. paul,
/// estimated: six lone Black stones inside White's area at the bottom that
/// each can run into open space, which the estimate cannot settle (see
/// tests/scoring.rs `an_estimate_names_the_stones_it_is_unsure_of`).
#[test]
fn explain_names_the_stones_the_dead_stones_leave_in_question() {
    let (code, out, err) = run(&[
        "explain",
        "corpus/real/gnugo-regression/nando/kisei27_g1.sgf",
    ]);
    assert_eq!(code, 0, "{err}");
    let line = line_starting(
        &out,
        "left standing by the markup, dead under Japanese rule 7",
    );
    assert!(line.ends_with(": J16"), "{line}");
    let (code, out, err) = run(&[
        "explain",
        "corpus/real/gnugo-regression/paul.sgf",
        "--dead-stones",
        "estimate",
    ]);
    assert_eq!(code, 0, "{err}");
    let line = line_starting(&out, "in doubt");
    let named: Vec<&str> = line.rsplit(": ").next().unwrap().split(' ').collect();
    for p in ["J5", "H4", "L4", "J3", "M3", "K2"] {
        assert!(named.contains(&p), "{p} in {line}");
    }
}

/// A record that replays a ko cycle thousands of times: `explain` lists the
/// first 100 findings and counts the rest per code, and together they are
/// every finding `check` reports for the game.
#[test]
fn explain_lists_a_flood_of_findings_in_part_and_counts_the_rest() {
    let file = "corpus/real/sgfc-testfiles/deep-game-tree.sgf";
    let (_, jsonl, _) = run(&["check", file, "--format", "jsonl", "-q"]);
    let row: serde_json::Value = jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["game"] == 3)
        .expect("game 3");
    let mut per_code = std::collections::BTreeMap::<String, usize>::new();
    for f in row["findings"].as_array().unwrap() {
        *per_code
            .entry(f["code"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    let total: usize = per_code.values().sum();
    assert!(total > 1000, "{total}");
    let (code, out, err) = run(&["explain", file, "--game", "3"]);
    assert_eq!(code, 0, "{err}");
    let listed: Vec<&str> = out
        .split("\nfindings:\n")
        .nth(1)
        .expect("a findings list")
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("  ..."))
        .collect();
    assert_eq!(listed.len(), 100);
    let more = out
        .lines()
        .find(|l| l.starts_with("  ... and "))
        .expect("a count of the rest");
    assert!(
        more.starts_with(&format!("  ... and {} more (", total - 100)),
        "{more}"
    );
    for l in &listed {
        let c = l.split_whitespace().next().unwrap();
        *per_code.get_mut(c).unwrap() -= 1;
    }
    for (c, n) in per_code.iter().filter(|(_, n)| **n > 0) {
        assert!(more.contains(&format!("{c} {n}")), "{c} {n}: {more}");
    }
}

/// `ko-immediate.sgf` holds one error, the ko retake R404 (see
/// `explain_shows_the_ko_retake`): lowered to info, it no longer fails the
/// run and is counted as info; a level or code that does not exist is a
/// usage error.
#[test]
fn severity_overrides_change_level_and_exit_status() {
    let file = "corpus/rules/ko-immediate.sgf";
    let (code, _, _) = run(&["check", file, "-q"]);
    assert_eq!(code, 1);
    let (code, out, _) = run(&[
        "check",
        file,
        "-q",
        "--severity",
        "r404=info",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!((col("errors"), col("infos")), ("0", "1"));
    for bad in ["R404=fatal", "Z9=info", "R404"] {
        let (code, _, err) = run(&["check", file, "-q", "--severity", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
}

/// `--select` and `--ignore` read a code in any letter case, and a code
/// that no finding code starts with is a usage error naming it (exit 2,
/// nothing audited): a mistyped code in a CI job must not select nothing, or
/// leave nothing out, and pass. `ko-immediate.sgf`'s one error is R404 (see
/// `severity_overrides_change_level_and_exit_status`), so leaving out R4
/// passes the run. C604 is in docs/OUTPUT.md's table of retired codes.
#[test]
fn a_code_selects_in_any_case_and_a_code_of_nothing_is_refused() {
    let file = "corpus/rules/ko-immediate.sgf";
    let jsonl = |flag: &str, codes: &str| {
        let (code, out, err) = run(&["check", file, "-q", "--format", "jsonl", flag, codes]);
        assert_eq!(code, if flag == "--select" { 1 } else { 0 }, "{err}");
        out
    };
    let upper = jsonl("--select", "R404");
    assert!(upper.contains("\"code\":\"R404\""), "{upper}");
    assert_eq!(jsonl("--select", "r404"), upper);
    assert!(!jsonl("--ignore", "r4").contains("\"code\":\"R4"));
    // Leaving out a retired code is what was asked: nothing to leave out.
    let (code, ignored, err) = run(&[
        "check",
        file,
        "-q",
        "--format",
        "jsonl",
        "--ignore",
        "a506,C604",
    ]);
    let (_, all, _) = run(&["check", file, "-q", "--format", "jsonl"]);
    assert_eq!((code, ignored), (1, all), "{err}");
    for (flag, codes, says) in [
        ("--select", "R4O4", "`R4O4`: no finding code starts with it"),
        ("--ignore", "A5,Z9", "`Z9`: no finding code starts with it"),
        (
            "--select",
            "c604",
            "C604 (winner-differs) is a retired code",
        ),
        (
            "--severity",
            "A507=warning",
            "A507 (komi-unwritten) is a retired code",
        ),
        ("--select", "R4,", "expected a finding code"),
    ] {
        let (code, out, err) = run(&["check", file, "-q", flag, codes]);
        assert_eq!(code, 2, "{flag} {codes}: {err}");
        assert!(out.is_empty(), "{flag} {codes}: {out}");
        assert!(err.contains(says), "{flag} {codes}: {err}");
    }
}

/// The table of retired codes in docs/OUTPUT.md is the one the selection
/// refuses, and no retired code is reported again.
#[test]
fn retired_codes_are_the_documented_ones() {
    let doc = std::fs::read_to_string(root().join("docs/OUTPUT.md")).unwrap();
    let table = doc.split("### Retired codes").nth(1).unwrap();
    let rows: Vec<(String, String)> = table
        .lines()
        .skip_while(|l| !l.starts_with("| ---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect();
    let retired: Vec<(String, String)> = sgfaudit::core::findings::Code::RETIRED
        .iter()
        .map(|(id, name)| (id.to_string(), name.to_string()))
        .collect();
    assert_eq!(rows, retired);
    for (id, _) in &retired {
        assert!(sgfaudit::core::findings::Code::ALL
            .iter()
            .all(|c| c.id() != id));
    }
}

/// `--svg` draws the position after move 10 of `ko-immediate.sgf`: by hand,
/// Black D6 C5 D4 A9 (E5 was captured by the retake) and White E6 D5 F5 E4,
/// the move at D5 ringed; a file name with markup in it is escaped.
#[test]
fn explain_svg_draws_the_position_and_escapes_names() {
    let dir = common::scratch("explain-svg");
    let name = dir.join("<img src=x onerror=alert(1)>.sgf");
    std::fs::copy(root().join("corpus/rules/ko-immediate.sgf"), &name).unwrap();
    let svg = dir.join("ko.svg");
    let (code, _, err) = run(&[
        "explain",
        name.to_str().unwrap(),
        "--move",
        "10",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(text.trim_end().ends_with("</svg>"));
    // Stones are the circles of radius 11; territory squares are rects.
    let circles = |fill: &str| {
        text.lines()
            .filter(|l| l.starts_with("<circle") && l.contains("r=\"11\""))
            .filter(|l| l.contains(&format!("fill=\"{fill}\"")))
            .count()
    };
    assert_eq!((circles("#000"), circles("#fff")), (4, 4), "{text}");
    assert_eq!(text.matches("stroke-width=\"2\"").count(), 1, "one ring");
    assert!(!text.contains("<img"));
    assert!(text.contains("&lt;img src=x onerror=alert(1)&gt;.sgf"));
    let (code, _, _) = run(&[
        "explain",
        "corpus/rules/ko-immediate.sgf",
        "--svg",
        dir.join("no/such/dir.svg").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "a diagram that cannot be written is an error");
}

/// `explain` on every game of `corpus/`: each game that could be audited
/// is explained (exit 0, a board drawn), with and without `--move` at its
/// first finding at a move; each game that could not be audited gets a
/// message saying why (exit 2). Never a crash.
#[test]
fn explain_works_on_every_game_of_the_corpus() {
    let (_, rows) = common::jsonl(&["corpus/"]);
    assert!(rows.len() > 400);
    let mut explained = 0;
    for row in &rows {
        let file = row["file"].as_str().unwrap();
        if file.contains('!') || file.ends_with(".gz") || file.ends_with(".bz2") {
            continue; // explain reads plain files on disk
        }
        let game = row["game"].as_u64().unwrap().to_string();
        let (code, out, err) = run(&["explain", file, "--game", &game]);
        if row["status"] == "ok" {
            assert_eq!(code, 0, "{file} game {game}: {err}");
            assert!(
                out.contains("\n    A"),
                "{file} game {game}: no board in {out}"
            );
            explained += 1;
            let first_move = row["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|f| f["move"].as_u64())
                // Move 0 places a property finding before the first move.
                .find(|&m| m > 0);
            if let Some(m) = first_move {
                let m = m.to_string();
                let (code, out, err) = run(&["explain", file, "--game", &game, "--move", &m]);
                assert_eq!(code, 0, "{file} game {game} move {m}: {err}");
                assert!(out.contains("verdicts:"), "{out}");
            }
        } else {
            assert_eq!(code, 2, "{file} game {game}");
            assert!(err.starts_with("sgfaudit: "), "{file}: {err}");
        }
    }
    assert!(explained > 400, "{explained}");
}

/// SIGTERM (as Ctrl-C) ends a run with exit status 130, a summary that says
/// so, and every `--out` file complete for the games audited until then: a
/// games table with a row per game the summary counts, a whole HTML page,
/// Parquet files with their footer. The input (the bundled real records
/// named 60 times) takes seconds, and the signal comes after one.
#[cfg(unix)]
#[test]
fn an_interrupted_run_writes_complete_reports_of_what_it_audited() {
    let out = common::scratch("interrupted");
    let mut args: Vec<&str> = vec!["check", "-q", "-j1", "--parquet", "--out"];
    args.push(out.to_str().unwrap());
    args.extend(std::iter::repeat_n("corpus/real", 60));
    let child = bin()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let done = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr),
    );
    assert_eq!(done.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted; the reports hold what was audited"),
        "{stderr}"
    );
    assert!(stdout.starts_with("interrupted: "), "{stdout}");
    let games: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("games: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the summary counts the games");
    // Fewer than the whole input holds: 60 times the games of corpus/real.
    let real = root().join("corpus/real");
    let (_, once) = common::jsonl(&[real.to_str().unwrap()]);
    assert!(games > 0 && games < 60 * once.len() as u64, "{games}");
    let table = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(
        table.lines().count() as u64,
        games + 1,
        "a header and a row per game"
    );
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.ends_with("</html>\n"));
    for name in ["games", "findings", "divergences"] {
        let bytes = std::fs::read(out.join(format!("{name}.parquet"))).unwrap();
        assert!(
            bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"),
            "{name}"
        );
    }
}

/// A closed standard output (`| head`) is not an error: the run stops
/// early when nothing else reads it, and goes on to write the `--out` files
/// whole when they are asked for.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_ends_quietly_and_the_out_files_are_whole() {
    use std::io::BufRead;
    let real = root().join("corpus/real");
    let (_, rows) = common::jsonl(&[real.to_str().unwrap()]);
    let out = common::scratch("closed-stdout");
    for with_out in [false, true] {
        let mut args = vec!["check", "--format", "jsonl", "-q", "-j2"];
        args.extend(std::iter::repeat_n(
            "corpus/real",
            if with_out { 1 } else { 40 },
        ));
        if with_out {
            args.extend(["--out", out.to_str().unwrap()]);
        }
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("{\"file\":"), "{first}");
        // The reader is dropped here: standard output is closed.
        let done = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert!(matches!(done.status.code(), Some(0 | 1)), "{stderr}");
        assert!(stderr.is_empty(), "{stderr}");
    }
    let table = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(
        table.lines().count(),
        rows.len() + 1,
        "a header and a row per game"
    );
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.ends_with("</html>\n"));
}

/// A file name and a text taken from an input cannot steer the terminal or
/// the CI log: the summary, GitHub's annotations and `explain` print a colour
/// sequence in the name and a control character in the record as visible
/// escapes, and no other control character than the line feeds of their own
/// lines reaches standard output or standard error; `explain` takes a file's
/// or an archive entry's name as printed.
#[cfg(unix)]
#[test]
fn names_and_texts_from_inputs_are_printed_with_their_controls_escaped() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfaudit-controls");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // White plays on Black's A9 (R401), and a U+0001 stands between the nodes (S206).
    let file = dir.join("a\u{1b}[31mred.sgf");
    std::fs::write(&file, "(;GM[1]FF[4]SZ[9];B[aa];W[aa]\u{1};B[bb])").unwrap();
    // The escape byte written as names that are not UTF-8 write theirs.
    let shown = format!("{}/a\\x1B[31mred.sgf", dir.display());
    let clean = |s: &str| !s.chars().any(|c| c.is_control() && c != '\n');
    for format in ["summary", "github"] {
        let (code, out, err) = run(&["check", dir.to_str().unwrap(), "--format", format]);
        assert_eq!(code, 1, "{format}: {err}");
        assert!(out.contains(&shown), "{format}: {out}");
        assert!(clean(&out) && clean(&err), "{format}: {out:?} {err:?}");
    }
    // `explain` opens the file by the name the reports print.
    let (code, out, err) = run(&["explain", &shown]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("R401"), "{out}");
    assert!(out.contains("`\\x01` is not SGF"), "{out}");
    assert!(clean(&out) && clean(&err), "{out:?} {err:?}");
    // An archive entry's name likewise, and `explain` finds the entry by it.
    let tar = dir.join("games.tar");
    let game = "(;GM[1]FF[4]SZ[9];B[aa];W[aa])";
    let entry = "e\u{1b}[2Jx.sgf";
    std::fs::write(
        &tar,
        common::tar_of(&[(entry, game.as_bytes())], Vec::new()),
    )
    .unwrap();
    let shown = format!("{}!e\\x1B[2Jx.sgf", tar.display());
    let (code, out, err) = run(&["check", tar.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains(&shown) && clean(&out), "{out:?}");
    let (code, out, err) = run(&["explain", &shown]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("R401") && clean(&out), "{out:?}");
    let (code, _, err) = run(&["explain", &format!("{}/gone\u{1b}[2J.sgf", dir.display())]);
    assert_eq!(code, 2);
    assert!(err.contains("gone\\x1B[2J.sgf"), "{err}");
    assert!(clean(&err), "{err:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--format concise`: a line per finding, at the place its input's text
/// holds it. wrong-turn.sgf's third move, White's second in a row, is
/// `W[gc]` (its column found in the text); an empty file has no place; in a
/// collection the later game is named (from 0) and its move found in the
/// text too; a line break in a file's name stays inside its line.
#[test]
fn concise_lines_say_where_each_finding_is_written() {
    let text = std::fs::read_to_string(root().join("corpus/rules/wrong-turn.sgf")).unwrap();
    let column = text.find("W[gc]").unwrap() + 1;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfaudit-concise");
    std::fs::create_dir_all(&dir).unwrap();
    // Game 1 replays onto the point Black holds: an occupied point at move 2.
    let collection = "(;SZ[9];B[aa];W[bb])\n(;SZ[9];B[aa];W[aa])";
    let occupied = collection.rfind("W[aa]").unwrap() - collection.rfind('\n').unwrap();
    let name = dir.join("two\nlines.sgf");
    std::fs::write(&name, collection).unwrap();
    let (code, out, err) = run(&[
        "check",
        "corpus/rules/wrong-turn.sgf",
        "corpus/malformed/empty.sgf",
        name.to_str().unwrap(),
        "--format",
        "concise",
    ]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let wrong_turn =
        format!("corpus/rules/wrong-turn.sgf:1:{column}: error R406 wrong-turn at move 3: ");
    assert!(lines[0].starts_with(&wrong_turn), "{out}");
    assert!(
        lines[1].starts_with("corpus/malformed/empty.sgf: error F002 empty-file: "),
        "{out}"
    );
    let shown = name.to_str().unwrap().replace('\n', "\\x0A");
    let collection_line =
        format!("{shown}:2:{occupied}: error R401 occupied in game 1 at move 2: ");
    assert!(lines[2].starts_with(&collection_line), "{out}");
    assert_eq!(
        lines[3],
        "sgfaudit: 3 error(s), 0 warning(s), 0 info in 3 file(s), 4 game(s)"
    );
}

/// Every finding of the bundled corpus has its line, in the order and at the
/// place the JSONL rows give, with the same code and severity.
#[test]
fn concise_lists_every_finding_the_rows_hold() {
    let (_, rows, _) = run(&["check", "corpus", "--format", "jsonl", "-q"]);
    let (_, concise, _) = run(&["check", "corpus", "--format", "concise", "-q"]);
    let mut expected = Vec::new();
    for row in rows.lines() {
        let row: serde_json::Value = serde_json::from_str(row).unwrap();
        let file = row["file"].as_str().unwrap();
        for f in row["findings"].as_array().unwrap() {
            let at = match (f["line"].as_u64(), f["column"].as_u64()) {
                (Some(l), Some(c)) => format!("{file}:{l}:{c}: "),
                _ => format!("{file}: "),
            };
            expected.push(format!(
                "{at}{} {}",
                f["severity"].as_str().unwrap(),
                f["code"].as_str().unwrap()
            ));
        }
    }
    let lines: Vec<&str> = concise.lines().collect();
    assert_eq!(lines.len(), expected.len() + 1);
    for (line, start) in lines.iter().zip(&expected) {
        assert!(
            line.starts_with(&format!("{start} ")),
            "{line} against {start}"
        );
    }
    assert!(lines[expected.len()].starts_with("sgfaudit: "));
}

/// `--charset` reads a record that declares no encoding, and is not UTF-8,
/// in the encoding given: `PW[\xB0\xD7]` is `白` in GB2312's table, two bytes,
/// too few for a guess to rest on. `explain` takes the option too; a name of
/// no encoding is a usage error.
#[test]
fn a_charset_given_reads_the_records_that_declare_none() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sgfaudit-charset");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("white.sgf");
    std::fs::write(&file, b"(;GM[1]FF[4]SZ[9]PW[\xB0\xD7];B[ee];W[cc])").unwrap();
    let file = file.to_str().unwrap();
    let (code, out, _) = run(&["check", file, "--charset", "GB2312", "--format", "jsonl"]);
    assert_eq!(code, 0, "{out}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["encoding"], "GBK");
    assert_eq!(
        row["findings"][0]["message"],
        "no usable CA label and the bytes are not UTF-8; read as GBK, the charset given for such records"
    );
    let (code, out, _) = run(&["explain", file, "--charset", "cp936"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("read as GBK"), "{out}");
    let (code, _, err) = run(&["check", file, "--charset", "utf-7"]);
    assert_eq!(code, 2);
    assert!(err.contains("`utf-7` names no known encoding"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
