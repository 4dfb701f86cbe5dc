//! Bytes to a game record: byte 0 picks the size (1..=13) and, by its high bit,
//! KataGo's territory rules (an encore after two passes, passes for ko there);
//! then each byte pair is a move (a pass when out of range), colours mostly
//! alternating; a final 0xFF byte run adds territory markup.
use sgfaudit::core::board::{BoardSize, Color, Point};
use sgfaudit::core::game::{Event, GameRecord, Markup, MoveKind};
use sgfaudit::core::replay::{ReplayOutcome, Replayer};
use sgfaudit::scoring::recorded::binding_of;

pub fn record(data: &[u8]) -> GameRecord {
    let size = data.first().map_or(9, |b| b % 13 + 1);
    let mut r = GameRecord {
        size: BoardSize::new(size).unwrap_or_default(),
        binding: data
            .first()
            .filter(|b| *b & 0x80 != 0)
            .and_then(|_| binding_of("koSIMPLEscoreTERRITORYtaxSEKIsui0")),
        ..Default::default()
    };
    let mut color = Color::Black;
    let mut i = 1;
    while i + 1 < data.len() {
        let (a, b) = (data[i], data[i + 1]);
        i += 2;
        if a == 0xFF {
            let m = r.markup.get_or_insert_with(Markup::default);
            let p = Point::new(b % size, (b / 16) % size);
            if b & 1 == 0 {
                m.black_territory.push(p)
            } else {
                m.white_territory.push(p)
            }
            continue;
        }
        if a == 0xFE {
            let c = match b % 3 {
                0 => None,
                1 => Some(Color::Black),
                _ => Some(Color::White),
            };
            r.setup.push((Point::new(b % size, (b / 7) % size), c));
            r.events.push(Event::Setup {
                start: r.setup.len() as u32 - 1,
                len: 1,
            });
            continue;
        }
        let kind = if a >= 0xF0 {
            MoveKind::Pass
        } else if a >= 0xE0 {
            MoveKind::OffBoard {
                x: size + (a & 3),
                y: b,
            }
        } else {
            MoveKind::Place(Point::new(a % size, b % size))
        };
        r.events.push(Event::Move { color, kind });
        if b & 0x80 == 0 {
            color = color.opponent();
        }
    }
    r
}

thread_local! {
    // One replayer reused across runs, as the pipeline does (and much faster).
    static REPLAYER: std::cell::RefCell<Replayer> = std::cell::RefCell::new(Replayer::new());
}

/// Replays `record` with this thread's replayer and hands the replayer (its board
/// holds the final position) and the outcome to `check`.
pub fn with_replay<T>(
    record: &GameRecord,
    check: impl FnOnce(&Replayer, &ReplayOutcome) -> T,
) -> T {
    REPLAYER.with(|cell| {
        let mut r = cell.borrow_mut();
        let out = r.replay(record, &Default::default());
        check(&r, &out)
    })
}
