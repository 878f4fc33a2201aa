//! Opening books in the Polyglot format (`.bin` files), for the `OwnBook` option.
//!
//! May not touch: the search and above (the layers: docs/architecture.md).
//!
//! A book is a sequence of 16-byte big-endian entries sorted by key: the
//! position's Polyglot key (`u64`, see [`polyglot_key`]), a move (`u16`), a
//! weight (`u16`) and a learning field (`u32`, unused here). The move packs the
//! target file (bits 0-2), target row (3-5), origin file (6-8), origin row (9-11)
//! and promotion piece (12-14: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen);
//! castling is the king taking its own rook (`e1h1`, `e1a1`, `e8h8`, `e8a8`),
//! which is also how brokkr encodes it ([`Move::castling`]).
//!
//! The whole file is read into memory when it is opened; a lookup is a binary
//! search. A book move is played only if it is legal in the position: the
//! others are passed over.
//!
//! Which move is played among the book's ([`pick`]) is set by the variety, from
//! 0 to 100: 0 always plays the move of the highest weight (the first in the
//! file among equals); above 0 a move is drawn at random, with chances in
//! proportion to `weight ^ (50 / variety)`. So 50 plays each move as often as
//! its weight says (Polyglot's own rule), lower values favour the heavy moves
//! more and more (at 1 the heaviest is all but certain), and 100 flattens the
//! weights to their square roots. A move of weight 0 is never played.

use crate::attacks::Slider;
use crate::bits::Portable;
use crate::board::Board;
use crate::tables::{pawn_attacks, POLYGLOT_RANDOM};
use crate::types::{Color, Move, PieceKind};
use std::fmt;
use std::path::Path;

/// The size of one book entry in bytes.
pub const ENTRY_BYTES: usize = 16;

/// The variety of the book's choice: see [`pick`].
pub const MAX_VARIETY: u32 = 100;
/// The default variety: each move as often as its weight says.
pub const DEFAULT_VARIETY: u32 = 50;

/// The Polyglot key of `board`: the xor of [`POLYGLOT_RANDOM`] entries for each
/// piece (`64 * kind + 8 * row + file`, kind = 2 * piece type + 1 for white), for
/// each castling right (768 + 0..4: white king side, white queen side, black king
/// side, black queen side), for the en-passant file (772 + file) if a pawn of the
/// side to move stands beside the pawn that just moved two squares, whether or
/// not the capture is legal, and 780 if white is to move.
pub fn polyglot_key<S: Slider>(board: &Board<S>) -> u64 {
    let mut key = 0;
    for color in Color::BOTH {
        let white = usize::from(color == Color::White);
        for kind in PieceKind::ALL {
            let offset = 64 * (2 * kind.index() + white);
            let mut bb = board.pieces(color, kind);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                key ^= POLYGLOT_RANDOM[offset + sq];
            }
        }
    }
    // brokkr's rights are bits 0..4 in the same order as the book's.
    let rights = board.castling_rights();
    for i in 0..4 {
        if rights >> i & 1 != 0 {
            key ^= POLYGLOT_RANDOM[768 + i];
        }
    }
    let us = board.side_to_move();
    if let Some(ep) = board.ep_square() {
        // Our pawns that attack the target square stand beside the pawn that moved.
        let capturers =
            pawn_attacks(us.flip().index(), ep.index()) & board.pieces(us, PieceKind::Pawn);
        if capturers != 0 {
            key ^= POLYGLOT_RANDOM[772 + ep.file() as usize];
        }
    }
    if us == Color::White {
        key ^= POLYGLOT_RANDOM[780];
    }
    key
}

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    /// The move in the book's encoding (see the module's documentation).
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    /// The entry's 16 bytes, as a book file holds them.
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut b = [0; ENTRY_BYTES];
        b[..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Entry {
        let be = |range: std::ops::Range<usize>| {
            b[range]
                .iter()
                .fold(0u64, |acc, &x| acc << 8 | u64::from(x))
        };
        Entry {
            key: be(0..8),
            mv: be(8..10) as u16,
            weight: be(10..12) as u16,
            learn: be(12..16) as u32,
        }
    }
}

/// A book move in the book's encoding as text: `e2e4`, `e7e8q`, `e1h1`.
pub fn move_text(raw: u16) -> String {
    let sq = |s: u16| format!("{}{}", (b'a' + (s & 7) as u8) as char, (s >> 3 & 7) + 1);
    let promo = match raw >> 12 & 7 {
        0 => "",
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => "?",
    };
    format!("{}{}{promo}", sq(raw >> 6 & 63), sq(raw & 63))
}

/// A move in the book's encoding (castling as king takes rook, as brokkr's).
pub fn encode_move(m: Move) -> u16 {
    let promo = m.promotion_kind().map_or(0, |k| k.index() as u16);
    (m.to().index() as u16) | (m.from().index() as u16) << 6 | promo << 12
}

/// The legal move of `board` that the book's `raw` move names, if there is one.
pub fn decode_move<S: Slider>(board: &Board<S>, raw: u16) -> Option<Move> {
    let (to, from, promo) = (raw & 63, raw >> 6 & 63, raw >> 12 & 7);
    board
        .legal_moves::<Portable>()
        .iter()
        .find(|&m| encode_move(m) == (to | from << 6 | promo << 12))
}

/// A book, read whole into memory.
#[derive(Clone)]
pub struct Book {
    entries: Vec<Entry>,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({} entries)", self.entries.len())
    }
}

/// A move the book chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
    /// The weights of the position's legal book moves, added up.
    pub total: u32,
    /// How many legal book moves the position has (weight 0 included).
    pub choices: usize,
}

/// The largest book file read: 1 GiB, 64 million entries, several times the
/// largest books in use. A book is held in memory whole, so a path to
/// something larger (or endless, as `/dev/zero`) is refused at once.
pub const MAX_BOOK_BYTES: usize = 1 << 30;

impl Book {
    /// Read the book at `path`. The file must hold whole entries, at least one,
    /// sorted by key.
    pub fn open(path: &Path) -> Result<Book, String> {
        let bytes = crate::nnue::network::read_at_most(path, MAX_BOOK_BYTES)
            .map_err(|e| format!("cannot read the book '{}': {e}", path.display()))?
            .ok_or_else(|| {
                format!(
                    "the book '{}' is larger than {} MB, the most brokkr reads (a book is \
                     held in memory whole)",
                    path.display(),
                    MAX_BOOK_BYTES >> 20
                )
            })?;
        Book::from_bytes(&bytes)
            .map_err(|e| format!("'{}' is not a Polyglot book: {e}", path.display()))
    }

    /// A book from a file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.is_empty() {
            return Err("the file is empty".into());
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(format!(
                "its size, {} bytes, is not a multiple of {ENTRY_BYTES} (the size of an entry)",
                bytes.len()
            ));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(Entry::from_bytes)
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(format!(
                "its entries are not sorted by key (entry {} comes before a smaller key)",
                i + 1
            ));
        }
        Ok(Book { entries })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry (never, for a book that was opened).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries of the position with Polyglot key `key`, in the file's order.
    pub fn lookup(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The legal book moves of `board` with their weights, in the file's order,
    /// and the entries whose moves are not legal there.
    pub fn moves<S: Slider>(&self, board: &Board<S>) -> (Vec<(Move, u16)>, Vec<Entry>) {
        let mut legal = Vec::new();
        let mut illegal = Vec::new();
        for &e in self.lookup(polyglot_key(board)) {
            match decode_move(board, e.mv) {
                Some(m) => legal.push((m, e.weight)),
                None => illegal.push(e),
            }
        }
        (legal, illegal)
    }

    /// A book move for `board` chosen with `variety` (see [`pick`]), drawn with
    /// the random number `r`; `None` if the book has no legal move of positive
    /// weight there.
    pub fn choose<S: Slider>(&self, board: &Board<S>, variety: u32, r: u64) -> Option<BookMove> {
        let (legal, _) = self.moves(board);
        let weights: Vec<u16> = legal.iter().map(|&(_, w)| w).collect();
        let i = pick(&weights, variety, r)?;
        Some(BookMove {
            mv: legal[i].0,
            weight: legal[i].1,
            total: weights.iter().map(|&w| u32::from(w)).sum(),
            choices: legal.len(),
        })
    }
}

/// The index of the weight chosen among `weights` with `variety` (0 to 100,
/// higher values are taken as 100) and the random number `r`: with variety 0
/// the first of the highest weights; otherwise weight `w` has a chance in
/// proportion to `w ^ (50 / variety)`. Weights of 0 are never chosen; `None`
/// if every weight is 0 (or there is none).
pub fn pick(weights: &[u16], variety: u32, r: u64) -> Option<usize> {
    let max = *weights.iter().max()?;
    if max == 0 {
        return None;
    }
    if variety == 0 {
        return weights.iter().position(|&w| w == max);
    }
    let power = 50.0 / f64::from(variety.min(MAX_VARIETY));
    // Scaled by the largest weight, so that no power can overflow.
    let chances: Vec<f64> = weights
        .iter()
        .map(|&w| {
            if w == 0 {
                0.0
            } else {
                (f64::from(w) / f64::from(max)).powf(power)
            }
        })
        .collect();
    let total: f64 = chances.iter().sum();
    // A uniform number in [0, total), from the top 53 bits of `r`.
    let mut x = (r >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut last = None;
    for (i, &c) in chances.iter().enumerate() {
        if c > 0.0 {
            if x < c {
                return Some(i);
            }
            x -= c;
            last = Some(i);
        }
    }
    // Rounding left a sliver past the last chance.
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;

    fn key_after(moves: &[&str]) -> u64 {
        let mut b = Board::<Magic>::startpos();
        for m in moves {
            let m = b.parse_uci(m).unwrap();
            b.make::<Portable>(m);
        }
        polyglot_key(&b)
    }

    #[test]
    fn the_published_keys_of_the_start_and_after_e2e4() {
        assert_eq!(key_after(&[]), 0x463B_9618_1691_FC9C);
        assert_eq!(key_after(&["e2e4"]), 0x823C_9B50_FD11_4196);
    }

    #[test]
    fn the_en_passant_file_counts_only_with_a_capturer_beside() {
        // After e2e4 d7d5 e4e5 f7f5 the pawn on e5 can take on f6.
        let with = key_after(&["e2e4", "d7d5", "e4e5", "f7f5"]);
        let b = Board::<Magic>::from_fen(
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        )
        .unwrap();
        assert_eq!(with, polyglot_key(&b) ^ POLYGLOT_RANDOM[772 + 5]);
        // e2e4 leaves no black pawn beside e4: no en-passant number.
        let b =
            Board::<Magic>::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap();
        assert_eq!(key_after(&["e2e4"]), polyglot_key(&b));
    }

    #[test]
    fn moves_encode_and_decode_castling_as_king_takes_rook() {
        let b = Board::<Magic>::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let short = b.parse_uci("e1g1").unwrap();
        assert_eq!(move_text(encode_move(short)), "e1h1");
        assert_eq!(decode_move(&b, encode_move(short)), Some(short));
        let long = b.parse_uci("e1c1").unwrap();
        assert_eq!(move_text(encode_move(long)), "e1a1");
        // Not a legal king move: the book's castling is only king takes rook.
        let e1g1 = 6 | 4 << 6;
        assert_eq!(decode_move(&b, e1g1), None);
        let b = Board::<Magic>::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        let promo = b.parse_uci("e7e8n").unwrap();
        assert_eq!(move_text(encode_move(promo)), "e7e8n");
        assert_eq!(encode_move(promo) >> 12, 1);
        assert_eq!(decode_move(&b, encode_move(promo)), Some(promo));
    }

    #[test]
    fn books_must_be_whole_sorted_entries() {
        let e = |key, mv, weight| Entry {
            key,
            mv,
            weight,
            learn: 0,
        };
        let bytes = |es: &[Entry]| es.iter().flat_map(|e| e.to_bytes()).collect::<Vec<u8>>();
        let good = bytes(&[e(1, 2, 3), e(5, 6, 7), e(5, 8, 9), e(9, 1, 1)]);
        let book = Book::from_bytes(&good).unwrap();
        assert_eq!(book.len(), 4);
        assert_eq!(book.lookup(5), &[e(5, 6, 7), e(5, 8, 9)]);
        assert!(book.lookup(4).is_empty());
        assert!(book.lookup(10).is_empty());
        assert!(Book::from_bytes(&good[..good.len() - 1])
            .unwrap_err()
            .contains("multiple of 16"));
        assert!(Book::from_bytes(&[]).unwrap_err().contains("empty"));
        let unsorted = bytes(&[e(5, 6, 7), e(1, 2, 3)]);
        assert!(Book::from_bytes(&unsorted)
            .unwrap_err()
            .contains("not sorted"));
    }

    #[test]
    fn variety_zero_picks_the_heaviest_and_zero_weights_never_play() {
        for r in [0, 1, u64::MAX / 2, u64::MAX] {
            assert_eq!(pick(&[3, 9, 9, 1], 0, r), Some(1));
            assert_ne!(pick(&[0, 5, 0], 100, r), Some(0));
            assert_eq!(pick(&[0, 5, 0], 100, r), Some(1));
        }
        assert_eq!(pick(&[0, 0], 50, 7), None);
        assert_eq!(pick(&[], 0, 7), None);
    }

    #[test]
    fn variety_spreads_the_choice_as_it_grows() {
        // The share of the light move (weight 1 against 3), over evenly spread draws.
        let share = |variety| {
            let n = 10_000u64;
            let light = (0..n)
                .filter(|i| pick(&[3, 1], variety, (i * (u64::MAX / n)) | 1) == Some(1))
                .count();
            light as f64 / n as f64
        };
        assert!((share(50) - 0.25).abs() < 0.01, "{}", share(50)); // as the weights say
        let flat = 1.0 / (1.0 + 3f64.sqrt()); // square roots at 100
        assert!((share(100) - flat).abs() < 0.01, "{}", share(100));
        assert!(share(1) < 0.001, "{}", share(1));
        assert!(share(25) < share(50) && share(50) < share(100));
    }
}
