//! brokkr: a bitboard chess engine whose lookup tables are all forged at build time.

#[doc(hidden)]
#[path = "../codegen/mod.rs"]
pub mod codegen;

pub mod attacks;
pub mod bits;
pub mod board;
pub mod cli;
pub mod config;
pub mod moves;
pub mod paths;
pub mod qbb;
pub mod tables;
pub mod types;
