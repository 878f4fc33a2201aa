#!/usr/bin/env bash
# One game of brokkr against Fairy-Max in Debian's XBoard as installed, under Xvfb: the stock
# configuration (/etc/xboard/xboard.conf, which sends `egtpath syzygy /EGT/Syzygy` at start-up),
# no settings of the user's. Prints the game's result; exits non-zero if XBoard did not start
# brokkr, brokkr's side of the pipe failed, or the game has no result with at least MIN_MOVES
# moves by each engine (a game Fairy-Max left early says nothing of brokkr). A game in which
# XBoard lost Fairy-Max ("... second chess program") is played again, up to three tries.
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
# Debian's Fairy-Max 5.0b crashes (SIGSEGV) in its next search after a command it does not know
# about half the time, and XBoard sends it one in every engine-engine game (`computer`, and
# `result` at the end). Measured: 7 of 10 runs of XBoard's opening lines crashed as sent, 0 of 20
# with those lines dropped; any unknown word (`foo`) does it too. So Fairy-Max reads XBoard through
# a filter that drops them: a script, as XBoard splits -scp itself, and `exec` keeps Fairy-Max's
# own process id, to which XBoard sends its interrupts. brokkr gets XBoard's lines as they are.
fairymax="$out/fairymax-filtered"
cat >"$fairymax" <<'EOF'
#!/usr/bin/env bash
exec fairymax < <(exec grep --line-buffered -v -e '^computer$' -e '^result ')
EOF
chmod +x "$fairymax"
# Each engine must make this many moves: a result alone is not a game (one run ended 1-0 after
# 1.e4 because Fairy-Max had gone).
MIN_MOVES=10
STALL=90

# One try: a one-game match (-mg 1), 1 minute a side, brokkr White, written to $1. XBoard writes
# the game to -sgf when it ends but stays open, so the loop watches that file and ends XBoard then
# (or after 400 s).
play() {
  local dir=$1
  mkdir -p "$dir"
  xvfb-run -a "$xboard" \
    -fcp "$brokkr xboard" -fd "$(dirname "$brokkr")" -scp "$fairymax" \
    -mg 1 -tc 1 -inc 0 -sgf "$dir/game.pgn" \
    -debug -nameOfDebugFile "$dir/xboard.debug" >"$dir/xboard.out" 2>&1 &
  local run=$!
  # A game stalls when an engine dies while it is to move: XBoard, without -autoCallFlag, waits
  # for its move forever. With 1 minute a side no move takes STALL seconds, so a game with no new
  # move for that long has stalled, and the side to move is the one that went.
  local moves last=0 seen=0
  stalled=false
  for i in $(seq 200); do
    sleep 2
    moves=$(grep -c '<\(first\|second\) *: move' "$dir/xboard.debug" 2>/dev/null || true)
    if [ "$moves" != "$seen" ]; then
      seen=$moves last=$i
    elif [ $(((i - last) * 2)) -ge $STALL ]; then
      stalled=true
      break
    fi
    grep -q '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$dir/game.pgn" 2>/dev/null && break
    grep -q "Failed to start" "$dir/xboard.debug" "$dir/xboard.out" 2>/dev/null && break
    # XBoard lost an engine ("Error writing to second chess program", "... exited"): the game
    # will not go on, so there is no need to wait for the timeout.
    grep -qi "chess program" "$dir/xboard.debug" "$dir/xboard.out" 2>/dev/null && break
    kill -0 "$run" 2>/dev/null || break
  done
  # End the whole tree: xvfb-run, Xvfb, XBoard and both engines. XBoard showing an error dialog
  # outlives a TERM to xvfb-run, and its engines (brokkr pondering) would go on using the cores.
  local pids
  pids=$(descendants "$run")
  kill $pids "$run" 2>/dev/null || true
  sleep 2
  kill -9 $pids "$run" 2>/dev/null || true
  wait "$run" 2>/dev/null || true
}

# Every process below $1.
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}

for try in 1 2 3; do
  dir="$out/try$try"
  play "$dir"
  logs=("$dir/xboard.debug" "$dir/xboard.out")
  if grep -q "Failed to start" "${logs[@]}" 2>/dev/null; then
    echo "XBoard failed to start an engine:" >&2
    grep -h "Failed to start" "${logs[@]}" >&2
    exit 1
  fi
  if ! grep -q '>first *: egtpath syzygy /EGT/Syzygy' "$dir/xboard.debug"; then
    echo "XBoard did not send egtpath: not the stock configuration? ($dir/xboard.debug)" >&2
    exit 1
  fi
  # XBoard names the engines "first" (brokkr) and "second" (Fairy-Max) in its errors.
  if grep -qi "first chess program" "${logs[@]}" 2>/dev/null; then
    echo "XBoard lost brokkr:" >&2
    grep -hi "first chess program" "${logs[@]}" >&2
    exit 1
  fi
  if grep -qi "second chess program" "${logs[@]}" 2>/dev/null; then
    echo "try $try: XBoard lost Fairy-Max ($(grep -hi "second chess program" "${logs[@]}" | head -1)); playing again" >&2
    continue
  fi
  ours=$(grep -c '<first *: move' "$dir/xboard.debug" || true)
  theirs=$(grep -c '<second *: move' "$dir/xboard.debug" || true)
  if $stalled; then
    # brokkr plays White: with as many moves each, it was brokkr's turn.
    if [ "$ours" -le "$theirs" ]; then
      echo "brokkr made no move for $STALL s (after $ours of its moves; $dir/xboard.debug)" >&2
      exit 1
    fi
    echo "try $try: Fairy-Max made no move for $STALL s (after $theirs of its moves); playing again" >&2
    continue
  fi
  result=$(grep -o '^\[Result "[^"]*"\]' "$dir/game.pgn" 2>/dev/null | head -1 | cut -d'"' -f2 || true)
  case "$result" in
    1-0|0-1|1/2-1/2) ;;
    *)
      echo "no result in $dir/game.pgn (XBoard's log: $dir/xboard.debug)" >&2
      exit 1
      ;;
  esac
  if [ "$ours" -lt "$MIN_MOVES" ] || [ "$theirs" -lt "$MIN_MOVES" ]; then
    echo "the game ended $result after $ours moves of brokkr's and $theirs of Fairy-Max's (fewer than $MIN_MOVES): not a game ($dir/xboard.debug)" >&2
    exit 1
  fi
  echo "XBoard (stock configuration) played brokkr against Fairy-Max to a result: $result ($ours moves by brokkr, $theirs by Fairy-Max; $dir)"
  exit 0
done
echo "Fairy-Max failed in each of 3 tries ($out)" >&2
exit 1
