//! How right are the predictions? Measured strong-scaling series (one fixed problem run at
//! several process counts, copied from public benchmark tables; `validation/` and
//! `shared/validation/`) are cut as a user would have them: the K smallest counts are
//! "measured", every larger count is predicted and compared with what was measured there.
//!
//! Reported by horizon, the predicted count over the largest fitted one (≤ 2, ≤ 4, ≤ 16, all):
//! the median and 90th percentile of |predicted − measured| / measured, the share of
//! measurements inside the predicted range, and the range's median width over the prediction.
//! Repetitions at one count are averaged before anything else.

pub mod corpus;

use corpus::Series;

/// A predicted time and its range, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Predicted {
    pub time_s: f64,
    /// The range, where the predictor gives one.
    pub range_s: Option<(f64, f64)>,
}

/// A way of predicting times at larger counts from times at a few small ones.
pub trait Predictor {
    fn name(&self) -> &str;
    /// Times at `at` from the measured `(np, time s)` (ascending np); None where it cannot.
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>>;
}

/// One prediction compared with its measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub series: String,
    pub source: String,
    pub np: u32,
    /// np over the largest fitted np.
    pub horizon: f64,
    pub measured_s: f64,
    pub predicted: Predicted,
}

impl Outcome {
    pub fn rel_error(&self) -> f64 {
        (self.predicted.time_s - self.measured_s).abs() / self.measured_s
    }
    pub fn inside(&self) -> Option<bool> {
        self.predicted.range_s.map(|(lo, hi)| lo <= self.measured_s && self.measured_s <= hi)
    }
    pub fn rel_width(&self) -> Option<f64> {
        self.predicted.range_s.map(|(lo, hi)| (hi - lo) / self.predicted.time_s)
    }
}

/// Fits the `k` smallest counts of every series with at least `k + 1` counts and predicts the
/// rest. Series the predictor cannot answer are counted in `missed`.
pub fn run(corpus: &[Series], k: usize, predictor: &dyn Predictor) -> (Vec<Outcome>, usize) {
    let mut out = Vec::new();
    let mut missed = 0;
    for s in corpus.iter().filter(|s| s.points.len() > k) {
        let (fitted, rest) = s.points.split_at(k);
        let largest = fitted[k - 1].0; // ok: k ≥ 1 points, as split_at(k) of a longer list
        let at: Vec<u32> = rest.iter().map(|p| p.0).collect();
        match predictor.predict(fitted, &at) {
            Some(ps) if ps.len() == at.len() => {
                for (&(np, measured_s), predicted) in rest.iter().zip(ps) {
                    out.push(Outcome {
                        series: s.id.clone(),
                        source: s.source.clone(),
                        np,
                        horizon: f64::from(np) / f64::from(largest),
                        measured_s,
                        predicted,
                    });
                }
            }
            _ => missed += 1,
        }
    }
    (out, missed)
}

/// The horizons reported: up to this many times the largest fitted count.
pub const HORIZONS: [(&str, f64); 4] = [("≤ 2", 2.0), ("≤ 4", 4.0), ("≤ 16", 16.0), ("all", f64::INFINITY)];

/// The figures of one horizon.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Summary {
    pub horizon: &'static str,
    pub predictions: usize,
    pub median_rel_error: f64,
    pub p90_rel_error: f64,
    /// Share of measurements inside the range (None: no ranges).
    pub coverage: Option<f64>,
    pub median_rel_width: Option<f64>,
}

/// The value at quantile `q` of sorted `xs` (nearest rank); 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn sorted(mut xs: Vec<f64>) -> Vec<f64> {
    xs.sort_by(f64::total_cmp);
    xs
}

/// The figures by horizon.
pub fn summarize(outcomes: &[Outcome]) -> Vec<Summary> {
    HORIZONS
        .iter()
        .map(|&(label, top)| {
            let within: Vec<&Outcome> = outcomes.iter().filter(|o| o.horizon <= top).collect();
            let errors = sorted(within.iter().map(|o| o.rel_error()).collect());
            let inside: Vec<bool> = within.iter().filter_map(|o| o.inside()).collect();
            let widths = sorted(within.iter().filter_map(|o| o.rel_width()).collect());
            Summary {
                horizon: label,
                predictions: within.len(),
                median_rel_error: quantile(&errors, 0.5),
                p90_rel_error: quantile(&errors, 0.9),
                coverage: (!inside.is_empty()).then(|| inside.iter().filter(|&&b| b).count() as f64 / inside.len() as f64),
                median_rel_width: (!widths.is_empty()).then(|| quantile(&widths, 0.5)),
            }
        })
        .collect()
}

/// Perfect scaling from the largest fitted count: T(k)·k/n.
pub struct IdealScaling;

impl Predictor for IdealScaling {
    fn name(&self) -> &str {
        "ideal scaling from the largest fitted count"
    }
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>> {
        let &(k, t) = measured.last()?;
        Some(at.iter().map(|&n| Predicted { time_s: t * f64::from(k) / f64::from(n), range_s: None }).collect())
    }
}

/// Amdahl's law T = a + b/n by least squares (unconstrained; a time below a picosecond is
/// taken as one, so that the relative error stays a number).
pub struct AmdahlLeastSquares;

impl Predictor for AmdahlLeastSquares {
    fn name(&self) -> &str {
        "Amdahl T = a + b/n, least squares"
    }
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>> {
        let pts: Vec<(f64, f64)> = measured.iter().map(|&(n, t)| (1.0 / f64::from(n), t)).collect();
        let l = crate::model::fit::line::fit_unweighted(&pts)?;
        Some(at.iter().map(|&n| Predicted { time_s: (l.intercept + l.slope / f64::from(n)).max(1e-12), range_s: None }).collect())
    }
}

/// The speed-up calculator's best model (by its own choice), with the range it shows.
pub struct BestModel;

impl Predictor for BestModel {
    fn name(&self) -> &str {
        "scalewise best model"
    }
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>> {
        use crate::model::speedup::{analyse, Measure, Options, RawPoint};
        let raw: Vec<RawPoint> = measured.iter().map(|&(n, t)| RawPoint { n: f64::from(n), value: t, weight: None, line: None }).collect();
        let opts = Options { targets: at.to_vec(), ..Options::default() };
        let a = analyse("points", &raw, Measure::TimeS, &opts).ok()?;
        let fit = a.best_fit()?;
        at.iter()
            .map(|&n| {
                let p = fit.predictions.iter().find(|p| p.n == n)?;
                let (t, lo, hi) = p.time_s?;
                Some(Predicted { time_s: t, range_s: Some((lo, hi)) })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(id: &str, points: &[(u32, f64)]) -> Series {
        Series { id: id.into(), source: "test".into(), application: String::new(), machine: String::new(), points: points.to_vec() }
    }

    #[test]
    fn the_protocol_predicts_every_larger_count_and_sums_by_horizon() {
        // Amdahl data, T = 10 + 90/n: the least-squares line is exact, ideal scaling is not.
        let amdahl = |n: u32| 10.0 + 90.0 / f64::from(n);
        let s = series("a", &[1, 2, 4, 8, 16, 64].map(|n| (n, amdahl(n))));
        let (out, missed) = run(std::slice::from_ref(&s), 3, &AmdahlLeastSquares);
        assert_eq!((out.len(), missed), (3, 0));
        assert_eq!(out.iter().map(|o| o.horizon).collect::<Vec<_>>(), vec![2.0, 4.0, 16.0]);
        assert!(out.iter().all(|o| o.rel_error() < 1e-12));
        let (ideal, _) = run(&[s], 3, &IdealScaling);
        // At 8: T(4)·4/8 = 16.25 against 21.25.
        assert!((ideal[0].rel_error() - 5.0 / 21.25).abs() < 1e-12);
        let sum = summarize(&ideal);
        assert_eq!(sum.iter().map(|s| s.predictions).collect::<Vec<_>>(), vec![1, 2, 3, 3]);
        assert_eq!(sum[0].coverage, None);
        // A series with no count beyond the fitted ones is left out.
        assert_eq!(run(&[series("short", &[(1, 1.0), (2, 0.6), (4, 0.4)])], 3, &IdealScaling).0.len(), 0);
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        assert_eq!((quantile(&xs, 0.5), quantile(&xs, 0.9), quantile(&xs, 1.0)), (5.0, 9.0, 10.0));
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn coverage_and_width_count_ranges() {
        let o = |m: f64, lo: f64, hi: f64| Outcome {
            series: "s".into(),
            source: "x".into(),
            np: 8,
            horizon: 2.0,
            measured_s: m,
            predicted: Predicted { time_s: 10.0, range_s: Some((lo, hi)) },
        };
        let sum = summarize(&[o(9.0, 8.0, 12.0), o(13.0, 8.0, 12.0)]);
        assert_eq!(sum[0].coverage, Some(0.5));
        assert_eq!(sum[0].median_rel_width, Some(0.4));
    }
}
