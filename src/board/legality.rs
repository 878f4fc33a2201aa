//! Single-move questions the search asks without generating every move: is a
//! hash or killer move legal here, and does a move give check.

use super::threats::CheckInfo;
use super::*;
use crate::bits::Bits;
use crate::moves::Sink;

/// A sink that keeps only the moves equal to one wanted move.
struct Find(Move, bool);

impl Sink for Find {
    fn piece_moves(&mut self, from: usize, targets: Bitboard) {
        let m = self.0;
        if m.kind() == MoveKind::Normal && m.from().index() == from && targets & m.to().bb() != 0 {
            self.1 = true;
        }
    }

    fn pawn_moves(&mut self, targets: Bitboard, delta: i32) {
        let m = self.0;
        let to = m.to().index() as i32;
        if m.kind() == MoveKind::Normal
            && targets & m.to().bb() != 0
            && m.from().index() as i32 == to - delta
        {
            self.1 = true;
        }
    }

    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        let m = self.0;
        let to = m.to().index() as i32;
        if m.kind() == MoveKind::Promotion
            && targets & m.to().bb() != 0
            && m.from().index() as i32 == to - delta
        {
            self.1 = true;
        }
    }

    fn push(&mut self, m: Move) {
        self.1 |= m == self.0;
    }
}

impl<S: Slider> Board<S> {
    /// Whether `m` is a legal move here, for any 16-bit value (a move from the hash
    /// table or a killer slot may come from another position).
    pub fn is_legal<B: Bits>(&self, m: Move) -> bool {
        let from = m.from().index();
        let to = m.to().index();
        let us = self.side.index();
        let piece = self.mailbox[from];
        if m.is_null() || piece == NO_PIECE || color_of(piece as usize) != us {
            return false;
        }
        // Only promotions may carry a promotion piece: reject other encodings.
        if m.kind() != MoveKind::Promotion && m.bits() >> 12 & 3 != 0 {
            return false;
        }
        let kind = kind_of(piece as usize);
        let own = self.colors[us];
        match m.kind() {
            // Rare moves: ask the generator, which knows every rule for them.
            MoveKind::Castling => {
                kind == PieceKind::King.index()
                    && self.castling != 0
                    && self.find::<B>(m, Stage::Quiets)
            }
            MoveKind::EnPassant => {
                kind == PieceKind::Pawn.index()
                    && self.ep as usize == to
                    && self.find::<B>(m, Stage::Captures)
            }
            MoveKind::Promotion | MoveKind::Normal => {
                if own & (1 << to) != 0 || !self.pseudo_legal(m, kind) {
                    return false;
                }
                self.legal_given_pseudo::<B>(from, to, kind)
            }
        }
    }

    fn find<B: Bits>(&self, m: Move, stage: Stage) -> bool {
        let mut f = Find(m, false);
        self.generate::<B, _>(stage, &mut f);
        f.1
    }

    /// Whether the piece (`kind`) on `m.from()` moves like that, ignoring checks
    /// and pins. The target is known not to hold an own piece.
    fn pseudo_legal(&self, m: Move, kind: usize) -> bool {
        let from = m.from().index();
        let to = m.to().index();
        let us = self.side.index();
        let occ = self.occupied();
        let enemy = self.colors[us ^ 1];
        let promo_rank = if us == 0 { 7 } else { 0 };
        if kind != PieceKind::Pawn.index() {
            if m.kind() == MoveKind::Promotion {
                return false;
            }
            let attacks = match PieceKind::from_index(kind) {
                PieceKind::Knight => KNIGHT_ATTACKS[from],
                PieceKind::Bishop => self.bishop_attacks(from),
                PieceKind::Rook => self.rook_attacks(from),
                PieceKind::Queen => self.bishop_attacks(from) | self.rook_attacks(from),
                _ => KING_ATTACKS[from],
            };
            return attacks & (1 << to) != 0;
        }
        if (to / 8 == promo_rank) != (m.kind() == MoveKind::Promotion) {
            return false;
        }
        let up: i32 = if us == 0 { 8 } else { -8 };
        let start_rank = if us == 0 { 1 } else { 6 };
        let step = to as i32 - from as i32;
        if PAWN_ATTACKS[us][from] & (1 << to) != 0 {
            enemy & (1 << to) != 0
        } else if step == up {
            occ & (1 << to) == 0
        } else if step == 2 * up && from / 8 == start_rank {
            occ & ((1 << to) | (1 << (from as i32 + up))) == 0
        } else {
            false
        }
    }

    /// Legality of a pseudo-legal normal move or promotion: king safety, check
    /// evasion and pins.
    fn legal_given_pseudo<B: Bits>(&self, from: usize, to: usize, kind: usize) -> bool {
        let us = self.side.index();
        if kind == KING {
            let occ = self.occupied() ^ (1 << from);
            return !self.is_attacked_in::<false>(to, occ, &self.attacker_sets(us ^ 1));
        }
        let ksq = self.ksq::<B>(us);
        if self.check_mask::<B>(ksq) & (1 << to) == 0 {
            return false;
        }
        let pinned = self.blockers & self.colors[us];
        pinned & (1 << from) == 0 || LINE[ksq][from] & (1 << to) != 0
    }

    /// Whether the legal move `m` gives check.
    ///
    /// This computes the [`CheckInfo`] for the one move; a search asking about
    /// many moves of one position computes it once with [`Board::check_info`] and
    /// calls [`Board::gives_check_with`].
    pub fn gives_check<B: Bits>(&self, m: Move) -> bool {
        self.gives_check_with::<B>(m, &self.check_info::<B>())
    }

    /// Whether the legal move `m` gives check, given this position's `ci`
    /// (computed with the same bit path `B`).
    pub fn gives_check_with<B: Bits>(&self, m: Move, ci: &CheckInfo) -> bool {
        let us = self.side.index();
        let from = m.from().index();
        let to = m.to().index();
        match m.kind() {
            // Castling and en passant move two men: look from the enemy king
            // with the occupancy after the move. The enemy king is not in
            // check before our move, and a king gives none, so a new check
            // comes from our sliders (the castled rook among them) or, after
            // en passant, the capturing pawn: no knight or other pawn moved.
            // Playing the move out on a copy of the board, as this did
            // before, took 79 M instructions of `bench 8 --hash 1` in this
            // function where it now takes 74 M (callgrind).
            MoveKind::Castling | MoveKind::EnPassant => {
                let eksq = self.ksq::<B>(us ^ 1);
                let ours = self.colors[us];
                let (occ, rooks, pawn_check) = if m.kind() == MoveKind::Castling {
                    // The move is encoded as the king taking its own rook.
                    let (king_to, rook_to) = make::castling_targets(from, to);
                    let occ = (self.occupied() & !(1 << from) & !(1 << to))
                        | (1 << king_to)
                        | (1 << rook_to);
                    let rooks = (self.pieces[ROOK] & ours & !(1 << to)) | (1 << rook_to);
                    (occ, rooks, false)
                } else {
                    // The captured pawn stands behind `to`, on `from`'s rank.
                    let occ = (self.occupied() & !(1 << from) & !(1 << (to ^ 8))) | (1 << to);
                    let pawn_check = PAWN_ATTACKS[us][to] & (1 << eksq) != 0;
                    (occ, self.pieces[ROOK] & ours, pawn_check)
                };
                let queens = self.pieces[QUEEN] & ours;
                pawn_check
                    || self.rook_attacks_with(eksq, occ) & (rooks | queens) != 0
                    || self.bishop_attacks_with(eksq, occ) & ((self.pieces[BISHOP] & ours) | queens)
                        != 0
            }
            MoveKind::Normal => {
                let kind = kind_of(self.mailbox[from] as usize);
                // Direct check by the piece on its new square, or a discovered one
                // by a slider whose line the piece left.
                ci.check_squares[kind] & (1 << to) != 0 || self.discovers_check::<B>(from, to, ci)
            }
            MoveKind::Promotion => {
                // The promoted piece's lines may run through the square the pawn
                // left: look with the pawn gone.
                let eksq = self.ksq::<B>(us ^ 1);
                let occ = self.occupied() ^ (1 << from);
                let attacks = match m.promotion_kind() {
                    Some(PieceKind::Knight) => KNIGHT_ATTACKS[to],
                    Some(PieceKind::Bishop) => self.bishop_attacks_with(to, occ),
                    Some(PieceKind::Rook) => self.rook_attacks_with(to, occ),
                    _ => self.bishop_attacks_with(to, occ) | self.rook_attacks_with(to, occ),
                };
                attacks & (1 << eksq) != 0 || self.discovers_check::<B>(from, to, ci)
            }
        }
    }

    /// Whether our piece leaving `from` for `to` uncovers one of our sliders on
    /// the enemy king.
    #[inline(always)]
    fn discovers_check<B: Bits>(&self, from: usize, to: usize, ci: &CheckInfo) -> bool {
        let eksq = self.ksq::<B>(self.side.index() ^ 1);
        ci.blockers & self.colors[self.side.index()] & (1 << from) != 0
            && LINE[eksq][from] & (1 << to) == 0
    }
}
