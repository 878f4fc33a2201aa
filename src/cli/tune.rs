//! `brokkr tune`: fit the evaluation's weights to labelled positions and write
//! them as `weights.rs`.

use super::Args;
use crate::attacks::Magic;
use crate::bits::{BitPath, Bits};
use crate::board::Board;
use crate::eval::tune::{self, current_weights, Adam, Data, Rng};
use std::time::Instant;

pub const HELP: &str = "\
usage: brokkr tune --data FILE --out FILE [OPTIONS]

  --data FILE        labelled positions, one a line: `FEN | score | result`
                     (score in cp and result 1.0/0.5/0.0, both from White's side)
  --out FILE         where to write the weights (Rust source, e.g. src/eval/weights.rs)
  --start FILE       start from the weights in this weights.rs (default: the ones built in)
  --epochs N         passes over the training set (default 20; 0 only fits K and reports)
  --lambda L         label = L * result + (1 - L) * expected score of `score` (default 0.5)
  --lr R             Adam step size in centipawns (default 1.0), falling linearly
                     to a tenth of it by the last epoch
  --batch N          positions per gradient step (default 16384)
  --validation F     fraction held out, as whole games at the end of the file (default 0.1)
  --limit N          use only the first N positions
  --threads N        threads (default 2)
  --seed S           shuffling seed (default 1)";

/// Run `brokkr tune` with `args` (after the command name).
pub fn run(args: &[String]) -> Result<(), String> {
    let a = Args::parse(
        args,
        &[
            "data",
            "out",
            "start",
            "epochs",
            "lambda",
            "lr",
            "batch",
            "validation",
            "limit",
            "threads",
            "seed",
        ],
        &["help"],
    )?;
    if a.flag("help") {
        println!("{HELP}");
        return Ok(());
    }
    if let Some(extra) = a.positional.first() {
        return Err(format!("unexpected argument '{extra}'\n{HELP}"));
    }
    let data = a
        .value("data")
        .ok_or_else(|| format!("tune needs --data FILE\n{HELP}"))?;
    let out = a
        .value("out")
        .ok_or_else(|| format!("tune needs --out FILE\n{HELP}"))?;
    let o = Options {
        epochs: a.parsed::<usize>("epochs")?.unwrap_or(20),
        lambda: a.parsed::<f64>("lambda")?.unwrap_or(0.5),
        lr: a.parsed::<f64>("lr")?.unwrap_or(1.0),
        batch: a.parsed::<usize>("batch")?.unwrap_or(16384),
        validation: a.parsed::<f64>("validation")?.unwrap_or(0.1),
        limit: a.parsed::<usize>("limit")?.unwrap_or(usize::MAX),
        threads: a.parsed::<usize>("threads")?.unwrap_or(2),
        seed: a.parsed::<u64>("seed")?.unwrap_or(1),
    };
    if !(0.0..=1.0).contains(&o.lambda) {
        return Err(format!(
            "bad value for --lambda '{}': expected 0 to 1",
            o.lambda
        ));
    }
    if !(0.0..1.0).contains(&o.validation) {
        return Err(format!(
            "bad value for --validation '{}': expected at least 0 and below 1",
            o.validation
        ));
    }
    if !(o.lr > 0.0 && o.lr.is_finite()) || o.batch == 0 || o.threads == 0 || o.threads > 64 {
        return Err("--lr must be positive, --batch at least 1, --threads 1 to 64".to_string());
    }
    let command = std::iter::once("brokkr tune".to_string())
        .chain(args.iter().map(|s| {
            if s.contains(' ') {
                format!("'{s}'")
            } else {
                s.clone()
            }
        }))
        .collect::<Vec<_>>()
        .join(" ");
    let start = match a.value("start") {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read '{f}': {e}"))?;
            let (w, missing) = tune::parse_weights(&text).map_err(|e| format!("{f}: {e}"))?;
            if !missing.is_empty() {
                println!("{f}: no {}: they start at 0", missing.join(", "));
            }
            w
        }
        None => current_weights(),
    };
    crate::with_bits!(BitPath::detect(), B => tune_with::<B>(data, out, start, &o, &command))
}

/// The tuner's settings.
struct Options {
    epochs: usize,
    lambda: f64,
    lr: f64,
    batch: usize,
    validation: f64,
    limit: usize,
    threads: usize,
    seed: u64,
}

/// A parsed line: the board, its label and its full-move number.
type Labelled = (Board<Magic>, f32, u32);

/// Where the validation set starts: the first game start (the move number
/// drops) at or after `target`, or when the games after `target` are all one
/// game, the last start before it, so a long last game cannot leave nothing
/// held out. `samples.len()` (nothing held out) only for a single game.
fn game_start_near(samples: &[Labelled], target: usize) -> usize {
    let starts = |i: &usize| samples[*i].2 < samples[*i - 1].2;
    (target.max(1)..samples.len())
        .find(starts)
        .or_else(|| (1..target.min(samples.len())).rev().find(starts))
        .unwrap_or(samples.len())
}

fn tune_with<B: Bits>(
    file: &str,
    out: &str,
    mut w: tune::Weights,
    o: &Options,
    command: &str,
) -> Result<(), String> {
    let start = Instant::now();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .take(o.limit)
        .collect();
    if lines.is_empty() {
        return Err(format!("{file}: no positions"));
    }
    let samples = parse_all(file, &lines, o)?;
    // Hold out the last games: cut where a game starts.
    let target = samples.len() - (samples.len() as f64 * o.validation).round() as usize;
    let cut = if o.validation > 0.0 {
        game_start_near(&samples, target)
    } else {
        samples.len()
    };
    let (train_s, valid_s) = samples.split_at(cut);
    let train = extract::<B>(train_s, o.threads);
    let valid = extract::<B>(valid_s, o.threads);
    drop(samples);
    println!(
        "tune: {} training positions, {} held out (the last games), {} left out (special endgame rules); read in {:.1} s",
        train.len(),
        valid.len(),
        train.special + valid.special,
        start.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        return Err(format!("{file}: no training positions"));
    }
    println!(
        "model vs evaluation: largest difference {:.1} cp (integer rounding)",
        tune::model_error(&train)
    );
    let k = tune::fit_k(&train, &w, o.threads);
    println!(
        "K = {k:.6} (fitted on the training set, lambda {})",
        o.lambda
    );
    let report = |epoch: usize, w: &tune::Weights, secs: Option<f64>| {
        let tl = tune::loss(&train, w, k, o.threads);
        let vl = if valid.is_empty() {
            "n/a".to_string()
        } else {
            format!("{:.6}", tune::loss(&valid, w, k, o.threads))
        };
        match secs {
            Some(s) => println!("epoch {epoch}: train {tl:.6}, held-out {vl}, {s:.2} s"),
            None => println!("epoch {epoch}: train {tl:.6}, held-out {vl}"),
        }
    };
    report(0, &w, None);
    let mut adam = Adam::new(o.lr);
    let mut rng = Rng::new(o.seed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in 1..=o.epochs {
        let t0 = Instant::now();
        rng.shuffle(&mut order);
        // Large steps to find the region, small ones to settle in it.
        adam.rate = o.lr * (1.0 - 0.9 * (epoch - 1) as f64 / o.epochs.max(2) as f64);
        tune::epoch(&train, &order, &mut w, k, o.batch, o.threads, &mut adam);
        report(epoch, &w, Some(t0.elapsed().as_secs_f64()));
    }
    let source = tune::weights_source(&w, command);
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, source)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| format!("cannot write '{out}': {e}"))?;
    println!(
        "wrote {out} ({:.1} s in all)",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Parse every line on `o.threads` threads; the first bad line (by number) is the
/// error.
fn parse_all(file: &str, lines: &[(usize, &str)], o: &Options) -> Result<Vec<Labelled>, String> {
    let chunk = lines.len().div_ceil(o.threads);
    let parts: Vec<Result<Vec<Labelled>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&(n, line)| {
                            let (sample, board) = tune::parse_line::<Magic>(line)
                                .map_err(|e| format!("{file}:{n}: {e}"))?;
                            let label = o.lambda * sample.result as f64
                                + (1.0 - o.lambda) * tune::score_to_prob(sample.score);
                            Ok((board, label as f32, sample.fullmove))
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a parsing thread failed".to_string()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(lines.len());
    for p in parts {
        all.extend(p?);
    }
    Ok(all)
}

/// Extract the coefficients of `samples` on `threads` threads, in order.
fn extract<B: Bits>(samples: &[Labelled], threads: usize) -> Data {
    if samples.is_empty() {
        return Data::default();
    }
    let chunk = samples.len().div_ceil(threads);
    let parts: Vec<Data> = std::thread::scope(|s| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let boards: Vec<(Board<Magic>, f32)> =
                        part.iter().map(|&(b, l, _)| (b, l)).collect();
                    Data::extract::<B, Magic>(&boards)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut all = Data::default();
    for p in parts {
        all.append(p);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_moves(moves: &[u32]) -> Vec<Labelled> {
        moves.iter().map(|&m| (Board::startpos(), 0.5, m)).collect()
    }

    #[test]
    fn the_validation_cut_falls_on_a_game_start() {
        // Three games: starting at indices 0, 3 and 5; the last is long.
        let s = with_moves(&[5, 6, 7, 5, 6, 4, 5, 6, 7, 8, 9]);
        assert_eq!(game_start_near(&s, 2), 3, "forward to the next start");
        assert_eq!(game_start_near(&s, 5), 5, "a start is kept as it is");
        assert_eq!(game_start_near(&s, 8), 5, "back when no game starts after");
        let one = with_moves(&[5, 6, 7, 8]);
        assert_eq!(game_start_near(&one, 2), 4, "one game: nothing held out");
    }
}
