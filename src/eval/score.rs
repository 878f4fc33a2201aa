//! A middlegame/endgame pair of centipawn values, the unit every term speaks.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A tapered value: `S(middlegame, endgame)` in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl S {
    /// Zero in both phases.
    pub const ZERO: S = S(0, 0);

    /// The middlegame part.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame part.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.1
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, n: i32) -> S {
        S(self.0 * n, self.1 * n)
    }
}
