//! sgfaudit: audit archives of Go game records.
pub mod audit;
pub mod board;
pub mod findings;
pub mod game;
pub mod input;
pub mod pipeline;
pub mod replay;
pub mod report;
pub mod rules;
pub mod sgf;
