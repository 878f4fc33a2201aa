//! What the integration tests share, written once: running the `brokkr` binary
//! (with a config file of the tests' own), its output as text, a scripted protocol
//! session, temporary folders that clean up after themselves, the perft suites,
//! start positions, random games, the bit paths and backends this CPU runs, and a
//! lock for the few tests that measure wall-clock time.
//!
//! Every test file says `mod common;` and uses the part it needs.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use brokkr::attacks::{Slider, SliderKind};
use brokkr::bits::{BitPath, Cpu, Portable};
use brokkr::board::perft::{parse_suite, SuiteEntry};
use brokkr::board::Board;
use brokkr::types::Move;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Running the binary

/// The engine binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_brokkr");

/// The config file every spawned `brokkr` reads (through `BROKKR_CONFIG`) instead
/// of the user's `~/.config/brokkr/paths.conf`, where a stale pick from `brokkr
/// paths --save` would change what the tests see. It holds no pick, so the CPU
/// defaults apply, as on a fresh machine.
pub fn test_config() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("brokkr-test-config");
        std::fs::create_dir_all(&dir).expect("create the tests' config folder");
        let path = dir.join("paths.conf");
        std::fs::write(&path, "# the tests' own config: no pick, the CPU decides\n")
            .expect("write the tests' config");
        path
    })
}

/// The binary under test: cargo's, or the one `BROKKR_TEST_BIN` names (to run
/// the same tests against another build, say the one before a fix, and see
/// them fail there).
pub fn bin() -> String {
    std::env::var("BROKKR_TEST_BIN").unwrap_or_else(|_| BIN.to_string())
}

/// A `brokkr` command that reads the tests' config. The environment is the
/// child's own (`Command::env`): setting it in this process would race with
/// every other test spawning at the same time.
pub fn command() -> Command {
    let mut c = Command::new(bin());
    c.env("BROKKR_CONFIG", test_config());
    c
}

/// Run `brokkr ARGS` to the end.
pub fn brokkr(args: &[&str]) -> Output {
    command().args(args).output().expect("run brokkr")
}

/// Run `brokkr ARGS`, insist that it succeeds, and return its stdout.
pub fn brokkr_ok(args: &[&str]) -> String {
    let o = brokkr(args);
    assert!(
        o.status.success(),
        "brokkr {args:?} failed ({}): {}",
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// Run any command, insist that it succeeds, and return its stdout.
pub fn run_ok(cmd: &mut Command) -> String {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        o.status.success(),
        "{cmd:?} failed ({}):\n{}\n{}",
        o.status,
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// Spawn `cmd` with no input and its output piped, each pipe read to its end on
/// a thread of its own (so a chatty child never blocks).
fn spawn_drained(cmd: &mut Command) -> (Child, JoinHandle<String>, JoinHandle<String>) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    (child, out, err)
}

fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        text(&bytes)
    })
}

/// Wait for `child` to end, or kill it after `limit` (a hang): its exit status,
/// `None` if killed.
fn wait_with_limit(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().expect("wait for a child") {
            return Some(st);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Run `cmd` with `input` on its stdin to its end or until `limit` (then it is
/// killed: a hang). Returns its exit status (`None` if killed), its stdout and
/// its stderr.
pub fn run_with_input(
    cmd: &mut Command,
    input: &str,
    limit: Duration,
) -> (Option<ExitStatus>, String, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let status = wait_with_limit(&mut child, limit);
    writer.join().unwrap();
    (status, out.join().unwrap(), err.join().unwrap())
}

/// Run `cmd` to its end or until `limit` (then it is killed: a hang). Returns its
/// exit status (`None` if killed) and its stdout followed by its stderr.
pub fn run_with_limit(cmd: &mut Command, limit: Duration) -> (Option<ExitStatus>, String) {
    let (mut child, out, err) = spawn_drained(cmd);
    let status = wait_with_limit(&mut child, limit);
    let mut text = out.join().unwrap() + &err.join().unwrap();
    if status.is_none() {
        text += &format!("\n(killed after {limit:?}: a hang)");
    }
    (status, text)
}

/// Run `cmd` to its end and return its output with its peak resident memory in
/// KiB, read from the kernel's accounting for exactly that child (`wait4`).
#[cfg(target_os = "linux")]
pub fn output_and_peak_memory(cmd: &mut Command) -> (Output, u64) {
    use std::os::unix::process::ExitStatusExt;
    // `struct rusage` on 64-bit Linux: two `struct timeval`s (two longs each),
    // then fourteen longs, the first of which is ru_maxrss in KiB.
    #[repr(C)]
    struct Rusage {
        times: [i64; 4],
        longs: [i64; 14],
    }
    extern "C" {
        fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
    }
    assert_eq!(
        std::mem::size_of::<usize>(),
        8,
        "the layout is 64-bit Linux's"
    );
    let (child, out, err) = spawn_drained(cmd);
    let mut status = 0i32;
    let mut usage = Rusage {
        times: [0; 4],
        longs: [0; 14],
    };
    let pid = child.id() as i32;
    // SAFETY: `wait4` writes one int and one `struct rusage` (whose 64-bit Linux
    // layout `Rusage` repeats) through pointers to live locals, and reaps only
    // our own child `pid`, which nothing else waits for: `child` is dropped
    // below without a `wait`.
    let got = unsafe { wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(
        got,
        pid,
        "wait4 failed: {}",
        std::io::Error::last_os_error()
    );
    drop(child);
    let output = Output {
        status: ExitStatus::from_raw(status),
        stdout: out.join().unwrap().into_bytes(),
        stderr: err.join().unwrap().into_bytes(),
    };
    (output, usage.longs[0] as u64)
}

// ---------------------------------------------------------------------------
// Temporary files

/// A fresh folder under the system's temporary folder, removed when dropped, or
/// kept (and its path printed) when the test failed, to look at what was written.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new folder whose name carries `tag`, the process and a counter, so that
    /// no two tests (nor two runs at once) share one.
    pub fn new(tag: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "brokkr-test-{tag}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temporary folder");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the folder (nothing is created).
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Write `contents` to the file `name` in the folder; returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, contents).expect("write a temporary file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept {} for inspection", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A path as `&str`, for argument lists (the temporary folder is UTF-8 here).
pub fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

// ---------------------------------------------------------------------------
// Data

/// The absolute path of a file in `tests/data/`.
pub fn data_path(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A perft suite of `tests/data/` (where each comes from: tests/data/SOURCES.md).
pub fn suite(name: &str) -> Vec<SuiteEntry> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Start positions for random games: the standard start, Kiwipete, two Chess960
/// starts, the CPW positions rich in en passant, promotions and checks, and a
/// few endgames, so that castling of both kinds, pawn endings and scaled
/// material all come up.
pub const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/pp3k2/2p1p3/3pP1p1/3P2P1/2P2K2/PP6/8 w - - 0 40",
    "4k3/1b3p2/4p1p1/p7/P3P3/2B2P2/5KP1/8 b - - 0 45",
    "6k1/5ppp/8/8/8/8/3N1PPP/2B3K1 w - - 0 50",
    "r5k1/5ppp/8/1P6/8/8/5PPP/R5K1 w - - 0 30",
];

/// The board of `STARTS[i % STARTS.len()]`.
pub fn start<S: Slider>(i: usize) -> Board<S> {
    Board::<S>::from_fen(STARTS[i % STARTS.len()]).expect("the start positions parse")
}

// ---------------------------------------------------------------------------
// Random games

/// A small deterministic generator (xorshift64*) for random games and data. An
/// endless iterator of numbers, so a game can take as many picks as it needs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() >> 33) as usize % n
    }
}

impl Iterator for Rng {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        Some(self.next_u64())
    }
}

/// Play a random legal game from `board`: each number of `picks` chooses one of
/// the legal moves (modulo their count), until the picks run out or no move is
/// left. `visit` sees each position and the move about to be played in it.
/// Returns the last position.
pub fn random_game<S: Slider>(
    mut board: Board<S>,
    picks: impl IntoIterator<Item = u64>,
    mut visit: impl FnMut(&Board<S>, Move),
) -> Board<S> {
    for pick in picks {
        let moves = board.legal_moves::<Portable>();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[(pick % moves.len() as u64) as usize];
        visit(&board, m);
        board.make::<brokkr::bits::Portable>(m);
    }
    board
}

/// Every position of a random game, the first and the last included.
pub fn random_positions<S: Slider>(
    board: Board<S>,
    picks: impl IntoIterator<Item = u64>,
) -> Vec<Board<S>> {
    let mut out = Vec::new();
    let last = random_game(board, picks, |b, _| out.push(*b));
    out.push(last);
    out
}

// ---------------------------------------------------------------------------
// What this CPU runs

/// The CPU, read once (CPUID traps to the hypervisor on a virtual machine).
pub fn cpu() -> &'static Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    CPU.get_or_init(Cpu::detect)
}

/// The CPU flags the kernel reports (`/proc/cpuinfo`'s `flags` line): a view of
/// the CPU independent of brokkr's own detection. `None` where there is none.
pub fn kernel_cpu_flags() -> Option<std::collections::BTreeSet<String>> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("flags"))?;
    Some(
        line.split_once(':')?
            .1
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    )
}

/// Whether the suite runs under CI (`CI` set and not 0 or false).
pub fn under_ci() -> bool {
    std::env::var("CI")
        .map(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
        .unwrap_or(false)
}

/// Says once per test binary which of `all` (name, the `/proc/cpuinfo` flags it
/// needs) the loops over `what` run and which they skip, and fails under CI when
/// a path is skipped though the kernel reports every flag it needs: then brokkr's
/// detection missed a feature the machine has, and every "each path" test
/// silently tested less. Paths needing no flag but not built here (the
/// out-of-line assembly off x86-64) count as skipped, never as missed.
pub fn report_paths(what: &'static str, all: &[(&str, &[&str])], ran: &[&str]) {
    static TOLD: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let flags = kernel_cpu_flags();
    let missed: Vec<&str> = all
        .iter()
        .filter(|(name, needs)| {
            !ran.contains(name)
                && !needs.is_empty()
                && flags
                    .as_ref()
                    .is_some_and(|f| needs.iter().all(|n| f.contains(*n)))
        })
        .map(|(name, _)| *name)
        .collect();
    let mut told = TOLD.lock().unwrap_or_else(|e| e.into_inner());
    if !told.contains(&what) {
        told.push(what);
        let skipped: Vec<&str> = all
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| !ran.contains(n))
            .collect();
        tell(&format!(
            "{what}: ran {}; skipped {}",
            ran.join(", "),
            if skipped.is_empty() {
                "none".to_string()
            } else {
                skipped.join(", ")
            }
        ));
    }
    assert!(
        missed.is_empty() || !under_ci(),
        "{what}: /proc/cpuinfo shows the flags of {missed:?}, but brokkr does not run them here"
    );
}

/// The bit paths this CPU can run (table and portable run everywhere).
pub fn bit_paths() -> Vec<BitPath> {
    let paths: Vec<BitPath> = BitPath::ALL
        .into_iter()
        .filter(|p| p.available(cpu()))
        .collect();
    // Losing these would make every loop over the paths vacuous.
    assert!(paths.contains(&BitPath::Table) && paths.contains(&BitPath::Portable));
    let bmi: &[&str] = &["bmi1", "abm", "popcnt"];
    let names: Vec<&str> = paths.iter().map(|p| p.name()).collect();
    report_paths(
        "bit paths",
        &[
            (
                "asm",
                if cfg!(target_arch = "x86_64") {
                    &["lm"]
                } else {
                    &[]
                },
            ),
            ("bmi", bmi),
            ("table", &[]),
            ("portable", &[]),
            ("extern", &[]),
            ("extern-bmi", bmi),
        ],
        &names,
    );
    paths
}

/// The slider backends this CPU can run.
pub fn sliders() -> Vec<SliderKind> {
    let kinds: Vec<SliderKind> = SliderKind::ALL
        .into_iter()
        .filter(|k| k.available(cpu()))
        .collect();
    assert!(kinds.contains(&SliderKind::Magic) && kinds.len() >= 4);
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    let all: Vec<(&str, &[&str])> = SliderKind::ALL
        .iter()
        .map(|k| {
            (
                k.name(),
                if *k == SliderKind::Pext {
                    &["bmi2"][..]
                } else {
                    &[]
                },
            )
        })
        .collect();
    report_paths("slider backends", &all, &names);
    kinds
}

/// The network's vector paths this CPU runs, fastest first.
pub fn vector_paths() -> Vec<brokkr::nnue::VectorPath> {
    use brokkr::nnue::VectorPath;
    let paths = VectorPath::runnable();
    let names: Vec<&str> = paths.iter().map(|p| p.name()).collect();
    let x86: &[&str] = if cfg!(target_arch = "x86_64") {
        &["lm"]
    } else {
        &[]
    };
    report_paths(
        "vector paths",
        &[
            ("avx512", &["avx512f", "avx512bw"]),
            ("avx2", &["avx2"]),
            ("sse2", x86),
            ("portable", &[]),
        ],
        &names,
    );
    paths
}

/// The kogge-stone fill paths this CPU runs.
pub fn fill_paths() -> Vec<brokkr::attacks::FillPath> {
    use brokkr::attacks::FillPath;
    let paths: Vec<FillPath> = FillPath::ALL
        .into_iter()
        .filter(|f| f.available())
        .collect();
    let names: Vec<&str> = paths.iter().map(|p| p.name()).collect();
    report_paths(
        "kogge-stone fill paths",
        &[
            ("scalar", &[]),
            ("avx2", &["avx2"]),
            ("avx512", &["avx2", "avx512f", "avx512vl"]),
        ],
        &names,
    );
    paths
}

/// The slider backends this CPU can run, magic left out: for the loops that
/// compare each backend with magic. Magic itself is anchored by the square walk
/// (`tests/sliders.rs`, `magic_equals_the_square_walk`) and by `tests/tables.rs`.
pub fn sliders_but_magic() -> Vec<SliderKind> {
    sliders()
        .into_iter()
        .filter(|&k| k != SliderKind::Magic)
        .collect()
}

// ---------------------------------------------------------------------------
// Wall-clock measurements

/// Held by every test that measures wall-clock time in-process or in a child,
/// so two such tests of one binary never measure on the same cores at once.
/// (Cargo runs the test binaries one after another; inside one they run in
/// parallel.) A failed holder poisons nothing: the guard is taken either way.
pub fn timing_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

// ---------------------------------------------------------------------------
// A scripted protocol session

/// How long a session waits for one expected line before it calls the engine
/// hung. Every search the tests start is bounded by nodes (or by a small clock),
/// so this is no timing assertion: it only ends a hang, and it is generous for
/// a loaded 2-core machine.
pub const WAIT: Duration = Duration::from_secs(120);

/// The engine binary run as a child, fed lines on stdin and read line by line.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub log: Vec<String>,
}

impl Engine {
    /// Start `brokkr ARGS` with the tests' config.
    pub fn start(args: &[&str]) -> Engine {
        Engine::spawn(command().args(args))
    }

    /// The engine under `sh`, with its address space limited to `kib` KiB, so
    /// that a large allocation fails whatever the kernel's overcommit policy
    /// (and a table that does fit is never larger than the limit).
    pub fn start_limited(kib: u64, args: &[&str]) -> Engine {
        let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
        Engine::spawn(
            Command::new("sh")
                .arg("-c")
                .arg(script)
                .arg(bin())
                .args(args)
                .env("BROKKR_CONFIG", test_config()),
        )
    }

    /// Run `cmd` as the engine: stdin and stdout piped, stderr dropped.
    pub fn spawn(cmd: &mut Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            log: vec![],
        }
    }

    /// A UCI session, past `uciok`.
    pub fn uci() -> Engine {
        let mut e = Engine::start(&[]);
        e.send("uci");
        e.expect("uciok", |l| l == "uciok");
        e
    }

    /// An xboard session, past `feature ... done=1`.
    pub fn xboard() -> Engine {
        let mut e = Engine::start(&[]);
        e.send("xboard");
        e.send("protover 2");
        e.expect("done=1", |l| l.contains("done=1"));
        e
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// The next line satisfying `pred` (the lines before it go to the log), or a
    /// panic with what came instead.
    pub fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.log.push(l.clone());
                    if pred(&l) {
                        return l;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {WAIT:?}; got:\n{}", self.tail())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine exited before {what}; got:\n{}", self.tail())
                }
            }
        }
    }

    /// Every line up to and including the next one satisfying `pred`.
    pub fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let from = self.log.len();
        self.expect(what, pred);
        self.log[from..].to_vec()
    }

    /// The last lines received, for a failure message.
    pub fn tail(&self) -> String {
        let n = self.log.len().saturating_sub(30);
        self.log[n..].join("\n")
    }

    /// `isready`, answered by `readyok`.
    pub fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok", |l| l == "readyok");
    }

    /// xboard's `ping N`, answered by `pong N`; returns the lines before it.
    pub fn pong(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        let mut lines = self.until(&want, |l| l == want);
        lines.pop();
        lines
    }

    /// The lines up to the next `bestmove`, as a search's outcome.
    pub fn search_output(&mut self) -> Search {
        let lines = self.until("bestmove", |l| l.starts_with("bestmove"));
        Search::from_lines(lines)
    }

    /// Send `go ARGS` and wait for its `bestmove`.
    pub fn go(&mut self, args: &str) -> Search {
        self.send(&format!("go {args}"));
        self.search_output()
    }

    /// The move of the next `bestmove` line.
    pub fn bestmove(&mut self) -> String {
        self.search_output().best
    }

    /// The next `bestmove` line's move, with the lines up to it.
    pub fn bestmove_lines(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove", |l| l.starts_with("bestmove"));
        let mv = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or("");
        (mv.to_string(), lines)
    }

    /// The next xboard `move` line's move, with the lines up to it.
    pub fn xmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("move", |l| l.starts_with("move "));
        let mv = lines.last().unwrap()[5..].trim().to_string();
        (mv, lines)
    }

    /// Switch a started engine to xboard: `xboard`, `protover 2`, up to `done=1`.
    pub fn handshake_xboard(&mut self) {
        self.send("xboard");
        self.send("protover 2");
        self.expect("done=1", |l| l.contains("done=1"));
    }

    /// The FEN `d` shows (a brokkr extra of UCI, as in Stockfish).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let l = self.expect("Fen:", |l| l.starts_with("Fen: "));
        l["Fen: ".len()..].to_string()
    }

    /// Wait until the running search reports at least `nodes` nodes in an `info`
    /// line; returns the lines received meanwhile. A handshake on work done, not
    /// on time: it holds however loaded the machine is.
    pub fn wait_for_nodes(&mut self, nodes: u64) -> Vec<String> {
        self.until(&format!("an info line with {nodes} nodes"), |l| {
            l.starts_with("bestmove") || word_after(l, "nodes").is_some_and(|n| n >= nodes)
        })
    }

    /// Close stdin and wait for a clean exit.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not exit at EOF");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave a searching engine behind.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The number after the word `key` in `line`, if any.
pub fn word_after(line: &str, key: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()?.parse().ok()
}

/// What one UCI search printed: its `info` lines and its `bestmove`.
#[derive(Clone, Debug)]
pub struct Search {
    /// Every line before `bestmove`.
    pub lines: Vec<String>,
    /// The best move as sent (`(none)` without a legal move).
    pub best: String,
    pub ponder: Option<String>,
}

impl Search {
    fn from_lines(mut lines: Vec<String>) -> Search {
        let last = lines.pop().expect("a bestmove line");
        let words: Vec<&str> = last.split_whitespace().collect();
        Search {
            best: words.get(1).unwrap_or(&"").to_string(),
            ponder: (words.get(2) == Some(&"ponder")).then(|| words[3].to_string()),
            lines,
        }
    }

    /// The `info` lines with a score (not the `currmove` ones).
    pub fn infos(&self) -> impl Iterator<Item = &String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("info ") && l.contains(" score "))
    }

    /// The node count of the last `info` line that gives one.
    pub fn nodes(&self) -> Option<u64> {
        self.infos().filter_map(|l| word_after(l, "nodes")).last()
    }

    /// The moves of the last `info` line with a `pv`.
    pub fn pv(&self) -> Vec<String> {
        self.infos()
            .filter_map(|l| l.find(" pv ").map(|at| &l[at + 4..]))
            .last()
            .map(|pv| pv.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    }

    /// The `info string` lines.
    pub fn strings(&self) -> Vec<&String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect()
    }
}

/// `board` after the UCI `moves`, each of which must be legal.
pub fn after<S: Slider>(board: &Board<S>, moves: &[&str]) -> Board<S> {
    let mut b = *board;
    for mv in moves {
        let m = b
            .parse_uci(mv)
            .unwrap_or_else(|e| panic!("{mv} in {}: {e}", b.to_fen()));
        b.make::<brokkr::bits::Portable>(m);
    }
    b
}

/// Whether `mv` is a legal move of `board` in UCI notation.
pub fn is_legal<S: Slider>(board: &Board<S>, mv: &str) -> bool {
    board.parse_uci(mv).is_ok()
}

// ---------------------------------------------------------------------------
// Python

/// The Python interpreter: `$BROKKR_PYTHON`, else `python3`.
pub fn python() -> String {
    std::env::var("BROKKR_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Whether a check that needs Python (or python-chess) must fail rather than be
/// skipped: under CI (`CI` set) or with `BROKKR_REQUIRE_PYTHON_CHESS=1`, so that
/// CI cannot pass by skipping it.
pub fn python_required() -> bool {
    let set = |name: &str| {
        std::env::var(name)
            .map(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
            .unwrap_or(false)
    };
    set("CI") || set("BROKKR_REQUIRE_PYTHON_CHESS")
}

/// Written straight to the process's stderr, past the test harness's capture,
/// so that a figure a test reports is seen even when the test passes.
pub fn tell(msg: &str) {
    let _ = writeln!(std::io::stderr(), "{msg}");
}

/// [`tell`] between bars of `!`, for a check that did not run.
pub fn shout(msg: &str) {
    let bar = "!".repeat(78);
    tell(&format!("\n{bar}\n{msg}\n{bar}\n"));
}

/// A check that could not run: fail if Python is required, else warn and pass.
pub fn skipped(msg: &str) {
    shout(msg);
    assert!(!python_required(), "{msg}");
}
