#!/usr/bin/env bash
# The search-speed table of docs/speed.md in one run:
#   docs/scripts/bench-table.sh BROKKR ROUNDS
# runs `BROKKR bench` (depth 11, one thread) for each built (bit path, backend) pair,
# each vector path, and the hand-written evaluation, then Ethereal 12's `bench`
# (/usr/games/ethereal-chess), ROUNDS times in turn, so that load drifts hit every
# line alike; then prints each line's median in million nodes per second, its ratio
# to Ethereal's, and every run. Run it on an otherwise idle machine.
set -euo pipefail
engine=$1 rounds=$2
lines=("--bits bmi --slider pext" "--bits bmi --slider magic" "--bits bmi --slider rotated"
  "--bits bmi --slider kindergarten" "--bits bmi --slider rayloop"
  "--bits portable --slider magic" "--bits asm --slider magic" "--bits table --slider magic"
  "--bits extern --slider magic" "--bits extern-bmi --slider magic"
  "--simd avx2" "--simd sse2" "--simd portable" "--hce" "ethereal")
runs=$(mktemp)
for _ in $(seq "$rounds"); do
  for line in "${lines[@]}"; do
    if [ "$line" = ethereal ]; then
      nps=$(/usr/games/ethereal-chess bench 2>&1 | awk '/^NPS/ {print $3}')
    else
      # shellcheck disable=SC2086 # the line is several arguments
      nps=$("$engine" bench $line 2>&1 | awk '/Nodes\/second/ {print $2}')
    fi
    echo "$line|$nps" >>"$runs"
  done
done
python3 - "$runs" <<'PY'
import statistics, sys
runs = {}
for row in open(sys.argv[1]):
    line, nps = row.rstrip("\n").split("|")
    if nps:
        runs.setdefault(line, []).append(int(nps))
ethereal = statistics.median(runs.get("ethereal", [0])) or float("nan")
for line, values in runs.items():
    median = statistics.median(values)
    print(f"{line:36} {median / 1e6:6.3f} Mnps  {median / ethereal:5.2f}x  {values}")
PY
rm -f "$runs"
