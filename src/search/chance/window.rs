//! Integer window arithmetic of Star1/Star2 at a chance node (docs/ARCHITECTURE.md, "The
//! chance search").
//!
//! A chance node with outcomes of integer weight `w_i` (total `Wt`) keeps bounds
//! `lo_i <= v_i <= hi_i` per outcome and the sums `S_lo = Σ w_i lo_i`, `S_hi = Σ w_i hi_i`.
//! Its value is `round(Σ w_i v_i / Wt)` (halves away from zero). Everything is exact integer
//! arithmetic in `i64`: floor for lower bounds, ceiling for upper bounds.

/// `floor(n / d)` for `d > 0`.
#[inline]
pub fn floor_div(n: i64, d: i64) -> i64 {
    debug_assert!(d > 0);
    n.div_euclid(d)
}

/// `ceil(n / d)` for `d > 0`.
#[inline]
pub fn ceil_div(n: i64, d: i64) -> i64 {
    debug_assert!(d > 0);
    -(-n).div_euclid(d)
}

/// `n / d` rounded to the nearest integer, halves away from zero, for `d > 0`: the value
/// of a chance node whose weighted sum is `n` and total weight `d`. Rounding is symmetric
/// (`round_div(-n, d) == -round_div(n, d)`), so a value does not depend on which colour's
/// point of view computed it.
#[inline]
pub fn round_div(n: i64, d: i64) -> i64 {
    debug_assert!(d > 0);
    if n >= 0 {
        (2 * n + d).div_euclid(2 * d)
    } else {
        -(-2 * n + d).div_euclid(2 * d)
    }
}

/// The running bounds of one chance node being searched with window `(alpha, beta)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChanceWindow {
    pub alpha: i64,
    pub beta: i64,
    /// Total weight `Wt`.
    pub total: i64,
    /// `Σ w_i lo_i`.
    pub sum_lo: i64,
    /// `Σ w_i hi_i`.
    pub sum_hi: i64,
}

impl ChanceWindow {
    /// A node with no outcome bound yet: every outcome lies in `[lowest, highest]`.
    pub fn new(alpha: i32, beta: i32, total: i64, lowest: i32, highest: i32) -> ChanceWindow {
        ChanceWindow {
            alpha: alpha as i64,
            beta: beta as i64,
            total,
            sum_lo: total * lowest as i64,
            sum_hi: total * highest as i64,
        }
    }

    /// Replaces outcome bounds `(lo, hi)` of weight `w` by `(new_lo, new_hi)` in the sums.
    #[inline]
    pub fn update(&mut self, w: i64, (lo, hi): (i32, i32), (new_lo, new_hi): (i32, i32)) {
        self.sum_lo += w * (new_lo as i64 - lo as i64);
        self.sum_hi += w * (new_hi as i64 - hi as i64);
    }

    /// The node's value is certainly at least β: it fails high.
    #[inline]
    pub fn fails_high(&self) -> bool {
        self.sum_lo >= self.beta * self.total
    }

    /// The node's value is certainly at most α: it fails low.
    #[inline]
    pub fn fails_low(&self) -> bool {
        self.sum_hi <= self.alpha * self.total
    }

    /// The lower bound the node returns on failing high: `floor(S_lo / Wt)`.
    #[inline]
    pub fn lower_bound(&self) -> i32 {
        floor_div(self.sum_lo, self.total) as i32
    }

    /// The upper bound the node returns on failing low: `ceil(S_hi / Wt)`.
    #[inline]
    pub fn upper_bound(&self) -> i32 {
        ceil_div(self.sum_hi, self.total) as i32
    }

    /// The exact value once every outcome is exact (`S_lo == S_hi`).
    #[inline]
    pub fn exact(&self) -> i32 {
        debug_assert_eq!(self.sum_lo, self.sum_hi);
        round_div(self.sum_lo, self.total) as i32
    }

    /// The fail-low threshold `a_i` of an outcome of weight `w` with upper bound `hi`: if its
    /// value is `<= a_i`, the node fails low.
    #[inline]
    pub fn fail_low_threshold(&self, w: i64, hi: i32) -> i64 {
        floor_div(self.alpha * self.total - (self.sum_hi - w * hi as i64), w)
    }

    /// The fail-high threshold `b_i` of an outcome of weight `w` with lower bound `lo`: if its
    /// value is `>= b_i`, the node fails high.
    #[inline]
    pub fn fail_high_threshold(&self, w: i64, lo: i32) -> i64 {
        ceil_div(self.beta * self.total - (self.sum_lo - w * lo as i64), w)
    }

    /// The window to search an outcome with, clamped to `(lowest - 1, highest + 1)`.
    #[inline]
    pub fn child_window(
        &self,
        w: i64,
        (lo, hi): (i32, i32),
        lowest: i32,
        highest: i32,
    ) -> (i32, i32) {
        let a = self.fail_low_threshold(w, hi).max(lowest as i64 - 1);
        let b = self.fail_high_threshold(w, lo).min(highest as i64 + 1);
        (a as i32, b as i32)
    }
}

/// The bounds an outcome's fail-soft result `v`, searched with window `(a, b)`, proves.
#[inline]
pub fn bounds_from_result(v: i32, (a, b): (i32, i32)) -> (i32, i32) {
    if v <= a {
        (i32::MIN, v)
    } else if v >= b {
        (v, i32::MAX)
    } else {
        (v, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounds_the_right_way_for_negative_values() {
        assert_eq!(floor_div(-7, 2), -4);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(floor_div(7, 2), 3);
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(ceil_div(-8, 2), -4);
        assert_eq!(round_div(-7, 2), -4);
        assert_eq!(round_div(-5, 2), -3);
        assert_eq!(round_div(5, 2), 3);
        assert_eq!(round_div(7, 2), 4);
        assert_eq!(round_div(-8, 3), -3);
        assert_eq!(round_div(8, 3), 3);
    }

    /// Brute force over small nodes: the thresholds are the exact cut points.
    #[test]
    fn thresholds_are_exact_cut_points() {
        let weights = [1i64, 2, 3];
        let total: i64 = weights.iter().sum();
        for alpha in -4..4 {
            for beta in alpha + 1..5 {
                for lo0 in -5..5 {
                    for hi0 in lo0..5 {
                        let mut window = ChanceWindow::new(alpha, beta, total, -5, 5);
                        // Outcome 0 has bounds (lo0, hi0); outcomes 1 and 2 are open; outcome 2
                        // is the one probed.
                        window.update(weights[0], (-5, 5), (lo0, hi0));
                        let w = weights[2];
                        let a = window.fail_low_threshold(w, 5);
                        let b = window.fail_high_threshold(w, -5);
                        for v in -5..=5 {
                            let mut probe = window;
                            probe.update(w, (-5, 5), (v, v));
                            assert_eq!(probe.fails_low(), (v as i64) <= a, "{alpha} {beta} {v}");
                            assert_eq!(probe.fails_high(), (v as i64) >= b, "{alpha} {beta} {v}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn fail_soft_bounds_bracket_the_rounded_value() {
        let mut window = ChanceWindow::new(0, 1, 36, -100, 100);
        window.update(1, (-100, 100), (7, 7));
        window.update(35, (-100, 100), (3, 100));
        let lower = window.lower_bound();
        // The true value is round((7 + 35 v) / 36) for some v >= 3: at least round(112/36) = 3.
        assert!(lower <= 3);
        assert!(window.fails_high());
        assert!(lower >= 1);
    }
}
