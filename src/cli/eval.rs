//! `brokkr eval`: the static evaluation of one position, term by term.

use super::choice;
use super::Args;
use crate::board::Board;
use crate::eval::eval_report;
use crate::nnue::Vector;

pub const HELP: &str = concat!(
    "\
usage: brokkr eval [--fen FEN] [--off GROUPS] [--on GROUPS] [--bits PATH] [--slider NAME]
                   [--net FILE | --hce] [--simd PATH]

  --fen FEN        the position (default: the start position)
  --off GROUPS     switch term groups off, comma-separated: mobility, pawns,
                   passed, king, pieces, centre, development, threats,
                   endgame, tempo
  --on GROUPS      switch term groups on that are off by default (tempo,
                   development), same names
  --bits PATH      bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME    slider-attack backend (magic, pext, rotated, kindergarten,
                   rayloop, kogge-stone)
",
    crate::extras::EVAL_HELP!(),
    "

With a network (the embedded one unless --hce), prints first `NNUE (white): N cp`,
`NNUE (side to move): N cp` and the net that gave them. Then the hand-written
evaluation's terms: each term's middlegame and endgame value for White and for
Black, the phase and the scale factor, then `Final (white): N cp` and
`Final (side to move): N cp` (the hand-written evaluation's total), and last
`Final (win/draw/loss): W D L`, the chances that total stands for by the
win/draw/loss model (per mille, for the side to move; see docs/wdl.md)."
);

/// Run `brokkr eval` with `args` (after the command name).
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["fen", "off", "on", "bits", "slider", "net", "simd"],
        &["help", "hce"],
    )?;
    if a.flag("help") {
        println!("{HELP}");
        return Ok(());
    }
    if let Some(extra) = a.positional.first() {
        return Err(format!(
            "unexpected argument '{extra}' (a FEN goes after --fen, quoted)"
        ));
    }
    let mut terms = crate::eval::Terms::DEFAULT;
    if let Some(list) = a.value("off") {
        terms = terms.with(&crate::eval::Term::parse_list(list)?, false);
    }
    if let Some(list) = a.value("on") {
        terms = terms.with(&crate::eval::Term::parse_list(list)?, true);
    }
    let choice = choice(&a)?;
    let eval = crate::extras::eval_choice(&a, choice.bits, choice.slider)?;
    crate::with_bits!(choice.bits, B => crate::with_slider!(choice.slider, S => {
        let board = match a.value("fen") {
            Some(fen) => Board::<S>::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
            None => Board::<S>::startpos(),
        };
        if let Some(net) = &eval.net {
            let cp = crate::with_vector!(eval.vector, V => match V::detect() {
                Some(v) => crate::nnue::evaluate_fresh(v, net, &board),
                None => crate::nnue::evaluate_fresh(crate::nnue::vector::Portable, net, &board),
            });
            let white = if board.side_to_move() == crate::types::Color::White { cp } else { -cp };
            println!("NNUE (white): {white} cp");
            println!("NNUE (side to move): {cp} cp");
            println!("Network: {} on the {} path", net.describe(), eval.vector);
        }
        println!("{}", eval_report::<B, S>(&board, terms));
        // The hand-written evaluation's total for the side to move, as chances.
        let stm = crate::eval::evaluate::<B, S>(&board, &mut crate::eval::PawnTable::new(), terms);
        let [w, d, l] = crate::wdl::wdl(crate::search::Score::Cp(stm), &board);
        println!("Final (win/draw/loss): {w} {d} {l} (per mille, side to move)");
        Ok(())
    }))
}
