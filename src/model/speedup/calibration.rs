//! Written by `make validate` (`scalewise validate --calibration`) from the validation
//! corpora; do not edit by hand. See `forecast.rs` for what these numbers mean.

use super::forecast::Quantiles;

/// Quantiles of the forecast's scores.
pub const FORECAST: Quantiles = Quantiles { low: -0.3571, high: 0.1835 };
/// Quantiles of each fitted model's scores, in the order of `MODELS`.
pub const MODELS: [Quantiles; 5] = [
    Quantiles { low: -0.8074, high: 0.0897 }, // downey
    Quantiles { low: -0.3694, high: 0.2225 }, // amdahl
    Quantiles { low: -0.3694, high: 0.2131 }, // chiang
    Quantiles { low: -0.4273, high: 0.1926 }, // smirni
    Quantiles { low: -0.6249, high: 0.1520 }, // usl
];
/// Quantiles for predictions scaled by the horizon alone (the multigrid planner's).
pub const HORIZON_ONLY: Quantiles = Quantiles { low: -0.7098, high: 0.2237 };
/// Their ranges on held-out sources: (share inside, predictions).
pub const HORIZON_ONLY_HELD_OUT: (f64, usize) = (0.8749, 2286);
/// The horizons of the track record: up to this many times the largest measured count.
pub const HORIZON_TOPS: [f64; 4] = [2.0, 4.0, 16.0, f64::INFINITY];
/// The forecast's ranges on held-out sources, by horizon (above the one before, up to this
/// one): (share inside, measurements).
pub const HELD_OUT: [(f64, usize); 4] = [(0.8993, 139), (0.8922, 102), (0.8609, 115), (0.9600, 25)];
/// What the calibration was measured on: sources, and predictions (K = 3 and 4 pooled).
pub const SOURCES: usize = 7;
pub const MEASUREMENTS: usize = 381;
