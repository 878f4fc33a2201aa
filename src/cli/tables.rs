//! `brokkr tables`: list the generated tables, or export them as standalone Rust or C.
//!
//! The export runs the same generators as `build.rs` ([`crate::codegen::all_tables`]),
//! so the exported data is the data compiled into brokkr.

use super::{write_error, Args};
use crate::codegen::{self, emit, Table};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The help text of `brokkr tables`.
pub const HELP: &str = USAGE;

const USAGE: &str = "\
usage: brokkr tables --list [--only NAME,...]
       brokkr tables --lang rust|c --out DIR [--only NAME,...]

  --list          print each table's name, element type, dimensions, size in bytes
                  and 64-bit FNV-1a checksum of its little-endian bytes
  --lang rust     write DIR/brokkr_tables.rs: one module of `pub static` arrays
  --lang c        write DIR/brokkr_tables.h and DIR/brokkr_tables.c (C99)
  --out DIR       where to write; created if it does not exist. The files are
                  written under temporary names and renamed at the end, so a
                  failed export leaves neither half a file nor a .h without its .c
  --only NAMES    only these tables (comma-separated, any case; see --list).
                  Magic and PEXT attack tables need their MASK, OFFSET, MAGIC and
                  SHIFT tables to be indexed, so export those with them.

Names (--lang, --only) are matched without regard to case.";

/// The file names the export writes.
pub const RUST_FILE: &str = "brokkr_tables.rs";
pub const C_HEADER: &str = "brokkr_tables.h";
pub const C_SOURCE: &str = "brokkr_tables.c";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    Rust,
    C,
}

/// Run `brokkr tables` with `args` (after the command name).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let args = Args::parse(args, &["lang", "out", "only"], &["list"])
        .map_err(|e| format!("tables: {e}\n{USAGE}"))?;
    if let Some(extra) = args.positional.first() {
        return Err(format!(
            "tables: unexpected argument '{}'\n{USAGE}",
            super::text::escape_short(extra)
        ));
    }
    // Check the options before generating anything, so mistakes are reported at once.
    let lang = args.value("lang").map(parse_lang).transpose()?;
    match (args.flag("list"), lang, args.value("out")) {
        (true, None, None) => {
            let tables = select(codegen::all_tables(), args.value("only"))?;
            write!(out, "{}", list(&tables)).map_err(write_error)?;
            Ok(())
        }
        (true, _, _) => Err(format!(
            "tables: --list cannot be combined with --lang or --out\n{USAGE}"
        )),
        (false, Some(lang), Some(dir)) => {
            if dir.is_empty() {
                return Err("tables: --out needs a directory, not an empty string".into());
            }
            let tables = select(codegen::all_tables(), args.value("only"))?;
            let written = export(&tables, lang, Path::new(dir))?;
            for (path, bytes) in written {
                say!(out, "wrote {} ({bytes} bytes)", path.display());
            }
            Ok(())
        }
        (false, Some(_), None) => Err(format!(
            "tables: --lang needs --out DIR, the directory to write to\n{USAGE}"
        )),
        (false, None, Some(_)) => Err(format!(
            "tables: --out needs --lang rust or --lang c\n{USAGE}"
        )),
        (false, None, None) => Err(format!("tables: say --list or --lang\n{USAGE}")),
    }
}

fn parse_lang(s: &str) -> Result<Lang, String> {
    match s.to_ascii_lowercase().as_str() {
        "rust" | "rs" => Ok(Lang::Rust),
        "c" => Ok(Lang::C),
        _ => Err(format!(
            "tables: unknown language '{}' for --lang: expected 'rust' or 'c'",
            super::text::escape_short(s)
        )),
    }
}

/// Keep the tables named in `only` (comma-separated, case-insensitive), in the
/// generators' order; all of them if `only` is `None`.
fn select(tables: Vec<Table>, only: Option<&str>) -> Result<Vec<Table>, String> {
    let Some(only) = only else {
        return Ok(tables);
    };
    let wanted: Vec<&str> = only
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if wanted.is_empty() {
        return Err("tables: --only names no table (see `brokkr tables --list`)".into());
    }
    let unknown: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|w| !tables.iter().any(|t| t.name.eq_ignore_ascii_case(w)))
        .collect();
    if !unknown.is_empty() {
        let valid: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        return Err(format!(
            "tables: unknown table name{} {} in --only\nvalid names: {}\n\
             (`brokkr tables --list` shows them with their types and sizes)",
            if unknown.len() > 1 { "s" } else { "" },
            unknown
                .iter()
                .map(|n| format!("'{n}'"))
                .collect::<Vec<_>>()
                .join(", "),
            valid.join(", ")
        ));
    }
    Ok(tables
        .into_iter()
        .filter(|t| wanted.iter().any(|w| t.name.eq_ignore_ascii_case(w)))
        .collect())
}

/// The `--list` text: a header line, then one aligned line per table.
fn list(tables: &[Table]) -> String {
    let header = ["name", "type", "dims", "bytes", "fnv1a"];
    let rows: Vec<[String; 5]> = tables
        .iter()
        .map(|t| {
            [
                t.name.clone(),
                t.elem.rust().to_string(),
                if t.dims.is_empty() {
                    "scalar".to_string()
                } else {
                    t.dims_text()
                },
                t.size_bytes().to_string(),
                format!("0x{:016x}", t.fnv1a()),
            ]
        })
        .collect();
    let mut width = header.map(str::len);
    for row in &rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: [&str; 5]| {
        format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = width[0],
            w1 = width[1],
            w2 = width[2],
            w3 = width[3],
        )
    };
    let mut out = line(header);
    for row in &rows {
        out.push_str(&line([&row[0], &row[1], &row[2], &row[3], &row[4]]));
    }
    out
}

/// Write `tables` in `lang` into `dir` (created if missing); returns each file
/// written with its size.
fn export(tables: &[Table], lang: Lang, dir: &Path) -> Result<Vec<(PathBuf, usize)>, String> {
    let generator = format!(
        "`brokkr tables --lang {}` (brokkr {}) from codegen/",
        match lang {
            Lang::Rust => "rust",
            Lang::C => "c",
        },
        env!("CARGO_PKG_VERSION")
    );
    let files = match lang {
        Lang::Rust => vec![(RUST_FILE, emit::rust_standalone(tables, &generator))],
        Lang::C => vec![
            (C_HEADER, emit::c_header(tables, &generator)),
            (C_SOURCE, emit::c_source(tables, &generator, C_HEADER)),
        ],
    };
    fs::create_dir_all(dir)
        .map_err(|e| format!("tables: cannot create directory '{}': {e}", dir.display()))?;
    let mut staged = Staged::new(dir);
    for (name, text) in &files {
        staged.write(name, text)?;
    }
    staged.commit()?;
    Ok(files
        .iter()
        .map(|(name, text)| (dir.join(name), text.len()))
        .collect())
}

/// Files written under temporary names in the target directory, renamed to their
/// real names together by [`Staged::commit`]. Dropped before the commit (an error
/// on the way), it removes its temporary files, so a failed export leaves nothing.
struct Staged {
    dir: PathBuf,
    /// (temporary path, final name).
    files: Vec<(PathBuf, &'static str)>,
}

impl Staged {
    fn new(dir: &Path) -> Staged {
        Staged {
            dir: dir.to_path_buf(),
            files: Vec::new(),
        }
    }

    /// Write `text` to a temporary file that will become `name`.
    fn write(&mut self, name: &'static str, text: &str) -> Result<(), String> {
        // Hidden, and named after this process, so two exports do not collide.
        let tmp = self.dir.join(format!(".{name}.tmp-{}", std::process::id()));
        self.files.push((tmp.clone(), name));
        fs::write(&tmp, text).map_err(|e| format!("tables: cannot write '{}': {e}", tmp.display()))
    }

    /// Rename every temporary file to its name. The targets are checked first, so
    /// the usual failure (a target that is a directory) renames nothing; if a
    /// rename still fails, the files this export already renamed are removed too,
    /// so the directory never holds one new half of a pair.
    fn commit(mut self) -> Result<(), String> {
        for (_, name) in &self.files {
            let target = self.dir.join(name);
            if target.is_dir() {
                return Err(format!(
                    "tables: cannot write '{}': it is a directory (nothing was written)",
                    target.display()
                ));
            }
        }
        let files = std::mem::take(&mut self.files);
        for (i, (tmp, name)) in files.iter().enumerate() {
            let target = self.dir.join(name);
            if let Err(e) = fs::rename(tmp, &target) {
                for (_, done) in &files[..i] {
                    let _ = fs::remove_file(self.dir.join(done));
                }
                for (tmp, _) in &files[i..] {
                    let _ = fs::remove_file(tmp);
                }
                return Err(format!(
                    "tables: cannot rename '{}' to '{}': {e} (the export was removed)",
                    tmp.display(),
                    target.display()
                ));
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        for (tmp, _) in &self.files {
            let _ = fs::remove_file(tmp);
        }
    }
}
