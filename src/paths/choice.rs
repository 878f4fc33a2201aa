//! Which bit path and slider backend the engine runs, and why.
//!
//! The choice is made once at start-up, in this order: a command-line flag or
//! engine option; the pick that `brokkr paths --save` measured and wrote to the
//! config file; the CPU-based default. The config file is a few `key = value`
//! lines at `$BROKKR_CONFIG`, else `$XDG_CONFIG_HOME/brokkr/paths.conf`, else
//! `$HOME/.config/brokkr/paths.conf`:
//!
//! ```text
//! # written by `brokkr paths --save`
//! bits = bmi
//! slider = pext
//! ```
//!
//! A file that is missing is ignored; a file with a bad or unavailable value is
//! reported and ignored, so a stale file never stops the engine.

use crate::attacks::SliderKind;
use crate::bits::{BitPath, Cpu};
use std::path::PathBuf;

/// Where a choice came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A flag or option set by the user.
    Flag,
    /// The config file written by `brokkr paths --save`.
    Config(PathBuf),
    /// The CPU-based default, with the reason.
    Cpu(&'static str),
}

/// The bit path and slider backend to run.
#[derive(Clone, Debug)]
pub struct Choice {
    pub bits: BitPath,
    pub bits_source: Source,
    pub slider: SliderKind,
    pub slider_source: Source,
    /// Problems met reading the config file (shown, then ignored).
    pub warnings: Vec<String>,
}

/// The config file's path.
pub fn config_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BROKKR_CONFIG") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("brokkr").join("paths.conf"))
}

/// The settings in the config file's text: (bits, slider, warnings).
pub fn parse_config(text: &str, cpu: &Cpu) -> (Option<BitPath>, Option<SliderKind>, Vec<String>) {
    let (mut bits, mut slider, mut warnings) = (None, None, Vec::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            warnings.push(format!("line {}: expected 'key = value'", n + 1));
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "bits" => match value.parse::<BitPath>() {
                Ok(p) if p.available(cpu) => bits = Some(p),
                Ok(p) => warnings.push(format!(
                    "line {}: bit path '{p}' is not available on this CPU",
                    n + 1
                )),
                Err(e) => warnings.push(format!("line {}: {e}", n + 1)),
            },
            "slider" => match value.parse::<SliderKind>() {
                Ok(k) if k.available(cpu) => slider = Some(k),
                Ok(k) => warnings.push(format!(
                    "line {}: slider '{k}' is not available on this CPU",
                    n + 1
                )),
                Err(e) => warnings.push(format!("line {}: {e}", n + 1)),
            },
            other => warnings.push(format!("line {}: unknown key '{other}'", n + 1)),
        }
    }
    (bits, slider, warnings)
}

impl Choice {
    /// Resolve the choice: flags first, then the config file, then the CPU.
    pub fn resolve(
        cpu: &Cpu,
        bits_flag: Option<BitPath>,
        slider_flag: Option<SliderKind>,
    ) -> Choice {
        let (mut cfg_bits, mut cfg_slider, mut warnings) = (None, None, Vec::new());
        let path = config_path();
        if let Some(p) = &path {
            match std::fs::read_to_string(p) {
                Ok(text) => {
                    let (b, s, w) = parse_config(&text, cpu);
                    (cfg_bits, cfg_slider) = (b, s);
                    warnings.extend(w.into_iter().map(|w| format!("{}: {w}", p.display())));
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => warnings.push(format!("{}: {e}", p.display())),
            }
        }
        let config = || Source::Config(path.clone().unwrap_or_default());
        let (bits, bits_source) = match (bits_flag, cfg_bits) {
            (Some(b), _) => (b, Source::Flag),
            (None, Some(b)) => (b, config()),
            (None, None) => {
                let (b, why) = BitPath::default_for(cpu);
                (b, Source::Cpu(why))
            }
        };
        let (slider, slider_source) = match (slider_flag, cfg_slider) {
            (Some(s), _) => (s, Source::Flag),
            (None, Some(s)) => (s, config()),
            (None, None) => {
                let (s, why) = SliderKind::default_for(cpu);
                (s, Source::Cpu(why))
            }
        };
        Choice {
            bits,
            bits_source,
            slider,
            slider_source,
            warnings,
        }
    }
}

/// Write the config file: `bits` and `slider` where `Some`, and nothing for a
/// `None`, which leaves that choice to the CPU (so a later `--save` that finds no
/// clear winner also undoes an earlier one). `notes` become comment lines. The
/// file is written under a temporary name and renamed, so a reader never sees half
/// of it. Returns its path.
pub fn save(
    bits: Option<BitPath>,
    slider: Option<SliderKind>,
    notes: &[&str],
) -> Result<PathBuf, String> {
    let path = config_path().ok_or("no config location: set BROKKR_CONFIG or HOME")?;
    save_to(path, bits, slider, notes)
}

/// [`save`] to the file at `path`, wherever the environment points (tests
/// write a file of their own without setting the process's environment, which
/// every other test's children would see).
pub fn save_to(
    path: PathBuf,
    bits: Option<BitPath>,
    slider: Option<SliderKind>,
    notes: &[&str],
) -> Result<PathBuf, String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut text = String::from("# written by `brokkr paths --save`\n");
    for note in notes {
        text.push_str(&format!("# {note}\n"));
    }
    if let Some(b) = bits {
        text.push_str(&format!("bits = {b}\n"));
    }
    if let Some(s) = slider {
        text.push_str(&format!("slider = {s}\n"));
    }
    let mut tmp = path.clone().into_os_string();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {e}", path.display()));
    }
    Ok(path)
}
