//! `brokkr paths --json`: schema `brokkr-paths`, version 2 (docs/speed.md
//! describes every field). A change that renames or removes a field raises the
//! version; new fields may be added within one.

use super::text::source_text;
use super::Decision;
use crate::measure::{Estimate, Report, Table};
use crate::paths::Choice;
use std::fmt::Write as _;

/// The schema's name and version.
pub const SCHEMA: &str = "brokkr-paths";
pub const VERSION: u32 = 2;

pub(crate) fn json_str(s: &str) -> String {
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

/// A number, or `null` where it is not finite (JSON has no NaN).
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6e}")
    } else {
        "null".to_string()
    }
}

fn estimate(e: &Estimate) -> String {
    format!(
        "{{\"median\":{},\"low\":{},\"high\":{}}}",
        num(e.median),
        num(e.low),
        num(e.high)
    )
}

fn opt<T>(x: Option<T>, f: impl Fn(T) -> String) -> String {
    x.map_or("null".to_string(), f)
}

fn row(r: &Report, i: usize) -> String {
    let row = &r.rows[i];
    let c = &row.config;
    format!(
        "{{\"table\":{},\"label\":{},\"board\":{},\"bits\":{},\"slider\":{},\"fill\":{},\
         \"vector\":{},\"op\":{},\"unit\":{},\"pick\":{},\"reference\":{},\"rate\":{},\
         \"ratio\":{},\"verdict\":{},\"rates\":[{}]}}",
        json_str(row.table.name()),
        json_str(&row.label),
        opt(c.board, json_str),
        opt(c.bits, |b| json_str(b.name())),
        opt(c.slider, |s| json_str(s.name())),
        opt(c.fill, |f| json_str(f.name())),
        opt(c.vector, |v| json_str(v.name())),
        opt(c.op, json_str),
        json_str(row.table.unit()),
        row.is_pick(i),
        json_str(&r.rows[row.reference].label),
        estimate(&r.rate(i)),
        estimate(&r.ratio(i)),
        json_str(r.verdict(i).name()),
        row.rates
            .iter()
            .map(|&x| num(x))
            .collect::<Vec<_>>()
            .join(",")
    )
}

pub(crate) fn json(r: &Report, choice: &Choice, d: &Decision) -> String {
    let c = &r.cpu;
    let rows: Vec<String> = (0..r.rows.len()).map(|i| row(r, i)).collect();
    let fastest: Vec<String> = Table::ALL
        .iter()
        .filter_map(|&t| {
            r.fastest(t)
                .map(|i| format!("{}:{}", json_str(t.name()), json_str(&r.rows[i].label)))
        })
        .collect();
    let (core, pin_note) = match &r.pinned {
        Ok(core) => (core.to_string(), "null".to_string()),
        Err(why) => ("null".to_string(), json_str(why)),
    };
    format!(
        "{{\"schema\":{},\"version\":{VERSION},\"brokkr\":{},\
         \"cpu\":{{\"vendor\":{},\"brand\":{},\"family\":{},\"model\":{},\"features\":{},\"fast_pext\":{}}},\
         \"run\":{{\"rounds\":{},\"seconds\":{:.3},\"budget_seconds\":{},\"target\":{},\"converged\":{},\
         \"pinned_core\":{core},\"pin_note\":{pin_note},\"search_nodes\":{},\"processes\":{}}},\
         \"rows\":[{}],\
         \"pick\":{{\"bits\":{},\"bits_reason\":{},\"slider\":{},\"slider_reason\":{},\"simd\":{}}},\
         \"fastest\":{{{}}},\
         \"save\":{{\"bits\":{},\"slider\":{},\"notes\":[{},{},{}]}}}}",
        json_str(SCHEMA),
        json_str(env!("CARGO_PKG_VERSION")),
        json_str(&c.vendor),
        json_str(&c.brand),
        c.family,
        c.model,
        json_str(&c.features()),
        c.fast_pext(),
        r.rounds,
        r.seconds,
        r.settings.budget.as_secs_f64(),
        r.settings.target,
        r.converged,
        r.search_nodes,
        r.processes,
        rows.join(","),
        json_str(choice.bits.name()),
        json_str(&source_text(&choice.bits_source)),
        json_str(choice.slider.name()),
        json_str(&source_text(&choice.slider_source)),
        json_str(crate::nnue::VectorPath::best().name()),
        fastest.join(","),
        opt(d.bits, |b| json_str(b.name())),
        opt(d.slider, |s| json_str(s.name())),
        json_str(&d.bits_note),
        json_str(&d.slider_note),
        json_str(&d.simd_note),
    )
}
