//! Where the measured runs cannot tell: pairs of series from different sources, measured at
//! the same counts, whose first K times agree in shape (each time over the time at the
//! largest measured count, within a tolerance such as run-to-run noise) and whose times at a
//! larger count, also measured in both, do not.
//!
//! A rule that reads only the measured times gives such a pair (almost) one prediction p of
//! T(n)/T(k). With the two outcomes y and R·y (R ≥ 1), the better of them is off by at least
//! (R − 1)/(R + 1) of its measurement whatever p is: p = 2R·y/(1 + R) leaves both errors equal
//! to that, and any other p raises one of them. The pairs bound what any forecast from K
//! small runs can reach on these corpora (`VALIDATION.md`, "Limits").

use super::Cut;

/// Two cuts that agree on the measured runs and part at a count both measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Twin {
    pub k: usize,
    pub series: (String, String),
    /// The count where they part.
    pub n: u32,
    /// The larger over the smaller of T(n)/T(k): R ≥ 1.
    pub ratio: f64,
}

impl Twin {
    /// The least error (over the measurement) one prediction leaves on the worse of the two.
    pub fn least_error(&self) -> f64 {
        (self.ratio - 1.0) / (self.ratio + 1.0)
    }
}

/// The shape of a cut's measured runs: ln(T(n_i)/T(k)) at each measured count but the last.
fn shape(c: &Cut) -> Option<Vec<f64>> {
    let &(_, tk) = c.fitted.last()?;
    Some(c.fitted.iter().map(|&(_, t)| (t / tk).ln()).collect())
}

/// Every pair of cuts with the same K, from different sources, measured at the same counts,
/// whose shapes agree within `tol` (in ln) at each count; one twin per larger count measured
/// in both. Ordered by falling ratio.
pub fn twins(cuts: &[Cut], tol: f64) -> Vec<Twin> {
    let shaped: Vec<(&Cut, Vec<f64>)> = cuts.iter().filter_map(|c| Some((c, shape(c)?))).collect();
    let mut out = Vec::new();
    for (i, (a, sa)) in shaped.iter().enumerate() {
        for (b, sb) in &shaped[i + 1..] {
            let same_counts = a.k == b.k && a.fitted.iter().map(|p| p.0).eq(b.fitted.iter().map(|p| p.0));
            if a.source == b.source || !same_counts || sa.iter().zip(sb).any(|(x, y)| (x - y).abs() > tol) {
                continue;
            }
            let (ta, tb) = (a.fitted[a.k - 1].1, b.fitted[b.k - 1].1);
            for &(n, t) in &a.rest {
                let Some(&(_, u)) = b.rest.iter().find(|p| p.0 == n) else { continue };
                let (ya, yb) = (t / ta, u / tb);
                let ratio = ya.max(yb) / ya.min(yb);
                if ratio.is_finite() {
                    out.push(Twin { k: a.k, series: (a.series.clone(), b.series.clone()), n, ratio });
                }
            }
        }
    }
    out.sort_by(|x, y| y.ratio.total_cmp(&x.ratio));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(series: &str, source: &str, fitted: &[(u32, f64)], rest: &[(u32, f64)]) -> Cut {
        Cut {
            series: series.into(),
            source: source.into(),
            file: 0,
            k: fitted.len(),
            fitted: fitted.to_vec(),
            fitted_nodes: vec![None; fitted.len()],
            rest: rest.to_vec(),
            cores_per_node: None,
            analysis: None,
        }
    }

    #[test]
    fn series_alike_in_their_first_runs_part_where_both_measured() {
        // a and b agree within 2 % in shape (b is a slowed by 3×); they part at 64, where a
        // kept scaling and b stopped. c has another shape.
        let a = cut("a", "s1", &[(1, 40.0), (2, 20.0), (4, 10.0)], &[(16, 2.5), (64, 0.7)]);
        let b = cut("b", "s2", &[(1, 120.0), (2, 61.0), (4, 30.0)], &[(16, 9.0), (64, 8.4), (128, 8.0)]);
        let c = cut("c", "s3", &[(1, 40.0), (2, 30.0), (4, 20.0)], &[(64, 1.0)]);
        // d is a's twin but from a's own source; e is a's twin measured at other counts.
        let d = cut("d", "s1", &[(1, 40.0), (2, 20.0), (4, 10.0)], &[(64, 9.0)]);
        let e = cut("e", "s4", &[(1, 80.0), (2, 40.0), (8, 10.0)], &[(64, 9.0)]);
        assert!(twins(&[a.clone(), d, e], 0.05).is_empty());
        let t = twins(&[a, b, c], 0.05);
        assert_eq!(t.len(), 2, "{t:?}");
        assert_eq!((t[0].n, t[0].series.0.as_str(), t[0].series.1.as_str()), (64, "a", "b"));
        // 8.4/30 over 0.7/10: R = 4, so one prediction leaves at least 60 % on one of them.
        assert!((t[0].ratio - 4.0).abs() < 1e-9, "{}", t[0].ratio);
        assert!((t[0].least_error() - 0.6).abs() < 1e-9);
        assert!((t[1].ratio - 1.2).abs() < 1e-9, "{}", t[1].ratio);
        // Beyond the tolerance they are not twins.
        assert!(twins(&[cut("a", "s1", &[(1, 40.0), (2, 20.0), (4, 10.0)], &[(64, 0.7)]), cut("b", "s2", &[(1, 44.0), (2, 20.0), (4, 10.0)], &[(64, 8.0)])], 0.05).is_empty());
    }

    #[test]
    fn the_least_error_is_what_the_best_single_prediction_leaves() {
        let tw = Twin { k: 3, series: ("a".into(), "b".into()), n: 8, ratio: 3.0 };
        // Any p: the worse of |p − 1| and |p − 3|/3 is at least the bound, reached at p = 1.5.
        let worst = |p: f64| f64::max((p - 1.0).abs(), (p - 3.0).abs() / 3.0);
        let best = (1..400).map(|i| worst(f64::from(i) * 0.01)).fold(f64::INFINITY, f64::min);
        assert!((best - tw.least_error()).abs() < 1e-9, "{best} vs {}", tw.least_error());
    }
}
