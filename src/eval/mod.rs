//! The static evaluation: tapered terms whose weights are fitted to data.
//!
//! May not touch: the network, the search and above (the layers: docs/architecture.md).
//!
//! [`evaluate`] is what the search calls. It runs one generic routine with the
//! [`NoTrace`] sink; `brokkr eval` ([`eval_report`]) and the tuner run the very same
//! routine with sinks that record each term and each weight's coefficient, so the
//! table, the tuner's gradients and the search cannot disagree.
//!
//! Each term has a middlegame and an endgame value ([`S`]); the two are blended by
//! the game phase (24 with all pieces on, 0 with pawns and kings only) and the
//! endgame part is scaled toward a draw for drawish material (`endgame`).

mod endgame;
mod geometry;
mod king;
mod opening;
pub mod params;
mod pawns;
mod pieces;
mod report;
pub mod score;
mod threats;
pub mod trace;
pub mod tune;

pub mod weights;

pub use pawns::PawnTable;
pub use report::{eval_report, eval_table};
pub use score::S;
pub use trace::{NoTrace, Term, TermTrace, Trace};

use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::types::{Color, PieceKind};
use weights::WEIGHTS;

/// The largest value the evaluation returns; the search keeps mate scores above it.
pub const MAX_EVAL: i32 = 9_000;

/// The full game phase: every piece but pawns and kings on the board.
pub const PHASE_MAX: i32 = 24;

/// The scale factor of a normal position; the endgame part is multiplied by
/// `scale / SCALE_NORMAL`.
pub const SCALE_NORMAL: i32 = 64;

/// Which term groups are on: a set of [`Term`]s, part of each search's settings
/// (UCI `Eval_<group>`, `brokkr eval --on/--off`) rather than a process-wide
/// switch, so two searches or two library users cannot change each other's
/// evaluation. Meant to measure what a group is worth in matches. Material and
/// the piece-square tables cannot be switched off.
///
/// All on by default but two ([`Terms::DEFAULT`]), each measured in matches at
/// 5s+0.05s against the same build with it off (fastchess, 100 games a run):
/// - [`Term::Tempo`], the side to move's bonus: -41.9 ± 41.1 Elo (10-22-68), then
///   0.0 ± 45.4 (22-22-56); 32-44-124 over both.
/// - [`Term::Development`], Gk's minors at home and early queen, which the issue
///   keeps only if it pays beside the piece-square tables: -24.4 ± 41.3
///   (16-23-61). The tables already say where a minor stands well.
///
/// The tuner turns every group on ([`Terms::ALL`]), so the weights it writes
/// (these two's included) are those of the documented command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Terms(u32);

impl Terms {
    /// Every group on.
    pub const ALL: Terms = Terms(u32::MAX);
    /// The groups a search uses unless told otherwise: every one but tempo and
    /// development (see [`Terms`]).
    pub const DEFAULT: Terms = Terms(!(1 << Term::Tempo as u32 | 1 << Term::Development as u32));

    /// Whether group `term` is on.
    #[inline(always)]
    pub const fn contains(self, term: Term) -> bool {
        on(self.0, term)
    }

    /// These terms with `terms` switched on (`true`) or off.
    #[must_use]
    pub fn with(self, terms: &[Term], on: bool) -> Terms {
        let bits = terms.iter().fold(0u32, |m, &t| m | 1 << t as u32);
        Terms(if on { self.0 | bits } else { self.0 & !bits })
    }
}

impl Default for Terms {
    fn default() -> Terms {
        Terms::DEFAULT
    }
}

/// Static evaluation in centipawns from the side to move's point of view,
/// |v| <= [`MAX_EVAL`], with the term groups `terms` on.
#[inline]
pub fn evaluate<B: Bits, S: Slider>(board: &Board<S>, pawns: &mut PawnTable, terms: Terms) -> i32 {
    let white = evaluate_white::<B, S, NoTrace>(board, Some(pawns), terms, &mut NoTrace).value;
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// What one evaluation found, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The final value for White, in centipawns.
    pub value: i32,
    /// The sum of all terms, before tapering.
    pub score: S,
    /// The game phase, 0 (pawn ending) to [`PHASE_MAX`].
    pub phase: i32,
    /// The scale of the endgame part, out of [`SCALE_NORMAL`].
    pub scale: i32,
    /// Whether a special endgame rule gave the value (the terms were not used).
    pub special: bool,
}

/// Add weight `idx` `count` times for `color`, and tell the trace.
#[inline(always)]
pub(crate) fn weight<T: Trace>(t: &mut T, color: Color, idx: usize, count: i32) -> S {
    if T::ON {
        t.weight(color, idx, count);
    }
    WEIGHTS[idx] * count
}

/// Whether term group `term` is on in the mask `terms`.
#[inline(always)]
const fn on(terms: u32, term: Term) -> bool {
    terms & (1 << term as u32) != 0
}

/// The game phase of `board`: minors 1, rooks 2, queens 4, at most [`PHASE_MAX`].
pub(crate) fn phase<B: Bits, Sl: Slider>(board: &Board<Sl>) -> i32 {
    let n = B::popcount(board.kind_bb(PieceKind::Knight) | board.kind_bb(PieceKind::Bishop));
    let r = B::popcount(board.kind_bb(PieceKind::Rook));
    let q = B::popcount(board.kind_bb(PieceKind::Queen));
    ((n + 2 * r + 4 * q) as i32).min(PHASE_MAX)
}

/// The evaluation from White's point of view with the term groups `terms` on,
/// reporting to `t`. Without a pawn table (or with a tracing sink) the pawn
/// structure is computed afresh.
pub fn evaluate_white<B: Bits, Sl: Slider, T: Trace>(
    board: &Board<Sl>,
    pawns: Option<&mut PawnTable>,
    terms: Terms,
    t: &mut T,
) -> Evaluation {
    let phase = phase::<B, Sl>(board);
    let terms = terms.0;
    let rules = on(terms, Term::Endgame);
    if let Some(value) = endgame::special::<B, Sl>(board).filter(|_| rules) {
        return Evaluation {
            value,
            score: S::ZERO,
            phase,
            scale: SCALE_NORMAL,
            special: true,
        };
    }
    let mut score = material::<B, Sl, T>(board, t);

    let white_pawns = board.pieces(Color::White, PieceKind::Pawn);
    let black_pawns = board.pieces(Color::Black, PieceKind::Pawn);
    let entry = match pawns {
        Some(table) if !T::ON => table.probe::<B>(board.pawn_key(), white_pawns, black_pawns),
        _ if on(terms, Term::Pawns) => pawns::structure::<B, T>(white_pawns, black_pawns, t),
        // Switched off: the passed pawns are still needed, but nothing is reported.
        _ => pawns::structure::<B, NoTrace>(white_pawns, black_pawns, &mut NoTrace),
    };
    if on(terms, Term::Pawns) {
        score += entry.score;
    }
    let info = pieces::Info::new::<Sl>(board);
    let mut info = info;
    for c in Color::BOTH {
        let s = pieces::pieces::<B, Sl, T>(board, c, &mut info, terms, t);
        score += if c == Color::White { s } else { -s };
    }
    for c in Color::BOTH {
        let mut s = S::ZERO;
        if on(terms, Term::King) {
            s += king::king_safety::<B, Sl, T>(board, c, &info, t);
        }
        if on(terms, Term::Passed) {
            s += king::passed::<B, Sl, T>(board, c, entry.passed[c.index()], &info, t);
        }
        if on(terms, Term::Centre) {
            s += opening::centre::<B, T>(c, &info, t);
        }
        if on(terms, Term::Development) {
            s += opening::development::<B, Sl, T>(board, c, t);
        }
        if on(terms, Term::Threats) {
            s += threats::threats::<B, Sl, T>(board, c, &info, t);
        }
        if on(terms, Term::Endgame) {
            s += king::pawn_ending::<Sl, T>(board, c, t);
        }
        score += if c == Color::White { s } else { -s };
    }
    if on(terms, Term::Tempo) {
        let stm = board.side_to_move();
        let s = weight(t, stm, params::TEMPO, 1);
        t.term(Term::Tempo, stm, s);
        score += if stm == Color::White { s } else { -s };
    }

    let scale = if rules {
        endgame::scale::<B, Sl>(board, score.eg())
    } else {
        SCALE_NORMAL
    };
    let value = taper(score, phase, scale);
    Evaluation {
        value,
        score,
        phase,
        scale,
        special: false,
    }
}

/// Blend `s` by `phase` with its endgame part scaled by `scale`/64; symmetric in
/// sign (integer division truncates toward zero), clamped to [`MAX_EVAL`].
#[inline(always)]
pub fn taper(s: S, phase: i32, scale: i32) -> i32 {
    let eg = s.eg() * scale / SCALE_NORMAL;
    let v = (s.mg() * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    v.clamp(-MAX_EVAL, MAX_EVAL)
}

/// Material and piece-square values, White's minus Black's.
fn material<B: Bits, Sl: Slider, T: Trace>(board: &Board<Sl>, t: &mut T) -> S {
    let mut total = S::ZERO;
    for c in Color::BOTH {
        let (mut mat, mut pst) = (S::ZERO, S::ZERO);
        for kind in PieceKind::ALL {
            let mut bb = board.pieces(c, kind);
            if kind != PieceKind::King {
                let n = B::popcount(bb) as i32;
                mat += weight(t, c, params::MATERIAL + kind.index(), n);
            }
            let table = params::PST + 64 * kind.index();
            while bb != 0 {
                let sq = B::pop_lsb(&mut bb) as usize;
                pst += weight(t, c, table + geometry::relative_square(c, sq), 1);
            }
        }
        t.term(Term::Material, c, mat);
        t.term(Term::Pst, c, pst);
        total += if c == Color::White {
            mat + pst
        } else {
            -(mat + pst)
        };
    }
    total
}
