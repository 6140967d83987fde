//! Match statistics: W/D/L overall and by colour, score, Elo difference with a 95% error
//! bar, likelihood of superiority, pentanomial counts over game pairs, and the GSPRT
//! log-likelihood ratio used by `--sprt`.
//!
//! Everything is from engine 1's point of view. Elo here is **logistic** Elo
//! (`score = 1 / (1 + 10^(-elo/400))`), and the SPRT bounds `elo0`/`elo1` are logistic Elo
//! too. The SPRT uses the pentanomial model (each colour-swapped pair on one opening is one
//! sample with score 0, ¼, ½, ¾ or 1) with the normal approximation of the generalized SPRT
//! (as in fishtest's `LLR_logistic` and cutechess/fastchess), which is robust to the
//! correlation between the two games of a pair.

/// A game's result seen from engine 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score1 {
    Win,
    Draw,
    Loss,
}

impl Score1 {
    pub const ALL: [Score1; 3] = [Score1::Win, Score1::Draw, Score1::Loss];

    /// `win`, `draw` or `loss`, as `games.jsonl` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Score1::Win => "win",
            Score1::Draw => "draw",
            Score1::Loss => "loss",
        }
    }

    /// Points out of 1.
    pub fn points(self) -> f64 {
        match self {
            Score1::Win => 1.0,
            Score1::Draw => 0.5,
            Score1::Loss => 0.0,
        }
    }

    /// Half-points out of 2, for pair arithmetic without floats.
    fn half_points(self) -> usize {
        match self {
            Score1::Win => 2,
            Score1::Draw => 1,
            Score1::Loss => 0,
        }
    }
}

/// Wins, draws and losses of engine 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn add(&mut self, score: Score1) {
        match score {
            Score1::Win => self.wins += 1,
            Score1::Draw => self.draws += 1,
            Score1::Loss => self.losses += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction in [0, 1]; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The Elo difference implied by the score, with the half-width of its 95% confidence
    /// interval (trinomial model). Infinite when the score is 0 or 1.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        let s = self.score()?;
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let stderr = (var / n).sqrt();
        let lo = elo_from_score(s - Z95 * stderr);
        let hi = elo_from_score(s + Z95 * stderr);
        Some(EloEstimate {
            elo: elo_from_score(s),
            error95: (hi - lo) / 2.0,
        })
    }

    /// The likelihood of superiority: the probability that engine 1 is stronger, from wins
    /// and losses alone (draws carry no information). `None` without a decisive game.
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

/// The 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// An Elo difference and the half-width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub error95: f64,
}

/// Logistic Elo from a score fraction (±infinity at 1 and 0, NaN outside [0, 1]).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score at a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Counts of game pairs by engine 1's pair score: index k holds pairs worth k half-points
/// (0 = lost both, 2 = e.g. a win and a loss or two draws, 4 = won both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    pub fn add_pair(&mut self, first: Score1, second: Score1) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), logistic Elo,
    /// normal approximation on the pair scores. Each count gets a tiny prior (1e-3, as
    /// fishtest's regularisation) so that a variance of zero cannot divide by zero.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let counts: Vec<f64> = self.0.iter().map(|&c| c as f64 + 1e-3).collect();
        let n: f64 = counts.iter().sum();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
        let var: f64 = counts
            .iter()
            .zip(values)
            .map(|(c, v)| c * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        // Drop the prior's weight from the sample size so that N is the real pair count.
        let pairs = self.pairs() as f64;
        pairs * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// An SPRT set-up: the two hypotheses and the error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H1 accepted: engine 1 is at least `elo1` stronger (within the error rates).
    AcceptH1,
    /// H0 accepted: engine 1 is at most `elo0` stronger.
    AcceptH0,
}

impl Sprt {
    /// The lower and upper LLR bounds: ln(β/(1−α)) and ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision after `pairs` finished pairs with log-likelihood ratio `llr`. No
    /// decision before [`Sprt::MIN_PAIRS`]: the normal approximation takes its variance from
    /// the sample, and a handful of pairs that happen to score alike give a variance near zero
    /// and an LLR far beyond either bound (one pair scoring ½–0 gave −3.9 against [0, 10]).
    pub fn state_after(&self, llr: f64, pairs: u32) -> SprtState {
        if Self::may_decide(pairs) {
            self.state(llr)
        } else {
            SprtState::Continue
        }
    }

    /// Pairs played before the SPRT may decide.
    pub const MIN_PAIRS: u32 = 10;

    /// Whether `pairs` finished pairs are enough for a decision (and an LLR worth showing).
    fn may_decide(pairs: u32) -> bool {
        pairs >= Self::MIN_PAIRS
    }

    /// The LLR and its bounds for a progress line, e.g. `LLR 0.15 [-2.94, 2.94]`; before
    /// [`Sprt::MIN_PAIRS`] pairs no number (it can lie far beyond a bound and decides
    /// nothing yet): `LLR - (from pair 10) [-2.94, 2.94]`.
    pub fn progress_text(&self, pentanomial: &Pentanomial) -> String {
        let (lo, hi) = self.bounds();
        if Self::may_decide(pentanomial.pairs()) {
            let llr = pentanomial.llr(self.elo0, self.elo1);
            format!("LLR {llr:.2} [{lo:.2}, {hi:.2}]")
        } else {
            format!("LLR - (from pair {}) [{lo:.2}, {hi:.2}]", Self::MIN_PAIRS)
        }
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn score_and_elo_match_hand_computation() {
        // 60 wins, 20 draws, 20 losses: score 0.7, Elo = -400 log10(1/0.7 - 1) = 147.19.
        let w = wdl(60, 20, 20);
        assert_eq!(w.score(), Some(0.7));
        let e = w.elo().unwrap();
        assert!((e.elo - 147.19).abs() < 0.01, "{e:?}");
        // var = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16; stderr = 0.04;
        // interval 0.7 ± 0.0784 → Elo 86.2 .. 218.3, half-width 66.0.
        let lo = elo_from_score(0.7 - Z95 * 0.04);
        let hi = elo_from_score(0.7 + Z95 * 0.04);
        assert!(
            (lo - 86.2).abs() < 0.1 && (hi - 218.3).abs() < 0.1,
            "{lo} {hi}"
        );
        assert!((e.error95 - (hi - lo) / 2.0).abs() < 1e-9);
        assert!((e.error95 - 66.0).abs() < 0.1, "{e:?}");
    }

    #[test]
    fn even_score_is_zero_elo_and_half_los() {
        let w = wdl(5, 10, 5);
        assert_eq!(w.elo().unwrap().elo, 0.0);
        assert!((w.los().unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(wdl(0, 3, 0).los(), None);
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn los_is_phi_of_one_at_ten_wins_six_losses() {
        // (10 - 6) / sqrt(2 · 16) = 0.7071 → LOS = Φ(1) = 0.841345.
        let los = wdl(10, 7, 6).los().unwrap();
        assert!((los - 0.841_345).abs() < 1e-5, "{los}");
        assert!(wdl(6, 7, 10).los().unwrap() < 0.2);
    }

    #[test]
    fn erf_known_values() {
        assert!((erf(0.0)).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
    }

    #[test]
    fn perfect_scores_give_infinite_elo() {
        assert_eq!(wdl(3, 0, 0).elo().unwrap().elo, f64::INFINITY);
        assert_eq!(wdl(0, 0, 3).elo().unwrap().elo, f64::NEG_INFINITY);
    }

    #[test]
    fn pentanomial_counts_pairs_by_half_points() {
        let mut p = Pentanomial::default();
        p.add_pair(Score1::Win, Score1::Loss);
        p.add_pair(Score1::Draw, Score1::Draw);
        p.add_pair(Score1::Win, Score1::Win);
        p.add_pair(Score1::Loss, Score1::Draw);
        assert_eq!(p.0, [0, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
    }

    #[test]
    fn llr_matches_hand_computation() {
        // Pairs [LL, LD, DD, WD, WW] = [10, 20, 40, 20, 10]: mean 0.5, and
        // var = (10·0.25 + 20·0.0625 + 0 + 20·0.0625 + 10·0.25)/100 = 0.075.
        // elo0 = 0 (s0 = 0.5), elo1 = 10 (s1 = 0.514387):
        // LLR = 100 · 0.014387 · (1 - 1.014387) / (2 · 0.075) = -0.13799.
        let p = Pentanomial([10, 20, 40, 20, 10]);
        let llr = p.llr(0.0, 10.0);
        assert!((llr + 0.137_99).abs() < 2e-4, "{llr}");
        // Symmetric: a strong result gives a large positive LLR.
        assert!(Pentanomial([0, 5, 20, 40, 35]).llr(0.0, 10.0) > 2.0);
    }

    #[test]
    fn no_decision_before_ten_pairs() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // One pair scoring a loss and a draw: the sample variance is almost zero.
        let one = Pentanomial([0, 1, 0, 0, 0]);
        let llr = one.llr(0.0, 10.0);
        assert_eq!(sprt.state(llr), SprtState::AcceptH0);
        assert_eq!(sprt.state_after(llr, one.pairs()), SprtState::Continue);
        let many = Pentanomial([10, 20, 0, 0, 0]);
        let llr = many.llr(0.0, 10.0);
        assert_eq!(sprt.state_after(llr, many.pairs()), SprtState::AcceptH0);
        // The progress line shows no LLR until it may decide.
        assert_eq!(
            sprt.progress_text(&one),
            "LLR - (from pair 10) [-2.94, 2.94]"
        );
        assert_eq!(
            sprt.progress_text(&many),
            format!("LLR {llr:.2} [-2.94, 2.94]")
        );
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        // ln(0.05/0.95) = -2.944, ln(0.95/0.05) = 2.944.
        assert!((lo + 2.944_44).abs() < 1e-4 && (hi - 2.944_44).abs() < 1e-4);
        assert_eq!(sprt.state(0.0), SprtState::Continue);
        assert_eq!(sprt.state(3.0), SprtState::AcceptH1);
        assert_eq!(sprt.state(-3.0), SprtState::AcceptH0);
        // A crushing pentanomial result passes; a crushing loss fails.
        let win = Pentanomial([0, 0, 5, 20, 75]);
        assert_eq!(sprt.state(win.llr(0.0, 10.0)), SprtState::AcceptH1);
        let loss = Pentanomial([75, 20, 5, 0, 0]);
        assert_eq!(sprt.state(loss.llr(0.0, 10.0)), SprtState::AcceptH0);
    }

    #[test]
    fn score_elo_round_trip() {
        for elo in [-300.0, -50.0, 0.0, 12.5, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }
}
