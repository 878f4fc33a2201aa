//! Knight, king and pawn attack sets.

use super::geometry::*;
use super::table::{Elem, Table};

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "common to all bitboard engines";
    let pawn = |dr: i32| -> Vec<u64> { (0..64).map(|s| leaper(s, &[(-1, dr), (1, dr)])).collect() };
    let mut pawns = pawn(1);
    pawns.extend(pawn(-1));
    vec![
        Table::new(
            "KNIGHT_ATTACKS",
            Elem::U64,
            &[64],
            ORIGIN,
            "Squares a knight on `sq` attacks, indexed `[sq]`.\n\
             ```rust\n\
             let (b1, a3, c3, d2) = (1, 16, 18, 11);\n\
             assert_eq!(KNIGHT_ATTACKS[b1], 1 << a3 | 1 << c3 | 1 << d2);\n\
             ```",
            (0..64).map(|s| leaper(s, &KNIGHT_STEPS)).collect(),
        ),
        Table::new(
            "KING_ATTACKS",
            Elem::U64,
            &[64],
            ORIGIN,
            "Squares a king on `sq` attacks, indexed `[sq]`.\n\
             ```rust\n\
             let (a1, b1, a2, b2) = (0, 1, 8, 9);\n\
             assert_eq!(KING_ATTACKS[a1], 1 << b1 | 1 << a2 | 1 << b2);\n\
             assert_eq!(KING_ATTACKS[27].count_ones(), 8); // d4\n\
             ```",
            (0..64).map(|s| leaper(s, &KING_STEPS)).collect(),
        ),
        Table::new(
            "PAWN_ATTACKS",
            Elem::U64,
            &[2, 64],
            ORIGIN,
            "Squares a pawn of colour `c` (0 = white, moving up the board; 1 = black, \
             moving down) on `sq` attacks, indexed `[c][sq]`. Defined on every square, \
             the 1st and 8th ranks included, so it also answers \"which pawns attack \
             this square\" with the colours swapped: the white pawns attacking `sq` are \
             `PAWN_ATTACKS[1][sq] & white_pawns`.\n\
             ```rust\n\
             let (e2, d3, f3, e4) = (12, 19, 21, 28);\n\
             assert_eq!(PAWN_ATTACKS[0][e2], 1 << d3 | 1 << f3); // white pawn on e2\n\
             // Which white pawns attack e4? Those on d3 and f3.\n\
             let white_pawns: u64 = 1 << d3 | 1 << e2 | 1 << f3;\n\
             assert_eq!(PAWN_ATTACKS[1][e4] & white_pawns, 1 << d3 | 1 << f3);\n\
             ```",
            pawns,
        ),
    ]
}
