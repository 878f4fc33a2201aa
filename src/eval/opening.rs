//! Gk's opening terms: control of the centre, development and the early queen.
//!
//! Gk scores them by hand; brokkr keeps the ideas and lets the tuner weigh them
//! beside the piece-square tables, which already say where a piece stands well.
//! What the tables cannot say is what these add: how many of our pieces bear on
//! the centre (an attack count, not a square), and a queen out early while the
//! minors still sit at home (a product of two pieces' squares).

use super::geometry::relative_rank_mask;
use super::params::{CENTRE_CONTROL, EARLY_QUEEN, UNDEVELOPED};
use super::pieces::Info;
use super::score::S;
use super::trace::{Term, Trace};
use super::weight;
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::types::{Color, PieceKind};

/// d4, e4, d5 and e5.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// The ring around the centre: c3 to f6 without d4-e5.
const CENTRE_RING: u64 = 0x0000_3C3C_3C3C_0000 & !CENTRE;

/// Control of the centre by `c`: the squares of [`CENTRE`] and of [`CENTRE_RING`]
/// that `c` attacks, each counted once more when attacked twice. Reads the attacks
/// gathered in `info`, so it runs after the pieces of both sides.
pub(crate) fn centre<B: Bits, T: Trace>(c: Color, info: &Info, t: &mut T) -> S {
    let (all, twice) = (info.all[c.index()], info.twice[c.index()]);
    let count = |zone: u64| (B::popcount(all & zone) + B::popcount(twice & zone)) as i32;
    let s = weight(t, c, CENTRE_CONTROL, count(CENTRE))
        + weight(t, c, CENTRE_CONTROL + 1, count(CENTRE_RING));
    t.term(Term::Centre, c, s);
    s
}

/// Development of `c`: its knights and bishops still on its first rank, and a
/// queen that has left the first rank while they are there (counted per minor at
/// home). The first rank rather than the standard home squares, so that the term
/// means the same in Chess960.
pub(crate) fn development<B: Bits, Sl: Slider, T: Trace>(
    board: &Board<Sl>,
    c: Color,
    t: &mut T,
) -> S {
    let first = relative_rank_mask(c, 0);
    let minors = board.pieces(c, PieceKind::Knight) | board.pieces(c, PieceKind::Bishop);
    let at_home = B::popcount(minors & first) as i32;
    let queens_out = B::popcount(board.pieces(c, PieceKind::Queen) & !first) as i32;
    let s = weight(t, c, UNDEVELOPED, at_home) + weight(t, c, EARLY_QUEEN, queens_out * at_home);
    t.term(Term::Development, c, s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;
    use crate::bits::Portable;
    use crate::eval::pieces::{pieces, Info};

    /// Records how many times each weight was applied, per colour.
    #[derive(Default)]
    struct Counts(Vec<(Color, usize, i32)>);

    impl Trace for Counts {
        const ON: bool = true;
        fn weight(&mut self, color: Color, idx: usize, count: i32) {
            self.0.push((color, idx, count));
        }
    }

    impl Counts {
        fn of(&self, color: Color, idx: usize) -> i32 {
            self.0
                .iter()
                .filter(|&&(c, i, _)| c == color && i == idx)
                .map(|&(_, _, n)| n)
                .sum()
        }
    }

    fn development_counts(fen: &str) -> Counts {
        let board = Board::<Magic>::from_fen(fen).unwrap();
        let mut t = Counts::default();
        for c in Color::BOTH {
            development::<Portable, Magic, _>(&board, c, &mut t);
        }
        t
    }

    fn centre_counts(fen: &str) -> Counts {
        let board = Board::<Magic>::from_fen(fen).unwrap();
        let mut info = Info::new::<Magic>(&board);
        let mut t = Counts::default();
        for c in Color::BOTH {
            pieces::<Portable, Magic, _>(&board, c, &mut info, u32::MAX, &mut Counts::default());
        }
        for c in Color::BOTH {
            centre::<Portable, _>(c, &info, &mut t);
        }
        t
    }

    #[test]
    fn the_centre_masks_are_the_squares_named() {
        // d4 = 27, e4 = 28, d5 = 35, e5 = 36.
        assert_eq!(CENTRE, 1 << 27 | 1 << 28 | 1 << 35 | 1 << 36);
        // c3..f6 is 16 squares; without the centre, 12.
        assert_eq!(CENTRE_RING.count_ones(), 12);
        for sq in 0..64 {
            let (file, rank) = (sq % 8, sq / 8);
            let in_box = (2..=5).contains(&file) && (2..=5).contains(&rank);
            assert_eq!(CENTRE_RING >> sq & 1 == 1, in_box && CENTRE >> sq & 1 == 0);
        }
    }

    #[test]
    fn development_counts_minors_at_home_and_the_queen_out_early() {
        // The start: four minors at home each, both queens at home.
        let t = development_counts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for c in Color::BOTH {
            assert_eq!(t.of(c, UNDEVELOPED), 4);
            assert_eq!(t.of(c, EARLY_QUEEN), 0);
        }
        // 1.e4 e5 2.Qh5 Nc6: White's queen is out with four minors at home,
        // Black has three at home and its queen on d8.
        let t =
            development_counts("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3");
        assert_eq!(t.of(Color::White, UNDEVELOPED), 4);
        assert_eq!(t.of(Color::White, EARLY_QUEEN), 4);
        assert_eq!(t.of(Color::Black, UNDEVELOPED), 3);
        assert_eq!(t.of(Color::Black, EARLY_QUEEN), 0);
        // Developed minors and a queen out: nothing to pay.
        let t =
            development_counts("r3k2r/ppp2ppp/2nbbn2/3qp3/3QP3/2NBBN2/PPP2PPP/R3K2R w KQkq - 0 1");
        for c in Color::BOTH {
            assert_eq!(t.of(c, UNDEVELOPED), 0);
            assert_eq!(t.of(c, EARLY_QUEEN), 0);
        }
    }

    #[test]
    fn centre_control_counts_squares_attacked_up_to_twice() {
        // Kings only, far from the centre: nothing.
        let t = centre_counts("k7/8/8/8/8/8/8/7K w - - 0 1");
        for c in Color::BOTH {
            assert_eq!(t.of(c, CENTRE_CONTROL), 0);
            assert_eq!(t.of(c, CENTRE_CONTROL + 1), 0);
        }
        // A white knight on f3 hits e5 and d4 in the centre; its other squares
        // (d2, e1, g1, h2, h4, g5) lie outside c3-f6. A pawn on e4 adds d5 (the
        // centre) and f5 (the ring). The king on h1 reaches neither.
        let t = centre_counts("k7/8/8/8/4P3/5N2/8/7K w - - 0 1");
        assert_eq!(t.of(Color::White, CENTRE_CONTROL), 3);
        assert_eq!(t.of(Color::White, CENTRE_CONTROL + 1), 1);
        // A second knight on c3 attacks d5 and e4 (centre), and b5, a4, a2, b1,
        // d1, e2 (none in the ring): d5 is now attacked twice and counts twice.
        let t = centre_counts("k7/8/8/8/4P3/2N2N2/8/7K w - - 0 1");
        assert_eq!(t.of(Color::White, CENTRE_CONTROL), 3 + 2);
        assert_eq!(t.of(Color::White, CENTRE_CONTROL + 1), 1);
        assert_eq!(t.of(Color::Black, CENTRE_CONTROL), 0);
    }
}
