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
//! # Two paths
//!
//! - **Scalar**: the four directions of a rook (or bishop) one after the other in
//!   `u64`s. Runs on every CPU.
//! - **AVX2**: the four directions in the four 64-bit lanes of one `__m256i`.
//!   Each lane has its own shift count (`vpsllvq`/`vpsrlvq`); a lane that must not
//!   shift one way is given the count 64, which those instructions turn into zero,
//!   so `sllv(x, left) | srlv(x, right)` shifts two lanes left and two right. The
//!   four lanes are ORed together at the end.
//!
//! # Picking the path, and safety
//!
//! There is one type, [`KoggeStone`], whose board state [`KoggeStoneState`]
//! records which path to run. It is built by [`Slider::state_from`], which asks
//! `cpufeatures` whether the CPU has AVX2, and by [`KoggeStoneState::scalar`]
//! (always safe: the scalar path runs anywhere). Its one field is private, so a
//! state that says "AVX2" exists only on a CPU that has it, and the board's hot
//! path ([`Slider::rook`] with the state) runs the AVX2 code behind a plain
//! `bool` test of the state, without asking the CPU again. One type rather than
//! two (scalar and AVX2) keeps the instantiation count of every generic user of
//! [`Slider`] at one, and the branch on a flag that never changes during a run is
//! predicted perfectly. The state-free methods ([`Slider::rook_any`]) check the
//! cached `cpufeatures` flag on every call, as [`Pext`](super::Pext) does.
//! [`KoggeStoneScalar`] is the scalar path alone, so that the tests can run it
//! through the board's perft on a CPU with AVX2; it is not a backend of its own.
//!
//! The AVX2 functions carry `#[target_feature(enable = "avx2")]`, so they are
//! not inlined into their callers: each rook or bishop query is one call.

use super::{Slider, SliderKind};

/// Kogge-Stone parallel-prefix fills, scalar or AVX2 (picked at run time).
#[derive(Clone, Copy, Debug, Default)]
pub struct KoggeStone;

/// The board state of [`KoggeStone`]: which path to run. A state that selects
/// AVX2 is proof that the CPU has it (only [`Slider::state_from`] makes one,
/// after asking the CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoggeStoneState {
    avx2: bool,
}

impl KoggeStoneState {
    /// A state that runs the scalar fills, on any CPU.
    pub const fn scalar() -> KoggeStoneState {
        KoggeStoneState { avx2: false }
    }

    /// A state that runs the AVX2 fills, if this CPU has AVX2.
    pub fn avx2() -> Option<KoggeStoneState> {
        cpu_has_avx2().then_some(KoggeStoneState { avx2: true })
    }

    /// The best state for this CPU: AVX2 where it exists, scalar otherwise.
    pub fn detect() -> KoggeStoneState {
        KoggeStoneState::avx2().unwrap_or(KoggeStoneState::scalar())
    }

    /// Whether this state runs the AVX2 fills.
    pub const fn is_avx2(self) -> bool {
        self.avx2
    }
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(has_avx2, "avx2");

/// Whether the CPU has AVX2 (cached by `cpufeatures` after the first call).
#[inline(always)]
fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx2::get()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
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

/// Attacks of the slider `gen` along a direction that raises the square index
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

/// Rook attacks from `sq` (taken modulo 64), the scalar fills.
#[inline(always)]
const fn rook_scalar(sq: usize, occ: u64) -> u64 {
    let b = 1u64 << (sq & 63);
    fill_up(b, occ, 8, ALL)
        | fill_down(b, occ, 8, ALL)
        | fill_up(b, occ, 1, NOT_A)
        | fill_down(b, occ, 1, NOT_H)
}

/// Bishop attacks from `sq` (taken modulo 64), the scalar fills.
#[inline(always)]
const fn bishop_scalar(sq: usize, occ: u64) -> u64 {
    let b = 1u64 << (sq & 63);
    fill_up(b, occ, 9, NOT_A)
        | fill_up(b, occ, 7, NOT_H)
        | fill_down(b, occ, 9, NOT_H)
        | fill_down(b, occ, 7, NOT_A)
}

// ---------------------------------------------------------------------------
// AVX2

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{ALL, NOT_A, NOT_H};
    use core::arch::x86_64::*;

    /// One direction per lane: its step, whether it goes up (left shift), and
    /// its landing squares.
    pub(super) struct Dirs {
        /// Left-shift counts of one step (64 in the lanes that shift right).
        left: [u64; 4],
        /// Right-shift counts of one step (64 in the lanes that shift left).
        right: [u64; 4],
        /// Landing squares per lane.
        wrap: [u64; 4],
    }

    /// N, E (up) and S, W (down).
    pub(super) const ROOK: Dirs = Dirs {
        left: [8, 1, 64, 64],
        right: [64, 64, 8, 1],
        wrap: [ALL, NOT_A, ALL, NOT_H],
    };

    /// NE, NW (up) and SW, SE (down).
    pub(super) const BISHOP: Dirs = Dirs {
        left: [9, 7, 64, 64],
        right: [64, 64, 9, 7],
        wrap: [NOT_A, NOT_H, NOT_H, NOT_A],
    };

    /// A vector of four `u64`s, lane 0 first.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn v(x: [u64; 4]) -> __m256i {
        _mm256_setr_epi64x(x[0] as i64, x[1] as i64, x[2] as i64, x[3] as i64)
    }

    /// Every lane of `x` shifted left by its count in `l` and right by its
    /// count in `r` (one of which is 64, giving zero).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn shift(x: __m256i, l: __m256i, r: __m256i) -> __m256i {
        _mm256_or_si256(_mm256_sllv_epi64(x, l), _mm256_srlv_epi64(x, r))
    }

    /// Counts doubled, keeping 64 (meaning "no shift this way") at 64.
    const fn double(c: [u64; 4]) -> [u64; 4] {
        let mut out = [0; 4];
        let mut i = 0;
        while i < 4 {
            out[i] = if c[i] >= 64 { 64 } else { c[i] * 2 };
            i += 1;
        }
        out
    }

    /// The four directions of `dirs` filled from `sq` at once; the attacks are
    /// the OR of the lanes.
    ///
    /// Callers outside AVX2 code must make sure the CPU has AVX2 (the compiler
    /// asks for an `unsafe` block there).
    #[target_feature(enable = "avx2")]
    pub(super) fn attacks<const ROOK_DIRS: bool>(sq: usize, occ: u64) -> u64 {
        let d = if ROOK_DIRS { &ROOK } else { &BISHOP };
        let (l1, r1) = (d.left, d.right);
        let (l2, r2) = (double(l1), double(r1));
        let (l4, r4) = (double(l2), double(r2));
        let (l1, r1, l2, r2, l4, r4) = (v(l1), v(r1), v(l2), v(r2), v(l4), v(r4));
        let wrap = v(d.wrap);
        // Every intrinsic below is register-only AVX2 (or AVX or SSE2, which
        // AVX2 implies), safe to call here because this function enables AVX2.
        let mut g = _mm256_set1_epi64x((1u64 << (sq & 63)) as i64);
        let mut p = _mm256_andnot_si256(_mm256_set1_epi64x(occ as i64), wrap);
        g = _mm256_or_si256(g, _mm256_and_si256(p, shift(g, l1, r1)));
        p = _mm256_and_si256(p, shift(p, l1, r1));
        g = _mm256_or_si256(g, _mm256_and_si256(p, shift(g, l2, r2)));
        p = _mm256_and_si256(p, shift(p, l2, r2));
        g = _mm256_or_si256(g, _mm256_and_si256(p, shift(g, l4, r4)));
        let a = _mm256_and_si256(shift(g, l1, r1), wrap);
        let x = _mm_or_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256::<1>(a));
        let y = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(y) as u64
    }
}

/// Rook attacks, AVX2 fills.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn rook_avx2(sq: usize, occ: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: the caller vouches for AVX2.
        unsafe { avx2::attacks::<true>(sq, occ) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // Never selected off x86-64 (no state says AVX2 there).
        rook_scalar(sq, occ)
    }
}

/// Bishop attacks, AVX2 fills.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn bishop_avx2(sq: usize, occ: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: the caller vouches for AVX2.
        unsafe { avx2::attacks::<false>(sq, occ) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        bishop_scalar(sq, occ)
    }
}

impl KoggeStoneState {
    /// Rook attacks from `sq` (taken modulo 64) on this state's path.
    #[inline(always)]
    pub fn rook(self, sq: usize, occ: u64) -> u64 {
        if self.avx2 {
            // SAFETY: a state with `avx2` set is made only after the CPU said it
            // has AVX2 (`KoggeStoneState::avx2`); the field is private.
            unsafe { rook_avx2(sq, occ) }
        } else {
            rook_scalar(sq, occ)
        }
    }

    /// Bishop attacks from `sq` (taken modulo 64) on this state's path.
    #[inline(always)]
    pub fn bishop(self, sq: usize, occ: u64) -> u64 {
        if self.avx2 {
            // SAFETY: as in `rook`.
            unsafe { bishop_avx2(sq, occ) }
        } else {
            bishop_scalar(sq, occ)
        }
    }
}

impl Slider for KoggeStone {
    const KIND: SliderKind = SliderKind::KoggeStone;
    type State = KoggeStoneState;

    /// AVX2 where the CPU has it, the scalar fills otherwise; never panics.
    fn state_from(_: u64) -> KoggeStoneState {
        KoggeStoneState::detect()
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

    /// Checks the (cached) CPU flag on every call.
    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        KoggeStoneState::detect().rook(sq, occ)
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        KoggeStoneState::detect().bishop(sq, occ)
    }
}

/// The scalar fills alone, whatever the CPU: [`KoggeStone`] with its AVX2 path
/// switched off, so that tests can run the scalar path through the whole board
/// (perft) on a CPU that has AVX2. It is not a backend of its own: its
/// [`Slider::KIND`] is [`SliderKind::KoggeStone`], and the command line does not
/// name it.
#[derive(Clone, Copy, Debug, Default)]
pub struct KoggeStoneScalar;

impl Slider for KoggeStoneScalar {
    const KIND: SliderKind = SliderKind::KoggeStone;
    type State = ();

    #[inline(always)]
    fn state_from(_: u64) {}

    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        rook_scalar(sq, occ)
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        bishop_scalar(sq, occ)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_matches_magic_on_sparse_and_dense_boards() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(29);
            for occ in [0, x, x & y, x | y, !0] {
                for sq in 0..64 {
                    assert_eq!(
                        rook_scalar(sq, occ),
                        super::super::magic::rook_attacks(sq, occ)
                    );
                    assert_eq!(
                        bishop_scalar(sq, occ),
                        super::super::magic::bishop_attacks(sq, occ)
                    );
                    if let Some(s) = KoggeStoneState::avx2() {
                        assert_eq!(s.rook(sq, occ), rook_scalar(sq, occ));
                        assert_eq!(s.bishop(sq, occ), bishop_scalar(sq, occ));
                    }
                }
            }
        }
    }
}
