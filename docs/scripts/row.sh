#!/usr/bin/env bash
# A feature row as a sequential test, resumable across sessions:
#   docs/scripts/row.sh FEATURE BROKKR W0 L0 D0 OUT_DIR
# plays BROKKR (started as `uci --switches`) against itself with Feature_FEATURE=false
# on the second engine, 2s+0.02s, Hash 8, one thread, 8moves_v3 in random order with
# both colours, concurrency 2, and stops when the LLR over the earlier counts W0-L0-D0
# (0 0 0 for a new row) plus the new games leaves [-2.94, 2.94], or at 3,000 games in
# all. Every 20 s OUT_DIR/row-FEATURE.status gets the line of docs/scripts/sprtstat.py.
# Run from the repository's root, with ../shared beside it. fastchess writes its state
# (config.json) into the directory it runs in, so it runs in OUT_DIR.
set -euo pipefail
f=$1 engine=$(realpath "$2") w0=$3 l0=$4 d0=$5 out=$(realpath "$6")
here=$(cd "$(dirname "$0")" && pwd)
shared=$(realpath ../shared)
cd "$out"
left=$((3000 - w0 - l0 - d0))
pgn=$out/row-$f.pgn
status=$out/row-$f.status
"$shared/tools/fastchess.sh" \
  -engine cmd="$engine" args="uci --switches" name=with \
  -engine cmd="$engine" args="uci --switches" name=without option.Feature_$f=false \
  -each tc=2+0.02 option.Hash=8 option.Threads=1 -rounds $((left / 2)) -games 2 -repeat \
  -concurrency 2 -recover \
  -openings file="$shared/data/openings/8moves_v3.epd" format=epd order=random \
  -pgnout file="$pgn" >"$out/row-$f.log" 2>&1 &
runner=$!
while kill -0 $runner 2>/dev/null; do
  sleep 20
  [ -f "$pgn" ] || continue
  line=$(python3 "$here/sprtstat.py" with "$w0" "$l0" "$d0" "$pgn") || continue
  echo "$(date +%T) $line" >"$status"
  llr=$(echo "$line" | sed 's/.*LLR \([-0-9.]*\).*/\1/')
  if python3 -c "import sys; sys.exit(0 if abs($llr) >= 2.94 else 1)"; then
    kill $runner
    echo "$(date +%T) ended: $line" >>"$status"
    break
  fi
done
wait || true
