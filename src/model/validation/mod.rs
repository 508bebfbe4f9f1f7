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

use crate::model::speedup::forecast::{self, Quantiles, TAIL};
use crate::model::speedup::{analyse, Measure, Model, Options, RawPoint};

/// A predicted time and its range, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Predicted {
    pub time_s: f64,
    /// The range, where the predictor gives one.
    pub range_s: Option<(f64, f64)>,
    /// The scale u of a calibrated range (see `speedup::forecast`): the range is set from the
    /// scores ln(measured / predicted) / u of other sources.
    pub scale: Option<f64>,
}

impl Predicted {
    pub fn point(time_s: f64) -> Predicted {
        Predicted { time_s, range_s: None, scale: None }
    }
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
    /// How many counts were fitted.
    pub k: usize,
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
    /// ln(measured / predicted) / u, for calibrated predictors.
    pub fn score(&self) -> Option<f64> {
        let u = self.predicted.scale?;
        let r = (self.measured_s / self.predicted.time_s).ln() / u;
        r.is_finite().then_some(r)
    }
}

/// The quantiles of the scores of `outcomes` at `TAIL` and 1 − `TAIL`, each source weighted
/// equally (sources, not series, are what a new user's program differs by). None without
/// scores.
pub fn calibrate<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Option<Quantiles> {
    let scored: Vec<(&str, f64)> = outcomes.into_iter().filter_map(|o| o.score().map(|r| (o.source.as_str(), r))).collect();
    let mut per_source: Vec<(&str, usize)> = Vec::new();
    for (src, _) in &scored {
        match per_source.iter_mut().find(|(s, _)| s == src) {
            Some(e) => e.1 += 1,
            None => per_source.push((src, 1)),
        }
    }
    let mut weighted: Vec<(f64, f64)> = scored
        .iter()
        .map(|(src, r)| (*r, 1.0 / per_source.iter().find(|(s, _)| s == src).map_or(1, |e| e.1) as f64))
        .collect();
    weighted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = weighted.iter().map(|w| w.1).sum();
    let at = |q: f64| -> Option<f64> {
        let mut c = 0.0;
        for &(r, w) in &weighted {
            c += w;
            if c >= q * total * (1.0 - 1e-12) {
                return Some(r);
            }
        }
        weighted.last().map(|w| w.0)
    };
    Some(Quantiles { low: at(TAIL)?, high: at(1.0 - TAIL)? })
}

/// Gives every calibrated outcome the range set on the other sources (each source held out in
/// turn), so that the share inside is measured on data the range never saw.
pub fn hold_out_ranges(outcomes: &mut [Outcome]) {
    let mut sources: Vec<String> = outcomes.iter().map(|o| o.source.clone()).collect();
    sources.sort();
    sources.dedup();
    for src in sources {
        let Some(q) = calibrate(outcomes.iter().filter(|o| o.source != src)) else { continue };
        for o in outcomes.iter_mut().filter(|o| o.source == src) {
            if let Some(u) = o.predicted.scale {
                o.predicted.range_s = Some(forecast::range(o.predicted.time_s, u, q));
            }
        }
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
                        k,
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
        Some(at.iter().map(|&n| Predicted::point(t * f64::from(k) / f64::from(n))).collect())
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
        Some(at.iter().map(|&n| Predicted::point((l.intercept + l.slope / f64::from(n)).max(1e-12))).collect())
    }
}

fn analysis(measured: &[(u32, f64)], at: &[u32]) -> Option<crate::model::speedup::Analysis> {
    let raw: Vec<RawPoint> = measured.iter().map(|&(n, t)| RawPoint { n: f64::from(n), value: t, weight: None, line: None }).collect();
    let opts = Options { targets: at.to_vec(), ..Options::default() };
    analyse("points", &raw, Measure::TimeS, &opts).ok()
}

fn from_predictions(ps: &[crate::model::speedup::Prediction], at: &[u32]) -> Option<Vec<Predicted>> {
    at.iter()
        .map(|&n| {
            let p = ps.iter().find(|p| p.n == n)?;
            let (t, lo, hi) = p.time_s?;
            Some(Predicted { time_s: t, range_s: Some((lo, hi)), scale: Some(p.scale) })
        })
        .collect()
}

/// The calculator's forecast (anchored Amdahl, `speedup::forecast`), with its range.
pub struct Forecast;

impl Predictor for Forecast {
    fn name(&self) -> &str {
        "scalewise forecast"
    }
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>> {
        from_predictions(&analysis(measured, at)?.forecast, at)
    }
}

/// The speed-up calculator's best-fitting model (by its own choice), with its range.
pub struct BestModel;

impl Predictor for BestModel {
    fn name(&self) -> &str {
        "best-fitting model"
    }
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>> {
        from_predictions(&analysis(measured, at)?.best_fit()?.predictions, at)
    }
}

/// One fitted model, with its range.
pub struct ModelFit(pub Model);

impl Predictor for ModelFit {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn predict(&self, measured: &[(u32, f64)], at: &[u32]) -> Option<Vec<Predicted>> {
        from_predictions(&analysis(measured, at)?.fit(self.0)?.predictions, at)
    }
}

/// The share of `outcomes` inside their ranges in each horizon band of the forecast's track
/// record (`speedup::forecast::horizon_band`): (share, count).
pub fn coverage_by_horizon(outcomes: &[Outcome]) -> Vec<(f64, usize)> {
    let mut counts = vec![(0usize, 0usize); forecast::HORIZON_TOPS.len()];
    for o in outcomes {
        if let Some(inside) = o.inside() {
            let c = &mut counts[forecast::horizon_band(o.horizon)];
            c.0 += usize::from(inside);
            c.1 += 1;
        }
    }
    counts.into_iter().map(|(i, n)| (if n == 0 { 0.0 } else { i as f64 / n as f64 }, n)).collect()
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
            k: 3,
            np: 8,
            horizon: 2.0,
            measured_s: m,
            predicted: Predicted { time_s: 10.0, range_s: Some((lo, hi)), scale: None },
        };
        let sum = summarize(&[o(9.0, 8.0, 12.0), o(13.0, 8.0, 12.0)]);
        assert_eq!(sum[0].coverage, Some(0.5));
        assert_eq!(sum[0].median_rel_width, Some(0.4));
    }
}
