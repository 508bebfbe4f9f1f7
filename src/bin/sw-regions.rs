//! `regions.html`: the two-regions page, alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::REGIONS);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
