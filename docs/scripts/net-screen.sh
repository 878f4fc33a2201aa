#!/usr/bin/env bash
# A candidate net against the shipped one, the way every generation is judged:
#   docs/scripts/net-screen.sh BROKKR NET LIMIT GAMES OUT_DIR
# plays BROKKR with `EvalFile=NET` against the same BROKKR with its embedded
# net (the one nets/DEFAULT names), Hash 8, one thread, 8moves_v3 in random
# order with both colours, concurrency 2, an SPRT elo0 = 0, elo1 = 5 capped at
# GAMES games (even); ELO1=10 in the environment sets the guide's upper bound
# instead (the bound a net ships by), so fastchess's own LLR is the verdict's.
# LIMIT is fastchess's: `nodes=5000` (a screen: the games do not depend on
# the load, so it may share the cores) or `tc=2+0.02` (the verdict that ships
# a net: alone on the cores).
#
# Always against the shipped net, never another candidate: generation 4's
# screens (docs/network.md) showed two chained screens overstating a net by
# about 20 Elo, each within its own ±14.5. And a lead at nodes=5000 (depth 8,
# the depth the data's labels come from) is no verdict: generation 5's
# 512-neuron net led by 26 ± 15 there and was -7 ± 13 at tc=2+0.02. The
# screen turns nets away; only the time control ships one.
#
# The summary ends OUT_DIR/screen-NAME-LIMIT.log (NAME: NET's file name
# without .nnue); the games are in the .pgn beside it. Run from the
# repository's root, with ../shared beside it.
set -euo pipefail
if [ $# -ne 5 ]; then
  sed -n '2,3p' "$0" >&2
  exit 2
fi
elo1=${ELO1:-5}
engine=$(realpath "$1") net=$(realpath "$2") limit=$3 games=$4 out=$(realpath "$5")
case "$limit" in
  nodes=[0-9]*) each=(tc=inf "$limit") ;;
  tc=*) each=("$limit") ;;
  *) echo "net-screen.sh: LIMIT is nodes=N or tc=T+I, not '$limit'" >&2; exit 2 ;;
esac
shared=$(realpath ../shared)
name=$(basename "$net" .nnue)
tag="screen-$name-${limit//[=+]/_}"
cd "$out"
"$shared/tools/fastchess.sh" \
  -engine cmd="$engine" name="$name" option.EvalFile="$net" \
  -engine cmd="$engine" name=shipped \
  -each "${each[@]}" option.Hash=8 option.Threads=1 -rounds $((games / 2)) -games 2 -repeat \
  -concurrency 2 -recover \
  -openings file="$shared/data/openings/8moves_v3.epd" format=epd order=random \
  -sprt elo0=0 elo1="$elo1" alpha=0.05 beta=0.05 \
  -pgnout file="$out/$tag.pgn" >"$out/$tag.log" 2>&1
tail -n 8 "$out/$tag.log"
