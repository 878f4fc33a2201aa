//! `brokkr epd`: run an EPD test suite (WAC, ECM, ...): search every position and
//! count those where the chosen move is one of the `bm` moves and none of the `am`
//! moves.
//!
//! The file is read line by line through the bounded [`LineReader`], so a huge line
//! or an endless file cannot exhaust memory. A line that cannot be used (a bad
//! FEN, a `bm`/`am` move that is not a legal move there, no `bm` or `am` at all) is
//! reported on stderr with its number and skipped; it does not stop the run, since
//! one typo in a 300-position suite should not hide the other 299 results.

use super::bench::parse_range;
use super::lines::LineReader;
use super::text::{escape, escape_short};
use super::Args;
use crate::attacks::Slider;
use crate::board::{Board, MoveError};
use crate::paths::Engine;
use crate::search::{self, Control, Limits, Settings, ThreadData, TranspositionTable};
use crate::types::{Color, Move};
use std::io::{BufReader, IsTerminal, Write};
use std::time::{Duration, Instant};

pub const HELP: &str = concat!(
    "\
usage: brokkr epd FILE [--movetime MS] [--depth D] [--nodes N] [--threads N] [--hash MB]
                       [--bits PATH] [--slider NAME] [--net FILE | --hce] [--simd PATH]

Runs an EPD test suite: searches every position of FILE with a fresh hash table
and counts it solved when the chosen move is one of its `bm` moves (if it has
any) and none of its `am` moves. Prints each miss as

  miss ID: chose MOVE, expected bm MOVES

then `solved S/T` as the last line. Moves in the file may be SAN (`Qxf7+`, `O-O`,
`e8=Q`, with `+ # ! ?` allowed) or UCI (`h5f7`); several may follow one `bm` or
`am`. `id \"...\"` names a position (else it is `line N`); other operations are
ignored. Chess960 castling fields (Shredder-FEN `HAha`) are accepted.

A line that cannot be used (bad FEN, a move that is not legal there, no bm or am)
is reported on stderr with its line number and skipped. A file with no usable
position is an error.

  --movetime MS    milliseconds per position (the default, 1000, when no limit
                   is given)
  --depth D        search each position to depth D, 1-64
  --nodes N        stop each search after about N nodes
  --threads N      search threads (default 1; with 1, a --depth or --nodes run
                   gives the same result every time)
  --hash MB        hash table size (default 16)
  --bits PATH      bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME    slider-attack backend (magic, pext, rotated, kindergarten,
                   rayloop, kogge-stone)
",
    crate::frontend::EVAL_HELP!()
);

/// The time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: usize = 1000;

/// Bad lines reported one by one; later ones are only counted, so a file that is
/// not a suite at all does not flood the terminal.
const MAX_REPORTED: usize = 100;

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(
        args,
        &[
            "movetime", "depth", "nodes", "threads", "hash", "bits", "slider", "net", "simd",
        ],
        &["hce"],
    )?;
    let file = match a.positional.as_slice() {
        [f] => f.clone(),
        [] => return Err("epd needs a FILE (see brokkr epd -h)".to_string()),
        [_, more @ ..] => {
            return Err(format!(
                "unexpected arguments: {}",
                escape_short(&more.join(" "))
            ))
        }
    };
    let limits = limits(&a)?;
    let threads = parse_range(&a, "threads", 1, 1, crate::frontend::MAX_THREADS)?;
    let hash = parse_range(&a, "hash", 16, 1, crate::frontend::MAX_HASH_MB)?;
    let (bits, slider) = super::search_pair(&a)?;
    let eval = crate::frontend::eval_choice(&a)?;
    let job = Job {
        file,
        limits,
        threads,
        hash_mb: hash,
        net: eval.net,
        vector: eval.vector,
    };
    crate::with_engine!(bits, slider, E => run_suite::<E>(&job, out))
}

/// The search limits from the options: any of movetime, depth and nodes (the
/// first reached ends a search), or the default movetime.
fn limits(a: &Args) -> Result<Limits, String> {
    let given = |name| a.value(name).is_some();
    let movetime = if given("movetime") || !(given("depth") || given("nodes")) {
        let ms = parse_range(a, "movetime", DEFAULT_MOVETIME_MS, 1, 86_400_000)?;
        Some(Duration::from_millis(ms as u64))
    } else {
        None
    };
    let depth = match given("depth") {
        true => Some(parse_range(a, "depth", 0, 1, 64)? as i32),
        false => None,
    };
    let nodes = match a.count("nodes")? {
        Some(0) => return Err("bad value for --nodes: expected at least 1".to_string()),
        n => n,
    };
    Ok(Limits {
        movetime,
        depth,
        nodes,
        ..Limits::default()
    })
}

/// What to run.
struct Job {
    file: String,
    limits: Limits,
    threads: usize,
    hash_mb: usize,
    net: Option<std::sync::Arc<crate::nnue::Network>>,
    vector: crate::nnue::VectorPath,
}

/// One position of a suite and what solves it.
#[derive(Debug)]
pub struct Test<S: Slider> {
    /// The `id`, or `line N` (escaped and short: it came from the file).
    pub name: String,
    pub board: Board<S>,
    /// The `bm` moves; any of them solves (none: any move not in `avoid` does).
    pub best: Vec<Move>,
    /// The `am` moves; none of them may be chosen.
    pub avoid: Vec<Move>,
    /// What the line expects, as written (`bm Rxb2`, `bm Rb6 Rg5+, am Rd6`).
    pub expected: String,
}

impl<S: Slider> Test<S> {
    /// Whether choosing `m` solves the position.
    pub fn solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

/// Tallies of a run.
#[derive(Default)]
struct Tally {
    total: usize,
    solved: usize,
    bad: usize,
    nodes: u64,
}

fn run_suite<E: Engine>(job: &Job, out: &mut dyn Write) -> Result<(), String> {
    let name = escape(&job.file, 200);
    let f = std::fs::File::open(&job.file).map_err(|e| format!("cannot read '{name}': {e}"))?;
    let mut lines = LineReader::new(BufReader::new(f));
    let settings = Settings {
        threads: job.threads,
        // No GUI or pipe to wait for: --movetime is the whole search.
        move_overhead: Duration::ZERO,
        net: job.net.clone(),
        vector: job.vector,
        ..Settings::default()
    };
    let progress = Progress::new(std::io::stderr().is_terminal());
    let mut data: Vec<ThreadData> = Vec::new();
    let mut t = Tally::default();
    while let Some(line) = lines.read_line().map_err(|e| format!("{name}:{e}"))? {
        let number = lines.number();
        let test = line
            .into_text()
            .and_then(|text| parse_test::<E::Slider>(&text, number));
        let test = match test {
            Ok(Some(test)) => test,
            Ok(None) => continue,
            Err(why) => {
                t.bad += 1;
                if t.bad <= MAX_REPORTED {
                    progress.clear();
                    noteln!("brokkr: {name}:{number}: {why}: skipped");
                }
                continue;
            }
        };
        let r = search_one::<E>(&test.board, job, &settings, &mut data)?;
        t.total += 1;
        t.nodes += r.nodes;
        if test.solved_by(r.best) {
            t.solved += 1;
        } else {
            progress.clear();
            say!(
                out,
                "miss {}: chose {}, expected {}",
                test.name,
                test.board.to_uci(r.best),
                test.expected
            );
            out.flush().map_err(super::write_error)?;
        }
        progress.show(&t, &test.name);
    }
    progress.clear();
    if t.bad > MAX_REPORTED {
        noteln!(
            "brokkr: {name}: {} more bad lines not shown",
            t.bad - MAX_REPORTED
        );
    }
    if t.bad > 0 {
        noteln!("brokkr: {name}: {} line(s) skipped", t.bad);
    }
    if t.total == 0 {
        return Err(format!(
            "{name}: no usable positions: an empty suite tests nothing"
        ));
    }
    say!(out, "solved {}/{}", t.solved, t.total);
    Ok(())
}

/// Search one position with a fresh hash table and cleared histories, so that
/// its result does not depend on the positions before it.
fn search_one<E: Engine>(
    board: &Board<E::Slider>,
    job: &Job,
    settings: &Settings,
    data: &mut Vec<ThreadData>,
) -> Result<search::SearchResult, String> {
    let tt = TranspositionTable::new(job.hash_mb)
        .ok_or_else(|| format!("cannot allocate a {} MB hash table", job.hash_mb))?;
    for d in data.iter_mut() {
        d.clear();
    }
    let control = Control::default();
    Ok(search::search::<E>(
        board,
        &[],
        &job.limits,
        settings,
        &tt,
        &control,
        data,
        &|_| {},
    ))
}

/// The progress line on stderr, when stderr is a terminal.
struct Progress {
    on: bool,
    start: Instant,
}

impl Progress {
    fn new(on: bool) -> Progress {
        Progress {
            on,
            start: Instant::now(),
        }
    }

    fn show(&self, t: &Tally, last: &str) {
        if self.on {
            note!(
                "\r{} searched, {} solved, {:.0} s, last {}\x1b[K",
                t.total,
                t.solved,
                self.start.elapsed().as_secs_f64(),
                escape(last, 30)
            );
        }
    }

    /// Erase the progress line, so that a message does not land at its end.
    fn clear(&self) {
        if self.on {
            note!("\r\x1b[K");
        }
    }
}

/// Parse one line of a suite: `None` for a blank or `#` comment line, else the
/// position with its `bm`/`am` moves, or why the line cannot be used.
///
/// A line is the four position fields of a FEN (optionally followed by the two
/// move counters, as some suites write full FENs), then operations `opcode
/// operands;`. Operands are separated by spaces; a quoted string is one operand
/// and may hold spaces and semicolons.
pub fn parse_test<S: Slider>(line: &str, number: usize) -> Result<Option<Test<S>>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (fen, rest) = split_position(line);
    let mut board = Board::<S>::from_fen(&fen).map_err(|e| {
        format!(
            "bad FEN '{}': {}",
            escape_short(&fen),
            escape(&e.to_string(), 200)
        )
    })?;
    board.set_chess960(is_chess960(&board));
    let (mut best, mut avoid, mut id) = (Vec::new(), Vec::new(), None);
    let (mut best_text, mut avoid_text) = (Vec::new(), Vec::new());
    for op in parse_operations(rest)? {
        let (moves, texts) = match op.first().map(String::as_str) {
            Some("bm") => (&mut best, &mut best_text),
            Some("am") => (&mut avoid, &mut avoid_text),
            Some("id") => {
                id = id.or_else(|| op.get(1).cloned());
                continue;
            }
            _ => continue,
        };
        let code = op[0].as_str();
        if op.len() == 1 {
            return Err(format!("{code} has no moves"));
        }
        for text in &op[1..] {
            let m = parse_move(&board, text).map_err(|e| {
                let why = match e {
                    MoveError::Syntax(_) => "is not a move",
                    MoveError::Illegal(_) => "is not legal in this position",
                    MoveError::Ambiguous(_) => "fits more than one legal move",
                };
                format!("{code} '{}' {why}", escape_short(text))
            })?;
            moves.push(m);
            texts.push(escape_short(text));
        }
    }
    if best.is_empty() && avoid.is_empty() {
        return Err("no bm or am operation".to_string());
    }
    let expected = [("bm", &best_text), ("am", &avoid_text)]
        .iter()
        .filter(|(_, t)| !t.is_empty())
        .map(|(code, t)| format!("{code} {}", t.join(" ")))
        .collect::<Vec<_>>()
        .join(", ");
    let name = id.map_or_else(|| format!("line {number}"), |s| escape_short(&s));
    Ok(Some(Test {
        name,
        board,
        best,
        avoid,
        expected,
    }))
}

/// Split an EPD line into its FEN (four position fields, plus the two move
/// counters when they follow as numbers) and the operations after it. A line with
/// fewer fields gives a short FEN, which `from_fen` then rejects with its reason.
pub(super) fn split_position(line: &str) -> (String, &str) {
    let mut fields = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let field = &rest[..end];
        // Opcodes start with a letter, so a number after the four fields is a counter.
        let wanted =
            fields.len() < 4 || (fields.len() < 6 && field.bytes().all(|b| b.is_ascii_digit()));
        if !wanted {
            break;
        }
        fields.push(field);
        rest = rest[end..].trim_start();
    }
    (fields.join(" "), rest)
}

/// The operations of an EPD line, each as its opcode followed by its operands,
/// with the quotes of string operands removed.
fn parse_operations(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut ops = Vec::new();
    let mut op: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        match chars.peek() {
            None => break,
            Some(&';') => {
                chars.next();
                if !op.is_empty() {
                    ops.push(std::mem::take(&mut op));
                }
            }
            Some(c) if c.is_whitespace() => {
                chars.next();
            }
            Some(&'"') => {
                chars.next();
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(c) => s.push(c),
                        None => {
                            return Err(format!("unterminated string '\"{}'", escape_short(&s)))
                        }
                    }
                }
                op.push(s);
            }
            Some(_) => {
                let mut s = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || c == ';' || c == '"' {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
                op.push(s);
            }
        }
    }
    // The last operation's `;` is often left out.
    if !op.is_empty() {
        ops.push(op);
    }
    Ok(ops)
}

/// A move in UCI (`e2e4`, `e1h1`) or SAN (`Nf3`, `Qxf7+`, `O-O`). A string of UCI
/// form is never SAN for another move, so UCI is tried first.
fn parse_move<S: Slider>(board: &Board<S>, text: &str) -> Result<Move, MoveError> {
    match board.parse_uci(text) {
        Err(MoveError::Syntax(_)) => board.parse_san(text),
        r => r,
    }
}

/// Whether a castling right of the position needs Chess960 notation: its king is
/// not on the e-file or its rook is not in the corner. The chosen move is then
/// written king-takes-rook (`e1h1`), which is unambiguous there.
fn is_chess960<S: Slider>(board: &Board<S>) -> bool {
    (0..4).any(|i| {
        board.castling_rook(i).is_some_and(|rook| {
            let color = if i < 2 { Color::White } else { Color::Black };
            let king_file = board.king_square(color).index() % 8;
            let corner = if i % 2 == 0 { 7 } else { 0 };
            king_file != 4 || rook.file() != corner
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Magic;

    fn test(line: &str) -> Test<Magic> {
        parse_test::<Magic>(line, 7).unwrap().unwrap()
    }

    fn error(line: &str) -> String {
        parse_test::<Magic>(line, 7).unwrap_err()
    }

    fn uci(t: &Test<Magic>, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|&m| t.board.to_uci(m)).collect()
    }

    #[test]
    fn reads_a_wac_line() {
        let t = test(r#"8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";"#);
        assert_eq!(t.name, "WAC.002");
        assert_eq!(uci(&t, &t.best), ["b3b2"]);
        assert!(t.avoid.is_empty());
        assert_eq!(t.expected, "bm Rxb2");
        assert!(!t.board.is_chess960());
    }

    #[test]
    fn reads_several_moves_am_and_bm_uci_and_suffixes() {
        let t =
            test(r#"8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6; bm Rb6! Rg5+ g6g5; id "WAC.274";"#);
        assert_eq!(uci(&t, &t.best), ["g6b6", "g6g5", "g6g5"]);
        assert_eq!(uci(&t, &t.avoid), ["g6d6"]);
        assert_eq!(t.expected, "bm Rb6! Rg5+ g6g5, am Rd6");
        assert!(t.solved_by(t.best[0]) && !t.solved_by(t.avoid[0]));
        let other = t.board.parse_uci("a3a2").unwrap();
        assert!(!t.solved_by(other), "bm given: other moves miss");
        let only_am = test("8/1p6/p5R1/k7/Prpp4/K7/1NP5/8 w - - am Rd6;");
        assert!(only_am.solved_by(other) && !only_am.solved_by(only_am.avoid[0]));
    }

    #[test]
    fn reads_counters_quotes_and_a_missing_last_semicolon() {
        let t = test(
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 \
             c0 \"a; b\" ; id \"mate; in one\" ; bm Qxf7#",
        );
        assert_eq!(t.board.halfmove_clock(), 4);
        assert_eq!(t.name, "mate; in one");
        assert_eq!(uci(&t, &t.best), ["h5f7"]);
        let t = test("8/8/8/8/8/8/8/K6k w - - bm Kb1");
        assert_eq!(t.name, "line 7");
    }

    #[test]
    fn chess960_castling_parses_in_every_notation() {
        // King b1 between rooks a1 and h1 (Shredder-FEN HA).
        let fen = "4k3/8/8/8/8/8/8/RK5R w HA -";
        let t = test(&format!("{fen} bm O-O b1h1; am O-O-O b1a1; id \"960\";"));
        assert!(t.board.is_chess960());
        assert_eq!(t.best[0], t.best[1]);
        assert_eq!(t.avoid[0], t.avoid[1]);
        assert_eq!(uci(&t, &t.best), ["b1h1", "b1h1"]);
        // Standard castling stays standard: e1g1.
        let t = test("4k3/8/8/8/8/8/8/4K2R w K - bm O-O e1h1 e1g1");
        assert!(!t.board.is_chess960());
        assert_eq!(uci(&t, &t.best), ["e1g1", "e1g1", "e1g1"]);
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(parse_test::<Magic>("", 1).unwrap().is_none());
        assert!(parse_test::<Magic>("  # comment", 1).unwrap().is_none());
        let e = error("8/8/8/8/8/8/8/K6X w - - bm Kb1;");
        assert!(e.starts_with("bad FEN '8/8/8/8/8/8/8/K6X w - -': "), "{e}");
        let e = error("8/8/8/8 w bm Kb1;");
        assert!(e.starts_with("bad FEN"), "{e}");
        let e = error("8/8/8/8/8/8/8/K6k w - - bm Kb5;");
        assert_eq!(e, "bm 'Kb5' is not legal in this position");
        let e = error("8/8/8/8/8/8/8/K6k w - - am \x1b[2J;");
        assert_eq!(e, "am '\\x1b[2J' is not a move");
        let e = error("8/8/8/8/8/8/8/K6k w - - bm;");
        assert_eq!(e, "bm has no moves");
        let e = error("8/8/8/8/8/8/8/K6k w - - id \"x\";");
        assert_eq!(e, "no bm or am operation");
        let e = error("8/8/8/8/8/8/8/K6k w - - bm Kb1; id \"x;");
        assert_eq!(e, "unterminated string '\"x;'");
        // Two knights can reach d2: Nd2 alone is ambiguous.
        let e = error("4k3/8/8/8/8/8/8/1N2KN2 w - - bm Nd2;");
        assert_eq!(e, "bm 'Nd2' fits more than one legal move");
    }
}
