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
            "Index (0-15) of the most significant set bit of a 16-bit value: Gk's \
             FirstOne, which scans in reverse. Index 0 (no bit set) holds 16.",
            first,
        ),
        Table::new(
            "LAST_ONE",
            Elem::U8,
            &[65536],
            ORIGIN,
            "Index (0-15) of the least significant set bit of a 16-bit value: Gk's \
             LastOne, which scans forward. Index 0 (no bit set) holds 16.",
            last,
        ),
        Table::new(
            "POPCOUNT_16",
            Elem::U8,
            &[65536],
            ORIGIN,
            "Number of set bits of a 16-bit value.",
            pop,
        ),
    ]
}
