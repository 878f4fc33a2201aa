//! What players and GUIs expect beyond the rules: a strength limit (`Skill
//! Level`, `UCI_LimitStrength`, `UCI_Elo`) and win/draw/loss output
//! (`UCI_ShowWDL`). Every search is bounded by nodes or depth.

mod common;

use brokkr::attacks::Magic;
use brokkr::bits::Portable;
use brokkr::board::Board;
use brokkr::paths::Pair;
use brokkr::search::skill::{Skill, ELO_MAX, ELO_MIN, FULL_STRENGTH_ELO};
use brokkr::search::{
    search, Bound, Control, Event, Info, Limits, SearchResult, Settings, ThreadData,
    TranspositionTable,
};
use common::{is_legal, word_after, Engine};
use std::collections::BTreeMap;

type E = Pair<Portable, Magic>;

/// A middlegame with several playable moves.
const OPEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// A fresh single-thread search of `fen` (new hash, new histories): a function
/// of the limits and settings alone.
fn fresh(fen: &str, limits: &Limits, settings: &Settings) -> (Board<Magic>, SearchResult) {
    let (b, r, _) = fresh_lines(fen, limits, settings);
    (b, r)
}

/// [`fresh`], keeping every line the search reports.
fn fresh_lines(
    fen: &str,
    limits: &Limits,
    settings: &Settings,
) -> (Board<Magic>, SearchResult, Vec<Info>) {
    let b = Board::<Magic>::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(2).unwrap();
    let mut data = vec![ThreadData::new()];
    let lines = std::sync::Mutex::new(Vec::new());
    let report = |e: Event| {
        if let Event::Info(i) = e {
            lines.lock().unwrap().push(i);
        }
    };
    let r = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(brokkr::search::STACK_SIZE)
            .spawn_scoped(s, || {
                search::<E>(
                    &b,
                    &[],
                    limits,
                    settings,
                    &tt,
                    &Control::default(),
                    &mut data,
                    &report,
                )
            })
            .unwrap()
            .join()
            .unwrap()
    });
    (b, r, lines.into_inner().unwrap())
}

#[test]
fn skill_level_0_plays_a_random_move_among_the_top_lines() {
    let level0 = Skill::from_level(0, 0).unwrap();
    let limits = Limits {
        nodes: Some(level0.nodes()),
        ..Limits::default()
    };
    // The lines the limited search chooses among: the same search without the
    // choice (one thread, fresh tables: the same tree whatever the seed), whose
    // last exact line of each of its four ranks is what the choice sees.
    let (b, full, infos) = fresh_lines(
        OPEN,
        &limits,
        &Settings {
            multipv: 4,
            ..Settings::default()
        },
    );
    let mut top = BTreeMap::new();
    for i in infos
        .iter()
        .filter(|i| i.bound == Bound::Exact && !i.pv.is_empty())
    {
        top.insert(i.multipv, b.to_uci(i.pv[0]));
    }
    let top: Vec<String> = top.into_values().collect();
    assert_eq!(top.len(), 4, "four lines to choose among: {top:?}");
    let mut seen = BTreeMap::new();
    for seed in 0..24 {
        let settings = Settings {
            skill: Some(Skill { seed, ..level0 }),
            ..Settings::default()
        };
        let (_, r) = fresh(OPEN, &Limits::default(), &settings);
        assert!(b.is_legal::<Portable>(r.best), "seed {seed}: {:?}", r.best);
        // The limit holds to within one poll of the node counter.
        assert!(
            r.nodes <= level0.nodes() + 64,
            "{} nodes for a limit of {}",
            r.nodes,
            level0.nodes()
        );
        let played = b.to_uci(r.best);
        assert!(
            top.contains(&played),
            "seed {seed}: {played} is not among {top:?}"
        );
        *seen.entry(played).or_insert(0) += 1;
    }
    let best = b.to_uci(full.best);
    assert!(seen.len() > 1, "always {seen:?}");
    assert!(seen.keys().any(|m| *m != best), "{seen:?} (best {best})");
}

#[test]
fn a_limited_search_plays_a_legal_move_everywhere() {
    for fen in brokkr::search::bench::POSITIONS.iter().take(12) {
        for (level, seed) in [(0, 1), (5, 2), (12, 3), (19, 4)] {
            let settings = Settings {
                skill: Skill::from_level(level, seed),
                ..Settings::default()
            };
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
            let (b, r) = fresh(fen, &limits, &settings);
            assert!(
                b.is_legal::<Portable>(r.best),
                "level {level}, {fen}: {:?}",
                r.best
            );
            assert_eq!(r.pv.first(), Some(&r.best), "{fen}");
        }
    }
}

// ---------------------------------------------------------------- UCI

/// The `info` lines' `wdl` triples of a search.
fn wdls(lines: &[String]) -> Vec<[u32; 3]> {
    lines
        .iter()
        .filter(|l| l.starts_with("info ") && l.contains(" score "))
        .filter_map(|l| {
            let at = l.find(" wdl ")?;
            let v: Vec<u32> = l[at + 5..]
                .split_whitespace()
                .take(3)
                .map(|w| w.parse().unwrap())
                .collect();
            Some([v[0], v[1], v[2]])
        })
        .collect()
}

#[test]
fn uci_show_wdl_adds_wdl_to_the_info_lines() {
    let mut e = Engine::uci();
    assert!(e
        .log
        .iter()
        .any(|l| l == "option name UCI_ShowWDL type check default false"));
    e.send("position startpos moves e2e4");
    let off = e.go("nodes 3000");
    assert!(off.infos().count() > 0);
    assert!(wdls(&off.lines).is_empty(), "{:?}", off.lines);

    e.send("setoption name UCI_ShowWDL value true");
    let on = e.go("nodes 3000");
    let all = wdls(&on.lines);
    assert_eq!(all.len(), on.infos().count(), "{:?}", on.lines);
    // The position after 1.e4 has all 78 points of material on the board.
    let material = brokkr::win_rate::material(&Board::<Magic>::startpos());
    let mut checked = 0;
    for (w, l) in all.iter().zip(on.infos()) {
        assert_eq!(w.iter().sum::<u32>(), 1000, "{l}");
        // The triple is the model's for the score shown beside it.
        if let Some(cp) = l
            .split(" score cp ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|v| v.parse::<i32>().ok())
        {
            assert_eq!(*w, brokkr::win_rate::MODEL.per_mille(cp, material), "{l}");
            checked += 1;
        }
        // Right after the score, as Stockfish prints it.
        assert!(
            l.contains(" wdl ") && l.find(" wdl ") > l.find(" score "),
            "{l}"
        );
        assert!(l.find(" wdl ") < l.find(" nodes "), "{l}");
    }
    assert!(checked > 0, "no centipawn score among {:?}", on.lines);
    // With less material the model's curve is another: the triple follows the
    // root's material, not a fixed one.
    let endgame = "4k3/pp3ppp/8/8/8/8/PP3PPP/R3K3 w - - 0 1";
    let material = brokkr::win_rate::material(&Board::<Magic>::from_fen(endgame).unwrap());
    assert!(material < 20, "{material}");
    e.send(&format!("position fen {endgame}"));
    let s = e.go("nodes 3000");
    let last = s.infos().last().expect("an info line").to_string();
    let cp: i32 = last
        .split(" score cp ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("a centipawn score");
    assert_eq!(
        wdls(&s.lines).last(),
        Some(&brokkr::win_rate::MODEL.per_mille(cp, material)),
        "{last}"
    );
    // A mate found: certain.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let mate = e.go("depth 4");
    assert_eq!(mate.best, "a1a8");
    assert_eq!(wdls(&mate.lines).last(), Some(&[1000, 0, 0]));
    // Mated at the root: certain the other way.
    e.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    let mated = e.go("depth 2");
    assert_eq!(mated.best, "(none)");
    assert_eq!(wdls(&mated.lines).last(), Some(&[0, 0, 1000]));
    // Bad values are refused with a message that names the option.
    e.send("setoption name UCI_ShowWDL value maybe");
    e.expect("a refusal", |l| {
        l.starts_with("info string") && l.contains("'UCI_ShowWDL'")
    });
    e.send("setoption name UCI_ShowWDL value false");
    e.send("position startpos");
    assert!(wdls(&e.go("nodes 2000").lines).is_empty());
    e.finish();
}

#[test]
fn uci_lists_the_strength_options() {
    let e = Engine::uci();
    // Full strength is the default, and the top of the range.
    let elo = format!(
        "option name UCI_Elo type spin default {FULL_STRENGTH_ELO} min {ELO_MIN} max {FULL_STRENGTH_ELO}"
    );
    for want in [
        "option name UCI_LimitStrength type check default false",
        &elo,
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(e.log.iter().any(|l| l == want), "{want}: {:?}", e.log);
    }
    e.finish();
}

#[test]
fn uci_skill_level_20_is_full_strength() {
    let mut e = Engine::uci();
    // The move and the node count: a search limited in any way would search
    // another tree, even where it happens to play the same move.
    let moves = |e: &mut Engine| -> Vec<(String, Option<u64>)> {
        ["startpos", &format!("fen {OPEN}")]
            .iter()
            .map(|p| {
                e.send("ucinewgame");
                e.send(&format!("position {p}"));
                let s = e.go("depth 7");
                (s.best.clone(), s.nodes())
            })
            .collect()
    };
    let default = moves(&mut e);
    assert!(default.iter().all(|(_, n)| n.is_some()), "{default:?}");
    e.send("setoption name Skill Level value 20");
    e.send(&format!("setoption name UCI_Elo value {ELO_MAX}"));
    assert_eq!(moves(&mut e), default);
    e.send("setoption name UCI_LimitStrength value true");
    assert_eq!(moves(&mut e), default, "UCI_Elo {ELO_MAX} is full strength");
    e.finish();
}

#[test]
fn uci_limit_strength_limits_nodes_and_searches_four_lines() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1500");
    let limit = Skill::from_elo(1500, 0).unwrap().nodes();
    let b = Board::<Magic>::from_fen(OPEN).unwrap();
    for _ in 0..4 {
        e.send(&format!("position fen {OPEN}"));
        let s = e.go("wtime 60000 btime 60000");
        assert!(is_legal(&b, &s.best), "{}", s.best);
        // The last main line shown is the move played, chosen or not.
        let last_main = s
            .infos()
            .filter(|l| word_after(l, "multipv") == Some(1))
            .last()
            .unwrap();
        let first = last_main.split(" pv ").nth(1).unwrap().split(' ').next();
        assert_eq!(first, Some(s.best.as_str()), "{:?}", s.lines);
        let nodes = s.nodes().unwrap();
        assert!(nodes <= limit + 2_000, "{nodes} nodes, limit {limit}");
        assert!(
            s.infos().any(|l| word_after(l, "multipv") == Some(4)),
            "{:?}",
            s.lines
        );
    }
    // Skill Level on its own, over xboard's name too.
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Skill Level value 3");
    e.send(&format!("position fen {OPEN}"));
    let s = e.go("wtime 60000 btime 60000");
    assert!(s.nodes().unwrap() <= Skill::from_level(3, 0).unwrap().nodes() + 2_000);
    // Bad values: named, and nothing changes.
    for (name, v) in [
        ("UCI_Elo", "1349"),
        ("UCI_Elo", "2851"),
        ("UCI_Elo", "x"),
        ("Skill Level", "21"),
        ("Skill Level", "-1"),
        ("UCI_LimitStrength", "1"),
    ] {
        e.send(&format!("setoption name {name} value {v}"));
        e.expect("a refusal", |l| {
            l.starts_with("info string") && l.contains(&format!("'{name}'"))
        });
    }
    e.ready();
    e.finish();
}

#[test]
fn xboard_offers_the_strength_options() {
    let mut e = Engine::xboard();
    let elo = format!("feature option=\"UCI_Elo -spin {FULL_STRENGTH_ELO} {ELO_MIN} {ELO_MAX}\"");
    for want in [
        "feature option=\"UCI_LimitStrength -check 0\"",
        &elo,
        "feature option=\"Skill_Level -spin 20 0 20\"",
    ] {
        assert!(e.log.iter().any(|l| l == want), "{want}: {:?}", e.log);
    }
    e.send("option UCI_LimitStrength=1");
    e.send("option UCI_Elo=1400");
    e.send("option Skill_Level=5");
    let said = e.pong(1);
    assert!(said.iter().all(|l| !l.starts_with("Error")), "{said:?}");
    e.send("option UCI_Elo=99");
    let said = e.pong(2);
    assert!(said.iter().any(|l| l.contains("UCI_Elo")), "{said:?}");
    e.send("new");
    e.send("sd 4");
    e.send("go");
    let (mv, _) = e.xmove();
    assert!(is_legal(&Board::<Magic>::startpos(), &mv), "{mv}");
    e.finish();
}

// ---------------------------------------------------------------- wdlfit

/// The coefficients `name: [..]` of `brokkr wdlfit`'s printed `MODEL`.
fn coefficients(out: &str, name: &str) -> [f64; 4] {
    let want = format!("{name}: [");
    let line = out
        .lines()
        .find_map(|l| l.trim().strip_prefix(want.as_str()))
        .unwrap_or_else(|| panic!("no {name} in:\n{out}"));
    let v: Vec<f64> = line
        .trim_end_matches("],")
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    [v[0], v[1], v[2], v[3]]
}

#[test]
fn wdlfit_recovers_the_model_that_made_the_results() {
    use brokkr::win_rate::Model;
    let truth = Model {
        a: [260.0, -250.0, 90.0, 0.0],
        b: [150.0, -90.0, 40.0, 0.0],
    };
    // One-position games at six material counts (the fitter reads only the
    // placement field's letters), scores from -500 to 500, results drawn from
    // the true chances.
    let placements = [
        ("QP", 10),
        ("QQPP", 20),
        ("QQQQ", 36),
        ("QQQQRP", 42),
        ("QQQQQQ", 54),
        ("QQQQQQQR", 68),
    ];
    let mut rng = common::Rng::new(7);
    let mut text = String::from("# brokkr datagen v1: made up by tests/strength.rs\n");
    for g in 1..=48_000 {
        let (placement, m) = placements[rng.below(placements.len())];
        assert_eq!(brokkr::win_rate::material_of_placement(placement), m);
        let score = rng.below(1001) as i32 - 500;
        let [w, d, _] = truth.probabilities(f64::from(score), m);
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let result = if u < w {
            "1.0"
        } else if u < w + d {
            "0.5"
        } else {
            "0.0"
        };
        text += &format!("{placement} w - - 0 1 | {score} | {result}\n# game {g}: made up\n");
    }
    // A game still being written: never read.
    text += "QQQQ w - - 0 1 | 5000 | 0.0\n";
    let dir = common::TempDir::new("wdlfit");
    let data = dir.file("data.txt", text);
    let out = common::brokkr_ok(&["wdlfit", "--data", common::s(&data)]);
    assert!(out.contains("pub const MODEL: Model = Model {"), "{out}");
    assert!(out.contains("38400 positions) fitted"), "{out}");
    assert!(out.contains("9600 held out (9600 positions)"), "{out}");
    assert!(out.contains("| this model (material-dependent) |"), "{out}");
    let fitted = Model {
        a: coefficients(&out, "a"),
        b: coefficients(&out, "b"),
    };
    for (_, m) in placements {
        for s in (-400..=400).step_by(50) {
            let (p, q) = (
                truth.probabilities(f64::from(s), m),
                fitted.probabilities(f64::from(s), m),
            );
            for k in 0..3 {
                assert!(
                    (p[k] - q[k]).abs() < 0.04,
                    "m {m}, s {s}: {p:?} {q:?}\n{out}"
                );
            }
        }
    }
    // Bad input: a clear message, no panic.
    for (contents, says) in [
        ("8/8 w - - 0 1 | x | 1.0\n# game 1\n", "bad score"),
        ("8/8 w - - 0 1 | 10 | 2.0\n# game 1\n", "bad result"),
        (
            "8/8 w - - 0 1 | 10\n# game 1\n",
            "expected 'FEN | score | result'",
        ),
        ("", "too few whole games"),
    ] {
        let f = dir.file("bad.txt", contents);
        let o = common::brokkr(&["wdlfit", "--data", common::s(&f)]);
        assert!(!o.status.success());
        let err = common::stderr(&o);
        assert!(err.contains(says), "{contents:?}: {err}");
    }
    let o = common::brokkr(&["wdlfit", "--data", common::s(&dir.join("missing.txt"))]);
    assert!(common::stderr(&o).contains("cannot open"));
}
