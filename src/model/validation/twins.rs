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
//!
//! The pairs are counted, not kept: a corpus of many alike series has a number of pairs that
//! grows with the square of its size, while the answer holds one summary per K. Cuts are
//! compared only within their measured counts and within `tol` on the first shape value.

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
        least_error(self.ratio)
    }
}

/// The least error one prediction leaves on the worse of two outcomes R apart.
pub fn least_error(ratio: f64) -> f64 {
    (ratio - 1.0) / (ratio + 1.0)
}

/// The twins of one K: how many pairs of predictions, how many part by more than `apart`,
/// and the widest.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub k: usize,
    pub pairs: usize,
    pub apart: usize,
    pub widest: Option<Twin>,
}

/// The shape of a cut's measured runs: ln(T(n_i)/T(k)) at each measured count.
fn shape(c: &Cut) -> Option<Vec<f64>> {
    let &(_, tk) = c.fitted.last()?;
    Some(c.fitted.iter().map(|&(_, t)| (t / tk).ln()).collect())
}

/// Calls `f(a, b, n, ratio)` for every pair of cuts with the same K, from different sources,
/// measured at the same counts, whose shapes agree within `tol` (in ln) at each count, once
/// per larger count measured in both.
pub fn each_twin(cuts: &[Cut], tol: f64, mut f: impl FnMut(&Cut, &Cut, u32, f64)) {
    // Each cut with its measured counts and shape: alike counts together, and within them by
    // the first shape value, so that each cut is compared only with those within `tol` of it
    // there.
    let mut shaped: Vec<(&Cut, Vec<u32>, Vec<f64>)> = cuts
        .iter()
        .filter_map(|c| Some((c, c.fitted.iter().map(|p| p.0).collect(), shape(c)?)))
        .filter(|(_, _, s)| s.iter().all(|x| x.is_finite()))
        .collect();
    shaped.sort_by(|(_, ca, sa), (_, cb, sb)| ca.cmp(cb).then(sa[0].total_cmp(&sb[0])));
    for (i, (a, ca, sa)) in shaped.iter().enumerate() {
        for (b, cb, sb) in &shaped[i + 1..] {
            if ca != cb || sb[0] - sa[0] > tol {
                break;
            }
            if a.source == b.source || sa.iter().zip(sb).any(|(x, y)| (x - y).abs() > tol) {
                continue;
            }
            let (ta, tb) = (a.fitted[a.k - 1].1, b.fitted[b.k - 1].1);
            // Both rests ascend by count: walk them together.
            let (mut x, mut y) = (a.rest.iter().peekable(), b.rest.iter().peekable());
            while let (Some(&&(na, t)), Some(&&(nb, u))) = (x.peek(), y.peek()) {
                if na < nb {
                    x.next();
                } else if nb < na {
                    y.next();
                } else {
                    let (ya, yb) = (t / ta, u / tb);
                    let ratio = ya.max(yb) / ya.min(yb);
                    if ratio.is_finite() {
                        f(a, b, na, ratio);
                    }
                    x.next();
                    y.next();
                }
            }
        }
    }
}

/// The twins of `cuts` summed up per K (ascending), pairs more than `apart` times apart counted.
pub fn summaries(cuts: &[Cut], tol: f64, apart: f64) -> Vec<Summary> {
    let mut out: Vec<Summary> = Vec::new();
    each_twin(cuts, tol, |a, b, n, ratio| {
        let i = out.iter().position(|s| s.k == a.k).unwrap_or_else(|| {
            out.push(Summary { k: a.k, pairs: 0, apart: 0, widest: None });
            out.len() - 1
        });
        let s = &mut out[i];
        s.pairs += 1;
        s.apart += usize::from(ratio > apart);
        if s.widest.as_ref().is_none_or(|w| ratio > w.ratio) {
            s.widest = Some(Twin { k: a.k, series: (a.series.clone(), b.series.clone()), n, ratio });
        }
    });
    out.sort_by_key(|s| s.k);
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

    fn all(cuts: &[Cut], tol: f64) -> Vec<(String, String, u32, f64)> {
        let mut out = Vec::new();
        each_twin(cuts, tol, |a, b, n, r| out.push((a.series.clone(), b.series.clone(), n, r)));
        out
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
        assert!(all(&[a.clone(), d, e], 0.05).is_empty());
        let mut t = all(&[a.clone(), b.clone(), c], 0.05);
        t.sort_by_key(|x| x.2);
        assert_eq!(t.len(), 2, "{t:?}");
        // At 16: 9/30 over 2.5/10. At 64: 8.4/30 over 0.7/10, R = 4, so one prediction leaves
        // at least 60 % on one of them.
        assert_eq!((t[0].2, t[1].2), (16, 64));
        assert!((t[0].3 - 1.2).abs() < 1e-9, "{}", t[0].3);
        assert!((t[1].3 - 4.0).abs() < 1e-9, "{}", t[1].3);
        assert!((least_error(t[1].3) - 0.6).abs() < 1e-9);
        // Beyond the tolerance they are not twins.
        assert!(all(
            &[
                cut("a", "s1", &[(1, 40.0), (2, 20.0), (4, 10.0)], &[(64, 0.7)]),
                cut("b", "s2", &[(1, 44.0), (2, 20.0), (4, 10.0)], &[(64, 8.0)])
            ],
            0.05
        )
        .is_empty());
        // The summary counts both pairs, one more than 2× apart, and keeps the widest.
        let s = summaries(&[a, b], 0.05, 2.0);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].k, s[0].pairs, s[0].apart), (3, 2, 1));
        let w = s[0].widest.as_ref().expect("a widest");
        assert_eq!((w.series.0.as_str(), w.series.1.as_str(), w.n), ("a", "b", 64));
    }

    #[test]
    fn the_sorted_sweep_finds_every_pair_the_definition_does() {
        // Shapes spread over a few tolerances, counts of two kinds, sources of three: the sweep
        // (sorted, broken off beyond tol on the first value) finds what comparing every pair does.
        let mut cuts = Vec::new();
        for i in 0..60u32 {
            let f = f64::from(i);
            let t1 = 40.0 * (1.0 + 0.013 * f64::from(i % 7));
            let t2 = 20.0 * (1.0 + 0.011 * f64::from(i % 5));
            let counts = if i % 4 == 0 { [1, 2, 8] } else { [1, 2, 4] };
            let fitted = [(counts[0], t1), (counts[1], t2), (counts[2], 10.0)];
            cuts.push(cut(
                &format!("s{i}"),
                &format!("src{}", i % 3),
                &fitted,
                &[(16, 2.0 + 0.1 * f), (32, 1.0 + 0.05 * f)],
            ));
        }
        let pair = |a: &str, b: &str, n: u32| {
            if a < b {
                (a.to_string(), b.to_string(), n)
            } else {
                (b.to_string(), a.to_string(), n)
            }
        };
        let mut brute = Vec::new();
        for (i, a) in cuts.iter().enumerate() {
            for b in &cuts[i + 1..] {
                let alike = a.fitted.iter().zip(&b.fitted).all(|(p, q)| {
                    p.0 == q.0 && ((p.1 / a.fitted[2].1).ln() - (q.1 / b.fitted[2].1).ln()).abs() <= 0.05
                });
                if alike && a.source != b.source {
                    brute.extend([16, 32].map(|n| pair(&a.series, &b.series, n)));
                }
            }
        }
        let mut found: Vec<_> = all(&cuts, 0.05).into_iter().map(|(a, b, n, _)| pair(&a, &b, n)).collect();
        brute.sort();
        found.sort();
        assert!(brute.len() > 20, "{}", brute.len());
        assert_eq!(found, brute);
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
