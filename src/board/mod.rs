//! The position: bitboards by piece kind and colour, a mailbox, and the state that
//! make/unmake keeps (castling, en passant, counters, Zobrist keys, checkers, the
//! side to move's pins).
//!
//! May not touch: the evaluation, the network, the search and above (the layers: docs/architecture.md).
//!
//! [`Board`] is `Copy` and small. Moves are played with make/unmake, which measured
//! faster than copy-make in perft; the key history for repetitions lives outside
//! it, in [`Position`].
//!
//! Squares: the public API takes and returns [`Square`] (always below 64). Inside
//! the board, hot code works on `usize` square numbers taken from bitscans, through
//! crate-private helpers.

pub mod draw;
mod fen;
mod legality;
mod make;
pub mod movegen;
mod notation;
pub mod perft;
mod position;
mod see;
mod threats;

pub use fen::{placement, FenError, MAX_HALFMOVE, STARTPOS};
pub use make::Undo;
pub use movegen::{MoveList, Stage};
pub use notation::MoveError;
pub use position::Position;
pub use see::SEE_VALUES;
pub(crate) use threats::pawn_attacks;
pub use threats::CheckInfo;

use crate::attacks::{Magic, Slider};
use crate::bits::Bits;
use crate::tables::*;
use crate::types::*;

/// The mailbox value of an empty square.
pub(crate) const NO_PIECE: u8 = 12;
/// The en-passant value meaning "none".
pub(crate) const NO_SQUARE: u8 = 64;
/// Set on an en-passant square that no pawn can legally use (a pinned pawn, or
/// one that would not answer a check): the square is kept, as FEN writes it, but
/// neither the key nor the generator uses it. A value below 64 is a square whose
/// capture is legal, and is in the key.
pub(crate) const EP_UNUSABLE: u8 = 0x80;

/// Index of a piece kind in `pieces` and in piece codes.
pub(crate) const PAWN: usize = PieceKind::Pawn as usize;
pub(crate) const KNIGHT: usize = PieceKind::Knight as usize;
pub(crate) const BISHOP: usize = PieceKind::Bishop as usize;
pub(crate) const ROOK: usize = PieceKind::Rook as usize;
pub(crate) const QUEEN: usize = PieceKind::Queen as usize;
pub(crate) const KING: usize = PieceKind::King as usize;

/// The mailbox code of a piece: `colour * 6 + kind`, as [`Piece::index`].
#[inline(always)]
pub(crate) const fn code(color: usize, kind: usize) -> usize {
    color * 6 + kind
}

/// The kind (`PAWN` ... `KING`) of a mailbox piece code.
#[inline(always)]
pub(crate) const fn kind_of(code: usize) -> usize {
    code % 6
}

/// The colour index (0 white, 1 black) of a mailbox piece code.
#[inline(always)]
pub(crate) const fn color_of(code: usize) -> usize {
    code / 6
}

/// The kind of a mailbox piece code whose colour the caller knows (make and
/// unmake always do: the mover is the side to move's, a captured piece the
/// other side's). One subtraction from the side to move, where [`kind_of`] and
/// [`color_of`] divide the code read from the mailbox by 6: in perft that
/// division sat on the chain from the mailbox load to the bitboards' stores
/// that the new side's checkers wait for (docs/speed.md). A wrong colour gives
/// an index out of `pieces`, which panics, never a wrong board.
#[inline(always)]
pub(crate) const fn kind_of_colored(code: usize, color: usize) -> usize {
    code.wrapping_sub(color * 6)
}

/// Whether a mailbox piece code is a pawn.
#[inline(always)]
pub(crate) const fn is_pawn(piece: usize) -> bool {
    kind_of(piece) == PAWN
}

/// The value of each piece kind in [`Board::non_pawn_material`]: the SEE values
/// of knight, bishop, rook and queen; pawns and kings count nothing.
pub const NON_PAWN_VALUES: [i32; 6] = [0, 320, 330, 500, 900, 0];

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

    /// The rook square of each right in standard chess (h1, a1, h8, a8).
    pub const STANDARD_ROOKS: [u8; 4] = [7, 0, 63, 56];
}

/// The Zobrist key of the castling state: the rights, and for every right whose
/// rook is not on its standard corner (Chess960), that rook's square, so two
/// positions that differ only in their castling rooks hash differently.
///
/// The rook-square key reuses the rook's piece-square number rotated by 32 bits:
/// a fresh-looking number for the same square without a new generated table, and
/// it cannot cancel the rook's own piece key (`x ^ x.rotate_left(32)` is never 0
/// for the generated numbers, which are not 32-bit periodic). Standard positions
/// keep the key they always had.
///
/// Generic over the bit path because make calls it when a move takes rights away.
#[inline]
pub(crate) fn castling_key<B: Bits>(rights: u8, rooks: &[u8; 4]) -> u64 {
    let mut key = ZOBRIST_CASTLING[rights as usize & 15];
    let mut held = u64::from(rights & 15);
    while held != 0 {
        let i = B::pop_lsb(&mut held) as usize & 3;
        let rook = rooks[i] as usize & 63;
        if rook as u8 != castling::STANDARD_ROOKS[i] {
            key ^= ZOBRIST_PIECES[code(i / 2, ROOK)][rook].rotate_left(32);
        }
    }
    key
}

/// A chess position, generic over the slider backend whose state it keeps.
#[derive(Clone, Copy, Debug)]
pub struct Board<S: Slider = Magic> {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    mailbox: [u8; 64],
    key: u64,
    pawn_key: u64,
    /// The enemy pieces giving check to the side to move.
    checkers: Bitboard,
    /// Pieces of either colour standing alone between the side to move's king and
    /// an enemy slider (own ones are pinned).
    blockers: Bitboard,
    side: Color,
    castling: u8,
    /// The rook square of each castling right (valid while the right is held).
    castle_rooks: [u8; 4],
    /// For each castling right, the squares that must be empty to castle: those
    /// the king and the rook cross or land on, less the two of them. Set with
    /// the right: rights are only ever lost, and while one is held its king and
    /// rook have not moved, so the mask never changes. The generator tests it
    /// with one AND instead of building it at every node. Not compared by `==`
    /// (it follows from the rights, the rooks and the king).
    castle_empty: [Bitboard; 4],
    /// For each castling right, the squares on which the king must not be
    /// attacked to castle: its path to its target square, and its own square
    /// only when a piece could stand beyond the rook on the rank. Castling is
    /// tried only out of check, and lifting the rook opens no other line to the
    /// king: with the rook on the a- or h-file (standard chess) that test is
    /// spent. Set with the right, like `castle_empty`.
    castle_path: [Bitboard; 4],
    /// The squares of the kings and rooks of the castling rights the position
    /// started with: a move that neither leaves nor lands on one of them takes
    /// no right away (make tests this before looking at the rights). Not
    /// compared by `==`, like the two masks above.
    castle_squares: Bitboard,
    ep: u8,
    halfmove: u16,
    fullmove: u16,
    chess960: bool,
    slider: S::State,
}

impl Board<crate::attacks::KoggeStone> {
    /// This board with its Kogge-Stone fills on the path `state` names: one
    /// instantiation measures every fill path (`brokkr paths`), since the path is
    /// the board's state, not its type.
    pub fn with_fills(mut self, state: crate::attacks::KoggeStoneState) -> Self {
        self.slider = state;
        self
    }
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

    /// The rooks and queens of `color` (the pieces that attack along ranks and files).
    #[inline(always)]
    pub fn rooks_queens(&self, color: Color) -> Bitboard {
        self.straight_sliders() & self.colors[color.index()]
    }

    /// The bishops and queens of `color` (the pieces that attack along diagonals).
    #[inline(always)]
    pub fn bishops_queens(&self, color: Color) -> Bitboard {
        self.diagonal_sliders() & self.colors[color.index()]
    }

    /// Rooks and queens of both colours.
    #[inline(always)]
    pub(crate) fn straight_sliders(&self) -> Bitboard {
        self.pieces[ROOK] | self.pieces[QUEEN]
    }

    /// Bishops and queens of both colours.
    #[inline(always)]
    pub(crate) fn diagonal_sliders(&self) -> Bitboard {
        self.pieces[BISHOP] | self.pieces[QUEEN]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        Piece::from_index(self.mailbox[sq.index()] as usize)
    }

    /// The square of `color`'s king.
    ///
    /// Scans with the [`Portable`](crate::bits::Portable) path whatever path the
    /// caller runs (this is the one bitscan of the evaluation that is not generic
    /// over the path).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        Square::new(self.ksq::<crate::bits::Portable>(color.index()) as u32)
    }

    /// The square number of the king of colour index `color` (for hot code),
    /// found with the bit path `B`.
    #[inline(always)]
    pub(crate) fn ksq<B: Bits>(&self, color: usize) -> usize {
        (B::lsb(self.pieces[KING] & self.colors[color]) & 63) as usize
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

    /// The side to move's pieces pinned to its king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.blockers & self.colors[self.side.index()]
    }

    /// The enemy sliders that stand behind exactly one piece (of either colour) on
    /// a line to the side to move's king: the pinners, and the would-be checkers
    /// behind an enemy piece.
    ///
    /// Computed on demand: make keeps only the blockers, which the generator
    /// needs at every node (keeping the pinners too measured slower in perft).
    pub fn pinners<B: Bits>(&self) -> Bitboard {
        let us = self.side.index();
        self.slider_blockers::<B>(self.ksq::<B>(us), self.colors[us ^ 1])
            .1
    }

    /// Non-pawn material of `color`: the sum of [`NON_PAWN_VALUES`] over its
    /// knights, bishops, rooks and queens, counted with the bit path `B`.
    ///
    /// Counted on demand (four popcounts) rather than kept in make: keeping it
    /// in put/remove measured slower in Kiwipete perft, where every capture and
    /// castling paid for a sum that perft never reads.
    #[inline]
    pub fn non_pawn_material<B: Bits>(&self, color: Color) -> i32 {
        let own = self.colors[color.index()];
        (KNIGHT..=QUEEN)
            .map(|k| NON_PAWN_VALUES[k] * B::popcount(self.pieces[k] & own) as i32)
            .sum()
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
        (index < 4 && self.castling >> index & 1 != 0)
            .then(|| Square::new(self.castle_rooks[index] as u32))
    }

    /// The en-passant target square, set after a double pawn move when a pawn of
    /// the side to move stands ready to capture there (as FEN records it).
    ///
    /// The key includes it only when that capture is also legal (the pawn is not
    /// pinned, and the capture answers any check): see
    /// [`Board::ep_capture_square`]. So positions that offer the same moves hash
    /// equally.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then(|| Square::new((self.ep & 63) as u32))
    }

    /// The en-passant target square if a legal capture there exists (then the
    /// key includes it).
    #[inline(always)]
    pub fn ep_capture_square(&self) -> Option<Square> {
        (self.ep < 64).then(|| Square::new(self.ep as u32))
    }

    /// Plies since the last capture or pawn move (saturates at 65535).
    ///
    /// The fifty-move rule: the game is drawn when this reaches 100, *unless* the
    /// side to move is mated in that position (a mate on the 100th ply stands). A
    /// search therefore tests for mate (no legal move while in check) before it
    /// scores `halfmove_clock() >= 100` as a draw.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    /// The full-move number, starting at 1 (saturates at 65535).
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

    /// Rook attacks from square `sq` under the board's own occupancy.
    #[inline(always)]
    pub(crate) fn rook_attacks(&self, sq: usize) -> Bitboard {
        S::rook(&self.slider, sq, self.occupied())
    }

    /// Bishop attacks from square `sq` under the board's own occupancy.
    #[inline(always)]
    pub(crate) fn bishop_attacks(&self, sq: usize) -> Bitboard {
        S::bishop(&self.slider, sq, self.occupied())
    }

    /// Rook attacks from square `sq` under another occupancy `occ`.
    #[inline(always)]
    pub(crate) fn rook_attacks_with(&self, sq: usize, occ: Bitboard) -> Bitboard {
        S::rook_with(&self.slider, sq, occ)
    }

    /// Bishop attacks from square `sq` under another occupancy `occ`.
    #[inline(always)]
    pub(crate) fn bishop_attacks_with(&self, sq: usize, occ: Bitboard) -> Bitboard {
        S::bishop_with(&self.slider, sq, occ)
    }

    /// The piece (mailbox code) on `m.from()`: the piece that moves.
    ///
    /// For a move that is not from this position the answer is meaningless; use
    /// [`Board::is_legal`] first for moves from a hash table.
    #[inline(always)]
    pub fn moved_piece(&self, m: Move) -> Piece {
        let p = self.mailbox[m.from().index()] as usize;
        Piece::from_index(p).unwrap_or(Piece::new(self.side, PieceKind::Pawn))
    }

    /// Whether `m` captures: a normal move or promotion onto an enemy piece, or en
    /// passant. Castling (encoded king-takes-own-rook) is not a capture.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            _ => self.colors[self.side.index() ^ 1] & m.to().bb() != 0,
        }
    }

    /// The piece `m` captures, if any; en passant captures a pawn.
    #[inline(always)]
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::EnPassant => Some(Piece::new(self.side.flip(), PieceKind::Pawn)),
            MoveKind::Castling => None,
            _ if self.is_capture(m) => self.piece_on(m.to()),
            _ => None,
        }
    }

    /// Put `piece` on the empty square `sq`, updating keys and backend state.
    ///
    /// Evaluation hooks (material and piece-square sums kept here) were left
    /// out: put/remove/shift run on every move of perft and the search, a
    /// non-pawn material sum kept here measured slower in Kiwipete perft, and
    /// there is no evaluation yet to show such sums would pay for themselves; an
    /// evaluation can add them here and measure.
    ///
    /// With `KEYS` false the keys are left alone: unmake restores them whole
    /// from its record, so updating them piece by piece there was wasted work.
    /// With `MAILBOX` false the mailbox is too, for perft's last ply but one
    /// ([`Board::make_leaf`]), whose boards only the generator reads.
    #[inline(always)]
    fn put<const KEYS: bool, const MAILBOX: bool>(
        &mut self,
        color: usize,
        piece: usize,
        sq: usize,
    ) {
        let bb = 1u64 << sq;
        let kind = kind_of_colored(piece, color);
        self.pieces[kind] |= bb;
        self.colors[color] |= bb;
        if MAILBOX {
            self.mailbox[sq] = piece as u8;
        }
        if KEYS {
            self.key ^= ZOBRIST_PIECES[piece][sq];
            if kind == PAWN {
                self.pawn_key ^= ZOBRIST_PIECES[piece][sq];
            }
        }
        S::toggle(&mut self.slider, sq);
    }

    /// Remove the piece on `sq` (which must hold `piece`); the keys and the
    /// mailbox as in [`Board::put`].
    #[inline(always)]
    fn remove<const KEYS: bool, const MAILBOX: bool>(
        &mut self,
        color: usize,
        piece: usize,
        sq: usize,
    ) {
        let bb = 1u64 << sq;
        let kind = kind_of_colored(piece, color);
        self.pieces[kind] ^= bb;
        self.colors[color] ^= bb;
        if MAILBOX {
            self.mailbox[sq] = NO_PIECE;
        }
        if KEYS {
            self.key ^= ZOBRIST_PIECES[piece][sq];
            if kind == PAWN {
                self.pawn_key ^= ZOBRIST_PIECES[piece][sq];
            }
        }
        S::toggle(&mut self.slider, sq);
    }

    /// Move `piece` from `from` to the empty square `to`; the keys and the
    /// mailbox as in [`Board::put`].
    #[inline(always)]
    fn shift<const KEYS: bool, const MAILBOX: bool>(
        &mut self,
        color: usize,
        piece: usize,
        from: usize,
        to: usize,
    ) {
        let bb = (1u64 << from) | (1u64 << to);
        let kind = kind_of_colored(piece, color);
        self.pieces[kind] ^= bb;
        self.colors[color] ^= bb;
        if MAILBOX {
            self.mailbox[from] = NO_PIECE;
            self.mailbox[to] = piece as u8;
        }
        if KEYS {
            let k = ZOBRIST_PIECES[piece][from] ^ ZOBRIST_PIECES[piece][to];
            self.key ^= k;
            if kind == PAWN {
                self.pawn_key ^= k;
            }
        }
        S::toggle(&mut self.slider, from);
        S::toggle(&mut self.slider, to);
    }

    /// The key and pawn key computed from scratch (for tests and FEN).
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
        key ^= castling_key::<crate::bits::Portable>(self.castling, &self.castle_rooks);
        if self.ep < 64 {
            key ^= ZOBRIST_EN_PASSANT[(self.ep & 7) as usize];
        }
        if self.side == Color::Black {
            key ^= ZOBRIST_SIDE;
        }
        (key, pawn_key)
    }

    /// Whether the position has too little material for either side to mate.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.pieces[PAWN] | self.pieces[ROOK] | self.pieces[QUEEN];
        if heavy != 0 {
            return false;
        }
        let minors = self.pieces[KNIGHT] | self.pieces[BISHOP];
        if minors & minors.wrapping_sub(1) == 0 {
            return true;
        }
        // Only bishops, all on squares of one colour.
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        let bishops = self.pieces[BISHOP];
        self.pieces[KNIGHT] == 0 && (bishops & DARK == 0 || bishops & !DARK == 0)
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
            && self.blockers == o.blockers
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
