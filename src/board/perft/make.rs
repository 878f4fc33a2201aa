//! Perft's own make and unmake: the fast path that skips what perft never
//! reads (the keys, the counters, at the last ply but one the mailbox). The
//! search's make is in `board::make`; both run its `play`, with constants that
//! compile each without the others' work.

use super::super::*;

impl<S: Slider> Board<S> {
    /// [`Board::make`] for perft alone: the same move on the pieces, castling
    /// rights, en-passant square, checkers and blockers, but the Zobrist keys,
    /// the move counters and the rook squares of lost castling rights are left
    /// as they were. Perft reads none of them, and since they never change on
    /// the way down the board is whole again after
    /// [`Board::unmake_without_keys`]; in between, `key()` and the counters are
    /// stale.
    #[inline]
    pub(crate) fn make_without_keys<B: Bits>(&mut self, m: Move) {
        self.play::<B, false, true>(m);
    }

    /// [`Board::make_undoable`] with [`Board::make_without_keys`], for perft:
    /// the record holds only what that make changes.
    #[inline(always)]
    pub(crate) fn make_undoable_without_keys<B: Bits>(&mut self, m: Move) -> PerftUndo {
        let captured = self.captured_by(m);
        let undo = PerftUndo {
            captured,
            castling: self.castling,
            ep: self.ep,
            checkers: self.checkers,
            blockers: self.blockers,
        };
        self.make_without_keys::<B>(m);
        undo
    }

    /// [`Board::make_without_keys`] that leaves the mailbox as it was too, for
    /// perft's last ply but one, whose children are only counted: the
    /// generator reads bitboards alone, and make reads the mailbox only on the
    /// squares of the move, which stay right as long as every move played on
    /// the board is taken back with [`Board::unmake_leaf`] before the next.
    #[inline(always)]
    pub(crate) fn make_leaf<B: Bits>(&mut self, m: Move) {
        self.play::<B, false, false>(m);
    }

    /// [`Board::make_leaf`] for a move whose kind the caller knows: our
    /// `kind` piece goes from `from` to `to`, capturing whatever stands there,
    /// and it is neither castling, en passant, a promotion nor a double push
    /// (so no en-passant square follows). The pieces, castling rights, side and
    /// en-passant square are updated; the new side's checkers and blockers are
    /// left to the caller, who may know them without looking
    /// (`perft::LeafParent`).
    #[inline(always)]
    pub(crate) fn make_leaf_normal(&mut self, kind: usize, from: usize, to: usize) {
        let us = self.side.index();
        let them = us ^ 1;
        let moved = (1u64 << from) | (1u64 << to);
        let captured = self.mailbox[to];
        self.pieces[kind] ^= moved;
        self.colors[us] ^= moved;
        S::toggle(&mut self.slider, from);
        if captured == NO_PIECE {
            S::toggle(&mut self.slider, to);
        } else {
            let lost = kind_of_colored(captured as usize, them);
            self.pieces[lost] ^= 1 << to;
            self.colors[them] ^= 1 << to;
        }
        if self.castling != 0 {
            self.castling = self.rights_after(code(us, kind), from, to);
        }
        self.side = self.side.flip();
        self.ep = NO_SQUARE;
    }

    /// Take back the last move made with [`Board::make_leaf`] by copying back
    /// what it changed from `parent`, the board it was played on: no
    /// dispatch on the move, and no chain through the bitboards it changed.
    #[inline(always)]
    pub(crate) fn unmake_leaf(&mut self, parent: &Board<S>) {
        self.pieces = parent.pieces;
        self.colors = parent.colors;
        self.slider = parent.slider;
        self.side = parent.side;
        self.castling = parent.castling;
        self.ep = parent.ep;
        self.checkers = parent.checkers;
        self.blockers = parent.blockers;
    }

    /// Take back `m`, which must be the last move made with
    /// [`Board::make_undoable_without_keys`] (returning `undo`). Inlined into
    /// perft's loop, unlike [`Board::unmake`], which the search calls from
    /// many places.
    #[inline(always)]
    pub(crate) fn unmake_without_keys(&mut self, m: Move, undo: &PerftUndo) {
        self.side = self.side.flip();
        self.unmove(m, undo.captured);
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.checkers = undo.checkers;
        self.blockers = undo.blockers;
    }
}

/// What [`Board::unmake_without_keys`] needs to take a perft move back: the
/// state [`Board::make_without_keys`] changes, and no more.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PerftUndo {
    captured: u8,
    castling: u8,
    ep: u8,
    checkers: Bitboard,
    blockers: Bitboard,
}

#[cfg(test)]
mod tests {
    use crate::attacks::Magic;
    use crate::bits::Portable;
    use crate::board::make::tests::POSITIONS;
    use crate::board::{kind_of, Board, PAWN};
    use crate::types::{Move, MoveKind};

    /// Besides [`POSITIONS`], for the perft makes: a Chess960-style rook off
    /// its corner.
    const ROOK_OFF_CORNER: [&str; 1] = ["1r2k2r/8/8/8/8/8/8/R3K1R1 w KQk - 0 1"];

    /// What the generator reads after a perft make (`fast`) is what it reads
    /// after make (`full`): the moves, checkers, pins, en-passant square and
    /// castling rights.
    fn assert_generates_alike(fast: &Board<Magic>, full: &Board<Magic>, fen: &str, m: Move) {
        assert_eq!(
            fast.legal_moves::<Portable>().as_slice(),
            full.legal_moves::<Portable>().as_slice(),
            "{fen} {m:?}"
        );
        assert_eq!(fast.checkers(), full.checkers(), "{fen} {m:?}");
        assert_eq!(fast.pinned(), full.pinned(), "{fen} {m:?}");
        assert_eq!(fast.ep_square(), full.ep_square(), "{fen} {m:?}");
        assert_eq!(
            fast.castling_rights(),
            full.castling_rights(),
            "{fen} {m:?}"
        );
    }

    /// make and make_null scan with the path they are given (what `bench --bits`
    /// measures), and the path changes nothing but the speed.
    /// Perft's make leaves the keys, the counters and lost rights' rooks
    /// alone but plays everything else as make does, and unmake after it gives
    /// back the board it started from.
    #[test]
    fn make_without_keys_differs_from_make_only_in_what_perft_never_reads() {
        for fen in POSITIONS.into_iter().chain(ROOK_OFF_CORNER) {
            let b = Board::<Magic>::from_fen(fen).unwrap();
            for m in b.legal_moves::<Portable>().iter() {
                let mut fast = b;
                let undo = fast.make_undoable_without_keys::<Portable>(m);
                let full = b.with_move::<Portable>(m);
                assert_generates_alike(&fast, &full, fen, m);
                let fields = |b: &Board<Magic>| -> Vec<String> {
                    b.to_fen().split(' ').take(4).map(str::to_string).collect()
                };
                assert_eq!(fields(&fast), fields(&full), "{fen} {m:?}");
                fast.unmake_without_keys(m, &undo);
                assert_eq!(fast, b, "{fen} {m:?}");
                assert_eq!(fast.key(), b.key(), "{fen} {m:?}");
            }
        }
    }

    /// Perft's last-ply make leaves the mailbox as well, yet the generator
    /// finds the same moves, checkers, pins, en-passant square and rights as
    /// after make, and copying back from the parent gives the board whole.
    #[test]
    fn make_leaf_differs_from_make_only_in_what_the_counting_generator_never_reads() {
        for fen in POSITIONS.into_iter().chain(ROOK_OFF_CORNER) {
            let b = Board::<Magic>::from_fen(fen).unwrap();
            let mut leaf = b;
            for m in b.legal_moves::<Portable>().iter() {
                leaf.make_leaf::<Portable>(m);
                let full = b.with_move::<Portable>(m);
                assert_generates_alike(&leaf, &full, fen, m);
                assert_eq!(
                    leaf.count_moves::<Portable>(),
                    full.count_moves::<Portable>()
                );
                assert_eq!(leaf.mailbox, b.mailbox, "{fen} {m:?}: the mailbox moved");
                leaf.unmake_leaf(&b);
                assert_eq!(leaf, b, "{fen} {m:?}");
            }
        }
    }

    /// The known-kind leaf make, with the checkers and blockers found as
    /// make finds them, plays every normal move (not a double push) as make
    /// does for the generator, and copying back from the parent undoes it.
    #[test]
    fn make_leaf_normal_plays_normal_moves_as_make_does() {
        let mut played = 0;
        for fen in POSITIONS.into_iter().chain(ROOK_OFF_CORNER) {
            let b = Board::<Magic>::from_fen(fen).unwrap();
            let us = b.side.index();
            let their_king = b.ksq::<Portable>(us ^ 1);
            let mut leaf = b;
            for m in b.legal_moves::<Portable>().iter() {
                let (from, to) = (m.from().index(), m.to().index());
                let kind = kind_of(b.mailbox[from] as usize);
                if m.kind() != MoveKind::Normal || (kind == PAWN && from ^ to == 16) {
                    continue;
                }
                leaf.make_leaf_normal(kind, from, to);
                leaf.update_check_state_at::<Portable>(their_king);
                assert_generates_alike(&leaf, &b.with_move::<Portable>(m), fen, m);
                leaf.unmake_leaf(&b);
                assert_eq!(leaf, b, "{fen} {m:?}");
                played += 1;
            }
        }
        assert!(played > 100, "only {played} normal moves");
    }
}
