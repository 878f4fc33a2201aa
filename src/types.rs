//! Small typed wrappers for the chess concepts: colours, pieces, squares, moves.
//!
//! May not touch: any other room (the layers: docs/architecture.md).
//!
//! Bitboards stay plain `u64` ([`Bitboard`]): bit `n` is square `n`, a1 = 0 ... h8 = 63.

use std::fmt;

/// A set of squares: bit `n` is square `n` (a1 = 0, b1 = 1, ..., h8 = 63).
pub type Bitboard = u64;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// A kind of piece, in the order the tables index them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceKind {
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// # Panics
    /// If `i > 5`; callers pass indices they took from a `PieceKind`.
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// The lower-case letter (`p`, `n`, `b`, `r`, `q`, `k`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// Whether the piece slides along lines (bishop, rook, queen).
    #[inline(always)]
    pub const fn is_slider(self) -> bool {
        matches!(self, PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen)
    }

    /// The kind for a letter of either case.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_lowercase())
    }
}

/// A coloured piece, numbered `colour * 6 + kind` as in `ZOBRIST_PIECES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_index((self.0 % 6) as usize)
    }

    /// `colour * 6 + kind`, 0..12.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece numbered `i` (`colour * 6 + kind`), or `None` if `i >= 12`.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i < 12 {
            Some(Piece(i as u8))
        } else {
            None
        }
    }

    /// The FEN letter: upper case for white.
    pub fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece for a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// A square, a1 = 0 ... h8 = 63.
///
/// A `Square` is always below 64, whatever it was built from, so code may index
/// 64-entry tables with [`Square::index`] without a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square numbered `i`.
    ///
    /// # Panics
    /// In debug builds, if `i >= 64`. In release builds `i` is taken modulo 64,
    /// which keeps the type's invariant at the cost of one `and`.
    #[inline(always)]
    pub const fn new(i: u32) -> Square {
        debug_assert!(i < 64);
        Square((i & 63) as u8)
    }

    /// The square numbered `i`, or `None` if `i >= 64`.
    #[inline(always)]
    pub const fn try_new(i: u32) -> Option<Square> {
        if i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square on `file` and `rank` (both 0..8; taken modulo 8).
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square((rank & 7) * 8 + (file & 7))
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        1 << self.0
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Parse `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square::from_coords(b[0] - b'a', b[1] - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal,
    Promotion,
    EnPassant,
    /// Encoded king-takes-rook: the target square is the castling rook's square.
    Castling,
}

/// A move in 16 bits: from (6), to (6), promotion piece (2), kind (2).
///
/// Castling is encoded as the king moving to its own rook's square, so Chess960
/// castling needs no special cases.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (a1a1), never generated.
    pub const NULL: Move = Move(0);

    const PROMO: u16 = 1 << 14;
    const EP: u16 = 2 << 14;
    const CASTLE: u16 = 3 << 14;

    #[inline(always)]
    pub const fn normal(from: u32, to: u32) -> Move {
        Move((from | to << 6) as u16)
    }

    /// A promotion to `kind` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: u32, to: u32, kind: PieceKind) -> Move {
        Move((from | to << 6) as u16 | ((kind as u16 - 1) << 12) | Move::PROMO)
    }

    #[inline(always)]
    pub const fn en_passant(from: u32, to: u32) -> Move {
        Move((from | to << 6) as u16 | Move::EP)
    }

    /// Castling, as king (`from`) takes own rook (`rook`).
    #[inline(always)]
    pub const fn castling(from: u32, rook: u32) -> Move {
        Move((from | rook << 6) as u16 | Move::CASTLE)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6 & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion piece, for promotions.
    #[inline(always)]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceKind::from_index((self.0 >> 12 & 3) as usize + 1)),
            _ => None,
        }
    }

    /// The raw 16 bits (for hash tables).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Promotion => {
                write!(f, "={}", self.promotion_kind().map_or('?', |k| k.letter()))
            }
            MoveKind::EnPassant => write!(f, "(ep)"),
            MoveKind::Castling => write!(f, "(castle)"),
            MoveKind::Normal => Ok(()),
        }
    }
}
