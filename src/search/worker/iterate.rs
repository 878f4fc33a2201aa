//! Iterative deepening with aspiration windows, and the main thread's decision
//! to stop deepening.

use super::Worker;
use crate::board::draw;
use crate::paths::Engine;
use crate::search::params::*;
use crate::search::score::*;
use crate::search::tt::Bound;
use crate::search::{Event, Info, SearchResult};
use std::time::Duration;

impl<E: Engine> Worker<'_, E> {
    /// Deepen until a limit or a stop; the main thread reports and decides when
    /// to stop. The helpers are inlined, as the rest of the search's are.
    pub fn iterate(&mut self) -> SearchResult {
        if self.root_moves.is_empty() {
            return self.no_legal_move();
        }
        let report = self.report;
        let limits = self.shared.limits;
        let skill = self.shared.settings.skill;
        // A strength limit chooses among several lines.
        let wanted = self
            .shared
            .settings
            .multipv
            .max(skill.map_or(1, |s| s.lines()));
        let multipv = wanted.clamp(1, self.root_moves.len());
        let max_depth = self.max_depth();
        let mut last_best = crate::types::Move::NULL;
        let mut stability = 0;
        let mut last_score = VALUE_NONE;
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            // Lazy SMP: helpers search half the iterations one ply deeper, so the
            // threads spread over two depths and fill the TT for each other.
            let search_depth = if self.id % 2 == 1 {
                (depth + 1).min(MAX_PLY as i32 - 1)
            } else {
                depth
            };
            self.search_lines(search_depth, multipv, report);
            if self.stopped {
                break;
            }
            self.completed_depth = search_depth;
            if !self.is_main() {
                continue;
            }
            self.report_lines(multipv, report);
            let best = &self.root_moves[0];
            let (best_mv, score) = (best.mv, best.score);
            // Step 1. A mate that answers `go mate N`, or any mate proven with
            // depth to spare: deeper iterations would only repeat it (in `go
            // infinite` the move then waits for `stop`, without a line per ply).
            if let Some(n) = limits.mate {
                if score >= MATE_IN_MAX && MATE - score < 2 * n {
                    break;
                }
            }
            if is_mate(score) && search_depth >= 2 * (MATE - score.abs()) + MATE_PROOF_MARGIN {
                break;
            }
            // Step 2. Time: the soft limit, scaled by how settled the search looks.
            stability = if best_mv == last_best {
                stability + 1
            } else {
                0
            };
            last_best = best_mv;
            if self.should_stop_iterating(stability, last_score, score) {
                break;
            }
            last_score = score;
        }
        if self.is_main() {
            self.finish(multipv, report);
        }
        self.result()
    }

    /// The deepest iteration: `go depth`, or for `go mate N` alone a little
    /// past the mate's length (not forever), else the ply limit; 1 where every
    /// root move ends the game by the rules, as one ply says all.
    #[inline(always)]
    fn max_depth(&mut self) -> i32 {
        let limits = self.shared.limits;
        let mate_depth = limits.mate.map(|n| 4 * n + 4);
        let max_depth = limits
            .depth
            .or(mate_depth)
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        if self.root_is_terminal() {
            1
        } else {
            max_depth
        }
    }

    /// One iteration: the first `multipv` lines at `depth`, each in its
    /// aspiration window, until a stop.
    #[inline(always)]
    fn search_lines(&mut self, depth: i32, multipv: usize, report: &(dyn Fn(Event) + Sync)) {
        self.root_moves.start_iteration();
        for pv_idx in 0..multipv {
            self.pv_idx = pv_idx;
            self.seldepth = 0;
            self.aspiration(depth, report);
            if self.stopped {
                break;
            }
            // Keep the lines already reported above those still to search.
            self.root_moves.sort_lines(pv_idx);
        }
    }

    /// The main thread's end of the search: the helpers stop, a strength limit
    /// picks its move among the `multipv` lines, the last info names the move
    /// played, and in `go infinite` or pondering the move waits for the GUI.
    #[inline(always)]
    fn finish(&mut self, multipv: usize, report: &(dyn Fn(Event) + Sync)) {
        // The search's own end (a limit reached, or nothing left to deepen)
        // stops the helpers; bestmove still waits for the GUI below.
        self.shared.halt();
        // A strength limit plays a move of its choice among the lines.
        if let Some(skill) = self.shared.settings.skill {
            let scores: Vec<i32> = (0..multipv)
                .map(|i| self.root_moves[i].shown_score())
                .take_while(|&s| s != -INFINITE)
                .collect();
            let chosen = if scores.len() > 1 {
                skill.pick(&scores)
            } else {
                0
            };
            if chosen > 0 {
                self.root_moves.bring_to_front(chosen);
                // Its line last, so the last info names the move played.
                let depth = self.completed_depth.max(1);
                self.report_line(0, depth, report);
            }
        }
        // A stop inside an iteration can leave a better move in front, found
        // and searched with a full window in that iteration: show its line,
        // so the last info names the move played.
        let best = &self.root_moves[0];
        if best.mv != self.last_reported && best.score != -INFINITE {
            let depth = self.root_depth.max(1);
            self.report_line(0, depth, report);
        }
        self.wait_for_stop_if_needed();
    }

    /// Mate or stalemate at the root: nothing to search.
    fn no_legal_move(&mut self) -> SearchResult {
        let score = if self.board.in_check() {
            mated_in(0)
        } else {
            DRAW
        };
        if self.is_main() {
            (self.report)(Event::Info(Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score: Score::from_internal(score),
                bound: Bound::Exact,
                nodes: 0,
                time: self.shared.start.elapsed(),
                hashfull: self.shared.tt.hashfull(),
                tbhits: self.tb_hits(),
                pv: vec![],
            }));
            self.shared.halt();
            self.wait_for_stop_if_needed();
        }
        SearchResult {
            best: crate::types::Move::NULL,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            pv: vec![],
        }
    }

    /// Whether every root move ends the game by rule at once (mate, stalemate,
    /// bare kings, the fifty-move rule, a repetition): then depth 1 is exact, and
    /// deeper iterations (a KvK once reported depth 127) add nothing.
    fn root_is_terminal(&mut self) -> bool {
        (0..self.root_moves.len()).all(|i| {
            let m = self.root_moves[i].mv;
            let undo = self.make(m, 0);
            let window = self.window(1);
            let b = &self.board;
            let over = b.count_moves::<E::Bits>() == 0
                || b.insufficient_material()
                || draw::is_fifty_move_draw::<E::Bits, E::Slider>(b)
                || draw::is_repetition(&self.keys, b.key(), window, 1);
            self.unmake(m, &undo);
            over
        })
    }

    /// Whether the main thread should not start another iteration.
    fn should_stop_iterating(&self, stability: i32, last: i32, score: i32) -> bool {
        if self.pondering() || self.shared.limits.infinite || !self.shared.limits.uses_clock() {
            return false; // movetime: the hard limit decides.
        }
        let Some(budget) = self.shared.budget else {
            return false;
        };
        // One legal move: no need to think, but find a ponder move first.
        if self.root_moves.len() == 1 && self.completed_depth >= 6 {
            return true;
        }
        let drop = if last == VALUE_NONE { 0 } else { last - score };
        // The best move's share of the nodes (Feature_NodeTime).
        let share = (self.features.node_time && self.nodes > 0)
            .then(|| self.root_moves[0].nodes as f64 / self.nodes as f64);
        budget.stop_iterating(self.shared.start.elapsed(), stability, drop, share)
    }

    /// Search the current PV line with an aspiration window around its last score
    /// (Thor's Hammer), widening on each fail.
    fn aspiration(&mut self, depth: i32, report: &(dyn Fn(Event) + Sync)) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) = if self.features.aspiration
            && depth >= self.params.aspiration_min_depth
            && prev.abs() < MATE_IN_MAX
        {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            self.root_depth = depth;
            let score = self.search::<true>(alpha, beta, depth, 0, false);
            // Moves searched in this window first: the best to the front.
            self.root_moves.sort_from(self.pv_idx);
            if self.stopped {
                return;
            }
            let fail = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if self.is_main() && self.long_search() {
                self.root_moves[self.pv_idx].bound = fail;
                self.report_line(self.pv_idx, depth, report);
                self.root_moves[self.pv_idx].bound = Bound::Exact;
            }
            delta += delta / 2;
        }
    }

    /// Whether the search has run long enough to report its progress inside an
    /// iteration (the root move searched, failed windows).
    pub(super) fn long_search(&self) -> bool {
        self.shared.start.elapsed() > Duration::from_millis(REPORT_AFTER_MS)
    }
}
