//! `brokkr perft`: count leaf nodes for one position, or check a whole suite.

use super::suite::{parse_depth, Item, SuiteReader};
use super::text::{escape, escape_short};
use super::{choice, write_error, Args};
use crate::attacks::{Slider, SliderKind};
use crate::bits::{Bits, Cpu};
use crate::board::perft::{divide, perft};
use crate::board::Board;
use crate::paths::resolve_perft;
use crate::qbb::{self, Qbb};
use crate::types::Move;
use std::io::{BufReader, IsTerminal, Write};
use std::marker::PhantomData;
use std::time::Instant;

/// The help text of `brokkr perft`.
pub const HELP: &str = "\
usage: brokkr perft DEPTH [--fen FEN] [--divide] [--board NAME] [--bits PATH] [--slider NAME]
       brokkr perft --epd FILE [--max-nodes N] [--board NAME] [--bits PATH] [--slider NAME]

  DEPTH            plies to search (0-20)
  --fen FEN        the position (default: the start position); Chess960 castling
                   as Shredder-FEN (HAha) or X-FEN (KQkq naming the outer rook)
  --divide         print each root move (UCI notation) with its count
  --epd FILE       check every position of a perft suite: `FEN ;D1 n ;D2 n ...`
                   lines, or `epd FEN` lines each followed by `perft DEPTH n` lines
  --max-nodes N    with --epd: skip counts larger than N
  --board NAME     board representation: main (default) or qbb (quad-bitboard;
                   built for the magic, pext, kindergarten and kogge-stone backends only)
  --bits PATH      bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME    slider-attack backend (magic, pext, rotated, kindergarten,
                   rayloop, kogge-stone)

perft is built for every backend with the bmi and portable bit paths and every
bit path with magic and pext; another pair runs its backend on bmi (or portable
without BMI) and says so on stderr.

Names are matched without regard to case. A single position ends with
`Nodes searched: N` and a time line; a suite prints one line per mismatch, a
time line, then the summary `perft suite: P positions, C counts checked,
M mismatches`, and exits
non-zero on a mismatch, a position it could not read, or a suite with no positions.";

/// Run `brokkr perft` with `args` (after the command name).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["fen", "epd", "max-nodes", "board", "bits", "slider"],
        &["divide"],
    )?;
    let kind = match a.value("board") {
        None => BoardKind::Main,
        Some(b) if b.eq_ignore_ascii_case("main") => BoardKind::Main,
        Some(b) if b.eq_ignore_ascii_case("qbb") => BoardKind::Qbb,
        Some(other) => {
            return Err(format!(
                "unknown board '{}' (expected main or qbb)",
                escape_short(other)
            ))
        }
    };
    let job = if let Some(file) = a.value("epd") {
        if !a.positional.is_empty() || a.flag("fen") || a.flag("divide") {
            return Err("--epd takes no DEPTH, --fen or --divide".to_string());
        }
        Job::Suite {
            file: file.to_string(),
            max_nodes: a.count("max-nodes")?.unwrap_or(u64::MAX),
        }
    } else {
        if a.flag("max-nodes") {
            return Err("--max-nodes limits an --epd suite; give --epd FILE too".to_string());
        }
        Job::Single {
            depth: depth(&a.positional)?,
            fen: a.value("fen").map(str::to_string),
            divide: a.flag("divide"),
        }
    };
    let choice = choice(&a)?;
    if kind == BoardKind::Qbb && !qbb::supports(choice.slider) {
        return Err(qbb_unsupported(choice.slider));
    }
    let (bits, slider, fallback) = resolve_perft(choice.bits, choice.slider, &Cpu::detect());
    if let Some(n) = fallback {
        crate::frontend::note(&format!("brokkr: {n}"));
    }
    let setup: Setup = match kind {
        BoardKind::Main => crate::with_perft_pair!(bits, slider, B, S => set_up::<B, S, MainBoard>),
        BoardKind::Qbb => crate::with_qbb_pair!(bits, slider, B, S => {
            set_up::<B, S, QbbBoard>
        }, other => return Err(qbb_unsupported(other))),
    };
    let pair = format!("bits {bits}, slider {slider}");
    match job {
        Job::Single { depth, fen, divide } => {
            single(out, setup, &pair, depth, fen.as_deref(), divide)
        }
        Job::Suite { file, max_nodes } => suite(out, setup, &pair, &file, max_nodes),
    }
}

/// Why `--board qbb` refuses a backend.
fn qbb_unsupported(kind: SliderKind) -> String {
    format!(
        "the qbb board is built for the magic, pext, kindergarten and kogge-stone backends only, \
         not '{kind}': {}",
        match kind {
            SliderKind::Rotated => {
                "rotated needs line occupancies kept in make, which the qbb board does not keep"
            }
            _ => "rayloop's technique is emitting moves by walking rays, which the qbb generator does not use",
        }
    )
}

/// The DEPTH argument, checked.
fn depth(positional: &[String]) -> Result<u32, String> {
    match positional {
        [d] => parse_depth(d),
        [] => Err(format!("perft needs a DEPTH\n{HELP}")),
        [_, more @ ..] => Err(format!(
            "unexpected arguments: {}",
            escape_short(&more.join(" "))
        )),
    }
}

/// Which board representation counts the nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardKind {
    Main,
    Qbb,
}

/// How one board representation counts, on a position of the main board.
trait Counter<S: Slider> {
    fn count<B: Bits>(board: &Board<S>, depth: u32) -> u64;
    fn divide<B: Bits>(board: &Board<S>, depth: u32) -> Vec<(Move, u64)>;
}

/// The main board.
struct MainBoard;

/// The quad-bitboard board, built for the [`qbb::Lookup`] backends.
struct QbbBoard;

impl<S: Slider> Counter<S> for MainBoard {
    fn count<B: Bits>(board: &Board<S>, depth: u32) -> u64 {
        perft::<B, S>(board, depth)
    }
    fn divide<B: Bits>(board: &Board<S>, depth: u32) -> Vec<(Move, u64)> {
        divide::<B, S>(board, depth)
    }
}

impl<S: qbb::Lookup> Counter<S> for QbbBoard {
    fn count<B: Bits>(board: &Board<S>, depth: u32) -> u64 {
        qbb::perft::<B, S>(&Qbb::from_board(board), depth)
    }
    fn divide<B: Bits>(board: &Board<S>, depth: u32) -> Vec<(Move, u64)> {
        qbb::divide::<B, S>(&Qbb::from_board(board), depth)
    }
}

/// What to count, with the options checked.
enum Job {
    Single {
        depth: u32,
        fen: Option<String>,
        divide: bool,
    },
    Suite {
        file: String,
        max_nodes: u64,
    },
}

/// A position set up for one pair and board, counting behind a pointer: the
/// code that reads suites and prints counts is built once, not once per pair
/// and board (it was 0.45 MB of the binary), and calls in once per count, never
/// per node.
trait Position {
    fn count(&self, depth: u32) -> u64;
    /// Each root move in UCI notation with its count.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The FEN as brokkr writes it: parsed, so short and printable.
    fn fen(&self) -> String;
}

/// The position `fen` (else the start position) for one pair and board, or why
/// it is not a position.
type Setup = fn(Option<&str>) -> Result<Box<dyn Position>, String>;

/// The [`Setup`] of bit path `B`, backend `S` and board `C`.
fn set_up<B: Bits, S: Slider, C: Counter<S> + 'static>(
    fen: Option<&str>,
) -> Result<Box<dyn Position>, String> {
    let board = match fen {
        Some(fen) => Board::<S>::from_fen(fen).map_err(|e| e.to_string())?,
        None => Board::<S>::startpos(),
    };
    Ok(Box::new(Counted::<B, S, C>(board, PhantomData)))
}

/// A main board counted by bit path `B` on board `C`.
struct Counted<B, S: Slider, C>(Board<S>, PhantomData<(B, C)>);

impl<B: Bits, S: Slider, C: Counter<S>> Position for Counted<B, S, C> {
    fn count(&self, depth: u32) -> u64 {
        C::count::<B>(&self.0, depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        C::divide::<B>(&self.0, depth)
            .into_iter()
            .map(|(m, n)| (self.0.to_uci(m), n))
            .collect()
    }
    fn fen(&self) -> String {
        self.0.to_fen()
    }
}

fn single(
    out: &mut dyn Write,
    setup: Setup,
    pair: &str,
    depth: u32,
    fen: Option<&str>,
    show_divide: bool,
) -> Result<(), String> {
    let board = setup(fen).map_err(|e| format!("bad FEN: {}", escape(&e, 200)))?;
    let start = Instant::now();
    let nodes = if show_divide && depth > 0 {
        let mut total = 0;
        for (m, n) in board.divide(depth) {
            say!(out, "{m}: {n}");
            total += n;
        }
        say!(out);
        total
    } else {
        board.count(depth)
    };
    let secs = start.elapsed().as_secs_f64();
    say!(out, "Nodes searched: {nodes}");
    say!(
        out,
        "Time: {:.3} s, {:.0} nodes/s ({pair})",
        secs,
        nodes as f64 / secs.max(1e-9),
    );
    Ok(())
}

/// Tallies of a suite run.
#[derive(Default)]
struct Tally {
    positions: usize,
    checked: usize,
    mismatches: usize,
    bad: usize,
    nodes: u64,
}

fn suite(
    out: &mut dyn Write,
    setup: Setup,
    pair: &str,
    file: &str,
    max_nodes: u64,
) -> Result<(), String> {
    let name = escape(file, 200);
    let f = std::fs::File::open(file).map_err(|e| format!("cannot read '{name}': {e}"))?;
    let progress = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut t = Tally::default();
    for item in SuiteReader::new(BufReader::new(f)) {
        let e = match item.map_err(|e| format!("{name}:{e}"))? {
            Item::Position(e) => e,
            Item::Skipped { line, why } => {
                noteln!("brokkr: {name}:{line}: {why}");
                t.bad += 1;
                continue;
            }
        };
        let board = match setup(Some(&e.fen)) {
            Ok(b) => b,
            Err(err) => {
                noteln!(
                    "brokkr: {name}:{}: bad FEN '{}': {}",
                    e.line,
                    escape_short(&e.fen),
                    escape(&err, 200)
                );
                t.bad += 1;
                continue;
            }
        };
        t.positions += 1;
        for &(depth, expected) in &e.counts {
            if expected > max_nodes {
                continue;
            }
            let got = board.count(depth);
            t.nodes += got;
            t.checked += 1;
            if got != expected {
                t.mismatches += 1;
                say!(
                    out,
                    "mismatch at line {}: {} depth {depth}: expected {expected}, got {got}",
                    e.line,
                    board.fen()
                );
            }
        }
        if progress {
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            note!(
                "\r{} positions, {:.0} Mnodes/s  ",
                t.positions,
                t.nodes as f64 / secs / 1e6
            );
            let _ = std::io::stderr().flush();
        }
    }
    if progress {
        noteln!();
    }
    let secs = start.elapsed().as_secs_f64();
    say!(
        out,
        "Time: {secs:.3} s, {} nodes, {:.0} nodes/s ({pair})",
        t.nodes,
        t.nodes as f64 / secs.max(1e-9),
    );
    say!(
        out,
        "perft suite: {} positions, {} counts checked, {} mismatches",
        t.positions,
        t.checked,
        t.mismatches
    );
    out.flush().map_err(write_error)?;
    if t.bad > 0 {
        return Err(format!("{} line(s) could not be read as positions", t.bad));
    }
    if t.positions == 0 {
        return Err(format!(
            "{name}: no positions: an empty suite checks nothing"
        ));
    }
    if t.mismatches > 0 {
        return Err(format!("{} mismatch(es)", t.mismatches));
    }
    if t.checked == 0 {
        return Err(format!(
            "no count is at most --max-nodes {max_nodes}: nothing was checked"
        ));
    }
    Ok(())
}
