//! A net made wider without changing what it computes: the hidden layer padded
//! with neurons whose weights are all zero, and the output copied into more
//! buckets. Every evaluation, and so every search, stays the same node for node,
//! so `bench --net WIDE` against the original measures what the width (or the
//! buckets) costs in speed alone, on each vector path (docs/network.md).
//!
//!     cargo run --release --example widen_net -- nets/g2a-256.nnue /tmp/w512.nnue 512 [BUCKETS]

use brokkr::nnue::file::{NetFile, MAX_BUCKETS, MAX_HIDDEN};
use std::process::ExitCode;

fn run(args: &[String]) -> Result<(), String> {
    let [input, output, hidden, rest @ ..] = args else {
        return Err("usage: widen_net IN OUT HIDDEN [BUCKETS]".into());
    };
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let net = NetFile::parse(&bytes).map_err(|e| format!("{input}: {e}"))?;
    let hidden: usize = hidden
        .parse()
        .ok()
        .filter(|&n: &usize| n >= net.hidden && n % 32 == 0 && n <= MAX_HIDDEN)
        .ok_or(format!(
            "HIDDEN: a multiple of 32 from {} to {MAX_HIDDEN}",
            net.hidden
        ))?;
    let buckets = match rest {
        [] => net.buckets,
        [b] => b
            .parse()
            .map_err(|_| format!("BUCKETS: a number, {} to {MAX_BUCKETS}", net.buckets))?,
        _ => return Err("usage: widen_net IN OUT HIDDEN [BUCKETS]".into()),
    };
    let wide = net.widened(hidden, buckets)?;
    std::fs::write(output, wide.to_bytes()).map_err(|e| format!("{output}: {e}"))?;
    println!("{output}: 768 -> {hidden}x2 -> 1, {buckets} bucket(s)");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("widen_net: {e}");
            ExitCode::from(2)
        }
    }
}
