//! The evaluation report of `brokkr eval` and the protocols' `eval`: the
//! evaluation in use, its win/draw/loss chances by the win-rate model, then the
//! hand-written evaluation's table. Here, not in `eval`, because it reads the
//! win-rate model, which sits above the search.

use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::Board;
use crate::eval::{eval_table, Terms};
use crate::types::Color;
use std::fmt::Write;

/// The evaluation the engine plays with, as `eval` (UCI) and `brokkr eval`
/// print it: first `Evaluation (white)`, `Evaluation (side to move)` and
/// `Evaluation (win/draw/loss)` (per mille, side to move, by
/// [`crate::win_rate`]'s model) of the evaluation in use, with a line naming it;
/// then the hand-written evaluation's table ([`eval_table`]), headed as
/// what it is: the evaluation in use, or the one that is not.
///
/// `net` is the network's score of `board` (side to move's view) and its
/// description, when the engine evaluates with one.
pub fn evaluation_report<B: Bits, Sl: Slider>(
    board: &Board<Sl>,
    terms: Terms,
    net: Option<(i32, &str)>,
) -> String {
    let (table, hand_written) = eval_table::<B, Sl>(board, terms);
    let (stm, source) = match net {
        Some((cp, name)) => (cp, format!("network {name}")),
        None => (hand_written, "the hand-written evaluation".to_string()),
    };
    let white = match board.side_to_move() {
        Color::White => stm,
        Color::Black => -stm,
    };
    let [w, d, l] = crate::win_rate::wdl(crate::search::Score::Cp(stm), board);
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
