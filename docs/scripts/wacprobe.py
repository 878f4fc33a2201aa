#!/usr/bin/env python3
"""An EPD suite through UCI, so the hidden search switches can be set:
    docs/scripts/wacprobe.py BROKKR EPD nodes=N|movetime=MS [Feature_X=false ...]
prints one line: the options, `solved S/T`, and the ids it missed (without the
`WAC.` prefix). `brokkr epd` runs a suite faster but has no flag for the
`Feature_*` switches; this starts `BROKKR uci --switches`, sets each option
given, and plays each position after `ucinewgame` (a fresh hash, as `epd`
does). With `nodes=` and one thread the answer is the same on every run; two
runs on the two halves of a suite (odd and even lines) use both cores, as
docs/scripts/wac.sh does. Needs python-chess (for the SAN of `bm`)."""
import subprocess
import sys

import chess

if len(sys.argv) < 4 or sys.argv[3].split("=")[0] not in ("nodes", "movetime"):
    sys.exit(__doc__)
engine, suite, limit = sys.argv[1], sys.argv[2], sys.argv[3].replace("=", " ")
proc = subprocess.Popen([engine, "uci", "--switches"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def wait_for(prefix):
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"wacprobe: {engine} ended before `{prefix}`")
        if line.startswith(prefix):
            return line


send("uci")
wait_for("uciok")
for option in sys.argv[4:]:
    name, value = option.split("=", 1)
    send(f"setoption name {name} value {value}")
solved, total, missed = 0, 0, []
for number, line in enumerate(open(suite), 1):
    if not line.strip() or line.startswith("#"):
        continue
    try:
        board, ops = chess.Board.from_epd(line)
    except ValueError as e:
        print(f"wacprobe: {suite} line {number} skipped: {e}", file=sys.stderr)
        continue
    send("ucinewgame")
    send("isready")
    wait_for("readyok")
    send(f"position fen {board.fen()}")
    send(f"go {limit}")
    move = chess.Move.from_uci(wait_for("bestmove").split()[1])
    total += 1
    # Solved as `brokkr epd` counts it: one of the bm moves, if there are any,
    # and none of the am moves.
    best = ops.get("bm", [])
    if (not best or move in best) and move not in ops.get("am", []):
        solved += 1
    else:
        missed.append(str(ops.get("id", f"line {total}")).replace("WAC.", ""))
send("quit")
label = " ".join(sys.argv[4:]) or "defaults"
print(f"{label}: solved {solved}/{total}; missed {' '.join(missed)}")
