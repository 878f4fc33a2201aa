//! The search: mates and tactics at fixed depth, draws, determinism across bit
//! paths and backends, and a legal best move after any stop.

mod common;

use brokkr::attacks::{Magic, SliderKind};
use brokkr::bits::{BitPath, Portable};
use brokkr::board::Board;
use brokkr::paths::{Engine, Pair, BUILT};
use brokkr::search::score::{mate_in, MATE, MATE_IN_MAX};
use brokkr::search::{
    search, Control, Limits, SearchResult, Settings, ThreadData, TranspositionTable,
};
use brokkr::types::Move;
use quickcheck::{QuickCheck, TestResult};

type Default = Pair<Portable, Magic>;

fn run<E: Engine>(board: &Board<E::Slider>, history: &[u64], limits: Limits) -> SearchResult {
    let tt = TranspositionTable::new(8).unwrap();
    let control = Control::default();
    let mut data = vec![ThreadData::new()];
    search::<E>(
        board,
        history,
        &limits,
        &Settings::default(),
        &tt,
        &control,
        &mut data,
        &|_| {},
    )
}

fn at_depth(fen: &str, depth: i32) -> (Board<Magic>, SearchResult) {
    let b = Board::<Magic>::from_fen(fen).unwrap();
    let r = run::<Default>(
        &b,
        &[],
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    (b, r)
}

fn best_uci(fen: &str, depth: i32) -> String {
    let (b, r) = at_depth(fen, depth);
    b.to_uci(r.best)
}

#[test]
fn finds_mates_in_two_and_three() {
    // (position, a mating first move, mate in N moves), each checked with
    // Stockfish 15.1. Where another first move mates as fast, any may be played.
    let cases = [
        (
            "r1b2k1r/ppppq3/5N1p/4P2Q/4PP2/1B6/PP5P/n2K2R1 w - - 1 1",
            "h5h6",
            2,
        ),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", 3),
        (
            "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
            "b1g6",
            3,
        ),
        ("6k1/6p1/8/6KQ/1r6/q5P1/8/8 b - - 0 1", "a3a5", 2),
    ];
    for (fen, mv, n) in cases {
        let (b, r) = at_depth(fen, 2 * n + 2);
        assert_eq!(r.score, mate_in(2 * n as usize - 1), "{fen}");
        // The known first move must be searched to the same mate.
        let only = b.parse_uci(mv).unwrap();
        let check = run::<Default>(
            &b,
            &[],
            Limits {
                depth: Some(2 * n + 2),
                searchmoves: vec![only],
                ..Limits::default()
            },
        );
        assert_eq!(check.score, r.score, "{fen}: {mv}");
    }
}

#[test]
fn finds_easy_tactics() {
    // Each checked with Stockfish 15.1.
    let cases = [
        // A knight fork of king and queen (with a pawn left to win with).
        ("6k1/3q4/8/8/4N3/8/P7/4K3 w - - 0 1", "e4f6"),
        // Win the hanging queen.
        ("4k3/8/8/3q4/8/8/3R4/3K4 w - - 0 1", "d2d5"),
    ];
    for (fen, mv) in cases {
        assert_eq!(best_uci(fen, 6), mv, "{fen}");
    }
}

#[test]
fn stalemate_and_insufficient_material_are_draws() {
    // Black to move has no legal move and is not in check.
    let (_, r) = at_depth("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4);
    assert_eq!(r.best, Move::NULL, "black is stalemated: no move to search");
    assert_eq!(r.score, 0);
    // King and bishop against king: a dead draw whatever is played.
    let (_, r) = at_depth("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", 8);
    assert_eq!(r.score, 0);
    // Two knights cannot force mate: the evaluation may differ, but no mate.
    let (_, r) = at_depth("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", 6);
    assert!(r.score.abs() < MATE_IN_MAX, "KNNK: {}", r.score);
}

#[test]
fn a_third_occurrence_from_the_game_history_is_a_draw() {
    // Black is in check and has one move, Kb8, after which white mates. If the
    // position after Kb8 is on the board for the third time, it is a draw instead.
    let b = Board::<Magic>::from_fen("k7/8/1K6/8/8/8/8/7Q b - - 10 60").unwrap();
    let kb8 = b.parse_uci("a8b8").unwrap();
    let after = b.with_move::<brokkr::bits::Portable>(kb8).key();
    let limits = || Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let lost = run::<Default>(&b, &[], limits());
    assert!(lost.score <= -MATE_IN_MAX, "{}", lost.score);
    // The game so far: that position 4 and 6 plies before the one after Kb8.
    let history = [after, 1, after, 2, 3];
    let drawn = run::<Default>(&b, &history, limits());
    assert_eq!((drawn.best, drawn.score), (kb8, 0));
    // Twice in the game is not yet a draw: a second occurrence needs the tree.
    let once = [after, 1, 4, 2, 3];
    let r = run::<Default>(&b, &once, limits());
    assert!(r.score <= -MATE_IN_MAX, "{}", r.score);
}

#[test]
fn a_repeated_history_counts_against_the_game() {
    // White is a queen up. After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Ng8 puts the
    // start position on the board for the third time: a draw, which black, lost
    // otherwise, must take.
    let mut b = Board::<Magic>::from_fen("4k1n1/8/8/8/8/8/8/3QK1N1 w - - 0 1").unwrap();
    let mut keys = vec![];
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        keys.push(b.key());
        let m = b.parse_uci(mv).unwrap();
        b.make::<brokkr::bits::Portable>(m);
    }
    let limits = || Limits {
        depth: Some(6),
        ..Limits::default()
    };
    // Without the game's history the same position is lost for black...
    let fresh = run::<Default>(&b, &[], limits());
    assert!(fresh.score < -500, "{}", fresh.score);
    // ... with it, Ng8 draws, and it is the move.
    let r = run::<Default>(&b, &keys, limits());
    assert_eq!(b.to_uci(r.best), "f6g8", "score {}", r.score);
    assert_eq!(r.score, 0, "the repeating move is a draw");
}

#[test]
fn the_fifty_move_rule_is_a_draw_unless_mated() {
    // A queen up, but the halfmove clock is at 99: any non-capture, non-pawn move
    // draws unless it mates. Qg8 is mate (the clock hits 100 on a mate, which wins).
    let fen = "k7/8/1K6/8/8/8/8/6Q1 w - - 99 120";
    let (b, r) = at_depth(fen, 4);
    assert_eq!(b.to_uci(r.best), "g1g8", "mate beats the fifty-move rule");
    assert!(r.score >= MATE_IN_MAX);
    // Without a mate in one, everything is a draw.
    let fen = "k7/8/8/2K5/8/8/8/6Q1 w - - 99 120";
    let (_, r) = at_depth(fen, 4);
    assert_eq!(r.score, 0, "fifty moves");
}

/// Bench-like node counts at a small depth: equal on every run and every built
/// (bit path, backend) pair.
fn signature<E: Engine>() -> u64 {
    brokkr::search::bench::POSITIONS
        .iter()
        .take(20)
        .map(|fen| {
            let mut b = Board::<E::Slider>::from_fen(fen).unwrap();
            b.set_chess960(true);
            run::<E>(
                &b,
                &[],
                Limits {
                    depth: Some(5),
                    ..Limits::default()
                },
            )
            .nodes
        })
        .sum()
}

/// With one thread the search is the same on every run and on every built
/// (bit path, backend) pair. The default pair is checked against itself run
/// twice; every other pair against the default pair.
#[test]
fn node_counts_are_deterministic_on_every_built_pair() {
    let reference = signature::<Default>();
    assert_eq!(reference, signature::<Default>(), "twice in a row");
    let mut others = 0;
    for (bits, slider) in BUILT {
        if (bits, slider) == (BitPath::Portable, SliderKind::Magic)
            || !bits.available(common::cpu())
            || !slider.available(common::cpu())
        {
            continue;
        }
        let n = brokkr::with_engine!(bits, slider, E => signature::<E>());
        assert_eq!(n, reference, "{bits} {slider}");
        others += 1;
    }
    // table, asm and extern with magic run on every x86-64 CPU.
    assert!(others >= 3, "only {others} other pairs ran");
}

/// `brokkr bench`'s node count (48 positions to depth 11, one thread): the
/// search's signature, which commit messages quote. Written here and nowhere
/// else: a commit that changes the search changes this number, and says so.
const BENCH_NODES: u64 = 2_132_524;

#[test]
fn bench_prints_the_known_node_count() {
    let out = common::brokkr_ok(&["bench"]);
    let nodes: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in: {out}"));
    assert_eq!(
        nodes, BENCH_NODES,
        "brokkr bench searched {nodes} nodes: if the search changed, put the new \
         count in BENCH_NODES (tests/search.rs) and in the commit message"
    );
}

#[test]
fn the_best_move_is_legal_after_any_stop() {
    fn prop(seed: u64, plies: u8, nodes: u16) -> TestResult {
        // A random game, then a search cut off after a random number of nodes.
        let b = common::random_game(
            Board::<Magic>::startpos(),
            common::Rng::new(seed).take(usize::from(plies % 80)),
            |_, _| {},
        );
        let has_moves = !b.legal_moves::<Portable>().is_empty();
        let r = run::<Default>(
            &b,
            &[],
            Limits {
                nodes: Some(1 + nodes as u64 % 3000),
                ..Limits::default()
            },
        );
        if has_moves {
            TestResult::from_bool(b.is_legal::<Portable>(r.best))
        } else {
            TestResult::from_bool(r.best.is_null())
        }
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u64, u8, u16) -> TestResult);
}

#[test]
fn a_node_limit_stops_the_search_near_it() {
    let b = Board::<Magic>::startpos();
    let r = run::<Default>(
        &b,
        &[],
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    assert!(r.nodes >= 20_000 && r.nodes < 21_000, "{}", r.nodes);
}

#[test]
fn searchmoves_restricts_the_root() {
    let b = Board::<Magic>::startpos();
    let only = b.parse_uci("h2h3").unwrap();
    let r = run::<Default>(
        &b,
        &[],
        Limits {
            depth: Some(6),
            searchmoves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(r.best, only);
}

/// Lazy SMP on 2 and 4 threads over every bench position, at a node limit:
/// each best move legal, its line legal from it, its expected reply legal, and
/// a score that is a score (within the evaluation's range, or a mate score). The shared table and the
/// helpers' own data are reused from position to position, as in a game.
#[test]
fn lazy_smp_on_many_positions_gives_legal_moves_and_sane_scores() {
    for threads in [2, 4] {
        let tt = TranspositionTable::new(4).unwrap();
        let mut data = vec![];
        let settings = Settings {
            threads,
            ..Settings::default()
        };
        for fen in brokkr::search::bench::POSITIONS {
            let mut b = Board::<Magic>::from_fen(fen).unwrap();
            b.set_chess960(true);
            let limits = Limits {
                nodes: Some(20_000),
                ..Limits::default()
            };
            let r = search::<Default>(
                &b,
                &[],
                &limits,
                &settings,
                &tt,
                &Control::default(),
                &mut data,
                &|_| {},
            );
            let at = format!("{threads} threads, {fen}");
            assert!(b.is_legal::<Portable>(r.best), "{at}: best {:?}", r.best);
            assert_eq!(r.pv.first(), Some(&r.best), "{at}: pv {:?}", r.pv);
            let mut line = b;
            for &m in &r.pv {
                assert!(line.is_legal::<Portable>(m), "{at}: pv {:?}", r.pv);
                line.make::<brokkr::bits::Portable>(m);
            }
            if let Some(p) = r.ponder {
                assert!(
                    b.with_move::<brokkr::bits::Portable>(r.best)
                        .is_legal::<Portable>(p),
                    "{at}: ponder"
                );
            }
            assert!(r.depth >= 1, "{at}: {r:?}");
            if r.score.abs() >= MATE_IN_MAX {
                assert!(r.score.abs() <= MATE, "{at}: {r:?}");
            } else {
                // Only a proven mate ends a search before its node limit.
                assert!(r.score.abs() < 10_000, "{at}: {r:?}");
                assert!(r.nodes >= 20_000, "{at}: {r:?}");
            }
        }
        assert_eq!(data.len(), threads);
    }
}
