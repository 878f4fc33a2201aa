//! What the search learns about moves as it goes: killers, countermoves, and the
//! butterfly, capture and continuation histories that order quiet moves and captures;
//! and what it learns about the evaluation, the correction history.
//!
//! Every history entry is updated with "gravity": `h += bonus - h * |bonus| / MAX`.
//! An entry pulled toward a bonus slows down as it approaches `MAX`, so it never
//! leaves `-MAX..=MAX` and old results fade as new ones arrive.

use crate::types::{Color, Move, Piece};
use std::alloc::{alloc_zeroed, Layout};

/// The bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// Apply a bonus (positive) or malus (negative) to one entry, with gravity.
#[inline(always)]
pub fn update(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

/// The bonus for a move that caused a cut-off at `depth`.
#[inline(always)]
pub fn bonus(depth: i32) -> i32 {
    (depth * 170 - 100).clamp(0, 1800)
}

/// Continuation history for one (piece, square) of an earlier move: a score for
/// every (piece, square) of the move that follows it.
pub type PieceTo = [[i16; 64]; 12];

/// The histories of one search thread.
pub struct Histories {
    /// By side, from square and to square (Gk's and every engine's "history heuristic").
    pub butterfly: [[[i16; 64]; 64]; 2],
    /// By moving piece, target square and captured kind.
    pub capture: [[[i16; 6]; 64]; 12],
    /// By (piece, square) of the move one or two plies back, then (piece, square).
    pub continuation: [[PieceTo; 64]; 12],
    /// The move that refuted the previous (piece, square) last time.
    pub countermove: [[Move; 64]; 12],
    /// By side to move and pawn structure (the pawn key's low bits): how far the
    /// searches of such positions found the static evaluation off, in 1/16 cp.
    pub correction: [[i16; CORRECTION_SIZE]; 2],
}

/// Entries of the correction history per side.
pub const CORRECTION_SIZE: usize = 16_384;

/// Units of a correction entry per centipawn.
const CORRECTION_GRAIN: i32 = 16;

/// The largest correction, in centipawns.
pub const CORRECTION_MAX: i32 = 128;

impl Histories {
    /// Zeroed histories on the heap (about 1.3 MB), zeroed by the allocator.
    pub fn new_boxed() -> Box<Histories> {
        let layout = Layout::new::<Histories>();
        // SAFETY: the layout is non-zero-sized. All-zero bytes are a valid
        // `Histories`: integers and `Move(0)` (the null move). The pointer comes
        // from the global allocator with `Histories`'s layout, as `Box` requires.
        unsafe {
            let ptr = alloc_zeroed(layout) as *mut Histories;
            if ptr.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(ptr)
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        // SAFETY: all-zero bytes are a valid `Histories` (see `new_boxed`), and
        // `self` is one valid, exclusively borrowed value.
        unsafe { std::ptr::write_bytes(self as *mut Histories, 0, 1) }
    }

    /// The butterfly score of a quiet move.
    #[inline(always)]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        self.butterfly[side.index()][m.from().index()][m.to().index()] as i32
    }

    /// What to add to the static evaluation of a position with `side` to move and
    /// pawn key `pawn_key`, in centipawns.
    #[inline(always)]
    pub fn correction(&self, side: Color, pawn_key: u64) -> i32 {
        self.correction[side.index()][pawn_key as usize % CORRECTION_SIZE] as i32 / CORRECTION_GRAIN
    }

    /// A search of `depth` found the position worth `error` centipawns more than
    /// its raw static evaluation: move the entry toward it, the more the deeper
    /// the search (a running average with weight `min(depth + 1, 16) / 256`).
    #[inline(always)]
    pub fn update_correction(&mut self, side: Color, pawn_key: u64, error: i32, depth: i32) {
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        let target = (error * CORRECTION_GRAIN).clamp(-limit, limit);
        let weight = (depth + 1).clamp(1, 16);
        let e = &mut self.correction[side.index()][pawn_key as usize % CORRECTION_SIZE];
        *e = ((*e as i32 * (256 - weight) + target * weight) / 256) as i16;
    }

    /// The capture-history score.
    #[inline(always)]
    pub fn capture_score(&self, piece: Piece, to: usize, captured: usize) -> i32 {
        self.capture[piece.index()][to][captured] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded() {
        let mut e = 0i16;
        for _ in 0..10_000 {
            update(&mut e, 5000);
            assert!((e as i32) <= HISTORY_MAX);
        }
        assert!(e as i32 > HISTORY_MAX - 100);
        for _ in 0..10_000 {
            update(&mut e, -99_999);
            assert!((e as i32) >= -HISTORY_MAX);
        }
        assert_eq!(e as i32, -HISTORY_MAX);
    }

    #[test]
    fn corrections_follow_the_error_and_stay_bounded() {
        let mut h = Histories::new_boxed();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(h.correction(Color::White, key), 0);
        for _ in 0..2_000 {
            h.update_correction(Color::White, key, 40, 12);
        }
        // Converges on the error (up to the integer division's rounding down).
        assert!((38..=40).contains(&h.correction(Color::White, key)));
        // The other side's entry is apart.
        assert_eq!(h.correction(Color::Black, key), 0);
        // A huge error is clamped: the entry never passes the bound, and ends
        // within the rounding of it.
        for _ in 0..2_000 {
            h.update_correction(Color::White, key, -100_000, 30);
            assert!(h.correction(Color::White, key) >= -CORRECTION_MAX);
        }
        assert!(h.correction(Color::White, key) <= -CORRECTION_MAX + 1);
        h.clear();
        assert_eq!(h.correction(Color::White, key), 0);
    }
}
