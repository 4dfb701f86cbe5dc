//! sgf-parse alone, the floor for any tool built on it: read every `.sgf` file
//! under the given directories, decode it as UTF-8 (lossy), parse it with
//! `sgf_parse::parse`, and walk each game's main line. Prints games and seconds.
//!
//! `cargo run --release --example sgf_parse_only -- DIR...`

use std::time::Instant;

/// The same allocator as the `sgfaudit` binary, so the ratio measures the work
/// after parsing, not a difference of allocators.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    let files: Vec<Vec<u8>> = sgfaudit::input::Walk::new(dirs)
        .filter_map(|i| i.read(sgfaudit::input::DEFAULT_MAX_FILE_SIZE).ok())
        .collect();
    let start = Instant::now();
    let (mut games, mut nodes, mut failed) = (0u64, 0u64, 0u64);
    for bytes in &files {
        let text = String::from_utf8_lossy(bytes);
        match sgf_parse::parse(&text) {
            Ok(trees) => {
                for t in trees {
                    games += 1;
                    if let Ok(root) = t.as_go_node() {
                        nodes += root.main_variation().count() as u64;
                    }
                    // Teardown without recursion, as sgfaudit does.
                    if let sgf_parse::GameTree::GoGame(n) = t {
                        sgfaudit::sgf::convert::dismantle(n);
                    }
                }
            }
            Err(_) => failed += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "sgf-parse parse-only: {} files ({} failed to parse), {games} games, {nodes} main-line nodes, {secs:.3} s, {:.0} games/s",
        files.len(),
        failed,
        games as f64 / secs
    );
}
