#!/usr/bin/env bash
# The 10s+0.1s confirmation of a feature row:
#   docs/scripts/confirm.sh FEATURE BROKKR GAMES OUT_DIR
# plays BROKKR (started as `uci --switches`) against itself with Feature_FEATURE=false
# on the second engine, 10s+0.1s, Hash 16, one thread, 8moves_v3 in random order with
# both colours, concurrency 2, GAMES games (even). FEATURE may name several switches
# joined by '+' (`Futility+IIR` switches both off), to confirm together a group whose
# members each passed their own row. The result is fastchess's summary at the end of
# OUT_DIR/confirm-FEATURE.log; `docs/scripts/sprtstat.py with 0 0 0 PGN` gives the
# W-L-D, Elo and LLR of OUT_DIR/confirm-FEATURE.pgn. Run from the repository's root,
# with ../shared beside it.
set -euo pipefail
f=$1 engine=$(realpath "$2") games=$3 out=$(realpath "$4")
shared=$(realpath ../shared)
off=()
for one in ${f//+/ }; do off+=("option.Feature_$one=false"); done
cd "$out"
"$shared/tools/fastchess.sh" \
  -engine cmd="$engine" args="uci --switches" name=with \
  -engine cmd="$engine" args="uci --switches" name=without "${off[@]}" \
  -each tc=10+0.1 option.Hash=16 option.Threads=1 -rounds $((games / 2)) -games 2 -repeat \
  -concurrency 2 -recover \
  -openings file="$shared/data/openings/8moves_v3.epd" format=epd order=random \
  -pgnout file="$out/confirm-$f.pgn" >"$out/confirm-$f.log" 2>&1
