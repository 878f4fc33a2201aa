//! The trace sink: what the evaluation reports about itself while it runs.
//!
//! The search evaluates with [`NoTrace`], whose methods are empty and inline away,
//! so tracing costs nothing there. `brokkr eval` uses a [`TermTrace`] to print each
//! term per colour, and the tuner a coefficient trace (in `super::tune`) that
//! records how many times each weight was applied. All three run the same code.

use super::score::S;
use crate::types::Color;

/// The groups of terms the table shows (and that [`super::Terms`] switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Material by piece kind.
    Material,
    /// The piece-square tables.
    Pst,
    /// Mobility by piece kind.
    Mobility,
    /// Pawn structure (the pawn hash).
    Pawns,
    /// Passed pawns with the pieces and kings.
    Passed,
    /// King shelter, storm and danger.
    King,
    /// Bishop pair, rooks, outposts, space and the other piece terms.
    Pieces,
    /// Control of the centre (Gk).
    Centre,
    /// Minors at home and the early queen (Gk).
    Development,
    /// Threats and hanging pieces.
    Threats,
    /// King centralisation in pawn endings; as a switch, also the endgame rules
    /// (KBNK, KPK, KRKP, insufficient material) and the drawish scale factors.
    Endgame,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// Every term, in table order.
    pub const ALL: [Term; 12] = [
        Term::Material,
        Term::Pst,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::King,
        Term::Pieces,
        Term::Centre,
        Term::Development,
        Term::Threats,
        Term::Endgame,
        Term::Tempo,
    ];

    /// The groups that can be switched off (all but material and the tables).
    pub const SWITCHABLE: [Term; 10] = [
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::King,
        Term::Pieces,
        Term::Centre,
        Term::Development,
        Term::Threats,
        Term::Endgame,
        Term::Tempo,
    ];

    /// The short name used by `brokkr eval --off` and engine options.
    pub const fn key(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Pst => "pst",
            Term::Mobility => "mobility",
            Term::Pawns => "pawns",
            Term::Passed => "passed",
            Term::King => "king",
            Term::Pieces => "pieces",
            Term::Centre => "centre",
            Term::Development => "development",
            Term::Threats => "threats",
            Term::Endgame => "endgame",
            Term::Tempo => "tempo",
        }
    }

    /// The switchable groups named in a comma-separated list (`king,threats`).
    pub fn parse_list(list: &str) -> Result<Vec<Term>, String> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                Term::SWITCHABLE
                    .into_iter()
                    .find(|t| t.key() == s)
                    .ok_or_else(|| {
                        let keys: Vec<_> = Term::SWITCHABLE.iter().map(|t| t.key()).collect();
                        format!(
                            "unknown term group '{s}' (expected some of: {})",
                            keys.join(", ")
                        )
                    })
            })
            .collect()
    }

    /// The row name in `brokkr eval`.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Pst => "Piece-square",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawn structure",
            Term::Passed => "Passed pawns",
            Term::King => "King safety",
            Term::Pieces => "Pieces",
            Term::Centre => "Centre control",
            Term::Development => "Development",
            Term::Threats => "Threats",
            Term::Endgame => "Endgame",
            Term::Tempo => "Tempo",
        }
    }
}

/// A sink for what the evaluation does. Every method defaults to nothing.
pub trait Trace {
    /// Whether this sink records anything (a constant, so the untraced paths fold).
    const ON: bool;

    /// Weight `idx` was added `count` times for `color` (linear terms).
    #[inline(always)]
    fn weight(&mut self, color: Color, idx: usize, count: i32) {
        let _ = (color, idx, count);
    }

    /// King-danger weight `idx` was added `count` times to the danger `color`
    /// puts on the enemy king (summed, then used non-linearly).
    #[inline(always)]
    fn danger(&mut self, color: Color, idx: usize, count: i32) {
        let _ = (color, idx, count);
    }

    /// `term` contributed `s` for `color`.
    #[inline(always)]
    fn term(&mut self, term: Term, color: Color, s: S) {
        let _ = (term, color, s);
    }
}

/// The sink of the search: records nothing, costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Trace for NoTrace {
    const ON: bool = false;
}

/// Each term's contribution per colour, for the printed table.
#[derive(Clone, Debug, Default)]
pub struct TermTrace {
    /// `[term][colour]`, in the order of [`Term::ALL`].
    pub terms: [[S; 2]; Term::ALL.len()],
}

impl Trace for TermTrace {
    const ON: bool = true;

    fn term(&mut self, term: Term, color: Color, s: S) {
        self.terms[term as usize][color.index()] += s;
    }
}
