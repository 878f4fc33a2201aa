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
    assert!(
        saved.contains("bits = ") && saved.contains("slider = "),
        "{saved}"
    );

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
