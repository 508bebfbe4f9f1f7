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

pub mod page;

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
/// Longest formula accepted; keeps the parse and evaluation recursion shallow.
const MAX_FORMULA_CHARS: usize = 1000;
/// Deepest nesting of parentheses, signs and powers in a formula.
const MAX_DEPTH: usize = 64;
/// Most operators in a formula: a chain `N + N + …` is a tree as deep as it is long, and
/// evaluating it walks the tree recursively.
const MAX_OPERATORS: usize = 200;

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

    /// The model of an application of problem size N on a system.
    pub fn from_application(
        app: &Application,
        problem_size_n: f64,
        system: &System,
    ) -> Result<(Self, Workload), InputError> {
        let w = app.evaluate(problem_size_n)?;
        system.validate()?;
        let intensity = w.ops / w.bytes;
        let r = w.bytes / w.exchanged_bytes;
        let x_prime = intensity * system.reference_bandwidth_gb_s / system.peak_gflops_per_core;
        let z = system.node_bandwidth_gb_s / system.reference_bandwidth_gb_s;
        let z_prime = r * system.region_bandwidth_gb_s / system.node_bandwidth_gb_s;
        let balance = Balance::new(x_prime, z, z_prime).map_err(|e| derived(e, &w))?;
        let regions = Regions::new(balance, LoadFactor::new(system.alpha)?)?
            .with_region_bandwidth(system.region_bandwidth_gb_s)?;
        Ok((regions, w))
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
            Requirement::Unreachable { limit }
        } else {
            let mut zp = need / c;
            // The closed form can land a rounding error below the target; step up to it.
            for _ in 0..8 {
                if sp2(x, zp, p, n) >= target {
                    break;
                }
                zp *= 1.0 + 4.0 * f64::EPSILON;
            }
            if zp.is_finite() && zp <= MAX_INPUT && sp2(x, zp, p, n) >= target {
                Requirement::Bandwidth { z_prime: zp, bandwidth_gb_s: self.z_prime_per_gb_s.map(|k| zp / k) }
            } else {
                Requirement::Unreachable { limit }
            }
        };
        Ok(RequiredBandwidth { n, fraction, one_region_speedup: one, target_speedup: target, requirement })
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

// ---------------------------------------------------------------------------------------------
// Applications and systems
// ---------------------------------------------------------------------------------------------

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

    pub fn evaluate(&self, problem_size_n: f64) -> Result<Workload, InputError> {
        let n = positive("N", problem_size_n)?;
        let value = |field: &str, text: &str| -> Result<f64, InputError> {
            let v = Formula::parse(field, text)?.eval(n)?;
            if v > 0.0 {
                Ok(v)
            } else {
                Err(InputError::new(field, format!("must be positive at N = {}, found {}", num(n), num(v))))
            }
        };
        Ok(Workload {
            problem_size_n: n,
            ops: value("ops", &self.ops)?,
            bytes: value("bytes", &self.bytes)?,
            exchanged_bytes: value("exchanged_bytes", &self.exchanged_bytes)?,
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

/// Keys of [`System::preset`].
pub const SYSTEM_PRESETS: [&str; 3] = ["bwgrid1", "bwgrid2-15", "bwgrid2-45"];

impl System {
    /// bwGRiD 1 ("bwgrid1") and the planned bwGRiD 2 at 15 or 45 GB/s ("bwgrid2-15",
    /// "bwgrid2-45"), from the seed's tables; α = 1/20 is the slides' estimate for bwGRiD 1.
    pub fn preset(key: &str) -> Option<Self> {
        let (name, peak, node, region) = match key {
            "bwgrid1" => ("bwGRiD 1", 8.5, 1.5, 1.0),
            "bwgrid2-15" => ("bwGRiD 2 (planned, 15 GB/s)", 10.0, 6.0, 15.0),
            "bwgrid2-45" => ("bwGRiD 2 (planned, 45 GB/s)", 10.0, 6.0, 45.0),
            _ => return None,
        };
        Some(System {
            name: name.into(),
            peak_gflops_per_core: peak,
            node_bandwidth_gb_s: node,
            reference_bandwidth_gb_s: 1.0,
            region_bandwidth_gb_s: region,
            alpha: 0.05,
        })
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

// ---------------------------------------------------------------------------------------------
// Formulas of N
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Num(f64),
    N,
    Neg(Box<Node>),
    /// Operator, its 1-based column, operands.
    Bin(char, usize, Box<Node>, Box<Node>),
}

/// A formula of the problem size N: numbers (`2`, `2.5`, `1e9`), `+ - * / ^` (also `· × −`),
/// parentheses and the variable `N`; `^` binds tightest and to the right, `-N^2` is −(N²).
/// Errors name the field, line 1 and the 1-based character column.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    field: String,
    root: Node,
}

struct Parser<'a> {
    field: &'a str,
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    operators: usize,
}

fn operator(c: char) -> char {
    match c {
        '·' | '×' => '*',
        '−' => '-',
        c => c,
    }
}

impl Parser<'_> {
    fn err(&self, column: usize, message: impl Into<String>) -> InputError {
        InputError::new(self.field, message).at(1, Some(column))
    }

    /// The next non-blank character, with `· × −` read as `* * -`.
    fn peek(&mut self) -> Option<char> {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
        self.chars.get(self.pos).map(|&c| operator(c))
    }

    fn found(&self) -> String {
        self.chars.get(self.pos).map_or("the end".into(), |c| format!("'{c}'"))
    }

    fn binary(&mut self, ops: [char; 2], next: fn(&mut Self) -> Result<Node, InputError>) -> Result<Node, InputError> {
        let mut left = next(self)?;
        while let Some(op) = self.peek().filter(|c| ops.contains(c)) {
            let column = self.pos + 1;
            self.count_operator(column)?;
            self.pos += 1;
            left = Node::Bin(op, column, Box::new(left), Box::new(next(self)?));
        }
        Ok(left)
    }

    fn expr(&mut self) -> Result<Node, InputError> {
        self.binary(['+', '-'], |p| p.binary(['*', '/'], Self::unary))
    }

    fn unary(&mut self) -> Result<Node, InputError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(self.pos + 1, "too deeply nested"));
        }
        self.depth += 1;
        let node = match self.peek() {
            Some('-') => {
                self.pos += 1;
                self.unary().map(|n| Node::Neg(Box::new(n)))
            }
            Some('+') => {
                self.pos += 1;
                self.unary()
            }
            _ => self.power(),
        };
        self.depth -= 1;
        node
    }

    fn count_operator(&mut self, column: usize) -> Result<(), InputError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(self.err(column, format!("more than {MAX_OPERATORS} operators in one formula")));
        }
        Ok(())
    }

    fn power(&mut self) -> Result<Node, InputError> {
        let base = self.atom()?;
        if self.peek() == Some('^') {
            let column = self.pos + 1;
            self.count_operator(column)?;
            self.pos += 1;
            return Ok(Node::Bin('^', column, Box::new(base), Box::new(self.unary()?)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Node, InputError> {
        let c = self.peek();
        let column = self.pos + 1;
        match c {
            Some('(') => {
                self.pos += 1;
                let inner = self.expr()?;
                if self.peek() != Some(')') {
                    let msg = format!("expected ')' to close the '(' at column {column}, found {}", self.found());
                    return Err(self.err(self.pos + 1, msg));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some('N') => {
                self.pos += 1;
                Ok(Node::N)
            }
            Some(c) if c.is_ascii_digit() || c == '.' => self.number(),
            Some(c) if c.is_alphabetic() => {
                let len = self.chars[self.pos..].iter().take_while(|c| c.is_alphanumeric() || **c == '_').count();
                let name: String = self.chars[self.pos..self.pos + len].iter().collect();
                Err(self.err(column, format!("unknown name '{name}'; the only variable is N")))
            }
            _ => Err(self.err(column, format!("expected a number, N or '(', found {}", self.found()))),
        }
    }

    fn number(&mut self) -> Result<Node, InputError> {
        let start = self.pos;
        let at = |p: &Self, i: usize| p.chars.get(i).copied().unwrap_or(' ');
        while at(self, self.pos).is_ascii_digit() || at(self, self.pos) == '.' {
            self.pos += 1;
        }
        if matches!(at(self, self.pos), 'e' | 'E') {
            let sign = usize::from(matches!(at(self, self.pos + 1), '+' | '-'));
            if at(self, self.pos + 1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                while at(self, self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Node::Num(v)),
            Ok(_) => Err(self.err(start + 1, format!("the number {text} is too large"))),
            Err(_) => Err(self.err(start + 1, format!("'{text}' is not a number"))),
        }
    }
}

fn eval(node: &Node, n: f64) -> Result<f64, (usize, &'static str)> {
    match node {
        Node::Num(v) => Ok(*v),
        Node::N => Ok(n),
        Node::Neg(inner) => eval(inner, n).map(|v| -v),
        Node::Bin(op, column, l, r) => {
            let (a, b) = (eval(l, n)?, eval(r, n)?);
            let v = match op {
                '+' => a + b,
                '-' => a - b,
                '*' => a * b,
                '/' if b == 0.0 => return Err((*column, "division by zero")),
                '/' => a / b,
                _ => a.powf(b),
            };
            if v.is_finite() {
                Ok(v)
            } else {
                Err((*column, "the value is not a finite number here (overflow, or a power of a negative number)"))
            }
        }
    }
}

impl Formula {
    pub fn parse(field: &str, text: &str) -> Result<Formula, InputError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() > MAX_FORMULA_CHARS {
            return Err(InputError::new(field, "the formula is longer than 1000 characters"));
        }
        let mut p = Parser { field, chars, pos: 0, depth: 0, operators: 0 };
        if p.peek().is_none() {
            return Err(p.err(1, "the formula is empty; expected e.g. 2/3*N^3"));
        }
        let root = p.expr()?;
        match p.peek() {
            None => Ok(Formula { field: field.into(), root }),
            Some(')') => Err(p.err(p.pos + 1, "')' without a matching '('")),
            Some(_) => {
                let msg = format!("expected an operator (+ - * / ^) or the end, found {}", p.found());
                Err(p.err(p.pos + 1, msg))
            }
        }
    }

    /// The value at N = `n`; an error names the column of the operation that failed.
    pub fn eval(&self, n: f64) -> Result<f64, InputError> {
        eval(&self.root, n).map_err(|(column, message)| {
            InputError::new(&self.field, format!("{message} at N = {}", num(n))).at(1, Some(column))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// |got − want| ≤ tol · max(1, |want|).
    fn check(name: &str, got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol * want.abs().max(1.0), "{name}: got {got}, want {want}");
    }

    /// The model with X = x'·z in the two-region formulas (the default).
    fn model(x_prime: f64, z: f64, z_prime: f64, alpha: f64) -> Regions {
        Regions::new(Balance { x_prime, z, z_prime }, LoadFactor { alpha }).expect("valid model")
    }

    /// The model as the slides print it, x' in the two-region formulas whatever z is.
    fn slides(x_prime: f64, z: f64, z_prime: f64, alpha: f64) -> Regions {
        model(x_prime, z, z_prime, alpha).with_two_region_x(TwoRegionX::Slides)
    }

    /// x' of LinPack at N = 40000 on bwGRiD 1: N/204.
    const X40K: f64 = 40000.0 / 204.0;

    #[test]
    fn spec_one_region() {
        // Spec: x' = N/204, z = 1.5; the printed values are rounded to two decimals.
        let m = model(X40K, 1.5, 10.0, 0.05);
        for (n, want) in [(64.0, 52.74), (256.0, 137.33), (1120.0, 233.74)] {
            check(&format!("Sp({n})"), m.speedup_one(n).expect("n ≥ 1"), want, 0.005 / want);
        }
        check("Sp(1)", m.speedup_one(1.0).expect("n = 1"), 1.0, 1e-15);
    }

    #[test]
    fn linpack_on_bwgrid1() {
        let sys = System::preset("bwgrid1").expect("preset");
        let (m, w) = Regions::from_application(&Application::linpack(), 40000.0, &sys).expect("valid");
        let b = m.balance();
        check("#op", w.ops, 2.0 / 3.0 * 40000f64.powi(3), 1e-15);
        check("#b", w.bytes, 16.0 * 40000f64.powi(2), 1e-15);
        check("x' = N/204", b.x_prime, X40K, 1e-12);
        check("z = 1.5", b.z, 1.5, 1e-15);
        // r = #b/#x = 16N²/(4N²) = 4; z' = 4 · 1.0/1.5.
        check("z'", b.z_prime, 4.0 / 1.5, 1e-12);
        check("Sp(64)", m.speedup_one(64.0).expect("n"), 52.74, 1e-4);
        assert_eq!(m.region_bandwidth_gb_s().map(|b| (b * 1e9).round() / 1e9), Some(1.0));
        assert!(sys.warnings().is_empty());
    }

    #[test]
    fn spec_optimum_and_scan() {
        // Spec: x' = 196.08, α = 1/20 (z = 1, so X = x'): z' → (n*, Sp2_max) as printed.
        for (zp, n_star, sp2_max) in [(1.0, 44.3, 20.20), (10.0, 140.0, 51.91), (100.0, 442.8, 104.53)] {
            let m = model(196.08, 1.0, zp, 0.05);
            let Optimum::Peak { n_star: got_n, sp2_max: got_max } = m.optimum() else { panic!("α > 0 has a peak") };
            check(&format!("n*(z'={zp})"), got_n, n_star, 0.05 / n_star);
            check(&format!("Sp2_max(z'={zp})"), got_max, sp2_max, 0.005 / sp2_max);
            // Independent check: a log-spaced scan of Sp2 over 1 ≤ n ≤ 1e5.
            let (scan_n, scan_max) = (0..=200_000)
                .map(|i| 10f64.powf(f64::from(i) * 5.0 / 200_000.0))
                .map(|n| (n, m.speedup_two(n).expect("n ≥ 1")))
                .fold((0.0, 0.0), |best, (n, s)| if s > best.1 { (n, s) } else { best });
            check("scan max", scan_max, got_max, 1e-9);
            check("scan argmax", scan_n, got_n, 1e-3);
        }
    }

    #[test]
    fn two_readings_of_the_slides() {
        // The issue's example: x' = 196.08, z = 1.5, z' = 10, α = 0.05. Read literally, the
        // two-region formulas hold x', so n* and Sp2_max are the spec's z' = 10 row while the
        // one-region Sp(64) uses x'z.
        assert_eq!(model(1.0, 1.0, 1.0, 0.0).two_region_choice(), TwoRegionX::Scaled, "the default");
        let m = slides(196.08, 1.5, 10.0, 0.05);
        assert_eq!(m.two_region_choice(), TwoRegionX::Slides);
        check("Sp(64)", m.speedup_one(64.0).expect("n"), 52.74, 1e-4);
        check("n*", m.optimum().n_star().expect("peak"), 140.0, 0.05 / 140.0);
        check("Sp2_max", m.optimum().sp2_max().expect("peak"), 51.91, 0.005 / 51.91);
        check("two-region n½ uses x'", m.n_half().two_regions, slides(196.08, 1.0, 10.0, 0.05).n_half().two_regions, 1e-15);
        check("one-region n½ = x'z", m.n_half().one_region, 196.08 * 1.5, 1e-15);
        // Scaled: X = x'·z = 294.12, n* = √(294.12·10/0.1).
        let s = m.clone().with_two_region_x(TwoRegionX::Scaled);
        check("scaled n*", s.optimum().n_star().expect("peak"), (294.12f64 * 100.0).sqrt(), 1e-12);
        // With z = 1.5 the slides' Sp2 tends to (1 + x')/(1 + x'/n) < Sp(n): 90 % of Sp(256)
        // is out of reach at any bandwidth, while the scaled reading reaches it.
        let r = m.clone().with_region_bandwidth(1.0).expect("valid").required_bandwidth(256.0, 0.9).expect("valid");
        let Requirement::Unreachable { limit } = r.requirement else { panic!("unreachable: {r:?}") };
        check("limit", limit, 197.08 / (1.0 + 196.08 / 256.0), 1e-12);
        let r = s.with_region_bandwidth(1.0).expect("valid").required_bandwidth(256.0, 0.9).expect("valid");
        assert!(matches!(r.requirement, Requirement::Bandwidth { .. }), "{r:?}");
        // At n = 64 the slides' reading reaches 90 %, at a finite bandwidth.
        let r = m.with_region_bandwidth(1.0).expect("valid").required_bandwidth(64.0, 0.9).expect("valid");
        let Requirement::Bandwidth { z_prime, .. } = r.requirement else { panic!("reachable: {r:?}") };
        let at = slides(196.08, 1.5, z_prime, 0.05).speedup_two(64.0).expect("n");
        check("Sp2 at the required z'", at, r.target_speedup, 1e-12);
        assert_eq!(TwoRegionX::parse("f", "slides"), Ok(TwoRegionX::Slides));
        assert_eq!(TwoRegionX::parse("f", "").map(TwoRegionX::key), Ok("scaled"));
        assert_eq!(TwoRegionX::parse("two_region_x", "x").expect_err("bad").field, "two_region_x");
    }

    #[test]
    fn no_contention_has_no_optimum() {
        let m = model(196.08, 1.5, 10.0, 0.0);
        let x = 196.08 * 1.5;
        let Optimum::NoOptimum { limit } = m.optimum() else { panic!("α = 0 has no peak") };
        check("limit", limit, (2.0 + (1.0 + x) * 10.0) / 10.0, 1e-15);
        let s: Vec<f64> = [1.0, 10.0, 1e3, 1e6, 1e12].iter().map(|&n| m.speedup_two(n).expect("n")).collect();
        assert!(s.windows(2).all(|w| w[0] < w[1]), "Sp2 rises with n: {s:?}");
        check("Sp2(1e12) near the limit", s[4], limit, 1e-9);
        assert!(m.optimum().text().starts_with("no optimum: Sp2 rises toward its limit"));
        assert_eq!((m.optimum().n_star(), m.optimum().sp2_max()), (None, None));
    }

    #[test]
    fn n_half_is_half_the_best() {
        for (xp, z, zp, a) in [(196.08, 1.5, 10.0, 0.05), (100.0, 1.0, 1.0, 0.05), (50.0, 2.0, 100.0, 0.001)] {
            let m = model(xp, z, zp, a);
            let h = m.n_half();
            let x = xp * z;
            check("one region n½ = X", h.one_region, x, 1e-15);
            check("Sp(n½)", m.speedup_one(h.one_region).expect("n"), (1.0 + x) / 2.0, 1e-12);
            let best = m.optimum().sp2_max().expect("α > 0");
            check("Sp2(n½)", m.speedup_two(h.two_regions).expect("n"), best / 2.0, 1e-9);
            let upper = h.two_regions_upper.expect("α > 0");
            check("Sp2(upper n½)", m.speedup_two(upper).expect("n"), best / 2.0, 1e-9);
            assert!(h.two_regions < m.optimum().n_star().expect("peak") && upper > h.two_regions);
        }
        let h = model(80.0, 1.5, 3.0, 0.0).n_half();
        check("α = 0: n½ = X", h.two_regions, 120.0, 1e-12);
        assert_eq!(h.two_regions_upper, None);
    }

    #[test]
    fn overlapping_by_hand() {
        // X = 100, z' = 2 (X·z' = 200), α = 1/20: Sp2_ov(n) = n·1/max(1, n/100, n²/2000).
        let m = model(50.0, 2.0, 2.0, 0.05);
        let cases = [
            ("Sp_ov(10)", m.speedup_one_overlapping(10.0), 10.0),
            ("Sp_ov(500)", m.speedup_one_overlapping(500.0), 100.0),
            ("Sp2_ov(10)", m.speedup_two_overlapping(10.0), 10.0),
            ("Sp2_ov(40)", m.speedup_two_overlapping(40.0), 40.0),
            ("Sp2_ov(60)", m.speedup_two_overlapping(60.0), 60.0 / 1.8),
            ("Sp2_ov(44.72)", m.speedup_two_overlapping(2000f64.sqrt()), 2000f64.sqrt()),
            ("Sp2_ov(100)", m.speedup_two_overlapping(100.0), 20.0),
            // X < 1: the baseline is communication-bound too.
            ("Sp_ov, X = 0.5", model(0.5, 1.0, 1.0, 0.05).speedup_one_overlapping(8.0), 1.0),
        ];
        for (name, got, want) in cases {
            check(name, got.expect("valid"), want, 1e-12);
        }
    }

    #[test]
    fn sweep_rescales_z_prime() {
        let sys = System::preset("bwgrid1").expect("preset");
        let (m, _) = Regions::from_application(&Application::linpack(), 40000.0, &sys).expect("valid");
        let pts = m.sweep(&[64.0, 256.0], &[1.0, 15.0, 45.0]).expect("valid");
        for (p, b) in pts.iter().zip([1.0, 15.0, 45.0]) {
            check("z' = 4·B_E/1.5", p.z_prime, 4.0 * b / 1.5, 1e-12);
            let direct = model(X40K, 1.5, 4.0 * b / 1.5, 0.05);
            check("Sp2(256)", p.speedups[1].speedup, direct.speedup_two(256.0).expect("n"), 1e-12);
            let (got, want) = (&p.optimum, direct.optimum());
            check("n*", got.n_star().expect("peak"), want.n_star().expect("peak"), 1e-12);
            check("Sp2_max", got.sp2_max().expect("peak"), want.sp2_max().expect("peak"), 1e-12);
        }
        let e = m.sweep(&[64.0], &[1.0, -2.0]).expect_err("negative bandwidth");
        assert_eq!(e.field, "bandwidth_gb_s[1]");
        let e = model(1.0, 1.0, 1.0, 0.05).sweep(&[64.0], &[1.0]).expect_err("no B_E known");
        assert!(e.message.contains("region_bandwidth_gb_s"), "{e}");
    }

    #[test]
    fn required_bandwidth_outcomes() {
        let m = model(X40K, 1.5, 4.0 / 1.5, 0.05).with_region_bandwidth(1.0).expect("valid");
        let r = m.required_bandwidth(64.0, 0.9).expect("valid");
        let Requirement::Bandwidth { z_prime, bandwidth_gb_s: Some(b) } = r.requirement else {
            panic!("reachable: {r:?}")
        };
        check("B_E = z'·b_l/r", b, z_prime * 1.5 / 4.0, 1e-12);
        assert!(!r.met_at(4.0 / 1.5), "bwGRiD 1's 1 GB/s is not enough: {}", r.text());
        // Any bandwidth: p(4) = 0.2, so Sp2 ≥ 1/0.2 = 5 > 0.9·Sp(4).
        assert_eq!(m.required_bandwidth(4.0, 0.9).expect("valid").requirement, Requirement::AnyBandwidth);
        assert_eq!(
            model(5.0, 1.0, 1.0, 0.0).required_bandwidth(1000.0, 1.0).expect("v").requirement,
            Requirement::AnyBandwidth
        );
        let r = m.required_bandwidth(64.0, 1.0).expect("valid");
        assert_eq!(r.requirement, Requirement::Unreachable { limit: r.one_region_speedup });
        assert!(r.text().contains("unreachable"), "{}", r.text());
        for bad in [0.0, -0.5, 1.5, f64::NAN] {
            assert_eq!(m.required_bandwidth(64.0, bad).expect_err("bad fraction").field, "fraction");
        }
    }

    #[test]
    fn validation_names_the_field() {
        let cases: [(Result<Regions, InputError>, &str); 7] = [
            (Regions::new(Balance { x_prime: 0.0, z: 1.0, z_prime: 1.0 }, LoadFactor { alpha: 0.05 }), "x_prime"),
            (Regions::new(Balance { x_prime: 1.0, z: -1.0, z_prime: 1.0 }, LoadFactor { alpha: 0.05 }), "z"),
            (
                Regions::new(Balance { x_prime: 1.0, z: 1.0, z_prime: f64::INFINITY }, LoadFactor { alpha: 0.05 }),
                "z_prime",
            ),
            (Regions::new(Balance { x_prime: 1.0, z: 1.0, z_prime: 1.0 }, LoadFactor { alpha: -0.05 }), "alpha"),
            (Regions::new(Balance { x_prime: 1.0, z: 1.0, z_prime: 1.0 }, LoadFactor { alpha: 1e-300 }), "alpha"),
            (model(1.0, 1.0, 1.0, 0.0).with_region_bandwidth(0.0), "region_bandwidth_gb_s"),
            (model(1.0, 1.0, 1.0, 0.0).with_region_bandwidth(1e13), "region_bandwidth_gb_s"),
        ];
        for (got, field) in cases {
            assert_eq!(got.expect_err(field).field, field);
        }
        let m = model(1.0, 1.0, 1.0, 0.05);
        assert_eq!(m.speedup_one(0.5).expect_err("n < 1").field, "n");
        assert_eq!(m.curve(&[4.0, -3.0]).expect_err("n < 1").field, "n[1]");
        let sys = System::preset("bwgrid1").expect("preset");
        for (patch, field) in [
            (System { peak_gflops_per_core: 0.0, ..sys.clone() }, "peak_gflops_per_core"),
            (System { node_bandwidth_gb_s: -1.0, ..sys.clone() }, "node_bandwidth_gb_s"),
            (System { reference_bandwidth_gb_s: 0.0, ..sys.clone() }, "reference_bandwidth_gb_s"),
            (System { region_bandwidth_gb_s: f64::NAN, ..sys.clone() }, "region_bandwidth_gb_s"),
        ] {
            let e = Regions::from_application(&Application::linpack(), 40000.0, &patch).expect_err(field);
            assert_eq!(e.field, field);
        }
        let e = Regions::from_application(&Application::linpack(), 0.0, &sys).expect_err("N = 0");
        assert_eq!(e.field, "N");
        let neg = Application { bytes: "N - 50000".into(), ..Application::linpack() };
        let e = Regions::from_application(&neg, 40000.0, &sys).expect_err("#b < 0");
        assert_eq!(e.to_string(), "bytes: must be positive at N = 40000, found -10000");
    }

    #[test]
    fn unit_warnings() {
        let sys = System {
            node_bandwidth_gb_s: 1500.0,
            region_bandwidth_gb_s: 0.0005,
            ..System::preset("bwgrid1").expect("p")
        };
        let w = sys.warnings();
        let fields: Vec<&str> = w.iter().map(|w| w.field.as_str()).collect();
        assert_eq!(fields, ["node_bandwidth_gb_s", "region_bandwidth_gb_s"]);
        assert!(w[0].message.contains("MB/s"), "{}", w[0].message);
        let sys = System { peak_gflops_per_core: 8500.0 * 1000.0, ..System::preset("bwgrid2-15").expect("p") };
        assert_eq!(sys.warnings().len(), 1);
        assert!(SYSTEM_PRESETS.iter().all(|k| System::preset(k).is_some_and(|s| s.warnings().is_empty())));
    }

    #[test]
    fn formulas_evaluate() {
        let cases = [
            ("2/3*N^3", 3.0, 18.0),
            ("2*N^2*8", 10.0, 1600.0),
            ("N^2*8/2", 10.0, 400.0),
            ("1e9", 1.0, 1e9),
            ("1.5E-3*N", 2.0, 3e-3),
            ("-N^2 + 2^3^2", 3.0, 512.0 - 9.0),
            ("(N+1)*(N-1)", 4.0, 15.0),
            ("  2 · N × 3 − 1 ", 2.0, 11.0),
            ("2^-1", 0.0, 0.5),
            ("--N", 7.0, 7.0),
            ("N/2/2", 8.0, 2.0),
            (".5*N", 4.0, 2.0),
        ];
        for (text, n, want) in cases {
            let got = Formula::parse("ops", text).and_then(|f| f.eval(n));
            check(text, got.expect(text), want, 1e-15);
        }
    }

    #[test]
    fn formula_errors_have_columns() {
        let cases = [
            ("", 1, "empty"),
            ("2*N^", 5, "expected a number, N or '(', found the end"),
            ("2N", 2, "expected an operator"),
            ("(N+1", 5, "expected ')' to close the '(' at column 1"),
            ("N+1)", 4, "without a matching '('"),
            ("2*n^3", 3, "unknown name 'n'; the only variable is N"),
            ("N $ 2", 3, "expected an operator"),
            ("1e999", 1, "too large"),
            ("1..2", 1, "not a number"),
            ("N/(N-N)", 2, "division by zero"),
            ("(0-N)^0.5", 6, "not a finite number"),
            ("10^N", 3, "not a finite number"),
            ("2·(·3)", 4, "expected a number"),
        ];
        for (text, column, want) in cases {
            let e = Formula::parse("ops", text).and_then(|f| f.eval(4000.0)).expect_err(text);
            assert_eq!((e.field.as_str(), e.line, e.column), ("ops", Some(1), Some(column)), "{text}: {e}");
            assert!(e.message.contains(want), "{text}: {e}");
        }
        let deep = format!("{}N{}", "(".repeat(100), ")".repeat(100));
        assert!(Formula::parse("ops", &deep).expect_err("deep").message.contains("nested"));
        assert!(Formula::parse("ops", &"-".repeat(5000)).is_err());
        assert!(Formula::parse("ops", &"N+".repeat(600)).is_err());
        // A chain is as deep as it is long: bounded by its operators, with the column of the
        // first one past the bound.
        let chain = format!("N{}", "+1".repeat(MAX_OPERATORS + 1));
        let e = Formula::parse("ops", &chain).expect_err("long chain");
        assert_eq!(e.column, Some(2 * MAX_OPERATORS + 2), "{e}");
        assert!(e.message.contains("operators"), "{e}");
        let fine = format!("N{}", "+1".repeat(MAX_OPERATORS));
        assert_eq!(Formula::parse("ops", &fine).and_then(|f| f.eval(1.0)).map_err(|e| e.to_string()), Ok(1.0 + MAX_OPERATORS as f64));
    }

    /// Throughput from the time model itself, in units of l_th: two regions of n cores,
    /// additive, with bandwidths scaled so that b0_l = 1.
    fn throughput_two(xp: f64, z: f64, r: f64, b_e: f64, p: f64, n: f64) -> f64 {
        // #op = x'·#b·l_th/b0_l with #b = 1, l_th = 1: #op = x'; b_l = z; #x = 1/r.
        let t = (xp / 2.0) / n + 0.5 / z + p * (1.0 / r) / b_e;
        xp / t
    }

    fn throughput_one(xp: f64, z: f64, n: f64) -> f64 {
        xp / (xp / n + 1.0 / z)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn speedup_at_most_n(xp in 1e-3f64..1e5, z in 1e-2f64..1e2, n in 1.0f64..1e6) {
            let m = model(xp, z, 1.0, 0.05);
            prop_assert!(m.speedup_one(n).unwrap() <= n * (1.0 + 1e-12));
            prop_assert!(m.speedup_one_overlapping(n).unwrap() <= n * (1.0 + 1e-12));
        }

        /// Sp2 is the time model's throughput over its own n = 1, p = 1 baseline, with
        /// X = x'·z and z' = r·B_E/b_l; and the exact throughput comparison with one region.
        #[test]
        fn sp2_is_the_time_model(xp in 0.1f64..1e4, z in 0.1f64..10.0, r in 0.01f64..100.0,
                                 b_e in 0.01f64..100.0, a in 1e-3f64..1.0, n in 1.0f64..1e5) {
            let zp = r * b_e / z;
            let m = model(xp, z, zp, a);
            let p = a * n;
            let want = throughput_two(xp, z, r, b_e, p, n) / throughput_two(xp, z, r, b_e, 1.0, 1.0);
            let got = m.speedup_two(n).unwrap();
            prop_assert!((got - want).abs() <= 1e-9 * want, "{} vs {}", got, want);
            // Two regions of n cores vs one region of 2n cores: not faster iff z' ≤ 2p(n).
            let (two, one) = (throughput_two(xp, z, r, b_e, p, n), throughput_one(xp, z, 2.0 * n));
            if zp < 2.0 * p * (1.0 - 1e-9) { prop_assert!(two < one); }
            if zp > 2.0 * p * (1.0 + 1e-9) { prop_assert!(two > one); }
        }

        /// Same n = cores per region (2n in all): Sp2(n) ≤ Sp(n) ⇔ p(n)(1 + X) ≥ 1 + X/n,
        /// at any bandwidth; with p(n) ≥ 1 also Sp2(n) ≤ Sp(2n) and Sp2 ≤ n.
        #[test]
        fn sp2_against_one_region(xp in 1e-2f64..1e4, z in 0.1f64..10.0, zp in 1e-3f64..1e4,
                                  a in 1e-3f64..1.0, n in 1.0f64..1e5) {
            let m = model(xp, z, zp, a);
            let (x, p) = (xp * z, a * n);
            let (two, one) = (m.speedup_two(n).unwrap(), m.speedup_one(n).unwrap());
            let margin = p * (1.0 + x) - (1.0 + x / n);
            if margin > 1e-9 * (1.0 + x) { prop_assert!(two <= one * (1.0 + 1e-12)); }
            if margin < -1e-9 * (1.0 + x) { prop_assert!(two >= one * (1.0 - 1e-12)); }
            if p >= 1.0 {
                prop_assert!(two <= m.speedup_one(2.0 * n).unwrap() * (1.0 + 1e-12));
                prop_assert!(two <= n * (1.0 + 1e-12));
            }
            // Between its two ends: 1/p (B_E → 0) and Sp(n) (B_E → ∞).
            let (lo, hi) = if one < 1.0 / p { (one, 1.0 / p) } else { (1.0 / p, one) };
            prop_assert!(two >= lo * (1.0 - 1e-12) && two <= hi * (1.0 + 1e-12));
        }

        #[test]
        fn required_bandwidth_is_the_smallest(xp in 1.0f64..1e4, z in 0.1f64..10.0, a in 1e-3f64..1.0,
                                              n in 1.0f64..1e4, f in 0.05f64..0.999, scaled: bool) {
            let m = if scaled { model(xp, z, 1.0, a) } else { slides(xp, z, 1.0, a) };
            let m = m.with_region_bandwidth(2.0).unwrap();
            let r = m.required_bandwidth(n, f).unwrap();
            match r.requirement {
                Requirement::Bandwidth { z_prime, bandwidth_gb_s } => {
                    let b = bandwidth_gb_s.unwrap();
                    prop_assert!((b - 2.0 * z_prime).abs() <= 1e-12 * b);
                    let reach = |b: f64| m.at_bandwidth(b).and_then(|m| m.speedup_two(n)).unwrap();
                    prop_assert!(reach(b) >= r.target_speedup, "{} < {}", reach(b), r.target_speedup);
                    prop_assert!(reach(b * 0.999) < r.target_speedup);
                }
                Requirement::AnyBandwidth => prop_assert!(r.target_speedup * a * n <= 1.0),
                // Only the slides' reading with z > 1 can fall short, and then only because its
                // limit (1 + x')/(1 + x'/n) is below the target.
                Requirement::Unreachable { limit } => {
                    prop_assert!(!scaled && z > 1.0, "f < 1 is reachable when X = x'z");
                    prop_assert!(limit <= r.target_speedup * (1.0 + 1e-9));
                    prop_assert!(m.at_bandwidth(1e9).and_then(|m| m.speedup_two(n)).unwrap() < r.target_speedup);
                }
            }
        }

        #[test]
        fn polynomials_parse(c in proptest::collection::vec(-1e3f64..1e3, 1..5), n in 0.5f64..1e3) {
            let text: Vec<String> = c.iter().enumerate().map(|(k, ck)| format!("({ck})*N^{k}")).collect();
            let got = Formula::parse("bytes", &text.join(" + ")).and_then(|f| f.eval(n)).unwrap();
            let want: f64 = c.iter().enumerate().map(|(k, ck)| ck * n.powi(k as i32)).sum();
            let scale: f64 = c.iter().enumerate().map(|(k, ck)| (ck * n.powi(k as i32)).abs()).sum();
            prop_assert!((got - want).abs() <= 1e-12 * scale.max(1.0));
        }
    }
}
