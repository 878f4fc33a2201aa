//! Switches for the search's selective features and the evaluation's term
//! groups, so each can be measured against the same build with it off
//! (`setoption name Feature_<name> value false`, `Eval_<group>`). Each switch
//! covers one heuristic, named as the search's comments name it, and is
//! declared once below: its field, its option name and its default.

use crate::eval::Terms;

/// One search switch: its option name (after `Feature_`) and its field.
pub struct Switch {
    pub name: &'static str,
    pub field: fn(&mut Features) -> &mut bool,
}

/// Declares [`Features`], its `Default` and [`Features::SWITCHES`] from one
/// list, so a switch is written once.
macro_rules! search_switches {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $name:literal = $default:literal;
    )+) => {
        /// Which of the search's selective features run, and the evaluation's
        /// term groups.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Features {
            $( $(#[doc = $doc])* pub $field: bool, )+
            /// The evaluation's term groups.
            pub terms: Terms,
        }

        impl Default for Features {
            fn default() -> Features {
                Features { $( $field: $default, )+ terms: Terms::DEFAULT }
            }
        }

        impl Features {
            /// Every search switch, in declaration order (the term groups are
            /// listed by [`Term::SWITCHABLE`](crate::eval::Term::SWITCHABLE)).
            pub const SWITCHES: &'static [Switch] = &[
                $( Switch { name: $name, field: |f| &mut f.$field }, )+
            ];
        }
    };
}

search_switches! {
    null_move: "NullMove" = true;
    lmr: "LMR" = true;
    /// Futility pruning of quiet moves in the main search.
    futility: "Futility" = true;
    rfp: "RFP" = true;
    lmp: "LMP" = true;
    /// SEE pruning of quiet moves and captures in the main search.
    see_pruning: "SEEPruning" = true;
    /// The singular search of the hash move, and its extension. Off, neither
    /// multi-cut nor the negative extension can happen (both read its result).
    singular: "Singular" = true;
    /// Multi-cut: the singular search shows another move beating beta too.
    multi_cut: "MultiCut" = true;
    /// The singular hash move extended by two plies when every other move fails
    /// far below it, at a non-PV node. Off by default: its row reached the
    /// 3,000-game cap at +4.1 ± 8.1 Elo (docs/strength.md).
    double_extension: "DoubleExtension" = false;
    /// The hash move reduced by a ply when not singular but above beta.
    negative_extension: "NegativeExtension" = true;
    iir: "IIR" = true;
    /// ProbCut: a capture whose reduced search beats beta by a margin cuts the node.
    probcut: "ProbCut" = true;
    /// Razoring. Off by default: turned off together with `reduce_captures`,
    /// Win At Chess at 1 s rose from 282 to 291 with the net, and the games
    /// gained +12.7 ± 11.1 Elo at 2s+0.02s over 1,786 (docs/strength.md).
    razoring: "Razoring" = false;
    aspiration: "Aspiration" = true;
    /// Time: the soft limit scaled by the best move's share of the nodes. Off
    /// by default until its row is finished (docs/strength.md).
    node_time: "NodeTime" = false;
    /// The quiet history's part in the late-move reduction.
    history: "History" = true;
    /// The re-search of a reduced move that beat alpha, a ply deeper or
    /// shallower by its margin over the best score so far. Off by default
    /// until its row is finished (docs/strength.md).
    lmr_research_depth: "LmrResearchDepth" = false;
    /// The continuation histories in the quiet history that the late-move
    /// reduction and futility pruning read (off: the butterfly history alone).
    /// Off by default: its row was stopped at -13.8 ± 14.3 Elo (docs/strength.md).
    cont_stats: "ContStats" = false;
    /// Quiet moves whose continuation histories (one and two plies back) sum
    /// far below zero, pruned at shallow depth. Off by default: its row reached
    /// the 3,000-game cap at +7.2 ± 8.4 Elo (docs/strength.md).
    history_pruning: "HistoryPruning" = false;
    /// After a node fails low, the quiet move that led to it rewarded in its
    /// side's histories: it refuted every move tried here (Stockfish's bonus
    /// for the prior countermove). Off by default until its row is finished
    /// (docs/strength.md).
    prior_bonus: "PriorBonus" = false;
    /// The butterfly history split four ways by whether the move's from and
    /// to squares are attacked by the other side (a move out of an attack,
    /// into one, both or neither), as Viridithas and others keep it. Its row
    /// passed at +16.9 ± 11.0 Elo over 1,897 games at 2s+0.02s
    /// (docs/strength.md).
    threat_history: "ThreatHistory" = true;
    /// A node on a principal variation now or once, by the hash's PV bit,
    /// reduced by late-move reductions as a PV node is, and a node that fails
    /// low at depth 4 or more just below one marked too (Stockfish's `ttPv`).
    /// Off by default until its row is finished (docs/strength.md).
    tt_pv: "TtPv" = false;
    /// A late move reduced a ply more where the node's children have failed
    /// high more than three times (two for each without a hash move) since
    /// its parent began (Stockfish's `cutoffCnt`). Off by default until its
    /// row is finished (docs/strength.md).
    cutoff_count: "CutoffCount" = false;
    /// Late-move reductions of captures and promotions at non-PV nodes (off:
    /// only quiet moves are reduced, as in Ethereal; see `razoring`).
    reduce_captures: "ReduceCaptures" = false;
    check_extension: "CheckExtension" = true;
    /// The only legal move in check, extended (OliThink).
    single_reply: "SingleReply" = true;
    /// A pawn reaching the seventh rank, extended (OliThink, Thor's Hammer).
    seventh_rank: "SeventhRank" = true;
    /// A recapture on a PV node, extended (Thor's Hammer).
    recapture: "Recapture" = true;
    /// Delta pruning of captures in quiescence (Gk).
    delta_pruning: "DeltaPruning" = true;
    /// SEE pruning of losing captures in quiescence.
    qsearch_see: "QSearchSEE" = true;
    /// Quiet checks in quiescence's first ply (off: lost about 28 Elo in its row
    /// at 2s+0.02s, while solving three more Win At Chess positions at a fixed
    /// 1.6 M nodes; docs/strength.md).
    qsearch_checks: "QSearchChecks" = false;
    /// Killers and the countermove, searched right after the winning captures.
    refutations: "Refutations" = true;
    /// The continuation histories (1 and 2 plies back) in the order of quiet moves.
    cont_history: "ContHistory" = true;
    /// The static evaluation corrected by what searches found for its pawn structure.
    corr_history: "CorrHistory" = true;
    /// The correction history also keyed by where each side's pieces other
    /// than pawns stand, its entries summed with the pawn structure's. Its row
    /// passed at +23.5 ± 13.2 Elo over 1,170 games at 2s+0.02s
    /// (docs/strength.md).
    piece_correction: "PieceCorrection" = true;
    /// The quiet move that led to a node judged by how the static evaluation
    /// moved across it: the mover's butterfly entry rewarded when this node's
    /// evaluation (from the other side) is below the one before the move, and
    /// punished when above (Stockfish's static-evaluation difference for quiet
    /// move ordering). Off: its row failed its SPRT at -9.6 ± 10.1 Elo over
    /// 1,772 games at 2s+0.02s (docs/strength.md).
    eval_diff_history: "EvalDiffHistory" = false;
    /// The correction history also keyed by the last two moves' pieces and
    /// target squares, its entry summed with the others (Stockfish's
    /// continuation correction history). Off by default until its row is
    /// finished (docs/strength.md).
    cont_correction: "ContCorrection" = false;
    /// The static evaluation scaled by `(200 - halfmove clock) / 200`, so a
    /// lead that makes no progress fades toward the fifty-move draw. Off by
    /// default until its row is finished (docs/strength.md).
    rule50_scaling: "Rule50Scaling" = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_switch_reaches_its_own_field() {
        for (i, s) in Features::SWITCHES.iter().enumerate() {
            let mut f = Features::default();
            let was = *(s.field)(&mut f);
            *(s.field)(&mut f) = !was;
            // Exactly this switch changed.
            for (j, t) in Features::SWITCHES.iter().enumerate() {
                let mut d = Features::default();
                assert_eq!(
                    *(t.field)(&mut f) != *(t.field)(&mut d),
                    i == j,
                    "{} {}",
                    s.name,
                    t.name
                );
            }
        }
    }
}
