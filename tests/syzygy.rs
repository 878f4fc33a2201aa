//! The Syzygy prober (src/syzygy) against python-chess's (`chess.syzygy`).
//!
//! `tests/data/syzygy/` holds every 3- and 4-piece table and three 5-piece ones
//! (KQRvKR, KRBvKR, KRNvKR); `tests/data/syzygy-ref.txt` holds random positions
//! of that material with python-chess's WDL and DTZ values, written by
//! `tests/data/make_syzygy_ref.py` (the command is in tests/data/SOURCES.md), so
//! this test needs no python. Every value must agree.
//!
//! The 5-piece tables with pawns are too large to commit: their reference
//! (`syzygy-ref-shared.txt`) is checked against `../shared/data/syzygy`; without
//! it that check says so loudly and fails when `CI` (or
//! `BROKKR_REQUIRE_PYTHON_CHESS=1`) is set, as CI has it.

mod common;

use brokkr::board::Board;
use brokkr::syzygy::{best_ranked, RootScale, Tablebase, TbError, Wdl};
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

/// Compare every line `FEN;WDL;DTZ` of a reference file; returns the number of
/// positions and prints the mismatches.
fn check_reference(tb: &Tablebase, text: &str) -> (usize, usize, usize) {
    let (mut n, mut wdl_bad, mut dtz_bad) = (0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split(';').collect();
        assert_eq!(f.len(), 3, "bad reference line {line}");
        let b: Board = Board::from_fen(f[0]).unwrap_or_else(|e| panic!("{}: {e:?}", f[0]));
        let want_wdl: i32 = f[1].parse().unwrap();
        let want_dtz: i32 = f[2].parse().unwrap();
        let wdl = tb.try_probe_wdl(&b).map(Wdl::value);
        let dtz = tb.try_probe_dtz(&b);
        if wdl != Ok(want_wdl) {
            wdl_bad += 1;
            if wdl_bad <= 10 {
                eprintln!("WDL {}: brokkr {wdl:?}, python-chess {want_wdl}", f[0]);
            }
        }
        if dtz != Ok(want_dtz) {
            dtz_bad += 1;
            if dtz_bad <= 10 {
                eprintln!("DTZ {}: brokkr {dtz:?}, python-chess {want_dtz}", f[0]);
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

const CURSED: &str = "8/1r1B4/8/8/8/8/4RK1k/8 w - - 0 1";
const BLESSED: &str = "8/8/3R4/8/2k1r3/K7/8/2b5 w - - 0 1";
/// A win whose zeroing move is 97 plies away: just inside the rule.
const NEAR_100: &str = "8/2R5/4b3/8/8/4k2r/8/5K2 b - - 0 1";

fn scale() -> RootScale {
    RootScale {
        win: 31_000,
        pawn: 100,
    }
}

#[test]
fn cursed_wins_and_blessed_losses() {
    let tb = tables();
    assert_eq!(probe(&tb, CURSED), (1, 102));
    assert_eq!(probe(&tb, BLESSED), (-1, -113));
    assert_eq!(tb.probe_wdl(&board(CURSED)), Some(Wdl::CursedWin));
    assert_eq!(tb.probe_wdl(&board(BLESSED)), Some(Wdl::BlessedLoss));

    // With the fifty-move rule a cursed win is worth a little more than a draw,
    // without it a win.
    let b = board(CURSED);
    let ranked = tb.rank_root_moves(&b, true, false, &scale()).unwrap();
    let best = best_ranked(&ranked);
    assert!(best.iter().all(|m| m.score > 0 && m.score < 50), "{best:?}");
    let ranked = tb.rank_root_moves(&b, false, false, &scale()).unwrap();
    assert!(best_ranked(&ranked).iter().all(|m| m.score == 31_000));

    // A blessed loss: a little less than a draw with the rule, lost without.
    let b = board(BLESSED);
    let best = best_ranked(&tb.rank_root_moves(&b, true, false, &scale()).unwrap());
    assert!(
        best.iter().all(|m| m.score < 0 && m.score > -50),
        "{best:?}"
    );
    let best = best_ranked(&tb.rank_root_moves(&b, false, false, &scale()).unwrap());
    assert!(best.iter().all(|m| m.score == -31_000), "{best:?}");
}

#[test]
fn dtz_near_the_fifty_move_boundary() {
    let tb = tables();
    assert_eq!(probe(&tb, NEAR_100), (2, 97));
    // From a fresh clock the win is safe: every kept move keeps it, within the
    // hundred plies.
    let b = board(NEAR_100);
    let best = best_ranked(&tb.rank_root_moves(&b, true, false, &scale()).unwrap());
    assert!(!best.is_empty());
    for m in &best {
        assert_eq!(m.score, 31_000);
        let after = b.with_move::<brokkr::bits::Portable>(m.mv);
        let dtz = -tb.try_probe_dtz(&after).unwrap();
        assert!(
            dtz > 0 && dtz < 99 || after.halfmove_clock() == 0,
            "{m:?} {dtz}"
        );
    }
    // Ten plies later the same position cannot be won in time: the best is a
    // small plus, and without the rule it is still a win.
    let late = board(&NEAR_100.replace(" 0 1", " 10 1"));
    let best = best_ranked(&tb.rank_root_moves(&late, true, false, &scale()).unwrap());
    assert!(best.iter().all(|m| m.score > 0 && m.score < 50), "{best:?}");
    let best = best_ranked(&tb.rank_root_moves(&late, false, false, &scale()).unwrap());
    assert!(best.iter().all(|m| m.score == 31_000), "{best:?}");
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
