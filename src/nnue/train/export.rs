//! From the float net to the net file, and the engine's integer inference
//! written out plainly, to check the two against each other.

use super::Net;
use crate::attacks::Slider;
use crate::board::Board;
use crate::nnue::features::{bucket, View};
use crate::nnue::file::{NetFile, PSQT_LIMIT, QA, QB, VERSION, VERSION_KINGS};
use crate::nnue::marlin::Record;
use crate::types::Square;

/// The float net quantised as the engine runs it: input weights and biases ×
/// `QA` (255) as `i16`, output weights × `QB` (64) as `i16`, output biases ×
/// `QA × QB` as `i32`, all rounded to the nearest; the PSQT weights (zeros
/// without the path) × `QA × QB` as `i32` too.
pub fn quantise(net: &Net) -> NetFile {
    let s = net.shape;
    let p = &net.params;
    let q16 = |x: &[f32], by: i32| -> Vec<i16> {
        x.iter()
            .map(|&v| {
                (v * by as f32)
                    .round()
                    .clamp(i16::MIN as f32, i16::MAX as f32) as i16
            })
            .collect()
    };
    let inputs = s.inputs();
    NetFile {
        // Version 3 only with king buckets: a net without them is the file it
        // always was.
        version: if s.kings.is_none() {
            VERSION
        } else {
            VERSION_KINGS
        },
        hidden: s.hidden,
        buckets: s.buckets,
        kings: s.kings,
        scale: super::kernel::SCALE as i32,
        ft_weights: q16(&p[..inputs * s.hidden], QA),
        ft_bias: q16(&p[inputs * s.hidden..s.out_w()], QA),
        out_weights: q16(&p[s.out_w()..s.out_b()], QB),
        out_bias: q32(&p[s.out_b()..s.psqt_at()]),
        psqt: if s.psqt {
            q32(&p[s.psqt_at()..])
        } else {
            vec![0; inputs * s.buckets]
        },
    }
}

/// The float net a net file holds: every weight divided by its scale (so
/// [`quantise`] gives the file back). A file whose PSQT weights are all zero
/// has no PSQT path.
///
/// A file whose output `SCALE` is not the trainer's (400 centipawns a unit) has
/// that ratio folded into what is linear in the output (output weights and
/// biases, PSQT weights), so that the float net evaluates as the file does:
/// a net rescaled by `docs/scripts/net-rescale.py` trains on at its new scale.
pub fn dequantise(file: &NetFile) -> Net {
    let shape = super::Shape {
        hidden: file.hidden,
        buckets: file.buckets,
        psqt: file.psqt.iter().any(|&w| w != 0),
        kings: file.kings,
    };
    // Division in f64 rounded once more to f32 is the f32 quotient itself
    // (f64 has more than twice f32's precision), so a file at the trainer's
    // scale still dequantises to the weights that quantise back to it.
    fn by<T: Copy + Into<f64>>(x: &[T], q: f64) -> impl Iterator<Item = f32> + '_ {
        x.iter().map(move |&w| (w.into() / q) as f32)
    }
    let rescale = file.scale as f64 / super::kernel::SCALE as f64;
    let out = (QA * QB) as f64 / rescale;
    let mut params: Vec<f32> = by(&file.ft_weights, QA as f64)
        .chain(by(&file.ft_bias, QA as f64))
        .chain(by(&file.out_weights, QB as f64 / rescale))
        .chain(by(&file.out_bias, out))
        .collect();
    if shape.psqt {
        params.extend(by(&file.psqt, out));
    }
    Net { shape, params }
}

/// Weights × `QA × QB` as `i32`, rounded, within the file's PSQT limit.
fn q32(x: &[f32]) -> Vec<i32> {
    x.iter()
        .map(|&v| ((v as f64 * (QA * QB) as f64).round() as i32).clamp(-PSQT_LIMIT, PSQT_LIMIT))
        .collect()
}

/// The engine's evaluation of `board` by the quantised net, in centipawns from
/// the side to move's side, as plain scalar code: `i16` accumulators (bias plus
/// one row an input of each side's king view, wrapping), `c = clamp(acc, 0, QA)`, the sum of `c² × w`
/// over both halves (`i32`, wrapping), then `(sum / QA + bias + psqt) × SCALE /
/// (QA × QB)` (integer division, towards zero), where `psqt` is the side to
/// move's PSQT sum less the other's, halved (towards zero).
pub fn evaluate_quantised<S: Slider>(net: &NetFile, board: &Board<S>) -> i32 {
    let h = net.hidden;
    let stm = board.side_to_move();
    let mut acc = [net.ft_bias.clone(), net.ft_bias.clone()];
    let mut psqt = [[0i64; crate::nnue::file::MAX_BUCKETS]; 2];
    let mut pieces = 0;
    let views = [stm, stm.flip()].map(|c| View::new(&net.kings, c, board.king_square(c)));
    for sq in (0..64).map(Square::new) {
        let Some(piece) = board.piece_on(sq) else {
            continue;
        };
        pieces += 1;
        for (view, side) in views.into_iter().enumerate() {
            let f = side.index(piece, sq);
            let row = &net.ft_weights[f * h..][..h];
            for (a, w) in acc[view].iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
            for (a, w) in psqt[view]
                .iter_mut()
                .zip(&net.psqt[f * net.buckets..][..net.buckets])
            {
                *a += *w as i64;
            }
        }
    }
    let b = bucket(pieces, net.buckets);
    let w = &net.out_weights[b * 2 * h..][..2 * h];
    let mut sum = 0i32;
    for (view, acc) in acc.iter().enumerate() {
        for (a, w) in acc.iter().zip(&w[view * h..][..h]) {
            let c = (*a).clamp(0, QA as i16) as i32;
            sum = sum.wrapping_add(c * c * *w as i32);
        }
    }
    let linear = (psqt[0][b] - psqt[1][b]) / 2;
    (((sum / QA) as i64 + net.out_bias[b] as i64 + linear) * net.scale as i64 / (QA * QB) as i64)
        as i32
}

/// The factor that fits `reference`'s evaluations to `net`'s, `reference ≈
/// factor × net` in least squares through the origin, over the positions of
/// `records` (at most [`SCALE_FIT_POSITIONS`] of them, evenly spread), with
/// the number it was fitted on: `docs/scripts/net-rescale.py --match`'s fit.
/// [`NetFile::rescaled`] by it, `net` evaluates at `reference`'s scale.
/// `None` if no record decodes, or `net` evaluates every one at zero.
pub fn scale_fit(net: &NetFile, reference: &NetFile, records: &[Record]) -> Option<(f64, usize)> {
    let step = records.len().div_ceil(SCALE_FIT_POSITIONS).max(1);
    let (mut xy, mut xx, mut n) = (0.0f64, 0.0f64, 0usize);
    for r in records.iter().step_by(step) {
        let Ok(board) = r.to_board::<crate::attacks::Magic>() else {
            continue;
        };
        let x = f64::from(evaluate_quantised(net, &board));
        let y = f64::from(evaluate_quantised(reference, &board));
        xy += x * y;
        xx += x * x;
        n += 1;
    }
    (xx > 0.0).then(|| (xy / xx, n))
}

/// The most positions [`scale_fit`] evaluates. Enough: for `g8b` the fit on
/// 92,853 validation positions and `net-rescale.py --match`'s on 300 FENs
/// differed by 1.6%. And cheap: the two nets' evaluations, the hand-written
/// evaluation's loss and the written net's took 1.8 s of a 140 s run.
pub const SCALE_FIT_POSITIONS: usize = 100_000;

/// The float net's evaluation of `board` in centipawns (from the side to
/// move's side), unrounded.
pub fn evaluate_float<S: Slider>(net: &Net, board: &Board<S>) -> f32 {
    let r = crate::nnue::marlin::Record::from_board(board, 0, 1);
    super::kernel::output(&net.params, net.shape, &r) * super::kernel::SCALE
}
