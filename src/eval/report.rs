//! The term-by-term table of `brokkr eval` and the protocol's `eval` command.

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
    table::<B, Sl>(board, terms).0
}

/// [`eval_report`]'s table, and the total it ends with (side to move's view).
fn table<B: Bits, Sl: Slider>(board: &Board<Sl>, terms: Terms) -> (String, i32) {
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

/// The evaluation the engine plays with, as `eval` (UCI) and `brokkr eval`
/// print it: first `Evaluation (white)`, `Evaluation (side to move)` and
/// `Evaluation (win/draw/loss)` (per mille, side to move, by
/// [`crate::wdl`]'s model) of the evaluation in use, with a line naming it;
/// then the hand-written evaluation's table ([`eval_report`]), headed as
/// what it is: the evaluation in use, or the one that is not.
///
/// `net` is the network's score of `board` (side to move's view) and its
/// description, when the engine evaluates with one.
pub fn evaluation_report<B: Bits, Sl: Slider>(
    board: &Board<Sl>,
    terms: Terms,
    net: Option<(i32, &str)>,
) -> String {
    let (table, hand_written) = table::<B, Sl>(board, terms);
    let (stm, source) = match net {
        Some((cp, name)) => (cp, format!("network {name}")),
        None => (hand_written, "the hand-written evaluation".to_string()),
    };
    let white = match board.side_to_move() {
        Color::White => stm,
        Color::Black => -stm,
    };
    let [w, d, l] = crate::wdl::wdl(crate::search::Score::Cp(stm), board);
    let mut out = String::new();
    let _ = writeln!(out, "Evaluation (white): {white} cp");
    let _ = writeln!(out, "Evaluation (side to move): {stm} cp");
    let _ = writeln!(
        out,
        "Evaluation (win/draw/loss): {w} {d} {l} (per mille, side to move)"
    );
    let _ = writeln!(out, "Evaluated by: {source}");
    let _ = writeln!(out);
    let heading = if net.is_some() {
        "The hand-written evaluation, term by term (not in use: the network is)"
    } else {
        "The hand-written evaluation, term by term (in use)"
    };
    let _ = writeln!(out, "{heading}");
    out.push_str(&table);
    out
}
