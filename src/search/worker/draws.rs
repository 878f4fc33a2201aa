//! The draw rules as the search asks them, from the shared ones in
//! [`crate::board::draw`].

use super::Worker;
use crate::board::draw;
use crate::paths::Engine;

impl<E: Engine> Worker<'_, E> {
    /// A repetition (once inside the tree, or three times counting the game),
    /// the fifty-move rule (unless this is mate), or too little material to mate.
    pub(super) fn is_draw(&self, ply: usize) -> bool {
        let b = &self.board;
        draw::is_fifty_move_draw::<E::Bits, E::Slider>(b)
            || b.insufficient_material()
            || draw::is_repetition(&self.keys, b.key(), self.window(ply), ply)
    }

    /// The plies a repetition may reach back from `ply`: the halfmove clock, and
    /// no further than the last null move.
    pub(super) fn window(&self, ply: usize) -> usize {
        (self.board.halfmove_clock() as usize).min(self.stack.at(ply).since_null)
    }
}
