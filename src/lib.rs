//! sgfaudit: audit archives of Go game records (SGF).
//!
//! ```text
//!  paths ──► input::Walk ──► pipeline (rayon, batches, input order)
//!             (files, dirs, archive: zip/tar entries)
//!                               │  per file
//!                               ▼
//!            audit::audit_bytes ─► sgf::read   (decode ► scan ► split collection)
//!                               ─► sgf::Collection::parse_game   (sgf-parse ► convert)
//!                               ─► replay::Replayer::replay      (ONE replay, three verdicts)
//!                               │
//!                               ▼
//!            report::{text, jsonl, csv}  (behind report::Reporter, in input order)
//! ```
//!
//! The core — [`core::board`], [`core::rules`], [`core::game`], [`core::replay`], [`core::findings`] — knows
//! nothing of files, SGF text or output formats. [`sgf`] turns bytes into
//! [`core::game::GameRecord`]s and never fails; [`audit`] joins the two for one file
//! and isolates panics per game; [`input`], [`input::archive`] and [`pipeline`] know
//! the file system, archives and threads; only [`report`] knows JSON and CSV. See `ARCHITECTURE.md`.
//!
//! ```
//! use sgfaudit::audit::{audit_bytes, AuditOptions};
//! use sgfaudit::core::replay::Replayer;
//! use sgfaudit::core::rules::Ruleset;
//!
//! let sgf = b"(;SZ[9];B[ee];W[ee])";
//! let report = audit_bytes("demo.sgf", sgf, &AuditOptions::default(), &mut Replayer::new());
//! let aga = &report.games[0].verdicts.aga;
//! assert_eq!(aga.illegal[0].kind.key(), "occupied");
//! ```
pub mod audit;
mod budget;
pub mod core;
pub mod dead_stones;
pub mod duplicates;
mod faults;
pub mod input;
pub mod options;
pub mod pictures;
pub mod pipeline;
pub mod report;
pub mod scoring;
pub mod sgf;
