#!/usr/bin/env python3
"""sprtstat.py NAME W0 L0 D0 [PGN ...]: NAME's W-L-D over the prior counts plus the PGNs,
trinomial logistic Elo +- 95%, and the SPRT LLR for normalized Elo elo0=0, elo1=10
(normal approximation: LLR = N (t1 - t0) (t - (t0 + t1) / 2), t = (mean - 0.5) / sd)."""
import math, re, sys
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
k = 800 / math.log(10)
t0, t1 = 0 / k, 10 / k
t = (s - 0.5) / math.sqrt(var)
llr = n * (t1 - t0) * (t - (t0 + t1) / 2)
print(f"{name}: {n} games, {w}-{l}-{d}, score {s:.4f}, Elo {elo(s):+.1f} +- {(elo(hi)-elo(lo))/2:.1f}, LLR {llr:.2f} (bounds -2.94, 2.94)")
