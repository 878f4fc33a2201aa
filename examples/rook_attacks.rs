//! Print the squares each rook attacks in a position, using `brokkr::tables` alone.
//!
//! ```sh
//! cargo run --release --example rook_attacks                      # a default position
//! cargo run --release --example rook_attacks -- "8/8/3p4/8/1P1R3r/8/8/K6k w - - 0 1"
//! ```
//!
//! The FEN may be given as one argument or as several (unquoted); only its first
//! field, the piece placement, is needed, but any further fields are checked too.
//! Each rook's attacks come from the fancy magic tables and are checked against the
//! OliThink and rotated tables.

use brokkr::tables::{
    magic_rook_attacks, olithink_rook_attacks, rotated_file_attacks, rotated_rank_attacks,
};
use std::process::ExitCode;

/// "Kiwipete", a busy middlegame position with four rooks.
const DEFAULT_FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The pieces of a position, by square (a1 = 0 ... h8 = 63).
struct Board {
    squares: [Option<char>; 64],
}

impl Board {
    fn occupancy(&self) -> u64 {
        (0..64)
            .filter(|&sq| self.squares[sq].is_some())
            .fold(0, |acc, sq| acc | 1 << sq)
    }
}

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// Parse a FEN, checking every field it has; only the placement is required.
fn parse_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(&placement) = fields.first() else {
        return Err("the FEN is empty".into());
    };
    if fields.len() > 6 {
        return Err(format!(
            "a FEN has at most 6 fields, this one has {}",
            fields.len()
        ));
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the piece placement '{placement}' has {} ranks separated by '/', not 8",
            ranks.len()
        ));
    }
    let mut squares = [None; 64];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i; // FEN lists rank 8 first
        let mut file = 0;
        for ch in rank_text.chars() {
            match ch {
                '1'..='8' => file += ch as usize - '0' as usize,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    if file < 8 {
                        squares[rank * 8 + file] = Some(ch);
                    }
                    file += 1;
                }
                _ => {
                    return Err(format!(
                        "unexpected '{ch}' in rank {} ('{rank_text}'): expected a piece \
                         letter (pnbrqk, PNBRQK) or a digit 1-8",
                        rank + 1
                    ))
                }
            }
            if file > 8 {
                return Err(format!(
                    "rank {} ('{rank_text}') describes more than 8 squares",
                    rank + 1
                ));
            }
        }
        if file != 8 {
            return Err(format!(
                "rank {} ('{rank_text}') describes {file} squares, not 8",
                rank + 1
            ));
        }
    }
    if let Some(&side) = fields.get(1) {
        if side != "w" && side != "b" {
            return Err(format!("side to move '{side}' is not 'w' or 'b'"));
        }
    }
    if let Some(&castling) = fields.get(2) {
        let ok = castling == "-"
            || (!castling.is_empty() && castling.chars().all(|c| "KQkq".contains(c)));
        if !ok {
            return Err(format!(
                "castling rights '{castling}' are not '-' or letters of KQkq"
            ));
        }
    }
    if let Some(&ep) = fields.get(3) {
        let b = ep.as_bytes();
        let ok = ep == "-"
            || (b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b[1] == b'3' || b[1] == b'6'));
        if !ok {
            return Err(format!(
                "en-passant square '{ep}' is not '-' or a square on rank 3 or 6"
            ));
        }
    }
    for (i, what) in [(4, "halfmove clock"), (5, "fullmove number")] {
        if let Some(&n) = fields.get(i) {
            if n.parse::<u32>().is_err() {
                return Err(format!("{what} '{n}' is not a number"));
            }
        }
    }
    Ok(Board { squares })
}

/// An 8x8 diagram of `attacks` from the rook on `rook`: `R`/`r` is the rook, `x` an
/// attacked empty square, a bracketed letter an attacked piece, a plain letter a
/// piece it does not reach, `.` anything else.
fn diagram(board: &Board, rook: usize, attacks: u64) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut row = format!("  {} ", rank + 1);
        for file in 0..8 {
            let sq = rank * 8 + file;
            let attacked = attacks >> sq & 1 != 0;
            let cell = match (board.squares[sq], attacked) {
                (Some(p), _) if sq == rook => format!(" {p} "),
                (Some(p), true) => format!("({p})"),
                (Some(p), false) => format!(" {p} "),
                (None, true) => " x ".to_string(),
                (None, false) => " . ".to_string(),
            };
            row.push_str(&cell);
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str("     a  b  c  d  e  f  g  h\n");
    out
}

/// The rook's attacks from the rotated tables, with the 8-bit line occupancies
/// collected square by square.
fn rotated_rook_attacks(sq: usize, occ: u64) -> u64 {
    let (rank, file) = (sq / 8, sq % 8);
    let rank8 = (occ >> (8 * rank)) as u8;
    let file8 = (0..8).fold(0u8, |acc, r| acc | ((occ >> (8 * r + file) & 1) as u8) << r);
    rotated_rank_attacks(sq, rank8) | rotated_file_attacks(sq, file8)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("usage: rook_attacks [FEN]   (default: {DEFAULT_FEN})");
        return ExitCode::SUCCESS;
    }
    let fen = if args.is_empty() {
        DEFAULT_FEN.to_string()
    } else {
        args.join(" ")
    };
    let board = match parse_fen(&fen) {
        Ok(board) => board,
        Err(e) => {
            eprintln!("rook_attacks: bad FEN \"{fen}\": {e}");
            return ExitCode::from(2);
        }
    };
    println!("FEN: {fen}\n");
    let occ = board.occupancy();
    let rooks: Vec<usize> = (0..64)
        .filter(|&sq| matches!(board.squares[sq], Some('R' | 'r')))
        .collect();
    if rooks.is_empty() {
        println!("No rooks in this position.");
    }
    for sq in rooks {
        let attacks = magic_rook_attacks(sq, occ);
        let colour = if board.squares[sq] == Some('R') {
            "white"
        } else {
            "black"
        };
        println!(
            "{colour} rook on {}: attacks 0x{attacks:016X} ({} squares)",
            square_name(sq),
            attacks.count_ones()
        );
        print!("{}", diagram(&board, sq, attacks));
        if olithink_rook_attacks(sq, occ) != attacks || rotated_rook_attacks(sq, occ) != attacks {
            eprintln!("rook_attacks: the magic, OliThink and rotated tables disagree!");
            return ExitCode::FAILURE;
        }
        println!();
    }
    ExitCode::SUCCESS
}
