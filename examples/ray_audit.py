"""Audit SGF files on a Ray cluster with Ray Data, into Parquet.

    python examples/ray_audit.py INPUT_DIR OUTPUT_DIR [--cpus N] [--address ADDR]
        [--table games|findings|divergences]

Reads every *.sgf (and .zip/.tar archives of them) under INPUT_DIR with
read_binary_files, audits each batch with sgfaudit.audit_batch on the
cluster's workers, and writes the games table (or the one --table names) as
Parquet into OUTPUT_DIR.
Without --address it starts a local cluster of --cpus CPUs. Prints the rows
and the games per second. docs/PYTHON.md explains the choices.
"""

import argparse
import time

import ray

import sgfaudit


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--cpus", type=int, default=2)
    p.add_argument("--address", default=None)
    p.add_argument("--dead-stones", default="auto")
    p.add_argument("--table", default="games", choices=sgfaudit.TABLES)
    a = p.parse_args()
    if a.address:
        ray.init(address=a.address)
    else:
        ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter()
    ds = ray.data.read_binary_files(
        a.input,
        include_paths=True,
        file_extensions=["sgf", "sgfs", "zip", "tar", "gz", "bz2", "xz", "7z"],
    )
    table = ds.map_batches(
        sgfaudit.audit_batch,
        batch_format="pyarrow",
        # One worker thread per task: Ray runs one task per CPU.
        fn_kwargs={"jobs": 1, "dead_stones": a.dead_stones, "table": a.table},
    )
    table.write_parquet(a.output)
    seconds = time.perf_counter() - started
    rows = ray.data.read_parquet(a.output).count()
    if a.table == "games":
        print(f"{rows} games in {seconds:.2f} s: {rows / seconds:.0f} games/s")
    else:
        print(f"{rows} rows of {a.table} in {seconds:.2f} s")
    ray.shutdown()


if __name__ == "__main__":
    main()
