//! Inside an iteration: counting nodes, and every so often the stop flag, the
//! node limit and the hard time limit.
//!
//! A limit reached ends the search through [`Shared::halt`], not the GUI's stop
//! flag: in `go ponder` and `go infinite` the best move must still wait for
//! `ponderhit` or `stop` (UCI forbids `bestmove` before), whatever ended the
//! search itself.
//!
//! [`Shared::halt`]: crate::search::Shared::halt

use super::Worker;
use crate::paths::Engine;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Nodes between two looks at the stop flag and the clock. With more threads
/// than cores each thread runs a fraction of the time: at 256 threads on 2
/// cores, 1,024 nodes took the main thread some 80 ms of wall time, so both the
/// clock and, after a stop, every helper were read that late (`go movetime 300`
/// answered after 0.9 s, Stockfish, which looks at every node, after 0.55 s).
/// A look costs a load and a clock read, some 25 ns every 64 nodes.
const POLL_NODES: u64 = 64;
/// Nodes between two publications of a thread's node count (a write to a line
/// other threads read) and checks of the node limit against the total.
const PUBLISH_NODES: u64 = 1024;

impl<E: Engine> Worker<'_, E> {
    /// Count a node and, every so often, look at the stop flag and the limits.
    #[inline(always)]
    pub(super) fn tick(&mut self) {
        // A node entered after the stop is left at once, not searched: counting
        // it would report more nodes than `go nodes` allowed (2,002 for 2,000,
        // from the calls a node makes before it looks at the flag again).
        if self.stopped {
            return;
        }
        self.nodes += 1;
        if let Some(n) = self.shared.limits.nodes {
            // A node limit is checked at every node on one thread, so a node-limited
            // search with Threads=1 is exactly reproducible. Depth 1 is always
            // finished (as with a time limit), so even `go nodes 1` reports a
            // line and plays a searched move.
            if self.shared.settings.threads == 1 && self.nodes >= n && self.completed_depth > 0 {
                self.shared.halt();
                self.stopped = true;
            }
        }
        if self.nodes & (POLL_NODES - 1) == 0 {
            self.poll(self.nodes & (PUBLISH_NODES - 1) == 0);
        }
    }

    /// Look at the stop flag and the clock; with `publish`, also make this
    /// thread's node count seen, and check the node limit against the total.
    #[cold]
    fn poll(&mut self, publish: bool) {
        if publish {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        }
        if self.shared.stopped() {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        let limits = self.shared.limits;
        if let Some(n) = limits.nodes.filter(|_| publish) {
            if self.shared.total_nodes() >= n && self.completed_depth > 0 {
                self.shared.halt();
                self.stopped = true;
                return;
            }
        }
        if self.pondering() || limits.infinite {
            return;
        }
        // Always finish depth 1, so there is a searched move to play.
        if self.completed_depth == 0 && self.root_depth <= 1 {
            return;
        }
        if let Some(budget) = self.shared.budget {
            if self.shared.start.elapsed() >= budget.hard {
                self.shared.halt();
                self.stopped = true;
            }
        }
    }

    /// Whether the search is a ponder search not yet told `ponderhit`.
    pub(super) fn pondering(&self) -> bool {
        self.shared.control.pondering.load(Ordering::Relaxed)
    }

    /// In `go infinite` or ponder mode the best move waits for `stop` (or
    /// `ponderhit`), even when a limit or a proven result ended the search.
    pub(super) fn wait_for_stop_if_needed(&self) {
        let c = self.shared.control;
        while !c.stop.load(Ordering::Relaxed) && (self.shared.limits.infinite || self.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
