//! The generated lookup tables: the reusable API.
//!
//! May not touch: the board and everything above it (the layers: docs/architecture.md).
//!
//! Every table here is written as static Rust source by `build.rs` from the
//! generators in `codegen/`; nothing is computed at run time, and nothing here needs
//! the rest of brokkr. Each table's page gives its layout, indexing, origin and an
//! example. `brokkr tables --lang rust|c --out DIR` writes the same tables as
//! standalone Rust or C, and `brokkr tables --list` prints their checksums.
//!
//! # Conventions
//!
//! - Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, and
//!   bit n of a bitboard (`u64`) is square n.
//! - Colours are 0 = white (moving up the board) and 1 = black.
//! - An attack set holds the empty squares up to and including the first blocker in
//!   each direction, whatever the blocker's colour: mask out your own pieces to get
//!   moves.
//!
//! # The tables
//!
//! | Tables | Shape | Technique | Accessors |
//! |---|---|---|---|
//! | [`ROTATED_RANK_ATTACKS`], [`ROTATED_FILE_ATTACKS`], [`ROTATED_DIAG_A1H8_ATTACKS`], [`ROTATED_DIAG_H1A8_ATTACKS`] | `u64 [64][256]`, by square and 8-bit line occupancy | rotated bitboards (Gk) | [`rotated_rank_attacks`], [`rotated_file_attacks`], [`rotated_diag_a1h8_attacks`], [`rotated_diag_h1a8_attacks`] |
//! | [`ROTATED_DIAG_A1H8_INDEX`], [`ROTATED_DIAG_H1A8_INDEX`] | `u8 [64]` | Gk's diagonal numbering | |
//! | [`FIRST_ONE`], [`LAST_ONE`], [`POPCOUNT_16`] | `u8 [65536]`, by a 16-bit value | 16-bit bitscan tables (Gk) | [`first_one`], [`last_one`], [`popcount_16`] |
//! | [`OLITHINK_RAYS`] | `u64 [65536]`: attacks and x-rays of four lines, by square and 7-bit key | multiply keys (OliThink 5) | [`olithink_rook_attacks`], [`olithink_bishop_attacks`], [`olithink_rook_xrays`], [`olithink_bishop_xrays`] |
//! | [`OLITHINK_BMASK45`], [`OLITHINK_BMASK135`] | `u64 [64]`: diagonal masks for the keys | OliThink 5 | |
//! | [`ROOK_MASK`], [`ROOK_OFFSET`], [`ROOK_MAGIC`], [`ROOK_SHIFT`], [`ROOK_MAGIC_ATTACKS`] | per square, then `u64 [102400]` | fancy magic bitboards | [`magic_rook_attacks`] |
//! | [`BISHOP_MASK`], [`BISHOP_OFFSET`], [`BISHOP_MAGIC`], [`BISHOP_SHIFT`], [`BISHOP_MAGIC_ATTACKS`] | per square, then `u64 [5248]` | fancy magic bitboards | [`magic_bishop_attacks`] |
//! | [`ROOK_PEXT_ATTACKS`], [`BISHOP_PEXT_ATTACKS`] | `u64`, indexed with `*_OFFSET` and `*_MASK` | BMI2 PEXT | |
//! | [`KNIGHT_ATTACKS`], [`KING_ATTACKS`], [`PAWN_ATTACKS`] | `u64 [64]`, `[2][64]` for pawns | leaper attacks | [`knight_attacks`], [`king_attacks`], [`pawn_attacks`] |
//! | [`ROOK_PSEUDO_ATTACKS`], [`BISHOP_PSEUDO_ATTACKS`] | `u64 [64]` | empty-board slider attacks (pinner and checker candidates) | |
//! | [`BETWEEN`], [`LINE`] | `u64 [64][64]`, by two squares | line geometry | [`between`], [`line()`] |
//! | [`RAYS`] | `u64 [8][64]`, by direction and square | classical rays | [`ray`] |
//! | [`FILE_MASKS`], [`RANK_MASKS`] | `u64 [8]` | board geometry | |
//! | [`FORWARD_SPAN`], [`PASSED_PAWN_MASK`], [`ISOLATED_PAWN_MASK`] | `u64 [2][64]`, `[64]` | pawn structure | |
//! | [`ZOBRIST_PIECES`], [`ZOBRIST_CASTLING`], [`ZOBRIST_EN_PASSANT`], [`ZOBRIST_SIDE`] | `u64 [12][64]`, `[16]`, `[8]`, scalar | Zobrist hashing (fixed seed) | |
//! | [`POLYGLOT_RANDOM`] | `u64 [781]` | the Polyglot opening-book key (the format's numbers) | `brokkr::book::polyglot_key` |
//!
//! # Examples
//!
//! Three techniques, one answer: a rook on d4 with pieces on b4 and d7.
//!
//! ```
//! use brokkr::tables::*;
//!
//! let (d4, b4, d7) = (27, 25, 51);
//! let occ: u64 = 1 << b4 | 1 << d7;
//! let magic = magic_rook_attacks(d4, occ);
//! assert_eq!(magic, olithink_rook_attacks(d4, occ));
//!
//! // Rotated tables take the 8-bit occupancy of each line.
//! let rank8 = (occ >> 24) as u8; // the fourth rank
//! let file8 = (0..8).fold(0u8, |acc, r| acc | ((occ >> (8 * r + 3) & 1) as u8) << r); // d-file
//! assert_eq!(magic, rotated_rank_attacks(d4, rank8) | rotated_file_attacks(d4, file8));
//!
//! // Attacks as moves: drop the squares of your own pieces.
//! let own = 1 << b4;
//! assert_eq!((magic & !own).count_ones(), 11);
//! ```
//!
//! Walking a bitboard with the 16-bit bitscan tables:
//!
//! ```
//! use brokkr::tables::*;
//!
//! // The lowest set bit of a word: the first non-zero 16-bit part, scanned.
//! let lsb = |b: u64| {
//!     (0..4u32)
//!         .map(|i| (16 * i, (b >> (16 * i)) as u16))
//!         .find(|&(_, part)| part != 0)
//!         .map_or(64, |(base, part)| base + last_one(part))
//! };
//! let mut b = knight_attacks(27); // a knight on d4
//! let mut squares = Vec::new();
//! while b != 0 {
//!     squares.push(lsb(b));
//!     b &= b - 1;
//! }
//! assert_eq!(squares, [10, 12, 17, 21, 33, 37, 42, 44]); // c2 e2 b3 f3 b5 f5 c6 e6
//! ```
//!
//! # Accessors
//!
//! The functions below wrap the common lookups. They are `#[inline]`, never panic,
//! and mask their square arguments to 0..64 (`sq & 63`) so that the compiler can drop
//! the bounds checks; pass squares below 64, since larger ones wrap around. Only the
//! magic lookups keep one bounds check, because their index starts at an offset read
//! from a table; it never fails and is well predicted.
//!
//! ```
//! use brokkr::tables::*;
//!
//! let (a1, b1, c1, e1, c2, e2, b3, e4, d5, f5) = (0, 1, 2, 4, 10, 12, 17, 28, 35, 37);
//! assert_eq!(knight_attacks(a1), 1 << c2 | 1 << b3);
//! assert_eq!(king_attacks(a1), 0x0302);
//! assert_eq!(pawn_attacks(0, e4), 1 << d5 | 1 << f5); // white pawn on e4
//! assert_eq!(between(e1, e4), 1 << e2 | 1 << 20);
//! assert_eq!(line(a1, c1), 0xFF); // the first rank
//! assert_eq!(ray(2, e1), 1 << 5 | 1 << 6 | 1 << 7); // east of e1: f1 g1 h1
//!
//! // Rotated lookups take the line's 8-bit occupancy: bit i = file i on a rank or
//! // diagonal, rank i on a file.
//! assert_eq!(rotated_rank_attacks(c1, 1 << 0 | 1 << 4), 1 << a1 | 1 << b1 | 1 << 3 | 1 << e1);
//! assert_eq!(rotated_file_attacks(a1, 1 << 2), 1 << 8 | 1 << 16); // blocked on a3
//! assert_eq!(rotated_diag_a1h8_attacks(a1, 1 << 2), 1 << 9 | 1 << 18); // blocked on c3
//! assert_eq!(rotated_diag_h1a8_attacks(7, 1 << 5), 1 << 14 | 1 << 21); // h1, blocked on f3
//!
//! assert_eq!((first_one(0x0120), last_one(0x0120), popcount_16(0x0120)), (8, 5, 2));
//! assert_eq!((first_one(0), last_one(0)), (16, 16));
//! ```

#![allow(clippy::unreadable_literal, clippy::large_const_arrays)]
#![warn(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// Squares a knight on `sq` attacks: [`KNIGHT_ATTACKS`]`[sq]`.
#[inline]
pub fn knight_attacks(sq: usize) -> u64 {
    KNIGHT_ATTACKS[sq & 63]
}

/// Squares a king on `sq` attacks: [`KING_ATTACKS`]`[sq]`.
#[inline]
pub fn king_attacks(sq: usize) -> u64 {
    KING_ATTACKS[sq & 63]
}

/// Squares a pawn of `colour` (0 = white, 1 = black) on `sq` attacks:
/// [`PAWN_ATTACKS`]`[colour][sq]`. Only the lowest bit of `colour` is used.
#[inline]
pub fn pawn_attacks(colour: usize, sq: usize) -> u64 {
    PAWN_ATTACKS[colour & 1][sq & 63]
}

/// Squares strictly between `a` and `b` if they share a line, else 0:
/// [`BETWEEN`]`[a][b]`.
#[inline]
pub fn between(a: usize, b: usize) -> u64 {
    BETWEEN[a & 63][b & 63]
}

/// The whole line through `a` and `b` if they share one, else 0: [`LINE`]`[a][b]`.
#[inline]
pub fn line(a: usize, b: usize) -> u64 {
    LINE[a & 63][b & 63]
}

/// The ray from `sq` to the edge in direction `dir` (0 = N, 1 = NE, 2 = E, 3 = SE,
/// 4 = S, 5 = SW, 6 = W, 7 = NW): [`RAYS`]`[dir][sq]`.
#[inline]
pub fn ray(dir: usize, sq: usize) -> u64 {
    RAYS[dir & 7][sq & 63]
}

/// Rook attacks along the rank of `sq`, given the rank's occupancy `occ8` (bit i =
/// the square on file i): [`ROTATED_RANK_ATTACKS`]`[sq][occ8]`.
///
/// ```
/// # use brokkr::tables::rotated_rank_attacks;
/// let occ: u64 = 1 << 0 | 1 << 5; // pieces on a1 and f1
/// let c1 = 2;
/// assert_eq!(rotated_rank_attacks(c1, occ as u8), 0b0011_1011); // a1 b1 d1 e1 f1
/// ```
#[inline]
pub fn rotated_rank_attacks(sq: usize, occ8: u8) -> u64 {
    ROTATED_RANK_ATTACKS[sq & 63][occ8 as usize]
}

/// Rook attacks along the file of `sq`, given the file's occupancy `occ8` (bit i =
/// the square on rank i + 1): [`ROTATED_FILE_ATTACKS`]`[sq][occ8]`.
#[inline]
pub fn rotated_file_attacks(sq: usize, occ8: u8) -> u64 {
    ROTATED_FILE_ATTACKS[sq & 63][occ8 as usize]
}

/// Bishop attacks along the a1-h8 diagonal of `sq`, given its occupancy `occ8` (bit
/// i = the diagonal's square on file i): [`ROTATED_DIAG_A1H8_ATTACKS`]`[sq][occ8]`.
#[inline]
pub fn rotated_diag_a1h8_attacks(sq: usize, occ8: u8) -> u64 {
    ROTATED_DIAG_A1H8_ATTACKS[sq & 63][occ8 as usize]
}

/// Bishop attacks along the h1-a8 diagonal of `sq`, given its occupancy `occ8` (bit
/// i = the diagonal's square on file i): [`ROTATED_DIAG_H1A8_ATTACKS`]`[sq][occ8]`.
#[inline]
pub fn rotated_diag_h1a8_attacks(sq: usize, occ8: u8) -> u64 {
    ROTATED_DIAG_H1A8_ATTACKS[sq & 63][occ8 as usize]
}

/// Index (0-15) of the most significant set bit of `v16`, 16 if it is 0:
/// [`FIRST_ONE`]`[v16]`.
#[inline]
pub fn first_one(v16: u16) -> u32 {
    FIRST_ONE[v16 as usize] as u32
}

/// Index (0-15) of the least significant set bit of `v16`, 16 if it is 0:
/// [`LAST_ONE`]`[v16]`.
#[inline]
pub fn last_one(v16: u16) -> u32 {
    LAST_ONE[v16 as usize] as u32
}

/// Number of set bits of `v16`: [`POPCOUNT_16`]`[v16]`.
#[inline]
pub fn popcount_16(v16: u16) -> u32 {
    POPCOUNT_16[v16 as usize] as u32
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// OliThink's 7-bit keys of the rank, file, a1-h8 and h1-a8 diagonal through `sq`
/// (already masked to 0..64) under `occ`: see [`OLITHINK_RAYS`].
#[inline]
fn olithink_keys(sq: usize, occ: u64) -> [usize; 4] {
    let rank = (occ >> (sq & 56)) & 0x7E;
    let file = ((occ >> (sq & 7)) & FILE_A).wrapping_mul(0x0080_4020_1008_0400) >> 57;
    let diag = |mask: u64| (occ & mask).wrapping_mul(0x0202_0202_0202_0202) >> 57;
    [
        rank as usize,
        file as usize,
        diag(OLITHINK_BMASK45[sq]) as usize,
        diag(OLITHINK_BMASK135[sq]) as usize,
    ]
}

/// The [`OLITHINK_RAYS`] entry of `line` (0 rank, 1 file, 2 a1-h8, 3 h1-a8), with
/// `xray` 0 for attacks or 1 for x-rays. The index is below 0x10000 by construction
/// (and masked to it), so there is no bounds check.
#[inline]
fn olithink_entry(xray: usize, line: usize, sq: usize, key: usize) -> u64 {
    OLITHINK_RAYS[(xray << 15 | line << 13 | sq << 7 | key) & 0xFFFF]
}

/// Rook attacks from `sq` under the occupancy `occ`, with OliThink's multiply keys:
/// the rank and file entries of [`OLITHINK_RAYS`].
///
/// ```
/// # use brokkr::tables::olithink_rook_attacks;
/// let (d4, b4, d7) = (27, 25, 51);
/// assert_eq!(olithink_rook_attacks(d4, 1 << b4 | 1 << d7), 0x0008_0808_F608_0808);
/// ```
#[inline]
pub fn olithink_rook_attacks(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    let k = olithink_keys(sq, occ);
    olithink_entry(0, 0, sq, k[0]) | olithink_entry(0, 1, sq, k[1])
}

/// Bishop attacks from `sq` under the occupancy `occ`, with OliThink's multiply
/// keys: the two diagonal entries of [`OLITHINK_RAYS`].
///
/// ```
/// # use brokkr::tables::olithink_bishop_attacks;
/// let (d4, b2, f6) = (27, 9, 45);
/// assert_eq!(olithink_bishop_attacks(d4, 1 << b2 | 1 << f6), 0x0001_2214_0014_2240);
/// ```
#[inline]
pub fn olithink_bishop_attacks(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    let k = olithink_keys(sq, occ);
    olithink_entry(0, 2, sq, k[2]) | olithink_entry(0, 3, sq, k[3])
}

/// Rook x-rays from `sq` under `occ`: in each of the four directions, the square of
/// the second piece met (behind the first blocker). As the key cannot see the edge
/// squares of a line, an x-ray may name an empty edge square: the result is
/// intersected with `occ` here, so it holds only real pieces.
///
/// ```
/// # use brokkr::tables::olithink_rook_xrays;
/// // A rook on e1, a knight on e4 and a king on e8: the king stands behind the
/// // knight, so the knight is pinned (if it is the king's).
/// let (e1, e4, e8) = (4, 28, 60);
/// assert_eq!(olithink_rook_xrays(e1, 1 << e4 | 1 << e8), 1 << e8);
/// // With nothing behind the blocker there is no x-ray.
/// assert_eq!(olithink_rook_xrays(e1, 1 << e4), 0);
/// ```
#[inline]
pub fn olithink_rook_xrays(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    let k = olithink_keys(sq, occ);
    (olithink_entry(1, 0, sq, k[0]) | olithink_entry(1, 1, sq, k[1])) & occ
}

/// Bishop x-rays from `sq` under `occ`: in each of the four diagonal directions,
/// the square of the second piece met, intersected with `occ` as for
/// [`olithink_rook_xrays`].
///
/// ```
/// # use brokkr::tables::olithink_bishop_xrays;
/// let (c1, e3, g5) = (2, 20, 38);
/// assert_eq!(olithink_bishop_xrays(c1, 1 << e3 | 1 << g5), 1 << g5);
/// ```
#[inline]
pub fn olithink_bishop_xrays(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    let k = olithink_keys(sq, occ);
    (olithink_entry(1, 2, sq, k[2]) | olithink_entry(1, 3, sq, k[3])) & occ
}

/// Rook attacks from `sq` under the occupancy `occ`, with fancy magic bitboards:
/// [`ROOK_MAGIC_ATTACKS`] indexed with [`ROOK_OFFSET`], [`ROOK_MASK`], [`ROOK_MAGIC`]
/// and [`ROOK_SHIFT`].
///
/// ```
/// # use brokkr::tables::magic_rook_attacks;
/// let a1 = 0;
/// assert_eq!(magic_rook_attacks(a1, 0), 0x0101_0101_0101_01FE); // empty board
/// assert_eq!(magic_rook_attacks(a1, 1 << 1 | 1 << 8), 1 << 1 | 1 << 8); // boxed in
/// ```
#[inline]
pub fn magic_rook_attacks(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    let index = (occ & ROOK_MASK[sq]).wrapping_mul(ROOK_MAGIC[sq]) >> ROOK_SHIFT[sq];
    ROOK_MAGIC_ATTACKS[ROOK_OFFSET[sq] as usize + index as usize]
}

/// Bishop attacks from `sq` under the occupancy `occ`, with fancy magic bitboards:
/// [`BISHOP_MAGIC_ATTACKS`] indexed with [`BISHOP_OFFSET`], [`BISHOP_MASK`],
/// [`BISHOP_MAGIC`] and [`BISHOP_SHIFT`].
///
/// ```
/// # use brokkr::tables::magic_bishop_attacks;
/// let (d4, b2, f6) = (27, 9, 45);
/// assert_eq!(magic_bishop_attacks(d4, 1 << b2 | 1 << f6), 0x0001_2214_0014_2240);
/// ```
#[inline]
pub fn magic_bishop_attacks(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    let index = (occ & BISHOP_MASK[sq]).wrapping_mul(BISHOP_MAGIC[sq]) >> BISHOP_SHIFT[sq];
    BISHOP_MAGIC_ATTACKS[BISHOP_OFFSET[sq] as usize + index as usize]
}
