//! The positions `brokkr bench` searches: openings, middlegames, tactics,
//! endgames and Chess960 starts, so a change anywhere in the search moves the node
//! count.

/// FENs searched by `brokkr bench` (Chess960 positions use Shredder-FEN castling).
pub const POSITIONS: &[&str] = &[
    // Openings and early middlegames.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 4 5",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 1 6",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    // Middlegames.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "2r3k1/pp3ppp/2n1b3/q1pp4/3P4/P1PBPN2/5PPP/R2Q1RK1 w - - 0 16",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
    "r2qr1k1/1p1b1pp1/p1nbpn1p/3p4/3P1B2/P1NBPN2/1P3PPP/R2Q1RK1 w - - 0 13",
    "3r1rk1/p1q2ppp/1pb1pn2/2p5/2P1P3/P1B2B2/1P1Q1PPP/3R1RK1 w - - 0 18",
    "r1bq1rk1/ppp2ppp/2n1pn2/3p4/1bPP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 4 7",
    // Tactics (Win at Chess and friends).
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "6k1/p3q2p/1nr3pB/8/3Q1P2/6P1/PP5P/3R2K1 b - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    // Endgames.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/1k6/8/8/8/4P3/4K3 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "1R6/1P3k2/8/8/8/8/2r5/1K6 w - - 0 1",
    "8/8/8/8/4k3/8/3KP3/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/4kp2/8/5K2/8/5P2/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    "8/8/8/3k4/8/8/8/2BNK3 w - - 0 1",
    "8/3k4/8/8/3K4/8/3P4/8 w - - 0 1",
    "2k5/8/8/8/8/8/3Q4/4K2r w - - 0 1",
    "8/8/3k4/8/8/3r4/3P4/3K1R2 w - - 0 1",
    "5k2/8/5K2/4B3/8/8/5P2/8 w - - 0 1",
    "8/6pk/8/8/8/8/5PPP/5RK1 w - - 0 1",
    // Chess960 starts, and one after a few moves.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "nrbbqknr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKNR w HBhb - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
    "r1kr2bb/1pp1pppp/p2nqn2/3p4/3P4/2N1QN2/PPP1PPPP/R1KR2BB w DAda - 4 6",
];

#[cfg(test)]
mod tests {
    use super::POSITIONS;
    use crate::board::Board;

    #[test]
    fn every_bench_position_parses() {
        assert!(POSITIONS.len() >= 40);
        for fen in POSITIONS {
            Board::<crate::attacks::Magic>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
    }
}
