//! A loaded net: the embedded one (static arrays that `build.rs` generated from
//! `nets/`), or one read from a file at run time (`EvalFile`, `--net`).

use super::features::{self, KingLayout, View};
use super::vector::Vector;
use crate::nnue::file::{NetFile, MAX_BUCKETS, QA, QB};
use std::ops::{Deref, DerefMut};
use std::path::Path;

/// 32 lanes of 16 bits on a 64-byte boundary: the unit of [`AlignedI16`].
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([i16; 32]);

/// A run of `i16` that starts on a 64-byte boundary, so that no vector load of a
/// row splits a cache line (a plain `Vec<i16>` is only 16-byte aligned: measured
/// with `brokkr paths`, AVX2 and AVX-512 updates on such rows ran slower than
/// SSE2's).
pub struct AlignedI16 {
    lines: Box<[Line]>,
    len: usize,
}

impl AlignedI16 {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> AlignedI16 {
        AlignedI16 {
            lines: vec![Line([0; 32]); len.div_ceil(32)].into_boxed_slice(),
            len,
        }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[i16]) -> AlignedI16 {
        let mut a = AlignedI16::zeroed(values.len());
        a.copy_from_slice(values);
        a
    }
}

impl Deref for AlignedI16 {
    type Target = [i16];
    #[inline(always)]
    fn deref(&self) -> &[i16] {
        // SAFETY: `Line` is `repr(C)` around `[i16; 32]`, 64 bytes with no
        // padding, so the boxed lines are `32 × lines.len()` contiguous,
        // initialised `i16`s, and `len` is at most that many.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr() as *const i16, self.len) }
    }
}

impl DerefMut for AlignedI16 {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr() as *mut i16, self.len) }
    }
}

impl std::fmt::Debug for AlignedI16 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AlignedI16({} values)", self.len)
    }
}

/// Weights that are either static (the embedded net, 64-byte aligned by the
/// generated code) or owned (a loaded one, 64-byte aligned by [`AlignedI16`]).
#[derive(Debug)]
pub enum Weights {
    Static(&'static [i16]),
    Owned(AlignedI16),
}

impl Deref for Weights {
    type Target = [i16];
    #[inline(always)]
    fn deref(&self) -> &[i16] {
        match self {
            Weights::Static(s) => s,
            Weights::Owned(b) => b,
        }
    }
}

/// The output biases: static (embedded) or owned (loaded).
#[derive(Debug)]
pub enum Biases {
    Static(&'static [i32]),
    Owned(Box<[i32]>),
}

impl Deref for Biases {
    type Target = [i32];
    #[inline(always)]
    fn deref(&self) -> &[i32] {
        match self {
            Biases::Static(s) => s,
            Biases::Owned(b) => b,
        }
    }
}

/// 64-byte alignment for the embedded arrays (the vector paths load unaligned,
/// which costs nothing on aligned data).
#[repr(C, align(64))]
pub struct Aligned<T: ?Sized>(pub T);

/// The net `build.rs` embedded from `nets/`, if the repository has one.
mod embedded {
    #![allow(clippy::all)]
    use super::Aligned;
    include!(concat!(env!("OUT_DIR"), "/net.rs"));
}

/// The size of the largest net file: the current version at the largest
/// hidden layer and bucket count the format allows.
pub fn max_file_bytes() -> usize {
    use crate::nnue::file::{
        file_size_kings, MAX_BUCKETS, MAX_HIDDEN, MAX_KING_BUCKETS, VERSION_KINGS,
    };
    file_size_kings(VERSION_KINGS, MAX_HIDDEN, MAX_BUCKETS, MAX_KING_BUCKETS)
}

/// The bytes of the file at `path` if it holds at most `limit` of them, or
/// `None` if it holds more; no more than `limit + 1` bytes are read either
/// way, so a device or pipe without end cannot hold the caller up.
pub fn read_at_most(path: &Path, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() <= limit).then_some(bytes))
}

/// A network ready to evaluate.
#[derive(Debug)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    kings: KingLayout,
    scale: i32,
    hash: u64,
    origin: String,
    ft_weights: Weights,
    ft_bias: Weights,
    out_weights: Weights,
    out_bias: Biases,
    /// `kings.inputs() × buckets`, input-major.
    psqt: Biases,
}

impl Network {
    /// The net built into the binary, if there is one.
    pub fn embedded() -> Option<Network> {
        if !embedded::PRESENT {
            return None;
        }
        Some(Network {
            hidden: embedded::HIDDEN,
            buckets: embedded::BUCKETS,
            kings: KingLayout {
                buckets: embedded::KING_BUCKETS,
                mirrored: embedded::KING_MIRRORED,
                table: embedded::KING_TABLE,
            },
            scale: embedded::SCALE,
            hash: embedded::HASH,
            origin: format!("embedded {}", embedded::NAME),
            ft_weights: Weights::Static(&embedded::FT_WEIGHTS.0),
            ft_bias: Weights::Static(&embedded::FT_BIAS.0),
            out_weights: Weights::Static(&embedded::OUT_WEIGHTS.0),
            out_bias: Biases::Static(&embedded::OUT_BIAS.0),
            psqt: Biases::Static(&embedded::PSQT.0),
        })
    }

    /// A net from a parsed file; `origin` names it in messages.
    pub fn from_file(file: NetFile, origin: &str) -> Network {
        Network {
            hidden: file.hidden,
            buckets: file.buckets,
            kings: file.kings,
            scale: file.scale,
            hash: file.hash(),
            origin: origin.to_string(),
            ft_weights: Weights::Owned(AlignedI16::from_slice(&file.ft_weights)),
            ft_bias: Weights::Owned(AlignedI16::from_slice(&file.ft_bias)),
            out_weights: Weights::Owned(AlignedI16::from_slice(&file.out_weights)),
            out_bias: Biases::Owned(file.out_bias.into_boxed_slice()),
            psqt: Biases::Owned(file.psqt.into_boxed_slice()),
        }
    }

    /// Read a net file; the error says what is wrong with it. No more is read
    /// than the largest net the format allows ([`max_file_bytes`]): a path to
    /// something endless (`/dev/zero`, a pipe) or huge is refused at once.
    pub fn load(path: &Path) -> Result<Network, String> {
        let limit = max_file_bytes();
        let bytes = read_at_most(path, limit)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .ok_or_else(|| {
                format!(
                    "{} is larger than any net ({limit} bytes at most)",
                    path.display()
                )
            })?;
        let file = NetFile::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Network::from_file(file, &path.display().to_string()))
    }

    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The king buckets and mirroring.
    pub fn kings(&self) -> &KingLayout {
        &self.kings
    }

    /// Whether a perspective's inputs depend on where its own king stands (king
    /// buckets or mirroring): then a king move can change its whole view.
    #[inline(always)]
    pub fn has_king_views(&self) -> bool {
        !self.kings.is_none()
    }

    /// `perspective`'s view with its own king on `king`.
    #[inline(always)]
    pub fn view(&self, perspective: crate::types::Color, king: crate::types::Square) -> View {
        View::new(&self.kings, perspective, king)
    }

    /// The checksum that names the net.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Where the net came from, and its shape, for `info string`s.
    pub fn describe(&self) -> String {
        let kings = if self.kings.is_none() {
            String::new()
        } else {
            format!(" x {}", features::describe_layout(&self.kings))
        };
        format!(
            "{} (768{kings} -> {}x2 -> {}, hash {:016x})",
            self.origin, self.hidden, self.buckets, self.hash
        )
    }

    /// The input weights' row of feature `f`.
    #[inline(always)]
    pub(crate) fn row(&self, f: usize) -> &[i16] {
        debug_assert!(f < self.kings.inputs());
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    #[inline(always)]
    pub(crate) fn bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The PSQT weights' row of feature `f`: one per bucket.
    #[inline(always)]
    pub(crate) fn psqt_row(&self, f: usize) -> &[i32] {
        debug_assert!(f < self.kings.inputs());
        &self.psqt[f * self.buckets..(f + 1) * self.buckets]
    }

    /// The evaluation in centipawns, from the side to move's view, of the
    /// accumulators `us` (the side to move's) and `them`, their PSQT sums
    /// `psqt_us` and `psqt_them` (one a bucket), with `pieces` men on the board.
    #[inline]
    pub fn output<V: Vector>(
        &self,
        v: V,
        (us, psqt_us): (&[i16], &[i32; MAX_BUCKETS]),
        (them, psqt_them): (&[i16], &[i32; MAX_BUCKETS]),
        pieces: u32,
    ) -> i32 {
        let h = self.hidden;
        let b = features::bucket(pieces, self.buckets);
        let w = &self.out_weights[b * 2 * h..(b + 1) * 2 * h];
        let sum = v
            .screlu_dot(us, &w[..h])
            .wrapping_add(v.screlu_dot(them, &w[h..]));
        // The dot products carry QA² × QB: one QA goes here, the bias has QA × QB,
        // and the rest with the scale to centipawns.
        // In 64 bits, so that no net file can overflow it. The PSQT sums have
        // the bias's scale.
        let psqt = (psqt_us[b] as i64 - psqt_them[b] as i64) / 2;
        let v = (sum / QA) as i64 + self.out_bias[b] as i64 + psqt;
        (v * self.scale as i64 / (QA * QB) as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
}
