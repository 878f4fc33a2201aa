//! The accumulators and the stack that follows the search's make and unmake.
//!
//! Updates are lazy: making a move only records which inputs it changes (a few
//! bytes); the accumulator is brought up to date when the position is evaluated,
//! from the nearest ancestor that is, so a node cut before its evaluation costs
//! no vector work at all. A null move changes no input, so its entry is never
//! computed: it reads its parent's accumulator (null moves cost nothing).
//!
//! With king buckets or mirroring, a move of a king that changes its own
//! side's view (another king bucket, or across the d/e line when mirrored)
//! changes every input of that perspective: that perspective is refreshed,
//! from the accumulator's own record of the pieces. The other perspective goes
//! on incrementally, the moving king an ordinary piece for it. The refresh
//! starts from a cache (a "Finny table"): for each perspective and view, the
//! accumulator it last had in that view and the pieces it summed, so only the
//! pieces that differ are added or removed (a king that steps back into a view
//! it left a few plies ago finds nearly the same men), not all of them.

use super::features::View;
use super::network::Network;
use super::vector::Vector;
use crate::attacks::Slider;
use crate::board::Board;
use crate::nnue::file::{MAX_BUCKETS, MAX_HIDDEN};
use crate::types::{Color, Move, MoveKind, Piece, PieceKind, Square};

/// Add one input's PSQT row (`row`, one weight a bucket) to the sums `psqt`,
/// or take it away (`sub`). Wrapping: a net file keeps these sums within
/// `i32`, a hand-built `NetFile` need not. A row of [`MAX_BUCKETS`] (the
/// shipped nets' 8) goes through a fixed-size array, which the compiler adds
/// in vector registers (two SSE2 adds on the baseline build); any other length
/// through a plain loop. Before, the bucket count read from the net left every
/// row a scalar loop with a branch a bucket, 40% of `Stack::current`'s `perf`
/// samples in `bench`; with the fixed rows `Stack::current` takes 186 M
/// instructions of `bench 8 --hash 1` where it took 233 M (callgrind).
#[inline(always)]
fn add_psqt(psqt: &mut [i32; MAX_BUCKETS], row: &[i32], sub: bool) {
    if let Ok(row) = <&[i32; MAX_BUCKETS]>::try_from(row) {
        if sub {
            for (d, w) in psqt.iter_mut().zip(row) {
                *d = d.wrapping_sub(*w);
            }
        } else {
            for (d, w) in psqt.iter_mut().zip(row) {
                *d = d.wrapping_add(*w);
            }
        }
    } else {
        for (d, w) in psqt.iter_mut().zip(row) {
            *d = if sub {
                d.wrapping_sub(*w)
            } else {
                d.wrapping_add(*w)
            };
        }
    }
}

/// The inputs a move adds and removes: at most two of each (castling moves two
/// pieces; a capture removes one and moves one; a promotion changes the kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    add: [(u8, u8); 2],
    sub: [(u8, u8); 2],
    n_add: u8,
    n_sub: u8,
    /// Whether the move moves a king (`add[0]` is then the king where it
    /// lands): its side's view may change.
    king: bool,
}

impl Delta {
    /// No change: a null move.
    pub const NONE: Delta = Delta {
        add: [(0, 0); 2],
        sub: [(0, 0); 2],
        n_add: 0,
        n_sub: 0,
        king: false,
    };

    fn add(&mut self, p: Piece, sq: Square) {
        self.add[self.n_add as usize] = (p.index() as u8, sq.index() as u8);
        self.n_add += 1;
    }

    fn sub(&mut self, p: Piece, sq: Square) {
        self.sub[self.n_sub as usize] = (p.index() as u8, sq.index() as u8);
        self.n_sub += 1;
    }

    /// What move `m` changes on `board` (before it is made). `m` must be legal
    /// on `board`, as every move the search makes is.
    pub fn of_move<S: Slider>(board: &Board<S>, m: Move) -> Delta {
        let mut d = Delta::NONE;
        let (from, to) = (m.from(), m.to());
        let Some(moved) = board.piece_on(from) else {
            return d;
        };
        let us = moved.color();
        // Each arm below adds the moved piece first, so a king lands in add[0].
        d.king = moved.kind() == PieceKind::King;
        match m.kind() {
            MoveKind::Castling => {
                // `to` is the rook's square; the king goes to the g- or c-file,
                // the rook beside it, on the back rank.
                let rank = from.rank();
                let king_side = to > from;
                let king_to = Square::from_coords(if king_side { 6 } else { 2 }, rank);
                let rook_to = Square::from_coords(if king_side { 5 } else { 3 }, rank);
                let rook = Piece::new(us, PieceKind::Rook);
                d.sub(moved, from);
                d.sub(rook, to);
                d.add(moved, king_to);
                d.add(rook, rook_to);
            }
            MoveKind::EnPassant => {
                let captured_sq = Square::from_coords(to.file(), from.rank());
                d.sub(moved, from);
                d.sub(Piece::new(us.flip(), PieceKind::Pawn), captured_sq);
                d.add(moved, to);
            }
            MoveKind::Promotion | MoveKind::Normal => {
                let placed = match m.promotion_kind() {
                    Some(k) => Piece::new(us, k),
                    None => moved,
                };
                d.sub(moved, from);
                if let Some(captured) = board.piece_on(to) {
                    d.sub(captured, to);
                }
                d.add(placed, to);
            }
        }
        d
    }

    fn is_none(&self) -> bool {
        self.n_add == 0 && self.n_sub == 0
    }

    /// The side whose king the move moves, and the king's new square.
    #[inline(always)]
    fn king_to(&self) -> Option<(Color, Square)> {
        self.king.then(|| {
            let (p, sq) = self.add[0];
            let color = Piece::from_index(p as usize).map_or(Color::White, |p| p.color());
            (color, Square::new(sq as u32))
        })
    }
}

/// The squares of each piece (by [`Piece::index`]) as bitboards.
type Pieces = [u64; 12];

/// Both perspectives' accumulators, `[white's view, black's view]`, and their
/// PSQT sums (one a bucket; the unused buckets stay 0), with the views they
/// were summed in and, for a net with king views, the pieces on the board.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [[i16; MAX_HIDDEN]; 2],
    psqt: [[i32; MAX_BUCKETS]; 2],
    /// The views the two sides were summed in (kept up to date only for a
    /// net with king views: other nets have one view a side).
    views: [View; 2],
    /// Where each piece stands: what a perspective's refresh sums after its
    /// king changed its view. Kept up to date only for a net with king views
    /// ([`Network::has_king_views`]).
    pieces: Pieces,
}

impl Accumulator {
    const ZERO: Accumulator = Accumulator {
        values: [[0; MAX_HIDDEN]; 2],
        psqt: [[0; MAX_BUCKETS]; 2],
        views: [View::plain(Color::White), View::plain(Color::Black)],
        pieces: [0; 12],
    };

    /// The perspective `c`'s accumulator, `hidden` values.
    #[inline(always)]
    pub fn view(&self, c: Color, hidden: usize) -> &[i16] {
        &self.values[c.index()][..hidden]
    }

    /// The perspective `c`'s accumulator and PSQT sums, as the output layer
    /// takes them.
    #[inline(always)]
    pub fn side(&self, c: Color, hidden: usize) -> (&[i16], &[i32; MAX_BUCKETS]) {
        (&self.values[c.index()][..hidden], &self.psqt[c.index()])
    }

    /// Compute both views from scratch: the bias plus every piece's row. Scalar
    /// on purpose: a refresh runs once per search, and 16-bit wrapping sums come
    /// out the same in any order, so this matches every vector path's updates.
    pub fn refresh<S: Slider>(&mut self, net: &Network, board: &Board<S>) {
        let h = net.hidden();
        self.pieces = [0; 12];
        for sq in (0..64).map(Square::new) {
            if let Some(p) = board.piece_on(sq) {
                self.pieces[p.index()] |= 1 << sq.index();
            }
        }
        for c in Color::BOTH {
            let view = net.view(c, board.king_square(c));
            self.views[c.index()] = view;
            let dst = &mut self.values[c.index()][..h];
            dst.copy_from_slice(net.bias());
            let psqt = &mut self.psqt[c.index()];
            *psqt = [0; MAX_BUCKETS];
            for sq in (0..64).map(Square::new) {
                if let Some(p) = board.piece_on(sq) {
                    let f = view.index(p, sq);
                    for (d, w) in dst.iter_mut().zip(net.row(f)) {
                        *d = d.wrapping_add(*w);
                    }
                    add_psqt(psqt, net.psqt_row(f), false);
                }
            }
        }
    }

    /// Perspective `c`'s accumulator and PSQT sums in `view` for the pieces in
    /// `self.pieces`, on the vector path `v`, after `c`'s king moved into
    /// another view: from `cached`, the sums this perspective last had in
    /// that view, plus the rows of the pieces that came since less the rows of
    /// those that left; `cached` then holds the new sums. The same sums as
    /// [`Accumulator::refresh`] (16- and 32-bit wrapping sums do not depend on
    /// the order).
    // Not inlined: kept out of `Stack::current`'s loop, the loop stays as
    // small as it was for nets without king views (measured with callgrind).
    #[inline(never)]
    fn refresh_side<V: Vector>(
        &mut self,
        v: V,
        net: &Network,
        c: Color,
        view: View,
        cached: &mut Cached,
    ) {
        let h = net.hidden();
        if !cached.valid {
            // Nothing summed yet: the bias alone, for no pieces.
            cached.values[..h].copy_from_slice(net.bias());
            cached.psqt = [0; MAX_BUCKETS];
            cached.pieces = [0; 12];
            cached.valid = true;
        }
        // At most 32 rows each way: a board holds at most 32 men, and the
        // guards keep a bad record from overrunning the lists.
        let mut add: [&[i16]; 32] = [&[]; 32];
        let mut sub: [&[i16]; 32] = [&[]; 32];
        let (mut na, mut ns) = (0, 0);
        let psqt = &mut cached.psqt;
        for (i, (&now, was)) in self.pieces.iter().zip(&mut cached.pieces).enumerate() {
            let Some(p) = Piece::from_index(i) else {
                continue;
            };
            for (mut bits, removed, rows, n) in [
                (now & !*was, false, &mut add, &mut na),
                (*was & !now, true, &mut sub, &mut ns),
            ] {
                while bits != 0 && *n < rows.len() {
                    let f = view.index(p, Square::new(bits.trailing_zeros()));
                    bits &= bits - 1;
                    rows[*n] = net.row(f);
                    *n += 1;
                    add_psqt(psqt, net.psqt_row(f), removed);
                }
            }
            *was = now;
        }
        let dst = &mut self.values[c.index()][..h];
        v.update(dst, &cached.values[..h], &add[..na], &sub[..ns]);
        cached.values[..h].copy_from_slice(dst);
        self.psqt[c.index()] = cached.psqt;
        self.views[c.index()] = view;
    }
}

/// One perspective's sums in one view, as the refresh cache keeps them.
#[derive(Clone)]
#[repr(C, align(64))]
struct Cached {
    values: [i16; MAX_HIDDEN],
    psqt: [i32; MAX_BUCKETS],
    pieces: Pieces,
    /// Whether it holds anything yet (since the last [`Stack::reset`]).
    valid: bool,
}

impl Cached {
    const EMPTY: Cached = Cached {
        values: [0; MAX_HIDDEN],
        psqt: [0; MAX_BUCKETS],
        pieces: [0; 12],
        valid: false,
    };
}

/// The refresh cache's slot of perspective `c` in `view`, among `kings` king
/// buckets: per perspective, per bucket, unmirrored then mirrored.
#[inline(always)]
fn slot(c: Color, view: View, kings: usize) -> usize {
    (c.index() * kings + view.bucket()) * 2 + view.mirrored() as usize
}

struct Entry {
    delta: Delta,
    computed: bool,
}

/// One search thread's accumulators, one per ply from the root.
pub struct Stack {
    accumulators: Vec<Accumulator>,
    entries: Vec<Entry>,
    top: usize,
    /// The refresh cache of a net with king views (empty for other nets):
    /// see [`slot`].
    cache: Vec<Cached>,
}

impl Stack {
    /// A stack for `plies` plies below the root.
    pub fn new(plies: usize) -> Stack {
        Stack {
            accumulators: vec![Accumulator::ZERO; plies + 1],
            entries: (0..=plies)
                .map(|_| Entry {
                    delta: Delta::NONE,
                    computed: false,
                })
                .collect(),
            top: 0,
            cache: Vec::new(),
        }
    }

    /// Start from `board` (the search's root): one full refresh. The refresh
    /// cache is emptied (the net may be another than last time).
    pub fn reset<S: Slider>(&mut self, net: &Network, board: &Board<S>) {
        self.top = 0;
        self.cache.clear();
        if net.has_king_views() {
            self.cache
                .resize(Color::BOTH.len() * net.kings().buckets * 2, Cached::EMPTY);
        }
        self.accumulators[0].refresh(net, board);
        self.entries[0].computed = true;
        self.entries[0].delta = Delta::NONE;
    }

    /// A move was made whose changes are `delta` (a null move: [`Delta::NONE`]).
    #[inline(always)]
    pub fn push(&mut self, delta: Delta) {
        self.top += 1;
        let e = &mut self.entries[self.top];
        e.delta = delta;
        e.computed = false;
    }

    /// The move was taken back.
    #[inline(always)]
    pub fn pop(&mut self) {
        self.top -= 1;
    }

    /// The accumulator of the current position, brought up to date: returns the
    /// index of the entry that holds it (a null move's is its parent's).
    fn current<V: Vector>(&mut self, v: V, net: &Network) -> usize {
        // Walk back to the nearest computed entry; null moves pass through.
        let mut base = self.top;
        while !self.entries[base].computed {
            base -= 1;
        }
        let h = net.hidden();
        let king_views = net.has_king_views();
        let mut src = base;
        for i in base + 1..=self.top {
            let d = self.entries[i].delta;
            if d.is_none() {
                continue;
            }
            let (before, after) = self.accumulators.split_at_mut(i);
            let (from, to) = (&before[src], &mut after[0]);
            let mut moved_king = None;
            if king_views {
                to.views = from.views;
                // The pieces after the move, for a refresh: removals first,
                // as castling may put the king where the rook stood (Chess960).
                to.pieces = from.pieces;
                for &(p, sq) in &d.sub[..d.n_sub as usize] {
                    to.pieces[p as usize % 12] &= !(1 << sq);
                }
                for &(p, sq) in &d.add[..d.n_add as usize] {
                    to.pieces[p as usize % 12] |= 1 << sq;
                }
                moved_king = d.king_to();
            }
            for c in Color::BOTH {
                // Without king views the view is the side's constant one (the
                // accumulator's `views` are then not kept up to date).
                let view = if king_views {
                    from.views[c.index()]
                } else {
                    View::plain(c)
                };
                if let Some((side, king)) = moved_king.filter(|&(side, _)| side == c) {
                    let new = net.view(side, king);
                    if new != view {
                        let at = slot(c, new, net.kings().buckets);
                        // A stack not reset for this net has no cache slot:
                        // a cold one serves (a full refresh from the bias).
                        let mut cold = Cached::EMPTY;
                        let cached = self.cache.get_mut(at).unwrap_or(&mut cold);
                        to.refresh_side(v, net, c, new, cached);
                        continue;
                    }
                }
                let feature = |&(p, sq): &(u8, u8)| {
                    let p = Piece::from_index(p as usize).expect("a recorded piece");
                    view.index(p, Square::new(sq as u32))
                };
                let (na, ns) = (d.n_add as usize, d.n_sub as usize);
                let add = [feature(&d.add[0]), feature(&d.add[1])];
                let sub = [feature(&d.sub[0]), feature(&d.sub[1])];
                v.update(
                    &mut to.values[c.index()][..h],
                    &from.values[c.index()][..h],
                    &add.map(|f| net.row(f))[..na],
                    &sub.map(|f| net.row(f))[..ns],
                );
                // The linear path: a row of one sum a bucket per input.
                let psqt = &mut to.psqt[c.index()];
                *psqt = from.psqt[c.index()];
                for &f in &add[..na] {
                    add_psqt(psqt, net.psqt_row(f), false);
                }
                for &f in &sub[..ns] {
                    add_psqt(psqt, net.psqt_row(f), true);
                }
            }
            self.entries[i].computed = true;
            src = i;
        }
        src
    }

    /// The net's evaluation of `board`, the position this stack is at, in
    /// centipawns from the side to move's view.
    #[inline]
    pub fn evaluate<V: Vector, S: Slider>(&mut self, v: V, net: &Network, board: &Board<S>) -> i32 {
        let at = self.current(v, net);
        let acc = &self.accumulators[at];
        let h = net.hidden();
        let us = board.side_to_move();
        let pieces = board.occupied().count_ones();
        net.output(v, acc.side(us, h), acc.side(us.flip(), h), pieces)
    }

    /// [`Stack::evaluate`] on the path `token` holds: the search's one match on
    /// the vector path per evaluation.
    #[inline]
    pub fn evaluate_with<S: Slider>(
        &mut self,
        token: super::vector::Token,
        net: &Network,
        board: &Board<S>,
    ) -> i32 {
        crate::with_token!(token, v => self.evaluate(v, net, board))
    }

    /// The current accumulator, up to date (for tests against a refresh).
    pub fn accumulator<V: Vector>(&mut self, v: V, net: &Network) -> &Accumulator {
        let at = self.current(v, net);
        &self.accumulators[at]
    }
}

/// The net's evaluation of `board` from scratch (no stack): for `brokkr eval`,
/// datagen's checks and the tests.
pub fn evaluate_fresh<V: Vector, S: Slider>(v: V, net: &Network, board: &Board<S>) -> i32 {
    let mut acc = Accumulator::ZERO;
    acc.refresh(net, board);
    let h = net.hidden();
    let us = board.side_to_move();
    net.output(
        v,
        acc.side(us, h),
        acc.side(us.flip(), h),
        board.occupied().count_ones(),
    )
}

/// [`evaluate_fresh`] on the vector path `path`, or the portable one where
/// `path` cannot run on this CPU (every path gives the same value).
pub fn evaluate_on<S: Slider>(path: super::VectorPath, net: &Network, board: &Board<S>) -> i32 {
    crate::with_vector!(path, V => match V::detect() {
        Some(v) => evaluate_fresh(v, net, board),
        None => evaluate_fresh(super::vector::Portable, net, board),
    })
}
