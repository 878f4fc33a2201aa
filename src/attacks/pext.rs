//! PEXT indexing (BMI2): `offset + pext(occ, mask)` indexes the same per-square
//! blocks as the magics, in carry-rippler order.

use super::{Slider, SliderKind};
use crate::tables::*;

/// BMI2 `pext` indexing. Selected only on CPUs with BMI2.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pext;

#[inline(always)]
fn pext(occ: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let r: u64;
        // SAFETY: register-only instruction, no memory. The backend is selected only
        // when the CPU reports BMI2 (`SliderKind::available`).
        unsafe {
            core::arch::asm!("pext {r}, {occ}, {mask}", occ = in(reg) occ, mask = in(reg) mask,
                r = lateout(reg) r, options(pure, nomem, nostack));
        }
        r
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // Portable fallback so the crate builds elsewhere; never selected there.
        let (mut m, mut out, mut bit) = (mask, 0u64, 1u64);
        while m != 0 {
            if occ & m & m.wrapping_neg() != 0 {
                out |= bit;
            }
            m &= m - 1;
            bit <<= 1;
        }
        out
    }
}

#[inline(always)]
pub(crate) fn rook_attacks(sq: usize, occ: u64) -> u64 {
    debug_assert!(sq < 64);
    // SAFETY: sq < 64 is the caller's contract; pext of the mask is below
    // 1 << popcount(mask), the size of the square's block, so the index is in range.
    unsafe {
        let i = *ROOK_OFFSET.get_unchecked(sq) as usize
            + pext(occ, *ROOK_MASK.get_unchecked(sq)) as usize;
        *ROOK_PEXT_ATTACKS.get_unchecked(i)
    }
}

#[inline(always)]
pub(crate) fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    debug_assert!(sq < 64);
    // SAFETY: as for rooks.
    unsafe {
        let i = *BISHOP_OFFSET.get_unchecked(sq) as usize
            + pext(occ, *BISHOP_MASK.get_unchecked(sq)) as usize;
        *BISHOP_PEXT_ATTACKS.get_unchecked(i)
    }
}

impl Slider for Pext {
    const KIND: SliderKind = SliderKind::Pext;
    type State = ();

    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        rook_attacks(sq, occ)
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        bishop_attacks(sq, occ)
    }
}
