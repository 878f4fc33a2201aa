//! What the search learns about moves as it goes: killers, countermoves, and the
//! butterfly, capture and continuation histories that order quiet moves and captures;
//! and what it learns about the evaluation, the correction history.
//!
//! Every history entry is updated with "gravity": `h += bonus - h * |bonus| / MAX`.
//! An entry pulled toward a bonus slows down as it approaches `MAX`, so it never
//! leaves `-MAX..=MAX` and old results fade as new ones arrive.

use crate::types::{Bitboard, Color, Move, Piece};
use std::alloc::{alloc_zeroed, Layout};

/// Which of the four butterfly tables a quiet move's entry is in: whether
/// its from square is attacked by the other side (a move that may save a
/// piece) and whether its to square is (a move into an attack). The same move
/// is often good in one case and bad in the other, and one table would average
/// the two away.
#[inline(always)]
pub fn threat_index(m: Move, threats: Bitboard) -> usize {
    let from = (threats >> m.from().index()) & 1;
    let to = (threats >> m.to().index()) & 1;
    (2 * from + to) as usize
}

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
    /// By side, whether the from and to squares are attacked by the other side
    /// ([`threat_index`]), from square and to square (Gk's and every engine's
    /// "history heuristic", split by threats). Without the `ThreatHistory`
    /// switch the threat index is always 0.
    pub butterfly: [[[[i16; 64]; 64]; 4]; 2],
    /// By moving piece, target square and captured kind.
    pub capture: [[[i16; 6]; 64]; 12],
    /// By (piece, square) of the move one or two plies back, then (piece, square).
    pub continuation: [[PieceTo; 64]; 12],
    /// The move that refuted the previous (piece, square) last time.
    pub countermove: [[Move; 64]; 12],
    /// By side to move and pawn structure (the pawn key's low bits): how far the
    /// searches of such positions found the static evaluation off, in 1/16 cp.
    pub correction: [[i16; CORRECTION_SIZE]; 2],
    /// By side to move, then by the colour of the pieces and a hash of where
    /// that colour's knights, bishops, rooks, queens and king stand
    /// ([`non_pawn_key`]): the same correction, for the rest of the structure.
    /// Read only with the `PieceCorrection` switch.
    pub piece_correction: [[[i16; CORRECTION_SIZE]; 2]; 2],
    /// By the (piece, square) of the move two plies back, then of the move one
    /// ply back ([`cont_correction_index`]): the same correction, for what the
    /// last two moves did (the piece that moved says the side). Read only with
    /// the `ContCorrection` switch.
    pub cont_correction: [[i16; PIECE_SQUARES]; PIECE_SQUARES],
}

/// (piece, square) pairs: the continuation correction's index along each axis.
pub const PIECE_SQUARES: usize = 12 * 64;

/// The continuation correction's entry for the moves two plies and one ply
/// back, each as (piece index, target square).
#[inline(always)]
pub fn cont_correction_index(two_back: (usize, usize), one_back: (usize, usize)) -> [usize; 2] {
    [two_back.0 * 64 + two_back.1, one_back.0 * 64 + one_back.1]
}

/// The keys of a position that the correction history reads: its pawn key,
/// with the `PieceCorrection` switch each colour's [`non_pawn_key`], and with
/// the `ContCorrection` switch the last two moves ([`cont_correction_index`];
/// `None` after a null move or near the root).
#[derive(Clone, Copy, Debug)]
pub struct CorrectionKeys {
    pub pawns: u64,
    pub pieces: Option<[u64; 2]>,
    pub moves: Option<[usize; 2]>,
}

/// A hash of where one colour's pieces other than pawns stand, from their
/// bitboards. Each bitboard is multiplied by its own odd constant (which keeps
/// it one-to-one) and the products are folded together, then mixed (the
/// SplitMix64 finaliser) so that the low bits that index the table depend on
/// every square. It is computed afresh at the nodes that read it, so the board
/// and its make/unmake (perft's hot path) carry no extra key.
#[inline]
pub fn non_pawn_key(knights: u64, bishops: u64, rooks: u64, queens: u64, king: u64) -> u64 {
    let h = knights.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ bishops.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(17)
        ^ rooks.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(31)
        ^ queens.wrapping_mul(0x27D4_EB2F_1656_67C5).rotate_left(47)
        ^ king.wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(7);
    let h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Entries of the correction history per side.
pub const CORRECTION_SIZE: usize = 16_384;

/// Units of a correction entry per centipawn.
const CORRECTION_GRAIN: i32 = 16;

/// The largest correction, in centipawns.
pub const CORRECTION_MAX: i32 = 128;

impl Histories {
    /// Zeroed histories on the heap (about 2.6 MB), zeroed by the allocator.
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

    /// The butterfly score of a quiet move, `threats` the squares the other
    /// side attacks (0 without the `ThreatHistory` switch).
    #[inline(always)]
    pub fn quiet(&self, side: Color, m: Move, threats: Bitboard) -> i32 {
        self.butterfly[side.index()][threat_index(m, threats)][m.from().index()][m.to().index()]
            as i32
    }

    /// What to add to the static evaluation of a position with `side` to move
    /// and correction keys `keys`, in centipawns: the sum of its entries (the
    /// pawn structure's alone without the piece keys), within `CORRECTION_MAX`.
    #[inline(always)]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        self.correction_sum(side, keys) / CORRECTION_GRAIN
    }

    /// The sum of the entries `keys` select, in 1/16 cp, within the bound.
    #[inline(always)]
    fn correction_sum(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let s = side.index();
        let mut sum = self.correction[s][keys.pawns as usize % CORRECTION_SIZE] as i32;
        if let Some(pieces) = keys.pieces {
            for (c, key) in pieces.iter().enumerate() {
                sum += self.piece_correction[s][c][*key as usize % CORRECTION_SIZE] as i32;
            }
        }
        if let Some([a, b]) = keys.moves {
            sum += self.cont_correction[a % PIECE_SQUARES][b % PIECE_SQUARES] as i32;
        }
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        sum.clamp(-limit, limit)
    }

    /// A search of `depth` found the position worth `error` centipawns more than
    /// its raw static evaluation: move the correction toward it, the more the
    /// deeper the search (a running average with weight `min(depth + 1, 16) /
    /// 256`). With the piece keys the entries form a sum, so each one moves by
    /// the step the sum would take alone (the least-mean-squares rule: an entry
    /// learns what the others leave unexplained); with the pawn key alone that
    /// is the running average of the error.
    #[inline(always)]
    pub fn update_correction(&mut self, side: Color, keys: CorrectionKeys, error: i32, depth: i32) {
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        let target = (error * CORRECTION_GRAIN).clamp(-limit, limit);
        let weight = (depth + 1).clamp(1, 16);
        let sum = self.correction_sum(side, keys);
        let step = (sum * (256 - weight) + target * weight) / 256 - sum;
        let s = side.index();
        let nudge = |e: &mut i16| *e = (*e as i32 + step).clamp(-limit, limit) as i16;
        nudge(&mut self.correction[s][keys.pawns as usize % CORRECTION_SIZE]);
        if let Some(pieces) = keys.pieces {
            for (c, key) in pieces.iter().enumerate() {
                nudge(&mut self.piece_correction[s][c][*key as usize % CORRECTION_SIZE]);
            }
        }
        if let Some([a, b]) = keys.moves {
            nudge(&mut self.cont_correction[a % PIECE_SQUARES][b % PIECE_SQUARES]);
        }
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
        let key = CorrectionKeys {
            pawns: 0x1234_5678_9abc_def0,
            pieces: None,
            moves: None,
        };
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

    #[test]
    fn piece_keys_learn_what_the_pawn_structure_cannot() {
        // Two positions with one pawn structure and different pieces, whose
        // searches find the evaluation off in opposite directions.
        let mut h = Histories::new_boxed();
        let pawns = 0x0F0F_0000_1111_2222;
        let keys = |k: u64| CorrectionKeys {
            pawns,
            pieces: Some([
                non_pawn_key(k, 0, 0, 0, 16),
                non_pawn_key(0, 0, 0, 0, 1 << 60),
            ]),
            moves: None,
        };
        let (a, b) = (keys(1 << 1), keys(1 << 6));
        assert_ne!(a.pieces, b.pieces);
        for _ in 0..2_000 {
            h.update_correction(Color::White, a, 50, 12);
            h.update_correction(Color::White, b, -30, 12);
        }
        // The sum fits each position (the rounding down aside) ...
        assert!(
            (47..=50).contains(&h.correction(Color::White, a)),
            "{}",
            h.correction(Color::White, a)
        );
        assert!(
            (-30..=-27).contains(&h.correction(Color::White, b)),
            "{}",
            h.correction(Color::White, b)
        );
        // ... where the pawn key alone can only split the difference.
        let pawns_only = |k: CorrectionKeys| CorrectionKeys { pieces: None, ..k };
        let mut p = Histories::new_boxed();
        for _ in 0..2_000 {
            p.update_correction(Color::White, pawns_only(a), 50, 12);
            p.update_correction(Color::White, pawns_only(b), -30, 12);
        }
        let shared = p.correction(Color::White, pawns_only(a));
        assert!((0..=20).contains(&shared), "{shared}");
        // Every entry and every sum stays within the bound under huge errors.
        for _ in 0..2_000 {
            h.update_correction(Color::Black, a, 100_000, 30);
            assert!(h.correction(Color::Black, a) <= CORRECTION_MAX);
        }
        let limit = (CORRECTION_MAX * CORRECTION_GRAIN) as i16;
        let entries = h.correction.iter().flatten();
        let pieces = h.piece_correction.iter().flatten().flatten();
        assert!(entries.chain(pieces).all(|e| (-limit..=limit).contains(e)));
    }

    #[test]
    fn move_keys_learn_what_the_position_keys_cannot() {
        // One position reached by two move orders, whose searches find the
        // evaluation off in opposite directions: the last two moves tell them
        // apart where the pawn and piece keys cannot.
        let mut h = Histories::new_boxed();
        let keys = |moves| CorrectionKeys {
            pawns: 0x00FF_0000_0000_FF00,
            pieces: Some([
                non_pawn_key(2, 4, 8, 16, 32),
                non_pawn_key(0, 0, 1 << 63, 0, 1 << 60),
            ]),
            moves: Some(moves),
        };
        let a = keys(cont_correction_index((1, 21), (7, 45)));
        let b = keys(cont_correction_index((4, 2), (9, 58)));
        for _ in 0..2_000 {
            h.update_correction(Color::White, a, 60, 12);
            h.update_correction(Color::White, b, -20, 12);
        }
        let (ca, cb) = (h.correction(Color::White, a), h.correction(Color::White, b));
        assert!((57..=60).contains(&ca), "{ca}");
        assert!((-20..=-17).contains(&cb), "{cb}");
        // Without the move keys the two are one position, split down the middle.
        let mut p = Histories::new_boxed();
        let same = |k: CorrectionKeys| CorrectionKeys { moves: None, ..k };
        for _ in 0..2_000 {
            p.update_correction(Color::White, same(a), 60, 12);
            p.update_correction(Color::White, same(b), -20, 12);
        }
        let shared = p.correction(Color::White, same(a));
        assert!((0..=40).contains(&shared), "{shared}");
        // The index stays inside the table for every piece and square.
        let last = cont_correction_index((11, 63), (11, 63));
        assert!(last.iter().all(|&i| i < PIECE_SQUARES));
    }

    #[test]
    fn non_pawn_keys_spread_over_the_table() {
        // One knight on each square, and the king on each square: 128
        // placements, which should fill about 128 distinct slots.
        let mut slots: Vec<usize> = (0..64)
            .map(|sq| non_pawn_key(1 << sq, 0, 0, 0, 1) as usize % CORRECTION_SIZE)
            .chain((0..64).map(|sq| non_pawn_key(0, 0, 0, 0, 1 << sq) as usize % CORRECTION_SIZE))
            .collect();
        slots.sort_unstable();
        slots.dedup();
        assert!(slots.len() >= 120, "{}", slots.len());
    }
}
