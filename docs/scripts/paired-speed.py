#!/usr/bin/env python3
"""Compare the speed of two commands in interleaved pairs, with a 95% interval.

    docs/scripts/paired-speed.py --rounds 9 --metric time \\
        brokkr 'target/release/brokkr perft 7' \\
        stockfish '/usr/games/stockfish' --stdin-b 'position startpos\\ngo perft 7\\nquit\\n'
    docs/scripts/paired-speed.py --rounds 15 --metric nps \\
        brokkr 'target/release/brokkr bench' ethereal '/usr/games/ethereal-chess bench'

Each round runs both commands once, in alternating order (A B, then B A, ...), so a
change of load reaches both alike, and takes the ratio of A's speed to B's in that
round: B's time over A's (`--metric time`: the child's user + system CPU seconds, as
`time` reports them), or A's nodes per second over B's (`--metric nps`: the last
"Nodes/second: N", "N nps" or "NPS : N" line in the output, stdout and stderr together).
Prints every round, then the median ratio with a distribution-free 95% interval from
order statistics (the method `brokkr paths` uses: with fewer than 6 rounds the
interval is the whole range, which covers the median less often than 95%).
Python 3 standard library only.
"""

import argparse
import re
import resource
import shlex
import subprocess
import sys

# The summary line first (brokkr's, then Ethereal's and others' "NPS : N"); an
# engine's `info ... nps N` lines only where there is no summary.
NPS = [
    re.compile(r"Nodes/second:\s*(\d+)"),
    re.compile(r"^\s*nps[ \t]*:[ \t]*(\d+)", re.I | re.M),
    re.compile(r"(\d+)[ \t]+nps\b", re.I),
]


def run(cmd, stdin, metric):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(
        shlex.split(cmd),
        input=stdin.encode() if stdin else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"paired-speed: '{cmd}' exited with {p.returncode}:\n{p.stdout.decode(errors='replace')[-2000:]}")
    if metric == "time":
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = p.stdout.decode(errors="replace")
    for pattern in NPS:
        found = pattern.findall(out)
        if found:
            return float(found[-1])
    sys.exit(f"paired-speed: no nodes-per-second figure in the output of '{cmd}':\n{out[-2000:]}")


def interval_ranks(n):
    """(k, n-1-k): the largest k with P(Binomial(n, 1/2) <= k) <= 2.5%, at least 0."""
    k, cum, pmf = 0, 0.0, 0.5**n
    for j in range(n):
        cum += pmf
        if cum > 0.025:
            break
        k = j
        pmf *= (n - j) / (j + 1)
    k = min(k, (max(n, 1) - 1) // 2)
    return k, max(n, 1) - 1 - k


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("name_a")
    p.add_argument("cmd_a")
    p.add_argument("name_b")
    p.add_argument("cmd_b")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--metric", choices=["time", "nps"], default="time")
    p.add_argument("--stdin-a", default="", help="text for A's standard input (\\n for newlines)")
    p.add_argument("--stdin-b", default="", help="text for B's standard input")
    a = p.parse_args()
    if a.rounds < 1:
        sys.exit("paired-speed: --rounds must be at least 1")
    stdin = {"a": a.stdin_a.encode().decode("unicode_escape"), "b": a.stdin_b.encode().decode("unicode_escape")}
    cmds = {"a": a.cmd_a, "b": a.cmd_b}
    values = {"a": [], "b": []}
    ratios = []
    for r in range(a.rounds):
        order = ["a", "b"] if r % 2 == 0 else ["b", "a"]
        got = {}
        for side in order:
            got[side] = run(cmds[side], stdin[side], a.metric)
            values[side].append(got[side])
        ratio = got["b"] / got["a"] if a.metric == "time" else got["a"] / got["b"]
        ratios.append(ratio)
        unit = "s" if a.metric == "time" else " nps"
        print(f"round {r + 1}: {a.name_a} {got['a']:.6g}{unit}, {a.name_b} {got['b']:.6g}{unit}, ratio {ratio:.3f}", flush=True)
    lo, hi = interval_ranks(len(ratios))
    s = sorted(ratios)
    print(
        f"{a.name_a} against {a.name_b}: {median(ratios):.3f}x (median of {len(ratios)} rounds, "
        f"95% interval {s[lo]:.3f} to {s[hi]:.3f}); medians {a.name_a} {median(values['a']):.6g}, "
        f"{a.name_b} {median(values['b']):.6g} ({'CPU seconds' if a.metric == 'time' else 'nodes/s'})"
    )


if __name__ == "__main__":
    main()
