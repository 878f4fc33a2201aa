//! lsb, msb and popcount on every bit path this CPU can run, over bitboards taken
//! from real positions (pieces of each kind and colour, colours, occupancy).
//!
//! Each benchmark runs one operation over the whole array; criterion's throughput is
//! set to the array length, so time / element is the cost of one operation. Every
//! element goes through `black_box`: without it the compiler vectorises the
//! portable popcount across elements (SSE2 `psadbw`), which measures a loop over an
//! array rather than one bitscan in an engine. All paths pay the same small cost
//! for it.
//!
//! Run: `cargo bench --bench bits -- --warm-up-time 1 --measurement-time 3`.

use brokkr::bits::{BitPath, Bits, Cpu};
use brokkr::with_bits;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

/// Piece placements (first FEN field) of well-known positions.
const POSITIONS: [(&str, &str); 10] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
    ),
    ("cpw-3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8"),
    (
        "cpw-4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1",
    ),
    ("cpw-5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R"),
    (
        "cpw-6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N1P/1PP1QPP1/R4RK1",
    ),
    (
        "najdorf-6.bg5",
        "rnbqkb1r/1p2pppp/p2p1n2/6B1/3NP3/2N5/PPP2PPP/R2QKB1R",
    ),
    (
        "qgd-4.bg5",
        "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR",
    ),
    ("lucena", "1K1k4/1P6/8/8/8/8/r7/2R5"),
    ("lasker-reichhelm", "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7"),
];

/// The bitboards of one placement: 12 piece boards (white PNBRQK, black pnbrqk),
/// the two colours and the occupancy.
fn boards(placement: &str) -> Vec<u64> {
    let mut pieces = [0u64; 12];
    let rows: Vec<&str> = placement.split('/').collect();
    assert_eq!(rows.len(), 8, "{placement}: 8 ranks");
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as usize;
                continue;
            }
            let kind = "pnbrqk"
                .find(c.to_ascii_lowercase())
                .unwrap_or_else(|| panic!("{placement}: bad piece '{c}'"));
            let colour = usize::from(c.is_ascii_lowercase());
            assert!(file < 8, "{placement}: rank {} too long", rank + 1);
            pieces[colour * 6 + kind] |= 1 << (rank * 8 + file);
            file += 1;
        }
        assert_eq!(file, 8, "{placement}: rank {} has {file} files", rank + 1);
    }
    let white = pieces[..6].iter().fold(0, |a, b| a | b);
    let black = pieces[6..].iter().fold(0, |a, b| a | b);
    let mut out = pieces.to_vec();
    out.extend([white, black, white | black]);
    out
}

fn bench_path<B: Bits>(c: &mut Criterion, all: &[u64], nonzero: &[u64]) {
    let name = B::PATH.name();
    let mut g = c.benchmark_group("lsb");
    g.throughput(Throughput::Elements(nonzero.len() as u64));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            black_box(nonzero)
                .iter()
                .fold(0u32, |acc, &x| acc.wrapping_add(B::lsb(black_box(x))))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("msb");
    g.throughput(Throughput::Elements(nonzero.len() as u64));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            black_box(nonzero)
                .iter()
                .fold(0u32, |acc, &x| acc.wrapping_add(B::msb(black_box(x))))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("popcount");
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            black_box(all)
                .iter()
                .fold(0u32, |acc, &x| acc.wrapping_add(B::popcount(black_box(x))))
        })
    });
    g.finish();
}

fn bits(c: &mut Criterion) {
    let all: Vec<u64> = POSITIONS.iter().flat_map(|(_, p)| boards(p)).collect();
    // lsb and msb of 0 are unspecified, so the scans only see non-empty boards.
    let nonzero: Vec<u64> = all.iter().copied().filter(|&b| b != 0).collect();
    let cpu = Cpu::detect();
    eprintln!(
        "{} boards ({} non-empty) from {} positions on {cpu}",
        all.len(),
        nonzero.len(),
        POSITIONS.len()
    );
    for path in BitPath::ALL {
        if !path.available(&cpu) {
            eprintln!("skipping {path}: not available on this CPU or build");
            continue;
        }
        with_bits!(path, B => bench_path::<B>(c, &all, &nonzero));
    }
}

criterion_group!(benches, bits);
criterion_main!(benches);
