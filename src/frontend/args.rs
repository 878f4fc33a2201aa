//! A small option parser shared by the commands: `--name value`, `--name=value`,
//! `--flag` and positional arguments, with clear errors for anything unknown,
//! missing or repeated.

use super::text::escape_short;
use std::num::IntErrorKind;

/// Parsed arguments of one command.
#[derive(Debug, Default)]
pub struct Args {
    /// The arguments that are not options, in order.
    pub positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    /// Parse `args`. `with_value` lists the options that take a value, `flags` those
    /// that do not; anything else starting with `--` is an error, and so is an
    /// option given twice: which of two values was meant is a guess this parser
    /// does not make.
    pub fn parse(args: &[String], with_value: &[&str], flags: &[&str]) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(name) = a.strip_prefix("--") else {
                out.positional.push(a.clone());
                continue;
            };
            let (name, inline) = match name.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (name, None),
            };
            let value = if with_value.contains(&name) {
                Some(match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("option --{name} needs a value"))?,
                })
            } else if flags.contains(&name) {
                if inline.is_some() {
                    return Err(format!("option --{name} takes no value"));
                }
                None
            } else {
                return Err(format!("unknown option --{}", escape_short(name)));
            };
            if out.options.iter().any(|(n, _)| n == name) {
                return Err(format!("option --{name} is given more than once"));
            }
            out.options.push((name.to_string(), value));
        }
        Ok(out)
    }

    /// The value of `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the option `--name` was given (a flag, or an option with a value).
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    /// Parse the value of `--name` with `FromStr`, with a clear error.
    pub fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String>
    where
        T::Err: std::fmt::Display,
    {
        self.value(name)
            .map(|v| {
                v.parse::<T>()
                    .map_err(|e| format!("bad value for --{name} '{}': {e}", escape_short(v)))
            })
            .transpose()
    }

    /// The value of `--name` as a count (a whole number that fits in 64 bits).
    pub fn count(&self, name: &str) -> Result<Option<u64>, String> {
        self.value(name)
            .map(|v| parse_count(v).map_err(|why| format!("bad value for --{name}: {why}")))
            .transpose()
    }
}

/// A non-negative whole number up to `u64::MAX`, with an error that says what is
/// wrong with `text` in words (not Rust's `invalid digit found in string`).
pub fn parse_count(text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|e| {
        let shown = escape_short(text);
        match e.kind() {
            IntErrorKind::Empty => "expected a whole number, got nothing".to_string(),
            IntErrorKind::PosOverflow => {
                format!("'{shown}' is too large (at most {})", u64::MAX)
            }
            _ if text.starts_with('-') => {
                format!("'{shown}' is negative: expected a whole number from 0")
            }
            _ => format!("'{shown}' is not a whole number (digits 0-9 only)"),
        }
    })
}
