//! Endgame knowledge: exact rules for a few endings (KBNK, KPK, KRKP, insufficient
//! material) and the scale factors that pull drawish material toward a draw.

use super::geometry::{centre_distance, distance, LIGHT_SQUARES};
use super::weights::*;
use super::SCALE_NORMAL;
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::tables::{FILE_MASKS, FORWARD_SPAN};
use crate::types::{Color, PieceKind};

/// Pieces and pawns of one side, counted.
#[derive(Clone, Copy, Debug, Default)]
struct Side {
    pawns: i32,
    knights: i32,
    bishops: i32,
    rooks: i32,
    queens: i32,
}

impl Side {
    fn of<B: Bits, Sl: Slider>(board: &Board<Sl>, c: Color) -> Side {
        let n = |k| B::popcount(board.pieces(c, k)) as i32;
        Side {
            pawns: n(PieceKind::Pawn),
            knights: n(PieceKind::Knight),
            bishops: n(PieceKind::Bishop),
            rooks: n(PieceKind::Rook),
            queens: n(PieceKind::Queen),
        }
    }

    /// Non-pawn material in pawns (3, 3, 5, 9): fixed values, so that the rules do
    /// not move when the tuner does.
    fn pieces(&self) -> i32 {
        3 * (self.knights + self.bishops) + 5 * self.rooks + 9 * self.queens
    }

    fn bare(&self) -> bool {
        self.pawns == 0 && self.pieces() == 0
    }
}

/// A value for White given by an exact rule, when one applies.
pub(crate) fn special<B: Bits, Sl: Slider>(board: &Board<Sl>) -> Option<i32> {
    // Every rule below has at most four men and no pawns of both sides.
    if B::popcount(board.occupied()) > 4 {
        return None;
    }
    let w = Side::of::<B, Sl>(board, Color::White);
    let b = Side::of::<B, Sl>(board, Color::Black);
    if w.pawns == 0 && b.pawns == 0 && w.pieces() <= 3 && b.pieces() <= 3 {
        return Some(0); // KK, KNK, KBK, and a minor each: no mate can be forced.
    }
    for (strong, sd, wk) in [(Color::White, w, b), (Color::Black, b, w)] {
        let sign = if strong == Color::White { 1 } else { -1 };
        if wk.bare() && sd.pawns == 0 && sd.knights == 1 && sd.bishops == 1 && sd.pieces() == 6 {
            return Some(sign * kbnk(board, strong));
        }
        if wk.bare() && sd.pawns == 1 && sd.pieces() == 0 {
            return kpk::<B, Sl>(board, strong).map(|v| sign * v);
        }
        if sd.pawns == 0 && sd.pieces() == 5 && sd.rooks == 1 && wk.pawns == 1 && wk.pieces() == 0 {
            return Some(sign * krkp::<B, Sl>(board, strong));
        }
    }
    None
}

/// Squares from `strong`'s side: White's squares as they are, Black's mirrored.
#[inline(always)]
fn rel(strong: Color, sq: usize) -> usize {
    sq ^ (56 * strong.index())
}

/// KBNK: a win; drive the lone king to a corner of the bishop's colour and bring
/// the kings together.
fn kbnk<Sl: Slider>(board: &Board<Sl>, strong: Color) -> i32 {
    let bishop = board.pieces(strong, PieceKind::Bishop);
    let lone = board.king_square(strong.flip()).index();
    let corners = if bishop & LIGHT_SQUARES != 0 {
        [7, 56]
    } else {
        [0, 63]
    };
    let corner = distance(lone, corners[0]).min(distance(lone, corners[1]));
    let kings = distance(lone, board.king_square(strong).index());
    KNOWN_WIN + KBNK_CORNER * (7 - corner) + KBNK_KINGS * (7 - kings) + 5 * centre_distance(lone)
}

/// KPK by rule: a win when the pawn outruns the king or the attacking king stands
/// on a key square, a draw when the pawn falls or a rook pawn's corner is held;
/// `None` when the rules do not settle it.
fn kpk<B: Bits, Sl: Slider>(board: &Board<Sl>, strong: Color) -> Option<i32> {
    let pawn = rel(
        strong,
        B::lsb(board.pieces(strong, PieceKind::Pawn)) as usize,
    );
    let sk = rel(strong, board.king_square(strong).index());
    let wk = rel(strong, board.king_square(strong.flip()).index());
    let weak_to_move = board.side_to_move() != strong;
    let (file, rank) = (pawn & 7, pawn >> 3);
    let promotion = 56 + file;
    let win = KPK_WIN + KPK_RANK * rank as i32;
    if weak_to_move && distance(wk, pawn) == 1 && distance(sk, pawn) > 1 {
        return Some(0); // the pawn falls
    }
    let moves = (7 - rank as i32).min(5);
    if FORWARD_SPAN[0][pawn] & 1u64 << sk == 0
        && moves < distance(wk, promotion) - weak_to_move as i32
    {
        return Some(win); // the rule of the square
    }
    if file == 0 || file == 7 {
        return (distance(wk, promotion) <= 1).then_some(0);
    }
    let key_ranks = match rank {
        1..=3 => 1u64 << (rank + 2),
        4 | 5 => (1u64 << (rank + 1)) | (1u64 << (rank + 2)),
        _ => return None,
    };
    let ranks = (0..8).filter(|r| key_ranks >> r & 1 != 0);
    let files = FILE_MASKS[file - 1] | FILE_MASKS[file] | FILE_MASKS[file + 1];
    let key = ranks.fold(0u64, |acc, r| acc | crate::tables::RANK_MASKS[r]) & files;
    (key & 1u64 << sk != 0).then_some(win)
}

/// KRKP: a win when the rook's king stands in front of the pawn or the pawn's king
/// is too far from it; otherwise a small edge, less the nearer the pawn is to
/// queening and the farther the rook's king.
fn krkp<B: Bits, Sl: Slider>(board: &Board<Sl>, strong: Color) -> i32 {
    let weak = strong.flip();
    let pawn = rel(strong, B::lsb(board.pieces(weak, PieceKind::Pawn)) as usize);
    let sk = rel(strong, board.king_square(strong).index());
    let wk = rel(strong, board.king_square(weak).index());
    let promotion = pawn & 7;
    let strong_to_move = board.side_to_move() == strong;
    // From the strong side, the weak pawn runs toward rank 1: its forward span is
    // Black's.
    if FORWARD_SPAN[1][pawn] & 1u64 << sk != 0 || distance(wk, pawn) >= 3 + strong_to_move as i32 {
        return KRKP_WIN - KRKP_DISTANCE * distance(sk, pawn);
    }
    KRKP_DRAWISH - KRKP_DISTANCE * (distance(sk, promotion) - distance(wk, promotion))
}

/// The scale of the endgame part (out of 64) for the side it favours.
pub(crate) fn scale<B: Bits, Sl: Slider>(board: &Board<Sl>, eg: i32) -> i32 {
    if eg == 0 {
        return SCALE_NORMAL;
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let weak = strong.flip();
    let s = Side::of::<B, Sl>(board, strong);
    let w = Side::of::<B, Sl>(board, weak);
    if s.pawns == 0 {
        if s.pieces() <= 3 || (s.pieces() == 6 && s.knights == 2 && w.pawns == 0) {
            return 0; // a minor, or two knights, cannot force mate
        }
        if s.pieces() - w.pieces() <= 3 {
            return SCALE_NO_PAWNS; // KRKB, KRBKR and the like
        }
    }
    let bishops = board.kind_bb(PieceKind::Bishop);
    if s.bishops == 1 && w.bishops == 1 && B::popcount(bishops & LIGHT_SQUARES) == 1 {
        return if s.pieces() == 3 && w.pieces() == 3 {
            if s.pawns - w.pawns <= 1 {
                SCALE_OPPOSITE_BISHOPS_CLOSE
            } else {
                SCALE_OPPOSITE_BISHOPS
            }
        } else {
            SCALE_OPPOSITE_BISHOPS_PIECES
        };
    }
    if s.pawns == 1 && w.pawns == 0 && s.pieces() == w.pieces() && s.pieces() <= 5 {
        return SCALE_ONE_PAWN; // KRPKR, KBPKB, KNPKN...
    }
    if wrong_bishop(board, strong, &s) {
        return 0;
    }
    SCALE_NORMAL
}

/// A bishop and rook pawns on one edge file whose queening square the bishop does
/// not cover, with the lone king in that corner: a draw.
fn wrong_bishop<Sl: Slider>(board: &Board<Sl>, strong: Color, s: &Side) -> bool {
    if s.pieces() != 3 || s.bishops != 1 {
        return false;
    }
    let weak = strong.flip();
    if board.color_bb(weak) & !board.kind_bb(PieceKind::King) != 0 {
        return false;
    }
    let pawns = board.pieces(strong, PieceKind::Pawn);
    let file = if pawns & !FILE_MASKS[0] == 0 {
        0
    } else if pawns & !FILE_MASKS[7] == 0 {
        7
    } else {
        return false;
    };
    let promotion = if strong == Color::White {
        56 + file
    } else {
        file
    };
    let bishop_light = board.pieces(strong, PieceKind::Bishop) & LIGHT_SQUARES != 0;
    let corner_light = LIGHT_SQUARES >> promotion & 1 != 0;
    bishop_light != corner_light && distance(board.king_square(weak).index(), promotion) <= 1
}
