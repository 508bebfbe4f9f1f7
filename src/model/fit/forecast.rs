//! The prediction scalewise stands behind, and ranges measured on real scaling data.
//!
//! Fitted speed-up curves go wrong beyond the data in ways a few small runs cannot rule out
//! (issues 16 and 31, `VALIDATION.md`): a plateau that never comes (within-node runs that
//! share memory bandwidth, or a slow first step, look like a serial part), a rising tail, and
//! codes that scale poorly in their first runs and then nearly perfectly. The forecast is the
//! rule that did best on the validation corpora when whole sources were held out, judged by
//! the pooled median error and by the worse sources (`validation::candidates`). With k the
//! largest measured count and T(k) its time, it blends two readings of the runs, both through
//! T(k):
//!
//! - Amdahl's law anchored at k: A(n) = a + (T(k) − a)·k/n, a the least-squares serial part
//!   of T = a + b/n over every measured point (at least 0, at most T(k));
//! - the trend of the last two runs: P(n) = T(k)·(k/n)^α, α the log–log slope between the two
//!   largest counts, held within [0, 1].
//!
//! ln T(n) = w·ln A(n) + (1 − w)·ln P(n), with w = clamp(w₀ − c·r, 0, 1) and r the rise of the
//! local slope (the last pair's α less the first pair's): where the runs scale better the
//! further they go, the serial part Amdahl reads from the first runs is not one, and the trend
//! takes over. [`RULE`] holds w₀ and c. Where every measured run sat inside one node of r
//! processes and n needs more nodes, the forecast is carried to r and scaled from there as
//! (r/n)^γ ([`ACROSS_NODES`]): leaving the node costs what the network costs. Times may be
//! seconds or 1/S (speed-ups).
//!
//! Its range is an empirical 90 % interval of the log error ln(measured / predicted) over
//! `u = 1 + d`, d the disagreement at n of two simpler laws with the forecast (the |ln|
//! distances of Amdahl through the two largest points and of ideal scaling from k). The
//! percentiles of ln(measured/predicted)/u are taken per horizon band (n over k: up to 2, 4,
//! 16, beyond) and per number of measured counts (3 or fewer, 4 or more), from the corpora
//! (`calibration.rs`, written by `make validate`), and checked on whole sources held out in
//! turn. Each cell's percentiles are the 5th and 95th, or further out (down to the 2nd and
//! 98th, `calibration::TAILS`) where sources held out of that cell's scores in turn, each
//! counted alike, held less than 90 % (`validation::held_tail`): a new program is a new
//! source, and at short horizons the sources differ more than their predictions spread. The
//! bands of a count class are set nearest first, each widened to hold the nearer band's
//! percentiles (`validation::Held`): a range never narrows as n goes further out, so the band
//! beyond 16×, which few sources reach, does not rest on those few alone. When every measured run sits inside one node and n needs more nodes, u
//! is multiplied by a factor measured on such predictions (`calibration::NODE_FACTOR`).
//!
//! Each fitted model's prediction gets a range the same way, with quantiles measured for that
//! model: the range says how that model did at such horizons, not how tight its curve is.

use super::calibration;
pub use super::calibration::HORIZON_TOPS;
pub use super::quantiles::Quantiles;
use crate::model::fit::line;

/// The share of the calibration scores left below `low` and above `high`, each side, for the
/// forecast's and the models' ranges, at most: less in a cell where held-out sources need it
/// (`validation::held_tail`).
pub const TAIL: f64 = 0.05;
/// The same for the ranges scaled by the horizon alone (the planner's): 4 % each side, each
/// source weighted equally (issue 16).
pub const HORIZON_TAIL: f64 = 0.04;

/// The level every range states.
pub const LEVEL: f64 = 0.9;
/// Added to ln(horizon) in the planner's scale, so that a prediction at a measured count
/// still has a range (run-to-run noise and the law's own error).
pub const SCALE_OFFSET: f64 = 0.3;
/// The weight of the disagreement d in the forecast's scale u = 1 + d: of the scales tried
/// (VALIDATION.md), the one whose ranges held 85–95 % in every band, narrowest up to 16×.
pub const DISAGREEMENT_WEIGHT: f64 = 1.0;

/// A time-like value per measured count: seconds, or 1/S for speed-ups (time in units of
/// T(1)); with its weight. Ascending n.
pub type Basis = [(f64, f64, f64)];

/// How the forecast weighs Amdahl's reading against the last runs' trend.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// w = clamp(w0 − c·r, 0, 1) on Amdahl, the rest on the trend (r the slope's rise).
    Blend { w0: f64, c: f64 },
    /// The trend alone where the slope rose by more than `rise`, else half and half.
    Switch { rise: f64 },
}

impl Rule {
    /// The weight on Amdahl's reading, for a slope that rose by `r`.
    pub fn weight(self, r: f64) -> f64 {
        match self {
            Rule::Blend { w0, c } => (w0 - c * r).clamp(0.0, 1.0),
            Rule::Switch { rise } => {
                if r > rise {
                    0.0
                } else {
                    0.5
                }
            }
        }
    }
}

/// The rule of the forecast, chosen on the corpora by `make validate` (a test fails when the
/// corpora would choose another).
pub const RULE: Rule = Rule::Blend { w0: 0.6, c: 1.0 };
/// Where every measured run is inside one node of r processes and n needs more nodes, the
/// forecast is carried to r and scaled from there as (r/n)^γ, γ this exponent (None: the
/// rule alone); chosen with the rule.
pub const ACROSS_NODES: Option<f64> = Some(0.7);

/// The forecast's rule in words (the command's `method`).
pub fn method() -> String {
    let w = match RULE {
        Rule::Blend { w0, c } => format!("clamp({w0} - {c}·rise, 0, 1)"),
        Rule::Switch { rise } => format!("0 if rise > {rise}, else 0.5"),
    };
    format!(
        "ln T(n) = w·ln(serial + parallel/n) + (1 - w)·ln(T(k)·(k/n)^trend_exponent): Amdahl's law anchored at the largest \
         measured count k (serial: the least-squares serial part of every point, ≥ 0) blended with the trend of the last two runs; \
         w = amdahl_weight = {w}, rise the log-log slope of the last pair of counts less the first pair's"
    )
}

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

/// The log–log slope −d ln T / d ln n between two points.
fn slope(a: (f64, f64, f64), b: (f64, f64, f64)) -> f64 {
    -(b.1 / a.1).ln() / (b.0 / a.0).ln()
}

/// The local slopes of the first and of the last pair of counts; None below two counts.
pub fn slopes(pts: &Basis) -> Option<(f64, f64)> {
    let (first, last) = (pts.get(..2)?, pts.get(pts.len() - 2..)?);
    let (s0, s1) = (slope(first[0], first[1]), slope(last[0], last[1]));
    (s0.is_finite() && s1.is_finite()).then_some((s0, s1))
}

/// The forecast's law: its two readings and their weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Law {
    /// Amdahl's (a, b), T = a + b/n, anchored at the largest count.
    pub amdahl: (f64, f64),
    /// The largest measured count and its time-like value.
    pub k: f64,
    pub tk: f64,
    /// The trend's exponent α (the last pair's slope within [0, 1]).
    pub exponent: f64,
    /// The rise of the local slope, last pair over first.
    pub rise: f64,
    /// The weight on Amdahl's reading.
    pub weight: f64,
}

impl Law {
    /// The law of `pts` under `rule`. None below two counts.
    pub fn new(pts: &Basis, rule: Rule) -> Option<Law> {
        let &(k, tk, _) = pts.last()?;
        let (s0, s1) = slopes(pts)?;
        let amdahl = anchored_amdahl(pts)?;
        let rise = s1 - s0;
        Some(Law { amdahl, k, tk, exponent: s1.clamp(0.0, 1.0), rise, weight: rule.weight(rise) })
    }
    pub fn amdahl_at(&self, n: f64) -> f64 {
        self.amdahl.0 + self.amdahl.1 / n
    }
    pub fn trend_at(&self, n: f64) -> f64 {
        self.tk * (self.k / n).powf(self.exponent)
    }
    /// The forecast's time-like value at n.
    pub fn at(&self, n: f64) -> f64 {
        let (a, p) = (self.amdahl_at(n), self.trend_at(n));
        if self.weight <= 0.0 {
            return p;
        }
        (self.weight * a.ln() + (1.0 - self.weight) * p.ln()).exp()
    }
}

/// Where the measured runs sit among nodes, as far as the user said.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Nodes {
    /// Processes per node: given, or the most any measured point put on one node.
    pub per_node: Option<f64>,
    /// Every measured point ran inside one node.
    pub inside_one: bool,
}

impl Nodes {
    /// The nodes n processes need, when the processes per node are known.
    pub fn at(&self, n: f64) -> Option<u32> {
        let r = self.per_node.filter(|r| *r >= 1.0)?;
        let d = (n / r - 1e-9).ceil().max(1.0);
        (d <= f64::from(u32::MAX)).then_some(d as u32)
    }
    /// Whether a prediction at n leaves the one node every measured point ran in.
    pub fn crosses(&self, n: f64) -> bool {
        self.inside_one && self.at(n).is_some_and(|d| d > 1)
    }
}

/// One forecast value, time-like (seconds or 1/S), with its 90 % range and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// n over the largest measured count.
    pub horizon: f64,
    /// The scale u the quantiles multiply (before the node factor).
    pub scale: f64,
    /// The Amdahl reading (a, b) of T(n) = a + b/n it blends.
    pub law: (f64, f64),
    /// Every measured run inside one node, and n on more than one.
    pub crosses_nodes: bool,
    /// The nodes n needs, when known.
    pub nodes: Option<u32>,
}

/// The scale u at n: 1 + d.
pub fn scale(pts: &Basis, n: f64, center: f64) -> Option<f64> {
    let &(k, tk, _) = pts.last()?;
    let ideal = tk * k / n;
    let mut d = (ideal / center).ln().abs();
    if let Some(t2) = amdahl_last_two(pts, n) {
        d += (t2 / center).ln().abs();
    }
    let u = 1.0 + DISAGREEMENT_WEIGHT * d;
    u.is_finite().then_some(u)
}

/// The scale of a prediction whose disagreement is unknown (the planner's): ln(max(h, 1)) + 0.3.
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

/// The class of a calibration by the number of measured counts: 3 or fewer, 4 or more.
pub fn count_class(counts: usize) -> usize {
    usize::from(counts >= 4)
}

/// The horizon band of `h` in the track record: the first of `HORIZON_TOPS` at or above it.
pub fn horizon_band(h: f64) -> usize {
    HORIZON_TOPS.iter().position(|&top| h <= top).unwrap_or(HORIZON_TOPS.len() - 1)
}

/// The forecast at n from the measured basis, with its range at the committed calibration.
pub fn forecast(pts: &Basis, n: f64, nodes: Nodes) -> Option<Point> {
    let law = Law::new(pts, RULE)?;
    let crosses_nodes = nodes.crosses(n);
    let value = match (ACROSS_NODES, nodes.per_node) {
        (Some(gamma), Some(r)) if crosses_nodes => law.at(r) * (r / n).powf(gamma),
        _ => law.at(n),
    };
    if !(value.is_finite() && value > 0.0) {
        return None;
    }
    let u = scale(pts, n, value)?;
    let h = n / law.k;
    let widened = if crosses_nodes { u * calibration::NODE_FACTOR } else { u };
    let (low, high) = range(value, widened, calibration::FORECAST[count_class(pts.len())][horizon_band(h)]);
    Some(Point { value, low, high, horizon: h, scale: u, law: law.amdahl, crosses_nodes, nodes: nodes.at(n) })
}

/// How often ranges of this kind held on held-out sources at the horizon of `h`, for a
/// forecast from `counts` measured counts: (share, measurements, median width over the
/// prediction), from the committed calibration.
pub fn track_record(h: f64, counts: usize) -> (f64, usize, f64) {
    calibration::HELD_OUT[count_class(counts)][horizon_band(h)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basis(pts: &[(f64, f64)]) -> Vec<(f64, f64, f64)> {
        pts.iter().map(|&(n, t)| (n, t, 1.0)).collect()
    }

    #[test]
    fn the_forecast_passes_through_the_largest_point() {
        // Whatever the blend, both readings go through T(k).
        for pts in [basis(&[(1.0, 100.0), (2.0, 55.0), (4.0, 32.0)]), basis(&[(1.0, 100.0), (2.0, 80.0), (4.0, 41.0)])]
        {
            let law = Law::new(&pts, RULE).unwrap();
            assert!((law.at(4.0) - pts[2].1).abs() < 1e-9 * pts[2].1);
        }
    }

    #[test]
    fn amdahl_data_blend_amdahl_with_the_trend_of_the_last_two() {
        // T = 10 + 90/n: Amdahl's reading is exact; the slope falls, so Amdahl weighs w₀ + c·|r|.
        let pts = basis(&[(1.0, 100.0), (2.0, 55.0), (4.0, 32.5)]);
        let law = Law::new(&pts, Rule::Blend { w0: 0.6, c: 1.0 }).unwrap();
        assert!((law.amdahl.0 - 10.0).abs() < 1e-9 && (law.amdahl.1 - 90.0).abs() < 1e-9);
        let (s0, s1) = ((100.0f64 / 55.0).ln() / 2f64.ln(), (55.0f64 / 32.5).ln() / 2f64.ln());
        assert!((law.exponent - s1).abs() < 1e-12 && (law.rise - (s1 - s0)).abs() < 1e-12);
        assert!((law.weight - (0.6 - (s1 - s0))).abs() < 1e-12);
        // ln T(64) is the weighted mean of the two readings' logs.
        let (a, p): (f64, f64) = (10.0 + 90.0 / 64.0, 32.5 * (4.0f64 / 64.0).powf(s1));
        assert!((law.at(64.0) - (law.weight * a.ln() + (1.0 - law.weight) * p.ln()).exp()).abs() < 1e-9);
        assert!(p < law.at(64.0) && law.at(64.0) < a);
    }

    #[test]
    fn runs_that_scale_better_further_out_follow_their_trend() {
        // A slow first step (1 → 2 gains 1.2×), then near-perfect steps: Amdahl would read a
        // serial part of a third of the run; the slope rose by 0.5, so the trend alone is used.
        let pts = basis(&[(1.0, 120.0), (2.0, 100.0), (4.0, 51.0)]);
        let law = Law::new(&pts, Rule::Blend { w0: 0.6, c: 1.0 }).unwrap();
        assert_eq!(law.weight, 0.0);
        assert!((law.at(64.0) - 51.0 * (4.0f64 / 64.0).powf(law.exponent)).abs() < 1e-9);
        assert_eq!(Rule::Switch { rise: 0.3 }.weight(0.5), 0.0);
        assert_eq!(Rule::Switch { rise: 0.3 }.weight(0.1), 0.5);
    }

    #[test]
    fn super_linear_and_rising_tails_are_held_within_ideal_and_flat() {
        // Times falling faster than 1/n: the trend is ideal scaling, Amdahl's serial part 0.
        let pts = basis(&[(1.0, 100.0), (2.0, 45.0), (4.0, 20.0)]);
        let law = Law::new(&pts, RULE).unwrap();
        assert_eq!((law.amdahl.0, law.exponent), (0.0, 1.0));
        assert!((law.at(8.0) - 10.0).abs() < 1e-9);
        // Times rising at the end: the trend is flat, the forecast never above T(k).
        let rising = basis(&[(1.0, 10.0), (2.0, 6.0), (4.0, 8.0)]);
        let p = forecast(&rising, 1024.0, Nodes::default()).unwrap();
        assert!(p.value > 0.0 && p.value <= 8.0 + 1e-12);
    }

    #[test]
    fn ranges_grow_with_the_horizon_and_with_disagreement() {
        let pts = basis(&[(4.0, 100.0), (8.0, 52.0), (16.0, 28.0)]);
        let near = forecast(&pts, 32.0, Nodes::default()).unwrap();
        let far = forecast(&pts, 1024.0, Nodes::default()).unwrap();
        assert!(near.low < near.value && near.value < near.high);
        assert!(far.high / far.low > near.high / near.low);
        // Same horizon, the two largest points disagree more with the rest: a larger scale.
        let bent = basis(&[(4.0, 100.0), (8.0, 52.0), (16.0, 40.0)]);
        assert!(forecast(&bent, 32.0, Nodes::default()).unwrap().scale > near.scale);
    }

    #[test]
    fn leaving_the_one_node_of_the_runs_is_flagged_and_widens_the_range() {
        let pts = basis(&[(8.0, 100.0), (16.0, 52.0), (32.0, 28.0)]);
        let one = Nodes { per_node: Some(32.0), inside_one: true };
        assert_eq!((one.at(32.0), one.at(33.0), one.at(128.0)), (Some(1), Some(2), Some(4)));
        let inside = forecast(&pts, 32.0, one).unwrap();
        let across = forecast(&pts, 128.0, one).unwrap();
        let plain = forecast(&pts, 128.0, Nodes::default()).unwrap();
        assert!(!inside.crosses_nodes && across.crosses_nodes && !plain.crosses_nodes);
        assert_eq!((across.nodes, plain.nodes), (Some(4), None));
        // Across nodes the forecast scales from the node's size as (r/n)^γ.
        let law = Law::new(&pts, RULE).unwrap();
        let expected = ACROSS_NODES.map_or(law.at(128.0), |g| law.at(32.0) * (32.0f64 / 128.0).powf(g));
        assert!((across.value - expected).abs() < 1e-9 * expected);
        const { assert!(calibration::NODE_FACTOR >= 1.0) };
        assert!(across.high / across.low >= plain.high / plain.low);
        // Runs already spread over nodes: no node is left, whatever n.
        let spread = Nodes { per_node: Some(32.0), inside_one: false };
        assert!(!forecast(&pts, 128.0, spread).unwrap().crosses_nodes);
    }
}
