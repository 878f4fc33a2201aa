//! Start-up: brokkr answers `uci` having done no more than a program that does
//! nothing else (the null stub, `examples/uci_stub.rs`, built here with the
//! same `rustc`): no table built, no file read.
//!
//! The check counts what the process did, not how long it took, so it holds on
//! a loaded machine: at `uciok`, the kernel's count of the process's minor page
//! faults (every page first written, as a table filled at start-up would be)
//! and of the bytes it read (`rchar`: a net, a book or a table read from disk
//! would show) must stay within a small margin of the stub's. Measured when
//! written: brokkr 120 faults and 8,910 bytes, the stub 71 and 7,457; filling
//! the magic attack tables alone (800 KB) would add some 200 faults.
//!
//! The time from spawn to `uciok` against the stub is printed as a figure
//! (`tests/python/startup.py --ratio`), never asserted: a timing depends on
//! what else the machine runs.

mod common;

use common::{python, run_ok, run_with_limit, skipped, tell, TempDir, BIN};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The stub, compiled from `examples/uci_stub.rs` into `dir` as the release
/// profile builds (optimised, aborting on panic).
fn build_stub(dir: &TempDir) -> std::path::PathBuf {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/uci_stub.rs");
    let exe = dir.join("uci_stub");
    run_ok(
        Command::new(&rustc)
            .args([
                "--edition",
                "2021",
                "-C",
                "opt-level=3",
                "-C",
                "panic=abort",
            ])
            .arg("-o")
            .arg(&exe)
            .arg(src),
    );
    exe
}

/// What `exe` had done when it answered `uciok`: its minor page faults and
/// the bytes it had read (Linux's `/proc`).
fn work_until_uciok(exe: &std::path::Path) -> (u64, u64) {
    let mut child = Command::new(exe)
        .env("BROKKR_CONFIG", common::test_config())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "uci").unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while line.trim() != "uciok" {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "no uciok");
    }
    let pid = child.id();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's closing parenthesis; minflt is the 10th
    // field of the line, the 8th of these.
    let after = stat.rsplit_once(')').unwrap().1;
    let faults: u64 = after.split_whitespace().nth(7).unwrap().parse().unwrap();
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).unwrap();
    let read: u64 = io
        .lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .unwrap()
        .parse()
        .unwrap();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let _ = child.wait();
    (faults, read)
}

#[test]
fn startup_builds_nothing_and_reads_nothing() {
    if !std::path::Path::new("/proc/self/io").exists() {
        return tell("startup: no /proc/PID/io on this system; the start-up check did NOT run");
    }
    let dir = TempDir::new("startup-work");
    let stub = build_stub(&dir);
    // The fewest of three runs each: a count can only be raised by chance
    // (a page the loader happened to touch), never lowered.
    let least = |exe: &std::path::Path| {
        (0..3)
            .map(|_| work_until_uciok(exe))
            .fold((u64::MAX, u64::MAX), |(f, r), (f2, r2)| {
                (f.min(f2), r.min(r2))
            })
    };
    let (faults, read) = least(std::path::Path::new(BIN));
    let (stub_faults, stub_read) = least(&stub);
    tell(&format!(
        "startup: at uciok brokkr {faults} page faults and {read} bytes read, the stub \
         {stub_faults} and {stub_read}"
    ));
    assert!(
        faults <= stub_faults + 120,
        "brokkr wrote {faults} pages before uciok, the stub {stub_faults}: is a table \
         being built at start-up?"
    );
    assert!(
        read <= stub_read + 16 * 1024,
        "brokkr read {read} bytes before uciok, the stub {stub_read}: is a file being \
         loaded at start-up?"
    );
}

#[test]
fn startup_time_against_the_null_stub_is_reported() {
    let py = python();
    if Command::new(&py).arg("--version").output().is_err() {
        return skipped(&format!(
            "startup: cannot run '{py}'; the start-up figure was NOT measured"
        ));
    }
    let dir = TempDir::new("startup");
    let stub = build_stub(&dir);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/startup.py");
    let mut cmd = Command::new(&py);
    cmd.args([script, BIN])
        .arg(&stub)
        .args(["--runs", "21", "--ratio"])
        .env("BROKKR_CONFIG", common::test_config());
    let _measuring = common::timing_lock();
    let (status, output) = run_with_limit(&mut cmd, Duration::from_secs(300));
    println!("{output}");
    let line = output.lines().find(|l| l.starts_with("start-up ratio:"));
    if let Some(line) = line {
        tell(&format!("startup: {line}"));
    }
    assert!(
        status.is_some_and(|s| s.success()) && line.is_some(),
        "the start-up measurement did not run:\n{output}"
    );
}
