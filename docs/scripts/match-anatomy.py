#!/usr/bin/env python3
"""match-anatomy.py PGN ENGINE BASE+INC: where one engine's games against another were
won and lost, how each spent its clock, and how far their scores agreed, from a
fastchess or cutechess PGN whose move comments read `{SCORE/DEPTH TIMEs ...}`.

For ENGINE (the name in the White/Black tags) against whoever it played, it prints:

  decided   for its wins and its losses, the move and the men on the board where the
            winner's score first reached +1.50 and never fell below +1.00 again
            (medians, and how many such points fell in each phase by men);
  time      each side's seconds a move (mean, median) and median depth, by ten moves;
  clock     each side's clock when the game ended (median, least), from BASE+INC
            (seconds, as fastchess's tc) and the times in the comments;
  scores    after move 12, with both scores within 3 pawns: the mean of ENGINE's score
            at its move against the opponent's score at the reply (turned to ENGINE's
            side), and the least-squares slopes each way. In self-play the two agree
            (mean gap near zero, slopes near one); a gap says which side's evaluation
            the other's moves exploit.

Needs python-chess (`python3 -m pip install chess`). A measuring aid for docs/strength.md:
it reads what the PGN says and judges nothing."""
import re
import statistics as st
import sys
from collections import defaultdict

import chess
import chess.pgn

COMMENT = re.compile(r"([+-]?\d+\.\d+|[+-]?M\d+)/(\d+) ([\d.]+)s")


def moves(game, engine):
    """(is ENGINE to move, score in pawns (mates as +-99), depth, seconds, board before,
    whether the move before it captured)."""
    white_is_engine = game.headers.get("White") == engine
    node = game
    board = game.board()
    captured = False
    while node.variations:
        # A copy per move, since callers keep the boards; node.board() would
        # replay the game from its start each time.
        before = board.copy(stack=False)
        node = node.variations[0]
        was_capture, captured = captured, board.is_capture(node.move)
        board.push(node.move)
        m = COMMENT.search(node.comment)
        if not m:
            continue
        s = m.group(1)
        score = (-99.0 if s.startswith("-") else 99.0) if "M" in s else float(s)
        mine = (before.turn == chess.WHITE) == white_is_engine
        yield mine, score, int(m.group(2)), float(m.group(3)), before, was_capture


def balance(board):
    """'balanced' when both sides have the same minors, rooks and queens, else 'imbalanced'."""
    def count(color):
        minors = len(board.pieces(chess.KNIGHT, color)) + len(board.pieces(chess.BISHOP, color))
        return minors, len(board.pieces(chess.ROOK, color)), len(board.pieces(chess.QUEEN, color))

    return "balanced" if count(chess.WHITE) == count(chess.BLACK) else "imbalanced"


VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material(board, color):
    """COLOR's material less the other side's, in pawns (1-3-3-5-9)."""
    return sum(v * (len(board.pieces(p, color)) - len(board.pieces(p, not color))) for p, v in VALUES.items())


def quiet_material(row):
    """For a row of moves() with ENGINE to move in a quiet position after move 12 (not in
    check, the last move no capture, the score within 3 pawns): ENGINE's material lead,
    two pawns or more lumped (-2 to 2). None for any other row."""
    mine, score, _, _, board, was_capture = row
    if mine and board.fullmove_number >= 12 and abs(score) < 3:
        if not board.is_check() and not was_capture:
            return max(-2, min(2, material(board, board.turn)))
    return None


def material_label(ahead):
    """How quiet_material's bucket reads."""
    return {-2: "2+ down", 2: "2+ up", 0: "level"}.get(ahead, f"{abs(ahead)} {'up' if ahead > 0 else 'down'}")


def main():
    if len(sys.argv) != 4 or "+" not in sys.argv[3]:
        sys.exit(__doc__)
    path, engine = sys.argv[1], sys.argv[2]
    base, inc = (float(x) for x in sys.argv[3].split("+"))
    decided = {"wins": [], "losses": []}
    secs, depth = defaultdict(list), defaultdict(list)
    clocks = defaultdict(list)
    pairs = []
    by_kind = defaultdict(list)
    by_material = defaultdict(list)
    games = 0
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            if engine not in (game.headers.get("White"), game.headers.get("Black")):
                continue
            games += 1
            rows = list(moves(game, engine))
            result = game.headers.get("Result")
            white = game.headers.get("White") == engine
            outcome = "draws" if result == "1/2-1/2" else "wins" if (result == "1-0") == white else "losses"
            # Time and clocks.
            clock = {True: base, False: base}
            for mine, _, d, t, board, _ in rows:
                bucket = min(board.fullmove_number // 10, 7)
                secs[(mine, bucket)].append(t)
                depth[(mine, bucket)].append(d)
                clock[mine] += inc - t
            for side in (True, False):
                clocks[side].append(clock[side])
            # Score agreement: ENGINE's score, then the reply's, after move 12.
            for a, b in zip(rows, rows[1:]):
                if a[0] and not b[0] and a[4].fullmove_number >= 12:
                    if abs(a[1]) < 3 and abs(b[1]) < 3:
                        pairs.append((a[1], -b[1]))
                        by_kind[outcome].append((a[1], -b[1]))
                        by_kind[balance(b[4])].append((a[1], -b[1]))
            # Material where ENGINE is to move in a quiet position.
            points = {"wins": 1.0, "draws": 0.5, "losses": 0.0}[outcome]
            for row in rows:
                ahead = quiet_material(row)
                if ahead is not None:
                    by_material[ahead].append((row[1], points))
            # The decisive point.
            if outcome == "draws":
                continue
            winner = [r for r in rows if r[0] == (outcome == "wins")]
            for i, (_, score, _, _, board, _) in enumerate(winner):
                if score >= 1.5 and all(r[1] >= 1.0 for r in winner[i:]):
                    decided[outcome].append((board.fullmove_number, chess.popcount(board.occupied)))
                    break
    if games == 0:
        sys.exit(f"no game of {engine} in {path}")
    print(f"{games} games of {engine}")
    for key, rows in decided.items():
        if not rows:
            print(f"decided {key}: none")
            continue
        men = [m for _, m in rows]
        print(
            f"decided {key}: {len(rows)}, median move {st.median(n for n, _ in rows)},"
            f" median men {st.median(men)}; men >= 24: {sum(m >= 24 for m in men)},"
            f" 16-23: {sum(16 <= m < 24 for m in men)}, < 16: {sum(m < 16 for m in men)}"
        )
    print("time a move (s): mean / median, median depth")
    for bucket in range(8):
        cells = []
        for mine in (True, False):
            t = secs.get((mine, bucket))
            if t:
                who = engine if mine else "opponent"
                cells.append(
                    f"{who} {st.mean(t):.3f} / {st.median(t):.3f}, d {st.median(depth[(mine, bucket)])}"
                )
        if cells:
            label = f"moves {bucket * 10}-{bucket * 10 + 9}" if bucket < 7 else "moves 70+"
            print(f"  {label}: " + " | ".join(cells))
    for side in (True, False):
        c = clocks[side]
        who = engine if side else "opponent"
        print(f"clock at the end, {who}: median {st.median(c):.3f} s, least {min(c):.3f} s")
    if len(pairs) > 2:
        xs, ys = zip(*pairs)
        mx, my = st.mean(xs), st.mean(ys)
        sxy = sum((x - mx) * (y - my) for x, y in pairs)
        sxx = sum((x - mx) ** 2 for x in xs)
        syy = sum((y - my) ** 2 for y in ys)
        print(
            f"scores ({len(pairs)} pairs): {engine} {mx:+.3f}, the reply's {my:+.3f}"
            f" ({engine}'s side); slope reply-on-{engine} {sxy / sxx:.3f},"
            f" {engine}-on-reply {sxy / syy:.3f}"
        )
        for kind in ("wins", "draws", "losses", "balanced", "imbalanced"):
            got = by_kind.get(kind)
            if got:
                print(
                    f"  {kind}: {len(got)} pairs, {engine} {st.mean(x for x, _ in got):+.3f},"
                    f" the reply's {st.mean(y for _, y in got):+.3f}"
                )
    total = sum(len(v) for v in by_material.values())
    if total:
        print(f"material, quiet positions with {engine} to move ({total}):")
        for ahead in sorted(by_material):
            got = by_material[ahead]
            print(
                f"  {material_label(ahead)}: {len(got)} ({len(got) / total:.1%}), {engine}'s score"
                f" {st.mean(x for x, _ in got):+.3f}, its result {st.mean(y for _, y in got):.3f}"
            )


if __name__ == "__main__":
    main()
