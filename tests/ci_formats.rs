//! The formats CI tools read: GitHub workflow commands and job summary,
//! SARIF, GitLab Code Quality.

mod common;

use std::process::Command;

use common::{jsonl, root, scratch};

/// `sgfaudit check --format FORMAT -q ARGS` from the project's root, with
/// `env` set (`None`: removed); its exit status and standard output.
fn check_as(
    format: &str,
    args: &[&str],
    env: &[(&str, Option<&std::path::Path>)],
) -> (i32, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sgfaudit"));
    c.args(["check", "--format", format, "-q"])
        .args(args)
        .current_dir(root());
    for &(name, value) in env {
        match value {
            Some(v) => c.env(name, v),
            None => c.env_remove(name),
        };
    }
    let out = c.output().expect("run sgfaudit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
    )
}

fn github(paths: &[&str], step_summary: Option<&std::path::Path>) -> (i32, String) {
    check_as("github", paths, &[("GITHUB_STEP_SUMMARY", step_summary)])
}

const LEVELS: [(&str, &str); 3] = [
    ("error", "::error "),
    ("warning", "::warning "),
    ("info", "::notice "),
];

/// Every finding is either annotated or counted in the closing line; at most
/// ten annotations per level; errors first, then warnings, then notices; the
/// job summary is appended, not written over.
#[test]
fn github_annotations_are_capped_ordered_and_complete() {
    let dir = scratch("github");
    let summary = dir.join("step.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let (code, out) = github(&["corpus/"], Some(&summary));
    let (jsonl_code, rows) = jsonl(&[root().join("corpus").to_str().unwrap()]);
    assert_eq!(code, jsonl_code, "same exit status as any format");

    let mut expected = [0u64; 3];
    for row in &rows {
        for f in row["findings"].as_array().unwrap() {
            let i = LEVELS
                .iter()
                .position(|(s, _)| f["severity"] == *s)
                .unwrap();
            expected[i] += 1;
        }
    }

    let lines: Vec<&str> = out.lines().collect();
    let level_of = |l: &str| LEVELS.iter().position(|(_, p)| l.starts_with(p));
    let annotated: Vec<usize> = lines.iter().filter_map(|l| level_of(l)).collect();
    assert!(
        annotated.windows(2).all(|w| w[0] <= w[1]),
        "errors, then warnings, then notices"
    );
    let last = lines.last().unwrap();
    let numbers: Vec<u64> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    for i in 0..3 {
        let shown = annotated.iter().filter(|&&a| a == i).count() as u64;
        assert_eq!(shown, expected[i].min(10), "{}", LEVELS[i].0);
        assert_eq!(
            shown + numbers[i],
            expected[i],
            "{}: shown plus left out is every finding ({last})",
            LEVELS[i].0
        );
    }
    assert_eq!(annotated.len() + 1, lines.len(), "nothing else on stdout");

    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("earlier step\n## sgfaudit\n"), "{md}");
    let games_row = md
        .lines()
        .find(|l| l.starts_with("| ") && l.chars().nth(2).unwrap().is_ascii_digit())
        .expect("the counts row");
    let cells: Vec<&str> = games_row.split('|').map(str::trim).collect();
    assert_eq!(cells[3], rows.len().to_string(), "games: {games_row}");
}

/// A file name and a record value holding a newline and `::error::` make no
/// annotation of their own: the one real finding is one escaped line.
#[test]
fn record_text_and_file_names_cannot_forge_annotations() {
    let dir = scratch("github-forge");
    let name = "bad\n::error::forged.sgf";
    std::fs::write(
        dir.join(name),
        "(;GM[1]FF[4]SZ[9\n::error file=x.sgf::forged]KM[0];B[ee];W[])",
    )
    .unwrap();
    let (code, out) = github(&[dir.to_str().unwrap()], None);
    assert_eq!(code, 1, "SZ is not a size: an error");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("::error file="), "{out}");
    assert!(
        lines[0].contains("bad%0A%3A%3Aerror%3A%3Aforged.sgf,"),
        "{out}"
    );
    assert!(
        lines[0].contains("SZ[9%0A::error file=x.sgf::forged]"),
        "{out}"
    );
}

fn sarif(paths: &[&str]) -> (i32, String) {
    check_as("sarif", paths, &[])
}

/// One SARIF result per finding of the JSONL output, in the same order, with
/// the same code, level and (for syntax findings) line and column; each
/// result's rule index names its rule, and its partial fingerprint is the
/// fingerprint the GitLab report gives the same finding.
#[test]
fn sarif_holds_every_finding_once() {
    let (code, out) = sarif(&["corpus/"]);
    let (_, issues) = gitlab(&["corpus/"]);
    let (jsonl_code, rows) = jsonl(&[root().join("corpus").to_str().unwrap()]);
    assert_eq!(code, jsonl_code);
    let log: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    let findings: Vec<&serde_json::Value> = rows
        .iter()
        .flat_map(|r| r["findings"].as_array().unwrap())
        .collect();
    assert_eq!(results.len(), findings.len());
    assert_eq!(results.len(), issues.len());
    for ((r, f), issue) in results.iter().zip(&findings).zip(&issues) {
        assert_eq!(r["ruleId"], f["code"]);
        assert_eq!(
            r["partialFingerprints"]["sgfauditFinding/v1"],
            issue["fingerprint"]
        );
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], f["code"]);
        let level = match f["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(r["level"], level);
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region["startLine"], f["line"]);
        assert_eq!(region["startColumn"], f["column"]);
    }
}

/// The log validates against the SARIF 2.1.0 JSON schema (OASIS; the copy in
/// `tests/data` is the one the serde-sarif 0.8.0 crate ships), checked with
/// Python's `jsonschema` (`pip install jsonschema`).
#[test]
fn sarif_validates_against_the_schema() {
    let has_validator = Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_validator {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipping: python3 with jsonschema is absent (pip install jsonschema)"
        );
        return;
    }
    let dir = scratch("sarif");
    let (_, out) = sarif(&["corpus/"]);
    let log = dir.join("corpus.sarif");
    std::fs::write(&log, out).unwrap();
    let check = Command::new("python3")
        .args([
            "-c",
            "import json, sys, jsonschema\n\
             schema = json.load(open(sys.argv[1]))\n\
             errors = list(jsonschema.Draft7Validator(schema).iter_errors(json.load(open(sys.argv[2]))))\n\
             for e in errors[:5]: print(list(e.absolute_path), e.message[:300])\n\
             sys.exit(1 if errors else 0)",
        ])
        .arg(root().join("tests/data/sarif-schema-2.1.0.json"))
        .arg(&log)
        .output()
        .expect("run python3");
    assert!(
        check.status.success(),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}

/// Outside a GitLab job (`CI_PROJECT_DIR` removed).
fn gitlab(args: &[&str]) -> (i32, Vec<serde_json::Value>) {
    gitlab_in_job(args, None)
}

/// In a GitLab job whose checkout is `project_dir`, or outside one.
fn gitlab_in_job(
    args: &[&str],
    project_dir: Option<&std::path::Path>,
) -> (i32, Vec<serde_json::Value>) {
    let (code, out) = check_as("gitlab", args, &[("CI_PROJECT_DIR", project_dir)]);
    let issues: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    (code, issues.as_array().expect("a JSON array").clone())
}

/// One GitLab Code Quality issue per finding of the JSONL output, in the
/// same order: the code as check name, GitLab's severity for the finding's
/// (error major, warning minor, info info), the file (an archive entry's
/// archive) and line, a description that names the code, the message and
/// the game; a fingerprint of 32 hex digits for each, no two alike.
#[test]
fn gitlab_code_quality_holds_every_finding_once() {
    let (code, issues) = gitlab(&["corpus/"]);
    let (jsonl_code, rows) = jsonl(&[root().join("corpus").to_str().unwrap()]);
    assert_eq!(code, jsonl_code);
    let prefix = format!("{}/", root().display());
    let findings: Vec<(&serde_json::Value, &serde_json::Value)> = rows
        .iter()
        .flat_map(|r| {
            r["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |f| (r, f))
        })
        .collect();
    assert_eq!(issues.len(), findings.len());
    assert!(issues.len() > 100, "{}", issues.len());
    let mut fingerprints = std::collections::HashSet::new();
    for (issue, (row, f)) in issues.iter().zip(&findings) {
        assert_eq!(issue["check_name"], f["code"]);
        let severity = match f["severity"].as_str().unwrap() {
            "error" => "major",
            "warning" => "minor",
            _ => "info",
        };
        assert_eq!(issue["severity"], severity, "{issue}");
        // corpus/ holds no archive: every path is the file's.
        let file = row["file"].as_str().unwrap().strip_prefix(&prefix).unwrap();
        assert_eq!(issue["location"]["path"], file, "{issue}");
        let line = f["line"].as_u64().unwrap_or(1);
        assert_eq!(issue["location"]["lines"]["begin"], line, "{issue}");
        let text = issue["description"].as_str().unwrap();
        let head = format!(
            "{} {}: {}",
            f["code"].as_str().unwrap(),
            f["name"].as_str().unwrap(),
            f["message"].as_str().unwrap().replace(&prefix, "")
        );
        assert!(text.starts_with(&head), "{text}");
        assert!(text.contains(&format!("game {}", row["game"])), "{text}");
        let print = issue["fingerprint"].as_str().unwrap();
        assert!(
            print.len() == 32 && print.bytes().all(|b| b.is_ascii_hexdigit()),
            "{print}"
        );
        assert!(fingerprints.insert(print.to_string()), "twice: {issue}");
    }
}

/// A fingerprint names its finding whatever else the run holds and however
/// the path is written: the findings of one directory audited alone, as
/// `./DIR`, carry the fingerprints they carry in a run over all of corpus/,
/// so GitLab tells a new finding from one already there. A run with no
/// finding is an empty array.
#[test]
fn gitlab_fingerprints_do_not_depend_on_the_rest_of_the_run() {
    let (_, all) = gitlab(&["corpus/", "-j2"]);
    let (_, alone) = gitlab(&["./corpus/rules", "-j1"]);
    let of = |issues: &[serde_json::Value]| -> Vec<(String, String)> {
        issues
            .iter()
            .filter(|i| {
                i["location"]["path"]
                    .as_str()
                    .unwrap()
                    .starts_with("corpus/rules/")
            })
            .map(|i| (i["fingerprint"].to_string(), i["description"].to_string()))
            .collect()
    };
    assert!(!of(&alone).is_empty());
    assert_eq!(of(&alone).len(), alone.len(), "paths lose their ./");
    assert_eq!(of(&all), of(&alone));
    let (code, none) = gitlab(&["corpus/rules", "--select", "X"]);
    assert_eq!((code, none.len()), (0, 0));
}

/// A finding in an archive entry points at the archive, the only file in
/// the repository, and its description names the entry; its line and
/// column, which are the entry's (JSONL has them), are not given as the
/// archive's: GitLab's line is 1, SARIF has no region, GitHub no line.
#[test]
fn ci_formats_point_an_archive_entry_at_its_archive() {
    use std::io::Write as _;
    let dir = scratch("gitlab-zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(dir.join("games.zip")).unwrap());
    zip.start_file("2019/ko.sgf", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(&std::fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap())
        .unwrap();
    zip.finish().unwrap();
    let (_, issues) = gitlab(&[dir.join("games.zip").to_str().unwrap()]);
    let (_, plain) = gitlab(&["corpus/rules/ko-immediate.sgf"]);
    assert_eq!(issues.len(), plain.len());
    assert!(!issues.is_empty());
    let archive = dir.join("games.zip");
    for i in &issues {
        assert_eq!(i["location"]["path"], archive.to_str().unwrap(), "{i}");
        let text = i["description"].as_str().unwrap();
        assert!(text.contains("(entry 2019/ko.sgf, game 0"), "{text}");
    }
    for i in &issues {
        assert_eq!(i["location"]["lines"]["begin"], 1, "{i}");
    }
    let zip = archive.to_str().unwrap();
    let (_, rows) = jsonl(&[zip]);
    assert!(
        rows[0]["findings"][0]["line"].is_u64(),
        "placed in the entry"
    );
    let (_, log) = sarif(&[zip]);
    let log: serde_json::Value = serde_json::from_str(&log).unwrap();
    for r in log["runs"][0]["results"].as_array().unwrap() {
        assert!(
            r["locations"][0]["physicalLocation"]
                .get("region")
                .is_none(),
            "{r}"
        );
    }
    let (_, annotations) = github(&[zip], None);
    assert!(annotations.starts_with("::error file="), "{annotations}");
    assert!(!annotations.contains(",line="), "{annotations}");
}

/// An input named by its absolute path (a CI job's `$GITHUB_WORKSPACE/games`)
/// is linked where the CI tools look for it: SARIF writes a `file` URI,
/// which GitHub's upload makes relative to the checkout (a bare `/path` is
/// no absolute URI), and GitLab, whose widget wants a path in the
/// repository, the path below the job's checkout, `CI_PROJECT_DIR` (and so
/// does JUnit's `file`, which GitLab's test report links).
#[test]
fn ci_formats_link_an_input_named_by_its_absolute_path() {
    let file = root().join("corpus/rules/occupied.sgf");
    let file = file.to_str().expect("a UTF-8 path");
    let (_, out) = sarif(&[file]);
    let log: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    let uri = location["artifactLocation"]["uri"]
        .as_str()
        .unwrap_or_default();
    assert!(uri.starts_with("file:///"), "{uri}");
    assert!(uri.ends_with("/corpus/rules/occupied.sgf"), "{uri}");
    let (_, issues) = gitlab_in_job(&[file], Some(&root()));
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0]["location"]["path"], "corpus/rules/occupied.sgf");
    // JUnit's `file`, which GitLab's test report links too.
    let (_, xml) = check_as("junit", &[file], &[("CI_PROJECT_DIR", Some(&root()))]);
    assert!(xml.contains(" file=\"corpus/rules/occupied.sgf\""), "{xml}");
    // Outside a job, the path as given.
    let (_, issues) = gitlab(&[file]);
    assert_eq!(issues[0]["location"]["path"], file);
    let (_, xml) = junit(&[file]);
    assert!(xml.contains(&format!(" file=\"{file}\"")), "{xml}");
}

/// Outside a GitLab job (`CI_PROJECT_DIR` removed).
fn junit(args: &[&str]) -> (i32, String) {
    check_as("junit", args, &[("CI_PROJECT_DIR", None)])
}

/// JUnit XML: one test suite per input and one test case per game of the
/// JSONL output, in the same order. A game fails when it has a finding at
/// or above `--fail-on` (error by default), so the failed cases are the
/// games that make the exit status 1; a game that could not be audited is
/// an error; each case lists its game's findings, one line each.
#[test]
fn junit_has_a_case_per_game_failing_at_fail_on() {
    let (_, rows) = jsonl(&[root().join("corpus").to_str().unwrap()]);
    let prefix = format!("{}/", root().display());
    for (fail_on, at_least) in [
        ("error", &["error"][..]),
        ("warning", &["error", "warning"]),
    ] {
        let (code, xml) = junit(&["corpus/", "--fail-on", fail_on]);
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}"));
        let root_el = doc.root_element();
        assert_eq!(root_el.tag_name().name(), "testsuites");
        let suites: Vec<roxmltree::Node> = root_el.children().filter(|n| n.is_element()).collect();
        let mut files: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
        files.dedup();
        assert_eq!(suites.len(), files.len());
        let cases: Vec<roxmltree::Node> = suites
            .iter()
            .flat_map(|s| s.children().filter(|n| n.has_tag_name("testcase")))
            .collect();
        assert_eq!(cases.len(), rows.len());
        let mut failed = 0;
        // Per input, in order: games, failures, errors, skipped, as the rows say.
        let mut expected_counts: Vec<(&str, [usize; 4])> = Vec::new();
        for (case, row) in cases.iter().zip(&rows) {
            let file = row["file"].as_str().unwrap().strip_prefix(&prefix).unwrap();
            assert_eq!(case.attribute("classname"), Some(file));
            assert_eq!(
                case.attribute("name"),
                Some(&*format!("game {}", row["game"]))
            );
            // The line the game's tree starts on in the file (none without a tree).
            let line = row["start"]["line"].as_u64().map(|l| l.to_string());
            assert_eq!(case.attribute("line"), line.as_deref());
            let findings = row["findings"].as_array().unwrap();
            let fails = findings
                .iter()
                .any(|f| at_least.contains(&f["severity"].as_str().unwrap()));
            let outcome = case.children().find(|n| n.is_element());
            let kind = outcome.map(|n| n.tag_name().name());
            // Not audited on purpose: an input of a kind not read (F004), a
            // rectangular board (P309).
            let on_purpose = findings
                .iter()
                .any(|f| ["F004", "P309"].contains(&f["code"].as_str().unwrap()));
            let expected = if row["status"] == "error" && on_purpose && !fails {
                Some("skipped")
            } else if row["status"] == "error" {
                Some("error")
            } else if fails {
                Some("failure")
            } else if !findings.is_empty() {
                Some("system-out")
            } else {
                None
            };
            assert_eq!(kind, expected, "{row}");
            failed += usize::from(kind == Some("failure") || kind == Some("error"));
            if expected_counts.last().map(|c| c.0) != row["file"].as_str() {
                expected_counts.push((row["file"].as_str().unwrap(), [0; 4]));
            }
            let counts = &mut expected_counts.last_mut().unwrap().1;
            counts[0] += 1;
            match expected {
                Some("failure") => counts[1] += 1,
                Some("error") => counts[2] += 1,
                Some("skipped") => counts[3] += 1,
                _ => {}
            }
            // An error's type is the code of the finding that gives its reason.
            if expected == Some("error") {
                let reason = findings
                    .iter()
                    .find(|f| f["message"] == row["error"])
                    .unwrap_or_else(|| panic!("no finding gives the reason: {row}"));
                assert_eq!(outcome.unwrap().attribute("type"), reason["code"].as_str());
            }
            if let Some(n) = outcome.filter(|_| kind != Some("skipped")) {
                let text = n.text().unwrap_or("");
                assert_eq!(text.lines().count(), findings.len(), "{text}");
                for (line, f) in text.lines().zip(findings) {
                    let head = format!(
                        "{} {} [{}]",
                        f["code"].as_str().unwrap(),
                        f["name"].as_str().unwrap(),
                        f["severity"].as_str().unwrap()
                    );
                    assert!(line.starts_with(&head), "{line}");
                }
            }
        }
        assert!(failed > 0);
        assert_eq!(code, 1, "failed cases, exit status 1");
        // Each suite counts its cases by outcome (Jenkins' xUnit plugin
        // requires tests, failures and errors).
        assert_eq!(suites.len(), expected_counts.len());
        for (suite, (file, counts)) in suites.iter().zip(&expected_counts) {
            let got = ["tests", "failures", "errors", "skipped"].map(|a| {
                suite
                    .attribute(a)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(usize::MAX)
            });
            assert_eq!(got, *counts, "{file}");
        }
    }
    // Nothing fails under --fail-on never.
    let (code, xml) = junit(&["corpus/rules", "--fail-on", "never"]);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert!(doc.descendants().all(|n| !n.has_tag_name("failure")));
    assert_eq!(code, 0);
}

/// A collection whose test cases pass the bytes a suite holds is written as
/// several suites of the same name, each counting its own cases, so the
/// report's memory does not grow with the collection: every game is a case
/// once, in order.
#[test]
fn a_large_collection_is_several_junit_suites_each_with_its_counts() {
    let dir = scratch("junit-large");
    // Each game plays two black moves in a row: an error (R406), a failed case.
    let games = 6_000;
    let text: String = (0..games)
        .map(|_| "(;GM[1]FF[4]SZ[9];B[aa];B[bb])\n")
        .collect();
    let path = dir.join("many.sgf");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let (code, xml) = junit(&[path]);
    assert_eq!(code, 1);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert!(suites.len() > 1, "{} suite(s)", suites.len());
    let mut next = 0;
    for suite in &suites {
        assert_eq!(suite.attribute("name"), Some(path));
        let cases: Vec<roxmltree::Node> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        for case in &cases {
            assert_eq!(case.attribute("name"), Some(&*format!("game {next}")));
            assert!(case.children().any(|n| n.has_tag_name("failure")));
            next += 1;
        }
        let n = cases.len().to_string();
        assert_eq!(suite.attribute("tests"), Some(&*n));
        assert_eq!(suite.attribute("failures"), Some(&*n));
        assert_eq!(suite.attribute("errors"), Some("0"));
    }
    assert_eq!(next, games);
}

/// A file name and record text holding XML's markup characters, a closing
/// tag and control characters leave the report well-formed: the suite is
/// named by the file's name as given (its tab and line feed too, which an
/// attribute would otherwise read back as spaces), the finding quotes the
/// text.
#[test]
fn record_text_and_file_names_cannot_break_the_junit_xml() {
    let dir = scratch("junit-forge");
    let name = "a&<b>\"c'\t\n.sgf";
    std::fs::write(
        dir.join(name),
        "(;GM[1]FF[4]SZ[9</testcase>\u{1}&]KM[0];B[ee];W[])",
    )
    .unwrap();
    let path = dir.join(name);
    let (code, xml) = junit(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "SZ is not a size: an error");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    let suite = doc
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .unwrap();
    assert_eq!(suite.attribute("name"), path.to_str());
    let error = doc.descendants().find(|n| n.has_tag_name("error")).unwrap();
    let text = error.text().unwrap();
    assert!(text.contains("SZ[9</testcase>\u{FFFD}&]"), "{text}");
}

/// An archive entry skipped on purpose (a `.rar` inside a zip, F004, a
/// warning) is a skipped test case, and an error under `--fail-on
/// warning`, where it makes the exit status 1; the game beside it is a
/// case of its own suite, named as the other formats name the entry.
#[test]
fn a_skipped_entry_is_a_skipped_junit_case_unless_it_fails() {
    use std::io::Write as _;
    let dir = scratch("junit-skipped");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(dir.join("games.zip")).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    zip.start_file("ko.sgf", opts).unwrap();
    zip.write_all(&std::fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap())
        .unwrap();
    zip.start_file("old.rar", opts).unwrap();
    zip.write_all(b"Rar!").unwrap();
    zip.finish().unwrap();
    let archive = dir.join("games.zip");
    let archive = archive.to_str().unwrap();
    for (fail_on, outcome) in [("error", "skipped"), ("warning", "error")] {
        let (_, xml) = junit(&[archive, "--fail-on", fail_on]);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let suites: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .map(|n| n.attribute("name").unwrap())
            .collect();
        assert_eq!(
            suites,
            [format!("{archive}!ko.sgf"), format!("{archive}!old.rar")]
        );
        let rar = doc
            .descendants()
            .find(|n| n.attribute("classname") == Some(&*format!("{archive}!old.rar")))
            .unwrap();
        assert_eq!(rar.attribute("file"), Some(archive));
        // A line in an entry's text is no line of the archive on disk.
        let ko = doc
            .descendants()
            .find(|n| n.attribute("classname") == Some(&*format!("{archive}!ko.sgf")))
            .unwrap();
        assert_eq!(ko.attribute("line"), None);
        let got = rar.children().find(|n| n.is_element()).unwrap();
        assert_eq!(got.tag_name().name(), outcome, "--fail-on {fail_on}");
    }
}

/// A game on a rectangular board (`SZ[19:13]`, valid SGF; KataGo's
/// self-play writes such games) is not replayed: a warning (P309) says so,
/// so by default the run exits 0 and the JUnit case is skipped; under
/// `--fail-on warning` the run exits 1 and the case is an error.
#[test]
fn a_rectangular_board_is_a_warning_and_a_skipped_case() {
    let file = "corpus/malformed/size-19x13.sgf";
    for (fail_on, status, outcome) in [("error", 0, "skipped"), ("warning", 1, "error")] {
        let (code, xml) = junit(&[file, "--fail-on", fail_on]);
        assert_eq!(code, status, "--fail-on {fail_on}");
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let case = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap();
        let got = case.children().find(|n| n.is_element()).unwrap();
        assert_eq!(got.tag_name().name(), outcome, "--fail-on {fail_on}");
        assert!(
            got.attribute("message")
                .unwrap()
                .contains("rectangular boards are not supported"),
            "{xml}"
        );
    }
    let (_, rows) = jsonl(&[file]);
    let codes: Vec<(&str, &str)> = rows[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["code"].as_str().unwrap(), f["severity"].as_str().unwrap()))
        .collect();
    assert_eq!(codes, [("P309", "warning")]);
    assert_eq!(rows[0]["status"], "error", "not audited");
}

/// `sgfaudit check -q ARGS` run in `dir`: exit status, standard output and
/// standard error.
fn check_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "-q"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sgfaudit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
        String::from_utf8(out.stderr).expect("UTF-8 errors"),
    )
}

/// `--baseline` takes a GitLab report of an earlier run as the findings
/// already known: they are left out of every output and of the exit status,
/// so the run fails only on a new finding (an illegal move written here by
/// hand), and the summary counts the known findings left out and those no
/// longer found (the two of a file taken away). A baseline written for
/// `games` serves a run over `./games`; a run that names the directory by
/// its absolute path meets none of its findings, and says why.
#[test]
fn a_baseline_fails_a_run_only_on_new_findings() {
    let dir = scratch("baseline");
    let games = dir.join("games");
    std::fs::create_dir(&games).unwrap();
    for entry in std::fs::read_dir(root().join("corpus/rules")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, games.join(path.file_name().unwrap())).unwrap();
    }
    let (code, report, _) = check_in(&dir, &["games", "--format", "gitlab"]);
    assert_eq!(code, 1, "corpus/rules holds illegal moves");
    std::fs::write(dir.join("base.json"), &report).unwrap();
    let issues: Vec<serde_json::Value> = serde_json::from_str(&report).unwrap();
    let known = issues.len();
    assert!(known > 10, "{known}");

    let (code, rows, _) = check_in(
        &dir,
        &["./games", "--baseline", "base.json", "--format", "jsonl"],
    );
    assert_eq!(code, 0);
    let (_, all, _) = check_in(&dir, &["games", "--format", "jsonl"]);
    assert_eq!(
        rows.lines().count(),
        all.lines().count(),
        "every game has its row"
    );
    for row in rows.lines() {
        let row: serde_json::Value = serde_json::from_str(row).unwrap();
        assert_eq!(row["findings"], serde_json::json!([]), "{row}");
    }
    let (_, summary, err) = check_in(&dir, &["games", "--baseline", "base.json"]);
    assert!(summary.contains("findings: 0 error(s), 0 warning(s), 0 info\n"));
    assert_eq!(err, "");
    // Named otherwise, every finding is another: the run says why.
    let absolute = games.to_str().unwrap();
    let (code, _, err) = check_in(&dir, &[absolute, "--baseline", "base.json"]);
    assert_eq!(code, 1);
    let why = format!("none of the baseline's {known} findings was found");
    assert!(
        err.contains(&why) && err.contains("(such as games/"),
        "{err}"
    );
    let line = format!("--baseline: {known} known finding(s) left out; 0 of its {known} no");
    assert!(summary.contains(&line), "{summary}");

    // White plays on Black's stone: an error the baseline does not hold.
    std::fs::write(
        games.join("zz-new.sgf"),
        "(;GM[1]FF[4]SZ[9]RU[Japanese];B[cc];W[cc])",
    )
    .unwrap();
    let gone = "games/suicide-single.sgf";
    let of_gone = issues
        .iter()
        .filter(|i| i["location"]["path"] == gone)
        .count();
    assert_eq!(of_gone, 2);
    std::fs::remove_file(dir.join(gone)).unwrap();
    let args = ["games", "--baseline", "base.json", "--format", "jsonl"];
    let (code, rows, _) = check_in(&dir, &args);
    assert_eq!(code, 1);
    let new: Vec<(String, serde_json::Value)> = rows
        .lines()
        .map(|r| serde_json::from_str::<serde_json::Value>(r).unwrap())
        .flat_map(|r| {
            let file = r["file"].as_str().unwrap().to_string();
            let findings = r["findings"].as_array().unwrap().clone();
            findings.into_iter().map(move |f| (file.clone(), f))
        })
        .collect();
    assert!(
        new.iter().all(|(file, _)| file == "games/zz-new.sgf"),
        "{new:?}"
    );
    assert!(
        new.iter()
            .any(|(_, f)| f["code"] == "R401" && f["move"] == 2 && f["severity"] == "error"),
        "{new:?}"
    );
    let (_, summary, _) = check_in(&dir, &["games", "--baseline", "base.json"]);
    let line = format!(
        "--baseline: {} known finding(s) left out; {of_gone} of its {known} no longer found",
        known - of_gone
    );
    assert!(summary.contains(&line), "{summary}");
}

/// A baseline that is not a report stops the run before anything is
/// written: exit status 2, and the message names the file and the place.
#[test]
fn a_baseline_that_is_not_a_report_stops_the_run() {
    let dir = scratch("baseline-bad");
    std::fs::write(dir.join("bad.json"), "[{\"fingerprint\": \"not hex\"}]").unwrap();
    let rules = root().join("corpus/rules");
    for baseline in ["bad.json", "missing.json"] {
        let args = [rules.to_str().unwrap(), "--baseline", baseline];
        let (code, out, err) = check_in(&dir, &args);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.contains(&format!("the baseline {baseline}: ")), "{err}");
    }
    let (_, _, err) = check_in(&dir, &[rules.to_str().unwrap(), "--baseline", "bad.json"]);
    assert!(
        err.contains("is not 32 hex digits at line 1 column"),
        "{err}"
    );
}

/// The names in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `--report FORMAT=FILE` takes FILE as any path, as `--html` does: a name
/// that is not UTF-8 is written as it is given, byte for byte what
/// `--format` prints.
#[cfg(unix)]
#[test]
fn a_report_file_name_need_not_be_utf8() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let dir = scratch("report-bytes");
    let rules = root().join("corpus/rules");
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "-q", "--report"])
        .arg(OsString::from_vec(b"jsonl=r\xff.jsonl".to_vec()))
        .arg(&rules)
        .current_dir(&dir)
        .output()
        .expect("run sgfaudit");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let (_, printed, _) = check_in(&dir, &[rules.to_str().unwrap(), "--format", "jsonl"]);
    let written = std::fs::read(dir.join(OsString::from_vec(b"r\xff.jsonl".to_vec())));
    assert_eq!(
        written.expect("the report, by its own name"),
        printed.into_bytes()
    );
}

/// A run that cannot write one of its reports leaves no partial file of any:
/// refused before it starts (the third report's directory is missing), the
/// `--out` tables and the HTML page already begun are removed, the files
/// they would replace stay as they were, and an `--out` directory the run
/// made is removed; stopped by a write that fails
/// (`/dev/full`: no space left), the error names the report.
#[test]
fn a_run_that_fails_leaves_no_partial_file() {
    let dir = scratch("report-fails");
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/games.csv"), "old table").unwrap();
    std::fs::write(dir.join("page.html"), "old page").unwrap();
    let corpus = root().join("corpus");
    let corpus = corpus.to_str().unwrap();
    let reports = ["--out", "out", "--parquet", "--html", "page.html"];
    let mut args = vec![corpus];
    args.extend(reports);
    args.extend(["--report", "sarif=missing/x.sarif"]);
    let (code, out, err) = check_in(&dir, &args);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("cannot write the report missing/x.sarif"),
        "{err}"
    );
    assert_eq!(names_in(&dir), ["out", "page.html"]);
    assert_eq!(names_in(&dir.join("out")), ["games.csv"]);
    // The --out directories the run made are removed with it.
    let args = [
        corpus,
        "--out",
        "new/out",
        "--report",
        "sarif=missing/x.sarif",
    ];
    let (code, _, err) = check_in(&dir, &args);
    assert_eq!(code, 2, "{err}");
    assert_eq!(names_in(&dir), ["out", "page.html"]);
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(
        (read("out/games.csv"), read("page.html")),
        ("old table".into(), "old page".into())
    );

    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full to fail a write with");
        return;
    }
    let mut args = vec![corpus, "--format", "jsonl"];
    args.extend(reports);
    args.extend(["--report", "jsonl=/dev/full"]);
    let (code, _, err) = check_in(&dir, &args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot write the report /dev/full: "), "{err}");
    let partial = |d: &std::path::Path| {
        names_in(d)
            .into_iter()
            .filter(|n| n.ends_with(".partial"))
            .collect::<Vec<_>>()
    };
    assert_eq!(partial(&dir), Vec::<String>::new());
    assert_eq!(partial(&dir.join("out")), Vec::<String>::new());
}

/// `--report FORMAT=FILE` writes, in the same run, each format as `--format`
/// prints it on its own: one run gives GitHub's annotations on standard
/// output and the SARIF, GitLab, JUnit, JSONL, CSV and summary reports in
/// files (on more than one worker, whose order must not show). No partial
/// file is left beside them.
#[test]
fn reports_into_files_are_what_each_format_prints() {
    let dir = scratch("report-files");
    let corpus = root().join("corpus");
    let corpus = corpus.to_str().unwrap();
    let formats = [
        ("sarif", "a.sarif"),
        ("gitlab", "b.json"),
        ("junit", "c.xml"),
        ("jsonl", "d.jsonl"),
        ("csv", "e.csv"),
        ("summary", "f.txt"),
    ];
    let mut args = vec![corpus, "--format", "github", "-j", "3"];
    let specs: Vec<String> = formats.iter().map(|(f, p)| format!("{f}={p}")).collect();
    for spec in &specs {
        args.extend(["--report", spec.as_str()]);
    }
    let (code, annotations, err) = check_in(&dir, &args);
    let (alone_code, alone) = github(&[corpus], None);
    assert_eq!((code, annotations), (alone_code, alone), "{err}");
    for (format, path) in formats {
        let (_, printed) = check_as(format, &[corpus, "-j", "1"], &[]);
        let written = std::fs::read_to_string(dir.join(path)).unwrap();
        assert!(!written.is_empty(), "{format}");
        assert!(
            written == printed,
            "{format}: {path} differs from --format {format}"
        );
    }
    let mut expected: Vec<&str> = formats.iter().map(|(_, p)| *p).collect();
    expected.sort();
    assert_eq!(names_in(&dir), expected);
}

/// A `--report` that cannot be written stops the run before anything is
/// written, with exit status 2 and the reason: a format unknown or only
/// read from standard output, a file named twice, a directory, a standard
/// stream. An existing report is left as it was, with no partial file.
#[test]
fn a_report_that_cannot_be_written_stops_the_run() {
    let dir = scratch("report-bad");
    std::fs::write(dir.join("old.sarif"), "kept").unwrap();
    std::fs::create_dir_all(dir.join("folder")).unwrap();
    let rules = root().join("corpus/rules");
    let rules = rules.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (&["--report", "xml=a"], "unknown format 'xml'"),
        (&["--report", "github=a"], "give --format github"),
        (&["--report", "html=a"], "give --html FILE"),
        (&["--report", "sarif"], "expected FORMAT=FILE"),
        (
            &[
                "--report",
                "sarif=old.sarif",
                "--report",
                "gitlab=./old.sarif",
            ],
            "old.sarif is named for two reports",
        ),
        (&["--report", "junit=folder"], "it is a directory"),
        (
            &["--report", "sarif=new.sarif", "--report", "junit=folder"],
            "it is a directory",
        ),
        (&["--report", "jsonl=/dev/stdout"], "a standard stream"),
    ];
    for (extra, said) in cases {
        let mut args = vec![rules];
        args.extend_from_slice(extra);
        let (code, out, err) = check_in(&dir, &args);
        assert_eq!((code, out.as_str()), (2, ""), "{extra:?}: {err}");
        assert!(err.contains(said), "{extra:?}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("old.sarif")).unwrap(),
        "kept"
    );
    assert_eq!(names_in(&dir), ["folder", "old.sarif"]);
}
