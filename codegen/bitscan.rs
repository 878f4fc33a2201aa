//! Gk's 16-bit bitscan tables and a 16-bit popcount table.

use super::table::{Elem, Table};

pub fn tables() -> Vec<Table> {
    const ORIGIN: &str = "Gk (16-bit bitscan tables)";
    let first = (0..65536u32)
        .map(|v| if v == 0 { 16 } else { 31 - v.leading_zeros() } as u64)
        .collect();
    let last = (0..65536u32)
        .map(|v| if v == 0 { 16 } else { v.trailing_zeros() } as u64)
        .collect();
    let pop = (0..65536u32).map(|v| v.count_ones() as u64).collect();
    vec![
        Table::new(
            "FIRST_ONE",
            Elem::U8,
            &[65536],
            ORIGIN,
            "Index (0-15) of the most significant set bit of a 16-bit value, indexed \
             `[v]`: Gk's FirstOne, which scans from the top. Entry 0 (no bit set) holds \
             16. For a 64-bit word, look up its highest non-zero 16-bit part and add the \
             part's offset (0, 16, 32 or 48).\n\
             ```rust\n\
             assert_eq!(FIRST_ONE[0b0010_0100], 5);\n\
             assert_eq!(FIRST_ONE[0xFFFF], 15);\n\
             assert_eq!(FIRST_ONE[0], 16); // no bit set\n\
             // The most significant bit of a 64-bit word with bits 8 and 34 set:\n\
             let b: u64 = 1 << 8 | 1 << 34;\n\
             let part = (b >> 32 & 0xFFFF) as usize; // the highest non-zero part\n\
             assert_eq!(32 + FIRST_ONE[part] as u32, 63 - b.leading_zeros());\n\
             ```",
            first,
        ),
        Table::new(
            "LAST_ONE",
            Elem::U8,
            &[65536],
            ORIGIN,
            "Index (0-15) of the least significant set bit of a 16-bit value, indexed \
             `[v]`: Gk's LastOne, which scans from the bottom. Entry 0 (no bit set) \
             holds 16. For a 64-bit word, look up its lowest non-zero 16-bit part and \
             add the part's offset (0, 16, 32 or 48).\n\
             ```rust\n\
             assert_eq!(LAST_ONE[0b0010_0100], 2);\n\
             assert_eq!(LAST_ONE[0x8000], 15);\n\
             assert_eq!(LAST_ONE[0], 16); // no bit set\n\
             // The least significant bit of a 64-bit word with bits 20 and 50 set:\n\
             let b: u64 = 1 << 20 | 1 << 50;\n\
             let part = (b >> 16 & 0xFFFF) as usize; // the lowest non-zero part\n\
             assert_eq!(16 + LAST_ONE[part] as u32, b.trailing_zeros());\n\
             ```",
            last,
        ),
        Table::new(
            "POPCOUNT_16",
            Elem::U8,
            &[65536],
            ORIGIN,
            "Number of set bits of a 16-bit value, indexed `[v]`. A 64-bit popcount is \
             the sum of the entries of its four 16-bit parts.\n\
             ```rust\n\
             assert_eq!(POPCOUNT_16[0b1011], 3);\n\
             let b: u64 = 0xF0F0_0000_0001_8001;\n\
             let count: u32 = (0..4).map(|i| POPCOUNT_16[(b >> (16 * i) & 0xFFFF) as usize] as u32).sum();\n\
             assert_eq!(count, b.count_ones());\n\
             ```",
            pop,
        ),
    ]
}
