//! Japanese rules 7-10 applied to a final position the way a Japanese count
//! applies them: the neutral points are filled first, then the points a player
//! must fill to keep a string out of atari are no territory, and the eye points
//! of stones in seki are no territory (rule 8 and its commentary O, P, Q).
//!
//! The settlement is a thought experiment on the position with the dead stones
//! removed; it never changes which stones are dead (the players' agreement). It
//! plays, in order:
//!
//! 1. **Neutral points that connect.** A neutral point (dame: an empty point whose
//!    region borders both colours) next to two strings of one colour, and of one
//!    colour only, is filled by that colour when the fill is safe: a player
//!    fills the dame that joins its own strings.
//! 2. **The other neutral points**, by a colour with a stone beside it whose
//!    fill is safe. A fill is safe when the filling string keeps two liberties,
//!    it captures nothing (living stones are not captured), and it does not
//!    leave an opponent string in atari whose last liberty is an eye the
//!    opponent cannot fill without self-atari: that string is alive by the
//!    players' agreement, so a fill that would kill it is no neutral fill but
//!    the shared liberty of a seki. The fills that leave an opponent string in
//!    atari come first: each forces the opponent to connect inside its own
//!    area, and players fill such dame before the others. Made after another
//!    fill beside the same string, a forcing fill can be self-atari, so which
//!    came first would otherwise depend on where the two points lie on the
//!    board, and the count on how the record's board was turned.
//! 3. **Points to fill.** After every fill, a string left in atari whose last
//!    liberty its owner can fill, keeping two liberties, is protected there.
//!    Such a point in the owner's territory is no territory (rule 8: it is not
//!    surrounded by living stones once the string beside it needs it).
//!
//! What no side can fill safely at the end, beside both colours, is a seki
//! liberty. So is the last liberty of a string left in atari on its own eye,
//! which its owner cannot fill: that point is no eye of living stones but a
//! shared liberty, as the ko points of a double-ko seki are (commentary P). The
//! strings beside a seki liberty are in seki (rule 8: "living stones that
//! possess dame"); a territory point beside a stone in seki is an eye point of
//! stones in seki and no territory ("eye points surrounded by living stones not
//! in seki are territory"). Seki belongs to those strings only, not to the
//! living groups their eyes also touch.

use crate::core::board::Color;
use crate::core::grid::{Flood, Grid, Liberties};

/// How a fill of an empty point by one colour would end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    Safe,
    /// The filling string would keep fewer than two liberties.
    SelfAtari,
    /// It would capture stones the players agreed are alive.
    Captures,
    /// It would leave an opponent string in atari on an eye its owner cannot
    /// fill: a seki liberty.
    Kills,
}

/// [`Sim::state`] of the position being settled.
const SETTLING: u64 = 1;

/// A placeholder for a string not yet counted.
const NO_LIBERTIES: Liberties = Liberties {
    count: 0,
    first: 0,
    second: 0,
    id: 0,
};

/// What the settlement decided for one final position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Settlement {
    /// Territory points (of the original regions) their owner must fill.
    pub to_fill: Vec<usize>,
    /// Territory points beside a stone in seki.
    pub seki_eyes: Vec<usize>,
}

/// The position being settled, with the flood fill its questions need.
struct Sim<'a> {
    grid: Grid,
    /// The territory owner of each point in the original position (`None` for
    /// stones, dame and regions that touch no stone).
    owner: &'a [Option<Color>],
    flood: Flood,
    /// Which position the board holds. The position being settled is
    /// [`SETTLING`], also after the stones placed for good ([`Sim::keep`]
    /// marks the counts of the strings they touch as stale); a stone placed
    /// only to judge it makes a new one, and taking it back returns to the
    /// one before.
    state: u64,
    next_state: u64,
    /// Per point: a string's liberties and the position they were counted
    /// in. The same strings are asked about again and again while the
    /// neutral points around them are judged.
    known: Vec<(u64, Liberties)>,
    /// Per string identity ([`Liberties::id`]): its count in [`SETTLING`]
    /// no longer holds, a stone was kept beside it.
    stale: Vec<bool>,
}

impl Sim<'_> {
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        self.grid.neighbours(i)
    }

    fn cell(&self, i: usize) -> Option<Color> {
        self.grid.cells[i]
    }

    /// Places a stone of `c` at `i` to judge it: [`Sim::take_back`] removes it.
    fn try_place(&mut self, i: usize, c: Color) {
        self.grid.cells[i] = Some(c);
        self.state = self.next_state;
        self.next_state += 1;
    }

    /// Places a stone of `c` at `p` for good (it captures nothing). Only
    /// the strings beside `p` change: their counts are marked stale (counted
    /// again when next asked for), and what was counted of the others holds.
    fn keep(&mut self, p: usize, c: Color) {
        debug_assert_eq!(self.state, SETTLING, "no stone is kept on a trial");
        self.grid.cells[p] = Some(c);
        for q in self.beside(p) {
            if q != usize::MAX && self.cell(q).is_some() {
                let (state, l) = self.known[q];
                if state == SETTLING {
                    self.stale[l.id] = true;
                }
            }
        }
    }

    /// The points beside `p`, padded with `usize::MAX`.
    fn beside(&self, p: usize) -> [usize; 4] {
        let mut out = [usize::MAX; 4];
        for (slot, q) in out.iter_mut().zip(self.grid.neighbours(p)) {
            *slot = q;
        }
        out
    }

    /// Takes back the stone at `i` placed since position `before`: the board
    /// holds that position again.
    fn take_back(&mut self, i: usize, before: u64) {
        self.grid.cells[i] = None;
        self.state = before;
    }

    /// The liberties of the string at `start` (a stone), up to three; its
    /// stones are left in `self.flood.string`.
    fn libs(&mut self, start: usize) -> Liberties {
        let l = self.flood.liberties(&self.grid, start);
        if self.state == SETTLING {
            self.stale[l.id] = false;
        }
        for &i in &self.flood.string {
            self.known[i] = (self.state, l);
        }
        l
    }

    /// [`Sim::libs`] when its stones are not needed: counted once per string
    /// and position.
    fn known_libs(&mut self, start: usize) -> Liberties {
        match self.known[start] {
            (state, l) if state == self.state && !(state == SETTLING && self.stale[l.id]) => l,
            _ => self.libs(start),
        }
    }

    /// The distinct strings of `c` beside point `p` (up to four).
    fn strings_beside(&mut self, p: usize, c: Color) -> ([Liberties; 4], usize) {
        let mut found = [NO_LIBERTIES; 4];
        let mut k = 0;
        for q in self.beside(p) {
            if q == usize::MAX || self.cell(q) != Some(c) {
                continue;
            }
            let l = self.known_libs(q);
            if !found[..k].iter().any(|f| f.id == l.id) {
                found[k] = l;
                k += 1;
            }
        }
        (found, k)
    }

    /// Judges a fill of the empty point `p` by `c` (the board is left as it was).
    fn fill(&mut self, p: usize, c: Color) -> Fill {
        // Two empty points beside `p` and no opponent stone: the filling
        // string keeps two liberties and touches no string it could capture
        // or put in atari. Most fills are so, and need no count.
        let mut empty = 0;
        let mut opponent = false;
        for q in self.neighbours(p) {
            match self.cell(q) {
                None => empty += 1,
                Some(x) => opponent |= x != c,
            }
        }
        if empty >= 2 && !opponent {
            return Fill::Safe;
        }
        // The rest is judged from the strings beside `p` as they stand: a
        // stone at `p` takes the liberty `p` from each of them.
        let opp = c.opponent();
        let (theirs, k) = self.strings_beside(p, opp);
        if theirs[..k].iter().any(|l| l.count == 1) {
            return Fill::Captures;
        }
        if self.liberties_after(p, c) < 2 {
            return Fill::SelfAtari;
        }
        for l in &theirs[..k] {
            if l.count != 2 {
                continue;
            }
            let t = if l.first == p { l.second } else { l.first };
            if self.owner[t] == Some(opp) {
                // The opponent's only answer is to fill its own eye.
                let before = self.state;
                self.try_place(p, c);
                let saved = self.keeps_two_liberties(t, opp);
                self.take_back(p, before);
                if !saved {
                    return Fill::Kills;
                }
            }
        }
        Fill::Safe
    }

    /// The liberties, up to two, of the string a stone of `c` at the empty
    /// point `p` would make: the empty points beside `p` and the other
    /// liberties of the strings of `c` it joins.
    fn liberties_after(&mut self, p: usize, c: Color) -> u8 {
        let mut found = [usize::MAX; 2];
        let mut n = 0;
        let add = |x: usize, found: &mut [usize; 2], n: &mut usize| {
            if x != p && !found[..*n].contains(&x) {
                found[*n] = x;
                *n += 1;
            }
            *n >= 2
        };
        for q in self.beside(p) {
            if q == usize::MAX {
                continue;
            }
            match self.cell(q) {
                None => {
                    if add(q, &mut found, &mut n) {
                        return 2;
                    }
                }
                Some(x) if x == c => {
                    let l = self.known_libs(q);
                    if l.count >= 3 {
                        return 2;
                    }
                    for lib in [l.first, l.second].into_iter().take(usize::from(l.count)) {
                        if add(lib, &mut found, &mut n) {
                            return 2;
                        }
                    }
                }
                Some(_) => {}
            }
        }
        n as u8
    }

    /// The strings of `c` left in atari are protected where their owner can:
    /// the last liberty is filled when that leaves two liberties and captures
    /// nothing. Territory points filled so are recorded in `to_fill`.
    fn protect(&mut self, c: Color, to_fill: &mut Vec<usize>) {
        let points = self.grid.cells.len();
        'again: loop {
            for q in 0..points {
                if self.cell(q) != Some(c) {
                    continue;
                }
                // Each string once, at its smallest point (met first).
                let l = self.known_libs(q);
                if l.id != q || l.count != 1 {
                    continue;
                }
                if self.protect_at(l.first, c, to_fill) {
                    continue 'again;
                }
            }
            return;
        }
    }

    /// [`Sim::protect`] after a fill at `p`: only the strings of `c` beside `p`
    /// lost a liberty, so only they can be newly in atari (liberties never come
    /// back, so a string that could not be protected before still cannot).
    fn protect_beside(&mut self, c: Color, p: usize, to_fill: &mut Vec<usize>) {
        let (strings, k) = self.strings_beside(p, c);
        let mut ids: Vec<usize> = strings[..k]
            .iter()
            .filter(|l| l.count == 1)
            .map(|l| l.id)
            .collect();
        ids.sort_unstable();
        for id in ids {
            let l = self.known_libs(id);
            if l.count != 1 {
                continue;
            }
            self.protect_at(l.first, c, to_fill);
        }
    }

    /// Places a stone of `c` at `t`, the last liberty of a string of `c`,
    /// when the string then has two liberties or more and nothing is
    /// captured (a territory point filled so is recorded in `to_fill`).
    /// Whether it was placed.
    fn protect_at(&mut self, t: usize, c: Color, to_fill: &mut Vec<usize>) -> bool {
        if !self.keeps_two_liberties(t, c) {
            return false;
        }
        self.keep(t, c);
        if self.owner[t].is_some() {
            to_fill.push(t);
        }
        true
    }

    /// Whether a stone of `c` at the empty point `t` would leave its string
    /// two liberties or more and capture nothing (no string of the opponent
    /// beside `t` has `t` as its last liberty).
    fn keeps_two_liberties(&mut self, t: usize, c: Color) -> bool {
        let (theirs, k) = self.strings_beside(t, c.opponent());
        !theirs[..k].iter().any(|x| x.count == 1) && self.liberties_after(t, c) >= 2
    }

    /// Whether a stone of `c` at `p` would leave a string of the opponent's
    /// beside it in atari.
    fn forces(&mut self, p: usize, c: Color) -> bool {
        let (theirs, k) = self.strings_beside(p, c.opponent());
        theirs[..k].iter().any(|l| l.count == 2)
    }

    /// How many stones of `c` are beside `p`.
    fn stones_beside(&self, p: usize, c: Color) -> usize {
        self.neighbours(p)
            .filter(|&q| self.cell(q) == Some(c))
            .count()
    }

    fn colours_beside(&self, p: usize) -> [bool; 2] {
        let mut beside = [false; 2];
        for q in self.neighbours(p) {
            if let Some(c) = self.cell(q) {
                beside[c.index()] = true;
            }
        }
        beside
    }
}

/// Settles a final position (dead stones removed) whose empty points belong
/// to `owner` (the colour of a region bordered by one colour only) or are
/// neutral (`dame`: bordered by both).
pub(crate) fn settle(grid: &Grid, owner: &[Option<Color>], dame: &[bool]) -> Settlement {
    let points = grid.cells.len();
    let mut sim = Sim {
        grid: grid.clone(),
        owner,
        flood: Flood::new(points),
        state: SETTLING,
        next_state: SETTLING + 1,
        known: vec![(0, NO_LIBERTIES); points],
        stale: vec![false; points],
    };
    let order: Vec<usize> = (0..points).filter(|&i| dame[i]).collect();
    let mut to_fill = Vec::new();
    const COLOURS: [Color; 2] = [Color::Black, Color::White];

    // Strings already in atari are protected where they can be.
    for c in COLOURS {
        sim.protect(c, &mut to_fill);
    }
    // 1. Neutral points that join two strings of one colour only.
    let mut changed = true;
    while changed {
        changed = false;
        for &p in &order {
            if sim.cell(p).is_some() {
                continue;
            }
            let mut wanted = None;
            let mut wanting = 0;
            for c in COLOURS {
                // Two strings beside `p` need two stones beside it, which
                // are counted before the strings are.
                if sim.stones_beside(p, c) >= 2
                    && sim.strings_beside(p, c).1 >= 2
                    && sim.fill(p, c) == Fill::Safe
                {
                    wanted = Some(c);
                    wanting += 1;
                }
            }
            if let (Some(c), 1) = (wanted, wanting) {
                sim.keep(p, c);
                changed = true;
                sim.protect_beside(c.opponent(), p, &mut to_fill);
            }
        }
    }
    // 2. The other neutral points, by a colour beside them that fills
    // safely: first those whose fill leaves an opponent string in atari (its
    // owner must then protect it inside its own area), then the rest.
    for forcing_only in [true, false] {
        changed = true;
        while changed {
            changed = false;
            for &p in &order {
                if sim.cell(p).is_some() {
                    continue;
                }
                let beside = sim.colours_beside(p);
                for c in COLOURS {
                    if beside[c.index()]
                        && (!forcing_only || sim.forces(p, c))
                        && sim.fill(p, c) == Fill::Safe
                    {
                        sim.keep(p, c);
                        changed = true;
                        sim.protect_beside(c.opponent(), p, &mut to_fill);
                        break;
                    }
                }
            }
        }
    }
    // 3. Whatever is still in atari is protected where it can be.
    for c in COLOURS {
        sim.protect(c, &mut to_fill);
    }

    // Seki: the unfilled neutral points beside both colours that neither can
    // fill, and the strings beside them or in atari on their own eye.
    let mut seki = vec![false; points];
    let mark_string = |sim: &mut Sim, start: usize, seki: &mut Vec<bool>| {
        sim.libs(start);
        for &i in &sim.flood.string {
            seki[i] = true;
        }
    };
    for &p in &order {
        if sim.cell(p).is_some() || sim.colours_beside(p) != [true, true] {
            continue;
        }
        let unfillable = COLOURS
            .iter()
            .all(|&c| matches!(sim.fill(p, c), Fill::SelfAtari | Fill::Kills));
        if unfillable {
            let beside: Vec<usize> = sim.neighbours(p).collect();
            for q in beside {
                if sim.cell(q).is_some() && !seki[q] {
                    mark_string(&mut sim, q, &mut seki);
                }
            }
        }
    }
    // A string left in atari on its own eye cannot be saved: its eye is no
    // eye point but the liberty of a seki, as the ko points of a double-ko seki
    // are (commentary P), and every string beside that point is in seki.
    for q in 0..points {
        let Some(c) = sim.cell(q) else { continue };
        let l = sim.known_libs(q);
        if l.id != q {
            continue; // a string is judged at its smallest point
        }
        if l.count == 1 && sim.owner[l.first] == Some(c) {
            mark_string(&mut sim, q, &mut seki);
            let beside: Vec<usize> = sim.neighbours(l.first).collect();
            for r in beside {
                if sim.cell(r).is_some() {
                    mark_string(&mut sim, r, &mut seki);
                }
            }
        }
    }

    let filled = |i: usize| to_fill.contains(&i);
    let seki_eyes = (0..points)
        .filter(|&i| owner[i].is_some() && !filled(i))
        .filter(|&i| sim.neighbours(i).any(|q| seki[q]))
        .collect();
    to_fill.sort_unstable();
    Settlement { to_fill, seki_eyes }
}
