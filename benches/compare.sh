#!/usr/bin/env bash
# Times sgfaudit against the tools people use, in one run, on the same corpus.
# sgfaudit and sgf-parse-only are timed as whole processes (reading the files
# included); the peers' figures are their own in-process loops over preloaded
# bytes (interpreter start-up excluded), which favours them.
#   benches/compare.sh [CORPUS_DIR]      (default: ../shared/corpus/real, else corpus/real)
# Installs sgfmill (PyPI, in a local venv) and @sabaki/sgf + @sabaki/go-board (npm,
# locally) under benches/.peers/ (git-ignored); commits nothing. Prints each figure
# (median of 5 whole-process runs; in-process timings for the peers' own loops) and
# the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-../shared/corpus/real}
[ -d "$CORPUS" ] || CORPUS=corpus/real
PEERS=benches/.peers
mkdir -p "$PEERS"

cargo build --release -q
cargo build --release -q --example sgf_parse_only

if [ ! -x "$PEERS/venv/bin/python" ]; then
  python3 -m venv "$PEERS/venv"
  "$PEERS/venv/bin/pip" install -q sgfmill==1.1.1
fi
if [ ! -d "$PEERS/node/node_modules/@sabaki/go-board" ]; then
  mkdir -p "$PEERS/node"
  (cd "$PEERS/node" && npm init -y >/dev/null && npm install -s @sabaki/sgf@3 @sabaki/go-board@1 >/dev/null)
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wall() { # median wall time of 5 runs of a command
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e" "$@" >/dev/null 2>>/tmp/sgfaudit-compare.$$ || true
    tail -n 1 /tmp/sgfaudit-compare.$$
  done | median
}

GAMES=$( (./target/release/sgfaudit check "$CORPUS" --format jsonl -q || true) | wc -l)
echo "corpus: $CORPUS ($GAMES games); machine: $(nproc) cores, $(uname -m)"
# Issue target: all three rulesets and scoring, dead stones from markup or none.
T1=$(wall ./target/release/sgfaudit check "$CORPUS" -q -j 1 --dead-stones markup)
TN=$(wall ./target/release/sgfaudit check "$CORPUS" -q -j 0 --dead-stones markup)
TA=$(wall ./target/release/sgfaudit check "$CORPUS" -q -j 1)
echo "sgfaudit check -j1 --dead-stones markup (all rulesets + scoring): $T1 s, $(echo "$GAMES / $T1" | bc) games/s"
echo "sgfaudit check -j$(nproc) --dead-stones markup: $TN s, $(echo "$GAMES / $TN" | bc) games/s, speed-up $(echo "scale=2; $T1 / $TN" | bc)x"
echo "sgfaudit check -j1 (default: markup, else estimated dead stones): $TA s, $(echo "$GAMES / $TA" | bc) games/s"
PARSE=$(wall ./target/release/examples/sgf_parse_only "$CORPUS")
echo "sgf-parse parse-only (whole process, same files): $PARSE s; sgfaudit -j1 / parse-only = $(echo "scale=2; $T1 / $PARSE" | bc)x"
SGFMILL=$(for _ in 1 2 3; do "$PEERS/venv/bin/python" benches/peers/sgfmill_replay.py "$CORPUS"; done | sed 's/.*moves, \([0-9.]*\) s.*/\1/' | median)
echo "sgfmill 1.1.1 parse+replay (simple ko, in-process): $SGFMILL s; sgfaudit -j1 is $(echo "scale=1; $SGFMILL / $T1" | bc)x faster"
SABAKI=$(for _ in 1 2 3; do NODE_PATH="$PEERS/node/node_modules" node benches/peers/sabaki_replay.js "$CORPUS"; done | sed 's/.*moves, \([0-9.]*\) s.*/\1/' | median)
echo "@sabaki/sgf + go-board parse+replay (in-process): $SABAKI s; sgfaudit -j1 is $(echo "scale=1; $SABAKI / $T1" | bc)x faster"
rm -f /tmp/sgfaudit-compare.$$
