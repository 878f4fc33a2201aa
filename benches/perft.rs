//! Perft speed on the standard test positions, with make/unmake (what brokkr
//! uses) beside copy-make, for the default bit path and slider backend of this CPU.

use brokkr::attacks::Slider;
use brokkr::bits::{BitPath, Bits, Cpu};
use brokkr::board::perft::{perft, perft_copy};
use brokkr::board::Board;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const POSITIONS: &[(&str, &str, u32)] = &[
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "cpw4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
    ),
    (
        "cpw5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
    ),
];

fn run<B: Bits, S: Slider>(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("perft/{}+{}", B::PATH, S::KIND));
    group.sample_size(20);
    for &(name, fen, depth) in POSITIONS {
        let board = Board::<S>::from_fen(fen).unwrap();
        let nodes = perft::<B, S>(&board, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("make-unmake", name), &board, |b, board| {
            b.iter(|| perft::<B, S>(black_box(board), depth))
        });
        group.bench_with_input(BenchmarkId::new("copy-make", name), &board, |b, board| {
            b.iter(|| perft_copy::<B, S>(black_box(board), depth))
        });
    }
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let cpu = Cpu::detect();
    let bits = BitPath::default_for(&cpu).0;
    let slider = brokkr::attacks::SliderKind::default_for(&cpu).0;
    brokkr::with_bits!(bits, B => brokkr::with_slider!(slider, S => run::<B, S>(c)));
}

criterion_group!(benches, perft_bench);
criterion_main!(benches);
