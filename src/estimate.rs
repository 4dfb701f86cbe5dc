//! Dead-stone estimation for finished games without territory markup.
//! Deterministic (no randomness, no network, no model files) and never consults
//! the recorded result.
//!
//! 1. **Benson's algorithm** finds the chains of each colour that are alive even if
//!    their owner always passes (pass-alive); they are never dead.
//! 2. **Enclosure:** for each colour C, every maximal connected set of points not
//!    occupied by C is an area C encloses. The opponent's stones in such an area
//!    are dead unless, inside it, they make two eyes (empty regions bordered by
//!    their stones only), or an eyespace roomy enough to make them, or include a
//!    pass-alive chain. At the end of a game, an opponent's living area is full of
//!    its own eyes and territory; stones left in C's territory have none.

use crate::board::{Board, Color, Point};
use crate::position::{Position, NONE};

/// Eyespace (own points) from which a group is taken to live.
const ROOMY_EYESPACE: u32 = 6;

impl Position {
    /// Chain id per point (NONE for empty) and the colour of each chain.
    fn chains(&self) -> (Vec<u32>, Vec<Color>) {
        let mut id = vec![NONE; self.cells.len()];
        let mut colors = Vec::new();
        let mut stack = Vec::new();
        for s in 0..self.cells.len() {
            let Some(c) = self.cells[s] else { continue };
            if id[s] != NONE {
                continue;
            }
            let k = colors.len() as u32;
            colors.push(c);
            id[s] = k;
            stack.push(s);
            while let Some(i) = stack.pop() {
                for j in self.neighbours(i) {
                    if self.cells[j] == Some(c) && id[j] == NONE {
                        id[j] = k;
                        stack.push(j);
                    }
                }
            }
        }
        (id, colors)
    }
}

/// Benson's algorithm: which chains of colour `c` are pass-alive. Regions (maximal
/// connected sets of points not occupied by `c`) and which of them are vital to
/// which chain (every empty point of the region is a liberty of the chain) are
/// computed once; then chains with fewer than two healthy vital regions, and the
/// regions they border, are struck off until nothing changes.
fn benson(p: &Position, chain: &[u32], colors: &[Color], c: Color) -> Vec<bool> {
    let size = p.cells.len();
    let mut region = vec![NONE; size];
    let mut borders: Vec<Vec<u32>> = Vec::new(); // chains of colour c next to each region
    let mut vital: Vec<Vec<u32>> = Vec::new(); // chains each region is vital to
    let mut count = vec![0u32; colors.len()]; // per chain: empty points of this region it touches
    let mut stamp = vec![NONE; colors.len()];
    let mut pts = Vec::new();
    for s in 0..size {
        if p.cells[s] == Some(c) || region[s] != NONE {
            continue;
        }
        let r = borders.len() as u32;
        pts.clear();
        pts.push(s);
        region[s] = r;
        let mut q = 0;
        while q < pts.len() {
            let i = pts[q];
            q += 1;
            for j in p.neighbours(i) {
                if p.cells[j] != Some(c) && region[j] == NONE {
                    region[j] = r;
                    pts.push(j);
                }
            }
        }
        let mut border: Vec<u32> = Vec::new();
        let mut empties = 0u32;
        for &i in &pts {
            let empty = p.cells[i].is_none();
            empties += u32::from(empty);
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
                if empty {
                    count[ch as usize] += 1;
                }
            }
        }
        let v = border
            .iter()
            .copied()
            .filter(|&ch| empties > 0 && count[ch as usize] == empties)
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

/// Estimates the dead stones of a final position: (dead black, dead white).
pub fn dead_stones(board: &Board) -> (Vec<Point>, Vec<Point>) {
    let p = Position::from_board(board);
    let (chain, colors) = p.chains();
    let mut pass_alive = vec![false; colors.len()];
    for c in [Color::Black, Color::White] {
        for (k, a) in benson(&p, &chain, &colors, c).into_iter().enumerate() {
            if a && colors[k] == c {
                pass_alive[k] = true;
            }
        }
    }
    // Areas enclosed by either colour that hold opponent stones, decided from the
    // smallest up: stones found dead in a small area (an opponent's territory) are
    // empty points when the larger areas around them are judged.
    let mut areas = enclosed_areas(&p, Color::Black);
    areas.extend(enclosed_areas(&p, Color::White));
    areas.sort_by_key(|a| (a.points.len(), a.points[0]));
    let mut dead = vec![false; p.cells.len()];
    for area in &areas {
        judge_area(&p, &chain, &pass_alive, area, &mut dead);
    }
    let (mut db, mut dw) = (Vec::new(), Vec::new());
    for (i, &d) in dead.iter().enumerate() {
        if !d {
            continue;
        }
        let pt = p.point(i);
        match p.cells[i] {
            Some(Color::Black) => db.push(pt),
            Some(Color::White) => dw.push(pt),
            None => {}
        }
    }
    (db, dw)
}

/// A one-point eye at `e` is false when the enemy `c` holds too many of its
/// diagonal points: two in the centre, one on the edge or in the corner.
fn false_eye(p: &Position, e: usize, c: Color, dead: &[bool]) -> bool {
    let n = p.n as i32;
    let (x, y) = ((e % p.n) as i32, (e / p.n) as i32);
    let mut enemy = 0;
    let mut off_board = 0;
    for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
        let (a, b) = (x + dx, y + dy);
        if a < 0 || b < 0 || a >= n || b >= n {
            off_board += 1;
            continue;
        }
        let j = (b * n + a) as usize;
        if p.cells[j] == Some(c) && !dead[j] {
            enemy += 1;
        }
    }
    if off_board > 0 {
        enemy >= 1
    } else {
        enemy >= 2
    }
}

/// A maximal connected set of points not occupied by `by`, holding stones of the
/// other colour.
struct Area {
    by: Color,
    points: Vec<usize>,
}

fn enclosed_areas(p: &Position, by: Color) -> Vec<Area> {
    let size = p.cells.len();
    let mut seen = vec![false; size];
    let mut out = Vec::new();
    for s in 0..size {
        if p.cells[s] == Some(by) || seen[s] {
            continue;
        }
        let mut pts = vec![s];
        seen[s] = true;
        let mut q = 0;
        while q < pts.len() {
            let i = pts[q];
            q += 1;
            for j in p.neighbours(i) {
                if p.cells[j] != Some(by) && !seen[j] {
                    seen[j] = true;
                    pts.push(j);
                }
            }
        }
        if pts.iter().any(|&i| p.cells[i] == Some(by.opponent())) {
            out.push(Area { by, points: pts });
        }
    }
    out
}

/// The opponent's stones in an area enclosed by `area.by` are dead unless, inside
/// it, they make two eyes (regions of empty points or dead stones bordered by their
/// living stones only), or an eyespace roomy enough to make them, or hold a
/// pass-alive chain; or unless the enclosing stones are themselves dead.
fn judge_area(p: &Position, chain: &[u32], pass_alive: &[bool], area: &Area, dead: &mut [bool]) {
    let c = area.by;
    let opp = c.opponent();
    let mut mark = vec![0u8; p.cells.len()]; // 1: in the area, 2: in an eye region seen
    for &i in &area.points {
        mark[i] = 1;
    }
    // The enclosure must be alive.
    for &i in &area.points {
        for j in p.neighbours(i) {
            if p.cells[j] == Some(c) && dead[j] {
                return;
            }
        }
    }
    let empty = |i: usize, dead: &[bool]| p.cells[i].is_none() || dead[i];
    let (mut eyes, mut eyespace) = (0u32, 0u32);
    for &i in &area.points {
        if p.cells[i] == Some(opp) && !dead[i] && pass_alive[chain[i] as usize] {
            return;
        }
        if !empty(i, dead) || mark[i] == 2 {
            continue;
        }
        let mut region = vec![i];
        mark[i] = 2;
        let (mut touches_c, mut touches_opp) = (false, false);
        let mut k = 0;
        while k < region.len() {
            let a = region[k];
            k += 1;
            for b in p.neighbours(a) {
                if empty(b, dead) {
                    if mark[b] == 1 {
                        mark[b] = 2;
                        region.push(b);
                    }
                } else if p.cells[b] == Some(c) {
                    touches_c = true;
                } else {
                    touches_opp = true;
                }
            }
        }
        if touches_opp && !touches_c && !(region.len() == 1 && false_eye(p, region[0], c, dead)) {
            eyes += 1;
            eyespace += region.len() as u32;
        }
    }
    if eyes >= 2 || eyespace >= ROOMY_EYESPACE {
        return;
    }
    for &i in &area.points {
        if p.cells[i] == Some(opp) {
            dead[i] = true;
        }
    }
}
