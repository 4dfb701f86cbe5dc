//! Reading the recorded result (`RE`) and rules (`RU`) of real archives, and
//! a komi (`KM`) written in RE's words.
//! Plain strings in, typed values out; no SGF syntax here.

use super::katago::{KataGoRules, KoRule, Scoring};
use crate::core::board::Color;
use crate::core::game::{in_stones, KomiReading};
use crate::core::rules::{Binding, DeclaredSuicide, Ruleset, RulesetSet};

/// How a recorded win was obtained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WinBy {
    /// By this many points.
    Points(f64),
    /// Points, margin not given (`B+`, or `B+0` as Fox writes it).
    UnknownMargin,
    Resignation,
    Time,
    /// `B+F`, and a loss by breaking a rule (`B+Illegal`, `B+V`, `W+Repetition`).
    Forfeit,
    /// A referee's decision (`B+J`, as the UEC Cup records write it).
    Judgment,
    /// A margin that is no number of points a board could give (`W+NaN`,
    /// `B+-3`, `W+1e-400`, `B+inf`): unusable, never checked.
    Malformed,
    /// Another reason (`W+AW`, ...).
    Other,
}

/// A recorded result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Recorded {
    Win {
        winner: Color,
        by: WinBy,
    },
    /// Jigo.
    Draw,
    /// No result / void / suspended.
    Void,
    /// `?` or text nobody can read.
    Unknown,
}

impl Recorded {
    /// The margin from Black's side, when the result is a count.
    pub fn black_margin(self) -> Option<f64> {
        match self {
            Recorded::Win {
                winner,
                by: WinBy::Points(m),
            } => Some(if winner == Color::Black { m } else { -m }),
            Recorded::Draw => Some(0.0),
            _ => None,
        }
    }

    /// A result that comes from counting (numeric or draw).
    pub fn is_count(self) -> bool {
        self.black_margin().is_some()
    }
}

fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    // Chinese counting: a margin in stones (子) is twice as many points.
    if let Some(stones) = s.strip_suffix('子') {
        return points(stones).map(|v| v * 2.0);
    }
    let v = points(s).filter(|v| v.is_finite() && (0.0..=MAX_MARGIN).contains(v))?;
    // A margin in points is whole or half (a count, plus a komi in half
    // points): a quarter left over (`B+3/4`, `W+1.75`, `B+2 3/4`) is a
    // margin in stones written without 子, as KM[375] is a komi in stones.
    Some(if in_stones(v) { v * 2.0 } else { v })
}

/// A KM written as RE's margins are, as MultiGo writes it in Chinese records
/// (`KM[3又3/4子]`), or `KM[6目半]`, `KM[5 1/2]`: the number to read as KM's.
/// A komi in stones (子) is given in points, so it is read as written; one
/// without a unit goes on to be read as any KM is (a quarter left over says
/// stones). `None` for text that is no such number.
pub fn komi_in_words(s: &str) -> Option<f64> {
    let s = s.trim();
    let (sign, s) = s.strip_prefix('-').map_or((1.0, s), |r| (-1.0, r));
    let v = match s.strip_suffix('子') {
        // Points that a further reading would take for stones or for a KM
        // written x100 are no komi in stones.
        Some(stones) => points(stones)
            .map(|v| v * 2.0)
            .filter(|&v| KomiReading::rescale(v).is_none())?,
        None => points(s)?,
    };
    Some(sign * v)
}

fn points(s: &str) -> Option<f64> {
    let s = s.trim();
    // A decimal comma (`B+3,5`), as KM[6,5] is read.
    let comma;
    let s = if s.matches(',').count() == 1 && !s.contains('.') {
        comma = s.replace(',', ".");
        comma.as_str()
    } else {
        s
    };
    // Korean writes a point 집 and a half 반 (`1집반` is 1.5, `반집` 0.5):
    // read as the Japanese 目 and 半.
    let korean;
    let s = if s.contains(['집', '반']) {
        korean = s.replace('집', "目").replace('반', "半");
        korean.as_str()
    } else {
        s
    };
    // Asian forms: "3目半" (3.5 points), "半目" (0.5), "1又1/4子", "3.5目",
    // "四分之三" (3/4); a whole number and a fraction, "2 3/4", as "2又3/4".
    let s = s.trim_end_matches(['목', '점']).trim();
    let s = s.strip_suffix('目').unwrap_or(s);
    if let Some(rest) = s
        .strip_suffix('半')
        .map(|r| r.strip_suffix('目').unwrap_or(r))
    {
        // Half a point alone: `半目`.
        if rest.is_empty() {
            return Some(0.5);
        }
        return plain_margin(rest).map(|v| v + 0.5);
    }
    let mixed = s.split_once('又').or_else(|| {
        s.rsplit_once(char::is_whitespace)
            .filter(|(_, f)| f.contains('/'))
    });
    if let Some((whole, frac)) = mixed {
        return Some(plain_margin(whole)? + fraction(frac)?);
    }
    fraction(s).or_else(|| plain_margin(s))
}

/// `3/4`, or the Chinese `四分之三` (three of four parts); `None` for a
/// zero denominator or text that is no fraction.
fn fraction(s: &str) -> Option<f64> {
    let (n, d) = match s.split_once("分之") {
        Some((d, n)) => (n, d),
        None => s.split_once('/')?,
    };
    let (n, d) = (plain_margin(n)?, plain_margin(d)?);
    (d != 0.0).then(|| n / d)
}

/// The largest margin any board gives (52 x 52 points).
const MAX_MARGIN: f64 = 2704.0;

/// A margin written as plain digits with at most one decimal point, no larger
/// than any board gives: `3.5`, `12`, `0.50`, also in full-width digits
/// (`１．５`) or numerals (`十二`). Exponents, signs, `NaN` and `inf` are no
/// margin.
fn plain_margin(s: &str) -> Option<f64> {
    let s = s.trim();
    if let Some(v) = cjk_numeral(s) {
        return Some(v);
    }
    // Full-width digits and point (`１．５`), as Japanese text writes them:
    // each is its ASCII character moved up by U+FEE0.
    let full_width = |c: char| ('０'..='９').contains(&c) || c == '．';
    let half_width;
    let s = if s.contains(full_width) {
        half_width = s
            .chars()
            .map(|c| {
                if full_width(c) {
                    char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect::<String>();
        half_width.as_str()
    } else {
        s
    };
    let plain = !s.is_empty()
        && s.chars().all(|c| c.is_ascii_digit() || c == '.')
        && s.chars().filter(|&c| c == '.').count() <= 1
        && s.chars().any(|c| c.is_ascii_digit());
    plain
        .then(|| s.parse::<f64>().ok())
        .flatten()
        .filter(|v| v.is_finite() && *v <= MAX_MARGIN)
}

/// A whole number in Chinese or Japanese numerals, as margins are written
/// (`両目半` 2.5, `十一目` 11, `二十目半` 20.5, `百二目` 102): digits, each
/// before at most one 十 or 百, largest first. `None` for other text,
/// plain digits included.
fn cjk_numeral(s: &str) -> Option<f64> {
    let digit = |c: char| {
        Some(match c {
            '〇' | '零' => 0,
            '一' => 1,
            '二' | '両' | '两' => 2,
            '三' => 3,
            '四' => 4,
            '五' => 5,
            '六' => 6,
            '七' => 7,
            '八' => 8,
            '九' => 9,
            _ => return None,
        })
    };
    let (mut total, mut pending, mut last_unit) = (0u32, None::<u32>, u32::MAX);
    for c in s.chars() {
        if let Some(d) = digit(c) {
            if pending.is_some() {
                return None;
            }
            pending = Some(d);
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            _ => return None,
        };
        if unit >= last_unit {
            return None;
        }
        total += pending.take().unwrap_or(1) * unit;
        last_unit = unit;
    }
    let any = !s.is_empty();
    any.then(|| f64::from(total + pending.unwrap_or(0)))
}

/// Text that tries to be a number (one word) but is none `plain_margin`
/// accepts. A number followed by words is an annotated result, not this.
fn looks_numeric(s: &str) -> bool {
    let l = s.trim().to_ascii_lowercase();
    !l.contains(char::is_whitespace)
        && l.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+')
        || l.starts_with("nan")
        || l.starts_with("inf")
}

fn win_by(rest: &str) -> WinBy {
    let r = rest.trim();
    let lower = r.to_ascii_lowercase();
    match lower.as_str() {
        "" => WinBy::UnknownMargin,
        "r" | "resign" | "res" | "resignation" => WinBy::Resignation,
        "t" | "time" | "timeout" | "time out" | "time-out" | "time over" => WinBy::Time,
        // A loss by breaking a rule is a forfeit: an illegal move (CGOS writes
        // `B+Illegal`), a violation (`B+V`, "wins by violation", as the UEC Cup
        // writes it) or a forbidden repetition.
        "f" | "forfeit" | "v" | "violation" | "illegal" | "illegal move" | "repetition" => {
            WinBy::Forfeit
        }
        "j" | "judgment" | "judgement" => WinBy::Judgment,
        _ => {
            if r.contains("中盘") || r.contains("中押") || r.contains("불계") {
                WinBy::Resignation
            } else if r.contains("超时") || r.contains("時間") || r.contains("시간") {
                WinBy::Time
            } else if r.contains("犯规") || r.contains("反則") || r.contains("반칙") {
                // A win by the opponent's foul.
                WinBy::Forfeit
            } else {
                // A win "by 0" names a winner but no margin (Fox writes `W+0.0`).
                match number(r) {
                    Some(0.0) => WinBy::UnknownMargin,
                    Some(m) => WinBy::Points(m),
                    None if looks_numeric(r) => WinBy::Malformed,
                    None => WinBy::Other,
                }
            }
        }
    }
}

/// The colour of a sentence that says only who resigned (`White resigns.`,
/// `black resigned`, as NNGS records write it); text after it (a count
/// beside the resignation) leaves the result unread.
fn resigns(lower: &str) -> Option<Color> {
    let sentence = lower.strip_suffix('.').unwrap_or(lower);
    let (who, verb) = sentence.split_once(' ')?;
    if verb != "resigns" && verb != "resigned" {
        return None;
    }
    match who {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// Parses `RE` in the forms real archives use: `B+R`, `W+Resign`, `B+T`, `W+F`,
/// `B+3.5`, `W+2.50`, `B+`, `0`, `Draw`, `Jigo`, `Void`, `?`, `White resigns.`, and Chinese,
/// Japanese and Korean forms (`黑中盘胜`, `白胜3/4子`, `黒3目半勝`, `白両目半勝`, `백 1.5집승`).
pub fn parse_result(re: &str) -> Recorded {
    let t = re.trim();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "0" | "draw" | "jigo" | "d" | "=" | "0.0" => return Recorded::Draw,
        "void" | "no result" | "nr" => return Recorded::Void,
        "" | "?" => return Recorded::Unknown,
        _ => {}
    }
    if t.contains("和") || t.contains("持碁") || t.contains("무승부") {
        return Recorded::Draw;
    }
    // UEC Cup records: `B+J` "Black wins by referee's judgment", `D+J` a judged draw.
    if lower == "d+j" {
        return Recorded::Void;
    }
    if t.contains("无胜负") || t.contains("無勝負") {
        return Recorded::Void;
    }
    if let Some(loser) = resigns(&lower) {
        return Recorded::Win {
            winner: loser.opponent(),
            by: WinBy::Resignation,
        };
    }
    let mut chars = t.chars();
    let first = chars.next();
    let winner = match first {
        Some('B' | 'b' | '黑' | '黒' | '흑') => Some(Color::Black),
        Some('W' | 'w' | '白' | '백') => Some(Color::White),
        _ => None,
    };
    let Some(winner) = winner else {
        return Recorded::Unknown;
    };
    let rest = chars.as_str();
    if let Some(after) = rest.strip_prefix('+') {
        return Recorded::Win {
            winner,
            by: win_by(after),
        };
    }
    // Asian forms: colour, then text around 胜/勝/승.
    let rest = rest.trim();
    let cleaned: String = rest
        .replace(['胜', '勝', '승', 'ち'], "")
        .trim()
        .to_string();
    if cleaned.is_empty() && rest != cleaned {
        return Recorded::Win {
            winner,
            by: WinBy::UnknownMargin,
        };
    }
    if rest.chars().count() == rest.len() && !rest.is_empty() {
        // ASCII after the colour letter but no '+': not a result ("Black resigns").
        return Recorded::Unknown;
    }
    if rest == cleaned {
        return Recorded::Unknown;
    }
    Recorded::Win {
        winner,
        by: win_by(&cleaned),
    }
}

/// The counting a record's `RU` asks to be checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredRules {
    Aga,
    Japanese,
    /// Area counting with N handicap compensation (Chinese, and the area rules mapped to it).
    Chinese,
    Swedish,
}

impl DeclaredRules {
    pub fn key(self) -> &'static str {
        match self {
            DeclaredRules::Aga => "aga",
            DeclaredRules::Japanese => "japanese",
            DeclaredRules::Chinese => "chinese",
            DeclaredRules::Swedish => "swedish",
        }
    }
}

/// The rules an `RU` value names, as far as the audit tells them apart.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RulesFamily {
    /// Japanese or Korean rules.
    Japanese,
    Aga,
    Swedish,
    Chinese,
    NewZealand,
    TrompTaylor,
    /// Ing's (SST) rules, as GOE plays them.
    Ing,
    /// A KataGo rules string (`koPOSITIONALscoreAREAtaxNONEsui1`), as read
    /// by [`KataGoRules::read`].
    KataGo(KataGoRules),
}

fn rules_family(ru: &str) -> Option<RulesFamily> {
    if let Some(k) = KataGoRules::read(ru) {
        return Some(RulesFamily::KataGo(k));
    }
    let l = ru.trim().to_ascii_lowercase();
    if l.is_empty() {
        return None;
    }
    // A list of several rulesets ("Japanese/Chinese/AGA/...") says nothing.
    if l.matches('/').count() >= 2 {
        return None;
    }
    let word = |w: &str| {
        l.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|t| t == w)
    };
    // Chinese, Japanese or Korean names (`日本规则`, `中國規則`, `한국`): one
    // country's, or none when the text names more than one.
    let named = [
        (
            ["日本", "韩国", "韓国", "한국"].as_slice(),
            RulesFamily::Japanese,
        ),
        (["中国", "中國", "중국"].as_slice(), RulesFamily::Chinese),
        (["应氏", "應氏"].as_slice(), RulesFamily::Ing),
    ];
    let mut named = named
        .into_iter()
        .filter(|(names, _)| names.iter().any(|n| l.contains(n)));
    if let Some((_, family)) = named.next() {
        return named.next().is_none().then_some(family);
    }
    if l.starts_with("jap") || l.starts_with("kor") || l == "jp" || l == "ja" || l == "nihon kiin" {
        Some(RulesFamily::Japanese)
    } else if l.starts_with("aga") || l.contains("american") {
        Some(RulesFamily::Aga)
    } else if l.starts_with("chin") || l.contains("chinese") || l == "cn" {
        Some(RulesFamily::Chinese)
    } else if l.starts_with("new zealand") || l == "nz" {
        Some(RulesFamily::NewZealand)
    } else if word("ing") || word("goe") {
        Some(RulesFamily::Ing)
    } else if l.contains("tromp") || l.starts_with("tt") {
        Some(RulesFamily::TrompTaylor)
    } else if l.starts_with("swed") {
        Some(RulesFamily::Swedish)
    } else {
        None
    }
}

/// Maps `RU` spellings to the counting to check: Japanese and Korean to Japanese;
/// AGA to AGA; Chinese, New Zealand, Ing/GOE, Tromp-Taylor and KataGo `scoreAREA`
/// strings to the Chinese area reference; KataGo `scoreTERRITORY` to Japanese.
pub fn parse_rules(ru: &str) -> Option<DeclaredRules> {
    Some(match rules_family(ru)? {
        RulesFamily::Japanese => DeclaredRules::Japanese,
        RulesFamily::Aga => DeclaredRules::Aga,
        RulesFamily::Swedish => DeclaredRules::Swedish,
        RulesFamily::Chinese
        | RulesFamily::NewZealand
        | RulesFamily::TrompTaylor
        | RulesFamily::Ing => DeclaredRules::Chinese,
        RulesFamily::KataGo(k) => match k.scoring {
            Scoring::Territory => DeclaredRules::Japanese,
            Scoring::Area => DeclaredRules::Chinese,
        },
    })
}

/// The verdicts a record that declares the rules `RU` is bound by
/// (docs/RULES.md, "Declared rules"), or `None` when RU names no known
/// ruleset. Japanese and Korean rules bind the Japanese verdicts, AGA the AGA
/// ones, Swedish the Swedish ones. Chinese rules forbid suicide and every
/// repetition of a whole-board position, which the AGA verdicts (situational
/// repetition) and the Swedish ones (positional repetition) together say. New
/// Zealand rules make any suicide a play and forbid repeating a position the
/// player's own earlier move left (the AGA verdict); Tromp-Taylor's make any
/// suicide a play and forbid every repetition (the Swedish verdict); Ing's
/// allow a suicide of two stones or more. A KataGo string says its own ko
/// rule (`koSIMPLE` and `koSPIGHT` forbid only the immediate ko recapture,
/// `koPOSITIONAL` and `koSITUATIONAL` the repetitions the Swedish and the AGA
/// verdicts find) and suicide rule (`sui1`: a suicide of two stones or more is
/// legal); its scoring decides the rest (`scoreTERRITORY` the Japanese
/// verdicts, and play goes on after two passes in KataGo's encore;
/// `scoreAREA` the Chinese rules' ones).
pub fn binding_of(ru: &str) -> Option<Binding> {
    let japanese = RulesetSet::of(Ruleset::Japanese);
    let aga = RulesetSet::of(Ruleset::Aga);
    let swedish = RulesetSet::of(Ruleset::Swedish);
    let area = aga.with(Ruleset::Swedish);
    let area_with = |name, superko, suicide| Binding {
        name,
        rulesets: area,
        superko,
        suicide,
        encore: false,
    };
    Some(match rules_family(ru)? {
        RulesFamily::Japanese => Binding::of("japanese", japanese),
        RulesFamily::Aga => Binding::of("aga", aga),
        RulesFamily::Swedish => Binding::of("swedish", swedish),
        RulesFamily::Chinese => Binding::of("chinese", area),
        RulesFamily::NewZealand => area_with("new zealand", aga, DeclaredSuicide::Any),
        RulesFamily::TrompTaylor => area_with("tromp-taylor", swedish, DeclaredSuicide::Any),
        RulesFamily::Ing => area_with("ing", area, DeclaredSuicide::MultiStone),
        RulesFamily::KataGo(k) => {
            let territory = k.scoring == Scoring::Territory;
            let rulesets = if territory { japanese } else { area };
            let superko = match k.ko {
                Some(KoRule::Simple | KoRule::Spight) => RulesetSet::EMPTY,
                Some(KoRule::Positional) => swedish,
                Some(KoRule::Situational) => aga,
                None => rulesets,
            };
            Binding {
                name: "katago",
                rulesets,
                superko,
                suicide: if k.multi_stone_suicide {
                    DeclaredSuicide::MultiStone
                } else {
                    DeclaredSuicide::Forbidden
                },
                encore: territory,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn western_forms() {
        assert_eq!(parse_result("B+R").black_margin(), None);
        assert_eq!(
            parse_result("W+0.0"),
            Recorded::Win {
                winner: Color::White,
                by: WinBy::UnknownMargin
            }
        );
        assert!(matches!(
            parse_result("W+Resign"),
            Recorded::Win {
                winner: Color::White,
                by: WinBy::Resignation
            }
        ));
        assert!(matches!(
            parse_result("B+T"),
            Recorded::Win {
                by: WinBy::Time,
                ..
            }
        ));
        assert!(matches!(
            parse_result("W+F"),
            Recorded::Win {
                by: WinBy::Forfeit,
                ..
            }
        ));
        assert_eq!(parse_result("B+3.5").black_margin(), Some(3.5));
        assert_eq!(parse_result("W+2.50").black_margin(), Some(-2.5));
        assert_eq!(parse_result("0"), Recorded::Draw);
        assert_eq!(parse_result("Jigo"), Recorded::Draw);
        // "White wins by referee's judgment" (UEC Cup), not jigo.
        assert_eq!(
            parse_result("W+J"),
            Recorded::Win {
                winner: Color::White,
                by: WinBy::Judgment
            }
        );
        assert_eq!(parse_result("D+J"), Recorded::Void);
        assert_eq!(parse_result("Void"), Recorded::Void);
        assert_eq!(parse_result("?"), Recorded::Unknown);
        assert_eq!(
            parse_result("Black resigns. W 133.5 B 81.0"),
            Recorded::Unknown
        );
        // NNGS's sentences: the other colour wins by resignation.
        assert_eq!(
            parse_result("White resigns."),
            Recorded::Win {
                winner: Color::Black,
                by: WinBy::Resignation
            }
        );
        assert_eq!(
            parse_result("black resigned"),
            Recorded::Win {
                winner: Color::White,
                by: WinBy::Resignation
            }
        );
        assert_eq!(parse_result("White resigns the game"), Recorded::Unknown);
        // Other words for a loss on time, and a loss by breaking a rule read
        // as the forfeit it is.
        for (re, want) in [
            ("W+Time Over", WinBy::Time),
            ("B+timeout", WinBy::Time),
            ("W+time-out", WinBy::Time),
            ("B+Illegal", WinBy::Forfeit),
            ("W+V", WinBy::Forfeit),
            ("W+Repetition", WinBy::Forfeit),
        ] {
            assert!(
                matches!(parse_result(re), Recorded::Win { by, .. } if by == want),
                "{re}"
            );
        }
        assert!(matches!(
            parse_result("B+"),
            Recorded::Win {
                by: WinBy::UnknownMargin,
                ..
            }
        ));
        assert!(matches!(
            parse_result("W+AW"),
            Recorded::Win {
                by: WinBy::Other,
                ..
            }
        ));
    }

    #[test]
    fn margins_that_are_no_number_of_points_are_unusable() {
        for re in ["W+NaN", "B+-3", "W+inf", "W+1e-400", "B+1e5", "W+99999"] {
            assert_eq!(
                parse_result(re),
                Recorded::Win {
                    winner: if re.starts_with('W') {
                        Color::White
                    } else {
                        Color::Black
                    },
                    by: WinBy::Malformed
                },
                "{re}"
            );
        }
        assert_eq!(parse_result("B+2704").black_margin(), Some(2704.0));
    }

    #[test]
    fn asian_forms() {
        assert!(matches!(
            parse_result("黑中盘胜"),
            Recorded::Win {
                winner: Color::Black,
                by: WinBy::Resignation
            }
        ));
        // 子 counts stones: one stone is two points.
        assert_eq!(parse_result("白胜3/4子").black_margin(), Some(-1.5));
        assert_eq!(parse_result("黑胜1又1/4子").black_margin(), Some(2.5));
        assert_eq!(parse_result("黑胜3.5目").black_margin(), Some(3.5));
        // Without 子, a quarter left over says stones: no margin in points
        // has one (whole points, plus a komi in half points).
        assert_eq!(parse_result("B+3/4").black_margin(), Some(1.5));
        assert_eq!(parse_result("W+1.75").black_margin(), Some(-3.5));
        assert_eq!(parse_result("B+2 3/4").black_margin(), Some(5.5));
        assert_eq!(parse_result("W+0.25").black_margin(), Some(-0.5));
        assert_eq!(parse_result("B+2.5").black_margin(), Some(2.5));
        assert_eq!(parse_result("B+12").black_margin(), Some(12.0));
        // A decimal comma, as in KM[6,5].
        assert_eq!(parse_result("B+3,5").black_margin(), Some(3.5));
        assert_eq!(parse_result("W+0,5").black_margin(), Some(-0.5));
        assert_eq!(parse_result("B+1,5,5").black_margin(), None);
        assert_eq!(parse_result("黒3目半勝").black_margin(), Some(3.5));
        // Half a point alone, numerals, full-width digits, a fraction in
        // words (four parts, three of them), Korean 반 (a half).
        for (re, margin) in [
            ("黒半目勝", 0.5),
            ("白半目勝ち", -0.5),
            ("黑胜半目", 0.5),
            ("白両目半勝", -2.5),
            ("白二目半勝ち", -2.5),
            ("黒十一目半勝", 11.5),
            ("白二十目勝", -20.0),
            ("黒百二目勝", 102.0),
            ("黒１目半勝", 1.5),
            ("白１．５目勝", -1.5),
            ("白胜四分之三子", -1.5),
            ("黑胜1又4分之1子", 2.5),
            ("흑 반집승", 0.5),
            ("백 1집반승", -1.5),
        ] {
            assert_eq!(parse_result(re).black_margin(), Some(margin), "{re}");
        }
        for re in ["黑犯规胜", "白反則勝ち", "흑 반칙승"] {
            assert!(
                matches!(
                    parse_result(re),
                    Recorded::Win {
                        by: WinBy::Forfeit,
                        ..
                    }
                ),
                "{re}"
            );
        }
        // Numerals out of order or run together are no number.
        for re in ["黒一二目勝", "白十十目勝", "黒十百目勝", "白胜四分之零子"]
        {
            assert_eq!(parse_result(re).black_margin(), None, "{re}");
        }
        assert_eq!(parse_result("백 1.5집승").black_margin(), Some(-1.5));
        assert!(matches!(
            parse_result("흑 불계승"),
            Recorded::Win {
                winner: Color::Black,
                by: WinBy::Resignation
            }
        ));
    }

    #[test]
    fn komi_in_words() {
        // 3 3/4 stones of two points: the Chinese komi of 7.5 points.
        assert_eq!(super::komi_in_words("3又3/4子"), Some(7.5));
        assert_eq!(super::komi_in_words("2又3/4子"), Some(5.5));
        assert_eq!(super::komi_in_words("-3又3/4子"), Some(-7.5));
        assert_eq!(super::komi_in_words("6目半"), Some(6.5));
        assert_eq!(super::komi_in_words("7.5目"), Some(7.5));
        assert_eq!(super::komi_in_words("5 1/2"), Some(5.5));
        // Without 子 the number is KM's as written: 3.75 is then read as
        // stones, as KM[3.75] is.
        assert_eq!(super::komi_in_words("3又3/4"), Some(3.75));
        // 50 stones would be read again as a KM written x100.
        assert_eq!(super::komi_in_words("50子"), None);
        for text in ["six", "", "子", "1/0", "--5", "NaN目", "3又子"] {
            assert_eq!(super::komi_in_words(text), None, "{text}");
        }
    }

    #[test]
    fn rules() {
        assert_eq!(parse_rules("Japanese"), Some(DeclaredRules::Japanese));
        assert_eq!(parse_rules("Korean"), Some(DeclaredRules::Japanese));
        assert_eq!(parse_rules("AGA"), Some(DeclaredRules::Aga));
        assert_eq!(parse_rules("Chinese"), Some(DeclaredRules::Chinese));
        assert_eq!(parse_rules("New Zealand"), Some(DeclaredRules::Chinese));
        assert_eq!(parse_rules("Ing Goe"), Some(DeclaredRules::Chinese));
        assert_eq!(parse_rules("Tromp/Taylor"), Some(DeclaredRules::Chinese));
        assert_eq!(parse_rules("GOE"), Some(DeclaredRules::Chinese));
        // "ing" inside a word is not Ing's rules.
        assert_eq!(parse_rules("territory scoring"), None);
        assert_eq!(
            parse_rules("koPOSITIONALscoreAREAtaxNONEsui1"),
            Some(DeclaredRules::Chinese)
        );
        assert_eq!(
            parse_rules("Japanese/Chinese/AGA/New Zealand/Tromp/Taylor"),
            None
        );
        for (ru, rules) in [
            ("日本规则", Some(DeclaredRules::Japanese)),
            ("日本ルール", Some(DeclaredRules::Japanese)),
            ("韩国规则", Some(DeclaredRules::Japanese)),
            ("한국 룰", Some(DeclaredRules::Japanese)),
            ("中国规则", Some(DeclaredRules::Chinese)),
            ("中國規則", Some(DeclaredRules::Chinese)),
            ("应氏规则", Some(DeclaredRules::Chinese)),
            // Two countries name no one ruleset.
            ("中国/日本", None),
            ("规则", None),
        ] {
            assert_eq!(parse_rules(ru), rules, "{ru}");
        }
    }
}
