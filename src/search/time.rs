//! Time management: what one move may spend of the clock, and when the main
//! thread stops deepening.
//!
//! A move gets a soft limit (no new iteration after it, scaled by how settled the
//! search looks: the best move's stability, the score's drop and, with
//! `Feature_NodeTime`, the best move's share of the nodes) and a hard limit
//! (stop at once). Both are computed once per
//! `go` by [`TimeBudget::new`]; the main search thread asks
//! [`TimeBudget::stop_iterating`] after each iteration and compares the hard
//! limit in its periodic poll.

use super::limits::Limits;
use super::params::Params;
use std::time::Duration;

/// The time one move may take.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    /// No new iteration starts after this (before the stability scaling).
    pub soft: Duration,
    /// The search stops at once after this.
    pub hard: Duration,
}

/// The node-based scaling of the soft limit: `(NODE_SHARE_BASE - share) *
/// NODE_SHARE_SCALE`, where `share` is the part of the search's nodes spent
/// below the best move: 0.68 when it took them all, 1.35 at half, 2.0 at none.
const NODE_SHARE_BASE: f64 = 1.5;
const NODE_SHARE_SCALE: f64 = 1.35;
/// Moves planned for in sudden death.
const SUDDEN_DEATH_MOVES: f64 = 25.0;
/// The share of the increment every move plans on spending: it comes back.
const INCREMENT_SHARE: f64 = 0.75;
/// The share of the remaining clock a move may plan on, when the clock is large
/// against the increment.
const CLOCK_SHARE: f64 = 0.1;
/// The low clock's floor in move overheads: below the larger of this and
/// `LowClockIncrements` increments ([`Params`]), [`CLOCK_SHARE`] shrinks in
/// proportion. What keeps a small increment's clock off the stalls the
/// overhead is there for.
const LOW_CLOCK_OVERHEADS: f64 = 4.0;
/// The clock held back, in units of the move overhead, before a move plans on
/// spending its increment whatever the clock share says.
const INCREMENT_RESERVE_OVERHEADS: f64 = 10.0;
/// Pondering: the opponent's time is partly ours, so plan on a little more.
const PONDER_FACTOR: f64 = 1.25;

impl TimeBudget {
    /// The budget for `limits`, keeping `overhead` per move in reserve for the
    /// GUI and the pipes. `ponder` says the GUI may ask for ponder searches (UCI
    /// `Ponder`, xboard `hard`); `params` holds the time manager's tunable
    /// (`LowClockIncrements`). `None` when the clock does not limit the search.
    pub fn new(
        limits: &Limits,
        overhead: Duration,
        ponder: bool,
        params: &Params,
    ) -> Option<TimeBudget> {
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
        let overhead_ms = overhead.as_secs_f64() * 1000.0;
        let last_before_control = limits.movestogo == Some(1);

        // Plan for about 25 more moves in sudden death (or the moves to the
        // control), and spend most of the increment, which comes back.
        let mtg = limits
            .movestogo
            .map_or(SUDDEN_DEATH_MOVES, |m| (m.max(1) as f64).min(50.0));
        let base = ms / mtg + inc * INCREMENT_SHARE;

        // Never plan on more than a tenth of what is left. Below twenty
        // increments (`LowClockIncrements`; or four overheads, where that is
        // more) that tenth shrinks in proportion, and the clock settles where a
        // move spends about its increment, some ten increments above the
        // overhead. The floor is about stalls: at 1s+0.01s with the 50 ms
        // overhead a clock of about 75 ms lost two games in 200 to single
        // stalls of 50-90 ms while the machine was oversubscribed, and twenty
        // increments there (four overheads) keep it near 150 ms. With a larger
        // increment the reserve is clock left unspent: brokkr ended its games
        // against Stockfish 8 at 10s+0.1s with a median 1.46 s on the clock
        // against Stockfish's 0.67 s, and spent about 19% less a move than it
        // from move 30 to 50 (means over 200 games), the phase where its
        // losses were decided (median move 37; its wins, move 25). Ten
        // increments, against twenty, stood at +4.8 ± 11.2 Elo over 1,514
        // games at 2s+0.02s, unfinished, and made 46.5% against Stockfish 8
        // where twenty had made 45.0% (docs/strength.md): twenty stays.
        let increments = f64::from(params.low_clock_increments);
        let low_clock = (increments * inc).max(LOW_CLOCK_OVERHEADS * overhead_ms);
        let share = if inc > 0.0 {
            CLOCK_SHARE * (ms / low_clock).min(1.0)
        } else {
            CLOCK_SHARE
        };
        // That shrinking is about small increments. With a large one (2s+1s,
        // 10s+1s) the clock is only a few increments at the start, and the
        // shrunken share gave the first move 19 ms of a game where a whole
        // second comes back every move. A move may always plan on spending its
        // share of the increment, so the clock does not fall, once ten
        // overheads of the clock are kept back for the stalls above; at
        // 1s+0.01s that never bites before the clock share is larger anyway.
        let increment_room = inc.min(0.5 * (ms - INCREMENT_RESERVE_OVERHEADS * overhead_ms));
        let planned = (ms * share).max(increment_room * INCREMENT_SHARE);

        let mut soft = if last_before_control {
            base.min(ms * 0.5)
        } else {
            base.min(planned)
        };
        if ponder {
            soft *= PONDER_FACTOR;
        }
        // The hard limit lets a troubled iteration finish, but never spends more
        // than the clock's share plus half the increment, or the whole increment
        // where that is more and the clock has room for it (or most of the clock
        // on the last move before the control). With a fifth of the clock, the
        // iterations that overran the soft limit pulled a 1s+0.01s clock down to
        // 50-70 ms (median of the lowest clock per game, 400 games), where one
        // scheduling delay on a loaded machine lost 3 xboard games in 200.
        let hard_cap = if last_before_control {
            ms * 0.9
        } else {
            (ms * share + inc * 0.5).max(increment_room)
        };
        let soft = soft.min(ms * 0.9);
        let hard = (soft * 4.0).min(hard_cap).min(ms * 0.9).max(soft);
        Some(TimeBudget {
            soft: Duration::from_secs_f64(soft.max(1.0) / 1000.0),
            hard: Duration::from_secs_f64(hard.max(1.0) / 1000.0),
        })
    }

    /// Whether the main thread should not start another iteration, after
    /// `elapsed`, with the best move unchanged for `stability` iterations, the
    /// score fallen by `score_drop` centipawns since the last one, and, when
    /// given, `best_share` of the search's nodes spent below the best move.
    pub fn stop_iterating(
        &self,
        elapsed: Duration,
        stability: i32,
        score_drop: i32,
        best_share: Option<f64>,
    ) -> bool {
        // A best move that keeps changing earns more time; a settled one less.
        let stability_factor = [1.8, 1.4, 1.15, 1.0, 0.9, 0.8][stability.clamp(0, 5) as usize];
        // A score that drops earns more time to find a way out.
        let drop_factor = 1.0 + score_drop.clamp(0, 150) as f64 / 150.0;
        // A best move that took most of the nodes has few rivals (the others
        // were refuted cheaply); a small share says the others were hard to
        // refute, and the choice may still change.
        let node_factor = best_share.map_or(1.0, |f| {
            (NODE_SHARE_BASE - f.clamp(0.0, 1.0)) * NODE_SHARE_SCALE
        });
        let soft = self.soft.as_secs_f64() * stability_factor * drop_factor * node_factor;
        elapsed.as_secs_f64() >= soft.min(self.hard.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults.
    const P: Params = Params::DEFAULT;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64) -> Limits {
        Limits {
            time: Some(ms(time)),
            inc: ms(inc),
            ..Default::default()
        }
    }

    #[test]
    fn sudden_death_spends_a_small_share() {
        let b = TimeBudget::new(&clock(60_000, 0), ms(30), false, &P).unwrap();
        assert!(b.soft < ms(4000) && b.soft > ms(1000), "{b:?}");
        assert!(b.hard <= ms(12_000) && b.hard >= b.soft, "{b:?}");
    }

    #[test]
    fn the_first_move_spends_the_increment() {
        // (time, increment, the least the soft limit may be, the most the hard
        // limit may be). A large increment is spent, not starved by the low-clock
        // rule (2s+1s gave 19 ms, 10s+1s about 0.5 s); the small one is as before.
        for (time, inc, soft_min, hard_max) in [
            (2_000, 1_000, 500, 1_600),
            (10_000, 1_000, 700, 3_000),
            (60_000, 5_000, 3_500, 15_000),
            (1_000, 10, 30, 110),
        ] {
            let b = TimeBudget::new(&clock(time, inc), ms(50), false, &P).unwrap();
            assert!(b.soft >= ms(soft_min), "{time}+{inc}: {b:?}");
            assert!(
                b.hard <= ms(hard_max) && b.hard >= b.soft,
                "{time}+{inc}: {b:?}"
            );
            // Whatever happens, the move ends with the clock above the overhead.
            assert!(b.hard + ms(50) < ms(time), "{time}+{inc}: {b:?}");
        }
    }

    #[test]
    fn pondering_plans_on_a_little_more() {
        let off = TimeBudget::new(&clock(60_000, 0), ms(50), false, &P).unwrap();
        let on = TimeBudget::new(&clock(60_000, 0), ms(50), true, &P).unwrap();
        assert!(on.soft > off.soft && on.hard >= off.hard, "{off:?} {on:?}");
    }

    #[test]
    fn a_tiny_clock_never_plans_past_it() {
        for t in [1, 5, 20, 50, 100, 1000] {
            for inc in [0, 10, 1000] {
                let b = TimeBudget::new(&clock(t, inc), ms(30), false, &P).unwrap();
                assert!(b.hard <= ms(t.max(2)), "{t}+{inc}: {b:?}");
            }
        }
    }

    #[test]
    fn a_low_clock_with_an_increment_stops_falling() {
        // At the overhead plus half the low-clock increments (ten at the
        // default twenty), even the hard limit is within the increment, so the
        // clock cannot keep falling toward the overhead.
        for n in [20, 10] {
            let p = Params {
                low_clock_increments: n,
                ..P
            };
            for inc in [10, 50, 100, 1000] {
                let clock = clock(50 + n as u64 / 2 * inc, inc);
                let b = TimeBudget::new(&clock, ms(50), false, &p).unwrap();
                assert!(b.hard <= ms(inc), "{n} {inc}: {b:?}");
            }
        }
    }

    #[test]
    fn the_low_clock_rule_starts_at_its_increments_or_four_overheads() {
        let ten = Params {
            low_clock_increments: 10,
            ..P
        };
        // 10s+0.1s with 1.25 s left: twelve increments, so at ten a move still
        // plans on a tenth of the clock; at twenty, on three quarters of the
        // increment.
        let b = TimeBudget::new(&clock(1_250, 100), ms(50), false, &ten).unwrap();
        assert!(b.soft >= ms(110), "{b:?}");
        let b = TimeBudget::new(&clock(1_250, 100), ms(50), false, &P).unwrap();
        assert!(b.soft <= ms(80), "{b:?}");
        // 1s+0.01s with 250 ms left: four overheads (200 ms, twenty
        // increments) is the larger threshold at ten, and the plan stays as
        // small as at twenty.
        let b = TimeBudget::new(&clock(250, 10), ms(50), false, &ten).unwrap();
        let c = TimeBudget::new(&clock(250, 10), ms(50), false, &P).unwrap();
        assert!(b.soft <= ms(20) && b.soft == c.soft, "{b:?} {c:?}");
    }

    #[test]
    fn the_last_move_before_the_control_may_use_most_of_the_clock() {
        let l = Limits {
            movestogo: Some(1),
            ..clock(10_000, 0)
        };
        let b = TimeBudget::new(&l, ms(0), false, &P).unwrap();
        assert!(b.hard > ms(5_000) && b.hard < ms(10_000), "{b:?}");
    }

    #[test]
    fn movetime_loses_the_overhead_but_never_more_than_half() {
        let l = |t| Limits {
            movetime: Some(ms(t)),
            ..Default::default()
        };
        let b = TimeBudget::new(&l(1000), ms(50), false, &P).unwrap();
        assert_eq!((b.soft, b.hard), (ms(950), ms(950)));
        let b = TimeBudget::new(&l(30), ms(50), false, &P).unwrap();
        assert_eq!((b.soft, b.hard), (ms(15), ms(15)));
    }

    #[test]
    fn an_unsettled_or_falling_search_gets_more_time() {
        let b = TimeBudget {
            soft: ms(100),
            hard: ms(400),
        };
        assert!(b.stop_iterating(ms(100), 3, 0, None));
        assert!(
            !b.stop_iterating(ms(100), 0, 0, None),
            "a changing best move"
        );
        assert!(!b.stop_iterating(ms(100), 3, 100, None), "a falling score");
        assert!(
            b.stop_iterating(ms(400), 0, 150, Some(0.0)),
            "never past the hard limit"
        );
    }

    #[test]
    fn a_best_move_with_few_of_the_nodes_gets_more_time() {
        let b = TimeBudget {
            soft: ms(100),
            hard: ms(400),
        };
        // Settled (stability 3: factor 1.0), at 100 ms of a 100 ms soft limit.
        assert!(b.stop_iterating(ms(100), 3, 0, Some(0.95)));
        assert!(!b.stop_iterating(ms(100), 3, 0, Some(0.3)));
        // The share scales the limit both ways: 0.95 stops before the soft limit.
        assert!(b.stop_iterating(ms(80), 3, 0, Some(0.95)));
        assert!(!b.stop_iterating(ms(80), 3, 0, None));
    }
}
