//! The `brokkr` command line: output formats, exit codes and bad input.

use std::process::{Command, Output};

fn brokkr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_brokkr"))
        .args(args)
        .output()
        .expect("run brokkr")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("brokkr-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn perft_prints_nodes_then_time() {
    let o = brokkr(&["perft", "4"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Nodes searched: 197281");
    assert!(lines[1].contains("nodes/s"), "{out}");
    // Depth 0 counts the root itself, with or without --divide.
    for board in ["main", "qbb"] {
        let o = brokkr(&["perft", "0", "--divide", "--board", board]);
        assert!(
            stdout(&o).starts_with("Nodes searched: 1\n"),
            "{board}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn perft_divide_lists_root_moves() {
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = brokkr(&["perft", "2", "--fen", kiwi, "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let is_move_line = |l: &&str| {
        l.split_once(": ").is_some_and(|(m, n)| {
            (4..=5).contains(&m.len())
                && m.chars().all(|c| c.is_ascii_alphanumeric())
                && n.parse::<u64>().is_ok()
        })
    };
    let moves: Vec<&str> = out.lines().filter(is_move_line).collect();
    assert_eq!(moves.len(), 48);
    assert!(out.contains("e1g1: 43"), "{out}");
    let sum: u64 = moves
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 2039);
    assert!(out.contains("Nodes searched: 2039"));
}

#[test]
fn perft_every_bit_path_and_slider_gives_the_same_count() {
    for bits in ["asm", "bmi", "table", "portable", "extern", "extern-bmi"] {
        let o = brokkr(&["perft", "3", "--bits", bits]);
        if !o.status.success() {
            // Only a CPU without the instructions may refuse, and it must say so.
            assert!(
                stderr(&o).contains("not available"),
                "{bits}: {}",
                stderr(&o)
            );
            continue;
        }
        assert!(stdout(&o).starts_with("Nodes searched: 8902"), "{bits}");
    }
}

#[test]
fn perft_epd_suite_reports_and_fails_on_mismatch() {
    let good = temp_file(
        "good.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D5 4865609\n",
    );
    let o = brokkr(&[
        "perft",
        "--epd",
        good.to_str().unwrap(),
        "--max-nodes",
        "1000",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().last(),
        Some("perft suite: 1 positions, 2 counts checked, 0 mismatches")
    );

    let bad = temp_file("bad.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n");
    let o = brokkr(&["perft", "--epd", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("4k3/8/8/8/8/8/8/4K2R w K - 0 1 depth 2: expected 67, got 66"),
        "{out}"
    );
    assert!(
        out.ends_with("perft suite: 1 positions, 2 counts checked, 1 mismatches\n"),
        "{out}"
    );

    let unparsable = temp_file("unparsable.epd", "8/8/8/8 w - - ;D1 1\n");
    let o = brokkr(&["perft", "--epd", unparsable.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stdout(&o).contains("bad FEN"), "{}", stdout(&o));
}

#[test]
fn bad_input_gets_a_message_and_a_nonzero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft"], "needs a DEPTH"),
        (&["perft", "x"], "bad depth 'x'"),
        (&["perft", "99"], "bad depth '99'"),
        (&["perft", "-1"], "bad depth '-1'"),
        (&["perft", "3", "--fen", "nonsense"], "bad FEN"),
        (&["perft", "3", "--fen"], "needs a value"),
        (&["perft", "3", "--bits", "fast"], "unknown bit path 'fast'"),
        (
            &["perft", "3", "--slider", "nope"],
            "unknown slider backend 'nope'",
        ),
        (
            &["perft", "3", "--frobnicate"],
            "unknown option --frobnicate",
        ),
        (&["perft", "--epd", "/nonexistent/file.epd"], "cannot read"),
        (
            &["perft", "--epd", "x", "--max-nodes", "lots"],
            "bad value for --max-nodes",
        ),
        (&["perft", "3", "4"], "unexpected arguments"),
        (&["frobnicate"], "unknown command"),
    ];
    for (args, msg) in cases {
        let o = brokkr(args);
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(
            stderr(&o).contains(msg),
            "{args:?}: stderr '{}' lacks '{msg}'",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{args:?} panicked");
    }
}
