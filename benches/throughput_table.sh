#!/usr/bin/env bash
# The throughput table of reports/performance.md: games per second of the
# whole process at -j1 and -j2, --dead-stones markup and default, on
#   - a directory: ../shared/corpus/real and ../shared/corpus/kgs-scored when
#     present, else corpus/;
#   - one collection file of many games (every game of the directory, repeated
#     to about 20,000 games);
#   - the directory as .zip, .tar.gz, .tar.bz2, .tar.xz, .tar.zst (zstd -19)
#     and .7z (LZMA2, solid) archives (.tar.zst and .7z when the zstd and 7z
#     programs are installed).
# Medians of 5 runs with /usr/bin/time; peak RSS of the last. Generated files
# go to a temporary directory. Usage: bash benches/throughput_table.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
B=./target/release/sgfaudit
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DIRS=()
for d in ../shared/corpus/real ../shared/corpus/kgs-scored; do [ -d "$d" ] && DIRS+=("$d"); done
[ ${#DIRS[@]} -eq 0 ] && DIRS=(corpus)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() { # label, games, args...
  local label=$1 games=$2; shift 2
  for j in 1 2; do
    for mode in markup default; do
      local extra=()
      [ "$mode" = markup ] && extra=(--dead-stones markup)
      local t
      t=$(for _ in 1 2 3 4 5; do
        /usr/bin/time -f "%e %M" "$B" check -q -j "$j" "${extra[@]}" "$@" >/dev/null 2>"$TMP/time" || true
        tail -n 1 "$TMP/time" | cut -d' ' -f1
      done | median)
      local rss
      rss=$(tail -n 1 "$TMP/time" | cut -d' ' -f2)
      echo "| $label | $mode | -j$j | $t s | $(echo "$games / $t" | bc) | $((rss / 1024)) MB |"
    done
  done
}

echo "| input | dead stones | jobs | time | games/s | peak RSS |"
echo "| --- | --- | --- | --- | --- | --- |"
for d in "${DIRS[@]}"; do
  GAMES=$( ("$B" check "$d" --format jsonl -q || true) | wc -l)
  measure "$d ($GAMES games)" "$GAMES" "$d"
  name=$(basename "$d")
  (cd "$(dirname "$d")" && zip -qr "$TMP/$name.zip" "$name" && tar -czf "$TMP/$name.tar.gz" "$name" \
    && tar -cjf "$TMP/$name.tar.bz2" "$name" && tar -cJf "$TMP/$name.tar.xz" "$name")
  kinds=(zip tar.gz tar.bz2 tar.xz)
  if command -v zstd >/dev/null; then
    (cd "$(dirname "$d")" && tar -cf - "$name" | zstd -q -19 -o "$TMP/$name.tar.zst")
    kinds+=(tar.zst)
  fi
  if command -v 7z >/dev/null; then
    (cd "$(dirname "$d")" && 7z a -bd -t7z -m0=lzma2 -ms=on "$TMP/$name.7z" "$name" >/dev/null)
    kinds+=(7z)
  fi
  for kind in "${kinds[@]}"; do
    measure "$name.$kind" "$GAMES" "$TMP/$name.$kind"
  done
done
# One collection file of about 20,000 games.
d=${DIRS[-1]}
find "$d" -iname '*.sgf' -print0 | sort -z | xargs -0 cat > "$TMP/one.sgf"
n=$( ("$B" check "$TMP/one.sgf" --format jsonl -q || true) | wc -l)
rep=$(( (20000 + n - 1) / n ))
for _ in $(seq "$rep"); do cat "$TMP/one.sgf"; done > "$TMP/collection.sgf"
GAMES=$( ("$B" check "$TMP/collection.sgf" --format jsonl -q || true) | wc -l)
measure "one file of $GAMES games ($(du -m "$TMP/collection.sgf" | cut -f1) MB)" "$GAMES" "$TMP/collection.sgf"
