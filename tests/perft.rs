//! Perft suites: every count brokkr's main board produces must match the published
//! ones. Where each data file comes from is in tests/data/SOURCES.md.

mod common;

use brokkr::attacks::Magic;
use brokkr::bits::Portable;
use brokkr::board::perft::{parse_suite, perft, perft_copy, perft_unmake};
use brokkr::board::Board;
use common::suite;

/// Check every count of `name` up to `max_nodes` and at most `max_depth`; returns
/// how many counts were checked.
fn check(name: &str, max_nodes: u64, max_depth: u32) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for e in suite(name) {
        let board = Board::<Magic>::from_fen(&e.fen)
            .unwrap_or_else(|err| panic!("{name}:{}: {err}", e.line));
        for &(depth, expected) in &e.counts {
            if expected > max_nodes || depth > max_depth {
                continue;
            }
            let got = perft::<Portable, Magic>(&board, depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: expected {expected}, got {got}",
                    e.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked
}

#[test]
fn standard_suite_up_to_200m() {
    assert!(check("standard.epd", 200_000_000, 99) >= 750);
}

#[test]
fn cpw_suite_up_to_200m() {
    assert!(check("cpw.epd", 200_000_000, 99) >= 38);
}

#[test]
fn tricky_suite_complete() {
    assert_eq!(check("tricky.perft", u64::MAX, 99), 67);
}

#[test]
fn fischer_suite_to_depth_4() {
    assert_eq!(check("fischer.epd", u64::MAX, 4), 960 * 4);
}

#[test]
fn random_suite_with_node_budget() {
    assert!(check("random.perft", 200_000, 99) > 9_000);
}

#[test]
fn make_unmake_and_copy_make_agree() {
    for e in suite("cpw.epd") {
        let mut b = Board::<Magic>::from_fen(&e.fen).unwrap();
        let before = b;
        for &(depth, expected) in e.counts.iter().take(4) {
            assert_eq!(
                perft_unmake::<Portable, Magic>(&mut b, depth),
                expected,
                "{}",
                e.fen
            );
            assert_eq!(
                perft_copy::<Portable, Magic>(&b, depth),
                expected,
                "{}",
                e.fen
            );
        }
        assert_eq!(b, before, "make/unmake must restore the board");
    }
}

#[test]
fn suite_parser_rejects_garbage() {
    assert!(parse_suite("8/8/8/8/8/8/8/K6k w - - ;D1 x").is_err());
    assert!(parse_suite("perft 1 20").is_err());
    assert!(parse_suite("8/8/8/8/8/8/8/K6k w - - ;D21 5").is_err());
    assert!(parse_suite("epd 8/8/8/8/8/8/8/K6k w - -\nperft one 3").is_err());
    let ok = parse_suite("# comment\n\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\n").unwrap();
    assert_eq!(ok[0].counts, vec![(1, 3)]);
}

/// Perft's last ply but one knows some replies before it generates them (the
/// replying side's unpinned knights, sliders and pawns, taken from the parent
/// when the move cannot have changed them). Along random games from varied
/// starts, with every backend, depth 2 and 3 must agree with copy-make, which
/// counts every reply of every child afresh.
#[test]
fn the_last_ply_but_one_counts_as_copy_make_does() {
    fn walk<S: brokkr::attacks::Slider>(kind: brokkr::attacks::SliderKind) -> u64 {
        let mut positions = 0;
        for i in 0..common::STARTS.len() * 3 {
            let picks = common::Rng::new(i as u64 + 7).take(60);
            common::random_game(common::start::<S>(i), picks, |b, _| {
                positions += 1;
                let depth = if positions % 8 == 0 { 3 } else { 2 };
                assert_eq!(
                    perft::<Portable, S>(b, depth),
                    perft_copy::<Portable, S>(b, depth),
                    "{kind}: {} depth {depth}",
                    b.to_fen()
                );
            });
        }
        positions
    }
    for kind in common::sliders() {
        let positions = brokkr::with_slider!(kind, S => walk::<S>(kind));
        assert!(positions > 1000, "{kind}: only {positions} positions");
    }
}
