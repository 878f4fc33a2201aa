//! The network: an efficiently updatable neural network (NNUE) evaluation.
//!
//! May not touch: the search and above (the layers: docs/architecture.md).
//!
//! 768 inputs per perspective ([`features`]) → a hidden layer of `H` neurons per
//! perspective (the accumulator, `i16`) → squared clipped ReLU → one output per
//! material bucket. The file format is in [`crate::nnue::file`].

pub mod accumulator;
pub mod features;
pub mod file;
pub mod marlin;
pub mod network;
pub mod train;
pub mod vector;

pub use accumulator::{evaluate_fresh, evaluate_on, Accumulator, Delta, Stack};
pub use network::Network;
pub use vector::{Vector, VectorPath};
