//! The controller both dialects share: the game, the options, the hash table and
//! the search thread. The dialects only translate lines into calls on it.

use super::{Inbox, Msg};
use crate::attacks::{Magic, SliderKind};
use crate::bits::{BitPath, Cpu};
use crate::board::{Board, MoveError, Position};
use crate::search::{
    self, Control, Event, Features, Limits, SearchResult, Settings, ThreadData, TranspositionTable,
};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A game: a [`Position`] with the rules' questions the dialects ask.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position<Magic>,
}

impl Game {
    /// A game starting at `board`.
    pub fn new(board: Board<Magic>) -> Game {
        Game {
            position: Position::new(board),
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board<Magic> {
        self.position.board()
    }

    /// The number of moves played since the start.
    pub fn len(&self) -> usize {
        self.position.ply()
    }

    /// Whether no move was played since the start.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keys of the positions before the current one, oldest first.
    pub fn history(&self) -> &[u64] {
        self.position.keys()
    }

    /// Play a legal move.
    pub fn push(&mut self, m: Move) {
        self.position.push(m);
    }

    /// Parse a move (UCI, or SAN if `san` is allowed) and play it.
    pub fn push_str(&mut self, s: &str, san: bool) -> Result<Move, MoveError> {
        let b = self.board();
        let m = match b.parse_uci(s) {
            Ok(m) => m,
            Err(e @ MoveError::Illegal(_)) => return Err(e),
            Err(e) if !san => return Err(e),
            Err(_) => b.parse_san(s)?,
        };
        self.push(m);
        Ok(m)
    }

    /// Take back the last move; false if there is none.
    pub fn pop(&mut self) -> bool {
        self.position.pop()
    }

    /// Switch Chess960 notation.
    pub fn set_chess960(&mut self, on: bool) {
        self.position.set_chess960(on);
    }

    /// How the game stands by the rules, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let b = self.board();
        if b.legal_moves::<crate::bits::Portable>().is_empty() {
            return Some(if b.in_check() {
                Outcome::Checkmate(b.side_to_move().flip())
            } else {
                Outcome::Stalemate
            });
        }
        if b.halfmove_clock() >= 100 {
            return Some(Outcome::FiftyMoves);
        }
        if self.position.is_threefold() {
            return Some(Outcome::Repetition);
        }
        if b.insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        None
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side that mated.
    Checkmate(crate::types::Color),
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

/// The engine's options, as both dialects set them.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead: Duration,
    pub chess960: bool,
    pub bits: BitPath,
    pub slider: SliderKind,
    pub features: Features,
}

/// Limits of the options (the first two are shared with the command line's
/// `--hash` and `--threads`).
pub use crate::extras::{MAX_HASH_MB, MAX_THREADS};
pub const MAX_MULTIPV: usize = 256;
pub const MAX_OVERHEAD_MS: u64 = 10_000;

impl Options {
    /// The defaults, with the bit path and backend `paths --save` or `cpu` picks.
    pub fn for_cpu(cpu: &Cpu) -> Options {
        let choice = crate::config::Choice::resolve(cpu, None, None);
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(crate::search::DEFAULT_MOVE_OVERHEAD_MS),
            chess960: false,
            bits: choice.bits,
            slider: choice.slider,
            features: Features::default(),
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::for_cpu(&Cpu::detect())
    }
}

/// Formats a search's progress, given the root position.
pub type Reporter = Arc<dyn Fn(&Board<Magic>, Event) + Send + Sync>;

/// A search in progress.
struct Running {
    handle: JoinHandle<SearchResult>,
    id: u64,
}

/// The engine behind the dialects.
pub struct Controller {
    pub game: Game,
    pub opts: Options,
    tt: Option<Arc<TranspositionTable>>,
    data: Arc<Mutex<Vec<ThreadData>>>,
    control: Arc<Control>,
    running: Option<Running>,
    next_id: u64,
    /// Where the dialect's messages come from.
    pub inbox: Inbox,
    /// The CPU, read once (CPUID traps to the hypervisor on a virtual machine).
    pub cpu: Cpu,
}

impl Controller {
    /// A controller reading its input from `inbox`, where its searches also
    /// report their end.
    pub fn new(inbox: Inbox) -> Controller {
        let cpu = Cpu::detect();
        Controller {
            game: Game::new(Board::startpos()),
            opts: Options::for_cpu(&cpu),
            tt: None,
            data: Arc::new(Mutex::new(Vec::new())),
            control: Arc::new(Control::default()),
            running: None,
            next_id: 0,
            inbox,
            cpu,
        }
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// The id of the running search.
    pub fn search_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }

    /// The hash table, allocated on first use.
    pub fn tt(&mut self) -> Result<Arc<TranspositionTable>, String> {
        if let Some(tt) = &self.tt {
            return Ok(tt.clone());
        }
        let tt = TranspositionTable::new(self.opts.hash_mb)
            .ok_or_else(|| format!("cannot allocate a {} MB hash table", self.opts.hash_mb))?;
        let tt = Arc::new(tt);
        self.tt = Some(tt.clone());
        Ok(tt)
    }

    /// Resize the hash table (allocated now, zeroed by the OS). Only between searches.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        let _ = self.wait();
        self.tt = None; // free the old table first: both may not fit at once
        self.opts.hash_mb = mb;
        self.tt().map(|_| ())
    }

    /// Empty the hash table and forget what the threads learned.
    pub fn clear(&mut self) {
        let _ = self.wait();
        if self.tt.is_some() {
            self.tt = None;
            let _ = self.tt();
        }
        if let Ok(mut d) = self.data.lock() {
            d.iter_mut().for_each(ThreadData::clear);
        }
    }

    /// A new game: clear what was learned.
    pub fn new_game(&mut self) {
        self.clear();
        let mut b = Board::startpos();
        b.set_chess960(self.opts.chess960);
        self.game = Game::new(b);
    }

    /// Start a search of the current position. `report` formats progress; the end
    /// arrives as [`Msg::SearchDone`] with the returned id.
    pub fn go(&mut self, limits: Limits, report: Reporter) -> Result<u64, String> {
        if self.searching() {
            return Err("a search is already running (send stop first)".into());
        }
        let tt = self.tt()?;
        let id = self.next_id;
        self.next_id += 1;
        self.control.stop.store(false, Ordering::Relaxed);
        self.control
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let settings = Settings {
            threads: self.opts.threads,
            multipv: self.opts.multipv,
            move_overhead: self.opts.move_overhead,
            features: self.opts.features,
        };
        let (bits, slider, note) =
            crate::engine::resolve(self.opts.bits, self.opts.slider, &self.cpu);
        if let Some(n) = note {
            super::emit(&format!("info string {n}"));
        }
        let root = *self.game.board();
        let fen = root.to_fen();
        let history = self.game.history().to_vec();
        let control = self.control.clone();
        let data = self.data.clone();
        // From now on input must be read while the search runs.
        self.inbox.read_in_background();
        let tx = self.inbox.sender();
        let chess960 = root.is_chess960();
        let handle = std::thread::Builder::new()
            .name("brokkr-main-search".into())
            .stack_size(crate::search::STACK_SIZE)
            .spawn(move || {
                let mut data = data.lock().unwrap_or_else(|e| e.into_inner());
                let cb = |e: Event| report(&root, e);
                let result = crate::with_engine!(bits, slider, E => {
                    match Board::<<E as crate::engine::Engine>::Slider>::from_fen(&fen) {
                        Ok(mut b) => {
                            b.set_chess960(chess960);
                            search::search::<E>(
                                &b, &history, &limits, &settings, &tt, &control, &mut data, &cb,
                            )
                        }
                        Err(_) => SearchResult {
                            best: Move::NULL,
                            ponder: None,
                            score: 0,
                            depth: 0,
                            nodes: 0,
                            pv: vec![],
                        },
                    }
                });
                let _ = tx.send(Msg::SearchDone(id, result.clone()));
                result
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { handle, id });
        Ok(id)
    }

    /// Ask the running search to stop (it reports its move as usual).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The opponent played the expected move: the ponder search becomes a normal one.
    pub fn ponderhit(&self) -> bool {
        if self.searching() && self.control.pondering.load(Ordering::Relaxed) {
            self.control.ponderhit();
            true
        } else {
            false
        }
    }

    /// Whether the running search is pondering.
    pub fn pondering(&self) -> bool {
        self.searching() && self.control.pondering.load(Ordering::Relaxed)
    }

    /// The search with `id` reported its end: forget it. Returns false for a stale id.
    pub fn finished(&mut self, id: u64) -> bool {
        match &self.running {
            Some(r) if r.id == id => {
                if let Some(r) = self.running.take() {
                    let _ = r.handle.join();
                }
                true
            }
            _ => false,
        }
    }

    /// Stop the running search, if any, wait for its thread and return what it
    /// found (its done message stays queued and is ignored as stale).
    pub fn wait(&mut self) -> Option<SearchResult> {
        let r = self.running.take()?;
        self.control.stop();
        r.handle.join().ok()
    }

    /// Whether the running search was asked to stop.
    pub fn stopping(&self) -> bool {
        self.searching() && self.control.stop.load(Ordering::Relaxed)
    }
}
