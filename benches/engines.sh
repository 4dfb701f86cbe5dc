#!/usr/bin/env bash
# Games per second, and per core, for the same data audited by the CLI, the
# Python package, Ray Data (local cluster) and PySpark (local master):
#   bash benches/engines.sh [DATA_DIR] [PYTHON]
# DATA_DIR defaults to ../shared/corpus/real; PYTHON must have the sgfaudit
# wheel, ray[data] and pyspark installed (docs/PYTHON.md). Results go to
# stdout as a Markdown table; reports/engines.md holds a dated run.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/corpus/real}
py=${2:-python3}
cores=2
out=$(mktemp -d)
cargo build --release --quiet
secs() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
games=$(./target/release/sgfaudit check "$data" -q --exit-zero --format csv | tail -n +2 | wc -l)
cli1=$(secs ./target/release/sgfaudit check "$data" -q -j1 --exit-zero)
cli2=$(secs ./target/release/sgfaudit check "$data" -q -j$cores --exit-zero)
pyt=$("$py" -c '
import sys, time, sgfaudit
t = time.perf_counter(); r = sgfaudit.audit([sys.argv[1]], jobs=int(sys.argv[2]))
print(f"{time.perf_counter() - t:.2f} {r.games.num_rows}")' "$data" $cores)
ray=$("$py" examples/ray_audit.py "$data" "$out/ray" --cpus $cores 2>/dev/null | tail -1)
spark=$("$py" examples/spark_audit.py "$data" "$out/spark" --master "local[$cores]" --glob '*.{sgf,SGF,tar,zip}' 2>/dev/null | tail -1 | tr '\r' '\n' | tail -1)
row() { # name seconds games cores
  awk -v n="$1" -v s="$2" -v g="$3" -v c="$4" \
    'BEGIN { printf "| %s | %d | %.2f | %.0f | %.0f |\n", n, g, s, g / s, g / s / c }'
}
echo "| run | games | seconds | games/s | games/s per core |"
echo "| --- | --- | --- | --- | --- |"
row "CLI -j1" "$cli1" "$games" 1
row "CLI -j$cores" "$cli2" "$games" $cores
row "Python audit(jobs=$cores)" "${pyt% *}" "${pyt#* }" $cores
row "Ray Data, local, $cores CPUs" "$(echo "$ray" | awk '{print $4}')" "$(echo "$ray" | awk '{print $1}')" $cores
row "PySpark local[$cores]" "$(echo "$spark" | awk '{print $4}')" "$(echo "$spark" | awk '{print $1}')" $cores
rm -rf "$out"
