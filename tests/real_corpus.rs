//! Real records: the project's own `corpus/real/` always, and the development
//! corpus `../shared/corpus/real` when present (skipped cleanly when absent).

mod common;

use std::path::Path;

use common::{audit_file, illegal, root, sgf_files, shared_corpus};
use sgfaudit::audit::{AuditOptions, FileReport, Status};
use sgfaudit::core::rules::Ruleset;
use sgfaudit::input::Walk;
use sgfaudit::pipeline;

/// Audits a directory through the real pipeline (walk + parallel audit).
fn audit_dir(dir: &Path) -> Vec<FileReport> {
    let mut out = Vec::new();
    let walk = Walk::new(vec![dir.to_string_lossy().into_owned()]);
    pipeline::run_files(walk, &AuditOptions::default(), 2, |r| -> Result<(), ()> {
        out.push(r);
        Ok(())
    })
    .unwrap();
    out
}

fn find<'a>(reports: &'a [FileReport], suffix: &str) -> &'a FileReport {
    reports
        .iter()
        .find(|r| r.file.path.ends_with(suffix))
        .unwrap_or_else(|| panic!("{suffix} not reported"))
}

fn every_file_accounted_for(dir: &Path, reports: &[FileReport]) {
    let files = sgf_files(dir);
    assert_eq!(reports.len(), files.len(), "one report per file");
    for (r, f) in reports.iter().zip(&files) {
        assert_eq!(
            Path::new(&r.file.path),
            f.as_path(),
            "input order is sorted path order"
        );
        assert!(
            !r.games.is_empty(),
            "{}: every file has at least one entry",
            r.file.path
        );
        for g in &r.games {
            if let Status::Error(why) = &g.status {
                assert!(!why.to_string().is_empty());
                assert!(!g.findings.is_empty(), "{}: an error says why", r.file.path);
            }
        }
    }
}

fn occupied(r: &FileReport, n: u32) -> bool {
    illegal(r, Ruleset::Aga).contains(&(n, "occupied"))
        && illegal(r, Ruleset::Japanese).contains(&(n, "occupied"))
        && illegal(r, Ruleset::Swedish).contains(&(n, "occupied"))
}

fn no_result(r: &FileReport) -> Option<u32> {
    r.games[0].verdicts.japanese.no_result
}

fn check_named_records(reports: &[FileReport]) {
    // Occupied points.
    assert!(occupied(
        find(reports, "littlego/Illegal games/illegal-move.sgf"),
        16
    ));
    let r = find(reports, "kaya/invalid_sgf/move_at_occupied_spot.sgf");
    assert!(!illegal(r, Ruleset::Aga).is_empty());
    // Suicide.
    let r = find(reports, "littlego/Illegal games/suicide.sgf");
    assert_eq!(illegal(r, Ruleset::Aga), vec![(4, "suicide")]);
    assert_eq!(illegal(r, Ruleset::Japanese), vec![(4, "suicide")]);
    let r = find(reports, "kaya/invalid_sgf/suicide.sgf");
    assert!(illegal(r, Ruleset::Japanese)
        .iter()
        .any(|i| i.1 == "suicide"));
    // Positional vs situational superko.
    let r = find(reports, "littlego/Illegal games/positional-superko.sgf");
    assert_eq!(illegal(r, Ruleset::Swedish), vec![(23, "superko")]);
    assert_eq!(illegal(r, Ruleset::Aga), vec![]);
    let r = find(reports, "littlego/Illegal games/situational-superko.sgf");
    assert_eq!(illegal(r, Ruleset::Aga), vec![(24, "superko")]);
    assert_eq!(illegal(r, Ruleset::Swedish), vec![(24, "superko")]);
    // Whole-board repetitions in real games: Japanese rule 12.
    let r = find(
        reports,
        "gnugo-regression/nngs/gnugo-3.1.22-heeroy-200201252006.sgf",
    );
    assert!(
        no_result(r).is_some_and(|m| (440..=451).contains(&m)),
        "{:?}",
        no_result(r)
    );
    for f in [
        "gnugo-regression/gifu2006/gnugo-gorimu.sgf",
        "gnugo-regression/reading41.sgf",
        "gnugo-regression/verybad.sgf",
        "gnugo-regression/filllib10.sgf",
        "gnugo-regression/gwe.sgf",
        "gnugo-regression/incident74.sgf",
        "gnugo-regression/pending/ko6.sgf",
    ] {
        assert!(
            no_result(find(reports, f)).is_some(),
            "{f}: repetition found"
        );
    }
    // Unreadable records are reported with the reason.
    let r = find(reports, "littlego/Illegal games/not-an-sgf-file.sgf");
    assert_eq!(
        r.games[0].findings.last().map(|f| f.code.id()),
        Some("F003")
    );
    let r = find(reports, "gnugo-regression/owl42.sgf");
    assert!(
        r.games[0].findings.iter().any(|f| f.code.id() == "S203"),
        "truncation reported"
    );
}

#[test]
fn own_corpus_every_file_accounted_for_and_named_records_found() {
    let dir = root().join("corpus/real");
    let reports = audit_dir(&dir);
    every_file_accounted_for(&dir, &reports);
    check_named_records(&reports);
}

#[test]
fn shared_corpus_every_file_accounted_for_and_named_records_found() {
    let Some(dir) = shared_corpus() else { return };
    let reports = audit_dir(&dir);
    assert_eq!(reports.len(), 3307, "SOURCES.md counts 3,307 files");
    every_file_accounted_for(&dir, &reports);
    check_named_records(&reports);
    // The one real server move onto an occupied point.
    assert!(occupied(
        find(
            &reports,
            "Sweeper/2016.09.04 扫地僧2016 vs syknyk (43772425).SGF"
        ),
        242
    ));
    // Whole-board repetitions in AI tournament games.
    for f in [
        "UEC Cup/day1/2-Natsukaze-QuinoaIgo.sgf",
        "UEC Cup/day1/5-Akira-QuinoaIgo.sgf",
        "UEC Cup/day1/6-QuinoaIgo-Kugutsu.sgf",
    ] {
        assert!(no_result(find(&reports, f)).is_some(), "{f}");
    }
    // Omitted passes in Fox and Many Faces records are read as passes, not wrong turns.
    let fox_wrong_turns = reports
        .iter()
        .filter(|r| r.file.path.contains("yenw-ai"))
        .flat_map(|r| r.games.iter())
        .flat_map(|g| g.verdicts.aga.illegal.iter())
        .filter(|i| i.kind.key() == "wrong-turn")
        .count();
    assert_eq!(fox_wrong_turns, 0);
    // Both CA[UTF-8] files that are not valid UTF-8 are decoded as UTF-8 with a finding.
    for f in ["(46711135).SGF", "(65495949).SGF"] {
        let r = find(&reports, f);
        assert_eq!(r.file.encoding, Some("UTF-8"));
        assert!(
            r.games[0].findings.iter().any(|x| x.code.id() == "E104"),
            "{f}"
        );
    }
}

#[test]
fn charsets_decode_to_the_right_text() {
    let dir = root().join("corpus/real/sabaki-sgf");
    let opts = AuditOptions::default();
    let cases = [
        ("chinese.sgf", "GBK"),
        ("japanese.sgf", "Shift_JIS"),
        ("korean.sgf", "EUC-KR"),
        ("utf16le.sgf", "UTF-16LE"),
    ];
    for (file, enc) in cases {
        let p = dir.join(file);
        if !p.exists() {
            continue;
        }
        let r = audit_file(&p, &opts);
        assert_eq!(r.file.encoding, Some(enc), "{file}");
        assert_eq!(r.games[0].status, Status::Ok, "{file}");
    }
}
