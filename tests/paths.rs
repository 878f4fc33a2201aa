//! `brokkr paths` and the config file it writes.
//!
//! No test here compares speeds measured on this machine, where other tests
//! run at the same time: the decision `paths` makes from its measurements is
//! tested on timings given to it (`measure::compare_timers`), and the one run
//! of the real measurement checks only what it writes and reports.

mod common;

use brokkr::attacks::SliderKind;
use brokkr::bits::BitPath;
use brokkr::config::parse_config;
use brokkr::measure::{compare_timers, Comparison, MAX_PAIRS, MIN_PAIRS};
use common::{command, cpu, stderr, stdout, TempDir};

#[test]
fn config_parser_reads_values_and_reports_problems() {
    let cpu = cpu();
    let (bits, slider, warnings) = parse_config("# c\nbits = table\n\nslider = magic\n", cpu);
    assert_eq!(
        (bits, slider),
        (Some(BitPath::Table), Some(SliderKind::Magic))
    );
    assert!(warnings.is_empty());
    let (bits, slider, warnings) = parse_config("bits = fast\nslider\ncolour = blue\n", cpu);
    assert_eq!((bits, slider), (None, None));
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0].contains("unknown bit path 'fast'"));
    assert!(warnings[1].contains("expected 'key = value'"));
    assert!(warnings[2].contains("unknown key 'colour'"));
}

#[test]
fn paths_measures_saves_and_the_engine_reads_the_pick() {
    let dir = TempDir::new("paths");
    let config = dir.join("nested").join("paths.conf");
    // The child's own environment points it at this test's file.
    let run = |args: &[&str]| {
        command()
            .args(args)
            .env("BROKKR_CONFIG", &config)
            .output()
            .expect("run brokkr")
    };
    let o = run(&["paths", "--json", "--save"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json = stdout(&o);
    for key in [
        "\"cpu\"",
        "\"bits\"",
        "\"perft\"",
        "\"pick\"",
        "\"fastest\"",
        "\"lsb_ns\"",
        "\"nps\"",
    ] {
        assert!(json.contains(key), "{key} missing from {json}");
    }
    let saved = std::fs::read_to_string(&config).expect("--save writes the config file");
    // Each pick says how sure it is; a pick that is not clear of the noise is
    // left out, so the CPU default stands.
    let err = stderr(&o);
    for what in ["bits", "slider"] {
        let note = saved
            .lines()
            .find(|l| l.starts_with(&format!("# {what}: ")))
            .unwrap_or_else(|| panic!("no note on {what} in {saved}"));
        assert!(err.contains(&note[2..]), "{note} not reported: {err}");
        let kept = note.contains("keeping");
        let has_key = saved.lines().any(|l| l.starts_with(&format!("{what} = ")));
        assert_eq!(kept, !has_key, "{saved}");
        assert!(
            kept || note.contains("95% interval"),
            "a saved pick gives its interval: {note}"
        );
    }

    // The engine reads the file: force a path we can recognise.
    std::fs::write(&config, "bits = table\nslider = magic\n").unwrap();
    let o = run(&["perft", "2"]);
    assert!(stdout(&o).contains("(bits table, slider magic)"));
    // A flag beats the file; a bad file is reported and ignored.
    let o = run(&["perft", "2", "--bits", "portable"]);
    assert!(stdout(&o).contains("bits portable"));
    std::fs::write(&config, "bits = warp\n").unwrap();
    let o = run(&["perft", "2"]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("unknown bit path 'warp'"));
}

#[test]
fn paths_rejects_bad_arguments() {
    let o = common::brokkr(&["paths", "--fast"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unknown option --fast"));
}

#[test]
fn median_interval_ranks_cover_95_percent() {
    use brokkr::measure::median_interval_ranks;
    // Too few runs for 95%: the whole range.
    assert_eq!(median_interval_ranks(5), (0, 4));
    assert_eq!(median_interval_ranks(7), (0, 6));
    // P(Bin(9, 1/2) <= 1) = 1.95% <= 2.5% < P(<= 2) = 9%.
    assert_eq!(median_interval_ranks(9), (1, 7));
    // P(Bin(21, 1/2) <= 5) = 1.3% <= 2.5% < P(<= 6) = 3.9%.
    assert_eq!(median_interval_ranks(21), (5, 15));
}

/// Seconds per pass for a pair whose true time is `base`, with a made-up noise
/// of up to `noise` (a fraction) that differs from call to call, as a loaded
/// machine's would.
fn timer(base: f64, noise: f64, seed: u64) -> impl FnMut(u32) -> f64 {
    let mut rng = common::Rng::new(seed);
    move |_passes| {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        base * (1.0 + noise * (2.0 * u - 1.0))
    }
}

fn compare_made_up(candidate: f64, default: f64, noise: f64) -> Comparison {
    let mut calls = 0;
    let c = compare_timers(timer(candidate, noise, 1), timer(default, noise, 2), |n| {
        calls += 1;
        assert_eq!(n, calls, "progress counts the pairs");
    });
    assert_eq!(c.pairs, calls, "{c:?}");
    assert!(c.low <= c.gain && c.gain <= c.high, "{c:?}");
    c
}

#[test]
fn a_much_slower_pair_is_never_saved() {
    // A third of the default's speed (Kernighan's loop out of line with ray
    // walking measured so), through 30% noise either way.
    let c = compare_made_up(3.0, 1.0, 0.3);
    assert_eq!(c.pairs, MIN_PAIRS, "decided as soon as allowed: {c:?}");
    assert!(!c.clearly_faster(), "{c:?}");
    assert!(c.high < 0.0 && c.gain < -0.5, "{c:?}");
}

#[test]
fn a_clearly_faster_pair_is_saved_and_noise_is_not() {
    // 20% faster through 5% noise: decided at once.
    let c = compare_made_up(1.0, 1.2, 0.05);
    assert_eq!(c.pairs, MIN_PAIRS, "{c:?}");
    assert!(c.clearly_faster() && c.low > 0.0, "{c:?}");
    // The same speed through 10% noise: never decided, never saved.
    let c = compare_made_up(1.0, 1.0, 0.1);
    assert_eq!(c.pairs, MAX_PAIRS, "{c:?}");
    assert!(!c.clearly_faster(), "{c:?}");
    assert!(c.low < 0.0 && c.high > 0.0, "{c:?}");
}

#[test]
fn save_replaces_the_file_and_leaves_undecided_picks_to_the_cpu() {
    let dir = TempDir::new("save");
    let config = dir.join("paths.conf");
    std::fs::write(&config, "bits = portable\n").unwrap();
    let path = brokkr::config::save_to(
        config.clone(),
        None,
        Some(SliderKind::Magic),
        &["bits: within noise"],
    )
    .unwrap();
    assert_eq!(path, config);
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("# bits: within noise\n"), "{text}");
    assert!(!text.contains("bits ="), "the old override is gone: {text}");
    let (bits, slider, warnings) = parse_config(&text, cpu());
    assert_eq!((bits, slider), (None, Some(SliderKind::Magic)));
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["paths.conf"], "no temporary file is left");
}
