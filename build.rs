//! Forges every lookup table as static Rust source in `OUT_DIR`, assembles the
//! out-of-line bitscan functions in `asm/`, and records the git commit for
//! `--version`. Std only, apart from `cc` for the assembly.

#[path = "codegen/mod.rs"]
mod codegen;
// The net file format, read here to embed the default net: std only, like codegen.
#[path = "src/nnue/file.rs"]
#[allow(dead_code)] // the library uses the rest (widening, writing)
mod net_file;

use std::path::{Path, PathBuf};
use std::{env, fs, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-changed=src/nnue/file.rs");
    println!("cargo:rerun-if-changed=asm");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=nets");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let tables = codegen::all_tables();
    let source = codegen::emit::rust_module(&tables, "brokkr's build.rs from codegen/");
    // Written only when it changed: the script also runs again on every commit
    // (for the version), and an unchanged file need not be compiled again.
    let path = out.join("tables.rs");
    if fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
        fs::write(&path, source).expect("write OUT_DIR/tables.rs");
    }
    embed_net(&out);
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
/// again when HEAD moves: `.git/HEAD` changes on a checkout, a file in the
/// branch's ref directory (or `packed-refs`) on a commit.
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
        // The branch's directory, not its ref file: a ref packed into
        // `packed-refs` has no file until the next commit writes one, and a
        // path that is missing at build time would never be watched.
        if let Some(branch_dir) = head_ref
            .as_ref()
            .and_then(|r| c.join(r).parent().map(Path::to_path_buf))
        {
            watch.push(branch_dir);
        }
        watch.push(c.join("packed-refs"));
    }
    // A path that does not exist would make cargo run the script every build.
    for p in watch.iter().filter(|p| Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={}", p.display());
    }
}

/// Embed the net that `nets/DEFAULT` names (one line: the file's name in `nets/`
/// and its FNV-1a hash in hex) as static arrays in `OUT_DIR/net.rs`. The hash is
/// checked twice: the file's own header against its contents, and the header
/// against the hash `DEFAULT` records, so a damaged or swapped file stops the
/// build instead of shipping. Without `nets/DEFAULT` the binary has no net and
/// plays with the hand-written evaluation.
///
/// `BROKKR_EVALFILE` (the Makefile's `EVALFILE`, which OpenBench passes when a
/// test names a net) embeds that file instead, checked against its own header.
fn embed_net(out: &Path) {
    println!("cargo:rerun-if-env-changed=BROKKR_EVALFILE");
    let chosen = env::var("BROKKR_EVALFILE")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let default = match &chosen {
        Some(file) => {
            let path = PathBuf::from(file.trim());
            println!("cargo:rerun-if-changed={}", path.display());
            let bytes =
                fs::read(&path).unwrap_or_else(|e| panic!("EVALFILE {}: {e}", path.display()));
            let net = net_file::NetFile::parse(&bytes)
                .unwrap_or_else(|e| panic!("EVALFILE {}: {e}", path.display()));
            let name = path
                .file_name()
                .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
            Ok(format!("{name} {:016x}", net.hash()))
        }
        None => fs::read_to_string("nets/DEFAULT"),
    };
    let dir = chosen.as_ref().map_or_else(
        || PathBuf::from("nets"),
        |f| {
            PathBuf::from(f.trim())
                .parent()
                .map_or_else(PathBuf::new, Path::to_path_buf)
        },
    );
    let source = match default {
        Err(_) => "pub const PRESENT: bool = false;\n\
                   pub const NAME: &str = \"\";\n\
                   pub const HIDDEN: usize = 32;\n\
                   pub const BUCKETS: usize = 1;\n\
                   pub const KING_BUCKETS: usize = 1;\n\
                   pub const KING_MIRRORED: bool = false;\n\
                   pub const KING_TABLE: [u8; 32] = [0; 32];\n\
                   pub const SCALE: i32 = 400;\n\
                   pub const HASH: u64 = 0;\n\
                   pub static FT_WEIGHTS: Aligned<[i16; 0]> = Aligned([]);\n\
                   pub static FT_BIAS: Aligned<[i16; 0]> = Aligned([]);\n\
                   pub static OUT_WEIGHTS: Aligned<[i16; 0]> = Aligned([]);\n\
                   pub static OUT_BIAS: Aligned<[i32; 0]> = Aligned([]);\n\
                   pub static PSQT: Aligned<[i32; 0]> = Aligned([]);\n"
            .to_string(),
        Ok(line) => {
            let mut words = line.split_whitespace();
            let (Some(name), Some(hash)) = (words.next(), words.next()) else {
                panic!("nets/DEFAULT: expected '<file> <fnv-1a hash in hex>', found {line:?}");
            };
            let path = dir.join(name);
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let net = net_file::NetFile::parse(&bytes)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let actual = format!("{:016x}", net.hash());
            assert!(
                actual == hash.to_ascii_lowercase(),
                "{}: hash {actual}, but nets/DEFAULT records {hash}",
                path.display()
            );
            format!(
                "pub const PRESENT: bool = true;\npub const NAME: &str = {name:?};\n{}",
                net.rust_source(&path.display().to_string())
            )
        }
    };
    let path = out.join("net.rs");
    if fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
        fs::write(&path, source).expect("write OUT_DIR/net.rs");
    }
}
