#!/usr/bin/env python3
"""Write tests/data/random.perft: random legal positions counted by Stockfish.

    python3 tests/data/make_random_perft.py [COUNT] [SEED] > tests/data/random.perft

The positions come from brokkr's own move generator (the `random_positions`
example: random legal games from the start position and from Chess960 starts);
the counts come from Stockfish (`go perft N`, Debian's /usr/games/stockfish,
15.1 when this file was made), so brokkr is checked against an independent
generator. For each position the depths run from 1 upwards while the next count,
estimated from the last two, stays under NODE_BUDGET, and never past MAX_DEPTH.
Run it from the repository root; it builds the example first.
"""

import subprocess
import sys

STOCKFISH = "/usr/games/stockfish"
MAX_DEPTH = 6
NODE_BUDGET = 20_000_000


def positions(count, seed):
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "random_positions"],
                   check=True)
    out = subprocess.run(["target/release/examples/random_positions", str(count), str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return out.split("\n")[:-1]


class Stockfish:
    def __init__(self):
        self.p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.version = self.wait("id name ")[len("id name "):]
        self.wait("uciok")
        # Chess960 on for every position: it changes only how castling is written.
        self.send("setoption name UCI_Chess960 value true")
        self.send("setoption name Threads value 1")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"stockfish ended before '{prefix}'")

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.wait("Nodes searched:").split(":")[1])

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    fens = positions(count, seed)
    sf = Stockfish()
    print("# random.perft: random legal positions with their perft counts")
    print("#")
    print(f"# {len(fens)} positions, each the end of a random legal game chosen by brokkr's")
    print("# move generator from the start position or a Chess960 start (Shredder-FEN")
    print(f"# castling), made by `python3 tests/data/make_random_perft.py {count} {seed}`.")
    print(f"# Counts by {sf.version} (`go perft N`).")
    print("# Written for brokkr; MIT, like the rest of the repository (see LICENSE).")
    total = 0
    for i, fen in enumerate(fens, 1):
        print(f"\nid random-{i}")
        print(f"epd {fen}")
        prev, last = None, None
        for depth in range(1, MAX_DEPTH + 1):
            if last is not None and prev:
                if last * last / prev > NODE_BUDGET:
                    break
            n = sf.perft(fen, depth)
            total += n
            print(f"perft {depth} {n}")
            prev, last = last, n
            if n == 0:
                break
        if i % 100 == 0:
            print(f"{i}/{len(fens)} positions, {total} nodes", file=sys.stderr)
    sf.quit()
    print(f"done: {len(fens)} positions, {total} nodes counted", file=sys.stderr)


if __name__ == "__main__":
    main()
