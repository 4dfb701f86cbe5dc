//! Any bytes: decode, scan, parse every game, convert, and place findings
//! in the text (moves, setup and repeated properties, root properties,
//! each game's tree, the last checked against a count char by char).
//! Must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sgfaudit::core::game::Event;
use sgfaudit::sgf::Place;

fuzz_target!(|data: &[u8]| {
    let c = sgfaudit::sgf::read(data.to_vec());
    let _ = c.file_findings();
    let _ = c.no_game_reason();
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
        // The game's place, against lines and columns counted char by char
        // (a line ends at CR LF, a lone CR or LF).
        let at = c.tree_location(i).expect("a game has a tree");
        let start = c.scan.tree(i).expect("a game has a tree").start;
        let before = c.decoded.text[..start]
            .replace("\r\n", "\n")
            .replace('\r', "\n");
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        assert_eq!((at.line as usize, at.column as usize), (line, column));
    }
});
