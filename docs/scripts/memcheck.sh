#!/usr/bin/env bash
# brokkr under valgrind's memcheck (Debian's `valgrind`), as Stockfish runs its
# tests under sanitizers and valgrind: a short bench, a perft suite on every
# slider backend, tablebase probes and a two-thread search. Any error memcheck
# reports fails the script (exit 1) and is shown.
#
#   docs/scripts/memcheck.sh [BROKKR]     (default target/release/brokkr)
#
# Valgrind emulates no AVX-512: brokkr's CPU check then finds none, and the
# network runs on its AVX2 path (the one it picks on such CPUs). About 10
# minutes on the 2-core development machine.
set -uo pipefail
cd "$(dirname "$0")/../.."
BROKKR=${1:-target/release/brokkr}
command -v valgrind >/dev/null || { echo "memcheck.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ -x "$BROKKR" ] || { echo "memcheck.sh: no engine at $BROKKR (cargo build --release)" >&2; exit 2; }
LOG=$(mktemp -d)
failed=0
run() {
  local name=$1; shift
  local t0=$SECONDS
  valgrind --tool=memcheck --error-exitcode=99 --track-origins=yes --quiet \
    --log-file="$LOG/$name.vg" "$@" > "$LOG/$name.out" 2>&1
  local rc=$?
  if [ $rc -eq 99 ] || [ -s "$LOG/$name.vg" ]; then
    echo "FAIL $name: memcheck reported errors:"; cat "$LOG/$name.vg"; failed=1
  elif [ $rc -ne 0 ]; then
    echo "FAIL $name: exit code $rc"; tail -5 "$LOG/$name.out"; failed=1
  else
    echo "ok   $name ($((SECONDS - t0)) s): $(grep -E 'Nodes searched|perft suite|bestmove' "$LOG/$name.out" | tail -1)"
  fi
}
# The search with the network and with the hand-written evaluation.
run bench-net "$BROKKR" bench 5
run bench-hce "$BROKKR" bench 4 --hce
# Move generation and make/unmake on every backend, counts checked.
for s in magic pext rotated kindergarten rayloop kogge-stone; do
  run "perft-$s" "$BROKKR" perft --epd tests/data/standard.epd --max-nodes 20000 --slider "$s"
done
run perft-qbb "$BROKKR" perft --epd tests/data/standard.epd --max-nodes 20000 --board qbb
# Syzygy probes (WDL and DTZ, at the root and in the search) and a two-thread
# search sharing the lock-free hash.
run syzygy "$BROKKR" "setoption name SyzygyPath value tests/data/syzygy" \
  "position fen 8/8/8/4k3/8/8/3KP3/8 w - - 0 1" "go depth 10" \
  "position fen 8/8/3k4/8/8/2B5/3KN3/8 w - - 0 1" "go depth 8" \
  "position fen 8/2k5/8/8/3K4/8/1P3B2/8 w - - 0 1" "go depth 8"
run threads "$BROKKR" "setoption name Threads value 2" "position startpos moves e2e4 c7c5" "go depth 9"
rm -rf "$LOG"
exit $failed
