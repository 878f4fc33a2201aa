//! The search: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, a shared lock-free transposition table, staged move ordering, the
//! usual selectivity, and Lazy SMP threads.
//!
//! [`search`] is the one entry point. It runs on the caller's thread (the main
//! search thread) plus `threads - 1` helpers, reports progress through a callback
//! that the protocol layer formats, and returns the best move. It is generic over an
//! [`Engine`] (a bit path and a slider backend), so the whole search is
//! monomorphised for the pair the controller picked; nothing below asks again.
//!
//! | file | what |
//! |---|---|
//! | `worker.rs` | one thread's iterative deepening, alpha-beta and quiescence |
//! | `movepick.rs` | staged move ordering |
//! | `history.rs` | killers, countermoves, butterfly/capture/continuation history |
//! | `tt.rs` | the transposition table |
//! | `limits.rs` | `go`'s limits and the time budget |
//! | `score.rs` | mate scores |

pub mod bench;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod score;
pub mod tt;
mod worker;

pub use limits::{Limits, TimeBudget};
pub use score::Score;
pub use tt::{Bound, TranspositionTable};
pub use worker::STACK_SIZE;

use crate::board::Board;
use crate::engine::Engine;
use crate::eval::PawnTable;
use crate::types::Move;
use history::Histories;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Tunable switches for the search's selective features, so each can be measured
/// against the same build with it off (`setoption name Feature... value false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub null_move: bool,
    pub lmr: bool,
    pub futility: bool,
    pub rfp: bool,
    pub lmp: bool,
    pub see_pruning: bool,
    pub singular: bool,
    pub iir: bool,
    pub razoring: bool,
    pub aspiration: bool,
    pub history: bool,
    pub check_extension: bool,
    /// Lazy evaluation (Gk), off by default: see the README's feature table.
    pub lazy_eval: bool,
    /// Killers and the countermove, searched right after the winning captures.
    pub refutations: bool,
    /// The continuation histories (1 and 2 plies back) in the order of quiet moves.
    pub cont_history: bool,
    /// The static evaluation corrected by what searches found for its pawn structure.
    pub correction: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            lmr: true,
            futility: true,
            rfp: true,
            lmp: true,
            see_pruning: true,
            singular: true,
            iir: true,
            razoring: true,
            aspiration: true,
            history: true,
            check_extension: true,
            lazy_eval: false,
            refutations: true,
            cont_history: true,
            correction: true,
        }
    }
}

impl Features {
    /// Every switch with its option name.
    pub fn switches(&mut self) -> [(&'static str, &mut bool); 16] {
        [
            ("NullMove", &mut self.null_move),
            ("LMR", &mut self.lmr),
            ("Futility", &mut self.futility),
            ("RFP", &mut self.rfp),
            ("LMP", &mut self.lmp),
            ("SEEPruning", &mut self.see_pruning),
            ("Singular", &mut self.singular),
            ("IIR", &mut self.iir),
            ("Razoring", &mut self.razoring),
            ("Aspiration", &mut self.aspiration),
            ("History", &mut self.history),
            ("CheckExtension", &mut self.check_extension),
            ("LazyEval", &mut self.lazy_eval),
            ("Refutations", &mut self.refutations),
            ("ContHistory", &mut self.cont_history),
            ("CorrHistory", &mut self.correction),
        ]
    }
}

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
    /// Time kept in reserve each move for the GUI and the pipes.
    pub move_overhead: Duration,
    /// Which selective features run.
    pub features: Features,
    /// The GUI may ask for ponder searches (UCI `Ponder`, xboard `hard`): time management may spend a little more.
    pub ponder: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            features: Features::default(),
            ponder: false,
        }
    }
}

/// What a search thread keeps between searches: its histories and pawn hash.
pub struct ThreadData {
    pub histories: Box<Histories>,
    pub pawns: PawnTable,
}

impl ThreadData {
    pub fn new() -> ThreadData {
        ThreadData {
            histories: Histories::new_boxed(),
            pawns: PawnTable::new(),
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
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub fn stopped(&self) -> bool {
        self.control.stop.load(Ordering::Relaxed)
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
    let threads = settings.threads.max(1);
    while data.len() < threads {
        data.push(ThreadData::new());
    }
    tt.new_search();
    let shared = Shared {
        tt,
        control,
        limits,
        settings,
        start,
        budget: TimeBudget::new(limits, settings.move_overhead),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
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
        control.stop();
        result
    });
    SearchResult {
        nodes: shared.total_nodes().max(result.nodes),
        ..result
    }
}
