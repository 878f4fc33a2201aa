//! Pawn structure, and the per-thread pawn hash that caches it.
//!
//! Everything here depends on the pawns alone, so it is computed once per pawn
//! formation (keyed by `Board::pawn_key`) and reused: doubled, isolated, backward,
//! connected and phalanx pawns, and the passed pawns' base value by rank. What
//! depends on the pieces as well (blockers, kings) is in `super::passed`.

use super::geometry::{front, pawn_attacks, relative_rank};
use super::params::*;
use super::score::S;
use super::trace::{Term, Trace};
use super::weight;
use crate::bits::Bits;
use crate::tables::{FORWARD_SPAN, ISOLATED_PAWN_MASK, PASSED_PAWN_MASK, PAWN_ATTACKS};
use crate::types::Color;

/// What the pawn hash keeps for one pawn formation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PawnEntry {
    key: u64,
    /// The structure's value, White's minus Black's.
    pub score: S,
    /// The passed pawns of each colour.
    pub passed: [u64; 2],
}

/// Entries in one table: 8192 * 32 bytes = 256 KiB per thread.
const ENTRIES: usize = 1 << 13;

/// Per-thread pawn hash (keyed by `Board::pawn_key`). Small, and allocated by
/// [`PawnTable::new`], not at program start.
#[derive(Clone)]
pub struct PawnTable {
    entries: Box<[PawnEntry]>,
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![PawnEntry::default(); ENTRIES].into_boxed_slice(),
        }
    }

    /// Forget every entry (for a new game).
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }

    /// The entry for the formation `white`/`black` with key `key`, computed on a miss.
    ///
    /// A default entry has key 0 and holds the value of "no pawns at all", which is
    /// exactly the formation whose key is 0, so an empty slot is never wrong.
    #[inline]
    pub(crate) fn probe<B: Bits>(&mut self, key: u64, white: u64, black: u64) -> PawnEntry {
        let slot = &mut self.entries[(key as usize) & (ENTRIES - 1)];
        if slot.key != key {
            *slot = structure::<B, _>(white, black, &mut super::trace::NoTrace);
            slot.key = key;
        }
        *slot
    }
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl std::fmt::Debug for PawnTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PawnTable({} entries)", self.entries.len())
    }
}

/// The structure of the formation `white`/`black`, computed from scratch (the key
/// field is left 0).
pub(crate) fn structure<B: Bits, T: Trace>(white: u64, black: u64, t: &mut T) -> PawnEntry {
    let mut e = PawnEntry::default();
    let pawns = [white, black];
    for c in Color::BOTH {
        let (s, passed) = side::<B, T>(c, pawns[c.index()], pawns[c.flip().index()], t);
        t.term(Term::Pawns, c, s);
        e.passed[c.index()] = passed;
        e.score += if c == Color::White { s } else { -s };
    }
    e
}

/// One side's pawn structure value and its passed pawns.
fn side<B: Bits, T: Trace>(c: Color, ours: u64, theirs: u64, t: &mut T) -> (S, u64) {
    let mut s = S::ZERO;
    let mut passed = 0;
    let their_attacks = pawn_attacks(c.flip(), theirs);
    let mut bb = ours;
    while bb != 0 {
        let sq = B::pop_lsb(&mut bb) as usize;
        let r = relative_rank(c, sq);
        let neighbours = ISOLATED_PAWN_MASK[sq] & ours;
        if FORWARD_SPAN[c.index()][sq] & ours != 0 {
            s += weight(t, c, DOUBLED, 1);
        }
        let opposed = FORWARD_SPAN[c.index()][sq] & theirs != 0;
        if neighbours == 0 {
            s += weight(t, c, ISOLATED, 1);
            if !opposed {
                s += weight(t, c, WEAK_UNOPPOSED, 1);
            }
        } else if neighbours & !PASSED_PAWN_MASK[c.index()][sq] == 0
            && their_attacks & (1u64 << front(c, sq)) != 0
        {
            // No neighbour level or behind can ever defend it, and its advance is
            // covered by an enemy pawn.
            s += weight(t, c, BACKWARD, 1);
            if !opposed {
                s += weight(t, c, WEAK_UNOPPOSED, 1);
            }
        }
        if (r == 4 || r == 5) && theirs & (1u64 << front(c, sq)) != 0 {
            s += weight(t, c, PAWN_BLOCKED + r - 4, 1);
        }
        if PAWN_ATTACKS[c.flip().index()][sq] & ours != 0 {
            s += weight(t, c, CONNECTED + r, 1);
        }
        if neighbours & crate::tables::RANK_MASKS[sq >> 3] != 0 {
            s += weight(t, c, PHALANX + r, 1);
        }
        if PASSED_PAWN_MASK[c.index()][sq] & theirs == 0 && FORWARD_SPAN[c.index()][sq] & ours == 0
        {
            s += weight(t, c, PASSED + r, 1);
            let file = sq & 7;
            s += weight(t, c, PASSED_FILE + file.min(7 - file), 1);
            passed |= 1u64 << sq;
        }
    }
    (s, passed)
}
