#!/usr/bin/env bash
# One game of brokkr against Fairy-Max in Debian's XBoard as installed, under Xvfb: the stock
# configuration (/etc/xboard/xboard.conf, which sends `egtpath syzygy /EGT/Syzygy` at start-up),
# no settings of the user's. Prints the game's result; exits non-zero if XBoard did not start
# brokkr or the game has no result.
#
#   docs/scripts/xboard-stock.sh [BROKKR] [OUT_DIR]       (defaults: target/release/brokkr, a temp dir)
#
# Needs Debian's xboard, xvfb and fairymax (apt-get install -y xboard xvfb fairymax). XBoard
# saves its settings to ~/.xboardrc at exit and reads them at start, finding the home folder
# through the password file rather than $HOME; a saved file with other settings would hide a
# fault of the stock start, so it is set aside for the run and put back after it.
set -euo pipefail
brokkr=$(realpath "${1:-target/release/brokkr}")
out=${2:-$(mktemp -d)}
mkdir -p "$out"
out=$(realpath "$out")
# Debian installs the engines and XBoard in /usr/games, which a root shell may not have.
export PATH="$PATH:/usr/games"
xboard=$(command -v xboard)
rc="$(getent passwd "$(id -un)" | cut -d: -f6)/.xboardrc"
aside="$rc.brokkr-xboard-stock"
if [ -e "$rc" ]; then
  mv "$rc" "$aside"
  trap 'rm -f "$rc"; mv "$aside" "$rc"' EXIT
else
  trap 'rm -f "$rc"' EXIT
fi
# A one-game match (-mg 1), 1 minute a side, brokkr White. XBoard writes the game to -sgf when it
# ends but stays open, so the script watches that file and ends XBoard then (or after 400 s).
xvfb-run -a "$xboard" \
  -fcp "$brokkr xboard" -fd "$(dirname "$brokkr")" -scp fairymax \
  -mg 1 -tc 1 -inc 0 -sgf "$out/game.pgn" \
  -debug -nameOfDebugFile "$out/xboard.debug" >"$out/xboard.out" 2>&1 &
run=$!
for _ in $(seq 200); do
  sleep 2
  grep -q '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$out/game.pgn" 2>/dev/null && break
  grep -q "Failed to start" "$out/xboard.debug" "$out/xboard.out" 2>/dev/null && break
  kill -0 "$run" 2>/dev/null || break
done
pkill -P "$run" 2>/dev/null || true
kill "$run" 2>/dev/null || true
wait "$run" 2>/dev/null || true
if grep -q "Failed to start" "$out/xboard.debug" "$out/xboard.out" 2>/dev/null; then
  echo "XBoard failed to start an engine:" >&2
  grep -h "Failed to start" "$out/xboard.debug" "$out/xboard.out" >&2
  exit 1
fi
if ! grep -q '>first *: egtpath syzygy /EGT/Syzygy' "$out/xboard.debug"; then
  echo "XBoard did not send egtpath: not the stock configuration? ($out/xboard.debug)" >&2
  exit 1
fi
result=$(grep -o '^\[Result "[^"]*"\]' "$out/game.pgn" 2>/dev/null | head -1 | cut -d'"' -f2 || true)
case "$result" in
  1-0|0-1|1/2-1/2)
    plies=$(grep -c '<first *: move\|<second *: move' "$out/xboard.debug" || true)
    echo "XBoard (stock configuration) played brokkr against Fairy-Max to a result: $result ($plies engine moves; $out)"
    ;;
  *)
    echo "no result in $out/game.pgn (XBoard's log: $out/xboard.debug)" >&2
    exit 1
    ;;
esac
