//! Copy-make on a [`Qbb`]: edit a copy of the four bitboards, then flip it so the
//! other side moves "up".

use super::{Qbb, KING, KNIGHT, PAWN, QUEEN, RANK_1, ROOK};
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

    /// The position after the legal move `m` (relative coordinates), seen from the
    /// other side.
    ///
    /// `m` must be legal here (from [`Qbb::generate`]); an illegal move gives a
    /// board that is not a position.
    #[inline]
    pub fn make(&self, m: Move) -> Qbb {
        let from = m.from().index();
        let to = m.to().index();
        let from_bb = 1u64 << from;
        let to_bb = 1u64 << to;
        let mut q = *self;
        // A move from or to a rook's square ends that rook's castling rights.
        q.castle &= !(from_bb | to_bb);
        q.ep = 0;
        match m.kind() {
            MoveKind::Normal => {
                let code = self.code_at(from);
                q.clear(from_bb | to_bb);
                q.put_ours(code, to_bb);
                if code == KING {
                    q.castle &= !RANK_1;
                } else if code == PAWN && to == from + 16 {
                    // Record the square only if an enemy pawn could take there,
                    // as the main board does, so the two stay comparable.
                    let ep = from + 8;
                    if PAWN_ATTACKS[0][ep] & self.pawns() & self.them() != 0 {
                        q.ep = 1 << ep;
                    }
                }
            }
            MoveKind::Promotion => {
                let code = match m.promotion_kind() {
                    Some(PieceKind::Knight) => KNIGHT,
                    Some(PieceKind::Bishop) => super::BISHOP,
                    Some(PieceKind::Rook) => ROOK,
                    _ => QUEEN,
                };
                q.clear(from_bb | to_bb);
                q.put_ours(code, to_bb);
            }
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
        }
        q.pm ^= q.occupied();
        q.swap();
        q.black = !q.black;
        q
    }
}
