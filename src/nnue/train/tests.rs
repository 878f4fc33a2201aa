use super::*;
use crate::attacks::Magic;
use crate::bits::Portable;
use crate::board::Board;
use crate::nnue::features::{layout, View};
use crate::nnue::file::NetFile;
use crate::types::{Color, Square};

/// Positions of random games, scored by material (White's side) and given the
/// result the material says; each game's last position marked.
fn positions(games: usize, seed: u64) -> (Vec<Record>, Vec<Board<Magic>>) {
    let mut rng = Rng::new(seed);
    let (mut records, mut boards) = (Vec::new(), Vec::new());
    const VALUE: [i32; 6] = [100, 300, 320, 500, 900, 0];
    for _ in 0..games {
        let mut b = Board::<Magic>::startpos();
        for _ in 0..(20 + rng.below(100)) {
            let mut score = 0;
            for sq in (0..64).map(Square::new) {
                if let Some(p) = b.piece_on(sq) {
                    let v = VALUE[p.kind().index()];
                    score += if p.color() == Color::White { v } else { -v };
                }
            }
            score += rng.below(41) as i32 - 20;
            let result = match score {
                s if s > 150 => 2,
                s if s < -150 => 0,
                _ => 1,
            };
            records.push(Record::from_board(&b, score, result));
            boards.push(b);
            let moves = b.legal_moves::<Portable>();
            if moves.is_empty() {
                break;
            }
            b.make::<Portable>(moves.as_slice()[rng.below(moves.len())]);
        }
        records.last_mut().unwrap().set_game_end(true);
    }
    (records, boards)
}

fn config(hidden: usize, buckets: usize, epochs: usize, threads: usize) -> Config {
    Config {
        shape: Shape {
            kings: crate::nnue::file::KingLayout::NONE,
            hidden,
            buckets,
            psqt: false,
        },
        epochs,
        batch: 256,
        lr: 0.01,
        lr_end: 0.0001,
        weight_decay: 0.01,
        loss: Loss { wdl: 0.3, k: 400.0 },
        wdl_end: None,
        seed: 7,
        threads,
        checkpoint: None,
        stop_after: None,
        factoriser: false,
        init: None,
    }
}

fn quiet(_: Event<'_>) -> Result<(), String> {
    Ok(())
}

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("brokkr-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn train_gradient_matches_finite_differences() {
    gradient_matches_finite_differences(KingLayout::NONE);
}

#[test]
fn train_gradient_with_king_buckets_matches_finite_differences() {
    gradient_matches_finite_differences(layout("ranks4x2-mirror").unwrap());
    gradient_matches_finite_differences(layout("ranks4").unwrap());
}

fn gradient_matches_finite_differences(kings: KingLayout) {
    let s = Shape {
        kings,
        hidden: 32,
        buckets: 2,
        psqt: true,
    };
    let (records, _) = positions(3, 11);
    let records = &records[..records.len().min(48)];
    let loss = Loss { wdl: 0.5, k: 150.0 };
    let mut net = Net::random(s, 3);
    // Larger weights than the start, so that many accumulators sit inside the
    // clip and the gradient is not tiny.
    for p in &mut net.params {
        *p *= 4.0;
    }
    let ids: Vec<u32> = (0..records.len() as u32).collect();
    let n = records.len() as f32;
    let mut w = Worker::new(s);
    kernel::backprop_portable(&net.params, s, &loss, records, &ids, 1.0 / n, &mut w);
    let mean = |p: &[f32]| kernel::loss_sum(p, s, &loss, records) / n as f64;
    let regions = [
        (0, s.inputs() * s.hidden),
        (s.inputs() * s.hidden, s.out_w()),
        (s.out_w(), s.out_b()),
        (s.out_b(), s.psqt_at()),
        (s.psqt_at(), s.weights()),
    ];
    let mut checked = 0;
    for (from, to) in regions {
        let mut idx: Vec<usize> = (from..to).collect();
        idx.sort_by(|&a, &b| w.grad[b].abs().total_cmp(&w.grad[a].abs()));
        for &i in idx.iter().take(4) {
            let eps = 2e-3;
            let mut p = net.params.clone();
            p[i] += eps;
            let up = mean(&p);
            p[i] -= 2.0 * eps;
            let down = mean(&p);
            let numeric = (up - down) / (2.0 * eps as f64);
            let analytic = w.grad[i] as f64;
            assert!(
                (numeric - analytic).abs() <= 0.03 * analytic.abs() + 2e-5,
                "weight {i}: numeric {numeric:e}, backprop {analytic:e}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * 4 + 2, "four of each part, both output biases");
    assert!((w.loss / n as f64 - mean(&net.params)).abs() < 1e-9);
}

#[test]
fn train_vector_and_portable_paths_agree() {
    let s = Shape {
        kings: crate::nnue::file::KingLayout::NONE,
        hidden: 64,
        buckets: 8,
        psqt: true,
    };
    let (records, _) = positions(4, 5);
    let net = Net::random(s, 1);
    let loss = Loss { wdl: 0.3, k: 400.0 };
    let ids: Vec<u32> = (0..records.len() as u32).rev().collect();
    // Which kernel `backprop` takes here: without AVX2 and FMA it is the portable
    // one, and the comparison below compares it with itself. Say so, and under CI
    // fail if the kernel reports both flags (the detection would be wrong).
    #[cfg(target_arch = "x86_64")]
    let vector = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    let vector = false;
    let kernel_flags = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags_line = kernel_flags
        .lines()
        .find(|l| l.starts_with("flags"))
        .unwrap_or("");
    let kernel_has = ["avx2", "fma"]
        .iter()
        .all(|f| flags_line.split_whitespace().any(|w| w == *f));
    eprintln!(
        "train: backprop checked {}",
        if vector {
            "the AVX2/FMA kernel against the portable one"
        } else {
            "the portable kernel against itself: this CPU has no AVX2 and FMA"
        }
    );
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    assert!(
        vector || !kernel_has || !ci,
        "/proc/cpuinfo shows avx2 and fma, but the trainer does not use them"
    );
    let (mut a, mut b) = (Worker::new(s), Worker::new(s));
    kernel::backprop(&net.params, s, &loss, &records, &ids, 0.01, &mut a);
    kernel::backprop_portable(&net.params, s, &loss, &records, &ids, 0.01, &mut b);
    assert_eq!(a.loss, b.loss);
    assert!(a
        .grad
        .iter()
        .zip(&b.grad)
        .all(|(x, y)| x.to_bits() == y.to_bits()));
    assert!(a.grad.iter().any(|&x| x != 0.0));
    // Clearing leaves nothing behind.
    a.clear(s);
    assert!(a.grad.iter().all(|&x| x == 0.0));
}

/// The quantised net's evaluation in exact arithmetic (`f64` holds every
/// value here exactly), without the integer inference's two truncations.
fn dequantised(net: &NetFile, b: &Board<Magic>) -> f64 {
    let h = net.hidden;
    let stm = b.side_to_move();
    let pieces: Vec<_> = (0..64)
        .map(Square::new)
        .filter_map(|sq| b.piece_on(sq).map(|pc| (sq, pc)))
        .collect();
    let bucket = crate::nnue::features::bucket(pieces.len() as u32, net.buckets);
    let mut sum = 0i64;
    let mut linear = 0.0;
    for (view, side) in [stm, stm.flip()].into_iter().enumerate() {
        let seen = View::new(&net.kings, side, b.king_square(side));
        let mut acc: Vec<i64> = net.ft_bias.iter().map(|&x| x as i64).collect();
        for &(sq, pc) in &pieces {
            let f = seen.index(pc, sq);
            let row = f * h;
            for (a, w) in acc.iter_mut().zip(&net.ft_weights[row..row + h]) {
                *a += *w as i64;
            }
            let sign = if view == 0 { 0.5 } else { -0.5 };
            linear += sign * net.psqt[f * net.buckets + bucket] as f64;
        }
        let out = &net.out_weights[bucket * 2 * h + view * h..][..h];
        for (a, w) in acc.iter().zip(out) {
            let c = (*a).clamp(0, 255);
            sum += c * c * *w as i64;
        }
    }
    (sum as f64 / 255.0 + net.out_bias[bucket] as f64 + linear) * net.scale as f64 / (255.0 * 64.0)
}

/// The standard deviation (in cp) of the quantised net's evaluation of `b`
/// about the float net's, taking each rounding error as independent and
/// uniform: an input weight or bias within ±1/510 (so an accumulator of `n + 1`
/// of them has variance `(n + 1) / (12 × 255²)`, which moves an activation
/// `c²` inside the clip by `2c` times it), an output weight within ±1/128
/// (times its activation), the output bias and each PSQT weight within ±1/32640
/// (a PSQT weight counts half).
fn rounding_sigma(net: &Net, b: &Board<Magic>) -> f64 {
    let s = net.shape;
    let h = s.hidden;
    let p = &net.params;
    let stm = b.side_to_move();
    let pieces: Vec<_> = (0..64)
        .map(Square::new)
        .filter_map(|sq| b.piece_on(sq).map(|pc| (sq, pc)))
        .collect();
    let bucket = crate::nnue::features::bucket(pieces.len() as u32, s.buckets);
    let acc_var = (pieces.len() + 1) as f64 / (12.0 * 255.0 * 255.0);
    let psqt = if s.psqt { 2 * pieces.len() } else { 0 };
    let mut var = (1.0 + 0.25 * psqt as f64) / (12.0 * 16320.0 * 16320.0);
    for (view, side) in [stm, stm.flip()].into_iter().enumerate() {
        let seen = View::new(&s.kings, side, b.king_square(side));
        for j in 0..h {
            let mut acc = p[s.inputs() * h + j] as f64;
            for &(sq, pc) in &pieces {
                acc += p[seen.index(pc, sq) * h + j] as f64;
            }
            let c = acc.clamp(0.0, 1.0);
            let w = p[s.out_w() + bucket * 2 * h + view * h + j] as f64;
            if acc > 0.0 && acc < 1.0 {
                var += (2.0 * c * w).powi(2) * acc_var;
            }
            var += c.powi(4) / (12.0 * 64.0 * 64.0);
        }
    }
    400.0 * var.sqrt()
}

/// `--init` reads an exported net back: dequantised, it quantises to the very
/// same file, and a net with PSQT weights keeps its PSQT path.
#[test]
fn train_a_dequantised_net_quantises_back_to_its_file() {
    for psqt in [false, true] {
        let shape = Shape {
            kings: crate::nnue::file::KingLayout::NONE,
            hidden: 32,
            buckets: 2,
            psqt,
        };
        let file = Net::random(shape, 5).quantise();
        let net = dequantise(&file);
        assert_eq!(net.shape, shape);
        assert_eq!(net.quantise(), file);
    }
}

/// A net file with another output `SCALE` (as `docs/scripts/net-rescale.py`
/// writes) dequantises to a float net that evaluates as the file does: at
/// twice the scale, the trainer's net has every output weight, output bias and
/// PSQT weight doubled, exactly, and the trainer's scale again.
#[test]
fn train_a_rescaled_net_dequantises_with_its_scale_folded_in() {
    let shape = Shape {
        kings: crate::nnue::file::KingLayout::NONE,
        hidden: 32,
        buckets: 2,
        psqt: true,
    };
    let file = Net::random(shape, 9).quantise();
    let rescaled = NetFile {
        scale: 2 * file.scale,
        ..file.clone()
    };
    let back = dequantise(&rescaled).quantise();
    let double16 = |v: &[i16]| v.iter().map(|&w| 2 * w).collect::<Vec<_>>();
    let double32 = |v: &[i32]| v.iter().map(|&w| 2 * w).collect::<Vec<_>>();
    assert_eq!(back.scale, file.scale);
    assert_eq!(back.ft_weights, file.ft_weights);
    assert_eq!(back.ft_bias, file.ft_bias);
    assert_eq!(back.out_weights, double16(&file.out_weights));
    assert_eq!(back.out_bias, double32(&file.out_bias));
    assert_eq!(back.psqt, double32(&file.psqt));
    assert!(file.psqt.iter().any(|&w| w != 0));
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let b = Board::<Magic>::from_fen(fen).unwrap();
        let (one, two) = (evaluate_quantised(&file, &b), evaluate_quantised(&back, &b));
        assert!(
            (two - 2 * one).abs() <= 1,
            "{fen}: {one} doubled is not {two}"
        );
    }
}

#[test]
fn train_the_quantised_net_matches_the_float_net() {
    the_quantised_net_matches_the_float_net(false);
}

#[test]
fn train_the_quantised_net_with_psqt_matches_the_float_net() {
    the_quantised_net_matches_the_float_net(true);
}

#[test]
fn train_the_quantised_net_with_king_buckets_matches_the_float_net() {
    // Without the PSQT path: on these material-scored positions it starts near
    // the answer, and what is checked here is the hidden layer's buckets.
    quantised_net_matches_the_float_net(false, layout("ranks2-mirror").unwrap());
}

fn the_quantised_net_matches_the_float_net(psqt: bool) {
    quantised_net_matches_the_float_net(psqt, KingLayout::NONE);
}

fn quantised_net_matches_the_float_net(psqt: bool, kings: KingLayout) {
    // Enough games that the net learns material, not the games by heart.
    let (records, boards) = positions(400, 1);
    let (train_set, val) = split(&records, 0.1, 1);
    let mut cfg = config(32, 3, 4, 2);
    cfg.shape.psqt = psqt;
    cfg.shape.kings = kings;
    cfg.batch = 1024;
    cfg.loss.wdl = 0.0;
    let mut losses = Vec::new();
    let first = mean_loss(&Net::random(cfg.shape, cfg.seed), &cfg.loss, &val, 2);
    let state = train(&cfg, &train_set, &val, None, &mut |e| {
        if let Event::Epoch { val_loss, .. } = e {
            losses.push(val_loss.unwrap());
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(losses.len(), 4);
    // A PSQT path starts from the piece values, so such a net knows material
    // before its first step; it must still improve on that start.
    let goal = if psqt { 0.8 * first } else { 0.5 * first };
    assert!(
        losses[3] < goal,
        "the net learns material: {first} -> {losses:?}"
    );
    let file = NetFile::parse(&state.net.quantise().to_bytes()).unwrap();
    assert_eq!((file.hidden, file.buckets, file.scale), (32, 3, 400));
    assert_eq!(file.kings, kings);
    let (mut worst, mut spread, mut mean) = (0f64, 0f64, 0f64);
    let sample: Vec<&Board<Magic>> = boards.iter().step_by(7).collect();
    for b in &sample {
        let float = evaluate_float(&state.net, b) as f64;
        let int = evaluate_quantised(&file, b);
        let exact = dequantised(&file, b);
        assert!(
            (int as f64 - exact).abs() < 1.0 + 1.5 * 400.0 / 16320.0,
            "integer inference {int}, exact {exact}"
        );
        let diff = (int as f64 - float).abs();
        let sigma = rounding_sigma(&state.net, b);
        assert!(
            diff <= 5.0 * sigma + 1.05,
            "quantised {int} and float {float} differ by more than 5 sigma ({sigma:.2} cp)"
        );
        worst = worst.max(diff);
        mean += diff / sample.len() as f64;
        spread = spread.max(float.abs());
    }
    assert!(
        mean <= 8.0,
        "quantised and float evaluations differ by {mean} cp on average"
    );
    assert!(
        spread > 300.0,
        "the evaluations are not all near 0: {spread}"
    );
    // The side to move's view: a queen up for White is good for White and
    // bad for Black to move.
    let queen_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let w = Board::<Magic>::from_fen(&format!("{queen_up} w KQkq - 0 1")).unwrap();
    let b = Board::<Magic>::from_fen(&format!("{queen_up} b KQkq - 0 1")).unwrap();
    assert!(
        evaluate_quantised(&file, &w) > 200,
        "{}",
        evaluate_quantised(&file, &w)
    );
    assert!(
        evaluate_quantised(&file, &b) < -200,
        "{}",
        evaluate_quantised(&file, &b)
    );
}

#[test]
fn train_the_same_seed_and_threads_give_the_same_net() {
    let (records, _) = positions(20, 2);
    let (train_set, val) = split(&records, 0.1, 7);
    let run = |cfg: &Config| {
        train(cfg, &train_set, &val, None, &mut quiet)
            .unwrap()
            .net
            .quantise()
            .to_bytes()
    };
    let cfg = config(32, 2, 2, 3);
    let a = run(&cfg);
    assert_eq!(a, run(&cfg));
    let mut other = cfg.clone();
    other.seed = 8;
    assert_ne!(a, run(&other));
    // One thread trains too (another net: the sums are cut elsewhere).
    let one = run(&config(32, 2, 2, 1));
    assert_eq!(one.len(), a.len());
    // And with king buckets: the same net again, another than without.
    let mut kings = cfg.clone();
    kings.shape.kings = layout("ranks4x2-mirror").unwrap();
    let k = run(&kings);
    assert_eq!(k, run(&kings));
    assert_ne!(k.len(), a.len());
}

/// With king buckets: an exported net reads back as the same float net, and a
/// checkpoint keeps the layout.
#[test]
fn train_a_king_bucketed_net_and_checkpoint_round_trip() {
    for name in ["mirror", "ranks4", "ranks4x2-mirror"] {
        let shape = Shape {
            kings: layout(name).unwrap(),
            hidden: 32,
            buckets: 2,
            psqt: true,
        };
        let net = Net::random(shape, 5);
        let file = net.quantise();
        assert_eq!(file.version, crate::nnue::file::VERSION_KINGS);
        let back = NetFile::parse(&file.to_bytes()).unwrap();
        assert_eq!(back, file);
        assert_eq!(dequantise(&back).shape, shape);
        assert_eq!(dequantise(&back).quantise(), file);
        let state = State::new(net, 3, 10, 99);
        let bytes = state.to_bytes();
        assert_eq!(&bytes[..8], b"BRKKRTC3");
        assert_eq!(State::parse(&bytes).unwrap(), state);
        let mut bad = bytes.clone();
        bad[64..68].copy_from_slice(&0u32.to_le_bytes());
        assert!(State::parse(&bad).unwrap_err().contains("king buckets"));
    }
    // Without king buckets the checkpoint is the format it was.
    let state = State::new(Net::random(Shape::plain(32, 1, false), 5), 3, 10, 99);
    assert_eq!(&state.to_bytes()[..8], b"BRKKRTC2");
}

/// `--mirror` stays an exact symmetry with king buckets: with mirroring the
/// mirror image of a position has the very same inputs (so the same
/// evaluation); without it, the mirror image through the net whose every
/// bucket's rows are mirrored has the same evaluation (the buckets are
/// symmetric, so the king's mirror square has the same bucket).
#[test]
fn train_mirrored_positions_are_a_symmetry_with_king_buckets() {
    let (records, _) = positions(30, 8);
    let mirrors: Vec<(Record, Record)> = records
        .iter()
        .filter_map(|r| data::mirrored(r).map(|m| (*r, m)))
        .collect();
    assert!(mirrors.len() > 100, "{}", mirrors.len());
    let mirrored_net = Net::random(
        Shape {
            kings: layout("ranks4x2-mirror").unwrap(),
            hidden: 32,
            buckets: 2,
            psqt: true,
        },
        4,
    );
    let plain_shape = Shape {
        kings: layout("ranks4x2").unwrap(),
        hidden: 32,
        buckets: 2,
        psqt: true,
    };
    let net = Net::random(plain_shape, 4);
    // Every input row moved to its mirror square's (square ^ 7), PSQT too.
    let mut flipped = net.clone();
    let (h, b, s) = (32, 2, plain_shape);
    for f in 0..s.inputs() {
        let g = f ^ 7;
        flipped.params[g * h..][..h].copy_from_slice(&net.params[f * h..][..h]);
        let (pf, pg) = (s.psqt_at() + f * b, s.psqt_at() + g * b);
        flipped.params[pg..pg + b].copy_from_slice(&net.params[pf..pf + b]);
    }
    for (r, m) in &mirrors {
        let out = |n: &Net, r: &Record| kernel::output(&n.params, n.shape, r);
        // The same inputs, summed in another order (the men come square by
        // square): equal but for the float sums' rounding.
        let (a, b) = (out(&mirrored_net, r), out(&mirrored_net, m));
        assert!((a - b).abs() < 1e-5, "{a} against {b}");
        let (x, y) = (out(&net, r), out(&flipped, m));
        assert!((x - y).abs() < 1e-5, "{x} against {y}");
    }
}

/// A net without king buckets grown into an unmirrored king-bucketed one
/// evaluates every position as before (every bucket a copy); grown into a
/// mirrored one, as before where both kings stand on files a-d (no side sees a
/// mirror), and only close elsewhere.
#[test]
fn train_a_net_grown_into_king_buckets_starts_as_its_source() {
    let (_, boards) = positions(20, 6);
    let small = Net::random(Shape::plain(32, 2, true), 3);
    for name in ["ranks2", "ranks4", "ranks4x2"] {
        let shape = Shape {
            kings: layout(name).unwrap(),
            hidden: 64,
            buckets: 2,
            psqt: true,
        };
        let big = small.grown(shape, 9).unwrap();
        for b in boards.iter().step_by(3) {
            let (x, y) = (evaluate_float(&small, b), evaluate_float(&big, b));
            assert!((x - y).abs() < 1e-3, "{name}: {x} against {y}");
        }
        // The quantised nets are the same file's weights copied: the engine's
        // evaluations are equal to the centipawn.
        let (qs, qb) = (small.quantise(), big.quantise());
        for b in boards.iter().step_by(3) {
            assert_eq!(
                evaluate_quantised(&qs, b),
                evaluate_quantised(&qb, b),
                "{name}"
            );
        }
    }
    let mirrored = Shape {
        kings: layout("ranks4-mirror").unwrap(),
        hidden: 32,
        buckets: 2,
        psqt: true,
    };
    let big = small.grown(mirrored, 9).unwrap();
    let mut same = 0;
    for b in &boards {
        let left = Color::BOTH.into_iter().all(|c| b.king_square(c).file() < 4);
        if left {
            let (x, y) = (evaluate_float(&small, b), evaluate_float(&big, b));
            assert!((x - y).abs() < 1e-3, "{x} against {y}");
            same += 1;
        }
    }
    assert!(same > 10, "{same}");
    // A king-bucketed net grows only into a layout that refines its own, with
    // the same mirroring: not into fewer buckets, nor into unmirrored ones.
    for name in ["ranks4", "ranks2-mirror", "mirror", "ranks4x2"] {
        let e = big
            .grown(
                Shape {
                    kings: layout(name).unwrap(),
                    ..mirrored
                },
                9,
            )
            .unwrap_err();
        assert!(e.contains("king buckets"), "{name}: {e}");
    }
    // Into one that refines it (each rank bucket split into edge and centre
    // files) it evaluates every position exactly as before, mirrored or not.
    let finer = big
        .grown(
            Shape {
                kings: layout("ranks4x2-mirror").unwrap(),
                ..mirrored
            },
            9,
        )
        .unwrap();
    let (qb, qf) = (big.quantise(), finer.quantise());
    for b in &boards {
        let (x, y) = (evaluate_float(&big, b), evaluate_float(&finer, b));
        assert!((x - y).abs() < 1e-3, "{x} against {y}");
        assert_eq!(evaluate_quantised(&qb, b), evaluate_quantised(&qf, b));
    }
}

/// Which old king bucket each new one starts from: the refinement's map, the
/// one bucket of a net without them, and `None` for a layout that is not a
/// refinement.
#[test]
fn train_king_sources_map_each_new_bucket_to_the_old_one_it_lies_in() {
    let l = |n: &str| layout(n).unwrap();
    let four_to_eight = king_sources(&l("ranks4-mirror"), &l("ranks4x2-mirror")).unwrap();
    assert_eq!(four_to_eight, vec![0, 0, 1, 1, 2, 2, 3, 3]);
    assert_eq!(
        king_sources(&l("ranks2"), &l("ranks4")),
        Some(vec![0, 1, 1, 1])
    );
    assert_eq!(
        king_sources(&KingLayout::NONE, &l("ranks4x2-mirror")),
        Some(vec![0; 8])
    );
    assert_eq!(
        king_sources(&l("ranks4"), &l("ranks4")),
        Some(vec![0, 1, 2, 3])
    );
    assert_eq!(king_sources(&l("ranks4"), &l("ranks2")), None);
    assert_eq!(king_sources(&l("ranks4-mirror"), &l("ranks4x2")), None);
}

#[test]
fn train_a_resumed_run_ends_where_an_unbroken_one_does() {
    let (records, _) = positions(20, 3);
    let (train_set, val) = split(&records, 0.1, 7);
    let mut cfg = config(32, 2, 3, 2);
    let whole = train(&cfg, &train_set, &val, None, &mut quiet).unwrap();
    let path = temp("resume.ckpt");
    cfg.checkpoint = Some(path.clone());
    cfg.stop_after = Some(1);
    let part = train(&cfg, &train_set, &val, None, &mut quiet).unwrap();
    assert_eq!(part.epoch, 1);
    let saved = State::read(&path).unwrap();
    assert_eq!(saved, part);
    cfg.stop_after = Some(2);
    let part = train(&cfg, &train_set, &val, Some(saved), &mut quiet).unwrap();
    assert_eq!(part.epoch, 2);
    cfg.stop_after = None;
    let end = train(
        &cfg,
        &train_set,
        &val,
        Some(State::read(&path).unwrap()),
        &mut quiet,
    )
    .unwrap();
    assert_eq!(end, whole);
    assert_eq!(end.step, whole.step);
    // A checkpoint of another run is refused.
    let saved = State::read(&path).unwrap();
    let mut other = cfg.clone();
    other.seed = 99;
    let e = train(&other, &train_set, &val, Some(saved.clone()), &mut quiet).unwrap_err();
    assert!(e.contains("seed"), "{e}");
    let e = train(&cfg, &train_set[1..], &val, Some(saved.clone()), &mut quiet).unwrap_err();
    assert!(e.contains("positions"), "{e}");
    // As many positions, but other ones (one changed), or the same ones in
    // another order: refused by the fingerprint, where a count would pass.
    let mut changed = train_set.clone();
    changed[3] = val[0];
    let e = train(&cfg, &changed, &val, Some(saved.clone()), &mut quiet).unwrap_err();
    assert!(e.contains("fingerprint"), "{e}");
    let mut reordered = train_set.clone();
    reordered.swap(0, 1);
    let e = train(&cfg, &reordered, &val, Some(saved.clone()), &mut quiet).unwrap_err();
    assert!(e.contains("fingerprint"), "{e}");
    // A checkpoint of the first format (no fingerprint) still resumes, on the
    // count alone: its header without the fingerprint, magic BRKKRTC1.
    let v2 = saved.to_bytes();
    let mut v1 = b"BRKKRTC1".to_vec();
    v1.extend_from_slice(&v2[8..56]);
    v1.extend_from_slice(&v2[64..]);
    let old = State::parse(&v1).unwrap();
    assert_eq!(old.data, None);
    assert_eq!(
        State {
            data: saved.data,
            ..old.clone()
        },
        saved
    );
    cfg.stop_after = None;
    let from_old = train(&cfg, &train_set, &val, Some(old), &mut quiet).unwrap();
    assert_eq!(from_old.net, whole.net);
    let mut other = cfg.clone();
    other.shape.hidden = 64;
    let e = train(&other, &train_set, &val, Some(saved), &mut quiet).unwrap_err();
    assert!(e.contains("hidden"), "{e}");
    // Damaged files.
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(State::parse(&bytes[..bytes.len() - 4])
        .unwrap_err()
        .contains("truncated"));
    *bytes.last_mut().unwrap() ^= 1;
    assert!(State::parse(&bytes).unwrap_err().contains("checksum"));
    assert!(State::parse(b"hello").is_err());
    assert!(State::read(&temp("no-such.ckpt"))
        .unwrap_err()
        .contains("cannot read"));
}

#[test]
fn train_bad_settings_are_errors() {
    let (records, _) = positions(2, 4);
    let fail = |f: &dyn Fn(&mut Config)| {
        let mut cfg = config(32, 1, 1, 1);
        f(&mut cfg);
        train(&cfg, &records, &[], None, &mut quiet).unwrap_err()
    };
    assert!(fail(&|c| c.shape.hidden = 48).contains("multiple of 32"));
    assert!(fail(&|c| c.shape.buckets = 9).contains("buckets"));
    assert!(fail(&|c| c.lr = 0.0).contains("--lr"));
    assert!(fail(&|c| c.loss.wdl = 2.0).contains("--wdl"));
    assert!(fail(&|c| c.wdl_end = Some(-0.1)).contains("--wdl-end"));
    assert!(fail(&|c| c.threads = 0).contains("--threads"));
    assert!(fail(&|c| c.batch = 0).contains("--batch"));
    let cfg = config(32, 1, 1, 1);
    assert!(train(&cfg, &[], &[], None, &mut quiet).is_err());
    // The callback's error stops the run.
    let e = train(&cfg, &records, &[], None, &mut |_| Err("stop".to_string())).unwrap_err();
    assert_eq!(e, "stop");
}

#[test]
fn train_the_learning_rate_falls_from_lr_to_lr_end() {
    let cfg = config(32, 1, 1, 1);
    assert_eq!(cfg.rate(1, 100), cfg.lr);
    assert!((cfg.rate(100, 100) - cfg.lr_end).abs() < 1e-9);
    let mid = cfg.rate(50, 99);
    assert!((mid - (cfg.lr + cfg.lr_end) / 2.0).abs() < 1e-6);
    assert_eq!(cfg.rate(1, 1), cfg.lr);
}

#[test]
fn train_the_result_weight_moves_from_wdl_to_wdl_end() {
    let mut cfg = config(32, 1, 1, 1);
    // Without --wdl-end every step has --wdl.
    for t in [1, 50, 100] {
        assert_eq!(cfg.loss_at(t, 100).wdl, 0.3);
    }
    assert_eq!(cfg.final_loss().wdl, 0.3);
    cfg.wdl_end = Some(0.7);
    assert_eq!(cfg.loss_at(1, 101).wdl, 0.3);
    assert!((cfg.loss_at(51, 101).wdl - 0.5).abs() < 1e-6);
    assert!((cfg.loss_at(101, 101).wdl - 0.7).abs() < 1e-6);
    assert_eq!(cfg.final_loss().wdl, 0.7);
    assert_eq!(cfg.loss_at(51, 101).k, cfg.loss.k);
    // A schedule trains another net than its first step's weight alone.
    let (records, _) = positions(4, 8);
    let mut fixed = config(32, 1, 2, 1);
    fixed.loss.wdl = 0.0;
    let mut moving = fixed.clone();
    moving.wdl_end = Some(1.0);
    let a = train(&fixed, &records, &[], None, &mut quiet).unwrap();
    let b = train(&moving, &records, &[], None, &mut quiet).unwrap();
    assert_ne!(a.net, b.net);
}

/// `--init` with a larger shape: the grown net evaluates every position as the
/// net it grew from (each bucket count, with PSQT kept or added), and training
/// it moves the new neurons' output weights, which start at zero (zero input
/// weights would never learn: that is why they start random).
#[test]
fn train_a_grown_net_starts_as_its_source_and_its_new_neurons_learn() {
    let (records, boards) = positions(20, 5);
    let (train_set, val) = split(&records, 0.1, 7);
    for (psqt, to_psqt) in [(false, false), (false, true), (true, true)] {
        let mut small = Net::random(
            Shape {
                kings: crate::nnue::file::KingLayout::NONE,
                hidden: 32,
                buckets: 2,
                psqt,
            },
            3,
        );
        // Distinct buckets, so that a wrong copy shows.
        let out_b = small.shape.out_b();
        small.params[out_b + 1] = 0.25;
        for (hidden, buckets) in [(32, 2), (64, 2), (32, 8), (96, 4)] {
            let shape = Shape {
                kings: crate::nnue::file::KingLayout::NONE,
                hidden,
                buckets,
                psqt: to_psqt,
            };
            let big = small.grown(shape, 9).unwrap();
            assert_eq!(big.shape, shape);
            for b in boards.iter().step_by(7) {
                let (x, y) = (evaluate_float(&small, b), evaluate_float(&big, b));
                assert!((x - y).abs() < 1e-3, "{shape:?}: {x} against {y}");
            }
        }
    }
    let small = Net::random(
        Shape {
            kings: crate::nnue::file::KingLayout::NONE,
            hidden: 32,
            buckets: 1,
            psqt: true,
        },
        3,
    );
    let shape = Shape {
        kings: crate::nnue::file::KingLayout::NONE,
        hidden: 64,
        buckets: 1,
        psqt: true,
    };
    assert!(small
        .grown(
            Shape {
                kings: crate::nnue::file::KingLayout::NONE,
                hidden: 32,
                buckets: 1,
                psqt: false
            },
            9
        )
        .is_err());
    // 5 buckets of men from 2 (2-8, 9-15, 16-22, ...) straddle 2's (2-17, 18-32).
    let two = Net::random(
        Shape {
            kings: crate::nnue::file::KingLayout::NONE,
            hidden: 32,
            buckets: 2,
            psqt: true,
        },
        3,
    );
    let e = two
        .grown(
            Shape {
                kings: crate::nnue::file::KingLayout::NONE,
                hidden: 32,
                buckets: 5,
                psqt: true,
            },
            9,
        )
        .unwrap_err();
    assert!(
        e.contains("bucket 2 would hold positions of old buckets 0 and 1"),
        "{e}"
    );
    assert!(Net::random(shape, 3).grown(small.shape, 9).is_err());
    let mut cfg = config(64, 1, 1, 2);
    cfg.shape.psqt = true;
    cfg.init = Some(small.grown(shape, 9).unwrap());
    let net = train(&cfg, &train_set, &val, None, &mut quiet).unwrap().net;
    let out_w = &net.params[shape.out_w()..shape.out_b()];
    let moved = |half: &[f32]| half[32..].iter().filter(|w| **w != 0.0).count();
    assert!(moved(&out_w[..64]) > 16 && moved(&out_w[64..]) > 16);
}

/// The factoriser's step: a gradient on one input row of one king bucket moves
/// that input's row in every bucket by the shared part's step, and its own
/// bucket's row by its own step besides. Adam's first step is `lr` against the
/// gradient's sign whatever its size, so the moves are exact: `2 lr` in the
/// bucket the gradient came from, `lr` in each other one, and nothing anywhere
/// without the factoriser.
#[test]
fn train_the_factoriser_moves_every_bucket_by_the_shared_step() {
    let shape = Shape {
        kings: layout("ranks4x2-mirror").unwrap(),
        hidden: 32,
        buckets: 1,
        psqt: false,
    };
    let (row, neuron, from) = (100, 5, 3);
    let at = |bucket: usize| (bucket * INPUTS + row) * shape.hidden + neuron;
    let mut g = vec![0.0; shape.weights()];
    g[at(from)] = 0.25;
    let net = Net::random(shape, 5);
    let lr = 0.001;
    for factored in [false, true] {
        let mut state = State::new(net.clone(), 1, 10, 9);
        state.factor = factored.then(|| Factor::new(shape.hidden));
        state.adam(&g, lr, 0.0);
        for bucket in 0..8 {
            let moved = net.params[at(bucket)] - state.net.params[at(bucket)];
            let want = match (factored, bucket == from) {
                (false, false) => 0.0,
                (false, true) | (true, false) => lr,
                (true, true) => 2.0 * lr,
            };
            assert!((moved - want).abs() < 1e-6, "{factored} {bucket}: {moved}");
        }
        // Every other weight stays where it was.
        let changed = (0..shape.weights())
            .filter(|&i| net.params[i] != state.net.params[i])
            .count();
        assert_eq!(changed, if factored { 8 } else { 1 });
    }
}

/// A run with the factoriser: its checkpoint keeps the factor's moments
/// (`BRKKRTC4`), a resumed run ends where an unbroken one does, the net it
/// trains is another than without, and the settings that cannot go together
/// are refused.
#[test]
fn train_a_factorised_run_resumes_and_checks_its_settings() {
    let (records, _) = positions(20, 3);
    let (train_set, val) = split(&records, 0.1, 7);
    let mut cfg = config(32, 2, 2, 2);
    cfg.shape.kings = layout("ranks4-mirror").unwrap();
    let plain = train(&cfg, &train_set, &val, None, &mut quiet).unwrap();
    cfg.factoriser = true;
    let whole = train(&cfg, &train_set, &val, None, &mut quiet).unwrap();
    assert!(whole.factor.is_some());
    assert_ne!(whole.net, plain.net);
    let path = temp("factor.ckpt");
    cfg.checkpoint = Some(path.clone());
    cfg.stop_after = Some(1);
    let part = train(&cfg, &train_set, &val, None, &mut quiet).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"BRKKRTC4");
    let saved = State::parse(&bytes).unwrap();
    assert_eq!(saved, part);
    assert!(State::parse(&bytes[..bytes.len() - 4])
        .unwrap_err()
        .contains("truncated"));
    cfg.stop_after = None;
    let end = train(&cfg, &train_set, &val, Some(saved.clone()), &mut quiet).unwrap();
    assert_eq!(end, whole);
    // A checkpoint with the factor does not resume a run without it, nor the
    // other way round.
    let mut without = cfg.clone();
    without.factoriser = false;
    let e = train(&without, &train_set, &val, Some(saved), &mut quiet).unwrap_err();
    assert!(e.contains("--factoriser"), "{e}");
    let e = train(&cfg, &train_set, &val, Some(plain), &mut quiet).unwrap_err();
    assert!(e.contains("--factoriser"), "{e}");
    // One king bucket has nothing to share.
    for name in ["none", "mirror"] {
        cfg.shape.kings = layout(name).unwrap_or(KingLayout::NONE);
        let e = train(&cfg, &train_set, &val, None, &mut quiet).unwrap_err();
        assert!(e.contains("--factoriser needs"), "{name}: {e}");
    }
}
