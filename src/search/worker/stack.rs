//! The search stack: what the search keeps per ply, one [`Frame`] a ply, read
//! by ply and by distance from it (Stockfish's `ss - 1`, `ss + 2`).

use crate::board::NO_PIECE;
use crate::search::score::{MAX_PLY, VALUE_NONE};
use crate::types::*;

/// Frames kept below ply 0, so the look-backs need no bounds test at the root:
/// 4 because the furthest one is `improving`'s, the static evaluation four plies
/// back (the continuation histories and the countermove read one and two back).
/// These frames keep their defaults: no move, no static evaluation.
const FRAMES_BELOW_ROOT: usize = 4;

/// Frames kept above `MAX_PLY`: the deepest node that goes on, at
/// `MAX_PLY - 2`, clears the killers two plies on, at `MAX_PLY`; the rest is
/// slack.
const FRAMES_ABOVE_MAX_PLY: usize = 4;

/// What the search keeps per ply.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    /// The move played from this ply (null for a null move).
    pub mv: Move,
    /// The moved piece's index (0..12), [`NO_PIECE`] for none, and the target square: the
    /// continuation-history coordinates of the move.
    pub piece: u8,
    pub to: u8,
    /// Whether that move was a capture or a promotion.
    pub noisy: bool,
    pub static_eval: i32,
    pub killers: [Move; 2],
    pub excluded: Move,
    /// Plies since the last null move (repetitions cannot cross one).
    pub since_null: usize,
    /// Extensions on the path to this ply, to bound the tree.
    pub extensions: i32,
    /// Double extensions on the path to this ply: bounded apart, since each
    /// one costs the tree twice.
    pub double_extensions: i32,
    /// The squares the side not to move attacks here, as the butterfly
    /// history reads them: set by the main search before its move loop (0
    /// without the `ThreatHistory` switch).
    pub threats: Bitboard,
    /// Whether this node is or was on a principal variation (see
    /// [`TtHit::pv`](crate::search::tt::TtHit::pv)): set by the main search
    /// on entry, read by its children and its singular search.
    pub tt_pv: bool,
    /// Beta cut-offs at this ply since the node two plies up began, counted
    /// twice without a hash move (Stockfish's `cutoffCnt`). Read by the node
    /// one ply up: many of its children failing high means its moves keep
    /// being refuted.
    pub cutoffs: u32,
}

impl Frame {
    /// The piece that moved into this ply and its target square, as the
    /// histories index them; `None` after a null move and at the root.
    #[inline(always)]
    pub fn moved(&self) -> Option<(usize, usize)> {
        (self.piece < NO_PIECE).then_some((self.piece as usize, self.to as usize))
    }
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            mv: Move::NULL,
            piece: NO_PIECE,
            to: 0,
            noisy: false,
            static_eval: VALUE_NONE,
            killers: [Move::NULL; 2],
            excluded: Move::NULL,
            since_null: usize::MAX / 2,
            extensions: 0,
            double_extensions: 0,
            threats: 0,
            tt_pv: false,
            cutoffs: 0,
        }
    }
}

/// One search thread's frames, from [`FRAMES_BELOW_ROOT`] below the root to
/// [`FRAMES_ABOVE_MAX_PLY`] above the deepest ply. An array in the worker
/// rather than a `Vec`: a frame is found from the worker's address and the ply
/// alone, with no pointer or length to load first, and `bench 6` runs 2.3% fewer
/// instructions outside memset under callgrind (344.2 M against 352.2 M with
/// the `Vec`).
pub(super) struct Stack {
    frames: [Frame; FRAMES],
}

const FRAMES: usize = FRAMES_BELOW_ROOT + MAX_PLY + FRAMES_ABOVE_MAX_PLY;

impl Stack {
    pub fn new() -> Stack {
        Stack {
            frames: [Frame::default(); FRAMES],
        }
    }

    /// The frame of `ply`.
    #[inline(always)]
    pub fn at(&self, ply: usize) -> &Frame {
        &self.frames[ply + FRAMES_BELOW_ROOT]
    }

    #[inline(always)]
    pub fn at_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply + FRAMES_BELOW_ROOT]
    }

    /// The frame `n` plies before `ply` (`n` at most [`FRAMES_BELOW_ROOT`]).
    #[inline(always)]
    pub fn before(&self, ply: usize, n: usize) -> &Frame {
        &self.frames[ply + FRAMES_BELOW_ROOT - n]
    }

    /// The child of `ply` inherits its path's extensions plus `extension`, the
    /// child's own (0 for a null move or ProbCut's probe).
    #[inline(always)]
    pub fn extend_child(&mut self, ply: usize, extension: i32) {
        let Frame {
            extensions,
            double_extensions,
            ..
        } = *self.at(ply);
        let child = self.after_mut(ply, 1);
        child.extensions = extensions + extension.max(0);
        child.double_extensions = double_extensions + (extension >= 2) as i32;
    }

    /// The frame `n` plies after `ply`, for a node to prepare its children's.
    #[inline(always)]
    pub fn after_mut(&mut self, ply: usize, n: usize) -> &mut Frame {
        &mut self.frames[ply + FRAMES_BELOW_ROOT + n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_inherits_its_paths_extensions_and_counts_doubles_apart() {
        let mut s = Stack::new();
        for (ply, extension) in [(0, 1), (1, 2), (2, -1), (3, 0)] {
            s.extend_child(ply, extension);
        }
        let counts = [1, 2, 3, 4].map(|p| (s.at(p).extensions, s.at(p).double_extensions));
        // A negative extension (a reduction) adds to neither count.
        assert_eq!(counts, [(1, 0), (3, 1), (3, 1), (3, 1)]);
    }
}
