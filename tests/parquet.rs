//! `--out DIR --parquet`: games.parquet, findings.parquet and
//! divergences.parquet hold the very rows of the CSVs of the same names,
//! cell for cell, with typed columns.
//! (The Python tests read the same files with DuckDB and pyarrow.)
#![cfg(feature = "parquet")]

mod common;

use std::fs::File;
use std::path::Path;
use std::process::Command;

use arrow_array::{Array, BooleanArray, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use common::{root, scratch};

/// A Parquet file's rows, each cell written as CSV writes it.
fn parquet_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>, Vec<DataType>) {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut header = Vec::new();
    let mut types = Vec::new();
    let mut rows = Vec::new();
    for batch in reader {
        let batch: RecordBatch = batch.unwrap();
        if header.is_empty() {
            for f in batch.schema().fields() {
                header.push(f.name().clone());
                types.push(f.data_type().clone());
            }
        }
        for r in 0..batch.num_rows() {
            let row = batch
                .columns()
                .iter()
                .map(|c| {
                    if c.is_null(r) {
                        return String::new();
                    }
                    let any = c.as_any();
                    if let Some(a) = any.downcast_ref::<Int64Array>() {
                        a.value(r).to_string()
                    } else if let Some(a) = any.downcast_ref::<Float64Array>() {
                        a.value(r).to_string()
                    } else if let Some(a) = any.downcast_ref::<BooleanArray>() {
                        a.value(r).to_string()
                    } else if let Some(a) = any.downcast_ref::<StringArray>() {
                        a.value(r).to_string()
                    } else {
                        panic!("unexpected column type {:?}", c.data_type())
                    }
                })
                .collect();
            rows.push(row);
        }
    }
    (header, rows, types)
}

fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

#[test]
fn parquet_tables_hold_the_csv_rows_with_types() {
    let dir = scratch("parquet");
    let status = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(root())
        .args(["check", "corpus/", "-q", "--parquet", "--out"])
        .arg(&dir)
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(1));
    for table in ["games", "findings", "divergences"] {
        let (ph, prows, types) = parquet_rows(&dir.join(format!("{table}.parquet")));
        let (ch, crows) = csv_rows(&dir.join(format!("{table}.csv")));
        assert_eq!(ph, ch, "{table}: columns");
        assert!(!crows.is_empty());
        assert_eq!(prows.len(), crows.len(), "{table}: rows");
        for (i, (p, c)) in prows.iter().zip(&crows).enumerate() {
            assert_eq!(p, c, "{table} row {i}");
        }
        let type_of = |name: &str| &types[ph.iter().position(|h| h == name).unwrap()];
        if table == "games" {
            assert_eq!(type_of("moves"), &DataType::Int64);
            assert_eq!(type_of("komi"), &DataType::Float64);
            assert_eq!(type_of("check_match"), &DataType::Boolean);
            assert_eq!(type_of("result"), &DataType::Utf8);
        }
    }
    assert!(!dir.join(".games.parquet.partial").exists());
}

#[test]
fn parquet_needs_out() {
    let out = Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(root())
        .args(["check", "corpus/rules", "-q", "--parquet"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out"));
}

/// The games table names each ruleset's first illegal move: in
/// `ko-immediate.sgf` White retakes the ko at once with move 10 (the
/// record's comment says so), illegal under all three rulesets.
#[test]
fn the_games_table_names_the_first_illegal_move() {
    let dir = scratch("first-illegal");
    Command::new(env!("CARGO_BIN_EXE_sgfaudit"))
        .current_dir(root())
        .args(["check", "corpus/rules/ko-immediate.sgf", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let (header, rows) = csv_rows(&dir.join("games.csv"));
    let col = |name: &str| rows[0][header.iter().position(|h| h == name).unwrap()].clone();
    for r in ["aga", "japanese", "swedish"] {
        assert_eq!(col(&format!("{r}_first_illegal_move")), "10", "{r}");
        assert_eq!(col(&format!("{r}_first_illegal_kind")), "ko", "{r}");
    }
}
