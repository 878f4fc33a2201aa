//! Where a self-play game starts: a position of the book, picked at random, then a
//! few random legal moves. Everything random comes from a generator seeded by
//! (seed, game number), so game N is the same game whichever thread plays it and
//! whenever it is played.

use crate::attacks::Slider;
use crate::bits::Bits;
use crate::board::{Board, Position};
use crate::cli::epd::split_position;
use crate::cli::lines::LineReader;
use crate::cli::text::{escape, escape_short};
use std::io::BufReader;

/// A small deterministic generator (SplitMix64): cheap to seed, and two nearby
/// seeds give unrelated streams, which is what one stream per game needs.
pub struct Rng(u64);

impl Rng {
    /// The generator of game `number` under `seed`.
    pub fn for_game(seed: u64, number: u64) -> Rng {
        let mut r = Rng(seed);
        // Mix the seed before adding the number, so (seed, n) and (seed + 1, n - 1)
        // do not share a stream.
        let base = r.next();
        Rng(base ^ number.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), without the bias of `%` (multiply-shift).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() as u128 * n as u128) >> 64) as usize
    }
}

/// The opening positions games start from.
pub struct Book<S: Slider> {
    /// The positions, in file order (a game picks one by index).
    pub positions: Vec<Board<S>>,
    /// What the output file's header says about the book: two books that give
    /// the same games describe themselves alike.
    pub description: String,
}

/// Bad book lines reported one by one; later ones are only counted.
const MAX_REPORTED: usize = 10;

impl<S: Slider> Book<S> {
    /// The start position alone (no `--book`).
    pub fn startpos() -> Book<S> {
        Book {
            positions: vec![Board::startpos()],
            description: "the start position".to_string(),
        }
    }

    /// Read an EPD (or FEN) file: the position of every line, ignoring its
    /// operations. A line that is not a position, or whose game is already over,
    /// is reported on stderr and skipped; a book with no usable line is an error.
    pub fn read<B: Bits>(file: &str) -> Result<Book<S>, String> {
        let name = escape(file, 200);
        let f = std::fs::File::open(file).map_err(|e| format!("cannot read book '{name}': {e}"))?;
        let mut lines = LineReader::new(BufReader::new(f));
        let mut positions = Vec::new();
        let mut bad = 0;
        while let Some(line) = lines.read_line().map_err(|e| format!("{name}:{e}"))? {
            match line.into_text().and_then(|t| parse_position::<B, S>(&t)) {
                Ok(Some(b)) => positions.push(b),
                Ok(None) => {}
                Err(why) => {
                    bad += 1;
                    if bad <= MAX_REPORTED {
                        noteln!("brokkr: {name}:{}: {why}: skipped", lines.number());
                    }
                }
            }
        }
        if bad > MAX_REPORTED {
            noteln!(
                "brokkr: {name}: {} more bad lines not shown",
                bad - MAX_REPORTED
            );
        }
        if positions.is_empty() {
            return Err(format!("book '{name}' has no usable position"));
        }
        let description = format!(
            "{} positions, checksum {:016x}",
            positions.len(),
            checksum(&positions)
        );
        Ok(Book {
            positions,
            description,
        })
    }
}

/// The position of one book line: `None` for a blank or `#` line.
fn parse_position<B: Bits, S: Slider>(line: &str) -> Result<Option<Board<S>>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (fen, _) = split_position(line);
    let board = Board::<S>::from_fen(&fen).map_err(|e| {
        format!(
            "bad FEN '{}': {}",
            escape_short(&fen),
            escape(&e.to_string(), 200)
        )
    })?;
    if board.legal_moves::<B>().is_empty() {
        return Err("the game is over in this position".to_string());
    }
    Ok(Some(board))
}

/// FNV-1a over the positions' FENs: what decides the games, whatever the file's
/// comments, operations or name.
fn checksum<S: Slider>(positions: &[Board<S>]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in positions {
        for byte in b.to_fen().bytes().chain(std::iter::once(b'\n')) {
            h = (h ^ byte as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    h
}

/// One try at an opening: a random book position, then `plies` random legal
/// moves; `None` if a random move ends the game.
pub fn random_opening<B: Bits, S: Slider>(
    book: &Book<S>,
    plies: usize,
    rng: &mut Rng,
) -> Option<Position<S>> {
    let start = book.positions[rng.below(book.positions.len())];
    let mut pos = Position::new(start);
    for _ in 0..plies {
        let moves = pos.board().legal_moves::<B>();
        if moves.is_empty() {
            return None;
        }
        pos.push(moves.as_slice()[rng.below(moves.len())]);
    }
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;
    use crate::bits::Portable;

    #[test]
    fn a_game_number_always_gives_the_same_stream() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_game(1, 17).next()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut r = Rng::for_game(1, 17);
        let mut s = Rng::for_game(1, 18);
        let mut t = Rng::for_game(2, 17);
        let (x, y, z) = (r.next(), s.next(), t.next());
        assert!(x != y && x != z && y != z);
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut r = Rng::for_game(3, 1);
        let mut seen = [0; 7];
        for _ in 0..700 {
            seen[r.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }

    #[test]
    fn openings_are_a_function_of_the_stream() {
        let book = Book::<Magic>::startpos();
        let fen = |n| {
            random_opening::<Portable, Magic>(&book, 8, &mut Rng::for_game(5, n))
                .map(|p| p.board().to_fen())
        };
        assert_eq!(fen(1), fen(1));
        assert_ne!(fen(1), fen(2));
        let p = random_opening::<Portable, Magic>(&book, 8, &mut Rng::for_game(5, 1)).unwrap();
        assert_eq!(p.ply(), 8);
    }

    #[test]
    fn book_lines_are_positions_or_reasons() {
        let ok = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 c0 \"x\";";
        assert!(parse_position::<Portable, Magic>(ok).unwrap().is_some());
        assert!(parse_position::<Portable, Magic>("  # note")
            .unwrap()
            .is_none());
        assert!(parse_position::<Portable, Magic>("").unwrap().is_none());
        let e = parse_position::<Portable, Magic>("8/8/8 w - -").unwrap_err();
        assert!(e.starts_with("bad FEN"), "{e}");
        // Fool's mate: White is mated.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let e = parse_position::<Portable, Magic>(mated).unwrap_err();
        assert!(e.contains("over"), "{e}");
    }
}
