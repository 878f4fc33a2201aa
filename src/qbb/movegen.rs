//! Legal move generation on a [`Qbb`], colour-agnostic: the side to move always
//! moves up the board, so there is one pawn direction and one back rank.
//!
//! Legality comes from a check mask and pins, as in the main board's generator
//! (no make-and-test). Moves go to a [`Sink`], so the same code lists moves
//! ([`Collect`]), counts them with popcounts ([`Counter`], perft's last ply), or
//! makes and searches each one at once (perft's inner plies, no move list).
//!
//! Sliding attacks come from a [`Lookup`] backend's `rook_any`/`bishop_any`: the
//! flipped board cannot keep the incremental state a stateful backend needs, so
//! only the backends whose technique *is* that stateless lookup are built for it
//! (see [`Lookup`]). Squares taken from a bitscan are masked
//! with `& 63`, which lets the compiler drop the table bounds checks without
//! `unsafe`.

use super::Lookup;
use super::{Qbb, RANK_1};
use crate::bits::Bits;
use crate::board::movegen::{Collect, Counter, Sink};
use crate::board::MoveList;
use crate::tables::*;
use crate::types::*;

const RANK_3: Bitboard = RANK_1 << 16;
const RANK_8: Bitboard = RANK_1 << 56;
const NOT_A: Bitboard = !0x0101_0101_0101_0101;
const NOT_H: Bitboard = !0x8080_8080_8080_8080;

/// Pop the lowest square of `b`, as an index the tables accept without a check.
#[inline(always)]
fn pop<B: Bits>(b: &mut Bitboard) -> usize {
    (B::pop_lsb(b) & 63) as usize
}

/// The enemy pieces, split by what the attack tests need.
#[derive(Clone, Copy)]
struct Enemy {
    pawns: Bitboard,
    king: Bitboard,
    knights: Bitboard,
    diagonal: Bitboard,
    orthogonal: Bitboard,
}

impl Enemy {
    /// Whether a piece of the side not to move attacks `sq` when the occupancy is
    /// `occ`. Enemy pawns move down, so they attack `sq` from where a pawn of the
    /// side to move on `sq` would attack. A slider lookup is made only when a
    /// slider stands on one of the square's lines.
    #[inline(always)]
    fn attacks<S: Lookup>(&self, sq: usize, occ: Bitboard) -> bool {
        (PAWN_ATTACKS[0][sq] & self.pawns)
            | (KNIGHT_ATTACKS[sq] & self.knights)
            | (KING_ATTACKS[sq] & self.king)
            != 0
            || (BISHOP_PSEUDO_ATTACKS[sq] & self.diagonal != 0
                && S::bishop_any(sq, occ) & self.diagonal != 0)
            || (ROOK_PSEUDO_ATTACKS[sq] & self.orthogonal != 0
                && S::rook_any(sq, occ) & self.orthogonal != 0)
    }
}

impl Qbb {
    /// Generate every legal move (relative coordinates) into `sink`.
    #[inline(always)]
    pub fn generate<B: Bits, S: Lookup, K: Sink>(&self, sink: &mut K) {
        let occ = self.occupied();
        let us = self.pm;
        let them = occ ^ us;
        let pawns = self.pawns();
        let diagonal = self.diagonal_sliders();
        let orthogonal = self.orthogonal_sliders();
        let their_pawns = pawns & them;
        let kings = self.kings();
        let ksq = (B::lsb(kings & us) & 63) as usize;
        let enemy = Enemy {
            pawns: their_pawns,
            king: kings & them,
            knights: self.knights() & them,
            diagonal: diagonal & them,
            orthogonal: orthogonal & them,
        };

        // Enemy sliders on the king's lines (ignoring what stands between) check
        // when nothing is between and pin a lone piece of ours; one pass finds
        // both, without slider lookups from the king.
        let mut checkers =
            (PAWN_ATTACKS[0][ksq] & their_pawns) | (KNIGHT_ATTACKS[ksq] & enemy.knights);
        let mut pinned = 0;
        let mut snipers = (ROOK_PSEUDO_ATTACKS[ksq] & enemy.orthogonal)
            | (BISHOP_PSEUDO_ATTACKS[ksq] & enemy.diagonal);
        while snipers != 0 {
            let s = pop::<B>(&mut snipers);
            let between = BETWEEN[ksq][s] & occ;
            if between == 0 {
                checkers |= 1 << s;
            } else if between & between.wrapping_sub(1) == 0 {
                pinned |= between & us;
            }
        }

        // King moves, tested with the king off the board so that a slider's
        // attack runs on through the square it leaves.
        let occ_no_king = occ ^ (1 << ksq);
        let mut candidates = KING_ATTACKS[ksq] & !us;
        let mut safe = 0;
        while candidates != 0 {
            let to = pop::<B>(&mut candidates);
            if !enemy.attacks::<S>(to, occ_no_king) {
                safe |= 1 << to;
            }
        }
        sink.piece_moves(ksq, safe);
        // In double check only the king moves.
        if checkers & checkers.wrapping_sub(1) != 0 {
            return;
        }

        // With one checker, capture it or block its line.
        let check_mask = if checkers != 0 {
            BETWEEN[ksq][(B::lsb(checkers) & 63) as usize] | checkers
        } else {
            !0
        };
        let targets = !us & check_mask;

        // Knights: a pinned knight never moves.
        let mut knights = self.knights() & us & !pinned;
        while knights != 0 {
            let from = pop::<B>(&mut knights);
            sink.piece_moves(from, KNIGHT_ATTACKS[from] & targets);
        }

        // Sliders: a pinned one stays on the line through the king.
        let mut sliders = diagonal & us;
        while sliders != 0 {
            let from = pop::<B>(&mut sliders);
            let mut t = S::bishop_any(from, occ) & targets;
            if pinned >> from & 1 != 0 {
                t &= LINE[ksq][from];
            }
            sink.piece_moves(from, t);
        }
        let mut sliders = orthogonal & us;
        while sliders != 0 {
            let from = pop::<B>(&mut sliders);
            let mut t = S::rook_any(from, occ) & targets;
            if pinned >> from & 1 != 0 {
                t &= LINE[ksq][from];
            }
            sink.piece_moves(from, t);
        }

        self.pawn_moves::<B, S, K>(sink, pawns & us, pinned, check_mask, ksq, &enemy);

        // Castling, never out of check.
        if checkers == 0 && self.castle & RANK_1 != 0 {
            self.castling::<B, S, K>(sink, ksq, &enemy);
        }
    }

    #[inline(always)]
    fn pawn_moves<B: Bits, S: Lookup, K: Sink>(
        &self,
        sink: &mut K,
        pawns: Bitboard,
        pinned: Bitboard,
        check_mask: Bitboard,
        ksq: usize,
        enemy: &Enemy,
    ) {
        let occ = self.occupied();
        let empty = !occ;
        let them = occ ^ self.pm;

        // Free pawns, set-wise.
        let free = pawns & !pinned;
        let one = (free << 8) & empty;
        let two = ((one & RANK_3) << 8) & empty & check_mask;
        let one = one & check_mask;
        sink.pawn_moves(one & !RANK_8, 8);
        sink.pawn_moves(two, 16);
        sink.promotions(one & RANK_8, 8);
        let west = ((free & NOT_A) << 7) & them & check_mask;
        let east = ((free & NOT_H) << 9) & them & check_mask;
        sink.pawn_moves(west & !RANK_8, 7);
        sink.pawn_moves(east & !RANK_8, 9);
        sink.promotions(west & RANK_8, 7);
        sink.promotions(east & RANK_8, 9);

        // Pinned pawns move only along the pin; in check they cannot move at all
        // (leaving the line exposes the king, staying on it blocks nothing).
        let mut pinned_pawns = if check_mask == !0 { pawns & pinned } else { 0 };
        while pinned_pawns != 0 {
            let from = pop::<B>(&mut pinned_pawns);
            let line = LINE[ksq][from];
            let bb = 1u64 << from;
            let one = (bb << 8) & empty & line;
            let two = ((one & RANK_3) << 8) & empty;
            sink.pawn_moves(one & !RANK_8, 8);
            sink.pawn_moves(two, 16);
            sink.promotions(one & RANK_8, 8);
            let west = ((bb & NOT_A) << 7) & them & line;
            let east = ((bb & NOT_H) << 9) & them & line;
            sink.pawn_moves(west & !RANK_8, 7);
            sink.pawn_moves(east & !RANK_8, 9);
            sink.promotions(west & RANK_8, 7);
            sink.promotions(east & RANK_8, 9);
        }

        // En passant: look along the king's lines with both pawns gone and ours on
        // the target square; that also catches the rank "pin" through two pawns.
        if self.ep != 0 {
            let ep = (B::lsb(self.ep) & 63) as usize;
            let captured = self.ep >> 8;
            if check_mask & (self.ep | captured) == 0 {
                return;
            }
            let mut attackers = PAWN_ATTACKS[1][ep] & pawns;
            while attackers != 0 {
                let from = pop::<B>(&mut attackers);
                let occ = (occ ^ (1 << from) ^ captured) | self.ep;
                if S::bishop_any(ksq, occ) & enemy.diagonal == 0
                    && S::rook_any(ksq, occ) & enemy.orthogonal == 0
                {
                    sink.push(Move::en_passant(from as u32, ep as u32));
                }
            }
        }
    }

    /// Castling: the king takes its own rook (Chess960 and standard alike).
    #[inline(always)]
    fn castling<B: Bits, S: Lookup, K: Sink>(&self, sink: &mut K, ksq: usize, enemy: &Enemy) {
        let occ = self.occupied();
        let mut rooks = self.castle & RANK_1;
        while rooks != 0 {
            let rook = pop::<B>(&mut rooks);
            let (king_to, rook_to) = if rook > ksq { (6, 5) } else { (2, 3) };
            let movers = (1u64 << ksq) | (1u64 << rook);
            let king_path = BETWEEN[ksq][king_to] | (1 << king_to);
            let rook_path = BETWEEN[rook][rook_to] | (1 << rook_to);
            if occ & (king_path | rook_path) & !movers != 0 {
                continue;
            }
            // Test with both movers gone: the rook may have shielded the path,
            // and the king's own square when it is also its target (the path
            // never holds the king's square otherwise: we are not in check).
            let occ_after = occ ^ movers;
            let mut path = king_path;
            let mut safe = true;
            while path != 0 {
                if enemy.attacks::<S>(pop::<B>(&mut path), occ_after) {
                    safe = false;
                    break;
                }
            }
            if safe {
                sink.push(Move::castling(ksq as u32, rook as u32));
            }
        }
    }

    /// The number of legal moves, counted with popcounts (none is listed).
    #[inline]
    pub fn count_moves<B: Bits, S: Lookup>(&self) -> u64 {
        let mut c = Counter::<B>::new();
        self.generate::<B, S, _>(&mut c);
        c.0
    }

    /// The legal moves, in relative coordinates (see [`Qbb::to_absolute`]).
    pub fn legal_moves<B: Bits, S: Lookup>(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<B, S, _>(&mut Collect::<B>::new(&mut list));
        list
    }
}
