//! What a node teaches the thread's tables: killers, the countermove and the
//! histories after a cut-off, and the correction history after every store.

use super::{Evals, Worker};
use crate::paths::Engine;
use crate::search::history;
use crate::search::movepick::{captured_kind, is_noisy};
use crate::search::score::{MATE_IN_MAX, VALUE_NONE};
use crate::search::tt::Bound;
use crate::types::*;

impl<E: Engine> Worker<'_, E> {
    /// A cut-off by `best` at `ply`: reward it, and punish the moves tried
    /// before it (`quiets`, `captures`).
    pub(super) fn update_histories(
        &mut self,
        ply: usize,
        depth: i32,
        best: Move,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let bonus = history::bonus(depth);
        let us = self.board.side_to_move();
        if !is_noisy(&self.board, best) {
            // Killers (two slots, newest first) and the countermove.
            let f = self.stack.at_mut(ply);
            if f.killers[0] != best {
                f.killers[1] = f.killers[0];
                f.killers[0] = best;
            }
            let prev = self.stack.before(ply, 1);
            if let Some((piece, to)) = prev.moved() {
                self.data.histories.countermove[piece][to] = best;
            }
            self.update_quiet(ply, us, best, bonus);
            for &q in quiets {
                self.update_quiet(ply, us, q, -bonus);
            }
        } else {
            self.update_capture(best, bonus);
        }
        for &c in captures {
            self.update_capture(c, -bonus);
        }
    }

    fn update_quiet(&mut self, ply: usize, us: Color, m: Move, bonus: i32) {
        let piece = self.board.piece_on(m.from()).map_or(0, |p| p.index());
        self.update_quiet_of(ply, us, m, piece, bonus, bonus);
    }

    /// The quiet move `m` of `piece`, played by `side` from `ply`: `butterfly`
    /// to its butterfly entry and `cont` to its entries after the moves one
    /// and two plies before it. The histories index a move by the target
    /// square it names (for castling, the rook's), as the picker reads them.
    fn update_quiet_of(
        &mut self,
        ply: usize,
        side: Color,
        m: Move,
        piece: usize,
        butterfly: i32,
        cont: i32,
    ) {
        let to = m.to().index();
        let threat = history::threat_index(m, self.stack.at(ply).threats);
        let h = &mut self.data.histories;
        history::update(
            &mut h.butterfly[side.index()][threat][m.from().index()][to],
            butterfly,
        );
        for back in [1, 2] {
            let f = self.stack.before(ply, back);
            if let Some((prev_piece, prev_to)) = f.moved() {
                history::update(&mut h.continuation[prev_piece][prev_to][piece][to], cont);
            }
        }
    }

    /// A fail low at `ply` (not the root): the quiet move played into it (by
    /// the other side) gets a cut-off's bonus in its continuation histories
    /// and half of one in its butterfly history, as if it had been the best
    /// move of the node above. The board has played it, so its piece comes
    /// from the frame.
    pub(super) fn reward_prior_move(&mut self, ply: usize, depth: i32) {
        let prev = *self.stack.before(ply, 1);
        let Some((piece, _)) = prev.moved() else {
            return; // a null move
        };
        if prev.noisy {
            return;
        }
        let bonus = history::bonus(depth);
        let them = self.board.side_to_move().flip();
        self.update_quiet_of(ply - 1, them, prev.mv, piece, bonus / 2, bonus);
    }

    /// With `eval_diff_history`, the quiet move that led to `ply` judged by
    /// how the static evaluation moved across it (Stockfish's bonus from the
    /// evaluation's difference): `static_eval` is this node's, from the side to
    /// move, so the sum with the parent's is how much the move lost for its
    /// player; the loss is punished and a gain rewarded in the mover's
    /// butterfly entry. A move the parent searched in check, a capture, a
    /// promotion or a null move teaches nothing here.
    pub(super) fn reward_eval_diff(&mut self, ply: usize, static_eval: i32) {
        let prev = *self.stack.before(ply, 1);
        let Some((piece, _)) = prev.moved() else {
            return; // a null move
        };
        if prev.noisy || prev.static_eval == VALUE_NONE {
            return;
        }
        let p = &self.params;
        let bonus = (-p.eval_diff_scale * (prev.static_eval + static_eval))
            .clamp(-p.eval_diff_max, p.eval_diff_max);
        let them = self.board.side_to_move().flip();
        // The butterfly entry alone: the continuation histories get nothing.
        self.update_quiet_of(ply - 1, them, prev.mv, piece, bonus, 0);
    }

    fn update_capture(&mut self, m: Move, bonus: i32) {
        let Some(piece) = self.board.piece_on(m.from()) else {
            return;
        };
        let captured = captured_kind(&self.board, m).map_or(0, |k| k.index());
        history::update(
            &mut self.data.histories.capture[piece.index()][m.to().index()][captured],
            bonus,
        );
    }

    /// Correct the evaluation of this pawn structure where the search's score
    /// `best_score` says more than its `bound` allows about the static
    /// evaluation (a fail high above it, a fail low below it, or an exact
    /// score), and the best move is quiet (a capture's gain is the search's, not
    /// the position's). Not in check: there is no static evaluation there.
    pub(super) fn update_correction(
        &mut self,
        best_score: i32,
        bound: Bound,
        evals: Evals,
        best_move: Move,
        depth: i32,
        ply: usize,
    ) {
        let informative = match bound {
            Bound::Lower => best_score > evals.corrected,
            Bound::Upper => best_score < evals.corrected,
            _ => true,
        };
        if self.features.corr_history
            && informative
            && best_score.abs() < MATE_IN_MAX
            && (best_move.is_null() || !is_noisy(&self.board, best_move))
        {
            let (side, keys) = (self.board.side_to_move(), self.correction_keys(ply));
            self.data
                .histories
                .update_correction(side, keys, best_score - evals.raw, depth);
        }
    }
}
