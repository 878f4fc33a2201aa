//! Scores: centipawns, with mate scores counted in plies from the root.

/// The score of mating on the root's own move (mate in 0 plies).
pub const MATE: i32 = 32_000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Scores at least this large are mates (within [`MAX_PLY`] plies).
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// Above every score.
pub const INFINITE: i32 = MATE + 1;
/// "No score" (never a real score).
pub const VALUE_NONE: i32 = MATE + 2;
/// The draw score.
pub const DRAW: i32 = 0;

/// Score for being mated `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score for mating `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Whether a score is a mate score (for either side).
#[inline(always)]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_IN_MAX && score.abs() <= MATE
}

/// A score as a protocol shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The protocol form of an internal score.
    pub fn from_internal(score: i32) -> Score {
        if is_mate(score) {
            let plies = MATE - score.abs();
            let moves = (plies + 1) / 2;
            Score::Mate(if score > 0 { moves } else { -moves })
        } else {
            Score::Cp(score)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_internal(-35), Score::Cp(-35));
    }
}
