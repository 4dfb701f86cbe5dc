"""Audit SGF files with PySpark, into Parquet.

    python examples/spark_audit.py INPUT_DIR OUTPUT_DIR [--master local[2]]
        [--table games|findings|divergences]

Reads every *.sgf (or, with --glob, every archive of them) under INPUT_DIR
with Spark's binaryFile source, audits
each Arrow batch with sgfaudit.map_in_arrow, and writes the games table (or
the one --table names) as Parquet into OUTPUT_DIR. Prints the rows and the games per second.
docs/PYTHON.md explains the choices.
"""

import argparse
import os
import sys
import time

from pyspark.sql import SparkSession

import sgfaudit


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--dead-stones", default="auto")
    p.add_argument(
        "--glob",
        default="*.{sgf,SGF}",
        help="which files to read; archives of SGF files too: '*.{tar,zip,tgz}'",
    )
    p.add_argument("--table", default="games", choices=sgfaudit.TABLES)
    a = p.parse_args()
    # Spark's Python workers must import sgfaudit: run them on this Python.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master(a.master)
        .appName("sgfaudit")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "2000")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    dead_stones, table = a.dead_stones, a.table
    started = time.perf_counter()
    files = (
        spark.read.format("binaryFile")
        .option("pathGlobFilter", a.glob)
        .option("recursiveFileLookup", "true")
        .load(a.input)
        .select("path", "content")
    )
    rows_out = files.mapInArrow(
        lambda batches: sgfaudit.map_in_arrow(
            batches, table, jobs=1, dead_stones=dead_stones
        ),
        sgfaudit.spark_schema(table),
    )
    rows_out.write.mode("overwrite").parquet(a.output)
    seconds = time.perf_counter() - started
    rows = spark.read.parquet(a.output).count()
    if table == "games":
        print(f"{rows} games in {seconds:.2f} s: {rows / seconds:.0f} games/s")
    else:
        print(f"{rows} rows of {table} in {seconds:.2f} s")
    spark.stop()


if __name__ == "__main__":
    main()
