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

/// A compile-time assertion, in Rust source, that every square's block of the
/// `{name}` attack tables lies inside them: `offset + 2^bits <= len` for both the
/// magic and the PEXT table (`len` entries each), with `bits = 64 - shift` equal to
/// the popcount of the square's mask.
///
/// The magic backend loads `{name}_MAGIC_ATTACKS[offset + index]` without a
/// bounds check, and the PEXT backend `{name}_PEXT_ATTACKS[offset + index]`. A
/// magic index is a 64-bit product shifted right by `shift`, so it is below
/// `2^(64 - shift)` whatever the occupancy, magic or collisions; a PEXT index has
/// `popcount(mask)` bits. So the loads are in bounds exactly when this holds, and
/// the check reads the emitted arrays themselves: a wrong offset, shift or mask in
/// the generated source fails the build, whoever wrote it.
fn bounds_check(name: &str, len: usize) -> String {
    format!(
        "// Every square's block of {name}_MAGIC_ATTACKS and {name}_PEXT_ATTACKS lies inside\n\
         // the table ({len} entries), so the unchecked loads of the magic and pext backends\n\
         // stay in bounds: a magic index is below 2^(64 - shift), a pext index below\n\
         // 2^popcount(mask), and these are equal.\n\
         const _: () = {{\n\
         \x20   let mut sq = 0;\n\
         \x20   while sq < 64 {{\n\
         \x20       let shift = {name}_SHIFT[sq] as u32;\n\
         \x20       assert!(shift >= 1 && shift <= 63, \"{name}_SHIFT out of 1..=63\");\n\
         \x20       let bits = 64 - shift;\n\
         \x20       assert!(\n\
         \x20           {name}_MASK[sq].count_ones() == bits,\n\
         \x20           \"{name}_SHIFT disagrees with the popcount of {name}_MASK\"\n\
         \x20       );\n\
         \x20       let end = {name}_OFFSET[sq] as u64 + (1u64 << bits);\n\
         \x20       assert!(\n\
         \x20           end <= {name}_MAGIC_ATTACKS.len() as u64\n\
         \x20               && end <= {name}_PEXT_ATTACKS.len() as u64,\n\
         \x20           \"a {name}_OFFSET block overruns the attack tables\"\n\
         \x20       );\n\
         \x20       sq += 1;\n\
         \x20   }}\n\
         }};"
    )
}

/// Values for the documentation examples of one slider.
struct Example {
    pieces: &'static str,
    occ: &'static str,
    attacks: &'static str,
    mask_a1: &'static str,
    bits_a1: u32,
}

pub fn tables() -> Vec<Table> {
    const MAGIC: &str = "fancy magic bitboards (modern engines)";
    const PEXT: &str = "BMI2 PEXT indexing (modern engines)";
    let rook = build(&ROOK_DIRS, 0x524F_4F4B_0000_0001);
    let bishop = build(&BISHOP_DIRS, 0x4249_5348_0000_0001);
    let mut out = Vec::new();
    // For the doc examples: a slider on d4 among a few pieces, its attacks, and the
    // relevant mask of a1 with its bit count.
    let rook_ex = Example {
        pieces: "b4 and d7",
        occ: "1 << 25 | 1 << 51",
        attacks: "0x0008_0808_F608_0808",
        mask_a1: "0x0001_0101_0101_017E",
        bits_a1: 12,
    };
    let bishop_ex = Example {
        pieces: "b2 and f6",
        occ: "1 << 9 | 1 << 45",
        attacks: "0x0001_2214_0014_2240",
        mask_a1: "0x0040_2010_0804_0200",
        bits_a1: 6,
    };
    for (piece, name, s, ex) in [
        ("rook", "ROOK", rook, rook_ex),
        ("bishop", "BISHOP", bishop, bishop_ex),
    ] {
        let n = s.magic_attacks.len();
        let Example {
            pieces,
            occ,
            attacks,
            mask_a1,
            bits_a1,
        } = ex;
        // The full magic lookup, shown with each of the four small tables.
        let magic_example = format!(
            "```rust\n\
             // A {piece} on d4 (square 27) with pieces on {pieces}.\n\
             let (sq, occ): (usize, u64) = (27, {occ});\n\
             let index = ((occ & {name}_MASK[sq]).wrapping_mul({name}_MAGIC[sq])\n\
             \x20   >> {name}_SHIFT[sq]) as usize;\n\
             let attacks = {name}_MAGIC_ATTACKS[{name}_OFFSET[sq] as usize + index];\n\
             assert_eq!(attacks, {attacks});\n\
             ```"
        );
        out.push(Table::new(
            format!("{name}_MASK"),
            Elem::U64,
            &[64],
            MAGIC,
            format!(
                "Relevant occupancy for a {piece} on `sq`, indexed `[sq]`: its empty-board \
                 rays without their last (edge) square, since a piece there blocks \
                 nothing further. Shared by the magic and PEXT indexing: only the \
                 occupancy under this mask selects an entry.\n\
                 ```rust\n\
                 assert_eq!({name}_MASK[0], {mask_a1}); // a1\n\
                 assert_eq!({name}_MASK[0].count_ones(), {bits_a1});\n\
                 ```"
            ),
            s.masks,
        ));
        out.push(
            Table::new(
                format!("{name}_OFFSET"),
                Elem::U32,
                &[64],
                MAGIC,
                format!(
                    "Start of square `sq`'s block in {name}_MAGIC_ATTACKS and \
                 {name}_PEXT_ATTACKS, indexed `[sq]`. The blocks are laid out square \
                 after square; each has `1 << popcount({name}_MASK[sq])` entries.\n\
                 ```rust\n\
                 assert_eq!({name}_OFFSET[0], 0);\n\
                 assert_eq!({name}_OFFSET[1], 1 << {name}_MASK[0].count_ones());\n\
                 ```"
                ),
                s.offsets,
            )
            .with_check(bounds_check(name, n)),
        );
        out.push(Table::new(
            format!("{name}_MAGIC"),
            Elem::U64,
            &[64],
            MAGIC,
            format!(
                "Magic multiplier for a {piece} on `sq`, indexed `[sq]`: \
                 `((occ & {name}_MASK[sq]) * {name}_MAGIC[sq]) >> {name}_SHIFT[sq]` (the \
                 product modulo 2^64) numbers the relevant occupancies so that \
                 occupancies with different attack sets never share an entry. Found at \
                 build time by a seeded random search, so it is the same on every build; \
                 these are brokkr's own numbers, not those of any other engine.\n\
                 {magic_example}"
            ),
            s.magics,
        ));
        out.push(Table::new(
            format!("{name}_SHIFT"),
            Elem::U8,
            &[64],
            MAGIC,
            format!(
                "Right shift for a {piece} on `sq`, indexed `[sq]`: \
                 `64 - popcount({name}_MASK[sq])`, so the magic index has as many bits \
                 as the mask.\n\
                 ```rust\n\
                 assert_eq!({name}_SHIFT[0], 64 - {bits_a1}); // a1\n\
                 assert_eq!({name}_SHIFT[27] as u32, 64 - {name}_MASK[27].count_ones());\n\
                 ```"
            ),
            s.shifts,
        ));
        out.push(Table::new(
            format!("{name}_MAGIC_ATTACKS"),
            Elem::U64,
            &[n],
            MAGIC,
            format!(
                "Attack sets for fancy magic indexing, indexed \
                 `{name}_OFFSET[sq] + (((occ & {name}_MASK[sq]) * {name}_MAGIC[sq]) >> \
                 {name}_SHIFT[sq])` (the product modulo 2^64) for a {piece} on `sq` and \
                 the board occupancy `occ`: each entry holds the squares the {piece} \
                 attacks: the empty squares up to and including the first blocker in \
                 each direction.\n\
                 {magic_example}"
            ),
            s.magic_attacks,
        ));
        out.push(Table::new(
            format!("{name}_PEXT_ATTACKS"),
            Elem::U64,
            &[n],
            PEXT,
            format!(
                "Attack sets for PEXT indexing, indexed \
                 `{name}_OFFSET[sq] + pext(occ, {name}_MASK[sq])` for a {piece} on `sq` \
                 and the board occupancy `occ`: each entry holds the squares the {piece} \
                 attacks, as in {name}_MAGIC_ATTACKS but in another order. `pext` is \
                 the BMI2 parallel bit extract (`_pext_u64`): the bits of `occ` under \
                 the mask, packed from bit 0 up. It is fast on Intel Haswell and later \
                 and AMD Zen 3 and later; earlier Zen parts implement it in microcode.\n\
                 ```rust\n\
                 // A {piece} on d4 (square 27) with pieces on {pieces}.\n\
                 let (sq, occ): (usize, u64) = (27, {occ});\n\
                 // pext in software: bit i of the index is occ's bit on the mask's i-th square.\n\
                 let mask = {name}_MASK[sq];\n\
                 let index = (0..64)\n\
                 \x20   .filter(|&s| mask >> s & 1 != 0)\n\
                 \x20   .enumerate()\n\
                 \x20   .fold(0, |acc, (i, s)| acc | (occ >> s & 1) << i);\n\
                 let attacks = {name}_PEXT_ATTACKS[{name}_OFFSET[sq] as usize + index as usize];\n\
                 assert_eq!(attacks, {attacks});\n\
                 ```"
            ),
            s.pext_attacks,
        ));
    }
    out
}
