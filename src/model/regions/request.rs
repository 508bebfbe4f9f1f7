//! The command's request for this calculator: what its JSON input may hold, key by key, as
//! types (`scalewise schema` prints them as JSON Schema, and the command reads every input
//! through them first, so a key of the wrong type is refused with its path). Values and
//! ranges are checked by the calculator's own readers, as on the page.

use crate::model::input::request::TextOr;

/// `scalewise regions`: balance factors, or an application on a system; and region sizes.
#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RegionsRequest {
    /// "scaled" (default) or "slides".
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub two_region_x: Option<String>,
    /// x', the balance of one core at the reference bandwidth (> 0).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub x_prime: Option<f64>,
    /// z = b_l/b0_l (> 0).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub z: Option<f64>,
    /// z', between-region over within-region balance (> 0).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub z_prime: Option<f64>,
    /// Load factor slope α (≥ 0); with a system, replaces its α.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub alpha: Option<f64>,
    /// The B_E (GB/s) z_prime holds at.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub region_bandwidth_gb_s: Option<f64>,
    /// "linpack", or formulas of N.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub application: Option<ApplicationRequest>,
    /// Problem size the formulas are evaluated at.
    #[serde(rename = "N")]
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub big_n: Option<f64>,
    /// A preset ("bwgrid1", "bwgrid2-15", "bwgrid2-45") or a system.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub system: Option<SystemRequest>,
    /// Region sizes, cores per region (each ≥ 1).
    pub n: Vec<f64>,
    /// Region bandwidths to sweep.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub sweep: Option<SweepRequest>,
    /// The smallest B_E at which two regions reach a fraction of one region's speed-up.
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub required_bandwidth: Option<RequiredBandwidth>,
}

/// "linpack", or an object of formulas.
pub type ApplicationRequest = TextOr<Formulas>;

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Formulas {
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
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

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SystemFigures {
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub name: Option<String>,
    /// l_th, GFlop/s.
    pub peak_gflops_per_core: f64,
    /// b_l, GB/s.
    pub node_bandwidth_gb_s: f64,
    /// b0_l, GB/s (default 1).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub reference_bandwidth_gb_s: Option<f64>,
    /// B_E, GB/s.
    pub region_bandwidth_gb_s: f64,
    pub alpha: f64,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SweepRequest {
    pub bandwidth_gb_s: Vec<f64>,
}

#[derive(Debug, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RequiredBandwidth {
    /// Cores per region.
    pub n: f64,
    /// 0 < f ≤ 1 (default 0.9).
    #[serde(default, deserialize_with = "crate::model::input::request::present")]
    pub fraction: Option<f64>,
}
