//! The controller both dialects share: the game, the options, the hash table and
//! the search thread. The dialects only translate lines into calls on it.

use super::{Inbox, Msg, Protocol};
use crate::attacks::{Magic, SliderKind};
use crate::bits::{BitPath, Cpu};
use crate::board::{Board, MoveError, Position, MAX_HALFMOVE};
use crate::search::{
    self, Control, Event, Features, Limits, SearchResult, Settings, ThreadData, TranspositionTable,
};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, Once, Weak};
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
        // Mate was ruled out above, so the rule's mate exception cannot apply;
        // the one draw rule lives in `board::draw`.
        if self.position.is_fifty_move_draw::<crate::bits::Portable>() {
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
    /// `wdl W D L` in UCI's `info` lines (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Play at the strength of `elo` (`UCI_LimitStrength`, `UCI_Elo`).
    pub limit_strength: bool,
    pub elo: u32,
    /// `Skill Level`, 0 to 20 (20: full strength).
    pub skill_level: u32,
    pub bits: BitPath,
    pub slider: SliderKind,
    pub features: Features,
    /// The search parameters (hidden options, listed in a `tune` build).
    pub tuning: crate::search::params::Tuning,
    /// Evaluate with the network (UCI `UseNNUE`) when there is one.
    pub use_nnue: bool,
    /// The network: the embedded one, or the last good `EvalFile`.
    pub net: Option<Arc<crate::nnue::Network>>,
    /// What `EvalFile` shows: `<embedded>` or the file last loaded.
    pub eval_file: String,
    /// The network's vector path (UCI `NNUEPath`).
    pub vector: crate::nnue::VectorPath,
    /// Play from the opening book (`OwnBook`) when it has a move.
    pub own_book: bool,
    /// The book: the last good `BookFile`, if any.
    pub book: Option<Arc<crate::book::Book>>,
    /// What `BookFile` shows: the file of `book`, empty without one.
    pub book_file: String,
    /// How the book chooses among its moves (`BookVariety`, 0 to 100): see
    /// [`crate::book::pick`].
    pub book_variety: u32,
    /// What `SyzygyPath` shows: the directories given, empty for none.
    pub syzygy_path: String,
    /// The tables found there, and how the search probes them
    /// (`SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`).
    pub syzygy: crate::search::SyzygySettings,
}

/// `EvalFile`'s value for the net built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

/// Limits of the options (the first two are shared with the command line's
/// `--hash` and `--threads`).
pub use crate::frontend::{MAX_HASH_MB, MAX_THREADS};
pub const MAX_MULTIPV: usize = 256;
pub const MAX_OVERHEAD_MS: u64 = 10_000;

impl Options {
    /// The defaults, with the bit path and backend `paths --save` or `cpu` picks.
    pub fn for_cpu(cpu: &Cpu) -> Options {
        let choice = crate::paths::Choice::resolve(cpu, None, None);
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: Duration::from_millis(crate::search::DEFAULT_MOVE_OVERHEAD_MS),
            chess960: false,
            show_wdl: false,
            limit_strength: false,
            elo: crate::search::skill::FULL_STRENGTH_ELO,
            skill_level: crate::search::skill::MAX_LEVEL,
            bits: choice.bits,
            slider: choice.slider,
            features: Features::default(),
            tuning: Default::default(),
            use_nnue: true,
            net: crate::nnue::Network::embedded().map(Arc::new),
            eval_file: EMBEDDED_NET.to_string(),
            vector: crate::nnue::VectorPath::best(),
            own_book: false,
            book: None,
            book_file: String::new(),
            book_variety: crate::book::DEFAULT_VARIETY,
            syzygy_path: String::new(),
            syzygy: crate::search::SyzygySettings::default(),
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
    /// The dialect, for the form of notices to the GUI.
    protocol: Protocol,
    /// Test only: make the next searches panic (the hidden `DebugPanic` option).
    pub debug_panic: bool,
    /// Why the last position the GUI sent was refused: until a good one comes,
    /// the engine has no position, and a search is refused rather than run on
    /// an older one (whose move the GUI's board does not have).
    refused: Option<String>,
    /// The evaluation the last search used.
    evaluation: Option<Evaluation>,
}

/// Which evaluation a search uses: the hand-written one, or a network, named
/// by its checksum (the same weights give the same scores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Evaluation {
    HandWritten,
    Network(u64),
}

impl Evaluation {
    fn of(settings: &Settings) -> Evaluation {
        match &settings.net {
            Some(net) => Evaluation::Network(net.hash()),
            None => Evaluation::HandWritten,
        }
    }
}

impl Controller {
    /// A controller reading its input from `inbox`, where its searches also
    /// report their end.
    pub fn new(inbox: Inbox, protocol: Protocol) -> Controller {
        let cpu = Cpu::detect();
        let control = Arc::new(Control::default());
        watch_for_panics(&control);
        Controller {
            game: Game::new(Board::startpos()),
            opts: Options::for_cpu(&cpu),
            tt: None,
            data: Arc::new(Mutex::new(Vec::new())),
            control,
            running: None,
            next_id: 0,
            inbox,
            cpu,
            protocol,
            debug_panic: false,
            refused: None,
            evaluation: None,
        }
    }

    /// Set up the game the GUI sent.
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
        self.refused = None;
    }

    /// The GUI's position was refused for `why`: there is no position until the
    /// next good one (see [`Controller::position`]).
    pub fn refuse_position(&mut self, why: &str) {
        self.refused = Some(why.to_string());
    }

    /// The game, or why there is none: the last position the GUI sent was
    /// refused.
    pub fn position(&self) -> Result<&Game, String> {
        match &self.refused {
            Some(why) => Err(format!("no position: {why}")),
            None => Ok(&self.game),
        }
    }

    /// A notice for the GUI's log: UCI `info string`, xboard a `#` comment.
    pub fn note(&self, msg: &str) {
        note(self.protocol, msg);
    }

    /// A notice the user should see: UCI `info string`, xboard `telluser`.
    pub fn alert(&self, msg: &str) {
        alert(self.protocol, msg);
    }

    /// The move to play when no search can give one: the first legal move in
    /// the order the move generator gives them, or [`Move::NULL`] if none.
    pub fn fallback_move(&self) -> Move {
        let b = self.game.board();
        b.legal_moves::<crate::bits::Portable>()
            .iter()
            .next()
            .unwrap_or(Move::NULL)
    }

    /// The settings of the next search, from the options.
    pub fn settings(&self) -> Settings {
        let skill = crate::search::skill::Skill::from_options(
            self.opts.limit_strength,
            self.opts.elo,
            self.opts.skill_level,
            book_seed(self.game.board().key()),
        );
        Settings {
            threads: self.opts.threads,
            multipv: self.opts.multipv,
            skill,
            move_overhead: self.opts.move_overhead,
            features: self.opts.features,
            tuning: self.opts.tuning.clone(),
            ponder: self.opts.ponder,
            // Every level plays with the evaluation full strength uses: one
            // evaluation, so a change of level never mixes two scales in the
            // hash, and the levels' Elo scale is calibrated with the net
            // (docs/strength-limit.md).
            net: self.opts.net.clone().filter(|_| self.opts.use_nnue),
            vector: crate::paths::resolve_vector(self.opts.vector).0,
            syzygy: self.opts.syzygy.clone(),
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

    /// The hash table, allocated on first use (at the size of the `Hash`
    /// option, or the largest smaller one that can be had: see [`allocate`]).
    pub fn tt(&mut self) -> Result<Arc<TranspositionTable>, String> {
        if let Some(tt) = &self.tt {
            return Ok(tt.clone());
        }
        let (tt, why) = allocate(self.opts.hash_mb, 0);
        let tt = tt.ok_or_else(|| why.clone().unwrap_or_default())?;
        if let Some(why) = why {
            self.alert(&why);
            self.opts.hash_mb = tt.size_mb().max(1);
        }
        let tt = Arc::new(tt);
        self.tt = Some(tt.clone());
        Ok(tt)
    }

    /// Resize the hash table. Only between searches. If `mb` cannot be had, the
    /// largest size that can (halving down from `mb`) is kept, and the returned
    /// message says so: the engine must still be able to move.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        let _ = self.wait();
        let held = self.tt.as_ref().map_or(0, |t| t.size_mb());
        if held == mb {
            return Ok(());
        }
        // Free the old table first: both may not fit at once.
        self.tt = None;
        let (tt, why) = allocate(mb, held);
        self.opts.hash_mb = tt.as_ref().map_or(mb, |t| t.size_mb().max(1));
        // Write every page now, with every core (no search runs meanwhile),
        // rather than page by page in the next search, on its clock.
        self.tt = tt.map(|mut tt| {
            tt.clear(self.clear_threads());
            Arc::new(tt)
        });
        why.map_or(Ok(()), Err)
    }

    /// Set the number of search threads, and make each one's tables now (its
    /// histories take megabytes), as Stockfish starts its threads when the
    /// option is set: a first search with many threads would otherwise make
    /// them on its own clock (256 threads: over a second on 2 cores).
    pub fn set_threads(&mut self, n: usize) {
        let _ = self.wait();
        self.opts.threads = n;
        if let Ok(mut data) = self.data.lock() {
            while data.len() < n {
                data.push(ThreadData::new());
            }
        }
    }

    /// The threads that clear the hash table: the search's, or the machine's
    /// cores if there are more (nothing else of this engine runs meanwhile).
    fn clear_threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.opts.threads.max(cores)
    }

    /// Empty the hash table and forget what the threads learned.
    ///
    /// The table is zeroed in place by the search's number of threads, so its
    /// pages are all written now rather than, after a fresh allocation, one by
    /// one by the kernel during the next game's first search, on its clock.
    pub fn clear(&mut self) {
        let _ = self.wait();
        let threads = self.opts.threads;
        match self.tt.as_mut().map(Arc::get_mut) {
            Some(Some(tt)) => tt.clear(threads),
            // Still shared (never, once the search thread has ended): a new one.
            Some(None) => {
                self.tt = None;
                let _ = self.tt();
            }
            // Not allocated yet: allocate it now, and write its pages now too.
            None => {
                if self.tt().is_ok() {
                    if let Some(Some(tt)) = self.tt.as_mut().map(Arc::get_mut) {
                        tt.clear(threads);
                    }
                }
            }
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
        self.set_game(Game::new(b));
    }

    /// The book's move for the current position, to be played at once instead of
    /// a search with `limits`: only with `OwnBook` on and a book loaded, and
    /// never for `go infinite`, `ponder` or `mate`, analysis, or a search of
    /// chosen root moves. Book moves that are not legal here are passed over
    /// (with a note); with no legal book move left the caller searches.
    pub fn book_move(&self, limits: &Limits) -> Option<Move> {
        if !self.opts.own_book
            || limits.infinite
            || limits.ponder
            || limits.mate.is_some()
            || !limits.searchmoves.is_empty()
        {
            return None;
        }
        let book = self.opts.book.as_ref()?;
        let b = self.game.board();
        let (_, illegal) = book.moves(b);
        for e in &illegal {
            self.note(&format!(
                "book move {} is not legal in this position: passed over",
                crate::book::move_text(e.mv)
            ));
        }
        let chosen = book.choose(b, self.opts.book_variety, book_seed(b.key()));
        match chosen {
            Some(c) => {
                self.note(&format!(
                    "book move {} (weight {} of {}, {} book move{})",
                    b.to_uci(c.mv),
                    c.weight,
                    c.total,
                    c.choices,
                    if c.choices == 1 { "" } else { "s" }
                ));
                Some(c.mv)
            }
            None => {
                if !illegal.is_empty() {
                    self.note("no legal book move in this position: searching");
                }
                None
            }
        }
    }

    /// Start a search of the current position. `report` formats progress; the end
    /// arrives as [`Msg::SearchDone`] with the returned id.
    pub fn go(&mut self, limits: Limits, report: Reporter) -> Result<u64, String> {
        if self.searching() {
            return Err("a search is already running (send stop first)".into());
        }
        self.position()?;
        let settings = self.settings();
        self.start_evaluation(&settings);
        let tt = self.tt()?;
        let id = self.next_id;
        self.next_id += 1;
        self.control.stop.store(false, Ordering::Relaxed);
        self.control
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let (bits, slider, fallback) =
            crate::paths::resolve(self.opts.bits, self.opts.slider, &self.cpu);
        if let Some(n) = fallback {
            self.note(&n);
        }
        let (_, fallback) = crate::paths::resolve_vector(self.opts.vector);
        if let Some(n) = fallback.filter(|_| settings.net.is_some()) {
            self.note(&n);
        }
        let root = *self.game.board();
        self.note_a_75_move_draw(&root);
        let fen = search_fen(&root);
        let history = self.game.history().to_vec();
        let control = self.control.clone();
        let data = self.data.clone();
        let protocol = self.protocol;
        let debug_panic = self.debug_panic;
        // From now on input must be read while the search runs.
        self.inbox.read_in_background();
        let tx = self.inbox.sender();
        let chess960 = root.is_chess960();
        let handle = std::thread::Builder::new()
            .name("brokkr-main-search".into())
            .stack_size(crate::search::STACK_SIZE)
            .spawn(move || {
                let mut data = data.lock().unwrap_or_else(|e| e.into_inner());
                // The first move of the last main line reported: what a search
                // that fails is replaced by.
                let best_so_far = Mutex::new(Move::NULL);
                let cb = |e: Event| {
                    if let Event::Info(i) = &e {
                        if i.multipv == 1 {
                            if let Some(&m) = i.pv.first() {
                                *best_so_far.lock().unwrap_or_else(|e| e.into_inner()) = m;
                            }
                            if debug_panic && i.depth >= 2 {
                                panic!("DebugPanic: a panic on purpose, at depth {}", i.depth);
                            }
                        }
                    }
                    report(&root, e)
                };
                // A panic anywhere in the search (helpers included: the panic
                // hook stops the search, so the scope that joins them ends)
                // lands here, and the GUI still gets a move.
                let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    crate::with_engine!(bits, slider, E => {
                        match Board::<<E as crate::paths::Engine>::Slider>::from_fen(&fen) {
                            Ok(mut b) => {
                                b.set_chess960(chess960);
                                Ok(search::search::<E>(
                                    &b, &history, &limits, &settings, &tt, &control, &mut data,
                                    &cb,
                                ))
                            }
                            Err(e) => Err(format!("the search cannot set up the position: {e}")),
                        }
                    })
                }));
                let result = settle(searched, &root, &best_so_far, &mut data, protocol);
                drop(data);
                let _ = tx.send(Msg::SearchDone(id, result.clone()));
                result
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { handle, id });
        Ok(id)
    }

    /// The game is drawn by the rules once `root` is 75 moves without a
    /// capture or pawn move, but a GUI that does not apply the rule still waits
    /// for a move, and loses on time without one: say so, and search anyway.
    fn note_a_75_move_draw(&self, root: &Board<Magic>) {
        let clock = root.halfmove_clock();
        if clock >= MAX_HALFMOVE as u32 {
            self.note(&format!(
                "the 75-move rule has drawn this game ({clock} plies without a capture or \
                 pawn move); playing a move all the same"
            ));
        }
    }

    /// Before a search with `settings`: the hash table, the correction
    /// history and the histories hold the numbers of the evaluation that made
    /// them, so a search with another (the net switched on or off, another net
    /// loaded) starts afresh, and no score of one scale is read as the other's.
    fn start_evaluation(&mut self, settings: &Settings) {
        let evaluation = Evaluation::of(settings);
        if self.evaluation.is_some_and(|e| e != evaluation) {
            self.clear();
        }
        self.evaluation = Some(evaluation);
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
        if self.searching() {
            self.control.stop();
        }
        self.join()
    }

    /// Wait for the running search to end by its own limits, and return what
    /// it found (its done message stays queued and is ignored as stale).
    pub fn join(&mut self) -> Option<SearchResult> {
        let r = self.running.take()?;
        r.handle.join().ok()
    }

    /// Whether the running search was asked to stop.
    pub fn stopping(&self) -> bool {
        self.searching() && self.control.stop.load(Ordering::Relaxed)
    }
}

/// A random number for the book's choice (and a strength limit's): the
/// position's key, the clock and a count of the calls, mixed (SplitMix64's
/// finaliser), so that the same position may get another move in the next game.
fn book_seed(key: u64) -> u64 {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let calls = CALLS.fetch_add(1, Ordering::Relaxed);
    let mut z = key ^ nanos ^ calls.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ z >> 31
}

/// A notice for the GUI's log in `protocol`'s form.
fn note(protocol: Protocol, msg: &str) {
    match protocol {
        Protocol::Uci => super::emit(&format!("info string {msg}")),
        Protocol::Xboard => super::emit(&format!("# {msg}")),
    }
}

/// A notice for the user in `protocol`'s form (xboard shows `telluser` in a
/// dialog, so only for what the user must act on).
fn alert(protocol: Protocol, msg: &str) {
    match protocol {
        Protocol::Uci => super::emit(&format!("info string {msg}")),
        Protocol::Xboard => super::emit(&format!("telluser brokkr: {msg}")),
    }
}

/// The FEN the search thread sets its board up from. The FEN parser refuses a
/// halfmove clock past the 75-move rule's 150 plies, which a game may still
/// reach move by move; at 150 the search scores every quiet line as drawn all
/// the same, so the clock is capped there rather than the position refused.
fn search_fen(b: &Board<Magic>) -> String {
    let fen = b.to_fen();
    if b.halfmove_clock() <= MAX_HALFMOVE as u32 {
        return fen;
    }
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    if fields.len() == 6 {
        fields[4] = MAX_HALFMOVE.to_string();
    }
    fields.join(" ")
}

/// Whether the root has no legal move (mate or stalemate): then no move is right.
fn root_is_over(b: &Board<Magic>) -> bool {
    b.legal_moves::<crate::bits::Portable>().is_empty()
}

/// `m` if it is legal at `b`, else the first legal move ([`Move::NULL`] if none).
fn legal_or_first(b: &Board<Magic>, m: Move) -> Move {
    if !m.is_null() && b.is_legal::<crate::bits::Portable>(m) {
        return m;
    }
    b.legal_moves::<crate::bits::Portable>()
        .iter()
        .next()
        .unwrap_or(Move::NULL)
}

/// The search thread's result from what the search returned: its own result,
/// or a legal move in its place when it found none (the root not being over),
/// could not set up the position, or panicked. After a panic the move is the
/// first of the last main line reported (`best_so_far`) if it is legal, the
/// panic is reported, and `data`, the histories it struck in the middle of,
/// is cleared (the hash holds only whole atomic writes).
fn settle(
    searched: std::thread::Result<Result<SearchResult, String>>,
    root: &Board<Magic>,
    best_so_far: &Mutex<Move>,
    data: &mut [ThreadData],
    protocol: Protocol,
) -> SearchResult {
    match searched {
        Ok(Ok(r)) if !r.best.is_null() || root_is_over(root) => r,
        Ok(Ok(_)) => {
            let m = legal_or_first(root, Move::NULL);
            note(protocol, "the search found no move; playing a legal one");
            played(m)
        }
        Ok(Err(why)) => {
            note(protocol, &format!("{why}; playing a legal move"));
            played(legal_or_first(root, Move::NULL))
        }
        Err(payload) => {
            data.iter_mut().for_each(ThreadData::clear);
            let before = *best_so_far.lock().unwrap_or_else(|e| e.into_inner());
            let m = legal_or_first(root, before);
            let which = if m == before {
                "the best move so far"
            } else {
                "a legal move"
            };
            alert(
                protocol,
                &format!(
                    "the search panicked ({}); playing {} ({which}). Please report this with \
                     the position: {}",
                    panic_text(payload.as_ref()),
                    root.to_uci(m),
                    root.to_fen()
                ),
            );
            played(m)
        }
    }
}

/// A result that plays `m` and knows nothing else.
fn played(m: Move) -> SearchResult {
    SearchResult {
        best: m,
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: if m.is_null() { vec![] } else { vec![m] },
    }
}

/// A panic's message, if it has one.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "no message".into()
    }
}

/// The controls of the searches of this process, for the panic hook.
static SEARCHES: Mutex<Vec<Weak<Control>>> = Mutex::new(Vec::new());

/// Register `control` with the panic hook, installed once per process.
///
/// A panic in a search thread must stop the whole search: the other threads
/// would otherwise run on (a helper never checks the limits, and `go infinite`
/// has none), and the scope that joins them would never hand the panic to the
/// guard in [`Controller::go`]. The hook runs on the panicking thread before the
/// unwinding, so it can raise the stop flag in time; it then hands over to the
/// hook that was there before (which prints the message on stderr).
fn watch_for_panics(control: &Arc<Control>) {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or("");
            if name.starts_with("brokkr-") && name.contains("search") {
                // try_lock: a panic while the list is locked must not deadlock.
                if let Ok(list) = SEARCHES.try_lock() {
                    list.iter().filter_map(Weak::upgrade).for_each(|c| c.stop());
                }
            }
            previous(info);
        }));
    });
    if let Ok(mut list) = SEARCHES.lock() {
        list.retain(|w| w.strong_count() > 0);
        list.push(Arc::downgrade(control));
    }
}

/// A hash table of `mb` MiB, or of the largest size that can be had, halving
/// down to 1 MiB; with a message saying so when it is not `mb`. `held` MiB are
/// about to be freed (the old table), so they count as available.
///
/// A size larger than the memory the system reports available (Linux's
/// `MemAvailable`) is passed over without trying it: with overcommit, such an
/// allocation may well succeed, and the kernel then kills the process when the
/// table is written (`Clear Hash` writes all of it) rather than fail the request.
/// Nor is more than half the machine's memory (Linux's `MemTotal`) taken.
pub fn allocate(mb: usize, held: usize) -> (Option<TranspositionTable>, Option<String>) {
    let available = available_mb().map(|a| a + held);
    // Half the machine's memory at most: the rest is for the system and the
    // other engine of a match (a GUI asking for more than the machine has
    // would otherwise have the table swapped out, or the process killed).
    let cap = physical_mb().map(|m| (m / 2).max(1)).filter(|&c| mb > c);
    let mut size = cap.unwrap_or(mb).max(1);
    loop {
        let fits = available.is_none_or(|a| size <= a);
        if fits {
            if let Some(tt) = TranspositionTable::new(size) {
                let why = match cap {
                    _ if size == mb => None,
                    Some(c) if c == size => Some(format!(
                        "Hash {mb} MB is more than half of this machine's {} MB of memory \
                         (the rest is left to the system and the other engine): using {size} MB",
                        c * 2
                    )),
                    _ => Some(format!(
                        "cannot allocate a {mb} MB hash table; using {size} MB instead"
                    )),
                };
                return (Some(tt), why);
            }
        }
        if size == 1 {
            return (
                None,
                Some(format!(
                    "cannot allocate a hash table of {mb} MB, nor of any size down to 1 MB"
                )),
            );
        }
        size /= 2;
    }
}

/// The memory the system reports available, in MiB, where it says (Linux).
fn available_mb() -> Option<usize> {
    meminfo_mb("MemAvailable:")
}

/// The machine's memory, in MiB, where the system says (Linux).
pub fn physical_mb() -> Option<usize> {
    meminfo_mb("MemTotal:")
}

/// A line of `/proc/meminfo` (in KiB there), in MiB.
fn meminfo_mb(field: &str) -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib >> 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ponder_option_reaches_the_search_settings() {
        let mut c = Controller::new(Inbox::new(), Protocol::Uci);
        assert!(!c.settings().ponder);
        c.opts.ponder = true;
        assert!(c.settings().ponder);
    }

    #[test]
    fn a_strength_limit_plays_with_the_evaluation_full_strength_uses() {
        let mut c = Controller::new(Inbox::new(), Protocol::Uci);
        let Some(net) = c.opts.net.clone() else {
            return; // a build without an embedded net
        };
        let uses_net = |c: &Controller| c.settings().net.map(|n| n.hash()) == Some(net.hash());
        assert!(uses_net(&c), "full strength uses the net");
        c.opts.limit_strength = true;
        c.opts.elo = crate::search::skill::ELO_MIN;
        assert!(c.settings().skill.is_some() && uses_net(&c));
        c.opts.limit_strength = false;
        c.opts.skill_level = 5;
        assert!(c.settings().skill.is_some() && uses_net(&c));
        c.opts.use_nnue = false;
        assert!(c.settings().net.is_none());
    }

    #[test]
    fn a_search_with_another_evaluation_starts_with_an_empty_hash() {
        let mut c = Controller::new(Inbox::new(), Protocol::Uci);
        if c.opts.net.is_none() {
            return; // a build without an embedded net
        }
        let quiet: Reporter = Arc::new(|_: &Board<Magic>, _: Event| {});
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        c.go(limits, quiet).unwrap();
        c.join().unwrap();
        let root = c.game.board().key();
        let stored = |c: &mut Controller| c.tt().unwrap().probe(root, 0).is_some();
        assert!(stored(&mut c));
        // The same evaluation: what the hash holds is kept.
        let settings = c.settings();
        c.start_evaluation(&settings);
        assert!(stored(&mut c));
        // Another one (the net off, as UseNNUE false; a strength limit no
        // longer changes it): emptied.
        c.opts.use_nnue = false;
        let settings = c.settings();
        c.start_evaluation(&settings);
        assert!(!stored(&mut c));
    }

    #[test]
    fn the_search_fen_caps_the_halfmove_clock_at_the_75_move_rule() {
        let mut b = Board::<Magic>::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 150 200").unwrap();
        b.make::<crate::bits::Portable>(b.parse_uci("d3d1").unwrap());
        assert_eq!(b.halfmove_clock(), 151);
        assert!(Board::<Magic>::from_fen(&b.to_fen()).is_err());
        let fen = search_fen(&b);
        assert!(fen.ends_with(" 150 200"), "{fen}");
        assert!(Board::<Magic>::from_fen(&fen).is_ok());
    }
}
