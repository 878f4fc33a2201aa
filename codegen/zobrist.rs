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
            "Key of a piece on a square, indexed `[piece][sq]` with piece = colour * 6 \
             + kind, colour 0 = white and 1 = black, kind 0 = pawn, 1 = knight, \
             2 = bishop, 3 = rook, 4 = queen, 5 = king. A position's key is the xor of \
             the keys of its pieces, of ZOBRIST_CASTLING for its castling rights, of \
             ZOBRIST_EN_PASSANT if an en-passant capture is possible and of ZOBRIST_SIDE \
             if black is to move. The keys come from SplitMix64 with a fixed seed: they \
             are brokkr's own, not the Polyglot book keys.\n\
             ```rust\n\
             // A white knight moves from g1 to f3: xor it out and in.\n\
             let (knight, g1, f3) = (1, 6, 21);\n\
             let before = ZOBRIST_PIECES[knight][g1];\n\
             let after = before ^ ZOBRIST_PIECES[knight][g1] ^ ZOBRIST_PIECES[knight][f3];\n\
             assert_eq!(after, ZOBRIST_PIECES[knight][f3]);\n\
             // The black knight (piece 6 + 1) has its own keys.\n\
             assert_ne!(ZOBRIST_PIECES[6 + knight][g1], ZOBRIST_PIECES[knight][g1]);\n\
             ```",
            pieces,
        ),
        Table::new(
            "ZOBRIST_CASTLING",
            Elem::U64,
            &[16],
            ORIGIN,
            "Key of a set of castling rights, indexed by a 4-bit mask (1 = white king \
             side, 2 = white queen side, 4 = black king side, 8 = black queen side). \
             Each key is the xor of the keys of its single rights, and entry 0 (no \
             rights) is 0, so a change of rights can be hashed as \
             `ZOBRIST_CASTLING[old] ^ ZOBRIST_CASTLING[new]` or right by right.\n\
             ```rust\n\
             assert_eq!(ZOBRIST_CASTLING[0], 0);\n\
             assert_eq!(ZOBRIST_CASTLING[1 | 8], ZOBRIST_CASTLING[1] ^ ZOBRIST_CASTLING[8]);\n\
             ```",
            castling,
        ),
        Table::new(
            "ZOBRIST_EN_PASSANT",
            Elem::U64,
            &[8],
            ORIGIN,
            "Key of an en-passant file, indexed `[file]` from 0 = a to 7 = h: xored into \
             the position's key while an en-passant capture on that file is possible.\n\
             ```rust\n\
             let e_file = 4;\n\
             assert_ne!(ZOBRIST_EN_PASSANT[e_file], ZOBRIST_EN_PASSANT[e_file + 1]);\n\
             ```",
            ep,
        ),
        Table::new(
            "ZOBRIST_SIDE",
            Elem::U64,
            &[],
            ORIGIN,
            "Key xored into the position's key when black is to move; a move toggles \
             it.\n\
             ```rust\n\
             let white_to_move: u64 = ZOBRIST_PIECES[5][4] ^ ZOBRIST_PIECES[11][60]; // kings e1, e8\n\
             let black_to_move = white_to_move ^ ZOBRIST_SIDE;\n\
             assert_ne!(black_to_move, white_to_move);\n\
             assert_eq!(black_to_move ^ ZOBRIST_SIDE, white_to_move);\n\
             ```",
            side,
        ),
    ]
}
