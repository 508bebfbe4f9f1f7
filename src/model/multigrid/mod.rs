//! Multigrid run time and cost on one or two clusters, predicted from a few runs on one
//! processor and on a few processes (np0 = 4 and 8 in the paper).
//!
//! Seed: `seeds/000_36e595e86e3acfcd.txt`, section IV "The predictive model" (equations
//! (1)–(4) and the six-step recipe) and section V.B–C (one job over two clusters, equation
//! (5); Scenarios 1 and 2, Tables I and II). Spec: `shared/spec/multigrid.md`.
//!
//! # Model
//!
//! ```text
//! T(np, work)     = Tcomp(work) + Tcomm(np, work)            (1)  s
//! Tcomm(np, work) = α(np) + γ · work                         (2)  s; work in MB per process
//! α(np)           = c + d · log2(np)                         (3)  c in s, d in s per doubling
//! γ               = γ(largest np0 calibrated)                (4)  s/MB (the paper: γ(8))
//! ```
//!
//! `work` is the memory one process needs, in MB (2^20 bytes); it stands for the process's
//! share of the computation. `Tcomp(work)` is the time of the same per-process problem run on
//! one processor: the measured sequential time when `work` is a measured size, otherwise the
//! least-squares straight line through the sequential runs (multigrid work is linear in the
//! number of unknowns; the page says so next to such a prediction).
//!
//! # Calibration ([`fit`])
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
//! # Prediction ([`Fit::predict`])
//!
//! np ≥ 1 and work > 0. A negative line value is clamped at 0 and flagged
//! ([`PredictionNote`]): Tcomp when the sequential line falls below zero far outside the
//! measured sizes, Tcomm when α(np) + γ·work < 0. np = 1 has no communication: Tcomm = 0
//! (flagged `single_process`). Results are always finite, or an error.
//!
//! # Problem, memory and cost
//!
//! A problem is an N × N grid of `bytes_per_point` bytes per point, partitioned by rows. On np
//! processes the slowest process holds N̄ = ceil(N / np) rows; it sets both the run time and
//! the memory need: work = N̄ · N · bytes_per_point / 2^20 MB. A configuration is infeasible
//! when work > memory_per_node_mb / procs_per_node (the paper: 65536² on 32 cores of cluster
//! B needs 4 GB per core). Cost = Σ np_i · T / 3600 · price_i (every process is held for the
//! whole run), also given as CPU-hours.
//!
//! # Two clusters
//!
//! np_A processes on A hold N_A rows each, np_B on B hold N_B (the last processes may hold one
//! row fewer); np_A·N_A + np_B·N_B ≥ N and every process holds at least one row. Each side is
//! predicted with its own calibration over the shared fabric, and T = max(T_A, T_B) (5): the
//! paper neglects inter-cluster messages against the imbalance. [`plan_pair`] finds the
//! integer split minimising (5) under both memory limits by bisection on N_A (exact to the
//! row when the predicted time grows with work on both sides, see
//! [`Fit::time_grows_with_work`]), and reports the even split (same rows per process
//! everywhere) next to it.
//!
//! # Planner ([`plan`])
//!
//! Scenario 1 ranks by time (ties: cheaper, then fewer processes): each cluster alone over
//! each of its fabrics at each candidate np (`candidate_np`), and both clusters over each
//! shared fabric at every pair (np_A, np_B) of the pair candidates (`pair_candidate_np`), each
//! with its best split. Both lists default to the powers of two from 2 up to the cluster's
//! free processes, plus the free processes themselves (the paper's runs are 32 + 32 and
//! 64 + 32: all that was free). Pairs are a Cartesian product, so their number is capped at
//! [`MAX_PAIRS`] per shared fabric; a long `candidate_np` (every np from 2 to 1024) is cheap.
//! Scenario 2 ("resolution") takes N from the powers of two, as the paper does: the largest
//! N any option can hold, its fastest option, against the fastest option at N/2.

pub mod page;
pub mod presets;

use serde::{Deserialize, Serialize};

use crate::model::error::{fmt_num, InputError};
use crate::model::fit::line;

/// Bytes in one MB: work is memory per process in units of 2^20 bytes.
pub const BYTES_PER_MB: f64 = 1_048_576.0;
/// Largest memory per grid point accepted, bytes.
pub const MAX_BYTES_PER_POINT: f64 = 1e9;
/// Largest price per CPU-hour accepted (a job's cost multiplies it by processes and hours).
pub const MAX_PRICE_PER_CPU_HOUR: f64 = 1e9;
/// Largest memory per node accepted, MB.
pub const MAX_MEMORY_PER_NODE_MB: f64 = 1e12;

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

fn num(x: f64) -> String {
    fmt_num(x, 6)
}

fn ceil_div(a: u64, b: u64) -> u64 {
    if b == 0 {
        return a;
    }
    a / b + u64::from(a % b != 0)
}

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

/// One run on a single processor at one per-process size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct Calibration {
    pub sequential: Vec<SequentialRun>,
    pub parallel: Vec<ParallelRun>,
}

// ---------------------------------------------------------------------------------------------
// Fit
// ---------------------------------------------------------------------------------------------

/// The overhead of one parallel run (one per input row, in input order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct OverheadPoint {
    pub work_mb: f64,
    pub tcomm_s: f64,
    pub fitted_s: f64,
    /// tcomm_s − fitted_s.
    pub residual_s: f64,
}

/// Equation (2) fitted for one np0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Np0Fit {
    pub np0: u32,
    pub alpha_s: f64,
    pub gamma_s_per_mb: f64,
    pub points: Vec<OverheadPoint>,
}

/// A (log2 np0, α(np0)) point of equation (3) and how far it is from the line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct AlphaFit {
    pub c_s: f64,
    /// Seconds per doubling of np.
    pub d_s: f64,
    pub points: Vec<AlphaPoint>,
}

/// A measured sequential point (repeats averaged) and how far it is from the Tcomp line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct TcompLine {
    pub intercept_s: f64,
    pub slope_s_per_mb: f64,
    pub points: Vec<TcompPoint>,
}

/// A fitted calibration: everything the predictions need, and the residuals to show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
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
    let mut seq_groups: Vec<Group> = Vec::new();
    for (index, r) in cal.sequential.iter().enumerate() {
        let row = RowRef { field: SEQUENTIAL_FIELD, index, line: r.line };
        let ok_w = check_positive(&row, 1, "work (MB per process)", r.work_mb, &mut errors);
        let ok_t = check_positive(&row, 2, "time (s)", r.time_s, &mut errors);
        if ok_w && ok_t {
            add_to_groups(&mut seq_groups, 0, r.work_mb, r.time_s, row, &mut errors);
        }
    }
    let mut par_groups: Vec<Group> = Vec::new();
    for (index, r) in cal.parallel.iter().enumerate() {
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
        let ok_w = check_positive(&row, 2, "work (MB per process)", r.work_mb, &mut errors);
        let ok_t = check_positive(&row, 3, "time (s)", r.time_s, &mut errors);
        if ok_np && ok_w && ok_t {
            add_to_groups(&mut par_groups, r.np, r.work_mb, r.time_s, row, &mut errors);
        }
    }

    seq_groups.sort_by(|a, b| a.work_mb.total_cmp(&b.work_mb));
    let seq_sizes: Vec<f64> = seq_groups.iter().map(|g| g.work_mb).collect();
    match seq_groups.len() {
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

    // Tcomm of each parallel group, against the sequential run of the same size.
    let mut tcomms: Vec<Option<(f64, f64)>> = Vec::with_capacity(par_groups.len());
    for g in &par_groups {
        let t = g.time_s();
        match seq_groups.iter().find(|s| same(s.work_mb, g.work_mb)) {
            None => {
                if !seq_groups.is_empty() {
                    errors.push(g.first.err(
                        Some(2),
                        format!(
                            "no sequential run at {} MB, so there is no Tcomp to subtract (sequential sizes: {}); Tcomp is not interpolated for calibration",
                            num(g.work_mb),
                            list_mb(&seq_sizes)
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

    if !errors.is_empty() {
        return Err(errors);
    }
    build_fit(cal, &seq_groups, &par_groups, &tcomms, &np0s)
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
    let Some((c, d)) = least_squares(&alpha_pts) else {
        return Err(too_large(PARALLEL_FIELD));
    };
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

// ---------------------------------------------------------------------------------------------
// Prediction
// ---------------------------------------------------------------------------------------------

/// Something the page should say next to a prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
pub struct Prediction {
    pub np: u32,
    pub work_mb: f64,
    pub tcomp_s: f64,
    pub tcomm_s: f64,
    pub time_s: f64,
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
    fn time_at(&self, alpha: Option<f64>, work_mb: f64) -> f64 {
        self.tcomp_at(work_mb).0 + self.tcomm_at(alpha, work_mb).0
    }

    fn alpha_for(&self, np: u32) -> Option<f64> {
        (np >= 2).then(|| self.alpha_s(np))
    }

    fn evaluate(&self, np: u32, alpha: Option<f64>, work_mb: f64) -> Prediction {
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
        Prediction { np, work_mb, tcomp_s, tcomm_s, time_s: tcomp_s + tcomm_s, notes }
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

// ---------------------------------------------------------------------------------------------
// Problem, memory, cost
// ---------------------------------------------------------------------------------------------

/// An N × N grid of `bytes_per_point` bytes per point, partitioned by rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// Grid side N (rows = columns = N).
    pub n: u32,
    /// Memory per grid point over all multigrid levels, bytes (the paper's code: 32).
    pub bytes_per_point: f64,
}

impl Problem {
    pub fn check(&self) -> Vec<InputError> {
        let mut errors = Vec::new();
        if self.n < 2 {
            errors.push(InputError::new("N", format!("the grid side must be at least 2, found {}", self.n)));
        }
        if !self.bytes_per_point.is_finite() || self.bytes_per_point <= 0.0 {
            errors.push(InputError::new(
                "bytes per grid point",
                format!("must be a number greater than 0, found {}", num(self.bytes_per_point)),
            ));
        } else if self.bytes_per_point > MAX_BYTES_PER_POINT {
            // A grid's memory is N² times this: above it, a megabyte count stops being finite.
            errors.push(InputError::new(
                "bytes per grid point",
                format!("must be at most 1e9, found {}", num(self.bytes_per_point)),
            ));
        }
        errors
    }

    /// Memory of one row of the grid, MB.
    pub fn row_mb(&self) -> f64 {
        f64::from(self.n) * self.bytes_per_point / BYTES_PER_MB
    }

    /// Rows on the fullest of np processes: N̄ = ceil(N / np) (np = 0 is taken as 1).
    pub fn rows_per_process(&self, np: u32) -> u64 {
        ceil_div(u64::from(self.n), u64::from(np.max(1)))
    }

    /// Work of the fullest of np processes, MB.
    pub fn work_mb(&self, np: u32) -> f64 {
        self.work_mb_for_rows(self.rows_per_process(np))
    }

    /// Work of a process holding `rows` rows, MB.
    pub fn work_mb_for_rows(&self, rows: u64) -> f64 {
        rows as f64 * self.row_mb()
    }
}

/// Bytes per grid point measured by a calibration run: its work (MB) over the points one
/// process held. Sequential run at N̄ × N: rows_per_process = N̄, columns = N. Parallel run
/// on np0 processes over an (np0·N̄) × N grid: rows_per_process = N̄, columns = N.
/// (Paper: 1024 rows × 65536 columns in 2048 MB → 32 bytes per point.)
pub fn bytes_per_point(work_mb: f64, rows_per_process: u64, columns: u32) -> Result<f64, InputError> {
    if !work_mb.is_finite() || work_mb <= 0.0 {
        return Err(InputError::new("work_mb", format!("must be a number greater than 0 MB, found {}", num(work_mb))));
    }
    if rows_per_process == 0 {
        return Err(InputError::new("rows per process", "must be at least 1, found 0"));
    }
    if columns == 0 {
        return Err(InputError::new("columns", "must be at least 1, found 0"));
    }
    let b = work_mb * BYTES_PER_MB / (rows_per_process as f64 * f64::from(columns));
    if b.is_finite() && b > 0.0 {
        Ok(b)
    } else {
        Err(InputError::new("work_mb", "gives a byte count per point too large or too small to represent"))
    }
}

/// Processes of one cluster held for a whole run, at its price.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CpuUse {
    pub np: u32,
    /// Price units per CPU-hour.
    pub price_per_cpu_hour: f64,
}

/// CPU-hours and money of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub cpu_hours: f64,
    pub cost: f64,
}

/// cost = Σ np_i · T / 3600 · price_i: every process is held for the whole run.
pub fn cost(uses: &[CpuUse], time_s: f64) -> Cost {
    uses.iter().fold(Cost { cpu_hours: 0.0, cost: 0.0 }, |acc, u| {
        let h = f64::from(u.np) * time_s / 3600.0;
        Cost { cpu_hours: acc.cpu_hours + h, cost: acc.cost + h * u.price_per_cpu_hour }
    })
}

/// One cluster as reached over one fabric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterSide {
    pub name: String,
    pub fabric: String,
    pub free_procs: u32,
    pub procs_per_node: u32,
    pub memory_per_node_mb: f64,
    pub price_per_cpu_hour: f64,
}

fn check_cluster_numbers(
    name: &str,
    free_procs: u32,
    procs_per_node: u32,
    memory_per_node_mb: f64,
    price_per_cpu_hour: f64,
) -> Vec<InputError> {
    let field = |what: &str| format!("cluster {name}: {what}");
    let mut errors = Vec::new();
    if name.trim().is_empty() {
        errors.push(InputError::new("cluster name", "must not be empty"));
    }
    if free_procs == 0 {
        errors.push(InputError::new(field("free processes"), "must be at least 1, found 0"));
    }
    if procs_per_node == 0 {
        errors.push(InputError::new(field("processes per node"), "must be at least 1, found 0"));
    }
    if !memory_per_node_mb.is_finite() || memory_per_node_mb <= 0.0 {
        errors.push(InputError::new(
            field("memory per node (MB)"),
            format!("must be a number greater than 0, found {}", num(memory_per_node_mb)),
        ));
    }
    if !price_per_cpu_hour.is_finite() || price_per_cpu_hour < 0.0 {
        errors.push(InputError::new(
            field("price per CPU-hour"),
            format!("must be a number of at least 0, found {}", num(price_per_cpu_hour)),
        ));
    } else if price_per_cpu_hour > MAX_PRICE_PER_CPU_HOUR {
        errors.push(InputError::new(field("price per CPU-hour"), format!("must be at most 1e9, found {}", num(price_per_cpu_hour))));
    }
    if memory_per_node_mb > MAX_MEMORY_PER_NODE_MB {
        errors.push(InputError::new(field("memory per node (MB)"), format!("must be at most 1e12, found {}", num(memory_per_node_mb))));
    }
    errors
}

impl ClusterSide {
    pub fn check(&self) -> Vec<InputError> {
        check_cluster_numbers(
            &self.name,
            self.free_procs,
            self.procs_per_node,
            self.memory_per_node_mb,
            self.price_per_cpu_hour,
        )
    }

    /// Memory one process has: node memory ÷ processes per node, MB.
    pub fn memory_per_process_mb(&self) -> f64 {
        self.memory_per_node_mb / f64::from(self.procs_per_node.max(1))
    }

    /// The most rows of `problem` one process can hold.
    pub fn max_rows_per_process(&self, problem: &Problem) -> u64 {
        let n = u64::from(problem.n);
        let row_mb = problem.row_mb();
        let have = self.memory_per_process_mb();
        let guess = (have / row_mb).floor();
        if guess.is_nan() || guess < 1.0 {
            return 0;
        }
        let mut r = if guess >= n as f64 { n } else { guess as u64 };
        // The same comparison as the feasibility check, so rounding cannot disagree with it.
        while r > 0 && problem.work_mb_for_rows(r) > have {
            r -= 1;
        }
        while r < n && problem.work_mb_for_rows(r + 1) <= have {
            r += 1;
        }
        r
    }
}

// ---------------------------------------------------------------------------------------------
// Options and their feasibility
// ---------------------------------------------------------------------------------------------

/// Why a configuration cannot run. `text()` says it for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Infeasibility {
    /// More processes asked for than are free.
    NotEnoughFreeProcs { cluster: String, np: u32, free_procs: u32 },
    /// More processes than grid rows: some would hold none.
    MoreProcsThanRows { np: u64, rows: u64 },
    /// The fullest process needs more memory than a process has.
    MemoryPerProcess { cluster: String, need_mb: f64, have_mb: f64 },
    /// Two clusters: even with every process at its memory limit the rows do not fit.
    RowsDoNotFit { rows: u64, max_rows: u64 },
    /// The clusters are not joined by this fabric (or one side is not calibrated over it).
    FabricNotShared { fabric: String },
    /// The prediction overflowed (absurdly large inputs).
    PredictionOutOfRange,
}

impl Infeasibility {
    pub fn text(&self) -> String {
        match self {
            Infeasibility::NotEnoughFreeProcs { cluster, np, free_procs } => {
                format!("{np} processes asked for on {cluster}, but only {free_procs} are free")
            }
            Infeasibility::MoreProcsThanRows { np, rows } => {
                format!("{np} processes for {rows} rows: some processes would hold no row")
            }
            Infeasibility::MemoryPerProcess { cluster, need_mb, have_mb } => format!(
                "needs {} MB per process on {cluster}, but a process there has {} MB",
                num(*need_mb),
                num(*have_mb)
            ),
            Infeasibility::RowsDoNotFit { rows, max_rows } => {
                format!("the memory of these processes holds at most {max_rows} of the {rows} rows")
            }
            Infeasibility::FabricNotShared { fabric } => format!("{fabric} does not join the two clusters"),
            Infeasibility::PredictionOutOfRange => "the predicted time is too large to represent".to_string(),
        }
    }
}

/// One cluster's share of an option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub cluster: String,
    pub np: u32,
    /// Rows of the grid on this cluster.
    pub rows: u64,
    /// Rows on its fullest process (the others hold this many or one fewer).
    pub rows_per_process: u64,
    pub memory_per_process_mb: f64,
    /// This side's predicted time (the job takes the largest over the parts).
    pub prediction: Prediction,
    pub price_per_cpu_hour: f64,
    /// CPU-hours and cost of this cluster's processes, held for the whole job.
    pub cpu_hours: f64,
    pub cost: f64,
}

/// The even split of a two-cluster job: the same rows per process everywhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum EvenSplit {
    Feasible { rows_per_process: u64, time_s: f64, cpu_hours: f64, cost: f64 },
    Infeasible { rows_per_process: u64, reason: Infeasibility },
}

/// A feasible option with its predicted time and cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Grid side N.
    pub n: u32,
    pub fabric: String,
    /// One part per cluster used.
    pub parts: Vec<Part>,
    /// max over the parts (equation (5)).
    pub time_s: f64,
    pub cpu_hours: f64,
    pub cost: f64,
    /// For two clusters: the even split next to the best one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub even_split: Option<EvenSplit>,
}

impl Plan {
    pub fn total_np(&self) -> u64 {
        self.parts.iter().map(|p| u64::from(p.np)).sum()
    }
}

/// Processes on one cluster in an option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assignment {
    pub cluster: String,
    pub np: u32,
}

/// An option that cannot run, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InfeasibleOption {
    pub n: u32,
    pub fabric: String,
    pub assignments: Vec<Assignment>,
    pub reason: Infeasibility,
}

/// The answer for one configuration: a plan, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Feasible(Plan),
    Infeasible(InfeasibleOption),
}

/// One cluster over one fabric with its calibration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Side<'a> {
    pub cluster: &'a ClusterSide,
    pub fit: &'a Fit,
}

/// A side ready for the search: the problem's sizes and the memory limit in rows.
struct SideCtx<'a> {
    cluster: &'a ClusterSide,
    fit: &'a Fit,
    problem: &'a Problem,
    n: u64,
    max_rows: u64,
}

/// A candidate np on one side with its α (None: one process).
#[derive(Debug, Clone, Copy)]
struct Cand {
    np: u32,
    alpha: Option<f64>,
}

impl<'a> SideCtx<'a> {
    fn new(cluster: &'a ClusterSide, fit: &'a Fit, problem: &'a Problem) -> Self {
        SideCtx { cluster, fit, problem, n: u64::from(problem.n), max_rows: cluster.max_rows_per_process(problem) }
    }

    fn cand(&self, np: u32) -> Cand {
        Cand { np, alpha: self.fit.alpha_for(np) }
    }

    fn time(&self, c: &Cand, rows_per_process: u64) -> f64 {
        self.fit.time_at(c.alpha, self.problem.work_mb_for_rows(rows_per_process))
    }

    fn memory_error(&self, rows_per_process: u64) -> Infeasibility {
        Infeasibility::MemoryPerProcess {
            cluster: self.cluster.name.clone(),
            need_mb: self.problem.work_mb_for_rows(rows_per_process),
            have_mb: self.cluster.memory_per_process_mb(),
        }
    }

    fn part(&self, c: &Cand, rows: u64, rows_per_process: u64) -> Part {
        let work = self.problem.work_mb_for_rows(rows_per_process);
        Part {
            cluster: self.cluster.name.clone(),
            np: c.np,
            rows,
            rows_per_process,
            memory_per_process_mb: self.cluster.memory_per_process_mb(),
            prediction: self.fit.evaluate(c.np, c.alpha, work),
            price_per_cpu_hour: self.cluster.price_per_cpu_hour,
            cpu_hours: 0.0,
            cost: 0.0,
        }
    }
}

fn finish_plan(
    n: u32,
    fabric: &str,
    mut parts: Vec<Part>,
    even_split: Option<EvenSplit>,
) -> Result<Plan, Infeasibility> {
    let time_s = parts.iter().map(|p| p.prediction.time_s).fold(0.0, f64::max);
    if !time_s.is_finite() {
        return Err(Infeasibility::PredictionOutOfRange);
    }
    for p in &mut parts {
        let c = cost(&[CpuUse { np: p.np, price_per_cpu_hour: p.price_per_cpu_hour }], time_s);
        p.cpu_hours = c.cpu_hours;
        p.cost = c.cost;
    }
    let cpu_hours = parts.iter().map(|p| p.cpu_hours).sum();
    let cost = parts.iter().map(|p| p.cost).sum();
    Ok(Plan { n, fabric: fabric.to_string(), parts, time_s, cpu_hours, cost, even_split })
}

/// Rows on the fullest process when one cluster runs the whole grid, or why it cannot.
fn alone_rows(ctx: &SideCtx, c: &Cand) -> Result<u64, Infeasibility> {
    if c.np > ctx.cluster.free_procs {
        return Err(Infeasibility::NotEnoughFreeProcs {
            cluster: ctx.cluster.name.clone(),
            np: c.np,
            free_procs: ctx.cluster.free_procs,
        });
    }
    let np = u64::from(c.np);
    if np == 0 || np > ctx.n {
        return Err(Infeasibility::MoreProcsThanRows { np, rows: ctx.n });
    }
    let r = ceil_div(ctx.n, np);
    if r > ctx.max_rows {
        return Err(ctx.memory_error(r));
    }
    Ok(r)
}

fn alone(ctx: &SideCtx, c: &Cand) -> Result<Plan, Infeasibility> {
    let r = alone_rows(ctx, c)?;
    finish_plan(ctx.problem.n, &ctx.cluster.fabric, vec![ctx.part(c, ctx.n, r)], None)
}

/// Integer split of a two-cluster job.
#[derive(Debug, Clone, Copy)]
struct Split {
    rows_a: u64,
    r_a: u64,
    rows_b: u64,
    r_b: u64,
    time_s: f64,
}

/// Checks that a pair can hold the grid at all: (lo, hi) range of rows per process on A.
fn pair_range(a: &SideCtx, pa: u64, b: &SideCtx, pb: u64) -> Result<(u64, u64), Infeasibility> {
    let n = a.n;
    if pa == 0 || pb == 0 || pa.saturating_add(pb) > n {
        return Err(Infeasibility::MoreProcsThanRows { np: pa.saturating_add(pb), rows: n });
    }
    if a.max_rows == 0 {
        return Err(a.memory_error(1));
    }
    if b.max_rows == 0 {
        return Err(b.memory_error(1));
    }
    let cap_b = pb.saturating_mul(b.max_rows);
    let cap = pa.saturating_mul(a.max_rows).saturating_add(cap_b);
    if cap < n {
        return Err(Infeasibility::RowsDoNotFit { rows: n, max_rows: cap });
    }
    let lo = if n > cap_b { ceil_div(n - cap_b, pa) } else { 1 }.max(1);
    let hi = a.max_rows.min(ceil_div(n - pb, pa));
    if lo > hi {
        return Err(Infeasibility::RowsDoNotFit { rows: n, max_rows: cap });
    }
    Ok((lo, hi))
}

/// Rows per process on B when A's processes hold r rows each (B keeps at least one each).
fn rows_b_for(n: u64, pa: u64, pb: u64, r: u64) -> u64 {
    let rows_a = pa.saturating_mul(r);
    if rows_a >= n - pb {
        1
    } else {
        ceil_div(n - rows_a, pb)
    }
}

/// The split minimising max(T_A, T_B): bisection for the first r (rows per process on A)
/// where T_A(r) ≥ T_B(r), then the better of r and r − 1 (and the even split's r).
fn split_exact(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> Result<Split, Infeasibility> {
    let n = a.n;
    let (pa, pb) = (u64::from(ca.np), u64::from(cb.np));
    let (lo, hi) = pair_range(a, pa, b, pb)?;
    let times = |r: u64| (a.time(ca, r), b.time(cb, rows_b_for(n, pa, pb, r)));
    let (ta_hi, tb_hi) = times(hi);
    let cross = if ta_hi < tb_hi {
        hi
    } else {
        let (mut l, mut h) = (lo, hi);
        while l < h {
            let m = l + (h - l) / 2;
            let (ta, tb) = times(m);
            if ta >= tb {
                h = m;
            } else {
                l = m + 1;
            }
        }
        l
    };
    let even = ceil_div(n, pa + pb);
    let mut best: Option<(u64, f64)> = None;
    for r in [cross, cross.saturating_sub(1), even] {
        if r < lo || r > hi {
            continue;
        }
        let (ta, tb) = times(r);
        let t = ta.max(tb);
        if best.is_none_or(|(_, bt)| t < bt) {
            best = Some((r, t));
        }
    }
    let Some((r, _)) = best else {
        return Err(Infeasibility::RowsDoNotFit { rows: n, max_rows: n });
    };
    let rows_a = pa.saturating_mul(r).min(n - pb);
    let rows_b = n - rows_a;
    let (r_a, r_b) = (ceil_div(rows_a, pa), ceil_div(rows_b, pb));
    let time_s = a.time(ca, r_a).max(b.time(cb, r_b));
    if !time_s.is_finite() {
        return Err(Infeasibility::PredictionOutOfRange);
    }
    Ok(Split { rows_a, r_a, rows_b, r_b, time_s })
}

fn pair_cost(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand, time_s: f64) -> f64 {
    cost(
        &[
            CpuUse { np: ca.np, price_per_cpu_hour: a.cluster.price_per_cpu_hour },
            CpuUse { np: cb.np, price_per_cpu_hour: b.cluster.price_per_cpu_hour },
        ],
        time_s,
    )
    .cost
}

fn even_split(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> EvenSplit {
    let (pa, pb) = (u64::from(ca.np), u64::from(cb.np));
    let r = ceil_div(a.n, pa + pb);
    if pa + pb > a.n {
        return EvenSplit::Infeasible {
            rows_per_process: r,
            reason: Infeasibility::MoreProcsThanRows { np: pa + pb, rows: a.n },
        };
    }
    if r > a.max_rows {
        return EvenSplit::Infeasible { rows_per_process: r, reason: a.memory_error(r) };
    }
    if r > b.max_rows {
        return EvenSplit::Infeasible { rows_per_process: r, reason: b.memory_error(r) };
    }
    let time_s = a.time(ca, r).max(b.time(cb, r));
    let c = cost(
        &[
            CpuUse { np: ca.np, price_per_cpu_hour: a.cluster.price_per_cpu_hour },
            CpuUse { np: cb.np, price_per_cpu_hour: b.cluster.price_per_cpu_hour },
        ],
        time_s,
    );
    EvenSplit::Feasible { rows_per_process: r, time_s, cpu_hours: c.cpu_hours, cost: c.cost }
}

/// The best split of a pair after checking both sides have the processes free.
fn pair_split(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> Result<Split, Infeasibility> {
    for (ctx, c) in [(a, ca), (b, cb)] {
        if c.np > ctx.cluster.free_procs {
            return Err(Infeasibility::NotEnoughFreeProcs {
                cluster: ctx.cluster.name.clone(),
                np: c.np,
                free_procs: ctx.cluster.free_procs,
            });
        }
    }
    split_exact(a, ca, b, cb)
}

fn pair_plan(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand, s: &Split) -> Result<Plan, Infeasibility> {
    let parts = vec![a.part(ca, s.rows_a, s.r_a), b.part(cb, s.rows_b, s.r_b)];
    finish_plan(a.problem.n, &a.cluster.fabric, parts, Some(even_split(a, ca, b, cb)))
}

fn check_side(side: &Side, problem: &Problem) -> Result<(), Vec<InputError>> {
    let mut errors = side.cluster.check();
    errors.extend(problem.check());
    if !side.fit.is_finite() {
        errors.push(InputError::new(
            format!("cluster {}: calibration over {}", side.cluster.name, side.cluster.fabric),
            "has numbers that are not finite",
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn np_error(np: u32) -> Result<(), Vec<InputError>> {
    if np == 0 {
        Err(vec![InputError::new("np", "the number of processes must be at least 1, found 0")])
    } else {
        Ok(())
    }
}

fn infeasible(n: u32, fabric: &str, assignments: &[(&ClusterSide, u32)], reason: Infeasibility) -> InfeasibleOption {
    InfeasibleOption {
        n,
        fabric: fabric.to_string(),
        assignments: assignments.iter().map(|(c, np)| Assignment { cluster: c.name.clone(), np: *np }).collect(),
        reason,
    }
}

/// One cluster alone on np processes: the plan, or why it cannot run.
pub fn plan_alone(side: Side, np: u32, problem: &Problem) -> Result<Outcome, Vec<InputError>> {
    check_side(&side, problem)?;
    np_error(np)?;
    let ctx = SideCtx::new(side.cluster, side.fit, problem);
    Ok(match alone(&ctx, &ctx.cand(np)) {
        Ok(p) => Outcome::Feasible(p),
        Err(reason) => Outcome::Infeasible(infeasible(problem.n, &side.cluster.fabric, &[(side.cluster, np)], reason)),
    })
}

/// One job over two clusters joined by the fabric both sides name: the split of rows that
/// minimises max(T_A, T_B) under both memory limits, with the even split next to it.
pub fn plan_pair(a: Side, np_a: u32, b: Side, np_b: u32, problem: &Problem) -> Result<Outcome, Vec<InputError>> {
    let mut errors = Vec::new();
    for s in [&a, &b] {
        if let Err(e) = check_side(s, problem) {
            errors.extend(e);
        }
    }
    for np in [np_a, np_b] {
        if let Err(e) = np_error(np) {
            errors.extend(e);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let assignments = [(a.cluster, np_a), (b.cluster, np_b)];
    let fail = |reason| Ok(Outcome::Infeasible(infeasible(problem.n, &a.cluster.fabric, &assignments, reason)));
    if a.cluster.fabric != b.cluster.fabric {
        return fail(Infeasibility::FabricNotShared { fabric: format!("{} / {}", a.cluster.fabric, b.cluster.fabric) });
    }
    let (ca_ctx, cb_ctx) = (SideCtx::new(a.cluster, a.fit, problem), SideCtx::new(b.cluster, b.fit, problem));
    let (ca, cb) = (ca_ctx.cand(np_a), cb_ctx.cand(np_b));
    match pair_split(&ca_ctx, &ca, &cb_ctx, &cb).and_then(|s| pair_plan(&ca_ctx, &ca, &cb_ctx, &cb, &s)) {
        Ok(p) => Ok(Outcome::Feasible(p)),
        Err(reason) => fail(reason),
    }
}

// ---------------------------------------------------------------------------------------------
// Planner
// ---------------------------------------------------------------------------------------------

/// A cluster's calibration over one fabric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FabricFit {
    pub fabric: String,
    pub fit: Fit,
}

/// A cluster with the fabrics it was calibrated over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    pub name: String,
    pub free_procs: u32,
    pub procs_per_node: u32,
    pub memory_per_node_mb: f64,
    pub price_per_cpu_hour: f64,
    pub fabrics: Vec<FabricFit>,
}

impl Cluster {
    /// This cluster as reached over one fabric.
    pub fn side(&self, fabric: &str) -> ClusterSide {
        ClusterSide {
            name: self.name.clone(),
            fabric: fabric.to_string(),
            free_procs: self.free_procs,
            procs_per_node: self.procs_per_node,
            memory_per_node_mb: self.memory_per_node_mb,
            price_per_cpu_hour: self.price_per_cpu_hour,
        }
    }
}

/// What the planner is asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerInput {
    /// One or two clusters; with two, the first is "A" in the pairing.
    pub clusters: Vec<Cluster>,
    /// Fabrics that join the two clusters (each must be calibrated on both).
    #[serde(default)]
    pub shared_fabrics: Vec<String>,
    pub problem: Problem,
    /// np values to try on each cluster alone; default: powers of two from 2 up to the free
    /// processes, plus the free processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidate_np: Option<Vec<u32>>,
    /// np values to try on each side of a two-cluster job; every pair of them is tried, so the
    /// pairs (per shared fabric) are limited to [`MAX_PAIRS`]. Default as for `candidate_np`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_candidate_np: Option<Vec<u32>>,
}

/// Most (np_A, np_B) pairs tried per shared fabric (128 × 128): each needs its own split
/// search, and the page must stay responsive.
pub const MAX_PAIRS: usize = 16_384;

/// The fastest option at one grid size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolutionLevel {
    pub n: u32,
    pub best: Plan,
}

/// Scenario 2: the largest power-of-two N the free resources can hold, against N/2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resolution {
    pub largest: ResolutionLevel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smaller: Option<ResolutionLevel>,
    /// largest.time / smaller.time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ratio: Option<f64>,
    /// largest.cost / smaller.cost (None when the smaller run is free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_ratio: Option<f64>,
}

/// The planner's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerReport {
    pub n: u32,
    /// Feasible options, fastest first (ties: cheaper, then fewer processes).
    pub ranking: Vec<Plan>,
    pub infeasible: Vec<InfeasibleOption>,
    /// None when not even N = 2 fits.
    pub resolution: Option<Resolution>,
    /// Caveats for the page (e.g. a calibration whose time falls as work grows).
    pub notes: Vec<String>,
}

fn check_planner(input: &PlannerInput) -> Vec<InputError> {
    let mut errors = input.problem.check();
    if input.clusters.is_empty() || input.clusters.len() > 2 {
        errors.push(InputError::new(
            "clusters",
            format!("one or two clusters are needed, found {}", input.clusters.len()),
        ));
    }
    for (i, c) in input.clusters.iter().enumerate() {
        errors.extend(check_cluster_numbers(
            &c.name,
            c.free_procs,
            c.procs_per_node,
            c.memory_per_node_mb,
            c.price_per_cpu_hour,
        ));
        if input.clusters[..i].iter().any(|o| o.name == c.name) {
            errors.push(InputError::new("cluster name", format!("two clusters are named {}", c.name)));
        }
        if c.fabrics.is_empty() {
            errors.push(InputError::new(
                format!("cluster {}: fabrics", c.name),
                "at least one calibrated fabric is needed",
            ));
        }
        for (j, f) in c.fabrics.iter().enumerate() {
            if f.fabric.trim().is_empty() {
                errors.push(InputError::new(format!("cluster {}: fabric name", c.name), "must not be empty"));
            }
            if c.fabrics[..j].iter().any(|o| o.fabric == f.fabric) {
                errors.push(InputError::new(
                    format!("cluster {}: fabrics", c.name),
                    format!("{} is calibrated twice", f.fabric),
                ));
            }
            if !f.fit.is_finite() {
                errors.push(InputError::new(
                    format!("cluster {}: calibration over {}", c.name, f.fabric),
                    "has numbers that are not finite",
                ));
            }
        }
    }
    if input.clusters.len() < 2 && !input.shared_fabrics.is_empty() {
        errors.push(InputError::new("shared fabrics", "need two clusters"));
    }
    if input.clusters.len() == 2 {
        for (i, s) in input.shared_fabrics.iter().enumerate() {
            if input.shared_fabrics[..i].contains(s) {
                errors.push(InputError::new("shared fabrics", format!("{s} is listed twice")));
            }
            for c in &input.clusters {
                if !c.fabrics.iter().any(|f| &f.fabric == s) {
                    errors.push(InputError::new(
                        "shared fabrics",
                        format!("{s} has no calibration on cluster {}", c.name),
                    ));
                }
            }
        }
    }
    for (field, list) in [("candidate np", &input.candidate_np), ("pair candidate np", &input.pair_candidate_np)] {
        if let Some(list) = list {
            if list.is_empty() {
                errors.push(InputError::new(field, "the list is empty; leave it out for the default"));
            }
            if list.contains(&0) {
                errors.push(InputError::new(field, "0 processes is not a candidate"));
            }
        }
    }
    if input.clusters.len() == 2 && !input.shared_fabrics.is_empty() && errors.is_empty() {
        let lists = pair_lists(input);
        let pairs = lists[0].len().saturating_mul(lists[1].len());
        if pairs > MAX_PAIRS {
            errors.push(InputError::new(
                "pair candidate np",
                format!(
                    "{} × {} = {pairs} pairs of process counts per shared fabric is more than {MAX_PAIRS}; shorten the list",
                    lists[0].len(),
                    lists[1].len()
                ),
            ));
        }
    }
    errors
}

fn sorted_list(list: &Option<Vec<u32>>, free_procs: u32) -> Vec<u32> {
    let mut v = match list {
        Some(l) => l.clone(),
        None => default_candidates(free_procs),
    };
    v.sort_unstable();
    v.dedup();
    v
}

fn pair_lists(input: &PlannerInput) -> Vec<Vec<u32>> {
    input.clusters.iter().map(|c| sorted_list(&input.pair_candidate_np, c.free_procs)).collect()
}

/// Powers of two from 2 up to `free`, plus `free` itself.
pub fn default_candidates(free_procs: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (1..32).map(|k| 1u32 << k).take_while(|&p| p <= free_procs).collect();
    if free_procs >= 1 && !v.contains(&free_procs) {
        v.push(free_procs);
    }
    v
}

struct Planner<'a> {
    input: &'a PlannerInput,
    sides: Vec<Vec<ClusterSide>>,
    /// np values per cluster for single-cluster options and for two-cluster jobs.
    alone_np: Vec<Vec<u32>>,
    pair_np: Vec<Vec<u32>>,
}

fn better(key: (f64, f64, u64), best: Option<(f64, f64, u64)>) -> bool {
    match best {
        None => true,
        Some((bt, bc, bn)) => key.0.total_cmp(&bt).then(key.1.total_cmp(&bc)).then(key.2.cmp(&bn)).is_lt(),
    }
}

fn plan_key(p: &Plan) -> (f64, f64, u64) {
    (p.time_s, p.cost, p.total_np())
}

/// The option that won at one grid size, before its plan is built.
enum Winner<'f> {
    Alone { ci: usize, fabric: &'f str, np: u32 },
    Pair { fabric: &'f str, np_a: u32, np_b: u32, split: Split },
}

impl<'a> Planner<'a> {
    fn new(input: &'a PlannerInput) -> Self {
        let sides = input.clusters.iter().map(|c| c.fabrics.iter().map(|f| c.side(&f.fabric)).collect()).collect();
        let alone_np = input.clusters.iter().map(|c| sorted_list(&input.candidate_np, c.free_procs)).collect();
        Planner { input, sides, alone_np, pair_np: pair_lists(input) }
    }

    fn problem_at(&self, n: u32) -> Problem {
        Problem { n, bytes_per_point: self.input.problem.bytes_per_point }
    }

    fn ctx<'b>(&'b self, ci: usize, fabric: &str, problem: &'b Problem) -> Option<SideCtx<'b>> {
        let c = self.input.clusters.get(ci)?;
        let fi = c.fabrics.iter().position(|f| f.fabric == fabric)?;
        Some(SideCtx::new(self.sides.get(ci)?.get(fi)?, &c.fabrics[fi].fit, problem))
    }

    /// Both sides over a shared fabric, when there are two clusters.
    fn pair_ctx<'b>(&'b self, fabric: &str, problem: &'b Problem) -> Option<(SideCtx<'b>, SideCtx<'b>)> {
        if self.input.clusters.len() != 2 {
            return None;
        }
        Some((self.ctx(0, fabric, problem)?, self.ctx(1, fabric, problem)?))
    }

    /// Scenario 1 at grid side n: every option, feasible ones ranked.
    fn rank(&self, n: u32) -> (Vec<Plan>, Vec<InfeasibleOption>) {
        let problem = self.problem_at(n);
        let mut ranking = Vec::new();
        let mut infeasible_list = Vec::new();
        for (ci, c) in self.input.clusters.iter().enumerate() {
            for f in &c.fabrics {
                let Some(ctx) = self.ctx(ci, &f.fabric, &problem) else { continue };
                for &np in &self.alone_np[ci] {
                    match alone(&ctx, &ctx.cand(np)) {
                        Ok(p) => ranking.push(p),
                        Err(reason) => infeasible_list.push(infeasible(n, &f.fabric, &[(ctx.cluster, np)], reason)),
                    }
                }
            }
        }
        for fabric in &self.input.shared_fabrics {
            let Some((a, b)) = self.pair_ctx(fabric, &problem) else { continue };
            for &np_a in &self.pair_np[0] {
                let ca = a.cand(np_a);
                for &np_b in &self.pair_np[1] {
                    let cb = b.cand(np_b);
                    match pair_split(&a, &ca, &b, &cb).and_then(|s| pair_plan(&a, &ca, &b, &cb, &s)) {
                        Ok(p) => ranking.push(p),
                        Err(reason) => {
                            infeasible_list.push(infeasible(n, fabric, &[(a.cluster, np_a), (b.cluster, np_b)], reason))
                        }
                    }
                }
            }
        }
        ranking.sort_by(|x, y| {
            let (kx, ky) = (plan_key(x), plan_key(y));
            kx.0.total_cmp(&ky.0).then(kx.1.total_cmp(&ky.1)).then(kx.2.cmp(&ky.2))
        });
        (ranking, infeasible_list)
    }

    /// The fastest option at grid side n (ties: cheaper, then fewer processes), the same one
    /// `rank` puts first, without building a plan for every option.
    fn best_at(&self, n: u32) -> Option<Plan> {
        let problem = self.problem_at(n);
        let mut best: Option<((f64, f64, u64), Winner)> = None;
        let mut offer = |key: (f64, f64, u64), w: Winner<'a>| {
            if key.0.is_finite() && better(key, best.as_ref().map(|b| b.0)) {
                best = Some((key, w));
            }
        };
        for (ci, c) in self.input.clusters.iter().enumerate() {
            for f in &c.fabrics {
                let Some(ctx) = self.ctx(ci, &f.fabric, &problem) else { continue };
                for &np in &self.alone_np[ci] {
                    let cand = ctx.cand(np);
                    if let Ok(r) = alone_rows(&ctx, &cand) {
                        let t = ctx.time(&cand, r);
                        let money = cost(&[CpuUse { np, price_per_cpu_hour: c.price_per_cpu_hour }], t).cost;
                        offer((t, money, u64::from(np)), Winner::Alone { ci, fabric: &f.fabric, np });
                    }
                }
            }
        }
        for fabric in &self.input.shared_fabrics {
            let Some((a, b)) = self.pair_ctx(fabric, &problem) else { continue };
            for &np_a in &self.pair_np[0] {
                let ca = a.cand(np_a);
                for &np_b in &self.pair_np[1] {
                    let cb = b.cand(np_b);
                    if let Ok(split) = pair_split(&a, &ca, &b, &cb) {
                        let key = (
                            split.time_s,
                            pair_cost(&a, &ca, &b, &cb, split.time_s),
                            u64::from(np_a) + u64::from(np_b),
                        );
                        offer(key, Winner::Pair { fabric, np_a, np_b, split });
                    }
                }
            }
        }
        match best?.1 {
            Winner::Alone { ci, fabric, np } => {
                let ctx = self.ctx(ci, fabric, &problem)?;
                alone(&ctx, &ctx.cand(np)).ok()
            }
            Winner::Pair { fabric, np_a, np_b, split } => {
                let (a, b) = self.pair_ctx(fabric, &problem)?;
                pair_plan(&a, &a.cand(np_a), &b, &b.cand(np_b), &split).ok()
            }
        }
    }

    fn resolution(&self) -> Option<Resolution> {
        let total_mb: f64 = self
            .input
            .clusters
            .iter()
            .map(|c| f64::from(c.free_procs) * c.memory_per_node_mb / f64::from(c.procs_per_node.max(1)))
            .sum();
        // N² · bytes ≤ all free memory bounds N from above; walk the powers of two down.
        let bound = (total_mb * BYTES_PER_MB / self.input.problem.bytes_per_point).sqrt();
        let mut k: u32 = 31;
        while k >= 1 && f64::from(1u32 << k) > bound {
            k -= 1;
        }
        while k >= 1 {
            let n = 1u32 << k;
            if let Some(best) = self.best_at(n) {
                let smaller =
                    if k >= 2 { self.best_at(n / 2).map(|b| ResolutionLevel { n: n / 2, best: b }) } else { None };
                let time_ratio = smaller.as_ref().filter(|s| s.best.time_s > 0.0).map(|s| best.time_s / s.best.time_s);
                let cost_ratio = smaller.as_ref().filter(|s| s.best.cost > 0.0).map(|s| best.cost / s.best.cost);
                return Some(Resolution { largest: ResolutionLevel { n, best }, smaller, time_ratio, cost_ratio });
            }
            k -= 1;
        }
        None
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for c in &self.input.clusters {
            for f in &c.fabrics {
                if !f.fit.time_grows_with_work() {
                    notes.push(format!(
                        "cluster {} over {}: the predicted time falls as work grows for some sizes (Tcomp slope {} s/MB, γ {} s/MB); the split between clusters assumes it grows and may be off",
                        c.name,
                        f.fabric,
                        num(f.fit.tcomp.slope_s_per_mb),
                        num(f.fit.gamma_s_per_mb)
                    ));
                }
            }
        }
        if self.input.clusters.len() == 2 && self.input.shared_fabrics.is_empty() {
            notes.push("no fabric joins the two clusters, so no job spans both".to_string());
        }
        notes
    }
}

/// Scenarios 1 and 2 for one or two clusters (see the module doc for what is ranked).
pub fn plan(input: &PlannerInput) -> Result<PlannerReport, Vec<InputError>> {
    let errors = check_planner(input);
    if !errors.is_empty() {
        return Err(errors);
    }
    let planner = Planner::new(input);
    let (ranking, infeasible) = planner.rank(input.problem.n);
    Ok(PlannerReport {
        n: input.problem.n,
        ranking,
        infeasible,
        resolution: planner.resolution(),
        notes: planner.notes(),
    })
}


#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// |got − want| ≤ tol · max(1, |want|).
    fn check(name: &str, got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol * want.abs().max(1.0), "{name}: got {got}, want {want}");
    }

    /// The spec's worked example (seed recipe with made-up but consistent numbers).
    fn paper_cal() -> Calibration {
        Calibration {
            sequential: vec![SequentialRun::new(2048.0, 1500.0), SequentialRun::new(1024.0, 740.0)],
            parallel: vec![
                ParallelRun::new(4, 2048.0, 1580.0),
                ParallelRun::new(4, 1024.0, 800.0),
                ParallelRun::new(8, 2048.0, 1610.0),
                ParallelRun::new(8, 1024.0, 825.0),
            ],
        }
    }

    fn paper_fit() -> Fit {
        fit(&paper_cal()).expect("the worked example fits")
    }

    #[test]
    fn worked_example() {
        let f = paper_fit();
        let tcomm: Vec<f64> = f.runs.iter().map(|r| r.tcomm_s).collect();
        assert_eq!(tcomm, vec![80.0, 60.0, 110.0, 85.0]);
        let p = f.predict(64, 2048.0).expect("valid");
        // Hand derivation in the spec: α(64) = 0 + 20·6 = 120, Tcomm = 120 + 25/1024·2048 = 170.
        let cases = [
            ("gamma(4)", f.per_np0[0].gamma_s_per_mb, 20.0 / 1024.0),
            ("alpha(4)", f.per_np0[0].alpha_s, 40.0),
            ("gamma(8)", f.per_np0[1].gamma_s_per_mb, 25.0 / 1024.0),
            ("alpha(8)", f.per_np0[1].alpha_s, 60.0),
            ("c", f.alpha.c_s, 0.0),
            ("d", f.alpha.d_s, 20.0),
            ("gamma", f.gamma_s_per_mb, 25.0 / 1024.0),
            ("tcomp(64)", p.tcomp_s, 1500.0),
            ("tcomm(64)", p.tcomm_s, 170.0),
            ("T(64)", p.time_s, 1670.0),
        ];
        for (name, got, want) in cases {
            check(name, got, want, 1e-9);
        }
        assert_eq!((f.per_np0[0].np0, f.per_np0[1].np0, f.gamma_np0), (4, 8, 8));
        assert!(p.notes.is_empty(), "2048 MB was measured: {:?}", p.notes);
        for r in f
            .per_np0
            .iter()
            .flat_map(|n| &n.points)
            .map(|p| p.residual_s)
            .chain(f.alpha.points.iter().map(|p| p.residual_s))
        {
            check("residual of a two-point line", r, 0.0, 1e-12);
        }
    }

    #[test]
    fn paper_costs() {
        // Scenario 2 (Table II): A at 1, B at 2 units per CPU-hour.
        let both =
            cost(&[CpuUse { np: 32, price_per_cpu_hour: 1.0 }, CpuUse { np: 32, price_per_cpu_hour: 2.0 }], 1645.5);
        let a = cost(&[CpuUse { np: 32, price_per_cpu_hour: 1.0 }], 1645.5);
        let b_alone = cost(&[CpuUse { np: 32, price_per_cpu_hour: 2.0 }], 281.0);
        // 32 · 1645.5 / 3600 = 14.62666… CPU-hours on each cluster.
        let cases = [
            ("A part", a.cost, 14.626_666_666_666_667),
            ("A+B", both.cost, 3.0 * 14.626_666_666_666_667),
            ("A+B CPU-hours", both.cpu_hours, 64.0 * 1645.5 / 3600.0),
            ("B alone", b_alone.cost, 32.0 * 281.0 / 3600.0 * 2.0),
        ];
        for (name, got, want) in cases {
            check(name, got, want, 1e-12);
        }
        // The paper's figures, as printed: 14.63 + 29.25 = 43.88 against 5.00, ratio 8.8.
        assert_eq!(fmt_num(a.cost, 4), "14.63");
        assert_eq!(fmt_num(both.cost - a.cost, 4), "29.25");
        assert_eq!(fmt_num(both.cost, 4), "43.88");
        assert_eq!(fmt_num(b_alone.cost, 3), "5");
        assert_eq!(fmt_num(both.cost / b_alone.cost, 2), "8.8");
    }

    #[test]
    fn least_squares_through_two_points_is_the_recipe() {
        let pairs = [
            [(2048.0, 80.0), (1024.0, 60.0)],
            [(3.0, 60.0), (2.0, 40.0)],
            [(0.1, 1e-3), (1e4, 7.0)],
            [(512.0, 200.0), (513.0, 150.5)],
        ];
        for [(x1, y1), (x2, y2)] in pairs {
            let slope = (y2 - y1) / (x2 - x1);
            let intercept = y1 - slope * x1;
            let (i, s) = least_squares(&[(x1, y1), (x2, y2)]).expect("two distinct x");
            check("slope", s, slope, 1e-12);
            check("intercept", i, intercept, 1e-9);
        }
        assert_eq!(least_squares(&[(1.0, 1.0), (1.0, 2.0)]), None);
        assert_eq!(least_squares(&[(1.0, 1.0)]), None);
        // Three points off a line, by hand: x̄ = 2, ȳ = 2, Sxx = 2, Sxy = 1.
        let (i, s) = least_squares(&[(1.0, 1.0), (2.0, 3.0), (3.0, 2.0)]).expect("three points");
        check("slope of three", s, 0.5, 1e-15);
        check("intercept of three", i, 1.0, 1e-15);
    }

    /// Runs generated from chosen parameters, so the fit must give them back.
    fn synthetic(sizes: &[f64], np0s: &[u32], tcomp: (f64, f64), c: f64, d: f64, gammas: &[f64]) -> Calibration {
        let t = |w: f64| tcomp.0 + tcomp.1 * w;
        Calibration {
            sequential: sizes.iter().map(|&w| SequentialRun::new(w, t(w))).collect(),
            parallel: np0s
                .iter()
                .zip(gammas)
                .flat_map(|(&np, &g)| sizes.iter().map(move |&w| (np, w, g)))
                .map(|(np, w, g)| ParallelRun::new(np, w, t(w) + c + d * f64::from(np).log2() + g * w))
                .collect(),
        }
    }

    #[test]
    fn three_np0_on_an_exact_line() {
        let cal = synthetic(&[500.0, 1000.0, 1500.0], &[4, 8, 16], (10.0, 0.7), 5.0, 12.5, &[0.01, 0.02, 0.03]);
        let f = fit(&cal).expect("valid");
        let cases = [
            ("c", f.alpha.c_s, 5.0),
            ("d", f.alpha.d_s, 12.5),
            ("gamma = gamma(16)", f.gamma_s_per_mb, 0.03),
            ("alpha(8)", f.per_np0[1].alpha_s, 5.0 + 12.5 * 3.0),
            ("Tcomp slope", f.tcomp.slope_s_per_mb, 0.7),
            ("Tcomp intercept", f.tcomp.intercept_s, 10.0),
            (
                "T(128, 750 MB)",
                f.predict(128, 750.0).expect("valid").time_s,
                10.0 + 0.7 * 750.0 + 5.0 + 12.5 * 7.0 + 0.03 * 750.0,
            ),
        ];
        for (name, got, want) in cases {
            check(name, got, want, 1e-9);
        }
        assert_eq!(f.gamma_np0, 16);
        assert_eq!(f.alpha.points.len(), 3);
        for p in &f.alpha.points {
            check("alpha residual", p.residual_s, 0.0, 1e-9);
        }
    }

    #[test]
    fn residuals_are_shown_and_measured_sizes_are_exact() {
        let mut cal = paper_cal();
        // A third sequential size off the line through the other two (which has slope 0.740234…).
        cal.sequential.push(SequentialRun::new(1536.0, 1100.0));
        cal.parallel.push(ParallelRun::new(8, 1536.0, 1200.0));
        let f = fit(&cal).expect("valid");
        // Least squares through (1024, 740), (1536, 1100), (2048, 1500): x̄ = 1536, ȳ = 1113⅓,
        // Sxx = 2·512², Sxy = 512·(1500 − 740) → slope 760/1024, intercept ȳ − slope·1536.
        let slope = 760.0 / 1024.0;
        let intercept = 3340.0 / 3.0 - slope * 1536.0;
        check("slope", f.tcomp.slope_s_per_mb, slope, 1e-12);
        check("intercept", f.tcomp.intercept_s, intercept, 1e-9);
        let r: f64 = f.tcomp.points.iter().map(|p| p.residual_s).sum();
        check("residuals sum to zero", r, 0.0, 1e-9);
        let mid = f.tcomp.points.iter().find(|p| p.work_mb == 1536.0).expect("measured");
        check("residual at 1536", mid.residual_s, 1100.0 - (intercept + slope * 1536.0), 1e-9);
        // At a measured size the measured time is used, elsewhere the line.
        let at = f.predict(8, 1536.0).expect("valid");
        check("Tcomp at a measured size", at.tcomp_s, 1100.0, 0.0);
        assert!(!at.notes.contains(&PredictionNote::TcompFromLine));
        let off = f.predict(8, 1800.0).expect("valid");
        check("Tcomp from the line", off.tcomp_s, intercept + slope * 1800.0, 1e-12);
        assert_eq!(off.notes, vec![PredictionNote::TcompFromLine]);
        let far = f.predict(8, 4096.0).expect("valid");
        assert_eq!(far.notes, vec![PredictionNote::TcompFromLine, PredictionNote::TcompExtrapolated]);
    }

    #[test]
    fn exact_duplicates_are_fine() {
        let mut cal = paper_cal();
        cal.sequential.push(SequentialRun::new(1024.0, 740.0));
        cal.parallel.push(ParallelRun::new(8, 2048.0, 1610.0));
        let f = fit(&cal).expect("repeats that agree are averaged");
        let base = paper_fit();
        assert_eq!((f.alpha.c_s, f.alpha.d_s, f.gamma_s_per_mb), (base.alpha.c_s, base.alpha.d_s, base.gamma_s_per_mb));
        assert_eq!(f.runs.len(), 5);
        assert_eq!(f.tcomp.points.len(), 2);
    }

    /// An expected error: field, line, column, and pieces of its text.
    struct Want {
        field: &'static str,
        line: Option<usize>,
        column: Option<usize>,
        text: &'static [&'static str],
    }

    fn want(field: &'static str, line: Option<usize>, column: Option<usize>, text: &'static [&'static str]) -> Want {
        Want { field, line, column, text }
    }

    #[test]
    fn bad_inputs_name_the_row() {
        let p = paper_cal;
        let with = |f: &dyn Fn(&mut Calibration)| {
            let mut c = p();
            f(&mut c);
            c
        };
        let cases: Vec<(&str, Calibration, Want)> = vec![
            (
                "non-finite work",
                with(&|c| c.sequential[1].work_mb = f64::NAN),
                want(SEQUENTIAL_FIELD, None, Some(1), &["row 2:", "work", "not a finite number"]),
            ),
            (
                "non-finite time",
                with(&|c| c.parallel[2].time_s = f64::INFINITY),
                want(PARALLEL_FIELD, None, Some(3), &["row 3:", "time", "not a finite number"]),
            ),
            (
                "negative time at a known line",
                with(&|c| {
                    c.parallel[1].time_s = -3.0;
                    c.parallel[1].line = Some(7);
                }),
                want(PARALLEL_FIELD, Some(7), Some(3), &["line 7", "time (s) must be greater than 0, found -3"]),
            ),
            (
                "zero time",
                with(&|c| c.sequential[0].time_s = 0.0),
                want(SEQUENTIAL_FIELD, None, Some(2), &["row 1:", "greater than 0"]),
            ),
            (
                "zero work",
                with(&|c| c.parallel[0].work_mb = 0.0),
                want(PARALLEL_FIELD, None, Some(2), &["row 1:", "work (MB per process)"]),
            ),
            (
                "np below 2",
                with(&|c| c.parallel[3].np = 1),
                want(PARALLEL_FIELD, None, Some(1), &["row 4:", "np must be at least 2", "found 1"]),
            ),
            (
                "one sequential size",
                with(&|c| {
                    c.sequential.remove(1);
                }),
                want(
                    SEQUENTIAL_FIELD,
                    None,
                    None,
                    &["only one work size (2048 MB)", "a second per-process size is needed", "1024 MB"],
                ),
            ),
            (
                "one np0",
                with(&|c| c.parallel.truncate(2)),
                want(PARALLEL_FIELD, None, None, &["only one process count (np0 = 4)"]),
            ),
            (
                "no sequential run at that size",
                with(&|c| c.parallel.push(ParallelRun::new(8, 512.0, 300.0))),
                want(PARALLEL_FIELD, None, Some(2), &["row 5:", "no sequential run at 512 MB", "not interpolated"]),
            ),
            (
                "sequential repeat with another time",
                with(&|c| c.sequential.push(SequentialRun::new(2048.0, 1510.0))),
                want(
                    SEQUENTIAL_FIELD,
                    None,
                    None,
                    &["row 3:", "same work size (2048 MB) as row 1", "1500 s there, 1510 s here"],
                ),
            ),
            (
                "parallel repeat with another time",
                with(&|c| {
                    c.parallel[0].line = Some(10);
                    let mut r = ParallelRun::new(4, 2048.0, 1590.0);
                    r.line = Some(14);
                    c.parallel.push(r);
                }),
                want(
                    PARALLEL_FIELD,
                    Some(14),
                    None,
                    &["same np and work size (4, 2048 MB) as line 10", "different time"],
                ),
            ),
            (
                "parallel faster than its sequential part",
                with(&|c| c.parallel[2].time_s = 1400.0),
                want(
                    PARALLEL_FIELD,
                    None,
                    Some(3),
                    &["row 3:", "faster than its sequential part", "Tcomp = 1500 s", "-100"],
                ),
            ),
            (
                "np0 with one work size",
                with(&|c| {
                    c.parallel.remove(3);
                }),
                want(PARALLEL_FIELD, None, None, &["np0 = 8 has runs at only one work size (2048 MB)", "1024 MB"]),
            ),
            ("no runs", Calibration::default(), want(SEQUENTIAL_FIELD, None, None, &["no sequential runs"])),
            ("no runs (parallel)", Calibration::default(), want(PARALLEL_FIELD, None, None, &["no parallel runs"])),
        ];
        for (name, cal, w) in cases {
            let errors = fit(&cal).expect_err(name);
            let hit = errors.iter().any(|e| {
                let text = e.to_string();
                e.field == w.field
                    && e.line == w.line
                    && e.column == w.column
                    && w.text.iter().all(|t| text.contains(t))
            });
            assert!(hit, "{name}: no error like {:?} {:?} {:?} in {errors:#?}", w.field, w.line, w.text);
        }
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let mut cal = paper_cal();
        cal.sequential[0].time_s = -1.0;
        cal.parallel[1].np = 0;
        cal.parallel[3].time_s = 1.0;
        let errors = fit(&cal).expect_err("three bad rows");
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        for piece in [
            "sequential runs: row 1:",
            "parallel runs: row 2: np",
            "parallel runs: row 4: faster",
            "only one work size",
        ] {
            assert!(text.iter().any(|t| t.contains(piece)), "{piece} missing from {text:#?}");
        }
    }

    #[test]
    fn predictions_at_the_edges() {
        let f = paper_fit();
        assert!(f.predict(0, 2048.0).is_err());
        for w in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(f.predict(8, w).is_err(), "work {w}");
        }
        let one = f.predict(1, 2048.0).expect("valid");
        assert_eq!((one.tcomm_s, one.time_s, one.notes.clone()), (0.0, 1500.0, vec![PredictionNote::SingleProcess]));

        let mut neg = paper_fit();
        neg.alpha.c_s = -1000.0;
        let p = neg.predict(64, 2048.0).expect("clamped, not an error");
        assert_eq!((p.tcomm_s, p.time_s), (0.0, 1500.0));
        assert!(p.notes.contains(&PredictionNote::TcommClampedAtZero));
        neg.tcomp.intercept_s = -1.0e6;
        let q = neg.predict(64, 100.0).expect("clamped, not an error");
        assert_eq!(q.tcomp_s, 0.0);
        assert!(q.notes.contains(&PredictionNote::TcompClampedAtZero));

        let mut huge = paper_fit();
        huge.gamma_s_per_mb = 1e300;
        assert!(huge.predict(8, 1e300).is_err(), "overflow is an error, not infinity");
    }

    #[test]
    fn problem_sizes_and_bytes_per_point() {
        let p = Problem { n: 65536, bytes_per_point: 32.0 };
        let cases = [
            ("64 processes on 65536²", p.work_mb(64), 2048.0),
            ("32 processes on 65536²", p.work_mb(32), 4096.0),
            ("32 processes on 32768²", Problem { n: 32768, bytes_per_point: 32.0 }.work_mb(32), 1024.0),
            (
                "3 processes on 10 rows: 4 rows on the fullest",
                Problem { n: 10, bytes_per_point: 1.0 }.work_mb(3),
                40.0 / BYTES_PER_MB,
            ),
            ("bytes per point, paper", bytes_per_point(2048.0, 1024, 65536).expect("valid"), 32.0),
            ("bytes per point, sequential N̄/2", bytes_per_point(1024.0, 512, 65536).expect("valid"), 32.0),
        ];
        for (name, got, want) in cases {
            check(name, got, want, 1e-12);
        }
        assert!(bytes_per_point(2048.0, 0, 65536).is_err());
        assert!(bytes_per_point(-1.0, 1, 1).is_err());
        assert!(bytes_per_point(1.0, 1, 0).is_err());
        assert_eq!(Problem { n: 1, bytes_per_point: 32.0 }.check().len(), 1);
        assert_eq!(Problem { n: 8, bytes_per_point: f64::NAN }.check().len(), 1);
    }

    fn cluster_a(fabric: &str) -> ClusterSide {
        ClusterSide {
            name: "A".into(),
            fabric: fabric.into(),
            free_procs: 64,
            procs_per_node: 1,
            memory_per_node_mb: 2048.0,
            price_per_cpu_hour: 1.0,
        }
    }

    fn cluster_b(fabric: &str) -> ClusterSide {
        ClusterSide {
            name: "B".into(),
            fabric: fabric.into(),
            free_procs: 32,
            procs_per_node: 4,
            memory_per_node_mb: 8192.0,
            price_per_cpu_hour: 2.0,
        }
    }

    /// The worked example's calibration with every time scaled (a faster or slower machine).
    fn scaled_fit(k: f64) -> Fit {
        let mut cal = paper_cal();
        cal.sequential.iter_mut().for_each(|r| r.time_s *= k);
        cal.parallel.iter_mut().for_each(|r| r.time_s *= k);
        fit(&cal).expect("valid")
    }

    #[test]
    fn memory_feasibility_is_data() {
        let f = paper_fit();
        let big = Problem { n: 65536, bytes_per_point: 32.0 };
        let b = cluster_b("Myrinet");
        // Paper, Table I: 65536² on 32 cores of B needs 4 GB per core, B has 2 GB.
        match plan_alone(Side { cluster: &b, fit: &f }, 32, &big).expect("valid input") {
            Outcome::Infeasible(o) => {
                assert_eq!(
                    o.reason,
                    Infeasibility::MemoryPerProcess { cluster: "B".into(), need_mb: 4096.0, have_mb: 2048.0 }
                );
                assert!(o.reason.text().contains("4096 MB per process on B"), "{}", o.reason.text());
            }
            Outcome::Feasible(p) => panic!("B alone cannot hold 65536²: {p:?}"),
        }
        let a = cluster_a("Fast Ethernet");
        match plan_alone(Side { cluster: &a, fit: &f }, 64, &big).expect("valid input") {
            Outcome::Feasible(p) => {
                check("2048 MB fits exactly", p.parts[0].prediction.work_mb, 2048.0, 0.0);
                check("T(64) of the worked example", p.time_s, 1670.0, 1e-9);
                check("cost", p.cost, 64.0 * 1670.0 / 3600.0, 1e-12);
            }
            Outcome::Infeasible(o) => panic!("A on 64 holds 65536²: {o:?}"),
        }
        match plan_alone(Side { cluster: &a, fit: &f }, 128, &big).expect("valid input") {
            Outcome::Infeasible(o) => {
                assert!(matches!(o.reason, Infeasibility::NotEnoughFreeProcs { np: 128, free_procs: 64, .. }))
            }
            Outcome::Feasible(_) => panic!("only 64 free"),
        }
        assert_eq!(cluster_a("x").max_rows_per_process(&big), 1024);
        assert_eq!(cluster_b("x").max_rows_per_process(&big), 1024);
        let mut bad = cluster_a("x");
        bad.procs_per_node = 0;
        assert!(plan_alone(Side { cluster: &bad, fit: &f }, 2, &big).is_err());
    }

    #[test]
    fn split_gives_the_faster_cluster_more_rows() {
        let (fa, fb) = (scaled_fit(1.0), scaled_fit(0.5));
        let (a, b) = (cluster_a("Fast Ethernet"), cluster_b("Fast Ethernet"));
        let problem = Problem { n: 32768, bytes_per_point: 32.0 };
        let out =
            plan_pair(Side { cluster: &a, fit: &fa }, 32, Side { cluster: &b, fit: &fb }, 32, &problem).expect("valid");
        let Outcome::Feasible(p) = out else { panic!("32 + 32 hold 32768²: {out:?}") };
        assert_eq!(p.parts[0].rows + p.parts[1].rows, 32768);
        assert!(p.parts[1].rows_per_process > p.parts[0].rows_per_process, "{p:#?}");
        let Some(EvenSplit::Feasible { rows_per_process, time_s, .. }) = p.even_split else {
            panic!("even split fits")
        };
        assert_eq!(rows_per_process, 512);
        assert!(p.time_s < time_s, "best {} vs even {}", p.time_s, time_s);
        check("T = max(T_A, T_B)", p.time_s, p.parts[0].prediction.time_s.max(p.parts[1].prediction.time_s), 0.0);
        // A fabric that only one side names does not join them.
        let b_myri = cluster_b("Myrinet");
        let out = plan_pair(Side { cluster: &a, fit: &fa }, 32, Side { cluster: &b_myri, fit: &fb }, 32, &problem)
            .expect("valid");
        assert!(matches!(
            out,
            Outcome::Infeasible(InfeasibleOption { reason: Infeasibility::FabricNotShared { .. }, .. })
        ));
    }

    /// The best integer split by trying every number of rows on A.
    fn brute_force_split(a: &SideCtx, ca: &Cand, b: &SideCtx, cb: &Cand) -> Option<f64> {
        let (n, pa, pb) = (a.n, u64::from(ca.np), u64::from(cb.np));
        if pa + pb > n {
            return None;
        }
        (pa..=n - pb)
            .filter_map(|rows_a| {
                let (ra, rb) = (ceil_div(rows_a, pa), ceil_div(n - rows_a, pb));
                (ra <= a.max_rows && rb <= b.max_rows).then(|| a.time(ca, ra).max(b.time(cb, rb)))
            })
            .min_by(f64::total_cmp)
    }

    /// A calibration from chosen parameters: sizes w1 and k·w1, Tcomp = i + s·work,
    /// Tcomm = a4 + g4·work on 4 processes and a8 + g8·work on 8.
    #[allow(clippy::too_many_arguments)]
    fn make_fit(w1: f64, k: f64, i: f64, s: f64, a4: f64, a8: f64, g4: f64, g8: f64) -> Fit {
        let w2 = w1 * k;
        let t = |w: f64| i + s * w;
        let cal = Calibration {
            sequential: vec![SequentialRun::new(w1, t(w1)), SequentialRun::new(w2, t(w2))],
            parallel: vec![
                ParallelRun::new(4, w1, t(w1) + a4 + g4 * w1),
                ParallelRun::new(4, w2, t(w2) + a4 + g4 * w2),
                ParallelRun::new(8, w1, t(w1) + a8 + g8 * w1),
                ParallelRun::new(8, w2, t(w2) + a8 + g8 * w2),
            ],
        };
        fit(&cal).unwrap_or_else(|e| panic!("generated calibrations are valid: {e:?}"))
    }

    prop_compose! {
        /// A valid calibration whose time grows with work (c and d of any sign).
        fn arb_fit()(w1 in 1.0f64..1000.0, k in 1.1f64..4.0, i in 0.0f64..100.0, s in 0.01f64..2.0,
                     a4 in 0.0f64..200.0, a8 in 0.0f64..200.0, g4 in 0.0f64..0.1, g8 in 0.0f64..0.1) -> Fit {
            make_fit(w1, k, i, s, a4, a8, g4, g8)
        }
    }

    prop_compose! {
        /// As `arb_fit`, with c ≥ 0 and d ≥ 0: α(8) = α(4)·(1 + u/2) gives d = α(8) − α(4) ≥ 0
        /// and c = 3·α(4) − 2·α(8) ≥ 0.
        fn arb_growing_alpha_fit()(w1 in 1.0f64..1000.0, k in 1.1f64..4.0, i in 0.0f64..100.0, s in 0.01f64..2.0,
                                   a4 in 0.0f64..200.0, u in 0.0f64..1.0, g4 in 0.0f64..0.1, g8 in 0.0f64..0.1) -> Fit {
            make_fit(w1, k, i, s, a4, a4 * (1.0 + u / 2.0), g4, g8)
        }
    }

    fn side(name: &str, free: u32, mem_mb: f64, price: f64) -> ClusterSide {
        ClusterSide {
            name: name.into(),
            fabric: "Fast Ethernet".into(),
            free_procs: free,
            procs_per_node: 1,
            memory_per_node_mb: mem_mb,
            price_per_cpu_hour: price,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        #[test]
        fn split_is_the_brute_force_optimum_and_never_worse_than_even(
            fa in arb_fit(), fb in arb_fit(), n in 2u32..1500, pa in 1u32..40, pb in 1u32..40,
            mem_a in 0.3f64..3.0, mem_b in 0.3f64..3.0, bpp in 100.0f64..1e5,
        ) {
            // Rows heavy enough that the balance point, not α alone, decides; memory a multiple
            // of what the even split needs, so both limits sometimes bind and sometimes not.
            let problem = Problem { n, bytes_per_point: bpp };
            let even_mb = problem.work_mb_for_rows(ceil_div(u64::from(n), u64::from(pa + pb)));
            let (mem_a, mem_b) = (mem_a * even_mb, mem_b * even_mb);
            let (sa, sb) = (side("A", 64, mem_a, 1.0), side("B", 64, mem_b, 2.0));
            let (a, b) = (SideCtx::new(&sa, &fa, &problem), SideCtx::new(&sb, &fb, &problem));
            let (ca, cb) = (a.cand(pa), b.cand(pb));
            let got = split_exact(&a, &ca, &b, &cb);
            match (got, brute_force_split(&a, &ca, &b, &cb)) {
                (Ok(s), Some(t)) => {
                    prop_assert!((s.time_s - t).abs() <= 1e-9 * t.max(1.0), "split {} vs brute force {}", s.time_s, t);
                    prop_assert_eq!(s.rows_a + s.rows_b, u64::from(n));
                    prop_assert!(s.r_a <= a.max_rows && s.r_b <= b.max_rows);
                    if let EvenSplit::Feasible { time_s, .. } = even_split(&a, &ca, &b, &cb) {
                        prop_assert!(s.time_s <= time_s + 1e-9 * time_s, "best {} worse than even {}", s.time_s, time_s);
                    }
                }
                (Err(_), None) => {}
                (g, t) => prop_assert!(false, "split {:?} but brute force {:?}", g, t),
            }
        }

        #[test]
        fn cost_grows_with_np_and_price(np in 1u32..10_000, extra in 1u32..1000, price in 0.0f64..100.0,
                                        more in 0.001f64..10.0, t in 0.001f64..1e6) {
            let c = |np: u32, price: f64| cost(&[CpuUse { np, price_per_cpu_hour: price }], t);
            prop_assert!(c(np + extra, price).cpu_hours > c(np, price).cpu_hours);
            prop_assert!(c(np + extra, price).cost >= c(np, price).cost);
            prop_assert!(c(np, price + more).cost > c(np, price).cost);
        }

        #[test]
        fn cpu_hours_of_a_fixed_problem_grow_with_np(f in arb_growing_alpha_fit(), k in 1u32..8, log_n in 12u32..16) {
            // With Tcomp intercept, c + d·log2(np) and γ all ≥ 0, np·T(np) grows with np.
            prop_assert!(f.alpha.c_s >= -1e-9 && f.alpha.d_s >= -1e-9 && f.tcomp.intercept_s >= -1e-9);
            let problem = Problem { n: 1 << log_n, bytes_per_point: 32.0 };
            let s = side("A", 1 << 12, 1e9, 1.0);
            let hours = |np: u32| match plan_alone(Side { cluster: &s, fit: &f }, np, &problem) {
                Ok(Outcome::Feasible(p)) => Some(p.cpu_hours),
                _ => None,
            };
            let (small, large) = (hours(1 << k), hours(1 << (k + 1)));
            prop_assert!(small.is_some() && large.is_some());
            if let (Some(small), Some(large)) = (small, large) {
                prop_assert!(large >= small * (1.0 - 1e-12), "np {}: {} CPU-hours, twice as many: {}", 1 << k, small, large);
            }
        }

        #[test]
        fn predictions_are_finite(f in arb_fit(), np in 1u32..=u32::MAX, work in 1e-6f64..1e9) {
            let p = f.predict(np, work);
            prop_assert!(p.is_ok());
            if let Ok(p) = p {
                for x in [p.tcomp_s, p.tcomm_s, p.time_s] {
                    prop_assert!(x.is_finite() && x >= 0.0);
                }
            }
        }
    }

    fn planner_cluster(name: &str, free: u32, ppn: u32, mem: f64, price: f64, fits: &[(&str, f64)]) -> Cluster {
        Cluster {
            name: name.into(),
            free_procs: free,
            procs_per_node: ppn,
            memory_per_node_mb: mem,
            price_per_cpu_hour: price,
            fabrics: fits.iter().map(|&(f, k)| FabricFit { fabric: f.into(), fit: scaled_fit(k) }).collect(),
        }
    }

    /// Table II's setting: 32 free on each, A one process per 2 GB node, B four per 8 GB node.
    fn scenario2() -> PlannerInput {
        PlannerInput {
            clusters: vec![
                planner_cluster("A", 32, 1, 2048.0, 1.0, &[("Fast Ethernet", 1.0), ("Myrinet", 0.7)]),
                planner_cluster("B", 32, 4, 8192.0, 2.0, &[("Fast Ethernet", 0.6), ("Myrinet", 0.4)]),
            ],
            shared_fabrics: vec!["Fast Ethernet".into()],
            problem: Problem { n: 65536, bytes_per_point: 32.0 },
            candidate_np: None,
            pair_candidate_np: None,
        }
    }

    #[test]
    fn planner_scenarios() {
        let report = plan(&scenario2()).expect("valid");
        assert!(report.ranking.windows(2).all(|w| w[0].time_s <= w[1].time_s), "ranked by time");
        // 65536² needs 4 GB per process on 32 of either cluster alone: only A+B runs it.
        assert!(!report.ranking.is_empty());
        for p in &report.ranking {
            assert_eq!(p.parts.len(), 2, "only A+B holds 65536² with 32 + 32: {p:#?}");
            assert_eq!(p.fabric, "Fast Ethernet", "A+B only over the shared fabric");
            assert_eq!(p.parts.iter().map(|q| q.rows).sum::<u64>(), 65536);
        }
        assert!(report.infeasible.iter().any(|o| o.fabric == "Myrinet"
            && o.assignments == vec![Assignment { cluster: "B".into(), np: 32 }]
            && matches!(o.reason, Infeasibility::MemoryPerProcess { need_mb, have_mb, .. } if need_mb == 4096.0 && have_mb == 2048.0)));
        let top = &report.ranking[0];
        assert_eq!((top.parts[0].np, top.parts[1].np), (32, 32));
        let sum: f64 = top.parts.iter().map(|q| q.cost).sum();
        check("cost is the sum of the parts", top.cost, sum, 1e-12);
        check("cost by the formula", top.cost, (32.0 * 1.0 + 32.0 * 2.0) * top.time_s / 3600.0, 1e-12);

        let r = report.resolution.expect("something fits");
        assert_eq!(r.largest.n, 65536);
        assert_eq!(r.largest.best, report.ranking[0], "the fastest option at the largest N");
        let smaller = r.smaller.expect("32768 fits");
        assert_eq!(smaller.n, 32768);
        // At 32768² the fastest is B alone over Myrinet (the fastest fit, 1 GB per process fits).
        let rank_small = Planner::new(&scenario2()).rank(32768).0;
        assert_eq!(smaller.best, rank_small[0]);
        check("cost ratio", r.cost_ratio.expect("priced"), r.largest.best.cost / smaller.best.cost, 1e-12);
    }

    #[test]
    fn planner_rejects_bad_input() {
        let cases: Vec<(&str, PlannerInput, &str)> = vec![
            ("no clusters", PlannerInput { clusters: vec![], ..scenario2() }, "one or two clusters"),
            (
                "shared fabric not calibrated",
                PlannerInput { shared_fabrics: vec!["Myrinet".into(), "InfiniBand".into()], ..scenario2() },
                "InfiniBand has no calibration on cluster A",
            ),
            ("candidate 0", PlannerInput { candidate_np: Some(vec![0, 4]), ..scenario2() }, "0 processes"),
            (
                "too many pairs",
                PlannerInput { pair_candidate_np: Some((1..=200).collect()), ..scenario2() },
                "200 × 200 = 40000 pairs",
            ),
            ("bad N", PlannerInput { problem: Problem { n: 0, bytes_per_point: 32.0 }, ..scenario2() }, "grid side"),
            (
                "zero procs per node",
                {
                    let mut p = scenario2();
                    p.clusters[1].procs_per_node = 0;
                    p
                },
                "cluster B: processes per node",
            ),
            (
                "non-finite fit",
                {
                    let mut p = scenario2();
                    p.clusters[0].fabrics[0].fit.gamma_s_per_mb = f64::NAN;
                    p
                },
                "cluster A: calibration over Fast Ethernet",
            ),
        ];
        for (name, input, piece) in cases {
            let errors = plan(&input).expect_err(name);
            assert!(errors.iter().any(|e| e.to_string().contains(piece)), "{name}: {errors:#?}");
        }
    }

    #[test]
    fn planner_best_at_agrees_with_the_ranking() {
        let mut input = scenario2();
        input.clusters[0].free_procs = 64;
        input.shared_fabrics = vec!["Fast Ethernet".into(), "Myrinet".into()];
        input.candidate_np = Some((1..=64).collect());
        input.pair_candidate_np = Some((1..=64).step_by(3).collect());
        let planner = Planner::new(&input);
        for n in [256, 4096, 32768, 65536] {
            let (ranking, _) = planner.rank(n);
            assert_eq!(planner.best_at(n).as_ref(), ranking.first(), "N = {n}");
        }
    }
}
