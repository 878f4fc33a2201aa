//! Forges every lookup table as static Rust source in `OUT_DIR`, and assembles the
//! out-of-line bitscan functions in `asm/`. Std only, apart from `cc` for the assembly.

#[path = "codegen/mod.rs"]
mod codegen;

use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=codegen");
    println!("cargo:rerun-if-changed=asm");
    println!("cargo:rerun-if-changed=build.rs");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let tables = codegen::all_tables();
    let source = codegen::emit::rust_module(&tables, "brokkr's build.rs from codegen/");
    fs::write(out.join("tables.rs"), source).expect("write OUT_DIR/tables.rs");

    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch == "x86_64" {
        cc::Build::new()
            .file("asm/x86_64/bits.S")
            .compile("brokkr_bits");
        println!("cargo:rustc-cfg=brokkr_extern_asm");
    }
    println!("cargo:rustc-check-cfg=cfg(brokkr_extern_asm)");
}
