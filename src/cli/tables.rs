//! `brokkr tables`: list the generated tables, or export them as standalone Rust or C.
//!
//! The export runs the same generators as `build.rs` ([`crate::codegen::all_tables`]),
//! so the exported data is the data compiled into brokkr.

use super::Args;
use crate::codegen::{self, emit, Table};
use std::fs;
use std::path::{Path, PathBuf};

const USAGE: &str = "\
usage: brokkr tables --list [--only NAME,...]
       brokkr tables --lang rust|c --out DIR [--only NAME,...]

  --list          print each table's name, element type, dimensions, size in bytes
                  and 64-bit FNV-1a checksum of its little-endian bytes
  --lang rust     write DIR/brokkr_tables.rs: one module of `pub static` arrays
  --lang c        write DIR/brokkr_tables.h and DIR/brokkr_tables.c (C99)
  --out DIR       where to write; created if it does not exist
  --only NAMES    only these tables (comma-separated, any case; see --list).
                  Magic and PEXT attack tables need their MASK, OFFSET, MAGIC and
                  SHIFT tables to be indexed, so export those with them.";

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
pub fn run(args: &[String]) -> Result<(), String> {
    let args = Args::parse(args, &["lang", "out", "only"], &["list", "help"])
        .map_err(|e| format!("tables: {e}\n{USAGE}"))?;
    if args.flag("help") {
        println!("{USAGE}");
        return Ok(());
    }
    if let Some(extra) = args.positional.first() {
        return Err(format!("tables: unexpected argument '{extra}'\n{USAGE}"));
    }
    // Check the options before generating anything, so mistakes are reported at once.
    let lang = args.value("lang").map(parse_lang).transpose()?;
    match (args.flag("list"), lang, args.value("out")) {
        (true, None, None) => {
            let tables = select(codegen::all_tables(), args.value("only"))?;
            print!("{}", list(&tables));
            Ok(())
        }
        (true, _, _) => Err(format!(
            "tables: --list cannot be combined with --lang or --out\n{USAGE}"
        )),
        (false, Some(lang), Some(out)) => {
            if out.is_empty() {
                return Err("tables: --out needs a directory, not an empty string".into());
            }
            let tables = select(codegen::all_tables(), args.value("only"))?;
            let written = export(&tables, lang, Path::new(out))?;
            for (path, bytes) in written {
                println!("wrote {} ({bytes} bytes)", path.display());
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
            "tables: unknown language '{s}' for --lang: expected 'rust' or 'c'"
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
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(name);
        fs::write(&path, &text)
            .map_err(|e| format!("tables: cannot write '{}': {e}", path.display()))?;
        written.push((path, text.len()));
    }
    Ok(written)
}
