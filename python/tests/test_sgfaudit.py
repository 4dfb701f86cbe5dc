"""The Python package against the command line, on the bundled corpus.

Run from the repository root (.ci/run does): the CLI binary is
target/release/sgfaudit (under $CARGO_TARGET_DIR when it is set), built by
`cargo build --release`.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sgfaudit

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target", "release", "sgfaudit")
CORPUS = "corpus/"


@pytest.fixture(scope="session")
def cli_tables(tmp_path_factory):
    """The CLI's Parquet of corpus/, read with pyarrow."""
    out = tmp_path_factory.mktemp("cli")
    done = subprocess.run(
        [str(CLI), "check", CORPUS, "-q", "--out", str(out), "--parquet"],
        cwd=ROOT,
        capture_output=True,
    )
    assert done.returncode == 1, done.stderr  # the corpus holds illegal games
    return (
        out,
        pq.read_table(out / "games.parquet"),
        pq.read_table(out / "findings.parquet"),
        pq.read_table(out / "divergences.parquet"),
    )


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_audit_equals_the_cli_parquet(cli_tables):
    _, games, findings, divergences = cli_tables
    result = sgfaudit.audit([CORPUS])
    assert result.games.num_rows > 400
    assert result.games.equals(games)
    assert result.findings.equals(findings)
    assert result.divergences.equals(divergences)
    assert result.summary["games"] == games.num_rows
    # Every file has a row, an error row when it holds no game.
    assert result.summary["files"] == len(set(games.column("file").to_pylist()))
    assert sum(result.summary["findings_by_severity"].values()) == findings.num_rows
    # The per-code rows of the CLI's summary, against the findings table
    # grouped by hand: findings per (code, severity) and the distinct games.
    expected = {}
    rows = zip(
        *(findings.column(c).to_pylist() for c in ("code", "severity", "file", "game"))
    )
    for code, severity, file, game in rows:
        entry = expected.setdefault((code, severity), [0, set()])
        entry[0] += 1
        entry[1].add((file, game))
    got = {
        (c["code"], c["severity"]): (c["findings"], c["games"])
        for c in result.summary["codes"]
    }
    assert got == {k: (n, len(g)) for k, (n, g) in expected.items()}
    assert got[("R405", "error")][1] < got[("R405", "error")][0]
    # The common readings, against the games table's check_reading column.
    readings = {}
    for r in games.column("check_reading").to_pylist():
        if r is not None:
            readings[r] = readings.get(r, 0) + 1
    assert result.summary["readings"] == readings
    # The "recorded result reproduced" lines, against the games table's
    # check columns counted by hand.
    checks = {}

    def count(key, reproduced):
        entry = checks.setdefault(key, [0, 0])
        entry[0] += 1
        entry[1] += int(reproduced)

    columns = ("check_match", "check_ruleset", "dead_stones", "dead_uncertain")
    for match, ruleset, source, uncertain, markup_match in zip(
        *(games.column(c).to_pylist() for c in columns + ("check_markup_match",))
    ):
        if match is None:
            continue
        if ruleset:
            count(("declared_rules", source), match)
            if source == "estimated" and uncertain == 0:
                count(("declared_rules_none_uncertain", "estimated"), match)
        else:
            count(("some_counting_without_ru", None), match)
        if markup_match is not None:
            count(("own_count", None), markup_match)
    got = {
        (r["check"], r["dead_stones"]): [r["checked"], r["reproduced"]]
        for r in result.summary["results"]
    }
    assert got == checks
    assert ("own_count", None) in got and ("declared_rules", "markup") in got
    # corpus/rules/count-lone-stone-standing.sgf: RE counts White's lone
    # stone standing; count-stones-in-atari-standing.sgf: two White stones
    # only rule 7 makes dead; count-extension-in-atari-standing.sgf: a White
    # stone whose extension stays in atari (hand counts in the files).
    rules = sgfaudit.audit(["corpus/rules"])
    assert rules.summary["readings"] == {
        "lone_stones_standing": 1,
        "rule7_stones_standing": 1,
        "stones_in_atari_standing": 1,
    }


def test_duckdb_reads_the_cli_parquet(cli_tables):
    duckdb = pytest.importorskip("duckdb")
    out, games, _, _ = cli_tables
    con = duckdb.connect()
    rows, errors = con.execute(
        f"select count(*), sum(errors) from '{out / 'games.parquet'}'"
    ).fetchall()[0]
    assert rows == games.num_rows
    assert errors == pa.compute.sum(games.column("errors")).as_py()


def test_options_have_the_cli_names_and_messages():
    ko = "corpus/rules/ko-immediate.sgf"
    all_findings = sgfaudit.audit(ko).findings
    assert "R404" in all_findings.column("code").to_pylist()
    kept = sgfaudit.audit(ko, select=["A5", "C6"]).findings.column("code").to_pylist()
    assert "R404" not in kept
    lowered = sgfaudit.audit(ko, severity="R404=info").findings.to_pylist()
    assert {f["severity"] for f in lowered if f["code"] == "R404"} == {"info"}
    with pytest.raises(ValueError, match="invalid value `maybe` for dead_stones"):
        sgfaudit.audit(ko, dead_stones="maybe")
    with pytest.raises(ValueError, match="no finding code starts with it"):
        sgfaudit.audit(ko, severity="Z9=info")
    with pytest.raises(ValueError, match="`R4O4`: no finding code starts with it"):
        sgfaudit.audit(ko, ignore=["R4O4"])
    assert sgfaudit.audit(ko, select=["r404"]).findings.column("code").to_pylist() == ["R404"]
    # An empty item is refused as `--select R4,` is, not read as "every code".
    with pytest.raises(ValueError, match="expected a finding code"):
        sgfaudit.audit(ko, select="R4,")
    with pytest.raises(TypeError, match="unknown option 'colour'"):
        sgfaudit.audit(ko, colour="x")
    assert "dead_stones" in sgfaudit.option_names()


def test_a_charset_is_given_as_the_cli_gives_it(tmp_path):
    """PW is B0 D7, `白` in GB2312: two bytes, too few for detection."""
    game = tmp_path / "white.sgf"
    game.write_bytes(b"(;GM[1]SZ[9]PW[\xb0\xd7];B[ee];W[cc])")
    cli = subprocess.run(
        [str(CLI), "check", str(game), "-q", "--format", "csv", "--charset", "GB2312"],
        capture_output=True,
    )
    assert cli.returncode == 0, cli.stderr
    assert ",GBK," in cli.stdout.decode().splitlines()[1]
    games = sgfaudit.audit([game], charset="GB2312").games.to_pylist()
    assert [g["encoding"] for g in games] == ["GBK"]
    with pytest.raises(ValueError, match="UTF-16 is told by its byte-order mark"):
        sgfaudit.audit([game], charset="utf-16le")


def test_a_missing_file_is_a_row_not_an_exception():
    games = sgfaudit.audit(["no/such/file.sgf"]).games.to_pylist()
    assert len(games) == 1
    assert games[0]["status"] == "error"


def test_a_path_that_is_not_utf8_is_audited_and_named_as_the_cli_names_it(tmp_path):
    if os.name != "posix":
        pytest.skip("file names are bytes only on POSIX systems")
    game = tmp_path / os.fsdecode(b"\xff.sgf")
    game.write_text("(;GM[1]SZ[9];B[ee];W[cc])")
    cli = subprocess.run(
        [str(CLI), "check", os.fsencode(game), "-q", "--format", "csv"],
        capture_output=True,
    )
    assert cli.returncode == 0, cli.stderr
    cli_name = cli.stdout.decode().splitlines()[1].split(",")[0]
    assert cli_name == f"{tmp_path}/\\xFF.sgf"
    for given in (game, os.fspath(game), os.fsencode(game)):
        games = sgfaudit.audit([given]).games.to_pylist()
        assert [(g["file"], g["status"]) for g in games] == [(cli_name, "ok")]


def test_a_directory_is_walked_as_the_cli_walks_it(tmp_path):
    """Hidden names and ignored files are left out and counted, as by the
    CLI; hidden, no_ignore and glob change the walk as its flags do."""
    game = (ROOT / "corpus/rules/ko-immediate.sgf").read_bytes()
    for name in ("a.sgf", ".hidden.sgf", "old.sgf", "sub/b.sgf", "sub/c,d.sgf"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(game)
    (tmp_path / ".gitignore").write_text("old.sgf\n")

    def walked(**options):
        r = sgfaudit.audit([tmp_path], **options)
        files = sorted(Path(f).relative_to(tmp_path).as_posix() for f in r.games.column("file").to_pylist())
        return files, r.summary["files_left_out"]

    assert walked() == (["a.sgf", "sub/b.sgf", "sub/c,d.sgf"], 2)
    assert walked(hidden=True, no_ignore=True)[0] == [
        ".hidden.sgf", "a.sgf", "old.sgf", "sub/b.sgf", "sub/c,d.sgf"
    ]
    assert walked(glob="b.sgf") == (["sub/b.sgf"], 4)
    # One glob, its commas inside: a.sgf, and c,d.sgf at any depth.
    assert walked(glob=["{a,c\\,d}.sgf"])[0] == ["a.sgf", "sub/c,d.sgf"]
    assert walked(glob=["!sub", "a.sgf"])[0] == ["a.sgf"]
    assert walked(glob=["c,d.sgf"])[0] == ["sub/c,d.sgf"]
    with pytest.raises(ValueError, match="--glob"):
        sgfaudit.audit([tmp_path], glob="a/{b")
    with pytest.raises(ValueError, match="not contents already read"):
        sgfaudit.audit_batch({"path": ["a.sgf"], "content": [game]}, hidden=True)


def corpus_files() -> list[str]:
    return sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "corpus").rglob("*")
        if p.is_file() and p.suffix.lower() == ".sgf"
    )


def test_ctrl_c_stops_a_running_audit():
    """KeyboardInterrupt stops audit() while it runs, not after its end.

    A child process audits games streamed to its standard input; after the
    first few thousand, it gets SIGINT. Had the audit run on (the signal
    only seen once it returned), it would read all N games; stopped, it
    leaves the pipe, so the writer's pipe breaks before N.
    """
    import signal
    import sys

    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sgfaudit\n"
            "print('ready', flush=True)\n"
            "try:\n"
            "    sgfaudit.audit(['-'], jobs=1)\n"
            "    print('finished', flush=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert child.stdout.readline().strip() == b"ready"
    games = b"(;GM[1]SZ[9];B[ee];W[cc];B[gg])\n" * 50
    n, written, broken = 400_000, 0, False
    try:
        while written < n:
            child.stdin.write(games)
            written += 50
            if written == 5_000:
                child.send_signal(signal.SIGINT)
        child.stdin.close()
    except BrokenPipeError:
        broken = True
    said = child.stdout.read().decode().strip()
    child.wait()
    assert said == "interrupted"
    assert broken and written < n, f"{written} games written of {n}"


@pytest.mark.parametrize("content_column", ["content", "bytes"])
def test_audit_batch_gives_the_cli_rows(content_column):
    files = corpus_files()[:60]
    batch = pa.table(
        {"path": files, content_column: [(ROOT / f).read_bytes() for f in files]}
    )
    got = sgfaudit.audit_batch(batch)
    want = sgfaudit.audit(files).games
    assert got.equals(want)
    # Ray's dict-of-columns batch format gives the same table.
    as_dict = {"path": files, content_column: [(ROOT / f).read_bytes() for f in files]}
    assert sgfaudit.audit_batch(as_dict).equals(want)


def test_an_archive_in_a_batch_row_is_read_entry_by_entry():
    """A row whose path names an archive (here a 7z made by 7-Zip) is
    audited entry by entry, as the command line audits the file."""
    archive = "tests/data/7z/solid-lzma2.7z"
    batch = pa.table({"path": [archive], "content": [(ROOT / archive).read_bytes()]})
    got = sgfaudit.audit_batch(batch)
    assert got.num_rows == 4
    assert got.equals(sgfaudit.audit([archive]).games)


def test_a_tar_gz_cut_short_in_a_batch_row_gives_the_cli_rows(tmp_path):
    """A .tar.gz whose end falls inside a collection entry: its games before
    the cut, then a row for the cut, in a batch row as on the command line."""
    import gzip
    import io
    import tarfile

    def utf8(b: bytes) -> bool:
        try:
            b.decode("utf-8")
            return True
        except UnicodeDecodeError:
            return False

    records = [
        b
        for b in (
            (ROOT / f).read_bytes()
            for f in corpus_files()
            if f.startswith("corpus/real/")
        )
        if b.startswith(b"(;") and utf8(b)
    ][:40]
    collection = b"\n".join(records)
    plain = io.BytesIO()
    with tarfile.open(fileobj=plain, mode="w") as tar:
        info = tarfile.TarInfo("c.sgf")
        info.size = len(collection)
        tar.addfile(info, io.BytesIO(collection))
    packed = gzip.compress(plain.getvalue())
    cut = packed[: len(packed) * 3 // 4]
    path = tmp_path / "cut.tar.gz"
    path.write_bytes(cut)
    want = sgfaudit.audit([str(path)]).games
    statuses = want.column("status").to_pylist()
    assert statuses[-1] == "error" and statuses.count("ok") > 0, statuses
    batch = pa.table({"path": [str(path)], "content": [cut]})
    assert sgfaudit.audit_batch(batch).equals(want)


def test_compressed_game_files_in_a_batch_row_give_the_cli_rows(tmp_path):
    """Rows whose paths name .sgf.gz, .sgf.bz2, .sgf.xz and .sgf.zst files (as
    Ray's file_extensions=["gz", "bz2"] and Spark's binaryFile read them) are
    decompressed, as the command line decompresses the files: the games they
    hold, or a row saying why not (data that are not compressed)."""
    import bz2
    import gzip
    import lzma

    import zstandard

    files = [f for f in corpus_files() if f.startswith("corpus/real/")][:4]
    packers = [
        ("gz", gzip.compress),
        ("bz2", bz2.compress),
        ("xz", lzma.compress),
        ("zst", zstandard.ZstdCompressor().compress),
    ]
    paths, contents = [], []
    for f, (suffix, pack) in zip(files, packers):
        path = tmp_path / (Path(f).name + "." + suffix)
        path.write_bytes(pack((ROOT / f).read_bytes()))
        paths.append(str(path))
        contents.append(path.read_bytes())
    plain = tmp_path / "not-compressed.sgf.gz"
    plain.write_bytes((ROOT / files[0]).read_bytes())
    paths.append(str(plain))
    contents.append(plain.read_bytes())
    want = sgfaudit.audit(paths).games
    statuses = want.column("status").to_pylist()
    assert statuses[-1] == "error" and statuses[:-1].count("ok") >= 1, statuses
    # The decompressed games are audited as the plain files are.
    direct = sgfaudit.audit(files).games
    assert want.column("moves").to_pylist()[:-1] == direct.column("moves").to_pylist()
    batch = pa.table({"path": paths, "content": contents})
    assert sgfaudit.audit_batch(batch).equals(want)


def test_audit_batch_gives_each_table_the_cli_gives():
    """``table=`` picks the findings or divergences instead of the games:
    the same rows ``audit`` gives for the same files."""
    ko = "corpus/rules/ko-immediate.sgf"
    files = [ko] + [f for f in corpus_files() if f.startswith("corpus/real/")][:40]
    batch = pa.table({"path": files, "content": [(ROOT / f).read_bytes() for f in files]})
    want = sgfaudit.audit(files)
    for table in sgfaudit.TABLES:
        got = sgfaudit.audit_batch(batch, table=table)
        assert got.equals(getattr(want, table)), table
        assert got.schema == sgfaudit.table_schema(table)
    assert want.divergences.num_rows > 0
    # The record's comment: White retakes the ko at de at once, move 10.
    findings = sgfaudit.audit_batch(batch, table="findings").to_pylist()
    assert any(
        (f["file"], f["code"], f["move"], f["point"]) == (ko, "R404", 10, "de")
        for f in findings
    ), [f for f in findings if f["file"] == ko]
    with pytest.raises(ValueError, match="table must be one of"):
        sgfaudit.audit_batch(batch, table="moves")
    out = list(sgfaudit.map_in_arrow(iter([batch.to_batches()[0]]), table="findings"))
    assert sum(b.num_rows for b in out) == want.findings.num_rows
    assert "`message` string" in sgfaudit.spark_schema("findings")


def test_map_in_arrow_yields_the_games_batches():
    files = corpus_files()[:10]
    batch = pa.record_batch(
        {"path": files, "content": [(ROOT / f).read_bytes() for f in files]}
    )
    out = list(sgfaudit.map_in_arrow(iter([batch, batch])))
    rows = sum(b.num_rows for b in out)
    assert rows == 2 * sgfaudit.audit(files).games.num_rows
    assert out[0].schema == sgfaudit.games_schema()
    assert "`japanese_margin` double" in sgfaudit.spark_schema()


def comparable(table: pa.Table) -> list[dict]:
    """Rows without the duplicate check's columns (it looks across one
    run; an engine audits each batch as a run of its own), sorted."""
    keep = [c for c in table.column_names if not c.startswith("duplicate_of")]
    rows = table.select(keep).to_pylist()
    return sorted(rows, key=lambda r: (r["file"], r["game"]))


def test_ray_data_gives_the_cli_rows(cli_tables):
    ray = pytest.importorskip("ray")
    _, cli_games, _, _ = cli_tables
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ds = ray.data.read_binary_files(
            str(ROOT / "corpus"), include_paths=True, file_extensions=["sgf"]
        )
        out = ds.map_batches(
            sgfaudit.audit_batch,
            batch_format="pyarrow",
            fn_kwargs={"ignore": ["A508", "A509"]},
        )
        engine = pa.Table.from_pylist(out.take_all(), schema=sgfaudit.games_schema())
    finally:
        ray.shutdown()
    # Ray gives absolute paths; the CLI was given corpus/.
    prefix = str(ROOT) + os.sep
    engine = engine.set_column(
        0, "file", pa.array([f.removeprefix(prefix) for f in engine.column("file").to_pylist()])
    )
    cli = sgfaudit.audit([CORPUS], ignore=["A508", "A509"]).games
    assert engine.num_rows == cli_games.num_rows == cli.num_rows
    assert comparable(engine) == comparable(cli)


CAUSES = [
    "handicap_stones",
    "stones_placed",
    "pass_stones",
    "white_last_pass",
    "seki_eyes",
    "points_to_fill",
    "komi",
    "compensation",
]


def test_divergences_add_up_and_name_winner_changes():
    r = sgfaudit.audit([CORPUS])
    rows = r.divergences.to_pylist()
    assert rows, "the corpus has games whose countings differ"
    margins = {
        (g["file"], g["game"]): g for g in r.games.to_pylist() if g["japanese_margin"] is not None
    }
    column = {
        "aga": "aga_margin",
        "aga_area": "aga_area_margin",
        "japanese": "japanese_margin",
        "swedish": "swedish_margin",
        "chinese": "chinese_margin",
    }
    for d in rows:
        assert abs(sum(d[c] for c in CAUSES) - d["margin_difference"]) < 1e-9, d
        g = margins[(d["file"], d["game"])]
        first, second = g[column[d["first"]]], g[column[d["second"]]]
        assert abs(first - second - d["margin_difference"]) < 1e-9, d
        assert d["winner_changes"] == (sign(first) != sign(second)), d


def sign(margin: float) -> int:
    """Who a margin says won: 1 Black, -1 White, 0 a tie (jigo)."""
    return (margin > 1e-9) - (margin < -1e-9)
