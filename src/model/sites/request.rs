//! The command's requests for this calculator (`scalewise clusters` and `grid-broadcast`):
//! what their JSON input may hold, key by key, as types (`scalewise schema` prints them as
//! JSON Schema, and the command reads every input through them first, so a key of the wrong
//! type is refused with its path). Values and ranges are checked by the command's own
//! readers, as on the page.

/// `scalewise clusters`: nodes grouped by their latencies.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ClustersRequest {
    /// Square matrix, one row per node, µs.
    pub latency_us: Vec<Vec<f64>>,
    /// 0 to 10 (default 0.2).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub rho: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub symmetrise: Option<bool>,
}

/// `scalewise grid-broadcast`: a broadcast scheduled over k clusters.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GridBroadcastRequest {
    /// k × k latency between coordinators, µs.
    pub latency_us: Vec<Vec<f64>>,
    /// k × k gap of the message between coordinators, µs.
    pub gap_us: Vec<Vec<f64>>,
    /// k local broadcast times, µs.
    pub local_us: Vec<f64>,
    /// The root's cluster (0-based, default 0).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub root: Option<f64>,
    /// Processes per cluster.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub procs: Option<Vec<f64>>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub intra_latency_us: Option<Vec<f64>>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub intra_gap_us: Option<Vec<f64>>,
}
