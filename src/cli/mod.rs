//! The command line: `brokkr [COMMAND] [OPTIONS]`.
//!
//! Every command parses its own options and reports bad input as a clear message on
//! stderr with a non-zero exit code; nothing here panics on user input.

mod args;
mod perft;
mod tables;

pub use args::Args;

const USAGE: &str = "\
usage: brokkr [COMMAND] [OPTIONS]

commands:
  (none)              run the engine (UCI or xboard, chosen by the GUI's first command)
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

/// The bit path from `--bits`, or the best one for this CPU.
pub(crate) fn bit_path(a: &Args) -> Result<crate::bits::BitPath, String> {
    use crate::bits::{BitPath, Cpu};
    let cpu = Cpu::detect();
    match a.parsed::<BitPath>("bits")? {
        Some(p) if !p.available(&cpu) => Err(format!(
            "bit path '{p}' is not available on this CPU ({cpu})"
        )),
        Some(p) => Ok(p),
        None => Ok(BitPath::default_for(&cpu).0),
    }
}

/// The slider backend from `--slider`, or the best one for this CPU.
pub(crate) fn slider_kind(a: &Args) -> Result<crate::attacks::SliderKind, String> {
    use crate::attacks::SliderKind;
    use crate::bits::Cpu;
    let cpu = Cpu::detect();
    match a.parsed::<SliderKind>("slider")? {
        Some(k) if !k.available(&cpu) => Err(format!(
            "slider backend '{k}' is not available on this CPU ({cpu})"
        )),
        Some(k) => Ok(k),
        None => Ok(SliderKind::default_for(&cpu).0),
    }
}
