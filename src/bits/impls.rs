//! The implementations of [`Bits`], one zero-sized type per path.

use super::{sealed::Sealed, BitPath, Bits};
use crate::tables::{FIRST_ONE, LAST_ONE, POPCOUNT_16};

impl Sealed for Asm {}
impl Sealed for Bmi {}
impl Sealed for Table {}
impl Sealed for Portable {}
impl Sealed for Extern {}
impl Sealed for ExternBmi {}

/// What `lsb` returns for zero on every path.
const LSB_ZERO: u32 = 64;
/// What `msb` returns for zero on every path (`63 ^ 64`).
const MSB_ZERO: u32 = 127;

/// Inline-asm `bsf`/`bsr` with Kernighan's popcount loop (Gk's choices).
#[derive(Clone, Copy, Debug, Default)]
pub struct Asm;

/// Inline-asm `tzcnt`, `lzcnt` and `popcnt` (BMI1, LZCNT/ABM, POPCNT).
#[derive(Clone, Copy, Debug, Default)]
pub struct Bmi;

/// Gk's 16-bit bitscan tables and a 16-bit popcount table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Table;

/// Plain Rust for the compile target's baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

/// `bsf`/`bsr`/Kernighan as out-of-line functions from `asm/x86_64/bits.S`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extern;

/// `tzcnt`/`lzcnt`/`popcnt` as out-of-line functions from `asm/x86_64/bits.S`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExternBmi;

/// The precondition of `bsf`, `bsr` and `tzcnt` here: a non-zero source. For zero
/// Intel documents the destination of `bsf`/`bsr` as undefined, and a CPU without
/// BMI1 runs `tzcnt` as `bsf`. Every call is behind a zero test that answers 64 or
/// 127 itself; this re-checks it in test and debug builds, where a path reaching
/// one of the instructions with zero panics (the zero test in `bits::impls`
/// relies on it), and costs nothing in release builds.
#[cfg(any(target_arch = "x86_64", brokkr_extern_asm))]
#[inline(always)]
fn nonzero_source(b: u64, instruction: &str) {
    if cfg!(any(test, debug_assertions)) {
        assert!(b != 0, "{instruction} reached with a zero source");
    }
}

/// Kernighan's loop: clear the lowest set bit until none is left.
#[inline(always)]
fn kernighan(mut b: u64) -> u32 {
    let mut n = 0;
    while b != 0 {
        n += 1;
        b &= b - 1;
    }
    n
}

impl Bits for Portable {
    const PATH: BitPath = BitPath::Portable;

    #[inline(always)]
    fn lsb(b: u64) -> u32 {
        b.trailing_zeros()
    }

    #[inline(always)]
    fn msb(b: u64) -> u32 {
        63 ^ b.leading_zeros()
    }

    #[inline(always)]
    fn popcount(b: u64) -> u32 {
        b.count_ones()
    }
}

impl Bits for Table {
    const PATH: BitPath = BitPath::Table;

    #[inline(always)]
    fn lsb(b: u64) -> u32 {
        // The indices are masked to 16 bits, so the bounds checks fold away.
        let lo = (b & 0xFFFF) as usize;
        if lo != 0 {
            return LAST_ONE[lo] as u32;
        }
        let w1 = (b >> 16 & 0xFFFF) as usize;
        if w1 != 0 {
            return 16 + LAST_ONE[w1] as u32;
        }
        let w2 = (b >> 32 & 0xFFFF) as usize;
        if w2 != 0 {
            return 32 + LAST_ONE[w2] as u32;
        }
        let hi = (b >> 48) as usize;
        if hi != 0 {
            return 48 + LAST_ONE[hi] as u32;
        }
        LSB_ZERO
    }

    #[inline(always)]
    fn msb(b: u64) -> u32 {
        let hi = (b >> 48) as usize;
        if hi != 0 {
            return 48 + FIRST_ONE[hi] as u32;
        }
        let w2 = (b >> 32 & 0xFFFF) as usize;
        if w2 != 0 {
            return 32 + FIRST_ONE[w2] as u32;
        }
        let w1 = (b >> 16 & 0xFFFF) as usize;
        if w1 != 0 {
            return 16 + FIRST_ONE[w1] as u32;
        }
        let lo = (b & 0xFFFF) as usize;
        if lo != 0 {
            return FIRST_ONE[lo] as u32;
        }
        MSB_ZERO
    }

    #[inline(always)]
    fn popcount(b: u64) -> u32 {
        POPCOUNT_16[(b & 0xFFFF) as usize] as u32
            + POPCOUNT_16[(b >> 16 & 0xFFFF) as usize] as u32
            + POPCOUNT_16[(b >> 32 & 0xFFFF) as usize] as u32
            + POPCOUNT_16[(b >> 48) as usize] as u32
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use crate::bits::cpu::has_bmi_path;
    use core::arch::asm;

    /// `bsf`, with 64 for zero. The instruction runs only on a non-zero word
    /// (its result for zero is undefined on Intel), so zero is answered here; in
    /// a loop that has already tested the word (`while b != 0 { pop_lsb }`) the
    /// compiler drops this test.
    #[inline(always)]
    pub(super) fn bsf(b: u64) -> u32 {
        if b == 0 {
            return LSB_ZERO;
        }
        nonzero_source(b, "bsf");
        let r: u64;
        // SAFETY: bsf reads one register and writes one register and the flags;
        // it touches no memory and exists on every x86-64 CPU. `b` is not zero,
        // so the result is defined: the index of its lowest set bit. `pure`
        // holds: the result depends only on `b`.
        unsafe {
            asm!("bsf {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
        };
        r as u32
    }

    /// `bsr`, with 127 for zero (`63 ^ 64`, as `lzcnt` gives), as [`bsf`].
    #[inline(always)]
    pub(super) fn bsr(b: u64) -> u32 {
        if b == 0 {
            return MSB_ZERO;
        }
        nonzero_source(b, "bsr");
        let r: u64;
        // SAFETY: as for bsf; `b` is not zero, so the result is the index of its
        // highest set bit.
        unsafe {
            asm!("bsr {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
        };
        r as u32
    }

    impl Bits for Asm {
        const PATH: BitPath = BitPath::Asm;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            bsf(b)
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            bsr(b)
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
            kernighan(b)
        }
    }

    impl Bits for Bmi {
        const PATH: BitPath = BitPath::Bmi;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            // tzcnt gives 64 for zero, but a CPU without BMI1 runs it as `bsf`,
            // whose result for zero is undefined: answer zero here, so the
            // instruction is right on every x86-64 CPU without a CPU check (in
            // `pop_lsb` loops the compiler drops this test).
            if b == 0 {
                return LSB_ZERO;
            }
            nonzero_source(b, "tzcnt");
            let r: u64;
            // SAFETY: register-only, no memory. `tzcnt` is `rep bsf`: a CPU without
            // BMI1 runs it as `bsf`, which gives the same index for the non-zero
            // `b`. So it is correct on every x86-64 CPU.
            unsafe {
                asm!("tzcnt {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            r as u32
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            if !has_bmi_path() {
                return bsr(b);
            }
            let r: u64;
            // SAFETY: register-only instruction, no memory; LZCNT was just checked
            // (without it the CPU would run bsr and answer wrongly).
            unsafe {
                asm!("lzcnt {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            63 ^ r as u32
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
            if !has_bmi_path() {
                return kernighan(b);
            }
            // SAFETY: POPCNT was just checked.
            unsafe { Self::popcount_unchecked(b) }
        }

        #[inline(always)]
        fn cpu_supports() -> bool {
            has_bmi_path()
        }

        #[inline(always)]
        unsafe fn popcount_unchecked(b: u64) -> u32 {
            let r: u64;
            // SAFETY: register-only instruction, no memory; the caller vouches for
            // POPCNT (`cpu_supports`).
            unsafe {
                asm!("popcnt {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            r as u32
        }
    }
}

#[cfg(brokkr_extern_asm)]
mod out_of_line {
    use super::*;

    extern "sysv64" {
        fn brokkr_lsb_bsf(b: u64) -> u32;
        fn brokkr_msb_bsr(b: u64) -> u32;
        fn brokkr_popcount_kernighan(b: u64) -> u32;
        fn brokkr_lsb_tzcnt(b: u64) -> u32;
        fn brokkr_msb_lzcnt(b: u64) -> u32;
        fn brokkr_popcount_popcnt(b: u64) -> u32;
    }

    // The ABI, for every call below: the functions are defined in
    // asm/x86_64/bits.S with the System V ABI declared here; each reads only its
    // argument register and writes only rax, rcx and the flags, which are
    // caller-saved. Each call's own SAFETY comment says why its input and CPU are
    // ones the instruction is defined for.
    impl Bits for Extern {
        const PATH: BitPath = BitPath::Extern;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            if b == 0 {
                return LSB_ZERO;
            }
            nonzero_source(b, "bsf");
            // SAFETY: the ABI above; `b` is not zero, so bsf's result is defined,
            // and bsf runs on every x86-64 CPU.
            unsafe { brokkr_lsb_bsf(b) }
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            if b == 0 {
                return MSB_ZERO;
            }
            nonzero_source(b, "bsr");
            // SAFETY: the ABI above; `b` is not zero, so bsr's result is defined,
            // and bsr runs on every x86-64 CPU.
            unsafe { brokkr_msb_bsr(b) }
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
            // SAFETY: the ABI above; the loop uses base x86-64 instructions only
            // and is defined for every word, zero included.
            unsafe { brokkr_popcount_kernighan(b) }
        }
    }

    impl Bits for ExternBmi {
        const PATH: BitPath = BitPath::ExternBmi;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            if b == 0 {
                return LSB_ZERO;
            }
            nonzero_source(b, "tzcnt");
            // SAFETY: the ABI above; `b` is not zero, and tzcnt is correct on
            // every x86-64 CPU (without BMI1 it runs as bsf, defined for it).
            unsafe { brokkr_lsb_tzcnt(b) }
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            if !crate::bits::cpu::has_bmi_path() {
                // The inline `bsr`, which answers zero itself.
                return super::x86::bsr(b);
            }
            // SAFETY: the ABI above; the CPU check just passed, so lzcnt is
            // lzcnt (not bsr) and defined for every word.
            unsafe { brokkr_msb_lzcnt(b) }
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
            if !crate::bits::cpu::has_bmi_path() {
                return kernighan(b);
            }
            // SAFETY: the ABI above; the CPU check just passed, so popcnt exists.
            unsafe { brokkr_popcount_popcnt(b) }
        }

        #[inline(always)]
        fn cpu_supports() -> bool {
            crate::bits::cpu::has_bmi_path()
        }

        #[inline(always)]
        unsafe fn popcount_unchecked(b: u64) -> u32 {
            // SAFETY: the ABI above; the caller promises the CPU check passed
            // (this function's contract), so popcnt exists.
            unsafe { brokkr_popcount_popcnt(b) }
        }
    }
}

/// On targets without the x86 paths, their types fall back to portable code so the
/// crate still builds; `BitPath::available` never selects them there.
#[allow(unused_macros)]
macro_rules! fallback {
    ($ty:ty, $path:expr) => {
        impl Bits for $ty {
            const PATH: BitPath = $path;

            #[inline(always)]
            fn lsb(b: u64) -> u32 {
                Portable::lsb(b)
            }

            #[inline(always)]
            fn msb(b: u64) -> u32 {
                Portable::msb(b)
            }

            #[inline(always)]
            fn popcount(b: u64) -> u32 {
                kernighan(b)
            }
        }
    };
}

#[cfg(not(target_arch = "x86_64"))]
fallback!(Asm, BitPath::Asm);
#[cfg(not(target_arch = "x86_64"))]
fallback!(Bmi, BitPath::Bmi);
#[cfg(not(brokkr_extern_asm))]
fallback!(Extern, BitPath::Extern);
#[cfg(not(brokkr_extern_asm))]
fallback!(ExternBmi, BitPath::ExternBmi);

#[cfg(test)]
mod tests {
    use crate::bits::{BitPath, Bits, Cpu, Portable};

    /// Words with a known answer: zero, every single bit, and a few mixed ones.
    fn words() -> Vec<u64> {
        let mut w = vec![
            0,
            !0,
            0x8000_0000_0000_0001,
            0x0000_FFFF_0000_0000,
            0x0123_4567_89AB_CDEF,
        ];
        w.extend((0..64).map(|i| 1u64 << i));
        w.extend((0..64).map(|i| !0u64 << i));
        w
    }

    /// Every path this CPU runs answers as documented on zero (`lsb` 64, `msb` 127,
    /// `popcount` 0, `pop_lsb` 64 leaving the word 0) without reaching `bsf`,
    /// `bsr` or `tzcnt` with a zero source (test builds panic there), and agrees
    /// with the portable path on non-zero words.
    #[test]
    fn every_path_answers_zero_as_documented() {
        let cpu = Cpu::detect();
        for path in BitPath::ALL.into_iter().filter(|p| p.available(&cpu)) {
            crate::with_bits!(path, B => {
                assert_eq!(B::lsb(0), 64, "{path}: lsb(0)");
                assert_eq!(B::msb(0), 127, "{path}: msb(0)");
                assert_eq!(B::popcount(0), 0, "{path}: popcount(0)");
                let mut z = 0;
                assert_eq!(B::pop_lsb(&mut z), 64, "{path}: pop_lsb(0)");
                assert_eq!(z, 0, "{path}: pop_lsb(0) left a bit");
                for b in words() {
                    assert_eq!(B::lsb(b), Portable::lsb(b), "{path}: lsb({b:#x})");
                    assert_eq!(B::msb(b), Portable::msb(b), "{path}: msb({b:#x})");
                    assert_eq!(B::popcount(b), b.count_ones(), "{path}: popcount({b:#x})");
                }
            });
        }
    }
}
