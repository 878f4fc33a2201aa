//! `brokkr paths`: measure every bitscan path, slider backend, search pair and
//! vector path on this CPU with intervals, say which brokkr picks and whether the
//! pick is the fastest, draw it (`--svg`), and optionally save a faster pick.

mod json;
mod svg;
mod text;

use super::text::escape_short;
use super::{write_error, Args};
use crate::attacks::SliderKind;
use crate::bits::BitPath;
use crate::measure::{measure, Report, Settings, Table, Verdict};
use crate::paths::{self, Choice};
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// The help text of `brokkr paths`.
pub const HELP: &str = "\
usage: brokkr paths [--time SECONDS] [--target PERCENT] [--processes N] [--json]
                    [--svg FILE] [--save]

Measures, on this CPU, four tables: lsb/msb/popcount of every bitscan path; perft of
every slider backend and bit path (and the quad-bitboard board); search speed with
the network for every (bit path, backend) pair the search is built for, each on the
vector path it plays with, and brokkr's pair on every other vector path; and the
network's accumulator updates and evaluations on every vector path. The rows run in
interleaved rounds and each is compared with brokkr's pick in its table round by
round, so every figure comes with a 95% interval. The search table decides: it is
what a pick changes in play.
  --time SECONDS    the time budget, 0.5 to 600 (default 10): rounds stop when it
                    is spent, or earlier once every interval is within the target
  --target PERCENT  the interval each ratio is measured to, 0.1 to 50 (default 2)
  --processes N     measure in N processes one after another, 1 to 16 (default
                    3), each with its share of the budget, and pool their rounds:
                    where code and buffers land in memory differs from process
                    to process, and moves some rows by a few percent
  --json            print the results as JSON (schema brokkr-paths, version 2,
                    described in docs/speed.md)
  --svg FILE        draw the tables as bar charts with their intervals into FILE
  --save            write to the config file (which the engine reads at start-up,
                    see `BROKKR_CONFIG`) the search pair that was faster than the
                    CPU's default beyond its interval, if any; otherwise the file
                    keeps the CPU's defaults. Each pick's note says how sure it is.";

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["time", "target", "svg", "processes"],
        &["json", "save", "child"],
    )?;
    if let Some(extra) = a.positional.first() {
        return Err(format!(
            "unexpected argument '{}'\n{HELP}",
            escape_short(extra)
        ));
    }
    let settings = Settings {
        budget: Duration::from_secs_f64(number(&a, "time", 10.0, 0.5, 600.0)?),
        target: number(&a, "target", 2.0, 0.1, 50.0)? / 100.0,
    };
    let processes = super::bench::parse_range(&a, "processes", 3, 1, 16)?;
    // A measuring process started by another: its rounds, raw, and nothing else.
    if a.flag("child") {
        let report = measure(&settings, |_, _| {});
        return write!(out, "{}", report.raw()).map_err(write_error);
    }
    // Open the picture's file before the measuring, so a bad path costs no wait.
    let mut picture = match a.value("svg") {
        Some(file) => Some(
            std::fs::File::create(file)
                .map_err(|e| format!("cannot write {}: {e}", escape_short(file)))?,
        ),
        None => None,
    };
    let show = std::io::stderr().is_terminal();
    let budget = settings.budget.as_secs_f64();
    let report = if processes == 1 {
        measure(&settings, |round, secs| {
            if show {
                note!("\r\x1b[2K[{secs:4.1} s of {budget} s] round {round}...");
            }
        })
    } else {
        pooled(&settings, processes, show)?
    };
    if show {
        note!("\r\x1b[2K");
    }
    let choice = Choice::resolve(&report.cpu, None, None);
    let decision = Decision::of(&report);
    if let (Some(f), Some(file)) = (picture.as_mut(), a.value("svg")) {
        f.write_all(svg::svg(&report).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", escape_short(file)))?;
    }
    if a.flag("json") {
        say!(out, "{}", json::json(&report, &choice, &decision));
    } else {
        write!(out, "{}", text::text(&report, &choice, &decision)).map_err(write_error)?;
    }
    if a.flag("save") {
        // The decision goes with the table, or to stderr beside the JSON.
        out.flush().map_err(write_error)?;
        let mut err = std::io::stderr();
        let sink: &mut dyn Write = if a.flag("json") { &mut err } else { out };
        let notes = [decision.bits_note.as_str(), decision.slider_note.as_str()];
        let path = paths::save(decision.bits, decision.slider, &notes)?;
        let shown = |saved: Option<String>| saved.unwrap_or_else(|| "CPU default".to_string());
        say!(sink, "\n--save:");
        for n in notes {
            say!(sink, "  {n}");
        }
        say!(
            sink,
            "  wrote {}: bits = {}, slider = {}",
            path.display(),
            shown(decision.bits.map(|b| b.to_string())),
            shown(decision.slider.map(|s| s.to_string()))
        );
    }
    Ok(())
}

/// Measure in `processes` child processes, one after another, each with its
/// share of the budget (at least half a second), and pool their rounds.
fn pooled(settings: &Settings, processes: usize, show: bool) -> Result<Report, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find brokkr itself: {e}"))?;
    let start = std::time::Instant::now();
    let share = (settings.budget.as_secs_f64() / processes as f64).max(0.5);
    let mut runs = Vec::new();
    for k in 1..=processes {
        if show {
            note!(
                "\r\x1b[2K[{:4.1} s] measuring in process {k} of {processes}...",
                start.elapsed().as_secs_f64()
            );
        }
        let o = std::process::Command::new(&exe)
            .args(["paths", "--child", "--processes", "1", "--time"])
            .arg(format!("{share}"))
            .arg("--target")
            .arg(format!("{}", settings.target * 100.0))
            .stderr(std::process::Stdio::piped())
            .output()
            .map_err(|e| format!("cannot start a measuring process: {e}"))?;
        if !o.status.success() {
            return Err(format!(
                "a measuring process failed ({}): {}",
                o.status,
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        runs.push(crate::measure::Raw::parse(&String::from_utf8_lossy(
            &o.stdout,
        ))?);
    }
    let cpu = crate::bits::Cpu::detect();
    let rows = crate::measure::plan_rows(&cpu);
    crate::measure::pool(cpu, rows, &runs, settings, start.elapsed().as_secs_f64())
}

/// The value of `--name`, a number from `lo` to `hi`, or `default`.
fn number(a: &Args, name: &str, default: f64, lo: f64, hi: f64) -> Result<f64, String> {
    match a.value(name) {
        None => Ok(default),
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|x| (lo..=hi).contains(x))
            .ok_or_else(|| {
                format!(
                    "bad value for --{name} '{}': expected a number from {lo} to {hi}",
                    escape_short(v)
                )
            }),
    }
}

/// What the search table says about brokkr's picks: what `--save` would write,
/// and why, in words.
pub(crate) struct Decision {
    /// The bit path to save (`None`: the CPU default stands).
    pub bits: Option<BitPath>,
    pub slider: Option<SliderKind>,
    pub bits_note: String,
    pub slider_note: String,
    /// Whether the widest vector path was the fastest in the search.
    pub simd_note: String,
}

/// "+3.1% (median of 14 rounds, 95% interval +1.2% to +4.5%)".
pub(crate) fn gain_text(report: &Report, i: usize) -> String {
    let r = report.ratio(i);
    let pct = |x: f64| format!("{:+.1}%", (x - 1.0) * 100.0);
    format!(
        "{} (median of {} rounds, 95% interval {} to {})",
        pct(r.median),
        report.rounds,
        pct(r.low),
        pct(r.high)
    )
}

impl Decision {
    pub(crate) fn of(report: &Report) -> Decision {
        let rows = &report.rows;
        let Some(pick) = report
            .table(Table::Search)
            .find(|(i, r)| r.is_pick(*i))
            .map(|(i, _)| i)
        else {
            let none = "the search was not measured: keeping the CPU default".to_string();
            return Decision {
                bits: None,
                slider: None,
                bits_note: format!("bits: {none}"),
                slider_note: format!("slider: {none}"),
                simd_note: String::new(),
            };
        };
        let pc = &rows[pick].config;
        // A row that differs from the pick only in its vector path is a question
        // for the vector path, which the config file does not hold.
        let vector_only =
            |i: usize| rows[i].config.bits == pc.bits && rows[i].config.slider == pc.slider;
        let best_of = |pred: &dyn Fn(usize) -> bool| {
            report
                .table(Table::Search)
                .map(|(i, _)| i)
                .filter(|&i| i != pick && pred(i))
                .max_by(|&a, &b| report.ratio(a).median.total_cmp(&report.ratio(b).median))
        };
        let faster = best_of(&|i| !vector_only(i) && report.verdict(i) == Verdict::Faster);
        let mut d = match faster {
            Some(f) => Decision::switch_to(report, pick, f),
            None => Decision::keep(report, pick, best_of(&|i| !vector_only(i))),
        };
        if let Some(v) = best_of(&|i| vector_only(i)) {
            d.simd_note = simd_note(report, pick, v);
        }
        d
    }

    /// Row `f` of the search table was faster than the pick beyond its
    /// interval: save its bit path and slider where they are not the CPU's
    /// defaults.
    fn switch_to(report: &Report, pick: usize, f: usize) -> Decision {
        let default_bits = BitPath::default_for(&report.cpu).0;
        let default_slider = SliderKind::default_for(&report.cpu).0;
        let rows = &report.rows;
        let pick_name = &rows[pick].label;
        let (fb, fs) = (rows[f].config.bits, rows[f].config.slider);
        let why = format!(
            "the search pair {} is {} against the pick {pick_name}",
            rows[f].label,
            gain_text(report, f)
        );
        let note = |what: &str, new: String, default: String, differs: bool| {
            if differs {
                format!("{what}: {why}: saving '{new}'")
            } else {
                format!(
                    "{what}: keeping the CPU default '{default}' ({} has it)",
                    rows[f].label
                )
            }
        };
        let b = fb.unwrap_or(default_bits);
        let s = fs.unwrap_or(default_slider);
        Decision {
            bits: (b != default_bits).then_some(b),
            slider: (s != default_slider).then_some(s),
            bits_note: note(
                "bits",
                b.to_string(),
                default_bits.to_string(),
                b != default_bits,
            ),
            slider_note: note(
                "slider",
                s.to_string(),
                default_slider.to_string(),
                s != default_slider,
            ),
            simd_note: String::new(),
        }
    }

    /// No row of the search table was faster than the pick beyond its
    /// interval: keep the CPU's defaults, naming the `closest` row.
    fn keep(report: &Report, pick: usize, closest: Option<usize>) -> Decision {
        let default_bits = BitPath::default_for(&report.cpu).0;
        let default_slider = SliderKind::default_for(&report.cpu).0;
        let rows = &report.rows;
        let pick_name = &rows[pick].label;
        let closest = match closest {
            Some(c) => format!("; closest {}, {}", rows[c].label, gain_text(report, c)),
            None => String::new(),
        };
        let why = format!(
            "no search pair was faster than the pick {pick_name} beyond its interval{closest}"
        );
        Decision {
            bits: None,
            slider: None,
            bits_note: format!("bits: {why}: keeping the CPU default '{default_bits}'"),
            slider_note: format!("slider: {why}: keeping the CPU default '{default_slider}'"),
            simd_note: String::new(),
        }
    }
}

/// What the search table says of the vector paths: row `v`, the best of those
/// that differ from the pick only in theirs, against the pick's (the widest).
fn simd_note(report: &Report, pick: usize, v: usize) -> String {
    let rows = &report.rows;
    let vector = rows[v].config.vector.map_or("-", |p| p.name());
    let widest = rows[pick].config.vector.map_or("-", |p| p.name());
    match report.verdict(v) {
        Verdict::Faster => format!(
            "simd: '{vector}' is {} against the widest path '{widest}' in the search; \
             brokkr plays '{widest}' (`--simd {vector}` runs the other)",
            gain_text(report, v)
        ),
        Verdict::Wide => format!(
            "simd: '{vector}' against the widest path '{widest}' is too noisy to \
             rank: {}; brokkr plays '{widest}'",
            gain_text(report, v)
        ),
        _ => format!(
            "simd: the widest path '{widest}' is the fastest within the intervals \
             (next, '{vector}': {})",
            gain_text(report, v)
        ),
    }
}
