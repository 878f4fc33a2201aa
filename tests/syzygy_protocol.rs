//! The Syzygy options over both protocols: UCI `SyzygyPath` and its siblings,
//! xboard `egtpath syzygy DIR`; good tables steer the root, and a missing
//! directory or a bad file gets a note while the engine plays on.

mod common;

use common::{Engine, TempDir};

/// The `tbhits` of a search's last scored `info` line.
fn last_tbhits(s: &common::Search) -> u64 {
    s.infos()
        .filter_map(|l| common::word_after(l, "tbhits"))
        .last()
        .expect("an info line with tbhits")
}

fn tables() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy").to_string()
}

#[test]
fn uci_lists_the_syzygy_options() {
    let e = Engine::uci();
    for want in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(
            e.log.iter().any(|l| l == want),
            "no '{want}' in {:?}",
            e.log
        );
    }
    e.finish();
}

#[test]
fn uci_tables_pick_the_winning_move_and_count_hits() {
    let mut e = Engine::uci();
    e.send(&format!("setoption name SyzygyPath value {}", tables()));
    e.ready();
    assert!(
        e.log
            .iter()
            .any(|l| l.starts_with("info string syzygy: 38 WDL and 38 DTZ tables, up to 5 pieces")),
        "{}",
        e.tail()
    );
    // Only the en passant capture wins (the others lose): the tables say so
    // at once.
    e.send("position fen 8/8/3k4/6Pp/8/K7/8/8 w - h6 0 1");
    let s = e.go("depth 6");
    assert_eq!(s.best, "g5h6", "{:?}", s.lines);
    let last = s.infos().last().expect("an info line").clone();
    assert!(last.contains(" tbhits "), "{last}");
    let cp = common::word_after(&last, "cp").expect("a cp score");
    assert!(cp > 30_000, "a tablebase win shows as one: {last}");
    // The root's ranking probed its five legal moves: Stockfish counts them as hits.
    assert!(last_tbhits(&s) >= 5, "{last}");

    // Six pieces: the search probes the 5-piece positions it reaches.
    e.send("position fen 8/8/3k4/8/8/2K5/2n2B2/5RN1 w - - 0 1");
    let s = e.go("depth 8");
    let hits = last_tbhits(&s);
    assert!(hits > 0, "{:?}", s.lines);

    // SyzygyProbeLimit 0 turns the probes off.
    e.send("setoption name SyzygyProbeLimit value 0");
    e.send("ucinewgame");
    e.send("position fen 8/8/3k4/8/8/2K5/2n2B2/5RN1 w - - 0 1");
    let s = e.go("depth 8");
    let hits = last_tbhits(&s);
    assert_eq!(hits, 0, "{:?}", s.lines);
    e.finish();
}

#[test]
fn uci_bad_paths_and_files_are_noted_and_the_engine_plays_on() {
    let mut e = Engine::uci();
    e.send("setoption name SyzygyPath value /no/such/syzygy/dir");
    e.ready();
    assert!(
        e.log
            .iter()
            .any(|l| l.starts_with("info string SyzygyPath: ") && l.contains("/no/such/syzygy/dir")),
        "{}",
        e.tail()
    );
    e.send("position startpos");
    let s = e.go("depth 4");
    assert!(!s.best.is_empty() && s.best != "(none)", "{:?}", s.lines);

    // A file with the wrong magic number and a truncated one.
    let dir = TempDir::new("syzygy-bad");
    dir.file("KQvK.rtbw", vec![0x42u8; 16 + 64]);
    dir.file("KRvK.rtbw", vec![0x71u8, 0xE8, 0x23, 0x5D, 0, 0, 0]);
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.path().display()
    ));
    e.ready();
    let notes: Vec<&String> = e
        .log
        .iter()
        .filter(|l| l.starts_with("info string SyzygyPath: "))
        .collect();
    assert!(notes.iter().any(|l| l.contains("magic")), "{notes:?}");
    assert!(notes.iter().any(|l| l.contains("KRvK")), "{notes:?}");
    // A position with legal moves for both pieces, so the check below can fail.
    let fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let s = e.go("depth 5");
    let board = brokkr::board::Board::<brokkr::attacks::Magic>::from_fen(fen).unwrap();
    assert!(common::is_legal(&board, &s.best), "{:?}", s.lines);
    // Without tables the search still sees the win: a queen up, not a draw.
    assert!(
        s.infos().last().is_some_and(|l| !l.contains("score cp 0")),
        "{:?}",
        s.lines
    );
    // No tables in use: no tbhits field.
    assert!(s.infos().all(|l| !l.contains("tbhits")), "{:?}", s.lines);
    e.finish();
}

#[test]
fn xboard_egtpath_loads_syzygy_tables() {
    let mut e = Engine::start(&[]);
    e.handshake_xboard();
    assert!(
        e.log.iter().any(|l| l.contains("egt=\"syzygy\"")),
        "{:?}",
        e.log
    );
    // A missing directory: a note, and the game goes on.
    e.send("egtpath syzygy /no/such/syzygy/dir");
    let lines = e.pong(1);
    assert!(
        lines.iter().any(|l| l.starts_with("# SyzygyPath: ")),
        "{lines:?}"
    );
    e.send(&format!("egtpath syzygy {}", tables()));
    let lines = e.pong(2);
    assert!(
        lines.iter().any(|l| l.starts_with("# syzygy: 38 WDL")),
        "{lines:?}"
    );
    e.send("new");
    e.send("force");
    e.send("setboard 8/8/3k4/6Pp/8/K7/8/8 w - h6 0 1");
    e.send("sd 4");
    e.send("go");
    let (mv, lines) = e.xmove();
    assert_eq!(mv, "g5h6", "{lines:?}");
    e.pong(3);
    e.finish();
}
