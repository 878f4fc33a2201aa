//! FEN and EPD: parsing with specific errors, and output that round-trips.
//!
//! Accepts standard FEN, 4-field EPD positions, X-FEN (`KQkq` naming the outermost
//! rook) and Shredder-FEN (`HAha`, rook files) castling, extra spaces, and missing
//! move counters.

use super::*;
use crate::bits::Portable;
use std::fmt;

/// The largest halfmove clock a FEN may give. The 75-move rule ends a game
/// after 150 plies without capture or pawn move, so no game reaches more; a
/// larger clock is refused rather than carried into the 50-move logic.
pub const MAX_HALFMOVE: u16 = 150;

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than the 4 required fields.
    MissingFields(usize),
    /// More than 6 fields.
    TooManyFields(usize),
    /// The placement does not have 8 ranks.
    RankCount(usize),
    /// A rank (1-8) does not describe exactly 8 squares.
    RankLength { rank: u8, squares: usize },
    /// A rank (1-8) has a digit 9: more than 8 squares.
    RankTooLong { rank: u8 },
    /// A character that is neither a piece letter nor a digit 1-8.
    BadPiece(char),
    /// A digit that cannot count empty squares (0).
    BadDigit(char),
    /// A colour has more pieces than a game can produce.
    TooManyPieces {
        color: Color,
        what: &'static str,
        count: u32,
        max: u32,
    },
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// A colour has no king.
    MissingKing(Color),
    /// A colour has more than one king.
    TooManyKings(Color),
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// The side not to move is in check.
    OpponentInCheck,
    /// The castling field has a bad character or repeats a right.
    BadCastling(String),
    /// A castling right whose king or rook is not where it must be.
    CastlingPieces { right: char, reason: &'static str },
    /// The en-passant field is not a square or `-`.
    BadEnPassantSyntax(String),
    /// An en-passant square that no pawn double move could have produced.
    ImpossibleEnPassant {
        square: Square,
        reason: &'static str,
    },
    /// A move counter that is not a number.
    BadCounter { field: &'static str, value: String },
    /// A halfmove clock above [`MAX_HALFMOVE`].
    HalfmoveTooLarge(u64),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        let side = |c: &Color| if *c == Color::White { "white" } else { "black" };
        match self {
            MissingFields(n) => write!(
                f,
                "FEN has {n} field(s); need at least placement, side, castling and en passant"
            ),
            TooManyFields(n) => write!(f, "FEN has {n} fields; at most 6 are allowed"),
            RankCount(n) => write!(f, "FEN placement has {n} rank(s), expected 8"),
            RankLength { rank, squares } => {
                write!(f, "FEN rank {rank} describes {squares} squares, expected 8")
            }
            RankTooLong { rank } => write!(
                f,
                "FEN rank {rank} has more than 8 squares (a digit counts 1 to 8 empty squares)"
            ),
            BadPiece('\u{feff}') => write!(
                f,
                "FEN contains a byte-order mark (U+FEFF) inside the placement"
            ),
            BadPiece(c) if c.is_control() || c.is_whitespace() => {
                write!(f, "bad character U+{:04X} in FEN placement", *c as u32)
            }
            BadPiece(c) => write!(f, "bad piece letter '{c}' in FEN placement"),
            BadDigit(c) => write!(
                f,
                "bad digit '{c}' in FEN placement (empty squares are counted 1 to 8)"
            ),
            TooManyPieces {
                color,
                what,
                count,
                max,
            } => write!(
                f,
                "{} has {count} {what}; a game allows at most {max}",
                side(color)
            ),
            BadSide(s) => write!(f, "bad side to move '{s}' (expected 'w' or 'b')"),
            MissingKing(c) => write!(f, "{} has no king", side(c)),
            TooManyKings(c) => write!(f, "{} has more than one king", side(c)),
            PawnOnBackRank(sq) => write!(
                f,
                "pawn on {sq}: pawns cannot stand on the first or last rank"
            ),
            OpponentInCheck => write!(f, "the side not to move is in check"),
            BadCastling(s) => write!(f, "bad castling field '{s}'"),
            CastlingPieces { right, reason } => write!(f, "castling right '{right}': {reason}"),
            BadEnPassantSyntax(s) => {
                write!(f, "bad en-passant field '{s}' (expected a square or '-')")
            }
            ImpossibleEnPassant { square, reason } => {
                write!(f, "impossible en-passant square {square}: {reason}")
            }
            BadCounter { field, value } => write!(f, "bad {field} '{value}': not a number"),
            HalfmoveTooLarge(n) => write!(
                f,
                "halfmove clock {n} is too large: at most {MAX_HALFMOVE} (the 75-move rule \
                 ends a game there)"
            ),
        }
    }
}

impl std::error::Error for FenError {}

/// How strictly [`Board`]'s FEN parser treats castling rights and en-passant
/// squares the position cannot have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strictness {
    /// Refuse the FEN.
    Refuse,
    /// Drop the right or the square, with a note (as Stockfish drops them,
    /// silently): what a GUI's board editor sends is played.
    Drop,
}

impl<S: Slider> Board<S> {
    /// Parse a FEN (or the 4 position fields of an EPD line). A castling right
    /// whose king or rook is not in place, or an en-passant square no double
    /// pawn move can have made, is an error: see [`Board::from_fen_lenient`]
    /// for the form GUIs need.
    pub fn from_fen(fen: &str) -> Result<Board<S>, FenError> {
        Board::parse_fen(fen, Strictness::Refuse, &mut Vec::new())
    }

    /// Parse a FEN as a GUI sends it: a castling right whose king or rook is
    /// not in place, and an en-passant square that no pawn can capture on (or
    /// that no double move can have made), are dropped, each with a note in
    /// the returned list saying so. The rest is checked as [`Board::from_fen`]
    /// does.
    pub fn from_fen_lenient(fen: &str) -> Result<(Board<S>, Vec<String>), FenError> {
        let mut notes = Vec::new();
        let b = Board::parse_fen(fen, Strictness::Drop, &mut notes)?;
        Ok((b, notes))
    }

    fn parse_fen(
        fen: &str,
        strictness: Strictness,
        notes: &mut Vec<String>,
    ) -> Result<Board<S>, FenError> {
        // A UTF-8 byte-order mark (from a file saved by some editors) is invisible
        // and means nothing: skip it.
        let fen = fen.trim_start_matches('\u{feff}');
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(FenError::MissingFields(fields.len()));
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut b = Board::<S>::empty();
        parse_placement(&mut b, fields[0])?;
        b.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::BadSide(s.to_string())),
        };
        check_material(&b)?;
        parse_castling(&mut b, fields[2], strictness, notes)?;
        let counter = |i: usize, field: &'static str, default: u64| -> Result<u64, FenError> {
            fields
                .get(i)
                .map_or(Ok(default), |v| parse_counter(v, field))
        };
        let halfmove = counter(4, "halfmove clock", 0)?;
        if halfmove > MAX_HALFMOVE as u64 {
            return Err(FenError::HalfmoveTooLarge(halfmove));
        }
        b.halfmove = halfmove as u16;
        // The full-move number only labels moves: cap it rather than refuse.
        b.fullmove = counter(5, "fullmove number", 1)?.clamp(1, u16::MAX as u64) as u16;
        if b.is_attacked(b.king_square(b.side.flip()), b.side) {
            return Err(FenError::OpponentInCheck);
        }
        b.update_check_state::<Portable>();
        parse_ep(&mut b, fields[3], strictness, notes)?;
        (b.key, b.pawn_key) = b.recompute_keys();
        Ok(b)
    }

    /// The position as FEN. Castling uses `KQkq` where that names the rook
    /// unambiguously (the outermost one) and Shredder file letters otherwise.
    pub fn to_fen(&self) -> String {
        let mut s = placement(|sq| self.piece_on(Square::new(sq as u32)));
        s.push(' ');
        s.push(self.side.fen_char());
        s.push(' ');
        s.push_str(&self.castling_field());
        s.push(' ');
        match self.ep_square() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    fn castling_field(&self) -> String {
        let mut s = String::new();
        for (i, (color, king_side)) in [
            (Color::White, true),
            (Color::White, false),
            (Color::Black, true),
            (Color::Black, false),
        ]
        .into_iter()
        .enumerate()
        {
            let Some(rook) = self.castling_rook(i) else {
                continue;
            };
            let outermost = outermost_rook(self, color, king_side) == Some(rook);
            let c = if outermost && !self.chess960 {
                if king_side {
                    'k'
                } else {
                    'q'
                }
            } else {
                (b'a' + rook.file()) as char
            };
            s.push(if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// A board with no pieces (not a legal position; filled in by the parser).
    fn empty() -> Board<S> {
        Board {
            pieces: [0; 6],
            colors: [0; 2],
            mailbox: [NO_PIECE; 64],
            key: 0,
            pawn_key: 0,
            checkers: 0,
            blockers: 0,
            side: Color::White,
            castling: 0,
            castle_rooks: [0; 4],
            castle_empty: [0; 4],
            castle_path: [0; 4],
            castle_squares: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            chess960: false,
            slider: S::state_from(0),
        }
    }
}

fn parse_placement<S: Slider>(b: &mut Board<S>, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                match d {
                    0 => return Err(FenError::BadDigit(c)),
                    9 => return Err(FenError::RankTooLong { rank: rank + 1 }),
                    _ => file += d as usize,
                }
            } else {
                let p = Piece::from_fen_char(c).ok_or(FenError::BadPiece(c))?;
                if file < 8 {
                    b.put::<true, true>(p.color().index(), p.index(), rank as usize * 8 + file);
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(())
}

fn check_material<S: Slider>(b: &Board<S>) -> Result<(), FenError> {
    for c in Color::BOTH {
        match b.pieces(c, PieceKind::King).count_ones() {
            0 => return Err(FenError::MissingKing(c)),
            1 => {}
            _ => return Err(FenError::TooManyKings(c)),
        }
    }
    let back = RANK_MASKS[0] | RANK_MASKS[7];
    let pawns = b.pieces[PAWN] & back;
    if pawns != 0 {
        return Err(FenError::PawnOnBackRank(Square::new(
            pawns.trailing_zeros(),
        )));
    }
    for color in Color::BOTH {
        check_counts(b, color)?;
    }
    Ok(())
}

/// Refuse material no game can reach: more than 16 pieces or 8 pawns a side.
/// Any number of promoted pieces is taken, as a GUI's board editor sets them
/// up (python-chess's `Board.is_valid` takes them too); 16 pieces bound the
/// moves of a position below [`MAX_MOVES`].
fn check_counts<S: Slider>(b: &Board<S>, color: Color) -> Result<(), FenError> {
    let count = |kind: PieceKind| b.pieces(color, kind).count_ones();
    let too_many = |what, count, max| {
        Err(FenError::TooManyPieces {
            color,
            what,
            count,
            max,
        })
    };
    let all = b.color_bb(color).count_ones();
    if all > 16 {
        return too_many("pieces", all, 16);
    }
    let pawns = count(PieceKind::Pawn);
    if pawns > 8 {
        return too_many("pawns", pawns, 8);
    }
    Ok(())
}

/// A move counter: digits only. Values too large for any type saturate (the
/// caller refuses or caps them).
fn parse_counter(v: &str, field: &'static str) -> Result<u64, FenError> {
    if v.is_empty() || !v.bytes().all(|c| c.is_ascii_digit()) {
        return Err(FenError::BadCounter {
            field,
            value: v.chars().take(20).collect(),
        });
    }
    Ok(v.parse::<u64>().unwrap_or(u64::MAX))
}

/// The outermost rook of `color` on its back rank on the given side of the king.
fn outermost_rook<S: Slider>(b: &Board<S>, color: Color, king_side: bool) -> Option<Square> {
    let ksq = b.ksq::<Portable>(color.index());
    let back = RANK_MASKS[if color == Color::White { 0 } else { 7 }];
    let side_mask = if king_side {
        RAYS[2][ksq]
    } else {
        RAYS[6][ksq]
    };
    let rooks = b.pieces(color, PieceKind::Rook) & back & side_mask;
    if rooks == 0 {
        None
    } else if king_side {
        Some(Square::new(63 - rooks.leading_zeros()))
    } else {
        Some(Square::new(rooks.trailing_zeros()))
    }
}

fn parse_castling<S: Slider>(
    b: &mut Board<S>,
    field: &str,
    strictness: Strictness,
    notes: &mut Vec<String>,
) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let bad = || FenError::BadCastling(field.to_string());
    // The field's syntax is checked whole first: a bad letter is never dropped.
    if !field
        .chars()
        .all(|c| matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h'))
    {
        return Err(bad());
    }
    for c in field.chars() {
        match castling_right(b, c) {
            Ok(Some((idx, ksq, rook, king_side))) => {
                if b.castling >> idx & 1 != 0 {
                    return Err(bad());
                }
                add_castling(b, idx, ksq, rook, king_side);
            }
            Ok(None) => return Err(bad()),
            Err(e) if strictness == Strictness::Drop => {
                notes.push(format!("{e}: dropped"));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The castling right of letter `c`: (its index, the king's square, the rook,
/// whether it is on the king's side); `None` for a letter that names no right;
/// an error when the king or the rook is not where the right needs it.
#[allow(clippy::type_complexity)]
fn castling_right<S: Slider>(
    b: &Board<S>,
    c: char,
) -> Result<Option<(usize, usize, Square, bool)>, FenError> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let back_rank = if color == Color::White { 0 } else { 7 };
    let ksq = b.ksq::<Portable>(color.index());
    if ksq / 8 != back_rank {
        return Err(FenError::CastlingPieces {
            right: c,
            reason: "the king is not on its first rank",
        });
    }
    let (king_side, rook) = match c.to_ascii_lowercase() {
        'k' | 'q' => {
            let king_side = c.eq_ignore_ascii_case(&'k');
            let rook = outermost_rook(b, color, king_side).ok_or(FenError::CastlingPieces {
                right: c,
                reason: "no rook on that side of the king",
            })?;
            (king_side, rook)
        }
        f @ 'a'..='h' => {
            let sq = Square::from_coords(f as u8 - b'a', back_rank as u8);
            if b.pieces(color, PieceKind::Rook) & sq.bb() == 0 {
                return Err(FenError::CastlingPieces {
                    right: c,
                    reason: "no rook of that colour on that file",
                });
            }
            (sq.index() > ksq, sq)
        }
        _ => return Ok(None),
    };
    let idx = castling::index(color.index(), king_side);
    Ok(Some((idx, ksq, rook, king_side)))
}

/// Give the board castling right `idx` of the king on `ksq` with `rook`.
fn add_castling<S: Slider>(
    b: &mut Board<S>,
    idx: usize,
    ksq: usize,
    rook: Square,
    king_side: bool,
) {
    b.castling |= 1 << idx;
    b.castle_rooks[idx] = rook.index() as u8;
    b.castle_empty[idx] = movegen::castling_empty(ksq, rook.index());
    b.castle_path[idx] = movegen::castling_path(ksq, rook.index());
    b.castle_squares |= (1 << ksq) | rook.bb();
    let standard_rook = if king_side { 7 } else { 0 };
    if ksq % 8 != 4 || rook.file() != standard_rook {
        b.chess960 = true;
    }
}

fn parse_ep<S: Slider>(
    b: &mut Board<S>,
    field: &str,
    strictness: Strictness,
    notes: &mut Vec<String>,
) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let sq = Square::parse(field).ok_or_else(|| FenError::BadEnPassantSyntax(field.to_string()))?;
    match possible_ep(b, sq) {
        Err(e) if strictness == Strictness::Drop => {
            notes.push(format!("{e}: dropped"));
            return Ok(());
        }
        r => r?,
    }
    // Keep the square only when a pawn stands ready to capture there, and key
    // it (recompute_keys) only when that capture is legal, as make does.
    let us = b.side;
    if PAWN_ATTACKS[us.flip().index()][sq.index()] & b.pieces(us, PieceKind::Pawn) != 0 {
        b.ep = if b.ep_capture_exists::<Portable>(sq.index()) {
            sq.index() as u8
        } else {
            sq.index() as u8 | EP_UNUSABLE
        };
    } else if strictness == Strictness::Drop {
        notes.push(format!(
            "en-passant square {sq}: no pawn can capture there: dropped"
        ));
    }
    Ok(())
}

/// Whether a double pawn move of the side that just moved can have passed `sq`.
fn possible_ep<S: Slider>(b: &Board<S>, sq: Square) -> Result<(), FenError> {
    let us = b.side;
    let them = us.flip();
    let (ep_rank, forward): (u8, i32) = if us == Color::White { (5, 8) } else { (2, -8) };
    let impossible = |reason| FenError::ImpossibleEnPassant { square: sq, reason };
    if sq.rank() != ep_rank {
        return Err(impossible(
            "not on the rank a double pawn move passes for the side that just moved",
        ));
    }
    let pawn_sq = (sq.index() as i32 - forward) as usize;
    let origin = (sq.index() as i32 + forward) as usize;
    if b.occupied() & sq.bb() != 0 || b.occupied() & (1 << origin) != 0 {
        return Err(impossible("the pawn's path is not empty"));
    }
    if b.pieces(them, PieceKind::Pawn) & (1 << pawn_sq) == 0 {
        return Err(impossible("no pawn that could just have moved two squares"));
    }
    Ok(())
}

/// FEN's piece placement field (ranks 8 to 1, `/` between them, digits for
/// empty squares) of the board whose square `sq` (a1 = 0) holds `piece_at(sq)`.
pub fn placement(piece_at: impl Fn(usize) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match piece_at(rank * 8 + file) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}
