//! The speed-up calculator (seed 004): its page's inputs and view ([`page`]), the command's
//! request ([`request`]) and weak scaling ([`weak`]). The models, their fits and the forecast
//! are the shared fitting engine's (`crate::model::fit`), named here as the calculator's own.

pub mod page;
pub mod request;
pub mod weak;

pub use crate::model::fit::{
    analyse, benchmark_datasets, benchmark_run, downey, downey_high, downey_low, fit_speedups, predict, quantiles,
    smirni, Analysis, Fit, Measure, Model, Options, Param, PointView, Prediction, RawPoint, Skipped, Space, Suggestion,
    Termination, MAX_ITERATIONS, MAX_LOO_POINTS, MAX_POINTS, MAX_PREDICT, MAX_SPEEDUP, MAX_TIME_S, MIN_SPEEDUP,
    MIN_TIME_S, MODELS, RIVALS,
};
