//! The root moves and what each iteration found for them.
//!
//! Each iteration starts by moving every score to `prev_score` and clearing the
//! score (Stockfish's way). A move gets a score in this iteration only when it is
//! searched: the first move of a window always, a later one when it raises alpha
//! (the others failed low, which says only "worse than the best"). So when a stop
//! cuts an iteration short, the moves searched to the end of this iteration with a
//! score lead, ordered by it; if none was, the order is the last iteration's (by
//! `prev_score`). A move is never played on the strength of an earlier
//! iteration's score while a move of this iteration has one.

use crate::search::score::INFINITE;
use crate::search::tt::Bound;
use crate::types::Move;
use std::ops::{Index, IndexMut};

/// A root move with what the last iterations found.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    /// This iteration's score, or `-INFINITE` when it has none yet.
    pub score: i32,
    /// The last iteration's score (or `-INFINITE`).
    pub prev_score: i32,
    /// How `score` bounds the move's value, for a report after a failed window.
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// The score the tablebases give the move, when the root is in them.
    pub tb_score: Option<i32>,
    /// The nodes searched below the move, over every iteration so far.
    pub nodes: u64,
}

impl RootMove {
    /// The score to show and play by: this iteration's, else the last one's.
    pub fn shown_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.prev_score
        } else {
            self.score
        }
    }
}

/// The root moves, best first once an iteration has sorted them.
#[derive(Clone, Debug)]
pub(super) struct RootMoves(Vec<RootMove>);

impl RootMoves {
    /// The legal moves `legal`, restricted to `wanted` (`go searchmoves`) when that
    /// names any of them, in a canonical order, so every backend searches the
    /// same tree.
    pub fn new(legal: impl Iterator<Item = Move>, wanted: &[Move]) -> RootMoves {
        let legal: Vec<Move> = legal.collect();
        // searchmoves with no legal move in it: search every move rather than none.
        let restrict = legal.iter().any(|m| wanted.contains(m));
        let mut moves: Vec<RootMove> = legal
            .into_iter()
            .filter(|m| !restrict || wanted.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                bound: Bound::Exact,
                seldepth: 0,
                pv: vec![mv],
                tb_score: None,
                nodes: 0,
            })
            .collect();
        moves.sort_by_key(|r| r.mv.bits());
        RootMoves(moves)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The move at `i` in the current order, if any.
    pub fn get(&self, i: usize) -> Option<&RootMove> {
        self.0.get(i)
    }

    /// Keep only the moves the tables rank best among these (Stockfish searches
    /// just the first group of equal rank), each with its tablebase score.
    /// Moves the ranking does not know are kept as they are.
    pub fn keep_tb_best(&mut self, ranked: &[crate::syzygy::RootMove]) {
        let rank = |m: Move| ranked.iter().find(|r| r.mv == m);
        let Some(best) = self
            .0
            .iter()
            .filter_map(|r| rank(r.mv))
            .map(|r| r.rank)
            .max()
        else {
            return;
        };
        self.0.retain(|r| rank(r.mv).is_none_or(|t| t.rank == best));
        for r in &mut self.0 {
            r.tb_score = rank(r.mv).map(|t| t.score);
        }
    }

    /// The entry of move `m`.
    pub fn find_mut(&mut self, m: Move) -> Option<&mut RootMove> {
        self.0.iter_mut().find(|r| r.mv == m)
    }

    /// Count `nodes` more searched below move `m`.
    pub fn add_nodes(&mut self, m: Move, nodes: u64) {
        if let Some(rm) = self.find_mut(m) {
            rm.nodes += nodes;
        }
    }

    /// A new iteration: every score becomes the previous one and is cleared.
    pub fn start_iteration(&mut self) {
        for rm in &mut self.0 {
            rm.prev_score = rm.score;
            rm.score = -INFINITE;
        }
    }

    /// Record a move searched in this iteration: `score` when it is the first of
    /// its window or raised alpha (with its line), else no score.
    pub fn record(&mut self, m: Move, score: Option<i32>, seldepth: usize, line: &[Move]) {
        let Some(rm) = self.find_mut(m) else {
            return;
        };
        match score {
            Some(s) => {
                rm.score = s;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(line);
            }
            None => rm.score = -INFINITE,
        }
    }

    /// Order the first `last + 1` moves (the lines of a multi-PV search searched
    /// so far) by this iteration's score. Stable.
    pub fn sort_lines(&mut self, last: usize) {
        self.0[..=last].sort_by_key(|r| std::cmp::Reverse(r.score));
    }

    /// Move the entry at `i` to the front, the ones before it one place down
    /// (the move a strength limit chose to play).
    pub fn bring_to_front(&mut self, i: usize) {
        self.0[..=i].rotate_right(1);
    }

    /// Order the moves from `from` on: by this iteration's score, then the last
    /// one's. Stable, so equal moves keep their order.
    pub fn sort_from(&mut self, from: usize) {
        self.0[from..].sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
    }
}

impl Index<usize> for RootMoves {
    type Output = RootMove;
    fn index(&self, i: usize) -> &RootMove {
        &self.0[i]
    }
}

impl IndexMut<usize> for RootMoves {
    fn index_mut(&mut self, i: usize) -> &mut RootMove {
        &mut self.0[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_never_plays_by_the_last_iterations_score() {
        // Iteration 1 found a (50) best, and b raised alpha on the way (30).
        let (a, b, c) = (
            Move::normal(12, 28),
            Move::normal(6, 21),
            Move::normal(1, 18),
        );
        let mut r = RootMoves::new([a, b, c].into_iter(), &[]);
        r.start_iteration();
        r.record(b, Some(30), 5, &[]);
        r.record(a, Some(50), 5, &[]);
        r.record(c, None, 5, &[]);
        r.sort_from(0);
        assert_eq!(r[0].mv, a);
        // Iteration 2 searches a first and finds it worse (10); a stop comes
        // before b is searched. b's 30 is from the last iteration: a, searched
        // to the end of this one, is the move to play.
        r.start_iteration();
        r.record(a, Some(10), 6, &[]);
        r.sort_from(0);
        assert_eq!(r[0].mv, a, "{r:?}");
        assert_eq!(r[0].shown_score(), 10);
        // Had nothing finished, the last iteration's order stands.
        r.start_iteration();
        r.sort_from(0);
        assert_eq!(r[0].mv, a, "{r:?}");
        assert_eq!(r[0].shown_score(), 10);
    }

    #[test]
    fn a_moves_nodes_add_up_over_iterations_and_follow_it() {
        let (a, b) = (Move::normal(12, 28), Move::normal(6, 21));
        let mut r = RootMoves::new([a, b].into_iter(), &[]);
        r.add_nodes(a, 100);
        r.add_nodes(b, 40);
        r.start_iteration();
        r.add_nodes(b, 500);
        r.record(b, Some(20), 3, &[]);
        r.record(a, None, 3, &[]);
        r.sort_from(0);
        // The counts stay with their moves through the new order.
        assert_eq!((r[0].mv, r[0].nodes), (b, 540));
        assert_eq!((r[1].mv, r[1].nodes), (a, 100));
        // A move not at the root counts nowhere.
        r.add_nodes(Move::normal(0, 1), 7);
        assert_eq!(r[0].nodes + r[1].nodes, 640);
    }

    #[test]
    fn searchmoves_restrict_the_root_unless_none_is_legal() {
        let (a, b) = (Move::normal(12, 28), Move::normal(6, 21));
        let only_b = RootMoves::new([a, b].into_iter(), &[b]);
        assert_eq!((only_b.len(), only_b[0].mv), (1, b));
        let none = RootMoves::new([a, b].into_iter(), &[Move::normal(0, 1)]);
        assert_eq!(none.len(), 2);
    }
}
