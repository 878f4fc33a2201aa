//! `brokkr eval`: the static evaluation of one position, term by term.

use super::Args;
use crate::board::Board;

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
    crate::frontend::EVAL_HELP!(),
    "

Prints first the evaluation brokkr plays with: the network's (the embedded one
unless --net or --hce) or, with --hce, the hand-written one: `Evaluation
(white): N cp`, `Evaluation (side to move): N cp`, `Evaluation (win/draw/loss):
W D L` (the chances that value stands for by the win/draw/loss model, per mille,
for the side to move; see docs/wdl.md) and `Evaluated by: ...`. Then the
hand-written evaluation's terms, headed as in use or not: each term's
middlegame and endgame value for White and for Black, the phase and the scale
factor, and its totals `Hand-written (white): N cp` and `Hand-written (side to
move): N cp`."
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
    let (bits, slider) = crate::frontend::search_pair(&a)?;
    let eval = crate::frontend::eval_choice(&a)?;
    crate::with_search_pair!(bits, slider, B, S => {
        let board = match a.value("fen") {
            Some(fen) => Board::<S>::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
            None => Board::<S>::startpos(),
        };
        let net = eval.net.as_ref().map(|net| {
            let cp = crate::nnue::evaluate_on(eval.vector, net, &board);
            (cp, format!("{} on the {} path", net.describe(), eval.vector))
        });
        let net = net.as_ref().map(|(cp, name)| (*cp, name.as_str()));
        println!("{}", crate::frontend::evaluation_report::<B, S>(&board, terms, net));
        Ok(())
    })
}
