//! What a GUI and a new user met on day one (issue 39), each fault as the GUI
//! sees it: the lines it sends, the lines it reads back.

mod common;

use brokkr::attacks::Magic;
use brokkr::board::Board;
use common::*;

/// XBoard takes any engine line holding one of these for a failed start
/// (`HandleMachineMove` in its `backend.c`), and then waits for ever.
const XBOARD_FATAL: [&str; 6] = [
    "unknown host",
    "No remote directory",
    "not found",
    "No such file",
    "can't alloc",
    "Permission denied",
];

fn assert_xboard_safe(lines: &[String]) {
    for l in lines {
        for bad in XBOARD_FATAL {
            assert!(
                !l.to_ascii_lowercase().contains(&bad.to_ascii_lowercase()),
                "XBoard would take this for a failed start: {l}"
            );
        }
    }
}

#[test]
fn xboard_start_with_a_missing_tables_folder_says_so_and_plays() {
    let mut e = Engine::xboard();
    // What Debian's stock xboard.conf makes XBoard send at start-up.
    e.send("egtpath syzygy /EGT/Syzygy");
    // And other files that are not there.
    e.send("option EvalFile=/no/such/dir/net.nnue");
    e.send("option BookFile=/no/such/dir/book.bin");
    e.send("egtpath syzygy");
    let lines = e.pong(1);
    assert_xboard_safe(&lines);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("/EGT/Syzygy") && l.contains("does not exist")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("no folder given")),
        "{lines:?}"
    );
    // And it plays.
    e.send("new");
    e.send("sd 3");
    e.send("go");
    let (mv, lines) = e.xmove();
    assert_xboard_safe(&lines);
    assert!(is_legal(&Board::<Magic>::startpos(), &mv), "{mv}");
    e.finish();
}

#[test]
fn positions_a_board_editor_sets_up_are_played() {
    let mut e = Engine::uci();
    e.send("position startpos");
    // Eight pawns and three queens: more promoted pieces than pawns missing.
    let fen = "4k3/8/8/8/8/PPPPPPPP/8/QQQ1K3 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let (mv, lines) = e.bestmove_lines();
    let b = Board::<Magic>::from_fen(fen).unwrap();
    assert!(is_legal(&b, &mv), "{mv} in {fen}: {lines:?}");
    // Castling rights without their rook and an en-passant square with no
    // pawn to capture are dropped with a word, not refused.
    e.send("position fen 4k3/8/8/8/8/8/8/4K3 w KQkq e6 0 1");
    e.send("d");
    let fen = e.fen();
    assert!(fen.starts_with("4k3/8/8/8/8/8/8/4K3 w - - "), "{fen}");
    let said = e.log.join("\n");
    assert!(said.contains("castling right 'K'"), "{said}");
    assert!(said.contains("en-passant square e6"), "{said}");
    e.send("go depth 2");
    let (mv, _) = e.bestmove_lines();
    assert!(
        is_legal(
            &Board::<Magic>::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
            &mv
        ),
        "{mv}"
    );
    e.finish();
}

#[test]
fn xboard_after_a_refused_setboard_go_plays_no_move_of_the_old_position() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    e.send("go");
    let lines = e.pong(1);
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error (go): no position")),
        "{lines:?}"
    );
    // A good setboard brings it back.
    e.send("setboard 4k3/8/8/8/8/PPPPPPPP/8/QQQ1K3 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let (mv, _) = e.xmove();
    let b = Board::<Magic>::from_fen("4k3/8/8/8/8/PPPPPPPP/8/QQQ1K3 w - - 0 1").unwrap();
    assert!(is_legal(&b, &mv), "{mv}");
    e.finish();
}

#[test]
fn an_absurd_hash_is_capped_to_the_machine_with_a_word() {
    // Only where the machine's memory is known and 64 GiB is more than half
    // of it (every CI machine).
    let total_mb = brokkr::protocol::controller::physical_mb().map(|mb| mb as u64);
    let Some(total_mb) = total_mb.filter(|&t| t < 2 * 65536) else {
        eprintln!("skipped: the machine's memory is not known, or over 128 GiB");
        return;
    };
    let mut e = Engine::uci();
    e.send("setoption name Hash value 65536");
    e.ready();
    let said = e.log.join("\n");
    let cap = total_mb / 2;
    assert!(
        said.contains(&format!("using {cap} MB")) || said.contains("using"),
        "{said}"
    );
    assert!(said.contains("more than half"), "{said}");
    // The engine still plays.
    e.send("position startpos");
    e.send("go depth 2");
    e.bestmove();
    e.finish();
}

#[test]
fn threads_beyond_the_cores_get_a_warning() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = Engine::uci();
    e.send(&format!("setoption name Threads value {}", cores + 1));
    e.ready();
    let said = e.log.join("\n");
    assert!(said.contains("logical cores"), "{said}");
    e.send(&format!("setoption name Threads value {cores}"));
    e.ready();
    assert_eq!(e.log.join("\n").matches("logical cores").count(), 1);
    e.finish();
}

#[test]
fn xboard_error_lines_say_the_whole_message() {
    let mut e = Engine::xboard();
    e.send("option MultiPV=abc");
    let lines = e.pong(1);
    let err = lines
        .iter()
        .find(|l| l.starts_with("Error (option)"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(err.contains("from 1 to 256"), "{err}");
    e.finish();
}

/// The `Evaluation (side to move)` value of an `eval` answer, and the whole
/// answer up to the hand-written total.
fn eval_lines(e: &mut Engine) -> (i32, Vec<String>) {
    e.send("eval");
    let lines = e.until("eval", |l| l.starts_with("Hand-written (side to move):"));
    let first = lines
        .iter()
        .find_map(|l| l.strip_prefix("Evaluation (side to move): "))
        .and_then(|v| v.strip_suffix(" cp"))
        .unwrap_or_else(|| panic!("{lines:?}"))
        .parse()
        .unwrap();
    (first, lines)
}

#[test]
fn uci_eval_leads_with_the_evaluation_in_use() {
    let mut e = Engine::uci();
    e.send("position fen r3kb1r/pp3p1p/2q1pQ2/6p1/4P3/2N5/PP3PPP/R1B1K2R b KQkq - 0 5");
    let (net, lines) = eval_lines(&mut e);
    let at = |p: &str| lines.iter().position(|l| l.starts_with(p)).unwrap();
    assert!(at("Evaluation (white)") < at("Term"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("Evaluated by: network")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("not in use")), "{lines:?}");
    // With the net off, the value in use is the hand-written total.
    e.send("setoption name UseNNUE value false");
    let (hce, lines) = eval_lines(&mut e);
    let total: i32 = lines
        .last()
        .unwrap()
        .strip_prefix("Hand-written (side to move): ")
        .and_then(|v| v.strip_suffix(" cp"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(hce, total, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "Evaluated by: the hand-written evaluation"),
        "{lines:?}"
    );
    assert_ne!(net, hce, "the two evaluations differ here");
    e.finish();
}

#[test]
fn brokkr_eval_leads_with_the_network() {
    let out = brokkr_ok(&["eval"]);
    assert!(out.starts_with("Evaluation (white): "), "{out}");
    assert!(out.contains("Evaluated by: network"), "{out}");
    let out = brokkr_ok(&["eval", "--hce"]);
    assert!(
        out.contains("Evaluated by: the hand-written evaluation"),
        "{out}"
    );
}

#[test]
fn a_strength_limit_searches_with_the_evaluation_full_strength_uses() {
    // A balanced position: the net's and the hand-written scores are of
    // one scale only if the hash is never shared between them.
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    let full = e.go("depth 9");
    e.send("setoption name Skill Level value 19");
    let limited = e.go("depth 9");
    // The main line of each finished depth from 6 on (shallower lines of a
    // MultiPV search may end in a blunder by the other side).
    for s in [&full, &limited] {
        for l in s.infos() {
            let main = l.contains(" multipv 1 ") && word_after(l, "depth") >= Some(6);
            if let Some(cp) = word_after_signed(l, "cp").filter(|_| main) {
                assert!(cp.abs() < 300, "a balanced position scored {cp}: {l}");
            }
        }
    }
    e.finish();
}

/// The signed number after `key` in an `info` line.
fn word_after_signed(line: &str, key: &str) -> Option<i64> {
    let mut w = line.split_whitespace();
    while let Some(x) = w.next() {
        if x == key {
            return w.next()?.parse().ok();
        }
    }
    None
}

#[test]
fn endless_or_huge_files_are_refused_at_once() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let mut e = Engine::uci();
    e.send("setoption name EvalFile value /dev/zero");
    e.send("setoption name BookFile value /dev/zero");
    // `expect` gives up after its timeout: reading /dev/zero whole never ends.
    e.ready();
    let said = e.log.join("\n");
    assert!(said.contains("larger than any net"), "{said}");
    assert!(said.contains("the most brokkr reads"), "{said}");
    // The embedded net is still in use.
    e.send("eval");
    e.expect("the net", |l| {
        l.starts_with("Evaluated by: network embedded")
    });
    e.finish();
}

#[test]
fn go_answers_say_what_they_did() {
    let mut e = Engine::uci();
    e.send("position startpos");
    // A depth beyond the search's most is clamped with a word.
    let s = e.go("depth 99999999999999999999 nodes 3000");
    assert!(
        s.strings().iter().any(|l| l.contains("depth 127")),
        "{:?}",
        s.lines
    );
    // Even `go nodes 0` reports a line before its move.
    let s = e.go("nodes 0");
    assert!(s.infos().any(|l| l.contains(" pv ")), "{:?}", s.lines);
    e.finish();
}

#[test]
fn xboard_hint_gives_a_move_when_idle() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send("hint");
    let lines = e.pong(1);
    let hint = lines
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(is_legal(&Board::<Magic>::startpos(), hint), "{hint}");
    e.finish();
}

#[test]
fn xboard_features_are_ones_python_chess_accepts() {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until("done=1", |l| l.contains("done=1"));
    let first = lines.iter().find(|l| l.contains("ping=1")).unwrap();
    // python-chess rejects these (with a warning at every start).
    for bad in ["sigterm=0", "reuse=0", "san=1"] {
        assert!(!first.contains(bad), "{first}");
    }
    e.finish();
}
