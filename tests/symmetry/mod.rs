//! What the evaluation's symmetry tests share: the colour-flipped mirror of a FEN
//! and the term-by-term comparison, over random games from `tests/common`. Used
//! by `tests/eval.rs` (the groups on by default) and `tests/eval_all_terms.rs`
//! (every group on), which both say `mod common;` before `mod symmetry;`.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use brokkr::attacks::{Magic, Slider};
use brokkr::bits::Portable;
use brokkr::board::Board;
use brokkr::eval::{evaluate, evaluate_white, PawnTable, Term, TermTrace, Terms};
use quickcheck::{QuickCheck, TestResult};

/// The board the tests use.
pub type B = Board<Magic>;

/// The colour-flipped mirror of a FEN: ranks mirrored, colours swapped, the other
/// side to move, castling rights and the en-passant square mirrored too.
pub fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let placement: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap).collect())
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s: String = f[2].chars().map(swap).collect();
        let (mut up, mut low): (String, String) = (String::new(), String::new());
        for c in s.chars() {
            if c.is_ascii_uppercase() {
                up.push(c)
            } else {
                low.push(c)
            }
        }
        up + &low
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    let rest = f[4..].join(" ");
    format!("{} {side} {castling} {ep} {rest}", placement.join("/"))
}

/// The positions of a random legal game from `common::STARTS[start]` (start
/// positions rich in castling, en passant and endgames), `choices` picking the
/// moves, at most 160 of them.
pub fn random_positions(start: usize, choices: &[u8]) -> Vec<B> {
    crate::common::random_positions(
        crate::common::start(start),
        choices.iter().take(160).map(|&c| u64::from(c)),
    )
}

/// Each term for White in `a` must equal the same term for Black in `m` (and the
/// reverse), and the values from the side to move must agree.
pub fn symmetric<S: Slider>(a: &Board<S>, m: &Board<S>, terms: Terms) -> Result<(), String> {
    let (mut ta, mut tm) = (TermTrace::default(), TermTrace::default());
    let ea = evaluate_white::<Portable, S, _>(a, None, terms, &mut ta);
    let em = evaluate_white::<Portable, S, _>(m, None, terms, &mut tm);
    for term in Term::ALL {
        let [aw, ab] = ta.terms[term as usize];
        let [mw, mb] = tm.terms[term as usize];
        if aw != mb || ab != mw {
            return Err(format!(
                "{}: {:?}/{:?} vs mirrored {:?}/{:?}",
                term.name(),
                aw,
                ab,
                mb,
                mw
            ));
        }
    }
    if ea.value != -em.value || ea.phase != em.phase || ea.scale != em.scale {
        return Err(format!("{ea:?} vs mirrored {em:?}"));
    }
    let (mut pa, mut pm) = (PawnTable::new(), PawnTable::new());
    let va = evaluate::<Portable, S>(a, &mut pa, terms);
    let vm = evaluate::<Portable, S>(m, &mut pm, terms);
    if va != vm {
        return Err(format!("side to move: {va} vs mirrored {vm}"));
    }
    if va.abs() >= 10_000 {
        return Err(format!("{va} is outside the evaluation's range"));
    }
    Ok(())
}

/// The property over 200 random games: every position met evaluates as its
/// mirror, with every term group on (`ALL`) or the default ones.
pub fn random_games_are_symmetric<const ALL: bool>() {
    fn prop<const ALL: bool>(start: usize, choices: Vec<u8>) -> TestResult {
        let terms = if ALL { Terms::ALL } else { Terms::DEFAULT };
        for b in random_positions(start, &choices) {
            let fen = b.to_fen();
            let m = match B::from_fen(&mirror_fen(&fen)) {
                Ok(m) => m,
                Err(e) => return TestResult::error(format!("{fen}: mirror: {e}")),
            };
            if let Err(e) = symmetric(&b, &m, terms) {
                return TestResult::error(format!("{fen}: {e}"));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop::<ALL> as fn(usize, Vec<u8>) -> TestResult);
}
