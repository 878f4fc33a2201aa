//! Small board helpers the evaluation needs that the board does not offer.

use crate::tables::FILE_MASKS;
use crate::types::Color;

/// Squares off the a-file / h-file: a shift must not wrap a pawn around the board.
const NOT_FILE_A: u64 = !FILE_MASKS[0];
const NOT_FILE_H: u64 = !FILE_MASKS[7];

/// Squares attacked by the pawns `pawns` of `color`.
#[inline(always)]
pub(crate) fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns & NOT_FILE_A) << 7) | ((pawns & NOT_FILE_H) << 9),
        Color::Black => ((pawns & NOT_FILE_A) >> 9) | ((pawns & NOT_FILE_H) >> 7),
    }
}

/// `bb` moved one rank forward for `color`.
#[inline(always)]
pub(crate) fn forward(color: Color, bb: u64) -> u64 {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

/// The square in front of `sq` for `color` (`sq` must not be on the last rank).
#[inline(always)]
pub(crate) fn front(color: Color, sq: usize) -> usize {
    match color {
        Color::White => sq + 8,
        Color::Black => sq - 8,
    }
}

/// The rank of `sq` counted from `color`'s side: 0 = its first rank.
#[inline(always)]
pub(crate) fn relative_rank(color: Color, sq: usize) -> usize {
    (sq >> 3) ^ (7 * color.index())
}

/// `sq` seen from `color`'s side (for White-side tables).
#[inline(always)]
pub(crate) fn relative_square(color: Color, sq: usize) -> usize {
    sq ^ (56 * color.index())
}

/// King moves between two squares (Chebyshev distance).
#[inline(always)]
pub(crate) fn distance(a: usize, b: usize) -> i32 {
    let df = ((a & 7) as i32 - (b & 7) as i32).abs();
    let dr = ((a >> 3) as i32 - (b >> 3) as i32).abs();
    df.max(dr)
}

/// King moves from `sq` to the nearest of the four centre squares (0..3).
#[inline(always)]
pub(crate) fn centre_distance(sq: usize) -> i32 {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    (3 - f.min(7 - f)).max(3 - r.min(7 - r))
}

/// The squares of `color`'s rank `rank` (0 = its first rank).
#[inline(always)]
pub(crate) fn relative_rank_mask(color: Color, rank: usize) -> u64 {
    crate::tables::RANK_MASKS[rank ^ (7 * color.index())]
}

/// The ranks from `color`'s rank `rank` (absolute, 0..8) forward, inclusive.
#[inline(always)]
pub(crate) fn ranks_from(color: Color, rank: usize) -> u64 {
    match color {
        Color::White => u64::MAX << (8 * rank),
        Color::Black => u64::MAX >> (8 * (7 - rank)),
    }
}

/// The light squares (b1, a2, ...): a bishop's colour.
pub(crate) const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;
