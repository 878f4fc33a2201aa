//! `brokkr train`: train the network on labelled positions and export it as a
//! net file (`crate::nnue::train` does the work).

use super::text::escape_short;
use super::Args;
use crate::nnue::features::{KingLayout, LAYOUTS};
use crate::nnue::file::NetFile;
use crate::nnue::marlin::Record;
use crate::nnue::train::{self, Config, Event, Loss, Shape, State};
use std::io::{IsTerminal, Write};
use std::time::Instant;

pub const HELP: &str = "\
usage: brokkr train --data FILE [--data FILE ...] [--extra FILE ...] --out FILE.nnue [OPTIONS]

Trains the network (768 inputs from each side's view, per king bucket -> H
hidden neurons a side, squared clipped ReLU -> one output per bucket) on
labelled positions and writes it, quantised, as a net file for the engine.
Every position is held in memory (32 bytes each); each epoch visits them all
once, in an order shuffled anew.

The loss is the mean squared error between sigmoid(eval / K) and the target
wdl * result + (1 - wdl) * sigmoid(score / K), both from the side to move's side;
positions with |score| >= 3000 (mates) are left out. AdamW with a cosine learning
rate from --lr to --lr-end over all the steps; every weight is kept within
+-1.98. The same data, seed and thread count give the same net. After each epoch
it reports the validation loss, and the validation loss against the game results
alone, which compares runs of different --wdl or --k.

  --data FILE      labelled positions; give it again for more files. A file named
                   .bin or .marlin is marlinformat (32-byte records, as datagen
                   --format marlin writes); anything else is text, one position a
                   line: `FEN | score | result` (score in cp and result 1.0/0.5/0.0,
                   White's side), `#` lines ignored, `# game ...` ends a game
                   (decompress .xz files first)
  --extra FILE     more positions, for training only: never held out for
                   validation, so the validation set stays the --data files'
                   (as `brokkr branch` writes them; repeatable, same formats)
  --out FILE       where to write the net (after every epoch)
  --hidden N       hidden neurons a side, a multiple of 32 up to 1024 (default 256)
  --buckets N      output buckets by the number of men, 1 to 8 (default 1)
  --psqt           a linear PSQT path beside the hidden layer (768 x buckets
                   weights, started from the classical piece values)
  --king-buckets L king buckets: each side's 768 inputs again for each bucket of
                   its own king's square (from its own side), layout L:
                     none             one bucket (the default; today's nets)
                     mirror           one bucket, mirrored
                     ranks2           2: own king on its first rank, or beyond
                     ranks4           4: own king on rank 1, 2, 3-4 or 5-8
                     ranks4x2         8: ranks4 x edge files (a-b, g-h) or c-f
                   NAME-mirror (ranks2-mirror, ...): the same buckets, and a side
                   whose king is on files e-h sees the board mirrored left to
                   right. The net file carries the layout. With --init FILE of
                   a net without king buckets, its weights are copied into
                   every bucket (the same evaluation without mirroring, a close
                   one with it); a net with them grows into a layout that
                   splits its buckets, with the same mirroring (ranks4-mirror
                   into ranks4x2-mirror), each new bucket a copy of the old one
                   it lies in (the same evaluation)
  --factoriser     train the king buckets' input weights as a part every bucket
                   shares plus each bucket's own, so that every position
                   teaches every bucket (2 king buckets or more; the net file
                   holds the sums, as without it)
  --init FILE      start from the net FILE (a net file, as --out writes) instead
                   of random weights: its shape sets --hidden, --buckets,
                   --psqt and --king-buckets (to go on training a net on new
                   data); a larger
                   --hidden or --buckets, or --psqt, grows it into a net that
                   starts with the same evaluation (new buckets copy old ones,
                   new neurons get random inputs and zero output weights). A
                   file whose output scale is not 400 (docs/scripts/
                   net-rescale.py) trains on at its own scale: the ratio is
                   folded into the output weights, and the written net has 400
  --scale-to REF   after the last epoch, give the written net REF's scale: fit
                   REF's evaluations to the net's on the validation positions
                   (the training ones with --val 0; up to 100,000, evenly
                   spread) in least squares, and write the net with its output
                   scale times that factor. Each generation learns from search
                   scores, which run larger than the static evaluation, so a
                   net's scale grows link by link; the search's margins were
                   fitted at one scale (docs/network.md)
  --epochs N       passes over the training set (default 10)
  --batch N        positions a step (default 16384)
  --lr R           learning rate at the start (default 0.001)
  --lr-end R       learning rate at the last step (default lr / 100)
  --wd R           AdamW weight decay (default 0.01)
  --wdl W          the result's weight in the target, 0 to 1 (default 0.3)
  --wdl-end W      the result's weight at the last step: from --wdl at the first,
                   linearly to W (default: --wdl throughout). Each epoch's
                   validation loss is against its last step's target
  --k K            centipawns of the sigmoid's scale (default 400)
  --val F          fraction held out for validation, as whole games, 0 to <1
                   (default 0.05); a file that marks no games (marlinformat from
                   another tool: byte 31 is 0; text without `# game` lines) is
                   held out in blocks of 256 consecutive positions instead
  --val-split S    how the held-out games are picked: `shuffle` (the default,
                   the nets so far: a shuffle of all games read, so the set
                   moves when a file is added or dropped) or `stable` (each
                   game by a hash of its own positions and --seed, about --val
                   of the games: the same games whatever else is read, so a net
                   trained on from a parent trained this way is validated on
                   games the parent never saw)
  --mirror         add each castling-free training position mirrored left to
                   right (a-file to h-file), an exact symmetry: up to twice the
                   data (validation positions are not mirrored); with a mirrored
                   --king-buckets layout a mirror image has the very inputs of
                   its position, so this only weighs them twice
  --threads N      threads (default 2)
  --seed S         initial weights, validation games and shuffles (default 1)
  --checkpoint F   write the run's state (weights, Adam's moments, epoch) to F
                   after every epoch
  --resume F       go on from the checkpoint F (same --data, --val, --val-split
                   and --seed; --hidden, --buckets, --psqt and --king-buckets
                   default to the checkpoint's); with the same --epochs the
                   run ends with the net an unbroken run makes, a larger
                   --epochs goes on (the learning rate follows the new
                   schedule)";

/// The named king layouts, for the error on an unknown one.
fn layout_names() -> String {
    let mut names = Vec::new();
    for l in &LAYOUTS {
        names.push(l.name.to_string());
        if l.layout.buckets > 1 {
            names.push(format!("{}-mirror", l.name));
        }
    }
    names.join(", ")
}

/// The options that take a value (`--data` is taken out before, as it repeats).
const OPTIONS: &[&str] = &[
    "out",
    "val-split",
    "hidden",
    "buckets",
    "epochs",
    "batch",
    "lr",
    "lr-end",
    "wd",
    "wdl",
    "wdl-end",
    "k",
    "val",
    "threads",
    "seed",
    "checkpoint",
    "resume",
    "init",
    "king-buckets",
    "scale-to",
];

/// Take every `--NAME FILE` (or `--NAME=FILE`) out of `args`: the options
/// that repeat.
fn repeated(args: &[String], name: &str) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut files, mut rest) = (Vec::new(), Vec::new());
    let flag = format!("--{name}");
    let prefix = format!("--{name}=");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if *a == flag {
            files.push(
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("option {flag} needs a value"))?,
            );
        } else if let Some(f) = a.strip_prefix(&prefix) {
            files.push(f.to_string());
        } else {
            rest.push(a.clone());
        }
    }
    Ok((files, rest))
}

/// The options of one run, checked.
struct Options {
    /// `--data` and `--extra`.
    files: Vec<String>,
    extra: Vec<String>,
    net_out: String,
    resume: Option<State>,
    /// The learning rates as given, in f64 for the report: `lr / 100` in f32
    /// prints as 0.000010000001.
    lr: f64,
    lr_end: f64,
    /// The fraction held out for validation.
    val: f64,
    /// `--val-split stable`: hold out games by their hash ([`train::split_stable`]).
    stable_val: bool,
    mirror: bool,
    /// `--scale-to`: the path as given, and the net.
    scale_to: Option<(String, NetFile)>,
    cfg: Config,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let (files, rest) = repeated(args, "data")?;
        let (extra, rest) = repeated(&rest, "extra")?;
        let a = Args::parse(&rest, OPTIONS, &["mirror", "psqt", "factoriser"])?;
        if let Some(extra) = a.positional.first() {
            return Err(format!(
                "unexpected argument '{}' (see brokkr train -h)",
                escape_short(extra)
            ));
        }
        if files.is_empty() {
            return Err("train needs --data FILE (see brokkr train -h)".to_string());
        }
        let net_out = a
            .value("out")
            .ok_or("train needs --out FILE (see brokkr train -h)")?
            .to_string();
        let resume = a.value("resume").map(State::read).transpose()?;
        let init = match a.value("init") {
            None => None,
            Some(path) => Some(train::dequantise(&read_net("--init", path)?)),
        };
        let scale_to = match a.value("scale-to") {
            None => None,
            Some(path) => Some((path.to_string(), read_net("--scale-to", path)?)),
        };
        if init.is_some() && resume.is_some() {
            return Err("--init and --resume exclude each other".to_string());
        }
        let lr = a.parsed::<f64>("lr")?.unwrap_or(0.001);
        let lr_end = a.parsed::<f64>("lr-end")?.unwrap_or(lr / 100.0);
        let shape_default = resume
            .as_ref()
            .map(|s| s.net.shape)
            .or(init.as_ref().map(|n| n.shape));
        let val = a.parsed::<f64>("val")?.unwrap_or(0.05);
        if !(0.0..1.0).contains(&val) {
            return Err(format!(
                "bad value for --val '{val}': expected at least 0 and below 1"
            ));
        }
        let stable_val = match a.value("val-split") {
            None | Some("shuffle") => false,
            Some("stable") => true,
            Some(other) => {
                return Err(format!(
                    "bad value for --val-split '{}': expected shuffle or stable",
                    escape_short(other)
                ))
            }
        };
        let cfg = Config {
            shape: Shape {
                hidden: a
                    .parsed("hidden")?
                    .or(shape_default.map(|s| s.hidden))
                    .unwrap_or(256),
                buckets: a
                    .parsed("buckets")?
                    .or(shape_default.map(|s| s.buckets))
                    .unwrap_or(1),
                psqt: a.flag("psqt") || shape_default.is_some_and(|s| s.psqt),
                kings: match a.value("king-buckets") {
                    Some(name) => crate::nnue::features::layout(name).ok_or_else(|| {
                        format!(
                            "unknown --king-buckets '{}': the layouts are {}",
                            escape_short(name),
                            layout_names()
                        )
                    })?,
                    None => shape_default.map_or(KingLayout::NONE, |s| s.kings),
                },
            },
            epochs: a.parsed("epochs")?.unwrap_or(10),
            batch: a.parsed("batch")?.unwrap_or(16384),
            lr: lr as f32,
            lr_end: lr_end as f32,
            weight_decay: a.parsed("wd")?.unwrap_or(0.01),
            loss: Loss {
                wdl: a.parsed("wdl")?.unwrap_or(0.3),
                k: a.parsed("k")?.unwrap_or(400.0),
            },
            wdl_end: a.parsed("wdl-end")?,
            seed: a.count("seed")?.unwrap_or(1),
            threads: a.parsed("threads")?.unwrap_or(2),
            checkpoint: a.value("checkpoint").map(str::to_string),
            stop_after: None,
            factoriser: a.flag("factoriser") || resume.as_ref().is_some_and(|s| s.factor.is_some()),
            init,
        };
        cfg.check()?;
        Ok(Options {
            files,
            extra,
            net_out,
            resume,
            lr,
            lr_end,
            val,
            stable_val,
            mirror: a.flag("mirror"),
            scale_to,
            cfg,
        })
    }
}

pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let mut o = Options::parse(args)?;
    let start = Instant::now();
    let (train_set, val_set) = load_sets(&o, start, out)?;
    report_setup(&o, &val_set, out)?;
    let resume = o.resume.take();
    let state = train_and_write(&o, &train_set, &val_set, resume, out)?;
    let mut file = state.net.quantise();
    if let Some((path, reference)) = &o.scale_to {
        file = to_scale_of(file, path, reference, &train_set, &val_set, out)?;
        train::write_file(&o.net_out, &file.to_bytes())?;
    }
    say!(
        out,
        "train: wrote {} (hidden {}, {} bucket(s), hash {:016x}) after {} epochs, {:.1} s in all",
        escape_short(&o.net_out),
        file.hidden,
        file.buckets,
        file.hash(),
        state.epoch,
        start.elapsed().as_secs_f64()
    );
    if let Some(q) = train::quantised_loss(&file, &o.cfg.final_loss(), &val_set) {
        say!(
            out,
            "train: the written net, as the engine evaluates it, on the validation positions: \
             loss {q:.6}"
        );
    }
    Ok(())
}

/// The net file at `path`, for the option `what`.
fn read_net(what: &str, path: &str) -> Result<NetFile, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("{what}: cannot read '{}': {e}", escape_short(path)))?;
    NetFile::parse(&bytes).map_err(|e| format!("{what} {}: {e}", escape_short(path)))
}

/// `file` at the scale of `reference` (`--scale-to path`), fitted on the
/// validation positions (the training ones when none is held out), saying
/// the factor.
fn to_scale_of(
    file: NetFile,
    path: &str,
    reference: &NetFile,
    train_set: &[Record],
    val_set: &[Record],
    out: &mut dyn Write,
) -> Result<NetFile, String> {
    let (set, which) = if val_set.is_empty() {
        (train_set, "training")
    } else {
        (val_set, "validation")
    };
    let path = escape_short(path);
    let (factor, n) = train::scale_fit(&file, reference, set).ok_or_else(|| {
        format!("--scale-to {path}: no fit: the trained net evaluates every {which} position at 0")
    })?;
    let scaled = file
        .rescaled(factor)
        .map_err(|e| format!("--scale-to {path}: {e}"))?;
    say!(
        out,
        "train: --scale-to {path}: on {n} {which} positions it evaluates {factor:.4} x the \
         trained net; written with output scale {} (trained at {})",
        scaled.scale,
        file.scale
    );
    Ok(scaled)
}

/// Read the data (`--data`, then `--extra` for training only, mirrored with
/// `--mirror`) and hold out the validation set, saying what was read: the
/// training set and the validation set.
fn load_sets(
    o: &Options,
    start: Instant,
    out: &mut dyn Write,
) -> Result<(Vec<Record>, Vec<Record>), String> {
    let (cfg, val) = (&o.cfg, o.val);
    let loaded = train::load(&o.files, cfg.threads)?;
    let games = train::data::games(&loaded.records).len();
    let (train_set, val_set) = if o.stable_val {
        train::split_stable(&loaded.records, val, cfg.seed)
    } else {
        train::split(&loaded.records, val, cfg.seed)
    };
    let mut train_set = train_set;
    let extras = if o.extra.is_empty() {
        0
    } else {
        let more = train::load(&o.extra, cfg.threads)?.records;
        train_set.extend_from_slice(&more);
        more.len()
    };
    let train_set = if o.mirror {
        train::data::with_mirrors(train_set)
    } else {
        train_set
    };
    let positions = loaded.records.len();
    drop(loaded.records);
    say!(
        out,
        "train: {positions} positions in {games} games{} from {} file(s), {} left out (|score| >= {}), \
         {extras} for training only from --extra, read in {:.1} s; {} to train on, {} held out for \
         validation",
        if loaded.unmarked.is_empty() {
            ""
        } else {
            " or blocks"
        },
        o.files.len(),
        loaded.skipped,
        train::data::MAX_SCORE,
        start.elapsed().as_secs_f64(),
        train_set.len(),
        val_set.len()
    );
    if !loaded.unmarked.is_empty() {
        // Data from another tool: say why the split is by blocks, not games.
        let mut names: Vec<String> = loaded
            .unmarked
            .iter()
            .take(3)
            .map(|f| escape_short(f))
            .collect();
        if loaded.unmarked.len() > 3 {
            names.push(format!("{} more", loaded.unmarked.len() - 3));
        }
        say!(
            out,
            "train: no game marks in {} (byte 31 of every marlinformat record is 0, or a text \
             file has no `# game` lines): its positions are cut into {} blocks of {} \
             consecutive ones, which validation holds out as it would whole games",
            names.join(", "),
            loaded.blocks,
            train::data::BLOCK
        );
    }
    if val > 0.0 && val_set.is_empty() {
        say!(
            out,
            "train: nothing held out for validation: {}",
            if games == 1 {
                "the data is one game (or block), and one always stays for training".to_string()
            } else {
                format!("--val {val} of {positions} positions rounds to none")
            }
        );
    }
    Ok((train_set, val_set))
}

/// Say what is about to be trained, and how the hand-written evaluation does
/// on the validation set (the loss a net should beat).
fn report_setup(o: &Options, val_set: &[Record], out: &mut dyn Write) -> Result<(), String> {
    let cfg = &o.cfg;
    say!(
        out,
        "train: net 768x2 -> {}x2 -> {} bucket(s){}{}; {} epochs of batches of {}, lr {} -> {}, \
         wd {}, wdl {}, K {}, seed {}, {} thread(s){}",
        cfg.shape.hidden,
        cfg.shape.buckets,
        if cfg.shape.psqt { " + PSQT" } else { "" },
        if cfg.shape.kings.is_none() {
            String::new()
        } else {
            format!(
                ", king buckets {} ({} x 768 inputs a side{})",
                crate::nnue::features::describe_layout(&cfg.shape.kings),
                cfg.shape.kings.buckets,
                if cfg.factoriser { ", factorised" } else { "" }
            )
        },
        cfg.epochs,
        cfg.batch,
        o.lr,
        o.lr_end,
        cfg.weight_decay,
        match cfg.wdl_end {
            Some(end) => format!("{} -> {end}", cfg.loss.wdl),
            None => cfg.loss.wdl.to_string(),
        },
        cfg.loss.k,
        cfg.seed,
        cfg.threads,
        match &o.resume {
            Some(s) => format!("; resuming after epoch {}", s.epoch),
            None => String::new(),
        }
    );
    let last = cfg.final_loss();
    let results_only = Loss { wdl: 1.0, ..last };
    if let Some(&[all, results]) = train::hce_losses(&[last, results_only], val_set).as_deref() {
        say!(
            out,
            "train: the hand-written evaluation on the validation positions: loss {all:.6} \
             (against results alone {results:.6})"
        );
    }
    Ok(())
}

/// Train, showing the progress on stderr (one line rewritten in place on a
/// terminal) and each epoch's losses on `out`, and write the net after every
/// epoch, or once at the end when no epoch was left to run.
fn train_and_write(
    o: &Options,
    train_set: &[Record],
    val_set: &[Record],
    resume: Option<State>,
    out: &mut dyn Write,
) -> Result<State, String> {
    let terminal = std::io::stderr().is_terminal();
    let threads = o.cfg.threads as f64;
    let mut written = false;
    let state = train::train(&o.cfg, train_set, val_set, resume, &mut |e| {
        match e {
            Event::Progress {
                epoch,
                epochs,
                done,
                total,
                speed,
                loss,
                left,
            } => {
                let line = format!(
                    "train: epoch {epoch}/{epochs} {:.1}%, {:.0} positions/s ({:.0} a thread), \
                     loss {loss:.6}, {} left",
                    100.0 * done as f64 / total as f64,
                    speed,
                    speed / threads,
                    clock(left)
                );
                if terminal {
                    note!("\r{line}\x1b[K");
                } else {
                    noteln!("{line}");
                }
            }
            Event::Epoch {
                epoch,
                epochs,
                train_loss,
                val_loss,
                val_results,
                seconds,
                speed,
                net,
            } => {
                if terminal {
                    note!("\r\x1b[K");
                }
                train::write_file(&o.net_out, &net.quantise().to_bytes())?;
                written = true;
                say!(
                    out,
                    "epoch {epoch}/{epochs}: train loss {train_loss:.6}, validation loss {} \
                     (against results alone {}), {seconds:.1} s, {speed:.0} positions/s \
                     ({:.0} a thread)",
                    val_loss.map_or("n/a".to_string(), |v| format!("{v:.6}")),
                    val_results.map_or("n/a".to_string(), |v| format!("{v:.6}")),
                    speed / threads
                );
                out.flush().map_err(super::write_error)?;
            }
        }
        Ok(())
    })?;
    if !written {
        train::write_file(&o.net_out, &state.net.quantise().to_bytes())?;
    }
    Ok(state)
}

/// Seconds as `1h02m03s`, `2m03s` or `3s`.
fn clock(secs: f64) -> String {
    let s = if secs.is_finite() {
        secs.max(0.0) as u64
    } else {
        0
    };
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, sec) => format!("{m}m{sec:02}s"),
        (h, m, sec) => format!("{h}h{m:02}m{sec:02}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn train_data_options_repeat() {
        let (files, rest) = repeated(
            &args(&["--data", "a.txt", "--out", "x", "--data=b.bin"]),
            "data",
        )
        .unwrap();
        assert_eq!(files, ["a.txt", "b.bin"]);
        assert_eq!(rest, ["--out", "x"]);
        assert!(repeated(&args(&["--data"]), "data").is_err());
        assert_eq!(clock(3725.0), "1h02m05s");
        assert_eq!(clock(65.0), "1m05s");
        assert_eq!(clock(f64::NAN), "0s");
        // The help's block size is the loader's.
        assert!(HELP.contains(&format!("blocks of {} consecutive", train::data::BLOCK)));
    }

    #[test]
    fn train_command_errors_are_messages() {
        let run_args = |s: &[&str]| {
            let mut out = Vec::new();
            run(&args(s), &mut out)
        };
        assert!(run_args(&["--out", "x.nnue"])
            .unwrap_err()
            .contains("--data"));
        assert!(run_args(&["--data", "x.txt"])
            .unwrap_err()
            .contains("--out"));
        let e = run_args(&["--data", "/nonexistent/x.txt", "--out", "/tmp/x.nnue"]).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--hidden", "100"]).unwrap_err();
        assert!(e.contains("multiple of 32"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--wdl-end", "1.5"]).unwrap_err();
        assert!(e.contains("--wdl-end"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--wdl-end", "high"]).unwrap_err();
        assert!(e.contains("wdl-end"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--val", "1"]).unwrap_err();
        assert!(e.contains("--val"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--val-split", "hash"]).unwrap_err();
        assert!(e.contains("--val-split 'hash'"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--bogus", "1"]).unwrap_err();
        assert!(e.contains("unknown option"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--resume", "/nonexistent/c"]).unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--factoriser"]).unwrap_err();
        assert!(e.contains("--factoriser needs two king buckets"), "{e}");
        let e = run_args(&["--data", "x", "--out", "y", "--king-buckets", "ranks3"]).unwrap_err();
        assert!(
            e.contains("unknown --king-buckets 'ranks3'")
                && e.contains("none, mirror, ranks2, ranks2-mirror, ranks4, ranks4-mirror"),
            "{e}"
        );
        // Every layout the error names is one the flag takes.
        for name in layout_names().split(", ") {
            assert!(crate::nnue::features::layout(name).is_some(), "{name}");
        }
        assert!(HELP.contains("ranks4x2"));
    }

    #[test]
    fn train_command_writes_a_net() {
        let dir = std::env::temp_dir().join(format!("brokkr-train-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.txt");
        let mut text = String::from("# brokkr datagen v1: test\n");
        let mut b = crate::board::Board::<crate::attacks::Magic>::startpos();
        for i in 0..200 {
            let moves = b.legal_moves::<crate::bits::Portable>();
            if moves.is_empty() {
                b = crate::board::Board::startpos();
                text.push_str(&format!("# game {i}: over\n"));
                continue;
            }
            text.push_str(&format!(
                "{} | {} | 0.5\n",
                b.to_fen(),
                (i % 50) as i32 - 25
            ));
            b.make::<crate::bits::Portable>(moves.as_slice()[i * 7 % moves.len()]);
            if i % 40 == 39 {
                text.push_str(&format!("# game {i}: over\n"));
            }
        }
        std::fs::write(&data, text).unwrap();
        let net = dir.join("n.nnue");
        let ckpt = dir.join("n.ckpt");
        let s = |p: &std::path::Path| p.to_string_lossy().into_owned();
        let (data, net, ckpt) = (s(&data), s(&net), s(&ckpt));
        let mut out = Vec::new();
        let mut argv = vec![
            "--data",
            &data,
            "--out",
            &net,
            "--epochs",
            "2",
            "--batch",
            "64",
            "--checkpoint",
            &ckpt,
        ];
        let mut first = argv.clone();
        first.extend(["--hidden", "32"]);
        run(&args(&first), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("epoch 2/2"), "{text}");
        let file = crate::nnue::file::NetFile::parse(&std::fs::read(&net).unwrap()).unwrap();
        assert_eq!((file.hidden, file.buckets), (32, 1));
        assert_eq!(State::read(&ckpt).unwrap().epoch, 2);
        // Resuming a finished run writes the same net (hidden from the checkpoint).
        let before = std::fs::read(&net).unwrap();
        argv.extend(["--resume", &ckpt]);
        let mut out = Vec::new();
        run(&args(&argv), &mut out).unwrap();
        assert_eq!(std::fs::read(&net).unwrap(), before);

        // --init goes on from the written net (its shape, PSQT included), and
        // refuses to be mixed with --resume or with another shape.
        let more = s(&dir.join("more.nnue"));
        let start = vec!["--data", &data, "--epochs", "1", "--batch", "64"];
        let mut psqt = start.clone();
        psqt.extend(["--out", &more, "--hidden", "32", "--psqt"]);
        run(&args(&psqt), &mut Vec::new()).unwrap();
        let mut go_on = start.clone();
        go_on.extend(["--out", &net, "--init", &more]);
        let mut out = Vec::new();
        run(&args(&go_on), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("32x2 -> 1 bucket(s) + PSQT"), "{text}");
        let mut both = go_on.clone();
        both.extend(["--resume", &ckpt]);
        let e = run(&args(&both), &mut Vec::new()).unwrap_err();
        assert!(e.contains("exclude"), "{e}");
        // A larger --hidden or --buckets grows the --init net; a smaller one
        // is refused.
        let mut wider = go_on.clone();
        wider.extend(["--hidden", "64", "--buckets", "2"]);
        let mut out = Vec::new();
        run(&args(&wider), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("64x2 -> 2 bucket(s) + PSQT"), "{text}");
        // --king-buckets grows the --init net into king buckets, written as a
        // version-3 file; going on from it keeps its layout.
        let kings = s(&dir.join("kings.nnue"));
        let mut bucketed = start.clone();
        bucketed.extend([
            "--out",
            &kings,
            "--init",
            &more,
            "--king-buckets",
            "ranks4-mirror",
        ]);
        let mut out = Vec::new();
        run(&args(&bucketed), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("+ PSQT, king buckets ranks4-mirror (4 x 768 inputs a side)"),
            "{text}"
        );
        let file = crate::nnue::file::NetFile::parse(&std::fs::read(&kings).unwrap()).unwrap();
        assert_eq!(file.version, crate::nnue::file::VERSION_KINGS);
        assert_eq!(
            Some(file.kings),
            crate::nnue::features::layout("ranks4-mirror")
        );
        let mut again = start.clone();
        again.extend(["--out", &kings, "--init", &kings]);
        let mut out = Vec::new();
        run(&args(&again), &mut out).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .contains("king buckets ranks4-mirror"));
        let mut narrower = start.clone();
        narrower.extend(["--out", &more, "--init", &net, "--hidden", "32"]);
        let e = run(&args(&narrower), &mut Vec::new()).unwrap_err();
        assert!(e.contains("--init net has 64 hidden"), "{e}");
        let mut bad = start.clone();
        bad.extend(["--out", &net, "--init", &data]);
        let e = run(&args(&bad), &mut Vec::new()).unwrap_err();
        assert!(e.contains("not a brokkr net"), "{e}");

        // --scale-to writes the net at another's scale: here `more`'s scale
        // times 0.6, so a net trained on from `more` comes out near 240.
        let records = train::load(std::slice::from_ref(&data), 1).unwrap().records;
        let parent = NetFile::parse(&std::fs::read(&more).unwrap()).unwrap();
        let reference = s(&dir.join("reference.nnue"));
        std::fs::write(&reference, parent.rescaled(0.6).unwrap().to_bytes()).unwrap();
        let scaled = s(&dir.join("scaled.nnue"));
        let mut to_scale = start.clone();
        to_scale.extend(["--out", &scaled, "--init", &more, "--scale-to", &reference]);
        let mut out = Vec::new();
        run(&args(&to_scale), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("written with output scale"), "{text}");
        let written = NetFile::parse(&std::fs::read(&scaled).unwrap()).unwrap();
        assert!((200..=280).contains(&written.scale), "{text}");
        let reference_file = NetFile::parse(&std::fs::read(&reference).unwrap()).unwrap();
        let (factor, n) = train::scale_fit(&written, &reference_file, &records).unwrap();
        assert!(
            n > 100 && (factor - 1.0).abs() < 0.05,
            "{factor} on {n}: {text}"
        );
        // The same run without it writes the trainer's scale.
        to_scale.truncate(to_scale.len() - 2);
        run(&args(&to_scale), &mut Vec::new()).unwrap();
        let plain = NetFile::parse(&std::fs::read(&scaled).unwrap()).unwrap();
        assert_eq!(plain.scale, crate::nnue::file::TRAINED_SCALE as i32);
        // A reference that is no net, or no file, is refused before training.
        for (what, why) in [
            (&data, "not a brokkr net"),
            (&s(&dir.join("none.nnue")), "cannot read"),
        ] {
            let mut bad = start.clone();
            bad.extend(["--out", &scaled, "--scale-to", what]);
            let e = run(&args(&bad), &mut Vec::new()).unwrap_err();
            assert!(e.starts_with("--scale-to") && e.contains(why), "{e}");
        }
    }
}
