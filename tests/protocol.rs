//! Scripted sessions with the engine binary in both protocols: games, analysis,
//! pondering, stopping, options, Chess960, and every kind of bad input, each
//! followed by an `isready`/`ping` that must be answered.
//!
//! Every search here is bounded by nodes, so that a loaded machine makes it
//! slower but never different; only the tests of the clock itself (`movetime`,
//! a ponder search's clock, xboard's `level`) use time, and none of them asserts
//! an upper bound on it.

mod common;

use brokkr::attacks::Magic;
use brokkr::bits::Portable;
use brokkr::board::Board;
use common::{after, is_legal, word_after, Engine, Search};
use quickcheck::{QuickCheck, TestResult};
use std::time::{Duration, Instant};

type B = Board<Magic>;

/// Whether `mv` mates in `board`.
fn mates(board: &B, mv: &str) -> bool {
    let b = after(board, &[mv]);
    b.in_check() && b.count_moves::<Portable>() == 0
}

/// Every move of a search's last `info` line's pv is legal, in order.
fn pv_is_legal(board: &B, s: &Search) -> bool {
    let mut b = *board;
    for mv in s.pv() {
        match b.parse_uci(&mv) {
            Ok(m) => b.make::<brokkr::bits::Portable>(m),
            Err(_) => return false,
        }
    }
    true
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
        "UCI_Chess960",
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
    let mut e = Engine::uci();
    let start = B::from_fen("6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
    let mut moves: Vec<String> = vec![];
    for _ in 0..60 {
        e.send(&format!(
            "position fen {} moves {}",
            start.to_fen(),
            moves.join(" ")
        ));
        let m = e.go("nodes 20000").best;
        if m == "(none)" {
            break;
        }
        let b = after(
            &start,
            &moves.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        );
        assert!(is_legal(&b, &m), "illegal bestmove {m} in {}", b.to_fen());
        moves.push(m);
    }
    let b = after(
        &start,
        &moves.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
    );
    assert!(
        b.in_check() && b.count_moves::<Portable>() == 0,
        "no mate after {moves:?}"
    );
    e.finish();
}

#[test]
fn uci_finds_mate_in_two_and_reports_it() {
    let mut e = Engine::uci();
    // Mate in two: 1.Qxh6+ Rxh6 2.Rg8# (Stockfish 15.1 agrees).
    e.send("position fen r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1");
    let s = e.go("nodes 30000");
    let last = s.infos().last().cloned().unwrap_or_default();
    assert!(last.contains(" score mate 2 "), "{last}");
    assert_eq!(s.best, "h5h6");
    e.finish();
}

#[test]
fn uci_analysis_stops_on_request_with_a_legal_move() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go infinite");
    e.expect("multipv 3", |l| l.contains(" multipv 3 "));
    // Well past any limit but the one it was given: it is still searching.
    let lines = e.wait_for_nodes(200_000);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "go infinite ended by itself:\n{}",
        e.tail()
    );
    e.ready(); // isready is answered during a search
    e.send("stop");
    let m = e.bestmove();
    let b = after(&B::startpos(), &["e2e4", "e7e5", "g1f3"]);
    assert!(is_legal(&b, &m), "{m}");
    e.finish();
}

/// A ponder search on a clock gives no `bestmove` until `ponderhit` or `stop`,
/// however long it runs: the clock starts at the `ponderhit`.
#[test]
fn uci_no_bestmove_while_pondering_until_ponderhit_or_stop() {
    let b = after(&B::startpos(), &["d2d4"]);
    for end in ["ponderhit", "stop"] {
        let mut e = Engine::uci();
        e.send("setoption name Ponder value true");
        e.send("position startpos moves d2d4");
        // On this clock a search that did not wait would stop within about
        // 100 ms (its hard limit), far short of the nodes waited for below on
        // any machine; the wait is on work done, so load cannot cut it short.
        e.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
        let lines = e.wait_for_nodes(500_000);
        e.ready();
        let early: Vec<&String> = e.log.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert!(
            early.is_empty(),
            "bestmove while pondering, before {end}: {early:?} (last info: {:?})",
            lines.last()
        );
        e.send(end);
        let m = e.bestmove();
        assert!(is_legal(&b, &m), "{end}: {m}");
        e.finish();
    }
}

#[test]
fn uci_go_then_immediate_stop_gives_a_legal_move() {
    let mut e = Engine::uci();
    for (position, board) in [
        ("startpos".to_string(), B::startpos()),
        // Only one legal move.
        (
            "fen 7k/8/8/8/8/8/6q1/K7 w - - 0 1".to_string(),
            B::from_fen("7k/8/8/8/8/8/6q1/K7 w - - 0 1").unwrap(),
        ),
    ] {
        e.send(&format!("position {position}"));
        e.send("go infinite");
        e.send("stop");
        let m = e.bestmove();
        assert!(is_legal(&board, &m), "{position}: {m}");
    }
    e.finish();
}

#[test]
fn uci_searchmoves_and_limits() {
    let mut e = Engine::uci();
    let start = B::startpos();
    e.send("position startpos");
    let s = e.go("nodes 3000 searchmoves a2a3 h2h3");
    assert!(s.best == "a2a3" || s.best == "h2h3", "{}", s.best);

    // A node limit: a legal move, and no count reported past the limit.
    let s = e.go("nodes 5000");
    assert!(is_legal(&start, &s.best), "{}", s.best);
    assert!(pv_is_legal(&start, &s), "{:?}", s.pv());
    let nodes = s.nodes().expect("an info line with nodes");
    assert!(nodes > 0 && nodes <= 5000, "{nodes} nodes reported");

    // A fixed time: a legal move (the time itself is not asserted).
    let s = e.go("movetime 100");
    assert!(is_legal(&start, &s.best), "{}", s.best);

    // A mate in one among 30 legal moves: the move played mates.
    let fen = "6k1/5ppp/8/8/8/8/1B3PPP/3R2K1 w - - 0 1";
    let b = B::from_fen(fen).unwrap();
    assert!(b.count_moves::<Portable>() > 20);
    e.send(&format!("position fen {fen}"));
    let s = e.go("mate 1");
    assert!(mates(&b, &s.best), "go mate 1 played {}", s.best);
    let last = s.infos().last().cloned().unwrap_or_default();
    assert!(last.contains(" score mate 1 "), "{last}");
    e.finish();
}

#[test]
fn uci_mated_and_stalemated_roots_answer_none() {
    let mut e = Engine::uci();
    // (position, whether the side to move is in check, the score to report).
    for (fen, check, score) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", true, "score mate 0"),
        // Stalemate: the queen on f7 and the king on g6 take g8, g7 and h7.
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, "score cp 0"),
    ] {
        let b = B::from_fen(fen).unwrap();
        assert_eq!(b.count_moves::<Portable>(), 0, "{fen}");
        assert_eq!(b.in_check(), check, "{fen}");
        e.send(&format!("position fen {fen}"));
        let s = e.go("nodes 1000");
        assert_eq!(s.best, "(none)", "{fen}");
        let last = s.infos().last().cloned().unwrap_or_default();
        assert!(last.contains(score), "{fen}: {last}");
    }
    e.finish();
}

#[test]
fn uci_survives_bad_input() {
    let mut e = Engine::uci();
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
    // A good position after the bad ones is taken.
    e.send("position startpos moves e2e4");
    e.send("position startpos moves e2e4 e7e5 e1e8");
    let fen = e.fen();
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

/// Each line of `lines` that is an `info string`.
fn info_strings(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// Send a bad `setoption` and return its `info string` lines (up to `readyok`).
fn bad_setoption(e: &mut Engine, name: &str, value: Option<&str>) -> Vec<String> {
    match value {
        Some(v) => e.send(&format!("setoption name {name} value {v}")),
        None => e.send(&format!("setoption name {name}")),
    }
    e.send("isready");
    let lines = e.until("readyok", |l| l == "readyok");
    info_strings(&lines).into_iter().cloned().collect()
}

/// What a fresh single-thread search prints, without its times: a function of
/// the options alone (and so of Hash, through hashfull, and of MultiPV).
fn probe(e: &mut Engine) -> Vec<String> {
    e.send("ucinewgame");
    e.send("position startpos");
    e.go("nodes 20000")
        .infos()
        .map(|l| {
            l.split(" nps ").next().unwrap().to_string()
                + " hashfull "
                + &word_after(l, "hashfull").unwrap().to_string()
        })
        .collect()
}

/// The number of threads the engine runs now, from the kernel's list of them;
/// `None` off Linux. A search's helpers are in it from the moment they are
/// created, before the main search thread starts (and so before its first
/// report), whether or not they have run yet.
fn threads_now(e: &Engine) -> Option<usize> {
    Some(
        std::fs::read_dir(format!("/proc/{}/task", e.pid()))
            .ok()?
            .count(),
    )
}

/// The engine's threads between searches, once the last search's threads,
/// joined, have also left the kernel's list (a joined thread may stay in it
/// for a moment): the same count ten times in a row. The wait is only a guard
/// against a hang, no timing assertion.
fn threads_idle(e: &Engine) -> Option<usize> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = threads_now(e)?;
    let mut same = 0;
    while same < 10 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        let n = threads_now(e)?;
        same = if n == last { same + 1 } else { 0 };
        last = n;
    }
    Some(last)
}

/// How many threads a search adds to the idle engine (one plus its helpers),
/// or `None` off Linux.
fn threads_probe(e: &mut Engine) -> Option<usize> {
    let idle = threads_idle(e)?;
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for_nodes(1);
    let during = threads_now(e);
    e.send("stop");
    e.bestmove();
    Some(during? - idle)
}

/// The value `uci` lists as the default of a combo option: brokkr lists the
/// current value there (as it picked it from the CPU or the config file).
fn listed_default(e: &mut Engine, name: &str) -> String {
    e.send("uci");
    let want = format!("option name {name} type combo default ");
    let line = e.expect(&want, |l| l.starts_with(&want));
    e.expect("uciok", |l| l == "uciok");
    line[want.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// The `uci` answer's option lines: (name, the rest after `type`).
fn listed_options(e: &Engine) -> Vec<(String, String)> {
    e.log
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| {
            let (name, rest) = l.split_once(" type ").unwrap();
            (name.to_string(), rest.to_string())
        })
        .collect()
}

/// Bad values for every option: each gets an `info string` that names the
/// option, and the option keeps the value it had, as seen in what it changes.
#[test]
fn uci_bad_option_values_are_named_and_change_nothing() {
    let mut e = Engine::uci();
    let options = listed_options(&e);
    assert!(options.len() >= 9, "{options:?}");
    let listed = |name: &str| -> String {
        options
            .iter()
            .find(|o| o.0 == name)
            .unwrap_or_else(|| panic!("{name} is not listed: {options:?}"))
            .1
            .clone()
    };
    let spin_bad = ["-1", "lots", "1.5", "99999999999999999999", "0x10"];
    let check_bad = ["maybe", "1", "yes"];
    // (option, a good value other than the default, its bad values).
    let mut cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("Hash", "1".into(), vec!["0", "65537"]),
        ("Threads", "3".into(), vec!["0", "257"]),
        ("MultiPV", "3".into(), vec!["0", "257"]),
        ("Move Overhead", "0".into(), vec!["10001"]),
        ("Ponder", "true".into(), check_bad.to_vec()),
        ("UCI_Chess960", "true".into(), check_bad.to_vec()),
    ];
    for combo in ["BitPath", "Slider"] {
        // Another value than the one picked for this CPU.
        let line = listed(combo);
        let words: Vec<&str> = line.split_whitespace().collect();
        let default = words[2];
        let other = words
            .windows(2)
            .find(|w| w[0] == "var" && w[1] != default)
            .map(|w| w[1].to_string())
            .expect("a second value");
        cases.push((combo, other, vec!["nonsense", "fast"]));
    }
    for (name, good, bad) in &cases {
        let name = *name;
        let line = listed(name);
        let default = line
            .split(" default ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        // What the option changes, at its default and at the good value. Move
        // Overhead's probe is a lower bound on time, true only at 0 for sure.
        let before = (name != "Move Overhead")
            .then(|| observe(&mut e, name))
            .flatten();
        let said = bad_setoption(&mut e, name, Some(good));
        // More threads than cores are taken, with a warning.
        let said: Vec<String> = said
            .into_iter()
            .filter(|l| !l.contains("logical cores"))
            .collect();
        assert!(said.is_empty(), "{name}={good} refused: {said:?}");
        let set = observe(&mut e, name);
        if let (Some(before), Some(set)) = (&before, &set) {
            assert_ne!(before, set, "{name}={good} is not seen by its probe");
        }
        let spins = line.starts_with("spin");
        let values = bad
            .iter()
            .copied()
            .chain(spins.then_some(spin_bad).into_iter().flatten());
        for v in values.map(Some).chain([None, Some("")]) {
            let said = bad_setoption(&mut e, name, v);
            assert_eq!(said.len(), 1, "{name}={v:?}: {said:?}");
            assert!(
                said[0].contains(&format!("'{name}'")),
                "{name}={v:?}: the message does not name the option: {}",
                said[0]
            );
        }
        assert_eq!(
            observe(&mut e, name),
            set,
            "{name} did not keep {good} after bad values"
        );
        // Back to the default, so that the next probes are single-threaded.
        assert!(bad_setoption(&mut e, name, Some(default)).is_empty());
    }
    // Options without a probe here (added since, or `Clear Hash`, a button):
    // at least a message about one names it.
    for (name, _) in options.iter().filter(|o| !cases.iter().any(|c| c.0 == o.0)) {
        if name != "Clear Hash" {
            eprintln!("option {name}: no probe of the value it keeps");
        }
        for v in ["-1", "nonsense"] {
            let said = bad_setoption(&mut e, name, Some(v));
            assert!(
                said.iter().all(|s| s.contains(name.as_str())),
                "{name}={v}: {said:?}"
            );
        }
    }
    e.send("setoption name NoSuchOption value 1");
    e.expect("unknown option", |l| {
        l.starts_with("info string") && l.contains("'NoSuchOption'")
    });
    e.ready();
    e.finish();
}

/// What option `name` changes, as far as a session can see it: the probe
/// search (Hash, MultiPV), the helper threads of a search (Threads, on Linux),
/// castling notation (UCI_Chess960), the listed value (BitPath, Slider), or a
/// lower bound on a fixed-time search (Move Overhead). `None` where nothing
/// shows it: `Ponder` changes nothing a session can see.
fn observe(e: &mut Engine, name: &str) -> Option<Vec<String>> {
    match name {
        "Hash" | "MultiPV" => Some(probe(e)),
        "Threads" => threads_probe(e).map(|n| vec![n.to_string()]),
        "UCI_Chess960" => {
            e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
            Some(vec![e.go("nodes 500 searchmoves e1h1").best])
        }
        "BitPath" | "Slider" => Some(vec![listed_default(e, name)]),
        "Move Overhead" => {
            // With no overhead, `go movetime 300` thinks for all of its 300 ms;
            // any other value takes some off (a lower bound on time, which load
            // can only lengthen: never a false failure). Only the kept value of
            // 0 is checked, so the probe gives the same answer for every value
            // below it.
            e.send("position startpos");
            let t = Instant::now();
            e.go("movetime 300");
            let full = t.elapsed() >= Duration::from_millis(300);
            Some(vec![if full { "full" } else { "shortened" }.to_string()])
        }
        _ => None,
    }
}

#[test]
fn uci_eof_during_a_search_exits_cleanly() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for_nodes(1_000);
    e.finish();
}

#[test]
fn uci_extras_answer() {
    let mut e = Engine::uci();
    e.send("d");
    e.expect("Key", |l| l.starts_with("Key:"));
    e.send("eval");
    e.expect("final eval", |l| {
        l.starts_with("Hand-written (side to move):")
    });
    e.send("go perft 3");
    e.expect("perft total", |l| l == "Nodes searched: 8902");
    e.finish();
}

/// A game of the engine against itself from the start, each move a search of
/// `nodes` after the commands `before(i)` gives for move `i`: every move and
/// every line legal in the game's position.
fn self_play(e: &mut Engine, plies: usize, nodes: u64, before: impl Fn(usize) -> Vec<String>) {
    let mut moves: Vec<String> = vec![];
    for i in 0..plies {
        for cmd in before(i) {
            e.send(&cmd);
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let s = e.go(&format!("nodes {nodes}"));
        let b = after(
            &B::startpos(),
            &moves.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
        );
        let at = format!("move {} after {:?}", i + 1, before(i));
        assert!(is_legal(&b, &s.best), "{at}: {}", s.best);
        assert!(pv_is_legal(&b, &s), "{at}: {:?}", s.pv());
        moves.push(s.best);
    }
    e.ready();
}

/// The Hash size changed between two searches of one game, and back (and the
/// table cleared once): every move legal, the session goes on.
#[test]
fn uci_hash_resized_between_the_searches_of_a_game() {
    let mut e = Engine::uci();
    let sizes = [16, 1, 64, 2, 16, 1, 32, 8];
    self_play(&mut e, sizes.len(), 4000, |i| {
        let mut cmds = vec![format!("setoption name Hash value {}", sizes[i])];
        if i == 4 {
            cmds.push("setoption name Clear Hash".into());
        }
        cmds
    });
    e.finish();
}

/// Threads changed in the middle of a game, up and down: every move legal, and
/// the helpers of the last search are gone once it has ended.
#[test]
fn uci_threads_changed_in_the_middle_of_a_game() {
    let mut e = Engine::uci();
    // Between searches (after the first, which starts the input thread).
    e.go("nodes 1");
    let idle = threads_idle(&e);
    let counts = [1, 2, 4, 1, 3, 2, 1, 4];
    self_play(&mut e, counts.len(), 8000, |i| {
        vec![format!("setoption name Threads value {}", counts[i])]
    });
    assert_eq!(
        threads_idle(&e),
        idle,
        "helper threads outlived their search"
    );
    e.finish();
}

/// `UCI_Chess960`: castling goes out as king-takes-rook and comes in as
/// king-takes-rook or, as `parse_uci` documents, as the king's own move; off,
/// castling goes out as the king's two-square move and comes in either way.
#[test]
fn uci_chess960_castles_king_takes_rook_both_ways() {
    let mut e = Engine::uci();
    // King b1, rooks a1 and h1: O-O is b1h1, landing the king on g1.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let castled = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha - 1 1";
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    let s = e.go("nodes 2000 searchmoves b1h1");
    assert_eq!(s.best, "b1h1", "castling sent king-takes-rook");
    for mv in ["b1h1", "b1g1"] {
        e.send(&format!("position fen {fen} moves {mv}"));
        assert_eq!(e.fen(), castled, "{mv} received as O-O");
    }
    // A pv that castles is written the same way.
    e.send("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R b HAha - 0 1");
    let s = e.go("nodes 2000 searchmoves b8h8");
    assert_eq!(s.best, "b8h8");
    assert_eq!(s.pv().first().map(String::as_str), Some("b8h8"));
    // The standard start position in Chess960 mode castles king-takes-rook too.
    let italian = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5";
    e.send(&format!("position startpos moves {italian}"));
    assert_eq!(e.go("nodes 2000 searchmoves e1h1").best, "e1h1");
    e.send(&format!("position startpos moves {italian} e1h1"));
    assert!(e.fen().contains("/RNBQ1RK1 b"), "{}", e.fen());

    // Off again: the standard notation out, both notations in.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position startpos moves {italian}"));
    assert_eq!(e.go("nodes 2000 searchmoves e1h1").best, "e1g1");
    for mv in ["e1g1", "e1h1"] {
        e.send(&format!("position startpos moves {italian} {mv}"));
        assert!(e.fen().contains("/RNBQ1RK1 b"), "{mv}: {}", e.fen());
    }
    e.ready();
    e.finish();
}

#[test]
fn uci_hidden_switches_turn_off_a_term_group_or_a_feature() {
    let mut e = Engine::uci();
    let final_eval = |e: &mut Engine| {
        e.send("eval");
        e.expect("final eval", |l| {
            l.starts_with("Hand-written (side to move):")
        })
    };
    // Tempo is off by default (it did not measure to pay).
    let without_tempo = final_eval(&mut e);
    e.send("setoption name Eval_Tempo value true");
    let with = final_eval(&mut e);
    assert_ne!(without_tempo, with, "Eval_Tempo=true changed nothing");
    // A bad value is named and changes nothing.
    e.send("setoption name Eval_Tempo value maybe");
    e.expect("bad value", |l| {
        l.starts_with("info string") && l.contains("maybe") && l.contains("Eval_Tempo")
    });
    assert_eq!(
        final_eval(&mut e),
        with,
        "a bad value turned Eval_Tempo off"
    );
    e.send("setoption name Eval_Tempo value false");
    assert_eq!(final_eval(&mut e), without_tempo);
    e.send("setoption name Feature_NullMove value false");
    e.send("setoption name Eval_Bogus value false");
    e.expect("unknown option", |l| {
        l.starts_with("info string") && l.contains("Eval_Bogus")
    });
    e.go("nodes 3000");
    e.ready();
    e.finish();
}

/// `HceBlend` mixes the hand-written evaluation into the network's: at 100 the
/// search is the hand-written evaluation's own (the same tree as `UseNNUE`
/// off), at 0 the network's, and between them a search of its own. Without a
/// network it changes nothing.
#[test]
fn hce_blend_runs_from_the_network_to_the_hand_written_evaluation() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";
    const NODES: u64 = 20_000;
    let mut e = Engine::uci();
    let net = signature(&mut e, fen, NODES);
    e.send("setoption name HceBlend value 100");
    let full = signature(&mut e, fen, NODES);
    e.send("setoption name HceBlend value 30");
    let part = signature(&mut e, fen, NODES);
    e.send("setoption name HceBlend value 0");
    assert_eq!(
        signature(&mut e, fen, NODES),
        net,
        "HceBlend 0 is not the network's search"
    );
    e.send("setoption name UseNNUE value false");
    let hce = signature(&mut e, fen, NODES);
    e.send("setoption name HceBlend value 30");
    assert_eq!(
        signature(&mut e, fen, NODES),
        hce,
        "HceBlend changed a search without a network"
    );
    assert_eq!(
        full, hce,
        "HceBlend 100 is not the hand-written evaluation's search"
    );
    assert_ne!(net, hce);
    assert_ne!(part, net, "HceBlend 30 searched as the network alone");
    assert_ne!(
        part, hce,
        "HceBlend 30 searched as the hand-written evaluation alone"
    );
    e.finish();
}

/// What a fresh `go nodes N` search from `fen` prints, without its times: its
/// iterations' depths, scores, node counts and lines. One thread and a node
/// limit make it a function of the search alone, on any machine.
fn signature(e: &mut Engine, fen: &str, nodes: u64) -> Vec<String> {
    e.send("ucinewgame");
    e.send(&format!("position fen {fen}"));
    let s = e.go(&format!("nodes {nodes}"));
    let mut sig: Vec<String> = s
        .infos()
        .map(|l| {
            let (head, tail) = l.split_once(" nps ").unwrap();
            let pv = tail.split_once(" pv ").map_or("", |(_, pv)| pv);
            format!("{head} pv {pv}")
        })
        .collect();
    sig.push(s.best);
    sig
}

/// `uci --switches` lists every hidden switch (fastchess sends only the options an
/// engine lists), plain `uci` lists none, and each listed switch, set to the
/// other value, changes the search: a switch that did nothing would make every
/// match that measures it a match of a build against itself.
#[test]
fn uci_switches_are_listed_on_request_and_each_changes_the_search() {
    let mut plain = Engine::uci();
    plain.send("isready");
    let listed = |l: &str| l.contains("Feature_") || l.contains("Eval_");
    let l = plain.expect("readyok", |l| l == "readyok" || listed(l));
    assert_eq!(l, "readyok", "plain uci lists a hidden switch");
    plain.finish();

    let mut e = Engine::start(&["uci", "--switches"]);
    // The `Eval_` switches are groups of the hand-written evaluation: with the
    // network evaluating they change nothing, so this test searches without it.
    e.send("setoption name UseNNUE value false");
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
    // A middlegame, a pawn ending for the terms only endings use, and a pawn
    // about to reach the seventh. The node limit reaches depth 9 or more, where
    // every switch shows.
    let fens = [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 50",
        // A pawn a step from the seventh, for the extension that watches for it.
        "6k1/5ppp/1P6/8/2n5/8/5PPP/2R3K1 w - - 0 30",
    ];
    const NODES: u64 = 60_000;
    let sig = |e: &mut Engine| -> Vec<Vec<String>> {
        fens.iter().map(|f| signature(e, f, NODES)).collect()
    };
    let base = sig(&mut e);
    // A switch of the time manager alone changes when a timed search stops,
    // never a search by nodes: src/search/time.rs's tests show its effect.
    const TIME_ONLY: [&str; 1] = ["Feature_NodeTime"];
    for (name, default) in &switches {
        if TIME_ONLY.contains(&name.as_str()) {
            continue;
        }
        e.send(&format!("setoption name {name} value {}", !default));
        assert_ne!(sig(&mut e), base, "{name}={} changed no search", !default);
        e.send(&format!("setoption name {name} value {default}"));
    }
    assert_eq!(sig(&mut e), base, "the defaults did not come back");
    e.finish();

    // The flag belongs to UCI only, and nothing else follows `uci`.
    for args in [&["uci", "--bogus"][..], &["xboard", "--switches"][..]] {
        let o = common::brokkr(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = common::stderr(&o);
        assert!(err.contains("unexpected arguments"), "{args:?}: {err}");
    }
}

#[test]
fn uci_pv_ends_where_the_rules_draw() {
    let mut e = Engine::uci();
    // The same positions searched without the rule first leave moves in the hash
    // table, which would otherwise extend the line.
    e.send("position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 80");
    assert!(e.go("nodes 20000").pv().len() > 1);
    // Every king or rook move makes the hundredth ply without a capture.
    e.send("position fen 8/8/8/4k3/8/8/R7/4K3 w - - 99 80");
    assert_eq!(
        e.go("nodes 20000").pv().len(),
        1,
        "a move shown after the fifty-move draw"
    );
    e.send("position startpos");
    assert!(e.go("nodes 20000").pv().len() > 1);
    // Ng8 repeats the start position for the third time.
    e.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(
        e.go("nodes 20000 searchmoves f6g8").pv(),
        ["f6g8"],
        "a move shown after threefold"
    );
    e.finish();
}

// ---------------------------------------------------------------- xboard

#[test]
fn xboard_features_and_ping() {
    let mut e = Engine::xboard();
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
    let mut e = Engine::xboard();
    e.send("new");
    e.send("setboard 6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1");
    // xboard has no node limit; a depth limit in a three-piece ending is as
    // bounded (a few thousand nodes a move).
    e.send("sd 6");
    e.send("force");
    e.send("go"); // the engine plays white
    let mut b = B::from_fen("6k1/8/6K1/8/8/8/8/1Q6 w - - 0 1").unwrap();
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
    let mut e = Engine::xboard();
    e.send("new");
    e.send("level 0 0:05 0");
    e.send("time 500");
    e.send("otim 500");
    e.send("usermove e2e4");
    let m = e.expect("a reply", |l| l.starts_with("move "));
    let b = after(&B::startpos(), &["e2e4"]);
    assert!(is_legal(&b, &m[5..]), "{m}");
    // Fool's mate, played in force mode, is claimed.
    e.send("new");
    e.send("force");
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        e.send(&format!("usermove {mv}"));
    }
    e.expect("the result", |l| l == "0-1 {Black mates}");
    e.finish();
}

/// The lines before `pong N` that say a move was illegal.
fn refusals(e: &mut Engine, n: u32) -> Vec<String> {
    e.pong(n)
        .into_iter()
        .filter(|l| l.starts_with("Illegal move"))
        .collect()
}

/// Whether the engine's position is `want`, asked through moves: one that is
/// legal there (played, then taken back with `undo`) and, for each of
/// `illegal`, one that is not (refused, so nothing changes).
fn position_is(e: &mut Engine, want: &B, legal: &str, illegal: &[&str]) {
    assert!(is_legal(want, legal), "{legal} in {}", want.to_fen());
    for mv in illegal {
        assert!(!is_legal(want, mv), "{mv} in {}", want.to_fen());
        e.send(&format!("usermove {mv}"));
        assert_eq!(
            refusals(e, 50),
            [format!("Illegal move: {mv}")],
            "{mv} accepted: the position is not {}",
            want.to_fen()
        );
    }
    e.send(&format!("usermove {legal}"));
    assert!(
        refusals(e, 51).is_empty(),
        "{legal} refused: the position is not {}",
        want.to_fen()
    );
    e.send("undo");
    e.pong(52);
}

/// SAN on input during analysis, `.`, `exit`, then `undo`: the analysis is of the
/// position after the move, and `undo` goes back to the one before it.
#[test]
fn xboard_analyze_exit_and_san() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    let thinking =
        |l: &str| l.split_whitespace().count() >= 5 && l.chars().next().unwrap().is_ascii_digit();
    e.expect("thinking output", thinking);
    e.send("Nf3"); // SAN on input
    e.send(".");
    e.expect("stat01", |l| l.starts_with("stat01: "));
    // The analysis now is of the position after Nf3: black's moves.
    let nf3 = after(&B::startpos(), &["g1f3"]);
    let l = e.expect("thinking output with a pv", |l| {
        thinking(l) && l.split_whitespace().count() >= 5
    });
    let first = l.split_whitespace().nth(4).unwrap();
    assert!(is_legal(&nf3, first), "{first} analysed after Nf3: {l}");
    e.send("exit");
    e.pong(3);
    position_is(&mut e, &nf3, "e7e5", &["e2e4"]);
    e.send("undo");
    e.pong(4);
    position_is(&mut e, &B::startpos(), "g1f3", &["e7e5"]);
    e.finish();
}

/// `undo` takes back one move and `remove` two, as the position left shows (by
/// the moves it accepts and by the move a search then plays); both at the start
/// of the game change nothing.
#[test]
fn xboard_undo_and_remove_leave_the_position_they_say() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        e.send(&format!("usermove {mv}"));
    }
    e.send("undo");
    e.pong(1);
    let three = after(&B::startpos(), &["e2e4", "e7e5", "g1f3"]);
    position_is(&mut e, &three, "b8c6", &["g1f3"]);
    e.send("remove");
    e.pong(2);
    let one = after(&B::startpos(), &["e2e4"]);
    position_is(&mut e, &one, "e7e5", &["e2e4", "g1f3"]);
    // A search from there plays black's move in that position.
    e.send("sd 4");
    e.send("go");
    let m = e.expect("move", |l| l.starts_with("move "))[5..].to_string();
    assert!(is_legal(&one, &m), "{m} after undo and remove");
    // Its move and e4 taken back: the start.
    e.send("force");
    e.send("remove");
    e.pong(3);
    position_is(&mut e, &B::startpos(), "d2d4", &["d7d5"]);
    // At the start, more takebacks are refused and change nothing.
    e.send("undo");
    e.send("remove");
    let errors: Vec<String> = e
        .pong(4)
        .into_iter()
        .filter(|l| l.starts_with("Error"))
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    position_is(&mut e, &B::startpos(), "e2e4", &["e7e5"]);
    e.finish();
}

#[test]
fn xboard_survives_bad_input() {
    let mut e = Engine::xboard();
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
    // The refused setboards left no position: a move is refused as such...
    e.send("usermove e2e4");
    e.expect("no position", |l| {
        l.starts_with("Error (usermove): no position")
    });
    // ... until `new` sets one up again.
    e.send("new");
    e.send("force");
    e.send("usermove e2e5");
    e.expect("illegal move", |l| l == "Illegal move: e2e5");
    e.send_bytes(b"\xff\xfe garbage \x00\n");
    e.pong(999);
    e.finish();
}

/// xboard's option commands with bad values: each `Error` names the option, and
/// the option keeps its value where the session can see it.
#[test]
fn xboard_bad_option_values_are_named_and_change_nothing() {
    let mut e = Engine::xboard();
    let errors = |e: &mut Engine, line: &str, n: u32| -> Vec<String> {
        e.send(line);
        e.pong(n)
            .into_iter()
            .filter(|l| l.starts_with("Error"))
            .collect()
    };
    // The threads analysis adds to the idle engine, on one core.
    let analysing = |e: &mut Engine| {
        let idle = threads_idle(e);
        e.send("force");
        e.send("analyze");
        e.expect("thinking output", |l| {
            l.chars().next().is_some_and(|c| c.is_ascii_digit())
        });
        let n = threads_now(e);
        e.send("exit");
        e.pong(98);
        Some(n? - idle?)
    };
    // The first search also starts the engine's input thread: count after it.
    analysing(&mut e);
    let one_core = analysing(&mut e);
    e.send("cores 2");
    e.send("option BitPath=portable");
    e.send("option MultiPV=2");
    for (i, (line, name)) in [
        ("memory 0", "memory"),
        ("memory 99999999999", "memory"),
        ("memory lots", "memory"),
        ("cores 0", "cores"),
        ("cores -1", "cores"),
        ("cores 257", "cores"),
        ("option Nonsense=1", "Nonsense"),
        ("option MultiPV=0", "MultiPV"),
        ("option MultiPV=x", "MultiPV"),
        ("option Move_Overhead=-5", "Move_Overhead"),
        ("option BitPath=nonsense", "BitPath"),
        ("option Slider=nonsense", "Slider"),
        ("option BitPath", "BitPath"),
    ]
    .into_iter()
    .enumerate()
    {
        let said = errors(&mut e, line, i as u32);
        assert_eq!(said.len(), 1, "{line}: {said:?}");
        assert!(said[0].contains(name), "{line}: {}", said[0]);
    }
    // The combo's current value is marked in the features sent again.
    e.send("protover 2");
    let l = e.expect("BitPath", |l| l.contains("option=\"BitPath"));
    assert!(
        l.contains("*portable"),
        "BitPath did not keep portable: {l}"
    );
    e.expect("done=1", |l| l.contains("done=1"));
    // `cores` kept 2: one helper thread analyses beside the main one.
    assert_eq!(
        analysing(&mut e),
        one_core.map(|n| n + 1),
        "cores did not keep 2"
    );
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
