#!/usr/bin/env python3
"""Start-up time: wall time from spawning an engine to its answer, as a GUI sees it.

    cargo build --release && cargo build --release --example uci_stub
    python3 tests/python/startup.py target/release/brokkr target/release/examples/uci_stub \
        /usr/games/stockfish [--runs 20]
    python3 tests/python/startup.py ENGINE STUB --check 3 [--runs 21]

Measurements, each the median of RUNS spawns, the engines alternated within
every round so that the machine's noise falls on all of them alike:

* uciok: spawn, send `uci`, stop the clock at `uciok`;
* ready: spawn, send `uci` and `isready` at once, stop the clock at `readyok`;
* bestmove: spawn, send `uci`, `position startpos`, `go depth 1`, stop the clock at
  the first `bestmove` (not for the stub, which cannot search).

The first engine is the one compared: its medians are printed as ratios to the
others'. The goal: brokkr within 1.5x of the stub, and over 30x faster than
Stockfish.

With --check MAX, only the uciok measurement of ENGINE and STUB is made, its
ratio printed, and the exit code is 1 if ENGINE's median is more than MAX times
the stub's (tests/startup.rs runs it so, with MAX 3: twice the goal, so that a
loaded machine, which slows both alike, does not fail it, while a start-up that
builds tables or reads files does). Standard library only.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

UCIOK = (b"uci\n", b"uciok")
READY = (b"uci\nisready\n", b"readyok")
BESTMOVE = (b"uci\nposition startpos\ngo depth 1\n", b"bestmove")
TIMEOUT = 20.0


def spawn_until(cmd, send, want):
    """Seconds from spawning `cmd` to the first output line starting with `want`."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    try:
        p.stdin.write(send)
        buf = b""
        while True:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(f"{cmd[0]} closed its output before '{want.decode()}'")
            buf += chunk
            if any(line.startswith(want) for line in buf.split(b"\n")):
                elapsed = time.perf_counter() - start
                break
            if time.perf_counter() - start > TIMEOUT:
                raise RuntimeError(f"{cmd[0]}: no '{want.decode()}' within {TIMEOUT}s")
    finally:
        try:
            p.stdin.write(b"quit\n")
            p.stdin.close()
        except OSError:
            pass
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return elapsed


def measure(engines, what, runs):
    """RUNS samples of `what` for each engine, alternated within every round."""
    samples = {e: [] for e in engines}
    for _ in range(runs):
        for e in engines:
            samples[e].append(spawn_until([e], *what))
    return samples


def row(title, samples, engine, runs):
    """Print the medians and the ratios to `engine`'s; return the medians."""
    med = {e: statistics.median(s) for e, s in samples.items()}
    print(f"{title} (median of {runs}, ms; min..max)")
    for e, s in samples.items():
        print(f"  {med[e] * 1e3:8.3f}  ({min(s) * 1e3:.3f}..{max(s) * 1e3:.3f})  {e}")
    for e in samples:
        if e != engine:
            r = med[e] / med[engine]
            faster = f"{r:.1f}x faster" if r >= 1 else f"{1 / r:.2f}x slower"
            print(f"  {os.path.basename(engine)} vs {os.path.basename(e)}: "
                  f"{med[engine] / med[e]:.3f}x its time ({faster})")
    return med


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine", help="the engine measured (brokkr)")
    ap.add_argument("stub", help="a program that only answers uci/isready/quit")
    ap.add_argument("others", nargs="*", help="more engines to compare against (Stockfish)")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--check", type=float, metavar="MAX",
                    help="measure spawn-to-uciok only; fail if ENGINE takes over MAX times the stub's time")
    ap.add_argument("--ratio", action="store_true",
                    help="measure spawn-to-uciok only and print the ratio, failing never "
                         "(a figure, for a test suite that may run on a loaded machine)")
    args = ap.parse_args()
    if args.ratio:
        pair = [args.engine, args.stub]
        for e in pair:
            spawn_until([e], *UCIOK)
        med = row("spawn to uciok", measure(pair, UCIOK, args.runs), args.engine, args.runs)
        print(f"start-up ratio: {med[args.engine] / med[args.stub]:.2f}x the stub (goal 1.5x)")
        return 0
    if args.check is not None:
        pair = [args.engine, args.stub]
        # One spawn each first, so that neither pays for a cold page cache.
        for e in pair:
            spawn_until([e], *UCIOK)
        med = row("spawn to uciok", measure(pair, UCIOK, args.runs), args.engine, args.runs)
        ratio = med[args.engine] / med[args.stub]
        verdict = "ok" if ratio <= args.check else "FAIL"
        print(f"start-up ratio: {ratio:.2f}x the stub (goal 1.5x, fails beyond {args.check:g}x): {verdict}")
        return 0 if ratio <= args.check else 1
    engines = [args.engine, args.stub] + args.others
    row("spawn to uciok", measure(engines, UCIOK, args.runs), args.engine, args.runs)
    row("spawn to readyok", measure(engines, READY, args.runs), args.engine, args.runs)
    searching = [e for e in engines if e != args.stub]
    row("spawn to first bestmove at go depth 1", measure(searching, BESTMOVE, args.runs),
        args.engine, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
