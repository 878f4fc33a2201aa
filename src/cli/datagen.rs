//! `brokkr datagen`: training data for `brokkr tune` and `brokkr train` from
//! brokkr's own games.
//!
//! Worker threads play whole games of brokkr against itself, each search on one
//! thread at a fixed node count (`game.rs`), from book positions plus a few random
//! moves (`opening.rs`). The main thread appends each finished game to the output
//! file in one write and shows the progress; the file can be resumed after the run
//! is stopped (`file.rs`).
//!
//! Game N is a pure function of N and the settings recorded in the file's header,
//! so the data does not depend on the number of threads (only the order of the
//! games does), and a resumed run plays exactly the games that are missing.

mod file;
mod game;
pub(super) mod opening;

use super::bench::parse_range;
use super::text::escape;
use super::Args;
use crate::paths::Engine;
use crate::search::STACK_SIZE;
use crate::syzygy::Tablebase;
use file::{Output, HEADER_PREFIX};
use game::{GameResult, Played, Searcher, Setup, Versus};
use opening::Book;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

pub const HELP: &str = concat!(
    "\
usage: brokkr datagen --out FILE --games N [--nodes N] [--threads N] [--book EPD]
                      [--random-plies K] [--seed S] [--hash MB] [--format text|marlin]
                      [--versus hce|FILE [--versus-nodes N]] [--bits PATH] [--slider NAME]
                      [--net FILE | --hce] [--simd PATH]

Plays brokkr against itself at a fixed node count per move and appends positions
of its games to FILE, one a line, as `brokkr tune --data` reads them:

  FEN | score | result

score is the search's score in centipawns and result 1.0, 0.5 or 0.0 (the
game's), both from White's side. A position is kept when the side to move is not
in check, the best move found is neither a capture nor a promotion, and the score
is not a mate. Each game ends with a line `# game N: ...`, which the tuner skips
(a game that keeps no position is that line alone).

Game N starts from a position of the book, picked at random, and K random legal
moves; an opening that is already over, or whose first search scores beyond
±400 cp, is replaced by another. A game ends by the rules, or by adjudication: a
win when the score stays beyond ±1000 cp (or a mate) for 4 plies in a row, a draw
when it stays within ±10 cp for 10 plies from move 40, and a draw after 400 plies.
With --syzygy, a position the tables hold ends the game with their result (won,
or drawn: a cursed win is a draw) when it is reached by a capture or a pawn move
(so the fifty-move count is zero and their result is the game's).
The games depend only on --seed, --nodes, --hash, --random-plies, the book, the
evaluation, --syzygy and --no-adjudication, not on --threads: each game searches
on one thread, with a cleared hash table.

Stopping the run (Ctrl-C) loses only the games being played. Running the same
command again keeps the finished games, drops an unfinished one, and plays the
missing games up to N; a larger N adds games. FILE's first line records the
settings, and a file written with other settings is not resumed.

With --format marlin, FILE holds the same positions as 32-byte marlinformat
records (as `brokkr train` and bullet read them; byte 31, unused by the format,
marks each game's last position), and FILE.games the header and the `# game`
lines, which resuming reads: keep the two together.

  --out FILE          where to append the positions (created if missing)
  --games N           the number of games FILE should hold, from 1
  --nodes N           nodes per move (default 5000)
  --threads N         games played at once, one search thread each (default 1)
  --book EPD          openings: one FEN or EPD position a line, `#` lines ignored
                      (default: the start position only)
  --random-plies K    random moves after the book position, 0-200 (default 8)
  --seed S            picks the openings (default 1)
  --hash MB           hash table per thread (default 16)
  --syzygy PATH       Syzygy tables (directories separated by ':') that end a game
                      with their result; the header records how many men and files
  --no-adjudication   play every game out (to the rules, the tables or 400 plies):
                      the same games up to where adjudication would end them
  --versus E          games against another evaluation instead of self-play: hce
                      (the hand-written one) or a net FILE, playing Black in
                      odd-numbered games and White in even ones, with its own
                      hash table; each position is labelled by the score of the
                      side that searched it. Self-play never shows a net the
                      positions it overrates (its opponent, the same net, steers
                      away from them); an opponent with other errors lets it
                      reach them
  --versus-nodes N    the --versus side's nodes per move (default: --nodes), to give
                      a weaker evaluation the search to hold its own
  --format F          text (default) or marlin
  --bits PATH         bitscan/popcount path (asm, bmi, table, portable, extern, extern-bmi)
  --slider NAME       slider-attack backend (magic, pext, rotated, kindergarten,
                      rayloop, kogge-stone)
",
    crate::frontend::EVAL_HELP!(),
    "
The games are played with the embedded network unless --net or --hce says
otherwise; the header names the net (its hash), so a file is resumed only with
the evaluation that began it."
);

/// The most games a run may ask for (far beyond any use; it keeps the game
/// counter far from overflowing).
const MAX_GAMES: usize = 1_000_000_000_000;

/// What to run.
struct Job {
    out: String,
    games: u64,
    nodes: u64,
    threads: usize,
    book: Option<String>,
    random_plies: usize,
    seed: u64,
    hash_mb: usize,
    marlin: bool,
    net: Option<std::sync::Arc<crate::nnue::Network>>,
    vector: crate::nnue::VectorPath,
    tables: Option<std::sync::Arc<Tablebase>>,
    adjudicate: bool,
    versus: Option<std::sync::Arc<Versus>>,
}

/// The opponent of `--versus`, or why not: an opponent that is the games' own
/// evaluation would make self-play under another name.
fn versus(
    a: &Args,
    own: Option<&crate::nnue::Network>,
    own_nodes: u64,
) -> Result<Option<std::sync::Arc<Versus>>, String> {
    let Some(v) = a.value("versus") else {
        if a.value("versus-nodes").is_some() {
            return Err("--versus-nodes needs --versus".to_string());
        }
        return Ok(None);
    };
    let nodes = parse_range(a, "versus-nodes", own_nodes as usize, 1, 1_000_000_000)? as u64;
    let net = match v {
        "hce" => None,
        path => Some(std::sync::Arc::new(
            crate::nnue::Network::load(std::path::Path::new(path))
                .map_err(|e| format!("--versus: {e}"))?,
        )),
    };
    let same = match (&net, own) {
        (None, None) => true,
        (Some(n), Some(o)) => n.hash() == o.hash(),
        _ => false,
    };
    if same {
        return Err(format!(
            "--versus '{}' is the games' own evaluation: that is self-play (drop --versus)",
            escape(v, 200)
        ));
    }
    Ok(Some(std::sync::Arc::new(Versus { net, nodes })))
}

/// The tables of `--syzygy`, or why not: a path with no table is an error, not
/// a run that silently adjudicates nothing.
fn open_tables(a: &Args) -> Result<Option<std::sync::Arc<Tablebase>>, String> {
    let Some(paths) = a.value("syzygy") else {
        return Ok(None);
    };
    let (tb, notes) = Tablebase::open(paths);
    for n in &notes {
        noteln!("brokkr: --syzygy: {}", escape(n, 200));
    }
    if tb.is_empty() {
        return Err(format!(
            "--syzygy '{}': no Syzygy WDL tables (.rtbw) found",
            escape(paths, 200)
        ));
    }
    Ok(Some(std::sync::Arc::new(tb)))
}

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(
        args,
        &[
            "out",
            "games",
            "nodes",
            "threads",
            "book",
            "random-plies",
            "seed",
            "hash",
            "format",
            "bits",
            "slider",
            "net",
            "simd",
            "syzygy",
            "versus",
            "versus-nodes",
        ],
        &["hce", "no-adjudication"],
    )?;
    if let Some(extra) = a.positional.first() {
        return Err(format!(
            "unexpected argument '{}' (see brokkr datagen -h)",
            super::text::escape_short(extra)
        ));
    }
    let need = |name: &str, what: &str| {
        a.value(name)
            .map(str::to_string)
            .ok_or_else(|| format!("datagen needs --{name} {what} (see brokkr datagen -h)"))
    };
    let out_file = need("out", "FILE")?;
    need("games", "N")?;
    let (bits, slider) = super::search_pair(&a)?;
    let eval = crate::frontend::eval_choice(&a)?;
    let nodes = parse_range(&a, "nodes", 5000, 1, 1_000_000_000)? as u64;
    let versus = versus(&a, eval.net.as_deref(), nodes)?;
    let job = Job {
        versus,
        net: eval.net,
        vector: eval.vector,
        tables: open_tables(&a)?,
        adjudicate: !a.flag("no-adjudication"),
        out: out_file,
        games: parse_range(&a, "games", 0, 1, MAX_GAMES)? as u64,
        nodes,
        threads: parse_range(&a, "threads", 1, 1, 256)?,
        book: a.value("book").map(str::to_string),
        random_plies: parse_range(&a, "random-plies", 8, 0, 200)?,
        seed: a.count("seed")?.unwrap_or(1),
        hash_mb: parse_range(&a, "hash", 16, 1, 1 << 16)?,
        marlin: match a.value("format") {
            None | Some("text") => false,
            Some("marlin") => true,
            Some(other) => {
                return Err(format!(
                    "bad value for --format '{}': expected text or marlin",
                    super::text::escape_short(other)
                ))
            }
        },
    };
    crate::with_engine!(bits, slider, E => generate::<E>(&job, out))
}

/// Tallies of the games played in this run.
#[derive(Default)]
struct Tally {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    adjudicated: u64,
    positions: u64,
    nodes: u64,
    replaced: u64,
    /// With `--versus`: the games' own evaluation's wins, draws and losses.
    own: [u64; 3],
}

impl Tally {
    fn add(&mut self, g: &Played) {
        self.games += 1;
        match g.end.result() {
            GameResult::WhiteWins => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.losses += 1,
        }
        self.adjudicated += u64::from(g.end.adjudicated());
        self.positions += g.positions as u64;
        self.nodes += g.nodes;
        self.replaced += g.replaced as u64;
        if let Some(c) = g.own {
            let result = g.end.result();
            self.own[match result {
                GameResult::Draw => 1,
                _ if result == GameResult::win(c) => 0,
                _ => 2,
            }] += 1;
        }
    }
}

fn generate<E: Engine>(job: &Job, out: &mut dyn Write) -> Result<(), String> {
    let book = match &job.book {
        Some(f) => Book::<E::Slider>::read::<E::Bits>(f)?,
        None => Book::startpos(),
    };
    if job.random_plies == 0 && (book.positions.len() as u64) < job.games {
        noteln!(
            "brokkr: warning: with --random-plies 0 there are only {} different games",
            book.positions.len()
        );
    }
    let header = format!(
        "{HEADER_PREFIX}seed {}, nodes {}, hash {} MB, random plies {}, book {}",
        job.seed, job.nodes, job.hash_mb, job.random_plies, book.description
    );
    let name = escape(&job.out, 200);
    // The evaluation is part of the settings: a file begun with one net is not
    // resumed with another (the hand-written evaluation's header names none).
    let header = match &job.net {
        Some(net) => format!("{header}, net {:016x}", net.hash()),
        None => header,
    };
    // The tables decide how games end: a file begun with one set of tables is
    // not resumed with another.
    let header = match &job.tables {
        Some(tb) => {
            let (wdl, _) = tb.file_counts();
            format!("{header}, syzygy {}-men {wdl} tables", tb.max_pieces())
        }
        None => header,
    };
    let header = if job.adjudicate {
        header
    } else {
        format!("{header}, no adjudication")
    };
    // The opponent makes other games: a file begun against one is resumed only
    // against it.
    let header = match &job.versus {
        Some(v) => format!("{header}, {}", v.describe()),
        None => header,
    };
    let header = if job.marlin {
        format!("{header}, marlinformat")
    } else {
        header
    };
    let mut file = Output::open(&job.out, &header, job.marlin)?;
    let done = file.take_done();
    let held = done.iter().filter(|&&n| n <= job.games).count() as u64;
    if held == job.games {
        say!(
            out,
            "datagen: {name} holds {held}/{} games ({} positions): nothing to play",
            job.games,
            file.positions()
        );
        return Ok(());
    }
    let setup = Setup::<E> {
        book: &book,
        random_plies: job.random_plies,
        seed: job.seed,
        nodes: job.nodes,
        hash_mb: job.hash_mb,
        net: job.net.clone(),
        vector: job.vector,
        tables: job.tables.as_deref(),
        adjudicate: job.adjudicate,
        versus: job.versus.clone(),
    };
    let start = Instant::now();
    let (tally, error) = play_all(job, &setup, &done, held, &mut file);
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let t = &tally;
    say!(
        out,
        "datagen: played {} (+{} ={} -{}, {} adjudicated, {} openings replaced) \
         in {secs:.1} s: {} positions, {:.1} positions/s, {:.2} Mnodes/s; \
         {name} holds {}/{} games, {} positions",
        games(t.games),
        t.wins,
        t.draws,
        t.losses,
        t.adjudicated,
        t.replaced,
        t.positions,
        t.positions as f64 / secs,
        t.nodes as f64 / secs / 1e6,
        held + t.games,
        job.games,
        file.positions() + t.positions
    );
    if job.versus.is_some() {
        say!(
            out,
            "datagen: the games' own evaluation scored +{} ={} -{} against --versus",
            t.own[0],
            t.own[1],
            t.own[2]
        );
    }
    error.map_or(Ok(()), Err)
}

/// `N game` or `N games`.
fn games(n: u64) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// Play the missing games on `job.threads` threads and append each to `file` as it
/// finishes. Returns the tally and the first error (a failed game or write), after
/// which no new game starts.
fn play_all<E: Engine>(
    job: &Job,
    setup: &Setup<E>,
    done: &HashSet<u64>,
    held: u64,
    file: &mut Output,
) -> (Tally, Option<String>) {
    let next = AtomicU64::new(1);
    let quit = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut tally = Tally::default();
    let mut error = None;
    let mut progress = Progress::new(std::io::stderr().is_terminal(), held, job.games);
    std::thread::scope(|s| {
        let workers = (job.threads as u64).min(job.games - held);
        for i in 0..workers {
            let (tx, next, quit) = (tx.clone(), &next, &quit);
            let spawned = std::thread::Builder::new()
                .name(format!("brokkr-datagen-{i}"))
                .stack_size(STACK_SIZE)
                .spawn_scoped(s, move || worker(setup, next, quit, done, job.games, tx));
            if let Err(e) = spawned {
                // Fewer threads only cost speed; none is an error.
                if i == 0 {
                    error = Some(format!("cannot start a game thread: {e}"));
                }
                break;
            }
        }
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(Ok(g)) if error.is_none() => match file.append(&g) {
                    Ok(()) => tally.add(&g),
                    Err(e) => {
                        error = Some(format!("cannot write '{}': {e}", escape(&job.out, 200)));
                        quit.store(true, Ordering::Relaxed);
                    }
                },
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    error.get_or_insert(e);
                    quit.store(true, Ordering::Relaxed);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            progress.show(&tally);
        }
    });
    progress.clear();
    (tally, error)
}

/// One game thread: play the next missing game until there is none or the run
/// stops.
fn worker<E: Engine>(
    setup: &Setup<E>,
    next: &AtomicU64,
    quit: &AtomicBool,
    done: &HashSet<u64>,
    games: u64,
    tx: Sender<Result<Played, String>>,
) {
    let searchers = Searcher::new(setup.hash_mb).and_then(|own| match setup.versus {
        Some(_) => Searcher::new(setup.hash_mb).map(|other| (own, Some(other))),
        None => Some((own, None)),
    });
    let Some((mut own, mut other)) = searchers else {
        let _ = tx.send(Err(format!(
            "cannot allocate a {} MB hash table",
            setup.hash_mb
        )));
        return;
    };
    while !quit.load(Ordering::Relaxed) {
        let Some(n) = next_game(next, done, games) else {
            break;
        };
        let r = game::play::<E>(setup, n, &mut own, other.as_mut());
        let failed = r.is_err();
        if tx.send(r).is_err() || failed {
            break;
        }
    }
}

/// The next game number up to `games` that the file does not hold yet.
fn next_game(next: &AtomicU64, done: &HashSet<u64>, games: u64) -> Option<u64> {
    loop {
        let n = next.fetch_add(1, Ordering::Relaxed);
        if n > games {
            return None;
        }
        if !done.contains(&n) {
            return Some(n);
        }
    }
}

/// The progress on stderr: redrawn about once a second on a terminal, a line
/// every ten seconds otherwise (a log should not fill up with it).
struct Progress {
    terminal: bool,
    start: Instant,
    last: Instant,
    held: u64,
    games: u64,
}

impl Progress {
    fn new(terminal: bool, held: u64, games: u64) -> Progress {
        let now = Instant::now();
        Progress {
            terminal,
            start: now,
            last: now,
            held,
            games,
        }
    }

    fn show(&mut self, t: &Tally) {
        let every = Duration::from_secs(if self.terminal { 1 } else { 10 });
        if self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let line = format!(
            "datagen: games {}/{}, {} positions, {:.1} positions/s",
            self.held + t.games,
            self.games,
            t.positions,
            t.positions as f64 / secs
        );
        if self.terminal {
            note!("\r{line}\x1b[K");
        } else {
            noteln!("{line}");
        }
    }

    /// Erase the progress line, so that what follows does not land at its end.
    fn clear(&self) {
        if self.terminal {
            note!("\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::train;

    fn datagen(out: &str, extra: &[&str]) -> String {
        let mut args: Vec<String> = [
            "--out",
            out,
            "--games",
            "2",
            "--nodes",
            "300",
            "--threads",
            "1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut o = Vec::new();
        run(&args, &mut o).unwrap();
        String::from_utf8(o).unwrap()
    }

    #[test]
    fn marlin_datagen_writes_the_text_outputs_positions() {
        let dir =
            std::env::temp_dir().join(format!("brokkr-datagen-marlin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let txt = dir.join("g.txt").to_string_lossy().into_owned();
        let bin = dir.join("g.bin").to_string_lossy().into_owned();
        for f in [&txt, &bin, &format!("{bin}.games")] {
            let _ = std::fs::remove_file(f);
        }
        datagen(&txt, &[]);
        let said = datagen(&bin, &["--format", "marlin"]);
        assert!(said.contains("holds 2/2 games"), "{said}");
        let text = train::load(std::slice::from_ref(&txt), 1).unwrap();
        let marlin = train::load(std::slice::from_ref(&bin), 1).unwrap();
        assert_eq!(text.records, marlin.records);
        assert_eq!(train::data::games(&marlin.records).len(), 2);
        let index = std::fs::read_to_string(format!("{bin}.games")).unwrap();
        let lines: Vec<&str> = index.lines().collect();
        assert_eq!(lines.len(), 3, "{index}");
        assert!(lines[0].ends_with(", marlinformat"), "{index}");
        assert!(lines[1].starts_with("# game ") && lines[2].starts_with("# game "));
        // Resuming finds both games.
        let said = datagen(&bin, &["--format", "marlin"]);
        assert!(said.contains("nothing to play"), "{said}");
        let args: Vec<String> = ["--out", "x", "--games", "1", "--format", "csv"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(run(&args, &mut Vec::new())
            .unwrap_err()
            .contains("--format"));
    }
}
