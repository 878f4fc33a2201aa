//! Making and unmaking moves on a [`Board`], the null move, and the key a move
//! leads to.

use super::*;

impl<S: Slider> Board<S> {
    /// Play the legal move `m` on this board, scanning bits with the path `B`.
    ///
    /// `m` must be legal here (from the generator, or checked with
    /// [`Board::is_legal`]); an illegal move leaves an inconsistent board.
    /// `B` changes only the speed, never the result: code off the hot path
    /// passes [`Portable`](crate::bits::Portable).
    ///
    /// Besides the pieces and keys, make keeps the new side to move's checkers
    /// and king blockers (the generator and `is_legal` read them), and keys the
    /// en-passant square only when the capture is legal.
    #[inline]
    pub fn make<B: Bits>(&mut self, m: Move) {
        self.play::<B, true, true>(m);
    }

    /// The body of [`Board::make`]; with `KEYS` false, of perft's
    /// `make_without_keys`; with `MAILBOX` false as well, of perft's `make_leaf`
    /// (both in `board::perft::make`). Constants at every call site, so each is compiled
    /// without the others' tests.
    #[inline(always)]
    pub(super) fn play<B: Bits, const KEYS: bool, const MAILBOX: bool>(&mut self, m: Move) {
        let us = self.side.index();
        let them = us ^ 1;
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.mailbox[from] as usize;
        // The king of the side to move next: no move of ours moves it, so it
        // is read before the pieces change and stays off the chain of stores
        // that the new side's checkers and blockers wait for.
        let their_king = self.ksq::<B>(them);

        if self.ep != NO_SQUARE {
            if KEYS && self.ep < 64 {
                self.key ^= ZOBRIST_EN_PASSANT[(self.ep & 7) as usize];
            }
            self.ep = NO_SQUARE;
        }
        if KEYS {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        let mut double_push = false;

        match m.kind() {
            MoveKind::Normal => {
                let captured = self.mailbox[to];
                if captured != NO_PIECE {
                    self.remove::<KEYS, MAILBOX>(them, captured as usize, to);
                    if KEYS {
                        self.halfmove = 0;
                    }
                }
                self.shift::<KEYS, MAILBOX>(us, piece, from, to);
                if piece == code(us, PAWN) {
                    if KEYS {
                        self.halfmove = 0;
                    }
                    double_push = from ^ to == 16
                        && PAWN_ATTACKS[us][(from + to) / 2]
                            & self.pieces[PAWN]
                            & self.colors[them]
                            != 0;
                }
            }
            MoveKind::Promotion => {
                let captured = self.mailbox[to];
                if captured != NO_PIECE {
                    self.remove::<KEYS, MAILBOX>(them, captured as usize, to);
                }
                self.remove::<KEYS, MAILBOX>(us, piece, from);
                let kind = m.promotion_kind().map_or(QUEEN, |k| k.index());
                self.put::<KEYS, MAILBOX>(us, code(us, kind), to);
                if KEYS {
                    self.halfmove = 0;
                }
            }
            MoveKind::EnPassant => {
                self.remove::<KEYS, MAILBOX>(them, code(them, PAWN), to ^ 8);
                self.shift::<KEYS, MAILBOX>(us, piece, from, to);
                if KEYS {
                    self.halfmove = 0;
                }
            }
            MoveKind::Castling => {
                let rook = to;
                let (king_to, rook_to) = castling_targets(from, rook);
                self.remove::<KEYS, MAILBOX>(us, piece, from);
                self.remove::<KEYS, MAILBOX>(us, code(us, ROOK), rook);
                self.put::<KEYS, MAILBOX>(us, piece, king_to);
                self.put::<KEYS, MAILBOX>(us, code(us, ROOK), rook_to);
            }
        }

        if self.castling != 0 {
            self.update_castling::<B, KEYS>(piece, from, to);
        }
        if KEYS && us == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        if KEYS {
            self.key ^= ZOBRIST_SIDE;
        }
        self.update_check_state_at::<B>(their_king);
        // Record the en-passant square when an enemy pawn stands beside the pawn,
        // and key it only if the capture is legal, so that positions offering the
        // same moves have equal keys (the FEN parser agrees).
        if double_push {
            let ep = (from + to) / 2;
            if self.ep_capture_exists::<B>(ep) {
                self.ep = ep as u8;
                if KEYS {
                    self.key ^= ZOBRIST_EN_PASSANT[ep & 7];
                }
            } else {
                self.ep = ep as u8 | EP_UNUSABLE;
            }
        }
    }

    /// The castling rights a move from `from` to `to` by `piece` leaves.
    #[inline(always)]
    pub(super) fn rights_after(&self, piece: usize, from: usize, to: usize) -> u8 {
        // Most moves touch none of the castling kings' and rooks' squares,
        // which one test shows.
        if ((1u64 << from) | (1u64 << to)) & self.castle_squares == 0 {
            return self.castling;
        }
        let mut lost = 0u8;
        if kind_of(piece) == KING {
            lost |= 3 << (2 * color_of(piece));
        }
        for i in 0..4 {
            let r = self.castle_rooks[i] as usize;
            if r == from || r == to {
                lost |= 1 << i;
            }
        }
        self.castling & !lost
    }

    /// Drop the rights whose king or rook this move touched.
    ///
    /// With `KEYS` false only the rights change (see [`Board::make_without_keys`]).
    #[inline(always)]
    fn update_castling<B: Bits, const KEYS: bool>(&mut self, piece: usize, from: usize, to: usize) {
        let rights = self.rights_after(piece, from, to);
        if !KEYS {
            self.castling = rights;
            return;
        }
        if rights != self.castling {
            self.key ^= castling_key::<B>(self.castling, &self.castle_rooks);
            // Forget the rooks of lost rights, so equal positions compare equal.
            let lost = self.castling & !rights;
            for (i, rook) in self.castle_rooks.iter_mut().enumerate() {
                if lost >> i & 1 != 0 {
                    *rook = 0;
                }
            }
            self.castling = rights;
            self.key ^= castling_key::<B>(self.castling, &self.castle_rooks);
        }
    }

    /// The Zobrist key of the position after the legal move `m`, without making it
    /// (for a caller that looks up or prefetches a hash entry before making it).
    ///
    /// Exact for every move: castling, en passant, promotions and the castling
    /// rights a move takes away included. The one expensive case, a double pawn
    /// push next to an enemy pawn (whether the en-passant key joins depends on that
    /// capture's legality), plays the move on a copy.
    #[inline]
    pub fn key_after<B: Bits>(&self, m: Move) -> u64 {
        let us = self.side.index();
        let from = m.from().index();
        let to = m.to().index();
        let piece = self.mailbox[from] as usize & 15;
        let mut key = self.key ^ ZOBRIST_SIDE;
        if self.ep < 64 {
            key ^= ZOBRIST_EN_PASSANT[(self.ep & 7) as usize];
        }
        if piece >= NO_PIECE as usize {
            return key;
        }
        match m.kind() {
            MoveKind::Normal => {
                let captured = self.mailbox[to] as usize;
                if captured < NO_PIECE as usize {
                    key ^= ZOBRIST_PIECES[captured][to];
                }
                key ^= ZOBRIST_PIECES[piece][from] ^ ZOBRIST_PIECES[piece][to];
                if is_pawn(piece)
                    && from ^ to == 16
                    && PAWN_ATTACKS[us][(from + to) / 2] & self.pieces[PAWN] & self.colors[us ^ 1]
                        != 0
                {
                    return self.with_move::<B>(m).key;
                }
            }
            MoveKind::Promotion => {
                let captured = self.mailbox[to] as usize;
                if captured < NO_PIECE as usize {
                    key ^= ZOBRIST_PIECES[captured][to];
                }
                let kind = m.promotion_kind().map_or(QUEEN, |k| k.index());
                key ^= ZOBRIST_PIECES[piece][from] ^ ZOBRIST_PIECES[code(us, kind)][to];
            }
            MoveKind::EnPassant => {
                key ^= ZOBRIST_PIECES[code(us ^ 1, PAWN)][to ^ 8];
                key ^= ZOBRIST_PIECES[piece][from] ^ ZOBRIST_PIECES[piece][to];
            }
            MoveKind::Castling => {
                let (king_to, rook_to) = castling_targets(from, to);
                let rook = code(us, ROOK);
                key ^= ZOBRIST_PIECES[piece][from] ^ ZOBRIST_PIECES[piece][king_to];
                key ^= ZOBRIST_PIECES[rook][to] ^ ZOBRIST_PIECES[rook][rook_to];
            }
        }
        if self.castling != 0 {
            let rights = self.rights_after(piece, from, to);
            if rights != self.castling {
                let mut rooks = self.castle_rooks;
                for (i, r) in rooks.iter_mut().enumerate() {
                    if rights >> i & 1 == 0 {
                        *r = 0;
                    }
                }
                key ^= castling_key::<B>(self.castling, &self.castle_rooks)
                    ^ castling_key::<B>(rights, &rooks);
            }
        }
        key
    }

    /// Pass the move to the other side and return what
    /// [`Board::unmake_null`] needs. Must not be used in check.
    pub fn make_null_undoable<B: Bits>(&mut self) -> Undo {
        let undo = self.undo_record(NO_PIECE);
        self.make_null::<B>();
        undo
    }

    /// Take back a null move made with [`Board::make_null_undoable`].
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side = self.side.flip();
        self.restore(undo);
    }

    /// Pass the move to the other side, scanning bits with the path `B`. Must not
    /// be used in check.
    pub fn make_null<B: Bits>(&mut self) {
        debug_assert!(self.checkers == 0);
        if self.ep != NO_SQUARE {
            if self.ep < 64 {
                self.key ^= ZOBRIST_EN_PASSANT[(self.ep & 7) as usize];
            }
            self.ep = NO_SQUARE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= ZOBRIST_SIDE;
        self.update_check_state::<B>();
    }

    /// A copy of this board with `m` played (with the bit path `B`).
    #[inline(always)]
    pub fn with_move<B: Bits>(&self, m: Move) -> Board<S> {
        let mut b = *self;
        b.make::<B>(m);
        b
    }
}

/// Where king and rook end up when the king on `from` castles with the rook on
/// `rook` (the standard squares, whatever the start squares: Chess960 rules).
#[inline(always)]
pub(crate) fn castling_targets(from: usize, rook: usize) -> (usize, usize) {
    let back = from & 56;
    if rook > from {
        (back + 6, back + 5)
    } else {
        (back + 2, back + 3)
    }
}

/// What [`Board::make_undoable`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    castling: u8,
    castle_rooks: [u8; 4],
    ep: u8,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    pawn_key: u64,
    checkers: Bitboard,
    blockers: Bitboard,
}

impl<S: Slider> Board<S> {
    /// The state a move overwrites, with the piece it captures.
    #[inline(always)]
    fn undo_record(&self, captured: u8) -> Undo {
        Undo {
            captured,
            castling: self.castling,
            castle_rooks: self.castle_rooks,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            pawn_key: self.pawn_key,
            checkers: self.checkers,
            blockers: self.blockers,
        }
    }

    /// Put back the state `undo` recorded.
    #[inline(always)]
    fn restore(&mut self, undo: &Undo) {
        self.castling = undo.castling;
        self.castle_rooks = undo.castle_rooks;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.key = undo.key;
        self.pawn_key = undo.pawn_key;
        self.checkers = undo.checkers;
        self.blockers = undo.blockers;
    }

    /// The piece code `m` captures on its target square, or `NO_PIECE` (en
    /// passant's pawn and castling's rook are put back by the move's kind).
    #[inline(always)]
    pub(super) fn captured_by(&self, m: Move) -> u8 {
        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion => self.mailbox[m.to().index()],
            _ => NO_PIECE,
        }
    }

    /// Play `m` and return what [`Board::unmake`] needs to take it back.
    ///
    /// make/unmake measured 6-16% faster than copy-make ([`Board::with_move`]) in
    /// perft on four of the five positions of `benches/perft.rs`, so perft and
    /// [`Position`] use it.
    #[inline]
    pub fn make_undoable<B: Bits>(&mut self, m: Move) -> Undo {
        let captured = self.captured_by(m);
        let undo = self.undo_record(captured);
        self.make::<B>(m);
        undo
    }

    /// Take back `m`, which must be the last move made with
    /// [`Board::make_undoable`] (returning `undo`).
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        self.side = self.side.flip();
        self.unmove(m, undo.captured);
        self.restore(undo);
    }

    /// Put the pieces of `m` back where they stood, `captured` (a piece code or
    /// `NO_PIECE`) on its square again, with the side to move already flipped
    /// back. The keys are left to the caller's record.
    #[inline(always)]
    pub(super) fn unmove(&mut self, m: Move, captured: u8) {
        let us = self.side.index();
        let from = m.from().index();
        let to = m.to().index();
        match m.kind() {
            MoveKind::Normal => {
                let piece = self.mailbox[to] as usize;
                self.shift::<false, true>(us, piece, to, from);
                if captured != NO_PIECE {
                    self.put::<false, true>(us ^ 1, captured as usize, to);
                }
            }
            MoveKind::Promotion => {
                let promoted = self.mailbox[to] as usize;
                self.remove::<false, true>(us, promoted, to);
                self.put::<false, true>(us, code(us, PAWN), from);
                if captured != NO_PIECE {
                    self.put::<false, true>(us ^ 1, captured as usize, to);
                }
            }
            MoveKind::EnPassant => {
                self.shift::<false, true>(us, code(us, PAWN), to, from);
                self.put::<false, true>(us ^ 1, code(us ^ 1, PAWN), to ^ 8);
            }
            MoveKind::Castling => {
                let (king_to, rook_to) = castling_targets(from, to);
                self.remove::<false, true>(us, code(us, KING), king_to);
                self.remove::<false, true>(us, code(us, ROOK), rook_to);
                self.put::<false, true>(us, code(us, KING), from);
                self.put::<false, true>(us, code(us, ROOK), to);
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use crate::attacks::Magic;
    use crate::bits::{Counting, Portable};
    use crate::board::Board;

    /// Castling both ways, en passant, promotions, a pin and checks to give
    /// (the perft makes' tests use them too).
    pub(in crate::board) const POSITIONS: [&str; 4] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];

    #[test]
    fn make_and_make_null_scan_with_the_path_they_are_given() {
        for fen in POSITIONS {
            let b = Board::<Magic>::from_fen(fen).unwrap();
            for m in b.legal_moves::<Portable>().iter() {
                let mut c = b;
                let before = Counting::scans();
                c.make::<Counting>(m);
                assert!(
                    Counting::scans() > before,
                    "{fen} {m:?}: make scanned no bit through B"
                );
                assert_eq!(c, b.with_move::<Portable>(m), "{fen} {m:?}");
                assert_eq!(b.key_after::<Counting>(m), c.key(), "{fen} {m:?}");
            }
            if !b.in_check() {
                let mut c = b;
                let before = Counting::scans();
                c.make_null::<Counting>();
                assert!(
                    Counting::scans() > before,
                    "{fen}: make_null scanned no bit through B"
                );
                let mut p = b;
                p.make_null::<Portable>();
                assert_eq!(c, p, "{fen}");
            }
        }
    }
}
