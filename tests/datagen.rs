//! `brokkr datagen`: the output is what `brokkr tune` reads, games do not depend on
//! the thread count, resuming neither duplicates nor loses a game, a killed run's
//! unfinished game is dropped, bad arguments fail cleanly, and `tune` learns from
//! the output.

mod common;

use brokkr::attacks::Magic;
use brokkr::eval::tune::parse_line;
use common::{brokkr, s, text, TempDir};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Output;

/// Run datagen at 300 nodes a move into `out`; the output must succeed.
fn datagen(out: &Path, games: u32, threads: u32, extra: &[&str]) -> Output {
    let (games, threads) = (games.to_string(), threads.to_string());
    let mut args = vec![
        "datagen",
        "--out",
        s(out),
        "--games",
        &games,
        "--threads",
        &threads,
        "--nodes",
        "300",
    ];
    args.extend_from_slice(extra);
    let o = brokkr(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    o
}

/// The games of a datagen file, checked for form: its header, then each game's
/// position lines (every one a line the tuner reads, a quiet position with one
/// result for the whole game, matching its `# game` line) and its `# game N` line.
/// Returns each game's text by number.
fn games(path: &Path) -> BTreeMap<u64, String> {
    let all = std::fs::read_to_string(path).unwrap();
    let mut lines = all.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("# brokkr datagen v1: "), "{header}");
    let mut games = BTreeMap::new();
    let mut block = String::new();
    let mut results = BTreeSet::new();
    for line in lines {
        block.push_str(line);
        block.push('\n');
        if let Some(rest) = line.strip_prefix("# game ") {
            let (n, about) = rest.split_once(": ").unwrap();
            let label = match about.split(' ').next().unwrap() {
                "1-0" => "1",
                "1/2-1/2" => "0.5",
                "0-1" => "0",
                other => panic!("bad result {other} in {line}"),
            };
            let expected: f32 = label.parse().unwrap();
            assert!(results.iter().all(|&r| r == expected.to_bits()), "{block}");
            let positions = block.lines().count() - 1;
            assert!(
                about.ends_with(&format!(", {positions} positions")),
                "{line}: {positions} position lines"
            );
            let previous = games.insert(n.parse::<u64>().unwrap(), std::mem::take(&mut block));
            assert!(previous.is_none(), "game {n} twice");
            results.clear();
            continue;
        }
        let (sample, board) = parse_line::<Magic>(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!board.in_check(), "{line}");
        assert!(sample.score.abs() < 30_000, "{line}");
        assert_eq!(board.to_fen(), sample.fen, "FEN not as the board writes it");
        results.insert(sample.result.to_bits());
    }
    assert!(block.is_empty(), "an unfinished game at the end:\n{block}");
    games
}

#[test]
fn output_is_tune_input_and_does_not_depend_on_threads() {
    let dir = TempDir::new("datagen-form");
    let two = dir.join("two.txt");
    let o = datagen(&two, 2, 2, &[]);
    let summary = text(&o.stdout);
    assert!(summary.starts_with("datagen: played 2 games"), "{summary}");
    let g = games(&two);
    assert_eq!(g.keys().copied().collect::<Vec<_>>(), [1, 2]);
    let positions: usize = g.values().map(|b| b.lines().count() - 1).sum();
    assert!(positions > 20, "only {positions} positions in 2 games");
    assert!(
        summary.contains(&format!("holds 2/2 games, {positions} positions")),
        "{summary}"
    );
    // Game 2 on one thread, alone, is the same game as on two threads.
    let one = dir.join("one.txt");
    datagen(&one, 2, 1, &[]);
    assert_eq!(games(&one), g);
    // Another seed plays other games.
    let other = dir.join("other.txt");
    datagen(&other, 1, 1, &["--seed", "2"]);
    assert_ne!(games(&other)[&1], g[&1]);
}

#[test]
fn resuming_adds_only_the_missing_games_and_drops_an_unfinished_one() {
    let dir = TempDir::new("datagen-resume");
    let path = dir.join("data.txt");
    datagen(&path, 2, 2, &[]);
    let two = std::fs::read(&path).unwrap();
    let first = games(&path);

    // The same command again: nothing to do, nothing written.
    let o = datagen(&path, 2, 2, &[]);
    assert!(
        text(&o.stdout).contains("nothing to play"),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(std::fs::read(&path).unwrap(), two);

    // A killed run left half a game: a position line and a torn one.
    let mut killed = two.clone();
    let line = first[&1].lines().next().unwrap();
    killed.extend_from_slice(format!("{line}\n{}", &line[..line.len() / 2]).as_bytes());
    std::fs::write(&path, &killed).unwrap();
    let o = datagen(&path, 3, 1, &[]);
    let err = text(&o.stderr);
    assert!(
        err.contains("dropped the end of an unfinished game (1 position line(s) and a torn line"),
        "{err}"
    );
    let three = std::fs::read(&path).unwrap();
    assert_eq!(&three[..two.len()], &two[..], "the finished games changed");
    let resumed = games(&path);
    assert_eq!(resumed.keys().copied().collect::<Vec<_>>(), [1, 2, 3]);
    assert!(text(&o.stdout).starts_with("datagen: played 1 game "));

    // The resumed file holds the games a fresh run plays.
    let fresh = dir.join("fresh.txt");
    datagen(&fresh, 3, 2, &[]);
    assert_eq!(games(&fresh), resumed);

    // A torn header (killed while creating the file) is started again.
    let torn = dir.join("torn.txt");
    let header = text(&two).lines().next().unwrap().to_string();
    std::fs::write(&torn, &header[..10]).unwrap();
    datagen(&torn, 1, 1, &[]);
    assert_eq!(games(&torn)[&1], resumed[&1]);
}

/// Killed while writing a game's own `# game N` line (text), or between a game's
/// records and its index line with half a record written (marlinformat): the
/// command drops that game, plays it again, and ends with the file a run that
/// was never killed writes.
#[test]
fn resuming_after_a_torn_game_line_and_a_killed_marlin_run() {
    let dir = TempDir::new("datagen-torn");
    // Text: three games, then the third's `# game 3` line torn in half.
    let fresh = dir.join("fresh.txt");
    datagen(&fresh, 3, 1, &[]);
    let whole = std::fs::read_to_string(&fresh).unwrap();
    let mark = whole.rfind("# game 3:").expect("the third game's line");
    let killed = dir.join("killed.txt");
    std::fs::write(&killed, &whole[..mark + 12]).unwrap();
    let o = datagen(&killed, 3, 1, &[]);
    let err = text(&o.stderr);
    assert!(
        err.contains("dropped the end of an unfinished game"),
        "{err}"
    );
    assert!(
        text(&o.stdout).starts_with("datagen: played 1 game "),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(std::fs::read_to_string(&killed).unwrap(), whole);

    // Marlinformat: two games whole, then the third's records with half a record
    // more, and its index line missing.
    let fresh = dir.join("fresh.bin");
    let marlin = ["--format", "marlin"];
    datagen(&fresh, 3, 1, &marlin);
    let records = std::fs::read(&fresh).unwrap();
    let index = std::fs::read_to_string(format!("{}.games", s(&fresh))).unwrap();
    let kept = |line: &str| -> usize {
        let n = line.rsplit(", ").next().unwrap().split(' ').next().unwrap();
        n.parse().unwrap()
    };
    let lines: Vec<&str> = index.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three games: {index}");
    let first_two: usize = lines[1..3].iter().map(|l| kept(l)).sum();
    assert!(
        kept(lines[3]) > 0,
        "the third game keeps positions: {index}"
    );
    let killed = dir.join("killed.bin");
    let mut torn = records.clone();
    torn.extend_from_slice(&records[..16]);
    std::fs::write(&killed, &torn).unwrap();
    std::fs::write(
        format!("{}.games", s(&killed)),
        lines[..3]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    assert!(
        torn.len() > 32 * first_two,
        "the third game's records are there"
    );
    let o = datagen(&killed, 3, 1, &marlin);
    assert!(
        text(&o.stdout).starts_with("datagen: played 1 game "),
        "{}",
        text(&o.stdout)
    );
    assert_eq!(
        std::fs::read(&killed).unwrap(),
        records,
        "the records a whole run writes"
    );
    assert_eq!(
        std::fs::read_to_string(format!("{}.games", s(&killed))).unwrap(),
        index
    );
}

/// A game that keeps no position (here the side to move is in check, takes
/// the queen, and the bare kings draw at once) is still a finished game: a run
/// after it resumes the file, in both formats, and keeps it counted.
#[test]
fn a_game_that_keeps_no_position_does_not_block_a_resume() {
    let dir = TempDir::new("datagen-empty-game");
    let book = dir.file("book.epd", "8/8/8/8/8/2k5/6q1/7K w - - 0 1\n");
    for marlin in [false, true] {
        let out = dir.join(if marlin { "data.bin" } else { "data.txt" });
        let mut extra = vec!["--book", s(&book), "--random-plies", "0"];
        if marlin {
            extra.extend(["--format", "marlin"]);
        }
        let o = datagen(&out, 1, 1, &extra);
        let said = text(&o.stdout);
        assert!(said.contains("holds 1/1 games, 0 positions"), "{said}");
        // Resuming adds a game, and again finds nothing to do.
        let o = datagen(&out, 2, 1, &extra);
        let said = text(&o.stdout);
        assert!(
            said.contains("played 1 game ") && said.contains("holds 2/2 games, 0 positions"),
            "marlin {marlin}: {said}"
        );
        let o = datagen(&out, 2, 1, &extra);
        assert!(
            text(&o.stdout).contains("nothing to play"),
            "{}",
            text(&o.stdout)
        );
        let index = if marlin {
            assert_eq!(std::fs::metadata(&out).unwrap().len(), 0);
            std::fs::read_to_string(format!("{}.games", s(&out))).unwrap()
        } else {
            std::fs::read_to_string(&out).unwrap()
        };
        let lines: Vec<&str> = index.lines().skip(1).collect();
        assert_eq!(lines.len(), 2, "{index}");
        assert!(
            lines.iter().all(|l| l.ends_with(", 0 positions")),
            "{index}"
        );
    }
}

#[test]
fn a_book_gives_the_openings() {
    let dir = TempDir::new("datagen-book");
    let book = dir.join("book.epd");
    // One usable line (a level pawn ending, with EPD operations), a comment, a
    // bad FEN and a finished game.
    let level = "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - -";
    std::fs::write(
        &book,
        format!(
            "# openings\n\
             {level} bm Kd2; id \"level\";\n\
             8/8/8 w - -\n\
             7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n"
        ),
    )
    .unwrap();
    let out = dir.join("data.txt");
    let o = datagen(&out, 1, 1, &["--book", s(&book), "--random-plies", "0"]);
    let err = text(&o.stderr);
    assert!(err.contains("book.epd:3: bad FEN"), "{err}");
    assert!(err.contains("book.epd:4: the game is over"), "{err}");
    let all = std::fs::read_to_string(&out).unwrap();
    assert!(
        all.lines().next().unwrap().contains("book 1 positions"),
        "{all}"
    );
    // The game starts at the book position (its first move is quiet).
    let first = games(&out)[&1].lines().next().unwrap().to_string();
    assert!(first.starts_with(&format!("{level} 0 1 | ")), "{first}");

    // A book whose every opening is lopsided cannot give a game. Two queens and
    // a rook against a lone king: lopsided to any evaluation (a rook alone is
    // not, to a net that has seen few such endings: the embedded one scores
    // some of its random-ply positions under the limit).
    std::fs::write(&book, "8/8/8/3k4/8/8/8/QQR1K3 w - - bm Qa5;\n").unwrap();
    let o = brokkr(&[
        "datagen",
        "--out",
        dir.join("lopsided.txt").to_str().unwrap(),
        "--games",
        "1",
        "--nodes",
        "300",
        "--book",
        s(&book),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("game 1: no playable opening in 100 tries"),
        "{err}"
    );
    assert!(
        text(&o.stdout).contains("played 0 games"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn bad_arguments_and_foreign_files_fail_cleanly() {
    let dir = TempDir::new("datagen-bad");
    let out = dir.join("out.txt");
    let o = s(&out);
    let foreign = dir.join("foreign.txt");
    std::fs::write(
        &foreign,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 0.5\n",
    )
    .unwrap();
    let empty_book = dir.join("empty.epd");
    std::fs::write(&empty_book, "# nothing\n\n").unwrap();
    let made = dir.join("made.txt");
    datagen(&made, 1, 1, &[]);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["datagen"], "needs --out"),
        (vec!["datagen", "--out", o], "needs --games"),
        (vec!["datagen", "--out", o, "--games", "0"], "--games"),
        (vec!["datagen", "--out", o, "--games", "-3"], "--games"),
        (
            vec!["datagen", "--out", o, "--games", "2", "--nodes", "x"],
            "--nodes",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "--threads", "0"],
            "--threads",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "--hash", "0"],
            "--hash",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "--random-plies", "x"],
            "--random-plies",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "--seed", "-1"],
            "--seed",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "--slider", "nope"],
            "--slider",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "--depth", "3"],
            "unknown option --depth",
        ),
        (
            vec!["datagen", "--out", o, "--games", "2", "extra"],
            "unexpected argument 'extra'",
        ),
        (
            vec![
                "datagen",
                "--out",
                o,
                "--games",
                "2",
                "--book",
                "/nonexistent/b.epd",
            ],
            "cannot read book",
        ),
        (
            vec![
                "datagen",
                "--out",
                o,
                "--games",
                "2",
                "--book",
                s(&empty_book),
            ],
            "no usable position",
        ),
        (
            vec!["datagen", "--out", s(&foreign), "--games", "1"],
            "is not a brokkr datagen file",
        ),
        (
            vec!["datagen", "--out", s(&made), "--games", "2", "--seed", "9"],
            "was written with other settings",
        ),
        (
            vec![
                "datagen",
                "--out",
                "/nonexistent/dir/out.txt",
                "--games",
                "1",
            ],
            "cannot open",
        ),
        (
            vec!["datagen", "--out", "/dev/zero", "--games", "1"],
            "not a regular file",
        ),
        (
            vec![
                "datagen", "--out", o, "--games", "1", "--versus", "hce", "--hce",
            ],
            "is the games' own evaluation",
        ),
        (
            vec![
                "datagen",
                "--out",
                o,
                "--games",
                "1",
                "--versus",
                "/nonexistent.nnue",
            ],
            "--versus: cannot read",
        ),
        (
            vec!["datagen", "--out", o, "--games", "1", "--versus-nodes", "9"],
            "--versus-nodes needs --versus",
        ),
        (
            vec![
                "datagen",
                "--out",
                o,
                "--games",
                "1",
                "--versus",
                "hce",
                "--versus-nodes",
                "0",
            ],
            "--versus-nodes",
        ),
        (
            vec![
                "datagen",
                "--out",
                s(&made),
                "--games",
                "2",
                "--versus",
                "hce",
            ],
            "was written with other settings",
        ),
    ];
    let made_before = std::fs::read(&made).unwrap();
    for (args, why) in cases {
        let r = brokkr(&args);
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("brokkr: ") && err.contains(why),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A file another run is writing (it holds the lock) is left alone.
    let held = std::fs::File::open(&made).unwrap();
    held.try_lock().unwrap();
    let r = brokkr(&[
        "datagen",
        "--out",
        s(&made),
        "--games",
        "2",
        "--nodes",
        "300",
    ]);
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("is being written by another run"), "{err}");
    drop(held);
    assert!(!out.exists(), "a failed run created its output");
    assert!(std::fs::read_to_string(&foreign)
        .unwrap()
        .ends_with("| 0 | 0.5\n"));
    assert_eq!(std::fs::read(&made).unwrap(), made_before);
}

/// The train loss printed per epoch.
fn train_losses(out: &str) -> Vec<f64> {
    out.lines()
        .filter_map(|l| l.strip_prefix("epoch "))
        .map(|l| {
            let v = l.split("train ").nth(1).unwrap().split(',').next().unwrap();
            v.trim().parse().unwrap()
        })
        .collect()
}

#[test]
fn tune_learns_from_datagen_output() {
    let dir = TempDir::new("datagen-tune");
    let data = dir.join("data.txt");
    datagen(&data, 4, 2, &[]);
    let weights = dir.join("weights.rs");
    let o = brokkr(&[
        "tune",
        "--data",
        s(&data),
        "--out",
        s(&weights),
        "--epochs",
        "8",
        "--batch",
        "32",
        "--validation",
        "0.3",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    // Whole games are held out: the split found a game start.
    assert!(held_out(&stdout) > 0, "{stdout}");
    let l = train_losses(&stdout);
    assert_eq!(l.len(), 9, "{stdout}");
    assert!(l[8] < l[0] * 0.9, "the loss did not fall:\n{stdout}");
    let w = std::fs::read_to_string(&weights).unwrap();
    assert!(brokkr::eval::tune::parse_weights(&w).is_ok());
}

#[test]
fn datagen_has_help() {
    let o = brokkr(&["datagen", "--help"]);
    assert!(o.status.success());
    let help = text(&o.stdout);
    assert!(
        help.starts_with("usage: brokkr datagen --out FILE --games N"),
        "{help}"
    );
    assert!(help.contains("FEN | score | result"), "{help}");
}

/// The `held out` count of a train run's first line.
fn held_out(stdout: &str) -> usize {
    stdout
        .split(" held out")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stdout}"))
}

#[test]
fn branch_positions_train_but_are_never_held_out() {
    let dir = TempDir::new("datagen-branch");
    let data = dir.join("data.txt");
    datagen(&data, 4, 2, &[]);
    let branched = dir.join("branched.txt");
    let o = brokkr(&[
        "branch",
        "--data",
        s(&data),
        "--out",
        s(&branched),
        "--per",
        "3",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report = text(&o.stdout);
    let written: usize = report
        .split(" written")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{report}"));
    let out = std::fs::read_to_string(&branched).unwrap();
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(written > 0 && lines.len() == written, "{report}");
    // Every game's end line is copied, so the positions stay in their games.
    let games = |t: &str| t.lines().filter(|l| l.starts_with("# game")).count();
    assert_eq!(games(&out), games(&std::fs::read_to_string(&data).unwrap()));
    for l in &lines {
        let f: Vec<&str> = l.split(" | ").collect();
        assert_eq!(f.len(), 3, "{l}");
        assert!(f[1].parse::<i32>().is_ok() && ["1.0", "0.5", "0.0"].contains(&f[2]));
    }
    // The same seed gives the same file.
    let again = dir.join("again.txt");
    let o = brokkr(&[
        "branch",
        "--data",
        s(&data),
        "--out",
        s(&again),
        "--per",
        "3",
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read(&again).unwrap(), out.as_bytes());

    let train = |extra: bool| {
        let net = dir.join("net.nnue");
        let mut args = vec![
            "train",
            "--data",
            s(&data),
            "--out",
            s(&net),
            "--hidden",
            "32",
            "--epochs",
            "1",
            "--val",
            "0.3",
            "--threads",
            "1",
        ];
        if extra {
            args.extend(["--extra", s(&branched)]);
        }
        let o = brokkr(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let (plain, with) = (train(false), train(true));
    assert_eq!(held_out(&plain), held_out(&with), "{plain}\n{with}");
    assert!(
        with.contains(&format!("{written} for training only from --extra")),
        "{with}"
    );
    assert!(with.contains("the hand-written evaluation on the validation positions: loss"));

    // Bad input: a clear message, no output file.
    for (args, why) in [
        (
            vec!["branch", "--data", "/nonexistent.txt", "--out", "x"],
            "cannot open",
        ),
        (vec!["branch", "--out", "x"], "needs --data"),
        (
            vec!["branch", "--data", s(&data), "--out", "x", "--per", "9"],
            "expected 1 to 8",
        ),
        (
            vec!["branch", "--data", s(&data), "--out", "x", "stray"],
            "unexpected argument",
        ),
    ] {
        let o = brokkr(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!std::path::Path::new("x").exists());
    }
}

/// Marlinformat data written by another tool has no game marks (byte 31 is 0
/// in every record): `train --val` still holds out about the share it asks
/// for, as blocks of consecutive positions, and says so.
#[test]
fn train_holds_out_blocks_of_data_without_game_marks() {
    use brokkr::nnue::marlin::{Record, DRAW};
    let dir = TempDir::new("datagen-unmarked");
    let mut bytes = Vec::new();
    let mut game = 0;
    while bytes.len() < 3000 * 32 {
        let picks = common::Rng::new(game).take(120);
        for b in common::random_positions(common::start::<Magic>(game as usize), picks) {
            let r = Record::from_board(&b, (bytes.len() / 32 % 101) as i32 - 50, DRAW);
            assert!(!r.is_game_end());
            bytes.extend_from_slice(&r.0);
        }
        game += 1;
    }
    let positions = bytes.len() / 32;
    let data = dir.file("foreign.bin", &bytes);
    let net = dir.join("net.nnue");
    let train = |val: &str| {
        let o = brokkr(&[
            "train",
            "--data",
            s(&data),
            "--out",
            s(&net),
            "--hidden",
            "32",
            "--epochs",
            "1",
            "--batch",
            "256",
            "--val",
            val,
            "--threads",
            "1",
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let said = train("0.2");
    let held = held_out(&said);
    let target = positions / 5;
    assert!(
        held >= target && held < target + 512,
        "{held} held out of {positions}: {said}"
    );
    assert!(said.contains("no game marks"), "{said}");
    assert!(said.contains("blocks of"), "{said}");
    // With --val 0 nothing is held out, blocks or not.
    assert_eq!(held_out(&train("0")), 0);
}

/// The first `# game` line of a datagen file.
fn game_line(path: &Path) -> String {
    let all = std::fs::read_to_string(path).unwrap();
    all.lines()
        .find(|l| l.starts_with("# game "))
        .unwrap_or_else(|| panic!("no game in {all}"))
        .to_string()
}

#[test]
fn the_tables_end_a_game_with_their_result() {
    use brokkr::board::Board;
    use brokkr::syzygy::{Tablebase, Wdl};
    let dir = TempDir::new("datagen-syzygy");
    let tables = common::data_path("syzygy");
    let (tb, _) = Tablebase::open(&tables);
    let book = dir.join("book.epd");
    let mut ended = 0;
    // Won for White, won for Black, and a pawn ending: the result each game
    // gets is what the prober says (a cursed win or blessed loss is a draw).
    for (i, fen) in [
        "8/8/8/3k4/8/8/8/R3K3 w - - 0 1",
        "8/8/8/3k4/8/8/7r/4K3 w - - 0 1",
        "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1",
        "8/8/8/8/3k4/8/3KP3/8 b - - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        std::fs::write(&book, format!("{fen}\n")).unwrap();
        let out = dir.join(&format!("won-{i}.txt"));
        let o = datagen(
            &out,
            1,
            1,
            &[
                "--book",
                s(&book),
                "--random-plies",
                "0",
                "--syzygy",
                &tables,
            ],
        );
        let header = std::fs::read_to_string(&out).unwrap();
        assert!(
            header.lines().next().unwrap().contains(", syzygy "),
            "{header}"
        );
        let board = Board::<Magic>::from_fen(fen).unwrap();
        let wdl = tb.probe_wdl(&board).unwrap();
        let white = board.side_to_move() == brokkr::types::Color::White;
        let result = match (wdl, white) {
            (Wdl::Win, true) | (Wdl::Loss, false) => "1-0",
            (Wdl::Win, false) | (Wdl::Loss, true) => "0-1",
            _ => "1/2-1/2",
        };
        let line = game_line(&out);
        assert_eq!(
            line,
            format!("# game 1: {result} by tablebase, 0 plies, 0 positions"),
            "{fen}: {}",
            text(&o.stderr)
        );
        ended += 1;
    }
    assert_eq!(ended, 4);

    // The fifty-move count is not zero: the table's result under the rule may
    // not be the game's, so the game is played from there (level rooks: the
    // opening check keeps it), not ended at once.
    std::fs::write(&book, "8/8/3k4/8/8/3K4/r7/7R w - - 3 10\n").unwrap();
    let out = dir.join("counted.txt");
    let o = datagen(
        &out,
        1,
        1,
        &[
            "--book",
            s(&book),
            "--random-plies",
            "0",
            "--syzygy",
            &tables,
        ],
    );
    let line = game_line(&out);
    assert!(!line.contains(" 0 plies"), "{line}: {}", text(&o.stderr));
    // Without --syzygy the tables end nothing, and the header says no tables.
    std::fs::write(&book, "8/8/3k4/8/8/3K4/r7/7R w - - 0 1\n").unwrap();
    let out = dir.join("none.txt");
    datagen(&out, 1, 1, &["--book", s(&book), "--random-plies", "0"]);
    let line = game_line(&out);
    assert!(
        !line.contains("tablebase") && !line.contains(" 0 plies"),
        "{line}"
    );
    let header = std::fs::read_to_string(&out).unwrap();
    assert!(!header.lines().next().unwrap().contains("syzygy"));
    // A path without tables is refused.
    let o = brokkr(&[
        "datagen",
        "--out",
        s(&dir.join("x.txt")),
        "--games",
        "1",
        "--syzygy",
        s(dir.path()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no Syzygy WDL tables"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn without_adjudication_the_games_are_the_same_until_it_would_end_them() {
    let dir = TempDir::new("datagen-no-adjudication");
    let (on, off) = (dir.join("on.txt"), dir.join("off.txt"));
    datagen(&on, 4, 2, &[]);
    datagen(&off, 4, 2, &["--no-adjudication"]);
    let header = std::fs::read_to_string(&off).unwrap();
    assert!(
        header
            .lines()
            .next()
            .unwrap()
            .ends_with(", no adjudication"),
        "{header}"
    );
    let (on, off) = (games(&on), games(&off));
    let mut adjudicated = 0;
    for (n, game) in &on {
        let positions = |g: &str| -> Vec<String> {
            g.lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split(" | ").next().unwrap().to_string())
                .collect()
        };
        let (a, b) = (positions(game), positions(&off[n]));
        assert!(
            b.starts_with(&a),
            "game {n}: the played-out game differs before its end"
        );
        assert!(!off[n].contains("by adjudicated"), "{}", off[n]);
        if game.contains("by adjudicated") {
            adjudicated += 1;
        }
    }
    assert!(
        adjudicated > 0,
        "no game was adjudicated: the test shows nothing"
    );
}

/// The first position of game `n` in a datagen file and its score (its
/// result is the whole game's).
fn first_line(g: &BTreeMap<u64, String>, n: u64) -> String {
    let line = g[&n].lines().next().unwrap();
    line.rsplit_once(" | ").unwrap().0.to_string()
}

#[test]
fn versus_games_pit_two_evaluations_and_each_side_searches_with_its_own() {
    let dir = TempDir::new("datagen-versus");
    let (versus, own, hce) = (
        dir.join("versus.txt"),
        dir.join("own.txt"),
        dir.join("hce.txt"),
    );
    let o = datagen(&versus, 4, 2, &["--versus", "hce"]);
    let header = std::fs::read_to_string(&versus).unwrap();
    assert!(
        header
            .lines()
            .next()
            .unwrap()
            .ends_with(", versus hce at 300 nodes"),
        "{header}"
    );
    // The own evaluation's score is told, and covers every game.
    let summary = text(&o.stdout);
    let line = summary
        .lines()
        .find_map(|l| l.strip_prefix("datagen: the games' own evaluation scored +"))
        .unwrap_or_else(|| panic!("no score against --versus: {summary}"));
    let counts: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 4, "{line}");
    let v = games(&versus);
    // The same games on one thread.
    let one = dir.join("one.txt");
    datagen(&one, 4, 1, &["--versus", "hce"]);
    assert_eq!(games(&one), v);
    // From the start position (no capture, no check: its line is always kept),
    // game 1's first search is the own evaluation's (it plays White in odd
    // games) and game 2's the hand-written one's, each from a cleared table:
    // the same first line as in that evaluation's self-play.
    let start = ["--random-plies", "0"];
    let (v0, own0) = (dir.join("v0.txt"), dir.join("own0.txt"));
    datagen(&v0, 2, 1, &[&start[..], &["--versus", "hce"]].concat());
    datagen(&own0, 2, 1, &start);
    datagen(&hce, 2, 1, &[&start[..], &["--hce"]].concat());
    let (v0, own0, hce) = (games(&v0), games(&own0), games(&hce));
    assert_eq!(first_line(&v0, 1), first_line(&own0, 1));
    assert_eq!(first_line(&v0, 2), first_line(&hce, 2));
    assert_ne!(
        first_line(&own0, 1),
        first_line(&hce, 1),
        "the test shows nothing"
    );
    // And the games are not self-play's.
    assert_ne!(v0[&1], own0[&1]);
    assert_ne!(v0[&2], hce[&2]);
    datagen(&own, 2, 1, &[]);
    assert_ne!(v[&1], games(&own)[&1]);
    // A longer search for the hand-written side plays other games.
    let deeper = dir.join("deeper.txt");
    datagen(&deeper, 2, 1, &["--versus", "hce", "--versus-nodes", "900"]);
    assert_ne!(games(&deeper)[&2], v[&2]);
}
