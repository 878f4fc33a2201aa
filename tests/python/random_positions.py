#!/usr/bin/env python3
"""python-chess plays brokkr from random positions that Board.is_valid() accepts.

    python3 tests/python/random_positions.py ENGINE [--count 200] [--seed 1] [--nodes 2000]

Half the positions are random placements (two kings and up to 15 other pieces a
side; in half of them one side has all eight pawns and two to six queens, more
promoted pieces than any game allows, as a board editor sets them up); half are positions of random games, sent with castling rights and an
en-passant square the position does not have (brokkr must drop them, with a
note, and play). Every third position goes over xboard, the rest over UCI. Each
move the engine sends must be legal in the position python-chess sent: python-
chess raises on one that is not, and the script counts it. Exits non-zero on any
failure; prints `N passed, M failed`.
"""
import argparse
import random
import sys

import chess
import chess.engine

# Queens weigh thrice: many positions then hold more promoted pieces than
# pawns missing, which brokkr once refused.
PIECES = [chess.QUEEN] * 3 + [chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN, chess.PAWN]


def random_placement(rng, promoted):
    """A random position python-chess calls valid; with `promoted`, one side
    has all eight pawns and two to six queens besides (promoted pieces with
    no pawn missing, as a board editor sets them up)."""
    while True:
        b = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        b.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        b.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        if promoted:
            color = rng.choice([chess.WHITE, chess.BLACK])
            middle = [sq for sq in squares if chess.square_rank(sq) not in (0, 7)]
            for sq in middle[:8]:
                squares.remove(sq)
                b.set_piece_at(sq, chess.Piece(chess.PAWN, color))
            for _ in range(rng.randint(2, 6)):
                b.set_piece_at(squares.pop(), chess.Piece(chess.QUEEN, color))
        for color in (chess.WHITE, chess.BLACK):
            if promoted and b.pieces(chess.PAWN, color):
                continue
            pawns = 0
            for _ in range(rng.randint(0, 15)):
                kind = rng.choice(PIECES)
                sq = squares.pop()
                if kind == chess.PAWN and (pawns == 8 or chess.square_rank(sq) in (0, 7)):
                    kind = chess.QUEEN
                pawns += kind == chess.PAWN
                b.set_piece_at(sq, chess.Piece(kind, color))
        b.turn = rng.choice([chess.WHITE, chess.BLACK])
        if b.is_valid() and not b.is_game_over():
            return b


def random_game_position(rng):
    """A position of a random game, and a FEN for it with castling rights and
    an en-passant square it may not have."""
    while True:
        b = chess.Board()
        for _ in range(rng.randint(4, 60)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rng.choice(moves))
        if b.is_game_over():
            continue
        fields = b.fen().split()
        fields[2] = "KQkq"
        rank = "6" if b.turn == chess.WHITE else "3"
        fields[3] = rng.choice("abcdefgh") + rank
        return b, " ".join(fields)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=2000)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    uci = chess.engine.SimpleEngine.popen_uci([args.engine, "uci"])
    xboard = chess.engine.SimpleEngine.popen_xboard([args.engine, "xboard"])
    passed = failed = promoted = dropped = 0
    for i in range(args.count):
        if i % 2 == 0:
            board = random_placement(rng, promoted=i % 4 == 0)
            def beyond(c):
                extra = sum(max(0, len(board.pieces(k, c)) - n)
                            for k, n in ((chess.QUEEN, 1), (chess.ROOK, 2),
                                         (chess.BISHOP, 2), (chess.KNIGHT, 2)))
                return extra > 8 - len(board.pieces(chess.PAWN, c))
            promoted += beyond(chess.WHITE) or beyond(chess.BLACK)
            fen = board.fen()
        else:
            board, fen = random_game_position(rng)
            # python-chess keeps only the rights and square the position has: the
            # raw FEN, which keeps them all, is what a careless GUI would send.
            board = chess.Board(fen)
            dropped += fen.split()[2] != board.fen().split()[2]
        engine = xboard if i % 3 == 2 else uci
        try:
            if engine is uci:
                # Send the raw FEN, so the engine sees the rights it must drop.
                result = play_raw(uci, fen, board, args.nodes)
            else:
                result = engine.play(board, chess.engine.Limit(nodes=args.nodes))
            if result.move is None or result.move not in board.legal_moves:
                raise ValueError(f"no legal move: {result.move}")
            passed += 1
        except Exception as e:  # noqa: BLE001 - every failure is counted and shown
            failed += 1
            print(f"FAIL {i} ({'xboard' if engine is xboard else 'uci'}) {fen}: {e!r}")
    uci.quit()
    xboard.quit()
    print(f"positions with more promoted pieces than pawns missing: {promoted}; "
          f"with castling rights the position does not have: {dropped}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def play_raw(engine, fen, board, nodes):
    """`position fen FEN` with the raw FEN, then `go nodes N`, as a python-chess
    command; the move is parsed by python-chess against `board` (an illegal one
    raises)."""
    class Raw(chess.engine.BaseCommand):
        def start(self):
            self._engine.send_line(f"position fen {fen}")
            self._engine.send_line(f"go nodes {nodes}")

        def line_received(self, line):
            if line.startswith("bestmove"):
                move = board.parse_uci(line.split()[1])
                self.result.set_result(chess.engine.PlayResult(move, None))
                self.set_finished()

    return engine.communicate(Raw)


if __name__ == "__main__":
    sys.exit(main())
