//! What is made of measured points (seed 004, spec `speedup-fit.md`): validation and merging
//! of repeated n, the fit of each model with its uncertainty, AICc, leave-one-out error,
//! points past the speed-up peak, Karp–Flatt serial fractions, the choice of the best model,
//! predictions with ±2 standard errors, and advice on where to measure next.
//!
//! Uncertainties come from the Jacobian covariance at the optimum, s²(JᵀWJ)⁻¹ with
//! s² = SSE/(m−k), over the parameters not held at a bound; the band and the prediction
//! ranges are ±2 standard errors of the fitted curve (delta method). AICc counts the noise
//! variance as a parameter (K = k + 1). Leave-one-out refits every model once per point, so it
//! is computed up to [`MAX_LOO_POINTS`] points only.

// Dense k×k algebra (k ≤ 4) reads best with indices.
#![allow(clippy::needless_range_loop)]

use super::calibration;
use super::forecast::{self, Quantiles};
use super::lm::{fit_all, LmRun, Problem, Termination};
use super::models::{
    downey, gradient, smirni, speedup_of, value, Measure, Model, Space, Start, CANNOT_FALL, CAN_FALL, MODELS,
};
use crate::model::{fmt_num, InputError, Warning};

/// Most measured points (rows) one analysis takes.
pub const MAX_POINTS: usize = 500;
/// Most points for which leave-one-out errors are computed.
pub const MAX_LOO_POINTS: usize = 16;
/// Most process counts one input predicts at on the command (the page takes
/// `page::MAX_TARGETS`, a table's worth). Work and answer grow with the list.
pub const MAX_PREDICT: usize = 4096;

/// A point as given, before validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawPoint {
    pub n: f64,
    pub value: f64,
    pub weight: Option<f64>,
    /// The nodes the run used, where the user says.
    pub nodes: Option<f64>,
    /// 1-based line in a pasted table; None for JSON input (errors then name `points[i]`).
    pub line: Option<usize>,
}

/// Options of an analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub models: Vec<Model>,
    /// Put the points after the speed-up peak back into the non-declining models' fits.
    pub include_past_peak: bool,
    /// Process counts to predict at.
    pub targets: Vec<u32>,
    /// Leave-one-out refits (the benchmark measures with and without).
    pub leave_one_out: bool,
    /// Processes per node, where the user says (else read from the points' nodes).
    pub cores_per_node: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            models: MODELS.to_vec(),
            include_past_peak: false,
            targets: Vec::new(),
            leave_one_out: true,
            cores_per_node: None,
        }
    }
}

/// A measured point after validation and merging of duplicates.
#[derive(Debug, Clone, PartialEq)]
pub struct PointView {
    pub n: u32,
    /// The value fitted: the speed-up, or the time in seconds (in [`Space::Time`]).
    pub value: f64,
    pub weight: f64,
    /// Speed-up: given, T(1)/T(n), or (without an n = 1 run) T1 of the best fit over T(n).
    pub speedup: Option<f64>,
    pub time_s: Option<f64>,
    /// Efficiency S/n.
    pub efficiency: Option<f64>,
    /// Karp–Flatt serial fraction (1/S − 1/n)/(1 − 1/n); None at n = 1.
    pub karp_flatt: Option<f64>,
    pub past_peak: bool,
    pub super_linear: bool,
    /// How many input rows were averaged into this point (1 when n was not repeated).
    pub merged_rows: usize,
    /// Lines of the rows (pasted tables).
    pub lines: Vec<usize>,
    /// Whether the non-declining models used this point.
    pub in_monotone_fits: bool,
    /// The nodes the run used, where given.
    pub nodes: Option<u32>,
}

/// A fitted parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub value: f64,
    /// Standard error from the covariance; None when it cannot be estimated (as many
    /// parameters as points, a singular Jacobian, or the parameter at a bound).
    pub std_err: Option<f64>,
}

/// A prediction at one n, with its range at [`forecast::LEVEL`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Prediction {
    pub n: u32,
    pub speedup: f64,
    pub speedup_low: f64,
    pub speedup_high: f64,
    pub efficiency: f64,
    /// (time, low, high) in seconds, where times were given.
    pub time_s: Option<(f64, f64, f64)>,
    /// n over the largest measured count.
    pub horizon: f64,
    /// The scale u of the range (see `forecast`).
    pub scale: f64,
    /// The nodes n needs, where the processes per node are known.
    #[serde(default)]
    pub nodes: Option<u32>,
    /// Every measured run sat inside one node and n needs more: the forecast's range is
    /// widened by the factor measured for such predictions.
    #[serde(default)]
    pub crosses_nodes: bool,
}

/// One model's fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub model: Model,
    pub space: Space,
    /// Shape parameters, then T1 (seconds) when fitted.
    pub params: Vec<Param>,
    /// Weighted squared error Σ w (y − f)², in the fitted space.
    pub sse: f64,
    /// Number of points fitted and of parameters.
    pub points: usize,
    pub k: usize,
    pub aicc: Option<f64>,
    /// Leave-one-out error, √(Σ w e²/Σ w) in the fitted space.
    pub loo: Option<f64>,
    /// (n, y − f) for each fitted point.
    pub residuals: Vec<(u32, f64)>,
    /// Why the solver stopped (the best run's reason).
    pub termination: Termination,
    pub iterations: u32,
    /// Said next to the fit: did not converge, no uncertainty, ….
    pub notes: Vec<String>,
    pub predictions: Vec<Prediction>,
    /// Whether it takes part in choosing the best model (same points as the others).
    pub ranked: bool,
    p: [f64; 4],
    lo: [f64; 4],
    hi: [f64; 4],
    cov: Option<[[f64; 4]; 4]>,
    t1_measured: Option<f64>,
}

/// A model that was not fitted, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub model: Model,
    pub reason: String,
}

/// Where to measure next.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub n: u32,
    /// "linear", "transition" or "peak".
    pub role: &'static str,
    pub already_measured: bool,
    pub text: String,
}

/// Everything an analysis finds.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub space: Space,
    pub measure: Measure,
    /// T(1) as measured (times with an n = 1 run).
    pub t1_measured: Option<f64>,
    pub points: Vec<PointView>,
    pub fits: Vec<Fit>,
    pub skipped: Vec<Skipped>,
    pub best: Option<Model>,
    pub best_reason: String,
    pub advice: Vec<Suggestion>,
    pub advice_text: String,
    /// What to know about the answer, each with the input it concerns (`field`, the points,
    /// or `cores_per_node`).
    pub warnings: Vec<Warning>,
    /// The forecast (anchored Amdahl, see `forecast`) at the targets.
    pub forecast: Vec<Prediction>,
    /// Where the measured runs sit among nodes.
    pub nodes: forecast::Nodes,
    /// The time-like values the forecast is made of (see `forecast::Basis`).
    basis: Vec<(f64, f64, f64)>,
}

/// The forecast at x (any real n ≥ 1) as a prediction (its `n` is x rounded).
fn forecast_at(
    basis: &forecast::Basis,
    nodes: forecast::Nodes,
    measure: Measure,
    t1_measured: Option<f64>,
    x: f64,
) -> Option<Prediction> {
    let fp = forecast::forecast(basis, x, nodes)?;
    let n = x.round().clamp(1.0, 1e9) as u32;
    Some(match measure {
        Measure::TimeS => {
            let t1 = t1_measured.unwrap_or(fp.law.0 + fp.law.1);
            let s = t1 / fp.value;
            Prediction {
                n,
                speedup: s,
                speedup_low: t1 / fp.high,
                speedup_high: t1 / fp.low,
                efficiency: s / x,
                time_s: Some((fp.value, fp.low, fp.high)),
                horizon: fp.horizon,
                scale: fp.scale,
                nodes: fp.nodes,
                crosses_nodes: fp.crosses_nodes,
            }
        }
        Measure::Speedup => Prediction {
            n,
            speedup: 1.0 / fp.value,
            speedup_low: 1.0 / fp.high,
            speedup_high: 1.0 / fp.low,
            efficiency: 1.0 / fp.value / x,
            time_s: None,
            horizon: fp.horizon,
            scale: fp.scale,
            nodes: fp.nodes,
            crosses_nodes: fp.crosses_nodes,
        },
    })
}

impl Analysis {
    /// The forecast's law (its Amdahl reading, its trend and their weights), time-like
    /// (seconds, or units of T(1) for speed-ups).
    pub fn forecast_law(&self) -> Option<forecast::Law> {
        forecast::Law::new(&self.basis, forecast::RULE)
    }

    /// The forecast at any x ≥ 1 (for charts).
    pub fn forecast_at(&self, x: f64) -> Option<Prediction> {
        forecast_at(&self.basis, self.nodes, self.measure, self.t1_measured, x)
    }

    /// The largest measured count, where the forecast is anchored.
    pub fn anchor(&self) -> Option<f64> {
        self.basis.last().map(|b| b.0)
    }

    /// A fit's prediction at any n, with its range at the forecast's scale there.
    pub fn predict_fit(&self, f: &Fit, n: u32) -> Prediction {
        let (h, u) = self.forecast_at(f64::from(n)).map_or((1.0, 1.0), |p| (p.horizon, p.scale));
        predict(f, n, h, u, self.basis.len())
    }

    pub fn fit(&self, model: Model) -> Option<&Fit> {
        self.fits.iter().find(|f| f.model == model)
    }
    pub fn best_fit(&self) -> Option<&Fit> {
        self.best.and_then(|m| self.fit(m))
    }
}

const MAX_N: f64 = 1e9;
/// The range of measured times accepted, seconds.
pub const MIN_TIME_S: f64 = 1e-9;
pub const MAX_TIME_S: f64 = 1e12;
/// The range of measured speed-ups accepted.
pub const MIN_SPEEDUP: f64 = 1e-9;
pub const MAX_SPEEDUP: f64 = 1e9;

fn point_error(field: &str, i: usize, line: Option<usize>, key: &str, column: usize, msg: String) -> InputError {
    match line {
        Some(l) => InputError::new(field, msg).at(l, Some(column)),
        None => InputError::new(format!("{field}[{i}].{key}"), msg),
    }
}

/// Validates the points and merges repeated n (weighted average, weights added).
pub(crate) fn prepare(
    field: &str,
    raw: &[RawPoint],
    measure: Measure,
    warnings: &mut Vec<String>,
) -> Result<Vec<PointView>, InputError> {
    let what = if measure == Measure::TimeS { "time" } else { "speed-up" };
    let key = if measure == Measure::TimeS { "time_s" } else { "speedup" };
    let mut pts: Vec<PointView> = Vec::new();
    let mut values: Vec<Vec<f64>> = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        if !(r.n.is_finite() && r.n >= 1.0 && r.n <= MAX_N && r.n.fract() == 0.0) {
            let msg = format!("n must be a whole number of processes from 1 to 1e9, found {}", fmt_num(r.n, 6));
            return Err(point_error(field, i, r.line, "n", 1, msg));
        }
        // Times of a nanosecond to 30,000 years, speed-ups of 1e-9 to 1e9: within these every
        // ratio, fit and prediction stays a finite number (a time of 1e-320 s gave an infinite
        // speed-up).
        let (lo, hi) = if measure == Measure::TimeS { (MIN_TIME_S, MAX_TIME_S) } else { (MIN_SPEEDUP, MAX_SPEEDUP) };
        if !(r.value.is_finite() && r.value > 0.0) {
            let msg = format!("the {what} must be a number greater than 0, found {}", fmt_num(r.value, 6));
            return Err(point_error(field, i, r.line, key, 2, msg));
        }
        if !(lo..=hi).contains(&r.value) {
            let unit = if measure == Measure::TimeS { " s" } else { "" };
            let msg = format!(
                "the {what} must be from {}{unit} to {}{unit}, found {}",
                fmt_num(lo, 1),
                fmt_num(hi, 1),
                fmt_num(r.value, 6)
            );
            return Err(point_error(field, i, r.line, key, 2, msg));
        }
        let w = r.weight.unwrap_or(1.0);
        if !(w.is_finite() && w > 0.0 && w < 1e12) {
            let msg = format!("the weight must be a number greater than 0, found {}", fmt_num(w, 6));
            return Err(point_error(field, i, r.line, "weight", 3, msg));
        }
        let nodes = match r.nodes {
            None => None,
            Some(d) if d.is_finite() && d >= 1.0 && d.fract() == 0.0 && d <= r.n => Some(d as u32),
            Some(d) => {
                let msg =
                    format!("nodes must be a whole number from 1 to n ({}), found {}", fmt_num(r.n, 6), fmt_num(d, 6));
                return Err(point_error(field, i, r.line, "nodes", 4, msg));
            }
        };
        let n = r.n as u32;
        match pts.iter().position(|p| p.n == n) {
            Some(j) => {
                let p = &mut pts[j]; // ok: j comes from position
                if p.nodes != nodes {
                    let msg = format!(
                        "n = {n} is given on {} and on {} nodes: give one node count per n",
                        show_nodes(p.nodes),
                        show_nodes(nodes)
                    );
                    return Err(point_error(field, i, r.line, "nodes", 4, msg));
                }
                p.value = (p.value * p.weight + r.value * w) / (p.weight + w);
                p.weight += w;
                p.merged_rows += 1;
                p.lines.extend(r.line);
                values[j].push(r.value); // ok: values and pts grow together
            }
            None => {
                // Kept in order of n as they come (no sort: it would cost the page size).
                let at = pts.iter().position(|p| p.n > n).unwrap_or(pts.len());
                values.insert(at, vec![r.value]);
                pts.insert(
                    at,
                    PointView {
                        n,
                        value: r.value,
                        weight: w,
                        speedup: None,
                        time_s: None,
                        efficiency: None,
                        karp_flatt: None,
                        past_peak: false,
                        super_linear: false,
                        merged_rows: 1,
                        lines: r.line.into_iter().collect(),
                        in_monotone_fits: true,
                        nodes,
                    },
                );
            }
        }
    }
    if pts.is_empty() {
        return Err(InputError::new(field, "no points yet: give at least two (n, time) or (n, speed-up) pairs"));
    }
    // One count says nothing of how the time changes with n: any curve through it would be a
    // guess shown as a prediction.
    if let [only] = &pts[..] {
        let msg = format!(
            "one process count (n = {}) cannot tell how the program scales: measure at a second count, e.g. n = {}",
            only.n,
            only.n.saturating_mul(2)
        );
        return Err(match only.lines.first() {
            Some(&l) => InputError::new(field, msg).at(l, Some(1)),
            None => InputError::new(field, msg),
        });
    }
    for (p, vs) in pts.iter().zip(&values) {
        if vs.len() > 1 {
            let differ = vs.iter().any(|v| *v != vs[0]);
            let list: Vec<String> = vs.iter().map(|v| fmt_num(*v, 5)).collect();
            if differ {
                warnings.push(format!(
                    "n = {} is given {} times with different {what}s ({}); they are averaged to {}",
                    p.n,
                    vs.len(),
                    list.join(", "),
                    fmt_num(p.value, 5)
                ));
            } else {
                warnings.push(format!(
                    "n = {} is given {} times with the same {what}; counted once with their weights added",
                    p.n,
                    vs.len()
                ));
            }
        }
    }
    Ok(pts)
}

impl Fit {
    /// The fitted speed-up at n.
    pub fn speedup_at(&self, n: f64) -> f64 {
        speedup_of(self.model, self.space, &self.p, n)
    }

    /// T(1) in seconds: measured, or fitted.
    pub fn t1_s(&self) -> Option<f64> {
        match (self.space, self.model) {
            (Space::Speedup, _) => self.t1_measured,
            (Space::Time, m) if m.start() == Start::Line => Some(self.p[0] + self.p[1]),
            (Space::Time, m) => Some(self.p[m.param_names().len()]),
        }
    }

    fn time_of(&self, p: &[f64; 4], n: f64) -> Option<f64> {
        match self.space {
            Space::Time => Some(value(self.model, self.space, p, n)),
            Space::Speedup => self.t1_measured.map(|t1| t1 / speedup_of(self.model, self.space, p, n)),
        }
    }

    /// The fitted time at n, where times were given.
    pub fn time_at(&self, n: f64) -> Option<f64> {
        self.time_of(&self.p, n)
    }

    /// Standard error of a quantity g(p) by the delta method; None without a covariance.
    fn std_err_of(&self, g: &dyn Fn(&[f64; 4]) -> f64) -> Option<f64> {
        let cov = self.cov.as_ref()?;
        let d = gradient(&self.p, &self.lo, &self.hi, self.k, g);
        let mut var = 0.0;
        for a in 0..self.k {
            for b in 0..self.k {
                var += d[a] * cov[a][b] * d[b];
            }
        }
        let se = var.max(0.0).sqrt();
        se.is_finite().then_some(se)
    }

    /// Speed-up at n and its range, ±2 standard errors of the curve (no range when no
    /// covariance could be estimated).
    pub fn speedup_band(&self, n: f64) -> (f64, f64, f64) {
        let s = self.speedup_at(n);
        let se = self.std_err_of(&|p| speedup_of(self.model, self.space, p, n)).unwrap_or(0.0);
        (s, (s - 2.0 * se).max(0.0), s + 2.0 * se)
    }

    /// Time at n and its range (±2 standard errors), where times were given.
    pub fn time_band(&self, n: f64) -> Option<(f64, f64, f64)> {
        let t = self.time_at(n)?;
        let se = self.std_err_of(&|p| self.time_of(p, n).unwrap_or(0.0)).unwrap_or(0.0);
        Some((t, (t - 2.0 * se).max(0.0), t + 2.0 * se))
    }

    /// The curve and its band at each n, as (n, speed-up, low, high), for charts.
    pub fn band(&self, ns: &[f64]) -> Vec<(f64, f64, f64, f64)> {
        ns.iter()
            .map(|&n| {
                let (s, lo, hi) = self.speedup_band(n);
                (n, s, lo, hi)
            })
            .collect()
    }
}

/// Why a model was not fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NoFit {
    /// Fewer points than the model has parameters.
    TooFewPoints { parameters: usize, points: usize },
    /// The solver's best parameters, or its squared error, are not finite.
    NotFinite,
}

impl std::fmt::Display for NoFit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            NoFit::TooFewPoints { parameters: k, points: m } => {
                write!(f, "needs at least {k} points for its {k} parameter{}, has {m}", if k == 1 { "" } else { "s" })
            }
            NoFit::NotFinite => f.write_str("the fit found no finite solution"),
        }
    }
}

/// Fits one model to (n, y, w); `t1_measured` is T(1) in seconds when known (speed-up space).
pub(super) fn fit_model(
    model: Model,
    space: Space,
    ns: &[f64],
    ys: &[f64],
    ws: &[f64],
    t1_measured: Option<f64>,
    loo: bool,
) -> Result<Fit, NoFit> {
    let pr = Problem::new(model, space, ns, ys, ws);
    let (m, k) = (ns.len(), pr.k);
    if m < k {
        return Err(NoFit::TooFewPoints { parameters: k, points: m });
    }
    // The fit, and the leave-one-out refits searched with it (see `lm::fit_all`).
    let runs = fit_all(model, space, ns, ys, ws, loo && m > k);
    let Some(&run) = runs.first().filter(|r| r.sse.is_finite() && r.p.iter().all(|x| x.is_finite())) else {
        return Err(NoFit::NotFinite);
    };
    let mut notes = Vec::new();
    if !run.termination.was_successful() {
        notes.push(format!("{}; the best parameters found are shown", run.termination.text()));
    }
    // Covariance s²(JᵀWJ)⁺ over every parameter, those at a bound too (their error is then
    // one-sided). With no residual left (m ≤ k), s² is the run-to-run noise measured on the
    // corpus. A pseudo-inverse: where the points pin only some combinations of the parameters
    // (Downey's points all below its plateau pin σ/(A(σ+1)) alone), the others are said.
    let (h, g) = pr.normal(&run.p);
    let names = model.param_names();
    let name = |j: usize| names.get(j).copied().unwrap_or("T1");
    let at_bound: Vec<bool> =
        (0..k).map(|j| (run.p[j] <= pr.lo[j] && g[j] <= 0.0) || (run.p[j] >= pr.hi[j] && g[j] >= 0.0)).collect();
    let s2 = if m > k {
        run.sse / (m - k) as f64
    } else {
        let sw: f64 = ws.iter().sum();
        let mean_sq = ys.iter().zip(ws).map(|(y, w)| w * y * y).sum::<f64>() / sw;
        notes.push(format!(
            "{m} points for {k} parameter{}: the curve passes through them, so the standard errors assume the run-to-run noise measured on the corpus ({} %)",
            if k == 1 { "" } else { "s" },
            fmt_num(100.0 * RUN_TO_RUN_NOISE, 2)
        ));
        RUN_TO_RUN_NOISE * RUN_TO_RUN_NOISE * mean_sq
    };
    let mut cov = None;
    if let Some((inv, null)) = pseudo_inverse(&h, k) {
        let mut c = [[0.0; 4]; 4];
        for a in 0..k {
            for b in 0..k {
                c[a][b] = s2 * inv[a][b];
            }
        }
        if c.iter().flatten().all(|x| x.is_finite()) {
            cov = Some(c);
        }
        for v in null {
            // The parameters that move along an unpinned direction.
            let moved: Vec<&str> = (0..k).filter(|&j| v[j].abs() > 0.2).map(name).collect();
            let pinned = if model == Model::Downey && k >= 2 {
                " (every point lies below the plateau: the points pin σ/(A(σ+1)), the initial slope, not A itself)"
            } else {
                ""
            };
            notes.push(format!(
                "the points do not tell {} apart along one direction{pinned}; the standard errors are those of what the points pin down, and the ranges come from the corpus",
                moved.join(" and ")
            ));
        }
    }
    if cov.is_none() {
        notes.push("the covariance of the parameters could not be computed (not finite): no standard errors".into());
    }
    for j in (0..k).filter(|&j| at_bound[j]) {
        notes.push(format!("{} is at its bound ({}): its standard error is one-sided", name(j), fmt_num(run.p[j], 4)));
    }
    let params = (0..k)
        .map(|j| Param {
            name: names.get(j).copied().unwrap_or("T1"),
            value: run.p[j],
            std_err: cov.map(|c| c[j][j].max(0.0).sqrt()).filter(|x| x.is_finite()),
        })
        .collect();
    let residuals = ns.iter().zip(ys).map(|(n, y)| (*n as u32, y - pr.value(&run.p, *n))).collect();
    let aicc = aicc(run.sse, ys, ws, k);
    let loo = if loo && m > k { leave_one_out(&pr, ns, ys, ws, &runs[1..]) } else { None };
    Ok(Fit {
        model,
        space,
        params,
        sse: run.sse,
        points: m,
        k,
        aicc,
        loo,
        residuals,
        termination: run.termination,
        iterations: run.iterations,
        notes,
        predictions: Vec::new(),
        ranked: true,
        p: run.p,
        lo: pr.lo,
        hi: pr.hi,
        cov,
        t1_measured,
    })
}

/// The median relative standard deviation of repeated runs at one count in
/// `validation/corpus.csv` (43 counts with repetitions, 1.7 %): the noise assumed where the
/// points leave no residual to measure it.
pub const RUN_TO_RUN_NOISE: f64 = 0.017;

/// A matrix of up to four parameters (the first k rows and columns used).
type Mat4 = [[f64; 4]; 4];

/// The pseudo-inverse of the symmetric positive semi-definite k×k `h` (Jacobi eigenvalues of
/// the matrix scaled to a unit diagonal), and the directions it drops: eigenvalues below 1e-6
/// of the largest (10⁻⁶: the central-difference Jacobian is good to about that). None when `h` is not finite or has a zero diagonal.
fn pseudo_inverse(h: &Mat4, k: usize) -> Option<(Mat4, Vec<[f64; 4]>)> {
    let mut d = [0.0; 4];
    for j in 0..k {
        if !(h[j][j].is_finite() && h[j][j] > 0.0) {
            return None;
        }
        d[j] = 1.0 / h[j][j].sqrt();
    }
    let mut a = [[0.0; 4]; 4];
    for i in 0..k {
        for j in 0..k {
            a[i][j] = h[i][j] * d[i] * d[j];
        }
    }
    let mut v = [[0.0; 4]; 4];
    for i in 0..k {
        v[i][i] = 1.0;
    }
    // Cyclic Jacobi rotations: a few sweeps settle a 4×4 to machine precision.
    for _ in 0..50 {
        let off: f64 = (0..k)
            .flat_map(|i| (0..k).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if !off.is_finite() {
            return None;
        }
        if off < 1e-30 {
            break;
        }
        for p in 0..k {
            for q in p + 1..k {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for r in 0..k {
                    let (arp, arq) = (a[r][p], a[r][q]);
                    a[r][p] = c * arp - s * arq;
                    a[r][q] = s * arp + c * arq;
                }
                for r in 0..k {
                    let (apr, aqr) = (a[p][r], a[q][r]);
                    a[p][r] = c * apr - s * aqr;
                    a[q][r] = s * apr + c * aqr;
                }
                for r in 0..k {
                    let (vrp, vrq) = (v[r][p], v[r][q]);
                    v[r][p] = c * vrp - s * vrq;
                    v[r][q] = s * vrp + c * vrq;
                }
            }
        }
    }
    let top = (0..k).map(|i| a[i][i]).fold(0.0, f64::max);
    let mut inv = [[0.0; 4]; 4];
    let mut null = Vec::new();
    for e in 0..k {
        if a[e][e] > 1e-6 * top {
            for i in 0..k {
                for j in 0..k {
                    inv[i][j] += d[i] * v[i][e] * v[j][e] * d[j] / a[e][e];
                }
            }
        } else {
            let mut dir = [0.0; 4];
            for i in 0..k {
                dir[i] = v[i][e];
            }
            null.push(dir);
        }
    }
    inv.iter().flatten().all(|x| x.is_finite()).then_some((inv, null))
}

/// AICc with K = k + 1 (the noise variance counts); needs m ≥ K + 2. The squared error is
/// floored at 1e-12 of Σ w y² so that exact fits do not run off to −∞.
pub(super) fn aicc(sse: f64, ys: &[f64], ws: &[f64], k: usize) -> Option<f64> {
    let m = ys.len();
    let big_k = k + 1;
    if m < big_k + 2 {
        return None;
    }
    let scale: f64 = ys.iter().zip(ws).map(|(y, w)| w * y * y).sum();
    let s = sse.max(1e-12 * scale).max(1e-300);
    let (mf, kf) = (m as f64, big_k as f64);
    let v = mf * (s / mf).ln() + 2.0 * kf + 2.0 * kf * (kf + 1.0) / (mf - kf - 1.0);
    v.is_finite().then_some(v)
}

fn leave_one_out(pr: &Problem, ns: &[f64], ys: &[f64], ws: &[f64], refits: &[LmRun]) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for (i, run) in refits.iter().enumerate() {
        // Refit i left out point i (see `lm::fit_all`).
        let (n, y, w) = (*ns.get(i)?, *ys.get(i)?, *ws.get(i)?);
        let e = y - pr.value(&run.p, n);
        if !e.is_finite() {
            return None;
        }
        num += w * e * e;
        den += w;
    }
    let v = (num / den).sqrt();
    v.is_finite().then_some(v)
}

/// Analyses measured points: validates, merges, flags, fits every model, compares them,
/// predicts at the targets and advises where to measure next. `field` names the points in
/// errors ("points").
pub fn analyse(field: &str, raw: &[RawPoint], measure: Measure, opts: &Options) -> Result<Analysis, InputError> {
    // Leave-one-out refits every model once per point: bound the work a paste can ask for.
    if raw.len() > MAX_POINTS {
        return Err(InputError::new(
            field,
            format!("{} points is more than the {MAX_POINTS} a fit takes; keep a few per process count", raw.len()),
        ));
    }
    let mut warnings = Vec::new();
    let mut points = prepare(field, raw, measure, &mut warnings)?;
    let t1_measured = match measure {
        Measure::TimeS => points.iter().find(|p| p.n == 1).map(|p| p.value),
        Measure::Speedup => None,
    };
    let space = if measure == Measure::TimeS && t1_measured.is_none() { Space::Time } else { Space::Speedup };
    for p in &mut points {
        if measure == Measure::TimeS {
            p.time_s = Some(p.value);
        }
        if let Some(t1) = t1_measured {
            p.value = t1 / p.value;
        }
        if space == Space::Speedup {
            p.speedup = Some(p.value);
        }
    }
    let past = flag_past_peak(&mut points, space, opts.include_past_peak, &mut warnings);
    let models: Vec<Model> = MODELS.iter().copied().filter(|m| opts.models.contains(m)).collect();
    let all: Vec<&PointView> = points.iter().collect();
    let mono: Vec<&PointView> = points.iter().filter(|p| p.in_monotone_fits).collect();
    let cols = |set: &[&PointView]| -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        (
            set.iter().map(|p| f64::from(p.n)).collect(),
            set.iter().map(|p| p.value).collect(),
            set.iter().map(|p| p.weight).collect(),
        )
    };
    let (an, ay, aw) = cols(&all);
    let (mn, my, mw) = cols(&mono);
    let mut fits = Vec::new();
    let mut skipped = Vec::new();
    // Leave-one-out refits each model once per point: above MAX_LOO_POINTS it is skipped
    // (and said so), so a long table still fits within a keystroke.
    let loo = opts.leave_one_out && all.len() <= MAX_LOO_POINTS;
    if opts.leave_one_out && !loo {
        warnings.push(format!("leave-one-out errors are not computed above {MAX_LOO_POINTS} points"));
    }
    for model in models {
        let (ns, ys, ws) = if model.can_decline() { (&an, &ay, &aw) } else { (&mn, &my, &mw) };
        match fit_model(model, space, ns, ys, ws, t1_measured, loo) {
            Ok(mut f) => {
                f.ranked = !model.can_decline() || past.is_empty() || opts.include_past_peak;
                if !f.ranked {
                    f.notes.push(
                        "fitted to every point, the past-peak ones too, so it is not ranked against the models fitted without them; include the past-peak points to compare all"
                            .into(),
                    );
                }
                fits.push(f);
            }
            Err(reason) => skipped.push(Skipped { model, reason: reason.to_string() }),
        }
    }
    // Without an n = 1 run the fitted T1 gives the points' speed-ups; choose it from the best fit.
    let (best, best_reason) = choose_best(&fits, space);
    if space == Space::Time {
        if let Some(t1) = best.and_then(|m| fits.iter().find(|f| f.model == m)).and_then(Fit::t1_s) {
            for p in &mut points {
                p.speedup = Some(t1 / p.value);
            }
            warnings.push(format!(
                "no run at n = 1: speed-ups, efficiency and Karp–Flatt use T(1) = {} s fitted by {}",
                fmt_num(t1, 4),
                best.map(Model::label).unwrap_or("")
            ));
        }
    }
    efficiency_and_karp_flatt(&mut points, &mut warnings);
    let basis: Vec<(f64, f64, f64)> = points
        .iter()
        .map(|p| {
            (
                f64::from(p.n),
                if measure == Measure::TimeS { p.time_s.unwrap_or(p.value) } else { 1.0 / p.value },
                p.weight,
            )
        })
        .collect();
    let mut node_warnings = Vec::new();
    let nodes = node_layout(&points, opts.cores_per_node, &mut node_warnings);
    let warnings: Vec<Warning> = (warnings.into_iter().map(|m| Warning::at(field, m)))
        .chain(node_warnings.into_iter().map(|m| Warning::at(CORES_PER_NODE, m)))
        .collect();
    let forecast: Vec<Prediction> = opts
        .targets
        .iter()
        .filter_map(|&n| forecast_at(&basis, nodes, measure, t1_measured, f64::from(n)).map(|p| Prediction { n, ..p }))
        .collect();
    for f in &mut fits {
        f.predictions = forecast
            .iter()
            .map(|fp| Prediction {
                nodes: fp.nodes,
                crosses_nodes: fp.crosses_nodes,
                ..predict(f, fp.n, fp.horizon, fp.scale, basis.len())
            })
            .collect();
    }
    let (advice, advice_text) = match best.and_then(|m| fits.iter().find(|f| f.model == m)) {
        Some(f) => advise(f, &points),
        None => (Vec::new(), String::new()),
    };
    Ok(Analysis {
        space,
        measure,
        t1_measured,
        points,
        fits,
        skipped,
        best,
        best_reason,
        advice,
        advice_text,
        warnings,
        forecast,
        nodes,
        basis,
    })
}

fn show_nodes(d: Option<u32>) -> String {
    d.map_or_else(|| "unstated".into(), |d| d.to_string())
}

/// Where the runs sit among nodes: processes per node as given, else the most any point put
/// on one node (n over its nodes, rounded up) when some point used several; and whether every
/// run fitted in one node (each says 1 node, or each n is within the processes per node). Runs
/// all on one node without a stated node size are said: a prediction may leave the node.
/// The input a warning about the node layout concerns (the page's field, the request's key).
pub const CORES_PER_NODE: &str = "cores_per_node";

fn node_layout(points: &[PointView], cores_per_node: Option<u32>, warnings: &mut Vec<String>) -> forecast::Nodes {
    let spread = points.iter().filter_map(|p| p.nodes.filter(|&d| d > 1).map(|d| p.n.div_ceil(d))).max();
    let per_node = cores_per_node.or(spread).map(f64::from);
    let inside_one = match per_node {
        Some(r) => points.iter().all(|p| p.nodes.map_or(f64::from(p.n) <= r, |d| d == 1)),
        None => !points.is_empty() && points.iter().all(|p| p.nodes == Some(1)),
    };
    if inside_one && per_node.is_none() {
        warnings
            .push("every run is on one node: give the cores per node to know which predictions need more nodes".into());
    }
    forecast::Nodes { per_node, inside_one }
}

/// Flags the points after the speed-up peak (the largest speed-up, or the shortest time) and
/// says so; they stay in the non-declining models' fits only when `include` is set. Answers
/// their n.
fn flag_past_peak(points: &mut [PointView], space: Space, include: bool, warnings: &mut Vec<String>) -> Vec<u32> {
    // The peak: the largest speed-up, or the shortest time.
    let peak = points
        .iter()
        .enumerate()
        .max_by(|a, b| {
            let key = |p: &PointView| if space == Space::Time { -p.value } else { p.value };
            key(a.1).total_cmp(&key(b.1)).then(b.0.cmp(&a.0))
        })
        .map(|(_, p)| p.n)
        .unwrap_or(0);
    let past: Vec<u32> = points.iter().filter(|p| p.n > peak).map(|p| p.n).collect();
    for p in points.iter_mut() {
        p.past_peak = p.n > peak;
        p.in_monotone_fits = include || !p.past_peak;
    }
    if !past.is_empty() {
        let list: Vec<String> = past.iter().map(|n| n.to_string()).collect();
        // Made from the list when compiling: making the sentence at run time cost the page 90
        // bytes it does not have.
        let (falling, monotone) = (CAN_FALL, CANNOT_FALL);
        warnings.push(if include {
            format!(
                "n = {} lie past the speed-up peak at n = {peak}; they are included in every fit as asked, though only {falling} can follow a decline",
                list.join(", ")
            )
        } else {
            format!(
                "n = {} lie past the speed-up peak at n = {peak}: left out of the {monotone} fits (which cannot fall); {falling} fits every point",
                list.join(", ")
            )
        });
    }
    past
}

/// Efficiency S/n and the Karp–Flatt serial fraction (1/S − 1/n)/(1 − 1/n) of every point with
/// a speed-up; speed-ups above n are flagged and said.
fn efficiency_and_karp_flatt(points: &mut [PointView], warnings: &mut Vec<String>) {
    let mut super_linear = Vec::new();
    for p in points.iter_mut() {
        if let Some(s) = p.speedup {
            let n = f64::from(p.n);
            p.efficiency = Some(s / n);
            p.super_linear = s > n * (1.0 + 1e-9);
            if p.super_linear {
                super_linear.push(p.n.to_string());
            }
            if p.n > 1 {
                let e = (1.0 / s - 1.0 / n) / (1.0 - 1.0 / n);
                p.karp_flatt = e.is_finite().then_some(e);
            }
        }
    }
    if !super_linear.is_empty() {
        warnings.push(format!(
            "speed-up above n at n = {} (super-linear, e.g. from caches); kept, but no model here can follow it",
            super_linear.join(", ")
        ));
    }
}

/// The quantiles measured for a model's predictions at horizon h, from `counts` measured
/// counts.
pub fn quantiles(model: Model, h: f64, counts: usize) -> Quantiles {
    quantiles_named(model.name(), h, counts)
}

/// [`quantiles`] by the model's name. A family `make validate` has not measured yet takes the
/// widest of the measured ones' quantiles in the cell.
pub(super) fn quantiles_named(name: &str, h: f64, counts: usize) -> Quantiles {
    let (c, b) = (forecast::count_class(counts), forecast::horizon_band(h));
    match calibration::MODELS.iter().find(|(n, _)| *n == name) {
        Some((_, q)) => q[c][b],
        None => calibration::MODELS.iter().fold(Quantiles { low: 0.0, high: 0.0 }, |w, (_, q)| Quantiles {
            low: w.low.min(q[c][b].low),
            high: w.high.max(q[c][b].high),
        }),
    }
}

/// The prediction of a fit at n, with the range measured for its model at scale `u` (the
/// forecast's at n; see `forecast`), from `counts` measured counts.
pub fn predict(f: &Fit, n: u32, horizon: f64, u: f64, counts: usize) -> Prediction {
    let x = f64::from(n);
    let s = f.speedup_at(x);
    let q = quantiles(f.model, horizon, counts);
    // A time-like value e^(q·u) times larger is a speed-up that much smaller.
    let (lo, hi) = forecast::range(s, u, Quantiles { low: -q.high, high: -q.low });
    let time_s = f.time_at(x).map(|t| {
        let (tl, th) = forecast::range(t, u, q);
        (t, tl, th)
    });
    Prediction {
        n,
        speedup: s,
        speedup_low: lo,
        speedup_high: hi,
        efficiency: s / x,
        time_s,
        horizon,
        scale: u,
        nodes: None,
        crosses_nodes: false,
    }
}

/// The best model among the ranked fits, and why.
fn choose_best(fits: &[Fit], space: Space) -> (Option<Model>, String) {
    let ranked: Vec<&Fit> = fits.iter().filter(|f| f.ranked).collect();
    let unit = if space == Space::Time { " s" } else { "" };
    let by = |key: &dyn Fn(&Fit) -> Option<f64>| -> Vec<(&Fit, f64)> {
        // The lowest and the runner-up (fits come in the order of MODELS, so ties go to the
        // first), found by two passes rather than a sort.
        let v: Vec<(&Fit, f64)> = ranked.iter().filter_map(|f| key(f).map(|x| (*f, x))).collect();
        let low = |skip: Option<usize>| {
            (0..v.len()).filter(|i| Some(*i) != skip).fold(None, |b: Option<usize>, i| match b {
                Some(j) if v[j].1 <= v[i].1 => Some(j),
                _ => Some(i),
            })
        };
        let first = low(None);
        let second = first.and_then(|f| low(Some(f)));
        [first, second].into_iter().flatten().filter_map(|i| v.get(i).copied()).collect::<Vec<_>>()
    };
    let loo_cmp = |best: &Fit, other: &Fit| -> String {
        match (best.loo, other.loo) {
            (Some(a), Some(b)) => format!(
                "; leave-one-out error {}{unit} vs {}{unit} for {}",
                fmt_num(a, 3),
                fmt_num(b, 3),
                other.model.name()
            ),
            _ => String::new(),
        }
    };
    if let [only] = ranked[..] {
        let what = only.aicc.map(|a| format!(" (AICc {})", fmt_num(a, 4))).unwrap_or_default();
        return (Some(only.model), format!("the only model fitted and ranked{what}"));
    }
    let aic = by(&|f| f.aicc);
    if let Some((b, v)) = aic.first() {
        let mut s = format!("lowest AICc ({})", fmt_num(*v, 4));
        if let Some((o, w)) = aic.get(1) {
            s.push_str(&format!("; next {} at {} (Δ {})", o.model.name(), fmt_num(*w, 4), fmt_num(w - v, 3)));
            s.push_str(&loo_cmp(b, o));
            if w - v < 2.0 {
                s.push_str("; a difference under 2: the data hardly tell them apart");
            }
        }
        return (Some(b.model), s);
    }
    let loo = by(&|f| f.loo);
    if let Some((b, v)) = loo.first() {
        let mut s = format!("lowest leave-one-out error ({}{unit}); too few points for AICc", fmt_num(*v, 3));
        if let Some((o, w)) = loo.get(1) {
            s.push_str(&format!("; next {} at {}{unit}", o.model.name(), fmt_num(*w, 3)));
        }
        s.push_str(
            "; so few points cannot tell the models apart: beyond the data use the forecast, whose ranges widen where the models disagree",
        );
        return (Some(b.model), s);
    }
    let sse = by(&|f| Some(f.sse));
    if let Some((b, v)) = sse.first() {
        let s = format!(
            "lowest squared error ({}); too few points for AICc or leave-one-out, so the choice is tentative: measure more points",
            fmt_num(*v, 3)
        );
        return (Some(b.model), s);
    }
    (None, "no model could be fitted".into())
}

/// Where to measure next, from the fitted curve: a small n in the linear part (efficiency
/// still ≥ 0.9), one in the transition (efficiency near 0.5) and one near the peak (95 % of
/// the largest speed-up), as the thesis recommends (chapter 6.6, observation 3).
fn advise(f: &Fit, points: &[PointView]) -> (Vec<Suggestion>, String) {
    let nmax = points.iter().map(|p| p.n).max().unwrap_or(1).max(2);
    let far = (f64::from(nmax) * 64.0).clamp(1024.0, 1e7);
    // Largest speed-up on a log grid up to far; its n.
    let grid: Vec<f64> = (0..=200).map(|i| (far.ln() * f64::from(i) / 200.0).exp().round()).collect();
    // The speed-up at each grid point, evaluated once for the searches below.
    let at: Vec<f64> = grid.iter().map(|&n| f.speedup_at(n)).collect();
    let (mut n_top, mut s_top) = (1.0, f.speedup_at(1.0));
    for (&n, &s) in grid.iter().zip(&at) {
        if s > s_top * (1.0 + 1e-9) {
            n_top = n;
            s_top = s;
        }
    }
    // The first grid point (n, S(n)) that meets `pred`.
    let first = |pred: &dyn Fn(f64, f64) -> bool| grid.iter().zip(&at).find(|(&n, &s)| pred(n, s)).map(|(&n, _)| n);
    let n_peak = first(&|_, s| s >= 0.95 * s_top).unwrap_or(n_top).max(2.0);
    let mut n_lin = 2.0;
    let mut c = 4.0;
    while c < n_peak && f.speedup_at(c) / c >= 0.9 {
        n_lin = c;
        c *= 2.0;
    }
    // The transition: where efficiency falls to one half, or halfway (geometrically) between
    // the linear part and the peak when that comes only after the peak.
    let mut n_trans = first(&|n, s| s / n <= 0.5).unwrap_or(n_peak);
    if n_trans >= n_peak || n_trans <= n_lin {
        n_trans = (n_lin * n_peak).sqrt();
    }
    let measured = |n: u32| points.iter().any(|p| p.n == n);
    let mut out: Vec<Suggestion> = Vec::new();
    for (role, n) in [("linear", n_lin), ("transition", n_trans), ("peak", n_peak)] {
        let n = n.round().clamp(1.0, 1e9) as u32;
        if out.iter().any(|s| s.n == n) {
            continue;
        }
        let s = f.speedup_at(f64::from(n));
        let text = match role {
            "linear" => format!("n = {n} in the linear part (efficiency {})", fmt_num(s / f64::from(n), 2)),
            "transition" => format!("n = {n} in the transition (efficiency {})", fmt_num(s / f64::from(n), 2)),
            _ => {
                format!("n = {n} near the peak (speed-up {}, 95 % of the largest {})", fmt_num(s, 3), fmt_num(s_top, 3))
            }
        };
        out.push(Suggestion { n, role, already_measured: measured(n), text });
    }
    let new: Vec<&str> = out.iter().filter(|s| !s.already_measured).map(|s| s.text.as_str()).collect();
    let have: Vec<String> = out.iter().filter(|s| s.already_measured).map(|s| s.n.to_string()).collect();
    let mut text = format!("From the {} curve: ", f.model.label());
    if new.is_empty() {
        text.push_str("the points that pin the curve down (a small n, the transition, near the peak) are all measured");
    } else {
        text.push_str(&format!("measure {}", new.join("; ")));
    }
    if !have.is_empty() && !new.is_empty() {
        text.push_str(&format!(" (n = {} already measured)", have.join(", ")));
    }
    text.push('.');
    (out, text)
}

/// The 6-point speed-up data sets the benchmark fits (natively and in the browser): the
/// thesis's Example 5.1 and five curves from the models with small deterministic noise.
pub fn benchmark_datasets() -> Vec<Vec<RawPoint>> {
    let ns = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    let ex = [2.00, 3.92, 7.25, 13.29, 20.23, 24.95];
    let curves: [&dyn Fn(f64) -> f64; 6] = [
        &|n| ex[(n.log2() as usize).saturating_sub(1).min(5)],
        &|n| downey(40.0, 0.3, n),
        &|n| downey(25.0, 1.8, n),
        &|n| 1.0 / (0.02 + 0.98 / n),
        &|n| n / (1.0 + 0.03 * (n - 1.0) + 0.0005 * n * (n - 1.0)),
        &|n| smirni(0.97, n),
    ];
    curves
        .iter()
        .enumerate()
        .map(|(c, f)| {
            ns.iter()
                .enumerate()
                .map(|(i, &n)| {
                    // Deterministic ±1.5 % wobble, none for the thesis's measured data.
                    let wobble = if c == 0 { 0.0 } else { 0.015 * (((i * 7 + c * 3) % 5) as f64 - 2.0) / 2.0 };
                    RawPoint { n, value: f(n) * (1.0 + wobble), weight: None, nodes: None, line: None }
                })
                .collect()
        })
        .collect()
}

/// Runs the benchmark's work once: every data set analysed with `models` (with leave-one-out,
/// uncertainties and advice, as the page does); returns how many analyses ran.
pub fn benchmark_run(models: &[Model]) -> usize {
    let opts = Options { models: models.to_vec(), targets: vec![128, 256], ..Options::default() };
    benchmark_datasets().iter().filter(|d| analyse("points", d, Measure::Speedup, &opts).is_ok()).count()
}
