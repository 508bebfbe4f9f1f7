//! One cluster region or two interconnected ones: parallel speed-up from a roofline-type
//! model with dimensionless balance factors, the optimal region size, the smallest useful
//! region (n½), and the bandwidth between regions a job needs to span both.
//!
//! Seed: `seeds/003_d1e8824f5cabebe5.txt` (Kredel, Kruse, Richling, Strohmaier, ISC'12), slides
//! "Analysis of a single Region", "Single Region – Speed-up", "Analysis of two interconnected
//! Regions", "Two Regions – Speed-up", "Two Regions – Max. Speedup", "Application to bwGRiD"
//! and "Conclusions" (n½). Spec: `shared/spec/regions.md`.
//!
//! # Units and ranges
//!
//! #op in flop, #b (bytes moved inside a region) and #x (bytes exchanged between the regions)
//! in bytes; the peak of one core `l_th` in GFlop/s; bandwidths `b_l` (between two nodes),
//! `b0_l` (reference, 1 GB/s in the slides) and `B_E` (aggregate, between the regions) in
//! GB/s. The 10^9 cancels in every ratio: all balance factors are dimensionless. `n` is the
//! number of cores of one region, `n ≥ 1`; a two-region job runs on 2n cores. Balance
//! factors, bandwidths and peaks must be > 0 and at most 1e12; α is 0 or in [1e-12, 1e6];
//! n at most 1e12. Inside these ranges every result is finite.
//!
//! # One region
//!
//! ```text
//! x' = (#op/#b)·(b0_l/l_th)   balance factor of one core at the reference bandwidth
//! z  = b_l/b0_l               node bandwidth in units of the reference
//! X  = x'·z                   balance factor of one core at the node bandwidth; x(n) = X/n
//! Sp(n)    = (1 + X)/(1 + X/n)        additive:    t = #op/(n·l_th) + #b/b_l;  → 1 + X
//! Sp_ov(n) = min(n, X)/min(1, X)      overlapping: t = max(#op/(n·l_th), #b/b_l)
//! ```
//!
//! Sp_ov follows from the slides' d = d_th·min(1, x): d(n) = n·l_th·min(1, X/n) =
//! l_th·min(n, X), divided by d(1). It grows linearly up to n = X and is flat beyond.
//!
//! # Two regions
//!
//! Each region has n cores and does half the work; the regions exchange #x bytes over a link
//! of aggregate bandwidth B_E shared with the load factor p(n) = α·n (the slides: α = 1/20).
//!
//! ```text
//! additive    t = (#op/2)/(n·l_th) + (#b/2)/b_l + p(n)·#x/B_E
//! overlapping t = max of the same three terms
//! z' = r·B_E/b_l,  r = #b/#x  (the slides: z' = 2y'/x' = r·z'')
//! Sp2(n)    = (2 + (1 + X)·z') / (2p(n) + (1 + X/n)·z')
//! Sp2_ov(n) = n·max(1, 1/X, 2/(X·z')) / max(1, n/X, 2p(n)·n/(X·z'))
//! ```
//!
//! Both are relative to two one-core regions with p = 1, the slides' normalisation (their
//! numerator x' + y' + x'y' is the additive denominator at n = 1, p = 1). Sp2_ov is the
//! overlapping time above divided into the same time at n = 1, p = 1.
//!
//! **Which x' the two-region formulas hold.** The slides (and the spec) print the two-region
//! formulas with x' and x = x'/n. From the definitions, though, x = a/a* = X/n and
//! y = (#op/#x)·B_E/(2n·l_th) = ½·(X/n)·r·(B_E/b_l) with X = x'·z: the time model behind the
//! slides holds the balance of a core at the node bandwidth, and its z' = r·B_E/b_l (the
//! spec's z'' = B_E/b_l) says the same. So by default ([`TwoRegionX::Scaled`]) X = x'·z goes
//! into Sp2, n*, Sp2_max and the two-region n½; then Sp2(n) → Sp(n) as B_E → ∞, and "what
//! fraction of the one-region speed-up does the link allow" has an answer. With z = 1 this is
//! the printed formula, and the spec's checks (x' = 196.08, α = 1/20, z' = 1, 10, 100 →
//! n* = 44.3, 140.0, 442.8) hold as given. [`TwoRegionX::Slides`] reads the printed formula
//! literally whatever z is (x' in the two-region formulas). With z ≠ 1 it compares two regions
//! whose nodes move data at b0_l with one region whose nodes move it at b_l: Sp2 tends to
//! (1 + x')/(1 + x'/n) rather than Sp(n), so a fraction of Sp(n) can be out of reach at any
//! bandwidth (for bwGRiD 2, z = 6, 90 % is out of reach from n ≈ 64 on).
//! Below, X is the two-region balance of the chosen reading.
//!
//! Sp2 is monotone in z', between 1/p(n) (B_E → 0) and Sp(n) (B_E → ∞): dSp2/dz' has the sign
//! of p(n)·(1 + X) − (1 + X/n). Hence, comparing two regions of n cores each (2n cores in
//! all) with one region:
//!
//! - Sp2(n) ≤ Sp(n) ⇔ p(n)·(1 + X) ≥ 1 + X/n, for any link bandwidth; in particular whenever
//!   n ≥ 1/α (p ≥ 1). Since Sp grows with n, then also Sp2(n) ≤ Sp(2n), the one-region
//!   speed-up on the same 2n cores. Below that, the model's Sp2 exceeds Sp only because the
//!   load p(n) < 1 is compared with the p = 1 of its normalisation.
//! - In throughput, two regions of n cores deliver no more than one region of 2n cores iff
//!   z' ≤ 2p(n), i.e. p(n)·#x/B_E ≥ (#b/2)/b_l: the shared link takes at least as long for
//!   its bytes as a region's node links save by carrying half of #b. That is the precise
//!   sense of "the link is slower than the node links".
//!
//! # Optimal region size
//!
//! For α > 0 the denominator 2α·n + z' + X·z'/n is smallest at
//! n* = √(X·z'/(2α)), giving Sp2_max = (2 + (1 + X)·z') / (z' + 2·√(2α·X·z')) (n* may be below
//! 1: then one core per region is best). For α = 0 there is no optimum: Sp2 rises with n
//! toward (2 + (1 + X)·z')/z' ([`Optimum::NoOptimum`]).
//!
//! # n½: lower bounds on the region size
//!
//! The slides derive lower bounds on region sizes from n½ without printing them ("see
//! paper"). This module takes n½ as the n at which half the largest speed-up is reached:
//!
//! - One region: Sp(n½) = (1 + X)/2 gives n½ = X.
//! - Two regions: Sp2(n) = Sp2_max/2 is 2α·n² − (z' + 4s)·n + X·z' = 0 with
//!   s = √(2α·X·z'); the smaller root is n½ = 2X·z' / ((z' + 4s) + √((z' + 2s)(z' + 6s))), the
//!   larger one n*²/n½ (where Sp2 has fallen back to half its maximum). For α = 0
//!   (s = 0, Sp2_max read as the limit) both formulas give n½ = X.
//!
//! A region smaller than n½ does not reach half of what a region can deliver.
//!
//! # Required bandwidth
//!
//! The smallest B_E at which two regions of n cores reach `fraction` (0 < fraction ≤ 1) of
//! Sp(n), the one-region speed-up at the same n. With T = fraction·Sp(n), Sp2 ≥ T is
//! z'·(1 + X)·(1 − fraction) ≥ 2·(T·p(n) − 1), so z'_req = 2(T·p(n) − 1)/((1 + X)(1 − fraction)),
//! B_E = z'_req·b_l/r. When T·p(n) ≤ 1 any bandwidth reaches it; when fraction = 1 and
//! T·p(n) > 1 no bandwidth does (Sp(n) is only approached) ([`Requirement`]).
//!
//! # Applications and systems
//!
//! #op, #b and #x are formulas of the problem size N ([`Formula`]: numbers such as 2/3 or
//! 1e9, + − * / ^, parentheses, N). LinPack (slides): #op = 2/3·N³, #b = 2·N²·8, so
//! #op/#b = N/24 and x' = N/204 at l_th = 8.5 GFlop/s. The seed does not give #x; the preset
//! takes #x = N²·8/2 = 4·N² bytes, the panels of a column-cyclic LU that cross between two
//! regions (Σ over panels of (N − k)·nb·8 ≈ N²·8/2), so r = 4. Systems: bwGRiD 1 (b_l 1.5,
//! B_E 1.0 GB/s, l_th 8.5 GFlop/s) and the planned bwGRiD 2 (b_l 6 GB/s, B_E 15 or 45 GB/s,
//! l_th 10 GFlop/s, the value the slides' "Application to bwGRiD" uses from the planned
//! 10–16), all with b0_l = 1 GB/s and α = 1/20.

mod formula;
pub mod page;
pub mod request;
mod systems;

pub use formula::Formula;
pub use systems::{Application, ParsedApplication, System, SystemPreset, Workload, SYSTEM_PRESETS};

use serde::{Deserialize, Serialize};

use crate::model::error::{fmt_num, InputError};

/// Largest balance factor, bandwidth, peak, problem size or core count accepted.
const MAX_INPUT: f64 = 1e12;
/// Smallest balance factor, bandwidth, peak or problem size accepted.
const MIN_INPUT: f64 = 1e-9;
/// Smallest positive load-factor slope accepted (0 itself is allowed).
const MIN_ALPHA: f64 = 1e-12;
/// Largest load-factor slope accepted.
const MAX_ALPHA: f64 = 1e6;

fn num(x: f64) -> String {
    fmt_num(x, 6)
}

/// A finite number in [1e-9, 1e12]: within it every speed-up, optimum and sweep of the model
/// stays a finite number (x' = 1e-320 once gave NaN, z' = 5e-324 an infinite Sp2_max).
fn positive(field: &str, v: f64) -> Result<f64, InputError> {
    if !v.is_finite() {
        Err(InputError::new(field, "must be a finite number"))
    } else if v <= 0.0 {
        Err(InputError::new(field, format!("must be greater than 0, found {}", num(v))))
    } else if v < MIN_INPUT {
        Err(InputError::new(field, format!("must be at least 1e-9, found {}", num(v))))
    } else if v > MAX_INPUT {
        Err(InputError::new(field, format!("must be at most 1e12, found {}", num(v))))
    } else {
        Ok(v)
    }
}

/// A number of cores of one region, in [1, 1e12].
pub fn check_cores(field: &str, n: f64) -> Result<f64, InputError> {
    if n.is_finite() && (1.0..=MAX_INPUT).contains(&n) {
        Ok(n)
    } else {
        Err(InputError::new(field, format!("must be a number of cores from 1 to 1e12, found {}", num(n))))
    }
}

// ---------------------------------------------------------------------------------------------
// Balance factors and load
// ---------------------------------------------------------------------------------------------

/// The three dimensionless balance factors of the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    /// x' = (#op/#b)·(b0_l/l_th): balance of one core at the reference bandwidth.
    pub x_prime: f64,
    /// z = b_l/b0_l: node bandwidth in units of the reference.
    pub z: f64,
    /// z' = (#b/#x)·(B_E/b_l): balance between regions against balance inside one.
    pub z_prime: f64,
}

impl Balance {
    pub fn new(x_prime: f64, z: f64, z_prime: f64) -> Result<Self, InputError> {
        let b = Balance { x_prime, z, z_prime };
        b.validate()?;
        Ok(b)
    }

    pub fn validate(&self) -> Result<(), InputError> {
        positive("x_prime", self.x_prime)?;
        positive("z", self.z)?;
        positive("z_prime", self.z_prime)?;
        Ok(())
    }

    /// X = x'·z, the balance of one core at the node bandwidth (the one-region formula's x'z).
    pub fn in_region(&self) -> f64 {
        self.x_prime * self.z
    }
}

/// Which balance factor of a core the two-region formulas hold (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TwoRegionX {
    /// X = x'·z, the balance at the node bandwidth, which the time model itself gives.
    #[default]
    Scaled,
    /// x', as the slides and the spec print the formulas, whatever z is.
    Slides,
}

impl TwoRegionX {
    pub fn parse(field: &str, text: &str) -> Result<Self, InputError> {
        match text.trim() {
            "" | "scaled" => Ok(TwoRegionX::Scaled),
            "slides" => Ok(TwoRegionX::Slides),
            other => Err(InputError::new(field, format!("must be \"slides\" or \"scaled\", found \"{}\"", other))),
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            TwoRegionX::Slides => "slides",
            TwoRegionX::Scaled => "scaled",
        }
    }
}

/// The load on the link between the regions: p(n) = α·n.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadFactor {
    pub alpha: f64,
}

impl LoadFactor {
    pub fn new(alpha: f64) -> Result<Self, InputError> {
        let l = LoadFactor { alpha };
        l.validate()?;
        Ok(l)
    }

    pub fn validate(&self) -> Result<(), InputError> {
        let a = self.alpha;
        if a == 0.0 || (a.is_finite() && (MIN_ALPHA..=MAX_ALPHA).contains(&a)) {
            Ok(())
        } else {
            Err(InputError::new("alpha", format!("must be 0 or from 1e-12 to 1e6, found {}", num(a))))
        }
    }

    pub fn p(&self, n: f64) -> f64 {
        self.alpha * n
    }
}

// ---------------------------------------------------------------------------------------------
// The formulas, on validated numbers
// ---------------------------------------------------------------------------------------------

fn sp1(x: f64, n: f64) -> f64 {
    (1.0 + x) / (1.0 + x / n)
}

fn sp1_ov(x: f64, n: f64) -> f64 {
    n.min(x) / x.min(1.0)
}

fn sp2(x: f64, zp: f64, p: f64, n: f64) -> f64 {
    (2.0 + (1.0 + x) * zp) / (2.0 * p + (1.0 + x / n) * zp)
}

fn sp2_ov(x: f64, zp: f64, p: f64, n: f64) -> f64 {
    let at_one = 1.0f64.max(1.0 / x).max(2.0 / (x * zp));
    n * at_one / 1.0f64.max(n / x).max(2.0 * p * n / (x * zp))
}

// ---------------------------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------------------------

/// The largest two-region speed-up over the region size n. `text()` says it for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Optimum {
    /// α > 0: Sp2 peaks at n = n_star cores per region.
    Peak { n_star: f64, sp2_max: f64 },
    /// α = 0: no contention on the link, Sp2 rises with n toward `limit` = (2 + (1 + X)z')/z'.
    NoOptimum { limit: f64 },
}

impl Optimum {
    pub fn text(&self) -> String {
        match self {
            Optimum::Peak { n_star, sp2_max } if *n_star < 1.0 => format!(
                "Sp2 peaks at n* = {} < 1 core per region: one core per region is best (formula maximum {})",
                num(*n_star),
                num(*sp2_max)
            ),
            Optimum::Peak { n_star, sp2_max } => {
                format!("Sp2 peaks at n* = {} cores per region with Sp2_max = {}", num(*n_star), num(*sp2_max))
            }
            Optimum::NoOptimum { limit } => format!(
                "no optimum: Sp2 rises toward its limit (2 + (1 + x'z)z')/z' = {} as n grows (α = 0: no contention)",
                num(*limit)
            ),
        }
    }

    /// n*, when there is a peak.
    pub fn n_star(&self) -> Option<f64> {
        match self {
            Optimum::Peak { n_star, .. } => Some(*n_star),
            Optimum::NoOptimum { .. } => None,
        }
    }

    /// Sp2_max, when there is a peak.
    pub fn sp2_max(&self) -> Option<f64> {
        match self {
            Optimum::Peak { sp2_max, .. } => Some(*sp2_max),
            Optimum::NoOptimum { .. } => None,
        }
    }
}

/// Region sizes at half the largest speed-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct NHalf {
    /// One region: n½ = X.
    pub one_region: f64,
    /// Two regions: the smaller n with Sp2 = Sp2_max/2 (α = 0: half the limit).
    pub two_regions: f64,
    /// Two regions, α > 0: the larger n with Sp2 = Sp2_max/2, where it has fallen back.
    pub two_regions_upper: Option<f64>,
}

/// Speed-ups at one region size n (cores per region).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub n: f64,
    pub one_region: f64,
    pub one_region_overlapping: f64,
    pub two_regions: f64,
    pub two_regions_overlapping: f64,
}

/// Two-region speed-up at one n.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NSpeedup {
    pub n: f64,
    pub speedup: f64,
}

/// The two-region model at one aggregate bandwidth B_E.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub bandwidth_gb_s: f64,
    pub z_prime: f64,
    pub speedups: Vec<NSpeedup>,
    pub optimum: Optimum,
}

/// How much bandwidth between the regions a target needs. `text()` says it for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Requirement {
    /// The smallest z' (and B_E, when the mapping from B_E to z' is known) that reaches it.
    Bandwidth { z_prime: f64, bandwidth_gb_s: Option<f64> },
    /// Reached at every bandwidth: Sp2 ≥ 1/p(n) ≥ target even as B_E → 0.
    AnyBandwidth,
    /// Not reached even as B_E → ∞, where Sp2 approaches `limit` = (1 + X)/(1 + X/n) with the
    /// two-region X (= Sp(n) when X = x'·z).
    Unreachable { limit: f64 },
}

/// The answer to "what B_E lets two regions of n cores reach `fraction` of Sp(n)?".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequiredBandwidth {
    pub n: f64,
    pub fraction: f64,
    /// Sp(n), one region.
    pub one_region_speedup: f64,
    /// fraction·Sp(n).
    pub target_speedup: f64,
    pub requirement: Requirement,
}

impl RequiredBandwidth {
    pub fn text(&self) -> String {
        let goal = format!(
            "{} % of the one-region speed-up {} at n = {} (Sp2 ≥ {})",
            num(self.fraction * 100.0),
            num(self.one_region_speedup),
            num(self.n),
            num(self.target_speedup)
        );
        match &self.requirement {
            Requirement::Bandwidth { z_prime, bandwidth_gb_s: Some(b) } => {
                format!("{goal} needs B_E ≥ {} GB/s (z' ≥ {})", num(*b), num(*z_prime))
            }
            Requirement::Bandwidth { z_prime, bandwidth_gb_s: None } => format!("{goal} needs z' ≥ {}", num(*z_prime)),
            Requirement::AnyBandwidth => format!("{goal} is reached at any bandwidth between the regions"),
            Requirement::Unreachable { limit } => {
                format!("{goal} is unreachable: even as B_E → ∞, Sp2 only approaches {}", num(*limit))
            }
        }
    }

    /// The required B_E in GB/s, when there is one and the mapping to GB/s is known.
    pub fn requirement_bandwidth(&self) -> Option<f64> {
        match self.requirement {
            Requirement::Bandwidth { bandwidth_gb_s, .. } => bandwidth_gb_s,
            _ => None,
        }
    }

    /// Whether a model with this z' reaches the target.
    pub fn met_at(&self, z_prime: f64) -> bool {
        match &self.requirement {
            Requirement::Bandwidth { z_prime: need, .. } => z_prime >= *need,
            Requirement::AnyBandwidth => true,
            Requirement::Unreachable { .. } => false,
        }
    }
}

/// A possible unit mistake, reported next to the answer rather than refusing it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Warning {
    pub field: String,
    pub message: String,
}

/// A bandwidth in GB/s that looks like another unit.
pub fn bandwidth_warning(field: &str, gb_s: f64) -> Option<Warning> {
    let message = if gb_s > 1000.0 {
        format!("{} GB/s is above 1000 GB/s: was it given in MB/s?", num(gb_s))
    } else if gb_s < 0.001 {
        format!("{} GB/s is below 1 MB/s: check the unit (GB/s expected)", num(gb_s))
    } else {
        return None;
    };
    Some(Warning { field: field.into(), message })
}

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/// Validated balance factors and load: every method answers finite numbers or an error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Regions {
    balance: Balance,
    load: LoadFactor,
    /// z' per GB/s of B_E (z' = r·B_E/b_l is linear in B_E), when known.
    z_prime_per_gb_s: Option<f64>,
    two_region_x: TwoRegionX,
}

impl Regions {
    pub fn new(balance: Balance, load: LoadFactor) -> Result<Self, InputError> {
        balance.validate()?;
        load.validate()?;
        Ok(Regions { balance, load, z_prime_per_gb_s: None, two_region_x: TwoRegionX::Scaled })
    }

    /// Chooses the balance factor the two-region formulas hold.
    pub fn with_two_region_x(mut self, choice: TwoRegionX) -> Self {
        self.two_region_x = choice;
        self
    }

    pub fn two_region_choice(&self) -> TwoRegionX {
        self.two_region_x
    }

    /// The balance factor in Sp2, n*, Sp2_max and the two-region n½: x' or x'·z.
    pub fn two_region_balance(&self) -> f64 {
        match self.two_region_x {
            TwoRegionX::Slides => self.balance.x_prime,
            TwoRegionX::Scaled => self.balance.in_region(),
        }
    }

    /// Says that `balance.z_prime` holds at B_E = `bandwidth_gb_s`, which makes sweeps and the
    /// required bandwidth answer in GB/s.
    pub fn with_region_bandwidth(mut self, bandwidth_gb_s: f64) -> Result<Self, InputError> {
        let b = positive("region_bandwidth_gb_s", bandwidth_gb_s)?;
        self.z_prime_per_gb_s = Some(self.balance.z_prime / b);
        Ok(self)
    }

    pub fn balance(&self) -> &Balance {
        &self.balance
    }

    pub fn load(&self) -> &LoadFactor {
        &self.load
    }

    /// The B_E the current z' corresponds to, when known.
    pub fn region_bandwidth_gb_s(&self) -> Option<f64> {
        self.z_prime_per_gb_s.map(|k| self.balance.z_prime / k)
    }

    fn z_prime_scale(&self) -> Result<f64, InputError> {
        self.z_prime_per_gb_s.ok_or_else(|| {
            InputError::new(
                "bandwidth_gb_s",
                "needs the B_E at which z' was given (region_bandwidth_gb_s), or the application form",
            )
        })
    }

    /// The same model with z' rescaled to another B_E.
    pub fn at_bandwidth(&self, bandwidth_gb_s: f64) -> Result<Self, InputError> {
        let k = self.z_prime_scale()?;
        let b = positive("bandwidth_gb_s", bandwidth_gb_s)?;
        let z_prime = positive("bandwidth_gb_s", k * b)
            .map_err(|_| InputError::new("bandwidth_gb_s", format!("{} GB/s makes z' out of range", num(b))))?;
        Ok(Regions { balance: Balance { z_prime, ..self.balance.clone() }, ..self.clone() })
    }

    /// Sp(n), one region, additive.
    pub fn speedup_one(&self, n: f64) -> Result<f64, InputError> {
        Ok(sp1(self.balance.in_region(), check_cores("n", n)?))
    }

    /// Sp_ov(n), one region, overlapping.
    pub fn speedup_one_overlapping(&self, n: f64) -> Result<f64, InputError> {
        Ok(sp1_ov(self.balance.in_region(), check_cores("n", n)?))
    }

    /// Sp2(n), two regions of n cores each, additive.
    pub fn speedup_two(&self, n: f64) -> Result<f64, InputError> {
        let n = check_cores("n", n)?;
        Ok(sp2(self.two_region_balance(), self.balance.z_prime, self.load.p(n), n))
    }

    /// Sp2_ov(n), two regions of n cores each, overlapping.
    pub fn speedup_two_overlapping(&self, n: f64) -> Result<f64, InputError> {
        let n = check_cores("n", n)?;
        Ok(sp2_ov(self.two_region_balance(), self.balance.z_prime, self.load.p(n), n))
    }

    /// All four speed-ups at every n; an error names the position (`n[2]`).
    pub fn curve(&self, ns: &[f64]) -> Result<Vec<Point>, InputError> {
        ns.iter()
            .enumerate()
            .map(|(i, &n)| {
                let field = format!("n[{i}]");
                let n = check_cores(&field, n)?;
                Ok(Point {
                    n,
                    one_region: self.speedup_one(n)?,
                    one_region_overlapping: self.speedup_one_overlapping(n)?,
                    two_regions: self.speedup_two(n)?,
                    two_regions_overlapping: self.speedup_two_overlapping(n)?,
                })
            })
            .collect()
    }

    pub fn optimum(&self) -> Optimum {
        let (x, zp, a) = (self.two_region_balance(), self.balance.z_prime, self.load.alpha);
        let top = 2.0 + (1.0 + x) * zp;
        if a == 0.0 {
            Optimum::NoOptimum { limit: top / zp }
        } else {
            Optimum::Peak { n_star: (x * zp / (2.0 * a)).sqrt(), sp2_max: top / (zp + 2.0 * (2.0 * a * x * zp).sqrt()) }
        }
    }

    pub fn n_half(&self) -> NHalf {
        let (x, zp, a) = (self.two_region_balance(), self.balance.z_prime, self.load.alpha);
        let s = (2.0 * a * x * zp).sqrt();
        let lower = 2.0 * x * zp / ((zp + 4.0 * s) + ((zp + 2.0 * s) * (zp + 6.0 * s)).sqrt());
        NHalf {
            one_region: self.balance.in_region(),
            two_regions: lower,
            two_regions_upper: (a > 0.0).then(|| x * zp / (2.0 * a) / lower),
        }
    }

    /// Sp2 at every n and the optimum, at every B_E in `bandwidths_gb_s`.
    pub fn sweep(&self, ns: &[f64], bandwidths_gb_s: &[f64]) -> Result<Vec<SweepPoint>, InputError> {
        self.z_prime_scale()?;
        for (i, &n) in ns.iter().enumerate() {
            check_cores(&format!("n[{i}]"), n)?;
        }
        bandwidths_gb_s
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let m = self.at_bandwidth(b).map_err(|e| InputError { field: format!("{}[{i}]", e.field), ..e })?;
                let speedups = ns.iter().map(|&n| m.speedup_two(n).map(|speedup| NSpeedup { n, speedup }));
                Ok(SweepPoint {
                    bandwidth_gb_s: b,
                    z_prime: m.balance.z_prime,
                    speedups: speedups.collect::<Result<_, _>>()?,
                    optimum: m.optimum(),
                })
            })
            .collect()
    }

    /// The smallest B_E (as z', and in GB/s when known) at which Sp2(n) ≥ fraction·Sp(n).
    pub fn required_bandwidth(&self, n: f64, fraction: f64) -> Result<RequiredBandwidth, InputError> {
        let n = check_cores("n", n)?;
        if !(fraction.is_finite() && fraction > 0.0 && fraction <= 1.0) {
            return Err(InputError::new(
                "fraction",
                format!("must be greater than 0 and at most 1, found {}", num(fraction)),
            ));
        }
        let x = self.two_region_balance();
        let p = self.load.p(n);
        let one = sp1(self.balance.in_region(), n);
        let target = fraction * one;
        // Sp2 ≥ T ⇔ z'·c ≥ need, with c = (1 + X) − T·(1 + X/n) and need = 2(T·p − 1).
        let need = 2.0 * (target * p - 1.0);
        let c = (1.0 + x) - target * (1.0 + x / n);
        // As B_E → ∞, Sp2 → (1 + X)/(1 + X/n).
        let limit = sp1(x, n);
        let requirement = if need <= 0.0 {
            Requirement::AnyBandwidth
        } else if c <= 0.0 || (fraction >= 1.0 && self.two_region_x == TwoRegionX::Scaled) {
            // c ≤ 0 says the limit is at most the target; a rounding error may put it a hair above.
            Requirement::Unreachable { limit: if c <= 0.0 { limit.min(target) } else { limit } }
        } else {
            let mut zp = need / c;
            // The closed form can land a rounding error below the target: c is a difference of
            // near-equal terms when the target nears the limit (proptest found x' = 8261,
            // n = 744, 93.5 %: c = 52 from terms near 8,262, z' = 14,768 off by more than
            // eight steps of 4ε). Step up, each step twice the last, until it is reached.
            let mut step = 4.0 * f64::EPSILON;
            while zp.is_finite() && zp <= MAX_INPUT && sp2(x, zp, p, n) < target && step < 1e-3 {
                zp *= 1.0 + step;
                step *= 2.0;
            }
            if zp.is_finite() && zp <= MAX_INPUT && sp2(x, zp, p, n) >= target {
                Requirement::Bandwidth { z_prime: zp, bandwidth_gb_s: self.z_prime_per_gb_s.map(|k| zp / k) }
            } else {
                // The target lies within a rounding error of the limit: only a z' beyond the
                // largest accepted would reach it, so the limit said is what that z' gives.
                Requirement::Unreachable { limit: limit.min(sp2(x, MAX_INPUT, p, n)) }
            }
        };
        Ok(RequiredBandwidth { n, fraction, one_region_speedup: one, target_speedup: target, requirement })
    }
}

#[cfg(test)]
mod tests;
