//! Multigrid run time and cost on one or two clusters, predicted from a few runs on one
//! processor and on a few processes (np0 = 4 and 8 in the paper).
//!
//! Seed: `seeds/000_36e595e86e3acfcd.txt`, section IV "The predictive model" (equations
//! (1)–(4) and the six-step recipe) and section V.B–C (one job over two clusters, equation
//! (5); Scenarios 1 and 2, Tables I and II). Spec: `shared/spec/multigrid.md`.
//!
//! # Model
//!
//! ```text
//! T(np, work)     = Tcomp(work) + Tcomm(np, work)            (1)  s
//! Tcomm(np, work) = α(np) + γ · work                         (2)  s; work in MB per process
//! α(np)           = c + d · log2(np)                         (3)  c in s, d in s per doubling
//! γ               = γ(largest np0 calibrated)                (4)  s/MB (the paper: γ(8))
//! ```
//!
//! `work` is the memory one process needs, in MB (2^20 bytes); it stands for the process's
//! share of the computation. `Tcomp(work)` is the time of the same per-process problem run on
//! one processor: the measured sequential time when `work` is a measured size, otherwise the
//! least-squares straight line through the sequential runs (multigrid work is linear in the
//! number of unknowns; the page says so next to such a prediction).
//!
//!
//! # Where things are
//!
//! The files follow the data, from the runs to the plan:
//!
//! - [`calibration`]: the runs, the fit of Tcomp, α(np) = c + d·log2 np and γ ([`fit`]), and
//!   predictions from a fit ([`Fit::predict`]).
//! - [`problem`]: the N × N grid, the memory a process needs, a cluster's limits over one
//!   fabric ([`ClusterSide`]) and the cost of a run.
//! - [`split`]: one cluster alone ([`plan_alone`]) and one job split over two clusters
//!   ([`plan_pair`]), or why a configuration cannot run.
//! - [`planner`]: scenarios 1 (ranking) and 2 (resolution) over one or two clusters ([`plan`]).
//! - [`presets`]: the spec's worked example and the White Rose Grid calibrations; [`page`]:
//!   everything the planner page shows.
//!
//! Everything public is re-exported here, so `crate::model::multigrid::Fit` and the like name
//! the same items wherever they live.

pub mod calibration;
pub mod page;
pub mod planner;
pub mod presets;
pub mod problem;
pub mod request;
pub mod split;

pub use calibration::{
    fit, AlphaFit, AlphaPoint, Calibration, Fit, Np0Fit, OverheadPoint, ParallelRun, Prediction, PredictionNote,
    RunOverhead, SequentialRun, TcompLine, TcompPoint, PARALLEL_COLUMNS, PARALLEL_FIELD, SEQUENTIAL_COLUMNS,
    SEQUENTIAL_FIELD,
};
pub use planner::{
    default_candidates, plan, Cluster, FabricFit, PlannerInput, PlannerReport, Resolution, ResolutionLevel,
    MAX_CANDIDATES, MAX_PAIRS,
};
pub use problem::{
    bytes_per_point, cost, ClusterSide, Cost, CpuUse, Problem, BYTES_PER_MB, MAX_BYTES_PER_POINT,
    MAX_MEMORY_PER_NODE_MB, MAX_PRICE_PER_CPU_HOUR,
};
pub use split::{
    plan_alone, plan_pair, Assignment, EvenSplit, Infeasibility, InfeasibleOption, Outcome, Part, Plan, Side,
};

use crate::model::error::fmt_num;

/// Most (np, work) pairs one input predicts at on the command. Work and answer grow with the
/// list.
pub const MAX_PREDICT: usize = 4096;

/// A number in an error message or a note: six significant digits.
fn num(x: f64) -> String {
    fmt_num(x, 6)
}

/// ceil(a / b); a itself when b is 0.
fn ceil_div(a: u64, b: u64) -> u64 {
    if b == 0 {
        return a;
    }
    a / b + u64::from(a % b != 0)
}

#[cfg(test)]
mod tests;
