//! Scoring a finished game from ONE final position and ONE set of dead stones,
//! under each ruleset's counting (`docs/RULES.md`, "Scoring").
//!
//! Territory is topological: an empty region (dead stones removed) whose
//! neighbouring living stones are all of one colour belongs to that colour.
//! The Japanese count leaves out what rule 8 excludes (seki eyes, points to
//! fill; computed in [`crate::scoring::final_position`] and `scoring::japanese`).

use crate::core::board::Color;
use crate::core::replay::EndState;
use crate::scoring::final_position::FinalPosition;

/// Territory (territory + prisoners) or area (stones + territory) counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Territory,
    Area,
}

impl Method {
    pub fn key(self) -> &'static str {
        match self {
            Method::Territory => "territory",
            Method::Area => "area",
        }
    }
}

/// The counts that make one side's points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Side {
    pub territory: u32,
    /// Captures + dead stones + pass stones received (territory counting only).
    pub prisoners: u32,
    /// Living stones on the board.
    pub stones: u32,
    /// Pass stones received (included in `prisoners`).
    pub pass_stones: u32,
    pub points: f64,
}

/// One ruleset's count of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub method: Method,
    pub black: Side,
    pub white: Side,
    pub komi: f64,
    /// Handicap compensation added to White (area counting).
    pub compensation: f64,
    /// Black points - White points - komi - compensation.
    pub margin: f64,
}

impl Score {
    /// `B+3.5`, `W+0.5` or `0`.
    pub fn result(&self) -> String {
        format_margin(self.margin)
    }
}

/// Formats a Black-side margin as an SGF result.
pub fn format_margin(m: f64) -> String {
    if m.abs() < 1e-9 {
        "0".to_string()
    } else if m > 0.0 {
        format!("B+{}", trim(m))
    } else {
        format!("W+{}", trim(-m))
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What distinguishes the countings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Counting {
    /// AGA territory: prisoners include pass stones, and White's owed last pass (rule 11).
    AgaTerritory,
    /// AGA area: White gets N-1 for N >= 2 handicap stones (rule 4).
    AgaArea,
    /// Japanese 1989: territory + prisoners, no pass stones; rule 8's exclusions.
    Japanese,
    /// Swedish: territory + prisoners including pass stones.
    Swedish,
    /// Chinese reference: area, White gets N for N >= 2 handicap stones.
    Chinese,
}

impl Counting {
    /// Every counting, in output order.
    pub const ALL: [Counting; 5] = [
        Counting::AgaTerritory,
        Counting::AgaArea,
        Counting::Japanese,
        Counting::Swedish,
        Counting::Chinese,
    ];

    /// The name outputs use: `aga`, `aga_area`, `japanese`, `swedish`, `chinese`.
    pub fn key(self) -> &'static str {
        match self {
            Counting::AgaTerritory => "aga",
            Counting::AgaArea => "aga_area",
            Counting::Japanese => "japanese",
            Counting::Swedish => "swedish",
            Counting::Chinese => "chinese",
        }
    }

    pub fn method(self) -> Method {
        match self {
            Counting::AgaArea | Counting::Chinese => Method::Area,
            _ => Method::Territory,
        }
    }

    /// The ruleset's own komi (used when the record has no KM, or with `--komi rules`).
    pub fn default_komi(self, handicap: u32) -> f64 {
        if handicap >= 2 {
            // AGA rule 3 (0.5 with handicap); the others by the same custom.
            return 0.5;
        }
        match self {
            // AGA rule 3: 7.5 in even games.
            Counting::AgaTerritory | Counting::AgaArea | Counting::Chinese => 7.5,
            Counting::Japanese | Counting::Swedish => 6.5,
        }
    }

    /// Handicap compensation to White under area counting.
    fn compensation(self, handicap: u32) -> f64 {
        match self {
            _ if handicap < 2 => 0.0,
            Counting::AgaArea => f64::from(handicap - 1),
            Counting::Chinese => f64::from(handicap),
            _ => 0.0,
        }
    }
}

/// AGA rule 11: "White must make the last move — if required, an extra pass, with
/// a stone handed to the opponent as usual." When the record's last move is
/// Black's (a pass or, in records that end without passes, a placement), White
/// owes that pass.
pub fn owes_last_pass(end: &EndState) -> bool {
    end.last_mover == Some(Color::Black)
}

/// What a count is made of on the board: living stones, dead stones and
/// territory per colour. The rules' count takes it from the analysed final
/// position; the record's own count from its TB/TW markup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub stones: [u32; 2],
    pub dead: [u32; 2],
    pub territory: [u32; 2],
}

impl Tally {
    /// The rules' tally for one counting: Japanese territory leaves out what
    /// rule 8 excludes; the other countings are topological.
    pub fn of(pos: &FinalPosition, c: Counting) -> Tally {
        let mut t = Tally::topological(pos);
        if c == Counting::Japanese {
            let out = pos.japanese_exclusions();
            t.territory = [t.territory[0] - out[0], t.territory[1] - out[1]];
        }
        t
    }

    /// The territory as it stands: every region bordered by one colour only is
    /// that colour's, with nothing left out.
    pub fn topological(pos: &FinalPosition) -> Tally {
        Tally {
            stones: pos.stones,
            dead: pos.dead,
            territory: pos.territory,
        }
    }
}

/// Scores a tally under one counting.
pub fn score(c: Counting, t: &Tally, end: &EndState, handicap: u32, komi: f64) -> Score {
    let (b, w) = (Color::Black.index(), Color::White.index());
    let mut black = Side {
        territory: t.territory[b],
        ..Side::default()
    };
    let mut white = Side {
        territory: t.territory[w],
        ..Side::default()
    };
    let method = c.method();
    match method {
        Method::Territory => {
            black.prisoners = end.captures[b] + t.dead[w];
            white.prisoners = end.captures[w] + t.dead[b];
            if matches!(c, Counting::AgaTerritory | Counting::Swedish) {
                black.pass_stones = end.passes[w];
                white.pass_stones = end.passes[b];
                // AGA rule 11: if Black passed last, White adds a final pass.
                if c == Counting::AgaTerritory && owes_last_pass(end) {
                    black.pass_stones += 1;
                }
                black.prisoners += black.pass_stones;
                white.prisoners += white.pass_stones;
            }
            black.points = f64::from(black.territory + black.prisoners);
            white.points = f64::from(white.territory + white.prisoners);
        }
        Method::Area => {
            black.stones = t.stones[b];
            white.stones = t.stones[w];
            black.points = f64::from(black.territory + black.stones);
            white.points = f64::from(white.territory + white.stones);
        }
    }
    let compensation = c.compensation(handicap);
    let margin = black.points - white.points - komi - compensation;
    Score {
        method,
        black,
        white,
        komi,
        compensation,
        margin,
    }
}

/// Every counting's score of one game, by name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scores {
    pub aga: Score,
    pub aga_area: Score,
    pub japanese: Score,
    pub swedish: Score,
    pub chinese: Score,
}

impl Scores {
    /// Scores every counting with `score_one`.
    pub fn each(mut score_one: impl FnMut(Counting) -> Score) -> Scores {
        Scores {
            aga: score_one(Counting::AgaTerritory),
            aga_area: score_one(Counting::AgaArea),
            japanese: score_one(Counting::Japanese),
            swedish: score_one(Counting::Swedish),
            chinese: score_one(Counting::Chinese),
        }
    }

    pub fn get(&self, c: Counting) -> &Score {
        match c {
            Counting::AgaTerritory => &self.aga,
            Counting::AgaArea => &self.aga_area,
            Counting::Japanese => &self.japanese,
            Counting::Swedish => &self.swedish,
            Counting::Chinese => &self.chinese,
        }
    }

    /// The countings with their scores, in [`Counting::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Counting, &Score)> {
        Counting::ALL.into_iter().map(move |c| (c, self.get(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::Board;
    use crate::scoring::final_position::analyse;

    fn board(rows: &[&str]) -> Box<Board> {
        Board::from_rows(rows)
    }

    fn score_pos(c: Counting, pos: &FinalPosition, end: &EndState, h: u32, komi: f64) -> Score {
        score(c, &Tally::of(pos, c), end, h, komi)
    }

    #[test]
    fn aga_pass_stones_and_last_pass() {
        let b = board(&["XX.OO", "XX.OO", "XX.OO", "XX.OO", "XX.OO"]);
        let pos = analyse(&b, &[]);
        let end = EndState {
            trailing_passes: 2,
            last_mover: Some(Color::Black),
            passes: [1, 1],
            ..Default::default()
        };
        let t = score_pos(Counting::AgaTerritory, &pos, &end, 0, 0.0);
        // Black: 1 pass stone from White's pass + 1 for White's owed last pass.
        assert_eq!(t.black.pass_stones, 2);
        assert_eq!(t.white.pass_stones, 1);
        let a = score_pos(Counting::AgaArea, &pos, &end, 0, 0.0);
        assert_eq!(a.margin, 0.0);
        assert_eq!(
            t.margin, 1.0,
            "an odd extra pass on Black's side shows as 1 point"
        );
    }

    fn counts(c: Counting, pos: &FinalPosition, end: &EndState, h: u32) -> Score {
        score_pos(c, pos, end, h, c.default_komi(h))
    }

    #[test]
    fn handicap_compensation_is_n_minus_1_for_aga_and_n_for_chinese() {
        let b = board(&["XX.OO", "XX.OO", "XX.OO", "XX.OO", "XX.OO"]);
        let pos = analyse(&b, &[]);
        let end = EndState::default();
        // AGA rule 4: N-1 for N stones; rule 3: komi 0.5 with handicap.
        let aga = counts(Counting::AgaArea, &pos, &end, 4);
        assert_eq!((aga.compensation, aga.komi), (3.0, 0.5));
        let chinese = counts(Counting::Chinese, &pos, &end, 4);
        assert_eq!(chinese.compensation, 4.0);
        assert_eq!(aga.margin - chinese.margin, 1.0);
        // Territory counting has no compensation.
        assert_eq!(
            counts(Counting::AgaTerritory, &pos, &end, 4).compensation,
            0.0
        );
        assert_eq!(counts(Counting::Japanese, &pos, &end, 4).compensation, 0.0);
    }

    #[test]
    fn aga_seki_parity_two_black_moves_inside_a_seki() {
        // AGA rules, commentary fig. 2: after the dame are filled Black plays twice inside a seki
        // while White passes twice (White must move last, rule 11). The final
        // position has no territory in the seki; Black's two stones show in the
        // area count, White's two pass stones in the territory count: Black gains
        // two points under both AGA counts, and nothing under Japanese rules.
        let b = board(&["XX.OO", "XX.OO", "XX.OO", "XX.OO", "XX.OO"]);
        let pos = analyse(&b, &[]);
        let before = EndState {
            placed: [10, 10],
            ..Default::default()
        };
        let after = EndState {
            placed: [12, 10],
            passes: [0, 2],
            trailing_passes: 2,
            last_mover: Some(Color::White),
            ..Default::default()
        };
        let mut pos_after = pos.clone();
        pos_after.stones[0] += 2; // the two black stones stay on the board (seki)
        for c in [Counting::AgaTerritory, Counting::AgaArea] {
            let gain = counts(c, &pos_after, &after, 0).margin - counts(c, &pos, &before, 0).margin;
            assert_eq!(gain, 2.0, "{c:?}");
        }
        let j = counts(Counting::Japanese, &pos_after, &after, 0).margin
            - counts(Counting::Japanese, &pos, &before, 0).margin;
        assert_eq!(j, 0.0);
    }

    #[test]
    fn seki_point_inside_territory_counts_under_aga() {
        // AGA rules, commentary fig. 3: a point completely surrounded by living black stones is
        // Black's, even inside a seki: topological territory.
        let b = board(&[".XO..", "XXO..", "OOO..", ".....", "....."]);
        let pos = analyse(&b, &[]);
        assert_eq!(pos.territory[0], 1);
        let t = counts(Counting::AgaTerritory, &pos, &EndState::default(), 0);
        assert_eq!(t.black.territory, 1);
    }
}
