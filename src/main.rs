//! The `brokkr` command: the protocol loop by default, and tools for engine authors.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(brokkr::cli::run(&args));
}
