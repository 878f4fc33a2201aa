//! The README, checked against the binary it describes.
//!
//! - Every command line of the README's ```sh blocks that runs brokkr (`brokkr
//!   ...`, `target/release/brokkr ...`, `cargo run --release [-- ...]`) runs as
//!   written, from the repository's root, and exits 0 with some output. A line
//!   whose trailing comment says `long` or names `../shared` (the development
//!   machine's data, not in a clone) is only checked to parse: its command's
//!   `--help` succeeds and lists every `--flag` the line gives. A line that reads
//!   `tests/data` must say `# needs tests/data`, and an unmarked line must end
//!   within a time limit, so nothing slow or missing is skipped silently.
//! - The brokkr part of other programs' command lines (`xboard -fcp "/path/to/
//!   brokkr xboard"`, `args="uci --switches"`) names a real subcommand, and an
//!   engine command there starts the engine.
//! - The options table lists every option the engine answers `uci` with, with
//!   its type, default and range, and nothing else; the commands table lists
//!   every command of `brokkr help`; the xboard option count in the README is
//!   the number of `feature option=` lines brokkr sends; the Rust version is
//!   `Cargo.toml`'s `rust-version`.
//! - The relative links and their anchors in the README and in `docs/` resolve.

mod common;

use common::{brokkr_ok, command, run_with_input};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// The repository's root: the commands run from here, as the README says.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).expect("read README.md")
}

/// How long an unmarked README command may run. The README marks anything that
/// takes more than a few seconds `# long`; the margin is for a loaded machine,
/// and a debug build is much slower.
fn limit() -> Duration {
    if cfg!(debug_assertions) {
        Duration::from_secs(1200)
    } else {
        Duration::from_secs(60)
    }
}

// ---------------------------------------------------------------------------
// Reading the README's shell blocks

/// One logical command line of a ```sh block: continuation lines joined, the
/// trailing comment apart.
#[derive(Debug)]
struct Line {
    /// 1-based line number in the README of its first physical line.
    number: usize,
    /// The command, without the comment.
    command: String,
    /// The trailing comment, without the `#`, or empty.
    comment: String,
}

/// Every command line of the ```sh blocks of `text`.
fn sh_lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    let mut in_other = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.starts_with("```") {
            if in_sh || in_other {
                assert!(pending.is_none(), "README:{}: a `\\` ends a block", i + 1);
                in_sh = false;
                in_other = false;
            } else if trimmed == "```sh" {
                in_sh = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_sh {
            continue;
        }
        let (start, mut joined) = pending.take().unwrap_or((i + 1, String::new()));
        let (code, comment) = split_comment(raw);
        if let Some(head) = code.trim_end().strip_suffix('\\') {
            joined.push_str(head);
            joined.push(' ');
            pending = Some((start, joined));
            continue;
        }
        joined.push_str(&code);
        let command = joined.split_whitespace().collect::<Vec<_>>().join(" ");
        if !command.is_empty() {
            lines.push(Line {
                number: start,
                command,
                comment: comment.trim().to_string(),
            });
        }
    }
    lines
}

/// A line split at its comment: the first `#` outside quotes that starts the
/// line or follows a space.
fn split_comment(line: &str) -> (String, String) {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => {
                return (line[..i].to_string(), line[i + 1..].to_string());
            }
            None => {}
        }
        prev = c;
    }
    (line.to_string(), String::new())
}

/// Split a command into words as a POSIX shell does for the quoting the README
/// uses: single and double quotes, and backslash escapes outside them.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        _ => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Whether a word names the brokkr binary (`brokkr`, `target/release/brokkr`,
/// `/path/to/brokkr`, `./brokkr`).
fn is_brokkr(word: &str) -> bool {
    word == "brokkr" || word.ends_with("/brokkr")
}

/// What the test does with one README line.
#[derive(Debug)]
enum Plan {
    /// Run brokkr with these arguments.
    Run(Vec<String>),
    /// Not a brokkr command line; the brokkr commands inside it (each with its
    /// arguments) are checked.
    Other(Vec<Vec<String>>),
    /// Not run, for the reason given.
    Skip(&'static str),
}

fn plan(line: &Line) -> Plan {
    let words = shell_words(&line.command);
    let first = words[0].as_str();
    if is_brokkr(first) {
        return Plan::Run(words[1..].to_vec());
    }
    if first == "cargo" {
        let rest: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        return match rest.as_slice() {
            ["run", "--release"] => Plan::Run(Vec::new()),
            ["run", "--release", "--", args @ ..] => {
                Plan::Run(args.iter().map(|a| a.to_string()).collect())
            }
            ["test", "--release"] => Plan::Skip("the test suite itself"),
            ["build", "--release"] => Plan::Skip("the build this test runs on"),
            _ => panic!(
                "README:{}: a cargo line this test does not know: {}",
                line.number, line.command
            ),
        };
    }
    // Another program. A word holding a brokkr path followed by arguments
    // (`-fcp "/path/to/brokkr xboard"`) is a brokkr command; so is a match
    // runner's `args="..."` after its `cmd=.../brokkr`.
    let mut inner = Vec::new();
    let mut cmd_is_brokkr = false;
    for w in &words {
        let value = w.split_once('=').map_or(w.as_str(), |(_, v)| v);
        if w.starts_with("cmd=") {
            cmd_is_brokkr = is_brokkr(value);
            continue;
        }
        if w.starts_with("args=") && cmd_is_brokkr {
            inner.push(value.split_whitespace().map(String::from).collect());
            continue;
        }
        let parts: Vec<&str> = value.split_whitespace().collect();
        if parts.len() > 1 && is_brokkr(parts[0]) {
            inner.push(parts[1..].iter().map(|p| p.to_string()).collect());
        }
    }
    Plan::Other(inner)
}

// ---------------------------------------------------------------------------
// Running brokkr

/// Run brokkr with `args` and `input` on stdin, from the repository's root,
/// killed after `limit`: its status (`None` if killed), stdout and stderr.
fn run(args: &[String], input: &str, limit: Duration) -> (Option<ExitStatus>, String, String) {
    run_with_input(command().args(args).current_dir(root()), input, limit)
}

/// The engine's arguments, when `args` start the engine (no command, `uci`,
/// `uci --switches`, `xboard`): the protocol session to run and the line that
/// must come back.
fn engine_session(args: &[String]) -> Option<(&'static str, &'static str)> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] | ["uci"] | ["uci", "--switches"] => Some(("uci\nisready\nquit\n", "readyok")),
        ["xboard"] => Some(("xboard\nprotover 2\nping 1\nquit\n", "pong 1")),
        _ => None,
    }
}

/// Check one brokkr command; `Err` says what is wrong.
fn check(args: &[String], comment: &str) -> Result<String, String> {
    if let Some((input, answer)) = engine_session(args) {
        let (status, out, err) = run(args, input, limit());
        return if status.is_some_and(|s| s.success()) && out.lines().any(|l| l == answer) {
            Ok(format!("engine, answered {answer:?}"))
        } else {
            Err(format!(
                "the engine session ended {status:?} without {answer:?}:\n{out}{err}"
            ))
        };
    }
    let shared = args.iter().any(|a| a.contains("../shared"));
    let long = comment
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "long");
    let marked_shared = comment.contains("../shared");
    if shared && !marked_shared {
        return Err("reads ../shared but its comment does not say `needs ../shared/data`".into());
    }
    let reads_tests_data = args.iter().any(|a| a.contains("tests/data"));
    if reads_tests_data != comment.contains("needs tests/data") {
        return Err(if reads_tests_data {
            "reads tests/data but its comment does not say `needs tests/data`".into()
        } else {
            "says `needs tests/data` but reads nothing there".into()
        });
    }
    if long || marked_shared {
        return parses(args);
    }
    // Files the command writes under /tmp/brokkr-... are removed first, so a
    // leftover of an earlier run (say a datagen file of other settings) cannot
    // change what the command does.
    for pair in args.windows(2) {
        if pair[0] == "--out" && pair[1].starts_with("/tmp/brokkr-") {
            let p = Path::new(&pair[1]);
            let _ = std::fs::remove_file(p);
            let _ = std::fs::remove_dir_all(p);
        }
    }
    let started = Instant::now();
    let (status, out, err) = run(args, "", limit());
    match status {
        None => Err(format!(
            "still running after {:?}: mark it `# long` in the README",
            limit()
        )),
        Some(s) if !s.success() => Err(format!("exited {s}:\n{out}{err}")),
        Some(_) if out.trim().is_empty() => Err(format!("printed nothing on stdout:\n{err}")),
        Some(_) => Ok(format!("ran in {:.1?}", started.elapsed())),
    }
}

/// A command that is not run: its `--help` must succeed and list every
/// `--flag` the command gives.
fn parses(args: &[String]) -> Result<String, String> {
    let Some(name) = args.first() else {
        return Err("no command to check".into());
    };
    let help_args = [name.clone(), "--help".to_string()];
    let (status, out, err) = run(&help_args, "", Duration::from_secs(30));
    if !status.is_some_and(|s| s.success()) || !out.starts_with("usage: brokkr") {
        return Err(format!("`brokkr {name} --help` failed:\n{out}{err}"));
    }
    for flag in args.iter().filter(|a| a.starts_with("--")) {
        if !out.contains(&format!("{flag} ")) && !out.contains(&format!("{flag}]")) {
            return Err(format!("`brokkr {name} --help` does not list {flag}"));
        }
    }
    Ok("parsed only (its --help lists its flags)".into())
}

/// Check a brokkr command found inside another program's command line: its
/// first word is a real subcommand (`brokkr help NAME` succeeds), and an
/// engine command starts the engine.
fn check_inner(args: &[String]) -> Result<String, String> {
    let Some(name) = args.first() else {
        return Err("a brokkr command without arguments".into());
    };
    let help_args = ["help".to_string(), name.clone()];
    let (status, out, err) = run(&help_args, "", Duration::from_secs(30));
    if !status.is_some_and(|s| s.success()) {
        return Err(format!(
            "`brokkr help {name}` failed: not a command\n{out}{err}"
        ));
    }
    if engine_session(args).is_some() {
        check(args, "")
    } else {
        Ok("a real command".into())
    }
}

#[test]
fn readme_commands_run_as_written() {
    let text = readme();
    let lines = sh_lines(&text);
    let mut failures = Vec::new();
    let (mut ran, mut parsed_only, mut inner_checked, mut engines) = (0, 0, 0, 0);
    for line in &lines {
        match plan(line) {
            Plan::Skip(why) => {
                eprintln!("README:{}: {} (not run: {why})", line.number, line.command)
            }
            Plan::Run(args) => {
                let result = check(&args, &line.comment);
                match &result {
                    Ok(how) if how.starts_with("parsed") => parsed_only += 1,
                    Ok(how) if how.starts_with("engine") => engines += 1,
                    Ok(_) => ran += 1,
                    Err(_) => {}
                }
                report(line, result, &mut failures);
            }
            Plan::Other(inner) => {
                for args in inner {
                    inner_checked += 1;
                    report(line, check_inner(&args), &mut failures);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "README commands that do not work as written:\n{}",
        failures.join("\n")
    );
    // The README has commands of every kind; finding none means the extraction
    // broke, not that all is well.
    assert!(ran >= 5, "only {ran} README commands ran");
    assert!(parsed_only >= 1, "no README command was marked long");
    assert!(engines >= 1, "no README command started the engine");
    assert!(
        inner_checked >= 1,
        "no brokkr command inside another program's line"
    );
}

fn report(line: &Line, result: Result<String, String>, failures: &mut Vec<String>) {
    match result {
        Ok(how) => eprintln!("README:{}: {} ({how})", line.number, line.command),
        Err(why) => failures.push(format!("README:{}: {}\n  {why}", line.number, line.command)),
    }
}

#[test]
fn the_extraction_reads_quotes_comments_and_continuations() {
    let text = "```sh\nbrokkr eval --fen \"8/8 w - - 0 1\"   # a # in the comment\n\
                xboard -fcp \"/p/brokkr xboard\" \\\n   -fd /p\n```\n```text\nbrokkr not sh\n```\n";
    let lines = sh_lines(text);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0].comment, "a # in the comment");
    assert_eq!(
        shell_words(&lines[0].command),
        ["brokkr", "eval", "--fen", "8/8 w - - 0 1"]
    );
    assert_eq!(lines[1].number, 3);
    match plan(&lines[1]) {
        Plan::Other(inner) => assert_eq!(inner, [["xboard"]]),
        p => panic!("{p:?}"),
    }
    // A broken command is caught, whichever way it is broken.
    let args = |s: &str| shell_words(s);
    assert!(check(&args("perft 3 --fenn x"), "").is_err());
    assert!(check(&args("nosuchcommand"), "").is_err());
    assert!(check(&args("perft 1 --epd tests/data/standard.epd"), "").is_err());
    assert!(check(&args("paths --jsn"), "long").is_err());
    assert!(check_inner(&args("xbord")).is_err());
}

// ---------------------------------------------------------------------------
// The tables

/// The rows of the README table whose header row starts with `header`: each
/// row's cells, trimmed.
fn table(text: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(header));
    assert!(
        lines.next().is_some(),
        "no table headed {header:?} in the README"
    );
    lines
        .skip(1) // the |---| row
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// One option of the engine's answer to `uci`.
#[derive(Debug, Default)]
struct UciOption {
    kind: String,
    default: Option<String>,
    min: Option<String>,
    max: Option<String>,
}

fn uci_options() -> BTreeMap<String, UciOption> {
    let (status, out, err) = run(&[], "uci\nquit\n", Duration::from_secs(30));
    assert!(status.is_some_and(|s| s.success()), "uci failed: {err}");
    let mut options = BTreeMap::new();
    for line in out.lines() {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let (name, rest) = rest.split_once(" type ").expect("option ... type");
        let mut words = rest.split(' ');
        let mut o = UciOption {
            kind: words.next().unwrap().to_string(),
            ..UciOption::default()
        };
        while let Some(key) = words.next() {
            let value = words.next().map(String::from);
            match key {
                "default" => o.default = value,
                "min" => o.min = value,
                "max" => o.max = value,
                _ => {}
            }
        }
        options.insert(name.to_string(), o);
    }
    assert!(options.len() > 10, "too few options in {out}");
    options
}

#[test]
fn readme_options_table_is_the_engines() {
    let text = readme();
    let rows = table(&text, "| option | type | default | range | what it does |");
    let unquote = |s: &str| s.trim_matches('`').to_string();
    let readme: BTreeMap<String, &Vec<String>> = rows.iter().map(|r| (unquote(&r[0]), r)).collect();
    let engine = uci_options();
    let mut wrong = Vec::new();
    for (name, o) in &engine {
        let Some(row) = readme.get(name) else {
            wrong.push(format!("{name}: missing from the README's options table"));
            continue;
        };
        let (kind, default, range) = (&row[1], unquote(&row[2]), &row[3]);
        if kind != &o.kind {
            wrong.push(format!(
                "{name}: type {kind} in the README, {} in the engine",
                o.kind
            ));
        }
        match o.kind.as_str() {
            // The defaults of the CPU-dependent choices are described, not given.
            "combo" => {}
            "button" => {
                if !default.is_empty() || !range.is_empty() {
                    wrong.push(format!("{name}: a button has no default or range"));
                }
            }
            _ => {
                let d = o.default.clone().unwrap_or_default();
                if default != d {
                    wrong.push(format!(
                        "{name}: default {default} in the README, {d} in the engine"
                    ));
                }
                let r = match (&o.min, &o.max) {
                    (Some(min), Some(max)) => format!("{min}-{max}"),
                    _ => String::new(),
                };
                if range != &r {
                    wrong.push(format!(
                        "{name}: range {range:?} in the README, {r:?} in the engine"
                    ));
                }
            }
        }
    }
    for name in readme.keys() {
        if !engine.contains_key(name) {
            wrong.push(format!(
                "{name}: in the README's options table, not in the engine's `uci`"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "the options table is stale:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn readme_commands_table_lists_every_command() {
    let text = readme();
    let rows = table(&text, "| command | what it does |");
    let first_cells: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
    let usage = brokkr_ok(&["help"]);
    let names: Vec<&str> = usage
        .lines()
        .skip_while(|l| *l != "commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "(none)")
        .collect();
    assert!(names.len() >= 10, "too few commands in {usage}");
    for name in names {
        let quoted = format!("`{name}");
        assert!(
            first_cells.iter().any(|c| c.contains(&quoted)),
            "`brokkr help` lists {name}, the README's commands table does not"
        );
    }
}

#[test]
fn readme_xboard_option_count_and_names_are_the_engines() {
    let text = readme();
    let (status, out, err) = run(
        &["xboard".to_string()],
        "protover 2\nquit\n",
        Duration::from_secs(30),
    );
    assert!(status.is_some_and(|s| s.success()), "xboard failed: {err}");
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("feature option=\""))
        .map(|l| l.split(" -").next().unwrap())
        .collect();
    let claim = format!("announces {} options", names.len());
    assert!(text.contains(&claim), "the README does not say {claim:?}");
    // The options renamed for xboard (a space in the UCI name) are each named.
    let renamed: BTreeSet<&str> = names.iter().copied().filter(|n| n.contains('_')).collect();
    let uci = uci_options();
    for name in renamed {
        if uci.contains_key(&name.replace('_', " ")) {
            assert!(
                text.contains(&format!("`{name}`")),
                "the README does not name the xboard option {name}"
            );
        }
    }
}

#[test]
fn readme_rust_version_is_cargos() {
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("rust-version in Cargo.toml")
        .trim_matches('"');
    let claim = format!("Rust {version} or later");
    assert!(
        readme().contains(&claim),
        "the README does not say {claim:?}"
    );
}

#[test]
fn readme_shows_the_two_commands() {
    let lines = sh_lines(&readme());
    for command in ["cargo run --release", "cargo test --release"] {
        assert!(
            lines.iter().any(|l| l.command == command),
            "the README lost `{command}`"
        );
    }
}

// ---------------------------------------------------------------------------
// Links

/// `text` with its fenced code blocks blanked (their lines kept, empty).
fn without_code(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The anchors of a Markdown file's headings, as GitHub makes them: lower
/// case, letters, digits, `-` and `_` kept, spaces to `-`, a repeated heading
/// numbered.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for line in without_code(text).lines() {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the `[text](target)` links of `text` (outside code blocks).
fn link_targets(text: &str) -> Vec<String> {
    let text = without_code(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
        }
    }
    out
}

#[test]
fn links_in_the_readme_and_docs_resolve() {
    let mut files: Vec<PathBuf> = vec![root().join("README.md"), root().join("nets/README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let name = file.strip_prefix(root()).unwrap().display();
            if !linked.exists() {
                broken.push(format!("{name}: {target}: no such file"));
            } else if !anchor.is_empty() && (path.is_empty() || path.ends_with(".md")) {
                let linked_text = std::fs::read_to_string(&linked).unwrap();
                if !anchors(&linked_text).contains(anchor) {
                    broken.push(format!("{name}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // The slugs follow GitHub's rule on the headings this repository has.
    let a = anchors("## Data from brokkr's own games: `brokkr datagen`\n## Generation 3, first look: 2.1 M positions\n## X\n## X\n");
    assert!(
        a.contains("data-from-brokkrs-own-games-brokkr-datagen"),
        "{a:?}"
    );
    assert!(
        a.contains("generation-3-first-look-21-m-positions"),
        "{a:?}"
    );
    assert!(a.contains("x-1"), "{a:?}");
}
