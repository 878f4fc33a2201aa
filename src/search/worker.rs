//! One search thread: iterative deepening with aspiration windows, a PVS
//! alpha-beta search, and quiescence.
//!
//! The selective features name the seed engine that used them where one did, and
//! each can be switched off ([`Features`]) so a match can measure what it gains.

use super::history::{self, PieceTo};
use super::movepick::{captured_kind, is_noisy, MovePicker, ORDER_VALUES};
use super::score::*;
use super::tt::Bound;
use super::{Event, Features, Info, SearchResult, Shared, ThreadData};
use crate::board::{Board, Undo};
use crate::engine::Engine;
use crate::eval::evaluate;
use crate::types::*;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Stack size of a search thread: deep recursion with a move list per ply.
pub const STACK_SIZE: usize = 64 << 20;

/// Frames kept below ply 0, so `ply - 2` and the like need no bounds tests.
const OFF: usize = 4;

/// Late-move reductions by depth and move number: `0.75 + ln(depth) ln(moves) / 2.25`
/// (the shape Ethereal and others use), computed by the compiler.
static LMR: [[u8; 64]; 64] = lmr_table();

const fn ln(x: f64) -> f64 {
    // x = m * 2^k with m in [1, 2); ln m = 2 atanh((m - 1) / (m + 1)).
    let mut m = x;
    let mut k = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        k += 1.0;
    }
    let y = (m - 1.0) / (m + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 40.0 {
        sum += term / n;
        term *= y2;
        n += 2.0;
    }
    k * std::f64::consts::LN_2 + 2.0 * sum
}

const fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            let r = 0.75 + ln(d as f64) * ln(m as f64) / 2.25;
            t[d][m] = r as u8;
            m += 1;
        }
        d += 1;
    }
    t
}

/// What the search keeps per ply.
#[derive(Clone, Copy)]
struct Frame {
    /// The move played from this ply (null for a null move).
    mv: Move,
    /// The moved piece's index (0..12), 12 for none, and the target square: the
    /// continuation-history coordinates of the move.
    piece: u8,
    to: u8,
    static_eval: i32,
    killers: [Move; 2],
    excluded: Move,
    in_check: bool,
    /// Plies since the last null move (repetitions cannot cross one).
    since_null: usize,
    /// Extensions on the path to this ply, to bound the tree.
    extensions: i32,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            mv: Move::NULL,
            piece: 12,
            to: 0,
            static_eval: VALUE_NONE,
            killers: [Move::NULL; 2],
            excluded: Move::NULL,
            in_check: false,
            since_null: usize::MAX / 2,
            extensions: 0,
        }
    }
}

/// A root move with what the last iterations found.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    seldepth: usize,
    pv: Vec<Move>,
}

pub(crate) struct Worker<'a, E: Engine> {
    id: usize,
    board: Board<E::Slider>,
    shared: &'a Shared<'a>,
    data: &'a mut ThreadData,
    features: Features,
    /// Keys of the positions before the current one: game history, then the tree.
    keys: Vec<u64>,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    root_depth: i32,
    completed_depth: i32,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Below this ply the null move is off (during a verification search).
    nmp_min_ply: usize,
    /// The first move of the last main line reported.
    last_reported: Move,
    report: &'a (dyn Fn(Event) + Sync),
}

impl<'a, E: Engine> Worker<'a, E> {
    pub fn new(
        id: usize,
        root: &Board<E::Slider>,
        history: &[u64],
        shared: &'a Shared<'a>,
        data: &'a mut ThreadData,
        report: &'a (dyn Fn(Event) + Sync),
    ) -> Self {
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 8);
        keys.extend_from_slice(history);
        let legal = root.legal_moves::<E::Bits>();
        let wanted = &shared.limits.searchmoves;
        // searchmoves with no legal move in it: search every move rather than none.
        let restrict = legal.iter().any(|m| wanted.contains(&m));
        let mut root_moves: Vec<RootMove> = legal
            .iter()
            .filter(|m| !restrict || wanted.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                bound: Bound::Exact,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        // A canonical order, so every backend searches the same tree.
        root_moves.sort_by_key(|r| r.mv.bits());
        let mut stack = vec![Frame::default(); MAX_PLY + OFF + 4];
        stack[OFF].in_check = root.in_check();
        Worker {
            id,
            board: *root,
            shared,
            data,
            features: shared.settings.features,
            keys,
            stack,
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            nmp_min_ply: 0,
            last_reported: Move::NULL,
            report,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    // ------------------------------------------------------------------
    // Iterative deepening
    // ------------------------------------------------------------------

    /// Deepen until a limit or a stop; the main thread reports and decides when to stop.
    pub fn iterate(&mut self) -> SearchResult {
        let report = self.report;
        let limits = self.shared.limits;
        if self.root_moves.is_empty() {
            // Mate or stalemate at the root: nothing to search.
            let score = if self.board.in_check() {
                mated_in(0)
            } else {
                DRAW
            };
            if self.is_main() {
                report(Event::Info(Info {
                    depth: 0,
                    seldepth: 0,
                    multipv: 1,
                    score: Score::from_internal(score),
                    bound: Bound::Exact,
                    nodes: 0,
                    time: self.shared.start.elapsed(),
                    hashfull: self.shared.tt.hashfull(),
                    pv: vec![],
                }));
                self.wait_for_stop_if_needed();
            }
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                pv: vec![],
            };
        }
        let multipv = self.shared.settings.multipv.clamp(1, self.root_moves.len());
        // `go mate N` alone searches a little past the mate's length, not forever.
        let mate_depth = limits.mate.map(|n| 4 * n + 4);
        let max_depth = limits
            .depth
            .or(mate_depth)
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut last_best = Move::NULL;
        let mut stability = 0;
        let mut last_score = VALUE_NONE;
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            // Lazy SMP: helpers search half the iterations one ply deeper, so the
            // threads spread over two depths and fill the TT for each other.
            let search_depth = if self.id > 0 && self.id % 2 == 1 {
                (depth + 1).min(MAX_PLY as i32 - 1)
            } else {
                depth
            };
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(search_depth, report);
                if self.stopped {
                    break;
                }
                // Keep the lines already reported above those still to search.
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = search_depth;
            if self.is_main() {
                self.report_lines(multipv, report);
            }
            // Step 1 of the time decision: stop on a found mate that answers `go mate N`.
            let best = &self.root_moves[0];
            if let Some(n) = limits.mate {
                if best.score >= MATE_IN_MAX && MATE - best.score < 2 * n {
                    break;
                }
            }
            if !self.is_main() {
                continue;
            }
            // Step 2. Time: the soft limit, scaled by how settled the search looks.
            if best.mv == last_best {
                stability += 1;
            } else {
                stability = 0;
            }
            last_best = best.mv;
            let score = best.score;
            if self.should_stop_iterating(stability, last_score, score, depth) {
                break;
            }
            last_score = score;
        }
        if self.is_main() {
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
        self.result()
    }

    /// In `go infinite` or ponder mode the best move waits for `stop` (or `ponderhit`).
    fn wait_for_stop_if_needed(&self) {
        let c = self.shared.control;
        while !self.shared.stopped()
            && (self.shared.limits.infinite || c.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Whether the main thread should not start another iteration.
    fn should_stop_iterating(&self, stability: i32, last: i32, score: i32, depth: i32) -> bool {
        if self.shared.control.pondering.load(Ordering::Relaxed) || self.shared.limits.infinite {
            return false;
        }
        let Some(budget) = self.shared.budget else {
            return false;
        };
        if !self.shared.limits.uses_clock() {
            return false; // movetime: the hard limit decides.
        }
        let elapsed = self.shared.start.elapsed().as_secs_f64();
        // One legal move: no need to think, but find a ponder move first.
        if self.root_moves.len() == 1 && depth >= 6 {
            return true;
        }
        // A best move that keeps changing earns more time; a settled one less.
        let stability_factor = [1.8, 1.4, 1.15, 1.0, 0.9, 0.8][stability.min(5) as usize];
        // A score that drops earns more time to find a way out.
        let drop = if last == VALUE_NONE {
            0
        } else {
            (last - score).clamp(0, 150)
        };
        let drop_factor = 1.0 + drop as f64 / 150.0;
        let soft = budget.soft.as_secs_f64() * stability_factor * drop_factor;
        elapsed >= soft.min(budget.hard.as_secs_f64())
    }

    /// Search the current PV line with an aspiration window around its last score
    /// (Thor's Hammer), widening on each fail.
    fn aspiration(&mut self, depth: i32, report: &(dyn Fn(Event) + Sync)) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = 25;
        let (mut alpha, mut beta) =
            if self.features.aspiration && depth >= 4 && prev.abs() < MATE_IN_MAX {
                ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            self.root_depth = depth;
            let score = self.search::<true>(alpha, beta, depth, 0, false);
            // Moves searched in this window first: the best to the front.
            self.root_moves[self.pv_idx..]
                .sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
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
            if self.is_main() && self.shared.start.elapsed() > Duration::from_secs(3) {
                let rm = &mut self.root_moves[self.pv_idx];
                rm.bound = fail;
                self.report_line(self.pv_idx, depth, report);
                self.root_moves[self.pv_idx].bound = Bound::Exact;
            }
            delta += delta / 2;
        }
    }

    fn report_lines(&mut self, multipv: usize, report: &(dyn Fn(Event) + Sync)) {
        for i in 0..multipv {
            self.report_line(i, self.completed_depth, report);
        }
    }

    fn report_line(&mut self, i: usize, depth: i32, report: &(dyn Fn(Event) + Sync)) {
        let rm = &self.root_moves[i];
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        if score == -INFINITE {
            return;
        }
        let mut pv = rm.pv.clone();
        self.complete_pv(&mut pv, depth);
        if i == 0 {
            self.last_reported = rm.mv;
        }
        let nodes = self.shared.total_nodes().max(self.nodes);
        report(Event::Info(Info {
            depth,
            seldepth: rm.seldepth.max(depth as usize),
            multipv: i + 1,
            score: Score::from_internal(score),
            bound: rm.bound,
            nodes,
            time: self.shared.start.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            pv: pv.clone(),
        }));
        self.root_moves[i].pv = pv;
    }

    /// Extend a PV cut short (by a hash cut-off) with hash moves, each tested for
    /// legality, up to `depth` moves. The line ends at the first position the rules
    /// draw (fifty moves, a repetition, bare kings), as match runners check: a move
    /// shown past it could never be played.
    fn complete_pv(&self, pv: &mut Vec<Move>, depth: i32) {
        let mut b = self.board;
        let mut line = vec![b.key()];
        let mut shown = 0;
        while shown < pv.len().max(depth.max(2) as usize) {
            let m = match pv.get(shown) {
                Some(&m) => m,
                None => match self.shared.tt.probe(b.key(), shown) {
                    Some(hit) if !hit.mv.is_null() => hit.mv,
                    _ => break,
                },
            };
            // Never show a line that cannot be played.
            if !b.is_legal::<E::Bits>(m) {
                break;
            }
            b.make::<E::Bits>(m);
            shown += 1;
            if shown > pv.len() {
                pv.push(m);
            }
            let key = b.key();
            // The search scores a repetition inside its line as a draw, and one
            // with the game's history once that makes three.
            let repeated =
                line.contains(&key) || self.keys.iter().filter(|&&k| k == key).count() >= 2;
            if repeated || b.halfmove_clock() >= 100 || b.insufficient_material() {
                break;
            }
            line.push(key);
        }
        pv.truncate(shown);
    }

    fn result(&self) -> SearchResult {
        let best = &self.root_moves[0];
        let mut pv = best.pv.clone();
        self.complete_pv(&mut pv, 2);
        SearchResult {
            best: best.mv,
            ponder: pv.get(1).copied(),
            score: if best.score == -INFINITE {
                best.prev_score
            } else {
                best.score
            },
            depth: self.completed_depth,
            nodes: self.nodes,
            pv,
        }
    }

    // ------------------------------------------------------------------
    // Limits
    // ------------------------------------------------------------------

    /// Count a node and, every so often, look at the stop flag and the limits.
    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        if let Some(n) = self.shared.limits.nodes {
            // A node limit is checked at every node on one thread, so a node-limited
            // search with Threads=1 is exactly reproducible.
            if self.shared.settings.threads == 1 && self.nodes >= n {
                self.shared.control.stop();
                self.stopped = true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.poll();
        }
    }

    #[cold]
    fn poll(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.shared.stopped() {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        let limits = self.shared.limits;
        if let Some(n) = limits.nodes {
            if self.shared.total_nodes() >= n {
                self.shared.control.stop();
                self.stopped = true;
                return;
            }
        }
        if self.shared.control.pondering.load(Ordering::Relaxed) || limits.infinite {
            return;
        }
        // Always finish depth 1, so there is a searched move to play.
        if self.completed_depth == 0 && self.root_depth <= 1 {
            return;
        }
        if let Some(budget) = self.shared.budget {
            if self.shared.start.elapsed() >= budget.hard {
                self.shared.control.stop();
                self.stopped = true;
            }
        }
    }

    // ------------------------------------------------------------------
    // Making moves
    // ------------------------------------------------------------------

    #[inline(always)]
    fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + OFF]
    }

    #[inline(always)]
    fn make(&mut self, m: Move, ply: usize) -> Undo {
        let piece = self
            .board
            .piece_on(m.from())
            .map_or(12, |p| p.index() as u8);
        let to = if m.kind() == MoveKind::Castling {
            // Castling's history coordinates are the king's square after castling.
            let rank = m.from().rank();
            Square::from_coords(if m.to() > m.from() { 6 } else { 2 }, rank).index() as u8
        } else {
            m.to().index() as u8
        };
        let f = self.frame(ply);
        f.mv = m;
        f.piece = piece;
        f.to = to;
        let since_null = f.since_null;
        self.keys.push(self.board.key());
        let undo = self.board.make_undoable::<E::Bits>(m);
        let in_check = self.board.in_check();
        let child = self.frame(ply + 1);
        child.since_null = since_null + 1;
        child.in_check = in_check;
        undo
    }

    #[inline(always)]
    fn unmake(&mut self, m: Move, undo: &Undo) {
        self.keys.pop();
        self.board.unmake(m, undo);
    }

    /// The continuation-history tables of the moves 1 and 2 plies before `ply`.
    #[inline(always)]
    fn cont_tables(&self, ply: usize) -> [Option<&PieceTo>; 2] {
        if !self.features.cont_history {
            return [None, None];
        }
        let h = &self.data.histories;
        let at = |back: usize| {
            let f = &self.stack[ply + OFF - back];
            (f.piece < 12).then(|| &h.continuation[f.piece as usize][f.to as usize])
        };
        [at(1), at(2)]
    }

    // ------------------------------------------------------------------
    // Draws
    // ------------------------------------------------------------------

    /// Repetition (twice inside the tree, or three times counting the game), the
    /// fifty-move rule (unless this is mate), or too little material to mate.
    fn is_draw(&self, ply: usize) -> bool {
        let b = &self.board;
        if b.halfmove_clock() >= 100 && (!b.in_check() || b.count_moves::<E::Bits>() > 0) {
            return true;
        }
        if b.insufficient_material() {
            return true;
        }
        self.is_repetition(ply)
    }

    fn is_repetition(&self, ply: usize) -> bool {
        let window = (self.board.halfmove_clock() as usize)
            .min(self.stack[ply + OFF].since_null)
            .min(self.keys.len());
        let key = self.board.key();
        let n = self.keys.len();
        let mut seen = 0;
        let mut i = 4;
        while i <= window {
            if self.keys[n - i] == key {
                // Once after the root is enough (the tree would repeat it again);
                // before the root it takes two earlier occurrences.
                if i < ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    fn eval(&mut self, alpha: i32, beta: i32) -> i32 {
        let (alpha, beta) = if self.features.lazy_eval {
            (alpha, beta)
        } else {
            (-INFINITE, INFINITE)
        };
        evaluate::<E::Bits, E::Slider>(&self.board, &mut self.data.pawns, alpha, beta)
    }

    /// The static evaluation `raw` with the correction history's entry for this
    /// side to move and pawn structure added, kept clear of the mate scores.
    #[inline(always)]
    fn corrected(&self, raw: i32) -> i32 {
        if !self.features.correction {
            return raw;
        }
        let side = self.board.side_to_move();
        let c = self.data.histories.correction(side, self.board.pawn_key());
        (raw + c).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
    }

    fn non_pawn_material(&self, color: Color) -> bool {
        let b = &self.board;
        b.color_bb(color) & !(b.kind_bb(PieceKind::Pawn) | b.kind_bb(PieceKind::King)) != 0
    }

    // ------------------------------------------------------------------
    // The main search
    // ------------------------------------------------------------------

    fn search<const PV: bool>(
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
            return self.qsearch::<PV>(alpha, beta, ply);
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
                return if in_check {
                    DRAW
                } else {
                    self.eval(alpha, beta)
                };
            }
            // Step 3. Mate-distance pruning: no line here can beat a shorter mate
            // already found.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Transposition table.
        let excluded = self.stack[ply + OFF].excluded;
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
        if let Some(h) = tt_hit {
            if !PV && h.depth >= depth && self.board.halfmove_clock() < 90 && h.cuts(alpha, beta) {
                return h.score;
            }
        }

        // Step 5. Static evaluation: the raw value (which the hash keeps), corrected
        // by what earlier searches found for this pawn structure, then replaced by
        // the hash score where its bound allows.
        let (raw_eval, static_eval, eval) = if in_check {
            (VALUE_NONE, VALUE_NONE, VALUE_NONE)
        } else {
            let raw = match tt_hit {
                Some(h) if h.eval != VALUE_NONE => h.eval,
                _ => {
                    let e = self.eval(alpha, beta);
                    if tt_hit.is_none() && excluded.is_null() {
                        self.shared
                            .tt
                            .store(key, Move::NULL, VALUE_NONE, e, -8, Bound::None, ply);
                    }
                    e
                }
            };
            let se = self.corrected(raw);
            let ev = match tt_hit {
                Some(h) if h.cuts(se, se) => h.score,
                _ => se,
            };
            (raw, se, ev)
        };
        self.stack[ply + OFF].static_eval = static_eval;
        // "Improving": better than two plies ago (OliThink adjusted reductions by it too).
        let improving = !in_check && {
            let prev2 = self.stack[ply + OFF - 2].static_eval;
            let prev4 = self.stack[ply + OFF - 4].static_eval;
            if prev2 != VALUE_NONE {
                static_eval > prev2
            } else {
                prev4 == VALUE_NONE || static_eval > prev4
            }
        };
        self.stack[ply + OFF + 2].killers = [Move::NULL; 2];

        if !PV && !in_check && excluded.is_null() {
            let f = self.features;
            // Step 6. Razoring: far below alpha, see whether captures alone can help.
            if f.razoring && depth <= 3 && eval + 250 + 200 * depth * depth <= alpha {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply);
                if v < alpha {
                    return v;
                }
            }
            // Step 7. Reverse futility pruning: so far above beta that a quiet
            // move cannot lose it all.
            if f.rfp
                && depth <= 8
                && eval < MATE_IN_MAX
                && eval - 75 * (depth - improving as i32) >= beta
            {
                return (eval + beta) / 2;
            }
            // Step 8. Null-move pruning with adaptive R (Thor's Hammer, OliThink):
            // give the opponent a free move; if we still beat beta, this node is
            // very likely a cut. Never without pieces (zugzwang), never twice.
            if f.null_move
                && cut_node
                && depth >= 3
                && eval >= beta
                && static_eval >= beta
                && ply >= self.nmp_min_ply
                && !self.stack[ply + OFF - 1].mv.is_null()
                && beta > -MATE_IN_MAX
                && self.non_pawn_material(self.board.side_to_move())
            {
                let r = (4 + depth / 4 + ((eval - beta) / 200).min(3)).min(depth);
                let v = self.null_move(beta, depth - r, ply, cut_node);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_IN_MAX { beta } else { v };
                    if depth < 14 || self.nmp_min_ply != 0 {
                        return v;
                    }
                    // Verification at high depth: search this node again without the
                    // null move in the next plies, to catch zugzwang.
                    self.nmp_min_ply = ply + 3 * (depth - r) as usize / 4;
                    let w = self.search::<false>(beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Step 9. Internal iterative reduction (where Gk, OliThink and Thor's Hammer
        // used internal iterative deepening): without a hash move, this node was not
        // searched before, so spend less on it now.
        if self.features.iir && !root && depth >= 4 && tt_move.is_null() && (PV || cut_node) {
            depth -= 1;
        }

        // Step 10. The move loop.
        let us = self.board.side_to_move();
        let prev = self.stack[ply + OFF - 1];
        let counter = if prev.piece < 12 && self.features.refutations {
            self.data.histories.countermove[prev.piece as usize][prev.to as usize]
        } else {
            Move::NULL
        };
        let killers = if self.features.refutations {
            self.stack[ply + OFF].killers
        } else {
            [Move::NULL; 2]
        };
        let mut picker = MovePicker::new(in_check, tt_move, killers, counter);
        let mut best_score = -INFINITE;
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
            if root && self.is_main() && self.shared.start.elapsed() > Duration::from_secs(3) {
                (self.report)(Event::CurrMove {
                    depth: self.root_depth,
                    mv: m,
                    number: move_count,
                });
            }
            let noisy = is_noisy(&self.board, m);
            let gives_check = self.board.gives_check_with::<E::Bits>(m, &check_info);
            let hist = if noisy {
                0
            } else {
                self.data.histories.quiet(us, m)
            };

            // Step 11. Pruning at shallow depth, once a line that does not lose
            // to mate is in hand.
            if !root && best_score > -MATE_IN_MAX && has_pieces {
                let lmr_depth = (depth - 1 - self.reduction(depth, move_count)).max(0);
                if !noisy && !gives_check {
                    // Late move pruning: after enough quiet moves, the rest rarely
                    // matter. Quiet checks still get searched: skipping the whole
                    // quiet stage lost a mate in two behind a queen sacrifice
                    // (tests/search.rs, finds_mates_in_two_and_three).
                    let lmp_limit = (3 + depth * depth) / (2 - improving as i32);
                    if self.features.lmp && depth <= 8 && move_count as i32 >= lmp_limit {
                        continue;
                    }
                    // Futility pruning: the static eval plus a margin cannot reach alpha.
                    if self.features.futility
                        && !in_check
                        && lmr_depth <= 6
                        && static_eval + 120 + 110 * lmr_depth + hist / 64 <= alpha
                    {
                        continue;
                    }
                    // SEE pruning of quiets that hang material.
                    if self.features.see_pruning
                        && lmr_depth <= 7
                        && !self.board.see_ge(m, -25 * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if self.features.see_pruning
                    && depth <= 6
                    && !gives_check
                    && !self.board.see_ge(m, -95 * depth)
                {
                    // SEE pruning of captures that lose too much.
                    continue;
                }
            }

            // Step 12. Extensions, bounded by the path's total so the tree cannot explode.
            let mut extension = 0;
            let ext_budget = self.stack[ply + OFF].extensions < 2 * self.root_depth.max(1);
            if !root && ext_budget {
                let tt_ok = tt_hit.is_some_and(|h| {
                    h.depth >= depth - 3
                        && matches!(h.bound, Bound::Lower | Bound::Exact)
                        && h.score.abs() < MATE_IN_MAX
                });
                if self.features.singular
                    && m == tt_move
                    && depth >= 7
                    && excluded.is_null()
                    && tt_ok
                {
                    // Singular extension: if every other move fails well below the
                    // hash score, the hash move is the only good one: search it deeper.
                    let tt_score = tt_hit.map_or(0, |h| h.score);
                    let s_beta = tt_score - 2 * depth;
                    self.stack[ply + OFF].excluded = m;
                    let v =
                        self.search::<false>(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                    self.stack[ply + OFF].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        extension = 1;
                    } else if s_beta >= beta {
                        // Multi-cut: more than one move beats beta.
                        return s_beta;
                    } else if tt_score >= beta {
                        extension = -1;
                    }
                } else if self.features.check_extension && gives_check && self.board.see_ge(m, 0) {
                    // Check extension (Gk, OliThink, Thor's Hammer), for checks that do
                    // not give material away: a losing check rarely leads anywhere.
                    extension = 1;
                } else if single_reply {
                    // Single reply (OliThink): the only legal move in check.
                    extension = 1;
                } else if self.is_pawn_to_seventh(m) {
                    // A passed pawn reaching the seventh (OliThink, Thor's Hammer).
                    extension = 1;
                } else if PV
                    && noisy
                    && prev.to == m.to().index() as u8
                    && !prev.mv.is_null()
                    && self.board.see_ge(m, 0)
                {
                    // Recapture (Thor's Hammer), on PV nodes only.
                    extension = 1;
                }
            }
            // Step 13. Play the move. The child's line starts empty: only a PV
            // search of this move may fill it, so a zero-window fail-high never
            // copies a line left over from another move.
            let new_depth = depth - 1 + extension;
            if PV {
                self.pv_len[ply + 1] = ply + 1;
            }
            let undo = self.make(m, ply);
            self.stack[ply + OFF + 1].extensions =
                self.stack[ply + OFF].extensions + extension.max(0);
            let mut score;

            // Step 14. Late move reductions (OliThink reduced late moves too), then PVS.
            if self.features.lmr && depth >= 2 && move_count > 1 + root as usize && (!noisy || !PV)
            {
                let mut r = self.reduction(depth, move_count);
                if !PV {
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
                if !noisy {
                    if self.features.history {
                        r -= hist / 8192;
                    }
                    if m == killers[0] || m == killers[1] || m == counter {
                        r -= 1;
                    }
                }
                r -= 1; // calibration: the table already counts one ply
                let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                score = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
                if score > alpha && d < new_depth {
                    score =
                        -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !PV || move_count > 1 {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = -INFINITE;
            }
            if PV && (move_count == 1 || (score > alpha && (root || score < beta))) {
                score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.unmake(m, &undo);
            if self.stopped {
                return 0;
            }

            // Step 15. The root keeps each move's score and line.
            if root {
                let child_pv: Vec<Move> = (ply + 1..self.pv_len[ply + 1])
                    .map(|i| self.pv[ply + 1][i])
                    .collect();
                let seldepth = self.seldepth;
                let rm = self
                    .root_moves
                    .iter_mut()
                    .find(|r| r.mv == m)
                    .expect("a root move");
                if move_count == 1 || score > alpha {
                    rm.score = score;
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend(child_pv);
                } else {
                    rm.score = -INFINITE;
                }
            }

            // Step 16. New best move?
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if PV && !root {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
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

        // Step 17. Mate or stalemate.
        if move_count == 0 {
            return if !excluded.is_null() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                DRAW
            };
        }

        // Step 18. Learn from a cut-off.
        if best_score >= beta && !best_move.is_null() {
            self.update_histories(
                ply,
                depth,
                best_move,
                &quiets_tried[..n_quiets],
                &captures_tried[..n_captures],
            );
        }

        // Step 19. Store.
        if excluded.is_null() && !(root && self.pv_idx > 0) {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if PV && !best_move.is_null() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared
                .tt
                .store(key, best_move, best_score, raw_eval, depth, bound, ply);

            // Step 20. Correct the evaluation: where the search's score says more
            // than its bound allows about the static evaluation (a fail high above
            // it, a fail low below it, or an exact score), and the best move is
            // quiet (a capture's gain is the search's, not the position's).
            let informative = match bound {
                Bound::Lower => best_score > static_eval,
                Bound::Upper => best_score < static_eval,
                _ => true,
            };
            if self.features.correction
                && !in_check
                && informative
                && best_score.abs() < MATE_IN_MAX
                && (best_move.is_null() || !is_noisy(&self.board, best_move))
            {
                let (side, pawns) = (self.board.side_to_move(), self.board.pawn_key());
                self.data
                    .histories
                    .update_correction(side, pawns, best_score - raw_eval, depth);
            }
        }
        best_score
    }

    fn null_move(&mut self, beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        let f = self.frame(ply);
        f.mv = Move::NULL;
        f.piece = 12;
        self.keys.push(self.board.key());
        let undo = self.board.make_null_undoable::<E::Bits>();
        let child = self.frame(ply + 1);
        child.since_null = 0;
        child.in_check = false;
        let ext = self.stack[ply + OFF].extensions;
        self.stack[ply + OFF + 1].extensions = ext;
        let v = -self.search::<false>(-beta, -beta + 1, depth, ply + 1, !cut_node);
        self.keys.pop();
        self.board.unmake_null(&undo);
        v
    }

    #[inline(always)]
    fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        LMR[depth.clamp(0, 63) as usize][move_count.min(63)] as i32
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

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn update_histories(
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
            let f = &mut self.stack[ply + OFF];
            if f.killers[0] != best {
                f.killers[1] = f.killers[0];
                f.killers[0] = best;
            }
            let prev = self.stack[ply + OFF - 1];
            if prev.piece < 12 {
                self.data.histories.countermove[prev.piece as usize][prev.to as usize] = best;
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
        let to = m.to().index();
        let h = &mut self.data.histories;
        history::update(&mut h.butterfly[us.index()][m.from().index()][to], bonus);
        for back in [1, 2] {
            let f = self.stack[ply + OFF - back];
            if f.piece < 12 {
                history::update(
                    &mut h.continuation[f.piece as usize][f.to as usize][piece][to],
                    bonus,
                );
            }
        }
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

    // ------------------------------------------------------------------
    // Quiescence
    // ------------------------------------------------------------------

    fn qsearch<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            return if in_check {
                DRAW
            } else {
                self.eval(alpha, beta)
            };
        }

        // Step 1. Transposition table.
        let key = self.board.key();
        let tt_hit = self.shared.tt.probe(key, ply);
        if let Some(h) = tt_hit {
            if !PV && h.cuts(alpha, beta) {
                return h.score;
            }
        }
        let tt_move = tt_hit.map_or(Move::NULL, |h| h.mv);

        // Step 2. Stand pat: the side to move may decline every capture.
        let (raw_eval, static_eval);
        let mut best_score;
        if in_check {
            (raw_eval, static_eval) = (VALUE_NONE, VALUE_NONE);
            best_score = -INFINITE;
        } else {
            raw_eval = match tt_hit {
                Some(h) if h.eval != VALUE_NONE => h.eval,
                _ => self.eval(alpha, beta),
            };
            static_eval = self.corrected(raw_eval);
            best_score = match tt_hit {
                Some(h) if h.cuts(static_eval, static_eval) => h.score,
                _ => static_eval,
            };
            if best_score >= beta {
                if tt_hit.is_none() {
                    self.shared.tt.store(
                        key,
                        Move::NULL,
                        best_score,
                        raw_eval,
                        -1,
                        Bound::Lower,
                        ply,
                    );
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        // Step 3. Captures (all evasions in check), best first.
        let mut picker = MovePicker::new_qsearch(in_check, tt_move);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        let futility_base = if in_check {
            -INFINITE
        } else {
            static_eval + 180
        };
        let mut check_info = None;
        loop {
            let cont = self.cont_tables(ply);
            let Some(m) = picker.next::<E>(&self.board, &self.data.histories, cont, |_, _| true)
            else {
                break;
            };
            move_count += 1;
            if best_score > -MATE_IN_MAX && !in_check {
                // Delta pruning (Gk): even winning the piece outright cannot lift
                // the score to alpha.
                let gain = captured_kind(&self.board, m).map_or(0, |k| ORDER_VALUES[k.index()])
                    + m.promotion_kind()
                        .map_or(0, |k| ORDER_VALUES[k.index()] - 100);
                let ci = *check_info.get_or_insert_with(|| self.board.check_info::<E::Bits>());
                if futility_base + gain <= alpha && !self.board.gives_check_with::<E::Bits>(m, &ci)
                {
                    best_score = best_score.max(futility_base + gain);
                    continue;
                }
                // SEE pruning: a capture that loses material.
                if !self.board.see_ge(m, 0) {
                    continue;
                }
            }
            if PV {
                self.pv_len[ply + 1] = ply + 1;
            }
            let undo = self.make(m, ply);
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1);
            self.unmake(m, &undo);
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

        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, best_score, raw_eval, 0, bound, ply);
        best_score
    }
}
