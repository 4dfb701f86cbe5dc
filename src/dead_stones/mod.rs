//! Dead-stone estimation for finished games without territory markup.
//! Deterministic (fixed-seed playouts, no network, no model files) and never
//! consults the recorded result.
//!
//! 1. **Benson's algorithm** finds the chains of each colour that are alive even if
//!    their owner always passes (pass-alive); they are never dead, and empty
//!    regions bordered only by them are left out of the playouts.
//! 2. **Ownership by playouts** (`playout.rs`): the final position is played
//!    out to the end many times by a light random policy, half the time with
//!    Black to move first, half with White. A chain whose colour owns its points
//!    in fewer than half of the playouts is dead. Playouts run in batches and stop
//!    early once every chain in question is clearly alive or clearly dead.
//! 3. **Chains in doubt are read** (`reading.rs`): a chain its colour owns
//!    in 30-70% of the playouts is searched exhaustively over the points of its
//!    fight; if it is captured whoever moves first, it is dead. If the side to
//!    move decides the fight, [`FirstMove`] says who moves first: the player
//!    whose turn it is after the record's last move, with whom play would
//!    resume (AGA rule 10: the opponent of the last passer), or under Japanese
//!    rules the attacker (rule 7-1: stones the opponent can capture are dead).
//! 4. **The chains near a chain reading settled are judged again** over the
//!    playouts that agree with that verdict: a stone that lived off a chain now
//!    dead (a lone stone beside a lost capturing race) dies with it. This only
//!    ever moves a chain towards death, and runs no new playout. A fight that
//!    Japanese rule 7-1 gives to the attacker is not used so: that first move
//!    is granted to the attacker of each chain alone.
//! 5. **The chains of one fight are judged together**: chains still in doubt
//!    near one another take the outcome the playouts reached most often, each
//!    alive or dead as there, not each its own majority, which can combine into
//!    an outcome few playouts reached (both sides of a race alive, or dead).
//! 6. **Seki** (`seki.rs`): a chain called dead that reading did not prove
//!    captured lives when, with the other dead stones off, the opponent fills
//!    what it safely can and is left with a liberty it shares with the chain
//!    that neither side can fill (each would be left in atari) and no
//!    sacrifice there leaves the chain a killable eye: an eyeless seki, which
//!    light playouts lose by filling or capturing at random.
//! 7. **Dead stones must leave the opponent's area**: a chain called dead whose
//!    points, with every dead stone off, lie in an area only its own colour
//!    borders lives (a stone inside a dead group).
//! 8. **Doubt is reported**: the chains still owned by their colour in 30-70% of
//!    the playouts, and not settled by reading, are listed as uncertain, so a
//!    reader knows which counts rest on a coin flip.
//!
//! Measured against TB/TW markup with `cargo run --release --example
//! estimate_accuracy -- DIR` (figures in docs/RULES.md).

mod playout;
mod reading;
mod seki;

use std::collections::BTreeMap;

use crate::core::board::{Board, Color, Point};
use crate::core::grid::{Grid, Units, NONE};

/// Which chains of either colour are pass-alive ([`benson`], every colour in
/// turn).
pub(crate) fn pass_alive_chains(p: &Grid, chain: &[u32], colors: &[Color]) -> Vec<bool> {
    let mut pass_alive = vec![false; colors.len()];
    for c in [Color::Black, Color::White] {
        for (k, a) in benson(p, chain, colors, c, false).into_iter().enumerate() {
            pass_alive[k] |= a && colors[k] == c;
        }
    }
    pass_alive
}

/// Benson's algorithm: which chains of colour `c` are pass-alive. Regions (maximal
/// connected sets of points not occupied by `c`) and which of them are vital to
/// which chain (every empty point of the region is a liberty of the chain; with
/// `every_point`, every point, the opponent's stones too, is next to it: where a
/// suicide of several stones is legal, an opponent string in the region is no
/// safe eye) are computed once; then chains with fewer than two healthy vital
/// regions, and the regions they border, are struck off until nothing changes.
pub(crate) fn benson(
    p: &Grid,
    chain: &[u32],
    colors: &[Color],
    c: Color,
    every_point: bool,
) -> Vec<bool> {
    let regions = p.components(|x| x != Some(c), |a, b| a != Some(c) && b != Some(c));
    let mut points_of: Vec<Vec<usize>> = vec![Vec::new(); regions.count];
    for (i, &r) in regions.label.iter().enumerate() {
        if r != NONE {
            points_of[r as usize].push(i);
        }
    }
    let mut borders: Vec<Vec<u32>> = Vec::new(); // chains of colour c next to each region
    let mut vital: Vec<Vec<u32>> = Vec::new(); // chains each region is vital to
    let mut count = vec![0u32; colors.len()]; // per chain: empty points of this region it touches
    let mut stamp = vec![NONE; colors.len()];
    for (r, pts) in points_of.iter().enumerate() {
        let r = r as u32;
        let mut border: Vec<u32> = Vec::new();
        let mut empties = 0u32;
        let mut counted = 0u32;
        for &i in pts {
            let empty = p.cells[i].is_none();
            empties += u32::from(empty);
            let counts = empty || every_point;
            counted += u32::from(counts);
            let mut seen_here: [u32; 4] = [NONE; 4];
            for (k, j) in p.neighbours(i).enumerate() {
                let ch = chain[j];
                if ch == NONE || colors[ch as usize] != c || seen_here.contains(&ch) {
                    continue;
                }
                seen_here[k] = ch;
                if stamp[ch as usize] != r {
                    stamp[ch as usize] = r;
                    count[ch as usize] = 0;
                    border.push(ch);
                }
                if counts {
                    count[ch as usize] += 1;
                }
            }
        }
        let v = border
            .iter()
            .copied()
            .filter(|&ch| empties > 0 && count[ch as usize] == counted)
            .collect();
        borders.push(border);
        vital.push(v);
    }
    let mut alive: Vec<bool> = colors.iter().map(|&x| x == c).collect();
    let mut healthy = vec![true; borders.len()];
    loop {
        let mut n_vital = vec![0u32; colors.len()];
        for (r, v) in vital.iter().enumerate() {
            if healthy[r] {
                for &ch in v {
                    n_vital[ch as usize] += 1;
                }
            }
        }
        let mut changed = false;
        for ch in 0..colors.len() {
            if alive[ch] && n_vital[ch] < 2 {
                alive[ch] = false;
                changed = true;
            }
        }
        for (r, b) in borders.iter().enumerate() {
            if healthy[r] && b.iter().any(|&ch| !alive[ch as usize]) {
                healthy[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    alive
}

/// Playouts are run in batches of this many, and at most [`MAX_PLAYOUTS`] (or
/// [`MOVE_BUDGET`]); after each batch the estimate stops when every chain still
/// in question is clearly on one side of one half: its ownership lies more than
/// [`CLEAR_Z`] standard errors (of a fair coin over the playouts run) away from 0.5.
/// Two standard errors is the usual 95% level; a chain that stops on the wrong
/// side of one half by chance lies within [`DOUBT`] of it and is read anyway.
const BATCH: u32 = 8;
const MAX_PLAYOUTS: u32 = 128;
const CLEAR_Z: f64 = 2.0;
/// The playouts stop once they have played this many moves in all (checked after
/// every pair, so each colour moves first as often): about [`MAX_PLAYOUTS`]
/// playouts of a finished 19x19 game (about 130 moves each from its final
/// position), so the budget cuts short only the longer playouts of big unsettled
/// boards, where one can run to several hundred moves (about 250 ns a move with
/// the policy's checks).
const MOVE_BUDGET: u32 = 16_000;

/// What the playouts say about each chain.
struct Ownership {
    /// In how many of [`MAX_PLAYOUTS`] playouts its colour owns the chain (scaled
    /// from the playouts actually run, averaged over its points).
    own: Vec<u64>,
    /// Bit `r` set: in playout `r` its colour owned more than half its points.
    lived: Vec<u128>,
    /// Bits of the playouts run.
    run: u128,
}

/// Ownership of each chain over random playouts from `p`. Chains marked in
/// `settled` do not keep the estimate going.
fn chain_ownership(
    p: &Grid,
    chain: &[u32],
    colors: &[Color],
    settled: &[bool],
    seed: u64,
) -> Ownership {
    let mut size = vec![0u64; colors.len()];
    for &ch in chain {
        if ch != NONE {
            size[ch as usize] += 1;
        }
    }
    let mut own = vec![0u64; colors.len()];
    let mut lived = vec![0u128; colors.len()];
    if settled.iter().all(|&s| s) {
        return Ownership { own, lived, run: 0 };
    }
    let start = crate::dead_stones::playout::PlayoutBoard::from_position(
        p,
        &safe_territory(p, chain, settled),
    );
    let mut b = start.clone();
    let mut rng = crate::dead_stones::playout::Rng::new(0x5EED_DEAD_D7AD ^ seed);
    let mut run = 0;
    let mut moves = 0u32;
    let mut owned = vec![0u64; colors.len()];
    'play: while run < MAX_PLAYOUTS {
        for k in 0..BATCH {
            b.copy_from(&start);
            // Alternate who moves first, so neither side gets the tempo.
            let first = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            moves += b.playout(first, &mut rng);
            owned.iter_mut().for_each(|o| *o = 0);
            for (i, &ch) in chain.iter().enumerate() {
                if ch != NONE && b.owner(i) == Some(colors[ch as usize]) {
                    owned[ch as usize] += 1;
                }
            }
            for ch in 0..colors.len() {
                own[ch] += owned[ch];
                if 2 * owned[ch] > size[ch] {
                    lived[ch] |= 1 << run;
                }
            }
            run += 1;
            // The budget is checked after each pair, so both colours have moved
            // first equally often.
            if k % 2 == 1 && moves >= MOVE_BUDGET {
                break 'play;
            }
        }
        let margin = CLEAR_Z * 0.5 / f64::from(run).sqrt();
        let clear = (0..colors.len()).all(|ch| {
            let f = own[ch] as f64 / (size[ch] as f64 * f64::from(run));
            settled[ch] || (f - 0.5).abs() > margin
        });
        if clear {
            break;
        }
    }
    for ch in 0..colors.len() {
        own[ch] = own[ch] * u64::from(MAX_PLAYOUTS) / (size[ch] * u64::from(run));
    }
    let run = if run >= 128 {
        u128::MAX
    } else {
        (1u128 << run) - 1
    };
    Ownership { own, lived, run }
}

/// Empty points of regions that hold no stone and border only chains of one colour
/// that are all settled (pass-alive): no move there can change any chain's fate.
fn safe_territory(p: &Grid, chain: &[u32], settled: &[bool]) -> Vec<bool> {
    let mut out = vec![false; p.cells.len()];
    let mut seen = vec![false; p.cells.len()];
    let mut pts = Vec::new();
    for s in 0..p.cells.len() {
        if p.cells[s].is_some() || seen[s] {
            continue;
        }
        pts.clear();
        pts.push(s);
        seen[s] = true;
        let mut border: Option<Color> = None;
        let mut safe = true;
        let mut q = 0;
        while q < pts.len() {
            let i = pts[q];
            q += 1;
            for j in p.neighbours(i) {
                match p.cells[j] {
                    None => {
                        if !seen[j] {
                            seen[j] = true;
                            pts.push(j);
                        }
                    }
                    Some(c) => {
                        safe &= settled[chain[j] as usize] && border.is_none_or(|b| b == c);
                        border = Some(c);
                    }
                }
            }
        }
        if safe && border.is_some() {
            for &i in &pts {
                out[i] = true;
            }
        }
    }
    out
}

/// A dead-stone estimate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Estimate {
    /// Dead black stones, row by row.
    pub black: Vec<Point>,
    /// Dead white stones, row by row.
    pub white: Vec<Point>,
    /// Stones (dead or alive, either colour) of chains the playouts left in doubt
    /// and reading did not settle: their colour owned them in more than [`DOUBT`]
    /// and less than 1 - [`DOUBT`] of the playouts. A count that depends on them
    /// rests on a coin flip.
    pub uncertain: Vec<Point>,
}

/// Ownership closer to one half than this makes a chain's status uncertain.
pub const DOUBT: f64 = 0.3;

/// Who moves first in a fight that the side to move decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMove {
    /// The player whose turn it is after the record's last move: play resumes
    /// with the opponent of the last passer (AGA rule 10; the Swedish rules
    /// resume by alternate play too).
    Resume(Color),
    /// The side attacking the chain: under Japanese rule 7-1 stones live only
    /// if the opponent cannot capture them, so a chain that dies when the
    /// opponent moves first is dead; its owner should have defended before
    /// passing.
    Attacker,
}

/// Estimates the dead stones of a final position; `first` says who moves first
/// in the fights that the side to move decides. A chain that is not pass-alive
/// and not settled by reading is dead when, over the playouts, its colour owns
/// its points less than half of the time.
pub fn estimate(board: &Board, first: FirstMove) -> Estimate {
    estimate_seeded(board, first, 0)
}

/// [`estimate`] with the playouts' seed changed by `salt` (0 gives [`estimate`]'s
/// own): another draw of the same estimator, to measure how much a figure rests
/// on the draw.
pub fn estimate_seeded(board: &Board, first: FirstMove, salt: u64) -> Estimate {
    let p = Grid::from_board(board);
    let (chain, colors) = p.chains();
    let pass_alive = pass_alive_chains(&p, &chain, &colors);
    let seed = board.hash() ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let Ownership {
        mut own,
        lived,
        run,
    } = chain_ownership(&p, &chain, &colors, &pass_alive, seed);
    let full = f64::from(MAX_PLAYOUTS);
    let in_doubt = |o: u64| {
        let f = o as f64 / full;
        f > DOUBT && f < 1.0 - DOUBT
    };
    // The chains in doubt are read. A capture whoever moves first replaces the
    // playouts' verdict, and so does a fight the side to move decides (play
    // would resume with it). A failed attack does not (see `reading`).
    let mut verdict: Vec<Option<bool>> = vec![None; colors.len()];
    // The verdicts that say how play would go, which the chains near them are
    // judged again by. A fight Japanese rule 7-1 gives to the attacker is not
    // one: that first move is granted to the attacker of each chain in turn, a
    // question asked of that chain alone, so its neighbours keep their own odds.
    let mut in_play: Vec<Option<bool>> = vec![None; colors.len()];
    let mut read = vec![false; colors.len()];
    let mut budget = crate::dead_stones::reading::GAME_BUDGET;
    let no_dead = vec![false; colors.len()];
    for (i, &ch) in chain.iter().enumerate() {
        let k = ch as usize;
        if ch == NONE || pass_alive[k] || read[k] || !in_doubt(own[k]) {
            continue;
        }
        read[k] = true;
        let outcome = crate::dead_stones::reading::read(&p, i, &mut budget);
        verdict[k] = match outcome {
            reading::Outcome::Dead => Some(false),
            // Under Japanese rules a lone stone on its owner's eye is only ever
            // "captured" by a ko that rule 7-2 lets the owner win (`saved_by_ko`).
            reading::Outcome::Unsettled => Some(match first {
                FirstMove::Resume(c) => colors[k] == c,
                FirstMove::Attacker => saved_by_ko(&p, &chain, &no_dead, i),
            }),
            reading::Outcome::Alive | reading::Outcome::Open => None,
        };
        if !(outcome == reading::Outcome::Unsettled && first == FirstMove::Attacker) {
            in_play[k] = verdict[k];
        }
    }
    condition_on_reading(&p, &chain, &pass_alive, &in_play, &lived, run, &mut own);
    let mut dead = vec![false; colors.len()];
    for k in 0..colors.len() {
        dead[k] = !pass_alive[k]
            && match verdict[k] {
                Some(alive) => !alive,
                None => 2 * own[k] < u64::from(MAX_PLAYOUTS),
            };
    }
    let open: Vec<bool> = (0..colors.len())
        .map(|k| !pass_alive[k] && verdict[k].is_none() && in_doubt(own[k]))
        .collect();
    judge_fights_together(&p, &chain, &open, &lived, run, &mut dead);
    for (i, &ch) in chain.iter().enumerate() {
        if ch != NONE && dead[ch as usize] && saved_by_ko(&p, &chain, &dead, i) {
            dead[ch as usize] = false;
            verdict[ch as usize] = Some(true);
        }
    }
    alive_in_seki(&p, &chain, &mut dead, &mut verdict);
    alive_in_own_area(&p, &chain, &colors, &mut dead, &mut verdict);
    let mut out = Estimate::default();
    for (i, &ch) in chain.iter().enumerate() {
        if ch == NONE || pass_alive[ch as usize] {
            continue;
        }
        if verdict[ch as usize].is_none() && in_doubt(own[ch as usize]) {
            out.uncertain.push(p.point(i));
        }
        if dead[ch as usize] {
            match colors[ch as usize] {
                Color::Black => out.black.push(p.point(i)),
                Color::White => out.white.push(p.point(i)),
            }
        }
    }
    out
}

/// Japanese rule 7-2: a lone stone in atari on its owner's eye stands, when the
/// owner's stones around that eye live. Its only liberty `t` has no other
/// neighbour than the owner's stones, so the opponent's capture there is a ko:
/// the capturing stone is left with the captured point as its one liberty, and
/// the owner takes back at once. Rule 7-2 forbids the capturer to retake that ko
/// before passing for it, so the stone cannot be captured for good (rule 7-1):
/// it lives, and the players leave it standing (the owner connects at `t` when
/// that keeps two liberties; in a seki the stone simply stays). `at` is the
/// stone's point.
fn saved_by_ko(p: &Grid, chain: &[u32], dead: &[bool], at: usize) -> bool {
    let Some(c) = p.cells[at] else { return false };
    if p.neighbours(at).any(|j| p.cells[j] == Some(c)) {
        return false;
    }
    let libs: Vec<usize> = p.neighbours(at).filter(|&j| p.cells[j].is_none()).collect();
    let [t] = libs[..] else { return false };
    let mut owners = 0;
    for j in p.neighbours(t) {
        match p.cells[j] {
            Some(x) if x == c && j != at => {
                if dead[chain[j] as usize] {
                    return false;
                }
                owners += 1;
            }
            Some(x) if x == c => {}
            _ => return false,
        }
    }
    owners > 0
}

/// Seki (`seki.rs`): a chain called dead that reading did not prove captured
/// lives when, on the position without the other dead stones, it is in seki.
/// Such chains of one colour that share an eye point (an empty point whose
/// neighbours are all their stones) are judged as one: the opponent cannot
/// fill that point while either has another liberty. Each chain is judged on
/// that same position, so the order does not matter.
fn alive_in_seki(p: &Grid, chain: &[u32], dead: &mut [bool], verdict: &mut [Option<bool>]) {
    let candidate: Vec<bool> = (0..dead.len())
        .map(|k| dead[k] && verdict[k] != Some(false))
        .collect();
    let mut stones: Vec<Vec<usize>> = vec![Vec::new(); dead.len()];
    let mut cleared = p.clone();
    for (i, &ch) in chain.iter().enumerate() {
        if ch != NONE && dead[ch as usize] {
            cleared.cells[i] = None;
            if candidate[ch as usize] {
                stones[ch as usize].push(i);
            }
        }
    }
    if stones.iter().all(Vec::is_empty) {
        return;
    }
    let unit = shared_eye_units(p, chain, &candidate);
    // Puts the stones of the chains `members` back on `cleared`, or takes them off.
    let show = |cleared: &mut Grid, members: &[usize], on: bool| {
        for &m in members {
            for &i in &stones[m] {
                cleared.cells[i] = if on { p.cells[i] } else { None };
            }
        }
    };
    let mut flood = crate::core::grid::Flood::new(p.cells.len());
    let mut revived: Vec<usize> = Vec::new();
    for k in 0..stones.len() {
        if unit[k] != k || stones[k].is_empty() {
            continue;
        }
        let members: Vec<usize> = (0..stones.len()).filter(|&m| unit[m] == k).collect();
        // Each member with its first stone (every candidate has stones).
        let firsts: Vec<(usize, usize)> = members
            .iter()
            .filter_map(|&m| stones[m].first().map(|&i| (m, i)))
            .collect();
        let starts: Vec<usize> = firsts.iter().map(|&(_, i)| i).collect();
        let eyes = if members.len() > 1 {
            joining_eyes(p, chain, &unit, k)
        } else {
            Vec::new()
        };
        show(&mut cleared, &members, true);
        let together = seki::in_seki(&mut cleared, &starts, &eyes, &mut flood);
        show(&mut cleared, &members, false);
        if together {
            revived.extend(&members);
        } else if members.len() > 1 {
            // Joined through a false eye: each string is judged alone.
            for &(m, first) in &firsts {
                show(&mut cleared, &[m], true);
                if seki::in_seki(&mut cleared, &[first], &[], &mut flood) {
                    revived.push(m);
                }
                show(&mut cleared, &[m], false);
            }
        }
    }
    for k in revived {
        dead[k] = false;
        verdict[k] = Some(true);
    }
}

/// The empty points of `p` that join the chains of the unit `root` of
/// [`shared_eye_units`]: every neighbour a stone of that unit, and two chains or
/// more among them.
fn joining_eyes(p: &Grid, chain: &[u32], unit: &[usize], root: usize) -> Vec<usize> {
    (0..p.cells.len())
        .filter(|&i| {
            if p.cells[i].is_some() {
                return false;
            }
            let mut first = None;
            let mut two = false;
            for j in p.neighbours(i) {
                let ch = chain[j];
                if ch == NONE || unit[ch as usize] != root {
                    return false;
                }
                match first {
                    None => first = Some(ch),
                    Some(f) => two |= f != ch,
                }
            }
            two
        })
        .collect()
}

/// For each chain, the smallest chain it shares an eye point with, directly
/// or through others (itself when none): only `candidate` chains are joined,
/// through an empty point of `p` whose neighbours are all stones of candidate
/// chains of one colour.
fn shared_eye_units(p: &Grid, chain: &[u32], candidate: &[bool]) -> Vec<usize> {
    let mut unit = Units::new(candidate.len());
    for i in 0..p.cells.len() {
        if p.cells[i].is_some() {
            continue;
        }
        let mut colour = None;
        let mut around = [usize::MAX; 4];
        let mut n = 0;
        let mut eye = true;
        for j in p.neighbours(i) {
            let ch = chain[j];
            if ch == NONE || !candidate[ch as usize] || (colour.is_some() && colour != p.cells[j]) {
                eye = false;
                break;
            }
            colour = p.cells[j];
            around[n] = ch as usize;
            n += 1;
        }
        if !eye || n < 2 {
            continue;
        }
        for &k in &around[1..n] {
            unit.join(around[0], k);
        }
    }
    unit.roots()
}

/// The steps (between neighbouring points) from the stones of chain `k` to
/// every point within [`NEAR`] of them, in `dist` (`u8::MAX` beyond).
fn steps_from(p: &Grid, chain: &[u32], k: usize, dist: &mut [u8], queue: &mut Vec<usize>) {
    dist.iter_mut().for_each(|d| *d = u8::MAX);
    queue.clear();
    for (i, &ch) in chain.iter().enumerate() {
        if ch != NONE && ch as usize == k {
            dist[i] = 0;
            queue.push(i);
        }
    }
    let mut q = 0;
    while q < queue.len() {
        let i = queue[q];
        q += 1;
        if dist[i] >= NEAR {
            continue;
        }
        for j in p.neighbours(i) {
            if dist[j] == u8::MAX {
                dist[j] = dist[i] + 1;
                queue.push(j);
            }
        }
    }
}

/// Dead stones are taken off as the opponent's prisoners and their points
/// count for the opponent (Japanese rule 7 and 8, AGA rule 12): a dead chain
/// whose points, once every dead stone is off, lie in an area bordered only
/// by living stones of its own colour would be in its own territory, where no
/// opponent stone is left to capture it. Such a chain lives (a stone inside a
/// dead group, when the group is removed). Repeated until nothing changes:
/// a chain brought back can close another one's area.
fn alive_in_own_area(
    p: &Grid,
    chain: &[u32],
    colors: &[Color],
    dead: &mut [bool],
    verdict: &mut [Option<bool>],
) {
    loop {
        let mut cleared = p.clone();
        for (i, &ch) in chain.iter().enumerate() {
            if ch != NONE && dead[ch as usize] {
                cleared.cells[i] = None;
            }
        }
        let (label, touch) = cleared.regions();
        let mut changed = false;
        for (i, &ch) in chain.iter().enumerate() {
            let k = ch as usize;
            if ch == NONE || !dead[k] {
                continue;
            }
            let t = touch[label[i] as usize];
            let own = colors[k].index();
            if t[own] && !t[1 - own] {
                dead[k] = false;
                verdict[k] = Some(true);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// How far (in steps between neighbouring points) a chain settled by reading
/// reaches when the others are judged again, and how near chains in doubt
/// are to fight one fight. The figures do not move between 2 and 19 for the
/// first, nor between 3 and 19 for the second (2 loses a game of real).
const NEAR: u8 = 3;
/// Fewer playouts than this agreeing with a verdict, and it is not used to judge
/// the chains near it again (4 to 16 give the same figures).
const MIN_AGREEING: u32 = 8;

/// Chains reading settled change the odds of the chains near them: a stone that
/// lived off a chain now dead (a lone stone beside a lost race) dies with it.
/// The ownership of every other chain is taken again over the playouts that
/// agree with the reading's verdicts on the chains within [`NEAR`] points, as
/// long as at least [`MIN_AGREEING`] playouts do, and kept when lower. (Raising
/// it too lost a game's count on the development corpus: a stone proven dead
/// inside a large eyeless group "saved" the group in the playouts where it was
/// captured.)
fn condition_on_reading(
    p: &Grid,
    chain: &[u32],
    pass_alive: &[bool],
    verdict: &[Option<bool>],
    lived: &[u128],
    run: u128,
    own: &mut [u64],
) {
    let settled: Vec<usize> = (0..verdict.len())
        .filter(|&k| verdict[k].is_some())
        .collect();
    if settled.is_empty() || run == 0 {
        return;
    }
    // distance[j][k]: steps from the j-th settled chain to chain k (up to NEAR).
    let mut distance = Vec::with_capacity(settled.len());
    let mut dist = vec![u8::MAX; chain.len()];
    let mut queue = Vec::new();
    for &t in &settled {
        steps_from(p, chain, t, &mut dist, &mut queue);
        let mut to_chain = vec![u8::MAX; verdict.len()];
        for (i, &ch) in chain.iter().enumerate() {
            if ch != NONE {
                to_chain[ch as usize] = to_chain[ch as usize].min(dist[i]);
            }
        }
        distance.push(to_chain);
    }
    for k in 0..verdict.len() {
        if pass_alive[k] || verdict[k].is_some() {
            continue;
        }
        let mut order: Vec<usize> = (0..settled.len())
            .filter(|&j| distance[j][k] <= NEAR)
            .collect();
        if order.is_empty() {
            continue;
        }
        order.sort_by_key(|&j| (distance[j][k], settled[j]));
        let mut agreeing = run;
        for j in order {
            let t = settled[j];
            let want = if verdict[t] == Some(true) {
                lived[t]
            } else {
                !lived[t]
            };
            let narrowed = agreeing & want;
            if narrowed.count_ones() >= MIN_AGREEING {
                agreeing = narrowed;
            }
        }
        // Only ever towards death: the verdicts are local, and a chain that a
        // verdict seems to save may still die to what the reading did not see.
        if agreeing != run {
            let given = u64::from((lived[k] & agreeing).count_ones()) * u64::from(MAX_PLAYOUTS)
                / u64::from(agreeing.count_ones());
            own[k] = own[k].min(given);
        }
    }
}

/// Chains in doubt near one another (within [`NEAR`] points, directly or
/// through others) fight one fight: a capturing race ends with one side
/// captured, so their fates are linked. Each chain's own majority over the
/// playouts can combine into an outcome that few playouts or none reached
/// (both sides of a race alive, or dead); the fight is given the outcome the
/// playouts reached most often, each of its chains alive (more than half its
/// points owned by its colour) or dead as there. A tie leaves each chain its
/// own majority.
fn judge_fights_together(
    p: &Grid,
    chain: &[u32],
    open: &[bool],
    lived: &[u128],
    run: u128,
    dead: &mut [bool],
) {
    let mut fights: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (k, unit) in near_units(p, chain, open).into_iter().enumerate() {
        if open[k] {
            fights.entry(unit).or_default().push(k);
        }
    }
    for members in fights.values().filter(|m| m.len() > 1) {
        // Each outcome reached, with the playouts that reached it.
        let mut outcomes: Vec<(Vec<bool>, u32)> = Vec::new();
        for r in (0..MAX_PLAYOUTS).filter(|&r| run >> r & 1 == 1) {
            let outcome: Vec<bool> = members.iter().map(|&k| lived[k] >> r & 1 == 1).collect();
            match outcomes.iter_mut().find(|(o, _)| *o == outcome) {
                Some((_, n)) => *n += 1,
                None => outcomes.push((outcome, 1)),
            }
        }
        let most = outcomes.iter().map(|&(_, n)| n).max().unwrap_or(0);
        let mut modes = outcomes.iter().filter(|&&(_, n)| n == most);
        if let (Some((mode, _)), None) = (modes.next(), modes.next()) {
            for (&k, &alive) in members.iter().zip(mode) {
                dead[k] = !alive;
            }
        }
    }
}

/// For each chain, its unit of `open` chains: those within [`NEAR`] points of
/// one another, directly or through others.
fn near_units(p: &Grid, chain: &[u32], open: &[bool]) -> Vec<usize> {
    let mut unit = Units::new(open.len());
    let mut dist = vec![u8::MAX; chain.len()];
    let mut queue = Vec::new();
    for k in (0..open.len()).filter(|&k| open[k]) {
        steps_from(p, chain, k, &mut dist, &mut queue);
        for &i in &queue {
            let ch = chain[i];
            if ch != NONE && open[ch as usize] {
                unit.join(k, ch as usize);
            }
        }
    }
    unit.roots()
}

/// The dead stones of [`estimate`]: (dead black, dead white).
pub fn dead_stones(board: &Board, first: FirstMove) -> (Vec<Point>, Vec<Point>) {
    let e = estimate(board, first);
    (e.black, e.white)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[Point]) -> Vec<String> {
        v.iter().map(|p| p.sgf()).collect()
    }

    #[test]
    fn chains_called_dead_that_share_an_eye_are_judged_together() {
        // seki.rs's corner: Black's two strings at the top right share the
        // corner eye and live in seki once Black fills the neutral point
        // between its wall and its stones at (6, 3). Called dead (as light
        // playouts do), both come back; White's group stays.
        let p = Grid::from_board(&Board::from_rows(&seki::CORNER));
        let (chain, colors) = p.chains();
        let at = |x: usize, y: usize| chain[y * p.n + x] as usize;
        let corner = [at(6, 0), at(8, 1)];
        let mut dead = vec![false; colors.len()];
        for k in corner {
            dead[k] = true;
        }
        let mut verdict = vec![None; colors.len()];
        let unit = shared_eye_units(&p, &chain, &dead);
        assert_eq!(unit[corner[0]], unit[corner[1]]);
        assert_eq!(joining_eyes(&p, &chain, &unit, unit[corner[0]]), vec![8]);
        alive_in_seki(&p, &chain, &mut dead, &mut verdict);
        assert!(dead.iter().all(|&d| !d), "both strings live in seki");
        assert_eq!(verdict[corner[0]], Some(true));
        assert_eq!(verdict[corner[1]], Some(true));
    }

    #[test]
    fn the_side_to_move_decides_an_unsettled_group() {
        // Black's straight three: Black to move plays the middle and lives,
        // White to move plays it and Black dies.
        let b = Board::from_rows(&[
            "...XO..", //
            "XXXXO..", //
            "OOOOO..", //
            ".......", //
            ".......", //
            ".......", //
            ".......", //
        ]);
        let (black, white) = dead_stones(&b, FirstMove::Resume(Color::Black));
        assert!(black.is_empty() && white.is_empty(), "{black:?} {white:?}");
        let (black, white) = dead_stones(&b, FirstMove::Resume(Color::White));
        assert_eq!(names(&black), ["da", "ab", "bb", "cb", "db"]);
        assert!(white.is_empty(), "{white:?}");
        // Under Japanese rules White, the attacker, moves first whoever passed last.
        let (black, white) = dead_stones(&b, FirstMove::Attacker);
        assert_eq!(names(&black), ["da", "ab", "bb", "cb", "db"]);
        assert!(white.is_empty(), "{white:?}");
    }

    #[test]
    fn a_two_point_eye_dies_and_two_eyes_live() {
        let b = Board::from_rows(&[
            "..XO...", // Black's corner group has one two-point eye: dead.
            "XXXO...", //
            "OOOO...", //
            ".......", //
            "OOOOOOO", //
            "XXXXXXX", // Black's bottom group has two eyes and more: alive.
            ".X.X...", //
        ]);
        let (black, white) = dead_stones(&b, FirstMove::Resume(Color::Black));
        assert_eq!(names(&black), ["ca", "ab", "bb", "cb"]);
        assert!(white.is_empty(), "{white:?}");
    }

    #[test]
    fn a_lone_stone_in_atari_on_its_owners_eye_lives_by_rule_7_2() {
        // Black's ca is in atari at ba, an eye point of Black's living group
        // (aa, bb): White's capture there is a ko that Black takes back at
        // once, and rule 7-2 forbids White to retake before passing for it.
        // Whoever moves next, nothing is dead.
        let rows = [
            "X.XO.....", //
            "XXOO.....", //
            "XXXO.....", //
            ".XXO.....", //
            "XXXO.....", //
            "X.XO.....", //
            "XXXO.....", //
            ".XXO.....", //
            "XXXO.....", //
        ];
        for to_move in [Color::Black, Color::White] {
            let (black, white) = dead_stones(&Board::from_rows(&rows), FirstMove::Resume(to_move));
            assert!(black.is_empty() && white.is_empty(), "{black:?} {white:?}");
        }
    }

    #[test]
    fn a_chain_left_in_its_own_area_by_the_dead_stones_lives() {
        // Black's group in White's corner is dead; White's stone at cc sits in
        // its two-point eye. With Black's group off, cc's area (cc, dc and the
        // group's points) is bordered by White only: cc cannot be captured.
        // White's lone stone at fg, in Black's area, stays dead.
        let rows = [
            ".O.....", //
            "OXXXXO.", //
            "OXO.XO.", //
            "OXXXXO.", //
            ".OOOOOO", //
            "XXXXXXX", //
            "X....O.", //
        ];
        let p = Grid::from_board(&Board::from_rows(&rows));
        let (chain, colors) = p.chains();
        let at = |x: usize, y: usize| chain[y * 7 + x] as usize;
        let mut dead = vec![false; colors.len()];
        for k in [at(1, 1), at(2, 2), at(5, 6)] {
            dead[k] = true;
        }
        let mut verdict = vec![None; colors.len()];
        alive_in_own_area(&p, &chain, &colors, &mut dead, &mut verdict);
        assert!(dead[at(1, 1)], "Black's group stays dead");
        assert!(!dead[at(2, 2)], "White's stone in its eye lives");
        assert!(dead[at(5, 6)], "White's stone in Black's area stays dead");
    }

    #[test]
    fn the_estimate_depends_on_the_position_and_turn_only() {
        let rows = ["..XO.", "XXXO.", "OOOO.", ".....", "..X.."];
        let a = dead_stones(&Board::from_rows(&rows), FirstMove::Resume(Color::Black));
        let b = dead_stones(&Board::from_rows(&rows), FirstMove::Resume(Color::Black));
        assert_eq!(a, b);
        // The lone black stone in White's area is dead too.
        assert!(names(&a.0).contains(&"ce".to_string()), "{a:?}");
    }

    /// A black and a white stone (at row-major points `black_at`,
    /// `white_at`), both in doubt and alive by their own majorities, judged
    /// over playouts where Black's stone alone was captured `counts[0]` times,
    /// White's alone `counts[1]` times, and neither `counts[2]` times: whether
    /// each is then dead.
    fn judged(rows: &[&str], black_at: usize, white_at: usize, counts: [u32; 3]) -> (bool, bool) {
        let p = Grid::from_board(&Board::from_rows(rows));
        let (chain, colors) = p.chains();
        let (black, white) = (chain[black_at] as usize, chain[white_at] as usize);
        let mut lived = vec![0u128; colors.len()];
        let mut r = 0;
        for (alive, times) in [
            ((false, true), counts[0]),
            ((true, false), counts[1]),
            ((true, true), counts[2]),
        ] {
            for _ in 0..times {
                lived[black] |= u128::from(alive.0) << r;
                lived[white] |= u128::from(alive.1) << r;
                r += 1;
            }
        }
        let open = vec![true; colors.len()];
        let mut dead = vec![false; colors.len()];
        judge_fights_together(&p, &chain, &open, &lived, (1u128 << r) - 1, &mut dead);
        (dead[black], dead[white])
    }

    #[test]
    fn a_fight_gets_the_outcome_the_playouts_reached_most_often() {
        // Two points apart. Over 12 playouts Black's stone lives in 7 and
        // White's in 9: each by its own majority lives. But the outcome
        // reached most often (5 times) is Black's stone captured and White's
        // alive, so that is the fight's.
        let rows = ["X....", ".O...", ".....", ".....", "....."];
        assert_eq!(judged(&rows, 0, 6, [5, 3, 4]), (true, false));
        // Two outcomes reached equally often: each keeps its own majority.
        assert_eq!(judged(&rows, 0, 6, [4, 4, 3]), (false, false));
    }

    #[test]
    fn chains_far_apart_fight_apart() {
        // The same playouts, the stones eight points apart: no fight joins
        // them, and each keeps its own majority.
        let rows = ["X....", ".....", ".....", ".....", "....O"];
        assert_eq!(judged(&rows, 0, 24, [5, 3, 4]), (false, false));
    }
}
