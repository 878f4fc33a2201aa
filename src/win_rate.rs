//! The win-rate model: the win/draw/loss chances a search score stands for, as
//! UCI's `wdl W D L` shows them (`UCI_ShowWDL`) and `brokkr eval` prints them.
//! Not the tablebases' WDL (that is `syzygy`): this one is a fitted curve.
//!
//! May not touch: the front ends (`frontend`, `protocol`, `cli`) and `measure` (the layers: docs/architecture.md).
//!
//! The model is a logistic curve in the score whose position and slope depend on
//! the material left on the board (the idea of Stockfish's model since 15.1;
//! the form, the data and the fit here are brokkr's own):
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
//! P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! `s` is the score in centipawns from the side to move's point of view, `m`
//! the material (pawn 1, knight and bishop 3, rook 5, queen 9, both sides)
//! clamped to [`MATERIAL_MIN`]..=[`MATERIAL_MAX`], and `a`, `b` cubic
//! polynomials in `x = m / MATERIAL_SCALE`. `a(m)` is the score at which a win
//! is as likely as not; `b(m)` how quickly the chances change around it.
//!
//! The coefficients [`MODEL`] were fitted by `brokkr wdlfit` on brokkr's own
//! self-play (`brokkr datagen`) positions; `docs/wdl.md` has the command, the
//! data and the calibration on held-out games.

use crate::attacks::Slider;
use crate::board::Board;
use crate::search::Score;
use crate::types::PieceKind;

/// The smallest material the model distinguishes (less counts as this much).
pub const MATERIAL_MIN: i32 = 3;
/// The largest material the model distinguishes (the start position's 78).
pub const MATERIAL_MAX: i32 = 78;
/// The material that is `x = 1` in the polynomials.
pub const MATERIAL_SCALE: f64 = 58.0;

/// A win/draw/loss model: the coefficients of `a` and `b`, constant term first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// `a(x) = a[0] + a[1] x + a[2] x² + a[3] x³`, in centipawns.
    pub a: [f64; 4],
    /// `b(x)`, likewise.
    pub b: [f64; 4],
}

/// The fitted model (see `docs/wdl.md` for the fit): `brokkr wdlfit --data
/// gen0-hce-n5000.txt --max-lines 3000000` (29,564 games, 2,331,103 positions
/// fitted; 7,390 games held out).
pub const MODEL: Model = Model {
    a: [727.348, -2368.624, 2820.446, -1066.944],
    b: [287.593, -929.221, 1245.287, -484.416],
};

/// The material counted by the model: pawns 1, knights and bishops 3, rooks 5,
/// queens 9, both sides together (kings not counted).
pub fn material<S: Slider>(board: &Board<S>) -> i32 {
    let count = |k: PieceKind| board.kind_bb(k).count_ones() as i32;
    count(PieceKind::Pawn)
        + 3 * (count(PieceKind::Knight) + count(PieceKind::Bishop))
        + 5 * count(PieceKind::Rook)
        + 9 * count(PieceKind::Queen)
}

/// The material of a FEN's piece-placement field (its first word), counted as
/// [`material`] counts it; other characters are ignored.
pub fn material_of_placement(placement: &str) -> i32 {
    placement
        .bytes()
        .map(|c| match c.to_ascii_lowercase() {
            b'p' => 1,
            b'n' | b'b' => 3,
            b'r' => 5,
            b'q' => 9,
            _ => 0,
        })
        .sum()
}

/// `c[0] + c[1] x + c[2] x² + c[3] x³`.
fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

/// `1 / (1 + e^-z)`.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl Model {
    /// `a` and `b` at `material` (clamped to the model's range). `b` is kept at
    /// 1 cp or more, so the chances always change the right way with the score.
    pub fn params(&self, material: i32) -> (f64, f64) {
        let x = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_SCALE;
        (cubic(&self.a, x), cubic(&self.b, x).max(1.0))
    }

    /// The chances of a win, a draw and a loss for the side whose score is `cp`
    /// centipawns, with `material` on the board. They sum to 1.
    pub fn probabilities(&self, cp: f64, material: i32) -> [f64; 3] {
        let (a, b) = self.params(material);
        let (w, l) = probabilities_ab(cp, a, b);
        [w, (1.0 - w - l).max(0.0), l]
    }

    /// The chances in per mille, `[win, draw, loss]`, summing to 1000. The win
    /// and the loss are rounded the same way, so that the score's negation gives
    /// the same numbers reversed.
    pub fn per_mille(&self, cp: i32, material: i32) -> [u32; 3] {
        let (a, b) = self.params(material);
        let (w, l) = probabilities_ab(f64::from(cp), a, b);
        let mut w = (w * 1000.0).round() as u32;
        let mut l = (l * 1000.0).round() as u32;
        // A curve whose a(m) is below zero may give w + l above 1: shave both
        // the same way (never seen with the fitted model).
        if w + l > 1000 {
            let over = w + l - 1000;
            let (cut_w, cut_l) = (over.div_ceil(2), over / 2);
            if w >= l {
                (w, l) = (w - cut_w, l - cut_l);
            } else {
                (w, l) = (w - cut_l, l - cut_w);
            }
        }
        [w, 1000 - w - l, l]
    }

    /// The chances of a protocol score (side to move's view) in per mille: a
    /// mate found is `1000 0 0`, a mate against is `0 0 1000`.
    pub fn of_score(&self, score: Score, material: i32) -> [u32; 3] {
        match score {
            Score::Cp(cp) => self.per_mille(cp, material),
            Score::Mate(m) if m > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
        }
    }
}

/// The win and loss chances of the curve with `a` and `b` at `cp`.
pub fn probabilities_ab(cp: f64, a: f64, b: f64) -> (f64, f64) {
    (sigmoid((cp - a) / b), sigmoid((-cp - a) / b))
}

/// [`Model::of_score`] with the fitted [`MODEL`] and `board`'s material.
pub fn wdl<S: Slider>(score: Score, board: &Board<S>) -> [u32; 3] {
    MODEL.of_score(score, material(board))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;

    #[test]
    fn the_start_position_has_78() {
        assert_eq!(material(&Board::<Magic>::startpos()), 78);
        assert_eq!(
            material_of_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            78
        );
        assert_eq!(material_of_placement("8/8/4k3/8/8/3RK3/8/8"), 5);
    }

    #[test]
    fn per_mille_sums_to_1000_is_monotonic_and_symmetric() {
        for m in [0, 10, 17, 30, 50, 78, 90] {
            let mut last = MODEL.per_mille(-5000, m);
            for cp in -5000..=5000 {
                let wdl = MODEL.per_mille(cp, m);
                assert_eq!(wdl.iter().sum::<u32>(), 1000, "{cp} {m}");
                assert!(wdl[0] >= last[0] && wdl[2] <= last[2], "{cp} {m}");
                let r = MODEL.per_mille(-cp, m);
                assert_eq!([r[2], r[1], r[0]], wdl, "{cp} {m}");
                last = wdl;
            }
            assert_eq!(MODEL.per_mille(5000, m), [1000, 0, 0]);
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(MODEL.of_score(Score::Mate(3), 40), [1000, 0, 0]);
        assert_eq!(MODEL.of_score(Score::Mate(-2), 40), [0, 0, 1000]);
        assert_eq!(MODEL.of_score(Score::Mate(0), 40), [0, 0, 1000]);
    }

    #[test]
    fn a_badly_shaped_curve_still_sums_to_1000() {
        let m = Model {
            a: [-300.0, 0.0, 0.0, 0.0],
            b: [50.0, 0.0, 0.0, 0.0],
        };
        for cp in -1000..=1000 {
            let wdl = m.per_mille(cp, 40);
            assert_eq!(wdl.iter().sum::<u32>(), 1000);
            let r = m.per_mille(-cp, 40);
            assert_eq!([r[2], r[1], r[0]], wdl);
        }
    }
}
