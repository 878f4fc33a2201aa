//! The search's margins and limits, named and in one place, so that a tuner
//! (SPSA-style: nudge a value, play games, keep what wins) can reach every one
//! and a reader sees them together.
//!
//! Each says what it bounds. What a heuristic measured in games is in
//! `docs/strength.md`'s feature table, by its `Feature_*` switch; the values
//! here are the hand-set ones those rows were measured with, none tuned yet.

/// Aspiration windows: the first window's half-width around the last score,
/// in centipawns, and the depth from which windows are used at all.
pub const ASPIRATION_DELTA: i32 = 25;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// The hash's score cuts a node only while the halfmove clock is below this: near
/// the fifty-move rule the same position can be a draw where it was not when stored.
pub const TT_CUT_HALFMOVE_LIMIT: u32 = 90;

/// Razoring: at depth <= `RAZOR_DEPTH`, when the evaluation is at least
/// `RAZOR_BASE + RAZOR_DEPTH_SQ * depth^2` below alpha, ask quiescence (off by
/// default: `Features::razoring`).
pub const RAZOR_DEPTH: i32 = 3;
pub const RAZOR_BASE: i32 = 250;
pub const RAZOR_DEPTH_SQ: i32 = 200;

/// Reverse futility: at depth <= `RFP_DEPTH`, return when the evaluation beats
/// beta by `RFP_MARGIN` per ply (one ply less when improving).
pub const RFP_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 75;

/// Null move: from depth `NMP_MIN_DEPTH`, reduced by `NMP_BASE + depth /
/// NMP_DEPTH_DIVISOR` plus one per `NMP_EVAL_DIVISOR` of evaluation above beta
/// (at most `NMP_EVAL_MAX`); from depth `NMP_VERIFY_DEPTH` a cut is verified by
/// a search without the null move.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 4;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX: i32 = 3;
pub const NMP_VERIFY_DEPTH: i32 = 14;

/// Internal iterative reduction: from this depth, a node without a hash move
/// loses a ply.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move pruning: at depth <= `LMP_DEPTH`, quiet moves after
/// `(LMP_BASE + depth^2) / (2 - improving)` are skipped.
pub const LMP_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiets: at reduced depth <= `FUTILITY_DEPTH`, a move is
/// skipped when the static evaluation plus `FUTILITY_BASE + FUTILITY_PER_DEPTH *
/// depth` and its history over `FUTILITY_HISTORY_DIVISOR` stays below alpha.
pub const FUTILITY_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 120;
pub const FUTILITY_PER_DEPTH: i32 = 110;
pub const FUTILITY_HISTORY_DIVISOR: i32 = 64;

/// SEE pruning: a quiet move at reduced depth <= `SEE_QUIET_DEPTH` must not lose
/// more than `SEE_QUIET_MARGIN * depth^2`; a capture at depth <=
/// `SEE_CAPTURE_DEPTH` not more than `SEE_CAPTURE_MARGIN * depth`.
pub const SEE_QUIET_DEPTH: i32 = 7;
pub const SEE_QUIET_MARGIN: i32 = 25;
pub const SEE_CAPTURE_DEPTH: i32 = 6;
pub const SEE_CAPTURE_MARGIN: i32 = 95;

/// Singular extension: from depth `SINGULAR_MIN_DEPTH`, with a hash entry at
/// most `SINGULAR_TT_DEPTH_SLACK` plies shallower, every other move must fail
/// below the hash score minus `SINGULAR_MARGIN_PER_DEPTH * depth`.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
pub const SINGULAR_MARGIN_PER_DEPTH: i32 = 2;

/// The extensions on one path are at most this many times the root depth, so the
/// tree cannot explode.
pub const EXTENSION_BUDGET_PER_DEPTH: i32 = 2;

/// Late move reductions: `LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR` plies
/// (the shape Ethereal and others use), one ply less per `LMR_HISTORY_DIVISOR`
/// of the move's quiet history.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Delta pruning in quiescence (Gk): a capture is skipped when the static
/// evaluation plus this margin plus the captured piece cannot reach alpha.
pub const DELTA_MARGIN: i32 = 180;

/// Long searches report the root move being searched and failed aspiration
/// windows only after this many milliseconds, so short ones stay quiet.
pub const REPORT_AFTER_MS: u64 = 3000;

/// A found mate is proven once the search is this many plies deeper than twice
/// the mate's length; deeper iterations stop (see `iterate.rs`).
pub const MATE_PROOF_MARGIN: i32 = 4;
