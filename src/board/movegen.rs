//! Legal move generation with pins and a check mask: no make-and-test.
//!
//! One generator serves every use through a [`Sink`]: [`MoveList`] collects moves,
//! [`Counter`] only counts them with popcounts (perft's bulk counting at the last
//! ply). [`Stage`] splits the moves into captures-and-queen-promotions and the
//! rest, so the search can generate them lazily and quiescence never sees an
//! under-promotion. The sinks live in [`crate::moves`] (below both this module and
//! the slider backends) and are re-exported here.

use super::threats::AttackerSets;
use super::*;
use crate::bits::Bits;
pub use crate::moves::{Collect, Counter, MoveList, Sink, MAX_MOVES};

/// Every square but the a-file, and every square but the h-file: the pawns
/// that can capture towards each.
const NOT_A: Bitboard = !0x0101_0101_0101_0101;
const NOT_H: Bitboard = !0x8080_8080_8080_8080;

/// Which moves to generate. `Captures` and `Quiets` split `All`: every legal move
/// is in exactly one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Every legal move.
    All,
    /// Captures (en passant included) and queen promotions, capturing or not:
    /// what quiescence searches.
    Captures,
    /// Everything else: quiet moves, castling, and the under-promotions (to
    /// knight, rook or bishop), capturing or not.
    Quiets,
}

impl<S: Slider> Board<S> {
    /// Generate the legal moves of `stage` into `sink`.
    #[inline]
    pub fn generate<B: Bits, K: Sink>(&self, stage: Stage, sink: &mut K) {
        match self.side {
            Color::White => self.gen::<B, K, true>(stage, sink),
            Color::Black => self.gen::<B, K, false>(stage, sink),
        }
    }

    /// All legal moves.
    pub fn legal_moves<B: Bits>(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<B, _>(Stage::All, &mut Collect::<B>::new(&mut list));
        list
    }

    /// The legal moves of one stage.
    pub fn stage_moves<B: Bits>(&self, stage: Stage) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<B, _>(stage, &mut Collect::<B>::new(&mut list));
        list
    }

    /// The number of legal moves, counted with popcounts.
    #[inline]
    pub fn count_moves<B: Bits>(&self) -> u64 {
        let mut c = Counter::<B>::new();
        self.generate::<B, _>(Stage::All, &mut c);
        c.0
    }

    /// The squares the king of the side to move can step to under the stage mask.
    #[inline(always)]
    fn king_targets<B: Bits>(&self, us: usize, ksq: usize, stage_targets: Bitboard) -> Bitboard {
        let them = us ^ 1;
        let mut candidates = KING_ATTACKS[ksq] & stage_targets;
        if candidates == 0 {
            return 0;
        }
        let occ = self.occupied();
        let mut sets = self.attacker_sets(them);
        if S::SETWISE {
            // Every enemy slider's attacks in one pass, with the king lifted off
            // the board so that a checking slider's line runs on behind it; the
            // squares left need only the pawn, knight and king tests.
            candidates &= !S::slider_attacks::<B>(
                &self.slider,
                sets.straight,
                sets.diagonal,
                occ ^ (1 << ksq),
            );
            sets.straight = 0;
            sets.diagonal = 0;
        } else {
            // A slider giving check also attacks the squares behind the king on
            // its line.
            let mut sliders = self.checkers & !(self.pieces[PAWN] | self.pieces[KNIGHT]);
            while sliders != 0 {
                let c = B::pop_lsb(&mut sliders) as usize;
                candidates &= !(LINE[ksq][c] ^ (1 << c));
            }
        }
        let mut safe = 0;
        let mut c = candidates;
        while c != 0 {
            let t = B::pop_lsb(&mut c) as usize;
            // The set form (no early exit) measured fewer instructions here than
            // `is_attacked_in`: most candidate squares are safe, so every test runs.
            if self.attackers_in::<true>(t, occ, &sets) == 0 {
                safe |= 1 << t;
            }
        }
        safe
    }

    fn gen<B: Bits, K: Sink, const WHITE: bool>(&self, stage: Stage, sink: &mut K) {
        let us = if WHITE { 0 } else { 1 };
        let them = us ^ 1;
        let own = self.colors[us];
        let enemy = self.colors[them];
        let occ = own | enemy;
        let ksq = self.ksq::<B>(us);
        let stage_targets = match stage {
            Stage::All => !own,
            Stage::Captures => enemy,
            Stage::Quiets => !occ,
        };

        // Step 1. King moves; in double check nothing else moves.
        sink.piece_moves(ksq, self.king_targets::<B>(us, ksq, stage_targets));
        let checkers = self.checkers;
        if checkers & checkers.wrapping_sub(1) != 0 {
            return;
        }

        // Step 2. The check mask: with one checker, capture it or block its line.
        let check_mask = if checkers != 0 {
            BETWEEN[ksq][B::lsb(checkers) as usize & 63] | checkers
        } else {
            !0
        };
        let targets = stage_targets & check_mask;

        // Step 3. Pinned pieces move only along the line through the king (make
        // found them).
        let pinned = self.blockers & own;

        // Step 4. Knights (a pinned knight never moves), unless the sink has
        // counted them.
        if !(K::MAY_KNOW && sink.knights_known()) {
            let mut knights = self.pieces[KNIGHT] & own & !pinned;
            while knights != 0 {
                let sq = B::pop_lsb(&mut knights) as usize;
                sink.piece_moves(sq, KNIGHT_ATTACKS[sq] & targets);
            }
        }

        // Step 5. Sliders. The backend emits the moves (RayLoop walks its rays).
        // Free sliders first, then the (rare) pinned ones, which move only along
        // the pin line: two loops instead of a test per slider.
        let queens = self.pieces[QUEEN];
        let diagonal = (self.pieces[BISHOP] | queens) & own;
        let straight = (self.pieces[ROOK] | queens) & own;
        if !(K::MAY_KNOW && sink.sliders_known()) {
            let mut free = diagonal & !pinned;
            while free != 0 {
                let sq = B::pop_lsb(&mut free) as usize;
                S::bishop_moves(&self.slider, sq, own, enemy, targets, sink);
            }
            let mut free = straight & !pinned;
            while free != 0 {
                let sq = B::pop_lsb(&mut free) as usize;
                S::rook_moves(&self.slider, sq, own, enemy, targets, sink);
            }
        }
        let mut held = (diagonal | straight) & pinned;
        while held != 0 {
            let sq = B::pop_lsb(&mut held) as usize;
            let line = targets & LINE[ksq][sq];
            if diagonal & (1 << sq) != 0 {
                S::bishop_moves(&self.slider, sq, own, enemy, line, sink);
            }
            if straight & (1 << sq) != 0 {
                S::rook_moves(&self.slider, sq, own, enemy, line, sink);
            }
        }

        // Step 6. Pawns, set-wise for the free ones.
        self.pawn_moves::<B, K, WHITE>(stage, sink, pinned, check_mask, ksq);

        // Step 7. Castling, never out of check.
        if checkers == 0 && stage != Stage::Captures {
            self.castling_moves::<B, K>(us, ksq, sink);
        }
    }

    #[inline(always)]
    fn pawn_moves<B: Bits, K: Sink, const WHITE: bool>(
        &self,
        stage: Stage,
        sink: &mut K,
        pinned: Bitboard,
        check_mask: Bitboard,
        ksq: usize,
    ) {
        let (us, up): (usize, i32) = if WHITE { (0, 8) } else { (1, -8) };
        let shift = |b: Bitboard, d: i32| if d > 0 { b << d } else { b >> -d };
        let own = self.colors[us];
        let enemy = self.colors[us ^ 1];
        let empty = !(own | enemy);
        let pawns = self.pieces[PAWN] & own;
        let last = if WHITE { RANK_MASKS[7] } else { RANK_MASKS[0] };
        let third = if WHITE { RANK_MASKS[2] } else { RANK_MASKS[5] };
        let quiets = stage != Stage::Captures;
        let captures = stage != Stage::Quiets;

        if !(K::MAY_KNOW && sink.pawns_known()) {
            self.free_pawn_moves::<K, WHITE>(stage, sink, pinned, check_mask);
        }
        // Pinned pawns move only along the pin, and never when in check.
        let mut pinned_pawns = if self.checkers == 0 {
            pawns & pinned
        } else {
            0
        };
        while pinned_pawns != 0 {
            let sq = B::pop_lsb(&mut pinned_pawns) as usize;
            let line = LINE[ksq][sq];
            let bb = 1u64 << sq;
            let one = shift(bb, up) & empty & line;
            let two = shift(one & third, up) & empty;
            if quiets {
                sink.pawn_moves(one & !last, up);
                sink.pawn_moves(two, 2 * up);
            }
            promotions(stage, sink, one & last, up);
            let caps = PAWN_ATTACKS[us][sq] & enemy & line;
            for (d, mask) in [(up - 1, NOT_A), (up + 1, NOT_H)] {
                let t = shift(bb & mask, d) & caps;
                if captures {
                    sink.pawn_moves(t & !last, d);
                }
                promotions(stage, sink, t & last, d);
            }
        }

        // En passant: test the king's lines with both pawns gone and the capturer
        // on the target square; this also catches the rank "pin" through two pawns.
        // An en-passant square flagged unusable (no legal capture) is >= 64.
        if captures && self.ep < 64 {
            let ep = self.ep as usize;
            let mut attackers = PAWN_ATTACKS[us ^ 1][ep] & pawns;
            // make (and the FEN parser) keep the square unflagged only when some
            // capture there is legal: a lone capturer needs no second test.
            if attackers & attackers.wrapping_sub(1) == 0 {
                let from = B::lsb(attackers);
                sink.push(Move::en_passant(from, ep as u32));
                return;
            }
            while attackers != 0 {
                let from = B::pop_lsb(&mut attackers) as usize;
                if self.ep_capture_is_safe(from, ep, ksq, check_mask) {
                    sink.push(Move::en_passant(from as u32, ep as u32));
                }
            }
        }
    }

    /// The moves of the side's pawns that are not `pinned`, set-wise: the
    /// side is `WHITE`'s, whatever the side to move (perft's last ply but one
    /// counts the replying side's moves with it, see `board::perft`).
    #[inline(always)]
    pub(crate) fn free_pawn_moves<K: Sink, const WHITE: bool>(
        &self,
        stage: Stage,
        sink: &mut K,
        pinned: Bitboard,
        check_mask: Bitboard,
    ) {
        let (us, up): (usize, i32) = if WHITE { (0, 8) } else { (1, -8) };
        let shift = |b: Bitboard, d: i32| if d > 0 { b << d } else { b >> -d };
        let own = self.colors[us];
        let enemy = self.colors[us ^ 1];
        let empty = !(own | enemy);
        let last = if WHITE { RANK_MASKS[7] } else { RANK_MASKS[0] };
        let third = if WHITE { RANK_MASKS[2] } else { RANK_MASKS[5] };
        let quiets = stage != Stage::Captures;
        let captures = stage != Stage::Quiets;

        let free = self.pieces[PAWN] & own & !pinned;
        // Pushes.
        let one = shift(free, up) & empty;
        let two = shift(one & third, up) & empty & check_mask;
        let one = one & check_mask;
        if quiets {
            sink.pawn_moves(one & !last, up);
            sink.pawn_moves(two, 2 * up);
        }
        // Captures towards the a-file and towards the h-file.
        let west = up - 1;
        let east = up + 1;
        let cw = shift(free & NOT_A, west) & enemy & check_mask;
        let ce = shift(free & NOT_H, east) & enemy & check_mask;
        if captures {
            sink.pawn_moves(cw & !last, west);
            sink.pawn_moves(ce & !last, east);
        }
        promotions(stage, sink, one & last, up);
        promotions(stage, sink, cw & last, west);
        promotions(stage, sink, ce & last, east);
    }

    #[inline(always)]
    fn castling_moves<B: Bits, K: Sink>(&self, us: usize, ksq: usize, sink: &mut K) {
        let rights = (self.castling >> (2 * us)) & 3;
        if rights == 0 {
            return;
        }
        // Most nodes that hold a right have pieces in the way: one AND per right
        // with the mask set up with it rules those out before any attack test.
        let occ = self.occupied();
        let king_side = rights & 1 != 0 && occ & self.castle_empty[2 * us] == 0;
        let queen_side = rights & 2 != 0 && occ & self.castle_empty[2 * us + 1] == 0;
        if !(king_side || queen_side) {
            return;
        }
        let sets = self.attacker_sets(us ^ 1);
        if king_side {
            self.castle::<B, K>(2 * us, ksq, &sets, sink);
        }
        if queen_side {
            self.castle::<B, K>(2 * us + 1, ksq, &sets, sink);
        }
    }

    /// Castling with right `index` (see [`castling::index`]), if the king's
    /// path is safe (the squares between are known to be empty).
    #[inline(always)]
    fn castle<B: Bits, K: Sink>(
        &self,
        index: usize,
        ksq: usize,
        sets: &AttackerSets,
        sink: &mut K,
    ) {
        let rook = self.castle_rooks[index & 3] as usize & 63;
        let movers = (1u64 << ksq) | (1u64 << rook);
        // The rook may shield the king's path (Chess960), so test without it.
        let occ_after = self.occupied() ^ movers;
        let mut path = self.castle_path[index & 3];
        while path != 0 {
            let sq = B::pop_lsb(&mut path) as usize;
            if self.is_attacked_in::<false>(sq, occ_after, sets) {
                return;
            }
        }
        sink.push(Move::castling(ksq as u32, rook as u32));
    }
}

/// The squares on which the king on `ksq`, castling with the rook on `rook`,
/// must not be attacked: its path and target, and its own square only if the
/// rook is off the a- and h-files (see `Board::castle_path`).
pub(crate) fn castling_path(ksq: usize, rook: usize) -> Bitboard {
    let (king_to, _) = make::castling_targets(ksq, rook);
    let file = rook & 7;
    let beyond_rook = file != 0 && file != 7;
    BETWEEN[ksq][king_to] | (1 << king_to) | if beyond_rook { 1 << ksq } else { 0 }
}

/// The squares that must be empty for the king on `ksq` to castle with the rook
/// on `rook`: every square either crosses or lands on, but not their own.
pub(crate) fn castling_empty(ksq: usize, rook: usize) -> Bitboard {
    let (king_to, rook_to) = make::castling_targets(ksq, rook);
    let movers = (1u64 << ksq) | (1u64 << rook);
    (BETWEEN[ksq][king_to] | (1 << king_to) | BETWEEN[rook][rook_to] | (1 << rook_to)) & !movers
}

/// Send the promotions to `targets` that `stage` wants: all four for `All`, the
/// queen for `Captures`, knight, rook and bishop for `Quiets`.
#[inline(always)]
fn promotions<K: Sink>(stage: Stage, sink: &mut K, targets: Bitboard, delta: i32) {
    if targets == 0 {
        return;
    }
    match stage {
        Stage::All => sink.promotions(targets, delta),
        Stage::Captures => sink.queen_promotions(targets, delta),
        Stage::Quiets => sink.under_promotions(targets, delta),
    }
}
