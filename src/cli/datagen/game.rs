//! One self-play game: brokkr against itself at a fixed node count per move
//! (or, with `--versus`, one evaluation against another), ended by the rules or
//! by adjudication, with the quiet positions it passed through labelled by its
//! result.
//!
//! A game is a pure function of its number and the settings: the opening comes
//! from the game's own random stream, every search runs on one thread (whose node
//! limit is exact) with a fresh hash table and cleared histories, and nothing
//! else is carried from one game to the next.

use super::opening::{random_opening, Book, Rng};
use crate::attacks::Slider;
use crate::board::{Board, Position};
use crate::nnue::marlin;
use crate::paths::Engine;
use crate::search::score::{is_mate, MATE};
use crate::search::TranspositionTable;
use crate::search::{self, Control, Limits, SearchResult, Settings, ThreadData};
use crate::syzygy::{Tablebase, Wdl};
use crate::types::Color;
use std::fmt::Write as _;
use std::time::Duration;

/// A score (White's side, centipawns) at or beyond which a side is winning.
pub const WIN_SCORE: i32 = 1000;
/// Plies in a row the score must stay winning for one side, so that both sides'
/// searches agree twice.
pub const WIN_PLIES: u32 = 4;
/// A score within which the game is level.
pub const DRAW_SCORE: i32 = 10;
/// Plies in a row the score must stay level for a draw.
pub const DRAW_PLIES: u32 = 10;
/// The first move number at which a level game may be drawn: before it, a level
/// score says little about how the game ends.
pub const DRAW_FROM_MOVE: u32 = 40;
/// Plies of self-play after which the game is drawn (a shuffle that the rules
/// would end much later).
pub const MAX_PLIES: usize = 400;
/// An opening whose first search scores beyond this (either way) was decided by
/// a random move; it is replaced, since its game would mostly repeat that.
pub const OPENING_LIMIT: i32 = 400;
/// Openings tried for one game before giving up.
pub const MAX_TRIES: usize = 100;

/// The settings every game shares.
pub struct Setup<'a, E: Engine> {
    pub book: &'a Book<E::Slider>,
    pub random_plies: usize,
    pub seed: u64,
    pub nodes: u64,
    pub hash_mb: usize,
    /// The network that evaluates, or `None` for the hand-written evaluation.
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
    /// The network's vector path.
    pub vector: crate::nnue::VectorPath,
    /// The Syzygy tables that end a game (`--syzygy`), if any.
    pub tables: Option<&'a Tablebase>,
    /// Whether the scores end games (off with `--no-adjudication`, to measure
    /// what adjudication costs the labels: the games are the same up to where it
    /// would have ended them).
    pub adjudicate: bool,
    /// The other side's evaluation (`--versus`), or `None` for self-play.
    pub versus: Option<std::sync::Arc<Versus>>,
}

/// The opponent of `--versus`: an evaluation other than the games' own, which
/// plays Black in odd-numbered games and White in even ones. Self-play never
/// shows a net the positions it overrates, since its opponent, the same net,
/// steers away from them; an opponent with other errors lets it reach them.
pub struct Versus {
    /// The opponent's network, or `None` for the hand-written evaluation.
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
    /// Its nodes a move (`--versus-nodes`), so that a weaker evaluation can be
    /// given the search to hold its own.
    pub nodes: u64,
}

impl Versus {
    /// As the file's header names it.
    pub fn describe(&self) -> String {
        match &self.net {
            Some(net) => format!("versus net {:016x} at {} nodes", net.hash(), self.nodes),
            None => format!("versus hce at {} nodes", self.nodes),
        }
    }
}

/// One side's search state: its thread's histories and its hash table. With
/// `--versus` each evaluation has its own, so neither reads the other's scores.
pub struct Searcher {
    data: Vec<ThreadData>,
    tt: TranspositionTable,
}

impl Searcher {
    /// A searcher with a `hash_mb` table, or `None` if it cannot be allocated.
    pub fn new(hash_mb: usize) -> Option<Searcher> {
        Some(Searcher {
            data: vec![ThreadData::new()],
            tt: TranspositionTable::new(hash_mb)?,
        })
    }

    /// Forget everything, as a new game must (a cleared table is a new one).
    fn clear(&mut self) {
        self.tt.clear(1);
        for d in self.data.iter_mut() {
            d.clear();
        }
    }
}

/// A game's result, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// As the tuner reads it: 1.0, 0.5 or 0.0.
    pub fn label(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1.0",
            GameResult::Draw => "0.5",
            GameResult::BlackWins => "0.0",
        }
    }

    /// As marlinformat writes it.
    pub fn marlin(self) -> u8 {
        match self {
            GameResult::WhiteWins => marlin::WHITE_WIN,
            GameResult::Draw => marlin::DRAW,
            GameResult::BlackWins => marlin::BLACK_WIN,
        }
    }

    /// As PGN writes it.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
        }
    }

    /// The win for `side`.
    pub fn win(side: Color) -> GameResult {
        match side {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Checkmate(Color),
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// The score stayed beyond [`WIN_SCORE`] for this side.
    AdjudicatedWin(Color),
    /// The score stayed within [`DRAW_SCORE`].
    AdjudicatedDraw,
    /// [`MAX_PLIES`] were played.
    PlyCap,
    /// The tables hold the position: won by this side, or drawn (`None`).
    Tablebase(Option<Color>),
}

impl End {
    pub fn result(self) -> GameResult {
        match self {
            End::Checkmate(c) | End::AdjudicatedWin(c) | End::Tablebase(Some(c)) => {
                GameResult::win(c)
            }
            _ => GameResult::Draw,
        }
    }

    /// Whether adjudication, rather than the rules, ended the game.
    pub fn adjudicated(self) -> bool {
        matches!(
            self,
            End::AdjudicatedWin(_) | End::AdjudicatedDraw | End::PlyCap | End::Tablebase(_)
        )
    }

    fn reason(self) -> &'static str {
        match self {
            End::Checkmate(_) => "checkmate",
            End::Stalemate => "stalemate",
            End::Repetition => "threefold repetition",
            End::FiftyMoves => "fifty-move rule",
            End::InsufficientMaterial => "insufficient material",
            End::AdjudicatedWin(_) => "adjudicated win",
            End::AdjudicatedDraw => "adjudicated draw",
            End::PlyCap => "ply limit",
            End::Tablebase(_) => "tablebase",
        }
    }
}

/// The end of the game by the rules, if it is over.
fn rules_end<E: Engine>(pos: &Position<E::Slider>) -> Option<End> {
    let b = pos.board();
    if b.legal_moves::<E::Bits>().is_empty() {
        return Some(if b.in_check() {
            End::Checkmate(b.side_to_move().flip())
        } else {
            End::Stalemate
        });
    }
    if pos.is_fifty_move_draw::<E::Bits>() {
        Some(End::FiftyMoves)
    } else if pos.is_threefold() {
        Some(End::Repetition)
    } else if b.insufficient_material() {
        Some(End::InsufficientMaterial)
    } else {
        None
    }
}

/// The adjudication counters: plies in a row that the score (White's side) was
/// winning for White, for Black, or level.
#[derive(Default, Debug)]
pub struct Adjudicator {
    white: u32,
    black: u32,
    level: u32,
}

impl Adjudicator {
    /// Count one searched ply with White's score `white` at move `fullmove`;
    /// returns the end when the game is decided.
    pub fn update(&mut self, white: i32, fullmove: u32) -> Option<End> {
        let count = |c: &mut u32, on: bool| *c = if on { *c + 1 } else { 0 };
        count(&mut self.white, white >= WIN_SCORE);
        count(&mut self.black, white <= -WIN_SCORE);
        count(
            &mut self.level,
            white.abs() <= DRAW_SCORE && fullmove >= DRAW_FROM_MOVE,
        );
        if self.white >= WIN_PLIES {
            Some(End::AdjudicatedWin(Color::White))
        } else if self.black >= WIN_PLIES {
            Some(End::AdjudicatedWin(Color::Black))
        } else if self.level >= DRAW_PLIES {
            Some(End::AdjudicatedDraw)
        } else {
            None
        }
    }

    /// A ply with no usable score breaks every run.
    pub fn reset(&mut self) {
        *self = Adjudicator::default();
    }
}

/// A finished game, ready to append to the output.
pub struct Played {
    /// The position lines and then the game's `# game N: ...` line.
    pub text: String,
    /// The `# game N: ...` line alone.
    pub summary: String,
    /// The positions as marlinformat records, the last one marked as the game's
    /// end.
    pub marlin: Vec<u8>,
    pub positions: usize,
    pub end: End,
    pub nodes: u64,
    /// Openings tried and replaced before this game's.
    pub replaced: usize,
    /// With `--versus`, the colour the games' own evaluation played.
    pub own: Option<Color>,
}

/// The colour the games' own evaluation plays in game `number` with `--versus`.
fn own_colour(number: u64) -> Color {
    if number % 2 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

/// Play game `number`: find its opening, then play it out. `own` searches for
/// the games' evaluation and `other` for `--versus`'s (required with it), each
/// cleared before each try, so the games do not depend on reuse.
pub fn play<E: Engine>(
    setup: &Setup<E>,
    number: u64,
    own: &mut Searcher,
    mut other: Option<&mut Searcher>,
) -> Result<Played, String> {
    let own_side = setup.versus.as_ref().map(|_| own_colour(number));
    if own_side.is_some() != other.is_some() {
        return Err("a second searcher goes with --versus, and only with it".to_string());
    }
    let mut rng = Rng::for_game(setup.seed, number);
    let mut nodes = 0;
    for tries in 0..MAX_TRIES {
        let Some(pos) =
            random_opening::<E::Bits, E::Slider>(setup.book, setup.random_plies, &mut rng)
        else {
            continue;
        };
        if rules_end::<E>(&pos).is_some() {
            continue;
        }
        let opponent = setup.versus.as_deref().zip(other.as_deref_mut());
        match self_play(setup, pos, own, opponent, own_side, &mut nodes)? {
            Some((records, end, plies)) => {
                let mut played = finish(number, &records, end, plies);
                (played.nodes, played.replaced, played.own) = (nodes, tries, own_side);
                return Ok(played);
            }
            None => continue,
        }
    }
    Err(format!(
        "game {number}: no playable opening in {MAX_TRIES} tries (every one was over, or \
         scored beyond ±{OPENING_LIMIT} cp at once): use another book or fewer --random-plies"
    ))
}

/// A recorded position: its FEN, the search score from White's side, and the
/// position as a marlinformat record (its result still unset).
type Record = (String, i32, marlin::Record);

/// One side of a game: the evaluation it searches with, its node limit and
/// its search state.
struct Side<'s> {
    settings: Settings,
    limits: Limits,
    searcher: &'s mut Searcher,
}

impl<'s> Side<'s> {
    /// A side evaluating with `net` (`None`: the hand-written evaluation) at
    /// `nodes` a move, its searcher cleared rather than allocated: a table per
    /// try cost a page fault per page touched, on the clock, and an opening is
    /// often tried twice (`docs/network.md`, datagen).
    fn new<E: Engine>(
        setup: &Setup<E>,
        net: Option<std::sync::Arc<crate::nnue::Network>>,
        nodes: u64,
        searcher: &'s mut Searcher,
    ) -> Side<'s> {
        searcher.clear();
        Side {
            settings: Settings {
                threads: 1,
                move_overhead: Duration::ZERO,
                net,
                vector: setup.vector,
                ..Settings::default()
            },
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            searcher,
        }
    }
}

/// Play from `pos` to the end; `None` if the opening is lopsided (its first
/// search scores beyond [`OPENING_LIMIT`]). Adds the nodes searched to `nodes`.
/// With `opponent` (`--versus` and its searcher), the games' own evaluation
/// plays `own_side` and the opponent the other colour. Each position is
/// labelled by the score of the side that searched it.
fn self_play<E: Engine>(
    setup: &Setup<E>,
    mut pos: Position<E::Slider>,
    own: &mut Searcher,
    opponent: Option<(&Versus, &mut Searcher)>,
    own_side: Option<Color>,
    nodes: &mut u64,
) -> Result<Option<(Vec<Record>, End, usize)>, String> {
    let mut own = Side::new(setup, setup.net.clone(), setup.nodes, own);
    let mut opponent =
        opponent.map(|(v, searcher)| Side::new(setup, v.net.clone(), v.nodes, searcher));
    let mut adjudicator = Adjudicator::default();
    let mut records = Vec::new();
    let mut plies = 0;
    let end = loop {
        if let Some(end) = rules_end::<E>(&pos) {
            break end;
        }
        if let Some(end) = table_end(setup.tables, pos.board()) {
            break end;
        }
        if plies >= MAX_PLIES {
            break End::PlyCap;
        }
        let control = Control::default();
        let b = *pos.board();
        // The side to move searches with its own evaluation and tables.
        let side = match opponent.as_mut() {
            Some(o) if own_side != Some(b.side_to_move()) => o,
            _ => &mut own,
        };
        let r = search::search::<E>(
            &b,
            pos.keys(),
            &side.limits,
            &side.settings,
            &side.searcher.tt,
            &control,
            &mut side.searcher.data,
            &|_| {},
        );
        *nodes += r.nodes;
        if r.best.is_null() || !b.is_legal::<E::Bits>(r.best) {
            return Err(format!(
                "the search returned no legal move in {}",
                b.to_fen()
            ));
        }
        let score = usable_score(&r);
        if plies == 0 && score.is_none_or(|s| s.abs() > OPENING_LIMIT) {
            return Ok(None);
        }
        match score {
            Some(s) => {
                let white = if b.side_to_move() == Color::White {
                    s
                } else {
                    -s
                };
                let quiet =
                    !b.in_check() && !b.is_capture(r.best) && r.best.promotion_kind().is_none();
                if quiet && !is_mate(s) {
                    records.push((b.to_fen(), white, marlin::Record::from_board(&b, white, 0)));
                }
                if let Some(end) = adjudicator.update(white, b.fullmove_number()) {
                    if setup.adjudicate {
                        break end;
                    }
                }
            }
            None => adjudicator.reset(),
        }
        pos.push(r.best);
        plies += 1;
    };
    Ok(Some((records, end, plies)))
}

/// The end of the game by the tables: a position with no more men than they
/// hold, reached by a capture or a pawn move (the fifty-move count at zero, so
/// that their result under the fifty-move rule is the game's), whose table is
/// there. A cursed win or blessed loss is a draw, as the game would be.
fn table_end<S: Slider>(tables: Option<&Tablebase>, b: &Board<S>) -> Option<End> {
    let tb = tables?;
    if b.occupied().count_ones() as usize > tb.max_pieces() || b.halfmove_clock() != 0 {
        return None;
    }
    let us = b.side_to_move();
    Some(End::Tablebase(match tb.probe_wdl(b)? {
        Wdl::Win => Some(us),
        Wdl::Loss => Some(us.flip()),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => None,
    }))
}

/// The search's score, if it finished an iteration (a node limit far too small
/// for one can leave the root unscored).
fn usable_score(r: &SearchResult) -> Option<i32> {
    (r.depth > 0 && r.score.abs() <= MATE).then_some(r.score)
}

/// The game's text: its positions with the result, then its `# game` line.
fn finish(number: u64, records: &[Record], end: End, plies: usize) -> Played {
    let result = end.result();
    let mut text = String::with_capacity(records.len() * 80 + 80);
    let mut bin = Vec::with_capacity(records.len() * marlin::SIZE);
    for (i, (fen, score, record)) in records.iter().enumerate() {
        let _ = writeln!(text, "{fen} | {score} | {}", result.label());
        let mut r = *record;
        r.set_result(result.marlin());
        r.set_game_end(i + 1 == records.len());
        bin.extend_from_slice(&r.0);
    }
    // Resuming reads the `, 0 positions` of a game that kept none
    // (`file::keeps_nothing`): its marlinformat records hold no game end.
    let summary = format!(
        "# game {number}: {} by {}, {plies} plies, {} positions\n",
        result.pgn(),
        end.reason(),
        records.len()
    );
    text.push_str(&summary);
    Played {
        text,
        summary,
        marlin: bin,
        positions: records.len(),
        end,
        nodes: 0,
        replaced: 0,
        own: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_needs_both_sides_to_agree_in_a_row() {
        let mut a = Adjudicator::default();
        for _ in 0..WIN_PLIES - 1 {
            assert_eq!(a.update(WIN_SCORE, 20), None);
        }
        // One side's search disagrees: the run starts again.
        assert_eq!(a.update(WIN_SCORE - 1, 20), None);
        for _ in 0..WIN_PLIES - 1 {
            assert_eq!(a.update(-MATE + 3, 20), None);
        }
        assert_eq!(
            a.update(-WIN_SCORE, 20),
            Some(End::AdjudicatedWin(Color::Black))
        );
        let mut a = Adjudicator::default();
        for _ in 0..WIN_PLIES - 1 {
            a.update(2000, 20);
        }
        assert_eq!(a.update(2000, 20), Some(End::AdjudicatedWin(Color::White)));
        assert_eq!(
            End::AdjudicatedWin(Color::White).result(),
            GameResult::WhiteWins
        );
    }

    #[test]
    fn a_draw_needs_a_level_score_late_in_the_game() {
        let mut a = Adjudicator::default();
        for _ in 0..3 * DRAW_PLIES {
            assert_eq!(a.update(0, DRAW_FROM_MOVE - 1), None);
        }
        for i in 0..DRAW_PLIES - 1 {
            let s = if i % 2 == 0 { DRAW_SCORE } else { -DRAW_SCORE };
            assert_eq!(a.update(s, DRAW_FROM_MOVE), None);
        }
        assert_eq!(a.update(0, DRAW_FROM_MOVE), Some(End::AdjudicatedDraw));
        let mut a = Adjudicator::default();
        for _ in 0..DRAW_PLIES - 1 {
            a.update(0, 60);
        }
        a.reset();
        assert_eq!(a.update(0, 60), None);
        assert_eq!(End::AdjudicatedDraw.result(), GameResult::Draw);
    }

    #[test]
    fn the_game_line_says_how_it_ended() {
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        let board = crate::board::Board::<crate::attacks::Magic>::from_fen(fen).unwrap();
        let r = marlin::Record::from_board(&board, -35, 0);
        let p = finish(
            7,
            &[(fen.to_string(), -35, r), (fen.to_string(), -35, r)],
            End::Checkmate(Color::Black),
            52,
        );
        assert_eq!(
            p.text,
            "8/8/8/8/8/8/8/K6k w - - 0 1 | -35 | 0.0\n\
             8/8/8/8/8/8/8/K6k w - - 0 1 | -35 | 0.0\n\
             # game 7: 0-1 by checkmate, 52 plies, 2 positions\n"
        );
        assert_eq!(
            p.summary,
            "# game 7: 0-1 by checkmate, 52 plies, 2 positions\n"
        );
        assert_eq!(p.marlin.len(), 64);
        let last = marlin::Record(p.marlin[32..].try_into().unwrap());
        let first = marlin::Record(p.marlin[..32].try_into().unwrap());
        assert_eq!(
            (first.result(), last.result()),
            (marlin::BLACK_WIN, marlin::BLACK_WIN)
        );
        assert_eq!((first.is_game_end(), last.is_game_end()), (false, true));
        assert_eq!(last.to_board::<crate::attacks::Magic>().unwrap(), board);
        assert!(!p.end.adjudicated());
        assert!(End::PlyCap.adjudicated());
    }
}
