//! The xboard / CECP v2 dialect.

use super::Msg;
use std::sync::mpsc::{Receiver, Sender};

/// Run the xboard loop until `quit` or EOF.
pub fn run(rx: Receiver<Msg>, tx: Sender<Msg>, first: Option<String>) -> i32 {
    super::uci::run(rx, tx, first)
}
