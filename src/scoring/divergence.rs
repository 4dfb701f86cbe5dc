//! Why two countings give different margins: each counting's margin is the plain
//! topological count plus named components (area counting, for one, adds the
//! stones placed and the handicap stones), and two margins differ by the
//! difference of their components, exactly.

use super::counting::{owes_last_pass, Counting, Score, Scores};
use super::final_position::FinalPosition;
use crate::core::board::Color;
use crate::core::replay::EndState;

/// The parts a counting's margin is made of beyond the plain topological
/// territory count (territory + captures + dead stones, no komi): the rules
/// brief's arithmetic made exact. Two countings' margins differ by the
/// difference of their components.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Components {
    /// The stone balance not placed during play: handicap and setup stones.
    pub handicap_stones: f64,
    /// Stones placed by Black minus by White.
    pub stones_placed: f64,
    pub pass_stones: f64,
    /// AGA rule 11: White's owed last pass.
    pub white_last_pass: f64,
    /// Japanese rule 8: eye points of stones in seki.
    pub seki_eyes: f64,
    /// Japanese rule 8: points a player must fill once the dame are filled.
    pub points_to_fill: f64,
    pub komi: f64,
    /// Area counting's handicap compensation.
    pub compensation: f64,
}

impl Components {
    /// The component names, in output order.
    pub const NAMES: [&'static str; 8] = [
        "handicap_stones",
        "stones_placed",
        "pass_stones",
        "white_last_pass",
        "seki_eyes",
        "points_to_fill",
        "komi",
        "compensation",
    ];

    /// `(name, value)` in [`Components::NAMES`] order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> {
        let values = [
            self.handicap_stones,
            self.stones_placed,
            self.pass_stones,
            self.white_last_pass,
            self.seki_eyes,
            self.points_to_fill,
            self.komi,
            self.compensation,
        ];
        Components::NAMES.into_iter().zip(values)
    }

    /// The components of one counting's score of a game.
    pub fn of(c: Counting, s: &Score, pos: &FinalPosition, end: &EndState) -> Components {
        let (b, w) = (Color::Black.index(), Color::White.index());
        let mut k = Components {
            komi: -s.komi,
            ..Components::default()
        };
        match c {
            Counting::AgaTerritory | Counting::Swedish => {
                let passes = f64::from(s.black.pass_stones) - f64::from(s.white.pass_stones);
                let owed = if c == Counting::AgaTerritory && owes_last_pass(end) {
                    1.0
                } else {
                    0.0
                };
                k.pass_stones = passes - owed;
                k.white_last_pass = owed;
            }
            Counting::Japanese => {
                k.seki_eyes = -(f64::from(pos.seki_eyes[b]) - f64::from(pos.seki_eyes[w]));
                k.points_to_fill = -(f64::from(pos.to_fill[b]) - f64::from(pos.to_fill[w]));
            }
            Counting::AgaArea | Counting::Chinese => {
                // Area - plain territory = (stones placed B - W) + the rest of the
                // stone balance (setup and handicap stones), exactly.
                let placed = f64::from(end.placed[b]) - f64::from(end.placed[w]);
                let area_minus_territory = (f64::from(pos.stones[b]) - f64::from(pos.stones[w]))
                    - (f64::from(end.captures[b] + pos.dead[w])
                        - f64::from(end.captures[w] + pos.dead[b]));
                k.handicap_stones = area_minus_territory - placed;
                k.stones_placed = placed;
                k.compensation = -s.compensation;
            }
        }
        k
    }
}

/// Why two countings give different margins: `margin_difference` is
/// `margin(between[0]) - margin(between[1])` and equals the sum of `causes`.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    pub between: [Counting; 2],
    pub margin_difference: f64,
    /// Non-zero causes only, in [`Components::NAMES`] order.
    pub causes: Vec<(&'static str, f64)>,
    /// The two countings name different winners.
    pub winner_changes: bool,
}

/// -1, 0 or 1: who a margin says won.
pub(crate) fn winner_sign(m: f64) -> i8 {
    if m > 1e-9 {
        1
    } else if m < -1e-9 {
        -1
    } else {
        0
    }
}

/// Every pair of countings whose margins differ, with why.
pub fn divergences(scores: &Scores, pos: &FinalPosition, end: &EndState) -> Vec<Divergence> {
    let comps: Vec<(Counting, &Score, Components)> = scores
        .iter()
        .map(|(c, s)| (c, s, Components::of(c, s, pos, end)))
        .collect();
    let mut out = Vec::new();
    for (i, (ci, si, ki)) in comps.iter().enumerate() {
        for (cj, sj, kj) in &comps[i + 1..] {
            let d = si.margin - sj.margin;
            if d.abs() < 1e-9 {
                continue;
            }
            let causes = ki
                .iter()
                .zip(kj.iter())
                .map(|((name, a), (_, b))| (name, a - b))
                .filter(|(_, v)| v.abs() > 1e-9)
                .collect();
            out.push(Divergence {
                between: [*ci, *cj],
                margin_difference: d,
                causes,
                winner_changes: winner_sign(si.margin) != winner_sign(sj.margin),
            });
        }
    }
    out
}
