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
            "Squares a knight on `sq` attacks.",
            (0..64).map(|s| leaper(s, &KNIGHT_STEPS)).collect(),
        ),
        Table::new(
            "KING_ATTACKS",
            Elem::U64,
            &[64],
            ORIGIN,
            "Squares a king on `sq` attacks.",
            (0..64).map(|s| leaper(s, &KING_STEPS)).collect(),
        ),
        Table::new(
            "PAWN_ATTACKS",
            Elem::U64,
            &[2, 64],
            ORIGIN,
            "Squares a pawn of colour `c` (0 = white, moving up; 1 = black) on `sq` \
             attacks, indexed `[c][sq]`. Defined on every square, the 1st and 8th ranks \
             included, so it also answers \"which pawns attack this square\" with the \
             colours swapped.",
            pawns,
        ),
    ]
}
