//! Measuring every bitscan/popcount path and every slider backend on this CPU, for
//! `brokkr paths`: engine authors see which technique is fastest where they run.
//!
//! Timings are medians of several short runs, so a noisy machine disturbs them
//! less; compare entries of one run with each other, as ratios.

use crate::attacks::{Magic, Slider, SliderKind};
use crate::bits::{BitPath, Bits, Cpu};
use crate::board::perft::perft;
use crate::board::Board;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Positions whose piece bitboards feed the bitscan timings, and whose perft feeds
/// the backend timings (with the depth used).
pub const POSITIONS: &[(&str, u32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
    ),
];

/// Every non-empty piece, colour and occupancy bitboard of [`POSITIONS`].
pub fn sample_bitboards() -> Vec<u64> {
    let mut out = Vec::new();
    for (fen, _) in POSITIONS {
        let b = Board::<Magic>::from_fen(fen).expect("sample FENs are valid");
        for color in crate::types::Color::BOTH {
            out.push(b.color_bb(color));
            for kind in crate::types::PieceKind::ALL {
                out.push(b.pieces(color, kind));
            }
        }
        out.push(b.occupied());
    }
    out.retain(|&b| b != 0);
    out
}

/// The median of `runs` timings of `f`, each repeated until it takes at least
/// `min` (so the timer's resolution does not matter); returns seconds per call.
fn median_time(runs: usize, min: Duration, mut f: impl FnMut()) -> f64 {
    let mut reps = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        if t.elapsed() >= min || reps >= 1 << 30 {
            break;
        }
        reps *= 2;
    }
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// Nanoseconds per operation for one bit path.
#[derive(Clone, Debug)]
pub struct BitTiming {
    pub path: BitPath,
    pub lsb_ns: f64,
    pub msb_ns: f64,
    pub popcount_ns: f64,
}

/// Nanoseconds per call of `f` over `boards`, median of several runs. `f` is a
/// type parameter, not `dyn`, so it inlines as it would in the engine.
fn time_op<F: Fn(u64) -> u32>(boards: &[u64], f: F) -> f64 {
    median_time(5, Duration::from_millis(20), || {
        let mut acc = 0u32;
        for &b in black_box(boards) {
            acc = acc.wrapping_add(f(black_box(b)));
        }
        black_box(acc);
    }) * 1e9
        / boards.len() as f64
}

/// Time lsb, msb and popcount of `B` over `boards` (all non-zero).
pub fn time_bits<B: Bits>(boards: &[u64]) -> BitTiming {
    BitTiming {
        path: B::PATH,
        lsb_ns: time_op(boards, B::lsb),
        msb_ns: time_op(boards, B::msb),
        popcount_ns: time_op(boards, B::popcount),
    }
}

/// Perft speed of one configuration over [`POSITIONS`].
#[derive(Clone, Debug)]
pub struct PerftTiming {
    /// What was timed, e.g. `main/magic/bmi`.
    pub board: &'static str,
    pub slider: Option<SliderKind>,
    pub bits: BitPath,
    pub nodes: u64,
    /// Median nodes per second.
    pub nps: f64,
}

/// Time perft of the main board with bit path `B` and backend `S`.
pub fn time_main_perft<B: Bits, S: Slider>() -> PerftTiming {
    let boards: Vec<(Board<S>, u32)> = POSITIONS
        .iter()
        .map(|&(fen, d)| (Board::<S>::from_fen(fen).expect("valid"), d))
        .collect();
    let nodes: u64 = boards.iter().map(|(b, d)| perft::<B, S>(b, *d)).sum();
    let secs = median_time(3, Duration::from_millis(1), || {
        let n: u64 = boards
            .iter()
            .map(|(b, d)| perft::<B, S>(black_box(b), *d))
            .sum();
        black_box(n);
    });
    PerftTiming {
        board: "main",
        slider: Some(S::KIND),
        bits: B::PATH,
        nodes,
        nps: nodes as f64 / secs,
    }
}

/// Time perft of the quad-bitboard board with bit path `B` and backend `S`.
pub fn time_qbb_perft<B: Bits, S: Slider>() -> PerftTiming {
    let boards: Vec<(crate::qbb::Qbb, u32)> = POSITIONS
        .iter()
        .map(|&(fen, d)| (crate::qbb::Qbb::from_fen(fen).expect("valid"), d))
        .collect();
    let nodes: u64 = boards
        .iter()
        .map(|(b, d)| crate::qbb::perft::<B, S>(b, *d))
        .sum();
    let secs = median_time(3, Duration::from_millis(1), || {
        let n: u64 = boards
            .iter()
            .map(|(b, d)| crate::qbb::perft::<B, S>(black_box(b), *d))
            .sum();
        black_box(n);
    });
    PerftTiming {
        board: "qbb",
        slider: Some(S::KIND),
        bits: B::PATH,
        nodes,
        nps: nodes as f64 / secs,
    }
}

/// Everything `brokkr paths` measures.
#[derive(Clone, Debug)]
pub struct Report {
    pub cpu: Cpu,
    pub bits: Vec<BitTiming>,
    pub perft: Vec<PerftTiming>,
}

/// Measure every available path and backend, calling `progress` before each step
/// with (step, total, label).
pub fn measure(mut progress: impl FnMut(usize, usize, &str)) -> Report {
    let cpu = Cpu::detect();
    let paths: Vec<BitPath> = BitPath::ALL
        .into_iter()
        .filter(|p| p.available(&cpu))
        .collect();
    let sliders: Vec<SliderKind> = SliderKind::ALL
        .into_iter()
        .filter(|k| k.available(&cpu))
        .collect();
    let default_bits = BitPath::default_for(&cpu).0;
    let default_slider = SliderKind::default_for(&cpu).0;
    let total = paths.len() * 2 + sliders.len();
    let mut step = 0;
    let boards = sample_bitboards();
    let mut report = Report {
        cpu: cpu.clone(),
        bits: vec![],
        perft: vec![],
    };
    for &p in &paths {
        step += 1;
        progress(step, total, &format!("bits {p}"));
        report
            .bits
            .push(crate::with_bits!(p, B => time_bits::<B>(&boards)));
    }
    // Every bit path under the default backend...
    for &p in &paths {
        step += 1;
        progress(step, total, &format!("perft main/{default_slider}/{p}"));
        let t = crate::with_bits!(p, B => crate::with_slider!(default_slider, S => time_main_perft::<B, S>()));
        report.perft.push(t);
    }
    // ...and every backend under the default bit path.
    for &k in sliders.iter().filter(|&&k| k != default_slider) {
        step += 1;
        progress(step, total, &format!("perft main/{k}/{default_bits}"));
        let t = crate::with_bits!(default_bits, B => crate::with_slider!(k, S => time_main_perft::<B, S>()));
        report.perft.push(t);
    }
    // The quad-bitboard board, with the defaults.
    step += 1;
    progress(
        step,
        total,
        &format!("perft qbb/{default_slider}/{default_bits}"),
    );
    let t = crate::with_bits!(default_bits, B => crate::with_slider!(default_slider, S => time_qbb_perft::<B, S>()));
    report.perft.push(t);
    report
}
