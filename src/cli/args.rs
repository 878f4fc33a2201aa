//! A small option parser shared by the commands: `--name value`, `--flag` and
//! positional arguments, with clear errors for anything unknown or missing.

/// Parsed arguments of one command.
#[derive(Debug, Default)]
pub struct Args {
    pub positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    /// Parse `args`. `with_value` lists the options that take a value, `flags` those
    /// that do not; anything else starting with `--` is an error.
    pub fn parse(args: &[String], with_value: &[&str], flags: &[&str]) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                if with_value.contains(&name) {
                    let v = match inline {
                        Some(v) => v,
                        None => it
                            .next()
                            .cloned()
                            .ok_or_else(|| format!("option --{name} needs a value"))?,
                    };
                    out.options.push((name.to_string(), Some(v)));
                } else if flags.contains(&name) && inline.is_none() {
                    out.options.push((name.to_string(), None));
                } else {
                    return Err(format!("unknown option --{name}"));
                }
            } else {
                out.positional.push(a.clone());
            }
        }
        Ok(out)
    }

    /// The value of `--name`, if given (the last one wins).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the flag `--name` was given.
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
                    .map_err(|e| format!("bad value for --{name} '{v}': {e}"))
            })
            .transpose()
    }
}
