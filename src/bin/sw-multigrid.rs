//! `multigrid.html`: the multi-cluster planner page, alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::MULTIGRID);
}

/// Median milliseconds of `runs` planner runs (`ui::bench::planner`), for browser benchmarks.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_planner(runs: u32) -> f64 {
    scalewise::ui::bench::planner(runs)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
