//! A [`Board`] plus the history the rules need: earlier positions' keys for
//! repetitions, and what make/unmake needs to take moves back.

use super::{Board, FenError, Undo};
use crate::attacks::{Magic, Slider};
use crate::bits::{Bits, Portable};
use crate::types::Move;

/// A game position with its history.
#[derive(Clone, Debug)]
pub struct Position<S: Slider = Magic> {
    board: Board<S>,
    /// The moves played (`None` for a null move) with their undo records.
    undo: Vec<(Option<Move>, Undo)>,
    /// The key of the position before each move played, most recent last.
    keys: Vec<u64>,
}

impl<S: Slider> Position<S> {
    pub fn new(board: Board<S>) -> Position<S> {
        Position {
            board,
            undo: Vec::with_capacity(256),
            keys: Vec::with_capacity(256),
        }
    }

    pub fn from_fen(fen: &str) -> Result<Position<S>, FenError> {
        Board::from_fen(fen).map(Position::new)
    }

    /// The current board.
    #[inline(always)]
    pub fn board(&self) -> &Board<S> {
        &self.board
    }

    /// Play a legal move.
    ///
    /// Scans with the [`Portable`] bit path: a game record is not a hot loop (the
    /// search plays its moves on its own board, with its own path).
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.keys.push(self.board.key());
        let undo = self.board.make_undoable::<Portable>(m);
        self.undo.push((Some(m), undo));
    }

    /// Pass (null move). Must not be used in check.
    pub fn push_null(&mut self) {
        self.keys.push(self.board.key());
        let undo = self.board.make_null_undoable::<Portable>();
        self.undo.push((None, undo));
    }

    /// Take back the last move; false if there is none.
    #[inline]
    pub fn pop(&mut self) -> bool {
        match self.undo.pop() {
            Some((m, undo)) => {
                self.keys.pop();
                match m {
                    Some(m) => self.board.unmake(m, &undo),
                    None => self.board.unmake_null(&undo),
                }
                true
            }
            None => false,
        }
    }

    /// The key of the position before each move played, oldest first (what a
    /// search needs for repetitions against the game).
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Switch Chess960 notation on or off (the position itself is unchanged).
    pub fn set_chess960(&mut self, on: bool) {
        self.board.set_chess960(on);
    }

    /// Number of moves played since the position was set up.
    pub fn ply(&self) -> usize {
        self.undo.len()
    }

    /// How many plies back a position can repeat the current one: the scan stops
    /// at the last irreversible move (capture, pawn move, lost castling right —
    /// the halfmove clock counts from it) and at the last null move, and cannot
    /// go further back than the moves this `Position` knows.
    ///
    /// A null move ends the window because the positions before it are not
    /// reachable by the same moves: Nf3, null, Ng1, null returns the pieces and
    /// the side to move, yet nothing was repeated by play, and treating it as a
    /// repetition would let a search "draw" by passing.
    fn window(&self) -> usize {
        let since_null = self
            .undo
            .iter()
            .rev()
            .position(|(m, _)| m.is_none())
            .unwrap_or(self.undo.len());
        since_null.min(self.board.halfmove_clock() as usize)
    }

    /// Distances (in plies, even, from 4 up) of the earlier positions inside the
    /// window with the current key.
    fn repeats(&self) -> impl Iterator<Item = usize> + '_ {
        super::draw::occurrences(&self.keys, self.board.key(), self.window())
    }

    /// How many times the current position occurred before, since the last
    /// irreversible move and the last null move: 1 means "once before", 2 a
    /// threefold repetition.
    pub fn repetitions(&self) -> usize {
        self.repeats().count()
    }

    /// The repetition test for a search whose root is `plies_from_root` plies back:
    /// true if the current position occurred before at least once *inside the
    /// search tree* (fewer than `plies_from_root` plies ago: the side repeating
    /// could do it again, so it scores as a draw), or at least twice in all (a
    /// threefold with the game's history).
    ///
    /// Null moves and irreversible moves end the scan (see the window above).
    pub fn is_repetition(&self, plies_from_root: usize) -> bool {
        super::draw::is_repetition(&self.keys, self.board.key(), self.window(), plies_from_root)
    }

    /// Whether the game is drawn by threefold repetition: the current position
    /// occurred twice before within the window.
    pub fn is_threefold(&self) -> bool {
        self.repeats().nth(1).is_some()
    }

    /// Whether the fifty-move rule draws the game: 100 plies without capture or
    /// pawn move, unless the side to move is checkmated (a mate on the 100th ply
    /// stands).
    pub fn is_fifty_move_draw<B: Bits>(&self) -> bool {
        super::draw::is_fifty_move_draw::<B, S>(&self.board)
    }

    /// Draw by the fifty-move rule (with the mate exception), threefold
    /// repetition or insufficient material.
    pub fn is_draw(&self) -> bool {
        self.is_fifty_move_draw::<Portable>()
            || self.is_threefold()
            || self.board.insufficient_material()
    }
}
