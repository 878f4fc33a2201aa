//! The opening book: Polyglot keys against python-chess's, and books made by
//! Polyglot itself (`polyglot make-book`) played by the engine over UCI and
//! xboard, with bad books, illegal book moves and positions out of book.
//!
//! python-chess (`pip install chess==1.11.2`) and Polyglot (Debian's `polyglot`)
//! are installed in CI by `.ci/run`. Without one of them the part that needs it
//! says so loudly and fails when `CI` (or `BROKKR_REQUIRE_PYTHON_CHESS=1`) is
//! set; elsewhere it passes with the warning.

mod common;

use brokkr::attacks::Magic;
use brokkr::board::Board;
use brokkr::book::{polyglot_key, Book};
use common::{python, random_positions, s, skipped, Engine, Rng, TempDir, STARTS};
use std::path::{Path, PathBuf};
use std::process::Command;

type B = Board<Magic>;

/// The published Polyglot key of the start position.
const START_KEY: u64 = 0x463b_9618_1691_fc9c;

fn board_after(moves: &[&str]) -> B {
    common::after(&B::startpos(), moves)
}

// ---------------------------------------------------------------------------------
// Keys

#[test]
fn the_published_keys_of_the_start_and_after_e2e4() {
    assert_eq!(polyglot_key(&B::startpos()), START_KEY);
    assert_eq!(polyglot_key(&board_after(&["e2e4"])), 0x823c_9b50_fd11_4196);
}

/// Whether python-chess can be imported, or why not.
fn python_chess(py: &str) -> Result<(), String> {
    let out = Command::new(py)
        .args(["-c", "import chess.polyglot"])
        .output()
        .map_err(|e| format!("cannot run '{py}': {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "'{py}' cannot import chess.polyglot (python-chess is missing): {}",
            common::stderr(&out).trim()
        ))
    }
}

/// Positions of random games from the standard starts (not the Chess960 ones),
/// and a few made for the en-passant rule: a capturer that is pinned (the key
/// still counts the file), and pawns beside the target's neighbour but not
/// beside the pawn that moved.
fn key_positions() -> Vec<B> {
    let mut rng = Rng::new(0xb00c);
    let mut out = Vec::new();
    let standard: Vec<&str> = STARTS
        .iter()
        .copied()
        .filter(|f| {
            let castling = f.split(' ').nth(2).unwrap();
            castling.chars().all(|c| "KQkq-".contains(c))
        })
        .collect();
    for game in 0..80 {
        let start = B::from_fen(standard[game % standard.len()]).unwrap();
        let len = 20 + rng.below(120);
        let picks: Vec<u64> = (&mut rng).take(len).collect();
        out.extend(random_positions(start, picks));
    }
    for fen in [
        // b5xc6 would leave the white king on a5 to the rook.
        "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2",
        // Black to move: d4xe3 and f4xe3.
        "4k3/8/8/8/3pPp2/8/8/4K3 b - e3 0 1",
        // A white pawn on b5 is not beside the pawn on d5.
        "4k3/8/8/1P1p4/8/8/8/4K3 w - d6 0 2",
        // Black castles short only; white has lost its rights.
        "r3k2r/8/8/8/8/8/8/R3K2R b k - 3 20",
    ] {
        out.push(B::from_fen(fen).unwrap());
    }
    // The pawn on e5 may take d5 en passant.
    out.push(board_after(&["e2e4", "a7a6", "e4e5", "d7d5"]));
    out
}

#[test]
fn polyglot_keys_match_python_chess() {
    let py = python();
    if let Err(e) = python_chess(&py) {
        return skipped(&format!(
            "book: {e}\nThe Polyglot key cross-check did NOT run. Install python-chess with\n    \
             pip install chess==1.11.2\n(CI installs it in .ci/run; with CI set this is a failure.)"
        ));
    }
    let positions = key_positions();
    // brokkr keeps an en-passant square only when a pawn stands ready to take.
    let with_ep = positions.iter().filter(|b| b.ep_square().is_some()).count();
    let black = positions
        .iter()
        .filter(|b| b.side_to_move() == brokkr::types::Color::Black)
        .count();
    let rights: std::collections::BTreeSet<u8> =
        positions.iter().map(|b| b.castling_rights()).collect();
    assert!(positions.len() >= 3000, "{} positions", positions.len());
    assert!(
        with_ep >= 10,
        "only {with_ep} positions with an en-passant key"
    );
    assert!(black >= positions.len() / 3, "{black} with black to move");
    assert!(rights.len() >= 8, "castling rights seen: {rights:?}");

    let dir = TempDir::new("book-keys");
    let fens: Vec<String> = positions.iter().map(|b| b.to_fen()).collect();
    let list = dir.file("fens.txt", fens.join("\n") + "\n");
    let script = "import sys, chess, chess.polyglot\n\
                  for line in open(sys.argv[1]):\n    \
                      line = line.strip()\n    \
                      if line:\n        \
                          print('%016x' % chess.polyglot.zobrist_hash(chess.Board(line)))\n";
    let out = Command::new(&py)
        .args(["-c", script, s(&list)])
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "python failed: {}",
        common::stderr(&out)
    );
    let theirs: Vec<String> = common::stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(theirs.len(), positions.len(), "one key a position");
    let mut wrong = Vec::new();
    for ((b, fen), want) in positions.iter().zip(&fens).zip(&theirs) {
        let ours = format!("{:016x}", polyglot_key(b));
        if &ours != want {
            wrong.push(format!("{fen}: brokkr {ours}, python-chess {want}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} keys differ, such as:\n{}",
        wrong.len(),
        positions.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
    common::tell(&format!(
        "book: {} Polyglot keys agree with python-chess ({with_ep} with an en-passant file, \
         {black} with black to move, {} sets of castling rights)",
        positions.len(),
        rights.len()
    ));
}

// ---------------------------------------------------------------------------------
// Books made by Polyglot

/// Polyglot's program: on the PATH, or where Debian puts it.
fn polyglot() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join("polyglot"))
        .find(|p| p.is_file())
}

/// The test games, in UCI moves, with their results (from white's side). The
/// weights Polyglot gives a move are 2 a win and 1 a draw for the side that
/// played it, so at the start 1. e4 weighs 6 and 1. d4 weighs 1 (1. c4 lost and
/// is dropped), and after 1. e4 only c5 has weight (4).
const GAMES: &[(&[&str], &str)] = &[
    (
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1", "g8f6",
        ],
        "1-0",
    ),
    (
        &[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1", "f8e7",
        ],
        "1-0",
    ),
    (&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"], "1-0"),
    (&["d2d4", "d7d5", "c2c4", "e7e6"], "1/2-1/2"),
    (&["e2e4", "c7c5", "g1f3", "d7d6"], "0-1"),
    (&["e2e4", "c7c5", "b1c3", "b8c6"], "0-1"),
    (&["c2c4", "e7e5"], "0-1"),
];

/// The games as PGN, their moves in SAN from brokkr's own notation.
fn pgn() -> String {
    let mut out = String::new();
    for (round, (moves, result)) in GAMES.iter().enumerate() {
        out += &format!(
            "[Event \"brokkr book test\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n\
             [Round \"{}\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\n",
            round + 1
        );
        let mut b = B::startpos();
        let mut text = Vec::new();
        for (ply, mv) in moves.iter().enumerate() {
            let m = b.parse_uci(mv).unwrap();
            if ply % 2 == 0 {
                text.push(format!("{}.", ply / 2 + 1));
            }
            text.push(b.to_san(m));
            b.make::<brokkr::bits::Portable>(m);
        }
        text.push(result.to_string());
        out += &text.join(" ");
        out += "\n\n";
    }
    out
}

/// A book made by `polyglot make-book` from [`GAMES`], or `None` (with the
/// warning, or the failure under CI) without Polyglot.
fn made_book(dir: &TempDir) -> Option<PathBuf> {
    let Some(polyglot) = polyglot() else {
        skipped(
            "book: polyglot is not installed, so the books it makes were NOT tested.\n\
             Install it with `apt-get install polyglot` (CI installs it in .ci/run; with CI \
             set this is a failure).",
        );
        return None;
    };
    let pgn = dir.file("games.pgn", pgn());
    let bin = dir.join("book.bin");
    let out = Command::new(&polyglot)
        .current_dir(dir.path())
        .args([
            "make-book",
            "-pgn",
            s(&pgn),
            "-bin",
            s(&bin),
            "-min-game",
            "1",
        ])
        .output()
        .expect("run polyglot");
    assert!(
        out.status.success() && bin.is_file(),
        "polyglot make-book failed: {}{}",
        common::stdout(&out),
        common::stderr(&out)
    );
    Some(bin)
}

/// The entries of a hand-made book, as (key, move, weight), sorted.
fn write_book(path: &Path, entries: &[(u64, &str, u16)]) {
    let mut entries = entries.to_vec();
    entries.sort_by_key(|e| e.0);
    let mut bytes = Vec::new();
    for (key, mv, weight) in entries {
        let sq = |t: &[u8]| u16::from(t[0] - b'a') | u16::from(t[1] - b'1') << 3;
        let t = mv.as_bytes();
        let raw = sq(&t[2..4]) | sq(&t[0..2]) << 6;
        bytes.extend(key.to_be_bytes());
        bytes.extend(raw.to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

/// A UCI session with the book at `path` on, at `variety`.
fn with_book(path: &Path, variety: u32) -> Engine {
    let mut e = Engine::uci();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", s(path)));
    e.send(&format!("setoption name BookVariety value {variety}"));
    e.ready();
    e
}

/// The `info string` lines of the last setoption, up to `readyok`.
fn said(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.send("isready");
    e.until("readyok", |l| l == "readyok")
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// `go` with a clock at `moves`; asserts that it was answered from the book,
/// without a search, and returns the move.
fn book_move(e: &mut Engine, moves: &str) -> String {
    e.send(&format!("position startpos moves {moves}"));
    let r = e.go("wtime 60000 btime 60000");
    assert_eq!(r.infos().count(), 0, "a search ran: {:?}", r.lines);
    let strings = r.strings();
    assert!(
        strings
            .iter()
            .any(|l| l.starts_with(&format!("info string book move {} (", r.best))),
        "no book move line for {}: {:?}",
        r.best,
        r.lines
    );
    r.best
}

/// `go nodes 2000` at `moves`; asserts that it searched, and returns the lines.
fn searched(e: &mut Engine, moves: &str) -> common::Search {
    e.send(&format!("position startpos moves {moves}"));
    let r = e.go("nodes 2000");
    assert!(r.infos().count() > 0, "no search: {:?}", r.lines);
    assert!(
        !r.lines
            .iter()
            .any(|l| l.contains("book move") && l.contains('(')),
        "a book move with a search: {:?}",
        r.lines
    );
    r
}

#[test]
fn a_book_polyglot_made_agrees_with_the_keys_and_moves() {
    let dir = TempDir::new("book-made");
    let Some(bin) = made_book(&dir) else { return };
    let book = Book::open(&bin).unwrap();
    let (moves, illegal) = book.moves(&B::startpos());
    assert!(illegal.is_empty(), "{illegal:?}");
    let shown: Vec<(String, u16)> = moves
        .iter()
        .map(|&(m, w)| (B::startpos().to_uci(m), w))
        .collect();
    let weight = |mv: &str| shown.iter().find(|x| x.0 == mv).map(|x| x.1);
    assert!(weight("e2e4") > weight("d2d4"), "{shown:?}");
    assert!(weight("d2d4").is_some_and(|w| w > 0), "{shown:?}");
    // Castling, the book's e1h1, is brokkr's king-takes-rook.
    let before = board_after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
    let (moves, _) = book.moves(&before);
    let castles: Vec<String> = moves.iter().map(|&(m, _)| before.to_uci(m)).collect();
    assert_eq!(castles, ["e1g1"]);
    assert_eq!(
        moves[0].0.kind(),
        brokkr::types::MoveKind::Castling,
        "{castles:?}"
    );
}

#[test]
fn the_engine_plays_book_moves_at_once_and_searches_out_of_book() {
    let dir = TempDir::new("book-uci");
    let Some(bin) = made_book(&dir) else { return };
    let mut e = with_book(&bin, 0);
    // Variety 0: the heaviest move, every time.
    for _ in 0..5 {
        assert_eq!(book_move(&mut e, ""), "e2e4");
    }
    // Black's book move, from the games black won.
    assert_eq!(book_move(&mut e, "e2e4"), "c7c5");
    // Castling: the book's e1h1 is sent as e1g1.
    assert_eq!(book_move(&mut e, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"), "e1g1");
    // Out of book: a search.
    searched(&mut e, "a2a3");
    // Never for go infinite, nor go ponder, nor with OwnBook off.
    e.send("position startpos");
    e.send("go infinite");
    let lines = e.wait_for_nodes(1000);
    e.send("stop");
    let mut lines = lines;
    lines.extend(e.search_output().lines);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.send("go ponder wtime 60000 btime 60000");
    let lines = e.wait_for_nodes(1000);
    e.send("stop");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.search_output();
    e.send("setoption name OwnBook value false");
    searched(&mut e, "");
    e.finish();

    // A higher variety plays the lighter move too (d4: weight 1 against 6,
    // chance 29% each time at variety 100).
    let mut e = with_book(&bin, 100);
    let played: Vec<String> = (0..40).map(|_| book_move(&mut e, "")).collect();
    assert!(played.iter().any(|m| m == "d2d4"), "{played:?}");
    assert!(played.iter().any(|m| m == "e2e4"), "{played:?}");
    assert!(
        played.iter().all(|m| m == "d2d4" || m == "e2e4"),
        "{played:?}"
    );
    e.finish();
}

#[test]
fn the_engine_plays_book_moves_over_xboard() {
    let dir = TempDir::new("book-xboard");
    let Some(bin) = made_book(&dir) else { return };
    let mut e = Engine::xboard();
    for name in ["OwnBook -check 0", "BookFile -file", "BookVariety -spin"] {
        assert!(
            e.log
                .iter()
                .any(|l| l.contains(&format!("feature option=\"{name}"))),
            "{name} is not a feature: {:?}",
            e.log
        );
    }
    e.send("new");
    e.send("option OwnBook=1");
    e.send(&format!("option BookFile={}", s(&bin)));
    e.send("option BookVariety=0");
    let before = e.pong(1);
    assert!(!before.iter().any(|l| l.starts_with("Error")), "{before:?}");
    e.send("go");
    let lines = e.until("the book move", |l| l.starts_with("move "));
    assert_eq!(lines.last().unwrap(), "move e2e4", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("# book move e2e4 (")),
        "{lines:?}"
    );
    // Out of book after 1. e4 c5: the engine thinks (sd 2 keeps it short).
    e.send("sd 2");
    e.send("usermove c7c5");
    let lines = e.until("a searched move", |l| l.starts_with("move "));
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.finish();
}

#[test]
fn bad_books_are_refused_with_a_message_and_the_engine_plays_on() {
    let dir = TempDir::new("book-bad");
    let good = dir.join("good.bin");
    write_book(&good, &[(START_KEY, "g1f3", 7), (0x1234, "a2a3", 1)]);
    let mut e = Engine::uci();
    e.send("setoption name OwnBook value true");
    // Without a book: searched.
    searched(&mut e, "");
    let bad_size = dir.file("short.bin", [0u8; 17]);
    let unsorted = dir.file("garbage.bin", [[0xffu8; 16], [0u8; 16]].concat());
    let empty = dir.file("empty.bin", [0u8; 0]);
    let missing = dir.join("no-such-book.bin");
    let cases = [
        (&bad_size, "multiple of 16"),
        (&unsorted, "not sorted"),
        (&empty, "empty"),
        (&missing, "cannot read"),
    ];
    for (path, why) in &cases {
        let lines = said(
            &mut e,
            &format!("setoption name BookFile value {}", s(path)),
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("BookFile") && lines[0].contains(why),
            "{}: {lines:?}",
            s(path)
        );
        assert!(lines[0].contains("no book in use"), "{lines:?}");
    }
    searched(&mut e, "");
    // A good book, then bad ones: the good one stays.
    let lines = said(
        &mut e,
        &format!("setoption name BookFile value {}", s(&good)),
    );
    assert!(
        lines.iter().any(|l| l.contains("book: 2 entries")),
        "{lines:?}"
    );
    for (path, why) in &cases {
        let lines = said(
            &mut e,
            &format!("setoption name BookFile value {}", s(path)),
        );
        assert!(
            lines.len() == 1 && lines[0].contains(why),
            "{}: {lines:?}",
            s(path)
        );
        assert!(lines[0].contains("keeping the book in use"), "{lines:?}");
    }
    assert_eq!(book_move(&mut e, ""), "g1f3");
    // An empty BookFile unloads the book.
    assert!(said(&mut e, "setoption name BookFile value <empty>").is_empty());
    searched(&mut e, "");
    e.finish();
}

#[test]
fn book_moves_that_are_not_legal_are_passed_over() {
    let dir = TempDir::new("book-illegal");
    let after_e4 = polyglot_key(&board_after(&["e2e4"]));
    let path = dir.join("illegal.bin");
    write_book(
        &path,
        &[
            // e2e5 is no move; e1g1 is not how the book says castling (and is
            // illegal here anyway); d2d4 is the only legal one.
            (START_KEY, "e2e5", 500),
            (START_KEY, "e1g1", 400),
            (START_KEY, "d2d4", 1),
            // Only an illegal move after 1. e4 (a white move, black to move).
            (after_e4, "d2d4", 9),
        ],
    );
    let mut e = with_book(&path, 0);
    e.send("position startpos");
    let r = e.go("wtime 60000 btime 60000");
    assert_eq!(r.best, "d2d4", "{:?}", r.lines);
    assert_eq!(r.infos().count(), 0, "{:?}", r.lines);
    for mv in ["e2e5", "e1g1"] {
        assert!(
            r.strings()
                .iter()
                .any(|l| l.contains(&format!("book move {mv} is not legal in this position"))),
            "{mv}: {:?}",
            r.lines
        );
    }
    let r = searched(&mut e, "e2e4");
    assert!(
        r.strings()
            .iter()
            .any(|l| l.contains("no legal book move in this position")),
        "{:?}",
        r.lines
    );
    e.finish();
}
