//! Weak scaling: the work grows with the process count n, so a perfect code keeps its time;
//! a real one's time stays flat or grows. The measured times are modelled by the Bottlenecks
//! page's search (`model::extrap::search`: a constant, Extra-P's normal form with growing or
//! falling terms, a power law, …, chosen by leave-one-out), which predicts the time at larger
//! n with a 90 % range; the weak-scaling efficiency is T(n₀)/T(n), n₀ the smallest count
//! measured (1 when a one-process run is given), which an allocation request asks for.

use super::analysis::prepare;
use super::{Measure, RawPoint};
use crate::model::extrap::search::{search, RegionModel, LEVEL};
use crate::model::{fmt_num, InputError};

/// One measured count (repeated rows averaged, weighted).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeakPoint {
    pub n: u32,
    pub time_s: f64,
    /// T(n₀)/T(n).
    pub efficiency: f64,
    pub merged_rows: usize,
}

/// A prediction at one n: (value, low, high) at [`LEVEL`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeakPrediction {
    pub n: u32,
    pub time_s: (f64, f64, f64),
    pub efficiency: (f64, f64, f64),
    /// n over the largest measured count.
    pub horizon: f64,
}

/// A weak-scaling series, modelled.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Weak {
    pub points: Vec<WeakPoint>,
    pub model: RegionModel,
    /// The model's family and the model written out in n.
    pub family: String,
    pub formula: String,
    /// The count the efficiency is relative to, and its time.
    pub base_n: u32,
    pub base_time_s: f64,
    pub predictions: Vec<WeakPrediction>,
    /// The model's (n, (time, low, high)) from the smallest count to the largest target, for a
    /// chart.
    pub curve: Vec<(f64, (f64, f64, f64))>,
    pub level: f64,
    pub warnings: Vec<String>,
}

/// Models a weak-scaling series of times (`measure` must be times) and predicts at `targets`
/// (none: 4× and 16× the largest count).
pub fn analyse_weak(field: &str, raw: &[RawPoint], measure: Measure, targets: &[u32]) -> Result<Weak, InputError> {
    if measure != Measure::TimeS {
        return Err(InputError::new(field, "weak scaling needs times: a speed-up T(1)/T(n) means nothing when the work grows with n"));
    }
    let mut warnings = Vec::new();
    let pts = prepare(field, raw, measure, &mut warnings)?;
    let (first, last) = match (pts.first(), pts.last()) {
        (Some(a), Some(b)) => (a.n, b.n),
        _ => return Err(InputError::new(field, "no points yet: give (n, time) pairs of a weak-scaling series")),
    };
    let targets: Vec<u32> = if targets.is_empty() { vec![last.saturating_mul(4), last.saturating_mul(16)] } else { targets.to_vec() };
    let top = targets.iter().copied().max().unwrap_or(last).max(last);
    let mut ns = Vec::new();
    let mut n = first;
    while n < top && ns.len() < 40 {
        ns.push(f64::from(n));
        n = n.saturating_mul(2);
    }
    ns.push(f64::from(top));
    let series: Vec<(f64, f64, f64)> = pts.iter().map(|p| (f64::from(p.n), p.value, 0.0)).collect();
    let checks: Vec<f64> = targets.iter().map(|&t| f64::from(t)).chain(ns.iter().copied()).collect();
    let model = search(&series, &checks).map_err(|e| InputError::new(field, e))?;
    let base_time_s = pts[0].value;
    if first != 1 {
        warnings.push(format!("no run at n = 1: the efficiency is relative to the smallest count measured, n = {first}"));
    }
    let efficiency = |t: f64| base_time_s / t;
    let predictions = targets
        .iter()
        .map(|&n| {
            let (t, lo, hi) = model.at(f64::from(n));
            WeakPrediction { n, time_s: (t, lo, hi), efficiency: (efficiency(t), efficiency(hi), efficiency(lo)), horizon: f64::from(n) / f64::from(last) }
        })
        .collect();
    if let Some(note) = &model.note {
        warnings.push(note.clone());
    }
    let grows = model.grows();
    if grows {
        warnings.push(format!("the time grows with n: at n = {top} the efficiency is {}", fmt_num(efficiency(model.at(f64::from(top)).0), 3)));
    }
    Ok(Weak {
        points: pts.iter().map(|p| WeakPoint { n: p.n, time_s: p.value, efficiency: efficiency(p.value), merged_rows: p.merged_rows }).collect(),
        family: model.form.family().to_string(),
        formula: model.form.text_named(&["n"]),
        curve: ns.iter().map(|&n| (n, model.at(n))).collect(),
        model,
        base_n: first,
        base_time_s,
        predictions,
        level: LEVEL,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(pts: &[(f64, f64)]) -> Vec<RawPoint> {
        pts.iter().map(|&(n, value)| RawPoint { n, value, weight: None, nodes: None, line: None }).collect()
    }

    #[test]
    fn a_time_that_grows_as_log_n_is_predicted_with_its_efficiency() {
        // T(n) = 10 + 0.5·log2 n, to three decimals: a weak-scaling code with a tree reduction.
        let pts: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0].iter().map(|&n: &f64| (n, ((10.0 + 0.5 * n.log2()) * 1000.0).round() / 1000.0)).collect();
        let w = analyse_weak("points", &raw(&pts), Measure::TimeS, &[512, 4096]).unwrap();
        assert_eq!(w.base_n, 1);
        let truth = |n: f64| 10.0 + 0.5 * n.log2();
        for p in &w.predictions {
            let (t, lo, hi) = p.time_s;
            assert!((t / truth(f64::from(p.n)) - 1.0).abs() < 0.01, "{} at {}: {t}", w.formula, p.n);
            assert!(lo < t && t < hi);
            assert!((p.efficiency.0 - 10.0 / t).abs() < 1e-12);
            assert!(p.efficiency.1 < p.efficiency.0 && p.efficiency.0 < p.efficiency.2);
        }
        assert!(w.formula.contains("log₂ n"), "{}", w.formula);
        assert!(w.warnings.iter().any(|x| x.contains("the time grows with n")));
        assert!((w.points[5].efficiency - 10.0 / 12.5).abs() < 1e-9);
    }

    #[test]
    fn a_flat_series_stays_flat_and_speed_ups_are_refused() {
        let w = analyse_weak("points", &raw(&[(4.0, 20.0), (8.0, 20.1), (16.0, 19.9), (32.0, 20.0)]), Measure::TimeS, &[]).unwrap();
        assert_eq!(w.family, "constant");
        assert_eq!(w.predictions.iter().map(|p| p.n).collect::<Vec<_>>(), [128, 512]);
        assert!((w.predictions[1].efficiency.0 - 1.0).abs() < 0.01);
        assert!(w.warnings.iter().any(|x| x.contains("relative to the smallest count measured, n = 4")));
        let e = analyse_weak("points", &raw(&[(1.0, 1.0), (2.0, 1.9)]), Measure::Speedup, &[]).unwrap_err();
        assert!(e.message.contains("weak scaling needs times"));
        let e = analyse_weak("points", &raw(&[(1.0, -1.0), (2.0, 1.9)]), Measure::TimeS, &[]).unwrap_err();
        assert!(e.message.contains("greater than 0"), "{e}");
    }
}
