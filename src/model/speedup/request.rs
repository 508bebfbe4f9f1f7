//! The command's request for this calculator: what its JSON input may hold, key by key, as
//! types (`scalewise schema` prints them as JSON Schema, and the command reads every input
//! through them first, so a key of the wrong type is refused with its path). Values and
//! ranges are checked by the calculator's own readers, as on the page.

/// `scalewise speedup`: one request, or a list of them (answered element by element, each
/// read as a [`SpeedupRequest`]).
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[cfg_attr(not(target_arch = "wasm32"), schemars(untagged))]
pub enum SpeedupInput {
    One(SpeedupRequest),
    Many(Vec<SpeedupRequest>),
}

/// One speed-up request.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SpeedupRequest {
    /// Measured runs: each gives speedup or time_s (the same one in every point).
    pub points: Vec<SpeedupPoint>,
    /// Whole n to predict at (at most 4096).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub predict: Option<Vec<f64>>,
    /// Model names (default: every model); the schema lists them from `MODELS`.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        schemars(description = format!(
            "Model names (default: every model): {}.",
            crate::model::fit::MODELS.map(crate::model::fit::Model::name).join(", ")
        ))
    )]
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub models: Option<Vec<String>>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub include_past_peak: Option<bool>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub leave_one_out: Option<bool>,
    /// Processes one node holds.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub cores_per_node: Option<f64>,
    /// "strong" (default) or "weak".
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub scaling: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SpeedupPoint {
    /// Processes, a whole number ≥ 1.
    pub n: f64,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub speedup: Option<f64>,
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub time_s: Option<f64>,
    /// > 0 (default 1).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub weight: Option<f64>,
    /// Nodes the run used (whole, 1 to n).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub nodes: Option<f64>,
}
