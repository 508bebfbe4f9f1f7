//! The fitting engine the calculators share, importing none of them: weighted least-squares
//! lines ([`line`]); the speed-up models fitted by bounded Levenberg–Marquardt, compared, and
//! forecast with calibrated ranges (seed 004: Lan, "Investigation of Downey model for speedup
//! prediction", Windsor 2007, chapters 3 and 5; spec `speedup-fit.md`); and the search of a
//! region's model over Extra-P's normal form and those speed-up models ([`search`], [`region`]),
//! which the Bottlenecks page ranks regions with and the speed-up page models weak scaling with.
//!
//! The user gives measured points (n, T(n)) in seconds or (n, S(n)) with S = T(1)/T(n), n a
//! whole number of processes ≥ 1, optional positive weights. Every model of the list (`models`,
//! where each one's curve is written) is fitted by weighted least squares, all on the same
//! residuals so they compare on equal terms.
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
//! time) are flagged and, by default, left out of the fits of the models that cannot fall
//! (`Family::CAN_DECLINE`), as the thesis advises (chapter 6.6); those that can always see
//! every point. Model comparison: AICc, then leave-one-out error, then squared error.
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
pub use models::{downey, downey_high, downey_low, smirni, Measure, Model, Space, MODELS, RIVALS};

#[cfg(test)]
mod tests;
