//! `sgfaudit explain FILE [--game N] [--move M]`: one game in the terminal.
//! With `--move`, the position before and after that move and the verdict of
//! each ruleset with the rule it rests on; without, the final position of a
//! scored game with its dead stones and territory, each counting side by
//! side, the result checks and why the countings differ. Plain text (no
//! colour), so it reads the same in a pipe and with NO_COLOR.

use std::io::{self, Write};
use std::process::ExitCode;

use sgfaudit::audit::{audit_bytes, AuditOptions, Status};
use sgfaudit::core::board::{Board, Color, Point};
use sgfaudit::core::findings::Finding;
use sgfaudit::core::game::{Event, GameRecord};
use sgfaudit::core::replay::Replayer;
use sgfaudit::core::rules::{source_rule, Ruleset};
use sgfaudit::input::{Item, Source, DEFAULT_MAX_FILE_SIZE};
use sgfaudit::scoring::recorded::{parse_rules, DeclaredRules};
use sgfaudit::scoring::{Scored, Scoring};

use super::args::ExplainArgs;
use super::usage_error;

pub fn run(args: ExplainArgs) -> ExitCode {
    let item = Item {
        name: args.file.clone(),
        source: Source::File(args.file.clone().into()),
    };
    let bytes = match item.read(DEFAULT_MAX_FILE_SIZE) {
        Ok(b) => b,
        Err(e) => return usage_error(&format!("{}: {e}", args.file)),
    };
    let opts = AuditOptions::default();
    let report = audit_bytes(&args.file, &bytes, &opts, &mut Replayer::new());
    let Some(game) = report.games.get(args.game) else {
        return usage_error(&format!(
            "{}: no game {} (the file holds {}; games count from 0)",
            args.file,
            args.game,
            report.games.len()
        ));
    };
    if let Status::Error(e) = &game.status {
        return usage_error(&format!("{} game {}: {e}", args.file, args.game));
    }
    let collection = sgfaudit::sgf::read(bytes);
    let Some(mut record) = collection.parse_game(args.game).and_then(|g| g.record) else {
        return usage_error("the game has no record");
    };
    record.binding = game
        .info
        .rules
        .as_deref()
        .and_then(parse_rules)
        .map(DeclaredRules::binding);
    let mut out = io::stdout().lock();
    let written = match args.r#move {
        Some(m) => explain_move(&mut out, &record, m, &game.findings),
        None => explain_end(&mut out, &record, &game.scoring, game.moves)
            .and_then(|ok| list_findings(&mut out, &game.findings).map(|()| ok)),
    };
    match written {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(_) => ExitCode::SUCCESS, // a closed pipe is not an error
    }
}

/// The record up to (and with) its `n`-th move; `None` when it has fewer.
/// The record cut at its `n`-th move (from 1): the events before it and
/// the events up to and including it, or `None` when it has fewer moves.
fn around_move(record: &GameRecord, n: u32) -> Option<(GameRecord, GameRecord)> {
    let at = record
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::Move { .. }))
        .nth(n.checked_sub(1)? as usize)?
        .0;
    let cut = |end: usize| {
        let mut r = record.clone();
        r.events.truncate(end);
        r.markup = None;
        r
    };
    Some((cut(at), cut(at + 1)))
}

fn board_after(record: &GameRecord) -> Box<Board> {
    let mut rp = Replayer::new();
    rp.replay(record, &Default::default());
    Box::new(rp.board().clone())
}

const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A board as text, A-T without I, row numbers from the bottom; `mark`
/// chooses the character of each point (`None`: the stone or an empty point).
fn draw(
    out: &mut impl Write,
    board: &Board,
    mark: impl Fn(Point) -> Option<char>,
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
            let c = mark(p).unwrap_or(match board.get(p) {
                Some(Color::Black) => '●',
                Some(Color::White) => '○',
                None => '·',
            });
            write!(out, " {c}")?;
        }
        writeln!(out, " {}", n - y)?;
    }
    writeln!(out, "   {letters}")
}

fn explain_move(
    out: &mut impl Write,
    record: &GameRecord,
    m: u32,
    findings: &[Finding],
) -> io::Result<bool> {
    let Some((before, after)) = around_move(record, m) else {
        eprintln!("sgfaudit: the record has no move {m} (moves count from 1)");
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
    let b = board_after(&before);
    draw(out, &b, |p| (Some(p) == at).then_some('+'))?;
    writeln!(out, "\nafter (the move marked ◆ for Black, ◇ for White):")?;
    let a = board_after(&after);
    let marker = if color == Color::Black { '◆' } else { '◇' };
    draw(out, &a, |p| {
        (Some(p) == at && a.get(p).is_some()).then_some(marker)
    })?;
    writeln!(out, "\nverdicts:")?;
    let here: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.move_number == Some(m))
        .collect();
    for r in Ruleset::ALL {
        let against: Vec<String> = here
            .iter()
            .filter(|f| f.rulesets.contains(r) && f.code.id().starts_with('R'))
            .map(|f| {
                let kind = f.code.name();
                let rule = sgfaudit::core::rules::IllegalKind::ALL
                    .iter()
                    .find(|k| k.key() == kind)
                    .map(|k| source_rule(r, *k))
                    .unwrap_or("");
                format!("{kind} ({rule}; {})", f.severity.as_str())
            })
            .collect();
        let verdict = if against.is_empty() {
            "legal".to_string()
        } else {
            against.join(", ")
        };
        writeln!(out, "  {:<9} {verdict}", r.key())?;
    }
    for f in here {
        writeln!(out, "  {} {}: {}", f.code.id(), f.code.name(), f.message)?;
    }
    Ok(true)
}

/// Every finding of the game, one per line, with the move to pass to
/// `--move` for a closer look.
fn list_findings(out: &mut impl Write, findings: &[Finding]) -> io::Result<()> {
    if findings.is_empty() {
        return writeln!(out, "\nfindings: none");
    }
    writeln!(out, "\nfindings:")?;
    for f in findings {
        let at = f
            .move_number
            .map(|m| format!("move {m}"))
            .unwrap_or_default();
        writeln!(
            out,
            "  {} {:<8} {:<9} {}",
            f.code.id(),
            f.severity.as_str(),
            at,
            f.message
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
    scoring: &Scoring,
    moves: u32,
) -> io::Result<bool> {
    let Scoring::Scored(s) = scoring else {
        if let Scoring::NotScored(why) = scoring {
            writeln!(out, "not scored: {}", why.reason())?;
        }
        let b = board_after(record);
        writeln!(out, "\nthe last position ({moves} moves):")?;
        draw(out, &b, |_| None)?;
        return Ok(true);
    };
    let b = board_after(record);
    writeln!(
        out,
        "final position ({moves} moves); dead stones ({}): ⊗ Black, ⊘ White; Japanese territory: \
         + Black, - White; s seki eye, f point to fill (no territory under Japanese rule 8)",
        s.dead.source.key()
    )?;
    draw(out, &b, |p| final_mark(s, &b, p))?;
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
    if let Some(c) = &s.result_check {
        writeln!(out, "\nresult check: RE[{}]", c.recorded)?;
        if let (Some(r), Some(computed)) = (c.declared, &c.computed) {
            writeln!(
                out,
                "  the {} count gives {computed}: {}",
                r.key(),
                if c.matches { "match" } else { "mismatch" }
            )?;
        }
        if let (Some(m), Some(ok)) = (&c.markup_computed, c.markup_matches) {
            writeln!(
                out,
                "  the record's own count gives {m}: {}",
                if ok { "match" } else { "mismatch" }
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

fn final_mark(s: &Scored, board: &Board, p: Point) -> Option<char> {
    if s.dead.black.contains(&p) {
        return Some('⊗');
    }
    if s.dead.white.contains(&p) {
        return Some('⊘');
    }
    if board.get(p).is_some() {
        return None;
    }
    if s.position.seki_eye_points.contains(&p) {
        return Some('s');
    }
    if s.position.fill_points.contains(&p) {
        return Some('f');
    }
    let n = usize::from(board.size());
    match s
        .position
        .owner
        .get(usize::from(p.y) * n + usize::from(p.x))
    {
        Some(Some(Color::Black)) => Some('+'),
        Some(Some(Color::White)) => Some('-'),
        _ => None,
    }
}
