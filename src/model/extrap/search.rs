//! The model of one region's metric against the process count p, whichever way it moves.
//!
//! The hypotheses searched, each fitted by least squares on relative errors (a region's times
//! span orders of magnitude over p, and every point counts alike):
//! - a constant c₀ (a region that does not change with p is a model too);
//! - Extra-P's performance-model normal form with one term, c₀ + c₁·p^i·log₂(p)^j, over its
//!   exponent set (i from 1/4 to 3, j from 0 to 2) and, for regions that fall with p, the
//!   falling exponents −1/4 to −2 (j 0 or 1). c₀ + c₁/p is Amdahl's law, and Chiang's model in
//!   time;
//! - strong scaling with an overhead that grows: c₀ + c₁/p + c₂·p^i·log₂(p)^j (the universal
//!   scalability law in time is c₀ + c₁/p + c₂·p);
//! - a power law with a continuous exponent, c·p^e;
//! - the speed-up calculator's nonlinear models, Downey's and Smirni's, in time (T₁/S(p)).
//!
//! A hypothesis that predicts a time of 0 or below anywhere it will be asked (the measured
//! counts, the targets, the chart's counts) is left out: a time is positive.
//!
//! The choice is by leave-one-out: every hypothesis is fitted again without each point in
//! turn and scored by the mean relative error at the point left out. Among those whose score
//! is within the noise the repetitions show (or 10 %) of the best, the one with the fewest
//! coefficients wins, then the lowest score.
//!
//! The range of a prediction widens with the distance beyond the data: the chosen hypothesis
//! fitted without the largest count predicts it with a relative error e (at least the noise);
//! at n the half-width in log space is [`RANGE_Q`]·e·h(n)/h₀, h the doublings beyond the largest
//! count (h₀ those of the check), at the level [`LEVEL`] (calibrated on held-out truth, see
//! `scripts/extrap-compare.py` and VALIDATION.md).

use serde::{Deserialize, Serialize};

use crate::model::speedup::{analyse, Measure, Model, Options, RawPoint};

/// The level of the ranges.
pub const LEVEL: f64 = 0.9;
/// The ranges' factor on the held-out check's error per doubling (calibrated, see the module).
pub const RANGE_Q: f64 = 2.5;
/// The smallest relative error a check counts (a model that happened to hit the held-out
/// point exactly still has an error beyond the data).
const MIN_ERROR: f64 = 0.02;

/// One term of the normal form: p^(num/den)·log₂(p)^log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub num: i8,
    pub den: u8,
    pub log: u8,
}

/// Extra-P's exponents of p (growing), then the falling ones.
const GROWING: [(i8, u8); 18] =
    [(1, 4), (1, 3), (1, 2), (2, 3), (3, 4), (1, 1), (5, 4), (4, 3), (3, 2), (5, 3), (7, 4), (2, 1), (9, 4), (7, 3), (5, 2), (8, 3), (11, 4), (3, 1)];
const FALLING: [(i8, u8); 8] = [(-1, 4), (-1, 3), (-1, 2), (-2, 3), (-3, 4), (-1, 1), (-3, 2), (-2, 1)];

impl Term {
    pub fn exponent(self) -> f64 {
        f64::from(self.num) / f64::from(self.den.max(1))
    }

    pub fn eval(self, p: f64) -> f64 {
        let power = if self.num == 0 { 1.0 } else { (self.exponent() * p.ln()).exp() };
        power * p.log2().powi(i32::from(self.log))
    }

    /// Whether the term grows with p (a falling term's coefficient may still be negative).
    pub fn grows(self) -> bool {
        self.num > 0 || (self.num == 0 && self.log > 0)
    }

    /// "p^(1/3)·log₂ p", "1/p", "log₂² p".
    pub fn text(self) -> String {
        let log = match self.log {
            0 => String::new(),
            1 => "log₂ p".into(),
            k => format!("log₂^{k} p"),
        };
        let power = match (self.num, self.den) {
            (0, _) => String::new(),
            (1, 1) => "p".into(),
            (-1, 1) => "p^−1".into(),
            (n, 1) => format!("p^{n}"),
            (n, d) => format!("p^({n}/{d})"),
        }
        .replace('-', "−");
        match (power.is_empty(), log.is_empty()) {
            (false, false) => format!("{power}·{log}"),
            (false, true) => power,
            (true, _) => log,
        }
    }
}

/// The form of a region's model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Form {
    /// c₀ + Σ cₖ·termₖ (no terms: a constant).
    Normal { c0: f64, terms: Vec<(f64, Term)> },
    /// c·p^e.
    Power { c: f64, e: f64 },
    /// A speed-up model of the speed-up calculator, in time: T₁/S(p) with its parameters.
    Speedup { model: Model, params: Vec<f64>, t1: f64 },
}

impl Form {
    /// The model's value at p.
    pub fn eval(&self, p: f64) -> f64 {
        match self {
            Form::Normal { c0, terms } => c0 + terms.iter().map(|(c, t)| c * t.eval(p)).sum::<f64>(),
            Form::Power { c, e } => c * (e * p.ln()).exp(),
            Form::Speedup { model, params, t1 } => t1 / model.speedup(params, p),
        }
    }

    /// How fast the model's terms grow (the largest exponent of p, a log counting a tenth):
    /// among hypotheses that fit alike, the slowest-growing is the simplest.
    pub fn growth(&self) -> f64 {
        match self {
            Form::Normal { terms, .. } => terms.iter().map(|(_, t)| t.exponent() + 0.1 * f64::from(t.log)).fold(0.0, f64::max),
            Form::Power { e, .. } => e.max(0.0),
            Form::Speedup { .. } => 0.0,
        }
    }

    /// Coefficients fitted.
    pub fn size(&self) -> usize {
        match self {
            Form::Normal { terms, .. } => 1 + terms.len(),
            Form::Power { .. } => 2,
            Form::Speedup { params, .. } => params.len() + 1,
        }
    }

    /// The family's name: "constant", "normal form", "power law", or the speed-up model's.
    pub fn family(&self) -> &'static str {
        match self {
            Form::Normal { terms, .. } if terms.is_empty() => "constant",
            Form::Normal { .. } => "normal form",
            Form::Power { .. } => "power law",
            Form::Speedup { model, .. } => model.name(),
        }
    }

    /// The model written out, e.g. "0.21 + 0.058·p^(1/3)·log₂ p".
    pub fn text(&self) -> String {
        let n = |x: f64| crate::model::fmt_num(x, 4);
        match self {
            Form::Normal { c0, terms } => {
                let mut s = n(*c0);
                for (c, t) in terms {
                    let sign = if *c < 0.0 { " − " } else { " + " };
                    s.push_str(&format!("{sign}{}·{}", n(c.abs()), t.text()));
                }
                s
            }
            Form::Power { c, e } => format!("{}·p^{}", n(*c), n(*e)).replace('-', "−"),
            Form::Speedup { model, params, t1 } => {
                let p: Vec<String> = params.iter().map(|x| n(*x)).collect();
                format!("{} / S_{}(p; {})", n(*t1), model.name(), p.join(", "))
            }
        }
    }
}

/// A region's model and how it was chosen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionModel {
    pub form: Form,
    /// Mean relative error at the points left out, one at a time (None with too few points).
    pub loo: Option<f64>,
    /// The held-out check: the relative error at the largest count of the model fitted
    /// without it (at least the noise and 2 %), and the doublings it spans.
    pub check_error: f64,
    pub check_doublings: f64,
    /// The largest count measured.
    pub p_max: f64,
    /// Why a simple model stands where the points allow no better (one or two points).
    pub note: Option<String>,
}

impl RegionModel {
    /// (time, low, high) at p: the prediction and its range at [`LEVEL`].
    pub fn at(&self, p: f64) -> (f64, f64, f64) {
        let t = self.form.eval(p);
        let beyond = (p / self.p_max).log2().max(0.0);
        let w = RANGE_Q * self.check_error * beyond / self.check_doublings.max(0.25);
        (t, t * (-w).exp(), t * w.exp())
    }

    /// Whether the model's time grows with p beyond the data.
    pub fn grows(&self) -> bool {
        self.form.eval(4.0 * self.p_max) > self.form.eval(self.p_max) * 1.02
    }
}

/// Solves the small system a·x = b (n ≤ 4) by elimination with partial pivoting.
fn solve(mut a: [[f64; 4]; 4], mut b: [f64; 4], n: usize) -> Option<[f64; 4]> {
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for r in col + 1..n {
            let f = a[r][col] / a[col][col];
            for c in col..n {
                a[r][c] -= f * a[col][c];
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = [0.0; 4];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x.iter().take(n).all(|v| v.is_finite()).then_some(x)
}

/// Least squares of y ≈ Σ xₖ·basisₖ(p) on relative errors over the points `use_`; the
/// coefficients.
fn fit_linear(ps: &[f64], ys: &[f64], use_: &dyn Fn(usize) -> bool, basis: &[&dyn Fn(f64) -> f64]) -> Option<[f64; 4]> {
    let m = basis.len();
    let (mut a, mut b) = ([[0.0; 4]; 4], [0.0; 4]);
    for i in (0..ps.len()).filter(|&i| use_(i)) {
        let w = 1.0 / (ys[i] * ys[i]);
        let f: Vec<f64> = basis.iter().map(|g| g(ps[i])).collect();
        for r in 0..m {
            b[r] += w * f[r] * ys[i];
            for c in 0..m {
                a[r][c] += w * f[r] * f[c];
            }
        }
    }
    // Scaled, so that the pivots compare columns of very different sizes fairly.
    let scale: Vec<f64> = (0..m).map(|r| a[r][r].sqrt().max(1e-300)).collect();
    for r in 0..m {
        b[r] /= scale[r];
        for c in 0..m {
            a[r][c] /= scale[r] * scale[c];
        }
    }
    let mut x = solve(a, b, m)?;
    for (r, s) in scale.iter().enumerate() {
        x[r] /= s;
    }
    Some(x)
}

/// Weighted least squares on relative errors with the given columns (values at each point,
/// the constant first), and the leave-one-out relative errors from the same fit (the hat
/// matrix: e₍₋ᵢ₎ = eᵢ/(1 − hᵢᵢ)). The coefficients and the mean leave-one-out error.
fn linear_loo(ys: &[f64], cols: &[&[f64]]) -> Option<([f64; 4], f64)> {
    let (k, m) = (ys.len(), cols.len());
    let weight = |i: usize| 1.0 / ys[i];
    // Rows scaled by 1/y: ordinary least squares of 1 ≈ Σ x_c·col_c/y.
    let (mut a, mut b) = ([[0.0; 4]; 4], [0.0; 4]);
    for i in 0..k {
        let w = weight(i);
        for r in 0..m {
            let xr = cols[r][i] * w;
            b[r] += xr * ys[i] * w;
            for c in r..m {
                a[r][c] += xr * cols[c][i] * w;
            }
        }
    }
    for r in 0..m {
        for c in 0..r {
            a[r][c] = a[c][r];
        }
    }
    // Scaled, so that pivots compare columns of very different sizes fairly.
    let mut scale = [1.0; 4];
    for r in 0..m {
        scale[r] = a[r][r].sqrt().max(1e-300);
    }
    for r in 0..m {
        b[r] /= scale[r];
        for c in 0..m {
            a[r][c] /= scale[r] * scale[c];
        }
    }
    // The inverse, column by column (m ≤ 4), for the coefficients and the hat matrix.
    let mut inv = [[0.0; 4]; 4];
    for c in 0..m {
        let mut e = [0.0; 4];
        e[c] = 1.0;
        let col = solve(a, e, m)?;
        for r in 0..m {
            inv[r][c] = col[r];
        }
    }
    let mut x = [0.0; 4];
    for r in 0..m {
        x[r] = (0..m).map(|c| inv[r][c] * b[c]).sum::<f64>() / scale[r];
    }
    let mut sum = 0.0;
    for i in 0..k {
        let w = weight(i);
        let row: [f64; 4] = std::array::from_fn(|r| if r < m { cols[r][i] * w / scale[r] } else { 0.0 });
        let h: f64 = (0..m).map(|r| (0..m).map(|c| row[r] * inv[r][c] * row[c]).sum::<f64>()).sum();
        let fitted: f64 = (0..m).map(|r| x[r] * cols[r][i]).sum();
        let e = (ys[i] - fitted) / ys[i] / (1.0 - h).max(1e-9);
        sum += if e.is_finite() { e.abs() } else { 1e6 };
    }
    x.iter().all(|v| v.is_finite()).then_some((x, sum / k as f64))
}

/// A candidate: its form from a subset of the points.
type Fitter<'a> = dyn Fn(&dyn Fn(usize) -> bool) -> Option<Form> + 'a;

/// Mean relative error at each point left out in turn, and the fit on every point.
fn score(ps: &[f64], ys: &[f64], fitter: &Fitter, checks: &[f64]) -> Option<(Form, f64)> {
    let form = fitter(&|_| true)?;
    if !checks.iter().chain(ps).all(|&p| form.eval(p).is_finite() && form.eval(p) > 0.0) {
        return None;
    }
    let k = ps.len();
    let mut sum = 0.0;
    for out in 0..k {
        let f = fitter(&|i| i != out)?;
        let e = (f.eval(ps[out]) - ys[out]).abs() / ys[out];
        sum += if e.is_finite() { e } else { 1e6 };
    }
    Some((form, sum / k as f64))
}

/// The model of one region from its (p, time, noise) points, in increasing p, all times > 0.
/// `checks` are the counts it will be asked at (targets, chart): a hypothesis that is not a
/// positive finite time at each of them is left out.
pub fn search(points: &[(f64, f64, f64)], checks: &[f64]) -> Result<RegionModel, String> {
    let ps: Vec<f64> = points.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    let k = ps.len();
    if k == 0 || ys.iter().any(|y| !(y.is_finite() && *y > 0.0)) || ps.iter().any(|p| !(p.is_finite() && *p >= 1.0)) {
        return Err("no points with a time above 0 at a process count of 1 or more".into());
    }
    let p_max = ps[k - 1];
    let mut noise: Vec<f64> = points.iter().map(|p| p.2).filter(|x| x.is_finite()).collect();
    noise.sort_by(f64::total_cmp);
    let noise = noise.get(noise.len() / 2).copied().unwrap_or(0.0);
    if k == 1 {
        return Ok(RegionModel {
            form: Form::Normal { c0: ys[0], terms: Vec::new() },
            loo: None,
            check_error: MIN_ERROR.max(noise).max(0.5),
            check_doublings: 1.0,
            p_max,
            note: Some(format!("one process count measured: held at its measured {} s", crate::model::fmt_num(ys[0], 4))),
        });
    }
    if k == 2 {
        let e = (ys[1] / ys[0]).ln() / (ps[1] / ps[0]).ln();
        let c = ys[0] / (e * ps[0].ln()).exp();
        let form = if e.is_finite() && c.is_finite() { Form::Power { c, e } } else { Form::Normal { c0: ys[1], terms: Vec::new() } };
        return Ok(RegionModel {
            form,
            loo: None,
            check_error: MIN_ERROR.max(noise).max(0.25),
            check_doublings: (ps[1] / ps[0]).log2(),
            p_max,
            note: Some("two process counts measured: a power law through them, with a wide range".into()),
        });
    }
    let falls = ys[k - 1] < ys[0];
    let mut cands: Vec<(Form, f64)> = Vec::new();
    // The linear hypotheses: columns of each term's values at the points, computed once.
    let ones = vec![1.0; k];
    let mut terms: Vec<Term> = Vec::new();
    for &(num, den) in &GROWING {
        for log in 0..3 {
            terms.push(Term { num, den, log });
        }
    }
    terms.push(Term { num: 0, den: 1, log: 1 });
    terms.push(Term { num: 0, den: 1, log: 2 });
    let growing = terms.len();
    for &(num, den) in &FALLING {
        for log in 0..2 {
            terms.push(Term { num, den, log });
        }
    }
    let values: Vec<Vec<f64>> = terms.iter().map(|t| ps.iter().map(|&p| t.eval(p)).collect()).collect();
    let inv_col = ps.iter().map(|p| 1.0 / p).collect::<Vec<f64>>();
    let inv = Term { num: -1, den: 1, log: 0 };
    let positive = |f: &Form| checks.iter().chain(&ps).all(|&p| f.eval(p).is_finite() && f.eval(p) > 0.0);
    let mut linear = |cols: &[&[f64]], make: &dyn Fn(&[f64; 4]) -> Form| {
        if let Some((x, loo)) = linear_loo(&ys, cols) {
            let form = make(&x);
            if positive(&form) {
                cands.push((form, loo));
            }
        }
    };
    // The constant.
    linear(&[&ones], &|x| Form::Normal { c0: x[0], terms: Vec::new() });
    // One term of the normal form, growing or falling.
    for (t, v) in terms.iter().zip(&values) {
        linear(&[&ones, v], &|x| Form::Normal { c0: x[0], terms: vec![(x[1], *t)] });
    }
    // Strong scaling with a growing overhead (a point more than its three coefficients when
    // one is left out).
    if k >= 5 {
        for (g, v) in terms.iter().zip(&values).take(growing) {
            linear(&[&ones, &inv_col, v], &|x| Form::Normal { c0: x[0], terms: vec![(x[1], inv), (x[2], *g)] });
        }
    }
    // A power law, by least squares on the logarithms.
    let (lp, ly): (Vec<f64>, Vec<f64>) = (ps.iter().map(|p| p.ln()).collect(), ys.iter().map(|y| y.ln()).collect());
    cands.extend(score(&ps, &ys, &|u: &dyn Fn(usize) -> bool| {
        let idx: Vec<usize> = (0..k).filter(|&i| u(i)).collect();
        let n = idx.len() as f64;
        let (mx, my) = (idx.iter().map(|&i| lp[i]).sum::<f64>() / n, idx.iter().map(|&i| ly[i]).sum::<f64>() / n);
        let sxx: f64 = idx.iter().map(|&i| (lp[i] - mx).powi(2)).sum();
        let sxy: f64 = idx.iter().map(|&i| (lp[i] - mx) * (ly[i] - my)).sum();
        (sxx > 0.0).then(|| {
            let e = sxy / sxx;
            Form::Power { c: (my - e * mx).exp(), e }
        })
    }, checks));
    // The speed-up calculator's nonlinear models, for regions that fall, when the hypotheses
    // above leave an error beyond the noise (each costs a fit per point left out).
    let explained = cands.iter().map(|c| c.1).fold(f64::INFINITY, f64::min) <= noise.max(MIN_ERROR);
    if falls && k >= 4 && !explained {
        for model in [Model::Downey, Model::Smirni] {
            let raw: Vec<RawPoint> = ps.iter().zip(&ys).map(|(&n, &value)| RawPoint { n, value, weight: None, line: None }).collect();
            cands.extend(score(&ps, &ys, &|u: &dyn Fn(usize) -> bool| {
                let sub: Vec<RawPoint> = raw.iter().enumerate().filter(|(i, _)| u(*i)).map(|(_, r)| *r).collect();
                let opts = Options { models: vec![model], leave_one_out: false, ..Options::default() };
                let a = analyse("points", &sub, Measure::TimeS, &opts).ok()?;
                let f = a.fits.first()?;
                let t1 = a.t1_measured.or_else(|| f.params.iter().find(|p| p.name == "T1").map(|p| p.value))?;
                let params: Vec<f64> = f.params.iter().filter(|p| p.name != "T1").map(|p| p.value).collect();
                Some(Form::Speedup { model, params, t1 })
            }, checks));
        }
    }
    let best = cands.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
    if !best.is_finite() {
        return Err("no model gives a positive time at every count asked".into());
    }
    let tolerance = best + (0.1 * best).max(noise);
    let (form, loo) = cands
        .into_iter()
        .filter(|c| c.1 <= tolerance)
        .min_by(|a, b| a.0.size().cmp(&b.0.size()).then(a.1.total_cmp(&b.1)))
        .ok_or("no model could be chosen")?;
    // The held-out check: the same hypothesis fitted without the largest count.
    let check = refit_without_last(&form, &ps, &ys);
    let check_error = check.map_or(0.5, |f| (f.eval(p_max) / ys[k - 1]).ln().abs()).max(MIN_ERROR).max(noise);
    Ok(RegionModel { form, loo: Some(loo), check_error, check_doublings: (p_max / ps[k - 2]).log2(), p_max, note: None })
}

/// The same hypothesis as `form`, fitted on every point but the last.
fn refit_without_last(form: &Form, ps: &[f64], ys: &[f64]) -> Option<Form> {
    let k = ps.len();
    let u = |i: usize| i + 1 < k;
    match form {
        Form::Normal { terms, .. } => {
            let ts: Vec<Term> = terms.iter().map(|t| t.1).collect();
            let fs: Vec<Box<dyn Fn(f64) -> f64>> =
                std::iter::once(Box::new(|_| 1.0) as Box<dyn Fn(f64) -> f64>).chain(ts.iter().map(|&t| Box::new(move |p| t.eval(p)) as Box<dyn Fn(f64) -> f64>)).collect();
            let refs: Vec<&dyn Fn(f64) -> f64> = fs.iter().map(|f| f.as_ref()).collect();
            let x = fit_linear(ps, ys, &u, &refs)?;
            Some(Form::Normal { c0: x[0], terms: ts.iter().enumerate().map(|(i, &t)| (x[i + 1], t)).collect() })
        }
        Form::Power { .. } => {
            let (lp, ly): (Vec<f64>, Vec<f64>) = (ps[..k - 1].iter().map(|p| p.ln()).collect(), ys[..k - 1].iter().map(|y| y.ln()).collect());
            let n = lp.len() as f64;
            let (mx, my) = (lp.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
            let sxx: f64 = lp.iter().map(|x| (x - mx).powi(2)).sum();
            let sxy: f64 = lp.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
            (sxx > 0.0).then(|| Form::Power { c: (my - sxy / sxx * mx).exp(), e: sxy / sxx })
        }
        Form::Speedup { model, .. } => {
            let raw: Vec<RawPoint> = ps[..k - 1].iter().zip(ys).map(|(&n, &value)| RawPoint { n, value, weight: None, line: None }).collect();
            let opts = Options { models: vec![*model], leave_one_out: false, ..Options::default() };
            let a = analyse("points", &raw, Measure::TimeS, &opts).ok()?;
            let f = a.fits.first()?;
            let t1 = a.t1_measured.or_else(|| f.params.iter().find(|p| p.name == "T1").map(|p| p.value))?;
            Some(Form::Speedup { model: *model, params: f.params.iter().filter(|p| p.name != "T1").map(|p| p.value).collect(), t1 })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(f: impl Fn(f64) -> f64) -> Vec<(f64, f64, f64)> {
        [2.0, 4.0, 8.0, 16.0, 32.0].iter().map(|&p| (p, f(p), 0.01)).collect()
    }

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b
    }

    #[test]
    fn growing_falling_and_flat_regions_are_found_and_extrapolate() {
        let checks = [128.0, 512.0];
        let cases: [(&str, Box<dyn Fn(f64) -> f64>); 6] = [
            ("sqrt", Box::new(|p: f64| 0.2 + 0.05 * p.sqrt())),
            ("log", Box::new(|p: f64| 1.0 + 0.3 * p.log2())),
            ("p log p", Box::new(|p: f64| 0.01 * p * p.log2())),
            ("amdahl", Box::new(|p: f64| 2.0 + 100.0 / p)),
            ("power", Box::new(|p: f64| 50.0 * p.powf(-0.8))),
            ("flat", Box::new(|_| 3.0)),
        ];
        for (name, f) in cases {
            let m = search(&pts(&f), &checks).unwrap_or_else(|e| panic!("{name}: {e}"));
            for p in checks {
                let (t, lo, hi) = m.at(p);
                assert!(rel(t, f(p)) < 0.05, "{name} at {p}: {} ({}) vs {}", t, m.form.text(), f(p));
                assert!(lo <= t && t <= hi, "{name}");
            }
        }
        let grows = search(&pts(|p| 0.2 + 0.05 * p.sqrt()), &checks).unwrap();
        assert!(grows.grows());
        assert!(!search(&pts(|p| 2.0 + 100.0 / p), &checks).unwrap().grows());
        assert_eq!(search(&pts(|_| 3.0), &checks).unwrap().form.family(), "constant");
    }

    #[test]
    fn closed_forms_read_as_written() {
        let f = Form::Normal { c0: 0.21, terms: vec![(0.058, Term { num: 1, den: 3, log: 1 })] };
        assert_eq!(f.text(), "0.21 + 0.058·p^(1/3)·log₂ p");
        let f = Form::Normal { c0: 2.0, terms: vec![(100.0, Term { num: -1, den: 1, log: 0 }), (-0.5, Term { num: 0, den: 1, log: 2 })] };
        assert_eq!(f.text(), "2 + 100·p^−1 − 0.5·log₂^2 p");
        assert_eq!(Form::Power { c: 50.0, e: -0.8 }.text(), "50·p^−0.8");
    }

    #[test]
    fn few_points_still_give_a_model_and_say_why() {
        let one = search(&[(4.0, 2.5, 0.0)], &[64.0]).unwrap();
        assert_eq!(one.at(64.0).0, 2.5);
        assert!(one.note.as_deref().is_some_and(|n| n.contains("one process count")));
        let two = search(&[(4.0, 2.0, 0.0), (8.0, 1.0, 0.0)], &[64.0]).unwrap();
        assert!(rel(two.at(64.0).0, 0.125) < 1e-9);
        assert!(search(&[], &[]).is_err());
        assert!(search(&[(4.0, -1.0, 0.0), (8.0, 1.0, 0.0), (16.0, 1.0, 0.0)], &[]).is_err());
    }
}
