//! Benchmarks for the browser, so speed targets are measured there on the same code and
//! input as natively. Each entry's binary exports the ones of its page to
//! `window.wasmBindings` (an export here would link the model into every entry).

use crate::model::gridcast::{benchmark_matrix, clusters as cluster_nodes, DEFAULT_RHO, MAX_NODES};
use crate::model::multigrid::plan;
use crate::model::multigrid_page::benchmark_planner_input;

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

fn median(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    ms.get(ms.len() / 2).copied().unwrap_or(-1.0)
}

/// Median milliseconds of `runs` full planner runs (see `benchmark_planner_input`), or -1
/// when the benchmark input cannot be built.
pub fn planner(runs: u32) -> f64 {
    let Some(input) = benchmark_planner_input() else { return -1.0 };
    let ms: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let t = now_ms();
            let n = plan(&input).map(|r| r.ranking.len()).unwrap_or(0);
            let dt = now_ms() - t;
            if n == 0 { f64::NAN } else { dt }
        })
        .collect();
    median(ms)
}

/// Median milliseconds of `runs` clusterings (ρ = 0.2) of the `n`-node benchmark matrix
/// (`gridcast::benchmark_matrix`, as natively), or -1 when n is 0 or above the page's limit.
/// The matrix is built once, outside the timing.
pub fn clusters(n: u32, runs: u32) -> f64 {
    let n = n as usize;
    if n == 0 || n > MAX_NODES {
        return -1.0;
    }
    let m = benchmark_matrix(n);
    let ms = (0..runs.max(1))
        .map(|_| {
            let t = now_ms();
            let groups = cluster_nodes(&m, DEFAULT_RHO).len();
            let dt = now_ms() - t;
            if groups == 0 { f64::NAN } else { dt }
        })
        .collect();
    median(ms)
}
