//! The term-by-term table of `brokkr eval` and the protocol's `eval` command
//! (the report around it, with the win-rate model's chances, is
//! `frontend::evaluation`).

use super::trace::{Term, TermTrace};
use super::{evaluate_white, Terms, PHASE_MAX, SCALE_NORMAL};
use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::types::Color;
use std::fmt::Write;

/// The hand-written evaluation of `board` as a table: each term's middlegame
/// and endgame value for White and for Black and their difference, the phase
/// and the scale factor, and on the last two lines `Hand-written (white): N cp`
/// and `Hand-written (side to move): N cp`, with the term groups `terms` on.
pub fn eval_report<B: Bits, Sl: Slider>(board: &Board<Sl>, terms: Terms) -> String {
    eval_table::<B, Sl>(board, terms).0
}

/// [`eval_report`]'s table, and the total it ends with (side to move's view).
pub fn eval_table<B: Bits, Sl: Slider>(board: &Board<Sl>, terms: Terms) -> (String, i32) {
    let mut t = TermTrace::default();
    let e = evaluate_white::<B, Sl, _>(board, None, terms, &mut t);
    let mut out = String::new();
    let rule = "-".repeat(68);
    let _ = writeln!(
        out,
        "{:<16}|{:>9}{:>7} |{:>9}{:>7} |{:>9}{:>7}",
        "Term", "White mg", "eg", "Black mg", "eg", "Total mg", "eg"
    );
    let _ = writeln!(out, "{rule}");
    for term in Term::ALL {
        let [w, b] = t.terms[term as usize];
        let d = w - b;
        let _ = writeln!(
            out,
            "{:<16}|{:>9}{:>7} |{:>9}{:>7} |{:>9}{:>7}",
            term.name(),
            w.mg(),
            w.eg(),
            b.mg(),
            b.eg(),
            d.mg(),
            d.eg()
        );
    }
    let _ = writeln!(out, "{rule}");
    let _ = writeln!(
        out,
        "{:<16}|{:>16} |{:>16} |{:>9}{:>7}",
        "Total",
        "",
        "",
        e.score.mg(),
        e.score.eg()
    );
    let _ = writeln!(out, "Phase: {} / {PHASE_MAX} (mg weight)", e.phase);
    let _ = writeln!(out, "Scale: {} / {SCALE_NORMAL} (eg factor)", e.scale);
    if e.special {
        let _ = writeln!(
            out,
            "Special endgame rule: the value comes from the rule, not the terms above"
        );
    }
    let stm = match board.side_to_move() {
        Color::White => e.value,
        Color::Black => -e.value,
    };
    let _ = writeln!(out, "Hand-written (white): {} cp", e.value);
    let _ = write!(out, "Hand-written (side to move): {stm} cp");
    (out, stm)
}
