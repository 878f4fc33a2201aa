//! Which input a piece on a square is: the one definition the engine's
//! accumulators and the trainer share, so the two cannot disagree.
//!
//! Each side sees the board from its own side: for Black the board is flipped
//! vertically (a1 becomes a8), and "own" pieces come first. Input
//! `own × 384 + kind × 64 + square`, with own = 0 for the perspective's pieces
//! and 1 for the other side's, is the layout bullet calls `Chess768`, so a net
//! trained there loads here.
//!
//! With king buckets ([`KingLayout`]) each perspective has one such set of 768
//! inputs per bucket, chosen by where its own king stands, and with mirroring
//! it sees the board left to right mirrored while its own king is on files
//! e–h: a [`View`] is that choice, and [`View::index`] the input of a piece in
//! it. [`index`] is the view of [`KingLayout::NONE`].

pub use crate::nnue::file::KingLayout;
use crate::types::{Color, Piece, Square};

/// Inputs per perspective and king bucket.
pub const INPUTS: usize = crate::nnue::file::INPUTS;

/// One perspective's view of the board under a king layout: the first input of
/// its own king's bucket, and what its squares are xor-ed with (56 to flip
/// Black's ranks, 7 to mirror the files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    base: u16,
    flip: u8,
    perspective: Color,
}

impl View {
    /// The view of [`KingLayout::NONE`] (the same wherever the king stands).
    pub const fn plain(perspective: Color) -> View {
        View {
            base: 0,
            flip: match perspective {
                Color::White => 0,
                Color::Black => 56,
            },
            perspective,
        }
    }

    /// `perspective`'s view under `layout` with its own king on `king`.
    #[inline(always)]
    pub const fn new(layout: &KingLayout, perspective: Color, king: Square) -> View {
        let ranks = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let (bucket, mirrored) = layout.of(king.index() ^ ranks);
        View {
            base: (bucket * INPUTS) as u16,
            flip: (ranks | if mirrored { 7 } else { 0 }) as u8,
            perspective,
        }
    }

    /// The input of `piece` on `square` in this view.
    #[inline(always)]
    pub const fn index(self, piece: Piece, square: Square) -> usize {
        let own = (piece.color() as usize) ^ (self.perspective as usize);
        self.base as usize
            + own * 384
            + piece.kind().index() * 64
            + (square.index() ^ self.flip as usize)
    }

    /// The king bucket (0 for [`KingLayout::NONE`]).
    pub const fn bucket(self) -> usize {
        self.base as usize / INPUTS
    }

    /// Whether the board is seen mirrored left to right.
    pub const fn mirrored(self) -> bool {
        self.flip & 7 != 0
    }
}

/// Both perspectives' views of `board` under `layout`: `[white's, black's]`.
pub fn views<S: crate::attacks::Slider>(
    layout: &KingLayout,
    board: &crate::board::Board<S>,
) -> [View; 2] {
    Color::BOTH.map(|c| View::new(layout, c, board.king_square(c)))
}

/// A king layout with a name, for `brokkr train --king-buckets`.
pub struct NamedLayout {
    /// The name the flag takes.
    pub name: &'static str,
    /// What the buckets are.
    pub about: &'static str,
    /// The layout.
    pub layout: KingLayout,
}

/// A layout table from a bucket per rank (first rank first) and whether the
/// a-b files (g-h with them) are a bucket apart from the c-d files (e-f).
const fn by_rank(ranks: [u8; 8], edge_apart: bool, mirrored: bool) -> KingLayout {
    let mut table = [0u8; 32];
    let mut buckets = 0;
    let mut i = 0;
    while i < 32 {
        let (rank, file) = (i / 4, i % 4);
        let wing = if edge_apart && file >= 2 { 1 } else { 0 };
        let scale = if edge_apart { 2 } else { 1 };
        table[i] = ranks[rank] * scale + wing;
        if table[i] as usize + 1 > buckets {
            buckets = table[i] as usize + 1;
        }
        i += 1;
    }
    KingLayout {
        buckets,
        mirrored,
        table,
    }
}

const BACK_RANK: [u8; 8] = [0, 1, 1, 1, 1, 1, 1, 1];
const FOUR_RANKS: [u8; 8] = [0, 1, 2, 2, 3, 3, 3, 3];

/// The named layouts; each but `none` and `mirror` has a `-mirror` twin
/// ([`layout`] reads `NAME-mirror`).
pub const LAYOUTS: [NamedLayout; 5] = [
    NamedLayout {
        name: "none",
        about: "one bucket: the inputs without king buckets",
        layout: KingLayout::NONE,
    },
    NamedLayout {
        name: "mirror",
        about: "one bucket, mirrored (the king always on files a-d)",
        layout: by_rank([0; 8], false, true),
    },
    NamedLayout {
        name: "ranks2",
        about: "2 buckets: own king on its first rank, or beyond",
        layout: by_rank(BACK_RANK, false, false),
    },
    NamedLayout {
        name: "ranks4",
        about: "4 buckets by the own king's rank: 1, 2, 3-4, 5-8",
        layout: by_rank(FOUR_RANKS, false, false),
    },
    NamedLayout {
        name: "ranks4x2",
        about: "8 buckets: ranks4, each split into edge files (a-b, g-h) and centre (c-f)",
        layout: by_rank(FOUR_RANKS, true, false),
    },
];

/// The layout named `name`: one of [`LAYOUTS`], or `NAME-mirror` for the
/// same buckets with mirroring.
pub fn layout(name: &str) -> Option<KingLayout> {
    let (base, mirror) = match name.strip_suffix("-mirror") {
        Some(base) if base != "none" && base != "mirror" => (base, true),
        Some(_) => return None,
        None => (name, false),
    };
    let found = LAYOUTS.iter().find(|l| l.name == base)?.layout;
    Some(KingLayout {
        mirrored: found.mirrored || mirror,
        ..found
    })
}

/// The name of `layout` if it is a named one, for messages.
pub fn layout_name(layout: &KingLayout) -> Option<String> {
    LAYOUTS.iter().find_map(|l| {
        if l.layout == *layout {
            Some(l.name.to_string())
        } else if l.layout.buckets > 1
            && !l.layout.mirrored
            && (KingLayout {
                mirrored: true,
                ..l.layout
            }) == *layout
        {
            Some(format!("{}-mirror", l.name))
        } else {
            None
        }
    })
}

/// A layout as words, for messages: its name, or its bucket count and
/// mirroring.
pub fn describe_layout(layout: &KingLayout) -> String {
    layout_name(layout).unwrap_or_else(|| {
        format!(
            "{} king buckets{}",
            layout.buckets,
            if layout.mirrored { ", mirrored" } else { "" }
        )
    })
}

/// The input of `piece` on `square` from `perspective`'s side.
#[inline(always)]
pub const fn index(perspective: Color, piece: Piece, square: Square) -> usize {
    let (sq, own) = match perspective {
        Color::White => (square.index(), piece.color() as usize),
        Color::Black => (square.index() ^ 56, 1 - piece.color() as usize),
    };
    own * 384 + piece.kind().index() * 64 + sq
}

pub use super::file::bucket;

/// The inputs of every piece on `board`, from both sides: `(white, black)` views.
pub fn active<S: crate::attacks::Slider>(
    board: &crate::board::Board<S>,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..64).map(Square::new).filter_map(move |sq| {
        board
            .piece_on(sq)
            .map(|p| (index(Color::White, p, sq), index(Color::Black, p, sq)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    #[test]
    fn the_views_mirror_each_other() {
        let wp = Piece::new(Color::White, PieceKind::Pawn);
        let bp = Piece::new(Color::Black, PieceKind::Pawn);
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        assert_eq!(index(Color::White, wp, e2), 12);
        assert_eq!(index(Color::Black, bp, e7), 12);
        assert_eq!(index(Color::White, bp, e7), 384 + 52);
        let bk = Piece::new(Color::Black, PieceKind::King);
        assert_eq!(
            index(Color::Black, bk, Square::parse("e8").unwrap()),
            5 * 64 + 4
        );
    }

    #[test]
    fn every_input_is_used_once() {
        let mut seen = [[false; INPUTS]; 2];
        for p in 0..12 {
            let piece = Piece::from_index(p).unwrap();
            for sq in (0..64).map(Square::new) {
                for (v, c) in Color::BOTH.into_iter().enumerate() {
                    let i = index(c, piece, sq);
                    assert!(!seen[v][i]);
                    seen[v][i] = true;
                }
            }
        }
    }

    #[test]
    fn the_plain_view_is_the_index() {
        for p in (0..12).map(|p| Piece::from_index(p).unwrap()) {
            for sq in (0..64).map(Square::new) {
                for c in Color::BOTH {
                    for king in (0..64).map(Square::new) {
                        let v = View::new(&KingLayout::NONE, c, king);
                        assert_eq!(v, View::plain(c));
                        assert_eq!(v.index(p, sq), index(c, p, sq));
                    }
                }
            }
        }
    }

    #[test]
    fn every_named_layout_is_well_formed_and_named_back() {
        let mut names = 0;
        for l in &LAYOUTS {
            for name in [l.name.to_string(), format!("{}-mirror", l.name)] {
                let Some(k) = layout(&name) else {
                    assert!(l.layout.buckets == 1, "{name}");
                    continue;
                };
                k.check().unwrap();
                assert!((1..=8).contains(&k.buckets), "{name}");
                assert_eq!(layout_name(&k).as_deref(), Some(name.as_str()));
                names += 1;
            }
        }
        assert_eq!(names, 8);
        assert_eq!(layout("none"), Some(KingLayout::NONE));
        assert!(layout("none-mirror").is_none() && layout("mirror-mirror").is_none());
        assert!(layout("ranks3").is_none());
        let r = layout("ranks4").unwrap();
        assert_eq!((r.buckets, r.mirrored), (4, false));
        // Rank 1, rank 2, ranks 3-4, ranks 5-8.
        assert_eq!(
            &r.table[..],
            &[[0; 4], [1; 4], [2; 4], [2; 4], [3; 4], [3; 4], [3; 4], [3; 4]].concat()[..]
        );
        let w = layout("ranks4x2-mirror").unwrap();
        assert_eq!((w.buckets, w.mirrored), (8, true));
        assert_eq!(&w.table[..8], &[0, 0, 1, 1, 2, 2, 3, 3]);
    }

    /// Each view of each bucket uses each of its 768 inputs once, inside the
    /// bucket's block; Black's view of a king is White's of the rank-flipped
    /// king; a mirrored view is the plain one of the mirror-image squares.
    #[test]
    fn views_pick_the_kings_bucket_and_mirror() {
        let l = layout("ranks4x2-mirror").unwrap();
        for king in (0..64).map(Square::new) {
            for c in Color::BOTH {
                let v = View::new(&l, c, king);
                let own = king.index() ^ if c == Color::Black { 56 } else { 0 };
                assert_eq!(v.mirrored(), own % 8 >= 4);
                let near = if own % 8 >= 4 { 7 - own % 8 } else { own % 8 };
                assert_eq!(v.bucket(), l.table[own / 8 * 4 + near] as usize);
                let mut seen = [false; INPUTS];
                for p in (0..12).map(|p| Piece::from_index(p).unwrap()) {
                    for sq in (0..64).map(Square::new) {
                        let i = v.index(p, sq);
                        assert_eq!(i / INPUTS, v.bucket());
                        assert!(!seen[i % INPUTS]);
                        seen[i % INPUTS] = true;
                        let flipped =
                            Square::new((sq.index() ^ if v.mirrored() { 7 } else { 0 }) as u32);
                        assert_eq!(i % INPUTS, index(c, p, flipped));
                    }
                }
            }
        }
        // e1: rank 1, files d/e: the centre half, mirrored for White; for
        // Black e1 is its eighth rank.
        let e1 = Square::parse("e1").unwrap();
        let w = View::new(&l, Color::White, e1);
        assert_eq!((w.bucket(), w.mirrored()), (1, true));
        let b = View::new(&l, Color::Black, e1);
        assert_eq!((b.bucket(), b.mirrored()), (7, true));
    }

    #[test]
    fn buckets_slice_the_piece_count() {
        assert_eq!(bucket(32, 8), 7);
        assert_eq!(bucket(2, 8), 0);
        assert_eq!(bucket(6, 8), 1);
        assert_eq!(bucket(32, 1), 0);
        for n in 2..=32 {
            assert_eq!(bucket(n, 8), (n as usize - 2) / 4);
        }
    }
}
