//! The transposition table: shared by every search thread, lock-free.
//!
//! A bucket is one 64-byte cache line of four entries. An entry is two atomic
//! words. One holds 16 bits of the key, the move, the score and the static
//! evaluation; the other the same 16 key bits, a 32-bit check of the first word,
//! the depth, the bound and the generation. A probe accepts an entry only when
//! both words carry the key's bits and the second word's check matches the first
//! word, so a read torn by a concurrent write (the halves of two different
//! stores, even two stores of the same position) is a miss but for one chance in
//! 2^32, and never undefined behaviour: every access is an atomic load or store.
//!
//! A hit refreshes the entry's age with a compare-and-swap of the second word: a
//! plain store of a word read earlier could overwrite another thread's newer
//! store of the same position, and marry its data to the old depth and bound.
//!
//! The memory is allocated when the size is set, zeroed by the allocator (for a
//! large table, fresh pages from the OS), never by a loop.
//!
//! The search prefetches the child's bucket right after making a move
//! ([`TranspositionTable::prefetch`]), with the key make has just computed, so
//! that the child's probe, a few steps later, less often waits on memory.
//! `bench` nodes per second, 9 alternated runs each on the otherwise idle
//! 2-core EPYC, Hash 16: median 2.174 M against 2.132 M without (the median of
//! the pairs' ratios 1.024, range 0.958 to 1.091). An earlier form, which
//! computed the key before the move (`Board::key_after`) to prefetch even
//! sooner, measured slower: 0.995 times the plain build at Hash 16 and 0.952 at
//! Hash 256 (`bench 13`), the cost of that key outweighing the wait saved.

use super::score::{MATE_IN_MAX, VALUE_NONE};
use crate::types::Move;
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing stored (an empty entry).
    None = 0,
    /// The true value is at most the score (the search failed low).
    Upper = 1,
    /// The true value is at least the score (the search failed high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    /// How a node's best score bounds its value: a fail high (at or above
    /// `beta`) is a lower bound; otherwise exact when a PV node's best move raised
    /// alpha (`raised_alpha`), else an upper bound (every move failed low).
    #[inline(always)]
    pub fn of_search(best_score: i32, beta: i32, raised_alpha: bool) -> Bound {
        if best_score >= beta {
            Bound::Lower
        } else if raised_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            0 => Bound::None,
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best move found (may be [`Move::NULL`]; never trusted without a legality test).
    pub mv: Move,
    /// The score, already adjusted from "mate in N from here" to the probing ply.
    pub score: i32,
    /// The static evaluation, or [`VALUE_NONE`].
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    pub bound: Bound,
    /// Whether the position is or was on a principal variation when stored
    /// (Stockfish's `ttPv`): a PV node, or a node below one that failed low.
    pub pv: bool,
}

impl TtHit {
    /// Whether the stored score settles a search of the window `alpha..beta`: a
    /// lower bound at or above beta, an upper bound at or below alpha, or an exact
    /// score. With `alpha == beta == v`, whether it is a better estimate than `v`.
    #[inline(always)]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        self.score != VALUE_NONE
            && match self.bound {
                Bound::Lower => self.score >= beta,
                Bound::Upper => self.score <= alpha,
                Bound::Exact => true,
                Bound::None => false,
            }
    }
}

#[derive(Default)]
struct Entry {
    /// key16 << 48 | move << 32 | score << 16 | eval
    data: AtomicU64,
    /// key16 << 48 | check(data) << 16 | depth << 8 | generation << 3 | pv << 2 | bound
    meta: AtomicU64,
}

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; 4],
}

/// Depths are stored offset so that quiescence depths (down to -8 or so) fit a byte.
const DEPTH_OFFSET: i32 = 16;
/// Generations live in five bits, above the PV bit: an entry 32 searches old
/// looks new again, long after replacement has counted it worthless.
const GEN_MASK: u8 = 31;
/// Where the generation starts in a meta word.
const GEN_SHIFT: u32 = 3;
/// The meta word's PV bit (see [`TtHit::pv`]).
const PV_BIT: u64 = 1 << 2;

/// The generation of a meta word.
#[inline(always)]
fn generation_of(meta: u64) -> u8 {
    ((meta >> GEN_SHIFT) as u8) & GEN_MASK
}

/// The 32-bit check of a data word that its meta word carries: the high half of a
/// multiplication by an odd constant, so that two different data words agree in it
/// only by chance (a plain fold would let data words differing by the same
/// pattern in both halves agree).
#[inline(always)]
fn check(data: u64) -> u64 {
    data.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32
}

/// The bits of a meta word that [`check`] occupies.
const CHECK_MASK: u64 = 0xFFFF_FFFF << 16;

/// A static evaluation as stored: real evaluations are kept clear of the mate
/// range, and [`VALUE_NONE`] (stored for nodes in check) is kept as itself, so a
/// probe can tell "no evaluation" from a large one.
#[inline(always)]
fn eval_to_tt(eval: i32) -> i16 {
    if eval == VALUE_NONE {
        VALUE_NONE as i16
    } else {
        eval.clamp(-MATE_IN_MAX + 1, MATE_IN_MAX - 1) as i16
    }
}

/// Whether an entry holds anything: its stored depth byte is never zero once
/// written (depths are stored offset by [`DEPTH_OFFSET`]), even for an entry that
/// holds only a static evaluation ([`Bound::None`]).
#[inline(always)]
fn occupied(meta: u64) -> bool {
    (meta >> 8) & 0xFF != 0
}

/// A lock-free transposition table.
pub struct TranspositionTable {
    /// The first bucket: `base` rounded up to the buckets' 64-byte alignment.
    buckets: *mut Bucket,
    len: usize,
    /// The allocation, and its layout, for `Drop`.
    base: *mut u8,
    layout: Layout,
    generation: AtomicU8,
}

// SAFETY: the table owns its buckets, and every access to them goes through atomics.
unsafe impl Send for TranspositionTable {}
// SAFETY: as above: shared access only ever performs atomic loads and stores.
unsafe impl Sync for TranspositionTable {}

/// The alignment the allocation is asked for: the C allocator's own. With a
/// larger one (the buckets' 64), Rust's system allocator cannot use `calloc`
/// and zeroes the whole table itself, on one thread: 16 GiB took over a
/// minute. `calloc` takes fresh pages from the kernel, which are zero already,
/// so a table of any size is had at once; it is then cleared by the search
/// threads together ([`TranspositionTable::clear`]), as Stockfish does.
const ALLOC_ALIGN: usize = 16;

impl TranspositionTable {
    /// A table of `mb` mebibytes (at least one bucket), zeroed by the allocator.
    ///
    /// Returns `None` if the memory cannot be allocated.
    pub fn new(mb: usize) -> Option<TranspositionTable> {
        let bytes = mb.max(1).checked_mul(1 << 20)?;
        let len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let size = len
            .checked_mul(std::mem::size_of::<Bucket>())?
            .checked_add(std::mem::align_of::<Bucket>())?;
        let layout = Layout::from_size_align(size, ALLOC_ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let base = unsafe { alloc_zeroed(layout) };
        if base.is_null() {
            return None;
        }
        let skip = base.align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: `skip` < 64, the slack added to `size`, so `len` buckets from
        // there lie inside the allocation; they are aligned for `Bucket`, and
        // all-zero bytes are a valid `Bucket` (atomic integers) and the empty
        // entry.
        let buckets = unsafe { base.add(skip) } as *mut Bucket;
        Some(TranspositionTable {
            buckets,
            len,
            base,
            layout,
            generation: AtomicU8::new(0),
        })
    }

    /// The size in mebibytes.
    pub fn size_mb(&self) -> usize {
        (self.len * std::mem::size_of::<Bucket>()) >> 20
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto 0..len without a power-of-two size.
        let i = ((key as u128 * self.len as u128) >> 64) as usize;
        // SAFETY: i < len, and the buckets live as long as `self`.
        unsafe { &*self.buckets.add(i) }
    }

    /// Ask the CPU to bring the bucket of `key` into the cache, so that a
    /// probe soon after finds it there.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: SSE is part of the x86-64 baseline, and a prefetch only
            // hints the cache: it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Start a new search: entries from earlier searches age.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store(g.wrapping_add(1) & GEN_MASK, Relaxed);
    }

    /// Look `key` up; `ply` is the distance from the root, for mate scores.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let k = key & 0xFFFF;
        for e in &self.bucket(key).entries {
            let meta = e.meta.load(Relaxed);
            if meta >> 48 != k || !occupied(meta) {
                continue;
            }
            let data = e.data.load(Relaxed);
            if data >> 48 != k || (meta & CHECK_MASK) >> 16 != check(data) {
                continue;
            }
            // Refresh the age, so a hit survives replacement; only if no other
            // store came between (see the module doc).
            let gen = self.generation.load(Relaxed) as u64;
            let fresh = (meta & !(u64::from(GEN_MASK) << GEN_SHIFT)) | gen << GEN_SHIFT;
            if fresh != meta {
                let _ = e.meta.compare_exchange(meta, fresh, Relaxed, Relaxed);
            }
            return Some(TtHit {
                mv: Move::from_bits((data >> 32) as u16),
                score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
                eval: data as u16 as i16 as i32,
                depth: ((meta >> 8) & 0xFF) as i32 - DEPTH_OFFSET,
                bound: Bound::from_bits(meta),
                pv: meta & PV_BIT != 0,
            });
        }
        None
    }

    /// Store a result, with `pv` for a position that is or was on a principal
    /// variation ([`TtHit::pv`]). The entry kept is the one for this key, else
    /// the one least worth keeping: the shallowest, counting every generation of
    /// age as 8 plies.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
        ply: usize,
    ) {
        let k = key & 0xFFFF;
        let gen = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        let mut same_key = false;
        for e in &bucket.entries {
            let meta = e.meta.load(Relaxed);
            if meta >> 48 == k && occupied(meta) {
                victim = e;
                same_key = true;
                break;
            }
            let age = (gen.wrapping_sub(generation_of(meta)) & GEN_MASK) as i32;
            let worth = ((meta >> 8) & 0xFF) as i32 - 8 * age;
            let worth = if occupied(meta) { worth } else { i32::MIN };
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let old_meta = victim.meta.load(Relaxed);
        let old_data = victim.data.load(Relaxed);
        let mut mv = mv;
        if same_key {
            // Keep a move we already had for this position rather than none.
            if mv.is_null() {
                mv = Move::from_bits((old_data >> 32) as u16);
            }
            // Keep a deeper result of this search unless the new one is exact.
            let old_depth = ((old_meta >> 8) & 0xFF) as i32 - DEPTH_OFFSET;
            let old_gen = generation_of(old_meta);
            if bound != Bound::Exact && old_gen == gen && depth + 4 < old_depth {
                return;
            }
        }
        let depth = (depth + DEPTH_OFFSET).clamp(1, 255) as u64;
        let data = k << 48
            | (mv.bits() as u64) << 32
            | (score_to_tt(score, ply) as i16 as u16 as u64) << 16
            | (eval_to_tt(eval) as u16 as u64);
        let meta = k << 48
            | check(data) << 16
            | depth << 8
            | (gen as u64) << GEN_SHIFT
            | if pv { PV_BIT } else { 0 }
            | bound as u64;
        victim.data.store(data, Relaxed);
        victim.meta.store(meta, Relaxed);
    }

    /// Per mille of the first thousand entries used by the current search.
    pub fn hashfull(&self) -> usize {
        let gen = self.generation.load(Relaxed) as u64;
        let buckets = self.len.min(250);
        let mut used = 0;
        for i in 0..buckets {
            // SAFETY: i < len.
            let b = unsafe { &*self.buckets.add(i) };
            for e in &b.entries {
                let meta = e.meta.load(Relaxed);
                if occupied(meta) && u64::from(generation_of(meta)) == gen {
                    used += 1;
                }
            }
        }
        used * 1000 / (buckets * 4)
    }

    /// Empty the table in place, zeroing it with up to `threads` threads, each
    /// its own slice (as Stockfish clears its table).
    ///
    /// A new game used to get a freshly allocated table instead, whose pages the
    /// kernel then zeroed one by one as the first search touched them, on the
    /// clock; this writes every page now. Below 64 MiB one thread is quicker
    /// than starting others.
    pub fn clear(&mut self, threads: usize) {
        const PER_THREAD_MIN: usize = (64 << 20) / std::mem::size_of::<Bucket>();
        let threads = threads.clamp(1, (self.len / PER_THREAD_MIN).max(1));
        // SAFETY: `&mut self` means no other reference to the buckets exists, and
        // `buckets` points to `len` of them, allocated in `new`.
        let all = unsafe { std::slice::from_raw_parts_mut(self.buckets, self.len) };
        // The slices are a queue that every thread, this one included, takes
        // from: a thread that cannot be started leaves its share to the others.
        let parts: Vec<std::sync::Mutex<Option<&mut [Bucket]>>> = all
            .chunks_mut(self.len.div_ceil(threads))
            .map(|p| std::sync::Mutex::new(Some(p)))
            .collect();
        let work = || {
            for p in &parts {
                let taken = p.lock().ok().and_then(|mut p| p.take());
                if let Some(part) = taken {
                    // SAFETY: `part` is borrowed uniquely, and all-zero bytes are a
                    // valid `Bucket` (atomic integers) and the empty entry.
                    unsafe { std::ptr::write_bytes(part.as_mut_ptr(), 0, part.len()) }
                }
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                let _ = std::thread::Builder::new()
                    .name("brokkr-tt-clear".into())
                    .spawn_scoped(scope, work);
            }
            work();
        });
        *self.generation.get_mut() = 0;
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { dealloc(self.base, self.layout) };
    }
}

/// A score as stored: mate scores count from this node, not from the root.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score == VALUE_NONE {
        score
    } else if score >= MATE_IN_MAX {
        score + ply as i32
    } else if score <= -MATE_IN_MAX {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from `ply` plies below the root.
///
/// A mate stored far from this node can lie more than `MAX_PLY` plies from the
/// root once the hash grafts it here. Left alone it would cross below
/// [`MATE_IN_MAX`] and pass for an ordinary score above any evaluation: WAC.111
/// reported `cp 31871` for such a mate (a mate 129 plies away). It is kept a
/// mate, the farthest one the scores can say, so it still beats every
/// evaluation and loses to every mate the search can see to its end.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score == VALUE_NONE {
        score
    } else if score >= MATE_IN_MAX {
        (score - ply as i32).max(MATE_IN_MAX)
    } else if score <= -MATE_IN_MAX {
        (score + ply as i32).min(-MATE_IN_MAX)
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn a_mate_grafted_beyond_the_ply_limit_stays_a_mate() {
        // A mate 100 plies from the node where it was stored, read 40 plies
        // below the root: 140 plies from the root, past what the scores can say.
        let stored = score_to_tt(MATE - 100, 0);
        assert_eq!(score_from_tt(stored, 40), MATE_IN_MAX);
        assert_eq!(score_from_tt(-stored, 40), -MATE_IN_MAX);
        // Within reach, the distance is exact.
        assert_eq!(score_from_tt(stored, 20), MATE - 120);
        assert_eq!(score_from_tt(-stored, 20), -MATE + 120);
    }

    #[test]
    fn mate_scores_round_trip_by_ply() {
        let tt = TranspositionTable::new(1).unwrap();
        // Mate in 3 plies from a node 5 plies below the root is mate in 8 from the root.
        tt.store(
            0xABCD_1234,
            Move::NULL,
            MATE - 8,
            0,
            4,
            Bound::Exact,
            false,
            5,
        );
        let hit = tt.probe(0xABCD_1234, 5).unwrap();
        assert_eq!(hit.score, MATE - 8);
        // Seen from another ply (a transposition 2 plies deeper): still mate in 3 from there.
        let hit = tt.probe(0xABCD_1234, 7).unwrap();
        assert_eq!(hit.score, MATE - 10);
        tt.store(0x55, Move::NULL, -MATE + 9, 0, 4, Bound::Exact, false, 3);
        assert_eq!(tt.probe(0x55, 1).unwrap().score, -MATE + 7);
    }

    #[test]
    fn stores_and_finds_fields() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::normal(12, 28);
        tt.store(42, m, -37, 15, 9, Bound::Lower, false, 0);
        let hit = tt.probe(42, 0).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: m,
                score: -37,
                eval: 15,
                depth: 9,
                bound: Bound::Lower,
                pv: false,
            }
        );
        assert!(tt.probe(43, 0).is_none());
        // The PV bit is kept apart from the bound and the generation, whatever
        // they are, and a later store of the same position replaces it.
        for (gens, bound) in [(0, Bound::None), (5, Bound::Upper), (31, Bound::Exact)] {
            for _ in 0..gens {
                tt.new_search();
            }
            tt.store(44, m, 12, 3, 7, bound, true, 0);
            let hit = tt.probe(44, 0).unwrap();
            assert_eq!((hit.bound, hit.pv, hit.depth), (bound, true, 7));
            tt.store(44, m, 12, 3, 7, bound, false, 0);
            assert!(!tt.probe(44, 0).unwrap().pv);
        }
    }

    #[test]
    fn an_evaluation_alone_is_found() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(7, Move::NULL, VALUE_NONE, 33, -8, Bound::None, false, 0);
        let hit = tt.probe(7, 0).unwrap();
        assert_eq!(
            (hit.eval, hit.score, hit.bound),
            (33, VALUE_NONE, Bound::None)
        );
    }

    #[test]
    fn a_new_table_is_empty() {
        let tt = TranspositionTable::new(2).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..1000u64 {
            assert!(tt.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_none());
        }
    }

    #[test]
    fn no_evaluation_comes_back_as_none() {
        // Nodes in check store VALUE_NONE: it must not come back as a huge
        // evaluation (it came back as 32000, clamped).
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(
            9,
            Move::normal(1, 2),
            15,
            VALUE_NONE,
            3,
            Bound::Upper,
            false,
            0,
        );
        assert_eq!(tt.probe(9, 0).unwrap().eval, VALUE_NONE);
        // Real evaluations stay clear of the mate range.
        tt.store(10, Move::NULL, 0, 40_000, 3, Bound::Upper, false, 0);
        assert!(tt.probe(10, 0).unwrap().eval < MATE_IN_MAX);
        tt.store(11, Move::NULL, 0, -40_000, 3, Bound::Upper, false, 0);
        assert!(tt.probe(11, 0).unwrap().eval > -MATE_IN_MAX);
    }

    /// The fields of the store numbered `id`, every one a function of the id, so
    /// that a hit whose fields come from two stores can be recognised.
    fn stress_fields(id: u16) -> (Move, i32, i32, i32, Bound, bool) {
        let id = id | 1; // never the null move, which a store may replace
        let mv = Move::from_bits(id);
        let score = (id as i32 * 7) % 2001 - 1000;
        let eval = (id as i32 * 13) % 1001 - 500;
        let depth = (id as i32 * 5) % 40;
        let bound = [Bound::Upper, Bound::Lower, Bound::Exact][(id as usize / 2) % 3];
        let pv = id & 0x40 != 0;
        (mv, score, eval, depth, bound, pv)
    }

    #[test]
    fn concurrent_stores_never_mix_two_stores_in_one_hit() {
        // Four threads store and probe a handful of keys in a one-bucket-wide
        // corner of a small table, while one of them keeps starting new searches
        // so that probes refresh ages. Every hit must be one whole store.
        use std::sync::atomic::{AtomicBool, AtomicU64};
        let tt = TranspositionTable::new(1).unwrap();
        let keys: Vec<u64> = (1..=6u64).collect(); // one bucket, six tags
        let stop = AtomicBool::new(false);
        let hits = AtomicU64::new(0);
        let bad = AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (tt, keys, stop, hits, bad) = (&tt, &keys, &stop, &hits, &bad);
                s.spawn(move || {
                    let mut x = 0x2545_F491_4F6C_DD1D_u64 ^ (t << 32);
                    let mut n = 0u64;
                    while !stop.load(Relaxed) || n < 200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = keys[(x % keys.len() as u64) as usize];
                        if x & 0x100 == 0 {
                            let (mv, score, eval, depth, bound, pv) =
                                stress_fields((x >> 16) as u16);
                            tt.store(key, mv, score, eval, depth, bound, pv, 0);
                        } else if let Some(h) = tt.probe(key, 0) {
                            hits.fetch_add(1, Relaxed);
                            let fields = stress_fields(h.mv.bits());
                            if (h.mv, h.score, h.eval, h.depth, h.bound, h.pv) != fields {
                                bad.fetch_add(1, Relaxed);
                            }
                        }
                        if t == 0 && n.is_multiple_of(64) {
                            tt.new_search();
                        }
                        n += 1;
                        if n == 2_000_000 {
                            stop.store(true, Relaxed);
                        }
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 1000, "the test must probe hits");
        assert_eq!(bad.load(Relaxed), 0, "hits mixing two stores");
    }
}
