//! Written by `make validate` (`scalewise validate --transfer --calibration`) from
//! `validation/transfer_pairs.csv`; do not edit by hand. See `transfer.rs` for what these
//! numbers mean.

use crate::model::speedup::forecast::Quantiles;

/// Quantiles of ln(measured / transferred) / u with the compute ratio (FP64 peak per core).
pub const COMPUTE: Quantiles = Quantiles { low: -3.4863, high: 3.6337 };
/// The same with the memory ratio (memory bandwidth per core).
pub const MEMORY: Quantiles = Quantiles { low: -2.7329, high: 2.6902 };
/// What they were measured on: pairs, predictions (per bound).
pub const PAIRS: usize = 33;
pub const PREDICTIONS: usize = 445;
