//! Kogge-Stone occluded fills: sliding attacks computed, not looked up.
//!
//! A slider's attacks in one direction are the squares its bit reaches when it is
//! smeared step by step across empty squares, plus the first blocker. Done one
//! step at a time that is up to seven shifts; a parallel-prefix (Kogge-Stone)
//! fill does it in three rounds of doubling steps. With `g` the generator (the
//! slider's bit) and `p` the propagator (the empty squares the direction may
//! enter):
//!
//! ```text
//! g |= p & (g << s);   p &= p << s;
//! g |= p & (g << 2s);  p &= p << 2s;
//! g |= p & (g << 4s);
//! attacks = (g << s) & wrap
//! ```
//!
//! After round `k`, `g` holds every square up to `2^k` steps away that is reached
//! through empty squares only, and `p` the squares whose whole run of `2^k` steps
//! back is empty; one more step from the filled set adds the blocker. A step that
//! crosses the edge of the board (east from the h-file, say) must not land on the
//! next rank: `wrap` is the set of squares a step in that direction can land on
//! legally (not the a-file for steps east, not the h-file for steps west; every
//! square for north and south), and `p` starts as `!occ & wrap`, so a wrapped bit
//! is never propagated and the last step is masked the same way. Directions that
//! lower the square index shift right instead of left. The masks are `const`;
//! there is no table at all.
//!
//! The generator may hold many bits: the fill from a set of sliders is the union
//! of their fills, at the cost of one. That is the technique's strength, and
//! [`Slider::slider_attacks`] uses it: every enemy slider's attacks in one pass,
//! which the board's generator asks for to find where its king may step.
//!
//! # Three paths
//!
//! - **Scalar**: the directions one after the other in `u64`s. Runs on every CPU.
//! - **AVX2**: four directions in the four 64-bit lanes of one `__m256i`. Each
//!   lane has its own shift count (`vpsllvq`/`vpsrlvq`); a lane that must not
//!   shift one way is given the count 64, which those instructions turn into
//!   zero, so `sllv(x, left) | srlv(x, right)` shifts two lanes left and two
//!   right. The lanes are ORed together at the end. A rook's (or bishop's)
//!   attacks are one pass; every slider of a side, two (rook lines and bishop
//!   lines).
//! - **AVX-512**: the eight directions of a queen in the eight lanes of one
//!   `__m512i`, so every slider of a side is one pass (the rook-like pieces fill
//!   the four straight lanes, the bishop-like ones the four diagonal lanes). A
//!   single rook or bishop runs the four-lane fill compiled for AVX-512 (VL),
//!   which lets the compiler merge each `g | (p & x)` into one `vpternlogq`.
//!
//! # Picking the path, and safety
//!
//! [`KoggeStone`], the backend, keeps the path in its board state
//! [`KoggeStoneState`], which [`Slider::state_from`] makes after asking
//! `cpufeatures` for the best path this CPU runs. The state's one field is
//! private, so a state that names a vector path exists only on a CPU that has
//! its features, and the board's hot path ([`Slider::rook`] with the state) runs
//! that path behind a `match` on a value that never changes during a run (a
//! branch predicted perfectly) without asking the CPU again. One type for the
//! three paths keeps the instantiation count of every generic user of
//! [`Slider`] at one. The state-free methods ([`Slider::rook_any`]) ask the
//! (cached) `cpufeatures` flags on every call, as [`Pext`](super::Pext) does.
//!
//! [`KoggeStoneOn`] forces one path, for `brokkr paths` and the tests, which run
//! every path this CPU has through the whole board (perft):
//! `KoggeStoneOn<{ FillPath::Scalar as u8 }>` ([`KoggeStoneScalar`]) on any CPU;
//! a vector path's `state_from` panics with a message on a CPU without it, as
//! [`Pext`](super::Pext)'s does, and [`FillPath::available`] tells first. Every
//! `KoggeStoneOn` names the one backend `kogge-stone` ([`Slider::KIND`]).
//!
//! The vector functions carry `#[target_feature]`, so they are not inlined into
//! their callers: each query is one call.

use super::{Slider, SliderKind};
use crate::bits::Bits;
use std::fmt;

/// Which instructions run the fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FillPath {
    /// `u64` shifts, one direction at a time: every CPU.
    Scalar = 0,
    /// Four directions per `__m256i` (AVX2).
    Avx2 = 1,
    /// Eight directions per `__m512i` (AVX-512 F and VL, with AVX2).
    Avx512 = 2,
}

impl FillPath {
    /// Every path, slowest first.
    pub const ALL: [FillPath; 3] = [FillPath::Scalar, FillPath::Avx2, FillPath::Avx512];

    /// The path's name (`scalar`, `avx2`, `avx512`).
    pub const fn name(self) -> &'static str {
        match self {
            FillPath::Scalar => "scalar",
            FillPath::Avx2 => "avx2",
            FillPath::Avx512 => "avx512",
        }
    }

    /// Whether this CPU runs the path (the flags are cached by `cpufeatures`).
    #[inline(always)]
    pub fn available(self) -> bool {
        match self {
            FillPath::Scalar => true,
            FillPath::Avx2 => cpu::has_avx2(),
            FillPath::Avx512 => cpu::has_avx512(),
        }
    }

    /// The fastest path this CPU runs: the widest vectors it has.
    #[inline(always)]
    pub fn detect() -> FillPath {
        if cpu::has_avx512() {
            FillPath::Avx512
        } else if cpu::has_avx2() {
            FillPath::Avx2
        } else {
            FillPath::Scalar
        }
    }

    /// The path numbered `n` (`FillPath::X as u8`), if any.
    const fn from_u8(n: u8) -> Option<FillPath> {
        match n {
            0 => Some(FillPath::Scalar),
            1 => Some(FillPath::Avx2),
            2 => Some(FillPath::Avx512),
            _ => None,
        }
    }
}

impl fmt::Display for FillPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The CPU's features, asked through `cpufeatures` (cached after the first call).
mod cpu {
    #[cfg(target_arch = "x86_64")]
    cpufeatures::new!(avx2, "avx2");
    #[cfg(target_arch = "x86_64")]
    cpufeatures::new!(avx512, "avx2", "avx512f", "avx512vl");

    #[inline(always)]
    pub(super) fn has_avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            avx2::get()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    #[inline(always)]
    pub(super) fn has_avx512() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            avx512::get()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }
}

/// The value of `KoggeStoneOn`'s parameter that picks the CPU's best path.
pub const AUTO: u8 = u8::MAX;

/// Kogge-Stone fills on the path `FILL` (`FillPath::X as u8`), or on the CPU's
/// best path when `FILL` is [`AUTO`] (that is [`KoggeStone`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct KoggeStoneOn<const FILL: u8>;

/// Kogge-Stone parallel-prefix fills on the best path this CPU runs (AVX-512,
/// AVX2 or scalar, picked at run time): the `kogge-stone` backend.
pub type KoggeStone = KoggeStoneOn<AUTO>;

/// The scalar fills on any CPU (for the tests and `paths`).
pub type KoggeStoneScalar = KoggeStoneOn<{ FillPath::Scalar as u8 }>;

/// The board state of [`KoggeStoneOn`]: which path to run. A state that names a
/// vector path is proof that the CPU has it (it is made only after asking).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoggeStoneState {
    path: FillPath,
}

impl KoggeStoneState {
    /// A state that runs the scalar fills, on any CPU.
    pub const fn scalar() -> KoggeStoneState {
        KoggeStoneState {
            path: FillPath::Scalar,
        }
    }

    /// A state that runs `path`, if this CPU has it.
    pub fn on(path: FillPath) -> Option<KoggeStoneState> {
        path.available().then_some(KoggeStoneState { path })
    }

    /// A state for the best path this CPU runs.
    pub fn detect() -> KoggeStoneState {
        KoggeStoneState {
            path: FillPath::detect(),
        }
    }

    /// The path this state runs.
    pub const fn path(self) -> FillPath {
        self.path
    }
}

/// Every square but the a-file: where a step east (or north-east, south-east)
/// may land.
const NOT_A: u64 = !0x0101_0101_0101_0101;
/// Every square but the h-file: where a step west may land.
const NOT_H: u64 = !0x8080_8080_8080_8080;
/// Every square: north and south steps cannot wrap.
const ALL: u64 = !0;

// ---------------------------------------------------------------------------
// Scalar

/// Attacks of the sliders `gen` along a direction that raises the square index
/// by `s`, with landing squares `wrap`.
#[inline(always)]
const fn fill_up(gen: u64, occ: u64, s: u32, wrap: u64) -> u64 {
    let mut g = gen;
    let mut p = !occ & wrap;
    g |= p & (g << s);
    p &= p << s;
    g |= p & (g << (2 * s));
    p &= p << (2 * s);
    g |= p & (g << (4 * s));
    (g << s) & wrap
}

/// As [`fill_up`], for a direction that lowers the square index by `s`.
#[inline(always)]
const fn fill_down(gen: u64, occ: u64, s: u32, wrap: u64) -> u64 {
    let mut g = gen;
    let mut p = !occ & wrap;
    g |= p & (g >> s);
    p &= p >> s;
    g |= p & (g >> (2 * s));
    p &= p >> (2 * s);
    g |= p & (g >> (4 * s));
    (g >> s) & wrap
}

/// Squares attacked along ranks and files by the sliders `gen`, scalar fills.
#[inline(always)]
const fn straight_scalar(gen: u64, occ: u64) -> u64 {
    fill_up(gen, occ, 8, ALL)
        | fill_down(gen, occ, 8, ALL)
        | fill_up(gen, occ, 1, NOT_A)
        | fill_down(gen, occ, 1, NOT_H)
}

/// Squares attacked along diagonals by the sliders `gen`, scalar fills.
#[inline(always)]
const fn diagonal_scalar(gen: u64, occ: u64) -> u64 {
    fill_up(gen, occ, 9, NOT_A)
        | fill_up(gen, occ, 7, NOT_H)
        | fill_down(gen, occ, 9, NOT_H)
        | fill_down(gen, occ, 7, NOT_A)
}

/// The bit of square `sq`, taken modulo 64.
#[inline(always)]
const fn bit(sq: usize) -> u64 {
    1u64 << (sq & 63)
}

// ---------------------------------------------------------------------------
// AVX2 and AVX-512

#[cfg(target_arch = "x86_64")]
mod vector {
    use super::{ALL, NOT_A, NOT_H};
    use core::arch::x86_64::*;

    /// Directions, one per lane: the left-shift count of one step (64 in the
    /// lanes that shift right), the right-shift count (64 in the lanes that
    /// shift left), and the landing squares.
    struct Dirs<const N: usize> {
        left: [u64; N],
        right: [u64; N],
        wrap: [u64; N],
    }

    /// N, E (up) and S, W (down).
    const STRAIGHT: Dirs<4> = Dirs {
        left: [8, 1, 64, 64],
        right: [64, 64, 8, 1],
        wrap: [ALL, NOT_A, ALL, NOT_H],
    };

    /// NE, NW (up) and SW, SE (down).
    const DIAGONAL: Dirs<4> = Dirs {
        left: [9, 7, 64, 64],
        right: [64, 64, 9, 7],
        wrap: [NOT_A, NOT_H, NOT_H, NOT_A],
    };

    /// The eight directions of a queen: the straight lanes, then the diagonal ones.
    const QUEEN: Dirs<8> = Dirs {
        left: concat(STRAIGHT.left, DIAGONAL.left),
        right: concat(STRAIGHT.right, DIAGONAL.right),
        wrap: concat(STRAIGHT.wrap, DIAGONAL.wrap),
    };

    const fn concat(a: [u64; 4], b: [u64; 4]) -> [u64; 8] {
        [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]]
    }

    /// Counts multiplied by `k`, keeping 64 (meaning "no shift this way") at 64.
    const fn times<const N: usize>(c: [u64; N], k: u64) -> [u64; N] {
        let mut out = [0; N];
        let mut i = 0;
        while i < N {
            out[i] = if c[i] >= 64 { 64 } else { c[i] * k };
            i += 1;
        }
        out
    }

    /// The four-lane fill from the generator `gen` along the directions of
    /// `$dirs`, inside a function that enables the features it needs: every
    /// intrinsic is register-only AVX2 (or AVX or SSE2, which AVX2 implies).
    macro_rules! fill4 {
        ($dirs:expr, $gen:expr, $occ:expr) => {{
            let d: &Dirs<4> = $dirs;
            let v = |x: [u64; 4]| {
                _mm256_setr_epi64x(x[0] as i64, x[1] as i64, x[2] as i64, x[3] as i64)
            };
            // Every lane shifted left by its count in `l` and right by its count
            // in `r` (one of which is 64, giving zero).
            let shift = |x, l, r| _mm256_or_si256(_mm256_sllv_epi64(x, l), _mm256_srlv_epi64(x, r));
            let (l1, r1) = (v(d.left), v(d.right));
            let (l2, r2) = (v(times(d.left, 2)), v(times(d.right, 2)));
            let (l4, r4) = (v(times(d.left, 4)), v(times(d.right, 4)));
            let wrap = v(d.wrap);
            let mut g = _mm256_set1_epi64x($gen as i64);
            let mut p = _mm256_andnot_si256(_mm256_set1_epi64x($occ as i64), wrap);
            g = _mm256_or_si256(g, _mm256_and_si256(p, shift(g, l1, r1)));
            p = _mm256_and_si256(p, shift(p, l1, r1));
            g = _mm256_or_si256(g, _mm256_and_si256(p, shift(g, l2, r2)));
            p = _mm256_and_si256(p, shift(p, l2, r2));
            g = _mm256_or_si256(g, _mm256_and_si256(p, shift(g, l4, r4)));
            let a = _mm256_and_si256(shift(g, l1, r1), wrap);
            let x = _mm_or_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a));
            let y = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
            _mm_cvtsi128_si64(y) as u64
        }};
    }

    /// Squares attacked by the sliders `gen` along ranks and files
    /// (`STRAIGHT`) or diagonals, one four-lane AVX2 fill.
    ///
    /// Callers outside AVX2 code must make sure the CPU has AVX2 (the compiler
    /// asks for an `unsafe` block there).
    #[target_feature(enable = "avx2")]
    pub(super) fn lines_avx2<const STRAIGHT_DIRS: bool>(gen: u64, occ: u64) -> u64 {
        fill4!(if STRAIGHT_DIRS { &STRAIGHT } else { &DIAGONAL }, gen, occ)
    }

    /// [`lines_avx2`] compiled for AVX-512 (VL): the same instructions on
    /// 256-bit registers, where the compiler may merge `g | (p & x)` into one
    /// `vpternlogq`.
    ///
    /// Callers outside such code must make sure the CPU has AVX2, AVX-512 F and
    /// AVX-512 VL.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn lines_avx512<const STRAIGHT_DIRS: bool>(gen: u64, occ: u64) -> u64 {
        fill4!(if STRAIGHT_DIRS { &STRAIGHT } else { &DIAGONAL }, gen, occ)
    }

    /// Squares attacked by the rook-like sliders `straight` and the bishop-like
    /// sliders `diagonal` together: the eight directions of a queen in the
    /// eight lanes of one AVX-512 fill, the straight generator in lanes 0-3 and
    /// the diagonal one in lanes 4-7.
    ///
    /// Callers outside such code must make sure the CPU has AVX-512 F (and the
    /// features of [`lines_avx512`], which the state that calls this vouches for).
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn queen_lanes_avx512(straight: u64, diagonal: u64, occ: u64) -> u64 {
        // Every intrinsic below is register-only AVX-512 F, safe to call here
        // because this function enables it.
        let v = |x: [u64; 8]| {
            _mm512_setr_epi64(
                x[0] as i64,
                x[1] as i64,
                x[2] as i64,
                x[3] as i64,
                x[4] as i64,
                x[5] as i64,
                x[6] as i64,
                x[7] as i64,
            )
        };
        let shift = |x, l, r| _mm512_or_si512(_mm512_sllv_epi64(x, l), _mm512_srlv_epi64(x, r));
        let d = &QUEEN;
        let (l1, r1) = (v(d.left), v(d.right));
        let (l2, r2) = (v(times(d.left, 2)), v(times(d.right, 2)));
        let (l4, r4) = (v(times(d.left, 4)), v(times(d.right, 4)));
        let wrap = v(d.wrap);
        let (s, t) = (straight as i64, diagonal as i64);
        let mut g = _mm512_setr_epi64(s, s, s, s, t, t, t, t);
        let mut p = _mm512_andnot_si512(_mm512_set1_epi64(occ as i64), wrap);
        g = _mm512_or_si512(g, _mm512_and_si512(p, shift(g, l1, r1)));
        p = _mm512_and_si512(p, shift(p, l1, r1));
        g = _mm512_or_si512(g, _mm512_and_si512(p, shift(g, l2, r2)));
        p = _mm512_and_si512(p, shift(p, l2, r2));
        g = _mm512_or_si512(g, _mm512_and_si512(p, shift(g, l4, r4)));
        let a = _mm512_and_si512(shift(g, l1, r1), wrap);
        _mm512_reduce_or_epi64(a) as u64
    }
}

impl KoggeStoneState {
    /// Squares attacked by the sliders `gen` (one piece's bit, or many) along
    /// ranks and files if `STRAIGHT`, else along diagonals, on this state's path.
    #[inline(always)]
    fn lines<const STRAIGHT: bool>(self, gen: u64, occ: u64) -> u64 {
        match self.path {
            FillPath::Scalar if STRAIGHT => straight_scalar(gen, occ),
            FillPath::Scalar => diagonal_scalar(gen, occ),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a state names AVX2 only after the CPU said it has it
            // (`KoggeStoneState::on`, `detect`); the field is private.
            FillPath::Avx2 => unsafe { vector::lines_avx2::<STRAIGHT>(gen, occ) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for AVX2, AVX-512 F and VL.
            FillPath::Avx512 => unsafe { vector::lines_avx512::<STRAIGHT>(gen, occ) },
            // No state names a vector path off x86-64 (`available` is false).
            #[cfg(not(target_arch = "x86_64"))]
            _ => KoggeStoneState::scalar().lines::<STRAIGHT>(gen, occ),
        }
    }

    /// Squares attacked along ranks and files by the sliders `gen` on this
    /// state's path.
    #[inline(always)]
    pub fn straight(self, gen: u64, occ: u64) -> u64 {
        self.lines::<true>(gen, occ)
    }

    /// Squares attacked along diagonals by the sliders `gen` on this state's path.
    #[inline(always)]
    pub fn diagonal(self, gen: u64, occ: u64) -> u64 {
        self.lines::<false>(gen, occ)
    }

    /// Squares attacked by the rook-like sliders `straight` and the bishop-like
    /// sliders `diagonal` together (a queen in both sets), on this state's path:
    /// eight scalar fills, two AVX2 fills, or one AVX-512 fill.
    #[inline(always)]
    pub fn sliders(self, straight: u64, diagonal: u64, occ: u64) -> u64 {
        match self.path {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `straight`, for AVX-512.
            FillPath::Avx512 => unsafe { vector::queen_lanes_avx512(straight, diagonal, occ) },
            _ => self.straight(straight, occ) | self.diagonal(diagonal, occ),
        }
    }

    /// Rook attacks from `sq` (taken modulo 64) on this state's path.
    #[inline(always)]
    pub fn rook(self, sq: usize, occ: u64) -> u64 {
        self.straight(bit(sq), occ)
    }

    /// Bishop attacks from `sq` (taken modulo 64) on this state's path.
    #[inline(always)]
    pub fn bishop(self, sq: usize, occ: u64) -> u64 {
        self.diagonal(bit(sq), occ)
    }
}

impl<const FILL: u8> KoggeStoneOn<FILL> {
    /// The state this type runs: the CPU's best path for [`AUTO`], else the
    /// path `FILL` names if the CPU has it.
    fn state() -> Option<KoggeStoneState> {
        match FillPath::from_u8(FILL) {
            Some(path) => KoggeStoneState::on(path),
            None => Some(KoggeStoneState::detect()),
        }
    }
}

impl<const FILL: u8> Slider for KoggeStoneOn<FILL> {
    const KIND: SliderKind = SliderKind::KoggeStone;
    type State = KoggeStoneState;
    const SETWISE: bool = true;

    /// The path `FILL` names, or the CPU's best for [`AUTO`].
    ///
    /// # Panics
    /// If `FILL` names a vector path this CPU lacks (ask [`FillPath::available`]
    /// first); [`KoggeStone`] never panics.
    fn state_from(_: u64) -> KoggeStoneState {
        Self::state().unwrap_or_else(|| {
            panic!(
                "kogge-stone: this CPU cannot run the {} fills",
                FillPath::from_u8(FILL).map_or("?", FillPath::name)
            )
        })
    }

    #[inline(always)]
    fn rook(state: &KoggeStoneState, sq: usize, occ: u64) -> u64 {
        state.rook(sq, occ)
    }

    #[inline(always)]
    fn bishop(state: &KoggeStoneState, sq: usize, occ: u64) -> u64 {
        state.bishop(sq, occ)
    }

    #[inline(always)]
    fn rook_with(state: &KoggeStoneState, sq: usize, occ: u64) -> u64 {
        state.rook(sq, occ)
    }

    #[inline(always)]
    fn bishop_with(state: &KoggeStoneState, sq: usize, occ: u64) -> u64 {
        state.bishop(sq, occ)
    }

    /// Asks the (cached) CPU flags on every call; a path the CPU lacks runs the
    /// CPU's best instead.
    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        Self::state()
            .unwrap_or_else(KoggeStoneState::detect)
            .rook(sq, occ)
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        Self::state()
            .unwrap_or_else(KoggeStoneState::detect)
            .bishop(sq, occ)
    }

    /// One set-wise pass for every slider at once.
    #[inline(always)]
    fn slider_attacks<B: Bits>(
        state: &KoggeStoneState,
        straight: u64,
        diagonal: u64,
        occ: u64,
    ) -> u64 {
        state.sliders(straight, diagonal, occ)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path this CPU runs.
    fn states() -> Vec<KoggeStoneState> {
        FillPath::ALL
            .into_iter()
            .filter_map(KoggeStoneState::on)
            .collect()
    }

    /// The next number of a xorshift sequence.
    fn next(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    #[test]
    fn every_path_matches_magic_on_sparse_and_dense_boards() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let x = next(&mut x);
            let y = x.rotate_left(29);
            for occ in [0, x, x & y, x | y, !0] {
                for sq in 0..64 {
                    let rook = super::super::magic::rook_attacks(sq, occ);
                    let bishop = super::super::magic::bishop_attacks(sq, occ);
                    for s in states() {
                        assert_eq!(s.rook(sq, occ), rook, "{s:?}");
                        assert_eq!(s.bishop(sq, occ), bishop, "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn set_wise_fills_are_the_union_of_each_sliders_attacks() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for _ in 0..3000 {
            let x = next(&mut x);
            let occ = x & x.rotate_left(17);
            // Sliders stand on occupied squares, a few of each.
            let straight = occ & x.rotate_left(5) & x.rotate_left(40);
            let diagonal = occ & x.rotate_left(23) & x.rotate_left(51);
            let mut want = 0;
            for sq in 0..64 {
                if straight >> sq & 1 != 0 {
                    want |= super::super::magic::rook_attacks(sq, occ);
                }
                if diagonal >> sq & 1 != 0 {
                    want |= super::super::magic::bishop_attacks(sq, occ);
                }
            }
            for s in states() {
                assert_eq!(s.sliders(straight, diagonal, occ), want, "{s:?}");
            }
        }
    }

    #[test]
    fn the_paths_named_are_the_paths_run() {
        assert_eq!(KoggeStoneScalar::state_from(0).path(), FillPath::Scalar);
        assert_eq!(KoggeStone::state_from(0).path(), FillPath::detect());
        for p in FillPath::ALL {
            assert_eq!(KoggeStoneState::on(p).is_some(), p.available(), "{p}");
        }
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(
                FillPath::Avx2.available(),
                std::is_x86_feature_detected!("avx2")
            );
            assert_eq!(
                FillPath::Avx512.available(),
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512vl")
            );
        }
    }
}
