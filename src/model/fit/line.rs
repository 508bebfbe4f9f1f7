//! Weighted least-squares straight lines, the one home of the line fits the calculators use:
//! multigrid's α(np) and Tcomp(work) lines (seed 000), Hockney's and LogP's lines (seed 002),
//! and Amdahl's law fitted in 1/n (seed 004).
//!
//! Sums are centred on the weighted means, which keeps a line through two points exact and
//! the fit well conditioned when x is large and varies little.

/// y = intercept + slope·x.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    pub intercept: f64,
    pub slope: f64,
}

/// The weighted least-squares line through `(x, y, weight)` points (weights ≥ 0). None when
/// the weights add up to 0, x does not vary among the weighted points, or the line is not
/// finite.
pub fn fit(points: &[(f64, f64, f64)]) -> Option<Line> {
    let (mut sw, mut sx, mut sy) = (0.0, 0.0, 0.0);
    for &(x, y, w) in points {
        sw += w;
        sx += w * x;
        sy += w * y;
    }
    if sw.is_nan() || sw <= 0.0 {
        return None;
    }
    let (mx, my) = (sx / sw, sy / sw);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y, w) in points {
        sxx += w * (x - mx) * (x - mx);
        sxy += w * (x - mx) * (y - my);
    }
    if sxx.is_nan() || sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    (slope.is_finite() && intercept.is_finite()).then_some(Line { intercept, slope })
}

/// The same with every weight 1.
pub fn fit_unweighted(points: &[(f64, f64)]) -> Option<Line> {
    let weighted: Vec<(f64, f64, f64)> = points.iter().map(|&(x, y)| (x, y, 1.0)).collect();
    fit(&weighted)
}

/// The least-squares slope of a line forced through `(x0, y0)`: Σw(x−x0)(y−y0) / Σw(x−x0)².
/// None when no weighted point has x ≠ x0, or the slope is not finite.
pub fn slope_through(x0: f64, y0: f64, points: &[(f64, f64, f64)]) -> Option<f64> {
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y, w) in points {
        sxy += w * (x - x0) * (y - y0);
        sxx += w * (x - x0) * (x - x0);
    }
    if sxx.is_nan() || sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    slope.is_finite().then_some(slope)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Normal equations solved by Cramer's rule: an independent reference.
    fn cramer(points: &[(f64, f64, f64)]) -> (f64, f64) {
        let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x, y, w) in points {
            sw += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
        }
        let det = sw * sxx - sx * sx;
        ((sy * sxx - sx * sxy) / det, (sw * sxy - sx * sy) / det)
    }

    #[test]
    fn lines_match_the_normal_equations() {
        let cases: &[&[(f64, f64, f64)]] = &[
            &[(1.0, 3.0, 1.0), (2.0, 5.0, 1.0)],
            &[(0.0, 1.0, 1.0), (1.0, 2.9, 2.0), (2.0, 5.2, 0.5), (4.0, 8.7, 1.0)],
            &[(1e3, 10.0, 1.0), (2e3, 21.0, 1.0), (4e3, 39.0, 3.0)],
        ];
        for pts in cases {
            let l = fit(pts).expect("a line");
            let (a, b) = cramer(pts);
            assert!((l.intercept - a).abs() <= 1e-9 * a.abs().max(1.0), "{pts:?}: {l:?} against {a}");
            assert!((l.slope - b).abs() <= 1e-9 * b.abs().max(1.0), "{pts:?}: {l:?} against {b}");
        }
        // Through two points exactly.
        assert_eq!(fit_unweighted(&[(4.0, 1580.0), (8.0, 1610.0)]), Some(Line { intercept: 1550.0, slope: 7.5 }));
    }

    #[test]
    fn degenerate_inputs_give_none() {
        assert_eq!(fit(&[]), None);
        assert_eq!(fit(&[(2.0, 1.0, 1.0), (2.0, 3.0, 1.0)]), None);
        assert_eq!(fit(&[(1.0, 1.0, 0.0), (2.0, 3.0, 0.0)]), None);
        assert_eq!(fit(&[(0.0, 0.0, 1.0), (1e-300, 1e300, 1.0)]), None);
        assert_eq!(slope_through(1.0, 1.0, &[(1.0, 5.0, 1.0)]), None);
        assert_eq!(slope_through(0.0, 0.0, &[(2.0, 4.0, 1.0), (4.0, 8.0, 1.0)]), Some(2.0));
    }
}
