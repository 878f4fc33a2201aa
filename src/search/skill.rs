//! Playing below full strength: `Skill Level` (0 to 20) and `UCI_LimitStrength`
//! with `UCI_Elo`, as GUIs offer them for human opponents.
//!
//! A limited search does two things, never by waiting:
//!
//! 1. It searches fewer nodes: [`Skill::nodes`], from about 1,200 at level 0 to
//!    about 170,000 at level 18; from level 19 ([`TOP_LEVEL`]) one line within
//!    160,000 nodes, doubled every third of a level (at 10s+0.1s brokkr
//!    searches some 300,000 to 1,300,000 nodes a move on the machine it was
//!    calibrated on; at longer controls the levels lose more to full strength).
//! 2. Below level 19 it searches at least [`MULTIPV`] lines and then picks among them with a
//!    random weakness: the move with the largest `U - gap`, where `gap` is how
//!    many centipawns the move scored below the best, and `U` is drawn
//!    uniformly from `0..=spread` for each move, `spread` being
//!    [`Skill::spread`], 10 cp a level below 20 (200 cp at level 0). A move
//!    `g` cp worse than the best is so played with a chance of about
//!    `(1 - g / spread)² / 2` against the best alone: a blunder of a piece
//!    never, a slip of half a pawn often at the lowest levels. A mate found is
//!    always played (its gap to any other score is far beyond the spread),
//!    and a move that gets mated never chosen over one that does not.
//!
//! `UCI_Elo` maps to a level through the anchors [`ELO_LEVELS`], measured in
//! games against Stockfish 15.1 at its own `UCI_Elo`: [`ELO_MIN`] is level 0,
//! and [`FULL_STRENGTH_ELO`] (brokkr's own strength on that scale at
//! 10s+0.1s, with its network) is level 20, which is no limit at all, and the
//! top of the range. The levels in between are fractional. Every level plays
//! with the evaluation full strength uses (the network): one evaluation, so
//! the hash never holds two scales. `docs/strength-limit.md` has the matches
//! that calibrate it.

/// Lines searched, at least, when the strength is limited below [`TOP_LEVEL`].
pub const MULTIPV: usize = 4;
/// From this level up a limited search is one line within a node limit. Four
/// lines within a node limit stopped near 2400 on the scale (level 19.51 played
/// at 2359 ± 111), some 350 Elo below full strength: a search that splits its
/// nodes among four lines cannot come close to one that does not. One line
/// within [`TOP_NODES`] at this level, doubled every `1 / TOP_DOUBLINGS_PER_LEVEL`
/// of a level, rises towards full strength (which searches some 300,000 to
/// 1,300,000 nodes a move at 10s+0.1s on the calibration machine).
pub const TOP_LEVEL: f64 = 19.0;
/// The nodes of one line at [`TOP_LEVEL`]. Measured with one line at 10s+0.1s
/// against Stockfish 15.1's `UCI_Elo`: 18,750 nodes played at 2099 ± 121 and
/// 75,000 at 2265 ± 110 (40 games each), some 80 Elo a doubling; 160,000 is
/// where that line meets the four-line search's 2321 to 2359 at levels 18.6
/// to 19.51, so the levels join without a step (measured: 2395 ± 102).
const TOP_NODES: f64 = 160_000.0;
/// Doublings of the nodes per level above [`TOP_LEVEL`]: level 19.5 searches
/// 2.8 times [`TOP_NODES`], level 20 would search 8 times (and has no limit).
const TOP_DOUBLINGS_PER_LEVEL: f64 = 3.0;
/// The lowest `UCI_Elo`: level 0 (Stockfish 15.1's lowest; level 0 measured
/// by extrapolation from the two lowest anchors at about 1420).
pub const ELO_MIN: u32 = 1350;
/// The highest `UCI_Elo` the option takes: full strength, so that every label
/// the option offers is one brokkr can play at.
pub const ELO_MAX: u32 = FULL_STRENGTH_ELO;
/// brokkr's full strength on Stockfish 15.1's `UCI_Elo` scale at 10s+0.1s,
/// with the network: level 20 (measured 2752 ± 67, 40 games against
/// `UCI_Elo` 2850: 4-15-21).
pub const FULL_STRENGTH_ELO: u32 = 2750;
/// `UCI_Elo`'s anchors: (Elo, level), the Elo rising, the last at
/// [`FULL_STRENGTH_ELO`] and level 20; an Elo between two anchors gets the level
/// in proportion, one below the first the first's level. Between [`ELO_MIN`]
/// at level 0 and full strength, the points the calibration matches measured
/// with the network (`docs/strength-limit.md`: 40 games each at 10s+0.1s
/// against Stockfish 15.1 at the same `UCI_Elo`): level 3.06 played at
/// 1580 ± 96, level 9.18 at 1898 ± 103, level 16.86 at 2189 ± 93, level 18.6
/// at 2321 ± 88; with one line from [`TOP_LEVEL`], level 19.0 at 2395 ± 102,
/// and levels 19.23 and 19.49 at 2539 ± 112 and 2533 ± 99, which did not
/// separate and are one anchor at their means.
pub const ELO_LEVELS: [(u32, f64); 8] = [
    (ELO_MIN, 0.0),
    (1580, 3.06),
    (1898, 9.18),
    (2189, 16.86),
    (2321, 18.6),
    (2395, 19.0),
    (2536, 19.36),
    (FULL_STRENGTH_ELO, 20.0),
];
/// The highest `Skill Level`: full strength.
pub const MAX_LEVEL: u32 = 20;
/// Nodes a move at level 20, were it limited: the nodes of a full-strength
/// search at 10s+0.1s. Each level below takes `2^-0.4` of it.
const FULL_NODES: f64 = 300_000.0;
/// The random spread per level below 20, in centipawns.
const SPREAD_PER_LEVEL: f64 = 10.0;
/// The nodes of a level are `2^-NODES_PER_LEVEL` of the level above's.
const NODES_PER_LEVEL: f64 = 0.4;

/// A strength limit: a level below 20 (fractional when it comes from an Elo)
/// and the seed of its random choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// From 0 (weakest) to below 20.
    pub level: f64,
    /// Seeds the choice among the lines; the same seed, the same choice.
    pub seed: u64,
}

impl Skill {
    /// The limit of `Skill Level` `level`, or `None` for full strength (20).
    pub fn from_level(level: u32, seed: u64) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill {
            level: f64::from(level),
            seed,
        })
    }

    /// The limit of `UCI_Elo` `elo`, or `None` from [`FULL_STRENGTH_ELO`] up:
    /// the level interpolated linearly between the [`ELO_LEVELS`] around it.
    pub fn from_elo(elo: u32, seed: u64) -> Option<Skill> {
        if elo >= FULL_STRENGTH_ELO {
            return None;
        }
        let elo = f64::from(elo);
        let mut level = ELO_LEVELS[0].1;
        for w in ELO_LEVELS.windows(2) {
            let ((e0, l0), (e1, l1)) = (w[0], w[1]);
            let (e0, e1) = (f64::from(e0), f64::from(e1));
            if elo >= e0 {
                level = l0 + (l1 - l0) * ((elo.min(e1) - e0) / (e1 - e0));
            }
        }
        Some(Skill { level, seed })
    }

    /// The limit of the options: `UCI_Elo` when `UCI_LimitStrength` is on (as
    /// in Stockfish), else `Skill Level`.
    pub fn from_options(limit_strength: bool, elo: u32, level: u32, seed: u64) -> Option<Skill> {
        if limit_strength {
            Skill::from_elo(elo, seed)
        } else {
            Skill::from_level(level, seed)
        }
    }

    /// The nodes a move may search.
    pub fn nodes(&self) -> u64 {
        let level = self.level.clamp(0.0, f64::from(MAX_LEVEL));
        let nodes = if level >= TOP_LEVEL {
            TOP_NODES * (TOP_DOUBLINGS_PER_LEVEL * (level - TOP_LEVEL)).exp2()
        } else {
            FULL_NODES * (-NODES_PER_LEVEL * (f64::from(MAX_LEVEL) - level)).exp2()
        };
        nodes.round() as u64
    }

    /// The lines searched (at least): [`MULTIPV`] to choose among, or one from
    /// [`TOP_LEVEL`] up, where the node limit alone weakens the play.
    pub fn lines(&self) -> usize {
        if self.level >= TOP_LEVEL {
            1
        } else {
            MULTIPV
        }
    }

    /// The random term's range in centipawns.
    pub fn spread(&self) -> i32 {
        let below = f64::from(MAX_LEVEL) - self.level.clamp(0.0, f64::from(MAX_LEVEL));
        (SPREAD_PER_LEVEL * below).round() as i32
    }

    /// The index of the move to play among lines scored `scores` (internal
    /// scores, side to move's view, best first; at least one).
    pub fn pick(&self, scores: &[i32]) -> usize {
        let Some(&top) = scores.iter().max() else {
            return 0;
        };
        let spread = self.spread().max(0) as u64;
        let mut rng = self.seed;
        let mut best = (i64::MIN, 0);
        for (i, &s) in scores.iter().enumerate() {
            let gap = i64::from(top) - i64::from(s);
            let u = (splitmix(&mut rng) % (spread + 1)) as i64;
            let value = u - gap;
            if value > best.0 {
                best = (value, i);
            }
        }
        best.1
    }
}

/// The next number of SplitMix64 (Steele, Lea and Flood's generator).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn levels_and_elos_map_as_documented() {
        assert_eq!(Skill::from_level(20, 1), None);
        assert_eq!(Skill::from_elo(FULL_STRENGTH_ELO, 1), None);
        assert_eq!(Skill::from_elo(ELO_MAX, 1), None);
        assert_eq!(Skill::from_elo(ELO_MIN, 1).unwrap().level, 0.0);
        assert_eq!(Skill::from_elo(1000, 1).unwrap().level, 0.0);
        // An anchor's Elo gets its level.
        for (elo, level) in ELO_LEVELS[..ELO_LEVELS.len() - 1].iter().copied() {
            assert!((Skill::from_elo(elo, 1).unwrap().level - level).abs() < 1e-9);
        }
        // The anchors rise, and end at full strength.
        assert!(ELO_LEVELS
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
        assert_eq!(ELO_LEVELS[ELO_LEVELS.len() - 1], (FULL_STRENGTH_ELO, 20.0));
        let mut last = -1.0;
        for elo in ELO_MIN..FULL_STRENGTH_ELO {
            let l = Skill::from_elo(elo, 1).unwrap().level;
            assert!(l >= last && l < 20.0, "{elo}: {l}");
            last = l;
        }
        assert_eq!(Skill::from_options(false, 1500, 20, 1), None);
        assert!(Skill::from_options(true, 1500, 20, 1).is_some());
        let l0 = Skill::from_level(0, 1).unwrap();
        let l18 = Skill::from_level(18, 1).unwrap();
        let l19 = Skill::from_level(19, 1).unwrap();
        assert_eq!((l0.nodes(), l0.spread(), l0.lines()), (1172, 200, MULTIPV));
        assert_eq!(
            (l18.nodes(), l18.spread(), l18.lines()),
            (172_305, 20, MULTIPV)
        );
        assert_eq!((l19.nodes(), l19.spread(), l19.lines()), (160_000, 10, 1));
        // Above the top regime's start the nodes double every third of a level.
        let top = Skill {
            level: 19.5,
            seed: 1,
        };
        assert_eq!(top.nodes(), (160_000.0 * 1.5f64.exp2()).round() as u64);
        assert_eq!(top.lines(), 1);
    }

    #[test]
    fn the_pick_is_random_but_never_a_blunder() {
        let scores = [50, 40, 20, -300];
        let mut seen = [0; 4];
        for seed in 0..2000 {
            let s = Skill::from_level(0, seed).unwrap();
            seen[s.pick(&scores)] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > seen[2], "{seen:?}");
        assert!(seen[1] > 0 && seen[2] > 0, "{seen:?}");
        assert_eq!(seen[3], 0, "{seen:?}");
        // A mate is always played; being mated never chosen.
        for seed in 0..200 {
            let s = Skill::from_level(0, seed).unwrap();
            assert_eq!(s.pick(&[mate_in(5), 900, 800]), 0);
            assert_ne!(s.pick(&[10, 0, mated_in(4)]), 2);
        }
        // Level 19 keeps to the best unless another is within 10 cp.
        for seed in 0..200 {
            let s = Skill::from_level(19, seed).unwrap();
            assert_eq!(s.pick(&[30, 19, 0]), 0);
        }
    }
}
