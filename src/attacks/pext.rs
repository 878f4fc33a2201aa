//! PEXT indexing (BMI2): `offset + pext(occ, mask)` indexes the same per-square
//! blocks as the magics, in carry-rippler order.

use super::{Slider, SliderKind};
use crate::tables::*;

/// BMI2 `pext` indexing. Selected only on CPUs with BMI2.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pext;

/// The board state of the [`Pext`] backend: nothing but proof that the CPU has
/// BMI2. Only [`Slider::state_from`] builds one, after checking, so a method that
/// receives it may run `pext` unchecked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PextState(());

/// Whether the CPU has BMI2 (cached after the first call).
#[inline(always)]
fn cpu_has_pext() -> bool {
    cfg!(target_arch = "x86_64") && crate::bits::cpu::has_bmi2()
}

/// # Safety
/// The CPU must have BMI2 (on x86-64).
#[inline(always)]
unsafe fn pext(occ: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let r: u64;
        // SAFETY: register-only instruction, no memory; the caller vouches for BMI2.
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

/// # Safety
/// The CPU must have BMI2.
#[inline(always)]
pub(crate) unsafe fn rook_attacks(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    // SAFETY: sq < 64 after the mask; pext of the mask is below
    // 1 << popcount(mask), and the generated tables assert at compile time that
    // ROOK_OFFSET[sq] plus that fits ROOK_PEXT_ATTACKS (codegen/magic.rs,
    // `bounds_check`), so the index is in range; the caller vouches for BMI2.
    unsafe {
        let i = *ROOK_OFFSET.get_unchecked(sq) as usize
            + pext(occ, *ROOK_MASK.get_unchecked(sq)) as usize;
        *ROOK_PEXT_ATTACKS.get_unchecked(i)
    }
}

/// # Safety
/// The CPU must have BMI2.
#[inline(always)]
pub(crate) unsafe fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    let sq = sq & 63;
    // SAFETY: as for rooks.
    unsafe {
        let i = *BISHOP_OFFSET.get_unchecked(sq) as usize
            + pext(occ, *BISHOP_MASK.get_unchecked(sq)) as usize;
        *BISHOP_PEXT_ATTACKS.get_unchecked(i)
    }
}

impl Slider for Pext {
    const KIND: SliderKind = SliderKind::Pext;
    type State = PextState;

    /// # Panics
    /// On a CPU without BMI2: the one check the hot path relies on.
    fn state_from(_: u64) -> PextState {
        assert!(
            cpu_has_pext(),
            "the pext slider backend needs BMI2, which this CPU lacks (use magic)"
        );
        PextState(())
    }

    #[inline(always)]
    fn rook(_: &PextState, sq: usize, occ: u64) -> u64 {
        // SAFETY: a PextState exists only after state_from saw BMI2.
        unsafe { rook_attacks(sq, occ) }
    }

    #[inline(always)]
    fn bishop(_: &PextState, sq: usize, occ: u64) -> u64 {
        // SAFETY: as above.
        unsafe { bishop_attacks(sq, occ) }
    }

    #[inline(always)]
    fn rook_with(_: &PextState, sq: usize, occ: u64) -> u64 {
        // SAFETY: as above.
        unsafe { rook_attacks(sq, occ) }
    }

    #[inline(always)]
    fn bishop_with(_: &PextState, sq: usize, occ: u64) -> u64 {
        // SAFETY: as above.
        unsafe { bishop_attacks(sq, occ) }
    }

    /// Checks the (cached) CPU flag on every call: without BMI2 it answers with
    /// the magic tables instead.
    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        if cpu_has_pext() {
            // SAFETY: just checked.
            unsafe { rook_attacks(sq, occ) }
        } else {
            super::magic::rook_attacks(sq, occ)
        }
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        if cpu_has_pext() {
            // SAFETY: just checked.
            unsafe { bishop_attacks(sq, occ) }
        } else {
            super::magic::bishop_attacks(sq, occ)
        }
    }
}
