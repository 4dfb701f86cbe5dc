//! `--out DIR`: `games.csv`, `findings.csv` and `divergences.csv` (columns in
//! `docs/OUTPUT.md`). All are written under temporary names and renamed when the run completes, so an
//! interrupted run never leaves a half-written report that looks complete.
//!
//! The tables are defined once, in [`super::table`]: a header can never
//! drift from its rows, nor CSV from Parquet.

use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use super::table::{divergences, Column, DIVERGENCE_COLUMNS, FINDING_COLUMNS, GAME_COLUMNS};
use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};

const GAMES: &str = "games.csv";
const FINDINGS: &str = "findings.csv";
const DIVERGENCES: &str = "divergences.csv";
/// The files it writes into its directory.
pub const FILES: [&str; 3] = [GAMES, FINDINGS, DIVERGENCES];

pub struct CsvReporter {
    dir: PathBuf,
    games: csv::Writer<BufWriter<File>>,
    findings: csv::Writer<BufWriter<File>>,
    divergences: csv::Writer<BufWriter<File>>,
}

fn partial(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.partial"))
}

fn csv_err(e: csv::Error) -> io::Error {
    io::Error::other(e)
}

fn header<F>(columns: &[Column<F>]) -> impl Iterator<Item = &'static str> + '_ {
    columns.iter().map(|c| c.name)
}

impl CsvReporter {
    pub fn create(dir: &Path) -> io::Result<CsvReporter> {
        fs::create_dir_all(dir)?;
        let open = |name: &str| -> io::Result<csv::Writer<BufWriter<File>>> {
            Ok(csv::Writer::from_writer(BufWriter::new(File::create(
                partial(dir, name),
            )?)))
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
            dir: dir.to_path_buf(),
            games,
            findings,
            divergences,
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
        for name in [GAMES, FINDINGS, DIVERGENCES] {
            fs::rename(partial(&self.dir, name), self.dir.join(name))?;
        }
        Ok(())
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
