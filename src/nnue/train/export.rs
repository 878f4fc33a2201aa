//! From the float net to the net file, and the engine's integer inference
//! written out plainly, to check the two against each other.

use super::Net;
use crate::attacks::Slider;
use crate::board::Board;
use crate::codegen::net::{NetFile, QA, QB};
use crate::nnue::features::{bucket, index, INPUTS};
use crate::types::Square;

/// The float net quantised as the engine runs it: input weights and biases ×
/// `QA` (255) as `i16`, output weights × `QB` (64) as `i16`, output biases ×
/// `QA × QB` as `i32`, all rounded to the nearest.
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
    NetFile {
        hidden: s.hidden,
        buckets: s.buckets,
        scale: super::kernel::SCALE as i32,
        ft_weights: q16(&p[..INPUTS * s.hidden], QA),
        ft_bias: q16(&p[INPUTS * s.hidden..s.out_w()], QA),
        out_weights: q16(&p[s.out_w()..s.out_b()], QB),
        out_bias: p[s.out_b()..]
            .iter()
            .map(|&v| (v as f64 * (QA * QB) as f64).round() as i32)
            .collect(),
    }
}

/// The engine's evaluation of `board` by the quantised net, in centipawns from
/// the side to move's side, as plain scalar code: `i16` accumulators (bias plus
/// one row an input, wrapping), `c = clamp(acc, 0, QA)`, the sum of `c² × w`
/// over both halves (`i32`, wrapping), then `(sum / QA + bias) × SCALE / (QA ×
/// QB)` (integer division, towards zero).
pub fn evaluate_quantised<S: Slider>(net: &NetFile, board: &Board<S>) -> i32 {
    let h = net.hidden;
    let stm = board.side_to_move();
    let mut acc = [net.ft_bias.clone(), net.ft_bias.clone()];
    let mut pieces = 0;
    for sq in (0..64).map(Square::new) {
        let Some(piece) = board.piece_on(sq) else {
            continue;
        };
        pieces += 1;
        for (view, side) in [stm, stm.flip()].into_iter().enumerate() {
            let row = &net.ft_weights[index(side, piece, sq) * h..][..h];
            for (a, w) in acc[view].iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
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
    ((sum / QA + net.out_bias[b]) as i64 * net.scale as i64 / (QA * QB) as i64) as i32
}

/// The float net's evaluation of `board` in centipawns (from the side to
/// move's side), unrounded.
pub fn evaluate_float<S: Slider>(net: &Net, board: &Board<S>) -> f32 {
    let r = crate::nnue::marlin::Record::from_board(board, 0, 1);
    super::kernel::output(&net.params, net.shape, &r) * super::kernel::SCALE
}
