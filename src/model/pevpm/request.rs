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
    pub params: Option<BTreeMap<String, NumberOrText>>,
    /// Process counts, each 1 to 1024.
    pub numprocs: Vec<f64>,
    pub procs_per_node: Option<NumberOrText>,
    /// "perseus" (default) or an object.
    pub machine: Option<MachineRequest>,
    /// "distribution" (default), "average" or "minimum".
    pub mode: Option<String>,
    /// "moment" (default), "configuration" or "none".
    pub contention: Option<String>,
    /// 1 to 10000 (default 20).
    pub replications: Option<NumberOrText>,
    pub seed: Option<NumberOrText>,
    pub compare: Option<bool>,
    pub sequential_s: Option<NumberOrText>,
    pub max_steps: Option<NumberOrText>,
    pub max_job_steps: Option<NumberOrText>,
}

/// A number, or a number (or expression) written as text.
pub type NumberOrText = TextOr<f64>;

/// "perseus", or an object.
pub type MachineRequest = TextOr<MachineFigures>;

/// {latency_us, bandwidth_mbit_s}, {histograms} or {calibration}.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MachineFigures {
    pub latency_us: Option<f64>,
    pub bandwidth_mbit_s: Option<f64>,
    /// MPIBench-style histograms as a table.
    pub histograms: Option<String>,
    /// Raw per-message timings.
    pub calibration: Option<String>,
    pub name: Option<String>,
}
