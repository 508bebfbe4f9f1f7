//! The pair of numbers a range is made of, in a file of its own so that the calibration
//! `make validate` writes (`calibration.rs`) and the forecast that reads it (`forecast.rs`)
//! both import it and neither imports the other's reader.

/// Quantiles of ln(measured / predicted) / u: the range is [e^(low·u), e^(high·u)] times the
/// prediction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantiles {
    pub low: f64,
    pub high: f64,
}
