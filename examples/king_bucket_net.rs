//! A net without king buckets made into one with them, computing what it did
//! (for a layout without mirroring): its input weights and PSQT rows copied into
//! every king bucket, as `brokkr train --init FILE --king-buckets LAYOUT` starts
//! (through the trainer's `Net::grown`). `bench --net OUT` then searches the
//! same nodes as `bench --net IN`, so the nodes a second measure what the king
//! buckets' refreshes cost alone (docs/network.md). With a mirrored layout the
//! evaluation is only close, and the node count differs.
//!
//!     cargo run --release --example king_bucket_net -- nets/g2a-256.nnue /tmp/k4.nnue ranks4

use brokkr::nnue::features::layout;
use brokkr::nnue::file::NetFile;
use brokkr::nnue::train::{dequantise, Shape};
use std::process::ExitCode;

fn run(args: &[String]) -> Result<(), String> {
    let [input, output, name] = args else {
        return Err("usage: king_bucket_net IN OUT LAYOUT".into());
    };
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let file = NetFile::parse(&bytes).map_err(|e| format!("{input}: {e}"))?;
    let kings = layout(name).ok_or(format!("{name}: not a layout (see brokkr train -h)"))?;
    let net = dequantise(&file);
    let shape = Shape { kings, ..net.shape };
    let grown = net.grown(shape, 1)?.quantise();
    // The trainer's round trip keeps every weight, so each bucket holds the
    // file's own rows.
    if grown.ft_weights != file.ft_weights.repeat(kings.buckets) {
        return Err("the grown net's input weights are not copies of the file's".into());
    }
    std::fs::write(output, grown.to_bytes()).map_err(|e| format!("{output}: {e}"))?;
    println!(
        "{output}: {name}, {} king bucket(s){}, hash {:016x}",
        kings.buckets,
        if kings.mirrored { ", mirrored" } else { "" },
        grown.hash()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("king_bucket_net: {e}");
            ExitCode::from(2)
        }
    }
}
