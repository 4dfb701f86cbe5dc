//! The formats CI tools read: GitHub workflow commands and job summary.

mod common;

use std::process::Command;

use common::{jsonl, root, scratch};

fn github(paths: &[&str], step_summary: Option<&std::path::Path>) -> (i32, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sgfaudit"));
    c.args(["check", "--format", "github", "-q"])
        .args(paths)
        .current_dir(root())
        .env_remove("GITHUB_STEP_SUMMARY");
    if let Some(p) = step_summary {
        c.env("GITHUB_STEP_SUMMARY", p);
    }
    let out = c.output().expect("run sgfaudit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
    )
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
