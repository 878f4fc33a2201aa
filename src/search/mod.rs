//! The search: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, a shared lock-free transposition table, staged move ordering, the
//! usual selectivity, and Lazy SMP threads.
//!
//! May not touch: the front ends (`frontend`, `protocol`, `cli`) and `measure` (the layers: docs/architecture.md).
//!
//! [`search`] is the one entry point. It runs on the caller's thread (the main
//! search thread) plus `threads - 1` helpers, reports progress through a callback
//! that the protocol layer formats, and returns the best move. It is generic over an
//! [`Engine`] (a bit path and a slider backend), so the whole search is
//! monomorphised for the pair the controller picked; nothing below asks again.
//!
//! | file | what |
//! |---|---|
//! | `worker/` | one thread: iterative deepening, alpha-beta, quiescence, reports (its own table) |
//! | `movepick.rs` | staged move ordering |
//! | `history.rs` | killers, countermoves, butterfly/capture/continuation/correction history |
//! | `tt.rs` | the transposition table |
//! | `limits.rs` | `go`'s limits |
//! | `time.rs` | time management: the budget of a move, when to stop deepening |
//! | `params.rs` | the search's margins, reductions and extensions: tunable, declared once |
//! | `features.rs` | the switches of the selective features, declared once |
//! | `score.rs` | mate scores |

pub mod bench;
mod features;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod params;
pub mod score;
pub mod skill;
pub mod time;
pub mod tt;
mod worker;

pub use features::{Features, Switch};
pub use limits::Limits;
pub use score::Score;
pub use time::TimeBudget;
pub use tt::{Bound, TranspositionTable};
pub use worker::STACK_SIZE;

use crate::board::Board;
use crate::eval::PawnTable;
use crate::paths::Engine;
use crate::types::Move;
use history::Histories;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The default time kept in reserve per move. 30 ms lost 2 games on time in 40
/// at 1s+0.01s on a loaded 2-core machine (overruns of 1 and 6 ms); 50 ms covers
/// the scheduling delays seen there.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// Settings of one search besides its limits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// Principal variations to report (analysis), at least 1.
    pub multipv: usize,
    /// A strength limit (`Skill Level`, `UCI_LimitStrength`), or `None`.
    pub skill: Option<skill::Skill>,
    /// Time kept in reserve each move for the GUI and the pipes.
    pub move_overhead: Duration,
    /// Which selective features run.
    pub features: Features,
    /// The search parameters (margins, reductions) and their reduction table.
    pub tuning: params::Tuning,
    /// The GUI may ask for ponder searches (UCI `Ponder`, xboard `hard`): time management may spend a little more.
    pub ponder: bool,
    /// The network that evaluates (UCI `UseNNUE`, `EvalFile`), or `None` for
    /// the hand-written evaluation.
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
    /// The network's vector path (UCI `NNUEPath`, `--simd`), one the CPU runs
    /// (see [`crate::paths::resolve_vector`]).
    pub vector: crate::nnue::VectorPath,
    /// Endgame tables and how the search uses them (the `Syzygy*` options).
    pub syzygy: SyzygySettings,
}

/// The tablebase options as the search reads them.
#[derive(Clone, Debug)]
pub struct SyzygySettings {
    /// The tables (`SyzygyPath`), or `None`: no probes at all.
    pub tables: Option<std::sync::Arc<crate::syzygy::Tablebase>>,
    /// The least remaining depth at which a node with as many pieces as the
    /// probe limit is probed (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// Whether the fifty-move rule counts: cursed wins and blessed losses are
    /// draws (`Syzygy50MoveRule`).
    pub rule50: bool,
    /// The most pieces a probed position has (`SyzygyProbeLimit`, 0 to 7).
    pub probe_limit: usize,
}

impl Default for SyzygySettings {
    fn default() -> SyzygySettings {
        SyzygySettings {
            tables: None,
            probe_depth: 1,
            rule50: true,
            probe_limit: crate::syzygy::MAX_PIECES,
        }
    }
}

/// What the tables say before a search: how the search probes them, and the
/// root moves' ranks when the root is in them.
#[derive(Clone, Debug, Default)]
pub(crate) struct TbRoot {
    /// Positions with at most this many pieces are probed (0: none).
    pub cardinality: usize,
    /// ... from this depth on when they have exactly `cardinality` pieces.
    pub probe_depth: i32,
    /// The root moves with their ranks, when the root is in the tables.
    pub ranked: Option<Vec<crate::syzygy::RootMove>>,
}

impl TbRoot {
    /// Stockfish's `rank_root_moves`: the probe limit is capped by the largest
    /// tables found (and then every depth probes, since those probes are all
    /// there is); a root in the tables ranks its moves by DTZ (else WDL), and
    /// when DTZ ranked them the search needs no probes (the root's ranking keeps
    /// only moves that hold the result), nor when WDL says the root does not win.
    fn new<S: crate::attacks::Slider>(
        root: &Board<S>,
        history: &[u64],
        s: &SyzygySettings,
    ) -> TbRoot {
        let Some(tables) = s.tables.as_deref().filter(|t| !t.is_empty()) else {
            return TbRoot::default();
        };
        let mut t = TbRoot {
            cardinality: s.probe_limit,
            probe_depth: s.probe_depth,
            ranked: None,
        };
        if t.cardinality > tables.max_pieces() {
            t.cardinality = tables.max_pieces();
            t.probe_depth = 0;
        }
        let pieces = root.occupied().count_ones() as usize;
        if pieces > t.cardinality || root.castling_rights() != 0 {
            return t;
        }
        // Has the root occurred since the last zeroing move?
        let window = root.halfmove_clock() as usize;
        let repeated = history.iter().rev().take(window).any(|&k| k == root.key());
        let scale = crate::syzygy::RootScale {
            win: score::MATE_IN_MAX - 1,
            pawn: 100,
        };
        if let Some(ranked) = tables.rank_root_moves(root, s.rule50, repeated, &scale) {
            let dtz = ranked.first().is_some_and(|m| m.by_dtz);
            let best = ranked.iter().map(|m| m.score).max().unwrap_or(0);
            if dtz || best <= 0 {
                t.cardinality = 0;
            }
            t.ranked = Some(ranked);
        }
        t
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            multipv: 1,
            skill: None,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            features: Features::default(),
            tuning: params::Tuning::default(),
            ponder: false,
            net: None,
            vector: crate::nnue::VectorPath::best(),
            syzygy: SyzygySettings::default(),
        }
    }
}

/// What a search thread keeps between searches: its histories, pawn hash and
/// the network's accumulators (allocated once, not per search).
pub struct ThreadData {
    pub histories: Box<Histories>,
    pub pawns: PawnTable,
    pub accumulators: crate::nnue::Stack,
}

impl ThreadData {
    pub fn new() -> ThreadData {
        ThreadData {
            histories: Histories::new_boxed(),
            pawns: PawnTable::new(),
            accumulators: crate::nnue::Stack::new(score::MAX_PLY + 16),
        }
    }

    /// Forget everything learned (a new game).
    pub fn clear(&mut self) {
        self.histories.clear();
        self.pawns.clear();
    }
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData::new()
    }
}

/// The flags a running search shares with the protocol layer.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// Set while pondering: no time limit applies until it is cleared (`ponderhit`).
    pub pondering: AtomicBool,
}

impl Control {
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }
}

/// One principal variation's report, as a protocol shows it.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based.
    pub multipv: usize,
    pub score: Score,
    /// [`Bound::Lower`] or [`Bound::Upper`] when an aspiration window failed.
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: usize,
    /// Tablebase probes that answered, when tables are in use.
    pub tbhits: Option<u64>,
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// Progress reports.
#[derive(Clone, Debug)]
pub enum Event {
    /// A finished (or failed-aspiration) iteration's line.
    Info(Info),
    /// The root move being searched, at long searches.
    CurrMove { depth: i32, mv: Move, number: usize },
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move; [`Move::NULL`] only when the root has no legal move.
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// Internal score of the best move.
    pub score: i32,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes searched over all threads.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// State shared by the threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub limits: &'a Limits,
    pub settings: &'a Settings,
    pub start: Instant,
    pub budget: Option<TimeBudget>,
    /// Nodes of each thread, published every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    /// Set when the search ends itself (a limit reached, or the main thread
    /// done): the threads stop, but unlike [`Control::stop`] it does not release
    /// a ponder or infinite search's best move.
    pub halted: AtomicBool,
    /// The tables' part in this search.
    pub tb: TbRoot,
    /// Tablebase probes that answered, all threads.
    pub tb_hits: AtomicU64,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Whether the threads should stop: told to by the GUI, or the search ended.
    pub fn stopped(&self) -> bool {
        self.control.stop.load(Ordering::Relaxed) || self.halted.load(Ordering::Relaxed)
    }

    /// End the search (see [`Shared::halted`]).
    pub fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }
}

/// Search `root` (reached through the positions whose keys are `history`, oldest
/// first, for repetitions) within `limits`, and return the best move.
///
/// `data` holds one [`ThreadData`] per thread; it is grown to `settings.threads`.
/// `report` receives progress from the main thread only.
#[allow(clippy::too_many_arguments)] // each is a separate concern of the caller
pub fn search<E: Engine>(
    root: &Board<E::Slider>,
    history: &[u64],
    limits: &Limits,
    settings: &Settings,
    tt: &TranspositionTable,
    control: &Control,
    data: &mut Vec<ThreadData>,
    report: &(dyn Fn(Event) + Sync),
) -> SearchResult {
    let start = Instant::now();
    // A strength limit searches no more than its nodes.
    let limited;
    let limits = match settings.skill {
        Some(s) => {
            limited = Limits {
                nodes: Some(limits.nodes.map_or(s.nodes(), |n| n.min(s.nodes()))),
                ..limits.clone()
            };
            &limited
        }
        None => limits,
    };
    let threads = settings.threads.max(1);
    while data.len() < threads {
        data.push(ThreadData::new());
    }
    tt.new_search();
    let tb = TbRoot::new(root, history, &settings.syzygy);
    // As Stockfish counts them: a root ranked by the tables is one hit a root move.
    let root_hits = tb.ranked.as_ref().map_or(0, |r| r.len() as u64);
    let shared = Shared {
        tt,
        control,
        limits,
        settings,
        start,
        budget: TimeBudget::new(
            limits,
            settings.move_overhead,
            settings.ponder,
            settings.tuning.values(),
        ),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        halted: AtomicBool::new(false),
        tb,
        tb_hits: AtomicU64::new(root_hits),
    };
    let (main_data, helpers) = data.split_at_mut(1);
    let result = std::thread::scope(|scope| {
        let shared = &shared;
        for (i, d) in helpers.iter_mut().take(threads - 1).enumerate() {
            let spawned = std::thread::Builder::new()
                .name(format!("brokkr-search-{}", i + 1))
                .stack_size(worker::STACK_SIZE)
                .spawn_scoped(scope, move || {
                    let mut w = worker::Worker::<E>::new(i + 1, root, history, shared, d, &|_| {});
                    w.iterate();
                });
            // A helper that cannot start only costs speed; the main thread goes on.
            if spawned.is_err() {
                break;
            }
        }
        let mut w = worker::Worker::<E>::new(0, root, history, shared, &mut main_data[0], report);
        let result = w.iterate();
        shared.halt();
        result
    });
    SearchResult {
        nodes: shared.total_nodes().max(result.nodes),
        ..result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;
    use crate::bits::Portable;
    use crate::paths::Pair;
    use std::sync::Mutex;

    type E = Pair<Portable, Magic>;

    /// Search `fen` within `limits` on a thread of its own; `during` runs while
    /// it searches, with the control and whether the search has returned yet.
    /// Then an infinite or ponder search is told to stop. Returns the result and
    /// every info line's depth.
    fn searching(
        fen: &str,
        limits: Limits,
        pondering: bool,
        during: impl FnOnce(&Control, &dyn Fn() -> bool),
    ) -> (SearchResult, Vec<i32>) {
        let board = Board::<Magic>::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(4).unwrap();
        let control = Control::default();
        control.pondering.store(pondering, Ordering::Relaxed);
        let done = AtomicBool::new(false);
        let depths = Mutex::new(Vec::new());
        let result = std::thread::scope(|s| {
            let h = std::thread::Builder::new()
                .stack_size(STACK_SIZE)
                .spawn_scoped(s, || {
                    let mut data = vec![ThreadData::new()];
                    let report = |e: Event| {
                        if let Event::Info(i) = e {
                            depths.lock().unwrap().push(i.depth);
                        }
                    };
                    let r = search::<E>(
                        &board,
                        &[],
                        &limits,
                        &Settings::default(),
                        &tt,
                        &control,
                        &mut data,
                        &report,
                    );
                    done.store(true, Ordering::SeqCst);
                    r
                })
                .unwrap();
            during(&control, &|| done.load(Ordering::SeqCst));
            if limits.infinite || pondering {
                control.stop();
            }
            h.join().unwrap()
        });
        (result, depths.into_inner().unwrap())
    }

    /// Wait until the search has searched `nodes` and then some more, long
    /// after a 1,000-node search ends when nothing holds it.
    fn settle() {
        std::thread::sleep(Duration::from_millis(300));
    }

    #[test]
    fn an_infinite_search_with_a_node_limit_waits_for_stop() {
        let limits = Limits {
            nodes: Some(1000),
            infinite: true,
            ..Limits::default()
        };
        let (r, _) = searching(crate::board::STARTPOS, limits, false, |_, returned| {
            settle();
            assert!(!returned(), "bestmove before stop in go infinite nodes");
        });
        assert!(!r.best.is_null());
    }

    #[test]
    fn a_ponder_search_with_a_node_limit_waits_for_ponderhit() {
        let limits = Limits {
            nodes: Some(1000),
            ponder: true,
            ..Limits::default()
        };
        let (r, _) = searching(crate::board::STARTPOS, limits, true, |c, returned| {
            settle();
            assert!(!returned(), "bestmove before ponderhit in go ponder nodes");
            c.ponderhit();
            for _ in 0..2000 {
                if returned() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            panic!("no bestmove after ponderhit");
        });
        assert!(!r.best.is_null());
    }

    #[test]
    fn a_proven_result_stops_deepening() {
        // Bare kings: every move draws at once, so depth 1 says all (an infinite
        // search reported 127 iterations).
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (r, depths) = searching("8/8/4k3/8/8/3K4/8/8 w - - 0 1", infinite, false, |_, _| {
            settle();
        });
        assert_eq!(r.depth, 1, "{depths:?}");
        assert!(depths.iter().all(|&d| d <= 1), "{depths:?}");
        // A mate in one: proven at a few plies, not searched to the limit.
        let limits = Limits {
            depth: Some(60),
            ..Limits::default()
        };
        let (r, depths) = searching(
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            limits,
            false,
            |_, _| {},
        );
        let board = Board::<Magic>::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        assert_eq!(board.to_uci(r.best), "a1a8");
        assert!(
            r.depth < 10,
            "mate in 1 searched to depth {}: {depths:?}",
            r.depth
        );
    }
}
