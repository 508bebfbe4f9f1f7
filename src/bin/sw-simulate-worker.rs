//! The Web Worker of `simulate.html`: runs simulations off the page's main thread
//! (`ui::simulate_worker`).

#[cfg(target_arch = "wasm32")]
fn main() {
    scalewise::ui::simulate_worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
