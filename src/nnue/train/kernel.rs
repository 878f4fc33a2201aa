//! The hot loops: the float net's forward pass and its gradient for a chunk of
//! positions, on one thread.
//!
//! Every loop runs over contiguous `f32` slices whose length is a multiple of
//! 32 (the hidden size), so the compiler vectorises it. Sums that would need
//! reassociating (the output's dot product) keep [`LANES`] partial sums, added
//! in a fixed order at the end, so the result is the same whatever the vector
//! width: the AVX2 copy of the loops ([`backprop`] picks it at run time) gives
//! the very same numbers as the portable one, and a net depends only on the
//! seed and the thread count, not on the machine. (No fused multiply-add is
//! used: Rust never contracts `a * b + c` on its own.)

use super::Shape;
use crate::nnue::features::{bucket, KingLayout, View};
use crate::nnue::marlin::Record;
use crate::types::{Color, Piece, PieceKind, Square};

/// Centipawns per unit of the net's output: the `SCALE` of every net file the
/// trainer writes.
pub const SCALE: f32 = crate::nnue::file::TRAINED_SCALE as f32;
/// Partial sums of a dot product.
const LANES: usize = 16;

/// The loss's settings.
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// The weight of the game result in the target (the rest is the score's).
    pub wdl: f32,
    /// Centipawns of the sigmoid's scale: `p = sigmoid(cp / k)`.
    pub k: f32,
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A position's inputs and target.
pub struct Features {
    n: usize,
    us: [u16; 32],
    them: [u16; 32],
    bucket: usize,
    target: f32,
}

/// The inputs of `r` from the side to move's view and the other's (each in
/// the view its own king sets under `kings`), its output bucket and its target
/// `wdl * result + (1 - wdl) * sigmoid(score / k)`, both from the side to
/// move's side.
#[inline(always)]
pub fn features(r: &Record, buckets: usize, kings: &KingLayout, loss: &Loss) -> Features {
    let stm = r.side_to_move();
    let mut f = Features {
        n: 0,
        us: [0; 32],
        them: [0; 32],
        bucket: 0,
        target: 0.0,
    };
    // The men first, to find the kings: each side's view hangs on its own.
    let mut men = [(Piece::new(Color::White, PieceKind::Pawn), Square::new(0)); 32];
    let mut king = [Square::new(0); 2];
    for (sq, piece) in r.pieces() {
        // Loaded records are checked: every code is a piece, at most 32 of
        // them, one king a side.
        if let Some(p) = piece.filter(|_| f.n < men.len()) {
            if p.kind() == PieceKind::King {
                king[p.color().index()] = sq;
            }
            men[f.n] = (p, sq);
            f.n += 1;
        }
    }
    let us = View::new(kings, stm, king[stm.index()]);
    let them = View::new(kings, stm.flip(), king[stm.flip().index()]);
    for (i, &(p, sq)) in men[..f.n].iter().enumerate() {
        f.us[i] = us.index(p, sq) as u16;
        f.them[i] = them.index(p, sq) as u16;
    }
    f.bucket = bucket(f.n as u32, buckets);
    let white_result = r.result() as f32 / 2.0;
    let (score, result) = match stm {
        Color::White => (r.score() as f32, white_result),
        Color::Black => (-(r.score() as f32), 1.0 - white_result),
    };
    f.target = loss.wdl * result + (1.0 - loss.wdl) * sigmoid(score / loss.k);
    f
}

#[inline(always)]
fn clip(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// `to += from`, element by element.
#[inline(always)]
pub(super) fn add(to: &mut [f32], from: &[f32]) {
    for (a, b) in to.iter_mut().zip(from) {
        *a += *b;
    }
}

/// The accumulators of `f` (the side to move's, then the other's, in `acc`)
/// and the net's output.
#[inline(always)]
fn forward(p: &[f32], s: Shape, f: &Features, acc: &mut [f32]) -> f32 {
    let h = s.hidden;
    let (ft_w, rest) = p.split_at(s.inputs() * h);
    let ft_b = &rest[..h];
    let (us, them) = acc.split_at_mut(h);
    us.copy_from_slice(ft_b);
    them.copy_from_slice(ft_b);
    for i in 0..f.n {
        add(us, &ft_w[f.us[i] as usize * h..][..h]);
        add(them, &ft_w[f.them[i] as usize * h..][..h]);
    }
    let w = &p[s.out_w() + f.bucket * 2 * h..][..2 * h];
    let mut lanes = [0f32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for k in 0..LANES {
            let c = clip(a[k]);
            lanes[k] += c * c * w[k];
        }
    }
    lanes.iter().sum::<f32>() + p[s.out_b() + f.bucket] + psqt(p, s, f)
}

/// The PSQT path's share of the output: half the side to move's rows less half
/// the other side's, in the position's bucket (0 without the path).
#[inline(always)]
fn psqt(p: &[f32], s: Shape, f: &Features) -> f32 {
    if !s.psqt {
        return 0.0;
    }
    let rows = &p[s.psqt_at()..];
    let (mut us, mut them) = (0.0, 0.0);
    for i in 0..f.n {
        us += rows[f.us[i] as usize * s.buckets + f.bucket];
        them += rows[f.them[i] as usize * s.buckets + f.bucket];
    }
    0.5 * (us - them)
}

/// One thread's gradient buffer and scratch space.
pub struct Worker {
    /// The gradient of every weight, summed over the positions seen.
    pub grad: Vec<f32>,
    /// The input rows of `grad` that hold something (`rows` lists them).
    touched: Vec<bool>,
    rows: Vec<u16>,
    acc: Vec<f32>,
    dacc: Vec<f32>,
    /// The loss summed over the positions seen.
    pub loss: f64,
}

impl Worker {
    pub fn new(s: Shape) -> Worker {
        Worker {
            grad: vec![0.0; s.weights()],
            touched: vec![false; s.inputs()],
            rows: Vec::with_capacity(s.inputs()),
            acc: vec![0.0; 2 * s.hidden],
            dacc: vec![0.0; 2 * s.hidden],
            loss: 0.0,
        }
    }

    #[inline(always)]
    fn touch(&mut self, row: usize) {
        if !self.touched[row] {
            self.touched[row] = true;
            self.rows.push(row as u16);
        }
    }

    /// Add the other workers' gradients into this one's, in their order (so
    /// the sum is the same every run), and clear theirs.
    pub fn gather(&mut self, others: &mut [Worker], s: Shape) {
        let h = s.hidden;
        let dense = s.inputs() * h;
        for w in others {
            for i in 0..w.rows.len() {
                let r = w.rows[i] as usize;
                let row = &mut w.grad[r * h..][..h];
                add(&mut self.grad[r * h..][..h], row);
                row.fill(0.0);
                w.touched[r] = false;
                self.touch(r);
            }
            w.rows.clear();
            for (a, b) in self.grad[dense..].iter_mut().zip(&mut w.grad[dense..]) {
                *a += *b;
                *b = 0.0;
            }
            self.loss += w.loss;
            w.loss = 0.0;
        }
    }

    /// Clear the gradient (only the rows that hold something).
    pub fn clear(&mut self, s: Shape) {
        let h = s.hidden;
        for &r in &self.rows {
            self.grad[r as usize * h..][..h].fill(0.0);
            self.touched[r as usize] = false;
        }
        self.rows.clear();
        self.grad[s.inputs() * h..].fill(0.0);
        self.loss = 0.0;
    }
}

/// Add the gradient of `scale ×` the squared error of each position
/// `records[i]`, `i` in `ids`, to `w.grad`, and the squared errors to `w.loss`.
pub fn backprop(
    p: &[f32],
    s: Shape,
    loss: &Loss,
    records: &[Record],
    ids: &[u32],
    scale: f32,
    w: &mut Worker,
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA, checked just above; the function
        // is otherwise the portable one compiled for them.
        unsafe { backprop_avx2(p, s, loss, records, ids, scale, w) };
        return;
    }
    backprop_body(p, s, loss, records, ids, scale, w);
}

/// [`backprop`] without the AVX2 copy (for tests comparing the two).
pub fn backprop_portable(
    p: &[f32],
    s: Shape,
    loss: &Loss,
    records: &[Record],
    ids: &[u32],
    scale: f32,
    w: &mut Worker,
) {
    backprop_body(p, s, loss, records, ids, scale, w);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn backprop_avx2(
    p: &[f32],
    s: Shape,
    loss: &Loss,
    records: &[Record],
    ids: &[u32],
    scale: f32,
    w: &mut Worker,
) {
    backprop_body(p, s, loss, records, ids, scale, w);
}

#[inline(always)]
fn backprop_body(
    p: &[f32],
    s: Shape,
    loss: &Loss,
    records: &[Record],
    ids: &[u32],
    scale: f32,
    w: &mut Worker,
) {
    let h = s.hidden;
    let to_cp = SCALE / loss.k;
    for &i in ids {
        let f = features(&records[i as usize], s.buckets, &s.kings, loss);
        let o = forward(p, s, &f, &mut w.acc);
        let q = sigmoid(o * to_cp);
        let e = q - f.target;
        w.loss += (e * e) as f64;
        let g = 2.0 * e * q * (1.0 - q) * to_cp * scale;
        // The output layer, and the accumulators' gradient.
        let wo = s.out_w() + f.bucket * 2 * h;
        let out_w = &p[wo..][..2 * h];
        let grad_out = &mut w.grad[wo..][..2 * h];
        for (((a, ow), gw), d) in w
            .acc
            .iter()
            .zip(out_w)
            .zip(grad_out.iter_mut())
            .zip(w.dacc.iter_mut())
        {
            let c = clip(*a);
            *gw += g * c * c;
            // d(c²)/da = 2c inside (0, 1); c is 0 below it, and above it the
            // clip is flat.
            *d = if *a < 1.0 { 2.0 * g * c * *ow } else { 0.0 };
        }
        w.grad[s.out_b() + f.bucket] += g;
        if s.psqt {
            let rows = &mut w.grad[s.psqt_at()..];
            for k in 0..f.n {
                rows[f.us[k] as usize * s.buckets + f.bucket] += 0.5 * g;
                rows[f.them[k] as usize * s.buckets + f.bucket] -= 0.5 * g;
            }
        }
        let (d_us, d_them) = w.dacc.split_at(h);
        let (g_ft, rest) = w.grad.split_at_mut(s.inputs() * h);
        for ((b, x), y) in rest[..h].iter_mut().zip(d_us).zip(d_them) {
            *b += *x + *y;
        }
        for k in 0..f.n {
            let (ru, rt) = (f.us[k] as usize, f.them[k] as usize);
            add(&mut g_ft[ru * h..][..h], d_us);
            add(&mut g_ft[rt * h..][..h], d_them);
            for r in [ru, rt] {
                if !w.touched[r] {
                    w.touched[r] = true;
                    w.rows.push(r as u16);
                }
            }
        }
    }
}

/// The squared errors of `records`, summed.
pub fn loss_sum(p: &[f32], s: Shape, loss: &Loss, records: &[Record]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has AVX2 and FMA, checked just above.
        return unsafe { loss_sum_avx2(p, s, loss, records) };
    }
    loss_sum_body(p, s, loss, records)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn loss_sum_avx2(p: &[f32], s: Shape, loss: &Loss, records: &[Record]) -> f64 {
    loss_sum_body(p, s, loss, records)
}

#[inline(always)]
fn loss_sum_body(p: &[f32], s: Shape, loss: &Loss, records: &[Record]) -> f64 {
    let mut acc = vec![0.0; 2 * s.hidden];
    let to_cp = SCALE / loss.k;
    let mut sum = 0.0;
    for r in records {
        let f = features(r, s.buckets, &s.kings, loss);
        let e = sigmoid(forward(p, s, &f, &mut acc) * to_cp) - f.target;
        sum += (e * e) as f64;
    }
    sum
}

/// The loss of one position whose evaluation (from the side to move's side)
/// is `out` in the net's units (centipawns / [`SCALE`]).
pub fn loss_of(r: &Record, out: f32, loss: &Loss) -> f32 {
    let f = features(r, 1, &KingLayout::NONE, loss);
    let e = sigmoid(out * SCALE / loss.k) - f.target;
    e * e
}

/// The net's output for `r` (multiply by [`SCALE`] for centipawns, from the
/// side to move's side).
pub fn output(p: &[f32], s: Shape, r: &Record) -> f32 {
    let f = features(r, s.buckets, &s.kings, &Loss { wdl: 0.0, k: 400.0 });
    forward(p, s, &f, &mut vec![0.0; 2 * s.hidden])
}
