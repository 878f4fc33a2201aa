//! Random legal positions, one FEN a line, for `tests/data/random.perft`.
//!
//! ```sh
//! cargo run --release --example random_positions -- COUNT SEED [CHESS960_SHARE]
//! ```
//!
//! Each position ends a random legal game: moves chosen uniformly among brokkr's
//! legal moves, for a random number of plies (1 to 160), from the standard start
//! position or, for `CHESS960_SHARE` percent of the games (default 20), from a
//! random Chess960 start. Games that end in mate or stalemate early give that
//! final position. Duplicates are dropped. The same COUNT and SEED always give the
//! same positions. `tests/data/make_random_perft.py` counts them with Stockfish.

use brokkr::attacks::Magic;
use brokkr::bits::Portable;
use brokkr::board::Board;
use std::collections::HashSet;
use std::process::ExitCode;

/// A small deterministic generator (xorshift64*), so a seed names a data set.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// The back rank of Chess960 start number `n` (0..960), by the standard
/// numbering: bishops, then the queen, then the knights, the rest R K R.
fn chess960_rank(mut n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    rank[(n % 4) * 2 + 1] = 'b';
    n /= 4;
    rank[(n % 4) * 2] = 'b';
    n /= 4;
    let mut place = |skip: usize, piece: char| {
        let free = (0..8).filter(|&i| rank[i] == ' ').nth(skip).expect("free");
        rank[free] = piece;
    };
    place(n % 6, 'q');
    n /= 6;
    let (a, b) = [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 2),
        (2, 3),
        (3, 3),
    ][n];
    // The second knight skips the square the first one took.
    place(a, 'n');
    place(b, 'n');
    for piece in ['r', 'k', 'r'] {
        place(0, piece);
    }
    rank
}

/// The Chess960 start `n` as a Shredder-FEN (castling named by rook files).
fn chess960_fen(n: usize) -> String {
    let rank = chess960_rank(n);
    let black: String = rank.iter().collect();
    let rooks: Vec<char> = (0..8)
        .filter(|&i| rank[i] == 'r')
        .map(|i| (b'a' + i as u8) as char)
        .collect();
    let castling = format!(
        "{}{}{}{}",
        rooks[1].to_ascii_uppercase(),
        rooks[0].to_ascii_uppercase(),
        rooks[1],
        rooks[0]
    );
    format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w {castling} - 0 1",
        black.to_ascii_uppercase()
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |i: usize, default: Option<u64>| -> Option<u64> {
        args.get(i).map_or(default, |a| a.parse().ok())
    };
    let (Some(count), Some(seed), Some(share)) =
        (parse(0, None), parse(1, None), parse(2, Some(20)))
    else {
        eprintln!("usage: random_positions COUNT SEED [CHESS960_SHARE]");
        return ExitCode::from(2);
    };
    let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1);
    let mut seen = HashSet::new();
    while (seen.len() as u64) < count {
        let start = if (rng.below(100) as u64) < share {
            Board::<Magic>::from_fen(&chess960_fen(rng.below(960))).expect("valid start")
        } else {
            Board::<Magic>::startpos()
        };
        let mut board = start;
        for _ in 0..1 + rng.below(160) {
            let moves = board.legal_moves::<Portable>();
            if moves.is_empty() {
                break;
            }
            board.make::<Portable>(moves.as_slice()[rng.below(moves.len())]);
        }
        // The perft format has no move counters: keep the four position fields.
        let full = board.to_fen();
        let fen = full.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if seen.insert(fen.clone()) {
            println!("{fen}");
        }
    }
    ExitCode::SUCCESS
}
