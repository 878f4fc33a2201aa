//! brokkr driven by a real client: python-chess plays, analyses, configures and
//! plays Chess960 over UCI and over xboard (tests/python/client.py).
//!
//! python-chess comes from PyPI (`pip install chess==1.11.2`; `.ci/run` installs
//! it). Without it this test says so loudly and fails when `CI` is set or
//! `BROKKR_REQUIRE_PYTHON_CHESS=1`, so CI cannot pass by skipping it; elsewhere
//! it passes with the warning, so a fresh `cargo test --release` works without pip.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The python-chess release the script is written and checked against.
const PYTHON_CHESS: &str = "1.11.2";
/// Two games per protocol at 1s+0.01s plus analysis: well under a minute when
/// all is well; the limit only catches a hang.
const LIMIT: Duration = Duration::from_secs(600);

/// Whether a missing python-chess must fail the test.
fn required() -> bool {
    let set = |name: &str| {
        std::env::var(name)
            .map(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
            .unwrap_or(false)
    };
    set("CI") || set("BROKKR_REQUIRE_PYTHON_CHESS")
}

/// Written straight to the process's stderr, past the test harness's capture,
/// so a skipped check is seen even when the test passes.
fn shout(msg: &str) {
    let bar = "!".repeat(78);
    let _ = writeln!(std::io::stderr(), "\n{bar}\n{msg}\n{bar}\n");
}

/// A missing or wrong python-chess: fail if required, else warn and pass.
fn missing(why: &str) {
    let msg = format!(
        "python_client: {why}\n\
         The python-chess client test did NOT run. Install it with\n    \
         pip install chess=={PYTHON_CHESS}\n\
         (CI installs it in .ci/run; with CI or BROKKR_REQUIRE_PYTHON_CHESS=1 set this is a failure.)"
    );
    shout(&msg);
    assert!(!required(), "{msg}");
}

/// The Python interpreter: `$BROKKR_PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("BROKKR_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// python-chess's version, or why it cannot be imported.
fn python_chess_version(py: &str) -> Result<String, String> {
    let out = Command::new(py)
        .args(["-c", "import chess; print(chess.__version__)"])
        .output()
        .map_err(|e| format!("cannot run '{py}': {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "'{py}' cannot import chess (python-chess is missing): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Run `cmd` to the end or until `limit`, returning its exit success and its
/// output (stdout then stderr).
fn run_with_limit(cmd: &mut Command, limit: Duration) -> (bool, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start the python-chess client");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    // Read both pipes on their own threads so a chatty child never blocks.
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("cannot wait for the client") {
            break Some(st);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = format!("{}{}", out.join().unwrap(), err.join().unwrap());
    match status {
        Some(st) => (st.success(), text),
        None => (false, format!("{text}\n(killed after {limit:?}: a hang)")),
    }
}

#[test]
fn python_chess_drives_brokkr_over_uci_and_xboard() {
    let py = python();
    let version = match python_chess_version(&py) {
        Ok(v) => v,
        Err(e) => return missing(&e),
    };
    if version != PYTHON_CHESS {
        missing(&format!(
            "python-chess {version} is installed; the client is checked against {PYTHON_CHESS}"
        ));
        // Not required: try the script anyway, it may well work.
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/client.py");
    let engine = env!("CARGO_BIN_EXE_brokkr");
    let (ok, output) = run_with_limit(Command::new(&py).arg(script).arg(engine), LIMIT);
    println!("{output}");
    assert!(ok, "the python-chess client failed:\n{output}");
    assert!(
        output.contains("passed, 0 failed"),
        "the client exited 0 without its summary:\n{output}"
    );
}
