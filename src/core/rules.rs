//! Rules as data plus small, named judgement functions, each citing its source rule
//! (`docs/RULES.md` holds the full reasoning; the sources are the AGA rules of
//! 1991 revised 2004, the Japanese rules of the Nihon Kiin of 1989, and the
//! simple Swedish rules).
//!
//! The replay (`replay`) computes facts about each move once (was the point
//! occupied? did the stone's string survive? which earlier position does the result
//! repeat?); the functions here turn those facts into one verdict per ruleset.

use std::fmt;

/// The three rulesets audited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ruleset {
    /// American Go Association rules, 1991 as revised 2004.
    Aga,
    /// Japanese rules of the Nihon Kiin, 1989.
    Japanese,
    /// The simple Swedish rules of the Swedish Go Federation.
    Swedish,
}

impl Ruleset {
    pub const ALL: [Ruleset; 3] = [Ruleset::Aga, Ruleset::Japanese, Ruleset::Swedish];

    /// The lower-case key used in every output (`aga`, `japanese`, `swedish`).
    pub fn key(self) -> &'static str {
        match self {
            Ruleset::Aga => "aga",
            Ruleset::Japanese => "japanese",
            Ruleset::Swedish => "swedish",
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A small set of rulesets (a bit mask).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RulesetSet(u8);

impl RulesetSet {
    pub const EMPTY: RulesetSet = RulesetSet(0);
    pub const ALL: RulesetSet = RulesetSet(0b111);

    pub fn of(r: Ruleset) -> RulesetSet {
        RulesetSet(1 << r.index())
    }
    pub fn with(self, r: Ruleset) -> RulesetSet {
        RulesetSet(self.0 | (1 << r.index()))
    }
    pub fn union(self, o: RulesetSet) -> RulesetSet {
        RulesetSet(self.0 | o.0)
    }
    pub fn contains(self, r: Ruleset) -> bool {
        self.0 & (1 << r.index()) != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Ruleset> {
        Ruleset::ALL.into_iter().filter(move |r| self.contains(*r))
    }
}

/// What the rules a record declares (`RU`) make binding. A move illegal under
/// a ruleset bound for its kind of illegality is an error; a move illegal only
/// under others is reported for information.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The declared rules as messages name them ("japanese", "new zealand").
    pub name: &'static str,
    /// The rulesets whose verdicts bind on suicide (when the declared rules
    /// forbid it), on retaking a ko at once and on placements that cannot be
    /// played.
    pub rulesets: RulesetSet,
    /// The rulesets whose verdicts bind on recreating an earlier position
    /// (none: the declared rules have the basic ko rule only).
    pub superko: RulesetSet,
    pub suicide: DeclaredSuicide,
    /// Two passes end only the main phase: play goes on in an encore (KataGo's
    /// territory rules), so play after passes is no resumption.
    pub encore: bool,
}

/// What the declared rules say of suicide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclaredSuicide {
    /// Illegal: the verdicts of [`Binding::rulesets`] bind.
    Forbidden,
    /// A suicide of two stones or more is legal, one of a single stone is not.
    MultiStone,
    /// Every suicide is a legal play; one that recreates an earlier position
    /// is judged by the repetition rule ([`Binding::superko`]).
    Any,
}

impl Binding {
    /// No rules declared (or none recognised): every verdict binds.
    pub const ALL: Binding = Binding::of("", RulesetSet::ALL);

    /// The same rulesets bind every kind of illegal move.
    pub const fn of(name: &'static str, rulesets: RulesetSet) -> Binding {
        Binding {
            name,
            rulesets,
            superko: rulesets,
            suicide: DeclaredSuicide::Forbidden,
            encore: false,
        }
    }

    /// The rulesets whose verdicts bind on a move illegal as `kind` that
    /// removed `self_captured` stones of its own. A suicide the declared rules
    /// allow is judged by their repetition rule alone: [`Binding::superko`]
    /// against [`repetition_rules_broken`], as the verdicts name the suicide.
    pub fn for_move(&self, kind: IllegalKind, self_captured: u32) -> RulesetSet {
        let allowed_suicide = match self.suicide {
            DeclaredSuicide::Forbidden => false,
            DeclaredSuicide::MultiStone => self_captured >= 2,
            DeclaredSuicide::Any => self_captured >= 1,
        };
        match kind {
            IllegalKind::Suicide if allowed_suicide => RulesetSet::EMPTY,
            // A suicide that recreates a position is judged as the suicide it
            // is, unless the declared rules allow it: then only as a repetition.
            IllegalKind::Superko if self_captured > 0 && !allowed_suicide => self.rulesets,
            IllegalKind::Superko => self.superko,
            _ => self.rulesets,
        }
    }
}

/// Which earlier positions AGA's repetition rule (rule 6) compares against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AgaSuperko {
    /// Natural situational superko (the AGA commentary): only positions the mover
    /// itself created by placing a stone count; positions after passes never do.
    #[default]
    Natural,
    /// Plain situational superko (KataGo's "aga" preset and most engines): every
    /// earlier position with the same player to move counts, passes included.
    Situational,
}

/// Whether the Swedish rules allow multi-stone suicide (they do not mention it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SwedishSuicide {
    /// Literal reading: the string is lifted as the opponent's prisoners; a
    /// single-stone suicide still repeats the position and falls to the ko rule.
    #[default]
    Allowed,
    /// Treat suicide as illegal, like AGA and Japanese rules.
    Forbidden,
}

/// How to read the same colour moving twice in a row (outside handicap placement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SameColour {
    /// Machine-written records (AP, or a server named in PC/SO/GC/US) are read as
    /// an omitted pass; hand-written ones as a wrong turn.
    #[default]
    Auto,
    /// Always an omitted pass of the opponent.
    OmittedPass,
    /// Always a wrong turn (illegal under all three rulesets).
    WrongTurn,
}

/// The knobs that change verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleOptions {
    pub aga_superko: AgaSuperko,
    pub swedish_suicide: SwedishSuicide,
    pub same_colour: SameColour,
}

/// Why a move is illegal under a ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IllegalKind {
    Occupied,
    OffBoard,
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    /// Any other forbidden repetition.
    Superko,
    WrongTurn,
}

impl IllegalKind {
    /// Every kind.
    pub const ALL: [IllegalKind; 6] = [
        IllegalKind::Occupied,
        IllegalKind::OffBoard,
        IllegalKind::Suicide,
        IllegalKind::Ko,
        IllegalKind::Superko,
        IllegalKind::WrongTurn,
    ];

    /// The key used in outputs.
    pub fn key(self) -> &'static str {
        match self {
            IllegalKind::Occupied => "occupied",
            IllegalKind::OffBoard => "off-board",
            IllegalKind::Suicide => "suicide",
            IllegalKind::Ko => "ko",
            IllegalKind::Superko => "superko",
            IllegalKind::WrongTurn => "wrong-turn",
        }
    }
}

/// The rule a verdict rests on, as a finding names it: "AGA rule 6".
pub fn source_rule(r: Ruleset, kind: IllegalKind) -> &'static str {
    match (r, kind) {
        (Ruleset::Aga, IllegalKind::Suicide) => "AGA rule 5",
        (Ruleset::Aga, IllegalKind::Ko | IllegalKind::Superko) => "AGA rule 6",
        (Ruleset::Aga, IllegalKind::WrongTurn | IllegalKind::Occupied) => "AGA rule 2",
        (Ruleset::Aga, IllegalKind::OffBoard) => "AGA rule 1",
        (Ruleset::Japanese, IllegalKind::Suicide) => "Japanese rules 3-4",
        (Ruleset::Japanese, IllegalKind::Ko | IllegalKind::Superko) => "Japanese rule 6",
        (Ruleset::Japanese, IllegalKind::WrongTurn) => "Japanese rule 2",
        (Ruleset::Japanese, IllegalKind::Occupied | IllegalKind::OffBoard) => "Japanese rule 3",
        (Ruleset::Swedish, IllegalKind::Suicide) => {
            "the Swedish rules with --swedish-suicide forbid"
        }
        (Ruleset::Swedish, IllegalKind::Ko | IllegalKind::Superko) => "the Swedish ko rule",
        (Ruleset::Swedish, _) => "the Swedish rules",
    }
}

/// A repetition the replay found and confirmed by comparing boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The position before the opponent's last move (an immediate ko recapture).
    Immediate,
    /// Some other earlier position.
    Earlier,
}

impl Repetition {
    fn kind(self) -> IllegalKind {
        match self {
            Repetition::Immediate => IllegalKind::Ko,
            Repetition::Earlier => IllegalKind::Superko,
        }
    }
}

/// Facts about one placement on an empty on-board point, computed once by the replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlacementFacts {
    /// Own stones removed after the placement (0 = not a suicide).
    pub self_captured: u32,
    /// The point is the one the basic ko rule forbids to this player now.
    pub retakes_banned_ko: bool,
    /// The resulting board equals some earlier board of the game (any player).
    pub positional: Option<Repetition>,
    /// ... equals a board the mover itself made: right after one of its own
    /// placements (natural situational superko), or also after its passes (plain
    /// situational superko), per [`RuleOptions::aga_superko`]. The starting position
    /// counts as made by the player who does not move first.
    pub own_position: Option<Repetition>,
}

/// AGA rule 5: "It is illegal for a player to create a string of own stones
/// without liberties after opponent captures are removed." Japanese rules 3-4:
/// a stone may be placed only where it may remain.
pub fn suicide_forbidden(r: Ruleset, opts: &RuleOptions) -> bool {
    match r {
        Ruleset::Aga | Ruleset::Japanese => true,
        // Simple Swedish rules: suicide is not mentioned; see `SwedishSuicide`.
        Ruleset::Swedish => opts.swedish_suicide == SwedishSuicide::Forbidden,
    }
}

/// AGA rule 6: "illegal to recreate an earlier board position on the same
/// player's turn", with the commentary's natural situational superko (or, by option,
/// plain situational superko): the replay remembers the positions each player made
/// under the chosen variant (`own_position`).
fn aga_repetition(f: &PlacementFacts) -> Option<Repetition> {
    f.own_position
}

/// Japanese rule 6 (basic ko): a player whose stone was captured in a ko may not
/// recapture immediately. No superko: rule 12 (no result) is judged separately.
fn japanese_ko(f: &PlacementFacts) -> Option<Repetition> {
    f.retakes_banned_ko.then_some(Repetition::Immediate)
}

/// Swedish ko rule: "a move may not make the board look as it did at any earlier
/// time in the game": positional superko, whoever is to move.
fn swedish_repetition(f: &PlacementFacts) -> Option<Repetition> {
    f.positional
}

/// The repetition (if any) a placement makes that `r`'s ko or superko rule forbids.
fn repetition(r: Ruleset, f: &PlacementFacts) -> Option<Repetition> {
    match r {
        Ruleset::Aga => aga_repetition(f),
        Ruleset::Japanese => japanese_ko(f),
        Ruleset::Swedish => swedish_repetition(f),
    }
}

/// The rulesets whose repetition rule the placement breaks, whatever their
/// suicide rule: a suicide that recreates a position breaks it too, though the
/// verdict ([`judge_placement`]) names the suicide first.
pub fn repetition_rules_broken(f: &PlacementFacts) -> RulesetSet {
    Ruleset::ALL
        .into_iter()
        .filter(|&r| repetition(r, f).is_some())
        .fold(RulesetSet::EMPTY, RulesetSet::with)
}

/// The verdict on a placement on an empty on-board point under one ruleset.
pub fn judge_placement(r: Ruleset, f: &PlacementFacts, opts: &RuleOptions) -> Option<IllegalKind> {
    if f.self_captured > 0 && suicide_forbidden(r, opts) {
        return Some(IllegalKind::Suicide);
    }
    repetition(r, f).map(Repetition::kind)
}

/// Japanese rule 12: the first placement that recreates an earlier whole-board
/// position marks a possible "no result". It is not an illegal move.
pub fn japanese_no_result(f: &PlacementFacts, illegal_under_japanese: bool) -> bool {
    f.positional.is_some() && !illegal_under_japanese
}

/// Occupied point: AGA rule 2 ("a stone on an empty intersection") and rule 8;
/// Japanese rule 3 ("any unoccupied intersection"); Swedish "a free point".
/// Off the board: no ruleset has a point there. Both are illegal everywhere.
pub fn judge_unplayable(kind: IllegalKind) -> RulesetSet {
    debug_assert!(matches!(
        kind,
        IllegalKind::Occupied | IllegalKind::OffBoard
    ));
    RulesetSet::ALL
}

/// Same colour twice: AGA rules 2 and 8 ("two moves in a row"), Japanese rule 2
/// (players move alternately), Swedish ("the players move alternately").
pub fn judge_wrong_turn() -> RulesetSet {
    RulesetSet::ALL
}

/// One line of the rulesets side by side (`sgfaudit rules`): what each
/// ruleset says on a topic, as implemented, with its source rule, and the
/// option that changes the reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleLine {
    pub topic: &'static str,
    pub aga: &'static str,
    pub japanese: &'static str,
    pub swedish: &'static str,
    /// The option that changes it, if any.
    pub option: Option<&'static str>,
}

/// The three rulesets as implemented, side by side (docs/RULES.md gives the
/// reasoning for each line).
pub const RULE_LINES: &[RuleLine] = &[
    RuleLine {
        topic: "repetition",
        aga: "natural situational superko: a placement may not recreate a position the mover made by a placement (rule 6 and commentary)",
        japanese: "basic ko only: no immediate retake of a single-stone ko (rule 6); a recurring position may end the game with no result (rule 12)",
        swedish: "positional superko: no position may recur, whoever moves (ko rule)",
        option: Some("--aga-superko natural|situational"),
    },
    RuleLine {
        topic: "suicide",
        aga: "illegal (rule 5)",
        japanese: "illegal: a stone must be able to remain (rules 3-4)",
        swedish: "not mentioned: allowed, the string is lifted as the opponent's prisoners; a single-stone suicide repeats a position (ko rule)",
        option: Some("--swedish-suicide allow|forbid"),
    },
    RuleLine {
        topic: "occupied point, off the board, same colour twice",
        aga: "illegal (rules 1, 2, 8)",
        japanese: "illegal (rules 2, 3)",
        swedish: "illegal (free points, alternate moves)",
        option: Some("--same-colour auto|omitted-pass|wrong-turn"),
    },
    RuleLine {
        topic: "passes",
        aga: "a pass hands the opponent a stone (rule 7); two passes end play (rule 9)",
        japanese: "free; two passes stop play (rule 9)",
        swedish: "a pass hands the opponent a stone; two passes end play",
        option: None,
    },
    RuleLine {
        topic: "the last move",
        aga: "White moves last: a final pass with a stone when Black passed last (rule 11)",
        japanese: "no rule",
        swedish: "no rule",
        option: None,
    },
    RuleLine {
        topic: "counting",
        aga: "territory + prisoners (with pass stones), or area; equal by design (rule 12)",
        japanese: "territory + prisoners (captures and dead stones; rule 10)",
        swedish: "territory + prisoners (with pass stones)",
        option: Some("--dead-stones auto|markup|estimate|none"),
    },
    RuleLine {
        topic: "seki and points to fill",
        aga: "topological: every point surrounded by one colour counts (commentary fig. 3)",
        japanese: "dame filled first; points their owner must fill and eye points of stones in seki are no territory (rule 8, commentary O, P, Q)",
        swedish: "topological",
        option: None,
    },
    RuleLine {
        topic: "komi",
        aga: "7.5, 0.5 with handicap (rule 3)",
        japanese: "a tournament condition: KM, else 6.5",
        swedish: "6.5",
        option: Some("--komi record|rules|VALUE"),
    },
    RuleLine {
        topic: "handicap compensation",
        aga: "area counting: White gets N-1 for N stones (rule 4)",
        japanese: "none",
        swedish: "none",
        option: None,
    },
    RuleLine {
        topic: "an illegal move",
        aga: "taken back and counted as a pass if the opponent objects at once; else the game goes on as it stands (rule 8)",
        japanese: "loses the game (rule 14)",
        swedish: "not specified",
        option: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swedish_suicide_is_allowed_by_default_and_forbidden_by_option() {
        let f = PlacementFacts {
            self_captured: 2,
            ..Default::default()
        };
        let mut opts = RuleOptions::default();
        assert_eq!(judge_placement(Ruleset::Swedish, &f, &opts), None);
        assert_eq!(
            judge_placement(Ruleset::Aga, &f, &opts),
            Some(IllegalKind::Suicide)
        );
        opts.swedish_suicide = SwedishSuicide::Forbidden;
        assert_eq!(
            judge_placement(Ruleset::Swedish, &f, &opts),
            Some(IllegalKind::Suicide)
        );
    }

    #[test]
    fn aga_judges_the_positions_the_mover_made() {
        let f = PlacementFacts {
            own_position: Some(Repetition::Earlier),
            ..Default::default()
        };
        let opts = RuleOptions::default();
        assert_eq!(
            judge_placement(Ruleset::Aga, &f, &opts),
            Some(IllegalKind::Superko)
        );
        // Japanese rules have no superko; Swedish judges the positional set.
        assert_eq!(judge_placement(Ruleset::Japanese, &f, &opts), None);
        assert_eq!(judge_placement(Ruleset::Swedish, &f, &opts), None);
    }
}
