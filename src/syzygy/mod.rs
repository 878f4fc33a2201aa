//! Syzygy endgame tablebases: a prober for the format of Ronald de Man's
//! generator and probing code (the tables every modern engine reads).
//!
//! May not touch: the search and above (the layers: docs/architecture.md).
//!
//! Two kinds of file per material signature: WDL (`.rtbw`) gives win, draw or
//! loss under the fifty-move rule, with "cursed" wins and "blessed" losses that
//! the rule turns into draws; DTZ (`.rtbz`) gives the distance in plies to the
//! next zeroing move (capture or pawn move) on a winning or losing path.
//!
//! The tables store positions without castling rights and, to be compact,
//! leave out what a one-ply search can tell: the value of a position where a
//! capture is best, and (in DTZ files) usually one side to move. So a probe
//! searches the captures (and en passant) first, as the reference prober does,
//! and DTZ probes may search one ply of quiet moves. Results agree with
//! python-chess's `chess.syzygy` on every position tested (`tests/syzygy.rs`).
//!
//! Files are found when a directory is added ([`Tablebase::add_directory`]),
//! checked for their size and magic number then, and parsed on the first probe
//! that needs them (a `OnceLock` per file); values are read with positioned
//! reads, so a [`Tablebase`] is shared between search threads as it is. The
//! index scheme's constant tables are `const` items (`consts.rs`).
//!
//! A missing table, a file that is not a table or a corrupt one is an error
//! value ([`TbError`]); probing never panics on a bad file.

mod consts;
mod source;
mod table;

pub use consts::MAX_PIECES;

use crate::attacks::Slider;
use crate::bits::Portable;
use crate::board::Board;
use crate::types::{Color, Move, MoveKind, PieceKind};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use table::{mirror_key, name_key, Kind, MaterialKey, Pos, Table};

/// The separator of directories in `SyzygyPath`: `;` on Windows, `:` elsewhere.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// A tablebase result for the side to move, under the fifty-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss = -2,
    /// Lost without the fifty-move rule, drawn with it.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won without the fifty-move rule, drawn with it.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Wdl {
    /// The result as -2..=2.
    pub const fn value(self) -> i32 {
        self as i32
    }

    /// The result of -2..=2 (clamped).
    pub const fn from_value(v: i32) -> Wdl {
        match v {
            i32::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }

    /// The result for the other side.
    pub const fn flip(self) -> Wdl {
        Wdl::from_value(-self.value())
    }
}

/// Why a probe has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// No table for this material (or one it converts to) was found.
    Missing(String),
    /// The position has castling rights or too many pieces.
    Unsupported(String),
    /// A file could not be read.
    Io(String),
    /// A file is not a valid table.
    Corrupt(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Missing(s) => write!(f, "no table {s}"),
            TbError::Unsupported(s) => write!(f, "not in the tables: {s}"),
            TbError::Io(s) => write!(f, "cannot read {s}"),
            TbError::Corrupt(s) => write!(f, "corrupt table: {s}"),
        }
    }
}

impl std::error::Error for TbError {}

/// One table file, parsed on first use.
#[derive(Debug)]
struct Entry {
    path: PathBuf,
    key: MaterialKey,
    table: OnceLock<Result<Table, TbError>>,
}

/// A set of Syzygy table files.
#[derive(Debug, Default)]
pub struct Tablebase {
    entries: Vec<Entry>,
    /// Material (both colourings) to entry, for each kind.
    wdl: HashMap<MaterialKey, usize>,
    dtz: HashMap<MaterialKey, usize>,
    max_pieces: usize,
}

/// What adding a directory found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AddReport {
    /// WDL files accepted.
    pub wdl_files: usize,
    /// DTZ files accepted.
    pub dtz_files: usize,
    /// Files passed over (not a table, wrong size or magic), with the reason.
    pub rejected: Vec<String>,
}

impl Tablebase {
    /// An empty set (every probe fails with [`TbError::Missing`]).
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// The tables in the directories of `paths`, separated by
    /// [`PATH_SEPARATOR`]; empty or `<empty>` means none. Returns the set and
    /// one message per problem (a missing directory, a bad file), for the
    /// caller to show; the good tables are used either way.
    pub fn open(paths: &str) -> (Tablebase, Vec<String>) {
        let mut tb = Tablebase::new();
        let mut notes = Vec::new();
        let paths = paths.trim();
        if paths.is_empty() || paths == "<empty>" {
            return (tb, notes);
        }
        for dir in paths.split(PATH_SEPARATOR).filter(|d| !d.trim().is_empty()) {
            match tb.add_directory(Path::new(dir.trim())) {
                Ok(r) => notes.extend(r.rejected),
                Err(e) => notes.push(e.to_string()),
            }
        }
        (tb, notes)
    }

    /// Add the `.rtbw` and `.rtbz` files of `dir`. Each file's size and magic
    /// number are checked now (a bad one is listed in the report and left out);
    /// the rest of it is read on the first probe that needs it.
    pub fn add_directory(&mut self, dir: &Path) -> Result<AddReport, TbError> {
        // A folder that is not there is the common case (a GUI's default path
        // on a machine without tables): say so in words, not as an OS error.
        let list = std::fs::read_dir(dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                TbError::Io(format!("{}: the folder does not exist", dir.display()))
            }
            std::io::ErrorKind::NotADirectory => {
                TbError::Io(format!("{}: a file, not a folder", dir.display()))
            }
            _ => TbError::Io(format!("{}: {e}", dir.display())),
        })?;
        let mut names: Vec<PathBuf> = list.filter_map(|e| e.ok().map(|e| e.path())).collect();
        names.sort();
        let mut report = AddReport::default();
        for path in names {
            let (Some(stem), Some(ext)) = (
                path.file_stem().and_then(|s| s.to_str()),
                path.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let kind = match ext {
                "rtbw" => Kind::Wdl,
                "rtbz" => Kind::Dtz,
                _ => continue,
            };
            let Some(key) = name_key(stem) else {
                continue;
            };
            if let Err(e) = check_file(&path, kind) {
                report.rejected.push(e.to_string());
                continue;
            }
            let index = self.entries.len();
            self.entries.push(Entry {
                path,
                key,
                table: OnceLock::new(),
            });
            let map = match kind {
                Kind::Wdl => {
                    report.wdl_files += 1;
                    let pieces = (0..12).map(|i| ((key >> (4 * i)) & 15) as usize).sum();
                    self.max_pieces = self.max_pieces.max(pieces);
                    &mut self.wdl
                }
                Kind::Dtz => {
                    report.dtz_files += 1;
                    &mut self.dtz
                }
            };
            map.insert(key, index);
            map.insert(mirror_key(key), index);
        }
        Ok(report)
    }

    /// The most pieces of any WDL table found (0 without tables).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Whether no WDL table was found.
    pub fn is_empty(&self) -> bool {
        self.wdl.is_empty()
    }

    /// The number of WDL and DTZ files found.
    pub fn file_counts(&self) -> (usize, usize) {
        let wdl = self
            .wdl
            .values()
            .collect::<std::collections::HashSet<_>>()
            .len();
        let dtz = self
            .dtz
            .values()
            .collect::<std::collections::HashSet<_>>()
            .len();
        (wdl, dtz)
    }

    /// The table of `kind` for `pos`'s material, parsed on first use.
    fn table(&self, kind: Kind, pos: &Pos) -> Result<&Table, TbError> {
        let key = pos.key();
        let map = match kind {
            Kind::Wdl => &self.wdl,
            Kind::Dtz => &self.dtz,
        };
        let Some(&i) = map.get(&key) else {
            return Err(TbError::Missing(material_name(key)));
        };
        let e = &self.entries[i];
        e.table
            .get_or_init(|| Table::open(&e.path, kind, e.key))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The WDL value of `b` under the fifty-move rule, assuming its halfmove
    /// clock is 0; `None` if the tables do not answer (see [`Self::try_probe_wdl`]).
    pub fn probe_wdl<S: Slider>(&self, b: &Board<S>) -> Option<Wdl> {
        self.try_probe_wdl(b).ok()
    }

    /// The WDL value of `b` (en passant resolved as the reference prober does),
    /// or why there is none.
    pub fn try_probe_wdl<S: Slider>(&self, b: &Board<S>) -> Result<Wdl, TbError> {
        self.wdl_value(b).map(Wdl::from_value)
    }

    /// The DTZ value of `b`: plies to a zeroing move (positive winning, negative
    /// losing, 0 drawn; beyond ±100 a cursed win or blessed loss), possibly one
    /// ply too far, as the tables round; `None` if the tables do not answer.
    pub fn probe_dtz<S: Slider>(&self, b: &Board<S>) -> Option<i32> {
        self.try_probe_dtz(b).ok()
    }

    /// The DTZ value of `b`, or why there is none.
    pub fn try_probe_dtz<S: Slider>(&self, b: &Board<S>) -> Result<i32, TbError> {
        let v = self.dtz_no_ep(b)?;
        let Some(v1) = self.best_ep(b)? else {
            return Ok(v);
        };
        // What the best en passant capture would give, as a DTZ value.
        const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];
        let v1 = WDL_TO_DTZ[(v1 + 2) as usize];
        let better = if v < -100 {
            v1 >= 0
        } else if v < 0 {
            !(-100..0).contains(&v1)
        } else if v > 100 {
            v1 > 0
        } else if v > 0 {
            v1 == 1
        } else if v1 >= 0 {
            true
        } else {
            // A draw without the capture stays a draw unless it is forced.
            only_en_passant(b)
        };
        Ok(if better { v1 } else { v })
    }

    /// WDL with en passant resolved.
    fn wdl_value<S: Slider>(&self, b: &Board<S>) -> Result<i32, TbError> {
        let (mut v, _) = self.probe_ab(b, -2, 2)?;
        if let Some(v1) = self.best_ep(b)? {
            if v1 >= v {
                v = v1;
            } else if v == 0 && only_en_passant(b) {
                // The capture that loses is forced.
                v = v1;
            }
        }
        Ok(v)
    }

    /// The best WDL value among the legal en passant captures, if any.
    fn best_ep<S: Slider>(&self, b: &Board<S>) -> Result<Option<i32>, TbError> {
        if b.ep_capture_square().is_none() {
            return Ok(None);
        }
        let mut best = None;
        for m in b.legal_moves::<Portable>().iter() {
            if m.kind() == MoveKind::EnPassant {
                let (v, _) = self.probe_ab(&b.with_move::<Portable>(m), -2, 2)?;
                best = best.max(Some(-v));
            }
        }
        Ok(best)
    }

    /// The table's value of `b` without a search (KvK is a draw).
    fn table_wdl<S: Slider>(&self, b: &Board<S>) -> Result<i32, TbError> {
        let pos = pos_of(b);
        if pos.count() == 2 {
            return Ok(0);
        }
        let t = self.table(Kind::Wdl, &pos)?;
        Ok(t.probe(&pos, 0)?.unwrap_or(0))
    }

    /// An alpha-beta search of the captures (en passant aside) over the table's
    /// value, which is only valid when no capture is better. Returns the value
    /// and 2 when a capture is best (and winning), else 1.
    fn probe_ab<S: Slider>(
        &self,
        b: &Board<S>,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, u8), TbError> {
        if b.castling_rights() != 0 {
            return Err(TbError::Unsupported("castling rights".into()));
        }
        if b.occupied().count_ones() as usize > MAX_PIECES + 1 {
            return Err(TbError::Unsupported("too many pieces".into()));
        }
        for m in b.legal_moves::<Portable>().iter() {
            if m.kind() == MoveKind::EnPassant || !b.is_capture(m) {
                continue;
            }
            let (v, _) = self.probe_ab(&b.with_move::<Portable>(m), -beta, -alpha)?;
            let v = -v;
            if v > alpha {
                if v >= beta {
                    return Ok((v, 2));
                }
                alpha = v;
            }
        }
        let v = self.table_wdl(b)?;
        Ok(if alpha >= v {
            (alpha, 1 + u8::from(alpha > 0))
        } else {
            (v, 1)
        })
    }

    /// DTZ without the en passant captures.
    fn dtz_no_ep<S: Slider>(&self, b: &Board<S>) -> Result<i32, TbError> {
        let (wdl, success) = self.probe_ab(b, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if success == 2 {
            // A capture is the best move: it zeroes at once.
            return Ok(dtz_before_zeroing(wdl));
        }
        let moves = b.legal_moves::<Portable>();
        let pawn = |m: Move| b.moved_piece(m).kind() == PieceKind::Pawn;
        if wdl > 0 {
            // A pawn move that keeps the win zeroes at once.
            for m in moves.iter().filter(|&m| pawn(m) && !b.is_capture(m)) {
                let v = -self.wdl_value(&b.with_move::<Portable>(m))?;
                if v == wdl {
                    return Ok(if v == 2 { 1 } else { 101 });
                }
            }
        }
        let pos = pos_of(b);
        let t = self.table(Kind::Dtz, &pos)?;
        if let Some(dtz) = t.probe(&pos, wdl)? {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The file stores the other side to move: search one ply.
        if wdl > 0 {
            let mut best = 0xFFFF;
            for m in moves.iter().filter(|&m| !pawn(m) && !b.is_capture(m)) {
                let after = b.with_move::<Portable>(m);
                let v = -self.try_probe_dtz(&after)?;
                if v == 1 && after.in_check() && after.legal_moves::<Portable>().is_empty() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for m in moves.iter() {
                let after = b.with_move::<Portable>(m);
                let v = if after.halfmove_clock() == 0 {
                    if wdl == -2 {
                        -1
                    } else {
                        let (v, _) = self.probe_ab(&after, 1, 2)?;
                        if v == 2 {
                            0
                        } else {
                            -101
                        }
                    }
                } else {
                    -self.try_probe_dtz(&after)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }

    /// Rank the root moves of `b` by the tables: DTZ when the DTZ tables answer,
    /// else WDL. Returns each move with its rank (higher is better; equal ranks
    /// are equally good as far as the tables tell) and a score for the side to
    /// move from the [`RootScale`]; `None` when the position is not in the tables.
    ///
    /// `rule50` honours the fifty-move rule (cursed wins and blessed losses are
    /// draws); `repeated` says the position has occurred before since the last
    /// zeroing move, so a win that is not yet converted must hurry.
    pub fn rank_root_moves<S: Slider>(
        &self,
        b: &Board<S>,
        rule50: bool,
        repeated: bool,
        scale: &RootScale,
    ) -> Option<Vec<RootMove>> {
        if b.castling_rights() != 0 || b.occupied().count_ones() as usize > self.max_pieces {
            return None;
        }
        self.root_dtz(b, rule50, repeated, scale)
            .or_else(|| self.root_wdl(b, rule50, scale))
    }

    fn root_dtz<S: Slider>(
        &self,
        b: &Board<S>,
        rule50: bool,
        repeated: bool,
        scale: &RootScale,
    ) -> Option<Vec<RootMove>> {
        let cnt50 = b.halfmove_clock() as i32;
        // The rank from which a move wins for sure: with the rule, converted
        // within the hundred plies; without it, any win.
        let bound = if rule50 { MAX_DTZ - 100 } else { 1 };
        let mut out = Vec::new();
        for m in b.legal_moves::<Portable>().iter() {
            let after = b.with_move::<Portable>(m);
            let mut dtz = if after.halfmove_clock() == 0 {
                // A zeroing move: its value is the result's.
                dtz_before_zeroing(-self.wdl_value(&after).ok()?)
            } else {
                // One ply further from the zeroing move than the reply.
                let d = -self.try_probe_dtz(&after).ok()?;
                d + d.signum()
            };
            if dtz == 2 && after.in_check() && after.legal_moves::<Portable>().is_empty() {
                // Mate is the best of wins.
                dtz = 1;
            }
            let rank = if dtz > 0 {
                if dtz + cnt50 <= 99 && !repeated {
                    MAX_DTZ
                } else {
                    MAX_DTZ - (dtz + cnt50)
                }
            } else if dtz < 0 {
                if -dtz * 2 + cnt50 < 100 {
                    -MAX_DTZ
                } else {
                    -MAX_DTZ + (-dtz + cnt50)
                }
            } else {
                0
            };
            let score = if rank >= bound {
                scale.win
            } else if rank > 0 {
                // A cursed win: a little above a draw, more the nearer it is
                // to a real one.
                (rank - (MAX_DTZ - 200)).max(3) * scale.pawn / 200
            } else if rank == 0 {
                0
            } else if rank > -bound {
                (rank + (MAX_DTZ - 200)).min(-3) * scale.pawn / 200
            } else {
                -scale.win
            };
            out.push(RootMove {
                mv: m,
                rank,
                score,
                by_dtz: true,
            });
        }
        Some(out)
    }

    fn root_wdl<S: Slider>(
        &self,
        b: &Board<S>,
        rule50: bool,
        scale: &RootScale,
    ) -> Option<Vec<RootMove>> {
        const WDL_TO_RANK: [i32; 5] = [-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ];
        let mut out = Vec::new();
        for m in b.legal_moves::<Portable>().iter() {
            let after = b.with_move::<Portable>(m);
            let wdl = -self.wdl_value(&after).ok()?;
            let shown = if rule50 { wdl } else { 2 * wdl.signum() };
            let score = match shown {
                2 => scale.win,
                1 => 2,
                0 => 0,
                -1 => -2,
                _ => -scale.win,
            };
            out.push(RootMove {
                mv: m,
                rank: WDL_TO_RANK[(wdl + 2) as usize],
                score,
                by_dtz: false,
            });
        }
        Some(out)
    }
}

/// The rank of a win that is safe within the fifty-move rule.
pub const MAX_DTZ: i32 = 1 << 18;

/// The scores [`Tablebase::rank_root_moves`] gives: a tablebase win (below the
/// mate scores) and a pawn's worth for cursed wins.
#[derive(Clone, Copy, Debug)]
pub struct RootScale {
    /// The score of a sure win (a loss is its negation).
    pub win: i32,
    /// A pawn's worth, the unit of the small scores of cursed wins.
    pub pawn: i32,
}

/// A root move as the tables rank it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Higher is better; moves of equal rank are equal as far as the tables tell.
    pub rank: i32,
    /// The score the rank stands for, from the side to move's view.
    pub score: i32,
    /// Whether DTZ ranked it (else WDL: the DTZ tables did not answer).
    pub by_dtz: bool,
}

/// The moves to keep: those of the best rank.
pub fn best_ranked(moves: &[RootMove]) -> Vec<RootMove> {
    let best = moves.iter().map(|m| m.rank).max().unwrap_or(0);
    moves.iter().copied().filter(|m| m.rank == best).collect()
}

/// DTZ of a position whose best move zeroes with result `wdl`.
fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

/// Whether every legal move of `b` is an en passant capture.
fn only_en_passant<S: Slider>(b: &Board<S>) -> bool {
    b.legal_moves::<Portable>()
        .iter()
        .all(|m| m.kind() == MoveKind::EnPassant)
}

/// The tables' view of a board.
fn pos_of<S: Slider>(b: &Board<S>) -> Pos {
    let mut bb = [[0u64; 6]; 2];
    for c in Color::BOTH {
        for k in PieceKind::ALL {
            bb[c.index()][k.index()] = b.pieces(c, k);
        }
    }
    Pos {
        bb,
        white_to_move: b.side_to_move() == Color::White,
    }
}

/// A material key as a table name (`KQvKR`).
fn material_name(key: MaterialKey) -> String {
    let mut s = String::new();
    for c in 0..2 {
        if c == 1 {
            s.push('v');
        }
        for (k, ch) in [(5, 'K'), (4, 'Q'), (3, 'R'), (2, 'B'), (1, 'N'), (0, 'P')] {
            for _ in 0..(key >> (4 * (6 * c + k))) & 15 {
                s.push(ch);
            }
        }
    }
    s
}

/// The cheap checks made when a file is found: its size and magic number.
fn check_file(path: &Path, kind: Kind) -> Result<(), TbError> {
    use std::io::Read;
    let io = |e: std::io::Error| TbError::Io(format!("{}: {e}", path.display()));
    let mut f = std::fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    if len % 64 != 16 {
        return Err(TbError::Corrupt(format!(
            "{}: {len} bytes is not the size of a table (truncated?)",
            path.display()
        )));
    }
    let mut magic = [0u8; 4];
    f.read_exact(&mut magic).map_err(io)?;
    let want = match kind {
        Kind::Wdl => table::WDL_MAGIC,
        Kind::Dtz => table::DTZ_MAGIC,
    };
    if magic != want {
        return Err(TbError::Corrupt(format!(
            "{}: not a Syzygy table (wrong magic number)",
            path.display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_keys() {
        let k = name_key("KQvKR").unwrap();
        assert_eq!(material_name(k), "KQvKR");
        assert_eq!(material_name(mirror_key(k)), "KRvKQ");
        assert!(name_key("KQvR").is_none());
        assert!(name_key("KQQQQQQvK").is_none());
        assert!(name_key("KvK").is_none());
    }

    #[test]
    fn missing_directory_is_an_error() {
        let (tb, notes) = Tablebase::open("/no/such/syzygy/dir");
        assert!(tb.is_empty());
        assert_eq!(notes.len(), 1);
        let b: Board = Board::from_fen("k7/8/8/8/8/8/8/KQ6 w - - 0 1").unwrap();
        assert!(matches!(tb.try_probe_wdl(&b), Err(TbError::Missing(_))));
    }
}
