//! A large collection file is read in parts (src/input/parts.rs): its games
//! are numbered and its findings placed as when it is read whole, and it is
//! one file in the summary. `SGFAUDIT_PART_BYTES` makes small files split.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{root, scratch, tar_of};

fn jsonl(args: &[&str], part_bytes: Option<&str>) -> (i32, Vec<serde_json::Value>, String) {
    jsonl_with_input(args, part_bytes, None)
}

/// [`jsonl`] with `input` on standard input.
fn jsonl_with_input(
    args: &[&str],
    part_bytes: Option<&str>,
    input: Option<Vec<u8>>,
) -> (i32, Vec<serde_json::Value>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sgfaudit"));
    cmd.current_dir(root())
        .args(["check", "-q", "--format", "jsonl"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(n) = part_bytes {
        cmd.env("SGFAUDIT_PART_BYTES", n);
    }
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        if let Some(bytes) = input {
            let _ = pipe.write_all(&bytes);
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (
        out.status.code().unwrap_or(-1),
        rows,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The UTF-8 records of corpus/real with no syntax or charset finding,
/// one after another in one file; how many, and the longest's size. Made
/// once for all the tests, which run at once (each making it would empty
/// the scratch directory under the others).
fn collection() -> (std::path::PathBuf, usize, usize) {
    static MADE: std::sync::OnceLock<(std::path::PathBuf, usize, usize)> =
        std::sync::OnceLock::new();
    MADE.get_or_init(make_collection).clone()
}

fn make_collection() -> (std::path::PathBuf, usize, usize) {
    let (_, rows, _) = jsonl(&["corpus/real"], None);
    let clean: Vec<String> = rows
        .iter()
        .filter(|r| r["status"] == "ok" && r["game"] == 0)
        .filter(|r| {
            r["findings"].as_array().unwrap().iter().all(|f| {
                let c = f["code"].as_str().unwrap();
                !c.starts_with('S') && !c.starts_with('E') && !c.starts_with('F')
            })
        })
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    let mut text = Vec::new();
    let (mut n, mut longest) = (0, 0);
    for f in clean {
        let bytes = std::fs::read(root().join(&f)).unwrap();
        if std::str::from_utf8(&bytes).is_ok() && !bytes.starts_with(b"\xef\xbb\xbf") {
            text.extend_from_slice(&bytes);
            text.push(b'\n');
            n += 1;
            longest = longest.max(bytes.len());
        }
    }
    let path = scratch("parts").join("collection.sgf");
    std::fs::write(&path, text).unwrap();
    (path, n, longest)
}

/// [`collection`] read whole: its path, rows and bytes, and its longest
/// game's size.
struct Whole {
    path: String,
    rows: Vec<serde_json::Value>,
    text: Vec<u8>,
    longest: usize,
}

fn read_whole() -> Whole {
    let (path, _, longest) = collection();
    let (_, rows, _) = jsonl(&[path.to_str().unwrap(), "--exit-zero"], None);
    Whole {
        path: path.to_str().unwrap().to_string(),
        rows,
        text: std::fs::read(&path).unwrap(),
        longest,
    }
}

/// The rows of a run read under `from`'s name, as another input named
/// `to` gives them.
fn renamed(rows: &[serde_json::Value], from: &str, to: &str) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| serde_json::from_str(&r.to_string().replace(from, to)).unwrap())
        .collect()
}

/// `got` holds the rows `expected` does, in the same order.
fn same_rows(expected: &[serde_json::Value], got: &[serde_json::Value], what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}");
    for (a, b) in expected.iter().zip(got) {
        assert_eq!(a, b, "{what}");
    }
}

#[test]
fn a_file_read_in_parts_gives_the_rows_of_the_file_read_whole() {
    let (path, files, _) = collection();
    assert!(files > 100, "{files}");
    let p = path.to_str().unwrap();
    let (code, whole, _) = jsonl(&[p, "--exit-zero"], None);
    assert_eq!(code, 0);
    // Each game's start is a `(` of the file, on the line and column its
    // line ends (CR LF, a lone CR or LF, as editors count them) and
    // characters before give, after the game before it.
    let text = std::fs::read(&path).unwrap();
    let mut last = None;
    for row in &whole {
        let s = &row["start"];
        let at = s["offset"].as_u64().expect("a tree") as usize;
        assert_eq!(text[at], b'(', "{row}");
        let before = std::str::from_utf8(&text[..at])
            .unwrap()
            .replace("\r\n", "\n")
            .replace('\r', "\n");
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap().chars().count() + 1;
        assert_eq!(s["line"].as_u64(), Some(line as u64), "{row}");
        assert_eq!(s["column"].as_u64(), Some(column as u64), "{row}");
        assert!(last < Some(at), "{row}");
        last = Some(at);
    }
    for part_bytes in ["50000", "2000"] {
        let (code, split, err) = jsonl(&[p, "--exit-zero", "-j2"], Some(part_bytes));
        assert_eq!(code, 0, "{err}");
        same_rows(&whole, &split, &format!("part size {part_bytes}"));
    }
    // One file in the summary, however many parts.
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "-q", "--exit-zero", p])
        .env("SGFAUDIT_PART_BYTES", "2000")
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.starts_with("files: 1 (0 unreadable)"), "{summary}");
}

/// Three games, the second with a 200,000-byte comment.
fn long_game_between_two() -> Vec<u8> {
    let mut text = b"(;GM[1]SZ[9];B[ee])\n(;GM[1]SZ[9];B[cc]C[".to_vec();
    text.resize(text.len() + 200_000, b'x');
    text.extend_from_slice(b"])\n(;GM[1]SZ[9];B[dd])\n");
    text
}

/// The rows of [`long_game_between_two`] read under a 3K cap: the long game
/// is a row that says it is too large, the others are read.
fn assert_long_game_refused_alone(rows: &[serde_json::Value], err: &str) {
    let got: Vec<(u64, String)> = rows
        .iter()
        .map(|r| {
            (
                r["game"].as_u64().unwrap(),
                r["error"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(got.len(), 3, "{err}");
    assert_eq!(got[0], (0, String::new()));
    assert_eq!(got[1].0, 1);
    assert!(got[1].1.contains("--max-file-size"), "{got:?}");
    assert_eq!(got[2], (2, String::new()));
}

/// A game tree longer than --max-file-size is a part of its own, refused
/// with a row that says so; the games before and after it are read.
#[test]
fn a_game_longer_than_the_size_limit_is_a_row_and_the_file_goes_on() {
    let path = scratch("parts-long").join("long.sgf");
    std::fs::write(&path, long_game_between_two()).unwrap();
    let (_, rows, err) = jsonl(
        &[path.to_str().unwrap(), "--max-file-size", "3K"],
        Some("100"),
    );
    assert_long_game_refused_alone(&rows, &err);
}

/// A UTF-8 collection larger than --max-file-size is read in parts under
/// the cap, not refused: the cap refuses what would be held at once, and a
/// collection is never held whole. With a cap just above its longest game
/// (far below the file's size and the size at which files are split), it
/// gives the rows of the file read whole.
#[test]
fn a_collection_larger_than_the_size_cap_is_read_in_parts_under_it() {
    let (path, _, longest) = collection();
    let size = std::fs::metadata(&path).unwrap().len() as usize;
    assert!(size > 4 * longest, "{size} {longest}");
    let p = path.to_str().unwrap();
    let (_, whole, _) = jsonl(&[p, "--exit-zero"], None);
    let cap = (longest + 2).to_string();
    let (code, capped, err) = jsonl(&[p, "--exit-zero", "--max-file-size", &cap], None);
    assert_eq!(code, 0, "{err}");
    same_rows(&whole, &capped, &format!("cap {cap}"));
}

/// Text outside game trees is reported with the game that follows it (text
/// after the last tree with the last game), so a file read in parts gives
/// the rows of the file read whole, findings and all.
#[test]
fn text_between_game_trees_goes_with_the_next_game_read_whole_or_in_parts() {
    let game = "(;GM[1]SZ[9];B[ee];W[cc];B[];W[])\n";
    let mut text = String::new();
    for i in 0..40 {
        if i == 10 || i == 25 {
            text.push_str("xx yy\n");
        }
        text.push_str(game);
    }
    text.push_str("tail text\n");
    let path = scratch("parts-junk").join("junk.sgf");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let (_, whole, _) = jsonl(&[p, "--exit-zero"], None);
    assert_eq!(whole.len(), 40);
    let with_findings: Vec<(u64, Vec<&str>)> = whole
        .iter()
        .filter(|r| !r["findings"].as_array().unwrap().is_empty())
        .map(|r| {
            let codes = r["findings"].as_array().unwrap();
            let codes = codes.iter().map(|f| f["code"].as_str().unwrap()).collect();
            (r["game"].as_u64().unwrap(), codes)
        })
        .collect();
    // The junk lines stand before games 10 and 25; the tail follows game 39.
    assert_eq!(
        with_findings,
        [(10, vec!["S206"]), (25, vec!["S206"]), (39, vec!["S202"])]
    );
    for part_bytes in ["200", "1000"] {
        let (_, split, _) = jsonl(&[p, "--exit-zero"], Some(part_bytes));
        assert_eq!(split, whole, "part size {part_bytes}");
    }
}

/// Where text between game trees is not SGF (a stray `)`, a `(` that opens
/// no tree, a `[` that opens no value), a part is still cut only where the
/// scan of the whole file is between two trees: the rows are those of the
/// file read whole at every part size.
#[test]
fn junk_between_game_trees_never_moves_a_cut_inside_a_tree() {
    let game = "(;GM[1]SZ[9];B[ee];W[cc])";
    // After a tree and white space any `(` opens a tree; after other text
    // only a `(` followed by `;` does.
    let junk = [
        "xx )",
        "xx (x ",
        "xx [ yy ",
        "))",
        "xx (",
        "]",
        "\u{feff}",
        "xx ( ;W[dd])",
    ];
    let mut text = String::new();
    for (i, j) in junk.iter().enumerate() {
        text.push_str(game);
        text.push('\n');
        text.push_str(j);
        text.push('\n');
        // A tree whose variation closes first: a cut after that `)` would
        // fall inside the tree.
        if i % 2 == 0 {
            text.push_str("(;B[aa](;W[bb])\n(;B[cc]))\n");
        }
    }
    text.push_str(game);
    let path = scratch("parts-junk-cuts").join("junk.sgf");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let (_, whole, _) = jsonl(&[p, "--exit-zero"], None);
    assert_eq!(whole.len(), 14);
    for part_bytes in ["20", "60", "150", "400"] {
        let (_, split, _) = jsonl(&[p, "--exit-zero"], Some(part_bytes));
        assert_eq!(split, whole, "part size {part_bytes}");
    }
}

/// Collections drawn at random (a fixed seed) from the bundled records, with
/// text that is not SGF, labels and byte-order marks put between and inside
/// their trees: each gives the same rows read whole and in parts of 100, 700
/// and 3,000 bytes.
#[test]
fn random_collections_give_the_same_rows_whole_and_in_parts() {
    let mut records: Vec<String> = Vec::new();
    for dir in ["corpus/real", "corpus/malformed"] {
        let mut stack = vec![root().join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(text) = std::fs::read_to_string(&p) {
                    records.push(text.chars().take(3_000).collect());
                }
            }
        }
    }
    records.sort();
    assert!(records.len() > 100, "{}", records.len());
    let junk = [
        "xx",
        ")",
        "(",
        "[",
        "]",
        "(x",
        "( ;",
        "[ab",
        "\\",
        "))",
        "(;",
        "(;B[aa]",
        "\n",
        "  ",
        ";",
        "(\n;W[bb])",
        "\u{feff}",
        "é",
        "CA[UTF-8]",
        ";CA[foo]",
    ];
    // A linear congruential generator: the same collections on every run.
    let mut state: u64 = 0x5EED;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    let dir = scratch("parts-random");
    for case in 0..30 {
        let mut text = String::new();
        for _ in 0..2 + next(5) {
            let mut record = records[next(records.len())].clone();
            for _ in 0..next(3) {
                let at = next(record.len() + 1);
                if record.is_char_boundary(at) {
                    record.insert_str(at, junk[next(junk.len())]);
                }
            }
            text.push_str(&record);
            text.push_str(if next(2) == 0 {
                "\n"
            } else {
                junk[next(junk.len())]
            });
        }
        let path = dir.join(format!("{case}.sgf"));
        std::fs::write(&path, &text).unwrap();
        let p = path.to_str().unwrap();
        let (_, whole, _) = jsonl(&[p, "--exit-zero"], None);
        for part_bytes in ["100", "700", "3000"] {
            let (_, split, _) = jsonl(&[p, "--exit-zero"], Some(part_bytes));
            assert_eq!(split, whole, "{p}, part size {part_bytes}");
        }
    }
}

/// Standard input and a collection inside an archive are cut into parts as
/// they are read (each part keeps its own bytes): their rows are those of
/// the file read whole, under their own names.
#[test]
fn standard_input_and_archive_entries_are_read_in_parts_like_files() {
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    let expected = renamed(&whole, &p, "-");
    for part_bytes in ["50000", "2000"] {
        let (code, split, err) = jsonl_with_input(
            &["-", "--exit-zero", "-j2"],
            Some(part_bytes),
            Some(text.clone()),
        );
        assert_eq!(code, 0, "{err}");
        same_rows(
            &expected,
            &split,
            &format!("standard input, part size {part_bytes}"),
        );
    }
    // The same collection as the one entry of a tar archive.
    let tar_path = scratch("parts-tar").join("c.tar");
    std::fs::write(&tar_path, tar_of_collection(&text, Vec::new())).unwrap();
    let tar_arg = tar_path.to_str().unwrap();
    let expected = renamed(&whole, &p, &format!("{tar_arg}!collection.sgf"));
    let (code, split, err) = jsonl(&[tar_arg, "--exit-zero", "-j2"], Some("2000"));
    assert_eq!(code, 0, "{err}");
    same_rows(&expected, &split, "tar entry");
}

/// A tar of one entry, `collection.sgf` holding `text`, written to `out`.
fn tar_of_collection<W: Write>(text: &[u8], out: W) -> W {
    tar_of(&[("collection.sgf", text)], out)
}

/// `bytes` bzip2-ed.
fn bzip2_of(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `bytes` xz-compressed.
fn xz_of(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `bytes` compressed by Zstandard.
fn zstd_of(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

/// `bytes` gzipped.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A tar.gz entry is cut into parts as it is unpacked: a stream cut short
/// inside it has the entry's games up to the cut audited as in the file read
/// whole, then a row for the entry and one for the archive, damaged from
/// there on (the entry was refused whole before, and nothing was audited).
#[test]
fn a_tar_entry_cut_short_has_its_games_up_to_the_cut_audited() {
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let bytes = tar_of_collection(&text, gz).finish().unwrap();
    let path = scratch("parts-tar-cut").join("c.tar.gz");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let arg = path.to_str().unwrap();
    let entry = format!("{arg}!collection.sgf");
    let expected = renamed(&whole, &p, &entry);
    let (_, rows, err) = jsonl(&[arg, "--exit-zero", "-j2"], Some("2000"));
    assert!(rows.len() >= 2, "{err}");
    let games = rows.len() - 2;
    // About half the games lie before the cut.
    assert!(
        games > expected.len() / 4 && games < expected.len() * 3 / 4,
        "{games} of {}",
        expected.len()
    );
    same_rows(
        &expected[..games],
        &rows[..games],
        "the games before the cut",
    );
    let (at_entry, at_archive) = (&rows[games], &rows[games + 1]);
    assert_eq!(at_entry["file"], entry.as_str());
    assert_eq!(at_entry["game"].as_u64(), Some(games as u64));
    assert!(
        at_entry["error"]
            .as_str()
            .unwrap_or("")
            .contains("cannot unpack"),
        "{at_entry}"
    );
    assert_eq!(at_archive["file"], format!("{arg}!entry 2").as_str());
    assert!(
        at_archive["error"]
            .as_str()
            .unwrap_or("")
            .contains("damaged or cut short"),
        "{at_archive}"
    );
}

/// On standard input, as in a file, a game tree longer than --max-file-size
/// is a row of its own and the games after it are read: a stream is not
/// refused for its length, and the long tree is counted, not kept.
#[test]
fn a_long_game_on_standard_input_is_a_row_and_the_stream_goes_on() {
    let input = Some(long_game_between_two());
    let (_, rows, err) = jsonl_with_input(&["-", "--max-file-size", "3K"], Some("100"), input);
    assert_long_game_refused_alone(&rows, &err);
    assert!(rows.iter().all(|r| r["file"] == "-"));
}

/// A compressed collection file (`.sgf.gz`, `.sgf.bz2`, `.sgf.xz`, `.sgf.zst`) is cut
/// into parts as it is decompressed: its rows are those of the plain file
/// read whole, and under a --max-file-size far below its size (which
/// refused it before) it is read in parts, not refused.
#[test]
fn a_compressed_collection_is_read_in_parts_as_it_is_decompressed() {
    let Whole {
        path: p,
        rows: whole,
        text,
        longest,
    } = read_whole();
    let dir = scratch("parts-compressed");
    let gz = gzip(&text);
    let bz2 = bzip2_of(&text);
    let xz = xz_of(&text);
    let zst = zstd_of(&text);
    let cap = (longest + 2).to_string();
    for (ext, bytes) in [("gz", gz), ("bz2", bz2), ("xz", xz), ("zst", zst)] {
        let file = dir.join(format!("collection.sgf.{ext}"));
        std::fs::write(&file, &bytes).unwrap();
        let name = file.to_str().unwrap();
        let expected = renamed(&whole, &p, name);
        for (args, part_bytes) in [
            (vec![name, "--exit-zero", "-j2"], Some("2000")),
            (vec![name, "--exit-zero", "--max-file-size", &cap], None),
        ] {
            let (code, split, err) = jsonl(&args, part_bytes);
            assert_eq!(code, 0, "{err}");
            same_rows(&expected, &split, &format!("{ext} {args:?}"));
        }
    }
}

/// A compressed collection inside an archive (`collection.sgf.gz` in a tar
/// or a zip, or bzip2, xz and zstd in a tar) is decompressed as it is read and cut
/// into parts as the same file on disk is: its rows are those of the plain
/// file read whole, under the entry's name. Cut short inside a tar, it has
/// the games whose tree closes before the cut audited, then a row for the
/// entry, as the file cut short on disk has.
#[test]
fn a_compressed_collection_in_an_archive_is_read_in_parts_like_the_file() {
    use std::io::Read as _;
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    let dir = scratch("parts-compressed-entry");
    let bz2 = bzip2_of(&text);
    let xz = xz_of(&text);
    let zst = zstd_of(&text);
    let gz = gzip(&text);
    let zip_path = dir.join("c.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("collection.sgf.gz", stored).unwrap();
    zip.write_all(&gz).unwrap();
    zip.finish().unwrap();
    let mut archives = vec![(zip_path, "collection.sgf.gz")];
    for (entry, bytes) in [
        ("collection.sgf.gz", &gz),
        ("collection.sgf.bz2", &bz2),
        ("collection.sgf.xz", &xz),
        ("collection.sgf.zst", &zst),
    ] {
        let tar_path = dir.join(format!("{entry}.tar"));
        std::fs::write(&tar_path, tar_of(&[(entry, bytes)], Vec::new())).unwrap();
        archives.push((tar_path, entry));
    }
    for (archive, entry) in &archives {
        let arg = archive.to_str().unwrap();
        let expected = renamed(&whole, &p, &format!("{arg}!{entry}"));
        let (code, rows, err) = jsonl(&[arg, "--exit-zero", "-j2"], Some("2000"));
        assert_eq!(code, 0, "{err}");
        same_rows(&expected, &rows, &format!("{arg}!{entry}"));
    }
    // The gzip stream cut in its middle, as the entry of a tar: what a
    // decompressor gives of it before the error holds the games before.
    let cut = &gz[..gz.len() / 2];
    let mut given = Vec::new();
    assert!(flate2::read::GzDecoder::new(cut)
        .read_to_end(&mut given)
        .is_err());
    let games = trees_closed_within(&text, given.len());
    assert!(games > 0, "{} bytes given", given.len());
    let tar_path = dir.join("cut.tar");
    std::fs::write(&tar_path, tar_of(&[("cut.sgf.gz", cut)], Vec::new())).unwrap();
    let arg = tar_path.to_str().unwrap();
    let name = format!("{arg}!cut.sgf.gz");
    let expected = renamed(&whole, &p, &name);
    for part_bytes in [Some("2000"), None] {
        let (_, rows, err) = jsonl(&[arg, "-j2"], part_bytes);
        assert_eq!(rows.len(), games + 1, "{part_bytes:?}: {err}");
        same_rows(&expected[..games], &rows[..games], &name);
        let last = &rows[games];
        assert_eq!(last["file"], name.as_str());
        assert_eq!(last["game"].as_u64(), Some(games as u64), "{last}");
        let why = last["error"].as_str().unwrap_or("");
        assert!(why.starts_with("cannot decompress: "), "{last}");
    }
}

/// A file read in parts whose last part is refused (here a last game tree
/// longer than --max-file-size) was still read: it is not counted among the
/// unreadable files, and a run of it alone is no run where nothing could be
/// read (exit status 2).
#[test]
fn a_file_whose_last_part_is_refused_still_counts_as_read() {
    let mut text = b"(;GM[1]SZ[9];B[ee])\n(;C[".to_vec();
    text.resize(text.len() + 5_000, b'x');
    text.extend_from_slice(b"])");
    let path = scratch("parts-last-long").join("last-long.sgf");
    std::fs::write(&path, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args([
            "check",
            "-q",
            "--max-file-size",
            "1K",
            path.to_str().unwrap(),
        ])
        .env("SGFAUDIT_PART_BYTES", "100")
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.starts_with("files: 1 (0 unreadable)"), "{summary}");
    assert!(
        summary.contains("games: 2 (1 audited, 1 could not be audited)"),
        "{summary}"
    );
    // The refused game is an error: exit status 1, not 2.
    assert_eq!(out.status.code(), Some(1), "{summary}");
}

/// A large deflated zip entry is inflated as its parts are cut: its rows are
/// those of the plain file. Its checksum is known only at its end: with the
/// declared CRC-32 wrong, the games of the parts handed out before it are
/// audited (none while the entry is within the first MiB a stream is judged
/// by), not those of the rest, which may be the damage's, and a last row
/// says the entry is damaged.
#[test]
fn a_zip_entry_is_inflated_as_its_parts_are_cut() {
    use std::io::Write as _;
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    let dir = scratch("parts-zip");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("c.sgf", opts).unwrap();
    zip.write_all(&text).unwrap();
    let good = zip.finish().unwrap().into_inner();
    // The CRC-32 at byte 14 of the local header and 16 of the central one.
    let mut bad = good.clone();
    let central = bad.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    bad[central + 16] ^= 0xff;
    bad[14] ^= 0xff;
    for (file, bytes, damaged) in [("good.zip", good, false), ("bad.zip", bad, true)] {
        let zip_path = dir.join(file);
        std::fs::write(&zip_path, bytes).unwrap();
        let name = format!("{}!c.sgf", zip_path.to_str().unwrap());
        let expected = renamed(&whole, &p, &name);
        let (_, rows, err) = jsonl(
            &[zip_path.to_str().unwrap(), "--exit-zero", "-j2"],
            Some("2000"),
        );
        let games = rows.len() - usize::from(damaged);
        assert!(games <= expected.len(), "{file}: {games}");
        same_rows(&expected[..games], &rows[..games], &format!("{file} {err}"));
        if !damaged {
            assert_eq!(games, expected.len(), "{file}");
        } else {
            if text.len() <= 1 << 20 {
                assert_eq!(games, 0, "{file}: judged whole, found damaged");
            } else {
                assert!(games < expected.len(), "{file}: the last part dropped");
            }
            let last = &rows[games];
            assert_eq!(last["game"].as_u64(), Some(games as u64));
            assert_eq!(
                last["error"].as_str(),
                Some("cannot unpack the entry: Invalid checksum"),
                "{last}"
            );
        }
    }
}

/// A tar, plain or gzipped, cut short inside a collection entry too small
/// to be read in parts: the entry's games whose tree closes before the cut
/// are audited as in the plain file, then a row says the entry is cut short
/// (before, the entry was one row, or, in a plain tar, taken for whole with
/// its last game cut); the entry before it is audited whole.
#[test]
fn a_tar_cut_short_in_a_collection_entry_keeps_its_games_before_the_cut() {
    use std::io::Read as _;
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    assert!(text.len() < 4 << 20, "{} bytes: piped", text.len());
    let first = std::fs::read(root().join("corpus/rules/occupied.sgf")).unwrap();
    let plain = tar_of(&[("occupied.sgf", &first), ("c.sgf", &text)], Vec::new());
    // The collection starts after two 512-byte headers and the first entry
    // padded to 512.
    let start = 512 + first.len().div_ceil(512) * 512 + 512;
    assert_eq!(&plain[start..start + 2], &text[..2]);
    let gz = gzip(&plain);
    let dir = scratch("parts-small-tar-cut");
    for (file, cut, why) in [
        (
            "cut.tar",
            plain[..start + text.len() / 2].to_vec(),
            "the archive ends",
        ),
        ("cut.tar.gz", gz[..gz.len() * 3 / 4].to_vec(), ""),
    ] {
        // What a decompressor gives of it, the collection's share of it.
        let given = if file.ends_with(".gz") {
            let mut given = Vec::new();
            let decoded = flate2::read::GzDecoder::new(&cut[..]).read_to_end(&mut given);
            assert!(decoded.is_err());
            given
        } else {
            cut.clone()
        };
        let of_collection = given.len() - start;
        assert!(
            of_collection < text.len(),
            "{file}: the cut is in the collection"
        );
        let games = trees_closed_within(&text, of_collection);
        assert!(games > 0, "{file}: {of_collection} bytes given");
        let path = dir.join(file);
        std::fs::write(&path, &cut).unwrap();
        let name = format!("{}!c.sgf", path.to_str().unwrap());
        let expected = renamed(&whole, &p, &name);
        let (code, rows, err) = jsonl(&[path.to_str().unwrap(), "-j2"], None);
        assert_eq!(code, 1, "{err}");
        assert_eq!(rows[0]["status"], "ok", "{}", rows[0]);
        assert!(rows[0]["file"].as_str().unwrap().ends_with("!occupied.sgf"));
        let of_entry: Vec<serde_json::Value> = rows
            .iter()
            .filter(|r| r["file"].as_str() == Some(name.as_str()))
            .cloned()
            .collect();
        assert_eq!(of_entry.len(), games + 1, "{file}: {err}");
        same_rows(&expected[..games], &of_entry[..games], file);
        let last = &of_entry[games];
        assert_eq!(last["game"].as_u64(), Some(games as u64), "{last}");
        let error = last["error"].as_str().unwrap_or("");
        assert!(
            error.starts_with(&format!("cannot unpack the entry: {why}")),
            "{last}"
        );
        let (_, one_thread, _) = jsonl(&[path.to_str().unwrap(), "-j1"], None);
        assert_eq!(one_thread, rows, "{file}: -j1 and -j2");
    }
}

/// A `.tar.gz` damaged in the middle of a collection entry (bytes of the
/// compressed stream changed, not cut): the decoder gives bytes that are
/// not the archive's until the next tar header fails its checks. No game is
/// read from them: every row of the entry is a game of the plain file, as
/// there, or an error row (before, the entry's games were audited from the
/// garbage, with illegal moves and bad values that were the damage's).
#[test]
fn a_tar_gz_damaged_in_an_entry_reports_no_game_of_the_damage() {
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    let first = std::fs::read(root().join("corpus/rules/occupied.sgf")).unwrap();
    let entries = [
        ("occupied.sgf", &first[..]),
        ("c.sgf", &text),
        ("after.sgf", &first),
    ];
    let mut gz = gzip(&tar_of(&entries, Vec::new()));
    let mid = gz.len() / 2;
    for b in &mut gz[mid..mid + 20] {
        *b ^= 0x55;
    }
    let dir = scratch("parts-tar-damaged");
    let path = dir.join("damaged.tar.gz");
    std::fs::write(&path, &gz).unwrap();
    let name = format!("{}!c.sgf", path.to_str().unwrap());
    let expected = renamed(&whole, &p, &name);
    let (_, rows, err) = jsonl(&[path.to_str().unwrap(), "-j2"], None);
    assert_eq!(rows[0]["status"], "ok", "{}", rows[0]);
    let of_entry: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["file"].as_str() == Some(name.as_str()))
        .collect();
    assert!(!of_entry.is_empty(), "{err}");
    for row in &of_entry {
        if row["status"] != "error" {
            let game = row["game"].as_u64().unwrap() as usize;
            assert_eq!(**row, expected[game], "game {game} read from the damage");
        }
    }
    assert_eq!(of_entry.last().unwrap()["status"], "error");
    let (_, one_thread, _) = jsonl(&[path.to_str().unwrap(), "-j1"], None);
    assert_eq!(one_thread, rows, "-j1 and -j2");
}

/// How many game trees of an SGF text close within its first `len` bytes:
/// its top-level `)` outside property values, counted by a scan of its own
/// (the records of [`collection`] have no syntax finding).
fn trees_closed_within(text: &[u8], len: usize) -> usize {
    let (mut depth, mut in_value, mut escaped, mut closed) = (0u32, false, false, 0);
    for &b in &text[..len] {
        if in_value {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b']' => in_value = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'[' => in_value = true,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                closed += usize::from(depth == 0);
            }
            _ => {}
        }
    }
    closed
}

/// A compressed collection too small to be read in parts that is cut short
/// is cut like a large one: the games whose tree closes before the end are
/// audited as in the plain file, then a row says what is damaged. One whose
/// checksum is wrong is one row: where its bytes went wrong is unknown, and
/// a game read from damaged bytes would be reported for the damage.
#[test]
fn a_small_compressed_collection_cut_short_has_its_games_before_the_cut() {
    use std::io::Read as _;
    let Whole {
        path: p,
        rows: whole,
        text,
        ..
    } = read_whole();
    assert!(text.len() < 4 << 20, "{} bytes: read in parts", text.len());
    let dir = scratch("parts-small-cut");
    let gz = gzip(&text);
    let mut wrong_crc = gz.clone();
    let crc = wrong_crc.len() - 8;
    wrong_crc[crc] ^= 0xff;
    for (file, bytes, cut_short) in [
        ("cut.sgf.gz", gz[..gz.len() / 2].to_vec(), true),
        ("crc.sgf.gz", wrong_crc, false),
    ] {
        // What a decompressor gives of it before the error.
        let mut given = Vec::new();
        let error = flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut given);
        assert!(error.is_err(), "{file}");
        let games = if cut_short {
            trees_closed_within(&text, given.len())
        } else {
            0
        };
        assert!(
            games > 0 || !cut_short,
            "{file}: {} bytes given",
            given.len()
        );
        let path = dir.join(file);
        std::fs::write(&path, &bytes).unwrap();
        let name = path.to_str().unwrap();
        let expected = renamed(&whole, &p, name);
        let (code, rows, err) = jsonl(&[name, "-j2"], None);
        // With no game read, nothing readable was given: exit status 2.
        assert_eq!(code, if games > 0 { 1 } else { 2 }, "{err}");
        assert_eq!(rows.len(), games + 1, "{file}: {err}");
        same_rows(&expected[..games], &rows[..games], file);
        let last = &rows[games];
        assert_eq!(last["game"].as_u64(), Some(games as u64), "{last}");
        let why = last["error"].as_str().unwrap_or("");
        assert!(why.starts_with("cannot decompress: "), "{last}");
        let (_, one_thread, _) = jsonl(&[name, "-j1"], None);
        assert_eq!(one_thread, rows, "{file}: -j1 and -j2");
    }
}
