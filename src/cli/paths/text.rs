//! The tables of `brokkr paths` as text.

use super::Decision;
use crate::measure::{Report, Table, Verdict};
use crate::paths::{Choice, Source};
use std::fmt::Write as _;

/// A table's heading: what its rows time, and in what unit the rate is shown.
fn heading(t: Table, r: &Report) -> String {
    match t {
        Table::Bitscan => "Bitscan: lsb, msb and popcount over the pieces of 6 positions \
                           (rate in ns per operation)"
            .to_string(),
        Table::Perft => {
            "Perft: 6 positions in turn, bulk-counted (rate in million nodes/s)".to_string()
        }
        Table::Search => format!(
            "Search: {}-node searches of the 48 bench positions in turn, the network on, \
             one thread (rate in million nodes/s)",
            r.search_nodes
        ),
        Table::Network => "Network: accumulator updates (a move, both sides) and output layers \
             (rate in millions/s)"
            .to_string(),
    }
}

/// A rate in the table's unit.
fn rate_text(t: Table, rate: f64) -> String {
    match t {
        Table::Bitscan => format!("{:.3} ns", 1e9 / rate),
        _ => format!("{:.3} M", rate / 1e6),
    }
}

/// Where a pick came from.
pub(crate) fn source_text(s: &Source) -> String {
    match s {
        Source::Flag => "set by a flag".to_string(),
        Source::Config(p) => format!("from {}", p.display()),
        Source::Cpu(why) => why.to_string(),
    }
}

fn cpu_text(r: &Report, s: &mut String) {
    let c = &r.cpu;
    let brand = if c.brand.is_empty() {
        "unknown"
    } else {
        &c.brand
    };
    let _ = writeln!(s, "CPU: {brand}");
    let _ = writeln!(
        s,
        "     vendor {}, family {:#x}, model {:#x}",
        c.vendor, c.family, c.model
    );
    let _ = writeln!(
        s,
        "     features: {} (fast pext: {})",
        c.features(),
        if c.fast_pext() { "yes" } else { "no" }
    );
    let pinned = match &r.pinned {
        Ok(core) => format!("pinned to core {core}"),
        Err(why) => format!("not pinned ({why})"),
    };
    let ended = if r.converged {
        format!(
            "every interval came within ±{:.1}%",
            r.settings.target * 100.0
        )
    } else {
        format!(
            "the budget ran out before every interval came within ±{:.1}%",
            r.settings.target * 100.0
        )
    };
    let processes = if r.processes > 1 {
        format!(" in {} processes (each pinned to its core)", r.processes)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "Measured {} interleaved rounds{processes} in {:.1} s (budget {} s), {pinned}; {ended}.",
        r.rounds,
        r.seconds,
        r.settings.budget.as_secs_f64()
    );
    let _ = writeln!(
        s,
        "Each row: its rate (median, ± the 95% interval), and its speed relative to brokkr's \
         pick in the table, round by round (median and 95% interval).\n"
    );
}

fn table_text(r: &Report, t: Table, s: &mut String) {
    let mut rows: Vec<usize> = r.table(t).map(|(i, _)| i).collect();
    if rows.is_empty() {
        return;
    }
    // By operation (bitscan and network), then fastest first.
    let op_rank = |i: usize| r.rows[i].config.op.unwrap_or("");
    rows.sort_by(|&a, &b| {
        op_rank(a)
            .cmp(op_rank(b))
            .then(r.ratio(b).median.total_cmp(&r.ratio(a).median))
    });
    let _ = writeln!(s, "{}:", heading(t, r));
    let _ = writeln!(
        s,
        "  {:<28} {:>12} {:>7}  {:>6} {:>16}  verdict",
        "row", "rate", "±", "speed", "interval"
    );
    for i in rows {
        let rate = r.rate(i);
        let ratio = r.ratio(i);
        let interval = if r.rows[i].is_pick(i) {
            "-".to_string()
        } else {
            format!("{:.3} to {:.3}", ratio.low, ratio.high)
        };
        // A row ranked though its interval is wider than the target says so.
        let verdict = r.verdict(i);
        let wide = matches!(verdict, Verdict::Faster | Verdict::Slower)
            && ratio.spread() > r.settings.target;
        let _ = writeln!(
            s,
            "  {:<28} {:>12} {:>6.1}%  {:>6.3} {:>16}  {}{}",
            r.rows[i].label,
            rate_text(t, rate.median),
            rate.spread() * 100.0,
            ratio.median,
            interval,
            verdict.name(),
            if wide {
                format!(" (interval ±{:.1}%)", ratio.spread() * 100.0)
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(s);
}

pub(crate) fn text(r: &Report, choice: &Choice, decision: &Decision) -> String {
    let mut s = String::new();
    cpu_text(r, &mut s);
    for t in Table::ALL {
        table_text(r, t, &mut s);
    }
    let _ = writeln!(s, "brokkr picks:");
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
    let _ = writeln!(
        s,
        "  simd   = {} (the widest path this CPU runs)",
        crate::nnue::VectorPath::best()
    );
    let _ = writeln!(s, "By the search (what `--save` goes by):");
    for note in [
        &decision.bits_note,
        &decision.slider_note,
        &decision.simd_note,
    ] {
        if !note.is_empty() {
            let _ = writeln!(s, "  {note}");
        }
    }
    s
}
