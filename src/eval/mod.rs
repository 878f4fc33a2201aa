//! The static evaluation: a placeholder of material and simple piece-square terms,
//! behind the interface the full evaluation fills.

use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::types::{Color, PieceKind};

/// Per-thread pawn hash (unused by this placeholder).
#[derive(Debug, Default)]
pub struct PawnTable;

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        PawnTable
    }

    /// Forget every entry.
    pub fn clear(&mut self) {}
}

const VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Centralisation bonus for a square, 0 (corner) to 6 (centre).
const fn centrality(sq: usize) -> i32 {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df + dr
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate<B: Bits, S: Slider>(
    board: &Board<S>,
    pawns: &mut PawnTable,
    alpha: i32,
    beta: i32,
) -> i32 {
    let _ = (pawns, alpha, beta);
    let mut score = [0i32; 2];
    let phase = B::popcount(board.kind_bb(PieceKind::Knight) | board.kind_bb(PieceKind::Bishop))
        as i32
        + 2 * B::popcount(board.kind_bb(PieceKind::Rook)) as i32
        + 4 * B::popcount(board.kind_bb(PieceKind::Queen)) as i32;
    let phase = phase.min(24);
    for color in Color::BOTH {
        let c = color.index();
        for kind in PieceKind::ALL {
            let mut bb = board.pieces(color, kind);
            while bb != 0 {
                let sq = B::pop_lsb(&mut bb) as usize;
                let rel_rank = if c == 0 { sq >> 3 } else { 7 - (sq >> 3) } as i32;
                score[c] += VALUES[kind.index()];
                score[c] += match kind {
                    PieceKind::Pawn => rel_rank * rel_rank * 3 + centrality(sq) * 2,
                    PieceKind::Knight => centrality(sq) * 6 - 18,
                    PieceKind::Bishop => centrality(sq) * 3,
                    PieceKind::Rook => {
                        if rel_rank == 6 {
                            20
                        } else {
                            0
                        }
                    }
                    PieceKind::Queen => centrality(sq),
                    PieceKind::King => {
                        let mg = if rel_rank == 0 { 20 } else { -10 * rel_rank };
                        let eg = centrality(sq) * 6;
                        (mg * phase + eg * (24 - phase)) / 24
                    }
                };
            }
        }
    }
    let white = score[0] - score[1];
    let tempo = 10;
    match board.side_to_move() {
        Color::White => white + tempo,
        Color::Black => -white + tempo,
    }
}
