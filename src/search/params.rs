//! The search's margins, reductions and extensions: each declared once, with its
//! default, range and SPSA step, and read by the search at run time, so that a
//! tuner (SPSA: nudge every value at once, play games, keep what wins) reaches
//! every one through a UCI option and a reader sees them together.
//!
//! [`Params::DEFAULT`] holds the hand-set values the `Feature_*` rows of
//! `docs/strength.md` were measured with. A value is set by its option name
//! (`setoption name RfpMargin value 80`); the options are listed by `uci` only
//! in a build with the `tune` feature (`make TUNE=1`), because fastchess, which
//! OpenBench plays through, sends only listed options while a player's option
//! list should not hold thirty knobs. `brokkr tune-params` prints them in
//! OpenBench's SPSA input form.
//!
//! What stays a constant here is not a search margin: a rule guard, a report
//! delay, the depth at which a mate counts as proven.

use std::sync::Arc;

/// One tunable parameter: its option name, default, range and SPSA step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The UCI option's name.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation (`c_end`): a step the games can tell apart.
    pub step: i32,
    /// What it bounds, one line.
    pub doc: &'static str,
}

/// SPSA's final learning rate (`r_end`) for every parameter: the value
/// OpenBench's documentation and most engines' tunes start from.
pub const SPSA_R_END: f64 = 0.002;

/// Declares [`Params`] (a field per parameter), [`Params::DEFAULT`] and
/// [`Params::ALL`] from one list, so a parameter is written once.
macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])+
        $field:ident: $name:literal = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )+) => {
        /// The value of every search parameter (see the module's list).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])+ pub $field: i32, )+
        }

        impl Params {
            /// The hand-set values.
            pub const DEFAULT: Params = Params { $( $field: $default, )+ };

            /// Every parameter's declaration, in the order of the fields.
            pub const ALL: &'static [Param] = &[$(
                Param {
                    name: $name,
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $step,
                    doc: concat!($($doc),+),
                },
            )+];

            /// The field of the parameter declared at `index` in [`Params::ALL`].
            fn slot(&mut self, index: usize) -> &mut i32 {
                let slots = [$( &mut self.$field ),+];
                slots.into_iter().nth(index).expect("an index into Params::ALL")
            }

            /// The value of the parameter declared at `index` in [`Params::ALL`].
            pub fn get(&self, index: usize) -> i32 {
                [$( self.$field ),+][index]
            }
        }
    };
}

search_params! {
    /// Aspiration windows: the first window's half-width around the last score, in centipawns.
    aspiration_delta: "AspirationDelta" = 25, 8..=60, step 3;
    /// Aspiration windows: the depth from which they are used at all.
    aspiration_min_depth: "AspirationMinDepth" = 4, 2..=8, step 1;
    /// Razoring: the depth up to which a hopeless node asks quiescence (off by default: `Feature_Razoring`).
    razor_depth: "RazorDepth" = 3, 1..=6, step 1;
    /// Razoring: the margin below alpha, `RazorBase + RazorDepthSq * depth^2`.
    razor_base: "RazorBase" = 250, 50..=600, step 25;
    /// Razoring: the margin's growth with the square of the depth.
    razor_depth_sq: "RazorDepthSq" = 200, 50..=400, step 15;
    /// Reverse futility: the depth up to which a node returns when its evaluation beats beta by the margin.
    rfp_depth: "RfpDepth" = 8, 4..=12, step 1;
    /// Reverse futility: the margin per ply (one ply less when improving).
    rfp_margin: "RfpMargin" = 75, 30..=150, step 6;
    /// Null move: the least depth.
    nmp_min_depth: "NmpMinDepth" = 3, 1..=6, step 1;
    /// Null move: the reduction's base, `NmpBase + depth / NmpDepthDivisor` plus the evaluation's part.
    nmp_base: "NmpBase" = 4, 2..=6, step 1;
    /// Null move: one ply more of reduction per this many plies of depth.
    nmp_depth_divisor: "NmpDepthDivisor" = 4, 2..=8, step 1;
    /// Null move: one ply more of reduction per this many centipawns of evaluation above beta.
    nmp_eval_divisor: "NmpEvalDivisor" = 200, 80..=400, step 15;
    /// Null move: at most this many plies from the evaluation above beta.
    nmp_eval_max: "NmpEvalMax" = 3, 1..=6, step 1;
    /// Null move: from this depth a cut is verified by a search without the null move.
    nmp_verify_depth: "NmpVerifyDepth" = 14, 6..=20, step 1;
    /// Internal iterative reduction: from this depth a node without a hash move loses a ply.
    iir_min_depth: "IirMinDepth" = 4, 2..=8, step 1;
    /// ProbCut: the least depth.
    probcut_min_depth: "ProbCutMinDepth" = 5, 3..=8, step 1;
    /// ProbCut: how far above beta a capture's shallow search must reach, in centipawns.
    probcut_margin: "ProbCutMargin" = 200, 80..=400, step 15;
    /// ProbCut: the margin's cut when the static evaluation is improving.
    probcut_improving: "ProbCutImproving" = 60, 0..=150, step 10;
    /// ProbCut: the shallow search is this many plies shallower than the node.
    probcut_reduction: "ProbCutReduction" = 4, 3..=5, step 1;
    /// Late move pruning: the depth up to which quiet moves after `(LmpBase + depth^2) / (2 - improving)` are skipped.
    lmp_depth: "LmpDepth" = 8, 3..=12, step 1;
    /// Late move pruning: the quiet moves kept at depth 0.
    lmp_base: "LmpBase" = 3, 1..=8, step 1;
    /// Futility pruning of quiets: the reduced depth up to which it applies.
    futility_depth: "FutilityDepth" = 6, 3..=10, step 1;
    /// Futility pruning: the margin's base, `FutilityBase + FutilityPerDepth * depth + history / FutilityHistoryDivisor`.
    futility_base: "FutilityBase" = 120, 40..=250, step 10;
    /// Futility pruning: the margin's growth per ply.
    futility_per_depth: "FutilityPerDepth" = 110, 40..=200, step 8;
    /// Futility pruning: the quiet history's part, one centipawn per this much history.
    futility_history_divisor: "FutilityHistoryDivisor" = 64, 16..=256, step 8;
    /// History pruning: the reduced depth up to which a quiet move whose continuation histories sum below `-HistoryPruneMargin * depth` is skipped.
    history_prune_depth: "HistoryPruneDepth" = 3, 1..=6, step 1;
    /// History pruning: the continuation histories' sum allowed below zero per ply.
    history_prune_margin: "HistoryPruneMargin" = 512, 128..=4096, step 128;
    /// SEE pruning of quiets: the reduced depth up to which a quiet move must not lose more than `SeeQuietMargin * depth^2`.
    see_quiet_depth: "SeeQuietDepth" = 7, 3..=10, step 1;
    /// SEE pruning of quiets: the loss allowed per square of the depth.
    see_quiet_margin: "SeeQuietMargin" = 25, 5..=60, step 3;
    /// SEE pruning of captures: the depth up to which a capture must not lose more than `SeeCaptureMargin * depth`.
    see_capture_depth: "SeeCaptureDepth" = 6, 3..=10, step 1;
    /// SEE pruning of captures: the loss allowed per ply.
    see_capture_margin: "SeeCaptureMargin" = 95, 30..=200, step 8;
    /// Singular extension: the least depth.
    singular_min_depth: "SingularMinDepth" = 7, 4..=10, step 1;
    /// Singular extension: the hash entry may be at most this many plies shallower.
    singular_tt_depth_slack: "SingularTtDepthSlack" = 3, 1..=5, step 1;
    /// Singular extension: every other move must fail below the hash score minus this many centipawns per ply.
    singular_margin_per_depth: "SingularMarginPerDepth" = 2, 1..=5, step 1;
    /// Double extension: at a non-PV node, every other move fails this many centipawns below the singular bound too.
    double_extension_margin: "DoubleExtensionMargin" = 20, 0..=60, step 4;
    /// Double extension: at most this many on one path.
    double_extension_max: "DoubleExtensionMax" = 8, 2..=16, step 1;
    /// The extensions on one path are at most this many times the root depth, so the tree cannot explode.
    extension_budget_per_depth: "ExtensionBudgetPerDepth" = 2, 1..=4, step 1;
    /// Late move reductions, in hundredths of a ply: `LmrBase + ln(depth) ln(moves) / LmrDivisor`.
    lmr_base: "LmrBase" = 75, 0..=200, step 8;
    /// Late move reductions: the divisor, in hundredths (the shape Ethereal and others use).
    lmr_divisor: "LmrDivisor" = 225, 150..=400, step 12;
    /// Late move reductions: one ply less per this much quiet history.
    lmr_history_divisor: "LmrHistoryDivisor" = 8192, 2048..=16384, step 512;
    /// Late move reductions: a reduced search that beats the best score by this plus two centipawns a ply is searched again a ply deeper (`Feature_LmrResearchDepth`).
    lmr_deeper_margin: "LmrDeeperMargin" = 40, 10..=120, step 5;
    /// Late move reductions: a reduced search that beats the best score by less than this is searched again a ply shallower (`Feature_LmrResearchDepth`).
    lmr_shallower_margin: "LmrShallowerMargin" = 10, 0..=40, step 2;
    /// The eval-difference bonus (`Feature_EvalDiffHistory`): the previous quiet move's butterfly entry moves by this many units per centipawn the static evaluation fell for the side that played it.
    eval_diff_scale: "EvalDiffScale" = 24, 4..=64, step 4;
    /// The eval-difference bonus: its bound either way (the history's own bound is 16384).
    eval_diff_max: "EvalDiffMax" = 2000, 500..=4000, step 200;
    /// Delta pruning in quiescence (Gk): a capture is skipped when the static evaluation plus this margin plus the captured piece cannot reach alpha.
    delta_margin: "DeltaMargin" = 180, 50..=400, step 15;
    /// Time: below this many increments on the clock (or four move overheads, where that is more), a move's share of the clock shrinks in proportion, and the clock settles about half as many increments above the overhead (src/search/time.rs).
    low_clock_increments: "LowClockIncrements" = 20, 5..=40, step 2;
    /// The hand-written evaluation's share, in percent, of the static evaluation when a network evaluates (0: the network alone; docs/strength.md).
    hce_blend: "HceBlend" = 0, 0..=100, step 5;
}

impl Params {
    /// The parameter named `name` (case-insensitive), by its index in [`Params::ALL`].
    pub fn find(name: &str) -> Option<usize> {
        Params::ALL
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// Set the parameter at `index` from an option's text, or say why not; a
    /// refused value leaves the parameters as they were.
    pub fn set(&mut self, index: usize, value: &str) -> Result<(), String> {
        let p = Params::ALL[index];
        match value.trim().parse::<i32>() {
            Ok(v) if (p.min..=p.max).contains(&v) => {
                *self.slot(index) = v;
                Ok(())
            }
            _ => Err(format!(
                "bad value '{}' for '{}': expected a whole number from {} to {}",
                value.trim(),
                p.name,
                p.min,
                p.max
            )),
        }
    }

    /// The `option` lines of `uci` for the parameters, with `current` values as
    /// defaults (OpenBench's SPSA reads nothing from them, but a GUI would).
    pub fn option_lines(&self) -> Vec<String> {
        Params::ALL
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "option name {} type spin default {} min {} max {}",
                    p.name,
                    self.get(i),
                    p.min,
                    p.max
                )
            })
            .collect()
    }

    /// OpenBench's SPSA input (`OpenBench/spsa_utils.py`): one
    /// `name, int, value, min, max, c_end, r_end` line per parameter.
    pub fn spsa_input(&self) -> String {
        Params::ALL
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "{}, int, {}, {}, {}, {}, {}\n",
                    p.name,
                    self.get(i),
                    p.min,
                    p.max,
                    p.step,
                    SPSA_R_END
                )
            })
            .collect()
    }
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

/// Late-move reductions in plies by depth and move number, both capped at 63.
pub type LmrTable = [[u8; 64]; 64];

/// The reductions of the default parameters, computed by the compiler.
pub static DEFAULT_LMR: LmrTable = lmr_table(Params::DEFAULT.lmr_base, Params::DEFAULT.lmr_divisor);

/// The parameters with the reduction table they make: the table is filled when
/// `LmrBase` or `LmrDivisor` changes, and is the compiler's otherwise.
#[derive(Clone, Debug, Default)]
pub struct Tuning {
    values: Params,
    /// `None` while the table is [`DEFAULT_LMR`].
    lmr: Option<Arc<LmrTable>>,
}

impl Tuning {
    /// The values.
    pub fn values(&self) -> &Params {
        &self.values
    }

    /// The reduction table of the values.
    pub fn lmr(&self) -> &LmrTable {
        self.lmr.as_deref().unwrap_or(&DEFAULT_LMR)
    }

    /// Set a parameter by its option name; `Ok(false)` when no parameter has
    /// that name, an error when the value is out of its range.
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let Some(index) = Params::find(name) else {
            return Ok(false);
        };
        self.values.set(index, value)?;
        let (base, divisor) = (self.values.lmr_base, self.values.lmr_divisor);
        let d = Params::DEFAULT;
        self.lmr = (base != d.lmr_base || divisor != d.lmr_divisor)
            .then(|| Arc::new(lmr_table(base, divisor)));
        Ok(true)
    }
}

/// `ln x` for `x >= 1`, usable by the compiler: `x = m 2^k` with `m` in
/// `[1, 2)`, and `ln m = 2 atanh((m - 1) / (m + 1))` by its series.
const fn ln(x: f64) -> f64 {
    let mut m = x;
    let mut k = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        k += 1.0;
    }
    let y = (m - 1.0) / (m + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 40.0 {
        sum += term / n;
        term *= y2;
        n += 2.0;
    }
    k * std::f64::consts::LN_2 + 2.0 * sum
}

/// The reductions `base + ln(depth) ln(moves) / divisor` (both in hundredths),
/// truncated to whole plies.
const fn lmr_table(base: i32, divisor: i32) -> LmrTable {
    let (base, divisor) = (base as f64 / 100.0, divisor as f64 / 100.0);
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            let r = base + ln(d as f64) * ln(m as f64) / divisor;
            t[d][m] = r as u8;
            m += 1;
        }
        d += 1;
    }
    t
}

/// The hash's score cuts a node only while the halfmove clock is below this: near
/// the fifty-move rule the same position can be a draw where it was not when stored.
pub const TT_CUT_HALFMOVE_LIMIT: u32 = 90;

/// Long searches report the root move being searched and failed aspiration
/// windows only after this many milliseconds, so short ones stay quiet.
pub const REPORT_AFTER_MS: u64 = 3000;

/// A found mate is proven once the search is this many plies deeper than twice
/// the mate's length; deeper iterations stop (see `iterate.rs`).
pub const MATE_PROOF_MARGIN: i32 = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for (i, p) in Params::ALL.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0 && p.step <= p.max - p.min, "{p:?}");
            assert_eq!(Params::DEFAULT.get(i), p.default, "{}", p.name);
            assert_eq!(Params::find(p.name), Some(i));
            assert_eq!(Params::find(&p.name.to_ascii_lowercase()), Some(i));
        }
        // The divisors cannot reach zero.
        for name in [
            "NmpDepthDivisor",
            "NmpEvalDivisor",
            "FutilityHistoryDivisor",
            "LmrDivisor",
            "LmrHistoryDivisor",
        ] {
            assert!(Params::ALL[Params::find(name).unwrap()].min > 0, "{name}");
        }
    }

    #[test]
    fn a_value_is_set_in_range_and_refused_outside_it() {
        let mut t = Tuning::default();
        assert_eq!(t.set("RfpMargin", "80"), Ok(true));
        assert_eq!(t.values().rfp_margin, 80);
        assert!(t
            .set("rfpmargin", "151")
            .unwrap_err()
            .contains("from 30 to 150"));
        assert!(t.set("RfpMargin", "x").is_err());
        assert_eq!(t.values().rfp_margin, 80);
        assert_eq!(t.set("NoSuchParameter", "1"), Ok(false));
        assert_eq!(
            t.values(),
            &Params {
                rfp_margin: 80,
                ..Params::DEFAULT
            }
        );
    }

    #[test]
    fn the_reduction_table_follows_its_parameters() {
        let mut t = Tuning::default();
        assert!(std::ptr::eq(t.lmr(), &DEFAULT_LMR));
        // The table the compiler made is the one the same function makes at run time.
        assert_eq!(lmr_table(75, 225), DEFAULT_LMR);
        assert_eq!(
            DEFAULT_LMR[20][20],
            (0.75 + 20f64.ln() * 20f64.ln() / 2.25) as u8
        );
        t.set("LmrBase", "150").unwrap();
        assert_eq!(t.lmr()[1][1], 1);
        assert_eq!(
            t.lmr()[20][20],
            (1.5 + 20f64.ln() * 20f64.ln() / 2.25) as u8
        );
        t.set("LmrBase", "75").unwrap();
        assert!(std::ptr::eq(t.lmr(), &DEFAULT_LMR));
    }

    #[test]
    fn the_spsa_input_has_openbench_s_seven_fields() {
        let text = Params::DEFAULT.spsa_input();
        assert_eq!(text.lines().count(), Params::ALL.len());
        for (line, p) in text.lines().zip(Params::ALL) {
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            assert_eq!(f.len(), 7, "{line}");
            assert_eq!((f[0], f[1]), (p.name, "int"));
            assert_eq!(f[2].parse::<i32>(), Ok(p.default));
            assert_eq!(f[6].parse::<f64>(), Ok(SPSA_R_END));
        }
    }
}
