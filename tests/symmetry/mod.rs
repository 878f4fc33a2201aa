//! What the evaluation's symmetry tests share: random games, the colour-flipped
//! mirror of a FEN and the term-by-term comparison. Used by `tests/eval.rs` (the
//! groups on by default) and `tests/eval_all_terms.rs` (every group on).

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use brokkr::attacks::{Magic, Slider};
use brokkr::bits::Portable;
use brokkr::board::Board;
use brokkr::eval::{evaluate, evaluate_white, PawnTable, Term, TermTrace};
use quickcheck::{QuickCheck, TestResult};

/// The board the tests use.
pub type B = Board<Magic>;

/// Start positions for random games: the start, Kiwipete, a Chess960 start and a
/// few endgames so that pawn endings and scaled material come up too.
pub const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/pp3k2/2p1p3/3pP1p1/3P2P1/2P2K2/PP6/8 w - - 0 40",
    "4k3/1b3p2/4p1p1/p7/P3P3/2B2P2/5KP1/8 b - - 0 45",
    "6k1/5ppp/8/8/8/8/3N1PPP/2B3K1 w - - 0 50",
    "r5k1/5ppp/8/1P6/8/8/5PPP/R5K1 w - - 0 30",
];

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

/// Walk a random legal game and return the positions met.
pub fn random_positions(start: usize, choices: &[u8]) -> Vec<B> {
    let mut b = B::from_fen(STARTS[start % STARTS.len()]).unwrap();
    let mut out = vec![b];
    for &c in choices.iter().take(160) {
        let moves = b.legal_moves::<Portable>();
        if moves.is_empty() {
            break;
        }
        b.make::<Portable>(moves.as_slice()[c as usize % moves.len()]);
        out.push(b);
    }
    out
}

/// Each term for White in `a` must equal the same term for Black in `m` (and the
/// reverse), and the values from the side to move must agree.
pub fn symmetric<S: Slider>(a: &Board<S>, m: &Board<S>) -> Result<(), String> {
    let (mut ta, mut tm) = (TermTrace::default(), TermTrace::default());
    let ea = evaluate_white::<Portable, S, _>(a, None, &mut ta);
    let em = evaluate_white::<Portable, S, _>(m, None, &mut tm);
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
    let va = evaluate::<Portable, S>(a, &mut pa, -30_000, 30_000);
    let vm = evaluate::<Portable, S>(m, &mut pm, -30_000, 30_000);
    if va != vm {
        return Err(format!("side to move: {va} vs mirrored {vm}"));
    }
    if va.abs() >= 10_000 {
        return Err(format!("{va} is outside the evaluation's range"));
    }
    Ok(())
}

/// The property over 200 random games: every position met evaluates as its mirror.
pub fn random_games_are_symmetric() {
    fn prop(start: usize, choices: Vec<u8>) -> TestResult {
        for b in random_positions(start, &choices) {
            let fen = b.to_fen();
            let m = match B::from_fen(&mirror_fen(&fen)) {
                Ok(m) => m,
                Err(e) => return TestResult::error(format!("{fen}: mirror: {e}")),
            };
            if let Err(e) = symmetric(&b, &m) {
                return TestResult::error(format!("{fen}: {e}"));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(usize, Vec<u8>) -> TestResult);
}
