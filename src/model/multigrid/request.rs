//! The command's request for this calculator: what its JSON input may hold, key by key, as
//! types (`scalewise schema` prints them as JSON Schema, and the command reads every input
//! through them first, so a key of the wrong type is refused with its path). Values and
//! ranges are checked by the calculator's own readers, as on the page.

use crate::model::input::request::TextOr;

/// `scalewise multigrid`: calibration runs and predictions, a planner, or both.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MultigridRequest {
    /// Runs on one processor: a list, or the page's pasted table as text ("work (MB), time (s)").
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub sequential: Option<Runs<SequentialRun>>,
    /// Runs on np0 processes at the same per-process sizes: a list, or the page's pasted table
    /// as text ("np work time").
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub parallel: Option<Runs<ParallelRun>>,
    /// (np, work) pairs to predict (at most 4096).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub predict: Option<Vec<MultigridTarget>>,
    /// A job over one or two clusters.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub planner: Option<PlannerRequest>,
}

/// A list of runs, or a pasted table of them as text.
pub type Runs<T> = TextOr<Vec<T>>;

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SequentialRun {
    /// Memory the process needed, MB (> 0).
    pub work_mb: f64,
    /// Run time, s (> 0).
    pub time_s: f64,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ParallelRun {
    /// Processes, at least 2.
    pub np: u32,
    /// Memory per process, MB; must match a sequential run.
    pub work_mb: f64,
    /// Run time, s; not below the sequential time.
    pub time_s: f64,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MultigridTarget {
    /// Processes (≥ 1).
    pub np: u32,
    /// Memory per process, MB.
    pub work_mb: f64,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PlannerRequest {
    /// Grid side N of the N × N problem (≥ 2).
    pub n: u32,
    /// Memory per grid point, bytes (or give bytes_from_run).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub bytes_per_point: Option<f64>,
    /// A calibration run the bytes per point are worked out from.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub bytes_from_run: Option<BytesFromRun>,
    /// One or two clusters.
    pub clusters: Vec<PlannerCluster>,
    /// Fabrics that join the two clusters (each calibrated on both).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub shared_fabrics: Option<Vec<String>>,
    /// np to try on each cluster alone (at most 4096).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub candidate_np: Option<Vec<u32>>,
    /// np to try on each side of a two-cluster job (at most 16384 pairs per shared fabric).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub pair_candidate_np: Option<Vec<u32>>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BytesFromRun {
    pub work_mb: f64,
    pub rows_per_process: u64,
    pub columns: u32,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PlannerCluster {
    /// A machine of `scalewise catalog` by its id ("aws-hpc7a"): its name, cores, memory,
    /// price, power and carbon are taken from the catalog; the keys below override them.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub catalog: Option<String>,
    /// Needed without `catalog`.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub name: Option<String>,
    /// Needed without `catalog` (with it: `nodes` × processes per node).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub free_procs: Option<u32>,
    /// Nodes the job may use (with `catalog`; the machine's node count by default).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub nodes: Option<u32>,
    /// Needed without `catalog` (with it: the machine's cores per node).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub procs_per_node: Option<u32>,
    /// Cores of one node, for whole-node billing (default: the catalog's, else procs_per_node).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub cores_per_node: Option<u32>,
    /// Needed without `catalog`.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub memory_per_node_mb: Option<f64>,
    /// Price units per CPU-hour (≥ 0); needed without `catalog`.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub price_per_cpu_hour: Option<f64>,
    /// One calibration per fabric.
    pub fabrics: Vec<FabricRuns>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FabricRuns {
    pub fabric: String,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub sequential: Option<Runs<SequentialRun>>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub parallel: Option<Runs<ParallelRun>>,
}
