//! The command's requests as types: what each subcommand's JSON input may hold, key by key.
//! Every input is first read into its request type ([`read`]), so a key of the wrong type,
//! an unknown key or a missing one is refused with its JSON path (`points[3].time_s: expected
//! a number, found a string`); the subcommand's own reader then checks the values
//! (ranges, whole numbers, lengths) as the page does. `scalewise schema` prints the same types
//! as JSON Schema (draft 2020-12), so what the schema refuses the command refuses too.
//!
//! Numbers are `f64` where the command reads whole numbers given as `4.0` too, so the range
//! check names the limit rather than the type; where it reads them as integers they are
//! integers here as well.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// Reads `input` (an object) as the request `T`: an error names the JSON path of the key ("input" for the
/// top level) and says what was expected, in the words of the rest of the command.
pub fn read<T: DeserializeOwned>(input: &Value) -> Result<T, String> {
    // serde would read a list as an object's fields in order; every request is an object.
    if !input.is_object() {
        return Err(format!("input: expected an object, found {}", super::kind(input)));
    }
    serde_path_to_error::deserialize(input).map_err(|e| {
        let message = e.inner().to_string();
        let mut path = e.path().to_string();
        // An unknown key is reported at its own path; the command names the object holding it.
        if let Some(key) = message.strip_prefix("unknown field `").and_then(|r| r.split('`').next()) {
            path = path.strip_suffix(key).map_or(path.clone(), |p| p.trim_end_matches('.').to_string());
        }
        let path = if path.is_empty() || path == "." { "input".to_string() } else { path };
        format!("{path}: {}", plain(&message))
    })
}

/// serde's wording ("invalid type: string \"x\", expected f64") in the command's ("expected a
/// number, found the text \"x\"").
fn plain(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: ")) {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return format!("expected {}, found {}", expected_words(expected), found_words(found));
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((key, allowed)) = rest.split_once("`, expected ") {
            let allowed = allowed.trim_start_matches("one of ").replace('`', "");
            return format!("unknown key \"{key}\"; expected {allowed}");
        }
        if let Some((key, _)) = rest.split_once("`, there are no fields") {
            return format!("unknown key \"{key}\"; expected none");
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        return format!("missing key \"{}\"", rest.trim_end_matches('`'));
    }
    message.to_string()
}

fn expected_words(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".into(),
        "u8" | "u16" | "u32" | "u64" | "usize" | "i32" | "i64" => "a whole number".into(),
        "a sequence" => "a list".into(),
        "a map" => "an object".into(),
        "a string" => "text".into(),
        "a boolean" => "true or false".into(),
        e if e.starts_with("struct ") => "an object".into(),
        e => e.to_string(),
    }
}

fn found_words(found: &str) -> String {
    // As the readers call a JSON value (`json::kind`); a number is shown, being short.
    if found.starts_with("string ") {
        return "a string".into();
    }
    if found.starts_with("boolean ") {
        return "a boolean".into();
    }
    for prefix in ["floating point ", "integer "] {
        if let Some(v) = found.strip_prefix(prefix) {
            return v.trim_matches('`').to_string();
        }
    }
    match found {
        "sequence" => "a list".into(),
        "map" => "an object".into(),
        "unit" => "null".into(),
        other => other.to_string(),
    }
}

// Many keys take text or a `T` (a list, an object, a number), such as a list of runs or the
// page's pasted table of them. Read by hand rather than as an untagged enum, so an error
// inside the `T` keeps its path (`parallel[2].np`).
/// Text, or the value itself.
#[derive(Debug, JsonSchema)]
#[schemars(untagged, rename = "TextOr{T}")]
pub enum TextOr<T> {
    Text(String),
    Value(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for TextOr<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{value, IntoDeserializer};
        struct Either<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Either<T> {
            type Value = TextOr<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("text or a value")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(TextOr::Text(s.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(TextOr::Text(s))
            }
            fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_i64<E: serde::de::Error>(self, x: i64) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_bool<E: serde::de::Error>(self, x: bool) -> Result<Self::Value, E> {
                T::deserialize(x.into_deserializer()).map(TextOr::Value)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                T::deserialize(().into_deserializer()).map(TextOr::Value)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                T::deserialize(value::SeqAccessDeserializer::new(seq)).map(TextOr::Value)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(value::MapAccessDeserializer::new(map)).map(TextOr::Value)
            }
        }
        d.deserialize_any(Either(std::marker::PhantomData))
    }
}

// ---------------------------------------------------------------------------------------
// multigrid

/// `scalewise multigrid`: calibration runs and predictions, a planner, or both.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MultigridRequest {
    /// Runs on one processor: a list, or the page's pasted table as text ("work (MB), time (s)").
    pub sequential: Option<Runs<SequentialRun>>,
    /// Runs on np0 processes at the same per-process sizes: a list, or the page's pasted table
    /// as text ("np work time").
    pub parallel: Option<Runs<ParallelRun>>,
    /// (np, work) pairs to predict (at most 4096).
    pub predict: Option<Vec<MultigridTarget>>,
    /// A job over one or two clusters.
    pub planner: Option<PlannerRequest>,
}

/// A list of runs, or a pasted table of them as text.
pub type Runs<T> = TextOr<Vec<T>>;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SequentialRun {
    /// Memory the process needed, MB (> 0).
    pub work_mb: f64,
    /// Run time, s (> 0).
    pub time_s: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ParallelRun {
    /// Processes, at least 2.
    pub np: u32,
    /// Memory per process, MB; must match a sequential run.
    pub work_mb: f64,
    /// Run time, s; not below the sequential time.
    pub time_s: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MultigridTarget {
    /// Processes (≥ 1).
    pub np: u32,
    /// Memory per process, MB.
    pub work_mb: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlannerRequest {
    /// Grid side N of the N × N problem (≥ 2).
    pub n: u32,
    /// Memory per grid point, bytes (or give bytes_from_run).
    pub bytes_per_point: Option<f64>,
    /// A calibration run the bytes per point are worked out from.
    pub bytes_from_run: Option<BytesFromRun>,
    /// One or two clusters.
    pub clusters: Vec<PlannerCluster>,
    /// Fabrics that join the two clusters (each calibrated on both).
    pub shared_fabrics: Option<Vec<String>>,
    /// np to try on each cluster alone (at most 4096).
    pub candidate_np: Option<Vec<u32>>,
    /// np to try on each side of a two-cluster job (at most 16384 pairs per shared fabric).
    pub pair_candidate_np: Option<Vec<u32>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BytesFromRun {
    pub work_mb: f64,
    pub rows_per_process: f64,
    pub columns: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlannerCluster {
    pub name: String,
    pub free_procs: u32,
    pub procs_per_node: u32,
    pub memory_per_node_mb: f64,
    /// Price units per CPU-hour (≥ 0).
    pub price_per_cpu_hour: f64,
    /// One calibration per fabric.
    pub fabrics: Vec<FabricRuns>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FabricRuns {
    pub fabric: String,
    pub sequential: Option<Runs<SequentialRun>>,
    pub parallel: Option<Runs<ParallelRun>>,
}

// ---------------------------------------------------------------------------------------
// regions

/// `scalewise regions`: balance factors, or an application on a system; and region sizes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegionsRequest {
    /// "scaled" (default) or "slides".
    pub two_region_x: Option<String>,
    /// x', the balance of one core at the reference bandwidth (> 0).
    pub x_prime: Option<f64>,
    /// z = b_l/b0_l (> 0).
    pub z: Option<f64>,
    /// z', between-region over within-region balance (> 0).
    pub z_prime: Option<f64>,
    /// Load factor slope α (≥ 0); with a system, replaces its α.
    pub alpha: Option<f64>,
    /// The B_E (GB/s) z_prime holds at.
    pub region_bandwidth_gb_s: Option<f64>,
    /// "linpack", or formulas of N.
    pub application: Option<ApplicationRequest>,
    /// Problem size the formulas are evaluated at.
    #[serde(rename = "N")]
    pub big_n: Option<f64>,
    /// A preset ("bwgrid1", "bwgrid2-15", "bwgrid2-45") or a system.
    pub system: Option<SystemRequest>,
    /// Region sizes, cores per region (each ≥ 1).
    pub n: Vec<f64>,
    /// Region bandwidths to sweep.
    pub sweep: Option<SweepRequest>,
    /// The smallest B_E at which two regions reach a fraction of one region's speed-up.
    pub required_bandwidth: Option<RequiredBandwidth>,
}

/// "linpack", or an object of formulas.
pub type ApplicationRequest = TextOr<Formulas>;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Formulas {
    pub name: Option<String>,
    /// #op (flop) as a formula of N.
    pub ops: String,
    /// #b (bytes moved inside a region) as a formula of N.
    pub bytes: String,
    /// #x (bytes exchanged between the regions) as a formula of N.
    pub exchanged_bytes: String,
}

/// A system preset's name, or an object.
pub type SystemRequest = TextOr<SystemFigures>;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SystemFigures {
    pub name: Option<String>,
    /// l_th, GFlop/s.
    pub peak_gflops_per_core: f64,
    /// b_l, GB/s.
    pub node_bandwidth_gb_s: f64,
    /// b0_l, GB/s (default 1).
    pub reference_bandwidth_gb_s: Option<f64>,
    /// B_E, GB/s.
    pub region_bandwidth_gb_s: f64,
    pub alpha: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SweepRequest {
    pub bandwidth_gb_s: Vec<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequiredBandwidth {
    /// Cores per region.
    pub n: f64,
    /// 0 < f ≤ 1 (default 0.9).
    pub fraction: Option<f64>,
}

// ---------------------------------------------------------------------------------------
// speedup

/// `scalewise speedup`: one request, or a list of them (answered element by element, each
/// read as a [`SpeedupRequest`]).
#[derive(JsonSchema)]
#[schemars(untagged)]
pub enum SpeedupInput {
    One(SpeedupRequest),
    Many(Vec<SpeedupRequest>),
}

/// One speed-up request.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpeedupRequest {
    /// Measured runs: each gives speedup or time_s (the same one in every point).
    pub points: Vec<SpeedupPoint>,
    /// Whole n to predict at (at most 4096).
    pub predict: Option<Vec<f64>>,
    /// Model names (default all five): downey, amdahl, chiang, smirni, usl.
    pub models: Option<Vec<String>>,
    pub include_past_peak: Option<bool>,
    pub leave_one_out: Option<bool>,
    /// Processes one node holds.
    pub cores_per_node: Option<f64>,
    /// "strong" (default) or "weak".
    pub scaling: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpeedupPoint {
    /// Processes, a whole number ≥ 1.
    pub n: f64,
    pub speedup: Option<f64>,
    pub time_s: Option<f64>,
    /// > 0 (default 1).
    pub weight: Option<f64>,
    /// Nodes the run used (whole, 1 to n).
    pub nodes: Option<f64>,
}

// ---------------------------------------------------------------------------------------
// simulate

/// `scalewise simulate`: a program skeleton run on a machine model.
#[derive(Debug, Deserialize, JsonSchema)]
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
#[derive(Debug, Deserialize, JsonSchema)]
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

// ---------------------------------------------------------------------------------------
// comm, broadcast, clusters, grid-broadcast

/// `scalewise comm`: ping-pong times to fit.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommRequest {
    /// At most 4096 measurements.
    pub points: Vec<CommPoint>,
    /// Sizes (bytes) to predict (at most 4096).
    pub predict: Option<Vec<f64>>,
    /// Formats to write for other tools: a list, or "all".
    pub export: Option<Exports>,
    /// For ompi-rules: the largest communicator.
    pub procs: Option<f64>,
    /// 0 to 1 (0.5).
    pub latency_share: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
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
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BroadcastRequest {
    /// "hockney", "logp", "loggp" or "plogp".
    pub model: Option<String>,
    /// The model's parameters as `scalewise comm` writes them.
    pub params: Option<ModelParams>,
    /// Instead of params: measurements to fit.
    pub points: Option<Vec<CommPoint>>,
    /// P, processes.
    pub procs: f64,
    /// m, bytes.
    pub size_bytes: f64,
    pub latency_share: Option<f64>,
}

/// The keys of one model: hockney {alpha_us, beta_us_per_byte}, logp {l_plus_2o_us, gap_us,
/// w_bytes}, loggp {l_plus_2o_us, big_g_us_per_byte}.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelParams {
    pub alpha_us: Option<f64>,
    pub beta_us_per_byte: Option<f64>,
    pub bandwidth_mb_s: Option<f64>,
    pub l_plus_2o_us: Option<f64>,
    pub gap_us: Option<f64>,
    pub w_bytes: Option<f64>,
    pub big_g_us_per_byte: Option<f64>,
}

/// `scalewise clusters`: nodes grouped by their latencies.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClustersRequest {
    /// Square matrix, one row per node, µs.
    pub latency_us: Vec<Vec<f64>>,
    /// 0 to 10 (default 0.2).
    pub rho: Option<f64>,
    pub symmetrise: Option<bool>,
}

/// `scalewise grid-broadcast`: a broadcast scheduled over k clusters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridBroadcastRequest {
    /// k × k latency between coordinators, µs.
    pub latency_us: Vec<Vec<f64>>,
    /// k × k gap of the message between coordinators, µs.
    pub gap_us: Vec<Vec<f64>>,
    /// k local broadcast times, µs.
    pub local_us: Vec<f64>,
    /// The root's cluster (0-based, default 0).
    pub root: Option<f64>,
    /// Processes per cluster.
    pub procs: Option<Vec<f64>>,
    pub intra_latency_us: Option<Vec<f64>>,
    pub intra_gap_us: Option<Vec<f64>>,
}

/// The JSON Schema (draft 2020-12) of `T` as it is read, standing alone (its parts under
/// `$defs`): a key of an `Option` may be left out, but not given as null (the readers refuse
/// null).
pub fn input_schema<T: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_deserialize()
        .with_transform(no_null_options)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Takes null out of the keys an object may leave out: `{"type": ["number", "null"]}` becomes
/// `{"type": "number"}`, and `{"anyOf": [X, {"type": "null"}]}` becomes X.
fn no_null_options(schema: &mut schemars::Schema) {
    schemars::transform::transform_subschemas(&mut no_null_options, schema);
    let Some(object) = schema.as_object_mut() else { return };
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(|k| k.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = object.get_mut("properties") else { return };
    for (key, p) in properties.iter_mut() {
        if required.contains(key) {
            continue;
        }
        let Value::Object(p) = p else { continue };
        if let Some(Value::Array(types)) = p.get("type") {
            let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
            let kept = if kept.len() == 1 { kept[0].clone() } else { Value::Array(kept) };
            p.insert("type".into(), kept);
        }
        let any_of = p.get("anyOf").and_then(Value::as_array).cloned();
        if let Some(list) = any_of {
            let kept: Vec<Value> = list.into_iter().filter(|s| s.get("type").is_none_or(|t| t != "null")).collect();
            if kept.len() == 1 {
                p.remove("anyOf");
                if let Value::Object(only) = &kept[0] {
                    for (k, v) in only {
                        p.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
            } else {
                p.insert("anyOf".into(), Value::Array(kept));
            }
        }
    }
}

/// The JSON Schema of `T` as it is written: every key is there (an `Option` as null) unless
/// it is skipped when empty.
pub fn output_schema<T: JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator().into_root_schema_for::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wrong_type_is_named_by_its_path_in_the_commands_words() {
        let e = read::<SpeedupRequest>(&json!({"points": [{"n": 1, "time_s": 2}, {"n": 2, "time_s": "x"}]})).unwrap_err();
        assert_eq!(e, "points[1].time_s: expected a number, found a string");
        let e = read::<SpeedupRequest>(&json!({"points": [], "extra": 1})).unwrap_err();
        assert!(e.starts_with("input: unknown key \"extra\"; expected points, predict"), "{e}");
        let e = read::<MultigridRequest>(&json!({"parallel": [{"np": 4.5, "work_mb": 1, "time_s": 1}]})).unwrap_err();
        assert_eq!(e, "parallel[0].np: expected a whole number, found 4.5");
        let e = read::<MultigridRequest>(&json!({"parallel": {"np": 4}})).unwrap_err();
        assert_eq!(e, "parallel: expected a list, found an object");
        assert!(read::<MultigridRequest>(&json!({"parallel": "np work time\n4 1 1"})).is_ok());
        let e = read::<ClustersRequest>(&json!({"rho": 1})).unwrap_err();
        assert_eq!(e, "input: missing key \"latency_us\"");
    }
}
