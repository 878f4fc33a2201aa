//! Board geometry: the one source of truth for squares, directions and rays.
//!
//! Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping).
//! Every generator in `codegen/` walks the board through these helpers, so the tables
//! cannot disagree about what a ray or a line is.

/// A direction as a (file, rank) step.
pub type Step = (i32, i32);

/// The eight ray directions, in the order the ray tables use:
/// north, north-east, east, south-east, south, south-west, west, north-west.
pub const DIRECTIONS: [Step; 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Names of [`DIRECTIONS`], for documentation.
pub const DIRECTION_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// Rook directions (indices into [`DIRECTIONS`]).
pub const ROOK_DIRS: [usize; 4] = [0, 2, 4, 6];
/// Bishop directions (indices into [`DIRECTIONS`]).
pub const BISHOP_DIRS: [usize; 4] = [1, 3, 5, 7];

pub const KNIGHT_STEPS: [Step; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

pub const KING_STEPS: [Step; 8] = DIRECTIONS;

pub fn file_of(sq: usize) -> i32 {
    (sq % 8) as i32
}

pub fn rank_of(sq: usize) -> i32 {
    (sq / 8) as i32
}

/// The square at (file, rank), if it is on the board.
pub fn square(file: i32, rank: i32) -> Option<usize> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as usize)
    } else {
        None
    }
}

pub fn bit(sq: usize) -> u64 {
    1u64 << sq
}

/// The square reached from `sq` by one `step`, if any.
pub fn offset(sq: usize, step: Step) -> Option<usize> {
    square(file_of(sq) + step.0, rank_of(sq) + step.1)
}

/// The squares met walking from `sq` (exclusive) in direction `step` to the edge.
pub fn walk(sq: usize, step: Step) -> Vec<usize> {
    let mut out = Vec::with_capacity(7);
    let mut cur = sq;
    while let Some(next) = offset(cur, step) {
        out.push(next);
        cur = next;
    }
    out
}

/// The full ray from `sq` in `step`, as a bitboard, excluding `sq`.
pub fn ray(sq: usize, step: Step) -> u64 {
    walk(sq, step).into_iter().fold(0, |acc, s| acc | bit(s))
}

/// Squares attacked along `step` from `sq`: empty squares up to and including the
/// first occupied one.
pub fn ray_attacks(sq: usize, step: Step, occ: u64) -> u64 {
    let mut att = 0;
    for s in walk(sq, step) {
        att |= bit(s);
        if occ & bit(s) != 0 {
            break;
        }
    }
    att
}

/// The second occupied square along `step` from `sq` (the piece behind the first
/// blocker), or 0 if there are fewer than two pieces on the ray.
pub fn ray_xray(sq: usize, step: Step, occ: u64) -> u64 {
    walk(sq, step)
        .into_iter()
        .filter(|&s| occ & bit(s) != 0)
        .nth(1)
        .map_or(0, bit)
}

pub fn slider_attacks(sq: usize, dirs: &[usize], occ: u64) -> u64 {
    dirs.iter()
        .fold(0, |acc, &d| acc | ray_attacks(sq, DIRECTIONS[d], occ))
}

pub fn rook_attacks(sq: usize, occ: u64) -> u64 {
    slider_attacks(sq, &ROOK_DIRS, occ)
}

pub fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    slider_attacks(sq, &BISHOP_DIRS, occ)
}

/// Leaper attacks from `sq` for the given steps.
pub fn leaper(sq: usize, steps: &[Step]) -> u64 {
    steps
        .iter()
        .filter_map(|&st| offset(sq, st))
        .fold(0, |acc, s| acc | bit(s))
}

/// Every subset of `mask`, in increasing order of the subset's index under a
/// parallel-bit-extract of `mask` (the carry-rippler order).
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

pub fn file_mask(file: i32) -> u64 {
    0x0101_0101_0101_0101u64 << file
}

pub fn rank_mask(rank: i32) -> u64 {
    0xFFu64 << (8 * rank)
}

/// Index of the a1-h8 diagonal through `sq`, numbered as in Gk: `7 - rank + file`
/// (0 is the one-square diagonal a8, 7 is a1-h8, 14 is h1).
pub fn diag_a1h8_index(sq: usize) -> usize {
    (7 - rank_of(sq) + file_of(sq)) as usize
}

/// Index of the h1-a8 diagonal through `sq`, numbered as in Gk: `rank + file`
/// (0 is the one-square diagonal a1, 7 is h1-a8, 14 is h8).
pub fn diag_h1a8_index(sq: usize) -> usize {
    (rank_of(sq) + file_of(sq)) as usize
}

/// The a1-h8 diagonal through `sq`, including `sq`.
pub fn diag_a1h8(sq: usize) -> u64 {
    bit(sq) | ray(sq, DIRECTIONS[1]) | ray(sq, DIRECTIONS[5])
}

/// The h1-a8 diagonal through `sq`, including `sq`.
pub fn diag_h1a8(sq: usize) -> u64 {
    bit(sq) | ray(sq, DIRECTIONS[3]) | ray(sq, DIRECTIONS[7])
}

/// A tiny deterministic PRNG (SplitMix64), so every build generates the same keys
/// and finds the same magic numbers whatever the host.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
