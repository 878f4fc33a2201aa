//! Slider-attack backends.
//!
//! May not touch: the board, the evaluation, the search and above (the layers: docs/architecture.md).
//!
//! Every backend answers "which squares does a rook (bishop) on `sq` attack" and is
//! a zero-sized type implementing [`Slider`]. A backend that needs incremental state
//! (Gk's rotated line occupancies) declares it as [`Slider::State`]; the board keeps
//! that state and tells the backend about every square that changes occupancy.
//! Backends without state use `()`, which costs nothing.
//!
//! | backend | origin | technique |
//! |---|---|---|
//! | [`Rotated`] | Gk | `[64][256]` tables indexed by line bytes kept in make |
//! | [`Kindergarten`] | OliThink 5 | multiply keys into one 64K table, with x-rays |
//! | [`RayLoop`] | Thor's Hammer | ray walking, captures found with reverse bitboards |
//! | [`Magic`] | modern engines | fancy magic bitboards |
//! | [`Pext`] | modern engines | BMI2 `pext` indexing |
//! | [`KoggeStone`] | public algorithm | Kogge-Stone occluded fills, no tables; a queen's eight directions in one AVX-512 register, a rook's or bishop's four in one AVX2 register, or scalar, by what the CPU has; every slider of a side in one set-wise pass |
//!
//! # Safety of the public API
//!
//! Every method here is safe to call with any arguments: squares are taken modulo
//! 64 (`sq & 63` costs nothing where the index feeds a table), so
//! `Magic::rook_any(64, 0)` is `Magic::rook_any(0, 0)`, never an out-of-bounds
//! read. The backends that may run instructions the CPU lacks check first. [`Pext`]
//! checks the CPU once when its board state is built ([`Slider::state_from`], which
//! every [`Board`](crate::board::Board) constructor calls, and which panics with a
//! clear message on a CPU without BMI2): its state type is the witness, so the
//! board's hot path, which always passes the state, runs `pext` unchecked. Its
//! state-free methods ([`Slider::rook_any`]) check a cached CPU flag on every call
//! and fall back to magic lookups without BMI2; the board never calls those.
//! [`KoggeStone`] works the same way with AVX2 and AVX-512, except that it never
//! panics: its state records the widest path the CPU has, down to the scalar
//! fills.
//!
//! Besides attack sets, a backend may answer two more questions its own way: x-rays
//! ([`Slider::rook_xray`]; one table probe with OliThink's keys) and the emission of
//! a slider's moves ([`Slider::rook_moves`]; a ray walk in Thor's Hammer's way). The
//! defaults build both from attack sets.

mod kindergarten;
mod kogge;
mod magic;
mod pext;
mod rayloop;
mod rotated;

pub use kindergarten::Kindergarten;
pub use kogge::{FillPath, KoggeStone, KoggeStoneOn, KoggeStoneScalar, KoggeStoneState, AUTO};
pub use magic::Magic;
pub use pext::{Pext, PextState};
pub use rayloop::RayLoop;
pub use rotated::{LineOccupancy, Rotated};

use crate::bits::{Bits, Cpu};
use crate::moves::Sink;
use std::fmt;
use std::str::FromStr;

/// A slider-attack backend.
pub trait Slider: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// The backend this type implements.
    const KIND: SliderKind;

    /// Incremental state kept by the board, if the backend needs any. It is built
    /// only by [`Slider::state_from`], so it may witness a check made there.
    type State: Copy + fmt::Debug + PartialEq + Eq + Send + Sync;

    /// The state for a board whose occupancy is `occ`.
    ///
    /// # Panics
    /// If the CPU cannot run the backend ([`SliderKind::available`]).
    fn state_from(occ: u64) -> Self::State;

    /// Square `sq` changed from empty to occupied or back.
    #[inline(always)]
    fn toggle(state: &mut Self::State, sq: usize) {
        let _ = (state, sq);
    }

    /// Rook attacks from `sq` (< 64) when the board's occupancy is `occ`, which is
    /// the occupancy `state` describes. Stateless backends need not override it.
    #[inline(always)]
    fn rook(state: &Self::State, sq: usize, occ: u64) -> u64 {
        let _ = state;
        Self::rook_any(sq, occ)
    }

    /// Bishop attacks from `sq` (< 64) when the board's occupancy is `occ`.
    #[inline(always)]
    fn bishop(state: &Self::State, sq: usize, occ: u64) -> u64 {
        let _ = state;
        Self::bishop_any(sq, occ)
    }

    /// Rook attacks from `sq` (taken modulo 64) for any occupancy.
    fn rook_any(sq: usize, occ: u64) -> u64;

    /// Bishop attacks from `sq` (taken modulo 64) for any occupancy.
    fn bishop_any(sq: usize, occ: u64) -> u64;

    /// Rook attacks from `sq` for any occupancy `occ`, given a board's state
    /// (which need not describe `occ`: it only vouches for the CPU).
    #[inline(always)]
    fn rook_with(state: &Self::State, sq: usize, occ: u64) -> u64 {
        let _ = state;
        Self::rook_any(sq, occ)
    }

    /// Bishop attacks from `sq` for any occupancy `occ`, given a board's state.
    #[inline(always)]
    fn bishop_with(state: &Self::State, sq: usize, occ: u64) -> u64 {
        let _ = state;
        Self::bishop_any(sq, occ)
    }

    /// Whether [`Slider::slider_attacks`] answers for every slider at once, in
    /// about the time of one query (Kogge-Stone's set-wise fills), so that the
    /// board's generator should ask it for the enemy's slider attacks around its
    /// king instead of testing each square the king may step to.
    const SETWISE: bool = false;

    /// Squares attacked by the rook-like sliders `straight` and the bishop-like
    /// sliders `diagonal` together (a queen in both sets) when the occupancy is
    /// `occ`, given a board's state (which need not describe `occ`).
    ///
    /// The default asks once per slider; a [`Slider::SETWISE`] backend overrides it.
    #[inline(always)]
    fn slider_attacks<B: Bits>(state: &Self::State, straight: u64, diagonal: u64, occ: u64) -> u64 {
        let mut attacks = 0;
        let mut s = straight;
        while s != 0 {
            attacks |= Self::rook_with(state, B::pop_lsb(&mut s) as usize, occ);
        }
        let mut d = diagonal;
        while d != 0 {
            attacks |= Self::bishop_with(state, B::pop_lsb(&mut d) as usize, occ);
        }
        attacks
    }

    /// Whether x-rays are cheap enough that the board should find pins with them
    /// (one x-ray of the king) instead of testing every aligned enemy slider.
    const XRAY_PINS: bool = false;

    /// X-ray of a rook on `sq` (< 64): `rook_xray(sq, occ) & occ` is the set of
    /// second pieces met along the four lines, the ones right behind the first
    /// blocker of each direction. The result may also hold squares that are not
    /// in `occ`; intersect it with the pieces you look for.
    ///
    /// The default takes the attacks again with the first blockers removed.
    #[inline(always)]
    fn rook_xray(sq: usize, occ: u64) -> u64 {
        let a = Self::rook_any(sq, occ);
        Self::rook_any(sq, occ & !a) & !a
    }

    /// X-ray of a bishop on `sq` (< 64), as [`Slider::rook_xray`].
    #[inline(always)]
    fn bishop_xray(sq: usize, occ: u64) -> u64 {
        let a = Self::bishop_any(sq, occ);
        Self::bishop_any(sq, occ & !a) & !a
    }

    /// Emit the moves of a rook-like slider on `sq` to the squares of `targets`
    /// it attacks, given the board's own state, the mover's pieces `own` and the
    /// enemy's `enemy`. `targets` already holds every restriction (stage, check
    /// mask, pin line) and never holds an own piece.
    ///
    /// The default passes the attack set, masked, to the sink in one call.
    #[inline(always)]
    fn rook_moves<K: Sink>(
        state: &Self::State,
        sq: usize,
        own: u64,
        enemy: u64,
        targets: u64,
        sink: &mut K,
    ) {
        sink.piece_moves(sq, Self::rook(state, sq, own | enemy) & targets);
    }

    /// Emit the moves of a bishop-like slider, as [`Slider::rook_moves`].
    #[inline(always)]
    fn bishop_moves<K: Sink>(
        state: &Self::State,
        sq: usize,
        own: u64,
        enemy: u64,
        targets: u64,
        sink: &mut K,
    ) {
        sink.piece_moves(sq, Self::bishop(state, sq, own | enemy) & targets);
    }
}

/// The slider backends brokkr carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SliderKind {
    /// Fancy magic bitboards.
    Magic,
    /// BMI2 `pext` indexing.
    Pext,
    /// Gk's rotated bitboards (line bytes kept in make).
    Rotated,
    /// OliThink 5's kindergarten multiply keys, with x-rays.
    Kindergarten,
    /// Thor's Hammer's ray walking with reverse bitboards.
    RayLoop,
    /// Kogge-Stone occluded fills (AVX2 or scalar, picked at run time).
    KoggeStone,
}

impl SliderKind {
    /// Every backend, in display order.
    pub const ALL: [SliderKind; 6] = [
        SliderKind::Magic,
        SliderKind::Pext,
        SliderKind::Rotated,
        SliderKind::Kindergarten,
        SliderKind::RayLoop,
        SliderKind::KoggeStone,
    ];

    /// The name used on the command line and in engine options.
    pub const fn name(self) -> &'static str {
        match self {
            SliderKind::Magic => "magic",
            SliderKind::Pext => "pext",
            SliderKind::Rotated => "rotated",
            SliderKind::Kindergarten => "kindergarten",
            SliderKind::RayLoop => "rayloop",
            SliderKind::KoggeStone => "kogge-stone",
        }
    }

    /// Whether this CPU can run the backend.
    pub fn available(self, cpu: &Cpu) -> bool {
        match self {
            SliderKind::Pext => cfg!(target_arch = "x86_64") && cpu.bmi2,
            _ => true,
        }
    }

    /// The backend brokkr uses on `cpu` when nothing overrides it, and why.
    pub fn default_for(cpu: &Cpu) -> (SliderKind, &'static str) {
        if SliderKind::Pext.available(cpu) && cpu.fast_pext() {
            (
                SliderKind::Pext,
                "the CPU has fast BMI2 pext: one instruction replaces the magic multiply",
            )
        } else if cpu.bmi2 {
            (
                SliderKind::Magic,
                "pext is microcoded (slow) on this CPU: magic multiply",
            )
        } else {
            (SliderKind::Magic, "no BMI2: magic multiply")
        }
    }
}

impl fmt::Display for SliderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SliderKind {
    type Err = String;

    fn from_str(s: &str) -> Result<SliderKind, String> {
        SliderKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = SliderKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown slider backend '{s}' (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Run `$body` with the type alias `$S` bound to the [`Slider`] type of `$kind`.
#[macro_export]
macro_rules! with_slider {
    ($kind:expr, $S:ident => $body:expr) => {
        match $kind {
            $crate::attacks::SliderKind::Magic => {
                type $S = $crate::attacks::Magic;
                $body
            }
            $crate::attacks::SliderKind::Pext => {
                type $S = $crate::attacks::Pext;
                $body
            }
            $crate::attacks::SliderKind::Rotated => {
                type $S = $crate::attacks::Rotated;
                $body
            }
            $crate::attacks::SliderKind::Kindergarten => {
                type $S = $crate::attacks::Kindergarten;
                $body
            }
            $crate::attacks::SliderKind::RayLoop => {
                type $S = $crate::attacks::RayLoop;
                $body
            }
            $crate::attacks::SliderKind::KoggeStone => {
                type $S = $crate::attacks::KoggeStone;
                $body
            }
        }
    };
}
