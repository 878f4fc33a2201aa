//! Which (bit path, slider backend, vector path) triples the search is built for,
//! and the one type that carries them through the search.
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
//! The network's vector path is the bundle's third member ([`Engine::Vector`]): the
//! two pairs a modern x86-64 picks by default (`bmi` with `magic` or `pext`) are
//! built with every vector path, so a player gets the fastest and `bench --simd`
//! compares them; the other eight pairs with the [`Baseline`] path only (SSE2 on
//! x86-64), which keeps the build at 16 instantiations instead of 40.
//! [`resolve_vector`] says when a request falls back.
//!
//! The search is generic over one type parameter `E: Engine` rather than two, so
//! signatures stay short (`search::<E>` instead of `search::<B, S>`); the board itself
//! stays `Board<S>`, since it only needs the backend.

use crate::attacks::{Slider, SliderKind};
use crate::bits::{BitPath, Bits, Cpu};
use crate::nnue::vector::{Vector, VectorPath};
use std::fmt;
use std::marker::PhantomData;

/// A bit path, a slider backend and the network's vector path, bundled for the
/// search.
pub trait Engine: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// Bitscan and popcount.
    type Bits: Bits;
    /// Slider attacks (and the state the board keeps for them).
    type Slider: Slider;
    /// The network's vector operations.
    type Vector: Vector;
}

/// The [`Engine`] made of bit path `B`, backend `S` and vector path `V` (the
/// baseline path unless named): the three paths `brokkr paths` measures, bundled
/// as one type for the search.
pub struct Paths<B: Bits, S: Slider, V: Vector = Baseline>(PhantomData<(B, S, V)>);

// By hand, not derived: a derive would ask the type parameters for the traits
// too, and a vector path's token has no `Default` (only `detect` makes one).
impl<B: Bits, S: Slider, V: Vector> Clone for Paths<B, S, V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B: Bits, S: Slider, V: Vector> Copy for Paths<B, S, V> {}
impl<B: Bits, S: Slider, V: Vector> Default for Paths<B, S, V> {
    fn default() -> Self {
        Paths(PhantomData)
    }
}
impl<B: Bits, S: Slider, V: Vector> fmt::Debug for Paths<B, S, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Paths<{}, {}>", std::any::type_name::<B>(), V::PATH)
    }
}

impl<B: Bits, S: Slider, V: Vector> Engine for Paths<B, S, V> {
    type Bits = B;
    type Slider = S;
    type Vector = V;
}

/// The vector path every CPU of the target has: SSE2 on x86-64, plain Rust
/// elsewhere.
#[cfg(target_arch = "x86_64")]
pub type Baseline = crate::nnue::vector::Sse2;
/// The vector path every CPU of the target has: SSE2 on x86-64, plain Rust
/// elsewhere.
#[cfg(not(target_arch = "x86_64"))]
pub type Baseline = crate::nnue::vector::Portable;

/// The vector path of [`Baseline`].
pub const BASELINE: VectorPath = <Baseline as Vector>::PATH;

/// The bit-path and backend pairs built with every vector path (the others run
/// [`Baseline`]): the two a modern x86-64 picks by default, so the network's
/// paths can be compared under the whole engine and a player gets the fastest.
pub const ALL_VECTORS: [(BitPath, SliderKind); 2] = [
    (BitPath::Bmi, SliderKind::Magic),
    (BitPath::Bmi, SliderKind::Pext),
];

/// The vector path that runs with `bits` and `slider` for a requested one, and
/// a message when it differs (the CPU lacks it, or the pair is built with the
/// baseline path only).
pub fn resolve_vector(
    bits: BitPath,
    slider: SliderKind,
    vector: VectorPath,
) -> (VectorPath, Option<String>) {
    if !vector.available() {
        let v = if ALL_VECTORS.contains(&(bits, slider)) {
            VectorPath::best()
        } else {
            BASELINE
        };
        return (
            v,
            Some(format!(
                "this CPU cannot run the {vector} vector path; running {v}"
            )),
        );
    }
    if vector != BASELINE && !ALL_VECTORS.contains(&(bits, slider)) {
        let note = format!(
            "bits={bits} slider={slider} is built with the {BASELINE} vector path only; running it"
        );
        return (BASELINE, Some(note));
    }
    (vector, None)
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

/// Run `$body` with the type alias `$E` bound to the [`Engine`] of a built pair
/// and vector path.
///
/// `$bits` and `$slider` must name a built pair (see [`resolve`]) and `$vector` a
/// path that [`resolve_vector`] returned for it; anything else runs `portable`
/// with `magic` and the baseline vector path, which every CPU can run.
#[macro_export]
macro_rules! with_engine {
    ($bits:expr, $slider:expr, $vector:expr, $E:ident => $body:expr) => {{
        use $crate::attacks::SliderKind as __K;
        use $crate::bits::BitPath as __P;
        #[allow(unused_imports)]
        use $crate::nnue::vector::VectorPath as __V;
        match ($bits, $slider) {
            (__P::Bmi, __K::Magic) => $crate::with_vector!($vector, __Vec => {
                type $E = $crate::engine::Paths<$crate::bits::Bmi, $crate::attacks::Magic, __Vec>;
                $body
            }),
            (__P::Bmi, __K::Pext) => $crate::with_vector!($vector, __Vec => {
                type $E = $crate::engine::Paths<$crate::bits::Bmi, $crate::attacks::Pext, __Vec>;
                $body
            }),
            (__P::Bmi, __K::Rotated) => {
                type $E = $crate::engine::Paths<$crate::bits::Bmi, $crate::attacks::Rotated>;
                $body
            }
            (__P::Bmi, __K::Kindergarten) => {
                type $E = $crate::engine::Paths<$crate::bits::Bmi, $crate::attacks::Kindergarten>;
                $body
            }
            (__P::Bmi, __K::RayLoop) => {
                type $E = $crate::engine::Paths<$crate::bits::Bmi, $crate::attacks::RayLoop>;
                $body
            }
            (__P::Asm, __K::Magic) => {
                type $E = $crate::engine::Paths<$crate::bits::Asm, $crate::attacks::Magic>;
                $body
            }
            (__P::Table, __K::Magic) => {
                type $E = $crate::engine::Paths<$crate::bits::Table, $crate::attacks::Magic>;
                $body
            }
            (__P::Extern, __K::Magic) => {
                type $E = $crate::engine::Paths<$crate::bits::Extern, $crate::attacks::Magic>;
                $body
            }
            (__P::ExternBmi, __K::Magic) => {
                type $E = $crate::engine::Paths<$crate::bits::ExternBmi, $crate::attacks::Magic>;
                $body
            }
            _ => {
                type $E = $crate::engine::Paths<$crate::bits::Portable, $crate::attacks::Magic>;
                $body
            }
        }
    }};
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
