//! The pieces: their attacks (gathered once for the other terms), mobility,
//! outposts, rooks on open files and the 7th, the bishop pair.

use super::geometry::{
    distance, forward, pawn_attacks, relative_rank, relative_rank_mask, LIGHT_SQUARES,
};
use super::params::*;
use super::score::S;
use super::trace::{Term, Trace};
use super::{on, weight};
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::tables::{FILE_MASKS, KING_ATTACKS, KNIGHT_ATTACKS, PASSED_PAWN_MASK, RANK_MASKS};
use crate::types::{Color, PieceKind};

/// The attacks of both sides, gathered while the pieces are scored and read by
/// king safety, passed pawns and threats. Indexed by colour first.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Info {
    /// Squares attacked by each kind (pawn to king).
    pub by_kind: [[u64; 6]; 2],
    /// Squares attacked at all.
    pub all: [u64; 2],
    /// Squares attacked at least twice.
    pub twice: [u64; 2],
    /// The zone around each side's king: the king's square, its neighbours and the
    /// three squares beyond them toward the enemy.
    pub zone: [u64; 2],
    /// Per attacking side: how many pieces of each kind (knight to queen) hit the
    /// enemy king zone.
    pub zone_attackers: [[i32; 4]; 2],
    /// Per attacking side: attacks on squares next to the enemy king, counted with
    /// multiplicity.
    pub zone_hits: [i32; 2],
}

impl Info {
    /// The pawn and king attacks and the king zones; the pieces fill in the rest.
    pub fn new<Sl: Slider>(board: &Board<Sl>) -> Info {
        let mut info = Info::default();
        for c in Color::BOTH {
            let i = c.index();
            let pawns = pawn_attacks(c, board.pieces(c, PieceKind::Pawn));
            let ksq = board.king_square(c).index();
            let king = KING_ATTACKS[ksq];
            info.by_kind[i][PieceKind::Pawn.index()] = pawns;
            info.by_kind[i][PieceKind::King.index()] = king;
            info.all[i] = pawns | king;
            info.twice[i] = pawns & king;
            let around = king | 1u64 << ksq;
            info.zone[i] = around | super::geometry::forward(c, around);
        }
        info
    }

    /// Record the attacks `a` of a piece of `kind` (knight to queen) of `c`.
    #[inline(always)]
    fn add<B: Bits>(&mut self, c: Color, kind: PieceKind, a: u64, enemy_king: u64) {
        let i = c.index();
        self.by_kind[i][kind.index()] |= a;
        self.twice[i] |= self.all[i] & a;
        self.all[i] |= a;
        if a & self.zone[c.flip().index()] != 0 {
            self.zone_attackers[i][kind.index() - 1] += 1;
            self.zone_hits[i] += B::popcount(a & enemy_king) as i32;
        }
    }
}

/// The pieces of `c`: mobility and the piece terms; fills `info` with their attacks.
pub(crate) fn pieces<B: Bits, Sl: Slider, T: Trace>(
    board: &Board<Sl>,
    c: Color,
    info: &mut Info,
    terms: u32,
    t: &mut T,
) -> S {
    let them = c.flip();
    let occ = board.occupied();
    let own_pawns = board.pieces(c, PieceKind::Pawn);
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let enemy_king = KING_ATTACKS[board.king_square(them).index()];
    // Squares worth moving to: not our pawns or king, not covered by an enemy pawn.
    let area = !(own_pawns
        | board.pieces(c, PieceKind::King)
        | info.by_kind[them.index()][PieceKind::Pawn.index()]);
    let pawn_guarded = info.by_kind[c.index()][PieceKind::Pawn.index()];
    let (mut mobility, mut extra) = (S::ZERO, S::ZERO);
    let minors = board.pieces(c, PieceKind::Knight) | board.pieces(c, PieceKind::Bishop);
    let shielded = forward(c, minors) & board.kind_bb(PieceKind::Pawn);
    extra += weight(t, c, MINOR_BEHIND_PAWN, B::popcount(shielded) as i32);
    let pawns_over_five = B::popcount(own_pawns) as i32 - 5;
    let knights = B::popcount(board.pieces(c, PieceKind::Knight)) as i32;
    let rooks = B::popcount(board.pieces(c, PieceKind::Rook)) as i32;
    extra += weight(t, c, KNIGHT_PAWNS, knights * pawns_over_five);
    extra += weight(t, c, ROOK_PAWNS, rooks * pawns_over_five);
    let own_king = board.king_square(c).index();
    extra += weight(t, c, SPACE, space::<B, Sl>(board, c, info));

    let mut bb = board.pieces(c, PieceKind::Knight);
    while bb != 0 {
        let sq = B::pop_lsb(&mut bb) as usize;
        let a = KNIGHT_ATTACKS[sq];
        info.add::<B>(c, PieceKind::Knight, a, enemy_king);
        mobility += weight(t, c, MOBILITY_KNIGHT + B::popcount(a & area) as usize, 1);
        extra += weight(t, c, KING_PROTECTOR, distance(sq, own_king));
        if outpost(c, sq, their_pawns, pawn_guarded) {
            extra += weight(t, c, OUTPOST, 1);
        }
    }
    let mut bb = board.pieces(c, PieceKind::Bishop);
    if bb & bb.wrapping_sub(1) != 0 {
        extra += weight(t, c, BISHOP_PAIR, 1);
    }
    while bb != 0 {
        let sq = B::pop_lsb(&mut bb) as usize;
        let a = Sl::bishop_any(sq, occ);
        info.add::<B>(c, PieceKind::Bishop, a, enemy_king);
        mobility += weight(t, c, MOBILITY_BISHOP + B::popcount(a & area) as usize, 1);
        extra += weight(t, c, KING_PROTECTOR + 1, distance(sq, own_king));
        // Own pawns on the bishop's colour block it and leave the other colour weak.
        let colour = if LIGHT_SQUARES >> sq & 1 != 0 {
            LIGHT_SQUARES
        } else {
            !LIGHT_SQUARES
        };
        extra += weight(t, c, BISHOP_PAWNS, B::popcount(own_pawns & colour) as i32);
        if outpost(c, sq, their_pawns, pawn_guarded) {
            extra += weight(t, c, OUTPOST + 1, 1);
        }
    }
    let mut bb = board.pieces(c, PieceKind::Rook);
    while bb != 0 {
        let sq = B::pop_lsb(&mut bb) as usize;
        let a = Sl::rook_any(sq, occ);
        info.add::<B>(c, PieceKind::Rook, a, enemy_king);
        mobility += weight(t, c, MOBILITY_ROOK + B::popcount(a & area) as usize, 1);
        let file = FILE_MASKS[sq & 7];
        if file & own_pawns == 0 {
            let open = file & their_pawns == 0;
            extra += weight(t, c, if open { ROOK_OPEN } else { ROOK_SEMI_OPEN }, 1);
        }
        if relative_rank(c, sq) == 6 {
            let seventh = RANK_MASKS[sq >> 3];
            let eighth = relative_rank_mask(c, 7);
            if seventh & their_pawns != 0 || board.pieces(them, PieceKind::King) & eighth != 0 {
                extra += weight(t, c, ROOK_SEVENTH, 1);
            }
        }
    }
    let mut bb = board.pieces(c, PieceKind::Queen);
    while bb != 0 {
        let sq = B::pop_lsb(&mut bb) as usize;
        let a = Sl::rook_any(sq, occ) | Sl::bishop_any(sq, occ);
        info.add::<B>(c, PieceKind::Queen, a, enemy_king);
        mobility += weight(t, c, MOBILITY_QUEEN + B::popcount(a & area) as usize, 1);
    }

    let mut s = S::ZERO;
    if on(terms, Term::Mobility) {
        t.term(Term::Mobility, c, mobility);
        s += mobility;
    }
    if on(terms, Term::Pieces) {
        t.term(Term::Pieces, c, extra);
        s += extra;
    }
    s
}

/// Whether a minor of `c` on `sq` stands on an outpost: the 4th to 6th rank,
/// defended by a pawn, and out of reach of every enemy pawn.
#[inline(always)]
fn outpost(c: Color, sq: usize, their_pawns: u64, pawn_guarded: u64) -> bool {
    let r = relative_rank(c, sq);
    let beside = PASSED_PAWN_MASK[c.index()][sq] & !FILE_MASKS[sq & 7];
    (3..=5).contains(&r) && pawn_guarded & (1u64 << sq) != 0 && beside & their_pawns == 0
}

/// Space: central squares (files c to f, ranks 2 to 4 from `c`'s side) not
/// attacked by enemy pawns and free of own pawns, those behind own pawns counted
/// twice, times the pieces that could use them; divided by 8 so that the weight
/// has a useful resolution in whole centipawns.
fn space<B: Bits, Sl: Slider>(board: &Board<Sl>, c: Color, info: &Info) -> i32 {
    let centre = FILE_MASKS[2] | FILE_MASKS[3] | FILE_MASKS[4] | FILE_MASKS[5];
    let ranks = match c {
        Color::White => RANK_MASKS[1] | RANK_MASKS[2] | RANK_MASKS[3],
        Color::Black => RANK_MASKS[4] | RANK_MASKS[5] | RANK_MASKS[6],
    };
    let own_pawns = board.pieces(c, PieceKind::Pawn);
    let safe =
        centre & ranks & !own_pawns & !info.by_kind[c.flip().index()][PieceKind::Pawn.index()];
    // Squares up to three behind an own pawn.
    let mut behind = own_pawns;
    for _ in 0..3 {
        behind |= forward(c.flip(), behind);
    }
    let count = B::popcount(safe) + B::popcount(safe & behind);
    let pieces =
        board.color_bb(c) & !board.kind_bb(PieceKind::Pawn) & !board.kind_bb(PieceKind::King);
    (count * B::popcount(pieces)) as i32 / 8
}
