//! The evaluation: colour symmetry of every term, the pawn hash, the endgame rules,
//! and `brokkr eval`'s output and bad input.

use brokkr::attacks::Magic;
use brokkr::bits::Portable;
use brokkr::eval::{evaluate, evaluate_white, NoTrace, PawnTable, Term, Terms};
mod common;
mod symmetry;

use common::{brokkr, s, stderr, stdout, TempDir};
use symmetry::{mirror_fen, random_games_are_symmetric, random_positions, symmetric, B};

#[test]
fn mirror_fen_mirrors() {
    assert_eq!(
        mirror_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 3"),
        "r3k2r/8/8/8/3Pp3/8/8/R3K2R b Qk d3 0 3"
    );
}

#[test]
fn every_term_is_colour_symmetric() {
    random_games_are_symmetric::<false>();
}

#[test]
fn symmetric_on_the_tuning_sample() {
    let text = std::fs::read_to_string("tests/data/tuning-sample.txt").unwrap();
    for line in text.lines() {
        let fen = line.split('|').next().unwrap().trim();
        let b = B::from_fen(fen).unwrap();
        let m = B::from_fen(&mirror_fen(fen)).unwrap();
        if let Err(e) = symmetric(&b, &m, Terms::DEFAULT) {
            panic!("{fen}: {e}");
        }
    }
}

#[test]
fn pawn_hash_matches_a_fresh_computation() {
    // One small table shared by many positions: probes hit, miss and overwrite.
    let mut table = PawnTable::new();
    for seed in 0..40u8 {
        let choices: Vec<u8> = (0..160u32)
            .map(|i| (i as u8).wrapping_mul(seed | 1).wrapping_add(seed))
            .collect();
        for b in random_positions(seed as usize, &choices) {
            let fresh =
                evaluate_white::<Portable, Magic, _>(&b, None, Terms::DEFAULT, &mut NoTrace);
            let hashed = evaluate_white::<Portable, Magic, _>(
                &b,
                Some(&mut table),
                Terms::DEFAULT,
                &mut NoTrace,
            );
            assert_eq!(fresh, hashed, "{}", b.to_fen());
            // The table's second answer (a hit) is the same too.
            let again = evaluate_white::<Portable, Magic, _>(
                &b,
                Some(&mut table),
                Terms::DEFAULT,
                &mut NoTrace,
            );
            assert_eq!(fresh, again, "{}", b.to_fen());
        }
    }
    table.clear();
}

/// The side to move's value is White's, signed, with the pawn table or without.
#[test]
fn evaluate_is_whites_value_from_the_side_to_move() {
    let mut table = PawnTable::new();
    for seed in 0..24u8 {
        let choices: Vec<u8> = (0..160u32)
            .map(|i| (i as u8).wrapping_mul(seed | 3).wrapping_add(seed))
            .collect();
        for b in random_positions(seed as usize, &choices) {
            let stm = evaluate::<Portable, Magic>(&b, &mut table, Terms::DEFAULT);
            let white =
                evaluate_white::<Portable, Magic, _>(&b, None, Terms::DEFAULT, &mut NoTrace);
            let sign = if b.side_to_move() == brokkr::types::Color::White {
                1
            } else {
                -1
            };
            assert_eq!(stm, sign * white.value, "{}", b.to_fen());
        }
    }
}

/// The value from White's side of `fen`.
fn white(fen: &str) -> i32 {
    let b = B::from_fen(fen).unwrap();
    evaluate_white::<Portable, Magic, _>(&b, None, Terms::DEFAULT, &mut NoTrace).value
}

#[test]
fn kbnk_drives_to_the_bishops_corner() {
    // A light-squared bishop (f1) mates only in a light corner (h1, a8).
    let right = white("8/8/8/8/8/4K3/2N5/5B1k b - - 0 1");
    let wrong = white("8/8/8/8/8/3K4/5N2/k4B2 b - - 0 1");
    let centre = white("8/8/8/3k4/8/3NK3/8/5B2 b - - 0 1");
    assert!(wrong > 1500, "KBNK is a win: {wrong}");
    // The wrong corner is the farthest place from both right ones.
    assert!(
        right > centre && centre > wrong,
        "h1 {right}, a1 {wrong}, centre {centre}"
    );
    // And from Black's side, the same.
    assert_eq!(white("8/8/8/8/8/4k3/2n5/5b1K w - - 0 1"), -right);
}

#[test]
fn eval_prints_the_table_and_the_final_lines() {
    let fen = "r3kb1r/pp3p1p/2q1pQ2/6p1/4P3/2N5/PP3PPP/R1B1K2R b KQkq - 0 5";
    let o = brokkr(&["eval", "--fen", fen, "--hce"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    let value = |line: &str, prefix: &str| -> i32 {
        line.strip_prefix(prefix)
            .and_then(|s| s.strip_suffix(" cp"))
            .unwrap_or_else(|| panic!("{prefix} in {out}"))
            .parse()
            .unwrap()
    };
    let white = value(lines[n - 2], "Hand-written (white): ");
    let stm = value(lines[n - 1], "Hand-written (side to move): ");
    // Black to move: the two totals are opposite, and they are the search's value.
    assert_eq!(stm, -white);
    // With --hce the evaluation in use, which leads, is that total.
    assert_eq!(value(lines[0], "Evaluation (white): "), white);
    assert_eq!(value(lines[1], "Evaluation (side to move): "), stm);
    // Then the chances the model gives that value, summing to 1000.
    let wdl: Vec<u32> = lines[2]
        .strip_prefix("Evaluation (win/draw/loss): ")
        .and_then(|s| s.strip_suffix(" (per mille, side to move)"))
        .unwrap_or_else(|| panic!("{out}"))
        .split(' ')
        .map(|w| w.parse().unwrap())
        .collect();
    let b = B::from_fen(fen).unwrap();
    assert_eq!(
        wdl,
        brokkr::win_rate::wdl(brokkr::search::Score::Cp(stm), &b).to_vec()
    );
    assert_eq!(wdl.iter().sum::<u32>(), 1000);
    assert_eq!(
        stm,
        evaluate::<Portable, Magic>(&b, &mut PawnTable::new(), Terms::DEFAULT)
    );
    for term in Term::ALL {
        assert!(
            out.lines().any(|l| l.starts_with(term.name())),
            "{} missing:\n{out}",
            term.name()
        );
    }
    assert!(out.contains("Phase: ") && out.contains("Scale: "), "{out}");
    // Every path and backend gives the same table and the same net score. The
    // `Network:` line names the vector path, which may differ: the pairs outside
    // the default set are built with SSE2 only.
    let without_path = |text: &str| -> String {
        text.lines()
            .map(|l| match l.find(" on the ") {
                Some(i) if l.starts_with("Network:") => &l[..i],
                _ => l,
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (bits, slider) in [
        ("portable", "rotated"),
        ("table", "kindergarten"),
        ("asm", "rayloop"),
    ] {
        let o = brokkr(&[
            "eval", "--fen", fen, "--hce", "--bits", bits, "--slider", slider,
        ]);
        let got = String::from_utf8(o.stdout).unwrap();
        assert_eq!(without_path(&got), without_path(&out), "{bits} {slider}");
    }
}

#[test]
fn eval_off_switches_term_groups_off() {
    let fen = "r3kb1r/pp3p1p/2q1pQ2/6p1/4P3/2N5/PP3PPP/R1B1K2R b KQkq - 0 5";
    let all = String::from_utf8(brokkr(&["eval", "--fen", fen]).stdout).unwrap();
    let o = brokkr(&["eval", "--fen", fen, "--off", "king,threats,tempo,pawns"]);
    assert!(o.status.success());
    let off = String::from_utf8(o.stdout).unwrap();
    let row = |out: &str, name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_string()
    };
    let zero = |r: String| {
        r.split('|')
            .skip(1)
            .all(|c| c.split_whitespace().all(|v| v == "0"))
    };
    // Tempo and development are off by default (neither measured to pay), so
    // they are zero either way; --on brings them back.
    for name in ["Tempo", "Development"] {
        assert!(zero(row(&all, name)), "{all}");
        assert!(zero(row(&off, name)), "{off}");
    }
    let o = brokkr(&["eval", "--fen", fen, "--on", "tempo,development"]);
    assert!(o.status.success());
    let on = String::from_utf8(o.stdout).unwrap();
    for name in ["Tempo", "Development"] {
        assert!(!zero(row(&on, name)), "{name} stayed zero with --on:\n{on}");
    }
    assert_eq!(row(&all, "Mobility"), row(&on, "Mobility"));
    for name in ["King safety", "Threats", "Pawn structure"] {
        assert_ne!(row(&all, name), row(&off, name), "{name} was zero anyway");
        assert!(zero(row(&off, name)), "{off}");
    }
    assert_eq!(row(&all, "Mobility"), row(&off, "Mobility"));
    assert_ne!(all.lines().last(), off.lines().last());
    // The endgame switch takes the rules and the scale factors with it.
    let kbnk = "8/8/8/3k4/8/3NK3/8/5B2 b - - 0 1";
    let on = String::from_utf8(brokkr(&["eval", "--fen", kbnk]).stdout).unwrap();
    let off =
        String::from_utf8(brokkr(&["eval", "--fen", kbnk, "--off", "endgame"]).stdout).unwrap();
    assert!(
        on.contains("Special endgame rule") && !off.contains("Special endgame rule"),
        "{off}"
    );
}

#[test]
fn eval_rejects_bad_input() {
    for args in [
        &["eval", "--fen", "not a fen"][..],
        &[
            "eval",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        ],
        &["eval", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["eval", "--fen"],
        &["eval", "--bogus"],
        &["eval", "extra"],
        &["eval", "--slider", "nope"],
        &["eval", "--off", "material"],
        &["eval", "--off", "king,nonsense"],
        &["eval", "--on", "development,nonsense"],
        &["eval", "--on"],
    ] {
        let o = brokkr(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with("brokkr: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// The full evaluation record of `fen`, from White's side.
fn full(fen: &str) -> brokkr::eval::Evaluation {
    let b = B::from_fen(fen).unwrap();
    evaluate_white::<Portable, Magic, _>(&b, None, Terms::DEFAULT, &mut NoTrace)
}

#[test]
fn kpk_by_rule() {
    // The king on a key square (e6 for a pawn on e4) wins whoever moves.
    let key = full("8/2k5/4K3/8/4P3/8/8/8 w - - 0 1");
    assert!(key.special && key.value > 500, "{key:?}");
    assert!(full("8/2k5/4K3/8/4P3/8/8/8 b - - 0 1").value > 500);
    // The pawn outruns the king (rule of the square), even a rook pawn.
    assert!(full("7k/8/8/8/P7/8/8/K7 w - - 0 1").value > 500);
    // A rook pawn with the defending king in the corner: a draw.
    assert_eq!(full("1k6/8/K7/P7/8/8/8/8 w - - 0 1").value, 0);
    // The pawn falls: a draw.
    assert_eq!(full("8/8/8/8/8/3k4/4P3/6K1 b - - 0 1").value, 0);
    // Black's pawn: the mirror.
    assert!(full("8/8/8/4p3/8/4k3/2K5/8 b - - 0 1").value < -500);
}

#[test]
fn opposite_bishops_scale_toward_a_draw() {
    // A pawn up with bishops of opposite colours (c3 dark, d5 light) ...
    let ocb = full("4k3/6p1/8/3b4/8/2B2P2/6P1/6K1 w - - 0 1");
    // ... and with bishops of the same colour (d6 dark).
    let same = full("4k3/6p1/3b4/8/8/2B2P2/6P1/6K1 w - - 0 1");
    assert_eq!(same.scale, 64, "{same:?}");
    assert!(ocb.scale < 32, "{ocb:?}");
    assert!(ocb.value.abs() < same.value.abs(), "{ocb:?} {same:?}");
}

#[test]
fn insufficient_material_is_a_draw() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
        "8/2b5/4k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    ] {
        assert_eq!(full(fen).value, 0, "{fen}");
    }
    // Two knights cannot force mate: the endgame part is scaled to nothing.
    let nn = full("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1");
    assert_eq!(nn.scale, 0, "{nn:?}");
}

#[test]
fn krkp_by_rule() {
    // The rook's king in front of the pawn: a win.
    let won = full("8/8/8/8/4k3/4p3/8/R3K3 w - - 0 1");
    assert!(won.special && won.value > 300, "{won:?}");
    // The pawn on the 7th with its king beside it, the rook's king far away.
    let drawish = full("K7/8/8/8/8/8/2kp4/7R w - - 0 1");
    assert!(drawish.special && drawish.value < 100, "{drawish:?}");
}

/// The train and held-out losses printed per epoch.
fn losses(out: &str) -> Vec<(f64, Option<f64>)> {
    out.lines()
        .filter(|l| l.starts_with("epoch "))
        .map(|l| {
            let num = |key: &str| {
                l.split(key)
                    .nth(1)
                    .and_then(|r| r.split(',').next())
                    .and_then(|v| v.trim().parse::<f64>().ok())
            };
            (num("train ").unwrap(), num("held-out "))
        })
        .collect()
}

/// `brokkr tune` on the sample in tests/data, writing `out`, with `extra`.
fn tune_args<'a>(out: &'a std::path::Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "tune",
        "--data",
        "tests/data/tuning-sample.txt",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn tune_on_a_small_sample_lowers_the_loss_and_writes_weights() {
    let dir = TempDir::new("tune");
    let out = dir.join("weights.rs");
    let o = brokkr(&tune_args(
        &out,
        &["--epochs", "8", "--batch", "64", "--validation", "0.4"],
    ));
    let stdout = stdout(&o);
    assert!(o.status.success(), "{stdout}{}", stderr(&o));
    let l = losses(&stdout);
    assert_eq!(l.len(), 9, "{stdout}");
    assert!(l[8].0 < l[0].0 * 0.9, "train loss did not fall:\n{stdout}");
    assert!(l[0].1.is_some(), "no held-out positions:\n{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("generated by `brokkr tune --data tests/data/tuning-sample.txt"),
        "{text}"
    );
    assert!(text.contains("— do not edit"));
    let (w, missing) = brokkr::eval::tune::parse_weights(&text).unwrap();
    assert!(missing.is_empty(), "{missing:?}");
    assert_eq!(w.len(), brokkr::eval::params::COUNT);
    // The file is what the writer makes of those weights (so it is complete).
    let header_end = text.find("\n\n").unwrap();
    let again = brokkr::eval::tune::weights_source(&w, "x");
    assert_eq!(&again[again.find("\n\n").unwrap()..], &text[header_end..]);
}

/// The tuner is deterministic: the same command twice writes the same weights
/// and prints the same losses (its shuffling has a seed, and its threads'
/// sums are added in a fixed order).
#[test]
fn tune_twice_gives_the_same_weights() {
    let dir = TempDir::new("tune-twice");
    let out = dir.join("weights.rs");
    let args = tune_args(
        &out,
        &[
            "--epochs",
            "4",
            "--batch",
            "32",
            "--validation",
            "0.2",
            "--threads",
            "2",
        ],
    );
    let run = || {
        let _ = std::fs::remove_file(&out);
        let o = brokkr(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let losses = losses(&stdout(&o));
        assert_eq!(losses.len(), 5, "{}", stdout(&o));
        (std::fs::read(&out).unwrap(), losses)
    };
    let (first, first_losses) = run();
    let (second, second_losses) = run();
    assert_eq!(first_losses, second_losses, "the losses differ");
    assert!(first == second, "two runs wrote different weights");
    // And the weights moved: the run tuned something.
    let (w, _) = brokkr::eval::tune::parse_weights(&String::from_utf8(first).unwrap()).unwrap();
    assert_ne!(w, brokkr::eval::tune::current_weights());
}

#[test]
fn the_committed_weights_are_as_the_tuner_writes_them() {
    let text = std::fs::read_to_string("src/eval/weights.rs").unwrap();
    assert!(
        text.contains("generated by `brokkr tune"),
        "weights.rs has no tuner header"
    );
    let (w, missing) = brokkr::eval::tune::parse_weights(&text).unwrap();
    assert!(missing.is_empty(), "{missing:?}");
    assert_eq!(w, brokkr::eval::tune::current_weights());
    let again = brokkr::eval::tune::weights_source(&w, "x");
    let body = |s: &str| s[s.find("\n\n").unwrap()..].to_string();
    assert_eq!(body(&again), body(&text), "weights.rs was edited by hand");
}

#[test]
fn tune_rejects_bad_lines_with_their_number() {
    let dir = TempDir::new("tune-bad");
    let good = std::fs::read_to_string("tests/data/tuning-sample.txt").unwrap();
    let first: Vec<&str> = good.lines().take(2).collect();
    let fen = first[0].split('|').next().unwrap().trim();
    for (bad, what) in [
        (format!("{fen} | 12"), "field"),
        ("8/8/8 w - - 0 1 | 12 | 1.0".to_string(), "bad FEN"),
        (format!("{fen} | lots | 1.0"), "bad score"),
        (format!("{fen} | 12 | 2.0"), "bad result"),
        (format!("{fen} | 12 | 1.0 | extra"), "field"),
    ] {
        let data = dir.file("bad.txt", format!("{}\n{}\n{bad}\n", first[0], first[1]));
        let o = brokkr(&["tune", "--data", s(&data), "--out", "/nonexistent/w.rs"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("bad.txt:3: ") && err.contains(what),
            "{bad}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    for args in [
        &["tune"][..],
        &["tune", "--data", "/nonexistent/data.txt", "--out", "x.rs"],
        &[
            "tune",
            "--data",
            "tests/data/tuning-sample.txt",
            "--out",
            "x.rs",
            "--lambda",
            "2",
        ],
        &[
            "tune",
            "--data",
            "tests/data/tuning-sample.txt",
            "--out",
            "x.rs",
            "--epochs",
            "-1",
        ],
        &[
            "tune",
            "--data",
            "tests/data/tuning-sample.txt",
            "--out",
            "x.rs",
            "--start",
            "Cargo.toml",
        ],
    ] {
        let o = brokkr(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("brokkr: ") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}
