//! Perft: count the leaf nodes of the legal move tree, with bulk counting at the
//! last ply (the moves there are counted with popcounts, never listed or made).

mod make;

use super::movegen::{Collect, Counter, MoveList, Sink, Stage};
use super::{kind_of_colored, Board, BISHOP, KNIGHT, NO_PIECE, PAWN, QUEEN, ROOK};
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::moves::UNDER_PROMOTIONS;
use crate::tables::{
    BISHOP_PSEUDO_ATTACKS, FILE_MASKS, KNIGHT_ATTACKS, PAWN_ATTACKS, RANK_MASKS,
    ROOK_PSEUDO_ATTACKS,
};
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
///
/// Two things it learns once, from the parent, for all the children:
///
/// - Most moves neither leave nor land on a line from the replying king (its
///   queen moves on an empty board). Such a move changes no slider's view of
///   that king, so the replying side's blockers are the parent's blockers of
///   that king and only a knight or a pawn can give check, directly: those
///   children skip the checkers-and-blockers search that make does.
/// - After a quiet move that gives no check and leaves the replying side's
///   pins as they were, that side's unpinned knights have the moves they had
///   in the parent (their targets are the squares their own pieces leave
///   free); its unpinned sliders and pawns too, unless the move left or
///   landed on a square that decides their moves (a square a slider attacks,
///   a square a pawn could push or capture to). Those replies are counted
///   once, here, and the child's generator skips them ([`Known`]).
///
/// Castling, en passant, promotions and double pushes are made in full and
/// counted from scratch. Together the two took 21% off `perft 7` from the
/// start (`docs/speed.md`).
struct LeafParent<'a, B: Bits, S: Slider> {
    parent: &'a Board<S>,
    board: Board<S>,
    nodes: u64,
    /// The replying side's king.
    their_king: usize,
    /// The squares on a line from that king.
    lines: Bitboard,
    /// The pieces alone between that king and one of our sliders: the
    /// replying side's blockers after a move off `lines`.
    blockers: Bitboard,
    /// The moves of the replying side's knights that are not pinned, as they
    /// stand: the same after a quiet move of ours that gives no check and
    /// leaves their pins alone.
    knight_replies: u64,
    /// The same for their sliders that are not pinned, which stay as long
    /// as the move also neither leaves nor lands on a square they attack.
    slider_replies: u64,
    /// The squares those sliders attack.
    slider_reach: Bitboard,
    /// The same for their pawns that are not pinned, which stay as long as
    /// the move neither leaves nor lands on a square they could push or
    /// capture to.
    pawn_replies: u64,
    /// Those squares.
    pawn_reach: Bitboard,
    _bits: PhantomData<B>,
}

impl<'a, B: Bits, S: Slider> LeafParent<'a, B, S> {
    #[inline(always)]
    fn new(b: &'a Board<S>) -> Self {
        let us = b.side.index();
        let theirs = b.colors[us ^ 1];
        let their_king = b.ksq::<B>(us ^ 1);
        let blockers = b.slider_blockers::<B>(their_king, b.colors[us]).0;
        let free = theirs & !blockers;
        let occ = b.occupied();
        let count = |bb: Bitboard| B::popcount(bb) as u64;
        let mut knight_replies = 0;
        let mut knights = b.pieces[KNIGHT] & free;
        while knights != 0 {
            knight_replies += count(KNIGHT_ATTACKS[B::pop_lsb(&mut knights) as usize] & !theirs);
        }
        let queens = b.pieces[QUEEN];
        let (mut slider_replies, mut slider_reach) = (0, 0);
        let mut diagonal = (b.pieces[BISHOP] | queens) & free;
        while diagonal != 0 {
            let reach = S::bishop(&b.slider, B::pop_lsb(&mut diagonal) as usize, occ);
            slider_replies += count(reach & !theirs);
            slider_reach |= reach;
        }
        let mut straight = (b.pieces[ROOK] | queens) & free;
        while straight != 0 {
            let reach = S::rook(&b.slider, B::pop_lsb(&mut straight) as usize, occ);
            slider_replies += count(reach & !theirs);
            slider_reach |= reach;
        }
        let mut pawns = Counter::<B>::new();
        if us == 0 {
            b.free_pawn_moves::<_, false>(Stage::All, &mut pawns, blockers, !0);
        } else {
            b.free_pawn_moves::<_, true>(Stage::All, &mut pawns, blockers, !0);
        }
        let pawn_reach = pawn_reach(us == 1, b.pieces[PAWN] & free);
        LeafParent {
            parent: b,
            board: *b,
            nodes: 0,
            their_king,
            lines: ROOK_PSEUDO_ATTACKS[their_king] | BISHOP_PSEUDO_ATTACKS[their_king],
            blockers,
            knight_replies,
            slider_replies,
            slider_reach,
            pawn_replies: pawns.0,
            pawn_reach,
            _bits: PhantomData,
        }
    }

    /// Play `m`, count the replies and take it back.
    #[inline(always)]
    fn child(&mut self, m: Move) {
        self.board.make_leaf::<B>(m);
        self.count_and_unmake(Known::Nothing);
    }

    /// Play the normal move of our `kind` piece from `from` to `to` (see
    /// [`Board::make_leaf_normal`]), count the replies and take it back.
    #[inline(always)]
    fn normal_child(&mut self, kind: usize, from: usize, to: usize) {
        let quiet = self.board.mailbox[to] == NO_PIECE;
        let board = &mut self.board;
        board.make_leaf_normal(kind, from, to);
        let moved = (1u64 << from) | (1u64 << to);
        if moved & self.lines == 0 {
            let them = board.side.index();
            let checks = match kind {
                PAWN => PAWN_ATTACKS[them][self.their_king],
                KNIGHT => KNIGHT_ATTACKS[self.their_king],
                _ => 0,
            };
            board.checkers = checks & (1 << to);
            board.blockers = self.blockers;
        } else {
            board.update_check_state_at::<B>(self.their_king);
        }
        // Out of check, with their pieces and pins as in the parent, their
        // knights' moves are the parent's, and so are their sliders' and
        // pawns' unless the move touched a square those see.
        let theirs = self.parent.colors[board.side.index()];
        let known =
            if quiet && board.checkers == 0 && (board.blockers ^ self.blockers) & theirs == 0 {
                let sliders = moved & self.slider_reach == 0;
                let pawns = moved & self.pawn_reach == 0;
                match (sliders, pawns) {
                    (false, false) => Known::Knights,
                    (true, false) => Known::KnightsSliders,
                    (false, true) => Known::KnightsPawns,
                    (true, true) => Known::KnightsSlidersPawns,
                }
            } else {
                Known::Nothing
            };
        self.count_and_unmake(known);
    }

    #[inline(always)]
    fn count_and_unmake(&mut self, known: Known) {
        let b = &self.board;
        self.nodes += match known {
            Known::Nothing => b.count_moves::<B>(),
            Known::Knights => self.knight_replies + count_rest::<B, S, false, false>(b),
            Known::KnightsSliders => {
                self.knight_replies + self.slider_replies + count_rest::<B, S, true, false>(b)
            }
            Known::KnightsPawns => {
                self.knight_replies + self.pawn_replies + count_rest::<B, S, false, true>(b)
            }
            Known::KnightsSlidersPawns => {
                self.knight_replies
                    + self.slider_replies
                    + self.pawn_replies
                    + count_rest::<B, S, true, true>(b)
            }
        };
        self.board.unmake_leaf(self.parent);
    }
}

/// The squares whose contents decide the moves of `pawns`, White's if
/// `white`: one step ahead, two from the starting rank, and the two capture
/// squares.
#[inline(always)]
fn pawn_reach(white: bool, pawns: Bitboard) -> Bitboard {
    const NOT_A: Bitboard = !FILE_MASKS[0];
    const NOT_H: Bitboard = !FILE_MASKS[7];
    if white {
        let one = pawns << 8;
        one | ((pawns & RANK_MASKS[1]) << 16) | ((pawns & NOT_A) << 7) | ((pawns & NOT_H) << 9)
    } else {
        let one = pawns >> 8;
        one | ((pawns & RANK_MASKS[6]) >> 16) | ((pawns & NOT_A) >> 9) | ((pawns & NOT_H) >> 7)
    }
}

/// Which of a child's replies [`LeafParent`] knows before generating them.
#[derive(Clone, Copy)]
enum Known {
    Nothing,
    /// The moves of the knights that are not pinned.
    Knights,
    /// Those, and the moves of the sliders that are not pinned.
    KnightsSliders,
    /// The knights', and the moves of the pawns that are not pinned.
    KnightsPawns,
    /// All three.
    KnightsSlidersPawns,
}

/// The replies of `b` that the generator finds when it skips the unpinned
/// knights, with `SLIDERS` the unpinned sliders, and with `PAWNS` the
/// unpinned pawns too.
#[inline(never)]
fn count_rest<B: Bits, S: Slider, const SLIDERS: bool, const PAWNS: bool>(b: &Board<S>) -> u64 {
    let mut rest = Rest::<B, SLIDERS, PAWNS>(Counter::new());
    b.generate::<B, _>(Stage::All, &mut rest);
    rest.0 .0
}

/// A [`Counter`] that tells the generator to skip what [`LeafParent`]
/// counted already.
struct Rest<B: Bits, const SLIDERS: bool, const PAWNS: bool>(Counter<B>);

impl<B: Bits, const SLIDERS: bool, const PAWNS: bool> Sink for Rest<B, SLIDERS, PAWNS> {
    #[inline(always)]
    fn piece_moves(&mut self, from: usize, targets: Bitboard) {
        self.0.piece_moves(from, targets);
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32) {
        self.0.pawn_moves(targets, delta);
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        self.0.promotions(targets, delta);
    }

    #[inline(always)]
    fn queen_promotions(&mut self, targets: Bitboard, delta: i32) {
        self.0.queen_promotions(targets, delta);
    }

    #[inline(always)]
    fn under_promotions(&mut self, targets: Bitboard, delta: i32) {
        self.0.under_promotions(targets, delta);
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }

    const MAY_KNOW: bool = true;

    #[inline(always)]
    fn knights_known(&self) -> bool {
        true
    }

    #[inline(always)]
    fn sliders_known(&self) -> bool {
        SLIDERS
    }

    #[inline(always)]
    fn pawns_known(&self) -> bool {
        PAWNS
    }
}

// Each method out of line, called once per piece or pawn set rather than once
// per move: inlined, the children's make-count-unmake was copied into every
// place the generator emits moves (46 KB per instantiation, 1.8 MB of the
// binary over the 20 perft pairs). Out of line the binary is 1.46 MB smaller and
// perft no slower: `perft 7` 1.2% faster (95% interval 0.0 to 1.9%, 9 paired
// rounds), the 128-position standard suite 2.0% faster (0.8 to 2.9%, 11
// rounds), each backend's `perft 6` within -3% to +3%.
impl<B: Bits, S: Slider> Sink for LeafParent<'_, B, S> {
    #[inline(never)]
    fn piece_moves(&mut self, from: usize, mut targets: Bitboard) {
        let us = self.parent.side.index();
        let kind = kind_of_colored(self.parent.mailbox[from] as usize, us);
        // Castling is not sent here, so every move is a normal one.
        while targets != 0 {
            let to = B::pop_lsb(&mut targets) as usize;
            self.normal_child(kind, from, to);
        }
    }

    #[inline(never)]
    fn pawn_moves(&mut self, mut targets: Bitboard, delta: i32) {
        // A double push may leave an en-passant square: make decides.
        let double = delta == 16 || delta == -16;
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            let from = (to as i32 - delta) as u32;
            if double {
                self.child(Move::normal(from, to));
            } else {
                self.normal_child(PAWN, from as usize, to as usize);
            }
        }
    }

    #[inline(never)]
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

    #[inline(never)]
    fn push(&mut self, m: Move) {
        self.child(m);
    }
}
