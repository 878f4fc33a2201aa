//! Fancy magic bitboards and PEXT tables for rook and bishop attacks.
//!
//! Magic numbers are searched here, at build time, with a fixed seed, so the output
//! is identical on every build. PEXT needs no numbers: its index is the parallel bit
//! extract of the occupancy under the mask, which is the carry-rippler subset order.

use super::geometry::*;
use super::table::{Elem, Table};

/// The relevant-occupancy mask: the slider's empty-board rays without their last
/// square, since a piece on the edge blocks nothing further.
fn mask(sq: usize, dirs: &[usize]) -> u64 {
    dirs.iter().fold(0, |acc, &d| {
        let squares = walk(sq, DIRECTIONS[d]);
        let n = squares.len().saturating_sub(1);
        squares[..n].iter().fold(acc, |a, &s| a | bit(s))
    })
}

/// Find a magic for one square: a multiplier that maps every subset of `mask` to a
/// slot of a `1 << bits` table without a destructive collision.
fn find_magic(rng: &mut SplitMix64, mask: u64, occs: &[u64], atts: &[u64]) -> u64 {
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let mut used = vec![0u64; 1 << bits];
    let mut epoch = vec![0u32; 1 << bits];
    for attempt in 1u32.. {
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let ok = occs.iter().zip(atts).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                used[idx] = att;
                true
            } else {
                used[idx] == att
            }
        });
        if ok {
            return magic;
        }
    }
    unreachable!()
}

struct Slider {
    masks: Vec<u64>,
    magics: Vec<u64>,
    shifts: Vec<u64>,
    offsets: Vec<u64>,
    magic_attacks: Vec<u64>,
    pext_attacks: Vec<u64>,
}

fn build(dirs: &[usize], seed: u64) -> Slider {
    let mut rng = SplitMix64(seed);
    let mut s = Slider {
        masks: vec![],
        magics: vec![],
        shifts: vec![],
        offsets: vec![],
        magic_attacks: vec![],
        pext_attacks: vec![],
    };
    for sq in 0..64 {
        let m = mask(sq, dirs);
        let occs = subsets(m);
        let atts: Vec<u64> = occs.iter().map(|&o| slider_attacks(sq, dirs, o)).collect();
        let magic = find_magic(&mut rng, m, &occs, &atts);
        let shift = 64 - m.count_ones();
        let mut slots = vec![0u64; occs.len()];
        for (&o, &a) in occs.iter().zip(&atts) {
            slots[(o.wrapping_mul(magic) >> shift) as usize] = a;
        }
        s.offsets.push(s.magic_attacks.len() as u64);
        s.masks.push(m);
        s.magics.push(magic);
        s.shifts.push(shift as u64);
        s.magic_attacks.extend(slots);
        // Carry-rippler order is PEXT order: subset i is pdep(i, mask).
        s.pext_attacks.extend(atts);
    }
    s
}

pub fn tables() -> Vec<Table> {
    const MAGIC: &str = "fancy magic bitboards (modern engines)";
    const PEXT: &str = "BMI2 PEXT indexing (modern engines)";
    let rook = build(&ROOK_DIRS, 0x524F_4F4B_0000_0001);
    let bishop = build(&BISHOP_DIRS, 0x4249_5348_0000_0001);
    let mut out = Vec::new();
    for (piece, name, s) in [("rook", "ROOK", rook), ("bishop", "BISHOP", bishop)] {
        let n = s.magic_attacks.len();
        out.push(Table::new(
            format!("{name}_MASK"),
            Elem::U64,
            &[64],
            MAGIC,
            format!(
                "Relevant occupancy for a {piece} on `sq`: its empty-board rays without \
                 the edge squares. Shared by the magic and PEXT indexing."
            ),
            s.masks,
        ));
        out.push(Table::new(
            format!("{name}_OFFSET"),
            Elem::U32,
            &[64],
            MAGIC,
            format!(
                "Start of square `sq`'s block in {name}_MAGIC_ATTACKS and \
                 {name}_PEXT_ATTACKS (each block has `1 << popcount({name}_MASK[sq])` entries)."
            ),
            s.offsets,
        ));
        out.push(Table::new(
            format!("{name}_MAGIC"),
            Elem::U64,
            &[64],
            MAGIC,
            format!("Magic multiplier for a {piece} on `sq` (found at build time, fixed seed)."),
            s.magics,
        ));
        out.push(Table::new(
            format!("{name}_SHIFT"),
            Elem::U8,
            &[64],
            MAGIC,
            format!("Right shift for a {piece} on `sq`: `64 - popcount({name}_MASK[sq])`."),
            s.shifts,
        ));
        out.push(Table::new(
            format!("{name}_MAGIC_ATTACKS"),
            Elem::U64,
            &[n],
            MAGIC,
            format!(
                "{piece} attack sets: entry `{name}_OFFSET[sq] + (((occ & {name}_MASK[sq]) \
                 * {name}_MAGIC[sq]) >> {name}_SHIFT[sq])`."
            ),
            s.magic_attacks,
        ));
        out.push(Table::new(
            format!("{name}_PEXT_ATTACKS"),
            Elem::U64,
            &[n],
            PEXT,
            format!("{piece} attack sets: entry `{name}_OFFSET[sq] + pext(occ, {name}_MASK[sq])`."),
            s.pext_attacks,
        ));
    }
    out
}
