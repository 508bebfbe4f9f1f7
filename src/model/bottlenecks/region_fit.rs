//! One region's fit as the ranking holds it ([`RegionFit`]): its points, its model, and what
//! the model says at the ranking's targets and chart.

use crate::model::fit::region::PointSummary;
use crate::model::fit::search::RegionModel;
use crate::model::fit::{Prediction, RawPoint};

/// A predicted time whose range spans more than this factor (high over low), or whose low end
/// is not above 0, is uninformative: it says only that the model's form was extrapolated, not
/// how long the region takes ([`uninformative`]). A factor 1000 is three orders of magnitude,
/// where any time a user could plan for lies inside the range.
pub const UNINFORMATIVE_SPAN: f64 = 1000.0;

/// One region's fit. Web Workers pass it on as JSON without `raw` (each worker fits its own
/// share of the regions).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RegionFit {
    pub callpath: String,
    pub metric: String,
    pub points: Vec<PointSummary>,
    /// The points as the speed-up calculator reads them (n and median, with their lines).
    #[serde(skip)]
    pub raw: Vec<RawPoint>,
    /// The region's model (None only when its points hold no usable value).
    pub model: Option<RegionModel>,
    /// The model's family ("normal form", "power law", "constant", "multi-parameter", …).
    pub best: Option<String>,
    /// The model written out in the parameters' names ("0.21 + 0.058·p^(1/3)·log₂ p").
    pub formula: Option<String>,
    /// The predicted time grows with n beyond the data.
    pub grows: bool,
    /// Why the region could not be modelled.
    pub error: Option<String>,
    /// What a model of one or two counts rests on.
    pub note: Option<String>,
    /// The model's predictions, one per target of the ranking, in its order (time_s filled).
    pub predictions: Vec<Prediction>,
    pub stops_scaling_n: Option<u32>,
    /// The model's predicted (time, low, high) at the chart's counts ([`Ranking::chart_ns`]),
    /// the other parameters held as for the first target.
    pub curve: Vec<(u32, (f64, f64, f64))>,
    /// Per point (in `points`' order), the median over repetitions of the region's imbalance,
    /// its largest value over its mean across a run's locations, when the experiment has it
    /// (Score-P runs: the metric [`super::runs::imbalance_metric`]); empty otherwise.
    #[serde(default)]
    pub imbalance: Vec<Option<f64>>,
    /// The imbalance grows with the process count ([`imbalance_grows`]).
    #[serde(default)]
    pub imbalance_grows: bool,
    /// The model was chosen among those that are a positive time at every target and chart
    /// count, as the one the points choose alone is not ([`region_model`]); such a model is
    /// chosen again when the targets change ([`retarget`]).
    #[serde(default)]
    pub chosen_for_targets: bool,
}

impl RegionFit {
    pub fn best_name(&self) -> Option<&str> {
        self.best.as_deref()
    }

    /// Predicted (time, low, high) at the ranking's target `i`.
    pub fn time_at(&self, i: usize) -> Option<(f64, f64, f64)> {
        self.predictions.get(i)?.time_s
    }

    /// Whether the prediction at target `i` is [`uninformative`] (false where there is none).
    pub fn uninformative_at(&self, i: usize) -> bool {
        self.time_at(i).is_some_and(|t| uninformative(t.1, t.2))
    }

    /// Predicted (time, low, high) at the chart's count n.
    pub fn curve_at(&self, n: u32) -> Option<(f64, f64, f64)> {
        self.curve.iter().find(|c| c.0 == n).map(|c| c.1)
    }
}

/// Whether a predicted time's range (low, high) carries no information: above 0 at its high
/// end, and low not above 0 or high over low more than [`UNINFORMATIVE_SPAN`]
/// (strong_scaling/one_parameter_1.txt at 960: 1.6e-22 to 1.2e24 s). A time of 0 to 0 (a
/// region that takes none) is exact, not uninformative.
pub fn uninformative(low: f64, high: f64) -> bool {
    // A NaN anywhere counts as uninformative.
    let ratio = high / low;
    (high > 0.0 || high.is_nan()) && (low <= 0.0 || low.is_nan() || ratio > UNINFORMATIVE_SPAN || ratio.is_nan())
}
