//! The command's request for this calculator: what its JSON input may hold, key by key, as
//! types (`scalewise schema` prints them as JSON Schema, and the command reads every input
//! through them first, so a key of the wrong type is refused with its path). Values and
//! ranges are checked by the calculator's own readers, as on the page.

use crate::model::input::request::TextOr;

/// `scalewise comm`: ping-pong times to fit.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommRequest {
    /// At most 4096 measurements.
    pub points: Vec<CommPoint>,
    /// Sizes (bytes) to predict (at most 4096).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub predict: Option<Vec<f64>>,
    /// Formats to write for other tools: a list, or "all".
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub export: Option<Exports>,
    /// For ompi-rules: the largest communicator.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub procs: Option<f64>,
    /// 0 to 1 (0.5).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub latency_share: Option<f64>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommPoint {
    /// 0 to 2^40, whole.
    pub size_bytes: f64,
    /// One-way time, µs (> 0).
    pub time_us: f64,
}

/// A list of format names, or "all".
pub type Exports = TextOr<Vec<String>>;

/// `scalewise broadcast`: one broadcast in every algorithm.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BroadcastRequest {
    /// "hockney", "logp", "loggp" or "plogp".
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub model: Option<String>,
    /// The model's parameters as `scalewise comm` writes them.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub params: Option<ModelParams>,
    /// Instead of params: measurements to fit.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub points: Option<Vec<CommPoint>>,
    /// P, processes.
    pub procs: f64,
    /// m, bytes.
    pub size_bytes: f64,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub latency_share: Option<f64>,
}

/// The keys of one model: hockney {alpha_us, beta_us_per_byte}, logp {l_plus_2o_us, gap_us,
/// w_bytes}, loggp {l_plus_2o_us, big_g_us_per_byte}.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ModelParams {
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub alpha_us: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub beta_us_per_byte: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub bandwidth_mb_s: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub l_plus_2o_us: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub gap_us: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub w_bytes: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub big_g_us_per_byte: Option<f64>,
}
