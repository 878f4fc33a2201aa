//! brokkr driven by a real client: python-chess plays, analyses, configures and
//! plays Chess960 over UCI and over xboard (tests/python/client.py).
//!
//! The games that check legality run at a fixed amount of work a move; the game
//! on a clock (1s+0.01s) reports how low the clocks went and never fails on
//! them, since python-chess's own work and a loaded machine are on those clocks
//! too (the gate for time management is the TimeBudget unit tests).
//!
//! python-chess comes from PyPI (`pip install chess==1.11.2`; `.ci/run` installs
//! it). Without it this test says so loudly and fails when `CI` is set or
//! `BROKKR_REQUIRE_PYTHON_CHESS=1`, so CI cannot pass by skipping it; elsewhere
//! it passes with the warning, so a fresh `cargo test --release` works without pip.

mod common;

use common::{python, run_with_limit, skipped, tell, BIN};
use std::process::Command;
use std::time::Duration;

/// The python-chess release the script is written and checked against.
const PYTHON_CHESS: &str = "1.11.2";
/// A run takes well under a minute when all is well; the limit only ends a hang.
const LIMIT: Duration = Duration::from_secs(600);

/// A missing or wrong python-chess: fail if required, else warn and pass.
fn missing(why: &str) {
    skipped(&format!(
        "python_client: {why}\n\
         The python-chess client test did NOT run. Install it with\n    \
         pip install chess=={PYTHON_CHESS}\n\
         (CI installs it in .ci/run; with CI or BROKKR_REQUIRE_PYTHON_CHESS=1 set this is a failure.)"
    ));
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
            common::stderr(&out).trim()
        ));
    }
    Ok(common::stdout(&out).trim().to_string())
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
    // The engine reads the tests' config, not the user's.
    let mut cmd = Command::new(&py);
    cmd.arg(script)
        .arg(BIN)
        .env("BROKKR_CONFIG", common::test_config());
    let (status, output) = run_with_limit(&mut cmd, LIMIT);
    println!("{output}");
    // The clock games' figures, seen even when the test passes.
    let reports: Vec<&str> = output
        .lines()
        .filter(|l| l.starts_with("REPORT: "))
        .collect();
    for r in reports {
        tell(&format!("python_client: {r}"));
    }
    assert!(
        status.is_some_and(|s| s.success()),
        "the python-chess client failed:\n{output}"
    );
    assert!(
        output.contains("passed, 0 failed"),
        "the client exited 0 without its summary:\n{output}"
    );
}

/// python-chess sends brokkr random positions that its `Board.is_valid()`
/// accepts (extra promoted pieces among them) and positions with castling
/// rights and en-passant squares they do not have, over UCI and xboard; every
/// move brokkr answers must be legal there (python-chess raises otherwise).
/// 60 positions here; `tests/python/random_positions.py --count 200` is the
/// figure docs/uci.md quotes.
#[test]
fn python_chess_plays_brokkr_from_random_valid_positions() {
    let py = python();
    if let Err(e) = python_chess_version(&py) {
        return missing(&e);
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/random_positions.py"
    );
    let mut cmd = Command::new(&py);
    cmd.args([script, BIN, "--count", "60", "--seed", "7"])
        .env("BROKKR_CONFIG", common::test_config());
    let (status, output) = run_with_limit(&mut cmd, LIMIT);
    println!("{output}");
    assert!(
        status.is_some_and(|s| s.success()) && output.contains("60 passed, 0 failed"),
        "python-chess found a move that is not legal in the position it sent:\n{output}"
    );
}
