//! The tuner behind `brokkr tune`: a Texel-style logistic fit of every weight.
//!
//! Each labelled position is evaluated once with a [`CoefTrace`], which records
//! how many times each weight was applied for each side. The evaluation is linear
//! in all weights but the king-danger ones, which go through
//! `king::danger_penalty`; the tuner keeps their counts
//! apart and applies the same function. So the model the tuner fits *is* the
//! evaluation (up to integer rounding), and its gradient is exact.
//!
//! The loss is the mean squared error between `sigmoid(K * eval)` and the label
//! `lambda * result + (1 - lambda) * sigmoid_elo(score)`. K is fitted first (with
//! the starting weights), then the weights by Adam on shuffled mini-batches.

use super::king::{DANGER_EG_DIVISOR, DANGER_MG_DIVISOR};
use super::params::{self, is_danger, COUNT, DANGER_ATTACKER};
use super::trace::Trace;
use super::weights::WEIGHTS;
use super::{evaluate_white, Terms, PHASE_MAX, SCALE_NORMAL};
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::types::Color;
use std::fmt::Write as _;

/// Number of king-danger weights (a contiguous range of the layout).
const DANGER: usize = params::BISHOP_PAIR - DANGER_ATTACKER;

/// The coefficients of one evaluation: per weight, White's count minus Black's;
/// per side, the counts of its king-danger weights.
#[derive(Clone, Debug)]
pub struct CoefTrace {
    /// Linear weights: White's applications minus Black's.
    pub linear: Vec<i32>,
    /// King-danger counts by attacking side.
    pub danger: [[i32; DANGER]; 2],
    /// Whether each side's danger was computed at all.
    pub danger_on: [bool; 2],
}

impl Default for CoefTrace {
    fn default() -> Self {
        CoefTrace {
            linear: vec![0; COUNT],
            danger: [[0; DANGER]; 2],
            danger_on: [false; 2],
        }
    }
}

impl Trace for CoefTrace {
    const ON: bool = true;

    fn weight(&mut self, color: Color, idx: usize, count: i32) {
        self.linear[idx] += if color == Color::White { count } else { -count };
    }

    fn danger(&mut self, color: Color, idx: usize, count: i32) {
        self.danger[color.index()][idx - DANGER_ATTACKER] += count;
        self.danger_on[color.index()] = true;
    }
}

/// One position as the tuner sees it.
#[derive(Clone, Copy, Debug)]
struct Position {
    /// Its coefficients: `coefs[start..start + len]`.
    start: u32,
    len: u16,
    phase: u8,
    /// The endgame scale when the endgame sum favours White, and when Black: the
    /// model picks by its own sign, so nothing depends on the compiled weights.
    scales: [u8; 2],
    /// Index into the danger table, or `u32::MAX` when no side had danger.
    danger: u32,
    label: f32,
    /// The evaluation's own value (to check the model against it).
    value: i32,
}

/// The extracted data set.
#[derive(Default)]
pub struct Data {
    positions: Vec<Position>,
    coefs: Vec<(u16, i16)>,
    dangers: Vec<[[i16; DANGER]; 2]>,
    /// Positions a special endgame rule valued (left out: no weight acts on them).
    pub special: usize,
}

/// One labelled line, parsed.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The FEN.
    pub fen: String,
    /// The search score in centipawns, from White's side.
    pub score: i32,
    /// The game result from White's side: 0, 0.5 or 1.
    pub result: f32,
    /// The full-move number (a drop marks a new game).
    pub fullmove: u32,
}

/// Parse `FEN | score | result`; the error says what is wrong (without the line
/// number, which the caller adds).
pub fn parse_line<Sl: Slider>(line: &str) -> Result<(Sample, Board<Sl>), String> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = parts[..] else {
        return Err(format!(
            "expected `FEN | score | result`, found {} field(s)",
            parts.len()
        ));
    };
    let board = Board::<Sl>::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let score = score
        .parse::<i32>()
        .ok()
        .filter(|s| s.abs() <= 100_000)
        .ok_or_else(|| format!("bad score '{score}': expected centipawns, |score| <= 100000"))?;
    let result = match result {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        other => return Err(format!("bad result '{other}': expected 1.0, 0.5 or 0.0")),
    };
    let sample = Sample {
        fen: fen.to_string(),
        score,
        result,
        fullmove: board.fullmove_number(),
    };
    Ok((sample, board))
}

/// The expected score of a search score in centipawns (the Elo curve: +400 cp is
/// ten to one).
pub fn score_to_prob(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-(cp as f64) / 400.0))
}

#[inline(always)]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Data {
    /// Extract the coefficients of `boards` (with their labels), with every term
    /// group on: the fit covers every weight, whatever groups play by default.
    /// Positions valued by a special rule are counted and left out.
    pub fn extract<B: Bits, Sl: Slider>(boards: &[(Board<Sl>, f32)]) -> Data {
        let mut d = Data::default();
        let mut t = CoefTrace::default();
        for (board, label) in boards {
            t.linear.fill(0);
            t.danger = [[0; DANGER]; 2];
            t.danger_on = [false; 2];
            let e = evaluate_white::<B, Sl, _>(board, None, Terms::ALL, &mut t);
            if e.special {
                d.special += 1;
                continue;
            }
            let start = d.coefs.len() as u32;
            for (i, &c) in t.linear.iter().enumerate() {
                if c != 0 {
                    d.coefs.push((i as u16, c as i16));
                }
            }
            let danger = if t.danger_on.iter().any(|&b| b) {
                let mut row = [[0i16; DANGER]; 2];
                for (side, counts) in t.danger.iter().enumerate() {
                    for (j, &n) in counts.iter().enumerate() {
                        row[side][j] = n as i16;
                    }
                }
                d.dangers.push(row);
                (d.dangers.len() - 1) as u32
            } else {
                u32::MAX
            };
            d.positions.push(Position {
                start,
                len: (d.coefs.len() as u32 - start) as u16,
                phase: e.phase as u8,
                scales: [
                    super::endgame::scale::<B, Sl>(board, 1) as u8,
                    super::endgame::scale::<B, Sl>(board, -1) as u8,
                ],
                danger,
                label: *label,
                value: e.value,
            });
        }
        d
    }

    /// Append `other` (extracted on another thread).
    pub fn append(&mut self, other: Data) {
        let base = self.coefs.len() as u32;
        let dbase = self.dangers.len() as u32;
        self.coefs.extend_from_slice(&other.coefs);
        self.dangers.extend_from_slice(&other.dangers);
        self.special += other.special;
        self.positions
            .extend(other.positions.into_iter().map(|mut p| {
                p.start += base;
                if p.danger != u32::MAX {
                    p.danger += dbase;
                }
                p
            }));
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// The weights as the tuner holds them: `[mg, eg]` per weight, in floating point.
pub type Weights = Vec<[f64; 2]>;

/// The compiled weights, as the starting point.
pub fn current_weights() -> Weights {
    WEIGHTS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect()
}

/// The weights written in a `weights.rs` (as [`weights_source`] writes it): the
/// `S(mg, eg)` entries of its `WEIGHTS` array, group by group after each group's
/// `// NAME` comment. A group the file does not have (the layout grew) starts at
/// zero and is named in the second part of the answer; a group of the wrong
/// length or an unknown one is an error.
pub fn parse_weights(text: &str) -> Result<(Weights, Vec<&'static str>), String> {
    let start = text
        .find("pub const WEIGHTS")
        .ok_or("no `pub const WEIGHTS` array")?;
    let body = &text[start..];
    let body = &body[body.find('=').ok_or("no `=` after WEIGHTS")?..];
    let end = body
        .find("];")
        .ok_or("the WEIGHTS array is not closed with `];`")?;
    let mut found: Vec<(&str, Vec<[f64; 2]>)> = Vec::new();
    for line in body[..end].lines().map(str::trim) {
        if let Some(name) = line.strip_prefix("//") {
            found.push((name.trim(), Vec::new()));
            continue;
        }
        for cell in line.split("S(").skip(1) {
            let inner = cell.split(')').next().unwrap_or("");
            let bad = || format!("bad weight 'S({inner})'");
            let nums: Vec<i32> = inner
                .split(',')
                .map(|v| v.trim().parse::<i32>().map_err(|_| bad()))
                .collect::<Result<_, _>>()?;
            let [mg, eg] = nums[..] else {
                return Err(bad());
            };
            let (_, group) = found
                .last_mut()
                .ok_or("a weight before the first `// GROUP` comment")?;
            group.push([mg as f64, eg as f64]);
        }
    }
    let mut w = vec![[0.0; 2]; COUNT];
    let mut missing = Vec::new();
    for &(name, first, len) in params::GROUPS {
        match found.iter().find(|(n, _)| *n == name) {
            Some((_, values)) if values.len() == len => {
                w[first..first + len].copy_from_slice(values)
            }
            Some((_, values)) => {
                return Err(format!(
                    "group {name} has {} weights, expected {len}",
                    values.len()
                ))
            }
            None => missing.push(name),
        }
    }
    if let Some((name, _)) = found
        .iter()
        .find(|(n, _)| !params::GROUPS.iter().any(|g| g.0 == *n))
    {
        return Err(format!("unknown group '{name}'"));
    }
    Ok((w, missing))
}

/// The model's value for White of position `p` under `w`, and the parts the
/// gradient needs: (value, d value / d mg-sum, d value / d eg-sum).
#[inline]
fn model(d: &Data, p: &Position, w: &Weights) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &d.coefs[p.start as usize..p.start as usize + p.len as usize] {
        let wi = &w[i as usize];
        mg += wi[0] * c as f64;
        eg += wi[1] * c as f64;
    }
    if p.danger != u32::MAX {
        let row = &d.dangers[p.danger as usize];
        for (side, sign) in [(0, 1.0), (1, -1.0)] {
            let (dm, de) = danger_sums(&row[side], w);
            // The attacker's danger is a penalty for the defender: + for White
            // attacking, - for Black attacking.
            mg += sign * dm.max(0.0).powi(2) / DANGER_MG_DIVISOR as f64;
            eg += sign * de.max(0.0) / DANGER_EG_DIVISOR as f64;
        }
    }
    let ph = p.phase as f64 / PHASE_MAX as f64;
    let scale = if eg > 0.0 { p.scales[0] } else { p.scales[1] };
    let es = scale as f64 / SCALE_NORMAL as f64;
    let dmg = ph;
    let deg = (1.0 - ph) * es;
    (mg * dmg + eg * deg, dmg, deg)
}

/// The danger of one attacking side (`[mg, eg]` sums) under `w`.
#[inline]
fn danger_sums(counts: &[i16; DANGER], w: &Weights) -> (f64, f64) {
    let (mut m, mut e) = (0.0, 0.0);
    for (j, &n) in counts.iter().enumerate() {
        if n != 0 {
            m += w[DANGER_ATTACKER + j][0] * n as f64;
            e += w[DANGER_ATTACKER + j][1] * n as f64;
        }
    }
    (m, e)
}

/// Add `scale * d value / d w` for position `p` into `grad`.
#[inline]
fn add_gradient(
    d: &Data,
    p: &Position,
    w: &Weights,
    dmg: f64,
    deg: f64,
    scale: f64,
    grad: &mut [[f64; 2]],
) {
    let (gm, ge) = (scale * dmg, scale * deg);
    for &(i, c) in &d.coefs[p.start as usize..p.start as usize + p.len as usize] {
        let g = &mut grad[i as usize];
        g[0] += gm * c as f64;
        g[1] += ge * c as f64;
    }
    if p.danger != u32::MAX {
        let row = &d.dangers[p.danger as usize];
        for (side, sign) in [(0, 1.0), (1, -1.0)] {
            let (dm, de) = danger_sums(&row[side], w);
            let fm = if dm > 0.0 {
                sign * 2.0 * dm / DANGER_MG_DIVISOR as f64
            } else {
                0.0
            };
            let fe = if de > 0.0 {
                sign / DANGER_EG_DIVISOR as f64
            } else {
                0.0
            };
            for (j, &n) in row[side].iter().enumerate() {
                if n != 0 {
                    let g = &mut grad[DANGER_ATTACKER + j];
                    g[0] += gm * fm * n as f64;
                    g[1] += ge * fe * n as f64;
                }
            }
        }
    }
}

/// Mean squared error of `sigmoid(k * model)` against the labels, on `threads` threads.
pub fn loss(d: &Data, w: &Weights, k: f64, threads: usize) -> f64 {
    if d.is_empty() {
        return 0.0;
    }
    let chunk = d.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = d
            .positions
            .chunks(chunk)
            .map(|ps| {
                s.spawn(move || {
                    ps.iter()
                        .map(|p| {
                            let e = sigmoid(k * model(d, p, w).0) - p.label as f64;
                            e * e
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / d.len() as f64
}

/// The largest difference, in centipawns, between the model under the compiled
/// weights and the evaluation's own value (integer rounding only; more means the
/// trace and the evaluation disagree).
pub fn model_error(d: &Data) -> f64 {
    let w = current_weights();
    d.positions
        .iter()
        .map(|p| {
            let v = model(d, p, &w)
                .0
                .clamp(-(super::MAX_EVAL as f64), super::MAX_EVAL as f64);
            (v - p.value as f64).abs()
        })
        .fold(0.0, f64::max)
}

/// The K that minimises the loss under `w` (golden-section search; the loss is
/// unimodal in K).
pub fn fit_k(d: &Data, w: &Weights, threads: usize) -> f64 {
    let (mut a, mut b) = (1e-4, 0.05);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut e = a + g * (b - a);
    let (mut fc, mut fe) = (loss(d, w, c, threads), loss(d, w, e, threads));
    for _ in 0..40 {
        if fc < fe {
            b = e;
            e = c;
            fe = fc;
            c = b - g * (b - a);
            fc = loss(d, w, c, threads);
        } else {
            a = c;
            c = e;
            fc = fe;
            e = a + g * (b - a);
            fe = loss(d, w, e, threads);
        }
    }
    (a + b) / 2.0
}

/// Adam's state and settings.
pub struct Adam {
    /// Step size in centipawns.
    pub rate: f64,
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
    t: i32,
}

impl Adam {
    /// A fresh optimiser with step size `rate`.
    pub fn new(rate: f64) -> Adam {
        Adam {
            rate,
            m: vec![[0.0; 2]; COUNT],
            v: vec![[0.0; 2]; COUNT],
            t: 0,
        }
    }

    fn step(&mut self, w: &mut Weights, grad: &[[f64; 2]]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..COUNT {
            for ph in 0..2 {
                let g = grad[i][ph];
                self.m[i][ph] = B1 * self.m[i][ph] + (1.0 - B1) * g;
                self.v[i][ph] = B2 * self.v[i][ph] + (1.0 - B2) * g * g;
                let mh = self.m[i][ph] / c1;
                let vh = self.v[i][ph] / c2;
                w[i][ph] -= self.rate * mh / (vh.sqrt() + 1e-8);
            }
        }
    }
}

/// One pass over `order` (indices into `d`) in mini-batches of `batch`, each
/// gradient summed on `threads` threads.
pub fn epoch(
    d: &Data,
    order: &[u32],
    w: &mut Weights,
    k: f64,
    batch: usize,
    threads: usize,
    adam: &mut Adam,
) {
    for ids in order.chunks(batch.max(1)) {
        let chunk = ids.len().div_ceil(threads.max(1));
        let weights: &Weights = w;
        let grads: Vec<Vec<[f64; 2]>> = std::thread::scope(|s| {
            let handles: Vec<_> = ids
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut g = vec![[0.0; 2]; COUNT];
                        for &i in part {
                            let p = &d.positions[i as usize];
                            let (v, dmg, deg) = model(d, p, weights);
                            let s = sigmoid(k * v);
                            let scale = 2.0 * (s - p.label as f64) * s * (1.0 - s) * k;
                            add_gradient(d, p, weights, dmg, deg, scale, &mut g);
                        }
                        g
                    })
                })
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        let mut grad = vec![[0.0; 2]; COUNT];
        for g in &grads {
            for (a, b) in grad.iter_mut().zip(g) {
                a[0] += b[0];
                a[1] += b[1];
            }
        }
        let n = ids.len() as f64;
        for g in grad.iter_mut() {
            g[0] /= n;
            g[1] /= n;
        }
        adam.step(w, &grad);
    }
}

/// A small deterministic generator for shuffling (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Shuffle `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// The hand-set rule values that `weights.rs` carries besides the fitted weights,
/// written back unchanged: (name, value, doc).
const FIXED: &[(&str, i32, &str)] = {
    use super::weights::*;
    &[
        (
            "KNOWN_WIN",
            KNOWN_WIN,
            "The value of a won ending settled by rule (before progress bonuses).",
        ),
        (
            "KBNK_CORNER",
            KBNK_CORNER,
            "KBNK: per step the lone king is nearer the right corner.",
        ),
        (
            "KBNK_KINGS",
            KBNK_KINGS,
            "KBNK: per step the kings are nearer each other.",
        ),
        ("KPK_WIN", KPK_WIN, "KPK won by rule."),
        (
            "KPK_RANK",
            KPK_RANK,
            "KPK won by rule: per rank the pawn has advanced.",
        ),
        ("KRKP_WIN", KRKP_WIN, "KRKP won by rule."),
        ("KRKP_DRAWISH", KRKP_DRAWISH, "KRKP not settled by rule."),
        (
            "KRKP_DISTANCE",
            KRKP_DISTANCE,
            "KRKP: per step of king distance.",
        ),
        (
            "SCALE_NO_PAWNS",
            SCALE_NO_PAWNS,
            "Scale (of 64) with no pawns and at most a minor more.",
        ),
        (
            "SCALE_OPPOSITE_BISHOPS_CLOSE",
            SCALE_OPPOSITE_BISHOPS_CLOSE,
            "Scale of opposite-coloured bishops alone, at most a pawn apart.",
        ),
        (
            "SCALE_OPPOSITE_BISHOPS",
            SCALE_OPPOSITE_BISHOPS,
            "Scale of opposite-coloured bishops alone, more pawns apart.",
        ),
        (
            "SCALE_OPPOSITE_BISHOPS_PIECES",
            SCALE_OPPOSITE_BISHOPS_PIECES,
            "Scale of opposite-coloured bishops with other pieces.",
        ),
        (
            "SCALE_ONE_PAWN",
            SCALE_ONE_PAWN,
            "Scale of one pawn up with a rook or minor each and no other pawns.",
        ),
    ]
};

/// The source of `weights.rs` for weights `w` (rounded), made by `command`.
pub fn weights_source(w: &Weights, command: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The evaluation's weights, indexed by `super::params`."
    );
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! generated by `{command}` — do not edit");
    let _ = writeln!(out);
    let _ = writeln!(out, "use super::params::COUNT;");
    let _ = writeln!(out, "use super::score::S;");
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "/// Every tunable weight, `S(middlegame, endgame)` in centipawns."
    );
    let _ = writeln!(out, "#[rustfmt::skip]");
    let _ = writeln!(out, "pub const WEIGHTS: [S; COUNT] = [");
    for &(name, first, len) in params::GROUPS {
        let _ = writeln!(out, "    // {name}");
        for row in (first..first + len).collect::<Vec<_>>().chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|&i| format!("S({}, {}),", w[i][0].round() as i32, w[i][1].round() as i32))
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "// Hand-set rule values (not fitted: they belong to exact endgame rules)."
    );
    for &(name, value, doc) in FIXED {
        let _ = writeln!(out);
        let _ = writeln!(out, "/// {doc}");
        let _ = writeln!(out, "pub const {name}: i32 = {value};");
    }
    out
}

/// Whether weight `i` is king danger (for reports).
pub fn is_danger_weight(i: usize) -> bool {
    is_danger(i)
}
