//! The start-up baseline: a program that answers only `uci`, `isready` and `quit`.
//!
//! It does nothing else, so the time from spawning it to its `readyok` is the cost
//! of starting any process and talking to it through pipes. The start-up timing
//! (`tests/python/startup.py`) compares brokkr against it: brokkr builds no tables
//! at start, so it should be within a small factor of this stub.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let reply = match line.trim() {
            "uci" => "id name uci_stub\nid author the brokkr developers\nuciok",
            "isready" => "readyok",
            "quit" => break,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
