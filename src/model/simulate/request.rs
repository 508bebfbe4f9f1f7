//! The command's request for this calculator: what its JSON input may hold, key by key, as
//! types (`scalewise schema` prints them as JSON Schema, and the command reads every input
//! through them first, so a key of the wrong type is refused with its path). Values and
//! ranges are checked by the calculator's own readers, as on the page.

use std::collections::BTreeMap;

use crate::model::input::request::TextOr;

/// `scalewise simulate`: a program skeleton run on a machine model.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SimulateRequest {
    /// The program's skeleton, as text.
    pub skeleton: String,
    /// Overrides of the skeleton's Param defaults: numbers or expression texts.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub params: Option<BTreeMap<String, NumberOrText>>,
    /// Process counts, each 1 to 16384.
    pub numprocs: Vec<Number>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub procs_per_node: Option<NumberOrText>,
    /// "perseus" (default) or an object.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub machine: Option<MachineRequest>,
    /// "distribution" (default), "average" or "minimum".
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub mode: Option<String>,
    /// "moment" (default), "configuration" or "none".
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub contention: Option<String>,
    /// 1 to 10000 (default 20).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub replications: Option<NumberOrText>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub seed: Option<NumberOrText>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub compare: Option<bool>,
    /// The time speed-ups are relative to, s (> 0).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub sequential_s: Option<Number>,
    /// Ops one replication may run (1000 to 1e12, default 1e8).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub max_steps: Option<Number>,
    /// Ops the whole job may run (1000 to 1e12, default 2e9).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub max_job_steps: Option<Number>,
    /// Megabytes one replication may hold in messages waiting to be matched, as told before
    /// it starts (1 to 1e6, default 512).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub max_run_mb: Option<Number>,
}

/// A number as written in the input (messages show it so: `found 0`, not `found 0.0`).
pub type Number = serde_json::Number;

/// A number, or a number (or expression) written as text.
pub type NumberOrText = TextOr<Number>;

/// "perseus", or an object.
pub type MachineRequest = TextOr<MachineFigures>;

/// {latency_us, bandwidth_mbit_s}, {histograms} or {calibration}.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MachineFigures {
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub latency_us: Option<Number>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub bandwidth_mbit_s: Option<Number>,
    /// MPIBench-style histograms as a table.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub histograms: Option<String>,
    /// Raw per-message timings.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub calibration: Option<String>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub name: Option<String>,
}
