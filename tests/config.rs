//! `sgfaudit.toml`: found upwards from the current directory (or
//! `[tool.sgfaudit]` in `pyproject.toml`), flags on the command line win,
//! per-path overrides change the selection, and a bad file is an error
//! naming its file, line and key (exit 2).

mod common;

use std::path::Path;
use std::process::Command;

use common::{root, scratch};

fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run sgfaudit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A project with the ko retake twice: once among games, once in a folder
/// of test positions.
fn project(name: &str, config_name: &str, config: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("games/positions")).unwrap();
    let ko = root().join("corpus/rules/ko-immediate.sgf");
    std::fs::copy(&ko, dir.join("games/ko.sgf")).unwrap();
    std::fs::copy(&ko, dir.join("games/positions/ko.sgf")).unwrap();
    std::fs::write(dir.join(config_name), config).unwrap();
    dir
}

fn setting<'a>(shown: &'a str, key: &str) -> &'a str {
    shown
        .lines()
        .find(|l| l.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no {key} in {shown}"))
}

#[test]
fn settings_come_from_the_nearest_file_and_flags_win() {
    let dir = project(
        "config-precedence",
        "sgfaudit.toml",
        "# archive settings\ndead-stones = \"markup\"\nkomi = 6.5\nselect = [\"R4\", \"A5\"]\nglob = [\"!positions/**\"]\n",
    );
    // Found from a subdirectory.
    let (code, shown, err) = run_in(
        &dir.join("games"),
        &["check", ".", "--komi", "7", "--show-config"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(shown.contains("sgfaudit.toml"), "{shown}");
    assert!(setting(&shown, "dead-stones").contains("= \"markup\""));
    assert!(setting(&shown, "dead-stones").ends_with("sgfaudit.toml:2"));
    assert!(setting(&shown, "komi").contains("= 7 "));
    assert!(setting(&shown, "komi").ends_with("# command line"));
    assert!(setting(&shown, "select").contains("= [\"R4\", \"A5\"]"));
    assert!(setting(&shown, "score").ends_with("# default"));
    assert!(
        setting(&shown, "glob").ends_with("sgfaudit.toml:5"),
        "{shown}"
    );
    // --no-config leaves the file out.
    let (_, shown, _) = run_in(&dir, &["check", ".", "--no-config", "--show-config"]);
    assert!(
        setting(&shown, "dead-stones").contains("= \"auto\""),
        "{shown}"
    );
}

#[test]
fn pyproject_tool_table_is_read() {
    let dir = project(
        "config-pyproject",
        "pyproject.toml",
        "[project]\nname = \"games\"\n\n[tool.sgfaudit]\nfail-on = \"never\"\n",
    );
    let (code, shown, _) = run_in(&dir, &["check", "games", "--show-config"]);
    assert_eq!(code, 0);
    assert!(
        setting(&shown, "fail-on").ends_with("pyproject.toml:5"),
        "{shown}"
    );
    // fail-on = never: the ko retakes no longer fail the run.
    let (code, _, _) = run_in(&dir, &["check", "games", "-q"]);
    assert_eq!(code, 0);
}

#[test]
fn overrides_change_the_selection_of_matching_paths() {
    let dir = project(
        "config-overrides",
        "sgfaudit.toml",
        "[[overrides]]\npaths = [\"**/positions/**\"]\nignore = [\"R404\"]\n",
    );
    let (_, out, err) = run_in(&dir, &["check", "games", "-q", "--format", "jsonl"]);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{err}");
    for r in rows {
        let codes: Vec<&str> = r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap())
            .collect();
        let in_positions = r["file"].as_str().unwrap().contains("positions");
        assert_eq!(codes.contains(&"R404"), !in_positions, "{r}");
    }
}

/// An override's glob is matched against the path as reports name it and
/// against the path relative to the configuration file's directory, so a
/// glob written for the project holds however the run names the files: with
/// `./`, absolute, or from a subdirectory.
#[test]
fn an_override_holds_however_the_run_names_the_files() {
    let dir = project(
        "config-overrides-anchored",
        "sgfaudit.toml",
        "[[overrides]]\npaths = [\"games/positions/**\"]\nignore = [\"R404\"]\n",
    );
    // The files whose rows keep the ko retake (R404).
    let retakes = |cwd: &Path, arg: &str| -> Vec<String> {
        let (_, out, err) = run_in(cwd, &["check", arg, "-q", "--format", "jsonl"]);
        let rows: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l} {err}")))
            .collect();
        assert!(!rows.is_empty(), "{arg}: {err}");
        rows.iter()
            .filter(|r| r["findings"].to_string().contains("\"R404\""))
            .map(|r| r["file"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let absolute = dir.join("games");
    for arg in ["games", "./games", absolute.to_str().unwrap()] {
        let kept = retakes(&dir, arg);
        assert_eq!(kept.len(), 1, "{arg}: {kept:?}");
        assert!(kept[0].ends_with("games/ko.sgf"), "{arg}: {kept:?}");
    }
    // From inside games/, where reports name the file ./positions/ko.sgf.
    let inside = dir.join("games");
    assert_eq!(retakes(&inside, "."), vec!["./ko.sgf".to_string()]);
    assert!(retakes(&inside, "positions").is_empty());
}

/// A file a setting names is found beside the configuration, as a name in
/// it means, when the run starts in a subdirectory.
#[test]
fn files_the_configuration_names_are_beside_it() {
    let dir = project(
        "config-file-settings",
        "sgfaudit.toml",
        "baseline = \"known.json\"\nreport = [\"jsonl=audit.jsonl\"]\nout = \"audit\"\n",
    );
    std::fs::write(dir.join("known.json"), "[]").unwrap();
    let (code, _, err) = run_in(&dir.join("games"), &["check", ".", "-q"]);
    // The two ko retakes are errors (the baseline knows none): status 1.
    assert_eq!(code, 1, "{err}");
    let rows = std::fs::read_to_string(dir.join("audit.jsonl")).unwrap_or_default();
    assert_eq!(rows.lines().count(), 2, "{err}");
    assert!(dir.join("audit/games.csv").is_file(), "{err}");
    assert!(!dir.join("games/audit.jsonl").exists());
    assert!(!dir.join("games/audit").exists());
}

/// A baseline written from the project's root knows its findings however a
/// later run names the files: from inside `games/` (where reports name them
/// `./ko.sgf`), from outside the project, or by their absolute path. Without a
/// configuration there is no project to name them by: a run from `games/`
/// meets none of the findings, and says so.
#[test]
fn a_baseline_holds_however_the_run_names_the_files() {
    let dir = project(
        "config-baseline-names",
        "sgfaudit.toml",
        "baseline = \"known.json\"\n",
    );
    let (code, report, err) = run_in(
        &dir,
        &["check", "games", "--no-baseline", "--format", "gitlab"],
    );
    // The ko retake of each of the two files, an error.
    assert_eq!(code, 1, "{err}");
    std::fs::write(dir.join("known.json"), &report).unwrap();
    let games = dir.join("games");
    let absolute = games.to_str().unwrap();
    let outside = dir.parent().unwrap();
    let project = dir.file_name().unwrap().to_str().unwrap();
    let from_outside = format!("{project}/games");
    for (cwd, path) in [
        (&dir, "games"),
        (&dir, "./games"),
        (&dir, absolute),
        (&games, "."),
        (&games, "positions"),
        (&outside.to_path_buf(), from_outside.as_str()),
    ] {
        // From outside, the configuration is named (it is found only
        // upwards from the working directory).
        let config = dir.join("sgfaudit.toml");
        let (code, out, err) = run_in(
            cwd,
            &[
                "check",
                path,
                "--format",
                "jsonl",
                "--config",
                config.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{path} from {}: {err}", cwd.display());
        for line in out.lines() {
            let row: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(row["findings"], serde_json::json!([]), "{path}: {row}");
        }
    }
    let (code, _, err) = run_in(
        &games,
        &[
            "check",
            ".",
            "--no-config",
            "--baseline",
            "../known.json",
            "-q",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("none of the baseline's"), "{err}");
}

/// A list is the flag given once per item, as `-g a -g b` on the command
/// line: two globs read both folders, and a glob's own comma (`{a,b}`) stays
/// inside it. (`/ko.sgf` is anchored below the directory named; `ko.sgf`
/// alone would match that name at any depth, as in a .gitignore.)
#[test]
fn each_item_of_a_list_is_one_flag() {
    let dir = project(
        "config-lists",
        "sgfaudit.toml",
        "glob = [\"/ko.sgf\", \"positions/*.sgf\"]\n",
    );
    let ko = root().join("corpus/rules/ko-immediate.sgf");
    std::fs::create_dir_all(dir.join("games/other")).unwrap();
    std::fs::copy(&ko, dir.join("games/other/ko.sgf")).unwrap();
    let files = |dir: &Path| -> Vec<String> {
        let (code, out, err) = run_in(dir, &["check", "games", "-q", "--format", "jsonl"]);
        assert_eq!(code, 1, "{err}");
        let mut files: Vec<String> = out
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["file"].to_string())
            .collect();
        files.sort();
        files
    };
    // games/ko.sgf and games/positions/ko.sgf, not games/other/ko.sgf.
    assert_eq!(
        files(&dir),
        ["\"games/ko.sgf\"", "\"games/positions/ko.sgf\""]
    );
    std::fs::write(
        dir.join("sgfaudit.toml"),
        "glob = [\"{ko.sgf,other/*.sgf}\"]\n",
    )
    .unwrap();
    assert_eq!(files(&dir), ["\"games/ko.sgf\"", "\"games/other/ko.sgf\""]);
}

/// `--show-config` prints TOML a configuration file takes back: saved as
/// another project's `sgfaudit.toml`, it gives the same settings (a glob
/// holding a comma stays one item, a name holding a quote stays whole), and
/// an `[[overrides]]` header followed by a comment is found at its line.
#[test]
fn shown_configuration_is_a_configuration() {
    let dir = project(
        "config-shown",
        "sgfaudit.toml",
        "glob = [\"{ko.sgf,other/*.sgf}\", \"!x\"]\nkomi = 6.5\n\n\
         [[overrides]]  # test positions\npaths = [\"**/positions/**\"]\nignore = [\"R404\"]\n",
    );
    let without_sources = |shown: &str| -> Vec<String> {
        shown
            .lines()
            .filter(|l| !l.starts_with("# configuration:"))
            .map(|l| {
                l.split(" # ")
                    .next()
                    .unwrap_or_default()
                    .trim_end()
                    .to_string()
            })
            .collect()
    };
    let args = [
        "check",
        "games",
        "--show-config",
        "--html",
        "a \"b\".html",
        "--max-file-size",
        "1000",
    ];
    let (code, shown, err) = run_in(&dir, &args);
    assert_eq!(code, 0, "{err}");
    // A number is shown as one; a size with its unit, and any other text,
    // as a string.
    assert!(setting(&shown, "komi").contains("= 6.5 "), "{shown}");
    assert!(setting(&shown, "jobs").contains("= 0 "), "{shown}");
    assert!(
        setting(&shown, "max-file-size").contains("= 1000 "),
        "{shown}"
    );
    assert!(
        setting(&shown, "dead-stones").contains("= \"auto\" "),
        "{shown}"
    );
    assert!(
        setting(&shown, "glob").contains(r#"= ["{ko.sgf,other/*.sgf}", "!x"]"#),
        "{shown}"
    );
    assert!(
        setting(&shown, "html").contains(r#"= "a \"b\".html""#),
        "{shown}"
    );
    assert!(shown.contains("\n[[overrides]]"), "{shown}");
    assert!(
        shown.contains("sgfaudit.toml:4\npaths = [\"**/positions/**\"]\nignore = [\"R404\"]\n"),
        "{shown}"
    );

    let again = scratch("config-shown-again");
    std::fs::create_dir_all(&again).unwrap();
    std::fs::write(again.join("sgfaudit.toml"), &shown).unwrap();
    let (code, reread, err) = run_in(&again, &["check", "games", "--show-config"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(without_sources(&reread), without_sources(&shown));
    // Each setting now comes from the file, at its own line.
    let line = shown
        .lines()
        .position(|l| l.starts_with("komi = "))
        .expect("komi shown");
    assert!(
        setting(&reread, "komi").ends_with(&format!("sgfaudit.toml:{}", line + 1)),
        "{reread}"
    );
}

/// `explain` reads the configuration `check` reads, for the settings that
/// decide what an audit finds (the others, such as `format` and `jobs`, are
/// `check`'s alone), so it shows a game as `check` judged it. The record:
/// White retakes a ko at move 12, recreating a position made by its own pass;
/// AGA natural situational superko allows it, plain situational superko
/// forbids it (`corpus/rules/ko-natural-vs-situational.sgf`).
#[test]
fn explain_reads_the_settings_check_reads() {
    let dir = scratch("config-explain");
    std::fs::create_dir_all(dir.join("games/positions")).unwrap();
    let ko = root().join("corpus/rules/ko-natural-vs-situational.sgf");
    std::fs::copy(&ko, dir.join("games/ko.sgf")).unwrap();
    std::fs::copy(&ko, dir.join("games/positions/ko.sgf")).unwrap();
    std::fs::write(
        dir.join("sgfaudit.toml"),
        "format = \"jsonl\"\njobs = 1\naga-superko = \"situational\"\nseverity = [\"R404=warning\"]\n\
         [[overrides]]\npaths = [\"**/positions/**\"]\nignore = [\"R404\"]\n",
    )
    .unwrap();
    let aga = |out: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with("aga "))
            .unwrap_or_else(|| panic!("no aga verdict in {out}"))
            .to_string()
    };
    let explain = |args: &[&str]| {
        let mut all = vec!["explain", "--move", "12"];
        all.extend_from_slice(args);
        let (code, out, err) = run_in(&dir, &all);
        assert_eq!(code, 0, "{err}");
        aga(&out)
    };
    assert!(explain(&["games/ko.sgf"]).contains("ko (AGA rule 6; warning)"));
    assert!(explain(&["games/positions/ko.sgf"]).contains("not reported"));
    assert!(explain(&["games/ko.sgf", "--no-config"]).ends_with("legal"));
    assert!(explain(&["games/ko.sgf", "--aga-superko", "natural"]).ends_with("legal"));
    // check, in the same place, judges the move the same way.
    let (_, out, err) = run_in(&dir, &["check", "games/ko.sgf", "-q"]);
    let row: serde_json::Value =
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    assert_eq!(row["rulesets"]["aga"]["illegal"][0]["move"], 12, "{row}");
    assert_eq!(row["findings"][0]["severity"], "warning", "{row}");
}

#[test]
fn a_bad_configuration_names_file_line_and_key() {
    let cases = [
        ("dead-stones = \"maybe\"\n", "sgfaudit.toml:1: dead-stones:"),
        (
            "\n\ncolour = \"red\"\n",
            "sgfaudit.toml:3: colour: no such setting",
        ),
        (
            "quiet = \"yes\"\n",
            "sgfaudit.toml:1: quiet: expects true or false",
        ),
        ("komi = [\n", "sgfaudit.toml:"),
        (
            "[[overrides]]\npaths = [\"x/**\"]\nseverity = [\"Z9=info\"]\n",
            "sgfaudit.toml:3: overrides: severity:",
        ),
        (
            "[[overrides]]\npaths = [\"x/**\"]\nignore = [\"A5\", \"C6O1\"]\n",
            "sgfaudit.toml:3: overrides: ignore: `C6O1`: no finding code starts with it",
        ),
        (
            "jobs = 1\nselect = [\"R4\", \"Q1\"]\n",
            "sgfaudit.toml:2: select:",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let dir = project(&format!("config-bad-{i}"), "sgfaudit.toml", text);
        let (code, _, err) = run_in(&dir, &["check", "games", "-q"]);
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.contains(expected), "{text}: {err}");
    }
}

/// A baseline set in the configuration serves every run, and
/// `--no-baseline` sets it aside for the run that writes a new one: its
/// report holds every finding, the known ones too (the ko retake of each
/// of the two files, known by the baseline only for `games/ko.sgf`).
#[test]
fn no_baseline_sets_aside_the_configuration_s_baseline() {
    let dir = project("config-baseline", "sgfaudit.toml", "");
    let (_, report, err) = run_in(&dir, &["check", "games/ko.sgf", "--format", "gitlab"]);
    assert!(err.is_empty(), "{err}");
    std::fs::write(dir.join("base.json"), &report).unwrap();
    let known: Vec<serde_json::Value> = serde_json::from_str(&report).unwrap();
    assert!(!known.is_empty());
    std::fs::write(dir.join("sgfaudit.toml"), "baseline = \"base.json\"\n").unwrap();

    let issues = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut all = vec!["check", "games", "--format", "gitlab", "-q"];
        all.extend_from_slice(args);
        let (_, out, err) = run_in(&dir, &all);
        assert!(err.is_empty(), "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let with = issues(&[]);
    let without = issues(&["--no-baseline"]);
    assert_eq!(without.len(), 2 * known.len(), "{without:?}");
    assert_eq!(with.len(), known.len(), "{with:?}");
    assert!(with
        .iter()
        .all(|i| i["location"]["path"] == "games/positions/ko.sgf"));

    let (_, shown, _) = run_in(&dir, &["check", "games", "--no-baseline", "--show-config"]);
    assert!(setting(&shown, "no-baseline").ends_with("# command line"));
    assert!(!shown.contains("\nbaseline = "), "{shown}");
}

/// A negative komi (Black receives the points) is read from the file and
/// from the command line alike, not taken for a flag. The record counts
/// B+46 with KM[0] by its own comment (Black 48 points, White 2), so a
/// komi of -3.5 gives B+49.5.
#[test]
fn a_negative_komi_is_a_komi() {
    let dir = scratch("config-negative-komi");
    std::fs::create_dir_all(&dir).unwrap();
    let game = root().join("corpus/rules/count-point-to-fill.sgf");
    let game = game.to_str().unwrap();
    let japanese = |jsonl: &str| -> String {
        let row: serde_json::Value = serde_json::from_str(jsonl.trim()).unwrap();
        row["rulesets"]["japanese"]["score"]["result"]
            .as_str()
            .unwrap()
            .to_string()
    };
    std::fs::write(dir.join("sgfaudit.toml"), "komi = -3.5\n").unwrap();
    let (code, out, err) = run_in(&dir, &["check", game, "-q", "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(japanese(&out), "B+49.5");
    let (code, out, err) = run_in(
        &dir,
        &[
            "check",
            game,
            "-q",
            "--no-config",
            "--komi",
            "-3.5",
            "--format",
            "jsonl",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(japanese(&out), "B+49.5");
    let (code, out, err) = run_in(
        &dir,
        &["check", game, "-q", "--no-config", "--format", "jsonl"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(japanese(&out), "B+46");
}
