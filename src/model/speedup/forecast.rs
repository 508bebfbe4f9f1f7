//! The prediction scalewise stands behind, and ranges measured on real scaling data.
//!
//! Fitted speed-up curves go wrong beyond the data in two ways that a few small runs cannot
//! rule out (issue 16, `VALIDATION.md`): a plateau that never comes (within-node runs that
//! share memory bandwidth look like a serial part) and a rising tail. The forecast is the
//! plainer law that did best on the validation corpora, Amdahl's with its serial part taken
//! from every measured point and the curve anchored at the largest one:
//!
//! T(n) = a + (T(k) − a)·k/n, a = the least-squares serial part of T = a + b/n (at least 0,
//! at most T(k)), k the largest measured count.
//!
//! Its range is an empirical 90 % interval of the log error, ln(measured / predicted), scaled
//! by `u = ln(max(h, 1)) + 0.3 + d`: h is the horizon (n over k) and d the disagreement at n
//! of two simpler laws with the forecast (the |ln| distances of Amdahl through the two largest
//! points and of ideal scaling from k). So the range grows with the distance beyond the data
//! and with how much the data leave open. The quantiles of ln(measured/predicted)/u come from
//! the corpora (`calibration.rs`, written by `make validate`), each source weighted equally,
//! and the level is checked on whole sources held out in turn.
//!
//! Each fitted model's prediction gets a range the same way, with quantiles measured for that
//! model: the range says how that model did at such horizons, not how tight its curve is.

use super::calibration;
pub use super::calibration::HORIZON_TOPS;
use crate::model::fit::line;

/// Quantiles of ln(measured / predicted) / u: the range is [e^(low·u), e^(high·u)] times the
/// prediction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantiles {
    pub low: f64,
    pub high: f64,
}

/// The share of the calibration scores left below `low` and above `high` (each source weighted
/// equally): 4 % each side, not 5 %, because sources differ more than series within a source;
/// at 5 % the ranges held 87 % of the measurements of held-out sources (VALIDATION.md).
pub const TAIL: f64 = 0.04;

/// The level every range states.
pub const LEVEL: f64 = 0.9;
/// Added to ln(horizon) in the scale, so that a prediction at a measured count still has a
/// range (run-to-run noise and the law's own error).
pub const SCALE_OFFSET: f64 = 0.3;

/// A time-like value per measured count: seconds, or 1/S for speed-ups (time in units of
/// T(1)); with its weight. Ascending n.
pub type Basis = [(f64, f64, f64)];

/// The anchored Amdahl law fitted to `pts`: (a, b) with T(n) = a + b/n, through the largest
/// point. None without a point.
pub fn anchored_amdahl(pts: &Basis) -> Option<(f64, f64)> {
    let &(k, tk, _) = pts.last()?;
    let serial = amdahl_serial(pts).unwrap_or(0.0).clamp(0.0, tk);
    Some((serial, (tk - serial) * k))
}

/// The least-squares serial part of T = a + b/n over `pts`, with a ≥ 0: where the line's a
/// is below 0, the law through the origin (a = 0). None with fewer than two counts.
fn amdahl_serial(pts: &Basis) -> Option<f64> {
    let xs: Vec<(f64, f64, f64)> = pts.iter().map(|&(n, t, w)| (1.0 / n, t, w)).collect();
    let l = line::fit(&xs)?;
    Some(l.intercept.max(0.0))
}

/// Amdahl's law through the two largest points (a ≥ 0), at n.
fn amdahl_last_two(pts: &Basis, n: f64) -> Option<f64> {
    let two = pts.get(pts.len().checked_sub(2)?..)?;
    let (a, b) = anchored_amdahl(two)?;
    Some(a + b / n)
}

/// One forecast value, time-like (seconds or 1/S), with its 90 % range and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// n over the largest measured count.
    pub horizon: f64,
    /// The scale u the quantiles multiply.
    pub scale: f64,
    /// The law (a, b) of T(n) = a + b/n it comes from.
    pub law: (f64, f64),
}

/// The scale u at n: ln(max(h, 1)) + 0.3 + d.
pub fn scale(pts: &Basis, n: f64, center: f64) -> Option<f64> {
    let &(k, tk, _) = pts.last()?;
    let h = n / k;
    let ideal = tk * k / n;
    let mut d = (ideal / center).ln().abs();
    if let Some(t2) = amdahl_last_two(pts, n) {
        d += (t2 / center).ln().abs();
    }
    let u = h.max(1.0).ln() + SCALE_OFFSET + d;
    u.is_finite().then_some(u)
}

/// The scale of a prediction whose disagreement is unknown: ln(max(h, 1)) + 0.3.
pub fn horizon_scale(h: f64) -> f64 {
    h.max(1.0).ln() + SCALE_OFFSET
}

/// The 90 % range of a time predicted some other way (the multigrid planner's) at horizon h,
/// with the quantiles of every predictor on the corpora scaled by the horizon alone.
pub fn horizon_range(time: f64, h: f64) -> (f64, f64) {
    range(time, horizon_scale(h), calibration::HORIZON_ONLY)
}

/// The range of a time-like `center` at scale `u` under quantiles `q`.
pub fn range(center: f64, u: f64, q: Quantiles) -> (f64, f64) {
    (center * (q.low * u).exp(), center * (q.high * u).exp())
}

/// The forecast at n from the measured basis, with its range at the committed calibration.
pub fn forecast(pts: &Basis, n: f64) -> Option<Point> {
    let (a, b) = anchored_amdahl(pts)?;
    let value = a + b / n;
    if !(value.is_finite() && value > 0.0) {
        return None;
    }
    let u = scale(pts, n, value)?;
    let (low, high) = range(value, u, calibration::FORECAST);
    let k = pts.last()?.0;
    Some(Point { value, low, high, horizon: n / k, scale: u, law: (a, b) })
}

/// The horizon band of `h` in the track record: the first of `HORIZON_TOPS` at or above it.
pub fn horizon_band(h: f64) -> usize {
    HORIZON_TOPS.iter().position(|&top| h <= top).unwrap_or(HORIZON_TOPS.len() - 1)
}

/// How often ranges of this kind held on held-out sources at the horizon of `h`: (share,
/// measurements), from the committed calibration.
pub fn track_record(h: f64) -> (f64, usize) {
    calibration::HELD_OUT[horizon_band(h)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forecast_passes_through_the_largest_point_and_keeps_the_data_serial_part() {
        // T = 10 + 90/n exactly: the serial part is 10, and the law is exact.
        let pts: Vec<(f64, f64, f64)> = [1.0, 2.0, 4.0].iter().map(|&n| (n, 10.0 + 90.0 / n, 1.0)).collect();
        let (a, b) = anchored_amdahl(&pts).unwrap();
        assert!((a - 10.0).abs() < 1e-9 && (b - 90.0).abs() < 1e-9);
        let p = forecast(&pts, 64.0).unwrap();
        assert!((p.value - (10.0 + 90.0 / 64.0)).abs() < 1e-9);
        assert!(p.low < p.value && p.value < p.high);
        assert_eq!(p.horizon, 16.0);
    }

    #[test]
    fn super_linear_data_give_no_negative_serial_part_and_a_rising_tail_no_negative_time() {
        // Times falling faster than 1/n: the line's intercept is below 0, the law goes through 0.
        let pts = [(1.0, 100.0, 1.0), (2.0, 45.0, 1.0), (4.0, 20.0, 1.0)];
        let (a, b) = anchored_amdahl(&pts).unwrap();
        assert_eq!(a, 0.0);
        assert!((b - 80.0).abs() < 1e-9);
        // Times rising at the end: a is held at the last time, the forecast stays flat.
        let rising = [(1.0, 10.0, 1.0), (2.0, 6.0, 1.0), (4.0, 8.0, 1.0)];
        let p = forecast(&rising, 1024.0).unwrap();
        assert!(p.value > 0.0 && p.value <= 8.0 + 1e-12);
    }

    #[test]
    fn ranges_grow_with_the_horizon_and_with_disagreement() {
        let pts = [(4.0, 100.0, 1.0), (8.0, 52.0, 1.0), (16.0, 28.0, 1.0)];
        let near = forecast(&pts, 32.0).unwrap();
        let far = forecast(&pts, 1024.0).unwrap();
        assert!(far.high / far.low > near.high / near.low);
        // Same horizon, the two largest points disagree more with the rest: wider.
        let bent = [(4.0, 100.0, 1.0), (8.0, 52.0, 1.0), (16.0, 40.0, 1.0)];
        let b = forecast(&bent, 32.0).unwrap();
        assert!(b.scale > near.scale);
    }
}
