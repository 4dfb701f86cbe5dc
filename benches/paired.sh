#!/usr/bin/env bash
# Paired timing of two whole commands: A and B run in turn (A B A B ...), and
# the ratio A/B is taken pair by pair, so a machine whose speed drifts during
# the measurement moves both sides of each ratio alike.
#
#   benches/paired.sh [-n PAIRS] [-w WARMUP] 'COMMAND_B' -- COMMAND_A [ARG ...]
#
# B is one string, read into words as the shell reads a command line (quotes
# kept together; no pipes: write sh -c '...'); A is the words after `--`.
# Each command's output is thrown away. Wall time is read by bash around each
# run (EPOCHREALTIME); user and system time and peak memory are GNU time's.
# PAIRS defaults to 8, WARMUP (uncounted runs of each command first) to 1.
# Prints the median, min and max of each figure, and of the wall and CPU
# ratios over the pairs: quote the median ratio, with min-max as its spread.
#
#   benches/paired.sh -n 8 './target/release/sgfaudit check ../shared/corpus/real -j1 -q --dead-stones markup' \
#     -- ./target/release/sgfaudit check ../shared/corpus/real -j1 -q
set -euo pipefail

pairs=8
warmup=1
usage() {
  echo "usage: $0 [-n PAIRS] [-w WARMUP] 'COMMAND_B' -- COMMAND_A [ARG ...]" >&2
  exit 2
}
while getopts "n:w:" opt; do
  case $opt in
    n) pairs=$OPTARG ;;
    w) warmup=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
  usage
fi
eval "command_b=($1)"
shift 2
command_a=("$@")
[ -x /usr/bin/time ] || { echo "$0: needs GNU time at /usr/bin/time" >&2; exit 2; }

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# One run of a command: prints "wall cpu peak_kib", its exit status ignored.
run() {
  local start end
  start=$EPOCHREALTIME
  /usr/bin/time -o "$out" -f "%U %S %M" "$@" >/dev/null 2>&1 || true
  end=$EPOCHREALTIME
  # GNU time writes "Command exited with non-zero status N" first when it is
  # not 0: the figures are its last line.
  tail -n 1 "$out" | awk -v s="$start" -v e="$end" '{ printf "%.4f %.3f %d\n", e - s, $1 + $2, $3 }'
}

for _ in $(seq "$warmup"); do
  run "${command_a[@]}" >/dev/null
  run "${command_b[@]}" >/dev/null
done
rows=""
for _ in $(seq "$pairs"); do
  rows+="$(run "${command_a[@]}") $(run "${command_b[@]}")"$'\n'
done

printf '%s' "$rows" | awk -v pairs="$pairs" '
  function stats(name, col,    i, j, n, v, t, med) {
    n = 0
    for (i = 1; i <= NR; i++) v[++n] = col[i]
    # insertion sort: a handful of values
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    printf "%-16s median %9.4f   min %9.4f   max %9.4f\n", name, med, v[1], v[n]
  }
  { aw[NR] = $1; ac[NR] = $2; am[NR] = $3 / 1024; bw[NR] = $4; bc[NR] = $5; bm[NR] = $6 / 1024
    rw[NR] = $1 / $4; rc[NR] = ($5 > 0) ? $2 / $5 : 1 }
  END {
    printf "%d pairs, A then B in each\n", pairs
    stats("A wall s", aw); stats("B wall s", bw)
    stats("A cpu s", ac); stats("B cpu s", bc)
    stats("A peak MiB", am); stats("B peak MiB", bm)
    stats("wall ratio A/B", rw); stats("cpu ratio A/B", rc)
  }'
