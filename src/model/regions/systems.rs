//! Applications and systems of the two-regions model (seed 003, slide "Application to
//! bwGRiD"): #op, #b and #x as formulas of the problem size N, a system of two identical
//! regions (l_th, b_l, b0_l, B_E, α), the seed's systems, and the model of an application on
//! a system: x' = (#op/#b)·(b0_l/l_th), z = b_l/b0_l, z' = (#b/#x)·(B_E/b_l).

use serde::{Deserialize, Serialize};

use super::{bandwidth_warning, num, positive, Balance, Formula, LoadFactor, Regions, Warning};
use crate::model::error::InputError;

/// An application as formulas of the problem size N (see [`Formula`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Application {
    #[serde(default)]
    pub name: String,
    /// #op, flop.
    pub ops: String,
    /// #b, bytes moved inside a region.
    pub bytes: String,
    /// #x, bytes exchanged between the two regions.
    pub exchanged_bytes: String,
}

/// #op, #b and #x evaluated at one N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    pub problem_size_n: f64,
    pub ops: f64,
    pub bytes: f64,
    pub exchanged_bytes: f64,
}

impl Application {
    /// LinPack as in the slides; #x is this module's choice (see the module docs).
    pub fn linpack() -> Self {
        Application {
            name: "LinPack".into(),
            ops: "2/3*N^3".into(),
            bytes: "2*N^2*8".into(),
            exchanged_bytes: "N^2*8/2".into(),
        }
    }

    /// Problem sizes of the slides' LinPack runs.
    pub const LINPACK_N: [f64; 4] = [10000.0, 20000.0, 30000.0, 40000.0];

    /// Each formula parsed on its own; errors name `ops`, `bytes` or `exchanged_bytes`.
    pub fn parse(&self) -> ParsedApplication {
        ParsedApplication {
            ops: Formula::parse("ops", &self.ops),
            bytes: Formula::parse("bytes", &self.bytes),
            exchanged_bytes: Formula::parse("exchanged_bytes", &self.exchanged_bytes),
        }
    }

    pub fn evaluate(&self, problem_size_n: f64) -> Result<Workload, InputError> {
        self.parse().workload(problem_size_n)
    }
}

/// An application's formulas, each parsed, or the error that stopped it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedApplication {
    pub ops: Result<Formula, InputError>,
    pub bytes: Result<Formula, InputError>,
    pub exchanged_bytes: Result<Formula, InputError>,
}

impl ParsedApplication {
    /// #op, #b and #x at N, each positive there. The first problem found, in the order N, #op,
    /// #b, #x (a formula that did not parse is its problem), is the error.
    pub fn workload(&self, problem_size_n: f64) -> Result<Workload, InputError> {
        let n = positive("N", problem_size_n)?;
        let value = |formula: &Result<Formula, InputError>| -> Result<f64, InputError> {
            let f = formula.as_ref().map_err(Clone::clone)?;
            let v = f.eval(n)?;
            if v > 0.0 {
                Ok(v)
            } else {
                Err(InputError::new(f.field(), format!("must be positive at N = {}, found {}", num(n), num(v))))
            }
        };
        Ok(Workload {
            problem_size_n: n,
            ops: value(&self.ops)?,
            bytes: value(&self.bytes)?,
            exchanged_bytes: value(&self.exchanged_bytes)?,
        })
    }
}

/// A system of two identical regions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct System {
    #[serde(default)]
    pub name: String,
    /// l_th, GFlop/s.
    pub peak_gflops_per_core: f64,
    /// b_l, GB/s.
    pub node_bandwidth_gb_s: f64,
    /// b0_l, GB/s (the slides: 1).
    #[serde(default = "one")]
    pub reference_bandwidth_gb_s: f64,
    /// B_E, GB/s.
    pub region_bandwidth_gb_s: f64,
    /// Load factor slope: p(n) = α·n.
    pub alpha: f64,
}

fn one() -> f64 {
    1.0
}

/// A system of the seed under a short key (the command's `"system": "bwgrid1"`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SystemPreset {
    pub key: &'static str,
    pub name: &'static str,
    /// Where the numbers come from.
    pub description: &'static str,
    peak_gflops_per_core: f64,
    node_bandwidth_gb_s: f64,
    region_bandwidth_gb_s: f64,
}

/// bwGRiD 1 and the planned bwGRiD 2 at both ends of its 15–45 GB/s, from the seed's tables,
/// all with b0_l = 1 GB/s; α = 1/20 is the slides' estimate for bwGRiD 1.
pub const SYSTEM_PRESETS: [SystemPreset; 3] = [
    SystemPreset {
        key: "bwgrid1",
        name: "bwGRiD 1",
        description: "bwGRiD 1 (Kredel et al. 2012): l_th 8.5 GFlop/s, b_l 1.5 GB/s, B_E 1 GB/s between Mannheim and Heidelberg, α = 1/20",
        peak_gflops_per_core: 8.5,
        node_bandwidth_gb_s: 1.5,
        region_bandwidth_gb_s: 1.0,
    },
    SystemPreset {
        key: "bwgrid2-15",
        name: "bwGRiD 2 (planned, 15 GB/s)",
        description: "The planned bwGRiD 2 (Kredel et al. 2012): l_th 10 GFlop/s, b_l 6 GB/s, B_E 15 GB/s (the low end of the plan), α = 1/20",
        peak_gflops_per_core: 10.0,
        node_bandwidth_gb_s: 6.0,
        region_bandwidth_gb_s: 15.0,
    },
    SystemPreset {
        key: "bwgrid2-45",
        name: "bwGRiD 2 (planned, 45 GB/s)",
        description: "The planned bwGRiD 2 (Kredel et al. 2012): l_th 10 GFlop/s, b_l 6 GB/s, B_E 45 GB/s (the high end of the plan), α = 1/20",
        peak_gflops_per_core: 10.0,
        node_bandwidth_gb_s: 6.0,
        region_bandwidth_gb_s: 45.0,
    },
];

impl SystemPreset {
    pub fn system(&self) -> System {
        System {
            name: self.name.into(),
            peak_gflops_per_core: self.peak_gflops_per_core,
            node_bandwidth_gb_s: self.node_bandwidth_gb_s,
            reference_bandwidth_gb_s: 1.0,
            region_bandwidth_gb_s: self.region_bandwidth_gb_s,
            alpha: 0.05,
        }
    }
}

impl System {
    /// The system of [`SYSTEM_PRESETS`] with this key.
    pub fn preset(key: &str) -> Option<Self> {
        SYSTEM_PRESETS.iter().find(|p| p.key == key).map(SystemPreset::system)
    }

    pub fn validate(&self) -> Result<(), InputError> {
        positive("peak_gflops_per_core", self.peak_gflops_per_core)?;
        positive("node_bandwidth_gb_s", self.node_bandwidth_gb_s)?;
        positive("reference_bandwidth_gb_s", self.reference_bandwidth_gb_s)?;
        positive("region_bandwidth_gb_s", self.region_bandwidth_gb_s)?;
        LoadFactor::new(self.alpha).map(|_| ())
    }

    /// Magnitudes that suggest a unit mistake.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut w: Vec<Warning> = [
            ("node_bandwidth_gb_s", self.node_bandwidth_gb_s),
            ("reference_bandwidth_gb_s", self.reference_bandwidth_gb_s),
            ("region_bandwidth_gb_s", self.region_bandwidth_gb_s),
        ]
        .iter()
        .filter_map(|&(f, v)| bandwidth_warning(f, v))
        .collect();
        let peak = self.peak_gflops_per_core;
        if !(0.001..=10_000.0).contains(&peak) {
            w.push(Warning {
                field: "peak_gflops_per_core".into(),
                message: format!(
                    "{} GFlop/s per core is implausible: check the unit (GFlop/s, not MFlop/s)",
                    num(peak)
                ),
            });
        }
        w
    }
}

impl Regions {
    /// The model of an application of problem size N on a system.
    pub fn from_application(
        app: &Application,
        problem_size_n: f64,
        system: &System,
    ) -> Result<(Self, Workload), InputError> {
        let w = app.evaluate(problem_size_n)?;
        Ok((Regions::from_workload(&w, system)?, w))
    }

    /// The model of a workload (an application at one N) on a system.
    pub fn from_workload(w: &Workload, system: &System) -> Result<Self, InputError> {
        system.validate()?;
        let intensity = w.ops / w.bytes;
        let r = w.bytes / w.exchanged_bytes;
        let x_prime = intensity * system.reference_bandwidth_gb_s / system.peak_gflops_per_core;
        let z = system.node_bandwidth_gb_s / system.reference_bandwidth_gb_s;
        let z_prime = r * system.region_bandwidth_gb_s / system.node_bandwidth_gb_s;
        let balance = Balance::new(x_prime, z, z_prime).map_err(|e| derived(e, w))?;
        Regions::new(balance, LoadFactor::new(system.alpha)?)?.with_region_bandwidth(system.region_bandwidth_gb_s)
    }
}

/// A balance factor out of range because of the application's numbers: say where it came from.
fn derived(e: InputError, w: &Workload) -> InputError {
    let message = format!(
        "{} (derived from #op = {}, #b = {}, #x = {} at N = {})",
        e.message,
        num(w.ops),
        num(w.bytes),
        num(w.exchanged_bytes),
        num(w.problem_size_n)
    );
    InputError { message, ..e }
}
