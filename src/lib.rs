//! brokkr: a bitboard chess engine whose lookup tables are all forged at build time.

#[doc(hidden)]
#[path = "../codegen/mod.rs"]
pub mod codegen;

pub mod bits;
pub mod cli;
pub mod tables;
