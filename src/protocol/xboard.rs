//! The xboard / CECP v2 dialect.
//!
//! The engine plays the side xboard gives it (`go`, `playother`), thinks on its
//! own clock (`level`, `st`, `sd`, `time`, `otim`, and `nps` for a clock counted
//! in nodes), ponders when told `hard`, analyses (`analyze` ... `exit`), accepts
//! a draw offer when its score is not above zero, and claims results by the
//! rules. Bad input gets `Error (...): ...` or `Illegal move: ...` and changes
//! nothing.
//!
//! Until `level` or `st` says otherwise the time control is xboard's own
//! default, 40 moves in 5 minutes. `new` starts the clocks of that control
//! afresh (it forgets `time` and `otim`) and drops `sd`, `nps` and pondering
//! on the first move, as the protocol says, but keeps `level` or `st`: they are
//! the match's settings, which xboard sends once. Moves toward a `level`'s
//! control are counted from the game's start (or the last `setboard`), not from
//! the FEN's move number.

use super::controller::{Controller, Game, Outcome, Reporter, MAX_HASH_MB, MAX_THREADS};
use super::uci::engine_name;
use super::{emit, shown, Inbox, Msg, MAX_LINE};
use crate::attacks::Magic;
use crate::board::Board;
use crate::search::{Event, Info, Limits, Score, TimeBudget};
use crate::types::{Color, Move, MoveKind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// Thinking on the engine's own move.
    Think,
    /// Pondering on the opponent's time, expecting this move.
    Ponder(Move),
    /// Analysing (`analyze` mode).
    Analyze,
}

/// The time control set by `level` and `st`.
#[derive(Clone, Copy, Debug)]
struct TimeControl {
    /// Moves per session (0: the whole game).
    mps: u32,
    base: Duration,
    inc: Duration,
    /// Fixed time per move (`st`).
    per_move: Option<Duration>,
}

struct Xboard {
    ctl: Controller,
    /// The colour the engine plays; `None` in force mode.
    engine: Option<Color>,
    post: Arc<AtomicBool>,
    ponder: bool,
    analyze: bool,
    task: Option<Task>,
    tc: TimeControl,
    depth: Option<i32>,
    /// The engine's and the opponent's clocks, as `time` and `otim` gave them.
    time: Option<Duration>,
    otim: Option<Duration>,
    /// The last search report, for `.` in analyze mode.
    last: Arc<Mutex<Option<Info>>>,
    /// The root move the running search is on (depth, move, its number), for `.`.
    current: Arc<Mutex<Option<(i32, Move, usize)>>>,
    started: Instant,
    /// `nps`: nodes a second of the engine's clock, which then counts nodes
    /// instead of wall time (`None`: wall time).
    nps: Option<u64>,
    /// The opponent offered a draw (`draw`), still to be answered.
    draw_offered: bool,
    /// The reply the engine's last search expected: the key of the position
    /// after its move, and the move (for `hint`).
    expected: Option<(u64, Move)>,
}

/// xboard's own default time control: 40 moves in 5 minutes.
const DEFAULT_TC: TimeControl = TimeControl {
    mps: 40,
    base: Duration::from_secs(300),
    inc: Duration::ZERO,
    per_move: None,
};

/// Accept a draw offer when the engine's score (centipawns, from its side) is
/// at most this: when it does not think it is better.
const DRAW_ACCEPT_CP: i32 = 0;

/// Run the xboard loop until `quit` or EOF. `first` is a line already read.
pub fn run(inbox: Inbox, first: Option<String>) -> i32 {
    let mut x = Xboard::new(inbox);
    if let Some(l) = first {
        if !x.line(&l) {
            return 0;
        }
    }
    loop {
        match x.ctl.inbox.recv() {
            Msg::Line(l) => {
                if !x.line(&l) {
                    break;
                }
            }
            Msg::TooLong(n) => emit(&format!(
                "Error (line too long): ignored an input line of {n} bytes (the limit is {MAX_LINE})"
            )),
            Msg::Eof => break,
            Msg::SearchDone(id, r) => {
                if x.ctl.finished(id) {
                    x.search_done(r.best, r.ponder, Some(r.score));
                }
            }
        }
    }
    let _ = x.ctl.wait();
    0
}

impl Xboard {
    fn new(inbox: Inbox) -> Xboard {
        Xboard {
            ctl: Controller::new(inbox, super::Protocol::Xboard),
            engine: Some(Color::Black),
            post: Arc::new(AtomicBool::new(true)),
            ponder: false,
            analyze: false,
            task: None,
            tc: DEFAULT_TC,
            depth: None,
            time: None,
            otim: None,
            last: Arc::new(Mutex::new(None)),
            current: Arc::new(Mutex::new(None)),
            started: Instant::now(),
            nps: None,
            draw_offered: false,
            expected: None,
        }
    }

    /// Handle one line; false to quit. Each kind of command has its handler
    /// (the game, the clock, thinking and analysis, the engine's settings),
    /// which says whether the command was its own.
    fn line(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "white" | "black" | "bk" => {}
            "quit" => return false,
            _ if self.game_command(cmd, arg, line)
                || self.clock_command(cmd, arg, line)
                || self.thinking_command(cmd)
                || self.setting_command(cmd, arg, line) => {}
            // A bare move, as xboard sends without usermove=1.
            _ if self.looks_like_move(cmd) && arg.is_empty() => self.user_move(cmd),
            _ => error("unknown command", line),
        }
        true
    }

    /// The game's commands: the position, the moves, who plays which side, and
    /// the result. False when `cmd` is not one of them.
    fn game_command(&mut self, cmd: &str, arg: &str, line: &str) -> bool {
        match cmd {
            "new" => self.new_game(),
            "variant" => self.variant(arg),
            "setboard" => self.setboard(arg),
            "edit" => error("not supported (use setboard)", line),
            "usermove" => self.user_move(arg),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "force" | "result" => {
                self.stop_search();
                self.engine = None;
            }
            "go" => {
                self.stop_search();
                if self.has_position("go") {
                    self.engine = Some(self.side());
                    self.maybe_think();
                }
            }
            "playother" => {
                self.stop_search();
                if self.has_position("playother") {
                    self.engine = Some(self.side().flip());
                    self.maybe_ponder(None);
                }
            }
            "draw" => self.draw_offered = true,
            "hint" => self.hint(),
            _ => return false,
        }
        true
    }

    /// The clock's commands: the time control (`level`, `st`), a depth limit
    /// (`sd`), the clocks' readings (`time`, `otim`) and a clock counted in
    /// nodes (`nps`). False when `cmd` is not one of them.
    fn clock_command(&mut self, cmd: &str, arg: &str, line: &str) -> bool {
        match cmd {
            "level" => self.level(arg),
            "st" => match parse_seconds(arg) {
                Some(t) if t > Duration::ZERO => self.tc.per_move = Some(t),
                _ => error("bad st", line),
            },
            "sd" => match arg.parse::<i64>() {
                Ok(d) if d >= 1 => self.depth = Some(d.min(127) as i32),
                _ => error("bad sd", line),
            },
            "time" | "otim" => match arg.parse::<i64>() {
                Ok(cs) => {
                    let t = Duration::from_millis(cs.clamp(0, 1 << 40) as u64 * 10);
                    if cmd == "time" {
                        self.time = Some(t);
                    } else {
                        self.otim = Some(t);
                    }
                }
                Err(_) => error(&format!("bad {cmd}"), line),
            },
            "nps" => match arg.parse::<u64>() {
                Ok(0) => self.nps = None,
                Ok(n) => self.nps = Some(n),
                Err(_) => error("bad nps", line),
            },
            _ => return false,
        }
        true
    }

    /// How the engine thinks and shows it: move now (`?`), pondering (`hard`,
    /// `easy`), analysis (`analyze`, `exit`, `.`) and the thinking output
    /// (`post`, `nopost`). False when `cmd` is not one of them.
    fn thinking_command(&mut self, cmd: &str) -> bool {
        match cmd {
            "?" => {
                if self.task == Some(Task::Think) {
                    self.ctl.stop();
                }
            }
            "hard" => {
                self.ponder = true;
                self.ctl.opts.ponder = true;
            }
            "easy" => {
                self.ponder = false;
                self.ctl.opts.ponder = false;
                if matches!(self.task, Some(Task::Ponder(_))) {
                    self.stop_search();
                }
            }
            "analyze" => {
                self.stop_search();
                self.analyze = true;
                self.engine = None;
                if self.has_position("analyze") {
                    self.start_analysis();
                }
            }
            "exit" => {
                if self.analyze {
                    self.stop_search();
                    self.analyze = false;
                }
            }
            "." => self.stat(),
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            _ => return false,
        }
        true
    }

    /// The engine's settings and the protocol's handshake: `protover`,
    /// `ping`, `memory`, `cores`, `egtpath` and `option`. False when `cmd` is
    /// not one of them.
    fn setting_command(&mut self, cmd: &str, arg: &str, line: &str) -> bool {
        match cmd {
            "protover" => self.features(),
            "ping" => emit(&format!("pong {arg}")),
            "memory" => match arg.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    self.stop_search();
                    // Not an `Error`: a smaller table is in place and the engine
                    // plays on, but the user should know the setting did not take.
                    if let Err(e) = self.ctl.set_hash(mb) {
                        self.ctl.alert(&e);
                    }
                }
                _ => error("bad memory", line),
            },
            "cores" => match arg.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.option("Threads", &n.to_string()),
                _ => error("bad cores", line),
            },
            "egtpath" => self.egtpath(arg),
            "option" => match arg.split_once('=') {
                Some((n, v)) => self.option(n.trim(), v.trim()),
                None => self.option(arg, ""),
            },
            _ => return false,
        }
        true
    }

    /// `egtpath TYPE PATH` (feature egt="syzygy"): the Syzygy tables'
    /// directories, as the `SyzygyPath` option. A folder that does not exist
    /// is only noted (XBoard sends its default path whether or not the tables
    /// are there).
    fn egtpath(&mut self, arg: &str) {
        let (kind, dir) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
        let dir = dir.trim();
        if !kind.eq_ignore_ascii_case("syzygy") {
            self.ctl.note(&format!(
                "egtpath: only syzygy tables are read, not '{}'",
                shown(kind)
            ));
        } else if dir.is_empty() {
            self.ctl.note(
                "egtpath syzygy: no folder given (expected 'egtpath syzygy FOLDER'); \
                 playing without tables",
            );
        } else {
            self.option("SyzygyPath", dir);
        }
    }

    /// `hint`: a move for the user. While pondering, the move expected from
    /// the user; while idle, the reply the last search expected if this is
    /// its position, else a short search's move (50,000 nodes, a few
    /// hundredths of a second). While thinking or analysing there is none:
    /// the GUI shows the lines already.
    fn hint(&mut self) {
        let b = *self.ctl.game.board();
        let m = match self.task {
            Some(Task::Ponder(m)) => Some(m),
            Some(_) => None,
            None if self.ctl.position().is_err() || self.ctl.game.outcome().is_some() => None,
            None => match self.expected {
                Some((key, m)) if key == b.key() && b.is_legal::<crate::bits::Portable>(m) => {
                    Some(m)
                }
                _ => {
                    let limits = Limits {
                        nodes: Some(50_000),
                        ..Limits::default()
                    };
                    let quiet: Reporter = Arc::new(|_: &Board<Magic>, _: Event| {});
                    match self.ctl.go(limits, quiet) {
                        Ok(_) => self.ctl.join().map(|r| r.best).filter(|m| !m.is_null()),
                        Err(_) => None,
                    }
                }
            },
        };
        if let Some(m) = m {
            emit(&format!("Hint: {}", move_text(&b, m)));
        }
    }

    fn side(&self) -> Color {
        self.ctl.game.board().side_to_move()
    }

    fn features(&self) {
        // One write for the whole answer: a GUI waiting for `done=1` is woken once.
        // `sigterm` keeps its default (1: the GUI may send SIGTERM after
        // `quit`, which ends the process as it should); python-chess rejects
        // `sigterm=0` with a warning at every start.
        let mut lines = vec![format!(
            "feature done=0 ping=1 setboard=1 usermove=1 time=1 draw=1 colors=0 analyze=1 \
             sigint=0 reuse=1 san=0 nps=1 memory=1 smp=1 egt=\"syzygy\" \
             variants=\"normal,fischerandom\" myname=\"{}\"",
            engine_name()
        )];
        lines.extend(super::options::xboard_lines(&self.ctl.opts, &self.ctl.cpu));
        lines.push("feature done=1".to_string());
        emit(&lines.join("\n"));
    }

    /// `new`: the start position, the engine on Black, the clocks of the time
    /// control afresh, no `sd` limit, wall-clock time (no `nps`). The time
    /// control itself (`level` or `st`) stays.
    fn new_game(&mut self) {
        self.stop_search();
        self.analyze = false;
        let chess960 = false;
        self.ctl.opts.chess960 = chess960;
        self.ctl.new_game();
        self.engine = Some(Color::Black);
        self.depth = None;
        self.time = None;
        self.otim = None;
        self.nps = None;
        self.draw_offered = false;
    }

    fn variant(&mut self, v: &str) {
        match v {
            "normal" => self.set_chess960(false),
            "fischerandom" => self.set_chess960(true),
            _ => error("unsupported variant", v),
        }
    }

    fn set_chess960(&mut self, on: bool) {
        self.ctl.opts.chess960 = on;
        self.ctl.game.set_chess960(on);
    }

    /// `setboard FEN`: a castling right or en-passant square the position
    /// cannot have is dropped with a note; a FEN that is refused leaves the
    /// engine with no position until `new` or a good `setboard` (a move of the
    /// old one would not exist on the GUI's board).
    fn setboard(&mut self, fen: &str) {
        self.stop_search();
        match Board::<Magic>::from_fen_lenient(fen) {
            Ok((mut b, notes)) => {
                for n in notes {
                    self.ctl.note(&format!("setboard: {n}"));
                }
                b.set_chess960(self.ctl.opts.chess960);
                self.ctl.set_game(Game::new(b));
                if self.analyze {
                    self.start_analysis();
                }
            }
            Err(e) => {
                emit(&format!("tellusererror Illegal position: {e}"));
                explain("setboard", &format!("bad FEN '{}': {e}", shown(fen)));
                self.ctl
                    .refuse_position(&format!("the last setboard was refused: {e}"));
            }
        }
    }

    /// Whether the engine has a position; if not, says so as an error for
    /// `what` (the last `setboard` was refused).
    fn has_position(&self, what: &str) -> bool {
        match self.ctl.position() {
            Ok(_) => true,
            Err(e) => {
                explain(what, &e);
                false
            }
        }
    }

    fn take_back(&mut self, n: usize) {
        self.stop_search();
        if !self.has_position(if n == 1 { "undo" } else { "remove" }) {
            return;
        }
        for _ in 0..n {
            if !self.ctl.game.pop() {
                error("nothing to undo", if n == 1 { "undo" } else { "remove" });
                break;
            }
        }
        if self.analyze {
            self.start_analysis();
        }
    }

    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = match parts.as_slice() {
            [mps, base, inc] => (|| {
                let mps = mps.parse::<u32>().ok()?;
                let base = match base.split_once(':') {
                    Some((m, s)) => {
                        Duration::from_secs(m.parse::<u64>().ok()?.checked_mul(60)?)
                            + Duration::from_secs(s.parse::<u64>().ok()?)
                    }
                    None => Duration::from_secs_f64(
                        base.parse::<f64>()
                            .ok()
                            .filter(|v| v.is_finite() && *v >= 0.0)?
                            * 60.0,
                    ),
                };
                let inc = parse_seconds(inc)?;
                Some((mps, base, inc))
            })(),
            _ => None,
        };
        match parsed {
            Some((mps, base, inc)) => {
                self.tc = TimeControl {
                    mps,
                    base,
                    inc,
                    per_move: None,
                };
            }
            None => error("bad level (expected 'level MPS BASE INC')", arg),
        }
    }

    fn option(&mut self, name: &str, value: &str) {
        // xboard's check options send 1 and 0; the options take true and false.
        let check = super::options::find(name)
            .is_some_and(|o| matches!(o.kind, super::options::Kind::Check));
        let value = match value {
            "1" if check => "true",
            "0" if check => "false",
            v => v,
        };
        let value = (!value.is_empty()).then_some(value);
        self.stop_search();
        if let Err(e) = super::options::set(&mut self.ctl, name, value) {
            explain("option", &e);
        }
    }

    /// Whether an unknown command is written like a move (so it gets "Illegal
    /// move" rather than "unknown command"): coordinates or SAN.
    fn looks_like_move(&self, s: &str) -> bool {
        let t = s.trim_end_matches(['+', '#']);
        if t.starts_with("O-O") || t.starts_with("0-0") {
            return true;
        }
        let t = t.trim_end_matches(['q', 'r', 'b', 'n', 'Q', 'R', 'B', 'N']);
        let t = t.strip_suffix('=').unwrap_or(t).as_bytes();
        t.len() >= 2
            && t.len() <= 7
            && matches!(t[t.len() - 2], b'a'..=b'h')
            && matches!(t[t.len() - 1], b'1'..=b'8')
            && t.iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == b'x' || *c == b'-')
    }

    /// The opponent's move (or, in analyze/force mode, any move to play).
    fn user_move(&mut self, s: &str) {
        if !self.has_position("usermove") {
            return;
        }
        let b = *self.ctl.game.board();
        let m = match parse_move(&b, s) {
            Some(m) => m,
            None => {
                emit(&format!("Illegal move: {}", shown(s)));
                return;
            }
        };
        if self.task == Some(Task::Think) {
            emit(&format!("Illegal move (not your turn): {}", shown(s)));
            return;
        }
        // A ponder hit: the search starts again on the clock xboard sent with the
        // move (`time` comes before `usermove`). A search's time budget is fixed
        // when it starts, and the ponder search's came from the clock before the
        // opponent's move, counted from the start of pondering. What it found
        // stays in the hash table, so the new search is back at its depth soon.
        self.stop_search();
        self.ctl.game.push(m);
        if self.analyze {
            self.start_analysis();
            return;
        }
        if self.claim_result() {
            return;
        }
        self.maybe_think();
    }

    /// Stop any search and forget it.
    fn stop_search(&mut self) {
        let _ = self.ctl.wait();
        self.task = None;
    }

    /// Think if the engine is to move.
    fn maybe_think(&mut self) {
        if self.engine != Some(self.side()) || self.ctl.game.outcome().is_some() {
            return;
        }
        let limits = self.in_nodes(self.limits());
        // A book move is played at once, without a search.
        if let Some(m) = self.ctl.book_move(&limits) {
            self.task = Some(Task::Think);
            self.search_done(m, None, None);
            return;
        }
        self.start(limits, Task::Think);
    }

    /// Ponder on the opponent's time, if asked to and a reply is expected.
    fn maybe_ponder(&mut self, expected: Option<Move>) {
        let Some(expected) = expected else {
            return;
        };
        if !self.ponder || self.engine != Some(self.side().flip()) {
            return;
        }
        if self.ctl.game.outcome().is_some() {
            return;
        }
        // Search the position after the expected reply, as if it had been played.
        let saved = self.ctl.game.clone();
        self.ctl.game.push(expected);
        if self.ctl.game.outcome().is_some() {
            self.ctl.game = saved;
            return;
        }
        let mut limits = self.in_nodes(self.limits());
        limits.ponder = true;
        self.start(limits, Task::Ponder(expected));
        self.ctl.game = saved;
    }

    fn start_analysis(&mut self) {
        self.stop_search();
        if self.ctl.game.outcome().is_some() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.start(limits, Task::Analyze);
    }

    fn start(&mut self, limits: Limits, task: Task) {
        let post = self.post.clone();
        let last = self.last.clone();
        let current = self.current.clone();
        let report: Reporter = Arc::new(move |root: &Board<Magic>, e: Event| match e {
            Event::Info(i) => {
                // Kept before it is shown, so a `.` sent on seeing it finds it.
                let line = post
                    .load(Ordering::Relaxed)
                    .then(|| thinking_line(root, &i));
                if let Ok(mut l) = last.lock() {
                    *l = Some(i);
                }
                if let Some(line) = line {
                    emit(&line);
                }
            }
            Event::CurrMove { depth, mv, number } => {
                if let Ok(mut c) = current.lock() {
                    *c = Some((depth, mv, number));
                }
            }
        });
        if let Ok(mut l) = self.last.lock() {
            *l = None;
        }
        if let Ok(mut c) = self.current.lock() {
            *c = None;
        }
        self.started = Instant::now();
        match self.ctl.go(limits, report) {
            Ok(_) => self.task = Some(task),
            Err(e) if task == Task::Think => {
                // No search, but the clock runs: a legal move beats a loss on time.
                self.ctl.alert(&format!("{e}; playing a legal move"));
                let m = self.ctl.fallback_move();
                self.task = Some(Task::Think);
                self.search_done(m, None, None);
            }
            Err(e) => explain("search", &e),
        }
    }

    /// The limits for the engine's move from the clock settings.
    fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(t) = self.tc.per_move {
            l.movetime = Some(t);
            return l;
        }
        let time = self.time.unwrap_or(self.tc.base);
        l.time = Some(time);
        l.inc = self.tc.inc;
        if self.tc.mps > 0 {
            // The engine's moves since the game's start (or `setboard`): it is to
            // move, so it has made half the plies, rounded down. The FEN's move
            // number says nothing about when this game's control began.
            let played = (self.ctl.game.len() / 2) as u32;
            l.movestogo = Some(self.tc.mps - played % self.tc.mps);
        }
        if self.depth.is_some() && self.time.is_none() && self.tc.per_move.is_none() {
            l.time = None;
        }
        l
    }

    /// `limits` with the clock counted in nodes, `nps` of them a second: the
    /// budget the time manager would give (without the overhead, which is for
    /// pipes and the GUI, not for a clock that counts nodes) becomes a node limit.
    fn in_nodes(&self, mut l: Limits) -> Limits {
        let Some(nps) = self.nps else {
            return l;
        };
        let seconds = if let Some(t) = l.movetime {
            Some(t.as_secs_f64())
        } else {
            TimeBudget::new(&l, Duration::ZERO, false, self.ctl.opts.tuning.values())
                .map(|b| b.soft.as_secs_f64())
        };
        if let Some(secs) = seconds {
            l.nodes = Some(((secs * nps as f64) as u64).max(1));
            l.movetime = None;
            l.time = None;
            l.inc = Duration::ZERO;
            l.movestogo = None;
        }
        l
    }

    /// The search finished: play its move if it was thinking, accepting a draw
    /// offer first if `score` (the engine's, in centipawns) says it is not
    /// better.
    fn search_done(&mut self, best: Move, ponder: Option<Move>, score: Option<i32>) {
        let task = self.task.take();
        if task != Some(Task::Think) {
            return;
        }
        if best.is_null() {
            self.claim_result();
            return;
        }
        // An offer stands until the engine moves; answering it with an offer of
        // its own agrees the draw, silence declines it.
        let offered = std::mem::take(&mut self.draw_offered);
        let known = score.filter(|s| s.abs() <= crate::search::score::MATE);
        if offered && known.is_some_and(|s| s <= DRAW_ACCEPT_CP) {
            emit("offer draw");
        }
        let b = *self.ctl.game.board();
        emit(&format!("move {}", move_text(&b, best)));
        self.ctl.game.push(best);
        self.expected = ponder.map(|m| (self.ctl.game.board().key(), m));
        if self.claim_result() {
            return;
        }
        self.maybe_ponder(ponder);
    }

    /// Announce the result if the game is over by the rules.
    fn claim_result(&mut self) -> bool {
        let Some(o) = self.ctl.game.outcome() else {
            return false;
        };
        emit(&result_line(o));
        true
    }

    fn stat(&self) {
        if self.task != Some(Task::Analyze) {
            return;
        }
        let last = self.last.lock().ok().and_then(|l| l.clone());
        let current = self.current.lock().ok().and_then(|c| *c);
        let cs = self.started.elapsed().as_millis() / 10;
        let b = self.ctl.game.board();
        let total = b.count_moves::<crate::bits::Portable>();
        match last {
            Some(i) => {
                // `stat01: time nodes ply mvleft mvtot mvname`. The search names
                // the root move it is on only in long iterations; then that is
                // the move and what is left of the list after it. Otherwise the
                // last finished iteration is what is known: nothing left of it,
                // and its best move.
                let (depth, left, mv) = match current {
                    Some((d, m, n)) if d > i.depth => (d, total.saturating_sub(n as u64), Some(m)),
                    _ => (i.depth, 0, i.pv.first().copied()),
                };
                let mv = mv.map_or(String::from("-"), |m| move_text(b, m));
                emit(&format!(
                    "stat01: {cs} {} {depth} {left} {total} {mv}",
                    i.nodes
                ));
            }
            None => emit(&format!("stat01: {cs} 0 0 {total} {total}")),
        }
    }
}

/// A move from the GUI: coordinate notation, or SAN (`O-O` for Chess960 castling).
fn parse_move(b: &Board<Magic>, s: &str) -> Option<Move> {
    b.parse_uci(s).ok().or_else(|| b.parse_san(s).ok())
}

/// A move for the GUI: coordinates, with `O-O`/`O-O-O` for Chess960 castling.
fn move_text(b: &Board<Magic>, m: Move) -> String {
    if m.kind() == MoveKind::Castling && b.is_chess960() {
        return if m.to() > m.from() { "O-O" } else { "O-O-O" }.to_string();
    }
    b.to_uci(m)
}

/// `ply score time nodes pv`: score in centipawns, mates as 100000 + moves.
fn thinking_line(root: &Board<Magic>, i: &Info) -> String {
    let score = match i.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    let mut s = format!(
        "{} {score} {} {}",
        i.depth,
        i.time.as_millis() / 10,
        i.nodes
    );
    let mut b = *root;
    for &m in &i.pv {
        if !b.is_legal::<crate::bits::Portable>(m) {
            break;
        }
        s += " ";
        s += &move_text(&b, m);
        b.make::<crate::bits::Portable>(m);
    }
    s
}

/// The result claim for an outcome.
fn result_line(o: Outcome) -> String {
    match o {
        Outcome::Checkmate(Color::White) => "1-0 {White mates}".into(),
        Outcome::Checkmate(Color::Black) => "0-1 {Black mates}".into(),
        Outcome::Stalemate => "1/2-1/2 {Stalemate}".into(),
        Outcome::FiftyMoves => "1/2-1/2 {50 move rule}".into(),
        Outcome::Repetition => "1/2-1/2 {3-fold repetition}".into(),
        Outcome::InsufficientMaterial => "1/2-1/2 {Insufficient material}".into(),
    }
}

/// `Error (reason): input`, the input shortened (it is the GUI's own line).
fn error(reason: &str, input: &str) {
    emit(&format!("Error ({reason}): {}", shown(input)));
}

/// `Error (what): message`, the engine's whole message (which shortens any
/// input it quotes itself): cutting it would cut off what was wrong.
fn explain(what: &str, message: &str) {
    emit(&format!("Error ({what}): {message}"));
}

/// Seconds, possibly fractional, as `level` and `st` give them.
fn parse_seconds(s: &str) -> Option<Duration> {
    s.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
        .map(Duration::from_secs_f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_claimed_in_xboard_form() {
        assert_eq!(
            result_line(Outcome::Checkmate(Color::Black)),
            "0-1 {Black mates}"
        );
        assert_eq!(
            result_line(Outcome::Repetition),
            "1/2-1/2 {3-fold repetition}"
        );
    }

    #[test]
    fn seconds_parse_with_fractions() {
        assert_eq!(parse_seconds("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("x"), None);
    }

    #[test]
    fn mate_scores_use_the_100000_convention() {
        let b = Board::<Magic>::startpos();
        let i = Info {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score: Score::Mate(3),
            bound: crate::search::Bound::Exact,
            nodes: 10,
            time: Duration::from_millis(120),
            hashfull: 0,
            tbhits: None,
            pv: vec![],
        };
        assert_eq!(thinking_line(&b, &i), "5 100003 12 10");
    }
}
