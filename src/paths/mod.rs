//! Which paths run: the (bit path, slider backend) pairs the search and perft
//! are built for ([`built`]), and the pair this run picks and why ([`choice`]).
//! Below the search and the commands, above the paths themselves (`bits`,
//! `attacks`, `nnue::vector`); it never touches the board or the search.
//!
//! May not touch: the search and above (the layers: docs/architecture.md).

pub mod built;
pub mod choice;

pub use built::*;
pub use choice::*;
