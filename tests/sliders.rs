//! Every slider backend against the square walk, magic's moves and the perft
//! suites, on every bit path this CPU can run. Magic is the reference board for
//! the others, so it is anchored by the walk itself, not compared with itself.
//!
//! Node counts are capped so the whole file stays well under two minutes in release
//! on a small machine; the CLI (`brokkr perft --epd ... --slider NAME`) runs the
//! suites without caps.

mod common;

use brokkr::attacks::{
    FillPath, KoggeStone, KoggeStoneOn, KoggeStoneState, Magic, Rotated, Slider, SliderKind,
};
use brokkr::bits::{BitPath, Bits};
use brokkr::board::movegen::{Collect, MoveList};
use brokkr::board::perft::{perft, SuiteEntry};
use brokkr::board::{Board, Stage};
use brokkr::tables::*;
use brokkr::types::Move;
use common::{bit_paths, sliders, sliders_but_magic, suite, Rng};
use quickcheck::{QuickCheck, TestResult};

/// Perft every count of `entries` up to `max_nodes` (and `max_depth`); returns the
/// mismatches as messages.
fn run_suite<B: Bits, S: Slider>(
    entries: &[SuiteEntry],
    max_nodes: u64,
    max_depth: u32,
) -> (u64, Vec<String>) {
    let mut checked = 0;
    let mut errors = Vec::new();
    for e in entries {
        let board = match Board::<S>::from_fen(&e.fen) {
            Ok(b) => b,
            Err(err) => {
                errors.push(format!("line {}: bad FEN '{}': {err}", e.line, e.fen));
                continue;
            }
        };
        for &(depth, expected) in &e.counts {
            if expected > max_nodes || depth > max_depth {
                continue;
            }
            checked += 1;
            let got = perft::<B, S>(&board, depth);
            if got != expected {
                errors.push(format!(
                    "{} ({}, {}): {} depth {depth}: expected {expected}, got {got}",
                    e.line,
                    S::KIND,
                    B::PATH,
                    e.fen
                ));
            }
        }
    }
    (checked, errors)
}

/// Run a suite (every `step`-th position) for every backend on every bit path.
fn check_suite(name: &str, step: usize, max_nodes: u64, max_depth: u32) {
    let entries: Vec<_> = suite(name).into_iter().step_by(step).collect();
    assert!(!entries.is_empty(), "{name}: no positions");
    let mut errors = Vec::new();
    for kind in sliders() {
        for path in bit_paths() {
            let (checked, errs) = brokkr::with_bits!(path, B => brokkr::with_slider!(kind, S =>
                run_suite::<B, S>(&entries, max_nodes, max_depth)));
            assert!(checked > 0, "{name}: nothing checked for {kind}/{path}");
            errors.extend(errs);
        }
    }
    assert!(
        errors.is_empty(),
        "{name}: {} mismatches:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn tricky_positions() {
    check_suite("tricky.perft", 1, 200_000, 20);
}

#[test]
fn cpw_positions() {
    check_suite("cpw.epd", 1, 200_000, 20);
}

#[test]
fn standard_suite() {
    check_suite("standard.epd", 1, 200_000, 20);
}

#[test]
fn fischer_random_to_depth_3() {
    // Depth 3 of all 960 positions on the default path; every 8th on the others.
    let entries = suite("fischer.epd");
    let default = BitPath::detect();
    let mut errors = Vec::new();
    for kind in sliders() {
        for path in bit_paths() {
            let step = if path == default { 1 } else { 8 };
            let some: Vec<_> = entries.iter().step_by(step).cloned().collect();
            let (_, errs) = brokkr::with_bits!(path, B => brokkr::with_slider!(kind, S =>
                run_suite::<B, S>(&some, u64::MAX, 3)));
            errors.extend(errs);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn random_positions() {
    check_suite("random.perft", 4, 20_000, 20);
}

/// Slider attacks by stepping square by square (the reference for x-rays).
fn walk(sq: usize, occ: u64, dirs: &[(i32, i32)], xray: bool) -> u64 {
    let mut out = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut met = 0;
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            if !xray || met == 1 {
                out |= bit;
            }
            if occ & bit != 0 {
                met += 1;
                if met == if xray { 2 } else { 1 } {
                    break;
                }
            }
        }
    }
    if xray {
        out & occ
    } else {
        out
    }
}

const ROOK_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Every attack function of `S` against the square walk (magic included: the
/// walk, not another backend, is the reference).
fn check_attacks<S: Slider>(sq: usize, occ: u64) -> Result<(), String> {
    let state = S::state_from(occ);
    let rook = walk(sq, occ, &ROOK_DIRS, false);
    let bishop = walk(sq, occ, &BISHOP_DIRS, false);
    let checks = [
        ("rook", S::rook(&state, sq, occ), rook),
        ("bishop", S::bishop(&state, sq, occ), bishop),
        ("rook_any", S::rook_any(sq, occ), rook),
        ("bishop_any", S::bishop_any(sq, occ), bishop),
        (
            "rook_xray & occ",
            S::rook_xray(sq, occ) & occ,
            walk(sq, occ, &ROOK_DIRS, true),
        ),
        (
            "bishop_xray & occ",
            S::bishop_xray(sq, occ) & occ,
            walk(sq, occ, &BISHOP_DIRS, true),
        ),
    ];
    // The set-wise query, with the square as a rook and its mirror square as a
    // bishop: the union of the two walks.
    let mirror = sq ^ 7;
    let both = S::slider_attacks::<brokkr::bits::Portable>(&state, 1 << sq, 1 << mirror, occ);
    let checks = checks.into_iter().chain([(
        "slider_attacks",
        both,
        rook | walk(mirror, occ, &BISHOP_DIRS, false),
    )]);
    for (what, got, want) in checks {
        if got != want {
            return Err(format!(
                "{} {what} sq {sq} occ {occ:#018x}: got {got:#018x}, want {want:#018x}",
                S::KIND
            ));
        }
    }
    Ok(())
}

/// Occupancies of several densities from three random words.
fn occupancies(a: u64, b: u64, c: u64) -> [u64; 5] {
    [a, a & b, a & b & c, a | b, a & b & c & (c >> 7)]
}

fn attacks_match(sq: u8, a: u64, b: u64, c: u64) -> TestResult {
    let sq = (sq % 64) as usize;
    for occ in occupancies(a, b, c) {
        for kind in sliders() {
            let r = brokkr::with_slider!(kind, S => check_attacks::<S>(sq, occ));
            if let Err(e) = r {
                return TestResult::error(e);
            }
        }
    }
    TestResult::passed()
}

#[test]
fn attacks_equal_the_square_walk_on_random_occupancies() {
    QuickCheck::new()
        .tests(3000)
        .quickcheck(attacks_match as fn(u8, u64, u64, u64) -> TestResult);
}

#[test]
fn magic_equals_the_square_walk() {
    // Anchor the reference: magic itself against stepping square by square.
    let mut rng = Rng::new(1);
    for i in 0..20_000 {
        let x = rng.next_u64();
        let occ = x & (x >> (i % 3));
        let sq = i % 64;
        assert_eq!(Magic::rook_any(sq, occ), walk(sq, occ, &ROOK_DIRS, false));
        assert_eq!(
            Magic::bishop_any(sq, occ),
            walk(sq, occ, &BISHOP_DIRS, false)
        );
    }
}

/// Moves that `S` emits for one slider, sorted.
fn emitted<S: Slider>(sq: usize, own: u64, enemy: u64, targets: u64, rook: bool) -> Vec<u16> {
    let mut list = MoveList::new();
    let mut sink = Collect::<brokkr::bits::Portable>::new(&mut list);
    let state = S::state_from(own | enemy);
    if rook {
        S::rook_moves(&state, sq, own, enemy, targets, &mut sink);
    } else {
        S::bishop_moves(&state, sq, own, enemy, targets, &mut sink);
    }
    let mut v: Vec<u16> = list.iter().map(Move::bits).collect();
    v.sort_unstable();
    v
}

fn emission_matches(sq: u8, a: u64, b: u64, t: u64) -> TestResult {
    let sq = (sq % 64) as usize;
    let from = 1u64 << sq;
    let own = (a & !b) | from;
    let enemy = a & b & !from;
    // Targets as the generator makes them: all, captures, quiets, a check mask or a
    // pin line, never an own piece.
    let masks = [
        !own,
        enemy,
        !(own | enemy),
        t & !own,
        LINE[sq][(t % 64) as usize] & !own,
    ];
    for targets in masks {
        for rook in [true, false] {
            // Magic's own moves come from its attacks, checked against the walk.
            let want = emitted::<Magic>(sq, own, enemy, targets, rook);
            for kind in sliders_but_magic() {
                let got =
                    brokkr::with_slider!(kind, S => emitted::<S>(sq, own, enemy, targets, rook));
                if got != want {
                    return TestResult::error(format!(
                        "{kind} {} sq {sq} own {own:#x} enemy {enemy:#x} targets {targets:#x}",
                        if rook { "rook" } else { "bishop" }
                    ));
                }
            }
        }
    }
    TestResult::passed()
}

#[test]
fn move_emission_equals_magic() {
    QuickCheck::new()
        .tests(2000)
        .quickcheck(emission_matches as fn(u8, u64, u64, u64) -> TestResult);
}

#[test]
fn diag_indices_in_range() {
    // The rotated backend indexes its 15-byte diagonal arrays with these.
    for sq in 0..64 {
        let (rank, file) = (sq / 8, sq % 8);
        assert_eq!(ROTATED_DIAG_A1H8_INDEX[sq] as usize, 7 - rank + file);
        assert_eq!(ROTATED_DIAG_H1A8_INDEX[sq] as usize, rank + file);
        assert!(ROTATED_DIAG_A1H8_INDEX[sq] < 15 && ROTATED_DIAG_H1A8_INDEX[sq] < 15);
    }
}

#[test]
fn rotated_state_from_is_the_line_bytes() {
    let occ = 0x0000_1000_0042_8101u64 | (1 << 63);
    let s = Rotated::state_from(occ);
    for sq in 0..64 {
        let bit = occ >> sq & 1 == 1;
        let (rank, file) = (sq / 8, sq % 8);
        assert_eq!(s.rank[rank] >> file & 1 == 1, bit, "rank of {sq}");
        assert_eq!(s.file[file] >> rank & 1 == 1, bit, "file of {sq}");
        assert_eq!(
            s.diag_a1h8[7 - rank + file] >> file & 1 == 1,
            bit,
            "diag of {sq}"
        );
        assert_eq!(
            s.diag_h1a8[rank + file] >> file & 1 == 1,
            bit,
            "anti-diag of {sq}"
        );
    }
}

fn sorted(list: MoveList) -> Vec<u16> {
    let mut v: Vec<u16> = list.iter().map(Move::bits).collect();
    v.sort_unstable();
    v
}

/// Play a random game on a magic board and an `S` board side by side; at every
/// ply the staged move lists must agree, and `S`'s kept state must equal a fresh
/// one.
fn random_game<S: Slider>(fen: &str, seed: u64, plies: usize) -> Result<(), String> {
    type B = brokkr::bits::Portable;
    let reference = Board::<Magic>::from_fen(fen).map_err(|e| e.to_string())?;
    let mut board = Board::<S>::from_fen(fen).map_err(|e| e.to_string())?;
    let agree = |reference: &Board<Magic>, board: &Board<S>| -> Result<(), String> {
        if *board.slider_state() != S::state_from(board.occupied()) {
            return Err(format!(
                "{}: state differs from state_from: {}",
                S::KIND,
                board.to_fen()
            ));
        }
        for stage in [Stage::All, Stage::Captures, Stage::Quiets] {
            if sorted(board.stage_moves::<B>(stage)) != sorted(reference.stage_moves::<B>(stage)) {
                return Err(format!(
                    "{}: {stage:?} moves differ: {}",
                    S::KIND,
                    board.to_fen()
                ));
            }
        }
        Ok(())
    };
    let mut result = Ok(());
    let last = common::random_game(reference, Rng::new(seed).take(plies), |r, m| {
        if result.is_ok() {
            result = agree(r, &board);
        }
        board.make::<brokkr::bits::Portable>(m);
    });
    result?;
    agree(&last, &board)
}

fn games_agree(seed: u64, start: u8) -> TestResult {
    let fen = common::STARTS[start as usize % common::STARTS.len()];
    // Magic is the reference board; it is checked by perft and the square walk.
    for kind in sliders_but_magic() {
        if let Err(e) = brokkr::with_slider!(kind, S => random_game::<S>(fen, seed, 120)) {
            return TestResult::error(e);
        }
    }
    TestResult::passed()
}

#[test]
fn kept_state_and_staged_moves_along_random_games() {
    QuickCheck::new()
        .tests(200)
        .quickcheck(games_agree as fn(u64, u8) -> TestResult);
}

#[test]
fn every_backend_is_listed_once() {
    let names: Vec<_> = SliderKind::ALL.iter().map(|k| k.name()).collect();
    for want in [
        "magic",
        "pext",
        "rotated",
        "kindergarten",
        "rayloop",
        "kogge-stone",
    ] {
        assert_eq!(names.iter().filter(|&&n| n == want).count(), 1, "{want}");
        let k: SliderKind = want.parse().unwrap();
        assert_eq!(k.name(), want);
    }
    assert!("nonesuch".parse::<SliderKind>().is_err());
}

/// Every path of kogge-stone this CPU runs (scalar always; AVX2 and AVX-512
/// where the CPU has them) against magic, for every square of an occupancy, and
/// the set-wise fill of the pieces on some of its squares against the union of
/// their magic attacks.
fn kogge_paths_match(a: u64, b: u64, c: u64) -> TestResult {
    let states: Vec<_> = common::fill_paths()
        .into_iter()
        .filter_map(KoggeStoneState::on)
        .collect();
    for occ in occupancies(a, b, c) {
        let (straight, diagonal) = (occ & a, occ & b);
        let mut union = 0;
        for sq in 0..64 {
            let rook = Magic::rook_any(sq, occ);
            let bishop = Magic::bishop_any(sq, occ);
            union |= if straight >> sq & 1 != 0 { rook } else { 0 };
            union |= if diagonal >> sq & 1 != 0 { bishop } else { 0 };
            for s in &states {
                let (r, b) = (s.rook(sq, occ), s.bishop(sq, occ));
                if (r, b) != (rook, bishop) {
                    return TestResult::error(format!(
                        "kogge-stone {s:?} sq {sq} occ {occ:#018x}: rook {r:#018x} \
                         (magic {rook:#018x}), bishop {b:#018x} (magic {bishop:#018x})"
                    ));
                }
            }
        }
        for s in &states {
            let got = s.sliders(straight, diagonal, occ);
            if got != union {
                return TestResult::error(format!(
                    "kogge-stone {s:?} set-wise: rooks {straight:#018x}, bishops \
                     {diagonal:#018x}, occ {occ:#018x}: {got:#018x}, magic {union:#018x}"
                ));
            }
        }
    }
    TestResult::passed()
}

#[test]
fn kogge_stone_every_path_equals_magic() {
    // The board picks the widest path the CPU has.
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::is_x86_feature_detected!("avx2");
        let avx512 = avx2
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl");
        let want = if avx512 {
            FillPath::Avx512
        } else if avx2 {
            FillPath::Avx2
        } else {
            FillPath::Scalar
        };
        assert_eq!(KoggeStone::state_from(0).path(), want);
    }
    for occ in [0, !0, 0x0000_FFFF_FFFF_0000, 0xAA55_AA55_AA55_AA55] {
        assert!(!kogge_paths_match(occ, !0, !0).is_failure());
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(kogge_paths_match as fn(u64, u64, u64) -> TestResult);
}

/// The perft suites on the kogge-stone path `FILL` (`FillPath::X as u8`),
/// returning the counts checked and the mismatches.
fn kogge_suites<const FILL: u8>() -> (u64, Vec<String>) {
    let mut errors = Vec::new();
    let mut checked = 0;
    for (name, step, max_nodes) in [
        ("tricky.perft", 1, 200_000),
        ("cpw.epd", 1, 200_000),
        ("standard.epd", 1, 200_000),
        ("random.perft", 4, 20_000),
    ] {
        let entries: Vec<_> = suite(name).into_iter().step_by(step).collect();
        let (n, errs) = brokkr::with_bits!(BitPath::detect(), B =>
            run_suite::<B, KoggeStoneOn<FILL>>(&entries, max_nodes, 20));
        assert!(n > 0, "{name}: nothing checked");
        checked += n;
        errors.extend(errs);
    }
    let fischer: Vec<_> = suite("fischer.epd").into_iter().step_by(8).collect();
    let (n, errs) = brokkr::with_bits!(BitPath::detect(), B =>
        run_suite::<B, KoggeStoneOn<FILL>>(&fischer, u64::MAX, 3));
    (checked + n, errors.into_iter().chain(errs).collect())
}

#[test]
fn kogge_stone_every_path_passes_the_perft_suites() {
    // The suites above run kogge-stone on the path its state picks (the widest
    // the CPU has); this runs each narrower one through the board too.
    for path in FillPath::ALL {
        if !path.available() || path == FillPath::detect() {
            continue;
        }
        let (checked, errors) = match path {
            FillPath::Scalar => kogge_suites::<{ FillPath::Scalar as u8 }>(),
            FillPath::Avx2 => kogge_suites::<{ FillPath::Avx2 as u8 }>(),
            FillPath::Avx512 => kogge_suites::<{ FillPath::Avx512 as u8 }>(),
        };
        assert!(checked > 500, "{path}: only {checked} counts");
        assert!(errors.is_empty(), "{path}: {}", errors.join("\n"));
    }
}
