//! The tables of [`super::table`] as Arrow record batches: one typed Arrow
//! column per table column (int64, float64, boolean, utf8; every column
//! nullable). Parquet ([`super::parquet`]) and the Python package build on it.

use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use super::table::{
    divergences, Column, Kind, Value, DIVERGENCE_COLUMNS, FINDING_COLUMNS, GAME_COLUMNS,
};
use crate::audit::{FileInfo, GameReport};

fn data_type(kind: Kind) -> DataType {
    match kind {
        Kind::Int => DataType::Int64,
        Kind::Float => DataType::Float64,
        Kind::Bool => DataType::Boolean,
        Kind::Text => DataType::Utf8,
    }
}

fn schema<F>(columns: &[Column<F>]) -> SchemaRef {
    Arc::new(Schema::new(
        columns
            .iter()
            .map(|c| Field::new(c.name, data_type(c.kind), true))
            .collect::<Vec<_>>(),
    ))
}

/// The games table's Arrow schema.
pub fn games_schema() -> SchemaRef {
    schema(GAME_COLUMNS)
}

/// The findings table's Arrow schema.
pub fn findings_schema() -> SchemaRef {
    schema(FINDING_COLUMNS)
}

/// The divergences table's Arrow schema.
pub fn divergences_schema() -> SchemaRef {
    schema(DIVERGENCE_COLUMNS)
}

enum Builder {
    Int(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    Text(StringBuilder),
}

impl Builder {
    fn new(kind: Kind) -> Builder {
        match kind {
            Kind::Int => Builder::Int(Int64Builder::new()),
            Kind::Float => Builder::Float(Float64Builder::new()),
            Kind::Bool => Builder::Bool(BooleanBuilder::new()),
            Kind::Text => Builder::Text(StringBuilder::new()),
        }
    }

    /// Appends a value; one of another kind than the column's (a bug in a
    /// column definition) is appended as null.
    fn push(&mut self, v: Value) {
        match (self, v) {
            (Builder::Int(b), Value::Int(n)) => b.append_value(n),
            (Builder::Float(b), Value::Float(x)) => b.append_value(x),
            (Builder::Bool(b), Value::Bool(x)) => b.append_value(x),
            (Builder::Text(b), Value::Text(s)) => b.append_value(s),
            (Builder::Int(b), _) => b.append_null(),
            (Builder::Float(b), _) => b.append_null(),
            (Builder::Bool(b), _) => b.append_null(),
            (Builder::Text(b), _) => b.append_null(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Int(b) => Arc::new(b.finish()),
            Builder::Float(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::Text(b) => Arc::new(b.finish()),
        }
    }
}

/// Rows of one table gathered into a record batch.
pub struct BatchBuilder {
    schema: SchemaRef,
    columns: Vec<Builder>,
    rows: usize,
}

impl BatchBuilder {
    fn new<F>(columns: &[Column<F>]) -> BatchBuilder {
        BatchBuilder {
            schema: schema(columns),
            columns: columns.iter().map(|c| Builder::new(c.kind)).collect(),
            rows: 0,
        }
    }

    /// Rows gathered since the last [`BatchBuilder::finish`].
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The rows gathered, as one batch; the builder starts again empty.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        let arrays = self.columns.iter_mut().map(Builder::finish).collect();
        RecordBatch::try_new(self.schema.clone(), arrays)
    }
}

/// The games, findings and divergences tables of games added one by one.
pub struct Tables {
    pub games: BatchBuilder,
    pub findings: BatchBuilder,
    pub divergences: BatchBuilder,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            games: BatchBuilder::new(GAME_COLUMNS),
            findings: BatchBuilder::new(FINDING_COLUMNS),
            divergences: BatchBuilder::new(DIVERGENCE_COLUMNS),
        }
    }
}

impl Tables {
    /// Adds a game's row and its findings' rows.
    pub fn add(&mut self, file: &FileInfo, g: &GameReport) {
        for (c, b) in GAME_COLUMNS.iter().zip(&mut self.games.columns) {
            b.push((c.value)(file, g));
        }
        self.games.rows += 1;
        for f in &g.findings {
            for (c, b) in FINDING_COLUMNS.iter().zip(&mut self.findings.columns) {
                b.push((c.value)(file, g, f));
            }
            self.findings.rows += 1;
        }
        for d in divergences(g) {
            for (c, b) in DIVERGENCE_COLUMNS.iter().zip(&mut self.divergences.columns) {
                b.push((c.value)(file, g, d));
            }
            self.divergences.rows += 1;
        }
    }
}
