//! The engine's options, each declared once: its name, kind, range, current
//! value and what setting it does. UCI's `option` lines, xboard's `feature
//! option=` lines and both dialects' `setoption`/`option` commands are all made
//! from [`OPTIONS`] (as Stockfish's `engine.cpp` declares its options once).
//!
//! Beside the listed options sit the hidden ones, taken by name but listed only
//! on request (`brokkr uci --switches`, or a `tune` build for the parameters),
//! since match runners such as fastchess send only the options an engine lists:
//! the search's switches (`Feature_<name>`, [`Features::SWITCHES`]), the
//! evaluation's term groups (`Eval_<group>`) and the search parameters
//! ([`Params::ALL`](crate::search::params::Params::ALL)).
//!
//! A value that is refused leaves the option as it was, with a message naming
//! the option and the values it takes.

use super::controller::{
    Controller, Options, EMBEDDED_NET, MAX_HASH_MB, MAX_MULTIPV, MAX_OVERHEAD_MS, MAX_THREADS,
};
use super::shown;
use crate::attacks::SliderKind;
use crate::bits::{BitPath, Cpu};
use crate::search::{skill, Features};
use std::sync::Arc;
use std::time::Duration;

/// What kind of value an option takes, as both dialects describe it.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Spin { min: u64, max: u64 },
    /// On or off (`true`/`false`; xboard sends 1 and 0).
    Check,
    /// One of the names this CPU runs.
    Combo(fn(&Cpu) -> Vec<&'static str>),
    /// An action with no value.
    Button,
    /// A file or folder name (UCI `string`, xboard `-file`/`-path`); empty for none.
    Path,
}

/// A value, parsed for its option's [`Kind`].
#[derive(Clone, Copy)]
pub enum Value<'a> {
    Number(u64),
    Bool(bool),
    /// A combo's name or a path, trimmed (empty or `<empty>`: none).
    Text(&'a str),
    Press,
}

/// One option.
pub struct EngineOption {
    /// The UCI name; xboard's is the same with `_` for each space.
    pub name: &'static str,
    pub kind: Kind,
    /// Whether xboard lists it: not where xboard has a command of its own
    /// (`memory`, `cores`, `hard`/`easy`, `egtpath`, `variant`).
    pub xboard: bool,
    /// The current value, as the option lines show it.
    pub value: fn(&Options) -> String,
    /// Apply a value (already checked against the kind); `name` is the name as
    /// the GUI wrote it, for messages.
    pub set: fn(&mut Controller, &str, Value) -> Result<(), String>,
}

impl EngineOption {
    /// xboard's name: spaces are not allowed there.
    pub fn xboard_name(&self) -> String {
        self.name.replace(' ', "_")
    }
}

fn bits_names(cpu: &Cpu) -> Vec<&'static str> {
    let ok = BitPath::ALL.iter().filter(|p| p.available(cpu));
    ok.map(|p| p.name()).collect()
}

fn slider_names(cpu: &Cpu) -> Vec<&'static str> {
    let ok = SliderKind::ALL.iter().filter(|k| k.available(cpu));
    ok.map(|k| k.name()).collect()
}

fn vector_names(_: &Cpu) -> Vec<&'static str> {
    crate::nnue::VectorPath::runnable()
        .iter()
        .map(|p| p.name())
        .collect()
}

/// The number of a [`Value::Number`] (the kind guarantees it).
fn number(v: Value) -> u64 {
    match v {
        Value::Number(n) => n,
        _ => 0,
    }
}

fn on(v: Value) -> bool {
    matches!(v, Value::Bool(true))
}

fn text(v: Value<'_>) -> &str {
    match v {
        Value::Text(t) => t,
        _ => "",
    }
}

/// Every listed option, in the order `uci` lists them.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB as u64,
        },
        xboard: false,
        value: |o| o.hash_mb.to_string(),
        set: |ctl, _, v| ctl.set_hash(number(v) as usize),
    },
    EngineOption {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
        xboard: false,
        value: |o| o.threads.to_string(),
        set: |ctl, _, v| {
            let n = number(v) as usize;
            let cores = std::thread::available_parallelism().map_or(n, |c| c.get());
            if n > cores {
                // Taken, as Stockfish takes it, but the threads share the cores:
                // each searches slower, and the main one may answer late.
                ctl.note(&format!(
                    "Threads {n} is more than this machine's {cores} logical cores: the \
                     threads will share them, and the engine may overrun short time limits"
                ));
            }
            ctl.set_threads(n);
            Ok(())
        },
    },
    EngineOption {
        name: "Clear Hash",
        kind: Kind::Button,
        xboard: true,
        value: |_| String::new(),
        set: |ctl, _, _| {
            ctl.clear();
            Ok(())
        },
    },
    EngineOption {
        name: "Ponder",
        kind: Kind::Check,
        xboard: false,
        value: |o| o.ponder.to_string(),
        set: |ctl, _, v| {
            ctl.opts.ponder = on(v);
            Ok(())
        },
    },
    EngineOption {
        name: "MultiPV",
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV as u64,
        },
        xboard: true,
        value: |o| o.multipv.to_string(),
        set: |ctl, _, v| {
            ctl.opts.multipv = number(v) as usize;
            Ok(())
        },
    },
    EngineOption {
        name: "Move Overhead",
        kind: Kind::Spin {
            min: 0,
            max: MAX_OVERHEAD_MS,
        },
        xboard: true,
        value: |o| o.move_overhead.as_millis().to_string(),
        set: |ctl, _, v| {
            ctl.opts.move_overhead = Duration::from_millis(number(v));
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_Chess960",
        kind: Kind::Check,
        xboard: false,
        value: |o| o.chess960.to_string(),
        set: |ctl, _, v| {
            ctl.opts.chess960 = on(v);
            ctl.game.set_chess960(on(v));
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        xboard: false,
        value: |o| o.show_wdl.to_string(),
        set: |ctl, _, v| {
            ctl.opts.show_wdl = on(v);
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        xboard: true,
        value: |o| o.limit_strength.to_string(),
        set: |ctl, _, v| {
            ctl.opts.limit_strength = on(v);
            Ok(())
        },
    },
    EngineOption {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: skill::ELO_MIN as u64,
            max: skill::ELO_MAX as u64,
        },
        xboard: true,
        value: |o| o.elo.to_string(),
        set: |ctl, _, v| {
            ctl.opts.elo = number(v) as u32;
            Ok(())
        },
    },
    EngineOption {
        name: "Skill Level",
        kind: Kind::Spin {
            min: 0,
            max: skill::MAX_LEVEL as u64,
        },
        xboard: true,
        value: |o| o.skill_level.to_string(),
        set: |ctl, _, v| {
            ctl.opts.skill_level = number(v) as u32;
            Ok(())
        },
    },
    EngineOption {
        name: "BitPath",
        kind: Kind::Combo(bits_names),
        xboard: true,
        value: |o| o.bits.name().to_string(),
        set: |ctl, name, v| {
            let v = text(v);
            let names: Vec<&str> = BitPath::ALL.iter().map(|p| p.name()).collect();
            let p: BitPath = v.parse().map_err(|_| bad_choice(name, v, &names))?;
            if !p.available(&ctl.cpu) {
                return Err(not_on_this_cpu(name, p.name()));
            }
            ctl.opts.bits = p;
            Ok(())
        },
    },
    EngineOption {
        name: "Slider",
        kind: Kind::Combo(slider_names),
        xboard: true,
        value: |o| o.slider.name().to_string(),
        set: |ctl, name, v| {
            let v = text(v);
            let names: Vec<&str> = SliderKind::ALL.iter().map(|k| k.name()).collect();
            let k: SliderKind = v.parse().map_err(|_| bad_choice(name, v, &names))?;
            if !k.available(&ctl.cpu) {
                return Err(not_on_this_cpu(name, k.name()));
            }
            ctl.opts.slider = k;
            Ok(())
        },
    },
    EngineOption {
        name: "UseNNUE",
        kind: Kind::Check,
        xboard: true,
        value: |o| (o.use_nnue && o.net.is_some()).to_string(),
        set: |ctl, _, v| {
            let want = on(v);
            if want && ctl.opts.net.is_none() {
                return Err(
                    "UseNNUE: there is no network (this build embeds none): set EvalFile".into(),
                );
            }
            if want != ctl.opts.use_nnue {
                // The hash and the correction history hold the other evaluation's numbers.
                ctl.clear();
            }
            ctl.opts.use_nnue = want;
            Ok(())
        },
    },
    EngineOption {
        name: "EvalFile",
        kind: Kind::Path,
        xboard: true,
        value: |o| o.eval_file.clone(),
        set: |ctl, _, v| {
            let v = text(v);
            let net = if v.is_empty() || v == EMBEDDED_NET {
                crate::nnue::Network::embedded()
                    .ok_or("EvalFile: this build embeds no network; give a file")?
            } else {
                // A bad file leaves the net that was in use.
                crate::nnue::Network::load(std::path::Path::new(v))
                    .map_err(|e| format!("EvalFile: {e}; keeping the network in use"))?
            };
            ctl.note(&format!("evaluating with {}", net.describe()));
            ctl.clear();
            ctl.opts.net = Some(Arc::new(net));
            ctl.opts.eval_file = if v.is_empty() {
                EMBEDDED_NET.into()
            } else {
                v.into()
            };
            Ok(())
        },
    },
    EngineOption {
        name: "NNUEPath",
        kind: Kind::Combo(vector_names),
        xboard: true,
        value: |o| o.vector.name().to_string(),
        set: |ctl, name, v| {
            let v = text(v);
            let all = crate::nnue::VectorPath::ALL;
            let names: Vec<&str> = all.iter().map(|p| p.name()).collect();
            let p = crate::nnue::VectorPath::parse(v).ok_or_else(|| bad_choice(name, v, &names))?;
            if !p.available() {
                return Err(not_on_this_cpu(name, p.name()));
            }
            ctl.opts.vector = p;
            Ok(())
        },
    },
    EngineOption {
        name: "OwnBook",
        kind: Kind::Check,
        xboard: true,
        value: |o| o.own_book.to_string(),
        set: |ctl, _, v| {
            ctl.opts.own_book = on(v);
            if ctl.opts.own_book && ctl.opts.book.is_none() {
                ctl.note("OwnBook is on, but no BookFile is loaded: every move is searched");
            }
            Ok(())
        },
    },
    EngineOption {
        name: "BookFile",
        kind: Kind::Path,
        xboard: true,
        value: |o| o.book_file.clone(),
        set: |ctl, _, v| {
            let v = text(v);
            if v.is_empty() {
                ctl.opts.book = None;
                ctl.opts.book_file.clear();
                return Ok(());
            }
            // A bad file leaves the book that was in use, if any.
            let book = crate::book::Book::open(std::path::Path::new(v)).map_err(|e| {
                let kept = match &ctl.opts.book {
                    Some(_) => format!("keeping the book in use ({})", ctl.opts.book_file),
                    None => "no book in use".into(),
                };
                format!("BookFile: {e}; {kept}")
            })?;
            ctl.note(&format!("book: {} entries from {v}", book.len()));
            ctl.opts.book = Some(Arc::new(book));
            ctl.opts.book_file = v.into();
            Ok(())
        },
    },
    EngineOption {
        name: "BookVariety",
        kind: Kind::Spin {
            min: 0,
            max: crate::book::MAX_VARIETY as u64,
        },
        xboard: true,
        value: |o| o.book_variety.to_string(),
        set: |ctl, _, v| {
            ctl.opts.book_variety = number(v) as u32;
            Ok(())
        },
    },
    EngineOption {
        name: "SyzygyPath",
        kind: Kind::Path,
        xboard: false,
        value: |o| o.syzygy_path.clone(),
        set: |ctl, _, v| {
            set_syzygy_path(ctl, text(v));
            Ok(())
        },
    },
    EngineOption {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin { min: 1, max: 100 },
        xboard: true,
        value: |o| o.syzygy.probe_depth.to_string(),
        set: |ctl, _, v| {
            ctl.opts.syzygy.probe_depth = number(v) as i32;
            Ok(())
        },
    },
    EngineOption {
        name: "Syzygy50MoveRule",
        kind: Kind::Check,
        xboard: true,
        value: |o| o.syzygy.rule50.to_string(),
        set: |ctl, _, v| {
            ctl.opts.syzygy.rule50 = on(v);
            Ok(())
        },
    },
    EngineOption {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            min: 0,
            max: crate::syzygy::MAX_PIECES as u64,
        },
        xboard: true,
        value: |o| o.syzygy.probe_limit.to_string(),
        set: |ctl, _, v| {
            ctl.opts.syzygy.probe_limit = number(v) as usize;
            Ok(())
        },
    },
];

/// The option called `name` in either dialect (case-insensitive; xboard's
/// underscores stand for spaces).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name) || o.xboard_name().eq_ignore_ascii_case(name))
}

/// UCI's `option` lines of every listed option, with its current value as the
/// default (at `uci`, before any `setoption`, the two are the same).
pub fn uci_lines(o: &Options, cpu: &Cpu) -> Vec<String> {
    OPTIONS
        .iter()
        .map(|opt| {
            let value = (opt.value)(o);
            let kind = match opt.kind {
                Kind::Spin { min, max } => format!("spin default {value} min {min} max {max}"),
                Kind::Check => format!("check default {value}"),
                Kind::Combo(names) => {
                    let vars: Vec<String> = names(cpu).iter().map(|n| format!("var {n}")).collect();
                    format!("combo default {value} {}", vars.join(" "))
                }
                Kind::Button => "button".into(),
                Kind::Path if value.is_empty() => "string default <empty>".into(),
                Kind::Path => format!("string default {value}"),
            };
            format!("option name {} type {kind}", opt.name)
        })
        .collect()
}

/// xboard's `feature option=` lines of the options it lists, with their
/// current values.
pub fn xboard_lines(o: &Options, cpu: &Cpu) -> Vec<String> {
    OPTIONS
        .iter()
        .filter(|opt| opt.xboard)
        .map(|opt| {
            let value = (opt.value)(o);
            let kind = match opt.kind {
                Kind::Spin { min, max } => format!("-spin {value} {min} {max}"),
                Kind::Check => format!("-check {}", u8::from(value == "true")),
                Kind::Combo(names) => format!("-combo {}", combo(&value, &names(cpu))),
                Kind::Button => "-button".into(),
                Kind::Path => format!("-file {value}"),
            };
            format!("feature option=\"{} {kind}\"", opt.xboard_name())
        })
        .collect()
}

/// xboard's combo: the choices split by ` /// `, the current one marked `*`.
fn combo(current: &str, all: &[&str]) -> String {
    let marked: Vec<String> = all
        .iter()
        .map(|v| {
            if *v == current {
                format!("*{v}")
            } else {
                v.to_string()
            }
        })
        .collect();
    marked.join(" /// ")
}

/// Set an option by its name in either dialect, listed or hidden; an error
/// names the option and says what it takes.
pub fn set(ctl: &mut Controller, name: &str, value: Option<&str>) -> Result<(), String> {
    if let Some(opt) = find(name) {
        let parsed = match opt.kind {
            Kind::Spin { min, max } => Value::Number(option_number(name, value, min, max)?),
            Kind::Check => Value::Bool(option_bool(name, value)?),
            Kind::Combo(_) => Value::Text(value.unwrap_or("").trim()),
            Kind::Button => Value::Press,
            Kind::Path => {
                let v = value.unwrap_or("").trim();
                Value::Text(if v == "<empty>" { "" } else { v })
            }
        };
        return (opt.set)(ctl, name, parsed);
    }
    set_hidden(ctl, name, value)
}

/// The options no GUI lists: the test-only `DebugPanic`, the search
/// parameters, and the switches of the search's features and the evaluation's
/// term groups, for matches that measure one against the same build without it.
fn set_hidden(ctl: &mut Controller, name: &str, value: Option<&str>) -> Result<(), String> {
    let lower = name.to_ascii_lowercase();
    let unknown = || format!("unknown option '{}'", shown(name));
    // The next searches panic on purpose, so that the tests can see the guard
    // in `Controller::go` at work.
    if lower == "debugpanic" {
        ctl.debug_panic = option_bool(name, value)?;
        return Ok(());
    }
    if ctl.opts.tuning.set(name, value.unwrap_or(""))? {
        return Ok(());
    }
    if let Some(key) = lower.strip_prefix("eval_") {
        let term = crate::eval::Term::SWITCHABLE
            .into_iter()
            .find(|t| key == t.key())
            .ok_or_else(unknown)?;
        let on = option_bool(name, value)?;
        // The pawn tables hold scores made with the old switches.
        ctl.clear();
        ctl.opts.features.terms = ctl.opts.features.terms.with(&[term], on);
        return Ok(());
    }
    let key = lower.strip_prefix("feature_").ok_or_else(unknown)?;
    let switch = Features::SWITCHES
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(key))
        .ok_or_else(unknown)?;
    let on = option_bool(name, value)?;
    *(switch.field)(&mut ctl.opts.features) = on;
    Ok(())
}

/// The `option` lines of the hidden switches, with their values: each search
/// feature (`Feature_<name>`) and each evaluation term group (`Eval_<group>`).
pub fn switch_lines(o: &Options) -> Vec<String> {
    let mut features = o.features;
    let mut lines: Vec<String> = Features::SWITCHES
        .iter()
        .map(|s| {
            let on = *(s.field)(&mut features);
            format!("option name Feature_{} type check default {on}", s.name)
        })
        .collect();
    lines.extend(crate::eval::Term::SWITCHABLE.iter().map(|&t| {
        let key = t.key();
        let name = format!("{}{}", key[..1].to_ascii_uppercase(), &key[1..]);
        let on = o.features.terms.contains(t);
        format!("option name Eval_{name} type check default {on}")
    }));
    lines
}

/// `SyzygyPath`: the tables in the directories of `value` (empty: none). A
/// missing directory or a bad file gets a note, and the tables that are good
/// are used.
fn set_syzygy_path(ctl: &mut Controller, v: &str) {
    let (tables, problems) = crate::syzygy::Tablebase::open(v);
    for p in &problems {
        ctl.note(&format!("SyzygyPath: {p}"));
    }
    if tables.is_empty() {
        if !v.is_empty() {
            ctl.note(&format!(
                "SyzygyPath: no tables in {v}: playing without them"
            ));
        }
        ctl.opts.syzygy.tables = None;
        ctl.opts.syzygy_path.clear();
        return;
    }
    let (wdl, dtz) = tables.file_counts();
    ctl.note(&format!(
        "syzygy: {wdl} WDL and {dtz} DTZ tables, up to {} pieces, from {v}",
        tables.max_pieces()
    ));
    ctl.opts.syzygy.tables = Some(Arc::new(tables));
    ctl.opts.syzygy_path = v.into();
}

/// Parse a whole number within `lo..=hi` for an option.
fn option_number(name: &str, v: Option<&str>, lo: u64, hi: u64) -> Result<u64, String> {
    let v = v.ok_or_else(|| format!("option '{name}' needs a value"))?;
    match v.trim().parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!(
            "bad value '{}' for '{name}': expected a whole number from {lo} to {hi}",
            shown(v)
        )),
    }
}

/// Parse `true` or `false` (any case) for an option.
fn option_bool(name: &str, v: Option<&str>) -> Result<bool, String> {
    match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!(
            "bad value '{}' for '{name}': expected true or false",
            shown(v.unwrap_or(""))
        )),
    }
}

/// The message for a combo option's bad value: it names the option, as every
/// option's message does, and lists the values it takes.
fn bad_choice(name: &str, v: &str, names: &[&str]) -> String {
    format!(
        "bad value '{}' for '{name}': expected one of {}",
        shown(v),
        names.join(", ")
    )
}

fn not_on_this_cpu(name: &str, value: &str) -> String {
    format!("bad value '{value}' for '{name}': not available on this CPU")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_in_both_dialects() {
        for (i, a) in OPTIONS.iter().enumerate() {
            assert!(!a.xboard_name().contains(' '));
            for b in &OPTIONS[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name), "{}", a.name);
                assert!(!a.xboard_name().eq_ignore_ascii_case(&b.xboard_name()));
            }
            assert!(std::ptr::eq(find(a.name).unwrap(), a));
            assert!(std::ptr::eq(
                find(&a.xboard_name().to_lowercase()).unwrap(),
                a
            ));
            // A hidden option never shadows a listed one.
            assert!(crate::search::params::Params::find(a.name).is_none());
        }
    }
}
