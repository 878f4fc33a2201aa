//! The rooms of `src/` and their layers (docs/architecture.md): no room uses a
//! room above it, and each says at its top what it may not touch.

use std::fs;
use std::path::{Path, PathBuf};

/// The rooms, bottom to top: a room may use rooms of its own layer or lower.
const LAYERS: &[(&str, u32)] = &[
    ("types", 1),
    ("tables", 2),
    ("bits", 3),
    ("moves", 4),
    ("attacks", 5),
    ("board", 6),
    ("qbb", 6),
    ("eval", 7),
    ("nnue", 8),
    ("syzygy", 9),
    ("book", 9),
    ("paths", 9),
    ("search", 10),
    ("win_rate", 11),
    ("measure", 12),
    ("frontend", 12),
    ("protocol", 13),
    ("cli", 14),
];

fn layer(room: &str) -> Option<u32> {
    LAYERS.iter().find(|(r, _)| *r == room).map(|&(_, l)| l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The room of a file under `src/`: its first path component, without `.rs`.
fn room_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Each `crate::ROOM` a line of code names (comments and test modules skipped).
fn upward_uses(text: &str, own: u32) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            // Test modules sit at the end of a file, by the house's habit.
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if layer(&name).is_some_and(|l| l > own) {
                found.push((n + 1, name));
            }
        }
    }
    found
}

#[test]
fn no_room_uses_a_room_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    let mut checked = 0;
    for file in &files {
        let room = room_of(&src, file);
        let Some(own) = layer(&room) else { continue };
        checked += 1;
        let text = fs::read_to_string(file).unwrap();
        for (line, used) in upward_uses(&text, own) {
            bad.push(format!("{}:{line}: {room} uses {used}", file.display()));
        }
    }
    assert!(checked > 100, "only {checked} files checked");
    assert!(
        bad.is_empty(),
        "imports that run back up:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_finds_a_use_that_runs_back_up() {
    let text =
        "use crate::bits::Bits;\nfn f() { crate::search::go(); }\n// crate::cli in a comment\n";
    assert_eq!(
        upward_uses(text, layer("board").unwrap()),
        [(2, "search".to_string())]
    );
}

#[test]
fn every_room_says_what_it_may_not_touch() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for (room, _) in LAYERS {
        let dir = src.join(room).join("mod.rs");
        let file = if dir.exists() {
            dir
        } else {
            src.join(format!("{room}.rs"))
        };
        let text = fs::read_to_string(&file).unwrap();
        let head: Vec<&str> = text.lines().take_while(|l| l.starts_with("//!")).collect();
        if !head.iter().any(|l| l.contains("May not touch:")) {
            missing.push(file.display().to_string());
        }
    }
    assert!(missing.is_empty(), "no 'May not touch:' line: {missing:?}");
}
