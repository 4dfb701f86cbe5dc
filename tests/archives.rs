//! Archives (.zip, .tar, .tar.gz, .tar.bz2): their game entries are audited like the files
//! they hold, and a damaged archive or entry is reported where it is damaged.

mod common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{jsonl, root, row_ending, scratch, sgf_files, zip_end_record};

/// The real games of the project's corpus, as (name inside the archive, bytes),
/// in the order a directory walk gives.
fn games() -> (PathBuf, Vec<(String, Vec<u8>)>) {
    let dir = root().join("corpus/real/gnugo-regression");
    let files = sgf_files(&dir)
        .into_iter()
        .map(|f| {
            let name = f.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
            (format!("games/{name}"), fs::read(&f).unwrap())
        })
        .collect();
    (dir, files)
}

fn write_zip(path: &Path, entries: &[(String, Vec<u8>)], method: zip::CompressionMethod) {
    let mut z = zip::ZipWriter::new(fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default().compression_method(method);
    z.add_directory("games/", opts).unwrap();
    z.start_file("games/README.txt", opts).unwrap();
    z.write_all(b"not a game").unwrap();
    for (name, bytes) in entries {
        z.start_file(name.as_str(), opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

fn tar(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let entries: Vec<(&str, &[u8])> = entries
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    common::tar_of(&entries, Vec::new())
}

fn tar_gz(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar(entries)).unwrap();
    gz.finish().unwrap()
}

/// At level 1 (100 kB blocks) the games span several bzip2 blocks, which
/// `-j4` decodes on threads of their own.
fn tar_bz2(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
    bz.write_all(&tar(entries)).unwrap();
    bz.finish().unwrap()
}

/// A row without its file name, to compare an entry with the file it came from.
/// The row without its file name, and with the names of other games it
/// cites (a duplicate's original) cut to the part after `prefix`.
fn without_name(r: serde_json::Value, prefix: &str) -> serde_json::Value {
    let mut text = r.to_string();
    if !prefix.is_empty() {
        text = text.replace(prefix, "@/");
    }
    let mut r: serde_json::Value = serde_json::from_str(&text).unwrap();
    r.as_object_mut().unwrap().remove("file");
    r
}

/// Asserts that `archive`, holding `entries` (from [`games`]) under `games/`,
/// is audited like the directory `dir` they came from: every game entry, in
/// the archive's order, named archive!entry (other entries are not games);
/// the same rows as the files; the same bytes at -j1 and -j4.
fn assert_audited_like_files(archive: &Path, dir: &Path, entries: &[(String, Vec<u8>)]) {
    let a = archive.to_str().unwrap();
    let (_, rows) = jsonl(&["-j1", a]);
    let names: Vec<String> = rows
        .iter()
        .map(|r| r["file"].as_str().unwrap().to_string())
        .collect();
    let want: Vec<String> = entries.iter().map(|(n, _)| format!("{a}!{n}")).collect();
    assert_eq!(names, want, "{a}");
    let (_, plain) = jsonl(&[dir.to_str().unwrap()]);
    let in_dir = format!("{}/", dir.display());
    let plain: Vec<_> = plain
        .into_iter()
        .map(|r| without_name(r, &in_dir))
        .collect();
    let in_archive = format!("{a}!games/");
    let rows: Vec<_> = rows
        .into_iter()
        .map(|r| without_name(r, &in_archive))
        .collect();
    assert_eq!(rows, plain, "{a}: the same audit as the files");
    let run = |jobs: &str| {
        Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .args(["check", "--format", "jsonl", "-q", jobs, a])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("-j1"), run("-j4"), "{a}: the same bytes for any -j");
}

#[test]
fn zip_and_tar_entries_are_audited_like_the_files_they_hold() {
    let d = scratch("arc-same");
    let (dir, entries) = games();
    assert!(entries.len() >= 30, "{} games", entries.len());
    let zip_path = d.join("games.zip");
    write_zip(&zip_path, &entries, zip::CompressionMethod::Deflated);
    let tgz_path = d.join("games.tar.gz");
    fs::write(&tgz_path, tar_gz(&entries)).unwrap();
    let tbz_path = d.join("games.tar.bz2");
    fs::write(&tbz_path, tar_bz2(&entries)).unwrap();
    let tar_path = d.join("games.tar");
    fs::write(&tar_path, tar(&entries)).unwrap();

    for archive in [&zip_path, &tgz_path, &tbz_path, &tar_path] {
        assert_audited_like_files(archive, &dir, &entries);
    }
    let _ = fs::remove_dir_all(&d);
}

/// A damaged `.tar.bz2` gives the same rows whatever `-j`: every bzip2 block
/// is decoded whole and checked before its bytes are read, on one decoding
/// thread or several. (Decoded as one stream at `-j1`, a damaged block's
/// bytes came out before its checksum failed, and the tar read from them
/// failed elsewhere, with another message.) Bits flipped at four places of
/// an archive of several blocks; each run names the damage.
#[test]
fn a_damaged_tar_bz2_gives_the_same_rows_for_any_jobs() {
    let d = scratch("arc-bz2-damaged");
    let (_, entries) = games();
    let good = tar_bz2(&entries);
    let text: usize = entries.iter().map(|(_, g)| g.len()).sum();
    assert!(text > 300_000, "several 100 kB blocks: {text} bytes");
    for (k, at) in [0.3, 0.45, 0.6, 0.8].into_iter().enumerate() {
        let mut bad = good.clone();
        let i = (bad.len() as f64 * at) as usize;
        bad[i] ^= 0x10;
        let path = d.join(format!("bad{k}.tar.bz2"));
        fs::write(&path, &bad).unwrap();
        let run = |jobs: &str| {
            let (_, rows) = jsonl(&[jobs, path.to_str().unwrap()]);
            rows
        };
        let one = run("-j1");
        assert!(
            one.iter().any(|r| r["status"] != "ok"),
            "{k}: the damage is reported"
        );
        assert_eq!(one, run("-j2"), "{k}: -j1 and -j2");
        assert_eq!(one, run("-j4"), "{k}: -j1 and -j4");
    }
    let _ = fs::remove_dir_all(&d);
}

/// Zips as other writers make them are read like the files they hold: with a
/// program before the archive (a self-extractor: every offset the directory
/// gives is short by the program's length), written as a stream (each
/// entry's sizes and CRC-32 in a data descriptor after its bytes), and with
/// an end record that counts fewer entries than its directory holds (writers
/// without ZIP64 keep that count modulo 65,536).
#[test]
fn zips_from_other_writers_are_read_whole() {
    let d = scratch("arc-writers");
    let (dir, entries) = games();
    let plain = d.join("plain.zip");
    write_zip(&plain, &entries, zip::CompressionMethod::Deflated);
    let bytes = fs::read(&plain).unwrap();

    let mut stub = b"#!/bin/sh\necho a self-extracting archive\nexit 0\n".to_vec();
    stub.extend_from_slice(&bytes);
    let stubbed = d.join("stub.zip");
    fs::write(&stubbed, stub).unwrap();

    let mut z = zip::ZipWriter::new_stream(Vec::new());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, game) in &entries {
        z.start_file(name.as_str(), opts).unwrap();
        z.write_all(game).unwrap();
    }
    let streamed = z.finish().unwrap().into_inner();
    let has_descriptors = |zip: &[u8]| zip.windows(4).any(|w| w == b"PK\x07\x08");
    assert!(has_descriptors(&streamed), "written as a stream");
    let streamed_path = d.join("stream.zip");
    fs::write(&streamed_path, streamed).unwrap();

    let mut wrapped = bytes.clone();
    let end = zip_end_record(&wrapped);
    for at in [end + 8, end + 10] {
        wrapped[at..at + 2].copy_from_slice(&1u16.to_le_bytes());
    }
    let wrapped_path = d.join("wrapped.zip");
    fs::write(&wrapped_path, wrapped).unwrap();

    for archive in [&stubbed, &streamed_path, &wrapped_path] {
        assert_audited_like_files(archive, &dir, &entries);
    }
    let _ = fs::remove_dir_all(&d);
}

/// A name without the UTF-8 flag is read in code page 437, the zip format's
/// own (APPNOTE appendix D), unless its bytes are UTF-8.
#[test]
fn a_zip_entry_name_without_the_utf8_flag_is_code_page_437() {
    let d = scratch("arc-cp437");
    let (_, entries) = games();
    let named = vec![
        ("games/x-cp437.sgf".to_string(), entries[0].1.clone()),
        ("games/\u{e9}-utf8.sgf".to_string(), entries[1].1.clone()),
    ];
    let path = d.join("names.zip");
    write_zip(&path, &named, zip::CompressionMethod::Stored);
    let mut bytes = fs::read(&path).unwrap();
    // 0x82 is \u{e9} (e acute) in code page 437, and no UTF-8 on its own.
    let (local, central) = entry_headers(&bytes, b"games/x-cp437.sgf");
    bytes[local + 30 + 6] = 0x82;
    bytes[central + 46 + 6] = 0x82;
    fs::write(&path, &bytes).unwrap();
    let (_, rows) = jsonl(&[path.to_str().unwrap()]);
    let names: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
    let p = path.to_str().unwrap();
    assert_eq!(
        names,
        [
            format!("{p}!games/\u{e9}-cp437.sgf"),
            format!("{p}!games/\u{e9}-utf8.sgf")
        ]
    );
    assert!(rows.iter().all(|r| r["status"] == "ok"), "{rows:?}");
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn archives_in_a_directory_are_read_in_the_walk() {
    let d = scratch("arc-walk");
    let (_, entries) = games();
    fs::create_dir_all(d.join("in")).unwrap();
    fs::write(d.join("in/a.sgf"), &entries[0].1).unwrap();
    write_zip(
        &d.join("in/b.ZIP"),
        &entries[1..3],
        zip::CompressionMethod::Stored,
    );
    fs::write(d.join("in/c.sgf"), &entries[3].1).unwrap();
    let (_, rows) = jsonl(&[d.join("in").to_str().unwrap()]);
    let names: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
    let base = d.join("in");
    let base = base.to_str().unwrap();
    assert_eq!(
        names,
        [
            format!("{base}/a.sgf"),
            format!("{base}/b.ZIP!{}", entries[1].0),
            format!("{base}/b.ZIP!{}", entries[2].0),
            format!("{base}/c.sgf"),
        ]
    );
    assert!(rows.iter().all(|r| r["status"] == "ok"));
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn damaged_archives_are_reported_where_they_are_damaged_and_the_run_goes_on() {
    let d = scratch("arc-damaged");
    let (_, entries) = games();
    // Not a zip at all.
    let garbage = d.join("garbage.zip");
    fs::write(&garbage, b"PK\x03\x04 and then nothing a zip needs").unwrap();
    // A tar.gz cut in the middle: the games before the cut are audited.
    let cut = d.join("cut.tgz");
    let whole = tar_gz(&entries);
    fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    // A zip whose second game uses a compression method sgfaudit does not
    // decode (PPMd, method 98): that entry is reported, the others audited.
    let odd = d.join("odd.zip");
    write_zip(&odd, &entries[..3], zip::CompressionMethod::Stored);
    let mut bytes = fs::read(&odd).unwrap();
    patch_method(&mut bytes, entries[1].0.as_bytes(), 98);
    fs::write(&odd, &bytes).unwrap();
    // An archive without a game.
    let empty = d.join("empty.zip");
    write_zip(&empty, &[], zip::CompressionMethod::Stored);
    let game = d.join("after.sgf");
    fs::write(&game, &entries[0].1).unwrap();

    let args: Vec<&str> = [&garbage, &cut, &odd, &empty, &game]
        .iter()
        .map(|p| p.to_str().unwrap())
        .collect();
    let (code, rows) = jsonl(&args);
    assert_eq!(code, 1, "unreadable inputs are errors");
    let status = |name: &str| -> Vec<(String, String)> {
        rows.iter()
            .filter(|r| r["file"].as_str().unwrap().starts_with(name))
            .map(|r| {
                (
                    r["status"].as_str().unwrap().to_string(),
                    r["error"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let g = status(garbage.to_str().unwrap());
    assert_eq!(g.len(), 1);
    assert!(g[0].1.contains("not a readable zip archive"), "{g:?}");

    let c = status(cut.to_str().unwrap());
    let ok = c.iter().filter(|(s, _)| s == "ok").count();
    assert!(ok >= 5 && ok < entries.len(), "{ok} games before the cut");
    let last = c.last().unwrap();
    assert!(last.1.contains("damaged or cut short"), "{c:?}");

    let o = status(odd.to_str().unwrap());
    assert_eq!(o.len(), 3, "{o:?}");
    assert_eq!((o[0].0.as_str(), o[2].0.as_str()), ("ok", "ok"));
    assert!(o[1].1.contains("cannot read this entry"), "{o:?}");

    let e = status(empty.to_str().unwrap());
    assert_eq!(e.len(), 1);
    assert!(e[0].1.contains("holds no *.sgf or *.sgfs entry"), "{e:?}");

    assert_eq!(status(game.to_str().unwrap())[0].0, "ok");
    let _ = fs::remove_dir_all(&d);
}

/// A deflated zip entry is inflated where it is audited: an entry whose
/// bytes do not match its declared CRC-32 is reported with that reason,
/// the entries beside it are audited.
#[test]
fn a_zip_entry_that_fails_its_checksum_is_reported_alone() {
    let d = scratch("arc-crc");
    let (_, entries) = games();
    let zip_path = d.join("crc.zip");
    write_zip(&zip_path, &entries[..3], zip::CompressionMethod::Deflated);
    let mut bytes = fs::read(&zip_path).unwrap();
    patch_crc(&mut bytes, entries[1].0.as_bytes());
    fs::write(&zip_path, &bytes).unwrap();
    let (code, rows) = jsonl(&[zip_path.to_str().unwrap()]);
    assert_eq!(code, 1, "an entry that cannot be unpacked is an error");
    let rows: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["error"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[1].0.ends_with(&entries[1].0), "{rows:?}");
    assert_eq!(rows[1].2, "cannot unpack the entry: Invalid checksum");
    assert_eq!((rows[0].1.as_str(), rows[2].1.as_str()), ("ok", "ok"));
    let _ = fs::remove_dir_all(&d);
}

/// Where the zip entry named `name` has its headers: the local header's
/// offset, then the central directory record's.
fn entry_headers(zip: &[u8], name: &[u8]) -> (usize, usize) {
    let le = |at: usize| u16::from_le_bytes([zip[at], zip[at + 1]]) as usize;
    let (mut local, mut central) = (Vec::new(), Vec::new());
    for at in 0..zip.len().saturating_sub(46) {
        let (len_at, name_at, found) = match &zip[at..at + 4] {
            b"PK\x03\x04" => (at + 26, at + 30, &mut local),
            b"PK\x01\x02" => (at + 28, at + 46, &mut central),
            _ => continue,
        };
        if zip.get(name_at..name_at + le(len_at)) == Some(name) {
            found.push(at);
        }
    }
    assert_eq!((local.len(), central.len()), (1, 1), "one header of each");
    (local[0], central[0])
}

/// Flips the declared CRC-32 of the zip entry named `name`, in its local
/// header and in the central directory.
fn patch_crc(zip: &mut [u8], name: &[u8]) {
    let (local, central) = entry_headers(zip, name);
    zip[local + 14] ^= 0xff;
    zip[central + 16] ^= 0xff;
}

/// Sets the compression method of the zip entry named `name`, in its local
/// header and in the central directory.
fn patch_method(zip: &mut [u8], name: &[u8], method: u16) {
    let (local, central) = entry_headers(zip, name);
    for at in [local + 8, central + 10] {
        zip[at..at + 2].copy_from_slice(&method.to_le_bytes());
    }
}

/// One entry of [`zip_by_hand`]: its name, method, general purpose flags,
/// the bytes as they lie in the archive, and the bytes they unpack to.
struct ZipEntry<'a> {
    name: &'a str,
    method: u16,
    flags: u16,
    data: Vec<u8>,
    plain: &'a [u8],
}

/// A zip written field by field (APPNOTE 4.3.7, 4.3.12, 4.3.16), for the
/// methods the zip crate here does not write.
fn zip_by_hand(entries: &[ZipEntry]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for e in entries {
        let local_at = out.len() as u32;
        let fields = |sig: &[u8], made_by: bool| {
            let mut h = sig.to_vec();
            if made_by {
                h.extend(20u16.to_le_bytes());
            }
            h.extend(63u16.to_le_bytes());
            h.extend(e.flags.to_le_bytes());
            h.extend(e.method.to_le_bytes());
            h.extend([0u8; 4]); // time and date
            h.extend(crc32fast::hash(e.plain).to_le_bytes());
            h.extend((e.data.len() as u32).to_le_bytes());
            h.extend((e.plain.len() as u32).to_le_bytes());
            h.extend((e.name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes()); // extra field
            h
        };
        out.extend(fields(b"PK\x03\x04", false));
        out.extend(e.name.as_bytes());
        out.extend(&e.data);
        central.extend(fields(b"PK\x01\x02", true));
        // Comment length, disk, internal and external attributes.
        central.extend([0u8; 10]);
        central.extend(local_at.to_le_bytes());
        central.extend(e.name.as_bytes());
    }
    let central_at = out.len() as u32;
    out.extend(&central);
    out.extend(b"PK\x05\x06");
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(central_at.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// A raw LZMA1 stream with the header a zip entry of method 14 begins with
/// (APPNOTE 5.8.8): version 9.20, 5 bytes of properties (lc 3, lp 0, pb 2,
/// a 1 MiB dictionary). liblzma ends a raw LZMA1 stream with its end marker,
/// which the entry's flag bit 1 announces.
fn zip_lzma(plain: &[u8]) -> Vec<u8> {
    let mut opts = liblzma::stream::LzmaOptions::new_preset(6).unwrap();
    opts.dict_size(1 << 20)
        .literal_context_bits(3)
        .literal_position_bits(0)
        .position_bits(2);
    let mut filters = liblzma::stream::Filters::new();
    filters.lzma1(&opts);
    let stream = liblzma::stream::Stream::new_raw_encoder(&filters).unwrap();
    let mut enc = liblzma::write::XzEncoder::new_stream(Vec::new(), stream);
    enc.write_all(plain).unwrap();
    let mut out = vec![9, 20, 5, 0, 3 + 45 * 2];
    out.extend((1u32 << 20).to_le_bytes());
    out.extend(enc.finish().unwrap());
    out
}

/// Zip entries packed with bzip2 (method 12, as `zip -Z bzip2` and Python's
/// `ZIP_BZIP2` write them), LZMA (14, Python's `ZIP_LZMA`, 7-Zip), xz (95)
/// and Zstandard (93, WinZip's and the `zip` crate's, and 20, an earlier
/// number for it) are read: each gives
/// the row of the plain file. One whose LZMA header is not LZMA 1's, a bzip2
/// entry whose bytes are not bzip2 data, an LZMA entry of 160 MiB whose
/// header asks for a 1 GiB dictionary (more than the 128 MiB a 7z block may
/// have) and one of PPMd (98) are rows that say so; the entries after them
/// are read.
#[test]
fn zip_entries_packed_with_bzip2_lzma_xz_and_zstd_are_read() {
    let d = scratch("zip-methods");
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let bz = bz2(&game);
    let mut bad_lzma = zip_lzma(&game);
    bad_lzma[2] = 4;
    // A 1 GiB dictionary, then 8 MiB of data: enough for 160 MiB unpacked
    // (twenty times), which its headers will claim.
    let mut huge_dictionary = zip_lzma(&game)[..9].to_vec();
    huge_dictionary[5..9].copy_from_slice(&(1u32 << 30).to_le_bytes());
    huge_dictionary.resize(9 + (8 << 20), 0);
    let entry = |name, method, flags, data| ZipEntry {
        name,
        method,
        flags,
        data,
        plain: &game,
    };
    let zip = zip_by_hand(&[
        entry("1-stored.sgf", 0, 0, game.clone()),
        entry("2-bzip2.sgf", 12, 0, bz.clone()),
        entry("3-lzma.sgf", 14, 2, zip_lzma(&game)),
        entry("4-xz.sgf", 95, 0, xz(&game)),
        entry("5-zstd.sgf", 93, 0, zstd(&game)),
        entry("6-bad-lzma.sgf", 14, 2, bad_lzma),
        entry("7-not-bzip2.sgf", 12, 0, game.clone()),
        entry("8-bzip2.sgf", 12, 0, bz),
        entry("9-huge-dictionary.sgf", 14, 2, huge_dictionary),
        entry("10-ppmd.sgf", 98, 0, game.clone()),
        entry("11-zstd-20.sgf", 20, 0, zstd(&game)),
    ]);
    let mut zip = zip;
    let (local, central) = entry_headers(&zip, b"9-huge-dictionary.sgf");
    for at in [local + 22, central + 24] {
        zip[at..at + 4].copy_from_slice(&(160u32 << 20).to_le_bytes());
    }
    let path = d.join("methods.zip");
    fs::write(&path, zip).unwrap();
    let (_, rows) = jsonl(&[path.to_str().unwrap()]);
    assert_eq!(rows.len(), 11);
    let plain = without_name(rows[0].clone(), "");
    assert_eq!(plain["status"], "ok");
    assert_eq!(plain["moves"], 10, "the record holds ten moves");
    for i in [1, 2, 3, 4, 7, 10] {
        assert_eq!(
            without_name(rows[i].clone(), ""),
            plain,
            "{}",
            rows[i]["file"]
        );
    }
    let error = |i: usize| rows[i]["error"].as_str().unwrap_or("").to_string();
    assert_eq!(
        error(5),
        "cannot read this entry of the zip archive: its LZMA header is not one of LZMA 1"
    );
    assert!(
        error(6).starts_with("cannot unpack the entry:"),
        "{}",
        error(6)
    );
    assert_eq!(
        error(8),
        "cannot read this entry of the zip archive: it needs a 160 MiB LZMA dictionary, \
         more than the 128 MiB allowed"
    );
    assert_eq!(
        error(9),
        "cannot read this entry of the zip archive: compression method 98 is not read \
         (stored, deflated, bzip2, LZMA, xz and Zstandard entries are)"
    );
    let _ = fs::remove_dir_all(&d);
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn bz2(bytes: &[u8]) -> Vec<u8> {
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(bytes).unwrap();
    bz.finish().unwrap()
}

/// `.sgf.gz` and `.sgf.bz2` files are the games they hold; one that is not
/// compressed data, one cut short and one that inflates past the size limit
/// are error rows that say so, in place.
#[test]
fn compressed_game_files_are_read_through_their_decompressor() {
    let d = scratch("sgf-gz");
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    fs::write(d.join("1.sgf"), &game).unwrap();
    fs::write(d.join("2.SGF.GZ"), gzip(&game)).unwrap();
    fs::write(d.join("3.sgf.bz2"), bz2(&game)).unwrap();
    fs::write(d.join("4-not-compressed.sgf.gz"), &game).unwrap();
    fs::write(d.join("5-cut.sgf.gz"), &gzip(&game)[..30]).unwrap();
    let mut big = b"(;GM[1]C[".to_vec();
    big.resize(3 << 20, b'x');
    big.extend_from_slice(b"])");
    fs::write(d.join("6-big.sgf.gz"), gzip(&big)).unwrap();

    let (_, rows) = jsonl(&["--max-file-size", "2M", d.to_str().unwrap()]);
    assert_eq!(rows.len(), 6, "every file appears");
    let plain = without_name(rows[0].clone(), "");
    for r in &rows[1..3] {
        assert_eq!(without_name(r.clone(), ""), plain, "{}", r["file"]);
    }
    let error = |i: usize| rows[i]["error"].as_str().unwrap_or("").to_string();
    assert!(
        error(3).starts_with("cannot decompress: not gzip, bzip2, xz or zstd data"),
        "{}",
        error(3)
    );
    assert!(error(4).starts_with("cannot decompress:"), "{}", error(4));
    assert!(error(5).contains("--max-file-size"), "{}", error(5));
}

/// Compressed data or an archive under a plain game name is not SGF text
/// (each format begins with bytes no text holds): one F003 row naming the
/// format, where reading it as text found either nothing or, in stored
/// bytes, a game between binary headers. The name the row advises reads it.
#[test]
fn compressed_bytes_under_a_game_name_are_named_for_what_they_are() {
    let d = scratch("packed-sgf");
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let mut stored = zip::ZipWriter::new_stream(Vec::new());
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    stored.start_file("g.sgf", opts).unwrap();
    stored.write_all(&game).unwrap();
    let stored = stored.finish().unwrap().into_inner();
    // Stored bytes hold the game's text as it is.
    assert!(stored.windows(game.len()).any(|w| w == game.as_slice()));
    let files = [
        ("1.sgf", gzip(&game), "gzip-compressed data", ".sgf.gz"),
        ("2.sgf", bz2(&game), "bzip2-compressed data", ".sgf.bz2"),
        ("3.sgf", xz(&game), "xz-compressed data", ".sgf.xz"),
        (
            "4.sgf",
            zstd(&game),
            "Zstandard-compressed data",
            ".sgf.zst",
        ),
        ("5.sgf", stored, "a zip archive", ".zip"),
        (
            "6.sgf",
            tar(&[("g.sgf".to_string(), game.clone())]),
            "a tar archive",
            ".tar",
        ),
    ];
    for (name, bytes, _, _) in &files {
        fs::write(d.join(name), bytes).unwrap();
    }
    fs::write(d.join("plain.sgf"), &game).unwrap();
    let (_, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(rows.len(), files.len() + 1, "{rows:?}");
    for (row, (name, _, what, read_as)) in rows.iter().zip(&files) {
        assert!(row["file"].as_str().unwrap().ends_with(name));
        assert_eq!(row["status"], "error");
        assert_eq!(row["encoding"], serde_json::Value::Null);
        let findings = row["findings"].as_array().unwrap();
        assert_eq!(findings.len(), 1, "{name}: {findings:?}");
        assert_eq!(findings[0]["code"], "F003");
        let error = row["error"].as_str().unwrap();
        assert!(
            error.contains(&format!(
                "the file is {what}, not SGF text (named {read_as} "
            )),
            "{name}: {error}"
        );
    }
    // Under the name the row gives, the same bytes are the game.
    for (name, bytes, _, read_as) in &files {
        let stem = name.trim_end_matches(".sgf");
        fs::write(d.join(format!("{stem}{read_as}")), bytes).unwrap();
        fs::remove_file(d.join(name)).unwrap();
    }
    let (_, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(rows.len(), files.len() + 1);
    let plain = row_ending(&rows, "/plain.sgf");
    for r in &rows {
        assert_eq!(without_name(r.clone(), ""), without_name(plain.clone(), ""));
    }
    let _ = fs::remove_dir_all(&d);
}

/// An AppleDouble header (RFC 1740): magic, version 2, filler, no entry.
fn apple_double() -> Vec<u8> {
    let mut bytes = vec![0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00];
    bytes.extend_from_slice(b"Mac OS X        ");
    bytes.extend_from_slice(&[0, 0]);
    bytes
}

/// The AppleDouble files macOS adds to the archives it makes (`._a.sgf`
/// beside each file, under `__MACOSX/` in a zip) hold metadata, never a
/// game: the archives give the rows of their games alone, as the directory
/// they were made from does (where `._a.sgf` is hidden). Read with
/// `--hidden`, such a file is an F003 row that says what it is.
#[test]
fn macos_metadata_in_archives_is_not_taken_for_games() {
    let d = scratch("macos-metadata");
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let apple_double = apple_double();
    let dir = d.join("games");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("a.sgf"), &game).unwrap();
    fs::write(dir.join("._a.sgf"), &apple_double).unwrap();

    let entries = vec![
        ("games/a.sgf".to_string(), game.clone()),
        ("__MACOSX/games/._a.sgf".to_string(), apple_double.clone()),
    ];
    write_zip(
        &d.join("mac.zip"),
        &entries,
        zip::CompressionMethod::Deflated,
    );
    let tar_entries = vec![
        ("./games/._a.sgf".to_string(), apple_double.clone()),
        ("./games/a.sgf".to_string(), game.clone()),
    ];
    fs::write(d.join("mac.tar.gz"), tar_gz(&tar_entries)).unwrap();

    let (_, plain) = jsonl(&[dir.join("a.sgf").to_str().unwrap()]);
    assert_eq!(plain.len(), 1);
    for archive in ["mac.zip", "mac.tar.gz"] {
        let (_, rows) = jsonl(&[d.join(archive).to_str().unwrap()]);
        assert_eq!(rows.len(), 1, "{archive}: {rows:?}");
        assert!(rows[0]["file"].as_str().unwrap().ends_with("games/a.sgf"));
        assert_eq!(
            without_name(rows[0].clone(), ""),
            without_name(plain[0].clone(), "")
        );
    }
    let (_, rows) = jsonl(&[dir.to_str().unwrap()]);
    assert_eq!(rows.len(), 1, "{rows:?}");

    let (_, rows) = jsonl(&["--hidden", dir.to_str().unwrap()]);
    assert_eq!(rows.len(), 2, "{rows:?}");
    let meta = &rows[0];
    assert!(meta["file"].as_str().unwrap().ends_with("/._a.sgf"));
    assert_eq!(meta["findings"][0]["code"], "F003");
    assert_eq!(
        meta["error"],
        "no SGF game tree `(;` found: the file is macOS metadata of another file (AppleDouble), \
         not SGF text (the file it describes has its name without the `._`)"
    );
    let _ = fs::remove_dir_all(&d);
}

/// The summary line that counts what was left out, if there is one.
fn left_out_line(args: &[&str]) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find(|l| l.trim_start().starts_with("left out:"))
        .map(|l| l.trim().to_string())
}

/// An archive's hidden game entries (a part of the path beginning with `.`)
/// are left out as the walk leaves hidden files out of a directory, unless
/// `--hidden`, and macOS's metadata always; each one left out is counted in
/// the summary, never passed over in silence. Hand count: of the six game
/// entries below, `a.sgf` is read; `.b.sgf` and `.drafts/c.sgf` are hidden;
/// `._a.sgf` and `__MACOSX/games/._a.sgf` are metadata (the last in the zip
/// alone, which macOS writes there). `./games/a.sgf`, as tar writes names,
/// is not hidden.
#[test]
fn hidden_archive_entries_are_left_out_and_counted() {
    let d = scratch("hidden-entries");
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let apple_double = apple_double();
    let named = |names: &[&str]| -> Vec<(String, Vec<u8>)> {
        names
            .iter()
            .map(|n| {
                let bytes = if n.contains("._") {
                    &apple_double
                } else {
                    &game
                };
                (n.to_string(), bytes.clone())
            })
            .collect()
    };
    let common = ["a.sgf", ".b.sgf", ".drafts/c.sgf", "._a.sgf", "notes.txt"];
    let in_dir = |prefix: &str| -> Vec<(String, Vec<u8>)> {
        named(
            &common
                .map(|n| format!("{prefix}{n}"))
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
    };
    let mut zip_entries = in_dir("games/");
    zip_entries.extend(named(&["__MACOSX/games/._a.sgf"]));
    write_zip(
        &d.join("g.zip"),
        &zip_entries,
        zip::CompressionMethod::Deflated,
    );
    fs::write(d.join("g.tar.gz"), tar_gz(&in_dir("./games/"))).unwrap();
    fs::write(
        d.join("g.7z"),
        seven_zip(&[Block7::copy(&in_dir("games/"))], &[]),
    )
    .unwrap();

    for (archive, metadata) in [("g.zip", 2), ("g.tar.gz", 1), ("g.7z", 1)] {
        let path = d.join(archive);
        let path = path.to_str().unwrap();
        let (_, rows) = jsonl(&[path]);
        let files: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
        assert_eq!(files.len(), 1, "{archive}: {files:?}");
        assert!(files[0].ends_with("games/a.sgf"), "{archive}: {files:?}");
        let hidden_too = 2 + metadata;
        assert!(
            left_out_line(&[path])
                .is_some_and(|l| l.starts_with(&format!("left out: {hidden_too} ("))),
            "{archive}: {:?}",
            left_out_line(&[path])
        );

        let (_, rows) = jsonl(&["--hidden", path]);
        let mut files: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
        files.sort_unstable();
        assert_eq!(files.len(), 3, "{archive}: {files:?}");
        for (file, end) in files
            .iter()
            .zip(["games/.b.sgf", "games/.drafts/c.sgf", "games/a.sgf"])
        {
            assert!(file.ends_with(end), "{archive}: {files:?}");
        }
        assert!(
            left_out_line(&["--hidden", path])
                .is_some_and(|l| l.starts_with(&format!("left out: {metadata} ("))),
            "{archive}"
        );
    }
    // An archive whose game entries are all left out says so.
    write_zip(
        &d.join("only-hidden.zip"),
        &named(&[".a.sgf", "__MACOSX/._a.sgf", "notes.txt"]),
        zip::CompressionMethod::Deflated,
    );
    let (_, rows) = jsonl(&[d.join("only-hidden.zip").to_str().unwrap()]);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert!(
        rows[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("all the archive's game entries (2) are left out"),
        "{rows:?}"
    );
    // explain reads a hidden entry it is asked for by name, never metadata.
    let explain = |entry: &str| {
        Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .arg("explain")
            .arg(format!("{}!{entry}", d.join("g.zip").to_str().unwrap()))
            .output()
            .unwrap()
    };
    assert_eq!(explain("games/.drafts/c.sgf").status.code(), Some(0));
    let metadata = explain("__MACOSX/games/._a.sgf");
    assert_eq!(metadata.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&metadata.stderr).contains("macOS metadata"));
    let _ = fs::remove_dir_all(&d);
}

/// Compressed game files inside a zip, a tar.gz and a 7z are the games they
/// hold, read as such files are on disk: each archive gives, in its own
/// order, the rows the same files give in a directory (names aside), so the
/// gzip, bzip2 and xz copies give the plain game's row, and the entry that is
/// not compressed data, the one cut short and the one that inflates past the
/// size limit are error rows that say so; a compressed file that is no game
/// (`notes.txt.gz`) is skipped, as `notes.txt` is.
#[test]
fn compressed_game_entries_in_archives_are_read_like_such_files() {
    let d = scratch("arc-sgf-gz");
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let mut big = b"(;GM[1]C[".to_vec();
    big.resize(3 << 20, b'x');
    big.extend_from_slice(b"])");
    let files: Vec<(String, Vec<u8>)> = [
        ("1.sgf", game.clone()),
        ("2.SGF.GZ", gzip(&game)),
        ("3.sgf.bz2", bz2(&game)),
        ("4.sgf.xz", xz(&game)),
        ("5-not-compressed.sgf.gz", game.clone()),
        ("6-cut.sgf.gz", gzip(&game)[..30].to_vec()),
        ("7-big.sgf.gz", gzip(&big)),
        ("8-notes.txt.gz", gzip(b"not a game")),
    ]
    .into_iter()
    .map(|(n, b)| (n.to_string(), b))
    .collect();
    let dir = d.join("dir");
    fs::create_dir(&dir).unwrap();
    for (name, bytes) in &files {
        fs::write(dir.join(name), bytes).unwrap();
    }
    let (_, in_dir) = jsonl(&["--max-file-size", "2M", dir.to_str().unwrap()]);
    assert_eq!(in_dir.len(), 7, "every game file appears once");
    let error = |r: &serde_json::Value| r["error"].as_str().unwrap_or("").to_string();
    let plain = without_name(in_dir[0].clone(), "");
    assert_eq!(plain["status"], "ok");

    let zip_path = d.join("games.zip");
    let mut z = zip::ZipWriter::new(fs::File::create(&zip_path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, bytes) in &files {
        z.start_file(name.as_str(), opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
    let tgz_path = d.join("games.tar.gz");
    fs::write(&tgz_path, tar_gz(&files)).unwrap();
    let sz_path = d.join("games.7z");
    fs::write(&sz_path, seven_zip(&[Block7::copy(&files)], &[])).unwrap();

    for archive in [&zip_path, &tgz_path, &sz_path] {
        let a = archive.to_str().unwrap();
        let (_, rows) = jsonl(&["--max-file-size", "2M", a]);
        let names: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
        let want: Vec<String> = files[..7].iter().map(|(n, _)| format!("{a}!{n}")).collect();
        assert_eq!(names, want, "{a}");
        for r in &rows[1..4] {
            assert_eq!(without_name(r.clone(), ""), plain, "{}", r["file"]);
        }
        assert!(
            error(&rows[4]).starts_with("cannot decompress: not gzip, bzip2, xz or zstd data"),
            "{a}: {}",
            error(&rows[4])
        );
        assert!(
            error(&rows[5]).starts_with("cannot decompress:"),
            "{a}: {}",
            error(&rows[5])
        );
        assert!(
            error(&rows[6]).contains("--max-file-size"),
            "{a}: {}",
            error(&rows[6])
        );
        let rows: Vec<_> = rows.into_iter().map(|r| without_name(r, "")).collect();
        let dir_rows: Vec<_> = in_dir.iter().map(|r| without_name(r.clone(), "")).collect();
        assert_eq!(
            rows, dir_rows,
            "{a}: the rows of the same files in a directory"
        );
    }
    let _ = fs::remove_dir_all(&d);
}

/// KataGo's `selfplay` and `match` write their games as `*.sgfs` files, a
/// game a line: such a file is a game file like `*.sgf`, in a directory
/// (any letter case), compressed alone and inside an archive. Three
/// one-line records of corpus/rules in one `.sgfs` give three games with
/// the moves their text holds and the illegal move each is written for.
#[test]
fn katago_sgfs_collections_are_game_files() {
    let d = scratch("sgfs");
    let names = ["ko-immediate", "ko-pass", "occupied"];
    let records: Vec<Vec<u8>> = names
        .iter()
        .map(|n| fs::read(root().join(format!("corpus/rules/{n}.sgf"))).unwrap())
        .collect();
    let moves: Vec<usize> = records
        .iter()
        .map(|r| {
            let text = String::from_utf8_lossy(r);
            text.matches(";B[").count() + text.matches(";W[").count()
        })
        .collect();
    let mut sgfs = Vec::new();
    for r in &records {
        assert!(!r.trim_ascii().contains(&b'\n'), "a game a line");
        sgfs.extend_from_slice(r.trim_ascii());
        sgfs.push(b'\n');
    }
    let dir = d.join("selfplay");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("A1.sgfs"), &sgfs).unwrap();
    fs::write(dir.join("B2.SGFS"), &sgfs).unwrap();
    fs::write(dir.join("C3.sgfs.gz"), gzip(&sgfs)).unwrap();
    fs::write(
        dir.join("D4.tar.gz"),
        tar_gz(&[("sgfs/E5.sgfs".to_string(), sgfs.clone())]),
    )
    .unwrap();
    let (_, rows) = jsonl(&[dir.to_str().unwrap()]);
    let files = ["A1.sgfs", "B2.SGFS", "C3.sgfs.gz", "D4.tar.gz!sgfs/E5.sgfs"];
    assert_eq!(rows.len(), files.len() * names.len());
    for (i, r) in rows.iter().enumerate() {
        let (file, game) = (files[i / names.len()], i % names.len());
        assert!(r["file"].as_str().unwrap().ends_with(file), "{}", r["file"]);
        assert_eq!(r["game"], game);
        assert_eq!(r["status"], "ok", "{r}");
        assert_eq!(r["moves"], moves[game], "{file} game {game}");
    }
    let codes = |game: usize| -> Vec<String> {
        rows[game]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(codes(0).contains(&"R404".to_string()), "{:?}", codes(0));
    assert!(codes(2).contains(&"R401".to_string()), "{:?}", codes(2));
    let _ = fs::remove_dir_all(&d);
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `.sgf.xz` and `.tar.xz` are read like their gzip and bzip2 kin: every
/// game gives the row its plain file gives.
#[test]
fn xz_files_and_tars_are_read() {
    let (_, entries) = games();
    let d = scratch("xz");
    fs::write(d.join("all.tar.xz"), xz(&tar(&entries))).unwrap();
    fs::write(d.join("one.sgf.xz"), xz(&entries[0].1)).unwrap();
    fs::write(d.join("one.sgf"), &entries[0].1).unwrap();
    let (_, rows) = jsonl(&[d.to_str().unwrap()]);
    assert_eq!(rows.len(), entries.len() + 2);
    let plain = row_ending(&rows, "/one.sgf");
    let from_xz = row_ending(&rows, "/one.sgf.xz");
    assert_eq!(
        without_name(plain.clone(), ""),
        without_name(from_xz.clone(), "")
    );
    let in_tar = rows
        .iter()
        .filter(|r| r["file"].as_str().unwrap().contains("all.tar.xz!games/"))
        .filter(|r| r["status"] == "ok")
        .count();
    let plain_ok = {
        let (_, direct) = jsonl(&[root()
            .join("corpus/real/gnugo-regression")
            .to_str()
            .unwrap()]);
        direct.iter().filter(|r| r["status"] == "ok").count()
    };
    assert_eq!(in_tar, plain_ok);
}

/// Zstandard is read like gzip, bzip2 and xz: a `.tar.zst` or `.tzst`
/// archive is audited like the files it holds, and a `.sgf.zst` file gives
/// the rows of its plain file whether it is one frame, frames one after the
/// other (`cat a.zst b.zst`, as `zstdcat` reads it) or starts with a
/// skippable frame (RFC 8878, 3.1.2; `pzstd` writes one). Inside a zip, a
/// `.sgf.zst` entry is decompressed and a `.tar.zst` entry read as a tar.
#[test]
fn zstd_files_and_tars_are_read() {
    let (dir, entries) = games();
    let d = scratch("zstd");
    let t = tar(&entries);
    for name in ["games.tar.zst", "games.tzst"] {
        fs::write(d.join(name), zstd(&t)).unwrap();
        assert_audited_like_files(&d.join(name), &dir, &entries);
    }
    // A collection of three games: the first two and the third in frames of their own.
    let games: Vec<&[u8]> = entries[..3].iter().map(|(_, b)| b.as_slice()).collect();
    let collection = games.concat();
    let one = d.join("files");
    fs::create_dir(&one).unwrap();
    fs::write(one.join("plain.sgf"), &collection).unwrap();
    fs::write(one.join("one-frame.sgf.zst"), zstd(&collection)).unwrap();
    let mut framed = zstd(&games[..2].concat());
    framed.extend(zstd(games[2]));
    fs::write(one.join("two-frames.sgf.zst"), framed).unwrap();
    // A skippable frame of 4 bytes, then the data.
    let mut skippable = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
    skippable.extend(zstd(&collection));
    fs::write(one.join("skippable-first.sgf.zst"), skippable).unwrap();
    // Each file audited alone: together, their games are duplicates of each other.
    let of = |file: &str| -> Vec<serde_json::Value> {
        let (_, rows) = jsonl(&[one.join(file).to_str().unwrap()]);
        rows.into_iter().map(|r| without_name(r, "")).collect()
    };
    let plain = of("plain.sgf");
    assert_eq!(plain.len(), 3, "three games");
    assert!(plain.iter().all(|r| r["status"] == "ok"), "{plain:?}");
    for file in [
        "one-frame.sgf.zst",
        "two-frames.sgf.zst",
        "skippable-first.sgf.zst",
    ] {
        assert_eq!(of(file), plain, "{file}");
    }
    let zip_path = d.join("outer.zip");
    write_zip(
        &zip_path,
        &[
            ("c.sgf.zst".to_string(), zstd(&collection)),
            ("inner.tar.zst".to_string(), zstd(&t)),
        ],
        zip::CompressionMethod::Stored,
    );
    let (_, rows) = jsonl(&[zip_path.to_str().unwrap()]);
    let z = zip_path.to_str().unwrap();
    let from_entry: Vec<_> = rows
        .iter()
        .filter(|r| r["file"] == format!("{z}!c.sgf.zst"))
        .map(|r| without_name(r.clone(), ""))
        .collect();
    assert_eq!(from_entry, plain);
    let from_tar = rows
        .iter()
        .filter(|r| {
            r["file"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{z}!inner.tar.zst!games/"))
        })
        .count();
    assert_eq!(from_tar, entries.len());
    let _ = fs::remove_dir_all(&d);
}

/// A zstd frame whose header declares a 2 GiB window (exponent 21, RFC 8878
/// 3.1.1.1.2: 1 << (10 + 21) bytes) is refused by the decoder's window
/// limit, with the limit named, whether it is a game file or a tar; a cut
/// `.sgf.zst` keeps the games before the cut, then says why it stops.
#[test]
fn a_zstd_frame_asking_for_a_huge_window_is_refused() {
    let d = scratch("zstd-window");
    let game = b"(;SZ[9];B[ee])";
    // Magic, a descriptor with no content size, the window byte, then one
    // raw last block holding the game.
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 21 << 3];
    let header = (game.len() as u32) << 3 | 1;
    frame.extend(&header.to_le_bytes()[..3]);
    frame.extend(game);
    fs::write(d.join("big.sgf.zst"), &frame).unwrap();
    fs::write(d.join("t.tar.zst"), &frame).unwrap();
    // The same frame with a window of 1 KiB (exponent 0) is read.
    frame[5] = 0;
    fs::write(d.join("small.sgf.zst"), &frame).unwrap();
    // Real games, twice, over several 128 KiB blocks (a block is decoded whole).
    let (_, entries) = games();
    let collection: Vec<u8> = entries.iter().flat_map(|(_, b)| b.clone()).collect();
    let collection = collection.repeat(2);
    assert!(collection.len() > 4 << 17, "{} bytes", collection.len());
    let packed = zstd(&collection);
    fs::write(d.join("cut.sgf.zst"), &packed[..packed.len() * 3 / 4]).unwrap();
    let (_, rows) = jsonl(&[d.to_str().unwrap()]);
    let of = |suffix: &str| -> Vec<&serde_json::Value> {
        rows.iter()
            .filter(|r| r["file"].as_str().unwrap().contains(suffix))
            .collect()
    };
    let error = |suffix: &str| of(suffix)[0]["error"].as_str().unwrap_or("").to_string();
    for file in ["big.sgf.zst", "t.tar.zst"] {
        assert_eq!(of(file).len(), 1, "{file}");
        assert!(
            error(file).contains("a window of more than 128 MiB"),
            "{file}: {}",
            error(file)
        );
    }
    assert_eq!(of("small.sgf.zst")[0]["status"], "ok");
    assert_eq!(of("small.sgf.zst")[0]["moves"], 1);
    let cut = of("cut.sgf.zst");
    let ok = cut.iter().filter(|r| r["status"] == "ok").count();
    assert!(
        ok > 0 && ok < 2 * entries.len(),
        "{ok} games before the cut"
    );
    assert!(
        cut.last().unwrap()["error"]
            .as_str()
            .unwrap_or("")
            .starts_with("cannot decompress: "),
        "{:?}",
        cut.last()
    );
    let _ = fs::remove_dir_all(&d);
}

/// An xz stream whose header declares a 1.5 GiB dictionary (made with
/// Python: `lzma.compress(b"(;SZ[9];B[ee])" * 10, format=lzma.FORMAT_XZ,
/// filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1536 << 20}])`) would
/// make the decoder allocate it: it is refused by the decoder's memory
/// limit, at once and in bounded memory.
#[test]
fn an_xz_stream_asking_for_a_huge_dictionary_is_refused() {
    let d = scratch("xz-dict");
    fs::copy(
        root().join("tests/data/xz-1536mib-dictionary.sgf.xz"),
        d.join("big.sgf.xz"),
    )
    .unwrap();
    let t = tar(&[("g.sgf".to_string(), b"(;SZ[9];B[ee])".to_vec())]);
    // The same stream as a tar.xz: the tar reader's decoder has the limit too.
    let mut bomb_tar = fs::read(root().join("tests/data/xz-1536mib-dictionary.sgf.xz")).unwrap();
    bomb_tar.truncate(bomb_tar.len());
    fs::write(d.join("t.tar.xz"), &bomb_tar).unwrap();
    fs::write(d.join("ok.tar.xz"), xz(&t)).unwrap();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "-q", "--format", "jsonl"])
        .arg(&d)
        .output();
    let Ok(out) = out else {
        return; // no /usr/bin/time here: the rows are checked below anyway
    };
    let peak_kib: u64 = String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let error = |suffix: &str| {
        rows.iter()
            .find(|r| r["file"].as_str().unwrap().contains(suffix))
            .map(|r| r["error"].as_str().unwrap_or("").to_string())
            .unwrap_or_else(|| panic!("no row for {suffix}"))
    };
    assert!(
        error("big.sgf.xz").contains("memory limit"),
        "{}",
        error("big.sgf.xz")
    );
    assert!(
        error("t.tar.xz").contains("memory limit"),
        "{}",
        error("t.tar.xz")
    );
    assert_eq!(error("ok.tar.xz!g.sgf"), "");
    assert!(peak_kib < 200 * 1024, "{peak_kib} KiB");
}

/// An archive inside an archive is read one level deep, its entries named
/// OUTER!INNER!ENTRY; one nested deeper gets a row saying it is not read.
#[test]
fn archives_inside_archives_are_read_one_level_deep() {
    let game = b"(;GM[1]SZ[9];B[ee];W[ce])".to_vec();
    let d = scratch("nested");
    let inner_zip = d.join("inner.zip");
    write_zip(
        &inner_zip,
        &[("games/a.sgf".to_string(), game.clone())],
        zip::CompressionMethod::Deflated,
    );
    let deepest = d.join("deepest.zip");
    write_zip(
        &deepest,
        &[("x.sgf".to_string(), game.clone())],
        zip::CompressionMethod::Stored,
    );
    let middle = d.join("middle.zip");
    write_zip(
        &middle,
        &[("deepest.zip".to_string(), fs::read(&deepest).unwrap())],
        zip::CompressionMethod::Stored,
    );
    let outer = d.join("outer.zip");
    write_zip(
        &outer,
        &[
            ("inner.zip".to_string(), fs::read(&inner_zip).unwrap()),
            (
                "b.tar.gz".to_string(),
                tar_gz(&[("b.sgf".to_string(), game.clone())]),
            ),
            ("middle.zip".to_string(), fs::read(&middle).unwrap()),
        ],
        zip::CompressionMethod::Deflated,
    );
    let (_, rows) = jsonl(&[outer.to_str().unwrap()]);
    let named: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            let f = r["file"].as_str().unwrap();
            let short = f.rsplit_once("outer.zip").unwrap().1.to_string();
            (short, r["error"].as_str().unwrap_or("").to_string())
        })
        .collect();
    assert_eq!(
        named,
        [
            ("!inner.zip!games/a.sgf".to_string(), String::new()),
            ("!b.tar.gz!b.sgf".to_string(), String::new()),
            (
                "!middle.zip!deepest.zip".to_string(),
                "skipped: an archive nested two deep is not read".to_string()
            ),
        ]
    );
}

/// A tar inside an archive, plain or compressed, is read as it is unpacked,
/// as one on disk is: nothing of it is held whole, so one larger than
/// --max-file-size (which bounds a game file, not an archive) has its games
/// read, where it was refused whole; an archive inside it is still one
/// level too deep.
#[test]
fn a_tar_inside_an_archive_is_read_as_it_is_unpacked() {
    let d = scratch("nested-tar");
    // The inner tar.gz is far larger than the 20 KB limit, each game far smaller.
    let mut entries = incompressible_games();
    let deep = tar(&[("x.sgf".to_string(), b"(;GM[1];B[aa])".to_vec())]);
    entries.push(("deep.tar".to_string(), deep));
    let inner = tar_gz(&entries);
    assert!(inner.len() > 60_000, "{}", inner.len());
    let outer_zip = d.join("outer.zip");
    write_zip(
        &outer_zip,
        &[("inner.tar.gz".to_string(), inner.clone())],
        zip::CompressionMethod::Stored,
    );
    let outer_tar = d.join("outer.tar");
    fs::write(&outer_tar, tar(&[("inner.tar.gz".to_string(), inner)])).unwrap();
    for outer in [&outer_zip, &outer_tar] {
        let arg = outer.to_str().unwrap();
        let (_, rows) = jsonl(&["--max-file-size", "20K", arg]);
        let got = files_and_errors(&rows);
        let mut want: Vec<(String, String)> = (0..40)
            .map(|i| (format!("{arg}!inner.tar.gz!g{i:02}.sgf"), String::new()))
            .collect();
        want.push((
            format!("{arg}!inner.tar.gz!deep.tar"),
            "skipped: an archive nested two deep is not read".to_string(),
        ));
        assert_eq!(got, want, "{arg}");
        assert!(rows[..40].iter().all(|r| r["moves"] == 2), "{arg}");
    }
}

/// Each row's file and error ("" when it has none).
fn files_and_errors(rows: &[serde_json::Value]) -> Vec<(String, String)> {
    rows.iter()
        .map(|r| {
            let f = r["file"].as_str().unwrap().to_string();
            (f, r["error"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

/// Forty games of 3 KB (two moves each) whose comments do not compress
/// away, named `gNN.sgf`.
fn incompressible_games() -> Vec<(String, Vec<u8>)> {
    let mut seed = 0x9e37_79b9u32;
    (0..40)
        .map(|i| {
            let mut g = b"(;GM[1]SZ[9]C[".to_vec();
            for _ in 0..3000 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                g.push(b'a' + (seed >> 16) as u8 % 26);
            }
            g.extend_from_slice(b"];B[ee];W[ce])");
            (format!("g{i:02}.sgf"), g)
        })
        .collect()
}

/// A zip or 7z stored in a zip (Info-ZIP's `zip` stores `.zip` files by
/// default) is read where it lies, by seeking within the outer archive:
/// nothing of it is held, so one larger than --max-file-size (which bounds a
/// game file, not an archive) has its games read, where it was refused
/// whole. A stored zip cut short is a row saying so and the entries after it
/// are read; an archive inside the stored one is one level too deep.
#[test]
fn a_zip_or_7z_stored_in_a_zip_is_read_where_it_lies() {
    let d = scratch("nested-in-place");
    let games = incompressible_games();
    let inner_zip = d.join("inner.zip");
    let mut with_deep = games.clone();
    let deep = d.join("deep.zip");
    write_zip(&deep, &games[..1], zip::CompressionMethod::Stored);
    with_deep.push(("deep.zip".to_string(), fs::read(&deep).unwrap()));
    write_zip(&inner_zip, &with_deep, zip::CompressionMethod::Deflated);
    let inner_zip = fs::read(&inner_zip).unwrap();
    let inner_7z = seven_zip(&[Block7::lzma(&games, true)], &[]);
    let cut = inner_zip[..inner_zip.len() - 30].to_vec();
    for inner in [&inner_zip, &inner_7z] {
        assert!(inner.len() > 60_000, "{}", inner.len());
    }
    let outer = d.join("outer.zip");
    write_zip(
        &outer,
        &[
            ("a.zip".to_string(), inner_zip),
            ("b.7z".to_string(), inner_7z),
            ("c.zip".to_string(), cut),
            ("z.sgf".to_string(), b"(;GM[1]SZ[9];B[ee])".to_vec()),
        ],
        zip::CompressionMethod::Stored,
    );
    let arg = outer.to_str().unwrap();
    let (_, rows) = jsonl(&["--max-file-size", "20K", arg]);
    let got = files_and_errors(&rows);
    let mut want: Vec<(String, String)> = Vec::new();
    for inner in ["a.zip", "b.7z"] {
        want.extend((0..40).map(|i| (format!("{arg}!{inner}!g{i:02}.sgf"), String::new())));
        if inner == "a.zip" {
            want.push((
                format!("{arg}!a.zip!deep.zip"),
                "skipped: an archive nested two deep is not read".to_string(),
            ));
        }
    }
    assert_eq!(got[..81], want[..], "{arg}");
    let games_read = rows.iter().filter(|r| r["moves"] == 2).count();
    assert_eq!(games_read, 80);
    assert_eq!(got.len(), 83, "{got:?}");
    assert_eq!(got[81].0, format!("{arg}!c.zip"));
    assert!(
        got[81].1.starts_with("not a readable zip archive"),
        "{}",
        got[81].1
    );
    assert_eq!(got[82], (format!("{arg}!z.sgf"), String::new()));
    let _ = fs::remove_dir_all(&d);
}

// ---- 7z ----------------------------------------------------------------

/// A 7z NUMBER: one byte below 0x80, else 0xFF and eight bytes.
fn number_7z(out: &mut Vec<u8>, v: u64) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        out.push(0xFF);
        out.extend(v.to_le_bytes());
    }
}

/// One block of a 7z archive written by [`seven_zip`]: a coder (method id and
/// properties), its packed bytes, the size it unpacks to, and the files in it
/// (name, size, CRC).
struct Block7 {
    method: Vec<u8>,
    properties: Vec<u8>,
    packed: Vec<u8>,
    unpacked: u64,
    files: Vec<(String, u64, u32)>,
}

impl Block7 {
    /// Files stored as they are (the Copy method).
    fn copy(files: &[(String, Vec<u8>)]) -> Block7 {
        let packed: Vec<u8> = files.iter().flat_map(|f| f.1.clone()).collect();
        Block7 {
            method: vec![0x00],
            properties: vec![],
            unpacked: packed.len() as u64,
            packed,
            files: files
                .iter()
                .map(|(n, b)| (n.clone(), b.len() as u64, crc32fast::hash(b)))
                .collect(),
        }
    }

    /// Files packed with LZMA2 (`two`) or LZMA by liblzma's raw encoder.
    fn lzma(files: &[(String, Vec<u8>)], two: bool) -> Block7 {
        let mut b = Block7::copy(files);
        let mut opts = liblzma::stream::LzmaOptions::new_preset(6).unwrap();
        opts.dict_size(1 << 20);
        let mut filters = liblzma::stream::Filters::new();
        if two {
            filters.lzma2(&opts);
            // 1 MiB: (2 | 0) << (18 / 2 + 11).
            b.method = vec![0x21];
            b.properties = vec![18];
        } else {
            filters.lzma1(&opts);
            b.method = vec![0x03, 0x01, 0x01];
            // lc 3, lp 0, pb 2, then the dictionary size.
            b.properties = vec![3 + 2 * 45];
            b.properties.extend((1u32 << 20).to_le_bytes());
        }
        let stream = liblzma::stream::Stream::new_raw_encoder(&filters).unwrap();
        let mut enc = liblzma::write::XzEncoder::new_stream(Vec::new(), stream);
        enc.write_all(&b.packed).unwrap();
        b.packed = enc.finish().unwrap();
        b
    }
}

/// A 7z archive of these blocks, with a plain header (7zFormat.txt), the
/// blocks' files named in order and `empty` files without data after them.
fn seven_zip(blocks: &[Block7], empty: &[&str]) -> Vec<u8> {
    let mut h = vec![0x01, 0x04, 0x06, 0x00];
    number_7z(&mut h, blocks.len() as u64);
    h.push(0x09);
    for b in blocks {
        number_7z(&mut h, b.packed.len() as u64);
    }
    h.extend([0x00, 0x07, 0x0B]);
    number_7z(&mut h, blocks.len() as u64);
    h.push(0x00);
    for b in blocks {
        h.push(0x01);
        h.push(b.method.len() as u8 | if b.properties.is_empty() { 0 } else { 0x20 });
        h.extend(&b.method);
        if !b.properties.is_empty() {
            number_7z(&mut h, b.properties.len() as u64);
            h.extend(&b.properties);
        }
    }
    h.push(0x0C);
    for b in blocks {
        number_7z(&mut h, b.unpacked);
    }
    h.extend([0x00, 0x08, 0x0D]);
    for b in blocks {
        number_7z(&mut h, b.files.len() as u64);
    }
    h.push(0x09);
    for b in blocks {
        for f in &b.files[..b.files.len() - 1] {
            number_7z(&mut h, f.1);
        }
    }
    // Every file's CRC.
    h.extend([0x0A, 0x01]);
    for b in blocks {
        for f in &b.files {
            h.extend(f.2.to_le_bytes());
        }
    }
    h.extend([0x00, 0x00, 0x05]);
    let names: Vec<&str> = blocks
        .iter()
        .flat_map(|b| b.files.iter().map(|f| f.0.as_str()))
        .chain(empty.iter().copied())
        .collect();
    number_7z(&mut h, names.len() as u64);
    if !empty.is_empty() {
        // Empty streams, then which of them are files (all).
        let n = names.len();
        let mut bits = vec![0u8; n.div_ceil(8)];
        for i in n - empty.len()..n {
            bits[i / 8] |= 0x80 >> (i % 8);
        }
        h.push(0x0E);
        number_7z(&mut h, bits.len() as u64);
        h.extend(&bits);
        let mut files = vec![0u8; empty.len().div_ceil(8)];
        for i in 0..empty.len() {
            files[i / 8] |= 0x80 >> (i % 8);
        }
        h.push(0x0F);
        number_7z(&mut h, files.len() as u64);
        h.extend(&files);
    }
    let mut utf16 = vec![0u8];
    for n in &names {
        for u in n.encode_utf16().chain([0]) {
            utf16.extend(u.to_le_bytes());
        }
    }
    h.push(0x11);
    number_7z(&mut h, utf16.len() as u64);
    h.extend(&utf16);
    h.extend([0x00, 0x00]);
    let packed: Vec<u8> = blocks.iter().flat_map(|b| b.packed.clone()).collect();
    let mut start = Vec::new();
    start.extend((packed.len() as u64).to_le_bytes());
    start.extend((h.len() as u64).to_le_bytes());
    start.extend(crc32fast::hash(&h).to_le_bytes());
    let mut out = vec![b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4];
    out.extend(crc32fast::hash(&start).to_le_bytes());
    out.extend(start);
    out.extend(packed);
    out.extend(h);
    out
}

/// A 7z entry larger than a collection read whole is piped to the walk and
/// cut into parts as it is decoded: its rows are those of the same games in
/// one file. With its CRC-32 wrong, found at its end, the games of the
/// parts handed out before are audited, not those of the last part (they
/// may be the damage's), a row says why (once: "cannot unpack the entry:
/// its CRC ..."), and the entry after it in the same block is read.
#[test]
fn a_large_7z_entry_is_cut_into_parts_as_it_is_decoded() {
    let d = scratch("7z-piped");
    let (_, entries) = games();
    let mut collection = Vec::new();
    // Longer than the first MiB a stream is judged by, so parts are handed
    // out before its end.
    while collection.len() <= 1 << 20 {
        for (_, bytes) in &entries {
            collection.extend_from_slice(bytes);
            collection.push(b'\n');
        }
    }
    fs::write(d.join("c.sgf"), &collection).unwrap();
    let collection_len = collection.len();
    let files = vec![
        ("c.sgf".to_string(), collection),
        ("after.sgf".to_string(), entries[0].1.clone()),
    ];
    let good = Block7::lzma(&files, true);
    let mut bad = Block7::lzma(&files, true);
    bad.files[0].2 ^= 1;
    fs::write(d.join("good.7z"), seven_zip(&[good], &[])).unwrap();
    fs::write(d.join("bad.7z"), seven_zip(&[bad], &[])).unwrap();
    // Parts of 2,000 bytes: the collection is far larger, the game after it not.
    let rows = |file: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .args(["check", "--format", "jsonl", "-q", "-j2"])
            .arg(d.join(file))
            .env("SGFAUDIT_PART_BYTES", "2000")
            .output()
            .unwrap();
        // Every name (of the game, of the one it repeats) as in the archive.
        let archive = format!("{}!", d.join(file).display());
        let dir = format!("{}/", d.display());
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(&l.replace(&archive, "").replace(&dir, "")).unwrap())
            .collect::<Vec<serde_json::Value>>()
    };
    let whole = rows("c.sgf");
    assert!(whole.len() > 100, "{}", whole.len());
    for (archive, damaged) in [("good.7z", false), ("bad.7z", true)] {
        let got = rows(archive);
        let after = got.last().unwrap();
        assert_eq!(after["file"], "after.sgf", "{archive}");
        assert_eq!(after["status"], "ok", "{archive}");
        let entry = &got[..got.len() - 1];
        // A stream whose data are found wrong gives the games of the parts
        // handed out before, then a row for the damage: fewer than the
        // file's (its last part's are not given), at least those of the
        // first MiB it was judged by.
        let games = if damaged {
            let row = &entry[entry.len() - 1];
            assert_eq!(row["file"], "c.sgf");
            let e = row["error"].as_str().unwrap_or("");
            assert_eq!(e, "cannot unpack the entry: its CRC does not match");
            let games = entry.len() - 1;
            assert!(games < whole.len(), "{archive}: {games}");
            let first_mib = whole.len() * (1 << 20) / collection_len;
            assert!(
                games >= first_mib / 2,
                "{archive}: {games} of {}",
                whole.len()
            );
            games
        } else {
            assert_eq!(entry.len(), whole.len(), "{archive}");
            whole.len()
        };
        for (a, b) in whole.iter().zip(&entry[..games]) {
            let keys = a.as_object().unwrap().keys();
            let differ: Vec<&String> = keys.filter(|k| a[k.as_str()] != b[k.as_str()]).collect();
            assert!(
                differ.is_empty(),
                "{archive} game {}: {differ:?}",
                a["game"]
            );
        }
        assert_eq!(whole[..games], entry[..games], "{archive}");
    }
    // The collection gzipped, as `c.sgf.gz`: decompressed as it is decoded
    // and cut the same way, its rows are the file's; with the entry's CRC-32
    // wrong, its last row says so, once, and the entry after it is read.
    let files = vec![
        ("c.sgf.gz".to_string(), gzip(&files[0].1)),
        files[1].clone(),
    ];
    let good = Block7::lzma(&files, true);
    let mut bad = Block7::lzma(&files, true);
    bad.files[0].2 ^= 1;
    fs::write(d.join("good-gz.7z"), seven_zip(&[good], &[])).unwrap();
    fs::write(d.join("bad-gz.7z"), seven_zip(&[bad], &[])).unwrap();
    for (archive, damaged) in [("good-gz.7z", false), ("bad-gz.7z", true)] {
        let got: Vec<serde_json::Value> = rows(archive)
            .into_iter()
            .map(|r| serde_json::from_str(&r.to_string().replace("c.sgf.gz", "c.sgf")).unwrap())
            .collect();
        let after = got.last().unwrap();
        assert_eq!(after["file"], "after.sgf", "{archive}");
        assert_eq!(after["status"], "ok", "{archive}");
        let entry = &got[..got.len() - 1];
        if damaged {
            let (row, games) = (&entry[entry.len() - 1], entry.len() - 1);
            assert_eq!(row["file"], "c.sgf", "{archive}");
            let e = row["error"].as_str().unwrap_or("");
            assert_eq!(e, "cannot unpack the entry: its CRC does not match");
            assert!(games < whole.len(), "{archive}: {games}");
            assert_eq!(whole[..games], entry[..games], "{archive}");
        } else {
            assert_eq!(whole[..], entry[..], "{archive}");
        }
    }
    let _ = fs::remove_dir_all(&d);
}

/// (entry after `archive!`, error or "") of each row.
fn rows_of(path: &Path) -> Vec<(String, String)> {
    let (_, rows) = jsonl(&["-j1", path.to_str().unwrap()]);
    rows.iter()
        .map(|r| {
            let f = r["file"].as_str().unwrap();
            let entry = f.split_once('!').map_or("", |x| x.1).to_string();
            (entry, r["error"].as_str().unwrap_or("").to_string())
        })
        .collect()
}

/// Solid 7z blocks (Copy, LZMA, LZMA2, several blocks, empty files) hold
/// the same games as the directory, audited alike and in the archive's order.
#[test]
fn seven_zip_entries_are_audited_like_the_files_they_hold() {
    let d = scratch("7z-same");
    let (dir, entries) = games();
    let (first, rest) = entries.split_at(entries.len() / 3);
    let kinds = [
        ("copy.7z", vec![Block7::copy(&entries)]),
        ("lzma.7z", vec![Block7::lzma(&entries, false)]),
        ("lzma2.7z", vec![Block7::lzma(&entries, true)]),
        (
            "blocks.7z",
            vec![Block7::lzma(first, true), Block7::copy(rest)],
        ),
    ];
    for (name, blocks) in kinds {
        let path = d.join(name);
        fs::write(&path, seven_zip(&blocks, &["games/notes.txt"])).unwrap();
        assert_audited_like_files(&path, &dir, &entries);
    }
    let _ = fs::remove_dir_all(&d);
}

/// Archives made by 7-Zip itself (tests/data/README.md says how): a solid
/// LZMA2 block behind a packed header is read; PPMd and encrypted blocks give
/// each game entry a row that says why it is not read.
#[test]
fn seven_zip_archives_made_by_7zip_are_read_or_reported() {
    let data = root().join("tests/data/7z");
    let games = [
        "games/kat-gnu.sgf",
        "games/sub/2009-09-01-1.sgf",
        "games/sub/chinese.sgf",
    ];
    let rows = rows_of(&data.join("solid-lzma2.7z"));
    let mut names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["games/empty.sgf", games[0], games[1], games[2]]);
    for (entry, error) in &rows {
        let want = if entry.ends_with("empty.sgf") {
            "the file is empty"
        } else {
            ""
        };
        assert_eq!(error, want, "{entry}");
    }
    // Each game as audited from the file it was packed from.
    let from = [
        "corpus/real/gnugo-regression/cgf2002/kat-gnu.sgf",
        "corpus/real/kaya/real_sgf/2009-09-01-1.sgf",
        "corpus/real/sabaki-sgf/chinese.sgf",
    ];
    let archive = data.join("solid-lzma2.7z");
    let (_, packed) = jsonl(&[archive.to_str().unwrap()]);
    for (entry, file) in games.iter().zip(from) {
        let (_, plain) = jsonl(&[root().join(file).to_str().unwrap()]);
        let row = row_ending(&packed, entry);
        assert_eq!(
            without_name(row.clone(), ""),
            without_name(plain[0].clone(), "")
        );
    }
    for (archive, why) in [
        ("ppmd.7z", "the compression method PPMd is not read"),
        ("encrypted.7z", "it is encrypted (AES-256): not read"),
    ] {
        let rows = rows_of(&data.join(archive));
        for g in games {
            let row = rows.iter().find(|r| r.0 == g).unwrap();
            assert!(row.1.contains(why), "{archive} {g}: {}", row.1);
        }
    }
    assert_eq!(
        rows_of(&data.join("encrypted-header.7z")),
        [(
            String::new(),
            "not a readable 7z archive: its header cannot be unpacked: it is encrypted \
             (AES-256): not read"
                .to_string()
        )]
    );
}

/// Hostile and damaged 7z archives: each is refused from its header, or read
/// up to the damage, with a row saying what and where; none is decoded beyond
/// what it declares.
#[test]
fn hostile_and_damaged_seven_zip_archives_are_reported() {
    let d = scratch("7z-hostile");
    let game = b"(;GM[1]SZ[9];B[ee];W[ce])".to_vec();
    let two = [
        ("a.sgf".to_string(), game.clone()),
        ("b.sgf".to_string(), game.clone()),
    ];
    let write = |name: &str, bytes: Vec<u8>| {
        let p = d.join(name);
        fs::write(&p, bytes).unwrap();
        p
    };

    // A block declaring 4 GiB from 50 bytes: refused before a byte is copied.
    let mut bomb = Block7::copy(&two);
    bomb.unpacked = 4 << 30;
    bomb.files[1].1 = bomb.unpacked - bomb.files[0].1;
    let rows = rows_of(&write("bomb.7z", seven_zip(&[bomb], &[])));
    assert_eq!(rows.len(), 2);
    for (_, error) in &rows {
        assert!(
            error.starts_with("refused: its 7z block claims to unpack"),
            "{error}"
        );
    }

    // A header that understates what its data unpacks to (64 MiB of zeros
    // declared as 100 kB, within the ratio): no more than the declared bytes
    // are decoded, and the entry fails its CRC.
    let zeros = [("zeros.sgf".to_string(), vec![0u8; 64 << 20])];
    let mut liar = Block7::lzma(&zeros, true);
    liar.unpacked = 100_000;
    liar.files[0].1 = 100_000;
    let rows = rows_of(&write("liar.7z", seven_zip(&[liar], &[])));
    assert_eq!(
        rows,
        [(
            "zeros.sgf".into(),
            "cannot unpack the entry: its CRC does not match".into()
        )]
    );

    // A dictionary of 4 GiB declared for a few bytes: the decoder takes only
    // what the block unpacks to, so it is read.
    let mut big_dict = Block7::lzma(&two, true);
    big_dict.properties = vec![40];
    let rows = rows_of(&write("dict.7z", seven_zip(&[big_dict], &[])));
    assert_eq!(
        rows,
        [
            ("a.sgf".into(), String::new()),
            ("b.sgf".into(), String::new())
        ]
    );

    // A dictionary really needed beyond 128 MiB (a 200 MiB block of 11 MiB
    // packed, within the ratio): refused before the decoder is built.
    let huge = Block7 {
        method: vec![0x21],
        properties: vec![40],
        packed: vec![0; 11 << 20],
        unpacked: 200 << 20,
        files: vec![("big.sgf".into(), 200 << 20, 0)],
    };
    let rows = rows_of(&write("huge-dict.7z", seven_zip(&[huge], &[])));
    assert_eq!(
        rows,
        [(
            "big.sgf".into(),
            "cannot read this entry of the 7z archive: its block needs a 200 MiB LZMA \
             dictionary, more than the 128 MiB allowed"
                .into()
        )]
    );

    // A byte changed in the packed data: that entry fails its CRC, and the
    // next one of the block is still read.
    let mut flipped = seven_zip(&[Block7::copy(&two)], &[]);
    flipped[32 + 5] ^= 0x20;
    let rows = rows_of(&write("flipped.7z", flipped));
    assert_eq!(rows[0].1, "cannot unpack the entry: its CRC does not match");
    assert_eq!(rows[1].1, "");

    // Damaged LZMA data: the entry says so, and so does the rest of its block.
    let mut lz = seven_zip(&[Block7::lzma(&two, true)], &[]);
    for b in &mut lz[40..52] {
        *b = 0xFF;
    }
    let rows = rows_of(&write("lz.7z", lz));
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter()
            .all(|r| r.1.starts_with("cannot unpack the entry")),
        "{rows:?}"
    );

    // Cut short: the header at the end is gone.
    let whole = fs::read(root().join("tests/data/7z/solid-lzma2.7z")).unwrap();
    let rows = rows_of(&write("cut.7z", whole[..whole.len() / 2].to_vec()));
    assert_eq!(
        rows,
        [(
            String::new(),
            "not a readable 7z archive: the header lies beyond the end of the file (cut short?)"
                .into()
        )]
    );

    // A header that counts 2^40 files in a few bytes; one that claims 1 TiB.
    let mut counted = seven_zip(&[Block7::copy(&two)], &[]);
    let at = counted.windows(2).rposition(|w| w == [0x05, 0x02]).unwrap();
    counted.splice(at + 1..at + 2, {
        let mut n = Vec::new();
        number_7z(&mut n, 1 << 40);
        n
    });
    let h = &counted[32 + 2 * game.len()..];
    let crc = crc32fast::hash(h).to_le_bytes();
    let len = (h.len() as u64).to_le_bytes();
    counted[20..28].copy_from_slice(&len);
    counted[28..32].copy_from_slice(&crc);
    let start = crc32fast::hash(&counted[12..32]).to_le_bytes();
    counted[8..12].copy_from_slice(&start);
    let rows = rows_of(&write("counted.7z", counted.clone()));
    assert!(rows[0].1.contains("counts 1099511627776 items"), "{rows:?}");
    counted[20..28].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let start = crc32fast::hash(&counted[12..32]).to_le_bytes();
    counted[8..12].copy_from_slice(&start);
    let rows = rows_of(&write("claims.7z", counted));
    assert!(
        rows[0].1.starts_with("refused: the 7z header claims"),
        "{rows:?}"
    );

    // Not a 7z file at all.
    let rows = rows_of(&write("fake.7z", b"(;GM[1])".to_vec()));
    assert!(
        rows[0]
            .1
            .starts_with("not a readable 7z archive: no signature header"),
        "{rows:?}"
    );
    let _ = fs::remove_dir_all(&d);
}

/// A 7z archive inside a zip is read one level deep, like the other kinds.
#[test]
fn seven_zip_inside_a_zip_is_read() {
    let d = scratch("7z-nested");
    let inner = fs::read(root().join("tests/data/7z/solid-lzma2.7z")).unwrap();
    let outer = d.join("outer.zip");
    write_zip(
        &outer,
        &[("fox.7z".to_string(), inner)],
        zip::CompressionMethod::Stored,
    );
    let mut rows = rows_of(&outer);
    rows.sort();
    assert_eq!(
        rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        [
            "fox.7z!games/empty.sgf",
            "fox.7z!games/kat-gnu.sgf",
            "fox.7z!games/sub/2009-09-01-1.sgf",
            "fox.7z!games/sub/chinese.sgf"
        ]
    );
    let _ = fs::remove_dir_all(&d);
}

/// A 7z block of crafted bzip2 data (found by fuzzing; a pure-Rust bzip2
/// decoder aborted the whole process on it): the entry is reported damaged,
/// and so are the rest of its block.
#[test]
fn crafted_bzip2_data_in_a_seven_zip_block_is_reported() {
    let rows = rows_of(&root().join("tests/data/7z/bzip2-crafted.7z"));
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert_eq!(
        rows[0],
        ("games/empty.sgf".into(), "the file is empty".into())
    );
    assert!(
        rows[1].1.starts_with("cannot unpack the entry: bzip2"),
        "{rows:?}"
    );
    for r in &rows[2..] {
        assert!(
            r.1.contains("an earlier entry of the same 7z block is damaged"),
            "{rows:?}"
        );
    }
}

/// A panic while an archive is read (injected with the test hook at its
/// second entry) does not end the archive in silence: the entries before it
/// are audited and a row names the rest as not read.
#[test]
fn a_panic_in_the_archive_reader_leaves_a_row() {
    let d = scratch("arc-panic");
    let game = b"(;GM[1]SZ[9];B[ee];W[ce])".to_vec();
    let zip_path = d.join("games.zip");
    write_zip(
        &zip_path,
        &[
            ("a.sgf".to_string(), game.clone()),
            ("b-BREAKS-HERE.sgf".to_string(), game.clone()),
            ("c.sgf".to_string(), game.clone()),
        ],
        zip::CompressionMethod::Deflated,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "--format", "jsonl", "-q", "-j1"])
        .arg(&zip_path)
        .env("SGFAUDIT_INJECT_FAULT", "BREAKS-HERE")
        .output()
        .unwrap();
    let rows: Vec<(String, String)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let r: serde_json::Value = serde_json::from_str(l).unwrap();
            let f = r["file"].as_str().unwrap();
            let entry = f.split_once('!').map_or("", |x| x.1).to_string();
            (entry, r["error"].as_str().unwrap_or("").to_string())
        })
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0], ("a.sgf".into(), String::new()));
    assert_eq!(rows[1].0, "(the rest of the archive)");
    assert!(
        rows[1]
            .1
            .contains("internal error while reading the archive")
            && rows[1].1.contains("fault injected"),
        "{rows:?}"
    );
    let _ = fs::remove_dir_all(&d);
}

/// `explain` reads a game out of an archive by the name check gives it
/// (ARCHIVE!ENTRY, and OUTER!INNER!ENTRY one level down): the same text as
/// for the file it was packed from. A name the archive lacks is an error.
#[test]
fn explain_reads_archive_entries_by_their_reported_names() {
    let d = scratch("arc-explain");
    let file = root().join("corpus/rules/ko-immediate.sgf");
    let game = fs::read(&file).unwrap();
    let inner = d.join("inner.tar.gz");
    fs::write(&inner, tar_gz(&[("g/ko.sgf".to_string(), game.clone())])).unwrap();
    let outer = d.join("outer.zip");
    write_zip(
        &outer,
        &[
            ("ko.sgf".to_string(), game.clone()),
            ("inner.tar.gz".to_string(), fs::read(&inner).unwrap()),
        ],
        zip::CompressionMethod::Deflated,
    );
    let explain = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
            .args(["explain", name, "--move", "10"])
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let plain = explain(file.to_str().unwrap());
    assert!(plain.status.success());
    let o = outer.to_str().unwrap();
    for name in [format!("{o}!ko.sgf"), format!("{o}!inner.tar.gz!g/ko.sgf")] {
        let packed = explain(&name);
        assert!(packed.status.success(), "{name}");
        assert_eq!(packed.stdout, plain.stdout, "{name}");
    }
    // The HTML report offers the same command for the entry's game (the
    // name shell-quoted for its `!`, then HTML-escaped).
    let html = d.join("report.html");
    Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(["check", "-q", o, "--html", html.to_str().unwrap()])
        .output()
        .unwrap();
    let page = fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(&format!("sgfaudit explain &#39;{o}!ko.sgf&#39; --game 0")),
        "no explain command for the entry"
    );
    let missing = explain(&format!("{o}!nothere.sgf"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("the archive holds no game entry of that name"));
    let _ = fs::remove_dir_all(&d);
}

/// A tar's links, special files and sparse files named `*.sgf` are each a
/// row saying why they are not read; the regular game beside them is read.
#[test]
fn tar_entries_that_are_not_regular_files_say_why() {
    let d = scratch("tar-kinds");
    let game = b"(;GM[1]SZ[9];B[ee];W[cc])";
    let mut t = tar::Builder::new(Vec::new());
    let mut header = |kind: tar::EntryType, name: &str, link: Option<&str>, data: &[u8]| {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        if let Some(l) = link {
            h.set_link_name(l).unwrap();
        }
        if kind == tar::EntryType::GNUSparse {
            let octal = |n: usize| {
                let mut field = [0u8; 12];
                field[..11].copy_from_slice(format!("{n:011o}").as_bytes());
                field
            };
            let gnu = h.as_gnu_mut().unwrap();
            gnu.sparse[0].offset = octal(0);
            gnu.sparse[0].numbytes = octal(data.len());
            gnu.realsize = octal(data.len());
        }
        h.set_cksum();
        t.append_data(&mut h, name, data).unwrap();
    };
    header(tar::EntryType::Regular, "game.sgf", None, game);
    header(tar::EntryType::Symlink, "soft.sgf", Some("game.sgf"), b"");
    header(tar::EntryType::Link, "hard.sgf", Some("game.sgf"), b"");
    header(tar::EntryType::Fifo, "fifo.sgf", None, b"");
    // One region of data at offset 0, as long as the file (no holes).
    header(tar::EntryType::GNUSparse, "sparse.sgf", None, game);
    let path = d.join("kinds.tar");
    fs::write(&path, t.into_inner().unwrap()).unwrap();
    let expected = [
        ("game.sgf", ""),
        ("soft.sgf", "a symbolic link in the archive is not followed"),
        ("hard.sgf", "a hard link in the archive is not followed"),
        (
            "fifo.sgf",
            "a special entry (device, FIFO) of the archive is not read",
        ),
        (
            "sparse.sgf",
            "a sparse file (GNU tar -S) in the archive is not read",
        ),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|&(entry, why)| match why {
            "" => (entry.to_string(), String::new()),
            _ => (entry.to_string(), format!("skipped: {why}")),
        })
        .collect();
    assert_eq!(rows_of(&path), expected);
    let _ = fs::remove_dir_all(&d);
}

/// Zero blocks after an archive's end are read through to an archive
/// concatenated after them, however many: 8 MiB of them, between two tars
/// and after the last, cost nothing and are not taken for a header too
/// large to hold.
#[test]
fn any_padding_after_a_tar_is_read_through() {
    let d = scratch("tar-padding");
    let game = b"(;GM[1]SZ[9];B[ee];W[cc])";
    let first = common::tar_of(&[("a.sgf", &game[..])], Vec::new());
    let second = common::tar_of(&[("b.sgf", &game[..])], Vec::new());
    let zeros = vec![0u8; 8 << 20];
    let path = d.join("padded.tar");
    fs::write(&path, [&first[..], &zeros, &second, &zeros].concat()).unwrap();
    let rows = rows_of(&path);
    let ok = |e: &str| (e.to_string(), String::new());
    assert_eq!(rows, [ok("a.sgf"), ok("b.sgf")]);
    let _ = fs::remove_dir_all(&d);
}

/// Runs `sgfaudit ARGS` with `input` on standard input (written from a
/// thread of its own, so a child that writes as it reads cannot block),
/// colours off.
fn with_stdin(args: &[&str], input: Vec<u8>) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    // A child that stops reading early (a refused input) may close the pipe.
    let _ = writer.join().unwrap();
    out
}

/// Runs `sgfaudit check --format jsonl -q ARGS -` with `input` on standard
/// input: its rows, as bytes.
fn jsonl_of_stdin(args: &[&str], input: &[u8]) -> Vec<u8> {
    let args = [&["check", "--format", "jsonl", "-q"], args, &["-"]].concat();
    with_stdin(&args, input.to_vec()).stdout
}

fn parsed(bytes: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A pipe has no name to say how to read it: standard input is told by its
/// first bytes. Compressed (gzip, bzip2, xz, Zstandard), it is the game it
/// decompresses to; a tar, plain or compressed, a zip or a 7z is read entry
/// by entry as the same archive on disk is, the entries named `-!ENTRY`,
/// with the same bytes at `-j1` and `-j4`; a zip larger than
/// `--max-file-size` is not held.
#[test]
fn standard_input_is_read_as_its_first_bytes_say() {
    let game = fs::read(root().join("corpus/rules/ko-immediate.sgf")).unwrap();
    let plain = parsed(&jsonl_of_stdin(&[], &game));
    assert_eq!(plain.len(), 1);
    assert_eq!(plain[0]["status"], "ok", "{plain:?}");
    for (kind, bytes) in [
        ("gzip", gzip(&game)),
        ("bzip2", bz2(&game)),
        ("xz", xz(&game)),
        ("zstd", zstd(&game)),
    ] {
        assert_eq!(parsed(&jsonl_of_stdin(&[], &bytes)), plain, "{kind}");
    }

    let (dir, entries) = games();
    let d = scratch("stdin-tar");
    let zip_path = d.join("games.zip");
    write_zip(&zip_path, &entries, zip::CompressionMethod::Deflated);
    let zip_bytes = fs::read(&zip_path).unwrap();
    let too_large = (zip_bytes.len() - 1).to_string();
    let rows = parsed(&jsonl_of_stdin(
        &["--max-file-size", &too_large],
        &zip_bytes,
    ));
    assert_eq!(rows.len(), 1, "{rows:?}");
    let error = rows[0]["error"].as_str().unwrap();
    assert!(error.contains("--max-file-size"), "{error}");
    let on_disk = d.join("games.tar");
    fs::write(&on_disk, tar(&entries)).unwrap();
    let disk = on_disk.to_str().unwrap();
    let (_, want) = jsonl(&[disk]);
    assert_eq!(want.len(), entries.len(), "{}", dir.display());
    let want: Vec<_> = want
        .into_iter()
        .map(|r| without_name(r, &format!("{disk}!")))
        .collect();
    for (kind, bytes) in [
        ("tar", tar(&entries)),
        ("tar.gz", tar_gz(&entries)),
        // Several bzip2 blocks: the first is read whole to see the tar in it.
        ("tar.bz2", tar_bz2(&entries)),
        ("tar.xz", xz(&tar(&entries))),
        ("tar.zst", zstd(&tar(&entries))),
        // Read by seeking: held whole, up to --max-file-size.
        ("zip", zip_bytes),
        (
            "7z",
            seven_zip(&[Block7::lzma(&entries, true)], &["games/notes.txt"]),
        ),
    ] {
        let out = jsonl_of_stdin(&["-j1"], &bytes);
        let rows = parsed(&out);
        let names: Vec<&str> = rows.iter().map(|r| r["file"].as_str().unwrap()).collect();
        let expected: Vec<String> = entries.iter().map(|(n, _)| format!("-!{n}")).collect();
        assert_eq!(names, expected, "{kind}");
        let rows: Vec<_> = rows.into_iter().map(|r| without_name(r, "-!")).collect();
        assert_eq!(rows, want, "{kind}: the rows of the tar on disk");
        assert_eq!(
            jsonl_of_stdin(&["-j4"], &bytes),
            out,
            "{kind}: the same bytes at -j4"
        );
    }
    let _ = fs::remove_dir_all(&d);
}

/// Compressed data on standard input inflate under the caps of a compressed
/// game file: past 32 MiB and twenty times the compressed bytes read, the
/// stream is refused as a bomb, in one row, after a bounded read.
#[test]
fn a_compressed_bomb_on_standard_input_is_refused() {
    let zeros = gzip(&vec![0u8; 64 << 20]);
    assert!(zeros.len() < 1 << 20, "{} bytes", zeros.len());
    let rows = parsed(&jsonl_of_stdin(&[], &zeros));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["file"], "-");
    let error = rows[0]["error"].as_str().unwrap();
    assert!(error.starts_with("refused: "), "{error}");
    assert!(error.contains("20 times their size"), "{error}");
}

/// `explain -` reads standard input as `check -` does (compressed data
/// decompressed), and `explain -- -!ENTRY` an entry of a tar on it: the
/// same explanation as the file on disk; `explain -` given a tar asks for
/// an entry.
#[test]
fn explain_reads_standard_input_as_check_does() {
    let file = root().join("corpus/rules/ko-immediate.sgf");
    let game = fs::read(&file).unwrap();
    let explain = |args: &[&str], input: Option<Vec<u8>>| {
        with_stdin(&[&["explain"], args].concat(), input.unwrap_or_default())
    };
    let plain = explain(&["--move", "10", file.to_str().unwrap()], None);
    assert!(plain.status.success());
    let piped = explain(&["--move", "10", "-"], Some(gzip(&game)));
    assert!(piped.status.success(), "{piped:?}");
    assert_eq!(piped.stdout, plain.stdout);
    let entries = [("g/ko.sgf".to_string(), game.clone())];
    let entry = explain(
        &["--move", "10", "--", "-!g/ko.sgf"],
        Some(tar_bz2(&entries)),
    );
    assert!(entry.status.success(), "{entry:?}");
    assert_eq!(entry.stdout, plain.stdout);
    let whole = explain(&["-"], Some(tar(&entries)));
    assert!(!whole.status.success());
    let error = String::from_utf8_lossy(&whole.stderr);
    assert!(error.contains("name one of its entries"), "{error}");
    assert!(error.contains("-!ENTRY"), "{error}");
    // The HTML report offers no command that would read standard input
    // again: its entries are gone once read.
    let d = scratch("stdin-explain");
    let html = d.join("report.html");
    with_stdin(
        &["check", "-q", "--html", html.to_str().unwrap(), "-"],
        tar(&entries),
    );
    let page = fs::read_to_string(&html).unwrap();
    assert!(page.contains("-!g/ko.sgf"), "the entry is in the report");
    assert!(!page.contains("sgfaudit explain"), "no command for it");
    // A zip on standard input is held whole and read as one on disk.
    let zip_path = d.join("ko.zip");
    write_zip(&zip_path, &entries, zip::CompressionMethod::Deflated);
    let zipped = explain(
        &["--move", "10", "--", "-!g/ko.sgf"],
        Some(fs::read(&zip_path).unwrap()),
    );
    assert!(zipped.status.success(), "{zipped:?}");
    assert_eq!(zipped.stdout, plain.stdout);
    let _ = fs::remove_dir_all(&d);
}
