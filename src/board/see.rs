//! Static exchange evaluation: the material balance of the capture sequence on one
//! square when both sides always recapture with their least valuable attacker and
//! may stop when it no longer pays.

use super::Board;
use crate::attacks::Slider;
use crate::tables::{BETWEEN, LINE};
use crate::types::*;

/// Piece values used by SEE: pawn, knight, bishop, rook, queen, king.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

impl<S: Slider> Board<S> {
    /// The SEE value of the legal move `m` for the side making it.
    ///
    /// Sliders hidden behind a capturer join in as it leaves (x-rays), found by
    /// recomputing slider attacks on the shrinking occupancy.
    pub fn see(&self, m: Move) -> i32 {
        if m.kind() == MoveKind::Castling {
            return 0;
        }
        let from = m.from().index();
        let to = m.to().index();
        let mover = self.mailbox[from] as usize % 6;
        let mut gain = [0i32; 32];
        gain[0] = match m.kind() {
            MoveKind::EnPassant => SEE_VALUES[0],
            _ => self
                .piece_on(m.to())
                .map_or(0, |p| SEE_VALUES[p.kind().index()]),
        };
        let mut on_square = mover;
        if let Some(k) = m.promotion_kind() {
            gain[0] += SEE_VALUES[k.index()] - SEE_VALUES[0];
            on_square = k.index();
        }
        let mut occ = self.occupied() ^ (1 << from);
        if m.kind() == MoveKind::EnPassant {
            occ ^= 1 << (to ^ 8);
        }
        let rq = self.pieces[3] | self.pieces[4];
        let bq = self.pieces[2] | self.pieces[4];
        let mut attackers = self.attackers_to(to, occ) & occ;
        let mut side = self.side.flip();
        let mut depth = 0;
        loop {
            let ours = attackers & self.colors[side.index()];
            if ours == 0 {
                break;
            }
            // The least valuable attacker recaptures.
            let (kind, bb) = (0..6)
                .map(|k| (k, ours & self.pieces[k]))
                .find(|(_, bb)| *bb != 0)
                .expect("ours is not empty");
            depth += 1;
            gain[depth] = SEE_VALUES[on_square] - gain[depth - 1];
            if kind == PieceKind::King.index() && attackers & self.colors[side.flip().index()] != 0
            {
                // The king cannot capture into a defended square.
                depth -= 1;
                break;
            }
            on_square = kind;
            let capturer = bb & bb.wrapping_neg();
            attackers |= Self::revealed(to, capturer, occ, rq, bq);
            occ ^= capturer;
            attackers &= occ;
            side = side.flip();
            if depth == gain.len() - 1 {
                break;
            }
        }
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// The sliders that see `to` once `capturer` (a piece on a line to `to`) has
    /// left the occupancy `occ`.
    ///
    /// Backends with cheap x-ray lookups (OliThink's table) read the piece behind
    /// the capturer straight from the x-ray of `to`, keeping the one on the
    /// capturer's side; the others recompute the slider attacks without it.
    #[inline]
    fn revealed(
        to: usize,
        capturer: Bitboard,
        occ: Bitboard,
        rq: Bitboard,
        bq: Bitboard,
    ) -> Bitboard {
        let after = occ ^ capturer;
        if !S::XRAY_PINS {
            return (S::bishop_any(to, after) & bq) | (S::rook_any(to, after) & rq);
        }
        let from = capturer.trailing_zeros() as usize;
        let line = LINE[to][from];
        let mut behind =
            ((S::bishop_xray(to, occ) & bq) | (S::rook_xray(to, occ) & rq)) & line & after;
        let mut out = 0;
        while behind != 0 {
            let x = behind & behind.wrapping_neg();
            behind ^= x;
            if BETWEEN[to][x.trailing_zeros() as usize] & capturer != 0 {
                out |= x;
            }
        }
        out
    }

    /// Whether SEE of `m` is at least `threshold`.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m) >= threshold
    }
}
