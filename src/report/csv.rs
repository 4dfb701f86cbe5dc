//! `--out DIR`: `games.csv`, `findings.csv` and `divergences.csv` (columns in
//! `docs/OUTPUT.md`). Each is written beside itself and renamed when the run
//! completes, so no reader sees half a table, and a run that fails leaves
//! the files as they were ([`Partial`]).
//!
//! The tables are defined once, in [`super::table`]: a header can never
//! drift from its rows, nor CSV from Parquet.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::Path;

use super::destination::Partial;
use super::table::{divergences, Column, DIVERGENCE_COLUMNS, FINDING_COLUMNS, GAME_COLUMNS};
use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};

const GAMES: &str = "games.csv";
const FINDINGS: &str = "findings.csv";
const DIVERGENCES: &str = "divergences.csv";
/// The files it writes into its directory.
pub const FILES: [&str; 3] = [GAMES, FINDINGS, DIVERGENCES];

pub struct CsvReporter {
    games: csv::Writer<BufWriter<File>>,
    findings: csv::Writer<BufWriter<File>>,
    divergences: csv::Writer<BufWriter<File>>,
    /// The three files, renamed into place when the run completes; after
    /// the writers, so a run that fails closes them before removing them.
    partials: Vec<Partial>,
}

/// The error as an I/O error, keeping the kind of one that is (a closed pipe
/// stays `BrokenPipe`, which ends a run quietly).
fn csv_err(e: csv::Error) -> io::Error {
    if e.is_io_error() {
        if let csv::ErrorKind::Io(e) = e.into_kind() {
            return e;
        }
        unreachable!("an I/O error's kind is Io");
    }
    io::Error::other(e)
}

fn header<F>(columns: &[Column<F>]) -> impl Iterator<Item = &'static str> + '_ {
    columns.iter().map(|c| c.name)
}

impl CsvReporter {
    pub fn create(dir: &Path) -> io::Result<CsvReporter> {
        fs::create_dir_all(dir)?;
        let mut partials = Vec::with_capacity(FILES.len());
        let mut open = |name: &str| -> io::Result<csv::Writer<BufWriter<File>>> {
            let (partial, file) = Partial::create(&dir.join(name))?;
            partials.push(partial);
            Ok(csv::Writer::from_writer(BufWriter::new(file)))
        };
        let mut games = open(GAMES)?;
        let mut findings = open(FINDINGS)?;
        let mut divergences = open(DIVERGENCES)?;
        games.write_record(header(GAME_COLUMNS)).map_err(csv_err)?;
        findings
            .write_record(header(FINDING_COLUMNS))
            .map_err(csv_err)?;
        divergences
            .write_record(header(DIVERGENCE_COLUMNS))
            .map_err(csv_err)?;
        Ok(CsvReporter {
            games,
            findings,
            divergences,
            partials,
        })
    }
}

impl Reporter for CsvReporter {
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        let row = GAME_COLUMNS.iter().map(|c| (c.value)(file, g).to_text());
        self.games.write_record(row).map_err(csv_err)?;
        for f in &g.findings {
            let row = FINDING_COLUMNS
                .iter()
                .map(|c| (c.value)(file, g, f).to_text());
            self.findings.write_record(row).map_err(csv_err)?;
        }
        for d in divergences(g) {
            let row = DIVERGENCE_COLUMNS
                .iter()
                .map(|c| (c.value)(file, g, d).to_text());
            self.divergences.write_record(row).map_err(csv_err)?;
        }
        Ok(())
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.games.flush()?;
        self.findings.flush()?;
        self.divergences.flush()?;
        self.partials.iter_mut().try_for_each(Partial::keep)
    }
}

/// `--format csv`: the games table of `games.csv` on any writer (standard
/// output), header first.
pub struct CsvGamesReporter<W: std::io::Write> {
    games: csv::Writer<W>,
    header_written: bool,
}

impl<W: std::io::Write> CsvGamesReporter<W> {
    pub fn new(out: W) -> Self {
        CsvGamesReporter {
            games: csv::Writer::from_writer(out),
            header_written: false,
        }
    }

    fn header(&mut self) -> io::Result<()> {
        if !self.header_written {
            self.header_written = true;
            self.games
                .write_record(header(GAME_COLUMNS))
                .map_err(csv_err)?;
        }
        Ok(())
    }
}

impl<W: std::io::Write> Reporter for CsvGamesReporter<W> {
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        self.header()?;
        let row = GAME_COLUMNS.iter().map(|c| (c.value)(file, g).to_text());
        self.games.write_record(row).map_err(csv_err)
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        self.header()?;
        self.games.flush()
    }
}
