//! How right are the predictions? Measured strong-scaling series (one fixed problem run at
//! several process counts, copied from public benchmark tables; `validation/` and
//! `shared/validation/`) are cut as a user would have them: the K smallest counts are
//! "measured", every larger count is predicted and compared with what was measured there.
//!
//! Reported by horizon, the predicted count over the largest fitted one (≤ 2, ≤ 4, ≤ 16, all):
//! the median and 90th percentile of |predicted − measured| / measured, the share of
//! measurements inside the predicted range, and the range's median width over the prediction.
//! Repetitions at one count are averaged before anything else. Ranges are always set on
//! other sources than the one they are checked on (`hold_out_ranges`); the forecast's rule is
//! chosen among candidates the same way (`candidates`).

pub mod candidates;
pub mod corpus;
pub mod transfer;
pub mod twins;

use corpus::Series;

use crate::model::fit::forecast::{self, Quantiles, HORIZON_TAIL, TAIL};
use crate::model::speedup::{analyse, Analysis, Measure, Model, Options, RawPoint};

/// A series cut as a user would have it: the K smallest counts measured, the rest to predict,
/// with the calculator's analysis of the measured ones.
#[derive(Debug, Clone)]
pub struct Cut {
    pub series: String,
    pub source: String,
    /// Which corpus file the series comes from (its index among those read).
    pub file: usize,
    pub k: usize,
    /// The measured (np, time s), ascending, and their nodes where the corpus gives them.
    pub fitted: Vec<(u32, f64)>,
    pub fitted_nodes: Vec<Option<u32>>,
    /// The counts to predict with their measured times.
    pub rest: Vec<(u32, f64)>,
    /// Processes per node, as far as the series tells (`Series::cores_per_node`).
    pub cores_per_node: Option<u32>,
    /// The speed-up calculator's analysis of `fitted`, predicting at `rest` (None where it
    /// refuses the points).
    pub analysis: Option<Analysis>,
}

impl Cut {
    /// The measured points as the forecast's basis: (n, time s, weight 1).
    pub fn basis(&self) -> Vec<(f64, f64, f64)> {
        self.fitted.iter().map(|&(n, t)| (f64::from(n), t, 1.0)).collect()
    }
    /// The largest measured count.
    pub fn anchor(&self) -> u32 {
        self.fitted.last().map_or(1, |p| p.0)
    }
}

/// Every cut of the series with more than `k` counts, analysed by the calculator with its
/// defaults (and the series' nodes). `file` is the corpus's index.
pub fn cuts(corpus: &[Series], k: usize, file: usize) -> Vec<Cut> {
    corpus
        .iter()
        .filter(|s| s.points.len() > k && k >= 1)
        .map(|s| {
            let (fitted, rest) = s.points.split_at(k);
            let fitted_nodes = s.nodes.get(..k).map_or_else(|| vec![None; k], <[Option<u32>]>::to_vec);
            let raw: Vec<RawPoint> = fitted
                .iter()
                .zip(&fitted_nodes)
                .map(|(&(n, t), d)| RawPoint {
                    n: f64::from(n),
                    value: t,
                    weight: None,
                    nodes: d.map(f64::from),
                    line: None,
                })
                .collect();
            let opts = Options {
                targets: rest.iter().map(|p| p.0).collect(),
                cores_per_node: s.cores_per_node(),
                ..Options::default()
            };
            Cut {
                series: s.id.clone(),
                source: s.source.clone(),
                file,
                k,
                fitted: fitted.to_vec(),
                fitted_nodes,
                rest: rest.to_vec(),
                cores_per_node: s.cores_per_node(),
                analysis: analyse("points", &raw, Measure::TimeS, &opts).ok(),
            }
        })
        .collect()
}

/// A predicted time and its range, seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Predicted {
    pub time_s: f64,
    /// The range, where the predictor gives one.
    pub range_s: Option<(f64, f64)>,
    /// The scale u of a calibrated range (see `fit::forecast`): the range is set from the
    /// scores ln(measured / predicted) / u of other sources.
    pub scale: Option<f64>,
    /// Every measured run inside one node, and this count on more.
    pub crosses_nodes: bool,
}

impl Predicted {
    pub fn point(time_s: f64) -> Predicted {
        Predicted { time_s, range_s: None, scale: None, crosses_nodes: false }
    }
}

/// A way of predicting times at larger counts from times at a few small ones.
pub trait Predictor {
    fn name(&self) -> String;
    /// Times at the cut's counts to predict, in their order; None where it cannot.
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>>;
}

/// One prediction compared with its measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub series: String,
    pub source: String,
    /// The corpus file's index.
    pub file: usize,
    /// How many counts were fitted.
    pub k: usize,
    pub np: u32,
    /// np over the largest fitted np.
    pub horizon: f64,
    pub measured_s: f64,
    pub predicted: Predicted,
}

impl Outcome {
    pub fn rel_error(&self) -> f64 {
        (self.predicted.time_s - self.measured_s).abs() / self.measured_s
    }
    pub fn inside(&self) -> Option<bool> {
        self.predicted.range_s.map(|(lo, hi)| lo <= self.measured_s && self.measured_s <= hi)
    }
    pub fn rel_width(&self) -> Option<f64> {
        self.predicted.range_s.map(|(lo, hi)| (hi - lo) / self.predicted.time_s)
    }
    /// ln(measured / predicted) / u, for calibrated predictors.
    pub fn score(&self) -> Option<f64> {
        let u = self.predicted.scale?;
        let r = (self.measured_s / self.predicted.time_s).ln() / u;
        r.is_finite().then_some(r)
    }
    /// The calibration cell: (count class, horizon band).
    pub fn cell(&self) -> (usize, usize) {
        (forecast::count_class(self.k), forecast::horizon_band(self.horizon))
    }
}

/// Predicts every cut with `p`; cuts it cannot answer are counted in `missed`.
pub fn run(cuts: &[Cut], p: &dyn Predictor) -> (Vec<Outcome>, usize) {
    let mut out = Vec::new();
    let mut missed = 0;
    for c in cuts {
        match p.predict(c) {
            Some(ps) if ps.len() == c.rest.len() => {
                let largest = f64::from(c.anchor());
                for (&(np, measured_s), predicted) in c.rest.iter().zip(ps) {
                    out.push(Outcome {
                        series: c.series.clone(),
                        source: c.source.clone(),
                        file: c.file,
                        k: c.k,
                        np,
                        horizon: f64::from(np) / largest,
                        measured_s,
                        predicted,
                    });
                }
            }
            _ => missed += 1,
        }
    }
    (out, missed)
}

/// The value at quantile `q` of sorted `xs` (nearest rank); 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn sorted(mut xs: Vec<f64>) -> Vec<f64> {
    xs.sort_by(f64::total_cmp);
    xs
}

/// Ranges per count class and horizon band, and the factor for predictions that leave the one
/// node of the runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bands {
    pub quantiles: [[Quantiles; 4]; 2],
    /// The share of the scores left out each side in each cell (`held_tail`).
    pub tails: [[f64; 4]; 2],
    pub node_factor: f64,
}

/// How much each prediction counts in a calibration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weighting {
    /// Each prediction alike: the sources with the most predictions set the ranges.
    Prediction,
    /// Each source by the square root of its predictions (in the cell): the calculator's.
    SqrtSource,
    /// Each source alike, however many predictions it made.
    Source,
}

/// The weighting of the calculator's ranges: per prediction, the ranges held too little on the
/// smaller corpora (the large thread sweeps of one course set them); per source, too much on
/// the pooled predictions (VALIDATION.md).
pub const WEIGHTING: Weighting = Weighting::SqrtSource;

/// The quantiles of the scores (weighted by `WEIGHTING`), per count class and horizon band (a
/// cell without scores takes its band's, then every score's), each at the tail its cell needs
/// (`held_tail`) and never narrower than the nearer band's (`Held`); and the node factor: the 90th percentile of the factors by which the scale of
/// the predictions that left the one node of their runs must grow to hold them (at least 1).
/// None without scores.
pub fn calibrate_bands<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Option<Bands> {
    calibrate_bands_by(outcomes, WEIGHTING)
}

/// The share of a cell's scores left out each side is `TAIL` at most, and then smaller in steps
/// of `TAIL_STEP` down to `MIN_TAIL` until the sources, each held out in turn from the others'
/// quantiles and each counted alike, hold `forecast::LEVEL` on average (`held_tail`).
pub const TAIL_STEP: f64 = 0.005;
/// The smallest tail tried: quantiles at 2 % and 98 % of the scores.
pub const MIN_TAIL: f64 = 0.02;

/// A cell's scores with their sources: (score, source's index, weight), ascending.
pub type Scored = [(f64, usize, f64)];

/// The quantiles at `tail` and 1 − `tail` of `xs` without the scores of source `skip`.
pub fn tail_quantiles(xs: &Scored, tail: f64, skip: Option<usize>) -> Option<Quantiles> {
    let kept = || xs.iter().filter(|x| Some(x.1) != skip);
    let total: f64 = kept().map(|x| x.2).sum();
    let at = |q: f64| -> Option<f64> {
        let mut c = 0.0;
        let mut last = None;
        for x in kept() {
            c += x.2;
            last = Some(x.0);
            if c >= q * total * (1.0 - 1e-12) {
                return Some(x.0);
            }
        }
        last
    };
    Some(Quantiles { low: at(tail)?, high: at(1.0 - tail)? })
}

/// The tail a cell's quantiles are taken at. Percentiles at 5 % and 95 % of the pooled scores
/// hold 90 % of the predictions they were set on, but a new source's scores sit together: where
/// the sources differ, ranges set on some sources hold less on another (issue: 83 % at up to
/// 2× on unseen sources). So each source of the cell is held out in turn, its share inside the
/// others' quantiles counted (widened to the nearer band's, `near`, set without it too), and
/// the tail is the largest of `TAIL`, `TAIL` − `TAIL_STEP`, …, `MIN_TAIL` at which these shares
/// average `forecast::LEVEL` or more, each source alike. With fewer than three sources, `TAIL`.
/// Answers the tail and, at it, the (widened) quantiles set without each source.
pub fn held_tail(xs: &Scored, near: Option<&Held>) -> (f64, Vec<(usize, Quantiles)>) {
    let sources = sources_of(xs);
    let without = |tail: f64| -> Vec<(usize, Quantiles)> {
        sources
            .iter()
            .filter_map(|&s| Some((s, widened(tail_quantiles(xs, tail, Some(s))?, near.map(|n| n.without(s))))))
            .collect()
    };
    if sources.len() < 3 {
        return (TAIL, without(TAIL));
    }
    let steps = ((TAIL - MIN_TAIL) / TAIL_STEP).round() as usize;
    let mut last = Vec::new();
    for i in 0..=steps {
        let tail = TAIL - i as f64 * TAIL_STEP;
        last = without(tail);
        let mut shares = 0.0;
        for &(s, q) in &last {
            let (inside, n) = xs
                .iter()
                .filter(|x| x.1 == s)
                .fold((0usize, 0usize), |(i, n), x| (i + usize::from(q.low <= x.0 && x.0 <= q.high), n + 1));
            shares += inside as f64 / n as f64;
        }
        if shares / sources.len() as f64 >= forecast::LEVEL {
            return (tail, last);
        }
    }
    (MIN_TAIL, last)
}

/// The sources of a cell's scores, each once, ascending.
fn sources_of(xs: &Scored) -> Vec<usize> {
    let mut sources: Vec<usize> = xs.iter().map(|x| x.1).collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}

/// `q` widened to hold `near` too: a range never narrows as the horizon grows.
fn widened(q: Quantiles, near: Option<Quantiles>) -> Quantiles {
    match near {
        Some(n) => Quantiles { low: q.low.min(n.low), high: q.high.max(n.high) },
        None => q,
    }
}

/// A cell's quantiles as calibrated (widened to the nearer band's), on all its sources and
/// with each of them left out, for the next band out to be widened the same way.
#[derive(Debug, Clone)]
pub struct Held {
    pub all: Quantiles,
    pub tail: f64,
    /// (source, the quantiles without it).
    without: Vec<(usize, Quantiles)>,
}

impl Held {
    /// The quantiles set without source `s` (all of them when `s` is not in the cell).
    fn without(&self, s: usize) -> Quantiles {
        self.without.iter().find(|w| w.0 == s).map_or(self.all, |w| w.1)
    }

    /// A cell's quantiles at its `held_tail`, widened to `near`'s: the bands of a count class
    /// are calibrated nearest first, so that a far band set on a few sources (beyond 16× with
    /// 3 counts: 11 sources, 7 of them in one fifth of the corpus) is never narrower than the
    /// nearer band set on many.
    pub fn of(xs: &Scored, near: Option<&Held>) -> Option<Held> {
        let (tail, without) = held_tail(xs, near);
        let all = widened(tail_quantiles(xs, tail, None)?, near.map(|n| n.all));
        Some(Held { all, tail, without })
    }
}

/// `calibrate_bands` with another weighting (VALIDATION.md compares them).
pub fn calibrate_bands_by<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>, weighting: Weighting) -> Option<Bands> {
    let scored: Vec<(&Outcome, f64)> = outcomes.into_iter().filter_map(|o| o.score().map(|r| (o, r))).collect();
    // Sources by one index for every cell, so that a band is widened to the nearer band's
    // quantiles set without the same source; each outcome's found once.
    let mut names: Vec<&str> = scored.iter().map(|(o, _)| o.source.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let source: Vec<usize> = scored.iter().map(|(o, _)| names.binary_search(&o.source.as_str()).unwrap_or(0)).collect();
    let xs_of = |keep: &dyn Fn(&Outcome) -> bool| -> Vec<(f64, usize, f64)> {
        let mine: Vec<(f64, usize)> =
            scored.iter().zip(&source).filter(|((o, _), _)| keep(o)).map(|((_, r), &i)| (*r, i)).collect();
        let mut counts = vec![0usize; names.len()];
        for &(_, i) in &mine {
            if let Some(c) = counts.get_mut(i) {
                *c += 1;
            }
        }
        let mut xs: Vec<(f64, usize, f64)> = mine
            .iter()
            .map(|&(r, i)| {
                let n = counts.get(i).copied().unwrap_or(1) as f64;
                let w = match weighting {
                    Weighting::Prediction => 1.0,
                    Weighting::SqrtSource => 1.0 / n.sqrt(),
                    Weighting::Source => 1.0 / n,
                };
                (r, i, w)
            })
            .collect();
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        xs
    };
    let q = |keep: &dyn Fn(&Outcome) -> bool, near: Option<&Held>| Held::of(&xs_of(keep), near);
    let all = q(&|_| true, None)?;
    let mut cells = [[(all.all, all.tail); 4]; 2];
    for (class, row) in cells.iter_mut().enumerate() {
        let mut near: Option<Held> = None;
        for (band, cell) in row.iter_mut().enumerate() {
            let held =
                q(&|o| o.cell() == (class, band), near.as_ref()).or_else(|| q(&|o| o.cell().1 == band, near.as_ref()));
            *cell = held.as_ref().map_or((all.all, all.tail), |h| (h.all, h.tail));
            near = held;
        }
    }
    let quantiles = cells.map(|row| row.map(|c| c.0));
    let tails = cells.map(|row| row.map(|c| c.1));
    let needed = sorted(
        scored
            .iter()
            .filter(|(o, _)| o.predicted.crosses_nodes)
            .map(|&(o, r)| {
                let (class, band) = o.cell();
                let c = quantiles[class][band];
                let f = if r > c.high && c.high > 0.0 {
                    r / c.high
                } else if r < c.low && c.low < 0.0 {
                    r / c.low
                } else {
                    1.0
                };
                f.clamp(1.0, MAX_NODE_FACTOR)
            })
            .collect(),
    );
    let node_factor = if needed.is_empty() { 1.0 } else { quantile(&needed, LEVEL_SHARE).max(1.0) };
    Some(Bands { quantiles, tails, node_factor })
}

/// The share of node-leaving predictions the node factor is set to hold.
const LEVEL_SHARE: f64 = forecast::LEVEL;
/// A node factor is never set above this (a score on the wrong side of 0 needs any factor).
const MAX_NODE_FACTOR: f64 = 10.0;

/// The range of an outcome under `bands`.
pub fn band_range(o: &Outcome, u: f64, b: &Bands) -> (f64, f64) {
    let (class, band) = o.cell();
    let u = if o.predicted.crosses_nodes { u * b.node_factor } else { u };
    forecast::range(o.predicted.time_s, u, b.quantiles[class][band])
}

/// Gives every calibrated outcome the range set on the other sources (each source held out in
/// turn), so that the share inside is measured on data the range never saw.
pub fn hold_out_ranges(outcomes: &mut [Outcome]) {
    hold_out_ranges_by(outcomes, WEIGHTING);
}

/// `hold_out_ranges` with another weighting.
pub fn hold_out_ranges_by(outcomes: &mut [Outcome], weighting: Weighting) {
    for src in sources(outcomes) {
        let Some(b) = calibrate_bands_by(outcomes.iter().filter(|o| o.source != src), weighting) else { continue };
        for o in outcomes.iter_mut().filter(|o| o.source == src) {
            if let Some(u) = o.predicted.scale {
                o.predicted.range_s = Some(band_range(o, u, &b));
            }
        }
    }
}

/// How many fixed parts the sources are cut into for `hold_out_fifths`.
pub const FIFTHS: u64 = 5;

/// The fifth a source falls in: its name's 64-bit FNV-1a hash modulo `FIFTHS`. Fixed by the
/// name alone, before any result, so that the split is never chosen by how it comes out.
pub fn fifth(source: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in source.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h % FIFTHS
}

/// Gives every calibrated outcome the range set on the sources of the other four fifths
/// (`fifth`): a calibration that never saw a fifth of the sources, whole, judged on them.
pub fn hold_out_fifths(outcomes: &mut [Outcome]) {
    for part in 0..FIFTHS {
        let Some(b) = calibrate_bands(outcomes.iter().filter(|o| fifth(&o.source) != part)) else { continue };
        for o in outcomes.iter_mut().filter(|o| fifth(&o.source) == part) {
            if let Some(u) = o.predicted.scale {
                o.predicted.range_s = Some(band_range(o, u, &b));
            }
        }
    }
}

/// The sources of `outcomes`, sorted, each once.
pub fn sources(outcomes: &[Outcome]) -> Vec<String> {
    let mut s: Vec<String> = outcomes.iter().map(|o| o.source.clone()).collect();
    s.sort();
    s.dedup();
    s
}

/// The planner's quantiles (a scale from the horizon alone): the scores' quantiles at
/// `HORIZON_TAIL` and 1 − `HORIZON_TAIL`, each source weighted equally (sources, not series,
/// are what a new user's program differs by). None without scores.
pub fn calibrate_horizon_only<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Option<Quantiles> {
    let scored: Vec<(&str, f64)> =
        outcomes.into_iter().filter_map(|o| o.score().map(|r| (o.source.as_str(), r))).collect();
    let mut per_source: Vec<(&str, usize)> = Vec::new();
    for (src, _) in &scored {
        match per_source.iter_mut().find(|(s, _)| s == src) {
            Some(e) => e.1 += 1,
            None => per_source.push((src, 1)),
        }
    }
    let mut weighted: Vec<(f64, f64)> = scored
        .iter()
        .map(|(src, r)| (*r, 1.0 / per_source.iter().find(|(s, _)| s == src).map_or(1, |e| e.1) as f64))
        .collect();
    weighted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = weighted.iter().map(|w| w.1).sum();
    let at = |q: f64| -> Option<f64> {
        let mut c = 0.0;
        for &(r, w) in &weighted {
            c += w;
            if c >= q * total * (1.0 - 1e-12) {
                return Some(r);
            }
        }
        weighted.last().map(|w| w.0)
    };
    Some(Quantiles { low: at(HORIZON_TAIL)?, high: at(1.0 - HORIZON_TAIL)? })
}

/// The planner's ranges, each source's set on the others.
pub fn hold_out_horizon_only(outcomes: &mut [Outcome]) {
    for src in sources(outcomes) {
        let Some(q) = calibrate_horizon_only(outcomes.iter().filter(|o| o.source != src)) else { continue };
        for o in outcomes.iter_mut().filter(|o| o.source == src) {
            if let Some(u) = o.predicted.scale {
                o.predicted.range_s = Some(forecast::range(o.predicted.time_s, u, q));
            }
        }
    }
}

/// The horizons reported: up to this many times the largest fitted count.
pub const HORIZONS: [(&str, f64); 4] = [("≤ 2", 2.0), ("≤ 4", 4.0), ("≤ 16", 16.0), ("all", f64::INFINITY)];

/// The figures of one horizon.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Summary {
    pub horizon: &'static str,
    pub predictions: usize,
    pub median_rel_error: f64,
    pub p90_rel_error: f64,
    /// Share of measurements inside the range (None: no ranges).
    pub coverage: Option<f64>,
    pub median_rel_width: Option<f64>,
}

/// The figures by horizon.
pub fn summarize(outcomes: &[Outcome]) -> Vec<Summary> {
    HORIZONS
        .iter()
        .map(|&(label, top)| {
            let within: Vec<&Outcome> = outcomes.iter().filter(|o| o.horizon <= top).collect();
            let errors = sorted(within.iter().map(|o| o.rel_error()).collect());
            let inside: Vec<bool> = within.iter().filter_map(|o| o.inside()).collect();
            let widths = sorted(within.iter().filter_map(|o| o.rel_width()).collect());
            Summary {
                horizon: label,
                predictions: within.len(),
                median_rel_error: quantile(&errors, 0.5),
                p90_rel_error: quantile(&errors, 0.9),
                coverage: (!inside.is_empty())
                    .then(|| inside.iter().filter(|&&b| b).count() as f64 / inside.len() as f64),
                median_rel_width: (!widths.is_empty()).then(|| quantile(&widths, 0.5)),
            }
        })
        .collect()
}

/// One source's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SourceFigures {
    pub source: String,
    pub series: usize,
    pub predictions: usize,
    pub median_rel_error: f64,
}

/// Each source's median error over all its predictions, the worst first.
pub fn per_source(outcomes: &[Outcome]) -> Vec<SourceFigures> {
    let mut out: Vec<SourceFigures> = sources(outcomes)
        .into_iter()
        .map(|src| {
            let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.source == src).collect();
            let mut series: Vec<&str> = mine.iter().map(|o| o.series.as_str()).collect();
            series.sort_unstable();
            series.dedup();
            let errors = sorted(mine.iter().map(|o| o.rel_error()).collect());
            SourceFigures {
                source: src,
                series: series.len(),
                predictions: mine.len(),
                median_rel_error: quantile(&errors, 0.5),
            }
        })
        .collect();
    out.sort_by(|a, b| b.median_rel_error.total_cmp(&a.median_rel_error).then(a.source.cmp(&b.source)));
    out
}

/// What a forecast is judged by: the pooled median error, the 90th percentile, the 80th
/// percentile of the sources' medians and the worst source's; the score adds the pooled median
/// to the sources' 80th percentile (lower is better).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Headline {
    pub predictions: usize,
    pub median_rel_error: f64,
    pub p90_rel_error: f64,
    pub source_p80: f64,
    pub worst_source: f64,
    pub score: f64,
}

/// The headline figures of `outcomes`.
pub fn headline(outcomes: &[Outcome]) -> Headline {
    let errors = sorted(outcomes.iter().map(Outcome::rel_error).collect());
    let medians = sorted(per_source(outcomes).iter().map(|s| s.median_rel_error).collect());
    let (median, p80) = (quantile(&errors, 0.5), quantile(&medians, 0.8));
    Headline {
        predictions: errors.len(),
        median_rel_error: median,
        p90_rel_error: quantile(&errors, 0.9),
        source_p80: p80,
        worst_source: medians.last().copied().unwrap_or(0.0),
        score: median + p80,
    }
}

/// Perfect scaling from the largest fitted count: T(k)·k/n.
pub struct IdealScaling;

impl Predictor for IdealScaling {
    fn name(&self) -> String {
        "ideal scaling from the largest fitted count".into()
    }
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>> {
        let &(k, t) = cut.fitted.last()?;
        Some(cut.rest.iter().map(|&(n, _)| Predicted::point(t * f64::from(k) / f64::from(n))).collect())
    }
}

/// Amdahl's law T = a + b/n by least squares (unconstrained; a time below a picosecond is
/// taken as one, so that the relative error stays a number).
pub struct AmdahlLeastSquares;

impl Predictor for AmdahlLeastSquares {
    fn name(&self) -> String {
        "Amdahl T = a + b/n, least squares".into()
    }
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>> {
        let pts: Vec<(f64, f64)> = cut.fitted.iter().map(|&(n, t)| (1.0 / f64::from(n), t)).collect();
        let l = crate::model::fit::line::fit_unweighted(&pts)?;
        Some(
            cut.rest
                .iter()
                .map(|&(n, _)| Predicted::point((l.intercept + l.slope / f64::from(n)).max(1e-12)))
                .collect(),
        )
    }
}

fn from_predictions(ps: &[crate::model::speedup::Prediction], cut: &Cut) -> Option<Vec<Predicted>> {
    cut.rest
        .iter()
        .map(|&(n, _)| {
            let p = ps.iter().find(|p| p.n == n)?;
            let (t, lo, hi) = p.time_s?;
            Some(Predicted { time_s: t, range_s: Some((lo, hi)), scale: Some(p.scale), crosses_nodes: p.crosses_nodes })
        })
        .collect()
}

/// The calculator's forecast (`fit::forecast`), with its range.
pub struct Forecast;

impl Predictor for Forecast {
    fn name(&self) -> String {
        "scalewise forecast".into()
    }
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>> {
        from_predictions(&cut.analysis.as_ref()?.forecast, cut)
    }
}

/// The speed-up calculator's best-fitting model (by its own choice), with its range.
pub struct BestModel;

impl Predictor for BestModel {
    fn name(&self) -> String {
        "best-fitting model".into()
    }
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>> {
        from_predictions(&cut.analysis.as_ref()?.best_fit()?.predictions, cut)
    }
}

/// One fitted model, with its range.
pub struct ModelFit(pub Model);

impl Predictor for ModelFit {
    fn name(&self) -> String {
        self.0.name().into()
    }
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>> {
        from_predictions(&cut.analysis.as_ref()?.fit(self.0)?.predictions, cut)
    }
}

/// The share of `outcomes` inside their ranges in each horizon band of the track record
/// (`fit::forecast::horizon_band`): (share, count).
pub fn coverage_by_horizon(outcomes: &[Outcome]) -> Vec<(f64, usize)> {
    let mut counts = vec![(0usize, 0usize); forecast::HORIZON_TOPS.len()];
    for o in outcomes {
        if let Some(inside) = o.inside() {
            let c = &mut counts[forecast::horizon_band(o.horizon)];
            c.0 += usize::from(inside);
            c.1 += 1;
        }
    }
    counts.into_iter().map(|(i, n)| (if n == 0 { 0.0 } else { i as f64 / n as f64 }, n)).collect()
}

/// Per count class and horizon band: (share inside, count, median width).
pub type CellCoverage = [[(f64, usize, f64); 4]; 2];

/// The share inside, the count and the median width, per count class and horizon band.
pub fn coverage_by_cell(outcomes: &[Outcome]) -> CellCoverage {
    let mut out = [[(0.0, 0, 0.0); 4]; 2];
    for (class, row) in out.iter_mut().enumerate() {
        for (band, cell) in row.iter_mut().enumerate() {
            let mine: Vec<&Outcome> =
                outcomes.iter().filter(|o| o.cell() == (class, band) && o.inside().is_some()).collect();
            let inside = mine.iter().filter(|o| o.inside() == Some(true)).count();
            let widths = sorted(mine.iter().filter_map(|o| o.rel_width()).collect());
            *cell = (
                if mine.is_empty() { 0.0 } else { inside as f64 / mine.len() as f64 },
                mine.len(),
                quantile(&widths, 0.5),
            );
        }
    }
    out
}

/// Coverage of one cell on held-out sources.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct HeldCoverage {
    /// The share of the predictions inside their ranges.
    pub coverage: f64,
    /// The mean over sources of each source's share inside: each source counted alike, as a
    /// new user's program is one more source.
    pub coverage_sources_alike: f64,
    pub predictions: usize,
    pub sources: usize,
    pub median_rel_width: f64,
}

/// Per count class, the coverage in each horizon band and then over every horizon.
pub type HeldCells = [[HeldCoverage; 5]; 2];

/// The coverage of `outcomes`' ranges per count class and horizon band (the last column: every
/// horizon), pooled and with each source alike.
pub fn held_coverage(outcomes: &[Outcome]) -> HeldCells {
    let mut out = [[HeldCoverage::default(); 5]; 2];
    for (class, row) in out.iter_mut().enumerate() {
        for (band, cell) in row.iter_mut().enumerate() {
            let mine: Vec<&Outcome> = outcomes
                .iter()
                .filter(|o| o.cell().0 == class && (band == 4 || o.cell().1 == band) && o.inside().is_some())
                .collect();
            let mut per: Vec<(&str, usize, usize)> = Vec::new();
            for o in &mine {
                let inside = usize::from(o.inside() == Some(true));
                match per.iter_mut().find(|p| p.0 == o.source) {
                    Some(p) => (p.1, p.2) = (p.1 + inside, p.2 + 1),
                    None => per.push((&o.source, inside, 1)),
                }
            }
            let inside: usize = per.iter().map(|p| p.1).sum();
            let widths = sorted(mine.iter().filter_map(|o| o.rel_width()).collect());
            *cell = HeldCoverage {
                coverage: inside as f64 / mine.len().max(1) as f64,
                coverage_sources_alike: per.iter().map(|p| p.1 as f64 / p.2 as f64).sum::<f64>()
                    / per.len().max(1) as f64,
                predictions: mine.len(),
                sources: per.len(),
                median_rel_width: quantile(&widths, 0.5),
            };
        }
    }
    out
}

/// The share inside and the count of the predictions that left the one node of their runs.
pub fn node_coverage(outcomes: &[Outcome]) -> (f64, usize) {
    let inside: Vec<bool> = outcomes.iter().filter(|o| o.predicted.crosses_nodes).filter_map(Outcome::inside).collect();
    (
        if inside.is_empty() { 0.0 } else { inside.iter().filter(|&&b| b).count() as f64 / inside.len() as f64 },
        inside.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(id: &str, source: &str, points: &[(u32, f64)]) -> Series {
        Series {
            id: id.into(),
            source: source.into(),
            application: String::new(),
            machine: String::new(),
            points: points.to_vec(),
            nodes: vec![None; points.len()],
        }
    }

    fn outcome(source: &str, k: usize, horizon: f64, measured_s: f64, crosses_nodes: bool) -> Outcome {
        Outcome {
            series: "s".into(),
            source: source.into(),
            file: 0,
            k,
            np: 8,
            horizon,
            measured_s,
            predicted: Predicted { time_s: 10.0, range_s: None, scale: Some(1.0), crosses_nodes },
        }
    }

    #[test]
    fn the_protocol_predicts_every_larger_count_and_sums_by_horizon() {
        // Amdahl data, T = 10 + 90/n: the least-squares line is exact, ideal scaling is not.
        let amdahl = |n: u32| 10.0 + 90.0 / f64::from(n);
        let s = series("a", "x", &[1, 2, 4, 8, 16, 64].map(|n| (n, amdahl(n))));
        let c = cuts(std::slice::from_ref(&s), 3, 0);
        let (out, missed) = run(&c, &AmdahlLeastSquares);
        assert_eq!((out.len(), missed), (3, 0));
        assert_eq!(out.iter().map(|o| o.horizon).collect::<Vec<_>>(), vec![2.0, 4.0, 16.0]);
        assert!(out.iter().all(|o| o.rel_error() < 1e-12));
        let (ideal, _) = run(&c, &IdealScaling);
        // At 8: T(4)·4/8 = 16.25 against 21.25.
        assert!((ideal[0].rel_error() - 5.0 / 21.25).abs() < 1e-12);
        let sum = summarize(&ideal);
        assert_eq!(sum.iter().map(|s| s.predictions).collect::<Vec<_>>(), vec![1, 2, 3, 3]);
        assert_eq!(sum[0].coverage, None);
        // The calculator's forecast carries a scale to calibrate.
        let (fc, _) = run(&c, &Forecast);
        assert!(fc.len() == 3 && fc.iter().all(|o| o.predicted.scale.is_some()));
        // A series with no count beyond the fitted ones is left out.
        assert!(cuts(&[series("short", "x", &[(1, 1.0), (2, 0.6), (4, 0.4)])], 3, 0).is_empty());
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        assert_eq!((quantile(&xs, 0.5), quantile(&xs, 0.9), quantile(&xs, 1.0)), (5.0, 9.0, 10.0));
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn coverage_and_width_count_ranges() {
        let o = |m: f64, lo: f64, hi: f64| Outcome {
            predicted: Predicted { time_s: 10.0, range_s: Some((lo, hi)), scale: None, crosses_nodes: false },
            ..outcome("x", 3, 2.0, m, false)
        };
        let sum = summarize(&[o(9.0, 8.0, 12.0), o(13.0, 8.0, 12.0)]);
        assert_eq!(sum[0].coverage, Some(0.5));
        assert_eq!(sum[0].median_rel_width, Some(0.4));
    }

    #[test]
    fn bands_take_the_quantiles_of_their_own_cell_and_the_node_factor_holds_node_leavers() {
        // Scores 1..=100 % in the far band of K = 3; K = 4 has none there and takes the band's.
        let mut out: Vec<Outcome> =
            (1..=100).map(|i| outcome("a", 3, 20.0, 10.0 * (f64::from(i) / 100.0).exp(), false)).collect();
        out.push(outcome("a", 4, 1.5, 10.0 * 0.2f64.exp(), false));
        let b = calibrate_bands(&out).expect("scores");
        // One source: every weighting is the same.
        assert_eq!(calibrate_bands_by(&out, Weighting::Source), Some(b));
        let far = b.quantiles[0][3];
        assert!((far.low - 0.05).abs() < 1e-9 && (far.high - 0.95).abs() < 1e-9, "{far:?}");
        assert_eq!(b.quantiles[1][3], far);
        assert!((b.quantiles[1][0].low - 0.2).abs() < 1e-9);
        assert_eq!(b.node_factor, 1.0);
        // A few node leavers (under 5 % of the cell) scoring 1.9 need 1.9 over the band's top.
        out.extend((0..4).map(|_| outcome("a", 3, 20.0, 10.0 * 1.9f64.exp(), true)));
        let b = calibrate_bands(&out).expect("scores");
        assert!((b.node_factor - 1.9 / b.quantiles[0][3].high).abs() < 1e-9, "{}", b.node_factor);
        let o = outcome("a", 3, 20.0, 10.0, true);
        let (lo, hi) = band_range(&o, 1.0, &b);
        assert!((hi / 10.0).ln() > 1.89 && lo < hi);
    }

    #[test]
    fn weightings_count_sources_alike_or_by_the_root_of_their_predictions() {
        // Source "many" scores 0 a hundred times, "one" scores 1 once (and "two" 0.5 once):
        // per prediction the top is 0, per source 1, by the root of the counts in between.
        let mut out: Vec<Outcome> = (0..100).map(|_| outcome("many", 3, 1.5, 10.0, false)).collect();
        out.push(outcome("one", 3, 1.5, 10.0 * 1f64.exp(), false));
        out.push(outcome("two", 3, 1.5, 10.0 * 0.5f64.exp(), false));
        let top = |w| calibrate_bands_by(&out, w).unwrap().quantiles[0][0].high;
        assert!(top(Weighting::Prediction).abs() < 1e-9);
        assert!((top(Weighting::Source) - 1.0).abs() < 1e-9);
        // Weights 100·(1/10) = 10 for "many" against 1 and 1: the top 5 % of 12 lies in "one".
        assert!((top(Weighting::SqrtSource) - 1.0).abs() < 1e-9);
        // 400 zeros (weight 400/√400 = 20), 9 of 0.5 (weight 3), one 1 (weight 1): at the 5 %
        // tail, 95 % of 24 is reached within the 0.5s; per source it is the 1, per prediction a 0.
        let mut xs: Vec<(f64, usize, f64)> = vec![(0.0, 0, 1.0 / 20.0); 400];
        xs.extend([(0.5, 1, 1.0 / 3.0); 9]);
        xs.push((1.0, 2, 1.0));
        let at = |w: &dyn Fn(f64) -> f64| {
            let ws: Vec<(f64, usize, f64)> = xs.iter().map(|&(r, s, n)| (r, s, w(1.0 / (n * n)))).collect();
            tail_quantiles(&ws, TAIL, None).unwrap().high
        };
        assert!((at(&|n| 1.0 / n.sqrt()) - 0.5).abs() < 1e-9);
        assert!((at(&|n| 1.0 / n) - 1.0).abs() < 1e-9 && at(&|_| 1.0).abs() < 1e-9);
        // The calibration holds each source out in turn: "one" is never inside the others'
        // quantiles, so the tail falls to MIN_TAIL, where the root weighting reaches the 1 too.
        let mut few: Vec<Outcome> = (0..400).map(|_| outcome("many", 3, 1.5, 10.0, false)).collect();
        few.push(outcome("one", 3, 1.5, 10.0 * 1f64.exp(), false));
        few.extend((0..9).map(|_| outcome("x", 3, 1.5, 10.0 * 0.5f64.exp(), false)));
        let b = calibrate_bands_by(&few, Weighting::SqrtSource).unwrap();
        assert_eq!(b.tails[0][0], MIN_TAIL);
        assert!((b.quantiles[0][0].high - 1.0).abs() < 1e-9);
    }

    #[test]
    fn held_out_ranges_never_see_their_own_source() {
        // Source "wild" errs far more than the two tame ones: its ranges come from them alone
        // and miss; theirs, set with "wild" among the others, hold.
        let mut out: Vec<Outcome> =
            (0..50).map(|i| outcome("tame", 3, 1.5, 10.0 + f64::from(i % 5) * 0.1, false)).collect();
        out.extend((0..50).map(|i| outcome("tame too", 3, 1.5, 10.0 + f64::from(i % 5) * 0.1, false)));
        out.extend((0..50).map(|_| outcome("wild", 3, 1.5, 40.0, false)));
        hold_out_ranges(&mut out);
        assert!(out.iter().filter(|o| o.source == "wild").all(|o| o.inside() == Some(false)));
        assert!(out.iter().filter(|o| o.source != "wild").all(|o| o.inside() == Some(true)));
    }

    #[test]
    fn the_tail_narrows_until_held_out_sources_hold_the_level_each_alike() {
        // Ten sources of 20 scores each, spread alike but each shifted by its own offset: the
        // pooled 5 % / 95 % hold a held-out source less than 90 % on average, a smaller tail
        // holds it.
        let mut out = Vec::new();
        for s in 0..10 {
            let shift = 0.05 * f64::from(s) - 0.225;
            out.extend(
                (0..20).map(|i| {
                    outcome(&format!("s{s}"), 3, 1.5, 10.0 * (shift + 0.02 * f64::from(i) - 0.19).exp(), false)
                }),
            );
        }
        let b = calibrate_bands(&out).expect("scores");
        let tail = b.tails[0][0];
        assert!((MIN_TAIL..TAIL).contains(&tail), "{tail}");
        let mut held = out.clone();
        hold_out_ranges(&mut held);
        let cells = held_coverage(&held);
        assert!(cells[0][0].coverage_sources_alike >= forecast::LEVEL - 1e-9, "{:?}", cells[0][0]);
        assert_eq!((cells[0][0].sources, cells[0][0].predictions), (10, 200));
        // Sources alike: the same spread everywhere leaves the tail at TAIL; fewer than three
        // sources, too.
        let same: Vec<Outcome> = (0..10)
            .flat_map(|s| {
                (1..=100).map(move |i| outcome(&format!("s{s}"), 3, 1.5, 10.0 * (f64::from(i) / 100.0).exp(), false))
            })
            .collect();
        assert_eq!(calibrate_bands(&same).unwrap().tails[0][0], TAIL);
        assert_eq!(calibrate_bands(&out[..40]).unwrap().tails[0][0], TAIL);
    }

    #[test]
    fn a_far_band_is_never_narrower_than_the_nearer_one_and_its_tail_counts_that() {
        // The nearer band: 10 sources whose scores spread from −1 to 1. The far band: three
        // sources, each of its own scores apart from the others' (0 to 0.2 in all), as a few
        // sources reaching far would be: set alone, each held out misses the others' range.
        let near: Vec<(f64, usize, f64)> = {
            let mut v: Vec<(f64, usize, f64)> =
                (0..200).map(|i| (-1.0 + 2.0 * f64::from(i) / 199.0, (i % 10) as usize, 1.0)).collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            v
        };
        let far: Vec<(f64, usize, f64)> =
            (0..30).map(|i| (0.2 * f64::from(i) / 29.0, (i / 10) as usize, 1.0)).collect();
        let n = Held::of(&near, None).unwrap();
        let alone = Held::of(&far, None).unwrap();
        let f = Held::of(&far, Some(&n)).unwrap();
        assert!(alone.all.high <= 0.2 && alone.all.low >= 0.0, "{alone:?}");
        assert!(f.all.low <= n.all.low && f.all.high >= n.all.high, "{f:?} inside {n:?}");
        // Set without a source, the far band takes the nearer band's set without it too.
        for s in 0..3 {
            let w = f.without(s);
            assert!(w.low <= n.without(s).low && w.high >= n.without(s).high);
        }
        // Its own scores inside the nearer band's range, every source held out holds them all,
        // so the far band's tail is the widest: its own quantiles need not reach further out.
        assert_eq!(f.tail, TAIL);
        assert_eq!(alone.tail, MIN_TAIL);
    }

    #[test]
    fn fifths_are_fixed_by_the_name_and_never_see_their_own_sources() {
        assert_eq!(fifth("github:o/r"), fifth("github:o/r"));
        assert!((0..40).map(|i| fifth(&format!("s{i}"))).all(|f| f < FIFTHS));
        // A wild source's ranges come from the other fifths alone.
        let mut out: Vec<Outcome> = (0..8)
            .flat_map(|s| {
                (0..20).map(move |i| outcome(&format!("tame{s}"), 3, 1.5, 10.0 + f64::from(i % 5) * 0.1, false))
            })
            .collect();
        out.extend((0..20).map(|_| outcome("wild", 3, 1.5, 40.0, false)));
        hold_out_fifths(&mut out);
        assert!(out.iter().filter(|o| o.source == "wild").all(|o| o.inside() == Some(false)));
    }

    #[test]
    fn the_headline_judges_by_the_pooled_median_and_the_worse_sources() {
        let mut out = Vec::new();
        // Nine sources with 10 % errors, one with 90 %: the pooled median is 10 %, the 80th
        // percentile of the sources' medians 10 %, the worst 90 %.
        for s in 0..9 {
            out.extend((0..10).map(|_| outcome(&format!("s{s}"), 3, 2.0, 10.0 / 1.1, false)));
        }
        out.extend((0..10).map(|_| outcome("bad", 3, 2.0, 10.0 / 1.9, false)));
        let h = headline(&out);
        assert!(
            (h.median_rel_error - 0.1).abs() < 1e-9
                && (h.source_p80 - 0.1).abs() < 1e-9
                && (h.worst_source - 0.9).abs() < 1e-9
        );
        assert_eq!(per_source(&out)[0].source, "bad");
    }
}
