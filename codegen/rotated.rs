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
    let mk = |name, line, what: &str, example: &str| {
        Table::new(
            name,
            Elem::U64,
            &[64, 256],
            ORIGIN,
            format!(
                "Slider attacks along the {what} through square `sq`, indexed \
                 `[sq][occ8]`.\n\
                 `occ8` is the 8-bit occupancy of that line: {}. The bit of `sq` itself \
                 in `occ8` is ignored, so the occupancy with or without the slider gives \
                 the same entry. An entry holds the squares attacked along the line: the \
                 empty squares up to and including the first blocker in each direction \
                 (the blocker may be of either colour; mask own pieces out for moves).\n\
                 Gk keeps the occupancy of every line up to date in make/unmake (rotated \
                 bitboards), so reading `occ8` costs a shift and a mask; any other way \
                 of collecting it gives the same attacks.\n\
                 {example}",
                match line {
                    Line::File => "bit i is the square on rank i + 1 (bit 0 = rank 1)",
                    Line::Rank => "bit i is the square on file i (bit 0 = the a-file)",
                    _ =>
                        "bit i is the line's square on file i (bit 0 = the a-file); bits \
                          for files the line does not reach are ignored",
                }
            ),
            attacks(line),
        )
    };
    vec![
        mk(
            "ROTATED_RANK_ATTACKS",
            Line::Rank,
            "rank",
            "```rust\n\
             // A rook on c3 (square 18); the third rank holds pieces on a3 and f3.\n\
             let occ8 = 1 << 0 | 1 << 2 | 1 << 5;\n\
             // It attacks b3, a3 (a blocker), d3, e3 and f3 (a blocker).\n\
             let (a3, b3, d3, e3, f3) = (16, 17, 19, 20, 21);\n\
             let attacks: u64 = 1 << a3 | 1 << b3 | 1 << d3 | 1 << e3 | 1 << f3;\n\
             assert_eq!(ROTATED_RANK_ATTACKS[18][occ8], attacks);\n\
             // The occupancy of a rank is one byte of the board's occupancy.\n\
             let occ: u64 = 1 << a3 | 1 << 18 | 1 << f3 | 1 << 40;\n\
             assert_eq!(ROTATED_RANK_ATTACKS[18][(occ >> 16 & 0xFF) as usize], attacks);\n\
             ```",
        ),
        mk(
            "ROTATED_FILE_ATTACKS",
            Line::File,
            "file",
            "```rust\n\
             // A rook on e4 (square 28); the e-file holds pieces on e2 and e7.\n\
             let occ8 = 1 << 1 | 1 << 6;\n\
             // It attacks e3, e2 (a blocker), e5, e6 and e7 (a blocker).\n\
             let (e2, e3, e5, e6, e7) = (12, 20, 36, 44, 52);\n\
             let attacks: u64 = 1 << e2 | 1 << e3 | 1 << e5 | 1 << e6 | 1 << e7;\n\
             assert_eq!(ROTATED_FILE_ATTACKS[28][occ8], attacks);\n\
             ```",
        ),
        mk(
            "ROTATED_DIAG_A1H8_ATTACKS",
            Line::DiagA1H8,
            "a1-h8 diagonal (the one running from lower left to upper right)",
            "```rust\n\
             // A bishop on d4 (square 27); its a1-h8 diagonal holds pieces on b2 and f6,\n\
             // the line's squares on files b and f.\n\
             let occ8 = 1 << 1 | 1 << 5;\n\
             let (b2, c3, e5, f6) = (9, 18, 36, 45);\n\
             let attacks: u64 = 1 << b2 | 1 << c3 | 1 << e5 | 1 << f6;\n\
             assert_eq!(ROTATED_DIAG_A1H8_ATTACKS[27][occ8], attacks);\n\
             ```",
        ),
        mk(
            "ROTATED_DIAG_H1A8_ATTACKS",
            Line::DiagH1A8,
            "h1-a8 diagonal (the one running from lower right to upper left)",
            "```rust\n\
             // A bishop on d4 (square 27); its h1-a8 diagonal holds pieces on f2 and b6,\n\
             // the line's squares on files f and b.\n\
             let occ8 = 1 << 5 | 1 << 1;\n\
             let (f2, e3, c5, b6) = (13, 20, 34, 41);\n\
             let attacks: u64 = 1 << f2 | 1 << e3 | 1 << c5 | 1 << b6;\n\
             assert_eq!(ROTATED_DIAG_H1A8_ATTACKS[27][occ8], attacks);\n\
             ```",
        ),
        Table::new(
            "ROTATED_DIAG_A1H8_INDEX",
            Elem::U8,
            &[64],
            ORIGIN,
            "The number of the a1-h8 diagonal through each square, indexed `[sq]`, as Gk \
             numbers its 15 diagonals: `7 - rank + file` with rank and file counted from \
             0 (0 = the one-square diagonal a8, 7 = the long diagonal a1-h8, 14 = h1). \
             Use it to find which diagonal occupancy to read for \
             ROTATED_DIAG_A1H8_ATTACKS.\n\
             ```rust\n\
             assert_eq!(ROTATED_DIAG_A1H8_INDEX[27], 7); // d4 is on a1-h8\n\
             assert_eq!(ROTATED_DIAG_A1H8_INDEX[56], 0); // a8\n\
             assert_eq!(ROTATED_DIAG_A1H8_INDEX[7], 14); // h1\n\
             ```",
            (0..64).map(|s| diag_a1h8_index(s) as u64).collect(),
        ),
        Table::new(
            "ROTATED_DIAG_H1A8_INDEX",
            Elem::U8,
            &[64],
            ORIGIN,
            "The number of the h1-a8 diagonal through each square, indexed `[sq]`, as Gk \
             numbers its 15 diagonals: `rank + file` with rank and file counted from 0 \
             (0 = the one-square diagonal a1, 7 = the long diagonal h1-a8, 14 = h8). Use \
             it to find which diagonal occupancy to read for ROTATED_DIAG_H1A8_ATTACKS.\n\
             ```rust\n\
             assert_eq!(ROTATED_DIAG_H1A8_INDEX[28], 7); // e4 is on h1-a8\n\
             assert_eq!(ROTATED_DIAG_H1A8_INDEX[0], 0); // a1\n\
             assert_eq!(ROTATED_DIAG_H1A8_INDEX[63], 14); // h8\n\
             ```",
            (0..64).map(|s| diag_h1a8_index(s) as u64).collect(),
        ),
    ]
}
