//! The layout of the weight vector: every tunable weight has one index.
//!
//! The evaluation reads a weight only through its index (see `super::trace`), and
//! the trace records that same index, so the tuner's coefficients and the score the
//! search sees come from one piece of code. The weights themselves are data, in the
//! generated `weights.rs`.

/// Declare consecutive index ranges: `NAME: len` gives `pub const NAME: usize`
/// (the first index), `GROUPS` (name, first, len) and `COUNT`.
macro_rules! layout {
    ($($name:ident: $len:expr),* $(,)?) => {
        layout!(@at 0usize; $($name: $len),*);
        /// Every group of weights: (name, first index, length), in order.
        pub const GROUPS: &[(&str, usize, usize)] = &[$((stringify!($name), $name, $len)),*];
    };
    (@at $at:expr; $name:ident: $len:expr $(, $rest:ident: $rlen:expr)*) => {
        #[allow(missing_docs)]
        pub const $name: usize = $at;
        layout!(@at $at + $len; $($rest: $rlen),*);
    };
    (@at $at:expr;) => {
        /// The number of weights.
        pub const COUNT: usize = $at;
    };
}

layout! {
    // Material by kind, pawn to queen.
    MATERIAL: 5,
    // Piece-square tables by kind (pawn to king), squares from White's side.
    PST: 6 * 64,
    // Mobility by number of safe squares reached.
    MOBILITY_KNIGHT: 9,
    MOBILITY_BISHOP: 14,
    MOBILITY_ROOK: 15,
    MOBILITY_QUEEN: 28,
    // Pawn structure (pawn hash); by relative rank where an array.
    DOUBLED: 1,
    ISOLATED: 1,
    BACKWARD: 1,
    CONNECTED: 8,
    PHALANX: 8,
    PASSED: 8,
    // Passed pawns by distance to the edge (a/h = 0 .. d/e = 3).
    PASSED_FILE: 4,
    // Isolated or backward with no enemy pawn in front (a target on a half-open file).
    WEAK_UNOPPOSED: 1,
    // A pawn on the 5th or 6th rank blocked by an enemy pawn.
    PAWN_BLOCKED: 2,
    // Passed pawns, with the pieces (by relative rank).
    PASSED_FREE: 8,
    PASSED_BLOCKED: 8,
    PASSED_SUPPORTED: 8,
    PASSED_SAFE_PATH: 8,
    PASSED_OWN_KING: 8,
    PASSED_ENEMY_KING: 8,
    UNSTOPPABLE: 1,
    ENDGAME_KING_CENTER: 1,
    // King shelter: own pawn in front (by relative rank, 0 = none), enemy storm;
    // files by the king without own pawns (half-open, open) facing a rook or queen.
    SHIELD: 8,
    STORM: 8,
    STORM_BLOCKED: 8,
    KING_SEMI_OPEN: 1,
    KING_OPEN: 1,
    // King danger: summed, then squared (see `super::king`).
    DANGER_ATTACKER: 4,
    DANGER_ZONE_HITS: 1,
    DANGER_SAFE_CHECK: 4,
    DANGER_WEAK: 1,
    DANGER_NO_QUEEN: 1,
    DANGER_FLANK: 1,
    DANGER_BIAS: 1,
    // Pieces.
    BISHOP_PAIR: 1,
    ROOK_OPEN: 1,
    ROOK_SEMI_OPEN: 1,
    ROOK_SEVENTH: 1,
    OUTPOST: 2,
    // Own pawns on the squares of a bishop's colour; a minor shielded by a pawn.
    BISHOP_PAWNS: 1,
    MINOR_BEHIND_PAWN: 1,
    // Knights gain and rooks lose with more own pawns (per piece, pawns - 5).
    KNIGHT_PAWNS: 1,
    ROOK_PAWNS: 1,
    // Distance of each knight and bishop to its own king.
    KING_PROTECTOR: 2,
    // Safe central squares behind the pawns, times the pieces that can use them / 8.
    SPACE: 1,
    // Gk's opening terms: the centre (d4-e5) and the ring around it (c3-f6)
    // attacked, each square counted up to twice; knights and bishops on the first
    // rank; a queen off the first rank, per minor still on it.
    CENTRE_CONTROL: 2,
    UNDEVELOPED: 1,
    EARLY_QUEEN: 1,
    // Threats: an enemy piece of each kind (pawn to queen) attacked by a pawn, a
    // minor or a rook; an enemy piece attacked and not defended.
    THREAT_BY_PAWN: 5,
    THREAT_BY_MINOR: 5,
    THREAT_BY_ROOK: 5,
    HANGING: 1,
    // An undefended enemy man attacked by the king; safe pawn pushes that attack a piece.
    KING_THREAT: 1,
    PAWN_PUSH_THREAT: 1,
    TEMPO: 1,
}

/// Whether weight `i` is a king-danger weight (used non-linearly).
pub const fn is_danger(i: usize) -> bool {
    i >= DANGER_ATTACKER && i < BISHOP_PAIR
}

/// The group a weight belongs to and its offset in it.
pub fn group_of(i: usize) -> (&'static str, usize) {
    GROUPS
        .iter()
        .find(|&&(_, first, len)| i >= first && i < first + len)
        .map_or(("?", 0), |&(name, first, _)| (name, i - first))
}
