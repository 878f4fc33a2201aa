#!/usr/bin/env python3
"""Write reference WDL and DTZ values of random positions, from python-chess.

Usage: make_syzygy_ref.py TABLE_DIR COUNT SEED [TABLE ...]

For every WDL table in TABLE_DIR (or only the named ones) it draws random legal
positions of that material, either colouring, either side to move, no
castling rights; for material with pawns about a third are set up with a pawn
just pushed two squares and, where there is one, an enemy pawn beside it, and
every position where a pawn can have just moved so is given that en passant
square. COUNT
positions in all, spread evenly over the tables. Each line is

    FEN;WDL;DTZ

with python-chess's `probe_wdl` and `probe_dtz` (chess.syzygy). Written for
brokkr's tests/syzygy.rs; needs python-chess (tested with 1.11.2).
"""

import os
import random
import sys

import chess
import chess.syzygy


def material(name):
    white, black = name.split("v")
    return white, black


def piece_list(side, color):
    kinds = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
             "N": chess.KNIGHT, "P": chess.PAWN}
    return [chess.Piece(kinds[c], color) for c in side]


def random_position(rng, white, black):
    """A random legal position with these pieces, or None."""
    board = chess.Board(None)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    pieces = piece_list(white, chess.WHITE) + piece_list(black, chess.BLACK)
    free = list(range(64))
    rng.shuffle(free)
    if "P" in white + black and rng.random() < 0.35:
        place_en_passant_pawns(rng, board, pieces, free)
    for piece in pieces:
        for i, sq in enumerate(free):
            if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, piece)
            del free[i]
            break
        else:
            return None
    board.castling_rights = chess.BB_EMPTY
    set_en_passant(board)
    return board if board.is_valid() else None


def place_en_passant_pawns(rng, board, pieces, free):
    """Put a pawn of the side not to move on its fourth rank and, if the side to
    move has a pawn, one beside it (taking them out of `pieces` and `free`)."""
    them = not board.turn
    theirs = chess.Piece(chess.PAWN, them)
    ours = chess.Piece(chess.PAWN, board.turn)
    if theirs not in pieces:
        return
    rank = 3 if them == chess.WHITE else 4
    file = rng.randrange(8)
    sq = chess.square(file, rank)
    board.set_piece_at(sq, theirs)
    pieces.remove(theirs)
    taken = [sq]
    if ours in pieces:
        side = [f for f in (file - 1, file + 1) if 0 <= f < 8]
        beside = chess.square(rng.choice(side), rank)
        board.set_piece_at(beside, ours)
        pieces.remove(ours)
        taken.append(beside)
    # Keep the squares the pawn passed empty.
    step = 8 if them == chess.WHITE else -8
    taken += [sq - step, sq - 2 * step]
    free[:] = [f for f in free if f not in taken]


def set_en_passant(board):
    """Mark a pawn of the side not to move as just pushed two squares, if one can
    have been; prefer one that a pawn of the side to move can take."""
    them = not board.turn
    step = 8 if them == chess.WHITE else -8
    fourth = 3 if them == chess.WHITE else 4
    options = []
    for sq in board.pieces(chess.PAWN, them):
        if chess.square_rank(sq) != fourth:
            continue
        passed, start = sq - step, sq - 2 * step
        if board.piece_at(passed) or board.piece_at(start):
            continue
        takers = board.pieces(chess.PAWN, board.turn) & chess.BB_PAWN_ATTACKS[them][passed]
        if takers:
            options.append(passed)
    if options:
        board.ep_square = options[0]


def main():
    directory, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    names = sys.argv[4:] or sorted(
        f[:-5] for f in os.listdir(directory) if f.endswith(".rtbw"))
    rng = random.Random(seed)
    per = -(-count // len(names))
    seen = set()
    stats = {"positions": 0, "ep": 0, "ep_changes_wdl": 0}
    with chess.syzygy.open_tablebase(directory) as tb:
        for name in names:
            white, black = material(name)
            made = 0
            tries = 0
            while made < per and tries < 100 * per:
                tries += 1
                w, b = (white, black) if rng.random() < 0.5 else (black, white)
                board = random_position(rng, w, b)
                if board is None:
                    continue
                fen = board.fen()
                if fen in seen:
                    continue
                seen.add(fen)
                wdl = tb.probe_wdl(board)
                dtz = tb.probe_dtz(board)
                print(f"{fen};{wdl};{dtz}")
                made += 1
                stats["positions"] += 1
                if board.has_legal_en_passant():
                    stats["ep"] += 1
                    plain = board.copy()
                    plain.ep_square = None
                    if tb.probe_wdl(plain) != wdl:
                        stats["ep_changes_wdl"] += 1
    print(f"# {stats}", file=sys.stderr)


if __name__ == "__main__":
    main()
