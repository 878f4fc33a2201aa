//! One search thread, split along the search's own steps:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | the thread's state, making moves, the static evaluation |
//! | `stack.rs` | what the search keeps per ply, read by ply and by distance from it |
//! | `root.rs` | the root moves and what each iteration found for them |
//! | `iterate.rs` | iterative deepening, aspiration windows, when to stop deepening |
//! | `main_search.rs` | the PVS alpha-beta search with its pruning and extensions |
//! | `qsearch.rs` | quiescence |
//! | `learn.rs` | what a node teaches: killers, countermove, histories, correction |
//! | `poll.rs` | counting nodes, the stop flag and the limits inside an iteration |
//! | `report.rs` | info lines and the principal variation shown |
//! | `draws.rs` | the draw rules as the search asks them |
//!
//! The selective features name the seed engine that used them where one did, and
//! each can be switched off ([`Features`]) so a match can measure what it gains;
//! their margins are in [`params`](super::params).

mod draws;
mod iterate;
mod learn;
mod main_search;
mod poll;
mod qsearch;
mod report;
mod root;
mod stack;

use super::history::{self, CorrectionKeys, PieceTo};
use super::movepick::is_noisy;
use super::params::{LmrTable, Params};
use super::score::*;
use super::tt::TtHit;
use super::{Event, Features, Shared, ThreadData};
use crate::board::{Board, Undo};
use crate::eval::{evaluate, MAX_EVAL};
use crate::nnue::vector::Token;
use crate::nnue::{Delta, Network};
use crate::paths::Engine;
use crate::types::*;
use root::RootMoves;
use stack::Stack;

/// Stack size of a search thread: deep recursion with a move list per ply.
pub const STACK_SIZE: usize = 64 << 20;

/// A node's static evaluation, in the three forms the search uses.
#[derive(Clone, Copy)]
struct Evals {
    /// What the evaluation said: the hash keeps this one.
    raw: i32,
    /// `raw` corrected by the correction history: pruning margins start here.
    corrected: i32,
    /// `corrected`, or the hash's score where its bound says it is better.
    best: i32,
}

impl Evals {
    /// In check there is no static evaluation.
    const NONE: Evals = Evals {
        raw: VALUE_NONE,
        corrected: VALUE_NONE,
        best: VALUE_NONE,
    };
}

pub(crate) struct Worker<'a, E: Engine> {
    id: usize,
    board: Board<E::Slider>,
    shared: &'a Shared<'a>,
    data: &'a mut ThreadData,
    features: Features,
    /// The search parameters' values, copied here from the settings so the
    /// hot reads need no pointer chase.
    params: Params,
    /// Late-move reductions by depth and move number (from `params`).
    lmr: &'a LmrTable,
    /// Keys of the positions before the current one: game history, then the tree.
    keys: Vec<u64>,
    stack: Stack,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: RootMoves,
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
    /// The network and the vector path's token, or `None` for the hand-written
    /// evaluation. Its accumulators are `data.accumulators`.
    nnue: Option<(Token, &'a Network)>,
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
        let mut root_moves = RootMoves::new(legal.iter(), &shared.limits.searchmoves);
        // A root in the tablebases searches only the moves that keep its result.
        if let Some(ranked) = &shared.tb.ranked {
            root_moves.keep_tb_best(ranked);
        }
        // The caller chose the path by `resolve_vector`, so the CPU runs it; a
        // path it cannot run would run the portable one.
        let nnue = shared
            .settings
            .net
            .as_deref()
            .map(|net| (Token::or_portable(shared.settings.vector), net));
        if let Some((_, net)) = nnue {
            data.accumulators.reset(net, root);
        }
        Worker {
            id,
            board: *root,
            shared,
            data,
            features: shared.settings.features,
            params: *shared.settings.tuning.values(),
            lmr: shared.settings.tuning.lmr(),
            keys,
            stack: Stack::new(),
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
            nnue,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    // ------------------------------------------------------------------
    // Making moves
    // ------------------------------------------------------------------

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
        let noisy = is_noisy(&self.board, m);
        let f = self.stack.at_mut(ply);
        f.mv = m;
        f.piece = piece;
        f.to = to;
        f.noisy = noisy;
        let since_null = f.since_null;
        self.keys.push(self.board.key());
        if self.nnue.is_some() {
            self.data.accumulators.push(Delta::of_move(&self.board, m));
        }
        let undo = self.board.make_undoable::<E::Bits>(m);
        self.shared.tt.prefetch(self.board.key());
        self.stack.after_mut(ply, 1).since_null = since_null + 1;
        undo
    }

    #[inline(always)]
    fn unmake(&mut self, m: Move, undo: &Undo) {
        self.keys.pop();
        if self.nnue.is_some() {
            self.data.accumulators.pop();
        }
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
            let f = self.stack.before(ply, back);
            f.moved().map(|(piece, to)| &h.continuation[piece][to])
        };
        [at(1), at(2)]
    }

    // ------------------------------------------------------------------
    // The static evaluation
    // ------------------------------------------------------------------

    /// The evaluation of the current position: the network's, or the
    /// hand-written one with this search's term groups; with `Rule50Scaling`
    /// drawn toward zero as the fifty-move count runs.
    fn eval(&mut self) -> i32 {
        let e = self.unscaled_eval();
        if self.features.rule50_scaling {
            // Neither evaluation knows the halfmove clock, while a lead that
            // has not moved a pawn or taken anything for many moves is less
            // likely to be converted before the rule draws it. Linear, to
            // half at the fiftieth move (Stockfish scales its evaluation so too).
            let left = 200 - self.board.halfmove_clock().min(100) as i32;
            return e * left / 200;
        }
        e
    }

    /// [`Self::eval`] before the fifty-move scaling.
    fn unscaled_eval(&mut self) -> i32 {
        match self.nnue {
            Some((v, net)) => {
                let e = self.data.accumulators.evaluate_with(v, net, &self.board);
                // The incremental accumulators against a full refresh, in
                // debug builds (tests/nnue.rs checks the same on random games).
                debug_assert_eq!(
                    e,
                    crate::nnue::evaluate_on(v.path(), net, &self.board),
                    "{}",
                    self.board.to_fen()
                );
                let blend = self.params.hce_blend;
                if blend == 0 {
                    return e.clamp(-MAX_EVAL, MAX_EVAL);
                }
                // The two evaluations err in different positions: against
                // Stockfish 8 the hand-written one predicted the results of
                // the positions brokkr's net steered to better than the net
                // did (docs/scripts/net-bias.py), while in self-play the net
                // predicts better. Both run on about the same centipawn
                // scale. Measured: at 30% it cost a quarter of the speed and
                // scored 35.8% over 88 games against Stockfish 8, where the
                // net alone scores 47.4% (docs/strength.md), so it is off.
                let h = evaluate::<E::Bits, E::Slider>(
                    &self.board,
                    &mut self.data.pawns,
                    self.features.terms,
                );
                ((e * (100 - blend) + h * blend) / 100).clamp(-MAX_EVAL, MAX_EVAL)
            }
            None => evaluate::<E::Bits, E::Slider>(
                &self.board,
                &mut self.data.pawns,
                self.features.terms,
            ),
        }
    }

    /// A node's static evaluation, the one place the search forms it: the raw
    /// value from the hash (or evaluated afresh), corrected by what earlier
    /// searches found for this pawn structure, then replaced by the hash score
    /// where its bound says the score is better.
    #[inline]
    fn evals(&mut self, tt_hit: Option<TtHit>, ply: usize) -> Evals {
        let raw = match tt_hit {
            Some(h) if h.eval != VALUE_NONE => h.eval,
            _ => self.eval(),
        };
        let corrected = self.corrected(raw, ply);
        let best = match tt_hit {
            Some(h) if h.cuts(corrected, corrected) => h.score,
            _ => corrected,
        };
        Evals {
            raw,
            corrected,
            best,
        }
    }

    /// The static evaluation `raw` with the correction history's entry for this
    /// side to move and pawn structure added, kept clear of the mate scores.
    #[inline(always)]
    fn corrected(&self, raw: i32, ply: usize) -> i32 {
        if !self.features.corr_history {
            return raw;
        }
        let side = self.board.side_to_move();
        let c = self
            .data
            .histories
            .correction(side, self.correction_keys(ply));
        (raw + c).clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1)
    }

    /// The keys the correction history reads at `ply`: the pawn key, with
    /// `PieceCorrection` a hash of each colour's other pieces, and with
    /// `ContCorrection` the two moves that led here.
    #[inline(always)]
    fn correction_keys(&self, ply: usize) -> CorrectionKeys {
        let b = &self.board;
        let pieces = self.features.piece_correction.then(|| {
            let kind = |k| b.kind_bb(k);
            [Color::White, Color::Black].map(|c| {
                let own = b.color_bb(c);
                history::non_pawn_key(
                    kind(PieceKind::Knight) & own,
                    kind(PieceKind::Bishop) & own,
                    kind(PieceKind::Rook) & own,
                    kind(PieceKind::Queen) & own,
                    kind(PieceKind::King) & own,
                )
            })
        });
        let moves = if self.features.cont_correction {
            let (two, one) = (self.stack.before(ply, 2), self.stack.before(ply, 1));
            two.moved()
                .zip(one.moved())
                .map(|(a, b)| history::cont_correction_index(a, b))
        } else {
            None
        };
        CorrectionKeys {
            pawns: b.pawn_key(),
            pieces,
            moves,
        }
    }

    fn non_pawn_material(&self, color: Color) -> bool {
        let b = &self.board;
        b.color_bb(color) & !(b.kind_bb(PieceKind::Pawn) | b.kind_bb(PieceKind::King)) != 0
    }

    #[inline(always)]
    fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        self.lmr[depth.clamp(0, 63) as usize][move_count.min(63)] as i32
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}
