//! Slider backends side by side: raw attack lookups, then perft.
//!
//! `lookups/NAME` times rook + bishop attacks for a fixed set of 1024 random
//! (square, occupancy) pairs, through `rook_any`/`bishop_any` (what the
//! backend costs when it must read an arbitrary occupancy) and through
//! `rook`/`bishop` with the backend's state (what the board pays; only the rotated
//! backend differs). `perft/NAME/...` runs startpos depth 4 and Kiwipete depth 3
//! on the default bit path.
//!
//! Run: `cargo bench --bench attacks` (add `-- --quick` for a short run).

use brokkr::attacks::{Slider, SliderKind};
use brokkr::bits::{BitPath, Cpu};
use brokkr::board::perft::perft;
use brokkr::board::Board;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// 1024 (square, occupancy) pairs, the occupancies about a third full, from a
/// fixed-seed xorshift so every run and every backend sees the same inputs.
fn inputs() -> Vec<(usize, u64)> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..1024)
        .map(|_| {
            let sq = (next() % 64) as usize;
            let occ = (next() & next()) | next() & next() & next();
            (sq, occ)
        })
        .collect()
}

fn lookups_any<S: Slider>(inputs: &[(usize, u64)]) -> u64 {
    let mut acc = 0u64;
    for &(sq, occ) in inputs {
        acc ^= S::rook_any(black_box(sq), occ) ^ S::bishop_any(black_box(sq), occ);
    }
    acc
}

fn lookups_state<S: Slider>(inputs: &[(usize, u64, S::State)]) -> u64 {
    let mut acc = 0u64;
    for (sq, occ, state) in inputs {
        acc ^= S::rook(state, black_box(*sq), *occ) ^ S::bishop(state, black_box(*sq), *occ);
    }
    acc
}

fn bench_backend<S: Slider>(c: &mut Criterion, inputs: &[(usize, u64)], bits: BitPath) {
    let name = S::KIND.name();
    let with_state: Vec<_> = inputs
        .iter()
        .map(|&(sq, occ)| (sq, occ, S::state_from(occ)))
        .collect();

    let mut g = c.benchmark_group("lookups");
    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.bench_function(format!("{name}/any"), |b| {
        b.iter(|| lookups_any::<S>(black_box(inputs)))
    });
    g.bench_function(format!("{name}/state"), |b| {
        b.iter(|| lookups_state::<S>(black_box(&with_state)))
    });
    g.finish();

    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let start = Board::<S>::startpos();
    let kiwi = Board::<S>::from_fen(KIWIPETE).expect("Kiwipete is a valid FEN");
    brokkr::with_bits!(bits, B => {
        g.throughput(Throughput::Elements(197_281));
        g.bench_function(format!("{name}/startpos-4"), |b| {
            b.iter(|| perft::<B, S>(black_box(&start), 4))
        });
        g.throughput(Throughput::Elements(97_862));
        g.bench_function(format!("{name}/kiwipete-3"), |b| {
            b.iter(|| perft::<B, S>(black_box(&kiwi), 3))
        });
    });
    g.finish();
}

fn backends(c: &mut Criterion) {
    let cpu = Cpu::detect();
    let bits = BitPath::default_for(&cpu).0;
    let inputs = inputs();
    for kind in SliderKind::ALL {
        if kind.available(&cpu) {
            brokkr::with_slider!(kind, S => bench_backend::<S>(c, &inputs, bits));
        }
    }
}

criterion_group!(benches, backends);
criterion_main!(benches);
