//! Legal move generation with pins and a check mask: no make-and-test.
//!
//! One generator serves every use through a [`Sink`]: [`MoveList`] collects moves,
//! [`Counter`] only counts them with popcounts (perft's bulk counting at the last
//! ply). [`Stage`] splits the moves into captures-and-promotions and quiet moves, so
//! the search can generate them lazily.

use super::{Board, NO_SQUARE};
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::tables::*;
use crate::types::*;
use std::marker::PhantomData;

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Every legal move.
    All,
    /// Captures (en passant included) and all promotions.
    Captures,
    /// Everything else: quiet moves and castling.
    Quiets,
}

/// Receives generated moves, as single moves or as sets of target squares.
pub trait Sink {
    /// Moves of the piece on `from` to every square of `targets`.
    fn piece_moves(&mut self, from: usize, targets: Bitboard);
    /// Pawn moves to every square of `targets` from `to - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32);
    /// The four promotions to every square of `targets` from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i32);
    /// One move (en passant, castling).
    fn push(&mut self, m: Move);
}

/// A list of at most 256 moves (the most legal moves known in a position is 218).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; 256],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // A legal position has at most 218 moves; the check keeps a corrupted board
        // from writing out of bounds, and is almost never taken.
        if self.len < self.moves.len() {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// Collects moves into a [`MoveList`], scanning target sets with the bit path `B`.
pub struct Collect<'a, B: Bits>(pub &'a mut MoveList, PhantomData<B>);

impl<'a, B: Bits> Collect<'a, B> {
    pub fn new(list: &'a mut MoveList) -> Self {
        Collect(list, PhantomData)
    }
}

impl<B: Bits> Sink for Collect<'_, B> {
    #[inline(always)]
    fn piece_moves(&mut self, from: usize, mut targets: Bitboard) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.0.push(Move::normal(from as u32, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.0.push(Move::normal((to as i32 - delta) as u32, to));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            let from = (to as i32 - delta) as u32;
            for kind in [
                PieceKind::Queen,
                PieceKind::Knight,
                PieceKind::Rook,
                PieceKind::Bishop,
            ] {
                self.0.push(Move::promotion(from, to, kind));
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts moves without listing them.
pub struct Counter<B: Bits>(pub u64, PhantomData<B>);

impl<B: Bits> Counter<B> {
    pub fn new() -> Self {
        Counter(0, PhantomData)
    }
}

impl<B: Bits> Default for Counter<B> {
    fn default() -> Self {
        Counter::new()
    }
}

impl<B: Bits> Sink for Counter<B> {
    #[inline(always)]
    fn piece_moves(&mut self, _: usize, targets: Bitboard) {
        self.0 += B::popcount(targets) as u64;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _: i32) {
        self.0 += B::popcount(targets) as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _: i32) {
        self.0 += 4 * B::popcount(targets) as u64;
    }

    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
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

    /// Whether `sq` is attacked by `them` when the occupancy is `occ` (which may
    /// differ from the board's, as for castling through a moved rook).
    #[inline(always)]
    fn attacked_with(&self, sq: usize, them: usize, occ: Bitboard) -> bool {
        let enemy = self.colors[them];
        let rq = (self.pieces[3] | self.pieces[4]) & enemy;
        let bq = (self.pieces[2] | self.pieces[4]) & enemy;
        (PAWN_ATTACKS[them ^ 1][sq] & self.pieces[0] & enemy) != 0
            || (KNIGHT_ATTACKS[sq] & self.pieces[1] & enemy) != 0
            || (KING_ATTACKS[sq] & self.pieces[5] & enemy) != 0
            || (S::rook_any(sq, occ) & rq) != 0
            || (S::bishop_any(sq, occ) & bq) != 0
    }

    /// The squares the king of the side to move can step to under the stage mask.
    #[inline(always)]
    fn king_targets<B: Bits>(&self, us: usize, ksq: usize, stage_targets: Bitboard) -> Bitboard {
        let them = us ^ 1;
        let enemy = self.colors[them];
        let mut candidates = KING_ATTACKS[ksq] & stage_targets;
        if candidates == 0 {
            return 0;
        }
        // A slider giving check also attacks the squares behind the king on its line.
        let mut sliders = self.checkers & !(self.pieces[0] | self.pieces[1]);
        while sliders != 0 {
            let c = B::pop_lsb(&mut sliders) as usize;
            candidates &= !(LINE[ksq][c] ^ (1 << c));
        }
        let rq = (self.pieces[3] | self.pieces[4]) & enemy;
        let bq = (self.pieces[2] | self.pieces[4]) & enemy;
        let pawns = self.pieces[0] & enemy;
        let knights = self.pieces[1] & enemy;
        let eking = self.pieces[5] & enemy;
        let mut safe = 0;
        let mut c = candidates;
        while c != 0 {
            let t = B::pop_lsb(&mut c) as usize;
            let attacked = (PAWN_ATTACKS[us][t] & pawns)
                | (KNIGHT_ATTACKS[t] & knights)
                | (KING_ATTACKS[t] & eking)
                | (if rq != 0 {
                    self.rook_attacks(t) & rq
                } else {
                    0
                })
                | (if bq != 0 {
                    self.bishop_attacks(t) & bq
                } else {
                    0
                });
            if attacked == 0 {
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
        let ksq = self.king_square(self.side);
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
            BETWEEN[ksq][checkers.trailing_zeros() as usize] | checkers
        } else {
            !0
        };
        let targets = stage_targets & check_mask;

        // Step 3. Pinned pieces move only along the line through the king.
        let pinned = self.pinned::<B>(us, ksq);

        // Step 4. Knights (a pinned knight never moves).
        let mut knights = self.pieces[1] & own & !pinned;
        while knights != 0 {
            let sq = B::pop_lsb(&mut knights) as usize;
            sink.piece_moves(sq, KNIGHT_ATTACKS[sq] & targets);
        }

        // Step 5. Sliders. The backend emits the moves (RayLoop walks its rays).
        let queens = self.pieces[4];
        let pin_mask = |sq: usize| {
            if pinned & (1 << sq) != 0 {
                targets & LINE[ksq][sq]
            } else {
                targets
            }
        };
        let mut diagonal = (self.pieces[2] | queens) & own;
        while diagonal != 0 {
            let sq = B::pop_lsb(&mut diagonal) as usize;
            S::bishop_moves(&self.slider, sq, own, enemy, pin_mask(sq), sink);
        }
        let mut straight = (self.pieces[3] | queens) & own;
        while straight != 0 {
            let sq = B::pop_lsb(&mut straight) as usize;
            S::rook_moves(&self.slider, sq, own, enemy, pin_mask(sq), sink);
        }

        // Step 6. Pawns, set-wise for the free ones.
        self.pawn_moves::<B, K, WHITE>(stage, sink, pinned, check_mask, ksq);

        // Step 7. Castling, never out of check.
        if checkers == 0 && stage != Stage::Captures {
            self.castling_moves::<B, K>(us, ksq, sink);
        }
    }

    /// Own pieces pinned to the king on `ksq`.
    #[inline(always)]
    fn pinned<B: Bits>(&self, us: usize, ksq: usize) -> Bitboard {
        self.king_blockers::<B>(ksq, us ^ 1) & self.colors[us]
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
        let pawns = self.pieces[0] & own;
        let last = if WHITE { RANK_MASKS[7] } else { RANK_MASKS[0] };
        let third = if WHITE { RANK_MASKS[2] } else { RANK_MASKS[5] };
        const NOT_A: Bitboard = !0x0101_0101_0101_0101;
        const NOT_H: Bitboard = !0x8080_8080_8080_8080;
        let quiets = stage != Stage::Captures;
        let captures = stage != Stage::Quiets;

        let free = pawns & !pinned;
        // Pushes.
        let one = shift(free, up) & empty;
        let two = shift(one & third, up) & empty & check_mask;
        let one = one & check_mask;
        if quiets {
            sink.pawn_moves(one & !last, up);
            sink.pawn_moves(two, 2 * up);
        }
        if captures {
            sink.promotions(one & last, up);
            // Captures towards the a-file and towards the h-file.
            let west = up - 1;
            let east = up + 1;
            let cw = shift(free & NOT_A, west) & enemy & check_mask;
            let ce = shift(free & NOT_H, east) & enemy & check_mask;
            sink.pawn_moves(cw & !last, west);
            sink.pawn_moves(ce & !last, east);
            sink.promotions(cw & last, west);
            sink.promotions(ce & last, east);
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
            if captures {
                sink.promotions(one & last, up);
                let caps = PAWN_ATTACKS[us][sq] & enemy & line;
                for (d, mask) in [(up - 1, NOT_A), (up + 1, NOT_H)] {
                    let t = shift(bb & mask, d) & caps;
                    sink.pawn_moves(t & !last, d);
                    sink.promotions(t & last, d);
                }
            }
        }

        // En passant: test the king's lines with both pawns gone and the capturer
        // on the target square; this also catches the rank "pin" through two pawns.
        if captures && self.ep != NO_SQUARE {
            let ep = self.ep as usize;
            let captured = (ep as i32 - up) as usize;
            if check_mask & ((1 << ep) | (1 << captured)) == 0 {
                return;
            }
            let mut attackers = PAWN_ATTACKS[us ^ 1][ep] & pawns;
            let rq = (self.pieces[3] | self.pieces[4]) & enemy;
            let bq = (self.pieces[2] | self.pieces[4]) & enemy;
            while attackers != 0 {
                let from = B::pop_lsb(&mut attackers) as usize;
                let occ = ((own | enemy) ^ (1 << from) ^ (1 << captured)) | (1 << ep);
                if S::rook_any(ksq, occ) & rq == 0 && S::bishop_any(ksq, occ) & bq == 0 {
                    sink.push(Move::en_passant(from as u32, ep as u32));
                }
            }
        }
    }

    #[inline(always)]
    fn castling_moves<B: Bits, K: Sink>(&self, us: usize, ksq: usize, sink: &mut K) {
        let rights = (self.castling >> (2 * us)) & 3;
        if rights == 0 {
            return;
        }
        let occ = self.occupied();
        let back = if us == 0 { 0 } else { 56 };
        for (bit, king_to, rook_to) in [(0, back + 6, back + 5), (1, back + 2, back + 3)] {
            if rights >> bit & 1 == 0 {
                continue;
            }
            let rook = self.castle_rooks[2 * us + bit] as usize;
            let movers = (1u64 << ksq) | (1u64 << rook);
            let king_path = BETWEEN[ksq][king_to] | (1 << king_to);
            let must_be_empty = (king_path | BETWEEN[rook][rook_to] | (1 << rook_to)) & !movers;
            if occ & must_be_empty != 0 {
                continue;
            }
            // The rook may shield the king's path (Chess960), so test without it.
            let occ_after = occ ^ movers;
            let mut path = king_path | (1 << ksq);
            let mut safe = true;
            while path != 0 {
                let sq = B::pop_lsb(&mut path) as usize;
                if self.attacked_with(sq, us ^ 1, occ_after) {
                    safe = false;
                    break;
                }
            }
            if safe {
                sink.push(Move::castling(ksq as u32, rook as u32));
            }
        }
    }
}
