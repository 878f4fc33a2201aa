#!/usr/bin/env python3
"""net-bias.py BROKKR PGN ENGINE [NET ...]: how far each net's static evaluation, and the
hand-written one, over- or under-rate the positions one engine reached in a match.

From a fastchess or cutechess PGN (move comments `{SCORE/DEPTH TIMEs ...}`) it takes the
quiet positions with ENGINE to move after move 12 (not in check, the last move no capture,
ENGINE's search score within 3 pawns), and evaluates each with BROKKR's `eval` under every
NET (a net file; `embedded` for the net built in; none given: the embedded one). For each
evaluation it fits a logistic scale K (win chance = 1 / (1 + exp(-cp / K))) to the games'
results in least squares, then prints:

  fit       K, the mean squared error against the results (lower predicts them better),
            and the bias: the mean of the predicted chance less the result, from ENGINE's
            side (positive: the evaluation rates ENGINE's positions above what the games
            made of them). A scale-free figure, so nets and the hand-written evaluation
            compare directly.
  material  by ENGINE's material against the other side's (1-3-3-5-9, two or more
            pawns lumped): the positions, the mean search score from the PGN, each
            evaluation's mean in pawns, and the mean result.

In self-play the bias is near zero by construction (each side steers away from what it
overrates for the other); against another engine it shows the positions a net steers into
that its opponent lets it have. Needs python-chess. It reads and judges nothing else."""
import importlib
import math
import subprocess
import sys
from collections import defaultdict

import chess
import chess.pgn

sys.path.insert(0, __file__.rsplit("/", 1)[0])
anatomy = importlib.import_module("match-anatomy")


def positions(path, engine):
    """(material bucket, search score, result for ENGINE, FEN) of the quiet positions."""
    out = []
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            if engine not in (game.headers.get("White"), game.headers.get("Black")):
                continue
            result = game.headers.get("Result")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            white = game.headers.get("White") == engine
            points = 0.5 if result == "1/2-1/2" else 1.0 if (result == "1-0") == white else 0.0
            for row in anatomy.moves(game, engine):
                ahead = anatomy.quiet_material(row)
                if ahead is not None:
                    out.append((ahead, row[1], points, row[4].fen()))
    return out


def evaluate(brokkr, net, fens):
    """The net's and the hand-written evaluation (cp, side to move) of each FEN."""
    proc = subprocess.Popen([brokkr, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    send = proc.stdin.write
    if net != "embedded":
        send(f"setoption name EvalFile value {net}\n")
    send("isready\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.startswith("info string") and ("error" in line or "cannot" in line):
            sys.exit(f"net-bias.py: {net}: {line.strip()}")
        if line.strip() == "readyok":
            break
    got = []
    for fen in fens:
        send(f"position fen {fen}\neval\n")
        proc.stdin.flush()
        nn = hce = None
        for line in proc.stdout:
            if line.startswith("Evaluation (side to move):"):
                nn = int(line.split(":")[1].split()[0])
            elif line.startswith("Hand-written (side to move):"):
                hce = int(line.split(":")[1].split()[0])
                break
            elif line.startswith("info string eval:"):
                sys.exit(f"net-bias.py: {line.strip()}")
        got.append((nn, hce))
    send("quit\n")
    proc.stdin.close()
    proc.wait()
    return got


def fit(cps, results):
    """The logistic scale K (cp) that best predicts the results, its error and bias."""
    def err(k):
        return sum((1 / (1 + math.exp(-c / k)) - r) ** 2 for c, r in zip(cps, results)) / len(cps)

    lo, hi = 50.0, 2000.0
    for _ in range(60):  # golden-section search; the error is unimodal in K here
        a, b = hi - (hi - lo) / 1.618, lo + (hi - lo) / 1.618
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    k = (lo + hi) / 2
    bias = sum(1 / (1 + math.exp(-c / k)) - r for c, r in zip(cps, results)) / len(cps)
    return k, err(k), bias


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    brokkr, path, engine, nets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:] or ["embedded"]
    rows = positions(path, engine)
    if not rows:
        sys.exit(f"net-bias.py: no quiet position of {engine} in {path}")
    fens = [r[3] for r in rows]
    results = [r[2] for r in rows]
    columns = {}
    for net in nets:
        got = evaluate(brokkr, net, fens)
        columns[net] = [n for n, _ in got]
        columns.setdefault("hand-written", [h for _, h in got])
    print(f"{len(rows)} quiet positions of {engine} in {path}")
    for name, cps in columns.items():
        k, e, b = fit(cps, results)
        print(f"fit {name}: K {k:.0f}, error {e:.5f}, bias {b:+.4f}")
    by = defaultdict(list)
    for i, r in enumerate(rows):
        by[r[0]].append(i)
    names = list(columns)
    print("material: positions, search score, " + ", ".join(names) + " (pawns), result")
    for ahead in sorted(by):
        idx = by[ahead]
        label = anatomy.material_label(ahead)
        evals = ", ".join(f"{sum(columns[n][i] for i in idx) / len(idx) / 100:+.3f}" for n in names)
        print(
            f"  {label}: {len(idx)}, {sum(rows[i][1] for i in idx) / len(idx):+.3f}, {evals},"
            f" {sum(rows[i][2] for i in idx) / len(idx):.3f}"
        )


if __name__ == "__main__":
    main()
