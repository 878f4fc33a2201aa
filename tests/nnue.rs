//! The network's inference: every vector path gives the same evaluation bit for
//! bit, the incremental accumulators match a full refresh after every move, and a
//! bad net file is refused with the engine keeping the net it had.

mod common;

use brokkr::attacks::Magic;
use brokkr::bits::Portable as PortableBits;
use brokkr::board::Board;
use brokkr::nnue::features::layout;
use brokkr::nnue::file::{
    file_size, file_size_kings, KingLayout, NetFile, INPUTS, MAX_KING_BUCKETS, VERSION,
    VERSION_KINGS,
};
use brokkr::nnue::vector::Portable;
use brokkr::nnue::{evaluate_fresh, Delta, Network, Stack, Vector, VectorPath};
use brokkr::types::Color;
use common::Rng;
use quickcheck::{QuickCheck, TestResult};

/// A net with random weights, wide enough that accumulators leave 0..255 on
/// both sides and some output weights pass ±128 (where the 16-bit product is
/// truncated): the corners where two paths could differ.
fn random_net(seed: u64, hidden: usize, buckets: usize) -> NetFile {
    random_kings_net(seed, hidden, buckets, KingLayout::NONE)
}

/// [`random_net`] with the king buckets and mirroring of `kings`.
fn random_kings_net(seed: u64, hidden: usize, buckets: usize, kings: KingLayout) -> NetFile {
    let inputs = kings.inputs();
    let mut rng = Rng::new(seed);
    let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
    let ft_weights = (0..inputs * hidden).map(|_| small(90) as i16).collect();
    let ft_bias = (0..hidden).map(|_| small(200) as i16).collect();
    let out_weights = (0..buckets * 2 * hidden)
        .map(|_| small(160) as i16)
        .collect();
    let out_bias = (0..buckets).map(|_| small(100_000) as i32).collect();
    let psqt = (0..inputs * buckets)
        .map(|_| small(60_000) as i32)
        .collect();
    NetFile {
        version: if kings.is_none() {
            VERSION
        } else {
            VERSION_KINGS
        },
        hidden,
        buckets,
        kings,
        scale: 400,
        ft_weights,
        ft_bias,
        out_weights,
        out_bias,
        psqt,
    }
}

/// Every path's evaluation of `board` from scratch.
fn every_path(net: &Network, board: &Board<Magic>) -> Vec<(VectorPath, i32)> {
    let mut out = Vec::new();
    for p in common::vector_paths() {
        let e = brokkr::with_vector!(p, V => evaluate_fresh(V::detect().unwrap(), net, board));
        out.push((p, e));
    }
    out
}

/// Play a random game with a stack per path, checking at every ply that each
/// path's incremental accumulator equals a refresh and that all paths agree.
fn check_game<V: Vector>(v: V, net: &Network, seed: u64, plies: usize) -> Result<(), String> {
    check_game_from(v, net, common::start::<Magic>(seed as usize), seed, plies)
}

/// [`check_game`] from `board`.
fn check_game_from<V: Vector>(
    v: V,
    net: &Network,
    mut board: Board<Magic>,
    seed: u64,
    plies: usize,
) -> Result<(), String> {
    let mut stack = Stack::new(plies + 2);
    stack.reset(net, &board);
    let mut rng = Rng::new(seed);
    let h = net.hidden();
    for ply in 0..plies {
        let moves = board.legal_moves::<PortableBits>();
        if moves.is_empty() {
            break;
        }
        // Now and then a null move, where the rules allow one.
        if rng.below(8) == 0 && !board.in_check() {
            stack.push(Delta::NONE);
            board.make_null::<PortableBits>();
        } else {
            let m = moves.as_slice()[rng.below(moves.len())];
            stack.push(Delta::of_move(&board, m));
            board.make::<PortableBits>(m);
        }
        let incremental = stack.evaluate(v, net, &board);
        let fresh = evaluate_fresh(Portable, net, &board);
        if incremental != fresh {
            return Err(format!(
                "{}: ply {ply} of game {seed}: incremental {incremental}, refresh {fresh} ({})",
                V::PATH,
                board.to_fen()
            ));
        }
        let acc = stack.accumulator(v, net).clone();
        let mut refreshed = acc.clone();
        refreshed.refresh(net, &board);
        for c in Color::BOTH {
            if acc.side(c, h) != refreshed.side(c, h) {
                return Err(format!(
                    "{}: accumulator or PSQT sums differ at ply {ply}",
                    V::PATH
                ));
            }
        }
    }
    Ok(())
}

/// Walk a random tree as the search does, with a stack per path: moves and null
/// moves pushed several plies deep without evaluating (so the next evaluation
/// catches up over all of them), moves taken back (pop), and siblings pushed where
/// a popped entry was (whose old accumulator must not be reused). At each
/// evaluation the incremental result must equal a refresh. This runs in release,
/// where the search's own `debug_assert` against a refresh is compiled out.
fn check_tree<V: Vector>(v: V, net: &Network, seed: u64, steps: usize) -> Result<usize, String> {
    check_tree_from(v, net, common::start::<Magic>(seed as usize), seed, steps)
}

/// [`check_tree`] from `board`.
fn check_tree_from<V: Vector>(
    v: V,
    net: &Network,
    mut board: Board<Magic>,
    seed: u64,
    steps: usize,
) -> Result<usize, String> {
    const DEPTH: usize = 12;
    let mut stack = Stack::new(DEPTH + 2);
    stack.reset(net, &board);
    let mut path: Vec<Board<Magic>> = Vec::new();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let (mut evaluations, mut pops) = (0, 0);
    let h = net.hidden();
    for step in 0..steps {
        let moves = board.legal_moves::<PortableBits>();
        let go_down = path.len() < DEPTH && !moves.is_empty() && rng.below(3) != 0;
        if go_down {
            path.push(board);
            if rng.below(8) == 0 && !board.in_check() {
                stack.push(Delta::NONE);
                board.make_null::<PortableBits>();
            } else {
                let m = moves.as_slice()[rng.below(moves.len())];
                stack.push(Delta::of_move(&board, m));
                board.make::<PortableBits>(m);
            }
        } else if let Some(parent) = path.pop() {
            stack.pop();
            board = parent;
            pops += 1;
        }
        // Evaluate now and then only, so that catch-up spans several plies.
        if rng.below(4) == 0 {
            evaluations += 1;
            let incremental = stack.evaluate(v, net, &board);
            let fresh = evaluate_fresh(Portable, net, &board);
            let acc = stack.accumulator(v, net).clone();
            let mut refreshed = acc.clone();
            refreshed.refresh(net, &board);
            let same = Color::BOTH
                .iter()
                .all(|&c| acc.side(c, h) == refreshed.side(c, h));
            if incremental != fresh || !same {
                return Err(format!(
                    "{}: step {step} of tree {seed} at depth {}: incremental {incremental}, \
                     refresh {fresh}, accumulators equal: {same} ({})",
                    V::PATH,
                    path.len(),
                    board.to_fen()
                ));
            }
        }
    }
    assert!(
        pops > steps / 4 && evaluations > steps / 8,
        "the walk went up and down"
    );
    Ok(evaluations)
}

#[test]
fn lazy_accumulators_match_a_refresh_through_pushes_and_pops() {
    let net = Network::from_file(random_net(11, 64, 4), "random");
    for p in common::vector_paths() {
        let mut checked = 0;
        for seed in 0..16 {
            checked +=
                brokkr::with_vector!(p, V => check_tree(V::detect().unwrap(), &net, seed, 600))
                    .unwrap();
        }
        common::tell(&format!(
            "nnue: {p}: {checked} evaluations after pushes and pops matched a refresh"
        ));
    }
}

#[test]
fn every_path_gives_the_same_evaluation() {
    let mut paths_seen = 0;
    for (seed, hidden, buckets) in [(1, 32, 1), (2, 64, 8), (3, 256, 4), (4, 1024, 2)] {
        let net = Network::from_file(random_net(seed, hidden, buckets), "random");
        for i in 0..40 {
            let positions = common::random_positions(
                common::start::<Magic>(i),
                Rng::new(seed * 1000 + i as u64).take(60),
            );
            for b in positions.iter().step_by(7) {
                let evals = every_path(&net, b);
                paths_seen = paths_seen.max(evals.len());
                let (_, first) = evals[0];
                assert!(
                    evals.iter().all(|&(_, e)| e == first),
                    "paths disagree on {}: {evals:?}",
                    b.to_fen()
                );
            }
        }
    }
    // Portable everywhere, and SSE2 on every x86-64 CPU.
    assert!(paths_seen >= if cfg!(target_arch = "x86_64") { 2 } else { 1 });
}

#[test]
fn incremental_accumulators_match_a_refresh_on_every_path() {
    let net = Network::from_file(random_net(7, 128, 8), "random");
    for p in common::vector_paths() {
        for seed in 0..12 {
            let r = brokkr::with_vector!(p, V => check_game(V::detect().unwrap(), &net, seed, 120));
            r.unwrap();
        }
    }
}

/// Every path's update, for every number of added and removed rows a move can
/// bring (0 to 2 each: the paths special-case the common counts), equals the
/// portable path's, wrapping included.
#[test]
fn every_path_updates_like_the_portable_path_for_every_row_count() {
    let mut rng = Rng::new(99);
    for n in [32, 256, 1024] {
        let mut row = || -> Vec<i16> { (0..n).map(|_| rng.next_u64() as i16).collect() };
        let src = row();
        let rows: Vec<Vec<i16>> = (0..4).map(|_| row()).collect();
        for na in 0..=2 {
            for ns in 0..=2 {
                let add: Vec<&[i16]> = rows[..na].iter().map(Vec::as_slice).collect();
                let sub: Vec<&[i16]> = rows[2..2 + ns].iter().map(Vec::as_slice).collect();
                let mut want = vec![0; n];
                Portable.update(&mut want, &src, &add, &sub);
                for p in common::vector_paths() {
                    let mut got = vec![0; n];
                    brokkr::with_vector!(p, V => V::detect().unwrap().update(&mut got, &src, &add, &sub));
                    assert!(got == want, "{p}: {na} added, {ns} removed, {n} wide");
                }
            }
        }
    }
}

/// The same, as a property over random games (quickcheck picks the seeds).
#[test]
fn quickcheck_random_games_agree_on_every_path() {
    fn prop(seed: u64) -> TestResult {
        let net = Network::from_file(random_net(11, 64, 8), "random");
        for p in common::vector_paths() {
            let r = brokkr::with_vector!(p, V => check_game(V::detect().unwrap(), &net, seed, 80));
            if let Err(e) = r {
                return TestResult::error(e);
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(60)
        .quickcheck(prop as fn(u64) -> TestResult);
}

#[test]
fn the_evaluation_is_symmetric_under_colour_flip() {
    // The same position with colours swapped and the board mirrored is the
    // same position for the side to move: the net must see it so.
    let net = Network::from_file(random_net(5, 64, 8), "random");
    let pairs = [
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "8/8/4k3/8/8/8/4K3/Q7 w - - 0 1",
            "q7/4k3/8/8/8/4K3/8/8 b - - 0 1",
        ),
    ];
    for (a, b) in pairs {
        let a = Board::<Magic>::from_fen(a).unwrap();
        let b = Board::<Magic>::from_fen(b).unwrap();
        assert_eq!(
            evaluate_fresh(Portable, &net, &a),
            evaluate_fresh(Portable, &net, &b)
        );
    }
}

// ---------------------------------------------------------------------------
// Through the protocol

/// The lines up to the next `readyok`.
fn sync(e: &mut common::Engine) -> Vec<String> {
    e.send("isready");
    let mut lines = e.until("readyok", |l| l == "readyok");
    lines.pop();
    lines
}

fn write_net(dir: &common::TempDir, name: &str, net: &NetFile) -> String {
    common::s(&dir.file(name, net.to_bytes())).to_string()
}

#[test]
fn evalfile_loads_a_net_and_searches_with_it() {
    let dir = common::TempDir::new("nnue-evalfile");
    let path = write_net(&dir, "random.nnue", &random_net(3, 64, 1));
    let mut e = common::Engine::uci();
    e.send(&format!("setoption name EvalFile value {path}"));
    let lines = sync(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("evaluating with") && l.contains("768 -> 64x2")),
        "{lines:?}"
    );
    e.send("setoption name UseNNUE value true");
    e.send("position startpos moves e2e4");
    let s = e.go("depth 4");
    assert!(s.nodes().unwrap() > 0);
    e.finish();
}

#[test]
fn a_bad_net_file_is_refused_and_the_old_net_kept() {
    let dir = common::TempDir::new("nnue-bad");
    let good = random_net(3, 64, 1);
    let good_path = write_net(&dir, "good.nnue", &good);
    let bytes = good.to_bytes();
    let truncated = common::s(&dir.file("truncated.nnue", &bytes[..bytes.len() - 10])).to_string();
    let mut damaged = bytes.clone();
    damaged[5000] ^= 0x40;
    let damaged = common::s(&dir.file("damaged.nnue", damaged)).to_string();
    let other = common::s(&dir.file("other.nnue", b"not a net at all")).to_string();
    // 96 is a multiple of 32: a valid shape of another width, loaded mid-game below.
    let wider = write_net(&dir, "wider.nnue", &random_net(4, 96, 1));

    // The embedded net's search, to tell the loaded net's apart from it.
    let mut plain = common::Engine::uci();
    plain.send("position startpos");
    let embedded = plain.go("depth 5").nodes();
    plain.finish();

    let mut e = common::Engine::uci();
    e.send(&format!("setoption name EvalFile value {good_path}"));
    sync(&mut e);
    e.send("position startpos");
    let before = e.go("depth 5").nodes();
    assert!(before.is_some(), "no node count: {}", e.tail());
    // The file's net is the one that evaluates: the search is not the embedded net's.
    assert_ne!(
        before, embedded,
        "EvalFile's net searched like the embedded one"
    );
    for (bad, why) in [
        (truncated.as_str(), "truncated"),
        (damaged.as_str(), "checksum"),
        (other.as_str(), "not a brokkr net"),
        ("/nonexistent/brokkr.nnue", "cannot read"),
    ] {
        e.send(&format!("setoption name EvalFile value {bad}"));
        let lines = sync(&mut e);
        assert!(
            lines
                .iter()
                .any(|l| l.contains(why) && l.contains("keeping the network")),
            "{bad}: {lines:?}"
        );
    }
    // Same net, same search: the bad files changed nothing.
    e.send("ucinewgame");
    e.send("position startpos");
    let after = e.go("depth 5").nodes();
    assert_eq!(before, after);
    // A net of another width, loaded in the middle of a game, plays on.
    e.send("position startpos moves e2e4 e7e5");
    e.go("depth 3");
    e.send(&format!("setoption name EvalFile value {wider}"));
    sync(&mut e);
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let wide = e.go("depth 5");
    assert!(
        wide.nodes().is_some() && !wide.best.is_empty(),
        "{:?}",
        wide.lines
    );
    e.send("position startpos");
    assert_ne!(
        e.go("depth 5").nodes(),
        before,
        "the 96-wide net searched like the 64-wide one"
    );
    e.finish();
}

#[test]
fn nnuepath_takes_only_paths_this_cpu_runs() {
    let mut e = common::Engine::uci();
    e.send("setoption name NNUEPath value portable");
    e.send("setoption name NNUEPath value mmx");
    let lines = sync(&mut e);
    assert!(
        lines.iter().any(|l| l.contains("bad value 'mmx'")),
        "{lines:?}"
    );
    for p in VectorPath::ALL.into_iter().filter(|p| !p.available()) {
        e.send(&format!("setoption name NNUEPath value {p}"));
        let lines = sync(&mut e);
        assert!(
            lines.iter().any(|l| l.contains("not available")),
            "{p}: {lines:?}"
        );
    }
    e.finish();
}

#[test]
fn bench_runs_the_net_on_every_path_with_one_node_count() {
    let dir = common::TempDir::new("nnue-bench");
    let path = write_net(&dir, "random.nnue", &random_net(9, 64, 8));
    let mut counts = Vec::new();
    // The default pair, and a pair the search once built with SSE2 only: every
    // built pair runs every vector path, and says which one ran.
    for pair in [&[][..], &["--bits", "table", "--slider", "magic"]] {
        for p in common::vector_paths() {
            let mut args = vec!["bench", "4", "--net", &path, "--simd", p.name()];
            args.extend_from_slice(pair);
            let o = common::brokkr(&args);
            assert!(o.status.success(), "{args:?}");
            let err = common::stderr(&o);
            let head = err.lines().next().unwrap_or("");
            assert!(
                head.ends_with(&format!(" on the {p} path")),
                "{args:?}: {head}"
            );
            if !pair.is_empty() {
                assert!(
                    head.starts_with("bench: bits table, slider magic, "),
                    "{head}"
                );
            }
            let out = String::from_utf8(o.stdout).unwrap();
            let nodes = out
                .lines()
                .find_map(|l| l.strip_prefix("Nodes searched: "))
                .unwrap()
                .to_string();
            counts.push((p, nodes));
        }
    }
    assert!(counts.iter().all(|(_, n)| *n == counts[0].1), "{counts:?}");
    let missing = VectorPath::ALL.into_iter().find(|p| !p.available());
    if let Some(p) = missing {
        let o = common::brokkr(&["bench", "2", "--net", &path, "--simd", p.name()]);
        assert!(!o.status.success());
        assert!(common::stderr(&o).contains("not available"));
    }
}

// ---------------------------------------------------------------------------
// The file format

fn tiny_net() -> NetFile {
    let hidden = 32;
    NetFile {
        version: VERSION,
        hidden,
        buckets: 2,
        kings: brokkr::nnue::file::KingLayout::NONE,
        scale: 400,
        ft_weights: (0..INPUTS * hidden)
            .map(|i| (i % 251) as i16 - 125)
            .collect(),
        ft_bias: (0..hidden).map(|i| i as i16).collect(),
        out_weights: (0..4 * hidden).map(|i| (i % 17) as i16 - 8).collect(),
        out_bias: vec![-7, 1234],
        psqt: (0..2 * INPUTS as i32).map(|i| i * 37 - 20_000).collect(),
    }
}

#[test]
fn a_net_survives_the_round_trip() {
    let net = tiny_net();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_size(VERSION, 32, 2));
    assert_eq!(NetFile::parse(&bytes).unwrap(), net);
}

/// A version-1 file (before the PSQT block) still loads, with the PSQT weights
/// zero, and evaluates as the hidden layer alone did.
#[test]
fn a_version_1_net_loads_without_psqt() {
    let mut net = tiny_net();
    let v2 = net.to_bytes();
    // Version 1: the same bytes without the PSQT block, the version and the
    // checksum rewritten.
    let mut v1 = v2[..v2.len() - 4 * INPUTS * 2].to_vec();
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    let hash = brokkr::nnue::file::fnv1a(&v1[48..]);
    v1[40..48].copy_from_slice(&hash.to_le_bytes());
    assert_eq!(v1.len(), file_size(1, 32, 2));
    net.psqt = vec![0; INPUTS * 2];
    net.version = 1;
    assert_eq!(NetFile::parse(&v1).unwrap(), net);
}

/// A version-1 file is named, like every net file, by the checksum in its
/// header (FNV-1a of the bytes after it): the hash `Network` reports, the one
/// datagen's header records and the one `nets/DEFAULT` must hold.
#[test]
fn a_version_1_net_is_named_by_its_files_checksum() {
    let v2 = tiny_net().to_bytes();
    let mut v1 = v2[..v2.len() - 4 * INPUTS * 2].to_vec();
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    let checksum = brokkr::nnue::file::fnv1a(&v1[48..]);
    v1[40..48].copy_from_slice(&checksum.to_le_bytes());
    let file = NetFile::parse(&v1).unwrap();
    assert_eq!(file.hash(), checksum);
    // Written again, it is the same file; with PSQT weights, a version-2 one.
    assert_eq!(file.to_bytes(), v1);
    let mut psqt = file.clone();
    psqt.psqt[3] = 1;
    assert_eq!(NetFile::parse(&psqt.to_bytes()).unwrap().version, VERSION);
    let dir = common::TempDir::new("nnue-v1-hash");
    let path = dir.file("v1.nnue", &v1);
    let net = Network::load(&path).unwrap();
    assert_eq!(net.hash(), checksum);
    assert!(
        net.describe().contains(&format!("hash {checksum:016x}")),
        "{}",
        net.describe()
    );
    // A version-2 file reports its own checksum too.
    let same = Network::load(&dir.file("v2.nnue", &v2)).unwrap();
    let v2_checksum = u64::from_le_bytes(v2[40..48].try_into().unwrap());
    assert_eq!(same.hash(), v2_checksum);
}

/// A net with another output scale (what `docs/scripts/net-rescale.py` writes:
/// the same weights, `SCALE` changed) is another net, so it has another name:
/// the checksum covers `SCALE` when it is not the trainer's 400. A file whose
/// `SCALE` was changed without its checksum is refused as damaged, and a net
/// at 400 keeps the name it always had, the FNV-1a of the bytes after the header.
#[test]
fn a_rescaled_net_has_a_name_of_its_own() {
    use brokkr::nnue::file::{checksum, fnv1a, TRAINED_SCALE};
    let net = tiny_net();
    let bytes = net.to_bytes();
    let stored = |b: &[u8]| u64::from_le_bytes(b[40..48].try_into().unwrap());
    assert_eq!(stored(&bytes), fnv1a(&bytes[48..]));
    assert_eq!(net.hash(), fnv1a(&bytes[48..]));

    // Only the header's SCALE changed: the old checksum no longer fits.
    let mut edited = bytes.clone();
    edited[36..40].copy_from_slice(&354u32.to_le_bytes());
    let err = NetFile::parse(&edited).unwrap_err();
    assert!(err.contains("checksum mismatch"), "{err}");

    // With the checksum the format defines, it reads, as a net of its own.
    let sum = checksum(&edited[48..], 354);
    edited[40..48].copy_from_slice(&sum.to_le_bytes());
    let rescaled = NetFile::parse(&edited).unwrap();
    assert_eq!(rescaled.scale, 354);
    assert_ne!(rescaled.hash(), net.hash());
    assert_eq!(rescaled.hash(), sum);
    assert_eq!(rescaled.to_bytes(), edited);
    assert_eq!(checksum(&bytes[48..], TRAINED_SCALE), net.hash());
    // `NetFile::rescaled` (`train --scale-to`) writes that very file, and
    // refuses a scale the format does not hold.
    assert_eq!(net.rescaled(354.0 / 400.0).unwrap().to_bytes(), edited);
    for factor in [0.0, 26.0, f64::NAN, -1.0] {
        let err = net.rescaled(factor).unwrap_err();
        assert!(
            err.contains("the format allows 1 to 10000"),
            "{factor}: {err}"
        );
    }

    // Same weights, another scale: the evaluation is the original's times
    // 354 / 400, but for the rounding of the two final divisions.
    let (a, b) = (
        Network::from_file(net.clone(), "400"),
        Network::from_file(rescaled, "354"),
    );
    assert_ne!(a.hash(), b.hash());
    let mut differ = 0;
    for seed in 0..40 {
        let board = common::start::<Magic>(seed);
        let (x, y) = (every_path(&a, &board)[0].1, every_path(&b, &board)[0].1);
        let want = x as f64 * 354.0 / 400.0;
        assert!((y as f64 - want).abs() <= 2.0, "seed {seed}: {x} -> {y}");
        differ += (x != y) as usize;
    }
    assert!(differ > 0, "the scale changed no evaluation");
}

/// A PSQT weight beyond the limit (where 32 of them could overflow) is refused.
#[test]
fn a_psqt_weight_beyond_the_limit_is_refused() {
    let mut net = tiny_net();
    net.psqt[5] = brokkr::nnue::file::PSQT_LIMIT + 1;
    let err = NetFile::parse(&net.to_bytes()).unwrap_err();
    assert!(err.contains("PSQT"), "{err}");
}

#[test]
fn damaged_files_are_refused_with_the_reason() {
    let bytes = tiny_net().to_bytes();
    let err = |b: &[u8]| NetFile::parse(b).unwrap_err();
    assert!(err(&bytes[..bytes.len() - 1]).contains("truncated"));
    assert!(err(&bytes[..20]).contains("shorter"));
    let mut b = bytes.clone();
    b[0] = b'X';
    assert!(err(&b).contains("BRKKRNN1"));
    let mut b = bytes.clone();
    *b.last_mut().unwrap() ^= 1;
    assert!(err(&b).contains("checksum"));
    let mut b = bytes.clone();
    b[16] = 48; // hidden 48: not a multiple of 32
    assert!(err(&b).contains("multiple of 32"));
    let mut b = bytes.clone();
    b[13] = 2; // 512 inputs
    assert!(err(&b).contains("inputs"));
    let mut b = bytes;
    b[8] = 4; // version 3 is the king-bucketed format, 4 none yet
    assert!(err(&b).contains("version"));
}

/// Every guard on the header refuses its bad value with a message naming it: the
/// shape (hidden 0, not a multiple of 32, over the maximum; buckets 0 or over
/// the maximum), the activation, the quantisation and the output scale.
#[test]
fn every_header_guard_refuses_its_value() {
    use brokkr::nnue::file::{MAX_BUCKETS, MAX_HIDDEN};
    let bytes = tiny_net().to_bytes();
    // The header's fields, after the 8-byte magic: version, inputs, hidden,
    // buckets, activation, QA, QB, scale (u32, little-endian).
    let field = |name: &str| {
        8 + 4 * [
            "version",
            "inputs",
            "hidden",
            "buckets",
            "activation",
            "qa",
            "qb",
            "scale",
        ]
        .iter()
        .position(|&n| n == name)
        .unwrap()
    };
    let read = |name: &str| {
        let at = field(name);
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    };
    let (qa, qb) = (read("qa"), read("qb"));
    let cases: &[(&str, u32, &str)] = &[
        ("hidden", 0, "hidden layer of 0"),
        ("hidden", (MAX_HIDDEN + 32) as u32, "hidden layer of"),
        ("buckets", 0, "0 output buckets"),
        (
            "buckets",
            (MAX_BUCKETS + 1) as u32,
            "output buckets: must be 1 to",
        ),
        ("activation", 0, "activation 0"),
        ("activation", 2, "activation 2"),
        ("qa", qa + 1, "quantisation"),
        ("qb", qb * 2, "quantisation"),
        ("scale", 0, "output scale 0"),
        ("scale", 10_001, "output scale 10001"),
    ];
    // The untouched file reads.
    assert!(NetFile::parse(&bytes).is_ok());
    for &(name, value, message) in cases {
        let mut b = bytes.clone();
        let at = field(name);
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let err = NetFile::parse(&b).expect_err(name);
        assert!(err.contains(message), "{name} = {value}: {err}");
    }
}

// ---------------------------------------------------------------------------
// The trainer and the engine

/// The trainer's integer reference (which its quantisation test checks against
/// the float net) and the engine's inference are one formula: equal on every
/// position, for nets of the trainer's own shapes.
#[test]
fn the_trainers_reference_is_the_engines_inference() {
    use brokkr::nnue::train::{export::evaluate_quantised, Net, Shape};
    for (hidden, buckets, psqt, seed) in [(32, 1, false, 1), (64, 8, true, 2), (256, 1, true, 3)] {
        // Random weights, scaled up so activations reach the clamps.
        let shape = Shape {
            kings: brokkr::nnue::file::KingLayout::NONE,
            hidden,
            buckets,
            psqt,
        };
        let mut net = Net::random(shape, seed);
        for p in &mut net.params {
            *p = (*p * 6.0).clamp(-1.98, 1.98);
        }
        let file = net.quantise();
        let engine = Network::from_file(file.clone(), "trained");
        for i in 0..20 {
            let positions = common::random_positions(
                common::start::<Magic>(i),
                Rng::new(seed * 77 + i as u64).take(50),
            );
            for b in positions.iter().step_by(5) {
                assert_eq!(
                    evaluate_quantised(&file, b),
                    evaluate_fresh(Portable, &engine, b),
                    "{}",
                    b.to_fen()
                );
            }
        }
    }
}

/// The candidate nets kept in `nets/candidates/` (the starting points of the
/// next sessions' training) load, and the folder's README names each by its
/// hash, so a damaged or swapped file is caught here rather than by a run of
/// `train --init`.
#[test]
fn every_candidate_net_loads_and_is_named_by_its_hash() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/candidates");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "nnue") {
            let net = Network::load(&path).unwrap();
            let hash = format!("{:016x}", net.hash());
            assert!(
                readme.contains(&hash),
                "{} ({hash}) is not in the README",
                path.display()
            );
            seen += 1;
        }
    }
    assert!(seen >= 1, "no candidate net in {}", dir.display());
}

#[test]
fn a_widened_net_evaluates_every_position_as_the_narrow_one() {
    // One bucket widened to 96 neurons and 3 buckets, 2 buckets widened in
    // width only, and 2 grown to 8: every path gives the narrow net's value on
    // random positions.
    for (seed, narrow, hidden, buckets) in [
        (21, random_net(21, 64, 1), 96, 3),
        (22, random_net(22, 32, 2), 64, 2),
        (23, random_net(23, 32, 2), 32, 8),
    ] {
        let wide = narrow.widened(hidden, buckets).unwrap();
        assert_eq!((wide.hidden, wide.buckets), (hidden, buckets));
        let a = Network::from_file(narrow, "narrow");
        let b = Network::from_file(wide, "wide");
        let mut checked = 0;
        for i in 0..20 {
            let positions = common::random_positions(
                common::start::<Magic>(i),
                Rng::new(seed * 1000 + i as u64).take(60),
            );
            for board in positions.iter().step_by(5) {
                assert_eq!(
                    every_path(&a, board),
                    every_path(&b, board),
                    "{}",
                    board.to_fen()
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} positions");
    }
}

#[test]
fn a_net_is_not_widened_into_buckets_that_straddle_its_own() {
    // 3 buckets split the men at 2-12, 13-23, 24-32; 8 buckets of 4 would put
    // 10-13 men (bucket 2) in two of them, so no copy keeps the evaluation.
    let net = random_net(24, 32, 3);
    let err = net.widened(32, 8).unwrap_err();
    assert!(err.contains("do not each fall within one of 3"), "{err}");
    assert!(net.widened(32, 2).unwrap_err().contains("cannot grow"));
    assert!(net.widened(16, 3).unwrap_err().contains("cannot widen"));
    assert_eq!(net.widened(64, 3).unwrap().hidden, 64);
}

// ---------------------------------------------------------------------------
// King buckets and mirroring

/// The layouts the king-bucket tests run: the named ones that change views
/// (one bucket mirrored, four by rank with and without mirroring, eight by
/// rank and file mirrored), and a made-up one where nearly every king move
/// changes the bucket.
fn test_layouts() -> Vec<KingLayout> {
    let mut table = [0u8; 32];
    for (i, e) in table.iter_mut().enumerate() {
        *e = ((i / 4 + i % 4) % 3) as u8;
    }
    let checkered = KingLayout {
        buckets: 3,
        mirrored: true,
        table,
    };
    ["mirror", "ranks4", "ranks4-mirror", "ranks4x2-mirror"]
        .into_iter()
        .map(|n| layout(n).unwrap())
        .chain([checkered])
        .collect()
}

/// Positions where the kings walk: few men, open files, castling rights left
/// (both wings), an en-passant square.
const KING_WALKS: [&str; 6] = [
    "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "8/2p5/3k4/8/3K4/8/2P5/8 b - - 0 1",
    "1r2k3/3q4/8/8/8/8/3Q4/1R2K3 w - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
];

/// A board from `KING_WALKS`, or a standard start, for seed `seed`.
fn king_walk(seed: u64) -> Board<Magic> {
    match seed as usize % (KING_WALKS.len() + 2) {
        i if i < KING_WALKS.len() => Board::from_fen(KING_WALKS[i]).unwrap(),
        _ => common::start::<Magic>(seed as usize),
    }
}

#[test]
fn king_bucketed_incremental_accumulators_match_a_refresh_on_every_path() {
    for (i, kings) in test_layouts().into_iter().enumerate() {
        let net = Network::from_file(random_kings_net(40 + i as u64, 64, 4, kings), "kings");
        for p in common::vector_paths() {
            for seed in 0..16 {
                let board = king_walk(seed);
                let r = brokkr::with_vector!(p, V => check_game_from(
                    V::detect().unwrap(), &net, board, seed, 160));
                r.unwrap();
            }
        }
    }
}

#[test]
fn king_bucketed_lazy_accumulators_match_a_refresh_through_pushes_and_pops() {
    for (i, kings) in test_layouts().into_iter().enumerate() {
        let net = Network::from_file(random_kings_net(60 + i as u64, 32, 2, kings), "kings");
        for p in common::vector_paths() {
            let mut checked = 0;
            for seed in 0..10 {
                let board = king_walk(seed);
                checked += brokkr::with_vector!(p, V => check_tree_from(
                    V::detect().unwrap(), &net, board, seed, 500))
                .unwrap();
            }
            assert!(checked > 500, "{p}: only {checked} evaluations");
        }
    }
}

/// The same as a property: quickcheck picks the seed of the net, the layout
/// and the game.
#[test]
fn quickcheck_king_bucketed_games_agree_on_every_path() {
    fn prop(seed: u64) -> TestResult {
        let layouts = test_layouts();
        let kings = layouts[seed as usize % layouts.len()];
        let net = Network::from_file(random_kings_net(seed, 32, 8, kings), "kings");
        for p in common::vector_paths() {
            let board = king_walk(seed / 7);
            let r = brokkr::with_vector!(p, V => check_game_from(
                V::detect().unwrap(), &net, board, seed, 80));
            if let Err(e) = r {
                return TestResult::error(e);
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(40)
        .quickcheck(prop as fn(u64) -> TestResult);
}

/// With mirroring, a position and its left-right mirror image (castling-free)
/// are the same inputs, so they have the same evaluation.
#[test]
fn a_mirrored_net_evaluates_a_position_and_its_mirror_image_alike() {
    let net = Network::from_file(
        random_kings_net(81, 64, 4, layout("ranks4x2-mirror").unwrap()),
        "kings",
    );
    let mirror = |fen: &str| -> String {
        let mut parts: Vec<String> = fen.split(' ').map(str::to_string).collect();
        parts[0] = parts[0]
            .split('/')
            .map(|r| r.chars().rev().collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
        parts.join(" ")
    };
    let mut checked = 0;
    for i in 0..30 {
        let positions = common::random_positions(
            Board::<Magic>::from_fen(KING_WALKS[2 + i % 4]).unwrap(),
            Rng::new(900 + i as u64).take(40),
        );
        for b in &positions {
            let fen = b.to_fen();
            let Ok(m) = Board::<Magic>::from_fen(&mirror(&fen)) else {
                continue;
            };
            assert_eq!(
                evaluate_fresh(Portable, &net, b),
                evaluate_fresh(Portable, &net, &m),
                "{fen}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked}");
}

#[test]
fn a_king_bucketed_net_survives_the_round_trip() {
    for kings in test_layouts() {
        let net = random_kings_net(3, 32, 2, kings);
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            file_size_kings(VERSION_KINGS, 32, 2, kings.buckets)
        );
        assert_eq!(&bytes[8..12], &VERSION_KINGS.to_le_bytes());
        let back = NetFile::parse(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.hash(), net.hash());
        let engine = Network::from_file(back, "kings");
        assert!(
            engine.describe().contains("768 x "),
            "{}",
            engine.describe()
        );
    }
    // Without king buckets the net stays version 2, the same bytes as before.
    let plain = random_net(3, 32, 2);
    assert_eq!(plain.to_bytes().len(), file_size(VERSION, 32, 2));
    assert_eq!(&plain.to_bytes()[8..12], &VERSION.to_le_bytes());
}

/// The bytes of `bytes` with the checksum made right again.
fn rehash(mut bytes: Vec<u8>) -> Vec<u8> {
    let hash = brokkr::nnue::file::fnv1a(&bytes[48..]);
    bytes[40..48].copy_from_slice(&hash.to_le_bytes());
    bytes
}

#[test]
fn a_bad_king_layout_is_refused_with_a_reason() {
    let kings = layout("ranks4-mirror").unwrap();
    let bytes = random_kings_net(5, 32, 1, kings).to_bytes();
    assert!(NetFile::parse(&bytes).is_ok());
    let with = |at: usize, value: &[u8]| {
        let mut b = bytes.clone();
        b[at..at + value.len()].copy_from_slice(value);
        NetFile::parse(&rehash(b)).unwrap_err()
    };
    let cases: Vec<(String, &str)> = vec![
        (with(48, &0u32.to_le_bytes()), "0 king buckets"),
        (
            with(48, &(MAX_KING_BUCKETS as u32 + 1).to_le_bytes()),
            "king buckets: must be 1 to",
        ),
        (
            with(48, &u32::MAX.to_le_bytes()),
            "king buckets: must be 1 to",
        ),
        // Five buckets where the table uses four: the fifth has no square
        // (and the file would be another size).
        (
            with(48, &5u32.to_le_bytes()),
            "king bucket 4 of 5 has no square",
        ),
        (with(48, &3u32.to_le_bytes()), "beyond the 3 king buckets"),
        (with(52, &2u32.to_le_bytes()), "king flags"),
        (with(56 + 31, &[4]), "entry 31 (rank 8, file d) is bucket 4"),
        (with(56, &[200]), "entry 0 (rank 1, file a) is bucket 200"),
    ];
    for (err, want) in cases {
        assert!(err.contains(want), "{err} (wanted {want})");
    }
    // The king block's table changed, checksum not: damaged.
    let mut b = bytes.clone();
    b[60] ^= 1;
    assert!(NetFile::parse(&b).unwrap_err().contains("checksum"));
    // Every truncation, and a byte too many, is an error (never a panic).
    for len in (0..bytes.len())
        .step_by(97)
        .chain([bytes.len() - 1, 49, 87, 88])
    {
        assert!(NetFile::parse(&bytes[..len]).is_err(), "{len} bytes");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(NetFile::parse(&rehash(longer))
        .unwrap_err()
        .contains("king bucket(s)"));
    // A version-2 file is the same net without the king block: with a king
    // block's worth of bytes more it is a wrong size, not a layout.
    let mut v2 = rehash(bytes.clone());
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert!(NetFile::parse(&v2).unwrap_err().contains("bytes where"));
    let mut v4 = bytes.clone();
    v4[8..12].copy_from_slice(&4u32.to_le_bytes());
    assert!(NetFile::parse(&v4).unwrap_err().contains("versions 1 to 3"));
}

/// A file of random bytes after a valid version-3 header is an error, never a
/// panic.
#[test]
fn random_king_blocks_never_panic() {
    let bytes = random_kings_net(6, 32, 2, layout("ranks4x2-mirror").unwrap()).to_bytes();
    let mut rng = Rng::new(17);
    for _ in 0..400 {
        let mut b = bytes.clone();
        for _ in 0..1 + rng.below(4) {
            let at = 48 + rng.below(40);
            b[at] = rng.next_u64() as u8;
        }
        let b = rehash(b);
        if let Ok(net) = NetFile::parse(&b) {
            // Only a layout that checks reads: the engine runs it.
            assert!(net.kings.check().is_ok());
            let engine = Network::from_file(net, "fuzzed");
            let board = common::start::<Magic>(0);
            let _ = evaluate_fresh(Portable, &engine, &board);
        }
    }
}

/// A net without king buckets made into one with the "ranks4" layout (every
/// bucket a copy of its rows) evaluates every position alike, on every path,
/// through a game's incremental updates too.
#[test]
fn a_net_copied_into_every_king_bucket_evaluates_as_before() {
    let plain = random_net(23, 64, 2);
    let kings = layout("ranks4").unwrap();
    let mut bucketed = plain.clone();
    bucketed.version = VERSION_KINGS;
    bucketed.kings = kings;
    bucketed.ft_weights = plain.ft_weights.repeat(kings.buckets);
    bucketed.psqt = plain.psqt.repeat(kings.buckets);
    let a = Network::from_file(plain, "plain");
    let b = Network::from_file(bucketed, "bucketed");
    for seed in 0..8 {
        let positions =
            common::random_positions(king_walk(seed), Rng::new(seed * 31 + 5).take(120));
        for board in positions.iter().step_by(3) {
            assert_eq!(
                every_path(&a, board),
                every_path(&b, board),
                "{}",
                board.to_fen()
            );
        }
    }
}

/// One stack used for one net, then reset for another of the same shape
/// (as a search after `setoption EvalFile`): the refresh cache must not carry
/// the first net's sums over.
#[test]
fn a_stack_reset_for_another_net_forgets_its_refresh_cache() {
    let kings = layout("ranks4x2-mirror").unwrap();
    let nets = [91, 92].map(|s| Network::from_file(random_kings_net(s, 32, 1, kings), "kings"));
    let mut stack = Stack::new(400);
    for (round, net) in nets.iter().chain(&nets).enumerate() {
        let mut board = king_walk(round as u64 + 2);
        stack.reset(net, &board);
        let mut rng = Rng::new(round as u64);
        for _ in 0..300 {
            let moves = board.legal_moves::<PortableBits>();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            stack.push(Delta::of_move(&board, m));
            board.make::<PortableBits>(m);
            assert_eq!(
                stack.evaluate(Portable, net, &board),
                evaluate_fresh(Portable, net, &board),
                "round {round}: {}",
                board.to_fen()
            );
        }
    }
}
