//! Perft on the quad-bitboard board, with bulk counting at the last ply.
//!
//! Above the last ply no move list is built either: the generator hands each
//! move to a sink that makes it on a copy of the board and searches the child at
//! once, so a node costs one 56-byte copy and no heap or list traffic.

use super::Lookup;
use super::{Qbb, BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
use crate::bits::Bits;
use crate::board::movegen::Sink;
use crate::types::*;
use std::marker::PhantomData;

/// The number of leaf nodes `depth` plies below `q`.
pub fn perft<B: Bits, S: Lookup>(q: &Qbb, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => q.count_moves::<B, S>(),
        _ => {
            let mut e = Expand::<B, S> {
                q,
                depth: depth - 1,
                nodes: 0,
                _paths: PhantomData,
            };
            q.generate::<B, S, _>(&mut e);
            e.nodes
        }
    }
}

/// Perft split by root move: each legal move (absolute coordinates, for the
/// main board's notation) with its leaf count.
pub fn divide<B: Bits, S: Lookup>(q: &Qbb, depth: u32) -> Vec<(Move, u64)> {
    q.legal_moves::<B, S>()
        .iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                perft::<B, S>(&q.make(m), depth - 1)
            };
            (q.to_absolute(m), n)
        })
        .collect()
}

/// A sink that makes every move it gets and adds the child's perft.
struct Expand<'a, B: Bits, S: Lookup> {
    q: &'a Qbb,
    /// The depth of the children.
    depth: u32,
    nodes: u64,
    _paths: PhantomData<(B, S)>,
}

impl<B: Bits, S: Lookup> Expand<'_, B, S> {
    #[inline(always)]
    fn child(&mut self, q: &Qbb) {
        self.nodes += perft::<B, S>(q, self.depth);
    }
}

impl<B: Bits, S: Lookup> Sink for Expand<'_, B, S> {
    #[inline(always)]
    fn piece_moves(&mut self, from: usize, mut targets: Bitboard) {
        if targets == 0 {
            return;
        }
        let code = self.q.code_at(from);
        while targets != 0 {
            let to = B::pop_lsb(&mut targets) as usize;
            self.child(&self.q.make_simple(from, to, code));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets) as usize;
            let from = (to as i32 - delta) as usize;
            let child = if delta == 16 {
                self.q.make_double_step(from)
            } else {
                self.q.make_simple(from, to, PAWN)
            };
            self.child(&child);
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets) as usize;
            let from = (to as i32 - delta) as usize;
            for code in [QUEEN, KNIGHT, ROOK, BISHOP] {
                self.child(&self.q.make_simple(from, to, code));
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.child(&self.q.make(m));
    }
}
