//! Move notation: UCI (`e2e4`, `e7e8q`, castling as `e1g1` or, in Chess960,
//! king-takes-rook `e1h1`) and SAN (`Nf3`, `exd6`, `O-O`, `e8=Q+`).

use super::Board;
use crate::attacks::Slider;
use crate::bits::Portable;
use crate::types::*;
use std::fmt;

/// Why a move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in the expected notation.
    Syntax(String),
    /// Well-formed but not legal in the position.
    Illegal(String),
    /// A SAN move that fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a move"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
            MoveError::Ambiguous(s) => write!(f, "ambiguous move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

impl<S: Slider> Board<S> {
    /// The square the king lands on when castling with `m`.
    fn castling_king_target(m: Move) -> Square {
        let back = m.from().rank();
        Square::from_coords(if m.to() > m.from() { 6 } else { 2 }, back)
    }

    /// The move in UCI notation. Castling is `e1g1` in standard chess and
    /// king-takes-rook (`e1h1`) in Chess960 mode.
    pub fn to_uci(&self, m: Move) -> String {
        if m.is_null() {
            return "0000".to_string();
        }
        let to = if m.kind() == MoveKind::Castling && !self.chess960 {
            Self::castling_king_target(m)
        } else {
            m.to()
        };
        let mut s = format!("{}{}", m.from(), to);
        if let Some(k) = m.promotion_kind() {
            s.push(k.letter());
        }
        s
    }

    /// Parse a UCI move and check it is legal. Castling is accepted both as the
    /// king's two-square move and as king-takes-rook.
    pub fn parse_uci(&self, s: &str) -> Result<Move, MoveError> {
        let b = s.as_bytes();
        let well_formed = (b.len() == 4 || b.len() == 5)
            && Square::parse(s.get(..2).unwrap_or("")).is_some()
            && Square::parse(s.get(2..4).unwrap_or("")).is_some()
            && (b.len() == 4
                || matches!(b[4], b'n' | b'b' | b'r' | b'q' | b'N' | b'B' | b'R' | b'Q'));
        if !well_formed {
            return Err(MoveError::Syntax(s.to_string()));
        }
        let lower = s.to_ascii_lowercase();
        for m in self.legal_moves::<Portable>().iter() {
            let king_takes_rook = format!("{}{}", m.from(), m.to());
            let standard = if m.kind() == MoveKind::Castling {
                format!("{}{}", m.from(), Self::castling_king_target(m))
            } else {
                String::new()
            };
            let mut plain = king_takes_rook.clone();
            if let Some(k) = m.promotion_kind() {
                plain.push(k.letter());
            }
            if lower == plain || (m.kind() == MoveKind::Castling && lower == standard) {
                return Ok(m);
            }
        }
        Err(MoveError::Illegal(s.to_string()))
    }

    /// The move in SAN, with `+` or `#`.
    pub fn to_san(&self, m: Move) -> String {
        let mut s = String::new();
        if m.kind() == MoveKind::Castling {
            s.push_str(if m.to() > m.from() { "O-O" } else { "O-O-O" });
        } else {
            let piece = self
                .piece_on(m.from())
                .map_or(PieceKind::Pawn, |p| p.kind());
            let capture = self.piece_on(m.to()).is_some() || m.kind() == MoveKind::EnPassant;
            if piece == PieceKind::Pawn {
                if capture {
                    s.push((b'a' + m.from().file()) as char);
                }
            } else {
                s.push(piece.letter().to_ascii_uppercase());
                s.push_str(&self.disambiguation(m, piece));
            }
            if capture {
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            if let Some(k) = m.promotion_kind() {
                s.push('=');
                s.push(k.letter().to_ascii_uppercase());
            }
        }
        let after = self.with_move::<Portable>(m);
        if after.in_check() {
            s.push(if after.count_moves::<Portable>() == 0 {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    /// The file, rank or square that tells `m` apart from other moves of the same
    /// kind of piece to the same square.
    fn disambiguation(&self, m: Move, piece: PieceKind) -> String {
        let others: Vec<Move> = self
            .legal_moves::<Portable>()
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && o.kind() != MoveKind::Castling
                    && self.piece_on(o.from()).map(|p| p.kind()) == Some(piece)
            })
            .collect();
        if others.is_empty() {
            String::new()
        } else if others.iter().all(|o| o.from().file() != m.from().file()) {
            ((b'a' + m.from().file()) as char).to_string()
        } else if others.iter().all(|o| o.from().rank() != m.from().rank()) {
            ((b'1' + m.from().rank()) as char).to_string()
        } else {
            m.from().to_string()
        }
    }

    /// Parse a SAN move (also accepts `0-0`, missing or extra `+`/`#`, `x`, `=`,
    /// and annotations like `!?`) and check it is legal.
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(san.to_string());
        let s = san.trim_end_matches(['+', '#', '!', '?']);
        let legal = self.legal_moves::<Portable>();
        if matches!(s, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let king_side = s.len() == 3;
            return legal
                .iter()
                .find(|m| m.kind() == MoveKind::Castling && (m.to() > m.from()) == king_side)
                .ok_or_else(|| MoveError::Illegal(san.to_string()));
        }
        let mut chars: Vec<char> = s.chars().filter(|&c| c != 'x' && c != '-').collect();
        // Promotion suffix: "=Q" or a bare trailing piece letter.
        let mut promotion = None;
        if let Some(&last) = chars.last() {
            if "NBRQnbrq".contains(last) && chars.len() >= 3 {
                promotion = PieceKind::from_letter(last);
                chars.pop();
                if chars.last() == Some(&'=') {
                    chars.pop();
                }
            }
        }
        let piece = match chars.first() {
            Some(&c) if "NBRQK".contains(c) => {
                chars.remove(0);
                PieceKind::from_letter(c).ok_or_else(syntax)?
            }
            Some(_) => PieceKind::Pawn,
            None => return Err(syntax()),
        };
        if chars.len() < 2 {
            return Err(syntax());
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = Square::parse(&dest).ok_or_else(syntax)?;
        let mut from_file = None;
        let mut from_rank = None;
        for &c in &chars[..chars.len() - 2] {
            match c {
                'a'..='h' => from_file = Some(c as u8 - b'a'),
                '1'..='8' => from_rank = Some(c as u8 - b'1'),
                _ => return Err(syntax()),
            }
        }
        let matches: Vec<Move> = legal
            .iter()
            .filter(|m| {
                m.kind() != MoveKind::Castling
                    && m.to() == to
                    && self.piece_on(m.from()).map(|p| p.kind()) == Some(piece)
                    && m.promotion_kind() == promotion
                    && from_file.is_none_or(|f| m.from().file() == f)
                    && from_rank.is_none_or(|r| m.from().rank() == r)
            })
            .collect();
        match matches.len() {
            1 => Ok(matches[0]),
            0 => Err(MoveError::Illegal(san.to_string())),
            _ => Err(MoveError::Ambiguous(san.to_string())),
        }
    }
}
