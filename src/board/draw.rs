//! The draw rules, written once for every part of brokkr that asks: the search,
//! the game a protocol keeps ([`Position`](super::Position)), and datagen.
//!
//! Repetitions are found by the Zobrist keys of earlier positions. Only positions
//! with the same side to move can repeat (every second ply back), none before the
//! last capture or pawn move (the halfmove clock), and none across a null move.

use super::Board;
use crate::attacks::Slider;
use crate::bits::Bits;

/// The distances in plies (4, 6, ...) back to the earlier occurrences of `key`
/// among `keys` (the positions before the current one, oldest first), looking
/// back at most `window` plies: the halfmove clock, or fewer since a null move.
#[inline]
pub fn occurrences(keys: &[u64], key: u64, window: usize) -> impl Iterator<Item = usize> + '_ {
    let n = keys.len();
    (4..=window.min(n))
        .step_by(2)
        .filter(move |&d| keys[n - d] == key)
}

/// Whether a search `plies_from_root` plies below its root scores the position
/// `key` as a repetition draw: once inside the tree is enough (the side that can
/// repeat can repeat again), while before the root it takes two earlier
/// occurrences (a threefold repetition of the game).
#[inline]
pub fn is_repetition(keys: &[u64], key: u64, window: usize, plies_from_root: usize) -> bool {
    let mut seen = 0;
    for d in occurrences(keys, key, window) {
        if d < plies_from_root {
            return true;
        }
        seen += 1;
        if seen >= 2 {
            return true;
        }
    }
    false
}

/// The fifty-move rule: a hundred plies without a capture or a pawn move draw,
/// unless the last of them mated.
#[inline]
pub fn is_fifty_move_draw<B: Bits, S: Slider>(board: &Board<S>) -> bool {
    board.halfmove_clock() >= 100 && !(board.in_check() && board.count_moves::<B>() == 0)
}
