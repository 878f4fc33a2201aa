//! Small board helpers the evaluation needs that the board does not offer,
//! beside the one it does: the pawns' attacks, which the board's threats use too.

pub(crate) use crate::board::pawn_attacks;
use crate::types::Color;

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
