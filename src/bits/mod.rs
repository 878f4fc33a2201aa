//! Bitscan and popcount paths, and the run-time choice between them.
//!
//! May not touch: the board, the evaluation, the search and above (the layers: docs/architecture.md).
//!
//! Each path is a zero-sized type implementing [`Bits`]. The engine picks one path
//! at start-up ([`BitPath::detect`], or a flag) and runs code monomorphised for it
//! through [`with_bits!`](crate::with_bits), so a hot loop never makes an indirect
//! call per bitscan. `asm!` blocks inline whatever the compile-time target features,
//! which is what lets a generic build use `tzcnt` or `popcnt` on a CPU that has them.
//!
//! # Soundness: no instruction the CPU lacks
//!
//! The path types are public and their methods are safe, so nothing may depend on
//! the caller having checked the CPU. [`Bits`] is sealed (only this module
//! implements it), and each implementation is correct on every x86-64 CPU:
//!
//! - `tzcnt` (the `bmi` path's `lsb`) is encoded `rep bsf`; a CPU without BMI1
//!   runs it as `bsf`, which gives the same index for a non-zero word. It is
//!   never run on zero (see below), so it needs no CPU check.
//! - `lzcnt` (which a CPU without LZCNT runs as `bsr`, silently giving a wrong
//!   answer) and `popcnt` (an invalid opcode without POPCNT) are guarded by a
//!   cached CPU flag, one load and compare per call; without the feature they
//!   fall back to portable code. The same holds for the out-of-line `extern-bmi`
//!   functions.
//!
//! The guard keeps every call site as it is (`B::popcount(x)` in generic code).
//! Where it would cost in a hot loop, a witness checks once instead: perft's
//! [`Counter`](crate::moves::Counter) checks [`Bits::cpu_supports`] when it is
//! built (and panics on a CPU that lacks the path, which the dispatch never
//! picks) and then calls the `unsafe` [`Bits::popcount_unchecked`].
//!
//! # Zero
//!
//! `lsb(0)` is 64 and `msb(0)` is 127 (`63 ^ 64`, as `63 ^ lzcnt(0)`) on every
//! path, and `pop_lsb` on zero returns 64 and leaves the word zero.
//!
//! No path runs `bsf`, `bsr` or `tzcnt` on zero: Intel documents the destination
//! of `bsf`/`bsr` as undefined for a zero source, and a CPU without BMI1 runs
//! `tzcnt` as `bsf`. So each of them sits behind a zero test that answers 64 or 127
//! itself (inline or before the out-of-line call); the table path tests for zero
//! too, and `lzcnt` (run only on a CPU with LZCNT) is defined for zero. Where the
//! word is already known to be non-zero, as in the `while b != 0 { pop_lsb }`
//! loops, the compiler drops the test. Test and debug builds assert the non-zero
//! source at each instruction, and a unit test checks every path on zero.
//!
//! The portable path is `trailing_zeros`/`leading_zeros`, whose instructions are
//! the compiler's choice, not ours: for the x86-64 baseline rustc 1.95 emits
//! `mov $64` then `rep bsf` (and `mov $127` then `bsr`), relying on the
//! destination being left unchanged for zero, which AMD documents. A zero test in
//! Rust does not prevent it: the optimiser folds `if b == 0 { 64 } else {
//! b.trailing_zeros() }` back into that form. The same holds for every
//! `trailing_zeros` elsewhere in the crate.

pub(crate) mod cpu;
mod impls;

pub use cpu::Cpu;
pub use impls::{Asm, Bmi, Extern, ExternBmi, Portable, Table};

#[cfg(test)]
pub(crate) use counting::Counting;

/// A path for unit tests: the portable answers, counted per thread, so a test can
/// check that generic code scans with the path it is given.
#[cfg(test)]
mod counting {
    use super::{sealed::Sealed, BitPath, Bits, Portable};
    use std::cell::Cell;

    thread_local! {
        static SCANS: Cell<u64> = const { Cell::new(0) };
    }

    /// Portable scans, each counted (see [`Counting::scans`]).
    #[derive(Clone, Copy, Debug, Default)]
    pub(crate) struct Counting;

    impl Counting {
        /// Scans and popcounts made through this path on this thread so far.
        pub(crate) fn scans() -> u64 {
            SCANS.with(Cell::get)
        }

        fn count() {
            SCANS.with(|c| c.set(c.get() + 1));
        }
    }

    impl Sealed for Counting {}

    impl Bits for Counting {
        const PATH: BitPath = BitPath::Portable;

        fn lsb(b: u64) -> u32 {
            Counting::count();
            Portable::lsb(b)
        }

        fn msb(b: u64) -> u32 {
            Counting::count();
            Portable::msb(b)
        }

        fn popcount(b: u64) -> u32 {
            Counting::count();
            Portable::popcount(b)
        }
    }
}

use std::fmt;
use std::str::FromStr;

mod sealed {
    /// Only this crate implements [`Bits`](super::Bits): its soundness argument
    /// (module docs) covers exactly these implementations.
    pub trait Sealed {}
}

/// Bitscan and popcount: one implementation per path. Sealed.
pub trait Bits: sealed::Sealed + Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// The path this type implements.
    const PATH: BitPath;

    /// Index of the least significant set bit; 64 for zero.
    fn lsb(b: u64) -> u32;

    /// Index of the most significant set bit; 127 for zero (`63 ^ 64`).
    fn msb(b: u64) -> u32;

    /// Number of set bits.
    fn popcount(b: u64) -> u32;

    /// Whether this CPU runs every instruction of the path (cached after the
    /// first call: one load and compare).
    #[inline(always)]
    fn cpu_supports() -> bool {
        true
    }

    /// [`Bits::popcount`] without its CPU check, for a hot loop whose owner
    /// checked once (as [`Counter::new`](crate::moves::Counter::new) does).
    ///
    /// # Safety
    /// [`Bits::cpu_supports`] must hold.
    #[inline(always)]
    unsafe fn popcount_unchecked(b: u64) -> u32 {
        Self::popcount(b)
    }

    /// Remove the least significant set bit of `*b` and return its index.
    #[inline(always)]
    fn pop_lsb(b: &mut u64) -> u32 {
        let sq = Self::lsb(*b);
        *b &= b.wrapping_sub(1);
        sq
    }
}

/// The bitscan and popcount paths brokkr carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitPath {
    /// Inline-asm `bsf`/`bsr` and Kernighan's popcount loop, as in Gk.
    Asm,
    /// Inline-asm BMI1 `tzcnt`, LZCNT `lzcnt` and `popcnt`.
    Bmi,
    /// Gk's 16-bit `FIRST_ONE`/`LAST_ONE` tables and a 16-bit popcount table.
    Table,
    /// Plain Rust (`trailing_zeros`, `leading_zeros`, `count_ones`) for the compile
    /// target's baseline: correct anywhere.
    Portable,
    /// `bsf`/`bsr`/Kernighan assembled from `asm/` as out-of-line functions.
    Extern,
    /// `tzcnt`/`lzcnt`/`popcnt` assembled from `asm/` as out-of-line functions.
    ExternBmi,
}

impl BitPath {
    /// Every path, in display order.
    pub const ALL: [BitPath; 6] = [
        BitPath::Asm,
        BitPath::Bmi,
        BitPath::Table,
        BitPath::Portable,
        BitPath::Extern,
        BitPath::ExternBmi,
    ];

    /// The name used on the command line and in engine options.
    pub const fn name(self) -> &'static str {
        match self {
            BitPath::Asm => "asm",
            BitPath::Bmi => "bmi",
            BitPath::Table => "table",
            BitPath::Portable => "portable",
            BitPath::Extern => "extern",
            BitPath::ExternBmi => "extern-bmi",
        }
    }

    /// Whether this CPU and build can run the path.
    pub fn available(self, cpu: &Cpu) -> bool {
        let x86 = cfg!(target_arch = "x86_64");
        let extern_asm = cfg!(brokkr_extern_asm);
        let bmi = cpu.bmi1 && cpu.lzcnt && cpu.popcnt;
        match self {
            BitPath::Table | BitPath::Portable => true,
            BitPath::Asm => x86,
            BitPath::Bmi => x86 && bmi,
            BitPath::Extern => extern_asm,
            BitPath::ExternBmi => extern_asm && bmi,
        }
    }

    /// The path brokkr uses on `cpu` when nothing overrides it, and why.
    pub fn default_for(cpu: &Cpu) -> (BitPath, &'static str) {
        if BitPath::Bmi.available(cpu) {
            (
                BitPath::Bmi,
                "the CPU has BMI1, LZCNT and POPCNT: one instruction each, no loop",
            )
        } else if BitPath::Asm.available(cpu) {
            (
                BitPath::Asm,
                "x86-64 without BMI1/LZCNT/POPCNT: bsf/bsr are the fastest scans",
            )
        } else {
            (
                BitPath::Portable,
                "not x86-64: the compiler's own intrinsics",
            )
        }
    }

    /// The default path for the CPU this process runs on.
    pub fn detect() -> BitPath {
        BitPath::default_for(&Cpu::detect()).0
    }
}

impl fmt::Display for BitPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BitPath {
    type Err = String;

    fn from_str(s: &str) -> Result<BitPath, String> {
        BitPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = BitPath::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "unknown bit path '{s}' (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Run `$body` with the type alias `$B` bound to the [`Bits`] type of `$path`.
///
/// This is the one place where the run-time choice becomes a type: everything
/// inside `$body` is monomorphised for that path.
///
/// ```
/// use brokkr::bits::{BitPath, Bits};
/// let n = brokkr::with_bits!(BitPath::Portable, B => B::popcount(0xF0));
/// assert_eq!(n, 4);
/// ```
#[macro_export]
macro_rules! with_bits {
    ($path:expr, $B:ident => $body:expr) => {
        match $path {
            $crate::bits::BitPath::Asm => {
                type $B = $crate::bits::Asm;
                $body
            }
            $crate::bits::BitPath::Bmi => {
                type $B = $crate::bits::Bmi;
                $body
            }
            $crate::bits::BitPath::Table => {
                type $B = $crate::bits::Table;
                $body
            }
            $crate::bits::BitPath::Portable => {
                type $B = $crate::bits::Portable;
                $body
            }
            $crate::bits::BitPath::Extern => {
                type $B = $crate::bits::Extern;
                $body
            }
            $crate::bits::BitPath::ExternBmi => {
                type $B = $crate::bits::ExternBmi;
                $body
            }
        }
    };
}
