//! `brokkr perft`: count leaf nodes for one position, or check a whole suite.

use super::choice;
use super::Args;
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::perft::{divide, parse_suite, perft, MAX_DEPTH};
use crate::board::Board;
use crate::qbb::{self, Qbb};
use std::io::{IsTerminal, Write};
use std::time::Instant;

const HELP: &str = "\
usage: brokkr perft DEPTH [--fen FEN] [--divide] [--board NAME] [--bits PATH] [--slider NAME]
       brokkr perft --epd FILE [--max-nodes N] [--board NAME] [--bits PATH] [--slider NAME]

  DEPTH            plies to search (0-20)
  --fen FEN        the position (default: the start position)
  --divide         print each root move with its count
  --epd FILE       check every position of a perft suite (`FEN ;D1 n ;D2 n ...`)
  --max-nodes N    with --epd: skip counts larger than N
  --board NAME     board representation: main (default) or qbb (quad-bitboard)
  --bits PATH      bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME    slider-attack backend (magic, pext, rotated, kindergarten, rayloop)";

pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["fen", "epd", "max-nodes", "board", "bits", "slider"],
        &["divide", "help"],
    )?;
    if a.flag("help") {
        println!("{HELP}");
        return Ok(());
    }
    let choice = choice(&a)?;
    let (bits, slider) = (choice.bits, choice.slider);
    let kind = match a.value("board").unwrap_or("main") {
        "main" => BoardKind::Main,
        "qbb" => BoardKind::Qbb,
        other => return Err(format!("unknown board '{other}' (expected main or qbb)")),
    };
    crate::with_bits!(bits, B => crate::with_slider!(slider, S => {
        if let Some(file) = a.value("epd") {
            if !a.positional.is_empty() || a.value("fen").is_some() || a.flag("divide") {
                return Err("--epd takes no DEPTH, --fen or --divide".to_string());
            }
            let max = a.parsed::<u64>("max-nodes")?.unwrap_or(u64::MAX);
            suite::<B, S>(kind, file, max)
        } else {
            single::<B, S>(kind, &a)
        }
    }))
}

/// Which board representation counts the nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardKind {
    Main,
    Qbb,
}

/// Perft of `board` on the chosen representation.
fn count<B: Bits, S: Slider>(kind: BoardKind, board: &Board<S>, depth: u32) -> u64 {
    match kind {
        BoardKind::Main => perft::<B, S>(board, depth),
        BoardKind::Qbb => qbb::perft::<B, S>(&Qbb::from_board(board), depth),
    }
}

fn single<B: Bits, S: Slider>(kind: BoardKind, a: &Args) -> Result<(), String> {
    let depth = match a.positional.as_slice() {
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|&d| d <= MAX_DEPTH)
            .ok_or_else(|| {
                format!("bad depth '{d}': expected a whole number from 0 to {MAX_DEPTH}")
            })?,
        [] => return Err(format!("perft needs a DEPTH\n{HELP}")),
        more => return Err(format!("unexpected arguments: {}", more[1..].join(" "))),
    };
    let board = match a.value("fen") {
        Some(fen) => Board::<S>::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        None => Board::<S>::startpos(),
    };
    let start = Instant::now();
    let nodes = if a.flag("divide") && depth > 0 {
        let mut total = 0;
        let rows = match kind {
            BoardKind::Main => divide::<B, S>(&board, depth),
            BoardKind::Qbb => qbb::divide::<B, S>(&Qbb::from_board(&board), depth),
        };
        for (m, n) in rows {
            println!("{}: {n}", board.to_uci(m));
            total += n;
        }
        println!();
        total
    } else {
        count::<B, S>(kind, &board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!(
        "Time: {:.3} s, {:.0} nodes/s (bits {}, slider {})",
        secs,
        nodes as f64 / secs.max(1e-9),
        B::PATH,
        S::KIND
    );
    Ok(())
}

fn suite<B: Bits, S: Slider>(kind: BoardKind, file: &str, max_nodes: u64) -> Result<(), String> {
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
            let got = count::<B, S>(kind, &board, depth);
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
