//! Which input a piece on a square is: the one definition the engine's
//! accumulators and the trainer share, so the two cannot disagree.
//!
//! Each side sees the board from its own side: for Black the board is flipped
//! vertically (a1 becomes a8), and "own" pieces come first. Input
//! `own × 384 + kind × 64 + square`, with own = 0 for the perspective's pieces
//! and 1 for the other side's, is the layout bullet calls `Chess768`, so a net
//! trained there loads here.

use crate::types::{Color, Piece, Square};

/// Inputs per perspective.
pub const INPUTS: usize = crate::nnue::file::INPUTS;

/// The input of `piece` on `square` from `perspective`'s side.
#[inline(always)]
pub const fn index(perspective: Color, piece: Piece, square: Square) -> usize {
    let (sq, own) = match perspective {
        Color::White => (square.index(), piece.color() as usize),
        Color::Black => (square.index() ^ 56, 1 - piece.color() as usize),
    };
    own * 384 + piece.kind().index() * 64 + sq
}

/// The output bucket for a position with `pieces` men on the board (kings and
/// pawns included, 2 to 32) in a net with `buckets` buckets: equal slices of the
/// piece count, so with 8 buckets it is `(pieces - 2) / 4`, bullet's
/// `MaterialCount<8>`.
#[inline(always)]
pub const fn bucket(pieces: u32, buckets: usize) -> usize {
    let per = 32usize.div_ceil(buckets);
    let b = (pieces as usize).saturating_sub(2) / per;
    if b < buckets {
        b
    } else {
        buckets - 1
    }
}

/// The inputs of every piece on `board`, from both sides: `(white, black)` views.
pub fn active<S: crate::attacks::Slider>(
    board: &crate::board::Board<S>,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..64).map(Square::new).filter_map(move |sq| {
        board
            .piece_on(sq)
            .map(|p| (index(Color::White, p, sq), index(Color::Black, p, sq)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    #[test]
    fn the_views_mirror_each_other() {
        let wp = Piece::new(Color::White, PieceKind::Pawn);
        let bp = Piece::new(Color::Black, PieceKind::Pawn);
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        assert_eq!(index(Color::White, wp, e2), 12);
        assert_eq!(index(Color::Black, bp, e7), 12);
        assert_eq!(index(Color::White, bp, e7), 384 + 52);
        let bk = Piece::new(Color::Black, PieceKind::King);
        assert_eq!(
            index(Color::Black, bk, Square::parse("e8").unwrap()),
            5 * 64 + 4
        );
    }

    #[test]
    fn every_input_is_used_once() {
        let mut seen = [[false; INPUTS]; 2];
        for p in 0..12 {
            let piece = Piece::from_index(p).unwrap();
            for sq in (0..64).map(Square::new) {
                for (v, c) in Color::BOTH.into_iter().enumerate() {
                    let i = index(c, piece, sq);
                    assert!(!seen[v][i]);
                    seen[v][i] = true;
                }
            }
        }
    }

    #[test]
    fn buckets_slice_the_piece_count() {
        assert_eq!(bucket(32, 8), 7);
        assert_eq!(bucket(2, 8), 0);
        assert_eq!(bucket(6, 8), 1);
        assert_eq!(bucket(32, 1), 0);
        for n in 2..=32 {
            assert_eq!(bucket(n, 8), (n as usize - 2) / 4);
        }
    }
}
