//! The generated lookup tables: the reusable API.
//!
//! Every table here is written as static Rust source by `build.rs` from the
//! generators in `codegen/`; nothing is computed at run time. Squares are numbered
//! a1 = 0, b1 = 1, ..., h8 = 63.

#![allow(clippy::unreadable_literal, clippy::large_const_arrays)]

include!(concat!(env!("OUT_DIR"), "/tables.rs"));
