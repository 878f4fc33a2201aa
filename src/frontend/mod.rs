//! The front ends' shared room: what both the command line ([`crate::cli`]) and
//! the protocol loops ([`crate::protocol`]) use, and neither may call into: `bench`, the option parser it takes its arguments
//! with, the choice of bit path and slider backend, the limits of the engine's
//! options, and safe quoting of input in messages.
//!
//! May not touch: the protocols and the command line (the layers: docs/architecture.md).
//!
//! They live below both so that neither calls into the other for them: the
//! command line starts the protocol loop, and the protocol loop's `bench` runs
//! from here, not through the command line.

pub mod args;
pub mod bench;
pub mod evaluation;
pub mod text;

pub use args::Args;
pub use evaluation::evaluation_report;

use std::io::{self, Write};

/// The largest hash table, in MiB, that the `Hash` option, xboard's `memory` and
/// `--hash` accept.
pub const MAX_HASH_MB: usize = 1 << 16;
/// The most search threads that `Threads`, xboard's `cores` and `--threads` accept.
pub const MAX_THREADS: usize = 256;

/// The message for a failed write to a command's output.
pub fn write_error(e: io::Error) -> String {
    format!("cannot write output: {e}")
}

/// A line on stderr. A message to a closed or full stderr has nowhere else to
/// go, so a failed write is ignored rather than turned into a panic.
pub(crate) fn note(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// The built (bit path, backend) pair the search runs for `--bits`/`--slider`
/// (or the config file, or the CPU): [`choice`], then the fallback of
/// [`crate::paths::resolve`], reported on stderr when it applies.
pub fn search_pair(a: &Args) -> Result<(crate::bits::BitPath, crate::attacks::SliderKind), String> {
    let c = choice(a)?;
    let (bits, slider, fallback) =
        crate::paths::resolve(c.bits, c.slider, &crate::bits::Cpu::detect());
    if let Some(n) = fallback {
        note(&format!("brokkr: {n}"));
    }
    Ok((bits, slider))
}

/// The bit path and slider backend: `--bits`/`--slider` if given, else the
/// config file written by `brokkr paths --save`, else the CPU's default.
pub fn choice(a: &Args) -> Result<crate::paths::Choice, String> {
    use crate::attacks::SliderKind;
    use crate::bits::{BitPath, Cpu};
    let cpu = Cpu::detect();
    let bits = a.parsed::<BitPath>("bits")?;
    if let Some(p) = bits.filter(|p| !p.available(&cpu)) {
        return Err(format!(
            "bit path '{p}' is not available on this CPU ({cpu})"
        ));
    }
    let slider = a.parsed::<SliderKind>("slider")?;
    if let Some(k) = slider.filter(|k| !k.available(&cpu)) {
        return Err(format!(
            "slider backend '{k}' is not available on this CPU ({cpu})"
        ));
    }
    let choice = crate::paths::Choice::resolve(&cpu, bits, slider);
    for w in &choice.warnings {
        note(&format!("brokkr: warning: {w} (ignored)"));
    }
    Ok(choice)
}

/// The evaluation a command runs: the network (`--net FILE`, else the embedded
/// one) on a vector path (`--simd PATH`, else the CPU's fastest), or the
/// hand-written evaluation (`--hce`, or no net at all).
#[derive(Clone)]
pub struct EvalChoice {
    pub vector: crate::nnue::VectorPath,
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
}

/// Parse `--simd`, `--net` and `--hce`.
pub fn eval_choice(a: &Args) -> Result<EvalChoice, String> {
    use crate::nnue::{Network, VectorPath};
    let vector = match a.value("simd") {
        None => VectorPath::best(),
        Some(s) => {
            let p = VectorPath::parse(s).ok_or_else(|| {
                format!("bad value for --simd '{s}': expected avx512, avx2, sse2 or portable")
            })?;
            if !p.available() {
                return Err(format!(
                    "vector path '{p}' is not available on this CPU (it runs: {})",
                    VectorPath::runnable()
                        .iter()
                        .map(|p| p.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            p
        }
    };
    let net = if a.flag("hce") {
        None
    } else if let Some(path) = a.value("net") {
        Some(std::sync::Arc::new(Network::load(std::path::Path::new(
            path,
        ))?))
    } else {
        Network::embedded().map(std::sync::Arc::new)
    };
    Ok(EvalChoice { vector, net })
}

/// The help lines of `--simd`, `--net` and `--hce` (a macro, so `concat!` can
/// join it to a command's help).
#[macro_export]
macro_rules! EVAL_HELP {
    () => {
        "  --net FILE       evaluate with the network in FILE (default: the embedded net)
  --hce            evaluate with the hand-written evaluation
  --simd PATH      the network's vector path (avx512, avx2, sse2, portable; default:
                   the fastest this CPU runs)"
    };
}
pub use EVAL_HELP;
