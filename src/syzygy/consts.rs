//! The constant tables of the Syzygy index scheme, every one computed by a
//! `const fn` at compile time.
//!
//! Squares are numbered a1 = 0 ... h8 = 63. A pawnless position is normalised by
//! the board's symmetries so that its first piece lies in the triangle a1-d1-d4;
//! a position with pawns only by the left-right mirror, with its leading pawn on
//! files a to d.

/// The most pieces a Syzygy table holds.
pub const MAX_PIECES: usize = 7;

/// The rank minus the file of a square: 0 on the a1-h8 diagonal, above it
/// positive.
pub const fn off_diag(sq: usize) -> i32 {
    (sq >> 3) as i32 - (sq & 7) as i32
}

/// The reflection of a square in the a1-h8 diagonal.
pub const fn flip_diag(sq: usize) -> usize {
    ((sq >> 3) | (sq << 3)) & 63
}

/// `n` choose `k` for `k < 7`, `n < 64` (0 when `k > n`).
pub const BINOMIAL: [[u64; 64]; MAX_PIECES] = {
    let mut t = [[0u64; 64]; MAX_PIECES];
    let mut k = 0;
    while k < MAX_PIECES {
        let mut n = 0;
        while n < 64 {
            // n (n-1) ... (n-k+1) / k!, built up one factor at a time so every
            // intermediate quotient is exact.
            let mut v: u64 = 1;
            let mut i = 0;
            while i < k {
                if n < i {
                    v = 0;
                    break;
                }
                v = v * (n - i) as u64 / (i + 1) as u64;
                i += 1;
            }
            t[k][n] = v;
            n += 1;
        }
        k += 1;
    }
    t
};

/// `n` choose `k`, 0 outside the table (`k > 6`, `n > 63` or `k > n`).
#[inline]
pub fn binomial(n: usize, k: usize) -> u64 {
    BINOMIAL
        .get(k)
        .and_then(|row| row.get(n))
        .copied()
        .unwrap_or(0)
}

/// The ten squares of the triangle a1-d1-d4 in the order the index numbers them:
/// the six off the diagonal (b1, c1, d1, c2, d2, d3), then the four on it (a1,
/// b2, c3, d4).
pub const INV_TRIANGLE: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// For every square, the number (0..10) of the triangle square it maps to under
/// the board's eight symmetries.
pub const TRIANGLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        // Fold into the a1-d4 quadrant, then below the diagonal.
        let mut f = sq & 7;
        let mut r = sq >> 3;
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let x = f;
            f = r;
            r = x;
        }
        let folded = r * 8 + f;
        let mut i = 0;
        while i < 10 {
            if INV_TRIANGLE[i] == folded {
                t[sq] = i as u8;
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Squares strictly below the a1-h8 diagonal numbered 0..28 in square order;
/// the diagonal's squares 28..36.
pub const LOWER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut n = 0;
    let mut sq = 0;
    while sq < 64 {
        if (sq >> 3) < (sq & 7) {
            t[sq] = n;
            t[flip_diag(sq)] = n;
            n += 1;
        }
        sq += 1;
    }
    let mut d = 0;
    while d < 8 {
        t[d * 9] = 28 + d as u8;
        d += 1;
    }
    t
};

/// Squares on the a1-h8 diagonal numbered 0..8 from a1, on the a8-h1 diagonal
/// 8..16 from h1 (these are the diagonal squares of the triangle's images).
pub const DIAG: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut d = 0;
    while d < 8 {
        t[d * 9] = d as u8;
        // h1 = 7, g2 = 14, ..., a8 = 56.
        t[7 * (d + 1)] = 8 + d as u8;
        d += 1;
    }
    t
};

/// Whether two squares are equal or a king's step apart.
const fn near(a: usize, b: usize) -> bool {
    let df = (a & 7) as i32 - (b & 7) as i32;
    let dr = (a >> 3) as i32 - (b >> 3) as i32;
    df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

/// The number of two-king placements (first king in the triangle, up to the
/// diagonal reflection when it stands on the diagonal).
pub const KK_COUNT: u64 = 462;

/// The index (0..462) of two kings, the first on triangle square `t` (0..10),
/// the second on a square; -1 where the placement is illegal (kings touching) or
/// is reduced to another by the diagonal reflection.
///
/// Numbered: the six off-diagonal first squares with every legal second square
/// in square order; then the four diagonal first squares with the second king
/// strictly below the diagonal; last those four with the second king on it.
pub const KK_IDX: [[i16; 64]; 10] = {
    let mut t = [[-1i16; 64]; 10];
    let mut n: i16 = 0;
    let mut i = 0;
    while i < 6 {
        let k = INV_TRIANGLE[i];
        let mut sq = 0;
        while sq < 64 {
            if !near(k, sq) {
                t[i][sq] = n;
                n += 1;
            }
            sq += 1;
        }
        i += 1;
    }
    let mut i = 6;
    while i < 10 {
        let k = INV_TRIANGLE[i];
        let mut sq = 0;
        while sq < 64 {
            if !near(k, sq) && off_diag(sq) < 0 {
                t[i][sq] = n;
                n += 1;
            }
            sq += 1;
        }
        i += 1;
    }
    let mut i = 6;
    while i < 10 {
        let k = INV_TRIANGLE[i];
        let mut sq = 0;
        while sq < 64 {
            if !near(k, sq) && off_diag(sq) == 0 {
                t[i][sq] = n;
                n += 1;
            }
            sq += 1;
        }
        i += 1;
    }
    t
};

/// The pawn squares a2..d7 in the order the leading pawn is numbered: file a
/// from rank 2 up, then files b, c, d.
pub const INV_FLAP: [usize; 24] = {
    let mut t = [0usize; 24];
    let mut f = 0;
    while f < 4 {
        let mut r = 0;
        while r < 6 {
            t[f * 6 + r] = 8 * (r + 1) + f;
            r += 1;
        }
        f += 1;
    }
    t
};

/// For a pawn square on files a..d, its position in [`INV_FLAP`]; the e..h
/// files take their mirror's number.
pub const FLAP: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let mut f = sq & 7;
        if f > 3 {
            f = 7 - f;
        }
        t[sq] = (f * 6 + (sq >> 3) - 1) as u8;
        sq += 1;
    }
    t
};

/// The order (0..48) of the non-leading pawns of the leading colour: by file
/// pair from the centre out (d/e lowest), within a pair by rank (the 7th
/// lowest), the king-side file one below its queen-side mirror.
pub const PTWIST: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = sq & 7;
        let r = sq >> 3;
        // Two numbers per rank, falling by rank; within a rank the wing
        // files first, the queen side one above its king-side mirror.
        let centre = if f < 4 { f } else { 7 - f };
        let side = if f < 4 { 1 } else { 0 };
        t[sq] = ((3 - centre) * 12 + 10 + side - 2 * (r - 1)) as u8;
        sq += 1;
    }
    t
};

/// The folded file (a..d) of each file.
pub const FILE_TO_FILE: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// The number of placements of `k + 1` leading pawns (`k` in 0..5) with the
/// leading one on each [`FLAP`] number, summed up to it: `PAWN_IDX[k][j]` is the
/// first index of leading square `j`.
pub const PAWN_IDX: [[u64; 24]; 5] = pawn_tables().0;

/// The number of placements of `k + 1` leading pawns with the leading one on
/// each folded file (a..d).
pub const PAWN_FACTOR: [[u64; 4]; 5] = pawn_tables().1;

const fn pawn_tables() -> ([[u64; 24]; 5], [[u64; 4]; 5]) {
    let mut idx = [[0u64; 24]; 5];
    let mut fac = [[0u64; 4]; 5];
    let mut k = 0;
    while k < 5 {
        let mut file = 0;
        while file < 4 {
            let mut s = 0u64;
            let mut j = file * 6;
            while j < file * 6 + 6 {
                idx[k][j] = s;
                s += if k == 0 {
                    1
                } else {
                    BINOMIAL[k][PTWIST[INV_FLAP[j]] as usize]
                };
                j += 1;
            }
            fac[k][file] = s;
            file += 1;
        }
        k += 1;
    }
    (idx, fac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_known_values() {
        // Spot values of the scheme's published tables.
        assert_eq!(TRIANGLE[0], 6);
        assert_eq!(TRIANGLE[1], 0);
        assert_eq!(TRIANGLE[27], 9);
        assert_eq!(TRIANGLE[63], 6);
        assert_eq!(TRIANGLE[36], 9);
        assert_eq!(LOWER[0], 28);
        assert_eq!(LOWER[1], 0);
        assert_eq!(LOWER[8], 0);
        assert_eq!(LOWER[62], 27);
        assert_eq!(DIAG[7], 8);
        assert_eq!(DIAG[56], 15);
        assert_eq!(DIAG[28], 11);
        assert_eq!(DIAG[35], 12);
        assert_eq!(KK_IDX[0][3], 0);
        assert_eq!(KK_IDX[6][2], 339);
        assert_eq!(KK_IDX[6][18], 441);
        assert_eq!(KK_IDX[9][63], 461);
        assert_eq!(KK_IDX[9][1], 416);
        assert_eq!(FLAP[8], 0);
        assert_eq!(FLAP[9], 6);
        assert_eq!(FLAP[14], 6);
        assert_eq!(FLAP[51], 23);
        assert_eq!(PTWIST[8], 47);
        assert_eq!(PTWIST[11], 11);
        assert_eq!(PTWIST[12], 10);
        assert_eq!(PTWIST[52], 0);
        assert_eq!(PTWIST[51], 1);
        assert_eq!(PTWIST[55], 36);
        assert_eq!(BINOMIAL[3][10], 120);
        assert_eq!(binomial(5, 6), 0);
    }
}
