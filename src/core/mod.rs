//! The core: what a game of Go is and what the rules say about each move.
//! Pure: no files, no SGF text, no output format, no serialization.
//!
//! - [`board`]: the incremental board the replay plays on;
//! - [`rules`]: the three rulesets as data and judgement functions;
//! - [`game`]: the game record the replay reads;
//! - [`replay`]: one replay of a record, three verdicts;
//! - [`findings`]: the finding codes and severities every stage reports with;
//! - [`grid`]: a plain grid of one position, with the flood fills the
//!   once-per-game analyses (scoring, dead stones) share.

pub mod board;
pub mod findings;
pub mod game;
pub mod grid;
pub mod replay;
pub mod rules;
