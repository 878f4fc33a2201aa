//! Zobrist keys from a fixed-seed SplitMix64, so every build has the same keys.

use super::geometry::SplitMix64;
use super::table::{Elem, Table};

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "Zobrist hashing";
    let mut rng = SplitMix64(0x6272_6F6B_6B72_2021); // "brokkr !"
    let mut keys = |n: usize| -> Vec<u64> { (0..n).map(|_| rng.next_u64()).collect() };
    let pieces = keys(12 * 64);
    let castling_base = keys(4);
    let ep = keys(8);
    let side = keys(1);
    // A castling key is the xor of the keys of the rights it holds, so a change of
    // rights can be hashed either way.
    let castling = (0..16usize)
        .map(|m| {
            (0..4)
                .filter(|b| m >> b & 1 != 0)
                .fold(0, |acc, b| acc ^ castling_base[b])
        })
        .collect();
    vec![
        Table::new(
            "ZOBRIST_PIECES",
            Elem::U64,
            &[12, 64],
            ORIGIN,
            "Key of a piece on a square, indexed `[piece][sq]` with piece = colour * 6 + \
             kind (kinds pawn, knight, bishop, rook, queen, king; colour 0 = white).",
            pieces,
        ),
        Table::new(
            "ZOBRIST_CASTLING",
            Elem::U64,
            &[16],
            ORIGIN,
            "Key of a set of castling rights, indexed by a 4-bit mask (1 = white king \
             side, 2 = white queen side, 4 = black king side, 8 = black queen side). \
             Each key is the xor of the keys of its single rights.",
            castling,
        ),
        Table::new(
            "ZOBRIST_EN_PASSANT",
            Elem::U64,
            &[8],
            ORIGIN,
            "Key of an en-passant file, a to h.",
            ep,
        ),
        Table::new(
            "ZOBRIST_SIDE",
            Elem::U64,
            &[],
            ORIGIN,
            "Key xored in when black is to move.",
            side,
        ),
    ]
}
