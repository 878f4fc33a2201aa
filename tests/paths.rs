//! `brokkr paths` and the config file it writes.

use brokkr::attacks::SliderKind;
use brokkr::bits::{BitPath, Cpu};
use brokkr::config::parse_config;
use std::process::Command;

#[test]
fn config_parser_reads_values_and_reports_problems() {
    let cpu = Cpu::detect();
    let (bits, slider, warnings) = parse_config("# c\nbits = table\n\nslider = magic\n", &cpu);
    assert_eq!(
        (bits, slider),
        (Some(BitPath::Table), Some(SliderKind::Magic))
    );
    assert!(warnings.is_empty());
    let (bits, slider, warnings) = parse_config("bits = fast\nslider\ncolour = blue\n", &cpu);
    assert_eq!((bits, slider), (None, None));
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0].contains("unknown bit path 'fast'"));
    assert!(warnings[1].contains("expected 'key = value'"));
    assert!(warnings[2].contains("unknown key 'colour'"));
}

#[test]
fn paths_measures_saves_and_the_engine_reads_the_pick() {
    let dir = std::env::temp_dir().join(format!("brokkr-paths-{}", std::process::id()));
    let config = dir.join("nested").join("paths.conf");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_brokkr"))
            .args(args)
            .env("BROKKR_CONFIG", &config)
            .output()
            .expect("run brokkr")
    };
    let o = run(&["paths", "--json", "--save"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = String::from_utf8_lossy(&o.stdout);
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
    let err = String::from_utf8_lossy(&o.stderr);
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
    assert!(String::from_utf8_lossy(&o.stdout).contains("(bits table, slider magic)"));
    // A flag beats the file; a bad file is reported and ignored.
    let o = run(&["perft", "2", "--bits", "portable"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("bits portable"));
    std::fs::write(&config, "bits = warp\n").unwrap();
    let o = run(&["perft", "2"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown bit path 'warp'"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn paths_rejects_bad_arguments() {
    let o = Command::new(env!("CARGO_BIN_EXE_brokkr"))
        .args(["paths", "--fast"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown option --fast"));
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

#[test]
fn a_much_slower_pair_is_never_saved() {
    use brokkr::measure::{compare, MIN_PAIRS};
    let cpu = Cpu::detect();
    let defaults = (
        BitPath::default_for(&cpu).0,
        SliderKind::default_for(&cpu).0,
    );
    // Kernighan's loop out of line with ray walking: about a third of the speed.
    let c = compare((BitPath::Portable, SliderKind::RayLoop), defaults, |_| {});
    assert!(c.pairs >= MIN_PAIRS, "{c:?}");
    assert!(!c.clearly_faster(), "{c:?}");
    assert!(c.gain < 0.0 && c.low <= c.gain && c.gain <= c.high, "{c:?}");
}

#[test]
fn save_replaces_the_file_and_leaves_undecided_picks_to_the_cpu() {
    let dir = std::env::temp_dir().join(format!("brokkr-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("paths.conf");
    std::fs::write(&config, "bits = portable\n").unwrap();
    // Only this test reads BROKKR_CONFIG inside this process.
    std::env::set_var("BROKKR_CONFIG", &config);
    let path =
        brokkr::config::save(None, Some(SliderKind::Magic), &["bits: within noise"]).unwrap();
    assert_eq!(path, config);
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("# bits: within noise\n"), "{text}");
    assert!(!text.contains("bits ="), "the old override is gone: {text}");
    let (bits, slider, warnings) = parse_config(&text, &Cpu::detect());
    assert_eq!((bits, slider), (None, Some(SliderKind::Magic)));
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["paths.conf"], "no temporary file is left");
    let _ = std::fs::remove_dir_all(&dir);
}
