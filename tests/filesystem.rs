//! File-system faults: each is reported with its path and the run goes on.
#![cfg(unix)]

mod common;

use std::fs;
use std::os::unix::ffi::OsStrExt;

use common::{jsonl, row_ending, scratch};
use sgfaudit::audit::AuditOptions;
use sgfaudit::input::{Item, Source, Walk};
use sgfaudit::pipeline::audit_item;

const GAME: &str = "(;GM[1]SZ[9];B[ee];W[cc])";

#[test]
fn symlink_loops_are_reported_and_the_walk_goes_on() {
    let d = scratch("loop");
    fs::write(d.join("a.sgf"), GAME).unwrap();
    std::os::unix::fs::symlink(&d, d.join("back")).unwrap(); // points at an ancestor
    std::os::unix::fs::symlink(d.join("self.sgf"), d.join("self.sgf")).unwrap(); // points at itself
    let (code, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(code, 1);
    let files: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
    assert!(files.iter().any(|f| f.ends_with("/a.sgf")));
    let back = row_ending(&rows, "/back");
    assert_eq!(back["status"], "error");
    assert!(back["error"].as_str().unwrap().contains("symlink loop"));
    let me = row_ending(&rows, "/self.sgf");
    assert_eq!(me["findings"][0]["code"], "F001");
    // The summary tells the two apart: a directory that contains itself,
    // and a link that cannot be followed (here, to itself).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "-q"])
        .arg(&d)
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("could not be audited, symlink-loop: 1\n")
            && summary.contains("could not be audited, broken-link: 1\n"),
        "{summary}"
    );
    let _ = fs::remove_dir_all(&d);
}

/// A link to nothing is reported when it could have led to games (a game
/// file, an archive, a directory perhaps), with its target; a dangling link
/// named like a file the walk never reads is passed over as that file would
/// be, and does not fail the audit.
#[test]
fn dangling_links_are_reported_when_they_could_lead_to_games() {
    use std::os::unix::fs::symlink;
    let d = scratch("dangling");
    fs::write(d.join("a.sgf"), GAME).unwrap();
    symlink("../gone/LICENSE.txt", d.join("LICENSE.txt")).unwrap();
    symlink("notes.md", d.join("README")).unwrap();
    let (code, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "ok");

    symlink("gone.sgf", d.join("game.sgf")).unwrap();
    symlink("old/games.zip", d.join("archive")).unwrap();
    symlink("/nonexistent/games", d.join("games")).unwrap();
    let (code, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(code, 1);
    let error = |name: &str| {
        let row = row_ending(&rows, name);
        assert_eq!(row["findings"][0]["code"], "F001");
        row["error"].as_str().unwrap().to_string()
    };
    assert_eq!(
        error("/game.sgf"),
        "cannot follow the symbolic link to gone.sgf: it does not exist"
    );
    assert_eq!(
        error("/archive"),
        "cannot follow the symbolic link to old/games.zip: it does not exist"
    );
    assert_eq!(
        error("/games"),
        "cannot follow the symbolic link to /nonexistent/games: it does not exist"
    );
    assert_eq!(rows.len(), 4);
    // `explain` names the link's target too.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .arg("explain")
        .arg(d.join("game.sgf"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("game.sgf: cannot follow the symbolic link to gone.sgf: it does not exist"),
        "{err}"
    );
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn non_utf8_file_names_are_audited_and_named_losslessly() {
    let d = scratch("name");
    for name in [&b"caf\xe9.sgf"[..], b"\xff.sgf", b"\xfe.sgf"] {
        fs::write(d.join(std::ffi::OsStr::from_bytes(name)), GAME).unwrap();
    }
    let (code, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["status"] == "ok"));
    let names: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
    assert!(names[0].ends_with("caf\\xE9.sgf"), "{names:?}");
    // Two names that differ only in an invalid byte stay apart.
    assert!(names.iter().any(|n| n.ends_with("/\\xFE.sgf")), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("/\\xFF.sgf")), "{names:?}");
    let _ = fs::remove_dir_all(&d);
}

/// A name that is not UTF-8 can be named on the command line and in a
/// `--file-list` (as `find` prints it), each named as the walk names it.
#[test]
fn non_utf8_paths_are_read_from_the_command_line_and_a_file_list() {
    use std::os::unix::ffi::OsStringExt;
    let d = scratch("name-args");
    let path = |name: &[u8]| {
        let mut p = d.clone().into_os_string().into_vec();
        p.push(b'/');
        p.extend_from_slice(name);
        p
    };
    fs::write(std::ffi::OsStr::from_bytes(&path(b"\xff.sgf")), GAME).unwrap();
    let bad = std::ffi::OsString::from_vec(path(b"\xff.sgf"));
    let list = [
        path(b"\xff.sgf"),
        b"\r\n".to_vec(),
        path(b"gone-\xfe.sgf\r\n"),
    ]
    .concat();
    fs::write(
        d.join("list"),
        [&path(b"\xff.sgf")[..], b"\n", &list].concat(),
    )
    .unwrap();
    let run = |args: Vec<std::ffi::OsString>| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .args(["check", "--format", "csv", "-q"])
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let rows: Vec<String> = text
            .lines()
            .skip(1)
            .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
            .collect();
        (out.status.code(), rows)
    };
    let dir = d.to_str().unwrap();
    let ok = format!("{dir}/\\xFF.sgf,0,ok");
    assert_eq!(run(vec![bad]), (Some(0), vec![ok.clone()]));
    let (code, rows) = run(vec!["--file-list".into(), d.join("list").into_os_string()]);
    let gone = format!("{dir}/gone-\\xFE.sgf,0,error");
    assert_eq!((code, rows), (Some(1), vec![ok.clone(), ok, gone]));
    // `explain` opens it by its bytes or by the name reports print, also
    // as the entry of an archive whose own name is not UTF-8.
    let tar = std::ffi::OsString::from_vec(path(b"\xfe.tar"));
    fs::write(
        &tar,
        common::tar_of(&[("g.sgf", GAME.as_bytes())], Vec::new()),
    )
    .unwrap();
    let explain = |file: std::ffi::OsString| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .arg("explain")
            .arg(file)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        (
            out.status.code(),
            text.contains("the last position (2 moves)"),
        )
    };
    let printed = format!("{dir}/\\xFF.sgf");
    let entry = format!("{dir}/\\xFE.tar!g.sgf");
    for file in [path(b"\xff.sgf"), printed.into_bytes(), entry.into_bytes()] {
        let shown = String::from_utf8_lossy(&file).into_owned();
        assert_eq!(
            explain(std::ffi::OsString::from_vec(file)),
            (Some(0), true),
            "{shown}"
        );
    }
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn a_file_that_disappears_before_it_is_read_is_reported() {
    let d = scratch("gone");
    let p = d.join("gone.sgf");
    fs::write(&p, GAME).unwrap();
    let items: Vec<Item> = Walk::new(vec![d.to_string_lossy().into_owned()]).collect();
    assert_eq!(items.len(), 1);
    fs::remove_file(&p).unwrap();
    let r = audit_item(&items[0], &AuditOptions::default());
    assert_eq!(r.games[0].findings[0].code.id(), "F001");
    assert!(r.games[0].findings[0].message.contains("no such file"));
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn a_directory_where_a_file_was_expected() {
    let d = scratch("dir");
    // A directory named like a game file is walked, not read.
    fs::create_dir_all(d.join("x.sgf")).unwrap();
    fs::write(d.join("x.sgf/inner.sgf"), GAME).unwrap();
    let (_, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(rows.len(), 1);
    assert!(rows[0]["file"]
        .as_str()
        .unwrap()
        .ends_with("x.sgf/inner.sgf"));
    // A path that turned into a directory after the walk: reported, not fatal.
    let item = Item {
        name: "x.sgf".into(),
        source: Source::File(d.join("x.sgf"), 0),
    };
    let r = audit_item(&item, &AuditOptions::default());
    assert_eq!(r.games[0].findings[0].code.id(), "F001");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn unreadable_and_missing_paths_are_reported_and_others_audited() {
    let d = scratch("unreadable");
    fs::write(d.join("ok.sgf"), GAME).unwrap();
    // /proc/self/mem exists but cannot be read from the start: a real I/O error,
    // even for root (who reads files whatever their permission bits).
    let list = d.join("list.txt");
    fs::write(
        &list,
        format!(
            "{}\n/proc/self/mem\n{}\n",
            d.join("ok.sgf").display(),
            d.join("missing.sgf").display()
        ),
    )
    .unwrap();
    let (code, rows) = jsonl(&["--file-list", list.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(rows.len(), 3, "every input appears");
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[1]["findings"][0]["code"], "F001");
    assert_eq!(rows[2]["findings"][0]["code"], "F001");
    let _ = fs::remove_dir_all(&d);
}

/// A tar entry's name that is not UTF-8 is written as a file's is, with
/// `\xHH` escapes: two such names stay apart (they printed alike, as
/// U+FFFD, before).
#[test]
fn non_utf8_tar_entry_names_are_escaped_like_file_names() {
    let d = scratch("tar-names");
    let mut t = tar::Builder::new(Vec::new());
    for name in [&b"x\xff.sgf"[..], b"x\xfe.sgf"] {
        let mut h = tar::Header::new_gnu();
        h.set_size(GAME.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        let name = std::ffi::OsStr::from_bytes(name);
        t.append_data(&mut h, name, GAME.as_bytes()).unwrap();
    }
    let tar = d.join("names.tar");
    fs::write(&tar, t.into_inner().unwrap()).unwrap();
    let (code, rows) = jsonl(&[tar.to_str().unwrap()]);
    assert_eq!(code, 0);
    let names: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
    let t = tar.to_str().unwrap();
    assert_eq!(
        names,
        [format!("{t}!x\\xFF.sgf"), format!("{t}!x\\xFE.sgf")]
    );
    let _ = fs::remove_dir_all(&d);
}

/// A directory nested beyond the longest path the system takes cannot be
/// looked into: it is a row saying so, where the walk dropped it in silence
/// (and then called its ancestor empty).
#[test]
fn a_directory_too_deep_to_open_is_reported() {
    let d = scratch("deep");
    // Two chains of 1,100 levels of `d/`, each a path the system takes,
    // the second moved to the bottom of the first: 4,400 bytes and more
    // down to the game, beyond Linux's 4,096.
    let chain = "d/".repeat(1100);
    fs::create_dir_all(d.join("top").join(&chain)).unwrap();
    fs::create_dir_all(d.join("low").join(&chain)).unwrap();
    fs::write(d.join("low").join(&chain).join("g.sgf"), GAME).unwrap();
    fs::rename(d.join("low"), d.join("top").join(&chain).join("low")).unwrap();
    let (code, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let name = rows[0]["file"].as_str().unwrap();
    assert!(name.ends_with("/d"), "{name}");
    let error = rows[0]["error"].as_str().unwrap();
    assert!(error.starts_with("cannot open: "), "{error}");
    // Removed from the bottom up, each part by a path the system takes.
    let _ = fs::remove_dir_all(d.join("top").join(&chain).join("low"));
    let _ = fs::remove_dir_all(&d);
}

/// A list of paths each ended by a NUL byte (`find -print0`, `git ls-files
/// -z`) is read as such: names holding a line feed or ending in `\r` are
/// found whole.
#[test]
fn a_nul_separated_file_list_keeps_every_byte_of_its_paths() {
    let d = scratch("nul-list");
    let names = ["new\nline.sgf", "cr\r", "plain.sgf"];
    let mut list = Vec::new();
    for n in names {
        fs::write(d.join(n), GAME).unwrap();
        list.extend_from_slice(d.join(n).as_os_str().as_bytes());
        list.push(0);
    }
    fs::write(d.join("list"), list).unwrap();
    let (code, rows) = jsonl(&["--file-list", d.join("list").to_str().unwrap()]);
    assert_eq!(code, 0);
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["file"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    let want: Vec<String> = names
        .iter()
        .map(|n| d.join(n).to_str().unwrap().to_string())
        .collect();
    assert_eq!(
        got,
        want.iter().map(|n| (n.as_str(), "ok")).collect::<Vec<_>>()
    );
    let _ = fs::remove_dir_all(&d);
}

/// SARIF's `uri` and the HTML page's links to a file whose name is not
/// UTF-8 carry its own bytes, percent-encoded (`%FF`), so they lead to it;
/// they encoded the printed name (`%5CxFF`, a backslash and `xFF`) and the
/// lossy text (`%EF%BF%BD`, U+FFFD) instead.
#[test]
fn links_to_a_name_that_is_not_utf8_carry_its_bytes() {
    let d = scratch("name-links");
    // White plays on Black's stone: an error to link to.
    let game = "(;GM[1]SZ[9];B[ee];W[ee])";
    fs::write(d.join(std::ffi::OsStr::from_bytes(b"x\xff y.sgf")), game).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(&d)
        .args([
            "check",
            ".",
            "-q",
            "--format",
            "sarif",
            "--html",
            "page.html",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let uri = &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        assert_eq!(uri, "./x%FF%20y.sgf", "{r}");
    }
    let page = fs::read_to_string(d.join("page.html")).unwrap();
    let links: Vec<&str> = page
        .split("<a href=\"")
        .skip(1)
        .map(|l| l.split('"').next().unwrap())
        .filter(|h| !h.starts_with('#'))
        .collect();
    assert!(!links.is_empty());
    assert!(links.iter().all(|l| *l == "x%FF%20y.sgf"), "{links:?}");
    let _ = fs::remove_dir_all(&d);
}
