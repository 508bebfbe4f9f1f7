//! The bounded Levenberg–Marquardt that fits the speed-up models (seed 004: the thesis tunes
//! Downey's model by Levenberg–Marquardt, chapter 5), and where it starts.
//!
//! Weighted least squares over up to 4 parameters: Marquardt's diagonal scaling, the
//! Jacobian in closed form ([`super::models`]), bounds by projection with an active set (a
//! parameter at a bound whose gradient points outwards stays put for a step). Each run ends
//! with a [`Termination`], as the `levenberg-marquardt` crate's `TerminationReason` (that
//! crate cost 8.5–17.5 KB gzipped of wasm for 2–4 parameters).
//!
//! The search ([`fit_all`]) serves a fit and its leave-one-out refits at once: the squared
//! error of a table of candidate parameters is computed for every subset of the points from
//! one evaluation of the curve per point, and each subset runs Levenberg–Marquardt from its
//! best candidate. Downey's error has several basins, so each of its classic starts (on both
//! sides of σ = 1) is run; and it is not smooth where a measured n sits on a break of the
//! piecewise curve, so a search along those ridges follows: each ridge near the best run is
//! searched coarsely, and the lowest of them to the end.

// Dense k×k algebra (k ≤ 4) reads best with indices.
#![allow(clippy::needless_range_loop)]

use super::models::{shape_at, shared, value, value_grad, Model, Space, Start};
use crate::model::fit::line;

/// Calls `$body` with the model and the space as constants in each arm, so that the curve's
/// code is compiled into the loops that evaluate it (no call and no match per point). Native
/// only: in wasm the ten copies cost the speed-up page 8.7 KB gzipped, and the page fits one
/// data set at a time.
#[cfg(target_arch = "wasm32")]
macro_rules! specialise {
    ($model:expr, $space:expr, |$m:ident, $s:ident| $body:expr) => {{
        let ($m, $s) = ($model, $space);
        $body
    }};
}
#[cfg(not(target_arch = "wasm32"))]
macro_rules! specialise {
    ($model:expr, $space:expr, |$m:ident, $s:ident| $body:expr) => {
        with_families!(specialise!(@arms ($model, $space), $m, $s, $body,))
    };
    (@arms $on:expr, $m:ident, $s:ident, $body:expr, [$($model:ident),*]) => {
        match $on {
            $(
                (Model::$model, Space::Speedup) => {
                    let ($m, $s) = (Model::$model, Space::Speedup);
                    $body
                }
                (Model::$model, Space::Time) => {
                    let ($m, $s) = (Model::$model, Space::Time);
                    $body
                }
            )*
        }
    };
}

/// Why a Levenberg–Marquardt run stopped. `text()` says it for people; `was_successful()`
/// tells a minimum from a run that gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// The squared error is zero: the curve passes through every point.
    ResidualsZero,
    /// The gradient over the free parameters vanished (scaled by the curvature, below 1e-24
    /// of the squared error).
    SmallGradient,
    /// The last step moved no parameter by more than 1e-12 of its value.
    SmallStep,
    /// The last step lowered the squared error by no more than 1e-15 of it, or the last 10
    /// steps by no more than 1e-10 of it.
    SmallGain,
    /// No step lowers the squared error by more than 1e-15 of it: the linear model predicts
    /// less for the next (damped) step, or no damping made one that lowers it at all. A
    /// (local) minimum.
    NoDescent,
    /// The squared error is not a finite number where the run started.
    NotFinite,
    /// [`MAX_ITERATIONS`] steps without meeting any test.
    MaxIterations,
    /// Left off: the squared error fell so slowly that the steps left could not bring it
    /// below what another start had reached. Never the outcome of a fit: the better start's is.
    Outrun,
}

impl Termination {
    pub fn was_successful(self) -> bool {
        !matches!(self, Termination::NotFinite | Termination::MaxIterations | Termination::Outrun)
    }

    pub fn text(self) -> String {
        match self {
            Termination::ResidualsZero => "converged: the curve passes through every point".into(),
            Termination::SmallGradient => "converged: the gradient vanished".into(),
            Termination::SmallStep => "converged: the parameters stopped moving".into(),
            Termination::SmallGain => "converged: the squared error stopped falling".into(),
            Termination::NoDescent => "converged: no step lowers the squared error".into(),
            Termination::NotFinite => "the squared error is not a finite number".into(),
            Termination::MaxIterations => format!("did not converge in {MAX_ITERATIONS} iterations"),
            Termination::Outrun => "left off: another start reached a lower squared error".into(),
        }
    }
}

/// The fitting problem of one model on one set of points.
pub(super) struct Problem<'a> {
    model: Model,
    space: Space,
    ns: &'a [f64],
    ys: &'a [f64],
    ws: &'a [f64],
    /// Parameters fitted: the shape's, and T1 when it is fitted.
    pub(super) k: usize,
    pub(super) lo: [f64; 4],
    pub(super) hi: [f64; 4],
}

/// Outcome of one Levenberg–Marquardt run (or the best of several).
#[derive(Debug, Clone, Copy)]
pub(super) struct LmRun {
    pub(super) p: [f64; 4],
    pub(super) sse: f64,
    pub(super) iterations: u32,
    pub(super) termination: Termination,
}

/// How many parameters a fit of the model in the space has: the shape's, and T1 where times
/// without an n = 1 run are fitted (Amdahl's T = c1 + c2/n has it in c1 + c2).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn fitted(model: Model, space: Space) -> usize {
    model.param_names().len() + usize::from(space == Space::Time && model.start() != Start::Line)
}

/// Most steps of one run.
pub const MAX_ITERATIONS: u32 = 300;
/// A run stops (converged: the squared error stopped falling) when CREEP_STEPS steps together
/// lowered the squared error by no more than CREEP_GAIN of it.
const CREEP_STEPS: u32 = 10;
const CREEP_GAIN: f64 = 1e-10;

impl Problem<'_> {
    pub(super) fn new<'a>(model: Model, space: Space, ns: &'a [f64], ys: &'a [f64], ws: &'a [f64]) -> Problem<'a> {
        let (l, h) = model.bounds();
        let shape_k = model.param_names().len();
        let k = fitted(model, space);
        let t1 = k > shape_k;
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
    pub(super) fn value(&self, p: &[f64; 4], n: f64) -> f64 {
        value(self.model, self.space, p, n)
    }

    /// The squared error at p, with the model and space known where it is compiled (see
    /// `specialise!`).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn sse_of(&self, model: Model, space: Space, p: &[f64; 4]) -> f64 {
        let mut s = 0.0;
        for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
            let r = y - value(model, space, p, *n);
            s += w * r * r;
        }
        if s.is_finite() {
            s
        } else {
            f64::INFINITY
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn clamp(&self, p: &mut [f64; 4]) {
        self.clamp_first(self.k, p);
    }

    /// [`Self::clamp`] of the first `k` (= `self.k`) parameters.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn clamp_first(&self, k: usize, p: &mut [f64; 4]) {
        for j in 0..k {
            // As `f64::clamp` (a NaN stays NaN), without its check that lo ≤ hi.
            p[j] = if p[j] < self.lo[j] {
                self.lo[j]
            } else if p[j] > self.hi[j] {
                self.hi[j]
            } else {
                p[j]
            };
        }
    }

    /// JᵀWJ and JᵀW r at p (r = y − f).
    pub(super) fn normal(&self, p: &[f64; 4]) -> ([[f64; 4]; 4], [f64; 4]) {
        specialise!(self.model, self.space, |model, space| self.normal_of(model, space, p))
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn normal_of(&self, model: Model, space: Space, p: &[f64; 4]) -> ([[f64; 4]; 4], [f64; 4]) {
        let (_, h, g) = self.with_normal_of(model, space, p);
        (h, g)
    }

    /// The squared error at p (as [`Self::sse_of`]) with JᵀWJ and JᵀW r there (as
    /// [`Self::normal`]), from one evaluation of the curve and its Jacobian per point: a
    /// Levenberg–Marquardt step that is taken needs both at its new point.
    fn with_normal(&self, p: &[f64; 4]) -> (f64, [[f64; 4]; 4], [f64; 4]) {
        specialise!(self.model, self.space, |model, space| self.with_normal_of(model, space, p))
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn with_normal_of(&self, model: Model, space: Space, p: &[f64; 4]) -> (f64, [[f64; 4]; 4], [f64; 4]) {
        let mut h = [[0.0; 4]; 4];
        let mut g = [0.0; 4];
        let mut s = 0.0;
        // `self.k`, a constant where the model and space are.
        let k = fitted(model, space);
        let sh = shared(model, p);
        for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
            // One row of the Jacobian.
            let (v, d) = value_grad(model, space, p, sh, k, *n);
            let r = y - v;
            s += w * r * r;
            for a in 0..k {
                g[a] += w * d[a] * r;
                for b in 0..k {
                    h[a][b] += w * d[a] * d[b];
                }
            }
        }
        (if s.is_finite() { s } else { f64::INFINITY }, h, g)
    }

    /// Bounded Levenberg–Marquardt from `start`; `bar` is the lowest squared error another
    /// start reached (infinity if none), below which a slow run could not come in time.
    #[inline(never)]
    fn lm(&self, start: [f64; 4], bar: f64) -> LmRun {
        // Natively compiled once per size, so that the loops over the parameters unroll (in
        // wasm one copy: the page fits one data set at a time).
        #[cfg(not(target_arch = "wasm32"))]
        match self.k {
            1 => self.lm_of(1, start, bar),
            2 => self.lm_of(2, start, bar),
            3 => self.lm_of(3, start, bar),
            k => self.lm_of(k, start, bar),
        }
        #[cfg(target_arch = "wasm32")]
        self.lm_of(self.k, start, bar)
    }

    /// [`Self::lm`] with `k` (= `self.k`) a constant where it is compiled.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn lm_of(&self, k: usize, start: [f64; 4], bar: f64) -> LmRun {
        let mut p = start;
        self.clamp_first(k, &mut p);
        let (mut f, mut h, mut g) = self.with_normal(&p);
        let mut lambda = 1e-3;
        // The error CREEP_STEPS steps ago: a run that creeps towards a bound at infinity
        // (Chiang's β, Downey's A on near-ideal data) gains less than CREEP_GAIN of it per
        // CREEP_STEPS steps long before the per-step test stops it.
        let mut f_then = f;
        for it in 0..MAX_ITERATIONS {
            if it > 0 && it % CREEP_STEPS == 0 {
                let gain = f_then - f;
                if gain <= CREEP_GAIN * f_then {
                    return LmRun { p, sse: f, iterations: it, termination: Termination::SmallGain };
                }
                // At this pace (and the gains of a creeping run only shrink) the steps left
                // cannot bring it below `bar`, the error another start already reached.
                if f - gain * f64::from(MAX_ITERATIONS - it) / f64::from(CREEP_STEPS) > bar {
                    return LmRun { p, sse: f, iterations: it, termination: Termination::Outrun };
                }
                f_then = f;
            }
            // Parameters at a bound whose gradient points outwards stay put this step.
            let mut free = [false; 4];
            for j in 0..k {
                free[j] = !((p[j] <= self.lo[j] && g[j] < 0.0) || (p[j] >= self.hi[j] && g[j] > 0.0));
            }
            let gnorm = (0..k).filter(|&j| free[j]).map(|j| g[j] * g[j] / h[j][j].max(1e-300)).sum::<f64>();
            if f.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || gnorm <= 1e-24 * f {
                let termination = if !f.is_finite() {
                    Termination::NotFinite
                } else if f == 0.0 {
                    Termination::ResidualsZero
                } else {
                    Termination::SmallGradient
                };
                return LmRun { p, sse: f, iterations: it, termination };
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
                    // The gain the linear model predicts for this step, 2δᵀg − δᵀHδ: when it
                    // is below what would stop a run that took it (SmallGain), stronger
                    // damping only shortens the step, so the search ends here.
                    let mut pred = 0.0;
                    for a in 0..k {
                        let mut hd = 0.0;
                        for b in 0..k {
                            hd += h[a][b] * delta[b];
                        }
                        pred += delta[a] * (2.0 * rhs[a] - hd);
                    }
                    if pred <= 1e-15 * f {
                        break;
                    }
                    let mut q = p;
                    for j in 0..k {
                        q[j] += delta[j];
                    }
                    self.clamp_first(k, &mut q);
                    let (fq, hq, gq) = self.with_normal(&q);
                    if fq < f {
                        (h, g) = (hq, gq);
                        let small_step = (0..k).all(|j| (q[j] - p[j]).abs() <= 1e-12 * (p[j].abs() + 1e-9));
                        let small_gain = f - fq <= 1e-15 * f;
                        p = q;
                        f = fq;
                        lambda = (lambda / 10.0).max(1e-12);
                        stepped = true;
                        if small_step || small_gain {
                            let termination = if small_step { Termination::SmallStep } else { Termination::SmallGain };
                            return LmRun { p, sse: f, iterations: it + 1, termination };
                        }
                        break;
                    }
                }
                lambda *= 10.0;
            }
            if !stepped {
                // No step in any direction lowers the error: a (local) minimum.
                return LmRun { p, sse: f, iterations: it + 1, termination: Termination::NoDescent };
            }
        }
        LmRun { p, sse: f, iterations: MAX_ITERATIONS, termination: Termination::MaxIterations }
    }

    /// Starting points of Amdahl's fit (its linear fit) and of Downey's, the thesis's
    /// (A₀ = max S, σ₀ = 0) among them; the other models start from a grid (see [`Candidates`]).
    fn starts(&self) -> Vec<[f64; 4]> {
        let (c1, c2) = amdahl_linear(self.space, self.ns, self.ys, self.ws);
        // T1 for models with a fitted T1: Amdahl's T(1), else the best single-point guess.
        let t1 =
            if c1 + c2 > 0.0 { c1 + c2 } else { self.ys.iter().zip(self.ns).map(|(y, n)| y * n).fold(0.0, f64::max) };
        let smax = self.ys.iter().map(|y| if self.space == Space::Time { t1 / y } else { *y }).fold(1.0, f64::max);
        let shape_k = self.model.param_names().len();
        let with_t1 = |a: f64, b: f64| {
            let mut p = [a, b, 0.0, 0.0];
            if self.k > shape_k {
                p[shape_k] = t1.max(self.lo[shape_k]);
            }
            p
        };
        if self.model.start() == Start::Line {
            return vec![with_t1(c1, c2)];
        }
        // Downey's: A at the largest speed-up and twice it, σ on both sides of 1.
        let mut v = Vec::with_capacity(8);
        for a in [smax, 2.0 * smax] {
            for sg in [0.0, 0.6, 1.2, 4.0] {
                v.push(with_t1(a, sg));
            }
        }
        v
    }

    /// Fills in the fitted T1 for fixed shape parameters (least squares: T1 = Σwyu/Σwu²
    /// with u = 1/S); other parameters unchanged.
    fn profiled(&self, p: [f64; 4]) -> [f64; 4] {
        self.profiled_of(self.model, self.space, p)
    }

    /// [`Self::profiled`] with the model and space known where it is compiled.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn profiled_of(&self, model: Model, space: Space, mut p: [f64; 4]) -> [f64; 4] {
        let shape_k = model.param_names().len();
        // `self.k`, a constant here.
        let k = fitted(model, space);
        self.clamp_first(k, &mut p);
        if k > shape_k {
            let (mut num, mut den) = (0.0, 0.0);
            let sh = shared(model, &p);
            for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
                let u = 1.0 / shape_at(model, &p, sh, *n);
                num += w * y * u;
                den += w * u * u;
            }
            p[shape_k] = (num / den).clamp(self.lo[shape_k], self.hi[shape_k]);
        }
        p
    }
}

/// Points to scan along each of Downey's ridges.
const RIDGE_SCAN: usize = 24;
/// Golden-section steps every ridge searched gets before the lowest is chosen to go on.
const RIDGE_COARSE: u32 = 12;
/// A ridge is searched when the best run stopped within this fraction of its break.
const RIDGE_NEAR: f64 = 0.1;

/// Where a ridge of Downey's error runs: (kind, n, t) → (A, σ). Kind 0 is σ = 1 with A = eᵗ;
/// 1 is A = n, σ = t (low variance); 2 is A = (n+1)/2, σ = t; 3 is σ = eᵗ,
/// A = (n+σ)/(1+σ) (high variance, n on the break); 4 is σ = 0 with A = eᵗ.
fn ridge_point(kind: u8, n: f64, t: f64) -> (f64, f64) {
    match kind {
        0 => (t.exp(), 1.0),
        1 => (n, t),
        2 => ((n + 1.0) / 2.0, t),
        4 => (t.exp(), 0.0),
        _ => ((n + t.exp()) / (1.0 + t.exp()), t.exp()),
    }
}

/// The shape parameters a search tries first, made from all the points and shared by every
/// subset of them: for a family started from a grid ([`Start::Grid`]), its grid over the
/// parameters (on log scales where they span decades); for Downey a scan along each ridge.
struct Candidates {
    params: Vec<[f64; 4]>,
    /// Downey's ridges, (kind, n, t from, t to); the scans of the first two (σ = 1 and σ = 0)
    /// are `params[first_ridge + r·(RIDGE_SCAN+1)..]`, RIDGE_SCAN + 1 points each.
    ridges: Vec<(u8, f64, f64, f64)>,
    first_ridge: usize,
}

/// The model's [`Start::Grid`] candidates (see [`Candidates`]; empty for the others). The same
/// for every data set: natively made once per model (a batch fits thousands).
#[cfg(not(target_arch = "wasm32"))]
fn grid(model: Model) -> &'static [[f64; 4]] {
    use super::models::MODELS;
    static GRIDS: std::sync::OnceLock<[Vec<[f64; 4]>; MODELS.len()]> = std::sync::OnceLock::new();
    &GRIDS.get_or_init(|| MODELS.map(make_grid))[model as usize]
}

/// [`grid`]'s values, made each time.
fn make_grid(model: Model) -> Vec<[f64; 4]> {
    if model.start() == Start::Grid {
        model.grid()
    } else {
        Vec::new()
    }
}

impl Candidates {
    fn new(pr: &Problem) -> Candidates {
        #[cfg(not(target_arch = "wasm32"))]
        let mut params = grid(pr.model).to_vec();
        // The page fits one data set at a time.
        #[cfg(target_arch = "wasm32")]
        let mut params = make_grid(pr.model);
        let mut ridges = Vec::new();
        if pr.model.start() == Start::Ridges {
            // Up to 8 times the largest speed-up (Downey's first start is A = that, σ = 0).
            let smax = pr.starts().first().map_or(1.0, |p| p[0]);
            let a_top = (8.0 * smax).clamp(2.0, pr.hi[0]);
            ridges.extend([(0u8, 0.0, 0.0, a_top.ln()), (4, 0.0, 0.0, a_top.ln())]);
            for &n in pr.ns {
                ridges.extend([(1, n, 0.0, 1.0), (2, n, 0.0, 1.0), (3, n, 0.0, pr.hi[1].ln())]);
            }
        }
        let first_ridge = params.len();
        // Scanned: σ = 1 and σ = 0 (the first two ridges); the others are searched only
        // where a run stopped next to them (see `search`).
        for &(kind, n, lo, hi) in ridges.iter().take(2) {
            for i in 0..=RIDGE_SCAN {
                let (a, sg) = ridge_point(kind, n, lo + (hi - lo) * i as f64 / RIDGE_SCAN as f64);
                params.push([a, sg, 0.0, 0.0]);
            }
        }
        for p in &mut params {
            pr.clamp(p);
        }
        Candidates { params, ridges, first_ridge }
    }
}

/// Fits the model to all the points (the first run) and, with `leave_out`, to every subset
/// that leaves one point out (run i + 1 leaves out point i). Every fit searches the same way:
/// the squared error of each candidate (see [`Candidates`]) is computed for all the subsets at
/// once from one evaluation of the curve at each point; then each subset runs
/// Levenberg–Marquardt from its best candidate (Downey: from each of its starts) and Downey's
/// searches along σ = 0, σ = 1 and the breaks its best run stopped next to (see `search`).
#[inline(never)]
pub(super) fn fit_all(model: Model, space: Space, ns: &[f64], ys: &[f64], ws: &[f64], leave_out: bool) -> Vec<LmRun> {
    let m = ns.len();
    let pick =
        |v: &[f64], i: usize| -> Vec<f64> { v.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, x)| *x).collect() };
    let subsets: Vec<[Vec<f64>; 3]> =
        if leave_out { (0..m).map(|i| [pick(ns, i), pick(ys, i), pick(ws, i)]).collect() } else { Vec::new() };
    let mut problems = vec![Problem::new(model, space, ns, ys, ws)];
    problems.extend(subsets.iter().map(|[n, y, w]| Problem::new(model, space, n, y, w)));
    if model.start() == Start::Line {
        // One start, from the problem's own linear fit.
        return problems
            .iter()
            .map(|pr| pr.lm(pr.starts().first().copied().unwrap_or([1.0; 4]), f64::INFINITY))
            .collect();
    }
    let cands = Candidates::new(&problems[0]);
    // errors[(c − first_ridge)·q + j]: the squared error of ridge candidate c in problem j
    // (the grid's candidates serve only to pick each problem's best start, `grid_best`).
    let q = problems.len();
    let mut errors = Vec::with_capacity((cands.params.len() - cands.first_ridge) * q);
    // Each problem's lowest error on the grid (the candidates before the ridges), and the
    // first candidate with it.
    let mut grid_best = vec![(f64::INFINITY, 0); q];
    // Over the first i points: in speed-ups the squared error; in times Σwyu, Σwu² and Σwy²
    // (u = 1/S), from which T1 is profiled. A subset's error follows from the sums without
    // its left-out point.
    let mut pre = vec![[0.0; 3]; m + 1];
    // The highest of the problems' lowest grid errors so far.
    let mut grid_bar = f64::INFINITY;
    // The curve compiled into the loop (see `specialise!`).
    specialise!(model, space, |model, space| {
        for (c, p) in cands.params.iter().enumerate() {
            // pre[i + 1] = pre[i] + point i's terms, written by iterators (no index checks).
            let mut acc = [0.0; 3];
            // The largest point's term (speed-ups).
            let mut top = 0.0f64;
            let sh = shared(model, p);
            for (slot, ((n, y), w)) in pre[1..].iter_mut().zip(ns.iter().zip(ys).zip(ws)) {
                let s = shape_at(model, p, sh, *n);
                if space == Space::Time {
                    let u = 1.0 / s;
                    let t = [w * y * u, w * u * u, w * y * y];
                    for k in 0..3 {
                        acc[k] += t[k];
                    }
                } else {
                    let t = w * (y - s) * (y - s);
                    top = top.max(t);
                    acc[0] += t;
                }
                *slot = acc;
            }
            // In speed-ups no problem's error is below the sum less the largest term: a grid
            // candidate above that bound (with room for the sums' rounding, all terms ≥ 0) in
            // every problem cannot be the best of any. (Natively: the page, fitting one data
            // set, keeps its bytes.)
            let total = pre[m][0];
            if cfg!(not(target_arch = "wasm32"))
                && space == Space::Speedup
                && c < cands.first_ridge
                && total - top > grid_bar * (1.0 + 1e-9) + 1e-12 * total
            {
                continue;
            }
            for (j, pr) in problems.iter().enumerate() {
                let sum = |k: usize| if j == 0 { pre[m][k] } else { pre[j - 1][k] + (pre[m][k] - pre[j][k]) };
                let e = if space == Space::Time {
                    let (num, den, yy) = (sum(0), sum(1), sum(2));
                    let t1 = (num / den).clamp(pr.lo[pr.k - 1], pr.hi[pr.k - 1]);
                    (yy - 2.0 * t1 * num + t1 * t1 * den).max(0.0)
                } else {
                    sum(0).max(0.0)
                };
                let e = if e.is_finite() { e } else { f64::INFINITY };
                if c >= cands.first_ridge {
                    // Pushed in the order of `errors`.
                    errors.push(e);
                } else if e < grid_best[j].0 {
                    grid_best[j] = (e, c);
                }
            }
            if c < cands.first_ridge {
                grid_bar = grid_best.iter().fold(0.0, |b, x| b.max(x.0));
            }
        }
    });
    problems.iter().enumerate().map(|(j, pr)| pr.search(&cands, &errors, q, j, grid_best[j].1)).collect()
}

impl Problem<'_> {
    /// One problem's part of [`fit_all`]: `errors[(c − first_ridge)·stride + at]` is its
    /// squared error at ridge candidate c, and `grid_best` the grid candidate where it is
    /// lowest. (Not inlined: the page's benchmark and its analyses share one copy.)
    #[inline(never)]
    fn search(&self, cands: &Candidates, errors: &[f64], stride: usize, at: usize, grid_best: usize) -> LmRun {
        let error = |c: usize| {
            c.checked_sub(cands.first_ridge).and_then(|r| errors.get(r * stride + at)).copied().unwrap_or(f64::INFINITY)
        };
        let mut best = LmRun { p: [1.0; 4], sse: f64::INFINITY, iterations: 0, termination: Termination::NotFinite };
        // Downey's error has basins no grid ranks well: every classic start is run (each is
        // the only one to reach the minimum in some of the benchmark's sets). The other
        // models run from their best candidate.
        let starts = if self.model.start() == Start::Ridges {
            self.starts()
        } else {
            cands.params.get(grid_best).map(|p| vec![self.profiled(*p)]).unwrap_or_default()
        };
        for start in starts {
            let r = self.lm(start, best.sse);
            if r.sse < best.sse {
                best = r;
            }
        }
        if cands.ridges.is_empty() {
            return best;
        }
        let mut ridge_best: Option<RidgeSearch> = None;
        // Searched always: σ = 1, σ = 0, and the ridges the best run stopped next to
        // (within RIDGE_NEAR of the break), where Levenberg–Marquardt creeps along the kink.
        let (a, sg) = (best.p[0], best.p[1]);
        let near = |x: f64, y: f64| (x - y).abs() <= RIDGE_NEAR * y.abs().max(1.0);
        for (r, &(kind, n, lo, hi)) in cands.ridges.iter().enumerate() {
            // A left-out point's breaks are no ridges of the others' error.
            if kind != 0 && kind != 4 && !self.ns.contains(&n) {
                continue;
            }
            let t = match kind {
                // From the scan's lowest point.
                0 | 4 => {
                    let first = cands.first_ridge + r * (RIDGE_SCAN + 1);
                    let i = (0..=RIDGE_SCAN).fold(0, |b, i| if error(first + i) < error(first + b) { i } else { b });
                    lo + (hi - lo) * i as f64 / RIDGE_SCAN as f64
                }
                1 if sg <= 1.0 && near(a, n) => sg,
                2 if sg <= 1.0 && near(2.0 * a - 1.0, n) => sg,
                3 if sg >= 1.0 && near(a + sg * (a - 1.0), n) => sg.ln(),
                _ => continue,
            };
            // Each ridge is searched to RIDGE_COARSE steps; only the lowest goes on.
            let mut found = self.ridge_open(kind, n, lo, hi, t.clamp(lo, hi));
            self.ridge_steps(&mut found, RIDGE_COARSE);
            if ridge_best.is_none_or(|b: RidgeSearch| found.lowest() < b.lowest()) {
                ridge_best = Some(found);
            }
        }
        if let Some(mut found) = ridge_best {
            // 30 steps in all shrink the scan cells to 1e-6 of themselves; Levenberg–Marquardt
            // polishes after.
            self.ridge_steps(&mut found, 30 - RIDGE_COARSE);
            let (_, p) = self.ridge_end(&found);
            let iterations = best.iterations;
            // From the ridge's lowest point, and from points just off it on either side in A
            // and in σ: the lowest error may lie in the valley beside the kink, where a run
            // from the kink itself can fall back to where the best run stopped.
            let mut r = self.lm(p, f64::INFINITY);
            for (i, f) in [(0, 1.02), (0, 1.0 / 1.02), (1, 1.1), (1, 1.0 / 1.1)] {
                let mut q = p;
                q[i] *= f;
                let s = self.lm(self.profiled(q), r.sse);
                if s.sse < r.sse {
                    r = s;
                }
            }
            // Only a real gain replaces the runs' result: where the points leave a direction
            // free (Downey's A above every n, when σ/A alone is pinned), a ridge lands
            // elsewhere on the same error, give or take rounding.
            if r.sse < best.sse * (1.0 - 1e-12) {
                best = r;
            }
            best.iterations = best.iterations.max(iterations);
        }
        best
    }

    /// Calls `f` with the problem's space, a constant in each arm natively (see `specialise!`).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn on_space<R>(&self, mut f: impl FnMut(Space) -> R) -> R {
        #[cfg(not(target_arch = "wasm32"))]
        match self.space {
            Space::Speedup => f(Space::Speedup),
            Space::Time => f(Space::Time),
        }
        #[cfg(target_arch = "wasm32")]
        f(self.space)
    }

    /// Downey's squared error at point t of a ridge, and the parameters there.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn on_ridge(&self, space: Space, kind: u8, n: f64, t: f64) -> (f64, [f64; 4]) {
        let (a, sg) = ridge_point(kind, n, t);
        let p = self.profiled_of(Model::Downey, space, [a, sg, 0.0, 0.0]);
        (self.sse_of(Model::Downey, space, &p), p)
    }

    /// Opens a golden-section search along one ridge in the scan cells either side of `bt`,
    /// its best scan point.
    #[inline(never)]
    fn ridge_open(&self, kind: u8, n: f64, lo: f64, hi: f64, bt: f64) -> RidgeSearch {
        self.on_space(|space| {
            let w = (hi - lo) / RIDGE_SCAN as f64;
            let (x0, x1) = ((bt - w).max(lo), (bt + w).min(hi));
            let (c, d) = (x1 - golden_section() * (x1 - x0), x0 + golden_section() * (x1 - x0));
            let (fc, fd) = (self.on_ridge(space, kind, n, c).0, self.on_ridge(space, kind, n, d).0);
            RidgeSearch { kind, n, bt, at_bt: self.on_ridge(space, kind, n, bt).0, x0, x1, c, d, fc, fd }
        })
    }

    /// `steps` more steps of the search, each shrinking the bracket by the golden ratio.
    #[inline(never)]
    fn ridge_steps(&self, r: &mut RidgeSearch, steps: u32) {
        self.on_space(|space| {
            let g = golden_section();
            let (mut x0, mut x1, mut c, mut d, mut fc, mut fd) = (r.x0, r.x1, r.c, r.d, r.fc, r.fd);
            for _ in 0..steps {
                if fc < fd {
                    (x1, d, fd) = (d, c, fc);
                    c = x1 - g * (x1 - x0);
                    fc = self.on_ridge(space, r.kind, r.n, c).0;
                } else {
                    (x0, c, fc) = (c, d, fd);
                    d = x0 + g * (x1 - x0);
                    fd = self.on_ridge(space, r.kind, r.n, d).0;
                }
            }
            (r.x0, r.x1, r.c, r.d, r.fc, r.fd) = (x0, x1, c, d, fc, fd);
        })
    }

    /// Where the search ends: (squared error, parameters) at the lower of `bt` and the
    /// bracket's middle.
    fn ridge_end(&self, r: &RidgeSearch) -> (f64, [f64; 4]) {
        self.on_space(|space| {
            let (a, b) =
                (self.on_ridge(space, r.kind, r.n, r.bt), self.on_ridge(space, r.kind, r.n, 0.5 * (r.x0 + r.x1)));
            if b.0 < a.0 {
                b
            } else {
                a
            }
        })
    }
}

/// The golden section's share of a bracket, (√5 − 1)/2.
fn golden_section() -> f64 {
    0.5 * (5f64.sqrt() - 1.0)
}

/// A golden-section search along one of Downey's ridges that can be taken up again: the
/// ridge, the point it started from and the error there, the bracket [x0, x1] and its inner
/// points c < d with their errors.
#[derive(Clone, Copy)]
struct RidgeSearch {
    kind: u8,
    n: f64,
    bt: f64,
    at_bt: f64,
    x0: f64,
    x1: f64,
    c: f64,
    d: f64,
    fc: f64,
    fd: f64,
}

impl RidgeSearch {
    /// The lowest error the search has seen.
    fn lowest(&self) -> f64 {
        self.at_bt.min(self.fc).min(self.fd)
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

/// Solves the k×k system m·x = b: by Cramer's rule for k = 2 (one division: the steps of the
/// two-parameter fits are most of the work), else by Gaussian elimination with partial
/// pivoting, dividing by each pivot once.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn solve(mut m: [[f64; 4]; 4], mut b: [f64; 4], k: usize) -> Option<[f64; 4]> {
    let mut x = [0.0; 4];
    if k == 2 {
        let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        if det.abs().partial_cmp(&1e-300) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let inv = 1.0 / det;
        x[0] = (b[0] * m[1][1] - b[1] * m[0][1]) * inv;
        x[1] = (m[0][0] * b[1] - m[1][0] * b[0]) * inv;
        return x.iter().all(|v| v.is_finite()).then_some(x);
    }
    let mut inv = [0.0; 4];
    for c in 0..k {
        let piv = (c..k).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[piv][c].abs().partial_cmp(&1e-300) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        m.swap(c, piv);
        b.swap(c, piv);
        inv[c] = 1.0 / m[c][c];
        for r in c + 1..k {
            let f = m[r][c] * inv[c];
            for j in c..k {
                m[r][j] -= f * m[c][j];
            }
            b[r] -= f * b[c];
        }
    }
    for c in (0..k).rev() {
        let s: f64 = (c + 1..k).map(|j| m[c][j] * x[j]).sum();
        x[c] = (b[c] - s) * inv[c];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Fits one model to speed-up points (all weights 1), for the benchmark: the multi-start
/// Levenberg–Marquardt alone, without covariance or leave-one-out.
pub fn fit_speedups(model: Model, ns: &[f64], ss: &[f64]) -> Option<(Vec<f64>, f64)> {
    let k = fitted(model, Space::Speedup);
    if ns.len() < k {
        return None;
    }
    let ws = vec![1.0; ns.len()];
    let r = fit_all(model, Space::Speedup, ns, ss, &ws, false).into_iter().next()?;
    Some((r.p[..k].to_vec(), r.sse))
}
