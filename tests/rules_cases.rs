//! The hand-made cases of `corpus/rules/`: the expected verdict of every ruleset,
//! derived from the rules (docs/RULES.md), asserted on the real replay.

mod common;

use common::{audit_file, codes, illegal, root};
use sgfaudit::audit::AuditOptions;
use sgfaudit::core::rules::{AgaSuperko, RuleOptions, Ruleset, SwedishSuicide};

type Expect = &'static [(u32, &'static str)];

struct Case {
    file: &'static str,
    aga: Expect,
    japanese: Expect,
    swedish: Expect,
    no_result: Option<u32>,
    codes: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        file: "occupied",
        aga: &[(3, "occupied")],
        japanese: &[(3, "occupied")],
        swedish: &[(3, "occupied")],
        no_result: None,
        codes: &["R401"],
    },
    // A single-stone suicide recreates the previous position: Swedish forbids it by its ko rule.
    Case {
        file: "suicide-single",
        aga: &[(4, "suicide")],
        japanese: &[(4, "suicide")],
        swedish: &[(4, "superko")],
        no_result: None,
        codes: &["R403", "R405"],
    },
    // Multi-stone suicide: allowed by the literal Swedish reading.
    Case {
        file: "suicide-multi",
        aga: &[(6, "suicide")],
        japanese: &[(6, "suicide")],
        swedish: &[],
        no_result: None,
        codes: &["R403"],
    },
    Case {
        file: "ko-immediate",
        aga: &[(10, "ko")],
        japanese: &[(10, "ko")],
        swedish: &[(10, "ko")],
        no_result: None,
        codes: &["R404"],
    },
    Case {
        file: "ko-after-threat",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    // The basic-ko ban lasts one move, so a pass lifts it; superko remembers the position.
    Case {
        file: "ko-pass",
        aga: &[(12, "superko")],
        japanese: &[],
        swedish: &[(12, "superko")],
        no_result: Some(12),
        codes: &["R405", "R407", "A503"],
    },
    // Position A was made by a White pass: natural situational superko ignores it.
    Case {
        file: "ko-natural-vs-situational",
        aga: &[],
        japanese: &[(12, "ko")],
        swedish: &[(12, "ko")],
        no_result: None,
        codes: &["R404"],
    },
    Case {
        file: "send-two-return-one",
        aga: &[],
        japanese: &[],
        swedish: &[(9, "superko")],
        no_result: Some(9),
        codes: &["R405", "R407"],
    },
    Case {
        file: "triple-ko",
        aga: &[(6, "superko")],
        japanese: &[],
        swedish: &[(6, "superko")],
        no_result: Some(6),
        codes: &["R405", "R407"],
    },
    // Eternal life: a four-move cycle without any ko capture (each capture takes two).
    Case {
        file: "eternal-life",
        aga: &[
            (4, "superko"),
            (5, "superko"),
            (6, "superko"),
            (7, "superko"),
            (8, "superko"),
        ],
        japanese: &[],
        swedish: &[
            (4, "superko"),
            (5, "superko"),
            (6, "superko"),
            (7, "superko"),
            (8, "superko"),
        ],
        no_result: Some(4),
        codes: &["R405", "R407"],
    },
    Case {
        file: "wrong-turn",
        aga: &[(3, "wrong-turn")],
        japanese: &[(3, "wrong-turn")],
        swedish: &[(3, "wrong-turn")],
        no_result: None,
        codes: &["R406"],
    },
    Case {
        file: "omitted-pass",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &["A502"],
    },
    Case {
        file: "handicap-as-moves",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &["A501"],
    },
    // The Japanese count cases (below): positions set up and counted, no move.
    Case {
        file: "count-false-eye-no-fill",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "count-point-to-fill",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "count-seki-three-shared",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "count-seki-two-shared",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "count-forcing-point-first",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    // RE counts standing a lone stone only rule 7 makes dead: consistent, and
    // the rules differ (C609).
    Case {
        file: "count-lone-stone-standing",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &["C609"],
    },
    // RE counts standing two stones only rule 7 makes dead (their owner's
    // fill is suicide): consistent, and the rules differ (C609).
    Case {
        file: "count-stones-in-atari-standing",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &["C609"],
    },
    // RE counts standing a stone whose extension stays in atari: consistent,
    // and the rules differ (C609).
    Case {
        file: "count-extension-in-atari-standing",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &["C609"],
    },
    Case {
        file: "count-unsettled-japanese",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "count-unsettled-aga",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "tt-pass-19",
        aga: &[],
        japanese: &[],
        swedish: &[],
        no_result: None,
        codes: &[],
    },
    Case {
        file: "tt-point-21",
        aga: &[(2, "occupied")],
        japanese: &[(2, "occupied")],
        swedish: &[(2, "occupied")],
        no_result: None,
        codes: &["R401"],
    },
    Case {
        file: "off-board",
        aga: &[(2, "off-board")],
        japanese: &[(2, "off-board")],
        swedish: &[(2, "off-board")],
        no_result: None,
        codes: &["R402"],
    },
];

fn path(name: &str) -> std::path::PathBuf {
    root().join("corpus/rules").join(format!("{name}.sgf"))
}

#[test]
fn every_case_gets_its_verdict_under_every_ruleset() {
    for c in CASES {
        let r = audit_file(&path(c.file), &AuditOptions::default());
        assert_eq!(illegal(&r, Ruleset::Aga), c.aga, "{}: aga", c.file);
        assert_eq!(
            illegal(&r, Ruleset::Japanese),
            c.japanese,
            "{}: japanese",
            c.file
        );
        assert_eq!(
            illegal(&r, Ruleset::Swedish),
            c.swedish,
            "{}: swedish",
            c.file
        );
        assert_eq!(
            r.games[0].verdicts.japanese.no_result, c.no_result,
            "{}: japanese rule 12",
            c.file
        );
        let mut got = codes(&r);
        got.sort();
        got.dedup();
        let mut want = c.codes.to_vec();
        want.sort();
        assert_eq!(got, want, "{}: finding codes", c.file);
    }
}

#[test]
fn every_case_file_is_in_the_table() {
    let mut files: Vec<String> = std::fs::read_dir(root().join("corpus/rules"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| format!("{}.sgf", c.file)).collect();
    listed.sort();
    assert_eq!(files, listed);
}

#[test]
fn plain_situational_superko_counts_positions_after_passes() {
    let opts = AuditOptions {
        rules: RuleOptions {
            aga_superko: AgaSuperko::Situational,
            ..Default::default()
        },
        ..Default::default()
    };
    let r = audit_file(&path("ko-natural-vs-situational"), &opts);
    assert_eq!(illegal(&r, Ruleset::Aga), vec![(12, "ko")]);
    // The send-two-return-one repetition is on the other player's turn: still legal.
    let r = audit_file(&path("send-two-return-one"), &opts);
    assert_eq!(illegal(&r, Ruleset::Aga), vec![]);
}

#[test]
fn swedish_suicide_can_be_forbidden() {
    let opts = AuditOptions {
        rules: RuleOptions {
            swedish_suicide: SwedishSuicide::Forbidden,
            ..Default::default()
        },
        ..Default::default()
    };
    let r = audit_file(&path("suicide-multi"), &opts);
    assert_eq!(illegal(&r, Ruleset::Swedish), vec![(6, "suicide")]);
    let r = audit_file(&path("suicide-single"), &opts);
    assert_eq!(illegal(&r, Ruleset::Swedish), vec![(4, "suicide")]);
}

#[test]
fn a_hand_written_double_move_can_be_read_as_an_omitted_pass() {
    let opts = AuditOptions {
        rules: RuleOptions {
            same_colour: sgfaudit::core::rules::SameColour::OmittedPass,
            ..Default::default()
        },
        ..Default::default()
    };
    let r = audit_file(&path("wrong-turn"), &opts);
    assert_eq!(illegal(&r, Ruleset::Aga), vec![]);
    assert_eq!(codes(&r), vec!["A502"]);
}

#[test]
fn passes_are_counted_for_scoring() {
    let r = audit_file(&path("tt-pass-19"), &AuditOptions::default());
    let end = &r.games[0].end;
    assert_eq!(end.trailing_passes, 1);
    assert_eq!(end.passes, [0, 2]);
    assert_eq!(r.games[0].moves, 4);
}

/// A Japanese count derived by hand from rules 8-10 (the comment of each file
/// gives the reasoning): territory per colour, the points rule 8 leaves out,
/// and the recorded result, which is that count.
struct Count {
    file: &'static str,
    territory: [u32; 2],
    seki_eyes: &'static [&'static str],
    to_fill: &'static [&'static str],
}

const COUNTS: &[Count] = &[
    Count {
        file: "count-point-to-fill",
        territory: [48, 2],
        seki_eyes: &[],
        to_fill: &["ae"],
    },
    Count {
        file: "count-seki-two-shared",
        territory: [37, 3],
        seki_eyes: &["aa", "ea"],
        to_fill: &[],
    },
    Count {
        file: "count-seki-three-shared",
        territory: [35, 2],
        seki_eyes: &["aa", "ea"],
        to_fill: &[],
    },
    Count {
        file: "count-forcing-point-first",
        territory: [28, 0],
        seki_eyes: &["af", "fi"],
        to_fill: &["ai"],
    },
    // No markup: the dead stones are estimated, and who moves first in the
    // unsettled corner follows the declared rules.
    Count {
        file: "count-unsettled-japanese",
        territory: [0, 42],
        seki_eyes: &[],
        to_fill: &[],
    },
    Count {
        file: "count-unsettled-aga",
        territory: [3, 34],
        seki_eyes: &[],
        to_fill: &[],
    },
    Count {
        file: "count-false-eye-no-fill",
        territory: [13, 45],
        seki_eyes: &[],
        to_fill: &[],
    },
];

#[test]
fn every_japanese_count_case_is_counted_as_the_rules_say() {
    for c in COUNTS {
        let r = audit_file(&path(c.file), &AuditOptions::default());
        let g = &r.games[0];
        let sgfaudit::scoring::Scoring::Scored(s) = &g.scoring else {
            panic!("{}: not scored", c.file)
        };
        let j = &s.scores.japanese;
        assert_eq!(
            [j.black.territory, j.white.territory],
            c.territory,
            "{}: Japanese territory",
            c.file
        );
        let names =
            |v: &[sgfaudit::core::board::Point]| v.iter().map(|p| p.sgf()).collect::<Vec<_>>();
        assert_eq!(
            names(&s.position.seki_eye_points),
            c.seki_eyes,
            "{}",
            c.file
        );
        assert_eq!(names(&s.position.fill_points), c.to_fill, "{}", c.file);
        let check = s.result_check.as_ref().expect("RE is a count");
        assert!(check.matches, "{}: {check:?}", c.file);
    }
}

/// A case of corpus/rules with an RU property added to its root.
fn case_under(name: &str, ru: &str) -> sgfaudit::audit::FileReport {
    let text = std::fs::read_to_string(path(name)).unwrap();
    let at = text.find("SZ[").expect("the case gives its size");
    let text = format!("{}{ru}{}", &text[..at], &text[at..]);
    common::audit_text(&text)
}

/// triple-ko.sgf with an RU property added to its root.
fn triple_ko_under(ru: &str) -> sgfaudit::audit::FileReport {
    case_under("triple-ko", ru)
}

#[test]
fn a_move_is_an_error_only_under_the_rules_the_record_declares() {
    use sgfaudit::core::findings::Severity::{Error, Info, Warning};
    let severity = |r: &sgfaudit::audit::FileReport, code: &str| {
        let f = r.games[0].findings.iter().find(|f| f.code.id() == code);
        f.map(|f| f.severity)
    };
    // Move 6 recreates the start: AGA and Swedish superko, Japanese rule 12.
    let japanese = triple_ko_under("RU[Japanese]");
    assert_eq!(severity(&japanese, "R405"), Some(Info));
    assert_eq!(severity(&japanese, "R407"), Some(Warning));
    let message = &japanese.games[0].findings[0].message;
    assert!(
        message.contains("legal under the declared rules (japanese)")
            && message.contains("AGA rule 6 and the Swedish ko rule"),
        "{message}"
    );
    let aga = triple_ko_under("RU[AGA]");
    assert_eq!(severity(&aga, "R405"), Some(Error));
    assert_eq!(severity(&aga, "R407"), Some(Info));
    // Chinese rules forbid every repetition: the AGA and Swedish verdicts bind.
    let chinese = triple_ko_under("RU[Chinese]");
    assert_eq!(severity(&chinese, "R405"), Some(Error));
    // No RU: all three rulesets bind.
    let none = triple_ko_under("");
    assert_eq!(severity(&none, "R405"), Some(Error));
    assert_eq!(severity(&none, "R407"), Some(Warning));
    // The verdicts per ruleset are complete whatever RU says.
    for r in [&japanese, &aga, &chinese, &none] {
        assert_eq!(illegal(r, Ruleset::Aga), vec![(6, "superko")]);
        assert_eq!(illegal(r, Ruleset::Swedish), vec![(6, "superko")]);
    }
}

/// The severities of a game's rule findings, in order: `R403:e` for an error.
fn rule_severities(r: &sgfaudit::audit::FileReport) -> Vec<String> {
    r.games[0]
        .findings
        .iter()
        .filter(|f| ["R403", "R405"].contains(&f.code.id()))
        .map(|f| format!("{}:{}", f.code.id(), &f.severity.as_str()[..1]))
        .collect()
}

#[test]
fn suicide_and_repetition_follow_the_declared_rules_own_rules() {
    // suicide-multi: a two-stone suicide (AGA rule 5 and Japanese rules 3-4
    // forbid it, the Swedish rules do not). suicide-single: a one-stone
    // suicide, which also recreates the position before it (the Swedish
    // positional verdict, R405). triple-ko: move 6 recreates the start (AGA
    // and Swedish superko).
    let cases: [(&str, [&[&str]; 3]); 8] = [
        // Chinese rules forbid suicide and every repetition.
        (
            "RU[Chinese]",
            [&["R403:e"], &["R403:e", "R405:e"], &["R405:e"]],
        ),
        // New Zealand: a play removes the player's own stones left without
        // liberties, and may not repeat a position after the player's own
        // earlier move. A single-stone suicide leaves the position the
        // opponent's move made: a legal play, like a pass.
        ("RU[NZ]", [&["R403:i"], &["R403:i", "R405:i"], &["R405:e"]]),
        // Tromp-Taylor: any suicide is a play; no position may recur, so the
        // single-stone suicide is illegal as a repetition.
        (
            "RU[Tromp-Taylor]",
            [&["R403:i"], &["R403:i", "R405:e"], &["R405:e"]],
        ),
        // Ing's rules: a suicide of two stones or more is legal, of one not.
        ("RU[GOE]", [&["R403:i"], &["R403:e", "R405:e"], &["R405:e"]]),
        // KataGo strings say their own ko and suicide rules.
        (
            "RU[koPOSITIONALscoreAREAtaxNONEsui1]",
            [&["R403:i"], &["R403:e", "R405:e"], &["R405:e"]],
        ),
        (
            "RU[koSIMPLEscoreAREAtaxNONEsui0]",
            [&["R403:e"], &["R403:e", "R405:e"], &["R405:i"]],
        ),
        // Territory scoring binds the Japanese verdicts, and simple ko allows
        // the repetition (which Japanese rule 12 makes a possible no result).
        (
            "RU[koSIMPLEscoreTERRITORYtaxSEKIsui1]",
            [&["R403:i"], &["R403:e", "R405:i"], &["R405:i"]],
        ),
        (
            "RU[Japanese]",
            [&["R403:e"], &["R403:e", "R405:i"], &["R405:i"]],
        ),
    ];
    for (ru, expected) in cases {
        for (name, want) in ["suicide-multi", "suicide-single", "triple-ko"]
            .into_iter()
            .zip(expected)
        {
            let r = case_under(name, ru);
            assert_eq!(rule_severities(&r), want, "{name} under {ru}");
            // The verdicts per ruleset stay complete whatever RU says.
            let plain = audit_file(&path(name), &AuditOptions::default());
            for rs in Ruleset::ALL {
                assert_eq!(illegal(&r, rs), illegal(&plain, rs), "{name} under {ru}");
            }
        }
    }
    // White's two-stone suicide at move 10 leaves the board White's move 6
    // made (Black passed since): New Zealand and Tromp-Taylor allow the
    // suicide but not the repetition.
    let repeat = |ru: &str| {
        let r = common::audit_text(&format!(
            "(;GM[1]FF[4]SZ[9]{ru};B[ab];W[ee];B[bb];W[ff];B[ca];W[gg];B[];W[aa];B[];W[ba])"
        ));
        rule_severities(&r)
    };
    assert_eq!(repeat("RU[NZ]"), ["R403:i", "R405:e"]);
    assert_eq!(repeat("RU[Tromp-Taylor]"), ["R403:i", "R405:e"]);
    assert_eq!(repeat("RU[Chinese]"), ["R403:e", "R405:e"]);
    assert_eq!(repeat("RU[Japanese]"), ["R403:e", "R405:i"]);
    let nz = case_under("suicide-multi", "RU[NZ]");
    let message = &nz.games[0].findings[0].message;
    assert!(
        message.contains("legal under the declared rules (new zealand)"),
        "{message}"
    );
}

#[test]
fn play_after_two_passes_is_the_encore_under_katago_territory_rules() {
    use sgfaudit::core::findings::Severity::{Info, Warning};
    // Two passes, then a stone: a resumption of play under the three audited
    // rulesets (a warning), the encore under KataGo's territory rules, where
    // two passes end only the main phase (information).
    let a503 = |ru: &str| {
        let r = common::audit_text(&format!(
            "(;GM[1]FF[4]SZ[9]KM[6]{ru};B[ee];W[cc];B[];W[];B[gg];W[];B[])"
        ));
        let f = r.games[0]
            .findings
            .iter()
            .find(|f| f.code.id() == "A503")
            .cloned();
        f.map(|f| (f.severity, f.message))
    };
    let katago = a503("RU[koSIMPLEscoreTERRITORYtaxSEKIsui0]").expect("A503");
    assert_eq!(katago.0, Info);
    assert!(
        katago.1.contains("encore of the declared rules (katago)"),
        "{}",
        katago.1
    );
    // KataGo's area rules end the game at two passes, as the others do.
    for ru in ["RU[koSIMPLEscoreAREAtaxNONEsui0]", "RU[Japanese]", ""] {
        assert_eq!(a503(ru).map(|f| f.0), Some(Warning), "{ru}");
    }
}

#[test]
fn taking_back_a_blocked_ko_in_katagos_encore_is_a_pass_for_it() {
    use sgfaudit::core::findings::Severity::{Error, Info};
    // A ko on the empty point c2 (White's b2 in atari there). Two passes end
    // the main phase; in the encore Black takes the ko (c2), White's stone
    // on b2 would take it back: under KataGo's territory rules a ko taken
    // in the encore may not be taken back until the other player passes for
    // it, which a stone on the ko does (KataGo's rules page, "encore"). So
    // White's b2 is that pass, the board stays as Black left it, and Black
    // fills b2 (empty) next. Under Japanese rules the same moves retake the
    // ko at once (an error) and Black's b2 then lands on White's stone.
    let record = |ru: &str| {
        common::audit_text(&format!(
            "(;GM[1]FF[4]SZ[5]KM[0]RU[{ru}]AB[ba][ab][bc]AW[ca][bb][db][cc]\
             ;B[];W[];B[cb];W[bb];B[bb];W[];B[];W[];B[];W[];B[])"
        ))
    };
    let findings = |ru: &str| -> Vec<(String, sgfaudit::core::findings::Severity)> {
        record(ru).games[0]
            .findings
            .iter()
            .map(|f| (f.code.id().to_string(), f.severity))
            .collect()
    };
    let katago = findings("koSIMPLEscoreTERRITORYtaxSEKIsui0");
    assert!(katago.contains(&("A510".to_string(), Info)), "{katago:?}");
    assert!(!katago.iter().any(|(_, s)| *s == Error), "{katago:?}");
    let japanese = findings("Japanese");
    assert!(!japanese.iter().any(|(c, _)| c == "A510"), "{japanese:?}");
    assert!(japanese.iter().any(|(_, s)| *s == Error), "{japanese:?}");
}

#[test]
fn a_repetition_in_katagos_encore_is_legal_there() {
    use sgfaudit::core::findings::Severity::{Error, Warning};
    // The ko of the test above: in the encore Black takes it, White's
    // retake is the pass for it, Black passes, and White takes the ko back:
    // the position after the main phase's two passes comes back. KataGo's
    // encore has no superko (a game there ends with no result only at a
    // position's third occurrence), so under `koPOSITIONAL` territory rules
    // neither the repetition (R405) nor Japanese rule 12 (R407) is more than
    // info; under area rules the same string's positional superko binds
    // (there two passes end the game, and White's first retake is at once).
    let findings = |ru: &str| -> Vec<(String, sgfaudit::core::findings::Severity)> {
        common::audit_text(&format!(
            "(;GM[1]FF[4]SZ[5]KM[0]RU[{ru}]AB[ba][ab][bc]AW[ca][bb][db][cc]\
             ;B[];W[];B[cb];W[bb];B[];W[bb];B[];W[];B[];W[])"
        ))
        .games[0]
            .findings
            .iter()
            .filter(|f| f.code.id().starts_with('R'))
            .map(|f| (f.code.id().to_string(), f.severity))
            .collect()
    };
    let territory = findings("koPOSITIONALscoreTERRITORYtaxSEKIsui0");
    assert!(
        territory.iter().any(|(c, _)| c == "R405") && territory.iter().any(|(c, _)| c == "R407"),
        "{territory:?}"
    );
    assert!(
        !territory.iter().any(|(_, s)| *s == Error || *s == Warning),
        "{territory:?}"
    );
    let area = findings("koPOSITIONALscoreAREAtaxNONEsui0");
    assert!(area.iter().any(|(_, s)| *s == Error), "{area:?}");
}
