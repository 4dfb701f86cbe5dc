//! Property tests: random games on small boards, replayed by the real replay and by
//! a deliberately naive reference (boards as vectors, captures by flood fill,
//! repetitions by comparing whole boards against the full history). Every verdict
//! must agree; the incremental hash must equal a hash recomputed from scratch; the
//! stones on the board must equal stones placed minus stones captured.

use proptest::prelude::*;
use sgfaudit::core::board::{Color, Point};
use sgfaudit::core::game::{Event, GameRecord, MoveKind};
use sgfaudit::core::replay::Replayer;
use sgfaudit::core::rules::{RuleOptions, Ruleset};

#[derive(Clone, Debug)]
struct Game {
    size: u8,
    moves: Vec<(bool, Option<(u8, u8)>)>, // (same colour as before?, point or pass)
}

fn game() -> impl Strategy<Value = Game> {
    (2u8..=5).prop_flat_map(|size| {
        let mv = (
            prop::bool::weighted(0.05),
            prop::option::weighted(0.9, (0..size, 0..size)),
        );
        prop::collection::vec(mv, 0..80).prop_map(move |moves| Game { size, moves })
    })
}

fn record(g: &Game) -> GameRecord {
    let mut r = GameRecord {
        size: sgfaudit::core::board::BoardSize::new(g.size).expect("sizes 1..=19"),
        ..Default::default()
    };
    let mut color = Color::Black;
    for (i, (same, p)) in g.moves.iter().enumerate() {
        if i > 0 && !same {
            color = color.opponent();
        }
        let kind = match p {
            Some((x, y)) => MoveKind::Place(Point::new(*x, *y)),
            None => MoveKind::Pass,
        };
        r.events.push(Event::Move { color, kind });
    }
    r
}

/// The naive reference.
type Cells = Vec<Option<Color>>;

fn neighbours(n: usize, i: usize) -> Vec<usize> {
    let (x, y) = (i % n, i / n);
    let mut v = Vec::new();
    if x > 0 {
        v.push(i - 1)
    }
    if x + 1 < n {
        v.push(i + 1)
    }
    if y > 0 {
        v.push(i - n)
    }
    if y + 1 < n {
        v.push(i + n)
    }
    v
}

fn group(n: usize, b: &Cells, i: usize) -> (Vec<usize>, usize) {
    let c = b[i];
    let mut seen = vec![i];
    let mut libs = std::collections::BTreeSet::new();
    let mut k = 0;
    while k < seen.len() {
        for j in neighbours(n, seen[k]) {
            if b[j].is_none() {
                libs.insert(j);
            } else if b[j] == c && !seen.contains(&j) {
                seen.push(j);
            }
        }
        k += 1;
    }
    (seen, libs.len())
}

#[derive(Default, Debug, PartialEq)]
struct Verdicts {
    illegal: [Vec<(u32, &'static str)>; 3],
    no_result: Option<u32>,
}

fn naive(g: &Game) -> Verdicts {
    let n = usize::from(g.size);
    let mut b: Cells = vec![None; n * n];
    // (board, placed by) for every position of the game, in order.
    let mut hist: Vec<(Cells, Option<Color>)> = Vec::new();
    let mut out = Verdicts::default();
    let mut ko_ban: Option<(usize, Color)> = None;
    let mut to_move = Color::Black;
    let mut color = Color::Black;
    for (idx, (same, p)) in g.moves.iter().enumerate() {
        let m = idx as u32 + 1;
        if idx > 0 && !same {
            color = color.opponent();
        }
        if hist.is_empty() {
            // The starting position counts as made by the player who does not move first.
            hist.push((b.clone(), Some(color.opponent())));
        }
        if idx > 0 && color != to_move {
            for r in 0..3 {
                out.illegal[r].push((m, "wrong-turn"));
            }
        }
        to_move = color.opponent();
        let ban = ko_ban.take();
        let Some((x, y)) = p else {
            hist.push((b.clone(), None));
            continue;
        };
        let i = usize::from(*y) * n + usize::from(*x);
        if b[i].is_some() {
            for r in 0..3 {
                out.illegal[r].push((m, "occupied"));
            }
            hist.push((b.clone(), None));
            continue;
        }
        b[i] = Some(color);
        let mut captured = Vec::new();
        for j in neighbours(n, i) {
            if b[j] == Some(color.opponent()) {
                let (stones, libs) = group(n, &b, j);
                if libs == 0 {
                    for s in stones {
                        b[s] = None;
                        captured.push(s);
                    }
                }
            }
        }
        let (own, libs) = group(n, &b, i);
        let suicide = libs == 0;
        let single_one_lib = own.len() == 1 && libs == 1;
        if suicide {
            for s in own {
                b[s] = None;
            }
        }
        // Most recent earlier position equal to the new board, in a set of positions.
        let cur = hist.len();
        let find = |pred: &dyn Fn(&Option<Color>) -> bool| {
            hist.iter()
                .rposition(|(h, by)| pred(by) && *h == b)
                .map(|j| if j + 2 == cur { "ko" } else { "superko" })
        };
        let positional = find(&|_| true);
        let natural = find(&|by| *by == Some(color));
        // AGA: suicide, else natural situational superko.
        if suicide {
            out.illegal[0].push((m, "suicide"));
        } else if let Some(k) = natural {
            out.illegal[0].push((m, k));
        }
        // Japanese: suicide, else basic ko; rule 12 on the first repetition.
        let japanese_illegal = if suicide {
            out.illegal[1].push((m, "suicide"));
            true
        } else if ban == Some((i, color)) {
            out.illegal[1].push((m, "ko"));
            true
        } else {
            false
        };
        if !japanese_illegal && positional.is_some() && out.no_result.is_none() {
            out.no_result = Some(m);
        }
        // Swedish: positional superko; suicide allowed.
        if let Some(k) = positional {
            out.illegal[2].push((m, k));
        }
        hist.push((b.clone(), Some(color)));
        if captured.len() == 1 && single_one_lib && !suicide {
            ko_ban = Some((captured[0], color.opponent()));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn replay_agrees_with_the_naive_reference(g in game()) {
        let rec = record(&g);
        let mut r = Replayer::new();
        let out = r.replay(&rec, &RuleOptions::default());
        let mut got = Verdicts::default();
        for rs in Ruleset::ALL {
            got.illegal[rs.index()] = out.verdicts.get(rs)
                .illegal
                .iter()
                .map(|i| (i.move_number, i.kind.key()))
                .collect();
        }
        got.no_result = out.verdicts.japanese.no_result;
        prop_assert_eq!(got, naive(&g));

        // The incremental hash equals a hash recomputed from scratch.
        prop_assert_eq!(r.board().hash(), r.board().hash_from_scratch());
        // Stones on the board = placed - captured by the opponent.
        let e = &out.end;
        let (b, w) = (Color::Black.index(), Color::White.index());
        prop_assert_eq!(r.board().stone_count(Color::Black), e.placed[b] - e.captures[w]);
        prop_assert_eq!(r.board().stone_count(Color::White), e.placed[w] - e.captures[b]);
    }
}
