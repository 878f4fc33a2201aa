//! Geometric masks: lines, between, rays by direction, files and ranks, pawn structure.

use super::geometry::*;
use super::table::{Elem, Table};

/// The direction (index into DIRECTIONS) from `a` to `b`, if they share a line.
fn direction(a: usize, b: usize) -> Option<usize> {
    (0..8).find(|&d| walk(a, DIRECTIONS[d]).contains(&b))
}

fn between(a: usize, b: usize) -> u64 {
    match direction(a, b) {
        Some(d) => walk(a, DIRECTIONS[d])
            .into_iter()
            .take_while(|&s| s != b)
            .fold(0, |acc, s| acc | bit(s)),
        None => 0,
    }
}

fn line(a: usize, b: usize) -> u64 {
    match direction(a, b) {
        Some(d) => bit(a) | ray(a, DIRECTIONS[d]) | ray(a, DIRECTIONS[(d + 4) % 8]),
        None => 0,
    }
}

/// Squares strictly in front of `sq` on its file, for colour `c`.
fn forward_span(c: usize, sq: usize) -> u64 {
    ray(sq, DIRECTIONS[if c == 0 { 0 } else { 4 }])
}

fn adjacent_files(file: i32) -> u64 {
    (if file > 0 { file_mask(file - 1) } else { 0 })
        | (if file < 7 { file_mask(file + 1) } else { 0 })
}

fn passed(c: usize, sq: usize) -> u64 {
    let span = forward_span(c, sq);
    let f = file_of(sq);
    let mut mask = span;
    for df in [-1, 1] {
        if (0..8).contains(&(f + df)) {
            mask |= if df < 0 { span >> 1 } else { span << 1 };
        }
    }
    mask
}

fn per_square(f: impl Fn(usize) -> u64) -> Vec<u64> {
    (0..64).map(f).collect()
}

fn per_colour_square(f: impl Fn(usize, usize) -> u64) -> Vec<u64> {
    (0..2)
        .flat_map(|c| (0..64).map(move |s| (c, s)))
        .map(|(c, s)| f(c, s))
        .collect()
}

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "common to all bitboard engines";
    let pairs = |f: fn(usize, usize) -> u64| -> Vec<u64> {
        (0..64)
            .flat_map(|a| (0..64).map(move |b| f(a, b)))
            .collect()
    };
    vec![
        Table::new(
            "BETWEEN",
            Elem::U64,
            &[64, 64],
            ORIGIN,
            "Squares strictly between `a` and `b`, indexed `[a][b]`, when they share a \
             rank, file or diagonal; 0 otherwise (and for `a == b` or neighbours). \
             Symmetric. With `a` a king and `b` a checking slider, it holds the squares \
             where the check can be blocked; a piece on them is pinned if `b` is an \
             enemy slider.\n\
             ```rust\n\
             let (a1, b3, h8) = (0, 17, 63);\n\
             assert_eq!(BETWEEN[a1][h8], 0x0040_2010_0804_0200); // b2 c3 d4 e5 f6 g7\n\
             assert_eq!(BETWEEN[a1][b3], 0); // not on one line\n\
             assert_eq!(BETWEEN[h8][a1], BETWEEN[a1][h8]);\n\
             ```",
            pairs(between),
        ),
        Table::new(
            "LINE",
            Elem::U64,
            &[64, 64],
            ORIGIN,
            "The whole line (edge to edge) through `a` and `b`, both included, indexed \
             `[a][b]`, when they share a rank, file or diagonal; 0 otherwise and for \
             `a == b`. A piece pinned to its king on `k` keeps only the moves along \
             `LINE[k][sq]`.\n\
             ```rust\n\
             let (a1, b2, d1, d8) = (0, 9, 3, 59);\n\
             assert_eq!(LINE[a1][b2], 0x8040_2010_0804_0201); // the a1-h8 diagonal\n\
             assert_eq!(LINE[d1][d8], 0x0808_0808_0808_0808); // the d-file\n\
             ```",
            pairs(line),
        ),
        Table::new(
            "RAYS",
            Elem::U64,
            &[8, 64],
            ORIGIN,
            "The ray from `sq` (excluded) to the edge of the board, indexed `[dir][sq]`, \
             directions in the order N, NE, E, SE, S, SW, W, NW (0 to 7), so that `dir` \
             and `dir ^ 4` are opposite. N, NE, E and NW point to higher square numbers, \
             so the first piece on such a ray is its lowest set bit; SE, S, SW and W \
             point to lower ones, where it is the highest. Removing the ray beyond the \
             first blocker gives a slider's attacks in that direction (the classical \
             ray approach).\n\
             ```rust\n\
             // A rook on a1 with a piece on a5: its attacks to the north.\n\
             let (north, a1, a5) = (0, 0, 32);\n\
             let occ: u64 = 1 << a5;\n\
             let blocker = (RAYS[north][a1] & occ).trailing_zeros() as usize;\n\
             let attacks = RAYS[north][a1] ^ RAYS[north][blocker];\n\
             assert_eq!(attacks, 0x0000_0001_0101_0100); // a2 a3 a4 a5\n\
             ```",
            (0..8)
                .flat_map(|d| (0..64).map(move |s| ray(s, DIRECTIONS[d])))
                .collect(),
        ),
        Table::new(
            "FILE_MASKS",
            Elem::U64,
            &[8],
            ORIGIN,
            "The squares of each file, indexed `[file]` from 0 = the a-file to 7 = the \
             h-file.\n\
             ```rust\n\
             assert_eq!(FILE_MASKS[0], 0x0101_0101_0101_0101); // a-file\n\
             assert_eq!(FILE_MASKS[7], FILE_MASKS[0] << 7); // h-file\n\
             ```",
            (0..8).map(file_mask).collect(),
        ),
        Table::new(
            "RANK_MASKS",
            Elem::U64,
            &[8],
            ORIGIN,
            "The squares of each rank, indexed `[rank]` from 0 = the first rank to 7 = \
             the eighth.\n\
             ```rust\n\
             assert_eq!(RANK_MASKS[0], 0xFF);\n\
             assert_eq!(RANK_MASKS[7], 0xFF00_0000_0000_0000);\n\
             ```",
            (0..8).map(rank_mask).collect(),
        ),
        Table::new(
            "FORWARD_SPAN",
            Elem::U64,
            &[2, 64],
            ORIGIN,
            "Squares strictly in front of `sq` on its file, from the point of view of \
             colour `c` (0 = white, looking up the board; 1 = black, looking down), \
             indexed `[c][sq]`.\n\
             ```rust\n\
             let (e2, e7) = (12, 52);\n\
             assert_eq!(FORWARD_SPAN[0][e2], 0x1010_1010_1010_0000); // e3 to e8\n\
             assert_eq!(FORWARD_SPAN[1][e7], 0x0000_1010_1010_1010); // e6 to e1\n\
             ```",
            per_colour_square(forward_span),
        ),
        Table::new(
            "PASSED_PAWN_MASK",
            Elem::U64,
            &[2, 64],
            ORIGIN,
            "Squares that must hold no enemy pawn for a pawn of colour `c` (0 = white, \
             1 = black) on `sq` to be passed, indexed `[c][sq]`: its forward span and \
             the forward spans of the adjacent files.\n\
             ```rust\n\
             let e2 = 12;\n\
             assert_eq!(PASSED_PAWN_MASK[0][e2], 0x3838_3838_3838_0000); // d3-f8\n\
             // A black pawn on d5 stops it; one on d2 does not.\n\
             let (d2, d5) = (11, 35);\n\
             assert_ne!(PASSED_PAWN_MASK[0][e2] & 1 << d5, 0);\n\
             assert_eq!(PASSED_PAWN_MASK[0][e2] & 1 << d2, 0);\n\
             ```",
            per_colour_square(passed),
        ),
        Table::new(
            "ISOLATED_PAWN_MASK",
            Elem::U64,
            &[64],
            ORIGIN,
            "The files adjacent to the file of `sq`, indexed `[sq]`: a pawn on `sq` is \
             isolated when its side has no pawn there. The same for both colours.\n\
             ```rust\n\
             let (a1, e2) = (0, 12);\n\
             assert_eq!(ISOLATED_PAWN_MASK[e2], 0x2828_2828_2828_2828); // d- and f-files\n\
             assert_eq!(ISOLATED_PAWN_MASK[a1], 0x0202_0202_0202_0202); // the b-file\n\
             ```",
            per_square(|s| adjacent_files(file_of(s))),
        ),
    ]
}
