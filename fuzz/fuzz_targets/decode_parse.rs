//! Any bytes: decode, scan, parse every game, convert, and place findings
//! in the text (moves, setup and repeated properties, root properties).
//! Must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::core::game::Event;
use sgfaudit::sgf::Place;

fuzz_target!(|data: &[u8]| {
    let c = sgfaudit::sgf::read(data.to_vec());
    let _ = c.file_findings();
    for i in 0..c.game_count() {
        let moves = c.parse_game(i).and_then(|g| g.record).map_or(0, |r| {
            r.events
                .iter()
                .filter(|e| matches!(e, Event::Move { .. }))
                .count() as u32
        });
        let wanted = [
            Place::Move(1),
            Place::Move(moves),
            Place::Setup(0),
            Place::Setup(1),
            Place::Repeated(0),
            Place::Repeated(moves),
        ];
        let _ = c.places(i, moves, &wanted);
        let _ = c.root_property_location(i, "RE");
    }
});
