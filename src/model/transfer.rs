//! The same job on another machine: from a strong-scaling series measured on machine A, the
//! times of the same code and problem on machine B. Such a prediction is a **transfer**: it
//! rests on two machines' figures as well as on the runs, and its range says so.
//!
//! **Decomposition.** The measured times are read as
//!
//! ```text
//! T_A(n) = s + p/n + c·log2 n        (seconds; n processes, n ≥ 1)
//! ```
//!
//! s the serial part, p/n the parallel compute, c·log2 n the communication: a tree of
//! messages log2 n deep, each costing the fabric's time for one message. s, p, c ≥ 0. The
//! fit is least squares on relative residuals (weights 1/T²): for each c on a grid from 0
//! to the largest c that leaves every T(n) − c·log2 n ≥ 0, the line in 1/n is the crate's one
//! weighted line (`fit::line`), forced through 0 where its intercept would be negative; the c
//! of the smallest residual wins (the smaller c on a tie), refined by golden section within a
//! grid step. Two measured counts give c = 0.
//!
//! **Scaling.** On machine B
//!
//! ```text
//! T_B(n) = r·(s + p/n) + f·c·log2 n
//! ```
//!
//! with r the compute ratio, per `Bound`: A's FP64 peak per core over B's (`Bound::Compute`),
//! or A's memory bandwidth per core over B's (`Bound::Memory`; bandwidth per node over the
//! processes per node that share it); and f the fabric ratio, B's time for a reference
//! message of `REFERENCE_MESSAGE_BYTES` over A's, latency_us + bytes / bandwidth_mb_s (µs;
//! 1 MB/s is 1 byte/µs). With one of the two fabric figures known on both machines, f is that
//! figure's ratio alone; with neither, f = 1 and the answer says that the fabric ratio could
//! not be formed. A compute ratio that cannot be formed is an error naming the figures.
//!
//! **Default bound: compute, the one whose ranges hold.** On the validation pairs
//! (`validation/transfer_pairs.csv`, 33 pairs of machines for GROMACS, CASTEP and OpenSBLI;
//! VALIDATION.md "The same job on another machine") the compute bound's 90 % ranges held 92 %
//! of the measurements on codes held out whole, the memory bound's only 82 %: a range said to
//! be 90 % must hold, so the default is compute. The memory bound has the smaller median error
//! (30 % against 37 %) and ranges half as wide (the machines there differ in vector width far
//! more than the codes' speed does), and it is better for GROMACS and OpenSBLI; the compute
//! bound is better for CASTEP (dense linear algebra) and has the smaller p90 (101 % against
//! 110 %). Choose memory for a code known to be bandwidth-bound, knowing its ranges are short.
//!
//! **Range.** At a stated level of 90 %: the transfer times e^(q·u), with u = 1 + ln(max(h, 1))
//! (h = n over A's largest measured count; `scale`) and q the 5th and 95th percentiles of
//! ln(measured / transferred) / u over the validation pairs (`transfer/calibration.rs`,
//! written by `scalewise validate --transfer --calibration`, each transfer weighted alike;
//! their coverage on codes held out whole is in VALIDATION.md). The same-machine range at the
//! same horizon is `forecast::horizon_range` (scale ln(max(h, 1)) + 0.3); each prediction's
//! widening is the ratio of the two ranges' widths in ln(high / low).
//!
//! Seed: the speed-up calculator's forecast and ranges (seed 004, `fit::forecast`), with
//! the Hockney message time of seed 002 (latency + size / bandwidth).

// Written by `make validate`, so kept as written (rustfmt skips it).
#[rustfmt::skip]
pub mod calibration;
pub mod request;

use crate::model::fit::forecast::{self, Quantiles};
use crate::model::fit::line;
use crate::model::InputError;

/// The reference message of the fabric ratio: a 64 KiB halo, where latency and bandwidth both
/// count on the fabrics of the validation pairs (1–2 µs, 5–25 GB/s).
pub const REFERENCE_MESSAGE_BYTES: f64 = 65536.0;
/// The most target counts one request may ask for.
pub const MAX_TARGETS: usize = 4096;
/// The most measured points.
pub const MAX_POINTS: usize = 4096;
/// The grid of the communication coefficient c: this many steps from 0 to its largest.
const C_STEPS: usize = 400;
/// Golden-section steps refining the grid's best c.
const GOLDEN_STEPS: usize = 80;
/// Process counts, times and figures beyond these are refused.
const MAX_N: f64 = 1e8;
const MAX_FIGURE: f64 = 1e12;

/// What a code is limited by on one core: which figure its compute part scales with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, strum::EnumIter)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The FP64 peak per core.
    Compute,
    /// The memory bandwidth per core.
    Memory,
}

impl Bound {
    /// The bound a request without one gets (the module's doc says why).
    pub const DEFAULT: Bound = Bound::Compute;

    pub fn key(self) -> &'static str {
        match self {
            Bound::Compute => "compute",
            Bound::Memory => "memory",
        }
    }

    pub fn from_key(key: &str) -> Option<Bound> {
        <Bound as strum::IntoEnumIterator>::iter().find(|b| b.key() == key)
    }

    /// Every bound's key, for messages and help.
    pub fn keys() -> String {
        crate::model::one_of(<Bound as strum::IntoEnumIterator>::iter().map(Bound::key))
    }

    /// The committed quantiles of this bound's transfers.
    pub fn quantiles(self) -> Quantiles {
        match self {
            Bound::Compute => calibration::COMPUTE,
            Bound::Memory => calibration::MEMORY,
        }
    }

    /// How often this bound's ranges held on the validation pairs' codes held out whole.
    pub fn track_record(self) -> TrackRecord {
        let (coverage, predictions) = match self {
            Bound::Compute => calibration::COMPUTE_HELD_OUT,
            Bound::Memory => calibration::MEMORY_HELD_OUT,
        };
        TrackRecord { coverage, predictions, pairs: calibration::PAIRS }
    }
}

/// How often a bound's ranges held on the validation pairs, each code held out in turn.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TrackRecord {
    /// The share of measurements inside.
    pub coverage: f64,
    pub predictions: usize,
    /// Pairs of machines they came from.
    pub pairs: usize,
}

/// One machine's figures; any may be unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Machine {
    /// Processes per node sharing the node's memory bandwidth (the cores in use).
    pub cores_per_node: Option<f64>,
    /// FP64 peak of one core, GFLOP/s.
    pub core_gflops: Option<f64>,
    /// Memory bandwidth of one node, GB/s.
    pub memory_bandwidth_gb_s: Option<f64>,
    /// Fabric latency, µs.
    pub latency_us: Option<f64>,
    /// Fabric bandwidth per link, MB/s.
    pub bandwidth_mb_s: Option<f64>,
}

impl Machine {
    /// Memory bandwidth per core, GB/s, when both figures are known.
    pub fn bandwidth_per_core_gb_s(&self) -> Option<f64> {
        Some(self.memory_bandwidth_gb_s? / self.cores_per_node?)
    }

    /// The figures checked: each known one finite and > 0, and cores per node ≥ 1.
    pub fn check(&self, field: &str) -> Result<(), InputError> {
        let figures = [
            ("cores_per_node", self.cores_per_node, 1.0),
            ("core_gflops", self.core_gflops, 0.0),
            ("memory_bandwidth_gb_s", self.memory_bandwidth_gb_s, 0.0),
            ("latency_us", self.latency_us, 0.0),
            ("bandwidth_mb_s", self.bandwidth_mb_s, 0.0),
        ];
        for (key, value, least) in figures {
            if let Some(v) = value {
                let ok = v.is_finite() && v > 0.0 && v >= least && v <= MAX_FIGURE;
                if !ok {
                    let what = if least >= 1.0 { "at least 1" } else { "above 0" };
                    return Err(InputError::new(
                        format!("{field}.{key}"),
                        format!("expected a number {what} and at most 1e12, found {}", shown(v)),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A number as a message shows it, NaN and infinities by name.
fn shown(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        "infinity".into()
    } else {
        crate::model::fmt_num(x, 6)
    }
}

/// The fit of T(n) = s + p/n + c·log2 n to the measured times.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Decomposition {
    /// s, seconds.
    pub serial_s: f64,
    /// p, seconds (the compute time of one process alone, less s).
    pub parallel_s: f64,
    /// c, seconds per level of the message tree.
    pub comm_s: f64,
    /// The root mean square of (fitted − measured) / measured.
    pub rms_rel_residual: f64,
}

impl Decomposition {
    pub fn compute_at(&self, n: f64) -> f64 {
        self.serial_s + self.parallel_s / n
    }

    pub fn comm_at(&self, n: f64) -> f64 {
        self.comm_s * g(n)
    }

    pub fn at(&self, n: f64) -> f64 {
        self.compute_at(n) + self.comm_at(n)
    }
}

/// The communication's growth with n: the depth of a message tree.
fn g(n: f64) -> f64 {
    n.max(1.0).log2()
}

/// Fits s, p, c ≥ 0 to (n, time) points, n ascending or not; at least two distinct n.
/// None when no line can be fitted (every n alike).
pub fn decompose(points: &[(f64, f64)]) -> Option<Decomposition> {
    let distinct = {
        let mut ns: Vec<f64> = points.iter().map(|p| p.0).collect();
        ns.sort_by(f64::total_cmp);
        ns.dedup();
        ns.len()
    };
    if distinct < 2 {
        return None;
    }
    // The largest c that keeps every compute part ≥ 0; with two counts none, as three
    // parameters need three.
    let c_max = if distinct >= 3 {
        points.iter().filter(|p| g(p.0) > 0.0).map(|p| p.1 / g(p.0)).fold(f64::INFINITY, f64::min)
    } else {
        0.0
    };
    let c_max = if c_max.is_finite() { c_max } else { 0.0 };
    let sse = |c: f64| -> Option<(f64, Decomposition)> {
        let d = line_at(points, c)?;
        let e: f64 = points.iter().map(|&(n, t)| ((d.at(n) - t) / t).powi(2)).sum();
        e.is_finite().then_some((e, d))
    };
    let mut best: Option<(f64, f64, Decomposition)> = None;
    let steps = if c_max > 0.0 { C_STEPS } else { 0 };
    let step = c_max / C_STEPS as f64;
    for i in 0..=steps {
        let c = step * i as f64;
        if let Some((e, d)) = sse(c) {
            if best.as_ref().is_none_or(|b| e < b.0 * (1.0 - 1e-12)) {
                best = Some((e, c, d));
            }
        }
    }
    // The grid's best refined by golden section within a step either side: for c where no
    // bound binds the residual is quadratic in c, so this finds its least.
    if let Some((mut e_best, c_best, mut d_best)) = best {
        if steps > 0 {
            let phi = (5f64.sqrt() - 1.0) / 2.0;
            let (mut lo, mut hi) = ((c_best - step).max(0.0), (c_best + step).min(c_max));
            for _ in 0..GOLDEN_STEPS {
                let (a, b) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
                let (ea, eb) = (sse(a).map_or(f64::INFINITY, |x| x.0), sse(b).map_or(f64::INFINITY, |x| x.0));
                if ea <= eb {
                    hi = b;
                } else {
                    lo = a;
                }
            }
            if let Some((e, d)) = sse((lo + hi) / 2.0) {
                if e < e_best {
                    (e_best, d_best) = (e, d);
                }
            }
        }
        best = Some((e_best, d_best.comm_s, d_best));
    }
    best.map(|(e, _, d)| Decomposition { rms_rel_residual: (e / points.len() as f64).sqrt(), ..d })
}

/// s and p for a given c: the weighted line of T − c·g(n) in 1/n, kept to s, p ≥ 0.
fn line_at(points: &[(f64, f64)], c: f64) -> Option<Decomposition> {
    let pts: Vec<(f64, f64, f64)> = points.iter().map(|&(n, t)| (1.0 / n, t - c * g(n), 1.0 / (t * t))).collect();
    let l = line::fit(&pts)?;
    let (serial_s, parallel_s) = if l.intercept < 0.0 {
        (0.0, line::slope_through(0.0, 0.0, &pts)?.max(0.0))
    } else if l.slope < 0.0 {
        let (sw, swy) = pts.iter().fold((0.0, 0.0), |(a, b), p| (a + p.2, b + p.2 * p.1));
        ((swy / sw).max(0.0), 0.0)
    } else {
        (l.intercept, l.slope)
    };
    let d = Decomposition { serial_s, parallel_s, comm_s: c, rms_rel_residual: 0.0 };
    (d.serial_s.is_finite() && d.parallel_s.is_finite()).then_some(d)
}

/// How the fabric ratio was formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FabricBasis {
    /// Latency and bandwidth known on both machines: the reference message's time.
    LatencyAndBandwidth,
    /// Only the latencies known on both.
    Latency,
    /// Only the bandwidths known on both.
    Bandwidth,
    /// Neither: the communication is taken as on A (ratio 1).
    NotFormed,
}

/// The ratios a transfer scales by (B's time over A's).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Ratios {
    /// On the compute part, s + p/n.
    pub compute: f64,
    /// On the communication part, c·log2 n.
    pub fabric: f64,
    pub fabric_basis: FabricBasis,
}

/// The compute ratio for `bound`, or an error naming the figures that are missing.
pub fn compute_ratio(from: &Machine, to: &Machine, bound: Bound) -> Result<f64, InputError> {
    let (a, b, needs) = match bound {
        Bound::Compute => (from.core_gflops, to.core_gflops, "core_gflops"),
        Bound::Memory => {
            (from.bandwidth_per_core_gb_s(), to.bandwidth_per_core_gb_s(), "memory_bandwidth_gb_s and cores_per_node")
        }
    };
    let missing: Vec<&str> = [("from", a), ("to", b)].iter().filter(|x| x.1.is_none()).map(|x| x.0).collect();
    match (a, b) {
        (Some(a), Some(b)) => Ok(a / b),
        _ => Err(InputError::new(
            missing.join(" and "),
            format!(
                "the {} ratio could not be formed: {} unknown on {}; give them, or choose the other bound",
                bound.key(),
                needs,
                if missing.len() == 2 { "both machines" } else { "this machine" }
            ),
        )),
    }
}

/// The fabric ratio from whatever both machines give.
pub fn fabric_ratio(from: &Machine, to: &Machine) -> (f64, FabricBasis) {
    let both = |f: fn(&Machine) -> Option<f64>| Some((f(from)?, f(to)?));
    match (both(|m| m.latency_us), both(|m| m.bandwidth_mb_s)) {
        (Some((la, lb)), Some((ba, bb))) => {
            let t = |l: f64, b: f64| l + REFERENCE_MESSAGE_BYTES / b;
            (t(lb, bb) / t(la, ba), FabricBasis::LatencyAndBandwidth)
        }
        (Some((la, lb)), None) => (lb / la, FabricBasis::Latency),
        (None, Some((ba, bb))) => (ba / bb, FabricBasis::Bandwidth),
        (None, None) => (1.0, FabricBasis::NotFormed),
    }
}

/// One transferred time.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Prediction {
    #[serde(serialize_with = "crate::model::finite::whole")]
    pub n: f64,
    /// The time on B, s.
    pub time_s: f64,
    /// The 90 % range on B.
    pub low_s: f64,
    pub high_s: f64,
    /// Of which compute and communication, s.
    pub compute_s: f64,
    pub comm_s: f64,
    /// n over A's largest measured count.
    pub horizon: f64,
    /// The range a same-machine prediction at this horizon would have (`horizon_range`).
    pub same_machine_low_s: f64,
    pub same_machine_high_s: f64,
    /// This range's width in ln(high / low) over the same-machine range's.
    pub widening: f64,
}

/// A transfer: the fit on A, the ratios, and B's times with their ranges.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Transfer {
    /// Always true: these are predictions for another machine than the runs'.
    pub transfer: bool,
    pub bound: Bound,
    pub fit: Decomposition,
    pub ratios: Ratios,
    /// The level of every range.
    pub level: f64,
    /// How often ranges of this bound held on the validation pairs (`calibration`).
    pub track_record: TrackRecord,
    pub predictions: Vec<Prediction>,
    /// What could not be formed, and other things to know, as sentences.
    pub notes: Vec<String>,
}

/// The scale of a transfer's range at horizon `h`: 1 + ln(max(h, 1)). It starts at 1, not at
/// the planner's 0.3: the error of the machines' ratio is there at the measured counts too,
/// and the horizon adds its own further out.
pub fn scale(h: f64) -> f64 {
    1.0 + h.max(1.0).ln()
}

/// The range of a transferred `time` at horizon `h` under quantiles `q`.
pub fn range(time: f64, h: f64, q: Quantiles) -> (f64, f64) {
    forecast::range(time, scale(h), q)
}

/// How much wider, in ln(high / low), a transfer's range at horizon `h` under `q` is than the
/// same-machine range there (`forecast::horizon_range`).
pub fn widening_at(h: f64, q: Quantiles) -> f64 {
    let same = crate::model::fit::calibration::HORIZON_ONLY;
    let same = (same.high - same.low) * forecast::horizon_scale(h);
    let mine = (q.high - q.low) * scale(h);
    if same > 0.0 {
        mine / same
    } else {
        1.0
    }
}

/// Checks the measured points: n whole-or-not ≥ 1 and finite, times finite and > 0.
pub fn check_points(points: &[(f64, f64)]) -> Result<(), InputError> {
    if points.len() > MAX_POINTS {
        return Err(InputError::new("points", format!("{} points; at most {MAX_POINTS}", points.len())));
    }
    for (i, &(n, t)) in points.iter().enumerate() {
        if !(n.is_finite() && (1.0..=MAX_N).contains(&n)) {
            return Err(InputError::new(
                format!("points[{i}].n"),
                format!("expected a process count from 1 to 1e8, found {}", shown(n)),
            ));
        }
        if !(t.is_finite() && t > 0.0 && t <= 1e12) {
            return Err(InputError::new(
                format!("points[{i}].time_s"),
                format!("expected a time above 0 s and at most 1e12 s, found {}", shown(t)),
            ));
        }
    }
    Ok(())
}

/// The transfer of `points` (n, time on A) to machine `to`, at `targets` (n on B), with the
/// committed quantiles of `bound`.
pub fn transfer(
    points: &[(f64, f64)],
    from: &Machine,
    to: &Machine,
    bound: Bound,
    targets: &[f64],
) -> Result<Transfer, InputError> {
    transfer_with(points, from, to, bound, targets, bound.quantiles())
}

/// [`transfer`] with given quantiles (the validation's held-out ones).
pub fn transfer_with(
    points: &[(f64, f64)],
    from: &Machine,
    to: &Machine,
    bound: Bound,
    targets: &[f64],
    q: Quantiles,
) -> Result<Transfer, InputError> {
    check_points(points)?;
    from.check("from")?;
    to.check("to")?;
    if targets.len() > MAX_TARGETS {
        return Err(InputError::new("predict", format!("{} counts; at most {MAX_TARGETS}", targets.len())));
    }
    for (i, &n) in targets.iter().enumerate() {
        if !(n.is_finite() && (1.0..=MAX_N).contains(&n)) {
            return Err(InputError::new(
                format!("predict[{i}]"),
                format!("expected a process count from 1 to 1e8, found {}", shown(n)),
            ));
        }
    }
    let fit = decompose(points)
        .ok_or_else(|| InputError::new("points", "give times at two or more different process counts"))?;
    let compute = compute_ratio(from, to, bound)?;
    let (fabric, fabric_basis) = fabric_ratio(from, to);
    let mut notes = Vec::new();
    if fabric_basis == FabricBasis::NotFormed {
        notes.push("the fabric ratio could not be formed (latency_us and bandwidth_mb_s are not both known on both machines): the communication is taken as on the measured machine".to_string());
    }
    if fit.comm_s == 0.0 {
        notes.push(
            "the fit found no communication term: the transfer scales the whole time by the compute ratio".to_string(),
        );
    }
    let other = match bound {
        Bound::Compute => Bound::Memory,
        Bound::Memory => Bound::Compute,
    };
    if compute_ratio(from, to, other).is_err() {
        notes.push(format!(
            "the {} ratio could not be formed, so only the {} bound can be compared",
            other.key(),
            bound.key()
        ));
    }
    let record = bound.track_record();
    if record.predictions > 0 && record.coverage < forecast::LEVEL {
        notes.push(format!(
            "ranges of the {} bound held {} % of {} measurements on the validation pairs' codes held out in turn, less than the {} % they state",
            bound.key(),
            crate::model::fmt_num(100.0 * record.coverage, 3),
            record.predictions,
            crate::model::fmt_num(100.0 * forecast::LEVEL, 2)
        ));
    }
    let k = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let predictions = targets
        .iter()
        .map(|&n| {
            let compute_s = compute * fit.compute_at(n);
            let comm_s = fabric * fit.comm_at(n);
            let time_s = compute_s + comm_s;
            let h = n / k;
            let (low_s, high_s) = range(time_s, h, q);
            let (same_machine_low_s, same_machine_high_s) = forecast::horizon_range(time_s, h);
            Prediction {
                n,
                time_s,
                low_s,
                high_s,
                compute_s,
                comm_s,
                horizon: h,
                same_machine_low_s,
                same_machine_high_s,
                widening: widening_at(h, q),
            }
        })
        .collect::<Vec<_>>();
    if let Some(p) = predictions
        .iter()
        .find(|p| !(p.time_s.is_finite() && p.time_s > 0.0 && p.low_s.is_finite() && p.high_s.is_finite()))
    {
        return Err(InputError::new(
            "points",
            format!("no finite time above 0 could be predicted at n = {}", shown(p.n)),
        ));
    }
    Ok(Transfer {
        transfer: true,
        bound,
        fit,
        ratios: Ratios { compute, fabric, fabric_basis },
        level: forecast::LEVEL,
        track_record: bound.track_record(),
        predictions,
        notes,
    })
}

#[cfg(test)]
mod tests;
