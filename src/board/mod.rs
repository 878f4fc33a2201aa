//! The position: bitboards by piece kind and colour, a mailbox, and the state that
//! make/unmake keeps (castling, en passant, counters, Zobrist keys, checkers).
//!
//! [`Board`] is `Copy` and small. Moves are played with make/unmake, which measured
//! faster than copy-make in perft; the key history for repetitions lives outside
//! it, in [`Position`].

mod fen;
mod legality;
mod make;
pub mod movegen;
mod notation;
pub mod perft;
mod position;
mod see;

pub use fen::{FenError, STARTPOS};
pub use make::Undo;
pub use movegen::{MoveList, Stage};
pub use notation::MoveError;
pub use position::Position;

use crate::attacks::{Magic, Slider};
use crate::bits::Bits;
use crate::tables::*;
use crate::types::*;

/// The mailbox value of an empty square.
pub(crate) const NO_PIECE: u8 = 12;
/// The en-passant value meaning "none".
pub(crate) const NO_SQUARE: u8 = 64;

/// Whether a mailbox piece code (`colour * 6 + kind`) is a pawn.
#[inline(always)]
pub(crate) const fn is_pawn(piece: usize) -> bool {
    piece == 0 || piece == 6
}

/// Castling rights, one bit each: white king side, white queen side, black king
/// side, black queen side (the `ZOBRIST_CASTLING` index).
pub mod castling {
    pub const WHITE_KING: u8 = 1;
    pub const WHITE_QUEEN: u8 = 2;
    pub const BLACK_KING: u8 = 4;
    pub const BLACK_QUEEN: u8 = 8;
    pub const ALL: u8 = 15;

    /// The index (0..4) of a right for `color` (0 white) on the king or queen side.
    pub const fn index(color: usize, king_side: bool) -> usize {
        color * 2 + if king_side { 0 } else { 1 }
    }
}

/// A chess position, generic over the slider backend whose state it keeps.
#[derive(Clone, Copy, Debug)]
pub struct Board<S: Slider = Magic> {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    mailbox: [u8; 64],
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
    side: Color,
    castling: u8,
    /// The rook square of each castling right (valid while the right is held).
    castle_rooks: [u8; 4],
    ep: u8,
    halfmove: u16,
    fullmove: u16,
    chess960: bool,
    slider: S::State,
}

impl<S: Slider> Board<S> {
    /// The standard starting position.
    pub fn startpos() -> Board<S> {
        Board::from_fen(fen::STARTPOS).expect("the start position is a valid FEN")
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.pieces[kind.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The pieces of one colour and kind.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[kind.index()] & self.colors[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let p = self.mailbox[sq.index()];
        (p != NO_PIECE).then(|| {
            Piece::new(
                Color::BOTH[(p / 6) as usize],
                PieceKind::from_index((p % 6) as usize),
            )
        })
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> usize {
        (self.pieces(color, PieceKind::King).trailing_zeros() & 63) as usize
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers != 0
    }

    /// The Zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of the pawns alone (for the pawn hash).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The castling rights held (see [`castling`]).
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The rook square of castling right `index` (0..4, see [`castling::index`]),
    /// if the right is held.
    pub fn castling_rook(&self, index: usize) -> Option<Square> {
        (self.castling >> index & 1 != 0).then(|| Square::new(self.castle_rooks[index] as u32))
    }

    /// The en-passant target square, set only when a pawn of the side to move
    /// could capture there.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then(|| Square::new(self.ep as u32))
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// The full-move number, starting at 1.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// Whether castling moves are written king-takes-rook (Chess960) in UCI.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switch Chess960 notation on or off (the position itself is unchanged).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// The backend state (for tests: it must match a fresh computation).
    pub fn slider_state(&self) -> &S::State {
        &self.slider
    }

    #[inline(always)]
    pub(crate) fn rook_attacks(&self, sq: usize) -> Bitboard {
        S::rook(&self.slider, sq, self.occupied())
    }

    #[inline(always)]
    pub(crate) fn bishop_attacks(&self, sq: usize) -> Bitboard {
        S::bishop(&self.slider, sq, self.occupied())
    }

    /// Pieces of either colour attacking `sq` under occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: usize, occ: Bitboard) -> Bitboard {
        let rq = self.pieces[PieceKind::Rook.index()] | self.pieces[PieceKind::Queen.index()];
        let bq = self.pieces[PieceKind::Bishop.index()] | self.pieces[PieceKind::Queen.index()];
        (PAWN_ATTACKS[1][sq] & self.pieces(Color::White, PieceKind::Pawn))
            | (PAWN_ATTACKS[0][sq] & self.pieces(Color::Black, PieceKind::Pawn))
            | (KNIGHT_ATTACKS[sq] & self.pieces[PieceKind::Knight.index()])
            | (KING_ATTACKS[sq] & self.pieces[PieceKind::King.index()])
            | (S::rook_any(sq, occ) & rq)
            | (S::bishop_any(sq, occ) & bq)
    }

    /// Whether `by` attacks `sq` under the board's own occupancy.
    #[inline(always)]
    pub fn is_attacked(&self, sq: usize, by: Color) -> bool {
        let them = self.colors[by.index()];
        let rq =
            (self.pieces[PieceKind::Rook.index()] | self.pieces[PieceKind::Queen.index()]) & them;
        let bq =
            (self.pieces[PieceKind::Bishop.index()] | self.pieces[PieceKind::Queen.index()]) & them;
        (PAWN_ATTACKS[by.flip().index()][sq] & self.pieces[0] & them) != 0
            || (KNIGHT_ATTACKS[sq] & self.pieces[1] & them) != 0
            || (KING_ATTACKS[sq] & self.pieces[5] & them) != 0
            || (rq != 0 && self.rook_attacks(sq) & rq != 0)
            || (bq != 0 && self.bishop_attacks(sq) & bq != 0)
    }

    /// The enemy pieces that give check to the side to move.
    pub(crate) fn compute_checkers(&self) -> Bitboard {
        let us = self.side;
        let ksq = self.king_square(us);
        let them = self.colors[us.flip().index()];
        let rq = (self.pieces[3] | self.pieces[4]) & them;
        let bq = (self.pieces[2] | self.pieces[4]) & them;
        ((PAWN_ATTACKS[us.index()][ksq] & self.pieces[0])
            | (KNIGHT_ATTACKS[ksq] & self.pieces[1])
            | (self.rook_attacks(ksq) & rq)
            | (self.bishop_attacks(ksq) & bq))
            & them
    }

    /// Pieces of either colour that stand alone between `color`'s king and an enemy
    /// slider aiming at it (pinned pieces, or discovered-check candidates).
    pub fn blockers_for_king<B: Bits>(&self, color: Color) -> Bitboard {
        self.king_blockers::<B>(self.king_square(color), color.flip().index())
    }

    /// The pieces of either colour standing alone between the king on `ksq` and a
    /// slider of colour `them` aiming at it.
    #[inline(always)]
    pub(crate) fn king_blockers<B: Bits>(&self, ksq: usize, them: usize) -> Bitboard {
        let enemy = self.colors[them];
        let occ = self.occupied();
        let rq = ROOK_PSEUDO_ATTACKS[ksq] & (self.pieces[3] | self.pieces[4]) & enemy;
        let bq = BISHOP_PSEUDO_ATTACKS[ksq] & (self.pieces[2] | self.pieces[4]) & enemy;
        let mut blockers = 0;
        if S::XRAY_PINS {
            // One x-ray of the king finds the pinners: enemy sliders right behind
            // the first piece on a line. Look only when one is aligned at all.
            let mut pinners = 0;
            if rq != 0 {
                pinners |= S::rook_xray(ksq, occ) & rq;
            }
            if bq != 0 {
                pinners |= S::bishop_xray(ksq, occ) & bq;
            }
            while pinners != 0 {
                let p = B::pop_lsb(&mut pinners) as usize;
                blockers |= BETWEEN[ksq][p] & occ;
            }
            return blockers;
        }
        let mut snipers = rq | bq;
        while snipers != 0 {
            let s = B::pop_lsb(&mut snipers) as usize;
            let between = BETWEEN[ksq][s] & occ;
            if between & between.wrapping_sub(1) == 0 {
                blockers |= between;
            }
        }
        blockers
    }

    /// Put `piece` on the empty square `sq`, updating keys and backend state.
    #[inline(always)]
    fn put(&mut self, piece: usize, sq: usize) {
        let bb = 1u64 << sq;
        self.pieces[piece % 6] |= bb;
        self.colors[piece / 6] |= bb;
        self.mailbox[sq] = piece as u8;
        self.key ^= ZOBRIST_PIECES[piece][sq];
        if is_pawn(piece) {
            self.pawn_key ^= ZOBRIST_PIECES[piece][sq];
        }
        S::toggle(&mut self.slider, sq);
    }

    /// Remove the piece on `sq` (which must hold `piece`).
    #[inline(always)]
    fn remove(&mut self, piece: usize, sq: usize) {
        let bb = 1u64 << sq;
        self.pieces[piece % 6] ^= bb;
        self.colors[piece / 6] ^= bb;
        self.mailbox[sq] = NO_PIECE;
        self.key ^= ZOBRIST_PIECES[piece][sq];
        if is_pawn(piece) {
            self.pawn_key ^= ZOBRIST_PIECES[piece][sq];
        }
        S::toggle(&mut self.slider, sq);
    }

    /// Move `piece` from `from` to the empty square `to`.
    #[inline(always)]
    fn shift(&mut self, piece: usize, from: usize, to: usize) {
        let bb = (1u64 << from) | (1u64 << to);
        self.pieces[piece % 6] ^= bb;
        self.colors[piece / 6] ^= bb;
        self.mailbox[from] = NO_PIECE;
        self.mailbox[to] = piece as u8;
        let k = ZOBRIST_PIECES[piece][from] ^ ZOBRIST_PIECES[piece][to];
        self.key ^= k;
        if is_pawn(piece) {
            self.pawn_key ^= k;
        }
        S::toggle(&mut self.slider, from);
        S::toggle(&mut self.slider, to);
    }

    /// The key, pawn key and backend state computed from scratch (for tests and FEN).
    pub fn recompute_keys(&self) -> (u64, u64) {
        let mut key = 0;
        let mut pawn_key = 0;
        for (sq, &p) in self.mailbox.iter().enumerate() {
            if p != NO_PIECE {
                key ^= ZOBRIST_PIECES[p as usize][sq];
                if is_pawn(p as usize) {
                    pawn_key ^= ZOBRIST_PIECES[p as usize][sq];
                }
            }
        }
        key ^= ZOBRIST_CASTLING[self.castling as usize];
        if self.ep != NO_SQUARE {
            key ^= ZOBRIST_EN_PASSANT[(self.ep & 7) as usize];
        }
        if self.side == Color::Black {
            key ^= ZOBRIST_SIDE;
        }
        (key, pawn_key)
    }

    /// Whether the position has too little material for either side to mate.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.pieces[0] | self.pieces[3] | self.pieces[4];
        if heavy != 0 {
            return false;
        }
        let minors = self.pieces[1] | self.pieces[2];
        if minors.count_ones() <= 1 {
            return true;
        }
        // Only bishops, all on squares of one colour.
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        self.pieces[1] == 0 && (self.pieces[2] & DARK == 0 || self.pieces[2] & !DARK == 0)
    }
}

/// Two boards are equal when every field of the position is, the backend state
/// included; the Chess960 notation mode is not part of the position.
impl<S: Slider> PartialEq for Board<S> {
    fn eq(&self, o: &Self) -> bool {
        self.pieces == o.pieces
            && self.colors == o.colors
            && self.mailbox == o.mailbox
            && self.key == o.key
            && self.pawn_key == o.pawn_key
            && self.checkers == o.checkers
            && self.side == o.side
            && self.castling == o.castling
            && self.castle_rooks == o.castle_rooks
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.slider == o.slider
    }
}

impl<S: Slider> Eq for Board<S> {}

impl<S: Slider> Default for Board<S> {
    fn default() -> Self {
        Board::startpos()
    }
}
