//! brokkr's table generators: std only, no engine types.
//!
//! `build.rs` runs them to write `OUT_DIR/tables.rs`; `brokkr tables` runs the same
//! generators to export the tables as standalone Rust or C, so there is one source of
//! truth for every table.

#![allow(dead_code)]

pub mod bitscan;
pub mod emit;
pub mod geometry;
pub mod leapers;
pub mod magic;
pub mod masks;
pub mod olithink;
pub mod polyglot;
pub mod pseudo;
pub mod rotated;
pub mod table;
pub mod zobrist;

pub use table::Table;

/// Every table, in a fixed order.
pub fn all_tables() -> Vec<Table> {
    let mut all = Vec::new();
    all.extend(rotated::tables());
    all.extend(bitscan::tables());
    all.extend(olithink::tables());
    all.extend(magic::tables());
    all.extend(leapers::tables());
    all.extend(pseudo::tables());
    all.extend(masks::tables());
    all.extend(zobrist::tables());
    all.extend(polyglot::tables());
    all
}
