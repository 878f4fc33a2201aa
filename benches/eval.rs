//! Evaluations per second on a fixed set of positions, with and without the pawn
//! hash (the search runs with it).

use brokkr::attacks::{Magic, Slider};
use brokkr::bits::{BitPath, Bits};
use brokkr::board::Board;
use brokkr::eval::{evaluate, evaluate_white, NoTrace, PawnTable, Terms};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Middlegames, endgames and an opening, from the tuning sample.
fn positions<S: Slider>() -> Vec<Board<S>> {
    let text = include_str!("../tests/data/tuning-sample.txt");
    text.lines()
        .step_by(4)
        .map(|l| Board::from_fen(l.split('|').next().unwrap().trim()).unwrap())
        .collect()
}

fn bench_path<B: Bits>(c: &mut Criterion) {
    let boards = positions::<Magic>();
    let mut g = c.benchmark_group(format!("eval/{}", B::PATH));
    g.throughput(Throughput::Elements(boards.len() as u64));
    let mut table = PawnTable::new();
    g.bench_function("hashed", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for board in &boards {
                sum = sum.wrapping_add(evaluate::<B, Magic>(
                    black_box(board),
                    &mut table,
                    Terms::DEFAULT,
                ));
            }
            sum
        })
    });
    g.bench_function("no-hash", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for board in &boards {
                sum = sum.wrapping_add(
                    evaluate_white::<B, Magic, _>(
                        black_box(board),
                        None,
                        Terms::DEFAULT,
                        &mut NoTrace,
                    )
                    .value,
                );
            }
            sum
        })
    });
    g.finish();
}

fn eval(c: &mut Criterion) {
    let best = BitPath::detect();
    brokkr::with_bits!(best, B => bench_path::<B>(c));
}

criterion_group!(benches, eval);
criterion_main!(benches);
