//! The Syzygy prober (src/syzygy) against python-chess's (`chess.syzygy`).
//!
//! `tests/data/syzygy/` holds every 3- and 4-piece table and three 5-piece ones
//! (KQRvKR, KRBvKR, KRNvKR); `tests/data/syzygy-ref.txt` holds random positions
//! of that material with python-chess's WDL and DTZ values, written by
//! `tests/data/make_syzygy_ref.py`, and `tests/data/syzygy-edge.txt` the
//! positions at the fifty-move rule's edges that random ones miss (cursed wins,
//! blessed losses, DTZ near 100, each table's largest DTZ), written by
//! `tests/data/make_syzygy_edge.py` (the commands are in tests/data/SOURCES.md),
//! so this test needs no python. Every value must agree.
//!
//! The 5-piece tables with pawns are too large to commit: their references
//! (`syzygy-ref-shared.txt`, `syzygy-edge-shared.txt`) are checked against
//! `../shared/data/syzygy`; without it those checks say so loudly and fail when
//! `CI` (or `BROKKR_REQUIRE_PYTHON_CHESS=1`) is set, as CI has it.

mod common;

use brokkr::board::Board;
use brokkr::syzygy::{best_ranked, RootScale, Tablebase, TbError, Wdl};
use brokkr::types::Color;
use common::skipped;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn tables() -> Tablebase {
    let mut tb = Tablebase::new();
    let r = tb
        .add_directory(&data("syzygy"))
        .expect("tests/data/syzygy");
    assert!(r.rejected.is_empty(), "{:?}", r.rejected);
    tb
}

/// The tables of `../shared/data/syzygy` (all of tests/data/syzygy's and the
/// 5-piece KRPvKR and KRRvKR), or `None` after [`skipped`] says `what` did not
/// run: a failure under CI, which has them.
fn shared_tables(what: &str) -> Option<Tablebase> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/syzygy");
    let missing: Vec<&str> = ["KRPvKR", "KRRvKR"]
        .into_iter()
        .filter(|t| {
            !dir.join(format!("{t}.rtbw")).exists() || !dir.join(format!("{t}.rtbz")).exists()
        })
        .collect();
    if !missing.is_empty() {
        skipped(&format!(
            "syzygy: {} lacks {}: {what} did NOT run.\n\
             (CI has ../shared/data/syzygy; with CI set this is a failure.)",
            dir.display(),
            missing.join(", ")
        ));
        return None;
    }
    let mut tb = Tablebase::new();
    let r = tb.add_directory(&dir).expect("the shared tables");
    assert!(r.rejected.is_empty(), "{:?}", r.rejected);
    Some(tb)
}

/// The lines `FEN;WDL;DTZ` of a reference file (`#` lines are comments).
fn reference_lines(text: &str) -> Vec<(&str, i32, i32)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split(';').collect();
            assert_eq!(f.len(), 3, "bad reference line {line}");
            (f[0], f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

/// Compare every line `FEN;WDL;DTZ` of a reference file; returns the number of
/// positions and prints the mismatches.
fn check_reference(tb: &Tablebase, text: &str) -> (usize, usize, usize) {
    let (mut n, mut wdl_bad, mut dtz_bad) = (0, 0, 0);
    for (fen, want_wdl, want_dtz) in reference_lines(text) {
        let b: Board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
        let wdl = tb.try_probe_wdl(&b).map(Wdl::value);
        let dtz = tb.try_probe_dtz(&b);
        if wdl != Ok(want_wdl) {
            wdl_bad += 1;
            if wdl_bad <= 10 {
                eprintln!("WDL {fen}: brokkr {wdl:?}, python-chess {want_wdl}");
            }
        }
        if dtz != Ok(want_dtz) {
            dtz_bad += 1;
            if dtz_bad <= 10 {
                eprintln!("DTZ {fen}: brokkr {dtz:?}, python-chess {want_dtz}");
            }
        }
        n += 1;
    }
    (n, wdl_bad, dtz_bad)
}

#[test]
fn agrees_with_python_chess_on_the_reference_positions() {
    let tb = tables();
    let path = std::env::var("SYZYGY_REF")
        .map(PathBuf::from)
        .unwrap_or_else(|_| data("syzygy-ref.txt"));
    let text = std::fs::read_to_string(&path).expect("the reference file");
    let (n, wdl_bad, dtz_bad) = check_reference(&tb, &text);
    eprintln!("{n} positions: {wdl_bad} WDL and {dtz_bad} DTZ mismatches");
    assert_eq!(
        (wdl_bad, dtz_bad),
        (0, 0),
        "mismatches against python-chess"
    );
}

/// The 5-piece tables with pawns are too large to commit: checked against
/// `../shared/data/syzygy` (tests/data/syzygy-ref-shared.txt was written from
/// it), which CI has.
#[test]
fn agrees_with_python_chess_on_the_shared_five_piece_tables() {
    let Some(tb) = shared_tables("the 5-piece pawn check (syzygy-ref-shared.txt)") else {
        return;
    };
    let text = std::fs::read_to_string(data("syzygy-ref-shared.txt")).expect("reference");
    let (n, wdl_bad, dtz_bad) = check_reference(&tb, &text);
    eprintln!("{n} shared positions: {wdl_bad} WDL and {dtz_bad} DTZ mismatches");
    assert!(n >= 2000, "only {n} shared reference positions");
    assert_eq!((wdl_bad, dtz_bad), (0, 0));
}

fn edge_text() -> String {
    std::fs::read_to_string(data("syzygy-edge.txt")).expect("tests/data/syzygy-edge.txt")
}

/// Whether the side to move of `fen` is White.
fn white_to_move(fen: &str) -> bool {
    board(fen).side_to_move() == Color::White
}

/// A kind of reference line, by its WDL and DTZ.
type Kind = fn(i32, i32) -> bool;

/// Cursed wins, blessed losses, DTZ near 100 and each table's largest DTZ
/// (tests/data/syzygy-edge.txt): random positions almost never reach them.
/// Of the committed tables only KRBvKR has WDL +-1 or |DTZ| above 65 (see
/// SOURCES.md), so the first kinds are all KRBvKR's.
#[test]
fn agrees_with_python_chess_at_the_fifty_move_edges() {
    let tb = tables();
    let text = edge_text();
    let lines = reference_lines(&text);
    // The file must hold every kind, with either side to move, or this test
    // would check less than its name says.
    for white in [true, false] {
        // (kind, test, at least this many lines with each side to move)
        let kinds: [(&str, Kind, usize); 6] = [
            ("cursed wins", |w, _| w == 1, 20),
            ("blessed losses", |w, _| w == -1, 20),
            (
                "wins with DTZ 90..=100",
                |w, d| w == 2 && (90..=100).contains(&d),
                5,
            ),
            (
                "losses with DTZ -100..=-90",
                |w, d| w == -2 && (-100..=-90).contains(&d),
                5,
            ),
            (
                "cursed wins with DTZ 101 (one ply too many)",
                |w, d| w == 1 && d == 101,
                1,
            ),
            (
                "losses with DTZ -100 (the last ply)",
                |w, d| w == -2 && d == -100,
                1,
            ),
        ];
        for (kind, is, least) in kinds {
            let n = lines
                .iter()
                .filter(|&&(fen, w, d)| is(w, d) && white_to_move(fen) == white)
                .count();
            let side = if white { "White" } else { "Black" };
            assert!(
                n >= least,
                "syzygy-edge.txt: {n} {kind} with {side} to move"
            );
        }
    }
    let (n, wdl_bad, dtz_bad) = check_reference(&tb, &text);
    eprintln!("{n} edge positions: {wdl_bad} WDL and {dtz_bad} DTZ mismatches");
    assert_eq!(
        (wdl_bad, dtz_bad),
        (0, 0),
        "mismatches against python-chess"
    );
}

/// The largest DTZ python-chess found in KRPvKR and KRRvKR
/// (tests/data/syzygy-edge-shared.txt), against `../shared/data/syzygy`.
#[test]
fn agrees_with_python_chess_on_the_largest_dtz_of_the_shared_tables() {
    let Some(tb) = shared_tables("the largest-DTZ check (syzygy-edge-shared.txt)") else {
        return;
    };
    let text = std::fs::read_to_string(data("syzygy-edge-shared.txt")).expect("reference");
    let (n, wdl_bad, dtz_bad) = check_reference(&tb, &text);
    eprintln!("{n} shared edge positions: {wdl_bad} WDL and {dtz_bad} DTZ mismatches");
    assert!(n >= 8, "only {n} shared edge positions");
    assert_eq!((wdl_bad, dtz_bad), (0, 0));
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

fn probe(tb: &Tablebase, fen: &str) -> (i32, i32) {
    let b = board(fen);
    (
        tb.try_probe_wdl(&b).unwrap().value(),
        tb.try_probe_dtz(&b).unwrap(),
    )
}

#[test]
fn en_passant_can_change_the_result() {
    let tb = tables();
    // White wins only by taking en passant; without the right it loses.
    assert_eq!(probe(&tb, "8/8/3k4/6Pp/8/K7/8/8 w - h6 0 1"), (2, 1));
    assert_eq!(probe(&tb, "8/8/3k4/6Pp/8/K7/8/8 w - - 0 1"), (-2, -1));
    // Black draws by taking, and loses without.
    assert_eq!(probe(&tb, "8/8/8/8/k4pP1/5K2/8/8 b - g3 0 1"), (0, 0));
    assert_eq!(probe(&tb, "8/8/8/8/k4pP1/5K2/8/8 b - - 0 1"), (-2, -1));
    // Black wins by taking, draws without.
    assert_eq!(probe(&tb, "2k5/8/8/8/1Pp5/8/5K2/8 b - b3 0 1"), (2, 1));
    assert_eq!(probe(&tb, "2k5/8/8/8/1Pp5/8/5K2/8 b - - 0 1"), (0, 0));
}

fn scale() -> RootScale {
    RootScale {
        win: 31_000,
        pawn: 100,
    }
}

/// Every cursed win and blessed loss of tests/data/syzygy-edge.txt (python-chess's
/// WDL +1 and -1; they replace three hand-picked positions).
#[test]
fn cursed_wins_and_blessed_losses() {
    let tb = tables();
    let text = edge_text();
    let mut seen = [0, 0];
    for (fen, wdl, _) in reference_lines(&text) {
        if wdl.abs() != 1 {
            continue;
        }
        let b = board(fen);
        let want = if wdl == 1 {
            Wdl::CursedWin
        } else {
            Wdl::BlessedLoss
        };
        assert_eq!(tb.probe_wdl(&b), Some(want), "{fen}");
        // With the fifty-move rule a cursed win is worth a little more than a
        // draw and a blessed loss a little less; without it, a win and a loss.
        let best = best_ranked(&tb.rank_root_moves(&b, true, false, &scale()).unwrap());
        assert!(!best.is_empty(), "{fen}");
        assert!(
            best.iter().all(|m| m.score * wdl > 0 && m.score.abs() < 50),
            "{fen} {best:?}"
        );
        let best = best_ranked(&tb.rank_root_moves(&b, false, false, &scale()).unwrap());
        assert!(
            best.iter().all(|m| m.score == wdl * 31_000),
            "{fen} {best:?}"
        );
        seen[usize::from(wdl > 0)] += 1;
    }
    assert!(seen[0] >= 20 && seen[1] >= 20, "blessed, cursed: {seen:?}");
}

/// Every win of tests/data/syzygy-edge.txt with python-chess's DTZ from 90 to
/// 100: won with a clock of 100 - DTZ, one ply short with 101 - DTZ.
#[test]
fn dtz_near_the_fifty_move_boundary() {
    let tb = tables();
    let text = edge_text();
    let mut n = 0;
    for (fen, wdl, dtz) in reference_lines(&text) {
        if wdl != 2 || !(90..=100).contains(&dtz) {
            continue;
        }
        n += 1;
        // From a fresh clock the win is safe: every kept move keeps it, its
        // zeroing move within the hundred plies.
        let b = board(fen);
        let best = best_ranked(&tb.rank_root_moves(&b, true, false, &scale()).unwrap());
        assert!(!best.is_empty(), "{fen}");
        for m in &best {
            assert_eq!(m.score, 31_000, "{fen} {m:?}");
            let after = b.with_move::<brokkr::bits::Portable>(m.mv);
            let left = -tb.try_probe_dtz(&after).unwrap();
            assert!(
                after.halfmove_clock() == 0 || left > 0 && left < dtz.max(99),
                "{fen} {m:?} {left}"
            );
        }
        assert!(fen.ends_with(" 0 1"), "{fen}: the clocks should be 0 1");
        let with_clock = |clock: i32| board(&fen.replace(" 0 1", &format!(" {clock} 1")));
        // With the clock at 100 - DTZ the last ply still converts it.
        let just = with_clock(100 - dtz);
        let best = best_ranked(&tb.rank_root_moves(&just, true, false, &scale()).unwrap());
        assert!(best.iter().all(|m| m.score == 31_000), "{fen} {best:?}");
        // One ply later it cannot be won in time: the best is a small plus,
        // and without the rule it is still a win.
        let late = with_clock(101 - dtz);
        let best = best_ranked(&tb.rank_root_moves(&late, true, false, &scale()).unwrap());
        assert!(
            best.iter().all(|m| m.score > 0 && m.score < 50),
            "{fen} {best:?}"
        );
        let best = best_ranked(&tb.rank_root_moves(&late, false, false, &scale()).unwrap());
        assert!(best.iter().all(|m| m.score == 31_000), "{fen} {best:?}");
    }
    assert!(n >= 10, "only {n} wins with DTZ 90..=100");
}

#[test]
fn a_won_root_keeps_only_winning_moves_and_a_drawn_one_only_drawing_moves() {
    let tb = tables();
    for line in std::fs::read_to_string(data("syzygy-ref.txt"))
        .unwrap()
        .lines()
        .step_by(97)
    {
        let f: Vec<&str> = line.split(';').collect();
        let b = board(f[0]);
        let wdl: i32 = f[1].parse().unwrap();
        let Some(ranked) = tb.rank_root_moves(&b, true, false, &scale()) else {
            assert!(
                b.legal_moves::<brokkr::bits::Portable>().is_empty()
                    || b.occupied().count_ones() > 5
            );
            continue;
        };
        for m in best_ranked(&ranked) {
            let after = b.with_move::<brokkr::bits::Portable>(m.mv);
            let v = -tb.try_probe_wdl(&after).unwrap().value();
            assert_eq!(v.signum(), wdl.signum(), "{} {}", f[0], b.to_uci(m.mv));
        }
    }
}

#[test]
fn missing_directory_is_reported() {
    let (tb, notes) = Tablebase::open("/no/such/dir/for/brokkr");
    assert!(tb.is_empty());
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(matches!(
        tb.try_probe_wdl(&board("k7/8/8/8/8/8/8/KQ6 w - - 0 1")),
        Err(TbError::Missing(_))
    ));
    let (tb, notes) = Tablebase::open("<empty>");
    assert!(tb.is_empty() && notes.is_empty());
}

/// A fresh folder under cargo's test scratch space, emptied first.
fn scratch(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("syzygy-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn wrong_magic_and_wrong_size_are_rejected_when_found() {
    let dir = scratch("magic");
    std::fs::write(dir.join("KQvK.rtbw"), vec![0x55u8; 80]).unwrap();
    let mut real = std::fs::read(data("syzygy/KRvK.rtbw")).unwrap();
    real.truncate(real.len() - 7);
    std::fs::write(dir.join("KRvK.rtbw"), &real).unwrap();
    std::fs::write(dir.join("README.txt"), "not a table").unwrap();
    let (tb, notes) = Tablebase::open(dir.to_str().unwrap());
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("magic")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("size")), "{notes:?}");
    assert!(tb.is_empty());
}

/// Probe every reference position of the tables in `dir`; no panic allowed,
/// whatever the answers.
fn probe_all(dir: &Path) -> usize {
    let mut tb = Tablebase::new();
    tb.add_directory(dir).unwrap();
    let mut errors = 0;
    let text = std::fs::read_to_string(data("syzygy-ref.txt")).unwrap();
    for line in text.lines().step_by(7) {
        let b = board(line.split(';').next().unwrap());
        errors += usize::from(tb.try_probe_wdl(&b).is_err());
        errors += usize::from(tb.try_probe_dtz(&b).is_err());
        let _ = tb.rank_root_moves(&b, true, false, &scale());
    }
    errors
}

#[test]
fn truncated_and_corrupt_files_give_errors_not_panics() {
    // Cut to a table-like size: the header says more than the file holds.
    let dir = scratch("truncated");
    for name in ["KQvKR", "KRPvK", "KBNvK"] {
        for ext in ["rtbw", "rtbz"] {
            let bytes = std::fs::read(data(&format!("syzygy/{name}.{ext}"))).unwrap();
            let keep = (bytes.len() / 3) / 64 * 64 + 16;
            std::fs::write(dir.join(format!("{name}.{ext}")), &bytes[..keep]).unwrap();
        }
    }
    let mut tb = Tablebase::new();
    tb.add_directory(&dir).unwrap();
    let e = tb.try_probe_wdl(&board("7r/8/8/8/8/2k5/8/KQ6 w - - 0 1"));
    assert!(matches!(e, Err(TbError::Corrupt(_))), "{e:?}");
    probe_all(&dir);

    // Random bytes overwritten, header and data: answers may be wrong, but
    // every probe returns.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..6 {
        let dir = scratch(&format!("corrupt{round}"));
        for entry in std::fs::read_dir(data("syzygy")).unwrap() {
            let path = entry.unwrap().path();
            let mut bytes = std::fs::read(&path).unwrap();
            if path.file_name().unwrap().len() <= 11 {
                // 3- and 4-piece files only, to keep the test quick.
                let n = bytes.len();
                let hits = if round % 2 == 0 { 4 } else { 64 };
                for _ in 0..hits {
                    let at = if round < 2 {
                        4 + next() as usize % 60.min(n - 4)
                    } else {
                        4 + next() as usize % (n - 4)
                    };
                    bytes[at] = next() as u8;
                }
                std::fs::write(dir.join(path.file_name().unwrap()), bytes).unwrap();
            }
        }
        probe_all(&dir);
    }
}
