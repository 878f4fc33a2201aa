//! `brokkr branch`: positions one random move off a data file's games, labelled
//! by the hand-written evaluation, for the network's training.
//!
//! Why: `datagen` keeps only the quiet positions of good games, so a net trained
//! on them alone never sees what the search sees at almost every node: a
//! position after a poor move, with the material or the king's cover off
//! balance. The hand-written evaluation judges those soundly (its terms are
//! written for any position), and it labels a position in microseconds, so
//! such positions cost next to nothing to add. They go to `brokkr train
//! --extra`, which trains on them and never holds them out for validation.

use super::Args;
use crate::attacks::Magic;
use crate::bits::Portable;
use crate::board::Board;
use crate::eval::{evaluate, PawnTable, Terms};
use crate::nnue::train::Rng;
use crate::types::Color;
use std::io::{BufRead, BufReader, BufWriter, Write};

pub const HELP: &str = "\
usage: brokkr branch --data FILE --out FILE [--per N] [--seed S]

Reads positions in the text format of datagen (`FEN | score | result`, White's
side; `#` lines) and writes, for each, up to N positions reached by one random
legal move from it, each scored by the hand-written evaluation (centipawns,
White's side) and given the source position's game result. A position reached
is kept only when it is quiet: the side to move is not in check, has a legal
move, and has no capture or promotion that wins material by static exchange.
The `# game` lines are copied, so the positions of one game stay together.

The output is meant for `brokkr train --extra FILE`: positions the search meets
and self-play games do not (after a poor move), labelled by an evaluation that
was written for any position. The same input, N and seed give the same file.

  --data FILE      the positions to branch from (text format)
  --out FILE       where to write the new positions (overwritten)
  --per N          random moves tried from each position, 1-8 (default 1)
  --seed S         picks the moves (default 1)";

/// Run `brokkr branch` with `args` (after the command name).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(args, &["data", "out", "per", "seed"], &["help"])?;
    if a.flag("help") {
        say!(out, "{HELP}");
        return Ok(());
    }
    if let Some(extra) = a.positional.first() {
        return Err(format!(
            "unexpected argument '{}' (see brokkr branch -h)",
            super::text::escape_short(extra)
        ));
    }
    let data = a.value("data").ok_or("branch needs --data FILE")?;
    let out_path = a.value("out").ok_or("branch needs --out FILE")?;
    let per: usize = a.parsed("per")?.unwrap_or(1);
    if !(1..=8).contains(&per) {
        return Err(format!("bad value for --per '{per}': expected 1 to 8"));
    }
    let seed = a.count("seed")?.unwrap_or(1);
    let input = std::fs::File::open(data).map_err(|e| format!("cannot open {data}: {e}"))?;
    let output =
        std::fs::File::create(out_path).map_err(|e| format!("cannot create {out_path}: {e}"))?;
    let mut w = BufWriter::new(output);
    let werr = |e: std::io::Error| format!("cannot write {out_path}: {e}");
    writeln!(w, "# brokkr branch v1: per {per}, seed {seed}").map_err(werr)?;
    let mut stats = Stats::default();
    let mut pawns = PawnTable::new();
    for (n, line) in BufReader::new(input).lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read {data}: {e}"))?;
        let line = line.trim();
        if line.starts_with("# game") {
            writeln!(w, "{line}").map_err(werr)?;
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((fen, result)) = parse(line) else {
            stats.bad += 1;
            continue;
        };
        let Ok(board) = Board::<Magic>::from_fen(fen) else {
            stats.bad += 1;
            continue;
        };
        stats.read += 1;
        let mut rng = Rng::new(seed ^ (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for (fen, white) in branches(&board, per, &mut rng, &mut pawns) {
            writeln!(w, "{fen} | {white} | {result}").map_err(werr)?;
            stats.written += 1;
        }
    }
    w.flush().map_err(werr)?;
    say!(
        out,
        "branch: {} positions read ({} lines not positions), {} written to {out_path}",
        stats.read,
        stats.bad,
        stats.written
    );
    Ok(())
}

#[derive(Default)]
struct Stats {
    read: u64,
    bad: u64,
    written: u64,
}

/// The FEN and the result field of a `FEN | score | result` line.
fn parse(line: &str) -> Option<(&str, &str)> {
    let mut fields = line.split('|').map(str::trim);
    let fen = fields.next()?;
    let _score = fields.next()?;
    let result = fields.next()?;
    matches!(result, "1.0" | "0.5" | "0.0" | "1" | "0" | "1/2").then_some((fen, result))
}

/// Up to `per` quiet positions one random legal move from `board` (distinct
/// moves), with the hand-written evaluation from White's side.
fn branches(
    board: &Board<Magic>,
    per: usize,
    rng: &mut Rng,
    pawns: &mut PawnTable,
) -> Vec<(String, i32)> {
    let mut moves: Vec<_> = board.legal_moves::<Portable>().iter().collect();
    rng.shuffle(&mut moves);
    let mut out = Vec::with_capacity(per);
    for m in moves.into_iter().take(per) {
        let mut next = *board;
        next.make::<Portable>(m);
        if !is_quiet(&next) {
            continue;
        }
        let stm = evaluate::<Portable, Magic>(&next, pawns, Terms::DEFAULT);
        let white = match next.side_to_move() {
            Color::White => stm,
            Color::Black => -stm,
        };
        out.push((next.to_fen(), white));
    }
    out
}

/// Whether the side to move is out of check, can move, and has no capture or
/// promotion that wins material by static exchange: a position where the
/// static evaluation is the score a quiescence search would give.
fn is_quiet(board: &Board<Magic>) -> bool {
    if board.in_check() {
        return false;
    }
    let moves = board.legal_moves::<Portable>();
    !moves.is_empty()
        && moves.iter().all(|m| {
            let noisy = board.is_capture(m) || m.promotion_kind().is_some();
            !noisy || board.see(m) <= 0
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board<Magic> {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn a_hanging_piece_or_a_check_is_not_quiet() {
        assert!(is_quiet(&board(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        )));
        // White's queen takes an undefended rook.
        assert!(!is_quiet(&board("4k3/8/8/8/8/8/r7/Q3K3 w - - 0 1")));
        // The same rook defended by a pawn: taking it loses the queen for it.
        assert!(is_quiet(&board("4k3/8/8/8/8/1p6/r7/Q3K3 w - - 0 1")));
        // In check.
        assert!(!is_quiet(&board("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")));
        // Stalemate: no move.
        assert!(!is_quiet(&board("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")));
        // A promotion.
        assert!(!is_quiet(&board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")));
    }

    #[test]
    fn branches_are_one_legal_move_away_and_scored_from_whites_side() {
        let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let mut rng = Rng::new(7);
        let mut pawns = PawnTable::new();
        let got = branches(&b, 8, &mut rng, &mut pawns);
        assert!(!got.is_empty() && got.len() <= 8);
        let legal: Vec<String> = b
            .legal_moves::<Portable>()
            .iter()
            .map(|m| {
                let mut n = b;
                n.make::<Portable>(m);
                n.to_fen()
            })
            .collect();
        for (fen, white) in &got {
            assert!(legal.contains(fen), "{fen}");
            let n = board(fen);
            assert_eq!(n.side_to_move(), Color::Black);
            let stm = evaluate::<Portable, Magic>(&n, &mut PawnTable::new(), Terms::DEFAULT);
            assert_eq!(*white, -stm, "{fen}");
        }
        // Distinct moves.
        let mut fens: Vec<_> = got.iter().map(|(f, _)| f.clone()).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), got.len());
    }

    #[test]
    fn lines_parse_or_are_refused() {
        assert_eq!(
            parse("8/8/8/8/8/8/8/K6k w - - 0 1 | 12 | 0.5"),
            Some(("8/8/8/8/8/8/8/K6k w - - 0 1", "0.5"))
        );
        assert_eq!(parse("8/8/8/8/8/8/8/K6k w - - 0 1 | 12"), None);
        assert_eq!(parse("8/8/8/8/8/8/8/K6k w - - 0 1 | 12 | 2.0"), None);
    }
}
