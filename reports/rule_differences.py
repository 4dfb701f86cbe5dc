"""Writes reports/rule-differences.md and its plots (reports/rule-differences/*.svg)
from sgfaudit's Parquet tables of ../shared/corpus/real and
../shared/corpus/kgs-scored, through DuckDB.

    python3 reports/rule_differences.py        # needs duckdb; builds sgfaudit if needed

Every figure in the report is the result of the SQL query printed beside it;
copy the queries to ask the same of your own archive's Parquet.
"""

from __future__ import annotations

import datetime
import html
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "target" / "release" / "sgfaudit"
SETS = {
    "real": ROOT.parent / "shared" / "corpus" / "real",
    "kgs-scored": ROOT.parent / "shared" / "corpus" / "kgs-scored",
}
OUT = ROOT / "reports" / "rule-differences.md"
PLOTS = ROOT / "reports" / "rule-differences"


def audit(name: str, source: Path, into: Path) -> Path:
    out = into / name
    subprocess.run(
        [str(CLI), "check", str(source), "-q", "--exit-zero", "--out", str(out), "--parquet"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return out


def bars(title: str, rows: list[tuple[str, float]], path: Path) -> str:
    """A horizontal bar chart as SVG; returns the Markdown that shows it."""
    width, label, row = 640, 260, 22
    top = max((v for _, v in rows), default=0) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{row * len(rows) + 30}" '
        f'font-family="sans-serif" font-size="12">',
        f'<text x="4" y="16" font-weight="bold">{html.escape(title)}</text>',
    ]
    for i, (name, value) in enumerate(rows):
        y = 24 + i * row
        w = round((width - label - 60) * value / top)
        parts.append(
            f'<text x="{label - 6}" y="{y + 14}" text-anchor="end">{html.escape(name)}</text>'
            f'<rect x="{label}" y="{y + 3}" width="{w}" height="{row - 6}" fill="#4a7ab5"/>'
            f'<text x="{label + w + 4}" y="{y + 14}">{value:g}</text>'
        )
    parts.append("</svg>\n")
    path.write_text("\n".join(parts))
    return f"![{title}]({path.parent.name}/{path.name})"


def table(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[str, list[tuple]]:
    """A query's result as a Markdown table, and its rows."""
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    rows = cur.fetchall()
    lines = ["| " + " | ".join(names) + " |", "|" + " --- |" * len(names)]
    for r in rows:
        cells = ["-" if v is None else f"{v:.1f}" if isinstance(v, float) else str(v) for v in r]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines), rows


def section(con, md: list[str], title: str, text: str, sql: str) -> list[tuple]:
    shown, rows = table(con, sql)
    md += [f"### {title}", "", text, "", "```sql", sql.strip(), "```", "", shown, ""]
    return rows


def main() -> None:
    if not CLI.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    missing = [str(p) for p in SETS.values() if not p.is_dir()]
    if missing:
        sys.exit(f"rule_differences: {', '.join(missing)} absent; nothing written")
    PLOTS.mkdir(exist_ok=True)
    version = subprocess.run([str(CLI), "--version"], capture_output=True, text=True).stdout.strip()
    md = [
        "# Where the rulesets disagree: measurements on real archives",
        "",
        f"Generated on {datetime.date.today()} by `python3 reports/rule_differences.py` with "
        f"{version}, default options (dead stones from TB/TW markup when present, else "
        "estimated; komi from KM), from the Parquet tables of two development sets beside the "
        "project: `../shared/corpus/real` (3,307 records from public sources: pro games, "
        "servers, engine regressions, test files) and `../shared/corpus/kgs-scored` (400 KGS "
        "games, 6 dan and above, 2017, ending in two passes with the server's own count). "
        "Each figure is the result of the DuckDB query beside it, run on the tables "
        "`sgfaudit check DIR --out OUT --parquet` writes; `games`, `findings` and `divergences` "
        "below are `'OUT/games.parquet'` and so on. docs/OUTPUT.md documents the columns, "
        "docs/RULES.md the countings and causes.",
        "",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, source in SETS.items():
            out = audit(name, source, Path(tmp))
            con = duckdb.connect()
            for t in ["games", "findings", "divergences"]:
                con.execute(f"create view {t} as select * from '{out / (t + '.parquet')}'")
            slug = name.replace("-", "_")
            md += [f"## {name}", ""]
            section(
                con,
                md,
                "Games, scored games and how their ends were counted",
                "Every game of the set, those scored (finished: two passes, a counted RE or "
                "territory markup), and where their dead stones came from.",
                """
select count(*) as games,
       count(*) filter (where dead_stones is not null) as scored,
       count(*) filter (where dead_stones = 'markup') as dead_from_markup,
       count(*) filter (where dead_stones = 'estimated') as dead_estimated
from games""",
            )
            rows = section(
                con,
                md,
                "How often the winner changes between countings",
                "Per pair of countings, the scored games whose margins differ, and those in "
                "which the two countings name different winners (a tie counts as a result "
                "of its own).",
                """
select first || ' / ' || second as countings,
       count(*) as games_differ,
       count(*) filter (where winner_changes) as winner_changes,
       round(avg(abs(margin_difference)), 2) as mean_abs_difference
from divergences
group by all
order by winner_changes desc, games_differ desc""",
            )
            md.append(
                bars(
                    f"{name}: games whose winner changes, per pair of countings",
                    [(r[0], r[2]) for r in rows],
                    PLOTS / f"{slug}-winner-changes.svg",
                )
            )
            md.append("")
            rows = section(
                con,
                md,
                "Why the winner changes",
                "Among the pairs whose winner changes, how often each cause moves the margin "
                "(a pair can have several causes), and by how many points on average.",
                """
with changes as (
  unpivot (select * from divergences where winner_changes)
  on handicap_stones, stones_placed, pass_stones, white_last_pass,
     seki_eyes, points_to_fill, komi, compensation
  into name cause value points)
select cause, count(*) filter (where points <> 0) as pairs,
       round(avg(abs(points)) filter (where points <> 0), 2) as mean_abs_points
from changes
group by cause
order by pairs desc, cause""",
            )
            md.append(
                bars(
                    f"{name}: causes in pairs whose winner changes",
                    [(r[0], r[1]) for r in rows],
                    PLOTS / f"{slug}-causes.svg",
                )
            )
            md.append("")
            section(
                con,
                md,
                "Japanese against area counting, game by game",
                "How the Japanese count and the Chinese area count of the same final position "
                "relate: the same winner, or which one a change favours.",
                """
select case
         when sign(japanese_margin) = sign(chinese_margin) then 'same winner'
         when japanese_margin > chinese_margin then 'Japanese favours Black'
         else 'Japanese favours White'
       end as outcome,
       count(*) as games
from games
where japanese_margin is not null
group by all
order by games desc""",
            )
            rows = section(
                con,
                md,
                "Illegal moves and repetitions per ruleset",
                "Games with at least one illegal move under each ruleset (whatever rules the "
                "record declares), and the findings of each kind.",
                """
select count(*) filter (where aga_illegal > 0) as games_illegal_aga,
       count(*) filter (where japanese_illegal > 0) as games_illegal_japanese,
       count(*) filter (where swedish_illegal > 0) as games_illegal_swedish,
       count(*) filter (where japanese_no_result_move is not null) as japanese_no_result
from games""",
            )
            rows = section(
                con,
                md,
                "Illegal moves by kind",
                "Findings of each illegal-move kind and the rulesets they apply to.",
                """
select code, name, rulesets, count(*) as findings, count(distinct (file, game)) as games
from findings
where code like 'R4%'
group by all
order by findings desc""",
            )
            section(
                con,
                md,
                "The server's count against the rules' count",
                "For scored games whose RU names a counting and whose RE can be checked: "
                "does the declared rules' count of the final position give RE, and, where the "
                "record carries TB/TW markup, does the record's own count give it, and how "
                "often the two part.",
                """
select check_ruleset as counting, dead_stones,
       count(*) as checked,
       count(*) filter (where check_match) as rules_count_gives_re,
       count(check_markup_match) as with_record_count,
       count(*) filter (where check_markup_match) as record_count_gives_re,
       count(*) filter (where check_markup_match and not check_match) as only_record_count,
       count(*) filter (where check_match and not check_markup_match) as only_rules_count
from games
where check_computed is not null
group by all
order by checked desc""",
            )
    md += [
        "## Reading the causes",
        "",
        "A pair of countings differs by the difference of their components (docs/RULES.md, "
        "Scoring, \"Divergence\"): `stones_placed` (area counting counts the stones each "
        "side placed, territory counting the captures they cost), `handicap_stones` (stones "
        "not placed in play), `pass_stones` (AGA territory counting and Swedish rules give a "
        "prisoner per pass), `white_last_pass` (AGA rule 11: White's owed last pass), "
        "`seki_eyes` and `points_to_fill` (no territory under Japanese rule 8), `komi` and "
        "`compensation` (area counting's handicap compensation). A cause counted in a pair "
        "whose winner changes moved that pair's margin; the winner changes when the causes "
        "together cross zero, which is why games decided by half a point to three points "
        "dominate.",
        "",
    ]
    OUT.write_text("\n".join(md).rstrip() + "\n")
    print(f"wrote {OUT.relative_to(ROOT)} and {PLOTS.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
