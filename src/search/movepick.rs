//! Staged move ordering (Thor's Hammer generated its moves in stages too): the
//! hash move first, then winning captures, killers and the countermove, quiet
//! moves by history, and losing captures last. Each stage is generated only when
//! the one before it is used up, so a cut-off on the hash move generates nothing.

use super::history::{Histories, PieceTo};
use crate::board::movegen::Collect;
use crate::board::movegen::MAX_MOVES;
use crate::board::{Board, MoveList, Stage as GenStage};
use crate::paths::Engine;
use crate::types::*;
use std::mem::MaybeUninit;

/// Values that order captures (most valuable victim first).
pub const ORDER_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Where a picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Countermove,
    GenQuiets,
    Quiets,
    BadCaptures,
    // In check: every evasion, in one list.
    EvasionTt,
    GenEvasions,
    Evasions,
    // Quiescence: captures and queen promotions, then (at its first ply, if
    // asked) the quiet moves that give check.
    QsTt,
    GenQsCaptures,
    QsCaptures,
    GenQsChecks,
    QsChecks,
    Done,
}

/// The piece kind captured by `m`, if any (en passant captures a pawn).
#[inline(always)]
pub fn captured_kind<S: crate::attacks::Slider>(board: &Board<S>, m: Move) -> Option<PieceKind> {
    board.captured_piece(m).map(|p| p.kind())
}

/// Whether `m` is a capture or a promotion (the moves quiescence searches).
#[inline(always)]
pub fn is_noisy<S: crate::attacks::Slider>(board: &Board<S>, m: Move) -> bool {
    m.kind() == MoveKind::Promotion || board.is_capture(m)
}

/// A quiet move's order: butterfly history (under `threats`, the squares the
/// other side attacks) plus the continuation histories of the moves one and two
/// plies back.
#[inline(always)]
fn quiet_score<S: crate::attacks::Slider>(
    board: &Board<S>,
    hist: &Histories,
    cont: [Option<&PieceTo>; 2],
    threats: Bitboard,
    m: Move,
) -> i32 {
    hist.quiet(board.side_to_move(), m, threats) + cont_score(board, cont, m)
}

/// The continuation histories' part of [`quiet_score`]: how quiet move `m`
/// did after the moves one and two plies back.
#[inline(always)]
pub(crate) fn cont_score<S: crate::attacks::Slider>(
    board: &Board<S>,
    cont: [Option<&PieceTo>; 2],
    m: Move,
) -> i32 {
    let (p, to) = (board.moved_piece(m).index(), m.to().index());
    cont.iter().flatten().map(|c| c[p][to] as i32).sum()
}

/// [`MAX_MOVES`] slots, each written before it is read, and left unwritten
/// until then: a picker is made at every node, quiescence's included, and
/// zeroing its three lists there would cost more than all the rest of its
/// setup (4 KiB a node: 3.8% of `bench 6`'s instructions outside the hash
/// clearing, measured under callgrind; with a check on every access instead,
/// 16%).
///
/// The picker keeps the invariant that makes [`Slots::get`] sound: it reads
/// `moves[..len]` and `bad[..bad_len]`, which `generate` (and `retain`, which
/// only moves them down) and the bad-capture stage wrote, and `scores[..len]`,
/// which a `score_*` pass writes right after each `generate`. Debug builds
/// check every read against the slots written.
struct Slots<T: Copy> {
    slots: [MaybeUninit<T>; MAX_MOVES],
    /// Debug builds: how many slots from the first have been written.
    #[cfg(debug_assertions)]
    written: usize,
}

impl<T: Copy> Slots<T> {
    #[inline(always)]
    fn new() -> Slots<T> {
        Slots {
            slots: [const { MaybeUninit::uninit() }; MAX_MOVES],
            #[cfg(debug_assertions)]
            written: 0,
        }
    }

    /// Write slot `i` (bounds-checked).
    #[inline(always)]
    fn set(&mut self, i: usize, v: T) {
        #[cfg(debug_assertions)]
        {
            assert!(i <= self.written, "a picker slot written out of order");
            self.written = self.written.max(i + 1);
        }
        self.slots[i] = MaybeUninit::new(v);
    }

    /// Read slot `i`, which the picker wrote before (see the type's doc).
    #[inline(always)]
    fn get(&self, i: usize) -> T {
        #[cfg(debug_assertions)]
        assert!(i < self.written, "a picker slot read before it was written");
        // SAFETY: the picker reads only the slots it wrote (the type's doc
        // gives the invariant; debug builds check it); `i` is bounds-checked.
        unsafe { self.slots[i].assume_init() }
    }

    #[inline(always)]
    fn swap(&mut self, a: usize, b: usize) {
        self.slots.swap(a, b);
    }
}

/// A move's sort key: larger is better; the score decides, then the lower
/// encoding (the low 16 bits hold the encoding inverted).
#[inline(always)]
const fn sort_key(score: i32, m: Move) -> i64 {
    ((score as i64) << 16) | (0xFFFF - m.bits()) as i64
}

/// The score and move a [`sort_key`] was made of.
#[inline(always)]
const fn from_sort_key(key: i64) -> (i32, Move) {
    (
        (key >> 16) as i32,
        Move::from_bits(0xFFFF - (key & 0xFFFF) as u16),
    )
}

/// Hands out the moves of one node, best first.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    moves: Slots<Move>,
    scores: Slots<i32>,
    len: usize,
    cur: usize,
    bad: Slots<Move>,
    bad_len: usize,
    bad_cur: usize,
    /// Quiescence: whether the quiet checks follow the captures.
    qs_checks: bool,
    /// The squares the other side attacks, as the butterfly history reads
    /// them (0 without the `ThreatHistory` switch).
    threats: Bitboard,
}

impl MovePicker {
    /// A picker for a node of the main search; `threats` as the butterfly
    /// history reads them (see [`Histories::quiet`]).
    pub fn new(
        in_check: bool,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        threats: Bitboard,
    ) -> MovePicker {
        MovePicker {
            stage: if in_check {
                Stage::EvasionTt
            } else {
                Stage::TtMove
            },
            tt_move,
            killers,
            counter,
            moves: Slots::new(),
            scores: Slots::new(),
            len: 0,
            cur: 0,
            bad: Slots::new(),
            bad_len: 0,
            bad_cur: 0,
            qs_checks: false,
            threats,
        }
    }

    /// A picker for quiescence: captures and queen promotions, then the quiet
    /// checks if `checks`, or every evasion when in check; `threats` for the
    /// quiet moves among them, as in [`MovePicker::new`].
    pub fn new_qsearch(
        in_check: bool,
        tt_move: Move,
        checks: bool,
        threats: Bitboard,
    ) -> MovePicker {
        let mut p = MovePicker::new(in_check, tt_move, [Move::NULL; 2], Move::NULL, threats);
        if !in_check {
            p.stage = Stage::QsTt;
            p.qs_checks = checks;
        }
        p
    }

    fn generate<E: Engine>(&mut self, board: &Board<E::Slider>, stage: GenStage) {
        let mut list = MoveList::new();
        board.generate::<E::Bits, _>(stage, &mut Collect::<E::Bits>::new(&mut list));
        self.len = 0;
        self.cur = 0;
        for m in list.iter() {
            if m != self.tt_move {
                self.moves.set(self.len, m);
                self.len += 1;
            }
        }
    }

    /// Keep only the generated moves `keep` accepts, in their order.
    fn retain(&mut self, keep: impl Fn(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves.get(i);
            if keep(m) {
                self.moves.set(n, m);
                n += 1;
            }
        }
        self.len = n;
    }

    /// Capture order: the victim's value, then the capture history.
    fn score_captures<E: Engine>(&mut self, board: &Board<E::Slider>, hist: &Histories) {
        for i in 0..self.len {
            let m = self.moves.get(i);
            let victim = captured_kind(board, m).map_or(0, |k| ORDER_VALUES[k.index()]);
            let promo = m
                .promotion_kind()
                .map_or(0, |k| ORDER_VALUES[k.index()] - ORDER_VALUES[0]);
            let piece = board.moved_piece(m);
            let captured = captured_kind(board, m)
                .map_or(PieceKind::Pawn, |k| k)
                .index();
            let h = if promo == 0 || victim != 0 {
                hist.capture_score(piece, m.to().index(), captured)
            } else {
                0
            };
            self.scores.set(i, (victim + promo) * 16 + h / 8);
        }
    }

    fn score_quiets<E: Engine>(
        &mut self,
        board: &Board<E::Slider>,
        hist: &Histories,
        cont: [Option<&PieceTo>; 2],
    ) {
        for i in 0..self.len {
            self.scores.set(
                i,
                quiet_score(board, hist, cont, self.threats, self.moves.get(i)),
            );
        }
    }

    /// Evasions: captures first by victim, then quiet moves by history.
    fn score_evasions<E: Engine>(
        &mut self,
        board: &Board<E::Slider>,
        hist: &Histories,
        cont: [Option<&PieceTo>; 2],
    ) {
        for i in 0..self.len {
            let m = self.moves.get(i);
            let score = match captured_kind(board, m) {
                Some(k) => (1 << 24) + ORDER_VALUES[k.index()] * 16,
                None => quiet_score(board, hist, cont, self.threats, m),
            };
            self.scores.set(i, score);
        }
    }

    /// The best-scored move left in the current list, or none.
    fn pick_best(&mut self) -> Option<Move> {
        if self.cur >= self.len {
            return None;
        }
        // Ties go to the lower move encoding, so the order never depends on the
        // order the generator (or backend) emitted the moves in.
        let mut best = self.cur;
        for i in self.cur + 1..self.len {
            let (s, b) = (self.scores.get(i), self.scores.get(best));
            if s > b || (s == b && self.moves.get(i).bits() < self.moves.get(best).bits()) {
                best = i;
            }
        }
        self.moves.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        self.cur += 1;
        Some(self.moves.get(self.cur - 1))
    }

    /// Sort the whole current list, best first, ties to the lower move
    /// encoding as in [`MovePicker::pick_best`]. Each move is sorted as one
    /// key, its score above and its encoding inverted below, so a step is one
    /// comparison and one word moved. Two keys are equal only for the same
    /// move, so every sort gives the one order.
    ///
    /// The standard library's unstable sort replaced an insertion sort, which
    /// took 9.7% of `bench`'s `perf` samples where the new sort's functions
    /// take 6.7% (`bench`'s node count did not move). Its instructions fell
    /// by less (0.8% of `bench 8 --hash 1`'s under callgrind), so most of the
    /// insertion sort's time went elsewhere than to instructions, presumably
    /// to its data-dependent branches. Sorting in chunks of 8 as the moves are
    /// handed out was tried and dropped: 116 M instructions in the sort
    /// against the whole sort's 71 M, as each chunk after the first rewrites
    /// the rest of the list.
    fn sort(&mut self) {
        let mut keys = [const { MaybeUninit::<i64>::uninit() }; MAX_MOVES];
        for (i, k) in keys[..self.len].iter_mut().enumerate() {
            *k = MaybeUninit::new(sort_key(self.scores.get(i), self.moves.get(i)));
        }
        // SAFETY: the loop above wrote every slot of `keys[..len]` (the slice
        // index checks `len <= MAX_MOVES`), and `MaybeUninit<i64>` has the
        // layout of `i64`.
        let keys: &mut [i64] =
            unsafe { std::slice::from_raw_parts_mut(keys.as_mut_ptr().cast::<i64>(), self.len) };
        keys.sort_unstable_by(|a, b| b.cmp(a));
        for (i, &k) in keys.iter().enumerate() {
            let (score, m) = from_sort_key(k);
            self.scores.set(i, score);
            self.moves.set(i, m);
        }
    }

    /// Whether a refutation slot (killer, countermove) holds a usable quiet move.
    fn usable_refutation<E: Engine>(&self, board: &Board<E::Slider>, m: Move) -> bool {
        !m.is_null() && m != self.tt_move && !is_noisy(board, m) && board.is_legal::<E::Bits>(m)
    }

    /// The next move, or `None` when every move has been handed out. A stage
    /// that needs more than a line or two has its helper, inlined as this is:
    /// the picker runs at every node.
    #[inline(always)]
    pub fn next<E: Engine>(
        &mut self,
        board: &Board<E::Slider>,
        hist: &Histories,
        cont: [Option<&PieceTo>; 2],
        see_threshold: impl Fn(&Board<E::Slider>, Move) -> bool,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvasionTt | Stage::QsTt => {
                    if let Some(m) = self.tt_stage::<E>(board) {
                        return Some(m);
                    }
                }
                Stage::GenCaptures => {
                    self.generate::<E>(board, GenStage::Captures);
                    self.score_captures::<E>(board, hist);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) => {
                        // Under-promotions and captures that lose material wait
                        // until after the quiet moves.
                        let under = m.promotion_kind().is_some_and(|k| k != PieceKind::Queen);
                        if under || !see_threshold(board, m) {
                            self.bad.set(self.bad_len, m);
                            self.bad_len += 1;
                        } else {
                            return Some(m);
                        }
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Countermove => {
                    if let Some(m) = self.refutation_stage::<E>(board) {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => self.gen_quiets::<E>(board, hist, cont),
                Stage::Quiets => {
                    if self.cur < self.len {
                        self.cur += 1;
                        return Some(self.moves.get(self.cur - 1));
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad_len {
                        self.bad_cur += 1;
                        return Some(self.bad.get(self.bad_cur - 1));
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.generate::<E>(board, GenStage::All);
                    self.score_evasions::<E>(board, hist, cont);
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    let m = self.pick_best();
                    if m.is_none() {
                        self.stage = Stage::Done;
                    }
                    return m;
                }
                Stage::GenQsCaptures => self.gen_qs_captures::<E>(board, hist),
                Stage::QsCaptures => match self.pick_best() {
                    Some(m) => return Some(m),
                    None if self.qs_checks => self.stage = Stage::GenQsChecks,
                    None => self.stage = Stage::Done,
                },
                Stage::GenQsChecks => self.gen_qs_checks::<E>(board, hist, cont),
                Stage::QsChecks => {
                    if self.cur < self.len {
                        self.cur += 1;
                        return Some(self.moves.get(self.cur - 1));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The hash move's stage (`TtMove`, `EvasionTt` or `QsTt`): the hash move
    /// if it is usable here (legal, and in quiescence a capture or a queen
    /// promotion), and on to the stage's generator either way.
    #[inline(always)]
    fn tt_stage<E: Engine>(&mut self, board: &Board<E::Slider>) -> Option<Move> {
        let tt_ok = !self.tt_move.is_null()
            && board.is_legal::<E::Bits>(self.tt_move)
            && (self.stage != Stage::QsTt
                || (is_noisy(board, self.tt_move)
                    && self
                        .tt_move
                        .promotion_kind()
                        .is_none_or(|k| k == PieceKind::Queen)));
        self.stage = match self.stage {
            Stage::TtMove => Stage::GenCaptures,
            Stage::EvasionTt => Stage::GenEvasions,
            _ => Stage::GenQsCaptures,
        };
        if tt_ok {
            return Some(self.tt_move);
        }
        // An unusable hash move must not be skipped by the generators.
        self.tt_move = Move::NULL;
        None
    }

    /// The refutation stages (`Killer1`, `Killer2`, `Countermove`): the slot's
    /// move if it is a usable quiet move not handed out already, and on to the
    /// next stage either way.
    #[inline(always)]
    fn refutation_stage<E: Engine>(&mut self, board: &Board<E::Slider>) -> Option<Move> {
        let (slot, next) = match self.stage {
            Stage::Killer1 => (0, Stage::Killer2),
            Stage::Killer2 => (1, Stage::Countermove),
            _ => (2, Stage::GenQuiets),
        };
        self.stage = next;
        let m = [self.killers[0], self.killers[1], self.counter][slot];
        let dup = (slot >= 1 && m == self.killers[0]) || (slot == 2 && m == self.killers[1]);
        if !dup && self.usable_refutation::<E>(board, m) {
            return Some(m);
        }
        // Not handed out: the quiet stage must not filter it away.
        match slot {
            0 => self.killers[0] = Move::NULL,
            1 => self.killers[1] = Move::NULL,
            _ => self.counter = Move::NULL,
        }
        None
    }

    /// `GenQuiets`: the quiet moves but the refutations already tried, sorted
    /// by history.
    #[inline(always)]
    fn gen_quiets<E: Engine>(
        &mut self,
        board: &Board<E::Slider>,
        hist: &Histories,
        cont: [Option<&PieceTo>; 2],
    ) {
        self.generate::<E>(board, GenStage::Quiets);
        let tried = [self.killers[0], self.killers[1], self.counter];
        self.retain(|m| !tried.contains(&m));
        self.score_quiets::<E>(board, hist, cont);
        self.sort();
        self.stage = Stage::Quiets;
    }

    /// `GenQsCaptures`: the captures and queen promotions (quiescence leaves
    /// under-promotions out), scored.
    #[inline(always)]
    fn gen_qs_captures<E: Engine>(&mut self, board: &Board<E::Slider>, hist: &Histories) {
        self.generate::<E>(board, GenStage::Captures);
        self.retain(|m| m.promotion_kind().is_none_or(|k| k == PieceKind::Queen));
        self.score_captures::<E>(board, hist);
        self.stage = Stage::QsCaptures;
    }

    /// `GenQsChecks`: the quiet moves that give check, sorted by history.
    #[inline(always)]
    fn gen_qs_checks<E: Engine>(
        &mut self,
        board: &Board<E::Slider>,
        hist: &Histories,
        cont: [Option<&PieceTo>; 2],
    ) {
        self.generate::<E>(board, GenStage::Quiets);
        let ci = board.check_info::<E::Bits>();
        self.retain(|m| board.gives_check_with::<E::Bits>(m, &ci));
        self.score_quiets::<E>(board, hist, cont);
        self.sort();
        self.stage = Stage::QsChecks;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed key orders as the score, then the lower encoding, and gives
    /// both back, for scores of either sign and their extremes.
    #[test]
    fn sort_keys_order_by_score_then_encoding_and_round_trip() {
        let scores = [i32::MIN, -(1 << 24), -1, 0, 1, 7, 1 << 24, i32::MAX];
        let moves = [0u16, 1, 0x0FFF, 0x8001, 0xFFFE, 0xFFFF].map(Move::from_bits);
        for &s in &scores {
            for &m in &moves {
                assert_eq!(from_sort_key(sort_key(s, m)), (s, m));
                for &t in &scores {
                    for &n in &moves {
                        let better = s > t || (s == t && m.bits() < n.bits());
                        assert_eq!(
                            sort_key(s, m) > sort_key(t, n),
                            better,
                            "{s} {m:?} / {t} {n:?}"
                        );
                    }
                }
            }
        }
    }
}
