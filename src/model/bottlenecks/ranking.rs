//! Which regions of an Extra-P experiment will dominate at a target process count, and which
//! stop scaling first.
//!
//! Each region (call path) of the chosen metric is one point per measured point of the
//! parameters, its value the median of the repetitions (the noise, the repetitions' relative
//! standard deviation, is reported beside it). Its model is found by [`super::search`]: with
//! one parameter, Extra-P's normal form over growing and falling terms, strong scaling with a
//! growing overhead, a power law and the speed-up calculator's nonlinear models, chosen by
//! leave-one-out; with two to four, sums of products of each parameter's terms, chosen the
//! same way over every point. Every region gets one, whichever way it moves: a constant is a
//! model, and a region with one or two counts gets the simplest model its points allow, saying
//! so. Its predictions (time with its range) come from that model. The model is the one its
//! points choose alone; only where that one is not a positive time at a target or a chart
//! count is it chosen again among those that are (so a change of targets re-evaluates the
//! fitted models, [`retarget`], and searches again only for those regions).
//!
//! The ranking predicts at targets, each a point of every parameter: a process count n with
//! the other parameters held (the second at one value, by default its largest, or at each
//! measured value in turn; any further ones at their largest), or a point given whole.
//!
//! The share of region i at a target is tᵢ/Σⱼ tⱼ over every region, t being each region's own
//! (exclusive) time: regions that nest (call paths joined with `->`, or indented REGION names)
//! with inclusive values have their own time fitted instead, and where children add up to more
//! than their parent the regions are ranked by inclusive share of the top level (`tree.rs`).
//! Its range is the widest the time ranges allow: lowᵢ/(lowᵢ + Σⱼ≠ᵢ highⱼ) to
//! highᵢ/(highᵢ + Σⱼ≠ᵢ lowⱼ).
//!
//! A region stops scaling at the first n (doubling from its smallest measured count, the other
//! parameters held as for the first target) where doubling the processes cuts its predicted
//! time by less than 5 % (a region whose time grows stops at once); a region whose time grows
//! with n beyond the data is flagged.

use std::ops::Range;

use super::region_fit::{RegionFit, UNINFORMATIVE_SPAN};
use super::tree::{sum_scale, Split, Tree};
use super::{Experiment, FIELD};
use crate::model::fit::region::{median, positive_at};
use crate::model::fit::region::{region_model, with_n, PointSummary};
use crate::model::fit::search::RegionModel;
use crate::model::fit::{Prediction, RawPoint};
use crate::model::{fmt_num, InputError, Warning};

/// Most regions the page fits (in its Web Workers, about a millisecond each per core), the
/// default of [`RankOptions::max_regions`].
pub const MAX_REGIONS: usize = 2_000;
/// Most regions the command fits (on every core): Extra-P experiments of thousands of
/// regions are common.
pub const MAX_REGIONS_BATCH: usize = 100_000;
/// Most targets a ranking predicts at.
pub const MAX_TARGETS: usize = 64;
/// Largest n a prediction or the stop-scaling search goes to.
const MAX_N: u32 = 1 << 24;
/// Largest process count a target reports (the largest [`parse_targets`] takes alone).
const MAX_COUNT: u32 = 1_000_000_000;
/// A target beyond this many times the largest measured count is said to be far beyond it.
pub const FAR_BEYOND: f64 = 64.0;
/// "Stops scaling": doubling n cuts the time by less than this fraction.
const STOP_GAIN: f64 = 0.05;

/// Where the second parameter is held for targets given as a process count.
#[derive(Debug, Clone, PartialEq)]
pub enum SideChoice {
    /// The largest value measured.
    Largest,
    /// This value (measured or not: the model predicts it).
    Value(f64),
    /// Each measured value in turn.
    PerValue,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RankOptions {
    /// The metric ranked (None: one called "time", else the first).
    pub metric: Option<String>,
    /// The parameter that is the process count (None: guessed from its name, else the first).
    pub process_parameter: Option<String>,
    pub side: SideChoice,
    /// Process counts to predict and rank at, the other parameters held.
    pub targets: Vec<u32>,
    /// Whole points to predict and rank at (a value per parameter, in the experiment's order).
    pub points: Vec<Vec<f64>>,
    /// Most regions fitted; more is an error that says so.
    pub max_regions: usize,
}

impl Default for RankOptions {
    fn default() -> Self {
        RankOptions {
            metric: None,
            process_parameter: None,
            side: SideChoice::Largest,
            targets: Vec::new(),
            points: Vec::new(),
            max_regions: MAX_REGIONS,
        }
    }
}

/// A point the ranking predicts at: its process count, the second parameter's value (when
/// there is one) and the whole point.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Target {
    pub n: u32,
    pub side: Option<f64>,
    pub point: Vec<f64>,
}

/// A region's share at a target.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Share {
    /// Index into `Ranking::regions`.
    pub region: usize,
    pub time_s: f64,
    /// The ranking's share: [`Share::own`], or [`Share::inclusive`] when the ranking is by
    /// inclusive share ([`Tree::by_inclusive`]).
    pub share: f64,
    pub low: f64,
    pub high: f64,
    /// The region's own (exclusive) time over the total (see `tree.rs`).
    pub own: f64,
    /// The region's time with that of every region nested in it, over the total.
    pub inclusive: f64,
}

/// The regions at one target, largest share first.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub n: u32,
    pub side: Option<f64>,
    pub point: Vec<f64>,
    pub rows: Vec<Share>,
}

/// The top region at one target.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Dominant {
    pub n: u32,
    pub side: Option<f64>,
    pub point: Vec<f64>,
    pub callpath: String,
    pub share: f64,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ranking {
    pub parameters: Vec<String>,
    pub process_parameter: String,
    /// The process parameter's index in `parameters`.
    pub process_index: usize,
    pub side_parameter: Option<String>,
    /// The second parameter's values the targets hold (one unless per value).
    pub side_values: Vec<f64>,
    pub metric: String,
    pub metrics: Vec<String>,
    pub targets: Vec<Target>,
    /// The point the chart and the stop-scaling search hold the other parameters at (the first
    /// target's), its process count aside.
    pub base: Vec<f64>,
    /// The counts the page's chart of shares covers: doublings from the smallest measured
    /// count to the largest target (at most 24), then that target.
    pub chart_ns: Vec<u32>,
    pub regions: Vec<RegionFit>,
    /// One per target, in the targets' order (none for a target no region has a time at).
    pub tables: Vec<Table>,
    pub dominant: Vec<Dominant>,
    /// The region that stops scaling first (smallest stops_scaling_n), if any does.
    pub first_to_stop: Vec<usize>,
    /// Each with what it concerns: [`HOLD`] (the values the other parameters are held at),
    /// [`INPUT`] (the experiment) or [`PREDICT`] (the points predicted at).
    pub warnings: Vec<Warning>,
    /// The regions' call tree: each one's parent and depth, whether the values were read as
    /// exclusive or inclusive, the region left out as holding everything, the parents whose
    /// children add up to more than them.
    pub tree: Tree,
}

impl Ranking {
    /// The shares of every region at one point, from each one's time there (None: none), by
    /// the same rule as the tables (see `tree.rs`).
    pub fn shares_of(&self, t: &[Option<f64>]) -> Option<Split> {
        self.tree.shares(t)
    }
}

/// What a warning about held parameters concerns: the choice of their values (the page's
/// "hold" field, the command's `--hold`).
pub const HOLD: &str = "hold";
/// What a warning about the experiment itself concerns.
pub const INPUT: &str = "input";
/// What a warning about the points predicted at concerns (the page's "predict at" field, the
/// command's `--predict`): a count cut to the largest reported, or far beyond the data.
pub const PREDICT: &str = "predict";

/// Names that mean a process count, the surest first: a parameter named p is the process
/// count whatever its place, and n only when no other is (n is as often the problem size).
const PROCESS_NAMES: &[&str] = &[
    "p",
    "np",
    "procs",
    "nprocs",
    "processes",
    "process",
    "ranks",
    "nranks",
    "num_procs",
    "mpi",
    "cores",
    "nodes",
    "n",
];

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

/// Whether a region's imbalance grows with the process count: its mean imbalance per measured
/// count rises by at least 10 % from the smallest count to the largest, and its least-squares
/// slope against log₂ n is above 0.02 per doubling (a flat imbalance with noise is not
/// flagged).
pub fn imbalance_grows(points: &[PointSummary], imbalance: &[Option<f64>]) -> bool {
    let mut by_n: Vec<(f64, f64, usize)> = Vec::new();
    for (p, v) in points.iter().zip(imbalance) {
        let Some(v) = v.filter(|v| v.is_finite()) else { continue };
        match by_n.iter_mut().find(|e| e.0 == p.n) {
            Some(e) => (e.1, e.2) = (e.1 + v, e.2 + 1),
            None => by_n.push((p.n, v, 1)),
        }
    }
    let xy: Vec<(f64, f64)> = by_n.iter().filter(|e| e.0 > 0.0).map(|e| (e.0.log2(), e.1 / e.2 as f64)).collect();
    if xy.len() < 2 {
        return false;
    }
    let (first, last) = (xy.iter().min_by(|a, b| a.0.total_cmp(&b.0)), xy.iter().max_by(|a, b| a.0.total_cmp(&b.0)));
    let (Some(first), Some(last)) = (first, last) else { return false };
    let k = xy.len() as f64;
    let (mx, my) = (xy.iter().map(|p| p.0).sum::<f64>() / k, xy.iter().map(|p| p.1).sum::<f64>() / k);
    let sxx: f64 = xy.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let slope = if sxx > 0.0 { xy.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx } else { 0.0 };
    last.1 >= 1.1 * first.1 && slope > 0.02
}

/// The first n (doubling from `from`) where doubling cuts the predicted time by less than 5 %.
fn stops_scaling(m: &RegionModel, base: &[f64], pi: usize, from: u32) -> Option<u32> {
    let mut n = from.max(1);
    let at = |n: u32| m.form.eval_at(&with_n(base, pi, f64::from(n)));
    while n < MAX_N {
        let (t, t2) = (at(n), at(2 * n));
        if t.is_nan() || t <= 0.0 || t2 > t * (1.0 - STOP_GAIN) {
            return Some(n);
        }
        n *= 2;
    }
    None
}

/// A prediction at a target from the model: the time with its range, the speed-up over the
/// model's time on one process at the same other values (below 1 for a region that grows).
fn predict(m: &RegionModel, target: &Target, pi: usize) -> Prediction {
    let (t, lo, hi) = m.at_point(&target.point);
    let t1 = m.form.eval_at(&with_n(&target.point, pi, 1.0));
    let t1 = if t1.is_finite() && t1 > 0.0 { t1 } else { t };
    let nf = f64::from(target.n);
    // A region that takes no time has none to speed up: its speed-up is 1, as a constant's.
    // A time below 1/f64::MAX of T(1) (a steep power law through two counts) gives the
    // largest finite speed-up, never infinity.
    let ratio = |x: f64| if t1 > 0.0 && x > 0.0 { (t1 / x).min(f64::MAX) } else { 1.0 };
    Prediction {
        n: target.n,
        speedup: ratio(t),
        speedup_low: ratio(hi),
        speedup_high: ratio(lo),
        efficiency: ratio(t) / nf,
        time_s: Some((t, lo, hi)),
        horizon: nf / m.max_of(pi),
        scale: 0.0,
        nodes: None,
        crosses_nodes: false,
    }
}

/// A ranking prepared but not yet fitted: every region's points, in the order the ranking
/// lists them, and what the ranking reports besides. [`plan`] makes it; [`fit_regions`] fits
/// any run of its regions (so callers may split the fits, e.g. between Web Workers);
/// [`finish`] ranks the fitted regions. [`rank`] is the three in one.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    parameters: Vec<String>,
    process_index: usize,
    side_parameter: Option<String>,
    side_values: Vec<f64>,
    metric: String,
    metrics: Vec<String>,
    targets: Vec<Target>,
    base: Vec<f64>,
    chart_ns: Vec<u32>,
    warnings: Vec<Warning>,
    /// The regions, unfitted (no model, no predictions).
    regions: Vec<RegionFit>,
    tree: Tree,
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

/// The index of the process-count parameter: the one named, else the one whose name comes
/// first in [`PROCESS_NAMES`] (p before n, whatever their order in the file), else the first.
pub fn process_index(parameters: &[String], named: Option<&str>) -> Result<usize, InputError> {
    match named {
        Some(p) => parameters.iter().position(|x| x == p).ok_or_else(|| {
            InputError::new(FIELD, format!("no parameter \"{p}\"; the experiment has {}", parameters.join(", ")))
        }),
        // By the names' order, not the parameters': with n listed before p, p is the count.
        None => Ok(PROCESS_NAMES
            .iter()
            .find_map(|name| parameters.iter().position(|x| x.eq_ignore_ascii_case(name)))
            .unwrap_or(0)),
    }
}

/// Prepares the ranking of the regions of `e` (see the module's text): picks the metric, the
/// parameters and the targets, and summarises each region's points. Fits nothing.
pub fn plan(e: &Experiment, opts: &RankOptions) -> Result<Plan, InputError> {
    let (metric, metrics) = chosen_metric(e, opts)?;
    let d = e.parameters.len();
    let pi = process_index(&e.parameters, opts.process_parameter.as_deref())?;
    let si = (0..d).find(|&i| i != pi);
    let mut warnings = Vec::new();
    // The other parameters at their largest values, then the second as chosen.
    let largest: Vec<f64> = (0..d).map(|i| e.values_of(i).last().copied().unwrap_or(1.0)).collect();
    let side_values = held_values(e, opts, pi, si, &largest, &mut warnings)?;
    let targets = targets_of(e, opts, pi, si, &largest, &side_values, &mut warnings)?;
    let series: Vec<_> = e.series.iter().filter(|s| s.metric == metric).collect();
    if series.len() > opts.max_regions {
        return Err(InputError::new(
            FIELD,
            format!(
                "{} regions to fit is more than the {} read at once; split the file",
                series.len(),
                opts.max_regions
            ),
        ));
    }
    let mut regions = unfitted(e, &series, &metric, pi);
    // A design on a cross (no point off the two axes) cannot tell a sum of two parameters'
    // terms from their product: the models add them, and the answer says so.
    let coords: Vec<Vec<f64>> = series.iter().flat_map(|s| s.points.iter().map(|m| m.coords.clone())).collect();
    for (i, j) in crate::model::fit::search::crossed_pairs(&coords) {
        let message = format!(
            "no point has both {} and {} off their axes: the design cannot separate additive from multiplicative forms, so the models add their terms, and a prediction with both beyond the axes is a guess",
            e.parameters[i], e.parameters[j]
        );
        warnings.push(Warning::at(INPUT, message));
    }
    let tree = Tree::build(e, &regions, &mut warnings);
    own_times(&tree, &mut regions);
    let base = targets.first().map_or_else(|| largest.clone(), |t| t.point.clone());
    let chart_ns = chart_ns(&regions, &targets);
    Ok(Plan {
        parameters: e.parameters.clone(),
        process_index: pi,
        side_parameter: si.map(|si| e.parameters[si].clone()),
        side_values,
        metric,
        metrics,
        targets,
        base,
        chart_ns,
        warnings,
        regions,
        tree,
    })
}

/// The metric ranked (the one asked for, else "time", else the first) and every metric of
/// the experiment.
fn chosen_metric(e: &Experiment, opts: &RankOptions) -> Result<(String, Vec<String>), InputError> {
    let metrics: Vec<String> = e.metrics().into_iter().map(String::from).collect();
    let metric = match &opts.metric {
        Some(m) => metrics.iter().find(|x| *x == m).cloned().ok_or_else(|| {
            InputError::new(FIELD, format!("no metric \"{m}\"; the experiment has {}", metrics.join(", ")))
        })?,
        None => {
            metrics.iter().find(|m| m.eq_ignore_ascii_case("time")).or(metrics.first()).cloned().unwrap_or_default()
        }
    };
    Ok((metric, metrics))
}

/// The values of the second parameter (index `si`) the process counts asked for are ranked
/// at, as `opts.side` chooses them; the parameters beyond the second are held at their
/// largest values, which `warnings` says when counts are asked for.
fn held_values(
    e: &Experiment,
    opts: &RankOptions,
    pi: usize,
    si: Option<usize>,
    largest: &[f64],
    warnings: &mut Vec<Warning>,
) -> Result<Vec<f64>, InputError> {
    let name = |i: usize| e.parameters[i].as_str();
    // Held values concern the targets given as a process count; whole points give every value.
    let holds = !opts.targets.is_empty();
    for i in (0..e.parameters.len()).filter(|&i| holds && i != pi && Some(i) != si) {
        warnings.push(Warning::at(HOLD, format!("{} held at its largest value, {}", name(i), fmt_num(largest[i], 6))));
    }
    let Some(si) = si else { return Ok(Vec::new()) };
    Ok(match &opts.side {
        SideChoice::Largest => {
            if holds {
                warnings.push(Warning::at(
                    HOLD,
                    format!("{} held at its largest value, {}", name(si), fmt_num(largest[si], 6)),
                ));
            }
            vec![largest[si]]
        }
        SideChoice::Value(v) => {
            if !(v.is_finite() && *v > 0.0) {
                return Err(InputError::new(
                    FIELD,
                    format!("{} = {}: expected a value above 0", name(si), fmt_num(*v, 6)),
                ));
            }
            let all = e.values_of(si);
            if !all.contains(v) {
                let shown: Vec<String> = all.iter().map(|x| fmt_num(*x, 6)).collect();
                let message = format!(
                    "{} = {} was not measured (the values are {}): predicted by each region's model",
                    name(si),
                    fmt_num(*v, 6),
                    shown.join(", ")
                );
                warnings.push(Warning::at(HOLD, message));
            }
            vec![*v]
        }
        SideChoice::PerValue => e.values_of(si),
    })
}

/// The points to rank at: each process count asked for at each held value (`side_values`),
/// then each whole point; a count beyond the largest reported, or far beyond the measured
/// counts, is said in `warnings`.
fn targets_of(
    e: &Experiment,
    opts: &RankOptions,
    pi: usize,
    si: Option<usize>,
    largest: &[f64],
    side_values: &[f64],
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Target>, InputError> {
    let err = |m: String| InputError::new(FIELD, m);
    let name = |i: usize| e.parameters[i].as_str();
    let d = e.parameters.len();
    let mut targets: Vec<Target> = Vec::new();
    let sides: Vec<Option<f64>> =
        if side_values.is_empty() { vec![None] } else { side_values.iter().copied().map(Some).collect() };
    for &side in &sides {
        for &n in &opts.targets {
            let mut point = with_n(largest, pi, f64::from(n));
            if let (Some(si), Some(v)) = (si, side) {
                point[si] = v;
            }
            targets.push(Target { n, side, point });
        }
    }
    for point in &opts.points {
        if point.len() != d {
            return Err(err(format!(
                "a point to predict at needs {d} values ({}), found {}",
                e.parameters.join(", "),
                point.len()
            )));
        }
        if let Some(v) = point.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            return Err(err(format!("a point to predict at has {}: expected values above 0", fmt_num(*v, 6))));
        }
        // The time is predicted at the point as given; its count, a whole number, is reported
        // up to the largest a count given alone may be, and said when it is cut there.
        let n = point[pi].round().clamp(1.0, f64::from(MAX_COUNT)) as u32;
        if point[pi].round() > f64::from(MAX_COUNT) {
            let message = format!(
                "{} = {} is beyond the largest process count reported, {}: the time is predicted at {}, its count shown as {}",
                name(pi), fmt_num(point[pi], 6), fmt_num(f64::from(MAX_COUNT), 6), fmt_num(point[pi], 6), fmt_num(f64::from(MAX_COUNT), 6)
            );
            warnings.push(Warning::at(PREDICT, message));
        }
        targets.push(Target { n, side: si.map(|si| point[si]), point: point.clone() });
    }
    // A target far beyond the measured counts is said to be so, with how far.
    let top = e.values_of(pi).last().copied().unwrap_or(1.0);
    let mut far: Vec<f64> = targets.iter().map(|t| t.point[pi]).filter(|&x| x > FAR_BEYOND * top).collect();
    far.sort_by(f64::total_cmp);
    far.dedup();
    for x in far {
        let message = format!(
            "{} = {} is {}× the largest measured count, {}: a prediction that far beyond the data rests on the model's form alone",
            name(pi), fmt_num(x, 6), fmt_num((x / top).round(), 9), fmt_num(top, 6)
        );
        warnings.push(Warning::at(PREDICT, message));
    }
    if targets.len() > MAX_TARGETS {
        return Err(err(format!(
            "{} points to predict at is more than the {MAX_TARGETS} ranked at once",
            targets.len()
        )));
    }
    Ok(targets)
}

/// The regions of `series` (the metric ranked) as the plan holds them before fitting: their
/// points by process count (median, noise, repetitions), an error for a value below 0, and
/// the load imbalance of the metric's imbalance series where the experiment has one.
fn unfitted(e: &Experiment, series: &[&super::Series], metric: &str, pi: usize) -> Vec<RegionFit> {
    let imbalance_name = super::runs::imbalance_metric(metric);
    let imbalances: std::collections::HashMap<&str, &super::Series> =
        e.series.iter().filter(|s| s.metric == imbalance_name).map(|s| (s.callpath.as_str(), s)).collect();
    let mut regions = Vec::with_capacity(series.len());
    for s in series {
        let mut pts: Vec<_> = s.points.iter().collect();
        pts.sort_by(|a, b| {
            a.coords[pi].total_cmp(&b.coords[pi]).then_with(|| {
                a.coords.iter().zip(&b.coords).fold(std::cmp::Ordering::Equal, |o, (x, y)| o.then(x.total_cmp(y)))
            })
        });
        let summaries: Vec<PointSummary> = pts
            .iter()
            .map(|m| PointSummary {
                n: m.coords[pi],
                median: median(&m.values),
                noise: noise(&m.values),
                repetitions: m.values.len(),
                coords: m.coords.clone(),
            })
            .collect();
        let raw: Vec<RawPoint> = summaries
            .iter()
            .zip(&pts)
            .map(|(p, m)| RawPoint { n: p.n, value: p.median, weight: None, nodes: None, line: m.line })
            .collect();
        // A value below 0 or above MAX_VALUE is no time (nor count), whether it is a point's
        // only value or one repetition among others: the region is reported, not ranked,
        // naming the place.
        let error =
            pts.iter().find_map(|m| m.values.iter().find(|v| super::refused(**v)).map(|&v| (m, v))).map(|(m, v)| {
                let place = m.refused.clone().or_else(|| m.line.map(|l| format!("line {l}")));
                let at = place.map_or(String::new(), |p| format!(" ({p})"));
                refused_value(v, m.coords[pi], &at)
            });
        regions.push(RegionFit {
            callpath: s.callpath.clone(),
            metric: s.metric.clone(),
            points: summaries,
            raw,
            model: None,
            best: None,
            formula: None,
            grows: false,
            error,
            note: None,
            predictions: Vec::new(),
            stops_scaling_n: None,
            curve: Vec::new(),
            imbalance: Vec::new(),
            imbalance_grows: false,
            chosen_for_targets: false,
        });
        if let (Some(imb), Some(r)) = (imbalances.get(s.callpath.as_str()), regions.last_mut()) {
            r.imbalance = r
                .points
                .iter()
                .map(|p| {
                    imb.points
                        .iter()
                        .find(|m| m.coords == p.coords)
                        .filter(|m| !m.values.is_empty())
                        .map(|m| median(&m.values))
                })
                .collect();
            r.imbalance_grows = imbalance_grows(&r.points, &r.imbalance);
        }
    }
    regions
}

/// With inclusive values that add up, each parent's points become its own time (see
/// `tree.rs`), which is what is fitted.
fn own_times(tree: &Tree, regions: &mut [RegionFit]) {
    let series = tree.own_series(regions);
    for (r, own) in regions.iter_mut().zip(series) {
        let Some(own) = own else { continue };
        r.points = own.iter().map(|&(k, t)| PointSummary { median: t, ..r.points[k].clone() }).collect();
        r.raw = own.iter().map(|&(k, t)| RawPoint { value: t, ..r.raw[k] }).collect();
    }
}

/// The counts of [`Ranking::chart_ns`] for these regions and targets.
fn chart_ns(regions: &[RegionFit], targets: &[Target]) -> Vec<u32> {
    let lo = regions.iter().filter_map(|f| f.points.first()).map(|p| p.n).fold(f64::INFINITY, f64::min);
    let hi = targets.iter().map(|t| t.n).max().unwrap_or(1);
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
    plan.regions[start..end].iter().map(|r| fit_region(r, plan)).collect()
}

/// Why a region with the value `v` ([`super::refused`]) at n processes, read at `at`, is not
/// ranked.
fn refused_value(v: f64, n: f64, at: &str) -> String {
    let n = fmt_num(n, 6);
    if v < 0.0 {
        format!("a value below 0 at {n} processes{at}: the region is left out of the ranking")
    } else {
        format!(
            "a value of {v:e} at {n} processes{at} is more than {:e}, no measurement: the region is left out of the ranking",
            super::MAX_VALUE
        )
    }
}

/// Fits one region (of the plan's, unfitted).
fn fit_region(r: &RegionFit, plan: &Plan) -> RegionFit {
    let (pi, d) = (plan.process_index, plan.parameters.len());
    // The plan's regions are unfitted: the fit fills in the rest.
    let mut fit = r.clone();
    let chart: Vec<Vec<f64>> = plan.chart_ns.iter().map(|&n| with_n(&plan.base, pi, f64::from(n))).collect();
    // A region with a value below 0 was refused when planned (its error says where).
    if fit.error.is_some() {
        return fit;
    }
    if let Some(p) = fit.raw.iter().find(|p| super::refused(p.value)) {
        let at = p.line.map_or(String::new(), |l| format!(" (line {l})"));
        fit.error = Some(refused_value(p.value, p.n, &at));
        return fit;
    }
    let checks: Vec<Vec<f64>> = plan.targets.iter().map(|t| t.point.clone()).chain(chart.iter().cloned()).collect();
    match region_model(&fit.points, d, &checks) {
        Ok((m, for_targets)) => {
            fit.chosen_for_targets = for_targets;
            evaluate(&mut fit, m, plan, &chart);
        }
        Err(e) => fit.error = Some(e.to_string()),
    }
    fit
}

/// Fills in what a region's model says at the plan's targets and chart (`chart`: the chart's
/// points): predictions, curve, where it stops scaling, whether it grows, its formula.
fn evaluate(fit: &mut RegionFit, m: RegionModel, plan: &Plan, chart: &[Vec<f64>]) {
    let pi = plan.process_index;
    fit.predictions = plan.targets.iter().map(|t| predict(&m, t, pi)).collect();
    fit.curve = plan
        .chart_ns
        .iter()
        .zip(chart)
        .map(|(&n, x)| (n, m.at_point(x)))
        .filter(|c| [c.1 .0, c.1 .1, c.1 .2].iter().all(|x| x.is_finite()))
        .collect();
    let from = fit.points.first().map_or(1, |p| p.n as u32);
    fit.stops_scaling_n = stops_scaling(&m, &plan.base, pi, from);
    fit.best = Some(m.form.family().to_string());
    let names: Vec<&str> = plan.parameters.iter().map(String::as_str).collect();
    // Written with the digits it needs to give the times shown: at the targets, the chart's
    // counts and the measured points.
    let shown: Vec<Vec<f64>> = plan
        .targets
        .iter()
        .map(|t| t.point.clone())
        .chain(chart.iter().cloned())
        .chain(fit.points.iter().map(|p| p.coords.clone()))
        .collect();
    fit.formula = Some(m.form.text_matching(&names, &shown));
    fit.grows = m.grows_along(&plan.base, pi);
    fit.note = m.note.clone();
    fit.model = Some(m);
}

/// The fits of the plan's regions from `kept`, the fits of an earlier plan of the same
/// experiment, metric and parameters that asked at other targets: each region's model is
/// evaluated at the new targets and chart, not searched again, unless it was chosen for the
/// old targets or is not a positive time at the new ones (then it is fitted as
/// [`fit_regions`] fits it). The same fits as [`fit_regions`] of the whole plan; regions
/// that do not match the kept ones (by call path, in order) are fitted.
pub fn retarget(plan: &Plan, kept: &[RegionFit]) -> Vec<RegionFit> {
    let chart: Vec<Vec<f64>> =
        plan.chart_ns.iter().map(|&n| with_n(&plan.base, plan.process_index, f64::from(n))).collect();
    let checks: Vec<Vec<f64>> = plan.targets.iter().map(|t| t.point.clone()).chain(chart.iter().cloned()).collect();
    plan.regions
        .iter()
        .enumerate()
        .map(|(i, r)| match kept.get(i) {
            // A region whose model is no search's (a value of 0 or below 0) costs no search.
            _ if r.raw.iter().any(|p| p.value < 0.0)
                || r.points.iter().any(|p| p.median.is_nan() || p.median <= 0.0) =>
            {
                fit_region(r, plan)
            }
            Some(RegionFit { callpath, points, model: Some(m), chosen_for_targets: false, .. })
                if *callpath == r.callpath && *points == r.points && positive_at(m, &checks) =>
            {
                let mut fit = r.clone();
                evaluate(&mut fit, m.clone(), plan, &chart);
                fit
            }
            _ => fit_region(r, plan),
        })
        .collect()
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
    if regions.len() != plan.regions.len()
        || regions
            .iter()
            .zip(&plan.regions)
            .any(|(a, b)| a.callpath != b.callpath || (a.error.is_none() && a.predictions.len() != plan.targets.len()))
    {
        return Err(InputError::new(
            FIELD,
            format!("{} fitted regions do not match the {} regions to rank", regions.len(), plan.regions.len()),
        ));
    }
    Ok(ranked(plan, regions))
}

/// Σⱼ≠ᵢ xⱼ for every i (x ≥ 0). (Σ x) − xᵢ loses the others entirely when xᵢ is almost all
/// of the sum (a bound of 1e20 beside 0.2), which put a share's low above the share; the
/// largest is therefore given the sum of the rest, and every other xᵢ is at most half the
/// sum, where the subtraction is exact to a few units in the last place.
fn sums_of_others(xs: &[f64]) -> Vec<f64> {
    let total: f64 = xs.iter().sum();
    let Some(top) = (0..xs.len()).max_by(|&a, &b| xs[a].total_cmp(&xs[b])) else { return Vec::new() };
    let rest: f64 = xs.iter().enumerate().filter(|&(j, _)| j != top).map(|(_, x)| x).sum();
    xs.iter().enumerate().map(|(i, &x)| if i == top { rest } else { total - x }).collect()
}

/// [`finish`] for fits known to be the plan's.
fn ranked(plan: Plan, regions: Vec<RegionFit>) -> Ranking {
    let Plan {
        parameters,
        process_index,
        side_parameter,
        side_values,
        metric,
        metrics,
        targets,
        base,
        chart_ns,
        mut warnings,
        tree,
        ..
    } = plan;
    let mut tables = Vec::new();
    let mut dominant = Vec::new();
    let first_to_stop: Vec<usize> = (0..regions.len())
        .filter(|&i| regions[i].stops_scaling_n.is_some())
        .min_by_key(|&i| regions[i].stops_scaling_n)
        .into_iter()
        .collect();
    for (ti, target) in targets.iter().enumerate() {
        let t: Vec<Option<(f64, f64, f64)>> = regions.iter().map(|r| r.time_at(ti)).collect();
        let Some(split) = tree.shares(&t.iter().map(|x| x.map(|v| v.0)).collect::<Vec<_>>()) else { continue };
        let mut rows = if tree.by_inclusive() { inclusive_rows(&t, &split) } else { own_rows(&t, &split) };
        rows.sort_by(|a, b| b.share.total_cmp(&a.share));
        let Target { n, side, point } = target.clone();
        let top = if tree.by_inclusive() {
            split.dominant.and_then(|i| rows.iter().find(|r| r.region == i))
        } else {
            rows.first()
        };
        if let Some(top) = top {
            dominant.push(Dominant {
                n,
                side,
                point: point.clone(),
                callpath: regions[top.region].callpath.clone(),
                share: top.share,
            });
        }
        tables.push(Table { n, side, point, rows });
    }
    // Ranges too wide to say anything are said to be so, the widest named.
    let wide: Vec<(usize, usize)> = regions
        .iter()
        .enumerate()
        .flat_map(|(i, r)| (0..targets.len()).filter(move |&ti| r.uninformative_at(ti)).map(move |ti| (i, ti)))
        .collect();
    let asked = regions.iter().map(|r| (0..targets.len()).filter(|&ti| r.time_at(ti).is_some()).count()).sum::<usize>();
    let span = |&(i, ti): &(usize, usize)| {
        regions[i].time_at(ti).map_or(f64::INFINITY, |t| if t.1 > 0.0 { t.2 / t.1 } else { f64::INFINITY })
    };
    if let Some(&(i, ti)) = wide.iter().max_by(|a, b| span(a).total_cmp(&span(b))) {
        let (_, lo, hi) = regions[i].time_at(ti).unwrap_or_default();
        let at: Vec<String> =
            parameters.iter().zip(&targets[ti].point).map(|(k, v)| format!("{k} = {}", fmt_num(*v, 6))).collect();
        let message = format!(
            "{} of {asked} predicted times have a range wider than a factor {} (the widest: {} at {}, {} to {} s): they carry no information beyond the model's form",
            wide.len(), fmt_num(UNINFORMATIVE_SPAN, 6), regions[i].callpath, at.join(", "), fmt_num(lo, 3), fmt_num(hi, 3)
        );
        warnings.push(Warning::at(PREDICT, message));
    }
    // The count, and the first region's reason (a refused value names its line and column),
    // so that a page showing the warnings alone says where to look.
    let failed: Vec<&RegionFit> = regions.iter().filter(|r| r.error.is_some()).collect();
    if let Some(first) = failed.first() {
        let why = first.error.as_deref().unwrap_or_default();
        let which = if failed.len() == 1 { "" } else { "the first, " };
        warnings.push(Warning::at(
            INPUT,
            format!(
                "{} of {} regions could not be modelled and are left out of the shares ({which}{}: {why})",
                failed.len(),
                regions.len(),
                first.callpath
            ),
        ));
    }
    Ranking {
        process_parameter: parameters.get(process_index).cloned().unwrap_or_default(),
        parameters,
        process_index,
        side_parameter,
        side_values,
        metric,
        metrics,
        targets,
        base,
        chart_ns,
        regions,
        tables,
        dominant,
        first_to_stop,
        warnings,
        tree,
    }
}

/// The rows of one table by own time: share_i = t_i / Σ t_j over the regions counted, with the
/// widest range the time ranges allow, lowᵢ/(lowᵢ + Σⱼ≠ᵢ highⱼ) to highᵢ/(highᵢ + Σⱼ≠ᵢ lowⱼ).
fn own_rows(t: &[Option<(f64, f64, f64)>], split: &Split) -> Vec<Share> {
    let times: Vec<(usize, (f64, f64, f64))> =
        (0..t.len()).filter(|&i| split.share[i].is_some()).filter_map(|i| Some((i, t[i]?))).collect();
    // The ranges' sums are taken of scaled times where the highs' sum passes f64's range.
    let highs: Vec<f64> = times.iter().map(|(_, t)| t.2).collect();
    let k = sum_scale(highs.iter().sum());
    let others_lo = sums_of_others(&times.iter().map(|(_, t)| t.1 * k).collect::<Vec<_>>());
    let others_hi = sums_of_others(&highs.iter().map(|h| h * k).collect::<Vec<_>>());
    times
        .iter()
        .zip(others_lo.iter().zip(&others_hi))
        .map(|(&(i, (t, lo, hi)), (&rest_lo, &rest_hi))| {
            let (lo, hi) = (lo * k, hi * k);
            let low = if lo > 0.0 { lo / (lo + rest_hi) } else { 0.0 };
            let high_den = hi + rest_lo;
            let high = if high_den > 0.0 { hi / high_den } else { 1.0 };
            let share = split.of(t);
            Share { region: i, time_s: t, share, low, high, own: share, inclusive: split.inclusive[i].unwrap_or(share) }
        })
        .collect()
}

/// The rows of one table by inclusive share of the top level: t_i / the top level's time, the
/// range from the region's time range over the same total (at most 1).
fn inclusive_rows(t: &[Option<(f64, f64, f64)>], split: &Split) -> Vec<Share> {
    (0..t.len())
        .filter_map(|i| {
            let (share, (time, lo, hi)) = (split.share[i]?, t[i]?);
            let own = split.own[i].unwrap_or(0.0);
            Some(Share {
                region: i,
                time_s: time,
                share,
                low: split.of(lo).clamp(0.0, 1.0),
                high: split.of(hi).clamp(0.0, 1.0),
                own,
                inclusive: share,
            })
        })
        .collect()
}

/// Where to predict, as typed: "256, 1024" (process counts, the other parameters held) or
/// "256:4000, 1024:8000" (whole points, a value per parameter in the experiment's order);
/// both may be mixed. The process counts, then the points; errors name the column.
pub fn parse_targets(field: &str, text: &str) -> Result<(Vec<u32>, Vec<Vec<f64>>), InputError> {
    use crate::model::input::list::{clip, tokens};
    let (mut ns, mut points) = (Vec::new(), Vec::new());
    let items = tokens(text);
    if items.len() > MAX_TARGETS {
        return Err(InputError::new(field, format!("at most {MAX_TARGETS} points, found {}", items.len())));
    }
    for (col, item) in items {
        let at = |m: String| InputError::new(field, m).at(1, Some(col));
        let values: Vec<f64> = item
            .split(':')
            .map(|v| v.trim().parse::<f64>().ok().filter(|f| f.is_finite() && *f > 0.0 && *f <= 1e12))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                at(format!(
                    "expected a process count or values joined by ':' (256:4000), each above 0, found \"{}\"",
                    clip(item)
                ))
            })?;
        match values.as_slice() {
            [n] if n.fract() == 0.0 && *n <= 1e9 => ns.push(*n as u32),
            [_] => {
                return Err(at(format!("expected a whole process count up to 1000000000, found \"{}\"", clip(item))))
            }
            _ => points.push(values),
        }
    }
    Ok((ns, points))
}
