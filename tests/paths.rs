//! `brokkr paths` and the config file it writes.
//!
//! No test here compares speeds measured on this machine, where other tests
//! run at the same time: the rounds and the verdicts `paths` draws from them are
//! tested on made-up samplers (`measure::run_rounds`), and the one run of the real
//! measurement checks only what it writes and reports.

mod common;

use brokkr::attacks::SliderKind;
use brokkr::bits::BitPath;
use brokkr::measure::{
    run_rounds, verdict_of, Estimate, Rounds, Sampler, Settings, Verdict, MAX_ROUNDS, MIN_ROUNDS,
};
use brokkr::paths::parse_config;
use common::{command, cpu, stderr, stdout, TempDir};
use std::cell::{Cell, RefCell};
use std::time::Duration;

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
fn paths_measures_draws_saves_and_the_engine_reads_the_pick() {
    let dir = TempDir::new("paths");
    let config = dir.join("nested").join("paths.conf");
    let picture = dir.join("paths.svg");
    // The child's own environment points it at this test's file.
    let run = |args: &[&str]| {
        command()
            .args(args)
            .env("BROKKR_CONFIG", &config)
            .output()
            .expect("run brokkr")
    };
    let svg_arg = picture.to_str().unwrap();
    let o = run(&["paths", "--json", "--save", "--time", "2", "--svg", svg_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json = stdout(&o);
    for key in [
        "\"schema\":\"brokkr-paths\",\"version\":2",
        "\"cpu\"",
        "\"run\"",
        "\"rows\"",
        "\"pick\"",
        "\"fastest\"",
        "\"save\"",
    ] {
        assert!(json.contains(key), "{key} missing from {json}");
    }
    // Three processes by default, their rounds pooled.
    assert!(json.contains("\"processes\":3"), "{json}");
    // Every table is there, each with exactly one pick (per operation).
    let rows: Vec<&str> = json.split("{\"table\":").skip(1).collect();
    for table in ["bitscan", "perft", "search", "network"] {
        let of: Vec<&&str> = rows
            .iter()
            .filter(|r| r.starts_with(&format!("\"{table}\"")))
            .collect();
        assert!(!of.is_empty(), "no {table} rows in {json}");
        let picks = of.iter().filter(|r| r.contains("\"pick\":true")).count();
        let per_op = match table {
            "bitscan" => 3,
            "network" => 2,
            _ => 1,
        };
        assert_eq!(picks, per_op, "{table}: {of:?}");
    }
    // One bar per row, in a picture an XML reader takes.
    let svg = std::fs::read_to_string(&picture).expect("--svg writes the file");
    check_xml(&svg);
    assert_eq!(svg.matches("class=\"bar\"").count(), rows.len(), "{svg}");
    assert!(svg.contains("brokkr paths on "), "the CPU names the chart");

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
            note.contains("95% interval")
                || note.contains("has it")
                || note.contains("not measured"),
            "a pick gives its interval: {note}"
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
    for (args, message) in [
        (
            &["paths", "--time", "0.1"][..],
            "bad value for --time '0.1'",
        ),
        (&["paths", "--time", "ten"], "bad value for --time 'ten'"),
        (&["paths", "--target", "0"], "bad value for --target '0'"),
        (
            &["paths", "--target", "NaN"],
            "bad value for --target 'NaN'",
        ),
        (&["paths", "--svg"], "--svg"),
        (&["paths", "extra"], "unexpected argument 'extra'"),
    ] {
        let o = common::brokkr(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
    // A picture that cannot be written is an error, not a panic, and says where.
    let o = common::brokkr(&["paths", "--time", "0.5", "--svg", "/nonexistent/dir/p.svg"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write /nonexistent/dir/p.svg"),
        "{}",
        stderr(&o)
    );
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

/// A made-up sampler: rate `base` times a noise of up to `noise` either way
/// (a fraction) that differs from call to call, as a loaded machine's would,
/// times `drift(call)` (the machine's speed, shared by every sampler).
fn sampler<'a>(
    base: f64,
    noise: f64,
    seed: u64,
    clock: &'a Cell<u64>,
    drift: &'a dyn Fn(u64) -> f64,
) -> Sampler<'a> {
    let mut rng = common::Rng::new(seed);
    Box::new(move |_round| {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        clock.set(clock.get() + 1);
        base * (1.0 + noise * (2.0 * u - 1.0)) * drift(clock.get())
    })
}

/// Row 0 (the reference) and row 1 at the given rates and noise; the verdict on
/// row 1 and the rounds.
fn rank(
    candidate: f64,
    reference: f64,
    noise: f64,
    drift: &dyn Fn(u64) -> f64,
) -> (Verdict, Rounds) {
    let clock = Cell::new(0);
    let mut samplers = vec![
        sampler(reference, noise, 1, &clock, drift),
        sampler(candidate, noise, 2, &clock, drift),
    ];
    let settings = Settings {
        budget: Duration::from_secs(600),
        target: 0.02,
    };
    let rounds = run_rounds(&mut samplers, &[0, 0], &settings, |_, _| {});
    let ratios: Vec<f64> = rounds.rates[1]
        .iter()
        .zip(&rounds.rates[0])
        .map(|(c, r)| c / r)
        .collect();
    let e = Estimate::of(&ratios);
    assert!(e.low <= e.median && e.median <= e.high, "{e:?}");
    (verdict_of(&e, settings.target), rounds)
}

#[test]
fn clear_rows_are_ranked_and_equal_rows_never_are() {
    let steady = |_| 1.0;
    // A third of the reference's speed, or 20% faster, through 1% noise: decided
    // and within the target as soon as allowed.
    for (speed, verdict) in [(1.0 / 3.0, Verdict::Slower), (1.2, Verdict::Faster)] {
        let (v, rounds) = rank(speed, 1.0, 0.01, &steady);
        assert_eq!((v, rounds.rates[1].len()), (verdict, MIN_ROUNDS), "{speed}");
        assert!(rounds.converged);
    }
    // A third of the speed through 30% noise: slower, though the interval never
    // comes within the target, so the run goes on to its cap.
    let (v, rounds) = rank(1.0 / 3.0, 1.0, 0.3, &steady);
    assert_eq!(v, Verdict::Slower);
    assert_eq!(
        (rounds.rates[1].len(), rounds.converged),
        (MAX_ROUNDS, false)
    );
    // The same speed through 10% noise: measured on until the interval is within
    // the target, and then the same, never ranked.
    let (v, rounds) = rank(1.0, 1.0, 0.1, &steady);
    assert!(
        rounds.rates[1].len() > 10 * MIN_ROUNDS,
        "{}",
        rounds.rates[1].len()
    );
    assert!(matches!(v, Verdict::Same | Verdict::Wide), "{v:?}");
    // Through 60% noise the target is out of reach: the run stops at the cap and
    // the row is too noisy to rank.
    let (v, rounds) = rank(1.0, 1.0, 0.6, &steady);
    assert_eq!(
        (v, rounds.rates[1].len(), rounds.converged),
        (Verdict::Wide, MAX_ROUNDS, false)
    );
}

#[test]
fn interleaved_rounds_cancel_a_machine_that_slows_down() {
    // The machine loses a third of its speed over the run. Measured one row
    // after the other, the second would look slower; interleaved, the two equal
    // rows stay equal.
    let drift = |call: u64| 1.0 - (call as f64 / 2000.0).min(1.0) / 3.0;
    let (v, rounds) = rank(1.0, 1.0, 0.0, &drift);
    assert!(
        matches!(v, Verdict::Same),
        "{v:?} after {:?}",
        rounds.rates[1].len()
    );
}

#[test]
fn rounds_rotate_the_order_and_keep_the_warm_up_out() {
    let order = RefCell::new(Vec::new());
    let mut samplers: Vec<Sampler> = (0..3)
        .map(|i| {
            let order = &order;
            Box::new(move |round: usize| {
                order.borrow_mut().push((round, i));
                1.0 + i as f64
            }) as Sampler
        })
        .collect();
    let rounds = run_rounds(&mut samplers, &[0, 0, 0], &Settings::default(), |_, _| {});
    // Equal ratios every round: done after the fewest rounds allowed.
    assert!(rounds.converged);
    assert!(rounds.rates.iter().all(|r| r.len() == MIN_ROUNDS));
    assert_eq!(rounds.rates[2], vec![3.0; MIN_ROUNDS]);
    drop(samplers);
    let order = order.into_inner();
    assert_eq!(
        order.len(),
        3 * (MIN_ROUNDS + 1),
        "the warm-up round ran too"
    );
    let mut firsts = Vec::new();
    for round in order.chunks(3) {
        let mut rows: Vec<usize> = round.iter().map(|&(_, i)| i).collect();
        firsts.push(rows[0]);
        assert!(round.iter().all(|&(r, _)| r == round[0].0), "{round:?}");
        rows.sort();
        assert_eq!(rows, [0, 1, 2], "every row once a round: {order:?}");
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(
        firsts.len(),
        3,
        "each row goes first in some round: {order:?}"
    );
}

#[test]
fn rounds_of_several_processes_pool_by_row_and_a_foreign_plan_is_refused() {
    use brokkr::measure::{plan_rows, pool, Raw};
    let cpu = cpu().clone();
    let rows = plan_rows(&cpu);
    let n = rows.len();
    let name = |i: usize| format!("{}/{}", rows[i].table.name(), rows[i].label);
    // Two processes: every row at 2.0, but the last row at 1.0 in the first
    // and 3.0 in the second (as if the layout of memory differed).
    let raw = |k: usize, rounds: usize| -> String {
        let mut text = format!("brokkr-paths-raw 1\n{rounds} 1.5 1000 {}\n", k as i64 - 1);
        for i in 0..n {
            let v = if i == n - 1 {
                1.0 + 2.0 * k as f64
            } else {
                2.0
            };
            let rates = vec![v.to_string(); rounds].join(" ");
            text.push_str(&format!("{}\t{rates}\n", name(i)));
        }
        text
    };
    let runs: Vec<Raw> = [(0, 6), (1, 7)]
        .iter()
        .map(|&(k, r)| Raw::parse(&raw(k, r)).unwrap())
        .collect();
    assert_eq!(runs[0].pinned, Err("not pinned in a child".to_string()));
    assert_eq!(runs[1].pinned, Ok(0));
    let report = pool(cpu.clone(), rows.clone(), &runs, &Settings::default(), 3.0).unwrap();
    assert_eq!((report.rounds, report.processes), (13, 2));
    assert!(report.rows.iter().all(|r| r.rates.len() == 13));
    let last = &report.rows[n - 1];
    assert_eq!(last.rates[..6], [1.0; 6]);
    assert_eq!(last.rates[6..], [3.0; 7]);
    // A report's raw text reads back as it was written.
    let again = Raw::parse(&report.raw()).unwrap();
    assert_eq!(again.rows.len(), n);
    assert_eq!(again.rows[n - 1].1, last.rates);
    // Another plan (a row renamed, or one fewer) is refused with a message.
    let renamed = raw(0, 6).replacen(&name(0), "perft/nonsense", 1);
    let e = pool(
        cpu.clone(),
        rows.clone(),
        &[Raw::parse(&renamed).unwrap()],
        &Settings::default(),
        1.0,
    )
    .unwrap_err();
    assert!(e.contains("'perft/nonsense'"), "{e}");
    let short: String = raw(0, 6)
        .lines()
        .take(n + 1)
        .map(|l| format!("{l}\n"))
        .collect();
    let e = pool(
        cpu,
        rows,
        &[Raw::parse(&short).unwrap()],
        &Settings::default(),
        1.0,
    )
    .unwrap_err();
    assert!(e.contains("rows where this one plans"), "{e}");
    assert!(Raw::parse("hello").is_err());
    assert!(Raw::parse("brokkr-paths-raw 1\nx y z w\n").is_err());
}

/// A small check that `text` is well-formed XML: tags nest and close, attribute
/// values are quoted, and `&` starts an entity.
fn check_xml(text: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        let before = &rest[..open];
        for (k, _) in before.match_indices('&') {
            let entity = &before[k..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bare & in {before:?}"
            );
        }
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.trim()),
                "mismatched </{name}>"
            );
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        assert!(!name.is_empty(), "empty tag <{tag}>");
        // Attributes: name="value" pairs, nothing else.
        let attrs = tag[name.len()..].trim_end_matches('/').trim();
        let mut a = attrs;
        while !a.is_empty() {
            let eq = a
                .find("=\"")
                .unwrap_or_else(|| panic!("unquoted attribute in <{tag}>"));
            assert!(
                !a[..eq].trim().contains(' '),
                "bad attribute name in <{tag}>"
            );
            let end = a[eq + 2..].find('"').expect("unterminated value") + eq + 2;
            a = a[end + 1..].trim_start();
        }
        if !tag.ends_with('/') {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
}

#[test]
fn save_replaces_the_file_and_leaves_undecided_picks_to_the_cpu() {
    let dir = TempDir::new("save");
    let config = dir.join("paths.conf");
    std::fs::write(&config, "bits = portable\n").unwrap();
    let path = brokkr::paths::save_to(
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
