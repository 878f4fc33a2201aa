//! Where generated moves go: the [`Sink`] trait, the [`MoveList`] that collects
//! them and the [`Counter`] that only counts them.
//!
//! May not touch: any room but `types` and `bits` (the layers: docs/architecture.md).
//!
//! These sit below both the slider backends (`attacks`, which may emit a slider's
//! moves itself, as [`RayLoop`](crate::attacks::RayLoop) does) and the board's
//! generator (`board::movegen`), so neither depends on the other. `board::movegen`
//! re-exports them under their old paths.

use crate::bits::Bits;
use crate::types::*;
use std::marker::PhantomData;

/// Receives generated moves, as single moves or as sets of target squares.
///
/// A promotion target arrives through exactly one of [`Sink::promotions`] (all
/// four pieces), [`Sink::queen_promotions`] or [`Sink::under_promotions`], as the
/// generator's stage asks: a move is never sent twice.
pub trait Sink {
    /// Moves of the piece on `from` to every square of `targets`.
    fn piece_moves(&mut self, from: usize, targets: Bitboard);
    /// Pawn moves to every square of `targets` from `to - delta`.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32);
    /// The four promotions (queen, knight, rook, bishop) to every square of
    /// `targets` from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i32);
    /// Queen promotions only, to every square of `targets` from `to - delta`.
    ///
    /// The default pushes them one by one; sinks on a hot path override it.
    fn queen_promotions(&mut self, targets: Bitboard, delta: i32) {
        for_each_square(targets, |to| {
            self.push(Move::promotion(from_of(to, delta), to, PieceKind::Queen))
        });
    }
    /// Knight, rook and bishop promotions, to every square of `targets` from
    /// `to - delta`.
    fn under_promotions(&mut self, targets: Bitboard, delta: i32) {
        for_each_square(targets, |to| {
            for kind in UNDER_PROMOTIONS {
                self.push(Move::promotion(from_of(to, delta), to, kind));
            }
        });
    }
    /// One move (en passant, castling).
    fn push(&mut self, m: Move);

    /// Whether this sink may already know some moves' count (see
    /// [`Sink::knights_known`]). A constant, so that for every other sink the
    /// generator compiles without the tests.
    const MAY_KNOW: bool = false;
    /// Whether the generator should skip the moves of the side's knights that
    /// are not pinned, because the sink has counted them already. Read only
    /// when [`Sink::MAY_KNOW`] is set; the sink promises that the side is not
    /// in check.
    #[inline(always)]
    fn knights_known(&self) -> bool {
        false
    }
    /// The same for the side's sliders that are not pinned.
    #[inline(always)]
    fn sliders_known(&self) -> bool {
        false
    }
    /// The same for the side's pawns that are not pinned.
    #[inline(always)]
    fn pawns_known(&self) -> bool {
        false
    }
}

/// The under-promotion pieces, in the order the generator emits them.
pub const UNDER_PROMOTIONS: [PieceKind; 3] =
    [PieceKind::Knight, PieceKind::Rook, PieceKind::Bishop];

/// The origin of a pawn move to `to` that went `delta` squares.
#[inline(always)]
fn from_of(to: u32, delta: i32) -> u32 {
    (to as i32 - delta) as u32
}

/// Visit the squares of `bb`, lowest first (for the default sink methods, which
/// are off the hot path: they are not generic over a bit path).
fn for_each_square(mut bb: Bitboard, mut f: impl FnMut(u32)) {
    while bb != 0 {
        f(bb.trailing_zeros());
        bb &= bb - 1;
    }
}

/// The most moves a [`MoveList`] holds.
///
/// The FEN parser takes any position with at most 16 pieces and 8 pawns a side
/// (promoted pieces included, as a board editor sets them up), and make keeps
/// the material so. Such a side has at most 415 moves: a king's 8 and two
/// castlings, and 15 other pieces of at most 27 each (a queen's most; a pawn
/// has at most 12, three squares times four promotions). Legal positions have
/// at most 218, so the list never fills; the bound is what makes that a proof
/// rather than a hope.
pub const MAX_MOVES: usize = 512;

/// A list of at most [`MAX_MOVES`] moves.
///
/// Its slots are left uninitialised until a move is pushed: the list is made
/// at every node of a search, and zeroing a kilobyte there for nothing costs
/// time.
#[derive(Clone)]
pub struct MoveList {
    /// `moves[..len]` are initialised.
    moves: [std::mem::MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { std::mem::MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: `moves[..len]` were written by `push` (the field's invariant),
        // and `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`; the borrow is unique through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Append `m`.
    ///
    /// # Panics
    /// If the list already holds [`MAX_MOVES`] moves. The board's generator cannot
    /// get there (see [`MAX_MOVES`]); dropping a move silently would make a search
    /// or perft wrong without a word, so a full list is a loud bug in every build.
    /// The check costs one compare that is never taken.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len >= MAX_MOVES {
            overflow();
        }
        self.moves[self.len] = std::mem::MaybeUninit::new(m);
        self.len += 1;
    }
}

#[cold]
#[inline(never)]
fn overflow() -> ! {
    panic!("MoveList overflow: more than {MAX_MOVES} moves (the board holds impossible material)")
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

/// Collects moves into a [`MoveList`], scanning target sets with the bit path `B`.
pub struct Collect<'a, B: Bits>(pub &'a mut MoveList, PhantomData<B>);

impl<'a, B: Bits> Collect<'a, B> {
    pub fn new(list: &'a mut MoveList) -> Self {
        Collect(list, PhantomData)
    }
}

impl<B: Bits> Sink for Collect<'_, B> {
    #[inline(always)]
    fn piece_moves(&mut self, from: usize, mut targets: Bitboard) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.0.push(Move::normal(from as u32, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.0.push(Move::normal(from_of(to, delta), to));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            let from = from_of(to, delta);
            self.0.push(Move::promotion(from, to, PieceKind::Queen));
            for kind in UNDER_PROMOTIONS {
                self.0.push(Move::promotion(from, to, kind));
            }
        }
    }

    #[inline(always)]
    fn queen_promotions(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            self.0
                .push(Move::promotion(from_of(to, delta), to, PieceKind::Queen));
        }
    }

    #[inline(always)]
    fn under_promotions(&mut self, mut targets: Bitboard, delta: i32) {
        while targets != 0 {
            let to = B::pop_lsb(&mut targets);
            for kind in UNDER_PROMOTIONS {
                self.0.push(Move::promotion(from_of(to, delta), to, kind));
            }
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts moves without listing them.
///
/// A `Counter` is a witness that the CPU runs the bit path `B`: [`Counter::new`]
/// checks once, so its hot methods call `popcount` without the per-call check.
pub struct Counter<B: Bits>(pub u64, PhantomData<B>);

impl<B: Bits> Counter<B> {
    /// A counter at zero.
    ///
    /// # Panics
    /// If the CPU lacks an instruction of the bit path `B` (the run-time dispatch
    /// never picks such a path).
    #[inline(always)]
    pub fn new() -> Self {
        if !B::cpu_supports() {
            unsupported(B::PATH);
        }
        Counter(0, PhantomData)
    }

    /// `B::popcount(b)`, for the counter's own methods.
    #[inline(always)]
    fn count(&self, b: Bitboard) -> u64 {
        // SAFETY: `new` checked `B::cpu_supports()`, and a Counter is only built
        // there (its second field is private).
        unsafe { B::popcount_unchecked(b) as u64 }
    }
}

#[cold]
#[inline(never)]
fn unsupported(path: crate::bits::BitPath) -> ! {
    panic!("the bit path '{path}' needs instructions this CPU lacks")
}

impl<B: Bits> Default for Counter<B> {
    fn default() -> Self {
        Counter::new()
    }
}

impl<B: Bits> Sink for Counter<B> {
    #[inline(always)]
    fn piece_moves(&mut self, _: usize, targets: Bitboard) {
        self.0 += self.count(targets);
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _: i32) {
        self.0 += self.count(targets);
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _: i32) {
        self.0 += 4 * self.count(targets);
    }

    #[inline(always)]
    fn queen_promotions(&mut self, targets: Bitboard, _: i32) {
        self.0 += self.count(targets);
    }

    #[inline(always)]
    fn under_promotions(&mut self, targets: Bitboard, _: i32) {
        self.0 += 3 * self.count(targets);
    }

    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}
