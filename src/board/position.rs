//! A [`Board`] plus the history the rules need: earlier positions' keys for
//! repetitions, and a stack of boards so moves can be taken back.

use super::{Board, FenError};
use crate::attacks::{Magic, Slider};
use crate::types::Move;

/// A game position with its history.
#[derive(Clone, Debug)]
pub struct Position<S: Slider = Magic> {
    board: Board<S>,
    /// Boards before each move played, most recent last.
    stack: Vec<Board<S>>,
}

impl<S: Slider> Position<S> {
    pub fn new(board: Board<S>) -> Position<S> {
        Position {
            board,
            stack: Vec::with_capacity(256),
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
        self.stack.push(self.board);
        self.board.make(m);
    }

    /// Pass (null move). Must not be used in check.
    pub fn push_null(&mut self) {
        self.stack.push(self.board);
        self.board.make_null();
    }

    /// Take back the last move; false if there is none.
    #[inline]
    pub fn pop(&mut self) -> bool {
        match self.stack.pop() {
            Some(b) => {
                self.board = b;
                true
            }
            None => false,
        }
    }

    /// Number of moves played since the position was set up.
    pub fn ply(&self) -> usize {
        self.stack.len()
    }

    /// Whether the current position occurred before, within the reversible moves
    /// (`count` = 1 for "once before", 2 for a threefold repetition).
    pub fn repetitions(&self) -> usize {
        let key = self.board.key();
        let reversible = self.board.halfmove_clock() as usize;
        self.stack
            .iter()
            .rev()
            .take(reversible)
            .skip(1)
            .step_by(2)
            .filter(|b| b.key() == key)
            .count()
    }

    /// Draw by the fifty-move rule, threefold repetition or insufficient material.
    pub fn is_draw(&self) -> bool {
        self.board.halfmove_clock() >= 100
            || self.repetitions() >= 2
            || self.board.insufficient_material()
    }
}
