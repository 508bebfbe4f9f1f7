//! Written by `make validate` (`scalewise validate --transfer --calibration`) from
//! `validation/transfer_pairs.csv`; do not edit by hand. See `transfer.rs` for what these
//! numbers mean.

use crate::model::fit::forecast::Quantiles;

/// Quantiles of ln(measured / transferred) / u with the compute ratio (FP64 peak per core).
pub const COMPUTE: Quantiles = Quantiles { low: -1.0953, high: 1.0901 };
/// The same with the memory ratio (memory bandwidth per core).
pub const MEMORY: Quantiles = Quantiles { low: -0.8564, high: 0.8193 };
/// What they were measured on: pairs, predictions (per bound).
pub const PAIRS: usize = 33;
pub const PREDICTIONS: usize = 445;
/// How often such ranges held on codes held out whole: (share inside, predictions).
pub const COMPUTE_HELD_OUT: (f64, usize) = (0.9213, 445);
pub const MEMORY_HELD_OUT: (f64, usize) = (0.8202, 445);
