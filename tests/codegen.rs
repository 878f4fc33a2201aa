//! The generators are deterministic: two runs emit byte-identical Rust, which is
//! also the source the build included, and nothing in them depends on the host.

use brokkr::codegen::{all_tables, emit::rust_module};
use std::path::Path;

/// The generator label `build.rs` passes to the writer.
const GENERATOR: &str = "brokkr's build.rs from codegen/";

/// The source `build.rs` wrote and `src/tables.rs` included.
const BUILT: &str = include_str!(concat!(env!("OUT_DIR"), "/tables.rs"));

#[test]
fn two_runs_emit_identical_source_equal_to_the_build() {
    let first = rust_module(&all_tables(), GENERATOR);
    let second = rust_module(&all_tables(), GENERATOR);
    assert!(first == second, "two generator runs differ");
    assert!(!first.is_empty());
    if first != BUILT {
        let line = first
            .lines()
            .zip(BUILT.lines())
            .position(|(a, b)| a != b)
            .map_or("(one is a prefix of the other)".to_string(), |i| {
                format!("line {}", i + 1)
            });
        panic!("the generators now emit a different tables.rs than the build's: {line}");
    }
}

#[test]
fn table_names_are_unique_and_in_the_built_source() {
    let tables = all_tables();
    let mut names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(names.len(), n, "two tables share a name");
    for t in &tables {
        assert!(
            BUILT.contains(&format!("pub static {}: ", t.name)),
            "{} missing from the built source",
            t.name
        );
    }
}

/// Tokens that would make generator output depend on the host or the run:
/// conditional compilation, CPU feature detection, the environment, clocks,
/// randomly seeded hashing, threads, native byte order.
const HOST_DEPENDENT: [&str; 19] = [
    "cfg!(",
    "#[cfg",
    "target_feature",
    "target_arch",
    "target_os",
    "target_endian",
    "target_pointer_width",
    "is_x86_feature_detected",
    "std::arch",
    "core::arch",
    "env::",
    "env!(",
    "SystemTime",
    "Instant",
    "HashMap",
    "HashSet",
    "RandomState",
    "thread",
    "_ne_bytes",
];

#[test]
fn generators_do_not_depend_on_the_host() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("codegen");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("read codegen/") {
        let path = entry.expect("codegen entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        files += 1;
        let src = std::fs::read_to_string(&path).expect("read generator");
        for (n, line) in src.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for token in HOST_DEPENDENT {
                assert!(
                    !code.contains(token),
                    "{}:{}: host-dependent `{token}` in a generator: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
    }
    assert!(
        files >= 10,
        "found only {files} generator files in {}",
        dir.display()
    );
}
