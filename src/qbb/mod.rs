//! The quad-bitboard board and its colour-agnostic move generator.
//!
//! May not touch: the evaluation, the network, the search and above (the layers: docs/architecture.md).
//!
//! # Where it comes from
//!
//! Quad-bitboards (four bitboards that store each square's contents as a
//! vertical nibble, one bit per bitboard) were described by Gerd Isenberg on the
//! Chess Programming Wiki. Fabio Gobbato's didactic engine QBBEngine (published
//! with his engine Pedone) made them a whole board: `PM` holds the pieces of the
//! side to move and `P0`, `P1`, `P2` hold the piece type, and make *flips* the
//! board (byte-swaps every bitboard) so that the side to move always moves "up",
//! as white does. The move generator then needs no colour at all: one pawn
//! direction, one back rank, one promotion rank. This module follows those ideas;
//! the code, the piece encoding and the legal generator are brokkr's own.
//!
//! # The piece encoding
//!
//! A square's type is `P0 | P1 << 1 | P2 << 2`. brokkr gives the three bits a
//! meaning rather than numbering the pieces in order (QBBEngine uses pawn = 1 ...
//! king = 6):
//!
//! | code | piece  | `P2` slides | `P1` | `P0` |
//! |------|--------|:-:|:-:|:-:|
//! | 001  | pawn   |   |   | 1 |
//! | 010  | knight |   | 1 |   |
//! | 011  | king   |   | 1 | 1 |
//! | 101  | bishop | 1 |   | 1 |
//! | 110  | rook   | 1 | 1 |   |
//! | 111  | queen  | 1 | 1 | 1 |
//!
//! `P2` marks the sliders, and among them `P0` means "slides diagonally" and `P1`
//! "slides orthogonally". So the sets the legal generator asks for at every node
//! are one operation each: occupancy is `P0 | P1` (every code has `P0` or `P1`),
//! the diagonal sliders (bishops and queens) are `P0 & P2`, the orthogonal ones
//! (rooks and queens) `P1 & P2`. The leapers take two (`pawns = P0 & !(P1 | P2)`),
//! and the board needs each of them once per node. With QBBEngine's order the
//! occupancy takes two operations and the diagonal sliders `P0 & (P1 ^ P2)`.
//!
//! # State that flips
//!
//! Besides the four bitboards the board keeps two more bitboards, so that the
//! byte swap flips them too: the squares of the rooks that still have castling
//! rights (for both sides; the side to move's are on rank 1), which makes
//! Chess960 castling the same code as standard castling, and the en-passant
//! target square. Move counters are not kept: this board is for perft.
//!
//! # Slider backends
//!
//! The generator takes slider attacks as sets, from `rook_any`/`bishop_any`, and
//! keeps no backend state across the flip; so it is built only for the backends
//! whose technique is exactly that stateless computation (magic, PEXT,
//! kindergarten and kogge-stone's fills), marked by [`Lookup`]. [`with_qbb_slider!`](crate::with_qbb_slider) dispatches
//! a run-time [`SliderKind`] to them.
//!
//! # Coordinates
//!
//! Everything inside a [`Qbb`] — bitboards, squares, the moves of
//! [`Qbb::legal_moves`] and [`Qbb::make`] — is *relative*: seen from the side to
//! move, whose pieces start on ranks 1 and 2. When black is to move, relative
//! square `s` is absolute square `s ^ 56`; [`Qbb::to_absolute`] and
//! [`Qbb::to_relative`] convert moves.

mod make;
mod movegen;
mod perft;

pub use self::perft::{divide, perft};

use crate::attacks::{Kindergarten, KoggeStoneOn, Magic, Pext, Slider, SliderKind};
use crate::board::{Board, FenError};
use crate::types::*;

/// A slider backend the quad-bitboard board is built for: one whose technique is
/// a stateless attack computation, `rook_any(sq, occ)` / `bishop_any(sq, occ)`,
/// which is all this board's generator calls. Kogge-stone's fills are one: they
/// need only the occupancy (its `rook_any` runs the fill path the CPU has, or the
/// one a [`KoggeStoneOn`] forces).
///
/// Two backends are left out, because on this board they would not be themselves:
/// Gk's rotated bitboards are the line-occupancy bytes kept in make, which a board
/// that byte-swaps itself every move does not keep (without them its lookups rebuild
/// the bytes with multiplies on every call); Thor's Hammer's ray loop is a way of
/// *emitting* moves by walking rays, which this generator never asks for (it takes
/// attack sets and masks them). Leaving them out also saves two of the five
/// instantiations of this board per bit path in the build.
pub trait Lookup: Slider {}

impl Lookup for Magic {}
impl Lookup for Pext {}
impl Lookup for Kindergarten {}
impl<const FILL: u8> Lookup for KoggeStoneOn<FILL> {}

/// Whether the quad-bitboard board is built for backend `kind` (see [`Lookup`]).
pub const fn supports(kind: SliderKind) -> bool {
    matches!(
        kind,
        SliderKind::Magic | SliderKind::Pext | SliderKind::Kindergarten | SliderKind::KoggeStone
    )
}

/// Run `$body` with the type `$S` set to the [`Lookup`] backend of `$kind`, or
/// `$other` for a backend the quad-bitboard board is not built for.
///
/// ```
/// use brokkr::attacks::{Slider, SliderKind};
/// let name = brokkr::with_qbb_slider!(SliderKind::Magic, S => S::KIND.name(), _k => "none");
/// assert_eq!(name, "magic");
/// ```
#[macro_export]
macro_rules! with_qbb_slider {
    ($kind:expr, $S:ident => $body:expr, $k:pat => $other:expr) => {
        match $kind {
            $crate::attacks::SliderKind::Magic => {
                type $S = $crate::attacks::Magic;
                $body
            }
            $crate::attacks::SliderKind::Pext => {
                type $S = $crate::attacks::Pext;
                $body
            }
            $crate::attacks::SliderKind::Kindergarten => {
                type $S = $crate::attacks::Kindergarten;
                $body
            }
            $crate::attacks::SliderKind::KoggeStone => {
                type $S = $crate::attacks::KoggeStone;
                $body
            }
            $k => $other,
        }
    };
}

/// The 3-bit type code of a pawn (see the module docs for the encoding).
pub const PAWN: u8 = 0b001;
/// The 3-bit type code of a knight.
pub const KNIGHT: u8 = 0b010;
/// The 3-bit type code of a king.
pub const KING: u8 = 0b011;
/// The 3-bit type code of a bishop.
pub const BISHOP: u8 = 0b101;
/// The 3-bit type code of a rook.
pub const ROOK: u8 = 0b110;
/// The 3-bit type code of a queen.
pub const QUEEN: u8 = 0b111;

/// Rank 1, the side to move's back rank.
pub(crate) const RANK_1: Bitboard = 0x0000_0000_0000_00FF;

/// The type code of `kind`.
pub const fn code(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => PAWN,
        PieceKind::Knight => KNIGHT,
        PieceKind::Bishop => BISHOP,
        PieceKind::Rook => ROOK,
        PieceKind::Queen => QUEEN,
        PieceKind::King => KING,
    }
}

/// The piece kind of a type code, `None` for 0 (empty) and the unused code 100.
pub const fn kind_of(code: u8) -> Option<PieceKind> {
    match code {
        PAWN => Some(PieceKind::Pawn),
        KNIGHT => Some(PieceKind::Knight),
        BISHOP => Some(PieceKind::Bishop),
        ROOK => Some(PieceKind::Rook),
        QUEEN => Some(PieceKind::Queen),
        KING => Some(PieceKind::King),
        _ => None,
    }
}

/// A position as four bitboards plus castling and en-passant bitboards, always
/// seen from the side to move (see the module docs).
///
/// 48 bytes of bitboards and one flag: make copies it and flips the copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Qbb {
    /// Pieces of the side to move.
    pm: Bitboard,
    /// Type bit 0: pawns, kings, bishops, queens.
    p0: Bitboard,
    /// Type bit 1: knights, kings, rooks, queens.
    p1: Bitboard,
    /// Type bit 2: the sliders.
    p2: Bitboard,
    /// Rooks (of both sides) whose castling rights are held.
    castle: Bitboard,
    /// The en-passant target square (at most one bit), set only when an enemy
    /// pawn stands next to the pawn that just made its double step.
    ep: Bitboard,
    /// Whether black is to move, i.e. the bitboards are flipped.
    black: bool,
}

impl Qbb {
    /// The standard starting position.
    pub fn startpos() -> Qbb {
        Qbb::from_board(&Board::<crate::attacks::Magic>::startpos())
    }

    /// Parse a FEN (or EPD position fields) with the main board's parser, which
    /// checks it, and convert.
    pub fn from_fen(fen: &str) -> Result<Qbb, FenError> {
        Board::<crate::attacks::Magic>::from_fen(fen).map(|b| Qbb::from_board(&b))
    }

    /// The quad-bitboard form of a main [`Board`].
    pub fn from_board<S: Slider>(b: &Board<S>) -> Qbb {
        let mut q = Qbb {
            pm: b.color_bb(b.side_to_move()),
            p0: 0,
            p1: 0,
            p2: 0,
            castle: 0,
            ep: b.ep_square().map_or(0, |s| s.bb()),
            black: false,
        };
        for kind in PieceKind::ALL {
            q.put(code(kind), b.kind_bb(kind));
        }
        for i in 0..4 {
            if let Some(rook) = b.castling_rook(i) {
                q.castle |= rook.bb();
            }
        }
        if b.side_to_move() == Color::Black {
            q.swap();
            q.black = true;
        }
        q
    }

    /// Byte-swap every bitboard: a1 <-> a8, keeping `pm` and the flag.
    #[inline(always)]
    fn swap(&mut self) {
        self.pm = self.pm.swap_bytes();
        self.p0 = self.p0.swap_bytes();
        self.p1 = self.p1.swap_bytes();
        self.p2 = self.p2.swap_bytes();
        self.castle = self.castle.swap_bytes();
        self.ep = self.ep.swap_bytes();
    }

    /// Set the type bits of `code` on the squares of `bb` (which must be empty).
    #[inline(always)]
    fn put(&mut self, code: u8, bb: Bitboard) {
        let bit = |i: u8| 0u64.wrapping_sub(u64::from(code >> i & 1));
        self.p0 |= bb & bit(0);
        self.p1 |= bb & bit(1);
        self.p2 |= bb & bit(2);
    }

    /// Whether black is to move (the bitboards are seen flipped).
    #[inline(always)]
    pub fn black_to_move(&self) -> bool {
        self.black
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        if self.black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The four raw bitboards `[PM, P0, P1, P2]`, relative coordinates.
    #[inline(always)]
    pub fn raw(&self) -> [Bitboard; 4] {
        [self.pm, self.p0, self.p1, self.p2]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.p0 | self.p1
    }

    /// Pieces of the side to move.
    #[inline(always)]
    pub fn us(&self) -> Bitboard {
        self.pm
    }

    /// Pieces of the side not to move.
    #[inline(always)]
    pub fn them(&self) -> Bitboard {
        self.occupied() ^ self.pm
    }

    /// Pawns of both sides.
    #[inline(always)]
    pub fn pawns(&self) -> Bitboard {
        self.p0 & !(self.p1 | self.p2)
    }

    /// Knights of both sides.
    #[inline(always)]
    pub fn knights(&self) -> Bitboard {
        self.p1 & !(self.p0 | self.p2)
    }

    /// Kings of both sides.
    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.p0 & self.p1 & !self.p2
    }

    /// Bishops and queens of both sides.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.p0 & self.p2
    }

    /// Rooks and queens of both sides.
    #[inline(always)]
    pub fn orthogonal_sliders(&self) -> Bitboard {
        self.p1 & self.p2
    }

    /// The pieces of `kind`, both sides.
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        match kind {
            PieceKind::Pawn => self.pawns(),
            PieceKind::Knight => self.knights(),
            PieceKind::Bishop => self.diagonal_sliders() & !self.p1,
            PieceKind::Rook => self.orthogonal_sliders() & !self.p0,
            PieceKind::Queen => self.p0 & self.p1 & self.p2,
            PieceKind::King => self.kings(),
        }
    }

    /// The type code on relative square `sq` (< 64): 0 when empty.
    #[inline(always)]
    pub fn code_at(&self, sq: usize) -> u8 {
        let bit = |bb: Bitboard| (bb >> (sq & 63) & 1) as u8;
        bit(self.p0) | bit(self.p1) << 1 | bit(self.p2) << 2
    }

    /// The rooks, relative squares, whose castling rights are held: the side to
    /// move's on rank 1, the other side's on rank 8.
    #[inline(always)]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castle
    }

    /// The en-passant target square as a bitboard (relative, empty if none).
    #[inline(always)]
    pub fn ep(&self) -> Bitboard {
        self.ep
    }

    /// A move in relative coordinates as the same move on the real board.
    #[inline(always)]
    pub fn to_absolute(&self, m: Move) -> Move {
        if self.black {
            flip_move(m)
        } else {
            m
        }
    }

    /// A move on the real board in this board's relative coordinates.
    #[inline(always)]
    pub fn to_relative(&self, m: Move) -> Move {
        self.to_absolute(m)
    }
}

/// The same move with both squares mirrored a1 <-> a8 (its kind unchanged).
#[inline(always)]
const fn flip_move(m: Move) -> Move {
    Move::from_bits(m.bits() ^ (56 | 56 << 6))
}

impl Default for Qbb {
    fn default() -> Self {
        Qbb::startpos()
    }
}
