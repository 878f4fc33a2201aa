//! A [`Board`] plus the history the rules need: earlier positions' keys for
//! repetitions, and what make/unmake needs to take moves back.

use super::{Board, FenError, Undo};
use crate::attacks::{Magic, Slider};
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
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.keys.push(self.board.key());
        let undo = self.board.make_undoable(m);
        self.undo.push((Some(m), undo));
    }

    /// Pass (null move). Must not be used in check.
    pub fn push_null(&mut self) {
        self.keys.push(self.board.key());
        let undo = self.board.make_null_undoable();
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

    /// Number of moves played since the position was set up.
    pub fn ply(&self) -> usize {
        self.undo.len()
    }

    /// Whether the current position occurred before, within the reversible moves
    /// (`count` = 1 for "once before", 2 for a threefold repetition).
    pub fn repetitions(&self) -> usize {
        let key = self.board.key();
        let reversible = self.board.halfmove_clock() as usize;
        self.keys
            .iter()
            .rev()
            .take(reversible)
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == key)
            .count()
    }

    /// Draw by the fifty-move rule, threefold repetition or insufficient material.
    pub fn is_draw(&self) -> bool {
        self.board.halfmove_clock() >= 100
            || self.repetitions() >= 2
            || self.board.insufficient_material()
    }
}
