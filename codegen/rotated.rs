//! Gk's rotated-bitboard attack tables: `[64][256]` attack sets per line, indexed by
//! the square and the 8-bit occupancy of the line through it.

use super::geometry::*;
use super::table::{Elem, Table};

/// The squares of one line through `sq`, as (bit index in the 8-bit occupancy, square).
fn line_squares(sq: usize, line: Line) -> Vec<(u32, usize)> {
    (0..64)
        .filter(|&s| match line {
            Line::Rank => rank_of(s) == rank_of(sq),
            Line::File => file_of(s) == file_of(sq),
            Line::DiagA1H8 => diag_a1h8_index(s) == diag_a1h8_index(sq),
            Line::DiagH1A8 => diag_h1a8_index(s) == diag_h1a8_index(sq),
        })
        .map(|s| {
            let idx = match line {
                Line::File => rank_of(s),
                _ => file_of(s),
            };
            (idx as u32, s)
        })
        .collect()
}

#[derive(Clone, Copy)]
enum Line {
    Rank,
    File,
    DiagA1H8,
    DiagH1A8,
}

impl Line {
    fn dirs(self) -> [usize; 2] {
        match self {
            Line::Rank => [2, 6],
            Line::File => [0, 4],
            Line::DiagA1H8 => [1, 5],
            Line::DiagH1A8 => [3, 7],
        }
    }
}

fn attacks(line: Line) -> Vec<u64> {
    let mut data = Vec::with_capacity(64 * 256);
    for sq in 0..64 {
        let squares = line_squares(sq, line);
        for occ8 in 0..256u32 {
            let occ = squares
                .iter()
                .filter(|(i, _)| occ8 >> i & 1 != 0)
                .fold(0u64, |acc, &(_, s)| acc | bit(s));
            data.push(slider_attacks(sq, &line.dirs(), occ));
        }
    }
    data
}

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "Gk (rotated bitboards)";
    let mk = |name, line, what: &str| {
        Table::new(
            name,
            Elem::U64,
            &[64, 256],
            ORIGIN,
            format!(
                "Slider attacks along the {what} through square `sq` (a1 = 0 ... h8 = 63), \
                 indexed `[sq][occ8]`.\n\
                 `occ8` is the 8-bit occupancy of that line: {}. An attack set holds the \
                 empty squares up to and including the first blocker in each direction; \
                 the bit of `sq` itself in `occ8` is ignored.",
                match line {
                    Line::File => "bit i is the square on rank i",
                    Line::Rank => "bit i is the square on file i",
                    _ => "bit i is the line's square on file i; bits for files the line does not reach are ignored",
                }
            ),
            attacks(line),
        )
    };
    vec![
        mk("ROTATED_RANK_ATTACKS", Line::Rank, "rank"),
        mk("ROTATED_FILE_ATTACKS", Line::File, "file"),
        mk(
            "ROTATED_DIAG_A1H8_ATTACKS",
            Line::DiagA1H8,
            "a1-h8 diagonal",
        ),
        mk(
            "ROTATED_DIAG_H1A8_ATTACKS",
            Line::DiagH1A8,
            "h1-a8 diagonal",
        ),
        Table::new(
            "ROTATED_DIAG_A1H8_INDEX",
            Elem::U8,
            &[64],
            ORIGIN,
            "The number of the a1-h8 diagonal through each square, as Gk numbers its 15 \
             diagonals: `7 - rank + file` (0 = a8, 7 = the long diagonal a1-h8, 14 = h1).",
            (0..64).map(|s| diag_a1h8_index(s) as u64).collect(),
        ),
        Table::new(
            "ROTATED_DIAG_H1A8_INDEX",
            Elem::U8,
            &[64],
            ORIGIN,
            "The number of the h1-a8 diagonal through each square, as Gk numbers its 15 \
             diagonals: `rank + file` (0 = a1, 7 = the long diagonal h1-a8, 14 = h8).",
            (0..64).map(|s| diag_h1a8_index(s) as u64).collect(),
        ),
    ]
}
