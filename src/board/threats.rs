//! Who attacks what: the one attacked-square test every question goes through
//! (checks, king moves, castling paths, SEE, FEN validation), the side to move's
//! checkers and pins (kept by make), and the [`CheckInfo`] the search computes once
//! per node to ask [`Board::gives_check_with`] about every move.

use super::*;
use crate::bits::Bits;

/// Squares attacked by the pawns `pawns` of `color`: the two diagonal shifts,
/// each off the edge file a pawn would wrap around from.
#[inline(always)]
pub(crate) fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_FILE_A: Bitboard = !FILE_MASKS[0];
    const NOT_FILE_H: Bitboard = !FILE_MASKS[7];
    match color {
        Color::White => ((pawns & NOT_FILE_A) << 7) | ((pawns & NOT_FILE_H) << 9),
        Color::Black => ((pawns & NOT_FILE_A) >> 9) | ((pawns & NOT_FILE_H) >> 7),
    }
}

/// What tells whether a move gives check, computed once per position by
/// [`Board::check_info`].
///
/// The side to move's own checkers and pins are kept by make (the generator needs
/// them at every node); this is the other half, about the *enemy* king, which only
/// a search asking [`Board::gives_check_with`] needs. Keeping it in make too would
/// cost perft two slider lookups and a pin scan per move for nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckInfo {
    /// Pieces of either colour standing alone between the enemy king and one of
    /// our sliders: our pieces here give discovered check when they leave the line.
    pub blockers: Bitboard,
    /// Our sliders behind `blockers`.
    pub pinners: Bitboard,
    /// For each piece kind, the squares from which a piece of ours of that kind
    /// would attack the enemy king (under the current occupancy; empty for kings).
    pub check_squares: [Bitboard; 6],
}

/// One colour's pieces sorted by how they attack (see [`Board::attacker_sets`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackerSets {
    pawns: Bitboard,
    /// The colour of `pawns` (0 white, 1 black).
    pawn_color: usize,
    knights: Bitboard,
    kings: Bitboard,
    /// Rooks and queens.
    pub(super) straight: Bitboard,
    /// Bishops and queens.
    pub(super) diagonal: Bitboard,
}

impl<S: Slider> Board<S> {
    /// The attackers of colour `by` (0 white, 1 black), sorted by how they attack.
    ///
    /// With [`Board::attackers_in`] and [`Board::is_attacked_in`] this is the one
    /// attacked-square test: every question (checkers, king moves, castling
    /// paths, SEE, `attackers_to`, `is_attacked`, FEN validation) asks it with its
    /// own occupancy and colour. A loop over many squares builds the sets once.
    #[inline(always)]
    pub(crate) fn attacker_sets(&self, by: usize) -> AttackerSets {
        let them = self.colors[by & 1];
        AttackerSets {
            pawns: self.pieces[PAWN] & them,
            pawn_color: by & 1,
            knights: self.pieces[KNIGHT] & them,
            kings: self.pieces[KING] & them,
            straight: self.straight_sliders() & them,
            diagonal: self.diagonal_sliders() & them,
        }
    }

    /// Rook attacks from `sq`: from the board's state if `OWN_OCC` (then `occ`
    /// must be the board's occupancy), else computed for `occ`. `OWN_OCC` is a
    /// constant at every call site, so the branch folds away.
    #[inline(always)]
    fn rook_from<const OWN_OCC: bool>(&self, sq: usize, occ: Bitboard) -> Bitboard {
        if OWN_OCC {
            self.rook_attacks(sq)
        } else {
            self.rook_attacks_with(sq, occ)
        }
    }

    /// Bishop attacks from `sq`, as [`Board::rook_from`].
    #[inline(always)]
    fn bishop_from<const OWN_OCC: bool>(&self, sq: usize, occ: Bitboard) -> Bitboard {
        if OWN_OCC {
            self.bishop_attacks(sq)
        } else {
            self.bishop_attacks_with(sq, occ)
        }
    }

    /// The pieces of `s` attacking square `sq` when the occupancy is `occ`.
    #[inline(always)]
    pub(crate) fn attackers_in<const OWN_OCC: bool>(
        &self,
        sq: usize,
        occ: Bitboard,
        s: &AttackerSets,
    ) -> Bitboard {
        let sq = sq & 63;
        let mut a = (PAWN_ATTACKS[(s.pawn_color ^ 1) & 1][sq] & s.pawns)
            | (KNIGHT_ATTACKS[sq] & s.knights)
            | (KING_ATTACKS[sq] & s.kings);
        if s.straight != 0 {
            a |= self.rook_from::<OWN_OCC>(sq, occ) & s.straight;
        }
        if s.diagonal != 0 {
            a |= self.bishop_from::<OWN_OCC>(sq, occ) & s.diagonal;
        }
        a
    }

    /// Whether a piece of `s` attacks `sq` under `occ`: [`Board::attackers_in`]
    /// `!= 0`, stopping at the first kind found (cheap ones first).
    #[inline(always)]
    pub(crate) fn is_attacked_in<const OWN_OCC: bool>(
        &self,
        sq: usize,
        occ: Bitboard,
        s: &AttackerSets,
    ) -> bool {
        let sq = sq & 63;
        (PAWN_ATTACKS[(s.pawn_color ^ 1) & 1][sq] & s.pawns) != 0
            || (KNIGHT_ATTACKS[sq] & s.knights) != 0
            || (KING_ATTACKS[sq] & s.kings) != 0
            || (s.straight != 0 && self.rook_from::<OWN_OCC>(sq, occ) & s.straight != 0)
            || (s.diagonal != 0 && self.bishop_from::<OWN_OCC>(sq, occ) & s.diagonal != 0)
    }

    /// Pieces of either colour attacking `sq` when the occupancy is `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.attackers_of_both::<false>(sq.index(), occ)
    }

    /// Pieces of either colour attacking square `sq` under `occ`.
    #[inline(always)]
    pub(crate) fn attackers_of_both<const OWN_OCC: bool>(
        &self,
        sq: usize,
        occ: Bitboard,
    ) -> Bitboard {
        let mut both = self.attacker_sets(0);
        let black = self.attacker_sets(1);
        both.knights |= black.knights;
        both.kings |= black.kings;
        both.straight |= black.straight;
        both.diagonal |= black.diagonal;
        self.attackers_in::<OWN_OCC>(sq, occ, &both) | (PAWN_ATTACKS[0][sq & 63] & black.pawns)
    }

    /// Whether `by` attacks `sq` under the board's own occupancy.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_attacked_in::<true>(sq.index(), self.occupied(), &self.attacker_sets(by.index()))
    }

    /// The checkers and the king blockers of the side to move,
    /// computed from scratch (make and the FEN parser keep them with this).
    ///
    /// Slider checks come from the same walk as the blockers: an enemy slider on
    /// a line to the king with nothing between gives check. That walk runs
    /// anyway, so the checkers need no slider lookup (measured: two `pext`
    /// lookups per make saved, callgrind in docs/speed.md). A backend that finds
    /// pins by x-ray ([`Slider::XRAY_PINS`]) keeps the lookups.
    #[inline(always)]
    pub(crate) fn update_check_state<B: Bits>(&mut self) {
        self.update_check_state_at::<B>(self.ksq::<B>(self.side.index()));
    }

    /// [`Board::update_check_state`] with the side to move's king on `ksq`.
    #[inline(always)]
    pub(crate) fn update_check_state_at<B: Bits>(&mut self, ksq: usize) {
        let us = self.side.index();
        let enemy = self.colors[us ^ 1];
        if S::XRAY_PINS {
            // A king never gives check: leave kings out of the test.
            let sets = AttackerSets {
                kings: 0,
                ..self.attacker_sets(us ^ 1)
            };
            self.checkers = self.attackers_in::<true>(ksq, self.occupied(), &sets);
            self.blockers = self.slider_blockers::<B>(ksq, enemy).0;
            return;
        }
        let occ = self.occupied();
        let mut checkers = ((PAWN_ATTACKS[us][ksq] & self.pieces[PAWN])
            | (KNIGHT_ATTACKS[ksq] & self.pieces[KNIGHT]))
            & enemy;
        let mut snipers = ((ROOK_PSEUDO_ATTACKS[ksq] & self.straight_sliders())
            | (BISHOP_PSEUDO_ATTACKS[ksq] & self.diagonal_sliders()))
            & enemy;
        let mut blockers = 0;
        while snipers != 0 {
            let s = B::pop_lsb(&mut snipers) as usize;
            let between = BETWEEN[ksq][s] & occ;
            if between == 0 {
                checkers |= 1 << s;
            } else if between & (between - 1) == 0 {
                blockers |= between;
            }
        }
        self.checkers = checkers;
        self.blockers = blockers;
    }

    /// The pieces of either colour standing alone between square `ksq` and a
    /// slider of `snipers_of` (a colour's bitboard), with those sliders.
    #[inline(always)]
    pub(crate) fn slider_blockers<B: Bits>(
        &self,
        ksq: usize,
        snipers_of: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let occ = self.occupied();
        let rq = ROOK_PSEUDO_ATTACKS[ksq] & self.straight_sliders() & snipers_of;
        let bq = BISHOP_PSEUDO_ATTACKS[ksq] & self.diagonal_sliders() & snipers_of;
        let mut blockers = 0;
        let mut pinners = 0;
        if S::XRAY_PINS {
            // One x-ray of the king finds the pinners: enemy sliders right behind
            // the first piece on a line. Look only when one is aligned at all.
            if rq != 0 {
                pinners |= S::rook_xray(ksq, occ) & rq;
            }
            if bq != 0 {
                pinners |= S::bishop_xray(ksq, occ) & bq;
            }
            let mut p = pinners;
            while p != 0 {
                let s = B::pop_lsb(&mut p) as usize;
                blockers |= BETWEEN[ksq][s] & occ;
            }
            return (blockers, pinners);
        }
        let mut snipers = rq | bq;
        while snipers != 0 {
            let s = B::pop_lsb(&mut snipers) as usize;
            let between = BETWEEN[ksq][s] & occ;
            if between & between.wrapping_sub(1) == 0 {
                // One piece between (or none: a checker, which adds nothing to
                // the blockers). Callers that want only the blockers let the
                // compiler drop the pinner bookkeeping.
                blockers |= between;
                if between != 0 {
                    pinners |= 1 << s;
                }
            }
        }
        (blockers, pinners)
    }

    /// Pieces of either colour that stand alone between `color`'s king and an enemy
    /// slider aiming at it (pinned pieces, or discovered-check candidates).
    ///
    /// For the side to move this is kept by make and costs nothing.
    pub fn blockers_for_king<B: Bits>(&self, color: Color) -> Bitboard {
        if color == self.side {
            return self.blockers;
        }
        let c = color.index();
        self.slider_blockers::<B>(self.ksq::<B>(c), self.colors[c ^ 1])
            .0
    }

    /// Every square a piece of the side *not* to move attacks under the board's
    /// occupancy (squares of either colour's pieces included): the squares where
    /// a piece of the side to move stands, or would stand, en prise to
    /// something. The search's threat-aware history reads it, once per node.
    pub fn threats<B: Bits>(&self) -> Bitboard {
        let them = self.side.index() ^ 1;
        let own = self.colors[them];
        let mut attacked = pawn_attacks(self.side.flip(), self.pieces[PAWN] & own);
        let mut knights = self.pieces[KNIGHT] & own;
        while knights != 0 {
            attacked |= KNIGHT_ATTACKS[B::pop_lsb(&mut knights) as usize & 63];
        }
        let mut diagonal = self.diagonal_sliders() & own;
        while diagonal != 0 {
            attacked |= self.bishop_attacks(B::pop_lsb(&mut diagonal) as usize & 63);
        }
        let mut straight = self.straight_sliders() & own;
        while straight != 0 {
            attacked |= self.rook_attacks(B::pop_lsb(&mut straight) as usize & 63);
        }
        attacked | KING_ATTACKS[self.ksq::<B>(them) & 63]
    }

    /// What [`Board::gives_check_with`] needs: compute it once per position.
    pub fn check_info<B: Bits>(&self) -> CheckInfo {
        let us = self.side.index();
        let eksq = self.ksq::<B>(us ^ 1);
        let (blockers, pinners) = self.slider_blockers::<B>(eksq, self.colors[us]);
        let bishop = self.bishop_attacks(eksq);
        let rook = self.rook_attacks(eksq);
        CheckInfo {
            blockers,
            pinners,
            check_squares: [
                PAWN_ATTACKS[us ^ 1][eksq],
                KNIGHT_ATTACKS[eksq],
                bishop,
                rook,
                bishop | rook,
                0,
            ],
        }
    }

    /// Whether the side to move could legally take en passant on `ep` (a pawn of
    /// theirs having just gone two squares past it): the capture must not leave
    /// the king on a line the two vanishing pawns opened, and in check it must
    /// capture the checker or block its line.
    ///
    /// Needs the checkers of the side to move. Used by make and the FEN parser,
    /// which keep an en-passant square (and its key) only when this holds, and by
    /// the generator for each capturing pawn ([`Board::ep_capture_is_safe`]).
    pub(crate) fn ep_capture_exists<B: Bits>(&self, ep: usize) -> bool {
        let us = self.side.index();
        let pawns = PAWN_ATTACKS[us ^ 1][ep] & self.pieces[PAWN] & self.colors[us];
        if pawns == 0 {
            return false;
        }
        let ksq = self.ksq::<B>(us);
        let mut p = pawns;
        while p != 0 {
            let from = B::pop_lsb(&mut p) as usize;
            if self.ep_capture_is_safe(from, ep, ksq, self.check_mask::<B>(ksq)) {
                return true;
            }
        }
        false
    }

    /// The squares a non-king move must land on to answer the checks: all with no
    /// check, the checker and its line with one, none in double check.
    #[inline(always)]
    pub(crate) fn check_mask<B: Bits>(&self, ksq: usize) -> Bitboard {
        let c = self.checkers;
        if c == 0 {
            !0
        } else if c & c.wrapping_sub(1) != 0 {
            0
        } else {
            BETWEEN[ksq][B::lsb(c) as usize & 63] | c
        }
    }

    /// Whether the pawn on `from` may take en passant on `ep`: it answers any check
    /// (`check_mask`), and with both pawns gone and the capturer on `ep` no enemy
    /// slider sees the king on `ksq` (this also catches the rank "pin" through two
    /// pawns).
    #[inline(always)]
    pub(crate) fn ep_capture_is_safe(
        &self,
        from: usize,
        ep: usize,
        ksq: usize,
        check_mask: Bitboard,
    ) -> bool {
        let captured = ep ^ 8;
        // The common case needs no slider lookup: out of check, neither pawn
        // alone on a line to the king (not in `blockers`), and the king off the
        // pawns' rank (the one line on which the two vanishing pawns could be the
        // only blockers together). Moving onto `ep` can only block a line.
        let movers = (1u64 << from) | (1u64 << captured);
        if self.checkers == 0 && self.blockers & movers == 0 && ksq >> 3 != captured >> 3 {
            return true;
        }
        if check_mask & ((1 << ep) | (1 << captured)) == 0 {
            return false;
        }
        let enemy = self.colors[self.side.index() ^ 1];
        let occ = (self.occupied() ^ (1 << from) ^ (1 << captured)) | (1 << ep);
        self.rook_attacks_with(ksq, occ) & self.straight_sliders() & enemy == 0
            && self.bishop_attacks_with(ksq, occ) & self.diagonal_sliders() & enemy == 0
    }
}
