//! Static exchange evaluation: the material balance of the capture sequence on one
//! square when both sides always recapture with their least valuable attacker and
//! may stop when it no longer pays.
//!
//! Both functions share one model: pins are ignored, a king never captures into a
//! square the other side still attacks, and a promotion counts only on the first
//! capture. [`Board::see`] returns the value; [`Board::see_ge`], what a search
//! asks, only compares it with a threshold and stops as soon as the answer is
//! known.

use super::*;

/// Piece values used by SEE: pawn, knight, bishop, rook, queen, king.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

impl<S: Slider> Board<S> {
    /// The square and value of what the legal move `m` takes, the value of the
    /// piece standing on the target afterwards, and the occupancy after it.
    #[inline(always)]
    fn see_start(&self, m: Move) -> (usize, i32, usize, Bitboard) {
        let from = m.from().index();
        let to = m.to().index();
        let mut occ = self.occupied() ^ (1 << from);
        let mut gain = match m.kind() {
            MoveKind::EnPassant => {
                occ ^= 1 << (to ^ 8);
                SEE_VALUES[PAWN]
            }
            _ => match self.mailbox[to] {
                NO_PIECE => 0,
                p => SEE_VALUES[kind_of(p as usize)],
            },
        };
        let mut on_square = kind_of(self.mailbox[from] as usize % 12);
        if let Some(k) = m.promotion_kind() {
            gain += SEE_VALUES[k.index()] - SEE_VALUES[PAWN];
            on_square = k.index();
        }
        (to, gain, on_square, occ)
    }

    /// The least valuable piece kind among `attackers` of colour `side`, with the
    /// one piece of it that captures (lowest square).
    #[inline(always)]
    fn least_valuable(&self, ours: Bitboard) -> (usize, Bitboard) {
        for kind in PAWN..=KING {
            let bb = ours & self.pieces[kind];
            if bb != 0 {
                return (kind, bb & bb.wrapping_neg());
            }
        }
        (KING, 0)
    }

    /// The SEE value of the legal move `m` for the side making it (0 for castling).
    ///
    /// Sliders hidden behind a capturer join in as it leaves (x-rays).
    pub fn see(&self, m: Move) -> i32 {
        if m.kind() == MoveKind::Castling {
            return 0;
        }
        let (to, first, mut on_square, mut occ) = self.see_start(m);
        // 32 pieces at most can take part, and the first capture is already in.
        let mut gain = [0i32; 33];
        gain[0] = first;
        let rq = self.straight_sliders();
        let bq = self.diagonal_sliders();
        let mut attackers = self.attackers_of_both::<false>(to, occ) & occ;
        let mut side = self.side.flip();
        let mut depth = 0;
        loop {
            let ours = attackers & self.colors[side.index()];
            if ours == 0 || depth == gain.len() - 1 {
                break;
            }
            let (kind, capturer) = self.least_valuable(ours);
            if kind == KING && self.defended(to, side, capturer, attackers, occ, rq, bq) {
                // The king cannot capture into a defended square.
                break;
            }
            depth += 1;
            gain[depth] = SEE_VALUES[on_square] - gain[depth - 1];
            on_square = kind;
            attackers |= self.revealed(to, kind, capturer, occ, rq, bq);
            occ ^= capturer;
            attackers &= occ;
            side = side.flip();
        }
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// Whether the SEE value of the legal move `m` is at least `threshold`:
    /// `see_ge(m, t) == (see(m) >= t)` for every `t`, but it keeps only the
    /// running balance (no list of gains) and stops as soon as one side cannot
    /// reach it. As each capturer leaves, it looks again only along the kind of
    /// line the capturer stood on: diagonals for pawns and bishops, ranks and
    /// files for rooks, both for queens and kings, none for knights.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.kind() == MoveKind::Castling {
            return 0 >= threshold;
        }
        let (to, first, on_square, mut occ) = self.see_start(m);
        // `balance` is what the side to capture next must win back for the mover
        // to stay below the threshold; with `res` it encodes whose turn decides.
        let mut balance = first - threshold;
        if balance < 0 {
            // Even unanswered, the capture does not reach the threshold.
            return false;
        }
        balance = SEE_VALUES[on_square] - balance;
        if balance <= 0 {
            // Even losing the capturer for nothing keeps the threshold.
            return true;
        }
        let rq = self.straight_sliders();
        let bq = self.diagonal_sliders();
        let mut attackers = self.attackers_of_both::<false>(to, occ) & occ;
        let mut side = self.side;
        let mut res = true;
        loop {
            side = side.flip();
            attackers &= occ;
            let ours = attackers & self.colors[side.index()];
            if ours == 0 {
                break;
            }
            let (kind, capturer) = self.least_valuable(ours);
            if kind == KING {
                // The king may only take when nothing defends the square; if
                // something does, this side cannot capture and the last result
                // stands.
                return if self.defended(to, side, capturer, attackers, occ, rq, bq) {
                    res
                } else {
                    !res
                };
            }
            res = !res;
            balance = SEE_VALUES[kind] - balance;
            if balance < res as i32 {
                break;
            }
            attackers |= self.revealed(to, kind, capturer, occ, rq, bq);
            occ ^= capturer;
        }
        res
    }

    /// Whether the other side than `side` still attacks `to` once `side`'s king
    /// (`king`) has left its square: a slider behind the king counts.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn defended(
        &self,
        to: usize,
        side: Color,
        king: Bitboard,
        attackers: Bitboard,
        occ: Bitboard,
        rq: Bitboard,
        bq: Bitboard,
    ) -> bool {
        let behind = self.revealed(to, KING, king, occ, rq, bq);
        (attackers | behind) & (occ ^ king) & self.colors[side.flip().index()] != 0
    }

    /// The sliders that see `to` once `capturer`, a piece of `kind`, has left the
    /// occupancy `occ`: only lines of the capturer's own kind can open.
    ///
    /// Backends with cheap x-ray lookups (OliThink's table) read the piece behind
    /// the capturer straight from the x-ray of `to`, keeping the one on the
    /// capturer's side; the others recompute the slider attacks without it.
    #[inline]
    fn revealed(
        &self,
        to: usize,
        kind: usize,
        capturer: Bitboard,
        occ: Bitboard,
        rq: Bitboard,
        bq: Bitboard,
    ) -> Bitboard {
        let diagonal = matches!(kind, PAWN | BISHOP | QUEEN | KING);
        let straight = matches!(kind, ROOK | QUEEN | KING);
        let after = occ ^ capturer;
        if !S::XRAY_PINS {
            let mut out = 0;
            if diagonal {
                out |= self.bishop_attacks_with(to, after) & bq;
            }
            if straight {
                out |= self.rook_attacks_with(to, after) & rq;
            }
            return out;
        }
        let from = capturer.trailing_zeros() as usize & 63;
        let line = LINE[to][from];
        let mut xray = 0;
        if diagonal {
            xray |= S::bishop_xray(to, occ) & bq;
        }
        if straight {
            xray |= S::rook_xray(to, occ) & rq;
        }
        let mut behind = xray & line & after;
        let mut out = 0;
        while behind != 0 {
            let x = behind & behind.wrapping_neg();
            behind ^= x;
            if BETWEEN[to][x.trailing_zeros() as usize & 63] & capturer != 0 {
                out |= x;
            }
        }
        out
    }
}
