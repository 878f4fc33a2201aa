#!/usr/bin/env python3
"""Start-up time: wall time from spawning an engine to its answer, as a GUI sees it.

    cargo build --release && cargo build --release --example uci_stub
    python3 tests/python/startup.py target/release/brokkr target/release/examples/uci_stub \
        /usr/games/stockfish [--runs 20]

Two measurements, each the median of RUNS spawns, the engines alternated within
every round so that the machine's noise falls on all of them alike:

* ready: spawn, send `uci` and `isready` at once, stop the clock at `readyok`;
* bestmove: spawn, send `uci`, `position startpos`, `go depth 1`, stop the clock at
  the first `bestmove` (not for the stub, which cannot search).

The first engine is the one compared: its medians are printed as ratios to the
others'. The issue's goal: brokkr within 1.5x of the stub, and over 30x faster
than Stockfish. Standard library only (no python-chess needed).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine", help="the engine measured (brokkr)")
    ap.add_argument("stub", help="a program that only answers uci/isready/quit")
    ap.add_argument("others", nargs="*", help="more engines to compare against (Stockfish)")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    engines = [args.engine, args.stub] + args.others
    ready = {e: [] for e in engines}
    best = {e: [] for e in engines if e != args.stub}
    for _ in range(args.runs):
        for e in engines:
            ready[e].append(spawn_until([e], *READY))
        for e in best:
            best[e].append(spawn_until([e], *BESTMOVE))

    def row(what, samples):
        med = {e: statistics.median(s) for e, s in samples.items()}
        print(f"{what} (median of {args.runs}, ms; min..max)")
        for e, s in samples.items():
            print(f"  {med[e] * 1e3:8.3f}  ({min(s) * 1e3:.3f}..{max(s) * 1e3:.3f})  {e}")
        for e in samples:
            if e != args.engine:
                r = med[e] / med[args.engine]
                faster = f"{r:.1f}x faster" if r >= 1 else f"{1 / r:.2f}x slower"
                print(f"  {os.path.basename(args.engine)} vs {os.path.basename(e)}: "
                      f"{med[args.engine] / med[e]:.3f}x its time ({faster})")
        return med

    row("spawn to readyok", ready)
    row("spawn to first bestmove at go depth 1", best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
