//! Kindergarten-style multiply keys with x-rays, after OliThink 5.
//!
//! Like rotated bitboards, this works line by line: a rook's attacks are the union
//! of its rank attacks and its file attacks, each a function of the line's
//! occupancy only. But instead of keeping the line bytes in make, it gathers them
//! from the plain occupancy with a multiplication, so it needs no state at all:
//!
//! - rank: shift the rank to the low byte and keep its six inner bits,
//!   `(occ >> (8 * rank)) & 0x7E`;
//! - file: move the file to the a-file, keep one bit per rank and multiply by
//!   `0x0080_4020_1008_0400`: each inner rank's bit meets exactly one factor bit
//!   that carries it into bits 58..63 (rank 1 to bit 63, rank 6 to bit 58), with no
//!   two partial products on the same bit, so the top seven bits are the key;
//! - diagonals: mask the diagonal (`OLITHINK_BMASK45`/`OLITHINK_BMASK135`, at most
//!   one square per file) and multiply by `0x0202_0202_0202_0202`, which adds the
//!   eight bytes, shifted up by one, into the top byte (the h-file bit falls off the
//!   top); shifting down by 57 leaves the diagonal's squares on files a..g.
//!
//! Each key is 7 bits, so one table of 4 lines × 64 squares × 128 keys holds every
//! attack set (`OLITHINK_RAYS`, lower half). The edge squares of a line never
//! change its attack sets, which is why six inner bits are enough.
//!
//! OliThink's table has a second half: for the same key, the *x-ray* of the line,
//! the square of the second piece met in each direction (the one behind the first
//! blocker). Pins, discovered checks and batteries then cost one probe: the
//! x-ray of a king intersected with enemy sliders is the set of pinners. The board
//! uses this for pin detection when this backend is active
//! ([`Slider::XRAY_PINS`]).

use super::{Slider, SliderKind};
use crate::tables::*;

/// Kindergarten multiply keys with x-rays (OliThink 5). Stateless.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kindergarten;

const RANK: usize = 0x0000;
const FILE: usize = 0x2000;
const DIAG_A1H8: usize = 0x4000;
const DIAG_H1A8: usize = 0x6000;
/// Add to an attack-set index to get the x-ray of the same line.
const XRAY: usize = 0x8000;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_KEY: u64 = 0x0080_4020_1008_0400;
const DIAG_KEY: u64 = 0x0202_0202_0202_0202;

#[inline(always)]
fn rank_key(sq: usize, occ: u64) -> usize {
    ((occ >> (sq & 56)) & 0x7E) as usize
}

#[inline(always)]
fn file_key(sq: usize, occ: u64) -> usize {
    (((occ >> (sq & 7)) & FILE_A).wrapping_mul(FILE_KEY) >> 57) as usize
}

#[inline(always)]
fn diag_key(mask: u64, occ: u64) -> usize {
    ((occ & mask).wrapping_mul(DIAG_KEY) >> 57) as usize
}

/// The table entry for `line` (one of the offsets above, plus `XRAY` or not).
///
/// Every key is a 7-bit value (a right shift by 57, or a mask with 0x7E) and the
/// square is masked to 6 bits, so the compiler sees that the index is at most
/// `0xE000 | 0x1F80 | 0x7F = 0xFFFF` and drops the bounds check: safe indexing
/// costs nothing here.
#[inline(always)]
fn probe(line: usize, sq: usize, key: usize) -> u64 {
    debug_assert!(sq < 64 && key < 128 && line <= XRAY + DIAG_H1A8);
    OLITHINK_RAYS[line | ((sq & 63) << 7) | (key & 127)]
}

#[inline(always)]
fn rook(sq: usize, occ: u64, xray: usize) -> u64 {
    probe(RANK + xray, sq, rank_key(sq, occ)) | probe(FILE + xray, sq, file_key(sq, occ))
}

#[inline(always)]
fn bishop(sq: usize, occ: u64, xray: usize) -> u64 {
    let sq = sq & 63;
    let (m45, m135) = (OLITHINK_BMASK45[sq], OLITHINK_BMASK135[sq]);
    probe(DIAG_A1H8 + xray, sq, diag_key(m45, occ))
        | probe(DIAG_H1A8 + xray, sq, diag_key(m135, occ))
}

impl Slider for Kindergarten {
    const KIND: SliderKind = SliderKind::Kindergarten;
    type State = ();

    #[inline(always)]
    fn state_from(_: u64) {}
    const XRAY_PINS: bool = true;

    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        rook(sq, occ, 0)
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        bishop(sq, occ, 0)
    }

    #[inline(always)]
    fn rook_xray(sq: usize, occ: u64) -> u64 {
        rook(sq, occ, XRAY)
    }

    #[inline(always)]
    fn bishop_xray(sq: usize, occ: u64) -> u64 {
        bishop(sq, occ, XRAY)
    }
}
