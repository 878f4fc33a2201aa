#!/usr/bin/env python3
"""sprtstat.py NAME W0 L0 D0 [PGN ...]: NAME's W-L-D over the prior counts plus the PGNs,
trinomial logistic Elo +- 95%, and the SPRT LLR for normalized Elo elo0=0, elo1=10
(normal approximation: LLR = N (t1 - t0) (t - (t0 + t1) / 2), t = (mean - 0.5) / sd).

sprtstat.py --ptnml P0,P1,P2,P3,P4 [ELO1]: the same LLR from fastchess's pentanomial
(game pairs scoring 0, 0.5, 1, 1.5, 2), N the pairs and t per pair, as fastchess's
normalized SPRT computes it, for elo0=0 and elo1=ELO1 (default 10); fastchess prints
its own LLR only for the bounds the run was started with."""
import math, re, sys

K = 800 / math.log(10)


def llr(n, t, elo1, scale=1.0):
    """The normal approximation's LLR for elo0 = 0, elo1 (normalized Elo) over n samples."""
    t0, t1 = 0.0, elo1 * scale / K
    return n * (t1 - t0) * (t - (t0 + t1) / 2)


if sys.argv[1:2] == ["--ptnml"]:
    p = list(map(int, sys.argv[2].split(",")))
    elo1 = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    n = sum(p)
    scores = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(s * c for s, c in zip(scores, p)) / n
    sd = math.sqrt(sum(c * (s - mean) ** 2 for s, c in zip(scores, p)) / n)
    t = (mean - 0.5) / sd
    # A pair's sd is sqrt(2) times a game's for the same normalized Elo.
    print(f"{n} pairs, score {mean:.4f}, nElo {t * K / math.sqrt(2):+.2f}, "
          f"LLR {llr(n, t, elo1, math.sqrt(2)):.2f} for elo0=0 elo1={elo1:g} (bounds -2.94, 2.94)")
    sys.exit(0)

name = sys.argv[1]; w, l, d = map(int, sys.argv[2:5])
for f in sys.argv[5:]:
    txt = open(f, errors="replace").read()
    for game in txt.split("[Event ")[1:]:
        wh = re.search(r'\[White "([^"]*)"', game).group(1)
        res = re.search(r'\[Result "([^"]*)"', game).group(1)
        if res == "1/2-1/2": d += 1
        elif res in ("1-0", "0-1"):
            if (res == "1-0") == (wh == name): w += 1
            else: l += 1
n = w + l + d
s = (w + 0.5 * d) / n
var = (w * (1 - s) ** 2 + l * s ** 2 + d * (0.5 - s) ** 2) / n
elo = lambda p: -400 * math.log10(1 / p - 1)
se = math.sqrt(var / n)
lo, hi = s - 1.96 * se, s + 1.96 * se
t = (s - 0.5) / math.sqrt(var)
print(f"{name}: {n} games, {w}-{l}-{d}, score {s:.4f}, Elo {elo(s):+.1f} +- {(elo(hi)-elo(lo))/2:.1f}, LLR {llr(n, t, 10):.2f} (bounds -2.94, 2.94)")
