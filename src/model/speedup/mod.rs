//! Speed-up curve fitting (seed 004: Lan, "Investigation of Downey model for speedup
//! prediction", Windsor 2007, chapters 3 and 5; spec `speedup-fit.md`).
//!
//! The user gives measured points (n, T(n)) in seconds or (n, S(n)) with S = T(1)/T(n), n a
//! whole number of processes ≥ 1, optional positive weights. Five models are fitted by
//! weighted least squares, all on the same residuals so they compare on equal terms:
//!
//! - Downey (A = average parallelism ≥ 1, σ = variance coefficient ≥ 0), low variance σ ≤ 1:
//!   S = A·n/(A + σ/2·(n−1)) for n ≤ A, A·n/(σ(A−½) + n(1−σ/2)) for A ≤ n ≤ 2A−1, A beyond;
//!   high variance σ ≥ 1: S = n·A(σ+1)/(σ(n+A−1) + A) for n ≤ A + Aσ − σ, A beyond
//!   (thesis eqs. 3.5 and 3.7). The two agree at σ = 1; σ = 0 is min(n, A) and σ → ∞ is
//!   A·n/(A + n − 1).
//! - Amdahl/Dowdy: T(n) = c1 + c2/n (eq. 3.1), c1, c2 ≥ 0; for speed-ups S = 1/(c1 + c2/n),
//!   c1 and c2 in units of T(1). Started by linear least squares in 1/n, then polished on the
//!   same residuals as the others.
//! - Chiang: S = (1+β)n/(n+β), β ≥ 0 (eq. 3.2). Smirni: S = (1−rⁿ)/(1−r), 0 ≤ r ≤ 1 (eq. 3.3).
//! - Gunther's universal scalability law (beyond the thesis): S = n/(1 + σ(n−1) + κn(n−1)),
//!   σ, κ ≥ 0; the only model here that can fall after its peak.
//!
//! What is fitted: speed-ups as given; times with an n = 1 run are turned into speed-ups
//! T(1)/T(n) (the thesis's way) and T(1) is taken as measured; times without an n = 1 run are
//! fitted as T(n) = T1/S(n) with T1 a parameter (Amdahl's c1 + c2/n already is a time).
//!
//! The solver is a small bounded Levenberg–Marquardt (Marquardt's diagonal scaling, central
//! difference Jacobian, bounds by projection with an active set), run from several starts
//! — for Downey on both sides of σ = 1 — keeping the lowest squared error. Uncertainties come
//! from the Jacobian covariance at the optimum, s²(JᵀWJ)⁻¹ with s² = SSE/(m−k); the band and
//! the prediction ranges are ±2 standard errors of the fitted curve (delta method): the
//! uncertainty of the curve, not of one new measurement.
//!
//! Points after the speed-up peak (n above the n of the largest speed-up, or of the shortest
//! time) are flagged and, by default, left out of the fits of the four models that cannot
//! fall (Downey, Amdahl, Chiang, Smirni), as the thesis advises (chapter 6.6); USL always
//! sees every point. Model comparison: AICc, then leave-one-out error, then squared error.


// Dense k×k algebra (k ≤ 4) reads best with indices.
#![allow(clippy::needless_range_loop)]

pub mod page;

use crate::model::fit::line;
use crate::model::{fmt_num, InputError};

/// A speed-up model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Model {
    Downey,
    Amdahl,
    Chiang,
    Smirni,
    Usl,
}

/// Most measured points (rows) one analysis takes.
pub const MAX_POINTS: usize = 500;
/// Most points for which leave-one-out errors are computed.
pub const MAX_LOO_POINTS: usize = 16;

pub const MODELS: [Model; 5] = [Model::Downey, Model::Amdahl, Model::Chiang, Model::Smirni, Model::Usl];

impl Model {
    /// The name used in the CLI and in field values.
    pub fn name(self) -> &'static str {
        ["downey", "amdahl", "chiang", "smirni", "usl"][self as usize]
    }
    /// The name as the page shows it.
    pub fn label(self) -> &'static str {
        ["Downey", "Amdahl/Dowdy", "Chiang", "Smirni", "USL (Gunther)"][self as usize]
    }
    pub fn from_name(s: &str) -> Option<Model> {
        MODELS.iter().copied().find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }
    /// Names of the shape parameters (without a fitted T1).
    pub fn param_names(self) -> &'static [&'static str] {
        match self {
            Model::Downey => &["A", "sigma"],
            Model::Amdahl => &["c1", "c2"],
            Model::Chiang => &["beta"],
            Model::Smirni => &["r"],
            Model::Usl => &["sigma", "kappa"],
        }
    }
    /// Whether the model's speed-up can fall as n grows.
    pub fn can_decline(self) -> bool {
        self == Model::Usl
    }
    /// Lower and upper bounds of the shape parameters.
    fn bounds(self) -> ([f64; 2], [f64; 2]) {
        match self {
            Model::Downey => ([1.0, 0.0], [1e7, 1e4]),
            Model::Amdahl => ([0.0, 0.0], [1e300, 1e300]),
            Model::Chiang => ([0.0, 0.0], [1e9, 0.0]),
            Model::Smirni => ([0.0, 0.0], [1.0, 0.0]),
            Model::Usl => ([0.0, 0.0], [100.0, 100.0]),
        }
    }
}

/// Downey's low-variance speed-up (σ ≤ 1), eq. 3.5. Requires A ≥ 1, σ ≥ 0, n ≥ 1.
pub fn downey_low(a: f64, sigma: f64, n: f64) -> f64 {
    if n <= a {
        a * n / (a + sigma / 2.0 * (n - 1.0))
    } else if n <= 2.0 * a - 1.0 {
        a * n / (sigma * (a - 0.5) + n * (1.0 - sigma / 2.0))
    } else {
        a
    }
}

/// Downey's high-variance speed-up (σ ≥ 1), eq. 3.7. Requires A ≥ 1, σ ≥ 0, n ≥ 1.
pub fn downey_high(a: f64, sigma: f64, n: f64) -> f64 {
    if n <= a + a * sigma - sigma {
        n * a * (sigma + 1.0) / (sigma * (n + a - 1.0) + a)
    } else {
        a
    }
}

/// Downey's speed-up, the variant chosen by σ.
pub fn downey(a: f64, sigma: f64, n: f64) -> f64 {
    if sigma <= 1.0 {
        downey_low(a, sigma, n)
    } else {
        downey_high(a, sigma, n)
    }
}

/// Smirni's (1 − rⁿ)/(1 − r), computed without cancellation near r = 1 (where it is n).
pub fn smirni(r: f64, n: f64) -> f64 {
    let d = 1.0 - r;
    if d < 1e-12 {
        n
    } else if r <= 0.0 {
        1.0
    } else {
        -(n * (-d).ln_1p()).exp_m1() / d
    }
}

/// The model's speed-up shape at n for shape parameters `p` (Amdahl: 1/(c1 + c2/n)).
fn shape(model: Model, p: &[f64; 4], n: f64) -> f64 {
    match model {
        Model::Downey => downey(p[0], p[1], n),
        Model::Amdahl => 1.0 / (p[0] + p[1] / n).max(1e-300),
        Model::Chiang => (1.0 + p[0]) * n / (n + p[0]),
        Model::Smirni => smirni(p[0], n),
        Model::Usl => n / (1.0 + p[0] * (n - 1.0) + p[1] * n * (n - 1.0)),
    }
}

/// What the residuals are measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Speed-ups (given, or T(1)/T(n) from times with an n = 1 run).
    Speedup,
    /// Times in seconds, without an n = 1 run: T1 is a fitted parameter.
    Time,
}

/// The kind of values the user gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Speedup,
    TimeS,
}

/// A point as given, before validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawPoint {
    pub n: f64,
    pub value: f64,
    pub weight: Option<f64>,
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
}

impl Default for Options {
    fn default() -> Self {
        Options { models: MODELS.to_vec(), include_past_peak: false, targets: Vec::new(), leave_one_out: true }
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

/// A prediction at one n.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    pub n: u32,
    pub speedup: f64,
    pub speedup_low: f64,
    pub speedup_high: f64,
    pub efficiency: f64,
    /// (time, low, high) in seconds, where times were given.
    pub time_s: Option<(f64, f64, f64)>,
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
    pub converged: bool,
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
    pub warnings: Vec<String>,
}

impl Analysis {
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
fn prepare(field: &str, raw: &[RawPoint], measure: Measure, warnings: &mut Vec<String>) -> Result<Vec<PointView>, InputError> {
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
            let msg = format!("the {what} must be from {}{unit} to {}{unit}, found {}", fmt_num(lo, 3), fmt_num(hi, 3), fmt_num(r.value, 6));
            return Err(point_error(field, i, r.line, key, 2, msg));
        }
        let w = r.weight.unwrap_or(1.0);
        if !(w.is_finite() && w > 0.0 && w < 1e12) {
            let msg = format!("the weight must be a number greater than 0, found {}", fmt_num(w, 6));
            return Err(point_error(field, i, r.line, "weight", 3, msg));
        }
        let n = r.n as u32;
        match pts.iter().position(|p| p.n == n) {
            Some(j) => {
                let p = &mut pts[j]; // ok: j comes from position
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
                pts.insert(at, PointView {
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
                });
            }
        }
    }
    if pts.is_empty() {
        return Err(InputError::new(field, "no points yet: give at least two (n, time) or (n, speed-up) pairs"));
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
                warnings.push(format!("n = {} is given {} times with the same {what}; counted once with their weights added", p.n, vs.len()));
            }
        }
    }
    Ok(pts)
}

/// The fitting problem of one model on one set of points.
struct Problem<'a> {
    model: Model,
    space: Space,
    ns: &'a [f64],
    ys: &'a [f64],
    ws: &'a [f64],
    k: usize,
    lo: [f64; 4],
    hi: [f64; 4],
}

/// Outcome of one Levenberg–Marquardt run.
#[derive(Debug, Clone, Copy)]
struct LmRun {
    p: [f64; 4],
    sse: f64,
    iterations: u32,
    converged: bool,
}

const MAX_ITERATIONS: u32 = 300;

impl Problem<'_> {
    fn new<'a>(model: Model, space: Space, ns: &'a [f64], ys: &'a [f64], ws: &'a [f64]) -> Problem<'a> {
        let (l, h) = model.bounds();
        let shape_k = model.param_names().len();
        let t1 = space == Space::Time && model != Model::Amdahl;
        let k = shape_k + usize::from(t1);
        let mut lo = [0.0; 4];
        let mut hi = [0.0; 4];
        lo[..2].copy_from_slice(&l);
        hi[..2].copy_from_slice(&h);
        if t1 {
            let ymin = ys.iter().copied().fold(f64::INFINITY, f64::min);
            lo[shape_k] = ymin * 1e-9;
            hi[shape_k] = 1e18;
        }
        Problem { model, space, ns, ys, ws, k, lo, hi }
    }

    /// The fitted value at n: a speed-up, or a time.
    fn value(&self, p: &[f64; 4], n: f64) -> f64 {
        value(self.model, self.space, p, n)
    }

    fn sse(&self, p: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
            let r = y - self.value(p, *n);
            s += w * r * r;
        }
        if s.is_finite() {
            s
        } else {
            f64::INFINITY
        }
    }

    fn clamp(&self, p: &mut [f64; 4]) {
        for j in 0..self.k {
            p[j] = p[j].clamp(self.lo[j], self.hi[j]);
        }
    }

    /// d value(n)/d p_j by central differences (one-sided at a bound).
    fn gradient(&self, p: &[f64; 4], n: f64, out: &mut [f64; 4]) {
        for j in 0..self.k {
            let h = 1e-6 * p[j].abs().max(1e-6);
            let (mut a, mut b) = (*p, *p);
            a[j] = (p[j] + h).min(self.hi[j]);
            b[j] = (p[j] - h).max(self.lo[j]);
            let d = a[j] - b[j];
            out[j] = if d > 0.0 { (self.value(&a, n) - self.value(&b, n)) / d } else { 0.0 };
        }
    }

    /// JᵀWJ and JᵀW r at p (r = y − f).
    fn normal(&self, p: &[f64; 4]) -> ([[f64; 4]; 4], [f64; 4]) {
        let mut h = [[0.0; 4]; 4];
        let mut g = [0.0; 4];
        let mut d = [0.0; 4];
        for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
            self.gradient(p, *n, &mut d);
            let r = y - self.value(p, *n);
            for a in 0..self.k {
                g[a] += w * d[a] * r;
                for b in 0..self.k {
                    h[a][b] += w * d[a] * d[b];
                }
            }
        }
        (h, g)
    }

    /// Bounded Levenberg–Marquardt from `start`.
    fn lm(&self, start: [f64; 4]) -> LmRun {
        let k = self.k;
        let mut p = start;
        self.clamp(&mut p);
        let mut f = self.sse(&p);
        let mut lambda = 1e-3;
        for it in 0..MAX_ITERATIONS {
            let (h, g) = self.normal(&p);
            // Parameters at a bound whose gradient points outwards stay put this step.
            let mut free = [false; 4];
            for j in 0..k {
                free[j] = !((p[j] <= self.lo[j] && g[j] < 0.0) || (p[j] >= self.hi[j] && g[j] > 0.0));
            }
            let gnorm = (0..k).filter(|&j| free[j]).map(|j| g[j] * g[j] / h[j][j].max(1e-300)).sum::<f64>();
            if f.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || gnorm <= 1e-24 * f {
                return LmRun { p, sse: f, iterations: it, converged: f.is_finite() };
            }
            let mut stepped = false;
            while lambda < 1e16 {
                let mut m = [[0.0; 4]; 4];
                let mut rhs = [0.0; 4];
                for a in 0..k {
                    if !free[a] {
                        m[a][a] = 1.0;
                        continue;
                    }
                    rhs[a] = g[a];
                    for b in 0..k {
                        if free[b] {
                            m[a][b] = h[a][b];
                        }
                    }
                    m[a][a] += lambda * h[a][a].max(1e-12 * (1.0 + p[a].abs()));
                }
                if let Some(delta) = solve(m, rhs, k) {
                    let mut q = p;
                    for j in 0..k {
                        q[j] += delta[j];
                    }
                    self.clamp(&mut q);
                    let fq = self.sse(&q);
                    if fq < f {
                        let small_step = (0..k).all(|j| (q[j] - p[j]).abs() <= 1e-12 * (p[j].abs() + 1e-9));
                        let small_gain = f - fq <= 1e-15 * f;
                        p = q;
                        f = fq;
                        lambda = (lambda / 10.0).max(1e-12);
                        stepped = true;
                        if small_step || small_gain {
                            return LmRun { p, sse: f, iterations: it + 1, converged: true };
                        }
                        break;
                    }
                }
                lambda *= 10.0;
            }
            if !stepped {
                // No step in any direction lowers the error: a (local) minimum.
                return LmRun { p, sse: f, iterations: it + 1, converged: true };
            }
        }
        LmRun { p, sse: f, iterations: MAX_ITERATIONS, converged: false }
    }

    /// Starting points: the thesis's (A₀ = max S, σ₀ = 0) among them for Downey.
    fn starts(&self) -> Vec<[f64; 4]> {
        let (c1, c2) = amdahl_linear(self.space, self.ns, self.ys, self.ws);
        // T1 for models with a fitted T1: Amdahl's T(1), else the best single-point guess.
        let t1 = if c1 + c2 > 0.0 { c1 + c2 } else { self.ys.iter().zip(self.ns).map(|(y, n)| y * n).fold(0.0, f64::max) };
        let smax = self
            .ys
            .iter()
            .map(|y| if self.space == Space::Time { t1 / y } else { *y })
            .fold(1.0, f64::max);
        let shapes: Vec<[f64; 2]> = match self.model {
            Model::Downey => {
                let mut v = Vec::new();
                for a in [smax, 2.0 * smax] {
                    for s in [0.0, 0.6, 1.2, 4.0] {
                        v.push([a, s]);
                    }
                }
                v
            }
            Model::Amdahl => vec![[c1, c2]],
            Model::Chiang => {
                let beta = if c1 > 0.0 { (c2 / c1).min(1e8) } else { 1e6 };
                vec![[beta, 0.0], [1.0, 0.0], [30.0, 0.0], [1000.0, 0.0]]
            }
            Model::Smirni => vec![[0.5, 0.0], [0.9, 0.0], [0.99, 0.0], [0.999, 0.0]],
            Model::Usl => vec![[0.0, 0.0], [0.01, 1e-4], [0.1, 1e-3], [0.001, 1e-6], [0.3, 0.0]],
        };
        let shape_k = self.model.param_names().len();
        shapes
            .into_iter()
            .map(|s| {
                let mut p = [s[0], s[1], 0.0, 0.0];
                if self.k > shape_k {
                    p[shape_k] = t1.max(self.lo[shape_k]);
                }
                p
            })
            .collect()
    }

    /// The best of the Levenberg–Marquardt runs from every start.
    fn fit(&self) -> LmRun {
        let mut best = LmRun { p: [1.0; 4], sse: f64::INFINITY, iterations: 0, converged: false };
        let keep = |best: &mut LmRun, r: LmRun| {
            if r.sse < best.sse {
                *best = r;
            }
        };
        for s in self.starts() {
            keep(&mut best, self.lm(s));
        }
        if self.model == Model::Downey {
            if let Some(r) = self.downey_ridges(best.p[0]) {
                let iterations = best.iterations;
                keep(&mut best, r);
                best.iterations = best.iterations.max(iterations);
            }
        }
        best
    }

    /// Downey's squared error is not smooth where a measured n sits on a break of the
    /// piecewise curve (n = A, n = 2A − 1, n = A + Aσ − σ) or at σ = 1, and its minimum often
    /// lies on such a ridge, where Levenberg–Marquardt creeps. Each ridge is a curve in
    /// (A, σ); a scan and a golden-section search along every one, then LM from the best
    /// ridge point, find the minimum there. With a fitted T1, T1 is profiled out exactly.
    fn downey_ridges(&self, a_fit: f64) -> Option<LmRun> {
        let a_top = (4.0 * a_fit).clamp(2.0, self.hi[0]);
        // (kind, n, t range): 0 is σ = 1 with A = eᵗ; 1 is A = n, σ = t; 2 is A = (n+1)/2,
        // σ = t (low variance); 3 is σ = eᵗ, A = (n+σ)/(1+σ) (high variance, n on the break).
        let mut ridges = vec![(0u8, 0.0, 0.0, a_top.ln())];
        for &n in self.ns {
            ridges.extend([(1, n, 0.0, 1.0), (2, n, 0.0, 1.0), (3, n, 0.0, self.hi[1].ln())]);
        }
        let point = |kind: u8, n: f64, t: f64| match kind {
            0 => (t.exp(), 1.0),
            1 => (n, t),
            2 => ((n + 1.0) / 2.0, t),
            _ => ((n + t.exp()) / (1.0 + t.exp()), t.exp()),
        };
        let mut best: Option<(f64, [f64; 4])> = None;
        for (kind, n, lo, hi) in ridges {
            let eval = |t: f64| {
                let (a, sg) = point(kind, n, t);
                let p = self.profiled([a, sg, 0.0, 0.0]);
                (self.sse(&p), p)
            };
            let (mut bt, mut bf) = (lo, f64::INFINITY);
            const SCAN: usize = 24;
            for i in 0..=SCAN {
                let t = lo + (hi - lo) * i as f64 / SCAN as f64;
                let f = eval(t).0;
                if f < bf {
                    (bt, bf) = (t, f);
                }
            }
            // Golden-section search in the scan cells either side of the best.
            let w = (hi - lo) / SCAN as f64;
            let (mut x0, mut x1) = ((bt - w).max(lo), (bt + w).min(hi));
            let g = 0.5 * (5f64.sqrt() - 1.0);
            let (mut c, mut d) = (x1 - g * (x1 - x0), x0 + g * (x1 - x0));
            let (mut fc, mut fd) = (eval(c).0, eval(d).0);
            // 30 steps shrink the cell to 1e-6 of itself; Levenberg–Marquardt polishes after.
            for _ in 0..30 {
                if fc < fd {
                    (x1, d, fd) = (d, c, fc);
                    c = x1 - g * (x1 - x0);
                    fc = eval(c).0;
                } else {
                    (x0, c, fc) = (c, d, fd);
                    d = x0 + g * (x1 - x0);
                    fd = eval(d).0;
                }
            }
            for t in [bt, 0.5 * (x0 + x1)] {
                let (f, p) = eval(t);
                if best.is_none_or(|b| f < b.0) {
                    best = Some((f, p));
                }
            }
        }
        best.map(|(_, p)| self.lm(p))
    }

    /// Fills in the fitted T1 for fixed shape parameters (least squares: T1 = Σwyu/Σwu²
    /// with u = 1/S); other parameters unchanged.
    fn profiled(&self, mut p: [f64; 4]) -> [f64; 4] {
        let shape_k = self.model.param_names().len();
        self.clamp(&mut p);
        if self.k > shape_k {
            let (mut num, mut den) = (0.0, 0.0);
            for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
                let u = 1.0 / shape(self.model, &p, *n);
                num += w * y * u;
                den += w * u * u;
            }
            p[shape_k] = (num / den).clamp(self.lo[shape_k], self.hi[shape_k]);
        }
        p
    }
}

/// The fitted value of a model at n: speed-up in [`Space::Speedup`], time in [`Space::Time`].
fn value(model: Model, space: Space, p: &[f64; 4], n: f64) -> f64 {
    match (space, model) {
        (Space::Speedup, _) => shape(model, p, n),
        (Space::Time, Model::Amdahl) => p[0] + p[1] / n,
        (Space::Time, _) => p[model.param_names().len()] / shape(model, p, n),
    }
}

/// Weighted linear least squares of y = c1 + c2/n (times) or 1/S = c1 + c2/n (speed-ups,
/// weighted by S⁴ so that the residuals approximate those in S), with c1, c2 ≥ 0: a negative
/// intercept gives the line through the origin, a negative slope the weighted mean.
fn amdahl_linear(space: Space, ns: &[f64], ys: &[f64], ws: &[f64]) -> (f64, f64) {
    let pts: Vec<(f64, f64, f64)> = ns
        .iter()
        .zip(ys)
        .zip(ws)
        .map(|((n, y), w)| match space {
            Space::Time => (1.0 / n, *y, *w),
            Space::Speedup => (1.0 / n, 1.0 / y, w * y.powi(4)),
        })
        .collect();
    let mean = || {
        let sw: f64 = pts.iter().map(|p| p.2).sum();
        pts.iter().map(|p| p.2 * p.1).sum::<f64>() / sw
    };
    let (c1, c2) = match line::fit(&pts) {
        Some(l) if l.intercept < 0.0 => (0.0, line::slope_through(0.0, 0.0, &pts).unwrap_or(0.0)),
        Some(l) => (l.intercept, l.slope),
        // 1/n does not vary: one process count.
        None => (0.0, line::slope_through(0.0, 0.0, &pts).unwrap_or(0.0)),
    };
    let (c1, c2) = if c2 < 0.0 { (mean(), 0.0) } else { (c1, c2) };
    if !(c1.is_finite() && c2.is_finite()) || c1 + c2 <= 0.0 {
        return (0.0, 1.0);
    }
    (c1, c2)
}

/// Solves the k×k system m·x = b by Gaussian elimination with partial pivoting.
fn solve(mut m: [[f64; 4]; 4], mut b: [f64; 4], k: usize) -> Option<[f64; 4]> {
    for c in 0..k {
        let piv = (c..k).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[piv][c].abs().partial_cmp(&1e-300) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        m.swap(c, piv);
        b.swap(c, piv);
        for r in c + 1..k {
            let f = m[r][c] / m[c][c];
            for j in c..k {
                m[r][j] -= f * m[c][j];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; 4];
    for c in (0..k).rev() {
        let s: f64 = (c + 1..k).map(|j| m[c][j] * x[j]).sum();
        x[c] = (b[c] - s) / m[c][c];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Speed-up at n of a model with parameters p fitted in `space`.
fn speedup_of(model: Model, space: Space, p: &[f64; 4], n: f64) -> f64 {
    match (space, model) {
        (Space::Time, Model::Amdahl) => (p[0] + p[1]) / (p[0] + p[1] / n).max(1e-300),
        _ => shape(model, p, n),
    }
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
            (Space::Time, Model::Amdahl) => Some(self.p[0] + self.p[1]),
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
        let mut d = [0.0; 4];
        for j in 0..self.k {
            let h = 1e-6 * self.p[j].abs().max(1e-6);
            let (mut a, mut b) = (self.p, self.p);
            a[j] = (self.p[j] + h).min(self.hi[j]);
            b[j] = (self.p[j] - h).max(self.lo[j]);
            let span = a[j] - b[j];
            d[j] = if span > 0.0 { (g(&a) - g(&b)) / span } else { 0.0 };
        }
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

/// Fits one model to (n, y, w); `t1_measured` is T(1) in seconds when known (speed-up space).
fn fit_model(model: Model, space: Space, ns: &[f64], ys: &[f64], ws: &[f64], t1_measured: Option<f64>, loo: bool) -> Result<Fit, String> {
    let pr = Problem::new(model, space, ns, ys, ws);
    let (m, k) = (ns.len(), pr.k);
    if m < k {
        return Err(format!(
            "needs at least {k} points for its {k} parameter{}, has {m}",
            if k == 1 { "" } else { "s" }
        ));
    }
    let run = pr.fit();
    if !(run.sse.is_finite() && run.p.iter().all(|x| x.is_finite())) {
        return Err("the fit found no finite solution".into());
    }
    let mut notes = Vec::new();
    if !run.converged {
        notes.push(format!(
            "did not converge in {} iterations; the best parameters found are shown",
            run.iterations
        ));
    }
    // Covariance over the parameters not held at a bound.
    let (h, g) = pr.normal(&run.p);
    let mut cov = None;
    let names = model.param_names();
    let at_bound: Vec<bool> = (0..k)
        .map(|j| (run.p[j] <= pr.lo[j] && g[j] <= 0.0) || (run.p[j] >= pr.hi[j] && g[j] >= 0.0))
        .collect();
    if m > k {
        let s2 = run.sse / (m - k) as f64;
        let mut c = [[0.0; 4]; 4];
        let mut ok = true;
        for col in 0..k {
            if at_bound[col] {
                continue;
            }
            let mut mm = [[0.0; 4]; 4];
            for a in 0..k {
                for b in 0..k {
                    mm[a][b] = if at_bound[a] || at_bound[b] { f64::from(u8::from(a == b)) } else { h[a][b] };
                }
            }
            let mut e = [0.0; 4];
            e[col] = 1.0;
            match solve(mm, e, k) {
                Some(x) => {
                    for a in 0..k {
                        if !at_bound[a] {
                            c[a][col] = s2 * x[a];
                        }
                    }
                }
                None => ok = false,
            }
        }
        if ok && c.iter().flatten().all(|x| x.is_finite()) {
            cov = Some(c);
        } else {
            notes.push("the data do not pin the parameters down (singular Jacobian): no uncertainty".into());
        }
    } else {
        notes.push(format!("{m} points for {k} parameters: the curve passes through them, no uncertainty"));
    }
    let params = (0..k)
        .map(|j| Param {
            name: names.get(j).copied().unwrap_or("T1"),
            value: run.p[j],
            std_err: if at_bound[j] { None } else { cov.map(|c| c[j][j].max(0.0).sqrt()).filter(|x| x.is_finite()) },
        })
        .collect();
    let residuals = ns.iter().zip(ys).map(|(n, y)| (*n as u32, y - pr.value(&run.p, *n))).collect();
    let aicc = aicc(run.sse, ys, ws, k);
    let loo = if loo && m > k { leave_one_out(model, space, ns, ys, ws) } else { None };
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
        converged: run.converged,
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

/// AICc with K = k + 1 (the noise variance counts); needs m ≥ K + 2. The squared error is
/// floored at 1e-12 of Σ w y² so that exact fits do not run off to −∞.
fn aicc(sse: f64, ys: &[f64], ws: &[f64], k: usize) -> Option<f64> {
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

fn leave_one_out(model: Model, space: Space, ns: &[f64], ys: &[f64], ws: &[f64]) -> Option<f64> {
    let m = ns.len();
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..m {
        let pick = |v: &[f64]| -> Vec<f64> { v.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, x)| *x).collect() };
        let (n2, y2, w2) = (pick(ns), pick(ys), pick(ws));
        let pr = Problem::new(model, space, &n2, &y2, &w2);
        let run = pr.fit();
        let e = ys[i] - pr.value(&run.p, ns[i]); // ok: i < m
        if !e.is_finite() {
            return None;
        }
        num += ws[i] * e * e;
        den += ws[i];
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
    for p in &mut points {
        p.past_peak = p.n > peak;
        p.in_monotone_fits = opts.include_past_peak || !p.past_peak;
    }
    if !past.is_empty() {
        let list: Vec<String> = past.iter().map(|n| n.to_string()).collect();
        warnings.push(if opts.include_past_peak {
            format!(
                "n = {} lie past the speed-up peak at n = {peak}; they are included in every fit as asked, though only USL can follow a decline",
                list.join(", ")
            )
        } else {
            format!(
                "n = {} lie past the speed-up peak at n = {peak}: left out of the Downey, Amdahl, Chiang and Smirni fits (which cannot fall); USL fits every point",
                list.join(", ")
            )
        });
    }
    let models: Vec<Model> = MODELS.iter().copied().filter(|m| opts.models.contains(m)).collect();
    let all: Vec<&PointView> = points.iter().collect();
    let mono: Vec<&PointView> = points.iter().filter(|p| p.in_monotone_fits).collect();
    let cols = |set: &[&PointView]| -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        (set.iter().map(|p| f64::from(p.n)).collect(), set.iter().map(|p| p.value).collect(), set.iter().map(|p| p.weight).collect())
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
            Err(reason) => skipped.push(Skipped { model, reason }),
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
    let mut super_linear = Vec::new();
    for p in &mut points {
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
    for f in &mut fits {
        f.predictions = opts.targets.iter().map(|&n| predict(f, n)).collect();
    }
    let (advice, advice_text) = match best.and_then(|m| fits.iter().find(|f| f.model == m)) {
        Some(f) => advise(f, &points),
        None => (Vec::new(), String::new()),
    };
    Ok(Analysis { space, measure, t1_measured, points, fits, skipped, best, best_reason, advice, advice_text, warnings })
}

/// The prediction of a fit at n.
pub fn predict(f: &Fit, n: u32) -> Prediction {
    let x = f64::from(n);
    let (s, lo, hi) = f.speedup_band(x);
    Prediction { n, speedup: s, speedup_low: lo, speedup_high: hi, efficiency: s / x, time_s: f.time_band(x) }
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
    let (mut n_top, mut s_top) = (1.0, f.speedup_at(1.0));
    for &n in &grid {
        let s = f.speedup_at(n);
        if s > s_top * (1.0 + 1e-9) {
            n_top = n;
            s_top = s;
        }
    }
    let first = |pred: &dyn Fn(f64) -> bool| grid.iter().copied().find(|&n| pred(n));
    let n_peak = first(&|n| f.speedup_at(n) >= 0.95 * s_top).unwrap_or(n_top).max(2.0);
    let mut n_lin = 2.0;
    let mut c = 4.0;
    while c < n_peak && f.speedup_at(c) / c >= 0.9 {
        n_lin = c;
        c *= 2.0;
    }
    // The transition: where efficiency falls to one half, or halfway (geometrically) between
    // the linear part and the peak when that comes only after the peak.
    let mut n_trans = first(&|n| f.speedup_at(n) / n <= 0.5).unwrap_or(n_peak);
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
            _ => format!("n = {n} near the peak (speed-up {}, 95 % of the largest {})", fmt_num(s, 3), fmt_num(s_top, 3)),
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

/// Fits one model to speed-up points (all weights 1), for the benchmark: the multi-start
/// Levenberg–Marquardt alone, without covariance or leave-one-out.
pub fn fit_speedups(model: Model, ns: &[f64], ss: &[f64]) -> Option<(Vec<f64>, f64)> {
    let ws = vec![1.0; ns.len()];
    let pr = Problem::new(model, Space::Speedup, ns, ss, &ws);
    if ns.len() < pr.k {
        return None;
    }
    let r = pr.fit();
    Some((r.p[..pr.k].to_vec(), r.sse))
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
                    RawPoint { n, value: f(n) * (1.0 + wobble), weight: None, line: None }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_many_points_are_refused_not_fitted() {
        let raw: Vec<RawPoint> =
            (1..=MAX_POINTS + 1).map(|n| RawPoint { n: n as f64, value: 1.0, weight: None, line: None }).collect();
        let e = analyse("points", &raw, Measure::Speedup, &Options::default()).expect_err("too many");
        assert!(e.message.contains("more than the 500"), "{e}");
        let ok = analyse("points", &raw[..MAX_POINTS], Measure::Speedup, &Options::default()).expect("fits");
        assert!(ok.warnings.iter().any(|w| w.contains("leave-one-out errors are not computed above 16")), "{:?}", ok.warnings);
        assert!(ok.fits.iter().all(|f| f.loo.is_none()));
    }

    fn pts(ns: &[f64], ys: &[f64]) -> Vec<RawPoint> {
        ns.iter().zip(ys).map(|(&n, &value)| RawPoint { n, value, weight: None, line: None }).collect()
    }

    fn run(ns: &[f64], ys: &[f64], measure: Measure) -> Analysis {
        analyse("points", &pts(ns, ys), measure, &Options { targets: vec![128], ..Options::default() }).expect("valid")
    }

    const EX_N: [f64; 6] = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
    const EX_S: [f64; 6] = [2.00, 3.92, 7.25, 13.29, 20.23, 24.95];

    #[test]
    fn example_5_1_beats_the_thesis() {
        let a = run(&EX_N, &EX_S, Measure::Speedup);
        let d = a.fit(Model::Downey).expect("downey fits");
        // The thesis's A = 24.70, σ = 0.74 reproduce its prediction row and SSE ≈ 0.407.
        let thesis_row = [1.97, 3.83, 7.24, 13.07, 20.77, 24.70];
        for (n, want) in EX_N.iter().zip(thesis_row) {
            assert!((downey(24.70, 0.74, *n) - want).abs() < 0.01, "n = {n}");
        }
        let sse_thesis: f64 = EX_N.iter().zip(&EX_S).map(|(n, s)| (s - downey(24.70, 0.74, *n)).powi(2)).sum();
        assert!((sse_thesis - 0.4067).abs() < 1e-3, "thesis SSE {sse_thesis}");
        // Independent brute force (a 0.01 grid over A 20–40, σ 0–3, then a 0.0002 grid around
        // the best cell, in Python): SSE 0.29394 at A = 24.8706, σ = 0.8056.
        assert!(d.sse < 0.29395 && d.sse > 0.2938, "SSE {}", d.sse);
        assert!((d.params[0].value - 24.870).abs() < 0.002 && (d.params[1].value - 0.8056).abs() < 0.0005, "{:?}", d.params);
        assert!(d.converged && d.params.iter().all(|p| p.std_err.is_some_and(|e| e > 0.0)));
        // Every model fitted, a best one with its reason.
        assert_eq!(a.fits.len(), 5);
        assert!(a.best.is_some() && a.best_reason.contains("AICc"), "{}", a.best_reason);
        assert!(!a.advice.is_empty() && a.advice_text.contains("n = "), "{}", a.advice_text);
    }

    /// Brute force over a 2-D box: a 120×120 grid, then four zooms of 41×41 around the best
    /// cell. Independent of the solver: it only evaluates the SSE.
    fn grid2(sse: &dyn Fn(f64, f64) -> f64, a: (f64, f64), b: (f64, f64)) -> f64 {
        // One scan of a box: returns (best SSE, its a, its b).
        let scan = |lo_a: f64, hi_a: f64, lo_b: f64, hi_b: f64, steps: usize, best: (f64, f64, f64)| {
            let mut best = best;
            for i in 0..=steps {
                for j in 0..=steps {
                    let x = lo_a + (hi_a - lo_a) * i as f64 / steps as f64;
                    let y = lo_b + (hi_b - lo_b) * j as f64 / steps as f64;
                    let e = sse(x, y);
                    if e < best.0 {
                        best = (e, x, y);
                    }
                }
            }
            best
        };
        let mut best = scan(a.0, a.1, b.0, b.1, 120, (f64::INFINITY, a.0, b.0));
        let (mut wa, mut wb) = ((a.1 - a.0) / 120.0, (b.1 - b.0) / 120.0);
        for _ in 0..4 {
            let (ca, cb) = (best.1, best.2);
            best = scan((ca - 2.0 * wa).max(a.0), (ca + 2.0 * wa).min(a.1), (cb - 2.0 * wb).max(b.0), (cb + 2.0 * wb).min(b.1), 40, best);
            wa /= 10.0;
            wb /= 10.0;
        }
        best.0
    }

    /// The SSE of a shape S(n) fitted to speed-ups, or to times with T1 profiled out
    /// (T1 = Σ y u / Σ u² with u = 1/S, the exact optimum for fixed shape).
    fn sse_of(space: Space, ns: &[f64], ys: &[f64], s: &dyn Fn(f64) -> f64) -> f64 {
        match space {
            Space::Speedup => ns.iter().zip(ys).map(|(n, y)| (y - s(*n)).powi(2)).sum(),
            Space::Time => {
                let u: Vec<f64> = ns.iter().map(|n| 1.0 / s(*n)).collect();
                let t1 = ys.iter().zip(&u).map(|(y, u)| y * u).sum::<f64>() / u.iter().map(|u| u * u).sum::<f64>();
                ys.iter().zip(&u).map(|(y, u)| (y - t1 * u).powi(2)).sum()
            }
        }
    }

    fn brute_force(model: Model, space: Space, ns: &[f64], ys: &[f64]) -> f64 {
        let smax = match space {
            Space::Speedup => ys.iter().copied().fold(1.0, f64::max),
            Space::Time => 200.0,
        };
        let f = |s: &dyn Fn(f64) -> f64| sse_of(space, ns, ys, s);
        match model {
            Model::Downey => grid2(&|a, sg| f(&|n| downey(a, sg, n)), (1.0, 4.0 * smax), (0.0, 12.0)),
            Model::Usl => grid2(&|sg, k| f(&|n| n / (1.0 + sg * (n - 1.0) + k * n * (n - 1.0))), (0.0, 0.5), (0.0, 0.01)),
            // β on a log scale 1e-3 … 1e6.
            Model::Chiang => grid2(&|lb, _| f(&|n| (1.0 + 10f64.powf(lb)) * n / (n + 10f64.powf(lb))), (-3.0, 6.0), (0.0, 0.0)),
            // r = 1 − 10^x covers r near 1 finely, plus r in [0, 0.9] linearly.
            Model::Smirni => grid2(&|x, _| f(&|n| smirni(1.0 - 10f64.powf(x), n)), (-8.0, 0.0), (0.0, 0.0))
                .min(grid2(&|r, _| f(&|n| smirni(r, n)), (0.0, 0.999), (0.0, 0.0))),
            Model::Amdahl => match space {
                Space::Speedup => {
                    let g = |c1: f64, c2: f64| f(&|n| 1.0 / (c1 + c2 / n));
                    grid2(&g, (0.0, 0.5), (0.0, 1.5)).min(grid2(&g, (0.0, 0.1), (0.5, 1.5)))
                }
                // Times: T = c1 + c2/n, both in seconds.
                Space::Time => {
                    let t = ys.iter().copied().fold(0.0, f64::max) * ns[0];
                    grid2(&|c1, c2| ns.iter().zip(ys).map(|(n, y)| (y - c1 - c2 / n).powi(2)).sum(), (0.0, t / 4.0), (0.0, 2.0 * t))
                }
            },
        }
    }

    #[test]
    fn every_fit_matches_a_brute_force_search() {
        let mut sets: Vec<(Space, Vec<f64>, Vec<f64>)> = vec![(Space::Speedup, EX_N.to_vec(), EX_S.to_vec())];
        for d in benchmark_datasets() {
            sets.push((Space::Speedup, d.iter().map(|p| p.n).collect(), d.iter().map(|p| p.value).collect()));
        }
        // Times without an n = 1 run: T1 = 1000 s with Downey A = 30, σ = 1.4 and a wobble.
        let ns = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0];
        let ts: Vec<f64> = ns.iter().enumerate().map(|(i, n)| 1000.0 / downey(30.0, 1.4, *n) * (1.0 + 0.01 * ((i % 3) as f64 - 1.0))).collect();
        sets.push((Space::Time, ns.to_vec(), ts));
        for (space, ns, ys) in &sets {
            let ws = vec![1.0; ns.len()];
            for model in MODELS {
                let fit = fit_model(model, *space, ns, ys, &ws, None, false).expect("fits");
                let bf = brute_force(model, *space, ns, ys);
                assert!(
                    fit.sse <= bf * (1.0 + 1e-6) + 1e-12,
                    "{model:?} {space:?} on {ys:?}: LM {} > brute force {bf} at {:?}",
                    fit.sse,
                    fit.params
                );
                // And the brute force is no fluke: it comes close to the solver's optimum.
                assert!(bf <= fit.sse * 1.05 + 1e-9, "{model:?}: brute force {bf} far above LM {} at {:?}", fit.sse, fit.params);
            }
        }
    }

    #[test]
    fn times_without_n1_fit_t1() {
        // Exact Amdahl times, T(n) = 20 + 980/n seconds: T1 = 1000 s, linear least squares exact.
        let ns = [2.0, 4.0, 8.0, 16.0, 32.0];
        let ts: Vec<f64> = ns.iter().map(|n| 20.0 + 980.0 / n).collect();
        let a = run(&ns, &ts, Measure::TimeS);
        assert_eq!(a.space, Space::Time);
        let am = a.fit(Model::Amdahl).expect("amdahl");
        assert!((am.params[0].value - 20.0).abs() < 1e-6 && (am.params[1].value - 980.0).abs() < 1e-5, "{:?}", am.params);
        assert!((am.t1_s().unwrap_or(0.0) - 1000.0).abs() < 1e-5);
        // Chiang is Amdahl with S(1) = 1: β = c2/c1 = 49, T1 = 1000.
        let ch = a.fit(Model::Chiang).expect("chiang");
        assert!((ch.params[0].value - 49.0).abs() < 1e-3 && (ch.params[1].value - 1000.0).abs() < 1e-2, "{:?}", ch.params);
        assert_eq!(ch.params[1].name, "T1");
        let p = &am.predictions[0];
        let (t, lo, hi) = p.time_s.expect("times given");
        assert!((t - (20.0 + 980.0 / 128.0)).abs() < 1e-6 && lo <= t && t <= hi);
        assert!((p.speedup - 1000.0 / t).abs() < 1e-6);
        assert!(a.warnings.iter().any(|w| w.contains("no run at n = 1")), "{:?}", a.warnings);
        // Karp–Flatt of exact Amdahl data is the serial fraction 0.02 at every n.
        for pt in &a.points {
            let kf = pt.karp_flatt.expect("n > 1");
            assert!((kf - 0.02).abs() < 1e-6, "n = {}: {kf}", pt.n);
        }
    }

    #[test]
    fn times_with_n1_become_speedups() {
        let ns = [1.0, 2.0, 4.0, 8.0];
        let ts = [100.0, 50.0, 25.0, 12.5];
        let a = run(&ns, &ts, Measure::TimeS);
        assert_eq!((a.space, a.t1_measured), (Space::Speedup, Some(100.0)));
        let s: Vec<f64> = a.points.iter().filter_map(|p| p.speedup).collect();
        assert_eq!(s, vec![1.0, 2.0, 4.0, 8.0]);
        let f = a.best_fit().expect("a best fit");
        let (t, _, _) = f.predictions[0].time_s.expect("times");
        assert!((t - 100.0 / f.predictions[0].speedup).abs() < 1e-9);
    }

    #[test]
    fn bad_points_name_the_row() {
        let cases: &[(f64, f64, Option<f64>, &str, &str)] = &[
            (0.0, 1.0, None, "points[1].n", "whole number"),
            (-4.0, 1.0, None, "points[1].n", "whole number"),
            (2.5, 1.0, None, "points[1].n", "whole number"),
            (4.0, 0.0, None, "points[1].time_s", "greater than 0"),
            (4.0, -3.0, None, "points[1].time_s", "greater than 0"),
            (4.0, 3.0, Some(0.0), "points[1].weight", "greater than 0"),
        ];
        for (n, v, w, field, msg) in cases {
            let raw = [RawPoint { n: 2.0, value: 5.0, weight: None, line: None }, RawPoint { n: *n, value: *v, weight: *w, line: None }];
            let e = analyse("points", &raw, Measure::TimeS, &Options::default()).expect_err("bad input");
            assert_eq!(e.field, *field, "{e}");
            assert!(e.message.contains(msg), "{e}");
        }
        let raw = [RawPoint { n: 2.5, value: 5.0, weight: None, line: Some(3) }];
        let e = analyse("points", &raw, Measure::Speedup, &Options::default()).expect_err("bad n");
        assert_eq!((e.field.as_str(), e.line, e.column), ("points", Some(3), Some(1)));
        assert!(analyse("points", &[], Measure::Speedup, &Options::default()).is_err());
    }

    #[test]
    fn duplicates_are_averaged_and_said() {
        let raw = [
            RawPoint { n: 2.0, value: 1.9, weight: None, line: None },
            RawPoint { n: 4.0, value: 3.0, weight: None, line: None },
            RawPoint { n: 2.0, value: 2.1, weight: Some(3.0), line: None },
            RawPoint { n: 8.0, value: 5.0, weight: None, line: None },
        ];
        let a = analyse("points", &raw, Measure::Speedup, &Options::default()).expect("valid");
        let p2 = &a.points[0];
        // Weighted mean (1.9·1 + 2.1·3)/4 = 2.05, weights added.
        assert_eq!((p2.n, p2.merged_rows, p2.weight), (2, 2, 4.0));
        assert!((p2.value - 2.05).abs() < 1e-12);
        assert!(a.warnings.iter().any(|w| w.contains("n = 2 is given 2 times with different") && w.contains("2.05")), "{:?}", a.warnings);
        assert_eq!(a.points.len(), 3);
    }

    #[test]
    fn too_few_points_skip_models_and_say_why() {
        let a = run(&[4.0], &[3.5], Measure::Speedup);
        let names: Vec<Model> = a.skipped.iter().map(|s| s.model).collect();
        assert_eq!(names, vec![Model::Downey, Model::Amdahl, Model::Usl]);
        assert!(a.skipped[0].reason.contains("needs at least 2 points"), "{}", a.skipped[0].reason);
        assert_eq!(a.fits.len(), 2, "chiang and smirni have one parameter");
        assert!(a.best_reason.contains("tentative"), "{}", a.best_reason);
        // As many points as parameters: fitted, no uncertainty, said.
        let f = &a.fits[0];
        assert!(f.params[0].std_err.is_none() && f.notes.iter().any(|n| n.contains("no uncertainty")));
        let p = &f.predictions[0];
        assert_eq!((p.speedup_low, p.speedup_high), (p.speedup, p.speedup));
    }

    #[test]
    fn past_peak_points_are_flagged_left_out_and_can_come_back() {
        let ns = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
        let ss = [1.0, 1.95, 3.7, 6.6, 9.8, 9.1, 6.2];
        let a = run(&ns, &ss, Measure::Speedup);
        let flagged: Vec<u32> = a.points.iter().filter(|p| p.past_peak).map(|p| p.n).collect();
        assert_eq!(flagged, vec![32, 64]);
        assert_eq!(a.fit(Model::Downey).map(|f| f.points), Some(5));
        let usl = a.fit(Model::Usl).expect("usl");
        assert_eq!(usl.points, 7);
        assert!(!usl.ranked && a.best != Some(Model::Usl));
        assert!(a.warnings.iter().any(|w| w.contains("past the speed-up peak")));
        let opts = Options { include_past_peak: true, ..Options::default() };
        let b = analyse("points", &pts(&ns, &ss), Measure::Speedup, &opts).expect("valid");
        assert_eq!(b.fit(Model::Downey).map(|f| f.points), Some(7));
        assert!(b.fits.iter().all(|f| f.ranked));
        // Only USL follows the decline, and with every point in, it is the best.
        assert_eq!(b.best, Some(Model::Usl), "{}", b.best_reason);
    }

    #[test]
    fn super_linear_points_are_kept_and_flagged() {
        let a = run(&[2.0, 4.0, 8.0, 16.0], &[2.1, 4.3, 7.5, 12.0], Measure::Speedup);
        let flagged: Vec<u32> = a.points.iter().filter(|p| p.super_linear).map(|p| p.n).collect();
        assert_eq!(flagged, vec![2, 4]);
        assert!(a.warnings.iter().any(|w| w.contains("super-linear")));
        assert!(a.points[0].efficiency.is_some_and(|e| (e - 1.05).abs() < 1e-12));
    }

    #[test]
    fn aicc_by_hand() {
        // m = 6, k = 2 → K = 3: 6·ln(0.6/6) + 6 + 2·3·4/(6 − 3 − 1) = −13.8155 + 6 + 12.
        let v = aicc(0.6, &[1.0; 6], &[1.0; 6], 2).expect("enough points");
        assert!((v - (6.0 * (0.1f64).ln() + 18.0)).abs() < 1e-12, "{v}");
        assert_eq!(aicc(0.6, &[1.0; 4], &[1.0; 4], 2), None);
    }

    #[test]
    fn leave_one_out_of_exact_data_is_zero() {
        let ns = [2.0, 4.0, 8.0, 16.0, 32.0];
        let ss: Vec<f64> = ns.iter().map(|n| 1.0 / (0.05 + 0.95 / n)).collect();
        let a = run(&ns, &ss, Measure::Speedup);
        let am = a.fit(Model::Amdahl).expect("amdahl");
        assert!(am.loo.is_some_and(|l| l < 1e-6), "{:?}", am.loo);
        assert!(am.sse < 1e-12);
    }

    #[test]
    fn band_contains_the_curve_and_widens_away_from_data() {
        let a = run(&EX_N, &EX_S, Measure::Speedup);
        let d = a.fit(Model::Downey).expect("downey");
        let b = d.band(&[2.0, 16.0, 1000.0]);
        for (n, s, lo, hi) in &b {
            assert!(lo <= s && s <= hi, "n = {n}");
        }
        assert!(b[2].3 - b[2].2 > b[0].3 - b[0].2, "{b:?}");
    }

    #[test]
    fn advice_spans_linear_transition_and_peak() {
        let a = analyse(
            "points",
            &pts(&EX_N, &EX_S),
            Measure::Speedup,
            &Options { models: vec![Model::Downey], ..Options::default() },
        )
        .expect("valid");
        let roles: Vec<&str> = a.advice.iter().map(|s| s.role).collect();
        assert_eq!(roles, vec!["linear", "transition", "peak"]);
        let ns: Vec<u32> = a.advice.iter().map(|s| s.n).collect();
        assert!(ns.windows(2).all(|w| w[0] < w[1]), "{ns:?}");
        // Downey A = 24.87, σ = 0.81 reaches A at 2A − 1 ≈ 49: the peak suggestion is below.
        assert!(ns[2] <= 49 && ns[2] > 16, "{ns:?}");
    }

    #[test]
    fn benchmark_data_analyse() {
        assert_eq!(benchmark_datasets().len(), 6);
        assert_eq!(benchmark_run(&MODELS), 6);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..proptest::prelude::ProptestConfig::default() })]

        /// Downey fits of noisy Downey curves, either variant, are never beaten by brute force.
        #[test]
        fn downey_fit_matches_brute_force_on_random_curves(
            a in 2.0f64..120.0, sigma in 0.0f64..4.0,
            noise in proptest::collection::vec(-0.05f64..0.05, 6),
            top in 4u32..8,
            time in proptest::bool::ANY,
        ) {
            let ns: Vec<f64> = (1..=6).map(|i| (f64::from(i) * f64::from(top) / 6.0).exp2().round()).collect();
            let mut ns2 = ns.clone();
            ns2.dedup();
            proptest::prop_assume!(ns2.len() == 6);
            // Times: T1 = 500 s, fitted as a parameter (profiled out exactly by the brute force).
            let space = if time { Space::Time } else { Space::Speedup };
            let ys: Vec<f64> = ns
                .iter()
                .zip(&noise)
                .map(|(n, e)| if time { 500.0 / downey(a, sigma, *n) * (1.0 + e) } else { downey(a, sigma, *n) * (1.0 + e) })
                .collect();
            let fit = fit_model(Model::Downey, space, &ns, &ys, &[1.0; 6], None, false).expect("fits");
            let bf = brute_force(Model::Downey, space, &ns, &ys);
            proptest::prop_assert!(fit.sse <= bf * (1.0 + 1e-6) + 1e-12, "LM {} > brute force {bf} at {:?} for {ns:?} {ys:?}", fit.sse, fit.params);
        }
    }

    proptest::proptest! {
        #[test]
        fn downey_bounded_by_n_and_a(a in 1.0f64..500.0, sigma in 0.0f64..50.0, n in 1u32..5000) {
            let n = f64::from(n);
            let s = downey(a, sigma, n);
            proptest::prop_assert!(s.is_finite() && s > 0.0);
            proptest::prop_assert!(s <= n.min(a) * (1.0 + 1e-12), "S = {s}");
        }

        #[test]
        fn variants_agree_at_sigma_one(a in 1.0f64..500.0, n in 1u32..5000) {
            let n = f64::from(n);
            let (l, h) = (downey_low(a, 1.0, n), downey_high(a, 1.0, n));
            proptest::prop_assert!((l - h).abs() <= 1e-12 * l, "{l} vs {h}");
        }

        #[test]
        fn limits_of_sigma(a in 1.0f64..500.0, n in 1u32..5000) {
            let n = f64::from(n);
            proptest::prop_assert!((downey(a, 0.0, n) - n.min(a)).abs() <= 1e-12 * n);
            let lower = a * n / (a + n - 1.0);
            proptest::prop_assert!((downey(a, 1e9, n) - lower).abs() <= 1e-6 * lower);
        }

        /// Any points analyse to finite numbers or a named error, never a panic.
        #[test]
        fn any_points_give_finite_results(
            raw in proptest::collection::vec((0.0f64..300.0, -1.0f64..1e4, proptest::option::of(0.0f64..5.0)), 0..8),
            time in proptest::bool::ANY,
            past in proptest::bool::ANY,
        ) {
            let raw: Vec<RawPoint> = raw.iter().map(|&(n, value, weight)| RawPoint { n: n.round(), value, weight, line: None }).collect();
            let measure = if time { Measure::TimeS } else { Measure::Speedup };
            let opts = Options { include_past_peak: past, targets: vec![1, 64, 100000], ..Options::default() };
            if let Ok(a) = analyse("points", &raw, measure, &opts) {
                for f in &a.fits {
                    let mut xs = vec![f.sse];
                    xs.extend(f.aicc);
                    xs.extend(f.loo);
                    xs.extend(f.params.iter().flat_map(|p| [Some(p.value), p.std_err]).flatten());
                    xs.extend(f.residuals.iter().map(|r| r.1));
                    for p in &f.predictions {
                        xs.extend([p.speedup, p.speedup_low, p.speedup_high, p.efficiency]);
                        if let Some((t, lo, hi)) = p.time_s { xs.extend([t, lo, hi]); }
                    }
                    for x in xs { proptest::prop_assert!(x.is_finite(), "{:?}: {x}", f.model); }
                }
                for p in &a.points {
                    for x in [p.speedup, p.efficiency, p.karp_flatt].into_iter().flatten() {
                        proptest::prop_assert!(x.is_finite());
                    }
                }
            }
        }
    }
}
