//! Which (bit path, slider backend) pairs the search and perft are built for,
//! and the one type that carries a pair through the search ([`Pair`]).
//!
//! Perft is built for the 20 pairs of [`PERFT_BUILT`] (every backend with `bmi`
//! and `portable`, every bit path with `magic` and `pext`): enough for `brokkr
//! paths` to compare each technique with the others held still on any CPU, at
//! 4.4 MB less code than all 36 (the tests still count with all 36 through the
//! library). The search and evaluation are built for the ten pairs in [`BUILT`]:
//!
//! - every slider backend but `kogge-stone` with the `bmi` bit path (what a modern
//!   x86-64 runs, so the backends can be compared under the whole engine);
//!   `kogge-stone` joins when a measurement shows it earns the extra instantiation;
//! - every bit path with the `magic` backend (the portable backend, so the bit paths
//!   can be compared, and so a CPU without BMI1/LZCNT/POPCNT, or without x86-64 at
//!   all, has its own default pair built).
//!
//! A pair outside that set falls back to the nearest built one, and says so:
//! [`resolve`] keeps the slider backend with `bmi` when the CPU has it and that pair is
//! built, else keeps the bit path with `magic`.
//!
//! The network's vector path is not a type parameter: the search holds a
//! [`Token`](crate::nnue::vector::Token) and matches on it per evaluation, so
//! every built pair runs every vector path the CPU has, and the search is built
//! ten times instead of sixteen ([`resolve_vector`] only checks the CPU).
//!
//! The search is generic over one type parameter `E: Engine` rather than two, so
//! signatures stay short (`search::<E>` instead of `search::<B, S>`); the board itself
//! stays `Board<S>`, since it only needs the backend.

use crate::attacks::{Slider, SliderKind};
use crate::bits::{BitPath, Bits, Cpu};
use crate::nnue::vector::VectorPath;
use std::fmt;
use std::marker::PhantomData;

/// A bit path and a slider backend, bundled for the search.
pub trait Engine: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// Bitscan and popcount.
    type Bits: Bits;
    /// Slider attacks (and the state the board keeps for them).
    type Slider: Slider;
}

/// The [`Engine`] made of bit path `B` and backend `S`: two of the paths
/// `brokkr paths` measures, bundled as one type for the search (the third, the
/// network's vector path, is chosen per evaluation).
pub struct Pair<B: Bits, S: Slider>(PhantomData<(B, S)>);

// By hand, not derived: a derive would ask the type parameters for the traits
// too.
impl<B: Bits, S: Slider> Clone for Pair<B, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Bits, S: Slider> Copy for Pair<B, S> {}
impl<B: Bits, S: Slider> Default for Pair<B, S> {
    fn default() -> Self {
        Pair(PhantomData)
    }
}
impl<B: Bits, S: Slider> fmt::Debug for Pair<B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pair<{}, {}>", B::PATH, S::KIND)
    }
}

impl<B: Bits, S: Slider> Engine for Pair<B, S> {
    type Bits = B;
    type Slider = S;
}

/// The vector path that runs for a requested one, and a message when it
/// differs (the CPU lacks it: the fastest it has runs instead).
pub fn resolve_vector(vector: VectorPath) -> (VectorPath, Option<String>) {
    if vector.available() {
        return (vector, None);
    }
    let v = VectorPath::best();
    let note = format!("this CPU cannot run the {vector} vector path; running {v}");
    (v, Some(note))
}

/// The pairs the search is built for.
pub const BUILT: [(BitPath, SliderKind); 10] = [
    (BitPath::Bmi, SliderKind::Magic),
    (BitPath::Bmi, SliderKind::Pext),
    (BitPath::Bmi, SliderKind::Rotated),
    (BitPath::Bmi, SliderKind::Kindergarten),
    (BitPath::Bmi, SliderKind::RayLoop),
    (BitPath::Asm, SliderKind::Magic),
    (BitPath::Table, SliderKind::Magic),
    (BitPath::Portable, SliderKind::Magic),
    (BitPath::Extern, SliderKind::Magic),
    (BitPath::ExternBmi, SliderKind::Magic),
];

/// Whether the search is built for the pair.
pub fn is_built(bits: BitPath, slider: SliderKind) -> bool {
    BUILT.contains(&(bits, slider))
}

/// The built pair to run for a requested one, and a message when it differs.
pub fn resolve(
    bits: BitPath,
    slider: SliderKind,
    cpu: &Cpu,
) -> (BitPath, SliderKind, Option<String>) {
    if is_built(bits, slider) {
        return (bits, slider, None);
    }
    // Not every backend is built with the bmi path (kogge-stone is not): those
    // fall back to magic like the rest.
    let (b, s) = if BitPath::Bmi.available(cpu) && is_built(BitPath::Bmi, slider) {
        (BitPath::Bmi, slider)
    } else {
        (bits, SliderKind::Magic)
    };
    let note = format!(
        "the search is not built for bits={bits} with slider={slider}; running bits={b} slider={s}"
    );
    (b, s, Some(note))
}

/// Run `$body` with the type aliases `$B` and `$S` bound to a pair of
/// [`BUILT`], for the commands that need a board but not the search (`eval`);
/// a pair outside it runs `portable` with `magic` (call [`resolve`] first).
#[macro_export]
macro_rules! with_search_pair {
    ($bits:expr, $slider:expr, $B:ident, $S:ident => $body:expr) => {
        $crate::__with_pairs!(($bits, $slider), $B, $S => $body;
            Bmi Magic, Bmi Pext, Bmi Rotated, Bmi Kindergarten, Bmi RayLoop,
            Asm Magic, Table Magic, Portable Magic, Extern Magic, ExternBmi Magic)
    };
}

/// The pairs perft (and `brokkr paths`' perft table) is built for: every
/// backend with the `bmi` and `portable` bit paths, and every bit path with the
/// `magic` and `pext` backends.
///
/// Perft's job is comparing the techniques, but a comparison needs one side held
/// still, not every combination: `brokkr paths` compares the bit paths under the
/// CPU's default backend (always `magic` or `pext`) and the backends under its
/// default bit path (`bmi`, or `portable` for the rest), and the tests compare
/// all 36 pairs through the library. Building perft for these 20 pairs instead
/// of 36 took 4.4 MB off the binary (16.3 to 11.8 MB, with `eval` on the
/// search's pairs).
pub const PERFT_BUILT: [(BitPath, SliderKind); 20] = [
    (BitPath::Bmi, SliderKind::Magic),
    (BitPath::Bmi, SliderKind::Pext),
    (BitPath::Bmi, SliderKind::Rotated),
    (BitPath::Bmi, SliderKind::Kindergarten),
    (BitPath::Bmi, SliderKind::RayLoop),
    (BitPath::Bmi, SliderKind::KoggeStone),
    (BitPath::Portable, SliderKind::Magic),
    (BitPath::Portable, SliderKind::Pext),
    (BitPath::Portable, SliderKind::Rotated),
    (BitPath::Portable, SliderKind::Kindergarten),
    (BitPath::Portable, SliderKind::RayLoop),
    (BitPath::Portable, SliderKind::KoggeStone),
    (BitPath::Asm, SliderKind::Magic),
    (BitPath::Asm, SliderKind::Pext),
    (BitPath::Table, SliderKind::Magic),
    (BitPath::Table, SliderKind::Pext),
    (BitPath::Extern, SliderKind::Magic),
    (BitPath::Extern, SliderKind::Pext),
    (BitPath::ExternBmi, SliderKind::Magic),
    (BitPath::ExternBmi, SliderKind::Pext),
];

/// The built perft pair to run for a requested one, and a message when it
/// differs: the backend stays (every backend is built with `bmi` and with
/// `portable`), the bit path becomes `bmi` when the CPU has it, else `portable`.
pub fn resolve_perft(
    bits: BitPath,
    slider: SliderKind,
    cpu: &Cpu,
) -> (BitPath, SliderKind, Option<String>) {
    if PERFT_BUILT.contains(&(bits, slider)) {
        return (bits, slider, None);
    }
    let b = if BitPath::Bmi.available(cpu) {
        BitPath::Bmi
    } else {
        BitPath::Portable
    };
    let note = format!(
        "perft is not built for bits={bits} with slider={slider}; running bits={b} slider={slider}"
    );
    (b, slider, Some(note))
}

/// Run `$body` with the type aliases `$B` and `$S` bound to a pair of
/// [`PERFT_BUILT`]; a pair outside it runs `portable` with `magic` (call
/// [`resolve_perft`] first).
#[macro_export]
macro_rules! with_perft_pair {
    ($bits:expr, $slider:expr, $B:ident, $S:ident => $body:expr) => {
        $crate::__with_pairs!(($bits, $slider), $B, $S => $body;
            Bmi Magic, Bmi Pext, Bmi Rotated, Bmi Kindergarten, Bmi RayLoop, Bmi KoggeStone,
            Portable Magic, Portable Pext, Portable Rotated, Portable Kindergarten,
            Portable RayLoop, Portable KoggeStone,
            Asm Magic, Asm Pext, Table Magic, Table Pext, Extern Magic, Extern Pext,
            ExternBmi Magic, ExternBmi Pext)
    };
}

/// [`with_perft_pair!`](crate::with_perft_pair) for the quad-bitboard board:
/// the pairs of [`PERFT_BUILT`] whose backend it is built for
/// ([`crate::qbb::Lookup`]), `$other` for a backend it is not.
#[macro_export]
macro_rules! with_qbb_pair {
    ($bits:expr, $slider:expr, $B:ident, $S:ident => $body:expr, $k:pat => $other:expr) => {
        match $slider {
            $crate::attacks::SliderKind::Rotated | $crate::attacks::SliderKind::RayLoop => {
                let $k = $slider;
                $other
            }
            _ => $crate::__with_pairs!(($bits, $slider), $B, $S => $body;
                Bmi Magic, Bmi Pext, Bmi Kindergarten, Bmi KoggeStone,
                Portable Magic, Portable Pext, Portable Kindergarten, Portable KoggeStone,
                Asm Magic, Asm Pext, Table Magic, Table Pext, Extern Magic, Extern Pext,
                ExternBmi Magic, ExternBmi Pext),
        }
    };
}

/// The match behind the pair macros: one arm per listed (bit path, backend),
/// named alike in `BitPath`/`SliderKind` and as types; anything else runs
/// `portable` with `magic`.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_pairs {
    ($pair:expr, $B:ident, $S:ident => $body:expr; $($bp:ident $sk:ident),* $(,)?) => {
        match $pair {
            $(($crate::bits::BitPath::$bp, $crate::attacks::SliderKind::$sk) => {
                type $B = $crate::bits::$bp;
                type $S = $crate::attacks::$sk;
                $body
            })*
            _ => {
                type $B = $crate::bits::Portable;
                type $S = $crate::attacks::Magic;
                $body
            }
        }
    };
}

/// Run `$body` with the type alias `$E` bound to the [`Engine`] of a built pair.
///
/// `$bits` and `$slider` must name a built pair (see [`resolve`]); anything else
/// runs `portable` with `magic`, which every CPU can run.
#[macro_export]
macro_rules! with_engine {
    ($bits:expr, $slider:expr, $E:ident => $body:expr) => {
        $crate::with_search_pair!($bits, $slider, __B, __S => {
            type $E = $crate::paths::Pair<__B, __S>;
            $body
        })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_pair_resolves_to_itself() {
        let cpu = Cpu::detect();
        for (b, s) in BUILT {
            assert_eq!(resolve(b, s, &cpu), (b, s, None));
        }
    }

    #[test]
    fn every_resolved_pair_is_built() {
        let cpu = Cpu::detect();
        for b in BitPath::ALL {
            for s in SliderKind::ALL {
                let (rb, rs, _) = resolve(b, s, &cpu);
                assert!(is_built(rb, rs), "{b} {s} resolved to {rb} {rs}");
            }
        }
    }

    #[test]
    fn the_perft_macros_run_the_pair_they_are_given() {
        use crate::attacks::Slider;
        for (b, s) in PERFT_BUILT {
            let ran = crate::with_perft_pair!(b, s, B, S => (B::PATH, S::KIND));
            assert_eq!(ran, (b, s));
            let ran = crate::with_qbb_pair!(b, s, B, S => Some((B::PATH, S::KIND)), _k => None);
            assert_eq!(ran, crate::qbb::supports(s).then_some((b, s)));
        }
    }

    #[test]
    fn the_search_pair_macro_runs_the_pair_it_is_given() {
        use crate::attacks::Slider;
        for (b, s) in BUILT {
            let ran = crate::with_search_pair!(b, s, B, S => (B::PATH, S::KIND));
            assert_eq!(ran, (b, s));
        }
    }

    #[test]
    fn every_perft_request_resolves_to_a_built_pair_with_its_backend() {
        let cpu = Cpu::detect();
        for b in BitPath::ALL {
            for s in SliderKind::ALL {
                let (rb, rs, note) = resolve_perft(b, s, &cpu);
                assert!(
                    PERFT_BUILT.contains(&(rb, rs)),
                    "{b} {s} resolved to {rb} {rs}"
                );
                assert_eq!(rs, s);
                assert_eq!(note.is_some(), (rb, rs) != (b, s));
            }
        }
    }

    #[test]
    fn an_unbuilt_pair_falls_back_with_a_message() {
        let cpu = Cpu::detect();
        let (b, s, note) = resolve(BitPath::Table, SliderKind::Rotated, &cpu);
        assert!(is_built(b, s));
        assert!(note.unwrap().contains("not built"));
    }
}
