//! `brokkr perft`: count leaf nodes for one position, or check a whole suite.

use super::Args;
use super::{bit_path, slider_kind};
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::perft::{divide, parse_suite, perft};
use crate::board::Board;
use std::io::{IsTerminal, Write};
use std::time::Instant;

const HELP: &str = "\
usage: brokkr perft DEPTH [--fen FEN] [--divide] [--bits PATH] [--slider NAME]
       brokkr perft --epd FILE [--max-nodes N] [--bits PATH] [--slider NAME]

  DEPTH            plies to search (0-20)
  --fen FEN        the position (default: the start position)
  --divide         print each root move with its count
  --epd FILE       check every position of a perft suite (`FEN ;D1 n ;D2 n ...`)
  --max-nodes N    with --epd: skip counts larger than N
  --bits PATH      bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME    slider-attack backend (magic, pext, rotated, kindergarten, rayloop)";

pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["fen", "epd", "max-nodes", "bits", "slider"],
        &["divide", "help"],
    )?;
    if a.flag("help") {
        println!("{HELP}");
        return Ok(());
    }
    let bits = bit_path(&a)?;
    let slider = slider_kind(&a)?;
    crate::with_bits!(bits, B => crate::with_slider!(slider, S => {
        if let Some(file) = a.value("epd") {
            if !a.positional.is_empty() || a.value("fen").is_some() || a.flag("divide") {
                return Err("--epd takes no DEPTH, --fen or --divide".to_string());
            }
            let max = a.parsed::<u64>("max-nodes")?.unwrap_or(u64::MAX);
            suite::<B, S>(file, max)
        } else {
            single::<B, S>(&a)
        }
    }))
}

fn single<B: Bits, S: Slider>(a: &Args) -> Result<(), String> {
    let depth = match a.positional.as_slice() {
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|&d| d <= 20)
            .ok_or_else(|| format!("bad depth '{d}': expected a whole number from 0 to 20"))?,
        [] => return Err(format!("perft needs a DEPTH\n{HELP}")),
        more => return Err(format!("unexpected arguments: {}", more[1..].join(" "))),
    };
    let board = match a.value("fen") {
        Some(fen) => Board::<S>::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        None => Board::<S>::startpos(),
    };
    let start = Instant::now();
    let nodes = if a.flag("divide") {
        let mut total = 0;
        for (m, n) in divide::<B, S>(&board, depth) {
            println!("{}: {n}", board.to_uci(m));
            total += n;
        }
        println!();
        total
    } else {
        perft::<B, S>(&board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!(
        "Time: {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn suite<B: Bits, S: Slider>(file: &str, max_nodes: u64) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let entries = parse_suite(&text).map_err(|e| format!("{file}: {e}"))?;
    let progress = std::io::stderr().is_terminal();
    let start = Instant::now();
    let (mut positions, mut checked, mut mismatches, mut bad, mut nodes) = (0, 0, 0, 0, 0u64);
    for e in &entries {
        let board = match Board::<S>::from_fen(&e.fen) {
            Ok(b) => b,
            Err(err) => {
                println!("{file}:{}: bad FEN '{}': {err}", e.line, e.fen);
                bad += 1;
                continue;
            }
        };
        positions += 1;
        for &(depth, expected) in &e.counts {
            if expected > max_nodes {
                continue;
            }
            let got = perft::<B, S>(&board, depth);
            nodes += got;
            checked += 1;
            if got != expected {
                mismatches += 1;
                println!(
                    "mismatch: {} depth {depth}: expected {expected}, got {got}",
                    e.fen
                );
            }
        }
        if progress {
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            eprint!(
                "\r{positions}/{} positions, {:.0} Mnodes/s  ",
                entries.len(),
                nodes as f64 / secs / 1e6
            );
            let _ = std::io::stderr().flush();
        }
    }
    if progress {
        eprintln!();
    }
    println!(
        "perft suite: {positions} positions, {checked} counts checked, {mismatches} mismatches"
    );
    if bad > 0 {
        return Err(format!("{bad} position(s) could not be parsed"));
    }
    if mismatches > 0 {
        return Err(format!("{mismatches} mismatch(es)"));
    }
    Ok(())
}
