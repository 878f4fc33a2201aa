//! The kings: shelter and danger, and the king's part in pawn endings and in the
//! race of passed pawns.

use super::geometry::{centre_distance, distance, front, ranks_from, relative_rank};
use super::params::*;
use super::pieces::Info;
use super::score::S;
use super::trace::{Term, Trace};
use super::weight;
use super::weights::WEIGHTS;
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::tables::{FILE_MASKS, FORWARD_SPAN, KNIGHT_ATTACKS};
use crate::types::{Color, PieceKind};

/// The files of a king's flank, by the king's file: queen side, centre, king side.
const KING_FLANK: [u64; 8] = {
    let f = FILE_MASKS;
    let queen = f[0] | f[1] | f[2] | f[3];
    let centre = f[2] | f[3] | f[4] | f[5];
    let king = f[4] | f[5] | f[6] | f[7];
    [queen, queen, queen, centre, centre, king, king, king]
};

/// The divisor of the squared middlegame danger, and of the linear endgame one.
pub const DANGER_MG_DIVISOR: i32 = 1024;
/// See [`DANGER_MG_DIVISOR`].
pub const DANGER_EG_DIVISOR: i32 = 16;

/// The penalty for a king facing `danger`: grows with the square of the danger in
/// the middlegame (one attacker is little, several together are decisive) and
/// linearly in the endgame. Nothing below zero; the danger is capped where its
/// square would overflow (far beyond any real position).
#[inline(always)]
pub fn danger_penalty(danger: S) -> S {
    let mg = danger.mg().clamp(0, 40_000);
    let eg = danger.eg().max(0);
    S(mg * mg / DANGER_MG_DIVISOR, eg / DANGER_EG_DIVISOR)
}

/// The safety of `c`'s king: its pawn shelter, and the danger the enemy's attack
/// on its zone puts it in.
pub(crate) fn king_safety<B: Bits, Sl: Slider, T: Trace>(
    board: &Board<Sl>,
    c: Color,
    info: &Info,
    t: &mut T,
) -> S {
    let s = shelter::<B, Sl, T>(board, c, t) - danger::<B, Sl, T>(board, c, info, t);
    t.term(Term::King, c, s);
    s
}

/// Pawns in front of the king and enemy pawns storming it, on the king's file and
/// its neighbours (a king on the edge is treated as on the b- or g-file).
fn shelter<B: Bits, Sl: Slider, T: Trace>(board: &Board<Sl>, c: Color, t: &mut T) -> S {
    let ksq = board.king_square(c).index();
    let ahead = ranks_from(c, ksq >> 3);
    let ours = board.pieces(c, PieceKind::Pawn) & ahead;
    let theirs = board.pieces(c.flip(), PieceKind::Pawn) & ahead;
    let centre = (ksq & 7).clamp(1, 6);
    // An open file next to the king matters when the enemy has a rook or queen to
    // use it (the pawns alone are the shield and storm terms).
    let heavy = board.pieces(c.flip(), PieceKind::Rook) | board.pieces(c.flip(), PieceKind::Queen);
    let mut s = S::ZERO;
    for &mask in &FILE_MASKS[centre - 1..=centre + 1] {
        let own = nearest::<B>(c, ours & mask);
        let storm = nearest::<B>(c, theirs & mask);
        s += weight(t, c, SHIELD + own, 1);
        if storm != 0 && own != 0 && storm == own + 1 {
            s += weight(t, c, STORM_BLOCKED + storm, 1);
        } else {
            s += weight(t, c, STORM + storm, 1);
        }
        let all_pawns = board.kind_bb(PieceKind::Pawn) & mask;
        if heavy != 0 && board.pieces(c, PieceKind::Pawn) & mask == 0 {
            let open = all_pawns == 0;
            s += weight(t, c, if open { KING_OPEN } else { KING_SEMI_OPEN }, 1);
        }
    }
    s
}

/// The relative rank (from `c`'s side) of the pawn in `bb` nearest to `c`'s first
/// rank, or 0 when `bb` is empty.
#[inline(always)]
fn nearest<B: Bits>(c: Color, bb: u64) -> usize {
    if bb == 0 {
        return 0;
    }
    let sq = match c {
        Color::White => B::lsb(bb),
        Color::Black => B::msb(bb),
    };
    relative_rank(c, sq as usize)
}

/// The penalty for the danger to `c`'s king from the enemy pieces (positive).
///
/// The danger is a weighted sum of the attackers by kind, their hits next to the
/// king, safe checks, weak squares in the zone and the absence of the enemy queen;
/// the tuner fits those weights through [`danger_penalty`], the same function.
fn danger<B: Bits, Sl: Slider, T: Trace>(board: &Board<Sl>, c: Color, info: &Info, t: &mut T) -> S {
    let (us, them) = (c.index(), c.flip().index());
    let attackers = info.zone_attackers[them];
    if attackers.iter().sum::<i32>() == 0 {
        return S::ZERO;
    }
    let e = c.flip();
    let ksq = board.king_square(c).index();
    let occ = board.occupied();
    // Squares we defend at most once, and then only with the king or queen.
    let weak = info.all[them]
        & !info.twice[us]
        & (!info.all[us]
            | info.by_kind[us][PieceKind::King.index()]
            | info.by_kind[us][PieceKind::Queen.index()]);
    let safe = !board.color_bb(e) & (!info.all[us] | (weak & info.twice[them]));
    let rook_lines = Sl::rook_any(ksq, occ);
    let bishop_lines = Sl::bishop_any(ksq, occ);
    let checks = [
        KNIGHT_ATTACKS[ksq] & info.by_kind[them][PieceKind::Knight.index()],
        bishop_lines & info.by_kind[them][PieceKind::Bishop.index()],
        rook_lines & info.by_kind[them][PieceKind::Rook.index()],
        (rook_lines | bishop_lines) & info.by_kind[them][PieceKind::Queen.index()],
    ];
    let mut d = S::ZERO;
    for (k, &n) in attackers.iter().enumerate() {
        d += danger_weight(t, e, DANGER_ATTACKER + k, n);
    }
    d += danger_weight(t, e, DANGER_ZONE_HITS, info.zone_hits[them]);
    for (k, &squares) in checks.iter().enumerate() {
        let n = B::popcount(squares & safe) as i32;
        d += danger_weight(t, e, DANGER_SAFE_CHECK + k, n);
    }
    let weak_zone = B::popcount(weak & info.zone[us]) as i32;
    d += danger_weight(t, e, DANGER_WEAK, weak_zone);
    // Enemy attacks on the king's flank in our half (twice-attacked squares twice).
    let flank =
        KING_FLANK[ksq & 7] & super::geometry::ranks_from(e, if c == Color::White { 4 } else { 3 });
    let flank = B::popcount(flank & info.all[them]) + B::popcount(flank & info.twice[them]);
    d += danger_weight(t, e, DANGER_FLANK, flank as i32);
    if board.pieces(e, PieceKind::Queen) == 0 {
        d += danger_weight(t, e, DANGER_NO_QUEEN, 1);
    }
    d += danger_weight(t, e, DANGER_BIAS, 1);
    danger_penalty(d)
}

/// A king-danger weight applied `count` times by attacker `c` (traced apart from
/// the linear weights, since the danger is used non-linearly).
#[inline(always)]
fn danger_weight<T: Trace>(t: &mut T, c: Color, idx: usize, count: i32) -> S {
    if T::ON && count != 0 {
        t.danger(c, idx, count);
    }
    WEIGHTS[idx] * count
}

/// The passed pawns of `c` (from the pawn hash) with what the pieces add: a free
/// or blocked path, support, the kings' distance to the square in front, and the
/// rule of the square when the enemy has only pawns.
pub(crate) fn passed<B: Bits, Sl: Slider, T: Trace>(
    board: &Board<Sl>,
    c: Color,
    passers: u64,
    info: &Info,
    t: &mut T,
) -> S {
    let e = c.flip();
    let occ = board.occupied();
    let own_king = board.king_square(c).index();
    let their_king = board.king_square(e).index();
    let pawn_ending =
        board.color_bb(e) & !board.kind_bb(PieceKind::Pawn) & !board.kind_bb(PieceKind::King) == 0;
    let mut s = S::ZERO;
    let mut bb = passers;
    while bb != 0 {
        let sq = B::pop_lsb(&mut bb) as usize;
        let r = relative_rank(c, sq);
        let stop = front(c, sq);
        if board.color_bb(e) & (1u64 << stop) != 0 {
            s += weight(t, c, PASSED_BLOCKED + r, 1);
        } else if occ & (1u64 << stop) == 0 && info.all[e.index()] & (1u64 << stop) == 0 {
            s += weight(t, c, PASSED_FREE + r, 1);
        }
        if info.all[c.index()] & (1u64 << sq) != 0 {
            s += weight(t, c, PASSED_SUPPORTED + r, 1);
        }
        if FORWARD_SPAN[c.index()][sq] & (info.all[e.index()] | board.color_bb(e)) == 0 {
            s += weight(t, c, PASSED_SAFE_PATH + r, 1);
        }
        s += weight(t, c, PASSED_OWN_KING + r, distance(own_king, stop));
        s += weight(t, c, PASSED_ENEMY_KING + r, distance(their_king, stop));
        if pawn_ending && unstoppable(board, c, sq) {
            s += weight(t, c, UNSTOPPABLE, 1);
        }
    }
    t.term(Term::Passed, c, s);
    s
}

/// The rule of the square: the pawn of `c` on `sq` queens before the enemy king can
/// catch it, its path clear of its own pieces (the enemy having no pieces).
fn unstoppable<Sl: Slider>(board: &Board<Sl>, c: Color, sq: usize) -> bool {
    let path = FORWARD_SPAN[c.index()][sq];
    if path & board.occupied() != 0 {
        return false;
    }
    let promotion = match c {
        Color::White => 56 + (sq & 7),
        Color::Black => sq & 7,
    };
    // From its first square a pawn moves two at once.
    let moves = (7 - relative_rank(c, sq) as i32).min(5);
    let tempo = (board.side_to_move() != c) as i32;
    moves < distance(board.king_square(c.flip()).index(), promotion) - tempo
}

/// In a pawn ending, a king belongs in the centre, near the pawns of both sides.
pub(crate) fn pawn_ending<Sl: Slider, T: Trace>(board: &Board<Sl>, c: Color, t: &mut T) -> S {
    let pieces =
        board.occupied() & !board.kind_bb(PieceKind::Pawn) & !board.kind_bb(PieceKind::King);
    if pieces != 0 {
        return S::ZERO;
    }
    let s = weight(
        t,
        c,
        ENDGAME_KING_CENTER,
        3 - centre_distance(board.king_square(c).index()),
    );
    t.term(Term::Endgame, c, s);
    s
}
