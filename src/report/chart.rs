//! Charts as inline SVG for the HTML report: horizontal bars for counts per
//! category, vertical bars for a distribution. No script; labels escaped.

use std::fmt::Write as _;

use super::diagram::escape;

/// One bar: its label, its value and its fill colour.
pub struct Bar {
    pub label: String,
    pub value: u64,
    pub colour: &'static str,
}

const ROW: u32 = 20;
const LABEL: u32 = 230;
const BARS: u32 = 300;

/// How bar lengths follow values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Linear,
    /// Lengths follow log(1 + value): for counts that span orders of
    /// magnitude, where a linear bar would hide all but the largest.
    Log,
}

impl Scale {
    fn of(self, v: u64) -> f64 {
        match self {
            Scale::Linear => v as f64,
            Scale::Log => (1.0 + v as f64).ln(),
        }
    }
}

/// Bars side by side, one row each, the longest the full width; the value
/// is written after each bar.
pub fn horizontal(title: &str, bars: &[Bar], scale: Scale) -> String {
    let max = scale.of(bars.iter().map(|b| b.value).max().unwrap_or(0).max(1));
    let width = LABEL + BARS + 70;
    let height = ROW * bars.len() as u32 + 8;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\
         <title>{}</title>",
        escape(title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = 4 + ROW * i as u32;
        let w = ((scale.of(b.value) / max) * f64::from(BARS)).round() as u32;
        let w = if b.value > 0 { w.max(1) } else { 0 };
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>\
             <rect x=\"{LABEL}\" y=\"{}\" width=\"{w}\" height=\"{}\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\" dominant-baseline=\"central\">{}</text>",
            LABEL - 6,
            y + ROW / 2,
            escape(&b.label),
            y + 2,
            ROW - 4,
            b.colour,
            LABEL + w + 4,
            y + ROW / 2,
            b.value
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A distribution: one column per bucket, labelled below, its count above.
pub fn columns(title: &str, buckets: &[(String, u64)]) -> String {
    const COL: u32 = 26;
    const TALL: u32 = 120;
    let max = buckets.iter().map(|b| b.1).max().unwrap_or(0).max(1);
    let width = COL * buckets.len() as u32 + 10;
    let height = TALL + 40;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" role=\"img\" font-family=\"sans-serif\" font-size=\"10\">\
         <title>{}</title>",
        escape(title)
    );
    for (i, (label, count)) in buckets.iter().enumerate() {
        let x = 5 + COL * i as u32;
        let h = ((*count as f64 / max as f64) * f64::from(TALL)).round() as u32;
        let h = if *count > 0 { h.max(1) } else { 0 };
        let top = 16 + TALL - h;
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{top}\" width=\"{}\" height=\"{h}\" fill=\"#4a7ab5\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{count}</text>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x + 2,
            COL - 4,
            x + COL / 2,
            top.saturating_sub(3),
            x + COL / 2,
            16 + TALL + 14,
            escape(label)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_and_escape_labels() {
        let svg = horizontal(
            "t",
            &[
                Bar {
                    label: "<b>".into(),
                    value: 10,
                    colour: "#000",
                },
                Bar {
                    label: "half".into(),
                    value: 5,
                    colour: "#000",
                },
            ],
            Scale::Linear,
        );
        assert!(svg.contains(&format!("width=\"{BARS}\"")));
        assert!(svg.contains(&format!("width=\"{}\"", BARS / 2)));
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
    }
}
