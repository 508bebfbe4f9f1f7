//! The fitting engine the calculators share, importing none of them: weighted least-squares
//! lines ([`line`]); the speed-up models fitted by bounded Levenberg–Marquardt, compared, and
//! forecast with calibrated ranges (seed 004: Lan, "Investigation of Downey model for speedup
//! prediction", Windsor 2007, chapters 3 and 5; spec `speedup-fit.md`); and the search of a
//! region's model over Extra-P's normal form and those speed-up models ([`search`], [`region`]),
//! which the Bottlenecks page ranks regions with and the speed-up page models weak scaling with.
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
//! The solver is a small bounded Levenberg–Marquardt (Marquardt's diagonal scaling, closed-form
//! Jacobian, bounds by projection with an active set), run from several starts
//! — for Downey on both sides of σ = 1 — keeping the lowest squared error. Uncertainties come
//! from the Jacobian covariance at the optimum, s²(JᵀWJ)⁻¹ with s² = SSE/(m−k); the band and
//! the prediction ranges are ±2 standard errors of the fitted curve (delta method): the
//! uncertainty of the curve, not of one new measurement.
//!
//! Points after the speed-up peak (n above the n of the largest speed-up, or of the shortest
//! time) are flagged and, by default, left out of the fits of the four models that cannot
//! fall (Downey, Amdahl, Chiang, Smirni), as the thesis advises (chapter 6.6); USL always
//! sees every point. Model comparison: AICc, then leave-one-out error, then squared error.
//!
//! The code follows the data: `models` (the curves), `lm` (the solver and its starts),
//! `analysis` (points in, fits, comparison and advice out), [`forecast`] (beyond the data, with
//! the ranges `make validate` measures into [`calibration`]).

pub mod line;
// Before the modules that use its list of families (`with_families!`).
#[macro_use]
mod models;
mod analysis;
// Written by `make validate`, so kept as written (rustfmt skips it).
#[rustfmt::skip]
pub mod calibration;
pub mod forecast;
mod lm;
mod quantiles;
pub mod region;
pub mod search;

pub(crate) use analysis::prepare;
pub use analysis::CORES_PER_NODE;
pub use analysis::{
    analyse, benchmark_datasets, benchmark_run, predict, quantiles, Analysis, Fit, Options, Param, PointView,
    Prediction, RawPoint, Skipped, Suggestion, MAX_LOO_POINTS, MAX_POINTS, MAX_PREDICT, MAX_SPEEDUP, MAX_TIME_S,
    MIN_SPEEDUP, MIN_TIME_S,
};
pub use lm::{fit_speedups, Termination, MAX_ITERATIONS};
pub use models::{downey, downey_high, downey_low, smirni, Measure, Model, Space, MODELS};

#[cfg(test)]
mod tests;
