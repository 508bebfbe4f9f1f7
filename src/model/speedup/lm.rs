//! The bounded Levenberg–Marquardt that fits the speed-up models (seed 004: the thesis tunes
//! Downey's model by Levenberg–Marquardt, chapter 5), and where it starts.
//!
//! Weighted least squares over up to 4 parameters: Marquardt's diagonal scaling, the
//! Jacobian by central differences ([`super::models`]), bounds by projection with an active
//! set (a parameter at a bound whose gradient points outwards stays put for a step). Each run
//! ends with a [`Termination`], as the `levenberg-marquardt` crate's `TerminationReason`
//! (that crate cost 8.5–17.5 KB gzipped of wasm for 2–4 parameters). Several starts per model
//! — for Downey on both sides of σ = 1 — keep the lowest squared error; Downey's error is not
//! smooth where a measured n sits on a break of its piecewise curve, so a search along those
//! ridges follows ([`Problem::fit`]).

// Dense k×k algebra (k ≤ 4) reads best with indices.
#![allow(clippy::needless_range_loop)]

use super::models::{shape, value, value_grad, Model, Space};
use crate::model::fit::line;

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
    /// No damping made a step that lowers the squared error: a (local) minimum.
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
    pub(super) fn value(&self, p: &[f64; 4], n: f64) -> f64 {
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

    /// JᵀWJ and JᵀW r at p (r = y − f).
    pub(super) fn normal(&self, p: &[f64; 4]) -> ([[f64; 4]; 4], [f64; 4]) {
        let mut h = [[0.0; 4]; 4];
        let mut g = [0.0; 4];
        for ((n, y), w) in self.ns.iter().zip(self.ys).zip(self.ws) {
            // One row of the Jacobian.
            let (v, d) = value_grad(self.model, self.space, p, &self.lo, &self.hi, self.k, *n);
            let r = y - v;
            for a in 0..self.k {
                g[a] += w * d[a] * r;
                for b in 0..self.k {
                    h[a][b] += w * d[a] * d[b];
                }
            }
        }
        (h, g)
    }

    /// Bounded Levenberg–Marquardt from `start`; `bar` is the lowest squared error another
    /// start reached (infinity if none), below which a slow run could not come in time.
    fn lm(&self, start: [f64; 4], bar: f64) -> LmRun {
        let k = self.k;
        let mut p = start;
        self.clamp(&mut p);
        let mut f = self.sse(&p);
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
            let (h, g) = self.normal(&p);
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
    pub(super) fn fit(&self) -> LmRun {
        let mut best = LmRun { p: [1.0; 4], sse: f64::INFINITY, iterations: 0, termination: Termination::NotFinite };
        let keep = |best: &mut LmRun, r: LmRun| {
            if r.sse < best.sse {
                *best = r;
            }
        };
        for s in self.starts() {
            let r = self.lm(s, best.sse);
            keep(&mut best, r);
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
    /// The bound σ = 0 (S = min(n, A)) is searched the same way: from a start below its
    /// minimum, LM raises σ instead of A and T1 together and stops on the kink at σ = 1.
    fn downey_ridges(&self, a_fit: f64) -> Option<LmRun> {
        let a_top = (4.0 * a_fit).clamp(2.0, self.hi[0]);
        // (kind, n, t range): 0 is σ = 1 with A = eᵗ; 1 is A = n, σ = t; 2 is A = (n+1)/2,
        // σ = t (low variance); 3 is σ = eᵗ, A = (n+σ)/(1+σ) (high variance, n on the break);
        // 4 is σ = 0 with A = eᵗ.
        let mut ridges = vec![(0u8, 0.0, 0.0, a_top.ln()), (4, 0.0, 0.0, a_top.ln())];
        for &n in self.ns {
            ridges.extend([(1, n, 0.0, 1.0), (2, n, 0.0, 1.0), (3, n, 0.0, self.hi[1].ln())]);
        }
        let point = |kind: u8, n: f64, t: f64| match kind {
            0 => (t.exp(), 1.0),
            1 => (n, t),
            2 => ((n + 1.0) / 2.0, t),
            4 => (t.exp(), 0.0),
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
        best.map(|(_, p)| self.lm(p, f64::INFINITY))
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
pub(super) fn solve(mut m: [[f64; 4]; 4], mut b: [f64; 4], k: usize) -> Option<[f64; 4]> {
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
