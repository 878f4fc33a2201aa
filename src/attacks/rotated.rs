//! Rotated bitboards, after Gk.
//!
//! A slider's attacks along one line depend only on which squares of that line are
//! occupied: eight bits at most. Gk therefore keeps, next to the normal bitboards,
//! the occupancy of every line as a byte: 8 ranks, 8 files, 15 diagonals and 15
//! anti-diagonals. The bytes are the "rotated" boards: the classical scheme stores
//! them as bitboards rotated by 90° and 45° so that each line's squares sit side by
//! side; keeping one byte per line is the same information with the shifts already
//! done. With the line byte in hand, the attack set is a single probe of a
//! `[64][256]` table (`ROTATED_*_ATTACKS[sq][occ8]`): two probes for a rook, two for
//! a bishop, and no multiplication at all.
//!
//! The price is paid in make: every square that changes occupancy flips one bit in
//! four bytes ([`Slider::toggle`]), and the bytes travel with the board when it is
//! copied. The board calls `toggle` from `put`, `remove` and `shift`, so the bytes
//! always describe the board's own occupancy.
//!
//! Queries for another occupancy ([`Slider::rook_any`], used for en passant and
//! castling, where pieces are lifted off the board for the test) cannot use the
//! kept bytes. They gather the line byte straight from the bitboard instead:
//!
//! - rank: shift the rank down to the low byte, `(occ >> (8 * rank)) as u8`;
//! - file: move the file to the a-file, keep one bit per rank, and multiply by
//!   `0x0102_0408_1020_4080`: the bit of rank `r` (at `8r`) meets the factor bit
//!   `7(8 - r)` and lands on bit `56 + r`; no two partial products share a bit, so
//!   there are no carries and the top byte is the file's byte, rank `r` at bit `r`;
//! - diagonals: mask the diagonal (at most one square per rank, each on a different
//!   file) and multiply by `0x0101_0101_0101_0101`, which adds all eight bytes into
//!   the top byte; the bits are on distinct files, so again nothing carries and bit
//!   `f` of the top byte is the diagonal's square on file `f`.
//!
//! [`Slider::state_from`] builds the whole state the same way.

use super::{Slider, SliderKind};
use crate::tables::*;

/// Rotated bitboards (Gk): attack tables indexed by incrementally kept line bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rotated;

/// The line occupancies Gk keeps: one byte per rank, file, diagonal and
/// anti-diagonal, each bit one square of the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineOccupancy {
    /// Rank `r` (0 = rank 1): bit `f` is the square on file `f`.
    pub rank: [u8; 8],
    /// File `f` (0 = a-file): bit `r` is the square on rank `r`.
    pub file: [u8; 8],
    /// The a1-h8 diagonals, numbered by `ROTATED_DIAG_A1H8_INDEX` (`7 - rank + file`):
    /// bit `f` is the diagonal's square on file `f`.
    pub diag_a1h8: [u8; 15],
    /// The h1-a8 diagonals, numbered by `ROTATED_DIAG_H1A8_INDEX` (`rank + file`):
    /// bit `f` is the diagonal's square on file `f`.
    pub diag_h1a8: [u8; 15],
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Carries the a-file's bit of rank `r` (bit `8r`) to bit `56 + r`.
const FILE_TO_TOP_BYTE: u64 = 0x0102_0408_1020_4080;
/// Adds the eight bytes into the top byte.
const SUM_BYTES: u64 = 0x0101_0101_0101_0101;

/// The byte of the rank through `sq`, read from `occ`.
#[inline(always)]
fn rank_byte(sq: usize, occ: u64) -> u8 {
    (occ >> (sq & 56)) as u8
}

/// The byte of the file through `sq`, read from `occ`.
#[inline(always)]
fn file_byte(sq: usize, occ: u64) -> u8 {
    (((occ >> (sq & 7)) & FILE_A).wrapping_mul(FILE_TO_TOP_BYTE) >> 56) as u8
}

/// The byte of the diagonal `mask` (at most one square per file), read from `occ`.
#[inline(always)]
fn diag_byte(mask: u64, occ: u64) -> u8 {
    ((occ & mask).wrapping_mul(SUM_BYTES) >> 56) as u8
}

/// The diagonal number (0..15) of `sq` in `index`.
#[inline(always)]
fn diag_index(index: &[u8; 64], sq: usize) -> usize {
    index[sq & 63] as usize
}

// Indexing is checked: `sq & 63` lets the compiler drop the square checks, a `u8`
// always fits 256 entries, and the diagonal numbers read from the generated tables
// keep one never-taken compare each. Unchecked indexing measured no faster in perft
// (within noise, on a shared 2-core EPYC), so it is not worth an `unsafe` here.

#[inline(always)]
fn rank_file(sq: usize, rank: u8, file: u8) -> u64 {
    let sq = sq & 63;
    ROTATED_RANK_ATTACKS[sq][rank as usize] | ROTATED_FILE_ATTACKS[sq][file as usize]
}

#[inline(always)]
fn diagonals(sq: usize, a1h8: u8, h1a8: u8) -> u64 {
    let sq = sq & 63;
    ROTATED_DIAG_A1H8_ATTACKS[sq][a1h8 as usize] | ROTATED_DIAG_H1A8_ATTACKS[sq][h1a8 as usize]
}

impl Slider for Rotated {
    const KIND: SliderKind = SliderKind::Rotated;
    type State = LineOccupancy;

    fn state_from(occ: u64) -> LineOccupancy {
        let mut s = LineOccupancy::default();
        for i in 0..8 {
            s.rank[i] = rank_byte(8 * i, occ);
            s.file[i] = file_byte(i, occ);
        }
        for sq in 0..64 {
            s.diag_a1h8[diag_index(&ROTATED_DIAG_A1H8_INDEX, sq)] =
                diag_byte(OLITHINK_BMASK45[sq], occ);
            s.diag_h1a8[diag_index(&ROTATED_DIAG_H1A8_INDEX, sq)] =
                diag_byte(OLITHINK_BMASK135[sq], occ);
        }
        s
    }

    #[inline(always)]
    fn toggle(s: &mut LineOccupancy, sq: usize) {
        let sq = sq & 63;
        let (rank, file) = (sq >> 3, sq & 7);
        s.rank[rank] ^= 1 << file;
        s.file[file] ^= 1 << rank;
        s.diag_a1h8[diag_index(&ROTATED_DIAG_A1H8_INDEX, sq)] ^= 1 << file;
        s.diag_h1a8[diag_index(&ROTATED_DIAG_H1A8_INDEX, sq)] ^= 1 << file;
    }

    #[inline(always)]
    fn rook(s: &LineOccupancy, sq: usize, _occ: u64) -> u64 {
        rank_file(sq, s.rank[(sq >> 3) & 7], s.file[sq & 7])
    }

    #[inline(always)]
    fn bishop(s: &LineOccupancy, sq: usize, _occ: u64) -> u64 {
        let a = s.diag_a1h8[diag_index(&ROTATED_DIAG_A1H8_INDEX, sq)];
        let h = s.diag_h1a8[diag_index(&ROTATED_DIAG_H1A8_INDEX, sq)];
        diagonals(sq, a, h)
    }

    #[inline(always)]
    fn rook_any(sq: usize, occ: u64) -> u64 {
        rank_file(sq, rank_byte(sq, occ), file_byte(sq, occ))
    }

    #[inline(always)]
    fn bishop_any(sq: usize, occ: u64) -> u64 {
        let sq = sq & 63;
        diagonals(
            sq,
            diag_byte(OLITHINK_BMASK45[sq], occ),
            diag_byte(OLITHINK_BMASK135[sq], occ),
        )
    }
}
