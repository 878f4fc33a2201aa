//! Which (bit path, slider backend) pairs the search is built for, and the one type
//! that carries a pair through the search.
//!
//! Perft and `paths` are monomorphised for all 30 pairs, because comparing them is
//! their job. The search and evaluation are much larger, so building them for all 30
//! pairs would multiply the build time and the binary. They are built for the ten
//! pairs in [`BUILT`]:
//!
//! - every slider backend with the `bmi` bit path (what a modern x86-64 runs, so the
//!   backends can be compared under the whole engine);
//! - every bit path with the `magic` backend (the portable backend, so the bit paths
//!   can be compared, and so a CPU without BMI1/LZCNT/POPCNT, or without x86-64 at
//!   all, has its own default pair built).
//!
//! A pair outside that set falls back to the nearest built one, and says so:
//! [`resolve`] keeps the slider backend with `bmi` when the CPU has it, else keeps the
//! bit path with `magic`.
//!
//! The search is generic over one type parameter `E: Engine` rather than two, so
//! signatures stay short (`search::<E>` instead of `search::<B, S>`); the board itself
//! stays `Board<S>`, since it only needs the backend.

use crate::attacks::{Slider, SliderKind};
use crate::bits::{BitPath, Bits, Cpu};
use std::fmt;
use std::marker::PhantomData;

/// A bit path and a slider backend, bundled for the search.
pub trait Engine: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// Bitscan and popcount.
    type Bits: Bits;
    /// Slider attacks (and the state the board keeps for them).
    type Slider: Slider;
}

/// The [`Engine`] made of bit path `B` and backend `S`.
#[derive(Clone, Copy, Default, Debug)]
pub struct Pair<B: Bits, S: Slider>(PhantomData<(B, S)>);

impl<B: Bits, S: Slider> Engine for Pair<B, S> {
    type Bits = B;
    type Slider = S;
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
    let (b, s) = if BitPath::Bmi.available(cpu) {
        (BitPath::Bmi, slider)
    } else {
        (bits, SliderKind::Magic)
    };
    let note = format!(
        "the search is not built for bits={bits} with slider={slider}; running bits={b} slider={s}"
    );
    (b, s, Some(note))
}

/// Run `$body` with the type alias `$E` bound to the [`Engine`] of a built pair.
///
/// `$bits` and `$slider` must name a built pair (see [`resolve`]); any other pair
/// runs `portable` with `magic`, which every CPU can run.
#[macro_export]
macro_rules! with_engine {
    ($bits:expr, $slider:expr, $E:ident => $body:expr) => {{
        use $crate::attacks::SliderKind as __K;
        use $crate::bits::BitPath as __P;
        match ($bits, $slider) {
            (__P::Bmi, __K::Magic) => {
                type $E = $crate::engine::Pair<$crate::bits::Bmi, $crate::attacks::Magic>;
                $body
            }
            (__P::Bmi, __K::Pext) => {
                type $E = $crate::engine::Pair<$crate::bits::Bmi, $crate::attacks::Pext>;
                $body
            }
            (__P::Bmi, __K::Rotated) => {
                type $E = $crate::engine::Pair<$crate::bits::Bmi, $crate::attacks::Rotated>;
                $body
            }
            (__P::Bmi, __K::Kindergarten) => {
                type $E = $crate::engine::Pair<$crate::bits::Bmi, $crate::attacks::Kindergarten>;
                $body
            }
            (__P::Bmi, __K::RayLoop) => {
                type $E = $crate::engine::Pair<$crate::bits::Bmi, $crate::attacks::RayLoop>;
                $body
            }
            (__P::Asm, __K::Magic) => {
                type $E = $crate::engine::Pair<$crate::bits::Asm, $crate::attacks::Magic>;
                $body
            }
            (__P::Table, __K::Magic) => {
                type $E = $crate::engine::Pair<$crate::bits::Table, $crate::attacks::Magic>;
                $body
            }
            (__P::Extern, __K::Magic) => {
                type $E = $crate::engine::Pair<$crate::bits::Extern, $crate::attacks::Magic>;
                $body
            }
            (__P::ExternBmi, __K::Magic) => {
                type $E = $crate::engine::Pair<$crate::bits::ExternBmi, $crate::attacks::Magic>;
                $body
            }
            _ => {
                type $E = $crate::engine::Pair<$crate::bits::Portable, $crate::attacks::Magic>;
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
    fn an_unbuilt_pair_falls_back_with_a_message() {
        let cpu = Cpu::detect();
        let (b, s, note) = resolve(BitPath::Table, SliderKind::Rotated, &cpu);
        assert!(is_built(b, s));
        assert!(note.unwrap().contains("not built"));
    }
}
