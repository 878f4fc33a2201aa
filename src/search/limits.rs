//! What bounds a search (depth, nodes, time, mate) and how the clock is spent.

use crate::types::Move;
use std::time::{Duration, Instant};

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

/// The time one move may take: a soft limit (no new iteration after it, scaled by
/// how stable the best move is) and a hard limit (stop at once).
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub soft: Duration,
    pub hard: Duration,
}

impl TimeBudget {
    /// The budget for `limits`, keeping `overhead` per move in reserve for the
    /// GUI and the pipes.
    pub fn new(limits: &Limits, overhead: Duration) -> Option<TimeBudget> {
        if let Some(mt) = limits.movetime {
            // The overhead comes off, but never more than half: `go movetime 30`
            // with a 50 ms overhead still thinks for 15 ms, not 1.
            let t = mt
                .saturating_sub(overhead)
                .max(mt / 2)
                .max(Duration::from_millis(1));
            return Some(TimeBudget { soft: t, hard: t });
        }
        let time = limits.time?;
        // Never plan on the last overhead's worth of the clock.
        let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
        let ms = usable.as_secs_f64() * 1000.0;
        let inc = limits.inc.as_secs_f64() * 1000.0;
        // Sudden death: plan for about 25 more moves (fewer as the clock runs low,
        // since games that last rarely need as many), and spend most of the
        // increment, which comes back.
        let mtg = limits
            .movestogo
            .map_or(25.0, |m| (m.max(1) as f64).min(50.0));
        let base = ms / mtg + inc * 0.75;
        // Never plan on more than a tenth of what is left: a low clock then
        // settles near ten increments (plus the overhead) instead of five. At
        // 5s+0.05s on a loaded machine, a clock settled near 300 ms lost 9 games
        // in 200 to scheduling delays of up to 200 ms.
        // Below twenty increments, that tenth shrinks in proportion, so a low clock
        // settles near ten increments above the overhead instead of five: with
        // five, a clock of about 75 ms at 1s+0.01s lost two games in 200 to single
        // stalls of 50-90 ms while the machine was oversubscribed.
        let share = if inc > 0.0 {
            0.1 * (ms / (20.0 * inc)).min(1.0)
        } else {
            0.1
        };
        let soft = if limits.movestogo == Some(1) {
            base.min(ms * 0.5)
        } else {
            base.min(ms * share)
        };
        // The hard limit lets a troubled iteration finish, but never spends more
        // than that share of the clock plus half the increment (or most of the
        // clock on the last move before the control). With a fifth of the clock,
        // the iterations that overran the soft limit pulled a 1s+0.01s clock down
        // to 50-70 ms (median of the lowest clock per game, 400 games), where one
        // scheduling delay on a loaded machine lost 3 xboard games in 200.
        let hard_cap = if limits.movestogo == Some(1) {
            ms * 0.9
        } else {
            ms * share + inc * 0.5
        };
        let hard = (soft * 4.0).min(hard_cap).min(ms * 0.9).max(soft);
        Some(TimeBudget {
            soft: Duration::from_secs_f64(soft.max(1.0) / 1000.0),
            hard: Duration::from_secs_f64(hard.max(1.0) / 1000.0),
        })
    }
}

/// The search's clock: when it started and what it may spend.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub start: Instant,
    pub budget: Option<TimeBudget>,
}

impl Clock {
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn sudden_death_spends_a_small_share() {
        let l = Limits {
            time: Some(ms(60_000)),
            ..Default::default()
        };
        let b = TimeBudget::new(&l, ms(30)).unwrap();
        assert!(b.soft < ms(4000) && b.soft > ms(1000), "{b:?}");
        assert!(b.hard <= ms(12_000) && b.hard >= b.soft, "{b:?}");
    }

    #[test]
    fn a_tiny_clock_never_plans_past_it() {
        for t in [1, 5, 20, 50, 100, 1000] {
            let l = Limits {
                time: Some(ms(t)),
                inc: ms(10),
                ..Default::default()
            };
            let b = TimeBudget::new(&l, ms(30)).unwrap();
            assert!(b.hard <= ms(t.max(2)), "{t}: {b:?}");
        }
    }

    #[test]
    fn a_low_clock_with_an_increment_stops_falling() {
        // At the overhead plus ten increments, even the hard limit is within the
        // increment, so the clock cannot keep falling toward the overhead.
        for inc in [10, 50, 100, 1000] {
            let l = Limits {
                time: Some(ms(50 + 10 * inc)),
                inc: ms(inc),
                ..Default::default()
            };
            let b = TimeBudget::new(&l, ms(50)).unwrap();
            assert!(b.hard <= ms(inc), "{inc}: {b:?}");
        }
    }

    #[test]
    fn the_last_move_before_the_control_may_use_most_of_the_clock() {
        let l = Limits {
            time: Some(ms(10_000)),
            movestogo: Some(1),
            ..Default::default()
        };
        let b = TimeBudget::new(&l, ms(0)).unwrap();
        assert!(b.hard > ms(5_000) && b.hard < ms(10_000), "{b:?}");
    }
}
