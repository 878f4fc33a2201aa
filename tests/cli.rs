//! The `brokkr` command line: output formats, exit codes and bad input.

mod common;

use common::{brokkr, command, s, stderr, stdout, TempDir};

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
    // Every name the CLI knows, available on this CPU or not.
    let bit_paths = ["asm", "bmi", "table", "portable", "extern", "extern-bmi"];
    let sliders = [
        "magic",
        "pext",
        "rotated",
        "kindergarten",
        "rayloop",
        "kogge-stone",
    ];
    let (mut ran, mut fell_back) = (0, 0);
    for board in ["main", "qbb"] {
        for bits in bit_paths {
            for slider in sliders {
                let o = brokkr(&[
                    "perft", "3", "--bits", bits, "--slider", slider, "--board", board,
                ]);
                let err = stderr(&o);
                if !o.status.success() {
                    // Only a CPU without the instructions, or a backend the
                    // qbb board is not built for, may refuse, and it must say so.
                    assert!(
                        err.contains("not available")
                            || (board == "qbb" && err.contains("built for")),
                        "{board} {bits} {slider}: {err}"
                    );
                    continue;
                }
                let out = stdout(&o);
                assert!(
                    out.starts_with("Nodes searched: 8902\n"),
                    "{board} {bits} {slider}: {out}"
                );
                // The pair that ran is the pair asked for when perft is built
                // for it; else the backend asked for, on a built bit path, and
                // stderr says so.
                let asked = (bits.parse().unwrap(), slider.parse().unwrap());
                if brokkr::paths::PERFT_BUILT.contains(&asked) {
                    assert!(
                        out.contains(&format!("(bits {bits}, slider {slider})")),
                        "{board} {bits} {slider}: {out}"
                    );
                    assert!(err.is_empty(), "{board} {bits} {slider}: {err}");
                } else {
                    assert!(
                        out.contains(&format!("slider {slider})")),
                        "{board} {bits} {slider}: {out}"
                    );
                    assert!(
                        err.contains("perft is not built for")
                            && err.contains(&format!("slider={slider}")),
                        "{board} {bits} {slider}: {err}"
                    );
                    fell_back += 1;
                }
                ran += 1;
            }
        }
    }
    // table, portable and extern with magic, rotated, kindergarten and rayloop
    // run on any x86-64 CPU, and table and extern with rotated fall back.
    assert!(ran >= 12, "only {ran} pairs ran");
    assert!(fell_back >= 4, "only {fell_back} pairs fell back");
}

#[test]
fn perft_epd_suite_reports_and_fails_on_mismatch() {
    let dir = TempDir::new("cli");
    let good = dir.file(
        "good.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D5 4865609\n",
    );
    let o = brokkr(&["perft", "--epd", s(&good), "--max-nodes", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().last(),
        Some("perft suite: 1 positions, 2 counts checked, 0 mismatches")
    );

    let bad = dir.file("bad.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n");
    let o = brokkr(&["perft", "--epd", s(&bad)]);
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

    let unparsable = dir.file("unparsable.epd", "8/8/8/8 w - - ;D1 1\n");
    let o = brokkr(&["perft", "--epd", s(&unparsable)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(":1: bad FEN '8/8/8/8 w - -'"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("8/8/8/8"), "{}", stdout(&o));
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
            "bad value for --max-nodes: 'lots' is not a whole number",
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

#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("no /dev/full here: skipped");
        return;
    }
    // `paths` measures for a few seconds before it writes; it is the only way
    // to reach its JSON writer.
    for args in [
        &["perft", "3"][..],
        &["perft", "2", "--divide"],
        &["tables", "--list"],
        &["paths", "--json", "--time", "0.5"],
        &["--version"],
        &["help", "perft"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = command().args(args).stdout(full).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with("brokkr: cannot write output: "),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
    // A full stderr is no reason to panic either: the exit code still tells.
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [&["perft", "--epd", "/dev/zero"][..], &["perft", "x"]] {
        let status = command()
            .args(args)
            .stdout(full())
            .stderr(full())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn suite_lines_are_reported_short_escaped_and_on_stderr() {
    let dir = TempDir::new("cli");
    let long_bad = format!("\x1b[2J{}", "Q".repeat(5000));
    let file = dir.file(
        "escape.epd",
        format!(
            "8/8/8/8/8/8/8/K6k w - - ;D1 3\n{long_bad} w - - ;D1 1\n8/8/8/8/8/8/8/K6k w - - ;D1 3\n"
        ),
    );
    let o = brokkr(&["perft", "--epd", s(&file)]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(!stdout(&o).contains("QQQ"), "{}", stdout(&o));
    assert!(!err.contains('\x1b'), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("bad FEN"))
        .expect("reported");
    assert!(line.contains(":2: bad FEN '\\x1b[2JQQQ"), "{line}");
    assert!(line.contains("…'"), "{line}");
    assert!(line.len() < 400, "{} bytes", line.len());
    // The good positions were still checked.
    assert!(stdout(&o).ends_with("perft suite: 2 positions, 2 counts checked, 0 mismatches\n"));
}

/// A suite of two good positions around a line of `long` bytes; returns its path.
fn suite_with_a_long_line(dir: &TempDir, name: &str, long: usize) -> std::path::PathBuf {
    use std::io::Write;
    let path = dir.join(name);
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(f, "8/8/8/8/8/8/8/K6k w - - ;D1 3").unwrap();
    let chunk = vec![b'p'; 1 << 20];
    for _ in 0..long >> 20 {
        f.write_all(&chunk).unwrap();
    }
    f.write_all(&chunk[..long & ((1 << 20) - 1)]).unwrap();
    writeln!(f).unwrap();
    writeln!(f, "8/8/8/8/8/8/8/K6k w - - ;D2 9").unwrap();
    path
}

#[test]
fn a_huge_line_is_skipped_with_bounded_memory() {
    let dir = TempDir::new("cli");
    // 32 MiB on one line, between two good positions.
    let huge = suite_with_a_long_line(&dir, "huge.epd", 32 << 20);
    let (o, peak) = run_measured(&["perft", "--epd", s(&huge)]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("huge.epd:2: line of 33554432 bytes is longer than 65536: skipped"),
        "{err}"
    );
    assert!(err.len() < 1000, "{} bytes of stderr", err.len());
    assert!(
        stdout(&o).len() < 1000,
        "{} bytes of stdout",
        stdout(&o).len()
    );
    assert!(
        stdout(&o).ends_with("perft suite: 2 positions, 2 counts checked, 0 mismatches\n"),
        "{}",
        stdout(&o)
    );
    // The memory: no more than a run whose long line is just over the limit,
    // give or take 8 MiB, where holding the line would take 32 (kernel figures
    // for each child, in KiB; none on other systems).
    let short = suite_with_a_long_line(&dir, "short.epd", 70_000);
    let (o, base) = run_measured(&["perft", "--epd", s(&short)]);
    assert!(stderr(&o).contains("line of 70000 bytes"), "{}", stderr(&o));
    if let (Some(peak), Some(base)) = (peak, base) {
        assert!(
            peak < base + 8 * 1024,
            "peak memory {peak} KiB with the huge line, {base} KiB without"
        );
    }
}

/// `brokkr ARGS` run to the end, with its peak memory in KiB where the kernel
/// tells it (Linux).
fn run_measured(args: &[&str]) -> (std::process::Output, Option<u64>) {
    #[cfg(target_os = "linux")]
    {
        let (o, peak) = common::output_and_peak_memory(command().args(args));
        (o, Some(peak))
    }
    #[cfg(not(target_os = "linux"))]
    {
        (brokkr(args), None)
    }
}

#[test]
fn binary_empty_and_unchecked_suites_fail() {
    let dir = TempDir::new("cli");
    if std::path::Path::new("/dev/zero").exists() {
        let o = brokkr(&["perft", "--epd", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("/dev/zero:1: NUL byte"),
            "{}",
            stderr(&o)
        );
    }
    for (name, text) in [("empty.epd", ""), ("comments.epd", "# nothing\n\n")] {
        let file = dir.file(name, text);
        let o = brokkr(&["perft", "--epd", s(&file)]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            stderr(&o).contains("no positions: an empty suite checks nothing"),
            "{name}: {}",
            stderr(&o)
        );
    }
    let file = dir.file("big.epd", "8/8/8/8/8/8/8/K6k w - - ;D3 100\n");
    let o = brokkr(&["perft", "--epd", s(&file), "--max-nodes", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing was checked"), "{}", stderr(&o));
}

#[test]
fn a_byte_order_mark_starts_a_suite_harmlessly() {
    let dir = TempDir::new("cli");
    let file = dir.file("bom.epd", "\u{feff}8/8/8/8/8/8/8/K6k w - - ;D1 3\n");
    let o = brokkr(&["perft", "--epd", s(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("perft suite: 1 positions, 1 counts checked, 0 mismatches\n"));
}

#[test]
fn every_command_has_help() {
    let usage = stdout(&brokkr(&["help"]));
    let commands: Vec<&str> = usage
        .lines()
        .skip_while(|l| *l != "commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase()))
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() >= 3, "{usage}");
    for cmd in commands {
        let want = format!("usage: brokkr {cmd}");
        for args in [
            vec![cmd, "-h"],
            vec![cmd, "--help"],
            vec!["help", cmd],
            vec!["HELP", &cmd.to_uppercase()],
        ] {
            let o = brokkr(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).starts_with(&want), "{args:?}: {}", stdout(&o));
        }
        // Every flag's line is indented as a list item: a help text joined
        // from pieces (`EVAL_HELP`) once lost its first line's indentation.
        let help = stdout(&brokkr(&["help", cmd]));
        for line in help.lines().filter(|l| l.trim_start().starts_with("--")) {
            // (Deeper indentation is a description's continuation.)
            let indent = line.len() - line.trim_start().len();
            assert!(indent == 2 || indent > 4, "{cmd}: {line:?}");
        }
    }
    for args in [&["-h"][..], &["--help"], &["help", "--help"]] {
        let o = brokkr(args);
        assert!(
            stdout(&o).starts_with("usage: brokkr [COMMAND]"),
            "{args:?}"
        );
    }
    let o = brokkr(&["help", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no command 'nope'"));
}

#[test]
fn version_comes_from_the_package() {
    for flag in ["--version", "-V"] {
        let o = brokkr(&[flag]);
        assert!(o.status.success());
        // `brokkr 0.1.0`, with ` (commit 4f248e1)` when built from a git checkout.
        let out = stdout(&o);
        let version = format!("brokkr {}", env!("CARGO_PKG_VERSION"));
        let commit = out.trim_end().strip_prefix(&version).unwrap_or("?");
        assert!(
            commit.is_empty()
                || commit
                    .strip_prefix(" (commit ")
                    .and_then(|c| c.strip_suffix(')'))
                    .is_some_and(|c| c.len() >= 7 && c.bytes().all(|b| b.is_ascii_hexdigit())),
            "{out}"
        );
    }
}

#[test]
fn names_are_matched_without_regard_to_case() {
    let dir = TempDir::new("cli");
    let o = brokkr(&[
        "PERFT", "3", "--bits", "PORTABLE", "--slider", "Magic", "--board", "QBB",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Nodes searched: 8902\n"));
    assert!(stdout(&o).contains("(bits portable, slider magic)"));
    let o = brokkr(&["Tables", "--list", "--only", "knight_attacks"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("case-export");
    let o = brokkr(&[
        "tables",
        "--lang",
        "RUST",
        "--out",
        s(&out),
        "--only",
        "BETWEEN",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn numbers_and_options_get_clear_messages() {
    let dir = TempDir::new("cli");
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--epd", "x", "--max-nodes", "-1"],
            "bad value for --max-nodes: '-1' is negative",
        ),
        (
            &["perft", "--epd", "x", "--max-nodes", "99999999999999999999"],
            "'99999999999999999999' is too large (at most 18446744073709551615)",
        ),
        (
            &["perft", "3", "--max-nodes", "10"],
            "--max-nodes limits an --epd suite",
        ),
        (
            &[
                "perft",
                "3",
                "--fen",
                "8/8/8/8/8/8/8/K6k w - -",
                "--fen",
                "x",
            ],
            "option --fen is given more than once",
        ),
        (
            &["perft", "3", "--divide", "--divide"],
            "option --divide is given more than once",
        ),
        (
            &["perft", "3", "--divide=yes"],
            "option --divide takes no value",
        ),
        (
            &["tables", "--list", "--list"],
            "option --list is given more than once",
        ),
        (
            &["paths", "--json", "--json"],
            "option --json is given more than once",
        ),
        (
            &["perft", "3", "--board", "qbb", "--slider", "rotated"],
            "the qbb board is built for the magic, pext, kindergarten and kogge-stone backends only",
        ),
        (
            &["perft", "3", "--board", "square"],
            "unknown board 'square'",
        ),
    ];
    for (args, msg) in cases {
        let o = brokkr(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(msg), "{args:?}: {}", stderr(&o));
    }
    // An overflowing count in a suite blames the count, not the depth.
    let file = dir.file(
        "overflow.epd",
        "8/8/8/8/8/8/8/K6k w - - ;D1 99999999999999999999\n",
    );
    let o = brokkr(&["perft", "--epd", s(&file)]);
    assert!(
        stderr(&o).contains(":1: bad count at depth 1: '99999999999999999999' is too large"),
        "{}",
        stderr(&o)
    );
}
