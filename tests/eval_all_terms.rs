//! Colour symmetry with every term group on, those off by default (tempo,
//! development) included: the evaluation of a position equals that of its
//! colour-flipped mirror, term by term and from the side to move.
//!
//! `tests/eval.rs` checks the default groups the same way.

use brokkr::eval::Terms;

mod common;
mod symmetry;
use symmetry::{mirror_fen, random_games_are_symmetric, symmetric, B};

/// Every position of `file` (a FEN, then anything after it), with its mirror.
fn check_file(file: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen: Vec<&str> = line
            .split(['|', ';'])
            .next()
            .unwrap()
            .split_whitespace()
            .take(6)
            .collect();
        // EPD lines carry four fields and then operations; FENs six.
        let fen = match fen.get(4).map(|f| f.parse::<u32>()) {
            Some(Ok(_)) => fen.join(" "),
            _ => fen[..4].join(" ") + " 0 1",
        };
        let b = B::from_fen(&fen).unwrap_or_else(|e| panic!("{file}: {fen}: {e}"));
        let m = B::from_fen(&mirror_fen(&fen)).unwrap();
        if let Err(e) = symmetric(&b, &m, Terms::ALL) {
            panic!("{file}: {fen}: {e}");
        }
        n += 1;
    }
    assert!(n > 0, "{file} has no positions");
}

#[test]
fn every_group_is_colour_symmetric_in_random_games() {
    random_games_are_symmetric::<true>();
}

#[test]
fn every_group_is_colour_symmetric_on_the_test_suites() {
    for file in [
        "tuning-sample.txt",
        "standard.epd",
        "fischer.epd",
        "epd-sample.epd",
    ] {
        check_file(&common::data_path(file));
    }
}
