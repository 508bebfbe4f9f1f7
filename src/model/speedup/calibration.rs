//! Written by `make validate` (`scalewise validate --calibration`) from the validation
//! corpora; do not edit by hand. See `forecast.rs` for what these numbers mean.

use super::forecast::Quantiles;

/// Quantiles of the forecast's scores, per count class (3 or fewer measured counts, 4 or
/// more) and horizon band (`HORIZON_TOPS`).
pub const FORECAST: [[Quantiles; 4]; 2] = [
    [Quantiles { low: -0.1404, high: 0.1907 }, Quantiles { low: -0.1791, high: 0.4040 }, Quantiles { low: -0.3114, high: 0.7796 }, Quantiles { low: -0.3829, high: 1.1223 }],
    [Quantiles { low: -0.1637, high: 0.2868 }, Quantiles { low: -0.2631, high: 0.5276 }, Quantiles { low: -0.3339, high: 0.8575 }, Quantiles { low: -0.2546, high: 1.0167 }],
];
/// Quantiles of each fitted model's scores, in the order of `MODELS`, as `FORECAST`.
pub const MODELS: [[[Quantiles; 4]; 2]; 5] = [
    // downey
    [
        [Quantiles { low: -0.6501, high: 0.0315 }, Quantiles { low: -1.1854, high: 0.0238 }, Quantiles { low: -1.8736, high: 0.0647 }, Quantiles { low: -2.2368, high: 0.0168 }],
        [Quantiles { low: -0.5791, high: 0.1154 }, Quantiles { low: -1.0526, high: 0.1343 }, Quantiles { low: -1.6531, high: 0.0146 }, Quantiles { low: -1.5343, high: 0.0218 }],
    ],
    // amdahl
    [
        [Quantiles { low: -0.2611, high: 0.2121 }, Quantiles { low: -0.3418, high: 0.4314 }, Quantiles { low: -0.4571, high: 0.7083 }, Quantiles { low: -0.6809, high: 1.1518 }],
        [Quantiles { low: -0.2759, high: 0.3331 }, Quantiles { low: -0.3831, high: 0.4940 }, Quantiles { low: -0.5158, high: 0.8021 }, Quantiles { low: -0.8672, high: 1.0603 }],
    ],
    // chiang
    [
        [Quantiles { low: -0.3485, high: 0.1608 }, Quantiles { low: -0.3652, high: 0.3168 }, Quantiles { low: -0.5279, high: 0.7113 }, Quantiles { low: -0.7291, high: 1.1537 }],
        [Quantiles { low: -0.2890, high: 0.2699 }, Quantiles { low: -0.3831, high: 0.4635 }, Quantiles { low: -0.5529, high: 0.7885 }, Quantiles { low: -0.9977, high: 1.0386 }],
    ],
    // smirni
    [
        [Quantiles { low: -0.3677, high: 0.1483 }, Quantiles { low: -0.4891, high: 0.2653 }, Quantiles { low: -0.6991, high: 0.7083 }, Quantiles { low: -0.9087, high: 1.1537 }],
        [Quantiles { low: -0.3539, high: 0.2561 }, Quantiles { low: -0.4963, high: 0.4400 }, Quantiles { low: -0.6695, high: 0.7637 }, Quantiles { low: -1.1137, high: 1.0386 }],
    ],
    // usl
    [
        [Quantiles { low: -0.3485, high: 0.1050 }, Quantiles { low: -0.5003, high: 0.1917 }, Quantiles { low: -0.8637, high: 0.5950 }, Quantiles { low: -1.1898, high: 1.0907 }],
        [Quantiles { low: -0.3501, high: 0.1380 }, Quantiles { low: -0.6920, high: 0.2970 }, Quantiles { low: -0.8889, high: 0.6263 }, Quantiles { low: -1.0161, high: 0.9491 }],
    ],
];
/// The factor on the forecast's scale when every measured run is inside one node and the
/// prediction needs more.
pub const NODE_FACTOR: f64 = 1.0000;
/// Quantiles for predictions scaled by the horizon alone (the multigrid planner's).
pub const HORIZON_ONLY: Quantiles = Quantiles { low: -0.6703, high: 0.4206 };
/// Their ranges on held-out sources: (share inside, predictions).
pub const HORIZON_ONLY_HELD_OUT: (f64, usize) = (0.9121, 40616);
/// The horizons of the track record: up to this many times the largest measured count.
pub const HORIZON_TOPS: [f64; 4] = [2.0, 4.0, 16.0, f64::INFINITY];
/// The forecast's ranges on held-out sources, per count class and horizon band (above the
/// one before, up to this one): (share inside, measurements, median width over the
/// prediction).
pub const HELD_OUT: [[(f64, usize, f64); 4]; 2] = [
    [(0.9135, 451, 0.3873), (0.9148, 587, 0.8516), (0.9478, 1437, 2.5752), (0.8827, 1074, 6.1794)],
    [(0.9273, 523, 0.5567), (0.9400, 583, 1.2232), (0.9367, 1611, 3.2519), (0.9050, 516, 12.5716)],
];
/// The forecast's ranges that left the one node of the runs, on held-out sources: (share
/// inside, measurements).
pub const NODE_HELD_OUT: (f64, usize) = (0.9565, 23);
/// What the calibration was measured on: sources, and predictions (K = 3 and 4 pooled).
pub const SOURCES: usize = 29;
pub const MEASUREMENTS: usize = 6782;
