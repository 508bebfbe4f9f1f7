//! What a chart shows, as data: the one definition of a series and a band. The pages' models
//! compute them in the quantities' own units; `charts::xy` draws them, adding how (marker,
//! colour, emphasis).

use serde::{Deserialize, Serialize};

/// A line or a set of points: (x, y) each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// A range between a low and a high curve: (x, low, high) each.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Band {
    pub label: String,
    pub points: Vec<(f64, f64, f64)>,
}
