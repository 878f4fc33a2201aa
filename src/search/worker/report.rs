//! What the main thread tells the GUI: each iteration's lines, the principal
//! variation completed from the hash, and the search's result.

use super::Worker;
use crate::paths::Engine;
use crate::search::score::*;
use crate::search::{Event, Info, SearchResult};
use crate::types::Move;

impl<E: Engine> Worker<'_, E> {
    pub(super) fn report_lines(&mut self, multipv: usize, report: &(dyn Fn(Event) + Sync)) {
        for i in 0..multipv {
            self.report_line(i, self.completed_depth, report);
        }
    }

    pub(super) fn report_line(&mut self, i: usize, depth: i32, report: &(dyn Fn(Event) + Sync)) {
        let rm = &self.root_moves[i];
        let mut score = rm.shown_score();
        if score == -INFINITE {
            return;
        }
        // A root in the tablebases shows their verdict unless the search found
        // a mate (Stockfish's display).
        if let Some(tb) = rm.tb_score.filter(|_| !is_mate(score)) {
            score = tb;
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
            tbhits: self.tb_hits(),
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

    /// The tablebase hits so far, when tables are in use.
    pub(super) fn tb_hits(&self) -> Option<u64> {
        self.shared.settings.syzygy.tables.as_ref().map(|_| {
            self.shared
                .tb_hits
                .load(std::sync::atomic::Ordering::Relaxed)
        })
    }

    pub(super) fn result(&self) -> SearchResult {
        let best = &self.root_moves[0];
        let mut pv = best.pv.clone();
        self.complete_pv(&mut pv, 2);
        SearchResult {
            best: best.mv,
            ponder: pv.get(1).copied(),
            score: best.shown_score(),
            depth: self.completed_depth,
            nodes: self.nodes,
            pv,
        }
    }
}
