//! Writers: tables as Rust source (for the crate, or standalone) or as a C99 header
//! and source.
//!
//! Every writer is a pure function of the tables, so the output is byte-for-byte the
//! same on every run. Each table is preceded by a comment a reader can use without
//! brokkr: its meaning and indexing (from [`Table::doc`]), its layout, the square
//! numbering, its origin and its checksum.
//!
//! [`Table::doc`] is plain text, one paragraph per line. A block of lines from
//! "```rust" to "```" is a Rust example: it becomes a doctest in the crate, an
//! example marked `ignore` in the standalone Rust export, and is left out of C.

use super::table::{Elem, Table};
use std::fmt::Write;

/// Values per line in the emitted arrays.
fn per_line(elem: Elem) -> usize {
    match elem {
        Elem::U8 => 16,
        Elem::U16 | Elem::U32 => 8,
        Elem::U64 => 4,
    }
}

fn value(elem: Elem, v: u64, c: bool) -> String {
    match (elem, c) {
        (Elem::U64, false) => format!("0x{v:016X}"),
        (Elem::U64, true) => format!("UINT64_C(0x{v:016X})"),
        (Elem::U32, true) => format!("UINT32_C({v})"),
        _ => v.to_string(),
    }
}

/// Write `data` (row-major, shape `dims`) as nested brace or bracket lists.
fn write_array(out: &mut String, t: &Table, c: bool) {
    let (open, close) = if c { ("{", "}") } else { ("[", "]") };
    fn rec(
        out: &mut String,
        t: &Table,
        dims: &[usize],
        data: &[u64],
        depth: usize,
        c: bool,
        oc: (&str, &str),
    ) {
        let indent = "    ".repeat(depth + 1);
        if dims.len() == 1 {
            out.push_str(oc.0);
            for (i, &v) in data.iter().enumerate() {
                if i % per_line(t.elem) == 0 {
                    out.push('\n');
                    out.push_str(&indent);
                } else {
                    out.push(' ');
                }
                out.push_str(&value(t.elem, v, c));
                out.push(',');
            }
            let _ = write!(out, "\n{}{}", "    ".repeat(depth), oc.1);
            return;
        }
        let stride: usize = dims[1..].iter().product();
        out.push_str(oc.0);
        for chunk in data.chunks(stride) {
            out.push('\n');
            out.push_str(&indent);
            rec(out, t, &dims[1..], chunk, depth + 1, c, oc);
            out.push(',');
        }
        let _ = write!(out, "\n{}{}", "    ".repeat(depth), oc.1);
    }
    if t.dims.is_empty() {
        out.push_str(&value(t.elem, t.data[0], c));
    } else {
        rec(out, t, &t.dims, &t.data, 0, c, (open, close));
    }
}

fn rust_type(t: &Table) -> String {
    t.dims
        .iter()
        .rev()
        .fold(t.elem.rust().to_string(), |inner, d| {
            format!("[{inner}; {d}]")
        })
}

/// Where a table comment goes, which decides what happens to Rust examples.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// `OUT_DIR/tables.rs`, included by `brokkr::tables`: examples are doctests.
    Crate,
    /// The standalone Rust export: examples shown, but not run.
    Standalone,
    /// The C header: Rust examples left out.
    C,
}

/// Text width of wrapped comment lines, not counting the comment prefix.
const WIDTH: usize = 84;

/// Whether a word may not start a line: in Markdown it would turn the line into a
/// list item, quote, heading, table row or HTML block.
fn markdown_hazard(word: &str) -> bool {
    let first = word.chars().next().unwrap_or(' ');
    if "-+*>#=|<".contains(first) {
        return true;
    }
    let digits = word.trim_start_matches(|ch: char| ch.is_ascii_digit());
    digits.len() < word.len() && (digits.starts_with('.') || digits.starts_with(')'))
}

/// Word-wrap one paragraph to [`WIDTH`] columns, never starting a line with a word
/// Markdown would read as block syntax.
fn wrap(para: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in para.split_whitespace() {
        if !cur.is_empty() && cur.len() + 1 + word.len() > WIDTH && !markdown_hazard(word) {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Whether the table is indexed by squares or holds bitboards, so that its comment
/// should say how squares are numbered.
fn uses_squares(t: &Table) -> bool {
    t.elem == Elem::U64 || t.dims.contains(&64)
}

/// The layout paragraph: element type, shape, entry count and size.
fn layout(t: &Table, c: bool) -> String {
    let ty = if c { t.elem.c() } else { t.elem.rust() };
    if t.dims.is_empty() {
        return format!("Layout: a single `{ty}` ({} bytes).", t.elem.bytes());
    }
    let order = if t.dims.len() > 1 { ", row-major" } else { "" };
    format!(
        "Layout: `{ty}` array `{}`{order}: {} entries, {} bytes.",
        t.dims_text(),
        t.data.len(),
        t.size_bytes()
    )
}

/// The comment for table `t`, every line starting with `prefix`.
fn doc_lines(t: &Table, prefix: &str, target: Target) -> String {
    let mut paras: Vec<Vec<String>> = Vec::new();
    let mut lines = t.doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "```rust" {
            let code: Vec<String> = lines
                .by_ref()
                .take_while(|l| l.trim() != "```")
                .map(str::to_string)
                .collect();
            let fence = match target {
                Target::C => continue,
                Target::Crate => "```",
                Target::Standalone => "```ignore",
            };
            let mut block = vec![fence.to_string()];
            if target == Target::Crate {
                block.push("# use brokkr::tables::*;".to_string());
            }
            block.extend(code);
            block.push("```".to_string());
            paras.push(block);
        } else if !line.trim().is_empty() {
            paras.push(wrap(line));
        }
    }
    paras.push(wrap(&layout(t, target == Target::C)));
    if uses_squares(t) {
        paras.push(wrap(
            "Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; bit n of a \
             bitboard is square n.",
        ));
    }
    paras.push(wrap(&format!("Origin: {}.", t.origin)));
    paras.push(wrap(&format!(
        "FNV-1a (64-bit, over the little-endian bytes): 0x{:016X}.",
        t.fnv1a()
    )));

    let mut s = String::new();
    for (i, para) in paras.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(s, "{}", prefix.trim_end());
        }
        for line in para {
            let line = if target == Target::C {
                c_comment_safe(line)
            } else {
                line.clone()
            };
            let _ = writeln!(s, "{}", format!("{prefix}{line}").trim_end());
        }
    }
    s
}

/// Text that cannot end or nest a C comment, nor form a trigraph.
fn c_comment_safe(text: &str) -> String {
    text.replace("*/", "* /")
        .replace("/*", "/ *")
        .replace("??", "? ?")
}

fn rust_items(s: &mut String, tables: &[Table], target: Target) {
    for t in tables {
        s.push_str(&doc_lines(t, "/// ", target));
        let _ = write!(s, "pub static {}: {} = ", t.name, rust_type(t));
        write_array(s, t, false);
        s.push_str(";\n\n");
        if target == Target::Crate {
            for check in &t.checks {
                s.push_str(check);
                s.push_str("\n\n");
            }
        }
    }
}

/// All `tables` as `pub static` items for `include!` into a module (no inner
/// attributes or docs), depending on nothing. The examples in the docs are doctests
/// of `brokkr::tables`.
pub fn rust_module(tables: &[Table], generator: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "// @generated by {generator}. Do not edit.");
    let _ = writeln!(s, "// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63.\n");
    rust_items(&mut s, tables, Target::Crate);
    s
}

/// One line per table for an overview: name, type and shape, size, origin.
fn overview(tables: &[Table], prefix: &str, c: bool) -> String {
    let decl = |t: &Table| {
        let ty = if c { t.elem.c() } else { t.elem.rust() };
        format!("{ty} {}{}", t.name, t.dims_text())
    };
    let width = tables.iter().map(|t| decl(t).len()).max().unwrap_or(0);
    let bytes = tables
        .iter()
        .map(|t| t.size_bytes().to_string().len())
        .max()
        .unwrap_or(0);
    let mut s = String::new();
    for t in tables {
        let _ = writeln!(
            s,
            "{prefix}  {:<width$}  {:>bytes$} bytes  {}",
            decl(t),
            t.size_bytes(),
            t.origin
        );
    }
    s
}

/// All `tables` as a standalone Rust module file with `pub static` items and no
/// dependencies: use it with `mod brokkr_tables;` or compile it as its own crate.
pub fn rust_standalone(tables: &[Table], generator: &str) -> String {
    let total: usize = tables.iter().map(Table::size_bytes).sum();
    let mut s = String::new();
    let _ = writeln!(s, "// @generated by {generator}. Do not edit.");
    let _ = write!(
        s,
        "//! Chess lookup tables from brokkr, as plain `pub static` arrays with no \
         dependencies.\n\
         //!\n\
         //! Put this file in your crate as a module (`mod brokkr_tables;`) or compile \
         it as a crate\n\
         //! of its own. Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., \
         h8 = 63, and\n\
         //! bit n of a bitboard (`u64`) is square n. Multi-dimensional arrays are \
         row-major.\n\
         //! Each table's comment gives its layout, indexing and origin.\n\
         //!\n\
         //! {} tables, {total} bytes:\n\
         //!\n\
         //! ```text\n",
        tables.len()
    );
    s.push_str(&overview(tables, "//!", false));
    s.push_str("//! ```\n\n");
    s.push_str("// A program may use only some of the tables.\n#![allow(dead_code)]\n\n");
    rust_items(&mut s, tables, Target::Standalone);
    s
}

/// A C99 header declaring `tables` as `extern const` arrays.
pub fn c_header(tables: &[Table], generator: &str) -> String {
    let total: usize = tables.iter().map(Table::size_bytes).sum();
    let mut s = String::new();
    let _ = writeln!(s, "/* @generated by {generator}. Do not edit.");
    let _ = write!(
        s,
        " *\n\
         \x20* Chess lookup tables from brokkr. Include this header and compile and link\n\
         \x20* brokkr_tables.c (C99, no dependencies beyond <stdint.h>).\n\
         \x20*\n\
         \x20* Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, and\n\
         \x20* bit n of a bitboard (uint64_t) is square n. Multi-dimensional arrays are\n\
         \x20* row-major. Each table's comment gives its layout, indexing and origin.\n\
         \x20*\n\
         \x20* {} tables, {total} bytes:\n\
         \x20*\n",
        tables.len()
    );
    s.push_str(&c_comment_safe(&overview(tables, " *", true)));
    s.push_str(" */\n");
    s.push_str(
        "#ifndef BROKKR_TABLES_H\n#define BROKKR_TABLES_H\n\n#include <stdint.h>\n\n\
         #ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
    );
    for t in tables {
        s.push_str("/*\n");
        s.push_str(&doc_lines(t, " * ", Target::C));
        s.push_str(" */\n");
        let _ = writeln!(
            s,
            "extern const {} {}{};\n",
            t.elem.c(),
            t.name,
            t.dims_text()
        );
    }
    s.push_str("#ifdef __cplusplus\n}\n#endif\n\n#endif /* BROKKR_TABLES_H */\n");
    s
}

/// The C99 source defining `tables`; it includes `header`.
pub fn c_source(tables: &[Table], generator: &str, header: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "/* @generated by {generator}. Do not edit.");
    let _ = writeln!(s, " * The tables are documented in {header}. */");
    let _ = writeln!(s, "#include \"{header}\"\n");
    for t in tables {
        let _ = writeln!(s, "/* {}: see {header}. */", t.name);
        let _ = write!(s, "const {} {}{} = ", t.elem.c(), t.name, t.dims_text());
        write_array(&mut s, t, true);
        s.push_str(";\n\n");
    }
    s
}
