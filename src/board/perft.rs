//! Perft: count the leaf nodes of the legal move tree, with bulk counting at the
//! last ply (the moves there are counted with popcounts, never listed or made).

use super::movegen::{Collect, MoveList, Sink, Stage};
use super::Board;
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::moves::UNDER_PROMOTIONS;
use crate::types::{Bitboard, Move, PieceKind};
use std::marker::PhantomData;

/// The number of leaf nodes `depth` plies below `b`.
///
/// It plays moves with make/unmake on one board: that measured 6-16% faster than
/// copying the board for every move on four of the five positions of
/// `benches/perft.rs` ([`perft_copy`]).
pub fn perft<B: Bits, S: Slider>(b: &Board<S>, depth: u32) -> u64 {
    let mut board = *b;
    perft_unmake::<B, S>(&mut board, depth)
}

/// Perft with copy-make: each move is played on a copy of the board. Same counts
/// as [`perft`], kept to measure the two against each other.
pub fn perft_copy<B: Bits, S: Slider>(b: &Board<S>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => b.count_moves::<B>(),
        _ => b
            .legal_moves::<B>()
            .iter()
            .map(|m| perft_copy::<B, S>(&b.with_move::<B>(m), depth - 1))
            .sum(),
    }
}

/// Perft split by root move: each legal move with its leaf count.
/// At depth 0 there is no move to split by, so the list is empty.
pub fn divide<B: Bits, S: Slider>(b: &Board<S>, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    b.legal_moves::<B>()
        .iter()
        .map(|m| {
            (
                m,
                if depth <= 1 {
                    1
                } else {
                    perft::<B, S>(&b.with_move::<B>(m), depth - 1)
                },
            )
        })
        .collect()
}

/// The deepest perft a suite may ask for: beyond it a count would run for days,
/// so a file asking for more is rejected rather than left to hang.
pub const MAX_DEPTH: u32 = 20;

/// One position of a perft suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line number in the file where the position starts.
    pub line: usize,
    pub fen: String,
    /// (depth, expected leaf count).
    pub counts: Vec<(u32, u64)>,
}

/// Parse a perft suite: EPD lines `FEN ;D1 n ;D2 n ...`, or blocks of
/// `epd FEN` / `perft DEPTH COUNT` lines (an `id` line is ignored). Blank lines and
/// lines starting with `#` are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let n = i + 1;
        if line.is_empty() || line.starts_with('#') || line.starts_with("id ") {
            continue;
        }
        if let Some(fen) = line.strip_prefix("epd ") {
            out.push(SuiteEntry {
                line: n,
                fen: fen.trim().to_string(),
                counts: vec![],
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let entry = out
                .last_mut()
                .ok_or_else(|| format!("line {n}: 'perft' before any 'epd' line"))?;
            entry.counts.push(parse_count(rest, n)?);
        } else {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let counts = parts
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| parse_count(p.strip_prefix('D').unwrap_or(p), n))
                .collect::<Result<Vec<_>, _>>()?;
            out.push(SuiteEntry {
                line: n,
                fen,
                counts,
            });
        }
    }
    Ok(out)
}

fn parse_count(text: &str, line: usize) -> Result<(u32, u64), String> {
    let mut it = text.split_whitespace();
    let bad = || {
        format!(
            "line {line}: expected 'DEPTH COUNT' with DEPTH at most {MAX_DEPTH}, got '{}'",
            text.trim()
        )
    };
    let depth = it
        .next()
        .and_then(|d| d.parse().ok())
        .filter(|&d| d <= MAX_DEPTH)
        .ok_or_else(bad)?;
    let count = it.next().and_then(|c| c.parse().ok()).ok_or_else(bad)?;
    if it.next().is_some() {
        return Err(bad());
    }
    Ok((depth, count))
}

/// Perft with make/unmake on one board, which is left as it was.
///
/// The moves are made with `Board::make_without_keys`: perft never reads the
/// Zobrist keys or the move counters, so they are not updated on the way down
/// (unmake puts the board back whole). Every other part of the position is
/// kept as the search's make keeps it. One ply above the leaves the moves go
/// straight from the generator to [`LeafParent`].
pub fn perft_unmake<B: Bits, S: Slider>(b: &mut Board<S>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => b.count_moves::<B>(),
        2 => {
            let mut leaf = LeafParent::<B, S>::new(b);
            b.generate::<B, _>(Stage::All, &mut leaf);
            leaf.nodes
        }
        _ => {
            // Filled in place: `legal_moves` returns its 1 KB list by value,
            // and that copy took about 1% of perft's time.
            let mut moves = MoveList::new();
            b.generate::<B, _>(Stage::All, &mut Collect::<B>::new(&mut moves));
            let mut nodes = 0;
            for m in moves.iter() {
                let undo = b.make_undoable_without_keys::<B>(m);
                nodes += perft_unmake::<B, S>(b, depth - 1);
                b.unmake_without_keys(m, &undo);
            }
            nodes
        }
    }
}

/// The last ply but one: a sink that plays each move the generator sends on
/// its own copy of the board and counts the replies.
///
/// Against listing the moves and making them on the searched board, it saves
/// the list and reads no move back, and its makes leave the copy's mailbox
/// alone ([`Board::make_leaf`]: the counting generator reads bitboards only).
struct LeafParent<'a, B: Bits, S: Slider> {
    parent: &'a Board<S>,
    board: Board<S>,
    nodes: u64,
    _bits: PhantomData<B>,
}

impl<'a, B: Bits, S: Slider> LeafParent<'a, B, S> {
    #[inline(always)]
    fn new(b: &'a Board<S>) -> Self {
        LeafParent {
            parent: b,
            board: *b,
            nodes: 0,
            _bits: PhantomData,
        }
    }

    /// Play `m`, count the replies and take it back.
    #[inline(always)]
    fn child(&mut self, m: Move) {
        self.board.make_leaf::<B>(m);
        self.nodes += self.board.count_moves::<B>();
        self.board.unmake_leaf(self.parent);
    }
}

impl<B: Bits, S: Slider> Sink for LeafParent<'_, B, S> {
    #[inline(always)]
    fn piece_moves(&mut self, from: usize, mut targets: Bitboard) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.child(Move::normal(from as u32, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.child(Move::normal((to as i32 - delta) as u32, to));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            let from = (to as i32 - delta) as u32;
            self.child(Move::promotion(from, to, PieceKind::Queen));
            for kind in UNDER_PROMOTIONS {
                self.child(Move::promotion(from, to, kind));
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.child(m);
    }
}
