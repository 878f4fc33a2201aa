//! Every generated table against a slow reference written here, independently of
//! `codegen/`: rays are walked square by square with (file, rank) steps, masks are
//! built by looking at every square, and nothing is shared with the generators.
//!
//! Squares: a1 = 0, b1 = 1, ..., h8 = 63.

// Tables are indexed by square; a square loop reads clearer than iterator chains.
#![allow(clippy::needless_range_loop)]

mod common;

use brokkr::tables::*;
use quickcheck::{QuickCheck, TestResult};
use std::collections::HashSet;

// ---------------------------------------------------------------------------
// The reference: a tiny board model of our own.
// ---------------------------------------------------------------------------

const N: (i32, i32) = (0, 1);
const NE: (i32, i32) = (1, 1);
const E: (i32, i32) = (1, 0);
const SE: (i32, i32) = (1, -1);
const S: (i32, i32) = (0, -1);
const SW: (i32, i32) = (-1, -1);
const W: (i32, i32) = (-1, 0);
const NW: (i32, i32) = (-1, 1);

/// The order the `RAYS` table documents.
const ALL_DIRS: [(i32, i32); 8] = [N, NE, E, SE, S, SW, W, NW];
const ROOK_DIRS: [(i32, i32); 4] = [N, E, S, W];
const BISHOP_DIRS: [(i32, i32); 4] = [NE, SE, SW, NW];

/// The two directions of each line, in the order the rotated and OliThink tables
/// use: rank, file, a1-h8 diagonal, h1-a8 diagonal.
const LINE_DIRS: [[(i32, i32); 2]; 4] = [[E, W], [N, S], [NE, SW], [SE, NW]];

fn file(sq: usize) -> i32 {
    (sq % 8) as i32
}

fn rank(sq: usize) -> i32 {
    (sq / 8) as i32
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn bb(sq: usize) -> u64 {
    1u64 << sq
}

/// The squares met stepping from `sq` (excluded) towards the edge.
fn walk(sq: usize, (df, dr): (i32, i32)) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut f, mut r) = (file(sq) + df, rank(sq) + dr);
    while let Some(s) = at(f, r) {
        out.push(s);
        f += df;
        r += dr;
    }
    out
}

fn ray(sq: usize, dir: (i32, i32)) -> u64 {
    walk(sq, dir).into_iter().map(bb).fold(0, |a, b| a | b)
}

/// Attacks along the given directions: each ray up to and including its first
/// occupied square.
fn attacks(sq: usize, dirs: &[(i32, i32)], occ: u64) -> u64 {
    let mut out = 0;
    for &d in dirs {
        for s in walk(sq, d) {
            out |= bb(s);
            if occ & bb(s) != 0 {
                break;
            }
        }
    }
    out
}

/// In each direction, the second occupied square met (if any).
fn xrays(sq: usize, dirs: &[(i32, i32)], occ: u64) -> u64 {
    let mut out = 0;
    for &d in dirs {
        let mut seen = 0;
        for s in walk(sq, d) {
            if occ & bb(s) != 0 {
                seen += 1;
                if seen == 2 {
                    out |= bb(s);
                    break;
                }
            }
        }
    }
    out
}

fn rook(sq: usize, occ: u64) -> u64 {
    attacks(sq, &ROOK_DIRS, occ)
}

fn bishop(sq: usize, occ: u64) -> u64 {
    attacks(sq, &BISHOP_DIRS, occ)
}

/// The whole line through `sq` (both directions and `sq` itself).
fn line_through(sq: usize, line: usize) -> u64 {
    bb(sq) | ray(sq, LINE_DIRS[line][0]) | ray(sq, LINE_DIRS[line][1])
}

/// The squares of `mask`, lowest first.
fn squares_of(mut mask: u64) -> Vec<usize> {
    let mut out = Vec::new();
    for sq in 0..64 {
        if mask & bb(sq) != 0 {
            out.push(sq);
            mask &= !bb(sq);
        }
    }
    assert_eq!(mask, 0);
    out
}

/// Every subset of `mask`: subset `i` takes the `k`-th square of `mask` when bit `k`
/// of `i` is set (which is also the order of a parallel bit deposit).
fn subsets(mask: u64) -> Vec<u64> {
    let sqs = squares_of(mask);
    (0..1u64 << sqs.len())
        .map(|i| {
            sqs.iter()
                .enumerate()
                .filter(|(k, _)| i >> k & 1 != 0)
                .fold(0, |acc, (_, &s)| acc | bb(s))
        })
        .collect()
}

/// Software parallel bit extract: bit `k` of the result is the bit of `occ` under
/// the `k`-th lowest set bit of `mask`.
fn pext(occ: u64, mask: u64) -> u64 {
    squares_of(mask)
        .iter()
        .enumerate()
        .fold(0, |acc, (k, &s)| acc | ((occ >> s & 1) << k))
}

/// Piece placements of well-known positions (start, Kiwipete, CPW positions 3-6).
const PLACEMENTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N1P/1PP1QPP1/R4RK1",
];

/// The occupancy of a FEN piece placement.
fn occupancy(placement: &str) -> u64 {
    let mut occ = 0;
    for (i, row) in placement.split('/').enumerate() {
        let r = 7 - i as i32;
        let mut f = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => f += n as i32,
                None => {
                    occ |= bb(at(f, r).expect("placement stays on the board"));
                    f += 1;
                }
            }
        }
        assert_eq!(f, 8, "row {row} has 8 files");
    }
    occ
}

/// A fixed set of occupancies: edge cases, real positions, and sparse to dense
/// pseudo-random boards.
fn fixed_occupancies() -> Vec<u64> {
    let mut v = vec![
        0,
        u64::MAX,
        0xFF00_0000_0000_00FF,
        0x8100_0000_0000_0081,
        0x0101_0101_0101_0101,
        0x8080_8080_8080_8080,
        0x8040_2010_0804_0201,
        0x0102_0408_1020_4080,
        0x0000_0018_1800_0000,
        0x7E7E_7E7E_7E7E_7E7E,
        0x55AA_55AA_55AA_55AA,
    ];
    v.extend(PLACEMENTS.iter().map(|p| occupancy(p)));
    let mut rng = common::Rng::new(0x2545_F491_4F6C_DD1D);
    for _ in 0..300 {
        let (a, b, c) = (rng.next_u64(), rng.next_u64(), rng.next_u64());
        v.extend([a & b & c, a & b, a, a | b]);
    }
    v
}

/// Occupancies of several densities from three random words.
fn densities(a: u64, b: u64, c: u64) -> [u64; 4] {
    [a & b & c, a & b, a, a | b]
}

fn quickcheck_occupancies(prop: fn(u64, u64, u64) -> TestResult) {
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(u64, u64, u64) -> TestResult);
}

// ---------------------------------------------------------------------------
// Gk's rotated tables
// ---------------------------------------------------------------------------

/// The square of `line` through `sq` whose bit is `i` in the documented 8-bit
/// occupancy: file `i` for ranks and diagonals, rank `i` for files.
fn rotated_square(sq: usize, line: usize, i: i32) -> Option<usize> {
    let (f, r) = (file(sq), rank(sq));
    match line {
        0 => at(i, r),
        1 => at(f, i),
        2 => at(i, r + (i - f)),
        _ => at(i, r - (i - f)),
    }
}

fn check_rotated(table: &[[u64; 256]; 64], line: usize) {
    for sq in 0..64 {
        for occ8 in 0..256 {
            let occ = (0..8)
                .filter(|i| occ8 >> i & 1 != 0)
                .filter_map(|i| rotated_square(sq, line, i))
                .fold(0, |acc, s| acc | bb(s));
            assert_eq!(
                table[sq][occ8 as usize],
                attacks(sq, &LINE_DIRS[line], occ),
                "line {line}, square {sq}, occ8 {occ8:#010b}"
            );
        }
    }
}

#[test]
fn rotated_rank_attacks() {
    check_rotated(&ROTATED_RANK_ATTACKS, 0);
}

#[test]
fn rotated_file_attacks() {
    check_rotated(&ROTATED_FILE_ATTACKS, 1);
}

#[test]
fn rotated_diag_a1h8_attacks() {
    check_rotated(&ROTATED_DIAG_A1H8_ATTACKS, 2);
}

#[test]
fn rotated_diag_h1a8_attacks() {
    check_rotated(&ROTATED_DIAG_H1A8_ATTACKS, 3);
}

#[test]
fn rotated_diag_indices() {
    for sq in 0..64 {
        let (f, r) = (file(sq), rank(sq));
        assert_eq!(ROTATED_DIAG_A1H8_INDEX[sq] as i32, 7 - r + f, "square {sq}");
        assert_eq!(ROTATED_DIAG_H1A8_INDEX[sq] as i32, r + f, "square {sq}");
    }
    // Two squares share a number exactly when they share the diagonal.
    for a in 0..64 {
        for b in 0..64 {
            assert_eq!(
                ROTATED_DIAG_A1H8_INDEX[a] == ROTATED_DIAG_A1H8_INDEX[b],
                line_through(a, 2) & bb(b) != 0,
                "a1-h8: {a} {b}"
            );
            assert_eq!(
                ROTATED_DIAG_H1A8_INDEX[a] == ROTATED_DIAG_H1A8_INDEX[b],
                line_through(a, 3) & bb(b) != 0,
                "h1-a8: {a} {b}"
            );
        }
    }
    assert_eq!(ROTATED_DIAG_A1H8_INDEX[56], 0, "a8");
    assert_eq!(ROTATED_DIAG_A1H8_INDEX[0], 7, "a1");
    assert_eq!(ROTATED_DIAG_A1H8_INDEX[7], 14, "h1");
    assert_eq!(ROTATED_DIAG_H1A8_INDEX[0], 0, "a1");
    assert_eq!(ROTATED_DIAG_H1A8_INDEX[7], 7, "h1");
    assert_eq!(ROTATED_DIAG_H1A8_INDEX[63], 14, "h8");
}

// ---------------------------------------------------------------------------
// OliThink's rays[0x10000]
// ---------------------------------------------------------------------------

/// The key of `line` for `sq` under `occ`, exactly as the table's doc writes it.
fn olithink_key(line: usize, sq: usize, occ: u64) -> usize {
    let k = match line {
        0 => (occ >> (sq & 56)) & 0x7E,
        1 => ((occ >> (sq & 7)) & 0x0101_0101_0101_0101).wrapping_mul(0x0080_4020_1008_0400) >> 57,
        2 => (occ & OLITHINK_BMASK45[sq]).wrapping_mul(0x0202_0202_0202_0202) >> 57,
        _ => (occ & OLITHINK_BMASK135[sq]).wrapping_mul(0x0202_0202_0202_0202) >> 57,
    };
    k as usize
}

/// The squares of the line through `sq` that the key cannot see, as the doc lists
/// them: files a and h of a rank, ranks 1 and 8 of a file, the diagonal's square on
/// the h-file.
fn olithink_unseen(line: usize, sq: usize) -> u64 {
    let edge = match line {
        0 => 0x8181_8181_8181_8181,
        1 => 0xFF00_0000_0000_00FF,
        _ => 0x8080_8080_8080_8080,
    };
    line_through(sq, line) & edge
}

#[test]
fn olithink_bmasks() {
    for sq in 0..64 {
        assert_eq!(OLITHINK_BMASK45[sq], line_through(sq, 2), "square {sq}");
        assert_eq!(OLITHINK_BMASK135[sq], line_through(sq, 3), "square {sq}");
    }
}

#[test]
fn olithink_rays() {
    for line in 0..4 {
        let dirs = &LINE_DIRS[line];
        for sq in 0..64 {
            let base = (line << 13) | (sq << 7);
            let unseen = olithink_unseen(line, sq);
            let mut produced = [false; 128];
            for occ in subsets(line_through(sq, line)) {
                let key = olithink_key(line, sq, occ);
                assert!(key < 128, "key {key} is wider than 7 bits");
                produced[key] = true;
                let at_key = OLITHINK_RAYS[base | key];
                let xray = OLITHINK_RAYS[0x8000 | base | key];
                let what = format!("line {line}, square {sq}, occ {occ:#018x}, key {key}");
                assert_eq!(at_key, attacks(sq, dirs, occ), "attacks: {what}");
                // The documented x-ray: unseen edge squares count as occupied.
                assert_eq!(xray, xrays(sq, dirs, occ | unseen), "x-rays: {what}");
                // What a user relies on: masked by the real pieces, it is the real
                // x-ray of this very occupancy.
                assert_eq!(xray & occ, xrays(sq, dirs, occ), "x-rays & occ: {what}");
            }
            for key in (0..128).filter(|&k| !produced[k]) {
                assert_eq!(
                    OLITHINK_RAYS[base | key],
                    0,
                    "unused key {key}, line {line}"
                );
                assert_eq!(
                    OLITHINK_RAYS[0x8000 | base | key],
                    0,
                    "unused x-ray key {key}"
                );
            }
        }
    }
}

#[test]
fn olithink_keys_ignore_other_lines() {
    // The key of a line depends only on the pieces on that line, so a full-board
    // occupancy indexes the same entry as its restriction to the line.
    for occ in fixed_occupancies() {
        for line in 0..4 {
            for sq in 0..64 {
                let on_line = occ & line_through(sq, line);
                assert_eq!(
                    olithink_key(line, sq, occ),
                    olithink_key(line, sq, on_line),
                    "line {line}, square {sq}, occ {occ:#018x}"
                );
                let idx = (line << 13) | (sq << 7) | olithink_key(line, sq, occ);
                assert_eq!(OLITHINK_RAYS[idx], attacks(sq, &LINE_DIRS[line], occ));
                assert_eq!(
                    OLITHINK_RAYS[idx | 0x8000] & occ,
                    xrays(sq, &LINE_DIRS[line], occ)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Gk's 16-bit bitscan and popcount tables
// ---------------------------------------------------------------------------

#[test]
fn sixteen_bit_tables() {
    for v in 0..65536usize {
        let bits: Vec<u8> = (0..16).filter(|i| v >> i & 1 != 0).collect();
        let msb = bits.last().copied().unwrap_or(16);
        let lsb = bits.first().copied().unwrap_or(16);
        assert_eq!(FIRST_ONE[v], msb, "FIRST_ONE[{v:#06x}]");
        assert_eq!(LAST_ONE[v], lsb, "LAST_ONE[{v:#06x}]");
        assert_eq!(POPCOUNT_16[v] as usize, bits.len(), "POPCOUNT_16[{v:#06x}]");
    }
    assert_eq!(FIRST_ONE[0], 16);
    assert_eq!(LAST_ONE[0], 16);
}

// ---------------------------------------------------------------------------
// Magic and PEXT slider tables
// ---------------------------------------------------------------------------

/// The relevant-occupancy mask: every ray without its last (edge) square.
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut m = 0;
    for &d in dirs {
        let w = walk(sq, d);
        for &s in w.iter().take(w.len().saturating_sub(1)) {
            m |= bb(s);
        }
    }
    m
}

struct Slider {
    name: &'static str,
    dirs: [(i32, i32); 4],
    mask: &'static [u64; 64],
    magic: &'static [u64; 64],
    shift: &'static [u8; 64],
    offset: &'static [u32; 64],
    magic_attacks: &'static [u64],
    pext_attacks: &'static [u64],
}

const ROOK: Slider = Slider {
    name: "rook",
    dirs: ROOK_DIRS,
    mask: &ROOK_MASK,
    magic: &ROOK_MAGIC,
    shift: &ROOK_SHIFT,
    offset: &ROOK_OFFSET,
    magic_attacks: &ROOK_MAGIC_ATTACKS,
    pext_attacks: &ROOK_PEXT_ATTACKS,
};

const BISHOP: Slider = Slider {
    name: "bishop",
    dirs: BISHOP_DIRS,
    mask: &BISHOP_MASK,
    magic: &BISHOP_MAGIC,
    shift: &BISHOP_SHIFT,
    offset: &BISHOP_OFFSET,
    magic_attacks: &BISHOP_MAGIC_ATTACKS,
    pext_attacks: &BISHOP_PEXT_ATTACKS,
};

impl Slider {
    fn magic_lookup(&self, sq: usize, occ: u64) -> u64 {
        let idx = (occ & self.mask[sq]).wrapping_mul(self.magic[sq]) >> self.shift[sq];
        self.magic_attacks[self.offset[sq] as usize + idx as usize]
    }

    fn pext_lookup(&self, sq: usize, occ: u64) -> u64 {
        self.pext_attacks[self.offset[sq] as usize + pext(occ, self.mask[sq]) as usize]
    }

    fn check(&self, sq: usize, occ: u64) {
        let want = attacks(sq, &self.dirs, occ);
        assert_eq!(
            self.magic_lookup(sq, occ),
            want,
            "{} magic, square {sq}, occ {occ:#018x}",
            self.name
        );
        assert_eq!(
            self.pext_lookup(sq, occ),
            want,
            "{} pext, square {sq}, occ {occ:#018x}",
            self.name
        );
    }

    fn check_layout(&self) {
        let mut next = 0usize;
        for sq in 0..64 {
            let m = relevant_mask(sq, &self.dirs);
            assert_eq!(self.mask[sq], m, "{} mask, square {sq}", self.name);
            assert_eq!(
                self.shift[sq] as u32,
                64 - m.count_ones(),
                "{} shift, square {sq}",
                self.name
            );
            assert_eq!(
                self.offset[sq] as usize, next,
                "{} offset, square {sq}",
                self.name
            );
            next += 1 << m.count_ones();
        }
        assert_eq!(
            self.magic_attacks.len(),
            next,
            "{} magic table size",
            self.name
        );
        assert_eq!(
            self.pext_attacks.len(),
            next,
            "{} pext table size",
            self.name
        );
    }

    /// Every occupancy of every relevant mask, and each one again with all the
    /// irrelevant squares filled (which must change nothing).
    fn check_exhaustive(&self) {
        for sq in 0..64 {
            let m = relevant_mask(sq, &self.dirs);
            for occ in subsets(m) {
                self.check(sq, occ);
                self.check(sq, occ | !m);
            }
        }
    }
}

#[test]
fn rook_masks_and_layout() {
    ROOK.check_layout();
}

#[test]
fn bishop_masks_and_layout() {
    BISHOP.check_layout();
}

#[test]
fn rook_lookups_exhaustive() {
    ROOK.check_exhaustive();
}

#[test]
fn bishop_lookups_exhaustive() {
    BISHOP.check_exhaustive();
}

#[test]
fn slider_lookups_fixed_occupancies() {
    for occ in fixed_occupancies() {
        for sq in 0..64 {
            ROOK.check(sq, occ);
            BISHOP.check(sq, occ);
        }
    }
}

#[test]
fn slider_lookups_quickcheck() {
    fn prop(a: u64, b: u64, c: u64) -> TestResult {
        for occ in densities(a, b, c) {
            for sq in 0..64 {
                ROOK.check(sq, occ);
                BISHOP.check(sq, occ);
            }
        }
        TestResult::passed()
    }
    quickcheck_occupancies(prop);
}

#[test]
fn rotated_and_olithink_quickcheck() {
    // The line tables, indexed the way an engine indexes them from a full board,
    // agree with the reference and with the magic lookups.
    fn prop(a: u64, b: u64, c: u64) -> TestResult {
        for occ in densities(a, b, c) {
            for sq in 0..64 {
                let occ8 = |line: usize| {
                    (0..8)
                        .filter(|&i| rotated_square(sq, line, i).is_some_and(|s| occ & bb(s) != 0))
                        .fold(0usize, |acc, i| acc | 1 << i)
                };
                let rotated_rook =
                    ROTATED_RANK_ATTACKS[sq][occ8(0)] | ROTATED_FILE_ATTACKS[sq][occ8(1)];
                let rotated_bishop =
                    ROTATED_DIAG_A1H8_ATTACKS[sq][occ8(2)] | ROTATED_DIAG_H1A8_ATTACKS[sq][occ8(3)];
                let oli = |line: usize| {
                    OLITHINK_RAYS[(line << 13) | (sq << 7) | olithink_key(line, sq, occ)]
                };
                if rotated_rook != rook(sq, occ)
                    || rotated_bishop != bishop(sq, occ)
                    || oli(0) | oli(1) != rook(sq, occ)
                    || oli(2) | oli(3) != bishop(sq, occ)
                    || ROOK.magic_lookup(sq, occ) != rook(sq, occ)
                {
                    return TestResult::error(format!("square {sq}, occ {occ:#018x}"));
                }
            }
        }
        TestResult::passed()
    }
    quickcheck_occupancies(prop);
}

// ---------------------------------------------------------------------------
// Leapers
// ---------------------------------------------------------------------------

fn leaper(sq: usize, steps: &[(i32, i32)]) -> u64 {
    steps
        .iter()
        .filter_map(|&(df, dr)| at(file(sq) + df, rank(sq) + dr))
        .fold(0, |acc, s| acc | bb(s))
}

#[test]
fn leaper_attacks() {
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    for sq in 0..64 {
        assert_eq!(KNIGHT_ATTACKS[sq], leaper(sq, &knight), "knight {sq}");
        assert_eq!(KING_ATTACKS[sq], leaper(sq, &ALL_DIRS), "king {sq}");
        assert_eq!(
            PAWN_ATTACKS[0][sq],
            leaper(sq, &[(-1, 1), (1, 1)]),
            "white pawn {sq}"
        );
        assert_eq!(
            PAWN_ATTACKS[1][sq],
            leaper(sq, &[(-1, -1), (1, -1)]),
            "black pawn {sq}"
        );
    }
    // Spot checks that do not go through `leaper`: a knight in a corner, a king in
    // the middle, a white pawn on e4.
    assert_eq!(KNIGHT_ATTACKS[0], bb(10) | bb(17));
    assert_eq!(KING_ATTACKS[27].count_ones(), 8);
    assert_eq!(PAWN_ATTACKS[0][28], bb(35) | bb(37));
}

#[test]
fn pawn_attacks_answer_who_attacks() {
    // "Which pawns of colour c attack sq" is PAWN_ATTACKS[1 - c][sq], on every square.
    for c in 0..2 {
        for sq in 0..64 {
            let attackers = (0..64)
                .filter(|&p| PAWN_ATTACKS[c][p] & bb(sq) != 0)
                .fold(0, |acc, p| acc | bb(p));
            assert_eq!(
                PAWN_ATTACKS[1 - c][sq],
                attackers,
                "colour {c}, square {sq}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Geometric masks
// ---------------------------------------------------------------------------

/// Squares strictly between `a` and `b` on a shared line, or `None` if they share
/// none.
fn between(a: usize, b: usize) -> Option<(u64, (i32, i32))> {
    for d in ALL_DIRS {
        let mut acc = 0;
        for s in walk(a, d) {
            if s == b {
                return Some((acc, d));
            }
            acc |= bb(s);
        }
    }
    None
}

#[test]
fn between_and_line() {
    for a in 0..64 {
        for b in 0..64 {
            let (want_between, want_line) = match between(a, b) {
                Some((btw, d)) => (btw, bb(a) | ray(a, d) | ray(a, (-d.0, -d.1))),
                None => (0, 0),
            };
            assert_eq!(BETWEEN[a][b], want_between, "BETWEEN[{a}][{b}]");
            assert_eq!(LINE[a][b], want_line, "LINE[{a}][{b}]");
            assert_eq!(BETWEEN[a][b], BETWEEN[b][a], "BETWEEN symmetric {a} {b}");
            assert_eq!(LINE[a][b], LINE[b][a], "LINE symmetric {a} {b}");
            assert_eq!(
                BETWEEN[a][b] & !LINE[a][b],
                0,
                "BETWEEN within LINE {a} {b}"
            );
        }
    }
    assert_eq!(BETWEEN[0][63], 0x0040_2010_0804_0200);
    assert_eq!(LINE[1][2], 0xFF);
    assert_eq!(LINE[0][17], 0);
}

#[test]
fn rays_by_direction() {
    for (d, &dir) in ALL_DIRS.iter().enumerate() {
        for sq in 0..64 {
            assert_eq!(RAYS[d][sq], ray(sq, dir), "RAYS[{d}][{sq}]");
            // As documented: N, NE, E and NW point up the square numbers.
            let up = [0, 1, 2, 7].contains(&d);
            if RAYS[d][sq] != 0 {
                assert_eq!(RAYS[d][sq].trailing_zeros() as usize > sq, up, "{d} {sq}");
            }
        }
    }
}

#[test]
fn files_and_ranks() {
    for i in 0..8 {
        let f = (0..64).filter(|&s| file(s) == i).fold(0, |a, s| a | bb(s));
        let r = (0..64).filter(|&s| rank(s) == i).fold(0, |a, s| a | bb(s));
        assert_eq!(FILE_MASKS[i as usize], f, "file {i}");
        assert_eq!(RANK_MASKS[i as usize], r, "rank {i}");
    }
}

#[test]
fn pawn_structure_masks() {
    for sq in 0..64 {
        let (f, r) = (file(sq), rank(sq));
        let ahead = |c: usize, s: usize| if c == 0 { rank(s) > r } else { rank(s) < r };
        let collect =
            |pred: &dyn Fn(usize) -> bool| (0..64).filter(|&s| pred(s)).fold(0, |a, s| a | bb(s));
        for c in 0..2 {
            let span = collect(&|s| file(s) == f && ahead(c, s));
            let passed = collect(&|s| (file(s) - f).abs() <= 1 && ahead(c, s));
            assert_eq!(FORWARD_SPAN[c][sq], span, "FORWARD_SPAN[{c}][{sq}]");
            assert_eq!(
                PASSED_PAWN_MASK[c][sq], passed,
                "PASSED_PAWN_MASK[{c}][{sq}]"
            );
        }
        let isolated = collect(&|s| (file(s) - f).abs() == 1);
        assert_eq!(ISOLATED_PAWN_MASK[sq], isolated, "ISOLATED_PAWN_MASK[{sq}]");
    }
}

// ---------------------------------------------------------------------------
// Zobrist keys
// ---------------------------------------------------------------------------

#[test]
fn zobrist_keys() {
    assert_eq!(ZOBRIST_CASTLING[0], 0, "no rights, no key");
    let mut keys: Vec<u64> = ZOBRIST_PIECES.iter().flatten().copied().collect();
    keys.extend(&ZOBRIST_CASTLING[1..]);
    keys.extend(&ZOBRIST_EN_PASSANT);
    keys.push(ZOBRIST_SIDE);
    assert_eq!(keys.len(), 12 * 64 + 15 + 8 + 1);
    assert!(keys.iter().all(|&k| k != 0), "a zero key");
    let distinct: HashSet<u64> = keys.iter().copied().collect();
    assert_eq!(distinct.len(), keys.len(), "two keys are equal");
    for m in 0..16 {
        let xor = (0..4)
            .filter(|b| m >> b & 1 != 0)
            .fold(0, |acc, b| acc ^ ZOBRIST_CASTLING[1 << b]);
        assert_eq!(ZOBRIST_CASTLING[m], xor, "castling {m:#06b}");
    }
}

// ---------------------------------------------------------------------------
// The reference itself, on a few hand-checked facts, so a wrong reference cannot
// silently agree with a wrong table.
// ---------------------------------------------------------------------------

#[test]
fn reference_sanity() {
    // A rook on a1 of an empty board sees its rank and file; a bishop on d4 13 squares.
    assert_eq!(rook(0, 0), 0x0101_0101_0101_01FE);
    assert_eq!(bishop(27, 0).count_ones(), 13);
    // Blockers: a rook on a1 with pieces on a3 and c1.
    assert_eq!(rook(0, bb(16) | bb(2)), bb(8) | bb(16) | bb(1) | bb(2));
    // X-ray: a rook on a1, pieces on a3 and a6: the x-ray is a6.
    assert_eq!(xrays(0, &[N], bb(16) | bb(40)), bb(40));
    assert_eq!(pext(0b1011_0000, 0b1111_0000), 0b1011);
    assert_eq!(subsets(0b1010), vec![0, 0b10, 0b1000, 0b1010]);
    assert_eq!(occupancy(PLACEMENTS[0]), 0xFFFF_0000_0000_FFFF);
    assert_eq!(relevant_mask(0, &ROOK_DIRS).count_ones(), 12);
    assert_eq!(relevant_mask(27, &BISHOP_DIRS).count_ones(), 9);
}

#[test]
fn pseudo_attacks_are_empty_board_attacks() {
    for sq in 0..64 {
        assert_eq!(ROOK_PSEUDO_ATTACKS[sq], rook(sq, 0), "rook {sq}");
        assert_eq!(BISHOP_PSEUDO_ATTACKS[sq], bishop(sq, 0), "bishop {sq}");
    }
}
