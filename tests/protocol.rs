//! Scripted sessions with the engine binary in both protocols: games, analysis,
//! pondering, stopping, and every kind of bad input, each followed by a
//! `isready`/`ping` that must be answered.

use brokkr::attacks::Magic;
use brokkr::board::Board;
use quickcheck::{QuickCheck, TestResult};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_brokkr");
const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            log: vec![],
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// The next line satisfying `pred`, or a panic with what came instead.
    fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.log.push(l.clone());
                    if pred(&l) {
                        return l;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {WAIT:?}; got:\n{}", self.tail())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine exited before {what}; got:\n{}", self.tail())
                }
            }
        }
    }

    fn tail(&self) -> String {
        let n = self.log.len().saturating_sub(30);
        self.log[n..].join("\n")
    }

    fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok", |l| l == "readyok");
    }

    fn pong(&mut self, n: u32) {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        self.expect(&want, |l| l == want);
    }

    fn bestmove(&mut self) -> String {
        let l = self.expect("bestmove", |l| l.starts_with("bestmove"));
        l.split_whitespace().nth(1).unwrap_or("").to_string()
    }

    /// Close stdin and wait for a clean exit.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not exit at EOF");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn uci() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.expect("uciok", |l| l == "uciok");
    e
}

fn xboard() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect("done=1", |l| l.contains("done=1"));
    e
}

fn legal_in(fen_or_start: &Board<Magic>, mv: &str) -> bool {
    fen_or_start.parse_uci(mv).is_ok()
}

// ---------------------------------------------------------------- UCI

#[test]
fn uci_identifies_itself_and_lists_its_options() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.expect("id name", |l| l.starts_with("id name brokkr"));
    for opt in [
        "Hash",
        "Threads",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
    ] {
        let want = format!("option name {opt} type");
        e.expect(&want, |l| l.starts_with(&want));
    }
    e.expect("uciok", |l| l == "uciok");
    e.ready();
    e.finish();
}

#[test]
fn uci_plays_a_game_to_mate_against_itself() {
    let mut e = uci();
    let start = "6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1";
    let mut moves: Vec<String> = vec![];
    for _ in 0..60 {
        e.send(&format!("position fen {start} moves {}", moves.join(" ")));
        e.send("go depth 6");
        let m = e.bestmove();
        if m == "(none)" {
            break;
        }
        let mut b = Board::<Magic>::from_fen(start).unwrap();
        for mv in &moves {
            b.make::<brokkr::bits::Portable>(b.parse_uci(mv).unwrap());
        }
        assert!(legal_in(&b, &m), "illegal bestmove {m}");
        moves.push(m);
    }
    let mut b = Board::<Magic>::from_fen(start).unwrap();
    for mv in &moves {
        b.make::<brokkr::bits::Portable>(b.parse_uci(mv).unwrap());
    }
    assert!(
        b.in_check() && b.count_moves::<brokkr::bits::Portable>() == 0,
        "no mate after {moves:?}"
    );
    e.finish();
}

#[test]
fn uci_finds_mate_in_two_and_reports_it() {
    let mut e = uci();
    // Mate in two: 1.Qxh6+ Rxh6 2.Rg8# (Stockfish 15.1 agrees).
    e.send("position fen r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1");
    e.send("go depth 8");
    e.expect("a mate score", |l| l.contains(" score mate 2 "));
    assert_eq!(e.bestmove(), "h5h6");
    e.finish();
}

#[test]
fn uci_analysis_stops_on_request_with_a_legal_move() {
    let mut e = uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go infinite");
    e.expect("multipv 3", |l| l.contains(" multipv 3 "));
    std::thread::sleep(Duration::from_millis(300));
    e.ready(); // isready is answered during a search
    e.send("stop");
    let m = e.bestmove();
    let mut b = Board::<Magic>::startpos();
    for mv in ["e2e4", "e7e5", "g1f3"] {
        b.make::<brokkr::bits::Portable>(b.parse_uci(mv).unwrap());
    }
    assert!(legal_in(&b, &m), "{m}");
    e.finish();
}

#[test]
fn uci_ponder_then_ponderhit() {
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves d2d4");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    std::thread::sleep(Duration::from_millis(200));
    // While pondering no bestmove may come.
    e.ready();
    assert!(!e.log.iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    let m = e.bestmove();
    assert!(!m.is_empty() && m != "(none)");
    e.finish();
}

#[test]
fn uci_go_then_immediate_stop_gives_a_legal_move() {
    let mut e = uci();
    for fen in [
        "startpos".to_string(),
        // Only one legal move.
        "fen 7k/8/8/8/8/8/6q1/K7 w - - 0 1".to_string(),
    ] {
        e.send(&format!("position {fen}"));
        e.send("go infinite");
        e.send("stop");
        let m = e.bestmove();
        let b = if fen == "startpos" {
            Board::<Magic>::startpos()
        } else {
            Board::<Magic>::from_fen(&fen[4..]).unwrap()
        };
        assert!(legal_in(&b, &m), "{fen}: {m}");
    }
    e.finish();
}

#[test]
fn uci_searchmoves_and_limits() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 5 searchmoves a2a3 h2h3");
    let m = e.bestmove();
    assert!(m == "a2a3" || m == "h2h3", "{m}");
    e.send("go nodes 5000");
    e.bestmove();
    e.send("go movetime 100");
    e.bestmove();
    e.send("go mate 1");
    e.bestmove();
    e.finish();
}

#[test]
fn uci_mated_and_stalemated_roots_answer_none() {
    let mut e = uci();
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 3");
    assert_eq!(e.bestmove(), "(none)");
    e.finish();
}

#[test]
fn uci_survives_bad_input() {
    let mut e = uci();
    let bad: &[&str] = &[
        "",
        "   ",
        "frobnicate",
        "position",
        "position fen",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position startpos moves e2e5",
        "position startpos moves e2e4 e7e5 zzzz",
        "position banana",
        "setoption",
        "setoption name",
        "setoption name Hash value -1",
        "setoption name Hash value 99999999999999999999",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name MultiPV value 1000",
        "setoption name Move Overhead value -5",
        "setoption name Ponder value maybe",
        "setoption name BitPath value nonsense",
        "setoption name Slider value nonsense",
        "setoption name NoSuchOption value 1",
        "stop",
        "ponderhit",
        "go depth -3",
        "go wtime abc btime def",
        "go nodes -1",
        "go movetime 99999999999999999999999 depth 1",
        "perft",
        "perft x",
        "\u{1b}[2J\u{7}",
    ];
    for line in bad {
        e.send(line);
        // A go above starts a search; it still ends with a bestmove.
        e.send("stop");
        e.ready();
    }
    // The last good position survived the bad position commands.
    e.send("position startpos moves e2e4");
    e.send("position startpos moves e2e4 e7e5 e1e8");
    e.send("d");
    let fen = e.expect("Fen:", |l| l.starts_with("Fen:"));
    assert!(fen.contains("4P3"), "{fen}");
    // Binary garbage and invalid UTF-8.
    e.send_bytes(b"\xff\xfe\x00\x01go\x80\n");
    e.ready();
    // A line of 1 MB, and one over the limit.
    let long = "x".repeat(1 << 20);
    e.send(&long);
    e.ready();
    e.send(&format!("{long}yy"));
    e.ready();
    // go during a search is refused; the search goes on and ends normally.
    e.send("go infinite");
    e.send("go depth 1");
    e.ready();
    e.send("stop");
    e.bestmove();
    e.finish();
}

#[test]
fn uci_eof_during_a_search_exits_cleanly() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.finish();
}

#[test]
fn uci_extras_answer() {
    let mut e = uci();
    e.send("d");
    e.expect("Key", |l| l.starts_with("Key:"));
    e.send("eval");
    e.expect("final eval", |l| l.starts_with("Final (side to move):"));
    e.send("go perft 3");
    e.expect("perft total", |l| l == "Nodes searched: 8902");
    e.finish();
}

#[test]
fn uci_hidden_switches_turn_off_a_term_group_or_a_feature() {
    let mut e = uci();
    let final_eval = |e: &mut Engine| {
        e.send("eval");
        e.expect("final eval", |l| l.starts_with("Final (side to move):"))
    };
    // Tempo is off by default (it did not measure to pay).
    let without_tempo = final_eval(&mut e);
    e.send("setoption name Eval_Tempo value true");
    let with = final_eval(&mut e);
    assert_ne!(without_tempo, with, "Eval_Tempo=true changed nothing");
    e.send("setoption name Eval_Tempo value false");
    assert_eq!(final_eval(&mut e), without_tempo);
    e.send("setoption name Feature_NullMove value false");
    e.send("setoption name Eval_Bogus value false");
    e.expect("unknown option", |l| {
        l.starts_with("info string") && l.contains("Eval_Bogus")
    });
    e.send("setoption name Eval_King value maybe");
    e.expect("bad value", |l| {
        l.starts_with("info string") && l.contains("maybe")
    });
    e.send("go depth 4");
    e.bestmove();
    e.ready();
    e.finish();
}

/// The node count of a fresh `go depth D` search from `fen`.
fn nodes_at_depth(e: &mut Engine, fen: &str, depth: u32) -> u64 {
    e.send("ucinewgame");
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go depth {depth}"));
    let mut nodes = 0;
    loop {
        let l = e.expect("info or bestmove", |l| {
            l.starts_with("bestmove") || l.contains(" nodes ")
        });
        if l.starts_with("bestmove") {
            return nodes;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        if let Some(i) = words.iter().position(|&w| w == "nodes") {
            nodes = words[i + 1].parse().expect("a node count");
        }
    }
}

/// `uci --switches` lists every hidden switch (fastchess sends only the options an
/// engine lists), plain `uci` lists none, and each listed switch, set to the
/// other value, changes the search: a switch that did nothing would make every
/// match that measures it a match of a build against itself.
#[test]
fn uci_switches_are_listed_on_request_and_each_changes_the_search() {
    let mut plain = uci();
    plain.send("isready");
    let listed = |l: &str| l.contains("Feature_") || l.contains("Eval_");
    let l = plain.expect("readyok", |l| l == "readyok" || listed(l));
    assert_eq!(l, "readyok", "plain uci lists a hidden switch");
    plain.finish();

    let mut e = Engine::start(&["uci", "--switches"]);
    e.send("uci");
    let mut switches = vec![];
    loop {
        let l = e.expect("an option or uciok", |l| l == "uciok" || listed(l));
        if l == "uciok" {
            break;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(words[3..6], ["type", "check", "default"], "{l}");
        switches.push((words[2].to_string(), words[6] == "true"));
    }
    assert!(switches.len() >= 20, "too few switches: {switches:?}");
    // A middlegame, and a pawn ending for the terms only endings use.
    let fens = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 50",
    ];
    let base: Vec<u64> = fens.iter().map(|f| nodes_at_depth(&mut e, f, 9)).collect();
    for (name, default) in &switches {
        e.send(&format!("setoption name {name} value {}", !default));
        let now: Vec<u64> = fens.iter().map(|f| nodes_at_depth(&mut e, f, 9)).collect();
        assert_ne!(now, base, "{name}={} changed no search", !default);
        e.send(&format!("setoption name {name} value {default}"));
    }
    let again: Vec<u64> = fens.iter().map(|f| nodes_at_depth(&mut e, f, 9)).collect();
    assert_eq!(again, base, "the defaults did not come back");
    e.finish();

    // The flag belongs to UCI only, and nothing else follows `uci`.
    for args in [&["uci", "--bogus"][..], &["xboard", "--switches"][..]] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("unexpected arguments"), "{args:?}: {err}");
    }
}

/// The pv of the last `info` line before `bestmove`.
fn last_pv(e: &mut Engine) -> Vec<String> {
    let mut pv = vec![];
    loop {
        let l = e.expect("info or bestmove", |l| {
            l.starts_with("bestmove") || l.contains(" pv ")
        });
        if l.starts_with("bestmove") {
            return pv;
        }
        let at = l.find(" pv ").unwrap();
        pv = l[at + 4..].split_whitespace().map(String::from).collect();
    }
}

#[test]
fn uci_pv_ends_where_the_rules_draw() {
    let mut e = uci();
    // The same positions searched without the rule first leave moves in the hash
    // table, which would otherwise extend the line.
    e.send("position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 80");
    e.send("go depth 8");
    assert!(last_pv(&mut e).len() > 1);
    // Every king or rook move makes the hundredth ply without a capture.
    e.send("position fen 8/8/8/4k3/8/8/R7/4K3 w - - 99 80");
    e.send("go depth 8");
    assert_eq!(
        last_pv(&mut e).len(),
        1,
        "a move shown after the fifty-move draw"
    );
    e.send("position startpos");
    e.send("go depth 8");
    assert!(last_pv(&mut e).len() > 1);
    // Ng8 repeats the start position for the third time.
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    e.send("go depth 8 searchmoves f6g8");
    assert_eq!(last_pv(&mut e), ["f6g8"], "a move shown after threefold");
    e.finish();
}

// ---------------------------------------------------------------- xboard

#[test]
fn xboard_features_and_ping() {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect("done=1", |l| l.contains("done=1"));
    let features = e.log.join(" ");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "analyze=1",
        "colors=0",
        "myname=",
    ] {
        assert!(features.contains(f), "{f} missing from {features}");
    }
    e.pong(1);
    e.finish();
}

#[test]
fn xboard_plays_a_game_against_itself_to_the_end() {
    let mut e = xboard();
    e.send("new");
    e.send("setboard 6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    e.send("sd 6");
    e.send("force");
    e.send("go"); // the engine plays white
    let mut b = Board::<Magic>::from_fen("6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
    let mut result = None;
    for _ in 0..120 {
        let l = e.expect("move or result", |l| {
            l.starts_with("move ") || l.starts_with("1-0") || l.starts_with("1/2")
        });
        if let Some(m) = l.strip_prefix("move ") {
            let mv = b.parse_uci(m).unwrap_or_else(|_| panic!("illegal {m}"));
            b.make::<brokkr::bits::Portable>(mv);
            // Now play black's reply as the engine: switch sides with go.
            e.send("force");
            e.send("go");
        } else {
            result = Some(l);
            break;
        }
    }
    assert_eq!(result.as_deref(), Some("1-0 {White mates}"));
    e.finish();
}

#[test]
fn xboard_answers_a_user_move_and_claims_results() {
    let mut e = xboard();
    e.send("new");
    e.send("level 0 0:05 0");
    e.send("time 500");
    e.send("otim 500");
    e.send("usermove e2e4");
    let m = e.expect("a reply", |l| l.starts_with("move "));
    let mut b = Board::<Magic>::startpos();
    b.make::<brokkr::bits::Portable>(b.parse_uci("e2e4").unwrap());
    assert!(legal_in(&b, &m[5..]), "{m}");
    // Fool's mate, played in force mode, is claimed.
    e.send("new");
    e.send("force");
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        e.send(&format!("usermove {mv}"));
    }
    e.expect("the result", |l| l == "0-1 {Black mates}");
    e.finish();
}

#[test]
fn xboard_analyze_exit_and_san() {
    let mut e = xboard();
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    e.expect("thinking output", |l| {
        l.split_whitespace().count() >= 5 && l.chars().next().unwrap().is_ascii_digit()
    });
    e.send("Nf3"); // SAN on input
    e.send(".");
    e.send("exit");
    e.pong(3);
    e.send("undo");
    e.send("d");
    e.pong(4);
    e.finish();
}

#[test]
fn xboard_survives_bad_input() {
    let mut e = xboard();
    let bad: &[&str] = &[
        "",
        "frobnicate",
        "usermove",
        "usermove e2e5",
        "usermove Ke5",
        "setboard 8/8/8/8 w - -",
        "setboard garbage",
        "level",
        "level x y z",
        "level 40 5",
        "st -3",
        "st abc",
        "sd 0",
        "sd many",
        "time abc",
        "otim -",
        "memory 0",
        "memory 99999999999",
        "cores -1",
        "option Nonsense=1",
        "option MultiPV=0",
        "option BitPath=nonsense",
        "variant crazyhouse",
        "undo",
        "remove",
        "?",
        "\u{1b}[2J",
    ];
    for (i, line) in bad.iter().enumerate() {
        e.send(line);
        e.pong(100 + i as u32);
    }
    e.send("usermove e2e5");
    e.expect("illegal move", |l| l == "Illegal move: e2e5");
    e.send_bytes(b"\xff\xfe garbage \x00\n");
    e.pong(999);
    e.finish();
}

// ---------------------------------------------------------------- properties

fn survives(protocol: &str, lines: Vec<Vec<u8>>) -> TestResult {
    let mut e = Engine::start(&[protocol]);
    for mut l in lines {
        // A line is whatever the bytes are, without a newline inside.
        l.retain(|&b| b != b'\n');
        if l.starts_with(b"quit") {
            continue;
        }
        l.push(b'\n');
        e.send_bytes(&l);
    }
    if protocol == "uci" {
        e.send("stop");
        e.ready();
    } else {
        e.send("force");
        e.pong(42);
    }
    e.finish();
    TestResult::passed()
}

#[test]
fn random_lines_never_break_uci() {
    fn prop(lines: Vec<Vec<u8>>) -> TestResult {
        survives("uci", lines)
    }
    QuickCheck::new()
        .tests(25)
        .quickcheck(prop as fn(Vec<Vec<u8>>) -> TestResult);
}

#[test]
fn random_lines_never_break_xboard() {
    fn prop(lines: Vec<Vec<u8>>) -> TestResult {
        survives("xboard", lines)
    }
    QuickCheck::new()
        .tests(25)
        .quickcheck(prop as fn(Vec<Vec<u8>>) -> TestResult);
}

/// Random words drawn from the protocols' own vocabulary reach deeper than bytes.
#[test]
fn random_commands_never_break_either_protocol() {
    const WORDS: &[&str] = &[
        "go",
        "stop",
        "position",
        "startpos",
        "fen",
        "moves",
        "e2e4",
        "e7e5",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "1",
        "0",
        "-1",
        "99999999999",
        "depth",
        "nodes",
        "infinite",
        "ponder",
        "ponderhit",
        "isready",
        "ucinewgame",
        "usermove",
        "new",
        "force",
        "analyze",
        "exit",
        "undo",
        "remove",
        "level",
        "st",
        "sd",
        "time",
        "otim",
        "setboard",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "?",
        "playother",
        "hard",
        "easy",
        "post",
        "result",
        "movetime",
        "10",
        "wtime",
        "searchmoves",
        "a2a3",
        "MultiPV",
        "3",
        "Clear",
    ];
    fn prop(protocol: bool, picks: Vec<Vec<u8>>) -> TestResult {
        let lines = picks
            .into_iter()
            .take(30)
            .map(|p| {
                p.iter()
                    .take(8)
                    .map(|&i| WORDS[i as usize % WORDS.len()])
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes()
            })
            .collect();
        survives(if protocol { "uci" } else { "xboard" }, lines)
    }
    QuickCheck::new()
        .tests(30)
        .quickcheck(prop as fn(bool, Vec<Vec<u8>>) -> TestResult);
}
