//! `brokkr bench`: search a fixed set of positions to a fixed depth with a fresh
//! hash table, and print the node count (the search's signature: with one thread it
//! is the same on every run and for every bit path and backend) and the speed.

use super::{write_error, Args, MAX_HASH_MB, MAX_THREADS};
use crate::board::Board;
use crate::paths::Engine;
use crate::search::{self, Control, Limits, Settings, ThreadData, TranspositionTable};
use std::io::Write;
use std::time::Instant;

pub const HELP: &str = concat!(
    "\
usage: brokkr bench [DEPTH] [--threads N] [--hash MB] [--bits PATH] [--slider NAME]
                    [--net FILE | --hce] [--simd PATH]

Searches 48 positions (openings, middlegames, tactics, endgames, Chess960) to DEPTH
(default 11) with a fresh hash table each, then prints

  Nodes searched: N
  Nodes/second: R

With one thread, N is the same on every run, bit path and backend.

  DEPTH            plies, 1-64
  --threads N      search threads, 1-256 (default 1)
  --hash MB        hash table size in MiB, 1-65536 (default 16), as the Hash option
  --bits PATH      bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME    slider-attack backend (magic, pext, rotated, kindergarten,
                   rayloop, kogge-stone)
",
    super::EVAL_HELP!()
);

/// The depth `bench` searches by default.
pub const DEFAULT_DEPTH: i32 = 11;

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    run_with(args, &Settings::default(), out)
}

/// `bench` with the search switches and parameters of `base` (the UCI `bench`
/// command passes the ones `setoption` set, so a tuner sees their effect on
/// the node count); threads and evaluation come from `args`.
pub fn run_with(args: &[String], base: &Settings, out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["threads", "hash", "bits", "slider", "net", "simd"],
        &["hce"],
    )?;
    let depth = match a.positional.as_slice() {
        [] => DEFAULT_DEPTH,
        [d] => d
            .parse::<i32>()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .ok_or_else(|| format!("bad depth '{d}': expected a whole number from 1 to 64"))?,
        more => return Err(format!("unexpected arguments: {}", more[1..].join(" "))),
    };
    // The same ranges as the `Threads` and `Hash` options: a size the engine
    // refuses to play with is no size to measure it with.
    let threads = parse_range(&a, "threads", 1, 1, MAX_THREADS)?;
    let hash = parse_range(&a, "hash", 16, 1, MAX_HASH_MB)?;
    let (bits, slider) = super::search_pair(&a)?;
    let eval = super::eval_choice(&a)?;
    let settings = Settings {
        threads,
        net: eval.net,
        vector: eval.vector,
        features: base.features,
        tuning: base.tuning.clone(),
        ..Settings::default()
    };
    crate::with_engine!(bits, slider, E => bench::<E>(depth, &settings, hash, out))
}

/// The value of `--name`, a whole number from `lo` to `hi`, or `default`.
pub fn parse_range(
    a: &Args,
    name: &str,
    default: usize,
    lo: usize,
    hi: usize,
) -> Result<usize, String> {
    match a.value(name) {
        None => Ok(default),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| {
                format!("bad value for --{name} '{v}': expected a whole number from {lo} to {hi}")
            }),
    }
}

/// Run the bench; returns (nodes, seconds).
pub fn bench<E: Engine>(
    depth: i32,
    settings: &Settings,
    hash_mb: usize,
    out: &mut dyn Write,
) -> Result<(), String> {
    let evaluation = match &settings.net {
        Some(net) => format!("{} on the {} path", net.describe(), settings.vector),
        None => "the hand-written evaluation".to_string(),
    };
    super::note(&format!(
        "bench: bits {}, slider {}, {evaluation}",
        <E::Bits as crate::bits::Bits>::PATH,
        <E::Slider as crate::attacks::Slider>::KIND,
    ));
    let (nodes, secs) = run_bench::<E>(depth, settings, hash_mb, |i, fen, r| {
        super::note(&format!(
            "position {:>2}/{}: {:>9} nodes  bestmove {}  ({fen})",
            i + 1,
            search::bench::POSITIONS.len(),
            r.nodes,
            Board::<E::Slider>::from_fen(fen).map_or(String::new(), |b| b.to_uci(r.best)),
        ));
    })?;
    writeln!(out, "Nodes searched: {nodes}").map_err(write_error)?;
    writeln!(
        out,
        "Nodes/second: {}",
        (nodes as f64 / secs.max(1e-9)) as u64
    )
    .map_err(write_error)?;
    Ok(())
}

/// Search every bench position; `each` sees every result. Returns (nodes, seconds).
pub fn run_bench<E: Engine>(
    depth: i32,
    settings: &Settings,
    hash_mb: usize,
    mut each: impl FnMut(usize, &str, &search::SearchResult),
) -> Result<(u64, f64), String> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut secs = 0.0;
    let mut data = Vec::new();
    for (i, fen) in search::bench::POSITIONS.iter().enumerate() {
        let mut board = Board::<E::Slider>::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        board.set_chess960(true);
        let tt = TranspositionTable::new(hash_mb)
            .ok_or_else(|| format!("cannot allocate a {hash_mb} MB hash table"))?;
        for d in &mut data {
            ThreadData::clear(d);
        }
        let control = Control::default();
        let start = Instant::now();
        let r = search::search::<E>(
            &board,
            &[],
            &limits,
            settings,
            &tt,
            &control,
            &mut data,
            &|_| {},
        );
        secs += start.elapsed().as_secs_f64();
        nodes += r.nodes;
        each(i, fen, &r);
    }
    Ok((nodes, secs))
}
