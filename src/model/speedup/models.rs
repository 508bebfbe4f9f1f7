//! The five speed-up models of seed 004 (Lan 2007, chapter 3, eqs. 3.1–3.7; the universal
//! scalability law beyond the thesis): their shapes S(n), the value fitted in either space
//! (a speed-up, or a time T1/S(n)), the Jacobian of that value in closed form, and gradients
//! by central differences for the bands' delta method.
//!
//! Parameters travel as `[f64; 4]`: the shape parameters first (Downey A, σ; Amdahl c1, c2;
//! Chiang β; Smirni r; USL σ, κ), then T1 in seconds when it is fitted (times without an
//! n = 1 run). Amdahl fitted to times is T(n) = c1 + c2/n itself, c1 and c2 in seconds.

/// A speed-up model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Model {
    Downey,
    Amdahl,
    Chiang,
    Smirni,
    Usl,
}

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
    /// The speed-up at n of the model with these shape parameters (as `param_names` lists
    /// them).
    pub fn speedup(self, params: &[f64], n: f64) -> f64 {
        let mut p = [0.0; 4];
        for (slot, v) in p.iter_mut().zip(params) {
            *slot = *v;
        }
        shape(self, &p, n)
    }
    /// Whether the model's speed-up can fall as n grows.
    pub fn can_decline(self) -> bool {
        self == Model::Usl
    }
    /// Lower and upper bounds of the shape parameters.
    pub(super) fn bounds(self) -> ([f64; 2], [f64; 2]) {
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
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
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
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn downey_high(a: f64, sigma: f64, n: f64) -> f64 {
    if n <= a + a * sigma - sigma {
        n * a * (sigma + 1.0) / (sigma * (n + a - 1.0) + a)
    } else {
        a
    }
}

/// Downey's speed-up, the variant chosen by σ.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn downey(a: f64, sigma: f64, n: f64) -> f64 {
    if sigma <= 1.0 {
        downey_low(a, sigma, n)
    } else {
        downey_high(a, sigma, n)
    }
}

/// Smirni's (1 − rⁿ)/(1 − r), computed without cancellation near r = 1 (where it is n).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn smirni(r: f64, n: f64) -> f64 {
    smirni_at(r, smirni_log(r), n)
}

/// ln r for [`smirni_at`] (as ln(1 − d), d = 1 − r, without cancellation near r = 1); zero
/// where Smirni's curve does not use it (r ≤ 0, or r within 10⁻¹² of 1).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn smirni_log(r: f64) -> f64 {
    let d = 1.0 - r;
    if d < 1e-12 || r <= 0.0 {
        0.0
    } else {
        (-d).ln_1p()
    }
}

/// [`smirni`] with its ln r, `l`, given: rⁿ = e^(n·l).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn smirni_at(r: f64, l: f64, n: f64) -> f64 {
    let d = 1.0 - r;
    if d < 1e-12 {
        n
    } else if r <= 0.0 {
        1.0
    } else {
        -(n * l).exp_m1() / d
    }
}

/// Smirni's speed-up at n (as [`smirni`], to the bit) and its derivative by r, from the one
/// rⁿ (its ln r, `l`, from [`smirni_log`]). S′ = (S − n·rⁿ⁻¹)/(1 − r) cancels where rⁿ is near
/// 1; there (n(1 − r) < 10⁻⁴) its series in d = 1 − r is used: C(n,2) − 2·C(n,3)·d +
/// 3·C(n,4)·d², within 10⁻¹³ of it.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn smirni_grad(r: f64, l: f64, n: f64) -> (f64, f64) {
    let d = 1.0 - r;
    let series = || {
        let c2 = n * (n - 1.0) / 2.0;
        c2 - d * c2 * (n - 2.0) * (2.0 / 3.0) + d * d * c2 * (n - 2.0) * (n - 3.0) / 4.0
    };
    if d < 1e-12 {
        (n, series())
    } else if r <= 0.0 {
        // (1 − rⁿ)/(1 − r) = 1 + r + … for n > 1: slope 1 at r = 0.
        (1.0, if n > 1.0 { 1.0 } else { 0.0 })
    } else {
        let e = (n * l).exp_m1();
        let s = -e / d;
        (s, if n * d < 1e-4 { series() } else { (s - n * (1.0 + e) / r) / d })
    }
}

/// What every point's value of one curve shares, worked out once per parameter set by
/// [`shared`]: Smirni's ln r (a logarithm per point saved); nothing for the other models.
#[derive(Clone, Copy)]
pub(super) struct Shared(f64);

/// The [`Shared`] part of the model's curve at shape parameters `p`.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn shared(model: Model, p: &[f64; 4]) -> Shared {
    Shared(if model == Model::Smirni { smirni_log(p[0]) } else { 0.0 })
}

/// The model's speed-up shape at n for shape parameters `p` (Amdahl: 1/(c1 + c2/n)).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn shape(model: Model, p: &[f64; 4], n: f64) -> f64 {
    shape_at(model, p, shared(model, p), n)
}

/// [`shape`] with the curve's [`Shared`] part given.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn shape_at(model: Model, p: &[f64; 4], sh: Shared, n: f64) -> f64 {
    match model {
        Model::Downey => downey(p[0], p[1], n),
        Model::Amdahl => 1.0 / (p[0] + p[1] / n).max(1e-300),
        Model::Chiang => (1.0 + p[0]) * n / (n + p[0]),
        Model::Smirni => smirni_at(p[0], sh.0, n),
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

/// The fitted value of a model at n: speed-up in [`Space::Speedup`], time in [`Space::Time`].
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn value(model: Model, space: Space, p: &[f64; 4], n: f64) -> f64 {
    match (space, model) {
        (Space::Speedup, _) => shape(model, p, n),
        (Space::Time, Model::Amdahl) => p[0] + p[1] / n,
        (Space::Time, _) => p[model.param_names().len()] / shape(model, p, n),
    }
}

/// Speed-up at n of a model with parameters p fitted in `space`.
pub(super) fn speedup_of(model: Model, space: Space, p: &[f64; 4], n: f64) -> f64 {
    match (space, model) {
        (Space::Time, Model::Amdahl) => (p[0] + p[1]) / (p[0] + p[1] / n).max(1e-300),
        _ => shape(model, p, n),
    }
}

/// The shape's speed-up at n and its derivatives by the shape parameters, in closed form. On a
/// break of Downey's piecewise curve the derivative is the piece's that holds at n.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn shape_grad(model: Model, p: &[f64; 4], sh: Shared, n: f64) -> (f64, [f64; 2]) {
    if model == Model::Smirni {
        let (s, ds) = smirni_grad(p[0], sh.0, n);
        return (s, [ds, 0.0]);
    }
    let s = shape_at(model, p, sh, n);
    let d = match model {
        Model::Downey => {
            let (a, sg) = (p[0], p[1]);
            // One division per piece: what both derivatives share.
            if sg <= 1.0 {
                if n <= a {
                    let den = a + sg / 2.0 * (n - 1.0);
                    let q = n * (n - 1.0) / 2.0 / (den * den);
                    [sg * q, -a * q]
                } else if n <= 2.0 * a - 1.0 {
                    let den = sg * (a - 0.5) + n * (1.0 - sg / 2.0);
                    let q = n / (den * den);
                    [(den - a * sg) * q, -a * (a - 0.5 - n / 2.0) * q]
                } else {
                    [1.0, 0.0]
                }
            } else if n <= a + a * sg - sg {
                let den = sg * (n + a - 1.0) + a;
                let q = n * (n - 1.0) / (den * den);
                [(sg + 1.0) * sg * q, -a * q]
            } else {
                [1.0, 0.0]
            }
        }
        Model::Amdahl => {
            let den = p[0] + p[1] / n;
            if den > 1e-300 {
                [-s * s, -s * s / n]
            } else {
                [0.0, 0.0]
            }
        }
        Model::Chiang => [n * (n - 1.0) / ((n + p[0]) * (n + p[0])), 0.0],
        // Answered above, with its speed-up from the same rⁿ.
        Model::Smirni => [0.0, 0.0],
        Model::Usl => {
            let den = 1.0 + p[0] * (n - 1.0) + p[1] * n * (n - 1.0);
            let f = -n * (n - 1.0) / (den * den);
            [f, f * n]
        }
    };
    (s, d)
}

/// The fitted value at n (as [`value`]) and its derivatives by the first `k` parameters: one
/// row of the Jacobian, in closed form (see [`shape_grad`]); `sh` is [`shared`]`(model, p)`.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn value_grad(model: Model, space: Space, p: &[f64; 4], sh: Shared, k: usize, n: f64) -> (f64, [f64; 4]) {
    let mut out = [0.0; 4];
    match (space, model) {
        (Space::Time, Model::Amdahl) => {
            out[0] = 1.0;
            out[1] = 1.0 / n;
            (p[0] + p[1] / n, out)
        }
        (Space::Speedup, _) => {
            let (s, d) = shape_grad(model, p, sh, n);
            out[..k.min(2)].copy_from_slice(&d[..k.min(2)]);
            (s, out)
        }
        (Space::Time, _) => {
            // T = T1/S: dT/dθ = −T1/S² · dS/dθ, dT/dT1 = 1/S.
            let (s, d) = shape_grad(model, p, sh, n);
            let t1 = k - 1;
            let t = p[t1] / s;
            for j in 0..t1 {
                out[j] = -t / s * d[j];
            }
            out[t1] = 1.0 / s;
            (t, out)
        }
    }
}

/// The gradient of `f` at the first `k` parameters of `p` by central differences, one-sided
/// where a step would cross a bound of [`lo`, `hi`]; zero along a parameter pinned between
/// equal bounds. The delta method of the fits' bands uses it; tests check the closed-form
/// Jacobian rows against it.
pub(super) fn gradient(p: &[f64; 4], lo: &[f64; 4], hi: &[f64; 4], k: usize, f: &dyn Fn(&[f64; 4]) -> f64) -> [f64; 4] {
    let mut out = [0.0; 4];
    for j in 0..k {
        let h = 1e-6 * p[j].abs().max(1e-6);
        let (mut a, mut b) = (*p, *p);
        a[j] = (p[j] + h).min(hi[j]);
        b[j] = (p[j] - h).max(lo[j]);
        let d = a[j] - b[j];
        out[j] = if d > 0.0 { (f(&a) - f(&b)) / d } else { 0.0 };
    }
    out
}
