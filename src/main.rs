//! The `brokkr` command: the protocol loop by default, and tools for engine authors.

#![warn(clippy::undocumented_unsafe_blocks)]

fn main() {
    restore_sigpipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(brokkr::cli::run(&args));
}

/// Rust ignores SIGPIPE, which turns `brokkr perft 6 | head` into a panic on the
/// next print; a command-line tool should just stop, as C programs do.
fn restore_sigpipe() {
    #[cfg(unix)]
    {
        extern "C" {
            fn signal(signum: i32, handler: usize) -> usize;
        }
        const SIGPIPE: i32 = 13;
        const SIG_DFL: usize = 0;
        // SAFETY: signal() with SIG_DFL installs no Rust code as a handler; it only
        // restores the default disposition, before any thread is started.
        unsafe {
            signal(SIGPIPE, SIG_DFL);
        }
    }
}
