//! What bounds a search: `go`'s depth, nodes, time and mate limits. How the
//! clock is spent is `time.rs`'s business.

use crate::types::Move;
use std::time::Duration;

/// The limits of one search, as `go` gives them.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Search to this depth only.
    pub depth: Option<i32>,
    /// Stop after about this many nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Look for a mate in this many moves; stop when found.
    pub mate: Option<i32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// The side to move's clock, and the opponent's.
    pub time: Option<Duration>,
    pub inc: Duration,
    /// Moves until the next time control, if not sudden death.
    pub movestogo: Option<u32>,
    /// Search only these root moves.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Whether the clock limits this search (so time management applies).
    pub fn uses_clock(&self) -> bool {
        self.time.is_some() && self.movetime.is_none()
    }
}
