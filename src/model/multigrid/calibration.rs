//! Calibration: the runs on one processor and on np0 processes, the fit of equations (2)–(4)
//! and the Tcomp line to them ([`fit`]), and predictions from a fit ([`Fit::predict`]).
//!
//! Seed: `seeds/000_36e595e86e3acfcd.txt`, section IV "The predictive model", equations
//! (1)–(4) and the six-step recipe. Spec: `shared/spec/multigrid.md`.
//!
//! # Fit
//!
//! For every parallel run, Tcomm = T − Tcomp at the same work size (the matching sequential
//! run is subtracted, never an interpolated one). For each np0 the line (2) is fitted through
//! its (work, Tcomm) points by least squares, giving α(np0), γ(np0); then (3) through
//! (log2 np0, α(np0)), giving c and d. Least squares through exactly two points is the
//! straight line through them, so two work sizes and two np0 values reproduce the paper's
//! recipe. Residuals (measured − fitted) are reported for every line. Work sizes are "the
//! same" when they agree to 1e-9 relative; exact repeats are averaged, repeats with different
//! times are an error (average them before entry).
//!
//! Valid ranges: work and times finite and > 0; parallel np ≥ 2; at least two distinct
//! sequential work sizes, at least two distinct np0, at least two distinct work sizes per
//! np0, Tcomm ≥ 0 for every parallel run.
//!
//! # Prediction
//!
//! np ≥ 1 and work > 0. A negative line value is clamped at 0 and flagged
//! ([`PredictionNote`]): Tcomp when the sequential line falls below zero far outside the
//! measured sizes, Tcomm when α(np) + γ·work < 0. np = 1 has no communication: Tcomm = 0
//! (flagged `single_process`). Results are always finite, or an error.

use serde::{Deserialize, Serialize};

use crate::model::fit::forecast::horizon_range;

use super::num;
use crate::model::error::InputError;
use crate::model::fit::line;

/// Field name of the sequential runs in errors.
pub const SEQUENTIAL_FIELD: &str = "sequential runs";
/// Field name of the parallel runs in errors.
pub const PARALLEL_FIELD: &str = "parallel runs";
/// Columns of the sequential-runs table; an error's `column` is 1-based into this list.
pub const SEQUENTIAL_COLUMNS: [&str; 2] = ["work_mb", "time_s"];
/// Columns of the parallel-runs table; an error's `column` is 1-based into this list.
pub const PARALLEL_COLUMNS: [&str; 3] = ["np", "work_mb", "time_s"];

/// Relative tolerance under which two work sizes (or two times of a repeat) are the same.
const SAME_REL: f64 = 1e-9;

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_REL * a.abs().max(b.abs())
}

/// One run on a single processor at one per-process size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct SequentialRun {
    /// Memory the process needed, MB.
    pub work_mb: f64,
    /// Run time, s.
    pub time_s: f64,
    /// 1-based line in the text the run came from, for error messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl SequentialRun {
    pub fn new(work_mb: f64, time_s: f64) -> Self {
        SequentialRun { work_mb, time_s, line: None }
    }
}

/// One run on np0 processes with the same per-process size as a sequential run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ParallelRun {
    /// Number of processes (np0), at least 2.
    pub np: u32,
    /// Memory each process needed, MB.
    pub work_mb: f64,
    /// Run time, s.
    pub time_s: f64,
    /// 1-based line in the text the run came from, for error messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl ParallelRun {
    pub fn new(np: u32, work_mb: f64, time_s: f64) -> Self {
        ParallelRun { np, work_mb, time_s, line: None }
    }
}

/// The calibration runs of one program on one cluster over one fabric.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Calibration {
    pub sequential: Vec<SequentialRun>,
    pub parallel: Vec<ParallelRun>,
}

/// The overhead of one parallel run (one per input row, in input order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct RunOverhead {
    pub np: u32,
    pub work_mb: f64,
    pub time_s: f64,
    /// The sequential time at the same work size that was subtracted.
    pub tcomp_s: f64,
    /// time_s − tcomp_s.
    pub tcomm_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// A (work, Tcomm) point of one np0 line and how far it is from the line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct OverheadPoint {
    pub work_mb: f64,
    pub tcomm_s: f64,
    pub fitted_s: f64,
    /// tcomm_s − fitted_s.
    pub residual_s: f64,
}

/// Equation (2) fitted for one np0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Np0Fit {
    pub np0: u32,
    pub alpha_s: f64,
    pub gamma_s_per_mb: f64,
    pub points: Vec<OverheadPoint>,
}

/// A (log2 np0, α(np0)) point of equation (3) and how far it is from the line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct AlphaPoint {
    pub np0: u32,
    pub log2_np0: f64,
    pub alpha_s: f64,
    pub fitted_s: f64,
    /// alpha_s − fitted_s.
    pub residual_s: f64,
}

/// Equation (3): α(np) = c + d·log2(np).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct AlphaFit {
    pub c_s: f64,
    /// Seconds per doubling of np.
    pub d_s: f64,
    pub points: Vec<AlphaPoint>,
}

/// A measured sequential point (repeats averaged) and how far it is from the Tcomp line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TcompPoint {
    pub work_mb: f64,
    pub time_s: f64,
    pub fitted_s: f64,
    /// time_s − fitted_s.
    pub residual_s: f64,
}

/// Tcomp(work) = intercept_s + slope_s_per_mb · work, least squares through the sequential
/// points; used only for sizes that were not measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct TcompLine {
    pub intercept_s: f64,
    pub slope_s_per_mb: f64,
    pub points: Vec<TcompPoint>,
}

/// A fitted calibration: everything the predictions need, and the residuals to show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Fit {
    /// Tcomm of every parallel run, in input order.
    pub runs: Vec<RunOverhead>,
    /// Equation (2) per np0, by increasing np0.
    pub per_np0: Vec<Np0Fit>,
    /// Equation (3).
    pub alpha: AlphaFit,
    /// γ used for predictions: γ of the largest np0 (the paper: γ(8)).
    pub gamma_s_per_mb: f64,
    /// The np0 γ was taken from.
    pub gamma_np0: u32,
    /// Tcomp as a function of work.
    pub tcomp: TcompLine,
}

/// Least-squares line y = intercept + slope·x: `(intercept, slope)`, or None with fewer than
/// two distinct x or a result that is not finite.
pub(super) fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    line::fit_unweighted(points).map(|l| (l.intercept, l.slope))
}

fn row_label(index: usize, line: Option<usize>) -> String {
    match line {
        Some(l) => format!("line {l}"),
        None => format!("row {}", index + 1),
    }
}

/// An error about one row: at its line when known, else "row k: " starts the message.
fn row_error(field: &str, index: usize, line: Option<usize>, column: Option<usize>, message: String) -> InputError {
    match line {
        Some(l) => InputError::new(field, message).at(l, column),
        None => {
            let mut e = InputError::new(field, format!("row {}: {message}", index + 1));
            e.column = column;
            e
        }
    }
}

struct RowRef {
    field: &'static str,
    index: usize,
    line: Option<usize>,
}

impl RowRef {
    fn err(&self, column: Option<usize>, message: String) -> InputError {
        row_error(self.field, self.index, self.line, column, message)
    }
    fn label(&self) -> String {
        row_label(self.index, self.line)
    }
}

fn check_positive(row: &RowRef, column: usize, what: &str, x: f64, errors: &mut Vec<InputError>) -> bool {
    if !x.is_finite() {
        errors.push(row.err(Some(column), format!("{what} is not a finite number")));
        false
    } else if x <= 0.0 {
        errors.push(row.err(Some(column), format!("{what} must be greater than 0, found {}", num(x))));
        false
    } else {
        true
    }
}

/// Measurements merged by key: repeats averaged, the first row kept for messages.
struct Group {
    np: u32,
    work_mb: f64,
    time_sum: f64,
    count: usize,
    first: RowRef,
}

impl Group {
    fn time_s(&self) -> f64 {
        self.time_sum / self.count as f64
    }
}

/// Adds a row to its group, or reports it when a repeat disagrees with the first row.
fn add_to_groups(
    groups: &mut Vec<Group>,
    np: u32,
    work_mb: f64,
    time_s: f64,
    row: RowRef,
    errors: &mut Vec<InputError>,
) {
    if let Some(g) = groups.iter_mut().find(|g| g.np == np && same(g.work_mb, work_mb)) {
        let first_time = g.time_sum / g.count as f64;
        if same(first_time, time_s) {
            g.time_sum += time_s;
            g.count += 1;
        } else {
            let what = if np == 0 {
                format!("work size ({} MB)", num(work_mb))
            } else {
                format!("np and work size ({np}, {} MB)", num(work_mb))
            };
            errors.push(row.err(
                None,
                format!(
                    "same {what} as {} but a different time ({} s there, {} s here); average repeated runs before entering them",
                    g.first.label(),
                    num(first_time),
                    num(time_s)
                ),
            ));
        }
    } else {
        groups.push(Group { np, work_mb, time_sum: time_s, count: 1, first: row });
    }
}

fn list_mb(sizes: &[f64]) -> String {
    let parts: Vec<String> = sizes.iter().map(|&w| num(w)).collect();
    format!("{} MB", parts.join(", "))
}

/// Fits equations (2)–(4) and the Tcomp line to a calibration, or returns every problem found.
pub fn fit(cal: &Calibration) -> Result<Fit, Vec<InputError>> {
    let mut errors = Vec::new();
    // Row values first; structural checks use only the rows whose values are valid.
    let mut seq_groups = sequential_groups(&cal.sequential, &mut errors);
    let par_groups = parallel_groups(&cal.parallel, &mut errors);
    seq_groups.sort_by(|a, b| a.work_mb.total_cmp(&b.work_mb));
    let seq_sizes: Vec<f64> = seq_groups.iter().map(|g| g.work_mb).collect();
    check_sequential_sizes(cal, &seq_sizes, &mut errors);
    let tcomms = overheads(&par_groups, &seq_groups, &seq_sizes, &mut errors);
    let np0s = process_counts(cal, &par_groups, &seq_sizes, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    build_fit(cal, &seq_groups, &par_groups, &tcomms, &np0s)
}

/// The valid sequential runs, repeats merged.
fn sequential_groups(runs: &[SequentialRun], errors: &mut Vec<InputError>) -> Vec<Group> {
    let mut seq_groups: Vec<Group> = Vec::new();
    for (index, r) in runs.iter().enumerate() {
        let row = RowRef { field: SEQUENTIAL_FIELD, index, line: r.line };
        let ok_w = check_positive(&row, 1, "work (MB per process)", r.work_mb, errors);
        let ok_t = check_positive(&row, 2, "time (s)", r.time_s, errors);
        if ok_w && ok_t {
            add_to_groups(&mut seq_groups, 0, r.work_mb, r.time_s, row, errors);
        }
    }
    seq_groups
}

/// The valid parallel runs, repeats merged.
fn parallel_groups(runs: &[ParallelRun], errors: &mut Vec<InputError>) -> Vec<Group> {
    let mut par_groups: Vec<Group> = Vec::new();
    for (index, r) in runs.iter().enumerate() {
        let row = RowRef { field: PARALLEL_FIELD, index, line: r.line };
        let ok_np = if r.np < 2 {
            errors.push(row.err(
                Some(1),
                format!("np must be at least 2 for a parallel run, found {}; runs on one processor belong in the sequential runs", r.np),
            ));
            false
        } else {
            true
        };
        let ok_w = check_positive(&row, 2, "work (MB per process)", r.work_mb, errors);
        let ok_t = check_positive(&row, 3, "time (s)", r.time_s, errors);
        if ok_np && ok_w && ok_t {
            add_to_groups(&mut par_groups, r.np, r.work_mb, r.time_s, row, errors);
        }
    }
    par_groups
}

/// At least two distinct sequential work sizes (`seq_sizes`: those of the valid runs).
fn check_sequential_sizes(cal: &Calibration, seq_sizes: &[f64], errors: &mut Vec<InputError>) {
    match seq_sizes.len() {
        0 => errors.push(InputError::new(
            SEQUENTIAL_FIELD,
            if cal.sequential.is_empty() {
                "no sequential runs; runs on one processor at two per-process sizes (N̄ × N and N̄/2 × N rows) are needed"
            } else {
                "no valid sequential runs; runs on one processor at two per-process sizes (N̄ × N and N̄/2 × N rows) are needed"
            },
        )),
        1 => errors.push(InputError::new(
            SEQUENTIAL_FIELD,
            format!(
                "only one work size ({} MB); a second per-process size is needed (the paper halves the rows: {} MB)",
                num(seq_sizes[0]),
                num(seq_sizes[0] / 2.0)
            ),
        )),
        _ => {}
    }
}

/// Tcomm of each parallel group, against the sequential run of the same size: (Tcomp, Tcomm),
/// or None where there is no such run or Tcomm would be negative.
fn overheads(
    par_groups: &[Group],
    seq_groups: &[Group],
    seq_sizes: &[f64],
    errors: &mut Vec<InputError>,
) -> Vec<Option<(f64, f64)>> {
    let mut tcomms: Vec<Option<(f64, f64)>> = Vec::with_capacity(par_groups.len());
    for g in par_groups {
        let t = g.time_s();
        match seq_groups.iter().find(|s| same(s.work_mb, g.work_mb)) {
            None => {
                if !seq_groups.is_empty() {
                    errors.push(g.first.err(
                        Some(2),
                        format!(
                            "no sequential run at {} MB, so there is no Tcomp to subtract (sequential sizes: {}); Tcomp is not interpolated for calibration",
                            num(g.work_mb),
                            list_mb(seq_sizes)
                        ),
                    ));
                }
                tcomms.push(None);
            }
            Some(s) => {
                let tcomp = s.time_s();
                let tcomm = t - tcomp;
                if tcomm < 0.0 {
                    errors.push(g.first.err(
                        Some(3),
                        format!(
                            "faster than its sequential part: T = {} s on {} processes < Tcomp = {} s at {} MB, so Tcomm would be {} s",
                            num(t),
                            g.np,
                            num(tcomp),
                            num(g.work_mb),
                            num(tcomm)
                        ),
                    ));
                    tcomms.push(None);
                } else {
                    tcomms.push(Some((tcomp, tcomm)));
                }
            }
        }
    }
    tcomms
}

/// The distinct np0, by increasing value: at least two, each measured at two work sizes.
fn process_counts(
    cal: &Calibration,
    par_groups: &[Group],
    seq_sizes: &[f64],
    errors: &mut Vec<InputError>,
) -> Vec<u32> {
    let mut np0s: Vec<u32> = par_groups.iter().map(|g| g.np).collect();
    np0s.sort_unstable();
    np0s.dedup();
    match np0s.len() {
        0 => errors.push(InputError::new(
            PARALLEL_FIELD,
            if cal.parallel.is_empty() {
                "no parallel runs; runs on at least two process counts (the paper: np0 = 4 and 8) at the sequential runs' sizes are needed"
            } else {
                "no valid parallel runs; runs on at least two process counts (the paper: np0 = 4 and 8) at the sequential runs' sizes are needed"
            }
            .to_string(),
        )),
        1 => errors.push(InputError::new(
            PARALLEL_FIELD,
            format!(
                "only one process count (np0 = {}); runs on a second one are needed to fit α = c + d·log2(np) (the paper uses 4 and 8)",
                np0s[0]
            ),
        )),
        _ => {}
    }
    for &np0 in &np0s {
        let sizes: Vec<f64> = par_groups.iter().filter(|g| g.np == np0).map(|g| g.work_mb).collect();
        if sizes.len() < 2 {
            let missing: Vec<f64> = seq_sizes.iter().copied().filter(|&s| !sizes.iter().any(|&w| same(w, s))).collect();
            let hint = if missing.is_empty() {
                "a run at a second per-process size is needed".to_string()
            } else {
                format!(
                    "a run at a second per-process size is needed (not measured on {np0} processes: {})",
                    list_mb(&missing)
                )
            };
            errors.push(InputError::new(
                PARALLEL_FIELD,
                format!("np0 = {np0} has runs at only one work size ({}); {hint}", list_mb(&sizes)),
            ));
        }
    }
    np0s
}

fn build_fit(
    cal: &Calibration,
    seq_groups: &[Group],
    par_groups: &[Group],
    tcomms: &[Option<(f64, f64)>],
    np0s: &[u32],
) -> Result<Fit, Vec<InputError>> {
    let too_large = |field: &str| vec![InputError::new(field, "the numbers are too large to fit a line through them")];

    let seq_points: Vec<(f64, f64)> = seq_groups.iter().map(|g| (g.work_mb, g.time_s())).collect();
    let Some((tc_intercept, tc_slope)) = least_squares(&seq_points) else {
        return Err(too_large(SEQUENTIAL_FIELD));
    };
    let tcomp = TcompLine {
        intercept_s: tc_intercept,
        slope_s_per_mb: tc_slope,
        points: seq_points
            .iter()
            .map(|&(w, t)| {
                let fitted = tc_intercept + tc_slope * w;
                TcompPoint { work_mb: w, time_s: t, fitted_s: fitted, residual_s: t - fitted }
            })
            .collect(),
    };

    let mut per_np0 = Vec::with_capacity(np0s.len());
    for &np0 in np0s {
        let mut pts: Vec<(f64, f64)> = par_groups
            .iter()
            .zip(tcomms)
            .filter(|(g, _)| g.np == np0)
            .filter_map(|(g, tc)| tc.map(|(_, tcomm)| (g.work_mb, tcomm)))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let Some((alpha, gamma)) = least_squares(&pts) else {
            return Err(too_large(PARALLEL_FIELD));
        };
        per_np0.push(Np0Fit {
            np0,
            alpha_s: alpha,
            gamma_s_per_mb: gamma,
            points: pts
                .iter()
                .map(|&(w, tc)| {
                    let fitted = alpha + gamma * w;
                    OverheadPoint { work_mb: w, tcomm_s: tc, fitted_s: fitted, residual_s: tc - fitted }
                })
                .collect(),
        });
    }

    let alpha_pts: Vec<(f64, f64)> = per_np0.iter().map(|f| (f64::from(f.np0).log2(), f.alpha_s)).collect();
    let Some((c, mut d)) = least_squares(&alpha_pts) else {
        return Err(too_large(PARALLEL_FIELD));
    };
    // Equal α at every np0 gives d = 0, which the arithmetic leaves as round-off (1.8e-15):
    // a slope whose whole effect over the calibration is below 1e-12 of the overheads α was
    // computed from is 0.
    let span = alpha_pts.iter().map(|p| p.0).fold(0.0, f64::max);
    let scale = per_np0.iter().flat_map(|f| f.points.iter().map(|p| p.tcomm_s.abs())).fold(c.abs(), f64::max);
    if (d * span).abs() <= 1e-12 * scale {
        d = 0.0;
    }
    let alpha = AlphaFit {
        c_s: c,
        d_s: d,
        points: per_np0
            .iter()
            .zip(&alpha_pts)
            .map(|(f, &(x, a))| {
                let fitted = c + d * x;
                AlphaPoint { np0: f.np0, log2_np0: x, alpha_s: a, fitted_s: fitted, residual_s: a - fitted }
            })
            .collect(),
    };
    let Some(last) = per_np0.last() else {
        return Err(too_large(PARALLEL_FIELD));
    };
    let (gamma_s_per_mb, gamma_np0) = (last.gamma_s_per_mb, last.np0);

    // One overhead per input row, in input order (all rows are valid here).
    let runs = cal
        .parallel
        .iter()
        .filter_map(|r| {
            let g = par_groups.iter().position(|g| g.np == r.np && same(g.work_mb, r.work_mb))?;
            let (tcomp_s, _) = tcomms.get(g).copied().flatten()?;
            Some(RunOverhead {
                np: r.np,
                work_mb: r.work_mb,
                time_s: r.time_s,
                tcomp_s,
                tcomm_s: r.time_s - tcomp_s,
                line: r.line,
            })
        })
        .collect();

    let fit = Fit { runs, per_np0, alpha, gamma_s_per_mb, gamma_np0, tcomp };
    if fit.is_finite() {
        Ok(fit)
    } else {
        Err(too_large(PARALLEL_FIELD))
    }
}

/// Something the page should say next to a prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PredictionNote {
    /// np = 1: no communication, Tcomm = 0.
    SingleProcess,
    /// The work size was not measured; Tcomp comes from the straight line.
    TcompFromLine,
    /// ... and lies outside the measured sizes.
    TcompExtrapolated,
    /// The straight line fell below zero; Tcomp was set to 0.
    TcompClampedAtZero,
    /// α(np) + γ·work fell below zero; Tcomm was set to 0.
    TcommClampedAtZero,
}

impl PredictionNote {
    pub fn text(&self) -> &'static str {
        match self {
            PredictionNote::SingleProcess => "one process: no communication, Tcomm = 0",
            PredictionNote::TcompFromLine => {
                "this work size was not measured: Tcomp is read from the straight line through the sequential runs"
            }
            PredictionNote::TcompExtrapolated => "Tcomp is extrapolated beyond the measured work sizes",
            PredictionNote::TcompClampedAtZero => "the Tcomp line falls below zero here; Tcomp was set to 0",
            PredictionNote::TcommClampedAtZero => "α(np) + γ·work falls below zero here; Tcomm was set to 0",
        }
    }
}

/// Predicted run time of one configuration, by equation (1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Prediction {
    pub np: u32,
    pub work_mb: f64,
    pub tcomp_s: f64,
    pub tcomm_s: f64,
    pub time_s: f64,
    /// The 90 % range of `time_s`: the extrapolated part (Tcomm, and Tcomp only when the work
    /// lies outside the measured sizes) widened by how far scaling predictions from a few
    /// small runs fell from measured times at this horizon (np over the largest calibrated np)
    /// on the validation corpora (`fit::forecast::horizon_range`); a measured or
    /// interpolated Tcomp is added as it is. The planner's own method could not be checked
    /// there: the corpora have no per-run work sizes.
    #[serde(default)]
    pub time_low_s: f64,
    #[serde(default)]
    pub time_high_s: f64,
    pub notes: Vec<PredictionNote>,
}

impl Fit {
    /// α(np) = c + d·log2(np), s.
    pub fn alpha_s(&self, np: u32) -> f64 {
        self.alpha.c_s + self.alpha.d_s * f64::from(np).log2()
    }

    /// Smallest and largest measured sequential work size, MB.
    pub fn measured_range_mb(&self) -> (f64, f64) {
        let ws = self.tcomp.points.iter().map(|p| p.work_mb);
        let lo = ws.clone().fold(f64::INFINITY, f64::min);
        let hi = ws.fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    }

    /// True when every number in the fit is finite (a fit read from JSON may not be).
    pub fn is_finite(&self) -> bool {
        let t = &self.tcomp;
        [self.alpha.c_s, self.alpha.d_s, self.gamma_s_per_mb, t.intercept_s, t.slope_s_per_mb]
            .iter()
            .all(|x| x.is_finite())
            && !t.points.is_empty()
            && t.points.iter().all(|p| p.work_mb.is_finite() && p.time_s.is_finite())
    }

    /// True when the predicted time never falls as work grows, for every np: the split search
    /// between two clusters is exact to the row only then. Measured sequential times that lie
    /// off the Tcomp line (three or more sizes) are ignored here.
    pub fn time_grows_with_work(&self) -> bool {
        let s = self.tcomp.slope_s_per_mb;
        let g = self.gamma_s_per_mb;
        s >= 0.0 && s + g >= 0.0 && (g >= 0.0 || self.tcomp.intercept_s >= 0.0)
    }

    /// Tcomp at a work size: (value, measured?, clamped at 0?).
    fn tcomp_at(&self, work_mb: f64) -> (f64, bool, bool) {
        if let Some(p) = self.tcomp.points.iter().find(|p| same(p.work_mb, work_mb)) {
            return (p.time_s, true, false);
        }
        let line = self.tcomp.intercept_s + self.tcomp.slope_s_per_mb * work_mb;
        if line < 0.0 {
            (0.0, false, true)
        } else {
            (line, false, false)
        }
    }

    /// Tcomm for α (None: one process) at a work size: (value, clamped at 0?).
    fn tcomm_at(&self, alpha: Option<f64>, work_mb: f64) -> (f64, bool) {
        match alpha {
            None => (0.0, false),
            Some(a) => {
                let v = a + self.gamma_s_per_mb * work_mb;
                if v < 0.0 {
                    (0.0, true)
                } else {
                    (v, false)
                }
            }
        }
    }

    /// Run time only; the same arithmetic as [`Fit::predict`].
    pub(super) fn time_at(&self, alpha: Option<f64>, work_mb: f64) -> f64 {
        self.tcomp_at(work_mb).0 + self.tcomm_at(alpha, work_mb).0
    }

    pub(super) fn alpha_for(&self, np: u32) -> Option<f64> {
        (np >= 2).then(|| self.alpha_s(np))
    }

    pub(super) fn evaluate(&self, np: u32, alpha: Option<f64>, work_mb: f64) -> Prediction {
        let (tcomp_s, measured, tcomp_clamped) = self.tcomp_at(work_mb);
        let (tcomm_s, tcomm_clamped) = self.tcomm_at(alpha, work_mb);
        let mut notes = Vec::new();
        if alpha.is_none() {
            notes.push(PredictionNote::SingleProcess);
        }
        if !measured {
            notes.push(PredictionNote::TcompFromLine);
            let (lo, hi) = self.measured_range_mb();
            if work_mb < lo || work_mb > hi {
                notes.push(PredictionNote::TcompExtrapolated);
            }
        }
        if tcomp_clamped {
            notes.push(PredictionNote::TcompClampedAtZero);
        }
        if tcomm_clamped {
            notes.push(PredictionNote::TcommClampedAtZero);
        }
        let time_s = tcomp_s + tcomm_s;
        // The range covers what is extrapolated: the communication time, carried from the
        // calibration's np0 to np by α(np) (and the compute time only when the work lies
        // outside the measured sizes). A measured or interpolated compute time is not widened,
        // so no range falls below the time measured for that work on one process.
        let extrapolated = tcomm_s + if notes.contains(&PredictionNote::TcompExtrapolated) { tcomp_s } else { 0.0 };
        let kept = time_s - extrapolated;
        let largest = self.runs.iter().map(|r| r.np).max().unwrap_or(1).max(1);
        let (low, high) = horizon_range(extrapolated, f64::from(np) / f64::from(largest));
        let (time_low_s, time_high_s) = (kept + low, kept + high);
        Prediction { np, work_mb, tcomp_s, tcomm_s, time_s, time_low_s, time_high_s, notes }
    }

    /// T(np, work) by equations (1)–(4). Errors: np = 0, work not finite or ≤ 0, or a result
    /// too large to represent. Negative parts are clamped at 0 and flagged (see the module doc).
    pub fn predict(&self, np: u32, work_mb: f64) -> Result<Prediction, InputError> {
        if np == 0 {
            return Err(InputError::new("np", "the number of processes must be at least 1, found 0"));
        }
        if !work_mb.is_finite() || work_mb <= 0.0 {
            return Err(InputError::new(
                "work_mb",
                format!("work per process must be a number greater than 0 MB, found {}", num(work_mb)),
            ));
        }
        let p = self.evaluate(np, self.alpha_for(np), work_mb);
        if p.time_s.is_finite() {
            Ok(p)
        } else {
            Err(InputError::new(
                "work_mb",
                format!("the predicted time for {} MB per process is too large to represent", num(work_mb)),
            ))
        }
    }
}
