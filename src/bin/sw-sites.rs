//! `sites.html`: the "Broadcast across sites" page (logical clusters of a latency matrix,
//! grid broadcast), alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::SITES);
}

/// Median milliseconds of `runs` clusterings of an `n`-node matrix (`ui::bench::clusters`),
/// for browser benchmarks.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_clusters(n: u32, runs: u32) -> f64 {
    scalewise::ui::bench::clusters(n, runs)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
