//! brokkr: a bitboard chess engine whose lookup tables are all forged at build time.
// Every `unsafe` block states why it is sound, one comment per block (as
// Viridithas requires in its crate root): CI's `clippy -D warnings` enforces it.
#![warn(clippy::undocumented_unsafe_blocks)]

#[doc(hidden)]
#[path = "../codegen/mod.rs"]
pub mod codegen;

pub mod attacks;
pub mod bits;
pub mod board;
pub mod book;
pub mod cli;
pub mod eval;
pub mod frontend;
pub mod measure;
pub mod moves;
pub mod nnue;
pub mod paths;
pub mod protocol;
pub mod qbb;
pub mod search;
pub mod syzygy;
pub mod tables;
pub mod types;
pub mod win_rate;
