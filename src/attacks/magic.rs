//! Fancy magic bitboards: `offset + ((occ & mask) * magic >> shift)` indexes a
//! per-square block of attack sets. The magics are found by `codegen/magic.rs`.

use super::{Slider, SliderKind};
use crate::tables::*;

/// Fancy magic bitboards.
#[derive(Clone, Copy, Debug, Default)]
pub struct Magic;

#[inline(always)]
fn index(
    sq: usize,
    occ: u64,
    mask: &[u64; 64],
    magic: &[u64; 64],
    shift: &[u8; 64],
    offset: &[u32; 64],
) -> usize {
    // Masking keeps any square in range (a safe caller may pass 64 or more) and
    // costs one `and`, which perft does not measure.
    let sq = sq & 63;
    // SAFETY: sq < 64 after the mask, and the four arrays have 64 entries.
    unsafe {
        let m = *mask.get_unchecked(sq);
        let k = *magic.get_unchecked(sq);
        let s = *shift.get_unchecked(sq);
        *offset.get_unchecked(sq) as usize + ((occ & m).wrapping_mul(k) >> s) as usize
    }
}

#[inline(always)]
pub(crate) fn rook_attacks(sq: usize, occ: u64) -> u64 {
    let i = index(sq, occ, &ROOK_MASK, &ROOK_MAGIC, &ROOK_SHIFT, &ROOK_OFFSET);
    // SAFETY: `index` is ROOK_OFFSET[sq] plus a 64-bit value shifted right by
    // ROOK_SHIFT[sq], so it is below ROOK_OFFSET[sq] + 2^(64 - ROOK_SHIFT[sq]) for
    // any occupancy and magic; the generated tables carry a compile-time assertion
    // (codegen/magic.rs, `bounds_check`) that this sum is at most
    // ROOK_MAGIC_ATTACKS.len() for every square, so the build fails otherwise.
    unsafe { *ROOK_MAGIC_ATTACKS.get_unchecked(i) }
}

#[inline(always)]
pub(crate) fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    let i = index(
        sq,
        occ,
        &BISHOP_MASK,
        &BISHOP_MAGIC,
        &BISHOP_SHIFT,
        &BISHOP_OFFSET,
    );
    // SAFETY: as for rooks, with the BISHOP_ tables and their own assertion.
    unsafe { *BISHOP_MAGIC_ATTACKS.get_unchecked(i) }
}

impl Slider for Magic {
    const KIND: SliderKind = SliderKind::Magic;
    type State = ();

    #[inline(always)]
    fn state_from(_: u64) {}

    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        rook_attacks(sq, occ)
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        bishop_attacks(sq, occ)
    }
}
