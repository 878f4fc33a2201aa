//! The rows `brokkr paths` measures on a CPU, and the work each row does.
//!
//! Every sampler is monomorphised for its row (the bit path, the backend, the
//! vector path are type parameters), so the timed loop runs what the engine runs;
//! only the call of the sampler itself, once a sample, goes through a pointer.

use super::{Config, Row, Sampler, Table};
use crate::attacks::{FillPath, KoggeStone, KoggeStoneState, Magic, Slider, SliderKind};
use crate::bits::{BitPath, Bits, Cpu};
use crate::board::perft::perft;
use crate::board::Board;
use crate::nnue::file::MAX_BUCKETS;
use crate::nnue::{Network, Vector, VectorPath};
use crate::paths::{resolve_perft, Engine};
use crate::qbb;
use crate::search::{self, Control, Limits, Settings, ThreadData, TranspositionTable};
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Positions whose piece bitboards feed the bitscan rows, and whose perft (one ply
/// less than the depth given) feeds the perft rows: round `r` runs position
/// `r % 6`.
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

/// How long one sample of each table lasts, about: long enough that the timer and
/// a short stall matter little, short enough that a 10 s budget holds enough rounds.
const BITSCAN_SAMPLE: Duration = Duration::from_millis(2);
const PERFT_SAMPLE: Duration = Duration::from_millis(8);
const SEARCH_SAMPLE: Duration = Duration::from_millis(25);
const NETWORK_SAMPLE: Duration = Duration::from_millis(3);
/// The hash table of a search sample, cleared before each (outside the timing).
const SEARCH_HASH_MB: usize = 8;
/// The nodes of the one search that sizes the search samples.
const SEARCH_PROBE_NODES: u64 = 20_000;

/// The bitscan operations, in the order they are shown.
pub const BIT_OPS: [&str; 3] = ["lsb", "msb", "popcount"];
/// The network operations, in the order they are shown.
pub const NETWORK_OPS: [&str; 2] = ["update", "eval"];

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

/// A repetition count that makes a run of some work last a sample's length.
struct Reps {
    n: u64,
    sample: Duration,
}

impl Reps {
    fn new(sample: Duration) -> Reps {
        Reps { n: 0, sample }
    }

    /// Finds `n` if not found yet: runs the work 1, 8, 64... times until a run
    /// lasts an eighth of the sample, then scales to the sample. Costs about a
    /// seventh of a sample.
    fn size(&mut self, work: &mut dyn FnMut(u64)) {
        if self.n > 0 {
            return;
        }
        let goal = self.sample.as_secs_f64();
        let mut n = 1u64;
        loop {
            let secs = timed(work, n);
            if secs >= goal / 8.0 || n >= 1 << 27 {
                self.n = ((n as f64 * goal / secs.max(1e-9)).ceil() as u64).clamp(1, 1 << 30);
                return;
            }
            n *= 8;
        }
    }

    /// Runs `work(n)` and answers (n, seconds), sizing `n` first if needed.
    /// One untimed run first brings the row's tables back into the caches the
    /// rows before it used: without it a row with a table (the 16-bit popcount
    /// table, say) measured 0.34 or 0.42 of the pick from one run to the next,
    /// as the rows before it in the round changed.
    fn run(&mut self, mut work: impl FnMut(u64)) -> (u64, f64) {
        self.size(&mut work);
        work(1);
        (self.n, timed(&mut work, self.n))
    }
}

/// Seconds `work(n)` takes.
fn timed(work: &mut dyn FnMut(u64), n: u64) -> f64 {
    let t = Instant::now();
    work(n);
    t.elapsed().as_secs_f64()
}

/// A bitscan row: `op` of bit path `B` over `boards`, in operations per second.
fn bitscan<B: Bits>(boards: Arc<[u64]>, op: &str) -> Sampler<'static> {
    match op {
        "lsb" => op_sampler(boards, B::lsb),
        "msb" => op_sampler(boards, B::msb),
        _ => op_sampler(boards, B::popcount),
    }
}

/// `f` is a type parameter, not a pointer, so it inlines as in the engine.
fn op_sampler<F: Fn(u64) -> u32 + 'static>(boards: Arc<[u64]>, f: F) -> Sampler<'static> {
    let mut reps = Reps::new(BITSCAN_SAMPLE);
    Box::new(move |_round| {
        let (n, secs) = reps.run(|n| {
            for _ in 0..n {
                let mut acc = 0u32;
                for &b in black_box(&boards[..]) {
                    acc = acc.wrapping_add(f(black_box(b)));
                }
                black_box(acc);
            }
        });
        n as f64 * boards.len() as f64 / secs
    })
}

/// A perft row: round `r` counts position `r % 6` of [`POSITIONS`] one ply short
/// of its depth, repeated to a sample's length, with `count` (a perft of one board
/// type); nodes per second.
fn perft_sampler<T: 'static>(boards: Vec<(T, u32)>, count: fn(&T, u32) -> u64) -> Sampler<'static> {
    let mut reps: Vec<Reps> = boards.iter().map(|_| Reps::new(PERFT_SAMPLE)).collect();
    Box::new(move |round| {
        // The warm-up round sizes every position, so no measured round does.
        if round == 0 {
            for k in 1..boards.len() {
                let (b, d) = &boards[k];
                reps[k].size(&mut |n| {
                    for _ in 0..n {
                        black_box(count(black_box(b), *d));
                    }
                });
            }
        }
        let k = round % boards.len();
        let (b, d) = &boards[k];
        let mut nodes = 0;
        let (n, secs) = reps[k].run(|n| {
            for _ in 0..n {
                nodes = count(black_box(b), *d);
            }
        });
        n as f64 * nodes as f64 / secs
    })
}

fn main_perft<B: Bits, S: Slider>() -> Sampler<'static> {
    let boards = POSITIONS
        .iter()
        .map(|&(fen, d)| (Board::<S>::from_fen(fen).expect("valid"), d - 1))
        .collect();
    perft_sampler(boards, perft::<B, S>)
}

/// Perft with the kogge-stone backend on the fill path `fill`, which the CPU
/// runs: the path is the board's state, so `KoggeStone`'s own perft serves all.
fn kogge_perft<B: Bits>(fill: FillPath) -> Sampler<'static> {
    let state = KoggeStoneState::on(fill).expect("a fill path the CPU runs");
    let boards = POSITIONS
        .iter()
        .map(|&(fen, d)| {
            let b = Board::<KoggeStone>::from_fen(fen).expect("valid");
            (b.with_fills(state), d - 1)
        })
        .collect();
    perft_sampler(boards, perft::<B, KoggeStone>)
}

fn qbb_perft<B: Bits, S: qbb::Lookup>() -> Sampler<'static> {
    let boards = POSITIONS
        .iter()
        .map(|&(fen, d)| (qbb::Qbb::from_fen(fen).expect("valid"), d - 1))
        .collect();
    perft_sampler(boards, qbb::perft::<B, S>)
}

/// A search row: round `r` searches bench position `r % 48` to `nodes` nodes with a
/// cleared hash table and histories, one thread, `net` on the vector path
/// `vector`. The search is the same on every bit path, backend and vector path,
/// so every row searches exactly the same nodes in a round.
fn search_sampler<E: Engine>(
    net: Option<Arc<Network>>,
    vector: VectorPath,
    nodes: u64,
) -> Sampler<'static> {
    let boards: Vec<Board<E::Slider>> = search::bench::POSITIONS
        .iter()
        .map(|fen| {
            let mut b = Board::from_fen(fen).expect("bench FENs are valid");
            b.set_chess960(true);
            b
        })
        .collect();
    let mut tt = TranspositionTable::new(SEARCH_HASH_MB);
    let mut data = vec![ThreadData::new()];
    let settings = Settings {
        threads: 1,
        net,
        vector,
        ..Settings::default()
    };
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    Box::new(move |round| {
        let Some(tt) = tt.as_mut() else {
            return f64::NAN;
        };
        tt.clear(1);
        data[0].clear();
        let board = &boards[round % boards.len()];
        let control = Control::default();
        let t = Instant::now();
        let r = search::search::<E>(
            board,
            &[],
            &limits,
            &settings,
            tt,
            &control,
            &mut data,
            &|_| {},
        );
        r.nodes as f64 / t.elapsed().as_secs_f64()
    })
}

/// The net the network and search rows run: the embedded one, or one of the
/// common size (256) with zero weights where the binary has none (the speed does
/// not depend on the weights).
fn measured_net() -> Network {
    Network::embedded().unwrap_or_else(|| {
        use crate::nnue::file::{NetFile, INPUTS, VERSION};
        let h = 256;
        let file = NetFile {
            version: VERSION,
            hidden: h,
            buckets: 1,
            kings: crate::nnue::file::KingLayout::NONE,
            scale: 400,
            ft_weights: vec![0; INPUTS * h],
            ft_bias: vec![0; h],
            out_weights: vec![0; 2 * h],
            out_bias: vec![0],
            psqt: vec![0; INPUTS],
        };
        Network::from_file(file, "zero net for timing")
    })
}

/// Rows spread over the feature table, as a game's moves are.
fn update_rows() -> Vec<(usize, usize)> {
    use crate::nnue::features::INPUTS;
    (0..64)
        .map(|i| ((i * 97) % INPUTS, (i * 389 + 11) % INPUTS))
        .collect()
}

/// A network row: accumulator updates (one move's change, a row added and one
/// removed, to both perspectives) or output layers per second on path `V`.
fn network_sampler<V: Vector>(v: V, net: Arc<Network>, op: &str) -> Sampler<'static> {
    use crate::nnue::network::AlignedI16;
    let h = net.hidden();
    let mut a = AlignedI16::zeroed(h);
    let mut b = AlignedI16::zeroed(h);
    let rows = update_rows();
    let mut reps = Reps::new(NETWORK_SAMPLE);
    if op == "update" {
        Box::new(move |_round| {
            let (n, secs) = reps.run(|n| {
                for _ in 0..n {
                    for &(add, sub) in &rows {
                        v.update(&mut b, &a, &[net.row(add)], &[net.row(sub)]);
                        v.update(&mut a, &b, &[net.row(sub)], &[net.row(add)]);
                    }
                }
                black_box(&a);
            });
            (n * rows.len() as u64) as f64 / secs
        })
    } else {
        Box::new(move |_round| {
            let (n, secs) = reps.run(|n| {
                for _ in 0..n * 64 {
                    black_box(net.output(
                        v,
                        (black_box(&a), &[0; MAX_BUCKETS]),
                        (black_box(&b), &[0; MAX_BUCKETS]),
                        32,
                    ));
                }
            });
            (n * 64) as f64 / secs
        })
    }
}

/// What `paths` measures on one CPU: the paths and backends it runs, and brokkr's
/// picks among them.
pub struct Plan {
    cpu: Cpu,
    bits: Vec<BitPath>,
    sliders: Vec<SliderKind>,
    fills: Vec<FillPath>,
    vectors: Vec<VectorPath>,
    default_bits: BitPath,
    default_slider: SliderKind,
}

impl Plan {
    pub fn new(cpu: &Cpu) -> Plan {
        Plan {
            cpu: cpu.clone(),
            bits: BitPath::ALL
                .into_iter()
                .filter(|p| p.available(cpu))
                .collect(),
            sliders: SliderKind::ALL
                .into_iter()
                .filter(|k| k.available(cpu))
                .collect(),
            fills: FillPath::ALL
                .into_iter()
                .filter(|f| f.available())
                .collect(),
            vectors: VectorPath::runnable(),
            default_bits: BitPath::default_for(cpu).0,
            default_slider: SliderKind::default_for(cpu).0,
        }
    }

    /// Every row (each pointing at its table's pick), its sampler, and the nodes
    /// of each search sample.
    pub fn build(&self) -> (Vec<Row>, Vec<Sampler<'static>>, u64) {
        let mut rows = Vec::new();
        let mut runs = Vec::new();
        let mut add = |table, label: String, config: Config, pick: bool, run: Sampler<'static>| {
            rows.push((
                Row {
                    table,
                    label,
                    config,
                    reference: usize::MAX,
                    rates: Vec::new(),
                },
                pick,
            ));
            runs.push(run);
        };
        self.bitscan_rows(&mut add);
        self.perft_rows(&mut add);
        let net = Arc::new(measured_net());
        let nodes = self.search_rows(&net, &mut add);
        self.network_rows(&net, &mut add);
        (link_picks(rows), runs, nodes)
    }

    fn bitscan_rows(&self, add: &mut impl FnMut(Table, String, Config, bool, Sampler<'static>)) {
        let boards: Arc<[u64]> = sample_bitboards().into();
        for &p in &self.bits {
            for op in BIT_OPS {
                let config = Config {
                    bits: Some(p),
                    op: Some(op),
                    ..Config::default()
                };
                let run = crate::with_bits!(p, B => bitscan::<B>(boards.clone(), op));
                add(
                    Table::Bitscan,
                    format!("{p} {op}"),
                    config,
                    p == self.default_bits,
                    run,
                );
            }
        }
    }

    fn perft_rows(&self, add: &mut impl FnMut(Table, String, Config, bool, Sampler<'static>)) {
        let (db, ds) = (self.default_bits, self.default_slider);
        let main = |bits, slider, fill: Option<FillPath>| Config {
            board: Some("main"),
            bits: Some(bits),
            slider: Some(slider),
            fill,
            ..Config::default()
        };
        // Every bit path under the default backend (magic or pext, each built
        // with every bit path: see `paths::PERFT_BUILT`)...
        for &p in &self.bits {
            let run = crate::with_perft_pair!(p, ds, B, S => main_perft::<B, S>());
            add(
                Table::Perft,
                format!("main/{ds}/{p}"),
                main(p, ds, None),
                p == db,
                run,
            );
        }
        // ...every other backend under the default bit path, or under `portable`
        // where perft is not built with it (the CPU's default is `asm`), and
        // kogge-stone on each fill path the CPU runs...
        for &k in self.sliders.iter().filter(|&&k| k != ds) {
            let (kb, _, _) = resolve_perft(db, k, &self.cpu);
            if k == SliderKind::KoggeStone {
                for &fill in &self.fills {
                    let run = match kb {
                        BitPath::Bmi => kogge_perft::<crate::bits::Bmi>(fill),
                        _ => kogge_perft::<crate::bits::Portable>(fill),
                    };
                    add(
                        Table::Perft,
                        format!("main/{k} {fill}/{kb}"),
                        main(kb, k, Some(fill)),
                        false,
                        run,
                    );
                }
            } else {
                let run = crate::with_perft_pair!(kb, k, B, S => main_perft::<B, S>());
                add(
                    Table::Perft,
                    format!("main/{k}/{kb}"),
                    main(kb, k, None),
                    false,
                    run,
                );
            }
        }
        // ...and the quad-bitboard board with the defaults (the CPU's default
        // backend is always one it is built for: pext or magic).
        let run = crate::with_qbb_pair!(db, ds, B, S => {
            qbb_perft::<B, S>()
        }, _k => qbb_perft::<crate::bits::Portable, Magic>());
        let config = Config {
            board: Some("qbb"),
            ..main(db, ds, None)
        };
        add(Table::Perft, format!("qbb/{ds}/{db}"), config, false, run);
    }

    /// The search rows: every built pair this CPU runs, on the vector path it
    /// would play with, and brokkr's pair on every other vector path. Answers the
    /// nodes of a sample, sized so that the pick's sample lasts about
    /// [`SEARCH_SAMPLE`].
    fn search_rows(
        &self,
        net: &Arc<Network>,
        add: &mut impl FnMut(Table, String, Config, bool, Sampler<'static>),
    ) -> u64 {
        let (pb, ps, _) = crate::paths::resolve(self.default_bits, self.default_slider, &self.cpu);
        let pv = VectorPath::best();
        let sampler = |b: BitPath, s: SliderKind, v: VectorPath, nodes: u64| crate::with_engine!(b, s, E => search_sampler::<E>(Some(net.clone()), v, nodes));
        let rate = sampler(pb, ps, pv, SEARCH_PROBE_NODES)(0);
        let nodes = if rate.is_finite() {
            (rate * SEARCH_SAMPLE.as_secs_f64()).clamp(5_000.0, 2_000_000.0) as u64
        } else {
            SEARCH_PROBE_NODES
        };
        let mut configs: Vec<(BitPath, SliderKind, VectorPath)> = crate::paths::BUILT
            .into_iter()
            .filter(|&(b, s)| b.available(&self.cpu) && s.available(&self.cpu))
            .map(|(b, s)| (b, s, pv))
            .collect();
        for &v in self.vectors.iter().filter(|&&v| v != pv) {
            configs.push((pb, ps, v));
        }
        for (b, s, v) in configs {
            let config = Config {
                bits: Some(b),
                slider: Some(s),
                vector: Some(v),
                ..Config::default()
            };
            let pick = (b, s, v) == (pb, ps, pv);
            add(
                Table::Search,
                format!("{b}/{s}/{v}"),
                config,
                pick,
                sampler(b, s, v, nodes),
            );
        }
        nodes
    }

    fn network_rows(
        &self,
        net: &Arc<Network>,
        add: &mut impl FnMut(Table, String, Config, bool, Sampler<'static>),
    ) {
        let best = VectorPath::best();
        for &p in &self.vectors {
            for op in NETWORK_OPS {
                let run = crate::with_vector!(p, V => match V::detect() {
                    Some(v) => network_sampler(v, net.clone(), op),
                    None => network_sampler(crate::nnue::vector::Portable, net.clone(), op),
                });
                let config = Config {
                    vector: Some(p),
                    op: Some(op),
                    ..Config::default()
                };
                add(Table::Network, format!("{p} {op}"), config, p == best, run);
            }
        }
    }
}

/// Point every row at its table's pick (the pick of the same operation, in the
/// bitscan and network tables).
fn link_picks(rows: Vec<(Row, bool)>) -> Vec<Row> {
    let picks: Vec<(usize, Table, Option<&'static str>)> = rows
        .iter()
        .enumerate()
        .filter(|(_, (_, pick))| *pick)
        .map(|(i, (r, _))| (i, r.table, r.config.op))
        .collect();
    rows.into_iter()
        .enumerate()
        .map(|(i, (mut row, _))| {
            row.reference = picks
                .iter()
                .find(|&&(_, t, op)| t == row.table && op == row.config.op)
                .map_or(i, |&(p, _, _)| p);
            row
        })
        .collect()
}
