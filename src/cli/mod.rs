//! The command line: `brokkr [COMMAND] [OPTIONS]`.
//!
//! May not touch: nothing is above it; it only parses, dispatches and prints (the layers: docs/architecture.md).
//!
//! Every command parses its own options and reports bad input as a clear message on
//! stderr with a non-zero exit code; nothing here panics on user input. Commands
//! write their results through a `&mut dyn Write` whose errors they pass on, so a
//! full disk or a closed pipe is reported (`brokkr: cannot write output: ...`)
//! instead of aborting in `println!`.
//!
//! A command is one row of [`COMMANDS`]: its name, a one-line summary for the
//! usage, its help text and the function that runs it. `-h`/`--help` after any
//! command and `brokkr help COMMAND` print the help text, so a new command gets
//! both by adding its row.

/// `writeln!` to a command's output, turning a write error into the command's
/// error message (see [`write_error`]).
macro_rules! say {
    ($out:expr) => {
        writeln!($out).map_err($crate::cli::write_error)?
    };
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err($crate::cli::write_error)?
    };
}

/// `eprint!` that ignores a failed write: a message to a closed or full stderr
/// has nowhere else to go, and must not turn into a panic.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprintln!` that ignores a failed write, as [`note!`].
macro_rules! noteln {
    () => {
        note!("\n")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod branch;
mod datagen;
mod epd;
mod eval;
mod genfens;
mod lines;
mod paths;
mod perft;
mod suite;
mod tables;
mod train;
mod tune;
mod wdlfit;

// The option parser, `bench` and the text quoting live below both the command
// line and the protocol loops (see `crate::frontend`); the commands here reach
// them under their old paths.
pub(crate) use crate::frontend::{args, bench, choice, search_pair, text, write_error};
pub use args::Args;

use std::io::{self, Write};

/// The function that runs a command: its arguments (after the command name) and
/// where to write its results; `Err` holds the message for stderr.
pub type Run = fn(&[String], &mut dyn Write) -> Result<(), String>;

/// One command of the command line.
pub struct Command {
    /// The name typed after `brokkr` (matched without regard to case).
    pub name: &'static str,
    /// The name with its main arguments, for the usage (`perft DEPTH`).
    pub synopsis: &'static str,
    /// One line saying what it does.
    pub summary: &'static str,
    /// The full help text, shown by `-h`, `--help` and `brokkr help NAME`; it
    /// starts with `usage: brokkr NAME` (`tests/cli.rs` checks every command).
    pub help: &'static str,
    /// Runs it.
    pub run: Run,
}

/// Every command, in the order the usage lists them.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "perft",
        synopsis: "perft DEPTH",
        summary: "count leaf nodes, or check a perft suite with --epd",
        help: perft::HELP,
        run: perft::run,
    },
    Command {
        name: "bench",
        synopsis: "bench [DEPTH]",
        summary: "search a fixed set of positions; print the node count and speed",
        help: bench::HELP,
        run: bench::run,
    },
    Command {
        name: "epd",
        synopsis: "epd FILE",
        summary: "run an EPD test suite (bm/am); print the misses and the score",
        help: epd::HELP,
        run: epd::run,
    },
    Command {
        name: "eval",
        synopsis: "eval",
        summary: "the static evaluation of a position, term by term",
        help: eval::HELP,
        run: |args, _| eval::run(args),
    },
    Command {
        name: "datagen",
        synopsis: "datagen",
        summary: "self-play games at a fixed node count: labelled positions for tune, train",
        help: datagen::HELP,
        run: datagen::run,
    },
    Command {
        name: "branch",
        synopsis: "branch",
        summary: "positions one random move off a data file's games, for train --extra",
        help: branch::HELP,
        run: branch::run,
    },
    Command {
        name: "tune",
        synopsis: "tune",
        summary: "fit the evaluation's weights to labelled positions",
        help: tune::HELP,
        run: |args, _| tune::run(args),
    },
    Command {
        name: "tune-params",
        synopsis: "tune-params",
        summary: "print the search parameters as OpenBench's SPSA input",
        help: TUNE_PARAMS_HELP,
        run: tune_params,
    },
    Command {
        name: "train",
        synopsis: "train",
        summary: "train the network on labelled positions; write a net file",
        help: train::HELP,
        run: train::run,
    },
    Command {
        name: "wdlfit",
        synopsis: "wdlfit",
        summary: "fit the win/draw/loss model to labelled positions; check it on held-out games",
        help: wdlfit::HELP,
        run: wdlfit::run,
    },
    Command {
        name: "uci",
        synopsis: "uci [--switches]",
        summary: "the engine, speaking UCI",
        help: "usage: brokkr uci [--switches]\n\nRun the engine on stdin/stdout, speaking UCI from the first line.\n\n  --switches  also list the hidden options Feature_<name> and Eval_<group> in the\n              answer to 'uci', so that match runners which only send the options an\n              engine lists (fastchess) can set them",
        run: uci,
    },
    Command {
        name: "xboard",
        synopsis: "xboard",
        summary: "the engine, speaking xboard (CECP v2)",
        help: "usage: brokkr xboard\n\nRun the engine on stdin/stdout, speaking xboard (CECP v2) from the first line.",
        run: xboard,
    },
    Command {
        name: "paths",
        synopsis: "paths",
        summary: "measure every bitscan path and slider backend on this CPU",
        help: paths::HELP,
        run: paths::run,
    },
    Command {
        name: "tables",
        synopsis: "tables",
        summary: "list or export the generated tables",
        help: tables::HELP,
        run: tables::run,
    },
];

/// The git commit this binary was built from (short hash), empty when built
/// without git.
pub const COMMIT: &str = env!("BROKKR_COMMIT");

/// The text of `brokkr --version`: `brokkr 0.1.0 (commit 4f248e1)`, or without
/// the commit when it is not known.
pub fn version() -> String {
    if COMMIT.is_empty() {
        format!("brokkr {}", env!("CARGO_PKG_VERSION"))
    } else {
        format!("brokkr {} (commit {COMMIT})", env!("CARGO_PKG_VERSION"))
    }
}

/// The usage: every command of [`COMMANDS`] with its summary.
pub fn usage() -> String {
    let mut s = String::from("usage: brokkr [COMMAND] [OPTIONS]\n\ncommands:\n");
    let line = |s: &mut String, left: &str, right: &str| {
        s.push_str(&format!("  {left:<20}{right}\n"));
    };
    line(
        &mut s,
        "(none)",
        "the engine: UCI, or xboard if the first command is xboard/protover",
    );
    for c in COMMANDS {
        line(&mut s, c.synopsis, c.summary);
    }
    line(
        &mut s,
        "help [COMMAND]",
        "show this usage, or a command's help",
    );
    s.push_str(
        "\noptions:\n  -h, --help          after a command: that command's help\n  \
         -V, --version       print the version\n",
    );
    s
}

/// The command called `name`, in any case.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// Run the command line `args` (without the program name), writing results to
/// stdout; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    // The engine loop writes from several threads, line by line: it must not run
    // under this thread's lock on stdout.
    let engine = match args {
        [] => Some((crate::protocol::Protocol::Uci, true)),
        [c] | [c, _]
            if c.eq_ignore_ascii_case("uci")
                && !args.iter().any(|a| a == "-h" || a == "--help") =>
        {
            Some((crate::protocol::Protocol::Uci, false))
        }
        [c] if c.eq_ignore_ascii_case("xboard") => Some((crate::protocol::Protocol::Xboard, false)),
        _ => None,
    };
    if args.first().is_some_and(|a| is_engine_command(a)) {
        return engine_commands(args);
    }
    if let Some((p, detect)) = engine {
        return match protocol(p, detect, args.get(1..).unwrap_or(&[])) {
            Ok(()) => 0,
            Err(msg) => {
                noteln!("brokkr: {msg}");
                2
            }
        };
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    run_with(args, &mut out)
}

/// The words that start an engine command given on the command line (one
/// command per argument, as Stockfish reads them): the protocol's commands
/// that are not also a command of [`COMMANDS`], and OpenBench's `genfens`.
const ENGINE_COMMANDS: &[&str] = &[
    "genfens",
    "isready",
    "setoption",
    "position",
    "go",
    "ucinewgame",
    "d",
    "quit",
    "stop",
    "debug",
];

/// Whether `arg` is an engine command: its first word is one of
/// [`ENGINE_COMMANDS`], or it has more words than a command's name and starts
/// with one the protocol also knows (`"bench 13"`, `"perft 5"`, `"eval"`...).
fn is_engine_command(arg: &str) -> bool {
    let mut words = arg.split_whitespace();
    let first = words.next().unwrap_or("");
    ENGINE_COMMANDS.contains(&first)
        || (words.next().is_some() && ["bench", "perft", "uci"].contains(&first))
}

/// `brokkr "position startpos" "go depth 10"`: each argument is a line of
/// input to the engine (UCI), which then ends as at the end of its input,
/// after waiting for a search the lines started. `genfens` lines run first,
/// here, since they need no engine state.
fn engine_commands(args: &[String]) -> i32 {
    let (gen, rest): (Vec<&String>, Vec<&String>) = args
        .iter()
        .partition(|a| a.split_whitespace().next() == Some("genfens"));
    let stdout = io::stdout();
    for line in gen {
        let mut out = stdout.lock();
        if let Err(msg) =
            genfens::run_line(line, &mut out).and_then(|()| out.flush().map_err(write_error))
        {
            noteln!("brokkr: {msg}");
            return 2;
        }
    }
    let script: Vec<String> = rest.into_iter().cloned().collect();
    crate::protocol::run(Some(crate::protocol::Protocol::Uci), false, Some(script))
}

/// Run the command line `args`, writing results to `out`; returns the exit code:
/// 0 on success, 2 on any error (reported on stderr).
pub fn run_with(args: &[String], out: &mut dyn Write) -> i32 {
    let result = dispatch(args, out).and_then(|()| out.flush().map_err(write_error));
    match result {
        Ok(()) => 0,
        Err(msg) => {
            noteln!("brokkr: {msg}");
            2
        }
    }
}

fn dispatch(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let Some(first) = args.first() else {
        return protocol(crate::protocol::Protocol::Uci, true, args);
    };
    let rest = &args[1..];
    match first.as_str() {
        "-V" | "--version" => {
            say!(out, "{}", version());
            return Ok(());
        }
        "-h" | "--help" => return help(&[], out),
        name if name.eq_ignore_ascii_case("help") => return help(rest, out),
        _ => {}
    }
    let Some(cmd) = find(first) else {
        return Err(format!(
            "unknown command '{}'\n{}",
            text::escape_short(first),
            usage()
        ));
    };
    // Help wins over everything else on the line, so `perft --epd x -h` helps.
    if rest.iter().any(|a| a == "-h" || a == "--help") {
        say!(out, "{}", cmd.help);
        return Ok(());
    }
    (cmd.run)(rest, out)
}

const TUNE_PARAMS_HELP: &str = "\
usage: brokkr tune-params

Print every search parameter (margins, reductions, extensions) in OpenBench's
SPSA input form, one per line: name, int, default, min, max, c_end, r_end.
Each is a UCI option of the same name; a build made with `make TUNE=1` lists
them in its answer to `uci`, which fastchess (and so OpenBench) needs to set
them. docs/openbench.md shows a tune.";

/// `brokkr tune-params`.
fn tune_params(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    if let Some(extra) = args.first() {
        return Err(format!(
            "tune-params takes no arguments, not '{}'",
            text::escape_short(extra)
        ));
    }
    let text = crate::search::params::Params::DEFAULT.spsa_input();
    write!(out, "{text}").map_err(write_error)
}

/// The help of `help` itself (the usage lists it as `help [COMMAND]`).
const HELP_HELP: &str = "\
usage: brokkr help [COMMAND]

Without COMMAND, prints the usage: every command with a line on what it does.
With COMMAND, prints that command's help, as `brokkr COMMAND --help` does.";

/// `brokkr help [COMMAND]`.
fn help(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    match args {
        [] => {
            write!(out, "{}", usage()).map_err(write_error)?;
            Ok(())
        }
        [flag] if flag == "-h" || flag == "--help" => {
            write!(out, "{}", usage()).map_err(write_error)?;
            Ok(())
        }
        [name] if name.eq_ignore_ascii_case("help") => {
            say!(out, "{HELP_HELP}");
            Ok(())
        }
        [name] => {
            let cmd = find(name).ok_or_else(|| {
                let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
                format!(
                    "no command '{}' (commands: {})",
                    text::escape_short(name),
                    names.join(", ")
                )
            })?;
            say!(out, "{}", cmd.help);
            Ok(())
        }
        [_, extra, ..] => Err(format!(
            "help takes one command name, not '{}'",
            text::escape_short(extra)
        )),
    }
}

/// `brokkr uci`.
fn uci(args: &[String], _: &mut dyn Write) -> Result<(), String> {
    protocol(crate::protocol::Protocol::Uci, false, args)
}

/// `brokkr xboard`.
fn xboard(args: &[String], _: &mut dyn Write) -> Result<(), String> {
    protocol(crate::protocol::Protocol::Xboard, false, args)
}

/// Run the engine loop; `detect` picks the protocol from the first command.
fn protocol(p: crate::protocol::Protocol, detect: bool, args: &[String]) -> Result<(), String> {
    let switches = match args {
        [] => false,
        [s] if s == "--switches" && !detect && p == crate::protocol::Protocol::Uci => true,
        _ => {
            return Err(format!(
                "unexpected arguments: {}",
                text::escape_short(&args.join(" "))
            ))
        }
    };
    match crate::protocol::run(if detect { None } else { Some(p) }, switches, None) {
        0 => Ok(()),
        code => Err(format!("the engine loop ended with code {code}")),
    }
}
