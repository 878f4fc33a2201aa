//! marlinformat: one labelled position in 32 bytes, the packed board format
//! that trainers such as bullet read (`brokkr datagen --format marlin` writes
//! it, `brokkr train` reads it).
//!
//! All numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | occupancy, `u64`: bit `i` set when square `i` (a1 = 0) holds a piece |
//! | 8..24 | 32 four-bit piece codes, one per set occupancy bit from the lowest square up; the first in the low nibble of byte 8 |
//! | 24 | bit 7: side to move (1 = Black); bits 0..6: en-passant square, 64 = none |
//! | 25 | halfmove clock |
//! | 26..28 | fullmove number, `u16` |
//! | 28..30 | score in centipawns from White's side, `i16` |
//! | 30 | result from White's side: 0 Black won, 1 draw, 2 White won |
//! | 31 | unused by the format; brokkr sets bit 0 on the last position of a game |
//!
//! A piece code is its kind (0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5
//! king, 6 a rook that still has its castling right) plus 8 for Black. Castling
//! rights are only in the rooks' codes, so Chess960 rights survive too.
//!
//! Byte 31 is brokkr's own use of the unused byte: it keeps the games of a file
//! apart (a trainer must not hold out half a game for validation, and datagen
//! resumes after the last whole game). Other readers ignore it.

use crate::attacks::Slider;
use crate::board::Board;
use crate::types::{Color, Piece, PieceKind, Square};

/// Bytes in a record.
pub const SIZE: usize = 32;
/// [`Record::result`] when Black won.
pub const BLACK_WIN: u8 = 0;
/// [`Record::result`] for a draw.
pub const DRAW: u8 = 1;
/// [`Record::result`] when White won.
pub const WHITE_WIN: u8 = 2;
/// The code of a rook that still has its castling right.
const CASTLING_ROOK: u8 = 6;
/// Byte 24's value for "no en-passant square".
const NO_EP: u8 = 64;
/// The bit of byte 31 that marks the last position of a game.
const GAME_END: u8 = 1;

/// One position in marlinformat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record(pub [u8; SIZE]);

impl Record {
    /// The record of `board`, with the search's score from White's side (in
    /// centipawns, clamped to `i16`) and the game's result from White's side
    /// ([`BLACK_WIN`], [`DRAW`] or [`WHITE_WIN`]; larger values count as a
    /// White win).
    pub fn from_board<S: Slider>(board: &Board<S>, score_white: i32, result: u8) -> Record {
        let mut r = [0u8; SIZE];
        let occupied = board.occupied();
        r[0..8].copy_from_slice(&occupied.to_le_bytes());
        let castling_rooks: Vec<Square> = (0..4).filter_map(|i| board.castling_rook(i)).collect();
        let mut n = 0;
        let mut bits = occupied;
        while bits != 0 {
            let sq = Square::new(bits.trailing_zeros());
            bits &= bits - 1;
            let Some(piece) = board.piece_on(sq) else {
                continue;
            };
            let mut code = piece.kind().index() as u8;
            if piece.kind() == PieceKind::Rook && castling_rooks.contains(&sq) {
                code = CASTLING_ROOK;
            }
            if piece.color() == Color::Black {
                code |= 8;
            }
            r[8 + n / 2] |= code << (4 * (n % 2));
            n += 1;
        }
        let ep = board.ep_square().map_or(NO_EP, |s| s.index() as u8);
        r[24] = ep | (u8::from(board.side_to_move() == Color::Black) << 7);
        r[25] = board.halfmove_clock().min(255) as u8;
        r[26..28].copy_from_slice(&(board.fullmove_number().min(65535) as u16).to_le_bytes());
        let score = score_white.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        r[28..30].copy_from_slice(&score.to_le_bytes());
        r[30] = result.min(WHITE_WIN);
        Record(r)
    }

    /// The occupied squares.
    #[inline]
    pub fn occupancy(&self) -> u64 {
        u64::from_le_bytes(self.0[0..8].try_into().expect("8 bytes"))
    }

    /// The `n`th piece code (of the set occupancy bits, from the lowest square).
    #[inline]
    fn code(&self, n: usize) -> u8 {
        self.0[8 + n / 2] >> (4 * (n % 2)) & 15
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.0[24] & 0x80 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The score in centipawns, from White's side.
    #[inline]
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    /// The result from White's side: [`BLACK_WIN`], [`DRAW`] or [`WHITE_WIN`].
    #[inline]
    pub fn result(&self) -> u8 {
        self.0[30]
    }

    /// Set the result ([`BLACK_WIN`], [`DRAW`] or [`WHITE_WIN`]; larger values
    /// count as a White win).
    #[inline]
    pub fn set_result(&mut self, result: u8) {
        self.0[30] = result.min(WHITE_WIN);
    }

    /// Whether this is the last position of its game (brokkr's marker in the
    /// unused byte 31).
    #[inline]
    pub fn is_game_end(&self) -> bool {
        self.0[31] & GAME_END != 0
    }

    /// Mark (or unmark) this as the last position of its game.
    #[inline]
    pub fn set_game_end(&mut self, end: bool) {
        if end {
            self.0[31] |= GAME_END;
        } else {
            self.0[31] &= !GAME_END;
        }
    }

    /// The pieces on the board, from the lowest square up. Codes above 14 or
    /// 7 decode as `None` (see [`Record::check`]).
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Option<Piece>)> + '_ {
        let mut bits = self.occupancy();
        let mut n = 0;
        std::iter::from_fn(move || {
            if bits == 0 || n >= 32 {
                return None;
            }
            let sq = Square::new(bits.trailing_zeros());
            bits &= bits - 1;
            let code = self.code(n);
            n += 1;
            Some((sq, piece_of(code)))
        })
    }

    /// A quick check that the record describes a board a trainer can read:
    /// at most 32 pieces, every code a piece, one king a side, a valid
    /// en-passant byte and result. [`Record::to_board`] checks everything.
    pub fn check(&self) -> Result<(), String> {
        let count = self.occupancy().count_ones();
        if count > 32 {
            return Err(format!("{count} pieces: at most 32 fit in a record"));
        }
        let mut kings = [0; 2];
        for (i, (sq, piece)) in self.pieces().enumerate() {
            let piece = piece
                .ok_or_else(|| format!("piece code {} on {sq} is not a piece", self.code(i)))?;
            if piece.kind() == PieceKind::King {
                kings[piece.color().index()] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(format!(
                "{} white and {} black kings: need one each",
                kings[0], kings[1]
            ));
        }
        if self.0[24] & 0x7f > NO_EP {
            return Err(format!(
                "en-passant byte {}: a square is 0 to 63, none is 64",
                self.0[24] & 0x7f
            ));
        }
        if self.result() > WHITE_WIN {
            return Err(format!(
                "result {}: expected 0 (Black won), 1 (draw) or 2 (White won)",
                self.result()
            ));
        }
        Ok(())
    }

    /// The record as FEN, castling as Shredder-FEN file letters (`HAha`), which
    /// name each castling rook exactly.
    pub fn to_fen(&self) -> Result<String, String> {
        self.check()?;
        let mut board = [None; 64];
        let mut rights = [String::new(), String::new()];
        for (sq, piece) in self.pieces() {
            let piece = piece.expect("checked");
            board[sq.index()] = Some(piece);
        }
        for (i, (sq, _)) in self.pieces().enumerate() {
            let code = self.code(i);
            if code & 7 != CASTLING_ROOK {
                continue;
            }
            let color = if code & 8 != 0 {
                Color::Black
            } else {
                Color::White
            };
            let back = if color == Color::White { 0 } else { 7 };
            if sq.rank() != back {
                return Err(format!(
                    "a rook with a castling right on {sq}, off its first rank"
                ));
            }
            let file = (b'a' + sq.file()) as char;
            rights[color.index()].push(if color == Color::White {
                file.to_ascii_uppercase()
            } else {
                file
            });
        }
        let mut fen = crate::board::placement(|sq| board[sq]);
        fen.push_str(match self.side_to_move() {
            Color::White => " w ",
            Color::Black => " b ",
        });
        let castling = format!("{}{}", rights[0], rights[1]);
        fen.push_str(if castling.is_empty() { "-" } else { &castling });
        let ep = self.0[24] & 0x7f;
        if ep == NO_EP {
            fen.push_str(" -");
        } else {
            fen.push_str(&format!(" {}", Square::new(ep as u32)));
        }
        let fullmove = u16::from_le_bytes([self.0[26], self.0[27]]);
        fen.push_str(&format!(" {} {}", self.0[25], fullmove));
        Ok(fen)
    }

    /// The board the record describes; a record that is not a legal position
    /// (no king, a pawn on the last rank, a castling rook without its king, an
    /// impossible en-passant square, ...) is an error saying why.
    pub fn to_board<S: Slider>(&self) -> Result<Board<S>, String> {
        let fen = self.to_fen()?;
        Board::from_fen(&fen).map_err(|e| format!("{e} (as FEN: {fen})"))
    }
}

/// The piece of a code, if it is one.
#[inline]
fn piece_of(code: u8) -> Option<Piece> {
    let color = if code & 8 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let kind = match code & 7 {
        k @ 0..=5 => PieceKind::from_index(k as usize),
        CASTLING_ROOK => PieceKind::Rook,
        _ => return None,
    };
    Some(Piece::new(color, kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;
    use crate::bits::Portable;

    fn board(fen: &str) -> Board<Magic> {
        Board::from_fen(fen).unwrap()
    }

    /// The start position, written out by hand from the layout.
    fn startpos_bytes() -> [u8; 32] {
        let mut b = [0u8; 32];
        // Ranks 1, 2, 7 and 8.
        b[0..8].copy_from_slice(&0xffff_0000_0000_ffffu64.to_le_bytes());
        // a1..h1: R N B Q K B N R, the rooks with their castling rights (6);
        // two codes a byte, the first in the low nibble.
        b[8] = 0x16; // a1 rook (6), b1 knight (1)
        b[9] = 0x42; // c1 bishop (2), d1 queen (4)
        b[10] = 0x25; // e1 king (5), f1 bishop (2)
        b[11] = 0x61; // g1 knight (1), h1 rook (6)
        b[12..16].fill(0x00); // a2..h2 white pawns (0)
        b[16..20].fill(0x88); // a7..h7 black pawns (8)
        b[20] = 0x9e; // a8 rook (6+8), b8 knight (1+8)
        b[21] = 0xca; // c8 bishop, d8 queen
        b[22] = 0xad; // e8 king, f8 bishop
        b[23] = 0xe9; // g8 knight, h8 rook
        b[24] = 64; // White to move, no en passant
        b[25] = 0; // halfmove clock
        b[26] = 1; // fullmove 1
        b[27] = 0;
        b[28..30].copy_from_slice(&25i16.to_le_bytes());
        b[30] = 1; // a draw
        b[31] = 0;
        b
    }

    #[test]
    fn marlin_the_start_position_is_the_hand_made_record() {
        let start = Board::<Magic>::startpos();
        let r = Record::from_board(&start, 25, DRAW);
        assert_eq!(r.0, startpos_bytes());
        let back = Record(startpos_bytes()).to_board::<Magic>().unwrap();
        assert_eq!(back, start);
        assert_eq!((r.score(), r.result()), (25, DRAW));
        assert_eq!(r.side_to_move(), Color::White);
        assert!(!r.is_game_end());
    }

    #[test]
    fn marlin_en_passant_and_black_to_move() {
        // 1. e4 c5 2. e5 d5: White to move, and the e5 pawn may take on d6.
        let b = board("rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
        let r = Record::from_board(&b, -40, WHITE_WIN);
        assert_eq!(r.0[24], 43, "d6 = 43, White to move");
        assert_eq!(r.to_board::<Magic>().unwrap(), b);
        // Black to move after a white double step beside a black pawn (e4xd3).
        let b = board("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3");
        let r = Record::from_board(&b, 17, BLACK_WIN);
        assert_eq!(r.0[24], 0x80 | 19, "Black to move, ep d3 = 19");
        assert_eq!(r.0[25], 0);
        assert_eq!(u16::from_le_bytes([r.0[26], r.0[27]]), 3);
        assert_eq!((r.score(), r.result()), (17, BLACK_WIN));
        assert_eq!(r.side_to_move(), Color::Black);
        let back = r.to_board::<Magic>().unwrap();
        assert_eq!(back, b);
        assert_eq!(back.ep_square(), Square::parse("d3"));
        // Only some rights left, and counters.
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 7 40");
        let r = Record::from_board(&b, 0, DRAW);
        let codes: Vec<u8> = (0..6).map(|i| r.code(i)).collect();
        assert_eq!(
            codes,
            [3, 5, 6, 6 | 8, 5 | 8, 3 | 8],
            "a1 lost its right, h8 too"
        );
        assert_eq!(r.to_board::<Magic>().unwrap(), b);
    }

    #[test]
    fn marlin_chess960_rights_survive() {
        let b = board("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
        let r = Record::from_board(&b, 5, DRAW);
        let back = r.to_board::<Magic>().unwrap();
        assert_eq!(back, b);
        assert_eq!(back.castling_rook(0), Square::parse("g1"));
        assert_eq!(back.castling_rook(3), Square::parse("b8"));
    }

    #[test]
    fn marlin_random_games_round_trip() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut positions = 0;
        for game in 0..40 {
            let mut b = Board::<Magic>::startpos();
            for ply in 0..160 {
                let score = (next() % 4001) as i32 - 2000;
                let result = (next() % 3) as u8;
                let mut r = Record::from_board(&b, score, result);
                r.set_game_end(ply % 7 == 0);
                let back = r
                    .to_board::<Magic>()
                    .unwrap_or_else(|e| panic!("game {game} ply {ply}: {e} from {}", b.to_fen()));
                assert_eq!(back, b, "{}", b.to_fen());
                assert_eq!(back.to_fen(), b.to_fen());
                assert_eq!((r.score() as i32, r.result()), (score, result));
                assert_eq!(r.is_game_end(), ply % 7 == 0);
                assert_eq!(r.pieces().count(), b.occupied().count_ones() as usize);
                positions += 1;
                let moves = b.legal_moves::<Portable>();
                if moves.is_empty() || b.halfmove_clock() >= 100 {
                    break;
                }
                let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
                b.make::<Portable>(m);
            }
        }
        assert!(positions > 1000, "{positions}");
    }

    #[test]
    fn marlin_bad_records_are_errors() {
        let good = Record(startpos_bytes());
        let err = |f: &dyn Fn(&mut [u8; 32])| {
            let mut r = good;
            f(&mut r.0);
            r.to_board::<Magic>().unwrap_err()
        };
        // A code 7 (no such piece).
        assert!(err(&|b| b[8] = 0x17).contains("not a piece"), "code 7");
        // No white king: e1 holds a queen.
        assert!(err(&|b| b[10] = 0x24).contains("kings"));
        // An en-passant byte beyond 64.
        assert!(err(&|b| b[24] = 65).contains("en-passant"));
        // A result of 3.
        assert!(err(&|b| b[30] = 3).contains("result"));
        // A castling rook off its first rank: the a2 pawn becomes one.
        assert!(err(&|b| b[12] = 0x06).contains("first rank"));
        // An impossible en-passant square (e3 with White to move).
        assert!(!err(&|b| b[24] = 20).is_empty());
        // A pawn on the first rank: b1 knight becomes a pawn.
        assert!(!err(&|b| b[8] = 0x06).is_empty());
        // Every byte pattern decodes to a board or an error, never a panic.
        let mut x = 12345u64;
        for _ in 0..20_000 {
            let mut r = [0u8; 32];
            for c in r.chunks_mut(8) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                c.copy_from_slice(&x.to_le_bytes());
            }
            let _ = Record(r).to_board::<Magic>();
            // A few sparse ones: occupancy of 2 to 4 pieces.
            r[0..8].copy_from_slice(&(x & x.rotate_left(17) & x.rotate_left(31)).to_le_bytes());
            let _ = Record(r).to_board::<Magic>();
        }
    }
}
