//! `scalewise transfer`'s request: what its JSON input may hold, key by key, as types. Values
//! and ranges are checked by `transfer::transfer`, naming the key.

/// The runs on machine A, the two machines' figures, the bound and the counts to predict on B.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TransferRequest {
    /// Measured runs on machine A: process count and time.
    pub points: Vec<TransferPoint>,
    /// Machine A, where the runs were made.
    pub from: MachineFigures,
    /// Machine B, to predict on.
    pub to: MachineFigures,
    /// "memory" (default: memory bandwidth per core) or "compute" (FP64 peak per core).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub bound: Option<String>,
    /// Process counts on B to predict at (default: the measured counts).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub predict: Option<Vec<f64>>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TransferPoint {
    /// Processes, ≥ 1.
    pub n: f64,
    /// Wall time, s, > 0.
    pub time_s: f64,
}

/// One machine's figures; any may be left out (a ratio that needs it then cannot be formed).
#[derive(Debug, Default, Clone, Copy, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MachineFigures {
    /// Processes per node sharing its memory bandwidth (≥ 1).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub cores_per_node: Option<f64>,
    /// FP64 peak of one core, GFLOP/s.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub core_gflops: Option<f64>,
    /// Memory bandwidth of one node, GB/s.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub memory_bandwidth_gb_s: Option<f64>,
    /// Fabric latency, µs.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub latency_us: Option<f64>,
    /// Fabric bandwidth, MB/s.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub bandwidth_mb_s: Option<f64>,
}

impl From<MachineFigures> for super::Machine {
    fn from(m: MachineFigures) -> super::Machine {
        super::Machine {
            cores_per_node: m.cores_per_node,
            core_gflops: m.core_gflops,
            memory_bandwidth_gb_s: m.memory_bandwidth_gb_s,
            latency_us: m.latency_us,
            bandwidth_mb_s: m.bandwidth_mb_s,
        }
    }
}
