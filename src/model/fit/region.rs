//! A region's model from its measured points: the search ([`super::search`]) of the points
//! alone, or, when that model is not a positive time where it will be asked, among those that
//! are. The Bottlenecks page models every region with it and the speed-up page a region sent
//! from there (`speedup::weak`), so the two agree.

use super::search::{search, search_multi, Form, NoModel, Reach, RegionModel};
use crate::model::fmt_num;

/// One measured point of a region: n, the median time, the noise, the repetitions, and the
/// point's value of every parameter.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PointSummary {
    pub n: f64,
    pub median: f64,
    /// Relative standard deviation of the repetitions (0 for one repetition).
    pub noise: f64,
    pub repetitions: usize,
    pub coords: Vec<f64>,
}

/// The median of `v` (not empty).
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

/// `base` with the process count set to n.
pub fn with_n(base: &[f64], pi: usize, n: f64) -> Vec<f64> {
    let mut x = base.to_vec();
    if let Some(v) = x.get_mut(pi) {
        *v = n;
    }
    x
}

/// A region's model from its points (`d` parameters): the one its points choose alone, unless
/// that one is not a positive finite time at every point of `checks` (the targets and the
/// chart's points); then the one the search chooses among those that are (true). The first
/// does not depend on the targets, so a change of them needs only [`retarget`]'s evaluation
/// for most regions. A region whose values are 0 somewhere has no shape to fit: it is held at
/// its measured median, which still takes its share (own times, inclusive values less the
/// children's, are never below 0). The speed-up page models a region it is sent from the
/// Bottlenecks page with this too (`speedup::weak`), so the two agree.
pub fn region_model(points: &[PointSummary], d: usize, checks: &[Vec<f64>]) -> Result<(RegionModel, bool), NoModel> {
    if points.is_empty() || points.iter().any(|p| p.median.is_nan() || p.median <= 0.0) {
        let values: Vec<f64> = points.iter().map(|p| p.median.max(0.0)).collect();
        let m = if values.is_empty() { 0.0 } else { median(&values) };
        return Ok((
            RegionModel {
                form: Form::Normal { c0: m, terms: Vec::new() },
                loo: None,
                reach: (0..d)
                    .map(|j| Reach {
                        max: points.iter().filter_map(|p| p.coords.get(j).copied()).fold(1.0, f64::max),
                        error: 0.5,
                        doublings: 1.0,
                    })
                    .collect(),
                note: Some(format!("a value of 0 at some point: held at its measured median, {}", fmt_num(m, 4))),
            },
            false,
        ));
    }
    let alone = search_with(points, d, &[])?;
    if positive_at(&alone, checks) {
        return Ok((alone, false));
    }
    search_with(points, d, checks).map(|m| (m, true))
}

/// The search of one region's points ([`search`] with one parameter, [`search_multi`] with
/// more), each hypothesis a positive time at `checks`.
fn search_with(points: &[PointSummary], d: usize, checks: &[Vec<f64>]) -> Result<RegionModel, NoModel> {
    if d == 1 {
        let checks: Vec<f64> = checks.iter().filter_map(|c| c.first().copied()).collect();
        search(&points.iter().map(|p| (p.n, p.median, p.noise)).collect::<Vec<_>>(), &checks)
    } else {
        search_multi(&points.iter().map(|p| (p.coords.clone(), p.median, p.noise)).collect::<Vec<_>>(), checks)
    }
}

/// Whether a model is a positive finite time at each point.
pub fn positive_at(m: &RegionModel, points: &[Vec<f64>]) -> bool {
    points.iter().all(|x| {
        let t = m.form.eval_at(x);
        t.is_finite() && t > 0.0
    })
}
