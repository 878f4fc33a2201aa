//! Threats: enemy pieces attacked by lesser pieces, and enemy pieces left hanging.

use super::geometry::{forward, pawn_attacks};
use super::params::*;
use super::pieces::Info;
use super::score::S;
use super::trace::{Term, Trace};
use super::weight;
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::types::{Color, PieceKind};

/// What `c` threatens: each enemy piece (pawn to queen) attacked by a pawn, a minor
/// or a rook of `c`, and the enemy pieces `c` attacks that nothing defends.
pub(crate) fn threats<B: Bits, Sl: Slider, T: Trace>(
    board: &Board<Sl>,
    c: Color,
    info: &Info,
    t: &mut T,
) -> S {
    let (us, them) = (c.index(), c.flip().index());
    let e = c.flip();
    let by_pawn = info.by_kind[us][PieceKind::Pawn.index()];
    let by_minor =
        info.by_kind[us][PieceKind::Knight.index()] | info.by_kind[us][PieceKind::Bishop.index()];
    let by_rook = info.by_kind[us][PieceKind::Rook.index()];
    let mut s = S::ZERO;
    for kind in [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let victims = board.pieces(e, kind);
        if victims == 0 {
            continue;
        }
        let k = kind.index();
        if kind != PieceKind::Pawn {
            s += weight(
                t,
                c,
                THREAT_BY_PAWN + k,
                B::popcount(victims & by_pawn) as i32,
            );
        }
        if kind != PieceKind::Knight && kind != PieceKind::Bishop {
            s += weight(
                t,
                c,
                THREAT_BY_MINOR + k,
                B::popcount(victims & by_minor) as i32,
            );
        } else {
            // A minor attacked by a minor is a threat only when undefended.
            let n = B::popcount(victims & by_minor & !info.all[them]) as i32;
            s += weight(t, c, THREAT_BY_MINOR + k, n);
        }
        if kind != PieceKind::Rook {
            s += weight(
                t,
                c,
                THREAT_BY_ROOK + k,
                B::popcount(victims & by_rook) as i32,
            );
        }
    }
    let pieces =
        board.color_bb(e) & !board.kind_bb(PieceKind::Pawn) & !board.kind_bb(PieceKind::King);
    let hanging = pieces & info.all[us] & !info.all[them];
    s += weight(t, c, HANGING, B::popcount(hanging) as i32);
    let men = board.color_bb(e) & !board.kind_bb(PieceKind::King);
    if men & info.by_kind[us][PieceKind::King.index()] & !info.all[them] != 0 {
        s += weight(t, c, KING_THREAT, 1);
    }
    // Pawn pushes (one step, or two from the second rank) to squares not held by
    // the enemy, from which the pawn attacks an enemy piece.
    let empty = !board.occupied();
    let pawns = board.pieces(c, PieceKind::Pawn);
    let third = super::geometry::relative_rank_mask(c, 2);
    let once = forward(c, pawns) & empty;
    let pushes = once | (forward(c, once & third) & empty);
    let safe =
        pushes & !info.by_kind[them][PieceKind::Pawn.index()] & (info.all[us] | !info.all[them]);
    let n = B::popcount(pawn_attacks(c, safe) & pieces) as i32;
    s += weight(t, c, PAWN_PUSH_THREAT, n);
    t.term(Term::Threats, c, s);
    s
}
