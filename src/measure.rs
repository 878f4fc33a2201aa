//! Measuring every bitscan/popcount path and every slider backend on this CPU, for
//! `brokkr paths`: engine authors see which technique is fastest where they run.
//!
//! Timings are medians of several short runs, so a noisy machine disturbs them
//! less; compare entries of one run with each other, as ratios. One such run is
//! still too noisy to act on (on a busy machine six runs named four different
//! winners), so before `brokkr paths --save` overrides the CPU's default,
//! [`compare`] re-measures the winner against the default in interleaved pairs
//! until the difference is clear of the noise, or gives up.

use crate::attacks::{FillPath, KoggeStoneOn, Magic, Slider, SliderKind};
use crate::bits::{BitPath, Bits, Cpu};
use crate::board::perft::perft;
use crate::board::Board;
use crate::codegen::net::MAX_BUCKETS;
use crate::nnue::Vector as _;
use crate::qbb;
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
    /// The fill path of a `kogge-stone` row (each path the CPU runs is a row).
    pub fill: Option<FillPath>,
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
        fill: None,
        bits: B::PATH,
        nodes,
        nps: nodes as f64 / secs,
    }
}

/// Time perft of the main board with bit path `B` and the kogge-stone fills
/// forced onto `fill` (which the CPU must run).
fn time_kogge_perft<B: Bits>(fill: FillPath) -> PerftTiming {
    let t = match fill {
        FillPath::Scalar => time_main_perft::<B, KoggeStoneOn<{ FillPath::Scalar as u8 }>>(),
        FillPath::Avx2 => time_main_perft::<B, KoggeStoneOn<{ FillPath::Avx2 as u8 }>>(),
        FillPath::Avx512 => time_main_perft::<B, KoggeStoneOn<{ FillPath::Avx512 as u8 }>>(),
    };
    PerftTiming {
        fill: Some(fill),
        ..t
    }
}

/// Time perft of the quad-bitboard board with bit path `B` and backend `S` (one
/// of the stateless lookups it is built for, see [`qbb::Lookup`]).
pub fn time_qbb_perft<B: Bits, S: qbb::Lookup>() -> PerftTiming {
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
        fill: None,
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
    /// The network's vector paths, fastest first.
    pub vectors: Vec<VectorTiming>,
}

/// One vector path of the network: how fast it updates accumulators and
/// evaluates.
#[derive(Clone, Debug)]
pub struct VectorTiming {
    pub path: crate::nnue::VectorPath,
    /// Hidden neurons of the net measured.
    pub hidden: usize,
    /// Accumulator updates per second: one move's change (a row added, one
    /// removed) applied to both perspectives, parent to child.
    pub updates_per_sec: f64,
    /// Output layers per second (both perspectives' activations times the
    /// output weights).
    pub evals_per_sec: f64,
}

/// The net `paths` measures: the embedded one, or one of the common size
/// (256) with zero weights where the binary has none (the speed does not
/// depend on the weights).
fn measured_net() -> crate::nnue::Network {
    crate::nnue::Network::embedded().unwrap_or_else(|| {
        let h = 256;
        let file = crate::codegen::net::NetFile {
            version: crate::codegen::net::VERSION,
            hidden: h,
            buckets: 1,
            scale: 400,
            ft_weights: vec![0; crate::codegen::net::INPUTS * h],
            ft_bias: vec![0; h],
            out_weights: vec![0; 2 * h],
            out_bias: vec![0],
            psqt: vec![0; crate::codegen::net::INPUTS],
        };
        crate::nnue::Network::from_file(file, "zero net for timing")
    })
}

/// Time one vector path: the median of 5 samples of each operation.
fn time_vector<V: crate::nnue::Vector>(v: V, net: &crate::nnue::Network) -> VectorTiming {
    use crate::nnue::features::INPUTS;
    let h = net.hidden();
    let mut a = crate::nnue::network::AlignedI16::zeroed(h);
    let mut b = crate::nnue::network::AlignedI16::zeroed(h);
    // Rows spread over the table, as a game's moves are.
    let rows: Vec<(usize, usize)> = (0..64)
        .map(|i| ((i * 97) % INPUTS, (i * 389 + 11) % INPUTS))
        .collect();
    let median = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs[xs.len() / 2]
    };
    let mut update_rates = Vec::new();
    let mut eval_rates = Vec::new();
    for _ in 0..5 {
        let (mut n, t) = (0u64, Instant::now());
        while t.elapsed() < SAMPLE {
            for &(add, sub) in &rows {
                // Both perspectives: two updates per move.
                v.update(&mut b, &a, &[net.row(add)], &[net.row(sub)]);
                v.update(&mut a, &b, &[net.row(sub)], &[net.row(add)]);
                n += 1;
            }
        }
        black_box(&a);
        update_rates.push(n as f64 / t.elapsed().as_secs_f64());
        let (mut n, t) = (0u64, Instant::now());
        while t.elapsed() < SAMPLE {
            for _ in 0..64 {
                black_box(net.output(
                    v,
                    (black_box(&a), &[0; MAX_BUCKETS]),
                    (black_box(&b), &[0; MAX_BUCKETS]),
                    32,
                ));
                n += 1;
            }
        }
        eval_rates.push(n as f64 / t.elapsed().as_secs_f64());
    }
    VectorTiming {
        path: V::PATH,
        hidden: h,
        updates_per_sec: median(update_rates),
        evals_per_sec: median(eval_rates),
    }
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
    let vectors = crate::nnue::VectorPath::runnable();
    // kogge-stone is timed on every fill path the CPU runs, one row each.
    let fills: Vec<FillPath> = FillPath::ALL
        .into_iter()
        .filter(|f| f.available())
        .collect();
    let extra_kogge_rows =
        if sliders.contains(&SliderKind::KoggeStone) && default_slider != SliderKind::KoggeStone {
            fills.len() - 1
        } else {
            0
        };
    let total = paths.len() * 2 + sliders.len() + extra_kogge_rows + vectors.len();
    let mut step = 0;
    let boards = sample_bitboards();
    let mut report = Report {
        cpu: cpu.clone(),
        bits: vec![],
        perft: vec![],
        vectors: vec![],
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
        if k == SliderKind::KoggeStone {
            for &fill in &fills {
                step += 1;
                progress(
                    step,
                    total,
                    &format!("perft main/{k} {fill}/{default_bits}"),
                );
                let t = crate::with_bits!(default_bits, B => time_kogge_perft::<B>(fill));
                report.perft.push(t);
            }
            continue;
        }
        step += 1;
        progress(step, total, &format!("perft main/{k}/{default_bits}"));
        let t = crate::with_bits!(default_bits, B => crate::with_slider!(k, S => time_main_perft::<B, S>()));
        report.perft.push(t);
    }
    // The quad-bitboard board, with the defaults (the CPU's default backend is
    // always one it is built for: pext or magic).
    step += 1;
    progress(
        step,
        total,
        &format!("perft qbb/{default_slider}/{default_bits}"),
    );
    let t = crate::with_bits!(default_bits, B => crate::with_qbb_slider!(default_slider, S => {
        time_qbb_perft::<B, S>()
    }, _ => time_qbb_perft::<B, Magic>()));
    report.perft.push(t);
    let net = measured_net();
    for p in vectors {
        step += 1;
        progress(step, total, &format!("network {p}"));
        let t = crate::with_vector!(p, V => match V::detect() {
            Some(v) => time_vector(v, &net),
            None => time_vector(crate::nnue::vector::Portable, &net),
        });
        report.vectors.push(t);
    }
    report
}

/// Seconds for `reps` perft passes over [`POSITIONS`] on the main board.
fn perft_passes<B: Bits, S: Slider>(boards: &[(Board<S>, u32)], reps: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..reps {
        let n: u64 = boards
            .iter()
            .map(|(b, d)| perft::<B, S>(black_box(b), *d))
            .sum();
        black_box(n);
    }
    t.elapsed().as_secs_f64()
}

/// A timer for one (bit path, backend) pair: seconds per pass over [`POSITIONS`].
fn pass_timer(bits: BitPath, slider: SliderKind) -> impl FnMut(u32) -> f64 {
    move |reps| {
        crate::with_bits!(bits, B => crate::with_slider!(slider, S => {
            let boards: Vec<(Board<S>, u32)> = POSITIONS
                .iter()
                .map(|&(fen, d)| (Board::<S>::from_fen(fen).expect("valid"), d))
                .collect();
            perft_passes::<B, S>(&boards, reps) / f64::from(reps)
        }))
    }
}

/// Each timed sample runs at least this long, so the timer and short stalls
/// matter little.
const SAMPLE: Duration = Duration::from_millis(100);
/// Paired runs before [`compare`] may stop.
pub const MIN_PAIRS: usize = 7;
/// Paired runs after which [`compare`] stops, decided or not.
pub const MAX_PAIRS: usize = 21;

/// How a candidate pair compared with the default pair in paired runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Paired runs made.
    pub pairs: usize,
    /// Median of (default time / candidate time) - 1: how much faster the
    /// candidate is, as a fraction (negative: slower).
    pub gain: f64,
    /// A 95% interval for that median (distribution-free, from order statistics).
    pub low: f64,
    pub high: f64,
}

impl Comparison {
    /// Whether the candidate is faster by more than the noise: the whole interval
    /// lies above zero.
    pub fn clearly_faster(&self) -> bool {
        self.low > 0.0
    }
}

/// The ranks of a distribution-free 95% interval for the median of `n` sorted
/// samples: `(k, n - 1 - k)`, 0-based, with `k` the largest such that
/// P(Binomial(n, 1/2) <= k) <= 2.5% (at least 0, the whole range, for small `n`).
pub fn median_interval_ranks(n: usize) -> (usize, usize) {
    let mut k = 0;
    let (mut cum, mut pmf) = (0.0, 0.5f64.powi(n as i32));
    for j in 0..n {
        cum += pmf;
        if cum > 0.025 {
            break;
        }
        k = j;
        pmf *= (n - j) as f64 / (j + 1) as f64;
    }
    let k = k.min((n.max(1) - 1) / 2);
    (k, n.max(1) - 1 - k)
}

/// The median and 95% interval of `samples`.
fn summarize(samples: &[f64]) -> (f64, f64, f64) {
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let median = if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    };
    let (lo, hi) = median_interval_ranks(n);
    (median, s[lo], s[hi])
}

/// Time the candidate pair against the default pair in interleaved runs (the
/// order alternating, so drifting load hits both alike), taking the speed ratio
/// of each pair of runs; stop once the 95% interval of the median ratio excludes
/// "equal", or after [`MAX_PAIRS`]. `progress` is called before each pair.
pub fn compare(
    candidate: (BitPath, SliderKind),
    default: (BitPath, SliderKind),
    progress: impl FnMut(usize),
) -> Comparison {
    compare_timers(
        pass_timer(candidate.0, candidate.1),
        pass_timer(default.0, default.1),
        progress,
    )
}

/// [`compare`] with its two timers given: each is asked for a number of passes
/// and answers the seconds per pass. The decision (when to stop, what the
/// interval is) depends on those answers alone, so a test can give it timings
/// of its own instead of measuring on a machine other tests are loading.
pub fn compare_timers(
    mut cand: impl FnMut(u32) -> f64,
    mut def: impl FnMut(u32) -> f64,
    mut progress: impl FnMut(usize),
) -> Comparison {
    // Repeat passes so a sample lasts at least SAMPLE on the slower of the two.
    let once = cand(1).max(def(1)).max(1e-6);
    let reps = (SAMPLE.as_secs_f64() / once).ceil().clamp(1.0, 1e6) as u32;
    let mut ratios = Vec::new();
    loop {
        progress(ratios.len() + 1);
        let (d, c) = if ratios.len() % 2 == 0 {
            let d = def(reps);
            (d, cand(reps))
        } else {
            let c = cand(reps);
            (def(reps), c)
        };
        ratios.push(d / c - 1.0);
        let (gain, low, high) = summarize(&ratios);
        let decided = low > 0.0 || high < 0.0;
        if ratios.len() >= MAX_PAIRS || (ratios.len() >= MIN_PAIRS && decided) {
            return Comparison {
                pairs: ratios.len(),
                gain,
                low,
                high,
            };
        }
    }
}
