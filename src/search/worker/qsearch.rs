//! Quiescence: captures (and every evasion in check) until the position is quiet,
//! so the horizon never cuts an exchange in half.
//!
//! At its first ply it can also search the quiet moves that give check
//! (`Feature_QSearchChecks`, as older Stockfish did): that finds more mates at the
//! horizon (Win At Chess at a fixed 1.6 M nodes: 286/300 against 283) but lost
//! about 28 Elo in games, so it is off by default.
//!
//! The steps' helpers are `#[inline(always)]`: quiescence is most of the tree's
//! nodes, and a call per node (or per move) would cost more than the split is
//! worth.

use super::{Evals, Worker};
use crate::board::CheckInfo;
use crate::paths::Engine;
use crate::search::movepick::{captured_kind, MovePicker, ORDER_VALUES};
use crate::search::params::*;
use crate::search::score::*;
use crate::search::tt::{Bound, TtHit};
use crate::types::*;
use std::ops::ControlFlow;

impl<E: Engine> Worker<'_, E> {
    /// Quiescence from `ply`; `checks` adds the quiet moves that give check after
    /// the captures (the main search asks for them at its horizon, never deeper).
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        if self.is_draw(ply) {
            return DRAW;
        }
        let in_check = self.board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.eval() };
        }

        // Step 1. Transposition table, with the main search's guard near the
        // fifty-move rule.
        let key = self.board.key();
        let tt_hit = self.shared.tt.probe(key, ply);
        if let Some(h) = tt_hit {
            if !PV && self.qsearch_tt_cuts(&h, alpha, beta, checks) {
                return h.score;
            }
        }
        let tt_move = tt_hit.map_or(Move::NULL, |h| h.mv);
        // On a principal variation now or once (see `TtHit::pv`): kept with
        // the entry, so the main search of this position at the next
        // iteration knows it.
        let tt_pv = PV || tt_hit.is_some_and(|h| h.pv);

        // Step 2. Stand pat: the side to move may decline every capture.
        let (evals, mut best_score) = if in_check {
            (Evals::NONE, -INFINITE)
        } else {
            let evals = match self.stand_pat(tt_hit, key, beta, tt_pv, ply) {
                ControlFlow::Continue(e) => e,
                ControlFlow::Break(v) => return v,
            };
            alpha = alpha.max(evals.best);
            (evals, evals.best)
        };

        // Step 3. Captures (all evasions in check), best first, then the quiet
        // checks if asked.
        // Quiet moves come only in check or with the checks: only then do
        // their threats matter.
        let threats = if self.features.threat_history && (in_check || checks) {
            self.board.threats::<E::Bits>()
        } else {
            0
        };
        let mut picker = MovePicker::new_qsearch(in_check, tt_move, checks, threats);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        let futility_base = if in_check {
            -INFINITE
        } else {
            evals.corrected + self.params.delta_margin
        };
        let mut check_info = None;
        loop {
            let cont = self.cont_tables(ply);
            let Some(m) = picker.next::<E>(&self.board, &self.data.histories, cont, |_, _| true)
            else {
                break;
            };
            move_count += 1;
            if best_score > -MATE_IN_MAX
                && !in_check
                && self.qsearch_prunes(m, alpha, futility_base, &mut check_info, &mut best_score)
            {
                continue;
            }
            let score = self.qsearch_child::<PV>(m, alpha, beta, ply);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        // Step 4. Checkmate.
        if in_check && move_count == 0 {
            return mated_in(ply);
        }

        // Step 5. Store. A PV node whose best move raised alpha knows the exact
        // value, as in the main search.
        let bound = Bound::of_search(best_score, beta, PV && !best_move.is_null());
        self.shared
            .tt
            .store(key, best_move, best_score, evals.raw, 0, bound, tt_pv, ply);
        best_score
    }

    /// Play `m` and search the position after it, from this node's side.
    #[inline(always)]
    fn qsearch_child<const PV: bool>(&mut self, m: Move, alpha: i32, beta: i32, ply: usize) -> i32 {
        if PV {
            self.pv_len[ply + 1] = ply + 1;
        }
        let undo = self.make(m, ply);
        let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1, false);
        self.unmake(m, &undo);
        score
    }

    /// Step 1's cut at a non-PV node: whether the hash entry `h` settles the
    /// window.
    #[inline(always)]
    fn qsearch_tt_cuts(&self, h: &TtHit, alpha: i32, beta: i32, checks: bool) -> bool {
        // With the quiet checks this node searches more moves than a plain
        // quiescence node, so a plain one's upper or exact bound does not
        // settle it; a lower bound does, as does a main-search entry.
        let settles = !checks || h.depth > 0 || h.bound == Bound::Lower;
        settles && self.board.halfmove_clock() < TT_CUT_HALFMOVE_LIMIT && h.cuts(alpha, beta)
    }

    /// Step 2, out of check: the node's evaluations, or (`Break`) the score to
    /// return when standing pat already reaches `beta`. A position evaluated
    /// afresh keeps that cut in the hash.
    #[inline(always)]
    fn stand_pat(
        &mut self,
        tt_hit: Option<TtHit>,
        key: u64,
        beta: i32,
        pv: bool,
        ply: usize,
    ) -> ControlFlow<i32, Evals> {
        let evals = self.evals(tt_hit, ply);
        let stand = evals.best;
        if stand >= beta {
            if tt_hit.is_none() {
                self.shared
                    .tt
                    .store(key, Move::NULL, stand, evals.raw, -1, Bound::Lower, pv, ply);
            }
            return ControlFlow::Break(stand);
        }
        ControlFlow::Continue(evals)
    }

    /// Step 3's pruning, out of check once a line that does not lose to mate is
    /// in hand: whether capture `m` is skipped. Delta pruning raises
    /// `best_score` to the bound it proved; `check_info` is made on first use.
    #[inline(always)]
    fn qsearch_prunes(
        &self,
        m: Move,
        alpha: i32,
        futility_base: i32,
        check_info: &mut Option<CheckInfo>,
        best_score: &mut i32,
    ) -> bool {
        // Delta pruning (Gk): even winning the piece outright cannot lift the
        // score to alpha.
        if self.features.delta_pruning {
            let gain = captured_kind(&self.board, m).map_or(0, |k| ORDER_VALUES[k.index()])
                + m.promotion_kind()
                    .map_or(0, |k| ORDER_VALUES[k.index()] - 100);
            let ci = *check_info.get_or_insert_with(|| self.board.check_info::<E::Bits>());
            if futility_base + gain <= alpha && !self.board.gives_check_with::<E::Bits>(m, &ci) {
                *best_score = (*best_score).max(futility_base + gain);
                return true;
            }
        }
        // SEE pruning: a capture that loses material.
        self.features.qsearch_see && !self.board.see_ge(m, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Worker;
    use crate::attacks::Magic;
    use crate::bits::Portable;
    use crate::board::Board;
    use crate::paths::Pair;
    use crate::search::score::{mate_in, MATE, MATE_IN_MAX, VALUE_NONE};
    use crate::search::tt::{Bound, TranspositionTable};
    use crate::search::{Control, Limits, Settings, Shared, ThreadData};
    use crate::types::Move;
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::time::Instant;

    type E = Pair<Portable, Magic>;

    /// Run `f` with a search thread at `fen` and its hash table.
    fn with_worker<R>(fen: &str, f: impl FnOnce(&mut Worker<E>, &TranspositionTable) -> R) -> R {
        let board = Board::<Magic>::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(1).unwrap();
        let control = Control::default();
        let (limits, settings) = (Limits::default(), Settings::default());
        let shared = Shared {
            tt: &tt,
            control: &control,
            limits: &limits,
            settings: &settings,
            start: Instant::now(),
            budget: None,
            nodes: vec![AtomicU64::new(0)],
            halted: AtomicBool::new(false),
            tb: Default::default(),
            tb_hits: AtomicU64::new(0),
        };
        let mut data = ThreadData::new();
        let mut w = Worker::<E>::new(0, &board, &[], &shared, &mut data, &|_| {});
        f(&mut w, &tt)
    }

    #[test]
    fn a_pv_node_that_raised_alpha_stores_an_exact_score() {
        // exd5 wins a pawn: inside the window, so the value is exact.
        let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        with_worker(fen, |w, tt| {
            let v = w.qsearch::<true>(-1000, 1000, 0, false);
            let hit = tt.probe(w.board.key(), 0).expect("stored");
            assert_eq!((hit.score, hit.bound), (v, Bound::Exact));
            assert_eq!(w.board.to_uci(hit.mv), "e4d5");
        });
    }

    #[test]
    fn the_first_ply_finds_a_mate_by_a_quiet_check_only_when_asked() {
        // Ra8 is mate: no capture, so plain quiescence stands pat.
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        with_worker(fen, |w, _| {
            let v = w.qsearch::<true>(-1000, MATE, 0, true);
            assert_eq!(v, mate_in(1));
            assert_eq!(w.board.to_uci(w.pv[0][0]), "a1a8");
        });
        with_worker(fen, |w, _| {
            let v = w.qsearch::<true>(-1000, MATE, 0, false);
            assert!(
                v < MATE_IN_MAX,
                "plain quiescence searched a quiet move: {v}"
            );
        });
    }

    #[test]
    fn a_plain_quiescence_bound_does_not_settle_a_node_with_checks() {
        // An upper bound stored by a plain quiescence node says nothing of Ra8#.
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        with_worker(fen, |w, tt| {
            tt.store(
                w.board.key(),
                Move::NULL,
                0,
                VALUE_NONE,
                0,
                Bound::Upper,
                false,
                0,
            );
            // A window above the stand-pat score, so the moves would be searched.
            assert_eq!(w.qsearch::<false>(2000, 2001, 0, false), 0);
            assert_eq!(w.qsearch::<false>(2000, 2001, 0, true), mate_in(1));
        });
    }

    #[test]
    fn near_the_fifty_move_rule_the_hash_does_not_cut() {
        // A stored upper bound far below the window would cut; 95 plies into the
        // fifty, the same position may be another matter (here Rxa2 wins a queen).
        let fen = "4k3/8/8/8/8/8/q7/R3K3 w - - 95 80";
        with_worker(fen, |w, tt| {
            let key = w.board.key();
            tt.store(key, Move::NULL, -900, VALUE_NONE, 0, Bound::Upper, false, 0);
            let v = w.qsearch::<false>(-800, -799, 0, false);
            assert!(v > -800, "the stale bound cut: {v}");
        });
    }
}
