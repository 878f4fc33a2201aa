//! The UCI dialect.
//!
//! Every bad line gets an `info string` that says what was wrong. A `position`
//! command with a FEN that is refused leaves the engine with no position until
//! the next good one: `go` then answers `bestmove 0000`, never a move of an
//! older position that the GUI's board does not have. A castling right or an
//! en-passant square the position cannot have is dropped with a note, and a
//! bad move plays the moves before it (both as Stockfish does). A bad
//! `setoption` keeps the old value, and a `Hash` that cannot be allocated
//! leaves the largest table that can; a bad `go` argument is skipped, and if
//! no limit is left the search goes to depth 1, so the GUI always gets its
//! `bestmove`, a legal move whenever there is one (past the 75-move rule, or
//! after a panic in the search, too).

use super::controller::{Controller, Reporter};
use super::{emit, shown, Inbox, Msg, MAX_LINE};
use crate::attacks::Magic;
use crate::board::{Board, STARTPOS};
use crate::search::{Bound, Event, Info, Limits, Score};
use crate::types::Move;
use std::sync::Arc;
use std::time::Duration;

/// The engine's name and authors, as `uci` and `xboard` report them.
pub fn engine_name() -> String {
    format!("brokkr {}", env!("CARGO_PKG_VERSION"))
}
pub const AUTHORS: &str = "the brokkr developers";

/// Run the UCI loop until `quit` or EOF. `first` is a line already read.
pub fn run(inbox: Inbox, first: Option<String>, switches: bool) -> i32 {
    let mut uci = Uci {
        ctl: Controller::new(inbox, super::Protocol::Uci),
        switches,
    };
    if let Some(l) = first {
        if !uci.line(&l) {
            return 0;
        }
    }
    loop {
        match uci.ctl.inbox.recv() {
            Msg::Line(l) => {
                if !uci.line(&l) {
                    break;
                }
            }
            Msg::TooLong(n) => emit(&format!(
                "info string ignored an input line of {n} bytes (the limit is {MAX_LINE})"
            )),
            Msg::Eof => {
                // The end of a command-line script waits for its search, as
                // Stockfish's `stockfish "go depth 20"` does.
                if uci.ctl.inbox.is_scripted() {
                    if let Some(r) = uci.ctl.join() {
                        emit(&bestmove_line(uci.ctl.game.board(), r.best, r.ponder));
                    }
                }
                break;
            }
            Msg::SearchDone(id, r) => {
                if uci.ctl.finished(id) {
                    let b = uci.ctl.game.board();
                    emit(&bestmove_line(b, r.best, r.ponder));
                }
            }
        }
    }
    uci.quit();
    0
}

/// `bestmove X [ponder Y]`; `bestmove (none)` when there is no legal move.
fn bestmove_line(b: &Board<Magic>, best: Move, ponder: Option<Move>) -> String {
    if best.is_null() {
        return "bestmove (none)".into();
    }
    let mut s = format!("bestmove {}", b.to_uci(best));
    if let Some(p) = ponder {
        let after = b.with_move::<crate::bits::Portable>(best);
        if after.is_legal::<crate::bits::Portable>(p) {
            s += &format!(" ponder {}", after.to_uci(p));
        }
    }
    s
}

struct Uci {
    ctl: Controller,
    /// List the hidden switches in the answer to `uci` (`brokkr uci --switches`).
    switches: bool,
}

impl Uci {
    /// Handle one line; false to quit.
    fn line(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true; // empty lines are allowed and ignored
        };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.uci(),
            "isready" => emit("readyok"),
            "ucinewgame" => {
                if self.busy("ucinewgame") {
                    return true;
                }
                self.ctl.new_game();
            }
            "setoption" => self.setoption(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {
                if self.ctl.searching() {
                    self.ctl.stop();
                } else {
                    emit("info string stop: no search is running");
                }
            }
            "ponderhit" => {
                if !self.ctl.ponderhit() {
                    emit("info string ponderhit: no ponder search is running");
                }
            }
            "quit" => return false,
            "debug" => {}
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => self.bench(&rest),
            "perft" => self.perft(&rest),
            _ => emit(&format!("info string unknown command '{}'", shown(line))),
        }
        true
    }

    fn quit(&mut self) {
        // A search cut short by quit still names its move, as GUIs expect.
        if let Some(r) = self.ctl.wait() {
            emit(&bestmove_line(self.ctl.game.board(), r.best, r.ponder));
        }
    }

    /// Whether a command that needs the search to be idle must be refused. A search
    /// already told to stop is waited for (and its move printed) first, so
    /// `stop` followed at once by `position` and `go` works.
    fn busy(&mut self, what: &str) -> bool {
        if self.ctl.stopping() {
            if let Some(r) = self.ctl.wait() {
                emit(&bestmove_line(self.ctl.game.board(), r.best, r.ponder));
            }
        }
        if self.ctl.searching() {
            emit(&format!(
                "info string {what}: a search is running; send stop first"
            ));
            true
        } else {
            false
        }
    }

    fn uci(&self) {
        // One write for the whole answer: the GUI waiting for `uciok` is woken
        // once, not a dozen times (a third of the time to `readyok` on a busy
        // machine went to those wake-ups).
        let mut lines = vec![
            format!("id name {}", engine_name()),
            format!("id author {AUTHORS}"),
        ];
        lines.extend(super::options::uci_lines(&self.ctl.opts, &self.ctl.cpu));
        if self.switches {
            lines.extend(super::options::switch_lines(&self.ctl.opts));
        }
        // fastchess (and so OpenBench's SPSA) sends only listed options.
        if self.switches || cfg!(feature = "tune") {
            lines.extend(self.ctl.opts.tuning.values().option_lines());
        }
        lines.push("uciok".into());
        emit(&lines.join("\n"));
    }

    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match parse_setoption(args) {
            Ok(nv) => nv,
            Err(e) => return emit(&format!("info string setoption: {e}")),
        };
        if self.busy("setoption") {
            return;
        }
        if let Err(e) = super::options::set(&mut self.ctl, &name, value.as_deref()) {
            emit(&format!("info string setoption: {e}"));
        }
    }

    fn position(&mut self, args: &[&str]) {
        if self.busy("position") {
            return;
        }
        match parse_position(args, self.ctl.opts.chess960) {
            // As Stockfish does: the moves before a bad one are played, and the
            // position they reach is the one searched, so the move sent back is
            // at least legal where the GUI's list went wrong.
            Ok((game, notes)) => {
                for n in notes {
                    emit(&format!("info string position: {n}"));
                }
                self.ctl.set_game(game);
            }
            // No position until the next good one: a search of the last one
            // would answer with a move the GUI's board does not have.
            Err(e) => {
                emit(&format!(
                    "info string position: {e}; no position until the next good one \
                     ('go' answers bestmove 0000)"
                ));
                self.ctl.refuse_position(&e);
            }
        }
    }

    fn go(&mut self, args: &[&str]) {
        if args.first() == Some(&"perft") {
            return self.perft(&args[1..]);
        }
        if self.busy("go") {
            return;
        }
        let Some(board) = self.board("go") else {
            // The GUI waits for a `bestmove` all the same; the null move says
            // that there is none to give.
            return emit("bestmove 0000");
        };
        let (limits, warnings) = parse_go(args, &board);
        for w in warnings {
            emit(&format!("info string go: {w}"));
        }
        // A book move is played at once, without a search.
        if let Some(m) = self.ctl.book_move(&limits) {
            return emit(&bestmove_line(&board, m, None));
        }
        let show_wdl = self.ctl.opts.show_wdl;
        let report: Reporter =
            Arc::new(move |root: &Board<Magic>, e: Event| report(root, e, show_wdl));
        if let Err(e) = self.ctl.go(limits, report) {
            // No search, but the GUI waits for a move all the same.
            let m = self.ctl.fallback_move();
            emit(&format!("info string go: {e}; playing a legal move"));
            emit(&bestmove_line(&board, m, None));
        }
    }

    /// The current position, or `None` after an `info string` saying, for
    /// `what`, why there is none (the last `position` was refused).
    fn board(&self, what: &str) -> Option<Board<Magic>> {
        match self.ctl.position() {
            Ok(game) => Some(*game.board()),
            Err(e) => {
                emit(&format!("info string {what}: {e}"));
                None
            }
        }
    }

    fn display(&self) {
        let Some(b) = self.board("d") else {
            return;
        };
        for line in board_diagram(&b) {
            emit(&line);
        }
        emit(&format!("Fen: {}", b.to_fen()));
        emit(&format!("Key: {:016X}", b.key()));
        let checkers: Vec<String> = squares(b.checkers()).map(|s| s.to_string()).collect();
        emit(&format!("Checkers: {}", checkers.join(" ")));
    }

    /// The evaluation the next search plays with, then the hand-written
    /// one's terms ([`crate::frontend::evaluation_report`]).
    fn eval(&mut self) {
        let Some(b) = self.board("eval") else {
            return;
        };
        let settings = self.ctl.settings();
        let path = settings.vector;
        let net = settings.net.map(|net| {
            let cp = crate::nnue::evaluate_on(path, &net, &b);
            (cp, format!("{} on the {path} path", net.describe()))
        });
        let net = net.as_ref().map(|(cp, name)| (*cp, name.as_str()));
        let report = crate::frontend::evaluation_report::<crate::bits::Portable, Magic>(
            &b,
            self.ctl.opts.features.terms,
            net,
        );
        emit(&report);
    }

    fn bench(&mut self, args: &[&str]) {
        if self.busy("bench") {
            return;
        }
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        // The switches and parameters set by `setoption` count: a tuner's
        // values show in the node count.
        let base = crate::search::Settings {
            features: self.ctl.opts.features,
            tuning: self.ctl.opts.tuning.clone(),
            ..Default::default()
        };
        // No search runs, so nothing else writes to stdout meanwhile.
        let result = crate::frontend::bench::run_with(&args, &base, &mut std::io::stdout().lock());
        if let Err(e) = result {
            emit(&format!("info string bench: {e}"));
        }
    }

    fn perft(&mut self, args: &[&str]) {
        if self.busy("perft") {
            return;
        }
        let depth = match args {
            [d] => d.parse::<u32>().ok().filter(|&d| d <= 10),
            _ => None,
        };
        let Some(depth) = depth else {
            return emit("info string perft: expected one depth from 0 to 10");
        };
        let Some(b) = self.board("perft") else {
            return;
        };
        let mut total = 0;
        if depth == 0 {
            total = 1;
        } else {
            for (m, n) in crate::board::perft::divide::<crate::bits::Portable, Magic>(&b, depth) {
                emit(&format!("{}: {n}", b.to_uci(m)));
                total += n;
            }
            emit("");
        }
        emit(&format!("Nodes searched: {total}"));
    }
}

/// The squares of a bitboard.
fn squares(mut bb: u64) -> impl Iterator<Item = crate::types::Square> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let s = bb.trailing_zeros();
            bb &= bb - 1;
            crate::types::Square::new(s)
        })
    })
}

/// The board as text, rank 8 at the top.
pub fn board_diagram(b: &Board<Magic>) -> Vec<String> {
    let mut out = vec![" +---+---+---+---+---+---+---+---+".to_string()];
    for rank in (0..8).rev() {
        let mut row = String::from(" |");
        for file in 0..8 {
            let c = b
                .piece_on(crate::types::Square::from_coords(file, rank))
                .map_or(' ', |p| p.fen_char());
            row += &format!(" {c} |");
        }
        row += &format!(" {}", rank + 1);
        out.push(row);
        out.push(" +---+---+---+---+---+---+---+---+".to_string());
    }
    out.push("   a   b   c   d   e   f   g   h".to_string());
    out
}

/// Format a search event as `info` lines (with `wdl W D L` if `show_wdl`).
fn report(root: &Board<Magic>, e: Event, show_wdl: bool) {
    match e {
        Event::Info(i) => emit(&info_line(root, &i, show_wdl)),
        Event::CurrMove { depth, mv, number } => emit(&format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            root.to_uci(mv)
        )),
    }
}

/// One `info` line; with `show_wdl`, the score is followed by `wdl W D L`, the
/// chances of a win, a draw and a loss in per mille from the side to move's
/// view, by [`crate::wdl`]'s model at the root's material.
pub fn info_line(root: &Board<Magic>, i: &Info, show_wdl: bool) -> String {
    let score = match i.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match i.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let wdl = if show_wdl {
        let [w, d, l] = crate::win_rate::wdl(i.score, root);
        format!(" wdl {w} {d} {l}")
    } else {
        String::new()
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {} hashfull {} time {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.nodes,
        i.nps(),
        i.hashfull,
        i.time.as_millis()
    );
    if let Some(n) = i.tbhits {
        s += &format!(" tbhits {n}");
    }
    if !i.pv.is_empty() {
        s += " pv";
        let mut b = *root;
        for &m in &i.pv {
            if !b.is_legal::<crate::bits::Portable>(m) {
                break;
            }
            s += " ";
            s += &b.to_uci(m);
            b.make::<crate::bits::Portable>(m);
        }
    }
    s
}

/// Split `name N... [value V...]` of `setoption`.
fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    if args.first() != Some(&"name") {
        return Err("expected 'setoption name NAME [value VALUE]'".into());
    }
    let vpos = args.iter().position(|&w| w == "value");
    let name = args[1..vpos.unwrap_or(args.len())].join(" ");
    if name.is_empty() {
        return Err("missing option name".into());
    }
    let value = vpos.map(|i| args[i + 1..].join(" "));
    Ok((name, value))
}

/// Parse `startpos|fen FEN [moves M...]` into a game. A bad setup is an error;
/// a castling right or en-passant square the position cannot have is dropped
/// ([`Board::from_fen_lenient`]); a bad move ends the list there, and the game
/// holds the moves before it. Each of those gets a note in the returned list.
fn parse_position(
    args: &[&str],
    chess960: bool,
) -> Result<(super::controller::Game, Vec<String>), String> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let fen = match setup {
        ["startpos"] => STARTPOS.to_string(),
        ["fen", fen @ ..] if !fen.is_empty() => fen.join(" "),
        ["fen"] => return Err("missing FEN".into()),
        [] => return Err("expected 'startpos' or 'fen FEN'".into()),
        [other, ..] => {
            return Err(format!(
                "expected 'startpos' or 'fen', got '{}'",
                shown(other)
            ))
        }
    };
    let (mut board, mut notes) = Board::<Magic>::from_fen_lenient(&fen)
        .map_err(|e| format!("bad FEN '{}': {e}", shown(&fen)))?;
    board.set_chess960(chess960);
    let mut game = super::controller::Game::new(board);
    if let Some(i) = moves_at {
        for (n, mv) in args[i + 1..].iter().enumerate() {
            if let Err(e) = game.push_str(mv, false) {
                let ignored = match args.len() - (i + 1) - n - 1 {
                    0 => String::new(),
                    1 => " (nor the move after it)".into(),
                    left => format!(" (nor the {left} moves after it)"),
                };
                notes.push(format!(
                    "move {} ('{}') is not played{ignored}: {e}; searching the position \
                     after the {n} move{} before it",
                    n + 1,
                    shown(mv),
                    if n == 1 { "" } else { "s" },
                ));
                return Ok((game, notes));
            }
        }
    }
    Ok((game, notes))
}

/// Parse `go`'s arguments. Bad values are skipped with a warning each, so the
/// GUI still gets a search and a `bestmove`; if that leaves no limit (and no
/// `infinite`), the search goes to depth 1, so that the `bestmove` comes.
pub fn parse_go(args: &[&str], board: &Board<Magic>) -> (Limits, Vec<String>) {
    let mut l = Limits::default();
    let mut warn = Vec::new();
    let white = board.side_to_move() == crate::types::Color::White;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let val = args.get(i + 1).copied();
        let mut takes_value = true;
        match key {
            "wtime" | "btime" => {
                if let Some(t) = go_ms(val, key, &mut warn) {
                    if (key == "wtime") == white {
                        l.time = Some(t);
                    }
                }
            }
            "winc" | "binc" => {
                if let Some(t) = go_ms(val, key, &mut warn) {
                    if (key == "winc") == white {
                        l.inc = t;
                    }
                }
            }
            "movestogo" => {
                l.movestogo = go_count(val, key, 10_000, &mut warn).map(|n| n.max(1) as u32)
            }
            "depth" => l.depth = go_count(val, key, 127, &mut warn).map(|n| n.max(1) as i32),
            "nodes" => l.nodes = go_count(val, key, i64::MAX, &mut warn).map(|n| n.max(1) as u64),
            "mate" => l.mate = go_count(val, key, 127, &mut warn).map(|n| n.max(1) as i32),
            "movetime" => l.movetime = go_ms(val, key, &mut warn),
            "infinite" => {
                l.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                l.ponder = true;
                takes_value = false;
            }
            "searchmoves" => {
                let mut j = i + 1;
                while j < args.len() {
                    match board.parse_uci(args[j]) {
                        Ok(m) => l.searchmoves.push(m),
                        Err(_) if is_go_keyword(args[j]) => break,
                        Err(e) => warn.push(format!("searchmoves: {e}")),
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
            other => {
                warn.push(format!("unknown argument '{}'", shown(other)));
                takes_value = false;
            }
        }
        i += if takes_value { 2 } else { 1 };
    }
    // A bad value was dropped, and with it perhaps the only limit the GUI meant:
    // a search without one would run until `stop`, which a GUI that sent
    // `go depth abc` will never send. Answer at once instead (depth 1), as a
    // GUI that asked for a bounded search expects. A plain `go` with no limit at
    // all, or with `infinite`, still searches until `stop`, as in Stockfish.
    let bounded = l.depth.is_some()
        || l.nodes.is_some()
        || l.movetime.is_some()
        || l.mate.is_some()
        || l.time.is_some();
    if !warn.is_empty() && !bounded && !l.infinite {
        l.depth = Some(1);
        warn.push("no valid limit left: searching to depth 1".into());
    }
    (l, warn)
}

/// `go`'s time `v` for `name`, in milliseconds; negative clocks (some GUIs
/// send them when flagging) count as 0. `None`, with a warning, when it is
/// missing or not a number.
fn go_ms(v: Option<&str>, name: &str, warn: &mut Vec<String>) -> Option<Duration> {
    let Some(v) = v else {
        warn.push(format!("'{name}' needs a value"));
        return None;
    };
    match v.parse::<i64>() {
        Ok(n) => Some(Duration::from_millis(n.clamp(0, 1 << 40) as u64)),
        Err(_) => match v.parse::<f64>() {
            Ok(f) if f.is_finite() => Some(Duration::from_millis(f.clamp(0.0, 1e12) as u64)),
            _ => {
                warn.push(format!(
                    "bad value '{}' for '{name}': expected milliseconds",
                    shown(v)
                ));
                None
            }
        },
    }
}

/// `go`'s count `v` for `name`, at most `hi`. `None`, with a warning, when it
/// is missing, negative or not a whole number.
fn go_count(v: Option<&str>, name: &str, hi: i64, warn: &mut Vec<String>) -> Option<i64> {
    let Some(v) = v else {
        warn.push(format!("'{name}' needs a value"));
        return None;
    };
    // Values beyond the most the search takes are clamped to it, with a
    // word (a GUI sending them means "as much as you can").
    let clamped = |warn: &mut Vec<String>| {
        warn.push(format!(
            "'{name} {}' is beyond the most the engine takes: {name} {hi}",
            shown(v)
        ));
        Some(hi)
    };
    match v.parse::<i64>() {
        Ok(n) if n > hi => clamped(warn),
        Ok(n) if n >= 0 => Some(n),
        Ok(_) => {
            warn.push(format!(
                "bad value '{}' for '{name}': must not be negative",
                shown(v)
            ));
            None
        }
        Err(_) if v.bytes().all(|b| b.is_ascii_digit()) => clamped(warn),
        Err(_) => {
            warn.push(format!(
                "bad value '{}' for '{name}': expected a whole number",
                shown(v)
            ));
            None
        }
    }
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parses_clocks_for_the_side_to_move() {
        let b = Board::<Magic>::startpos();
        let (l, w) = parse_go(
            &["wtime", "1000", "btime", "2000", "winc", "10", "binc", "20"],
            &b,
        );
        assert!(w.is_empty());
        assert_eq!(l.time, Some(Duration::from_millis(1000)));
        assert_eq!(l.inc, Duration::from_millis(10));
    }

    #[test]
    fn go_skips_bad_values_with_a_warning() {
        let b = Board::<Magic>::startpos();
        let (l, w) = parse_go(
            &[
                "depth",
                "x",
                "wtime",
                "-5",
                "nodes",
                "99999999999999999999999",
            ],
            &b,
        );
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[1].contains("nodes 9223372036854775807"), "{w:?}");
        assert_eq!(l.depth, None);
        assert_eq!(l.time, Some(Duration::ZERO));
        assert_eq!(l.nodes, Some(i64::MAX as u64));
        // A depth beyond the search's most is clamped with a word, not dropped.
        let (l, w) = parse_go(&["depth", "99999999999999999999"], &b);
        assert_eq!(l.depth, Some(127));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("depth 127"), "{w:?}");
        // A bad value that leaves no limit: depth 1, said in a second warning.
        for bad in [
            &["depth", "-1"][..],
            &["depth", "abc"],
            &["nodes", "-5"],
            &["mate", "-3"],
        ] {
            let (l, w) = parse_go(bad, &b);
            assert_eq!((l.depth, w.len()), (Some(1), 2), "{bad:?}: {w:?}");
        }
        let (l, _) = parse_go(&["infinite", "depth", "x"], &b);
        assert_eq!(l.depth, None);
    }

    #[test]
    fn position_keeps_the_moves_before_a_bad_one() {
        let (g, why) =
            parse_position(&["startpos", "moves", "e2e4", "e2e4", "e7e5"], false).unwrap();
        assert_eq!(g.len(), 1);
        assert!(why[0].contains("move 2 ('e2e4')"));
        assert!(parse_position(&["fen", "8/8/8/8/8/8/8/8", "w", "-", "-"], false).is_err());
        let (g, why) = parse_position(&["startpos", "moves", "e2e4", "e7e5"], false).unwrap();
        assert_eq!((g.len(), why.len()), (2, 0));
    }

    #[test]
    fn setoption_splits_names_with_spaces() {
        let args = ["name", "Clear", "Hash"];
        assert_eq!(parse_setoption(&args).unwrap(), ("Clear Hash".into(), None));
        let args = ["name", "Move", "Overhead", "value", "100"];
        assert_eq!(
            parse_setoption(&args).unwrap(),
            ("Move Overhead".into(), Some("100".into()))
        );
    }
}
