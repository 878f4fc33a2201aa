//! The command line: `brokkr [COMMAND] [OPTIONS]`.
//!
//! Every command parses its own options and reports bad input as a clear message on
//! stderr with a non-zero exit code; nothing here panics on user input.

mod args;
mod eval;
mod paths;
mod perft;
mod tables;
mod tune;

pub use args::Args;

const USAGE: &str = "\
usage: brokkr [COMMAND] [OPTIONS]

commands:
  (none)              print this usage (the UCI/xboard loop comes with the search)
  perft DEPTH         count leaf nodes (see `brokkr perft --help`)
  paths               measure every bitscan path and slider backend on this CPU
  tables              list or export the generated tables (see `brokkr tables --help`)
  help                show this message";

/// Run the command line `args` (without the program name); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return 0;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "perft" => perft::run(rest),
        "eval" | "tune" => eval::dispatch(cmd, rest),
        "paths" => paths::run(rest),
        "tables" => tables::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("brokkr: {msg}");
            2
        }
    }
}

/// The bit path and slider backend: `--bits`/`--slider` if given, else the
/// config file written by `brokkr paths --save`, else the CPU's default.
pub(crate) fn choice(a: &Args) -> Result<crate::config::Choice, String> {
    use crate::attacks::SliderKind;
    use crate::bits::{BitPath, Cpu};
    let cpu = Cpu::detect();
    let bits = a.parsed::<BitPath>("bits")?;
    if let Some(p) = bits.filter(|p| !p.available(&cpu)) {
        return Err(format!(
            "bit path '{p}' is not available on this CPU ({cpu})"
        ));
    }
    let slider = a.parsed::<SliderKind>("slider")?;
    if let Some(k) = slider.filter(|k| !k.available(&cpu)) {
        return Err(format!(
            "slider backend '{k}' is not available on this CPU ({cpu})"
        ));
    }
    let choice = crate::config::Choice::resolve(&cpu, bits, slider);
    for w in &choice.warnings {
        eprintln!("brokkr: warning: {w} (ignored)");
    }
    Ok(choice)
}
