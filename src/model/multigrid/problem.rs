//! The problem (an N × N grid partitioned by rows), the memory it needs per process, one
//! cluster's limits as reached over one fabric ([`ClusterSide`]), and the cost of a run.
//!
//! Seed: `seeds/000_36e595e86e3acfcd.txt`, section V.B–C (Tables I and II: memory per core,
//! prices per CPU-hour). Spec: `shared/spec/multigrid.md`.
//!
//! A problem is an N × N grid of `bytes_per_point` bytes per point, partitioned by rows. On np
//! processes the slowest process holds N̄ = ceil(N / np) rows; it sets both the run time and
//! the memory need: work = N̄ · N · bytes_per_point / 2^20 MB. A configuration is infeasible
//! when work > memory_per_node_mb / procs_per_node (the paper: 65536² on 32 cores of cluster
//! B needs 4 GB per core). Cost = Σ np_i · T / 3600 · price_i (every process is held for the
//! whole run), also given as CPU-hours.

use serde::{Deserialize, Serialize};

use super::{ceil_div, num};
use crate::model::cost::Economics;
use crate::model::error::InputError;

/// Bytes in one MB: work is memory per process in units of 2^20 bytes.
pub const BYTES_PER_MB: f64 = 1_048_576.0;
/// Largest memory per grid point accepted, bytes.
pub const MAX_BYTES_PER_POINT: f64 = 1e9;
/// Largest price per CPU-hour accepted (a job's cost multiplies it by processes and hours).
pub const MAX_PRICE_PER_CPU_HOUR: f64 = 1e9;
/// Largest memory per node accepted, MB.
pub const MAX_MEMORY_PER_NODE_MB: f64 = 1e12;

/// An N × N grid of `bytes_per_point` bytes per point, partitioned by rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Problem {
    /// Grid side N (rows = columns = N).
    pub n: u32,
    /// Memory per grid point over all multigrid levels, bytes (the paper's code: 32).
    pub bytes_per_point: f64,
}

impl Problem {
    pub fn check(&self) -> Vec<InputError> {
        let mut errors = Vec::new();
        if self.n < 2 {
            errors.push(InputError::new("N", format!("the grid side must be at least 2, found {}", self.n)));
        }
        if !self.bytes_per_point.is_finite() || self.bytes_per_point <= 0.0 {
            errors.push(InputError::new(
                "bytes per grid point",
                format!("must be a number greater than 0, found {}", num(self.bytes_per_point)),
            ));
        } else if self.bytes_per_point > MAX_BYTES_PER_POINT {
            // A grid's memory is N² times this: above it, a megabyte count stops being finite.
            errors.push(InputError::new(
                "bytes per grid point",
                format!("must be at most 1e9, found {}", num(self.bytes_per_point)),
            ));
        }
        errors
    }

    /// Memory of one row of the grid, MB.
    pub fn row_mb(&self) -> f64 {
        f64::from(self.n) * self.bytes_per_point / BYTES_PER_MB
    }

    /// Rows on the fullest of np processes: N̄ = ceil(N / np) (np = 0 is taken as 1).
    pub fn rows_per_process(&self, np: u32) -> u64 {
        ceil_div(u64::from(self.n), u64::from(np.max(1)))
    }

    /// Work of the fullest of np processes, MB.
    pub fn work_mb(&self, np: u32) -> f64 {
        self.work_mb_for_rows(self.rows_per_process(np))
    }

    /// Work of a process holding `rows` rows, MB.
    pub fn work_mb_for_rows(&self, rows: u64) -> f64 {
        rows as f64 * self.row_mb()
    }
}

/// Bytes per grid point measured by a calibration run: its work (MB) over the points one
/// process held. Sequential run at N̄ × N: rows_per_process = N̄, columns = N. Parallel run
/// on np0 processes over an (np0·N̄) × N grid: rows_per_process = N̄, columns = N.
/// (Paper: 1024 rows × 65536 columns in 2048 MB → 32 bytes per point.)
pub fn bytes_per_point(work_mb: f64, rows_per_process: u64, columns: u32) -> Result<f64, InputError> {
    if !work_mb.is_finite() || work_mb <= 0.0 {
        return Err(InputError::new("work_mb", format!("must be a number greater than 0 MB, found {}", num(work_mb))));
    }
    if rows_per_process == 0 {
        return Err(InputError::new("rows per process", "must be at least 1, found 0"));
    }
    if columns == 0 {
        return Err(InputError::new("columns", "must be at least 1, found 0"));
    }
    let b = work_mb * BYTES_PER_MB / (rows_per_process as f64 * f64::from(columns));
    if b.is_finite() && b > 0.0 {
        Ok(b)
    } else {
        Err(InputError::new("work_mb", "gives a byte count per point too large or too small to represent"))
    }
}

/// Processes of one cluster held for a whole run, at its price.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct CpuUse {
    pub np: u32,
    /// Price units per CPU-hour.
    pub price_per_cpu_hour: f64,
}

/// CPU-hours and money of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct Cost {
    pub cpu_hours: f64,
    pub cost: f64,
}

/// cost = Σ np_i · T / 3600 · price_i: every process is held for the whole run.
pub fn cost(uses: &[CpuUse], time_s: f64) -> Cost {
    uses.iter().fold(Cost { cpu_hours: 0.0, cost: 0.0 }, |acc, u| {
        let h = f64::from(u.np) * time_s / 3600.0;
        Cost { cpu_hours: acc.cpu_hours + h, cost: acc.cost + h * u.price_per_cpu_hour }
    })
}

/// One cluster as reached over one fabric.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct ClusterSide {
    pub name: String,
    pub fabric: String,
    pub free_procs: u32,
    pub procs_per_node: u32,
    pub memory_per_node_mb: f64,
    pub price_per_cpu_hour: f64,
    /// Cores, price, power and carbon of its nodes: what a run holding them is billed and uses.
    #[serde(default)]
    pub economics: Economics,
}

pub(super) fn check_cluster_numbers(
    name: &str,
    free_procs: u32,
    procs_per_node: u32,
    memory_per_node_mb: f64,
    price_per_cpu_hour: f64,
) -> Vec<InputError> {
    let field = |what: &str| format!("cluster {name}: {what}");
    let mut errors = Vec::new();
    if name.trim().is_empty() {
        errors.push(InputError::new("cluster name", "must not be empty"));
    }
    if free_procs == 0 {
        errors.push(InputError::new(field("free processes"), "must be at least 1, found 0"));
    }
    if procs_per_node == 0 {
        errors.push(InputError::new(field("processes per node"), "must be at least 1, found 0"));
    }
    if !memory_per_node_mb.is_finite() || memory_per_node_mb <= 0.0 {
        errors.push(InputError::new(
            field("memory per node (MB)"),
            format!("must be a number greater than 0, found {}", num(memory_per_node_mb)),
        ));
    }
    if !price_per_cpu_hour.is_finite() || price_per_cpu_hour < 0.0 {
        errors.push(InputError::new(
            field("price per CPU-hour"),
            format!("must be a number of at least 0, found {}", num(price_per_cpu_hour)),
        ));
    } else if price_per_cpu_hour > MAX_PRICE_PER_CPU_HOUR {
        errors.push(InputError::new(
            field("price per CPU-hour"),
            format!("must be at most 1e9, found {}", num(price_per_cpu_hour)),
        ));
    }
    if memory_per_node_mb > MAX_MEMORY_PER_NODE_MB {
        errors.push(InputError::new(
            field("memory per node (MB)"),
            format!("must be at most 1e12, found {}", num(memory_per_node_mb)),
        ));
    }
    errors
}

impl ClusterSide {
    pub fn check(&self) -> Vec<InputError> {
        check_cluster_numbers(
            &self.name,
            self.free_procs,
            self.procs_per_node,
            self.memory_per_node_mb,
            self.price_per_cpu_hour,
        )
    }

    /// Memory one process has: node memory ÷ processes per node, MB.
    pub fn memory_per_process_mb(&self) -> f64 {
        self.memory_per_node_mb / f64::from(self.procs_per_node.max(1))
    }

    /// The most rows of `problem` one process can hold.
    pub fn max_rows_per_process(&self, problem: &Problem) -> u64 {
        let n = u64::from(problem.n);
        let row_mb = problem.row_mb();
        let have = self.memory_per_process_mb();
        let guess = (have / row_mb).floor();
        if guess.is_nan() || guess < 1.0 {
            return 0;
        }
        let mut r = if guess >= n as f64 { n } else { guess as u64 };
        // The same comparison as the feasibility check, so rounding cannot disagree with it.
        while r > 0 && problem.work_mb_for_rows(r) > have {
            r -= 1;
        }
        while r < n && problem.work_mb_for_rows(r + 1) <= have {
            r += 1;
        }
        r
    }
}
