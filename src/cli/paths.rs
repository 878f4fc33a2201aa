//! `brokkr paths`: measure every bitscan path and slider backend on this CPU, say
//! which brokkr picks and why, and optionally save the measured best.

use super::text::escape_short;
use super::{write_error, Args};
use crate::attacks::{FillPath, SliderKind};
use crate::bits::BitPath;
use crate::config::{self, Choice, Source};
use crate::measure::{compare, measure, Comparison, PerftTiming, Report, MAX_PAIRS};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

/// The help text of `brokkr paths`.
pub const HELP: &str = "\
usage: brokkr paths [--json] [--save]

Measures lsb/msb/popcount for every bitscan path, perft speed for every slider
backend and bit path, and the network's accumulator updates and evaluations per
second on every vector path (avx512, avx2, sse2, portable) this CPU runs, then
says which ones brokkr picks and why.
The qbb row is the quad-bitboard board, which is built for the stateless
lookups only (magic, pext, kindergarten, kogge-stone).
  --json   print the results as JSON
  --save   re-measure the fastest bit path and backend against the CPU's
           default in paired runs, and write to the config file (which the
           engine reads at start-up, see `BROKKR_CONFIG`) only a pick that is
           faster by more than the noise; otherwise the file keeps the CPU's
           defaults. The output says how sure each pick is.";

/// In one run, a pick within this fraction of the fastest measured is as good as
/// it: one short run cannot tell them apart.
const TOLERANCE: f64 = 0.03;

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(args, &[], &["json", "save"])?;
    if let Some(extra) = a.positional.first() {
        return Err(format!(
            "unexpected argument '{}'\n{HELP}",
            escape_short(extra)
        ));
    }
    let show = std::io::stderr().is_terminal();
    let report = measure(|step, total, label| {
        if show {
            note!("\r\x1b[2K[{step}/{total}] measuring {label}...");
            let _ = std::io::stderr().flush();
        }
    });
    if show {
        note!("\r\x1b[2K");
    }
    let choice = Choice::resolve(&report.cpu, None, None);
    let best = Best::of(&report);
    if a.flag("json") {
        say!(out, "{}", json(&report, &choice, &best));
    } else {
        write!(out, "{}", text(&report, &choice, &best)).map_err(write_error)?;
    }
    if a.flag("save") {
        // The decision goes with the table, or to stderr beside the JSON.
        out.flush().map_err(write_error)?;
        let mut err = std::io::stderr();
        let sink: &mut dyn Write = if a.flag("json") { &mut err } else { out };
        save(&report, &best, show, sink)?;
    }
    Ok(())
}

/// One pick for `--save`: the CPU default, or a measured winner if it is clear.
struct Pick<T> {
    /// `Some` when the winner is clearly faster and is saved.
    saved: Option<T>,
    /// How sure the pick is, in words.
    why: String,
}

/// Decide one pick: unless `best` is the `default`, re-measure the pair
/// `candidate` (which has `best`) against the pair of CPU defaults.
fn decide<T: std::fmt::Display + PartialEq + Copy>(
    what: &str,
    (best, default): (T, T),
    candidate: (BitPath, SliderKind),
    defaults: (BitPath, SliderKind),
    show: bool,
) -> Pick<T> {
    if best == default {
        return Pick {
            saved: None,
            why: format!(
                "{what}: the CPU default '{default}' was the fastest measured: keeping it"
            ),
        };
    }
    let c = compare(candidate, defaults, |n| {
        if show {
            note!("\r\x1b[2K{what} '{best}' against '{default}': paired run {n} (at most {MAX_PAIRS})...");
            let _ = std::io::stderr().flush();
        }
    });
    if show {
        note!("\r\x1b[2K");
    }
    let numbers = interval_text(&c);
    if c.clearly_faster() {
        Pick {
            saved: Some(best),
            why: format!("{what}: '{best}' is {numbers}: saving '{best}'"),
        }
    } else {
        Pick {
            saved: None,
            why: format!(
                "{what}: '{best}' is {numbers}, within noise: keeping the CPU default '{default}'"
            ),
        }
    }
}

/// "1.8% faster than the default (median of 9 paired runs, 95% interval -0.4% to +3.9%)".
fn interval_text(c: &Comparison) -> String {
    let pct = |x: f64| format!("{:+.1}%", x * 100.0);
    format!(
        "{:.1}% {} than the default (median of {} paired runs, 95% interval {} to {})",
        c.gain.abs() * 100.0,
        if c.gain >= 0.0 { "faster" } else { "slower" },
        c.pairs,
        pct(c.low),
        pct(c.high)
    )
}

/// `--save`: re-measure each winner against the CPU default and write the config
/// file with only the picks that are clear of the noise.
fn save(report: &Report, best: &Best, show: bool, out: &mut dyn Write) -> Result<(), String> {
    let default_bits = BitPath::default_for(&report.cpu).0;
    let default_slider = SliderKind::default_for(&report.cpu).0;
    let defaults = (default_bits, default_slider);
    let bits = decide(
        "bits",
        (best.bits, default_bits),
        (best.bits, default_slider),
        defaults,
        show,
    );
    let slider = decide(
        "slider",
        (best.slider, default_slider),
        (default_bits, best.slider),
        defaults,
        show,
    );
    say!(out, "\n--save:");
    say!(out, "  {}", bits.why);
    say!(out, "  {}", slider.why);
    let path = config::save(bits.saved, slider.saved, &[&bits.why, &slider.why])?;
    let shown = |saved: Option<String>| saved.unwrap_or_else(|| "CPU default".to_string());
    say!(
        out,
        "  wrote {}: bits = {}, slider = {}",
        path.display(),
        shown(bits.saved.map(|b| b.to_string())),
        shown(slider.saved.map(|s| s.to_string()))
    );
    Ok(())
}

/// The fastest measured bit path (under the default backend) and backend (under
/// the default bit path).
struct Best {
    bits: BitPath,
    bits_nps: f64,
    slider: SliderKind,
    slider_nps: f64,
}

impl Best {
    fn of(r: &Report) -> Best {
        let default_slider = SliderKind::default_for(&r.cpu).0;
        let default_bits = BitPath::default_for(&r.cpu).0;
        let fastest = |pred: &dyn Fn(&PerftTiming) -> bool| {
            r.perft
                .iter()
                .filter(|t| pred(t))
                .max_by(|a, b| a.nps.total_cmp(&b.nps))
                .cloned()
        };
        let b =
            fastest(&|t| t.board == "main" && t.slider == Some(default_slider)).expect("measured");
        let s = fastest(&|t| t.board == "main" && t.bits == default_bits).expect("measured");
        Best {
            bits: b.bits,
            bits_nps: b.nps,
            slider: s.slider.unwrap_or(default_slider),
            slider_nps: s.nps,
        }
    }
}

fn nps_of(r: &Report, bits: BitPath, slider: SliderKind) -> Option<f64> {
    r.perft
        .iter()
        .find(|t| {
            t.bits == bits
                && t.slider == Some(slider)
                && t.board == "main"
                && t.fill.is_none_or(|f| f == FillPath::detect())
        })
        .map(|t| t.nps)
}

fn source_text(s: &Source) -> String {
    match s {
        Source::Flag => "set by a flag".to_string(),
        Source::Config(p) => format!("from {}", p.display()),
        Source::Cpu(why) => why.to_string(),
    }
}

/// One line judging a pick against the fastest measured one.
fn verdict(
    what: &str,
    picked: String,
    picked_nps: Option<f64>,
    best: String,
    best_nps: f64,
) -> String {
    match picked_nps {
        Some(n) if n >= best_nps * (1.0 - TOLERANCE) => {
            format!(
                "{what} pick '{picked}' is the fastest measured, or within {:.0}% of it",
                TOLERANCE * 100.0
            )
        }
        Some(n) => format!(
            "{what} pick '{picked}' measured {:.1}% slower than '{best}' in this run; \
             `brokkr paths --save` re-measures them in pairs and saves '{best}' only if it is \
             faster by more than the noise",
            (1.0 - n / best_nps) * 100.0
        ),
        None => format!("{what} pick '{picked}' was not measured"),
    }
}

fn text(r: &Report, choice: &Choice, best: &Best) -> String {
    let mut s = String::new();
    let c = &r.cpu;
    let _ = writeln!(
        s,
        "CPU: {}",
        if c.brand.is_empty() {
            "unknown"
        } else {
            &c.brand
        }
    );
    let _ = writeln!(
        s,
        "     vendor {}, family {:#x}, model {:#x}",
        c.vendor, c.family, c.model
    );
    let _ = writeln!(
        s,
        "     features: {} (fast pext: {})\n",
        c.features(),
        if c.fast_pext() { "yes" } else { "no" }
    );

    let _ = writeln!(
        s,
        "Bitscan and popcount (ns per operation, median; ratio to the fastest):"
    );
    let _ = writeln!(
        s,
        "  {:<11} {:>14} {:>14} {:>14}",
        "path", "lsb", "msb", "popcount"
    );
    let min = |f: fn(&crate::measure::BitTiming) -> f64| {
        r.bits.iter().map(f).fold(f64::INFINITY, f64::min)
    };
    let (ml, mm, mp) = (min(|t| t.lsb_ns), min(|t| t.msb_ns), min(|t| t.popcount_ns));
    for t in &r.bits {
        let _ = writeln!(
            s,
            "  {:<11} {:>7.3} ({:>4.2}) {:>7.3} ({:>4.2}) {:>7.3} ({:>4.2})",
            t.path.name(),
            t.lsb_ns,
            t.lsb_ns / ml,
            t.msb_ns,
            t.msb_ns / mm,
            t.popcount_ns,
            t.popcount_ns / mp
        );
    }

    let _ = writeln!(
        s,
        "\nPerft (million nodes/s, median; ratio to the fastest):"
    );
    let _ = writeln!(
        s,
        "  {:<6} {:<20} {:<11} {:>9} {:>7}",
        "board", "slider", "bits", "Mnps", "ratio"
    );
    let top = r.perft.iter().map(|t| t.nps).fold(0.0, f64::max);
    let mut rows: Vec<&PerftTiming> = r.perft.iter().collect();
    rows.sort_by(|a, b| b.nps.total_cmp(&a.nps));
    for t in rows {
        let mut slider = t.slider.map_or("-".to_string(), |k| k.to_string());
        if let Some(fill) = t.fill {
            slider = format!("{slider} {fill}");
        }
        let _ = writeln!(
            s,
            "  {:<6} {:<20} {:<11} {:>9.1} {:>7.2}",
            t.board,
            slider,
            t.bits.name(),
            t.nps / 1e6,
            t.nps / top
        );
    }

    if let Some(portable) = r
        .vectors
        .iter()
        .find(|t| t.path == crate::nnue::VectorPath::Portable)
    {
        let _ = writeln!(
            s,
            "\nNetwork vector paths (768 -> {}x2; millions per second, median; ratio to portable):",
            portable.hidden
        );
        let _ = writeln!(
            s,
            "  {:<9} {:>9} {:>7} {:>9} {:>7}",
            "path", "updates", "ratio", "evals", "ratio"
        );
        for t in &r.vectors {
            let _ = writeln!(
                s,
                "  {:<9} {:>9.2} {:>7.2} {:>9.2} {:>7.2}",
                t.path.name(),
                t.updates_per_sec / 1e6,
                t.updates_per_sec / portable.updates_per_sec,
                t.evals_per_sec / 1e6,
                t.evals_per_sec / portable.evals_per_sec
            );
        }
    }

    let _ = writeln!(s, "\nbrokkr picks:");
    let _ = writeln!(
        s,
        "  bits   = {} ({})",
        choice.bits,
        source_text(&choice.bits_source)
    );
    let _ = writeln!(
        s,
        "  slider = {} ({})",
        choice.slider,
        source_text(&choice.slider_source)
    );
    let fastest = r.vectors.iter().max_by(|a, b| {
        (a.updates_per_sec * a.evals_per_sec).total_cmp(&(b.updates_per_sec * b.evals_per_sec))
    });
    let _ = writeln!(
        s,
        "  simd   = {} (the widest path this CPU runs; measured fastest: {})",
        crate::nnue::VectorPath::best(),
        fastest.map_or("-", |t| t.path.name())
    );
    let default_slider = SliderKind::default_for(&r.cpu).0;
    let default_bits = BitPath::default_for(&r.cpu).0;
    let _ = writeln!(
        s,
        "  {}",
        verdict(
            "bit-path",
            choice.bits.to_string(),
            nps_of(r, choice.bits, default_slider),
            best.bits.to_string(),
            best.bits_nps
        )
    );
    let _ = writeln!(
        s,
        "  {}",
        verdict(
            "slider",
            choice.slider.to_string(),
            nps_of(r, default_bits, choice.slider),
            best.slider.to_string(),
            best.slider_nps
        )
    );
    s
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json(r: &Report, choice: &Choice, best: &Best) -> String {
    let c = &r.cpu;
    let bits: Vec<String> = r
        .bits
        .iter()
        .map(|t| {
            format!(
                "{{\"path\":{},\"lsb_ns\":{:.4},\"msb_ns\":{:.4},\"popcount_ns\":{:.4}}}",
                json_str(t.path.name()),
                t.lsb_ns,
                t.msb_ns,
                t.popcount_ns
            )
        })
        .collect();
    let perft: Vec<String> = r
        .perft
        .iter()
        .map(|t| {
            format!(
                "{{\"board\":{},\"slider\":{},\"fill\":{},\"bits\":{},\"nodes\":{},\"nps\":{:.0}}}",
                json_str(t.board),
                t.slider.map_or("null".to_string(), |k| json_str(k.name())),
                t.fill.map_or("null".to_string(), |f| json_str(f.name())),
                json_str(t.bits.name()),
                t.nodes,
                t.nps
            )
        })
        .collect();
    let vectors: Vec<String> = r
        .vectors
        .iter()
        .map(|t| {
            format!(
                "{{\"path\":{},\"hidden\":{},\"updates_per_sec\":{:.0},\"evals_per_sec\":{:.0}}}",
                json_str(t.path.name()),
                t.hidden,
                t.updates_per_sec,
                t.evals_per_sec
            )
        })
        .collect();
    format!(
        "{{\"cpu\":{{\"vendor\":{},\"brand\":{},\"family\":{},\"model\":{},\"features\":{},\"fast_pext\":{}}},\
         \"bits\":[{}],\"perft\":[{}],\"vectors\":[{}],\
         \"pick\":{{\"bits\":{},\"bits_reason\":{},\"slider\":{},\"slider_reason\":{}}},\
         \"fastest\":{{\"bits\":{},\"slider\":{}}}}}",
        json_str(&c.vendor),
        json_str(&c.brand),
        c.family,
        c.model,
        json_str(&c.features()),
        c.fast_pext(),
        bits.join(","),
        perft.join(","),
        vectors.join(","),
        json_str(choice.bits.name()),
        json_str(&source_text(&choice.bits_source)),
        json_str(choice.slider.name()),
        json_str(&source_text(&choice.slider_source)),
        json_str(best.bits.name()),
        json_str(best.slider.name()),
    )
}
