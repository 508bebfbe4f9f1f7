//! Written by `make validate` (`scalewise validate --calibration`) from the validation
//! corpora; do not edit by hand. See `forecast.rs` for what these numbers mean.

use super::quantiles::Quantiles;

/// Quantiles of the forecast's scores, per count class (3 or fewer measured counts, 4 or
/// more) and horizon band (`HORIZON_TOPS`).
pub const FORECAST: [[Quantiles; 4]; 2] = [
    [Quantiles { low: -0.2007, high: 0.2307 }, Quantiles { low: -0.2007, high: 0.4040 }, Quantiles { low: -0.3752, high: 0.9363 }, Quantiles { low: -0.5030, high: 1.5694 }],
    [Quantiles { low: -0.1891, high: 0.3392 }, Quantiles { low: -0.3513, high: 0.6151 }, Quantiles { low: -0.4589, high: 1.0983 }, Quantiles { low: -0.4589, high: 1.0983 }],
];
/// The share of the scores left out each side for `FORECAST`'s quantiles, per cell: the largest
/// tail, 5 % at most, whose ranges held 90 % on sources held out in turn, each source alike.
pub const TAILS: [[f64; 4]; 2] = [
    [0.0400, 0.0500, 0.0350, 0.0300],
    [0.0350, 0.0300, 0.0250, 0.0500],
];
/// Quantiles of each fitted model's scores, by the model's name, as `FORECAST`.
pub const MODELS: &[(&str, [[Quantiles; 4]; 2])] = &[
    ("downey", [
        [Quantiles { low: -0.6563, high: 0.0374 }, Quantiles { low: -1.1854, high: 0.0374 }, Quantiles { low: -1.8903, high: 0.0854 }, Quantiles { low: -2.6746, high: 0.0854 }],
        [Quantiles { low: -0.5791, high: 0.1154 }, Quantiles { low: -1.0613, high: 0.1507 }, Quantiles { low: -1.6531, high: 0.1507 }, Quantiles { low: -1.6531, high: 0.1507 }],
    ]),
    ("amdahl", [
        [Quantiles { low: -0.4063, high: 0.2384 }, Quantiles { low: -0.4063, high: 0.4314 }, Quantiles { low: -0.5186, high: 0.7617 }, Quantiles { low: -0.8208, high: 1.7833 }],
        [Quantiles { low: -0.3440, high: 0.3979 }, Quantiles { low: -0.4947, high: 0.6264 }, Quantiles { low: -0.5529, high: 0.8191 }, Quantiles { low: -1.0279, high: 1.7290 }],
    ]),
    ("chiang", [
        [Quantiles { low: -0.3545, high: 0.1694 }, Quantiles { low: -0.3975, high: 0.3780 }, Quantiles { low: -0.5446, high: 0.7656 }, Quantiles { low: -0.8213, high: 1.7040 }],
        [Quantiles { low: -0.3440, high: 0.3724 }, Quantiles { low: -0.5107, high: 0.6150 }, Quantiles { low: -0.6489, high: 0.8635 }, Quantiles { low: -1.0437, high: 1.7482 }],
    ]),
    ("smirni", [
        [Quantiles { low: -0.4210, high: 0.1542 }, Quantiles { low: -0.5157, high: 0.3686 }, Quantiles { low: -0.7642, high: 0.8986 }, Quantiles { low: -0.9339, high: 1.2837 }],
        [Quantiles { low: -0.4088, high: 0.3036 }, Quantiles { low: -0.6353, high: 0.5416 }, Quantiles { low: -0.7720, high: 0.8635 }, Quantiles { low: -1.1879, high: 1.7482 }],
    ]),
    ("usl", [
        [Quantiles { low: -0.3545, high: 0.1058 }, Quantiles { low: -0.6230, high: 0.1987 }, Quantiles { low: -0.9137, high: 0.6159 }, Quantiles { low: -1.2390, high: 1.3562 }],
        [Quantiles { low: -0.3782, high: 0.1871 }, Quantiles { low: -0.7625, high: 0.4023 }, Quantiles { low: -0.8889, high: 0.6263 }, Quantiles { low: -1.0161, high: 0.9491 }],
    ]),
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
    [(0.9313, 451, 0.4548), (0.9216, 587, 0.8693), (0.9631, 1437, 3.2014), (0.9395, 1074, 14.9422)],
    [(0.9503, 523, 0.7254), (0.9708, 583, 1.5287), (0.9460, 1611, 3.4411), (0.9419, 516, 12.5913)],
];
/// The forecast's ranges that left the one node of the runs, on held-out sources: (share
/// inside, measurements).
pub const NODE_HELD_OUT: (f64, usize) = (1.0000, 23);
/// What the calibration was measured on: sources, and predictions (K = 3 and 4 pooled).
pub const SOURCES: usize = 29;
pub const MEASUREMENTS: usize = 6782;
