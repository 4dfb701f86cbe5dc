//! The HTML report without a browser: its diagrams are well-formed SVG and
//! show the stones the rules give (worked out by hand), every in-page link
//! has its target, and text from records and file names is escaped.
//! tests/browser.rs loads the same reports in Chromium.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use common::{root, scratch};

fn check(args: &[&str]) -> i32 {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(root())
        .arg("check")
        .args(args)
        .output()
        .expect("run sgfaudit");
    out.status.code().unwrap_or(-1)
}

/// Every `<svg>...</svg>` of a page, parsed as XML (which fails on any
/// markup that is not well-formed).
fn svgs(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("closed svg") + start + 6;
        let svg = &rest[start..end];
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
        out.push(svg.to_string());
        rest = &rest[end..];
    }
    out
}

/// The stones of a board diagram, by Go coordinates (`D5`), and the number
/// written on each stone that carries one.
fn stones(svg: &str) -> (BTreeMap<String, &'static str>, BTreeMap<String, String>) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let size = doc.descendants().filter(|n| n.has_tag_name("line")).count() / 2;
    // The diagram's grid: a margin of 36 and 24 per line (report::diagram).
    let point = |x: f64, y: f64| {
        let col = ((x - 36.0) / 24.0).round() as usize;
        let row = ((y - 36.0) / 24.0).round() as usize;
        format!("{}{}", b"ABCDEFGHJKLMNOPQRST"[col] as char, size - row)
    };
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let mut colours = BTreeMap::new();
    let mut numbers = BTreeMap::new();
    for n in doc.descendants() {
        if n.has_tag_name("circle") && n.attribute("r") == Some("11") {
            let colour = match n.attribute("fill") {
                Some("#000") => "B",
                _ => "W",
            };
            colours.insert(point(num(n, "cx"), num(n, "cy")), colour);
        }
        // Move numbers are the texts inside the grid (coordinates lie in
        // the margin).
        if n.has_tag_name("text") && num(n, "x") > 30.0 && num(n, "y") > 30.0 {
            let label = n.text().unwrap_or_default().to_string();
            if label.parse::<u32>().is_ok() {
                numbers.insert(point(num(n, "x"), num(n, "y")), label);
            }
        }
    }
    (colours, numbers)
}

fn set(points: &[(&str, &'static str)]) -> BTreeMap<String, &'static str> {
    points.iter().map(|(p, c)| (p.to_string(), *c)).collect()
}

/// Move 10 of `ko-immediate.sgf` retakes the ko at once (R404 under every
/// ruleset). By hand from its moves (dd ed ce de df fe aa ef ee de): before
/// move 10, Black D6 C5 D4 A9 E5 and White E6 F5 E4 (move 9 took D5); after
/// it, D5 is White again and Black's E5 is gone. The stones standing after
/// it carry their move numbers: 1 D6, 2 E6, 3 C5, 5 D4, 6 F5, 7 A9, 8 E4,
/// 10 D5 (4 was taken at 9, 9 at 10).
#[test]
fn the_ko_retake_is_drawn_before_and_after_with_the_stone_it_takes() {
    let dir = scratch("html-ko");
    let page_path = dir.join("ko.html");
    let code = check(&[
        "corpus/rules/ko-immediate.sgf",
        "-q",
        "--html",
        page_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "the retake is an error");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let all = svgs(&page);
    let before = all
        .iter()
        .find(|s| s.contains("<title>Before move 10</title>"))
        .expect("the position before move 10");
    let after = all
        .iter()
        .find(|s| s.contains("<title>After move 10 at D5</title>"))
        .expect("the position after move 10");
    let (b, _) = stones(before);
    assert_eq!(
        b,
        set(&[
            ("D6", "B"),
            ("C5", "B"),
            ("D4", "B"),
            ("A9", "B"),
            ("E5", "B"),
            ("E6", "W"),
            ("F5", "W"),
            ("E4", "W"),
        ])
    );
    let (a, numbers) = stones(after);
    assert_eq!(
        a,
        set(&[
            ("D6", "B"),
            ("C5", "B"),
            ("D4", "B"),
            ("A9", "B"),
            ("D5", "W"),
            ("E6", "W"),
            ("F5", "W"),
            ("E4", "W"),
        ])
    );
    let expected: BTreeMap<String, String> = [
        ("D6", 1),
        ("E6", 2),
        ("C5", 3),
        ("D4", 5),
        ("F5", 6),
        ("A9", 7),
        ("E4", 8),
        ("D5", 10),
    ]
    .iter()
    .map(|(p, n)| (p.to_string(), n.to_string()))
    .collect();
    assert_eq!(numbers, expected);
    // The stone the retake removed (E5) is marked: one red square, centred
    // on E5 (x = 36 + 4 * 24, y = 36 + 4 * 24).
    let doc = roxmltree::Document::parse(after).unwrap();
    let squares: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("stroke") == Some("#c00"))
        .map(|n| {
            let f = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (f("x") + f("width") / 2.0, f("y") + f("height") / 2.0)
        })
        .collect();
    assert_eq!(squares, vec![(132.0, 132.0)]);
    // The finding's move links to the diagram.
    assert!(page.contains("<a href=\"#g0-m10\">10</a>"));
    assert!(page.contains("id=\"g0-m10\""));
}

/// Every `href="#x"` of a page has an element with `id="x"`.
fn assert_anchors_resolve(page: &str) {
    let ids: BTreeSet<&str> = page
        .split("id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    let mut links = 0;
    for target in page.split("href=\"#").skip(1) {
        let id = target.split('"').next().unwrap();
        assert!(ids.contains(id), "a link to #{id}, which no element has");
        links += 1;
    }
    assert!(links > 0);
}

/// `--out` writes report.html beside the CSV tables; over the bundled
/// corpus its links resolve, its sections are capped, and every file link
/// points at a file that exists.
#[test]
fn the_corpus_report_links_resolve() {
    let dir = scratch("html-corpus");
    let code = check(&["corpus/", "-q", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.trim_end().ends_with("</html>"));
    assert_anchors_resolve(&page);
    svgs(&page);
    let sections = page.matches("<section class=\"game\"").count();
    assert!(sections > 0 && sections <= sgfaudit::report::html::MAX_SECTIONS);
    for link in file_links(&page) {
        assert!(
            dir.join(&link).exists(),
            "a link to {link}, which does not exist"
        );
    }
    assert!(!Path::new(&dir.join(".report.html.partial")).exists());
}

/// The page's links to files (not to its own sections), percent-decoded.
fn file_links(page: &str) -> Vec<String> {
    page.split("<a href=\"")
        .skip(1)
        .map(|l| l.split('"').next().unwrap())
        .filter(|href| !href.starts_with('#'))
        .map(percent_decode)
        .collect()
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Markup in a file name or a record stays text; a bidirectional override in
/// a file name is shown as its escaped bytes, as the summary prints it.
#[test]
fn text_from_records_and_file_names_is_escaped() {
    let dir = scratch("html-hostile");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(
        games.join("<img src=x onerror=alert(3)>.sgf"),
        common::HOSTILE,
    )
    .unwrap();
    // A right-to-left override would show the rest of the name reversed.
    #[cfg(unix)]
    std::fs::write(games.join("x\u{202e}fgs.exe.sgf"), common::HOSTILE).unwrap();
    let page_path = dir.join("report.html");
    let code = check(&[
        games.to_str().unwrap(),
        "-q",
        "--html",
        page_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "W[ee] on Black's stone is an error");
    let page = std::fs::read_to_string(&page_path).unwrap();
    for raw in ["<script", "<img", "<svg onload", "</title><"] {
        assert!(!page.contains(raw), "{raw} reached the page as markup");
    }
    assert!(page.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;"));
    assert!(page.contains("%3Cimg%20src%3Dx%20onerror%3Dalert%283%29%3E.sgf"));
    #[cfg(unix)]
    {
        assert!(!page.contains('\u{202e}'), "the override reached the page");
        assert!(page.contains("x\\xE2\\x80\\xAEfgs.exe.sgf"));
    }
    svgs(&page);
    assert_anchors_resolve(&page);
}

#[test]
fn one_game_is_counted_in_the_singular() {
    // A report of one scored game whose countings differ (the point to fill
    // counts under every counting but the Japanese): every count of files
    // and games on the page is in the singular, never "1 games".
    let dir = scratch("html-one-game");
    let page_path = dir.join("report.html");
    check(&[
        "corpus/rules/count-point-to-fill.sgf",
        "-q",
        "--html",
        page_path.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(page.contains("<title>sgfaudit report: 1 file, 1 game</title>"));
    assert!(
        page.contains(": 1 file, 1 game, 2 moves."),
        "no header count"
    );
    assert!(page.contains("1 game was scored."), "no scored-game count");
    assert!(
        page.contains(": 1 game</figcaption>"),
        "no chart of one game"
    );
    assert!(!page.contains("1 games"));
}

/// `--html` through a symbolic link writes the file the link names (here
/// one that does not exist yet) and keeps the link; into a named pipe it
/// writes the page and leaves the pipe a pipe (it replaced a device or a
/// pipe with a file before, as it renames a finished page over its target);
/// a directory is refused before the run.
#[cfg(unix)]
#[test]
fn the_page_goes_through_links_and_into_pipes() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("html-targets");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let game = root().join("corpus/rules/ko-immediate.sgf");
    let link = dir.join("link.html");
    std::os::unix::fs::symlink("real/report.html", &link).unwrap();
    let html_to = |target: &Path| {
        check(&[
            game.to_str().unwrap(),
            "-q",
            "--html",
            target.to_str().unwrap(),
        ])
    };
    html_to(&link);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let page = std::fs::read_to_string(dir.join("real/report.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));

    let pipe = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&pipe).status().unwrap();
    assert!(made.success());
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(pipe)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    html_to(&pipe);
    // Checked first: had the pipe been replaced, its reader would wait on.
    assert!(pipe.metadata().unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), page);

    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", game.to_str().unwrap(), "-q", "--html"])
        .arg(dir.join("real"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("cannot write the HTML report") && said.contains("it is a directory"),
        "{said}"
    );
    assert!(out.stdout.is_empty(), "nothing audited");
}

/// A page on standard output (`--html /dev/stdout`) is written through it,
/// after the summary, and links to the games from where it lands: the
/// directory of the file standard output was sent to, or, through a pipe,
/// the current directory. Before, the file was replaced by a new one (what
/// the shell wrote to it afterwards was lost) and the links, relative to
/// `/dev`, led nowhere.
#[cfg(target_os = "linux")]
#[test]
fn a_page_on_standard_output_follows_the_summary_and_links_from_where_it_lands() {
    use std::io::Write;
    let dir = scratch("html-stdout");
    let sub = dir.join("kept/here");
    std::fs::create_dir_all(&sub).unwrap();
    let game = root().join("corpus/rules/ko-immediate.sgf");
    let run = |stdout: std::process::Stdio| {
        Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .current_dir(&dir)
            .args(["check", game.to_str().unwrap(), "-q"])
            .args(["--html", "/dev/stdout"])
            .stdout(stdout)
            .output()
            .unwrap()
    };
    // The summary, then the page, whole; each link leads to the game.
    let check_output = |text: &str, from: &Path| {
        let at = text.find("<!DOCTYPE html>").expect("a page");
        assert!(
            text[..at].starts_with("files: 1 (0 unreadable)\n"),
            "{text}"
        );
        let page = &text[at..];
        assert!(page.ends_with("</html>\n"));
        let links = file_links(page);
        assert!(!links.is_empty());
        for link in &links {
            let to = from.join(link).canonicalize().unwrap();
            assert_eq!(to, game.canonicalize().unwrap(), "{link}");
        }
    };
    let kept = sub.join("report.html");
    let mut file = std::fs::File::create(&kept).unwrap();
    // Exit status 1: the record's ko retake is illegal.
    let to_file = run(file.try_clone().unwrap().into());
    assert_eq!(to_file.status.code(), Some(1));
    // The shell writes on into the same file.
    file.write_all(b"after\n").unwrap();
    let text = std::fs::read_to_string(&kept).unwrap();
    check_output(
        text.strip_suffix("after\n").expect("the file written on"),
        &sub,
    );

    let piped = run(std::process::Stdio::piped());
    assert_eq!(piped.status.code(), Some(1));
    check_output(&String::from_utf8(piped.stdout).unwrap(), &dir);
}
