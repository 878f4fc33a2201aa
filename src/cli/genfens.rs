//! `genfens`: opening positions for OpenBench, which asks for them as
//! `brokkr "genfens N seed S book <None|FILE> [EXTRA]" quit` and reads the
//! `info string genfens <FEN>` lines (its `Client/genfens.py`).
//!
//! Each position is a book position (or the start position without a book)
//! followed by a few random legal moves, kept only if a quick search finds it
//! playable for both sides: neither over nor lost at once. Everything random
//! comes from the seed, and the quick searches run one thread at a fixed node
//! count, so a seed always gives the same positions.

use super::datagen::opening::{random_opening, Book, Rng};
use crate::paths::Engine;
use crate::search::{self, Control, Limits, Settings, ThreadData, TranspositionTable};
use std::collections::HashSet;
use std::io::Write;
use std::time::Duration;

/// The form of the command, for its error messages.
const USAGE: &str = "expected 'genfens N seed S book <None|FILE> [EXTRA]'";

/// Random moves after the start position: 8 or 9 (either side to move), as
/// OpenBench's engines commonly play from it.
const PLIES_FROM_START: usize = 8;
/// Random moves after a book position, 2 or 3: the book already varies.
const PLIES_FROM_BOOK: usize = 2;
/// Nodes of the quick search that checks a position (a few milliseconds).
const CHECK_NODES: u64 = 5_000;
/// The quick search must score the position within this many centipawns.
const SCORE_LIMIT: i32 = 300;
/// Tries for one position before giving up (a book of positions that are all
/// lost, say).
const MAX_TRIES: usize = 10_000;
/// The most positions one command makes.
const MAX_COUNT: u64 = 10_000_000;

/// A parsed `genfens` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    /// `None` for the start position.
    pub book: Option<String>,
}

/// Parse `genfens N seed S book <None|FILE> [EXTRA]` (the command word
/// included). OpenBench's extra text, if any, is accepted and unused.
pub fn parse(line: &str) -> Result<Request, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [cmd, n, seed_word, s, book_word, book, ..] = words[..] else {
        return Err(USAGE.into());
    };
    if cmd != "genfens" || seed_word != "seed" || book_word != "book" {
        return Err(USAGE.into());
    }
    let count = n
        .parse::<u64>()
        .ok()
        .filter(|c| (1..=MAX_COUNT).contains(c))
        .ok_or_else(|| {
            format!(
                "bad count '{}': expected 1 to {MAX_COUNT}",
                super::text::escape_short(n)
            )
        })?;
    let seed = s.parse::<u64>().map_err(|_| {
        format!(
            "bad seed '{}': expected a whole number",
            super::text::escape_short(s)
        )
    })?;
    let book = (!book.eq_ignore_ascii_case("none")).then(|| book.to_string());
    Ok(Request { count, seed, book })
}

/// Run a `genfens` command line, writing `info string genfens <FEN>` lines.
pub fn run_line(line: &str, out: &mut dyn Write) -> Result<(), String> {
    let req = parse(line).map_err(|e| format!("genfens: {e}"))?;
    let none = super::Args::parse(&[], &[], &[])?;
    let (bits, slider) = super::search_pair(&none)?;
    let eval = crate::frontend::eval_choice(&none)?;
    crate::with_engine!(bits, slider, E => generate::<E>(&req, eval, out))
}

fn generate<E: Engine>(
    req: &Request,
    eval: crate::frontend::EvalChoice,
    out: &mut dyn Write,
) -> Result<(), String> {
    let (book, plies) = match &req.book {
        Some(f) => (
            Book::<E::Slider>::read::<E::Bits>(f).map_err(|e| format!("genfens: {e}"))?,
            PLIES_FROM_BOOK,
        ),
        None => (Book::startpos(), PLIES_FROM_START),
    };
    let tt = TranspositionTable::new(8).ok_or("genfens: cannot allocate an 8 MB hash table")?;
    let mut data = vec![ThreadData::new()];
    let limits = Limits {
        nodes: Some(CHECK_NODES),
        ..Limits::default()
    };
    let settings = Settings {
        move_overhead: Duration::ZERO,
        net: eval.net,
        vector: eval.vector,
        ..Settings::default()
    };
    let mut seen = HashSet::new();
    for number in 0..req.count {
        let mut rng = Rng::for_game(req.seed, number);
        let mut found = None;
        for _ in 0..MAX_TRIES {
            let extra = rng.below(2);
            let Some(pos) = random_opening::<E::Bits, E::Slider>(&book, plies + extra, &mut rng)
            else {
                continue;
            };
            let b = *pos.board();
            if b.legal_moves::<E::Bits>().is_empty() || seen.contains(&b.key()) {
                continue;
            }
            let r = search::search::<E>(
                &b,
                pos.keys(),
                &limits,
                &settings,
                &tt,
                &Control::default(),
                &mut data,
                &|_| {},
            );
            if r.score.abs() <= SCORE_LIMIT {
                found = Some(b);
                break;
            }
        }
        let b = found.ok_or_else(|| {
            format!(
                "genfens: no playable position in {MAX_TRIES} tries for position {}: \
                 every one was over, a repeat or beyond ±{SCORE_LIMIT} cp",
                number + 1
            )
        })?;
        seen.insert(b.key());
        say!(out, "info string genfens {}", b.to_fen());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_is_parsed_as_openbench_sends_it() {
        assert_eq!(
            parse("genfens 5 seed 42 book None "),
            Ok(Request {
                count: 5,
                seed: 42,
                book: None
            })
        );
        assert_eq!(
            parse("genfens 2 seed 7 book Books/UHO.epd extra words"),
            Ok(Request {
                count: 2,
                seed: 7,
                book: Some("Books/UHO.epd".into())
            })
        );
        for bad in [
            "genfens",
            "genfens 5 seed x book None",
            "genfens 0 seed 1 book None",
            "genfens 5 book None seed 1",
            "genfens -1 seed 1 book None",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
