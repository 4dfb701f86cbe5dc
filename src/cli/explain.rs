//! `sgfaudit explain FILE [--game N] [--move M]`: one game in the terminal.
//! With `--move`, the position before and after that move and the verdict of
//! each ruleset with the rule it rests on; without, the final position of a
//! scored game with its dead stones and territory, each counting side by
//! side, the result checks and why the countings differ. Plain text (no
//! colour), so it reads the same in a pipe and with NO_COLOR.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use sgfaudit::audit::{audit_bytes, Status};
use sgfaudit::core::board::{Board, Color, Point};
use sgfaudit::core::findings::Finding;
use sgfaudit::core::game::{Event, GameRecord, KomiReading};
use sgfaudit::core::replay::{Replayer, Verdicts};
use sgfaudit::core::rules::{source_rule, RuleOptions, Ruleset};
use sgfaudit::duplicates::Duplicates;
use sgfaudit::report::diagram::{self, Mark, COLUMNS};
use sgfaudit::report::printable;
use sgfaudit::scoring::recorded::binding_of;
use sgfaudit::scoring::Scoring;

use super::args::ExplainArgs;
use super::usage_error;

/// Whether to colour the output: standard output is a terminal and
/// `NO_COLOR` (https://no-color.org) is unset or empty.
static COLOUR: AtomicBool = AtomicBool::new(false);

#[derive(Clone, Copy)]
enum Ink {
    Red,
    Green,
}

/// `text` in `ink` when colour is on, as it is otherwise.
fn paint(text: &str, ink: Ink) -> String {
    if !COLOUR.load(Ordering::Relaxed) {
        return text.to_string();
    }
    let code = match ink {
        Ink::Red => "1;31",
        Ink::Green => "32",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

fn verdict_word(matches: bool) -> String {
    if matches {
        paint("match", Ink::Green)
    } else {
        paint("mismatch", Ink::Red)
    }
}

pub fn run(args: ExplainArgs) -> ExitCode {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    COLOUR.store(io::stdout().is_terminal() && !no_color, Ordering::Relaxed);
    let opts = args.audit.audit_options(false);
    let item = sgfaudit::input::named(&args.file, opts.max_file_size);
    // The file as reports name it.
    let file = item.name.clone();
    let bytes = match item.read(opts.max_file_size) {
        Ok(b) => b,
        Err(e) => return usage_error(&format!("{file}: {e}")),
    };
    let mut report = audit_bytes(&file, &bytes, &opts, &mut Replayer::new());
    // The games of a collection repeated within it (A508, A509), as `check`
    // finds them when it reads this file alone.
    let mut duplicates = Duplicates::default();
    for g in &mut report.games {
        g.check_duplicates(&file, &mut duplicates);
    }
    let Some(game) = report.games.get(args.game) else {
        return usage_error(&format!(
            "{file}: no game {} (the file holds {}; games count from 0)",
            args.game,
            report.games.len()
        ));
    };
    if let Status::Error(e) = &game.status {
        return usage_error(&format!("{file} game {}: {e}", args.game));
    }
    // The findings as `check` reports them: `--select`, `--ignore` and
    // `--severity`, with the configuration's overrides for this path.
    let selection = args.selection();
    let game = selection.apply(game);
    let collection = sgfaudit::sgf::read_in(bytes, opts.charset);
    let Some(mut record) = collection.parse_game(args.game).and_then(|g| g.record) else {
        return usage_error("the game has no record");
    };
    record.binding = game.info.rules.as_deref().and_then(binding_of);
    let svg = Svg {
        path: args.svg.as_deref(),
        title: format!("{file} game {}", args.game),
    };
    let mut out = io::stdout().lock();
    let written = match args.r#move {
        Some(m) => explain_move(
            &mut out,
            &record,
            &opts.rules,
            m,
            &game.verdicts,
            &game.findings,
            &svg,
        ),
        None => explain_end(
            &mut out,
            &record,
            &opts.rules,
            &game.scoring,
            game.moves,
            &svg,
        )
        .and_then(|ok| list_findings(&mut out, &game.findings).map(|()| ok)),
    };
    match written {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        // A closed pipe (`| head`) is not an error; a diagram that cannot be
        // written is.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            say!("sgfaudit: {}", printable(&e.to_string()));
            ExitCode::from(2)
        }
    }
}

fn board_after(record: &GameRecord, rules: &RuleOptions) -> Box<Board> {
    let mut rp = Replayer::new();
    rp.replay(record, rules);
    Box::new(rp.board().clone())
}

/// A board as text, A-T without I, row numbers from the bottom; `mark`
/// chooses the character of each point (`None`: the stone or an empty point).
fn draw(
    out: &mut impl Write,
    board: &Board,
    mark: impl Fn(Point) -> Option<Mark>,
) -> io::Result<()> {
    let n = board.size();
    let letters: String = (0..n)
        .map(|x| {
            let c = COLUMNS.get(usize::from(x)).copied().unwrap_or(b'?') as char;
            format!(" {c}")
        })
        .collect();
    writeln!(out, "   {letters}")?;
    for y in 0..n {
        write!(out, "{:>3}", n - y)?;
        for x in 0..n {
            let p = Point::new(x, y);
            let stone = board.get(p);
            let c = match (mark(p), stone) {
                (Some(Mark::Next), _) => '+',
                (Some(Mark::Played), Some(Color::Black)) => '◆',
                (Some(Mark::Played), Some(Color::White)) => '◇',
                (Some(Mark::Dead), Some(Color::Black)) => '⊗',
                (Some(Mark::Dead), Some(Color::White)) => '⊘',
                (Some(Mark::Territory(Color::Black)), _) => '+',
                (Some(Mark::Territory(Color::White)), _) => '-',
                (Some(Mark::SekiEye), _) => 's',
                (Some(Mark::Fill), _) => 'f',
                (_, Some(Color::Black)) => '●',
                (_, Some(Color::White)) => '○',
                (_, None) => '·',
            };
            let marked = matches!(
                mark(p),
                Some(Mark::Next | Mark::Played | Mark::Dead | Mark::SekiEye | Mark::Fill)
            );
            if marked {
                write!(out, " {}", paint(&c.to_string(), Ink::Red))?;
            } else {
                write!(out, " {c}")?;
            }
        }
        writeln!(out, " {}", n - y)?;
    }
    writeln!(out, "   {letters}")
}

/// Writes `board` as an SVG diagram to `path`, when one was asked for.
fn write_svg(
    path: Option<&Path>,
    board: &Board,
    title: &str,
    mark: impl Fn(Point) -> Option<Mark>,
) -> io::Result<()> {
    let Some(path) = path else { return Ok(()) };
    std::fs::write(path, diagram::svg(&board.snapshot(), title, mark))
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
}

/// Where `--svg` writes its diagram, and the title it gives it.
struct Svg<'a> {
    path: Option<&'a Path>,
    title: String,
}

fn explain_move(
    out: &mut impl Write,
    record: &GameRecord,
    rules: &RuleOptions,
    m: u32,
    verdicts: &Verdicts,
    findings: &[Finding],
    svg: &Svg,
) -> io::Result<bool> {
    let Some((before, after)) = record.around_move(m) else {
        let n = record.move_count();
        say!("sgfaudit: the record has no move {m} (it has {n}; moves count from 1, passes too)");
        return Ok(false);
    };
    let Some(Event::Move { color, kind }) = after.events.last().copied() else {
        return Ok(false);
    };
    let size = record.size.get();
    let at = match kind {
        sgfaudit::core::game::MoveKind::Place(p) => Some(p),
        _ => None,
    };
    let what = match at {
        Some(p) => format!("{} {} ({})", color.letter(), p.human(size), p.sgf()),
        None => format!("{} {kind:?}", color.letter()),
    };
    writeln!(out, "move {m}: {what}")?;
    writeln!(out, "\nbefore:")?;
    let b = board_after(&before, rules);
    draw(out, &b, |p| (Some(p) == at).then_some(Mark::Next))?;
    writeln!(out, "\nafter (the move marked ◆ for Black, ◇ for White):")?;
    let a = board_after(&after, rules);
    let played = |p| (Some(p) == at && a.get(p).is_some()).then_some(Mark::Played);
    draw(out, &a, played)?;
    let title = format!("{}, after move {m}: {what}", svg.title);
    write_svg(svg.path, &a, &title, played)?;
    writeln!(out, "\nverdicts:")?;
    let here: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.move_number == Some(m))
        .collect();
    // The verdicts come from the replay, which always judges every move under
    // every ruleset; the severity is the one the findings are reported with.
    for r in Ruleset::ALL {
        let against: Vec<String> = verdicts
            .get(r)
            .illegal
            .iter()
            .filter(|i| i.move_number == m)
            .map(|i| {
                let kind = i.kind.key();
                let severity = here
                    .iter()
                    .find(|f| f.rulesets.contains(r) && f.code.name() == kind)
                    .map_or("not reported: the selection (--select, --ignore, the configuration) leaves it out", |f| {
                        f.severity.as_str()
                    });
                format!("{kind} ({}; {severity})", source_rule(r, i.kind))
            })
            .collect();
        let verdict = if against.is_empty() {
            paint("legal", Ink::Green)
        } else {
            paint(&against.join(", "), Ink::Red)
        };
        writeln!(out, "  {:<9} {verdict}", r.key())?;
    }
    for f in here {
        writeln!(
            out,
            "  {} {}: {}",
            f.code.id(),
            f.code.name(),
            printable(&f.message)
        )?;
    }
    Ok(true)
}

/// How many findings `explain` lists before it counts the rest per code: a
/// record that replays a ko cycle thousands of times would bury the board.
const FINDINGS_SHOWN: usize = 100;

/// The game's findings, one per line (the first [`FINDINGS_SHOWN`], then the
/// rest counted per code), with the move to pass to `--move` for a closer look
/// and the line:column where the finding stands in the file, when it has one.
fn list_findings(out: &mut impl Write, findings: &[Finding]) -> io::Result<()> {
    if findings.is_empty() {
        return writeln!(out, "\nfindings: none");
    }
    writeln!(out, "\nfindings:")?;
    for f in findings.iter().take(FINDINGS_SHOWN) {
        let at = f
            .move_number
            .map(|m| format!("move {m}"))
            .unwrap_or_default();
        let place = f
            .location
            .map(|l| format!("{}:{}", l.line, l.column))
            .unwrap_or_default();
        writeln!(
            out,
            "  {} {:<8} {:<9} {:<9} {}",
            f.code.id(),
            f.severity.as_str(),
            at,
            place,
            printable(&f.message)
        )?;
    }
    if let Some(rest) = findings.get(FINDINGS_SHOWN..).filter(|r| !r.is_empty()) {
        let mut per_code: BTreeMap<&str, usize> = BTreeMap::new();
        for f in rest {
            *per_code.entry(f.code.id()).or_default() += 1;
        }
        let counts: Vec<String> = per_code.iter().map(|(c, n)| format!("{c} {n}")).collect();
        writeln!(
            out,
            "  ... and {} more ({}); `sgfaudit check FILE --format jsonl` lists every one",
            rest.len(),
            counts.join(", ")
        )?;
    }
    if findings.iter().any(|f| f.move_number.is_some()) {
        writeln!(out, "(--move N shows the position around move N)")?;
    }
    Ok(())
}

fn explain_end(
    out: &mut impl Write,
    record: &GameRecord,
    rules: &RuleOptions,
    scoring: &Scoring,
    moves: u32,
    svg: &Svg,
) -> io::Result<bool> {
    let Scoring::Scored(s) = scoring else {
        if let Scoring::NotScored(why) = scoring {
            writeln!(out, "not scored: {}", why.reason())?;
        }
        let b = board_after(record, rules);
        writeln!(out, "\nthe last position ({moves} moves):")?;
        draw(out, &b, |_| None)?;
        let title = format!("{}, the last position ({moves} moves)", svg.title);
        write_svg(svg.path, &b, &title, |_| None)?;
        return Ok(true);
    };
    let b = board_after(record, rules);
    writeln!(
        out,
        "final position ({moves} moves); dead stones ({}): ⊗ Black, ⊘ White; Japanese territory: \
         + Black, - White; s seki eye, f point to fill (no territory under Japanese rule 8)",
        s.dead.source.key()
    )?;
    let snap = b.snapshot();
    draw(out, &b, |p| diagram::japanese_mark(s, &snap, p))?;
    let title = format!(
        "{}, the final position ({moves} moves): dead stones crossed, Japanese territory as squares, s seki eye, f point to fill",
        svg.title
    );
    write_svg(svg.path, &b, &title, |p| {
        diagram::japanese_mark(s, &snap, p)
    })?;
    let size = record.size.get();
    let lists = [
        (
            "in doubt (the estimate could not settle them; the counts rest on a coin flip there)",
            &s.dead.uncertain,
        ),
        (
            "left standing by the markup, dead under Japanese rule 7 (not counted dead)",
            &s.dead.added_by_rule7,
        ),
    ];
    for (label, stones) in lists.iter().filter(|(_, v)| !v.is_empty()) {
        let names: Vec<String> = stones.iter().map(|p| p.human(size)).collect();
        writeln!(out, "{label}: {}", names.join(" "))?;
    }
    writeln!(out, "\ncounts:")?;
    for (c, sc) in s.scores.iter() {
        writeln!(
            out,
            "  {:<9} {:<9} B {:>6} W {:>6}  komi {:<5} {}",
            c.key(),
            sc.method.key(),
            sc.black.points,
            sc.white.points,
            sc.komi,
            sc.result()
        )?;
    }
    if let Some(written) = record.komi_as_written {
        let read = record
            .komi
            .map_or("no KM, each counting's own komi".to_string(), |k| {
                format!("{k} points")
            });
        let why = match KomiReading::of(written, record.komi) {
            KomiReading::Scaled => "Fox writes KM x100",
            KomiReading::ScaledStones => "Fox writes KM x100, here in stones of two points",
            KomiReading::Stones => {
                "in stones of two points: a quarter point cannot be a komi in points"
            }
            KomiReading::Unwritten => "Fox writes 0 for its standard komi in an even game",
        };
        writeln!(
            out,
            "  komi: KM[{written}] as written, read as {read} ({why})"
        )?;
    }
    if let Some(c) = &s.result_check {
        writeln!(out, "\nresult check: RE[{}]", printable(&c.recorded))?;
        if let (Some(r), Some(computed)) = (c.declared_name, &c.computed) {
            writeln!(
                out,
                "  the {r} count gives {computed}: {}",
                verdict_word(c.matches)
            )?;
        }
        if let (Some(m), Some(ok)) = (&c.markup_computed, c.markup_matches) {
            writeln!(
                out,
                "  the record's own count gives {m}: {}",
                verdict_word(ok)
            )?;
        }
        let matching: Vec<&str> = c.matching.iter().map(|c| c.key()).collect();
        writeln!(
            out,
            "  countings that give RE: {}",
            if matching.is_empty() {
                "none".into()
            } else {
                matching.join(", ")
            }
        )?;
        if let Some(r) = c.reading {
            writeln!(
                out,
                "  the common reading that gives RE: {} (C609)",
                r.key()
            )?;
        }
    }
    if !s.divergence.is_empty() {
        writeln!(
            out,
            "\nwhy the countings differ (margin difference = sum of causes):"
        )?;
        for d in &s.divergence {
            let causes: Vec<String> = d.causes.iter().map(|(k, v)| format!("{k} {v:+}")).collect();
            writeln!(
                out,
                "  {} - {}: {:+} = {}{}",
                d.between[0].key(),
                d.between[1].key(),
                d.margin_difference,
                causes.join(" "),
                if d.winner_changes {
                    "  (the winner changes)"
                } else {
                    ""
                }
            )?;
        }
    }
    Ok(true)
}
