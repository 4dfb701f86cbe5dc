//! The two checks of the recorded result: against the record's own count (its
//! TB/TW markup as marked) and against the rules' count of the final position.

use super::counting::{Counting, Score, Scores};
use super::divergence::winner_sign;
use super::recorded::{DeclaredRules, Recorded, WinBy};
use super::reversal::Reversal;
use super::DeadSource;
use crate::core::board::Color;
use crate::core::findings::{Code, Finding, Severity};

/// The check of the recorded result.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultCheck {
    /// RE as recorded.
    pub recorded: String,
    /// The counting RU asks for (`None`: no RU, or one that names no counting).
    pub declared: Option<Counting>,
    /// The name of the declared count in messages: the counting's, or
    /// `katago` for KataGo's own count of a KataGo rules string.
    pub declared_name: Option<&'static str>,
    /// The declared counting's count of the final position, with the dead
    /// stones used.
    pub computed: Option<String>,
    /// That count gives RE; without a declared counting, some counting does.
    pub matches: bool,
    /// The record's own count: its TB/TW markup counted as marked (with the
    /// declared counting, Japanese when none is declared).
    pub markup_computed: Option<String>,
    /// The record's own count gives RE (without a declared counting: under
    /// some counting).
    pub markup_matches: Option<bool>,
    /// The countings whose count of the final position gives RE.
    pub matching: Vec<Counting>,
    /// Without markup, when the rules' count misses RE: the common reading
    /// whose count gives it (C609).
    pub reading: Option<ReadingKind>,
}

/// The common readings of a final position that the rules do not share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadingKind {
    /// The territory as it stands: the points Japanese rule 8 leaves out
    /// (seki eyes, points to fill) counted for their owner.
    TerritoryAsItStands,
    /// Lone stones in atari that only Japanese rule 7 makes dead left standing.
    LoneStonesStanding,
    /// The stones only Japanese rule 7 makes dead left standing: besides the
    /// lone stones, strings of up to three stones whose capture leaves no room
    /// to live (the stones C607 names in a markup).
    Rule7StonesStanding,
    /// Stones in atari with no way out left standing: besides the lone
    /// stones, strings of two stones or more and stones whose extension
    /// stays in atari.
    StonesInAtariStanding,
}

impl ReadingKind {
    /// The name in the outputs.
    pub fn key(self) -> &'static str {
        match self {
            ReadingKind::TerritoryAsItStands => "territory_as_it_stands",
            ReadingKind::LoneStonesStanding => "lone_stones_standing",
            ReadingKind::Rule7StonesStanding => "rule7_stones_standing",
            ReadingKind::StonesInAtariStanding => "stones_in_atari_standing",
        }
    }
}

/// The counting RU asks for.
pub fn counting_for(d: DeclaredRules) -> Counting {
    match d {
        DeclaredRules::Aga => Counting::AgaTerritory,
        DeclaredRules::Japanese => Counting::Japanese,
        DeclaredRules::Chinese => Counting::Chinese,
        DeclaredRules::Swedish => Counting::Swedish,
    }
}

/// Whether a score gives the recorded result: its margin when RE has one, else
/// (`B+`, `W+0.0`) its winner.
fn gives(s: &Score, rec: Recorded) -> Option<bool> {
    match (rec, rec.black_margin()) {
        (_, Some(m)) => Some((s.margin - m).abs() < 1e-6),
        (
            Recorded::Win {
                winner,
                by: WinBy::UnknownMargin,
            },
            None,
        ) => {
            let sign = match winner {
                Color::Black => 1,
                Color::White => -1,
            };
            Some(winner_sign(s.margin) == sign)
        }
        _ => None,
    }
}

/// Komi values in common use, for the hint of a result mismatch.
const USUAL_KOMI: [f64; 7] = [0.0, 0.5, 4.5, 5.5, 6.5, 7.5, 8.0];

/// The count RU asks for: a counting, with the knobs of a KataGo rules
/// string when RU is one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Declared {
    pub counting: Counting,
    /// The count is KataGo's, of the board as it stands without dead
    /// stones, not the counting's of the final position with the dead
    /// stones removed.
    pub katago: bool,
    /// The rules' count of the final position.
    pub score: Score,
    /// The record's own count (its markup), when it has one.
    pub markup_score: Option<Score>,
}

impl Declared {
    /// The name in messages: `katago`, or the counting's.
    pub fn name(&self) -> &'static str {
        if self.katago {
            "katago"
        } else {
            self.counting.key()
        }
    }
}

/// What a result check needs besides the recorded result.
pub struct CheckInput<'a> {
    pub re: &'a str,
    pub declared: Option<Declared>,
    pub scores: &'a Scores,
    pub markup_scores: Option<&'a Scores>,
    pub dead: DeadSource,
    pub ended_by_passes: bool,
    /// Other readings of the final position a record without markup may
    /// have been counted by (see [`Reading`]); made only when RE misses the
    /// rules' count.
    pub readings: &'a dyn Fn() -> Vec<Reading>,
    /// Stones the dead-stone estimate leaves in doubt (0 with markup).
    pub in_doubt: usize,
    /// With estimated dead stones, the counts with one group's call reversed
    /// ([`super::reversal`]); made only when RE misses the rules' count of a
    /// game that ends with two passes and leaves no stone in doubt.
    pub reversals: &'a dyn Fn() -> Vec<Reversal>,
}

/// A count of the final position that differs from the rules' only in what
/// players and servers commonly do: the territory as it stands, with the
/// points Japanese rule 8 leaves out (seki eyes, points to fill) counted; or
/// lone stones in atari left standing that Japanese rule 7 makes dead. When
/// RE is such a count the record is consistent, and the rules differ from how
/// it was counted (C609, not C601).
pub struct Reading {
    pub kind: ReadingKind,
    /// The counting and its count under this reading.
    pub counting: Counting,
    pub score: Score,
    /// What RE does that the rules do not, with the points named.
    pub what: String,
}

/// Checks RE against the record's own count (its markup as marked: a
/// disagreement is C608, the record contradicts itself) and against the rules'
/// count of the final position (without markup a disagreement is C601; with it
/// the rules' reading of the markup's position is research material, C609).
/// Without a declared counting RE is checked against every counting. A margin
/// the komi's half points cannot give is C602.
pub fn check(rec: Recorded, i: &CheckInput, findings: &mut Vec<Finding>) -> Option<ResultCheck> {
    // A result that names neither a margin nor a winner says nothing to check.
    gives(&i.scores.japanese, rec)?;
    let matching: Vec<Counting> = i
        .scores
        .iter()
        .filter(|(_, s)| gives(s, rec) == Some(true))
        .map(|(c, _)| c)
        .collect();
    let declared_score = i.declared.as_ref().map(|d| &d.score);
    let matches = match declared_score {
        Some(s) => gives(s, rec) == Some(true),
        None => !matching.is_empty(),
    };
    let markup_matches = i.markup_scores.map(|m| match &i.declared {
        Some(d) => d
            .markup_score
            .as_ref()
            .is_some_and(|s| gives(s, rec) == Some(true)),
        None => m.iter().any(|(_, s)| gives(s, rec) == Some(true)),
    });
    let markup_score = match &i.declared {
        Some(d) => d.markup_score.as_ref(),
        None => i.markup_scores.map(|m| m.get(Counting::Japanese)),
    };
    let declared_counting = i.declared.as_ref().map(|d| d.counting);
    let rules_name = i.declared.as_ref().map_or("japanese", Declared::name);
    if markup_matches == Some(false) {
        if let Some(m) = markup_score {
            findings.push(Finding::new(
                Code::MarkupCountMismatch,
                format!(
                    "RE[{}] but the record's own count (its TB/TW markup as marked, with the \
                     captures, the {} counting and komi {}) gives {}{}: the record contradicts itself",
                    i.re,
                    rules_name,
                    m.komi,
                    m.result(),
                    exchanged_hint(m, rec),
                ),
            ));
        }
    }
    // Without markup RE is the only count the record gives. When it is the
    // count of a common reading of the position that the rules do not share,
    // the record is consistent: C609, as with markup, not C601.
    let unmarked_mismatch = !matches && i.markup_scores.is_none() && i.dead != DeadSource::None;
    let readings = if unmarked_mismatch {
        (i.readings)()
    } else {
        Vec::new()
    };
    let reading = readings.iter().find(|r| {
        declared_counting.is_none_or(|c| c == r.counting) && gives(&r.score, rec) == Some(true)
    });
    if let Some(r) = reading {
        findings.push(Finding::new(
            Code::RulesCountDiffers,
            format!(
                "{}RE[{}] {}; by the rules the {} count gives {} (dead stones: {})",
                if declared_counting.is_none() {
                    "no RU, and no counting of the final position gives RE: "
                } else {
                    ""
                },
                i.re,
                r.what,
                rules_name_of(&i.declared, r.counting),
                declared_score
                    .filter(|_| declared_counting == Some(r.counting))
                    .unwrap_or(i.scores.get(r.counting))
                    .result(),
                i.dead.key(),
            ),
        ));
    } else if unmarked_mismatch {
        let unfinished = if i.ended_by_passes {
            ""
        } else {
            "; the record does not end with two passes, so this counts its last position, \
             which may not be the one the players counted"
        };
        let doubt = if i.in_doubt > 0 {
            let stones = if i.in_doubt == 1 { "stone" } else { "stones" };
            format!(
                "; the estimate leaves {} {stones} in doubt, and the count rests on them",
                i.in_doubt
            )
        } else {
            String::new()
        };
        // A mismatch that would be a warning is a note when the count with
        // the estimate's call on one group reversed gives RE: the estimate,
        // not the record, may be wrong there.
        let reversal = if i.ended_by_passes && i.in_doubt == 0 {
            (i.reversals)().into_iter().find(|r| {
                declared_counting.is_none_or(|c| c == r.counting)
                    && gives(&r.score, rec) == Some(true)
            })
        } else {
            None
        };
        let reversed = match &reversal {
            Some(r) => format!(
                "; with {} the {} count gives RE, so the count rests on the estimate's call there",
                r.what,
                rules_name_of(&i.declared, r.counting),
            ),
            None => String::new(),
        };
        let dead = match &i.declared {
            Some(d) if d.katago => "none, the board as it stands",
            _ => i.dead.key(),
        };
        let message = match declared_score {
            Some(s) => format!(
                "RE[{}] but the {} count gives {} with komi {} (dead stones: {dead}){}{}{}{doubt}{reversed}{unfinished}",
                i.re,
                rules_name,
                s.result(),
                s.komi,
                exchanged_hint(s, rec),
                komi_hint(s, rec, i.ended_by_passes),
                others_hint(&matching),
            ),
            _ => {
                let all: Vec<String> = i
                    .scores
                    .iter()
                    .map(|(c, s)| format!("{} {}", c.key(), s.result()))
                    .collect();
                let exchanged: Vec<Counting> = i
                    .scores
                    .iter()
                    .filter(|(_, s)| gives_exchanged(s, rec))
                    .map(|(c, _)| c)
                    .collect();
                let exchanged = match count_names(&exchanged) {
                    Some((names, verb)) => {
                        format!("; the {names} {verb} RE with the winner exchanged")
                    }
                    None => String::new(),
                };
                format!(
                    "RE[{}] but no counting gives it (no RU: {}; dead stones: {}){exchanged}{doubt}{reversed}{unfinished}",
                    i.re,
                    all.join(", "),
                    i.dead.key(),
                )
            }
        };
        // A record cut before its final passes is counted as it stands, but
        // the players counted a later position (after the dame, the last
        // defensive moves, a ko); and a count that rests on stones the
        // estimate leaves in doubt, or that one group's reversed call gives,
        // may be the estimate's error: either way the mismatch is a note, not
        // evidence that the record contradicts itself.
        let severity = if i.ended_by_passes && i.in_doubt == 0 && reversal.is_none() {
            Code::ResultMismatch.severity()
        } else {
            Severity::Info
        };
        findings.push(Finding::new(Code::ResultMismatch, message).with_severity(severity));
    }
    if let (Some(s), Some(m)) = (declared_score, rec.black_margin()) {
        if !komi_fits(s, m) {
            findings.push(Finding::new(
                Code::ResultImpossible,
                format!(
                    "RE[{}] cannot arise with komi {}: the half points do not match",
                    i.re, s.komi
                ),
            ));
        }
    }
    Some(ResultCheck {
        recorded: i.re.to_string(),
        declared: declared_counting,
        declared_name: i.declared.as_ref().map(Declared::name),
        computed: declared_score.map(Score::result),
        matches,
        markup_computed: markup_score.map(Score::result),
        markup_matches,
        matching,
        reading: reading.map(|r| r.kind),
    })
}

/// The name of counting `c` in a message: `katago` when it is the counting a
/// KataGo rules string is read by.
fn rules_name_of(declared: &Option<Declared>, c: Counting) -> &'static str {
    match declared {
        Some(d) if d.counting == c => d.name(),
        _ => c.key(),
    }
}

/// "; the aga and chinese counts give RE", when countings other than the
/// declared one give RE: the record may have been counted by other rules than
/// its RU names (a tournament that counts area under a Japanese RU).
fn others_hint(matching: &[Counting]) -> String {
    match count_names(matching) {
        Some((names, verb)) => format!("; the {names} {verb} RE"),
        None => String::new(),
    }
}

/// "aga count" and "gives", or "aga, japanese and chinese counts" and "give";
/// `None` for no counting.
fn count_names(countings: &[Counting]) -> Option<(String, &'static str)> {
    let names: Vec<&str> = countings.iter().map(|c| c.key()).collect();
    match names.as_slice() {
        [] => None,
        [one] => Some((format!("{one} count"), "gives")),
        [init @ .., last] => Some((format!("{} and {last} counts", init.join(", ")), "give")),
    }
}

/// "; that is RE with the winner exchanged", when it is.
fn exchanged_hint(s: &Score, rec: Recorded) -> &'static str {
    if gives_exchanged(s, rec) {
        "; that is RE with the winner exchanged"
    } else {
        ""
    }
}

/// Whether a score is RE's margin with the other colour winning (a colour
/// written the wrong way round gives exactly that; so may, more rarely, a
/// count that differs from the players' by twice the margin).
fn gives_exchanged(s: &Score, rec: Recorded) -> bool {
    rec.black_margin()
        .is_some_and(|m| m.abs() > 1e-6 && (s.margin + m).abs() < 1e-6)
}

/// Whether a Black margin `m` can arise with the komi (and compensation) of
/// `s`: a count is a whole number minus them, so their half points must match.
fn komi_fits(s: &Score, m: f64) -> bool {
    let frac = (m + s.komi + s.compensation).rem_euclid(1.0);
    frac < 1e-6 || 1.0 - frac < 1e-6
}

/// "; with komi 7.5 it would equal RE (is KM right?)", when RE cannot arise
/// with the komi used (its half points do not match, C602) and a usual komi
/// that differs from it by more than a point would explain the mismatch. Only
/// then does RE itself say the komi was another: where the half points match,
/// a count that a usual komi would mend is far more often a question of dead
/// stones or counting than of KM (on the KGS games without their markup, the
/// one such case was the estimate's). Not in a record without final passes
/// either: its count is of a position that may not be the counted one.
fn komi_hint(s: &Score, rec: Recorded, ended_by_passes: bool) -> String {
    let Some(m) = rec.black_margin() else {
        return String::new();
    };
    let implied = s.komi + s.margin - m;
    let usual = USUAL_KOMI.iter().any(|k| (k - implied).abs() < 1e-6);
    if usual && ended_by_passes && !komi_fits(s, m) && (implied - s.komi).abs() > 1.0 + 1e-6 {
        format!("; with komi {implied} it would equal RE (is KM right?)")
    } else {
        String::new()
    }
}
