//! Copy-make on a [`Qbb`]: edit a copy of the four bitboards, then flip it so the
//! other side moves "up".

use super::{Qbb, BISHOP, KING, KNIGHT, PAWN, QUEEN, RANK_1, ROOK};
use crate::tables::PAWN_ATTACKS;
use crate::types::*;

impl Qbb {
    /// Empty the squares of `bb` in all four bitboards.
    #[inline(always)]
    fn clear(&mut self, bb: Bitboard) {
        self.pm &= !bb;
        self.p0 &= !bb;
        self.p1 &= !bb;
        self.p2 &= !bb;
    }

    /// Put a piece of the side to move with type `code` on the empty square(s) `bb`.
    #[inline(always)]
    fn put_ours(&mut self, code: u8, bb: Bitboard) {
        self.put(code, bb);
        self.pm |= bb;
    }

    /// Pass the turn: the other side's pieces become `pm`, and every bitboard is
    /// flipped so that side moves up.
    #[inline(always)]
    fn flipped(mut self) -> Qbb {
        self.pm ^= self.occupied();
        self.swap();
        self.black = !self.black;
        self
    }

    /// The position after the piece with type `code` on `from` moves to `to`,
    /// taking whatever stands there: every move but castling, en passant, a
    /// promotion or a pawn's double step.
    #[inline(always)]
    pub(crate) fn make_simple(&self, from: usize, to: usize, code: u8) -> Qbb {
        let moved = (1u64 << from) | (1u64 << to);
        let mut q = *self;
        // A move from or to a rook's square ends that rook's castling rights.
        q.castle &= !moved;
        if code == KING {
            q.castle &= !RANK_1;
        }
        q.ep = 0;
        q.clear(moved);
        q.put_ours(code, 1 << to);
        q.flipped()
    }

    /// The position after a pawn's double step from `from`.
    #[inline(always)]
    pub(crate) fn make_double_step(&self, from: usize) -> Qbb {
        let mut q = self.make_simple(from, from + 16, PAWN);
        // Record the square only if an enemy pawn could take there, as the main
        // board does, so the two stay comparable. (`q` is already flipped.)
        let ep = from + 8;
        if PAWN_ATTACKS[0][ep & 63] & self.pawns() & self.them() != 0 {
            q.ep = (1u64 << ep).swap_bytes();
        }
        q
    }

    /// The position after the legal move `m` (relative coordinates), seen from the
    /// other side.
    ///
    /// `m` must be legal here (from [`Qbb::generate`]); an illegal move gives a
    /// board that is not a position.
    #[inline]
    pub fn make(&self, m: Move) -> Qbb {
        let from = m.from().index();
        let to = m.to().index();
        let code = match m.kind() {
            MoveKind::Normal => {
                let code = self.code_at(from);
                return if code == PAWN && to == from + 16 {
                    self.make_double_step(from)
                } else {
                    self.make_simple(from, to, code)
                };
            }
            MoveKind::Promotion => match m.promotion_kind() {
                Some(PieceKind::Knight) => KNIGHT,
                Some(PieceKind::Bishop) => BISHOP,
                Some(PieceKind::Rook) => ROOK,
                _ => QUEEN,
            },
            MoveKind::EnPassant => PAWN,
            MoveKind::Castling => KING,
        };
        let from_bb = 1u64 << from;
        let to_bb = 1u64 << to;
        let mut q = *self;
        q.castle &= !(from_bb | to_bb);
        q.ep = 0;
        match m.kind() {
            MoveKind::EnPassant => {
                q.clear(from_bb | to_bb >> 8);
                q.put_ours(PAWN, to_bb);
            }
            MoveKind::Castling => {
                // King takes own rook; both land on their fixed files of rank 1.
                let (king_to, rook_to) = if to > from { (6, 5) } else { (2, 3) };
                q.clear(from_bb | to_bb);
                q.put_ours(KING, 1 << king_to);
                q.put_ours(ROOK, 1 << rook_to);
                q.castle &= !RANK_1;
            }
            _ => {
                // A promotion.
                q.clear(from_bb | to_bb);
                q.put_ours(code, to_bb);
            }
        }
        q.flipped()
    }
}
