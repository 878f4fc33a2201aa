//! The quad-bitboard board against the perft suites and against the main board.

mod common;

use brokkr::attacks::{FillPath, KoggeStoneOn, Magic, Slider, SliderKind};
use brokkr::bits::{BitPath, Bits, Portable};
use brokkr::board::perft::{perft as main_perft, SuiteEntry};
use brokkr::board::Board;
use brokkr::qbb::Lookup;
use brokkr::qbb::{self, Qbb};
use brokkr::types::{Move, PieceKind};
use common::{bit_paths, cpu, sliders, suite, Rng};
use quickcheck::{QuickCheck, TestResult};

/// Check every count of `entries` up to `max_depth` and `max_nodes` with the bit
/// path `B` and backend `S`; returns how many counts were checked.
fn check<B: Bits, S: Lookup>(entries: &[SuiteEntry], max_depth: u32, max_nodes: u64) -> usize {
    let mut checked = 0;
    let mut bad = Vec::new();
    for e in entries {
        let q = Qbb::from_fen(&e.fen).unwrap_or_else(|err| panic!("line {}: {err}", e.line));
        for &(depth, expected) in &e.counts {
            if depth > max_depth || expected > max_nodes {
                continue;
            }
            let got = qbb::perft::<B, S>(&q, depth);
            checked += 1;
            if got != expected {
                bad.push(format!(
                    "line {} {} depth {depth}: expected {expected}, got {got}",
                    e.line, e.fen
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatch(es) ({:?}/{:?}):\n{}",
        bad.len(),
        B::PATH,
        S::KIND,
        bad.join("\n")
    );
    checked
}

/// `check` with the bit path and backend the CLI picks on this CPU.
fn check_default(entries: &[SuiteEntry], max_depth: u32, max_nodes: u64) -> usize {
    let bits = BitPath::default_for(cpu()).0;
    let slider = SliderKind::default_for(cpu()).0;
    brokkr::with_bits!(bits, B => brokkr::with_qbb_slider!(slider, S => {
        check::<B, S>(entries, max_depth, max_nodes)
    }, other => panic!("the CPU default backend {other} is one qbb is built for")))
}

#[test]
fn tricky_suite_on_every_path_and_backend() {
    let entries = suite("tricky.perft");
    let mut runs = 0;
    for bits in bit_paths() {
        for slider in sliders().into_iter().filter(|&k| qbb::supports(k)) {
            let checked = brokkr::with_bits!(bits, B => brokkr::with_qbb_slider!(slider, S => {
                check::<B, S>(&entries, u32::MAX, u64::MAX)
            }, other => unreachable!("{other} is not built for qbb")));
            assert!(checked > 50, "only {checked} counts in tricky.perft");
            runs += 1;
        }
    }
    assert!(runs >= 2, "the portable path and magic backend always run");
}

/// Kogge-stone on this board, on every fill path this CPU runs (the loop above
/// takes only the path the CPU picks).
#[test]
fn tricky_suite_on_every_kogge_stone_fill_path() {
    let entries = suite("tricky.perft");
    let mut runs = 0;
    for path in common::fill_paths() {
        let checked = match path {
            FillPath::Scalar => {
                check::<Portable, KoggeStoneOn<{ FillPath::Scalar as u8 }>>(&entries, 4, u64::MAX)
            }
            FillPath::Avx2 => {
                check::<Portable, KoggeStoneOn<{ FillPath::Avx2 as u8 }>>(&entries, 4, u64::MAX)
            }
            FillPath::Avx512 => {
                check::<Portable, KoggeStoneOn<{ FillPath::Avx512 as u8 }>>(&entries, 4, u64::MAX)
            }
        };
        assert!(
            checked > 50,
            "{path:?}: only {checked} counts in tricky.perft"
        );
        runs += 1;
    }
    assert!(runs >= 1, "the scalar fills always run");
}

#[test]
fn qbb_is_built_for_the_stateless_lookups_only() {
    let built: Vec<SliderKind> = SliderKind::ALL
        .into_iter()
        .filter(|&k| qbb::supports(k))
        .collect();
    assert_eq!(
        built,
        [
            SliderKind::Magic,
            SliderKind::Pext,
            SliderKind::Kindergarten,
            SliderKind::KoggeStone
        ]
    );
    // The macro agrees with `supports` for every backend.
    for k in SliderKind::ALL {
        let dispatched = brokkr::with_qbb_slider!(k, S => S::KIND == k, _other => false);
        assert_eq!(dispatched, qbb::supports(k), "{k}");
    }
}

#[test]
fn standard_suite() {
    assert!(check_default(&suite("standard.epd"), u32::MAX, 2_000_000) > 500);
}

#[test]
fn cpw_suite() {
    assert!(check_default(&suite("cpw.epd"), u32::MAX, 20_000_000) > 25);
}

#[test]
fn fischer_suite_to_depth_4() {
    let entries = suite("fischer.epd");
    assert_eq!(entries.len(), 960);
    assert_eq!(check_default(&entries, 4, u64::MAX), 4 * 960);
}

#[test]
fn random_suite() {
    assert!(check_default(&suite("random.perft"), u32::MAX, 200_000) > 9_000);
}

fn sorted(mut moves: Vec<Move>) -> Vec<u16> {
    moves.sort_by_key(|m| m.bits());
    moves.into_iter().map(|m| m.bits()).collect()
}

/// Play a random legal game of up to `plies` from `start` on both boards. At every
/// ply the incrementally made qbb must equal the conversion of the main board,
/// derive the same piece sets and generate the same moves; at the end perft(2)
/// must agree.
fn random_game(start: Board<Magic>, seed: u64, plies: usize) -> Result<(), String> {
    type B = Portable;
    let mut rng = Rng::new(seed);
    let mut board = start;
    let mut q = Qbb::from_board(&board);
    for ply in 0..=plies {
        let fen = board.to_fen();
        if q != Qbb::from_board(&board) {
            return Err(format!(
                "ply {ply}: made qbb differs from conversion of {fen}"
            ));
        }
        let flip = |bb: u64| {
            if q.black_to_move() {
                bb.swap_bytes()
            } else {
                bb
            }
        };
        for kind in PieceKind::ALL {
            if flip(q.kind_bb(kind)) != board.kind_bb(kind) {
                return Err(format!("{fen}: {kind:?} set differs"));
            }
        }
        if flip(q.us()) != board.color_bb(board.side_to_move())
            || q.side_to_move() != board.side_to_move()
        {
            return Err(format!("{fen}: side to move differs"));
        }
        let main_moves: Vec<Move> = board.legal_moves::<B>().iter().collect();
        let q_moves = q.legal_moves::<B, Magic>();
        let q_abs: Vec<Move> = q_moves.iter().map(|m| q.to_absolute(m)).collect();
        if sorted(main_moves.clone()) != sorted(q_abs) {
            return Err(format!("{fen}: legal moves differ"));
        }
        if q.count_moves::<B, Magic>() != main_moves.len() as u64 {
            return Err(format!("{fen}: bulk count differs from the move list"));
        }
        if ply == plies || main_moves.is_empty() {
            break;
        }
        let m = main_moves[rng.below(main_moves.len())];
        board.make::<B>(m);
        q = q.make(q.to_relative(m));
    }
    let (want, got) = (
        main_perft::<B, Magic>(&board, 2),
        qbb::perft::<B, Magic>(&q, 2),
    );
    if want != got {
        return Err(format!(
            "{}: perft(2) main {want}, qbb {got}",
            board.to_fen()
        ));
    }
    Ok(())
}

#[test]
fn random_games_from_the_start_position_agree() {
    fn prop(seed: u64, plies: u8) -> TestResult {
        match random_game(Board::startpos(), seed, plies as usize % 120) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u64, u8) -> TestResult);
}

/// The Chess960 start positions of fischer.epd, read once.
fn fischer_fens() -> &'static [String] {
    static FENS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FENS.get_or_init(|| suite("fischer.epd").into_iter().map(|e| e.fen).collect())
}

#[test]
fn random_games_from_fischer_positions_agree() {
    fn prop(pick: u16, seed: u64, plies: u8) -> TestResult {
        let fens = fischer_fens();
        let fen = &fens[pick as usize % fens.len()];
        let start = Board::from_fen(fen).expect("fischer.epd parses");
        match random_game(start, seed, plies as usize % 120) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(format!("from {fen}: {e}")),
        }
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u16, u64, u8) -> TestResult);
}
