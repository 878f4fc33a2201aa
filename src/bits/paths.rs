//! The implementations of [`Bits`], one zero-sized type per path.

use super::{BitPath, Bits};
use crate::tables::{FIRST_ONE, LAST_ONE, POPCOUNT_16};

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
        48 + LAST_ONE[(b >> 48) as usize] as u32
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
        FIRST_ONE[(b & 0xFFFF) as usize] as u32
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
    use core::arch::asm;

    impl Bits for Asm {
        const PATH: BitPath = BitPath::Asm;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            let r: u64;
            // SAFETY: bsf reads one register and writes one register and the flags;
            // it touches no memory. For b == 0 the result is whatever the register
            // held, which the trait documents as unspecified.
            unsafe {
                asm!("bsf {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            r as u32
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            let r: u64;
            // SAFETY: as for bsf above.
            unsafe {
                asm!("bsr {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            r as u32
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
            let r: u64;
            // SAFETY: register-only instruction, no memory. It is only run after
            // `BitPath::Bmi.available()` saw BMI1 (on a CPU without it, tzcnt decodes
            // as bsf, which is still harmless).
            unsafe {
                asm!("tzcnt {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            r as u32
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            let r: u64;
            // SAFETY: register-only instruction, no memory; selected only with LZCNT.
            unsafe {
                asm!("lzcnt {r}, {b}", b = in(reg) b, r = lateout(reg) r, options(pure, nomem, nostack))
            };
            63 ^ r as u32
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
            let r: u64;
            // SAFETY: register-only instruction, no memory; selected only with POPCNT.
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

    // SAFETY (every call below): the functions are defined in asm/x86_64/bits.S with
    // the System V ABI declared here; each reads only its argument register and
    // writes only rax, rcx and the flags, which are caller-saved. The BMI ones are
    // selected only when the CPU has the instructions.
    impl Bits for Extern {
        const PATH: BitPath = BitPath::Extern;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            unsafe { brokkr_lsb_bsf(b) }
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            unsafe { brokkr_msb_bsr(b) }
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
            unsafe { brokkr_popcount_kernighan(b) }
        }
    }

    impl Bits for ExternBmi {
        const PATH: BitPath = BitPath::ExternBmi;

        #[inline(always)]
        fn lsb(b: u64) -> u32 {
            unsafe { brokkr_lsb_tzcnt(b) }
        }

        #[inline(always)]
        fn msb(b: u64) -> u32 {
            unsafe { brokkr_msb_lzcnt(b) }
        }

        #[inline(always)]
        fn popcount(b: u64) -> u32 {
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
