//! Board diagrams as SVG: stones, the move played, dead stones, territory,
//! seki eyes and points to fill. One self-contained `<svg>` element, no
//! script, no external resource; every text from a record is escaped.

use std::fmt::Write as _;

use crate::core::board::{Color, Point, Snapshot};
use crate::scoring::Scored;

/// What a diagram shows on a point besides its stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The point about to be played (an empty point).
    Next,
    /// The stone just played.
    Played,
    /// A dead stone (crossed).
    Dead,
    /// Territory of this colour (a small square).
    Territory(Color),
    /// An eye in seki: no territory under Japanese rule 8.
    SekiEye,
    /// A point that must be filled: no territory under Japanese rule 8.
    Fill,
    /// A stone that still stands, numbered with the move that played it.
    Numbered(u32),
    /// A point whose stone the move just played removed.
    Captured,
}

/// The final position's mark on `p` as the Japanese count sees it: dead
/// stones, territory, and the points rule 8 leaves out (seki eyes, points
/// to fill).
pub fn japanese_mark(s: &Scored, board: &Snapshot, p: Point) -> Option<Mark> {
    if s.dead.black.contains(&p) || s.dead.white.contains(&p) {
        return Some(Mark::Dead);
    }
    if board.get(p).is_some() {
        return None;
    }
    if s.position.seki_eye_points.contains(&p) {
        return Some(Mark::SekiEye);
    }
    if s.position.fill_points.contains(&p) {
        return Some(Mark::Fill);
    }
    territory_mark(s, board, p)
}

/// The final position's mark on `p` as area counting sees it: dead stones
/// and every point surrounded by one colour, seki eyes and points to fill
/// included.
pub fn area_mark(s: &Scored, board: &Snapshot, p: Point) -> Option<Mark> {
    if s.dead.black.contains(&p) || s.dead.white.contains(&p) {
        return Some(Mark::Dead);
    }
    if board.get(p).is_some() {
        return None;
    }
    territory_mark(s, board, p)
}

fn territory_mark(s: &Scored, board: &Snapshot, p: Point) -> Option<Mark> {
    let n = usize::from(board.size());
    match s
        .position
        .owner
        .get(usize::from(p.y) * n + usize::from(p.x))
    {
        Some(Some(c)) => Some(Mark::Territory(*c)),
        _ => None,
    }
}

/// Columns as Go diagrams letter them: no I.
pub const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

const CELL: u32 = 24;

/// Text safe inside XML content and attribute values (SVG, HTML, JUnit XML).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // XML 1.0 admits no other control characters, nor U+FFFE and U+FFFF.
            c if c.is_control() && !matches!(c, '\n' | '\t') => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// [`escape`] for an XML attribute value, where a line feed or a tab would
/// be read back as a space (XML 1.0, 3.3.3: attribute-value normalization):
/// they are written as character references, which keep them.
pub fn escape_attribute(s: &str) -> String {
    escape(s).replace('\n', "&#10;").replace('\t', "&#9;")
}

fn star_points(n: u8) -> Vec<u8> {
    match n {
        19 => vec![3, 9, 15],
        13 => vec![3, 6, 9],
        9 => vec![2, 4, 6],
        n if n >= 7 => vec![2, n / 2, n - 3],
        _ => Vec::new(),
    }
}

/// The board as an SVG diagram titled `title`, with `mark` on each point.
pub fn svg(board: &Snapshot, title: &str, mark: impl Fn(Point) -> Option<Mark>) -> String {
    let n = u32::from(board.size());
    // A margin of one and a half cells holds the coordinates clear of the
    // stones on the edge.
    let margin = CELL * 3 / 2;
    let side = 2 * margin + CELL * n.saturating_sub(1);
    let at = |i: u32| margin + CELL * i;
    let last = at(n.saturating_sub(1));
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         width=\"{side}\" height=\"{side}\" role=\"img\" font-family=\"sans-serif\" \
         font-size=\"10\">\n<title>{}</title>\n\
         <rect width=\"{side}\" height=\"{side}\" fill=\"#dcb35c\"/>\n",
        escape(title)
    );
    for i in 0..n {
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>\
             <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>",
            at(0),
            at(i),
            last,
            at(i),
            at(i),
            at(0),
            at(i),
            last
        );
        let letter = COLUMNS.get(i as usize).copied().unwrap_or(b'?') as char;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" dominant-baseline=\"middle\">{letter}</text>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" dominant-baseline=\"middle\">{}</text>",
            at(i),
            margin / 3,
            margin / 3,
            at(i),
            n - i
        );
    }
    for &x in &star_points(board.size()) {
        for &y in &star_points(board.size()) {
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\"/>",
                at(u32::from(x)),
                at(u32::from(y))
            );
        }
    }
    for y in 0..board.size() {
        for x in 0..board.size() {
            let p = Point::new(x, y);
            let centre = (at(u32::from(x)), at(u32::from(y)));
            draw_point(&mut s, centre, board.get(p), mark(p));
        }
    }
    s.push_str("</svg>\n");
    s
}

/// One point: its stone, then its mark (in the opposite colour on a stone).
fn draw_point(s: &mut String, (cx, cy): (u32, u32), stone: Option<Color>, mark: Option<Mark>) {
    let r = CELL / 2 - 1;
    if let Some(c) = stone {
        let (fill, stroke) = match c {
            Color::Black => ("#000", "#000"),
            Color::White => ("#fff", "#000"),
        };
        let _ = writeln!(
            s,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{fill}\" stroke=\"{stroke}\"/>"
        );
    }
    // Marks drawn on a stone take the opposite colour to show.
    let ink = match stone {
        Some(Color::Black) => "#fff",
        _ => "#000",
    };
    match mark {
        None => {}
        Some(Mark::Next) => {
            let _ = writeln!(
                s,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"#c00\" stroke-width=\"2\"/>",
                r / 2
            );
        }
        Some(Mark::Played) => {
            let _ = writeln!(
                s,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"2\"/>",
                r / 2
            );
        }
        Some(Mark::Dead) => {
            let d = r / 2;
            let _ = writeln!(
                s,
                "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#c00\" stroke-width=\"2\"/>",
                cx - d,
                cy - d,
                cx + d,
                cy + d,
                cx - d,
                cy + d,
                cx + d,
                cy - d
            );
        }
        Some(Mark::Territory(c)) => {
            let fill = if c == Color::Black { "#000" } else { "#fff" };
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"8\" height=\"8\" fill=\"{fill}\" stroke=\"#000\"/>",
                cx - 4,
                cy - 4
            );
        }
        Some(Mark::Numbered(k)) => {
            let size = if k >= 100 { 9 } else { 11 };
            let _ = writeln!(
                s,
                "<text x=\"{cx}\" y=\"{cy}\" text-anchor=\"middle\" dominant-baseline=\"central\" \
                 font-size=\"{size}\" fill=\"{ink}\">{k}</text>"
            );
        }
        Some(Mark::Captured) => {
            let d = r / 2;
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#c00\" stroke-width=\"2\"/>",
                cx - d,
                cy - d,
                2 * d,
                2 * d
            );
        }
        Some(Mark::SekiEye) | Some(Mark::Fill) => {
            let letter = if mark == Some(Mark::SekiEye) {
                's'
            } else {
                'f'
            };
            let _ = writeln!(
                s,
                "<text x=\"{cx}\" y=\"{cy}\" text-anchor=\"middle\" dominant-baseline=\"middle\" \
                 font-size=\"14\" fill=\"#c00\">{letter}</text>"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_attribute};

    #[test]
    fn record_text_cannot_open_markup() {
        assert_eq!(
            escape("<script>alert('x')</script>&\u{1}"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;\u{FFFD}"
        );
    }

    /// What XML 1.0 cannot hold becomes U+FFFD; line feeds, tabs and other
    /// text stay.
    #[test]
    fn text_xml_cannot_hold_is_replaced() {
        assert_eq!(escape("a\"b\nc\td"), "a&quot;b\nc\td");
        assert_eq!(escape_attribute("a\"b\nc\td"), "a&quot;b&#10;c&#9;d");
        assert_eq!(
            escape("nul\0 cr\r \u{FFFE}\u{FFFF}"),
            "nul\u{FFFD} cr\u{FFFD} \u{FFFD}\u{FFFD}"
        );
        assert_eq!(escape("棋譜"), "棋譜");
    }
}
