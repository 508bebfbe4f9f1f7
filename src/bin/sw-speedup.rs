//! `speedup.html`: the speed-up curve page, alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::SPEEDUP);
}

/// Data sets fitted per second (`ui::bench::speedup_fits`): the Downey fit alone when `full`
/// is false, the page's whole analysis (five models, leave-one-out) when true.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_speedup(full: bool, runs: u32) -> f64 {
    scalewise::ui::bench::speedup_fits(full, runs)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
