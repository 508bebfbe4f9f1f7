//! `speedup.html`: the speed-up curve page, alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::SPEEDUP);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
