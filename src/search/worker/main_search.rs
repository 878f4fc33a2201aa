//! The main search: principal-variation alpha-beta with the hash, pruning,
//! extensions and late-move reductions, in numbered steps.
//!
//! Each step has one `// Step N.` comment, in order, in `search` or in the
//! helper it calls (whose doc names the step); steps 2 to 11 have Stockfish's
//! numbers. `search` stays one function, long as it is, so the steps read in
//! order in one place.

use super::stack::Frame;
use super::{Evals, Worker};
use crate::board::NO_PIECE;
use crate::paths::Engine;
use crate::search::movepick::{cont_score, is_noisy, MovePicker};
use crate::search::params::*;
use crate::search::score::*;
use crate::search::tt::{Bound, TtHit};
use crate::search::Event;
use crate::types::*;

/// With `CutoffCount`, the children's cut-offs (see `Frame::cutoffs`) past
/// which a late move is reduced a ply more: Stockfish's figure.
const CUTOFF_COUNT_MIN: u32 = 3;

impl<E: Engine> Worker<'_, E> {
    /// The main search of the node at `ply`, in its window and to `depth`.
    /// Long on purpose (see the module's doc): its steps read in order here,
    /// each step's details in its helper.
    pub(super) fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let root = ply == 0;

        // Step 1. Quiescence at the horizon.
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, self.features.qsearch_checks);
        }
        depth = depth.min(MAX_PLY as i32 - 1);
        if PV {
            self.pv_len[ply] = ply;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        let in_check = self.board.in_check();

        if !root {
            // Step 2. Draws, and the ply limit.
            if self.is_draw(ply) {
                return DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { DRAW } else { self.eval() };
            }
            // Step 3. Mate-distance pruning: no line here can beat a shorter mate
            // already found.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Transposition table. Near the fifty-move rule a stored score
        // may no longer hold (the same position can now be a draw).
        let excluded = self.stack.at(ply).excluded;
        let key = self.board.key();
        let tt_hit = if excluded.is_null() {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            tt_hit.map_or(Move::NULL, |h| h.mv)
        };
        // On a principal variation now or once (Stockfish's `ttPv`; see
        // `TtHit::pv`). The singular search, at this ply with a move excluded,
        // keeps the node's own flag.
        let tt_pv = if excluded.is_null() {
            PV || tt_hit.is_some_and(|h| h.pv)
        } else {
            self.stack.at(ply).tt_pv
        };
        self.stack.at_mut(ply).tt_pv = tt_pv;
        if let Some(h) = tt_hit {
            if !PV
                && h.depth >= depth
                && self.board.halfmove_clock() < TT_CUT_HALFMOVE_LIMIT
                && h.cuts(alpha, beta)
            {
                return h.score;
            }
        }

        // Step 5. Tablebase probe (Stockfish's): with few enough pieces, just
        // after a zeroing move (WDL assumes a fresh fifty-move count) and
        // without castling rights, the tables' result stands for the search
        // (see `Worker::probe_tb`). A draw, or a bound that settles the window
        // already, returns at once and goes to the hash 6 plies deeper than
        // searched; otherwise on a PV node it bounds the search's score.
        let mut max_score = INFINITE;
        let mut tb_floor = None;
        if !root && excluded.is_null() {
            if let Some((v, bound)) = self.probe_tb(depth, ply) {
                let settles = match bound {
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    _ => true,
                };
                if settles {
                    let d = (depth + 6).min(MAX_PLY as i32 - 1);
                    self.shared
                        .tt
                        .store(key, Move::NULL, v, VALUE_NONE, d, bound, tt_pv, ply);
                    return v;
                }
                if PV {
                    if bound == Bound::Lower {
                        tb_floor = Some(v);
                        alpha = alpha.max(v);
                    } else {
                        max_score = v;
                    }
                }
            }
        }

        // Step 6. Static evaluation (see `Worker::evals`). A position evaluated
        // afresh keeps its evaluation in the hash at once.
        let evals = if in_check {
            Evals::NONE
        } else {
            let e = self.evals(tt_hit, ply);
            if tt_hit.is_none() && excluded.is_null() {
                self.shared.tt.store(
                    key,
                    Move::NULL,
                    VALUE_NONE,
                    e.raw,
                    -8,
                    Bound::None,
                    tt_pv,
                    ply,
                );
            }
            e
        };
        let static_eval = evals.corrected;
        self.stack.at_mut(ply).static_eval = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
        if self.features.eval_diff_history && !in_check && excluded.is_null() {
            self.reward_eval_diff(ply, static_eval);
        }
        self.stack.after_mut(ply, 2).killers = [Move::NULL; 2];
        self.stack.after_mut(ply, 2).cutoffs = 0;
        if root {
            // No node two plies up clears the root's children's count: each
            // search of the root starts it afresh.
            self.stack.after_mut(ply, 1).cutoffs = 0;
        }
        // From here on the window's lower edge and the depth are `node.alpha`
        // and `node.depth`, where the pruning reads them.
        let mut node = Node {
            ply,
            depth,
            alpha,
            beta,
            cut_node,
            in_check,
            evals,
            improving,
        };

        // Steps 7-9. Whole-node pruning (`prune_node`).
        if !PV && !in_check && excluded.is_null() {
            if let Some(v) = self.prune_node(&node) {
                return v;
            }
        }

        // Step 10. Internal iterative reduction (where Gk, OliThink and Thor's Hammer
        // used internal iterative deepening): without a hash move, this node was not
        // searched before, so spend less on it now.
        if self.features.iir
            && !root
            && node.depth >= self.params.iir_min_depth
            && tt_move.is_null()
            && (PV || cut_node)
        {
            node.depth -= 1;
        }

        // Step 11. ProbCut (`probcut`): a good capture whose reduced search
        // beats beta by a margin settles the node.
        if !PV && !in_check && excluded.is_null() && self.features.probcut {
            if let Some(v) = self.probcut(&node, tt_hit, tt_move) {
                return v;
            }
        }

        // Step 12. The move loop.
        let us = self.board.side_to_move();
        let prev = *self.stack.before(ply, 1);
        let counter = match prev.moved() {
            Some((piece, to)) if self.features.refutations => {
                self.data.histories.countermove[piece][to]
            }
            _ => Move::NULL,
        };
        let killers = if self.features.refutations {
            self.stack.at(ply).killers
        } else {
            [Move::NULL; 2]
        };
        // With `threat_history`, the squares the other side attacks split the
        // butterfly history (see `history::threat_index`); the frame keeps
        // them for the histories' updates, this node's and its children's.
        let threats = if self.features.threat_history {
            self.board.threats::<E::Bits>()
        } else {
            0
        };
        self.stack.at_mut(ply).threats = threats;
        let mut picker = MovePicker::new(in_check, tt_move, killers, counter, threats);
        // A tablebase win found above is the least this node is worth.
        let mut best_score = tb_floor.unwrap_or(-INFINITE);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        let mut quiets_tried = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures_tried = [Move::NULL; 32];
        let mut n_captures = 0;
        let has_pieces = self.non_pawn_material(us);
        let mut root_index = self.pv_idx;
        let tt_capture = !tt_move.is_null() && is_noisy(&self.board, tt_move);
        let single_reply = in_check && !root && self.board.count_moves::<E::Bits>() == 1;
        // The squares and lines that give check, once for every move of the node.
        let check_info = self.board.check_info::<E::Bits>();
        loop {
            let m = if root {
                // The root walks its own list, in the order the last iteration left.
                match self.root_moves.get(root_index) {
                    Some(rm) => {
                        root_index += 1;
                        rm.mv
                    }
                    None => break,
                }
            } else {
                let cont = self.cont_tables(ply);
                let next = picker.next::<E>(&self.board, &self.data.histories, cont, |b, m| {
                    b.see_ge(m, 0)
                });
                match next {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            move_count += 1;
            if root && self.is_main() && self.long_search() {
                (self.report)(Event::CurrMove {
                    depth: self.root_depth,
                    mv: m,
                    number: move_count,
                });
            }
            let noisy = is_noisy(&self.board, m);
            let gives_check = self.board.gives_check_with::<E::Bits>(m, &check_info);
            // A quiet move's history as its reduction and futility margin read
            // it: the butterfly's, or with `cont_stats` the sum that ordered it
            // (butterfly plus the continuation histories of the last two
            // moves), halved so the divisors tuned for the butterfly alone
            // keep about their reach. The continuation sum alone is what
            // history pruning reads.
            let (hist, cont) = if noisy {
                (0, 0)
            } else {
                let butterfly = self.data.histories.quiet(us, m, threats);
                let cont = cont_score(&self.board, self.cont_tables(ply), m);
                let hist = if self.features.cont_stats {
                    (butterfly + cont) / 2
                } else {
                    butterfly
                };
                (hist, cont)
            };
            let candidate = Candidate {
                mv: m,
                number: move_count,
                noisy,
                gives_check,
                hist,
                cont,
            };

            // Step 13. Pruning at shallow depth, once a line that does not lose
            // to mate is in hand.
            if !root
                && best_score > -MATE_IN_MAX
                && has_pieces
                && self.prune_move(&node, &candidate)
            {
                continue;
            }

            // Step 14. Extensions, bounded by the path's total so the tree cannot
            // explode. The singular search may instead show a cut (multi-cut).
            let mut extension = 0;
            let ext_budget = self.stack.at(ply).extensions
                < self.params.extension_budget_per_depth * self.root_depth.max(1);
            if !root && ext_budget {
                let singular = self.features.singular
                    && m == tt_move
                    && excluded.is_null()
                    && self.singular_applies(tt_hit, node.depth);
                extension = if singular {
                    match self.singular::<PV>(tt_hit, m, beta, node.depth, ply, cut_node) {
                        Singular::Cut(v) => return v,
                        Singular::Extend(e) => e,
                    }
                } else {
                    self.extension(&candidate, single_reply, prev, PV)
                };
                if self.stopped {
                    return 0;
                }
            }

            // Step 15. Play the move. The child's line starts empty: only a PV
            // search of this move may fill it, so a zero-window fail-high never
            // copies a line left over from another move.
            let new_depth = node.depth - 1 + extension;
            if PV {
                self.pv_len[ply + 1] = ply + 1;
            }
            let nodes_before = self.nodes;
            let undo = self.make(m, ply);
            self.stack.extend_child(ply, extension);
            let mut score;

            // Step 16. Late move reductions (OliThink reduced late moves too), then PVS.
            // Captures and promotions are searched to full depth unless
            // `reduce_captures` is on: reducing them at non-PV nodes hid
            // sacrifices (docs/strength.md, Win At Chess).
            let reducible = !noisy || (!PV && self.features.reduce_captures);
            if self.features.lmr && node.depth >= 2 && move_count > 1 + root as usize && reducible {
                let mut r = self.reduction(node.depth, move_count);
                // With `tt_pv`, a node on a principal variation once reduces
                // as a PV node does: the line may well come back.
                let reduces_as_pv = PV || (self.features.tt_pv && tt_pv);
                if !reduces_as_pv {
                    r += 1;
                }
                if cut_node {
                    r += 1;
                }
                if !improving {
                    r += 1;
                }
                if gives_check || in_check {
                    r -= 1;
                }
                if tt_capture && !noisy {
                    r += 1;
                }
                // With `cutoff_count`, a ply more where this node's children
                // keep failing high: its moves keep being refuted, so it will
                // most likely fail low, and a late move matters less.
                if self.features.cutoff_count && self.stack.at(ply + 1).cutoffs > CUTOFF_COUNT_MIN {
                    r += 1;
                }
                if !noisy {
                    if self.features.history {
                        r -= hist / self.params.lmr_history_divisor;
                    }
                    if m == killers[0] || m == killers[1] || m == counter {
                        r -= 1;
                    }
                }
                r -= 1; // calibration: the table already counts one ply
                let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                score = -self.search::<false>(-node.alpha - 1, -node.alpha, d, ply + 1, true);
                if score > node.alpha && d < new_depth {
                    // With `lmr_research_depth`, the reduced search's margin over
                    // the best score so far sets the re-search's depth: a ply
                    // deeper for a move that beat it by far, one shallower for
                    // one that barely did (Stockfish's "deeper" and "shallower").
                    let mut full = new_depth;
                    if self.features.lmr_research_depth {
                        let p = &self.params;
                        if score > best_score + p.lmr_deeper_margin + 2 * new_depth {
                            full += 1;
                        } else if score < best_score + p.lmr_shallower_margin {
                            full -= 1;
                        }
                    }
                    if full > d {
                        score = -self.search::<false>(
                            -node.alpha - 1,
                            -node.alpha,
                            full,
                            ply + 1,
                            !cut_node,
                        );
                    }
                }
            } else if !PV || move_count > 1 {
                score = -self.search::<false>(
                    -node.alpha - 1,
                    -node.alpha,
                    new_depth,
                    ply + 1,
                    !cut_node,
                );
            } else {
                score = -INFINITE;
            }
            if PV && (move_count == 1 || (score > node.alpha && (root || score < beta))) {
                score = -self.search::<true>(-beta, -node.alpha, new_depth, ply + 1, false);
            }
            self.unmake(m, &undo);
            if self.stopped {
                return 0;
            }

            // Step 17. The root keeps each move's score and line.
            if root {
                let line = &self.pv[ply + 1][ply + 1..self.pv_len[ply + 1].max(ply + 1)];
                let kept = (move_count == 1 || score > node.alpha).then_some(score);
                self.root_moves.record(m, kept, self.seldepth, line);
                self.root_moves.add_nodes(m, self.nodes - nodes_before);
            }

            // Step 18. New best move?
            if score > best_score {
                best_score = score;
                if score > node.alpha {
                    best_move = m;
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.stack.at_mut(ply).cutoffs += 1 + tt_move.is_null() as u32;
                        break;
                    }
                    node.alpha = score;
                }
            }
            if m != best_move {
                if noisy {
                    if n_captures < captures_tried.len() {
                        captures_tried[n_captures] = m;
                        n_captures += 1;
                    }
                } else if n_quiets < quiets_tried.len() {
                    quiets_tried[n_quiets] = m;
                    n_quiets += 1;
                }
            }
        }

        // Step 19. Mate or stalemate.
        if move_count == 0 {
            return if !excluded.is_null() {
                node.alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        // Step 20. Learn from a cut-off; or, with `prior_bonus`, from a fail
        // low (no move raised alpha): the quiet move that led here refuted
        // every move tried. Not from the singular search's fail low, which
        // says the hash move is singular, not that the move before was good.
        if best_score >= beta && !best_move.is_null() {
            self.update_histories(
                ply,
                node.depth,
                best_move,
                &quiets_tried[..n_quiets],
                &captures_tried[..n_captures],
            );
        } else if self.features.prior_bonus
            && best_move.is_null()
            && !root
            && excluded.is_null()
            && (PV || node.depth >= 3)
        {
            self.reward_prior_move(ply, node.depth);
        }

        // Step 21. Store, and correct the evaluation by what the search found.
        // A tablebase loss or draw found above caps a PV node's score.
        if PV {
            best_score = best_score.min(max_score);
        }
        if excluded.is_null() && !(root && self.pv_idx > 0) {
            let bound = Bound::of_search(best_score, beta, PV && !best_move.is_null());
            // With `tt_pv`, a node that failed low just below a node on a
            // principal variation counts as one too (Stockfish): the PV's
            // alternatives at enough depth are where the line may turn.
            let tt_pv = tt_pv
                || (self.features.tt_pv
                    && best_move.is_null()
                    && node.depth > 3
                    && self.stack.before(ply, 1).tt_pv);
            self.shared.tt.store(
                key, best_move, best_score, evals.raw, node.depth, bound, tt_pv, ply,
            );
            if !in_check {
                self.update_correction(best_score, bound, evals, best_move, node.depth, ply);
            }
        }
        best_score
    }

    /// Step 5's probe: the tables' WDL of the current position as a score and
    /// how it bounds the node, or `None` when the node is not probed (more
    /// pieces than the limit, a non-zero halfmove clock, castling rights, too
    /// shallow for a position of the limit's size) or the tables do not answer.
    ///
    /// Scored as Stockfish does: a win is just below the mate scores, less the
    /// ply (a lower bound: the search may find a mate), a loss the mirror (an
    /// upper bound), a draw 0; with the fifty-move rule a cursed win is +2 and
    /// a blessed loss -2 (exact), without it they are a win and a loss.
    fn probe_tb(&mut self, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let tb = &self.shared.tb;
        let pieces = self.board.occupied().count_ones() as usize;
        if pieces > tb.cardinality
            || (pieces == tb.cardinality && depth < tb.probe_depth)
            || self.board.halfmove_clock() != 0
            || self.board.castling_rights() != 0
        {
            return None;
        }
        let syzygy = &self.shared.settings.syzygy;
        let wdl = syzygy.tables.as_deref()?.probe_wdl(&self.board)?.value();
        self.shared
            .tb_hits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let draw = i32::from(syzygy.rule50);
        Some(if wdl < -draw {
            (-MATE_IN_MAX + ply as i32 + 1, Bound::Upper)
        } else if wdl > draw {
            (MATE_IN_MAX - ply as i32 - 1, Bound::Lower)
        } else {
            (DRAW + 2 * wdl * draw, Bound::Exact)
        })
    }

    /// "Improving": better than two plies ago, or four when two plies ago was in
    /// check (OliThink adjusted reductions by it too).
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        let prev2 = self.stack.before(ply, 2).static_eval;
        let prev4 = self.stack.before(ply, 4).static_eval;
        if prev2 != VALUE_NONE {
            static_eval > prev2
        } else {
            prev4 == VALUE_NONE || static_eval > prev4
        }
    }

    /// Steps 7-9: razoring, reverse futility and the null move, which may settle
    /// a non-PV node out of check before any move is searched.
    fn prune_node(&mut self, node: &Node) -> Option<i32> {
        let f = self.features;
        let Node {
            ply,
            depth,
            alpha,
            beta,
            cut_node,
            improving,
            ..
        } = *node;
        let (static_eval, eval) = (node.evals.corrected, node.evals.best);
        // Step 7. Razoring: far below alpha, see whether captures alone can help.
        if f.razoring
            && depth <= self.params.razor_depth
            && eval + self.params.razor_base + self.params.razor_depth_sq * depth * depth <= alpha
        {
            let v = self.qsearch::<false>(alpha - 1, alpha, ply, false);
            if v < alpha {
                return Some(v);
            }
        }
        // Step 8. Reverse futility pruning: so far above beta that a quiet move
        // cannot lose it all.
        if f.rfp
            && depth <= self.params.rfp_depth
            && eval < MATE_IN_MAX
            && eval - self.params.rfp_margin * (depth - improving as i32) >= beta
        {
            return Some((eval + beta) / 2);
        }
        // Step 9. Null-move pruning with adaptive R (Thor's Hammer, OliThink):
        // give the opponent a free move; if we still beat beta, this node is very
        // likely a cut. Never without pieces (zugzwang), never twice.
        if f.null_move
            && cut_node
            && depth >= self.params.nmp_min_depth
            && eval >= beta
            && static_eval >= beta
            && ply >= self.nmp_min_ply
            && !self.stack.before(ply, 1).mv.is_null()
            && beta > -MATE_IN_MAX
            && self.non_pawn_material(self.board.side_to_move())
        {
            let r = (self.params.nmp_base
                + depth / self.params.nmp_depth_divisor
                + ((eval - beta) / self.params.nmp_eval_divisor).min(self.params.nmp_eval_max))
            .min(depth);
            let v = self.null_move(beta, depth - r, ply, cut_node);
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                let v = if v >= MATE_IN_MAX { beta } else { v };
                if depth < self.params.nmp_verify_depth || self.nmp_min_ply != 0 {
                    return Some(v);
                }
                // Verification at high depth: search this node again without the
                // null move in the next plies, to catch zugzwang.
                self.nmp_min_ply = ply + 3 * (depth - r) as usize / 4;
                let w = self.search::<false>(beta - 1, beta, depth - r, ply, false);
                self.nmp_min_ply = 0;
                if w >= beta {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Step 11, ProbCut (Buro's, as Stockfish uses it): at a non-PV node deep
    /// enough, each capture that wins at least what beta plus a margin needs by
    /// SEE is tried, first by quiescence, then, if that holds, by a search
    /// `ProbCutReduction` plies shallower, both in the zero window at
    /// `beta + margin`. A capture that beats it there would very likely beat
    /// beta at full depth: the node returns, its score pulled back towards
    /// beta by the margin, and the hash keeps the capture as a lower bound.
    fn probcut(&mut self, node: &Node, tt_hit: Option<TtHit>, tt_move: Move) -> Option<i32> {
        let Node {
            ply,
            depth,
            beta,
            cut_node,
            improving,
            evals,
            ..
        } = *node;
        if depth < self.params.probcut_min_depth || beta.abs() >= MATE_IN_MAX {
            return None;
        }
        let pc_beta =
            beta + self.params.probcut_margin - self.params.probcut_improving * improving as i32;
        let probe_depth = depth - self.params.probcut_reduction;
        // The hash already holds a search nearly this deep that stayed below.
        if tt_hit
            .is_some_and(|h| h.depth > probe_depth && h.score != VALUE_NONE && h.score < pc_beta)
        {
            return None;
        }
        // Quiescence's picker: captures and queen promotions, the hash move
        // first when it is one of them (a quiet one it drops).
        let mut picker = MovePicker::new_qsearch(false, tt_move, false, 0);
        let see_needed = pc_beta - evals.corrected;
        loop {
            let cont = self.cont_tables(ply);
            let Some(m) = picker.next::<E>(&self.board, &self.data.histories, cont, |_, _| true)
            else {
                break;
            };
            if !self.board.see_ge(m, see_needed) {
                continue;
            }
            let undo = self.make(m, ply);
            self.stack.extend_child(ply, 0);
            // Quiescence first: a capture that cannot hold even there is not
            // worth the deeper search.
            let mut v = -self.qsearch::<false>(-pc_beta, -pc_beta + 1, ply + 1, false);
            if v >= pc_beta && probe_depth > 0 {
                v = -self.search::<false>(-pc_beta, -pc_beta + 1, probe_depth, ply + 1, !cut_node);
            }
            self.unmake(m, &undo);
            if self.stopped {
                return Some(0);
            }
            if v >= pc_beta {
                let key = self.board.key();
                let tt_pv = self.stack.at(ply).tt_pv;
                self.shared.tt.store(
                    key,
                    m,
                    v,
                    evals.raw,
                    probe_depth + 1,
                    Bound::Lower,
                    tt_pv,
                    ply,
                );
                return Some(if v.abs() < MATE_IN_MAX {
                    v - (pc_beta - beta)
                } else {
                    v
                });
            }
        }
        None
    }

    fn null_move(&mut self, beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        let f = self.stack.at_mut(ply);
        f.mv = Move::NULL;
        f.piece = NO_PIECE;
        self.keys.push(self.board.key());
        let undo = self.board.make_null_undoable::<E::Bits>();
        if self.nnue.is_some() {
            // No input changes: the child reads this node's accumulator.
            self.data.accumulators.push(crate::nnue::Delta::NONE);
        }
        self.stack.extend_child(ply, 0);
        self.stack.after_mut(ply, 1).since_null = 0;
        let v = -self.search::<false>(-beta, -beta + 1, depth, ply + 1, !cut_node);
        self.keys.pop();
        if self.nnue.is_some() {
            self.data.accumulators.pop();
        }
        self.board.unmake_null(&undo);
        v
    }

    /// Step 13: whether move `m` is pruned before it is searched. Inlined: once
    /// the margins became run-time parameters the compiler stopped inlining it,
    /// and the call cost 2.9% more instructions in `bench 6` (359.1 M against
    /// 348.9 M outside memset, under callgrind).
    #[inline(always)]
    fn prune_move(&self, node: &Node, candidate: &Candidate) -> bool {
        let f = self.features;
        let Node {
            depth,
            alpha,
            in_check,
            improving,
            ..
        } = *node;
        let static_eval = node.evals.corrected;
        let Candidate {
            mv: m,
            number: move_count,
            noisy,
            gives_check,
            hist,
            cont,
        } = *candidate;
        let lmr_depth = (depth - 1 - self.reduction(depth, move_count)).max(0);
        if !noisy && !gives_check {
            // Late move pruning: after enough quiet moves, the rest rarely matter.
            // Quiet checks still get searched: skipping the whole quiet stage lost
            // a mate in two behind a queen sacrifice (tests/search.rs,
            // finds_mates_in_two_and_three).
            let lmp_limit = (self.params.lmp_base + depth * depth) / (2 - improving as i32);
            if f.lmp && depth <= self.params.lmp_depth && move_count as i32 >= lmp_limit {
                return true;
            }
            // History pruning: a quiet move that has done badly after the last
            // two moves, the more so the shallower the node.
            if f.history_pruning
                && lmr_depth <= self.params.history_prune_depth
                && cont < -self.params.history_prune_margin * depth
            {
                return true;
            }
            // Futility pruning: the static eval plus a margin cannot reach alpha.
            if f.futility
                && !in_check
                && lmr_depth <= self.params.futility_depth
                && static_eval
                    + self.params.futility_base
                    + self.params.futility_per_depth * lmr_depth
                    + hist / self.params.futility_history_divisor
                    <= alpha
            {
                return true;
            }
            // SEE pruning of quiets that hang material.
            f.see_pruning
                && lmr_depth <= self.params.see_quiet_depth
                && !self
                    .board
                    .see_ge(m, -self.params.see_quiet_margin * lmr_depth * lmr_depth)
        } else {
            // SEE pruning of captures that lose too much.
            f.see_pruning
                && depth <= self.params.see_capture_depth
                && !gives_check
                && !self
                    .board
                    .see_ge(m, -self.params.see_capture_margin * depth)
        }
    }

    /// Whether the hash entry allows a singular search of its move at `depth`.
    fn singular_applies(&self, tt_hit: Option<TtHit>, depth: i32) -> bool {
        depth >= self.params.singular_min_depth
            && tt_hit.is_some_and(|h| {
                h.depth >= depth - self.params.singular_tt_depth_slack
                    && matches!(h.bound, Bound::Lower | Bound::Exact)
                    && h.score.abs() < MATE_IN_MAX
            })
    }

    /// Step 14, the singular search of the hash move `m` (the entry allows one:
    /// [`Self::singular_applies`]): if every other move fails well below the
    /// hash score, `m` is the only good one and is searched deeper (two plies
    /// deeper at a non-PV node where they fail further below still: the double
    /// extension, bounded per path); if even the margin beats beta, more than
    /// one move does (multi-cut); if the hash score alone beats beta, `m` is
    /// searched a ply shallower (the negative extension).
    fn singular<const PV: bool>(
        &mut self,
        tt_hit: Option<TtHit>,
        m: Move,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Singular {
        let tt_score = tt_hit.map_or(0, |h| h.score);
        let s_beta = tt_score - self.params.singular_margin_per_depth * depth;
        self.stack.at_mut(ply).excluded = m;
        let v = self.search::<false>(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
        self.stack.at_mut(ply).excluded = Move::NULL;
        if self.stopped {
            return Singular::Extend(0);
        }
        if v < s_beta {
            let double = self.features.double_extension
                && !PV
                && v < s_beta - self.params.double_extension_margin
                && self.stack.at(ply).double_extensions < self.params.double_extension_max;
            Singular::Extend(1 + double as i32)
        } else if self.features.multi_cut && s_beta >= beta {
            Singular::Cut(s_beta)
        } else if self.features.negative_extension && tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 14, the other extensions: for a move the singular search did not
    /// judge.
    fn extension(&self, candidate: &Candidate, single_reply: bool, prev: Frame, pv: bool) -> i32 {
        let f = self.features;
        let Candidate {
            mv: m,
            gives_check,
            noisy,
            ..
        } = *candidate;
        // Check extension (Gk, OliThink, Thor's Hammer), for checks that do not
        // give material away: a losing check rarely leads anywhere.
        let extend = (f.check_extension && gives_check && self.board.see_ge(m, 0))
            // Single reply (OliThink): the only legal move in check.
            || (f.single_reply && single_reply)
            // A passed pawn reaching the seventh (OliThink, Thor's Hammer).
            || (f.seventh_rank && self.is_pawn_to_seventh(m))
            // Recapture (Thor's Hammer), on PV nodes only.
            || (f.recapture
                && pv
                && noisy
                && prev.to == m.to().index() as u8
                && !prev.mv.is_null()
                && self.board.see_ge(m, 0));
        extend as i32
    }

    fn is_pawn_to_seventh(&self, m: Move) -> bool {
        let Some(p) = self.board.piece_on(m.from()) else {
            return false;
        };
        if p.kind() != PieceKind::Pawn {
            return false;
        }
        let rank = m.to().rank();
        match p.color() {
            Color::White => rank == 6,
            Color::Black => rank == 1,
        }
    }
}

/// A node as its pruning sees it (steps 7-9, 11 and 13): fixed once its static
/// evaluation is known (step 6), but for `depth`, which internal iterative
/// reduction may lower (step 10), and `alpha`, which the move loop raises.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    depth: i32,
    alpha: i32,
    beta: i32,
    cut_node: bool,
    in_check: bool,
    evals: Evals,
    improving: bool,
}

/// A move of the move loop, as its pruning and extensions see it.
#[derive(Clone, Copy)]
struct Candidate {
    mv: Move,
    /// Its number in the node's move loop, from 1.
    number: usize,
    noisy: bool,
    gives_check: bool,
    /// Its quiet history, 0 for a noisy move.
    hist: i32,
    /// Its continuation histories' sum (one and two plies back), 0 for a
    /// noisy move.
    cont: i32,
}

/// What the singular search of a hash move decided.
enum Singular {
    /// Search the move this many plies deeper (1), as usual (0), or shallower (-1).
    Extend(i32),
    /// Return this score: more than one move beats beta.
    Cut(i32),
}
