#!/usr/bin/env python3
"""Write reference WDL and DTZ values at the fifty-move rule's edges, from python-chess.

Usage: make_syzygy_edge.py [--budget N] [--rounds R] [--survey] TABLE_DIR SEED [TABLE ...]

Random positions (make_syzygy_ref.py's) are rare at the edges: a cursed win
(WDL 1, a win that takes more than a hundred plies to its next capture or pawn
move), a blessed loss (WDL -1, its other side) or a DTZ near 100. So for every
WDL table in TABLE_DIR (or only the named ones) this script climbs: from the
random positions of largest |DTZ| it searches backwards, unmaking one
non-capturing piece move at a time (best first, highest |DTZ|), and keeps each
predecessor whose |DTZ| is not smaller or whose WDL is +-1, until N positions
have been probed (5-piece tables: 10 N), in R rounds (5-piece tables: 5 R),
each from up to 200 new random positions of nonzero DTZ, for variety. Then,
from every cursed win and blessed loss found, it moves one piece to every
empty square, and makes each legal move that is not a capture or pawn move,
and goes on from the new cursed wins and blessed losses (largest |DTZ| first),
for as many probes again. Last, it probes the positions one such move before or
after each found with 97 <= |DTZ| <= 104 (around the rule's edge, DTZ 100
against 101), and one move before or after, or one piece moved from, the
three largest |DTZ| found with either side to move, until these stay the same.

Every probed position is remembered with python-chess's `probe_wdl` and
`probe_dtz` (chess.syzygy). From them it prints, per table:

  * cursed wins (WDL 1) and blessed losses (WDL -1), up to 40 of each, spread
    over their DTZ values;
  * positions with 90 <= |DTZ| <= 110, up to 2 for each DTZ value;
  * the two largest |DTZ| found with the winning side to move and the two with
    the losing side to move (for the tables whose DTZ never nears 100);

each also with colours swapped (board mirrored, the other side to move), so
both White and Black are to move in every kind. Lines are `FEN;WDL;DTZ`, as in
syzygy-ref.txt; lines starting with `#` say which table and kind follow.

`--survey` prints instead, per table, the WDL values its WDL file can hold (the
values of its compression symbols) and the largest |DTZ| its DTZ file can hold
for each result: a table without the WDL values 1 and -1 has no cursed win and
no blessed loss. This reads python-chess's internals (tested with 1.11.2).

Written for brokkr's tests/syzygy.rs; needs python-chess (tested with 1.11.2).
"""

import argparse
import heapq
import os
import random
import sys

import chess
import chess.syzygy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_syzygy_ref import material, random_position  # noqa: E402


def predecessors(board):
    """Positions one non-capturing piece move (not a pawn move) before `board`."""
    mover = not board.turn
    for sq in chess.SquareSet(board.occupied_co[mover] & ~board.pawns):
        piece = board.piece_at(sq)
        # Pieces move alike both ways: it came from a square it attacks.
        for frm in chess.SquareSet(board.attacks_mask(sq) & ~board.occupied):
            q = board.copy(stack=False)
            q.remove_piece_at(sq)
            q.set_piece_at(frm, piece)
            q.turn = mover
            q.ep_square = None
            if q.is_valid():
                yield q


def key(board):
    """The FEN with the clocks at 0 and 1: they do not change the tables' values,
    so one line per position."""
    return board.epd() + " 0 1"


def successors(board):
    """Positions one legal move after `board` that is not a capture or pawn move."""
    for move in board.legal_moves:
        if not board.is_zeroing(move):
            q = board.copy(stack=False)
            q.push(move)
            yield q


def relocations(board):
    """`board` with one piece (not a pawn) on another empty square."""
    for sq in chess.SquareSet(board.occupied & ~board.pawns):
        for to in chess.SquareSet(~board.occupied):
            q = board.copy(stack=False)
            q.set_piece_at(to, q.remove_piece_at(sq))
            if q.is_valid():
                yield q


def explore(tb, name, rng, budget, rounds, seeds=200):
    """Every position probed on the way: {fen: (wdl, dtz)}."""
    white, black = material(name)
    found = {}

    def probe(board):
        fen = key(board)
        if fen not in found:
            found[fen] = (tb.probe_wdl(board), tb.probe_dtz(board))
        return found[fen]

    # Climb backwards, best first. Each round starts afresh from new random
    # positions, for variety.
    expanded = set()
    for r in range(rounds):
        heap = []
        tries = 0
        while len(heap) < seeds and tries < budget // rounds // 2:
            tries += 1
            board = random_position(rng, white, black)
            if board is None:
                continue
            board.ep_square = None
            if not board.is_valid():
                continue
            _, dtz = probe(board)
            if dtz:
                heap.append((-abs(dtz), len(heap), key(board)))
        heapq.heapify(heap)
        count = len(heap)
        while heap and len(found) < budget * (r + 1) // rounds:
            _, _, fen = heapq.heappop(heap)
            if fen in expanded:
                continue
            expanded.add(fen)
            dtz = found[fen][1]
            for q in predecessors(chess.Board(fen)):
                wq, dq = probe(q)
                # Climb, and spread through the cursed and blessed ones.
                if dq and (dq > 0) != (dtz > 0) and (abs(dq) >= abs(dtz) or abs(wq) == 1):
                    count += 1
                    heapq.heappush(heap, (-abs(dq), count, key(q)))

    # Cursed wins and blessed losses come in small clusters: move one piece of
    # each to every empty square, and make each move that does not zero, and
    # go on from the new ones, largest |DTZ| first, for as many probes again.
    heap = [(-abs(d), i, fen) for i, (fen, (w, d)) in enumerate(found.items()) if abs(w) == 1]
    heapq.heapify(heap)
    stop = 2 * len(found)
    while heap and len(found) < stop:
        board = chess.Board(heapq.heappop(heap)[2])
        for q in [*relocations(board), *successors(board)]:
            if key(q) not in found:
                w, d = probe(q)
                if abs(w) == 1:
                    heapq.heappush(heap, (-abs(d), len(found), key(q)))

    def grow(fen, lateral=False):
        board = chess.Board(fen)
        for q in [*predecessors(board), *successors(board),
                  *(relocations(board) if lateral else [])]:
            probe(q)

    # The rule's edge, DTZ 100 against 101: a position one move before or
    # after each found there.
    for fen in [f for f, (_, d) in found.items() if 97 <= abs(d) <= 104]:
        grow(fen)

    # The largest |DTZ| with either side to move: grow the three largest until
    # they stay the same.
    grown = set()
    for _ in range(100):
        top = set()
        for sign in (1, -1):
            top.update(fen for _, fen in sorted(
                (-sign * d, fen) for fen, (_, d) in found.items() if d * sign > 0)[:3])
        if top <= grown:
            break
        for fen in top - grown:
            grow(fen, lateral=True)
        grown |= top
    return found


def spread(items, n):
    """At most n of the items (sorted), evenly spaced, the ends included."""
    if len(items) <= n:
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def select(found):
    """(label, [fen]) groups of a table's positions, without repeats."""
    items = sorted((d, fen) for fen, (w, d) in found.items())
    groups = []
    for label, wdl in (("cursed wins (WDL 1)", 1), ("blessed losses (WDL -1)", -1)):
        kind = sorted((d, fen) for fen, (w, d) in found.items() if w == wdl)
        groups.append((label, [fen for _, fen in spread(kind, 40)]))
    near = []
    by_value = {}
    for d, fen in items:
        if 90 <= abs(d) <= 110:
            by_value.setdefault(d, []).append(fen)
    for d in sorted(by_value):
        near += by_value[d][:2]
    groups.append(("90 <= |DTZ| <= 110", near))
    wins = [(d, fen) for d, fen in items if d > 0]
    losses = [(d, fen) for d, fen in items if d < 0]
    top = [fen for _, fen in wins[-2:]] + [fen for _, fen in losses[:2]]
    groups.append(("largest |DTZ| found, either side to move", top))
    seen = set()
    out = []
    for label, fens in groups:
        fresh = [f for f in fens if f not in seen]
        seen.update(fresh)
        if fresh:
            out.append((label, fresh))
    return out


def survey(directory, names):
    """Per table: the WDL values the file can hold and the largest DTZ."""
    for name in names:
        wdl = chess.syzygy.WdlTable(os.path.join(directory, name + ".rtbw"))
        wdl.init_table_wdl()
        pairs = [p for f in (wdl.files if wdl.has_pawns else [wdl])
                 for p in f.precomp.values()]
        values = sorted({v - 2 for p in pairs for v in symbols(wdl, p, False)})
        dtz = chess.syzygy.DtzTable(os.path.join(directory, name + ".rtbz"))
        dtz.init_table_dtz()
        print(f"{name}: WDL values {values}; largest |DTZ| the file holds: "
              f"{dtz_bounds(dtz)}")


def symbols(table, d, is_dtz):
    """The values of a PairsData's leaf symbols (a constant table: its one value)."""
    if not d.idxbits:
        return {d.min_len}
    out = set()
    for s in range(len(d.symlen) - 8 * len(d.base)):
        if d.symlen[s] == 0:
            w = d.sympat + 3 * s
            v = table.data[w]
            if is_dtz:
                v |= (table.data[w + 1] & 0x0F) << 8
            out.add(v)
    return out


def dtz_bounds(t):
    """{'<side to move stored> <wdl>': largest |DTZ|} over the file's values, as
    python-chess's _probe_dtz_table turns them into DTZ; a file without a value
    map stores one kind of value for all results, shown under 'any'."""
    flags = t.flags if t.has_pawns else [t.flags]
    pairs = [t.files[f].precomp for f in range(len(flags))] if t.has_pawns else [t.precomp]
    out = {}
    for f, (fl, d) in enumerate(zip(flags, pairs)):
        side = "b" if fl & 1 else "w"
        raw = symbols(t, d, True)
        for wdl in (2, -2, 1, -1):
            if fl & 2:
                m = maps(t, f, fl)[chess.syzygy.WDL_TO_MAP[wdl + 2]]
                vals = [m[v] for v in raw if v < len(m)]
                key = f"{side} {wdl:+d}"
            else:
                if wdl != 2:
                    continue
                vals = list(raw)
                key = f"{side} any"
            if not vals:
                continue
            v = max(vals)
            if wdl & 1 or not fl & chess.syzygy.PA_FLAGS[wdl + 2]:
                v *= 2
            v += 1 if abs(wdl) == 2 else 101
            out[key] = max(out.get(key, 0), v)
    return out


def maps(t, f, fl):
    """The four value maps of file f (win, loss, cursed win, blessed loss order
    as python-chess's WDL_TO_MAP indexes them)."""
    out = []
    for m in range(4):
        start = t.map_idx[f][m]
        if not fl & 16:
            n = t.data[t.p_map + start - 1]
            out.append([t.data[t.p_map + start + i] for i in range(n)])
        else:
            n = t.read_uint16(t.p_map + 2 * start - 2)
            out.append([t.read_uint16(t.p_map + 2 * (start + i)) for i in range(n)])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=20000,
                    help="positions probed per table (5-piece tables: ten times)")
    ap.add_argument("--rounds", type=int, default=4,
                    help="climbs per table, each from new random positions "
                    "(5-piece tables: five times)")
    ap.add_argument("--survey", action="store_true")
    ap.add_argument("directory")
    ap.add_argument("seed", type=int)
    ap.add_argument("tables", nargs="*")
    args = ap.parse_args()
    names = args.tables or sorted(
        f[:-5] for f in os.listdir(args.directory) if f.endswith(".rtbw"))
    if args.survey:
        survey(args.directory, names)
        return
    print(f"# Written by: python3 tests/data/make_syzygy_edge.py {' '.join(sys.argv[1:])}")
    print(f"# python-chess {chess.__version__}; lines FEN;WDL;DTZ (see tests/data/SOURCES.md)")
    with chess.syzygy.open_tablebase(args.directory) as tb:
        for name in names:
            big = len(name) > 5
            # Each table its own generator: its lines do not depend on the others.
            rng = random.Random(f"{args.seed} {name}")
            found = explore(tb, name, rng, args.budget * (10 if big else 1),
                           args.rounds * (5 if big else 1))
            for label, fens in select(found):
                print(f"# {name}: {label}")
                for fen in fens:
                    wdl, dtz = found[fen]
                    print(f"{fen};{wdl};{dtz}")
                    mirror = chess.Board(fen).mirror()
                    mw, md = tb.probe_wdl(mirror), tb.probe_dtz(mirror)
                    assert (mw, md) == (wdl, dtz), (fen, mirror.fen())
                    print(f"{mirror.fen()};{mw};{md}")
            d = [v for _, v in found.values()]
            print(f"# {name}: {len(found)} probed, DTZ from {min(d)} to {max(d)}, "
                  f"{sum(1 for w, _ in found.values() if abs(w) == 1)} with WDL +-1",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
