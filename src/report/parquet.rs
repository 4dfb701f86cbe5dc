//! `--out DIR --parquet`: `games.parquet`, `findings.parquet` and
//! `divergences.parquet`, the
//! tables of [`super::table`] with typed columns, Snappy-compressed. Rows
//! are handed to the writer in batches of [`BATCH_ROWS`] and row groups are
//! closed every [`ROW_GROUP_ROWS`] rows, so memory stays bounded whatever
//! the archive's size. Written under temporary names and renamed when the
//! run completes, like the CSV tables.

use std::fs::{self, File};
use std::io;
use std::path::Path;

use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::arrow::{divergences_schema, findings_schema, games_schema, BatchBuilder, Tables};
use super::destination::Partial;
use super::{Reporter, Summary};
use crate::audit::{FileInfo, GameReport};

const GAMES: &str = "games.parquet";
const FINDINGS: &str = "findings.parquet";
const DIVERGENCES: &str = "divergences.parquet";
/// The files it writes into its directory.
pub const FILES: [&str; 3] = [GAMES, FINDINGS, DIVERGENCES];
/// Rows gathered before they are handed to the writer.
pub const BATCH_ROWS: usize = 8192;
/// Rows per row group.
pub const ROW_GROUP_ROWS: usize = 65_536;

pub struct ParquetReporter {
    tables: Tables,
    games: ArrowWriter<File>,
    findings: ArrowWriter<File>,
    divergences: ArrowWriter<File>,
    /// The three files, renamed into place when the run completes; after
    /// the writers, so a run that fails closes them before removing them.
    partials: Vec<Partial>,
}

fn pq_err(e: impl std::error::Error + Send + Sync + 'static) -> io::Error {
    io::Error::other(e)
}

impl ParquetReporter {
    pub fn create(dir: &Path) -> io::Result<ParquetReporter> {
        fs::create_dir_all(dir)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_size(ROW_GROUP_ROWS)
            .set_created_by(format!("sgfaudit {}", env!("CARGO_PKG_VERSION")))
            .build();
        let mut partials = Vec::with_capacity(FILES.len());
        let mut open = |name: &str, schema| -> io::Result<ArrowWriter<File>> {
            let (partial, file) = Partial::create(&dir.join(name))?;
            partials.push(partial);
            ArrowWriter::try_new(file, schema, Some(props.clone())).map_err(pq_err)
        };
        let games = open(GAMES, games_schema())?;
        let findings = open(FINDINGS, findings_schema())?;
        let divergences = open(DIVERGENCES, divergences_schema())?;
        Ok(ParquetReporter {
            tables: Tables::default(),
            games,
            findings,
            divergences,
            partials,
        })
    }
}

fn flush(rows: &mut BatchBuilder, writer: &mut ArrowWriter<File>, at: usize) -> io::Result<()> {
    if rows.rows() >= at.max(1) {
        let batch = rows.finish().map_err(pq_err)?;
        writer.write(&batch).map_err(pq_err)?;
    }
    Ok(())
}

impl Reporter for ParquetReporter {
    fn game(&mut self, file: &FileInfo, g: &GameReport) -> io::Result<()> {
        self.tables.add(file, g);
        flush(&mut self.tables.games, &mut self.games, BATCH_ROWS)?;
        flush(&mut self.tables.findings, &mut self.findings, BATCH_ROWS)?;
        flush(
            &mut self.tables.divergences,
            &mut self.divergences,
            BATCH_ROWS,
        )
    }

    fn finish(&mut self, _summary: &Summary) -> io::Result<()> {
        flush(&mut self.tables.games, &mut self.games, 1)?;
        flush(&mut self.tables.findings, &mut self.findings, 1)?;
        flush(&mut self.tables.divergences, &mut self.divergences, 1)?;
        self.games.finish().map_err(pq_err)?;
        self.findings.finish().map_err(pq_err)?;
        self.divergences.finish().map_err(pq_err)?;
        self.partials.iter_mut().try_for_each(Partial::keep)
    }
}
