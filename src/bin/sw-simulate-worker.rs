//! The Web Worker of `simulate.html`: runs simulations off the page's main thread
//! (`ui::sim_worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::sim_worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
