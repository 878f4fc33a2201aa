//! Measuring every bitscan path, slider backend, search configuration and network
//! vector path on this CPU, for `brokkr paths`: engine authors see which technique
//! is fastest where they run, and how sure that is.
//!
//! May not touch: the protocols and the command line (the layers: docs/architecture.md).
//!
//! Every row of every table is a *sampler*: a closure that does a fixed piece of
//! work (in round `r`, the same work for every row of its table) and answers the
//! units per second it ran at. The rows are run in interleaved rounds (A B C, then
//! B C A, ...: never A A A B B B), so a change of load or clock speed during the run
//! reaches every row alike. Each row is compared with the row of brokkr's own pick
//! in its table *round by round*: the ratio of the two rates in one round is one
//! sample, and the figure is the median of those samples with a distribution-free
//! 95% interval. Rounds go on until every ratio's interval is within the target
//! (±2% by default) or the time budget is spent; a row still wider than the target
//! says so instead of being ranked. The measuring thread is pinned to the core it
//! runs on where the OS allows ([`pin_to_current_core`]).
//!
//! The decisive table is `search`: node-limited searches of the bench positions with
//! the network, for every (bit path, backend) pair the search is built for, each with
//! the vector path it would play with, plus brokkr's pair on every other vector path.
//! That is what a pick changes for a player. Perft and the micro-benchmarks show the
//! techniques side by side, but the engine does not play perft.

pub mod samplers;

pub use samplers::{sample_bitboards, POSITIONS};

use crate::attacks::{FillPath, SliderKind};
use crate::bits::{BitPath, Cpu};
use crate::nnue::VectorPath;
use std::time::{Duration, Instant};

/// The tables of `brokkr paths`, in the order they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// lsb, msb and popcount of every bit path, on the pieces of real positions.
    Bitscan,
    /// Perft of every slider backend and bit path, and the quad-bitboard board.
    Perft,
    /// Search with the network: what a player's speed depends on.
    Search,
    /// The network's accumulator updates and output layers, per vector path.
    Network,
}

impl Table {
    /// Every table, in the order they are shown.
    pub const ALL: [Table; 4] = [Table::Bitscan, Table::Perft, Table::Search, Table::Network];

    /// The table's name in the JSON and the SVG.
    pub const fn name(self) -> &'static str {
        match self {
            Table::Bitscan => "bitscan",
            Table::Perft => "perft",
            Table::Search => "search",
            Table::Network => "network",
        }
    }

    /// What a row's rate counts.
    pub const fn unit(self) -> &'static str {
        match self {
            Table::Bitscan => "operations/s",
            Table::Perft | Table::Search => "nodes/s",
            Table::Network => "operations/s",
        }
    }
}

/// What one row runs: the parts of a configuration that apply to its table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// `main` or `qbb` (perft only).
    pub board: Option<&'static str>,
    pub bits: Option<BitPath>,
    pub slider: Option<SliderKind>,
    /// The fill path of a `kogge-stone` perft row.
    pub fill: Option<FillPath>,
    pub vector: Option<VectorPath>,
    /// `lsb`, `msb`, `popcount` (bitscan) or `update`, `eval` (network).
    pub op: Option<&'static str>,
}

/// One measured row.
#[derive(Clone, Debug)]
pub struct Row {
    pub table: Table,
    /// A short name, unique in its table (`main/pext/bmi`, `bmi/magic/avx512`).
    pub label: String,
    pub config: Config,
    /// The index (in [`Report::rows`]) of the row this one is compared with: the
    /// row of brokkr's pick in this table (itself, for the pick).
    pub reference: usize,
    /// Units per second, one per measured round.
    pub rates: Vec<f64>,
}

impl Row {
    /// Whether this row is brokkr's pick, the one the others are compared with.
    pub fn is_pick(&self, index: usize) -> bool {
        self.reference == index
    }
}

/// A median with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub median: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// The median of `samples` and a distribution-free 95% interval for it, from
    /// order statistics (see [`median_interval_ranks`]). Empty: all NaN.
    pub fn of(samples: &[f64]) -> Estimate {
        if samples.is_empty() {
            return Estimate {
                median: f64::NAN,
                low: f64::NAN,
                high: f64::NAN,
            };
        }
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let median = if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2.0
        };
        let (lo, hi) = median_interval_ranks(n);
        Estimate {
            median,
            low: s[lo],
            high: s[hi],
        }
    }

    /// The larger distance from the median to an end of the interval, as a
    /// fraction of the median: "±1.4%" is 0.014.
    pub fn spread(&self) -> f64 {
        let half = (self.median - self.low).max(self.high - self.median);
        if self.median.abs() > 0.0 {
            half / self.median.abs()
        } else {
            f64::INFINITY
        }
    }
}

/// How a row compares with its table's pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The row is the pick.
    Pick,
    /// Faster: the whole interval of the ratio lies above 1.
    Faster,
    /// Slower: the whole interval lies below 1.
    Slower,
    /// The interval holds 1 and is within the target: as fast, as far as the
    /// target can tell.
    Same,
    /// The interval holds 1 and is wider than the target: too noisy to rank.
    Wide,
}

impl Verdict {
    /// The verdict in a word or two, as the text and the JSON say it.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Pick => "pick",
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Same => "same",
            Verdict::Wide => "too noisy",
        }
    }
}

/// Everything `brokkr paths` measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub cpu: Cpu,
    /// The core the measuring thread was pinned to, or why it was not.
    pub pinned: Result<usize, String>,
    /// Measured rounds (the warm-up round not counted).
    pub rounds: usize,
    /// Seconds the rounds took, warm-up included.
    pub seconds: f64,
    /// What the run was asked for.
    pub settings: Settings,
    /// Whether every ratio's interval came within the target before the budget ran out.
    pub converged: bool,
    /// Nodes of each search sample (the same for every search row of one
    /// process; each process sizes its own).
    pub search_nodes: u64,
    /// Processes whose rounds were pooled (see [`pool`]).
    pub processes: usize,
    pub rows: Vec<Row>,
}

impl Report {
    /// The rate of row `i`, units per second.
    pub fn rate(&self, i: usize) -> Estimate {
        Estimate::of(&self.rows[i].rates)
    }

    /// Row `i`'s rate over its reference's, round by round.
    pub fn ratio(&self, i: usize) -> Estimate {
        ratio_of(
            &self.rows[i].rates,
            &self.rows[self.rows[i].reference].rates,
        )
    }

    /// How row `i` compares with its table's pick.
    pub fn verdict(&self, i: usize) -> Verdict {
        if self.rows[i].is_pick(i) {
            return Verdict::Pick;
        }
        verdict_of(&self.ratio(i), self.settings.target)
    }

    /// The rows of table `t`, with their indices.
    pub fn table(&self, t: Table) -> impl Iterator<Item = (usize, &Row)> {
        self.rows
            .iter()
            .enumerate()
            .filter(move |(_, r)| r.table == t)
    }

    /// The index of the row of table `t` with the highest median ratio to the pick.
    pub fn fastest(&self, t: Table) -> Option<usize> {
        self.table(t)
            .map(|(i, _)| (i, self.ratio(i).median))
            .filter(|(_, m)| m.is_finite())
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

/// The verdict of a ratio estimate against the target spread.
pub fn verdict_of(ratio: &Estimate, target: f64) -> Verdict {
    if ratio.low > 1.0 {
        Verdict::Faster
    } else if ratio.high < 1.0 {
        Verdict::Slower
    } else if ratio.spread() <= target {
        Verdict::Same
    } else {
        Verdict::Wide
    }
}

/// The median and interval of `a[r] / b[r]` over the rounds both have.
fn ratio_of(a: &[f64], b: &[f64]) -> Estimate {
    let r: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    Estimate::of(&r)
}

/// What a run is asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Stop starting rounds once this is spent (a round started finishes).
    pub budget: Duration,
    /// Stop once every ratio's interval is within this fraction of its median.
    pub target: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            budget: Duration::from_secs(10),
            target: 0.02,
        }
    }
}

/// Rounds measured before the target may stop a run: with 6 samples the interval
/// is their whole range, which covers the median with 97% probability.
pub const MIN_ROUNDS: usize = 6;
/// Rounds after which a run stops, whatever its intervals.
pub const MAX_ROUNDS: usize = 500;

/// A row's work: asked for round `r`, it runs that round's work and answers units
/// per second. Called through a pointer once a sample, never inside the timed loop.
pub type Sampler<'a> = Box<dyn FnMut(usize) -> f64 + 'a>;

/// What [`run_rounds`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounds {
    /// `rates[row][round]`, measured rounds only.
    pub rates: Vec<Vec<f64>>,
    /// Whether every ratio came within the target.
    pub converged: bool,
    /// Seconds, warm-up included.
    pub seconds: f64,
}

/// Run `samplers` in interleaved rounds and compare each with its reference
/// (`references[i]`, an index into `samplers`; itself for a pick).
///
/// Round 0 is a warm-up (caches, page faults, each sampler's calibration) and is
/// not kept. Round `r` runs the samplers rotated by `r / 2`, backwards when `r` is
/// odd: no row always runs first, and any two run in either order equally often.
/// After [`MIN_ROUNDS`], the run stops as soon as every ratio's interval is within
/// `settings.target`; it also stops when the next round would overrun the budget
/// (judged by the last round's length), or after [`MAX_ROUNDS`]. `progress` is
/// called before each round with (round, seconds so far).
pub fn run_rounds(
    samplers: &mut [Sampler<'_>],
    references: &[usize],
    settings: &Settings,
    mut progress: impl FnMut(usize, f64),
) -> Rounds {
    assert_eq!(samplers.len(), references.len());
    let n = samplers.len();
    let start = Instant::now();
    let mut rates = vec![Vec::new(); n];
    let mut converged = false;
    let mut last_round = 0.0;
    for round in 0..=MAX_ROUNDS {
        let elapsed = start.elapsed().as_secs_f64();
        if round > 1 && elapsed + last_round > settings.budget.as_secs_f64() {
            break;
        }
        progress(round, elapsed);
        let round_start = Instant::now();
        // Rounds 2m and 2m + 1 run one rotation forwards and backwards, so every
        // two rows meet in both orders equally often.
        let rotation = round / 2;
        for k in 0..n {
            let j = if round % 2 == 0 { k } else { n - 1 - k };
            let i = (j + rotation) % n;
            let rate = (samplers[i])(round);
            if round > 0 {
                rates[i].push(rate);
            }
        }
        last_round = round_start.elapsed().as_secs_f64();
        if round >= MIN_ROUNDS && all_within(&rates, references, settings.target) {
            converged = true;
            break;
        }
    }
    Rounds {
        rates,
        converged,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Whether every row's ratio to its reference is within `target`.
fn all_within(rates: &[Vec<f64>], references: &[usize], target: f64) -> bool {
    references
        .iter()
        .enumerate()
        .filter(|&(i, &r)| i != r)
        .all(|(i, &r)| ratio_of(&rates[i], &rates[r]).spread() <= target)
}

/// The ranks of a distribution-free 95% interval for the median of `n` sorted
/// samples: `(k, n - 1 - k)`, 0-based, with `k` the largest such that
/// P(Binomial(n, 1/2) <= k) <= 2.5% (at least 0, the whole range, for small `n`).
pub fn median_interval_ranks(n: usize) -> (usize, usize) {
    let mut k = 0;
    let (mut cum, mut pmf) = (0.0, 0.5f64.powi(n as i32));
    for j in 0..n {
        cum += pmf;
        if cum > 0.025 {
            break;
        }
        k = j;
        pmf *= (n - j) as f64 / (j + 1) as f64;
    }
    let k = k.min((n.max(1) - 1) / 2);
    (k, n.max(1) - 1 - k)
}

/// The rows [`measure`] would measure on `cpu`, with no rates: what a parent
/// process matches its children's rates to (see [`pool`]).
pub fn plan_rows(cpu: &Cpu) -> Vec<Row> {
    samplers::Plan::new(cpu).build().0
}

/// One process's measurement, as [`Report::raw`] writes it: the run's figures and
/// each row's label with its rates.
#[derive(Clone, Debug, PartialEq)]
pub struct Raw {
    pub rounds: usize,
    pub seconds: f64,
    pub search_nodes: u64,
    pub pinned: Result<usize, String>,
    /// (label, rates), in the plan's order.
    pub rows: Vec<(String, Vec<f64>)>,
}

/// The first line of [`Report::raw`]'s text.
const RAW_MAGIC: &str = "brokkr-paths-raw 1";

impl Report {
    /// This run as text for a parent process: a header line, a line of figures,
    /// then one line per row, `table/label` TAB the rates separated by spaces
    /// (Rust's shortest round-trip form, so nothing is lost).
    pub fn raw(&self) -> String {
        let mut out = format!(
            "{RAW_MAGIC}\n{} {} {} {}\n",
            self.rounds,
            self.seconds,
            self.search_nodes,
            self.pinned.as_ref().map_or(-1, |&c| c as i64)
        );
        for r in &self.rows {
            let rates: Vec<String> = r.rates.iter().map(|x| x.to_string()).collect();
            out.push_str(&format!(
                "{}/{}\t{}\n",
                r.table.name(),
                r.label,
                rates.join(" ")
            ));
        }
        out
    }
}

impl Raw {
    /// Read [`Report::raw`]'s text.
    pub fn parse(text: &str) -> Result<Raw, String> {
        let mut lines = text.lines();
        if lines.next() != Some(RAW_MAGIC) {
            return Err("not the output of a measuring process".to_string());
        }
        let figures: Vec<&str> = lines.next().unwrap_or("").split(' ').collect();
        let bad = || "a measuring process's figures do not read".to_string();
        let [rounds, seconds, nodes, core] = figures[..] else {
            return Err(bad());
        };
        let core: i64 = core.parse().map_err(|_| bad())?;
        let mut rows = Vec::new();
        for line in lines {
            let (label, rates) = line.split_once('\t').ok_or_else(bad)?;
            let rates = rates
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(|w| w.parse::<f64>().map_err(|_| bad()))
                .collect::<Result<Vec<f64>, String>>()?;
            rows.push((label.to_string(), rates));
        }
        Ok(Raw {
            rounds: rounds.parse().map_err(|_| bad())?,
            seconds: seconds.parse().map_err(|_| bad())?,
            search_nodes: nodes.parse().map_err(|_| bad())?,
            pinned: usize::try_from(core).map_err(|_| "not pinned in a child".to_string()),
            rows,
        })
    }
}

/// Pool the rounds of several processes' runs of the same plan (`rows`, from
/// [`plan_rows`]) into one report. Each round pairs rows measured in one process,
/// so every per-round ratio stays a fair one; pooling lets the intervals see what
/// differs from one process to the next (where the code and buffers land in memory
/// moved a few micro-benchmarks by 1-20% between runs whose own intervals were a
/// fraction of a percent).
pub fn pool(
    cpu: Cpu,
    mut rows: Vec<Row>,
    runs: &[Raw],
    settings: &Settings,
    seconds: f64,
) -> Result<Report, String> {
    for run in runs {
        if run.rows.len() != rows.len() {
            return Err(format!(
                "a measuring process measured {} rows where this one plans {}",
                run.rows.len(),
                rows.len()
            ));
        }
        for (row, (label, rates)) in rows.iter_mut().zip(&run.rows) {
            if *label != format!("{}/{}", row.table.name(), row.label) {
                return Err(format!(
                    "a measuring process measured '{label}' where this one plans '{}'",
                    row.label
                ));
            }
            row.rates.extend_from_slice(rates);
        }
    }
    let references: Vec<usize> = rows.iter().map(|r| r.reference).collect();
    let rates: Vec<Vec<f64>> = rows.iter().map(|r| r.rates.clone()).collect();
    Ok(Report {
        pinned: runs
            .first()
            .map_or(Err("no process ran".to_string()), |r| r.pinned.clone()),
        cpu,
        rounds: runs.iter().map(|r| r.rounds).sum(),
        seconds,
        settings: *settings,
        converged: all_within(&rates, &references, settings.target),
        search_nodes: runs.first().map_or(0, |r| r.search_nodes),
        processes: runs.len(),
        rows,
    })
}

/// Measure every table on this CPU within `settings`, calling `progress` before
/// each round with (round, seconds so far).
pub fn measure(settings: &Settings, progress: impl FnMut(usize, f64)) -> Report {
    let cpu = Cpu::detect();
    let (pin, pinned) = pin_to_current_core();
    let plan = samplers::Plan::new(&cpu);
    let (mut rows, mut runs, search_nodes) = plan.build();
    let references: Vec<usize> = rows.iter().map(|r| r.reference).collect();
    let rounds = run_rounds(&mut runs, &references, settings, progress);
    drop(runs);
    drop(pin);
    let measured = rounds.rates.first().map_or(0, Vec::len);
    for (row, rates) in rows.iter_mut().zip(rounds.rates) {
        row.rates = rates;
    }
    Report {
        pinned,
        cpu,
        rounds: measured,
        seconds: rounds.seconds,
        settings: *settings,
        converged: rounds.converged,
        search_nodes,
        processes: 1,
        rows,
    }
}

/// Pins the calling thread to the core it runs on until the guard drops (the old
/// affinity is put back then); threads it starts meanwhile inherit the pin. Answers
/// the core, or why nothing was pinned: std has no affinity call, so this is Linux's
/// `sched_setaffinity`, and elsewhere nothing is pinned.
pub fn pin_to_current_core() -> (Option<impl Drop>, Result<usize, String>) {
    affinity::pin()
}

#[cfg(target_os = "linux")]
mod affinity {
    /// Bytes of glibc's and musl's `cpu_set_t` (1024 cores).
    const SET_BYTES: usize = 128;

    extern "C" {
        fn sched_getcpu() -> i32;
        fn sched_getaffinity(pid: i32, size: usize, mask: *mut u8) -> i32;
        fn sched_setaffinity(pid: i32, size: usize, mask: *const u8) -> i32;
    }

    /// The calling thread's affinity before it was pinned.
    pub struct Unpin([u8; SET_BYTES]);

    impl Drop for Unpin {
        fn drop(&mut self) {
            // SAFETY: the mask is SET_BYTES long, as the size passed says; pid 0
            // is the calling thread. A failure leaves the pin, which is harmless.
            unsafe {
                sched_setaffinity(0, SET_BYTES, self.0.as_ptr());
            }
        }
    }

    pub fn pin() -> (Option<Unpin>, Result<usize, String>) {
        let mut old = [0u8; SET_BYTES];
        // SAFETY: `old` is SET_BYTES long, as the size passed says; pid 0 is the
        // calling thread; sched_getcpu takes nothing.
        let (got, core) = unsafe {
            (
                sched_getaffinity(0, SET_BYTES, old.as_mut_ptr()),
                sched_getcpu(),
            )
        };
        if got != 0 || core < 0 || core as usize >= SET_BYTES * 8 {
            return (None, Err("sched_getaffinity or sched_getcpu failed".into()));
        }
        let core = core as usize;
        let mut mask = [0u8; SET_BYTES];
        mask[core / 8] = 1 << (core % 8);
        // SAFETY: as above, `mask` is SET_BYTES long.
        if unsafe { sched_setaffinity(0, SET_BYTES, mask.as_ptr()) } != 0 {
            return (
                None,
                Err(format!("sched_setaffinity to core {core} refused")),
            );
        }
        (Some(Unpin(old)), Ok(core))
    }
}

#[cfg(not(target_os = "linux"))]
mod affinity {
    /// Nothing to undo where nothing was pinned.
    pub struct Unpin;

    impl Drop for Unpin {
        fn drop(&mut self) {}
    }

    pub fn pin() -> (Option<Unpin>, Result<usize, String>) {
        (
            None,
            Err("this OS has no affinity call brokkr uses (Linux only)".into()),
        )
    }
}
