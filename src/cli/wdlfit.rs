//! `brokkr wdlfit`: fit the win/draw/loss model of [`crate::wdl`] to labelled
//! self-play positions, and check it on held-out games.
//!
//! The positions are counted into cells (material, score, result), so each
//! pass over the data is a pass over the cells. The fit maximises the
//! likelihood of the games' results: first a curve `(a, b)` for each material
//! count, then cubics through those (least squares, weighted by the
//! positions), then all eight coefficients together (Nelder-Mead on the whole
//! likelihood, from the cubics).

use super::Args;
use crate::win_rate::{probabilities_ab, Model, MATERIAL_MAX, MATERIAL_MIN, MATERIAL_SCALE};
use std::io::{BufRead, Write};

pub const HELP: &str = "\
usage: brokkr wdlfit --data FILE [--max-lines N] [--holdout K] [--max-score CP]
                     [--refine N] [--per-material]

Fits the win/draw/loss model (see src/win_rate.rs) to the positions of FILE, as
`brokkr datagen` writes them (`FEN | score | result`, score in centipawns and
result 1.0/0.5/0.0, both from White's side; `# game N: ...` ends each game), and
prints the coefficients as Rust source for src/win_rate.rs, then the calibration on
held-out games: predicted and observed win/draw/loss by score bucket, and the
log-loss and Brier score against two baselines (the fit set's result frequencies
for every position, and one logistic curve for all material).

The games are split whole: every K-th game is held out, the rest fitted.
Positions after the last `# game` line (a game being written) are not read.

  --data FILE       the positions (read, never written)
  --max-lines N     read only the first N lines (a file still being appended to)
  --holdout K       hold out every K-th game (default 5: a fifth)
  --max-score CP    leave out positions scored beyond ±CP (default 3000)
  --refine N        Nelder-Mead steps on the eight coefficients (default 1500; 0 keeps
                    the cubics through the per-material curves)
  --per-material    also print each material count's own curve";

/// The score range the cells hold.
const SCORE_CELLS: usize = 2 * 3000 + 1;

/// Positions counted by (material, score, result).
struct Cells {
    max_score: i32,
    /// `[material - MATERIAL_MIN][score + max_score] -> [win, draw, loss]` for White.
    counts: Vec<Vec<[u32; 3]>>,
    positions: u64,
    games: u64,
}

impl Cells {
    fn new(max_score: i32) -> Cells {
        let bins = (MATERIAL_MAX - MATERIAL_MIN + 1) as usize;
        Cells {
            max_score,
            counts: vec![vec![[0; 3]; 2 * max_score as usize + 1]; bins],
            positions: 0,
            games: 0,
        }
    }

    fn add(&mut self, material: i32, score: i32, result: usize) {
        let m = (material.clamp(MATERIAL_MIN, MATERIAL_MAX) - MATERIAL_MIN) as usize;
        self.counts[m][(score + self.max_score) as usize][result] += 1;
        self.positions += 1;
    }

    /// Every non-empty cell: (material, score, counts).
    fn iter(&self) -> impl Iterator<Item = (i32, i32, [u32; 3])> + '_ {
        self.counts.iter().enumerate().flat_map(move |(m, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, c)| c.iter().any(|&n| n > 0))
                .map(move |(s, &c)| (m as i32 + MATERIAL_MIN, s as i32 - self.max_score, c))
        })
    }

    /// The result frequencies `[win, draw, loss]`.
    fn frequencies(&self) -> [f64; 3] {
        let mut t = [0u64; 3];
        for (_, _, c) in self.iter() {
            for k in 0..3 {
                t[k] += u64::from(c[k]);
            }
        }
        let n = (t[0] + t[1] + t[2]).max(1) as f64;
        [t[0] as f64 / n, t[1] as f64 / n, t[2] as f64 / n]
    }
}

/// Read the positions of `path` into the fit and the held-out cells.
fn read(
    path: &str,
    max_lines: Option<u64>,
    holdout: u64,
    max_score: i32,
) -> Result<(Cells, Cells, u64), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open '{path}': {e}"))?;
    let reader = std::io::BufReader::with_capacity(1 << 20, file);
    let (mut fit, mut held) = (Cells::new(max_score), Cells::new(max_score));
    // The current game's positions: (material, score, result), kept until its
    // `# game` line says it is whole.
    let mut game: Vec<(i32, i32, usize)> = Vec::new();
    let mut skipped = 0u64;
    let mut games = 0u64;
    for (n, line) in reader.lines().enumerate() {
        if max_lines.is_some_and(|m| n as u64 >= m) {
            break;
        }
        let line = line.map_err(|e| format!("{path}: line {}: {e}", n + 1))?;
        if line.starts_with("# game ") {
            games += 1;
            let cells = if games.is_multiple_of(holdout) {
                &mut held
            } else {
                &mut fit
            };
            cells.games += 1;
            for (m, s, r) in game.drain(..) {
                cells.add(m, s, r);
            }
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split('|').map(str::trim);
        let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "{path}: line {}: expected 'FEN | score | result'",
                n + 1
            ));
        };
        let score: i32 = score
            .parse()
            .map_err(|_| format!("{path}: line {}: bad score '{score}'", n + 1))?;
        let result = match result {
            "1.0" | "1" => 0,
            "0.5" => 1,
            "0.0" | "0" => 2,
            r => return Err(format!("{path}: line {}: bad result '{r}'", n + 1)),
        };
        if score.abs() > max_score {
            skipped += 1;
            continue;
        }
        let placement = fen.split_whitespace().next().unwrap_or("");
        game.push((
            crate::win_rate::material_of_placement(placement),
            score,
            result,
        ));
    }
    Ok((fit, held, skipped))
}

/// The log-likelihood of the counts `c` under the chances `(w, l)`.
fn log_likelihood(c: [u32; 3], w: f64, l: f64) -> f64 {
    const FLOOR: f64 = 1e-12;
    let d = (1.0 - w - l).max(FLOOR);
    f64::from(c[0]) * w.max(FLOOR).ln()
        + f64::from(c[1]) * d.ln()
        + f64::from(c[2]) * l.max(FLOOR).ln()
}

/// Minimise `f` from `start` by Nelder-Mead, `steps` iterations, the first
/// simplex spread by `scale` along each axis.
fn nelder_mead(f: &dyn Fn(&[f64]) -> f64, start: &[f64], scale: &[f64], steps: usize) -> Vec<f64> {
    let n = start.len();
    let mut simplex: Vec<(Vec<f64>, f64)> = (0..=n)
        .map(|i| {
            let mut p = start.to_vec();
            if i > 0 {
                p[i - 1] += scale[i - 1];
            }
            let v = f(&p);
            (p, v)
        })
        .collect();
    for _ in 0..steps {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        let centroid: Vec<f64> = (0..n)
            .map(|j| simplex[..n].iter().map(|(p, _)| p[j]).sum::<f64>() / n as f64)
            .collect();
        let along = |t: f64| -> Vec<f64> {
            (0..n)
                .map(|j| centroid[j] + t * (simplex[n].0[j] - centroid[j]))
                .collect()
        };
        let r = along(-1.0);
        let fr = f(&r);
        if fr < simplex[0].1 {
            let e = along(-2.0);
            let fe = f(&e);
            simplex[n] = if fe < fr { (e, fe) } else { (r, fr) };
        } else if fr < simplex[n - 1].1 {
            simplex[n] = (r, fr);
        } else {
            let c = if fr < simplex[n].1 {
                along(-0.5)
            } else {
                along(0.5)
            };
            let fc = f(&c);
            if fc < simplex[n].1.min(fr) {
                simplex[n] = (c, fc);
            } else {
                // Shrink towards the best point.
                let best = simplex[0].0.clone();
                for (p, v) in simplex.iter_mut().skip(1) {
                    for j in 0..n {
                        p[j] = best[j] + 0.5 * (p[j] - best[j]);
                    }
                    *v = f(p);
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    simplex.swap_remove(0).0
}

/// The best single curve `(a, b)` for cells `(score, counts)`.
fn fit_curve(cells: &[(i32, [u32; 3])]) -> (f64, f64) {
    let f = |p: &[f64]| {
        let (a, b) = (p[0], p[1].exp());
        -cells
            .iter()
            .map(|&(s, c)| {
                let (w, l) = probabilities_ab(f64::from(s), a, b);
                log_likelihood(c, w, l)
            })
            .sum::<f64>()
    };
    let p = nelder_mead(&f, &[150.0, 100f64.ln()], &[50.0, 0.3], 300);
    (p[0], p[1].exp())
}

/// The weighted least-squares cubic through the points `(x, y, weight)`.
#[allow(clippy::needless_range_loop)] // row operations on a small matrix
fn fit_cubic(points: &[(f64, f64, f64)]) -> [f64; 4] {
    // Normal equations, solved by Gaussian elimination with partial pivoting.
    let mut m = [[0.0f64; 5]; 4];
    for &(x, y, w) in points {
        let pow = [1.0, x, x * x, x * x * x];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * pow[i] * pow[j];
            }
            m[i][4] += w * pow[i] * y;
        }
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-300 {
            return [0.0; 4];
        }
        for row in 0..4 {
            if row != col {
                let k = m[row][col] / m[col][col];
                for j in col..5 {
                    m[row][j] -= k * m[col][j];
                }
            }
        }
    }
    [
        m[0][4] / m[0][0],
        m[1][4] / m[1][1],
        m[2][4] / m[2][2],
        m[3][4] / m[3][3],
    ]
}

/// How well chances fit the held-out cells.
#[derive(Default)]
struct Figures {
    log_loss: f64,
    brier: f64,
    n: f64,
}

impl Figures {
    fn add(&mut self, c: [u32; 3], p: [f64; 3]) {
        for (k, &count) in c.iter().enumerate() {
            let count = f64::from(count);
            if count == 0.0 {
                continue;
            }
            self.log_loss -= count * p[k].max(1e-12).ln();
            self.brier += count
                * (0..3)
                    .map(|j| (p[j] - if j == k { 1.0 } else { 0.0 }).powi(2))
                    .sum::<f64>();
            self.n += count;
        }
    }

    /// `log-loss | Brier`, per position, for a table row.
    fn show(&self) -> String {
        let n = self.n.max(1.0);
        format!("{:.4} | {:.4}", self.log_loss / n, self.brier / n)
    }
}

/// The options of one run, checked.
struct Options {
    data: String,
    max_lines: Option<u64>,
    holdout: u64,
    max_score: i32,
    refine: usize,
    per_material: bool,
}

impl Options {
    fn from_args(a: &Args) -> Result<Options, String> {
        if let Some(extra) = a.positional.first() {
            return Err(format!("unexpected argument '{extra}'"));
        }
        let data = a.value("data").ok_or("missing --data FILE")?.to_string();
        let max_lines: Option<u64> = a.parsed("max-lines")?;
        let holdout: u64 = a.parsed("holdout")?.unwrap_or(5);
        if holdout < 2 {
            return Err("--holdout must be 2 or more".into());
        }
        let max_score: i32 = a.parsed("max-score")?.unwrap_or(3000);
        if !(100..=(SCORE_CELLS as i32 - 1) / 2).contains(&max_score) {
            return Err(format!(
                "--max-score must be from 100 to {}",
                (SCORE_CELLS - 1) / 2
            ));
        }
        let refine: usize = a.parsed("refine")?.unwrap_or(1500);
        Ok(Options {
            data,
            max_lines,
            holdout,
            max_score,
            refine,
            per_material: a.flag("per-material"),
        })
    }
}

/// Run `brokkr wdlfit` with `args` (after the command name).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = Args::parse(
        args,
        &["data", "max-lines", "holdout", "max-score", "refine"],
        &["help", "per-material"],
    )?;
    if a.flag("help") {
        return writeln!(out, "{HELP}").map_err(|e| e.to_string());
    }
    let o = Options::from_args(&a)?;
    let (fit, held, skipped) = read(&o.data, o.max_lines, o.holdout, o.max_score)?;
    if fit.positions == 0 || held.positions == 0 {
        return Err(format!(
            "too few whole games in '{}' to fit and hold out ({} and {} positions)",
            o.data, fit.positions, held.positions
        ));
    }
    let fitted = fit_model(&fit, o.max_score, o.refine)?;
    report_model(out, args, &o, &fit, &held, skipped, &fitted)?;
    report_held_out(out, &fitted.model, &fit, &held, o.max_score)
}

/// Write one line (or several, `s` holding the newlines) of the report.
fn put(out: &mut dyn Write, s: String) -> Result<(), String> {
    writeln!(out, "{s}").map_err(|e| e.to_string())
}

/// What the fit found.
struct Fitted {
    model: Model,
    /// Each material count's own curve: (material, positions, a, b).
    per_material: Vec<(i32, u64, f64, f64)>,
    /// The fit set's negative log-likelihood under the cubics through the
    /// per-material curves (`before`) and under `model` (`after`).
    before: f64,
    after: f64,
}

/// Fit the model to the cells of `fit`, in the three steps the module's doc
/// gives; `refine` Nelder-Mead steps for the last.
fn fit_model(fit: &Cells, max_score: i32, refine: usize) -> Result<Fitted, String> {
    // Step 1. A curve for each material count with enough positions.
    let mut points = Vec::new();
    let mut per_material = Vec::new();
    for (i, row) in fit.counts.iter().enumerate() {
        let cells: Vec<(i32, [u32; 3])> = row
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().any(|&n| n > 0))
            .map(|(s, &c)| (s as i32 - max_score, c))
            .collect();
        let n: u64 = cells
            .iter()
            .map(|(_, c)| c.iter().map(|&k| u64::from(k)).sum::<u64>())
            .sum();
        if n < 2000 {
            continue;
        }
        let m = i as i32 + MATERIAL_MIN;
        let (ca, cb) = fit_curve(&cells);
        let x = f64::from(m) / MATERIAL_SCALE;
        points.push((x, ca, cb, n as f64));
        per_material.push((m, n, ca, cb));
    }
    if points.len() < 4 {
        return Err("too few material counts with 2000 positions or more to fit cubics".into());
    }
    // Step 2. Cubics through them.
    let pa: Vec<(f64, f64, f64)> = points.iter().map(|&(x, a, _, n)| (x, a, n)).collect();
    let pb: Vec<(f64, f64, f64)> = points.iter().map(|&(x, _, b, n)| (x, b, n)).collect();
    let mut model = Model {
        a: fit_cubic(&pa),
        b: fit_cubic(&pb),
    };
    // Step 3. All eight coefficients on the whole likelihood.
    let cells: Vec<(i32, i32, [u32; 3])> = fit.iter().collect();
    let nll = |p: &[f64]| {
        let m = Model {
            a: [p[0], p[1], p[2], p[3]],
            b: [p[4], p[5], p[6], p[7]],
        };
        -cells
            .iter()
            .map(|&(mat, s, c)| {
                let (a, b) = m.params(mat);
                let (w, l) = probabilities_ab(f64::from(s), a, b);
                log_likelihood(c, w, l)
            })
            .sum::<f64>()
    };
    let before = nll(&[model.a, model.b].concat());
    if refine > 0 {
        let start = [model.a, model.b].concat();
        let scale: Vec<f64> = start.iter().map(|v| 0.1 * v.abs() + 5.0).collect();
        let p = nelder_mead(&nll, &start, &scale, refine);
        let after = nll(&p);
        if after < before {
            model = Model {
                a: [p[0], p[1], p[2], p[3]],
                b: [p[4], p[5], p[6], p[7]],
            };
        }
    }
    let after = nll(&[model.a, model.b].concat());
    Ok(Fitted {
        model,
        per_material,
        before,
        after,
    })
}

/// Print the model as Rust source for src/win_rate.rs, how well it fits the fit
/// set, and with `--per-material` each material count's own curve beside it.
fn report_model(
    out: &mut dyn Write,
    args: &[String],
    o: &Options,
    fit: &Cells,
    held: &Cells,
    skipped: u64,
    fitted: &Fitted,
) -> Result<(), String> {
    let (model, max_score, refine) = (&fitted.model, o.max_score, o.refine);
    put(
        out,
        format!(
        "// brokkr wdlfit {}\n// {} games ({} positions) fitted, {} held out ({} positions); {} \
         positions beyond ±{max_score} cp left out\npub const MODEL: Model = Model {{\n    \
         a: [{:.3}, {:.3}, {:.3}, {:.3}],\n    b: [{:.3}, {:.3}, {:.3}, {:.3}],\n}};",
        args.join(" "),
        fit.games,
        fit.positions,
        held.games,
        held.positions,
        skipped,
        model.a[0], model.a[1], model.a[2], model.a[3],
        model.b[0], model.b[1], model.b[2], model.b[3],
    ),
    )?;
    put(out, format!(
        "\nfit set: mean log-likelihood {:.5} from the cubics, {:.5} after {refine} Nelder-Mead steps",
        -fitted.before / fit.positions as f64,
        -fitted.after / fit.positions as f64
    ))?;
    if o.per_material {
        put(
            out,
            "\nmaterial  positions      a(own)   b(own)   a(model) b(model)".into(),
        )?;
        for (m, n, ca, cb) in &fitted.per_material {
            let (ma, mb) = model.params(*m);
            put(
                out,
                format!("{m:>8} {n:>10} {ca:>11.1} {cb:>8.1} {ma:>10.1} {mb:>8.1}"),
            )?;
        }
    }
    Ok(())
}

/// The best single curve `(a, b)` for the cells of `fit`, whatever their
/// material (a baseline for the material-dependent model).
fn one_curve(fit: &Cells, max_score: i32) -> (f64, f64) {
    let mut flat = vec![[0u32; 3]; 2 * max_score as usize + 1];
    for (_, s, c) in fit.iter() {
        for k in 0..3 {
            flat[(s + max_score) as usize][k] += c[k];
        }
    }
    let flat: Vec<(i32, [u32; 3])> = flat
        .into_iter()
        .enumerate()
        .filter(|(_, c)| c.iter().any(|&n| n > 0))
        .map(|(s, c)| (s as i32 - max_score, c))
        .collect();
    fit_curve(&flat)
}

/// Print the model's calibration on the held-out games, and its log-loss and
/// Brier score beside two baselines: the fit set's frequencies, and one curve
/// for all material.
fn report_held_out(
    out: &mut dyn Write,
    model: &Model,
    fit: &Cells,
    held: &Cells,
    max_score: i32,
) -> Result<(), String> {
    // The baselines: the fit set's frequencies, and one curve for all material.
    let naive = fit.frequencies();
    let (fa, fb) = one_curve(fit, max_score);

    // Calibration on the held-out games, by White's score.
    const EDGES: [i32; 10] = [-600, -300, -150, -75, -25, 25, 75, 150, 300, 600];
    let bucket = |s: i32| EDGES.iter().take_while(|&&e| s >= e).count();
    let mut rows = vec![([0u64; 3], [0f64; 3]); EDGES.len() + 1];
    let (mut model_f, mut naive_f, mut flat_f) =
        (Figures::default(), Figures::default(), Figures::default());
    for (mat, s, c) in held.iter() {
        let p = model.probabilities(f64::from(s), mat);
        let (w, l) = probabilities_ab(f64::from(s), fa, fb);
        model_f.add(c, p);
        naive_f.add(c, naive);
        flat_f.add(c, [w, 1.0 - w - l, l]);
        let row = &mut rows[bucket(s)];
        let total = f64::from(c[0] + c[1] + c[2]);
        for k in 0..3 {
            row.0[k] += u64::from(c[k]);
            row.1[k] += total * p[k];
        }
    }
    put(
        out,
        format!(
            "\nheld-out games: {} positions of {} games, by White's score\n\n\
         | score (cp) | positions | predicted W/D/L (%) | observed W/D/L (%) |\n\
         |---|---:|---|---|",
            held.positions, held.games
        ),
    )?;
    for (i, (obs, pred)) in rows.iter().enumerate() {
        let n = obs.iter().sum::<u64>();
        if n == 0 {
            continue;
        }
        let range = match i {
            0 => format!("< {}", EDGES[0]),
            i if i == EDGES.len() => format!(">= {}", EDGES[i - 1]),
            i => format!("{} .. {}", EDGES[i - 1], EDGES[i] - 1),
        };
        let pct = |v: f64| 100.0 * v / n as f64;
        put(
            out,
            format!(
                "| {range} | {n} | {:.1} / {:.1} / {:.1} | {:.1} / {:.1} / {:.1} |",
                pct(pred[0]),
                pct(pred[1]),
                pct(pred[2]),
                pct(obs[0] as f64),
                pct(obs[1] as f64),
                pct(obs[2] as f64),
            ),
        )?;
    }
    put(
        out,
        format!(
            "\n| held-out games | log-loss | Brier |\n|---|---:|---:|\n\
         | this model (material-dependent) | {} |\n\
         | one curve for all material (a {fa:.1}, b {fb:.1}) | {} |\n\
         | the fit set's frequencies ({:.1}% / {:.1}% / {:.1}%) | {} |",
            model_f.show(),
            flat_f.show(),
            100.0 * naive[0],
            100.0 * naive[1],
            100.0 * naive[2],
            naive_f.show(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cubic_fit_recovers_a_cubic() {
        let c = [1.0, -2.0, 3.0, 0.5];
        let pts: Vec<(f64, f64, f64)> = (0..20)
            .map(|i| {
                let x = i as f64 / 10.0;
                (x, ((c[3] * x + c[2]) * x + c[1]) * x + c[0], 1.0)
            })
            .collect();
        let got = fit_cubic(&pts);
        for k in 0..4 {
            assert!((got[k] - c[k]).abs() < 1e-6, "{got:?}");
        }
    }

    #[test]
    fn the_curve_fit_recovers_a_curve() {
        // Counts drawn exactly from a curve with a = 120, b = 80.
        let cells: Vec<(i32, [u32; 3])> = (-600..=600)
            .step_by(10)
            .map(|s| {
                let (w, l) = probabilities_ab(f64::from(s), 120.0, 80.0);
                let n = 100_000.0;
                (
                    s,
                    [
                        (w * n).round() as u32,
                        ((1.0 - w - l) * n).round() as u32,
                        (l * n).round() as u32,
                    ],
                )
            })
            .collect();
        let (a, b) = fit_curve(&cells);
        assert!((a - 120.0).abs() < 1.0 && (b - 80.0).abs() < 1.0, "{a} {b}");
    }
}
