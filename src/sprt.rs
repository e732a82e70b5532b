//! The sequential probability ratio test of `variant match --sprt`: stop a match as soon as
//! its games tell which of two Elo hypotheses holds.
//!
//! Why game pairs: a match alternates sides, so games `2k` and `2k+1` are the same two players
//! with the colours swapped. Counting each pair's total (0, ½, 1, 1½ or 2 for A) in five bins —
//! the pentanomial count of fishtest and fastchess — cancels the first mover's advantage out of
//! the variance, so the test decides sooner than counting games one by one.
//!
//! The log-likelihood ratio is the generalized SPRT's normal approximation that fishtest used
//! (Michel Van den Bergh's notes): with the mean pair score `m` and its variance `v` over `N`
//! pairs (each pair's score halved to lie in 0..1), and `s0`, `s1` the expected scores of the
//! logistic Elo hypotheses, `LLR = N (s1 - s0) (2m - s0 - s1) / (2v)`. The test stops when the
//! LLR leaves `[ln(β/(1-α)), ln((1-β)/α)]`.
//!
//! Regularisation: an empty bin counts as a tenth of a pair. Fishtest gives it 10⁻³, which is
//! fine after thousands of pairs; a match of this program is often a few dozen, and with 10⁻³ a
//! single pair (one sweep, or two even games) has almost no variance and "decides" (LLR ±17).
//! A tenth keeps a sweep of `mcts` over `random` stopping after about five pairs (bounds 0,50)
//! and lets equal players run on.

use std::fmt;

/// `ELO0,ELO1[,ALPHA,BETA]` as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR went below the lower bound: `elo0` holds.
    H0,
    /// The LLR went above the upper bound: `elo1` holds.
    H1,
    /// Neither bound reached.
    Undecided,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Undecided => "undecided",
        })
    }
}

/// Pairs counted by A's total over the pair, in half points: bin `i` holds pairs worth `i/2`.
pub type Pentanomial = [u64; 5];

/// A pair's empty bins count as this much of a pair.
const REGULARISATION: f64 = 0.1;

impl std::str::FromStr for Sprt {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let numbers: Vec<f64> = text
            .split(',')
            .map(|part| {
                part.trim().parse::<f64>().ok().filter(|n| n.is_finite()).ok_or_else(|| {
                    format!("--sprt `{text}`: `{part}` is not a number (write ELO0,ELO1[,ALPHA,BETA], e.g. `0,10` or `0,10,0.05,0.05`)")
                })
            })
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match numbers[..] {
            [elo0, elo1] => (elo0, elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => (elo0, elo1, alpha, beta),
            _ => {
                return Err(format!(
                    "--sprt `{text}`: give two numbers ELO0,ELO1 or four ELO0,ELO1,ALPHA,BETA"
                ))
            }
        };
        if elo0 >= elo1 {
            return Err(format!(
                "--sprt `{text}`: ELO0 ({elo0}) must be less than ELO1 ({elo1})"
            ));
        }
        if elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0 {
            return Err(format!(
                "--sprt `{text}`: the Elo bounds must lie between -1000 and 1000"
            ));
        }
        for (name, value) in [("ALPHA", alpha), ("BETA", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(format!(
                    "--sprt `{text}`: {name} ({value}) must be more than 0 and less than 0.5"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

/// The expected score of a player `elo` Elo stronger (logistic model).
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// The LLR bounds `(lower, upper)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `elo1` against `elo0` given the pairs counted.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = pairs
            .iter()
            .map(|&n| if n == 0 { REGULARISATION } else { n as f64 })
            .collect();
        let total: f64 = counts.iter().sum();
        let score = |bin: usize| bin as f64 / 4.0;
        let mean: f64 = (0..5).map(|bin| counts[bin] * score(bin)).sum::<f64>() / total;
        let variance: f64 = (0..5)
            .map(|bin| counts[bin] * (score(bin) - mean).powi(2))
            .sum::<f64>()
            / total;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Whether the pairs so far decide.
    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Undecided
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Sprt, Verdict};

    fn sprt(text: &str) -> Sprt {
        text.parse().expect("valid")
    }

    #[test]
    fn bounds_follow_alpha_and_beta() {
        let (lower, upper) = sprt("0,10").bounds();
        assert!((lower + 2.944).abs() < 0.001, "{lower}");
        assert!((upper - 2.944).abs() < 0.001, "{upper}");
    }

    #[test]
    fn a_sweep_accepts_h1_and_even_pairs_decide_nothing_early() {
        let test = sprt("0,10");
        assert_eq!(test.verdict(&[0, 0, 0, 0, 30]), Verdict::H1);
        assert_eq!(test.verdict(&[30, 0, 0, 0, 0]), Verdict::H0);
        // One pair decides nothing.
        assert_eq!(test.verdict(&[0, 0, 0, 0, 1]), Verdict::Undecided);
        assert_eq!(test.verdict(&[0, 0, 1, 0, 0]), Verdict::Undecided);
        assert_eq!(test.verdict(&[0, 0, 0, 0, 0]), Verdict::Undecided);
        // Balanced results: the mean is ½, nearer s0 than s1, so the LLR is slightly negative.
        let even = test.llr(&[1, 2, 4, 2, 1]);
        assert!(even < 0.0 && even > -2.944, "{even}");
    }

    #[test]
    fn bad_arguments_are_refused() {
        for text in [
            "10,0",
            "0",
            "0,10,0.05",
            "a,b",
            "0,10,0.7,0.05",
            "0,10,0,0.05",
            "0,5000",
        ] {
            assert!(text.parse::<Sprt>().is_err(), "{text}");
        }
    }
}
