//! `brokkr paths --svg`: the tables as bar charts (std only: SVG is text). Each
//! row is one bar, its speed relative to the table's pick, with a whisker for the
//! 95% interval; the pick is drawn in another colour; the CPU names the chart.

use crate::measure::{Report, Table, Verdict};
use std::fmt::Write as _;

const WIDTH: f64 = 980.0;
/// Where the bars start, after the row labels, and how wide they may grow.
const BAR_X: f64 = 250.0;
const BAR_SPAN: f64 = 520.0;
const ROW_HEIGHT: f64 = 18.0;
const BAR_HEIGHT: f64 = 12.0;
const PICK_COLOUR: &str = "#e07b39";
const ROW_COLOUR: &str = "#4a78b0";
const WIDE_COLOUR: &str = "#a8bdd8";

/// Text made safe for XML.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// The rows of table `t` in the order they are drawn: by operation, then
/// fastest first.
fn ordered(r: &Report, t: Table) -> Vec<usize> {
    let mut rows: Vec<usize> = r.table(t).map(|(i, _)| i).collect();
    let op = |i: usize| r.rows[i].config.op.unwrap_or("");
    rows.sort_by(|&a, &b| {
        op(a)
            .cmp(op(b))
            .then(r.ratio(b).median.total_cmp(&r.ratio(a).median))
    });
    rows
}

fn title(r: &Report, s: &mut String) {
    let c = &r.cpu;
    let brand = if c.brand.is_empty() {
        "unknown CPU"
    } else {
        &c.brand
    };
    let _ = writeln!(
        s,
        "<text x=\"16\" y=\"28\" font-size=\"18\" font-weight=\"bold\">brokkr paths on {}</text>",
        escape(brand)
    );
    let pinned = match &r.pinned {
        Ok(core) => format!("pinned to core {core}"),
        Err(_) => "not pinned".to_string(),
    };
    let _ = writeln!(
        s,
        "<text x=\"16\" y=\"48\" font-size=\"12\">{} family {:#x} model {:#x}; {}; fast pext: {}</text>",
        escape(&c.vendor),
        c.family,
        c.model,
        escape(&c.features()),
        if c.fast_pext() { "yes" } else { "no" }
    );
    let _ = writeln!(
        s,
        "<text x=\"16\" y=\"66\" font-size=\"12\">{} interleaved rounds in {} process(es), {:.1} s, {pinned}. \
         Bars: speed relative to brokkr&apos;s pick (orange) in each table, median; whiskers: 95% interval.</text>",
        r.rounds, r.processes, r.seconds
    );
}

/// One table at height `y`; answers the height below it.
fn table(r: &Report, t: Table, mut y: f64, s: &mut String) -> f64 {
    let rows = ordered(r, t);
    if rows.is_empty() {
        return y;
    }
    y += 24.0;
    let heading = match t {
        Table::Search => format!("search ({} nodes a sample, network on)", r.search_nodes),
        _ => t.name().to_string(),
    };
    let _ = writeln!(
        s,
        "<text x=\"16\" y=\"{y}\" font-size=\"14\" font-weight=\"bold\">{}</text>",
        escape(&heading)
    );
    let top = rows
        .iter()
        .map(|&i| r.ratio(i).high)
        .filter(|x| x.is_finite())
        .fold(1.0f64, f64::max)
        * 1.05;
    let x_of = |ratio: f64| BAR_X + BAR_SPAN * (ratio.max(0.0) / top).min(1.0);
    let first = y + 6.0;
    for &i in &rows {
        y += ROW_HEIGHT;
        let ratio = r.ratio(i);
        let verdict = r.verdict(i);
        let colour = match verdict {
            Verdict::Pick => PICK_COLOUR,
            Verdict::Wide => WIDE_COLOUR,
            _ => ROW_COLOUR,
        };
        let bar_y = y - BAR_HEIGHT + 2.0;
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{y}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            BAR_X - 8.0,
            escape(&r.rows[i].label)
        );
        let median = if ratio.median.is_finite() {
            ratio.median
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "<rect class=\"bar\" data-table=\"{}\" data-label=\"{}\" x=\"{BAR_X}\" y=\"{bar_y:.1}\" \
             width=\"{:.1}\" height=\"{BAR_HEIGHT}\" fill=\"{colour}\"/>",
            t.name(),
            escape(&r.rows[i].label),
            x_of(median) - BAR_X
        );
        let mid = bar_y + BAR_HEIGHT / 2.0;
        if verdict != Verdict::Pick && ratio.low.is_finite() && ratio.high.is_finite() {
            let (lo, hi) = (x_of(ratio.low), x_of(ratio.high));
            let _ = writeln!(
                s,
                "<path class=\"interval\" d=\"M{lo:.1} {:.1}V{:.1}M{lo:.1} {mid:.1}H{hi:.1}M{hi:.1} {:.1}V{:.1}\" \
                 stroke=\"#222\" stroke-width=\"1.2\" fill=\"none\"/>",
                mid - 4.0,
                mid + 4.0,
                mid - 4.0,
                mid + 4.0
            );
        }
        let value = if verdict == Verdict::Pick {
            "1.000 pick".to_string()
        } else {
            format!(
                "{:.3} ({:.3} to {:.3}) {}",
                ratio.median,
                ratio.low,
                ratio.high,
                verdict.name()
            )
        };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{y}\" font-size=\"11\">{}</text>",
            BAR_X + BAR_SPAN + 8.0,
            escape(&value)
        );
    }
    // The pick's speed, for the eye.
    let one = x_of(1.0);
    let _ = writeln!(
        s,
        "<line x1=\"{one:.1}\" y1=\"{first:.1}\" x2=\"{one:.1}\" y2=\"{:.1}\" stroke=\"{PICK_COLOUR}\" \
         stroke-dasharray=\"4 3\"/>",
        y + 4.0
    );
    y + 8.0
}

/// The whole picture.
pub(crate) fn svg(r: &Report) -> String {
    let mut body = String::new();
    title(r, &mut body);
    let mut y = 72.0;
    for t in Table::ALL {
        y = table(r, t, y, &mut body);
    }
    let height = y + 16.0;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {WIDTH} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height:.0}\" fill=\"white\"/>\n\
         {body}</svg>\n"
    )
}
