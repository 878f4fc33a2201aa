//! The search: mates and tactics at fixed depth, draws, determinism across bit
//! paths and backends, and a legal best move after any stop.

use brokkr::attacks::{Magic, SliderKind};
use brokkr::bits::{BitPath, Portable};
use brokkr::board::Board;
use brokkr::engine::{Engine, Pair, BUILT};
use brokkr::search::score::{mate_in, MATE_IN_MAX};
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
    let after = b.with_move::<Portable>(kb8).key();
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
    // After Nf3 Nf6 Ng1 Ng8, the start position is on the board for the second
    // time; white playing Nf3 Nf6 Ng1 would repeat it... The search must still
    // return a legal move and a sane score with that history.
    let mut b = Board::<Magic>::startpos();
    let mut keys = vec![];
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        keys.push(b.key());
        let m = b.parse_uci(mv).unwrap();
        b.make::<Portable>(m);
    }
    // Black to move: f6g8 would make the start position appear a third time.
    let r = run::<Default>(
        &b,
        &keys,
        Limits {
            depth: Some(6),
            ..Limits::default()
        },
    );
    assert!(b.is_legal::<Portable>(r.best));
    let rep = b.parse_uci("f6g8").unwrap();
    if r.best == rep {
        assert_eq!(r.score, 0, "the repeating move is a draw");
    }
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

#[test]
fn node_counts_are_deterministic_on_every_built_pair() {
    let reference = signature::<Default>();
    assert_eq!(reference, signature::<Default>(), "twice in a row");
    let cpu = brokkr::bits::Cpu::detect();
    for (bits, slider) in BUILT {
        if !bits.available(&cpu) || !slider.available(&cpu) {
            continue;
        }
        let n = brokkr::with_engine!(bits, slider, E => signature::<E>());
        assert_eq!(n, reference, "{bits} {slider}");
    }
    let _ = (BitPath::Portable, SliderKind::Magic);
}

#[test]
fn the_best_move_is_legal_after_any_stop() {
    fn prop(seed: u64, plies: u8, nodes: u16) -> TestResult {
        // A random game, then a search cut off after a random number of nodes.
        let mut b = Board::<Magic>::startpos();
        let mut s = seed | 1;
        for _ in 0..plies % 80 {
            let moves = b.legal_moves::<Portable>();
            if moves.is_empty() {
                break;
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            b.make::<Portable>(moves.as_slice()[(s % moves.len() as u64) as usize]);
        }
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

#[test]
fn lazy_smp_returns_a_legal_move() {
    let b = Board::<Magic>::from_fen(brokkr::search::bench::POSITIONS[8]).unwrap();
    let tt = TranspositionTable::new(8).unwrap();
    let control = Control::default();
    let mut data = vec![];
    let settings = Settings {
        threads: 2,
        multipv: 2,
        ..Settings::default()
    };
    let r = search::<Default>(
        &b,
        &[],
        &Limits {
            depth: Some(7),
            ..Limits::default()
        },
        &settings,
        &tt,
        &control,
        &mut data,
        &|_| {},
    );
    assert!(b.is_legal::<Portable>(r.best));
    assert_eq!(data.len(), 2);
}
