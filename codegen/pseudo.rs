//! Empty-board slider attacks: the lines a rook or bishop reaches when nothing
//! blocks. Move generation finds pinners and checkers' candidates with them.

use super::geometry::*;
use super::table::{Elem, Table};

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "common to all bitboard engines";
    vec![
        Table::new(
            "ROOK_PSEUDO_ATTACKS",
            Elem::U64,
            &[64],
            ORIGIN,
            "Rook attacks from `sq` on an empty board (its rank and file without `sq`), \
             indexed `[sq]`.\n\
             ```rust\n\
             let a1 = 0;\n\
             assert_eq!(ROOK_PSEUDO_ATTACKS[a1], 0x0101_0101_0101_01FE);\n\
             ```",
            (0..64).map(|s| rook_attacks(s, 0)).collect(),
        ),
        Table::new(
            "BISHOP_PSEUDO_ATTACKS",
            Elem::U64,
            &[64],
            ORIGIN,
            "Bishop attacks from `sq` on an empty board (its two diagonals without `sq`), \
             indexed `[sq]`.\n\
             ```rust\n\
             let a1 = 0;\n\
             assert_eq!(BISHOP_PSEUDO_ATTACKS[a1], 0x8040_2010_0804_0200);\n\
             ```",
            (0..64).map(|s| bishop_attacks(s, 0)).collect(),
        ),
    ]
}
