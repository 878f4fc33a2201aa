//! The trainer behind `brokkr train`: the float net, AdamW on shuffled
//! mini-batches, checkpoints, and the export to the net file.
//!
//! The net (all `f32`): input weights `ft_w[768][H]`, biases `ft_b[H]`, output
//! weights `out_w[B][2H]` (the side to move's half first) and biases
//! `out_b[B]`. For a position, each side's accumulator is `ft_b` plus the rows
//! of its inputs ([`crate::nnue::features::index`] from that side's view); the
//! activation is the squared clipped ReLU `clamp(acc, 0, 1)²`; the output
//! `o = out_w[b] · (a_us, a_them) + out_b[b]`, bucket `b` by the number of men
//! ([`crate::nnue::features::bucket`]), and `o × 400` is the evaluation in
//! centipawns from the side to move's side. With `--psqt` the net has a linear
//! path beside it, `psqt[768][B]`: `o` gains half the sum of the side to move's
//! inputs' rows less half the other side's (in bucket `b`), started from the
//! classical piece values.
//!
//! The loss is the mean of `(sigmoid(o × 400 / K) − t)²`, with the target
//! `t = wdl × result + (1 − wdl) × sigmoid(score / K)` (both from the side to
//! move's side). AdamW (β1 0.9, β2 0.999, ε 1e-8, decoupled weight decay) with
//! a cosine learning rate from `lr` down to `lr_end` over all the steps of the
//! run, and every weight clipped to ±[`CLIP`] after each step so that the
//! quantised output weights times 255 stay within `i16` (the PSQT weights, `i32`
//! in the engine, to ±[`PSQT_CLIP`]).
//!
//! Each batch is cut into one fixed chunk a thread; every thread sums its
//! chunk's gradient into its own buffer (touching, and later clearing, only the
//! input rows its positions use), and the buffers are added in thread order:
//! the same data, settings, seed and thread count give the same net, bit for
//! bit. The AdamW step itself updates every weight (the moments of a weight
//! without a gradient this step still decay, as AdamW has it); for `H = 256`
//! that is 0.2 M weights a step against 16 k positions' sparse sums.

pub mod data;
pub mod export;
pub mod kernel;

pub use data::{load, split, split_stable, Loaded, Rng};
pub use export::{dequantise, evaluate_float, evaluate_quantised, quantise, scale_fit};
pub use kernel::{Loss, SCALE};

use crate::nnue::features::{describe_layout, KingLayout};
use crate::nnue::file::{fnv1a, INPUTS, MAX_BUCKETS, MAX_HIDDEN};
use crate::nnue::marlin::Record;
use kernel::Worker;
use std::time::{Duration, Instant};

/// Every weight stays within ±`CLIP`.
pub const CLIP: f32 = 1.98;
/// ... but the PSQT weights, within ±`PSQT_CLIP` (25,600 cp: no real bound, and
/// far inside the file's limit once quantised).
pub const PSQT_CLIP: f32 = 64.0;
/// The PSQT path's first values, pawn to king, in the output's units
/// (centipawns / [`SCALE`]): the classical 1, 3, 3, 5, 9.
const PIECE_VALUES: [f32; 6] = [0.25, 0.75, 0.75, 1.25, 2.25, 0.0];
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f32 = 1e-8;
/// How often [`Event::Progress`] comes.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// The net's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Hidden neurons per side.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// A linear PSQT path beside the hidden layer.
    pub psqt: bool,
    /// The king buckets and mirroring of the inputs ([`KingLayout::NONE`]:
    /// 768 inputs a side).
    pub kings: KingLayout,
}

impl Shape {
    /// A shape without king buckets.
    pub const fn plain(hidden: usize, buckets: usize, psqt: bool) -> Shape {
        Shape {
            hidden,
            buckets,
            psqt,
            kings: KingLayout::NONE,
        }
    }

    /// Inputs per side: 768 per king bucket.
    pub const fn inputs(&self) -> usize {
        self.kings.inputs()
    }

    /// The number of weights (`ft_w`, `ft_b`, `out_w`, `out_b`, `psqt` if any,
    /// in that order in one vector).
    pub fn weights(&self) -> usize {
        self.psqt_at()
            + if self.psqt {
                self.inputs() * self.buckets
            } else {
                0
            }
    }

    /// Where `psqt` starts (the end of the other weights).
    pub fn psqt_at(&self) -> usize {
        self.out_b() + self.buckets
    }

    /// Where `out_w` starts.
    pub fn out_w(&self) -> usize {
        (self.inputs() + 1) * self.hidden
    }

    /// Where `out_b` starts.
    pub fn out_b(&self) -> usize {
        self.out_w() + 2 * self.buckets * self.hidden
    }

    fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || !self.hidden.is_multiple_of(32) || self.hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden size {}: must be a multiple of 32 from 32 to {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if self.buckets == 0 || self.buckets > MAX_BUCKETS {
            return Err(format!(
                "{} buckets: must be 1 to {MAX_BUCKETS}",
                self.buckets
            ));
        }
        self.kings.check()
    }

    /// The shape in words, for messages.
    pub fn describe(&self) -> String {
        let kings = if self.kings.is_none() {
            String::new()
        } else {
            format!(", king buckets {}", describe_layout(&self.kings))
        };
        format!(
            "{} hidden, {} buckets and PSQT {}{kings}",
            self.hidden, self.buckets, self.psqt
        )
    }
}

/// The float net.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub shape: Shape,
    /// Every weight, laid out as [`Shape`] says.
    pub params: Vec<f32>,
}

impl Net {
    /// A net with random weights from `seed`: input weights and biases uniform
    /// in ±1/√768, output weights in ±1/√(2H), output biases 0; the PSQT path
    /// (if any) starts from the classical piece values on every square, in
    /// every bucket, own pieces positive and the other side's negative (half from
    /// each side's view makes one piece value).
    pub fn random(shape: Shape, seed: u64) -> Net {
        let mut rng = Rng::new(seed ^ 0x0001_a170_fa11_ce11);
        let mut params = vec![0.0; shape.weights()];
        // The bound is by the inputs a position has set, not the table's size.
        let ft = 1.0 / (INPUTS as f32).sqrt();
        let out = 1.0 / (2.0 * shape.hidden as f32).sqrt();
        for (i, p) in params[..shape.out_b()].iter_mut().enumerate() {
            let bound = if i < shape.out_w() { ft } else { out };
            *p = rng.symmetric() * bound;
        }
        if shape.psqt {
            for (f, row) in params[shape.psqt_at()..]
                .chunks_exact_mut(shape.buckets)
                .enumerate()
            {
                // The feature index is `king bucket × 768 + own × 384 + kind ×
                // 64 + square`.
                let (own, kind) = (f % INPUTS / 384, f / 64 % 6);
                let value = PIECE_VALUES[kind];
                row.fill(if own == 0 { value } else { -value });
            }
        }
        Net { shape, params }
    }

    /// This net grown to `shape` (as many hidden neurons and buckets or more, a
    /// PSQT path kept or added) so that it evaluates every position as before:
    /// each new bucket copies the old one its positions fell in, an added PSQT path is
    /// zero, and each new neuron has zero output weights but random input
    /// weights and bias (±1/√768, from `seed`). The random inputs are what let
    /// a new neuron learn: with zero inputs its activation and its slope are
    /// both zero, so no gradient would ever reach it; with zero output weights
    /// the gradient reaches those first, as the neuron's activation.
    ///
    /// A net grows into a finer king layout ([`Shape::kings`], [`king_sources`])
    /// by copying each old bucket's input weights (and PSQT rows) into every
    /// new bucket that lies within it, and then evaluates every position as
    /// before. A net without king buckets copies its one set into every
    /// bucket. For
    /// a layout without mirroring the evaluation is then the same; with
    /// mirroring it is only close: a side whose king is on files e–h now reads
    /// the rows of the mirrored squares, and the old net is not exactly left-right
    /// symmetric (it evaluates the mirrored position, which it need not value
    /// the same).
    pub fn grown(&self, shape: Shape, seed: u64) -> Result<Net, String> {
        let old = self.shape;
        if shape.hidden < old.hidden || shape.buckets < old.buckets || (old.psqt && !shape.psqt) {
            return Err(format!(
                "cannot shrink {} to {}",
                old.describe(),
                shape.describe()
            ));
        }
        let kings = king_sources(&old.kings, &shape.kings).ok_or_else(|| {
            format!(
                "cannot grow king buckets {} into {}: each new bucket must lie within one old \
                 bucket, with the same mirroring (or the old net have none)",
                describe_layout(&old.kings),
                describe_layout(&shape.kings)
            )
        })?;
        let (h, b, nh, nb) = (old.hidden, old.buckets, shape.hidden, shape.buckets);
        // The old bucket each new one copies: the one its numbers of men fell in.
        let source = crate::nnue::file::bucket_sources(b, nb)?;
        let mut rng = Rng::new(seed ^ 0x0067_2077_6e00_0001);
        let bound = 1.0 / (INPUTS as f32).sqrt();
        let mut random = || rng.symmetric() * bound;
        let p = &self.params;
        let mut params = Vec::with_capacity(shape.weights());
        // Input weights (a row of neurons per input; the old net's rows again
        // for each new king bucket), then the biases: the old neurons' values,
        // then the new ones' random ones.
        let (ft, bias) = p[..old.out_w()].split_at(old.inputs() * h);
        for row in kings
            .iter()
            .flat_map(|&was| ft[was * INPUTS * h..][..INPUTS * h].chunks_exact(h))
            .chain(std::iter::once(bias))
        {
            params.extend_from_slice(row);
            params.extend((h..nh).map(|_| random()));
        }
        // Output weights, bucket by bucket, each the two sides' halves.
        for &was in &source {
            let w = &p[old.out_w() + was * 2 * h..][..2 * h];
            for half in w.chunks_exact(h) {
                params.extend_from_slice(half);
                params.extend(std::iter::repeat_n(0.0, nh - h));
            }
        }
        params.extend(source.iter().map(|&was| p[old.out_b() + was]));
        if shape.psqt {
            for f in 0..shape.inputs() {
                let f = kings[f / INPUTS] * INPUTS + f % INPUTS;
                params.extend(source.iter().map(|&was| match old.psqt {
                    true => p[old.psqt_at() + f * b + was],
                    false => 0.0,
                }));
            }
        }
        debug_assert_eq!(params.len(), shape.weights());
        Ok(Net { shape, params })
    }

    /// The net quantised for the engine ([`quantise`]).
    pub fn quantise(&self) -> crate::nnue::file::NetFile {
        quantise(self)
    }
}

/// For each king bucket of `new`, the bucket of `old` whose weights it starts
/// from, when `new` refines `old`: every square of a new bucket lies in one old
/// bucket, and the mirroring is the same, so the grown net evaluates every
/// position as before (`ranks4-mirror` into `ranks4x2-mirror`, say). An old
/// net without king buckets refines into any layout (its one bucket copied
/// into each; with mirroring the evaluation is only close). `None` when `new`
/// does not refine `old`.
pub fn king_sources(old: &KingLayout, new: &KingLayout) -> Option<Vec<usize>> {
    if !old.is_none() && old.mirrored != new.mirrored {
        return None;
    }
    let mut sources = vec![None; new.buckets];
    for (&n, &o) in new.table.iter().zip(&old.table) {
        let source = &mut sources[n as usize];
        match *source {
            None => *source = Some(o as usize),
            Some(was) if was != o as usize => return None,
            Some(_) => {}
        }
    }
    // A layout that passed `check` uses every bucket, so each has a source.
    sources.into_iter().collect()
}

/// What to train.
#[derive(Clone, Debug)]
pub struct Config {
    pub shape: Shape,
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions a step.
    pub batch: usize,
    /// The learning rate at the first step and the last (cosine between).
    pub lr: f32,
    pub lr_end: f32,
    /// AdamW's weight decay.
    pub weight_decay: f32,
    pub loss: Loss,
    /// The result's weight at the last step, when it moves (`--wdl-end`):
    /// `loss.wdl` at the first step, then linearly to this one. Early steps
    /// learn the search's scores, which are dense; late ones lean on the
    /// results, which are sparse but true.
    pub wdl_end: Option<f32>,
    /// Decides the initial weights, the validation games and the shuffles.
    pub seed: u64,
    pub threads: usize,
    /// Where to write the state after each epoch.
    pub checkpoint: Option<String>,
    /// Start from these weights instead of random ones (`--init`: an exported
    /// net, dequantised), with fresh AdamW moments.
    pub init: Option<Net>,
    /// Stop after this epoch (the schedule still runs over `epochs`): a run
    /// cut in slices, resumed from its checkpoint, ends where the whole run
    /// would.
    pub stop_after: Option<usize>,
    /// Train the king buckets' input weights factorised ([`Factor`]): each
    /// bucket's row as a row shared by every bucket plus the bucket's own.
    pub factoriser: bool,
}

impl Config {
    /// The settings that are not in range, as an error.
    pub fn check(&self) -> Result<(), String> {
        self.shape.check()?;
        let positive = |v: f32| v > 0.0 && v.is_finite();
        if self.epochs == 0 || self.batch == 0 {
            return Err("--epochs and --batch must be at least 1".to_string());
        }
        if !(positive(self.lr) && self.lr_end >= 0.0 && self.lr_end.is_finite()) {
            return Err("--lr must be above 0, --lr-end at least 0".to_string());
        }
        if !(self.weight_decay >= 0.0 && self.weight_decay.is_finite()) {
            return Err("--wd must be at least 0".to_string());
        }
        if !(0.0..=1.0).contains(&self.loss.wdl) {
            return Err("--wdl must be 0 to 1".to_string());
        }
        if self.wdl_end.is_some_and(|w| !(0.0..=1.0).contains(&w)) {
            return Err("--wdl-end must be 0 to 1".to_string());
        }
        if !positive(self.loss.k) {
            return Err("--k must be above 0".to_string());
        }
        if self.threads == 0 || self.threads > 256 {
            return Err("--threads must be 1 to 256".to_string());
        }
        if self.factoriser && self.shape.kings.buckets < 2 {
            return Err(
                "--factoriser needs two king buckets or more (--king-buckets ranks2 and up): \
                 with one there is nothing to share"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// The learning rate of step `t` (from 1) of `total`.
    fn rate(&self, t: u64, total: u64) -> f32 {
        let cos = 0.5 * (1.0 + (std::f64::consts::PI * progress(t, total)).cos());
        (self.lr_end as f64 + (self.lr - self.lr_end) as f64 * cos) as f32
    }

    /// The loss of step `t` (from 1) of `total`: [`Config::loss`] with that
    /// step's result weight ([`Config::wdl_end`]).
    pub fn loss_at(&self, t: u64, total: u64) -> Loss {
        match self.wdl_end {
            None => self.loss,
            Some(end) => {
                let from = f64::from(self.loss.wdl);
                let wdl = from + (f64::from(end) - from) * progress(t, total);
                Loss {
                    wdl: wdl as f32,
                    ..self.loss
                }
            }
        }
    }

    /// The loss of the last step: what the finished net was trained toward.
    pub fn final_loss(&self) -> Loss {
        Loss {
            wdl: self.wdl_end.unwrap_or(self.loss.wdl),
            ..self.loss
        }
    }
}

/// How far step `t` (from 1) is through `total`: 0 at the first, 1 at the last.
fn progress(t: u64, total: u64) -> f64 {
    let x = t.saturating_sub(1) as f64 / total.saturating_sub(1).max(1) as f64;
    x.min(1.0)
}

/// A run's state: the net, Adam's moments and how far it got. A checkpoint
/// file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub net: Net,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Epochs finished.
    pub epoch: usize,
    /// Steps taken.
    pub step: u64,
    /// The run's seed.
    pub seed: u64,
    /// The size of the training set (a resumed run must see the same data).
    pub positions: u64,
    /// The training set's [`fingerprint`]: a resumed run must see the same
    /// positions in the same order, not only as many. `None` in a checkpoint of
    /// the first format, which kept the count alone.
    pub data: Option<u64>,
    /// The factoriser's moments, in a run with one ([`Config::factoriser`]).
    pub factor: Option<Factor>,
}

/// The factoriser of a king-bucketed net: its input weights trained as if
/// each bucket's row were a row shared by every bucket (one per input of the
/// 768) plus the bucket's own. A position teaches every bucket through the
/// shared part, so a bucket that few positions reach (a king on the fourth
/// rank, say) still learns what the others do, and its own part only what is
/// different there. The engines that gained from many king buckets train
/// them so (bullet's and Stockfish's trainers).
///
/// Only the shared part's AdamW moments are kept: the net's weights are the
/// sums already (shared plus own), and a step moves each sum by the shared
/// part's step and its own, which is what a net kept in two parts would do
/// (the weight decay of the two parts is the decay of their sum). Only the
/// clip differs: the sum, which is what the net file holds, is clipped.
#[derive(Clone, Debug, PartialEq)]
pub struct Factor {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Factor {
    /// Zero moments for `hidden` neurons.
    fn new(hidden: usize) -> Factor {
        Factor {
            m: vec![0.0; INPUTS * hidden],
            v: vec![0.0; INPUTS * hidden],
        }
    }
}

/// The first bytes of a checkpoint file, and its header's size: the current
/// format, and the first (without the data's fingerprint), which is still read.
const CHECKPOINT_MAGIC: &[u8; 8] = b"BRKKRTC2";
const CHECKPOINT_HEADER: usize = 64;
const CHECKPOINT_MAGIC_V1: &[u8; 8] = b"BRKKRTC1";
const CHECKPOINT_HEADER_V1: usize = 56;
/// A net with king buckets: the current header and the king block after it
/// (as the net file's: `K`, the flags, the 32-entry layout).
const CHECKPOINT_MAGIC_KINGS: &[u8; 8] = b"BRKKRTC3";
const CHECKPOINT_HEADER_KINGS: usize = CHECKPOINT_HEADER + crate::nnue::file::KING_BLOCK;
/// A run with the factoriser: the king-bucketed header, and the factor's two
/// moments after Adam's.
const CHECKPOINT_MAGIC_FACTOR: &[u8; 8] = b"BRKKRTC4";

/// A fingerprint of the training positions, in order: FNV-1a over the records'
/// 64-bit words (a quick check that a resumed run trains on the data its
/// checkpoint did, not a cryptographic hash).
pub fn fingerprint(records: &[Record]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in records {
        for w in r.0.chunks_exact(8) {
            h ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

impl State {
    fn new(net: Net, seed: u64, positions: usize, data: u64) -> State {
        let n = net.params.len();
        State {
            net,
            m: vec![0.0; n],
            v: vec![0.0; n],
            epoch: 0,
            step: 0,
            seed,
            positions: positions as u64,
            data: Some(data),
            factor: None,
        }
    }

    /// The checkpoint file's bytes: a 64-byte header (magic `BRKKRTC2`;
    /// hidden, buckets, epochs done and PSQT as `u32`; steps, seed, positions,
    /// the FNV-1a hash of the rest and the data's [`fingerprint`] as `u64`;
    /// little-endian), then the weights and Adam's two moments as `f32`. (The
    /// first format, `BRKKRTC1`, had a 56-byte header without the fingerprint.)
    /// A net with king buckets has the magic `BRKKRTC3` and its king layout
    /// after the header, 40 bytes as in the net file; a run with the
    /// factoriser, `BRKKRTC4`, the same, and the factor's two moments after
    /// Adam's.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (fm, fv) = match &self.factor {
            Some(f) => (&f.m[..], &f.v[..]),
            None => (&[][..], &[][..]),
        };
        let mut body = Vec::with_capacity(12 * self.net.params.len() + 8 * fm.len());
        for x in self.net.params.iter().chain(&self.m).chain(&self.v) {
            body.extend_from_slice(&x.to_le_bytes());
        }
        for x in fm.iter().chain(fv) {
            body.extend_from_slice(&x.to_le_bytes());
        }
        let kings = self.net.shape.kings;
        let mut out = Vec::with_capacity(CHECKPOINT_HEADER_KINGS + body.len());
        out.extend_from_slice(if self.factor.is_some() {
            CHECKPOINT_MAGIC_FACTOR
        } else if kings.is_none() {
            CHECKPOINT_MAGIC
        } else {
            CHECKPOINT_MAGIC_KINGS
        });
        for x in [
            self.net.shape.hidden as u32,
            self.net.shape.buckets as u32,
            self.epoch as u32,
            self.net.shape.psqt as u32,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for x in [
            self.step,
            self.seed,
            self.positions,
            fnv1a(&body),
            self.data.unwrap_or(0),
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        if !kings.is_none() || self.factor.is_some() {
            out.extend_from_slice(&(kings.buckets as u32).to_le_bytes());
            out.extend_from_slice(&(kings.mirrored as u32).to_le_bytes());
            out.extend_from_slice(&kings.table);
        }
        out.extend_from_slice(&body);
        out
    }

    /// Read a checkpoint file's bytes.
    pub fn parse(b: &[u8]) -> Result<State, String> {
        let factored = b.get(..8) == Some(&CHECKPOINT_MAGIC_FACTOR[..]);
        let header = match b.get(..8) {
            Some(m) if m == CHECKPOINT_MAGIC => CHECKPOINT_HEADER,
            Some(m) if m == CHECKPOINT_MAGIC_V1 => CHECKPOINT_HEADER_V1,
            Some(m) if m == CHECKPOINT_MAGIC_KINGS => CHECKPOINT_HEADER_KINGS,
            Some(m) if m == CHECKPOINT_MAGIC_FACTOR => CHECKPOINT_HEADER_KINGS,
            _ => return Err("not a brokkr train checkpoint (no BRKKRTC header)".to_string()),
        };
        if b.len() < header {
            return Err("checkpoint: shorter than its header: truncated".to_string());
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4")) as usize;
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8"));
        let kings = if header == CHECKPOINT_HEADER_KINGS {
            let flags = u32_at(CHECKPOINT_HEADER + 4);
            if flags > 1 {
                return Err(format!(
                    "checkpoint: king flags {flags:#x}, only bit 0 is defined"
                ));
            }
            KingLayout {
                buckets: u32_at(CHECKPOINT_HEADER),
                mirrored: flags == 1,
                table: b[CHECKPOINT_HEADER + 8..CHECKPOINT_HEADER_KINGS]
                    .try_into()
                    .expect("32 bytes"),
            }
        } else {
            KingLayout::NONE
        };
        let shape = Shape {
            hidden: u32_at(8),
            buckets: u32_at(12),
            psqt: u32_at(20) != 0,
            kings,
        };
        shape.check().map_err(|e| format!("checkpoint: {e}"))?;
        let n = shape.weights();
        let f = if factored { INPUTS * shape.hidden } else { 0 };
        if b.len() != header + 12 * n + 8 * f {
            return Err(format!(
                "checkpoint: {} bytes where a net of {} hidden and {} buckets needs {}: truncated?",
                b.len(),
                shape.hidden,
                shape.buckets,
                header + 12 * n + 8 * f
            ));
        }
        let body = &b[header..];
        if fnv1a(body) != u64_at(48) {
            return Err("checkpoint: checksum mismatch, the file is damaged".to_string());
        }
        let floats_at = |from: usize, len: usize| -> Vec<f32> {
            body[4 * from..4 * (from + len)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4")))
                .collect()
        };
        let floats = |k: usize| floats_at(n * k, n);
        Ok(State {
            net: Net {
                shape,
                params: floats(0),
            },
            m: floats(1),
            v: floats(2),
            epoch: u32_at(16),
            step: u64_at(24),
            seed: u64_at(32),
            positions: u64_at(40),
            data: (header != CHECKPOINT_HEADER_V1).then(|| u64_at(56)),
            factor: factored.then(|| Factor {
                m: floats_at(3 * n, f),
                v: floats_at(3 * n + f, f),
            }),
        })
    }

    /// Read the checkpoint file `path`.
    pub fn read(path: &str) -> Result<State, String> {
        let b = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        State::parse(&b).map_err(|e| format!("{path}: {e}"))
    }

    /// Write the checkpoint file `path` (through a temporary file, so a run
    /// stopped while writing leaves the last one whole).
    pub fn write(&self, path: &str) -> Result<(), String> {
        write_file(path, &self.to_bytes())
    }

    /// One AdamW step with the gradient `g` at rate `lr`.
    fn adam(&mut self, g: &[f32], lr: f32, decay: f32) {
        self.step += 1;
        let t = self.step.min(i32::MAX as u64) as i32;
        let c1 = (1.0 / (1.0 - BETA1.powi(t))) as f32;
        let c2 = (1.0 / (1.0 - BETA2.powi(t))) as f32;
        let (b1, b2) = (BETA1 as f32, BETA2 as f32);
        let keep = 1.0 - lr * decay;
        let psqt_at = self.net.shape.psqt_at();
        // The shared rows' step: Adam on the sum of every bucket's gradient
        // for the same input (the shared part's gradient), added below to
        // each bucket's row.
        let shared = INPUTS * self.net.shape.hidden;
        let ft = self.net.shape.inputs() * self.net.shape.hidden;
        let step: Vec<f32> = match &mut self.factor {
            None => Vec::new(),
            Some(f) => {
                let mut sum = g[..shared].to_vec();
                for block in g[shared..ft].chunks_exact(shared) {
                    kernel::add(&mut sum, block);
                }
                sum.iter()
                    .zip(&mut f.m)
                    .zip(&mut f.v)
                    .map(|((g, m), v)| {
                        *m = b1 * *m + (1.0 - b1) * *g;
                        *v = b2 * *v + (1.0 - b2) * *g * *g;
                        -lr * (*m * c1) / ((*v * c2).sqrt() + EPSILON)
                    })
                    .collect()
            }
        };
        for (i, (((p, m), v), g)) in self
            .net
            .params
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.v)
            .zip(g)
            .enumerate()
        {
            *m = b1 * *m + (1.0 - b1) * *g;
            *v = b2 * *v + (1.0 - b2) * *g * *g;
            let mut x = *p * keep - lr * (*m * c1) / ((*v * c2).sqrt() + EPSILON);
            if i < ft && !step.is_empty() {
                x += step[i % shared];
            }
            let clip = if i < psqt_at { CLIP } else { PSQT_CLIP };
            *p = x.clamp(-clip, clip);
        }
    }
}

/// Write `bytes` to `path` through `path.tmp` and a rename.
pub fn write_file(path: &str, bytes: &[u8]) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write '{path}': {e}"))
}

/// What a run reports as it goes.
pub enum Event<'a> {
    /// About every [`PROGRESS_EVERY`].
    Progress {
        epoch: usize,
        epochs: usize,
        /// Positions of this epoch done, of `total`.
        done: usize,
        total: usize,
        /// Positions a second in this run so far.
        speed: f64,
        /// The mean loss of this epoch so far.
        loss: f64,
        /// Seconds to the end of the run at this speed.
        left: f64,
    },
    /// After each epoch (and its checkpoint).
    Epoch {
        epoch: usize,
        epochs: usize,
        train_loss: f64,
        /// `None` without validation positions.
        val_loss: Option<f64>,
        /// The validation loss against the game results alone (`wdl` = 1):
        /// the measure that stays comparable between runs of different `wdl`
        /// or `k`, since it does not depend on the target's blend.
        val_results: Option<f64>,
        seconds: f64,
        speed: f64,
        net: &'a Net,
    },
}

/// The mean loss of `net` over `records`, on `threads` threads.
pub fn mean_loss(net: &Net, loss: &Loss, records: &[Record], threads: usize) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let chunk = records.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|part| s.spawn(move || kernel::loss_sum(&net.params, net.shape, loss, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    sums.iter().sum::<f64>() / records.len() as f64
}

/// The mean losses over `records`, one for each of `losses`, of an evaluation
/// `eval` (centipawns from the side to move's side) read as the net's output
/// is, in one pass. Records that do not decode are left out; `None` if none
/// does.
fn mean_losses_of(
    losses: &[Loss],
    records: &[Record],
    mut eval: impl FnMut(&crate::board::Board<crate::attacks::Magic>) -> i32,
) -> Option<Vec<f64>> {
    let mut sums = vec![0.0f64; losses.len()];
    let mut n = 0usize;
    for r in records {
        let Ok(board) = r.to_board() else {
            continue;
        };
        let out = eval(&board) as f32 / SCALE;
        for (sum, loss) in sums.iter_mut().zip(losses) {
            *sum += f64::from(kernel::loss_of(r, out, loss));
        }
        n += 1;
    }
    (n > 0).then(|| sums.iter().map(|s| s / n as f64).collect())
}

/// The mean loss over `records` of the quantised net `file` as the engine
/// evaluates it: beside the float net's validation loss, what rounding to the
/// net file's integers cost.
pub fn quantised_loss(
    file: &crate::nnue::file::NetFile,
    loss: &Loss,
    records: &[Record],
) -> Option<f64> {
    mean_losses_of(&[*loss], records, |b| evaluate_quantised(file, b)).map(|v| v[0])
}

/// The mean losses over `records` of the hand-written evaluation (default
/// terms), one for each of `losses`: a reference for the net's validation
/// losses, on the same positions and scale.
pub fn hce_losses(losses: &[Loss], records: &[Record]) -> Option<Vec<f64>> {
    use crate::bits::Portable;
    use crate::eval::{evaluate, PawnTable, Terms};
    let mut pawns = PawnTable::new();
    mean_losses_of(losses, records, |b| {
        evaluate::<Portable, _>(b, &mut pawns, Terms::DEFAULT)
    })
}

/// Train on `train`, reporting the loss on `val` after each epoch; start from
/// `resume` (a checkpoint of the same run) or from random weights. `on` hears
/// the progress, and its error stops the run. Returns the state at the end.
pub fn train(
    cfg: &Config,
    train: &[Record],
    val: &[Record],
    resume: Option<State>,
    on: &mut dyn FnMut(Event<'_>) -> Result<(), String>,
) -> Result<State, String> {
    cfg.check()?;
    if train.is_empty() {
        return Err("no training positions".to_string());
    }
    if train.len() > u32::MAX as usize {
        return Err(format!(
            "{} training positions: at most {}",
            train.len(),
            u32::MAX
        ));
    }
    let s = cfg.shape;
    let data = fingerprint(train);
    let mut state = starting_state(cfg, train.len(), data, resume)?;
    let threads = cfg.threads;
    let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new(s)).collect();
    let per_epoch = train.len().div_ceil(cfg.batch) as u64;
    let total = per_epoch * cfg.epochs as u64;
    let last = cfg.stop_after.unwrap_or(cfg.epochs).min(cfg.epochs);
    let start = Instant::now();
    let mut shown = start;
    let mut seen = 0usize;
    let to_go = train.len() * last.saturating_sub(state.epoch);
    for epoch in state.epoch + 1..=last {
        let t0 = Instant::now();
        let order = data::epoch_order(train.len(), cfg.seed, epoch);
        let mut loss = 0.0;
        for (i, batch) in order.chunks(cfg.batch).enumerate() {
            let scale = 1.0 / batch.len() as f32;
            run_batch(
                &state.net.params,
                s,
                &cfg.loss_at(state.step + 1, total),
                train,
                batch,
                scale,
                &mut workers,
            );
            let (first, rest) = workers.split_first_mut().expect("a thread");
            first.gather(rest, s);
            loss += first.loss;
            let lr = cfg.rate(state.step + 1, total);
            state.adam(&first.grad, lr, cfg.weight_decay);
            first.clear(s);
            seen += batch.len();
            if shown.elapsed() >= PROGRESS_EVERY {
                shown = Instant::now();
                let speed = seen as f64 / start.elapsed().as_secs_f64().max(1e-9);
                let done = (i * cfg.batch + batch.len()).min(train.len());
                on(Event::Progress {
                    epoch,
                    epochs: cfg.epochs,
                    done,
                    total: train.len(),
                    speed,
                    loss: loss / done as f64,
                    left: (to_go - seen) as f64 / speed,
                })?;
            }
        }
        state.epoch = epoch;
        // Against the target of the epoch's last step; the loss against the
        // results alone compares epochs when the result weight moves.
        let epoch_loss = cfg.loss_at(state.step, total);
        let (val_loss, val_results) = validation_losses(&state.net, &epoch_loss, val, threads);
        if let Some(path) = &cfg.checkpoint {
            state.write(path)?;
        }
        on(Event::Epoch {
            epoch,
            epochs: cfg.epochs,
            train_loss: loss / train.len() as f64,
            val_loss,
            val_results,
            seconds: t0.elapsed().as_secs_f64(),
            speed: seen as f64 / start.elapsed().as_secs_f64().max(1e-9),
            net: &state.net,
        })?;
    }
    Ok(state)
}

/// Where a run starts: the checkpoint `resume`, which must come from the same
/// run (the shape, the seed, and the training set: `positions` of them, with
/// the fingerprint `data`), or else `--init`'s net or random weights.
fn starting_state(
    cfg: &Config,
    positions: usize,
    data: u64,
    resume: Option<State>,
) -> Result<State, String> {
    Ok(match resume {
        Some(state) => {
            if state.net.shape != cfg.shape {
                return Err(shape_mismatch(
                    "the checkpoint's",
                    state.net.shape,
                    cfg.shape,
                ));
            }
            if state.seed != cfg.seed {
                return Err(format!(
                    "the checkpoint was made with --seed {}, this run has {}",
                    state.seed, cfg.seed
                ));
            }
            if state.positions != positions as u64 {
                return Err(format!(
                    "the checkpoint trained on {} positions, this run has {}: resume with the \
                     same --data and --val",
                    state.positions, positions
                ));
            }
            if state.factor.is_some() != cfg.factoriser {
                return Err(format!(
                    "the checkpoint was made {} --factoriser, this run {} it",
                    if state.factor.is_some() {
                        "with"
                    } else {
                        "without"
                    },
                    if cfg.factoriser {
                        "has"
                    } else {
                        "does not have"
                    }
                ));
            }
            if state.data.is_some_and(|d| d != data) {
                return Err(format!(
                    "the checkpoint trained on other positions than this run's (as many, \
                     fingerprint {:016x} against {data:016x}): resume with the same --data and \
                     --val, in the same order",
                    state.data.unwrap_or(0)
                ));
            }
            state
        }
        None => {
            let net = match &cfg.init {
                Some(net) if net.shape != cfg.shape => {
                    net.grown(cfg.shape, cfg.seed).map_err(|e| {
                        format!(
                            "{} ({e})",
                            shape_mismatch("the --init", net.shape, cfg.shape)
                        )
                    })?
                }
                Some(net) => net.clone(),
                None => Net::random(cfg.shape, cfg.seed),
            };
            let mut state = State::new(net, cfg.seed, positions, data);
            state.factor = cfg.factoriser.then(|| Factor::new(cfg.shape.hidden));
            state
        }
    })
}

/// The mean loss of `net` over the validation set `val`, and the same against
/// the game results alone (`wdl` = 1); `None` without validation positions.
fn validation_losses(
    net: &Net,
    loss: &Loss,
    val: &[Record],
    threads: usize,
) -> (Option<f64>, Option<f64>) {
    let val_loss = (!val.is_empty()).then(|| mean_loss(net, loss, val, threads));
    let results_only = Loss { wdl: 1.0, ..*loss };
    let val_results = (!val.is_empty()).then(|| mean_loss(net, &results_only, val, threads));
    (val_loss, val_results)
}

/// Why a net from elsewhere (`whose`: a checkpoint, `--init`) cannot start this
/// run: its shape against the run's.
fn shape_mismatch(whose: &str, theirs: Shape, ours: Shape) -> String {
    format!(
        "{whose} net has {}, this run's {}",
        theirs.describe(),
        ours.describe()
    )
}

/// The gradient of one batch: a fixed chunk for each worker, the first on this
/// thread.
fn run_batch(
    p: &[f32],
    s: Shape,
    loss: &Loss,
    records: &[Record],
    batch: &[u32],
    scale: f32,
    workers: &mut [Worker],
) {
    let t = workers.len();
    let n = batch.len();
    let part = |i: usize| &batch[i * n / t..(i + 1) * n / t];
    std::thread::scope(|sc| {
        let (first, rest) = workers.split_first_mut().expect("a thread");
        for (i, w) in rest.iter_mut().enumerate() {
            let ids = part(i + 1);
            sc.spawn(move || kernel::backprop(p, s, loss, records, ids, scale, w));
        }
        kernel::backprop(p, s, loss, records, part(0), scale, first);
    });
}

#[cfg(test)]
mod tests;
