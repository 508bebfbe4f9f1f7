//! `bottlenecks.html`: the "Bottlenecks at scale" page, alone in its wasm.

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::start(scalewise::ui::BOTTLENECKS);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
