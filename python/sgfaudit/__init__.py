"""sgfaudit: audit archives of Go game records (SGF) into Arrow tables.

Every game is replayed once under AGA (1991/2004), Japanese (Nihon Kiin
1989) and simple Swedish rules; illegal moves, repetitions and record
anomalies are reported, finished games are scored under each counting and
the recorded result is checked. The work runs in Rust on all cores with the
GIL released.

    >>> import sgfaudit
    >>> result = sgfaudit.audit(["corpus/"], dead_stones="markup")
    >>> result.games.num_rows, result.findings.num_rows
    >>> result.summary["games"]

The tables have the columns of ``games.csv`` and ``findings.csv``
(docs/OUTPUT.md), typed as in ``--parquet``. Options have the names of the
command line's flags, ``-`` written ``_`` (``dead_stones="estimate"``,
``komi=6.5``, ``select=["R4"]``, ``jobs=2``); a bad value raises
``ValueError`` with the message the command line gives.

For Ray Data and Spark, ``audit_batch`` audits one batch of file contents
(``path`` and ``content`` or ``bytes`` columns) into one of the three tables
(``table="games"``, ``"findings"`` or ``"divergences"``) and
``map_in_arrow`` wraps it for Spark's ``mapInArrow``; see docs/PYTHON.md.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Union

import pyarrow as pa
import pyarrow.ipc

from . import _sgfaudit

__all__ = [
    "AuditResult",
    "audit",
    "audit_batch",
    "map_in_arrow",
    "games_schema",
    "table_schema",
    "spark_schema",
    "TABLES",
    "option_names",
    "__version__",
]

__version__: str = _sgfaudit.__version__

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

TABLES = ("games", "findings", "divergences")
"""The tables an audit gives, as ``audit_batch``'s ``table`` names them."""


@dataclass(frozen=True)
class AuditResult:
    """The result of an audit: one row per game, one row per finding, one
    row per scored game and pair of countings whose margins differ (the
    difference split into its causes), and the run's counts (files, games,
    games_ok, games_error, moves, scored, findings_by_severity,
    findings_by_code, codes: per code and severity its name, findings
    and the games it fires in; results: per result check, the records
    checked and those whose RE it reproduces; and readings: per common
    reading, the records whose RE it gives where the rules' count does
    not)."""

    games: pa.Table
    findings: pa.Table
    divergences: pa.Table
    summary: dict[str, Any]


def option_names() -> list[str]:
    """The options ``audit`` and ``audit_batch`` accept."""
    return list(_sgfaudit.option_names())


def _pairs(options: dict[str, Any]) -> list[tuple[str, str]]:
    known = set(_sgfaudit.option_names())
    pairs = []
    for name, value in options.items():
        if name not in known:
            raise TypeError(
                f"unknown option {name!r}: the options are {', '.join(sorted(known))}"
            )
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            # A glob may hold a comma (`{a,b}`): globs go one a line.
            text = ("\n" if name == "glob" else ",").join(str(v) for v in value)
        else:
            text = str(value)
        pairs.append((name, text))
    return pairs


def _table(stream: bytes) -> pa.Table:
    return pa.ipc.open_stream(stream).read_all()


def _checked(table: str) -> str:
    if table not in TABLES:
        raise ValueError(f"table must be one of {', '.join(TABLES)}, not {table!r}")
    return table


def _result(raw: tuple[bytes, bytes, bytes, str]) -> AuditResult:
    games, findings, divergences, summary = raw
    return AuditResult(
        _table(games), _table(findings), _table(divergences), json.loads(summary)
    )


def audit(paths: Union[PathLike, Iterable[PathLike]], **options: Any) -> AuditResult:
    """Audits SGF files (also compressed alone: .sgf.gz, .sgf.bz2, .sgf.xz, .sgf.zst),
    directories (recursively) and archives (.zip, .tar, .tar.gz, .tar.bz2,
    .tar.xz, .tar.zst, .7z), as ``sgfaudit check PATHS`` does. Inside
    directories, hidden names and files in ``.gitignore``/``.ignore`` are left
    out unless ``hidden=True`` or ``no_ignore=True``, and ``glob=[...]``
    narrows the walk as ``--glob`` does; ``summary["files_left_out"]`` counts
    what was left out.

    Raises ``ValueError`` for a bad option value and ``TypeError`` for an
    unknown option; unreadable inputs are rows with ``status == "error"``,
    never exceptions.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    # A name that is not UTF-8 passes as its file-system decoding.
    names = [os.fsdecode(p) for p in paths]
    return _result(_sgfaudit.audit(names, _pairs(options)))


def _columns(batch: Any) -> tuple[list[str], list[bytes]]:
    """The path and content columns of a batch: a pyarrow Table or
    RecordBatch, a pandas DataFrame, or a dict of columns (Ray's
    ``numpy`` and ``default`` batch formats)."""
    if isinstance(batch, (pa.Table, pa.RecordBatch)):
        names = batch.schema.names
        get = lambda c: batch.column(c).to_pylist()  # noqa: E731
    elif isinstance(batch, dict):
        names = list(batch)
        get = lambda c: list(batch[c])  # noqa: E731
    elif hasattr(batch, "columns") and hasattr(batch, "__getitem__"):
        names = list(batch.columns)
        get = lambda c: list(batch[c])  # noqa: E731
    else:
        raise TypeError(f"cannot read a batch of type {type(batch).__name__}")
    content = "content" if "content" in names else "bytes" if "bytes" in names else None
    if "path" not in names or content is None:
        raise ValueError(
            f"a batch needs a 'path' column and a 'content' (or 'bytes') column; it has {names}"
        )
    paths = [str(p) for p in get("path")]
    contents = [bytes(c) for c in get(content)]
    return paths, contents


def audit_batch(batch: Any, table: str = "games", **options: Any) -> pa.Table:
    """Audits one batch of files already read: ``path`` and ``content``
    (Spark's ``binaryFile``) or ``bytes`` (Ray Data's
    ``read_binary_files(include_paths=True)``) columns. A content whose path
    names an archive (.zip, .tar, .tar.gz, .tar.bz2, .tar.xz, .tar.zst, .7z) is read
    as one, and one that names a compressed game file (.sgf.gz, .sgf.bz2,
    .sgf.xz, .sgf.zst) is decompressed.
    Returns the table named by ``table`` (one of ``TABLES``: the games, by
    default, the findings or the divergences), ready for
    ``map_batches(sgfaudit.audit_batch, batch_format="pyarrow")``; raises
    ``ValueError`` for another name."""
    table = _checked(table)
    paths, contents = _columns(batch)
    result = _result(_sgfaudit.audit_contents(paths, contents, _pairs(options)))
    return getattr(result, table)


def map_in_arrow(
    batches: Iterable[pa.RecordBatch], table: str = "games", **options: Any
) -> Iterator[pa.RecordBatch]:
    """For Spark's ``mapInArrow``: each batch of a ``binaryFile`` DataFrame
    in, the record batches of the table named by ``table`` out (schema:
    ``spark_schema(table)``)."""
    table = _checked(table)
    for batch in batches:
        yield from audit_batch(batch, table, **options).to_batches()


def table_schema(table: str = "games") -> pa.Schema:
    """The schema of the table named by ``table`` (one of ``TABLES``)."""
    table = _checked(table)
    return getattr(_result(_sgfaudit.audit_contents([], [], [])), table).schema


def games_schema() -> pa.Schema:
    """The games table's schema."""
    return table_schema("games")


def spark_schema(table: str = "games") -> str:
    """The schema of the table named by ``table`` (one of ``TABLES``) as a
    Spark DDL string, for ``mapInArrow``."""
    spark = {
        pa.int64(): "bigint",
        pa.float64(): "double",
        pa.bool_(): "boolean",
        pa.string(): "string",
    }
    return ", ".join(f"`{f.name}` {spark[f.type]}" for f in table_schema(table))
