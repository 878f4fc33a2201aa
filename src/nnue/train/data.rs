//! The trainer's data: labelled positions read from text (`FEN | score |
//! result`, as `brokkr datagen` writes and `brokkr tune` reads) or marlinformat
//! files, held in memory as 32-byte [`Record`]s, split into training and
//! validation sets by whole games, and shuffled each epoch.
//!
//! Data from other tools marks no games (byte 31 of a marlinformat record is 0,
//! and a text file has no `# game` lines). Such a file would be one game, and
//! since one game always stays for training, nothing would be held out; so its
//! positions are cut into blocks of [`BLOCK`] consecutive ones, which stand in
//! for its games.

use crate::attacks::Magic;
use crate::nnue::file::{fnv1a, fnv1a_from};
use crate::nnue::marlin::{self, Record};

/// Positions whose score is this large (either way) are left out: mate scores
/// and near-mates say nothing the net can learn from the material.
pub const MAX_SCORE: i32 = 3000;

/// Positions in a block, the stand-in for a game in a file that marks none: a
/// game's length or so, since consecutive positions are mostly of one game and
/// alike (a validation set that shares games with the training set measures
/// too little), and small against a file's length, since the share held out
/// passes `--val` by less than a block.
pub const BLOCK: usize = 256;

/// What [`load`] read.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The positions kept, each game's last one marked ([`Record::is_game_end`]).
    pub records: Vec<Record>,
    /// Positions left out for their score (|score| >= [`MAX_SCORE`]).
    pub skipped: usize,
    /// Game ends read: `# game` lines and marked records (kept or not).
    pub marks: usize,
    /// The files that marked no game, whose positions were cut into blocks of
    /// [`BLOCK`].
    pub unmarked: Vec<String>,
    /// The number of those blocks.
    pub blocks: usize,
}

/// Whether `path` names a marlinformat file (`.bin` or `.marlin`).
pub fn is_marlin(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".bin") || lower.ends_with(".marlin")
}

/// Read every file of `paths` (text, or marlinformat by [`is_marlin`]) on
/// `threads` threads. A file that marks no game is cut into blocks of
/// [`BLOCK`] positions (listed in [`Loaded::unmarked`]). A file that cannot be
/// read, a bad line or record, or no position at all is an error naming the
/// file (and line or record).
pub fn load(paths: &[String], threads: usize) -> Result<Loaded, String> {
    let mut all = Loaded::default();
    for path in paths {
        let (before, marks) = (all.records.len(), all.marks);
        if is_marlin(path) {
            load_marlin(path, &mut all)?;
        } else {
            load_text(path, threads.max(1), &mut all)?;
        }
        if all.marks == marks && all.records.len() > before {
            let kept = &mut all.records[before..];
            for block in kept.chunks_mut(BLOCK) {
                block.last_mut().expect("a block").set_game_end(true);
            }
            all.blocks += kept.len().div_ceil(BLOCK);
            all.unmarked.push(path.clone());
        }
        // A file's end ends its last game.
        if all.records.len() > before {
            if let Some(last) = all.records.last_mut() {
                last.set_game_end(true);
            }
        }
    }
    if all.records.is_empty() {
        return Err(if all.skipped > 0 {
            format!(
                "no positions to train on: all {} had |score| >= {MAX_SCORE}",
                all.skipped
            )
        } else {
            "no positions to train on: the data is empty".to_string()
        });
    }
    Ok(all)
}

/// Keep `r` unless its score is a mate's; a skipped game end moves to the
/// position kept before it.
fn keep(out: &mut Loaded, r: Record) {
    out.marks += usize::from(r.is_game_end());
    if (r.score() as i32).abs() >= MAX_SCORE {
        out.skipped += 1;
        if r.is_game_end() {
            if let Some(last) = out.records.last_mut() {
                last.set_game_end(true);
            }
        }
    } else {
        out.records.push(r);
    }
}

fn load_marlin(path: &str, out: &mut Loaded) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    if bytes.len() % marlin::SIZE != 0 {
        return Err(format!(
            "{path}: {} bytes, not a whole number of {}-byte marlinformat records",
            bytes.len(),
            marlin::SIZE
        ));
    }
    out.records.reserve(bytes.len() / marlin::SIZE);
    for (i, chunk) in bytes.chunks_exact(marlin::SIZE).enumerate() {
        let r = Record(chunk.try_into().expect("32 bytes"));
        r.check()
            .map_err(|e| format!("{path}: record {} (byte {}): {e}", i + 1, i * marlin::SIZE))?;
        keep(out, r);
    }
    Ok(())
}

/// One thread's share of a text file.
#[derive(Default)]
struct Part {
    loaded: Loaded,
    /// A `# game` line came before the part's first position: it ends the game
    /// of the part before.
    leading_end: bool,
    /// Lines in the part.
    lines: usize,
    /// The first bad line: its number within the part, and why.
    error: Option<(usize, String)>,
}

fn parse_part(text: &str) -> Part {
    let mut part = Part::default();
    for (i, line) in text.lines().enumerate() {
        part.lines = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('#') {
            if line.starts_with("# game") {
                part.loaded.marks += 1;
                match part.loaded.records.last_mut() {
                    Some(last) => last.set_game_end(true),
                    None => part.leading_end = true,
                }
            }
            continue;
        }
        match crate::eval::tune::parse_line::<Magic>(line) {
            Ok((sample, board)) => {
                let result = match sample.result {
                    r if r > 0.75 => marlin::WHITE_WIN,
                    r if r > 0.25 => marlin::DRAW,
                    _ => marlin::BLACK_WIN,
                };
                keep(
                    &mut part.loaded,
                    Record::from_board(&board, sample.score, result),
                );
            }
            Err(e) => {
                part.error = Some((i, e));
                return part;
            }
        }
    }
    part
}

fn load_text(path: &str, threads: usize, out: &mut Loaded) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{path}: not UTF-8 text (byte {}); a marlinformat file must be named .bin or .marlin",
            e.utf8_error().valid_up_to()
        )
    })?;
    // Cut the text into one part a thread, at line breaks.
    let mut cuts = vec![0];
    for t in 1..threads {
        let at = (text.len() * t / threads).max(*cuts.last().expect("one cut"));
        // After a line break: a character boundary.
        let at = text.as_bytes()[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| at + i + 1);
        cuts.push(at);
    }
    cuts.push(text.len());
    let parts: Vec<Part> = std::thread::scope(|s| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let piece = &text[w[0]..w[1]];
                s.spawn(move || parse_part(piece))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| Part {
                    error: Some((0, "a parsing thread failed".to_string())),
                    ..Part::default()
                })
            })
            .collect()
    });
    let mut first_line = 1;
    for part in parts {
        if let Some((i, e)) = part.error {
            return Err(format!("{path}:{}: {e}", first_line + i));
        }
        if part.leading_end {
            if let Some(last) = out.records.last_mut() {
                last.set_game_end(true);
            }
        }
        out.records.extend_from_slice(&part.loaded.records);
        out.skipped += part.loaded.skipped;
        out.marks += part.loaded.marks;
        first_line += part.lines;
    }
    Ok(())
}

/// The games of `records`: the ranges that end at each marked position (and at
/// the end).
pub fn games(records: &[Record]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, r) in records.iter().enumerate() {
        if r.is_game_end() || i + 1 == records.len() {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    out
}

/// Split `records` into training and validation sets: whole games (or the
/// blocks [`load`] made of a file without games), picked at random (by `seed`)
/// for validation until they hold `fraction` of the positions. At least one
/// game stays for training, so with one game nothing is held out.
pub fn split(records: &[Record], fraction: f64, seed: u64) -> (Vec<Record>, Vec<Record>) {
    let games = games(records);
    let target = (records.len() as f64 * fraction.clamp(0.0, 1.0)).round() as usize;
    let mut order: Vec<usize> = (0..games.len()).collect();
    Rng::new(seed ^ 0x005e_ed0f_da7a_5b17).shuffle(&mut order);
    let mut held = vec![false; games.len()];
    let mut count = 0;
    for &g in order.iter().take(games.len().saturating_sub(1)) {
        if count >= target {
            break;
        }
        held[g] = true;
        count += games[g].len();
    }
    partition(records, games, &held)
}

/// Split `records` as [`split`] does, but hold out each game by a hash of its
/// own records and `seed` alone, about `fraction` of the games (not exactly
/// of the positions). Why: [`split`] shuffles the indices of all the games
/// read, so adding or dropping a file moves every game in or out of the
/// validation set, and a net trained on from its parent is then validated on
/// games the parent learned. Here a game is held out or not whatever else is
/// read, so a chain of nets trained this way never trains on one of its
/// held-out games. At least one game stays for training.
pub fn split_stable(records: &[Record], fraction: f64, seed: u64) -> (Vec<Record>, Vec<Record>) {
    let games = games(records);
    // A game is held out when its hash falls in the lowest `fraction` of the
    // u64 range; f64 to u64 saturates, and 0 holds out nothing.
    let limit = (fraction.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    let mut held: Vec<bool> = games
        .iter()
        .map(|g| game_hash(&records[g.clone()], seed) < limit)
        .collect();
    if held.iter().all(|&h| h) {
        if let Some(last) = held.last_mut() {
            *last = false;
        }
    }
    partition(records, games, &held)
}

/// The training and validation sets: the games marked `held` for validation,
/// the rest for training, in their order.
fn partition(
    records: &[Record],
    games: Vec<std::ops::Range<usize>>,
    held: &[bool],
) -> (Vec<Record>, Vec<Record>) {
    let count = games
        .iter()
        .zip(held)
        .filter(|(_, &h)| h)
        .map(|(g, _)| g.len())
        .sum();
    let (mut train, mut val) = (Vec::new(), Vec::with_capacity(count));
    train.reserve(records.len() - count);
    for (range, &held) in games.into_iter().zip(held) {
        if held {
            val.extend_from_slice(&records[range]);
        } else {
            train.extend_from_slice(&records[range]);
        }
    }
    (train, val)
}

/// FNV-1a (the net file's checksum) over `seed` and every byte of a game's
/// records, finished by SplitMix64's mixer (without [`Rng`]'s step) so that
/// the top bits, which the threshold reads, depend on every byte.
fn game_hash(game: &[Record], seed: u64) -> u64 {
    let mut h = game
        .iter()
        .fold(fnv1a(&seed.to_le_bytes()), |h, r| fnv1a_from(h, &r.0));
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// SplitMix64: a small, fast generator for initial weights and shuffles.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A whole number below `n` (`n > 0`), without modulo bias worth noting.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `[-1, 1)`.
    pub fn symmetric(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 23) as f32) - 1.0
    }

    /// Shuffle `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The order of the training positions in `epoch` (from 1): a shuffle that
/// depends only on the seed and the epoch, so a resumed run sees the same
/// orders as one that was not stopped.
pub fn epoch_order(len: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len as u32).collect();
    let mut rng = Rng::new(seed ^ (epoch as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
    rng.next_u64();
    rng.shuffle(&mut order);
    order
}

/// The position `r` mirrored left to right (a-file to h-file), with the same
/// score and result: an exact symmetry of chess without castling, so a
/// castling-free position teaches the net twice. `None` for a position with a
/// castling right (the mirrored position would castle on the wrong side) or a
/// record that does not decode.
pub fn mirrored(r: &Record) -> Option<Record> {
    use crate::attacks::Magic;
    use crate::board::Board;
    let board = r.to_board::<Magic>().ok()?;
    if board.castling_rights() != 0 {
        return None;
    }
    let fen = board.to_fen();
    let mut fields = fen.split(' ');
    let placement = fields.next()?;
    let side = fields.next()?;
    let _castling = fields.next()?;
    let ep = fields.next()?;
    let rest: Vec<&str> = fields.collect();
    let mirror_rank = |rank: &str| rank.chars().rev().collect::<String>();
    let placement: Vec<String> = placement.split('/').map(mirror_rank).collect();
    let ep = match ep.as_bytes() {
        [f @ b'a'..=b'h', rank] => format!("{}{}", (b'h' - (f - b'a')) as char, *rank as char),
        _ => "-".to_string(),
    };
    let fen = format!("{} {side} - {ep} {}", placement.join("/"), rest.join(" "));
    let b = Board::<Magic>::from_fen(&fen).ok()?;
    let mut m = Record::from_board(&b, r.score() as i32, r.result());
    // Keep brokkr's own marks (the end of a game) as they were.
    m.0[31] = r.0[31];
    Some(m)
}

/// `records` with the mirror image of every castling-free one added after them
/// (see [`mirrored`]).
pub fn with_mirrors(mut records: Vec<Record>) -> Vec<Record> {
    let extra: Vec<Record> = records.iter().filter_map(mirrored).collect();
    records.extend(extra);
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn temp(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!("brokkr-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name).to_string_lossy().into_owned()
    }

    const TEXT: &str = "\
# brokkr datagen v1: test
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 1.0
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 25 | 1.0
# game 1: 1-0 by checkmate
8/8/8/8/8/8/8/K6k w - - 0 60 | 0 | 0.5
8/8/8/8/8/8/1Q6/K6k w - - 0 60 | 5000 | 0.5

8/8/8/8/8/8/1Q6/K6k b - - 0 60 | -3000 | 0.5
# game 2: 1/2-1/2
# a comment
8/8/8/8/8/8/1q6/K6k w - - 0 70 | -900 | 0.0
";

    #[test]
    fn train_text_and_marlin_load_alike() {
        let txt = temp("alike.txt");
        std::fs::write(&txt, TEXT).unwrap();
        for threads in 1..=4 {
            let l = load(std::slice::from_ref(&txt), threads).unwrap();
            assert_eq!((l.records.len(), l.skipped), (4, 2), "threads {threads}");
            let ends: Vec<bool> = l.records.iter().map(Record::is_game_end).collect();
            assert_eq!(ends, [false, true, true, true]);
            assert_eq!(l.records[0].score(), 30);
            assert_eq!(l.records[3].result(), marlin::BLACK_WIN);
            assert_eq!(l.records[2].result(), marlin::DRAW);
        }
        let l = load(std::slice::from_ref(&txt), 2).unwrap();
        let bin = temp("alike.bin");
        let bytes: Vec<u8> = l.records.iter().flat_map(|r| r.0).collect();
        std::fs::write(&bin, bytes).unwrap();
        let m = load(std::slice::from_ref(&bin), 2).unwrap();
        assert_eq!(m.records, l.records);
        // Two files: each file's end ends a game.
        let both = load(&[bin.clone(), txt.clone()], 3).unwrap();
        assert_eq!(both.records.len(), 8);
        assert_eq!(games(&both.records).len(), 6);
    }

    #[test]
    fn train_bad_data_is_an_error() {
        let err = |name: &str, content: &[u8]| {
            let p = temp(name);
            std::fs::write(&p, content).unwrap();
            load(&[p], 2).unwrap_err()
        };
        assert!(load(&[temp("missing.txt")], 1)
            .unwrap_err()
            .contains("cannot read"));
        let e = err("garbage.txt", b"# x\nhello world\n");
        assert!(e.contains("garbage.txt:2:"), "{e}");
        let e = err("badfen.txt", TEXT.replace("K6k w", "K6x w").as_bytes());
        assert!(e.contains("badfen.txt:5:") && e.contains("FEN"), "{e}");
        let e = err("badscore.txt", b"8/8/8/8/8/8/8/K6k w - - 0 1 | x | 1.0\n");
        assert!(e.contains("score"), "{e}");
        assert!(err("empty.txt", b"").contains("empty"));
        assert!(err("comments.txt", b"# only\n# comments\n").contains("empty"));
        assert!(err("mates.txt", b"8/8/8/8/8/8/8/K6k w - - 0 1 | 5000 | 1.0\n").contains("3000"));
        assert!(err("binary.txt", &[0xff, 0xfe, 0]).contains("UTF-8"));
        assert!(err("short.bin", &[0; 33]).contains("whole number"));
        let mut r = Record::from_board(&crate::board::Board::<Magic>::startpos(), 0, 1).0;
        r[30] = 7;
        let e = err("bad.bin", &[[0; 32], r].concat());
        assert!(e.contains("record 1"), "{e}");
        assert!(err("empty.bin", b"").contains("empty"));
    }

    #[test]
    fn train_validation_keeps_games_whole() {
        let start = Record::from_board(&crate::board::Board::<Magic>::startpos(), 0, 1);
        let mut records = Vec::new();
        for game in 0..50u16 {
            for i in 0..(game % 7 + 1) {
                let mut r = start;
                r.0[28..30].copy_from_slice(&(game as i16).to_le_bytes());
                r.set_game_end(i == game % 7);
                records.push(r);
            }
        }
        let (train, val) = split(&records, 0.2, 9);
        assert_eq!(train.len() + val.len(), records.len());
        let target = (records.len() as f64 * 0.2).round() as usize;
        assert!(
            val.len() >= target && val.len() < target + 7,
            "{}",
            val.len()
        );
        for set in [&train, &val] {
            for g in games(set) {
                let game = set[g.start].score();
                let n = g.len() as i16;
                assert_eq!(n, game % 7 + 1, "game {game} whole");
                assert!(set[g].iter().all(|r| r.score() == game));
            }
        }
        assert_eq!(split(&records, 0.2, 9).1, val, "the seed decides");
        assert_ne!(split(&records, 0.2, 10).1, val);
        assert!(split(&records, 0.0, 9).1.is_empty());
        // One game: nothing held out.
        let one = &records[..1];
        assert_eq!(split(one, 0.5, 1).0.len(), 1);
    }

    #[test]
    fn train_stable_validation_does_not_move_with_other_files() {
        let start = Record::from_board(&crate::board::Board::<Magic>::startpos(), 0, 1);
        let game = |id: i16, len: i16| {
            (0..len).map(move |i| {
                let mut r = start;
                r.0[28..30].copy_from_slice(&id.to_le_bytes());
                r.set_game_end(i + 1 == len);
                r
            })
        };
        let first: Vec<Record> = (0..400).flat_map(|g| game(g, g % 5 + 1)).collect();
        let other: Vec<Record> = (1000..1300).flat_map(|g| game(g, 3)).collect();
        let (train, val) = split_stable(&first, 0.2, 9);
        assert_eq!(train.len() + val.len(), first.len());
        let (held, all) = (games(&val).len(), games(&first).len());
        assert!((50..110).contains(&held), "{held} of {all} games held out");
        for set in [&train, &val] {
            for g in games(set) {
                let id = set[g.start].score();
                assert_eq!(g.len() as i16, id % 5 + 1, "game {id} whole");
            }
        }
        // Another file read before or after this one holds out the same
        // games of this one: the point of the stable split.
        let is_first = |r: &Record| r.score() < 1000;
        for both in [[&other, &first], [&first, &other]] {
            let records: Vec<Record> = both.into_iter().flatten().copied().collect();
            let (_, v) = split_stable(&records, 0.2, 9);
            let mine: Vec<Record> = v.into_iter().filter(is_first).collect();
            assert_eq!(mine, val);
        }
        // `split` does move them: what this split is for.
        let records: Vec<Record> = other.iter().chain(&first).copied().collect();
        let moved: Vec<Record> = split(&records, 0.2, 9)
            .1
            .into_iter()
            .filter(is_first)
            .collect();
        assert_ne!(moved, split(&first, 0.2, 9).1);
        assert_ne!(split_stable(&first, 0.2, 10).1, val, "the seed decides");
        assert!(split_stable(&first, 0.0, 9).1.is_empty());
        assert_eq!(
            split_stable(&first[..1], 0.99, 1).0.len(),
            1,
            "one game stays"
        );
    }

    #[test]
    fn train_a_file_without_game_marks_is_cut_into_blocks() {
        let start = Record::from_board(&crate::board::Board::<Magic>::startpos(), 0, 1);
        let n = 2 * BLOCK + 10;
        let bin = temp("unmarked.bin");
        std::fs::write(&bin, start.0.repeat(n)).unwrap();
        let ends = |l: &Loaded| -> Vec<usize> {
            (0..l.records.len())
                .filter(|&i| l.records[i].is_game_end())
                .collect()
        };
        let l = load(std::slice::from_ref(&bin), 1).unwrap();
        assert_eq!(ends(&l), [BLOCK - 1, 2 * BLOCK - 1, n - 1]);
        assert_eq!(
            (l.unmarked.as_slice(), l.blocks),
            (std::slice::from_ref(&bin), 3)
        );
        // Whole blocks are held out, passing the share asked for by less than one.
        let (train, val) = split(&l.records, 0.3, 1);
        let target = (n as f64 * 0.3).round() as usize;
        assert!([BLOCK, BLOCK + 10].contains(&val.len()) && val.len() >= target);
        assert_eq!(train.len() + val.len(), n);
        // A text file without `# game` lines too; one with a game mark is read
        // as it marks its games, beside the other.
        let lines = "8/8/8/8/8/8/8/K6k w - - 0 1 | 3 | 0.5\n".repeat(BLOCK + 1);
        let txt = temp("unmarked.txt");
        std::fs::write(&txt, &lines).unwrap();
        let marked = temp("marked.txt");
        std::fs::write(&marked, format!("{lines}# game 1: 1/2-1/2\n{lines}")).unwrap();
        let l = load(&[txt.clone(), marked], 3).unwrap();
        assert_eq!(ends(&l), [BLOCK - 1, BLOCK, 2 * BLOCK + 1, 3 * BLOCK + 2]);
        assert_eq!((l.unmarked, l.blocks), (vec![txt], 2));
        // A file whose only mark is on a record left out (a mate score) marks
        // its games too.
        let mut mate = start;
        mate.0[28..30].copy_from_slice(&5000i16.to_le_bytes());
        mate.set_game_end(true);
        let bin = temp("marked-mate.bin");
        std::fs::write(&bin, [start.0.repeat(n), mate.0.to_vec()].concat()).unwrap();
        let l = load(std::slice::from_ref(&bin), 1).unwrap();
        assert_eq!((ends(&l), l.blocks, l.skipped), (vec![n - 1], 0, 1));
    }

    #[test]
    fn train_mirroring_flips_files_and_keeps_the_labels() {
        use crate::attacks::Magic;
        use crate::board::Board;
        let b = Board::<Magic>::from_fen("8/5k2/8/3pP3/8/8/1K6/6R1 w - d6 0 40").unwrap();
        let r = Record::from_board(&b, 123, 2);
        let m = mirrored(&r).unwrap();
        assert_eq!(
            m.to_board::<Magic>().unwrap().to_fen(),
            "8/2k5/8/3Pp3/8/8/6K1/1R6 w - e6 0 40"
        );
        assert_eq!((m.score(), m.result()), (123, 2));
        assert_eq!(mirrored(&m), Some(r));
        // With a castling right there is no mirror image.
        let start = Record::from_board(&Board::<Magic>::startpos(), 0, 1);
        assert_eq!(mirrored(&start), None);
    }
}
