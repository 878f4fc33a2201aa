#!/usr/bin/env bash
# Win At Chess at a fixed time a position, as the figures in docs/strength.md
# and docs/network.md were taken: the 300 positions in two halves (the odd and
# the even lines), one `brokkr epd` per core at once, one thread each.
#   docs/scripts/wac.sh BROKKR [MOVETIME_MS] [more epd options, e.g. --net F.nnue]
# prints every miss, then `solved S/300`. Run it on an otherwise idle
# two-core machine: at a fixed time the count moves with the speed.
set -euo pipefail
engine=$1
movetime=${2:-1000}
shift $(($# < 2 ? $# : 2))
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
wac=$root/../shared/data/tactics/wac.epd
[ -f "$wac" ] || { echo "wac.sh: no $wac" >&2; exit 1; }
dir=$(mktemp -d)
awk 'NR % 2 == 1' "$wac" >"$dir/a.epd"
awk 'NR % 2 == 0' "$wac" >"$dir/b.epd"
"$engine" epd "$dir/a.epd" --movetime "$movetime" "$@" >"$dir/a.out" 2>&1 &
a=$!
"$engine" epd "$dir/b.epd" --movetime "$movetime" "$@" >"$dir/b.out" 2>&1 &
# A half that fails would leave a short count: say so instead.
wait "$a" || { cat "$dir/a.out" >&2; exit 1; }
wait $! || { cat "$dir/b.out" >&2; exit 1; }
grep -h '^miss' "$dir/a.out" "$dir/b.out" | sort
awk '/^solved/ { split($2, f, "/"); s += f[1]; t += f[2] } END { printf "solved %d/%d\n", s, t }' \
  "$dir/a.out" "$dir/b.out"
rm -r "$dir"
