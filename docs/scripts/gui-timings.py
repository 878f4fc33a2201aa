#!/usr/bin/env python3
"""Two timings a GUI feels, brokkr beside another UCI engine (Stockfish), in one run.

    docs/scripts/gui-timings.py BROKKR OTHER [--runs 5] [--hash 4096] [--threads 1,2,64,256]

1. `setoption name Hash value MB` then `isready`: the time to `readyok` (the
   table allocated and cleared).
2. `go movetime 300` from the start position at each Threads count: the time
   from `go` to `bestmove` (what the GUI's clock sees; above 300 ms is overrun).

The engines alternate run by run (A B A B ...), so a load that comes and goes
falls on both; each figure is the median of the runs, with the range.
"""
import argparse
import statistics
import subprocess
import time


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            if line.split()[:1] == [word]:
                return line

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=60)


def hash_time(cmd, mb):
    e = Engine(cmd)
    start = time.monotonic()
    e.send(f"setoption name Hash value {mb}")
    e.send("isready")
    e.until("readyok")
    t = time.monotonic() - start
    e.quit()
    return t


def movetime_reply(cmd, threads):
    e = Engine(cmd)
    e.send(f"setoption name Threads value {threads}")
    e.send("isready")
    e.until("readyok")
    e.send("position startpos")
    start = time.monotonic()
    e.send("go movetime 300")
    e.until("bestmove")
    t = time.monotonic() - start
    e.quit()
    return t


def show(label, times):
    ms = sorted(1000 * t for t in times)
    return f"{label}: median {statistics.median(ms):.0f} ms ({ms[0]:.0f}..{ms[-1]:.0f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brokkr")
    ap.add_argument("other")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--hash", type=int, default=4096)
    ap.add_argument("--threads", default="1,2,64,256")
    args = ap.parse_args()
    engines = [args.brokkr, args.other]
    times = {e: [] for e in engines}
    for _ in range(args.runs):
        for e in engines:
            times[e].append(hash_time(e, args.hash))
    print(f"Hash {args.hash} + isready, time to readyok ({args.runs} runs each, alternated)")
    for e in engines:
        print("  " + show(e, times[e]))
    for threads in [int(t) for t in args.threads.split(",")]:
        times = {e: [] for e in engines}
        for _ in range(args.runs):
            for e in engines:
                times[e].append(movetime_reply(e, threads))
        print(f"Threads {threads}, go movetime 300: time from go to bestmove")
        for e in engines:
            print("  " + show(e, times[e]))


if __name__ == "__main__":
    main()
