//! Which regions of an Extra-P experiment will dominate at a target process count, and which
//! stop scaling first.
//!
//! Each region (call path) of the chosen metric is one point per process count n, its value
//! the median of the repetitions (the noise, the repetitions' relative standard deviation, is
//! reported beside it). Its model is found by [`super::search`]: Extra-P's normal form over
//! growing and falling terms, strong scaling with a growing overhead, a power law and the
//! speed-up calculator's nonlinear models, chosen by leave-one-out. Every region gets one,
//! whichever way it moves: a constant is a model, and a region with one or two counts gets the
//! simplest model its points allow, saying so. Its predictions (time with its range) come
//! from that model.
//!
//! The share of region i at n is tᵢ(n)/Σⱼ tⱼ(n) over every region, which reads the values as
//! each region's own (exclusive) time, as Extra-P's flat call-path lists are. Its range is the
//! widest the time ranges allow: lowᵢ/(lowᵢ + Σⱼ≠ᵢ highⱼ) to highᵢ/(highᵢ + Σⱼ≠ᵢ lowⱼ).
//!
//! A region stops scaling at the first n (doubling from its smallest measured count) where
//! doubling the processes cuts its predicted time by less than 5 % (a region whose time grows
//! stops at once); a region whose time grows with n is flagged.
//!
//! A second parameter (problem size, …) is held at one of its values (by default the largest),
//! or every value is fitted on its own (`SideChoice::PerValue`), each with its own ranking.

use std::ops::Range;

use super::search::{search, RegionModel};
use super::{Experiment, FIELD};
use crate::model::speedup::{Prediction, RawPoint};
use crate::model::{fmt_num, InputError};

/// Most regions the page fits (in its Web Workers, about a millisecond each per core), the
/// default of [`RankOptions::max_regions`].
pub const MAX_REGIONS: usize = 2_000;
/// Most regions the command fits (on every core): Extra-P experiments of thousands of
/// regions are common.
pub const MAX_REGIONS_BATCH: usize = 100_000;
/// Largest n a prediction or the stop-scaling search goes to.
const MAX_N: u32 = 1 << 24;
/// "Stops scaling": doubling n cuts the time by less than this fraction.
const STOP_GAIN: f64 = 0.05;

/// What to do with a second parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum SideChoice {
    /// The largest value.
    Largest,
    /// This value.
    Value(f64),
    /// Each value on its own.
    PerValue,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RankOptions {
    /// The metric ranked (None: one called "time", else the first).
    pub metric: Option<String>,
    /// The parameter that is the process count (None: guessed from its name, else the first).
    pub process_parameter: Option<String>,
    pub side: SideChoice,
    /// Process counts to predict and rank at.
    pub targets: Vec<u32>,
    /// Most regions (times side values) fitted; more is an error that says so.
    pub max_regions: usize,
}

impl Default for RankOptions {
    fn default() -> Self {
        RankOptions { metric: None, process_parameter: None, side: SideChoice::Largest, targets: Vec::new(), max_regions: MAX_REGIONS }
    }
}

/// One measured point of a region: n, the median time, the noise, the repetitions.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PointSummary {
    pub n: f64,
    pub median: f64,
    /// Relative standard deviation of the repetitions (0 for one repetition).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub noise: f64,
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub repetitions: usize,
}

/// One region's fit. Web Workers pass it on as JSON without `raw` (each worker fits its own
/// share of the regions): what the ranking and the page read is in the other fields. The page
/// itself (wasm without the `worker` feature) reads only what it shows of a ranked region: the
/// fields marked `skip_deserializing` there stay empty, which keeps the code that would read
/// them out of the page's wasm.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RegionFit {
    pub callpath: String,
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub metric: String,
    /// The second parameter's value this fit holds (when there is one).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub side: Option<f64>,
    pub points: Vec<PointSummary>,
    /// The points as the speed-up calculator reads them (a region's points on that page).
    #[serde(skip)]
    pub raw: Vec<RawPoint>,
    /// The region's model (None only when its points hold no usable time).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub model: Option<RegionModel>,
    /// The model's family ("normal form", "power law", "constant", "downey", …).
    pub best: Option<String>,
    /// The model written out ("0.21 + 0.058·p^(1/3)·log₂ p").
    pub formula: Option<String>,
    /// The predicted time grows with n beyond the data.
    pub grows: bool,
    /// Why the region could not be modelled, or what its model rests on (one or two counts).
    pub error: Option<String>,
    pub note: Option<String>,
    /// The model's predictions at the targets (time_s filled).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub predictions: Vec<Prediction>,
    pub stops_scaling_n: Option<u32>,
    /// The model's predicted (time, low, high) in seconds at the plan's chart counts
    /// ([`Ranking::chart_ns`]).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "worker")), serde(skip_deserializing))]
    pub curve: Vec<(u32, (f64, f64, f64))>,
}

impl RegionFit {
    pub fn best_name(&self) -> Option<&str> {
        self.best.as_deref()
    }

    /// Predicted (time, low, high) in seconds at n by the region's model.
    pub fn time_at(&self, n: u32) -> Option<(f64, f64, f64)> {
        if let Some(p) = self.predictions.iter().find(|p| p.n == n) {
            return p.time_s;
        }
        if let Some(c) = self.curve.iter().find(|c| c.0 == n) {
            return Some(c.1);
        }
        Some(self.model.as_ref()?.at(f64::from(n)))
    }
}

/// A region's share at n.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Share {
    /// Index into `Ranking::regions`.
    pub region: usize,
    pub time_s: f64,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

/// The regions at one n (and side value), largest share first.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub n: u32,
    pub side: Option<f64>,
    pub rows: Vec<Share>,
}

/// The top region at one n.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Dominant {
    pub n: u32,
    pub side: Option<f64>,
    pub callpath: String,
    pub share: f64,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ranking {
    pub process_parameter: String,
    pub side_parameter: Option<String>,
    /// The side values fitted (one unless per value).
    pub side_values: Vec<f64>,
    pub metric: String,
    pub metrics: Vec<String>,
    pub targets: Vec<u32>,
    /// The counts the page's chart of shares covers: doublings from the smallest measured
    /// count to the largest target (at most 24), then that target.
    pub chart_ns: Vec<u32>,
    pub regions: Vec<RegionFit>,
    pub tables: Vec<Table>,
    pub dominant: Vec<Dominant>,
    /// Indices of the regions that stop scaling first (smallest stops_scaling_n), per side.
    pub first_to_stop: Vec<usize>,
    pub warnings: Vec<String>,
}

const PROCESS_NAMES: &[&str] = &["p", "np", "n", "procs", "nprocs", "processes", "process", "ranks", "nranks", "mpi", "cores", "nodes", "num_procs"];

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

fn noise(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
    let cv = var.sqrt() / mean.abs();
    if cv.is_finite() {
        cv
    } else {
        0.0
    }
}

/// The first n (doubling from `from`) where doubling cuts the predicted time by less than 5 %.
fn stops_scaling(m: &RegionModel, from: u32) -> Option<u32> {
    let mut n = from.max(1);
    while n < MAX_N {
        let (t, t2) = (m.form.eval(f64::from(n)), m.form.eval(f64::from(2 * n)));
        if t.is_nan() || t <= 0.0 || t2 > t * (1.0 - STOP_GAIN) {
            return Some(n);
        }
        n *= 2;
    }
    None
}

/// A prediction at n from the model: the time with its range, the speed-up over the model's
/// time on one process (below 1 for a region that grows).
fn predict(m: &RegionModel, n: u32) -> Prediction {
    let (t, lo, hi) = m.at(f64::from(n));
    let t1 = m.form.eval(1.0);
    let t1 = if t1.is_finite() && t1 > 0.0 { t1 } else { t };
    let nf = f64::from(n);
    Prediction {
        n,
        speedup: t1 / t,
        speedup_low: t1 / hi,
        speedup_high: t1 / lo,
        efficiency: t1 / t / nf,
        time_s: Some((t, lo, hi)),
        horizon: nf / m.p_max,
        scale: 0.0,
    }
}

/// A ranking prepared but not yet fitted: every region's points, in the order the ranking
/// lists them, and what the ranking reports besides. [`plan`] makes it; [`fit_regions`] fits
/// any run of its regions (so callers may split the fits, e.g. between Web Workers);
/// [`finish`] ranks the fitted regions. [`rank`] is the three in one.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    process_parameter: String,
    side_parameter: Option<String>,
    side_values: Vec<Option<f64>>,
    metric: String,
    metrics: Vec<String>,
    targets: Vec<u32>,
    chart_ns: Vec<u32>,
    warnings: Vec<String>,
    /// The regions, unfitted (no model, no predictions).
    regions: Vec<RegionFit>,
}

impl Plan {
    /// How many regions the ranking fits.
    pub fn len(&self) -> usize {
        self.regions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.regions.is_empty()
    }

    /// The second parameter, when the experiment has one.
    pub fn side_parameter(&self) -> Option<&str> {
        self.side_parameter.as_deref()
    }

    /// `k` runs of regions (k at least 1), contiguous, in order, covering every region once and
    /// as even as whole regions allow; the same for the same plan and k.
    pub fn shares(&self, k: usize) -> Vec<Range<usize>> {
        let (n, k) = (self.regions.len(), k.max(1));
        (0..k).map(|w| w * n / k..(w + 1) * n / k).collect()
    }
}

/// Prepares the ranking of the regions of `e` (see the module's text): picks the metric, the
/// parameters and the side values, and summarises each region's points. Fits nothing.
pub fn plan(e: &Experiment, opts: &RankOptions) -> Result<Plan, InputError> {
    let err = |m: String| InputError::new(FIELD, m);
    let metrics: Vec<String> = e.metrics().into_iter().map(String::from).collect();
    let metric = match &opts.metric {
        Some(m) => metrics.iter().find(|x| *x == m).cloned().ok_or_else(|| err(format!("no metric \"{m}\"; the experiment has {}", metrics.join(", "))))?,
        None => metrics
            .iter()
            .find(|m| m.eq_ignore_ascii_case("time"))
            .or(metrics.first())
            .cloned()
            .unwrap_or_default(),
    };
    if e.parameters.len() > 2 {
        return Err(err(format!("{} parameters: scalewise reads one (the process count) or two (process count and one more)", e.parameters.len())));
    }
    let pi = match &opts.process_parameter {
        Some(p) => e.parameters.iter().position(|x| x == p).ok_or_else(|| err(format!("no parameter \"{p}\"; the experiment has {}", e.parameters.join(", "))))?,
        None => e.parameters.iter().position(|x| PROCESS_NAMES.contains(&x.to_ascii_lowercase().as_str())).unwrap_or(0),
    };
    let si = (e.parameters.len() == 2).then_some(1 - pi);
    let mut warnings = Vec::new();
    let side_values: Vec<Option<f64>> = match si {
        None => vec![None],
        Some(si) => {
            let all = e.values_of(si);
            match &opts.side {
                SideChoice::Largest => {
                    let v = all.last().copied();
                    if let Some(v) = v {
                        warnings.push(format!("{} held at its largest value, {}", e.parameters[si], fmt_num(v, 6)));
                    }
                    vec![v]
                }
                SideChoice::Value(v) => {
                    if !all.contains(v) {
                        let shown: Vec<String> = all.iter().map(|x| fmt_num(*x, 6)).collect();
                        return Err(err(format!("{} = {} was not measured; the values are {}", e.parameters[si], fmt_num(*v, 6), shown.join(", "))));
                    }
                    vec![Some(*v)]
                }
                SideChoice::PerValue => all.into_iter().map(Some).collect(),
            }
        }
    };
    let series: Vec<_> = e.series.iter().filter(|s| s.metric == metric).collect();
    if series.len() * side_values.len() > opts.max_regions {
        return Err(err(format!(
            "{} regions to fit is more than the {} read at once; choose one value of the second parameter or split the file",
            series.len() * side_values.len(),
            opts.max_regions
        )));
    }
    let mut regions = Vec::new();
    for &side in &side_values {
        for s in &series {
            let mut pts: Vec<_> = s.points.iter().filter(|m| si.is_none_or(|si| Some(m.coords[si]) == side)).collect();
            pts.sort_by(|a, b| a.coords[pi].total_cmp(&b.coords[pi]));
            let summaries: Vec<PointSummary> = pts
                .iter()
                .map(|m| PointSummary { n: m.coords[pi], median: median(&m.values), noise: noise(&m.values), repetitions: m.values.len() })
                .collect();
            let raw: Vec<RawPoint> =
                summaries.iter().zip(&pts).map(|(p, m)| RawPoint { n: p.n, value: p.median, weight: None, line: m.line }).collect();
            let fit = RegionFit {
                callpath: s.callpath.clone(),
                metric: s.metric.clone(),
                side,
                points: summaries,
                raw,
                model: None,
                best: None,
                formula: None,
                grows: false,
                error: None,
                note: None,
                predictions: Vec::new(),
                stops_scaling_n: None,
                curve: Vec::new(),
            };
            regions.push(fit);
        }
    }
    let chart_ns = chart_ns(&regions, &opts.targets);
    Ok(Plan {
        process_parameter: e.parameters.get(pi).cloned().unwrap_or_default(),
        side_parameter: si.map(|si| e.parameters[si].clone()),
        side_values,
        metric,
        metrics,
        targets: opts.targets.clone(),
        chart_ns,
        warnings,
        regions,
    })
}

/// The counts of [`Ranking::chart_ns`] for these regions and targets.
fn chart_ns(regions: &[RegionFit], targets: &[u32]) -> Vec<u32> {
    let lo = regions.iter().filter_map(|f| f.points.first()).map(|p| p.n).fold(f64::INFINITY, f64::min);
    let hi = targets.iter().copied().max().unwrap_or(1);
    let mut n = if lo.is_finite() { (lo.min(f64::from(MAX_N)) as u32).max(1) } else { 1 };
    let mut out = Vec::new();
    while n <= hi && out.len() < 24 {
        out.push(n);
        n = n.saturating_mul(2);
    }
    if out.last() != Some(&hi) {
        out.push(hi);
    }
    out
}

/// Fits regions `range` of the plan (a range past the end is cut to it), in order.
pub fn fit_regions(plan: &Plan, range: Range<usize>) -> Vec<RegionFit> {
    let end = range.end.min(plan.regions.len());
    let start = range.start.min(end);
    plan.regions[start..end].iter().map(|r| fit_region(r, &plan.targets, &plan.chart_ns)).collect()
}

/// Fits one region (of the plan's, unfitted).
fn fit_region(r: &RegionFit, targets: &[u32], chart_ns: &[u32]) -> RegionFit {
    // The plan's regions are unfitted: the fit fills in the rest.
    let mut fit = r.clone();
    let checks: Vec<f64> = targets.iter().chain(chart_ns).map(|&n| f64::from(n)).collect();
    let points: Vec<(f64, f64, f64)> = fit.points.iter().map(|p| (p.n, p.median, p.noise)).collect();
    // A value below 0 is no time (nor count): the region is reported, not ranked. One whose
    // times are 0 somewhere has no shape to fit: it is held at its measured median, which
    // still takes its share.
    let negative = fit.raw.iter().find(|p| p.value < 0.0);
    let held = points.iter().any(|p| p.1.is_nan() || p.1 <= 0.0);
    let found = if let Some(p) = negative {
        let at = p.line.map_or(String::new(), |l| format!(" (line {l})"));
        Err(format!("a {} below 0 at {} processes{at}: the region is left out of the ranking", fit.metric, fmt_num(p.n, 6)))
    } else if held {
        let mut v: Vec<f64> = points.iter().map(|p| p.1.max(0.0)).collect();
        v.sort_by(f64::total_cmp);
        let m = v.get(v.len() / 2).copied().unwrap_or(0.0);
        Ok(RegionModel {
            form: super::search::Form::Normal { c0: m, terms: Vec::new() },
            loo: None,
            check_error: 0.5,
            check_doublings: 1.0,
            p_max: points.last().map_or(1.0, |p| p.0),
            note: Some(format!("a time of 0 at some count: held at its measured median, {} s", fmt_num(m, 4))),
        })
    } else {
        search(&points, &checks)
    };
    match found {
        Ok(m) => {
            fit.predictions = targets.iter().map(|&n| predict(&m, n)).collect();
            fit.curve = chart_ns
                .iter()
                .map(|&n| (n, m.at(f64::from(n))))
                .filter(|c| [c.1 .0, c.1 .1, c.1 .2].iter().all(|x| x.is_finite()))
                .collect();
            let from = fit.points.first().map_or(1, |p| p.n as u32);
            fit.stops_scaling_n = stops_scaling(&m, from);
            fit.best = Some(m.form.family().to_string());
            fit.formula = Some(m.form.text());
            fit.grows = m.grows();
            fit.note = m.note.clone();
            fit.model = Some(m);
        }
        Err(e) => fit.error = Some(e),
    }
    fit
}

/// Ranks the regions of `e` (see the module's text).
pub fn rank(e: &Experiment, opts: &RankOptions) -> Result<Ranking, InputError> {
    let plan = plan(e, opts)?;
    let regions = fit_regions(&plan, 0..plan.len());
    Ok(ranked(plan, regions))
}

/// The ranking of the plan's regions, fitted: `regions` are the fits of every region of the
/// plan in its order (the runs of [`fit_regions`] concatenated), so the ranking is the same
/// however the fits were split. Fewer or more regions than the plan has is an error.
pub fn finish(plan: Plan, regions: Vec<RegionFit>) -> Result<Ranking, InputError> {
    if regions.len() != plan.regions.len() || regions.iter().zip(&plan.regions).any(|(a, b)| a.callpath != b.callpath || a.side != b.side) {
        return Err(InputError::new(FIELD, format!("{} fitted regions do not match the {} regions to rank", regions.len(), plan.regions.len())));
    }
    Ok(ranked(plan, regions))
}

/// [`finish`] for fits known to be the plan's.
fn ranked(plan: Plan, regions: Vec<RegionFit>) -> Ranking {
    let Plan { process_parameter, side_parameter, side_values, metric, metrics, targets, chart_ns, mut warnings, .. } = plan;
    let mut tables = Vec::new();
    let mut dominant = Vec::new();
    let mut first_to_stop = Vec::new();
    for &side in &side_values {
        let ids: Vec<usize> = (0..regions.len()).filter(|&i| regions[i].side == side).collect();
        if let Some(&first) = ids.iter().filter(|&&i| regions[i].stops_scaling_n.is_some()).min_by_key(|&&i| regions[i].stops_scaling_n) {
            first_to_stop.push(first);
        }
        for &n in &targets {
            let times: Vec<(usize, (f64, f64, f64))> = ids.iter().filter_map(|&i| Some((i, regions[i].time_at(n)?))).collect();
            let (sum, sum_lo, sum_hi) = times.iter().fold((0.0, 0.0, 0.0), |s, (_, t)| (s.0 + t.0, s.1 + t.1, s.2 + t.2));
            if sum.is_nan() || sum <= 0.0 {
                continue;
            }
            let mut rows: Vec<Share> = times
                .iter()
                .map(|&(i, (t, lo, hi))| {
                    let low = if lo > 0.0 { lo / (lo + (sum_hi - hi)) } else { 0.0 };
                    let high_den = hi + (sum_lo - lo);
                    let high = if high_den > 0.0 { hi / high_den } else { 1.0 };
                    Share { region: i, time_s: t, share: t / sum, low, high }
                })
                .collect();
            rows.sort_by(|a, b| b.share.total_cmp(&a.share));
            if let Some(top) = rows.first() {
                dominant.push(Dominant { n, side, callpath: regions[top.region].callpath.clone(), share: top.share });
            }
            tables.push(Table { n, side, rows });
        }
    }
    let failed = regions.iter().filter(|r| r.error.is_some()).count();
    if failed > 0 {
        warnings.push(format!("{failed} of {} regions could not be modelled and are left out of the shares", regions.len()));
    }
    Ranking {
        process_parameter,
        side_parameter,
        side_values: side_values.into_iter().flatten().collect(),
        metric,
        metrics,
        targets,
        chart_ns,
        regions,
        tables,
        dominant,
        first_to_stop,
        warnings,
    }
}
