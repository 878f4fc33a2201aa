//! Forges every lookup table as static Rust source in `OUT_DIR`, assembles the
//! out-of-line bitscan functions in `asm/`, and records the git commit for
//! `--version`. Std only, apart from `cc` for the assembly.

#[path = "codegen/mod.rs"]
mod codegen;

use std::path::{Path, PathBuf};
use std::{env, fs, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-changed=asm");
    println!("cargo:rerun-if-changed=build.rs");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let tables = codegen::all_tables();
    let source = codegen::emit::rust_module(&tables, "brokkr's build.rs from codegen/");
    // Written only when it changed: the script also runs again on every commit
    // (for the version), and an unchanged file need not be compiled again.
    let path = out.join("tables.rs");
    if fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
        fs::write(&path, source).expect("write OUT_DIR/tables.rs");
    }
    commit();

    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "x86_64" {
        cc::Build::new()
            .file("asm/x86_64/bits.S")
            .compile("brokkr_bits");
        println!("cargo:rustc-cfg=brokkr_extern_asm");
    }
    println!("cargo:rustc-check-cfg=cfg(brokkr_extern_asm)");
}

/// Set `BROKKR_COMMIT` to the short hash of the commit being built, or to
/// nothing without git (a source tarball, or no git installed), and ask to run
/// again when HEAD moves: `.git/HEAD` changes on a checkout, the branch's ref
/// file (or `packed-refs`) on a commit.
fn commit() {
    let git = |args: &[&str]| -> Option<String> {
        let o = Command::new("git").args(args).output().ok()?;
        let s = String::from_utf8(o.stdout).ok()?;
        (o.status.success() && !s.trim().is_empty()).then(|| s.trim().to_string())
    };
    let hash = git(&["rev-parse", "--short=7", "HEAD"]).unwrap_or_default();
    println!("cargo:rustc-env=BROKKR_COMMIT={hash}");
    // In a worktree `.git` is a file: ask git where HEAD and the refs live.
    let dir = git(&["rev-parse", "--git-dir"]).map(PathBuf::from);
    let common = git(&["rev-parse", "--git-common-dir"]).map(PathBuf::from);
    let head_ref = git(&["symbolic-ref", "-q", "HEAD"]);
    let mut watch: Vec<PathBuf> = Vec::new();
    if let Some(d) = &dir {
        watch.push(d.join("HEAD"));
    }
    if let Some(c) = common.as_ref().or(dir.as_ref()) {
        if let Some(r) = &head_ref {
            watch.push(c.join(r));
        }
        watch.push(c.join("packed-refs"));
    }
    // A path that does not exist would make cargo run the script every build.
    for p in watch.iter().filter(|p| Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}
