//! `--out DIR --parquet`: `games.parquet`, `findings.parquet` and
//! `divergences.parquet`, the
//! tables of [`super::table`] with typed columns, Snappy-compressed. Rows
//! are handed to the writer in batches of [`BATCH_ROWS`] and row groups are
//! closed every [`ROW_GROUP_ROWS`] rows, so memory stays bounded whatever
//! the archive's size. Written under temporary names and renamed when the
//! run completes, like the CSV tables.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::arrow::{divergences_schema, findings_schema, games_schema, BatchBuilder, Tables};
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
    dir: PathBuf,
    tables: Tables,
    games: ArrowWriter<File>,
    findings: ArrowWriter<File>,
    divergences: ArrowWriter<File>,
}

fn partial(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.partial"))
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
        let open = |name: &str, schema| -> io::Result<ArrowWriter<File>> {
            let file = File::create(partial(dir, name))?;
            ArrowWriter::try_new(file, schema, Some(props.clone())).map_err(pq_err)
        };
        Ok(ParquetReporter {
            dir: dir.to_path_buf(),
            tables: Tables::default(),
            games: open(GAMES, games_schema())?,
            findings: open(FINDINGS, findings_schema())?,
            divergences: open(DIVERGENCES, divergences_schema())?,
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
        for name in [GAMES, FINDINGS, DIVERGENCES] {
            fs::rename(partial(&self.dir, name), self.dir.join(name))?;
        }
        Ok(())
    }
}
