#!/usr/bin/env python3
"""Writes the endgame opening sets of docs/syzygy.md from the Syzygy tables' own material signatures.

    python3 docs/scripts/make_tb_openings.py ../shared/data/syzygy docs/data

Two EPD files, both from random placements (seeded, so the same files come back):

- `tb-openings.epd`: 100 positions over 14 signatures of 4 and 5 men for the match with and without tables.
  Each position is legal, not in check, and quiet for both sides (neither side has a capture), so no game
  starts by a piece hanging; where a signature has both, half are wins for the side with more material (at
  least 10 plies from zeroing, so the win still has to be found) and half are draws it must not lose.
- `tb-conversion.epd`: 30 won positions, 10 each of KQvKR, KRPvKR and KBNvK, White (the stronger side) to
  move, won by the tables with at least 20 plies (KRPvKR: 10) to the next zeroing move, quiet for both sides.

python-chess (chess.syzygy) judges every position; `<file>.txt` lists each one's signature, WDL and DTZ.
"""
import random
import sys

import chess
import chess.syzygy

MATCH = [("KRPvKR", 20), ("KRBvKR", 10), ("KRNvKR", 8), ("KRRvKR", 6), ("KQRvKR", 6),
         ("KQvKR", 8), ("KRvKB", 6), ("KRvKN", 6), ("KRvKP", 8), ("KQvKP", 6),
         ("KBNvK", 4), ("KPvKP", 6), ("KBPvK", 3), ("KNPvK", 3)]
CONVERSION = [("KQvKR", 10, 20), ("KRPvKR", 10, 10), ("KBNvK", 10, 20)]


def place(rng, signature, turn):
    """A random placement of `signature` (White's men before the `v`), or None if it is not legal."""
    white, black = signature.split("v")
    board = chess.Board(None)
    for colour, men in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in men:
            piece = chess.Piece.from_symbol(letter if colour == chess.WHITE else letter.lower())
            squares = [s for s in chess.SQUARES if board.piece_at(s) is None
                       and not (piece.piece_type == chess.PAWN and chess.square_rank(s) in (0, 7))]
            board.set_piece_at(rng.choice(squares), piece)
    board.turn = turn
    return board if board.is_valid() else None


def quiet_for_both(board):
    """Neither side to move nor its opponent has a capture, and the side to move is not in check."""
    if board.is_check() or board.is_game_over():
        return False
    other = board.copy()
    other.turn = not board.turn
    return not other.is_check() and not any(board.generate_legal_captures()) \
        and not any(other.generate_legal_captures())


def draw_sets(tb, rng, signature, count, min_dtz, wins_only, white_to_move):
    """`count` positions of `signature`: half wins for White (|DTZ| >= min_dtz) and half draws, unless
    `wins_only` or the signature has too few draws (then wins fill the set)."""
    wins, draws = [], []
    for _ in range(200_000):
        if len(wins) >= count and (wins_only or len(draws) >= count):
            break
        turn = chess.WHITE if white_to_move else rng.choice([chess.WHITE, chess.BLACK])
        board = place(rng, signature, turn)
        if board is None or not quiet_for_both(board):
            continue
        wdl, dtz = tb.probe_wdl(board), tb.probe_dtz(board)
        white_wdl = wdl if board.turn == chess.WHITE else -wdl
        if white_wdl == 2 and abs(dtz) >= min_dtz and len(wins) < count:
            wins.append((board, wdl, dtz))
        elif white_wdl == 0 and len(draws) < count:
            draws.append((board, wdl, dtz))
    if wins_only:
        return wins[:count]
    half = min(count // 2, len(draws))
    chosen = wins[:count - half] + draws[:half]
    rng.shuffle(chosen)
    return chosen


def write(path, rows):
    """One FEN a line (match runners send the line as it is), and beside it `path` + `.txt` with each
    position's signature and the tables' WDL and DTZ for the side to move, line by line."""
    with open(path, "w") as out, open(path + ".txt", "w") as notes:
        for signature, (board, wdl, dtz) in rows:
            out.write(board.fen() + "\n")
            notes.write(f"{board.fen()}  {signature} wdl {wdl} dtz {dtz}\n")
    print(f"{path}: {len(rows)} positions")


def main():
    tables, out_dir = sys.argv[1], sys.argv[2]
    rng = random.Random(20261125)
    with chess.syzygy.open_tablebase(tables) as tb:
        match = [(sig, p) for sig, n in MATCH
                 for p in draw_sets(tb, rng, sig, n, 10, wins_only=False, white_to_move=False)]
        conversion = [(sig, p) for sig, n, min_dtz in CONVERSION
                      for p in draw_sets(tb, rng, sig, n, min_dtz, wins_only=True, white_to_move=True)]
    write(f"{out_dir}/tb-openings.epd", match)
    write(f"{out_dir}/tb-conversion.epd", conversion)


if __name__ == "__main__":
    main()
