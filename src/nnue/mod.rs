//! The network: an efficiently updatable neural network (NNUE) evaluation.
//!
//! 768 inputs per perspective ([`features`]) → a hidden layer of `H` neurons per
//! perspective (the accumulator, `i16`) → squared clipped ReLU → one output per
//! material bucket. The file format is in [`crate::codegen::net`].

pub mod accumulator;
pub mod features;
pub mod marlin;
pub mod network;
pub mod train;
pub mod vector;

pub use accumulator::{evaluate_fresh, evaluate_on, Accumulator, Delta, Stack};
pub use network::Network;
pub use vector::{Vector, VectorPath};
