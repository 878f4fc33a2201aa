//! OliThink 5's single `rays[0x10000]` array: attack sets and x-rays for all four
//! line directions, indexed by a 7-bit occupancy key built with a multiply
//! (a kindergarten-style key).

use super::geometry::*;
use super::table::{Elem, Table};

/// The four lines, in table order (offsets 0x0000, 0x2000, 0x4000, 0x6000).
const LINES: [(&str, [usize; 2]); 4] = [
    ("rank", [2, 6]),
    ("file", [0, 4]),
    ("a1-h8 diagonal", [1, 5]),
    ("h1-a8 diagonal", [3, 7]),
];

/// OliThink's key for `line` (0..4) of square `sq` under occupancy `occ`.
pub fn key(line: usize, sq: usize, occ: u64) -> usize {
    let k = match line {
        0 => (occ >> (sq & 56)) & 0x7E,
        1 => ((occ >> (sq & 7)) & 0x0101_0101_0101_0101).wrapping_mul(0x0080_4020_1008_0400) >> 57,
        2 => (occ & diag_a1h8(sq)).wrapping_mul(0x0202_0202_0202_0202) >> 57,
        _ => (occ & diag_h1a8(sq)).wrapping_mul(0x0202_0202_0202_0202) >> 57,
    };
    k as usize
}

fn line_mask(line: usize, sq: usize) -> u64 {
    match line {
        0 => rank_mask(rank_of(sq)),
        1 => file_mask(file_of(sq)),
        2 => diag_a1h8(sq),
        _ => diag_h1a8(sq),
    }
}

fn rays() -> Vec<u64> {
    let mut data = vec![0u64; 0x10000];
    for (line, (_, dirs)) in LINES.iter().enumerate() {
        for sq in 0..64 {
            // Group every occupancy of the line by its key. A key cannot see some edge
            // squares; the union of a group is the occupancy with those squares filled.
            let mut union = [None::<u64>; 128];
            let mut attack = [None::<u64>; 128];
            for occ in subsets(line_mask(line, sq)) {
                let k = key(line, sq, occ);
                let att = slider_attacks(sq, dirs, occ);
                match attack[k] {
                    None => attack[k] = Some(att),
                    Some(a) => assert_eq!(a, att, "OliThink key is ambiguous for attacks"),
                }
                union[k] = Some(union[k].unwrap_or(0) | occ);
            }
            for k in 0..128 {
                let (Some(att), Some(occ)) = (attack[k], union[k]) else {
                    continue;
                };
                let xray = dirs
                    .iter()
                    .fold(0, |acc, &d| acc | ray_xray(sq, DIRECTIONS[d], occ));
                let idx = (line << 13) | (sq << 7) | k;
                data[idx] = att;
                data[idx | 0x8000] = xray;
            }
        }
    }
    data
}

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "OliThink 5 (kindergarten-style multiply keys with x-rays)";
    vec![
        Table::new(
            "OLITHINK_RAYS",
            Elem::U64,
            &[0x10000],
            ORIGIN,
            "Attack sets and x-rays for the four lines through every square, all in \
             one array, indexed `offset | (sq << 7) | key`.\n\
             Offsets: 0x0000 rank, 0x2000 file, 0x4000 a1-h8 diagonal, 0x6000 h1-a8 \
             diagonal. Their entries are attack sets: the empty squares up to and \
             including the first blocker each way along the line. Add 0x8000 for the \
             x-rays of the same line: in each direction, the square of the second piece \
             met, the one behind the first blocker (for pins and discovered checks).\n\
             Keys (7 bits) from the occupancy `occ` (products are modulo 2^64: \
             `wrapping_mul` in Rust): rank `(occ >> (sq & 56)) & 0x7E`; file \
             `((occ >> (sq & 7)) & 0x0101010101010101) * 0x0080402010080400 >> 57`; \
             a1-h8 diagonal `(occ & OLITHINK_BMASK45[sq]) * 0x0202020202020202 >> 57`; \
             h1-a8 diagonal `(occ & OLITHINK_BMASK135[sq]) * 0x0202020202020202 >> 57`. \
             A rook's attacks are the rank entry OR the file entry; a bishop's, the two \
             diagonal entries.\n\
             A key cannot see some squares of its line: a and h for ranks, 1 and 8 for \
             files, the h-file square for diagonals. Attack sets do not depend on them. \
             For x-rays an unseen square counts as occupied, so an x-ray entry may name \
             an empty edge square: intersect it with the pieces you look for. Key values \
             that no occupancy produces hold 0.\n\
             ```rust\n\
             // A rook on d4 (square 27) with pieces on b4 and d7.\n\
             let (sq, occ): (usize, u64) = (27, 1 << 25 | 1 << 51);\n\
             let rank_key = ((occ >> (sq & 56)) & 0x7E) as usize;\n\
             let file_key = ((occ >> (sq & 7)) & 0x0101010101010101)\n\
             \x20   .wrapping_mul(0x0080402010080400) >> 57;\n\
             let file_key = file_key as usize;\n\
             let attacks = OLITHINK_RAYS[(sq << 7) | rank_key]\n\
             \x20   | OLITHINK_RAYS[0x2000 | (sq << 7) | file_key];\n\
             // b4 c4 e4 f4 g4 h4 on the rank; d1 d2 d3 d5 d6 d7 on the file.\n\
             assert_eq!(attacks, 0x0008_0808_F608_0808);\n\
             // A rook on a1 with pieces on a3 and a6: the x-ray north is a6.\n\
             let occ: u64 = 1 << 16 | 1 << 40;\n\
             let key = ((occ & 0x0101010101010101).wrapping_mul(0x0080402010080400) >> 57) as usize;\n\
             assert_eq!(OLITHINK_RAYS[0x8000 | 0x2000 | key] & occ, 1 << 40);\n\
             ```",
            rays(),
        ),
        Table::new(
            "OLITHINK_BMASK45",
            Elem::U64,
            &[64],
            ORIGIN,
            "The a1-h8 diagonal through each square, including the square, indexed \
             `[sq]`: the mask for the key of OLITHINK_RAYS's a1-h8 diagonal entries \
             (OliThink's key045).\n\
             ```rust\n\
             assert_eq!(OLITHINK_BMASK45[0], 0x8040_2010_0804_0201); // a1: a1-h8\n\
             assert_eq!(OLITHINK_BMASK45[7], 1 << 7); // h1: just h1\n\
             ```",
            (0..64).map(diag_a1h8).collect(),
        ),
        Table::new(
            "OLITHINK_BMASK135",
            Elem::U64,
            &[64],
            ORIGIN,
            "The h1-a8 diagonal through each square, including the square, indexed \
             `[sq]`: the mask for the key of OLITHINK_RAYS's h1-a8 diagonal entries \
             (OliThink's key135).\n\
             ```rust\n\
             assert_eq!(OLITHINK_BMASK135[7], 0x0102_0408_1020_4080); // h1: h1-a8\n\
             assert_eq!(OLITHINK_BMASK135[0], 1); // a1: just a1\n\
             ```",
            (0..64).map(diag_h1a8).collect(),
        ),
    ]
}
