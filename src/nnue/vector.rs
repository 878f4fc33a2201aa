//! The network's vector paths: AVX-512 (BW), AVX2, SSE2 and portable Rust, for the
//! two loops where the network spends its time, the accumulator update and the
//! output layer's squared-clipped-ReLU dot product.
//!
//! A path is a zero-sized token type. Its only constructor, [`Vector::detect`],
//! asks the CPU (through `cpufeatures`, which also checks that the operating
//! system saves the wide registers), so a token for a path exists only on a CPU
//! that can run it: the safe methods below may call the `#[target_feature]`
//! functions because holding `self` proves the feature. The search holds one
//! [`Token`] (the path's token as a value) and matches on it once per
//! evaluation, so every call below it is a direct, inlinable call (never a
//! pointer), and the search itself is built once, not once per path.
//!
//! Integer arithmetic only, with the same wrapping on every path (16-bit lanes
//! wrap in the update, products are truncated to 16 bits as `mullo` does, sums
//! wrap in 32 bits), so every path returns the same number for the same input;
//! `tests/nnue.rs` checks it on every path the CPU has.

use std::fmt;

/// The four paths, by name (UCI `NNUEPath`, `--simd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VectorPath {
    Avx512,
    Avx2,
    Sse2,
    Portable,
}

#[cfg(target_arch = "x86_64")]
mod detect {
    cpufeatures::new!(avx2, "avx2");
    cpufeatures::new!(avx512bw, "avx512f", "avx512bw");
    pub fn has_avx2() -> bool {
        avx2::get()
    }
    pub fn has_avx512bw() -> bool {
        avx512bw::get()
    }
}

impl VectorPath {
    /// Every path, fastest first.
    pub const ALL: [VectorPath; 4] = [
        VectorPath::Avx512,
        VectorPath::Avx2,
        VectorPath::Sse2,
        VectorPath::Portable,
    ];

    /// The name the option and the flag take.
    pub const fn name(self) -> &'static str {
        match self {
            VectorPath::Avx512 => "avx512",
            VectorPath::Avx2 => "avx2",
            VectorPath::Sse2 => "sse2",
            VectorPath::Portable => "portable",
        }
    }

    /// The path named `s`.
    pub fn parse(s: &str) -> Option<VectorPath> {
        VectorPath::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
    }

    /// Whether this CPU can run the path.
    pub fn available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            VectorPath::Avx512 => detect::has_avx512bw(),
            #[cfg(target_arch = "x86_64")]
            VectorPath::Avx2 => detect::has_avx2(),
            // SSE2 is part of x86-64 itself.
            VectorPath::Sse2 => cfg!(target_arch = "x86_64"),
            VectorPath::Portable => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The fastest path this CPU runs.
    pub fn best() -> VectorPath {
        VectorPath::ALL
            .into_iter()
            .find(|p| p.available())
            .unwrap_or(VectorPath::Portable)
    }

    /// The paths this CPU runs, fastest first.
    pub fn runnable() -> Vec<VectorPath> {
        VectorPath::ALL
            .into_iter()
            .filter(|p| p.available())
            .collect()
    }
}

impl fmt::Display for VectorPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A vector path: a token that proves the CPU runs it.
///
/// Every slice passed to one call has the same length, a multiple of 32 (the
/// hidden layer's size); the methods check it once per call and panic otherwise
/// (a bug, not bad input: the net loader refuses other sizes).
pub trait Vector: Copy + Send + Sync + fmt::Debug + 'static {
    /// Which path this is.
    const PATH: VectorPath;

    /// The token, if this CPU runs the path.
    fn detect() -> Option<Self>;

    /// `dst = src + Σ add − Σ sub`, lane by lane, wrapping in 16 bits.
    fn update(self, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]);

    /// `Σ_j (clamp(a_j, 0, 255) × w_j as i16) × clamp(a_j, 0, 255)`, wrapping in
    /// 32 bits: the squared clipped ReLU of the accumulator times the output
    /// weights, scaled by 255 (the first product is truncated to 16 bits, as the
    /// vector multiply does; for weights within ±128 it is exact).
    fn screlu_dot(self, a: &[i16], w: &[i16]) -> i32;
}

/// Panic unless every slice of a call has the length of `dst`, a multiple of 32.
#[inline(always)]
fn check_lengths(n: usize, add: &[&[i16]], sub: &[&[i16]], src: usize) {
    assert!(
        n.is_multiple_of(32) && src == n && add.iter().chain(sub).all(|r| r.len() == n),
        "nnue: rows of unequal length or not a multiple of 32"
    );
}

/// The portable path: plain Rust, which the compiler vectorises for the build's
/// baseline instruction set (SSE2 on x86-64).
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Vector for Portable {
    const PATH: VectorPath = VectorPath::Portable;

    fn detect() -> Option<Self> {
        Some(Portable)
    }

    #[inline]
    fn update(self, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        check_lengths(dst.len(), add, sub, src.len());
        dst.copy_from_slice(src);
        for row in add {
            for (d, r) in dst.iter_mut().zip(row.iter()) {
                *d = d.wrapping_add(*r);
            }
        }
        for row in sub {
            for (d, r) in dst.iter_mut().zip(row.iter()) {
                *d = d.wrapping_sub(*r);
            }
        }
    }

    #[inline]
    fn screlu_dot(self, a: &[i16], w: &[i16]) -> i32 {
        check_lengths(a.len(), &[], &[], w.len());
        let mut sum = 0i32;
        for (&x, &w) in a.iter().zip(w) {
            let c = x.clamp(0, 255);
            let t = c.wrapping_mul(w);
            sum = sum.wrapping_add(t as i32 * c as i32);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2, Avx512, Sse2};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{check_lengths, detect, Vector, VectorPath};
    use core::arch::x86_64::*;

    /// SSE2: eight 16-bit lanes. Every x86-64 CPU has it.
    #[derive(Clone, Copy, Debug)]
    pub struct Sse2(());

    /// AVX2: sixteen 16-bit lanes.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2(());

    /// AVX-512 with the byte-and-word instructions (BW): thirty-two 16-bit lanes.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512(());

    /// One path's loops, written once as a macro over its register type and
    /// intrinsics: the three paths differ only in width and names.
    macro_rules! path {
        ($ty:ident, $path:expr, $feature:literal, $detect:expr, $lanes:expr, $reg:ty,
         load: $load:ident, store: $store:ident, add16: $add16:ident, sub16: $sub16:ident,
         zero: $zero:ident, set1: $set1:ident, max16: $max16:ident, min16: $min16:ident,
         mullo: $mullo:ident, madd: $madd:ident, add32: $add32:ident,
         hsum: $hsum:expr) => {
            impl Vector for $ty {
                const PATH: VectorPath = $path;

                fn detect() -> Option<Self> {
                    $detect.then_some($ty(()))
                }

                #[inline(always)]
                fn update(self, dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
                    check_lengths(dst.len(), add, sub, src.len());
                    // SAFETY: `self` exists only if `detect` found the feature on
                    // this CPU; the lengths were checked equal and a multiple of
                    // the lane count, so every unaligned load and store below is
                    // inside its slice.
                    unsafe {
                        // A move adds one or two rows and removes one or two: with
                        // the counts fixed the row pointers stay in registers and
                        // the loop unrolls (the general loop re-reads the row list
                        // for every chunk).
                        let (n, d, s) = (dst.len(), dst.as_mut_ptr(), src.as_ptr());
                        let p = |r: &&[i16]| r.as_ptr();
                        match (add, sub) {
                            ([a], [b]) => update_fixed(n, d, s, [p(a)], [p(b)]),
                            ([a], [b, c]) => update_fixed(n, d, s, [p(a)], [p(b), p(c)]),
                            ([a, b], [c, e]) => update_fixed(n, d, s, [p(a), p(b)], [p(c), p(e)]),
                            _ => update(dst, src, add, sub),
                        }
                    }
                }

                #[inline(always)]
                fn screlu_dot(self, a: &[i16], w: &[i16]) -> i32 {
                    check_lengths(a.len(), &[], &[], w.len());
                    // SAFETY: as in `update`.
                    unsafe { screlu_dot(a, w) }
                }
            }

            /// Any numbers of rows: a copy, then one row at a time in place (the
            /// sums wrap, so the order changes nothing). Moves never come here
            /// (see the dispatch in `Vector::update`).
            ///
            /// # Safety
            /// The CPU has the feature; every slice has `dst.len()` elements, a
            /// multiple of the lane count.
            #[target_feature(enable = $feature)]
            unsafe fn update(dst: &mut [i16], src: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
                let n = dst.len();
                let d = dst.as_mut_ptr();
                // SAFETY: every pointer covers n elements (checked by the caller).
                update_fixed(n, d, src.as_ptr(), [], []);
                for row in add {
                    update_fixed(n, d, d, [row.as_ptr()], []);
                }
                for row in sub {
                    update_fixed(n, d, d, [], [row.as_ptr()]);
                }
            }

            /// `dst = src + Σ add − Σ sub` over `n` lanes, with the numbers of
            /// rows known at compile time, so the row pointers stay in registers.
            /// `dst` may be `src` (each chunk is loaded before it is stored).
            ///
            /// # Safety
            /// The CPU has the feature; `n` is a multiple of the lane count and
            /// every pointer is valid for `n` elements.
            #[target_feature(enable = $feature)]
            unsafe fn update_fixed<const A: usize, const S: usize>(
                n: usize,
                dst: *mut i16,
                src: *const i16,
                add: [*const i16; A],
                sub: [*const i16; S],
            ) {
                let mut i = 0;
                while i < n {
                    // SAFETY: i + lanes <= n for every pointer.
                    let mut v = $load(src.add(i) as *const $reg);
                    for row in add {
                        v = $add16(v, $load(row.add(i) as *const $reg));
                    }
                    for row in sub {
                        v = $sub16(v, $load(row.add(i) as *const $reg));
                    }
                    $store(dst.add(i) as *mut $reg, v);
                    i += $lanes;
                }
            }

            /// # Safety
            /// The CPU has the feature; `a` and `w` have the same length, a
            /// multiple of the lane count.
            #[target_feature(enable = $feature)]
            unsafe fn screlu_dot(a: &[i16], w: &[i16]) -> i32 {
                let n = a.len();
                let zero = $zero();
                let top = $set1(255);
                let mut sum = $zero();
                let mut i = 0;
                while i < n {
                    // SAFETY: i + lanes <= n for both slices.
                    let x = $load(a.as_ptr().add(i) as *const $reg);
                    let c = $min16($max16(x, zero), top);
                    let t = $mullo(c, $load(w.as_ptr().add(i) as *const $reg));
                    sum = $add32(sum, $madd(t, c));
                    i += $lanes;
                }
                $hsum(sum)
            }
        };
    }

    mod sse2 {
        use super::*;
        #[target_feature(enable = "sse2")]
        unsafe fn hsum(v: __m128i) -> i32 {
            let mut lanes = [0i32; 4];
            _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, v);
            lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
        }
        path!(Sse2, VectorPath::Sse2, "sse2", true, 8, __m128i,
            load: _mm_loadu_si128, store: _mm_storeu_si128, add16: _mm_add_epi16,
            sub16: _mm_sub_epi16, zero: _mm_setzero_si128, set1: _mm_set1_epi16,
            max16: _mm_max_epi16, min16: _mm_min_epi16, mullo: _mm_mullo_epi16,
            madd: _mm_madd_epi16, add32: _mm_add_epi32, hsum: hsum);
    }

    mod avx2 {
        use super::*;
        #[target_feature(enable = "avx2")]
        unsafe fn hsum(v: __m256i) -> i32 {
            let mut lanes = [0i32; 8];
            _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, v);
            lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
        }
        path!(Avx2, VectorPath::Avx2, "avx2", detect::has_avx2(), 16, __m256i,
            load: _mm256_loadu_si256, store: _mm256_storeu_si256, add16: _mm256_add_epi16,
            sub16: _mm256_sub_epi16, zero: _mm256_setzero_si256, set1: _mm256_set1_epi16,
            max16: _mm256_max_epi16, min16: _mm256_min_epi16, mullo: _mm256_mullo_epi16,
            madd: _mm256_madd_epi16, add32: _mm256_add_epi32, hsum: hsum);
    }

    mod avx512 {
        use super::*;
        #[target_feature(enable = "avx512f,avx512bw")]
        unsafe fn hsum(v: __m512i) -> i32 {
            let mut lanes = [0i32; 16];
            _mm512_storeu_si512(lanes.as_mut_ptr() as *mut __m512i, v);
            lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
        }
        path!(Avx512, VectorPath::Avx512, "avx512f,avx512bw", detect::has_avx512bw(), 32,
            __m512i,
            load: _mm512_loadu_si512, store: _mm512_storeu_si512, add16: _mm512_add_epi16,
            sub16: _mm512_sub_epi16, zero: _mm512_setzero_si512, set1: _mm512_set1_epi16,
            max16: _mm512_max_epi16, min16: _mm512_min_epi16, mullo: _mm512_mullo_epi16,
            madd: _mm512_madd_epi16, add32: _mm512_add_epi32, hsum: hsum);
    }
}

/// A token of any path, as a value: what the search holds, so that it is built
/// once for every vector path and matches on this per evaluation.
///
/// Measured against the search monomorphised per path (the token's type a
/// parameter of the search): `bench` nodes per second within noise (see
/// docs/speed.md, "What the binary holds"), and six fewer copies of the search.
#[derive(Clone, Copy, Debug)]
pub enum Token {
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    #[cfg(target_arch = "x86_64")]
    Sse2(Sse2),
    Portable(Portable),
}

impl Token {
    /// The token of `path`, if this CPU runs it.
    pub fn detect(path: VectorPath) -> Option<Token> {
        match path {
            #[cfg(target_arch = "x86_64")]
            VectorPath::Avx512 => Avx512::detect().map(Token::Avx512),
            #[cfg(target_arch = "x86_64")]
            VectorPath::Avx2 => Avx2::detect().map(Token::Avx2),
            #[cfg(target_arch = "x86_64")]
            VectorPath::Sse2 => Sse2::detect().map(Token::Sse2),
            VectorPath::Portable => Some(Token::Portable(Portable)),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The token of `path`, or of the portable path (which every CPU runs) when
    /// this CPU cannot run `path`.
    pub fn or_portable(path: VectorPath) -> Token {
        Token::detect(path).unwrap_or(Token::Portable(Portable))
    }

    /// The path this token runs.
    pub fn path(self) -> VectorPath {
        match self {
            #[cfg(target_arch = "x86_64")]
            Token::Avx512(_) => VectorPath::Avx512,
            #[cfg(target_arch = "x86_64")]
            Token::Avx2(_) => VectorPath::Avx2,
            #[cfg(target_arch = "x86_64")]
            Token::Sse2(_) => VectorPath::Sse2,
            Token::Portable(_) => VectorPath::Portable,
        }
    }
}

/// Run `$body` with `$v` bound to the typed token inside `$token` (a [`Token`]):
/// one arm per path, so `$body` is built once for each.
#[macro_export]
macro_rules! with_token {
    ($token:expr, $v:ident => $body:expr) => {{
        use $crate::nnue::vector::Token as __T;
        match $token {
            #[cfg(target_arch = "x86_64")]
            __T::Avx512($v) => $body,
            #[cfg(target_arch = "x86_64")]
            __T::Avx2($v) => $body,
            #[cfg(target_arch = "x86_64")]
            __T::Sse2($v) => $body,
            __T::Portable($v) => $body,
        }
    }};
}

/// Run `$body` with the type alias `$V` bound to the [`Vector`] of `path`, or of
/// the portable path when this CPU cannot run `path` (the caller checks
/// [`VectorPath::available`] first and says so).
#[macro_export]
macro_rules! with_vector {
    ($path:expr, $V:ident => $body:expr) => {{
        use $crate::nnue::vector::VectorPath as __V;
        match $path {
            #[cfg(target_arch = "x86_64")]
            __V::Avx512 if __V::Avx512.available() => {
                type $V = $crate::nnue::vector::Avx512;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            __V::Avx2 if __V::Avx2.available() => {
                type $V = $crate::nnue::vector::Avx2;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            __V::Sse2 => {
                type $V = $crate::nnue::vector::Sse2;
                $body
            }
            _ => {
                type $V = $crate::nnue::vector::Portable;
                $body
            }
        }
    }};
}
