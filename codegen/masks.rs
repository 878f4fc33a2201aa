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
             rank, file or diagonal; 0 otherwise (and for `a == b` or neighbours).",
            pairs(between),
        ),
        Table::new(
            "LINE",
            Elem::U64,
            &[64, 64],
            ORIGIN,
            "The whole line (edge to edge) through `a` and `b`, indexed `[a][b]`, when \
             they share a rank, file or diagonal; 0 otherwise and for `a == b`.",
            pairs(line),
        ),
        Table::new(
            "RAYS",
            Elem::U64,
            &[8, 64],
            ORIGIN,
            "The ray from `sq` (excluded) to the edge, indexed `[dir][sq]`, directions in \
             the order N, NE, E, SE, S, SW, W, NW, so that `dir` and `dir ^ 4` are \
             opposite. N, NE, E and NW point to higher square numbers; SE, S, SW and W \
             to lower ones.",
            (0..8)
                .flat_map(|d| (0..64).map(move |s| ray(s, DIRECTIONS[d])))
                .collect(),
        ),
        Table::new(
            "FILE_MASKS",
            Elem::U64,
            &[8],
            ORIGIN,
            "The squares of each file, a to h.",
            (0..8).map(file_mask).collect(),
        ),
        Table::new(
            "RANK_MASKS",
            Elem::U64,
            &[8],
            ORIGIN,
            "The squares of each rank, 1 to 8.",
            (0..8).map(rank_mask).collect(),
        ),
        Table::new(
            "FORWARD_SPAN",
            Elem::U64,
            &[2, 64],
            ORIGIN,
            "Squares strictly in front of `sq` on its file, from the point of view of \
             colour `c` (0 = white, 1 = black), indexed `[c][sq]`.",
            per_colour_square(forward_span),
        ),
        Table::new(
            "PASSED_PAWN_MASK",
            Elem::U64,
            &[2, 64],
            ORIGIN,
            "Squares that must hold no enemy pawn for a pawn of colour `c` on `sq` to be \
             passed: its forward span and the forward spans of the adjacent files, \
             indexed `[c][sq]`.",
            per_colour_square(passed),
        ),
        Table::new(
            "ISOLATED_PAWN_MASK",
            Elem::U64,
            &[64],
            ORIGIN,
            "The files adjacent to the file of `sq`: a pawn on `sq` is isolated when \
             its side has no pawn there.",
            per_square(|s| adjacent_files(file_of(s))),
        ),
    ]
}
