//! Hostile inputs, generated in a scratch directory (nothing large is
//! committed): each run must end (a timeout guards it), exit with 0, 1 or 2,
//! name every input in its output, and stay under a memory bound read from
//! the child's /proc status while it runs (Linux; elsewhere memory is not
//! checked).

mod common;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{scratch, tar_of};

const GAME: &str = "(;GM[1]SZ[9];B[ee];W[cc];B[];W[])";

/// What one run gave: exit status, JSONL rows (none in another format), its
/// standard output, peak resident memory (KiB).
struct Run {
    status: i32,
    rows: Vec<serde_json::Value>,
    stdout: String,
    stderr: String,
    /// `None` when the run ended before its status could be read as its own
    /// (within one poll of its exec).
    peak: Option<u64>,
}

impl Run {
    /// The run's peak resident memory (KiB), 0 for a run that ended within
    /// one poll of its exec: too short a run to build up the memory the
    /// bounds are about (the test prints which runs these were).
    fn peak_kib(&self) -> u64 {
        self.peak.unwrap_or(0)
    }
}

fn run(args: &[&str], stdin: Option<Vec<u8>>) -> Run {
    run_in("jsonl", args, stdin)
}

fn run_in(format: &str, args: &[&str], stdin: Option<Vec<u8>>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "--format", format, "-q"])
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sgfaudit");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let status_file = format!("/proc/{}/status", child.id());
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let mut err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let start = Instant::now();
    let mut peak_kib = None;
    // The status lines that gave the peak, printed with the run (the test
    // harness shows them when the test fails): whose memory, and of what kind.
    let mut peak_status = String::new();
    let status = loop {
        // `spawn` returns once the child has let go of this process's memory
        // on its way into exec, which can be a moment before it has memory of
        // its own: a read then shows this process's peak (the whole test
        // binary's, over 2 GB at times) under this thread's name. Only a
        // status that names sgfaudit is the child's own.
        if let Some(text) = fs::read_to_string(&status_file).ok().filter(|t| {
            t.lines()
                .any(|l| l.split_whitespace().eq(["Name:", "sgfaudit"]))
        }) {
            for line in text.lines() {
                if let Some(v) = line.strip_prefix("VmHWM:") {
                    let kib: u64 = v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                    if peak_kib.is_none_or(|p| kib > p) {
                        peak_kib = Some(kib);
                        peak_status = text
                            .lines()
                            .filter(|l| {
                                [
                                    "Name:", "Pid:", "PPid:", "Threads:", "VmHWM:", "VmRSS:", "Rss",
                                ]
                                .iter()
                                .any(|k| l.starts_with(k))
                            })
                            .collect::<Vec<_>>()
                            .join("; ");
                    }
                }
            }
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("sgfaudit {args:?} did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = reader.join().unwrap();
    match peak_kib {
        Some(kib) => eprintln!("sgfaudit {args:?}: peak {kib} KiB ({peak_status})"),
        None => eprintln!("sgfaudit {args:?}: ended within one poll of its exec, peak not read"),
    }
    Run {
        status: status.code().unwrap_or(-1),
        rows: match format {
            "jsonl" => stdout
                .lines()
                .map(|l| serde_json::from_str(l).expect("JSONL"))
                .collect(),
            _ => Vec::new(),
        },
        stdout,
        stderr: err_reader.join().unwrap(),
        peak: peak_kib,
    }
}

/// A row's error message (the row must have one).
fn error(row: &serde_json::Value) -> &str {
    row["error"].as_str().unwrap()
}

/// The first finding of `code` in a row.
fn finding<'a>(row: &'a serde_json::Value, code: &str) -> &'a serde_json::Value {
    row["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {row}"))
}

fn files(r: &Run) -> Vec<String> {
    r.rows
        .iter()
        .map(|g| g["file"].as_str().unwrap_or("").to_string())
        .collect()
}

fn row<'a>(r: &'a Run, suffix: &str) -> &'a serde_json::Value {
    r.rows
        .iter()
        .find(|g| g["file"].as_str().unwrap_or("").ends_with(suffix))
        .unwrap_or_else(|| panic!("no row for {suffix}: {:?}", files(r)))
}

fn ok_run(r: &Run) {
    assert!(
        (0..=2).contains(&r.status),
        "exit {}: {}",
        r.status,
        r.stderr
    );
}

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[cfg(unix)]
#[test]
fn special_files_are_named_and_never_block() {
    let d = scratch("special");
    fs::write(d.join("good.sgf"), GAME).unwrap();
    let fifo = d.join("x.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status();
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.sgf")).unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    assert_eq!(row(&r, "good.sgf")["status"], "ok");
    let zero = row(&r, "zero.sgf");
    assert!(error(zero).contains("character device"), "{zero}");
    if made.is_ok_and(|s| s.success()) {
        let x = row(&r, "/x.sgf");
        assert!(error(x).contains("FIFO"), "{x}");
    }
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}

#[test]
fn degenerate_texts_cost_memory_linear_in_their_size() {
    let d = scratch("degenerate");
    // 20 MB of `(`: a game tree with no node, an error, in little memory.
    fs::write(d.join("paren.sgf"), vec![b'('; 20 << 20]).unwrap();
    // One node with 150,000 properties: parsed, linear, not quadratic.
    let mut node = String::from("(;GM[1]");
    for i in 0..150_000 {
        node.push_str(&format!("C{}[x]", ["A", "B", "D"][i % 3]));
    }
    node.push_str(";B[aa])");
    fs::write(d.join("props.sgf"), node).unwrap();
    // A million: more values than the 200,000 a game may have; refused
    // before parsing.
    let mut node = String::from("(;GM[1]");
    for i in 0..1_000_000 {
        node.push_str(&format!("C{}[x]", ["A", "B", "D"][i % 3]));
    }
    node.push(')');
    fs::write(d.join("million.sgf"), node).unwrap();
    // A million empty variations: refused before parsing, as the million
    // properties.
    fs::write(
        d.join("empty-vars.sgf"),
        "(;GM[1]".to_string() + &"()".repeat(1_000_000) + ")",
    )
    .unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    let paren = row(&r, "paren.sgf");
    assert_eq!(paren["status"], "error", "{paren}");
    // 150,000 properties of three identifiers: 149,997 repeated. A game's
    // reading lists 10,000 findings and counts the rest.
    let props = row(&r, "props.sgf");
    assert_eq!(props["status"], "ok");
    let listed = props["findings"].as_array().unwrap();
    assert_eq!(
        listed.iter().filter(|f| f["code"] == "P307").count(),
        10_000
    );
    let omitted = finding(props, "X901");
    assert_eq!(
        omitted["message"],
        "139997 more P307 (duplicate-property) finding(s) in this game are not listed"
    );
    let million = row(&r, "million.sgf");
    assert!(
        error(million).contains("a node holds 1000001 property values, more than the 200000"),
        "{million}"
    );
    let vars = row(&r, "empty-vars.sgf");
    assert!(
        error(vars).contains("the game tree holds 1000001 variations"),
        "{vars}"
    );
    assert!(r.peak_kib() < 120 * 1024, "{} KiB", r.peak_kib());
}

#[test]
fn point_list_rectangles_cannot_expand_without_bound() {
    let d = scratch("rectangles");
    // 4,000 nodes of `AB[aa:ZZ]AE[aa:ZZ]` on 52x52: 80 KB of text that
    // sgf-parse would expand to 4,000 x 2 x 2,704 = 21,632,000 points, about
    // 330 MB: refused before parsing.
    let mut game = String::from("(;GM[1]SZ[52]");
    for _ in 0..4_000 {
        game.push_str(";AB[aa:ZZ]AE[aa:ZZ]");
    }
    game.push(')');
    fs::write(d.join("rectangles.sgf"), game).unwrap();
    // A diagram record that clears the board a hundred times with AE[aa:ss]
    // and marks it with TR[aa:ss] (72,200 points) is well inside the bound;
    // arrows and lines (`AR[aa:ss]`) are pairs of points, not rectangles.
    let mut diagrams = String::from("(;GM[1]SZ[19]");
    for _ in 0..100 {
        diagrams.push_str(";AE[aa:ss]AB[dd]TR[aa:ss]");
    }
    for _ in 0..2_000 {
        diagrams.push_str(";AR[aa:ss]LN[aa:ss]");
    }
    diagrams.push_str(";B[pp])");
    fs::write(d.join("diagrams.sgf"), diagrams).unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    let refused = row(&r, "rectangles.sgf");
    assert_eq!(refused["status"], "error", "{refused}");
    assert!(
        error(refused).contains("expand to 21632000 points"),
        "{refused}"
    );
    assert_eq!(row(&r, "diagrams.sgf")["status"], "ok");
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}

#[test]
fn a_game_of_many_illegal_moves_keeps_them_all_in_little_memory() {
    let d = scratch("illegal-moves");
    // Black at A19, then White and Black on it in turn, 500,000 times: every
    // later move is illegal (occupied) under the three rulesets. 5.5 MB of
    // text; the JSONL row lists all 3 x 500,000 verdicts (about 90 MB)
    // without holding a copy of them.
    let game = format!("(;GM[1]SZ[19];B[aa]{})", ";W[aa];B[aa]".repeat(250_000));
    fs::write(d.join("occupied.sgf"), game).unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    let row = row(&r, "occupied.sgf");
    for ruleset in ["aga", "japanese", "swedish"] {
        let illegal = row["rulesets"][ruleset]["illegal"].as_array().unwrap();
        assert_eq!(illegal.len(), 500_000, "{ruleset}");
        assert_eq!(illegal[0]["point"], "aa");
        assert_eq!(illegal[0]["kind"], "occupied");
    }
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}

#[test]
fn a_game_too_long_to_replay_is_refused() {
    let d = scratch("too-long");
    // A main line of three million passes (12 MB): more than the two
    // million nodes a game's main line may hold, refused before it is
    // replayed (a replay keeps about 75 bytes a pass, 180 a placement).
    let game = format!("(;GM[1]SZ[19]{})", ";B[];W[]".repeat(1_500_000));
    fs::write(d.join("passes.sgf"), game).unwrap();
    // As many nodes in 200 variations of 15,000 passes: the main line (the
    // first variation) is 15,001 nodes long, and it is replayed.
    let variation = format!("({})", ";B[];W[]".repeat(7_500));
    let tree = format!("(;GM[1]SZ[19]{})", variation.repeat(200));
    fs::write(d.join("variations.sgf"), tree).unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    let tree = row(&r, "variations.sgf");
    assert_eq!(tree["status"], "ok", "{tree}");
    assert_eq!(tree["moves"], 15_000, "{tree}");
    let row = row(&r, "passes.sgf");
    assert_eq!(row["status"], "error", "{row}");
    assert!(
        error(row).contains("the game's main line holds 3000001 nodes, more than the 2000000"),
        "{row}"
    );
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}

#[test]
fn reads_are_capped_while_reading() {
    let d = scratch("capped");
    fs::write(d.join("big.sgf"), vec![b' '; 3 << 20]).unwrap();
    let r = run(&["--max-file-size", "1M", arg(&d.join("big.sgf"))], None);
    ok_run(&r);
    assert!(error(&r.rows[0]).contains("larger than 1048576 bytes"));
    // Standard input is cut at the cap too, without holding what follows.
    let r = run(&["--max-file-size", "4M", "-"], Some(vec![0u8; 64 << 20]));
    ok_run(&r);
    assert_eq!(files(&r), ["-"]);
    assert!(error(&r.rows[0]).contains("larger than"));
    assert!(r.peak_kib() < 64 * 1024, "{} KiB", r.peak_kib());
}

/// Standard input held up to the size limit costs about the limit, not
/// twice it or more: text that is no collection is read whole into one
/// buffer, and a game tree that never ends is held as a collection's part.
/// Either way 100 MB against a 64 MiB limit is refused, peaking under 96 MiB
/// (80 and 84 MB; a buffer that doubled as it grew kept its smaller copies
/// too: 138 and 208 MB).
#[test]
fn standard_input_up_to_the_limit_costs_the_limit_once() {
    let text = vec![b'a'; 100_000_000];
    let tree = [&b"(;GM[1]C["[..], &text].concat();
    for (what, input) in [("text", text.clone()), ("an endless game tree", tree)] {
        let r = run(&["--max-file-size", "64M", "-"], Some(input));
        ok_run(&r);
        assert_eq!(files(&r), ["-"]);
        assert!(
            error(&r.rows[0]).starts_with("larger than 67108864 bytes"),
            "{what}: {}",
            r.rows[0]
        );
        assert!(r.peak_kib() < 96 * 1024, "{what}: {} KiB", r.peak_kib());
    }
}

#[test]
fn nothing_is_skipped_in_silence() {
    let d = scratch("silence");
    fs::create_dir_all(d.join("empty")).unwrap();
    fs::create_dir_all(d.join("gz")).unwrap();
    fs::write(d.join("gz/game.sgf.xz"), b"\xfd7zXZ not really").unwrap();
    fs::write(d.join("gz/games.tar.xz"), b"xz").unwrap();
    fs::write(d.join("gz/games.7z"), b"7z\xbc\xaf\x27\x1c").unwrap();
    fs::write(d.join("gz/games.rar"), b"Rar!\x1a\x07\x00").unwrap();
    let r = run(&[arg(&d.join("empty")), arg(&d.join("gz"))], None);
    ok_run(&r);
    assert!(error(row(&r, "empty")).contains("no *.sgf"));
    // Kinds read but broken say why; kinds not read say so (F004).
    for f in ["game.sgf.xz", "games.tar.xz!entry 1", "games.7z"] {
        let g = row(&r, f);
        assert_eq!(g["findings"][0]["code"], "F001", "{g}");
    }
    assert_eq!(row(&r, "games.rar")["findings"][0]["code"], "F004");
}

fn zip_of(path: &Path, entries: &[(&str, &[u8])]) {
    let file = std::io::BufWriter::new(fs::File::create(path).unwrap());
    let mut z = zip::ZipWriter::new(file);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        z.start_file(*name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

fn tar_gz_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    tar_of(entries, gz).finish().unwrap()
}

#[test]
fn every_archive_entry_is_its_own_row() {
    let d = scratch("entries");
    // Two entries with one name, and a zip inside the zip.
    let inner = d.join("inner.zip");
    zip_of(&inner, &[("a.sgf", GAME.as_bytes())]);
    let inner_bytes = fs::read(&inner).unwrap();
    fs::remove_file(&inner).unwrap();
    // The zip writer refuses a repeated name: write h.sgf, then rename it in
    // place (names are in the headers, outside the checksums).
    zip_of(
        &d.join("dup.zip"),
        &[
            ("g.sgf", GAME.as_bytes()),
            ("h.sgf", GAME.as_bytes()),
            ("inner.zip", &inner_bytes),
        ],
    );
    let bytes = fs::read(d.join("dup.zip")).unwrap();
    let mut renamed = bytes.clone();
    for i in 0..bytes.len().saturating_sub(5) {
        if &bytes[i..i + 5] == b"h.sgf" {
            renamed[i] = b'g';
        }
    }
    fs::write(d.join("dup.zip"), renamed).unwrap();
    // Two .tar.gz archives concatenated, as `cat a.tar.gz b.tar.gz` makes.
    let mut both = tar_gz_of(&[("one.sgf", GAME.as_bytes()), ("one.sgf", GAME.as_bytes())]);
    both.extend(tar_gz_of(&[("two.sgf", GAME.as_bytes())]));
    fs::write(d.join("both.tar.gz"), both).unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    // Both entries named g.sgf are read and audited, the second under a
    // name of its own.
    assert_eq!(row(&r, "dup.zip!g.sgf")["status"], "ok");
    assert_eq!(row(&r, "dup.zip!g.sgf#2")["status"], "ok");
    assert_eq!(row(&r, "dup.zip!g.sgf#2")["moves"], 4);
    // The zip inside is read one level deep (tests/archives.rs has more).
    assert_eq!(row(&r, "dup.zip!inner.zip!a.sgf")["status"], "ok");
    row(&r, "both.tar.gz!one.sgf");
    row(&r, "both.tar.gz!one.sgf#2");
    row(&r, "both.tar.gz!two.sgf");
}

#[test]
fn a_zip_bomb_is_refused_from_its_headers() {
    let d = scratch("bomb");
    // 64 MiB of zeros inflate from about 64 KiB: over 1000:1.
    zip_of(&d.join("bomb.zip"), &[("zeros.sgf", &vec![0u8; 64 << 20])]);
    let r = run(&[arg(&d.join("bomb.zip"))], None);
    ok_run(&r);
    let g = row(&r, "bomb.zip!zeros.sgf");
    assert!(error(g).contains("refused"), "{g}");
    assert!(r.peak_kib() < 64 * 1024, "{} KiB", r.peak_kib());
}

/// Two central directory records that point at the same local header: the
/// entries share their bytes, as in a bomb that inflates one stream many times.
#[test]
fn zip_entries_that_share_their_bytes_are_refused() {
    let d = scratch("shared-bytes");
    zip_of(&d.join("one.zip"), &[("a.sgf", GAME.as_bytes())]);
    let zip = fs::read(d.join("one.zip")).unwrap();
    let end = common::zip_end_record(&zip);
    let le32 = |at: usize| u32::from_le_bytes(zip[at..at + 4].try_into().unwrap()) as usize;
    let (size, offset) = (le32(end + 12), le32(end + 16));
    let mut shared = zip[..offset + size].to_vec();
    shared.extend_from_slice(&zip[offset..offset + size]);
    let mut end_record = zip[end..].to_vec();
    end_record[8..10].copy_from_slice(&2u16.to_le_bytes());
    end_record[10..12].copy_from_slice(&2u16.to_le_bytes());
    end_record[12..16].copy_from_slice(&(2 * size as u32).to_le_bytes());
    shared.extend_from_slice(&end_record);
    fs::write(d.join("shared.zip"), shared).unwrap();
    let r = run(&[arg(&d.join("shared.zip"))], None);
    assert_eq!(files(&r).len(), 1, "{:?}", files(&r));
    let e = error(&r.rows[0]);
    assert!(e.contains("refused") && e.contains("share"), "{e}");
}

/// The zip reader keeps nothing per entry: a zip of 100,000 games costs the
/// memory the same games cost in a .tar.gz, read as a stream.
#[test]
fn a_zip_of_many_entries_costs_what_a_tar_of_them_costs() {
    let d = scratch("many-entries");
    let names: Vec<String> = (0..100_000).map(|i| format!("g/{i:06}.sgf")).collect();
    // Unfinished games: nothing to score, the reading is what is measured.
    let game = b"(;GM[1]SZ[9];B[ee];W[cc])";
    let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &game[..])).collect();
    zip_of(&d.join("many.zip"), &entries);
    fs::write(d.join("many.tar.gz"), tar_gz_of(&entries)).unwrap();
    let z = run(&[arg(&d.join("many.zip"))], None);
    let t = run(&[arg(&d.join("many.tar.gz"))], None);
    assert_eq!((z.rows.len(), t.rows.len()), (100_000, 100_000));
    assert!(z.rows.iter().all(|r| r["status"] == "ok"));
    assert_peak_within(&z, &t, 8, "the zip against the tar.gz");
}

/// A large collection inside a tar.gz or a zip, compressed in a tar, or in
/// a tar.gz inside a tar, is cut into parts as it is unpacked: it costs the memory the same
/// collection costs compressed on its own (`.sgf.gz`, a stream cut the same
/// way), not its size (72 MB here,
/// eighteen times the 4 MiB a collection is read whole under). Held whole,
/// the entry would cost 150-260 MB; cut, either run peaks near 30 MB, give or
/// take the parts in flight when the peak falls (up to five batches of 1 MiB
/// parts per thread, parsed: about 20 MiB apart from one run to the next).
#[test]
fn a_collection_in_a_tar_or_zip_costs_what_the_compressed_file_costs() {
    let d = scratch("tar-collection");
    // 1,200 games, each with a 60 KB comment of letters that do not compress
    // away (a highly compressible entry would be refused as a bomb).
    let mut seed = 0x2545_f491u32;
    let mut text = Vec::new();
    for _ in 0..1200 {
        text.extend_from_slice(b"(;GM[1]SZ[9]C[");
        for _ in 0..60_000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            text.push(b'a' + (seed >> 16) as u8 % 26);
        }
        text.extend_from_slice(b"];B[ee];W[cc])\n");
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    fs::write(d.join("c.sgf.gz"), &gz).unwrap();
    fs::write(d.join("c.tar.gz"), tar_gz_of(&[("c.sgf", &text)])).unwrap();
    zip_of(&d.join("c.zip"), &[("c.sgf", &text)]);
    // The .sgf.gz itself as an entry: decompressed whole, it cost 234 MB;
    // with its 4 MiB head grown by doubling and held to the end, 41-48 MB.
    fs::write(d.join("gz.tar"), tar_of(&[("c.sgf.gz", &gz)], Vec::new())).unwrap();
    // The tar.gz inside a tar: held whole, it cost 92 MB.
    let tgz = fs::read(d.join("c.tar.gz")).unwrap();
    fs::write(d.join("in.tar"), tar_of(&[("c.tar.gz", &tgz)], Vec::new())).unwrap();
    let f = run(&[arg(&d.join("c.sgf.gz"))], None);
    assert_eq!(f.rows.len(), 1200);
    for archive in ["c.tar.gz", "c.zip", "gz.tar", "in.tar"] {
        let a = run(&[arg(&d.join(archive))], None);
        assert_eq!(a.rows.len(), 1200, "{archive}");
        assert!(a.rows.iter().all(|r| r["status"] == "ok"), "{archive}");
        assert_peak_within(&a, &f, 24, &format!("the {archive} against the .sgf.gz"));
    }
}

/// What the tar reader holds in memory between two entries, whatever size
/// a header claims: a GNU long name or a pax extension (256 MiB in a 1.2 MB
/// `.tar.gz`: 0.5-0.8 GB held whole) and a GNU sparse file's map (64 MiB of
/// it: 0.44 GB), is refused where it passes 4 MiB, a long name of zeros
/// too; the game before it is audited.
#[test]
fn huge_tar_long_names_pax_extensions_and_sparse_maps_are_refused() {
    let d = scratch("tar-long-name");
    let header = |kind: tar::EntryType, name: &str, size: u64| {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_path(name).unwrap();
        h.set_size(size);
        h.set_mode(0o644);
        h.set_cksum();
        h
    };
    let octal = |n: u64| {
        let mut field = [0u8; 12];
        field[..11].copy_from_slice(format!("{n:011o}").as_bytes());
        field
    };
    let game = [GAME.as_bytes(), &[0u8; 512][GAME.len()..]].concat();
    for file in [
        "long-name.tar.gz",
        "zero-name.tar.gz",
        "pax.tar.gz",
        "sparse.tar.gz",
    ] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let first = header(tar::EntryType::Regular, "first.sgf", GAME.len() as u64);
        gz.write_all(first.as_bytes()).unwrap();
        gz.write_all(&game).unwrap();
        if file == "sparse.tar.gz" {
            // 131,072 blocks of 21 empty regions each, one after the other.
            let blocks = 1u64 << 17;
            let mut h = header(tar::EntryType::GNUSparse, "sparse.sgf", 0);
            let gnu = h.as_gnu_mut().unwrap();
            gnu.isextended[0] = 1;
            gnu.realsize = octal((blocks * 21 + 1) * 1024);
            h.set_cksum();
            gz.write_all(h.as_bytes()).unwrap();
            let mut at = 0;
            for b in 0..blocks {
                let mut ext = tar::GnuExtSparseHeader::new();
                for region in ext.sparse.iter_mut() {
                    at += 1024;
                    region.offset = octal(at);
                    region.numbytes = octal(0);
                }
                ext.isextended[0] = u8::from(b + 1 < blocks);
                gz.write_all(ext.as_bytes()).unwrap();
            }
        } else {
            let kind = match file {
                "pax.tar.gz" => tar::EntryType::XHeader,
                _ => tar::EntryType::GNULongName,
            };
            let size = 256u64 << 20;
            gz.write_all(header(kind, "././@LongLink", size).as_bytes())
                .unwrap();
            // Zeros, as the padding the reader reads through is, cost the
            // same.
            let fill = if file == "zero-name.tar.gz" { 0 } else { b'a' };
            let block = vec![fill; 1 << 20];
            for _ in 0..size >> 20 {
                gz.write_all(&block).unwrap();
            }
            let second = header(tar::EntryType::Regular, "second.sgf", GAME.len() as u64);
            gz.write_all(second.as_bytes()).unwrap();
            gz.write_all(&game).unwrap();
        }
        gz.write_all(&[0u8; 1024]).unwrap();
        let path = d.join(file);
        fs::write(&path, gz.finish().unwrap()).unwrap();
        let r = run(&[arg(&path)], None);
        let at = |entry: &str| format!("{}!{entry}", arg(&path));
        assert_eq!(files(&r), [at("first.sgf"), at("entry 2")]);
        assert_eq!(r.rows[0]["status"], "ok");
        assert!(
            error(&r.rows[1]).starts_with("refused: more than 4 MiB"),
            "{}",
            r.rows[1]
        );
        assert!(r.peak_kib() < 100 * 1024, "{file}: {} KiB", r.peak_kib());
    }
}

/// A `--file-list` is read as the walk reaches it: a million paths cost
/// what ten thousand cost (226 MB for two million when it was read whole),
/// and a line too long for a path is a row, not held; a list that cannot
/// be read on is a row naming it.
#[test]
fn a_file_list_of_a_million_paths_keeps_memory_flat() {
    let d = scratch("file-list");
    let list = |n: usize| {
        let path = d.join(format!("list-{n}"));
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("{}/no-such-directory/game-{i:07}.sgf\n", arg(&d)));
        }
        fs::write(&path, text).unwrap();
        path
    };
    let (few, many) = (list(10_000), list(1_000_000));
    let summary = |l: &Path| run_in("summary", &["--file-list", arg(l)], None);
    let (few, many) = (summary(&few), summary(&many));
    summary_says(&many, "files: 1000000 (1000000 unreadable)");
    assert_peak_within(&many, &few, 8, "a million paths against ten thousand");
    // One line of 64 MiB is a row, not a path held whole.
    let long = d.join("long-line");
    fs::write(&long, [vec![b'a'; 64 << 20], b"\n".to_vec()].concat()).unwrap();
    let r = run(&["--file-list", arg(&long)], None);
    assert_eq!(files(&r), [arg(&long)]);
    assert_eq!(
        error(&r.rows[0]),
        "skipped: a line of more than 64 KiB is not a path"
    );
    assert_peak_within(&r, &few, 8, "a 64 MiB line against ten thousand paths");
    let r = run(&["--file-list", arg(&d)], None);
    assert_eq!(files(&r), [arg(&d)]);
    assert_eq!(
        error(&r.rows[0]),
        "cannot read the file list: it is a directory"
    );
}

/// Asserts that run `r` peaked less than `mib` MiB above run `base`.
fn assert_peak_within(r: &Run, base: &Run, mib: u64, what: &str) {
    assert!(
        r.peak_kib() < base.peak_kib() + mib * 1024,
        "{what}: {} KiB against {} KiB",
        r.peak_kib(),
        base.peak_kib()
    );
}

/// An archive entry's name is not kept once sent (only a 16-byte hash of it,
/// to number repeated names): 90,000 more entries with 200-byte names
/// (18 MB of names, were they held) cost a few MiB.
#[test]
fn entry_names_are_not_kept_once_sent() {
    let d = scratch("long-names");
    let game = b"(;GM[1]SZ[9];B[ee];W[cc])";
    let dir = "a-directory-name-of-some-length/".repeat(6);
    let tar_of = |n: usize| {
        let names: Vec<String> = (0..n).map(|i| format!("{dir}{i:06}.sgf")).collect();
        assert!(names[0].len() >= 200);
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &game[..])).collect();
        tar_gz_of(&entries)
    };
    fs::write(d.join("few.tar.gz"), tar_of(10_000)).unwrap();
    fs::write(d.join("many.tar.gz"), tar_of(100_000)).unwrap();
    let few = run(&[arg(&d.join("few.tar.gz"))], None);
    let many = run(&[arg(&d.join("many.tar.gz"))], None);
    assert_eq!((few.rows.len(), many.rows.len()), (10_000, 100_000));
    assert_peak_within(&many, &few, 8, "100,000 entries against 10,000");
}

#[test]
fn too_many_jobs_are_capped_with_a_warning() {
    let r = run(&["-j", "20000", "corpus/rules/ko-pass.sgf"], None);
    assert!((0..=2).contains(&r.status), "exit {}", r.status);
    assert!(
        r.stderr.contains("--jobs 20000 is more than"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_komi_or_handicap_no_game_could_have_is_reported_and_ignored() {
    // The wall of the test below: Black 36 points, White 27 (9x9, 81
    // points). KM that is no finite number, or more than the board's 81
    // points once read (KM[8200] is 82 written x100), and HA beyond 81 are
    // P306 and ignored: the counts use the ruleset's own komi and no
    // handicap, so the AGA area and territory counts agree (no C603).
    let d = scratch("km-ha");
    let wall = "B[ea];W[fa];B[eb];W[fb];B[ec];W[fc];B[ed];W[fd];B[ee];W[fe];\
                B[ef];W[ff];B[eg];W[fg];B[eh];W[fh];B[ei];W[fi];B[];W[]";
    let cases = [
        ("KM[NaN]", "KM[NaN] is not a finite number"),
        ("KM[inf]", "KM[inf] is not a finite number"),
        ("KM[1e308]", "KM[1e308] is more than the board's 81 points"),
        ("KM[8200]", "KM[8200] is more than the board's 81 points"),
        (
            "HA[4000000000]",
            "HA[4000000000] is more than the board's 81 points",
        ),
    ];
    for (i, (prop, _)) in cases.iter().enumerate() {
        fs::write(
            d.join(format!("v{i}.sgf")),
            format!("(;GM[1]SZ[9]RU[AGA]{prop};{wall})"),
        )
        .unwrap();
    }
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    for (i, (prop, message)) in cases.iter().enumerate() {
        let g = row(&r, &format!("v{i}.sgf"));
        let findings = g["findings"].as_array().unwrap();
        assert!(
            findings
                .iter()
                .any(|f| f["code"] == "P306" && f["message"].as_str().unwrap().contains(message)),
            "{prop}: {g}"
        );
        assert!(!findings.iter().any(|f| f["code"] == "C603"), "{prop}: {g}");
        assert_eq!(g["handicap"], 0, "{prop}");
        if prop.starts_with("KM") {
            assert!(g["komi"].is_null(), "{prop}: {g}");
        }
    }
}

#[test]
fn unusable_results_are_reported_not_matched() {
    let d = scratch("re");
    let wall = "B[ea];W[fa];B[eb];W[fb];B[ec];W[fc];B[ed];W[fd];B[ee];W[fe];\
                B[ef];W[ff];B[eg];W[fg];B[eh];W[fh];B[ei];W[fi];B[];W[]";
    for (i, re) in ["W+1e-400", "W+NaN", "B+-3", "W+inf"].iter().enumerate() {
        fs::write(
            d.join(format!("re{i}.sgf")),
            format!("(;GM[1]SZ[9]KM[6.5]RU[Japanese]RE[{re}];{wall})"),
        )
        .unwrap();
    }
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    assert_eq!(r.rows.len(), 4);
    for g in &r.rows {
        assert!(g["result_check"].is_null(), "{g}");
        assert!(
            g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["code"] == "P306"),
            "{g}"
        );
    }
}

/// UTF-32 text, with a byte-order mark or without: read as such, not as
/// UTF-16 or a legacy charset. `ko-immediate.sgf` has 10 moves; the result
/// and the player name added here must come out as written.
#[test]
fn utf32_records_are_read_as_utf32() {
    let d = scratch("utf32");
    let text = fs::read_to_string(common::root().join("corpus/rules/ko-immediate.sgf"))
        .unwrap()
        .replacen("(;GM[1]", "(;GM[1]PB[黒]RE[W+R]", 1);
    let le: Vec<u8> = text
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    let be: Vec<u8> = text
        .chars()
        .flat_map(|c| (c as u32).to_be_bytes())
        .collect();
    let mut le_bom = vec![0xff, 0xfe, 0, 0];
    le_bom.extend_from_slice(&le);
    fs::write(d.join("be.sgf"), &be).unwrap();
    fs::write(d.join("le-bom.sgf"), &le_bom).unwrap();
    let (_, rows) = common::jsonl(&[d.to_str().unwrap()]);
    let want = [("be.sgf", "UTF-32BE"), ("le-bom.sgf", "UTF-32LE")];
    assert_eq!(rows.len(), want.len());
    for (row, (name, encoding)) in rows.iter().zip(want) {
        assert!(row["file"].as_str().unwrap().ends_with(name));
        assert_eq!(row["status"], "ok", "{row}");
        assert_eq!(row["encoding"], encoding);
        assert_eq!(row["moves"], 10);
        assert_eq!(row["result"], "W+R");
        let codes: Vec<&str> = row["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap())
            .collect();
        // The file says CA[UTF-8]: the conflict is named; no syntax finding.
        assert!(codes.contains(&"E103"), "{codes:?}");
        assert!(!codes.iter().any(|c| c.starts_with('S')), "{codes:?}");
    }
}

/// A comment of 1 MB that holds escaped brackets and what looks like moves:
/// the game still has exactly its two real moves, B D16 then W Q4 (a record
/// built here), and no syntax finding.
#[test]
fn a_huge_comment_is_skipped_whole() {
    let d = scratch("long-comment");
    let comment = "x\\];B[cc\\];W[dd\\]\\\\".repeat(1 << 16);
    let text = format!("(;GM[1]FF[4]SZ[19]C[{comment}];B[dd]C[fine];W[pp])");
    assert!(text.len() > 1 << 20);
    fs::write(d.join("long.sgf"), text).unwrap();
    let (_, rows) = common::jsonl(&[d.join("long.sgf").to_str().unwrap()]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "ok", "{}", rows[0]);
    assert_eq!(rows[0]["moves"], 2);
    assert_eq!(
        rows[0]["findings"].as_array().unwrap().len(),
        0,
        "{}",
        rows[0]
    );
}

/// A gzip, bzip2 or xz game file that inflates twentyfold beyond 32 MiB
/// is a bomb: refused when it gets there, under 100 MB of memory, not at
/// the 256 MiB size limit. A small file that inflates as much is read. The
/// same two files as entries of a tar.gz and of a zip are judged alike.
#[test]
fn a_compressed_bomb_is_refused_early() {
    let d = scratch("gz-bomb");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..300 {
        gz.write_all(&zeros).unwrap();
    }
    fs::write(d.join("zeros.sgf.gz"), gz.finish().unwrap()).unwrap();
    // 2,000 copies of one short game: a legitimate, very redundant file
    // that inflates far more than twentyfold, under the floor.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..2000 {
        gz.write_all(GAME.as_bytes()).unwrap();
    }
    fs::write(d.join("copies.sgf.gz"), gz.finish().unwrap()).unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    let bomb = row(&r, "zeros.sgf.gz");
    assert!(error(bomb).contains("inflate to more than"), "{bomb}");
    assert_eq!(row(&r, "copies.sgf.gz")["status"], "ok");
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());

    let zeros = fs::read(d.join("zeros.sgf.gz")).unwrap();
    let copies = fs::read(d.join("copies.sgf.gz")).unwrap();
    let entries: [(&str, &[u8]); 2] = [("zeros.sgf.gz", &zeros), ("copies.sgf.gz", &copies)];
    let archives = scratch("gz-bomb-archives");
    fs::write(archives.join("t.tar.gz"), tar_gz_of(&entries)).unwrap();
    zip_of(&archives.join("t.zip"), &entries);
    for archive in ["t.tar.gz", "t.zip"] {
        let r = run(&[arg(&archives.join(archive))], None);
        ok_run(&r);
        // The bomb's row and the 2,000 games of the other.
        assert_eq!(r.rows.len(), 2001, "{archive}");
        let bomb = row(&r, "!zeros.sgf.gz");
        assert!(
            error(bomb).contains("inflate to more than"),
            "{archive}: {bomb}"
        );
        assert_eq!(row(&r, "!copies.sgf.gz")["status"], "ok", "{archive}");
        assert!(r.peak_kib() < 100 * 1024, "{archive}: {} KiB", r.peak_kib());
    }
}

/// Small compressed files that each inflate to megabytes are held a few at
/// a time, by the size they inflate to: forty 3 KB files of a 3 MiB game
/// (120 MiB of text) stay under 100 MB of memory. Counted by their
/// compressed size, a batch took them all at once (207 MiB at `-j1`).
#[test]
fn small_compressed_files_are_batched_by_what_they_inflate_to() {
    let d = scratch("gz-many");
    let game = format!(
        "(;GM[1]SZ[9]C[{}];B[ee];W[cc];B[];W[])",
        "a".repeat(3 << 20)
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(game.as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    assert!(bytes.len() < 16 << 10, "{} bytes", bytes.len());
    for i in 0..40 {
        fs::write(d.join(format!("g{i:02}.sgf.gz")), &bytes).unwrap();
    }
    for jobs in ["-j1", "-j2"] {
        let r = run(&[arg(&d), jobs], None);
        ok_run(&r);
        for i in 0..40 {
            let g = row(&r, &format!("g{i:02}.sgf.gz"));
            assert_eq!(g["status"], "ok", "{g}");
            assert_eq!(g["moves"], 4, "{g}");
        }
        assert!(r.peak_kib() < 100 * 1024, "{jobs}: {} KiB", r.peak_kib());
    }
}

/// Archive entries that inflate twentyfold past 32 MiB are bombs too: a
/// zip entry is refused from its header, a tar.gz entry while it inflates,
/// each under 100 MB of memory; the game beside them is read.
#[test]
fn archive_entries_that_inflate_too_much_are_refused() {
    let d = scratch("entry-bombs");
    let zeros = vec![0u8; 100 << 20];
    zip_of(
        &d.join("z.zip"),
        &[
            ("a.sgf", &zeros),
            ("b.sgf", &zeros),
            ("ok.sgf", GAME.as_bytes()),
        ],
    );
    let entries = [
        ("a.sgf", &zeros[..]),
        ("b.sgf", &zeros[..]),
        ("ok.sgf", GAME.as_bytes()),
    ];
    fs::write(d.join("t.tar.gz"), tar_gz_of(&entries)).unwrap();
    drop(zeros);
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    for f in [
        "z.zip!a.sgf",
        "z.zip!b.sgf",
        "t.tar.gz!a.sgf",
        "t.tar.gz!b.sgf",
    ] {
        let e = error(row(&r, f)).to_string();
        assert!(e.contains("20 times and 32 MiB at most"), "{f}: {e}");
    }
    assert_eq!(row(&r, "z.zip!ok.sgf")["status"], "ok");
    assert_eq!(row(&r, "t.tar.gz!ok.sgf")["status"], "ok");
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}

/// A 50 MB game name (GN, never read) is emptied before parsing, as long
/// comments are: the game is audited in little memory (it cost about ten
/// times its size in the parser).
#[test]
fn a_huge_unread_value_costs_little() {
    let d = scratch("long-gn");
    let text = format!("(;GM[1]SZ[9]GN[{}];B[ee];W[cc])", "x".repeat(50 << 20));
    fs::write(d.join("gn.sgf"), text).unwrap();
    let r = run(&[arg(&d.join("gn.sgf"))], None);
    ok_run(&r);
    assert_eq!(r.rows[0]["status"], "ok");
    assert_eq!(r.rows[0]["moves"], 2);
    assert!(r.peak_kib() < 160 * 1024, "{} KiB", r.peak_kib());
}

/// A 7z header (plain, 40 MB of padding) that lists 40 million entries: the
/// listing costs a byte per entry beside the header, the mismatch with its
/// (absent) blocks is reported, and memory stays near twice the header.
#[test]
fn a_huge_value_of_a_read_property_is_cut() {
    let d = scratch("long-read-values");
    // 20 MB in a player's name, a move and RE: each cut to its first KiB
    // with a warning; the game is audited as it would be with the cut value
    // (the move is still no point, RE still unusable), in little memory,
    // and no row echoes the 20 MB.
    let long = "x".repeat(20 << 20);
    let digits = "1".repeat(20 << 20);
    fs::write(
        d.join("pb.sgf"),
        format!("(;GM[1]SZ[9]PB[{long}];B[ee];W[cc])"),
    )
    .unwrap();
    fs::write(d.join("move.sgf"), format!("(;GM[1]SZ[9];B[ee];W[{long}])")).unwrap();
    fs::write(
        d.join("re.sgf"),
        format!("(;GM[1]SZ[9]RE[B+{digits}];B[ee];W[];B[])"),
    )
    .unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    for (file, ident) in [("pb.sgf", "PB"), ("move.sgf", "W"), ("re.sgf", "RE")] {
        let row = row(&r, file);
        assert_eq!(row["status"], "ok", "{file}");
        let cut = finding(row, "S212");
        let message = cut["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{ident}'s value is ")),
            "{message}"
        );
        assert!(row.to_string().len() < 64 << 10, "{file}: the row is small");
    }
    assert_eq!(row(&r, "pb.sgf")["moves"], 2);
    let codes = |file: &str| -> Vec<String> {
        row(&r, file)["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(codes("move.sgf").contains(&"P303".to_string()));
    assert!(codes("re.sgf").contains(&"P306".to_string()));
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}

#[test]
fn a_seven_zip_header_listing_millions_of_entries_is_bounded() {
    let d = scratch("7z-listing");
    let n: u64 = 40_000_000;
    let number = |v: u64| {
        let mut b = vec![0xFF];
        b.extend(v.to_le_bytes());
        b
    };
    // Header, files info, n entries, a padding property of n bytes, ends.
    let mut h = vec![0x01, 0x05];
    h.extend(number(n));
    h.push(0x19);
    h.extend(number(n));
    h.resize(h.len() + n as usize, 0);
    h.extend([0x00, 0x00]);
    let mut start = Vec::new();
    start.extend(0u64.to_le_bytes());
    start.extend((h.len() as u64).to_le_bytes());
    start.extend(crc32fast::hash(&h).to_le_bytes());
    let mut archive = vec![b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4];
    archive.extend(crc32fast::hash(&start).to_le_bytes());
    archive.extend(start);
    archive.extend(h);
    let path = d.join("listing.7z");
    fs::write(&path, archive).unwrap();
    let r = run(&[arg(&path)], None);
    assert_eq!(
        r.rows[0]["error"],
        "not a readable 7z archive: 40000000 entries hold data but the blocks hold 0 files"
    );
    // The header read (40 MB) and a byte per entry (40 MB).
    assert!(r.peak_kib() < 120 * 1024, "{} KiB", r.peak_kib());
    let _ = fs::remove_dir_all(&d);
}

/// A collection of millions of empty game trees: `(;)` is a game tree in
/// three bytes, and whatever is kept per tree is many times that. A UTF-8
/// file above 4 MiB is read in parts, so memory stays flat; each tree costs
/// 24 bytes while its part is read. 3,000,000 trees and a real game (9 MB)
/// peaked at 479 MB before, and 20,000,000 (60 MB) at 2.9 GB.
#[test]
fn millions_of_empty_game_trees_keep_memory_flat() {
    let d = scratch("empty-trees");
    let mut text = "(;)".repeat(3_000_000);
    text.push_str(GAME);
    fs::write(d.join("empty.sgf"), text).unwrap();
    let r = run_in("summary", &["-j2", arg(&d)], None);
    ok_run(&r);
    summary_says(&r, "games: 3000001 (3000001 audited");
    // The real game at the end is scored.
    summary_says(&r, "scoring: 1 game(s) scored");
    assert!(r.peak_kib() < 200 * 1024, "{} KiB", r.peak_kib());
}

fn summary_says(r: &Run, text: &str) {
    assert!(r.stdout.contains(text), "{}", r.stdout);
}

/// The same on standard input: a large collection there is cut into parts
/// as it is read, as a file is. Ten million empty trees (30 MB) took 290 MB
/// when standard input was read whole (24 bytes a tree); 88 MB cut.
#[test]
fn millions_of_empty_game_trees_on_standard_input_keep_memory_flat() {
    let text = "(;)".repeat(10_000_000).into_bytes();
    let r = run_in("summary", &["-j2", "-"], Some(text));
    ok_run(&r);
    summary_says(&r, "files: 1 (0 unreadable)");
    summary_says(&r, "games: 10000000 (10000000 audited");
    assert!(r.peak_kib() < 160 * 1024, "{} KiB", r.peak_kib());
}

/// A million distinct games in one file under a long directory name: the
/// duplicate check keeps an entry per distinct game for the whole run, and
/// the file's name once, not once per game. 546 MB before (the name copied
/// into every entry), 205 MB after.
#[test]
fn a_million_distinct_games_keep_the_duplicate_table_small() {
    let d = scratch("distinct-games").join("d".repeat(200));
    fs::create_dir_all(&d).unwrap();
    let letters = b"abcdefghijklmnopqrs";
    let points: Vec<String> = letters
        .iter()
        .flat_map(|&x| {
            letters
                .iter()
                .map(move |&y| format!("{}{}", x as char, y as char))
        })
        .collect();
    let mut text = String::new();
    let mut games = 0;
    // Three moves on distinct points: every game is another line.
    'all: for a in &points[..40] {
        for b in points.iter().filter(|b| *b != a) {
            for c in points.iter().filter(|c| *c != a && *c != b) {
                text.push_str(&format!("(;B[{a}];W[{b}];B[{c}])"));
                games += 1;
                if games == 1_000_000 {
                    break 'all;
                }
            }
        }
    }
    fs::write(d.join("distinct.sgf"), text).unwrap();
    let r = run_in("summary", &["-j2", arg(&d)], None);
    ok_run(&r);
    assert!(
        r.stdout.contains("games: 1000000 (1000000 audited"),
        "{}",
        r.stdout
    );
    // No game repeats another.
    assert!(!r.stdout.contains("A508"), "{}", r.stdout);
    assert!(r.peak_kib() < 300 * 1024, "{} KiB", r.peak_kib());
}

/// Games of 12,000 illegal moves each: a report keeps 10,000 findings and
/// every verdict, about 2.5 MB. Rounds of 64 games a thread held about 160
/// of them at `-j4` (406 MB); rounds are now cut to about 8 MiB of reports a
/// thread, judged by the round before (172 MB).
#[test]
fn rounds_of_large_reports_are_cut_short() {
    let d = scratch("large-reports");
    let game = format!("(;SZ[19];B[aa]{})", ";W[aa];B[aa]".repeat(6_000));
    fs::write(d.join("illegal.sgf"), game.repeat(300)).unwrap();
    let r = run_in("summary", &["-j4", arg(&d)], None);
    ok_run(&r);
    assert!(r.stdout.contains("games: 300 (300 audited"), "{}", r.stdout);
    // Each game: 12,000 moves on an occupied point, under each ruleset.
    assert!(r.stdout.contains("aga           3600000"), "{}", r.stdout);
    assert!(r.peak_kib() < 260 * 1024, "{} KiB", r.peak_kib());
}

/// The same games with `--out --parquet`: the threads that write the files
/// are handed the games in batches, and the games on their way are held to
/// 16 MiB in all. Without that bound the writers, slower than the audit on
/// such games, were handed all 300 (831 MB).
#[test]
fn reports_on_their_way_to_the_file_writers_are_bounded() {
    let d = scratch("large-reports-out");
    let game = format!("(;SZ[19];B[aa]{})", ";W[aa];B[aa]".repeat(6_000));
    fs::write(d.join("illegal.sgf"), game.repeat(300)).unwrap();
    let out = d.join("out");
    let r = run_in(
        "summary",
        &[
            "-j4",
            arg(&d.join("illegal.sgf")),
            "--out",
            arg(&out),
            "--parquet",
        ],
        None,
    );
    ok_run(&r);
    let games = fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 301, "a header and a row per game");
    assert!(out.join("games.parquet").is_file());
    assert!(r.peak_kib() < 300 * 1024, "{} KiB", r.peak_kib());
}

/// A property identifier of 30,000,000 letters (no property has such a
/// name): sgf-parse held about ten times it (323 MB). It is cut to its
/// first KiB with a warning, and the game around it is read.
#[test]
fn a_long_property_identifier_is_cut() {
    let d = scratch("long-identifier");
    let name = "Q".repeat(30_000_000);
    fs::write(
        d.join("name.sgf"),
        format!("(;GM[1]SZ[9]{name}[x];B[ee];W[cc])"),
    )
    .unwrap();
    let r = run(&[arg(&d)], None);
    ok_run(&r);
    let row = row(&r, "name.sgf");
    assert_eq!(row["status"], "ok");
    assert_eq!(row["moves"], 2);
    let cut = finding(row, "S213");
    assert_eq!(
        cut["message"],
        "a property identifier of 30000000 letters; only its first 1024 were kept"
    );
    // The identifier starts at the 13th character of the first line.
    assert_eq!(
        (cut["line"].as_u64(), cut["column"].as_u64()),
        (Some(1), Some(13))
    );
    assert!(r.peak_kib() < 100 * 1024, "{} KiB", r.peak_kib());
}
